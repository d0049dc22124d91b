// A newcomer's first minute on the playground, at 1280 × 800 and on a 390 × 844 phone, light
// and dark: the readout of a change in three short lines with the rest a tap away; the keys
// a change moved marked, then faded so the ring reads again; the ring on screen while the
// node rows are used.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { launch, open, settle, engine, SHOTS } from "./browser.mjs";

let chrome;
before(async () => { chrome = await launch(); });
after(async () => { await chrome?.close(); });

const AXE = new globalThis.URL("./node_modules/axe-core/axe.min.js", import.meta.url).pathname;
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
      await page.addScriptTag({ path: AXE });
      const axe = await page.evaluate(() => window.axe.run("#readout", { resultTypes: ["violations"] }));
      assert.deepEqual(axe.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(" ")}`)), []);
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
