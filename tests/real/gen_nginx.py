"""nginx.json: which server a real nginx picks with `hash $http_x_key [consistent];`.

Starts one nginx (master_process off, bound to 127.0.0.1 and to unix sockets in a temp
dir) that is both the backends (each answers its own address text) and one frontend per
case, whose `upstream` block is the case's `config`. Sends every key in an `X-Key` header
and records which backend answered. A model written from ngx_http_upstream_hash_module.c
(README.md) re-computes every answer; the run fails if they disagree anywhere the model
says nginx is deterministic (keys that fall back to round robin are only recorded).
"""

import bisect
import http.client
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
import zlib

from common import deb_version, log, write_fixture
from lbkeys import forced_crc32, lb_keys

BACKEND_BASE = int(os.environ.get("LB_BACKEND_BASE_PORT", "18081"))
SOCKDIR = "/tmp/ringlab-nginx-sockets"
FRONT_BASE = int(os.environ.get("NGINX_FRONT_BASE_PORT", "18100"))


def addr(i):
    return "127.0.0.1:%d" % (BACKEND_BASE + i)


# (name, consistent, [(address, params)])
def cases(sockdir):
    a = [addr(i) for i in range(6)]
    unix = ["unix:%s/b%d.sock" % (sockdir, i) for i in range(3)]
    return [
        ("consistent, 3 equal", True, [(a[0], ""), (a[1], ""), (a[2], "")]),
        ("consistent, weights 1 2 5", True, [(a[0], "weight=1"), (a[1], "weight=2"), (a[2], "weight=5")]),
        ("consistent, a 4th server added", True, [(a[0], ""), (a[1], ""), (a[2], ""), (a[3], "")]),
        ("consistent, 2nd of 4 down", True, [(a[0], ""), (a[1], "down"), (a[2], ""), (a[3], "")]),
        ("consistent, heavy server down (some keys fall back to round robin)", True,
         [(a[0], ""), (a[1], "weight=12 down"), (a[2], "")]),
        ("consistent, other parameters", True,
         [(a[0], "max_fails=3 fail_timeout=10s"), (a[1], "weight=3 max_conns=100"), (a[4], "")]),
        ("consistent, unix sockets", True, [(unix[0], ""), (unix[1], "weight=2"), (unix[2], "")]),
        ("hash, 3 equal", False, [(a[0], ""), (a[1], ""), (a[2], "")]),
        ("hash, weights 1 2 5", False, [(a[0], "weight=1"), (a[1], "weight=2"), (a[2], "weight=5")]),
        ("hash, a 4th server added", False, [(a[0], ""), (a[1], ""), (a[2], ""), (a[3], "")]),
        ("hash, 2nd of 4 down", False, [(a[0], ""), (a[1], "down"), (a[2], ""), (a[3], "")]),
        ("hash, heavy server down (some keys fall back to round robin)", False,
         [(a[0], ""), (a[1], "weight=12 down"), (a[2], "")]),
    ]


def upstream_text(name, consistent, servers):
    lines = ["upstream %s {" % name,
             "    hash $http_x_key%s;" % (" consistent" if consistent else "")]
    for address, params in servers:
        lines.append("    server %s%s;" % (address, (" " + params) if params else ""))
    lines.append("}")
    return "\n".join(lines)


# ---------------------------------------------------------------- model (README.md)
def split_address(name):
    if name[:5].lower() == "unix:":
        return name[5:].encode(), b""
    # Digits back from the end; a ":" before them starts the port, anything else: no port.
    digits = len(name) - len(name.rstrip("0123456789"))
    at = len(name) - digits
    if at > 0 and name[at - 1] == ":":
        return name[: at - 1].encode(), name[at:].encode()
    return name.encode(), b""


def weight_of(params):
    for p in params.split():
        if p.startswith("weight="):
            return int(p[7:])
    return 1


