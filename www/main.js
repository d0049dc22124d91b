// The playground's wiring: controls → engine (Rust/wasm) → canvas and text. No hashing here.
import init, { Ring } from "./pkg/ringlab.js";
import { colourOf, drawRing } from "./ring-view.js";

const KEY_PREFIX = "key:";
const KEY_COUNT = 2000;
const $ = (id) => document.getElementById(id);
const percent = (x, digits = 1) => `${(x * 100).toFixed(digits)}%`;
const count = (x) => x.toLocaleString("en-US");

let ring;
let moved = []; // arcs of the last change, as fractions of the ring

function theme() {
  const css = getComputedStyle(document.documentElement);
  const v = (name) => css.getPropertyValue(name).trim();
  return { bg: v("--bg"), fg: v("--fg"), muted: v("--muted"), moved: v("--moved") };
}

function render() {
  const start = performance.now();
  drawRing($("ring"), {
    points: ring.pointFractions(),
    owners: ring.pointOwners(),
    keys: ring.nodes().length ? ring.keyFractions(KEY_PREFIX, KEY_COUNT) : new Float64Array(),
    keyOwners: ring.nodes().length ? ring.keyOwners(KEY_PREFIX, KEY_COUNT) : new Uint32Array(),
    moved,
    bits: ring.bits,
    theme: theme(),
  });
  renderLegend();
  renderSummary();
  $("render-time").textContent = `${(performance.now() - start).toFixed(1)} ms`;
}

function renderLegend() {
  const body = $("legend").querySelector("tbody");
  body.replaceChildren(
    ...ring.nodes().map((node, i) => {
      const row = document.createElement("tr");
      const name = document.createElement("td");
      const swatch = document.createElement("span");
      swatch.className = "swatch";
      swatch.style.background = colourOf(i);
      name.append(swatch, node.name); // text, never HTML
      const cells = [node.weight, count(node.points), percent(node.share, 2)].map((text) => {
        const td = document.createElement("td");
        td.className = "num";
        td.textContent = String(text);
        return td;
      });
      const action = document.createElement("td");
      const remove = document.createElement("button");
      remove.type = "button";
      remove.className = "secondary";
      remove.textContent = "Remove";
      remove.setAttribute("aria-label", `Remove ${node.name}`);
      remove.dataset.node = node.name;
      remove.addEventListener("click", () => change(`Removed ${node.name}`, (r) => r.remove(node.name)));
      action.append(remove);
      row.append(name, ...cells, action);
      return row;
    }),
  );
}

function renderSummary() {
  const nodes = ring.nodes();
  const spread = ring.spread();
  const text = nodes.length
    ? `${nodes.length} nodes, ${count(ring.pointCount)} points (${ring.hash}, ${ring.bits}-bit ring). ` +
      `Busiest node carries ${spread.max_over_mean.toFixed(2)}× its fair share; ` +
      `load varies by ${percent(spread.rsd)} (relative std dev).`
    : "The ring is empty: add a node.";
  $("summary").textContent = text;
  $("ring").setAttribute("aria-label", `Hash ring: ${text}`);
}

// Applies `edit` to a copy of the ring; on success shows exactly what moved, on error shows
// the message and keeps the ring as it was.
function change(label, edit, errorBox = $("add-error")) {
  const before = ring.clone();
  const after = ring.clone();
  try {
    edit(after);
  } catch (e) {
    errorBox.textContent = e.message;
    return false;
  }
  errorBox.textContent = "";
  ring = after;
  describeChange(label, before, after);
  render();
  return true;
}

function describeChange(label, before, after) {
  if (!before.nodes().length || !after.nodes().length) {
    moved = [];
    $("last-change").textContent = `${label}.`;
    return;
  }
  const exact = Ring.diff(before, after);
  const sample = Ring.diffSample(before, after, KEY_PREFIX, KEY_COUNT, 1.0);
  const size = 2 ** after.bits;
  moved = exact.arcs.map((a) => ({ start: Number(a.start) / size, end: (Number(a.end) + 1) / size }));
  $("last-change").textContent =
    `${label}: moved ${count(sample.moved_keys)} of ${count(sample.keys)} keys ` +
    `(${percent(sample.moved_fraction)}); exactly ${percent(exact.moved_fraction, 2)} of the ring ` +
    `— ideal ${percent(exact.ideal_fraction, 2)} — hash % N would have moved ${percent(exact.modulo_fraction)}.`;
}

function nextName() {
  const taken = new Set(ring.nodes().map((n) => n.name));
  let i = 1;
  while (taken.has(`node-${i}`)) i++;
  return `node-${i}`;
}

function wire() {
  $("add-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const name = $("add-name").value.trim() || nextName();
    const weight = Number($("add-weight").value);
    if (change(`Added ${name}`, (r) => r.add(name, { weight }))) {
      $("add-name").value = "";
      $("add-name").placeholder = nextName();
    }
  });
  $("config-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const options = {
      hash: $("hash").value,
      vnodes: Number($("vnodes").value),
      nodes: ring.nodes().map(({ name, weight, zone }) => ({ name, weight, zone: zone ?? undefined })),
    };
    try {
      const rebuilt = new Ring(options);
      $("config-error").textContent = "";
      const before = ring;
      ring = rebuilt;
      moved = [];
      $("last-change").textContent =
        before.hash === rebuilt.hash
          ? describeRebuild(before, rebuilt)
          : `Rebuilt with ${rebuilt.hash}: a new hash function reshuffles nearly every key.`;
      render();
    } catch (e) {
      $("config-error").textContent = e.message;
    }
  });
  new ResizeObserver(() => render()).observe($("ring"));
  matchMedia("(prefers-color-scheme: dark)").addEventListener("change", render);
}

function describeRebuild(before, after) {
  const exact = Ring.diff(before, after);
  return `Rebuilt with ${after.vnodes} vnodes per node: ${percent(exact.moved_fraction, 2)} of the ring changed owner.`;
}

async function main() {
  await init();
  ring = new Ring({ vnodes: Number($("vnodes").value), nodes: ["node-1", "node-2", "node-3", "node-4", "node-5"] });
  $("add-name").placeholder = nextName();
  wire();
  render();
  $("last-change").textContent = "Add or remove a node to see exactly what moves.";
  document.body.dataset.ready = "1";
}

main().catch((e) => {
  $("summary").textContent = `Could not start the engine: ${e.message}`;
  throw e;
});
