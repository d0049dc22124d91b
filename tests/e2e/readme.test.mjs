// README's "The JS API" example, run as written in real Chromium: every name it imports is
// exported by the package, and every call it shows runs without throwing.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { launch, open } from "./browser.mjs";

let chrome;
before(async () => { chrome = await launch(); });
after(async () => { await chrome?.close(); });

function example() {
  const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
  const section = readme.slice(readme.indexOf("## The JS API"));
  const code = section.match(/```js\n([\s\S]*?)```/)[1];
  const imports = code.match(/import init, \{([^}]*)\} from "\.\/pkg\/ringlab\.js";/);
  assert.ok(imports, "the example starts with the package's import");
  const names = imports[1].split(",").map((n) => n.trim()).filter(Boolean);
  const body = code.replace(imports[0], "").replace("await init();", "");
  return { names, body };
}

test("README's JS API example imports real names and runs as written", async () => {
  const { names, body } = example();
  assert.ok(names.length >= 10, names.join(", "));
  const { page, problems, context } = await open(chrome.browser);
  const result = await page.evaluate(async ([names, body]) => {
    const mod = await import("./pkg/ringlab.js");
    await mod.default();
    const missing = names.filter((n) => !(n in mod));
    const run = new Function(...names, `return (async () => { ${body} })();`);
    try {
      await run(...names.map((n) => mod[n]));
      return { missing, error: null };
    } catch (e) {
      return { missing, error: `${e.code ?? ""} ${e.message}` };
    }
  }, [names, body]);
  assert.deepEqual(result.missing, [], "every imported name is exported");
  assert.equal(result.error, null);
  assert.deepEqual(problems, []);
  await context.close();
});
