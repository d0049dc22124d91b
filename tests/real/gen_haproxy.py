"""haproxy.json: which server a real HAProxy picks with `balance hdr(X-Key)`.

Starts HAProxy (foreground, every frontend on 127.0.0.1) with one frontend and backend per
case, the backend section being the case's `config`, and a small nginx on 127.0.0.1 as the
servers (each answers its own address). Sends every key in an `X-Key` header and records
which server answered. A model written from lb_chash.c, lb_map.c, hash.c, backend.c and
cfgparse.c (README.md) re-computes every answer; the run fails if they disagree.
"""

import bisect
import http.client
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time

from common import deb_version, log, write_fixture
from gen_nginx import ask, wait_port
from lbkeys import forced_crc32, forced_sdbm, lb_keys

BACKEND_BASE = int(os.environ.get("LB_BACKEND_BASE_PORT", "18081"))
FRONT_BASE = int(os.environ.get("HAPROXY_FRONT_BASE_PORT", "18200"))
M32 = 0xFFFFFFFF


def addr(i):
    return "127.0.0.1:%d" % (BACKEND_BASE + i)


def servers(n, params=None):
    params = params or {}
    return [("s%d" % (i + 1), addr(i), params.get(i, "")) for i in range(n)]


# (name, hash-type line or None, servers [(name, address, params)])
def cases():
    w1235 = {0: "weight 1", 1: "weight 2", 2: "weight 3", 3: "weight 5"}
    out = [("bare hash-type consistent (sdbm + avalanche)", "hash-type consistent", servers(4))]
    for fn in ("sdbm", "djb2", "wt6", "crc32"):
        out.append(("consistent %s" % fn, "hash-type consistent %s" % fn, servers(4)))
        out.append(("consistent %s avalanche" % fn, "hash-type consistent %s avalanche" % fn, servers(4)))
    out += [
        ("consistent, weights 1 2 3 5", "hash-type consistent", servers(4, w1235)),
        ("consistent crc32, weights 1 2 3 5", "hash-type consistent crc32", servers(4, w1235)),
        ("consistent, a 5th server added", "hash-type consistent", servers(5)),
        ("consistent crc32, 2nd of 4 disabled", "hash-type consistent crc32", servers(4, {1: "disabled"})),
        ("consistent, 2nd of 4 disabled", "hash-type consistent", servers(4, {1: "disabled"})),
        ("consistent, explicit and implicit ids", "hash-type consistent",
         servers(5, {1: "id 1", 3: "id 7 weight 2"})),
        ("consistent crc32, explicit ids", "hash-type consistent crc32",
         servers(3, {0: "id 10", 1: "id 20", 2: "id 30"})),
        ("map-based by default (no hash-type line)", None, servers(4)),
        ("hash-type map-based", "hash-type map-based", servers(3)),
        ("map-based, weights 2 4 6 (GCD 2)", "hash-type map-based", servers(3, {0: "weight 2", 1: "weight 4", 2: "weight 6"})),
        ("map-based, weights 2 4 6 and a disabled weight 3", "hash-type map-based",
         servers(4, {0: "weight 2", 1: "weight 4", 2: "weight 6", 3: "weight 3 disabled"})),
        ("map-based djb2 avalanche, weights 1 1 2", "hash-type map-based djb2 avalanche",
         servers(3, {2: "weight 2"})),
        ("map-based crc32, a 4th server added", "hash-type map-based crc32", servers(4)),
        ("map-based wt6", "hash-type map-based wt6", servers(3)),
    ]
    return out


def backend_text(name, hash_type, srvs):
    lines = ["backend %s" % name, "    mode http", "    balance hdr(X-Key)"]
    if hash_type:
        lines.append("    " + hash_type)
    for sname, address, params in srvs:
        lines.append("    server %s %s%s" % (sname, address, (" " + params) if params else ""))
    return "\n".join(lines)


# ---------------------------------------------------------------- model (README.md)
def sdbm(b):
    h = 0
    for c in b:
        h = (c + (h << 6) + (h << 16) - h) & M32
    return h


def djb2(b):
    h = 5381
    for c in b:
        h = ((h << 5) + h + c) & M32
    return h


def wt6(b):
    h0, h1, s0, s1 = 0xA53C965A, 0x5CA6953A, 6, 18
    for t in b:
        h0 = ~(h0 ^ t) & M32
        h1 = ~(h1 + t) & M32
        t = ((h1 << s0) | (h1 >> (32 - s0))) & M32
        h1 = ((h0 << s1) | (h0 >> (32 - s1))) & M32
        h0 = t
        t = ((h0 >> 16) ^ h1) & 0xFFFF
        s0 = t & 0x1F
        s1 = t >> 11
    return h0 ^ h1


def crc32(b):
    import zlib
    return zlib.crc32(b)


def full_hash(a):
    a = (a + 0x7ED55D16 + (a << 12)) & M32
    a = (a ^ 0xC761C23C) ^ (a >> 19)
    a = (a + 0x165667B1 + (a << 5)) & M32
    a = ((a + 0xD3A2646C) ^ (a << 9)) & M32
    a = (a + 0xFD7046C5 + (a << 3)) & M32
    a = (a ^ 0xB55A4F09) ^ (a >> 16)
    return (a * 3221225473) & M32


