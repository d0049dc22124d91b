// The tour (learn.html): walked from the first step to the last with the keyboard alone, each
// step's numbers read against the JS API at the same state, each exercise answered once right
// and once wrong, deep links and back/forward, no console error, no CSP violation, no axe
// violation in light and dark, no sideways scroll at 360 px; screenshots of every step at
// 1280 × 800 and 390 × 844. Then the same walk in Firefox through geckodriver.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { launch, engine, URL, SHOTS, axeViolations } from "./browser.mjs";

const AXE = join(dirname(fileURLToPath(import.meta.url)), "node_modules/axe-core/axe.min.js");
const CSP = process.env.RINGLAB_CSP_URL;
const STEPS = 10;

let chrome;
before(async () => { chrome = await launch(); });
after(async () => { await chrome?.close(); });

async function openTour(options = {}, hash = "", base = URL) {
  const context = await chrome.browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1, ...options });
  const page = await context.newPage();
  const problems = [];
  page.on("console", (m) => m.type() === "error" && problems.push(`console: ${m.text()}`));
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("response", (r) => r.status() >= 400 && problems.push(`HTTP ${r.status()}: ${r.url()}`));
  await page.addInitScript(() => {
    window.__violations = [];
    document.addEventListener("securitypolicyviolation", (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  await page.goto(`${base}learn.html${hash}`);
  await page.waitForSelector("body[data-ready='1']", { timeout: 30000 });
  return { page, problems, context };
}

const shown = (page) => page.evaluate(() => [...document.querySelectorAll("section.step")].filter((s) => !s.hidden).map((s) => s.id));

// Every figure of the step shown has drawn (its legend is filled).
async function figuresDrawn(page) {
  await page.waitForFunction(() => {
    const step = [...document.querySelectorAll("section.step")].find((s) => !s.hidden);
    return [...step.querySelectorAll("hash-ring")].every((r) => r.shadowRoot.querySelectorAll("[part=legend] li").length > 0);
  }, null, { timeout: 30000 });
}

// The facts of the step shown, as the page writes them.
// (Self-contained, so Firefox's walk below runs the same function through WebDriver.)
const readFacts = () => {
    const step = [...document.querySelectorAll("section.step")].find((s) => !s.hidden);
    // Table cells and lines apart, so their numbers stay apart.
    const text = (el) =>
      el.tagName === "TBODY" ? [...el.querySelectorAll("th, td")].map((c) => c.textContent).join(" ")
      : el.querySelector(".line") ? [...el.querySelectorAll(".line")].map((l) => l.textContent).join("\n")
      : el.textContent;
    return Object.fromEntries([...step.querySelectorAll("[data-fact]")].map((el) => [el.dataset.fact, text(el)]));
  };
const factsShown = (page) => page.evaluate(readFacts);

// The numbers in a text, names (node-5, user:7) left out.
function numbers(text) {
  const bare = text.replace(/node-\d+|user:\d+|key:\d*|\b[mnb]\d\b|2⁶[234]|−2⁶³|0x[0-9a-f]+/g, " ");
  return [...bare.matchAll(/\d[\d,]*(?:\.\d+)?/g)].map((m) => {
    const s = m[0].replaceAll(",", "");
    const decimals = s.includes(".") ? s.split(".")[1].length : 0;
    return { value: Number(s), tolerance: 0.5 * 10 ** -decimals + 1e-9, text: m[0] };
  });
}

function sameNumbers(name, text, expected) {
  const got = numbers(text);
  assert.equal(got.length, expected.length, `${name}: ${JSON.stringify(text)} has ${got.length} numbers, the API gives ${JSON.stringify(expected)}`);
  got.forEach((g, i) => assert.ok(Math.abs(g.value - expected[i]) <= g.tolerance, `${name}: ${g.text} is not the API's ${expected[i]} (in ${JSON.stringify(text)})`));
}

// The JS API's answers at each step's state, computed in the page from the library module.
function reference(mod) {
  const names = (n, from = 1) => Array.from({ length: n }, (_, i) => `node-${i + from}`);
  const KEY = "user:7";
  const r = {};
  const r4 = new mod.Ring({ nodes: names(4), vnodes: 160 });
  const r5 = new mod.Ring({ nodes: names(5), vnodes: 160 });
  const d = mod.Ring.diff(r4, r5);
  const moves = new mod.Session({ nodes: names(4), vnodes: 160 }).chartData("moves").data.steps;
  const s1 = mod.Ring.diffSample(new mod.Ring({ algorithm: "modulo", nodes: names(4) }), new mod.Ring({ algorithm: "modulo", nodes: names(5) }), "key:", 400);
  r[1] = {
    "s1.moved": [d.moduloFraction * 100],
    "s1.table": moves.filter((s) => [2, 4, 9, 19, 48].includes(s.nodes)).flatMap((s) => [s.nodes, s.nodes + 1, s.join.modulo * 100]),
    "s1.keys": [s1.keys],
    "s1.movedKeys": [s1.movedKeys, s1.movedFraction * 100],
  };
  const one = new mod.Ring({ nodes: names(4), vnodes: 1 });
  r[2] = {
    "s2.position": one.keyPosition(KEY),
    "s2.fraction": [new mod.Session({ nodes: names(4), vnodes: 1, keys: 60 }).follow(KEY).fraction * 100],
    "s2.owner": one.locate(KEY),
    "s2.points": [new mod.Session({ nodes: names(4), vnodes: 1, keys: 60 }).scene().points.length],
  };
  const s3 = mod.Ring.diffSample(r4, r5, "key:", 400);
  r[3] = {
    "s3.moved": [d.movedFraction * 100],
    "s3.arcs": [d.arcs.length],
    "s3.allNew": d.arcs.every((a) => a.to === "node-5") ? "every one of them to node-5" : "not all of them to node-5",
    "s3.ideal": [moves.find((s) => s.nodes === 4).join.ideal * 100],
    "s3.modulo": [d.moduloFraction * 100],
    "s3.keys": [s3.keys],
    // Two binomial standard deviations of the count, as the question says and the check judges.
    "s3.tolerance": [Math.ceil(2 * Math.sqrt(s3.movedKeys * (1 - s3.movedKeys / s3.keys)))],
    movedKeys: s3.movedKeys,
  };
  r[4] = {
    "s4.table": [1, 10, 150].flatMap((v) => {
      const s = new mod.Ring({ nodes: names(5, 0), vnodes: v }).spread();
      return [v, s.maxOverMean, s.rsd * 100, mod.theoreticalRsd(5, v) * 100];
    }),
    busiest: Object.fromEntries([1, 300].map((v) => [v, new mod.Ring({ nodes: names(5, 0), vnodes: v }).spread().maxOverMean])),
    "s4.target": [1.2],
    // The exact busiest at every count the slider offers.
    every: Array.from({ length: 300 }, (_, i) => new mod.Ring({ nodes: names(5, 0), vnodes: i + 1 }).spread().maxOverMean),
  };
  const shares = new mod.Session({ nodes: "small, medium*2, big*4", vnodes: 100 }).chartData("shares").data.nodes;
  r[5] = { "s5.shares": shares.flatMap((n) => [n.weight, n.share * 100, n.ideal * 100]) };
  const zoned = names(6).map((name, i) => ({ name, zone: ["a", "b", "c"][i >> 1] }));
  const zoneOf = (name) => zoned.find((n) => n.name === name).zone;
  const zonedWalk = new mod.Session({ nodes: zoned, vnodes: 32, replicas: 3 }).follow(KEY);
  const passed = zonedWalk.skipped.map((s) => `${s.name} (zone ${zoneOf(s.name)})`);
  r[6] = {
    "s6.plain": new mod.Ring({ nodes: names(6), vnodes: 32 }).replicas(KEY, 3).join(", "),
    "s6.zoned": new mod.Ring({ nodes: zoned, vnodes: 32 }).replicas(KEY, 3).map((n) => `${n} (zone ${zoneOf(n)})`).join(", "),
    "s6.skipped": passed.length ? `, passing over ${passed.join(", ")}: ${passed.length > 1 ? "their zones already have" : "its zone already has"} a copy` : "",
  };
  const change = (algorithm) => {
    const down = new mod.Session({ algorithm, nodes: names(5), vnodes: 16, keys: 10000 }).markDown("node-2");
    let removed = null;
    try {
      removed = new mod.Session({ algorithm, nodes: names(5), vnodes: 16, keys: 10000 }).remove("node-2").sample.movedKeys;
    } catch {
      // refused: the page says why, in the engine's words
    }
    return { down, removed };
  };
  const ring = change("ring");
  const downRing = new mod.Ring({ nodes: names(5), vnodes: 16 });
  downRing.markDown("node-2");
  const gone = new mod.Ring({ nodes: names(5), vnodes: 16 });
  gone.remove("node-2");
  r[7] = {
    "s7.ring": [ring.down.sample.movedKeys, ring.down.sample.keys, ring.removed, mod.Ring.diffSample(downRing, gone, "key:", 10000).movedKeys],
    others: ["maglev", "modulo", "jump"].map((a) => {
      const { down, removed } = change(a);
      return { label: mod.catalog().find((x) => x.name === a).label, numbers: [down.lost || down.sample.movedKeys, down.sample.keys, ...(removed === null ? [] : [removed])], refused: removed === null };
    }),
    ownerBefore: new mod.Ring({ nodes: names(5), vnodes: 16 }).locate(KEY),
    ownerAfter: gone.locate(KEY),
  };
  // Step 8: the same nodes, points and keys on the ring and with bounded loads.
  const hotSession = new mod.Session({ nodes: names(5), vnodes: 4, keys: 1000, zipf: 1 });
  const bounded = new mod.Session({ algorithm: "bounded-load", nodes: names(5), vnodes: 4, keys: 1000, zipf: 1 });
  const [rows8, rowsB] = [hotSession.nodes(), bounded.nodes()];
  const top = (rows, by) => Math.max(...rows.map((r) => r[by]));
  r[8] = {
    "s8.keys": [1000],
    "s8.vnodes": [4],
    "s8.epsilon": [bounded.settings().options.epsilon],
    "s8.hot": [top(rows8, "keys"), 1000, top(rows8, "traffic") * 100],
    "s8.bounded": [top(rowsB, "keys"), top(rowsB, "traffic") * 100],
    "s8.table": rows8.flatMap((r, i) => [r.keys, rowsB[i].keys, r.traffic * 100, rowsB[i].traffic * 100]),
    // What each figure's legend shows: the engine's rows at the figure's state.
    legends: { "fig-8": hotSession.nodes().map((n) => n.legend), "fig-8-bounded": bounded.nodes().map((n) => n.legend) },
  };
  r[9] = {};
  for (const [id, algorithm, nodes] of [["redis", "redis-cluster", "m1, m2, m3"], ["cassandra", "cassandra", "n1, n2, n3"], ["jump", "jump", "b0, b1, b2"], ["maglev", "maglev", "m1, m2, m3"]]) {
    const s = new mod.Session({ algorithm, nodes, keys: 300 });
    const ringOf = s.ringFor(algorithm);
    r[9][`s9.${id}`] = s.scene().description;
    r[9][`key.${id}`] = `${ringOf.describeKey(KEY)} → ${ringOf.locate(KEY)}`;
  }
  const tier = new mod.Session({ nodes: names(5), vnodes: 160, keys: 500 });
  tier.setWorkload({ items: 50_000_000, itemBytes: 2048, requestsPerSec: 100_000 });
  const cost = tier.add("node-6").cost;
  const plan = mod.Ring.plan(r5, new mod.Ring({ nodes: names(6), vnodes: 160 }), { steps: 4, items: 50_000_000, itemBytes: 2048, bytesPerSec: 100_000_000 });
  r[10] = {
    "s10.items": [50_000_000],
    "s10.itemBytes": [2.048],
    "s10.rps": [100_000],
    "s10.moved": [cost.placement.movedFraction * 100],
    "s10.itemsMoved": [cost.placement.itemsMoved],
    "s10.bytesMoved": [cost.placement.bytesMoved / 1e9],
    "s10.misses": [Math.round(cost.placement.extraMissesPerSec)],
    "s10.modulo": [cost.modulo.itemsMoved, cost.modulo.bytesMoved / 1e9, Math.round(cost.modulo.extraMissesPerSec)],
    "s10.planSteps": [plan.steps.length],
    "s10.bandwidth": [100],
    "s10.planTime": [plan.total.seconds],
  };
  return r;
}

// The step's facts against the API's.
function checkFacts(step, facts, ref) {
  const want = ref[step];
  for (const [name, text] of Object.entries(facts)) {
    const expected = want[name];
    if (step === 7 && name === "s7.others") {
      for (const o of want.others) {
        const line = text.split("\n").find((l) => l.startsWith(o.label));
        assert.ok(line, `s7.others names ${o.label}: ${text}`);
        // The refusal's own words may hold numbers (node names are left out): only the counts.
        const counts = numbers(line.split("removing it is refused")[0].replace(o.label, ""));
        const kept = o.refused ? counts.slice(0, 2) : counts;
        sameNumbers(`s7.others ${o.label}`, kept.map((c) => c.text).join(" "), o.numbers);
        if (o.refused) assert.match(line, /removing it is refused/);
      }
      continue;
    }
    if (step === 9) {
      if (name === "s9.words") for (const id of ["redis", "cassandra", "jump", "maglev"]) assert.ok(text.includes(want[`key.${id}`]), `${text} has ${want[`key.${id}`]}`);
      else assert.ok(expected.endsWith(text) && text.length > 20, `${name}: ${text} is the engine's ${expected}`);
      continue;
    }
    assert.notEqual(expected, undefined, `the test knows fact ${name}`);
    if (typeof expected === "string") assert.equal(text, expected, name);
    else sameNumbers(name, text, expected);
  }
}

const press = (page, key) => page.keyboard.press(key);
const verdict = (page, form) => page.locator(`[data-exercise="${form}"] .verdict`).textContent();

test("the tour, walked with the keyboard: every number is the API's, every exercise checks", async () => {
  const { page, problems, context } = await openTour();
  const ref = await engine(page, reference);
  assert.deepEqual(await shown(page), ["step-1"]);
  for (let step = 1; step <= STEPS; step++) {
    assert.deepEqual(await shown(page), [`step-${step}`], `step ${step} is the one shown`);
    assert.equal(new globalThis.URL(page.url()).hash, step === 1 ? "" : `#step-${step}`);
    await figuresDrawn(page);
    // The screen reader's line names the step, then says the figure in the engine's words.
    await page.waitForFunction((n) => /^Step \d+ of \d+: .+\. \S/.test(document.getElementById("announce").textContent) && document.getElementById("announce").textContent.startsWith(`Step ${n} `), step);
    checkFacts(step, await factsShown(page), ref);
    if (step === 8) {
      // Each figure's legend is the engine's rows at its state: keys' shares and requests' shares.
      for (const [id, want] of Object.entries(ref[8].legends)) {
        const shown = await page.locator(`#${id}`).evaluate((r) => [...r.shadowRoot.querySelectorAll("[part=legend] li")].map((li) => li.textContent));
        assert.deepEqual(shown, want, id);
        assert.ok(want.every((l) => / · \d+\.\d% of requests$/.test(l)), `${id}: ${want}`);
      }
    }
    if (step === 1) {
      // The figure's own Add node: the modulo figure moves the keys the text says.
      await page.locator("#fig-1").evaluate((r) => r.shadowRoot.querySelector("[part~=add]").focus());
      await press(page, "Enter");
      await page.waitForFunction(() => /moved/.test(document.getElementById("fig-1").shadowRoot.querySelector("[part=message]").textContent));
      const said = await page.locator("#fig-1").evaluate((r) => r.shadowRoot.querySelector("[part=message]").textContent);
      assert.match(said, new RegExp(`moved ${ref[1]["s1.movedKeys"][0]} of 400 keys`));
      // Reset by the pager's button, reached with Tab.
      await page.focus("#reset");
      await press(page, "Enter");
      await page.waitForFunction(() => document.getElementById("fig-1").shadowRoot.querySelectorAll("[part=legend] li").length === 4);
      await page.focus("#step-1-title");
    }
    if (step === 3) {
      // The scripted join, played with Enter on its button: the figure says the same count.
      await page.focus('button[data-play="3"]');
      await press(page, "Enter");
      await page.waitForFunction(() => /moved/.test(document.getElementById("fig-3").shadowRoot.querySelector("[part=message]").textContent), null, { timeout: 20000 });
      const said = await page.locator("#fig-3").evaluate((r) => r.shadowRoot.querySelector("[part=message]").textContent);
      assert.match(said, new RegExp(`moved ${ref[3].movedKeys} of 400 keys`));
      // Typed: a wrong answer (hash % N's 80%), then the engine's count.
      await page.focus("#ex-moved");
      await page.keyboard.type("320");
      await press(page, "Enter");
      assert.match(await verdict(page, "moved-keys"), new RegExp(`^Not quite\\. The engine counts ${ref[3].movedKeys} keys`));
      // Arrow keys inside a field stay in the field.
      await press(page, "ArrowRight");
      assert.deepEqual(await shown(page), ["step-3"]);
      await page.fill("#ex-moved", "");
      await page.keyboard.type(String(ref[3].movedKeys + 7));
      await press(page, "Enter");
      assert.match(await verdict(page, "moved-keys"), /^Right\. /);
      // The margin is two binomial standard deviations of the count on the sample's keys.
      const p = ref[3].movedKeys / ref[3]["s3.keys"][0];
      const margin = Math.ceil(2 * Math.sqrt(ref[3]["s3.keys"][0] * p * (1 - p)));
      assert.match(await verdict(page, "moved-keys"), new RegExp(`Within ${margin} keys of the count is right`));
      for (const [guess, right] of [[ref[3].movedKeys - margin, true], [ref[3].movedKeys + margin + 1, false]]) {
        await page.fill("#ex-moved", "");
        await page.keyboard.type(String(guess));
        await press(page, "Enter");
        assert.match(await verdict(page, "moved-keys"), right ? /^Right\. / : /^Not quite\. /, `${guess} of ${ref[3].movedKeys} ± ${margin}`);
      }
      await page.focus("#step-3-title");
    }
    if (step === 4) {
      // The slider, by keys: V = 1 is too uneven; End (V = 300) is checked by the engine.
      await page.focus("#ex-vnodes");
      await press(page, "Home");
      await press(page, "Enter");
      assert.ok(ref[4].busiest[1] > 1.2);
      // The target is one the lesson's direction reaches: dragging right from anywhere below
      // it gets there, and every count past a point stays there.
      const last = ref[4].every.findLastIndex((b) => b > 1.2) + 1;
      assert.ok(last < 150, `every V from ${last + 1} to 300 meets 1.2×`);
      assert.match(await verdict(page, "vnodes"), /^Not quite\. At V = 1 the busiest node still carries .* More points even out the arcs: drag right\.$/);
      await press(page, "End");
      assert.equal(await page.getAttribute("#fig-4", "vnodes"), "300", "the figure follows the slider");
      await press(page, "Enter");
      assert.match(await verdict(page, "vnodes"), ref[4].busiest[300] <= 1.2 ? /^Right\. At V = 300/ : /^Not quite\. At V = 300/);
      assert.ok((await verdict(page, "vnodes")).includes(`${ref[4].busiest[300].toFixed(2)}×`));
      await page.focus("#step-4-title");
    }
    if (step === 7) {
      const wrong = ["node-1", "node-3", "node-4", "node-5"].find((n) => n !== ref[7].ownerAfter);
      await page.focus(`[data-exercise="owner"] button[data-answer="${wrong}"]`);
      await press(page, "Enter");
      assert.match(await verdict(page, "owner"), new RegExp(`^Not quite\\. The engine says ${ref[7].ownerAfter}\\.`));
      await page.focus(`[data-exercise="owner"] button[data-answer="${ref[7].ownerAfter}"]`);
      await press(page, "Space");
      assert.match(await verdict(page, "owner"), new RegExp(`^Right\\. The engine says ${ref[7].ownerAfter}\\.`));
      // The figure's node-2 is down: the element says so in its own words.
      const label = await page.locator("#fig-7").evaluate((r) => r.shadowRoot.querySelector("canvas").getAttribute("aria-label"));
      assert.match(label, /down/i);
      await page.focus("#step-7-title");
    }
    await press(page, step % 2 ? "ArrowRight" : "PageDown");
    // The step changes on hashchange, a task after the key press.
    if (step < STEPS) await page.waitForFunction((n) => !document.getElementById(`step-${n}`).hidden, step + 1);
  }
  // Past the last step nothing happens; back and forward walk the history.
  assert.deepEqual(await shown(page), ["step-10"]);
  await page.goBack();
  await page.waitForFunction(() => !document.getElementById("step-9").hidden);
  await page.goForward();
  await page.waitForFunction(() => !document.getElementById("step-10").hidden);
  await press(page, "PageUp");
  await page.waitForFunction(() => !document.getElementById("step-9").hidden);
  assert.deepEqual(await page.evaluate(() => window.__violations), []);
  assert.deepEqual(problems, []);
  await context.close();
});

test("the playground and the docs link to the tour", async () => {
  const context = await chrome.browser.newContext();
  const page = await context.newPage();
  for (const from of ["", "docs.html"]) {
    await page.goto(`${URL}${from}`);
    await page.click('a[href="learn.html"]');
    await page.waitForURL(/learn\.html$/);
    assert.equal(await page.locator("h1").textContent(), "Consistent hashing in ten steps");
  }
  await context.close();
});

test("a deep link opens its step; the reduced-motion sequence ends at once", async () => {
  const { page, problems, context } = await openTour({ reducedMotion: "reduce" }, "#step-10");
  assert.deepEqual(await shown(page), ["step-10"]);
  await figuresDrawn(page);
  await page.click('button[data-play="10"]');
  await page.waitForFunction(() => /Added node-6/.test(document.getElementById("fig-10").shadowRoot.querySelector("[part=message]").textContent));
  assert.deepEqual(problems, []);
  await context.close();
});

test("sequence.js: docs' example plays its steps in order; a bad step is refused before any change", async () => {
  const context = await chrome.browser.newContext({ reducedMotion: "reduce" });
  const page = await context.newPage();
  const problems = [];
  page.on("pageerror", (e) => problems.push(e.message));
  await page.goto(`${URL}docs.html#sequences`);
  await page.click('button[data-demo="sequence"]');
  await page.waitForFunction(() => /Removed b/.test(document.querySelector('[data-out="sequence"]').textContent), null, { timeout: 20000 });
  const legend = () => page.locator("#ex-sequence").evaluate((r) => [...r.shadowRoot.querySelectorAll("[part=legend] li")].map((li) => li.textContent.split(" ")[0]));
  assert.deepEqual(await legend(), ["a", "c", "d", "e"]);
  const refused = await page.evaluate(async () => {
    const { play } = await import("./sequence.js");
    return play(document.getElementById("ex-sequence"), [{ add: "f" }, { ad: "g" }]).then(() => "played", (e) => e.name);
  });
  assert.equal(refused, "TypeError");
  assert.deepEqual(await legend(), ["a", "c", "d", "e"], "nothing changed");
  // Played again: it starts from the attributes (reset), so it ends the same.
  await page.click('button[data-demo="sequence"]');
  await page.waitForFunction(() => document.getElementById("ex-sequence").shadowRoot.querySelectorAll("[part=legend] li").length === 4);
  assert.deepEqual(problems, []);
  await context.close();
});

for (const scheme of ["light", "dark"]) {
  test(`every step has no axe violation (${scheme}), fits 360 px, and is photographed`, async () => {
    const { page, problems, context } = await openTour({ colorScheme: scheme });
    await page.addScriptTag({ path: AXE });
    for (let step = 1; step <= STEPS; step++) {
      await page.evaluate((n) => (location.hash = `#step-${n}`), step);
      await page.waitForFunction((n) => !document.getElementById(`step-${n}`).hidden, step);
      await figuresDrawn(page);
      const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ["violations"] }));
      const found = result.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(" ")}`));
      assert.deepEqual(found, [], `step ${step}`);
      if (scheme === "light") await page.screenshot({ path: `${SHOTS}/learn-${step}-1280.png`, fullPage: true });
    }
    for (const [width, height, name] of [[390, 844, "390"], [360, 740, null]]) {
      await page.setViewportSize({ width, height });
      for (let step = 1; step <= STEPS; step++) {
        await page.evaluate((n) => (location.hash = `#step-${n}`), step);
        await page.waitForFunction((n) => !document.getElementById(`step-${n}`).hidden, step);
        await figuresDrawn(page);
        const wide = await page.evaluate(() => document.scrollingElement.scrollWidth - innerWidth);
        assert.ok(wide <= 0, `step ${step} at ${width} px scrolls sideways by ${wide} px`);
        if (name && scheme === "light") await page.screenshot({ path: `${SHOTS}/learn-${step}-${name}.png`, fullPage: true });
      }
    }
    assert.deepEqual(problems, []);
    await context.close();
  });
}

