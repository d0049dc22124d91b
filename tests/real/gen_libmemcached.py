"""libmemcached.json (+ libmemcached_continuum.json): ketama server choice from the real
libmemcached, through memc_ring (memc_ring.c linked with -lmemcached).

Each case is run through the library, then re-done by the small model below (the rules
read from libmemcached 1.1.4's src/libmemcached/hosts.cc and hash.cc, see README.md); the
run fails if the model and the library differ on any point or any key, so the README's
description is checked on every run. The fixtures hold the library's answers.
"""

import hashlib
import math
import os
import struct
import subprocess
import sys

from common import deb_version, log, write_fixture
from keys import all_keys

BIN = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.environ.get("RINGLAB_REAL_BUILD", "/tmp/ringlab-real-build"), "memc_ring")

S1 = [("10.0.1.1", 11211, 1)]
S3 = [("10.0.1.1", 11211, 1), ("10.0.1.2", 11212, 1), ("cache-a", 11211, 1)]
S7 = [("10.0.1.%d" % i, 11211, 1) for i in range(1, 8)]
S10 = [("10.0.1.%d" % i, 11211 if i % 2 else 11212 + i, 1) for i in range(1, 11)]
# libketama's own example server list (ketama.servers in its distribution), weights = memory.
LIBKETAMA = [("10.0.1.%d" % i, 11211, w) for i, w in
             enumerate([600, 300, 200, 350, 1000, 800, 950, 100], start=1)]
MIXED = [("cache-a", 11211, 1), ("cache-b", 11211, 2), ("cache-c", 11212, 3),
         ("10.0.1.1", 11211, 5), ("10.0.1.2", 11212, 1)]

# 25 equal weights: single-precision pct*160/4*25 is 39.99999 -> 156 points each, not 160
# (double arithmetic would give 160). A weight 1 beside 1000 gets 0 points.
S25 = [("10.0.2.%d" % i, 11211, 1) for i in range(1, 26)]
TINY = [("cache-a", 11211, 1), ("cache-b", 11211, 1000)]
# Cases where single and double precision part ways the other way: 29 equal servers give 160
# points in float, but 156 if the product after pct were computed in double; and eight
# weights of 1 beside 5 and 7 give the 7 560 points in float, 556 in double.
S29 = [("10.0.4.%d" % i, 11211, 1) for i in range(1, 30)]
W10 = [("10.0.3.%d" % i, 11211, w) for i, w in enumerate([1] * 8 + [5, 7], start=1)]

# "tie-7040-0" and "tie-144826-0" have the same first MD5 word (45466501): the two servers
# own a point of equal value in both modes (found by a birthday search over "tie-%d").
TIE = [("tie-7040", 11211, 1), ("tie-144826", 11211, 1)]
TIE_VALUE = 45466501

CASES = [("weighted", TIE), ("weighted", TIE[::-1]), ("ketama", TIE), ("ketama", TIE[::-1]),
         ("weighted", S1), ("weighted", S3), ("weighted", S7), ("weighted", S10),
         ("weighted", LIBKETAMA), ("weighted", MIXED), ("weighted", S25), ("weighted", TINY),
         ("weighted", S29), ("weighted", W10),
         ("ketama", S1), ("ketama", S3), ("ketama", S7), ("ketama", S10)]

