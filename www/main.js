// The playground's wiring: controls → engine (Rust/wasm) → canvas and text. No hashing and no
// ring geometry here: positions, owners, arcs and migrations all come from the engine.
import init, { Ring, algorithms } from "./pkg/ringlab.js";
import { RingView, colourOf } from "./ring-view.js";
import { History, decode, encode } from "./state.js";
import { Charts } from "./charts.js";

const KEY_PREFIX = "key:";
const MAX_ANIMATED = 5000; // keys animated individually; more would cost frames, not insight
const $ = (id) => document.getElementById(id);
const percent = (x, digits = 1) => `${(x * 100).toFixed(digits)}%`;
const count = (x) => x.toLocaleString("en-US");
const reducedMotion = matchMedia("(prefers-reduced-motion: reduce)");

// Slider position 0..1000 ↔ vnodes 1..1000 on a log scale.
const sliderToVnodes = (s) => Math.max(1, Math.round(10 ** ((3 * s) / 1000)));
const vnodesToSlider = (v) => Math.round((1000 * Math.log10(v)) / 3);

// One line per algorithm, shown above the figures: what the circle shows for it.
const ABOUT = {
  ring: "ringlab's ring: vnodes points per node at the hash of \"name#i\".",
  libketama: "last.fm's libketama: 160 MD5 points per server (scaled by weight), labels \"host:port-i\".",
  "libmemcached-weighted": "libmemcached's weighted ketama: MD5 points, the port left out of labels when it is 11211.",
  "libmemcached-ketama": "libmemcached's ketama: 100 MD5 points per server; weights are ignored.",
  "redis-cluster": "Redis Cluster: 16,384 slots (CRC16 of the key or its {tag}); each master owns slot ranges, which redis-cli's rebalance moves.",
  cassandra: "Cassandra: Murmur3 tokens, 16 per node; a token owns the range (previous token, token].",
  groupcache: "Go groupcache: 50 CRC32 points per node, at the hash of \"i\" + name.",
  jump: "Jump hash: buckets 0..N−1 and no ring; only the last bucket can leave. Keys are drawn at their hash.",
  rendezvous: "Rendezvous: every node scores every key and the highest score wins. No ring: keys are drawn at their hash.",
  maglev: "Maglev: a 65,537-entry table that nodes fill in turns; the circle shows the table.",
  "multi-probe": "Multi-probe: one point per node and 21 probes per key; the closest point after a probe wins.",
  "bounded-load": "Bounded loads: the ring, but no node takes more than ⌈1.25 × the mean⌉ keys of the key set.",
  modulo: "hash % N: the baseline; nearly every key moves when N changes.",
};

const view = new RingView($("ring"));
const history = new History();
let ring, settings;
let keys, keyOwners; // the sample's positions and owners on the current ring
let selected; // node index picked on the canvas
let change = null; // {moved, movers, t, start}
let walk = null; // {fraction, stops, t, start}
let paused = false;
let charts; // the charts section, once wired
// Frame times and long tasks, read by the page tests; `pending` counts deferred work.
const perf = (window.__ringlab = { frames: [], longTasks: [], pending: 0 });

// Runs `work` as its own task, so no single task of a big change blocks input for long.
function later(work) {
  perf.pending++;
  setTimeout(() => {
    try {
      work();
    } finally {
      perf.pending--;
    }
  }, 0);
}

function theme() {
  const css = getComputedStyle(document.documentElement);
  const v = (name) => css.getPropertyValue(name).trim();
  return { bg: v("--bg"), fg: v("--fg"), muted: v("--muted"), moved: v("--moved") };
}

function options(s, nodes) {
  return { algorithm: s.algorithm, hash: s.hash, vnodes: s.vnodes, nodes };
}

function nodeSpecs(r) {
  return r.nodes().map(({ name, weight, zone }) => (zone ? { name, weight, zone } : { name, weight }));
}

// ---- rendering ---------------------------------------------------------------------------

function scaleLabels() {
  if (ring.algorithm === "redis-cluster") return ["slot 0", "4096", "8192", "12288"];
  if (ring.algorithm === "maglev") return ["entry 0", "¼", "½", "¾"];
  if (ring.algorithm === "cassandra") return ["−2⁶³", "−2⁶²", "0", "2⁶²"];
  return ring.bits === 64 && ring.algorithm === "ring" ? ["0", "2⁶²", "2⁶³", "3·2⁶²"] : ["0", "2³⁰", "2³¹", "3·2³⁰"];
}

