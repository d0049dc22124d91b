// Links round-trip exactly: any state the page can reach, awkward names, zones and weights
// included, comes back identical from the link; a link pasted into an open page opens.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch, open, engine, settle } from "./browser.mjs";

let chrome;
before(async () => { chrome = await launch(); });
after(async () => { await chrome?.close(); });

const rows = async (page) => {
  await settle(page);
  return page.$$eval("#legend tbody tr", (trs) =>
    trs.map((r) => ({ name: r.cells[0].textContent, zone: r.cells[1].textContent, weight: r.cells[2].querySelector("input").value })));
};

test("awkward names, zones and weights come back identical from the page's own link", async () => {
  const { page, problems, context } = await open(chrome.browser);
  const awkward = ["a,b*c@d%e&f#g", "100%", "é€ 😀", "x+y=z", "%41"];
  for (const [i, name] of awkward.entries()) {
    await page.fill("#add-name", name);
    await page.fill("#add-weight", String(0.1 + i / 3));
    await page.fill("#add-zone", `${name}@zone`);
    await page.click("#add-node");
    await settle(page);
  }
  const before = await rows(page);
  assert.deepEqual(before.slice(5).map((r) => r.name), awkward);
  const other = await open(chrome.browser, {}, new URL(page.url()).hash);
  assert.deepEqual(await rows(other.page), before);
  await other.context.close();
  assert.deepEqual(problems, []);
  await context.close();
});

test("a link pasted into an open page opens it (hashchange); a broken one says why and leaves the ring as it was", async () => {
  const { page, problems, context } = await open(chrome.browser);
  const link = await engine(page, (mod) => new mod.Session({ algorithm: "maglev", nodes: ["x", "y", "z"] }).link());
  await page.evaluate((l) => { location.hash = l; }, link);
  await page.waitForFunction(() => document.querySelectorAll("#legend tbody tr").length === 3);
  assert.deepEqual((await rows(page)).map((r) => r.name), ["x", "y", "z"]);
  assert.equal(await page.inputValue("#algorithm"), "maglev");
  await page.evaluate(() => { location.hash = "#ringlab=2&a=chord"; });
  await page.waitForFunction(() => /could not be opened/.test(document.getElementById("config-error").textContent));
  assert.match(await page.textContent("#config-error"), /unknown algorithm "chord".*; the ring is as it was/);
  assert.equal(await page.textContent("#last-change"), await page.textContent("#config-error"), "said under the ring too");
  assert.deepEqual((await rows(page)).map((r) => r.name), ["x", "y", "z"], "the user's ring stays");
  assert.equal(await page.inputValue("#algorithm"), "maglev");
  assert.deepEqual(problems, []);
  await context.close();
});

// A link at the caps is opened in steps across tasks (`Session.opening`), its table filled a
// slice of rows a task: while it opens, the page keeps running its other tasks, a newer link
// pasted meanwhile wins, and the big one, once opened, is exactly the state it describes.
test("a big link opens in steps: the page runs meanwhile, a newer link wins, and it opens whole", async () => {
  const nodes = Array.from({ length: 500 }, (_, i) => `n=big-${i}`).join("&");
  const big = `#ringlab=2&a=ring&h=xxh3&b=32&v=1000&k=100000&${nodes}`;
  const { page, problems, context } = await open(chrome.browser);
  // A timer ticking from the moment the link is set until its ring is on screen notes how
  // many of the open's tasks (slices) had run at each tick. Both are timers, run in turn, so
  // in an open of several slices some ticks fall between them, on any machine, busy or not;
  // in an open of one task none can.
  const seen = await page.evaluate(async (link) => {
    const seen = [];
    const opened = () => document.querySelector("#summary").textContent.startsWith("500 nodes");
    location.hash = link;
    await new Promise((done) => {
      const tick = () => { seen.push(window.__ringlab.openSlices); if (opened()) done(); else setTimeout(tick, 0); };
      setTimeout(tick, 0);
    });
    return seen;
  }, big);
  const slices = seen.at(-1);
  const between = seen.filter((n) => n > 0 && n < slices).length;
  const shape = `${slices} slices, ticks after each: ${seen.join(" ")}`;
  console.log(`# the big link opened: ${shape}`);
  assert.ok(slices >= 2 && between >= 1, `the open ran in slices, with other tasks between them: ${shape}`);
  await settle(page);
  assert.match(await page.textContent("#summary"), /^500 nodes, ring, 500,000 points/);
  const names = (await rows(page)).map((r) => r.name);
  assert.equal(names.length, 500, "every row, filled a slice at a time");
  assert.deepEqual(names.slice(0, 2).concat(names.slice(-1)), ["big-0", "big-1", "big-499"]);
  // The engine's own session of the same link agrees with what the page shows.
  const expected = await engine(page, (mod, link) => mod.Session.fromLink(link).frame({}).scene.summary, big);
  assert.equal(await page.textContent("#summary"), expected);

  // A small link pasted while a big one is still opening: the small one is what stays.
  const small = await engine(page, (mod) => new mod.Session({ nodes: ["p", "q"] }).link());
  await page.evaluate(([first, second]) => {
    location.hash = first.replace("big-", "other-");
    setTimeout(() => { location.hash = second; }, 0);
  }, [big, small]);
  await page.waitForFunction(() => document.querySelector("#summary").textContent.startsWith("2 nodes"));
  await settle(page);
  await page.waitForTimeout(300);
  assert.deepEqual((await rows(page)).map((r) => r.name), ["p", "q"]);
  assert.match(await page.textContent("#summary"), /^2 nodes/);
  assert.deepEqual(problems, []);
  await context.close();
});

test("on a phone, a link that cannot be opened says so in view, under the ring", async () => {
  const { page, problems, context } = await open(chrome.browser, { viewport: { width: 390, height: 844 } }, "#ringlab=2&a=ring&v=99999&n=a");
  const said = page.locator("#last-change");
  assert.match(await said.textContent(), /could not be opened \(vnodes must be between 1 and 10000.*showing the default ring/);
  const box = await said.boundingBox();
  assert.ok(box && box.y >= 0 && box.y + box.height <= 844, `the message is at y ${box?.y}, out of the 844 px view`);
  assert.deepEqual(problems, []);
  await context.close();
});
