// <hash-ring>: the ring as one element for blog posts and docs.
//
//   <script type="module" src="https://example.org/ringlab/hash-ring.js"></script>
//   <hash-ring nodes="cache-a, cache-b, cache-c" vnodes="64" algorithm="ring" keys="1000"></hash-ring>
//
// Attributes: nodes (comma-separated names; "name*2" for weight 2), vnodes, hash, algorithm,
// keys (sample size). It drives its own engine Session, draws its scene with the page's
// RingView, has "Add node" / "Remove node" buttons, and shows the engine's words for what each
// change moved. Names are shown as text, never HTML.
import init, { Session, elementThemeCss, palette } from "./pkg/ringlab.js";
import { RingView } from "./ring-view.js";

const ready = init();
const STYLE = `
:host { display: block; max-width: 520px; font: 14px/1.5 system-ui, sans-serif; color: var(--fg); background: var(--bg); }
:host([hidden]) { display: none; }
canvas { width: 100%; aspect-ratio: 1; display: block; }
.bar { display: flex; gap: 8px; flex-wrap: wrap; align-items: center; }
button { font: inherit; padding: 4px 10px; border-radius: 6px; border: 1px solid var(--accent); background: var(--accent); color: var(--bg); cursor: pointer; }
button:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.legend span { display: inline-flex; align-items: center; gap: 4px; margin-right: 10px; }
.legend i { width: 10px; height: 10px; border-radius: 2px; display: inline-block; }
.error { color: var(--error); }
p { margin: 6px 0; }`;

// One stylesheet for every element, built once the engine (which owns the colours) is there;
// adopted, not inlined, so a strict Content-Security-Policy allows it.
let sheet;
function styles() {
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(elementThemeCss() + STYLE);
  }
  return sheet;
}

// "a, b*2" → [{name: "a", weight: 1}, {name: "b", weight: 2}]
function parseNodes(text) {
  return text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const star = s.lastIndexOf("*");
      return star > 0 ? { name: s.slice(0, star), weight: Number(s.slice(star + 1)) } : { name: s, weight: 1 };
    });
}

class HashRing extends HTMLElement {
  static observedAttributes = ["nodes", "vnodes", "hash", "algorithm", "keys"];

  constructor() {
    super();
    const root = this.attachShadow({ mode: "open" });
    const canvas = document.createElement("canvas");
    canvas.setAttribute("role", "img");
    const bar = document.createElement("div");
    bar.className = "bar";
    for (const [act, label] of [["add", "Add node"], ["remove", "Remove node"]]) {
      const button = document.createElement("button");
      Object.assign(button, { type: "button", textContent: label });
      button.dataset.act = act;
      button.addEventListener("click", () => this.change(act));
      bar.append(button);
    }
    const legend = document.createElement("p");
    legend.className = "legend";
    const out = document.createElement("p");
    out.className = "out";
    out.setAttribute("aria-live", "polite");
    root.append(canvas, bar, legend, out);
    this.canvas = canvas;
  }

  connectedCallback() {
    ready.then(() => {
      this.shadowRoot.adoptedStyleSheets = [styles()];
      this.view ??= new RingView(this.canvas, palette());
      this.build();
    });
    this.resize ??= new ResizeObserver(() => this.session && this.draw());
    this.resize.observe(this);
  }

  disconnectedCallback() {
    this.resize?.disconnect();
    this.resize = undefined;
    this.session?.free();
    this.session = undefined;
  }

  attributeChangedCallback() {
    if (this.isConnected && this.view) this.build();
  }

  say(text, error = false) {
    const out = this.shadowRoot.querySelector(".out");
    out.className = error ? "out error" : "out";
    out.textContent = text;
  }

  build() {
    const options = { nodes: parseNodes(this.getAttribute("nodes") ?? "a, b, c") };
    for (const name of ["algorithm", "hash"]) if (this.hasAttribute(name)) options[name] = this.getAttribute(name);
    for (const name of ["vnodes", "keys"]) if (this.hasAttribute(name)) options[name] = Number(this.getAttribute(name));
    options.keys ??= 1000;
    try {
      const next = new Session(options);
      this.session?.free();
      this.session = next;
      this.moved = [];
      this.say("Add or remove a node to see exactly what moves.");
    } catch (e) {
      this.say(`hash-ring: ${e.message}`, true);
      return;
    }
    this.draw();
  }

  draw() {
    const css = getComputedStyle(this);
    const v = (name) => css.getPropertyValue(name).trim();
    const scene = this.session.scene();
    this.view.setData({ ...scene, theme: { bg: v("--bg"), fg: v("--fg"), muted: v("--muted"), moved: v("--moved") } });
    this.view.draw({ moved: this.moved });
    const rows = this.session.nodes();
    this.shadowRoot.querySelector(".legend").replaceChildren(
      ...rows.map((n) => {
        const item = document.createElement("span");
        const swatch = document.createElement("i");
        swatch.style.background = this.view.slotColour(n.colour);
        item.append(swatch, `${n.name} ${n.share == null ? `${n.keys} keys` : `${(n.share * 100).toFixed(1)}%`}`);
        return item;
      }),
    );
    this.canvas.setAttribute("aria-label", `${scene.description} ${scene.summary}`);
  }

  change(action) {
    if (!this.session) return;
    try {
      const nodes = this.session.nodes();
      const t =
        action === "add"
          ? this.session.add(this.session.nextNodeName())
          : nodes.length > 1
            ? this.session.remove(nodes[nodes.length - 1].name)
            : null;
      if (!t) return this.say("Keep at least one node.", true);
      this.moved = t.exact?.arcs ?? [];
      this.say(t.text);
      this.draw();
    } catch (e) {
      this.say(e.message, true);
    }
  }
}

customElements.define("hash-ring", HashRing);
