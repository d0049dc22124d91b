// A newcomer's first minute on the playground, at 1280 × 800 and on a 390 × 844 phone, light
// and dark: the readout of a change in three short lines with the rest a tap away; the keys
// a change moved marked, then faded so the ring reads again; the ring on screen while the
// node rows are used.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { launch, open, settle, engine, SHOTS, URL as SITE, axeViolations } from "./browser.mjs";

let chrome;
before(async () => { chrome = await launch(); });
after(async () => { await chrome?.close(); });

const SIZES = [[1280, 800], [390, 844]];

for (const [width, height] of SIZES) {
  for (const colorScheme of ["light", "dark"]) {
    const name = `${width} × ${height}, ${colorScheme}`;

    test(`the readout: moved, its cost, hash % N, a line each; the rest folded (${name})`, async () => {
      const { page, problems, context } = await open(chrome.browser, { viewport: { width, height }, colorScheme });
      // A workload, so the change has a cost.
      await page.click("#costs summary");
      await page.click("#work-example");
      await settle(page);
      const link = await page.evaluate(() => location.hash);
      await page.click("#add-node");
      await settle(page);
      const shown = await page.evaluate(() => {
        const box = document.getElementById("last-change");
        const visible = (el) => el.checkVisibility();
        return {
          lines: [...box.querySelectorAll(":scope > .line")].map((l) => l.textContent),
          folded: [...box.querySelectorAll(".why .line")].map((l) => ({ text: l.textContent, visible: visible(l) })),
          summary: box.querySelector(".why summary")?.textContent,
        };
      });
      // The same change on the same state, made by the engine alone.
      const t = await engine(page, (mod, link) => {
        const s = mod.Session.fromLink(link);
        try {
          return s.add("node-6", {}).lines;
        } finally {
          s.free();
        }
      }, link);
      assert.deepEqual(shown.lines, [t.moved, t.cost, t.modulo], "the engine's three lines, in order");
      assert.match(shown.lines[0], /^Added node-6: moved [\d,]+ of 2,000 keys \([\d.]+%\); exactly [\d.]+% of the key space\.$/);
      assert.match(shown.lines[1], /^Cost: [\d,]+ items \([\d.]+ [KMG]B\), [\d,]+ extra misses\/s until warm\.$/);
      assert.match(shown.lines[2], /^hash % N would have moved 83\.3%: /);
      for (const line of shown.lines) assert.ok(line.length <= 110, `a short line: ${line}`);
      assert.deepEqual(shown.folded.map((f) => f.text), t.detail);
      assert.ok(shown.folded.every((f) => !f.visible), "the detail is folded");
      assert.ok(t.detail.some((d) => /^The least any placement could have moved: [\d.]+% \(ideal\)\.$/.test(d)), t.detail.join(" | "));
      await page.click("#last-change .why summary");
      assert.ok(await page.locator("#last-change .why .line").first().isVisible(), "one tap opens it");
      assert.deepEqual(await axeViolations(page, "#readout"), []);
      await page.locator("#readout").screenshot({ path: join(SHOTS, `readout-${width}-${colorScheme}.png`) });
      assert.deepEqual(problems, []);
      await context.close();
    });
  }

  test(`the keys a change moved are marked, then fade so the ring reads again (${width} × ${height})`, async () => {
    const { page, problems, context } = await open(chrome.browser, { viewport: { width, height } });
    const still = () => page.evaluate(() => document.getElementById("ring").toDataURL());
    const plain = await still();
    // vnodes 32 → 150: most sample keys change owner.
    await page.fill("#vnodes-number", "150");
    await page.press("#vnodes-number", "Enter");
    await settle(page);
    await page.waitForFunction(() => !window.__ringlab.view.playing);
    const marked = await page.evaluate(() => ({ alpha: window.__ringlab.view.moversAlpha, movers: window.__ringlab.view.change.movers.index.length }));
    assert.ok(marked.alpha === 1 && marked.movers > 1000, `just after the change its ${marked.movers} keys are marked`);
    const withMarks = await still();
    await page.waitForFunction(() => window.__ringlab.view.moversAlpha === 0, null, { timeout: 8000 });
    await page.waitForTimeout(100);
    const faded = await still();
    // The faded picture is the new ring with only the moved arcs' marks outside the band:
    // drawn again without the movers, it is the same.
    const redrawn = await page.evaluate(() => {
      const v = window.__ringlab.view;
      v.drawFrame({ moved: v.change.moved, t: 1 });
      return document.getElementById("ring").toDataURL();
    });
    assert.notEqual(withMarks, faded, "the marks went");
    assert.equal(faded, redrawn, "nothing of the moved keys' marks is left");
    assert.notEqual(faded, plain, "the ring is the new one");
    assert.deepEqual(problems, []);
    await context.close();
  });
}

