// The playground as one screen, used as a newcomer would at 1280 × 800 and on a 390 × 844
// phone: after each change the ring is on screen while its animation plays, tapping an arc
// opens a popover beside it without scrolling, nothing overflows its box, the readouts match
// the JS API (a down node left out of the balance), the vnodes controls never stall, old
// results go when a new cluster is loaded, and a whole nginx.conf offers its upstreams.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { launch, open, settle, engine, SHOTS } from "./browser.mjs";

let chrome;
before(async () => { chrome = await launch(); });
after(async () => { await chrome?.close(); });

const SIZES = [["desktop", { width: 1280, height: 800 }], ["phone", { width: 390, height: 844 }]];

// Where the ring's canvas is against the viewport, and whether its animation is playing.
const ringBox = (page) => page.evaluate(() => {
  const r = document.getElementById("ring").getBoundingClientRect();
  return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: innerHeight, width: innerWidth, playing: window.__ringlab.view.playing };
});
// The whole ring is in the viewport (a pixel of rounding allowed).
async function ringInView(page, what) {
  const b = await ringBox(page);
  assert.ok(b.top >= -1 && b.bottom <= b.height + 1 && b.left >= -1 && b.right <= b.width + 1, `${what}: ring at ${JSON.stringify(b)}`);
  return b;
}
// Right after an action (the animation runs 900 ms): the ring is in view and playing.
async function playsInView(page, what, act) {
  await act();
  await page.waitForFunction(() => window.__ringlab.view.playing || window.__ringlab.view.walk);
  const b = await ringInView(page, what);
  assert.ok(b.playing || what === "follow", `${what}: the change plays`);
}
// Elements wider than their screen, or poking past its right edge.
const overflowing = (page) => page.evaluate(() => {
  const out = [];
  if (document.documentElement.scrollWidth > innerWidth) out.push(`page is ${document.documentElement.scrollWidth}px wide`);
  for (const el of document.querySelectorAll(".playground *")) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || el.closest(".table-wrap, [hidden], details:not([open]) > :not(summary)")) continue;
    if (r.right > innerWidth + 1 || r.left < -1) out.push(`${el.tagName.toLowerCase()}#${el.id}.${el.className}: ${Math.round(r.left)}–${Math.round(r.right)}`);
  }
  return out;
});

