// The <hash-ring> embed in real Chromium: it draws, its buttons report the engine's figures,
// bad attributes become a message, and hostile names stay text.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { launch, URL, SHOTS } from "./browser.mjs";

let chrome;
before(async () => { chrome = await launch(); });
after(async () => { await chrome?.close(); });

async function openEmbed() {
  const context = await chrome.browser.newContext({ viewport: { width: 800, height: 1400 } });
  const page = await context.newPage();
  const problems = [];
  page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
  page.on("pageerror", (e) => problems.push(e.message));
  await page.goto(`${URL}embed.html`);
  await page.waitForFunction(() => document.querySelector("#demo")?.shadowRoot.querySelector(".legend").children.length === 3);
  return { page, problems, context };
}

const text = (page, id, sel) => page.evaluate(([id, sel]) => document.getElementById(id).shadowRoot.querySelector(sel).textContent, [id, sel]);

test("the embed draws the ring and reports a change exactly", async () => {
  const { page, problems, context } = await openEmbed();
  const painted = await page.evaluate(() => {
    const c = document.querySelector("#demo").shadowRoot.querySelector("canvas");
    const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 3; i < d.length; i += 4) if (d[i]) n++;
    return n / (c.width * c.height);
  });
  assert.ok(painted > 0.05, `painted ${painted}`);
  await page.evaluate(() => document.querySelector("#demo").shadowRoot.querySelector("[data-act=add]").click());
  const expected = await page.evaluate(async () => {
    const mod = await import("./pkg/ringlab.js");
    await mod.default();
    const a = new mod.Ring({ vnodes: 64, nodes: ["cache-a", "cache-b", "cache-c"] });
    const b = new mod.Ring({ vnodes: 64, nodes: ["cache-a", "cache-b", "cache-c", "node-1"] });
    return mod.Ring.diffSample(a, b, "key:", 1000, 1).movedKeys;
  });
  assert.match(await text(page, "demo", ".out"), new RegExp(`^Added node-1: moved ${expected} of 1,000 keys`));
  await page.screenshot({ path: join(SHOTS, "20-embed.png"), fullPage: true });
  assert.deepEqual(problems, []);
  await context.close();
});

test("bad attributes show a message; names are text", async () => {
  const { page, problems, context } = await openEmbed();
  await page.evaluate(() => document.querySelector("#demo").setAttribute("vnodes", "0"));
  await page.waitForFunction(() => document.querySelector("#demo").shadowRoot.querySelector(".out").textContent.startsWith("hash-ring:"));
  assert.match(await text(page, "demo", ".out"), /vnodes must be between 1 and 10000/);
  await page.evaluate(() => document.querySelector("#demo").setAttribute("vnodes", "8"));
  await page.evaluate(() => document.querySelector("#demo").setAttribute("nodes", "<img src=x onerror=window.__pwned=1>, b"));
  await page.waitForFunction(() => document.querySelector("#demo").shadowRoot.querySelector(".legend").children.length === 2);
  assert.match(await text(page, "demo", ".legend"), /<img src=x onerror=window.__pwned=1>/);
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.match(await text(page, "redis", ".legend"), /m1 33\.\d%/);
  assert.deepEqual(problems, []);
  await context.close();
});