// ---- What each step's figure shows, against its words, at both sizes and in both themes.

// A colour as [r, g, b], as the canvas paints it.
const rgb = (css) => {
  const c = document.createElement("canvas").getContext("2d", { willReadFrequently: true });
  c.fillStyle = css;
  c.fillRect(0, 0, 1, 1);
  return [...c.getImageData(0, 0, 1, 1).data.slice(0, 3)];
};

// A figure's canvas: its pixels, the text colour it draws with, and a ray's pixels (from the
// centre outwards at `fraction` of the circle, 0 at the top, clockwise).
const pixelsOf = (id) => {
  const el = document.getElementById(id);
  const canvas = el.shadowRoot.querySelector("canvas");
  const img = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height);
  const css = canvas.getBoundingClientRect();
  const at = (x, y) => {
    const i = (Math.round(y) * img.width + Math.round(x)) * 4;
    return [img.data[i], img.data[i + 1], img.data[i + 2], img.data[i + 3]];
  };
  return { el, canvas, img, css, at, scale: canvas.width / css.width };
};

const MARKS = `const rgb = ${rgb}; const pixelsOf = ${pixelsOf};`;

async function openAt(width, height, colorScheme, hash) {
  const { page, problems, context } = await openTour({ viewport: { width, height }, colorScheme }, hash);
  // A figure draws once it comes near the screen: each is brought there in turn.
  for (const ring of await page.locator("section.step:not([hidden]) hash-ring").all()) {
    await ring.scrollIntoViewIfNeeded();
    await ring.evaluate((r) => new Promise((resolve) => (r.shadowRoot.querySelector("[part=legend] li") ? resolve() : r.addEventListener("ready", resolve, { once: true }))));
  }
  await figuresDrawn(page);
  await page.evaluate(() => document.querySelector("section.step:not([hidden]) h2").scrollIntoView());
  return { page, problems, context };
}

