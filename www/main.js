// The playground's wiring: DOM events → the engine's Session → canvas and text. Every number,
// label and capability shown comes from the Session; this file only moves them to the DOM.
// After a change the page makes two calls into the engine: the change (its Transition: what
// moved, played by the ring view) and `frame()` (everything to redraw). The engine's module
// (pkg/ringlab.js, preloaded by index.html) is loaded once by main(), and replaced by a fresh
// instance only if it ever traps.
import { RingView } from "./ring-view.js";
import { Charts } from "./charts.js";
import { AgreementView } from "./agreement.js";
import { ExplainView } from "./explain.js";
import { MetricsView } from "./metrics.js";
import { loadEngine, onUncaughtTrap, themeColours, trapped, watchTheme } from "./host.js";
let engine;

const $ = (id) => document.getElementById(id);
// The engine's files, named whole so that bundlers find them.
const ENGINE = {
  glue: new URL("./pkg/ringlab.js", import.meta.url).href,
  wasm: new URL("./pkg/ringlab_bg.wasm", import.meta.url).href,
};

// The vnodes slider moves by steps that each change the value, about logarithmically
// (1, 2, … 10, 12, 16, 20, 25, 32, …, 1000): every arrow press lands on a new value. The number
// field beside it takes any value; the engine checks it.
const VNODE_STEPS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 15, 16, 20, 25, 32, 40, 50, 64, 80, 100, 128, 150, 160, 200, 256, 320, 400, 500, 640, 800, 1000];
const stepOf = (v) => {
  let best = 0;
  VNODE_STEPS.forEach((s, i) => Math.abs(Math.log(s) - Math.log(v)) < Math.abs(Math.log(VNODE_STEPS[best]) - Math.log(v)) && (best = i));
  return best;
};

let session, view, charts, agreement, explainView, metrics;
let importKinds = []; // configKinds(), listed once the import is first opened
const labels = new Map(); // the catalog's labels, by algorithm name
let frame; // the session's frame as last drawn
let selected; // node index picked on the canvas
let followed = null; // the key the user follows
let walkOnDraw = null; // a followed key whose walk plays once its ring is drawn (a link's)
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

// ---- rendering ---------------------------------------------------------------------------

// Redraws everything from one frame of the session: the ring at once, the table, the words
// and the link in tasks of their own (a 100-node table's layout and a long URL cost ms each).
// Just after a link is opened, the ring too is drawn in the next task: at the caps the first
// frame and the first drawing of 500,000 points are each tens of ms, too long for one task.
function render({ drawLater = false } = {}) {
  const start = performance.now();
  frame = session.frame(followed ? { follow: followed, link: true } : { link: true });
  const { scene, capabilities: caps } = frame;
  perf.scene = { axis: scene.axis, description: scene.description }; // what is drawn, for the page tests
  const shown = frame;
  const draw = () => {
    if (frame !== shown) return; // a newer frame is drawn instead
    view.setData({ ...scene, theme: themeColours(document.documentElement), selected });
    if (walkOnDraw && frame.follow) view.follow(frame.follow);
    walkOnDraw = null;
    perf.firstRing ??= performance.now(); // the first ring drawn, for `cargo xtask bench`
  };
  if (drawLater) later(draw);
  else draw();
  $("undo").disabled = !caps.undo;
  $("redo").disabled = !caps.redo;
  $("undo").title = caps.undo ? `Undo: ${caps.undo}` : "Nothing to undo";
  $("redo").title = caps.redo ? `Redo: ${caps.redo}` : "Nothing to redo";
  $("hash").disabled = !caps.hash;
  $("vnodes").disabled = $("vnodes-number").disabled = !caps.vnodes;
  $("add-weight").disabled = !caps.weights;
  syncControls();
  $("render-time").textContent = `${(performance.now() - start).toFixed(1)} ms`;
  later(() => {
    if (frame !== shown) return; // a newer frame is on its way
    renderLegend(shown);
    renderKey(shown);
    $("about").textContent = scene.description;
    $("summary").textContent = scene.summary;
    $("reading").textContent = scene.reading;
    $("ring").setAttribute("aria-label", `Hash ring: ${scene.description} ${scene.summary}`);
    showFollow(shown);
    refreshPopover();
  });
  // The link in a task of its own: replacing a long URL costs the browser several ms.
  if (frame.link != null) later(() => frame === shown && saveUrl());
  if (frame.nodes.length >= 2) charts?.update(session);
  later(() => frame === shown && agreement?.update(session));
  later(() => frame === shown && explainView?.update());
  metrics?.update(session);
}

// The colour key beside the ring: each node's swatch and legend ("node-1 20.0%").
function renderKey({ nodes }) {
  const list = $("colour-key");
  while (list.children.length > nodes.length) list.lastElementChild.remove();
  while (list.children.length < nodes.length) {
    const li = document.createElement("li");
    li.append(Object.assign(document.createElement("span"), { className: "swatch" }), document.createTextNode(""));
    list.append(li);
  }
  nodes.forEach((node, i) => {
    const li = list.children[i];
    paintSwatch(li.firstChild, node.colour);
    li.lastChild.data = node.down ? `${node.legend} (down)` : node.legend;
    li.className = node.down ? "down" : "";
  });
}

