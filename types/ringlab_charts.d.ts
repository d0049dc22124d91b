// The chart drawing's JavaScript API: the types of what `pkg/ringlab_charts.js` exports
// (src/web/charts.rs), a wasm module of its own so a page fetches it only when it first shows
// a chart. Its input is what the engine module's `session.chartData(kind)` returns.
//
// Written by hand, as types/ringlab.d.ts; tests/types/exports.ts checks these names against
// wasm-bindgen's own declarations.

import type { ChartData, InitInput, InitOutput, SyncInitInput } from "./ringlab.js";

export interface DrawChartOptions {
  dark?: boolean;
  /** Device pixels per CSS pixel (the canvas is sized by the caller). */
  dpr?: number;
}

/** The algorithms chart's figures as a table. */
export interface ChartTable {
  caption: string;
  headers: string[];
  rows: string[][];
}

export interface DrawnChart {
  /** The chart's numbers as CSV, header row with units. */
  csv: string;
  /** The algorithms chart only. */
  table: ChartTable | null;
}

/**
 * Draws `chart` (from `session.chartData`) on `canvas`, whose backing store the caller sized
 * to its CSS size × `dpr`. Anything else gets an Error with a `code` (`invalid-argument`,
 * `invalid-option`).
 */
export function drawChart(canvas: HTMLCanvasElement, chart: ChartData, options?: DrawChartOptions): DrawnChart;

/** Installs the panic hook that logs a bug's message; `init` runs it (wasm-bindgen exports it). */
export function start(): void;

/** Loads the charts module; call once and await it before `drawChart`. */
export default function init(
  module_or_path?: { module_or_path: InitInput | Promise<InitInput> } | InitInput | Promise<InitInput>,
): Promise<InitOutput>;
/** As `init`, synchronously, from bytes or a compiled module. */
export function initSync(module: { module: SyncInitInput } | SyncInitInput): InitOutput;
