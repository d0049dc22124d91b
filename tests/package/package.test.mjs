// The npm package as a user gets it. `cargo xtask test` (its "package" stage; alone:
// `cargo xtask package-test`) writes target/npm, packs it with `npm pack`, installs the
// tarball into a fresh copy of app/ in a temporary folder (RINGLAB_APP) and runs this file:
//
// - Node: `import init, { Ring } from "ringlab"`, `await init()` with no argument, every key
//   of libketama's fixture (tests/real/fixtures/ketama.json, the real C library's answers);
// - types: `tsc --strict` at target ES2020 and ES2022, no skipLibCheck (app/types.ts);
// - Vite and webpack: each builds app.js with no configuration, and the built app answers
//   and draws in Chromium (the engine, the chart drawing, the element);
// - CDN: the element from one URL of the installed package's folder, served as a CDN would;
// - the bundle (`cargo xtask bundle`, RINGLAB_BUNDLE): the element from that folder, as a
//   writer who unzipped it into a site serves it.
//
// Nothing here reads the repository's www/ or target/npm: only the installed package (and
// the bundle's folder).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import { extname, join, normalize, sep } from "node:path";
import { promisify } from "node:util";
import { chromium } from "../e2e/node_modules/playwright-core/index.mjs";

const APP = process.env.RINGLAB_APP;
const BUNDLE = process.env.RINGLAB_BUNDLE;
const TSC = new URL("../../xtask/node_modules/typescript/bin/tsc", import.meta.url).pathname;
const TOOLS = new URL("./node_modules/", import.meta.url).pathname;
const FIXTURE = new URL("../real/fixtures/ketama.json", import.meta.url).pathname;
if (!APP) throw new Error("RINGLAB_APP: the fresh project with the packed package installed (cargo xtask package-test)");
const PACKAGE = join(APP, "node_modules", "ringlab");
const VERSION = JSON.parse(readFileSync(join(PACKAGE, "package.json"), "utf8")).version;
const ketama = JSON.parse(readFileSync(FIXTURE, "utf8"));
// The element's case: small weights, as a writer's `nodes` attribute gives them.
const CASE = ketama.cases.find((c) => c.servers.some((s) => s.name === "cache-c:11212"));
const KEYS = CASE.keys.filter((k) => k.key.length > 0).slice(0, 40);
const NODES = CASE.servers.map((s) => (s.weight === 1 ? s.name : `${s.name}*${s.weight}`)).join(", ");

// The pages' <hash-ring> names the case's nodes (and the CDN page the package's version).
function fill(file) {
  const text = readFileSync(file, "utf8");
  writeFileSync(file, text.replaceAll("NODES", NODES).replaceAll("ringlab@VERSION", `ringlab@${VERSION}`));
}

const run = promisify(execFile);
async function node(args, cwd) {
  try {
    return (await run(process.execPath, args, { cwd, maxBuffer: 1 << 24 })).stdout;
  } catch (e) {
    throw new Error(`node ${args.join(" ")} in ${cwd} failed:\n${e.stdout}\n${e.stderr}`);
  }
}

// ---- A static server on 127.0.0.1: `routes` maps a URL prefix to a folder.
const TYPES = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm",
  ".css": "text/css", ".json": "application/json", ".map": "application/json" };
function serve(routes) {
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    const [prefix, dir] = Object.entries(routes).filter(([p]) => path.startsWith(p)).sort((a, b) => b[0].length - a[0].length)[0] ?? [];
    const file = dir && normalize(join(dir, path.slice(prefix.length)));
    if (!file || !file.startsWith(normalize(dir + sep))) return res.writeHead(404).end();
    try {
      const body = await readFile(file);
      res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

let browser;
before(async () => {
  browser = await chromium.launch({
    executablePath: process.env.RINGLAB_CHROMIUM ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
  });
});
after(() => browser?.close());

// Opens `path` of a server for `routes`; the element (and the app, if the page has it) must
// give libketama's owners and draw. Returns what went wrong in the page.
async function checkPage(routes, path, { app }) {
  const server = await serve(routes);
  const page = await browser.newPage({ viewport: { width: 800, height: 900 } });
  const problems = [];
  page.on("console", (m) => m.type() === "error" && problems.push(`console: ${m.text()}`));
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("requestfailed", (r) => problems.push(`request failed: ${r.url()}`));
  page.on("response", (r) => r.status() >= 400 && problems.push(`HTTP ${r.status()}: ${r.url()}`));
  try {
    await page.goto(`http://127.0.0.1:${server.address().port}${path}`);
    await page.waitForFunction(() => customElements.get("hash-ring"), null, { timeout: 20000 });
    // The element with libketama: its second build, fetched as the first has ringlab's ring alone.
    const element = await page.evaluate(async (keys) => {
      const el = document.getElementById("ring");
      const owners = [];
      for (const key of keys) owners.push((await el.follow(key))?.owner ?? null);
      const canvas = el.shadowRoot.querySelector("canvas");
      const { data } = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height);
      let painted = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i] > 0) painted++;
      return { owners, painted, total: canvas.width * canvas.height };
    }, KEYS.map((k) => k.key));
    assert.deepEqual(element.owners, KEYS.map((k) => k.server), "the element's owners are libketama's");
    assert.ok(element.painted > element.total / 20, `the element drew ${element.painted} of ${element.total} pixels`);
    if (app) {
      await page.waitForFunction(() => window.ringlabApp, null, { timeout: 20000 });
      const owners = await page.evaluate(([servers, keys]) => window.ringlabApp.owners(servers, keys),
        [CASE.servers, CASE.keys.map((k) => k.key)]);
      assert.deepEqual(owners, CASE.keys.map((k) => k.server), "Ring.locate answers libketama's");
      const chart = await page.evaluate(() => window.ringlabApp.chart());
      assert.ok(chart.painted > chart.total / 20, `the chart drew ${chart.painted} of ${chart.total} pixels`);
      assert.match(chart.header, /,/, "drawChart returned the chart's CSV");
    }
    assert.deepEqual(problems, []);
  } catch (e) {
    e.message += `\nin the page: ${problems.join("\n") || "no errors"}`;
    throw e;
  } finally {
    await page.close();
    server.close();
  }
}