// A swatch in a colour slot's colour, with the slot's pattern past the palette's colours.
function paintSwatch(el, slot) {
  const colour = view.slotColour(slot);
  if (el.dataset.colour === colour && el.dataset.slot === String(slot)) return;
  el.style.backgroundColor = colour; // the class's pattern is a background-image over it
  el.className = `swatch${view.slotPattern(slot) ? ` pattern-${view.slotPattern(slot)}` : ""}`;
  el.dataset.colour = colour;
  el.dataset.slot = String(slot);
}

function cell(text, className) {
  const td = document.createElement("td");
  if (className) td.className = className;
  td.textContent = text; // text, never HTML
  return td;
}

// The node table, updated in place: rows are made once and reused, and only what changed is
// written, so a change to a 100-node table costs the browser a small relayout instead of a
// whole new table (building the rows afresh made that layout the page's longest task).
// Rows are made and filled LEGEND_ROWS a task: 500 new rows (each with an input and two
// buttons) were one 250 ms layout; in pieces, each task lays out its own rows.
const LEGEND_ROWS = 60;
// A node keeps its row: when one leaves, its row goes and the rows below move up as they
// are, rather than each taking the next node's name, colour and labels.
function renderLegend(shown) {
  const { nodes, capabilities } = shown;
  const tbody = $("legend").querySelector("tbody");
  const names = new Set(nodes.map((n) => n.name));
  for (const row of [...tbody.rows]) if (!names.has(row.node?.name)) row.remove();
  const rows = new Map([...tbody.rows].map((row) => [row.node.name, row]));
  const fill = (from) => {
    if (frame !== shown) return; // a newer frame fills the table
    const to = Math.min(nodes.length, from + LEGEND_ROWS);
    for (let i = from; i < to; i++) {
      const row = rows.get(nodes[i].name) ?? legendRow();
      if (tbody.rows[i] !== row) tbody.insertBefore(row, tbody.rows[i] ?? null);
      fillRow(row, nodes[i], i, capabilities);
    }
    if (to < nodes.length) later(() => fill(to));
  };
  fill(0);
}

// One row's elements and listeners; the listeners act on the node the row shows now.
function legendRow() {
  const row = document.createElement("tr");
  const name = cell("", "name");
  const swatch = document.createElement("span");
  swatch.className = "swatch";
  const label = document.createTextNode("");
  name.append(swatch, label);
  const weightCell = cell("", "weight");
  const weight = document.createElement("input");
  Object.assign(weight, { type: "number", step: "any", min: "0.01" });
  weight.addEventListener("change", () => apply(() => session.setWeight(row.node.name, Number(weight.value)), $("legend-error")));
  weightCell.append(weight);
  const button = (text) => Object.assign(document.createElement("button"), { type: "button", className: "secondary", textContent: text });
  const down = button("Down");
  down.addEventListener("click", () => apply(() => session.setDown(row.node.name, !row.node.down), $("legend-error")));
  const remove = button("Remove");
  remove.addEventListener("click", () => apply(() => session.remove(row.node.name), $("legend-error")));
  const action = cell("", "actions");
  action.append(down, remove);
  const [zone, points, share, keys, traffic] = [cell("", "zone"), cell("", "num points"), cell("", "num share"), cell("", "num keys"), cell("", "num traffic")];
  const cells = [name, zone, weightCell, points, share, keys, traffic, action];
  row.append(...cells);
  // The column names, for the narrow layout that shows each row as a card.
  const headers = [...$("legend").tHead.rows[0].cells].map((th) => th.textContent.trim());
  cells.forEach((c, i) => i > 0 && i < 7 && (c.dataset.label = headers[i]));
  row.parts = { swatch, label, zone, weight, points, share, keys, traffic, down, remove };
  return row;
}

// Sets what a row shows, writing only what differs (an unchanged write still costs layout).
function fillRow(row, node, i, caps) {
  const p = row.parts;
  row.node = node;
  const put = (el, key, value) => el[key] !== value && (el[key] = value);
  const attr = (el, name, value) => {
    if (value === undefined || value === null) el.hasAttribute(name) && el.removeAttribute(name);
    else if (el.getAttribute(name) !== value) el.setAttribute(name, value);
  };
  attr(row, "class", [i === selected ? "selected" : "", node.down ? "down" : ""].join(" ").trim() || undefined);
  paintSwatch(p.swatch, node.colour);
  put(p.label, "data", node.name);
  put(p.zone, "textContent", node.zone ?? "–");
  put(p.weight, "value", String(node.weight));
  put(p.weight, "disabled", !caps.weights);
  attr(p.weight, "aria-label", `Weight of ${node.name}`);
  put(p.points, "textContent", node.points.toLocaleString("en-US"));
  put(p.share, "textContent", node.shareText);
  put(p.keys, "textContent", node.keys.toLocaleString("en-US"));
  put(p.traffic, "textContent", node.trafficText);
  put(p.down, "textContent", node.down ? "Up" : "Down");
  attr(p.down, "aria-label", `Mark ${node.name} ${node.down ? "up" : "down"}`);
  attr(p.remove, "aria-label", `Remove ${node.name}`);
  put(p.remove, "disabled", Boolean(node.removalRule));
  attr(p.remove, "title", node.removalRule || undefined);
}

