// rollout.html: the change from one ring to the next while it spreads over stale clients
// (Ring.propagate, Ring.compareRollouts), drawn as the ring before and after (a Session's
// scenes, drawn by ring-view.js), the clients switching, and a timeline with axes and a
// legend; then the plan for the change (Ring.plan, vnodesFor). Every figure and sentence
// about the change comes from the engine; this file only draws.
import { loadEngine, themeColours, watchTheme } from "./host.js";
import { RingView } from "./ring-view.js";

const SVG = "http://www.w3.org/2000/svg";
// Each series' line: a colour (rollout.css's series-N) and a dash of its own, so two series
// with the same values still show as two.
const DASHES = ["", "7 4", "2 3", "10 3 2 3", "14 5"];
const $ = (id) => document.getElementById(id);
const ENGINE = {
  glue: new URL("./pkg/ringlab.js", import.meta.url).href,
  wasm: new URL("./pkg/ringlab_bg.wasm", import.meta.url).href,
};
const pct = (x) => `${(100 * x).toFixed(x > 0 && x < 0.001 ? 4 : 2)}%`;
const count = (x) => Math.round(x).toLocaleString("en-US");

let engine;
let timeline = null;
let views = null;
let pictured = null; // the before and after scenes and the change, as last drawn

function field(form, name) {
  return form.elements[name];
}

// The change, for the chosen algorithm: the two rings, and the same change made in a Session
// for its pictures.
function states(form) {
  const algorithm = field(form, "algorithm").value;
  const n = Math.max(2, Math.min(64, Number(field(form, "nodes").value) || 5));
  const names = Array.from({ length: n }, (_, i) => `10.0.0.${i + 1}:6379`);
  const before = new engine.Ring({ algorithm, nodes: names });
  const after = before.clone();
  const session = new engine.Session({ algorithm, nodes: names });
  const info = engine.catalog().find((a) => a.name === algorithm);
  const scene = session.scene();
  let change;
  switch (field(form, "change").value) {
    case "leave": {
      const gone = names[info.lastOnly !== null ? n - 1 : Math.floor(n / 2)];
      after.remove(gone);
      change = session.remove(gone);
      break;
    }
    case "weight":
      after.setWeight(names[0], 2);
      change = session.setWeight(names[0], 2);
      break;
    default:
      after.add(`10.0.0.${n + 1}:6379`);
      change = session.add(`10.0.0.${n + 1}:6379`);
  }
  pictured = { before: scene, after: session.scene(), change };
  session.free();
  return { before, after, info };
}

function options(form) {
  const kind = field(form, "lag").value;
  const value = Number(field(form, "ms").value);
  const lag = {
    fixed: { kind, ms: value },
    even: { kind, ms: value },
    exponential: { kind, meanMs: Math.max(1, value), seed: 1 },
    poll: { kind, everyMs: Math.max(1, value) },
    "on-redirect": { kind },
  }[kind];
  const duration = Number(field(form, "duration").value) || 2000;
  const traffic = field(form, "traffic").value === "zipf" ? { kind: "zipf", s: 1 } : { kind: "even" };
  return {
    clients: Number(field(form, "clients").value),
    lag,
    traffic,
    durationMs: duration,
    stepMs: duration / 400,
    requestsPerSec: Math.max(1, Number(field(form, "rate").value) || 200),
    refreshOnRedirect: field(form, "refresh").checked,
  };
}

// ---- the rings before and after

function drawRings() {
  if (!pictured) return;
  const theme = themeColours(document.documentElement);
  const { before, after, change } = pictured;
  // Without the key space's side labels (slot numbers), which would take half a phone's ring.
  const axis = ["", "", "", ""];
  views.before.setData({ ...before, axis, theme });
  views.after.setData({ ...after, axis, theme });
  // The change's moved arcs and keys, held marked (no animation, no fade).
  views.after.play(change);
  views.after.step(1);
  $("ring-before").setAttribute("aria-label", `Before: ${before.description}`);
  $("ring-after").setAttribute("aria-label", `After: ${after.description} ${change.lines.moved}`);
  $("moved-words").textContent = change.lines.moved;
}

// ---- the clients, each a dot: filled once it uses the new ring

