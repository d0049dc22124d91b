"""ketama.json: server choice from libketama's own C code, as shipped by PyPI's `ketama`
package (mosquito/ketama-python: RJ/ketama's libketama/ketama.c + md5.c, compiled by pip,
with a key-length argument added and IPC clean-up in ketama_smoke()).

Each server list is written to its own file (libketama reads "addr<TAB>weight\\n" lines),
rolled with ketama.Ketama(file); keys are passed as UTF-8 bytes (the binding's str path
passes the code-point count as the byte length, which truncates non-ASCII keys). Checks
on every run: the continuum and every answer equal the check-only model in
ketama_published.py, and the real library reproduces every published libketama vector
(python_ketama's test, MediaWiki's 100 lines and the three published MD5 digests,
including RJ/ketama test.sh's 1,000,000-key digest).
"""

import gc
import hashlib
import os
import shutil
import subprocess
import tempfile
from importlib.metadata import version

import ketama

import ketama_published as pub
from common import log, write_fixture
from keys import all_keys

TIE = [("tie-7040", 1), ("tie-144826", 1)]  # "tie-7040-0", "tie-144826-0": equal MD5 word 0
TIE_VALUE = 45466501
CASES = [
    pub.KETAMA_SERVERS,
    [("127.0.0.1:11211", 600), ("127.0.0.1:11212", 400)],
    [("10.0.1.1:11211", 1)],
    [("10.0.1.1:11211", 1), ("10.0.1.2:11212", 1), ("cache-a", 1)],
    [("10.0.1.%d:11211" % i, 1) for i in range(1, 11)],
    [("cache-a", 1), ("cache-b", 2), ("cache-c:11212", 3), ("10.0.1.1:11211", 5),
     ("10.0.1.2:11212", 1)],
    [("10.0.2.%d:11211" % i, 1) for i in range(1, 26)],
    TIE,
    TIE[::-1],
]


class Roll:
    """One libketama continuum over a server file of its own (distinct inode: libketama
    caches continua in SysV shared memory keyed by ftok(file))."""

    def __init__(self, workdir, n, servers):
        self.path = os.path.join(workdir, "servers-%d" % n)
        with open(self.path, "w") as f:
            f.write("".join("%s\t%d\n" % s for s in servers))
        self.k = ketama.Ketama(self.path)

    def get(self, key_bytes):
        return self.k.get_server(key_bytes)

    def points(self):
        return self.k.get_points()

    def close(self):
        del self.k
        gc.collect()  # Ketama_dealloc -> ketama_smoke(): shmctl/semctl IPC_RMID


def ftok_key(path):
    st = os.stat(path)
    return (ord("R") << 24) | ((st.st_dev & 0xFF) << 16) | (st.st_ino & 0xFFFF)


def tie_keys(pts, count=4):
    values = sorted({p for p, _ in pts})
    prev = values[values.index(TIE_VALUE) - 1]
    out, n = [], 0
    while len(out) < count:
        k = "tie-key-%d" % n
        if prev < pub.hashi(k) <= TIE_VALUE:
            out.append(k)
        n += 1
    return out


def main():
    keys = all_keys()
    workdir = tempfile.mkdtemp(prefix="ringlab-ketama-")
    rolls = []
    try:
        cases = []
        for n, servers in enumerate(CASES):
            r = Roll(workdir, n, servers)
            rolls.append(r)
            model = pub.continuum(servers)
            real = [tuple(p) for p in r.points()]
            assert real == model, "continuum differs from the model: %r" % servers
            case_keys = keys + (tie_keys(model) if servers in (TIE, TIE[::-1]) else [])
            values = [p for p, _ in model]
            out = []
            for k in case_keys:
                b = k.encode("utf-8")
                point, server = r.get(b)
                mh = pub.hashi_bytes(b)
                assert (point, server) == pub.get_server_hash(model, values, mh)[1], (servers, k)
                out.append({"key": k, "server": server})
            if servers in (TIE, TIE[::-1]):
                assert {o["server"] for o in out if o["key"].startswith("tie-key-")} == {servers[0][0]}
            per = [sum(1 for _, a in model if a == name) for name, _ in servers]
            log("ketama: %2d servers: %5d points %s; %d keys; model agrees"
                % (len(servers), len(model), per if len(per) <= 10 else per[:3] + ["..."],
                   len(case_keys)))
            cases.append({"servers": [{"name": a, "weight": w} for a, w in servers],
                          "points_per_server": per, "keys": out})

        # The real library against the published vectors (see ketama_published.py).
        r = rolls[1]
        assert r.get(b"test") == (3454255383, "127.0.0.1:11211") and len(r.points()) == 320
        r = rolls[0]
        lines = "".join("%u %u %s\n" % ((pub.hashi(str(i)),) + r.get(str(i).encode()))
                        for i in range(1000000))
        assert lines[:len(pub.MEDIAWIKI_LINES)] == pub.MEDIAWIKI_LINES
        for n, digest, source in pub.DIGESTS:
            cut = lines if n == 1000000 else "".join(lines.splitlines(True)[:n])
            assert hashlib.md5(("\n" + cut).encode()).hexdigest() == digest, source
        log("ketama: the real libketama reproduces all published vectors and digests")

        write_fixture("ketama.json", {
            "produced_by": "libketama C code from PyPI ketama %s (mosquito/ketama-python, "
                           "RJ/ketama libketama/ketama.c with a key length argument), built "
                           "by pip" % version("ketama"),
            "notes": "server = ketama_get_server(UTF-8 bytes of key).ip for a continuum "
                     "rolled from a file of 'name<TAB>weight' lines in the order given. "
                     "Rules in tests/real/README.md (libketama section). points_per_server "
                     "counts each server's points in the continuum (get_points()). The two "
                     "tie cases: labels 'tie-7040-0' and 'tie-144826-0' give the same point "
                     "45466501; the server listed first wins (glibc qsort is stable here; "
                     "libketama's compare looks at the point only).",
            "cases": cases})
    finally:
        for r in rolls:
            key = ftok_key(r.path)
            r.close()
            for flag in ("-M", "-S"):  # in case ketama_smoke() could not remove them
                subprocess.run(["ipcrm", flag, str(key)], capture_output=True)
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
