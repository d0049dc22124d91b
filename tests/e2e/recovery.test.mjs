// If the engine ever traps (a bug: every input gets an Error instead), the page says so and
// reopens its last good state in a fresh instance of the module. The trap is simulated: a
// WebAssembly.RuntimeError thrown as the module's own would be (no input reaches one).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch, open, settle } from "./browser.mjs";

let chrome;
before(async () => { chrome = await launch(); });
after(async () => { await chrome?.close(); });

const names = (page) => page.$$eval("#legend tbody tr", (rows) => rows.map((r) => r.cells[0].textContent));

test("after a trap the page reopens its last good state in a fresh engine and keeps working", async () => {
  const { page, problems, context } = await open(chrome.browser);
  await page.click("#add-node");
  await settle(page);
  const good = { names: await names(page), link: new URL(page.url()).hash };
  assert.equal(good.names.length, 6);
  await page.evaluate(() => setTimeout(() => { throw new WebAssembly.RuntimeError("unreachable"); }, 0));
  await page.waitForFunction(() => /Something went wrong in the engine/.test(document.getElementById("config-error").textContent));
  await settle(page);
  assert.deepEqual(await names(page), good.names, "the last good state");
  assert.equal(new URL(page.url()).hash, good.link);
  const instances = await page.evaluate(() => performance.getEntriesByType("resource").filter((r) => /ringlab\.js\?instance=/.test(r.name)).length);
  assert.equal(instances, 1, "a fresh instance of the engine's module was loaded");
  // The page works on: a change goes through the fresh engine.
  await page.click("#add-node");
  await page.waitForFunction(() => document.querySelectorAll("#legend tbody tr").length === 7);
  assert.match(await page.textContent("#last-change"), /^Added node-7: moved/);
  // Only the simulated trap and the page's own report of it reached the console.
  assert.deepEqual(problems.filter((p) => !/unreachable|the engine stopped/.test(p)), []);
  await context.close();
});

test("on another algorithm, a trap reopens the last good state in a fresh instance of the engine", async () => {
  const { page, problems, context } = await open(chrome.browser);
  await page.selectOption("#algorithm", "jump");
  await settle(page);
  await page.click("#add-node");
  await settle(page);
  const good = { names: await names(page), link: new URL(page.url()).hash };
  assert.match(await page.textContent("#summary"), /^6 nodes, jump/);
  await page.evaluate(() => setTimeout(() => { throw new WebAssembly.RuntimeError("unreachable"); }, 0));
  await page.waitForFunction(() => /Something went wrong in the engine/.test(document.getElementById("config-error").textContent));
  await settle(page);
  assert.deepEqual(await names(page), good.names, "the last good state");
  assert.equal(new URL(page.url()).hash, good.link);
  const fresh = await page.evaluate(() => performance.getEntriesByType("resource").map((r) => r.name).filter((n) => /\?instance=/.test(n)).map((n) => n.replace(/^.*\/|\?.*$/g, "")));
  assert.deepEqual(fresh, ["ringlab.js"], "one fresh instance of the engine's module");
  await page.click("#add-node");
  await page.waitForFunction(() => document.querySelectorAll("#legend tbody tr").length === 7);
  assert.match(await page.textContent("#summary"), /^7 nodes, jump/);
  assert.deepEqual(problems.filter((p) => !/unreachable|the engine stopped/.test(p)), []);
  await context.close();
});