function drawClients(i) {
  const t = timeline;
  const canvas = $("clients");
  const box = canvas.getBoundingClientRect();
  const n = t.adoptedAtMs.length;
  // Cells of 3 to 22 px: a few clients in one row, thousands in a block about 88 px a row.
  const width = Math.max(1, box.width);
  const cell = Math.max(3, Math.min(22, Math.floor(Math.sqrt((width * 88) / n)), Math.floor(width / Math.min(n, 40))));
  const cols = Math.max(1, Math.floor(width / cell));
  const rows = Math.ceil(n / cols);
  canvas.style.height = `${rows * cell}px`;
  const dpr = window.devicePixelRatio || 1;
  canvas.width = Math.round(width * dpr);
  canvas.height = Math.round(rows * cell * dpr);
  const ctx = canvas.getContext("2d");
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  const css = getComputedStyle(document.documentElement);
  const on = css.getPropertyValue("--accent").trim();
  const off = css.getPropertyValue("--muted").trim();
  const now = t.times[i];
  let switched = 0;
  const r = Math.max(1, cell / 2 - (cell > 6 ? 2 : 0.5));
  for (let c = 0; c < n; c++) {
    const at = t.adoptedAtMs[c];
    const isNew = at !== null && at <= now;
    if (isNew) switched++;
    const x = (c % cols) * cell + cell / 2, y = Math.floor(c / cols) * cell + cell / 2;
    ctx.beginPath();
    ctx.arc(x, y, r, 0, Math.PI * 2);
    if (isNew) {
      ctx.fillStyle = on;
      ctx.fill();
    } else {
      ctx.strokeStyle = off;
      ctx.lineWidth = cell > 6 ? 1.5 : 0.75;
      ctx.stroke();
    }
  }
  $("clients-words").textContent = `${time(now)} after the change: ${count(switched)} of ${count(n)} clients use the new ring; ${pct(t.staleTraffic[i])} of requests still come from clients on the old ring.`;
}

// ---- the timeline: axes with units, a line per series, a legend

// A time in the unit of the axis.
function unitFor(t) {
  return t.times[t.times.length - 1] >= 10000 ? { name: "s", per: 1000 } : { name: "ms", per: 1 };
}
const time = (x) => (x >= 10000 ? `${(x / 1000).toLocaleString("en-US", { maximumFractionDigits: 2 })} s` : `${x.toLocaleString("en-US", { maximumFractionDigits: x < 10 ? 2 : 0 })} ms`);

// Round steps for an axis from 0 to at least `top`: 1, 2 or 5 × a power of ten.
function ticks(top, most) {
  if (!(top > 0)) return [0];
  const raw = top / most;
  const p = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * p).find((s) => s >= raw);
  const out = [0];
  while (out[out.length - 1] < top * (1 - 1e-9)) out.push(out.length * step);
  return out;
}

function el(name, attrs = {}, text) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

let chartBox = null;

function draw(t) {
  const svg = $("chart");
  const W = Math.max(200, svg.clientWidth);
  const H = Math.max(160, svg.clientHeight);
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.replaceChildren();
  const phone = W < 480;
  const [left, right, top, bottom] = [phone ? 58 : 62, 24, 12, 44];
  const end = t.times[t.times.length - 1];
  const peak = Math.max(...t.series.flatMap((s) => t[s.key]));
  const yTicks = ticks(peak > 0 ? peak * 1.05 : 0.01, phone ? 4 : 5);
  const yTop = yTicks[yTicks.length - 1];
  const unit = unitFor(t);
  const xTicks = ticks(end / unit.per, phone ? 4 : 8).filter((v) => v * unit.per <= end * (1 + 1e-9));
  const x = (ms) => left + ((W - left - right) * ms) / end;
  const y = (v) => H - bottom - ((H - bottom - top) * v) / yTop;
  chartBox = { x, W, H, left, right, top, bottom };
  const grid = el("g", { class: "grid" });
  for (const v of yTicks) {
    grid.append(el("line", { x1: left, x2: W - right, y1: y(v), y2: y(v), class: v === 0 ? "axis" : "gridline" }));
    const digits = yTop * 100 < 0.1 ? 3 : yTop * 100 < 1 ? 2 : yTop * 100 < 10 ? 1 : 0;
    grid.append(el("text", { x: left - 6, y: y(v) + 4, class: "tick", "text-anchor": "end" }, `${(v * 100).toFixed(digits)}%`));
  }
  for (const v of xTicks) {
    grid.append(el("line", { x1: x(v * unit.per), x2: x(v * unit.per), y1: H - bottom, y2: H - bottom + 5, class: "axis" }));
    grid.append(el("text", { x: x(v * unit.per), y: H - bottom + 18, class: "tick", "text-anchor": "middle" }, v.toLocaleString("en-US")));
  }
  grid.append(el("line", { x1: left, x2: left, y1: top, y2: H - bottom, class: "axis" }));
  svg.append(grid);
  svg.append(el("text", { x: left + (W - left - right) / 2, y: H - 6, class: "axis-title", "text-anchor": "middle", id: "x-title" }, `Time after the change (${unit.name})`));
  svg.append(el("text", { x: 0, y: 0, class: "axis-title", "text-anchor": "middle", id: "y-title", transform: `translate(12 ${top + (H - top - bottom) / 2}) rotate(-90)` }, "Share of all requests (%)"));
  for (const p of t.epochs.slice(1)) svg.append(el("line", { x1: x(p), x2: x(p), y1: top, y2: H - bottom, class: "epoch" }));
  t.series.forEach(({ key }, s) => {
    // Steps: each value holds until the next time.
    let d = `M${x(t.times[0])},${y(t[key][0])}`;
    for (let i = 1; i < t.times.length; i++) d += `H${x(t.times[i])}V${y(t[key][i])}`;
    const path = el("path", { d, class: `series series-${s}`, "stroke-dasharray": DASHES[s] });
    path.dataset.series = key;
    svg.append(path);
  });
  svg.append(el("line", { class: "cursor", id: "cursor", y1: top, y2: H - bottom }));
  $("legend").replaceChildren(...t.series.map(({ key, label, note }, s) => {
    const li = document.createElement("li");
    li.dataset.series = key;
    const sample = el("svg", { width: 34, height: 10, "aria-hidden": "true", class: "sample" });
    sample.append(el("line", { x1: 1, x2: 33, y1: 5, y2: 5, class: `series series-${s}`, "stroke-dasharray": DASHES[s] }));
    const name = document.createElement("span");
    name.textContent = label;
    li.append(sample, name);
    if (note) {
      const small = document.createElement("small");
      small.textContent = ` (${note})`;
      li.append(small);
    }
    return li;
  }));
}