// Key positions depend on how keys are hashed, not on the nodes: computed once per mapping.
let positionsFor = "";
function keyPositions() {
  const id = `${settings.algorithm}/${settings.hash}/${ring.bits}/${settings.keys}`;
  if (id !== positionsFor) {
    keys = ring.keyFractions(KEY_PREFIX, settings.keys);
    positionsFor = id;
  }
  return keys;
}

// `owners`, when the caller already has the current ring's key owners.
function render(owners) {
  const start = performance.now();
  const empty = ring.nodes().length === 0;
  keys = empty ? new Float64Array() : keyPositions();
  keyOwners = empty ? new Uint32Array() : owners ?? ring.keyOwners(KEY_PREFIX, settings.keys);
  view.setData({
    points: ring.pointFractions(),
    owners: ring.pointOwners(),
    keys,
    keyOwners,
    scale: scaleLabels(),
    theme: theme(),
    selected,
  });
  frame();
  $("undo").disabled = !history.canUndo;
  $("redo").disabled = !history.canRedo;
  $("render-time").textContent = `${(performance.now() - start).toFixed(1)} ms`;
  later(() => {
    renderLegend();
    renderSummary();
  });
  if (ring.nodes().length >= 2) charts?.update(ring, settings.keys);
}

function frame(hover) {
  const start = performance.now();
  view.draw({
    moved: change?.moved,
    movers: change?.movers,
    t: change?.t ?? 1,
    walk: walk ?? undefined,
    walkT: walk?.t,
    hover,
  });
  perf.frames.push(performance.now() - start);
  if (perf.frames.length > 600) perf.frames.splice(0, 300);
}

function animate() {
  const speed = Number($("speed").value);
  const now = performance.now();
  let running = false;
  for (const a of [change, walk]) {
    if (!a || a.t >= 1) continue;
    if (!paused) a.t = Math.min(1, a.t + ((now - a.last) / a.duration) * speed);
    a.last = now;
    running ||= a.t < 1;
  }
  frame();
  if (running && !paused) requestAnimationFrame(animate);
}

function startAnimation(a, duration) {
  a.duration = duration;
  a.last = performance.now();
  a.t = reducedMotion.matches ? 1 : 0;
  requestAnimationFrame(animate);
}

function renderLegend() {
  const nodes = ring.nodes();
  const body = $("legend").querySelector("tbody");
  body.replaceChildren(
    ...nodes.map((node, i) => {
      const row = document.createElement("tr");
      if (i === selected) row.className = "selected";
      const name = document.createElement("td");
      const swatch = document.createElement("span");
      swatch.className = "swatch";
      swatch.style.background = colourOf(i);
      name.append(swatch, node.name); // text, never HTML
      const zone = document.createElement("td");
      zone.textContent = node.zone ?? "–";
      const weightCell = document.createElement("td");
      const weight = document.createElement("input");
      weight.type = "number";
      weight.step = "any";
      weight.min = "0.01";
      weight.value = String(node.weight);
      weight.setAttribute("aria-label", `Weight of ${node.name}`);
      weight.addEventListener("change", () =>
        apply(`Set ${node.name}'s weight to ${weight.value}`, (r) => r.setWeight(node.name, Number(weight.value)), $("legend-error")),
      );
      weightCell.append(weight);
      const points = document.createElement("td");
      points.className = "num";
      points.textContent = count(node.points);
      const share = document.createElement("td");
      share.className = "num";
      share.textContent = node.share === null || node.share === undefined ? "sampled" : percent(node.share, 2);
      const action = document.createElement("td");
      const remove = document.createElement("button");
      remove.type = "button";
      remove.className = "secondary";
      remove.textContent = "Remove";
      remove.setAttribute("aria-label", `Remove ${node.name}`);
      remove.addEventListener("click", () => apply(`Removed ${node.name}`, (r) => r.remove(node.name), $("legend-error")));
      action.append(remove);
      row.append(name, zone, weightCell, points, share, action);
      return row;
    }),
  );
}

function renderSummary() {
  const nodes = ring.nodes();
  const spread = ring.spread();
  let text;
  if (!nodes.length) text = "The ring is empty: add a node.";
  else {
    text = `${nodes.length} nodes, ${ring.algorithm}`;
    if (ring.pointCount) text += `, ${count(ring.pointCount)} points`;
    if (ring.algorithm === "ring") text += ` (${ring.hash}, ${ring.bits}-bit ring)`;
    text += spread
      ? `. Busiest node carries ${spread.max_over_mean.toFixed(2)}× its fair share; load varies by ${percent(spread.rsd)} (relative std dev).`
      : ". Its shares can only be sampled: see the key counts.";
  }
  $("summary").textContent = `${ABOUT[ring.algorithm] ?? ""} ${text}`;
  $("ring").setAttribute("aria-label", `Hash ring: ${text}`);
}

