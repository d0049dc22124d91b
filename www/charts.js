// The charts section: four charts drawn by Rust + plotters on canvases, each with PNG and CSV
// downloads. After a change, a chart's data is computed in pieces by the engine, one task each
// (prepareChart: one hash's sweep, one cluster size, one algorithm), and then drawn in a task
// of its own, so no chart blocks the page for long; the times are shown under it. The drawing
// is a wasm module of its own (pkg/ringlab_charts.js), fetched when a chart is first drawn: the
// page's first download is the ring's alone.

import { drawChart, loadCharts } from "./charts-module.js";
import { fitCanvas, hostTheme } from "./host.js";

// Lookups are timed in rounds of LOOKUP_KEYS until LOOKUP_MS have passed (at most
// LOOKUP_ROUNDS): a browser's clock steps by 0.1 ms (Chromium) to 1 ms (Firefox), longer than
// one round of the fastest algorithms, which a single round timed as 0 ns.
const LOOKUP_KEYS = 10000;
const LOOKUP_MS = 5;
const LOOKUP_ROUNDS = 100;

const dark = () => hostTheme() === "dark";
const fit = (canvas) => fitCanvas(canvas).dpr;

function download(name, blob) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

// Nanoseconds per lookup of `algorithm` in this browser, on the session's nodes (a clock is
// the browser's: wasm has none). Also the metrics' lookup figures.
export function lookupCost(session, algorithm) {
  let ring;
  try {
    ring = session.ringFor(algorithm);
    const start = performance.now();
    let rounds = 0;
    let elapsed = 0;
    do {
      ring.keyOwners("key:", LOOKUP_KEYS);
      rounds += 1;
      elapsed = performance.now() - start;
    } while (elapsed < LOOKUP_MS && rounds < LOOKUP_ROUNDS);
    return (elapsed * 1e6) / (rounds * LOOKUP_KEYS);
  } catch {
    return NaN;
  } finally {
    ring?.free();
  }
}

export class Charts {
  // later(work): run work as its own task. Charts are drawn only while on screen, so a
  // change to a large ring does not pay for charts nobody is looking at.
  // engine(): the engine module in use (the page may replace a trapped one).
  constructor(later, engine) {
    this.later = later;
    this.engine = engine;
    this.csv = {};
    this.runs = {};
    this.visible = new Set();
    this.dirty = new Set();
    this.observer = new IntersectionObserver((entries) => {
      for (const e of entries) {
        const name = e.target.dataset.chart;
        if (e.isIntersecting) this.visible.add(name);
        else this.visible.delete(name);
      }
      this.flush();
    });
    for (const figure of document.querySelectorAll("figure[data-chart]")) {
      const name = figure.dataset.chart;
      figure.querySelector("[data-png]").addEventListener("click", () =>
        figure.querySelector("canvas").toBlob((b) => download(`ringlab-${name}.png`, b), "image/png"),
      );
      figure.querySelector("[data-csv]").addEventListener("click", () =>
        download(`ringlab-${name}.csv`, new Blob([this.csv[name] ?? ""], { type: "text/csv" })),
      );
      this.observer.observe(figure);
    }
    // The band rebuilds the sweep for five more hashes: several times the work, so on request.
    // Its checkbox is in the spread chart's figure: a click on it means the chart is on screen,
    // even before the observer says so (scrolling to the box can be what brought it there).
    document.getElementById("spread-band").addEventListener("change", () => {
      this.dirty.add("spread");
      this.visible.add("spread");
      this.flush();
    });
    // On a phone the algorithms chart shows one panel at a time, picked here.
    document.getElementById("algorithms-panel").addEventListener("change", () => {
      this.dirty.add("algorithms");
      this.visible.add("algorithms");
      this.flush();
    });
  }

  // Marks every chart stale for the page's session and redraws the ones on screen.
  update(session) {
    this.session = session;
    this.version = (this.version ?? 0) + 1;
    for (const f of document.querySelectorAll("figure[data-chart]")) this.dirty.add(f.dataset.chart);
    this.flush();
  }

