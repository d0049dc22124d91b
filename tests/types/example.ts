// README's "The JS API" example, typed: every call it shows, compiled with `tsc --strict
// --noEmit` against the package's types (`cargo xtask test`, checks stage). The annotations
// say what each call returns; a wrong one fails the compile.
import init, {
  Ring, Session, Opening, algorithms, hashes, redisKeySlot, cassandraToken, jumpHash, compareAlgorithms, metrics, theoreticalRsd, judgeEstimate,
  agreementMatrix,
  palette, elementThemeCss, configKinds, configSections, checkConfig, catalog,
} from "ringlab";
import type {
  AlgorithmName, Capabilities, Comparison, HashName, RingDiff, RingNode, RinglabError, SampleMigration, Scene,
  SessionNode, Spread, SweepStep, Transition, ArcHit, KeyHit, Follow, ConfigKind, DownRule, AlgorithmInfo, Frame,
  MetricsRow, Agreement, AgreementMatrix, SessionAgreement, Explanation, ExplanationPair, ExplanationStepKind,
  MetricsComparison, ConfigCheck,
} from "ringlab";
import "ringlab/hash-ring";
import initCharts, { chartSvg, drawChart, type ChartSvg, type DrawnChart } from "ringlab/charts";
import type { ChartData } from "ringlab";

await init();

const ring = new Ring({ algorithm: "ring", hash: "xxh3", bits: 32, vnodes: 160,
                        nodes: ["cache-a", { name: "cache-b", weight: 2, zone: "eu-1" }] });
ring.add("cache-c", { weight: 1, zone: "eu-2" });
const owner: string = ring.locate("user:42");
const replicas: string[] = ring.replicas("user:42", 2);
const nodes: RingNode[] = ring.nodes();
const share: number | null = nodes[0].share;
const spread: Spread | null = ring.spread();
const sweep: SweepStep[] = ring.vnodeSweep([1, 10, 100]);
const owners: Uint32Array = ring.keyOwners("key:", 1000);
const position: string = ring.keyPosition("user:42");
const described: string = ring.describeKey("user:42");
const explained: Explanation = ring.explain("user:42", { replicas: 2 });
const firstStep: { kind: ExplanationStepKind; label: string; value: string; at: { fraction: number | null } } =
  explained.steps[0];
const explainedOwner: string | null = explained.owner;
const pair: ExplanationPair = Ring.explainPair(ring, ring.clone(), "user:42");
const partsAt: number | null = pair.partsAt;
const before: Ring = ring.clone();
ring.remove("cache-a");
const diff: RingDiff = Ring.diff(before, ring);
const firstArc: { start: string; end: string; from: string; to: string } | undefined = diff.arcs[0];
const sampled: SampleMigration = Ring.diffSample(before, ring, "key:", 10000, 1.0);
const keyed: SampleMigration = Ring.diffKeys(before, ring, ["user:1", "user:2"], 0);
const getters: [AlgorithmName, HashName, 32 | 64, number, number, number] =
  [ring.algorithm, ring.hash, ring.bits, ring.vnodes, ring.pointCount, ring.memoryBytes];
ring.setWeight("cache-b", 3);

const session = new Session();
const other = new Session({ nodes: ["a", { name: "b", weight: 2 }], algorithm: "jump", hash: "md5", bits: 64,
                            vnodes: 10, keys: 500, replicas: 2 });
const t: Transition = session.add("node-6", { weight: 1 });
const movedExactly: number | undefined = t.exact?.movedFraction;
const movedOnSample: number | undefined = t.sample?.movedFraction;
const movers: number = t.movers.count;
session.remove("node-2"); session.setWeight("node-1", 2); session.configure({ vnodes: 64 });
const undone: Transition | null = session.undo();
const redone: Transition | null = session.redo();
const scene: Scene = session.scene();
const frame: Frame = session.frame({ follow: "user:42", link: true });
const link: string | null = frame.link;
const shareText: string = frame.nodes[0].shareText;
// @ts-expect-error: not a chart
session.frame({ chart: "pie" });
void [link, shareText];
session.configure({ algorithm: "maglev", tableSize: 251 });
const points: Float64Array = scene.points;
const axis: [string, string, string, string] = scene.axis;
const rows: SessionNode[] = session.nodes();
const removalRule: string | null = rows[0].removalRule;
const can: Capabilities = session.capabilities();
const undoLabel: string | null = can.undo;
const arc: ArcHit | null = session.arcAt(0.25);
const near: KeyHit | null = session.keyNear(0.5, 0.01);
const followed: Follow = session.follow("user:42");
const sessionChain: Explanation = session.explain("user:42");
const sessionPair: ExplanationPair = session.explainPair("libketama", "user:42");
const reopened: Session = Session.fromLink(session.link());
// A link opened in steps, as the playground does for a link at the caps.
const opening: Opening = Session.opening(session.link());
while (!opening.step()) {
  // a page yields here between tasks
}
const stepped: Session = opening.session();
opening.free();
stepped.free();

