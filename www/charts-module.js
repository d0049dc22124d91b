// The chart drawing (Rust + plotters) is a wasm module of its own, pkg/ringlab_charts.js,
// fetched the first time a chart is drawn: the first download of the page and of every
// <hash-ring> is the ring's alone. One load serves the page and every element on it.

// Both files named whole in `new URL("…", import.meta.url)`, so that bundlers find them; the
// wasm is passed to init, since the glue's own guess (beside itself) fails in a bundle.
const CHARTS = new URL("./pkg/ringlab_charts.js", import.meta.url).href;
const CHARTS_WASM = new URL("./pkg/ringlab_charts_bg.wasm", import.meta.url).href;

let loading;
// The module's drawChart, once loadCharts() has resolved (a live binding for importers).
export let drawChart;

// Imports and starts the module once; a failed load is tried again on the next call.
export function loadCharts() {
  loading ??= import(/* webpackIgnore: true */ /* @vite-ignore */ CHARTS).then(
    async (mod) => {
      await mod.default({ module_or_path: CHARTS_WASM });
      drawChart = mod.drawChart;
      return mod;
    },
    (e) => {
      loading = undefined;
      throw e;
    },
  );
  return loading;
}
