// ringlab's JavaScript API: the types of what `pkg/ringlab.js` exports (src/web/*.rs).
//
// Written by hand, because wasm-bindgen types every argument and object as `any`, except the
// blocks between `// <generated from the catalog by cargo xtask types: …>` and `// </generated>`:
// the algorithm names, the options' fields and types, the config kinds. `cargo xtask types`
// writes those from the catalog (src/algo/); edit the catalog, not them (a test fails while
// this file differs from what it writes).
// `cargo xtask test` keeps it honest: tests/types/exports.ts checks that these names are
// exactly the ones the wasm module exports, tests/types/shapes.mjs that the objects the calls
// return have exactly these fields, and tests/types/example.ts (README's example, typed)
// compiles against this file with `tsc --strict`. A new export goes here too.

/// <reference path="./disposable.d.ts" />

// <generated from the catalog by cargo xtask types: names>
/** Every placement algorithm `algorithms()` lists, in the catalog's order. */
export type AlgorithmName =
  /** ringlab's ring */
  | "ring"
  /** libketama (last.fm) */
  | "libketama"
  /** libmemcached, weighted ketama */
  | "libmemcached-weighted"
  /** libmemcached, ketama */
  | "libmemcached-ketama"
  /** Redis Cluster */
  | "redis-cluster"
  /** Cassandra */
  | "cassandra"
  /** Go groupcache */
  | "groupcache"
  /** Jump hash */
  | "jump"
  /** Rendezvous (HRW) */
  | "rendezvous"
  /** Maglev */
  | "maglev"
  /** Multi-probe */
  | "multi-probe"
  /** Bounded loads */
  | "bounded-load"
  /** hash % N */
  | "modulo"
  /** nginx, hash … consistent */
  | "nginx-consistent"
  /** nginx, hash (not consistent) */
  | "nginx-hash"
  /** HAProxy, hash-type consistent */
  | "haproxy-consistent"
  /** HAProxy, hash-type map-based */
  | "haproxy-map-based"
  /** twemproxy, ketama */
  | "twemproxy-ketama"
  /** twemproxy, modula */
  | "twemproxy-modula"
  /** Envoy, RING_HASH */
  | "envoy-ring-hash"
  /** Envoy, MAGLEV */
  | "envoy-maglev"
  /** AnchorHash */
  | "anchor"
  /** DxHash */
  | "dx"
  /** MementoHash */
  | "memento"
  /** JumpBackHash */
  | "jump-back"
  /** FlipHash */
  | "flip"
  /** BinomialHash */
  | "binomial"
  /** PowerCH */
  | "power"
  /** pymemcache HashClient (Django) */
  | "pymemcache"
  /** python-memcached */
  | "python-memcached"
  /** uhashring (Python) */
  | "uhashring"
  /** uhashring, ketama (Python) */
  | "uhashring-ketama"
  /** Dalli (Ruby, Rails) */
  | "dalli"
  /** redis-rb 4 Redis::Distributed */
  | "redis-rb-4"
  /** redis-rb 5 Redis::Distributed */
  | "redis-rb-5"
  /** spymemcached, ketama (Java) */
  | "spymemcached-ketama"
  /** spymemcached, default (Java) */
  | "spymemcached-native"
  /** hashring (npm memcached) */
  | "npm-hashring"
  /** memjs (Node.js) */
  | "memjs";

/** An algorithm's family (`AlgorithmInfo.family`), the groups the catalog is listed in. */
export type FamilyName =
  /** ringlab */
  | "ringlab"
  /** cache clients */
  | "client"
  /** data stores */
  | "store"
  /** load balancers */
  | "balancer"
  /** published algorithms */
  | "paper"
  /** baseline */
  | "baseline";

/** The kinds of configuration text `configKinds()` lists (`ConfigKind.kind`). */
export type ConfigKindName =
  /** redis-cli cluster nodes */
  | "redis"
  /** memcached server list (libmemcached) */
  | "memcached"
  /** nginx upstream block */
  | "nginx"
  /** HAProxy backend section */
  | "haproxy"
  /** twemproxy pool (nutcracker.yml) */
  | "twemproxy"
  /** Envoy cluster (RING_HASH or MAGLEV) */
  | "envoy";

/** The algorithms that place a memcached server list (`ImportOptions.algorithm`). */
export type MemcachedAlgorithmName =
  /** libketama (last.fm) */
  | "libketama"
  /** libmemcached, weighted ketama */
  | "libmemcached-weighted"
  /** libmemcached, ketama */
  | "libmemcached-ketama";

/** Every hash function `hashes()` lists; the byte rule of each is in src/hash.rs. */
export type HashName = "xxh3" | "xxh64" | "xxh32" | "fnv1a32" | "fnv1a64" | "md5" | "sha256" | "murmur3" | "crc32";

/** Bits of ringlab's ring positions. */
export type RingBits = 32 | 64;

/** HAProxy's `hash-type` functions. */
export type HaproxyHashName = "sdbm" | "djb2" | "wt6" | "crc32";

/** twemproxy's `hash:` functions (`crc32` is its 15-bit value, `crc32a` the full CRC-32). */
export type TwemproxyHashName =
  | "one_at_a_time"
  | "md5"
  | "crc16"
  | "crc32"
  | "crc32a"
  | "fnv1_64"
  | "fnv1a_64"
  | "fnv1_32"
  | "fnv1a_32"
  | "hsieh"
  | "murmur"
  | "jenkins";

/** The options only `new Ring` takes (a caller's own data): sessions, their links and the page
 * take none of them. */
export type LibraryOptionName = "tokens" | "keyPrefix" | "keyCount";
// </generated>

/** The stable `code` of every error the API throws. */
export type ErrorCode =
  | "empty-ring"
  | "duplicate-node"
  | "unknown-node"
  | "empty-name"
  | "name-too-long"
  | "invalid-weight"
  | "invalid-vnodes"
  | "too-many-points"
  | "unknown-hash"
  | "invalid-bits"
  | "hash-too-narrow"
  | "invalid-option"
  | "too-large"
  | "parse-error"
  | "unsupported"
  | "invalid-argument"
  | "internal"
  | "unavailable"
  | "freed";

/**
 * What every call throws: a JS `Error` with a readable `message` and a stable `code`. The
 * object it was called on is unchanged.
 *
 * ```ts
 * try { ring.remove("nope"); } catch (e) { if ((e as RinglabError).code === "unknown-node") ... }
 * ```
 */
export interface RinglabError extends Error {
  readonly code: ErrorCode;
}

/** A node: its name, or its name with a weight (default 1) and a zone. */
export type NodeInput = string | NodeSpec;

export interface NodeSpec {
  name: string;
  weight?: number;
  zone?: string | null;
}

/** `add(name, options)`'s options. */
export interface AddOptions {
  weight?: number;
  zone?: string | null;
}

