// Random call sequences against the JS API in Chromium, generated with fast-check: every
// call either answers or throws an `Error` with a message and a `code`; a call that throws
// leaves the session exactly as it was; no call takes long; the module is alive afterwards.
// `cargo xtask test` runs a short bounded run; `cargo xtask fuzz` a long one (RINGLAB_FUZZ_RUNS).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { launch, open } from "./browser.mjs";
import { CALL_MS, runInPage, sequence } from "./fuzz-core.mjs";

const RUNS = Number(process.env.RINGLAB_FUZZ_RUNS ?? 60);
const SEED = process.env.RINGLAB_FUZZ_SEED ? Number(process.env.RINGLAB_FUZZ_SEED) : undefined;

let chrome;
before(async () => { chrome = await launch(); });
after(async () => { await chrome?.close(); });

test(`random call sequences (${RUNS} runs) get answers or coded Errors, change nothing on error, and stay fast`, async () => {
  const { page, problems, context } = await open(chrome.browser);
  const totals = { calls: 0, errors: 0, maxMs: 0 };
  await fc.assert(
    fc.asyncProperty(sequence, async (seq) => {
      const r = await page.evaluate(runInPage, [seq, CALL_MS]);
      totals.calls += r.calls;
      totals.errors += r.errors;
      totals.maxMs = Math.max(totals.maxMs, r.maxMs);
      assert.deepEqual(r.problems, []);
    }),
    { numRuns: RUNS, seed: SEED, endOnFailure: true },
  );
  console.log(`# fuzz: ${RUNS} sequences, ${totals.calls} calls, ${totals.errors} coded errors, slowest call ${totals.maxMs.toFixed(1)} ms`);
  assert.deepEqual(problems, []);
  await context.close();
});
