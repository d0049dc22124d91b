// docs.html: shows each live example's own markup beside it, runs the scripted examples (their
// source is shown verbatim from the functions below), and switches the page's theme.
const $ = (id) => document.getElementById(id);

// Each <code data-markup="id"> shows the element's markup as written in this page.
for (const code of document.querySelectorAll("code[data-markup]")) {
  code.textContent = $(code.dataset.markup).outerHTML.replace(/ id="[^"]*"/, "").replace(/=""/g, "").replaceAll("&amp;", "&");
}

// Each <code data-style="name"> is a stylesheet that the page applies too: one source.
const css = [...document.querySelectorAll("code[data-style]")].map((c) => c.textContent).join("\n");
const styled = new CSSStyleSheet();
styled.replaceSync(css);
document.adoptedStyleSheets = [...document.adoptedStyleSheets, styled];

const out = (name, text) => {
  document.querySelector(`[data-out="${name}"]`).textContent = text;
};
const pct = (x) => (x == null ? "n/a" : `${(x * 100).toFixed(2)}%`);

// The scripted examples. Their source text is what the page shows.
const demos = {
  async properties() {
    const ring = document.getElementById("ex-props");
    ring.vnodes = 8; // the same as ring.setAttribute("vnodes", "8")
    ring.nodes = ["a", "b", "c", "d*2"]; // one rebuild for both changes
    return `vnodes attribute: ${ring.getAttribute("vnodes")}, nodes: ${ring.nodes}`;
  },
  async add() {
    const ring = document.getElementById("ex-story");
    const moved = await ring.add("cache-d", { weight: 1 });
    return moved && `cache-d joined: ${pct(moved.movedFraction)} of the key space and ${moved.movedKeys} of ${moved.keys} keys moved`;
  },
  async remove() {
    const ring = document.getElementById("ex-story");
    const moved = await ring.remove("cache-a");
    return moved && `cache-a left: ${pct(moved.movedFraction)} moved (${moved.movedKeys} keys)`;
  },
  async follow() {
    const ring = document.getElementById("ex-story");
    const walk = await ring.follow("user:42");
    return walk && `user:42 belongs to ${walk.owner}`;
  },
  async reset() {
    const ring = document.getElementById("ex-story");
    await ring.reset();
    return "back to the attributes' three nodes";
  },
  async events() {
    const ring = document.getElementById("ex-events");
    const log = document.querySelector('[data-out="events"]');
    const note = (text) => log.append(Object.assign(document.createElement("li"), { textContent: text }));
    ring.addEventListener("ready", (e) => note(`ready: ${e.detail.nodes.join(", ")}`));
    ring.addEventListener("change", (e) => note(`change: ${e.detail.label}, exactly ${e.detail.movedFraction} moved, ${e.detail.movedKeys} keys`));
    ring.addEventListener("error", (e) => note(`error ${e.detail.code}: ${e.detail.message}`));
    await ring.add();
  },
  async "bad-vnodes"() {
    document.getElementById("ex-events").setAttribute("vnodes", "0");
  },
  async hidden() {
    const ring = document.getElementById("ex-hidden");
    ring.hidden = !ring.hidden;
  },
  async sequence() {
    const { play } = await import("./sequence.js");
    const ring = document.getElementById("ex-sequence");
    const results = await play(ring, [
      { reset: true },
      { set: { nodes: "a, b, c, d", vnodes: 32 } },
      { add: "e" },
      { follow: "user:7" },
      { remove: "b" },
    ], { pause: 1500 });
    return results.at(-1)?.text;
  },
  async replicas() {
    await document.getElementById("ex-replicas").follow("user:42");
  },
};

const body = (fn) => {
  const text = fn.toString();
  const lines = text.slice(text.indexOf("{") + 1, text.lastIndexOf("}")).split("\n");
  const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => l.match(/^ */)[0].length));
  return lines.map((l) => l.slice(indent)).join("\n").trim();
};
for (const code of document.querySelectorAll("code[data-source]")) code.textContent = body(demos[code.dataset.source]);

const listening = new Set();
for (const button of document.querySelectorAll("button[data-demo]")) {
  button.addEventListener("click", async () => {
    const name = button.dataset.demo;
    if (name === "events" && listening.has(name)) return demos.add();
    listening.add(name);
    const result = await demos[name]();
    const target = ["add", "remove", "follow", "reset"].includes(name) ? "story" : name;
    if (typeof result === "string" && document.querySelector(`[data-out="${target}"]`)) out(target, result);
  });
}

// The page's theme: auto (the system's), or forced with <html data-theme>, which every
// <hash-ring theme="auto"> on the page follows.
for (const button of document.querySelectorAll("[data-page-theme]")) {
  button.addEventListener("click", () => {
    const theme = button.dataset.pageTheme;
    if (theme === "auto") document.documentElement.removeAttribute("data-theme");
    else document.documentElement.dataset.theme = theme;
    for (const b of document.querySelectorAll("[data-page-theme]")) b.setAttribute("aria-pressed", String(b === button));
  });
}

// The value lists in the attributes table, from the element's engine once it is loaded.
$("hero").addEventListener(
  "ready",
  async () => {
    // The element's module (loaded already by the element).
    const mod = await import("./pkg/ringlab_element.js");
    await mod.default();
    for (const cell of document.querySelectorAll("[data-list]")) cell.textContent = mod[cell.dataset.list]().join(", ");
  },
  { once: true },
);
