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
  assert.deepEqual((await rows(page)).map((r) => r.name), ["x", "y", "z"], "the user's ring stays");
  assert.equal(await page.inputValue("#algorithm"), "maglev");
  assert.deepEqual(problems, []);
  await context.close();
});
