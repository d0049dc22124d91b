// <hash-ring>: the ring as one element for blog posts and docs.
//
//   <script type="module" src="https://example.org/ringlab/hash-ring.js"></script>
//   <hash-ring nodes="cache-a, cache-b, cache-c" vnodes="64" keys="1000"></hash-ring>
//
// docs.html documents every attribute, property, method, event and CSS hook. In short:
// - Attributes (each also a property): nodes ("name*2" for weight 2), vnodes, hash, algorithm,
//   keys, replicas, bits, down (names of nodes marked down), view (ring | migrate | shares |
//   spread), theme (auto | light | dark).
//   Changes made in one task are applied together: one build.
// - Methods (each waits for the engine, never rejects): add(name, {weight, zone}), remove(name),
//   follow(key), reset(). Events: ready, change {movedFraction, movedKeys, ...}, error {code, message}.
// - The element's wasm module (every algorithm) is loaded when the first element comes near the
//   screen; one instance serves all.
// - Keys pressed inside stay inside (mdBook turns pages on the arrow keys), except Tab and Escape.
// Names are shown as text, never HTML. Bad attributes show a message and fire `error`; nothing
// here throws into the host page.
import { RingView } from "./ring-view.js";
import { drawChart, loadCharts } from "./charts-module.js";
import { fitCanvas, hostTheme, loadEngine as load, reducedMotion, themeColours, trapped, watchTheme } from "./host.js";

export { hostTheme };

// The element's own build of the engine: the Session and theme it uses, every algorithm, not
// the library API. Each file named whole in `new URL("…", import.meta.url)`, so that bundlers
// find it.
const ENGINE = {
  glue: new URL("./pkg/ringlab_element.js", import.meta.url).href,
  wasm: new URL("./pkg/ringlab_element_bg.wasm", import.meta.url).href,
};
// The views drawn by the chart module (./charts-module.js), fetched only when one is shown.
const CHART_VIEWS = ["shares", "spread"];
const ENGINE_ATTRS = ["nodes", "vnodes", "hash", "algorithm", "keys", "replicas", "bits", "zipf"];
const NUMERIC = new Set(["vnodes", "keys", "replicas", "bits", "zipf"]);
// Nodes marked down after the build ("node-2, node-4"): they stay, their keys fail over.
const STATE_ATTRS = ["down"];
const VIEWS = ["ring", "migrate", "shares", "spread"];
const THEMES = ["auto", "light", "dark"];
const MIGRATE_PERIOD_MS = 2600;
// The most changes replayed to rebuild after a trap (each is one change's work).
const MAX_REPLAY = 1000;
const MOVE_MS = 900;
const WALK_MS = 1200;
const PASS_KEYS = new Set(["Tab", "Escape"]);

// ---- The engine: imported and instantiated once, on demand.
let engine = null; // Promise of the module
let failed = false; // the last load failed: the next one starts afresh
function loadEngine(fresh = false) {
  if (fresh || !engine) {
    const loading = load(ENGINE, { fresh: fresh || failed }).then((mod) => {
      failed = false;
      return mod;
    });
    engine = loading;
    // A failed download (a dropped connection) is not kept: the next element, or the next
    // change of this one, tries again.
    loading.catch(() => {
      if (engine === loading) engine = null;
      failed = true;
    });
  }
  return engine;
}

// If the engine ever traps (a bug: every input gets an Error instead), its module is dead for
// every element: load one fresh instance, and each element rebuilds its last good state there.
const live = new Set();
const RECOVER = Symbol("recover");
const reloading = new Map(); // dead module -> Promise
function recoverAll(error, dead) {
  if (!reloading.has(dead)) {
    reloading.set(dead, (async () => {
      console.error("hash-ring: the engine stopped; rebuilding from the last good state", error);
      const mod = await loadEngine(true);
      for (const element of live) element[RECOVER](mod, dead);
    })().finally(() => reloading.delete(dead)));
  }
  return reloading.get(dead);
}

