// The wasm and page figures of `cargo xtask bench` (not a test: nothing here asserts a time;
// the xtask judges the figures against their budgets).
//
// - `Ring.keyOwners("user:", 100000)` on 10 nodes × 160 vnodes in wasm, in node (www/pkg loaded
//   with initSync) and in headless Chromium, round by round in turn with the same batch
//   natively (RINGLAB_NATIVE_BENCH): nanoseconds per key and the rounds' ratios, medians;
// - the playground in Chromium: its first ring after navigation (`__ringlab.firstRing`,
//   median of FIRST_LOADS), the longest main-thread task of each interaction (a node joins
//   and one leaves at 100 nodes × 256 vnodes × 100,000 keys, the first switch to another
//   algorithm, each chart's data and draw at 10 nodes × 1,000 vnodes) and of a link at the
//   caps opened; what it fetches at load, for its charts and for that switch;
// - the embed, from the bundle's folder as writers ship it: its first picture after it
//   scrolls into view (median of FIRST_LOADS), what a default one and a page of three fetch.
//
// Needs RINGLAB_URL (www/ served on 127.0.0.1, with www/pkg built), RINGLAB_BUNDLE_PATH (the
// bundle's folder under it, `cargo xtask bundle`'s) and Chromium
// (RINGLAB_CHROMIUM, default /usr/bin/chromium); RINGLAB_AGAINST_URL and
// RINGLAB_AGAINST_BUNDLE_PATH, another commit's site, to measure beside it. Prints
// `row <name> <value>` lines.
// - every export's slowest call at and near its caps in Chromium (the fuzz's cap calls, a
//   fixed sample of METER_CALLS): `meter_chromium_<export>` rows, ms.
// RINGLAB_BENCH_ONLY=charts,joins runs some parts (to reproduce one figure).
//
// The page hooks read here: `window.__ringlab` (`firstRing`, `pending`, `longTasks`),
// `body[data-ready]`, `#summary`, `#add-node`, `#algorithm`, the charts' `figure[data-chart]`
// with their `.chart-status`, `#spread-band`; `<hash-ring>`'s `ready` event.
import { chromium } from "playwright-core";
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { gzipSync } from "node:zlib";
import fc from "fast-check";
import { ready as playgroundReady } from "./browser.mjs";
import { capCall, runCapInPage } from "./fuzz-core.mjs";

const CHROMIUM = process.env.RINGLAB_CHROMIUM ?? "/usr/bin/chromium";
// The throughput benchmark's executable, for native rounds beside the wasm ones (optional).
const NATIVE = process.env.RINGLAB_NATIVE_BENCH;
// The site measured: its URL, the bundle's folder under it (`bundle/ringlab-element-VERSION/`:
// the embed is measured from it, as writers ship it, its scripts minified as the npm
// package's are), and the prefix of its rows' names.
const OURS = { url: process.env.RINGLAB_URL, bundle: process.env.RINGLAB_BUNDLE_PATH, prefix: "" };
// Another commit's site, measured beside ours in the same run (`cargo xtask bench --against
// REF`): its rows are named `against_…`. The first ring, the embed, the charts and the joins
// are taken of both; the wasm rounds and the caps link of ours alone.
const AGAINST = process.env.RINGLAB_AGAINST_URL
  ? { url: process.env.RINGLAB_AGAINST_URL, bundle: process.env.RINGLAB_AGAINST_BUNDLE_PATH ?? "", prefix: "against_" }
  : null;
const SITES = AGAINST ? [OURS, AGAINST] : [OURS];
const PKG = new URL("../../www/pkg/", import.meta.url);
const KEYS = 100_000;
const PREFIX = "user:";
// Timed rounds of the batch, each side; each times PASSES calls (Chromium's clock is coarse).
const ROUNDS = 21;
const PASSES = 4;
// Page loads for the first ring and the embed's first picture (median of these).
const FIRST_LOADS = 5;
// Page loads for the chart figures and the emulated slow link (median of these).
const LOADS = 3;
// Joins and leaves at 100 nodes (the longest task over all of them).
const CHANGES = 3;

function fail(message) {
  console.error(`bench.mjs: ${message}`);
  process.exit(1);
}

// Never hang the xtask: a stuck browser ends the run with a message.
setTimeout(() => fail("no result after 10 minutes; giving up"), 10 * 60_000).unref();

