// "Your own cluster": a pasted nginx or HAProxy config becomes the ring, and marking a server
// down moves exactly the keys the engine's Ring says, independently computed here.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { launch, open, engine, settle, SHOTS } from "./browser.mjs";

let chrome;
before(async () => { chrome = await launch(); });
after(async () => { await chrome?.close(); });

const rows = async (page) => {
  await settle(page);
  return page.$$eval("#legend tbody tr", (trs) => trs.map((r) => ({ name: r.cells[0].textContent, down: r.classList.contains("down") })));
};

test("a pasted nginx upstream becomes the ring; marking a server down moves only its keys", async () => {
  const { page, problems, context } = await open(chrome.browser);
  await page.click("#import summary");
  await page.selectOption("#import-kind", "nginx");
  await page.click("#import-example");
  await page.click("#import-load");
  assert.deepEqual(await rows(page), [
    { name: "10.0.0.1:11211", down: false },
    { name: "10.0.0.2:11211", down: false },
    { name: "10.0.0.3:11211", down: true },
  ]);
  assert.match(await page.textContent("#last-change"), /^Imported 3 servers from your nginx upstream block/);
  assert.match(await page.textContent("#summary"), /^3 nodes, nginx-consistent \(1 down\)/);

  await page.click("button[aria-label='Mark 10.0.0.1:11211 down']");
  await settle(page);
  const text = await page.textContent("#last-change");
  const moved = Number(text.match(/moved ([\d,]+) of 2,000 keys/)[1].replace(/,/g, ""));
  // Independently: the same config through the Ring API, owners before and after.
  const expected = await engine(page, (mod, config) => {
    const a = mod.Ring.fromNginxUpstream(config);
    const b = mod.Ring.fromNginxUpstream(config);
    b.setDown("10.0.0.1:11211", true);
    const names = a.nodes().map((n) => n.name);
    const before = a.keyOwners("key:", 2000), after = b.keyOwners("key:", 2000);
    let moved = 0, onlyFromDown = true;
    for (let k = 0; k < 2000; k++) {
      if (before[k] !== after[k]) {
        moved++;
        if (names[before[k]] !== "10.0.0.1:11211") onlyFromDown = false;
      }
    }
    return { moved, onlyFromDown, isDown: b.isDown("10.0.0.1:11211") };
  }, await page.evaluate(() => document.getElementById("import-text").value));
  assert.ok(expected.onlyFromDown && expected.isDown);
  assert.equal(moved, expected.moved);
  assert.ok(moved > 0);
  assert.equal((await rows(page))[0].down, true);
  // The link carries the down marks: reopening it shows the same rows.
  const other = await open(chrome.browser, {}, new URL(page.url()).hash);
  assert.deepEqual(await rows(other.page), await rows(page));
  await other.context.close();
  await page.screenshot({ path: join(SHOTS, "30-import-nginx.png"), fullPage: true });
  assert.deepEqual(problems, []);
  await context.close();
});

test("a malformed config names its line and changes nothing", async () => {
  const { page, problems, context } = await open(chrome.browser);
  const before = await rows(page);
  await page.click("#import summary");
  await page.selectOption("#import-kind", "haproxy");
  await page.fill("#import-text", "backend x\n    balance hdr(X-Key)\n    server\n");
  await page.click("#import-load");
  assert.match(await page.textContent("#import-error"), /^line 3: /);
  assert.deepEqual(await rows(page), before);
  assert.deepEqual(problems, []);
  await context.close();
});

test("a pasted config says what was read, what was passed over and why, and the line refused", async () => {
  for (const [viewport, shot] of [[{ width: 1280, height: 800 }, "31-import-report"], [{ width: 390, height: 844 }, "32-import-report-phone"]]) {
    const { page, problems, context } = await open(chrome.browser, { viewport });
    await page.click("#import summary");
    await page.selectOption("#import-kind", "nginx");
    const text = "upstream cache {\n    # the key\n    hash $request_uri consistent;\n    server 10.0.0.1:80;\n    keepalive 16;\n    server 10.0.0.2:80;\n}\n";
    await page.fill("#import-text", text);
    await page.waitForSelector("#import-passed");
    assert.equal(await page.textContent("#import-passed summary"), "5 lines read, 2 passed over");
    await page.click("#import-passed summary");
    const passed = () => page.$$eval("#import-passed li", (lis) => lis.map((li) => [li.value, li.textContent]));
    assert.deepEqual(await passed(), [[2, "a comment"], [5, "keepalive: connections to the servers, not which one is picked"]]);
    // The engine's `keepalive` is shown as code, not with its backticks.
    assert.deepEqual(await page.$$eval("#import-passed li code", (cs) => cs.map((c) => c.textContent)), ["keepalive"]);
    assert.equal(await page.$("#import-report .error"), null);
    const look = async (name) => {
      await page.$eval("#import", (e) => e.scrollIntoView({ block: "start", behavior: "instant" }));
      await page.screenshot({ path: join(SHOTS, name) });
    };
    await look(`${shot}.png`);
    // A misspelt `server` on line 4 is refused there; what was read before it is counted.
    await page.fill("#import-text", text.replace("server 10.0.0.1", "sever 10.0.0.1"));
    await page.waitForSelector("#import-report .error");
    assert.equal(await page.textContent("#import-report .error"), 'line 4: unknown directive "sever" in an upstream block');
    assert.equal(await page.textContent("#import-passed summary"), "2 lines read, 1 passed over, refused at line 4");
    await look(`${shot}-refused.png`);
    // Names are text: a tag in the config is shown, never made.
    await page.fill("#import-text", "upstream u {\n  <img src=x onerror=alert(1)>;\n}\n");
    await page.waitForFunction(() => document.querySelector("#import-report .error")?.textContent.includes("<img"));
    assert.equal(await page.$("#import-report img"), null);
    // The report never widens the page (the phone's width included).
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), "no horizontal scroll");
    assert.deepEqual(problems, []);
    await context.close();
  }
});