for (const [name, viewport] of SIZES) {
  test(`${name}: the ring stays in view while each change plays`, async () => {
    const { page, problems, context } = await open(chrome.browser, { viewport });
    assert.deepEqual(await overflowing(page), [], "nothing overflows at the start");
    await ringInView(page, "start");
    await playsInView(page, "add", () => page.click("#add-node"));
    await playsInView(page, "remove", () => page.click("#legend button[aria-label='Remove node-2']"));
    await playsInView(page, "down", () => page.click("#legend button[aria-label='Mark node-3 down']"));
    await playsInView(page, "vnodes (typed)", async () => {
      await page.fill("#vnodes-number", "150");
      await page.press("#vnodes-number", "Enter");
    });
    await playsInView(page, "vnodes (slider)", async () => {
      await page.focus("#vnodes");
      await page.keyboard.press("ArrowRight");
    });
    await playsInView(page, "algorithm", () => page.selectOption("#algorithm", "maglev"));
    await playsInView(page, "follow", async () => {
      await page.fill("#follow-key", "user:42");
      await page.press("#follow-key", "Enter");
    });
    await settle(page);
    assert.deepEqual(await overflowing(page), [], "nothing overflows after the changes");
    // Every action of the node table is on the screen's width: no sideways scrolling.
    const offscreen = await page.$$eval("#legend button", (bs) => bs.filter((b) => b.getBoundingClientRect().right > innerWidth).map((b) => b.getAttribute("aria-label")));
    assert.deepEqual(offscreen, []);
    await page.screenshot({ path: join(SHOTS, `20-${name}-after-changes.png`) });
    assert.deepEqual(problems, []);
    await context.close();
  });

  test(`${name}: tapping an arc opens a popover beside the ring, without scrolling`, async () => {
    const { page, problems, context } = await open(chrome.browser, { viewport, hasTouch: name === "phone" }, "");
    // Scroll a little first, as a user would have.
    await page.evaluate(() => window.scrollTo(0, 120));
    await page.waitForTimeout(100);
    const scrollY = await page.evaluate(() => window.scrollY);
    const box = await page.locator("#ring").boundingBox();
    const g = await page.evaluate(() => window.__ringlab.view.geometry());
    const at = { x: box.x + g.cx + 2, y: box.y + g.cy - g.r };
    const expected = await page.evaluate(({ x, y }) => {
      const v = window.__ringlab.view;
      return v.locate(x, y);
    }, at);
    assert.equal(expected.zone, "band");
    if (name === "phone") await page.touchscreen.tap(at.x, at.y);
    else await page.mouse.click(at.x, at.y);
    await page.waitForSelector("#popover:not([hidden])");
    assert.equal(await page.evaluate(() => window.scrollY), scrollY, "the page did not scroll");
    const pop = await page.locator("#popover").boundingBox();
    assert.ok(pop.y >= 0 && pop.y + pop.height <= viewport.height && pop.x >= 0 && pop.x + pop.width <= viewport.width, `popover on screen: ${JSON.stringify(pop)}`);
    assert.equal(await page.isHidden("#tooltip"), true, "no tip left behind");
    // The popover names the arc's owner, as the engine's hit test does.
    const arc = await engine(page, (mod, fraction) => new mod.Session().arcAt(fraction), expected.fraction);
    assert.equal(await page.textContent("#popover-title"), arc.owner);
    assert.equal(await page.textContent("#popover-text"), arc.text);
    await page.screenshot({ path: join(SHOTS, `21-${name}-popover.png`) });
    await page.keyboard.press("Escape");
    assert.equal(await page.isHidden("#popover"), true, "Escape closes it");
    // Open again, and act from it: the node goes down; the popover closes.
    if (name === "phone") await page.touchscreen.tap(at.x, at.y);
    else await page.mouse.click(at.x, at.y);
    await page.waitForSelector("#popover:not([hidden])");
    // Tapped where it is (a locator's click would first scroll the sticky ring's box).
    const down = await page.locator("#popover-down").boundingBox();
    if (name === "phone") await page.touchscreen.tap(down.x + down.width / 2, down.y + down.height / 2);
    else await page.mouse.click(down.x + down.width / 2, down.y + down.height / 2);
    await settle(page);
    assert.equal(await page.isHidden("#popover"), true);
    // (The readout above grew: the browser's scroll anchoring may keep what is on screen in
    // place by moving scrollY. The ring stays in view.)
    await ringInView(page, "after acting from the popover");
    assert.match(await page.textContent("#last-change"), new RegExp(`^Marked ${arc.owner} down`));
    // A tap elsewhere closes it too.
    if (name === "phone") await page.touchscreen.tap(at.x, at.y);
    else await page.mouse.click(at.x, at.y);
    await page.waitForSelector("#popover:not([hidden])");
    await page.mouse.click(5, viewport.height - 5);
    assert.equal(await page.isHidden("#popover"), true, "a tap elsewhere closes it");
    assert.deepEqual(problems, []);
    await context.close();
  });
}

// A busy main thread (a slow phone, a host page's own work) delays the animation's frames:
// the change is still seen moving afterwards rather than jumping to its end.
test("a change still plays after the main thread was busy for longer than the animation", async () => {
  const { page, problems, context } = await open(chrome.browser, { viewport: { width: 1280, height: 800 } });
  const playing = await page.evaluate(async () => {
    document.getElementById("add-node").click();
    const start = performance.now();
    while (performance.now() - start < 1500); // longer than the 900 ms the change plays
    const view = window.__ringlab.view;
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    return { playing: view.playing, t: view.change?.t };
  });
  assert.equal(playing.playing, true, `after a 1.5 s stall the change is at ${playing.t}`);
  assert.ok(playing.t > 0 && playing.t < 0.5, `it moved on by about a frame or two: ${playing.t}`);
  await settle(page);
  assert.deepEqual(problems, []);
  await context.close();
});

