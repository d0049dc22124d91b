// Host pages for the <hash-ring> tests: a test writes the page's HTML, and the browser gets it
// from the page-test server's origin (so `hash-ring.js` resolves to the real www/ file).
import { URL } from "./browser.mjs";

// A page holding `body`; every <hash-ring> in it logs its ready/change/error events to
// window.__events, listened to before the element's module runs.
export function hostPage(body, { head = "", htmlAttrs = "" } = {}) {
  return `<!doctype html>
<html lang="en" ${htmlAttrs}>
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>A page hosting hash-ring</title><link rel="icon" href="data:,">${head}</head>
<body><main><h1>A post with a ring</h1>${body}</main>
<script>
window.__events = [];
window.__watch = (el) => {
  for (const type of ["ready", "change", "error"]) {
    el.addEventListener(type, (e) => window.__events.push({ id: el.id, type, detail: e.detail }));
  }
};
document.querySelectorAll("hash-ring").forEach(window.__watch);
</script>
<script type="module" src="hash-ring.js"></script>
</body></html>`;
}

// Opens `html` at URL/<name>.html in a fresh context; collects page errors and console errors.
// `setup(page)` runs before the page loads (e.g. to route requests).
export async function openHost(browser, html, { name = "host", viewport = { width: 900, height: 900 }, colorScheme = "light", reducedMotion, init, setup } = {}) {
  const context = await browser.newContext({ viewport, colorScheme, reducedMotion, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const problems = [];
  page.on("console", (m) => m.type() === "error" && problems.push(`console: ${m.text()}`));
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  const wasm = [];
  page.on("request", (r) => r.url().endsWith(".wasm") && wasm.push(r.url()));
  if (init) await page.addInitScript(init);
  if (setup) await setup(page);
  const address = `${URL}${name}.html`;
  await page.route(address, (route) => route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: html }));
  await page.goto(address);
  return { page, context, problems, wasm };
}

// Resolves once element `id` has fired `type` at least `n` times; returns those details.
export async function events(page, id, type, n = 1) {
  await page.waitForFunction(
    ([id, type, n]) => window.__events.filter((e) => e.id === id && e.type === type).length >= n,
    [id, type, n],
    { timeout: 20000 },
  );
  return page.evaluate(([id, type]) => window.__events.filter((e) => e.id === id && e.type === type).map((e) => e.detail), [id, type]);
}

// Text inside element `id`'s shadow root at `selector`.
export function shadowText(page, id, selector) {
  return page.evaluate(([id, sel]) => document.getElementById(id).shadowRoot.querySelector(sel).textContent, [id, selector]);
}

// A fingerprint of element `id`'s canvas, and the fraction of its pixels painted.
export function canvasPrint(page, id) {
  return page.evaluate((id) => {
    const c = document.getElementById(id).shadowRoot.querySelector("canvas");
    const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
    let painted = 0, hash = 0;
    for (let i = 0; i < d.length; i += 4) {
      if (d[i + 3]) painted++;
      hash = (hash * 31 + d[i] + 7 * d[i + 1] + 13 * d[i + 2] + 17 * d[i + 3]) >>> 0;
    }
    return { painted: painted / (c.width * c.height), hash };
  }, id);
}
