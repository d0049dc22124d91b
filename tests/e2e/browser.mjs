// Shared set-up for the page tests: Debian's Chromium driven by playwright-core, against the
// www/ that `cargo xtask test` serves on 127.0.0.1 (RINGLAB_URL).
import { chromium } from "playwright-core";
import { mkdirSync } from "node:fs";

export const URL = process.env.RINGLAB_URL ?? "http://127.0.0.1:8000/";
export const SHOTS = process.env.RINGLAB_SCREENSHOTS ?? "target/screenshots";

export async function launch() {
  // playwright gives every launch a fresh, temporary user-data-dir of its own.
  const browser = await chromium.launch({
    executablePath: process.env.RINGLAB_CHROMIUM ?? "/usr/bin/chromium",
    args: [
      "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
    ],
  });
  mkdirSync(SHOTS, { recursive: true });
  return {
    browser,
    async close() {
      await browser.close();
    },
  };
}

// Opens the playground and collects console errors and failed requests.
export async function open(browser, options = {}, hash = "") {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, deviceScaleFactor: 1, ...options });
  const page = await context.newPage();
  const problems = [];
  page.on("console", (m) => m.type() === "error" && problems.push(`console: ${m.text()}`));
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("requestfailed", (r) => problems.push(`request failed: ${r.url()}`));
  page.on("response", (r) => r.status() >= 400 && problems.push(`HTTP ${r.status()}: ${r.url()}`));
  await page.goto(URL + hash);
  await page.waitForSelector("body[data-ready='1']", { timeout: 20000 });
  await settle(page);
  return { page, problems, context };
}

// Waits until the page has finished the work a change deferred to later tasks.
export async function settle(page) {
  await page.waitForFunction(() => window.__ringlab?.pending === 0);
}

// How many canvas pixels differ from the page background, and a fingerprint of them.
export async function canvasStats(page) {
  await settle(page);
  return page.evaluate(() => {
    const canvas = document.getElementById("ring");
    const { data } = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height);
    let painted = 0, hash = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (data[i + 3] > 0) painted++;
      hash = (hash * 31 + data[i] + 7 * data[i + 1] + 13 * data[i + 2] + 17 * data[i + 3]) >>> 0;
    }
    return { painted, total: canvas.width * canvas.height, hash };
  });
}

// Runs the engine directly in the page, as the reference the page's figures must equal.
export async function engine(page, fn, arg) {
  return page.evaluate(
    async ([source, arg]) => {
      const mod = await import("./pkg/ringlab.js");
      await mod.default();
      return new Function("mod", "arg", `return (${source})(mod, arg);`)(mod, arg);
    },
    [fn.toString(), arg],
  );
}
