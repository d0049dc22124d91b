"""redis_cluster.json: key slots and slot topologies from a real Redis Cluster on loopback.

Starts redis-server instances bound to loopback addresses only (ports REDIS_BASE_PORT.., cluster
bus +10000), asks the servers for CLUSTER KEYSLOT of every key, then for each master count
builds a cluster with `redis-cli --cluster create`, adds an empty master with
`redis-cli --cluster add-node` + `rebalance --cluster-use-empty-masters`, and removes
master 0 with `rebalance --cluster-weight <id>=0` + `del-node`. The multi-IP cases bind
127.0.0.2, 127.0.0.3 (and ::1) too, to see the order `create` hands out slot ranges in.
Every instance it started is stopped before it exits (also on SIGINT/SIGTERM).
"""

import math
import os
import re
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time

from common import deb_version, log, ranges, write_fixture
from keys import all_keys

NSLOTS = 16384
BASE = int(os.environ.get("REDIS_BASE_PORT", "30001"))
MASTER_COUNTS = [3, 4, 5, 7]
HASH_TAG_KEYS = [
    "{user1000}.following", "{user1000}.followers", "foo{}{bar}", "foo{{bar}}zap",
    "foo{bar}{zap}", "{}", "{", "}", "}{", "{{}}", "a{b}c", "{a}", "{a", "a}",
    "{ключ}.x", "x.{日本}.y", "{}{x}", "{x}{}", "foo{bar}", "bar",
]

PIDFILE = os.environ.get("REDIS_PIDFILE")  # generate.sh reads it in its exit trap
procs = {}  # (ip, port) -> Popen


# ---------------------------------------------------------------- tiny RESP client
class Resp:
    def __init__(self, port, ip="127.0.0.1"):
        self.sock = socket.create_connection((ip, port), timeout=10)
        self.buf = b""

    def close(self):
        self.sock.close()

    def _line(self):
        while b"\r\n" not in self.buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("connection closed")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\r\n", 1)
        return line

    def _exact(self, n):
        while len(self.buf) < n + 2:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("connection closed")
            self.buf += chunk
        data, self.buf = self.buf[:n], self.buf[n + 2:]
        return data

    def read(self):
        line = self._line()
        t, rest = line[:1], line[1:]
        if t == b"+":
            return rest.decode()
        if t == b"-":
            raise RuntimeError("redis error: " + rest.decode())
        if t == b":":
            return int(rest)
        if t == b"$":
            n = int(rest)
            return None if n < 0 else self._exact(n)
        if t == b"*":
            n = int(rest)
            return None if n < 0 else [self.read() for _ in range(n)]
        raise RuntimeError("bad RESP reply: %r" % line)

    @staticmethod
    def encode(args):
        args = [a if isinstance(a, bytes) else str(a).encode() for a in args]
        out = [b"*%d\r\n" % len(args)]
        for a in args:
            out.append(b"$%d\r\n%s\r\n" % (len(a), a))
        return b"".join(out)

    def call(self, *args):
        self.sock.sendall(self.encode(args))
        return self.read()

    def pipeline(self, commands):
        self.sock.sendall(b"".join(self.encode(c) for c in commands))
        return [self.read() for _ in commands]

    def pipeline_errors_as_text(self, commands):
        self.sock.sendall(b"".join(self.encode(c) for c in commands))
        out = []
        for _ in commands:
            try:
                out.append(self.read())
            except RuntimeError as e:  # read() consumed the error line
                out.append(str(e))
        return out


# ---------------------------------------------------------------- process control
def port_free(port, ip="127.0.0.1"):
    with socket.socket(socket.AF_INET6 if ":" in ip else socket.AF_INET) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((ip, port))
            return True
        except OSError:
            return False


def save_pids():
    if PIDFILE:
        with open(PIDFILE, "w") as f:
            f.write("".join("%d\n" % p.pid for p in procs.values() if p.poll() is None))


