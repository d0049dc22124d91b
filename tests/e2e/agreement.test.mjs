// "Do two clients agree?" in the playground: for a pool the real libraries were given
// (tests/real/fixtures), the page names for a key the server each real library chose, and
// the matrix covers every cache client that accepts the pool.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { launch, open, settle } from "./browser.mjs";

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
