// <hash-ring> in real Chromium, on host pages the tests write: attributes and properties,
// one build per batch, methods and events with the engine's exact figures, views, styling
// hooks, theme following the host, lazy shared wasm, clean unmounting, key isolation.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { launch, SHOTS } from "./browser.mjs";
import { hostPage, openHost, events, shadowText, canvasPrint } from "./host.mjs";

let chrome;
before(async () => { chrome = await launch(); });
after(async () => { await chrome?.close(); });

const RING = `<hash-ring id="r" nodes="cache-a, cache-b, cache-c" vnodes="64" keys="1000" hash="xxh3" algorithm="ring" replicas="2" bits="32"></hash-ring>`;

test("one build on load for seven attributes; properties mirror attributes; a batch of changes builds once", async () => {
  const { page, context, problems } = await openHost(chrome.browser, hostPage(RING));
  const [first] = await events(page, "r", "ready");
  assert.deepEqual(first.nodes, ["cache-a", "cache-b", "cache-c"]);
  assert.equal(first.settings.vnodes, 64);
  const props = await page.evaluate(() => {
    const r = document.getElementById("r");
    return { vnodes: r.vnodes, keys: r.keys, nodes: r.nodes, hash: r.hash, view: r.view, theme: r.theme, bits: r.bits };
  });
  assert.deepEqual(props, { vnodes: 64, keys: 1000, nodes: "cache-a, cache-b, cache-c", hash: "xxh3", view: "ring", theme: "auto", bits: 32 });
  // Four changes in one task, by property and by attribute: one rebuild with all of them.
  const mirrored = await page.evaluate(() => {
    const r = document.getElementById("r");
    r.vnodes = 8;
    r.nodes = ["x", "y", "z", "w*2"];
    r.setAttribute("keys", "300");
    r.hash = "md5";
    return { vnodes: r.getAttribute("vnodes"), nodes: r.getAttribute("nodes"), keys: r.keys };
  });
  assert.deepEqual(mirrored, { vnodes: "8", nodes: "x, y, z, w*2", keys: 300 });
  const ready = await events(page, "r", "ready", 2);
  assert.deepEqual(ready[1].nodes, ["x", "y", "z", "w"]);
  assert.deepEqual([ready[1].settings.vnodes, ready[1].settings.keys, ready[1].settings.hash], [8, 300, "md5"]);
  // A later change event proves the element settled with no further build.
  await page.evaluate(() => document.getElementById("r").add("v"));
  await events(page, "r", "change");
  assert.equal((await events(page, "r", "ready")).length, 2);
  assert.deepEqual(problems, []);
  await context.close();
});

test("zipf: the legend says each node's share of requests beside its share of keys, as the session does", async () => {
  const { page, context, problems } = await openHost(chrome.browser, hostPage('<hash-ring id="r" nodes="a, b, c" vnodes="160" keys="2000"></hash-ring>'));
  await events(page, "r", "ready");
  const legend = () => page.evaluate(() => [...document.getElementById("r").shadowRoot.querySelectorAll("[part=legend] li")].map((li) => li.textContent));
  assert.ok((await legend()).every((l) => !l.includes("requests")), "uniform popularity: keys' shares alone");
  await page.evaluate(() => document.getElementById("r").setAttribute("zipf", "1"));
  await events(page, "r", "ready", 2);
  assert.equal(await page.evaluate(() => document.getElementById("r").zipf), 1);
  // Independently of the element: the library's owners of key:0 .. key:1999, weighed 1/(k+1).
  const served = await page.evaluate(async () => {
    const mod = await import("./pkg/ringlab.js");
    await mod.default();
    const ring = new mod.Ring({ nodes: ["a", "b", "c"], vnodes: 160 });
    const per = { a: 0, b: 0, c: 0 };
    let total = 0;
    for (let k = 0; k < 2000; k++) {
      per[ring.locate(`key:${k}`)] += 1 / (k + 1);
      total += 1 / (k + 1);
    }
    ring.free();
    return Object.fromEntries(Object.entries(per).map(([n, w]) => [n, ((100 * w) / total).toFixed(1)]));
  });
  const shown = await legend();
  for (const [name, pct] of Object.entries(served)) {
    assert.ok(shown.some((l) => l.startsWith(`${name} `) && l.endsWith(` · ${pct}% of requests`)), `${name} ${pct}%: ${shown}`);
  }
  assert.match(await page.evaluate(() => document.getElementById("r").shadowRoot.querySelector("canvas").getAttribute("aria-label")), /the hottest node, \w+, serves \d+\.\d% of the requests/);
  assert.deepEqual(problems, []);
  await context.close();
});

