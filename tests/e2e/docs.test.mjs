// docs.html: linked from the playground; every live example builds without an error; the
// snippets shown are the examples' own markup and code; the scripted examples run; the page's
// theme switch turns its theme="auto" elements dark.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { readFileSync } from "node:fs";
import { launch, open, URL, SHOTS } from "./browser.mjs";

let chrome;
before(async () => { chrome = await launch(); });
after(async () => { await chrome?.close(); });

async function openDocs(colorScheme = "light") {
  const context = await chrome.browser.newContext({ viewport: { width: 1200, height: 900 }, colorScheme });
  const page = await context.newPage();
  const problems = [];
  page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
  page.on("pageerror", (e) => problems.push(e.message));
  page.on("response", (r) => r.status() >= 400 && problems.push(`HTTP ${r.status()}: ${r.url()}`));
  await page.goto(`${URL}docs.html`);
  return { page, problems, context };
}

// Loads every element on the page (reset() asks for the engine even off screen).
async function loadAll(page) {
  return page.evaluate(() => Promise.all([...document.querySelectorAll("hash-ring")].map((r) => r.reset())));
}

test("the playground links to the docs page", async () => {
  const { page, problems, context } = await open(chrome.browser);
  await page.click('a[href="docs.html"]');
  await page.waitForURL(/docs\.html$/);
  assert.equal(await page.locator("h1").textContent(), "<hash-ring>");
  assert.deepEqual(problems, []);
  await context.close();
});

test("every example builds, and each snippet is its example's markup", async () => {
  const { page, problems, context } = await openDocs();
  const built = await loadAll(page);
  assert.ok(built.length >= 15 && built.every((b) => b === true), JSON.stringify(built));
  const mismatched = await page.evaluate(() =>
    [...document.querySelectorAll("code[data-markup]")].filter((code) => {
      const tmp = document.createElement("div");
      tmp.innerHTML = code.textContent;
      const shown = tmp.firstElementChild, live = document.getElementById(code.dataset.markup);
      return shown.tagName !== live.tagName || [...live.attributes].some((a) => a.name !== "id" && shown.getAttribute(a.name) !== a.value);
    }).map((c) => c.dataset.markup),
  );
  assert.deepEqual(mismatched, []);
  // Every attribute, method and event the element has is documented with a heading or term.
  const text = await page.locator("main").textContent();
  for (const word of ["nodes", "vnodes", "hash", "algorithm", "keys", "replicas", "bits", "view", "theme", "hidden",
    "add(name", "remove(name)", "follow(key)", "reset()", "ready", "change", "error", "::part()", "--hash-ring-bg",
    "mdBook", "Docusaurus", "Hugo", "embed.html"]) {
    assert.ok(text.includes(word), word);
  }
  assert.deepEqual(problems, []);
  await context.close();
});

test("the scripted examples run: a story, events and properties", async () => {
  const { page, problems, context } = await openDocs();
  await page.locator("#methods").scrollIntoViewIfNeeded();
  await page.click('button[data-demo="add"]');
  await page.waitForFunction(() => document.querySelector('[data-out="story"]').textContent.startsWith("cache-d joined"));
  assert.match(await page.locator('[data-out="story"]').textContent(), /^cache-d joined: \d+\.\d\d% of the key space and \d+ of 500 keys moved$/);
  await page.click('button[data-demo="follow"]');
  await page.waitForFunction(() => document.querySelector('[data-out="story"]').textContent.startsWith("user:42 belongs to"));
  await page.locator("#events").scrollIntoViewIfNeeded();
  await page.click('button[data-demo="events"]');
  await page.waitForFunction(() => document.querySelector('[data-out="events"]').children.length >= 1);
  await page.click('button[data-demo="bad-vnodes"]');
  await page.waitForFunction(() => /error invalid-vnodes/.test(document.querySelector('[data-out="events"]').textContent));
  assert.match(await page.locator('[data-out="events"]').textContent(), /change: Added node-1, exactly 0\.\d+ moved, \d+ keys/);
  await page.locator("#properties").scrollIntoViewIfNeeded();
  await page.click('button[data-demo="properties"]');
  await page.waitForFunction(() => document.querySelector('[data-out="properties"]').textContent.includes("vnodes attribute: 8"));
  await page.locator("#methods").scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(SHOTS, "35-docs-methods.png") });
  assert.deepEqual(problems, []);
  await context.close();
});

test("the page's theme switch turns its theme=auto elements dark and back", async () => {
  const { page, problems, context } = await openDocs();
  await loadAll(page);
  const bg = () => page.evaluate(() => getComputedStyle(document.getElementById("hero")).backgroundColor);
  assert.equal(await bg(), "rgb(255, 255, 255)");
  await page.click('[data-page-theme="dark"]');
  await page.waitForFunction(() => getComputedStyle(document.getElementById("hero")).backgroundColor === "rgb(18, 18, 22)");
  await page.screenshot({ path: join(SHOTS, "36-docs-dark.png") });
  await page.click('[data-page-theme="light"]');
  await page.waitForFunction(() => getComputedStyle(document.getElementById("hero")).backgroundColor === "rgb(255, 255, 255)");
  assert.deepEqual(problems, []);
  await context.close();
});

// A writer with no build of their own downloads the bundle from the docs page: the link names
// the crate's version, the file is served beside the page and is a zip, and the page offers
// no CDN route to a package that is not published.
test("the docs link a downloadable bundle of this version, and no unpublished CDN", async () => {
  const version = /^version = "([^"]+)"/m.exec(readFileSync(new globalThis.URL("../../Cargo.toml", import.meta.url), "utf8"))[1];
  const { page, problems, context } = await openDocs();
  const link = page.locator("a#bundle-zip");
  assert.equal(await link.getAttribute("href"), `bundle/ringlab-element-${version}.zip`);
  assert.match(await link.textContent(), new RegExp(`ringlab-element-${version.replace(/\./g, "\\.")}\\.zip`));
  const download = page.waitForEvent("download");
  await link.click();
  const file = await (await download).createReadStream();
  const chunks = [];
  for await (const chunk of file) chunks.push(chunk);
  const zip = Buffer.concat(chunks);
  assert.ok(zip.length > 100_000, `the bundle is ${zip.length} bytes`);
  assert.equal(zip.subarray(0, 4).toString("binary"), "PK\x03\x04", "a zip file");
  assert.ok(zip.includes("hash-ring.js") && zip.includes("pkg/ringlab_element_bg.wasm"), "the element and its engine inside");
  assert.doesNotMatch(await page.textContent("main"), /cdn\.jsdelivr|unpkg|From a CDN/i);
  assert.deepEqual(problems, []);
  await context.close();
});
