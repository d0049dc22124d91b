// rollout.html: the change from one ring to the next while it spreads over stale clients
// (Ring.propagate, Ring.compareRollouts), a scrubbable timeline, and the plan for the change
// (Ring.plan, vnodesFor). Every figure comes from the engine; this file only draws.
import { loadEngine } from "./host.js";

const SERIES = [
  ["misrouted", "Misrouted"],
  ["hops", "Extra hops"],
  ["misses", "Misses"],
  ["staleReads", "Stale reads"],
  ["inconsistentWrites", "Inconsistent writes"],
];
const TOTALS = ["misrouted", "hops", "misses", "staleReads", "inconsistentWrites"];
const SVG = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);
const ENGINE = {
  glue: new URL("./pkg/ringlab.js", import.meta.url).href,
  wasm: new URL("./pkg/ringlab_bg.wasm", import.meta.url).href,
};
const pct = (x) => `${(100 * x).toFixed(x > 0 && x < 0.001 ? 4 : 2)}%`;
const count = (x) => Math.round(x).toLocaleString("en-US");
const ms = (x) => (x === null ? "never" : `${x.toFixed(x < 10 ? 2 : 0)} ms`);

let engine;
let timeline = null;

function field(form, name) {
  return form.elements[name];
}

// The two states of the change, for the chosen algorithm.
function states(form) {
  const algorithm = field(form, "algorithm").value;
  const n = Math.max(2, Math.min(64, Number(field(form, "nodes").value) || 5));
  const names = Array.from({ length: n }, (_, i) => `10.0.0.${i + 1}:6379`);
  const before = new engine.Ring({ algorithm, nodes: names });
  const after = before.clone();
  const info = engine.catalog().find((a) => a.name === algorithm);
  switch (field(form, "change").value) {
    case "leave": {
      const last = info.lastOnly !== null;
      after.remove(names[last ? n - 1 : Math.floor(n / 2)]);
      break;
    }
    case "weight":
      after.setWeight(names[0], 2);
      break;
    default:
      after.add(`10.0.0.${n + 1}:6379`);
  }
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

function draw(t) {
  const svg = $("chart");
  svg.replaceChildren();
  const [W, H, left, bottom] = [800, 300, 0, 0];
  const top = Math.max(1e-9, ...SERIES.flatMap(([k]) => t[k]));
  const x = (i) => left + (W - left) * (t.times[i] / t.times[t.times.length - 1]);
  const y = (v) => H - bottom - (H - bottom - 8) * (v / top);
  for (const p of t.epochs.slice(1)) {
    const line = document.createElementNS(SVG, "line");
    const px = (W * p) / t.times[t.times.length - 1];
    line.setAttribute("x1", px); line.setAttribute("x2", px); line.setAttribute("y1", 0); line.setAttribute("y2", H);
    line.setAttribute("class", "epoch");
    svg.append(line);
  }
  SERIES.forEach(([key], s) => {
    const path = document.createElementNS(SVG, "path");
    // Steps: each value holds until the next time.
    let d = `M${x(0)},${y(t[key][0])}`;
    for (let i = 1; i < t.times.length; i++) d += `H${x(i)}V${y(t[key][i])}`;
    path.setAttribute("d", d);
    path.setAttribute("class", `series-${s}`);
    path.dataset.series = key;
    svg.append(path);
  });
  const cursor = document.createElementNS(SVG, "line");
  cursor.setAttribute("class", "cursor");
  cursor.setAttribute("y1", 0); cursor.setAttribute("y2", H);
  cursor.id = "cursor";
  svg.append(cursor);
  $("chart-top").textContent = `The chart's top is ${pct(top)} of requests; dotted lines are later epochs (a ramp's steps).`;
}

function showInstant() {
  const t = timeline;
  if (!t) return;
  const i = Number($("scrub").value);
  $("scrub-time").textContent = `${t.times[i].toFixed(0)} ms after the change`;
  const px = (800 * t.times[i]) / t.times[t.times.length - 1];
  $("cursor").setAttribute("x1", px);
  $("cursor").setAttribute("x2", px);
  const rows = SERIES.map(([key, words], s) => {
    const tr = document.createElement("tr");
    tr.dataset.counter = key;
    const name = document.createElement("td");
    const swatch = document.createElement("span");
    swatch.className = `swatch series-${s}`;
    name.append(swatch, words);
    const now = document.createElement("td");
    now.className = "num";
    now.textContent = pct(t[key][i]);
    const total = document.createElement("td");
    total.className = "num";
    total.textContent = count(t.totals[TOTALS[s]]);
    tr.append(name, now, total);
    return tr;
  });
  const stale = document.createElement("tr");
  stale.innerHTML = "<td>Requests from stale clients</td><td class=num></td><td class=num></td>";
  stale.children[1].textContent = pct(t.staleTraffic[i]);
  stale.children[2].textContent = `of ${count(t.totals.requests)}`;
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
    $("system-name").textContent = `${info.label} (${timeline.system})`;
    $("rule-text").textContent = timeline.rule;
    $("rule-counters").textContent = timeline.counters;
    $("exactness").textContent = timeline.exact
      ? `Exact: the moved arcs (${pct(timeline.moved)} of keys) × the stale clients' traffic at each instant.`
      : `${info.label} has no arcs: the moved share (${pct(timeline.moved)}) is measured on ${count(timeline.keys)} sample keys; the clients' traffic is exact.`;
    draw(timeline);
    const scrub = $("scrub");
    scrub.max = timeline.times.length - 1;
    scrub.value = Math.min(Number(scrub.value), timeline.times.length - 1) || Math.floor(timeline.times.length / 4);
    showInstant();
    $("converged").textContent = `The last client converges at ${ms(timeline.convergedAtMs)}.`;
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
      tr.append(cell(label, false), ...TOTALS.map((k) => cell(count(t.totals[k]))), cell(ms(t.convergedAtMs)));
      return tr;
    }));
    plan(before, after);
    before.free();
    after.free();
  } catch (e) {
    $("error").textContent = `${e.message} (${e.code ?? "error"})`;
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
    $("sizing").textContent = `${e.message} (${e.code ?? "error"})`;
  }
}

async function main() {
  engine = await loadEngine(ENGINE);
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
  document.body.dataset.ready = "1";
}

main().catch((e) => {
  $("error").textContent = `The engine did not load: ${e.message}`;
});
