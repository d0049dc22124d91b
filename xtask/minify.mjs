// Minifies, in place, the scripts a writer's page loads for <hash-ring> from the npm package
// or the bundle (npm `terser`, locked in package-lock.json). The site serves www/ as written.
//
// Kept: the comments that tell a reader's bundler to leave a dynamic import alone
// (`webpackIgnore`, `@vite-ignore`): without them webpack tries to resolve the element's
// `import(glue)` at build time. Each file must keep as many of them as it had, or this fails.
//
//   node xtask/minify.mjs target/npm/hash-ring.js target/npm/host.js ...
import { readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const { minify } = require("terser");

const KEPT = ["webpackIgnore", "@vite-ignore"];
const count = (text, word) => text.split(word).length - 1;

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error("usage: node xtask/minify.mjs FILE.js...");
  process.exit(2);
}
for (const file of files) {
  const source = await readFile(file, "utf8");
  const { code } = await minify(source, {
    module: true,
    compress: { passes: 2 },
    mangle: true,
    format: { comments: new RegExp(KEPT.join("|")) },
  });
  for (const word of KEPT) {
    if (count(code, word) !== count(source, word)) {
      console.error(`${file}: ${count(source, word)} "${word}" comments before minifying, ${count(code, word)} after`);
      process.exit(1);
    }
  }
  await writeFile(file, code.endsWith("\n") ? code : `${code}\n`);
  console.log(`${file}: ${source.length} -> ${code.length} bytes`);
}