// ---- changes ---------------------------------------------------------------------------

// Applies `edit` to a copy of the ring; on success shows exactly what moved, on error shows
// the message next to the control and keeps everything as it was.
function apply(label, edit, errorBox = $("add-error")) {
  const next = ring.clone();
  try {
    edit(next);
  } catch (e) {
    next.free();
    errorBox.textContent = e.message;
    return false;
  }
  errorBox.textContent = "";
  commit(label, next, settings);
  return true;
}

function commit(label, next, nextSettings) {
  const before = ring;
  history.push({ ring: before, settings, label });
  ring = next;
  settings = nextSettings;
  selected = undefined;
  $("history-status").textContent = "";
  const owners = describeChange(label, before, next);
  saveUrl();
  later(() => {
    render(owners);
    refollow();
  });
}

function restore(entry, verb) {
  if (!entry) return;
  const before = ring;
  ring = entry.ring;
  settings = entry.settings;
  syncControls();
  const owners = describeChange(`${verb}: ${entry.label}`, before, ring);
  $("history-status").textContent = `${verb}: ${entry.label}`;
  saveUrl();
  later(() => {
    render(owners);
    refollow();
  });
}

// Says what the change moved and starts its animation; returns the new ring's key owners.
function describeChange(label, before, after) {
  change = null;
  if (!before.nodes().length || !after.nodes().length) {
    $("last-change").textContent = `${label}.`;
    return undefined;
  }
  const owners = after.keyOwners(KEY_PREFIX, settings.keys);
  const sameKeys = keyOwners?.length === owners.length && before.algorithm === after.algorithm;
  const movers = moversOf(before, after, sameKeys ? keyOwners : before.keyOwners(KEY_PREFIX, settings.keys), owners);
  const n = settings.keys;
  let text = `${label}: moved ${count(movers.movedCount)} of ${count(n)} keys (${percent(movers.movedCount / n)})`;
  let moved = [];
  try {
    const exact = Ring.diff(before, after);
    moved = exact.arcs.map((a) => ({ start: a.start_fraction, end: a.end_fraction }));
    text +=
      `; exactly ${percent(exact.moved_fraction, 2)} of the ring — ideal ${percent(exact.ideal_fraction, 2)}` +
      ` — hash % N would have moved ${percent(exact.modulo_fraction)}.`;
  } catch {
    text +=
      before.algorithm !== after.algorithm || before.hash !== after.hash
        ? " (the two map keys differently, so only the sample compares them)."
        : " (this algorithm's moves can only be sampled).";
  }
  if ($("compare-modulo").checked) {
    const modulo = moversOf(before, after, ...moduloOwners(before, after));
    change = { moved, movers: modulo };
    text += ` Replayed under hash % N (the highlighted keys): ${count(modulo.movedCount)} keys would move.`;
  }
  $("last-change").textContent = text;
  change ??= { moved, movers };
  startAnimation(change, 900);
  return owners;
}

// The sample keys that change owner (compared by name: indices shift when a node leaves):
// their index, position and old and new owner, at most MAX_ANIMATED of them.
function moversOf(before, after, from, to) {
  const oldNames = before.nodes().map((n) => n.name);
  const newNames = after.nodes().map((n) => n.name);
  const index = [], fromIdx = [], toIdx = [];
  let movedCount = 0;
  for (let k = 0; k < from.length; k++) {
    if (oldNames[from[k]] === newNames[to[k]]) continue;
    movedCount++;
    if (index.length < MAX_ANIMATED) {
      index.push(k);
      fromIdx.push(from[k]);
      toIdx.push(to[k]);
    }
  }
  const positions = before.algorithm === after.algorithm ? keyPositions() : after.keyFractions(KEY_PREFIX, settings.keys);
  return { index, keys: index.map((k) => positions[k]), from: fromIdx, to: toIdx, movedCount };
}

// The same change under hash % N: the key owners before and after.
function moduloOwners(before, after) {
  const owners = (r) => {
    const m = new Ring({ algorithm: "modulo", hash: settings.hash, nodes: r.nodes().map((n) => n.name) });
    const o = m.keyOwners(KEY_PREFIX, settings.keys);
    m.free();
    return o;
  };
  return [owners(before), owners(after)];
}

function rebuild(nextSettings, label) {
  try {
    const next = new Ring(options(nextSettings, nodeSpecs(ring)));
    $("config-error").textContent = "";
    commit(label, next, nextSettings);
  } catch (e) {
    $("config-error").textContent = e.message;
    syncControls();
  }
}

