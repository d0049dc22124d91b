// The playground's two builds of the engine: the first ring and the everyday changes come from
// its first build (pkg/ringlab_page.js); anything that build leaves out (another algorithm, a
// link of one, a chart or view comparing algorithms, an import) moves the page to the engine's
// (pkg/ringlab.js), its session made again there with its history and the user's keys. The
// figures after the move are checked against the engine run on its own (`engine`, `ownersOf`).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch, open, settle, engine, arcColours, movedInText, stillDigest, URL } from "./browser.mjs";

let chrome;
before(async () => { chrome = await launch(); });
after(async () => { await chrome?.close(); });

const NAMES = ["node-1", "node-2", "node-3", "node-4", "node-5"];
// The engine builds' wasm the page fetched, in order (the charts' module comes whenever a chart
// scrolls into view, and is not counted).
const wasmFetched = (page) =>
  page.evaluate(() => performance.getEntriesByType("resource").map((r) => r.name.replace(/^.*\//, "")).filter((n) => /^ringlab(_page)?_bg\.wasm$/.test(n)));
const legend = async (page) => {
  await settle(page);
  return page.$$eval("#legend tbody tr", (rows) => rows.map((r) => ({ name: r.cells[0].textContent, keys: Number(r.cells[5].textContent.replace(/,/g, "")) })));
};
const link = (page) => page.evaluate(() => location.hash);
// The share link the engine makes of `options`, in a page of its own (so that the page under
// test has not loaded the engine's build for it).
async function linkOf(options) {
  const { page, context } = await open(chrome.browser);
  const made = await engine(page, (mod, options) => new mod.Session(options).link(), options);
  await context.close();
  return made;
}

test("another algorithm moves the session to the engine's build, with its history and keys", async () => {
  const { page, problems, context } = await open(chrome.browser, { reducedMotion: "reduce" });
  const start = await link(page);
  // Changes in the first build: a node added, one removed and that undone, the user's keys.
  // (The default playground started on the figure; the pointer's move woke the first build.)
  assert.equal(await page.evaluate(() => window.__ringlab.startedOn), "figure");
  await page.click("#add-node");
  await settle(page);
  const added = await link(page);
  await page.click("button[aria-label='Remove node-1']");
  await settle(page);
  await page.click("#undo");
  await settle(page);
  assert.equal(await link(page), added);
  await page.click("#own-keys summary");
  const keys = Array.from({ length: 300 }, (_, i) => `user:${i * 7}`);
  await page.fill("#keys-text", keys.join("\n"));
  await page.click("#keys-load");
  await settle(page);
  assert.deepEqual(await wasmFetched(page), ["ringlab_page_bg.wasm"], "everyday changes need no second download");

  await page.selectOption("#algorithm", "jump");
  await settle(page);
  assert.deepEqual(await wasmFetched(page), ["ringlab_page_bg.wasm", "ringlab_bg.wasm"]);
  assert.match(await page.textContent("#summary"), /^6 nodes, jump/);
  assert.equal(await page.textContent("#config-error"), "");
  // The switch is measured on the user's keys, which came along: the engine alone agrees.
  const names = [...NAMES, "node-6"];
  const expected = await engine(page, (mod, [names, keys]) => {
    const ring = new mod.Ring({ vnodes: 32, nodes: names });
    const jump = new mod.Ring({ algorithm: "jump", nodes: names });
    const counts = names.map((n) => keys.filter((k) => jump.locate(k) === n).length);
    return { counts, moved: keys.filter((k) => ring.locate(k) !== jump.locate(k)).length };
  }, [names, keys]);
  assert.deepEqual((await legend(page)).map((r) => r.keys), expected.counts);
  assert.deepEqual(movedInText(await page.textContent("#last-change")), { moved: expected.moved, of: 300 });
  // The history came along: undo the switch, then the first build's add; the redo is there.
  await page.click("#undo");
  await settle(page);
  assert.equal(await link(page), added);
  assert.match(await page.textContent("#summary"), /^6 nodes, ring/);
  await page.click("#undo");
  await settle(page);
  assert.equal(await link(page), start);
  assert.deepEqual((await legend(page)).map((r) => r.name), NAMES);
  await page.click("#redo");
  await page.click("#redo");
  await settle(page);
  assert.match(await page.textContent("#summary"), /^6 nodes, jump/);
  const arcs = await arcColours(page);
  assert.deepEqual(arcs.wrong, []);
  assert.deepEqual(problems, []);
  await context.close();
});

test("the default playground shows the figure until the reader reaches for it, then does what they did", async () => {
  const context = await chrome.browser.newContext({ viewport: { width: 1200, height: 900 }, deviceScaleFactor: 1, reducedMotion: "reduce" });
  const page = await context.newPage();
  const problems = [];
  page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
  page.on("pageerror", (e) => problems.push(e.message));
  await page.goto(URL);
  await page.waitForFunction(() => window.__ringlab?.awaitsReader === true && window.__ringlab.pending === 0);
  const wasm = () => page.evaluate(() => performance.getEntriesByType("resource").map((r) => r.name.replace(/^.*\//, "")).filter((n) => n.endsWith(".wasm")));
  // Only the figure's module, and the whole first view: the ring, its words, the table.
  assert.deepEqual(await wasm(), ["ringlab_figure_bg.wasm"]);
  assert.equal(await page.evaluate(() => window.__ringlab.startedOn), "figure");
  assert.equal(await page.evaluate(() => document.body.dataset.ready), undefined);
  assert.equal(await page.evaluate(() => location.hash), "");
  const figure = {
    summary: await page.textContent("#summary"),
    about: await page.textContent("#about"),
    legend: await legend(page),
    still: await stillDigest(page),
    vnodes: await page.$eval("#vnodes", (s) => [s.value, s.max]),
    placeholder: await page.getAttribute("#add-name", "placeholder"),
  };
  assert.match(figure.summary, /^5 nodes, ring, 160 points \(xxh3, 32-bit ring\)/);
  assert.deepEqual(figure.legend.map((r) => r.name), NAMES);
  assert.equal(figure.legend.reduce((sum, r) => sum + r.keys, 0), 2000);
  assert.equal(figure.placeholder, "node-6");
  // Its click on Add node: the move to the button fetches the first build, and the click,
  // held meanwhile, is done by it.
  await page.click("#add-node");
  await page.waitForSelector("body[data-ready='1']");
  await settle(page);
  assert.deepEqual(await wasm(), ["ringlab_figure_bg.wasm", "ringlab_page_bg.wasm"]);
  assert.match(await page.textContent("#summary"), /^6 nodes, ring/);
  assert.deepEqual((await legend(page)).map((r) => r.name), [...NAMES, "node-6"]);
  assert.notEqual(await page.evaluate(() => location.hash), "");
  // The figure was the first build's default ring, exactly: undone, the page shows it again.
  await page.click("#undo");
  await settle(page);
  assert.equal(await page.textContent("#summary"), figure.summary);
  assert.equal(await page.textContent("#about"), figure.about);
  assert.deepEqual(await legend(page), figure.legend);
  assert.equal(await stillDigest(page), figure.still);
  assert.deepEqual(await page.$eval("#vnodes", (s) => [s.value, s.max]), figure.vnodes);
  // A setting picked without a pointer (no reach but the pick itself): its change is done
  // with the value picked, not the one the first build's first frame puts back.
  const other = await context.newPage();
  other.on("pageerror", (e) => problems.push(e.message));
  await other.goto(URL);
  await other.waitForFunction(() => window.__ringlab?.awaitsReader === true && window.__ringlab.pending === 0);
  await other.selectOption("#keys", "1000");
  await other.waitForSelector("body[data-ready='1']");
  await settle(other);
  assert.equal(await other.$eval("#keys", (s) => s.value), "1000");
  assert.equal((await legend(other)).reduce((sum, r) => sum + r.keys, 0), 1000);
  assert.match(await other.evaluate(() => location.hash), /&k=1000&/);
  assert.deepEqual(problems, []);
  await context.close();
});

test("a link of another algorithm opens in the engine's build", async () => {
  const shared = await linkOf({ algorithm: "libketama", nodes: ["10.0.0.1:11211", "10.0.0.2:11211"] });
  const { page, problems, context } = await open(chrome.browser, {}, shared);
  assert.match(await page.textContent("#summary"), /^2 nodes, libketama/);
  assert.equal(await page.textContent("#config-error"), "");
  assert.equal(await link(page), shared);
  assert.ok((await wasmFetched(page)).includes("ringlab_bg.wasm"));
  // The page started on the engine's build: the link's algorithm told it which it needs.
  assert.equal(await page.evaluate(() => window.__ringlab.startedOn), "full");
  // A change there is the engine's too, and undoable.
  await page.click("#add-node");
  await settle(page);
  assert.match(await page.textContent("#summary"), /^3 nodes, libketama/);
  await page.click("#undo");
  await settle(page);
  assert.equal(await link(page), shared);
  assert.deepEqual(problems, []);
  await context.close();
});

test("the views that compare algorithms load the engine's build when opened", async () => {
  const { page, problems, context } = await open(chrome.browser);
  await page.click("#add-node");
  await settle(page);
  await page.click("#agreement summary");
  // The <details>' toggle, which asks for the engine, comes in a task of its own: wait for the
  // agreement drawn from the engine's build before waiting for the work in hand.
  await page.waitForFunction(() => {
    const text = document.getElementById("agree-text").textContent;
    return (text !== "" && !/Loading/.test(text)) || document.getElementById("agree-error").textContent !== "";
  });
  await settle(page);
  assert.ok((await wasmFetched(page)).includes("ringlab_bg.wasm"));
  // The agreement of this pool under two clients, as the engine alone says it.
  assert.notEqual(await page.textContent("#agree-text"), "");
  assert.doesNotMatch(await page.textContent("#agree-text"), /Loading/);
  assert.equal(await page.textContent("#agree-error"), "");
  // The session moved with the add: still six nodes, and its undo takes the add back.
  assert.match(await page.textContent("#summary"), /^6 nodes, ring/);
  await page.click("#undo");
  await settle(page);
  assert.match(await page.textContent("#summary"), /^5 nodes, ring/);
  // The explain view now offers the catalog's algorithms, by their labels.
  const labels = await page.$$eval("#explain-with option", (os) => os.map((o) => o.textContent));
  const catalog = await engine(page, (mod) => mod.catalog().map((a) => a.label));
  assert.deepEqual(labels.slice(1), catalog);
  assert.deepEqual(problems, []);
  await context.close();
});

test("reaching for the algorithm picker starts loading the engine's build, and moves nothing yet", async () => {
  const { page, problems, context } = await open(chrome.browser);
  await page.click("#add-node");
  await settle(page);
  const before = await link(page);
  await page.focus("#algorithm");
  await page.waitForFunction(() => performance.getEntriesByType("resource").some((r) => r.name.endsWith("/ringlab_bg.wasm")));
  await settle(page);
  assert.equal(await link(page), before);
  assert.match(await page.textContent("#summary"), /^6 nodes, ring/);
  // Choosing another algorithm then moves the session (its add with it), once.
  await page.selectOption("#algorithm", "maglev");
  await settle(page);
  assert.match(await page.textContent("#summary"), /^6 nodes, maglev/);
  assert.deepEqual(await wasmFetched(page), ["ringlab_page_bg.wasm", "ringlab_bg.wasm"]);
  await page.click("#undo");
  await settle(page);
  assert.equal(await link(page), before);
  assert.deepEqual(problems, []);
  await context.close();
});

test("when the engine's build cannot be loaded, the picker shows the ring's algorithm again", async () => {
  const { page, problems, context } = await open(chrome.browser);
  let refuse = true;
  await page.route(/\/pkg\/ringlab_bg\.wasm$/, (route) => (refuse ? route.abort() : route.continue()));
  await page.click("#add-node");
  await settle(page);
  const before = await link(page);
  await page.selectOption("#algorithm", "libketama");
  await page.waitForFunction(() => /could not be loaded/.test(document.getElementById("config-error").textContent));
  await settle(page);
  // Nothing changed, and nothing on the page says otherwise: the picker, the words, the link.
  assert.equal(await page.inputValue("#algorithm"), "ring");
  assert.match(await page.textContent("#summary"), /^6 nodes, ring/);
  assert.equal(await link(page), before);
  // The next try downloads it again, and moves.
  refuse = false;
  await page.selectOption("#algorithm", "libketama");
  await page.waitForFunction(() => /^6 nodes, libketama/.test(document.getElementById("summary").textContent));
  await settle(page);
  assert.equal(await page.inputValue("#algorithm"), "libketama");
  assert.equal(await page.textContent("#config-error"), "");
  assert.deepEqual(problems.filter((p) => !/ringlab_bg\.wasm|Failed to load resource/.test(p)), []);
  await context.close();
});

test("a link opened while the engine's build downloads is the session that moves", async () => {
  const other = await linkOf({ nodes: ["a", "b", "c"], vnodes: 8 });
  const { page, problems, context } = await open(chrome.browser);
  // Hold the engine's wasm until the link has opened in the first build.
  let release;
  const held = new Promise((resolve) => (release = resolve));
  await page.route(/\/pkg\/ringlab_bg\.wasm$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.selectOption("#algorithm", "jump");
  await page.evaluate((link) => (location.hash = link), other);
  await page.waitForFunction(() => /^3 nodes, ring/.test(document.getElementById("summary").textContent));
  release();
  await settle(page);
  // The choice of jump went through on the session of the link, moved to the engine's build.
  await page.waitForFunction(() => /^3 nodes, jump/.test(document.getElementById("summary").textContent));
  const names = await page.$$eval("#legend tbody tr", (rows) => rows.map((r) => r.cells[0].textContent));
  assert.deepEqual(names, ["a", "b", "c"]);
  await page.click("#undo");
  await settle(page);
  assert.equal(await link(page), other);
  assert.deepEqual(problems, []);
  await context.close();
});
