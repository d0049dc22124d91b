// The playground in real Chromium: it loads cleanly, draws the ring, and its controls change
// the picture and the figures exactly as the engine says.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { launch, open, canvasStats, engine, settle, SHOTS, arcColours, movedInText, ownersOf } from "./browser.mjs";

let chrome;
before(async () => { chrome = await launch(); });
after(async () => { await chrome?.close(); });

const legendNames = async (page) => {
  await settle(page);
  return page.$$eval("#legend tbody tr", (rows) => rows.map((r) => r.cells[0].textContent));
};
// Each legend row as {name, points, share, keys}, as the page shows them.
const legendRows = async (page) => {
  await settle(page);
  return page.$$eval("#legend tbody tr", (rows) => rows.map((r) => ({
    name: r.cells[0].textContent, points: r.cells[3].textContent, share: r.cells[4].textContent, keys: r.cells[5].textContent,
  })));
};
const NAMES = ["node-1", "node-2", "node-3", "node-4", "node-5"];
const count = (owners, name) => owners.filter((o) => o === name).length;

// Every sampled arc is drawn in its owner's colour, and all nodes' arcs were sampled.
async function assertArcsColoured(page, nodes) {
  const arcs = await arcColours(page);
  assert.ok(arcs.samples >= 40, `only ${arcs.samples} arcs wide enough to sample`);
  assert.equal(arcs.nodes, nodes, "every node's arcs were sampled");
  assert.deepEqual(arcs.wrong, [], `${arcs.wrong.length} of ${arcs.samples} arcs in the wrong colour`);
}