function showInstant() {
  const t = timeline;
  if (!t) return;
  const i = Number($("scrub").value);
  $("scrub-time").textContent = `${time(t.times[i])} after the change`;
  const px = chartBox.x(t.times[i]);
  $("cursor").setAttribute("x1", px);
  $("cursor").setAttribute("x2", px);
  drawClients(i);
  const rows = t.series.map(({ key, label }, s) => {
    const tr = document.createElement("tr");
    tr.dataset.counter = key;
    const name = document.createElement("td");
    const sample = el("svg", { width: 22, height: 10, "aria-hidden": "true", class: "sample" });
    sample.append(el("line", { x1: 1, x2: 21, y1: 5, y2: 5, class: `series series-${s}`, "stroke-dasharray": DASHES[s] }));
    name.append(sample, label);
    tr.append(name, cell(pct(t[key][i])), cell(count(t.totals[key])));
    return tr;
  });
  const stale = document.createElement("tr");
  stale.append(cell("Requests from clients on the old ring", false), cell(pct(t.staleTraffic[i])), cell(`of ${count(t.totals.requests)}`));
  $("instant").tBodies[0].replaceChildren(...rows, stale);
}

function cell(text, num = true) {
  const td = document.createElement("td");
  if (num) td.className = "num";
  td.textContent = text;
  return td;
}

function update() {
  const form = $("change");
  $("error").textContent = "";
  try {
    const { before, after, info } = states(form);
    const opts = options(form);
    timeline = engine.Ring.propagate(before, after, opts);
    drawRings();
    $("system-name").textContent = info.label;
    $("rule-text").textContent = timeline.rule;
    $("rule-counters").textContent = timeline.counters;
    $("exactness").textContent = timeline.exact
      ? `Exact: the share of keys that moved (${pct(timeline.moved)}) × the share of requests from clients on the old ring, at each moment.`
      : `${info.label} has no arcs: the moved share (${pct(timeline.moved)}) is measured on ${count(timeline.keys)} sample keys; the clients' traffic is exact.`;
    draw(timeline);
    const scrub = $("scrub");
    scrub.max = timeline.times.length - 1;
    scrub.value = Math.min(Number(scrub.value), timeline.times.length - 1) || Math.floor(timeline.times.length / 4);
    showInstant();
    $("converged").textContent = timeline.converged;
    const every = opts.lag.ms ?? opts.lag.everyMs ?? opts.lag.meanMs ?? 1000;
    const strategies = [
      { kind: "all-at-once" },
      { kind: "as-given" },
      { kind: "poll", everyMs: Math.max(1, every) },
      { kind: "on-redirect" },
      { kind: "drain-first" },
      { kind: "ramp", steps: 4, everyMs: Math.max(1, every) / 2 },
    ];
    const compared = engine.Ring.compareRollouts(before, after, opts, strategies);
    $("strategies").tBodies[0].replaceChildren(...compared.map(({ label, timeline: t }) => {
      const tr = document.createElement("tr");
      tr.append(cell(label, false), ...t.series.map(({ key }) => cell(count(t.totals[key]))), cell(t.convergedShort));
      return tr;
    }));
    plan(before, after);
    before.free();
    after.free();
  } catch (e) {
    $("error").textContent = e.message;
  }
}

