// "The papers' metrics" in the playground: opening the section measures every algorithm; the
// table's figures are the JS API's `metrics(...)` at the same state (the page's own link
// reopened, its nodes and settings passed as `new Ring` options), in each removal order; each
// metric's winner sentence names the algorithms with the best figure in the table by its
// direction; the section works at 1280 × 800 and 390 × 844, in light and dark, by keyboard,
// with no axe violations.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { launch, open, settle, engine, SHOTS } from "./browser.mjs";
import { lookupCost } from "../../www/charts.js";

const AXE = join(dirname(fileURLToPath(import.meta.url)), "node_modules/axe-core/axe.min.js");

let chrome;
before(async () => { chrome = await launch(); });
after(async () => { await chrome?.close(); });

// Each column's figure, read from a `metrics()` row's fields, in the unit the header names
// (null: no figure); and which way is better. `lookup` is measured by the page, not here.
const LOWER = "lower is better", NEAREST = "nearest 1 is best";
const COLUMNS = {
  "Balance: max/mean (×)": [(m) => m.balance.maxOverMean, LOWER],
  "Balance: RSD (%)": [(m) => m.balance.rsd * 100, LOWER],
  "Resize balance: a join (×)": [(m) => m.balanceAfterAdd.maxOverMean, LOWER],
  "Resize balance: the removal (×)": [(m) => m.removal?.balanceAfter.maxOverMean ?? null, LOWER],
  "Monotonicity: a join (%)": [(m) => m.add.movedBetweenOthers * 100, LOWER],
  "Monotonicity: the removal (%)": [(m) => (m.removal ? m.removal.change.movedBetweenOthers * 100 : null), LOWER],
  "Disruption: a join (×)": [(m) => m.add.moved / m.add.ideal, NEAREST],
  "Disruption: the removal (×)": [(m) => (m.removal ? m.removal.change.moved / m.removal.change.ideal : null), NEAREST],
  "Not restored (%)": [(m) => (m.removal ? m.removal.restoreMoved * 100 : null), LOWER],
  "Lookup (ns)": [null, LOWER],
  "Memory per node (bytes)": [(m) => m.bytesPerNode, LOWER],
};

// The table as shown: headers, and per row the name, the cells' text and whether marked best.
const readTable = (page) => page.$eval("#metrics-table", (t) => ({
  caption: t.querySelector("caption").textContent,
  headers: [...t.querySelectorAll("thead th")].map((th) => th.textContent),
  rows: [...t.querySelectorAll("tbody tr")].map((tr) => ({
    algorithm: tr.querySelector("th[scope=row]").textContent,
    cells: [...tr.querySelectorAll("td")].map((td) => ({ text: td.firstChild?.textContent ?? "", best: td.classList.contains("win") })),
  })),
}));

// The same state through the JS API: the page's link reopened as a Session gives its nodes
// and settings, passed to `metrics` as `new Ring` options, on as many keys as the page uses.
const reference = (page, removalOrder) => engine(page, (mod, removalOrder) => {
  const s = mod.Session.fromLink(location.hash);
  const settings = s.settings();
  const nodes = s.nodes().map((n) => ({ name: n.name, weight: n.weight }));
  s.free();
  const keys = Math.min(settings.keys, 2000, Math.floor(60000 / mod.algorithms().length));
  const options = { algorithm: settings.algorithm, hash: settings.hash, bits: settings.bits, vnodes: settings.vnodes, nodes };
  return mod.metrics(options, keys, { removalOrder });
}, removalOrder);

// A cell's figure and its margin ("1.096 ± 0.131": counted on the sample keys; no margin:
// exact).
const cell = (text) => {
  const [value, margin] = text.split(" ± ");
  return { value: Number(value), margin: margin === undefined ? 0 : Number(margin), shown: value };
};
// Half a unit of the last digit shown: how far a rounded cell may be from its figure.
const slack = (text) => 0.5 * 10 ** -((cell(text).shown.split(".")[1] ?? "").length) + 1e-9;

