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

export interface ChartSvgOptions {
  /** Pixels, whole, at most 4096: 640 unless given. */
  width?: number;
  /** Pixels, whole, at most 4096: 400 unless given (the algorithms chart: as tall as its rows need). */
  height?: number;
  dark?: boolean;
}

export interface ChartSvg extends DrawnChart {
  /** The chart as an SVG document (`<svg width height viewBox>…</svg>`). */
  svg: string;
}

/**
 * `chart` (from `session.chartData`) as an SVG document, with no page: in Node or a script.
 * Its label areas are sized from Helvetica's advance widths (the sans-serif most viewers
 * draw it in). Anything else gets an Error with a `code` (`invalid-argument`,
 * `invalid-option`, `too-large`).
 */
export function chartSvg(chart: ChartData, options?: ChartSvgOptions): ChartSvg;

/** Installs the panic hook that logs a bug's message; `init` runs it (wasm-bindgen exports it). */
export function start(): void;

/** Loads the charts module; call once and await it before `drawChart`. */
export default function init(
  module_or_path?: { module_or_path: InitInput | Promise<InitInput> } | InitInput | Promise<InitInput>,
): Promise<InitOutput>;
/** As `init`, synchronously, from bytes or a compiled module. */
export function initSync(module: { module: SyncInitInput } | SyncInitInput): InitOutput;