/** `new Ring(options)`: every field optional; each algorithm reads the fields that concern it. */
export interface RingOptions {
  // <generated from the catalog by cargo xtask types: RingOptions>
  /** Default `"ring"`. */
  algorithm?: AlgorithmName;
  /** `ring`, `rendezvous`, `maglev`, `bounded-load`, `modulo`: the hash function, over explicit
   * bytes (src/hash.rs gives each one's byte rule). Default `"xxh3"`. */
  hash?: HashName;
  /** `ring`, `bounded-load`: the circle's size: 2^32 or 2^64 positions. Default 32. */
  bits?: RingBits;
  /** `ring`, `bounded-load`: points (virtual nodes) per unit of weight. Default 160. From 1 to
   * 10,000. */
  vnodes?: number;
  /** `ring`: the point label template: {name} is the node's name, {i} the point's number (from 0).
   * Default `"{name}#{i}"`. At most 64 bytes. */
  label?: string;
  /** `ring`: how a digest becomes a position: first4-le is the hash's low bits (first8-le on 64
   * bits); the others read md5 or sha256 digest bytes, big-endian, the first or the last. Default
   * `"first4-le"`. */
  position?: "first4-le" | "first4-be" | "last4-be" | "first8-le" | "first8-be" | "first8-be-signed";
  /** `ring`: which point a key belongs to: the first at or after its position (>=), or the first
   * after it (>). Default `"at-or-after"`. */
  lookup?: "at-or-after" | "after";
  /** `ring`: who holds a position two nodes share: the smaller name (both kept), or a map's later
   * or earlier put (removing either node deletes it). Default `"smaller-name"`. */
  ties?: "smaller-name" | "later-added" | "earlier-added";
  /** `libmemcached-ketama`: libmemcached KETAMA: whether the distribution was set before the
   * servers were added, so a server of weight > 1 turns weighted ketama on (false: servers first,
   * as pylibmc does; weights do not count). Default true. */
  ketamaWeighted?: boolean;
  /** `cassandra`: tokens per node of weight 1 (num_tokens; Cassandra 4's default is 16). Default
   * 16. From 1 to 10,000. */
  numTokens?: number;
  /** `cassandra`: each listed node's tokens, as its initial_token line (a real layout, from
   * nodetool ring). Only `new Ring` takes it. */
  tokens?: Record<string, string>;
  /** `groupcache`: points per node (groupcache's HTTPPool uses 50). Default 50. From 1 to 10,000. */
  replicas?: number;
  /** `maglev`, `envoy-maglev`: the lookup table's size M, a prime (the paper uses 65,537). Default
   * 65,537. From 2 to 500,009. */
  tableSize?: number;
  /** `multi-probe`: probes per key (the paper's 21 gives a peak-to-mean load of about 1.05).
   * Default 21. From 1 to 100. */
  probes?: number;
  /** `bounded-load`: ε: no node takes more than ⌈(1 + ε)·keys / nodes⌉ of the keys. Default
   * 0.25. At least 0. */
  epsilon?: number;
  /** `bounded-load`: the key set's prefix: keys keyPrefix0, keyPrefix1, … Default `"key:"`. At
   * most 64 bytes. Only `new Ring` takes it. */
  keyPrefix?: string;
  /** `bounded-load`: how many keys the set has. Default 10,000. From 0 to 50,000. Only `new Ring`
   * takes it. */
  keyCount?: number;
  /** `haproxy-consistent`, `haproxy-map-based`: hash-type's function; unset is a bare hash-type
   * line (sdbm, with avalanche for consistent). */
  haproxyHash?: HaproxyHashName;
  /** `haproxy-consistent`, `haproxy-map-based`: hash-type's avalanche modifier (with haproxyHash).
   * Default false. */
  haproxyAvalanche?: boolean;
  /** `twemproxy-ketama`, `twemproxy-modula`: the pool's hash: function for keys (twemproxy's
   * default fnv1a_64; crc32 is its 15-bit value). Default `"fnv1a_64"`. */
  twemproxyHash?: TwemproxyHashName;
  /** `twemproxy-ketama`, `twemproxy-modula`: the pool's hash_tag: two characters, e.g. {} (empty:
   * the whole key is hashed). Default `""`. At most 2 bytes. */
  hashTag?: string;
  /** `envoy-ring-hash`: ring_hash_lb_config's hash_function for the ring's points (requests are
   * hashed by the hash policy, xxHash64). Default `"XX_HASH"`. */
  ringHashFunction?: "XX_HASH" | "MURMUR_HASH_2";
  /** `envoy-ring-hash`: ring_hash_lb_config's minimum_ring_size: the lightest host's points are
   * scaled to at least this (not 0: Envoy takes 0 but then builds an empty ring and fails every
   * request, ring_hash_lb.cc; refused alike in an import, an option and a link). Default 1024. From
   * 1 to 8,388,608. */
  minimumRingSize?: number;
  /** `envoy-ring-hash`: ring_hash_lb_config's maximum_ring_size: the cap on the scaled number of
   * points. Default 8,388,608. From 1 to 8,388,608. */
  maximumRingSize?: number;
  /** `anchor`, `dx`: AnchorHash's and DxHash's capacity: the most nodes (buckets) they hold, fixed
   * when made. Default 256. From 1 to 16,384. */
  capacity?: number;
  // </generated>
  /** The nodes at construction (the "create" moment of stateful systems). */
  nodes?: NodeInput[];
}

/** What a client with a stale ring (one that has not yet adopted a change) gets: `client-side`
 * hashing sends moved keys to their old owner, the server `redirect`s (Redis Cluster), each
 * `proxy` routes by its own copy, or a `coordinator` forwards (Cassandra). */
export interface StaleRule {
  kind: "client-side" | "redirect" | "proxy" | "coordinator";
  text: string;
}

/** How an algorithm's real clients treat a down node. */
export interface DownRule {
  /** `skip`: its keys go to the next healthy node; `rebuild`: the structure is rebuilt from the
   * healthy nodes; `unavailable`: its keys have no owner until someone acts. */
  kind: "skip" | "rebuild" | "unavailable";
  text: string;
}

/** What a client that has not yet seen a change gets, in the algorithm's real system. */
export interface StaleRule {
  /** `client-side`: it sends moved keys to their old owner; `redirect`: the server redirects
   * (one extra hop); `proxy`: each proxy routes by its own copy; `coordinator`: a coordinator
   * forwards (an extra hop, never an error). */
  kind: "client-side" | "redirect" | "proxy" | "coordinator";
  text: string;
}

/** A cache tier's size and load, for what a change costs. */
export interface Workload {
  items: number;
  itemBytes: number;
  requestsPerSec: number;
}

/** One scheme's cost for a change. */
export interface ChangeCost {
  movedFraction: number;
  itemsMoved: number;
  bytesMoved: number;
  /** Right after the change: request rate × moved traffic. */
  extraMissesPerSec: number;
}

/** A change's cost, beside `hash % N`'s for the same change of healthy nodes. */
export interface ChangeReport {
  placement: ChangeCost;
  modulo: ChangeCost;
  /** The part of `placement.movedFraction` that lost its owner rather than moved. */
  lostFraction: number;
  exact: boolean;
}

/** The choices a kind of configuration text leaves open. */
export interface ImportOptions {
  /** `memcached`: the algorithm that places the servers (default `libmemcached-weighted`). */
  algorithm?: MemcachedAlgorithmName;
  /** `twemproxy`: the pool to read when the `nutcracker.yml` has several. */
  pool?: string;
  /** `envoy`: the cluster to read when the text has several (a `clusters:` list); without
   * it, the only one with `lb_policy` `RING_HASH` or `MAGLEV`. */
  cluster?: string;
  /** The section to read when the text has several (see `configSections`): a whole
   * `nginx.conf`'s `upstream`, a `haproxy.cfg`'s `backend`/`listen`, a pool, a cluster. */
  section?: string;
}

/** A value a `one-of` or `choice` option takes. */
export type OptionChoice = number | string;

/** An option's value (`null`: unset). */
export type OptionValue = number | string | boolean | null;

