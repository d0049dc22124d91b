// "Explain a key": the engine's chain for one key (the bytes hashed, the hash, the point, slot,
// bucket or entry, its label, the walk past down nodes, the owner and the replicas), as an
// ordered list; hovering or focusing a step marks its place on the ring and its node in the
// table. With a second algorithm, the two chains side by side and the first step where they
// part. Every word comes from the engine; this module only builds the list, with textContent.

const el = (tag, text, className) => {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text; // text, never HTML
  if (className) e.className = className;
  return e;
};

export class ExplainView {
  // `root` is the <details>; `labels` maps algorithm names to their catalog labels (a Map the
  // page fills once its engine has the catalog);
  // `highlight(marks)` marks steps' places (`[{at, second}]`, `at` being a step's
  // {fraction, node, nodes}; `second` for the side-by-side chain) on the figure, `null` clears;
  // `session()` is the playground's session now.
  constructor(root, labels, { highlight, session }) {
    this.root = root;
    this.labels = labels;
    this.highlight = highlight;
    this.current = session;
    this.$ = (id) => root.querySelector(`#${id}`);
    const select = this.$("explain-with");
    this.fillChoices();
    let typing;
    this.$("explain-key").addEventListener("input", () => {
      clearTimeout(typing);
      typing = setTimeout(() => this.update(), 200);
    });
    this.$("explain-form").addEventListener("submit", (e) => {
      e.preventDefault();
      // Enter answers now: the typing pause's redraw would rebuild the list under the
      // reader (and take the focus from a step they moved to).
      clearTimeout(typing);
      this.update();
    });
    select.addEventListener("change", () => this.update());
    root.addEventListener("toggle", () => (root.open ? this.update() : this.highlight(null)));
  }

  // Explains `key` (a key clicked on the ring), opening the panel.
  setKey(key) {
    this.$("explain-key").value = key;
    this.root.open = true;
    this.update();
  }

  // The other algorithms to compare with: the labels'.
  fillChoices() {
    const select = this.$("explain-with");
    const have = new Set([...select.options].map((o) => o.value));
    select.append(...[...this.labels].filter(([name]) => !have.has(name)).map(([name, label]) => new Option(label, name)));
  }

  // Redraws from the playground's session, if open.
  update() {
    const session = this.current();
    if (!this.root.open || !session) return;
    const key = this.$("explain-key").value;
    const with_ = this.$("explain-with").value;
    const error = this.$("explain-error");
    error.textContent = "";
    let chain, pair;
    try {
      if (with_) pair = session.explainPair(with_, key);
      else chain = session.explain(key);
    } catch (e) {
      error.textContent = e.message;
      this.$("explain-out").replaceChildren();
      return;
    }
    this.show(pair ? [pair.a, pair.b] : [chain], pair);
  }

  show(chains, pair) {
    const out = this.$("explain-out");
    const columns = chains.map((chain, c) => {
      const column = el("section", undefined, "explain-chain");
      const title = this.labels.get(chain.algorithm) ?? chain.algorithm;
      const heading = el("h4", title);
      heading.id = `explain-chain-${c}`;
      const list = el("ol");
      list.setAttribute("aria-labelledby", heading.id);
      chain.steps.forEach((step, i) => list.append(this.item(chains, c, i, pair)));
      column.append(heading, list);
      return column;
    });
    const summary = el("p", this.summary(chains, pair), "explain-summary");
    out.replaceChildren(summary, el("div", undefined, "explain-chains"));
    out.lastChild.append(...columns);
  }

  // The headline, from the engine's answers.
  summary(chains, pair) {
    const say = (c) => (c.owner !== null ? `${c.owner}` : `no server (${c.error})`);
    const [a, b] = chains;
    const title = (c) => this.labels.get(c.algorithm) ?? c.algorithm;
    if (!pair) return `${title(a)} sends ${JSON.stringify(a.key)} to ${say(a)}, in ${a.steps.length} steps.`;
    const parts = pair.partsAt === null ? "The chains are the same." : `The chains part at step ${pair.partsAt + 1}.`;
    return `${title(a)} sends it to ${say(a)}; ${title(b)} to ${say(b)}${pair.agree ? " (they agree)" : ""}. ${parts}`;
  }

  // Step `i` of chain `c`: its words and value. Hovered or focused, it marks its place on
  // the ring (the second chain's dashed: its algorithm's own key space drawn on the same
  // circle); the step where the chains part marks both chains' places at once.
  item(chains, c, i, pair) {
    const step = chains[c].steps[i];
    const parts = i === pair?.partsAt;
    const li = el("li", undefined, `explain-step kind-${step.kind}`);
    li.append(el("span", step.label, "explain-label"), " ", el("code", step.value, "explain-value"));
    if (parts) {
      li.classList.add("parts");
      li.append(" ", el("strong", "first difference", "explain-parts"));
    }
    const places = (s) => s && (s.at.fraction !== null || s.at.node !== null || s.at.nodes.length > 0);
    const marks = (parts ? chains.map((chain, k) => [chain.steps[i], k]) : [[step, c]])
      .filter(([s]) => places(s))
      .map(([s, k]) => ({ at: s.at, second: k === 1 }));
    if (marks.length) {
      li.tabIndex = 0;
      const on = () => this.highlight(marks);
      const off = () => this.highlight(null);
      li.addEventListener("pointerenter", on);
      li.addEventListener("focus", on);
      li.addEventListener("pointerleave", off);
      li.addEventListener("blur", off);
    }
    return li;
  }
}