const SIZES = [[1280, 800], [390, 844]];
for (const [width, height] of SIZES) {
  for (const colorScheme of ["light", "dark"]) {
    const name = `${width} × ${height}, ${colorScheme}`;

    test(`step 2 draws each node's point where the engine puts it (${name})`, async () => {
      const { page, problems, context } = await openAt(width, height, colorScheme, "#step-2");
      const got = await page.evaluate(async (marks) => {
        const { rgb, pixelsOf } = new Function(`${marks}; return { rgb, pixelsOf };`)();
        const mod = await import("./pkg/ringlab.js");
        await mod.default();
        const { el, img, at, scale } = pixelsOf("fig-2");
        const s = new mod.Session({ nodes: el.getAttribute("nodes"), vnodes: Number(el.getAttribute("vnodes")), keys: Number(el.getAttribute("keys")) });
        const points = [...s.scene().points];
        s.free();
        const fg = rgb(getComputedStyle(el).getPropertyValue("--_fg"));
        const cx = img.width / 2, cy = img.height / 2;
        // How many pixels in the text colour a ray from the centre crosses.
        const ray = (f) => {
          let n = 0;
          const a = f * 2 * Math.PI - Math.PI / 2;
          for (let d = 0; d < Math.min(cx, cy) - 1; d += 0.5) {
            const p = at(cx + Math.cos(a) * d, cy + Math.sin(a) * d);
            if (Math.abs(p[0] - fg[0]) + Math.abs(p[1] - fg[1]) + Math.abs(p[2] - fg[2]) < 60 && p[3] > 200) n++;
          }
          return n;
        };
        const between = points.map((p, i) => {
          const next = i + 1 < points.length ? points[i + 1] : points[0] + 1;
          return (p + (next - p) / 2) % 1;
        });
        return { points, scale, on: points.map(ray), off: between.map(ray), said: document.querySelector('[data-fact="s2.points"]')?.textContent };
      }, MARKS);
      assert.equal(got.points.length, 4, "one point a node");
      got.on.forEach((n, i) => assert.ok(n >= 2, `point ${i} at ${got.points[i].toFixed(4)} is marked on the canvas (${n} px)`));
      got.off.forEach((n, i) => assert.equal(n, 0, `nothing marked halfway between points ${i} and ${i + 1}`));
      assert.equal(got.said, String(got.points.length), "the words count the points drawn");
      assert.deepEqual(await axeViolations(page, "#step-2"), []);
      await page.screenshot({ path: join(SHOTS, `tour-2-${width}-${colorScheme}.png`) });
      assert.deepEqual(problems, []);
      await context.close();
    });

    test(`step 6 shows its zones, and the walk takes a new zone first (${name})`, async () => {
      const { page, problems, context } = await openAt(width, height, colorScheme, "#step-6");
      const ref = await engine(page, (mod) => {
        const el = document.getElementById("fig-6");
        const s = new mod.Session({ nodes: el.getAttribute("nodes"), vnodes: Number(el.getAttribute("vnodes")), replicas: Number(el.getAttribute("replicas")), keys: Number(el.getAttribute("keys")) });
        const rows = s.nodes().map((n) => ({ name: n.name, zone: n.zone, legend: n.legend }));
        const f = s.follow("user:7");
        s.free();
        return { rows, walk: f.walk.map((w) => w.name), skipped: f.skipped.map((w) => w.name), text: f.text };
      });
      const zone = Object.fromEntries(ref.rows.map((r) => [r.name, r.zone]));
      assert.deepEqual(new Set(Object.values(zone)), new Set(["a", "b", "c"]), "six nodes in three zones");
      // The legend names each node's zone.
      const legend = await page.locator("#fig-6").evaluate((r) => [...r.shadowRoot.querySelectorAll("[part=legend] li")].map((li) => li.textContent));
      assert.deepEqual(legend, ref.rows.map((r) => r.legend));
      legend.forEach((l, i) => assert.ok(l.startsWith(`${ref.rows[i].name} (zone ${ref.rows[i].zone}) `), l));
      // The walk: three zones; the words name its stops and what it passed over, as the figure.
      assert.equal(new Set(ref.walk.map((n) => zone[n])).size, 3, `${ref.walk}`);
      const words = await page.locator("#step-6 .text").textContent();
      const said = ref.walk.map((n) => `${n} (zone ${zone[n]})`).join(", ");
      assert.ok(words.replace(/\s+/g, " ").includes(said), `the words give ${said}`);
      for (const n of ref.skipped) assert.ok(ref.walk.some((w) => zone[w] === zone[n]) && words.includes(`${n} (zone ${zone[n]})`), `passed over ${n}`);
      await page.click('button[data-play="6"]');
      await page.waitForFunction(() => /Preference list/.test(document.getElementById("fig-6").shadowRoot.querySelector("[part=message]").textContent));
      assert.equal(await page.locator("#fig-6").evaluate((r) => r.shadowRoot.querySelector("[part=message]").textContent), ref.text);
      await page.waitForTimeout(1600);
      assert.deepEqual(await axeViolations(page, "#step-6"), []);
      await page.screenshot({ path: join(SHOTS, `tour-6-${width}-${colorScheme}.png`) });
      assert.deepEqual(problems, []);
      await context.close();
    });

    test(`step 8 compares the same keys on the same ring, in whole sentences, one figure a fact (${name})`, async () => {
      const { page, problems, context } = await openAt(width, height, colorScheme, "#step-8");
      const shown = await page.evaluate(() => {
        const legend = (id) => [...document.getElementById(id).shadowRoot.querySelectorAll("[part=legend] li")].map((li) => li.textContent);
        // Each figure's state as its attributes describe it.
        const state = (id) => {
          const el = document.getElementById(id);
          const options = Object.fromEntries(["nodes", "algorithm", "vnodes", "keys", "zipf"].filter((a) => el.hasAttribute(a)).map((a) => [a, a === "nodes" || a === "algorithm" ? el.getAttribute(a) : Number(el.getAttribute(a))]));
          return { options };
        };
        return {
          paragraphs: [...document.querySelectorAll("#step-8 .text > p:not(.watch):not(.try)")].map((p) => p.textContent.replace(/\s+/g, " ").trim()),
          table: [...document.querySelectorAll("#step-8 tbody tr")].map((tr) => [...tr.cells].map((c) => c.textContent)),
          legends: { ring: legend("fig-8"), bounded: legend("fig-8-bounded") },
          states: { ring: state("fig-8"), bounded: state("fig-8-bounded") },
        };
      });
      // The same nodes, points, keys and popularity: only the algorithm differs.
      const { algorithm, ...bounded } = shown.states.bounded.options;
      assert.equal(algorithm, "bounded-load");
      assert.deepEqual(bounded, shown.states.ring.options, "the two figures differ in their algorithm alone");
      const ref = await engine(page, (mod, states) => {
        const rows = (o) => {
          const s = new mod.Session(o);
          const out = { rows: s.nodes().map((n) => ({ name: n.name, keys: n.keys, traffic: n.trafficText, legend: n.legend })), summary: s.scene().summary, epsilon: s.settings().options.epsilon };
          s.free();
          return out;
        };
        return { ring: rows(states.ring.options), bounded: rows(states.bounded.options) };
      }, shown.states);
      assert.deepEqual(shown.legends.ring, ref.ring.rows.map((r) => r.legend));
      assert.deepEqual(shown.legends.bounded, ref.bounded.rows.map((r) => r.legend));
      // The table: each node's keys and requests in both figures, the engine's.
      assert.deepEqual(shown.table, ref.ring.rows.map((r, i) => [r.name, r.keys.toLocaleString("en"), ref.bounded.rows[i].keys.toLocaleString("en"), r.traffic, ref.bounded.rows[i].traffic]));
      // Fair: on the same keys, the cap binds where the ring is over it, and bounded loads'
      // busiest node is under it and under the ring's busiest.
      const keys = shown.states.ring.options.keys;
      const cap = Math.ceil((1 + ref.bounded.epsilon) * keys / ref.ring.rows.length);
      const most = (rows) => Math.max(...rows.map((r) => r.keys));
      assert.ok(most(ref.ring.rows) > cap, `the ring's busiest holds ${most(ref.ring.rows)} keys, over the cap of ${cap}`);
      assert.ok(most(ref.bounded.rows) <= cap && most(ref.bounded.rows) < most(ref.ring.rows), "bounded loads caps the busiest node");
      // Whole sentences, none an engine summary spliced in.
      const text = shown.paragraphs.join(" ");
      for (const summary of [ref.ring.summary, ref.bounded.summary]) assert.ok(!text.includes(summary.split(". ")[0]), `no summary spliced in: ${text}`);
      for (const p of shown.paragraphs) {
        for (const sentence of p.split(/(?<=\.) (?=\S)/)) assert.match(sentence, /^[A-Z].*\.$/, `a whole sentence: ${sentence}`);
      }
      // One figure a fact: each node's keys and requests in the words are the figures'.
      const byName = (rows) => Object.fromEntries(rows.map((r) => [r.name, r]));
      const figures = [byName(ref.ring.rows), byName(ref.bounded.rows)];
      let claims = 0;
      shown.paragraphs.forEach((p, i) => {
        const rows = figures[i];
        for (const m of p.matchAll(/((?:node-\d+(?: and )?)+), (?:holds?|serves) ([\d,.]+%?)/g)) {
          for (const node of m[1].split(" and ")) {
            const want = m[2].endsWith("%") ? rows[node].traffic : rows[node].keys.toLocaleString("en");
            assert.equal(m[2], want, `${node} in paragraph ${i + 1}: ${p}`);
            claims++;
          }
        }
      });
      assert.ok(claims >= 4, `the words name the busiest and the hottest of each figure (${claims})`);
      // And every percentage in the words is one the figures show.
      const shownPercents = new Set([...shown.legends.ring, ...shown.legends.bounded].flatMap((l) => l.match(/\d+\.\d%/g)));
      for (const pct of text.match(/\d+\.\d%/g) ?? []) assert.ok(shownPercents.has(pct), `${pct} is shown by a figure`);
      assert.deepEqual(await axeViolations(page, "#step-8"), []);
      await page.screenshot({ path: join(SHOTS, `tour-8-${width}-${colorScheme}.png`), fullPage: true });
      assert.deepEqual(problems, []);
      await context.close();
    });

    test(`step 9's four rings each have room: 160 px across at least, nothing cut off (${name})`, async () => {
      const { page, problems, context } = await openAt(width, height, colorScheme, "#step-9");
      const figures = await page.evaluate((marks) => {
        const { rgb, pixelsOf } = new Function(`${marks}; return { rgb, pixelsOf };`)();
        return [...document.querySelectorAll("#step-9 hash-ring")].map((el) => {
          const { canvas, img, at, css, scale } = pixelsOf(el.id);
          const bg = rgb(getComputedStyle(el).getPropertyValue("--_bg"));
          const drawn = (p) => p[3] > 0 && Math.abs(p[0] - bg[0]) + Math.abs(p[1] - bg[1]) + Math.abs(p[2] - bg[2]) > 30;
          // The band across the middle row: its leftmost and rightmost node colour.
          let left = Infinity, right = -Infinity;
          for (let x = 0; x < img.width; x++) {
            const p = at(x, img.height / 2);
            if (Math.max(p[0], p[1], p[2]) - Math.min(p[0], p[1], p[2]) > 60) (left = Math.min(left, x)), (right = Math.max(right, x));
          }
          // Nothing drawn on the canvas's edges (a label cut off there would be).
          let edge = 0;
          for (let x = 0; x < img.width; x++) edge += drawn(at(x, 0)) + drawn(at(x, img.height - 1));
          for (let y = 0; y < img.height; y++) edge += drawn(at(0, y)) + drawn(at(img.width - 1, y));
          const box = el.getBoundingClientRect();
          return { id: el.id, width: css.width, across: (right - left) / scale, edge, inside: box.left >= 0 && box.right <= innerWidth, overflow: el.scrollWidth - el.clientWidth, canvasWidth: canvas.width };
        });
      }, MARKS);
      assert.equal(figures.length, 4);
      for (const f of figures) {
        assert.ok(f.width >= 160, `${f.id}: its canvas is ${f.width} px wide`);
        assert.ok(f.across >= 160, `${f.id}: its ring is ${f.across.toFixed(0)} px across`);
        assert.equal(f.edge, 0, `${f.id}: drawn up to the canvas's edge (${f.edge} px), so cut off`);
        assert.ok(f.inside && f.overflow <= 0, `${f.id}: within the screen and its box`);
      }
      assert.deepEqual(await axeViolations(page, "#step-9"), []);
      await page.screenshot({ path: join(SHOTS, `tour-9-${width}-${colorScheme}.png`), fullPage: true });
      assert.deepEqual(problems, []);
      await context.close();
    });

    test(`the links to the playground open the state each figure shows (${name})`, async () => {
      const { page, problems, context } = await openAt(width, height, colorScheme, "#step-10");
      // Every figure's link is the engine's link of the figure's state, as the element holds it.
      const links = await engine(page, (mod) =>
        [...document.querySelectorAll("a[data-playground]")].map((a) => {
          const el = document.getElementById(a.dataset.playground);
          const s = new mod.Session(el.state.options);
          for (const n of el.state.down) s.setDown(n, true);
          const link = s.link();
          s.free();
          return { id: el.id, href: a.getAttribute("href"), link, tier: "tier" in a.dataset };
        }),
      );
      assert.ok(links.length >= 10, `a link from each step (${links.length})`);
      for (const l of links.filter((l) => !l.tier)) assert.equal(l.href, `index.html${l.link}`, l.id);
      // The closing one, after the step's join: the playground opens with the figure's nodes,
      // settings and the tier.
      await page.click('button[data-play="10"]');
      await page.waitForFunction(() => /Added node-6/.test(document.getElementById("fig-10").shadowRoot.querySelector("[part=message]").textContent), null, { timeout: 20000 });
      const closing = page.locator("#step-10 a[data-playground]");
      assert.match(await closing.textContent(), /try it in the playground/i);
      await page.waitForFunction(() => document.querySelector("#step-10 a[data-playground]").getAttribute("href").includes("n=node-6"));
      assert.deepEqual(await axeViolations(page, "#step-10"), []);
      await page.screenshot({ path: join(SHOTS, `tour-10-${width}-${colorScheme}.png`) });
      await closing.click();
      await page.waitForURL(/index\.html#ringlab=/);
      await page.waitForSelector("#legend tbody tr");
      await page.waitForFunction(() => document.querySelectorAll("#legend tbody tr").length === 6);
      const opened = await page.evaluate(() => ({
        names: [...document.querySelectorAll("#legend tbody tr td.name")].map((td) => td.textContent.trim()),
        algorithm: document.getElementById("algorithm").value,
        vnodes: document.getElementById("vnodes-number").value,
      }));
      assert.deepEqual(opened, { names: ["node-1", "node-2", "node-3", "node-4", "node-5", "node-6"], algorithm: "ring", vnodes: "160" });
      // Step 6's zones and step 9's algorithms come along too.
      for (const [step, id, want] of [[6, "fig-6", (o) => o.zones.join() === "a,a,b,b,c,c"], [9, "fig-9-maglev", (o) => o.algorithm === "maglev"]]) {
        await page.goto(`${URL}learn.html#step-${step}`);
        await page.waitForSelector("body[data-ready='1']");
        await page.click(`a[data-playground="${id}"]`);
        await page.waitForURL(/index\.html#ringlab=/);
        await page.waitForSelector("#legend tbody tr");
        const o = await page.evaluate(() => ({
          zones: [...document.querySelectorAll("#legend tbody tr td.zone")].map((td) => td.textContent.trim()),
          algorithm: document.getElementById("algorithm").value,
        }));
        assert.ok(want(o), `step ${step}: ${JSON.stringify(o)}`);
      }
      assert.deepEqual(problems, []);
      await context.close();
    });
  }
}

test("the tour works under the strict CSP", { skip: !CSP && "RINGLAB_CSP_URL not set" }, async () => {
  const { page, problems, context } = await openTour({}, "#step-4", CSP);
  await figuresDrawn(page);
  await page.focus("#ex-vnodes");
  await press(page, "End");
  await press(page, "Enter");
  assert.match(await verdict(page, "vnodes"), /At V = 300/);
  assert.deepEqual(await page.evaluate(() => window.__violations), []);
  assert.deepEqual(problems, []);
  await context.close();
});

// ---- Firefox, through geckodriver's classic WebDriver (as firefox.test.mjs does).
const FIREFOX = process.env.RINGLAB_FIREFOX ?? ["/usr/bin/firefox-esr", "/usr/bin/firefox"].find(existsSync);
const onPath = (process.env.PATH ?? "").split(":").filter(Boolean).map((dir) => join(dir, "geckodriver"));
const GECKODRIVER = process.env.GECKODRIVER ?? [...onPath, join(homedir(), ".cargo/bin/geckodriver")].find(existsSync);
const missing = !FIREFOX ? "no firefox-esr" : !GECKODRIVER ? "no geckodriver" : false;

test("Firefox: the tour walked with the keyboard: every number is the API's, every exercise checks", { skip: missing }, async () => {
  const port = 4944 + (process.pid % 500);
  const driver = spawn(GECKODRIVER, ["--host", "127.0.0.1", "--port", String(port)], { stdio: "ignore" });
  let session;
  const call = async (method, path, body) => {
    const r = await fetch(`http://127.0.0.1:${port}${path}`, { method, headers: { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
    const json = await r.json();
    if (json.value?.error) throw new Error(`${json.value.error}: ${json.value.message}`);
    return json.value;
  };
  const run = (fn, ...args) =>
    call("POST", `/session/${session}/execute/async`, {
      script: `const done = arguments[arguments.length - 1];
        Promise.resolve((${fn})(...Array.from(arguments).slice(0, -1))).then(done, (e) => done({ thrown: String(e) }));`,
      args,
    });
  const until = async (fn, ...args) => {
    for (let i = 0; i < 300; i++) {
      const v = await run(fn, ...args);
      if (v) return v;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`never true: ${fn}`);
  };
  const key = (value) => call("POST", `/session/${session}/actions`, { actions: [{ type: "key", id: "k", actions: [{ type: "keyDown", value }, { type: "keyUp", value }] }] });
  try {
    for (let i = 0; i < 100; i++) {
      try {
        await call("GET", "/status");
        break;
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    session = (await call("POST", "/session", { capabilities: { alwaysMatch: { browserName: "firefox", "moz:firefoxOptions": { binary: FIREFOX, args: ["-headless", "-width=1280", "-height=800"] } } } })).sessionId;
    await call("POST", `/session/${session}/url`, { url: `${URL}learn.html` });
    await until(() => document.body.dataset.ready === "1");
    // The JS API's answers, computed in Firefox by the same function as in Chromium.
    const ref = await run(async (source) => {
      const mod = await import("./pkg/ringlab.js");
      await mod.default();
      return new Function("mod", `return (${source})(mod);`)(mod);
    }, reference.toString());
    assert.ok(ref && !ref.thrown, `the reference ran in Firefox: ${ref?.thrown}`);
    const [ARROW_RIGHT, ENTER, SPACE, HOME, END] = ["\uE014", "\uE007", "\uE00D", "\uE011", "\uE010"];
    const verdictOf = (form) => run((f) => document.querySelector(`[data-exercise="${f}"] .verdict`).textContent, form);
    const focus = (selector) => run((q) => document.querySelector(q).focus(), selector);
    const type = async (text) => {
      for (const c of text) await key(c);
    };
    for (let step = 1; step <= STEPS; step++) {
      const facts = await until(() => {
        const s = [...document.querySelectorAll("section.step")].find((x) => !x.hidden);
        const drawn = [...s.querySelectorAll("hash-ring")].every((r) => r.shadowRoot.querySelectorAll("[part=legend] li").length > 0);
        return drawn && { id: s.id, empty: [...s.querySelectorAll("[data-fact]")].filter((el) => !el.textContent.trim()).length };
      });
      assert.deepEqual(facts, { id: `step-${step}`, empty: 0 });
      checkFacts(step, await run(readFacts), ref);
      if (step === 3) {
        await focus("#ex-moved");
        await type("320");
        await key(ENTER);
        assert.match(await verdictOf("moved-keys"), new RegExp(`^Not quite\\. The engine counts ${ref[3].movedKeys} keys`));
        await run(() => (document.getElementById("ex-moved").value = ""));
        await type(String(ref[3].movedKeys + 3));
        await key(ENTER);
        assert.match(await verdictOf("moved-keys"), /^Right\./);
        await focus("#step-3-title");
      }
      if (step === 4) {
        await focus("#ex-vnodes");
        await key(HOME);
        await key(ENTER);
        assert.match(await verdictOf("vnodes"), /^Not quite\. At V = 1 the busiest node still carries/);
        await key(END);
        await key(ENTER);
        assert.match(await verdictOf("vnodes"), ref[4].busiest[300] <= 1.1 ? /^Right\. At V = 300/ : /^Not quite\. At V = 300/);
        await focus("#step-4-title");
      }
      if (step === 7) {
        const wrong = ["node-1", "node-3", "node-4", "node-5"].find((n) => n !== ref[7].ownerAfter);
        await focus(`[data-exercise="owner"] button[data-answer="${wrong}"]`);
        await key(ENTER);
        assert.match(await verdictOf("owner"), new RegExp(`^Not quite\\. The engine says ${ref[7].ownerAfter}\\.`));
        await focus(`[data-exercise="owner"] button[data-answer="${ref[7].ownerAfter}"]`);
        await key(SPACE);
        assert.match(await verdictOf("owner"), new RegExp(`^Right\\. The engine says ${ref[7].ownerAfter}\\.`));
        await focus("#step-7-title");
      }
      if (step === 8) {
        for (const [id, want] of Object.entries(ref[8].legends)) {
          const legend = await run((i) => [...document.getElementById(i).shadowRoot.querySelectorAll("[part=legend] li")].map((li) => li.textContent), id);
          assert.deepEqual(legend, want, `Firefox ${id}`);
        }
      }
      await key(ARROW_RIGHT);
    }
    assert.equal(await run(() => location.hash), "#step-10");
  } finally {
    if (session) await call("DELETE", `/session/${session}`).catch(() => {});
    driver.kill();
  }
});