/** An algorithm's option, as a control shows it (from its catalog entry). */
export interface OptionInfo {
  /** A field of `RingOptions`. */
  name: string;
  type: "whole" | "one-of" | "number" | "flag" | "choice" | "text" | "tokens";
  /** `null`: unset by default. */
  default: OptionValue;
  min: number | null;
  max: number | null;
  /** The values a `one-of` or `choice` option takes. */
  choices: OptionChoice[];
  help: string;
  /** `library`: only `new Ring` takes it; `everywhere`: sessions, links and the page too. */
  scope: "everywhere" | "library";
}

/** What a client with a stale ring gets: `client-side` (a moved key goes to its old owner),
 * `redirect` (the server answers MOVED/ASK), `proxy` (each proxy its own copy) or
 * `coordinator` (an extra hop, never an error). */
export interface StaleRule {
  kind: "client-side" | "redirect" | "proxy" | "coordinator";
  text: string;
}

/** Everything about one algorithm, from its catalog entry. */
export interface AlgorithmInfo {
  name: AlgorithmName;
  label: string;
  family: FamilyName;
  familyLabel: string;
  /** What is reproduced, and from which source. */
  source: string;
  weighted: boolean;
  hash: boolean;
  vnodes: boolean;
  arcs: boolean;
  replicas: boolean;
  down: DownRule;
  /** What a client that has not yet seen a change gets, in the real system. */
  stale: StaleRule;
  /** Why only the last node may leave; `null` when any may. */
  lastOnly: string | null;
  options: OptionInfo[];
}

/** A kind of configuration text `Ring.fromConfig` and `Session.fromConfig` read. */
export interface ConfigKind {
  kind: ConfigKindName;
  label: string;
  /** A small valid example. */
  example: string;
}

/** A node of a `Ring`, in the order nodes were added. */
export interface RingNode {
  name: string;
  weight: number;
  zone: string | null;
  /** Points on the circle (0 where the algorithm has none). */
  points: number;
  /** The exact share of the key space, or `null` where shares can only be sampled. */
  share: number | null;
  /** Marked down (`markDown`): it stays, lookups fail over as the real system does. */
  down: boolean;
}

/** How evenly load per unit of weight is spread (1 is a perfect load). */
export interface Spread {
  /** Relative standard deviation of load. */
  rsd: number;
  maxOverMean: number;
  minOverMean: number;
}

/** One step of `ring.vnodeSweep(counts)`. */
export interface SweepStep {
  vnodes: number;
  spread: Spread;
  theoreticalRsd: number;
}

/** A run of positions that changed owner; positions are decimal strings (they can pass 2^53). */
export interface MovedArc {
  start: string;
  end: string;
  from: string;
  to: string;
}

/** `Ring.diff(before, after)`: the exact migration. */
export interface RingDiff {
  arcs: MovedArc[];
  /** Positions that changed owner, as a decimal string. */
  moved: string;
  movedFraction: number;
  /** The least any placement could move for this change. */
  idealFraction: number;
  /** What moved between two nodes in both states (points redrawn by the change). */
  betweenStayedFraction: number;
  /** What `hash % N` would move. */
  moduloFraction: number;
}

/** What moved on a key sample (`Ring.diffSample`, `Ring.diffKeys`, a transition's `sample`). */
export interface SampleMigration {
  keys: number;
  movedKeys: number;
  movedFraction: number;
  /** The moved share of traffic when key `i` has Zipf popularity `1 / (i + 1)^zipfS`. */
  movedTrafficFraction: number;
  zipfS: number;
}

/** Any placement algorithm as a library object. */
export class Ring {
  /** `new Ring()` is an empty ringlab ring (xxh3, 32 bits, 160 vnodes). */
  constructor(options?: RingOptions);
  /**
   * Releases the wasm memory it holds (the garbage collector does it too). Afterwards every
   * call on it, or with it as an argument, throws the code `"freed"`; `free()` again does nothing.
   */
  free(): void;
  [Symbol.dispose](): void;
  readonly algorithm: AlgorithmName;
  readonly hash: HashName;
  readonly bits: RingBits;
  readonly vnodes: number;
  /** Points on the circle (0 for algorithms that are not rings of points). */
  readonly pointCount: number;
  /** Heap bytes it holds. */
  readonly memoryBytes: number;
  /** A copy, to keep a "before" state. */
  clone(): Ring;
  /** The placement a configuration text describes (see `configKinds()`); `locate` answers the
   * server as the text names it; errors name the line. */
  static fromConfig(kind: ConfigKind["kind"], text: string, options?: ImportOptions): Ring;
  /** `Ring.fromConfig("nginx", text)`: an `upstream { … }` block. */
  static fromNginxUpstream(text: string): Ring;
  /** `Ring.fromConfig("haproxy", text)`: a `backend` section. */
  static fromHaproxyBackend(text: string): Ring;
  /** Marks a node down (it stays; lookups fail over as the real system does) or up. */
  setDown(name: string, down?: boolean): void;
  markDown(name: string): void;
  markUp(name: string): void;
  isDown(name: string): boolean;
  /** What this algorithm's real clients do with a down node. */
  downRule(): DownRule;
  /** `Ring.fromConfig("redis", text)`: `redis-cli cluster nodes` (masters named `ip:port`). */
  static fromRedisClusterNodes(text: string): Ring;
  /** `Ring.fromConfig("memcached", text, {algorithm})`: a memcached server list. */
  static fromMemcachedServers(text: string, algorithm?: ImportOptions["algorithm"]): Ring;
  add(name: string, options?: AddOptions): void;
  remove(name: string): void;
  setWeight(name: string, weight: number): void;
  /** The name of the node that owns `key`. */
  locate(key: string): string;
  /** `n` distinct nodes for `key`, new zones first; `[0]` is the owner (ringlab's ring). */
  replicas(key: string, n: number): string[];
  nodes(): RingNode[];
  /** From exact shares; `null` when empty or sampled only. */
  spread(): Spread | null;
  /** The exact spread for each vnode count (1..10,000; at most 64 steps), same nodes and hash. */
  vnodeSweep(counts: number[]): SweepStep[];
  /** The owner index (into `nodes()`) of `"{prefix}0" .. "{prefix}{count-1}"`; `0xffffffff` (no
   * owner, as in `Scene.keyOwners`) for a key `locate` answers unavailable, e.g. with every node
   * down. */
  keyOwners(prefix: string, count: number): Uint32Array;
  /** `key`'s position in hexadecimal (ringlab's ring). */
  keyPosition(key: string): `0x${string}`;
  /** How `key` is placed, in the algorithm's terms: `"xxh3 0x…"`, `"slot 12739"`, `"token …"`. */
  describeKey(key: string): string;
  /**
   * "Explain this key": every value the algorithm computes on the way to the owner `locate`
   * answers (or the error code it gives), in its own terms, each step with what it points at
   * on the figure; `replicas` (ringlab's ring) adds the preference list. Keys up to 1,024 bytes.
   */
  explain(key: string, options?: { replicas?: number }): Explanation;
  /** One key's chains on two placements side by side, and the first step where they part. */
  static explainPair(a: Ring, b: Ring, key: string, options?: { replicas?: number }): ExplanationPair;
  /** The exact migration between two rings of points that map keys the same way. */
  static diff(before: Ring, after: Ring): RingDiff;
  /** Moved keys on `"{prefix}0" .. "{prefix}{count-1}"`; `zipfS` defaults to 0. */
  static diffSample(before: Ring, after: Ring, prefix: string, count: number, zipfS?: number): SampleMigration;
  /** Moved keys on the given keys, most popular first; `zipfS` defaults to 0. */
  static diffKeys(before: Ring, after: Ring, keys: string[], zipfS?: number): SampleMigration;
  /**
   * How far two placements of one pool agree: the share of keys they send to different
   * servers, by server pair, and why (the steps their entries take differently). `keys`
   * omitted: the whole key space exactly where both are circles of points hashing keys alike,
   * else 10,000 generated keys; a count of generated keys `"key:0" ..`; or the keys. At most
   * 65,000 keys.
   */
  static agreement(a: Ring, b: Ring, keys?: number | string[]): Agreement;
  /** The change from `before` to `after` while it spreads over stale clients: one value per
   * time; exact over the arcs where the algorithm has them (`exact`), else on a key sample. */
  static propagate(before: Ring, after: Ring, options?: PropagateOptions): Propagation;
  /** The same change under each rollout strategy, side by side. */
  static compareRollouts(before: Ring, after: Ring, options: PropagateOptions | undefined, strategies: RolloutStrategy[]): ComparedRollout[];
  /** The change staged in `steps` steps (weights, Redis slot batches, or node by node). */
  static plan(before: Ring, after: Ring, options?: PlanOptions): ChangePlan;
}