test("when the fresh engine traps on the last good state too, the page opens the default ring and recovers again later", async () => {
  const { page, problems, context } = await open(chrome.browser);
  await page.click("#add-node");
  await settle(page);
  assert.equal((await names(page)).length, 6);
  // The first fresh instance traps while it opens the link (every step): its glue is served
  // with Opening.step replaced by a trap. Later instances are served as they are.
  let served = 0;
  await page.route(/\/pkg\/ringlab\.js\?instance=/, async (route) => {
    const response = await route.fetch();
    let body = await response.text();
    if (served++ === 0) body += '\nOpening.prototype.step = function () { throw new WebAssembly.RuntimeError("unreachable"); };\n';
    await route.fulfill({ response, body });
  });
  await page.evaluate(() => setTimeout(() => { throw new WebAssembly.RuntimeError("unreachable"); }, 0));
  await page.waitForFunction(() => /twice on the last good state: the page shows the default ring/.test(document.getElementById("config-error").textContent));
  await settle(page);
  assert.equal(served, 2, "a second fresh instance opened the default ring");
  assert.deepEqual(await names(page), ["node-1", "node-2", "node-3", "node-4", "node-5"], "the default ring");
  // The recovery is over: the page works on, and a later trap is recovered again.
  await page.click("#add-node");
  await page.waitForFunction(() => document.querySelectorAll("#legend tbody tr").length === 6);
  await page.evaluate(() => {
    document.getElementById("config-error").textContent = "";
    setTimeout(() => { throw new WebAssembly.RuntimeError("unreachable"); }, 0);
  });
  await page.waitForFunction(() => /the page reopened its last good state/.test(document.getElementById("config-error").textContent));
  await settle(page);
  assert.equal(served, 3);
  assert.equal((await names(page)).length, 6, "the last good state, six nodes");
  assert.deepEqual(problems.filter((p) => !/unreachable|the engine stopped/.test(p)), []);
  await context.close();
});

test("after a trap each <hash-ring> rebuilds its last good state in a fresh engine", async () => {
  const { page, problems, context } = await open(chrome.browser, {}, "");
  await page.goto(new URL("embed.html?nodes=a,b,c&vnodes=16", page.url()).href);
  await page.waitForFunction(() => document.querySelector("hash-ring")?.shadowRoot?.querySelector("[part~=legend]")?.textContent.includes("a"));
  // The state to come back to: a node marked down by the attribute, then a weighted join in a
  // zone and a leave (the element replays them in the fresh engine: its modules read no links).
  await page.evaluate(async () => {
    const ring = document.querySelector("hash-ring");
    const ready = new Promise((resolve) => ring.addEventListener("ready", resolve, { once: true }));
    ring.setAttribute("down", "a");
    await ready;
    await ring.add("d", { weight: 3, zone: "z2" });
    await ring.remove("b");
  });
  const legend = () => page.evaluate(() => document.querySelector("hash-ring").shadowRoot.querySelector("[part~=legend]").textContent);
  const good = await legend();
  assert.match(good, /d/);
  assert.doesNotMatch(good, /b/);
  // The frame a fresh session of the same changes draws: what the element must show again.
  const summary = () => page.evaluate(() => document.querySelector("hash-ring").shadowRoot.querySelector("canvas").getAttribute("aria-label"));
  const goodSummary = await summary();
  assert.match(goodSummary, /down/i, goodSummary);
  // The element's engine (the module at pkg/ringlab_element.js) traps on the next change.
  const code = await page.evaluate(async () => {
    const mod = await import(new URL("./pkg/ringlab_element.js", location.href).href);
    mod.Session.prototype.add = () => { throw new WebAssembly.RuntimeError("unreachable"); };
    const error = new Promise((resolve) => document.querySelector("hash-ring").addEventListener("error", (e) => resolve(e.detail.code), { once: true }));
    document.querySelector("hash-ring").add("e");
    return error;
  });
  assert.equal(code, "internal");
  assert.equal(await legend(), good, "the last good state: a (down), c, d*3 in z2");
  assert.equal(await summary(), goodSummary);
  assert.match(await page.evaluate(() => document.querySelector("hash-ring").shadowRoot.querySelector("[part~=message]").textContent), /this is the last good state/);
  // It works on, through the fresh engine.
  const t = await page.evaluate(async () => document.querySelector("hash-ring").add("e"));
  assert.ok(t, "the change went through");
  assert.match(await legend(), /e/);
  assert.deepEqual(problems.filter((p) => !/unreachable|the engine stopped/.test(p)), []);
  await context.close();
});

