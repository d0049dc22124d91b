// What engineers come to check: a change's cost in their own units, their own keys, and a
// node going down in their own Redis cluster, each against figures computed here from the
// Ring API.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch, open, engine, settle } from "./browser.mjs";

let chrome;
before(async () => { chrome = await launch(); });
after(async () => { await chrome?.close(); });

const NAMES = ["node-1", "node-2", "node-3", "node-4", "node-5"];

test("a join reports items, bytes and misses beside hash % N, and the link keeps the workload", async () => {
  const { page, problems, context } = await open(chrome.browser);
  await page.click("#costs summary");
  for (const [id, v] of [["work-items", "10000000"], ["work-bytes", "1000"], ["work-rate", "5000"]]) {
    await page.fill(`#${id}`, v);
    await page.dispatchEvent(`#${id}`, "change");
  }
  await page.click("#add-node");
  await settle(page);
  const text = await page.textContent("#last-change");
  const share = await engine(page, (mod, names) => new mod.Ring({ vnodes: 32, nodes: [...names, "node-6"] }).nodes()[5].share, NAMES);
  const items = Math.round(1e7 * share).toLocaleString("en-US");
  assert.ok(text.includes(`Cost: ${items} items`), text);
  assert.ok(text.includes("The cost is for 10,000,000 items of 1.0 KB at 5,000 requests/s."), text);
  // 5 → 6 nodes under hash % N: h % 5 == h % 6 only when h mod 30 < 5, so 25/30 of the items move.
  assert.ok(text.includes("hash % N would have moved 83.3%: 8,333,333 items (8.3 GB)"), text);
  assert.match(page.url(), /&wi=10000000&wb=1000&wr=5000/);
  const other = await open(chrome.browser, {}, new URL(page.url()).hash);
  assert.equal(await other.page.inputValue("#work-items"), "10000000");
  await other.context.close();
  assert.deepEqual(problems, []);
  await context.close();
});

test("your own keys: per-node counts and what a removal moves are counted on them", async () => {
  const { page, problems, context } = await open(chrome.browser);
  await page.click("#own-keys summary");
  const keys = Array.from({ length: 300 }, (_, i) => `user:${i * 7}`);
  await page.fill("#keys-text", keys.join("\n"));
  await page.click("#keys-load");
  await settle(page);
  assert.match(await page.textContent("#keys-status"), /^Read one key a line: 300 distinct keys, 300 lines\. Using them now/);
  const shown = await page.$$eval("#legend tbody tr", (rows) => rows.map((r) => Number(r.cells[5].textContent.replace(/,/g, ""))));
  const expected = await engine(page, (mod, [names, keys]) => {
    const r = new mod.Ring({ vnodes: 32, nodes: names });
    const counts = new Array(names.length).fill(0);
    for (const k of keys) counts[names.indexOf(r.locate(k))]++;
    const after = new mod.Ring({ vnodes: 32, nodes: names.filter((n) => n !== "node-2") });
    const moved = keys.filter((k) => r.locate(k) !== after.locate(k)).length;
    return { counts, moved };
  }, [NAMES, keys]);
  assert.deepEqual(shown, expected.counts);
  await page.click("button[aria-label='Remove node-2']");
  await settle(page);
  assert.match(await page.textContent("#last-change"), new RegExp(`^Removed node-2: moved ${expected.moved} of 300 keys`));
  await page.fill("#keys-text", "key,count\n\"unterminated,1\n");
  await page.click("#keys-load");
  assert.match(await page.textContent("#keys-error"), /^line 2: /);
  assert.deepEqual(problems, []);
  await context.close();
});

test("a pasted redis-cli cluster nodes: a master going down loses exactly its slots' keys", async () => {
  const { page, problems, context } = await open(chrome.browser);
  await page.click("#import summary");
  await page.selectOption("#import-kind", "redis");
  await page.click("#import-example");
  await page.click("#import-load");
  await settle(page);
  await page.click("button[aria-label='Mark 10.0.0.1:6379 down']");
  await settle(page);
  const text = await page.textContent("#last-change");
  // Independently: keys whose slot (Redis's CRC16 rule) is in 10.0.0.1's range 0-5460.
  const lost = await engine(page, (mod) => {
    let n = 0;
    for (let k = 0; k < 2000; k++) if (mod.redisKeySlot(`key:${k}`) <= 5460) n++;
    return n;
  });
  assert.ok(text.includes(`${lost.toLocaleString("en-US")} keys lost their owner`), text);
  assert.match(text, /is promoted/);
  assert.deepEqual(problems, []);
  await context.close();
});
