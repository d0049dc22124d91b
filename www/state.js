// The playground's state in a shareable URL, and an undo/redo history of engine states.

const DEFAULTS = { algorithm: "ring", hash: "xxh3", vnodes: 32, keys: 2000, replicas: 2 };
export const KEY_COUNTS = [100, 1000, 2000, 10000, 100000];
const MAX_NODES = 1000;

// "#a=ring&h=xxh3&v=32&k=2000&r=2&n=node-1,node-2*2@eu" : each node is
// encodeURIComponent(name), then optional "*weight" and "@zone" (zone also encoded).
export function encode(settings, nodes) {
  const n = nodes
    .map((node) => {
      let s = encodeURIComponent(node.name);
      if (node.weight !== 1) s += `*${node.weight}`;
      if (node.zone) s += `@${encodeURIComponent(node.zone)}`;
      return s;
    })
    .join(",");
  const p = new URLSearchParams({ a: settings.algorithm, h: settings.hash, v: settings.vnodes, k: settings.keys, r: settings.replicas });
  return `#${p.toString()}&n=${n}`;
}

// Returns {settings, nodes} or throws an Error whose message says what is wrong. Names stay
// text: they are only ever shown with textContent.
export function decode(hash) {
  const p = new URLSearchParams(hash.replace(/^#/, ""));
  const int = (key, fallback) => {
    if (!p.has(key)) return fallback;
    const v = Number(p.get(key));
    if (!Number.isInteger(v)) throw new Error(`the link's "${key}" must be a whole number`);
    return v;
  };
  const settings = {
    algorithm: p.get("a") ?? DEFAULTS.algorithm,
    hash: p.get("h") ?? DEFAULTS.hash,
    vnodes: int("v", DEFAULTS.vnodes),
    keys: int("k", DEFAULTS.keys),
    replicas: int("r", DEFAULTS.replicas),
  };
  if (!KEY_COUNTS.includes(settings.keys)) throw new Error(`the link's key count must be one of ${KEY_COUNTS.join(", ")}`);
  if (settings.replicas < 1 || settings.replicas > 5) throw new Error("the link's replication factor must be 1 to 5");
  const raw = p.get("n");
  const parts = raw ? raw.split(",") : [];
  if (parts.length > MAX_NODES) throw new Error(`the link has more than ${MAX_NODES} nodes`);
  const nodes = parts.map((part) => {
    const [head, zone] = part.split("@");
    const [name, weight] = head.split("*");
    const node = { name: decodeURIComponent(name), weight: weight === undefined ? 1 : Number(weight) };
    if (zone !== undefined) node.zone = decodeURIComponent(zone);
    return node;
  });
  return { settings, nodes };
}

// A bounded undo/redo stack of {ring, label}. Engine objects dropped from it are freed.
export class History {
  constructor(limit = 50) {
    this.limit = limit;
    this.past = [];
    this.future = [];
  }
  push(entry) {
    this.past.push(entry);
    for (const f of this.future.splice(0)) f.ring.free();
    while (this.past.length > this.limit) this.past.shift().ring.free();
  }
  // Both take the current {ring, settings}; it keeps the label of the step it is one side of.
  undo(current) {
    const entry = this.past.pop();
    if (entry) this.future.push({ ...current, label: entry.label });
    return entry;
  }
  redo(current) {
    const entry = this.future.pop();
    if (entry) this.past.push({ ...current, label: entry.label });
    return entry;
  }
  get canUndo() {
    return this.past.length > 0;
  }
  get canRedo() {
    return this.future.length > 0;
  }
}