// ---- follow a key and hover -------------------------------------------------------------

function follow(key) {
  if (!key || !ring.nodes().length) {
    walk = null;
    frame();
    return;
  }
  const f = ring.follow(key, settings.replicas);
  const names = ring.nodes().map((n) => n.name);
  walk = { fraction: f.fraction, stops: f.walk.map((s) => ({ ...s, owner: names.indexOf(s.name) })) };
  const list = f.walk.map((s) => s.name);
  const replicas =
    settings.replicas > 1 && ring.algorithm === "ring"
      ? ` Preference list (${settings.replicas} replicas): ${list.join(", ")}.`
      : "";
  $("follow-out").textContent = `${key} → ${f.description} → owner ${f.owner}.${replicas}`;
  startAnimation(walk, 1400);
}

function refollow() {
  if (walk) follow($("follow-key").value.trim());
}

function hoverAt(clientX, clientY) {
  const tip = $("tooltip");
  const at = view.locate(clientX, clientY);
  let text = null, hover;
  if (at.zone === "band") {
    const arc = ring.arcAt(at.fraction);
    if (arc) {
      hover = { start: arc.startFraction, end: arc.endFraction };
      text = `${arc.owner} owns ${arc.start}–${arc.end}` + (arc.label ? ` (point ${arc.label})` : "");
    }
  } else if (at.zone === "keys" && ring.nodes().length) {
    const k = ring.keyNear(KEY_PREFIX, settings.keys, at.fraction, at.px * 6);
    if (k !== undefined) {
      const key = `${KEY_PREFIX}${k}`;
      const f = ring.follow(key, settings.replicas);
      text = `${key}: ${f.description}, owner ${f.owner}` + (f.walk.length > 1 ? `, replicas ${f.walk.map((s) => s.name).join(", ")}` : "");
    }
  }
  frame(hover);
  if (!text) {
    tip.hidden = true;
    return at;
  }
  tip.textContent = text;
  const box = $("ring").getBoundingClientRect();
  tip.style.left = `${Math.min(clientX - box.left + 12, box.width - 200)}px`;
  tip.style.top = `${clientY - box.top + 12}px`;
  tip.hidden = false;
  return at;
}

// ---- controls ---------------------------------------------------------------------------

function syncControls() {
  $("algorithm").value = settings.algorithm;
  $("hash").value = settings.hash;
  $("vnodes").value = String(vnodesToSlider(settings.vnodes));
  $("vnodes-value").textContent = String(settings.vnodes);
  $("vnodes").setAttribute("aria-valuetext", `${settings.vnodes} vnodes`);
  $("keys").value = String(settings.keys);
  $("replicas").value = String(settings.replicas);
}

function saveUrl() {
  window.history.replaceState(null, "", encode(settings, nodeSpecs(ring)));
}

function nextName() {
  const taken = new Set(ring.nodes().map((n) => n.name));
  let i = 1;
  while (taken.has(`node-${i}`)) i++;
  return `node-${i}`;
}