const row = (name, value, site = OURS) => console.log(`row ${site.prefix}${name} ${Number(value).toFixed(3)}`);
const info = (text) => console.log(`    ${text}`);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const names = (prefix, n, from = 0) => Array.from({ length: n }, (_, i) => `${prefix}${i + from}`);

async function newPage(browser) {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, deviceScaleFactor: 1 });
  context.setDefaultTimeout(60_000);
  const page = await context.newPage();
  const problems = [];
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("console", (m) => m.type() === "error" && problems.push(`console: ${m.text()}`));
  return { context, page, problems };
}

// A page of ours at the site's origin (so ./pkg/ and hash-ring.js resolve to the real files).
async function host(page, site, name, html) {
  const address = `${site.url}${name}`;
  await page.route(address, (route) => route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: html }));
  await page.goto(address);
  return address;
}

// One timed round of keyOwners: nanoseconds per key over PASSES calls. The same source runs
// in node and in the page (`window.__bench` holds the page's ring between rounds).
function keyOwnerRound(mod, { prefix, keys, passes, nodes }, holder) {
  if (!holder.ring) {
    holder.ring = new mod.Ring({ vnodes: 160, nodes });
    for (let i = 0; i < 3; i++) holder.ring.keyOwners(prefix, keys); // warm-up
  }
  let check = 0;
  const start = performance.now();
  for (let p = 0; p < passes; p++) check += holder.ring.keyOwners(prefix, keys)[p];
  const ns = ((performance.now() - start) * 1e6) / (keys * passes);
  return check >= 0 ? ns : NaN; // uses the answers, so no engine skips the calls
}
const BATCH = { prefix: PREFIX, keys: KEYS, passes: PASSES, nodes: names("node-", 10) };

// The native batch in its own process (benches/throughput.rs --key-owners-rounds): one
// timed round per request.
function nativeRounds(exe) {
  const child = spawn(exe, ["--key-owners-rounds"], { stdio: ["pipe", "pipe", "inherit"] });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return {
    async round() {
      child.stdin.write("\n");
      const { value, done } = await lines.next();
      if (done) throw new Error(`${exe} --key-owners-rounds stopped`);
      return Number(value);
    },
    close: () => child.stdin.end(),
  };
}

// keyOwners natively, in node and in Chromium, round by round in turn (who goes first
// rotates): the medians, and the medians of the rounds' wasm/native ratios.
async function keyOwnersSideBySide(browser) {
  const mod = await import(new URL("ringlab.js", PKG).href);
  mod.initSync({ module: readFileSync(new URL("ringlab_bg.wasm", PKG)) });
  const inNode = {};
  const { context, page } = await newPage(browser);
  await host(page, OURS, "bench-host.html", "<!doctype html><html lang=en><title>bench</title><body></body></html>");
  await page.evaluate(async () => {
    window.__bench = { mod: await import("./pkg/ringlab.js") };
    await window.__bench.mod.default();
  });
  const inChromium = () =>
    page.evaluate(
      ([source, arg]) => new Function("mod", "arg", "holder", `return (${source})(mod, arg, holder);`)(window.__bench.mod, arg, window.__bench),
      [keyOwnerRound.toString(), BATCH],
    );
  const native = NATIVE ? nativeRounds(NATIVE) : null;
  const runs = [
    ["native", () => native?.round() ?? NaN],
    ["node", () => keyOwnerRound(mod, BATCH, inNode)],
    ["chromium", inChromium],
  ];
  const ns = { native: [], node: [], chromium: [] };
  try {
    for (const [, run] of runs) await run(); // warm-up round
    for (let r = 0; r < ROUNDS; r++) {
      for (let k = 0; k < runs.length; k++) {
        const [name, run] = runs[(k + r) % runs.length];
        ns[name].push(await run());
      }
    }
  } finally {
    native?.close();
    inNode.ring?.free();
    await context.close();
  }
  row("wasm_node_ns_key_owners", median(ns.node));
  row("wasm_chromium_ns_key_owners", median(ns.chromium));
  if (native) {
    const ratio = (xs) => median(xs.map((x, i) => x / ns.native[i]));
    row("native_ns_key_owners", median(ns.native));
    row("ratio_wasm_node_over_native", ratio(ns.node));
    row("ratio_wasm_chromium_over_native", ratio(ns.chromium));
  }
}

