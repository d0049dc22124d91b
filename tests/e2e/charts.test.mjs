// The charts in real Chromium: drawn by the engine, matching the Ring API's own figures, drawn
// where those figures say, and exportable as PNG (the canvas's own pixels) and CSV.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { writeFileSync } from "node:fs";
import { launch, open, engine, settle, SHOTS, decodePng } from "./browser.mjs";

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

async function downloaded(page, chart, kind) {
  const [download] = await Promise.all([page.waitForEvent("download"), page.click(`figure[data-chart=${chart}] [data-${kind}]`)]);
  const chunks = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk);
  return { name: download.suggestedFilename(), bytes: Buffer.concat(chunks) };
}

async function csvOf(page, chart) {
  return (await downloaded(page, chart, "csv")).bytes.toString("utf8");
}

// A chart canvas's size and RGBA pixels.
async function chartPixels(page, chart) {
  await settle(page);
  const { width, height, base64 } = await page.$eval(`figure[data-chart=${chart}] canvas`, (c) => {
    const { data } = c.getContext("2d").getImageData(0, 0, c.width, c.height);
    let binary = "";
    for (let i = 0; i < data.length; i += 0x8000) binary += String.fromCharCode(...data.subarray(i, i + 0x8000));
    return { width: c.width, height: c.height, base64: btoa(binary) };
  });
  return { width, height, rgba: new Uint8Array(Buffer.from(base64, "base64")) };
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

test("the shares chart shows the Ring API's shares and draws each bar to its share", async () => {
  const { page, problems, context } = await open(chrome.browser, { acceptDownloads: true });
  await drawn(page);
  const names = ["node-1", "node-2", "node-3", "node-4", "node-5"];
  const [header, ...rows] = (await csvOf(page, "shares")).trim().split("\n");
  assert.equal(header, "node,weight,share_percent,exact,ideal_share_percent,sampled_keys,sampled_share_percent");
  const csv = rows.map((r) => r.split(","));
  // Exact shares from Ring.nodes(), sample counts from Ring.keyOwners over the page's 2,000 keys.
  const api = await engine(page, (mod, nodes) => {
    const ring = new mod.Ring({ vnodes: 32, nodes });
    const counts = new Array(nodes.length).fill(0);
    for (const owner of ring.keyOwners("key:", 2000)) counts[owner]++;
    return { shares: ring.nodes().map((n) => n.share), counts, palette: mod.palette() };
  }, names);
  assert.deepEqual(csv.map((c) => c[0]), names);
  csv.forEach((c, i) => {
    assert.ok(Math.abs(Number(c[2]) - api.shares[i] * 100) < 1e-5, `${c[0]}: chart ${c[2]}%, Ring ${api.shares[i] * 100}%`);
    assert.equal(c[3], "yes");
    assert.equal(Number(c[4]), 20);
    assert.equal(Number(c[5]), api.counts[i], `${c[0]}'s sampled keys`);
  });
  // On the canvas: each node's bar, found by its colour, stands on a common baseline, in node
  // order, and is as tall as its share (one scale for all bars, within a pixel and a half).
  const { width, height, rgba } = await chartPixels(page, "shares");
  const rgb = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  const bars = names.map((_, i) => {
    const [r, g, b] = rgb(api.palette[i]);
    const box = { left: Infinity, right: -Infinity, top: Infinity, bottom: -Infinity };
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const at = (y * width + x) * 4;
        if (rgba[at] !== r || rgba[at + 1] !== g || rgba[at + 2] !== b) continue;
        box.left = Math.min(box.left, x);
        box.right = Math.max(box.right, x);
        box.top = Math.min(box.top, y);
        box.bottom = Math.max(box.bottom, y);
      }
    }
    assert.ok(box.right >= box.left, `no bar in ${names[i]}'s colour`);
    return { ...box, height: box.bottom - box.top + 1, width: box.right - box.left + 1 };
  });
  bars.forEach((bar, i) => {
    assert.ok(Math.abs(bar.bottom - bars[0].bottom) <= 1, `${names[i]}'s bar stands on the baseline`);
    assert.ok(Math.abs(bar.width - bars[0].width) <= 1, `${names[i]}'s bar is as wide as the others`);
    if (i > 0) assert.ok(bar.left > bars[i - 1].right, `${names[i]}'s bar is right of ${names[i - 1]}'s`);
  });
  const scale = bars.reduce((sum, bar, i) => sum + bar.height * api.shares[i], 0) / api.shares.reduce((sum, s) => sum + s * s, 0);
  bars.forEach((bar, i) => {
    const expected = scale * api.shares[i];
    assert.ok(Math.abs(bar.height - expected) <= 1.5, `${names[i]}'s bar is ${bar.height} px tall; its share says ${expected.toFixed(1)}`);
  });
  assert.deepEqual(problems, []);
  await context.close();
});

test("PNG export is the canvas pixel for pixel, the band spans the five hashes' rings, and the table has every algorithm", async () => {
  const { page, problems, context } = await open(chrome.browser, { acceptDownloads: true });
  await drawn(page);
  // The PNG holds exactly the canvas: same size, same pixels.
  const png = await downloaded(page, "moves", "png");
  assert.equal(png.name, "ringlab-moves.png");
  writeFileSync(join(SHOTS, "31-moves-export.png"), png.bytes);
  const image = await decodePng(png.bytes);
  const canvas = await chartPixels(page, "moves");
  assert.deepEqual([image.width, image.height], [canvas.width, canvas.height]);
  const differ = image.rgba.findIndex((v, i) => v !== canvas.rgba[i]);
  assert.equal(differ, -1, `pixel ${differ >> 2} differs between the PNG and the canvas`);
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
  // Each row's band is the min..max of the spread of the Ring API's rings under the five hashes.
  const banded = (await csvOf(page, "spread")).trim().split("\n").slice(1).map((r) => r.split(",").map(Number));
  const ranges = await engine(page, (mod, counts) => counts.map((vnodes) => {
    const rsds = ["xxh3", "xxh64", "murmur3", "md5", "sha256"].map((hash) =>
      new mod.Ring({ hash, vnodes, nodes: ["node-1", "node-2", "node-3", "node-4", "node-5"] }).spread().rsd * 100);
    return [Math.min(...rsds), Math.max(...rsds)];
  }), banded.map((row) => row[0]));
  banded.forEach((row, i) => {
    const [lo, hi] = ranges[i];
    assert.ok(Math.abs(row[4] - lo) < 1e-5 && Math.abs(row[5] - hi) < 1e-5, `band at ${row[0]} vnodes: chart ${row[4]}..${row[5]}, Ring ${lo}..${hi}`);
  });
  assert.ok(banded.some((row) => row[5] > row[4]), "the hashes differ somewhere");
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