// ---- changes ---------------------------------------------------------------------------

// Runs a change on the session; on success shows exactly what moved, on error shows the
// message next to the control (the session is unchanged). Answers whether it was done.
function apply(edit, errorBox = $("add-error")) {
  let t;
  try {
    t = edit();
  } catch (e) {
    if (trapped(e)) {
      recover(e);
      return false;
    }
    errorBox.textContent = e.message;
    return false;
  }
  errorBox.textContent = "";
  show(t);
  return true;
}

// A history call (undo, redo, replay): `[its transition]`, or null when it was refused (why
// shows in the history status; the state stays).
function fromHistory(call) {
  try {
    return [call()];
  } catch (e) {
    if (trapped(e)) recover(e);
    else $("history-status").textContent = e.message;
    return null;
  }
}

function step(call) {
  const [t] = fromHistory(call) ?? [];
  show(t, t?.label);
}

// The last change in three short lines (what moved, what it costs, what `hash % N` would
// have done), the rest a tap away. Spaces between the lines keep its text one paragraph.
function showReadout(t) {
  const line = (text) => Object.assign(document.createElement("span"), { className: "line", textContent: text });
  const { moved, cost, modulo, detail } = t.lines;
  const box = $("last-change");
  box.replaceChildren(...[moved, cost, modulo].filter(Boolean).flatMap((text) => [line(text), " "]));
  if (detail.length) {
    const more = Object.assign(document.createElement("details"), { className: "why" });
    more.append(Object.assign(document.createElement("summary"), { textContent: "Why, and the rule" }), " ", ...detail.flatMap((text) => [line(text), " "]));
    box.append(more);
  }
  $("flash").textContent = moved;
}

function show(t, status = "") {
  if (!t) return;
  selected = undefined;
  closePopover(false);
  $("history-status").textContent = status;
  showReadout(t);
  view.play(t);
  // The new state's frame in a task of its own: a big ring's change and its redraw would
  // otherwise block input together.
  later(() => {
    render();
    // A followed key walks again on the new state.
    if (followed) view.follow(frame.follow);
  });
}

// ---- follow a key and hover -------------------------------------------------------------

// Explained steps' places (`[{at, second}]`, or null): spokes on the ring, and their nodes'
// table rows.
function highlightStep(marks) {
  view.setHighlight((marks ?? []).map((m) => ({ fraction: m.at.fraction, second: m.second })));
  const marked = new Set((marks ?? []).flatMap((m) => [m.at.node, ...m.at.nodes]).filter((n) => n !== null));
  [...$("legend").querySelector("tbody").rows].forEach((row, i) => row.classList.toggle("explained", marked.has(i)));
}

// Follows `key` (or stops following): the frame carries its walk, which the view plays.
function follow(key) {
  followed = key && frame?.nodes.length ? key : null;
  render();
  if (frame.follow) view.follow(frame.follow);
  else view.follow(null);
}

function showFollow(shown) {
  if (shown.follow) $("follow-out").textContent = shown.follow.text;
  else if (shown.followError) $("follow-out").textContent = shown.followError;
}

function hit(clientX, clientY) {
  const at = view.locate(clientX, clientY);
  if (at.zone === "band") return { at, arc: session.arcAt(at.fraction) };
  if (at.zone === "keys") return { at, key: session.keyNear(at.fraction, at.px * 6) };
  return { at };
}

function hoverAt(clientX, clientY, { tip: showTip = true } = {}) {
  const tip = $("tooltip");
  const h = hit(clientX, clientY);
  view.setHover(h.arc);
  const text = h.arc?.text ?? h.key?.text;
  if (!text || !showTip) {
    tip.hidden = true;
    return h;
  }
  tip.textContent = text;
  const box = $("ring").getBoundingClientRect();
  tip.style.left = `${Math.min(clientX - box.left + 12, box.width - 200)}px`;
  tip.style.top = `${clientY - box.top + 12}px`;
  tip.hidden = false;
  return h;
}

// ---- the popover: what was tapped, beside it, with the node's actions -------------------

let popover = null; // {node, text, x, y} while open

function openPopover(node, text, clientX, clientY) {
  const box = $("ring").closest(".picture").getBoundingClientRect();
  popover = { node, text, x: clientX - box.left, y: clientY - box.top };
  $("tooltip").hidden = true;
  refreshPopover();
  $("popover").hidden = false;
  place($("popover"), popover.x, popover.y, box);
  $("popover-close").focus({ preventScroll: true });
}

// Fills the popover from the frame shown (a change re-fills it with the new figures).
function refreshPopover() {
  if (!popover) return;
  const row = frame.nodes[popover.node];
  if (!row) return closePopover(false);
  paintSwatch($("popover-swatch"), row.colour);
  $("popover-title").textContent = row.down ? `${row.name} (down)` : row.name;
  $("popover-text").textContent = popover.text;
  const share = frame.capabilities.exactShares ? `share ${row.shareText}` : "share sampled";
  $("popover-figures").textContent = `${share} · ${row.keys.toLocaleString("en-US")} keys · ${row.trafficText} of requests`;
  $("popover-down").textContent = row.down ? "Mark up" : "Mark down";
  $("popover-remove").disabled = Boolean(row.removalRule);
  $("popover-remove").title = row.removalRule ?? "";
}

