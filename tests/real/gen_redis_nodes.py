"""redis_cluster_nodes.json: `CLUSTER NODES` text from a real 6-node Redis Cluster on
loopback, and the master the real cluster sends each key to, in four states:

  healthy    3 masters + 3 replicas made by `redis-cli --cluster create --cluster-replicas 1`
  migrating  one slot half-way through a move: `CLUSTER SETSLOT s MIGRATING` on its source,
             `IMPORTING` on its target (the text of both ends is recorded)
  failover   a master killed; its replica promoted by the cluster (node timeout 2 s)
  lost       the promoted master killed too: it has no replica, its slots stay with a
             failed master (cluster-require-full-coverage no, so the rest keeps serving)

The owner of a key is what the cluster answers a `GET key` sent to a live node: no
redirection (that node owns it, the key being absent) or `MOVED slot ip:port`; `ASK` and
errors are recorded as they come. Servers are bound to 127.0.0.1 only and all stopped before
exiting (also on SIGINT/SIGTERM).
"""

import os
import shutil
import signal
import subprocess
import tempfile
import time

from common import deb_version, log, write_fixture
from keys import all_keys
import gen_redis as R

NSLOTS = 16384
R.BASE = BASE = int(os.environ.get("REDIS_NODES_BASE_PORT", "30201"))
PORTS = [BASE + i for i in range(6)]
KEYS = 3000


def start(port, workdir, hostname):
    for p in (port, port + 10000):
        if not R.port_free(p):
            raise SystemExit("port %d on 127.0.0.1 is in use; set REDIS_NODES_BASE_PORT" % p)
    d = os.path.join(workdir, str(port))
    os.makedirs(d)
    extra = ["--cluster-announce-hostname", hostname] if hostname else []
    R.procs[port] = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--protected-mode", "yes",
         "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
         "--cluster-node-timeout", "2000", "--cluster-require-full-coverage", "no",
         "--cluster-replica-validity-factor", "0",
         "--dir", d, "--save", "", "--appendonly", "no", "--daemonize", "no",
         "--logfile", os.path.join(d, "redis.log")] + extra,
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    R.save_pids()
    for _ in range(200):
        try:
            c = R.Resp(port)
            c.call("PING")
            c.close()
            return
        except OSError:
            time.sleep(0.05)
    raise SystemExit("redis-server on port %d did not start" % port)


def kill(port):
    p = R.procs.pop(port)
    p.kill()
    p.wait()
    R.save_pids()


def nodes_text(port):
    c = R.Resp(port)
    text = c.call("CLUSTER", "NODES").decode()
    c.close()
    return text


def parse(text):
    """[(id, port, flags, master_id, slot tokens)] of a CLUSTER NODES reply."""
    out = []
    for line in text.strip().splitlines():
        f = line.split()
        port = int(f[1].split("@")[0].rsplit(":", 1)[1])
        out.append((f[0], port, f[2].split(","), f[3], f[8:]))
    return out


def wait_for(what, test, timeout=60):
    deadline = time.time() + timeout
    while True:
        try:
            if test():
                return
        except (OSError, RuntimeError):
            pass
        if time.time() > deadline:
            for p in R.procs:
                log("node %d sees:\n%s" % (p, nodes_text(p)))
            raise RuntimeError("timed out waiting for " + what)
        time.sleep(0.2)


def settled(ports, masters, replicas, failed=0):
    """Every live node sees the same masters with slots, `replicas` replicas and `failed`
    nodes flagged fail, and hostnames have spread."""
    views = []
    for p in ports:
        rows = parse(nodes_text(p))
        owned = tuple(sorted((port, tuple(s)) for _, port, fl, _, s in rows if "master" in fl and s
                             and "fail" not in fl))
        reps = sum(1 for _, _, fl, _, _ in rows if "slave" in fl and "fail" not in fl)
        fails = sum(1 for _, _, fl, _, _ in rows if "fail" in fl)
        views.append((owned, reps, fails))
    return (all(v == views[0] for v in views) and len(views[0][0]) == masters
            and views[0][1] == replicas and views[0][2] == failed)


def owners(entry, keys):
    """What the cluster answers GET key sent to `entry`: "127.0.0.1:port" of the master it
    redirects to (or `entry` itself when it serves the key), else the error text."""
    c = R.Resp(entry)
    c.sock.sendall(b"".join(R.Resp.encode(("GET", k.encode("utf-8"))) for k in keys))
    out = []
    for _ in keys:
        try:
            c.read()
            out.append("127.0.0.1:%d" % entry)
        except RuntimeError as e:
            msg = str(e)[len("redis error: "):]
            if msg.startswith("MOVED "):
                out.append(msg.split()[2])
            else:
                out.append(msg)
    c.close()
    return out


