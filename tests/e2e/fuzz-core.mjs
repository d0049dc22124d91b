// The random call sequences of the fuzz tests (Chromium in fuzz.test.mjs, Firefox in
// firefox.test.mjs), and the function that runs one in a page and reports what went wrong.
import fc from "fast-check";

// Generous: a bound the page must never reach, not a speed target (the benchmark reports those).
export const CALL_MS = 2000;

// Values are sent to the page tagged, since JSON has no NaN, undefined or BigInt.
const tag = (t, v) => ({ t, v });
const hostileString = fc.oneof(
  fc.constantFrom("", "node-1", "node-2", "a,b", "x*2@z", "spread", "moves", "algorithms", "%41%", "\ud800", "\udfff\ud800", "<img src=x onerror=alert(1)>", "=HYPERLINK(\"x\")", "#ringlab=2&n=a", "#ringlab=9", "key,count\nk,-1"),
  fc.string({ maxLength: 12 }),
  fc.constantFrom(300, 5000, 70000).map((n) => "n".repeat(n)),
  // Strings travel as UTF-16 code units: a lone surrogate is no valid JSON for WebDriver.
).map((s) => tag("s", Array.from({ length: s.length }, (_, i) => s.charCodeAt(i))));
const hostileNumber = fc.oneof(
  fc.constantFrom("NaN", "Infinity", "-Infinity").map((v) => tag("f", v)),
  fc.constantFrom(-1, 0, 0.5, 1, 2, 3, 1.5, 160, 1e-300, 5e-324, 1e300, 2 ** 32, 2 ** 53, 1e12).map((v) => tag("n", v)),
  fc.integer({ min: -10, max: 20000 }).map((v) => tag("n", v)),
);
const hostileValue = fc.oneof(
  hostileString,
  hostileNumber,
  fc.constantFrom(tag("u"), tag("null"), tag("b", true), tag("b", false), tag("big", "42"), tag("big", "-1")),
  fc.constantFrom(tag("o", {}), tag("o", { weight: "NaN" }), tag("o", { weight: 2 }), tag("o", { zone: 5 }), tag("o", { vnodes: 1e9 }),
    tag("o", { algorithm: "redis-cluster" }), tag("o", { algorithm: "jump" }), tag("o", { keys: 100 }), tag("o", { zipf: 3 }),
    tag("o", { items: 1e7, itemBytes: 1024, requestsPerSec: 5e4 }), tag("o", { nodes: ["a", "a"] }), tag("a", [1, "x"])),
  // The rollout's `{kind, ...}` arguments: a lag, a traffic, strategies, right and wrong.
  fc.constantFrom(tag("o", { lag: { kind: "fixed" } }), tag("o", { lag: { kind: "exponential", meanMs: 1e300, seed: -1 } }),
    tag("o", { lag: { kind: "poll", everyMs: 0 }, traffic: { kind: "zipf", s: 40 } }), tag("o", { lag: { kind: 7 } }),
    tag("o", { lag: "even" }), tag("o", { traffic: { kind: "hot" }, clients: 10000, durationMs: 86400000 }),
    tag("a", [{ kind: "ramp", steps: 16, everyMs: 1 }, { kind: "poll" }]), tag("a", [{ kind: "drain-first" }, { kind: "ramp", steps: 1e9, everyMs: 5 }]),
    tag("a", [{ kind: "all-at-once" }, null]), tag("o", { steps: 16, items: 1e9, maxOverMean: 1.0001, nodes: 1e6 })),
);
const SESSION_CALLS = ["add", "remove", "setWeight", "configure", "setDown", "markDown", "markUp", "undo", "redo", "follow", "arcAt",
  "keyNear", "setWorkload", "useKeys", "setCompareModulo", "lastChange", "nextNodeName", "ringFor", "capabilities", "scene", "nodes"];
const RING_CALLS = ["add", "remove", "setWeight", "locate", "replicas", "nodes", "spread", "vnodeSweep", "keyOwners", "keyPosition",
  "describeKey", "setDown", "isDown", "markDown", "markUp", "downRule", "clone"];
// Free functions and constructors, called as `mod[name](...)` (statics as "Ring.x").
const FREE_CALLS = ["compareAlgorithms", "jumpHash", "redisKeySlot", "cassandraToken", "theoreticalRsd", "judgeEstimate", "Ring", "Session",
  "Ring.fromNginxUpstream", "Ring.fromHaproxyBackend", "Ring.fromRedisClusterNodes", "Ring.fromMemcachedServers",
  "Session.fromLink", "Session.fromConfig", "Ring.diffSample", "Ring.diffKeys", "Ring.diff", "Ring.propagate", "Ring.compareRollouts",
  "Ring.plan", "vnodesFor"];