// Puts the popover beside the point (x, y) of the picture and inside it, leaving the point
// itself in sight: to its right, its left, below or above, whichever fits first.
function place(el, x, y, box) {
  const w = el.offsetWidth, h = el.offsetHeight, gap = 14;
  const clamp = (v, size, room) => Math.min(Math.max(0, v), Math.max(0, room - size));
  const spots = [
    [x + gap, clamp(y - h / 2, h, box.height)],
    [x - gap - w, clamp(y - h / 2, h, box.height)],
    [clamp(x - w / 2, w, box.width), y + gap],
    [clamp(x - w / 2, w, box.width), y - gap - h],
  ];
  const fits = ([l, t]) => l >= 0 && t >= 0 && l + w <= box.width && t + h <= box.height;
  const [left, top] = spots.find(fits) ?? [clamp(x + gap, w, box.width), clamp(y + gap, h, box.height)];
  el.style.left = `${left}px`;
  el.style.top = `${top}px`;
}

function closePopover(redraw = true) {
  if (!popover) return;
  const hadFocus = $("popover").contains(document.activeElement);
  popover = null;
  $("popover").hidden = true;
  if (selected !== undefined) {
    selected = undefined;
    if (redraw) render();
  }
  if (hadFocus) $("ring").focus({ preventScroll: true });
}

function popoverAction(change) {
  if (!popover) return;
  const row = frame.nodes[popover.node];
  closePopover(false);
  apply(() => change(row), $("legend-error"));
}

// ---- controls ---------------------------------------------------------------------------

// The controls show the frame's settings.
function syncControls() {
  const s = frame.settings;
  const caps = frame.capabilities;
  $("algorithm").value = s.algorithm;
  // Where the algorithm hashes keys its own way, the menu says how (not a setting it ignores).
  let own = $("hash").querySelector("option[data-own]");
  if (caps.ownHash) {
    own ??= $("hash").appendChild(Object.assign(new Option("", ""), { disabled: true }));
    own.dataset.own = "1";
    own.textContent = caps.ownHash;
    $("hash").value = "";
  } else {
    own?.remove();
    $("hash").value = s.hash;
  }
  showVnodes(s.vnodes, caps.vnodes);
  $("keys").value = String(s.keys);
  $("replicas").value = String(s.replicas);
  $("zipf").value = String(s.zipf);
  $("add-name").placeholder = frame.nextNodeName;
}

// The number field and the slider show `v` (the slider its nearest step); blank where the
// algorithm has no vnodes.
function showVnodes(v, applies = true) {
  if (!applies) {
    $("vnodes-number").value = "";
    $("vnodes-number").placeholder = "–";
  } else if (document.activeElement !== $("vnodes-number") || Number($("vnodes-number").value) !== v) $("vnodes-number").value = String(v);
  $("vnodes").value = String(stepOf(v));
  $("vnodes").setAttribute("aria-valuetext", `${v} vnodes`);
}

function saveUrl() {
  if (location.hash !== frame.link) window.history.replaceState(null, "", frame.link);
}

// A refused change leaves the controls showing the session's settings, not what was picked.
function configure(settings) {
  if (!apply(() => session.configure(settings), $("config-error"))) syncControls();
}

function configureVnodes(v) {
  if (Number.isFinite(v) && v !== frame.settings.vnodes) configure({ vnodes: v });
  else showVnodes(frame.settings.vnodes);
}

// A new session (a link, starting over): nothing of the old one's change, walk or words stays.
function replace(next) {
  session?.free();
  session = next;
  forget();
  // The user's keys were the old session's: the new one counts on the generated keys.
  keyReads++;
  $("keys-status").textContent = keysHelp;
  // "Compare with hash % N" is the page's choice: the new session follows it.
  if ($("compare-modulo").checked) next.setCompareModulo(true);
}

// What the page showed of the ring before another took its place (a new session, an import).
function forget() {
  view?.clear();
  selected = undefined;
  followed = null;
  closePopover(false);
  $("tooltip").hidden = true;
  $("follow-key").value = "";
  $("follow-out").textContent = "";
  $("last-change").textContent = $("flash").textContent = "";
  $("history-status").textContent = "";
  for (const id of ["add-error", "legend-error", "keys-error", "work-error", "import-error"]) $(id).textContent = "";
}

// Replaces the ring with the one of the user's config text, as one step Undo takes back.
// A text of several sections (a whole nginx.conf's upstreams, a haproxy.cfg's backends)
// offers them in a picker; it opens on the one that hashes, and picking another loads it.
function importConfig({ keepSection = false } = {}) {
  const kind = $("import-kind").value;
  const text = $("import-text").value;
  let t, sections;
  try {
    sections = engine.configSections(kind, text);
    if (!keepSection) offerSections(sections, kind, text);
    const section = sections.length > 1 ? $("import-section").value : undefined;
    t = session.importConfig(kind, text, section ? { section } : {});
  } catch (e) {
    if (trapped(e)) return recover(e);
    $("import-error").textContent = e.message;
    return;
  }
  forget();
  render();
  const from = sections.length > 1 ? ` (“${$("import-section").value}”, one of ${sections.length} in your text)` : "";
  $("last-change").textContent = `${t.label}${from}. Add a server or mark one down to see exactly what moves; Undo brings back the ring before.`;
  $("flash").textContent = t.label;
}

