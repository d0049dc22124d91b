// Node, as a user's script: the package's `node` entry, init() with no argument, then every
// key of libketama cases against what the real libketama answered (the fixture's path is the
// first argument). Prints one JSON line: {checked, mismatches, charts}.
import { readFileSync } from "node:fs";
import init, { Ring } from "ringlab";
import initCharts, { drawChart } from "ringlab/charts";
import { actionOf } from "ringlab/sequence";

await init();
const fixture = JSON.parse(readFileSync(process.argv[2], "utf8"));
let checked = 0;
const mismatches = [];
for (const c of fixture.cases) {
  const ring = new Ring({ algorithm: "libketama", nodes: c.servers.map((s) => ({ name: s.name, weight: s.weight })) });
  for (const { key, server } of c.keys) {
    const owner = ring.locate(key);
    if (owner !== server) mismatches.push({ key, server, owner });
    checked++;
  }
  ring.free();
}
// The chart module starts in Node too; drawChart itself draws on a <canvas>, which Node has not.
await initCharts();
// The sequence module imports in Node too (it touches the DOM only when played).
let refused = false;
try {
  actionOf({ add: "e", remove: "b" });
} catch (e) {
  refused = e instanceof TypeError;
}
const sequence = { action: actionOf({ add: "e" }), refused };
console.log(JSON.stringify({ checked, mismatches: mismatches.slice(0, 5), charts: typeof drawChart, sequence }));
