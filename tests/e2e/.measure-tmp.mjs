import { chromium } from "playwright-core";
import { gzipSync } from "node:zlib";
const SITE = process.env.RINGLAB_URL;
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
const ctx = await browser.newContext({ viewport: { width: 1200, height: 900 }, deviceScaleFactor: 1 });
const page = await ctx.newPage();
let phase = "load";
const got = { load: [], charts: [] };
page.on("response", async (r) => {
  const p = new URL(r.url()).pathname;
  if (!/\.(wasm|js)$/.test(p)) return;
  const ph = phase;
  try { const b = await r.body(); got[ph].push([p, b.length, gzipSync(b, { level: 9 }).length]); } catch (e) { got[ph].push([p, -1, -1, String(e).slice(0, 80)]); }
});
await page.goto(SITE);
await page.waitForSelector("body[data-ready='1']");
await page.waitForFunction(() => window.__ringlab?.pending === 0);
await page.waitForLoadState("networkidle");
phase = "charts";
page.on("request", (r) => console.log("request", phase, new URL(r.url()).pathname));
await page.evaluate(() => document.querySelector("figure[data-chart]").scrollIntoView());
await page.waitForFunction(() => document.querySelector("figure[data-chart]")?.dataset.drawn === "1", null, { timeout: 30000 });
await page.waitForLoadState("networkidle");
const sum = (xs, re) => xs.filter((x) => re.test(x[0])).reduce((a, x) => [a[0] + x[1], a[1] + x[2]], [0, 0]);
for (const ph of ["load", "charts"]) {
  console.log(ph); for (const x of got[ph]) console.log("  ", x.join(" "));
  console.log("   wasm total", sum(got[ph], /\.wasm$/).join(" / "), " js+wasm total", sum(got[ph], /./).join(" / "));
}
// The embed with a chart view.
const p2 = await ctx.newPage();
const emb = [];
p2.on("response", async (r) => { const p = new URL(r.url()).pathname; if (!/\.(wasm|js|css)$/.test(p)) return; try { const b = await r.body(); emb.push([p, b.length, gzipSync(b, { level: 9 }).length]); } catch {} });
await p2.goto(SITE + "embed.html?nodes=a,b,c&view=shares");
await p2.waitForLoadState("networkidle");
await p2.waitForTimeout(500);
console.log("embed view=shares"); for (const x of emb) console.log("  ", x.join(" "));
console.log("   wasm total", sum(emb, /\.wasm$/).join(" / "), " all", sum(emb, /./).join(" / "));
await browser.close();
