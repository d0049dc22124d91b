"""Fixtures from the real cache-client libraries: which server each key goes to.

Run with Debian's python3 (the Python libraries are Debian packages):

    python3 gen_clients.py NODE_MODULES SPY_CLASSES [REDIS_RB5_LIB REDIS_CLIENT_LIB]

Writes one fixture per library (fixtures/<library>.json), each holding the key set once and,
per case, the servers as that client is configured, the same servers as ringlab's nodes
(name, weight), and each key's server (an index into the nodes; null where the library
refuses the key). The libraries answer through their own "which server" code:

* pymemcache: `HashClient(servers).hasher.get_node(key)` (no connection is made);
* python-memcached: `Client(servers)._get_server(key)`, which connects: real memcached servers
  are started on 127.0.0.1 (ports 11211 and 21211-21213) and stopped at the end;
* uhashring: `HashRing(nodes, ...).get_node(key)`;
* Dalli, redis-rb: ruby_ring.rb (Debian's Ruby; redis-rb 5.x from a source tree, see README);
* spymemcached: SpyRing.java (Debian's jar, Java 17);
* the npm memcached client's hashring, memjs: npm_ring.js.

No model is re-computed here: the fixtures are the libraries' answers, and
tests/native/real_clients.rs compares ringlab with every one of them.
"""

import json
import os
import signal
import socket
import subprocess
import sys
import time

import keys as keyset
from common import deb_version, log, write_fixture

HERE = os.path.dirname(os.path.abspath(__file__))


def client_keys():
    """Edge keys (non-ASCII, empty, long, NUL), 400 user keys, 400 random UTF-8 keys,
    Redis::Distributed hash-tag keys and long non-ASCII keys; no duplicates."""
    tags = ["{user%d}:profile" % i for i in range(20)] + ["{user%d}:cart" % i for i in range(20)]
    tags += ["a\n{b}c", "{}x}", "{}", "x{y}", "{a\nb}", "{日本}:k", "{🔑}", "\n{z}"]
    # Around Dalli's 250-character limit, counted in characters, not bytes.
    tags += ["a" * 250, "a" * 251, "é" * 260, "日本" * 130, "🔑" * 251]
    out, seen = [], set()
    for k in keyset.edge_keys() + ["user:%d" % i for i in range(400)] + keyset.random_keys(400) + tags:
        if k not in seen:
            seen.add(k)
            out.append(k)
    return out


KEYS = client_keys()


def hexkeys():
    return "".join(k.encode("utf-8").hex() + "\n" for k in KEYS)


def run_lines(cmd, env=None):
    out = subprocess.run(cmd, input=hexkeys(), capture_output=True, text=True, check=True,
                         env=env).stdout.splitlines()
    version = next(l[2:] for l in out if l.startswith("V "))
    owners = [None if l[2:] == "-" else int(l[2:]) for l in out if l.startswith("K ")]
    assert len(owners) == len(KEYS), (cmd, len(owners))
    return version, owners, [l[2:] for l in out if l.startswith("N ")]


def case(algorithm, config, nodes, owners, **extra):
    assert all(o is None or 0 <= o < len(nodes) for o in owners)
    return dict(algorithm=algorithm, config=config, **extra,
                nodes=[[n, w] for n, w in nodes], owners=owners)


def fixture(name, produced_by, cases):
    write_fixture(name, {"produced_by": produced_by, "keys": KEYS, "cases": cases})