  flush() {
    const session = this.session;
    if (!session) return;
    const due = (name) => this.visible.has(name) && this.dirty.delete(name);
    const band = document.getElementById("spread-band").checked;
    for (const name of ["spread", "shares", "moves"]) {
      if (!due(name)) continue;
      const opts = name === "spread" ? { band } : {};
      this.draw(name, () => session.prepareChart(name, opts), (draw, c, dpr) => draw(c, session.chartData(name, opts), { dark: dark(), dpr }));
    }
    if (!due("algorithms")) return;
    // Timing each algorithm is a piece of its own, before the rows and the chart (once a
    // state: another panel picked reuses them).
    const algorithms = this.engine().algorithms();
    if (this.timed?.version !== this.version) this.timed = { version: this.version, lookupNs: [] };
    const { lookupNs } = this.timed;
    const picker = document.getElementById("algorithms-panel");
    this.draw(
      "algorithms",
      () => {
        if (lookupNs.length < algorithms.length) {
          lookupNs.push(lookupCost(session, algorithms[lookupNs.length]));
          return false;
        }
        return session.prepareChart("algorithms");
      },
      (draw, c, dpr) => {
        // The picker shows only where the panels would stack (a phone): there, one at a time.
        const one = picker.checkVisibility() ? { panel: Number(picker.value || 0) } : {};
        const data = session.chartData("algorithms", { lookupNs, ...one });
        const out = draw(c, data, { dark: dark(), dpr });
        if (out.height && c.style.height !== `${out.height}px`) {
          // The chart's rows need this height at this width: size the box and draw again,
          // in a task of its own (two drawings in one task would stall the page).
          c.style.height = `${out.height}px`;
          return { again: true };
        }
        this.renderTable(out.table);
        return out;
      },
    );
  }

  // Computes a chart's data with prepare() (one piece per task, until it returns true), then
  // draws it with paint(drawChart, canvas, dpr) in a task of its own, once the charts module
  // is loaded (paint answers `{again: true}` to draw once more, in the next task); a newer
  // change stops both.
  draw(name, prepare, paint) {
    const figure = document.querySelector(`figure[data-chart="${name}"]`);
    const status = figure.querySelector(".chart-status");
    const version = this.version;
    const run = (this.runs[name] = {}); // a newer draw of this chart (e.g. the band) takes over
    const current = () => version === this.version && this.runs[name] === run;
    let pieces = 0, longest = 0;
    const step = () => {
      if (!current()) return; // a newer change is on its way
      const start = performance.now();
      let done;
      try {
        done = prepare();
      } catch (e) {
        done = true; // drawing reports the error
      }
      pieces++;
      longest = Math.max(longest, performance.now() - start);
      if (!done) this.later(step);
      else if (drawChart) this.later(finish);
      else load();
    };
    // The page counts the load as pending work (its tests wait for the page to settle).
    const perf = window.__ringlab ?? { pending: 0 };
    const load = () => {
      perf.pending++;
      loadCharts()
        .then(() => this.later(finish), fail)
        .finally(() => perf.pending--);
    };
    const fail = (e) => {
      status.textContent = e.message;
      status.classList.add("error");
      figure.dataset.drawn = "0";
    };
    const finish = () => {
      if (!current()) return;
      const canvas = figure.querySelector("canvas");
      const start = performance.now();
      try {
        const out = paint(drawChart, canvas, fit(canvas));
        if (out.again) return this.later(finish);
        this.csv[name] = out.csv;
        const data = pieces > 1 ? ` Its data took ${pieces} tasks, the longest ${longest.toFixed(0)} ms.` : ` Its data took ${longest.toFixed(0)} ms.`;
        status.textContent = `Drawn in ${(performance.now() - start).toFixed(0)} ms.${data}`;
        status.classList.remove("error");
        figure.dataset.drawn = "1";
      } catch (e) {
        fail(e);
      }
    };
    this.later(step);
  }

  renderTable(table) {
    const picker = document.getElementById("algorithms-panel");
    if (picker.options.length !== table.panels.length) {
      picker.replaceChildren(...table.panels.map((title, i) => new Option(title, String(i))));
    }
    const el = document.getElementById("algorithms-table");
    el.querySelector("caption").textContent = table.caption;
    const head = document.createElement("tr");
    for (const h of table.headers) {
      const th = document.createElement("th");
      th.scope = "col";
      th.textContent = h;
      head.append(th);
    }
    el.querySelector("thead").replaceChildren(head);
    el.querySelector("tbody").replaceChildren(
      ...table.rows.map((row) => {
        const tr = document.createElement("tr");
        row.forEach((cell, i) => {
          const td = document.createElement(i === 0 ? "th" : "td");
          if (i === 0) td.scope = "row";
          td.textContent = cell;
          tr.append(td);
        });
        return tr;
      }),
    );
  }
}