test("change events carry the exact moved fraction and the moved keys' count", async () => {
  const { page, context, problems } = await openHost(chrome.browser, hostPage(RING));
  await events(page, "r", "ready");
  const added = await page.evaluate(() => document.getElementById("r").add("cache-d"));
  const [fired] = await events(page, "r", "change");
  assert.deepEqual(fired, added);
  // Independently: on a ring, a join moves exactly the new node's share (keys only move to
  // it), and the sample keys that moved are those whose owner differs between the two rings.
  const expected = await page.evaluate(async () => {
    const mod = await import("./pkg/ringlab.js");
    await mod.default(); // the library module (the element loads its own, smaller one)
    const names = ["cache-a", "cache-b", "cache-c"];
    const before = new mod.Ring({ vnodes: 64, nodes: names });
    const after = new mod.Ring({ vnodes: 64, nodes: [...names, "cache-d"] });
    const share = after.nodes().find((n) => n.name === "cache-d").share;
    let moved = 0;
    for (let i = 0; i < 1000; i++) if (before.locate(`key:${i}`) !== after.locate(`key:${i}`)) moved++;
    return { share, moved };
  });
  assert.equal(added.action, "add");
  assert.ok(Math.abs(added.movedFraction - expected.share) < 1e-12, `${added.movedFraction} vs ${expected.share}`);
  assert.equal(added.movedKeys, expected.moved);
  assert.equal(added.keys, 1000);
  assert.match(await shadowText(page, "r", "[part~=message]"), new RegExp(`^Added cache-d: moved ${expected.moved} of 1,000 keys`));
  // The leave moves the same keys back.
  const removed = await page.evaluate(() => document.getElementById("r").remove("cache-d"));
  assert.equal(removed.movedKeys, expected.moved);
  assert.ok(Math.abs(removed.movedFraction - expected.share) < 1e-12);
  await page.screenshot({ path: join(SHOTS, "30-element-change.png") });
  assert.deepEqual(problems, []);
  await context.close();
});

test("bad attributes and refused calls show a message and fire error, never throw", async () => {
  const { page, context, problems } = await openHost(chrome.browser, hostPage(RING));
  await events(page, "r", "ready");
  const cases = [
    ["vnodes", "0", "invalid-vnodes", /vnodes must be between 1 and 10000/],
    ["nodes", "a, a", "duplicate-node", /a/],
    ["hash", "djb2", "unknown-hash", /djb2/],
    ["view", "pie", "invalid-option", /view must be one of ring, migrate, shares, spread/],
    ["theme", "neon", "invalid-option", /theme must be one of auto, light, dark/],
    ["zipf", "3", "invalid-option", /Zipf exponent must be between 0 and 2/],
    ["zipf", "hot", "invalid-option", /Zipf exponent must be between 0 and 2/],
  ];
  let n = 0;
  for (const [name, value, code, words] of cases) {
    await page.evaluate(([name, value]) => document.getElementById("r").setAttribute(name, value), [name, value]);
    const errors = await events(page, "r", "error", ++n);
    assert.equal(errors[n - 1].code, code, `${name}=${value}`);
    assert.match(errors[n - 1].message, words);
    assert.match(await shadowText(page, "r", "[part~=message]"), /^hash-ring: /);
    await page.evaluate(([name]) => document.getElementById("r").removeAttribute(name), [name]);
  }
  // The last good ring stays: the bad nodes never replaced the three.
  assert.equal(await page.evaluate(() => document.getElementById("r").shadowRoot.querySelectorAll("[part=legend] li").length), 3);
  // A refused method call resolves to null and fires error.
  assert.equal(await page.evaluate(() => document.getElementById("r").remove("nope")), null);
  const errors = await events(page, "r", "error", n + 1);
  assert.equal(errors[n].code, "unknown-node");
  // Hostile names are text.
  await page.evaluate(() => document.getElementById("r").setAttribute("nodes", "<img src=x onerror=window.__pwned=1>, b"));
  await page.waitForFunction(() => document.getElementById("r").shadowRoot.querySelectorAll("[part=legend] li").length === 2);
  assert.match(await shadowText(page, "r", "[part=legend]"), /<img src=x onerror=window.__pwned=1>/);
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.deepEqual(problems, []);
  await context.close();
});

