// Random call sequences against the JS API in Chromium, generated with fast-check: every
// call either answers or throws an `Error` with a message and a `code`; a call that throws
// leaves the session exactly as it was; no call takes long; the module is alive afterwards.
// `cargo xtask test` runs a short bounded run; `cargo xtask fuzz` a long one (RINGLAB_FUZZ_RUNS).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { launch, open } from "./browser.mjs";
import { CALL_MS, CAP_MS, capCall, runCapInPage, runInPage, sequence } from "./fuzz-core.mjs";

const RUNS = Number(process.env.RINGLAB_FUZZ_RUNS ?? 60);
const SEED = process.env.RINGLAB_FUZZ_SEED ? Number(process.env.RINGLAB_FUZZ_SEED) : undefined;
const CAP_RUNS = Number(process.env.RINGLAB_FUZZ_CAP_RUNS ?? 45);
// Exports whose calls at the caps are known to pass CAP_MS (issue #57, still open), each
// with what makes it slow: printed with the others and marked, not failed. Remove an entry
// with the change that brings its export within the budget; add none.
const PENDING = {};

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

// Fuzz the budget, not only the types: calls at, just past and just below every cap and
// their products (the most nodes × vnodes, the longest names under SHA-256, the most keys ×
// the longest keys, replicas near the node count, ...). Each answers or throws a coded
// Error within CAP_MS (the faster of two runs, for a call over it); the slowest call of
// each export is printed as a table.
test(`calls at and near the caps (${CAP_RUNS} runs) each take at most ${CAP_MS} ms`, async () => {
  const { page, problems, context } = await open(chrome.browser);
  const slowest = new Map();
  const slow = [];
  await fc.assert(
    fc.asyncProperty(capCall, async (spec) => {
      let r = await page.evaluate(runCapInPage, [spec]);
      // A call over the budget is made once more, from its setup, and the faster run
      // counts: another test file runs beside this one, and one run can lose the core to it.
      if (r.ms > CAP_MS) {
        const again = await page.evaluate(runCapInPage, [spec]);
        assert.equal(again.code, r.code, `${spec.call} answered differently when made again`);
        if (again.ms < r.ms) r = again;
      }
      const { call, ...sizes } = spec;
      const seen = slowest.get(r.call);
      if (!seen || r.ms > seen.ms) slowest.set(r.call, { ms: r.ms, code: r.code, sizes: JSON.stringify(sizes) });
      assert.ok(!r.code.startsWith("not coded"), `${call}: ${r.code}`);
      if (r.ms > CAP_MS && !(call in PENDING)) slow.push(`${call} took ${r.ms.toFixed(0)} ms (${r.code}): ${JSON.stringify(sizes)}`);
    }),
    { numRuns: CAP_RUNS, seed: SEED, endOnFailure: true },
  );
  console.log("# the slowest call per export, at and near the caps (ms, answer, sizes):");
  for (const [call, { ms, code, sizes }] of [...slowest].sort((a, b) => b[1].ms - a[1].ms)) {
    const mark = ms > CAP_MS ? ` (over: pending, ${PENDING[call]})` : "";
    console.log(`#   ${call.padEnd(22)} ${ms.toFixed(1).padStart(8)}  ${code.padEnd(16)} ${sizes}${mark}`);
  }
  assert.deepEqual(slow, []);
  assert.deepEqual(problems, []);
  await context.close();
});
