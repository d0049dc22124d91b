"""twemproxy.json: which memcached server a real twemproxy (nutcracker) puts each key on.

Starts memcached servers on loopback (127.0.0.1:21211-21214, and 127.0.0.1-3 on port 11211
for the default-port cases) and one nutcracker whose nutcracker.yml holds one pool per case,
each pool listening on its own 127.0.0.1 port (stats on 127.0.0.1 too). For each case: every
backend is emptied (flush_all), every key is SET through the pool's port, then every backend
is asked directly (GET) which keys it holds: the one that holds a key is twemproxy's choice.
A key found on no backend or on two fails the run. Every process is stopped before exit.

The fixture keeps, per case, the pool's own YAML text (what ringlab's `twemproxy` import
reads), the servers as ringlab names them (the `name` if given, else host:port), and each
key's server. `nutcracker_yml` is the whole file, several pools, for the `pool` option.
"""

import os
import signal
import socket
import subprocess
import tempfile
import time

from common import deb_version, log, write_fixture
from keys import all_keys

POOL_BASE = int(os.environ.get("TWEMPROXY_POOL_BASE_PORT", "22200"))
STATS_PORT = int(os.environ.get("TWEMPROXY_STATS_PORT", "22299"))
MEMCACHED_BASE = int(os.environ.get("TWEMPROXY_MEMCACHED_BASE_PORT", "21211"))
HASHES = ["one_at_a_time", "md5", "crc16", "crc32", "crc32a", "fnv1_64", "fnv1a_64", "fnv1_32",
          "fnv1a_32", "hsieh", "murmur", "jenkins"]
KEY_COUNT = 400


def memcached_safe(key):
    b = key.encode("utf-8")
    return 1 <= len(b) <= 250 and all(c > 0x20 and c != 0x7F for c in b)


