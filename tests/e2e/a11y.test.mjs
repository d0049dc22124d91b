// axe-core finds no violations on the playground, the docs page, a host page with the element
// and the iframe form, in light and in dark.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { launch, open, URL, SHOTS } from "./browser.mjs";
import { hostPage, openHost, events } from "./host.mjs";

const AXE = join(dirname(fileURLToPath(import.meta.url)), "node_modules/axe-core/axe.min.js");

let chrome;
before(async () => { chrome = await launch(); });
after(async () => { await chrome?.close(); });

// axe's violations as "rule: selector (message)" lines, for a readable failure.
async function violations(page) {
  await page.addScriptTag({ path: AXE });
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ["violations"] }));
  return result.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(" ")} (${n.failureSummary.split("\n").slice(1, 2).join("")})`));
}

const loadAll = (page) => page.evaluate(() => Promise.all([...document.querySelectorAll("hash-ring")].map((r) => r.reset())));

for (const scheme of ["light", "dark"]) {
  test(`the playground has no axe violations (${scheme})`, async () => {
    const { page, problems, context } = await open(chrome.browser, { colorScheme: scheme });
    await page.waitForFunction(() => document.querySelectorAll("#legend tbody tr").length > 0);
    assert.deepEqual(await violations(page), []);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test(`the docs page has no axe violations (${scheme})`, async () => {
    const context = await chrome.browser.newContext({ viewport: { width: 1200, height: 900 }, colorScheme: scheme });
    const page = await context.newPage();
    await page.goto(`${URL}docs.html`);
    await loadAll(page);
    // The scripted examples' output too.
    await page.click('button[data-demo="events"]');
    await page.click('button[data-demo="bad-vnodes"]');
    await page.waitForFunction(() => /error/.test(document.querySelector('[data-out="events"]').textContent));
    assert.deepEqual(await violations(page), []);
    await context.close();
  });

  test(`a host page with the element, and the iframe form, have no axe violations (${scheme})`, async () => {
    const html = hostPage(`<p>Three caches share the keys.</p>
      <hash-ring id="r" nodes="cache-a, cache-b, cache-c" vnodes="64"></hash-ring>
      <hash-ring id="m" nodes="a, b, c" view="migrate"></hash-ring>
      <hash-ring id="s" nodes="a, b, c" view="shares"></hash-ring>
      <iframe src="embed.html?nodes=a,b,c&vnodes=16" title="A hash ring" width="500" height="560"></iframe>`);
    // The host declares both schemes, so its elements follow the system's.
    const { page, context, problems } = await openHost(chrome.browser, html.replace("<head>", '<head><meta name="color-scheme" content="light dark">'), { colorScheme: scheme });
    const expected = scheme === "dark" ? "rgb(18, 18, 22)" : "rgb(255, 255, 255)";
    await page.waitForFunction((c) => getComputedStyle(document.getElementById("r")).backgroundColor === c, expected);
    await loadAll(page);
    await page.evaluate(() => document.getElementById("r").add("cache-d"));
    await events(page, "r", "change");
    assert.deepEqual(await violations(page), []);
    await page.locator("iframe").scrollIntoViewIfNeeded();
    const frame = page.frame({ url: /embed\.html/ });
    await frame.waitForFunction(() => document.querySelector("hash-ring")?.shadowRoot?.querySelectorAll("[part=legend] li").length === 3);
    await frame.addScriptTag({ path: AXE });
    const inFrame = await frame.evaluate(() => window.axe.run(document, { resultTypes: ["violations"] }));
    assert.deepEqual(inFrame.violations.map((v) => v.id), []);
    await page.screenshot({ path: join(SHOTS, `37-host-${scheme}.png`), fullPage: true });
    assert.deepEqual(problems, []);
    await context.close();
  });
}
