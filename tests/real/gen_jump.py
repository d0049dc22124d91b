"""jump.json: Lamping & Veach jump consistent hash from PyPI's jump-consistent-hash.

bucket = jump.hash(key, buckets), the package's C extension (jump/_jump, the paper's C++
loop: key = key * 2862933555777941757 + 1; j = (b + 1) * (double(1 << 31) / double((key >> 33)
+ 1))). Every value is also checked against the package's pure-Python fallback (py_hash).
Published vectors (other projects' tests, cited below) are checked and recorded too.
"""

from importlib.metadata import version

import jump

from common import log, write_fixture
from keys import splitmix64

U64 = (1 << 64) - 1

SPECIAL_KEYS = [0, 1, 2, 3, 42, 256, 0xDEADBEEF, 0xDEAD10CC, 1 << 32, (1 << 32) - 1,
                (1 << 63) - 1, 1 << 63, (1 << 63) + 1, U64 - 1, U64,
                0x0DDC0FFEEBADF00D, 16045690984833335023]
SAMPLED_BUCKETS = sorted(set(list(range(1, 101)) + list(range(101, 1001, 37)) +
                             [127, 128, 129, 255, 256, 257, 511, 512, 513, 999, 1000]))
LARGE_BUCKETS = [65536, 100001, 1000000, (1 << 31) - 1]  # beyond 1..1000, for range checks

# Published vectors: (source, [(key, buckets, bucket), ...]). Taken verbatim from the files.
GO_JUMP_TESTHASH = {  # key -> results for buckets 1..len
    0: [0] * 20,
    1: [0, 0, 0, 0, 0, 0, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 17, 17],
    0xDEADBEEF: [0, 1, 2, 3, 3, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 16, 16, 16],
    0x0DDC0FFEEBADF00D: [0, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 15, 15, 15, 15],
}
GUAVA_GOLDEN100 = [0, 55, 62, 8, 45, 59, 86, 97, 82, 59, 73, 37, 17, 56, 86, 21, 90, 37, 38, 83]
GUAVA_COMPAT = [(10863919174838991, 11, 6), (2016238256797177309, 11, 3),
                (1673758223894951030, 11, 5), (2, 100001, 80343), (2201, 100001, 22152),
                (2202, 100001, 15018)]
CLICKHOUSE = [(1, 1, 0), (42, 57, 43), (256, 1024, 520), (3735883980, 1, 0),
              (3735883980, 666, 361), (16045690984833335023, 255, 237)]

PUBLISHED = [
    ("dgryski/go-jump jump_test.go (commit ba001c3ffce0e68cf0b1bb7780dee8e9f45f7786), "
     "TestHash: 'Generated from the reference C++ code' (the paper's code), buckets 1..N",
     [(k, i + 1, v) for k, vs in GO_JUMP_TESTHASH.items() for i, v in enumerate(vs)]),
    ("dgryski/go-jump jump_test.go (same commit), TestGolden: golden100 'From Guava' "
     "(Hash(i, 100) for i = 0..19) and the compat table",
     [(i, 100, v) for i, v in enumerate(GUAVA_GOLDEN100)] + GUAVA_COMPAT),
    ("ClickHouse/ClickHouse tests/queries/0_stateless/00580_consistent_hashing_functions.sql "
     "+ .reference (commit c2b45f2fb3a345f72518c0f526df80bf0f441746), first line: "
     "jumpConsistentHash(key, buckets)", CLICKHOUSE),
]


def main():
    assert jump.c_hash is not None and jump.hash is jump.c_hash, "C extension not loaded"
    rng = splitmix64(0x1A3F_0001)
    random_keys = [next(rng) for _ in range(500)]
    cases = []

    def add(key, buckets):
        b = jump.hash(key, buckets)
        assert b == jump.py_hash(key, buckets) and 0 <= b < buckets
        cases.append({"key": str(key), "buckets": buckets, "bucket": b})

    for key in SPECIAL_KEYS:
        for n in SAMPLED_BUCKETS + LARGE_BUCKETS:
            add(key, n)
    for key in random_keys:
        for _ in range(8):
            add(key, 1 + next(rng) % 1000)

    published = []
    for source, vectors in PUBLISHED:
        for k, n, want in vectors:
            got = jump.hash(k, n)
            assert got == want, "published vector disagrees: %s: hash(%d, %d) = %d, want %d" % (
                source, k, n, got, want)
        published.append({"source": source, "cases": [
            {"key": str(k), "buckets": n, "bucket": v} for k, n, v in vectors]})
    log("jump: %d cases (%d keys); %d published vectors agree"
        % (len(cases), len(SPECIAL_KEYS) + len(random_keys), sum(len(v) for _, v in PUBLISHED)))
    write_fixture("jump.json", {
        "produced_by": "jump-consistent-hash %s (PyPI), C extension jump._jump"
                       % version("jump-consistent-hash"),
        "notes": "bucket = jump.hash(key, buckets), key an unsigned 64-bit integer (decimal "
                 "string). Buckets 1..1000 sampled, plus a few larger counts up to 2^31-1 for the "
                 "special keys. The Lamping & Veach paper (arXiv:1406.2294) prints the code but "
                 "no example values; `published` holds vectors from other projects' tests, each "
                 "checked against this package.",
        "cases": cases,
        "published": published})


if __name__ == "__main__":
    main()
