"""groupcache.json: node choice from Go groupcache's consistenthash (Debian's source).

Runs groupcache_ring (groupcache_ring.go, built against Debian's
golang-github-golang-groupcache-dev with Debian's golang-go) and re-checks every answer
with the rule read from consistenthash.go: point i of node N = crc32.ChecksumIEEE(
strconv.Itoa(i) + N) for i in 0..replicas-1; sorted ascending; a key goes to the first point
>= crc32(key), wrapping to the first point; on equal points the node Added last owns it.
"""

import bisect
import os
import subprocess
import sys
import zlib

from common import deb_version, log, write_fixture
from keys import all_keys

BIN = sys.argv[1]
GO_VERSION = sys.argv[2] if len(sys.argv) > 2 else "?"

NODE_LISTS = [
    ["cache-a"],
    ["10.0.1.1:11211", "10.0.1.2:11212", "cache-a"],
    ["cache-a", "cache-b", "cache-c", "cache-d", "cache-e"],
    ["10.0.1.%d:11211" % i for i in range(1, 11)],
    ["узел-1", "ノード2", "node-3", "a", "b"],
]
REPLICAS = [50, 3]


def model(replicas, nodes, key):
    owner = {}
    for n in nodes:
        for i in range(replicas):
            owner[zlib.crc32((str(i) + n).encode())] = n  # later Add overwrites
    points = sorted(owner)
    h = zlib.crc32(key)
    idx = bisect.bisect_left(points, h)
    return owner[points[idx % len(points)]]


def main():
    keys = all_keys()
    stdin = "".join(k.encode("utf-8").hex() + "\n" for k in keys)
    cases = []
    for replicas in REPLICAS:
        for nodes in NODE_LISTS:
            out = subprocess.run([BIN, str(replicas)] + nodes, input=stdin, capture_output=True,
                                 text=True, check=True).stdout.split("\n")[:-1]
            got = [bytes.fromhex(x).decode("utf-8") for x in out]
            assert len(got) == len(keys)
            for k, n in zip(keys, got):
                assert n == model(replicas, nodes, k.encode("utf-8")), (replicas, nodes, k)
            log("groupcache: replicas %d, %d nodes: %d keys; model agrees"
                % (replicas, len(nodes), len(keys)))
            cases.append({"replicas": replicas, "nodes": nodes,
                          "keys": [{"key": k, "node": n} for k, n in zip(keys, got)]})
    write_fixture("groupcache.json", {
        "produced_by": "groupcache consistenthash from Debian package "
                       "golang-github-golang-groupcache-dev %s (upstream git 8c9f03a, "
                       "2020-01-21), built with %s (Debian golang-go %s)"
                       % (deb_version("golang-github-golang-groupcache-dev"), GO_VERSION,
                          deb_version("golang-go")),
        "notes": "m := consistenthash.New(replicas, nil) (crc32.ChecksumIEEE); m.Add(nodes...); "
                 "node = m.Get(key). Point labels are strconv.Itoa(i) + node (no separator), "
                 "i = 0..replicas-1.",
        "cases": cases})


if __name__ == "__main__":
    main()