def start(port, workdir, ip="127.0.0.1"):
    for p in (port, port + 10000):
        if not port_free(p, ip):
            raise SystemExit("port %d on %s is in use; set REDIS_BASE_PORT" % (p, ip))
    d = os.path.join(workdir, "%s-%d" % (ip, port))
    os.makedirs(d)
    procs[(ip, port)] = subprocess.Popen(
        # Without a source address and an announced ip, a server on 127.0.0.2 reaches its
        # peers from 127.0.0.1 and they take it for the 127.0.0.1 server of that port.
        ["redis-server", "--port", str(port), "--bind", ip, "--protected-mode", "yes",
         "--bind-source-addr", ip, "--cluster-announce-ip", ip,
         "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
         "--cluster-node-timeout", "5000", "--dir", d, "--save", "", "--appendonly", "no",
         "--daemonize", "no", "--logfile", os.path.join(d, "redis.log")],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    save_pids()
    for _ in range(200):
        try:
            c = Resp(port, ip)
            c.call("PING")
            c.close()
            return
        except OSError:
            time.sleep(0.05)
    raise SystemExit("redis-server on %s port %d did not start" % (ip, port))


def stop_all():
    for key, p in list(procs.items()):
        if p.poll() is None:
            p.terminate()
    for key, p in list(procs.items()):
        try:
            p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
        del procs[key]
    save_pids()


def cli(*args, timeout=180):
    cmd = ["redis-cli"] + [str(a) for a in args]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                       stdin=subprocess.DEVNULL)
    if r.returncode != 0:
        raise RuntimeError("%s failed (%d):\n%s\n%s" % (" ".join(cmd), r.returncode, r.stdout,
                                                         r.stderr))
    return r.stdout


# ---------------------------------------------------------------- cluster state
def cluster_nodes(port):
    """{node_id: (port, is_master, sorted slot list)} as `port` sees the cluster."""
    c = Resp(port)
    text = c.call("CLUSTER", "NODES").decode()
    c.close()
    out = {}
    for line in text.strip().splitlines():
        f = line.split()
        node_id, addr, flags = f[0], f[1], f[2].split(",")
        if "noaddr" in flags or "handshake" in flags:
            continue
        p = int(addr.split("@")[0].rsplit(":", 1)[1])
        slots = []
        for tok in f[8:]:
            if tok.startswith("["):
                continue  # importing/migrating marker
            a, _, b = tok.partition("-")
            slots.extend(range(int(a), int(b or a) + 1))
        out[node_id] = (p, "master" in flags, sorted(slots))
    return out


def cli_node_order(port, order):
    """The order in which redis-cli's cluster manager lists the nodes when `port` is the
    entry node (clusterManagerLoadInfoFromNode: the entry node, then the other lines of its
    CLUSTER NODES reply in reply order), as indices into `order`."""
    c = Resp(port)
    text = c.call("CLUSTER", "NODES").decode()
    c.close()
    rest = []
    for line in text.strip().splitlines():
        f = line.split()
        p = int(f[1].split("@")[0].rsplit(":", 1)[1])
        if "myself" not in f[2].split(","):
            rest.append(order.index(p))
    return [order.index(port)] + rest


def converged(ports, timeout=60):
    """Wait until every node in `ports` reports the same node set and slot map; return it."""
    deadline = time.time() + timeout
    while True:
        views = [cluster_nodes(p) for p in ports]
        if all(v == views[0] for v in views) and len(views[0]) == len(ports):
            owned = sum(len(s) for _, _, s in views[0].values())
            if owned == NSLOTS:
                return views[0]
        if time.time() > deadline:
            raise RuntimeError("cluster did not converge: %r" % views)
        time.sleep(0.2)


def owner_array(view, order):
    """slot -> index into `order` (a list of ports)."""
    owner = [None] * NSLOTS
    for _, (port, _, slots) in view.items():
        for s in slots:
            owner[s] = order.index(port)
    assert None not in owner
    return owner


def ranges_per_master(owner, n):
    per = [[] for _ in range(n)]
    for s, i in enumerate(owner):
        per[i].append(s)
    return [ranges(s) for s in per]