// What the <hash-ring> element's module exports (ringlab_element.js), and its constructor with
// hostile options.
const ELEMENT_CALLS = ["add", "remove", "setDown", "follow", "explain", "frame", "Session"];
const args = fc.array(hostileValue, { maxLength: 4 });
export const sequence = fc.oneof(
  fc.record({ target: fc.constant("session"), start: fc.constantFrom("default", "link", "redis", "ring"),
    calls: fc.array(fc.record({ method: fc.constantFrom(...SESSION_CALLS), args }), { minLength: 1, maxLength: 12 }) }),
  fc.record({ target: fc.constant("ring"), start: fc.constantFrom("ring", "redis-cluster", "jump", "nginx-consistent", "bounded-load"),
    calls: fc.array(fc.record({ method: fc.constantFrom(...RING_CALLS), args }), { minLength: 1, maxLength: 12 }) }),
  fc.record({ target: fc.constant("free"), start: fc.constant("-"),
    calls: fc.array(fc.record({ method: fc.constantFrom(...FREE_CALLS), args }), { minLength: 1, maxLength: 8 }) }),
  fc.record({ target: fc.constant("element"), start: fc.constantFrom("default", "options", "libketama", "redis-cluster", "maglev"),
    calls: fc.array(fc.record({ method: fc.constantFrom(...ELEMENT_CALLS), args }), { minLength: 1, maxLength: 12 }) }),
);

// Runs one sequence in the page; returns what went wrong.
export function runInPage([seq, callMs]) {
  const decode = ({ t, v }) => {
    switch (t) {
      case "s": return v.reduce((text, unit) => text + String.fromCharCode(unit), "");
      case "b": case "a": return v;
      case "n": return v;
      case "f": return Number(v);
      case "u": return undefined;
      case "null": return null;
      case "big": return BigInt(v);
      case "o": return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, x === "NaN" ? NaN : x]));
    }
  };
  const element = seq.target === "element";
  const file = element ? "./pkg/ringlab_element.js" : "./pkg/ringlab.js";
  return import(new URL(file, document.baseURI).href).then(async (mod) => {
    await mod.default();
    const problems = [];
    let maxMs = 0, calls = 0, errors = 0;
    let s;
    try {
      s = seq.target === "free" ? null
        : element && seq.start === "options" ? new mod.Session({ nodes: ["a", { name: "b", weight: 2 }], vnodes: 16, keys: 200 })
        : element && seq.start !== "default" ? new mod.Session({ nodes: "a, b, c", keys: 200, algorithm: seq.start })
        : seq.target === "ring" ? new mod.Ring({ algorithm: seq.start, nodes: ["n1", { name: "n2", weight: 1 }, "n3"] })
        : seq.start === "link" ? mod.Session.fromLink("#ringlab=2&a=ring&n=a*2@z&n=b%2Cc&n=d!")
        : seq.start === "redis" ? mod.Session.fromConfig("redis", mod.configKinds()[0].example)
        : seq.start === "ring" ? new mod.Session({ algorithm: "maglev", nodes: ["x", "y"] })
        : new mod.Session();
    } catch (e) {
      return { problems: [`start ${seq.start}: ${e}`], maxMs, calls, errors };
    }
    const snapshot = () =>
      s === null ? "" : seq.target === "ring" ? JSON.stringify([s.nodes(), s.pointCount])
        : element ? JSON.stringify(((f) => [f.nodes, f.settings, f.options])(s.frame({})))
        : JSON.stringify([s.link(), s.nodes(), s.capabilities()]);
    const other = mod.Ring ? new mod.Ring({ nodes: ["n1", "n2"] }) : null;
    const grown = mod.Ring ? new mod.Ring({ nodes: ["n1", "n2", "n3"] }) : null;
    // The statics of two rings, called with a ring and that ring grown by one node (this
    // function runs in the page: its names are its own).
    const PAIR_CALLS = ["Ring.diffSample", "Ring.diffKeys", "Ring.diff", "Ring.propagate", "Ring.compareRollouts", "Ring.plan"];
    const invoke = (method, args) => {
      if (element && method === "Session") return new mod.Session(...args);
      if (s !== null) return s[method](...args);
      if (method === "Ring" || method === "Session") return new mod[method](...args);
      if (PAIR_CALLS.includes(method)) return mod.Ring[method.slice(5)](other, grown, ...args);
      const [cls, fn] = method.split(".");
      return fn ? mod[cls][fn](...args) : mod[cls](...args);
    };
    for (const c of seq.calls) {
      const args = c.args.map(decode);
      const before = snapshot();
      const t0 = performance.now();
      calls++;
      try {
        const r = invoke(c.method, args);
        if (r && typeof r.free === "function") r.free();
      } catch (e) {
        errors++;
        if (!(e instanceof Error) || e instanceof WebAssembly.RuntimeError) problems.push(`${c.method}: not a plain Error: ${e}`);
        else if (!e.message || typeof e.code !== "string") problems.push(`${c.method}: Error without message or code: ${e.message} / ${e.code}`);
        else if (snapshot() !== before) problems.push(`${c.method}(${e.code}) changed the session`);
      }
      const ms = performance.now() - t0;
      maxMs = Math.max(maxMs, ms);
      if (ms > callMs) problems.push(`${c.method} took ${ms.toFixed(0)} ms`);
      if (problems.length) break;
    }
    s?.free();
    other?.free();
    grown?.free();
    // The module is alive: a fresh session answers.
    try {
      const fresh = new mod.Session();
      if (fresh.frame({}).nodes.length !== 5) problems.push("a fresh session is wrong afterwards");
      fresh.free();
    } catch (e) {
      problems.push(`the module is dead afterwards: ${e}`);
    }
    return { problems, maxMs, calls, errors };
  });
}


