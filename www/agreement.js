// "Do two clients agree?": the engine places this pool with the playground's algorithm and a
// second one, and says how far, where and why they differ; this module only shows it. It works
// only while its <details> is open, so a closed one costs a change nothing.

const el = (tag, text, className) => {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text; // text, never HTML
  if (className) e.className = className;
  return e;
};
const pct = (x) => `${(x * 100).toFixed(1)}%`;

export class AgreementView {
  // `root` is the <details>; `labels` maps algorithm names to their catalog labels.
  constructor(root, labels, { onChange }) {
    this.root = root;
    this.labels = labels;
    this.$ = (id) => root.querySelector(`#${id}`);
    this.session = null;
    this.$("agree-with").addEventListener("change", () => this.update(this.session));
    this.$("agree-key").addEventListener("input", () => this.update(this.session));
    root.addEventListener("toggle", () => root.open && onChange());
  }

  // Redraws from `session` (the playground's), if open.
  update(session) {
    this.session = session;
    if (!this.root.open || !session) return;
    const error = this.$("agree-error");
    let matrix;
    try {
      matrix = session.agreementMatrix();
    } catch (e) {
      error.textContent = e.message;
      return;
    }
    error.textContent = "";
    this.fillChoices(matrix);
    this.showMatrix(matrix);
    const with_ = this.$("agree-with").value;
    if (!with_) {
      this.$("agree-text").textContent = "No cache client of the catalog accepts these servers' names.";
      return;
    }
    const key = this.$("agree-key").value;
    try {
      this.showPair(session.agreement(with_, key === "" ? undefined : key));
    } catch (e) {
      error.textContent = e.message;
    }
  }

  fillChoices(matrix) {
    const select = this.$("agree-with");
    const wanted = matrix.algorithms.join(",");
    if (select.dataset.choices === wanted) return;
    const keep = select.value;
    select.replaceChildren(...matrix.algorithms.map((a) => new Option(this.labels.get(a) ?? a, a)));
    select.dataset.choices = wanted;
    if (matrix.algorithms.includes(keep)) select.value = keep;
  }

  showPair(a) {
    this.$("agree-this").textContent = a.label;
    this.$("agree-text").textContent = a.text;
    const reasons = this.$("agree-reasons");
    reasons.replaceChildren(
      ...a.reasons.map((r) => {
        const li = el("li");
        li.append(el("strong", `${r.step}: `), `${a.label}: ${r.a}; ${a.withLabel}: ${r.b}`);
        return li;
      }),
    );
    const body = this.$("agree-pairs").querySelector("tbody");
    body.replaceChildren(
      ...a.pairs.slice(0, 8).map((p) => {
        const tr = el("tr");
        tr.append(el("td", p.a), el("td", p.b), el("td", pct(p.share), "num"));
        return tr;
      }),
    );
    this.$("agree-pairs").hidden = a.pairs.length === 0;
    this.$("agree-pairs").querySelector("th[data-a]").textContent = a.label;
    this.$("agree-pairs").querySelector("th[data-b]").textContent = a.withLabel;
    const out = this.$("agree-key-out");
    out.textContent = a.key
      ? `${a.label} sends ${a.key.key} to ${a.key.a}; ${a.withLabel} to ${a.key.b}${a.key.agree ? " (they agree)" : ""}.`
      : "";
  }

  showMatrix(m) {
    const table = this.$("agree-matrix");
    const head = el("tr");
    head.append(el("th", ""));
    for (const a of m.algorithms) head.append(Object.assign(el("th", a), { scope: "col" }));
    table.querySelector("thead").replaceChildren(head);
    table.querySelector("tbody").replaceChildren(
      ...m.algorithms.map((a, i) => {
        const tr = el("tr");
        tr.append(Object.assign(el("th", a), { scope: "row" }));
        m.disagree[i].forEach((x, j) => tr.append(el("td", i === j ? "–" : `${pct(x)}${m.exact[i][j] ? "" : "*"}`, "num")));
        return tr;
      }),
    );
    const refused = m.refused.map((r) => `${r.algorithm} (${r.error})`).join("; ");
    table.querySelector("caption").textContent =
      `Keys each two clients send to different servers, over the whole key space, or * on ${m.keys.toLocaleString("en-US")} keys.` +
      (refused ? ` Not shown, they refuse these names: ${refused}.` : "");
  }
}