const memcached: string = new Ring({ algorithm: "libmemcached-weighted", nodes: ["10.0.1.1:11211", "10.0.1.2:11211"] })
  .locate("user:42");
const slot: number = redisKeySlot("{user1000}.following");
const token: bigint = cassandraToken("user:42");
const bucket: number = jumpHash(42n, 10);
const compared: Comparison[] = compareAlgorithms({ nodes: ["a", "b", "c"] }, "key:", 2000);
const measured: MetricsRow[] = metrics({ nodes: ["a", "b", "c", "d"] }, 2000, { removalOrder: "fifo" });
const anchorRow = metrics({ nodes: ["a", "b", "c"], capacity: 16 }, ["k1", "k2"], { algorithms: ["anchor"], removals: 1 })[0];
const restored: number | null = "error" in anchorRow ? null : anchorRow.removal?.restoreMoved ?? null;
// @ts-expect-error: not a removal order
metrics({ nodes: ["a", "b"] }, 10, { removalOrder: "lru" });
void [measured, restored];
const pool = ["10.0.0.1:11211", "10.0.0.2:11211", "10.0.0.3:11211"];
const dalli = new Ring({ algorithm: "dalli", nodes: pool });
const pymemcache = new Ring({ algorithm: "pymemcache", nodes: pool });
const agreed: Agreement = Ring.agreement(dalli, pymemcache);
const split: string = agreed.pairs[0]?.a ?? agreed.reasons[0].step;
const everyClient: AgreementMatrix = agreementMatrix({ nodes: pool });
const onScreen: SessionAgreement = Session.fromLink("#a=dalli&n=a&n=b").agreement("memjs", "user:42");
// @ts-expect-error: not an algorithm
Session.fromLink("#a=dalli&n=a").agreement("no-such-client");
void [split, everyClient.disagree[0][1], onScreen.key?.agree];
const compared2: MetricsComparison = Session.fromLink("#a=ring&n=a&n=b&n=c").metrics({ removalOrder: "random", seed: 4 });
const balanceWinner: string = compared2.winners[0].sentence;
void [compared2.rows[0].cells[0], balanceWinner];

const viaDoor: Ring = Ring.fromConfig("nginx", "upstream u {\n  hash $request_uri consistent;\n  server 10.0.0.1:80;\n}");
const fromList: Ring = Ring.fromConfig("memcached", "10.0.0.1:11211\n", { algorithm: "libketama" });
// @ts-expect-error: not a config kind
Ring.fromConfig("yaml", "");
void [viaDoor, fromList];
const lb: Ring = Ring.fromNginxUpstream("upstream u {\n  hash $request_uri consistent;\n  server 10.0.0.1:80;\n}");
const lbOwner: string = lb.locate("/index.html");
lb.setDown("10.0.0.1:80", true);
lb.markUp("10.0.0.1:80");
lb.markDown("10.0.0.1:80");
const downFlag: boolean = lb.nodes()[0].down;
const isDown: boolean = lb.isDown("10.0.0.1:80");
const haproxy: string = Ring.fromHaproxyBackend("backend b\n  balance uri\n  server s1 10.0.0.1:80\n").locate("/a");
const tuned: Ring = new Ring({ algorithm: "haproxy-consistent", haproxyHash: "crc32", haproxyAvalanche: true, nodes: ["s1", "s2"] });
const kinds: ConfigKind[] = configKinds();
const sections: string[] = configSections("nginx", "http {\n  upstream a {\n    hash $uri;\n    server 10.0.0.1:80;\n  }\n}\n");
void sections;
const report: ConfigCheck = checkConfig("nginx", kinds[2].example, { section: "cache" });
const firstWhy: string = report.lines[0].why;
const refusedAt: number | null = report.error ? report.error.line : null;
void firstWhy;
void refusedAt;
const importedStep: Transition = session.importConfig("nginx", kinds[2].example);
const followedInLink: string | null = Session.fromLink(session.link()).linkedKey();
void importedStep;
void followedInLink;
const cassandra: string = new Ring({ algorithm: "cassandra", nodes: ["c1", "c2"],
  tokens: { c1: "-9223372036854775808, 0", c2: "-4611686018427387904, 4611686018427387904" } }).locate("user:42");