def chash_points(servers):
    points = []
    for idx, (name, params) in enumerate(servers):
        host, port = split_address(name)
        base = host + b"\0" + port
        prev = 0
        for _ in range(weight_of(params) * 160):
            h = zlib.crc32(base + struct.pack("<I", prev))
            points.append((h, idx))
            prev = h
    points.sort(key=lambda p: p[0])  # stable: equal hashes keep server order
    out = []
    for p in points:
        if not out or out[-1][0] != p[0]:
            out.append(p)
    return out


def model(consistent, servers, points, key):
    """Index of the server nginx picks, or None where it falls back to round robin."""
    down = ["down" in params.split() for _, params in servers]
    b = key.encode("utf-8")
    if len(servers) == 1:
        return None
    if consistent:
        hashes = [p[0] for p in points]
        i = bisect.bisect_left(hashes, zlib.crc32(b))
        for t in range(21):
            owner = points[(i + t) % len(points)][1]
            if not down[owner]:
                return owner
        return None
    weights = [weight_of(params) for _, params in servers]
    total = sum(weights)
    h = 0
    for rehash in range(21):
        c = zlib.crc32((str(rehash).encode() if rehash else b"") + b)
        h = (h + ((c >> 16) & 0x7FFF)) & 0xFFFFFFFF
        w = h % total
        p = 0
        while w >= weights[p]:
            w -= weights[p]
            p += 1
        if not down[p]:
            return p
    return None