# ------------------------------------------------------------------ pymemcache
def pymemcache():
    from pymemcache.client.base import normalize_server_spec
    from pymemcache.client.hash import HashClient
    import pymemcache as pm
    configs = [
        ["127.0.0.1:11211", "127.0.0.1:11212", "127.0.0.2:11211"],
        ["127.0.0.2:11211", "127.0.0.1:11212", "127.0.0.1:11211"],
        ["cache-a", "cache-b:11211", "[::1]:11212", "unix:/tmp/memcached.sock"],
        ["10.0.0.%d:11211" % i for i in range(1, 11)],
        ["solo:11211"],
    ]
    cases = []
    for servers in configs:
        client = HashClient(servers)
        # The hasher's node names are HashClient's client keys, one per server in order.
        names = list(client.hasher.nodes)
        index = {client._make_client_key(normalize_server_spec(s)): i for i, s in enumerate(servers)}
        owners = [index[client.hasher.get_node(k)] for k in KEYS]
        cases.append(case("pymemcache", servers, [(s, 1) for s in servers], owners, hasher_nodes=names))
        log("pymemcache %d servers" % len(servers))
    fixture("pymemcache.json", "pymemcache %s (Debian python3-pymemcache %s): HashClient(servers).hasher.get_node"
            % (pm.__version__, deb_version("python3-pymemcache")), cases)