// Opens the playground of `site` at `hash`; resolves once it has finished the work it
// deferred. With `reach`, waits for the page to take input (`browser.mjs`'s `ready`, which
// moves the pointer where a page waits for a reader); without, for its first ring.
async function playground(browser, site, hash = "", { reach = true } = {}) {
  const opened = await newPage(browser);
  const responses = [];
  opened.page.on("response", (r) => responses.push(r));
  await opened.page.goto(site.url + hash);
  if (reach) await awake(opened.page);
  else await opened.page.waitForFunction(() => typeof window.__ringlab?.firstRing === "number");
  await settle(opened.page);
  return { ...opened, responses };
}

// A reader's reach (the pointer moved), then the page tests' wait for a playground that
// takes input, with the bench's longer timeout: today's page needs no reach, but a commit
// measured beside it (`--against`) may wait for one.
const awake = async (page) => {
  await page.mouse.move(5, 5);
  await playgroundReady(page, { timeout: 60_000 });
};

const settle = (page) => page.waitForFunction(() => window.__ringlab?.pending === 0);

// The longest main-thread task while `act` runs and the page settles, from a Chromium trace
// (every task, not only those over 50 ms); the Long Tasks API's longest beside it.
async function longestTask(browser, page, act) {
  await page.evaluate(() => { window.__ringlab.longTasks.length = 0; });
  const traced = await tracedTasks(browser, page, act);
  const observed = await page.evaluate(() => window.__ringlab.longTasks);
  return { traced: traced.length ? Math.max(...traced) : NaN, observed: observed.length ? Math.max(...observed) : 0 };
}

// Every main-thread task's length in ms while `act` runs, the page settles and its
// animation frames play, from a Chromium trace.
async function tracedTasks(browser, page, act) {
  await browser.startTracing(page, { categories: ["toplevel", "disabled-by-default-devtools.timeline"] });
  await act();
  await settle(page);
  await page.waitForTimeout(1500); // the change's animation frames, and late long-task entries
  const trace = JSON.parse((await browser.stopTracing()).toString("utf8"));
  const events = trace.traceEvents ?? trace;
  const main = new Set(
    events.filter((e) => e.ph === "M" && e.name === "thread_name" && e.args?.name === "CrRendererMain").map((e) => `${e.pid}:${e.tid}`),
  );
  return events
    .filter((e) => e.ph === "X" && (e.name === "RunTask" || e.name === "ThreadControllerImpl::RunTask") && main.has(`${e.pid}:${e.tid}`))
    .map((e) => e.dur / 1000);
}

// A link at the session's caps (500 nodes × 1,000 vnodes = 500,000 points, 100,000 sample
// keys) opened in a new tab: the longest main-thread task from the navigation until the
// page has settled, over 3 loads (the median), and the whole open beside it.
async function capsLink(browser) {
  const nodes = names("n", 500, 1);
  const link = `#ringlab=2&a=ring&h=xxh3&b=32&v=1000&k=100000&r=2&${nodes.map((n) => `n=${n}`).join("&")}`;
  const longest = [], ready = [];
  for (let i = 0; i < 3; i++) {
    const { context, page, problems } = await newPage(browser);
    await page.goto("about:blank");
    const tasks = await tracedTasks(browser, page, async () => {
      const start = Date.now();
      await page.goto(OURS.url + link);
      await page.waitForSelector("body[data-ready='1']");
      ready.push(Date.now() - start);
    });
    const summary = await page.textContent("#summary");
    if (!/^500 nodes, ring, 500,000 points/.test(summary)) throw new Error(`the caps link opened as ${JSON.stringify(summary)}`);
    if (problems.length) throw new Error(problems.join("\n"));
    longest.push(Math.max(...tasks));
    await context.close();
  }
  info(`the caps link: longest task ${longest.map((t) => t.toFixed(0)).join(", ")} ms; ready after ${ready.join(", ")} ms`);
  row("page_caps_link_longest_task_ms", median(longest));
  row("page_caps_link_ready_ms", median(ready));
}

