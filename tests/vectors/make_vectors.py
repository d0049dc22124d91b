#!/usr/bin/env python3
"""Writes ring_vectors.json: expected key positions, owners and exact shares for a few rings.

Independent of the Rust code: the hashes come from Python's hashlib and zlib and from the
PyPI packages xxhash and mmh3, and the ring rule is re-implemented here from its definition
(labels "{name}#{i}", max(1, round(weight * vnodes)) points, position = low `bits` bits of
the hash value, owner = first point at or after the key, wrapping; ties go to the smaller
name), and so is weighted rendezvous (with Python's math.log). Both the native tests
(tests/native/vectors.rs) and the wasm tests (tests/web/binding.rs) check it.

Re-run:  pip install xxhash==4.* mmh3==5.* && python3 tests/vectors/make_vectors.py
"""
import bisect
import hashlib
import importlib.metadata as md
import json
import math
import pathlib
import sys
import zlib

import mmh3
import xxhash


def fnv1a(data, bits):
    prime, h = (0x01000193, 0x811C9DC5) if bits == 32 else (0x100000001B3, 0xCBF29CE484222325)
    for b in data:
        h = ((h ^ b) * prime) % (1 << bits)
    return h


def first8_le(digest):
    return int.from_bytes(digest[:8], "little")


HASHES = {
    "xxh3": lambda b: xxhash.xxh3_64_intdigest(b),
    "xxh64": lambda b: xxhash.xxh64_intdigest(b),
    "xxh32": lambda b: xxhash.xxh32_intdigest(b),
    "fnv1a32": lambda b: fnv1a(b, 32),
    "fnv1a64": lambda b: fnv1a(b, 64),
    "md5": lambda b: first8_le(hashlib.md5(b).digest()),
    "sha256": lambda b: first8_le(hashlib.sha256(b).digest()),
    "murmur3": lambda b: mmh3.hash64(b, 0, signed=False)[0],
    "crc32": lambda b: zlib.crc32(b),
}


def ring(hash_name, bits, vnodes, nodes):
    h, mask = HASHES[hash_name], (1 << bits) - 1
    points = []
    for node in nodes:
        count = max(1, math.floor(node["weight"] * vnodes + 0.5))
        for i in range(count):
            points.append((h(f"{node['name']}#{i}".encode()) & mask, node["name"].encode(), node["name"]))
    points.sort()
    return points


def owner(points, position):
    i = bisect.bisect_left([p[0] for p in points], position)
    return points[i % len(points)][2]


def shares(points, bits, names):
    out = dict.fromkeys(names, 0)
    for prev, cur in zip(points, points[1:]):
        out[cur[2]] += cur[0] - prev[0]
    out[points[0][2]] += (1 << bits) - points[-1][0] + points[0][0]
    return out


KEYS = ["", "a", "user:42", "ключ", "日本語キー", "\u00ff\u0000tail", "x" * 300] + [f"user:{i}" for i in range(0, 2000, 37)]

CASES = [
    ("xxh3", 32, 160, [("cache-a", 1), ("cache-b", 1), ("cache-c", 2)]),
    ("xxh64", 64, 50, [("a", 1), ("b", 1), ("c", 1), ("d", 0.5)]),
    ("xxh32", 32, 100, [("n1", 1), ("n2", 1)]),
    ("fnv1a32", 32, 64, [("10.0.0.1:11211", 1), ("10.0.0.2:11211", 1), ("10.0.0.3:11211", 3)]),
    ("fnv1a64", 64, 64, [("east", 1), ("west", 1)]),
    ("md5", 32, 40, [("s1", 1), ("s2", 1), ("s3", 1), ("s4", 1)]),
    ("sha256", 64, 20, [("α", 1), ("β", 2)]),
    ("murmur3", 64, 16, [("cass-1", 1), ("cass-2", 1), ("cass-3", 1)]),
    ("crc32", 32, 50, [("g1", 1), ("g2", 1), ("g3", 1)]),
    ("xxh3", 32, 1, [("solo", 1)]),
]


def rendezvous(nodes, keys):
    """Weighted rendezvous: score -w / ln(u), u = ((xxh3(name 0xFF key) >> 11) + 0.5) / 2^53;
    the highest score wins, equal scores go to the smaller name. Python's math.log is glibc's,
    not the libm crate ringlab uses, so this also shows the two agree on these keys."""
    out = []
    for key in keys:
        best = None
        for node in nodes:
            h = xxhash.xxh3_64_intdigest(node["name"].encode() + b"\xff" + key.encode())
            u = ((h >> 11) + 0.5) / float(1 << 53)
            score = -node["weight"] / math.log(u)
            if best is None or score > best[0] or (score == best[0] and node["name"].encode() < best[1].encode()):
                best = (score, node["name"])
        out.append({"key": key, "owner": best[1]})
    return out


def main():
    cases = []
    for hash_name, bits, vnodes, node_list in CASES:
        nodes = [{"name": n, "weight": w} for n, w in node_list]
        points = ring(hash_name, bits, vnodes, nodes)
        mask = (1 << bits) - 1
        keys = []
        for key in KEYS:
            pos = HASHES[hash_name](key.encode()) & mask
            keys.append({"key": key, "position": f"{pos:#x}", "owner": owner(points, pos)})
        # Keys that land exactly on a point belong to that point.
        label = f"{nodes[0]['name']}#0"
        keys.append({"key": label, "position": f"{HASHES[hash_name](label.encode()) & mask:#x}",
                     "owner": owner(points, HASHES[hash_name](label.encode()) & mask)})
        cases.append({
            "hash": hash_name, "bits": bits, "vnodes": vnodes, "nodes": nodes,
            "points": len(points),
            "shares": {k: str(v) for k, v in shares(points, bits, [n["name"] for n in nodes]).items()},
            "keys": keys,
        })
    rendezvous_nodes = [{"name": n, "weight": w} for n, w in [("r1", 1), ("r2", 2), ("r3", 0.5), ("r4", 1)]]
    out = {
        "generator": "tests/vectors/make_vectors.py",
        "rendezvous": {"hash": "xxh3", "nodes": rendezvous_nodes, "keys": rendezvous(rendezvous_nodes, KEYS + [f"k{i}" for i in range(2000)])},
        "python": sys.version.split()[0],
        "packages": {"xxhash": md.version("xxhash"), "mmh3": md.version("mmh3")},
        "cases": cases,
    }
    path = pathlib.Path(__file__).with_name("ring_vectors.json")
    path.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {path} ({len(cases)} cases, {sum(len(c['keys']) for c in cases)} keys)")


if __name__ == "__main__":
    main()