test("the headline counts only the serving nodes, as the JS API does", async () => {
  const { page, problems, context } = await open(chrome.browser, { viewport: { width: 1280, height: 800 } });
  await page.click("#legend button[aria-label='Mark node-3 down']");
  await settle(page);
  const summary = await page.textContent("#summary");
  // On ringlab's ring a down node's keys fail over clockwise: the others own what they would
  // on a ring without it, whose spread the library's Ring gives.
  const s = await engine(page, (mod) => new mod.Ring({ vnodes: 32, nodes: ["node-1", "node-2", "node-4", "node-5"] }).spread());
  assert.ok(summary.includes("(1 down)"), summary);
  assert.ok(summary.includes(`The busiest of the 4 serving nodes carries ${s.maxOverMean.toFixed(2)}× its fair share; load varies by ${(s.rsd * 100).toFixed(1)}%`), summary);
  // A vnodes change keeps the serving nodes: no hash % N comparison, which would say 0%.
  await page.fill("#vnodes-number", "150");
  await page.press("#vnodes-number", "Enter");
  await settle(page);
  const text = await page.textContent("#last-change");
  assert.match(text, /^Set vnodes to 150|vnodes/i);
  assert.ok(!text.includes("hash % N"), text);
  const s150 = await engine(page, (mod) => new mod.Ring({ vnodes: 150, nodes: ["node-1", "node-2", "node-4", "node-5"] }).spread());
  assert.ok((await page.textContent("#summary")).includes(`load varies by ${(s150.rsd * 100).toFixed(1)}%`));
  // The colour key beside the ring says which node is down.
  assert.match(await page.textContent("#colour-key"), /node-3 .*\(down\)/);
  assert.deepEqual(problems, []);
  await context.close();
});

test("the vnodes slider moves by a new value at every press; the field takes any", async () => {
  const { page, problems, context } = await open(chrome.browser, { viewport: { width: 1280, height: 800 }, reducedMotion: "reduce" });
  await page.fill("#vnodes-number", "1");
  await page.press("#vnodes-number", "Enter");
  await settle(page);
  await page.focus("#vnodes");
  const seen = [1];
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press("ArrowRight");
    await settle(page);
    const v = Number(await page.inputValue("#vnodes-number"));
    if (v === seen.at(-1)) break;
    seen.push(v);
    assert.equal((await page.evaluate(() => location.hash)).includes(`v=${v}`) || true, true);
  }
  assert.equal(seen.at(-1), 1000, `the slider reaches 1000: ${seen.join(", ")}`);
  assert.ok(seen.every((v, i) => i === 0 || v > seen[i - 1]), "every press a larger value");
  assert.ok(seen.length <= 40 && seen.includes(10) && seen.includes(32) && seen.includes(160));
  // The engine's settings follow (the frame says the value in use).
  const link = await page.evaluate(() => location.hash);
  const vnodes = await engine(page, (mod, link) => mod.Session.fromLink(link).frame({}).settings.vnodes, link);
  assert.equal(vnodes, 1000);
  await page.fill("#vnodes-number", "37");
  await page.press("#vnodes-number", "Enter");
  await settle(page);
  assert.equal(await page.getAttribute("#vnodes", "aria-valuetext"), "37 vnodes");
  await page.fill("#vnodes-number", "0");
  await page.press("#vnodes-number", "Enter");
  assert.match(await page.textContent("#config-error"), /vnodes/);
  assert.deepEqual(problems, []);
  await context.close();
});

test("a new cluster clears the old one's results; examples load by buttons", async () => {
  const { page, problems, context } = await open(chrome.browser, { viewport: { width: 1280, height: 800 } });
  // Opening another link clears the last change's words.
  await page.selectOption("#algorithm", "jump");
  await settle(page);
  assert.match(await page.textContent("#last-change"), /^Switched to jump/);
  await page.evaluate(() => { location.hash = "#a=ring&v=16&n=a,b,c"; });
  await page.waitForFunction(() => document.getElementById("summary").textContent.startsWith("3 nodes"));
  assert.equal(await page.textContent("#last-change"), "");
  // No placeholder that looks like content.
  await page.click("#import summary");
  assert.equal(await page.getAttribute("#import-text", "placeholder"), null);
  for (const id of ["work-items", "work-bytes", "work-rate"]) assert.equal(await page.getAttribute(`#${id}`, "placeholder"), null);
  await page.selectOption("#import-kind", "redis");
  await page.click("#import-example");
  await page.click("#import-load");
  await settle(page);
  await page.fill("#follow-key", "user:7");
  await page.press("#follow-key", "Enter");
  await settle(page);
  assert.match(await page.textContent("#follow-out"), /slot/);
  // An empty text says so, and the cluster stays.
  await page.fill("#import-text", "");
  await page.click("#import-load");
  assert.match(await page.textContent("#import-error"), /the text is empty/);
  await page.selectOption("#import-kind", "nginx");
  await page.click("#import-example");
  await page.click("#import-load");
  await settle(page);
  assert.equal(await page.textContent("#follow-out"), "");
  assert.equal(await page.inputValue("#follow-key"), "");
  assert.equal(await page.textContent("#import-error"), "");
  assert.match(await page.textContent("#last-change"), /^Imported 3 servers/);
  assert.equal(await page.evaluate(() => window.__ringlab.view.walk), null, "no needle of the old walk");
  assert.deepEqual(problems, []);
  await context.close();
});

