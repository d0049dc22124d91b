// The playground in real Chromium: it loads cleanly, draws the ring, and its controls change
// the picture and the figures exactly as the engine says.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { launch, open, canvasStats, engine, settle, SHOTS } from "./browser.mjs";

let chrome;
before(async () => { chrome = await launch(); });
after(async () => { await chrome?.close(); });

const legendNames = async (page) => {
  await settle(page);
  return page.$$eval("#legend tbody tr", (rows) => rows.map((r) => r.cells[0].textContent));
};

test("loads with no errors and draws a non-blank ring", async () => {
  const { page, problems, context } = await open(chrome.browser);
  const stats = await canvasStats(page);
  assert.ok(stats.painted > stats.total * 0.05, `only ${stats.painted} of ${stats.total} pixels painted`);
  assert.deepEqual(await legendNames(page), ["node-1", "node-2", "node-3", "node-4", "node-5"]);
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

  // The readout's figures equal the engine's own, computed here independently of the page.
  const expected = await engine(page, (mod) => {
    const names = ["node-1", "node-2", "node-3", "node-4", "node-5"];
    const a = new mod.Ring({ vnodes: 32, nodes: names });
    const b = new mod.Ring({ vnodes: 32, nodes: [...names, "node-6"] });
    const exact = mod.Ring.diff(a, b);
    const sample = mod.Ring.diffSample(a, b, "key:", 2000, 1); // the engine's own count
    return { exact: exact.movedFraction, ideal: exact.idealFraction, modulo: exact.moduloFraction, keys: sample.movedKeys };
  });
  const text = await page.textContent("#last-change");
  assert.ok(text.startsWith("Added node-6: moved "), text);
  assert.ok(text.includes(`moved ${expected.keys.toLocaleString("en-US")} of 2,000 keys`), text);
  assert.ok(text.includes(`exactly ${(expected.exact * 100).toFixed(2)}% of the key space`), text);
  assert.ok(text.includes(`ideal ${(expected.ideal * 100).toFixed(2)}%`), text);
  assert.ok(text.includes(`would have moved ${(expected.modulo * 100).toFixed(1)}%`), text);
  assert.equal(expected.exact, expected.ideal, "a join moves exactly the new node's share");
  await page.screenshot({ path: join(SHOTS, "02-added-node.png"), fullPage: true });
  assert.deepEqual(problems, []);
  await context.close();
});

test("removing a node from the legend moves only its keys", async () => {
  const { page, problems, context } = await open(chrome.browser);
  await page.click("button[aria-label='Remove node-3']");
  await page.waitForFunction(() => document.querySelectorAll("#legend tbody tr").length === 4);
  assert.deepEqual(await legendNames(page), ["node-1", "node-2", "node-4", "node-5"]);
  const text = await page.textContent("#last-change");
  assert.match(text, /^Removed node-3: moved [\d,]+ of 2,000 keys/);
  const shares = await page.$$eval("#legend tbody tr", (rows) => rows.map((r) => parseFloat(r.cells[4].textContent)));
  assert.ok(Math.abs(shares.reduce((a, b) => a + b, 0) - 100) < 0.03, `shares sum to 100%: ${shares}`);
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