test("a trap in the migrate loop rebuilds the state with the loop's join, and the loop goes on", async () => {
  const { page, problems, context } = await open(chrome.browser, {}, "");
  await page.goto(new URL("embed.html?nodes=a,b,c&view=migrate", page.url()).href);
  const legendOf = () => document.querySelector("hash-ring").shadowRoot.querySelector("[part~=legend]").textContent;
  // The loop has joined node-1: its leave, next, traps.
  await page.waitForFunction(`(${legendOf})().includes("node-1")`);
  const { good, after } = await page.evaluate(async (legendOf) => {
    legendOf = eval(legendOf);
    const good = legendOf();
    const mod = await import(new URL("./pkg/ringlab_element.js", location.href).href);
    mod.Session.prototype.remove = () => { throw new WebAssembly.RuntimeError("unreachable"); };
    const ring = document.querySelector("hash-ring");
    const after = await new Promise((resolve) => ring.addEventListener("error", () => resolve(legendOf()), { once: true }));
    return { good, after };
  }, String(legendOf));
  assert.equal(after, good, "the last good state has the loop's node-1");
  // The loop leaves and joins again through the fresh engine.
  await page.waitForFunction(`!(${legendOf})().includes("node-1")`, null, { timeout: 10000 });
  await page.waitForFunction(`(${legendOf})().includes("node-1")`, null, { timeout: 10000 });
  assert.deepEqual(problems.filter((p) => !/unreachable|the engine stopped/.test(p)), []);
  await context.close();
});

test("a trap restarts the element's module once: every element on the page rebuilds its last good state there", async () => {
  const { page, problems, context } = await open(chrome.browser, {}, "");
  await page.goto(new URL("embed.html?nodes=a,b,c", page.url()).href);
  const legend = (sel) => page.evaluate((sel) => document.querySelector(sel).shadowRoot.querySelector("[part~=legend]").textContent, sel);
  await page.waitForFunction(() => document.querySelector("hash-ring")?.shadowRoot?.querySelector("[part~=legend]")?.textContent.includes("a"));
  // A second element, on Jump.
  await page.evaluate(async () => {
    const el = Object.assign(document.createElement("hash-ring"), { id: "j" });
    el.setAttribute("nodes", "p, q");
    el.setAttribute("algorithm", "jump");
    const ready = new Promise((resolve) => el.addEventListener("ready", resolve, { once: true }));
    document.body.append(el);
    await ready;
    await el.add("r");
  });
  const good = await legend("#j");
  assert.match(good, /r/);
  const first = await legend("hash-ring");
  const code = await page.evaluate(async () => {
    const mod = await import(new URL("./pkg/ringlab_element.js", location.href).href);
    mod.Session.prototype.add = () => { throw new WebAssembly.RuntimeError("unreachable"); };
    const j = document.getElementById("j");
    const error = new Promise((resolve) => j.addEventListener("error", (e) => resolve(e.detail.code), { once: true }));
    j.add("s");
    return error;
  });
  assert.equal(code, "internal");
  assert.equal(await legend("#j"), good, "the last good state, p q r on Jump");
  const fresh = await page.evaluate(() => performance.getEntriesByType("resource").map((r) => r.name.replace(/^.*\//, "")).filter((n) => n.includes("?instance=")));
  assert.deepEqual(fresh.map((n) => n.replace(/\?.*/, "")), ["ringlab_element.js"]);
  assert.equal(await legend("hash-ring"), first, "the first element's state, rebuilt too");
  // Both go on, through the one fresh module.
  assert.ok(await page.evaluate(() => document.getElementById("j").add("s")));
  assert.match(await legend("#j"), /s/);
  assert.ok(await page.evaluate(() => document.querySelector("hash-ring").add("d")));
  assert.match(await legend("hash-ring"), /d/);
  assert.deepEqual(problems.filter((p) => !/unreachable|the engine stopped/.test(p)), []);
  await context.close();
});
