"""A Python simulation's ring: int(sha256(label).hexdigest(), 16) % 2**32 of
"node-{id}#vnode-{v}" (the last 4 digest bytes, big-endian), sorted positions and
bisect.bisect_left (the first point >= the key), wrapping; a dict from position to node id:
the later add of an equal position wins, a removal deletes the position.

Commands on stdin as in go_fnv.go ("add ID W": W ignored).
"""

import bisect
import hashlib
import sys


def h(text):
    return int(hashlib.sha256(text.encode("utf-8")).hexdigest(), 16) % 2**32


class Ring:
    def __init__(self, vnodes):
        self.vnodes = vnodes
        self.owner = {}
        self.points = []

    def add_node(self, node_id):
        for v in range(self.vnodes):
            p = h(f"node-{node_id}#vnode-{v}")
            if p not in self.owner:
                bisect.insort(self.points, p)
            self.owner[p] = node_id

    def remove_node(self, node_id):
        for v in range(self.vnodes):
            p = h(f"node-{node_id}#vnode-{v}")
            if p in self.owner:
                del self.owner[p]
                self.points.remove(p)

    def lookup(self, key):
        if not self.points:
            return None
        i = bisect.bisect_left(self.points, h(key))
        return self.owner[self.points[i % len(self.points)]]


def main():
    ring = None
    out = []
    arg = lambda s: bytes.fromhex(s).decode("utf-8")
    for line in sys.stdin:
        f = line.split()
        if f[0] == "new":
            ring = Ring(int(f[1]))
        elif f[0] == "add":
            ring.add_node(arg(f[1]))
        elif f[0] == "remove":
            ring.remove_node(arg(f[1]))
        elif f[0] == "get":
            node = ring.lookup(arg(f[1]) if len(f) > 1 else "")
            out.append("-" if node is None else node.encode("utf-8").hex())
    sys.stdout.write("".join(o + "\n" for o in out))


if __name__ == "__main__":
    main()