// Calls at and near the caps (a fixed sample of the fuzz's), each export's slowest.
const METER_CALLS = 120;
async function meterCalls(browser) {
  const { context, page, problems } = await newPage(browser);
  await page.goto(OURS.url);
  const slowest = new Map();
  for (const spec of fc.sample(capCall, { numRuns: METER_CALLS, seed: 57 })) {
    const r = await page.evaluate(runCapInPage, [spec]);
    if (!slowest.has(r.call) || r.ms > slowest.get(r.call).ms) slowest.set(r.call, r);
  }
  if (problems.length) throw new Error(problems.join("\n"));
  await context.close();
  for (const [call, r] of slowest) {
    info(`${call}: ${r.ms.toFixed(1)} ms (${r.code})`);
    row(`meter_chromium_${call.replace(/[^A-Za-z0-9]/g, "_")}`, r.ms);
  }
}

// A node joins and one leaves at 100 nodes × 256 vnodes × 100,000 keys, CHANGES times each:
// the longest main-thread task of each kind of change.
async function joinsAndLeaves(browser, site) {
  const nodes = names("n", 100, 1);
  const link = `#ringlab=2&a=ring&h=xxh3&b=32&v=256&k=100000&r=2&${nodes.map((n) => `n=${n}`).join("&")}`;
  const { context, page, problems } = await playground(browser, site, link);
  const summary = await page.textContent("#summary");
  if (!/^100 nodes, ring, 25,600 points/.test(summary)) throw new Error(`the 100-node link opened as ${JSON.stringify(summary)}`);
  const joins = [], leaves = [];
  for (let i = 0; i < CHANGES; i++) {
    joins.push(await longestTask(browser, page, () => page.click("#add-node")));
    leaves.push(await longestTask(browser, page, () => page.click(`button[aria-label='Remove n${10 + i}']`)));
  }
  const after = await page.textContent("#summary");
  if (!/^100 nodes, ring, 25,600 points/.test(after)) throw new Error(`after ${CHANGES} joins and leaves the page says ${JSON.stringify(after)}`);
  for (const [name, list] of [["join", joins], ["leave", leaves]]) {
    info(`${site.prefix}${name}: longest task per change ${list.map((t) => t.traced.toFixed(1)).join(", ")} ms (traced); ` +
      `Long Tasks API ${list.map((t) => t.observed.toFixed(0)).join(", ")} ms`);
    // The longest over the changes (the first pays for warming up: users meet it too).
    const traced = list.map((t) => t.traced);
    row(`page_${name}_longest_task_ms`, Math.max(...(traced.some(Number.isNaN) ? list.map((t) => t.observed) : traced)), site);
  }
  if (problems.length) throw new Error(problems.join("\n"));
  await context.close();
}

const CHARTS = ["spread", "shares", "moves", "algorithms"];

// Each chart's longest main-thread task at 10 nodes × 1,000 vnodes, from its own status line:
// the longest of its data pieces (each a task) and its draw. Then the spread chart with the
// five-hash band ("spread_band").
async function chartTimes(browser, site) {
  const link = `#ringlab=2&a=ring&h=xxh3&b=32&v=1000&${names("n", 10, 1).map((n) => `n=${n}`).join("&")}`;
  const kinds = [...CHARTS, "spread_band"];
  const times = Object.fromEntries(kinds.map((c) => [c, []]));
  const longest = async (page, chart) => {
    const status = await page.textContent(`figure[data-chart=${chart}] .chart-status`);
    const drawn = /Drawn in ([\d.]+) ms/.exec(status);
    if (!drawn) throw new Error(`the ${chart} chart says ${JSON.stringify(status)}`);
    const data = /the longest ([\d.]+) ms|Its data took ([\d.]+) ms/.exec(status);
    return Math.max(Number(drawn[1]), data ? Number(data[1] ?? data[2]) : 0);
  };
  for (let load = 0; load < LOADS; load++) {
    const { context, page, problems } = await playground(browser, site, link);
    for (const chart of CHARTS) {
      await page.$eval(`figure[data-chart=${chart}]`, (f) => f.scrollIntoView());
      await page.waitForFunction((c) => document.querySelector(`figure[data-chart=${c}]`).dataset.drawn, chart);
    }
    await settle(page);
    for (const chart of CHARTS) times[chart].push(await longest(page, chart));
    const before = await page.textContent("figure[data-chart=spread] .chart-status");
    await page.$eval("figure[data-chart=spread]", (f) => f.scrollIntoView());
    await page.check("#spread-band");
    await page.waitForFunction((b) => document.querySelector("figure[data-chart=spread] .chart-status").textContent !== b, before);
    await settle(page);
    times.spread_band.push(await longest(page, "spread"));
    if (problems.length) throw new Error(problems.join("\n"));
    await context.close();
  }
  for (const chart of kinds) {
    info(`${site.prefix}${chart} chart: longest task ${times[chart].join(", ")} ms`);
    row(`chart_${chart}_ms`, median(times[chart]), site);
  }
}

