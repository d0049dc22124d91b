// rollout.html: linked from the playground; a change's timeline (chart and scrubber) for the
// system's own stale rule, in words; the numbers are the engine's (k of C stale clients ⇒ the
// moved share × k/C); the strategies and the plan for every algorithm; screenshots at 1280×800
// and 390×844.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { launch, open, URL, SHOTS, axeViolations } from "./browser.mjs";

let chrome;
before(async () => { chrome = await launch(); });
after(async () => { await chrome?.close(); });

async function openRollout(viewport = { width: 1280, height: 800 }, query = "", colorScheme = "light") {
  const context = await chrome.browser.newContext({ viewport, deviceScaleFactor: 1, colorScheme });
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
  assert.match(await page.locator("#system-name").textContent(), /Redis Cluster/);
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
  assert.match(await page.locator("#converged").textContent(), /^Every client uses the new ring [\d.]+ m?s after the change/);
  await page.selectOption("select[name=algorithm]", "libketama");
  await page.selectOption("select[name=lag]", "on-redirect");
  assert.match(await page.locator("#converged").textContent(), /^Some clients never use the new ring, within the duration or after: they switch only when a server redirects them/);
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

// ---- #58: a picture first, a timeline that can be read, plain words, then the settings.

const SIZES = [["1280", { width: 1280, height: 800 }], ["390", { width: 390, height: 844 }]];

// Pixels of a canvas that are drawn (not transparent), and those in exactly `rgb`.
async function pixels(page, id, rgb) {
  return page.evaluate(([id, rgb]) => {
    const c = document.getElementById(id);
    const { data } = c.getContext("2d").getImageData(0, 0, c.width, c.height);
    let drawn = 0, match = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (data[i + 3] > 0) drawn++;
      if (rgb && data[i] === rgb[0] && data[i + 1] === rgb[1] && data[i + 2] === rgb[2] && data[i + 3] === 255) match++;
    }
    return { drawn, match };
  }, [id, rgb]);
}

// The page's `--moved` colour as [r, g, b].
const movedColour = (page) => page.evaluate(() => {
  const probe = document.createElement("div");
  probe.style.color = getComputedStyle(document.documentElement).getPropertyValue("--moved");
  document.body.append(probe);
  const m = getComputedStyle(probe).color.match(/\d+/g).map(Number);
  probe.remove();
  return m.slice(0, 3);
});