// The budget of fuzzing the caps: any call at or near them over this fails (the issue's
// "Fuzz the budget": a call over 1 s on this machine).
export const CAP_MS = 1000;
// The caps of src/limits.rs (and src/error.rs) that the calls below reach, and their products.
const CAP = { points: 500_000, vnodes: 10_000, name: 256, nodes: 16_384, sessionNodes: 1000, prefix: 64, sampleKeys: 100_000,
  keyList: 100_000, keyLen: 1024, sweep: 32, maglev: 500_009, compareNodes: 200, compareWork: 65_000, metricsWork: 60_000,
  removals: 8, planSteps: 16, stagePoints: 1_500_000, strategies: 8, sizingNodes: 200, follow: 8, algorithms: 39 };
// At a cap, one past it, or within 10% below it.
const near = (cap) => fc.oneof(fc.constantFrom(cap, cap + 1), fc.integer({ min: Math.floor(cap * 0.9), max: cap }));
const hash = fc.constantFrom("xxh3", "md5", "sha256");
const nameLen = fc.constantFrom(8, 64, CAP.name);
// nodes × vnodes at the point cap (or one node past it).
const ringAtCap = fc.record({ vnodes: fc.constantFrom(1, 50, 1000, CAP.vnodes), over: fc.constantFrom(0, 0, 1), hash, nameLen })
  .map((r) => ({ ...r, nodes: Math.min(CAP.nodes, Math.floor(CAP.points / r.vnodes)) + r.over }));