/** When each client adopts a new epoch. */
export type Lag =
  | { kind: "fixed"; ms: number }
  | { kind: "even"; ms: number }
  | { kind: "exponential"; meanMs: number; seed?: number }
  | { kind: "poll"; everyMs: number }
  | { kind: "on-redirect" };

/** What a stale client's misrouted request costs (a catalog entry's `stale.kind`). */
export type StaleSystem = "client-side" | "redirect" | "proxy" | "coordinator";

/** `Ring.propagate`'s settings; every field optional. Caps: 10,000 clients, 2,001 times,
 * clients × times ≤ 4,000,000, durations and lags ≤ 86,400,000 ms. */
export interface PropagateOptions {
  /** Clients routing requests (default 10). */
  clients?: number;
  /** Default `{kind: "even", ms: 1000}`. */
  lag?: Lag;
  /** How requests split over clients (default even). */
  traffic?: { kind: "even" } | { kind: "zipf"; s: number };
  /** Default: the algorithm's own rule (its catalog entry's `stale`). */
  system?: StaleSystem;
  /** Default 2000. */
  durationMs?: number;
  /** Default 10. */
  stepMs?: number;
  /** All clients' requests per second (default 10,000): when a redirect comes. */
  requestsPerSec?: number;
  /** The share of requests that are writes (default 0.1). */
  writeShare?: number;
  /** Whether a redirect updates a client (default: yes for a redirecting system). */
  refreshOnRedirect?: boolean;
  /** Leaving nodes keep serving until every client has switched. */
  drain?: boolean;
  /** Keys sampled where there are no arcs (default 10,000; at most 50,000). */
  sampleKeys?: number;
}

/** Counts over the whole timeline, in requests. */
export interface RolloutTotals {
  requests: number;
  misrouted: number;
  hops: number;
  misses: number;
  staleReads: number;
  inconsistentWrites: number;
}

/** A counter of a propagation, named for a legend. */
export interface RolloutSeries {
  key: "misrouted" | "hops" | "misses" | "staleReads" | "inconsistentWrites";
  /** "Misrouted requests", ... */
  label: string;
  /** Empty, or why its line is not seen on its own: "zero throughout", "the same values as …". */
  note: string;
}

/** `Ring.propagate`: shares of all requests at each time. */
export interface Propagation {
  times: number[];
  misrouted: number[];
  hops: number[];
  misses: number[];
  staleReads: number[];
  inconsistentWrites: number[];
  /** Requests from clients on a stale epoch. */
  staleTraffic: number[];
  /** When the last client adopts the last epoch; `null` if one never does. */
  convergedAtMs: number | null;
  /** The same in a sentence: "Every client uses the new ring 1 s after the change." */
  converged: string;
  /** The same for a table's cell: "1 s", "not every client". */
  convergedShort: string;
  /** When each client adopts the last epoch (ms after the change); `null`: never. */
  adoptedAtMs: (number | null)[];
  /** The five counters, for a legend, in order. */
  series: RolloutSeries[];
  /** When each epoch is published. */
  epochs: number[];
  /** The share of keys the whole change moves. */
  moved: number;
  totals: RolloutTotals;
  exact: boolean;
  keys: number | null;
  system: StaleSystem;
  /** The algorithm's stale rule, in words, with its source. */
  rule: string;
  /** What each counter means for this system. */
  counters: string;
}

export type RolloutStrategy =
  | { kind: "all-at-once" }
  | { kind: "as-given" }
  | { kind: "poll"; everyMs: number }
  | { kind: "on-redirect" }
  | { kind: "drain-first" }
  | { kind: "ramp"; steps: number; everyMs: number };

export interface ComparedRollout {
  label: string;
  timeline: Propagation;
}

/** `Ring.plan`'s settings (at most 16 steps). */
export interface PlanOptions {
  steps?: number;
  items?: number;
  itemBytes?: number;
  /** The migration's bandwidth cap. */
  bytesPerSec?: number;
  sampleKeys?: number;
}

export interface PlanStep {
  /** The share of keys the step moves. */
  moved: number;
  items: number;
  bytes: number;
  seconds: number;
  label: string;
}

export interface ChangePlan {
  steps: PlanStep[];
  total: PlanStep;
  atOnce: PlanStep;
  staging: "weights" | "slots" | "nodes" | "at-once";
  exact: boolean;
  keys: number | null;
}

/** `vnodesFor`'s question: at most 200 nodes. */
export interface SizingOptions {
  nodes: number;
  /** The busiest node over the mean share, above 1 (default 1.1). */
  maxOverMean?: number;
  afterLosing?: boolean;
  items?: number;
  itemBytes?: number;
}

export interface Sizing {
  /** The fewest vnodes found that meet the target; `null` if none within the point cap. */
  vnodes: number | null;
  maxOverMean: number;
  afterLosing: number | null;
  /** The normal approximation `2 ln N / (target − 1)²`. */
  estimate: number;
  bytesPerNode: number;
  ringBytes: number;
  /** Real systems' defaults on the same ring. */
  defaults: { system: string; vnodes: number; maxOverMean: number; meets: boolean }[];
}

/** A session's settings, as `session.settings()` reports them. */
export interface SessionSettings {
  algorithm: AlgorithmName;
  hash: HashName;
  bits: RingBits;
  vnodes: number;
  /** Sample keys drawn and counted. */
  keys: number;
  /** Replicas shown per followed key. */
  replicas: number;
  /** Key popularity: key `k` is requested in proportion to `1 / (k + 1)^zipf` (0..2). */
  zipf: number;
  /** The algorithm's own options (those it lists beyond hash, bits and vnodes), each with its value. */
  options: Record<string, OptionValue>;
}

/** `new Session(options)`: the nodes (an array, or a writer's list `"a, b*2"`), any settings,
 * and the algorithm's own options by name (`tableSize`, `haproxyHash`, …). */
export interface SessionOptions extends Partial<Omit<SessionSettings, "options">>, AlgorithmOptions {
  nodes?: NodeInput[] | string;
}

/** `configure(…)`: any settings, and the algorithm's own options by name. */
export interface SessionConfigure extends Partial<Omit<SessionSettings, "options">>, AlgorithmOptions {}

/** The options an algorithm lists beyond hash, bits and vnodes, as `new Ring` takes them. */
export type AlgorithmOptions = Omit<RingOptions, "algorithm" | "hash" | "bits" | "vnodes" | "nodes" | LibraryOptionName>;

/** An algorithm's own option with its value, for a control. */
export interface OptionControl extends OptionInfo {
  value: OptionValue;
}

/** An error a frame carries instead of throwing. */
export interface FrameError {
  code: ErrorCode;
  message: string;
}