def fixture_keys():
    safe = [k for k in all_keys() if memcached_safe(k)]
    # Edge keys first (non-ASCII, every tail length), then a spread of the rest.
    edges, rest = safe[:150], safe[150:]
    step = max(1, len(rest) // (KEY_COUNT - len(edges)))
    keys = edges + rest[::step][:KEY_COUNT - len(edges)]
    # Hash-tag keys: a tag, an empty tag, no closing brace, two tags, a non-ASCII tag.
    tags = ["user:{42}:name", "user:{42}:mail", "{}empty", "open{only", "{a}{b}", "x{日本}y",
            "{user:7}", "a}b{c}", "{{x}}", "}{"]
    for i in range(30):
        tags.append("order:{%d}:item:%d" % (i % 5, i))
    return keys + [t for t in tags if t not in keys]


def mc_addr(i):
    return ("127.0.0.1", MEMCACHED_BASE + i)


def cases():
    """(name, pool lines without listen, [(host, port, weight, name or None)])"""
    four = [("127.0.0.1", MEMCACHED_BASE + i, 1, None) for i in range(4)]
    out = []
    for dist in ("ketama", "modula"):
        for h in HASHES:
            out.append(("%s %s" % (dist, h), ["distribution: %s" % dist, "hash: %s" % h], four))
    weights = [("127.0.0.1", MEMCACHED_BASE + i, w, None) for i, w in enumerate([1, 2, 3, 5])]
    out += [
        ("defaults (ketama, fnv1a_64)", [], four),
        ("ketama, weights 1 2 3 5", ["distribution: ketama"], weights),
        ("modula md5, weights 1 2 3 5", ["distribution: modula", "hash: md5"], weights),
        ("modula fnv1a_64, servers listed out of order",
         ["distribution: modula", "hash: fnv1a_64"], [four[3], four[0], four[2], four[1]]),
        ("ketama murmur, named servers",
         ["distribution: ketama", "hash: murmur"],
         [("127.0.0.1", MEMCACHED_BASE + i, 1, n) for i, n in enumerate(["delta", "b", "cache-c", "alpha"])]),
        ("modula fnv1a_64, named servers (sorted by name length, then bytes)",
         ["distribution: modula", "hash: fnv1a_64"],
         [("127.0.0.1", MEMCACHED_BASE + i, w, n)
          for i, (n, w) in enumerate([("delta", 1), ("b", 2), ("cache-c", 1), ("alpha", 3)])]),
        ("ketama, default port 11211 (names drop it)",
         ["distribution: ketama", "hash: fnv1a_64"],
         [("127.0.0.2", 11211, 1, None), ("127.0.0.3", 11211, 1, None), ("127.0.0.1", 11211, 1, None),
          ("127.0.0.1", MEMCACHED_BASE, 1, None)]),
        ("modula crc32a, default port 11211",
         ["distribution: modula", "hash: crc32a"],
         [("127.0.0.2", 11211, 1, None), ("127.0.0.3", 11211, 1, None), ("127.0.0.1", 11211, 2, None),
          ("127.0.0.1", MEMCACHED_BASE, 1, None)]),
        ("ketama md5, hash_tag {}", ["distribution: ketama", "hash: md5", 'hash_tag: "{}"'], four),
        ("modula one_at_a_time, hash_tag {}", ["distribution: modula", "hash: one_at_a_time", 'hash_tag: "{}"'],
         four),
        ("ketama crc32, weights 1 2 3 5 (15-bit hash)", ["distribution: ketama", "hash: crc32"], weights),
        ("ketama hsieh, 2 servers", ["distribution: ketama", "hash: hsieh"], four[:2]),
        ("modula jenkins, 3 servers", ["distribution: modula", "hash: jenkins"], four[:3]),
        ("one server", ["distribution: ketama"], four[:1]),
    ]
    return out


def pool_text(index, lines, servers):
    text = ["pool%d:" % index, "  listen: 127.0.0.1:%d" % (POOL_BASE + index)]
    text += ["  " + l for l in lines]
    text += ["  auto_eject_hosts: false", "  servers:"]
    for host, port, weight, name in servers:
        text.append("   - %s:%d:%d%s" % (host, port, weight, " " + name if name else ""))
    return "\n".join(text) + "\n"


def ringlab_name(host, port, name):
    return name if name else "%s:%d" % (host, port)


class Conn:
    def __init__(self, addr):
        self.sock = socket.create_connection(addr, timeout=10)
        self.buf = b""

    def line(self):
        while b"\r\n" not in self.buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise IOError("connection closed")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\r\n", 1)
        return line

    def exact(self, n):
        while len(self.buf) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise IOError("connection closed")
            self.buf += chunk
        data, self.buf = self.buf[:n], self.buf[n:]
        return data

    def send(self, data):
        self.sock.sendall(data)

    def close(self):
        self.sock.close()


def set_all(addr, keys):
    c = Conn(addr)
    for k in keys:
        b = k.encode("utf-8")
        c.send(b"set " + b + b" 0 0 1\r\nx\r\n")
        reply = c.line()
        if reply != b"STORED":
            raise RuntimeError("set %r through %s: %r" % (k, addr, reply))
    c.close()


def held(addr, keys):
    """The keys (of `keys`) the memcached at addr holds."""
    c = Conn(addr)
    out = set()
    for k in keys:
        c.send(b"get " + k.encode("utf-8") + b"\r\n")
        line = c.line()
        if line.startswith(b"VALUE "):
            n = int(line.split()[-1])
            c.exact(n + 2)
            if c.line() != b"END":
                raise RuntimeError("bad get reply")
            out.add(k)
        elif line != b"END":
            raise RuntimeError("get %r: %r" % (k, line))
    c.close()
    return out


def flush(addr):
    c = Conn(addr)
    c.send(b"flush_all\r\n")
    if c.line() != b"OK":
        raise RuntimeError("flush_all")
    c.close()


def wait_port(host, port, timeout=10.0):
    end = time.time() + timeout
    while time.time() < end:
        try:
            socket.create_connection((host, port), timeout=0.5).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError("nothing listens on %s:%d" % (host, port))


def main():
    version = subprocess.run(["nutcracker", "--version"], capture_output=True, text=True)
    produced = (version.stdout + version.stderr).strip().splitlines()[0]
    produced += " (Debian nutcracker %s), memcached %s" % (deb_version("nutcracker"), deb_version("memcached"))
    keys = fixture_keys()
    all_cases = cases()
    backends = sorted({(h, p) for _, _, servers in all_cases for h, p, _, _ in servers})
    tmp = tempfile.mkdtemp(prefix="ringlab-twemproxy-")
    procs = []
    try:
        for host, port in backends:
            procs.append(subprocess.Popen(["memcached", "-u", "root", "-l", host, "-p", str(port), "-U", "0",
                                           "-m", "16"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        for host, port in backends:
            wait_port(host, port)
        texts = [pool_text(i, lines, servers) for i, (_, lines, servers) in enumerate(all_cases)]
        conf = os.path.join(tmp, "nutcracker.yml")
        with open(conf, "w") as f:
            f.write("".join(texts))
        test = subprocess.run(["nutcracker", "-t", "-c", conf], capture_output=True, text=True)
        if test.returncode != 0:
            raise RuntimeError("nutcracker -t: " + test.stdout + test.stderr)
        nut = subprocess.Popen(["nutcracker", "-c", conf, "-a", "127.0.0.1", "-s", str(STATS_PORT),
                                "-o", os.path.join(tmp, "nutcracker.log"), "-p", os.path.join(tmp, "nc.pid")],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        procs.append(nut)
        for i in range(len(all_cases)):
            wait_port("127.0.0.1", POOL_BASE + i)
        out_cases = []
        for i, (name, lines, servers) in enumerate(all_cases):
            for b in backends:
                flush(b)
            set_all(("127.0.0.1", POOL_BASE + i), keys)
            names = [ringlab_name(h, p, n) for h, p, _, n in servers]
            where = {}
            for idx, (h, p, _, _) in enumerate(servers):
                for k in held((h, p), keys):
                    if k in where:
                        raise RuntimeError("%s: %r on two servers" % (name, k))
                    where[k] = idx
            missing = [k for k in keys if k not in where]
            if missing:
                raise RuntimeError("%s: %d keys on no server, e.g. %r" % (name, len(missing), missing[:3]))
            answers = [where[k] for k in keys]
            counts = [answers.count(j) for j in range(len(servers))]
            log("%-60s %s" % (name, counts))
            out_cases.append({"name": name, "config": texts[i], "servers": names, "answers": answers})
        write_fixture("twemproxy.json", {
            "produced_by": produced,
            "notes": "Each key SET through the pool's port, then found by GET on each memcached directly.",
            "keys": keys,
            "nutcracker_yml": "".join(texts),
            "cases": out_cases,
        })
    finally:
        for p in procs:
            p.send_signal(signal.SIGTERM)
        for p in procs:
            try:
                p.wait(timeout=5)
            except subprocess.TimeoutExpired:
                p.kill()


if __name__ == "__main__":
    main()