def moved(before, after):
    pairs = {}
    for s in range(NSLOTS):
        if before[s] != after[s]:
            pairs.setdefault((before[s], after[s]), []).append(s)
    return [{"from": a, "to": b, "ranges": ranges(v)} for (a, b), v in sorted(pairs.items())]


def moving(out):
    return re.findall(r"Moving \d+ slots from \S+ to \S+", out)


def id_of(view, port):
    return next(i for i, (p, _, _) in view.items() if p == port)


# ---------------------------------------------------------------- redis-cli's arithmetic, re-done
# Used only to check that the README's description of redis-cli (7.0.15, src/redis-cli.c)
# reproduces what the real tool did; the fixture holds what the real tool did.
def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def create_model(n):
    """clusterManagerCommandCreate: float slots_per_node = 16384/(float)n; float cursor;
    last = lround(cursor + slots_per_node - 1), the last master takes up to 16383."""
    spn = f32(NSLOTS / f32(n))
    first, cursor, out = 0, f32(0.0), []
    for i in range(n):
        x = f32(cursor + spn)
        x = f32(x - 1)
        last = int(math.floor(x + 0.5)) if x >= 0 else -int(math.floor(-x + 0.5))  # lround
        if last > NSLOTS or i == n - 1:
            last = NSLOTS - 1
        last = max(last, first)
        out.append([[first, last]])
        first = last + 1
        cursor = f32(cursor + spn)
    return out


def create_host_model(addr):
    """parseClusterNodeAddress: cut at the last '@' (bus port), then the ip is the text
    before the last ':' (so "::1:7000" gives "::1"); no ':' is an invalid address."""
    addr = addr.rsplit("@", 1)[0]
    if ":" not in addr:
        raise ValueError("Invalid address format: " + addr)
    return addr.rsplit(":", 1)[0]


def create_order_model(addrs):
    """clusterManagerCommandCreate: nodes grouped by ip (strcmp, in order of first
    appearance), then one node from each group in turn; the first masters_count of that
    interleaved list are the masters, given the slot ranges in that order."""
    ips, groups = [], []
    for i, a in enumerate(addrs):
        ip = create_host_model(a)
        if ip not in ips:
            ips.append(ip)
            groups.append([])
        groups[ips.index(ip)].append(i)
    out = []
    while len(out) < len(addrs):
        for g in groups:
            if g:
                out.append(g.pop(0))
    return out


def rebalance_model(owner, cli_order, weights, use_empty):
    """clusterManagerCommandRebalance, on the slot owner array; returns the new owner array."""
    owner = list(owner)
    count = {i: owner.count(i) for i in cli_order}
    involved = [i for i in cli_order if use_empty or count[i] > 0]
    total_weight = f32(0.0)
    for i in involved:
        total_weight = f32(total_weight + weights.get(i, 1.0))
    balance, total_balance = {}, 0
    for i in involved:
        expected = int(f32(f32(NSLOTS / total_weight) * f32(weights.get(i, 1.0))))
        balance[i] = count[i] - expected
        total_balance += balance[i]
    while total_balance > 0:
        for i in involved:
            if balance[i] <= 0 and total_balance > 0:
                balance[i] -= 1
                total_balance -= 1
    nodes = sorted(involved, key=lambda i: balance[i])  # glibc qsort (merge sort): stable
    dst_idx, src_idx = 0, len(nodes) - 1
    while dst_idx < src_idx:
        dst, src = nodes[dst_idx], nodes[src_idx]
        num = min(abs(balance[dst]), abs(balance[src]))
        if num > 0:  # clusterManagerComputeReshardTable, one source: its lowest `num` slots
            for s in [s for s in range(NSLOTS) if owner[s] == src][:num]:
                owner[s] = dst
        balance[dst] += num
        balance[src] -= num
        if balance[dst] == 0:
            dst_idx += 1
        if balance[src] == 0:
            src_idx -= 1
    return owner


