// Hot keys: with Zipf popularity the legend shows each node's share of requests beside its
// share of keys, computed here independently from the Ring API's key owners.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch, open, engine, settle } from "./browser.mjs";

let chrome;
before(async () => { chrome = await launch(); });
after(async () => { await chrome?.close(); });

test("Zipf popularity: each node's traffic share equals the popularity of the keys it owns", async () => {
  const { page, problems, context } = await open(chrome.browser);
  await page.fill("#zipf", "1.2");
  await page.press("#zipf", "Enter");
  await page.dispatchEvent("#zipf", "change");
  await settle(page);
  const shown = await page.$$eval("#legend tbody tr", (rows) => rows.map((r) => Number(r.cells[6].textContent.replace("%", ""))));
  const expected = await engine(page, (mod) => {
    const r = new mod.Ring({ vnodes: 32, nodes: ["node-1", "node-2", "node-3", "node-4", "node-5"] });
    const owners = r.keyOwners("key:", 2000);
    const share = new Array(5).fill(0);
    let total = 0;
    for (let k = 0; k < 2000; k++) {
      const w = Math.pow(k + 1, -1.2);
      share[owners[k]] += w;
      total += w;
    }
    return share.map((s) => (100 * s) / total);
  });
  shown.forEach((s, i) => assert.ok(Math.abs(s - expected[i]) <= 0.05 + 1e-9, `node ${i + 1}: page ${s}%, computed ${expected[i]}%`));
  assert.match(await page.textContent("#summary"), /With Zipf s = 1\.2, the hottest node/);
  assert.match(page.url(), /&z=1\.2/);
  await page.click("#add-node");
  await settle(page);
  assert.match(await page.textContent("#last-change"), /keys \([\d.]+%\), [\d.]+% of the requests/);
  assert.deepEqual(problems, []);
  await context.close();
});