test("Node: init() with no argument, and every libketama fixture key", async () => {
  const out = JSON.parse((await node(["node.mjs", FIXTURE], APP)).trim().split("\n").pop());
  const keys = ketama.cases.reduce((n, c) => n + c.keys.length, 0);
  assert.deepEqual(out.mismatches, []);
  assert.equal(out.checked, keys);
  assert.equal(out.charts, "function");
  assert.deepEqual(out.sequence, { action: "add", refused: true }, "ringlab/sequence imports in Node");
});

// The first <rect>'s fill (the chart's background) as a luminance from 0 to 1.
function background(svg) {
  const fill = /<rect[^>]*fill="#([0-9A-Fa-f]{6})"/.exec(svg)?.[1];
  assert.ok(fill, `the SVG has a filled rect: ${svg.slice(0, 300)}`);
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(fill.slice(i, i + 2), 16) / 255);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

test("Node: the charts as SVG documents, with no page to measure their text", async () => {
  const { svg } = JSON.parse((await node(["node.mjs", FIXTURE], APP)).trim().split("\n").pop());
  assert.match(svg.light.head, /^<svg width="640" height="400" viewBox="0 0 640 400"/, "640 × 400 unless asked");
  assert.match(svg.dark.head, /^<svg width="900" height="500"/);
  for (const s of [svg.light.svg, svg.dark.svg]) {
    assert.match(s, /<text[^>]*>\s*Spread vs vnodes\s*<\/text>/, "the spread chart's title");
    assert.ok(s.trimEnd().endsWith("</svg>"), "a whole document");
  }
  assert.ok(background(svg.light.svg) > 0.8, "light: a light background");
  assert.ok(background(svg.dark.svg) < 0.2, "dark: a dark background");
  assert.match(svg.light.csv, /^vnodes_per_node,/, "the chart's numbers beside it");
  // The algorithms chart: a row per algorithm, as tall as its rows need at 700 px.
  const height = Number(/height="(\d+)"/.exec(svg.algorithms.head)[1]);
  assert.ok(svg.algorithms.table.rows.length >= 30, `${svg.algorithms.table.rows.length} rows`);
  assert.ok(height > 400, `the algorithms chart is ${height} px tall`);
  for (const [name] of svg.algorithms.table.rows.slice(0, 5)) {
    assert.ok(svg.algorithms.svg.includes(name), `the chart names ${name}`);
  }
  assert.ok(svg.shares > 1000, "the shares chart draws");
  assert.deepEqual(svg.errors, {
    none: "invalid-argument",
    // A chart object of no chart's shape is a wrong argument, as no chart at all is.
    notChart: "invalid-argument",
    wide: "too-large",
    fraction: "invalid-option",
    small: "invalid-option",
    unknown: "invalid-option",
  });
});

// Both compiles start with the first test (two cores: about half the time), each test
// awaiting its own: its failure or null.
const TARGETS = ["es2020", "es2022"];
let compiles;
const compiled = (target) =>
  (compiles ??= Object.fromEntries(TARGETS.map((t) => [t,
    node([TSC, "--project", join(APP, `tsconfig.${t}.json`), "--pretty", "false"], APP).then(() => null, (e) => e)])))[target];
for (const target of TARGETS) {
  test(`types: tsc --strict, target ${target}, no skipLibCheck`, async () => {
    const failure = await compiled(target);
    if (failure) throw failure;
  });
}

test("Vite: builds with no configuration; the built app answers and draws", async () => {
  fill(join(APP, "vite", "index.html"));
  await node([join(TOOLS, "vite/bin/vite.js"), "build", "--logLevel", "warn"], join(APP, "vite"));
  await checkPage({ "/": join(APP, "vite", "dist") }, "/index.html", { app: true });
});

test("webpack: builds with no configuration; the built app answers and draws", async () => {
  fill(join(APP, "webpack", "index.html"));
  await node([join(TOOLS, "webpack-cli/bin/cli.js"), "--mode", "production", "--no-stats"], join(APP, "webpack"));
  await checkPage({ "/": join(APP, "webpack") }, "/index.html", { app: true });
});

test("CDN: the element from one URL of the published package", async () => {
  fill(join(APP, "cdn.html"));
  await checkPage({ "/": APP, [`/npm/ringlab@${VERSION}/`]: PACKAGE }, "/cdn.html", { app: false });
});

test("bundle: the element from the unzipped bundle's folder on a site", async () => {
  assert.ok(BUNDLE, "RINGLAB_BUNDLE: the folder cargo xtask bundle wrote");
  await checkPage({ "/": APP, [`/npm/ringlab@${VERSION}/`]: BUNDLE }, "/cdn.html", { app: false });
});