// Raw and gzip -9 bytes of `responses` (the bodies as fetched).
async function sizes(responses) {
  let raw = 0, gzip = 0;
  for (const r of responses) {
    const body = await r.body();
    raw += body.length;
    gzip += gzipSync(body, { level: 9 }).length;
    info(`  ${new URL(r.url()).pathname}: ${body.length} bytes raw, ${gzipSync(body, { level: 9 }).length} gzip`);
  }
  return { raw, gzip };
}

// Chromium's emulation of a slower link than loopback: 80 ms each way, 20 Mbit/s down.
async function slowLink(context, page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 80, downloadThroughput: 20e6 / 8, uploadThroughput: 5e6 / 8 });
}

const scriptsAndWasm = (responses) => responses.filter((r) => /\.(m?js|wasm)$/.test(new URL(r.url()).pathname));
const wasmOf = (responses) => responses.filter((r) => new URL(r.url()).pathname.endsWith(".wasm"));

// The default playground's first ring after navigation, FIRST_LOADS loads of each site in
// turn (who goes first rotates); then each site's downloads and first switch, and its first
// ring over the emulated slow link.
async function firstRing(browser) {
  const first = new Map(SITES.map((s) => [s, []]));
  for (let load = 0; load < FIRST_LOADS; load++) {
    for (let k = 0; k < SITES.length; k++) {
      const site = SITES[(k + load) % SITES.length];
      const { context, page, problems } = await playground(browser, site, "", { reach: false });
      const at = await page.evaluate(() => window.__ringlab.firstRing);
      if (typeof at !== "number") throw new Error("the page has no __ringlab.firstRing mark");
      first.get(site).push(at);
      if (problems.length) throw new Error(problems.join("\n"));
      await context.close();
    }
  }
  for (const [site, times] of first) {
    info(`${site.prefix}first ring drawn at ${times.map((t) => t.toFixed(0)).join(", ")} ms after navigation start`);
    row("page_first_ring_ms", median(times), site);
  }
  for (const site of SITES) {
    await playgroundSession(browser, site);
    await firstRingSlow(browser, site);
  }
}

// One reader's session on the default playground: what it fetches at load, on first
// reaching for the page, for its charts and for the first switch to another algorithm (with
// that switch's longest task and its time to the ring drawn), and how many wasm modules in
// all.
async function playgroundSession(browser, site) {
  const { context, page, problems, responses } = await playground(browser, site, "", { reach: false });
  await page.waitForLoadState("networkidle");
  const wasm = wasmOf(responses);
  if (!wasm.length) throw new Error("the playground fetched no .wasm");
  info(`${site.prefix}playground fetched ${responses.length} responses at load; wasm:`);
  const atLoad = await sizes(wasm);
  row("download_playground_wasm_raw", atLoad.raw, site);
  row("download_playground_wasm_gzip", atLoad.gzip, site);
  // Where a page waits for a reader's first reach, what that fetches on top.
  const loaded = responses.length;
  await awake(page);
  await settle(page);
  await page.waitForLoadState("networkidle");
  const reached = scriptsAndWasm(responses.slice(loaded));
  if (reached.length) {
    info(`${site.prefix}the reader's first reach fetched ${reached.length} more scripts and wasm:`);
    const more = await sizes(reached);
    row("download_playground_reach_gzip", more.gzip, site);
  }
  // What showing the charts fetches on top (scripts and wasm).
  const before = responses.length;
  await page.$eval("figure[data-chart=spread]", (f) => f.scrollIntoView());
  await page.waitForFunction(() => document.querySelector("figure[data-chart=spread]").dataset.drawn);
  await page.waitForLoadState("networkidle");
  info(`${site.prefix}showing the charts fetched:`);
  const charts = await sizes(scriptsAndWasm(responses.slice(before)));
  row("download_charts_raw", charts.raw, site);
  row("download_charts_gzip", charts.gzip, site);
  // The first switch to another algorithm: its longest task, from the choice to its ring
  // drawn, and what it fetches on top.
  const upTo = responses.length;
  let took = NaN;
  const task = await longestTask(browser, page, async () => {
    const chosen = await page.evaluate(() => {
      const at = performance.now();
      const select = document.getElementById("algorithm");
      select.value = "jump";
      select.dispatchEvent(new Event("change"));
      return at;
    });
    await page.waitForFunction(() => /^\d+ nodes, jump/.test(document.getElementById("summary").textContent) && window.__ringlab.pending === 0);
    took = (await page.evaluate(() => performance.now())) - chosen;
  });
  await page.waitForLoadState("networkidle");
  info(`${site.prefix}the first switch: ${took.toFixed(0)} ms to its ring drawn, longest task ${task.traced.toFixed(1)} ms (traced)`);
  row("page_switch_longest_task_ms", Number.isNaN(task.traced) ? task.observed : task.traced, site);
  row("page_first_switch_ms", took, site);
  info(`${site.prefix}the first switch fetched:`);
  const switched = await sizes(scriptsAndWasm(responses.slice(upTo)));
  row("download_switch_gzip", switched.gzip, site);
  const modules = new Set(wasmOf(responses).map((r) => new URL(r.url()).pathname));
  info(`${site.prefix}wasm modules fetched in the session: ${[...modules].join(", ")}`);
  row("playground_wasm_modules", modules.size, site);
  if (problems.length) throw new Error(problems.join("\n"));
  await context.close();
}

