// Node, as a user's script: the package's `node` entry, init() with no argument, then every
// key of libketama cases against what the real libketama answered (the fixture's path is the
// first argument), then the charts as SVG. Prints one JSON line: {checked, mismatches, charts,
// svg, sequence}.
import { readFileSync } from "node:fs";
import init, { Ring, Session } from "ringlab";
import initCharts, { chartSvg, drawChart } from "ringlab/charts";
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
// The chart module starts in Node too. drawChart draws on a <canvas>, which Node has not;
// chartSvg writes an SVG document.
await initCharts();
const session = new Session({ nodes: ["a", "b", "c", "d"], vnodes: 100 });
const codeOf = (f) => {
  try {
    f();
    return null;
  } catch (e) {
    return e.code ?? `not coded: ${e}`;
  }
};
const spread = session.chartData("spread", {});
const light = chartSvg(spread);
const dark = chartSvg(spread, { dark: true, width: 900, height: 500 });
const algorithms = chartSvg(session.chartData("algorithms", {}), { width: 700 });
const svg = {
  light: { head: light.svg.slice(0, light.svg.indexOf(">") + 1), svg: light.svg, csv: light.csv },
  dark: { head: dark.svg.slice(0, dark.svg.indexOf(">") + 1), svg: dark.svg },
  algorithms: { head: algorithms.svg.slice(0, algorithms.svg.indexOf(">") + 1), table: algorithms.table, svg: algorithms.svg },
  shares: chartSvg(session.chartData("shares", {})).svg.length,
  errors: {
    none: codeOf(() => chartSvg()),
    notChart: codeOf(() => chartSvg({ kind: "pie", data: {} })),
    wide: codeOf(() => chartSvg(spread, { width: 5000 })),
    fraction: codeOf(() => chartSvg(spread, { width: 640.5 })),
    small: codeOf(() => chartSvg(spread, { width: 40, height: 30 })),
    unknown: codeOf(() => chartSvg(spread, { colour: "red" })),
  },
};
// The sequence module imports in Node too (it touches the DOM only when played).
let refused = false;
try {
  actionOf({ add: "e", remove: "b" });
} catch (e) {
  refused = e instanceof TypeError;
}
const sequence = { action: actionOf({ add: "e" }), refused };
console.log(JSON.stringify({ checked, mismatches: mismatches.slice(0, 5), charts: typeof drawChart, svg, sequence }));