function wire() {
  for (const name of algorithms()) $("algorithm").append(new Option(name, name));
  charts = new Charts(later);
  $("add-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const name = $("add-name").value.trim() || nextName();
    const weight = Number($("add-weight").value);
    const zone = $("add-zone").value.trim();
    if (apply(`Added ${name}`, (r) => r.add(name, zone ? { weight, zone } : { weight }))) {
      $("add-name").value = "";
      $("add-name").placeholder = nextName();
    }
  });
  $("config-form").addEventListener("submit", (e) => e.preventDefault());
  $("algorithm").addEventListener("change", () => rebuild({ ...settings, algorithm: $("algorithm").value }, `Switched to ${$("algorithm").value}`));
  $("hash").addEventListener("change", () => rebuild({ ...settings, hash: $("hash").value }, `Hash ${$("hash").value}`));
  $("vnodes").addEventListener("input", () => {
    const v = sliderToVnodes(Number($("vnodes").value));
    $("vnodes-value").textContent = String(v);
    $("vnodes").setAttribute("aria-valuetext", `${v} vnodes`);
  });
  $("vnodes").addEventListener("change", () => {
    const v = sliderToVnodes(Number($("vnodes").value));
    if (v !== settings.vnodes) rebuild({ ...settings, vnodes: v }, `${v} vnodes per node`);
  });
  $("keys").addEventListener("change", () => {
    settings = { ...settings, keys: Number($("keys").value) };
    change = null;
    saveUrl();
    render();
  });
  $("replicas").addEventListener("change", () => {
    settings = { ...settings, replicas: Number($("replicas").value) };
    saveUrl();
    refollow();
  });
  $("undo").addEventListener("click", () => restore(history.undo({ ring, settings }), "Undid"));
  $("redo").addEventListener("click", () => restore(history.redo({ ring, settings }), "Redid"));
  document.addEventListener("keydown", (e) => {
    if (!(e.ctrlKey || e.metaKey) || e.target.matches("input, select")) return;
    if (e.key === "z" && !e.shiftKey) $("undo").click();
    else if (e.key === "y" || (e.key === "Z" && e.shiftKey)) $("redo").click();
    else return;
    e.preventDefault();
  });
  $("copy-link").addEventListener("click", async () => {
    saveUrl();
    try {
      await navigator.clipboard.writeText(location.href);
      $("history-status").textContent = "Link copied: it reopens this exact state.";
    } catch {
      $("history-status").textContent = `Link: ${location.href}`;
    }
  });
  $("pause").addEventListener("click", () => {
    paused = !paused;
    $("pause").textContent = paused ? "Play" : "Pause";
    $("pause").setAttribute("aria-pressed", String(paused));
    for (const a of [change, walk]) if (a) a.last = performance.now();
    if (!paused) requestAnimationFrame(animate);
  });
  $("step").addEventListener("click", () => {
    paused = true;
    $("pause").textContent = "Play";
    $("pause").setAttribute("aria-pressed", "true");
    for (const a of [change, walk]) if (a && a.t < 1) a.t = Math.min(1, a.t + 0.1);
    frame();
  });
  $("compare-modulo").addEventListener("change", () => {
    const last = history.past[history.past.length - 1];
    if (last) describeChange(`${last.label} (replayed)`, last.ring, ring);
  });
  $("follow-form").addEventListener("submit", (e) => {
    e.preventDefault();
    follow($("follow-key").value.trim());
  });
  let typing;
  $("follow-key").addEventListener("input", () => {
    clearTimeout(typing);
    typing = setTimeout(() => follow($("follow-key").value.trim()), 250);
  });
  const canvas = $("ring");
  canvas.addEventListener("pointermove", (e) => hoverAt(e.clientX, e.clientY));
  canvas.addEventListener("pointerleave", () => {
    $("tooltip").hidden = true;
    frame();
  });
  canvas.addEventListener("click", (e) => {
    const at = hoverAt(e.clientX, e.clientY);
    if (at.zone === "band") {
      const arc = ring.arcAt(at.fraction);
      const idx = ring.nodes().findIndex((n) => n.name === arc?.owner);
      selected = idx >= 0 && idx !== selected ? idx : undefined;
      render();
      if (selected !== undefined) $("legend").querySelectorAll("tbody tr")[selected]?.querySelector("input")?.focus();
    } else if (at.zone === "keys") {
      const k = ring.keyNear(KEY_PREFIX, settings.keys, at.fraction, at.px * 6);
      if (k !== undefined) {
        $("follow-key").value = `${KEY_PREFIX}${k}`;
        follow(`${KEY_PREFIX}${k}`);
      }
    }
  });
  new ResizeObserver(() => view.data && render()).observe(canvas);
  matchMedia("(prefers-color-scheme: dark)").addEventListener("change", render);
  if ("PerformanceObserver" in window && PerformanceObserver.supportedEntryTypes?.includes("longtask")) {
    new PerformanceObserver((list) => list.getEntries().forEach((e) => perf.longTasks.push(e.duration))).observe({ type: "longtask" });
  }
}

async function main() {
  await init();
  wire();
  let nodes = ["node-1", "node-2", "node-3", "node-4", "node-5"];
  settings = { algorithm: "ring", hash: "xxh3", vnodes: 32, keys: 2000, replicas: 2 };
  if (location.hash.length > 1) {
    try {
      ({ settings, nodes } = decode(location.hash));
      ring = new Ring(options(settings, nodes));
    } catch (e) {
      $("config-error").textContent = `This link could not be opened (${e.message}); showing the default ring.`;
      settings = { algorithm: "ring", hash: "xxh3", vnodes: 32, keys: 2000, replicas: 2 };
      nodes = ["node-1", "node-2", "node-3", "node-4", "node-5"];
    }
  }
  ring ??= new Ring(options(settings, nodes));
  syncControls();
  $("add-name").placeholder = nextName();
  render();
  $("last-change").textContent = "Add or remove a node to see exactly what moves.";
  document.body.dataset.ready = "1";
}

main().catch((e) => {
  $("summary").textContent = `Could not start the engine: ${e.message}`;
  throw e;
});
