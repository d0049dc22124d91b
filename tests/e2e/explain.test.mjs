// "Explain a key" in the playground: the list the page shows is the engine's chain at the same
// state (a Session opened from the page's own link), its owner is what a Ring of the same
// nodes `locate`s, hovering a step marks the ring, the side-by-side form marks the first step
// where two clients part, and axe finds nothing, in light and dark, at 1280×800 and 390×844.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { launch, open, settle, engine, canvasStats, SHOTS } from "./browser.mjs";

const AXE = join(dirname(fileURLToPath(import.meta.url)), "node_modules/axe-core/axe.min.js");

let chrome;
before(async () => { chrome = await launch(); });
after(async () => { await chrome?.close(); });

async function violations(page) {
  await page.addScriptTag({ path: AXE });
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ["violations"] }));
  return result.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(" ")}`));
}

// The page's chains as [{heading, steps: [{label, value, parts}]}].
const shown = (page) =>
  page.$$eval("#explain-out .explain-chain", (cs) => cs.map((c) => ({
    heading: c.querySelector("h4").textContent,
    steps: [...c.querySelectorAll("li")].map((li) => ({
      label: li.querySelector(".explain-label").textContent,
      value: li.querySelector(".explain-value").textContent,
      parts: li.classList.contains("parts"),
    })),
  })));

// The engine's chain at the page's state, from a Session of the page's link, and `locate` on a
// Ring of the same nodes and algorithm.
const reference = (page, key, withAlgorithm) =>
  engine(page, (mod, { key, withAlgorithm, hash }) => {
    const session = mod.Session.fromLink(hash);
    const chain = withAlgorithm ? session.explainPair(withAlgorithm, key) : session.explain(key);
    const nodes = session.nodes().map((n) => ({ name: n.name, weight: n.weight }));
    const algorithm = withAlgorithm ? chain.a.algorithm : chain.algorithm;
    let located = null;
    try {
      located = new mod.Ring({ algorithm, nodes }).locate(key);
    } catch {}
    return { chain, located };
  }, { key, withAlgorithm, hash: new URL(page.url()).hash });

for (const [scheme, viewport] of [["light", { width: 1280, height: 800 }], ["dark", { width: 390, height: 844 }]]) {
  test(`explain a key: the engine's chain, the owner locate gives, the pair (${scheme}, ${viewport.width}px)`, async () => {
    const POOL = ["10.0.0.1:11211", "10.0.0.2:11211", "10.0.0.3:11211"];
    const link = `#a=libketama&${POOL.map((n) => `n=${encodeURIComponent(n)}`).join("&")}`;
    const { page, problems, context } = await open(chrome.browser, { colorScheme: scheme, viewport }, link);
    await page.click("#explain summary");
    for (const key of ["user:42", "session:9f2c", "cart:1001"]) {
      await page.fill("#explain-key", key);
      await page.press("#explain-key", "Enter");
      await settle(page);
      const [chain] = await shown(page);
      const { chain: ref, located } = await reference(page, key);
      assert.deepEqual(chain.steps.map((s) => [s.label, s.value]), ref.steps.map((s) => [s.label, s.value]), key);
      assert.equal(ref.owner, located, `${key}: the chain's owner is locate's`);
      assert.ok(chain.steps.some((s) => /^10\.0\.0\.\d:11211-\d+ \(MD5 word \d\)$/.test(s.value)), `${key}: a ketama label`);
      assert.match(await page.textContent("#explain-out .explain-summary"), new RegExp(`to ${located.replaceAll(".", "\\.")}`));
    }
    // Hovering (and focusing) a step with a place marks the ring; leaving it clears the mark.
    // The pointer leaves the page first: the list may have been drawn under it (a phone's
    // layout puts it below the summary just clicked), and a hovered step marks the ring too.
    await page.mouse.move(-1, -1);
    const plain = (await canvasStats(page)).hash;
    await page.focus("#explain-out li.kind-point[tabindex]");
    assert.notEqual((await canvasStats(page)).hash, plain, "a focused step marks the ring");
    await page.screenshot({ path: `${SHOTS}/explain-focused-${viewport.width}-${scheme}.png`, fullPage: false });
    await page.focus("#explain-key");
    assert.equal((await canvasStats(page)).hash, plain, "and the mark goes with the focus");
    await page.screenshot({ path: `${SHOTS}/explain-${viewport.width}-${scheme}.png`, fullPage: false });
    // Side by side with another client: the first differing step is marked where the engine says.
    await page.selectOption("#explain-with", "libmemcached-weighted");
    await settle(page);
    const pair = await shown(page);
    const { chain: refPair } = await reference(page, "cart:1001", "libmemcached-weighted");
    assert.equal(pair.length, 2);
    assert.deepEqual(pair[1].steps.map((s) => s.value), refPair.b.steps.map((s) => s.value));
    assert.equal(typeof refPair.partsAt, "number");
    for (const column of pair) {
      assert.deepEqual(column.steps.map((s) => s.parts), column.steps.map((_, i) => i === refPair.partsAt));
    }
    // The second chain's steps mark the ring too (dashed, in its own key space), and the step
    // where they part marks both chains' places: three different drawings.
    await page.mouse.move(-1, -1);
    const unmarked = (await canvasStats(page)).hash;
    await page.focus(".explain-chain:nth-child(1) li[tabindex]:not(.parts)");
    const first = (await canvasStats(page)).hash;
    await page.focus(".explain-chain:nth-child(2) li[tabindex]:not(.parts)");
    const second = (await canvasStats(page)).hash;
    await page.focus(".explain-chain:nth-child(2) li.parts[tabindex]");
    const both = (await canvasStats(page)).hash;
    assert.equal(new Set([unmarked, first, second, both]).size, 4, "unmarked, A's step, B's step, the parting step");
    await page.screenshot({ path: `${SHOTS}/explain-pair-marked-${viewport.width}-${scheme}.png`, fullPage: false });
    await page.focus("#explain-key");
    assert.equal((await canvasStats(page)).hash, unmarked);
    await page.locator("#explain").scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/explain-pair-${viewport.width}-${scheme}.png`, fullPage: false });
    await page.selectOption("#explain-with", "");
    await settle(page);
    assert.deepEqual(await violations(page), []);
    assert.deepEqual(problems, []);
    await context.close();
  });
}

test("explain a key on ringlab's ring: the walk past a down node and the replicas", async () => {
  const { page, problems, context } = await open(chrome.browser, {});
  await page.click("#explain summary");
  await page.fill("#explain-key", "user:7");
  await page.press("#explain-key", "Enter");
  await settle(page);
  const { chain: ref } = await reference(page, "user:7");
  // Mark the owner down from the table, then read the chain again.
  const owner = ref.owner;
  const row = page.locator("#legend tbody tr", { hasText: owner });
  await row.getByRole("button", { name: "Down" }).click();
  await settle(page);
  const [chain] = await shown(page);
  const { chain: after } = await reference(page, "user:7");
  assert.deepEqual(chain.steps.map((s) => s.value), after.steps.map((s) => s.value));
  assert.ok(after.steps.some((s) => s.kind === "down" || s.kind === "candidate"), "the walk names the down node");
  assert.notEqual(after.owner, owner);
  assert.ok(after.replicas.length >= 1 && !after.replicas.includes(owner));
  assert.deepEqual(problems, []);
  await context.close();
});