const imported: Session = Session.fromConfig("nginx", kinds[0].example);
const failover: Transition = imported.setDown(imported.nodes()[0].name, true);
const back: Transition = imported.markUp(imported.nodes()[0].name);
const traffic: number = imported.nodes()[0].traffic;
const zipf: number = session.settings().zipf;
session.setWorkload({ items: 10_000_000, itemBytes: 1024, requestsPerSec: 50_000 });
const costed: Transition = session.add("node-7");
const itemsMoved: number | undefined = costed.cost?.placement.itemsMoved;
const used: { keys: number; requests: number } | null = session.useKeys("user:1\nuser:2");
const rule: DownRule = session.downRule();
session.beginKeys();
session.pushKeys("user:1,120");
const read: { keys: number; requests: number } = session.endKeys();
const redis: Ring = Ring.fromRedisClusterNodes(kinds[0].example);
const ketama: Ring = Ring.fromMemcachedServers("10.0.0.1:11211 1\n10.0.0.2:11211 2\n", "libketama");
const why: string = redis.downRule().text;
for (const row of compared) {
  // A row is a report or the error that algorithm gave: `in` tells them apart.
  const figure: number | string = "error" in row ? row.code : row.maxOverMean;
  void figure;
}
const rsd: number = theoreticalRsd(10, 100);
const judged: { right: boolean; tolerance: number } = judgeEstimate(200, 183, 1000);
void judged;
const names: AlgorithmName[] = algorithms();
const entries: AlgorithmInfo[] = catalog();
const tableSize: number | string | boolean | null | undefined = entries.find((e) => e.name === "maglev")?.options[1]?.default;
void tableSize;
const hashNames: HashName[] = hashes();
const colours: string[] = palette();
const css: string = elementThemeCss();

try {
  ring.remove("no-such-node");
} catch (e) {
  const code: string = (e as RinglabError).code;
  void code;
}
const element: HTMLElement | null = document.querySelector("hash-ring");

// Charts: the data from the engine, the drawing from the second module (imported when needed).
const prepared: boolean = session.prepareChart("moves");
await initCharts();
const charts = await import("ringlab/charts");
await charts.default();
const canvas: HTMLCanvasElement = document.createElement("canvas");
const chart: ChartData = session.chartData("spread", { band: true });
if (chart.kind === "spread") {
  const hashUsed: HashName = chart.data.hash;
  void hashUsed;
}
const drawn: DrawnChart = charts.drawChart(canvas, chart, { dark: false, dpr: devicePixelRatio });
const table: string[][] | undefined = drawn.table?.rows;
const asSvg: ChartSvg = chartSvg(chart, { width: 800, height: 500, dark: true });
const svgText: string = asSvg.svg;

// Wrong uses must not compile.
// @ts-expect-error: an unknown algorithm name
new Ring({ algorithm: "ketama" });
// @ts-expect-error: a misspelt option
new Ring({ vnode: 10 });
// @ts-expect-error: jumpHash takes a BigInt key
jumpHash(42, 10);
// @ts-expect-error: undo can return null
session.undo().label;
// @ts-expect-error: drawChart takes chartData's object, not a chart's name
drawChart(canvas, "spread");
// @ts-expect-error: chartSvg's width is a number of pixels
chartSvg(chart, { width: "800px" });

void [svgText, owner, replicas, share, spread, sweep, owners, position, described, firstArc, sampled, keyed, getters, other,
  movedExactly, movedOnSample, movers, undone, redone, points, axis, removalRule, undoLabel, arc, near, followed,
  reopened, memcached, slot, token, bucket, rsd, names, hashNames, colours, css, element, lbOwner, isDown, haproxy,
  tuned, cassandra, failover, back, traffic, zipf, downFlag, itemsMoved, used, read, rule, ketama, why, table, prepared,
  explained, firstStep, explainedOwner, pair, partsAt, sessionChain, sessionPair];