// An engineer's pasted Redis Cluster: the controls follow it (a new node named as its nodes
// are, the hash it really uses, no vnodes it has not got), and "Start over" goes back.
for (const [width, height] of SIZES) {
  test(`an imported pool's controls follow its system, and Start over goes back (${width} × ${height})`, async () => {
    const { page, problems, context } = await open(chrome.browser, { viewport: { width, height } });
    const defaultLink = await page.evaluate(() => location.hash);
    await page.click("#import summary");
    await page.selectOption("#import-kind", "redis");
    await page.click("#import-example");
    await page.click("#import-load");
    await settle(page);
    const names = await page.$$eval("#legend tbody tr td.name", (tds) => tds.map((td) => td.textContent));
    const placeholder = await page.getAttribute("#add-name", "placeholder");
    assert.match(placeholder, /^\d+\.\d+\.\d+\.\d+:\d+$/, `named as ${names.join(", ")} are`);
    assert.ok(!names.includes(placeholder), "a free name");
    const hash = await page.$eval("#hash", (s) => ({ text: s.selectedOptions[0]?.textContent, disabled: s.disabled }));
    assert.ok(hash.disabled && hash.text === "Redis Cluster's own hash", JSON.stringify(hash));
    assert.equal(await page.inputValue("#vnodes-number"), "", "no stale vnodes");
    await page.click("#add-node");
    await settle(page);
    assert.ok((await page.$$eval("#legend tbody tr td.name", (tds) => tds.map((td) => td.textContent))).includes(placeholder));
    // Back to the ring, whose menu offers the hashes again.
    await page.click("#start-over");
    await settle(page);
    assert.match(await page.textContent("#summary"), /^5 nodes, ring/);
    assert.equal(await page.evaluate(() => location.hash), defaultLink);
    assert.equal(await page.$eval("#hash", (s) => s.value), "xxh3");
    assert.equal(await page.inputValue("#vnodes-number"), "32");
    assert.equal(await page.getAttribute("#add-name", "placeholder"), "node-6");
    assert.deepEqual(problems, []);
    await context.close();
  });
}

// Following a key at the defaults (three replicas on neighbouring points): its numbered
// badges are laid out apart, each no further from its stop than it must be.
test("a followed key's replica badges are laid out, not stacked", async () => {
  const { page, problems, context } = await open(chrome.browser, { viewport: { width: 1280, height: 800 } });
  await page.selectOption("#replicas", "3");
  await settle(page);
  for (const key of ["user:42", "user:7", "key:1", "session:abc"]) {
    await page.fill("#follow-key", key);
    await page.press("#follow-key", "Enter");
    await settle(page);
    const placed = await page.evaluate(() => {
      const v = window.__ringlab.view;
      const g = v.geometry();
      const R = g.r + g.band / 2 + 12;
      const at = (f) => [g.cx + Math.cos(f * 2 * Math.PI - Math.PI / 2) * R, g.cy + Math.sin(f * 2 * Math.PI - Math.PI / 2) * R];
      return { badges: v.badgePlaces(v.walk).map(at), stops: v.walk.stops.map((s) => at(s.fraction)) };
    });
    assert.equal(placed.badges.length, 3, key);
    for (let i = 0; i < 3; i++) {
      for (let j = i + 1; j < 3; j++) {
        const d = Math.hypot(placed.badges[i][0] - placed.badges[j][0], placed.badges[i][1] - placed.badges[j][1]);
        assert.ok(d >= 18, `${key}: badges ${i + 1} and ${j + 1} are ${d.toFixed(1)} px apart`);
      }
      const off = Math.hypot(placed.badges[i][0] - placed.stops[i][0], placed.badges[i][1] - placed.stops[i][1]);
      assert.ok(off <= 21 * (i + 1) + 1, `${key}: badge ${i + 1} stays by its stop (${off.toFixed(1)} px)`);
    }
  }
  assert.deepEqual(problems, []);
  await context.close();
});

