// "Your own cluster": a pasted nginx or HAProxy config becomes the ring, and marking a server
// down moves exactly the keys the engine's Ring says, independently computed here.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { launch, open, engine, settle, SHOTS } from "./browser.mjs";

let chrome;
before(async () => { chrome = await launch(); });
after(async () => { await chrome?.close(); });

const rows = async (page) => {
  await settle(page);
  return page.$$eval("#legend tbody tr", (trs) => trs.map((r) => ({ name: r.cells[0].textContent, down: r.classList.contains("down") })));
};

test("a pasted nginx upstream becomes the ring; marking a server down moves only its keys", async () => {
  const { page, problems, context } = await open(chrome.browser);
  await page.click("#import summary");
  await page.selectOption("#import-kind", "nginx");
  await page.click("#import-example");
  await page.click("#import-load");
  assert.deepEqual(await rows(page), [
    { name: "10.0.0.1:11211", down: false },
    { name: "10.0.0.2:11211", down: false },
    { name: "10.0.0.3:11211", down: true },
  ]);
  assert.match(await page.textContent("#last-change"), /^Loaded 3 servers from your nginx upstream block/);
  assert.match(await page.textContent("#summary"), /^3 nodes, nginx-consistent \(1 down\)/);

  await page.click("button[aria-label='Mark 10.0.0.1:11211 down']");
  await settle(page);
  const text = await page.textContent("#last-change");
  const moved = Number(text.match(/moved ([\d,]+) of 2,000 keys/)[1].replace(/,/g, ""));
  // Independently: the same config through the Ring API, owners before and after.
  const expected = await engine(page, (mod, config) => {
    const a = mod.Ring.fromNginxUpstream(config);
    const b = mod.Ring.fromNginxUpstream(config);
    b.setDown("10.0.0.1:11211", true);
    const names = a.nodes().map((n) => n.name);
    const before = a.keyOwners("key:", 2000), after = b.keyOwners("key:", 2000);
    let moved = 0, onlyFromDown = true;
    for (let k = 0; k < 2000; k++) {
      if (before[k] !== after[k]) {
        moved++;
        if (names[before[k]] !== "10.0.0.1:11211") onlyFromDown = false;
      }
    }
    return { moved, onlyFromDown, isDown: b.isDown("10.0.0.1:11211") };
  }, await page.evaluate(() => document.getElementById("import-text").value));
  assert.ok(expected.onlyFromDown && expected.isDown);
  assert.equal(moved, expected.moved);
  assert.ok(moved > 0);
  assert.equal((await rows(page))[0].down, true);
  // The link carries the down marks: reopening it shows the same rows.
  const other = await open(chrome.browser, {}, new URL(page.url()).hash);
  assert.deepEqual(await rows(other.page), await rows(page));
  await other.context.close();
  await page.screenshot({ path: join(SHOTS, "30-import-nginx.png"), fullPage: true });
  assert.deepEqual(problems, []);
  await context.close();
});

test("a malformed config names its line and changes nothing", async () => {
  const { page, problems, context } = await open(chrome.browser);
  const before = await rows(page);
  await page.click("#import summary");
  await page.selectOption("#import-kind", "haproxy");
  await page.fill("#import-text", "backend x\n    balance hdr(X-Key)\n    server\n");
  await page.click("#import-load");
  assert.match(await page.textContent("#import-error"), /^line 3: /);
  assert.deepEqual(await rows(page), before);
  assert.deepEqual(problems, []);
  await context.close();
});
