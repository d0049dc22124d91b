// `Symbol.dispose` for TypeScript configurations without `lib: ["esnext.disposable"]` (the
// default libs of `target` ES2022 and older): `Ring` and `Session` declare
// `[Symbol.dispose]()`, as wasm-bindgen's glue defines it, and without this a strict compile
// of ringlab.d.ts fails with "Property 'dispose' does not exist on type 'SymbolConstructor'".
// The declaration is the one TypeScript's own lib.esnext.disposable.d.ts makes, so the two
// merge where both are present. Types only: the glue defines the method where the runtime
// has `Symbol.dispose` (Node >= 20, current browsers); `free()` is there everywhere.
export {};

declare global {
  interface SymbolConstructor {
    readonly dispose: unique symbol;
  }
}
