// The hand-written types describe what the API really returns: every object a call gives back
// has exactly the fields its interface in types/ringlab.d.ts declares, each of the declared
// kind (number, string, boolean, null, typed array, array, nested interface). The interfaces
// are read from the .d.ts with TypeScript's parser; the values come from the built module
// (www/pkg), run in Node. `cargo xtask test` runs it in its checks stage.
//
//   node tests/types/shapes.mjs
import { readFileSync } from "node:fs";
import ts from "../../xtask/node_modules/typescript/lib/typescript.js";

const root = new URL("../../", import.meta.url);
const api = await import(new URL("www/pkg/ringlab.js", root));
api.initSync({ module: readFileSync(new URL("www/pkg/ringlab_bg.wasm", root)) });

// Interfaces and type aliases of the .d.ts: name -> {field: type text}.
const source = ts.createSourceFile("ringlab.d.ts", readFileSync(new URL("types/ringlab.d.ts", root), "utf8"), ts.ScriptTarget.Latest, true);
const interfaces = new Map();
const aliases = new Map();
for (const node of source.statements) {
  if (ts.isInterfaceDeclaration(node)) {
    const fields = {};
    for (const clause of node.heritageClauses ?? []) {
      for (const t of clause.types) Object.assign(fields, interfaces.get(t.expression.getText()) ?? {});
    }
    for (const m of node.members) if (ts.isPropertySignature(m)) fields[m.name.getText()] = m.type.getText();
    interfaces.set(node.name.text, fields);
  } else if (ts.isTypeAliasDeclaration(node)) {
    // Without the comments a union's members may carry (`AlgorithmName`'s labels).
    aliases.set(node.name.text, node.type.getText().replace(/\/\*[\s\S]*?\*\//g, ""));
  }
}

const problems = [];
let checked = 0;

// Whether `value` is of the type written `text` (a union of the forms the .d.ts uses).
function fits(value, text, where) {
  const record = /^Record<string, (.*)>$/.exec(text.trim());
  if (record) return value !== null && typeof value === "object" && Object.values(value).every((v) => fits(v, record[1], where));
  return text.split("|").map((t) => t.trim()).filter(Boolean).some((t) => {
    if (t === "null") return value === null;
    if (t === "number" || t === "string" || t === "boolean" || t === "bigint") return typeof value === t;
    if (/^"[^"]*"$/.test(t)) return value === JSON.parse(t);
    if (/^\d+$/.test(t)) return value === Number(t);
    if (t.startsWith("`")) return typeof value === "string";
    if (t === "Float64Array" || t === "Uint32Array") return value instanceof globalThis[t];
    if (t.startsWith("[")) return Array.isArray(value) && value.every((v, i) => fits(v, t.slice(1, -1).split(",")[i] ?? "", `${where}[${i}]`));
    if (t.endsWith("[]")) return Array.isArray(value) && value.every((v, i) => fits(v, t.slice(0, -2), `${where}[${i}]`));
    if (aliases.has(t)) return fits(value, aliases.get(t), where);
    if (interfaces.has(t)) return mismatches(t, value, where).length === 0;
    return false;
  });
}

// Why `value` is not exactly an interface `name` (its fields, each fitting its type); [] if it is.
function mismatches(name, value, where) {
  checked++;
  const fields = interfaces.get(name);
  if (!fields) return [`${where}: no interface ${name}`];
  if (value === null || typeof value !== "object") return [`${where}: ${value} is not a ${name}`];
  const have = Object.keys(value).sort().join(", ");
  const want = Object.keys(fields).sort().join(", ");
  if (have !== want) return [`${where}: fields {${have}}, ${name} declares {${want}}`];
  return Object.entries(fields)
    .filter(([field, type]) => !fits(value[field], type, `${where}.${field}`))
    .map(([field, type]) => {
      const inner = interfaces.has(type) ? mismatches(type, value[field], `${where}.${field}`) : [];
      return inner[0] ?? `${where}.${field}: ${JSON.stringify(value[field])?.slice(0, 80)} is not ${type}`;
    });
}

function shape(name, value, where = name) {
  problems.push(...mismatches(name, value, where));
}

const ring = new api.Ring({ nodes: ["cache-a", { name: "cache-b", weight: 2, zone: "eu-1" }], vnodes: 40 });
const before = ring.clone();
ring.add("cache-c", { zone: "eu-2" });
shape("RingNode", ring.nodes()[1], "ring.nodes()[1]");
shape("Spread", ring.spread(), "ring.spread()");
shape("SweepStep", ring.vnodeSweep([1, 10])[0], "ring.vnodeSweep()[0]");
shape("RingDiff", api.Ring.diff(before, ring), "Ring.diff()");
shape("SampleMigration", api.Ring.diffSample(before, ring, "key:", 1000, 1), "Ring.diffSample()");
shape("SampleMigration", api.Ring.diffKeys(before, ring, ["a", "b"]), "Ring.diffKeys()");
fits(ring.keyPosition("k"), "`0x${string}`", "ring.keyPosition()") || problems.push("ring.keyPosition() is not 0x…");
for (const [getter, type] of [["algorithm", "AlgorithmName"], ["hash", "HashName"], ["bits", "RingBits"], ["pointCount", "number"], ["memoryBytes", "number"], ["vnodes", "number"]]) {
  fits(ring[getter], type, `ring.${getter}`) || problems.push(`ring.${getter}: ${ring[getter]} is not ${type}`);
}

const session = new api.Session();
shape("SessionSettings", session.settings(), "session.settings()");
shape("Transition", session.add("node-6", { weight: 2 }), "session.add()");
shape("Transition", session.remove("node-2"), "session.remove()");
shape("Transition", session.undo(), "session.undo()");
shape("Transition", session.redo(), "session.redo()");
shape("Transition", session.lastChange(), "session.lastChange()");
shape("Scene", session.scene(), "session.scene()");
const frame = session.frame({ follow: "user:42", chart: "shares" });
shape("Frame", frame, "session.frame(follow, chart)");
shape("Frame", new api.Session({ algorithm: "maglev", nodes: "a, b*1, c", tableSize: 251 }).frame(), "maglev session.frame()");
shape("Frame", new api.Session({ algorithm: "redis-cluster", nodes: ["a", "b"] }).frame({ follow: "k", chart: "spread" }), "redis session.frame()");
shape("SessionNode", session.nodes()[0], "session.nodes()[0]");
shape("Capabilities", session.capabilities(), "session.capabilities()");
shape("Spread", session.spread(), "session.spread()");
shape("ArcHit", session.arcAt(0.25), "session.arcAt()");
shape("KeyHit", session.keyNear(session.scene().keys[0], 0.01), "session.keyNear()");
shape("Follow", session.follow("user:42"), "session.follow()");
const jump = new api.Session({ nodes: ["a", "b", "c"], algorithm: "jump" });
shape("Transition", jump.add("d"), "jump session.add()");
shape("SessionNode", jump.nodes()[0], "jump session.nodes()[0]");
fits(jump.spread(), "Spread | null", "jump session.spread()") || problems.push("jump session.spread() is not Spread | null");
// Chart data, for the charts module (a weighted node: some algorithms refuse it, a ReportErr row).
shape("SpreadChart", session.chartData("spread", { band: true }), "session.chartData(spread, band)");
shape("SharesChart", session.chartData("shares"), "session.chartData(shares)");
shape("MovesChart", session.chartData("moves"), "session.chartData(moves)");
const algorithmsChart = session.chartData("algorithms", { lookupNs: [12.5] });
shape("AlgorithmsChart", algorithmsChart, "session.chartData(algorithms)");
if (!algorithmsChart.data.rows.some((r) => "Err" in r.report)) problems.push("no algorithm refused the weighted node: ReportErr unchecked");
// The charts module: in Node it has no canvas to draw on, and says so with a code.
const charts = await import(new URL("www/pkg/ringlab_charts.js", root));
charts.initSync({ module: readFileSync(new URL("www/pkg/ringlab_charts_bg.wasm", root)) });
try {
  charts.drawChart({}, algorithmsChart, {});
  problems.push("drawChart drew without a canvas");
} catch (e) {
  fits(e.code, "ErrorCode", "drawChart error.code") || problems.push(`drawChart's error code ${e.code} is not an ErrorCode`);
}
for (const row of api.compareAlgorithms({ nodes: ["a", { name: "b", weight: 2 }, "c"] }, "key:", 500)) {
  shape("error" in row ? "AlgorithmFailure" : "AlgorithmReport", row, `compareAlgorithms(): ${row.algorithm}`);
}
// Two clients of one pool, on keys and exactly; the matrix of every cache client.
{
  const pool = ["10.0.0.1:11211", "10.0.0.2:11211", "10.0.0.3:11211"];
  const dalli = new api.Ring({ algorithm: "dalli", nodes: pool });
  const spy = new api.Ring({ algorithm: "spymemcached-ketama", nodes: pool });
  shape("Agreement", api.Ring.agreement(dalli, spy), "Ring.agreement(keys omitted)");
  shape("Agreement", api.Ring.agreement(dalli, spy, ["user:1", "user:2"]), "Ring.agreement(keys)");
  const ring = new api.Ring({ nodes: pool });
  shape("Agreement", api.Ring.agreement(ring, new api.Ring({ nodes: pool, vnodes: 10 })), "Ring.agreement(exact)");
  const m = api.agreementMatrix({ nodes: ["a", "b", "c"] }, 200, { algorithms: ["dalli", "memjs", "libketama"] });
  shape("AgreementMatrix", m, "agreementMatrix()");
  for (const f of m.refused) shape("AlgorithmFailure", f, "agreementMatrix().refused");
  const session = api.Session.fromLink(`#a=dalli&${pool.map((n) => `n=${encodeURIComponent(n)}`).join("&")}`);
  shape("SessionAgreement", session.agreement("pymemcache", "user:42"), "session.agreement(key)");
  shape("SessionAgreement", session.agreement("dalli"), "session.agreement()");
  shape("AgreementMatrix", session.agreementMatrix(), "session.agreementMatrix()");
  // "Explain this key": one chain, a pair, a key without an owner (a down libketama server).
  shape("Explanation", ring.explain("user:42", { replicas: 2 }), "ring.explain()");
  shape("Explanation", dalli.explain("user:42"), "dalli.explain()");
  shape("ExplanationPair", api.Ring.explainPair(dalli, spy, "user:42"), "Ring.explainPair()");
  const ketama = new api.Ring({ algorithm: "libketama", nodes: pool });
  ketama.setDown(ketama.locate("user:42"), true);
  shape("Explanation", ketama.explain("user:42"), "ketama.explain(down owner)");
  shape("Explanation", session.explain("user:42"), "session.explain()");
  shape("ExplanationPair", session.explainPair("pymemcache", "user:42"), "session.explainPair()");
}
// The papers' metrics in each removal order: jump-like algorithms refuse FIFO (removal null), a
// weighted node is refused by the algorithms without weights (an AlgorithmFailure row).
const measured = { removal: 0, refused: 0, failed: 0 };
for (const removalOrder of ["fifo", "lifo", "random"]) {
  const rows = api.metrics({ nodes: ["a", "b", "c", "d", "e"] }, 300, { removalOrder, removals: 2, seed: 3, lookupNs: [12.5] });
  for (const row of rows) {
    shape("error" in row ? "AlgorithmFailure" : "AlgorithmMetrics", row, `metrics(${removalOrder}): ${row.algorithm}`);
    if (!("error" in row)) row.removal ? measured.removal++ : measured.refused++;
  }
}
for (const row of api.metrics({ nodes: ["a", { name: "b", weight: 2 }, "c"] }, ["k1", "k2", "k3"], { algorithms: ["ring", "anchor"] })) {
  shape("error" in row ? "AlgorithmFailure" : "AlgorithmMetrics", row, `metrics(weighted): ${row.algorithm}`);
  if ("error" in row) measured.failed++;
}
if (!measured.removal || !measured.refused || !measured.failed) problems.push(`metrics(): some row kind unchecked ${JSON.stringify(measured)}`);
// The playground's comparison: a weighted node, so some rows are refused; FIFO, so jump's
// removal figures are missing and its note says why.
{
  const session = new api.Session();
  session.add("heavy", { weight: 2 });
  const comparison = session.metrics({ removalOrder: "fifo", lookupNs: [20, 30] });
  shape("MetricsComparison", comparison, "session.metrics()");
  if (!comparison.rows.some((r) => r.note) || !comparison.rows.some((r) => !r.note)) problems.push("session.metrics(): notes unchecked");
  session.free();
}
for (const kind of api.configKinds()) shape("ConfigCheck", api.checkConfig(kind.kind, kind.example), `checkConfig(): ${kind.kind}`);
shape("ConfigCheck", api.checkConfig("nginx", "upstream u {\n  hash $uri;\n  sever 10.0.0.1:80;\n}\n"), "checkConfig(): refused");
for (const info of api.catalog()) shape("AlgorithmInfo", info, `catalog(): ${info.name}`);
if (api.catalog().map((a) => a.name).join() !== api.algorithms().join()) problems.push("catalog() and algorithms() list different algorithms");
for (const preset of api.ringPresets()) {
  shape("RingPreset", preset, `ringPresets(): ${preset.name}`);
  // Each opens as a session whose link is the preset's own.
  const opened = api.Session.fromLink(preset.link);
  if (opened.link() !== preset.link) problems.push(`ringPresets(): ${preset.name} reopens as ${opened.link()}`);
  opened.free();
}
fits(api.algorithms(), "AlgorithmName[]", "algorithms()") || problems.push(`algorithms() has a name outside AlgorithmName`);
fits(api.hashes(), "HashName[]", "hashes()") || problems.push(`hashes() has a name outside HashName`);
try {
  ring.remove("no-such-node");
  problems.push("removing an unknown node did not throw");
} catch (e) {
  fits(e.code, "ErrorCode", "error.code") || problems.push(`error code ${e.code} is not an ErrorCode`);
}

for (const p of problems) console.log(`  ${p}`);
console.log(`shapes: ${checked} objects checked against types/ringlab.d.ts, ${problems.length} problems`);
process.exit(problems.length ? 1 : 0);
