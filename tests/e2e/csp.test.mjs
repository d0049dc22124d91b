// Under the deployment's strict Content-Security-Policy (served as a header by the dev
// server), the playground, its charts and the embed work with no violation reported, and the
// charts are drawn exactly as without the policy (their text is measured the same way).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch, ready, URL as PLAIN } from "./browser.mjs";

const CSP = process.env.RINGLAB_CSP_URL;
let chrome;
before(async () => { chrome = await launch(); });
after(async () => { await chrome?.close(); });

async function visit(base, path) {
  const context = await chrome.browser.newContext({ viewport: { width: 1200, height: 900 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const problems = [];
  page.on("console", (m) => m.type() === "error" && problems.push(`console: ${m.text()}`));
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  await page.addInitScript(() => {
    window.__violations = [];
    document.addEventListener("securitypolicyviolation", (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  const response = await page.goto(base + path);
  return { page, problems, context, header: response.headers()["content-security-policy"] };
}

// The spread chart's pixels once drawn.
async function spreadPixels(page) {
  await ready(page);
  await page.locator("figure[data-chart='spread']").scrollIntoViewIfNeeded();
  await page.waitForSelector("figure[data-chart='spread'][data-drawn='1']", { timeout: 20000 });
  return page.evaluate(() => {
    const c = document.querySelector("figure[data-chart='spread'] canvas");
    const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
    let h = 0;
    for (let i = 0; i < d.length; i++) h = (h * 31 + d[i]) >>> 0;
    return { h, w: c.width, ht: c.height };
  });
}

test("the playground and its charts work under the strict CSP, drawn as without it", { skip: !CSP && "RINGLAB_CSP_URL not set" }, async () => {
  const strict = await visit(CSP, "");
  assert.match(strict.header ?? "", /default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:/);
  const withPolicy = await spreadPixels(strict.page);
  await strict.page.click("#add-node");
  await strict.page.waitForFunction(() => document.querySelectorAll("#legend tbody tr").length === 6);
  assert.deepEqual(await strict.page.evaluate(() => window.__violations), []);
  assert.deepEqual(strict.problems, []);
  const plain = await visit(PLAIN, "");
  const without = await spreadPixels(plain.page);
  assert.deepEqual(withPolicy, without, "the chart (its text included) is drawn the same under the policy");
  await strict.context.close();
  await plain.context.close();
});

test("the embed works under the strict CSP", { skip: !CSP && "RINGLAB_CSP_URL not set" }, async () => {
  const { page, problems, context } = await visit(CSP, "embed.html");
  await page.waitForFunction(() => {
    const el = document.querySelector("hash-ring");
    const c = el?.shadowRoot?.querySelector("canvas");
    return c && c.width > 0 && el.shadowRoot.querySelector(".legend, [part~=legend]")?.textContent.length > 0;
  }, null, { timeout: 20000 });
  // Styled by its adopted stylesheet: its buttons have the accent background, not the default.
  const bg = await page.evaluate(() => getComputedStyle(document.querySelector("hash-ring").shadowRoot.querySelector("button")).backgroundColor);
  assert.notEqual(bg, "rgba(0, 0, 0, 0)");
  assert.notEqual(bg, "rgb(239, 239, 239)", "not the browser's default button");
  assert.deepEqual(await page.evaluate(() => window.__violations), []);
  assert.deepEqual(problems, []);
  await context.close();
});