// The first ring over a slower link than loopback (Chromium's emulation: 80 ms each way,
// 20 Mbit/s down), where fetching in parallel rather than in turn shows.
async function firstRingSlow(browser, site) {
  const slow = [];
  for (let load = 0; load < LOADS; load++) {
    const { context, page, problems } = await newPage(browser);
    await slowLink(context, page);
    await page.goto(site.url);
    await page.waitForFunction(() => typeof window.__ringlab?.firstRing === "number", null, { timeout: 60_000 });
    slow.push(await page.evaluate(() => window.__ringlab.firstRing));
    if (problems.length) throw new Error(problems.join("\n"));
    await context.close();
  }
  info(`${site.prefix}over 80 ms / 20 Mbit/s: first ring drawn at ${slow.map((t) => t.toFixed(0)).join(", ")} ms`);
  row("page_first_ring_slow_ms", median(slow), site);
}

// A minimal page of `<hash-ring>` elements (one a list of attributes), each below `gap` px of
// empty page; `window.__ready[id]` is when each was ready (built and drawn).
const embedPage = (attrs = [""], gap = 0) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>embed</title><link rel="icon" href="data:,"></head>
<body>${attrs.map((a, i) => `<div style="height:${gap}px"></div><hash-ring id="ring-${i}"${a}></hash-ring>`).join("\n")}
<script>window.__ready = {}; for (const ring of document.querySelectorAll("hash-ring")) ring.addEventListener("ready", () => { window.__ready[ring.id] ??= performance.now(); });</script>
<script type="module" src="hash-ring.js"></script></body></html>`;

// Whether every element of the page is ready; scrolls the first that is not into view.
const allReady = (page) => page.waitForFunction(() => {
  const rings = [...document.querySelectorAll("hash-ring")];
  const waiting = rings.find((r) => window.__ready[r.id] === undefined);
  waiting?.scrollIntoView();
  return !waiting;
}, null, { timeout: 60_000, polling: 100 });

// Every script, wasm and style a page of embeds (`attrs`, one each) fetches until each is
// ready, as rows `${prefix}_raw` and `${prefix}_gzip`, and how many wasm modules.
async function embedDownload(browser, site, attrs, prefix) {
  const { context, page, problems } = await newPage(browser);
  const responses = [];
  page.on("response", (r) => responses.push(r));
  const address = await host(page, site, `${site.bundle}bench-embed.html`, embedPage(attrs));
  await allReady(page);
  await page.waitForLoadState("networkidle");
  const kind = (r) => {
    const path = new URL(r.url()).pathname;
    const type = r.headers()["content-type"] ?? "";
    return /\.(m?js|wasm|css)$/.test(path) || /javascript|wasm|css/.test(type);
  };
  const fetched = responses.filter((r) => r.url() !== address && !r.url().startsWith("data:"));
  const others = fetched.filter((r) => !kind(r));
  if (others.length) info(`embed also fetched (not counted): ${others.map((r) => r.url()).join(", ")}`);
  info(`${site.prefix}${attrs.length} embed(s)${attrs.join(",")} fetched:`);
  const { raw, gzip } = await sizes(fetched.filter(kind));
  row(`${prefix}_raw`, raw, site);
  row(`${prefix}_gzip`, gzip, site);
  row(`${prefix}_wasm_modules`, new Set(wasmOf(fetched).map((r) => new URL(r.url()).pathname)).size, site);
  if (problems.length) throw new Error(problems.join("\n"));
  await context.close();
}

// One embed's first picture after it scrolls into view: the element sits far below the fold
// (beyond where it starts loading), the page has loaded, then it is scrolled to; from that
// moment to its `ready`. 0 if it was ready before (nothing left to wait for).
async function embedPicture(browser, site) {
  const { context, page, problems } = await newPage(browser);
  await host(page, site, `${site.bundle}bench-embed-far.html`, embedPage([""], 10_000));
  await page.waitForLoadState("networkidle");
  await page.waitForFunction(() => customElements.get("hash-ring") !== undefined);
  const scrolled = await page.evaluate(() => {
    const at = performance.now();
    document.getElementById("ring-0").scrollIntoView();
    return at;
  });
  await page.waitForFunction(() => window.__ready["ring-0"] !== undefined, null, { timeout: 60_000 });
  const ready = await page.evaluate(() => window.__ready["ring-0"]);
  if (problems.length) throw new Error(problems.join("\n"));
  await context.close();
  return Math.max(0, ready - scrolled);
}

// The embed: its first picture after it scrolls into view (FIRST_LOADS of each site in
// turn), what a default one fetches and what a page of three (three algorithms of three
// families) fetches, and a default one's ready time over the emulated slow link.
async function embeds(browser) {
  const picture = new Map(SITES.map((s) => [s, []]));
  for (let load = 0; load < FIRST_LOADS; load++) {
    for (let k = 0; k < SITES.length; k++) {
      const site = SITES[(k + load) % SITES.length];
      picture.get(site).push(await embedPicture(browser, site));
    }
  }
  for (const [site, times] of picture) {
    info(`${site.prefix}embed: first picture ${times.map((t) => t.toFixed(0)).join(", ")} ms after it scrolled into view`);
    row("embed_picture_ms", median(times), site);
  }
  for (const site of SITES) {
    await embedDownload(browser, site, [""], "download_embed");
    const three = ["", ` algorithm="libketama"`, ` algorithm="jump"`];
    await embedDownload(browser, site, three, "download_embeds");
    const ready = [];
    for (let load = 0; load < LOADS; load++) {
      const { context, page, problems } = await newPage(browser);
      await slowLink(context, page);
      await host(page, site, `${site.bundle}bench-embed.html`, embedPage());
      await allReady(page);
      ready.push(await page.evaluate(() => window.__ready["ring-0"]));
      if (problems.length) throw new Error(problems.join("\n"));
      await context.close();
    }
    info(`${site.prefix}over 80 ms / 20 Mbit/s: the embed ready at ${ready.map((t) => t.toFixed(0)).join(", ")} ms`);
    row("page_embed_ready_slow_ms", median(ready), site);
  }
}

async function main() {
  if (!OURS.url) fail("RINGLAB_URL is not set (cargo xtask bench serves www/ and sets it)");
  if (!existsSync(new URL("ringlab_bg.wasm", PKG))) fail("www/pkg is not built (cargo xtask bench builds it first)");
  if (OURS.bundle === undefined) fail("RINGLAB_BUNDLE_PATH is not set (cargo xtask bench writes the bundle and sets it)");
  if (!existsSync(CHROMIUM)) fail(`Chromium not found at ${CHROMIUM} (apt-get install chromium, or set RINGLAB_CHROMIUM)`);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    timeout: 60_000,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  try {
    const only = process.env.RINGLAB_BENCH_ONLY?.split(",");
    const each = (part) => async (b) => { for (const site of SITES) await part(b, site); };
    const parts = {
      keyOwners: keyOwnersSideBySide,
      firstRing,
      embed: embeds,
      charts: each(chartTimes),
      joins: each(joinsAndLeaves),
      caps: capsLink,
      meter: meterCalls,
    };
    for (const [name, part] of Object.entries(parts)) if (!only || only.includes(name)) await part(browser);
  } finally {
    await browser.close();
  }
}

main().catch((e) => fail(e.stack ?? String(e)));
