// The hand-written types (types/ringlab.d.ts, types/ringlab_charts.d.ts) name exactly what
// the wasm modules export:
// `cargo xtask test` has wasm-bindgen write its own declarations (every type `any`) for the
// built module, and this file compiles only if the two agree on every export, every class
// member and every static method.
import type * as Generated from "ringlab-generated";
import type * as Typed from "ringlab";
import type * as GeneratedCharts from "ringlab-charts-generated";
import type * as TypedCharts from "ringlab-charts";
import type * as GeneratedElement from "ringlab-element-generated";

type Same<A extends PropertyKey, B extends PropertyKey> = [Exclude<A, B>, Exclude<B, A>] extends [never, never]
  ? true
  : { onlyGenerated: Exclude<A, B>; onlyTyped: Exclude<B, A> };

const exportsAgree: Same<keyof typeof Generated, keyof typeof Typed> = true;
const ringMembersAgree: Same<keyof Generated.Ring, keyof Typed.Ring> = true;
const ringStaticsAgree: Same<keyof typeof Generated.Ring, keyof typeof Typed.Ring> = true;
const sessionMembersAgree: Same<keyof Generated.Session, keyof Typed.Session> = true;
const sessionStaticsAgree: Same<keyof typeof Generated.Session, keyof typeof Typed.Session> = true;
const chartsExportsAgree: Same<keyof typeof GeneratedCharts, keyof typeof TypedCharts> = true;

// The element's own module (pkg/ringlab_element.js) is a part of the engine's API: nothing it
// exports is missing from the types.
type Within<A extends PropertyKey, B extends PropertyKey> = [Exclude<A, B>] extends [never] ? true : { onlyElement: Exclude<A, B> };
const elementExportsWithin: Within<keyof typeof GeneratedElement, keyof typeof Typed> = true;
const elementSessionWithin: Within<keyof GeneratedElement.Session, keyof Typed.Session> = true;
const elementStaticsWithin: Within<keyof typeof GeneratedElement.Session, keyof typeof Typed.Session> = true;

// And each function and method takes the same number of arguments (optional ones counted).
type Arity<F> = F extends (...args: infer P) => unknown ? Required<P>["length"] : never;
type ArityMismatch<G, T> = { [K in keyof G & keyof T]: Arity<G[K]> extends Arity<T[K]> ? never : K }[keyof G & keyof T];
type NoMismatch<M> = [M] extends [never] ? true : { mismatched: M };
const functionArities: NoMismatch<ArityMismatch<typeof Generated, typeof Typed>> = true;
const ringArities: NoMismatch<ArityMismatch<Generated.Ring, Typed.Ring>> = true;
const ringStaticArities: NoMismatch<ArityMismatch<typeof Generated.Ring, typeof Typed.Ring>> = true;
const sessionArities: NoMismatch<ArityMismatch<Generated.Session, Typed.Session>> = true;
const sessionStaticArities: NoMismatch<ArityMismatch<typeof Generated.Session, typeof Typed.Session>> = true;
const chartsArities: NoMismatch<ArityMismatch<typeof GeneratedCharts, typeof TypedCharts>> = true;
const elementArities: NoMismatch<ArityMismatch<typeof GeneratedElement, typeof Typed>> = true;
const elementSessionArities: NoMismatch<ArityMismatch<GeneratedElement.Session, Typed.Session>> = true;

void [exportsAgree, ringMembersAgree, ringStaticsAgree, sessionMembersAgree, sessionStaticsAgree, functionArities,
  ringArities, ringStaticArities, sessionArities, sessionStaticArities, chartsExportsAgree, chartsArities,
  elementExportsWithin, elementSessionWithin, elementStaticsWithin, elementArities, elementSessionArities];