const smallRing = fc.record({ vnodes: fc.constant(160), nodes: fc.constantFrom(10, 100), hash: fc.constant("xxh3"), nameLen: fc.constant(8) });
// What each export is called with, as sizes: the page builds the arguments (building them is not timed).
export const capCall = fc.oneof(
  fc.record({ call: fc.constant("new Ring"), ring: ringAtCap }),
  fc.record({ call: fc.constant("new Ring"), ring: fc.record({ algorithm: fc.constantFrom("maglev", "rendezvous", "multi-probe", "jump", "dx"),
    nodes: near(CAP.nodes), tableSize: fc.constantFrom(65537, CAP.maglev), capacity: fc.constant(CAP.nodes), probes: near(100), nameLen: fc.constant(8) }) }),
  fc.record({ call: fc.constant("Ring.add"), ring: ringAtCap }),
  fc.record({ call: fc.constant("Ring.vnodeSweep"), ring: fc.record({ nodes: near(CAP.points / CAP.vnodes), hash, nameLen }), steps: near(CAP.sweep) }),
  fc.record({ call: fc.constant("Ring.keyOwners"), ring: fc.record({ algorithm: fc.constantFrom("ring", "rendezvous", "multi-probe", "maglev", "dx"),
    nodes: fc.constantFrom(CAP.compareNodes, 1000), nameLen: fc.constant(8) }), prefix: near(CAP.prefix), count: near(CAP.sampleKeys) }),
  fc.record({ call: fc.constant("Ring.explain"), ring: fc.record({ nodes: near(CAP.nodes), vnodes: fc.constant(30), nameLen: fc.constant(8) }),
    keyLen: near(CAP.keyLen), replicas: near(CAP.nodes) }),
  fc.record({ call: fc.constant("Ring.diffKeys"), ring: smallRing, count: near(CAP.keyList), keyLen: fc.constantFrom(16, CAP.keyLen) }),
  fc.record({ call: fc.constant("Ring.agreement"), ring: smallRing, count: near(CAP.compareWork), keyLen: fc.constantFrom(16, CAP.keyLen) }),
  fc.record({ call: fc.constant("compareAlgorithms"), nodes: near(CAP.compareNodes), count: near(Math.floor(CAP.compareWork / CAP.algorithms)) }),
  fc.record({ call: fc.constant("metrics"), nodes: near(CAP.compareNodes), count: near(Math.floor(CAP.metricsWork / CAP.algorithms)),
    removals: near(CAP.removals), tableSize: fc.constantFrom(65537, CAP.maglev) }),
  fc.record({ call: fc.constant("Ring.compareRollouts"), ring: fc.record({ nodes: fc.constantFrom(10, 100), vnodes: fc.constantFrom(160, 1000), nameLen: fc.constant(8) }),
    ramps: near(CAP.strategies), steps: near(CAP.planSteps) }),
  fc.record({ call: fc.constant("Ring.plan"), ring: fc.record({ nodes: fc.constantFrom(10, 100), vnodes: fc.constant(Math.floor(CAP.stagePoints / 15 / 100)), nameLen: fc.constant(8) }),
    steps: near(CAP.planSteps) }),
  fc.record({ call: fc.constant("vnodesFor"), nodes: near(CAP.sizingNodes), maxOverMean: fc.constantFrom(1.03, 1.05, 1.08, 1.2), afterLosing: fc.boolean() }),
  fc.record({ call: fc.constant("new Session"), nodes: near(CAP.sessionNodes), vnodes: fc.constantFrom(500, 501), hash, keys: near(CAP.sampleKeys) }),
  fc.record({ call: fc.constant("Session.fromLink"), nodes: near(CAP.sessionNodes), vnodes: fc.constantFrom(500, 499), hash, keys: near(CAP.sampleKeys) }),
  fc.record({ call: fc.constant("Session.configure"), nodes: fc.constantFrom(500, CAP.sessionNodes), hash, keys: near(CAP.sampleKeys) }),
  fc.record({ call: fc.constant("Session.chartData"), kind: fc.constantFrom("moves", "algorithms", "spread"), algorithm: fc.constantFrom("ring", "dx", "maglev") }),
  fc.record({ call: fc.constant("Session.frame"), nodes: near(CAP.sessionNodes), replicas: near(CAP.follow), keyLen: near(CAP.keyLen) }),
);