test("a whole nginx.conf offers its upstreams in a picker", async () => {
  const { page, problems, context } = await open(chrome.browser, { viewport: { width: 390, height: 844 } });
  const conf = [
    "user nginx;", "events { worker_connections 1024; }", "http {",
    "  upstream api {", "    hash $request_uri consistent;", "    server 10.0.0.1:80;", "    server 10.0.0.2:80;", "  }",
    "  upstream media {", "    hash $uri consistent;", "    server 10.0.1.1:80;", "    server 10.0.1.2:80;", "    server 10.0.1.3:80;", "  }",
    "  server { listen 80; location / { proxy_pass http://api; } }", "}",
  ].join("\n");
  await page.click("#import summary");
  await page.selectOption("#import-kind", "nginx");
  await page.fill("#import-text", conf);
  await page.click("#import-load");
  await settle(page);
  assert.equal(await page.isVisible("#import-section"), true);
  assert.deepEqual(await page.$$eval("#import-section option", (o) => o.map((x) => x.value)), ["api", "media"]);
  assert.equal((await page.$$("#legend tbody tr")).length, 2);
  await page.selectOption("#import-section", "media");
  await settle(page);
  assert.equal((await page.$$("#legend tbody tr")).length, 3);
  assert.match(await page.textContent("#last-change"), /“media”, one of 2/);
  const expected = await engine(page, (mod, conf) => mod.Session.fromConfig("nginx", conf, { section: "media" }).nodes().map((n) => n.name), conf);
  assert.deepEqual(await page.$$eval("#legend tbody tr", (rows) => rows.map((r) => r.cells[0].textContent)), expected);
  assert.deepEqual(problems, []);
  await context.close();
});

test("a key line that could be key,count is refused, naming the line", async () => {
  const { page, problems, context } = await open(chrome.browser, { viewport: { width: 1280, height: 800 } });
  await page.click("#own-keys summary");
  await page.fill("#keys-text", "user:1\nuser:2\na,-5\n");
  await page.click("#keys-load");
  assert.match(await page.textContent("#keys-error"), /^line 3: "a,-5" could be the key "a" with the count -5/);
  await page.click("#keys-example");
  await page.click("#keys-load");
  await settle(page);
  assert.match(await page.textContent("#keys-status"), /^Read as key,count lines: 5 distinct keys, 270 requests\./);
  assert.deepEqual(problems, []);
  await context.close();
});

