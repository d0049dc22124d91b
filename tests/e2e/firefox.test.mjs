// <hash-ring> in Firefox. playwright-core's firefox needs Playwright's own Firefox build, and
// its WebDriver BiDi mode asks Debian's firefox-esr for commands it lacks
// (emulation.setMediaFeaturesOverride), so this drives firefox-esr through geckodriver's
// classic WebDriver HTTP API with a few fetch calls. It skips, saying why, where either
// program is missing.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { URL } from "./browser.mjs";
import fc from "fast-check";
import { CALL_MS, runInPage, sequence } from "./fuzz-core.mjs";

const FIREFOX = process.env.RINGLAB_FIREFOX ?? ["/usr/bin/firefox-esr", "/usr/bin/firefox"].find(existsSync);
const onPath = (process.env.PATH ?? "").split(":").filter(Boolean).map((dir) => join(dir, "geckodriver"));
const GECKODRIVER = process.env.GECKODRIVER ?? [...onPath, join(homedir(), ".cargo/bin/geckodriver")].find(existsSync);
const PORT = 4444 + (process.pid % 500);
const missing = !FIREFOX ? "no firefox-esr" : !GECKODRIVER ? "no geckodriver" : false;

let driver, session;
async function call(method, path, body) {
  const r = await fetch(`http://127.0.0.1:${PORT}${path}`, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await r.json();
  if (json.value?.error) throw new Error(`${json.value.error}: ${json.value.message}`);
  return json.value;
}
const go = (url) => call("POST", `/session/${session}/url`, { url });
// Runs `fn(...args)` in the page, awaiting it.
const run = (fn, ...args) =>
  call("POST", `/session/${session}/execute/async`, {
    script: `const done = arguments[arguments.length - 1];
      Promise.resolve((${fn})(...Array.from(arguments).slice(0, -1))).then(done, (e) => done({ thrown: String(e) }));`,
    args,
  });
// Runs `fn` as a module script of the page itself (so it shares the page's engine module;
// WebDriver's own scripts may run apart from it) and returns its JSON result via the DOM.
async function inPage(fn) {
  const id = `r${Math.random().toString(36).slice(2)}`;
  await run((id, source) => {
    const script = document.createElement("script");
    script.type = "module";
    script.textContent = `const out = document.createElement("output"); out.id = ${JSON.stringify(id)}; out.hidden = true;
      Promise.resolve().then(${source}).then((v) => { out.textContent = JSON.stringify({ v }); }, (e) => { out.textContent = JSON.stringify({ e: String(e) }); })
        .finally(() => document.body.append(out));`;
    document.head.append(script);
  }, id, fn.toString());
  const text = await until((id) => document.getElementById(id)?.textContent, id);
  const { v, e } = JSON.parse(text);
  if (e) throw new Error(e);
  return v;
}

// Polls `fn` in the page until it returns something truthy (bounded: 20 s).
async function until(fn, ...args) {
  for (let i = 0; i < 200; i++) {
    const v = await run(fn, ...args);
    if (v) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`never true: ${fn}`);
}

before(async () => {
  if (missing) return;
  driver = spawn(GECKODRIVER, ["--host", "127.0.0.1", "--port", String(PORT)], { stdio: "ignore" });
  for (let i = 0; i < 100; i++) {
    try {
      await call("GET", "/status");
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const s = await call("POST", "/session", {
    capabilities: { alwaysMatch: { browserName: "firefox", "moz:firefoxOptions": { binary: FIREFOX, args: ["-headless", "-width=1000", "-height=900"] } } },
  });
  session = s.sessionId;
});

after(async () => {
  if (session) await call("DELETE", `/session/${session}`).catch(() => {});
  driver?.kill();
});

// The docs page is a host page with many elements; its first example is in view on load.
test("Firefox: the element builds, reports a join exactly, and refuses a bad attribute with an error event", { skip: missing }, async () => {
  await go(`${URL}docs.html`);
  await until(() => document.getElementById("hero")?.shadowRoot?.querySelectorAll("[part=legend] li").length === 3);
  const painted = await run(() => {
    const c = document.getElementById("hero").shadowRoot.querySelector("canvas");
    const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 3; i < d.length; i += 4) if (d[i]) n++;
    return n / (c.width * c.height);
  });
  assert.ok(painted > 0.05, `painted ${painted}`);
  const result = await inPage(async () => {
    const r = document.getElementById("hero");
    const fired = new Promise((resolve) => r.addEventListener("change", (e) => resolve(e.detail), { once: true }));
    const added = await r.add("cache-d");
    const mod = await import(new URL("pkg/ringlab.js", location.href).href);
    await mod.default(); // the library module (the element loads its own, smaller one)
    const names = ["cache-a", "cache-b", "cache-c"];
    const before = new mod.Ring({ vnodes: 64, nodes: names });
    const after = new mod.Ring({ vnodes: 64, nodes: [...names, "cache-d"] });
    let moved = 0;
    for (let i = 0; i < 1000; i++) if (before.locate(`key:${i}`) !== after.locate(`key:${i}`)) moved++;
    return { added, fired: await fired, share: after.nodes().find((n) => n.name === "cache-d").share, moved };
  });
  assert.deepEqual(result.fired, result.added);
  assert.ok(Math.abs(result.added.movedFraction - result.share) < 1e-12);
  assert.equal(result.added.movedKeys, result.moved);
  const error = await run(() => {
    const r = document.getElementById("hero");
    const fired = new Promise((resolve) => r.addEventListener("error", (e) => resolve(e.detail), { once: true }));
    r.setAttribute("vnodes", "0");
    return fired.then((detail) => ({ detail, shown: r.shadowRoot.querySelector("[part=message]").textContent }));
  });
  assert.equal(error.detail.code, "invalid-vnodes");
  assert.match(error.shown, /^hash-ring: vnodes must be between 1 and 10000/);
});

test("Firefox: theme=auto follows the host's toggles; keys stay inside; removal frees the engine", { skip: missing }, async () => {
  await go(`${URL}docs.html`);
  await until(() => document.getElementById("hero")?.shadowRoot?.querySelectorAll("[part=legend] li").length === 3);
  const themes = await run(async () => {
    const r = document.getElementById("hero");
    const bg = () => getComputedStyle(r).backgroundColor;
    const settle = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 50)));
    const seen = [bg()];
    document.documentElement.dataset.theme = "dark";
    await settle();
    seen.push(bg());
    delete document.documentElement.dataset.theme;
    document.documentElement.classList.add("coal");
    await settle();
    seen.push(bg());
    document.documentElement.classList.replace("coal", "light");
    await settle();
    seen.push(bg());
    return seen;
  });
  assert.deepEqual(themes, ["rgb(255, 255, 255)", "rgb(18, 18, 22)", "rgb(18, 18, 22)", "rgb(255, 255, 255)"]);
  // Keys: a host listener sees nothing while a button inside has focus.
  // (The listener is the page's own, and writes to the DOM, which every script can read.)
  await inPage(() => {
    document.body.dataset.keys = "";
    document.addEventListener("keydown", (e) => { document.body.dataset.keys += `${e.key} `; });
  });
  await run(() => document.getElementById("hero").shadowRoot.querySelector("[part~=add]").focus());
  const keys = ["\uE012", "\uE014", "s"].map((value) => [{ type: "keyDown", value }, { type: "keyUp", value }]).flat();
  await call("POST", `/session/${session}/actions`, { actions: [{ type: "key", id: "keys", actions: keys }] });
  assert.equal(await run(() => document.body.dataset.keys), "");
  // The same key with focus outside reaches the host: the keys were really pressed.
  await run(() => document.getElementById("hero").shadowRoot.activeElement.blur());
  const right = [{ type: "keyDown", value: "\uE014" }, { type: "keyUp", value: "\uE014" }];
  await call("POST", `/session/${session}/actions`, { actions: [{ type: "key", id: "keys", actions: right }] });
  assert.equal(await run(() => document.body.dataset.keys), "ArrowRight ");
  const freed = await inPage(async () => {
    // The element's engine module.
    let n = 0;
    const mod = await import(new URL("pkg/ringlab_element.js", location.href).href);
    const free = mod.Session.prototype.free;
    mod.Session.prototype.free = function () { n++; return free.call(this); };
    document.getElementById("hero").remove();
    mod.Session.prototype.free = free;
    return n;
  });
  assert.equal(freed, 1);
});