# ---------------------------------------------------------------- the two parts
def keyslots(port):
    keys = []
    seen = set()
    for k in HASH_TAG_KEYS + all_keys():
        if k not in seen:
            seen.add(k)
            keys.append(k)
    c = Resp(port)
    slots = c.pipeline([("CLUSTER", "KEYSLOT", k.encode("utf-8")) for k in keys])
    c.close()
    # Cross-check a few through redis-cli itself (argv cannot carry NUL bytes).
    for k in ["{user1000}.following", "foo{{bar}}zap", "ключ", "123456789", ""]:
        via_cli = int(cli("-p", port, "CLUSTER", "KEYSLOT", k).strip())
        assert via_cli == slots[keys.index(k)], k
    assert slots[keys.index("123456789")] == 0x31C3 % NSLOTS  # spec: CRC16("123456789")=0x31C3
    return [{"key": k, "slot": s} for k, s in zip(keys, slots)]


def topology(n, workdir):
    ports = [BASE + i for i in range(n)]
    new_port = BASE + n
    for p in ports + [new_port]:
        start(p, workdir)
    log("redis: --cluster create with %d masters" % n)
    cli("--cluster", "create", *["127.0.0.1:%d" % p for p in ports],
        "--cluster-replicas", "0", "--cluster-yes")
    view = converged(ports)
    order = list(ports)
    created = owner_array(view, order)
    result = {"masters": n, "create": ranges_per_master(created, n)}
    assert result["create"] == create_model(n), (result["create"], create_model(n))

    log("redis: add-node 127.0.0.1:%d and rebalance --cluster-use-empty-masters" % new_port)
    cli("--cluster", "add-node", "127.0.0.1:%d" % new_port, "127.0.0.1:%d" % ports[0])
    order.append(new_port)
    deadline = time.time() + 60
    while not all(len(cluster_nodes(p)) == n + 1 for p in order):
        if time.time() > deadline:
            raise RuntimeError("new node did not join")
        time.sleep(0.2)
    cli("--cluster", "check", "127.0.0.1:%d" % ports[0])
    add_order = cli_node_order(ports[0], order)
    rebalance_out = cli("--cluster", "rebalance", "127.0.0.1:%d" % ports[0],
                        "--cluster-use-empty-masters", "--cluster-yes")
    view = converged(order)
    added = owner_array(view, order)
    result["after_add"] = {"ranges": ranges_per_master(added, n + 1), "moved": moved(created, added),
                           "cli_node_order": add_order, "redis_cli_log": moving(rebalance_out)}
    assert all(m["to"] == n for m in result["after_add"]["moved"])
    assert rebalance_model(created, add_order, {}, True) == added

    victim = 0
    vid = id_of(view, order[victim])
    log("redis: drain master 0 (%s) with --cluster-weight %s=0, then del-node" % (order[victim], vid))
    rm_order = cli_node_order(order[1], order)
    rebalance_out = cli("--cluster", "rebalance", "127.0.0.1:%d" % order[1],
                        "--cluster-weight", "%s=0" % vid, "--cluster-yes")
    view = converged(order)
    drained = owner_array(view, order)
    assert victim not in drained
    cli("--cluster", "del-node", "127.0.0.1:%d" % order[1], vid)
    rest = [p for p in order if p != order[victim]]
    view = converged(rest)
    final = owner_array(view, order)
    assert final == drained
    result["after_remove"] = {"removed": victim, "ranges": ranges_per_master(final, n + 1),
                              "moved": moved(added, final), "cli_node_order": rm_order,
                              "redis_cli_log": moving(rebalance_out)}
    assert rebalance_model(added, rm_order, {victim: 0.0}, False) == drained
    stop_all()
    return result