test("methods script a story: add, remove, follow and reset", async () => {
  const { page, context, problems } = await openHost(chrome.browser, hostPage(RING));
  await events(page, "r", "ready");
  const story = await page.evaluate(async () => {
    const r = document.getElementById("r");
    const a = await r.add("cache-d", { weight: 2 });
    const b = await r.remove("cache-a");
    const walk = await r.follow("user:42");
    const legend = r.shadowRoot.querySelector("[part=legend]").textContent;
    await r.reset();
    return { a, b, walk, legend, after: r.shadowRoot.querySelector("[part=legend]").textContent };
  });
  const owner = await page.evaluate(async () => {
    const mod = await import("./pkg/ringlab.js");
    await mod.default(); // the library module (the element loads its own, smaller one)
    const ring = new mod.Ring({ vnodes: 64, nodes: ["cache-b", "cache-c", { name: "cache-d", weight: 2 }] });
    return ring.locate("user:42");
  });
  assert.equal(story.a.name, "cache-d");
  assert.equal(story.b.name, "cache-a");
  assert.equal(story.walk.owner, owner);
  assert.match(story.legend, /cache-d/);
  assert.doesNotMatch(story.legend, /cache-a/);
  assert.match(story.after, /cache-a .*cache-b .*cache-c/);
  assert.doesNotMatch(story.after, /cache-d/);
  assert.equal((await events(page, "r", "ready")).length, 2);
  assert.equal((await events(page, "r", "change")).length, 2);
  assert.deepEqual(problems, []);
  await context.close();
});

test("views: migrate loops a join and a leave; shares and spread draw the engine's charts", async () => {
  const html = hostPage(`
    <hash-ring id="m" nodes="a, b, c" vnodes="16" keys="400" view="migrate"></hash-ring>
    <hash-ring id="s" nodes="a, b, c, d*2" vnodes="16" view="shares"></hash-ring>
    <hash-ring id="p" nodes="a, b, c, d, e" view="spread"></hash-ring>`);
  const { page, context, problems } = await openHost(chrome.browser, html, { viewport: { width: 1800, height: 700 } });
  await page.addStyleTag({ content: "main { display: flex; gap: 12px; } hash-ring { flex: 1; }" });
  const [joined, leave] = await events(page, "m", "change", 2);
  assert.equal(joined.action, "add");
  assert.equal(leave.action, "remove");
  assert.equal(joined.name, leave.name);
  assert.equal(joined.movedKeys, leave.movedKeys);
  assert.ok(Math.abs(joined.movedFraction - leave.movedFraction) < 1e-12);
  // Pausing stops the loop; the button says so.
  await page.evaluate(() => document.getElementById("m").shadowRoot.querySelector("[part~=pause]").click());
  assert.equal(await shadowText(page, "m", "[part~=pause]"), "Play");
  for (const [id, label] of [["s", /^Share of the key space per node: a \d+\.\d%/], ["p", /^Spread of load against vnodes per node/]]) {
    await events(page, id, "ready");
    const print = await canvasPrint(page, id);
    assert.ok(print.painted > 0.5, `${id} painted ${print.painted}`);
    assert.match(await page.evaluate((id) => document.getElementById(id).shadowRoot.querySelector("canvas").getAttribute("aria-label"), id), label);
  }
  await page.screenshot({ path: join(SHOTS, "31-element-views.png") });
  assert.deepEqual(problems, []);
  await context.close();
});