test("Firefox: the chart views draw, and the iframe form fills its frame", { skip: missing }, async () => {
  await go(`${URL}docs.html`);
  for (const id of ["ex-shares", "ex-spread"]) {
    await run((id) => document.getElementById(id).scrollIntoView(), id);
    await until((id) => document.getElementById(id).shadowRoot.querySelectorAll("[part=legend] li").length > 0, id);
    const view = await run((id) => {
      const c = document.getElementById(id).shadowRoot.querySelector("canvas");
      const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
      let n = 0;
      for (let i = 3; i < d.length; i += 4) if (d[i]) n++;
      return { painted: n / (c.width * c.height), label: c.getAttribute("aria-label") };
    }, id);
    assert.ok(view.painted > 0.5, `${id}: ${view.painted}`);
    assert.match(view.label, id === "ex-shares" ? /^Share of the key space per node: a / : /^Spread of load against vnodes per node/);
  }
  await go(`${URL}embed.html?nodes=a,b,c,d&vnodes=16&keys=300`);
  await until(() => document.querySelector("hash-ring")?.shadowRoot?.querySelectorAll("[part=legend] li").length === 4);
  const fill = await run(() => [document.querySelector("hash-ring").getBoundingClientRect().height, innerHeight]);
  assert.ok(fill[0] >= fill[1] - 20, JSON.stringify(fill));
});