function checkAgainstApi(table, rows, order) {
  assert.equal(table.rows.length, rows.length, "a row per algorithm");
  const headers = table.headers.slice(1, -1);
  assert.deepEqual(headers, Object.keys(COLUMNS), "the columns");
  table.rows.forEach((shown, r) => {
    const row = rows[r];
    assert.equal(shown.algorithm, row.algorithm);
    headers.forEach((h, c) => {
      const text = shown.cells[c].text;
      if ("error" in row) return assert.equal(text, "n/a", `${row.algorithm} ${h}`);
      const [figure] = COLUMNS[h];
      if (!figure) return assert.ok(Number(text) > 0, `${row.algorithm}: lookup measured, ${text}`);
      const expected = figure(row);
      if (expected === null) return assert.equal(text, "n/a", `${order} ${row.algorithm} ${h}`);
      assert.ok(Math.abs(cell(text).value - expected) <= slack(text), `${order} ${row.algorithm} ${h}: shown ${text}, metrics() ${expected}`);
    });
    const note = shown.cells.at(-1).text;
    if ("error" in row) assert.equal(note, row.error);
    else assert.equal(note, row.removalRefused ?? "", `${row.algorithm}'s note`);
  });
}

// Each sentence names the algorithms whose figure in the table is the best by its direction,
// and those cells are the ones marked best.
async function checkWinners(page, table) {
  const words = await page.$$eval("#metrics-words dt", (dts) => dts.map((dt) => ({ term: dt.textContent, winner: dt.nextElementSibling.querySelector(".winner").textContent })));
  const headers = table.headers.slice(1, -1);
  assert.deepEqual(words.map((w) => w.term), headers, "a definition per column");
  words.forEach(({ winner }, c) => {
    const direction = winner.includes(LOWER) ? LOWER : winner.includes(NEAREST) ? NEAREST : null;
    assert.equal(direction, COLUMNS[headers[c]][1], `${headers[c]}: ${winner}`);
    const score = (v) => (direction === LOWER ? v : Math.abs(v - 1));
    const figures = table.rows.filter((r) => r.cells[c].text !== "n/a").map((r) => ({ name: r.algorithm, text: r.cells[c].text, ...cell(r.cells[c].text) }));
    const one = /^(\S+) wins with (-?[\d.]+)/.exec(winner);
    const many = /^(\d+) tie with (-?[\d.]+)[^:]*: (.*)\.$/.exec(winner) ?? /^No clear winner: (\d+) are within sampling error of the best, (-?[\d.]+)[^:]*: (.*)\.$/.exec(winner);
    assert.ok(one || many, `a winner sentence: ${winner}`);
    const names = one ? [one[1]] : many[3].split(/, | and /);
    if (many) assert.equal(names.length, Number(many[1]), winner);
    const best = Number((one ?? many)[2]);
    const top = figures.reduce((a, b) => (score(b.value) < score(a.value) ? b : a));
    assert.ok(Math.abs(score(top.value) - score(best)) <= 2 * slack(top.text), `${headers[c]}: the sentence's best ${best} is ${top.text}`);
    // Crowned: those that could be the best, their lowest plausible score (the figure less
    // its margin; exact ones have none) under every figure's highest; the others not.
    const ceiling = Math.min(...figures.map((f) => score(f.value) + f.margin));
    for (const f of figures) {
      const low = score(f.value) - f.margin;
      if (names.includes(f.name)) assert.ok(low <= ceiling + 3 * slack(f.text), `${headers[c]}: ${f.name} ${f.text} could be the best (under ${ceiling})`);
      else assert.ok(low > ceiling - 3 * slack(f.text), `${headers[c]}: ${f.name} ${f.text} is not crowned, though it could be the best (under ${ceiling})`);
    }
    const marked = table.rows.filter((r) => r.cells[c].best).map((r) => r.algorithm);
    assert.deepEqual(marked, names, `${headers[c]}: the cells marked best`);
  });
}