/** `frame(options)`: the key a view follows, the chart it shows, whether to write the link. */
export interface FrameOptions {
  follow?: string;
  chart?: ChartKind;
  /** Carry the share link (the engine's module only: the element's modules have no link writer). */
  link?: boolean;
}

/** Everything a view redraws after a change, in one call. */
export interface Frame {
  scene: Scene;
  nodes: SessionNode[];
  capabilities: Capabilities;
  settings: SessionSettings;
  /** The algorithm's own options, with their values: what the controls show. */
  options: OptionControl[];
  /**
   * The share link of this state when `frame({link: true})` asked for it, else `null`. (The
   * element's modules write no links: there `link` is an unknown option.)
   */
  link: string | null;
  /** A free name for a new node. */
  nextNodeName: string;
  downRule: DownRule;
  /** The followed key's walk (`frame({follow})`), or why it has none. */
  follow: Follow | null;
  followError: string | null;
  /** The chart's data (`frame({chart})`), or why it has none. */
  chart: ChartData | null;
  chartError: FrameError | null;
}

/** An exact moved run, with fractions of the circle for drawing. */
export interface MovedSpan extends MovedArc {
  startFraction: number;
  /** Just past the last position. */
  endFraction: number;
}

/** A transition's exact moves (both states rings of points mapping keys the same way). */
export interface ExactMoves {
  arcs: MovedSpan[];
  /** Whether `arcs` were merged for drawing (there were too many). */
  arcsMerged: boolean;
  moved: string;
  movedFraction: number;
  idealFraction: number;
  betweenStayedFraction: number;
  moduloFraction: number;
}

/** Sample keys that changed owner, to animate: index, position after, colour slots. */
export interface Movers {
  index: number[];
  position: number[];
  from: number[];
  to: number[];
  /** How many keys moved in all (the lists stop earlier). */
  count: number;
}

/** What one change did: every change, undo and redo returns one. */
/** A change's readout in short lines (`Transition.lines`). */
export interface ReadoutLines {
  /** "Added node-6: moved 274 of 2,000 keys (13.7%); exactly 13.98% of the key space." */
  moved: string;
  /** "Cost: 1,398,438 items (1.4 GB), 6,992 extra misses/s until warm.", with a workload. */
  cost: string | null;
  /** "hash % N would have moved 83.3%.", when the serving count changed or was compared. */
  modulo: string | null;
  /** The rest, a sentence each: the least any placement could move, the down rule, the workload. */
  detail: string[];
}

export interface Transition {
  /** "Added node-6", "Undid: Removed node-2", ... */
  label: string;
  /** The readout in one paragraph: `lines` in the order they show. */
  text: string;
  /** The readout in short lines: what moved; what it costs the tier (with a workload); what
   * `hash % N` would have done (when the serving count changed, or when compared); the rest
   * (the least any placement could move, the down rule, the workload), a sentence each. */
  lines: ReadoutLines;
  exact: ExactMoves | null;
  /** `null` when either state has no nodes. */
  sample: SampleMigration | null;
  movers: Movers;
  /** Sample keys that lost their owner (a down node nothing replaces). */
  lost: number;
  /** What the change costs, when the session has a workload. */
  cost: ChangeReport | null;
}

/** What to draw. Fractions of the circle, 0 at the top, clockwise; owners index `nodes()`. */
export interface Scene {
  points: Float64Array;
  pointOwners: Uint32Array;
  keys: Float64Array;
  keyOwners: Uint32Array;
  /** Node `i`'s colour slot: `palette()[colours[i] % 16]`. Key owners are `0xffffffff` for a key with no owner while nodes are down. */
  colours: Uint32Array;
  /** Labels at the top, right, bottom and left, in the algorithm's key space. */
  axis: [string, string, string, string];
  description: string;
  /** The state in one sentence; balance is over the serving nodes (a down node is left out). */
  summary: string;
  /** How to read the picture, in plain words for this algorithm (arcs or none). */
  reading: string;
}

/** A row of the session's node table. */
export interface SessionNode extends RingNode {
  /** Sample keys it owns. */
  keys: number;
  /** Its share of the requests (the sample's Zipf popularity). */
  traffic: number;
  /** The share in words: `"20.00%"`, or `"sampled"`. */
  shareText: string;
  /** The traffic share in words: `"12.3%"`. */
  trafficText: string;
  /** What a legend shows: `"node-1 20.0%"`, or `"node-1 412 keys"` where shares are sampled. */
  legend: string;
  colour: number;
  /** Marked down: it stays, lookups fail over (or its keys have no owner). */
  down: boolean;
  /** Why it may not leave, if it may not (jump hash: only the last bucket). */
  removalRule: string | null;
}

/** What the user may do and see with the current algorithm and history. */
export interface Capabilities {
  exactArcs: boolean;
  exactShares: boolean;
  replicas: boolean;
  weights: boolean;
  hash: boolean;
  vnodes: boolean;
  /** How the algorithm hashes a key when the hash setting does not apply, in its recipe's
   * words (what a hash menu shows instead); `null` when it applies. */
  ownHash: string | null;
  /** The label of what undo would undo, or `null`. */
  undo: string | null;
  redo: string | null;
}

/** The arc under the pointer. */
export interface ArcHit {
  start: string;
  end: string;
  startFraction: number;
  endFraction: number;
  /** The owner's index in `nodes()`, and name. */
  node: number;
  owner: string;
  /** The point's label, `"name#i"`, on ringlab's ring. */
  label: string | null;
  text: string;
}

/** The sample key under the pointer. */
export interface KeyHit {
  index: number;
  key: string;
  /** Its owner's index in `nodes()`, and name. */
  node: number;
  owner: string;
  text: string;
}

/** One stop of a followed key's walk. */
export interface WalkStop {
  name: string;
  fraction: number;
  colour: number;
}

/** Where a key lands and the clockwise walk to its owner (and replicas). */
export interface Follow {
  key: string;
  description: string;
  fraction: number;
  owner: string;
  walk: WalkStop[];
  /** The nodes the walk passes before its last stop without taking them (a zone that already has a copy, or a node that is down): the first point of each. */
  skipped: WalkStop[];
  text: string;
}

export type ChartKind = "spread" | "shares" | "moves" | "algorithms";

export interface ChartDataOptions {
  /** Spread chart: the optional five-hash band. */
  band?: boolean;
  /** Algorithms chart: measured lookup times, in `algorithms()` order (0 or less, or not finite: not measured). */
  lookupNs?: number[];
  /** Algorithms chart: only this panel (0–4), as a phone shows them one at a time. */
  panel?: number;
}

/** The spread chart's range over several hashes, at one vnode count. */
export interface SpreadBand {
  rsdMin: number;
  rsdMax: number;
  maxOverMeanMin: number;
  maxOverMeanMax: number;
}

/** The exact spread at one vnode count. */
export interface SpreadPoint {
  vnodes: number;
  /** Relative standard deviation of load (std / mean). */
  rsd: number;
  maxOverMean: number;
  theoreticalRsd: number;
  band: SpreadBand | null;
}

export interface SpreadData {
  nodes: number;
  hash: HashName;
  ringBits: number;
  currentVnodes: number;
  /** The hashes the band spans; empty without a band. */
  bandHashes: HashName[];
  points: SpreadPoint[];
}

/** One node's bar in the shares chart. */
export interface NodeShare {
  name: string;
  weight: number;
  share: number;
  sampledKeys: number | null;
  sampledShare: number | null;
  ideal: number;
}

export interface SharesData {
  algorithm: AlgorithmName;
  exact: boolean;
  sampleKeys: number;
  nodes: NodeShare[];
}

