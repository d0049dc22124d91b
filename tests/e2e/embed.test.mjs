// The iframe form, embed.html, opened directly: its query parameters become the element's
// attributes, a bad one becomes a message inside the frame, and names stay text.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { launch, URL, SHOTS } from "./browser.mjs";

let chrome;
before(async () => { chrome = await launch(); });
after(async () => { await chrome?.close(); });

async function openEmbed(query, viewport = { width: 700, height: 500 }) {
  const context = await chrome.browser.newContext({ viewport });
  const page = await context.newPage();
  const problems = [];
  page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
  page.on("pageerror", (e) => problems.push(e.message));
  await page.goto(`${URL}embed.html?${query}`);
  return { page, problems, context };
}

const inside = (page, sel) => page.evaluate((sel) => document.querySelector("hash-ring").shadowRoot.querySelector(sel).textContent, sel);

test("embed.html draws the ring its parameters describe, filling the frame", async () => {
  const { page, problems, context } = await openEmbed("nodes=m1,m2,m3&algorithm=redis-cluster&keys=500");
  await page.waitForFunction(() => document.querySelector("hash-ring")?.shadowRoot?.querySelectorAll("[part=legend] li").length === 3);
  // Redis Cluster gives three masters 5462, 5461 and 5461 of its 16,384 slots.
  assert.match(await inside(page, "[part=legend]"), /m1 33\.3%.*m2 33\.3%.*m3 33\.3%/);
  const box = await page.evaluate(() => document.querySelector("hash-ring").getBoundingClientRect().height);
  assert.ok(box >= 480, `height ${box}`);
  await page.screenshot({ path: join(SHOTS, "20-embed.png") });
  assert.deepEqual(problems, []);
  await context.close();
});

test("a bad parameter shows a message in the frame; names are text", async () => {
  const { page, problems, context } = await openEmbed("nodes=a,b&vnodes=0");
  await page.waitForFunction(() => document.querySelector("hash-ring")?.shadowRoot?.querySelector("[part=message]").textContent.startsWith("hash-ring:"));
  assert.match(await inside(page, "[part=message]"), /vnodes must be between 1 and 10000/);
  await context.close();
  const second = await openEmbed(`nodes=${encodeURIComponent("<img src=x onerror=window.__pwned=1>,b")}&view=shares`);
  await second.page.waitForFunction(() => document.querySelector("hash-ring")?.shadowRoot?.querySelectorAll("[part=legend] li").length === 2);
  assert.match(await inside(second.page, "[part=legend]"), /<img src=x onerror=window.__pwned=1>/);
  assert.equal(await second.page.evaluate(() => window.__pwned), undefined);
  assert.deepEqual([...problems, ...second.problems], []);
  await second.context.close();
});
