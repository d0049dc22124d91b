import { chromium } from "playwright-core";
const SITE = process.env.RINGLAB_URL;
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
const page = await (await browser.newContext({ viewport: { width: 1200, height: 900 }, deviceScaleFactor: 1 })).newPage();
await page.goto(SITE);
await page.waitForSelector("body[data-ready='1']");
const figs = await page.$$("figure[data-chart]");
for (const f of figs) { await f.scrollIntoViewIfNeeded(); await page.waitForTimeout(300); }
await page.waitForFunction(() => [...document.querySelectorAll("figure[data-chart]")].every((f) => f.dataset.drawn === "1"), null, { timeout: 60000 });
const section = await page.evaluateHandle(() => document.querySelector("figure[data-chart]").closest("section") ?? document.querySelector("figure[data-chart]").parentElement);
await section.asElement().screenshot({ path: process.argv[2] });
console.log(await page.evaluate(() => [...document.querySelectorAll(".chart-status")].map((s) => s.textContent).join(" | ")));
await browser.close();