/** What one change moved, as fractions of all keys. */
export interface Moved {
  moved: number;
  ideal: number;
  modulo: number;
}

export interface MoveStep {
  /** N, the node count before the change. */
  nodes: number;
  join: Moved;
  leave: Moved;
  leaver: string;
}

export interface MovesData {
  algorithm: AlgorithmName;
  /** Which node leaves: "the middle", or "the last" where only the last may. */
  leaver: "the middle" | "the last";
  exact: boolean;
  sampleKeys: number;
  steps: MoveStep[];
}

/** An algorithm's figures in the algorithms chart... */
export interface ReportOk {
  Ok: AlgorithmReport;
}
/** ... or why it has none. */
export interface ReportErr {
  Err: string;
}

export interface AlgorithmRow {
  algorithm: AlgorithmName;
  report: ReportOk | ReportErr;
  lookupNs: number | null;
}

export interface AlgorithmsData {
  nodes: number;
  sampleKeys: number;
  rows: AlgorithmRow[];
  /** Only this panel (0–4: balance, join, leave, memory, lookup), or all: `null`. */
  panel: number | null;
}

export interface SpreadChart {
  kind: "spread";
  data: SpreadData;
}
export interface SharesChart {
  kind: "shares";
  data: SharesData;
}
export interface MovesChart {
  kind: "moves";
  data: MovesData;
}
export interface AlgorithmsChart {
  kind: "algorithms";
  data: AlgorithmsData;
}

/** A chart's data, as `session.chartData` gives it and the charts module's `drawChart` takes it. */
export type ChartData = SpreadChart | SharesChart | MovesChart | AlgorithmsChart;

/** A share link being opened in steps: `Session.opening(link)`. */
export class Opening {
  private constructor();
  /** As `Ring.free`: every later call throws the code `"freed"`. */
  free(): void;
  [Symbol.dispose](): void;
  /** One step; `true` when the session is ready. A failed step throws the same coded error each time. */
  step(): boolean;
  /**
   * The session, after whatever steps are left; the opening is then spent (`invalid-argument`
   * after). If the opening failed, this and every later call throw that failure's error.
   */
  session(): Session;
}

/** The playground's model: state, changes with exactly what they moved, undo/redo, drawing. */
export class Session {
  /** `new Session()` is the playground's five nodes. */
  constructor(options?: SessionOptions);
  /** As `Ring.free`: every later call throws the code `"freed"`. */
  free(): void;
  [Symbol.dispose](): void;
  /** The session a share link's fragment describes. */
  static fromLink(link: string): Session;
  /**
   * The same session, opened in steps of bounded work (`OPEN_STEP_WORK`, about 2 ms natively
   * each): call `step()` until it answers `true`, yielding between tasks, then `session()`.
   * A link that cannot be read throws here, as `fromLink` does.
   */
  static opening(link: string): Opening;
  /** The session of a configuration text, through the same door as `Ring.fromConfig`. */
  static fromConfig(kind: ConfigKind["kind"], text: string, options?: ImportOptions): Session;
  /** The share link's fragment: `"#ringlab=2&…"`. */
  link(): string;
  settings(): SessionSettings;
  add(name: string, options?: AddOptions): Transition;
  remove(name: string): Transition;
  setWeight(name: string, weight: number): Transition;
  /** Marks a node down or up again: the keys that fail over (or go back). */
  setDown(name: string, down?: boolean): Transition;
  markDown(name: string): Transition;
  markUp(name: string): Transition;
  /** What the current algorithm's real clients do with a down node. */
  downRule(): DownRule;
  /** The tier's size and load (`null`: costs not reported). */
  setWorkload(workload: Workload | null): void;
  workload(): Workload | null;
  /** The user's own keys (one per line, or CSV `key,count`), or `null` for `key:0 ..`. */
  useKeys(text: string | null): { keys: number; requests: number; text: string } | null;
  /** The same, read in pieces of whole lines: `beginKeys()`, `pushKeys(lines)`…, `endKeys()`. */
  beginKeys(): void;
  pushKeys(lines: string): void;
  endKeys(): { keys: number; requests: number; text: string };
  /** New settings for the same nodes. */
  configure(settings: SessionConfigure): Transition;
  /** The ring of a configuration text (the same door as `fromConfig`) in place of this one,
   * as one step of the history that `undo` takes back; the keys and workload stay. */
  /** The key followed in the link this session was opened from (`f=`), or `null`. */
  linkedKey(): string | null;
  importConfig(kind: ConfigKind["kind"], text: string, options?: ImportOptions): Transition;
  /** `null` when there is nothing to undo. Throws `too-large` (and changes nothing) when the
   * key list now in use is too large to place on that earlier state. */
  undo(): Transition | null;
  redo(): Transition | null;
  /** Whether transitions also replay the change under `hash % N`. */
  setCompareModulo(on?: boolean): void;
  lastChange(): Transition | null;
  scene(): Scene;
  /** Everything a view redraws, in one call (after a change: the change, then this). */
  frame(options?: FrameOptions): Frame;
  /** This pool placed by `from` (by default the session's algorithm) and by `withAlgorithm`
   * (the session's settings): how far, where and why the two disagree, and each one's server
   * for `key`. */
  agreement(withAlgorithm: AlgorithmName, key?: string | null, from?: AlgorithmName | null): SessionAgreement;
  /** Every cache client against every other on this pool (as `agreementMatrix`). */
  agreementMatrix(): AgreementMatrix;
  /** "Explain this key" at the current state (down marks included), replicas as the session asks. */
  explain(key: string): Explanation;
  /** `key`'s chains on this pool placed by the session's algorithm and by `withAlgorithm`
   * (as `agreement` places them: down marks not carried), and the first step where they part. */
  explainPair(withAlgorithm: AlgorithmName, key: string): ExplanationPair;
  /** The papers' metrics of every algorithm on this pool and settings, as the playground's
   * comparison: the figures as text, each metric's words and its winners. The same figures as
   * `metrics(options, keys, settings)` on the session's first `keys` keys (at most 2,000). */
  metrics(settings?: SessionMetricsSettings): MetricsComparison;
  nodes(): SessionNode[];
  capabilities(): Capabilities;
  spread(): Spread | null;
  /** The arc at `fraction` of the circle, or `null`. */
  arcAt(fraction: number): ArcHit | null;
  /** The sample key drawn nearest `fraction`, within `tolerance`, or `null`. */
  keyNear(fraction: number, tolerance: number): KeyHit | null;
  follow(key: string): Follow;
  /** `node-N` with the smallest N not taken. */
  nextNodeName(): string;
  /** These nodes under another algorithm, as a `Ring`. */
  ringFor(algorithm: AlgorithmName): Ring;
  /**
   * One piece of chart `kind`'s data for the current state (a piece of one hash's sweep, one
   * cluster size, one algorithm's row), kept for `chartData`; `true` once complete. Call it
   * once per task until `true` to keep each task short. Any change drops it.
   */
  prepareChart(kind: ChartKind, options?: { band?: boolean }): boolean;
  /**
   * Chart `kind`'s data for the current state (computes what `prepareChart` has not), for the
   * charts module's `drawChart` (`ringlab/charts`).
   */
  chartData(kind: ChartKind, options?: ChartDataOptions): ChartData;
}

