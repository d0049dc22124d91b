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
  await ready(page);
  await settle(page);
  return { page, problems, context };
}

// Waits until the playground is ready: its first ring drawn and its controls listening, with
// no gesture from the reader (`body[data-ready]`).
export async function ready(page, { timeout = 20000 } = {}) {
  await page.waitForSelector("body[data-ready='1']", { timeout });
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

// ---- independent figures for the page tests ------------------------------------------------

// The keys moved and of how many, as the page's text says them ("moved 1,234 of 2,000 keys").
export function movedInText(text) {
  const m = /moved ([\d,]+) of ([\d,]+) keys/.exec(text);
  if (!m) throw new Error(`no "moved N of M keys" in ${JSON.stringify(text)}`);
  const number = (s) => Number(s.replaceAll(",", ""));
  return { moved: number(m[1]), of: number(m[2]) };
}

// Owner names of the sample keys key:0 .. key:{count-1} on a Ring built from `options`,
// straight from the engine (`Ring.keyOwners`), independently of the page's session.
export async function ownersOf(page, options, count = 2000) {
  return engine(page, (mod, { options, count }) => {
    const ring = new mod.Ring(options);
    const names = ring.nodes().map((n) => n.name);
    return Array.from(ring.keyOwners("key:", count), (i) => names[i]);
  }, { options, count });
}

// Reads the ring's colour in the middle of every arc at least `minPx` CSS pixels long, at the
// band's radius (RingView.geometry()), and compares it with the colour the legend shows for
// the arc's owner. Owners come from a Session the engine opens from the page's own link, not
// from the page's objects. Returns {samples, nodes: distinct owners seen, wrong}.
export async function arcColours(page, minPx = 8) {
  await settle(page);
  return page.evaluate(async (minPx) => {
    const mod = await import("./pkg/ringlab.js");
    await mod.default();
    const { RingView } = await import("./ring-view.js");
    const canvas = document.getElementById("ring");
    const session = location.hash.length > 1 ? mod.Session.fromLink(location.hash) : new mod.Session();
    const { points, pointOwners, axis } = session.scene();
    const names = session.nodes().map((n) => n.name);
    session.free();
    const legend = new Map([...document.querySelectorAll("#legend tbody tr")].map((row) => [
      row.cells[0].textContent,
      getComputedStyle(row.querySelector(".swatch")).backgroundColor.match(/\d+/g).slice(0, 3).map(Number),
    ]));
    // The geometry of a view of the same scene (the side labels' width sets the ring's room).
    const view = new RingView(canvas, mod.palette());
    view.data = { axis };
    const g = view.geometry();
    const dpr = window.devicePixelRatio || 1;
    const { data, width } = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height);
    const n = points.length;
    const wrong = [], seen = new Set();
    let samples = 0;
    for (let i = 0; i < n; i++) {
      // Point i owns (point i-1, point i]; point 0 also the wrap-around.
      const from = i === 0 ? points[n - 1] - 1 : points[i - 1];
      if ((points[i] - from) * 2 * Math.PI * g.r < minPx) continue;
      const mid = (from + points[i]) / 2;
      const a = mid * 2 * Math.PI - Math.PI / 2;
      const x = Math.floor((g.cx + Math.cos(a) * g.r) * dpr), y = Math.floor((g.cy + Math.sin(a) * g.r) * dpr);
      const at = (y * width + x) * 4;
      const got = [data[at], data[at + 1], data[at + 2]];
      const owner = names[pointOwners[i]];
      const want = legend.get(owner) ?? [];
      samples++;
      seen.add(owner);
      if (want.length !== 3 || got.some((v, c) => Math.abs(v - want[c]) > 2)) wrong.push({ fraction: mid, owner, got, want });
    }
    return { samples, nodes: seen.size, wrong };
  }, minPx);
}

// Decodes an 8-bit RGB or RGBA, non-interlaced PNG (what canvas.toBlob writes) into
// {width, height, rgba}. Written against the PNG specification (RFC 2083): chunks, zlib'd
// IDAT, and the five per-row filters.
export async function decodePng(bytes) {
  const { inflateSync } = await import("node:zlib");
  const buf = Buffer.from(bytes);
  if (!buf.subarray(0, 8).equals(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]))) throw new Error("not a PNG");
  let width, height, channels;
  const idat = [];
  for (let at = 8; at < buf.length;) {
    const length = buf.readUInt32BE(at), type = buf.toString("latin1", at + 4, at + 8);
    const body = buf.subarray(at + 8, at + 8 + length);
    if (type === "IHDR") {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const [depth, colourType, , , interlace] = body.subarray(8, 13);
      if (depth !== 8 || interlace !== 0 || ![2, 6].includes(colourType)) throw new Error(`unsupported PNG ${depth}/${colourType}/${interlace}`);
      channels = colourType === 6 ? 4 : 3;
    } else if (type === "IDAT") idat.push(body);
    else if (type === "IEND") break;
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels, out = new Uint8Array(width * height * 4);
  let prev = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)], line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const row = new Uint8Array(stride);
    for (let i = 0; i < stride; i++) {
      const left = i >= channels ? row[i - channels] : 0, up = prev[i], corner = i >= channels ? prev[i - channels] : 0;
      const paeth = () => {
        const p = left + up - corner, pa = Math.abs(p - left), pb = Math.abs(p - up), pc = Math.abs(p - corner);
        return pa <= pb && pa <= pc ? left : pb <= pc ? up : corner;
      };
      const predictor = [0, left, up, (left + up) >> 1, filter === 4 ? paeth() : 0][filter];
      row[i] = (line[i] + predictor) & 255;
    }
    for (let x = 0; x < width; x++) {
      for (let c = 0; c < 3; c++) out[(y * width + x) * 4 + c] = row[x * channels + c];
      out[(y * width + x) * 4 + 3] = channels === 4 ? row[x * channels + 3] : 255;
    }
    prev = row;
  }
  return { width, height, rgba: out };
}

// A SHA-256 of the ring's still picture: the canvas redrawn by the page's RingView without
// the last change's overlays (moved-arc marks, moving keys), read in the same task.
export async function stillDigest(page) {
  await settle(page);
  return page.evaluate(async () => {
    const canvas = document.getElementById("ring");
    window.__ringlab.view.drawFrame();
    const { data } = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height);
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", data));
    return `${canvas.width}x${canvas.height}:${Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("")}`;
  });
}

// axe-core's violations inside `selector` as "rule: target" lines (empty: none).
const AXE = new globalThis.URL("./node_modules/axe-core/axe.min.js", import.meta.url).pathname;
export async function axeViolations(page, selector) {
  await page.addScriptTag({ path: AXE });
  const result = await page.evaluate((s) => window.axe.run(s, { resultTypes: ["violations"] }), selector);
  return result.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(" ")}`));
}