function plan(before, after) {
  const form = $("plan-form");
  const p = engine.Ring.plan(before, after, {
    steps: Math.max(1, Math.min(16, Number(field(form, "steps").value) || 1)),
    items: Number(field(form, "items").value),
    itemBytes: Number(field(form, "itemBytes").value),
    bytesPerSec: Math.max(1, Number(field(form, "mbps").value) * 1e6),
  });
  const words = { weights: "a node's weight ramped in equal steps", slots: "the moved slots in batches", nodes: "one node at a time", "at-once": "at once (this algorithm has no weights to ramp, or one node changes)" };
  $("staging").textContent = `Staged as ${words[p.staging]}${p.exact ? "; exact over the arcs" : `; measured on ${count(p.keys)} sample keys`}.`;
  const row = (s, label) => {
    const tr = document.createElement("tr");
    tr.append(cell(label, false), cell(pct(s.moved)), cell(count(s.items)), cell(count(s.bytes)), cell(s.seconds.toFixed(2)));
    return tr;
  };
  const rows = p.steps.map((s, i) => row(s, `${i + 1}: ${s.label}`));
  const total = row(p.total, "Total");
  total.className = "total";
  const once = row(p.atOnce, "At once");
  once.className = "once";
  $("plan").tBodies[0].replaceChildren(...rows, total, once);
}

function sizing() {
  const form = $("sizing-form");
  try {
    const s = engine.vnodesFor({
      nodes: Math.max(1, Math.min(200, Number(field(form, "nodes").value) || 10)),
      maxOverMean: Math.max(1.01, Number(field(form, "target").value) || 1.1),
      afterLosing: field(form, "losing").checked,
    });
    const lost = s.afterLosing === null ? "" : `, ${s.afterLosing.toFixed(3)}× after losing the worst node`;
    $("sizing").textContent = s.vnodes === null
      ? `No vnode count within the 500,000-point cap reaches it (at the cap: ${s.maxOverMean.toFixed(3)}×).`
      : `${s.vnodes} vnodes per node: the busiest node carries ${s.maxOverMean.toFixed(3)}× its share${lost} (the normal approximation says about ${s.estimate}). Memory: ${count(s.bytesPerNode / 1e6)} MB of items on the busiest node; the ring itself ${count(s.ringBytes / 1024)} KiB in every client.`;
    $("defaults").tBodies[0].replaceChildren(...s.defaults.map((d) => {
      const tr = document.createElement("tr");
      tr.append(cell(d.system, false), cell(String(d.vnodes)), cell(`${d.maxOverMean.toFixed(3)}×`), cell(d.meets ? "yes" : "no", false));
      return tr;
    }));
  } catch (e) {
    $("sizing").textContent = e.message;
  }
}

async function main() {
  engine = await loadEngine(ENGINE);
  views = { before: new RingView($("ring-before"), engine.palette()), after: new RingView($("ring-after"), engine.palette()) };
  const select = field($("change"), "algorithm");
  for (const a of engine.catalog()) {
    const option = document.createElement("option");
    option.value = a.name;
    option.textContent = a.label;
    select.append(option);
  }
  const wanted = new URLSearchParams(location.search).get("algorithm");
  select.value = engine.catalog().some((a) => a.name === wanted) ? wanted : "redis-cluster";
  $("change").addEventListener("input", update);
  $("change").addEventListener("submit", (e) => e.preventDefault());
  $("plan-form").addEventListener("input", update);
  $("plan-form").addEventListener("submit", (e) => e.preventDefault());
  $("sizing-form").addEventListener("input", sizing);
  $("sizing-form").addEventListener("submit", (e) => e.preventDefault());
  $("scrub").addEventListener("input", showInstant);
  update();
  sizing();
  watchTheme(() => { drawRings(); if (timeline) showInstant(); });
  let width = 0;
  new ResizeObserver(() => {
    if (!timeline || document.documentElement.clientWidth === width) return;
    width = document.documentElement.clientWidth;
    drawRings();
    draw(timeline);
    showInstant();
  }).observe(document.body);
  document.body.dataset.ready = "1";
}

main().catch((e) => {
  $("error").textContent = `The engine did not load: ${e.message}`;
});