// The fuzz tests' random call sequences (fuzz.test.mjs runs them in Chromium), here in
// Firefox: a fixed sample, so a failure names a sequence that can be replayed.
test("Firefox: random call sequences get answers or coded Errors and change nothing on error", { skip: missing }, async () => {
  await go(URL);
  await until(() => document.body.dataset.ready === "1");
  const sequences = fc.sample(sequence, { numRuns: Number(process.env.RINGLAB_FUZZ_FIREFOX_RUNS ?? 40), seed: 20261130 });
  let calls = 0;
  for (const seq of sequences) {
    const r = await run(runInPage, [seq, CALL_MS]);
    assert.ok(!r.thrown, `the sequence threw: ${r.thrown}`);
    assert.deepEqual(r.problems, [], JSON.stringify(seq));
    calls += r.calls;
  }
  console.log(`# fuzz in Firefox: ${sequences.length} sequences, ${calls} calls`);
});

// The playground in Firefox: ready without a gesture, on one engine module whatever the
// reader does (another algorithm included), history included.
test("Firefox: the playground runs on one engine module, history included", { skip: missing }, async () => {
  await go(URL);
  await until(() => document.body.dataset.ready === "1" && window.__ringlab.pending === 0);
  assert.match(await run(() => document.getElementById("summary").textContent), /^5 nodes, ring, 160 points/);
  const start = await run(() => location.hash);
  const settled = (summary, hash) =>
    until((summary, hash) => window.__ringlab.pending === 0 && new RegExp(summary).test(document.getElementById("summary").textContent)
      && (hash === null || location.hash === hash), summary, hash);
  await run(() => document.getElementById("add-node").click());
  await settled("^6 nodes, ring", null);
  await until((start) => location.hash !== start, start);
  const added = await run(() => location.hash);
  await run(() => {
    const select = document.getElementById("algorithm");
    select.value = "jump";
    select.dispatchEvent(new Event("change"));
  });
  await settled("^6 nodes, jump", null);
  const modules = await run(() => performance.getEntriesByType("resource").map((r) => r.name.replace(/^.*\//, "")).filter((n) => n.endsWith(".wasm") && n !== "ringlab_charts_bg.wasm"));
  assert.deepEqual(modules, ["ringlab_bg.wasm"]);
  await run(() => document.getElementById("undo").click());
  await settled("^6 nodes, ring", added);
  await run(() => document.getElementById("undo").click());
  await settled("^5 nodes, ring, 160 points", start);
});