test("the metrics table is the JS API's metrics() in each removal order, and each winner is the best", async () => {
  const { page, problems, context } = await open(chrome.browser, { viewport: { width: 1280, height: 800 } });
  // A state of our own: a sixth node, and maglev.
  await page.click("#add-node");
  await page.selectOption("#algorithm", "maglev");
  await settle(page);
  assert.equal(await page.$eval("#metrics-table tbody", (b) => b.children.length), 0, "nothing measured while closed");
  await page.click("#metrics summary");
  // The <details>' toggle event, which starts the measurement, comes in a task of its own:
  // wait for the table (or its error) before waiting for the work in hand.
  await page.waitForFunction(() => document.querySelector("#metrics-table tbody th") || document.getElementById("metrics-error").textContent);
  await settle(page);
  const algorithms = await engine(page, (mod) => mod.algorithms());
  let table = await readTable(page);
  assert.equal(table.rows.length, algorithms.length);
  assert.match(table.caption, /LIFO: .*node-6 leaves, then rejoins/);
  checkAgainstApi(table, await reference(page, "lifo"), "lifo");
  await checkWinners(page, table);
  for (const order of ["fifo", "random"]) {
    await page.selectOption("#metrics-order", order);
    await settle(page);
    table = await readTable(page);
    assert.match(table.caption, order === "fifo" ? /FIFO: .*node-1 leaves/ : /random: /);
    const rows = await reference(page, order);
    checkAgainstApi(table, rows, order);
    await checkWinners(page, table);
    if (order === "fifo") {
      const jump = table.rows.find((r) => r.algorithm === "jump");
      assert.match(jump.cells.at(-1).text, /jump fifo removal/, "jump says why it has no removal figures");
    }
  }
  const status = await page.textContent("#metrics-status");
  console.log(`metrics: ${status}`);
  assert.match(status, /^Measured in \d+ ms/);
  // A change of the ring marks the table out of date until measured again.
  await page.click("#add-node");
  await settle(page);
  assert.match(await page.textContent("#metrics-status"), /ring has changed/);
  await page.click("#metrics-run");
  await settle(page);
  checkAgainstApi(await readTable(page), await reference(page, "random"), "random, 7 nodes");
  assert.deepEqual(problems, []);
  await context.close();
});

// The lookup column's clock: a browser's steps by 0.1 to 1 ms, and 10,000 lookups of modulo
// take less (a single timed round showed "0.0" ns). Here a clock of 1 ms steps and rings whose
// 10,000 lookups take a set time: each is timed within the clock's step over the time spent.
test("lookup times are measured across the clock's steps, in bounded work", () => {
  const saved = Object.getOwnPropertyDescriptor(globalThis, "performance");
  let now = 0;
  Object.defineProperty(globalThis, "performance", { value: { now: () => Math.floor(now) }, configurable: true });
  const session = (msPerRound) => {
    const calls = { rounds: 0, freed: 0 };
    const ring = { keyOwners: (prefix, n) => { assert.deepEqual([prefix, n], ["key:", 10000]); calls.rounds += 1; now += msPerRound; }, free: () => { calls.freed += 1; } };
    return { calls, ringFor: (name) => { assert.equal(name, "modulo"); return ring; } };
  };
  try {
    for (const [msPerRound, ns] of [[0.1, 10], [0.04, 4], [0.7, 70], [3, 300], [40, 4000]]) {
      now = 0.5;
      const s = session(msPerRound);
      const measured = lookupCost(s, "modulo");
      assert.ok(Math.abs(measured - ns) <= ns * 0.25, `${ns} ns per lookup measured as ${measured}`);
      assert.ok(s.calls.rounds <= 100, `${s.calls.rounds} rounds`);
      assert.equal(s.calls.freed, 1, "the ring is freed");
    }
    // A clock that never moves: the work still ends, and the time is 0 (the engine's "not measured").
    const frozen = session(0);
    assert.equal(lookupCost(frozen, "modulo"), 0);
    assert.equal(frozen.calls.rounds, 100);
    // A refusal: no figure, and nothing left to free.
    assert.ok(Number.isNaN(lookupCost({ ringFor: () => { throw new Error("refused"); } }, "modulo")));
  } finally {
    Object.defineProperty(globalThis, "performance", saved);
  }
});

