// One frame per change: after each change the playground crosses into the engine twice — the
// change itself (its Transition) and `frame()` (everything it redraws: ring, table, words,
// controls, link) — counted by wrapping every method of the page's own engine module (the same
// module instance main.js imported). A chart on screen computes its own data afterwards, one
// piece per task (`prepareChart`, then `chartData`; the algorithms chart times lookups on
// `Ring`s); those calls are the charts', counted apart.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch, open, settle } from "./browser.mjs";

let chrome;
before(async () => { chrome = await launch(); });
after(async () => { await chrome?.close(); });

// Starts counting every call into the Session and Ring objects of `file`, the page's engine
// module (the same instance main.js imported).
async function count(page, file = "./pkg/ringlab.js") {
  await page.evaluate(async (file) => {
    const mod = await import(file);
    const calls = (window.__calls = []);
    const wrap = (owner, name, label) => {
      // Methods only: reading a getter on the prototype would call into the engine.
      const original = Object.getOwnPropertyDescriptor(owner, name)?.value;
      if (typeof original !== "function" || name === "constructor" || original.__wrapped) return;
      owner[name] = function (...args) {
        calls.push(label);
        return original.apply(this, args);
      };
      owner[name].__wrapped = true;
    };
    for (const cls of [mod.Session, mod.Ring].filter(Boolean)) {
      for (const name of Object.getOwnPropertyNames(cls.prototype)) wrap(cls.prototype, name, `${cls.name}.${name}`);
    }
  }, file);
}

const CHART_CALLS = /^(Session\.(prepareChart|chartData|ringFor)|Ring\.)/;
const calls = async (page) => {
  await settle(page);
  // The animation and deferred tasks have run; only what the change caused is counted.
  return page.evaluate((charts) => window.__calls.splice(0).filter((c) => !new RegExp(charts).test(c)), CHART_CALLS.source);
};

test("each change redraws from one frame: two calls into the engine", async () => {
  const { page, problems, context } = await open(chrome.browser, { viewport: { width: 1280, height: 800 }, reducedMotion: "reduce" });
  await count(page);
  const changes = [
    ["add a node", () => page.click("#add-node"), ["Session.add"]],
    ["remove a node", () => page.click("button[aria-label='Remove node-2']"), ["Session.remove"]],
    ["mark a node down", () => page.click("button[aria-label='Mark node-3 down']"), ["Session.setDown"]],
    ["undo", () => page.click("#undo"), ["Session.undo"]],
    ["redo", () => page.click("#redo"), ["Session.redo"]],
    ["change the hash", () => page.selectOption("#hash", "md5"), ["Session.configure"]],
  ];
  for (const [what, act, change] of changes) {
    await act();
    const made = await calls(page);
    assert.deepEqual(made, [...change, "Session.frame"], `${what}: ${made.join(", ")}`);
  }
  // Another algorithm is a change like any other: two calls.
  await page.selectOption("#algorithm", "maglev");
  assert.deepEqual(await calls(page), ["Session.configure", "Session.frame"], "change the algorithm");
  await page.selectOption("#algorithm", "ring");
  assert.deepEqual(await calls(page), ["Session.configure", "Session.frame"], "change the algorithm");
  // Following a key is one call too: the frame carries its walk (typing follows after a pause).
  await page.fill("#follow-key", "user:42");
  await page.waitForFunction(() => document.getElementById("follow-out").textContent.startsWith("user:42 →"));
  assert.deepEqual(await calls(page), ["Session.frame"], "follow");
  // And the next change redraws the walk from the same single frame.
  await page.click("#add-node");
  assert.deepEqual(await calls(page), ["Session.add", "Session.frame"], "a change with a key followed");
  assert.deepEqual(problems, []);
  await context.close();
});
