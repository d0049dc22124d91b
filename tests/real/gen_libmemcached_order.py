"""libmemcached_order.json: libmemcached 1.1.4's KETAMA mode, with weights, in both orders of
calls (ringlab's `ketamaWeighted` option).

    python3 gen_libmemcached_order.py PATH/TO/memc_ring

`memcached_server_add_with_weight` of a weight > 1 turns libmemcached's `ketama.weighted` flag
on once the distribution is consistent (hosts.cc `server_add`); `memcached_behavior_set_
distribution(MEMCACHED_DISTRIBUTION_CONSISTENT_KETAMA)` turns it off (behavior.cc). So:

* ketama_weighted true: the behaviours first, then the servers (memc_ring `ketama`), as PHP
  code that calls setOption before addServers does;
* ketama_weighted false: the servers first, then the behaviours (memc_ring `ketama-late`), as
  pylibmc does; servers added after that (`added`, after "--") turn the flag on again if one
  has a weight > 1.

Each case records the flag as the library reports it (MEMCACHED_BEHAVIOR_KETAMA_WEIGHTED),
the points per server of the continuum and each key's server (memcached_generate_hash).
"""

import subprocess
import sys

import keys as keyset
from common import deb_version, log, write_fixture

BIN = sys.argv[1] if len(sys.argv) > 1 else "memc_ring"
KEYS = keyset.edge_keys() + ["user:%d" % i for i in range(300)] + keyset.random_keys(200)

A = ("10.0.1.1", 11211, 1)
B = ("10.0.1.2", 11211, 2)
C = ("10.0.1.3", 11212, 3)
ONE_B = ("10.0.1.2", 11211, 1)
D1 = ("10.0.1.4", 11211, 1)
D2 = ("10.0.1.4", 11211, 2)

CASES = [
    (True, [A, B, C], []),
    (True, [A, ONE_B], []),
    (True, [A, ONE_B], [C]),
    (False, [A, B, C], []),
    (False, [A, B, C], [D1]),
    (False, [A, B, C], [D2]),
    (False, [A, ONE_B], [C]),
]


def name(s):
    return "%s:%d" % (s[0], s[1])


def run(weighted_first, servers, added):
    spec = lambda s: "%s:%d:%d" % s
    if weighted_first:
        args = [BIN, "ketama"] + [spec(s) for s in servers + added]
    else:
        args = [BIN, "ketama-late"] + [spec(s) for s in servers] + ["--"] + [spec(s) for s in added]
    hexkeys = "".join(k.encode("utf-8").hex() + "\n" for k in KEYS)
    out = subprocess.run(args, input=hexkeys, capture_output=True, text=True, check=True).stdout.splitlines()
    version = next(l[2:] for l in out if l.startswith("V "))
    behaviours = next(l[2:] for l in out if l.startswith("B ")).split()
    owners = [int(l[2:]) for l in out if l.startswith("K ")]
    n = len(servers) + len(added)
    per = [0] * n
    for l in out:
        if l.startswith("C "):
            per[int(l.split()[2])] += 1
    return version, behaviours, owners, per, args


def main():
    cases = []
    version = None
    for weighted_first, servers, added in CASES:
        version, beh, owners, per, args = run(weighted_first, servers, added)
        assert len(owners) == len(KEYS)
        calls = " ".join(args[1:])
        cases.append(dict(calls=calls, ketama_weighted=weighted_first,
                          flag=bool(int(beh[1])),
                          nodes=[[name(s), s[2]] for s in servers],
                          added=[[name(s), s[2]] for s in added],
                          points_per_server=per, owners=owners))
        log("libmemcached %s: weighted flag %s, points %s" % (calls, beh[1], per))
    write_fixture("libmemcached_order.json", {
        "produced_by": "libmemcached %s (Debian libmemcached-dev %s) via memc_ring ketama / ketama-late"
                       % (version, deb_version("libmemcached-dev")),
        "keys": KEYS,
        "cases": cases})


if __name__ == "__main__":
    main()