const SIZES = [["desktop", { width: 1280, height: 800 }], ["phone", { width: 390, height: 844 }]];
for (const [name, viewport] of SIZES) {
  for (const scheme of ["light", "dark"]) {
    test(`${name}, ${scheme}: the metrics section fits, scrolls sideways with its names in view, by keyboard, without axe violations`, async () => {
      const { page, problems, context } = await open(chrome.browser, { viewport, colorScheme: scheme });
      // By keyboard: focus the summary, open it with Enter, then Tab to the order, the button
      // and the table's scrolling region.
      await page.focus("#metrics summary");
      await page.keyboard.press("Enter");
      // The <details>' toggle event, which starts the measurement, comes in a task of its
      // own: wait for the table (or its error) rather than for the work in hand.
      await page.waitForFunction(() => document.querySelector("#metrics-table tbody th") || document.getElementById("metrics-error").textContent);
      assert.equal(await page.textContent("#metrics-error"), "");
      assert.equal(await page.$eval("#metrics", (d) => d.open), true);
      const order = [];
      for (let i = 0; i < 3; i++) {
        await page.keyboard.press("Tab");
        order.push(await page.evaluate(() => document.activeElement.id || document.activeElement.className));
      }
      assert.deepEqual(order, ["metrics-order", "metrics-run", "table-wrap metrics-wrap"]);
      await page.keyboard.press("ArrowDown"); // the focused region scrolls, nothing breaks
      await settle(page);
      const layout = await page.evaluate(() => {
        const wrap = document.querySelector(".metrics-wrap");
        const first = () => document.querySelector("#metrics-table tbody th").getBoundingClientRect().left;
        const before = first();
        wrap.scrollLeft = wrap.scrollWidth;
        const after = first();
        return {
          page: document.documentElement.scrollWidth, width: innerWidth,
          wrap: wrap.getBoundingClientRect().right, scrolls: wrap.scrollWidth > wrap.clientWidth,
          before, after, wrapLeft: wrap.getBoundingClientRect().left,
          words: document.querySelector("#metrics-words").getBoundingClientRect().right,
        };
      });
      assert.ok(layout.page <= layout.width, `the page does not scroll sideways: ${JSON.stringify(layout)}`);
      assert.ok(layout.wrap <= layout.width + 1 && layout.words <= layout.width + 1, `the section fits: ${JSON.stringify(layout)}`);
      if (layout.scrolls) assert.ok(Math.abs(layout.after - layout.before) <= 1 && layout.after >= layout.wrapLeft - 1, `the names stay in view: ${JSON.stringify(layout)}`);
      if (name === "phone") assert.ok(layout.scrolls, "on a phone the table scrolls sideways");
      await page.evaluate(() => { document.querySelector(".metrics-wrap").scrollLeft = 0; });
      await page.locator("#metrics").scrollIntoViewIfNeeded();
      await page.evaluate(() => document.querySelector(".metrics-wrap").scrollIntoView({ block: "center" }));
      await page.screenshot({ path: join(SHOTS, `60-metrics-${name}-${scheme}.png`) });
      await page.addScriptTag({ path: AXE });
      const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ["violations"] }));
      const violations = result.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(" ")}`));
      assert.deepEqual(violations, []);
      assert.deepEqual(problems, []);
      await context.close();
    });
  }
}