for (const [size, viewport] of SIZES) {
  for (const scheme of ["light", "dark"]) {
    test(`${size}, ${scheme}: words, the rings before and after, the clients, a timeline with axes and a legend, then the settings`, async () => {
      const { page, problems, context } = await openRollout(viewport, "", scheme);
      // In this order down the page: the lead in plain words, the picture, the timeline, the
      // settings (each with a line saying what it does).
      const top = (sel) => page.locator(sel).evaluate((e) => e.getBoundingClientRect().top + window.scrollY);
      const order = [await top("#lead"), await top("#ring-before"), await top("#clients"), await top("#chart"), await top("#legend"), await top("#change")];
      assert.deepEqual([...order].sort((a, b) => a - b), order, `${order}`);
      assert.match(await page.locator("#lead").textContent(), /they do not all\s+switch to the new one at once/);
      const lead = await page.locator("#lead").textContent();
      assert.doesNotMatch(lead, /epoch|stale|MOVED/, "no jargon in the lead");
      const hints = await page.locator("#change .input small").count();
      assert.equal(hints, await page.locator("#change .input").count());
      assert.ok(hints >= 9, `${hints}`);

      // The ring before and after: both drawn by the playground's view, and only the after
      // ring has the moved arcs marked (in the page's moved colour) outside it.
      const moved = await movedColour(page);
      const before = await pixels(page, "ring-before", moved);
      const after = await pixels(page, "ring-after", moved);
      assert.ok(before.drawn > 2000 && after.drawn > 2000, `${before.drawn} ${after.drawn}`);
      // (A ring of few points rings each point in the text colour, which the light theme's
      // moved colour is too: the marks are what the after ring has more of.)
      assert.ok(after.match >= before.match + 100, `moved-colour pixels: before ${before.match}, after ${after.match}`);
      assert.match(await page.locator("#ring-before").getAttribute("aria-label"), /^Before: /);
      assert.match(await page.locator("#ring-after").getAttribute("aria-label"), /^After: .*moved/);
      assert.match(await page.locator("#moved-words").textContent(), /moved [\d,]+ of [\d,]+ keys/);
      const bw = await page.locator("#ring-before").boundingBox();
      const aw = await page.locator("#ring-after").boundingBox();
      assert.ok(bw.width >= 150 && Math.abs(aw.y - bw.y) < 1, "side by side, big enough to read");

      // The clients: one dot each, filled once on the new ring; the time moves them. 20
      // clients spread evenly over 1 s (and not switching when redirected): none switched at
      // 0, half at 500 ms, all at 1 s.
      await page.uncheck("input[name=refresh]");
      await page.locator("#scrub").fill("0");
      assert.match(await page.locator("#clients-words").textContent(), /^0 ms after the change: 0 of 20 clients use the new ring/);
      await page.locator("#scrub").fill("200"); // 1 s: the last client switches then
      assert.match(await page.locator("#clients-words").textContent(), /^1,000 ms after the change: 20 of 20 clients use the new ring/);
      await page.locator("#scrub").fill("100"); // 500 ms: half
      assert.match(await page.locator("#clients-words").textContent(), /^500 ms after the change: 10 of 20 clients use the new ring; 50\.00% of requests/);
      assert.ok((await pixels(page, "clients")).drawn > 100);

      // The timeline: axes titled with units, ticks, a legend entry per series, each series
      // a colour and a dash of its own.
      assert.equal(await page.locator("#x-title").textContent(), "Time after the change (ms)");
      assert.equal(await page.locator("#y-title").textContent(), "Share of all requests (%)");
      const ticks = await page.locator("#chart .tick").allTextContents();
      assert.ok(ticks.filter((t) => t.endsWith("%")).length >= 3, `${ticks}`);
      assert.ok(ticks.includes("0") && ticks.includes("1,000") && ticks.includes("2,000"), `${ticks}`);
      const legend = await page.locator("#legend li").allTextContents();
      assert.deepEqual(legend.map((t) => t.replace(/ \(.*/, "")), ["Misrouted requests", "Extra hops", "Misses", "Stale reads", "Inconsistent writes"]);
      // Redis Cluster: each misrouted request is one hop, the same line; the legend says so.
      assert.match(legend[1], /same values as misrouted requests/);
      const looks = await page.locator("#chart path.series").evaluateAll((ps) => ps.map((p) => `${getComputedStyle(p).stroke}|${p.getAttribute("stroke-dasharray")}`));
      assert.equal(looks.length, 5);
      assert.equal(new Set(looks.map((l) => l.split("|")[0])).size, 5, `${looks}`);
      assert.equal(new Set(looks.map((l) => l.split("|")[1])).size, 5, `${looks}`);
      assert.match(await page.locator("#converged").textContent(), /^Every client uses the new ring 1 s after the change\./);

      // The phone: no sideways scroll; nothing for axe.
      const wide = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(wide <= 0, `${wide}px wider than the screen`);
      assert.deepEqual(await axeViolations(page, "body"), []);
      await page.locator("#scrub").fill("60");
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: join(SHOTS, `rollout-${size}-${scheme}.png`), fullPage: false });
      await page.locator("#timeline-title").evaluate((e) => e.scrollIntoView());
      await page.screenshot({ path: join(SHOTS, `rollout-${size}-${scheme}-timeline.png`), fullPage: false });
      await page.locator("#settings-title").evaluate((e) => e.scrollIntoView());
      await page.screenshot({ path: join(SHOTS, `rollout-${size}-${scheme}-settings.png`), fullPage: false });
      assert.deepEqual(problems, []);
      await context.close();
    });
  }
}

test("no 'never' as a time and no error codes in the words, for the inputs that showed them", async () => {
  const { page, problems, context } = await openRollout({ width: 390, height: 844 });
  const prose = () => page.evaluate(() => document.body.innerText);
  // Memcached clients that wait for a redirect never switch: a sentence says why.
  await page.selectOption("select[name=algorithm]", "libketama");
  await page.selectOption("select[name=lag]", "on-redirect");
  const text = await prose();
  assert.doesNotMatch(text, /at never|converges at/);
  assert.match(await page.locator("#converged").textContent(), /^Some clients never use the new ring, within the duration or after: they switch only when a server redirects them, and a client-side system sends no redirects\.$/);
  const cells = await page.locator("#strategies tbody td:last-child").allTextContents();
  assert.ok(!cells.includes("never"), `${cells}`);
  assert.ok(cells.includes("not every client"), `${cells}`);
  // A refused input: the engine's message in words, without its code in parentheses.
  for (const [name, value, words] of [["clients", "2.5", /clients must be a whole number/], ["ms", "-5", /a lag is milliseconds/], ["clients", "0", /at least one client/]]) {
    await page.selectOption("select[name=lag]", "even");
    await page.fill(`#change input[name=${name}]`, value);
    const error = await page.locator("#error").textContent();
    assert.match(error, words, `${name} = ${value}`);
    assert.doesNotMatch(error, /\((invalid|option|unknown|too)-[a-z-]+\)|\(error\)/, error);
    await page.fill(`#change input[name=${name}]`, name === "ms" ? "1000" : "20");
    assert.equal(await page.locator("#error").textContent(), "");
  }
  assert.doesNotMatch(await prose(), /\((invalid|option-out-of|unknown)-[a-z-]*\)/);
  assert.deepEqual(problems, []);
  await context.close();
});