/** `Ring.agreement`: how far two placements of one pool agree. */
export interface Agreement {
  /** The share of keys (or of the key space, when `exact`) placed on different servers. */
  disagree: number;
  /** Whether `disagree` is over the whole key space. */
  exact: boolean;
  /** The keys compared (0 when exact). */
  keys: number;
  /** The server pairs split, largest share first: `a` answers `a`, `b` answers `b`. */
  pairs: AgreementPair[];
  /** The steps the two take differently, as their catalog entries state them. */
  reasons: AgreementReason[];
}

/** `session.agreement`: an `Agreement` with both algorithms, the headline and a key's answers. */
export interface SessionAgreement extends Agreement {
  algorithm: AlgorithmName;
  label: string;
  with: AlgorithmName;
  withLabel: string;
  /** "Dalli (Ruby, Rails) and pymemcache … send 66.9% of 10,000 keys to different servers: …" */
  text: string;
  /** Where each sends the key asked about (`agree`: the same server). */
  key: KeyAnswers | null;
  /** The exact arcs of the session's circle the two send to different servers (`from`: the
   * first's server, `to`: the second's); empty unless `onRing`. */
  apart: MovedSpan[];
  /** Whether the two place keys on the session's circle, so `apart` can be drawn on it. */
  onRing: boolean;
  /** What the ring shows of the split, in a sentence (empty when they agree). */
  ringText: string;
}

/** Where each of two placements sends one key. */
export interface KeyAnswers {
  key: string;
  a: string;
  b: string;
  /** Both send it to the same server. */
  agree: boolean;
}

/** A share of keys one placement sends to server `a` and the other to `b`. */
export interface AgreementPair {
  a: string;
  b: string;
  share: number;
}

/** One step two placements take differently: `"server label"`, `"points"`, `"key hash"`,
 * `"pick"`, `"server order"`, `"key space"`, `"option"`, `"settings"` or `"algorithm"`. */
export interface AgreementReason {
  step: string;
  a: string;
  b: string;
}

/** What an explanation step computes. */
export type ExplanationStepKind =
  | "bytes" | "hash" | "position" | "point" | "label" | "slot" | "bucket" | "entry" | "load"
  | "candidate" | "down" | "owner" | "replicas" | "unavailable";

/** What a step points at on the figure: a place on the circle (`[0, 1)`), a node (index into
 * `nodes()`), the nodes of a list. */
export interface ExplanationTarget {
  fraction: number | null;
  node: number | null;
  nodes: number[];
}

/** One computed value: its kind, what it is in words, the value as the algorithm writes it. */
export interface ExplanationStep {
  kind: ExplanationStepKind;
  label: string;
  value: string;
  at: ExplanationTarget;
}

/** `ring.explain(key)`: the chain from the key's bytes to its owner. */
export interface Explanation {
  key: string;
  algorithm: AlgorithmName;
  steps: ExplanationStep[];
  /** `locate`'s answer, or `null` (then `error` is its code). */
  owner: string | null;
  ownerIndex: number | null;
  /** The preference list asked for (ringlab's ring), else `null`. */
  replicas: string[] | null;
  error: ErrorCode | null;
}

/** Two chains for one key; `partsAt` is the first step index whose kind or value differs
 * (`null`: the same chain). */
export interface ExplanationPair {
  a: Explanation;
  b: Explanation;
  partsAt: number | null;
  agree: boolean;
  reasons: AgreementReason[];
}

/** Algorithms that send every key to the same server. */
export interface AgreementGroup {
  algorithms: AlgorithmName[];
  /** Over the whole key space, not only on the keys compared. */
  exact: boolean;
  /** "Every key to the same server: libketama (last.fm); spymemcached, ketama (Java)." */
  text: string;
}

/** `agreementMatrix`: every two accepting algorithms' disagreement on one pool. */
export interface AgreementMatrix {
  algorithms: AlgorithmName[];
  disagree: number[][];
  exact: boolean[][];
  keys: number;
  refused: AlgorithmFailure[];
  /** Each accepting algorithm's label, in `algorithms`' order. */
  labels: string[];
  /** Two or more algorithms that send every key to the same server (over the whole key space
   * when `exact`, else on every key compared); each algorithm in at most one. */
  groups: AgreementGroup[];
  /** Two to compare first: the first listed, and the first after it that disagrees with it. */
  pair: [AlgorithmName, AlgorithmName] | null;
}

/** One algorithm's figures in `compareAlgorithms`: exact over the whole key space where its
 * placement has arcs, else counted on the keys, each with a margin of two standard errors (0
 * where exact). Fractions are of the key space or of the keys. */
export interface AlgorithmReport {
  algorithm: AlgorithmName;
  maxOverMean: number;
  /** Whether `maxOverMean` is exact (the playground's figure), not counted on the keys. */
  exactBalance: boolean;
  maxOverMeanMargin: number;
  /** Whether the moves are exact, not counted on the keys. */
  exactMoves: boolean;
  movedOnJoin: number;
  movedOnJoinMargin: number;
  idealJoin: number;
  movedOnLeave: number;
  movedOnLeaveMargin: number;
  idealLeave: number;
  /** The node that left. */
  left: string;
  memoryBytes: number;
}

/** An algorithm that refused the nodes (weights where it has none, a bad name). */
export interface AlgorithmFailure {
  algorithm: AlgorithmName;
  error: string;
  code: ErrorCode;
}

export type Comparison = AlgorithmReport | AlgorithmFailure;

/** The order nodes leave in for `metrics`: the first added first, the last added first, or a
 * seeded shuffle. */
export type RemovalOrder = "fifo" | "lifo" | "random";

/** `metrics`' settings, every field optional. */
export interface MetricsSettings {
  /** Default `"lifo"` (the one order every algorithm allows). */
  removalOrder?: RemovalOrder;
  /** How many nodes leave, one after another, 1..8 and fewer than the nodes (default 1). */
  removals?: number;
  /** The shuffle's seed for `"random"` (default 0). */
  seed?: number;
  /** Which algorithms (default: every one, in catalog order). */
  algorithms?: AlgorithmName[];
  /** The caller's measured lookup time of each of `algorithms`, in ns, echoed in its row (0 or less, or not finite: `null`). */
  lookupNs?: number[];
}

/** What a change moved, as fractions of the keys (of the key space where `exactMoves`). */
export interface MetricsChange {
  moved: number;
  /** The fair share of the nodes that joined or left: the least any scheme moves. */
  ideal: number;
  /** Moved between two nodes that did not change (monotonicity; 0 is ideal). */
  movedBetweenOthers: number;
}

/** The removals' figures. */
export interface MetricsRemoval {
  order: RemovalOrder;
  /** The nodes that left, in order. */
  removed: string[];
  change: MetricsChange;
  balanceAfter: Spread;
  /** After the leavers rejoin (last out, first back): keys not on their first owner. */
  restoreMoved: number;
}

/** One algorithm's metrics in `metrics`. */
export interface AlgorithmMetrics {
  algorithm: AlgorithmName;
  nodes: number;
  sampleKeys: number;
  exactBalance: boolean;
  exactMoves: boolean;
  balance: Spread;
  /** A node named "joiner" (weight 1) joins. */
  add: MetricsChange;
  balanceAfterAdd: Spread;
  /** `null` where the algorithm refuses this removal order (`removalRefused` says why). */
  removal: MetricsRemoval | null;
  removalRefused: string | null;
  memoryBytes: number;
  bytesPerNode: number;
  lookupNs: number | null;
}

export type MetricsRow = AlgorithmMetrics | AlgorithmFailure;

/** `session.metrics`' settings: `metrics`' without `algorithms` (it measures every one). */
export interface SessionMetricsSettings {
  removalOrder?: RemovalOrder;
  removals?: number;
  seed?: number;
  /** The measured lookup time of each of `algorithms()`, in ns (0 or less, or not finite: not measured). */
  lookupNs?: number[];
}