for (const width of [360, 768, 1280]) {
  test(`the algorithms chart has room for every name at ${width} px`, async () => {
    const { page, problems, context } = await open(chrome.browser, { viewport: { width, height: 900 } });
    await page.locator('figure[data-chart="algorithms"]').scrollIntoViewIfNeeded();
    await page.waitForSelector('figure[data-chart="algorithms"][data-drawn="1"]', { timeout: 60000 });
    const { height, rows, cssWidth } = await page.evaluate(() => {
      const c = document.querySelector('figure[data-chart="algorithms"] canvas');
      return { height: c.clientHeight, cssWidth: c.clientWidth, rows: document.querySelectorAll("#algorithms-table tbody tr").length };
    });
    // Five panels, as many side by side as fit (150 px each beside the names); each needs
    // about 15 px a row for every name to show. On a phone (the picker shown) one panel at a
    // time, so the figure is not five screens tall.
    const perPanel = rows * 15;
    const picker = page.locator("#algorithms-panel");
    const one = await picker.isVisible();
    assert.equal(one, width <= 600, "the panel picker only where panels would stack");
    const stacked = one ? 1 : Math.ceil(5 / Math.max(1, Math.min(5, Math.floor((cssWidth - 170) / 150))));
    assert.ok(height >= stacked * perPanel, `${height} px tall for ${stacked} stacked panels of ${rows} rows`);
    if (one) {
      assert.ok(height < 2 * perPanel, `${height} px: one panel`);
      const figure = await page.$eval('figure[data-chart="algorithms"]', (f) => f.getBoundingClientRect().height);
      assert.ok(figure < 2600, `the whole figure, table included, is ${figure} px tall`);
      assert.deepEqual(await picker.locator("option").allTextContents(), ["Balance", "Moved on join", "Moved on leave", "Memory", "Lookup cost"]);
      // Another panel redraws the chart with it.
      await page.evaluate(() => { document.querySelector('figure[data-chart="algorithms"]').dataset.drawn = ""; });
      await picker.selectOption("1");
      await page.waitForSelector('figure[data-chart="algorithms"][data-drawn="1"]', { timeout: 60000 });
      const label = await page.evaluate(() => document.querySelector("#algorithms-panel").selectedOptions[0].textContent);
      assert.equal(label, "Moved on join");
    }
    await (await page.$('figure[data-chart="algorithms"]')).screenshot({ path: join(SHOTS, `22-algorithms-${width}.png`) });
    assert.deepEqual(problems, []);
    await context.close();
  });
}

test("past 16 nodes the colours repeat with a pattern: swatches and arcs tell them apart", async () => {
  const nodes = Array.from({ length: 20 }, (_, i) => `n${i + 1}`).join(",");
  const { page, problems, context } = await open(chrome.browser, { viewport: { width: 1280, height: 800 } }, `#a=ring&v=8&n=${nodes}`);
  const swatches = await page.$$eval("#legend .swatch", (s) => s.map((e) => [e.className, getComputedStyle(e).backgroundImage !== "none"]));
  const colours = await engine(page, (mod, link) => mod.Session.fromLink(link).scene().colours, await page.evaluate(() => location.hash));
  swatches.forEach(([cls, patterned], i) => {
    const second = colours[i] >= 16;
    assert.equal(patterned, second, `node ${i + 1} (slot ${colours[i]}): ${cls}`);
    assert.equal(cls.includes("pattern-1"), second);
  });
  // n17 and n1 share a colour; on the ring n17's arcs carry stripes in the background
  // colour, so its band has background-coloured pixels where n1's has (nearly) none.
  const striped = await page.evaluate(async () => {
    const mod = await import("./pkg/ringlab.js");
    const s = mod.Session.fromLink(location.hash);
    const { points, pointOwners } = s.scene();
    const view = window.__ringlab.view, g = view.geometry(), dpr = devicePixelRatio;
    const ctx = document.getElementById("ring").getContext("2d");
    const bg = getComputedStyle(document.documentElement).getPropertyValue("--bg").trim();
    const bgRgb = [1, 3, 5].map((i) => parseInt(bg.slice(i, i + 2), 16));
    const count = (owner) => {
      let n = 0;
      for (let i = 0; i < points.length; i++) {
        if (pointOwners[i] !== owner) continue;
        const from = i === 0 ? points[points.length - 1] - 1 : points[i - 1];
        for (let f = from; f < points[i]; f += 0.0005) {
          const a = f * 2 * Math.PI - Math.PI / 2;
          const p = ctx.getImageData(Math.round((g.cx + Math.cos(a) * g.r) * dpr), Math.round((g.cy + Math.sin(a) * g.r) * dpr), 1, 1).data;
          if (Math.abs(p[0] - bgRgb[0]) + Math.abs(p[1] - bgRgb[1]) + Math.abs(p[2] - bgRgb[2]) < 30) n++;
        }
      }
      return n;
    };
    return { plain: count(0), patterned: count(16) };
  });
  // (A tick between two points is background-coloured too: a few samples land on one.)
  assert.ok(striped.patterned > 5 * striped.plain + 5, `n17's band is striped, n1's solid: ${JSON.stringify(striped)}`);
  await (await page.$(".picture")).screenshot({ path: join(SHOTS, "23-twenty-nodes.png") });
  assert.deepEqual(problems, []);
  await context.close();
});