# Masters on several IPs, in `create` argument order; then one added on 127.0.0.3.
def multi_ip_cases():
    a, b, c = BASE, BASE + 1, BASE + 2
    return [
        ["127.0.0.1:%d" % a, "127.0.0.1:%d" % b, "127.0.0.2:%d" % a, "127.0.0.2:%d" % b],
        ["127.0.0.1:%d" % a, "127.0.0.1:%d" % b, "127.0.0.2:%d" % a, "127.0.0.2:%d" % b,
         "127.0.0.3:%d" % a, "127.0.0.3:%d" % b],
        ["127.0.0.1:%d" % a, "127.0.0.1:%d" % b, "127.0.0.1:%d" % c, "127.0.0.2:%d" % a],
        ["127.0.0.1:%d" % a, "127.0.0.2:%d" % a, "127.0.0.1:%d" % b, "127.0.0.3:%d" % a,
         "127.0.0.2:%d" % b, "127.0.0.1:%d" % c],
        ["::1:%d" % a, "::1:%d" % b, "127.0.0.1:%d" % a, "127.0.0.2:%d" % a],
    ]


def split_addr(addr):
    ip, port = addr.rsplit(":", 1)
    return ip, int(port)


def addr_view(addr):
    """{node_id: (ip:port, is_master, sorted slot list)} as `addr` sees the cluster."""
    c = Resp(*reversed(split_addr(addr)))
    text = c.call("CLUSTER", "NODES").decode()
    c.close()
    out = {}
    for line in text.strip().splitlines():
        f = line.split()
        flags = f[2].split(",")
        slots = []
        for tok in f[8:]:
            if not tok.startswith("["):
                lo, _, hi = tok.partition("-")
                slots.extend(range(int(lo), int(hi or lo) + 1))
        out[f[0]] = (f[1].split("@")[0], "master" in flags, sorted(slots), "myself" in flags)
    return out


def addr_converged(addrs, timeout=60):
    deadline = time.time() + timeout
    while True:
        views = [{k: v[:3] for k, v in addr_view(a).items()} for a in addrs]
        if (all(v == views[0] for v in views) and sorted(x[0] for x in views[0].values()) == sorted(addrs)
                and sum(len(x[2]) for x in views[0].values()) == NSLOTS):
            owner = [None] * NSLOTS
            for a, _, slots in views[0].values():
                for s in slots:
                    owner[s] = addrs.index(a)
            return owner
        if time.time() > deadline:
            raise RuntimeError("cluster did not converge: %r" % views)
        time.sleep(0.2)


OWNER_KEYS = ["user:%d" % i for i in range(200)]


def owners(entry):
    """The master each key's GET reaches from `entry`: itself, or its MOVED target."""
    c = Resp(*reversed(split_addr(entry)))
    deadline = time.time() + 60
    while b"cluster_state:ok" not in c.call("CLUSTER", "INFO"):
        if time.time() > deadline:
            raise RuntimeError("%s: cluster_state never ok" % entry)
        time.sleep(0.2)
    replies = c.pipeline_errors_as_text([("GET", k) for k in OWNER_KEYS])
    c.close()
    out = []
    for k, r in zip(OWNER_KEYS, replies):
        if r is None:
            out.append(entry)
        else:
            m = re.fullmatch(r"redis error: MOVED \d+ (\S+)", r)
            assert m, (k, r)
            out.append(m.group(1))
    return out


