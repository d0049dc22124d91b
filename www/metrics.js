// "The papers' metrics": the engine measures every algorithm on the playground's nodes
// (Session.metrics: a join, a removal in the chosen order and the rejoin, for each) and says
// what each metric means and which algorithm wins it; this module times the lookups (wasm has
// no clock) and builds the DOM from the answer, as text. Measuring every algorithm is far
// more work than a change of the ring, so it runs only when the <details> is opened, the
// order changes or the button is pressed; a change of the ring marks the table out of date.
import { lookupCost } from "./charts.js";

const el = (tag, text, className) => {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text; // text, never HTML
  if (className) e.className = className;
  return e;
};

export class MetricsView {
  // `root` is the <details>; later(work) runs work as a task of its own; engine() is the
  // engine module in use.
  constructor(root, later, engine) {
    this.root = root;
    this.later = later;
    this.engine = engine;
    this.$ = (id) => root.querySelector(`#${id}`);
    this.session = null;
    this.run = 0; // the measurement under way (a newer one stops it)
    this.measuring = false;
    this.shown = false;
    root.addEventListener("toggle", () => root.open && !this.shown && this.measure());
    this.$("metrics-order").addEventListener("change", () => this.measure());
    this.$("metrics-run").addEventListener("click", () => this.measure());
  }

  // The playground's session changed: measure it again if a measurement is under way, else
  // say the table shown is of an earlier ring.
  update(session) {
    this.session = session;
    if (this.measuring) this.measure();
    else if (this.shown) {
      this.$("metrics-status").textContent = "The ring has changed since: press Measure again for these nodes.";
      this.$("metrics-status").classList.add("stale");
    }
  }

  measure() {
    if (!this.session || !this.root.open) return;
    const run = ++this.run;
    this.measuring = true;
    const status = this.$("metrics-status");
    status.classList.remove("stale");
    status.textContent = "Measuring every algorithm…";
    const algorithms = this.engine().algorithms();
    const lookupNs = [];
    // One algorithm's lookups per task, then the metrics in a task of their own.
    const step = () => {
      if (run !== this.run) return;
      if (lookupNs.length < algorithms.length) {
        lookupNs.push(lookupCost(this.session, algorithms[lookupNs.length]));
        this.later(step);
        return;
      }
      this.measuring = false;
      const start = performance.now();
      let m;
      try {
        m = this.session.metrics({ removalOrder: this.$("metrics-order").value, lookupNs });
      } catch (e) {
        this.$("metrics-error").textContent = e.message;
        status.textContent = "";
        return;
      }
      const ms = performance.now() - start;
      this.$("metrics-error").textContent = "";
      this.show(m);
      status.textContent = `Measured in ${ms.toFixed(0)} ms, after timing ${algorithms.length.toLocaleString("en-US")} algorithms' lookups.`;
    };
    this.later(step);
  }

  show(m) {
    this.shown = true;
    const table = this.$("metrics-table");
    table.querySelector("caption").textContent = m.caption;
    const head = el("tr");
    for (const h of m.headers) head.append(Object.assign(el("th", h), { scope: "col" }));
    table.querySelector("thead").replaceChildren(head);
    table.querySelector("tbody").replaceChildren(
      ...m.rows.map((row) => {
        const tr = el("tr");
        tr.append(Object.assign(el("th", row.algorithm), { scope: "row" }));
        row.cells.forEach((cell, i) => {
          const td = el("td", cell, row.wins[i] ? "win" : undefined);
          if (row.wins[i]) {
            const star = el("span", " ★", "star");
            star.setAttribute("aria-hidden", "true");
            td.append(star, el("span", " (best)", "visually-hidden"));
          }
          tr.append(td);
        });
        tr.append(el("td", row.note, "note"));
        return tr;
      }),
    );
    const words = this.$("metrics-words");
    words.replaceChildren(
      ...m.metrics.flatMap((metric, i) => {
        const dd = el("dd", metric.description);
        dd.append(el("span", m.winners[i].sentence, "winner"));
        return [el("dt", m.headers[i + 1]), dd];
      }),
    );
  }
}
