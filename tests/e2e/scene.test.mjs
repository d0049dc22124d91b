// The circle's axis labels, read from the scene the page actually draws, are in each
// algorithm's own key space. The expected labels are written here from each system's
// definition, not taken from the engine.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch, open, settle } from "./browser.mjs";

let chrome;
before(async () => { chrome = await launch(); });
after(async () => { await chrome?.close(); });

const HASH32 = ["0", "2³⁰", "2³¹", "3·2³⁰"];
const HASH64 = ["0", "2⁶²", "2⁶³", "3·2⁶²"];
const EXPECTED = {
  ring: HASH32, // a 32-bit ring by default
  "bounded-load": HASH32,
  libketama: HASH32, // MD5's first four bytes
  "libmemcached-weighted": HASH32,
  "libmemcached-ketama": HASH32,
  groupcache: HASH32, // CRC32
  "redis-cluster": ["slot 0", "slot 4096", "slot 8192", "slot 12288"], // 16384 slots
  cassandra: ["−2⁶³", "−2⁶²", "0", "2⁶²"], // signed 64-bit tokens, the smallest at the top
  jump: HASH64, // keys drawn at their 64-bit XXH3
  "multi-probe": HASH64,
  rendezvous: HASH64, // the page's hash is xxh3, 64 bits
  modulo: HASH64,
  maglev: ["entry 0", "entry 16385", "entry 32769", "entry 49153"], // 65537 entries, ⌈q·M/4⌉
  "nginx-consistent": HASH32, // CRC32 of the key
  "nginx-hash": HASH32,
  "haproxy-consistent": HASH32,
  "haproxy-map-based": HASH32,
  "twemproxy-ketama": HASH32, // twemproxy's hashes are 32 bits
  "twemproxy-modula": HASH32,
  "envoy-ring-hash": HASH64, // xxHash64 of the request's header
  "envoy-maglev": ["entry 0", "entry 16385", "entry 32769", "entry 49153"], // 65537 entries
  anchor: ["bucket 0", "bucket 64", "bucket 128", "bucket 192"], // a capacity of 256 buckets
  dx: ["bucket 0", "bucket 64", "bucket 128", "bucket 192"],
  memento: HASH64, // a jump hash of the key's 64-bit XXH3, then its replacements
  "jump-back": HASH64,
  flip: HASH64,
  binomial: HASH64,
  power: HASH64,
  // The cache clients, each at its own hash's width.
  pymemcache: HASH32, // murmur3_32 scores
  "python-memcached": ["0", "2¹³", "2¹⁴", "3·2¹³"], // 15 bits of CRC-32
  uhashring: HASH64, // 128-bit MD5, drawn by its top 64 bits
  "uhashring-ketama": HASH32,
  dalli: HASH32, // CRC-32
  "redis-rb-4": HASH32,
  "redis-rb-5": HASH32,
  "spymemcached-ketama": HASH32,
  "spymemcached-native": HASH32, // String.hashCode() as an unsigned 32-bit number
  "npm-hashring": HASH32,
  memjs: ["0", "2²⁹", "2³⁰", "3·2²⁹"], // |i32|: 0 to 2³¹
};

test("the drawn circle's axis is in each algorithm's own key space", async () => {
  const { page, problems, context } = await open(chrome.browser);
  const offered = await page.$$eval("#algorithm option", (os) => os.map((o) => o.value));
  assert.deepEqual([...offered].sort(), Object.keys(EXPECTED).sort(), "every algorithm is offered and expected");
  for (const algorithm of offered) {
    await page.selectOption("#algorithm", algorithm);
    await settle(page);
    const drawn = await page.evaluate(() => window.__ringlab.scene);
    assert.deepEqual(drawn.axis, EXPECTED[algorithm], algorithm);
    assert.equal(await page.textContent("#about"), drawn.description);
  }
  // A 32-bit hash makes rendezvous draw on 2^32.
  await page.selectOption("#algorithm", "rendezvous");
  await settle(page);
  await page.selectOption("#hash", "crc32");
  await settle(page);
  assert.deepEqual((await page.evaluate(() => window.__ringlab.scene)).axis, HASH32);
  assert.deepEqual(problems, []);
  await context.close();
});