def main():
    def on_signal(signum, frame):
        raise SystemExit("signal %d" % signum)
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)

    version = subprocess.run(["redis-server", "--version"], capture_output=True,
                             text=True).stdout.split()[2].split("=")[1]
    keys = all_keys()[:KEYS]
    workdir = tempfile.mkdtemp(prefix="ringlab-redis-nodes-")
    scenarios = []
    try:
        for i, p in enumerate(PORTS):
            # Two nodes announce a hostname, so the text has `ip:port@cport,hostname` lines.
            start(p, workdir, "redis-%d.test" % i if i in (0, 4) else None)
        log("redis nodes: --cluster create, 3 masters + 3 replicas")
        R.cli("--cluster", "create", *["127.0.0.1:%d" % p for p in PORTS],
              "--cluster-replicas", "1", "--cluster-yes")
        wait_for("a settled cluster", lambda: settled(PORTS, 3, 3))
        def replicas_synced():
            infos = []
            for p in PORTS:
                c = R.Resp(p)
                infos.append(c.call("INFO", "replication").decode())
                c.close()
            return sum("master_link_status:up" in i for i in infos) == 3
        wait_for("replicas in sync", replicas_synced)
        wait_for("hostnames", lambda: all("redis-0.test" in nodes_text(p) for p in PORTS))
        rows = parse(nodes_text(PORTS[0]))
        masters = [r for r in rows if "master" in r[2]]
        entry = PORTS[0]
        scenarios.append({"name": "healthy", "entry": "127.0.0.1:%d" % entry,
                          "cluster_nodes": nodes_text(entry), "owners": owners(entry, keys)})

        # A slot in migration: the first slot of the second master moves to the third.
        src = next(r for r in masters if r[1] != entry) if masters[0][1] == entry else masters[1]
        dst = next(r for r in masters if r[0] != src[0])
        slot = int(src[4][0].split("-")[0])
        log("redis nodes: slot %d migrating %d -> %d" % (slot, src[1], dst[1]))
        for port, args in ((dst[1], ("IMPORTING", src[0])), (src[1], ("MIGRATING", dst[0]))):
            c = R.Resp(port)
            assert c.call("CLUSTER", "SETSLOT", slot, *args) == "OK"
            c.close()
        third = next(p for p in PORTS if p not in (src[1], dst[1]))
        scenarios.append({"name": "migrating", "slot": slot,
                          "source": "127.0.0.1:%d" % src[1], "target": "127.0.0.1:%d" % dst[1],
                          "entry": "127.0.0.1:%d" % third,
                          "cluster_nodes": nodes_text(third),
                          "source_cluster_nodes": nodes_text(src[1]),
                          "target_cluster_nodes": nodes_text(dst[1]),
                          "owners": owners(third, keys),
                          "source_answers": owners(src[1], keys)})
        for port in (src[1], dst[1]):
            c = R.Resp(port)
            assert c.call("CLUSTER", "SETSLOT", slot, "STABLE") == "OK"
            c.close()

        # A failover: kill a master that is not the entry; its replica takes over.
        victim = next(r for r in masters if r[1] != entry)
        log("redis nodes: killing master %d" % victim[1])
        kill(victim[1])
        live = [p for p in PORTS if p in R.procs]
        wait_for("the failover", lambda: settled(live, 3, 2, failed=1))
        promoted = next(r for r in parse(nodes_text(entry))
                        if "master" in r[2] and r[4] and r[1] not in [m[1] for m in masters])
        scenarios.append({"name": "failover", "killed": "127.0.0.1:%d" % victim[1],
                          "promoted": "127.0.0.1:%d" % promoted[1],
                          "entry": "127.0.0.1:%d" % entry, "cluster_nodes": nodes_text(entry),
                          "owners": owners(entry, keys)})

        # The promoted master dies too: no replica is left to promote.
        log("redis nodes: killing promoted master %d" % promoted[1])
        kill(promoted[1])
        live = [p for p in PORTS if p in R.procs]

        def lost_settled():
            rows = [parse(nodes_text(p)) for p in live]
            return all(sum(1 for r in v if "fail" in r[2]) == 2 for v in rows)
        wait_for("the second failure", lost_settled)
        scenarios.append({"name": "lost", "killed": "127.0.0.1:%d" % promoted[1],
                          "entry": "127.0.0.1:%d" % entry, "cluster_nodes": nodes_text(entry),
                          "owners": owners(entry, keys)})
        write_fixture("redis_cluster_nodes.json", {
            "produced_by": "redis-server %s (Debian package redis-server %s), redis-cli "
                           "(Debian package redis-tools %s), on 127.0.0.1"
                           % (version, deb_version("redis-server"), deb_version("redis-tools")),
            "notes": "cluster_nodes is CLUSTER NODES as the entry node answered it. owners[i] "
                     "is the answer to GET keys[i] sent to the entry node: the master's "
                     "ip:port it serves from or redirects to (MOVED), or the error text. "
                     "Node timeout 2 s; cluster-replica-validity-factor 0; cluster-require-full-coverage no.",
            "keys": keys,
            "scenarios": scenarios,
        })
    finally:
        R.stop_all()
        if not os.environ.get("KEEP_REDIS_WORKDIR"):
            shutil.rmtree(workdir, ignore_errors=True)
        else:
            log("kept " + workdir)


if __name__ == "__main__":
    main()