// One task after another, in turn (a MessageChannel message: no timer clamping).
let turns = Promise.resolve();
const nextTask = () => new Promise((resolve) => {
  const channel = new MessageChannel();
  channel.port1.onmessage = () => resolve();
  channel.port2.postMessage(null);
});
const turn = () => (turns = turns.then(nextTask));

// Styles that need no engine: the layout, so the element keeps its size while loading.
const BASE = `
:host { display: block; max-width: var(--hash-ring-max-width, 520px); position: relative;
  --_bg: var(--hash-ring-bg, var(--bg, Canvas)); --_fg: var(--hash-ring-fg, var(--fg, CanvasText));
  --_muted: var(--hash-ring-muted, var(--muted, GrayText)); --_accent: var(--hash-ring-accent, var(--accent, LinkText));
  --_error: var(--hash-ring-error, var(--error, #b3261e)); --_moved: var(--hash-ring-moved, var(--moved, CanvasText));
  font: var(--hash-ring-font, 14px/1.5 system-ui, sans-serif); color: var(--_fg); background: var(--_bg); }
:host([hidden]) { display: none; }
.frame { display: flex; flex-direction: column; height: 100%; box-sizing: border-box; padding: var(--hash-ring-padding, 8px); }
canvas { display: block; width: 100%; aspect-ratio: 1; flex: 1 1 auto; min-height: 0; }
:host([view="shares"]) canvas, :host([view="spread"]) canvas { aspect-ratio: 4 / 3; }
.bar { display: flex; gap: 8px; flex-wrap: wrap; align-items: center; margin-top: 4px; }
button { font: inherit; padding: 4px 10px; border-radius: var(--hash-ring-radius, 6px); border: 1px solid var(--_accent);
  background: var(--_accent); color: var(--_bg); cursor: pointer; min-height: 32px; }
button:focus-visible { outline: 3px solid var(--_accent); outline-offset: 2px; }
[hidden] { display: none !important; }
.legend { list-style: none; padding: 0; margin: 6px 0; display: flex; flex-wrap: wrap; gap: 2px 12px; }
.legend li { display: inline-flex; align-items: center; gap: 4px; }
.legend i { width: 10px; height: 10px; border-radius: 2px; display: inline-block; }
.message { margin: 6px 0; min-height: 1.5em; }
.message.error { color: var(--_error); }`;

let baseSheet, themeSheet;
function sheets(mod) {
  baseSheet ??= sheet(BASE);
  if (mod) themeSheet ??= sheet(mod.elementThemeCss());
  return themeSheet ? [themeSheet, baseSheet] : [baseSheet];
}
function sheet(text) {
  // Adopted, not inlined, so a strict Content-Security-Policy allows it.
  const s = new CSSStyleSheet();
  s.replaceSync(text);
  return s;
}

// ---- One IntersectionObserver for every element: loads on approach, pauses loops offscreen.
const near = new IntersectionObserver(
  (entries) => {
    for (const e of entries) e.target.onNear(e.isIntersecting);
  },
  { rootMargin: "200px" },
);

// ---- theme="auto": the host page's own toggles, then its color-scheme, then the OS setting
// (host.js's one rule); one watcher for every element that follows the page.
const followers = new Set();
let unwatch;
function follow(el) {
  followers.add(el);
  unwatch ??= watchTheme(() => followers.forEach((f) => f.applyTheme()));
}
function unfollow(el) {
  followers.delete(el);
  if (followers.size || !unwatch) return;
  unwatch();
  unwatch = undefined;
}


export class HashRing extends HTMLElement {
  static observedAttributes = [...ENGINE_ATTRS, ...STATE_ATTRS, "view", "theme"];