def full_hash_inverse(y):
    """The a with full_hash(a) == y: every step of full_hash is invertible, so undo them
    last to first (the `(a + c) ^ (a << 9)` step bit by bit from the bottom)."""
    a = (y * pow(3221225473, -1, 1 << 32)) & M32
    a ^= 0xB55A4F09
    a ^= a >> 16                                       # y ^ (y >> 16) undoes itself
    a = ((a - 0xFD7046C5) * pow(9, -1, 1 << 32)) & M32
    x = 0
    for bit in range(32):                              # (x + c) ^ (x << 9) == a
        if ((x + 0xD3A2646C) ^ (x << 9)) >> bit & 1 != a >> bit & 1:
            x |= 1 << bit
    a = ((x - 0x165667B1) * pow(33, -1, 1 << 32)) & M32
    y2 = a ^ 0xC761C23C                                # a ^ (a >> 19) == y2
    a = y2 ^ (y2 >> 19)
    a = ((a - 0x7ED55D16) * pow(4097, -1, 1 << 32)) & M32
    assert full_hash(a) == y
    return a


FUNCS = {"sdbm": sdbm, "djb2": djb2, "wt6": wt6, "crc32": crc32}


def hash_settings(hash_type):
    """(consistent, function, avalanche) of a hash-type line (None: no line)."""
    if hash_type is None:
        return False, "sdbm", False
    words = hash_type.split()[1:]
    consistent = words[0] == "consistent"
    if len(words) == 1:
        return consistent, "sdbm", consistent  # the bare-line trap: avalanche only for consistent
    return consistent, words[1], len(words) > 2 and words[2] == "avalanche"


def params_of(params):
    words = params.split()
    weight = int(words[words.index("weight") + 1]) if "weight" in words else 1
    sid = int(words[words.index("id") + 1]) if "id" in words else None
    return weight, sid, "disabled" in words


def puids(srvs):
    explicit = [params_of(p)[1] for _, _, p in srvs]
    used = set(x for x in explicit if x)
    out, next_id = [], 1
    for sid in explicit:
        if sid is None:
            while next_id in used:
                next_id += 1
            sid = next_id
            used.add(sid)
        out.append(sid)
        next_id += 1
    return out


