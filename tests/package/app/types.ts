// A strict TypeScript user of the package: every entry's types, `Symbol.dispose` included,
// compiled by tsconfig.es2020.json and tsconfig.es2022.json with no skipLibCheck.
import init, { Ring, Session, type RingNode } from "ringlab";
import initCharts, { drawChart, type DrawnChart } from "ringlab/charts";
import "ringlab/hash-ring";
import { play, actionOf, type SequenceStep } from "ringlab/sequence";

export async function owners(keys: string[]): Promise<string[]> {
  await init();
  const ring = new Ring({ algorithm: "libketama", nodes: ["a", { name: "b", weight: 2 }] });
  const nodes: RingNode[] = ring.nodes();
  const found = keys.map((k) => ring.locate(k));
  ring[Symbol.dispose]();
  return found.concat(nodes.map((n) => n.name));
}

export async function draw(canvas: HTMLCanvasElement): Promise<DrawnChart> {
  await initCharts();
  const session = new Session();
  const drawn = drawChart(canvas, session.chartData("shares"), { dpr: 1 });
  session.free();
  return drawn;
}

export const element: HTMLElement = document.createElement("hash-ring");

// A post's story, typed: a wrong step (two actions) would not compile.
const story: SequenceStep[] = [{ set: { nodes: "a, b, c", vnodes: 64 } }, { add: "d" }, { follow: "user:7" }, { remove: "b" }];
export const told: Promise<unknown[]> = play(element, story, { pause: 0 });
export const first: string = actionOf(story[0]);
