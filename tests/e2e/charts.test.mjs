// The charts in real Chromium: drawn by the engine, matching the Ring API's own figures, and
// exportable as PNG and CSV.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { launch, open, engine, settle, SHOTS } from "./browser.mjs";

let chrome;
before(async () => { chrome = await launch(); });
after(async () => { await chrome?.close(); });

async function drawn(page) {
  for (const chart of ["spread", "shares", "moves", "algorithms"]) {
    await page.$eval(`figure[data-chart=${chart}]`, (f) => f.scrollIntoView());
    await page.waitForFunction((c) => document.querySelector(`figure[data-chart=${c}]`).dataset.drawn, chart, { timeout: 60000 });
  }
  await page.waitForFunction(() => [...document.querySelectorAll("figure[data-chart]")].every((f) => f.dataset.drawn === "1"), null, { timeout: 60000 });
  await settle(page);
}

async function csvOf(page, chart) {
  const [download] = await Promise.all([page.waitForEvent("download"), page.click(`figure[data-chart=${chart}] [data-csv]`)]);
  const stream = await download.createReadStream();
  let text = "";
  for await (const chunk of stream) text += chunk;
  return text;
}

test("the spread chart plots the Ring API's own spread", async () => {
  const { page, problems, context } = await open(chrome.browser, { acceptDownloads: true });
  await drawn(page);
  const csv = await csvOf(page, "spread");
  const [header, ...rows] = csv.trim().split("\n");
  assert.match(header, /^vnodes_per_node,load_rsd_percent,max_over_mean_ratio,theory_rsd_percent/);
  const series = rows.map((r) => r.split(",")).map((c) => ({ vnodes: Number(c[0]), rsd: Number(c[1]), maxMean: Number(c[2]) }));
  assert.ok(series.length >= 20);
  assert.ok(series.some((p) => p.vnodes === 32), "the current setting is one of the points");
  const expected = await engine(page, (mod, points) => points.map(({ vnodes }) => {
    const s = new mod.Ring({ vnodes, nodes: ["node-1", "node-2", "node-3", "node-4", "node-5"] }).spread();
    return { rsd: s.rsd * 100, maxMean: s.maxOverMean };
  }), series);
  series.forEach((p, i) => {
    assert.ok(Math.abs(p.rsd - expected[i].rsd) < 1e-5, `rsd at ${p.vnodes}: chart ${p.rsd}, Ring ${expected[i].rsd}`);
    assert.ok(Math.abs(p.maxMean - expected[i].maxMean) < 1e-5, `max/mean at ${p.vnodes}`);
  });
  assert.deepEqual(problems, []);
  await context.close();
});

test("charts export PNG, and the algorithm table has every algorithm", async () => {
  const { page, problems, context } = await open(chrome.browser, { acceptDownloads: true });
  await drawn(page);
  const [png] = await Promise.all([page.waitForEvent("download"), page.click("figure[data-chart=moves] [data-png]")]);
  assert.equal(png.suggestedFilename(), "ringlab-moves.png");
  const path = join(SHOTS, "31-moves-export.png");
  await png.saveAs(path);
  const rows = await page.$$eval("#algorithms-table tbody tr", (trs) => trs.map((t) => t.cells[0].textContent));
  assert.equal(rows.length, await engine(page, (mod) => mod.algorithms().length));
  assert.ok(rows.includes("redis-cluster") && rows.includes("modulo"));
  const moves = await csvOf(page, "moves");
  assert.equal(moves.trim().split("\n").length, 1 + 47, "a header and one row per N = 2..48");
  const status = await page.$$eval(".chart-status", (els) => els.map((e) => e.textContent));
  console.log(`# chart draw times: ${status.join(" | ")}`);
  // The band over five hashes, on request: the CSV gains its min..max columns.
  await page.check("#spread-band");
  await page.waitForFunction(() => /range over 5 hashes|Drawn/.test(document.querySelector("figure[data-chart=spread] .chart-status").textContent));
  await settle(page);
  const band = (await csvOf(page, "spread")).trim().split("\n")[1].split(",");
  assert.ok(Number(band[4]) > 0 && Number(band[5]) >= Number(band[4]), `band columns: ${band.join(",")}`);
  await page.screenshot({ path: join(SHOTS, "30-charts.png"), fullPage: true });
  assert.deepEqual(problems, []);
  await context.close();
});

test("10 nodes at 1,000 vnodes: chart recomputation time (measured, reported)", async () => {
  const nodes = Array.from({ length: 10 }, (_, i) => `n${i + 1}`).join(",");
  const { page, problems, context } = await open(chrome.browser, {}, `#a=ring&h=xxh3&v=1000&k=2000&r=2&n=${nodes}`);
  await drawn(page);
  const status = await page.$$eval(".chart-status", (els) => els.map((e) => e.textContent));
  console.log(`# 10 nodes x 1000 vnodes, chart draw times: ${status.join(" | ")}`);
  assert.ok(status.every((s) => s.startsWith("Drawn in")), status.join(" | "));
  assert.deepEqual(problems, []);
  await context.close();
});