test("loads with no errors and draws each arc in its owner's colour", async () => {
  const { page, problems, context } = await open(chrome.browser);
  // index.html preloads the engine's wasm; its fetch takes that response, not a second one.
  const wasm = await page.evaluate(() => performance.getEntriesByType("resource").filter((r) => r.name.endsWith(".wasm")).map((r) => r.name.replace(/^.*\//, "")));
  assert.deepEqual(wasm, ["ringlab_bg.wasm"]);
  await assertArcsColoured(page, 5);
  assert.deepEqual(await legendNames(page), NAMES);
  // ... and the legend's colours are the engine's palette, in order.
  const swatches = await page.$$eval("#legend .swatch", (els) => els.map((e) => getComputedStyle(e).backgroundColor));
  const palette = await engine(page, (mod) => mod.palette().slice(0, 5));
  const css = (hex) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(", ")})`;
  assert.deepEqual(swatches, palette.map(css));
  assert.match(await page.textContent("#summary"), /5 nodes, ring, 160 points/);
  await page.screenshot({ path: join(SHOTS, "01-loaded.png"), fullPage: true });
  assert.deepEqual(problems, []);
  await context.close();
});

test("the canvas is HiDPI-aware", async () => {
  const { page, problems, context } = await open(chrome.browser, { deviceScaleFactor: 2 });
  const size = await page.$eval("#ring", (c) => ({ w: c.width, css: c.getBoundingClientRect().width }));
  assert.equal(size.w, Math.round(size.css * 2));
  assert.deepEqual(problems, []);
  await context.close();
});

test("adding a node changes the picture and reports exactly what moved", async () => {
  const { page, problems, context } = await open(chrome.browser);
  const before = await canvasStats(page);
  await page.click("#add-node");
  await page.waitForFunction(() => document.querySelectorAll("#legend tbody tr").length === 6);
  const after = await canvasStats(page);
  assert.notEqual(after.hash, before.hash, "the picture changed");
  assert.match(await page.textContent("#summary"), /6 nodes, ring, 192 points/);

  // The readout's figures equal the engine's own, computed here independently of the page:
  // the moved count from each sample key's owner on a ring before and after.
  const [ownersBefore, ownersAfter] = await Promise.all([
    ownersOf(page, { vnodes: 32, nodes: NAMES }),
    ownersOf(page, { vnodes: 32, nodes: [...NAMES, "node-6"] }),
  ]);
  const changed = ownersBefore.filter((o, k) => o !== ownersAfter[k]).length;
  assert.ok(ownersAfter.every((o, k) => o === ownersBefore[k] || o === "node-6"), "keys move only onto the new node");
  const expected = await engine(page, (mod) => {
    const names = ["node-1", "node-2", "node-3", "node-4", "node-5"];
    const a = new mod.Ring({ vnodes: 32, nodes: names });
    const b = new mod.Ring({ vnodes: 32, nodes: [...names, "node-6"] });
    const exact = mod.Ring.diff(a, b);
    return { exact: exact.movedFraction, ideal: exact.idealFraction, modulo: exact.moduloFraction, share: b.nodes()[5].share };
  });
  const text = await page.textContent("#last-change");
  assert.ok(text.startsWith("Added node-6: moved "), text);
  assert.deepEqual(movedInText(text), { moved: changed, of: 2000 });
  assert.ok(text.includes(`exactly ${(expected.exact * 100).toFixed(2)}% of the key space`), text);
  assert.ok(text.includes(`The least any placement could have moved: ${(expected.ideal * 100).toFixed(2)}% (ideal)`), text);
  assert.ok(text.includes(`would have moved ${(expected.modulo * 100).toFixed(1)}%`), text);
  // hash % N: of every 30 consecutive hashes, key h keeps its owner iff h mod 5 = h mod 6.
  assert.ok(text.includes("would have moved 83.3%"), text);
  assert.ok(Math.abs(expected.exact - expected.share) < 1e-12, "a join moves exactly the new node's share");
  assert.equal((await legendRows(page))[5].keys, count(ownersAfter, "node-6").toLocaleString("en-US"));
  await assertArcsColoured(page, 6);
  await page.screenshot({ path: join(SHOTS, "02-added-node.png"), fullPage: true });
  assert.deepEqual(problems, []);
  await context.close();
});

test("removing a node from the legend moves only its keys", async () => {
  const { page, problems, context } = await open(chrome.browser);
  await page.click("button[aria-label='Remove node-3']");
  await page.waitForFunction(() => document.querySelectorAll("#legend tbody tr").length === 4);
  assert.deepEqual(await legendNames(page), ["node-1", "node-2", "node-4", "node-5"]);
  // Owners on rings built here: every key that changed owner was node-3's, every key of
  // node-3's moved, and the page's count is exactly those keys.
  const rest = ["node-1", "node-2", "node-4", "node-5"];
  const [ownersBefore, ownersAfter] = await Promise.all([
    ownersOf(page, { vnodes: 32, nodes: NAMES }),
    ownersOf(page, { vnodes: 32, nodes: rest }),
  ]);
  const moved = ownersBefore.filter((o, k) => o !== ownersAfter[k]);
  assert.ok(moved.every((o) => o === "node-3"), `keys of ${[...new Set(moved)]} moved`);
  assert.equal(moved.length, count(ownersBefore, "node-3"), "all of node-3's keys moved");
  assert.ok(moved.length > 0);
  const text = await page.textContent("#last-change");
  assert.ok(text.startsWith("Removed node-3: "), text);
  assert.deepEqual(movedInText(text), { moved: moved.length, of: 2000 });
  // The legend's keys and exact shares are those of the ring without node-3.
  const shares = await engine(page, (mod, nodes) => new mod.Ring({ vnodes: 32, nodes }).nodes().map((n) => n.share), rest);
  assert.deepEqual(await legendRows(page), rest.map((name, i) => ({
    name, points: "32", share: `${(shares[i] * 100).toFixed(2)}%`, keys: count(ownersAfter, name).toLocaleString("en-US"),
  })));
  await assertArcsColoured(page, 4);
  await page.screenshot({ path: join(SHOTS, "03-removed-node.png"), fullPage: true });
  assert.deepEqual(problems, []);
  await context.close();
});

test("bad input shows a message next to the control and changes nothing", async () => {
  const { page, problems, context } = await open(chrome.browser);
  const before = await canvasStats(page);
  await page.fill("#add-name", "node-2");
  await page.click("#add-node");
  assert.equal(await page.textContent("#add-error"), 'a node named "node-2" is already on the ring');
  await page.fill("#add-name", "zero");
  await page.fill("#add-weight", "0");
  await page.click("#add-node");
  assert.match(await page.textContent("#add-error"), /weight must be a positive, finite number/);
  assert.equal((await legendNames(page)).length, 5);
  assert.equal((await canvasStats(page)).hash, before.hash, "the picture is unchanged");
  assert.deepEqual(problems, []);
  await context.close();
});

test("hostile node names are shown as text, never run as HTML", async () => {
  const { page, problems, context } = await open(chrome.browser);
  const hostile = `<img src=x onerror="window.__pwned=1">`;
  await page.fill("#add-name", hostile);
  await page.click("#add-node");
  await page.waitForFunction(() => document.querySelectorAll("#legend tbody tr").length === 6);
  assert.equal((await legendNames(page))[5], hostile);
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.equal(await page.$$eval("#legend img", (imgs) => imgs.length), 0);
  assert.deepEqual(problems, []);
  await context.close();
});