// The sections of the text in the picker, shown when there are several; the one picked
// stays picked while the text still has it. A new text opens on the section the engine reads
// when none is named (a whole nginx.conf: the upstream that hashes), else its first.
function offerSections(sections, kind, text) {
  const picked = $("import-section").value;
  const listed = [...$("import-section").options].map((o) => o.value);
  if (listed.join("\n") !== sections.join("\n")) {
    $("import-section").replaceChildren(...sections.map((name) => new Option(name, name)));
    if (sections.includes(picked)) $("import-section").value = picked;
    else if (sections.length > 1) {
      const read = engine.checkConfig(kind, text, {}).placement?.section;
      if (read && sections.includes(read)) $("import-section").value = read;
    }
  }
  $("import-pick").hidden = sections.length < 2;
}

// What the engine makes of each line of the text, shown as it is pasted or typed: the
// counts, the lines passed over (with why) in a list to open, and the line refused.
// Every word is the engine's; names stay text (textContent).
const REPORT_LINES = 500; // a list to scroll, not a whole 8 MB file in the DOM
function checkImport() {
  const box = $("import-report");
  const kind = $("import-kind").value;
  const text = $("import-text").value;
  if (!kind || !text.trim()) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  // The engine's words name directives in `backticks`: shown as code, every piece as text.
  const coded = (words) => words.split("`").map((part, i) => (i % 2 ? Object.assign(document.createElement("code"), { textContent: part }) : part));
  const paragraph = (words, className) => {
    const p = Object.assign(document.createElement("p"), { className });
    p.append(...coded(words));
    return p;
  };
  let report;
  try {
    let sections = [];
    try {
      sections = engine.configSections(kind, text);
    } catch (e) {
      if (trapped(e)) throw e; // the report says what is wrong with the text
    }
    offerSections(sections, kind, text);
    const section = sections.length > 1 ? $("import-section").value : undefined;
    report = engine.checkConfig(kind, text, section ? { section } : {});
  } catch (e) {
    if (trapped(e)) return recover(e);
    box.replaceChildren(paragraph(e.message, "error"));
    box.hidden = false;
    return;
  }
  const passed = report.lines.filter((l) => l.status === "passed-over");
  const wasOpen = $("import-passed")?.open ?? false; // a list opened stays open as the text changes
  let counts = paragraph(report.summary, "");
  if (passed.length) {
    counts = document.createElement("details");
    counts.id = "import-passed";
    counts.open = wasOpen;
    const list = document.createElement("ol");
    for (const l of passed.slice(0, REPORT_LINES)) {
      const item = Object.assign(document.createElement("li"), { value: l.line });
      item.append(...coded(l.why));
      list.append(item);
    }
    if (passed.length > REPORT_LINES) list.append(Object.assign(document.createElement("li"), { textContent: "…" }));
    counts.append(Object.assign(document.createElement("summary"), { textContent: report.summary }), list);
  }
  box.replaceChildren(counts, ...(report.error ? [paragraph(report.error.message, "error")] : []));
  box.hidden = false;
}

// The tier's workload from the three fields: all filled, or none (costs not reported).
function applyWorkload() {
  const fields = ["work-items", "work-bytes", "work-rate"].map((id) => $(id).value.trim());
  try {
    if (fields.every((f) => f === "")) session.setWorkload(null);
    else session.setWorkload({ items: Number(fields[0]), itemBytes: Number(fields[1]), requestsPerSec: Number(fields[2]) });
    $("work-error").textContent = "";
    render();
  } catch (e) {
    $("work-error").textContent = e.message;
  }
}

function syncWorkload() {
  const w = session.workload();
  $("work-items").value = w ? String(w.items) : "";
  $("work-bytes").value = w ? String(w.itemBytes) : "";
  $("work-rate").value = w ? String(w.requestsPerSec) : "";
  if (w) $("costs").open = true;
}

// The user's keys from the box (or null: back to key:0 ..). A long list is read in pieces of
// whole lines, each in its own task, so reading a million keys never blocks input for long.
const KEY_PIECE_BYTES = 2 << 20;
let keyReads = 0; // each call's number: a read in pieces stops once a later call began
function useKeys(text) {
  const read = ++keyReads;
  const shown = (summary) => {
    $("keys-error").textContent = "";
    $("keys-status").textContent = summary
      ? `${summary.text} Using them now; they stay on this page.`
      : "Using the generated keys key:0, key:1, …";
    view.clear();
    render();
  };
  const failed = (e) => {
    $("keys-error").textContent = e.message;
    $("keys-status").textContent = "The keys in use are unchanged.";
  };
  if (text === null || text.length <= KEY_PIECE_BYTES) {
    try {
      shown(session.useKeys(text));
    } catch (e) {
      failed(e);
    }
    return;
  }
  session.beginKeys();
  $("keys-status").textContent = "Reading your keys…";
  let at = 0;
  const next = () => {
    if (read !== keyReads) return; // another list (or the generated keys) was asked for since
    try {
      if (at >= text.length) return shown(session.endKeys());
      let end = text.indexOf("\n", Math.min(text.length, at + KEY_PIECE_BYTES));
      if (end < 0) end = text.length;
      session.pushKeys(text.slice(at, end));
      at = end + 1;
      later(next);
    } catch (e) {
      failed(e);
    }
  };
  later(next);
}

