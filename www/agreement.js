// "Do two clients agree?": the engine places this pool with two cache clients, says how far,
// where and why they differ, and which clients agree on every key; this module only shows it.
// It works only while its <details> is open, so a closed one costs a change nothing.

const el = (tag, text, className) => {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text; // text, never HTML
  if (className) e.className = className;
  return e;
};
const pct = (x) => `${(x * 100).toFixed(1)}%`;

export class AgreementView {
  // `root` is the <details>.
  // `onApart(spans)` draws where the pair sends keys apart on the ring (none: `[]`).
  constructor(root, { onChange, onApart = () => {} }) {
    this.root = root;
    this.onApart = onApart;
    this.$ = (id) => root.querySelector(`#${id}`);
    this.session = null;
    for (const id of ["agree-from", "agree-with"]) this.$(id).addEventListener("change", () => this.update(this.session));
    this.$("agree-key").addEventListener("input", () => this.update(this.session));
    // A cell of the matrix picks its two clients.
    this.$("agree-matrix").addEventListener("click", (e) => {
      const cell = e.target.closest("td[data-pair]");
      if (!cell) return;
      const [a, b] = cell.dataset.pair.split(" ");
      this.$("agree-from").value = a;
      this.$("agree-with").value = b;
      this.update(this.session);
    });
    root.addEventListener("toggle", () => (root.open ? onChange() : onApart([])));
  }

  // Redraws from `session` (the playground's), if open.
  update(session) {
    this.session = session;
    if (!this.root.open || !session) return;
    this.onApart([]); // until this pair's arcs are known
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
    const [from, with_] = [this.$("agree-from").value, this.$("agree-with").value];
    if (!from || !with_) {
      this.$("agree-text").textContent = "Fewer than two cache clients of the catalog accept these servers' names.";
      return;
    }
    const key = this.$("agree-key").value;
    try {
      this.showPair(session.agreement(with_, key === "" ? undefined : key, from));
    } catch (e) {
      error.textContent = e.message;
    }
  }

  // Both menus list the clients that accept the pool; a new list starts from the engine's pair.
  fillChoices(m) {
    const selects = [this.$("agree-from"), this.$("agree-with")];
    const wanted = m.algorithms.join(",");
    if (selects[0].dataset.choices === wanted) return;
    const kept = selects.map((s) => s.value);
    const fresh = !selects[0].dataset.choices;
    selects.forEach((select, i) => {
      select.replaceChildren(...m.algorithms.map((a, j) => new Option(m.labels[j], a)));
      select.dataset.choices = wanted;
      const start = m.pair?.[i] ?? m.algorithms[i] ?? "";
      select.value = !fresh && m.algorithms.includes(kept[i]) ? kept[i] : start;
    });
  }

  showPair(a) {
    this.$("agree-text").textContent = a.text;
    this.onApart(a.apart);
    this.$("agree-ring").textContent = a.ringText;
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
    // The pair shown, marked in the matrix.
    for (const cell of this.$("agree-matrix").querySelectorAll("td.shown")) cell.classList.remove("shown");
    for (const pair of [`${a.algorithm} ${a.with}`, `${a.with} ${a.algorithm}`]) {
      this.$("agree-matrix").querySelector(`td[data-pair="${pair}"]`)?.classList.add("shown");
    }
  }

  // Rows named in full, columns numbered as the rows are (15 names across do not fit a
  // phone); each cell shaded by how many keys the two send apart, and the clients of a
  // compatible group marked with its letter.
  showMatrix(m) {
    const table = this.$("agree-matrix");
    const letter = new Map();
    m.groups.forEach((g, i) => g.algorithms.forEach((a) => letter.set(a, String.fromCharCode(65 + i))));
    const head = el("tr");
    head.append(Object.assign(el("th", "Client"), { scope: "col" }));
    m.algorithms.forEach((a, j) => {
      const th = Object.assign(el("th", String(j + 1), "num"), { scope: "col", title: m.labels[j] });
      th.setAttribute("aria-label", m.labels[j]);
      head.append(th);
    });
    table.querySelector("thead").replaceChildren(head);
    table.querySelector("tbody").replaceChildren(
      ...m.algorithms.map((a, i) => {
        const tr = el("tr");
        const th = Object.assign(el("th", `${i + 1} ${m.labels[i]}`), { scope: "row" });
        if (letter.has(a)) th.append(" ", el("span", letter.get(a), "group-mark"));
        tr.append(th);
        m.disagree[i].forEach((x, j) => {
          if (i === j) return tr.append(el("td", "–", "num"));
          const same = letter.has(a) && letter.get(a) === letter.get(m.algorithms[j]);
          const td = el("td", `${pct(x)}${m.exact[i][j] ? "" : "*"}`, `num shade${same ? " same" : ""}`);
          td.style.setProperty("--apart", String(Math.min(1, x)));
          td.dataset.pair = `${a} ${m.algorithms[j]}`;
          td.title = `${m.labels[i]} and ${m.labels[j]}`;
          tr.append(td);
        });
        return tr;
      }),
    );
    this.$("agree-groups").replaceChildren(
      ...m.groups.map((g, i) => {
        const li = el("li");
        li.append(el("span", String.fromCharCode(65 + i), "group-mark"), ` ${g.text}`);
        return li;
      }),
    );
    const refused = m.refused.map((r) => `${r.algorithm} (${r.error})`).join("; ");
    table.querySelector("caption").textContent =
      `Keys each two clients send to different servers, over the whole key space, or * on ${m.keys.toLocaleString("en-US")} keys; ` +
      "darker is more. Pick a cell to compare its two." +
      (refused ? ` Not shown, they refuse these names: ${refused}.` : "");
  }
}
