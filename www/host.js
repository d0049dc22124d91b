// What the playground, the <hash-ring> element and the tour share: loading an engine module
// and recovering from a trap, fitting a canvas to its box, the theme (dark or light, the
// colours), and reduced motion. No DOM of its own and no numbers: those are the engine's.

// ---- Engines

// A trapped engine: a bug (every input gets an Error instead) that killed the module.
export const trapped = (e) => e instanceof WebAssembly.RuntimeError;

// Imports an engine module (its wasm-bindgen glue, `engine.glue`) and starts it with its wasm
// (`engine.wasm`), fetched alongside the glue rather than after it. `fresh` loads a new
// instance of the glue (after a trap, or after a failed download the browser would otherwise
// keep). Both are URLs a caller made with `new URL("./pkg/….js", import.meta.url)`: Vite and
// webpack copy such files into a build as they are, and leave this import of a URL alone.
export async function loadEngine(engine, { fresh = false } = {}) {
  const wasm = fetch(engine.wasm);
  wasm.catch(() => {}); // a failure shows through the module's init below
  const glue = `${engine.glue}${fresh ? `?instance=${Date.now()}` : ""}`;
  const mod = await import(/* webpackIgnore: true */ /* @vite-ignore */ glue);
  await mod.default({ module_or_path: wasm });
  return mod;
}

// Calls `onTrap(error)` for a trap that escaped as an uncaught error or rejection.
export function onUncaughtTrap(onTrap) {
  window.addEventListener("error", (e) => trapped(e.error) && onTrap(e.error));
  window.addEventListener("unhandledrejection", (e) => trapped(e.reason) && onTrap(e.reason));
}

// ---- Canvases

// Sizes a canvas's backing store to its CSS box × devicePixelRatio (crisp lines at any zoom);
// returns the box (CSS pixels) and the ratio. A box of 0 keeps a 1 × 1 store.
export function fitCanvas(canvas, box = canvas.getBoundingClientRect()) {
  const dpr = window.devicePixelRatio || 1;
  const w = Math.max(1, Math.round(box.width * dpr));
  const h = Math.max(1, Math.round(box.height * dpr));
  if (canvas.width !== w || canvas.height !== h) {
    canvas.width = w;
    canvas.height = h;
  }
  return { width: box.width, height: box.height, dpr };
}

// Whether a canvas's store already has its box × devicePixelRatio (a resize notification that
// changes nothing needs no redraw).
export function canvasFits(canvas, box = canvas.getBoundingClientRect()) {
  const dpr = window.devicePixelRatio || 1;
  return canvas.width === Math.max(1, Math.round(box.width * dpr)) && canvas.height === Math.max(1, Math.round(box.height * dpr));
}

// ---- Theme: one rule for dark or light, everywhere.

const DARK_CLASSES = ["dark", "dark-mode", "theme-dark", "coal", "navy", "ayu"]; // mdBook: coal, navy, ayu
const LIGHT_CLASSES = ["light", "light-mode", "theme-light", "rust"]; // mdBook: light, rust
const THEME_ATTRS = ["data-theme", "data-bs-theme", "data-color-mode", "data-mode"];

// "dark" or "light": the page's own toggles (classes and attributes sites use), then its
// color-scheme, then the background it paints, then the OS setting where the page allows it.
export function hostTheme(doc = document) {
  for (const el of [doc.documentElement, doc.body]) {
    if (!el) continue;
    for (const a of THEME_ATTRS) {
      const v = el.getAttribute(a);
      if (v === "dark" || v === "light") return v;
    }
    if (DARK_CLASSES.some((c) => el.classList.contains(c))) return "dark";
    if (LIGHT_CLASSES.some((c) => el.classList.contains(c))) return "light";
  }
  const meta = doc.querySelector('meta[name="color-scheme"]')?.content ?? "";
  const scheme = `${getComputedStyle(doc.documentElement).colorScheme} ${meta}`.split(/\s+/);
  if (scheme.includes("dark") !== scheme.includes("light")) return scheme.includes("dark") ? "dark" : "light";
  // A page that paints its own background (perhaps under its own media query) shows which.
  for (const el of [doc.body, doc.documentElement]) {
    const lum = el && luminance(getComputedStyle(el).backgroundColor);
    if (lum !== null && lum !== undefined) return lum < 0.4 ? "dark" : "light";
  }
  // Transparent: the browser paints the page dark only when it declares it can be.
  return scheme.includes("dark") && matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}

// Relative luminance of an opaque `rgb(…)`/`rgba(…)` colour; null when transparent or other.
function luminance(css) {
  const m = /^rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)$/.exec(css);
  if (!m || (m[4] !== undefined && Number(m[4]) < 0.5)) return null;
  const [r, g, b] = [m[1], m[2], m[3]].map((v) => {
    const c = Number(v) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

// Calls each watcher when the page's theme may have changed (its toggles, its style, the OS
// setting); one observer for all. Returns the function that stops watching.
const watchers = new Set();
let observer, media;
const notify = () => watchers.forEach((w) => w());
export function watchTheme(callback) {
  watchers.add(callback);
  if (!observer) {
    observer = new MutationObserver(notify);
    const attributeFilter = ["class", "style", ...THEME_ATTRS];
    observer.observe(document.documentElement, { attributes: true, attributeFilter });
    if (document.body) observer.observe(document.body, { attributes: true, attributeFilter });
    media = matchMedia("(prefers-color-scheme: dark)");
    media.addEventListener("change", notify);
  }
  return () => {
    watchers.delete(callback);
    if (watchers.size || !observer) return;
    observer.disconnect();
    media.removeEventListener("change", notify);
    observer = media = undefined;
  };
}

// The colours a drawing uses, from CSS custom properties on `el` (`prefix` + bg, fg, muted,
// moved): the page's theme.css names them `--bg`…, the element's shadow root `--_bg`….
export function themeColours(el, prefix = "--") {
  const css = getComputedStyle(el);
  const v = (name) => css.getPropertyValue(`${prefix}${name}`).trim();
  return { bg: v("bg"), fg: v("fg"), muted: v("muted"), moved: v("moved") };
}

export const reducedMotion = () => matchMedia("(prefers-reduced-motion: reduce)").matches;