# Servers as a client adds them beyond host:port:weight (first 1,000 keys each):
# * ketama mode with weights > 1: adding one switches libmemcached to weighted ketama
#   (hosts.cc server_add(), memcached_server_push(): memcached_set_weighted_ketama);
# * port 0 means 11211 (memcached_server_add_with_weight(); server_list.cc for lists);
# * unix sockets (memcached_server_add_unix_socket_with_weight()) keep port 0, so their
#   label is "path:0-i"; so does a '/' host in a parsed list, whatever port it names;
# * ("parse", LIST): memcached_servers_parse(LIST) then memcached_server_push().
SWITCH = [("10.0.0.1", 11211, 2), ("10.0.0.2", 11211, 1)]
PORT0 = [("10.0.0.1", 0, 1), ("10.0.0.2", 0, 1), ("10.0.0.3", 11212, 1)]
SOCKETS = [("unix", "/tmp/a.sock", 1), ("unix", "/var/run/memcached/b.sock", 1), ("10.0.1.1", 11211, 1)]
SOCKETS_W = [("unix", "/tmp/a.sock", 3), ("10.0.1.1", 0, 1), ("10.0.1.2", 11212, 1)]
PARSE_PORT0 = ("parse", "10.0.0.1:0,10.0.0.2:0,10.0.0.3:11212")
PARSE_SOCKETS = ("parse", "/tmp/a.sock,/tmp/b.sock:11212,10.0.1.1:11211")
PARSE_WEIGHTS = ("parse", "10.0.0.1:11211 3,10.0.0.2:11212 1,10.0.0.3:0:7")
EXTRA_CASES = [("ketama", SWITCH), ("weighted", SWITCH), ("ketama", MIXED), ("ketama", LIBKETAMA),
               ("ketama", PORT0), ("weighted", PORT0), ("ketama", SOCKETS), ("weighted", SOCKETS),
               ("ketama", SOCKETS_W), ("ketama", [PARSE_PORT0]), ("weighted", [PARSE_PORT0]),
               ("ketama", [PARSE_SOCKETS]), ("weighted", [PARSE_SOCKETS]), ("ketama", [PARSE_WEIGHTS])]
EXTRA_KEYS = 1000

DIST_NAMES = {2: "MEMCACHED_DISTRIBUTION_CONSISTENT_KETAMA",
              5: "MEMCACHED_DISTRIBUTION_CONSISTENT_WEIGHTED"}


# ------------------------------------------------------------------ the model
def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def label(host, port, i):
    """update_continuum(): "%s-%u" when port == MEMCACHED_DEFAULT_PORT (11211), else "%s:%u-%u"."""
    return ("%s-%d" % (host, i) if port == 11211 else "%s:%d-%d" % (host, port, i)).encode()


def le32(b, off=0):
    return struct.unpack_from("<I", b, off)[0]


def weighted_points(servers):
    """pointer_per_server = floor((float) pct * 160 / 4 * (float) live_servers + 1e-10F) * 4,
    every step in single precision (pct = (float) weight / (float) total_weight)."""
    total = sum(s[2] for s in servers)
    n = len(servers)
    out = []
    for s in servers:
        w = s[2]
        pct = f32(f32(w) / f32(total))
        x = f32(pct * 160)
        x = f32(x / 4)
        x = f32(x * f32(n))
        x = f32(x + f32(0.0000000001))
        out.append(int(math.floor(x)) * 4)
    return out


def parse_list(text):
    """memcached_servers_parse() (parse.cc): comma-separated, "host:port", then a weight after
    ' ' or ':'; no port gives port 0."""
    out = []
    for item in text.split(","):
        item = item.lstrip()
        host, _, rest = item.partition(":")
        port, weight = 0, 0
        if rest:
            digits = rest.split(" ")[0].split(":")[0]
            port = int(digits or 0)
            tail = rest[len(digits):]
            if tail[:1] in (" ", ":"):
                weight = int(tail[1:])
        out.append(("parsed", host, port, weight))
    return out


def stored(servers):
    """(host, port, weight, pushed) as the library keeps each server: add_with_weight turns
    port 0 into 11211; a unix socket, and a parsed '/' host, keep port 0 (server_list.cc);
    weight 0 is 1 (instance.cc _server_init)."""
    out = []
    for s in servers:
        if s[0] == "parse":
            for _, host, port, weight in parse_list(s[1]):
                port = 0 if host.startswith("/") else (port or 11211)
                out.append((host, port, weight or 1, True))
        elif s[0] == "unix":
            out.append((s[1], 0, s[2] or 1, False))
        else:
            out.append((s[0], s[1] or 11211, s[2] or 1, False))
    return out


