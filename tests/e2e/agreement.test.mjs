// "Do two clients agree?" in the playground: for a pool the real libraries were given
// (tests/real/fixtures), the page names for a key the server each real library chose, and
// the matrix covers every cache client that accepts the pool.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { launch, open, settle, SHOTS, axeViolations } from "./browser.mjs";

let chrome;
before(async () => { chrome = await launch(); });
after(async () => { await chrome?.close(); });

const fixture = (name) => JSON.parse(readFileSync(new URL(`../real/fixtures/${name}.json`, import.meta.url), "utf8"));
const POOL = ["127.0.0.1:11211", "127.0.0.1:11212", "127.0.0.2:11211"];
// The server a real library sent `key` to, on POOL.
function realOwner(name, algorithm, key) {
  const f = fixture(name);
  const c = f.cases.find((c) => c.algorithm === algorithm && JSON.stringify(c.nodes.map((n) => n[0])) === JSON.stringify(POOL));
  return c.nodes[c.owners[f.keys.indexOf(key)]][0];
}

test("two clients of one pool: the real libraries' answers, the reasons and the matrix", async () => {
  const link = `#a=dalli&${POOL.map((n) => `n=${encodeURIComponent(n)}`).join("&")}`;
  const { page, problems, context } = await open(chrome.browser, {}, link);
  await page.click("#agreement summary");
  await page.waitForSelector("#agree-with option", { state: "attached" });
  await settle(page);
  const choices = await page.$$eval("#agree-with option", (os) => os.map((o) => o.value));
  for (const client of ["pymemcache", "dalli", "spymemcached-ketama", "memjs", "npm-hashring"]) {
    assert.ok(choices.includes(client), `${client} is offered`);
  }
  await page.selectOption("#agree-with", "pymemcache");
  const keys = fixture("dalli").keys.filter((k) => /^[a-z:0-9]+$/.test(k)).slice(0, 40);
  let apart = 0;
  for (const key of keys) {
    await page.fill("#agree-key", key);
    await settle(page);
    const out = await page.textContent("#agree-key-out");
    const dalli = realOwner("dalli", "dalli", key);
    const pymemcache = realOwner("pymemcache", "pymemcache", key);
    assert.ok(out.includes(`to ${dalli};`) && out.includes(`to ${pymemcache}`), `${key}: ${out}`);
    if (dalli !== pymemcache) apart++;
  }
  assert.ok(apart > 0, "two unrelated hashes disagree on some of 40 keys");
  assert.match(await page.textContent("#agree-text"), /Dalli .* and pymemcache .* send \d+\.\d% of 10,000 keys to different servers/);
  const steps = await page.$$eval("#agree-reasons li strong", (s) => s.map((e) => e.textContent));
  assert.ok(steps.includes("key hash: ") && steps.includes("pick: "), steps.join(" "));
  // The matrix: a row per offered client, "–" on the diagonal.
  const rows = await page.$$eval("#agree-matrix tbody tr", (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
  assert.equal(rows.length, choices.length);
  rows.forEach((r, i) => assert.equal(r[i + 1], "–"));
  assert.deepEqual(problems, []);
  await context.close();
});


// The newcomer's question on the default page, at a laptop's and a phone's size, light and
// dark: two real clients to start (not ringlab's own ring), a matrix that fits its box, shaded
// by how far each two disagree, with the compatible groups named and marked.
for (const [width, height] of [[1280, 800], [390, 844]]) {
  for (const colorScheme of ["light", "dark"]) {
    test(`two clients agree or not, as an engineer asks it (${width} × ${height}, ${colorScheme})`, async () => {
      const { page, problems, context } = await open(chrome.browser, { viewport: { width, height }, colorScheme });
      await page.click("#agreement summary");
      // The drawer's toggle event, which fills it, comes in a task of its own.
      await page.waitForSelector("#agree-from option", { state: "attached" });
      await settle(page);
      const widths = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
      assert.ok(widths[0] <= widths[1], `the page stays ${widths[1]} px wide, not ${widths[0]}`);
      const box = await page.locator("#agree-matrix").evaluate((t) => t.parentElement.getBoundingClientRect().right);
      assert.ok(box <= width, `the matrix scrolls in its box (right edge ${box})`);
      const [from, with_] = [await page.inputValue("#agree-from"), await page.inputValue("#agree-with")];
      const clients = await page.$$eval("#agree-from option", (os) => os.map((o) => o.value));
      assert.ok(clients.includes(from) && clients.includes(with_) && from !== with_, `${from} and ${with_}`);
      assert.ok(!clients.includes("ring"), "only cache clients are offered");
      assert.match(await page.textContent("#agree-text"), /send \d+\.\d% of .* to different servers/);
      // The compatible groups, named and marked in the matrix.
      const groups = await page.$$eval("#agree-groups li", (lis) => lis.map((li) => li.textContent));
      assert.ok(groups.some((g) => g.includes("libketama (last.fm);") && g.includes("spymemcached, ketama (Java)")), groups.join("\n"));
      const cells = await page.$$eval("#agree-matrix td.shade", (tds) => tds.map((td) => ({ pair: td.dataset.pair, text: td.textContent, same: td.classList.contains("same"), bg: getComputedStyle(td).backgroundColor })));
      const ketama = cells.find((c) => c.pair === "libketama spymemcached-ketama");
      assert.ok(ketama.same && ketama.text === "0.0%", JSON.stringify(ketama));
      const far = cells.reduce((a, b) => (parseFloat(b.text) > parseFloat(a.text) ? b : a));
      assert.ok(parseFloat(far.text) > 50 && far.bg !== ketama.bg, `${JSON.stringify(far)} is shaded apart from ${JSON.stringify(ketama)}`);
      // A cell picks its pair.
      await page.click(`#agree-matrix td[data-pair="${far.pair}"]`);
      await settle(page);
      assert.deepEqual([await page.inputValue("#agree-from"), await page.inputValue("#agree-with")], far.pair.split(" "));
      assert.equal(await page.$$eval("#agree-matrix td.shown", (tds) => tds.length), 2);
      assert.deepEqual(await axeViolations(page, "#agreement"), []);
      await page.locator("#agreement").screenshot({ path: join(SHOTS, `agreement-${width}-${colorScheme}.png`) });
      assert.deepEqual(problems, []);
      await context.close();
    });
  }
}
