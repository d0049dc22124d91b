// <hash-ring>: the ring as one element for blog posts and docs.
//
//   <script type="module" src="https://example.org/ringlab/hash-ring.js"></script>
//   <hash-ring nodes="cache-a, cache-b, cache-c" vnodes="64" algorithm="ring" keys="1000"></hash-ring>
//
// Attributes: nodes (comma-separated names; "name*2" for weight 2), vnodes, hash, algorithm,
// keys (sample size). It draws the ring, has "Add node" / "Remove node" buttons, and says
// exactly what each change moved. Names are shown as text, never HTML.
import init, { Ring } from "./pkg/ringlab.js";
import { RingView, colourOf } from "./ring-view.js";

const ready = init();
const STYLE = `
:host { display: block; max-width: 520px; font: 14px/1.5 system-ui, sans-serif; --bg: #fff; --fg: #1b1b1f; --muted: #545461; --line: #c9c9d3; --accent: #0b57d0; color: var(--fg); }
@media (prefers-color-scheme: dark) { :host { --bg: #121216; --fg: #ececf1; --muted: #b4b4c0; --line: #3a3a46; --accent: #8ab4f8; } }
canvas { width: 100%; aspect-ratio: 1; display: block; }
.bar { display: flex; gap: 8px; flex-wrap: wrap; align-items: center; }
button { font: inherit; padding: 4px 10px; border-radius: 6px; border: 1px solid var(--accent); background: var(--accent); color: var(--bg); cursor: pointer; }
button:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.legend span { display: inline-flex; align-items: center; gap: 4px; margin-right: 10px; }
.legend i { width: 10px; height: 10px; border-radius: 2px; display: inline-block; }
.error { color: #b3261e; }
p { margin: 6px 0; }`;

class HashRing extends HTMLElement {
  static observedAttributes = ["nodes", "vnodes", "hash", "algorithm", "keys"];

  constructor() {
    super();
    const root = this.attachShadow({ mode: "open" });
    root.innerHTML = `<style>${STYLE}</style><canvas role="img"></canvas>
      <div class="bar"><button type="button" data-act="add">Add node</button><button type="button" data-act="remove">Remove node</button></div>
      <p class="legend"></p><p class="out" aria-live="polite"></p>`;
    this.view = new RingView(root.querySelector("canvas"));
    root.querySelector("[data-act=add]").addEventListener("click", () => this.change("add"));
    root.querySelector("[data-act=remove]").addEventListener("click", () => this.change("remove"));
  }

  connectedCallback() {
    ready.then(() => this.build());
    this.resize ??= new ResizeObserver(() => this.ring && this.draw());
    this.resize.observe(this);
  }

  attributeChangedCallback() {
    if (this.isConnected) ready.then(() => this.build());
  }

  get keyCount() {
    return Math.min(100000, Math.max(0, Number(this.getAttribute("keys") ?? 1000) || 0));
  }

  build() {
    const out = this.shadowRoot.querySelector(".out");
    const nodes = (this.getAttribute("nodes") ?? "a, b, c")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean)
      .map((s) => {
        const [name, weight] = s.split("*");
        return { name, weight: weight === undefined ? 1 : Number(weight) };
      });
    const options = { nodes, algorithm: this.getAttribute("algorithm") ?? "ring", hash: this.getAttribute("hash") ?? "xxh3" };
    if (this.hasAttribute("vnodes")) options.vnodes = Number(this.getAttribute("vnodes"));
    try {
      this.ring?.free();
      this.ring = new Ring(options);
      this.moved = [];
      out.className = "out";
      out.textContent = "Add or remove a node to see exactly what moves.";
    } catch (e) {
      this.ring = undefined;
      out.className = "out error";
      out.textContent = `hash-ring: ${e.message}`;
      return;
    }
    this.draw();
  }

  // `moved`: the arcs the last change moved, kept so a resize redraws them too.
  draw(moved = this.moved ?? []) {
    this.moved = moved;
    const r = this.ring;
    const css = getComputedStyle(this);
    const v = (name) => css.getPropertyValue(name).trim();
    const empty = r.nodes().length === 0;
    this.view.setData({
      points: r.pointFractions(),
      owners: r.pointOwners(),
      keys: empty ? new Float64Array() : r.keyFractions("key:", this.keyCount),
      keyOwners: empty ? new Uint32Array() : r.keyOwners("key:", this.keyCount),
      scale: ["0", "", "", ""],
      theme: { bg: v("--bg"), fg: v("--fg"), muted: v("--muted"), moved: v("--fg") },
    });
    this.view.draw({ moved });
    const legend = this.shadowRoot.querySelector(".legend");
    legend.replaceChildren(
      ...r.nodes().map((n, i) => {
        const item = document.createElement("span");
        const swatch = document.createElement("i");
        swatch.style.background = colourOf(i);
        item.append(swatch, `${n.name} ${n.share == null ? "" : `${(n.share * 100).toFixed(1)}%`}`);
        return item;
      }),
    );
    const names = r.nodes().map((n) => n.name).join(", ");
    this.view.canvas.setAttribute("aria-label", `Hash ring with ${r.nodes().length} nodes: ${names}`);
  }

  change(action) {
    if (!this.ring) return;
    const before = this.ring.clone();
    const out = this.shadowRoot.querySelector(".out");
    try {
      if (action === "add") {
        const taken = new Set(this.ring.nodes().map((n) => n.name));
        let i = this.ring.nodes().length + 1;
        while (taken.has(`node-${i}`)) i++;
        this.ring.add(`node-${i}`, undefined);
      } else {
        const nodes = this.ring.nodes();
        if (nodes.length <= 1) throw new Error("keep at least one node");
        this.ring.remove(nodes[nodes.length - 1].name);
      }
      const sample = Ring.diffSample(before, this.ring, "key:", this.keyCount, 1);
      let moved = [];
      let exact = "";
      try {
        const d = Ring.diff(before, this.ring);
        moved = d.arcs.map((a) => ({ start: a.start_fraction, end: a.end_fraction }));
        exact = ` — exactly ${(d.moved_fraction * 100).toFixed(2)}% of the ring; hash % N would move ${(d.modulo_fraction * 100).toFixed(1)}%`;
      } catch {}
      out.className = "out";
      out.textContent = `Moved ${sample.moved_keys} of ${sample.keys} keys (${(sample.moved_fraction * 100).toFixed(1)}%)${exact}.`;
      this.draw(moved);
    } catch (e) {
      out.className = "out error";
      out.textContent = e.message;
    } finally {
      before.free();
    }
  }
}

customElements.define("hash-ring", HashRing);