def model(mode, servers):
    servers = stored(servers)
    points = []
    # Weighted ketama: asked for, or switched on by a server of weight > 1 added under a
    # consistent distribution (server_add()) or pushed from a list (memcached_server_push()).
    if mode == "weighted" or any(w > 1 for _, _, w, _ in servers):
        per = weighted_points(servers)
        for idx, ((host, port, _, _), count) in enumerate(zip(servers, per)):
            for i in range(count // 4):
                d = hashlib.md5(label(host, port, i)).digest()
                points.extend((le32(d, 4 * x), idx) for x in range(4))
    else:
        per = [100] * len(servers)
        for idx, (host, port, _, _) in enumerate(servers):
            for i in range(100):
                points.append((le32(hashlib.md5(label(host, port, i)).digest()), idx))
    points.sort()  # continuum_item_cmp: by value, then by server index
    return per, points, servers


def locate(points, nservers, key):
    if nservers == 1:
        return points[0][1]  # _generate_hash_wrapper() returns hash 0 for one server
    h = le32(hashlib.md5(key).digest())
    lo, hi = 0, len(points)
    while lo < hi:  # dispatch_host(): first point with value >= hash, else wrap to the first
        mid = (lo + hi) // 2
        if points[mid][0] < h:
            lo = mid + 1
        else:
            hi = mid
    return points[lo % len(points)][1]


def tie_keys(points, count=4):
    """Keys "tie-key-N" whose hash lands on the tied point (in (previous point, TIE_VALUE]),
    so the case shows which of two equal points wins. Chosen with the model; the fixture
    records the library's answer for them."""
    values = sorted({v for v, _ in points})
    prev = values[values.index(TIE_VALUE) - 1]
    assert sum(1 for v, _ in points if v == TIE_VALUE) == 2
    out, n = [], 0
    while len(out) < count:
        k = "tie-key-%d" % n
        if prev < le32(hashlib.md5(k.encode()).digest()) <= TIE_VALUE:
            out.append(k)
        n += 1
    return out


# ------------------------------------------------------------------ the real library
def run(mode, servers, keys):
    args = [BIN, mode] + ["%s:%s" % (s[0], s[1]) if s[0] == "parse" else "%s:%s:%d" % s for s in servers]
    stdin = "".join(k.encode("utf-8").hex() + "\n" for k in keys)
    out = subprocess.run(args, input=stdin, capture_output=True, text=True, check=True).stdout
    version, behaviours, idx, by_key, cont, names = None, None, [], [], [], []
    for line in out.splitlines():
        tag, _, rest = line.partition(" ")
        if tag == "V":
            version = rest
        elif tag == "N":
            host, port = rest.rsplit(" ", 1)
            names.append((host, int(port)))
        elif tag == "B":
            behaviours = [int(x) for x in rest.split()]
        elif tag == "K":
            idx.append(int(rest))
        elif tag == "S":
            by_key.append(None if rest == "-" else int(rest))
        elif tag == "C":
            v, i = rest.split()
            cont.append((int(v), int(i)))
    assert len(idx) == len(keys) == len(by_key)
    for i, j in zip(idx, by_key):
        assert j is None or i == j, "memcached_server_by_key disagrees with generate_hash"
    return version, behaviours, idx, cont, names


def main():
    keys = all_keys()
    cases, continua = [], []
    version = None
    for n, (mode, servers) in enumerate(CASES + EXTRA_CASES):
        per, points, kept = model(mode, servers)
        if n >= len(CASES):
            case_keys = keys[:EXTRA_KEYS]
        else:
            case_keys = keys + tie_keys(points) if servers in (TIE, TIE[::-1]) else keys
        version, beh, idx, cont, names = run(mode, servers, case_keys)
        dist, weighted, hash_, ketama_hash = beh
        switched = mode == "weighted" or any(w > 1 for _, _, w, _ in kept)
        assert weighted == switched and hash_ == 1, beh  # 1 = MEMCACHED_HASH_MD5
        assert names == [(h, p) for h, p, _, _ in kept], (names, kept)
        assert cont == points, "continuum differs from the model (%s, %r)" % (mode, servers)
        for k, i in zip(case_keys, idx):
            assert locate(points, len(kept), k.encode("utf-8")) == i, (mode, servers, k)
        counts = [sum(1 for _, i in cont if i == s) for s in range(len(kept))]
        assert counts == per
        log("libmemcached %-8s %2d servers: %5d points %s; %d keys; model agrees"
            % (mode, len(kept), len(cont), per, len(case_keys)))
        if servers and servers[0][0] == "parse":
            # The list as written; "servers" as the library keeps them (names, ports) with
            # the weight each item gives (0 when none).
            extra = {"parse": servers[0][1]}
            srv = [{"host": h, "port": p, "weight": w} for _, h, p, w in parse_list(servers[0][1])]
            for sv, (h, p) in zip(srv, names):
                sv["stored_port"] = p
        else:
            extra = {}
            srv = [{"host": sv[1], "port": 0, "weight": sv[2], "unix": True} if sv[0] == "unix"
                   else {"host": sv[0], "port": sv[1], "weight": sv[2]} for sv in servers]
            for sv, (h, p) in zip(srv, names):
                if p != sv["port"]:
                    sv["stored_port"] = p
        if servers in (TIE, TIE[::-1]):
            winners = {i for k, i in zip(case_keys, idx) if k.startswith("tie-key-")}
            assert winners == {0}, winners  # equal points: the lower server index wins
        cases.append(dict(mode=mode, **extra, servers=srv,
                          keys=[{"key": k, "server": i} for k, i in zip(case_keys, idx)]))
        continua.append(dict(mode=mode, distribution=DIST_NAMES.get(dist, str(dist)),
                             ketama_weighted=bool(weighted), **extra, servers=srv,
                             points_per_server=per, points=[[v, i] for v, i in cont]))
    produced_by = "libmemcached %s (Debian package libmemcached-dev %s, libmemcached11 %s)" % (
        version, deb_version("libmemcached-dev"), deb_version("libmemcached11"))
    write_fixture("libmemcached.json", {
        "produced_by": produced_by,
        "notes": "server = memcached_generate_hash(memc, key, len) (index in the order the "
                 "servers were added; memcached_server_by_key agrees wherever it accepts the key). "
                 "weighted: DISTRIBUTION=CONSISTENT_KETAMA then KETAMA_WEIGHTED=1 (which sets "
                 "HASH=KETAMA_HASH=MD5 and the distribution to CONSISTENT_WEIGHTED). ketama: "
                 "DISTRIBUTION=CONSISTENT_KETAMA, KETAMA_WEIGHTED=0, HASH=MD5 (KETAMA_HASH=MD5 "
                 "too, unused), all set before the servers are added; weights of 1 give 100 "
                 "points each, and adding a server of weight > 1 switches to weighted ketama "
                 "(ketama_weighted in libmemcached_continuum.json). Servers are added with "
                 "memcached_server_add_with_weight (port 0 is stored as 11211, stored_port), "
                 "memcached_server_add_unix_socket_with_weight (unix: port 0), or, with "
                 "'parse', memcached_servers_parse + memcached_server_push. See "
                 "tests/real/README.md.",
        "cases": cases})
    write_fixture("libmemcached_continuum.json", {
        "produced_by": produced_by,
        "notes": "The continuum libmemcached built for each case of libmemcached.json, read "
                 "from memcached_st.ketama.continuum: [value, server index] in the library's "
                 "sorted order.",
        "cases": continua})


if __name__ == "__main__":
    main()
