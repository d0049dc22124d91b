// rollout.html: linked from the playground; a change's timeline (chart and scrubber) for the
// system's own stale rule, in words; the numbers are the engine's (k of C stale clients ⇒ the
// moved share × k/C); the strategies and the plan for every algorithm; screenshots at 1280×800
// and 390×844.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { launch, open, URL, SHOTS } from "./browser.mjs";

let chrome;
before(async () => { chrome = await launch(); });
after(async () => { await chrome?.close(); });

async function openRollout(viewport = { width: 1280, height: 800 }, query = "") {
  const context = await chrome.browser.newContext({ viewport, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const problems = [];
  page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
  page.on("pageerror", (e) => problems.push(e.message));
  page.on("response", (r) => r.status() >= 400 && problems.push(`HTTP ${r.status()}: ${r.url()}`));
  await page.goto(`${URL}rollout.html${query}`);
  await page.waitForSelector("body[data-ready='1']", { timeout: 20000 });
  return { page, problems, context };
}

test("the playground links to the rollout page", async () => {
  const { page, problems, context } = await open(chrome.browser);
  await page.click('a[href="rollout.html"]');
  await page.waitForSelector("body[data-ready='1']", { timeout: 20000 });
  assert.equal(await page.locator("h1").textContent(), "While the change spreads");
  assert.deepEqual(problems, []);
  await context.close();
});

test("Redis Cluster's timeline: MOVED hops, a scrubbable instant, the rule in words", async () => {
  const { page, problems, context } = await openRollout();
  assert.match(await page.locator("#rule-text").textContent(), /MOVED/);
  assert.match(await page.locator("#system-name").textContent(), /redirect/);
  assert.match(await page.locator("#exactness").textContent(), /^Exact/);
  assert.equal(await page.locator("#chart path").count(), 5);
  // No refresh on redirect and 20 clients spread evenly over 1 s: at 500 ms, 10 are stale.
  await page.selectOption("select[name=lag]", "even");
  const shares = await page.evaluate(async () => {
    const { Ring } = await import("./pkg/ringlab.js");
    const names = Array.from({ length: 5 }, (_, i) => `10.0.0.${i + 1}:6379`);
    const before = new Ring({ algorithm: "redis-cluster", nodes: names });
    const after = before.clone();
    after.add("10.0.0.6:6379");
    const t = Ring.propagate(before, after, { clients: 20, lag: { kind: "even", ms: 1000 }, refreshOnRedirect: false, durationMs: 1000, stepMs: 250 });
    return { moved: t.moved, misrouted: t.misrouted, hops: t.hops, times: t.times };
  });
  assert.deepEqual(shares.times, [0, 250, 500, 750, 1000]);
  for (const [i, stale] of [[0, 20], [1, 15], [2, 10], [3, 5], [4, 0]]) {
    assert.ok(Math.abs(shares.misrouted[i] - (shares.moved * stale) / 20) < 1e-12, `${i}`);
    assert.equal(shares.hops[i], shares.misrouted[i]);
  }
  // Scrubbing moves the cursor and changes the instant's numbers.
  const read = () => page.locator("#instant tr[data-counter=misrouted] td.num").first().textContent();
  await page.locator("#scrub").fill("0");
  const atZero = await read();
  const cursorAtZero = await page.locator("#cursor").getAttribute("x1");
  await page.locator("#scrub").fill("399");
  assert.notEqual(await read(), atZero);
  assert.notEqual(await page.locator("#cursor").getAttribute("x1"), cursorAtZero);
  assert.match(await page.locator("#scrub-time").textContent(), /ms after the change/);
  assert.equal(await page.locator("#strategies tbody tr").count(), 6);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(SHOTS, "rollout-1280.png"), fullPage: false });
  await page.locator("#timeline-title").scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(SHOTS, "rollout-1280-timeline.png"), fullPage: false });
  assert.deepEqual(problems, []);
  await context.close();
});

test("every algorithm gets a timeline, a rule and a plan", async () => {
  const { page, problems, context } = await openRollout();
  const names = await page.locator("select[name=algorithm] option").evaluateAll((o) => o.map((x) => x.value));
  assert.ok(names.length >= 20, `${names.length}`);
  for (const name of names) {
    await page.selectOption("select[name=algorithm]", name);
    assert.equal(await page.locator("#error").textContent(), "", name);
    assert.ok((await page.locator("#rule-text").textContent()).length > 20, name);
    assert.ok((await page.locator("#plan tbody tr").count()) >= 3, name);
    assert.equal(await page.locator("#strategies tbody tr").count(), 6, name);
  }
  // Jump hash has no arcs: said so, on a key sample.
  await page.selectOption("select[name=algorithm]", "jump");
  assert.match(await page.locator("#exactness").textContent(), /sample keys/);
  // Refresh on a redirect (Redis Cluster) converges; client-side hashing, only when told,
  // never does (memcached clients get no redirect).
  await page.selectOption("select[name=algorithm]", "redis-cluster");
  await page.selectOption("select[name=lag]", "on-redirect");
  assert.match(await page.locator("#converged").textContent(), /converges at \d/);
  await page.selectOption("select[name=algorithm]", "libketama");
  await page.selectOption("select[name=lag]", "on-redirect");
  assert.match(await page.locator("#converged").textContent(), /never/);
  assert.deepEqual(problems, []);
  await context.close();
});

test("the plan stages Redis slots in batches that add up, and sizing answers", async () => {
  const { page, problems, context } = await openRollout({ width: 390, height: 844 });
  assert.match(await page.locator("#staging").textContent(), /slots in batches/);
  await page.fill("#plan-form input[name=steps]", "3");
  const rows = await page.locator("#plan tbody tr").count();
  assert.equal(rows, 3 + 2);
  const total = await page.locator("#plan tr.total td").nth(1).textContent();
  const once = await page.locator("#plan tr.once td").nth(1).textContent();
  assert.equal(total, once, "disjoint slot batches move what the change at once moves");
  assert.match(await page.locator("#sizing").textContent(), /vnodes per node/);
  assert.equal(await page.locator("#defaults tbody tr").count(), 4);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(SHOTS, "rollout-390.png"), fullPage: false });
  await page.locator("#plan").scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(SHOTS, "rollout-390-plan.png"), fullPage: false });
  // No horizontal scroll on a phone.
  const wide = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(wide <= 0, `${wide}px wider than the screen`);
  assert.deepEqual(problems, []);
  await context.close();
});