def multi_ip(addrs, workdir):
    new = "127.0.0.3:%d" % (BASE + 7)
    for a in addrs + [new]:
        ip, port = split_addr(a)
        start(port, workdir, ip)
    log("redis: --cluster create %s" % " ".join(addrs))
    out = cli("--cluster", "create", *addrs, "--cluster-replicas", "0", "--cluster-yes")
    created = addr_converged(addrs)
    n = len(addrs)
    case = {"nodes": addrs, "ranges": ranges_per_master(created, n),
            "master_log": re.findall(r"Master\[\d+\] -> Slots \d+ - \d+", out),
            "owners": owners(addrs[0])}
    interleaved = create_order_model(addrs)
    model = [None] * n
    for k, i in enumerate(interleaved):
        model[i] = create_model(n)[k]
    assert case["ranges"] == model, (case["ranges"], model)
    slot = {k["key"]: k["slot"] for k in KEYSLOTS}
    assert case["owners"] == [addrs[created[slot[k]]] for k in OWNER_KEYS]

    log("redis: add-node %s and rebalance --cluster-use-empty-masters" % new)
    cli("--cluster", "add-node", new, addrs[0])
    everyone = addrs + [new]
    deadline = time.time() + 60
    while not all(len(addr_view(a)) == n + 1 for a in everyone):
        if time.time() > deadline:
            raise RuntimeError("new node did not join")
        time.sleep(0.2)
    cli("--cluster", "check", addrs[0])
    view = addr_view(addrs[0])
    add_order = [everyone.index(v[0]) for v in view.values() if v[3]]
    add_order += [everyone.index(v[0]) for v in view.values() if not v[3]]
    cli("--cluster", "rebalance", addrs[0], "--cluster-use-empty-masters", "--cluster-yes")
    added = addr_converged(everyone)
    case["after_add"] = {"node": new, "ranges": ranges_per_master(added, n + 1),
                         "cli_node_order": add_order}
    # Only the new node receives, so redis-cli's node order does not matter here.
    assert rebalance_model(created, add_order, {}, True) == added
    assert rebalance_model(created, list(range(n + 1)), {}, True) == added
    stop_all()
    return case


KEYSLOTS = []


def main():
    def on_signal(signum, frame):
        raise SystemExit("signal %d" % signum)
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)

    cli_version = cli("--version").split()[1]
    server_version = subprocess.run(["redis-server", "--version"], capture_output=True,
                                    text=True).stdout.split()[2].split("=")[1]
    workdir = tempfile.mkdtemp(prefix="ringlab-redis-")
    try:
        fixture = {
            "produced_by": "redis-cli %s (Debian package redis-tools %s; slots computed by "
                           "redis-server %s, Debian package redis-server %s)"
                           % (cli_version, deb_version("redis-tools"), server_version,
                              deb_version("redis-server")),
            "notes": "keyslots: CLUSTER KEYSLOT answered by a cluster-enabled redis-server; key "
                     "bytes are the UTF-8 encoding of key. topologies: master indices are "
                     "positions in the `redis-cli --cluster create` argument order; index "
                     "`masters` is the node added by add-node + rebalance "
                     "--cluster-use-empty-masters; after_remove drains master `removed` with "
                     "rebalance --cluster-weight <id>=0, then del-node (its ranges are []). "
                     "Ranges are inclusive [first, last]. cli_node_order: the order in which "
                     "redis-cli listed the masters for that rebalance (entry node first, then "
                     "the entry node's CLUSTER NODES reply order); it depends on random node "
                     "ids, and it decides which master gives one slot more or less on ties. "
                     "redis_cli_log is redis-cli's own 'Moving N slots from A to B' lines. "
                     "multi_ip: `create` of `nodes` (in that argument order) bound to several "
                     "loopback IPs; ranges per node in that order; master_log is create's "
                     "'Master[i] -> Slots' lines; owners are the masters GET user:0..user:199 "
                     "reached from nodes[0] (itself or its MOVED target); after_add adds `node` "
                     "with add-node + rebalance --cluster-use-empty-masters.",
        }
        log("redis: keyslots")
        start(BASE, workdir)
        fixture["keyslots"] = keyslots(BASE)
        KEYSLOTS.extend(fixture["keyslots"])
        stop_all()
        shutil.rmtree(workdir)
        os.makedirs(workdir)
        fixture["topologies"] = []
        for n in MASTER_COUNTS:
            fixture["topologies"].append(topology(n, workdir))
            shutil.rmtree(workdir)
            os.makedirs(workdir)
        fixture["multi_ip"] = []
        for addrs in multi_ip_cases():
            fixture["multi_ip"].append(multi_ip(addrs, workdir))
            shutil.rmtree(workdir)
            os.makedirs(workdir)
        write_fixture("redis_cluster.json", fixture)
    finally:
        stop_all()
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
