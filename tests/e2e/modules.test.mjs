// One engine module for the playground (pkg/ringlab.js), whatever the reader does: the first
// ring, the everyday changes, another algorithm, a link of one, an import and the views that
// compare algorithms all run in it, with no second download and no session moved between
// builds. The page takes input as soon as its first ring is drawn, without a gesture.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch, open, settle, engine, arcColours, movedInText, URL } from "./browser.mjs";

let chrome;
before(async () => { chrome = await launch(); });
after(async () => { await chrome?.close(); });

const NAMES = ["node-1", "node-2", "node-3", "node-4", "node-5"];
// The wasm modules the page fetched, in order, the charts' aside (it comes whenever a chart
// scrolls into view).
const wasmFetched = (page) =>
  page.evaluate(() => performance.getEntriesByType("resource").map((r) => r.name.replace(/^.*\//, "").replace(/\?.*$/, ""))
    .filter((n) => n.endsWith(".wasm") && n !== "ringlab_charts_bg.wasm"));
const legend = async (page) => {
  await settle(page);
  return page.$$eval("#legend tbody tr", (rows) => rows.map((r) => ({ name: r.cells[0].textContent, keys: Number(r.cells[5].textContent.replace(/,/g, "")) })));
};
const link = (page) => page.evaluate(() => location.hash);
// The share link the engine makes of `options`, in a page of its own.
async function linkOf(options) {
  const { page, context } = await open(chrome.browser);
  const made = await engine(page, (mod, options) => new mod.Session(options).link(), options);
  await context.close();
  return made;
}

test("the page takes input as soon as its first ring is drawn, without a gesture", async () => {
  const context = await chrome.browser.newContext({ viewport: { width: 1200, height: 900 }, deviceScaleFactor: 1, reducedMotion: "reduce" });
  const page = await context.newPage();
  const problems = [];
  page.on("pageerror", (e) => problems.push(e.message));
  await page.goto(URL);
  // No pointer, key or scroll: the page is ready by itself, its first ring drawn.
  await page.waitForSelector("body[data-ready='1']");
  assert.equal(typeof (await page.evaluate(() => window.__ringlab.firstRing)), "number");
  assert.match(await page.textContent("#summary"), /^5 nodes, ring, 160 points \(xxh3, 32-bit ring\)/);
  // A setting picked with the keyboard alone is done with the value picked.
  await page.selectOption("#keys", "1000");
  await settle(page);
  assert.equal(await page.$eval("#keys", (s) => s.value), "1000");
  assert.equal((await legend(page)).reduce((sum, r) => sum + r.keys, 0), 1000);
  assert.match(await link(page), /&k=1000&/);
  assert.deepEqual(await wasmFetched(page), ["ringlab_bg.wasm"]);
  assert.deepEqual(problems, []);
  await context.close();
});

test("another algorithm, an import, a link and the comparing views: one engine module throughout", async () => {
  const { page, problems, context } = await open(chrome.browser, { reducedMotion: "reduce" });
  const start = await link(page);
  await page.click("#add-node");
  await settle(page);
  const added = await link(page);
  await page.click("#own-keys summary");
  const keys = Array.from({ length: 300 }, (_, i) => `user:${i * 7}`);
  await page.fill("#keys-text", keys.join("\n"));
  await page.click("#keys-load");
  await settle(page);

  await page.selectOption("#algorithm", "jump");
  await settle(page);
  assert.match(await page.textContent("#summary"), /^6 nodes, jump/);
  assert.equal(await page.textContent("#config-error"), "");
  // The switch is measured on the user's keys: the engine alone agrees.
  const names = [...NAMES, "node-6"];
  const expected = await engine(page, (mod, [names, keys]) => {
    const ring = new mod.Ring({ vnodes: 32, nodes: names });
    const jump = new mod.Ring({ algorithm: "jump", nodes: names });
    const counts = names.map((n) => keys.filter((k) => jump.locate(k) === n).length);
    return { counts, moved: keys.filter((k) => ring.locate(k) !== jump.locate(k)).length };
  }, [names, keys]);
  assert.deepEqual((await legend(page)).map((r) => r.keys), expected.counts);
  assert.deepEqual(movedInText(await page.textContent("#last-change")), { moved: expected.moved, of: 300 });
  // The history is whole: undo the switch, then the add.
  await page.click("#undo");
  await settle(page);
  assert.equal(await link(page), added);
  await page.click("#undo");
  await settle(page);
  assert.equal(await link(page), start);
  await page.click("#redo");
  await page.click("#redo");
  await settle(page);
  assert.match(await page.textContent("#summary"), /^6 nodes, jump/);
  assert.deepEqual((await arcColours(page)).wrong, []);

  // The comparing views answer at once from the same module.
  await page.click("#agreement summary");
  await page.waitForFunction(() => document.getElementById("agree-text").textContent !== "" || document.getElementById("agree-error").textContent !== "");
  await settle(page);
  assert.equal(await page.textContent("#agree-error"), "");
  const labels = await page.$$eval("#explain-with option", (os) => os.map((o) => o.textContent));
  const catalog = await engine(page, (mod) => mod.catalog().map((a) => a.label));
  assert.deepEqual(labels.slice(1), catalog);

  // An import.
  await page.click("#import summary");
  await page.selectOption("#import-kind", "memcached");
  await page.click("#import-example");
  await page.click("#import-load");
  await settle(page);
  assert.equal(await page.textContent("#import-error"), "");
  assert.match(await page.textContent("#last-change"), /^Imported \d+ servers/);

  // A link of another algorithm, opened in the page.
  const shared = await linkOf({ algorithm: "libketama", nodes: ["10.0.0.1:11211", "10.0.0.2:11211"] });
  await page.evaluate((l) => (location.hash = l), shared);
  await page.waitForFunction(() => /^2 nodes, libketama/.test(document.getElementById("summary").textContent));
  await settle(page);
  assert.equal(await link(page), shared);

  assert.deepEqual(await wasmFetched(page), ["ringlab_bg.wasm"], "one engine module, fetched once");
  assert.deepEqual(problems, []);
  await context.close();
});

test("a link of another algorithm opens at once, and its changes are undoable", async () => {
  const shared = await linkOf({ algorithm: "libketama", nodes: ["10.0.0.1:11211", "10.0.0.2:11211"] });
  const { page, problems, context } = await open(chrome.browser, {}, shared);
  assert.match(await page.textContent("#summary"), /^2 nodes, libketama/);
  assert.equal(await page.textContent("#config-error"), "");
  assert.equal(await link(page), shared);
  assert.deepEqual(await wasmFetched(page), ["ringlab_bg.wasm"]);
  await page.click("#add-node");
  await settle(page);
  assert.match(await page.textContent("#summary"), /^3 nodes, libketama/);
  await page.click("#undo");
  await settle(page);
  assert.equal(await link(page), shared);
  assert.deepEqual(problems, []);
  await context.close();
});
