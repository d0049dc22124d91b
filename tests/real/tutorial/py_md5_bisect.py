"""A tutorial's ring in Python: int(md5(label).hexdigest(), 16) % 2**32 of "node#i" (the
last 4 digest bytes, big-endian), a sorted list and bisect.bisect (bisect_right: the first
point > the key), wrapping; a dict from position to node, so the later add of an equal
position wins and a removal deletes the position, whoever holds it.

Commands on stdin as in go_fnv.go ("add NAME W": W ignored, this ring has no weights).
"""

import bisect
import hashlib
import sys


class Ring:
    def __init__(self, replicas):
        self.replicas = replicas
        self.ring = {}
        self.sorted_keys = []

    @staticmethod
    def hash(text):
        return int(hashlib.md5(text.encode("utf-8")).hexdigest(), 16) % 2**32

    def add(self, node):
        for i in range(self.replicas):
            h = self.hash(f"{node}#{i}")
            if h not in self.ring:
                bisect.insort(self.sorted_keys, h)
            self.ring[h] = node

    def remove(self, node):
        for i in range(self.replicas):
            h = self.hash(f"{node}#{i}")
            if h in self.ring:
                del self.ring[h]
                self.sorted_keys.remove(h)

    def get(self, key):
        if not self.ring:
            return None
        idx = bisect.bisect(self.sorted_keys, self.hash(key))
        if idx == len(self.sorted_keys):
            idx = 0
        return self.ring[self.sorted_keys[idx]]


def main():
    ring = None
    out = []
    arg = lambda s: bytes.fromhex(s).decode("utf-8")
    for line in sys.stdin:
        f = line.split()
        if f[0] == "new":
            ring = Ring(int(f[1]))
        elif f[0] == "add":
            ring.add(arg(f[1]))
        elif f[0] == "remove":
            ring.remove(arg(f[1]))
        elif f[0] == "get":
            node = ring.get(arg(f[1]) if len(f) > 1 else "")
            out.append("-" if node is None else node.encode("utf-8").hex())
    sys.stdout.write("".join(o + "\n" for o in out))


if __name__ == "__main__":
    main()
