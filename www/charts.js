// The charts section: four charts drawn by the engine (Rust + plotters) on canvases, each
// with PNG and CSV downloads. Each chart is redrawn in its own task after a change, and its
// draw time is shown under it.

const LOOKUP_KEYS = 10000;
const dark = () => matchMedia("(prefers-color-scheme: dark)").matches;

// Sizes the backing store to CSS size × devicePixelRatio; returns the ratio.
function fit(canvas) {
  const dpr = window.devicePixelRatio || 1;
  const box = canvas.getBoundingClientRect();
  canvas.width = Math.max(1, Math.round(box.width * dpr));
  canvas.height = Math.max(1, Math.round(box.height * dpr));
  return dpr;
}

function download(name, blob) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

// Nanoseconds per lookup of each algorithm in this browser, on the session's nodes (a clock
// is the browser's: wasm has none).
function lookupCosts(session, algorithms) {
  return algorithms.map((algorithm) => {
    let ring;
    try {
      ring = session.ringFor(algorithm);
      const start = performance.now();
      ring.keyOwners("key:", LOOKUP_KEYS);
      return ((performance.now() - start) * 1e6) / LOOKUP_KEYS;
    } catch {
      return NaN;
    } finally {
      ring?.free();
    }
  });
}

export class Charts {
  // later(work): run work as its own task. Charts are drawn only while on screen, so a
  // change to a large ring does not pay for charts nobody is looking at.
  // engine(): the engine module in use (the page may replace a trapped one).
  constructor(later, engine) {
    this.later = later;
    this.engine = engine;
    this.csv = {};
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
    document.getElementById("spread-band").addEventListener("change", () => {
      this.dirty.add("spread");
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
      if (due(name)) this.draw(name, (c, dpr) => session.drawChart(c, name, { dark: dark(), dpr, band }));
    }
    if (!due("algorithms")) return;
    // Timing every algorithm is a task of its own, before the chart that shows the times.
    const version = this.version;
    this.later(() => {
      if (version === this.version) this.lookups = lookupCosts(session, this.engine().algorithms());
    });
    this.draw("algorithms", (c, dpr) => {
      const out = session.drawChart(c, "algorithms", { dark: dark(), dpr, lookupNs: this.lookups ?? [] });
      this.renderTable(out.table);
      return out;
    });
  }

  draw(name, paint) {
    const figure = document.querySelector(`figure[data-chart="${name}"]`);
    const status = figure.querySelector(".chart-status");
    const version = this.version;
    this.later(() => {
      if (version !== this.version) return; // a newer change is on its way
      const canvas = figure.querySelector("canvas");
      const start = performance.now();
      try {
        this.csv[name] = paint(canvas, fit(canvas)).csv;
        status.textContent = `Drawn in ${(performance.now() - start).toFixed(0)} ms.`;
        status.classList.remove("error");
        figure.dataset.drawn = "1";
      } catch (e) {
        status.textContent = e.message;
        status.classList.add("error");
        figure.dataset.drawn = "0";
      }
    });
  }

  renderTable(table) {
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