def crafted_keys(points):
    """Keys whose CRC-32 is exactly a point, one below, one above; and the ends of the circle."""
    step = max(1, len(points) // 40)
    targets = [0, 0xFFFFFFFF, (points[-1][0] + 1) & 0xFFFFFFFF]
    for h, _ in points[::step]:
        targets += [h, (h - 1) & 0xFFFFFFFF, (h + 1) & 0xFFFFFFFF]
    seen, out = set(), []
    for n, t in enumerate(targets):
        if t not in seen:
            seen.add(t)
            out.append(forced_crc32("p%d:" % n, t))
    return out


# ---------------------------------------------------------------- the real nginx
def nginx_conf(tmp, all_cases):
    backends = sorted({address for _, _, servers in all_cases for address, _ in servers})
    out = ["daemon off;", "master_process off;", "worker_processes 1;", "pid %s/nginx.pid;" % tmp,
           "error_log %s/error.log warn;" % tmp, "events { worker_connections 256; }", "http {",
           "  access_log off;", "  client_body_temp_path %s/body;" % tmp, "  proxy_temp_path %s/proxy;" % tmp,
           "  fastcgi_temp_path %s/fcgi;" % tmp, "  uwsgi_temp_path %s/uwsgi;" % tmp,
           "  scgi_temp_path %s/scgi;" % tmp, "  keepalive_requests 100000;"]
    for address in backends:
        listen = address if address.startswith("unix:") else address
        out.append('  server { listen %s; location / { return 200 "%s"; } }' % (listen, address))
    for i, (name, consistent, servers) in enumerate(all_cases):
        out.append("  " + upstream_text("u%d" % i, consistent, servers).replace("\n", "\n  "))
        # With a down server, a debug log shows which requests nginx balanced round robin.
        log_line = ("error_log %s/debug%d.log debug; " % (tmp, i)) if has_down(servers) else ""
        out.append("  server { listen 127.0.0.1:%d; %slocation / { proxy_pass http://u%d; } }"
                   % (FRONT_BASE + i, log_line, i))
    out.append("}")
    return "\n".join(out) + "\n"


def has_down(servers):
    return any("down" in params.split() for _, params in servers)


class DebugLog:
    """Reads what nginx appended to a debug log since the last call."""

    def __init__(self, path):
        self.path, self.offset = path, 0

    def new_text(self):
        with open(self.path, "rb") as f:
            f.seek(self.offset)
            data = f.read()
        self.offset += len(data)
        return data.decode("utf-8", "replace")


def ask(conn, key):
    conn.putrequest("GET", "/", skip_accept_encoding=True)
    conn.putheader("X-Key", key.encode("utf-8"))
    conn.endheaders()
    resp = conn.getresponse()
    body = resp.read().decode()
    if resp.status != 200:
        raise RuntimeError("nginx answered %d for key %r: %s" % (resp.status, key, body))
    return body


def wait_port(port):
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError("nginx did not listen on %d" % port)


def main():
    tmp = tempfile.mkdtemp(prefix="ringlab-nginx-")
    proc = None
    try:
        # unix socket paths are hashed as written, so they live in a fixed directory
        shutil.rmtree(SOCKDIR, ignore_errors=True)
        os.makedirs(SOCKDIR, mode=0o700)
        all_cases = cases(SOCKDIR)
        conf = os.path.join(tmp, "nginx.conf")
        with open(conf, "w") as f:
            f.write(nginx_conf(tmp, all_cases))
        version = subprocess.run(["nginx", "-v"], capture_output=True, text=True).stderr.strip()
        proc = subprocess.Popen(["nginx", "-p", tmp, "-c", conf])
        wait_port(FRONT_BASE + len(all_cases) - 1)
        keys = lb_keys()
        fixture = {
            "produced_by": "%s (Debian package nginx %s)" % (version.replace("nginx version: ", ""), deb_version("nginx")),
            "notes": "Each case's config is an upstream block with `hash $http_x_key [consistent]`; a real "
                     "nginx proxied one GET per key with the key's UTF-8 bytes in the X-Key header to "
                     "backends that answer their own address. answers[i] is the index (in config order) "
                     "of the server that answered keys[i]; extra holds [key, index] for keys made for "
                     "that case whose CRC-32 is exactly a point, one below or one above it. "
                     "fallback lists the keys nginx balanced round robin (21 tries exhausted), as its "
                     "debug log (\"get rr peer\") and the model both say; their recorded answer is "
                     "whatever round robin gave.",
            "keys": keys,
            "cases": [],
        }
        for i, (name, consistent, servers) in enumerate(all_cases):
            shown = servers
            points = chash_points(shown) if consistent else []
            extra = crafted_keys(points) if consistent else []
            conn = http.client.HTTPConnection("127.0.0.1", FRONT_BASE + i, timeout=10)
            index = {a: n for n, (a, _) in enumerate(servers)}
            answers, extras, fallback, mismatches = [], [], [], 0
            debug = DebugLog(os.path.join(tmp, "debug%d.log" % i)) if has_down(servers) else None
            if debug:
                debug.new_text()
            for k in keys + extra:
                got = index[ask(conn, k)]
                want = model(consistent, shown, points, k)
                # nginx's own word on round robin: ngx_http_upstream_get_round_robin_peer logs
                # "get rr peer" when the hash balancer hands the key over.
                went_rr = debug is not None and "get rr peer" in debug.new_text()
                if went_rr != (want is None):
                    raise SystemExit("nginx case %r key %r: nginx %s round robin, the model says %s"
                                     % (name, k, "went" if went_rr else "did not go", want))
                if want is None:
                    fallback.append(k)
                elif want != got:
                    mismatches += 1
                    if mismatches < 5:
                        log("nginx model disagrees: case %r key %r: nginx %d, model %d" % (name, k, got, want))
                if len(answers) < len(keys):
                    answers.append(got)
                else:
                    extras.append([k, got])
            conn.close()
            if mismatches:
                raise SystemExit("nginx: the model disagrees on %d keys of case %r" % (mismatches, name))
            log("nginx %-70s %d keys + %d on points, %d fall back" % (name, len(keys), len(extra), len(fallback)))
            fixture["cases"].append({
                "name": name,
                "config": upstream_text("backend", consistent, shown),
                "servers": [a for a, _ in shown],
                "answers": answers,
                "extra": extras,
                "fallback": fallback,
            })
        write_fixture("nginx.json", fixture)
    finally:
        if proc is not None:
            proc.send_signal(signal.SIGQUIT)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
        shutil.rmtree(tmp, ignore_errors=True)
        shutil.rmtree(SOCKDIR, ignore_errors=True)


if __name__ == "__main__":
    main()
