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