test("styling: ::part names, --hash-ring-* properties and :host([hidden])", async () => {
  const head = `<style>
    hash-ring::part(button) { border-radius: 17px; }
    hash-ring::part(remove) { text-transform: uppercase; }
    hash-ring::part(legend) { font-weight: 700; }
    hash-ring::part(canvas) { outline: 3px solid rgb(0, 128, 0); }
    hash-ring::part(message) { font-style: italic; }
    #r { --hash-ring-bg: rgb(250, 240, 200); --hash-ring-node-0: #ff0000; --hash-ring-font: 17px/1.4 serif; }
  </style>`;
  const { page, context, problems } = await openHost(chrome.browser, hostPage(RING, { head }));
  await events(page, "r", "ready");
  const styles = await page.evaluate(() => {
    const r = document.getElementById("r");
    const q = (s) => getComputedStyle(r.shadowRoot.querySelector(s));
    return {
      radius: q("[part~=add]").borderRadius,
      upper: q("[part~=remove]").textTransform,
      legend: q("[part=legend]").fontWeight,
      outline: q("[part=canvas]").outlineColor,
      message: q("[part=message]").fontStyle,
      bg: getComputedStyle(r).backgroundColor,
      font: getComputedStyle(r).fontSize,
      swatch: r.shadowRoot.querySelector("[part=legend] li i").style.background,
    };
  });
  assert.deepEqual(styles, {
    radius: "17px", upper: "uppercase", legend: "700", outline: "rgb(0, 128, 0)", message: "italic",
    bg: "rgb(250, 240, 200)", font: "17px", swatch: "rgb(255, 0, 0)",
  });
  // The ring itself uses the overridden node colour.
  const red = await page.evaluate(() => {
    const c = document.getElementById("r").shadowRoot.querySelector("canvas");
    const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] === 255 && d[i + 1] === 0 && d[i + 2] === 0) n++;
    return n;
  });
  assert.ok(red > 500, `red pixels: ${red}`);
  await page.screenshot({ path: join(SHOTS, "32-element-styled.png") });
  await page.evaluate(() => { document.getElementById("r").hidden = true; });
  assert.deepEqual(await page.evaluate(() => [getComputedStyle(document.getElementById("r")).display, document.getElementById("r").offsetHeight]), ["none", 0]);
  assert.deepEqual(problems, []);
  await context.close();
});

test("theme: light and dark fix the colours; auto follows the host's toggles, color-scheme and system, redrawing", async () => {
  const html = hostPage(`${RING}<hash-ring id="fixed" nodes="a, b" keys="100" theme="light"></hash-ring>`);
  const { page, context, problems } = await openHost(chrome.browser, html, { viewport: { width: 1200, height: 900 } });
  await page.addStyleTag({ content: "main { display: flex; } hash-ring { flex: 1; }" });
  await events(page, "r", "ready");
  await events(page, "fixed", "ready");
  const LIGHT = "rgb(255, 255, 255)", DARK = "rgb(18, 18, 22)";
  const bg = (id) => page.evaluate((id) => getComputedStyle(document.getElementById(id)).backgroundColor, id);
  const becomes = (id, colour) => page.waitForFunction(([id, c]) => getComputedStyle(document.getElementById(id)).backgroundColor === c, [id, colour]);
  assert.equal(await bg("r"), LIGHT);
  const lightPrint = (await canvasPrint(page, "r")).hash;
  const toggles = [
    ["html.dark", () => document.documentElement.classList.add("dark"), () => document.documentElement.classList.remove("dark")],
    ['[data-theme="dark"]', () => (document.documentElement.dataset.theme = "dark"), () => delete document.documentElement.dataset.theme],
    ["mdBook html.coal", () => document.documentElement.classList.add("coal"), () => document.documentElement.classList.remove("coal")],
    ["mdBook body.navy", () => document.body.classList.add("navy"), () => document.body.classList.remove("navy")],
    ["color-scheme: dark", () => (document.documentElement.style.colorScheme = "dark"), () => (document.documentElement.style.colorScheme = "")],
  ];
  for (const [what, on, off] of toggles) {
    await page.evaluate(on);
    await becomes("r", DARK);
    // The ring is redrawn in the dark colours (its tick marks are the background colour).
    await page.waitForFunction(([h]) => {
      const c = document.getElementById("r").shadowRoot.querySelector("canvas");
      const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
      let hash = 0;
      for (let i = 0; i < d.length; i += 4) hash = (hash * 31 + d[i] + 7 * d[i + 1] + 13 * d[i + 2] + 17 * d[i + 3]) >>> 0;
      return hash !== h;
    }, [lightPrint]);
    assert.equal(await bg("fixed"), LIGHT, `theme="light" ignores ${what}`);
    assert.equal(await page.evaluate(() => document.getElementById("r").resolvedTheme), "dark", what);
    await page.evaluate(off);
    await becomes("r", LIGHT);
  }
  await page.evaluate(() => document.documentElement.classList.add("coal"));
  await becomes("r", DARK);
  await page.screenshot({ path: join(SHOTS, "33-element-theme-auto-dark.png") });
  await page.evaluate(() => document.documentElement.classList.remove("coal"));
  // The page's own background colour.
  await page.evaluate(() => { document.body.style.background = "#202020"; });
  await becomes("r", DARK);
  await page.evaluate(() => { document.body.style.background = ""; });
  await becomes("r", LIGHT);
  // The system setting: a page that declares no dark scheme stays light, as the browser paints it.
  await page.emulateMedia({ colorScheme: "dark" });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 50))));
  assert.equal(await bg("r"), LIGHT);
  await page.evaluate(() => { document.documentElement.style.colorScheme = "light dark"; });
  await becomes("r", DARK);
  // mdBook's light theme overrides the system.
  await page.evaluate(() => document.documentElement.classList.add("light"));
  await becomes("r", LIGHT);
  await page.evaluate(() => document.getElementById("fixed").setAttribute("theme", "dark"));
  await becomes("fixed", DARK);
  assert.deepEqual(problems, []);
  await context.close();
});