  #mod; // the engine module, once loaded
  #session;
  #view; // RingView
  #started = false; // the engine was asked for
  #dirty = new Set(); // what attribute changes await: "engine", "view", "theme"
  #queued = false;
  #waiters = []; // method calls awaiting the first build of the ring
  #latest = null; // the session's last frame: what is drawn
  #loop = 0;
  #playing = true;
  #chose = false; // the reader pressed Pause or Play
  #joined = null; // the node the migrate loop added
  #visible = false;
  #resize;
  #internals;
  #parts = {};

  constructor() {
    super();
    this.#internals = this.attachInternals?.();
    const root = this.attachShadow({ mode: "open" });
    root.adoptedStyleSheets = sheets();
    const make = (tag, props, attrs = {}) => {
      const el = Object.assign(document.createElement(tag), props);
      for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
      return el;
    };
    const p = this.#parts;
    p.canvas = make("canvas", {}, { part: "canvas", role: "img", "aria-label": "A hash ring (loads when scrolled into view)" });
    p.add = make("button", { type: "button", textContent: "Add node" }, { part: "button add" });
    p.remove = make("button", { type: "button", textContent: "Remove node" }, { part: "button remove" });
    p.pause = make("button", { type: "button", textContent: "Pause", hidden: true }, { part: "button pause", "aria-pressed": "false" });
    p.add.addEventListener("click", () => this.#step("add"));
    p.remove.addEventListener("click", () => this.#step("remove"));
    p.pause.addEventListener("click", () => {
      this.#chose = true;
      this.#setPlaying(!this.#playing);
    });
    const bar = make("div", { className: "bar" }, { part: "controls" });
    bar.append(p.add, p.remove, p.pause);
    p.legend = make("ul", { className: "legend" }, { part: "legend", "aria-label": "Nodes and their shares" });
    p.message = make("p", { className: "message" }, { part: "message", "aria-live": "polite" });
    const frame = make("div", { className: "frame" }, { part: "frame" });
    frame.append(p.canvas, bar, p.legend, p.message);
    root.append(frame);
    // The host page's shortcuts never see keys pressed in here.
    for (const type of ["keydown", "keyup", "keypress"]) {
      root.addEventListener(type, (e) => PASS_KEYS.has(e.key) || e.stopPropagation());
    }
  }

  // ---- Attributes ↔ properties
  get view() {
    return this.getAttribute("view") ?? "ring";
  }
  set view(v) {
    this.#setAttr("view", v);
  }
  get theme() {
    return this.getAttribute("theme") ?? "auto";
  }
  set theme(v) {
    this.#setAttr("theme", v);
  }
  #setAttr(name, v) {
    if (v === null || v === undefined) this.removeAttribute(name);
    else this.setAttribute(name, Array.isArray(v) ? v.join(", ") : String(v));
  }

  attributeChangedCallback(name, old, value) {
    if (old === value) return;
    this.#dirty.add(ENGINE_ATTRS.includes(name) || STATE_ATTRS.includes(name) ? "engine" : name);
    if (this.#queued) return;
    this.#queued = true;
    // Every change made in this task lands in one update.
    queueMicrotask(() => {
      this.#queued = false;
      if (this.#session || this.#failedBuild) this.#update();
    });
  }

  // ---- Life cycle
  connectedCallback() {
    // Properties a script set before this class was defined sit on the instance and hide
    // the accessors: hand them to the accessors.
    for (const name of [...ENGINE_ATTRS, ...STATE_ATTRS, "view", "theme"]) {
      if (Object.hasOwn(this, name)) {
        const value = this[name];
        delete this[name];
        this[name] = value;
      }
    }
    live.add(this);
    near.observe(this);
    this.#resize ??= new ResizeObserver(() => this.#session && this.#redraw());
    this.#resize.observe(this.#parts.canvas);
    this.applyTheme();
  }

  disconnectedCallback() {
    live.delete(this);
    near.unobserve(this);
    this.#resize?.disconnect();
    this.#resize = undefined;
    unfollow(this);
    this.#stopLoop();
    this.#view?.clear();
    this.#session?.free();
    this.#session = undefined;
    this.#started = false;
    this.#visible = false;
    // Calls waiting for a build that will not come now resolve to null.
    this.#releaseWaiters();
  }

  // Called by the shared IntersectionObserver.
  onNear(visible) {
    this.#visible = visible;
    if (visible) this.#start();
    this.#syncLoop();
  }

  #start() {
    if (this.#started || !this.isConnected) return;
    this.#started = true;
    if (!this.#mod) this.#say("Loading…");
    // A chart view fetches the charts module alongside the engine (a failure shows when drawing).
    const chartsToo = CHART_VIEWS.includes(this.view) ? loadCharts().catch(() => {}) : null;
    Promise.all([loadEngine(), chartsToo]).then(
      async ([mod]) => {
        // Many elements on one page: each builds in a task of its own.
        await turn();
        if (!this.isConnected || this.#session) return;
        this.#mod = mod;
        this.shadowRoot.adoptedStyleSheets = sheets(mod);
        this.#view ??= new RingView(this.#parts.canvas, mod.palette());
        this.#dirty.clear();
        this.#layoutView();
        this.#build();
        this.applyTheme();
      },
      (e) => {
        this.#failedBuild = true;
        this.#fail("engine-load", `the engine did not load (${e?.message ?? e})`);
        this.#releaseWaiters();
      },
    );
  }

  #failedBuild = false;

  #update() {
    if (!this.#mod) {
      // The engine never loaded (a dropped download): a change tries again.
      this.#dirty.clear();
      this.#started = false;
      this.#failedBuild = false;
      return this.#start();
    }
    const dirty = new Set(this.#dirty);
    this.#dirty.clear();
    if (dirty.has("engine")) this.#build();
    if (dirty.has("view")) this.#layoutView();
    if (dirty.has("theme") || dirty.has("view")) this.applyTheme();
    else if (!dirty.has("engine") && this.#session) this.#redraw();
  }

  // ---- Building from attributes
  #options() {
    // The engine reads the writer's node list ("a, b*2").
    const options = { nodes: this.getAttribute("nodes") ?? "a, b, c", keys: 1000 };
    for (const name of ENGINE_ATTRS.slice(1)) {
      const raw = this.getAttribute(name);
      if (raw === null || raw.trim() === "") continue;
      options[name] = NUMERIC.has(name) ? Number(raw) : raw.trim();
    }
    return options;
  }

  // What the attributes describe: the session's options, the nodes marked down, no changes.
  #described() {
    const down = (this.getAttribute("down") ?? "").split(",").map((n) => n.trim()).filter(Boolean);
    return { options: this.#options(), down, changes: [] };
  }

  // A session of `mod` in `state` ({options, down, changes}): built, its nodes marked down,
  // and its changes applied in order. The same inputs give the same state in any instance.
  static #open(mod, { options, down, changes }) {
    const session = new mod.Session(options);
    try {
      for (const name of down) session.setDown(name, true);
      for (const [action, name, opts] of changes) {
        if (action === "add") session.add(name, opts);
        else session.remove(name);
      }
    } catch (e) {
      session.free();
      throw e;
    }
    return session;
  }

  #build() {
    let next;
    const state = this.#described();
    try {
      next = HashRing.#open(this.#mod, state);
    } catch (e) {
      this.#failedBuild = true;
      this.#fail(e?.code ?? "invalid-option", e?.message ?? String(e));
      this.#releaseWaiters();
      return false;
    }
    this.#failedBuild = false;
    this.#stopLoop();
    this.#joined = null;
    this.#session?.free();
    this.#session = next;
    this.#view?.clear();
    // (An invalid view keeps its own message.)
    if (VIEWS.includes(this.view)) this.#say(this.view === "migrate" ? "" : "Add or remove a node to see exactly what moves.");
    this.#redraw();
    this.#lastGood = state;
    this.#emit("ready", { nodes: this.#latest.nodes.map((n) => n.name), settings: this.#latest.settings });
    this.#releaseWaiters();
    this.#syncLoop();
    return true;
  }

  // The last good state, to rebuild after a trap: the build's options and down nodes, and
  // the changes that went through since (at most MAX_REPLAY, so that the rebuild's work is
  // bounded: past that, as after a migrate loop of 40 minutes, `null`, and a rebuild starts
  // from the attributes).
  #lastGood = null;

  // After a trap: the fresh engine `mod`, and this element's last good state in it.
  [RECOVER](mod, dead) {
    if (this.#mod !== dead) return;
    this.#mod = mod;
    this.#session = undefined; // the dead module's objects cannot even be freed
    let shown = this.#lastGood ? "the last good state" : "the state the attributes describe";
    try {
      this.#session = HashRing.#open(mod, this.#lastGood ?? this.#described());
    } catch {
      if (!this.#build()) return;
      shown = "the state the attributes describe";
    }
    this.#view?.clear();
    this.#redraw();
    this.#say(`hash-ring: something went wrong in the engine (details in the console); this is ${shown}.`, true);
    this.#emit("error", { code: "internal", message: "the engine stopped and was restarted from the last good state" });
  }

  #releaseWaiters() {
    for (const resolve of this.#waiters.splice(0)) resolve();
  }

  #layoutView() {
    let view = this.view;
    if (!VIEWS.includes(view)) {
      this.#fail("invalid-option", `view must be one of ${VIEWS.join(", ")} (got ${JSON.stringify(view)})`);
      view = "ring";
    }
    const migrate = view === "migrate";
    this.#parts.add.hidden = this.#parts.remove.hidden = migrate;
    this.#parts.pause.hidden = !migrate;
    // A loop that speaks every few seconds would drown a screen reader.
    this.#parts.message.setAttribute("aria-live", migrate ? "off" : "polite");
    if (migrate && reducedMotion() && !this.#chose) this.#setPlaying(false);
    this.#view?.clear();
    if (this.#session) this.#redraw();
    this.#syncLoop();
  }

  // ---- Theme
  applyTheme() {
    let theme = this.theme;
    if (!THEMES.includes(theme)) {
      if (this.#mod) this.#fail("invalid-option", `theme must be one of ${THEMES.join(", ")} (got ${JSON.stringify(theme)})`);
      theme = "auto";
    }
    const states = this.#internals?.states;
    if (theme === "auto") {
      if (this.isConnected) follow(this);
      const resolved = hostTheme();
      try {
        states?.delete(resolved === "dark" ? "light" : "dark");
        states?.add(resolved);
      } catch {
        // A browser without custom states falls back to the colour-scheme media query.
      }
    } else {
      unfollow(this);
      states?.delete("dark");
      states?.delete("light");
    }
    if (this.#session) this.#redraw();
  }

  // What the figure shows, to open it elsewhere (the tour's links to the playground): the
  // session's options, the nodes marked down and the changes made since, `{options, down,
  // changes: [[action, name, {weight, zone}]]}`; null past MAX_REPLAY changes.
  get state() {
    const state = this.#session ? this.#lastGood : this.#described();
    return state && structuredClone(state);
  }

  // The theme the element shows now.
  get resolvedTheme() {
    const theme = THEMES.includes(this.theme) ? this.theme : "auto";
    return theme === "auto" ? hostTheme() : theme;
  }

  // ---- Drawing
  #colours() {
    const css = getComputedStyle(this);
    const palette = this.#mod.palette().map((c, i) => css.getPropertyValue(`--hash-ring-node-${i}`).trim() || c);
    return { theme: themeColours(this, "--_"), palette };
  }

  // Redraws from one frame of the session (the chart views' data in it too).
  #redraw() {
    if (!this.#session || !this.#view) return;
    const view = VIEWS.includes(this.view) ? this.view : "ring";
    const chart = CHART_VIEWS.includes(view);
    const { theme, palette } = this.#colours();
    this.#view.palette = palette;
    const frame = (this.#latest = this.#session.frame(chart && drawChart ? { chart: view } : {}));
    const canvas = this.#parts.canvas;
    if (chart) {
      if (drawChart) {
        try {
          if (frame.chartError) throw Object.assign(new Error(frame.chartError.message), { code: frame.chartError.code });
          // Not laid out yet (hidden, or in a closed <details>): the resize observer draws it
          // once it has a size, rather than refuse a 1 × 1 px area.
          const box = canvas.getBoundingClientRect();
          if (box.width > 0 && box.height > 0) {
            drawChart(canvas, frame.chart, { dark: this.resolvedTheme === "dark", dpr: fitCanvas(canvas, box).dpr });
          }
        } catch (e) {
          this.#fail(e?.code ?? "unsupported", e?.message ?? String(e));
        }
      } else {
        // The first chart view: drawn once the charts module is here.
        loadCharts().then(
          () => this.#session && this.#redraw(),
          (e) => this.#fail("engine-load", `the charts did not load (${e?.message ?? e})`),
        );
      }
      const what = view === "shares" ? "Share of the key space per node" : "Spread of load against vnodes per node";
      canvas.setAttribute("aria-label", `${what}: ${frame.nodes.map((n) => n.legend).join(", ")}.`);
    } else {
      this.#view.setData({ ...frame.scene, theme });
      canvas.setAttribute("aria-label", `${frame.scene.description} ${frame.scene.summary}`);
    }
    this.#parts.legend.replaceChildren(
      ...frame.nodes.map((n) => {
        const item = document.createElement("li");
        const swatch = document.createElement("i");
        swatch.style.background = this.#view.slotColour(n.colour);
        item.append(swatch, n.legend);
        return item;
      }),
    );
  }

  // Plays a change or a walk on the ring (the chart views show no ring).
  #plays() {
    return this.view === "ring" || this.view === "migrate";
  }

  // ---- Changes
  #step(action) {
    if (!this.#session) return null;
    const nodes = this.#latest.nodes;
    if (action === "add") return this.#apply("add", this.#latest.nextNodeName);
    if (nodes.length < 2) return this.#fail("empty-ring", "keep at least one node");
    return this.#apply("remove", nodes[nodes.length - 1].name);
  }

  // A change that went through, for a rebuild after a trap.
  #remember(action, name, opts) {
    if (!this.#lastGood) return;
    const { changes } = this.#lastGood;
    if (changes.length >= MAX_REPLAY) this.#lastGood = null;
    // Its fields copied: a writer's object may change after the call.
    else changes.push([action, name, opts && typeof opts === "object" ? { weight: opts.weight, zone: opts.zone } : opts]);
  }

  #apply(action, name, opts) {
    let t;
    try {
      t = action === "add" ? this.#session.add(name, opts) : this.#session.remove(name);
    } catch (e) {
      if (trapped(e)) return void recoverAll(e, this.#mod);
      return this.#fail(e?.code ?? "invalid-option", e?.message ?? String(e));
    }
    this.#say(t.text);
    this.#redraw();
    this.#remember(action, name, opts);
    if (this.#plays()) this.#view.play(t, { duration: MOVE_MS });
    const detail = {
      action,
      name,
      label: t.label,
      text: t.text,
      movedFraction: t.exact?.movedFraction ?? null,
      idealFraction: t.exact?.idealFraction ?? null,
      movedKeys: t.sample?.movedKeys ?? 0,
      keys: t.sample?.keys ?? 0,
    };
    this.#emit("change", detail);
    return detail;
  }

  // ---- The migrate view: a join, then a leave, again and again.
  #setPlaying(on) {
    this.#playing = on;
    this.#parts.pause.textContent = on ? "Pause" : "Play";
    this.#parts.pause.setAttribute("aria-pressed", String(!on));
    this.#syncLoop();
  }

  #syncLoop() {
    const run = this.#session && this.view === "migrate" && this.#playing && this.#visible && this.isConnected;
    if (run && !this.#loop) {
      this.#loop = setInterval(() => this.#migrateStep(), MIGRATE_PERIOD_MS);
      if (!this.#joined) this.#migrateStep();
    } else if (!run) this.#stopLoop();
  }

  #stopLoop() {
    clearInterval(this.#loop);
    this.#loop = 0;
  }

  #migrateStep() {
    if (!this.#session) return;
    // `#apply` answers undefined after a trap: the state rebuilt in the fresh engine is the
    // one before this step, so the loop takes the same step again there.
    if (this.#joined) {
      if (this.#apply("remove", this.#joined) !== undefined) this.#joined = null;
    } else {
      const name = this.#latest.nextNodeName;
      const done = this.#apply("add", name);
      if (done) this.#joined = name;
      else if (done === null) this.#setPlaying(false); // refused (at the node cap, say): Play tries again
    }
  }

  // ---- Methods for a writer's script. Each waits for the engine and never rejects: a
  // failure shows its message, fires `error`, and resolves to null.
  async #ready() {
    if (this.#session) return true;
    if (!this.isConnected) {
      this.#fail("detached", "the element is not in the page: add it to the page first");
      return false;
    }
    this.#start();
    if (!this.#failedBuild) await new Promise((resolve) => this.#waiters.push(resolve));
    return Boolean(this.#session);
  }

  async add(name, options = {}) {
    if (!(await this.#ready())) return null;
    return this.#apply("add", name === undefined ? this.#latest.nextNodeName : name, options);
  }

  // remove() with no name is the DOM's own: it takes the element out of the page.
  remove(...args) {
    if (!args.length) return super.remove();
    return this.#removeNode(args[0]);
  }

  async #removeNode(name) {
    if (!(await this.#ready())) return null;
    return this.#apply("remove", name);
  }

  async follow(key) {
    if (!(await this.#ready())) return null;
    let f;
    try {
      f = this.#session.follow(key);
    } catch (e) {
      if (trapped(e)) return void recoverAll(e, this.#mod);
      return this.#fail(e?.code ?? "invalid-option", e?.message ?? String(e));
    }
    this.#say(f.text);
    if (this.#plays()) this.#view.follow(f, { duration: WALK_MS });
    return f;
  }

  // "Explain this key": the engine's chain for `key` at the element's state (see
  // `Session.explain`); the element says the owner.
  async explain(key) {
    if (!(await this.#ready())) return null;
    let chain;
    try {
      chain = this.#session.explain(key);
    } catch (e) {
      if (trapped(e)) return void recoverAll(e, this.#mod);
      return this.#fail(e?.code ?? "invalid-option", e?.message ?? String(e));
    }
    this.#say(chain.steps.map((s) => `${s.label}: ${s.value}`).join("; "));
    return chain;
  }

  async reset() {
    if (!(await this.#ready()) && !this.#mod) return null;
    return (await this.#build()) ? true : null;
  }

  // ---- Words and events
  #say(text, error = false) {
    this.#parts.message.className = error ? "message error" : "message";
    this.#parts.message.textContent = text;
  }

  #fail(code, message) {
    this.#say(`hash-ring: ${message}`, true);
    if (!this.#session) this.#parts.canvas.setAttribute("aria-label", `A hash ring that could not be drawn: ${message}`);
    this.#emit("error", { code, message });
    return null;
  }

  #emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }
}

// Engine attributes as properties: strings, numbers for the numeric ones (null when unset).
for (const name of [...ENGINE_ATTRS, ...STATE_ATTRS]) {
  Object.defineProperty(HashRing.prototype, name, {
    get() {
      const raw = this.getAttribute(name);
      return raw === null ? null : NUMERIC.has(name) ? Number(raw) : raw;
    },
    set(v) {
      if (v === null || v === undefined) this.removeAttribute(name);
      else this.setAttribute(name, Array.isArray(v) ? v.join(", ") : String(v));
    },
    configurable: true,
    enumerable: true,
  });
}

if (!customElements.get("hash-ring")) customElements.define("hash-ring", HashRing);