# ------------------------------------------------------------------ python-memcached
class Memcached:
    """memcached servers on 127.0.0.1, stopped on exit."""

    def __init__(self, ports):
        self.procs = []
        for port in ports:
            p = subprocess.Popen(["memcached", "-l", "127.0.0.1", "-p", str(port), "-U", "0", "-m", "8",
                                  "-u", "nobody" if os.getuid() == 0 else os.environ.get("USER", "")],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            self.procs.append(p)
        for port in ports:
            for _ in range(100):
                try:
                    socket.create_connection(("127.0.0.1", port), 0.2).close()
                    break
                except OSError:
                    time.sleep(0.05)
            else:
                raise RuntimeError("memcached on 127.0.0.1:%d did not start" % port)

    def stop(self):
        for p in self.procs:
            p.send_signal(signal.SIGTERM)
        for p in self.procs:
            p.wait(10)


def python_memcached():
    import memcache
    ports = [11211, 21211, 21212, 21213]
    servers = Memcached(ports)
    try:
        configs = [
            ["127.0.0.1:21211", "127.0.0.1:21212", "127.0.0.1:21213"],
            ["127.0.0.1:21213", "127.0.0.1:21211", "127.0.0.1:21212"],
            [("127.0.0.1:21211", 1), ("127.0.0.1:21212", 3), ("127.0.0.1:21213", 2)],
            ["127.0.0.1", "inet:127.0.0.1:21211", ("127.0.0.1:21212", 5)],
        ]
        cases = []
        for config in configs:
            client = memcache.Client(config)
            owners = []
            for k in KEYS:
                server, _ = client._get_server(client._encode_key(k))
                owners.append(client.servers.index(server))
            nodes = [(c, 1) if isinstance(c, str) else c for c in config]
            cases.append(case("python-memcached", config, nodes, owners))
            client.disconnect_all()
            log("python-memcached %r" % (config,))
    finally:
        servers.stop()
    fixture("python_memcached.json", "python-memcached (Debian python3-memcache %s, __version__ %s): "
            "Client(servers)._get_server, memcached %s on 127.0.0.1"
            % (deb_version("python3-memcache"), memcache.__version__, deb_version("memcached")), cases)


# ------------------------------------------------------------------ uhashring
def uhashring():
    from uhashring import HashRing
    configs = [
        ["node-a", "node-b", "node-c"],
        ["node-c", "node-b", "node-a"],
        {"node-a": {"weight": 1}, "node-b": {"weight": 2}, "node-c": {"weight": 3}},
        ["cache%d.example:11211" % i for i in range(8)],
        {"ключ-1": 1, "日本-2": 2, "🔑": 1},
    ]
    cases = []
    for algorithm, kwargs in [("uhashring", {}), ("uhashring-ketama", {"hash_fn": "ketama"})]:
        for config in configs:
            ring = HashRing(nodes=config, **kwargs)
            names = list(config)
            weights = [1] * len(names)
            if isinstance(config, dict):
                weights = [v if isinstance(v, int) else v["weight"] for v in config.values()]
            owners = [names.index(ring.get_node(k)) for k in KEYS]
            cases.append(case(algorithm, config, list(zip(names, weights)), owners))
            log("%s %r" % (algorithm, config))
    fixture("uhashring.json", "uhashring (Debian python3-uhashring %s): HashRing(nodes).get_node"
            % deb_version("python3-uhashring"), cases)


# ------------------------------------------------------------------ Dalli and redis-rb
def dalli():
    configs = [
        (["127.0.0.1:11211", "127.0.0.1:11212", "127.0.0.2:11211"], None),
        (["127.0.0.2:11211", "127.0.0.1:11212", "127.0.0.1:11211"], None),
        (["cache-a:11211:3", "cache-b:11211:1", "cache-c:11212:2"], None),
        # The default port, an octal port (Ruby's Integer()), IPv6, a unix socket.
        (["cache-a", "cache-b:011211", "[::1]:11211:2", "/tmp/memcached.sock:2"], None),
        (["solo:11211"], None),
    ]
    cases, version = [], None
    for servers, _ in configs:
        version, owners, _ = run_lines(["ruby", os.path.join(HERE, "ruby_ring.rb"), "dalli"] + servers)
        cases.append(case("dalli", servers, [(s, 1) for s in servers], owners))
        log("dalli %r" % servers)
    fixture("dalli.json", "%s (Debian ruby-dalli %s, ruby %s): Dalli::Ring via ruby_ring.rb"
            % (version, deb_version("ruby-dalli"), deb_version("ruby")), cases)


def redis_rb(rb5):
    configs = [
        ["redis://127.0.0.1:6379", "redis://127.0.0.1:6380", "redis://127.0.0.2:6379"],
        ["redis://127.0.0.2:6379", "redis://127.0.0.1:6380", "redis://127.0.0.1:6379"],
        # The default port, a database, IPv6, TLS.
        ["redis://cache-a", "redis://cache-b:6379/2", "redis://[::1]:6380", "rediss://cache-c:6390/0"],
        ["redis://10.0.0.%d:6379" % i for i in range(1, 9)],
    ]
    cases, versions = [], []
    runs = [("redis-rb-4", None)]
    if rb5:
        runs.append(("redis-rb-5", rb5))
    for algorithm, libs in runs:
        for servers in configs:
            cmd = ["ruby"] + sum((["-I", l] for l in (libs or [])), []) + [
                os.path.join(HERE, "ruby_ring.rb"), "redis"] + servers
            version, owners, ids = run_lines(cmd)
            cases.append(case(algorithm, servers, [(s, 1) for s in servers], owners, ids=ids))
            log("%s %r" % (algorithm, servers))
        versions.append(version)
    old = os.path.join(HERE, "fixtures", "redis_rb.json")
    produced = "%s (Debian ruby-redis %s)" % (versions[0], deb_version("ruby-redis"))
    suffix = ": Redis::Distributed#node_for via ruby_ring.rb"
    if rb5:
        produced += "; %s, both from source trees, with Debian ruby-connection-pool %s" % (
            versions[1], deb_version("ruby-connection-pool"))
    elif os.path.exists(old):
        # Without the 5.x source trees, keep the 5.x cases of the last run.
        with open(old, encoding="utf-8") as f:
            before = json.load(f)
        assert before["keys"] == KEYS, "the key set changed: give the redis-rb 5 source trees"
        cases += [c for c in before["cases"] if c["algorithm"] == "redis-rb-5"]
        produced += "; " + before["produced_by"].split("; ", 1)[1].removesuffix(suffix)
    fixture("redis_rb.json", produced + suffix, cases)


# ------------------------------------------------------------------ spymemcached
def spymemcached(classes):
    cp = "/usr/share/java/spymemcached.jar:" + classes
    configs = [
        ("127.0.0.1:11211 127.0.0.1:11212 127.0.0.2:11211", None),
        ("127.0.0.2:11211 127.0.0.1:11212 127.0.0.1:11211", None),
        ("127.0.0.1:11211,127.0.0.1:11212 127.0.0.2:011211", "1,2,3"),
        ("localhost:11211 127.0.0.3:11213", None),
        (" ".join("10.0.0.%d:11211" % i for i in range(1, 9)), None),
    ]
    cases, version = [], None
    for locator in ["ketama", "native"]:
        for servers, weights in configs:
            if weights and locator == "native":
                continue
            cmd = ["java", "-cp", cp, "SpyRing", locator, servers] + ([weights] if weights else [])
            version, owners, labels = run_lines(cmd)
            ws = [int(w) for w in weights.split(",")] if weights else [1] * len(labels)
            # ringlab's names: each server as its ketama label says (a host name with the
            # address it resolved to).
            names = [l[:-2] for l in labels]
            cases.append(case("spymemcached-" + locator, servers, list(zip(names, ws)), owners))
            log("spymemcached %s %r %r" % (locator, servers, weights))
    jv = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr.splitlines()[0]
    fixture("spymemcached.json", "spymemcached %s (Debian libspymemcached-java %s, %s): "
            "KetamaNodeLocator / ArrayModNodeLocator.getPrimary via SpyRing.java" % (
                version.rsplit("/", 1)[-1], deb_version("libspymemcached-java"), jv), cases)


# ------------------------------------------------------------------ npm
def npm(node_modules):
    env = dict(os.environ, NODE_PATH=node_modules)
    node = os.path.join(HERE, "npm_ring.js")
    configs = [
        ["127.0.0.1:11211", "127.0.0.1:11212", "127.0.0.2:11211"],
        ["127.0.0.2:11211", "127.0.0.1:11212", "127.0.0.1:11211"],
        {"127.0.0.1:11211": 1, "127.0.0.1:11212": 2, "127.0.0.2:11211": 3.5},
        # No port, the default port, another port.
        ["cache-a", "cache-b:11211", "cache-c:11212"],
        ["10.0.0.%d:11211" % i for i in range(1, 8)],
    ]
    cases, version = [], None
    for config in configs:
        version, owners, _ = run_lines(["node", node, "memcached", json.dumps(config)], env)
        nodes = list(config.items()) if isinstance(config, dict) else [(s, 1) for s in config]
        cases.append(case("npm-hashring", config, nodes, owners))
        log("npm memcached %r" % (config,))
    fixture("npm_hashring.json", "%s (npm), node %s: new Memcached(servers).HashRing.get via npm_ring.js"
            % (version, subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip()), cases)

    configs = [
        "127.0.0.1:11211,127.0.0.1:11212,127.0.0.2:11211",
        "127.0.0.2:11211,127.0.0.1:11212,127.0.0.1:11211",
        "user:pass@cache-a:11211,cache-b,cache-c:11212,cache-d:11211,cache-e:11211",
        "solo:11211",
    ]
    cases = []
    for config in configs:
        version, owners, _ = run_lines(["node", node, "memjs", json.dumps(config)], env)
        cases.append(case("memjs", config, [(s, 1) for s in config.split(",")], owners))
        log("memjs %r" % config)
    fixture("memjs.json", "%s (npm), node %s: Client.create(servers).server via npm_ring.js"
            % (version, subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip()), cases)


def main():
    node_modules, classes = sys.argv[1], sys.argv[2]
    rb5 = sys.argv[3:5] if len(sys.argv) >= 5 else None
    log("%d keys per case, %d non-ASCII" % (len(KEYS), sum(1 for k in KEYS if any(ord(c) > 127 for c in k))))
    pymemcache()
    python_memcached()
    uhashring()
    dalli()
    redis_rb(rb5)
    spymemcached(classes)
    npm(node_modules)


if __name__ == "__main__":
    main()