test("the wasm loads only when an element comes near the screen, once for all elements", async () => {
  const html = hostPage(`<div style="height: 3000px">A long post.</div>
    <hash-ring id="a" nodes="a, b" keys="100"></hash-ring>
    <hash-ring id="b" nodes="c, d" keys="100"></hash-ring>
    <hash-ring id="c" nodes="e, f" keys="100"></hash-ring>`);
  const { page, context, problems, wasm } = await openHost(chrome.browser, html);
  await page.evaluate(() => customElements.whenDefined("hash-ring"));
  // Give the IntersectionObserver its first reports (they come with the next frames).
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 100)))));
  assert.deepEqual(wasm, []);
  assert.equal(await page.evaluate(() => window.__events.length), 0);
  for (const id of ["a", "b", "c"]) {
    await page.evaluate((id) => document.getElementById(id).scrollIntoView(), id);
    await events(page, id, "ready");
  }
  assert.equal(wasm.length, 1, wasm.join(", "));
  assert.deepEqual(problems, []);
  await context.close();
});

test("elements of every algorithm fetch the element's module once, and place keys as the library does", async () => {
  const html = hostPage(`<hash-ring id="a" nodes="a, b, c" keys="300"></hash-ring>
    <div style="height: 3000px">A long post.</div>
    <hash-ring id="k" nodes="a, b, c" keys="300" algorithm="libketama"></hash-ring>
    <hash-ring id="j" nodes="a, b, c" keys="300" algorithm="jump"></hash-ring>`);
  const { page, context, problems, wasm } = await openHost(chrome.browser, html);
  const file = (url) => url.replace(/^.*\//, "");
  await events(page, "a", "ready");
  assert.deepEqual(wasm.map(file), ["ringlab_element_bg.wasm"]);
  await page.evaluate(() => document.getElementById("k").scrollIntoView());
  const [[k], [j]] = [await events(page, "k", "ready"), await events(page, "j", "ready")];
  assert.deepEqual([k.settings.algorithm, j.settings.algorithm], ["libketama", "jump"]);
  // Another algorithm by attribute, and a reader's click: the same module.
  await page.evaluate(() => document.getElementById("a").setAttribute("algorithm", "redis-cluster"));
  const [, a] = await events(page, "a", "ready", 2);
  assert.equal(a.settings.algorithm, "redis-cluster");
  await page.evaluate(() => document.getElementById("k").shadowRoot.querySelector("[part~=add]").click());
  const [change] = await events(page, "k", "change");
  assert.ok(change.movedKeys > 0, JSON.stringify(change));
  assert.equal((await events(page, "k", "ready")).length, 1, "a change fires no second ready");
  assert.deepEqual(wasm.map(file), ["ringlab_element_bg.wasm"], "one module for every element and every change");
  await page.evaluate(() => document.getElementById("k").remove("node-1"));
  // Owners as the library module (ringlab.js) places them.
  const keys = Array.from({ length: 40 }, (_, i) => `user:${i}`);
  const got = await page.evaluate(async (keys) => {
    const out = {};
    for (const id of ["a", "k", "j"]) {
      out[id] = [];
      for (const key of keys) out[id].push((await document.getElementById(id).follow(key)).owner);
    }
    return out;
  }, keys);
  const want = await page.evaluate(async (keys) => {
    const mod = await import("./pkg/ringlab.js");
    await mod.default();
    const out = {};
    for (const [id, algorithm] of [["a", "redis-cluster"], ["k", "libketama"], ["j", "jump"]]) {
      const ring = new mod.Ring({ algorithm, nodes: ["a", "b", "c"] });
      out[id] = keys.map((key) => ring.locate(key));
    }
    return out;
  }, keys);
  assert.deepEqual(got, want);
  assert.ok(new Set(want.k).size === 3, "the keys reach every node");
  // A bad name is the caller's mistake (invalid-option).
  await page.evaluate(() => document.getElementById("a").setAttribute("algorithm", "<b>x</b>"));
  const [error] = await events(page, "a", "error");
  assert.equal(error.code, "invalid-option");
  assert.deepEqual(problems, []);
  await context.close();
});

test("an element's first frame is the Session's of its attributes, and the element module has every hash", async () => {
  const html = hostPage(`<hash-ring id="a" nodes="a, b, c*2" keys="300" vnodes="40" hash="fnv1a64"></hash-ring>
    <hash-ring id="m" nodes="a, b" keys="50" hash="md5"></hash-ring>`);
  const { page, context, problems, wasm } = await openHost(chrome.browser, html);
  const file = (url) => url.replace(/^.*\//, "");
  const [ready] = await events(page, "a", "ready");
  assert.deepEqual(ready.nodes, ["a", "b", "c"]);
  const [m] = await events(page, "m", "ready");
  assert.equal(m.settings.hash, "md5");
  const frames = await page.evaluate(async () => {
    const mod = await import(new URL("./pkg/ringlab_element.js", location.href).href);
    await mod.default();
    const out = [];
    for (const given of [{ nodes: "a, b, c*2", keys: 300, vnodes: 40, hash: "fnv1a64" }, { nodes: "a, b", keys: 50, hash: "md5" }, undefined]) {
      const s = new mod.Session(given);
      const f = s.frame({});
      out.push({ summary: f.scene.summary, keys: f.scene.keys.length, capabilities: f.capabilities, nodes: f.nodes.map((n) => n.name) });
      s.free();
    }
    return out;
  });
  const label = (id) => page.evaluate((id) => document.getElementById(id).shadowRoot.querySelector("[part=canvas]").getAttribute("aria-label"), id);
  assert.ok((await label("a")).endsWith(` ${frames[0].summary}`), `${await label("a")} / ${frames[0].summary}`);
  assert.ok((await label("m")).endsWith(` ${frames[1].summary}`), `${await label("m")} / ${frames[1].summary}`);
  assert.match(frames[0].summary, /^3 nodes, ring, 160 points \(fnv1a64, 32-bit ring\)/);
  assert.match(frames[1].summary, /^2 nodes, ring, 64 points \(md5, 32-bit ring\)/);
  assert.equal(frames[0].keys, 300);
  assert.deepEqual(frames[0].capabilities, { exactArcs: true, exactShares: true, replicas: true, weights: true, hash: true, vnodes: true, ownHash: null, undo: null, redo: null });
  // With no options, the playground's five nodes.
  assert.deepEqual(frames[2].nodes, ["node-1", "node-2", "node-3", "node-4", "node-5"]);
  // A reader's click on the MD5 ring: done in the same module.
  await page.evaluate(() => document.getElementById("m").shadowRoot.querySelector("[part~=add]").click());
  const [added] = await events(page, "m", "change");
  assert.equal(added.name, "node-1");
  assert.deepEqual(wasm.map(file), ["ringlab_element_bg.wasm"]);
  assert.deepEqual(problems, []);
  await context.close();
});

test("removing an element frees its engine objects and observers", async () => {
  // Count live observers and engine frees from outside the element.
  const init = () => {
    window.__live = { resize: 0, mutation: 0, intersection: 0, media: 0 };
    const wrap = (Base, key) =>
      class extends Base {
        #targets = new Set();
        // Only the element's observers (playwright's own injected script observes too).
        #ours = new Error().stack.includes("hash-ring.js");
        observe(t, o) { if (this.#ours && !this.#targets.has(t)) { this.#targets.add(t); window.__live[key]++; } return super.observe(t, o); }
        unobserve(t) { if (this.#targets.delete(t)) window.__live[key]--; return super.unobserve(t); }
        disconnect() { window.__live[key] -= this.#targets.size; this.#targets.clear(); return super.disconnect(); }
      };
    window.ResizeObserver = wrap(ResizeObserver, "resize");
    window.MutationObserver = wrap(MutationObserver, "mutation");
    window.IntersectionObserver = wrap(IntersectionObserver, "intersection");
    const add = MediaQueryList.prototype.addEventListener, remove = MediaQueryList.prototype.removeEventListener;
    MediaQueryList.prototype.addEventListener = function (...a) { window.__live.media++; return add.apply(this, a); };
    MediaQueryList.prototype.removeEventListener = function (...a) { window.__live.media--; return remove.apply(this, a); };
  };
  const head = "<style>main { display: flex; } hash-ring { flex: 1; }</style>";
  const { page, context, problems } = await openHost(chrome.browser, hostPage("", { head }), { init });
  await page.evaluate(() => customElements.whenDefined("hash-ring"));
  const baseline = await page.evaluate(() => ({ ...window.__live }));
  await page.evaluate(async () => {
    const mod = await import("./pkg/ringlab_element.js"); // the element's engine
    // Started first: at its start the module frees the objects it guards against freed use
    // (src/web/freed.rs), which are none of an element's.
    await mod.default();
    window.__freed = 0;
    const free = mod.Session.prototype.free;
    mod.Session.prototype.free = function () { window.__freed++; return free.call(this); };
  });
  // Mount and unmount three pages' worth of rings, as a single-page docs site does.
  for (let round = 0; round < 3; round++) {
    await page.evaluate((round) => {
      for (let i = 0; i < 3; i++) {
        const el = Object.assign(document.createElement("hash-ring"), { id: `m${round}-${i}` });
        el.setAttribute("nodes", "a, b, c");
        el.setAttribute("keys", "200");
        window.__watch(el);
        document.querySelector("main").append(el);
      }
    }, round);
    for (let i = 0; i < 3; i++) await events(page, `m${round}-${i}`, "ready");
    const mounted = await page.evaluate(() => ({ ...window.__live }));
    assert.ok(mounted.resize > baseline.resize && mounted.mutation > baseline.mutation && mounted.media > baseline.media, JSON.stringify(mounted));
    await page.evaluate(() => document.querySelectorAll("hash-ring").forEach((el) => el.remove()));
    assert.deepEqual(await page.evaluate(() => ({ ...window.__live })), baseline, `round ${round}`);
  }
  assert.equal(await page.evaluate(() => window.__freed), 9);
  assert.deepEqual(problems, []);
  await context.close();
});

test("keys pressed inside the element never reach the host page's shortcuts", async () => {
  // mdBook turns pages on ArrowLeft/ArrowRight from a document keydown listener.
  const head = `<script>window.__keys = []; document.addEventListener("keydown", (e) => window.__keys.push(e.key));</script>`;
  const { page, context, problems } = await openHost(chrome.browser, hostPage(RING, { head }));
  await events(page, "r", "ready");
  await page.evaluate(() => document.getElementById("r").shadowRoot.querySelector("[part~=add]").focus());
  for (const key of ["ArrowLeft", "ArrowRight", "s", "/", "?", "Enter"]) await page.keyboard.press(key);
  assert.deepEqual(await page.evaluate(() => window.__keys), []);
  // Enter still pressed the focused button.
  await events(page, "r", "change");
  // Tab passes (focus moves on), and the same keys outside the element reach the host.
  await page.keyboard.press("Tab");
  await page.evaluate(() => document.activeElement.blur());
  await page.keyboard.press("ArrowRight");
  assert.deepEqual(await page.evaluate(() => window.__keys), ["Tab", "ArrowRight"]);
  assert.deepEqual(problems, []);
  await context.close();
});

test("the iframe form: embed.html?nodes=…&vnodes=…&view=… fills its frame with one element", async () => {
  const frame = `<iframe id="f" src="embed.html?nodes=a,b,c,d&vnodes=16&view=ring&keys=300" title="A hash ring" width="640" height="480" style="border:0"></iframe>`;
  const { page, context, problems } = await openHost(chrome.browser, hostPage(frame));
  const inner = page.frameLocator("#f");
  await inner.locator("hash-ring").waitFor();
  const f = page.frame({ url: /embed\.html/ });
  await f.waitForFunction(() => document.querySelector("hash-ring")?.shadowRoot?.querySelectorAll("[part=legend] li").length === 4);
  const shape = await f.evaluate(() => {
    const r = document.querySelector("hash-ring");
    const box = r.getBoundingClientRect();
    return {
      count: document.querySelectorAll("hash-ring").length,
      attrs: [r.getAttribute("nodes"), r.vnodes, r.view, r.keys],
      width: box.width, height: box.height, innerWidth, innerHeight,
      scrolls: document.documentElement.scrollHeight > innerHeight,
    };
  });
  assert.equal(shape.count, 1);
  assert.deepEqual(shape.attrs, ["a,b,c,d", 16, "ring", 300]);
  assert.ok(shape.width >= shape.innerWidth - 20 && shape.height >= shape.innerHeight - 20, JSON.stringify(shape));
  assert.equal(shape.scrolls, false);
  await page.screenshot({ path: join(SHOTS, "34-embed-iframe.png") });
  assert.deepEqual(problems, []);
  await context.close();
});

test("migrate starts paused when the reader asks for reduced motion, and Play starts it", async () => {
  const html = hostPage(`<hash-ring id="m" nodes="a, b, c" vnodes="16" keys="200" view="migrate"></hash-ring>`);
  const { page, context, problems } = await openHost(chrome.browser, html, { reducedMotion: "reduce" });
  await events(page, "m", "ready");
  assert.equal(await shadowText(page, "m", "[part~=pause]"), "Play");
  assert.equal(await page.evaluate(() => document.getElementById("m").shadowRoot.querySelector("[part~=pause]").getAttribute("aria-pressed")), "true");
  // The Add and Remove buttons give way to the loop's own control.
  assert.deepEqual(await page.evaluate(() => ["add", "remove"].map((p) => document.getElementById("m").shadowRoot.querySelector(`[part~=${p}]`).hidden)), [true, true]);
  assert.equal((await page.evaluate(() => window.__events.filter((e) => e.type === "change"))).length, 0);
  await page.evaluate(() => document.getElementById("m").shadowRoot.querySelector("[part~=pause]").click());
  const [first] = await events(page, "m", "change");
  assert.equal(first.action, "add");
  assert.equal(await shadowText(page, "m", "[part~=pause]"), "Pause");
  assert.deepEqual(problems, []);
  await context.close();
});

test("hostile calls leave the element usable: a throwing getter, a detached element, properties set before the element is defined", async () => {
  const body = `<hash-ring id="r" nodes="a, b, c"></hash-ring>
<script>const early = document.createElement("hash-ring"); early.id = "early"; early.nodes = "p, q"; early.vnodes = 7;
early.addEventListener("ready", (e) => (window.__early = e.detail)); document.querySelector("main").prepend(early);</script>`;
  const { page, context, problems } = await openHost(chrome.browser, hostPage(body));
  await events(page, "r", "ready");
  // A getter that throws inside the engine's call is a coded error; the element goes on.
  const result = await page.evaluate(() => document.getElementById("r").add("x", { get weight() { throw new Error("boom"); } }));
  assert.equal(result, null);
  const [error] = await events(page, "r", "error");
  assert.equal(error.code, "invalid-argument");
  assert.match(error.message, /boom/);
  const added = await page.evaluate(() => document.getElementById("r").add("d"));
  assert.equal(added.name, "d");
  // A thousand more: the module's stack is not worn away (about 840 used to trap it).
  const alive = await page.evaluate(async () => {
    const el = document.getElementById("r");
    for (let i = 0; i < 1000; i++) await el.add("y", { get zone() { throw new Error("again"); } });
    return (await el.add("e"))?.name;
  });
  assert.equal(alive, "e");
  // Properties set before hash-ring.js defined the element reach it.
  const early = await (await page.waitForFunction(() => window.__early)).jsonValue();
  assert.deepEqual(early.nodes, ["p", "q"]);
  assert.equal(early.settings.vnodes, 7);
  // A detached element's methods resolve to null with a message, never hang.
  const detached = await page.evaluate(async () => {
    const el = document.createElement("hash-ring");
    window.__watch(Object.assign(el, { id: "loose" }));
    return [await el.add("z"), await el.follow("k"), await el.reset()];
  });
  assert.deepEqual(detached, [null, null, null]);
  assert.equal((await events(page, "loose", "error"))[0].code, "detached");
  assert.deepEqual(problems, []);
  await context.close();
});

test("a wasm download that fails once is tried again by the next change, and by new elements", async () => {
  let aborted = 0;
  const setup = (page) =>
    page.route(/ringlab_element_bg\.wasm/, (route) => (aborted++ === 0 ? route.abort() : route.continue()));
  const { page, context } = await openHost(chrome.browser, hostPage(`<hash-ring id="r" nodes="a, b"></hash-ring>`), { setup });
  const [failed] = await events(page, "r", "error");
  assert.equal(failed.code, "engine-load");
  assert.match(await page.evaluate(() => document.getElementById("r").shadowRoot.querySelector("canvas").getAttribute("aria-label")), /could not be drawn/);
  await page.evaluate(() => document.getElementById("r").setAttribute("nodes", "a, b, c"));
  const [ready] = await events(page, "r", "ready");
  assert.deepEqual(ready.nodes, ["a", "b", "c"]);
  assert.equal(aborted, 2, "one failed fetch, then one that loaded");
  await context.close();
});