// While any node row is on screen, so is the whole ring: scrolled by hand through the page
// after a change, drawers closed (the panel at its shortest) and with one open.
for (const [width, height] of SIZES) {
  test(`the ring stays whole on screen while the node rows are (${width} × ${height})`, async () => {
    const { page, problems, context } = await open(chrome.browser, { viewport: { width, height } });
    await page.click("#add-node");
    await settle(page);
    for (const drawer of [null, "#explain summary"]) {
      if (drawer) await page.click(drawer);
      const bad = [];
      for (let y = 0; y <= 2400; y += 40) {
        const at = await page.evaluate((y) => {
          window.scrollTo(0, y);
          const ring = document.getElementById("ring").getBoundingClientRect();
          const rows = [...document.querySelectorAll("#legend tbody tr")].map((r) => r.getBoundingClientRect());
          return { y: scrollY, top: ring.top, bottom: ring.bottom, rows: rows.some((r) => r.top >= 0 && r.bottom <= innerHeight) };
        }, y);
        if (at.rows && (at.top < -1 || at.bottom > height + 1)) bad.push(`${at.y}: ring ${Math.round(at.top)}–${Math.round(at.bottom)}`);
      }
      assert.deepEqual(bad, [], `${drawer ?? "drawers closed"}: scrolled to these, a node row in view, the ring was not`);
    }
    assert.deepEqual(problems, []);
    await context.close();
  });
}

// The tour on a phone: each Next lands on the step's title, not the page's header, with its
// figure starting on screen; Previous and Next stay on screen while the step is read.
test("the tour on a phone: Next lands on the step, and stays at hand", async () => {
  const context = await chrome.browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const problems = [];
  page.on("pageerror", (e) => problems.push(e.message));
  await page.goto(`${SITE}learn.html`);
  await page.waitForSelector("#step-1:not([hidden]) hash-ring");
  for (let step = 2; step <= 10; step++) {
    await page.click("#next");
    await page.waitForFunction((n) => !document.getElementById(`step-${n}`).hidden, step);
    const at = await page.evaluate((n) => {
      const box = (el) => el.getBoundingClientRect();
      const s = document.getElementById(`step-${n}`);
      return { title: box(s.querySelector("h2")).top, figure: box(s.querySelector("hash-ring, .figures")).top, next: box(document.getElementById("next")) };
    }, step);
    assert.ok(at.title >= -1 && at.title < 60, `step ${step}: its title at ${Math.round(at.title)} px`);
    assert.ok(at.figure < 844 - 100, `step ${step}: its figure begins on screen (${Math.round(at.figure)})`);
    assert.ok(at.next.top >= 0 && at.next.bottom <= 844, `step ${step}: Next on screen (${Math.round(at.next.top)})`);
    // Read on to the step's end: Next is still there.
    await page.evaluate((n) => document.getElementById(`step-${n}`).querySelector(".text").lastElementChild.scrollIntoView({ block: "center" }), step);
    const next = await page.locator("#next").boundingBox();
    assert.ok(next.y >= 0 && next.y + next.height <= 844, `step ${step}: Next on screen while reading`);
  }
  assert.deepEqual(problems, []);
  await context.close();
});