class Model:
    def __init__(self, hash_type, srvs):
        self.consistent, fn, self.avalanche = hash_settings(hash_type)
        self.fn = FUNCS[fn]
        info = [params_of(p) for _, _, p in srvs]
        ids = puids(srvs)
        self.usable = [i for i, (w, _, dis) in enumerate(info) if not dis and w > 0]
        if self.consistent:
            nodes = []
            for i in self.usable:
                nodes += [(full_hash((ids[i] * 4096 + j) & M32), i) for j in range(info[i][0] * 16)]
            nodes.sort(key=lambda n: n[0])  # stable: ebtree keeps duplicates in insertion order
            self.nodes = []
            for n in nodes:
                if not self.nodes or self.nodes[-1][0] != n[0]:
                    self.nodes.append(n)
            self.keys = [n[0] for n in self.nodes]
        else:
            weights = [w for w, _, _ in info]
            nz = [w for w in weights if w]
            g = nz[0]
            for w in nz[1:]:
                while w:
                    g, w = w, g % w
            eweight = [(w + g - 1) // g for w in weights]
            tot = sum(eweight[i] for i in self.usable)
            score = [0] * len(srvs)
            self.table = []
            for _ in range(tot):
                best, best_v = None, 0
                for i in self.usable:
                    if tot == 1:
                        best = i
                        break
                    score[i] += eweight[i]
                    v = (score[i] + tot) // tot
                    if best is None or v > best_v:
                        best, best_v = i, v
                self.table.append(best)
                score[best] -= tot

    def hash(self, key):
        h = self.fn(key.encode("utf-8"))
        return full_hash(h) if self.avalanche else h

    def pick(self, key):
        if len(self.usable) == 1:
            return self.usable[0]
        h = self.hash(key)
        if not self.consistent:
            return self.table[h % len(self.table)]
        n = bisect.bisect_left(self.keys, h) % len(self.keys)
        p = n - 1
        dp = (h - self.keys[p]) & M32
        dn = (self.keys[n] - h) & M32
        return self.nodes[p][1] if dp <= dn else self.nodes[n][1]


def crafted_keys(model):
    """Keys whose hash is exactly a point, one off it, the exact midpoint between two points
    (where the distances tie) and one past it: for crc32 and sdbm, with or without avalanche
    (the value before avalanche is full_hash's inverse of the wanted one)."""
    force = {crc32: forced_crc32, sdbm: forced_sdbm}.get(model.fn)
    if not model.consistent or force is None:
        return []
    ks = model.keys
    step = max(1, len(ks) // 30)
    targets = [0, M32]
    for n in range(0, len(ks), step):
        a, b = ks[n - 1], ks[n]
        d = (b - a) & M32
        mid = (a + d // 2) & M32
        targets += [b, (b - 1) & M32, (b + 1) & M32, mid, (mid + 1) & M32]
    seen, out = set(), []
    for n, t in enumerate(targets):
        if t not in seen:
            seen.add(t)
            key = force("h%d:" % n, full_hash_inverse(t) if model.avalanche else t)
            assert model.hash(key) == t
            out.append(key)
    return out


# ---------------------------------------------------------------- the real programs
def haproxy_conf(all_cases):
    out = ["global", "    maxconn 256", "defaults", "    mode http", "    timeout connect 5s",
           "    timeout client 30s", "    timeout server 30s"]
    for i, (name, hash_type, srvs) in enumerate(all_cases):
        out += ["frontend f%d" % i, "    bind 127.0.0.1:%d" % (FRONT_BASE + i), "    default_backend b%d" % i]
        out.append(backend_text("b%d" % i, hash_type, srvs))
    return "\n".join(out) + "\n"


def nginx_backends_conf(tmp, addresses):
    out = ["daemon off;", "master_process off;", "worker_processes 1;", "pid %s/nginx.pid;" % tmp,
           "error_log %s/error.log warn;" % tmp, "events { worker_connections 256; }", "http {",
           "  access_log off;", "  client_body_temp_path %s/body;" % tmp, "  proxy_temp_path %s/proxy;" % tmp,
           "  fastcgi_temp_path %s/fcgi;" % tmp, "  uwsgi_temp_path %s/uwsgi;" % tmp,
           "  scgi_temp_path %s/scgi;" % tmp, "  keepalive_requests 100000;"]
    for a in addresses:
        out.append('  server { listen %s; location / { return 200 "%s"; } }' % (a, a))
    out.append("}")
    return "\n".join(out) + "\n"


def stop(proc, sig):
    if proc is not None and proc.poll() is None:
        proc.send_signal(sig)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


def main():
    tmp = tempfile.mkdtemp(prefix="ringlab-haproxy-")
    backends = haproxy = None
    try:
        all_cases = cases()
        addresses = sorted({a for _, _, srvs in all_cases for _, a, _ in srvs})
        with open(os.path.join(tmp, "nginx.conf"), "w") as f:
            f.write(nginx_backends_conf(tmp, addresses))
        with open(os.path.join(tmp, "haproxy.cfg"), "w") as f:
            f.write(haproxy_conf(all_cases))
        backends = subprocess.Popen(["nginx", "-p", tmp, "-c", os.path.join(tmp, "nginx.conf")])
        haproxy = subprocess.Popen(["haproxy", "-db", "-q", "-f", os.path.join(tmp, "haproxy.cfg")])
        wait_port(BACKEND_BASE)
        wait_port(FRONT_BASE + len(all_cases) - 1)
        version = subprocess.run(["haproxy", "-v"], capture_output=True, text=True).stdout.split("\n")[0]
        keys = lb_keys()
        fixture = {
            "produced_by": "%s (Debian package haproxy %s)" % (version.split(" - ")[0], deb_version("haproxy")),
            "notes": "Each case's config is a backend section with `balance hdr(X-Key)`; a real HAProxy "
                     "forwarded one GET per key with the key's UTF-8 bytes in the X-Key header to servers "
                     "that answer their own address. answers[i] is the index (in config order) of the "
                     "server that answered keys[i]; extra holds [key, index] for keys made for that case "
                     "(crc32 and sdbm, with or without avalanche) whose hash is exactly a point, one "
                     "off it, or the exact "
                     "midpoint between two points and one after it. puids are the server ids HAProxy "
                     "assigned, as its model computes them (checked by the answers).",
            "keys": keys,
            "cases": [],
        }
        for i, (name, hash_type, srvs) in enumerate(all_cases):
            model = Model(hash_type, srvs)
            extra = crafted_keys(model)
            conn = http.client.HTTPConnection("127.0.0.1", FRONT_BASE + i, timeout=10)
            index = {a: n for n, (_, a, _) in enumerate(srvs)}
            answers, extras, mismatches = [], [], 0
            for k in keys + extra:
                got = index[ask(conn, k)]
                want = model.pick(k)
                if want != got:
                    mismatches += 1
                    if mismatches < 5:
                        log("haproxy model disagrees: case %r key %r: haproxy %d, model %d" % (name, k, got, want))
                if len(answers) < len(keys):
                    answers.append(got)
                else:
                    extras.append([k, got])
            conn.close()
            if mismatches:
                raise SystemExit("haproxy: the model disagrees on %d keys of case %r" % (mismatches, name))
            log("haproxy %-55s %d keys + %d crafted" % (name, len(keys), len(extra)))
            fixture["cases"].append({
                "name": name,
                "config": backend_text("app", hash_type, srvs),
                "servers": [s for s, _, _ in srvs],
                "puids": puids(srvs),
                "answers": answers,
                "extra": extras,
            })
        write_fixture("haproxy.json", fixture)
    finally:
        stop(haproxy, signal.SIGUSR1)
        stop(backends, signal.SIGQUIT)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