/** One metric of the comparison: its words and which way is better. */
export interface MetricColumn {
  /** A stable name: `"balance"`, `"rsd"`, `"balance-after-add"`, `"balance-after-removal"`,
   * `"monotonicity-add"`, `"monotonicity-removal"`, `"disruption-add"`, `"disruption-removal"`,
   * `"restore"`, `"lookup"`, `"bytes-per-node"`. */
  key: string;
  label: string;
  /** The unit the cells are in: `"×"`, `"%"`, `"ns"`, `"bytes"`. */
  unit: string;
  description: string;
  /** `"lower"`: the smallest wins; `"nearest-one"`: the nearest 1 (a ratio to the ideal). */
  better: "lower" | "nearest-one";
}

/** Which algorithms are best at one metric (ties included). */
export interface MetricWinner {
  metric: string;
  /** The best figure, in the metric's unit, or `null` when no algorithm has one. */
  best: number | null;
  algorithms: AlgorithmName[];
  /** "maglev wins with 1.002× (lower is better)." */
  sentence: string;
}

/** One algorithm's row of the comparison. */
export interface MetricsComparisonRow {
  algorithm: AlgorithmName;
  /** One per metric, in its unit ("n/a": no figure). */
  cells: string[];
  /** One per metric: among its winners. */
  wins: boolean[];
  /** Why figures are missing (a refused removal order, refused nodes), or "". */
  note: string;
}

/** `session.metrics()`: the table and the words. */
export interface MetricsComparison {
  caption: string;
  order: RemovalOrder;
  orderWords: string;
  keys: number;
  removals: number;
  /** "Algorithm", each metric's label and unit, "Note". */
  headers: string[];
  metrics: MetricColumn[];
  rows: MetricsComparisonRow[];
  winners: MetricWinner[];
}

/** `sqrt((N - 1) / (N·V + 1))`: the expected load RSD of `nodes` equal nodes with `vnodes` each. */
export function theoreticalRsd(nodes: number, vnodes: number): number;
/** `judgeEstimate`'s answer: right within `tolerance` keys of the engine's `counted`. */
export interface Judgement {
  right: boolean;
  counted: number;
  /** Two binomial standard deviations of the count on the sample, at least 1. */
  tolerance: number;
}
/** A reader's estimate of a count of sample keys (how many move), judged against the engine's count. */
export function judgeEstimate(guess: number, counted: number, sampleKeys: number): Judgement;
/** The vnodes a ringlab ring needs for a target spread, measured on its exact shares. */
export function vnodesFor(options: SizingOptions): Sizing;
export function algorithms(): AlgorithmName[];
export function hashes(): HashName[];
/** The Redis Cluster slot of `key` (CRC16-XMODEM mod 16384, hash tags honoured). */
export function redisKeySlot(key: string): number;
/** Cassandra's Murmur3Partitioner token of `key`. */
export function cassandraToken(key: string): bigint;
/** Jump consistent hash: the bucket in `0..buckets` of a 64-bit key. */
export function jumpHash(key: bigint, buckets: number): number;
/** Every algorithm on the same nodes and keys `"{prefix}0" ..` (at most 50,000). */
export function compareAlgorithms(options: RingOptions, prefix: string, count: number): Comparison[];
/**
 * The papers' metrics (balance, resize balance, disruption, monotonicity, restore, memory) of
 * each algorithm on `options.nodes` and the keys: a count (keys `"key:0" ..`) or an array.
 * At most 60,000 algorithms × keys and 200 nodes.
 */
export function metrics(options: RingOptions, keys: number | string[], settings?: MetricsSettings): MetricsRow[];
/**
 * How far every two cache clients agree on one pool (`options.nodes`): exact where a pair
 * allows it, else on `keys` generated keys (default 65,000 / algorithms, at most 10,000).
 * `settings.algorithms` defaults to every cache client of the catalog; those that refuse the
 * pool are listed in `refused`.
 */
export function agreementMatrix(options: RingOptions, keys?: number, settings?: { algorithms?: AlgorithmName[] }): AgreementMatrix;
/** Installs the panic hook that logs a bug's message; `init` runs it (wasm-bindgen exports it). */
export function start(): void;
/** The node colours, `#rrggbb`. */
export function palette(): string[];
/** The theme's CSS custom properties for an element's shadow root (`:host`). */
export function elementThemeCss(): string;
/** The kinds of configuration text `Ring.fromConfig` and `Session.fromConfig` read. */
export function configKinds(): ConfigKind[];
/** The sections a configuration text offers to choose from, in order (empty: nothing to choose). */
export function configSections(kind: ConfigKind["kind"], text: string): string[];
/** What reading a configuration text makes of each non-blank line: read, passed over (and
 * why), or refused. A text `fromConfig` refuses is the answer's `error`, not a throw: only
 * the arguments throw (an unknown kind, a text that is not a string or is too long). */
export function checkConfig(kind: ConfigKind["kind"], text: string, options?: ImportOptions): ConfigCheck;
/** One line of a `ConfigCheck`. */
export interface ConfigLine {
  /** 1-based. */
  line: number;
  /** `read`: it places a server or sets what the placement uses; `passed-over`: known not
   * to change the placement; `refused`: the line the text was refused on. */
  status: "read" | "passed-over" | "refused";
  /** Why, in plain words (for `refused`, the error's). */
  why: string;
}
/** The placement a checked text describes, in brief. */
export interface ConfigPlacement {
  algorithm: AlgorithmName;
  /** The upstream, backend, pool or cluster read, when the text offers several. */
  section: string | null;
  servers: number;
  down: number;
}
/** Why a checked text is refused, as `fromConfig` would throw it. */
export interface ConfigCheckError {
  code: ErrorCode;
  message: string;
  /** The line refused, if one is. */
  line: number | null;
}
/** `checkConfig`'s answer: every non-blank line the reader reached, in order. */
export interface ConfigCheck {
  kind: ConfigKindName;
  lines: ConfigLine[];
  read: number;
  passedOver: number;
  /** The counts in words: "5 lines read, 2 passed over". */
  summary: string;
  placement: ConfigPlacement | null;
  error: ConfigCheckError | null;
}
/** Everything about each algorithm, from the engine's catalog, in its order. */
export function catalog(): AlgorithmInfo[];
/** A ring of a tutorial or homegrown code, reproduced bit for bit: open `link` to see it. */
export interface RingPreset {
  /** What it is: "Go `hash/fnv`". */
  name: string;
  /** The code, in a line. */
  code: string;
  /** Which detail, unlike ringlab's ring, moves which keys. */
  differs: string;
  /** The share link (`#ringlab=2&a=ring&…`) that opens it. */
  link: string;
}
/** "Your own ring": the five tutorial rings, in the order of issue 29's table. */
export function ringPresets(): RingPreset[];

/** What `init` accepts: the `.wasm`'s URL or bytes, or a compiled module. */
export type InitInput = RequestInfo | URL | Response | BufferSource | WebAssembly.Module;
export type SyncInitInput = BufferSource | WebAssembly.Module;

/** The instantiated module (the API is the named exports, not this). */
export interface InitOutput {
  readonly memory: WebAssembly.Memory;
}

/** Loads the engine; call once and await it before anything else. */
export default function init(
  module_or_path?: { module_or_path: InitInput | Promise<InitInput> } | InitInput | Promise<InitInput>,
): Promise<InitOutput>;
/** As `init`, synchronously, from bytes or a compiled module. */
export function initSync(module: { module: SyncInitInput } | SyncInitInput): InitOutput;