// Builds one call's arguments in the page, then times the call alone: `{call, ms, code}`
// (`code`: the error's, or "ok").
export function runCapInPage([spec]) {
  return import(new URL("./pkg/ringlab.js", document.baseURI).href).then(async (mod) => {
    await mod.default();
    const names = (n, len) => Array.from({ length: n }, (_, i) => `${i}-`.padEnd(len, "n"));
    const keys = (n, len) => Array.from({ length: n }, (_, i) => `${i}:`.padEnd(len, "k"));
    const ringOf = (r) => {
      const o = { algorithm: r.algorithm ?? "ring", nodes: names(r.nodes, r.nameLen ?? 8) };
      if (o.algorithm === "ring") Object.assign(o, { hash: r.hash ?? "xxh3", bits: 64, vnodes: r.vnodes ?? 160 });
      if (o.algorithm === "maglev") o.tableSize = r.tableSize;
      if (o.algorithm === "dx") o.capacity = r.capacity ?? 16384;
      if (o.algorithm === "multi-probe") o.probes = r.probes ?? 21;
      return o;
    };
    const free = [];
    const keep = (x) => { free.push(x); return x; };
    const ring = (r) => keep(new mod.Ring(ringOf(r)));
    const session = (s) => keep(new mod.Session({ nodes: names(s.nodes, 8), vnodes: s.vnodes ?? 100, hash: s.hash ?? "xxh3", keys: s.keys ?? 1000, ...s.extra }));
    let run;
    try {
      switch (spec.call) {
        case "new Ring": { const o = ringOf(spec.ring); run = () => keep(new mod.Ring(o)); break; }
        case "Ring.add": {
          const small = { ...spec.ring, nodes: spec.ring.nodes - 1 };
          const r = ring(small);
          run = () => r.add("joiner-".padEnd(spec.ring.nameLen, "j"), { weight: 1 });
          break;
        }
        case "Ring.vnodeSweep": {
          const r = ring({ ...spec.ring, vnodes: 10 });
          const counts = Array.from({ length: spec.steps }, (_, i) => Math.max(1, Math.round(((i + 1) * 10000) / spec.steps)));
          run = () => r.vnodeSweep(counts);
          break;
        }
        case "Ring.keyOwners": { const r = ring(spec.ring); const p = "p".repeat(spec.prefix); run = () => r.keyOwners(p, spec.count); break; }
        case "Ring.explain": { const r = ring(spec.ring); const k = "k".repeat(spec.keyLen); run = () => r.explain(k, { replicas: spec.replicas }); break; }
        case "Ring.diffKeys": case "Ring.agreement": {
          const a = ring(spec.ring);
          const b = ring({ ...spec.ring, nodes: spec.ring.nodes + 1 });
          const list = keys(spec.count, spec.keyLen);
          run = spec.call === "Ring.diffKeys" ? () => mod.Ring.diffKeys(a, b, list, 1.0) : () => mod.Ring.agreement(a, b, list);
          break;
        }
        case "compareAlgorithms": { const o = { nodes: names(spec.nodes, 8) }; run = () => mod.compareAlgorithms(o, "key:", spec.count); break; }
        case "metrics": {
          const o = { nodes: names(spec.nodes, 8), tableSize: spec.tableSize };
          run = () => mod.metrics(o, spec.count, { removals: spec.removals });
          break;
        }
        case "Ring.compareRollouts": {
          const a = ring(spec.ring);
          const b = ring({ ...spec.ring, nodes: spec.ring.nodes + 1 });
          const strategies = Array.from({ length: spec.ramps }, () => ({ kind: "ramp", steps: spec.steps, everyMs: 100 }));
          run = () => mod.Ring.compareRollouts(a, b, {}, strategies);
          break;
        }
        case "Ring.plan": {
          const a = ring(spec.ring);
          const b = ring({ ...spec.ring, nodes: spec.ring.nodes + 1 });
          run = () => mod.Ring.plan(a, b, { steps: spec.steps });
          break;
        }
        case "vnodesFor": run = () => mod.vnodesFor({ nodes: spec.nodes, maxOverMean: spec.maxOverMean, afterLosing: spec.afterLosing }); break;
        case "new Session": {
          const o = { nodes: names(spec.nodes, 8), vnodes: spec.vnodes, hash: spec.hash, keys: spec.keys };
          run = () => keep(new mod.Session(o));
          break;
        }
        case "Session.fromLink": {
          let link;
          try { link = session({ nodes: spec.nodes, vnodes: 10, keys: spec.keys, hash: spec.hash }).link().replace(/&v=10(?=&|$)/, `&v=${spec.vnodes}`); }
          catch (e) { return { call: spec.call, ms: 0, code: `setup: ${e.code ?? e}` }; }
          run = () => keep(mod.Session.fromLink(link));
          break;
        }
        case "Session.configure": {
          const s = session({ nodes: spec.nodes, vnodes: 500, keys: spec.keys });
          run = () => s.configure({ hash: spec.hash, bits: 64 });
          break;
        }
        case "Session.chartData": {
          const extra = spec.algorithm === "dx" ? { algorithm: "dx", capacity: 16384 } : spec.algorithm === "maglev" ? { algorithm: "maglev", tableSize: 500009 } : {};
          const s = session({ nodes: 5, vnodes: 1000, keys: 100000, extra });
          run = () => s.chartData(spec.kind, {});
          break;
        }
        case "Session.frame": {
          const s = session({ nodes: spec.nodes, vnodes: 500, keys: 100000, extra: { replicas: Math.min(spec.replicas, 8) } });
          const k = "k".repeat(spec.keyLen);
          run = () => s.frame({ follow: k, link: true });
          break;
        }
      }
    } catch (e) {
      free.forEach((x) => x.free());
      return { call: spec.call, ms: 0, code: `setup: ${e.code ?? e}` };
    }
    const t0 = performance.now();
    let code = "ok";
    try {
      run();
    } catch (e) {
      code = e.code ?? `not coded: ${e}`;
    }
    const ms = performance.now() - t0;
    free.forEach((x) => x.free());
    return { call: spec.call, ms, code };
  });
}