// The choices the settings controls offer (the controls show the session's settings), and
// the catalog's labels the comparing views name algorithms by.
function fillChoices() {
  for (const a of engine.catalog()) labels.set(a.name, a.label);
  for (const name of engine.algorithms()) $("algorithm").append(new Option(name, name));
  for (const name of engine.hashes()) $("hash").append(new Option(name, name));
  $("vnodes").max = String(VNODE_STEPS.length - 1);
}

function wire() {
  for (const id of ["work-items", "work-bytes", "work-rate"]) $(id).addEventListener("change", applyWorkload);
  $("keys-form").addEventListener("submit", (e) => {
    e.preventDefault();
    useKeys($("keys-text").value);
  });
  $("keys-reset").addEventListener("click", () => useKeys(null));
  // A file's keys go straight to the engine: a textarea holding megabytes of text would
  // itself stall the page.
  const readFile = async (file) => {
    if (!file) return;
    $("keys-text").value = "";
    $("keys-text").placeholder = `${file.name} (${file.size.toLocaleString("en-US")} bytes)`;
    useKeys(await file.text());
  };
  $("keys-file").addEventListener("change", () => readFile($("keys-file").files[0]));
  $("keys-text").addEventListener("dragover", (e) => e.preventDefault());
  $("keys-text").addEventListener("drop", (e) => {
    e.preventDefault();
    readFile(e.dataTransfer?.files[0]);
  });
  // The config kinds, listed once the import is first opened.
  const importControls = ["import-kind", "import-example", "import-load"];
  const listKinds = () => {
    if (importKinds.length) return;
    importKinds = engine.configKinds();
    for (const k of importKinds) $("import-kind").append(new Option(k.label, k.kind));
    for (const id of importControls) $(id).disabled = false;
    exampleLabel();
  };
  for (const id of importControls) $(id).disabled = true; // until the kinds are listed
  $("import").addEventListener("toggle", () => $("import").open && listKinds());
  // Examples load by a button, never as placeholder text that looks like content.
  const kindOf = () => importKinds.find((k) => k.kind === $("import-kind").value);
  const exampleLabel = () => ($("import-example").textContent = `Use the example ${kindOf()?.label ?? ""}`.trim());
  exampleLabel();
  $("import-kind").addEventListener("change", () => {
    exampleLabel();
    $("import-error").textContent = "";
    checkImport();
  });
  $("import-example").addEventListener("click", () => {
    $("import-text").value = kindOf()?.example ?? "";
    $("import-error").textContent = "";
    checkImport();
  });
  // Checked as it is typed, once the typing pauses (a paste is checked at once).
  let checkTimer;
  $("import-text").addEventListener("input", (e) => {
    clearTimeout(checkTimer);
    $("import-error").textContent = "";
    if (e.inputType === "insertFromPaste" || e.inputType === "insertFromDrop") checkImport();
    else checkTimer = setTimeout(checkImport, 250);
  });
  $("import-section").addEventListener("change", () => {
    importConfig({ keepSection: true });
    checkImport();
  });
  $("import-form").addEventListener("submit", (e) => {
    e.preventDefault();
    importConfig();
  });
  $("keys-example").addEventListener("click", () => {
    $("keys-text").value = ["key,count", "user:42,120", "user:7,80", "session:9f2c,40", "cart:1001,25", "user:1,5"].join("\n");
  });
  $("work-example").addEventListener("click", () => {
    const d = $("work-example").dataset;
    [$("work-items").value, $("work-bytes").value, $("work-rate").value] = [d.items, d.bytes, d.rate];
    applyWorkload();
  });
  charts = new Charts(later, () => engine);
  metrics = new MetricsView($("metrics"), later, () => engine);
  metrics.update(session);
  agreement = new AgreementView($("agreement"), { onChange: () => agreement.update(session), onApart: (spans) => view.setApart(spans) });
  explainView = new ExplainView($("explain"), labels, { highlight: highlightStep, session: () => session });
  $("add-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const name = $("add-name").value.trim() || frame.nextNodeName;
    const weight = Number($("add-weight").value);
    const zone = $("add-zone").value.trim();
    if (apply(() => session.add(name, zone ? { weight, zone } : { weight }))) $("add-name").value = "";
  });
  $("config-form").addEventListener("submit", (e) => e.preventDefault());
  $("algorithm").addEventListener("change", () => configure({ algorithm: $("algorithm").value }));
  $("hash").addEventListener("change", () => configure({ hash: $("hash").value }));
  $("vnodes").addEventListener("input", () => {
    const v = VNODE_STEPS[Number($("vnodes").value)];
    $("vnodes-number").value = String(v);
    $("vnodes").setAttribute("aria-valuetext", `${v} vnodes`);
  });
  $("vnodes").addEventListener("change", () => configureVnodes(VNODE_STEPS[Number($("vnodes").value)]));
  $("vnodes-number").addEventListener("change", () => configureVnodes(Number($("vnodes-number").value)));
  $("keys").addEventListener("change", () => configure({ keys: Number($("keys").value) }));
  $("replicas").addEventListener("change", () => configure({ replicas: Number($("replicas").value) }));
  $("zipf").addEventListener("change", () => configure({ zipf: Number($("zipf").value) }));
  $("undo").addEventListener("click", () => step(() => session.undo()));
  $("redo").addEventListener("click", () => step(() => session.redo()));
  document.addEventListener("keydown", (e) => {
    if (!(e.ctrlKey || e.metaKey) || e.target.matches("input, select")) return;
    if (e.key === "z" && !e.shiftKey) $("undo").click();
    else if (e.key === "y" || (e.key === "Z" && e.shiftKey)) $("redo").click();
    else return;
    e.preventDefault();
  });
  // Back to the default ring, from an import or a link as from anything else.
  $("start-over").addEventListener("click", () => {
    replace(new engine.Session());
    syncWorkload();
    render();
    $("last-change").textContent = INVITATION;
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
  $("speed").addEventListener("change", () => (view.speed = Number($("speed").value)));
  const showPaused = (paused) => {
    $("pause").textContent = paused ? "Play" : "Pause";
    $("pause").setAttribute("aria-pressed", String(paused));
  };
  $("pause").addEventListener("click", () => {
    view.pause(!view.paused);
    showPaused(view.paused);
  });
  $("step").addEventListener("click", () => {
    view.step();
    showPaused(true);
  });
  $("compare-modulo").addEventListener("change", () => {
    session.setCompareModulo($("compare-modulo").checked);
    const [t] = fromHistory(() => session.lastChange()) ?? [];
    if (t) {
      showReadout(t);
      view.play(t);
    }
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
  // A touch has no hover: its tip would stay behind after the tap.
  canvas.addEventListener("pointermove", (e) => !popover && hoverAt(e.clientX, e.clientY, { tip: e.pointerType !== "touch" }));
  canvas.addEventListener("pointerleave", () => {
    $("tooltip").hidden = true;
    view.setHover(undefined);
  });
  // A tap on an arc or a key opens the popover beside it; the page does not scroll.
  canvas.addEventListener("click", (e) => {
    const h = hoverAt(e.clientX, e.clientY, { tip: false });
    if (h.arc) {
      selected = h.arc.node;
      render();
      openPopover(h.arc.node, h.arc.text, e.clientX, e.clientY);
    } else if (h.key) {
      $("follow-key").value = h.key.key;
      follow(h.key.key);
      if ($("explain").open) explainView.setKey(h.key.key);
      openPopover(h.key.node, h.key.text, e.clientX, e.clientY);
    } else closePopover();
  });
  $("popover-close").addEventListener("click", () => closePopover());
  $("popover-down").addEventListener("click", () => popoverAction((row) => session.setDown(row.name, !row.down)));
  $("popover-remove").addEventListener("click", () => popoverAction((row) => session.remove(row.name)));
  document.addEventListener("keydown", (e) => e.key === "Escape" && popover && closePopover());
  document.addEventListener("pointerdown", (e) => {
    if (popover && !$("popover").contains(e.target) && e.target !== canvas) closePopover();
  });
  window.addEventListener("hashchange", (e) => {
    // The link the user went to, even if a render's replaceState ran before this event did.
    const link = new URL(e.newURL).hash;
    if (link === frame?.link) return; // our own replaceState
    // A link that cannot be opened changes nothing, not even the address the user typed.
    open(link, (replaced) => replaced && later(() => render({ drawLater: true })));
  });
  if ("PerformanceObserver" in window && PerformanceObserver.supportedEntryTypes?.includes("longtask")) {
    new PerformanceObserver((list) => list.getEntries().forEach((e) => perf.longTasks.push(e.duration))).observe({ type: "longtask" });
  }
}

// ---- recovery ------------------------------------------------------------------------------

// If the engine ever traps (a bug: every input gets an Error instead), its module is dead:
// the panic message is already in the console; load a fresh instance of the module and
// reopen the last good state, which the link always holds.
// Should the fresh instance trap on that state too, a third one opens the default ring.
let recovering = false;
async function recover(error) {
  if (recovering) return;
  recovering = true;
  console.error("ringlab: the engine stopped; reopening the last good state", error);
  try {
    let message = "Something went wrong in the engine (the details are in the console): the page reopened its last good state.";
    try {
      await reopen(location.hash);
    } catch (again) {
      if (!trapped(again)) throw again;
      console.error("ringlab: the engine stopped again on the last good state; opening the default ring", again);
      await reopen("");
      message = "Something went wrong in the engine (the details are in the console), twice on the last good state: the page shows the default ring.";
    }
    $("config-error").textContent = message;
    render();
  } finally {
    recovering = false;
  }
}

// Opens `link` in a fresh instance of the engine module; rejects with the trap if it traps.
async function reopen(link) {
  engine = await loadEngine(ENGINE, { fresh: true });
  session = undefined; // the dead module's objects cannot even be freed
  await new Promise((reopened, trappedAgain) => open(link, reopened, trappedAgain));
}

// Opens a share link, or the default playground with a message when it cannot be read, then
// calls `done(replaced)`: whether the session was replaced. The engine opens a link in steps
// (a link at the caps builds 500,000 points), each of bounded work: a task runs another step
// only while the slowest recent step still fits in its OPEN_SLICE_MS, then yields, so no
// task of the open passes a frame's 16 ms. (Recent: each step's time weighs 0.9 of the one
// before, so one step the OS paused does not leave every later task a step each, and a
// timer's 4 ms apart.) A newer open supersedes one still running.
// A trap goes to `onTrap`; by default it is thrown, uncaught, and `recover` handles it.
// (8, not 12: a step of a stage not yet seen can be twice the recent slowest, and a fresh
// machine's first steps run cold code; at 12 one such task came to 17.5 ms.)
const OPEN_SLICE_MS = 8;
let openings = 0;
function open(link, done, onTrap = (e) => { throw e; }) {
  const mine = ++openings;
  const begun = engine; // a session opened by an engine since replaced (a trap) is opened again
  const opened = (next, message) => {
    $("config-error").textContent = message;
    replace(next);
    // A link that follows a key reopens its walk, drawn with the ring.
    const key = next.linkedKey();
    if (key) {
      followed = walkOnDraw = key;
      $("follow-key").value = key;
    }
    syncWorkload();
    done(true);
  };
  const failed = (e) => {
    if (trapped(e)) return onTrap(e);
    if (!session) return opened(new engine.Session(), `This link could not be opened (${e.message}); showing the default ring.`);
    // A bad link pasted into an open page: the user's ring and history stay.
    $("config-error").textContent = `This link could not be opened (${e.message}); the ring is as it was.`;
    $("last-change").textContent = $("config-error").textContent;
    done(false);
  };
  if (link.length <= 1) return opened(new engine.Session(), "");
  let opening;
  try {
    opening = engine.Session.opening(link);
  } catch (e) {
    return failed(e);
  }
  performance.mark("ringlab:open"); // where a trace of the open begins (the page tests')
  perf.openSlices = 0; // the tasks this open has run so far, for the page tests
  let slowest = 0; // the slowest recent step, in ms
  const slice = () => {
    if (mine !== openings) return opening.free(); // a newer link is being opened
    perf.openSlices++;
    const start = performance.now();
    let next;
    try {
      for (;;) {
        const before = performance.now();
        const ready = opening.step();
        const now = performance.now();
        slowest = Math.max(slowest * 0.9, now - before);
        if (ready) break;
        if (now - start + slowest > OPEN_SLICE_MS) return later(slice);
      }
      next = opening.session();
      performance.mark("ringlab:opened");
    } catch (e) {
      if (!trapped(e)) opening.free(); // a dead module's objects cannot be freed
      return failed(e);
    }
    opening.free();
    if (engine !== begun) {
      next.free();
      return open(link, done, onTrap);
    }
    opened(next, "");
  };
  later(slice); // not in the caller's task: at load, that is the one that compiled the engine
}

const keysHelp = $("keys-status").textContent;

async function main() {
  engine = await loadEngine(ENGINE);
  // A task of our own: the one that ends the module's compile and instantiation is long enough.
  await new Promise((next) => setTimeout(next, 0));
  onUncaughtTrap(recover);
  const onFrame = (ms) => {
    perf.frames.push(ms);
    if (perf.frames.length > 600) perf.frames.splice(0, 300);
  };
  view = new RingView($("ring"), engine.palette(), { onFrame });
  perf.view = view; // the page tests redraw the still picture without the change's overlays
  new ResizeObserver(() => view.data && !view.fits() && render()).observe($("ring"));
  watchTheme(() => frame && render());
  start();
}

const INVITATION = "Add or remove a node to see exactly what moves.";

// The session first (a link's in steps); the ring drawn at once (after a link, in a task of
// its own); the menus' choices, the controls' listeners and the charts in the next task. The
// page takes input from then on (`data-ready`).
function start() {
  const linked = location.hash.length > 1;
  open(location.hash, () => {
    const first = () => {
      render({ drawLater: linked });
      later(() => {
        fillChoices();
        syncControls();
        wire();
        if (frame.nodes.length >= 2) charts.update(session);
        later(warmUp);
        // Why a link did not open, under the ring where a phone shows it too (the settings'
        // copy is below the fold there); else the invitation.
        $("last-change").textContent = $("config-error").textContent || INVITATION;
        document.body.dataset.ready = "1";
      });
    };
    if (linked) later(first);
    else first();
  });
}

// The engine compiles each of its functions on first call: a throwaway five-node session goes
// through a change, an undo, a redo and a node down once, and (in a task of its own) computes
// a small chart's data, so the user's first change on a big ring, and the first chart, do not
// pay for compiling them in their own task. (Drawing is the charts module's, fetched only
// when a chart is first shown: the warm-up does not draw.)
function warmUp() {
  const s = new engine.Session();
  try {
    s.add("node-6", {});
    s.frame({ follow: "user:42", link: true });
    s.undo();
    s.redo();
    s.remove("node-1");
    s.setDown("node-2", true);
  } finally {
    s.free();
  }
  later(() => {
    const s = new engine.Session();
    try {
      s.chartData("shares", {});
    } catch {
      // Only a warm-up: the charts report their own errors.
    } finally {
      s.free();
    }
  });
}

main().catch((e) => {
  $("summary").textContent = `Could not start the engine: ${e.message}`;
  throw e;
});
