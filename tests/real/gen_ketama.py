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

import ctypes
import gc
import hashlib
import os
import re
import shutil
import subprocess
import sys
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


# Server files as written, quirks included (ketama.c read_server_definitions and
# read_server_line): the weight token loses its last character (the '\n' it expects), '#'
# is a comment only at the start of a line, a line without a weight refuses the file, and
# fgets(sline, 127) reads a longer line in pieces of 126 bytes.
FILES = [
    "10.0.1.1:11211\t600\n10.0.1.2:11211\t300",                    # last line: 300 -> 30
    "10.0.1.1:11211 600 # big box\n10.0.1.2:11211 300\n",           # 600 -> 60
    "10.0.1.1:11211 600 \n10.0.1.2:11211 300\n",                    # trailing space: 60
    "10.0.1.1:11211 600\r\n10.0.1.2:11211 300\r\n",               # CRLF: "600\r" -> 600
    "# comment\n\n  10.0.1.1:11211\t\t5\n10.0.1.2:11211 12ab\n10.0.1.3:11211 +7\nz",
    "10.0.1.1:11211 600" + " " * 108 + "10.0.1.9:11211 5\n10.0.1.2:11211 300\n",  # one line, two servers
    "10.0.1.1:11211\n10.0.1.2:11211\n",                             # no weight: refused
    "10.0.1.1:11211 5\n10.0.1.2:11211 3",                            # "3" -> "": refused
    "10.0.1.1:11211 5\n  # not a comment\n",                        # refused
    "10.0.1.1:11211 5\n10.0.1.2:11211 0\n",                         # 0: refused
    "10.0.1.1:11211 5\r\n\r\n10.0.1.2:11211 5\r\n",                 # "\r\n" line: refused
    "10.0.1.1:11211 5\n10.0.1.2:11211 99999999999999999999\n",      # ERANGE: refused
    "# nothing\n\n",                                                 # no server: refused
]
FILE_KEYS = 1000

# MC_SHMSIZE (ketama.h): ketama_create_continuum copies the continuum to a SysV segment of
# this size, after numpoints (int) and modtime (time_t) at int offsets 0 and 1; the entries
# start at int offset 1 + sizeof(void*) (ketama_roll: array = ++data + sizeof(void*)).
MC_SHMSIZE = 524288


class Mcs(ctypes.Structure):
    _fields_ = [("point", ctypes.c_uint), ("ip", ctypes.c_char * 22)]  # ketama.h mcs


HEADER = 4 * (1 + ctypes.sizeof(ctypes.c_void_p))
MAX_POINTS = (MC_SHMSIZE - HEADER) // ctypes.sizeof(Mcs)
# Equal weights: 117 servers give 18720 points (fit); 118 give 18880. One weight 3 beside
# 117 weights 1 gives 18724: the first count of whole labels past the segment.
SHM_CASES = [[("10.0.%d.%d:11211" % (i // 200, i % 200), 1) for i in range(117)],
             [("10.0.%d.%d:11211" % (i // 200, i % 200), 1) for i in range(118)],
             [("10.0.%d.%d:11211" % (i // 200, i % 200), 3 if i == 0 else 1) for i in range(118)]]


def model_file(text):
    """read_server_definitions(): (servers, None) or (None, line libketama names)."""
    servers, line, data = [], 0, text.encode()
    while data:
        end = data.find(b"\n")
        take = min(len(data) if end < 0 else end + 1, 126)
        piece, data = data[:take], data[take:]
        line += 1
        if len(piece) < 2 or piece[:1] == b"#":
            continue
        toks = [t for t in re.split(rb"[ \t]", piece) if t]
        if len(toks) < 2:
            return None, line
        m = re.match(rb"[ \t\n\v\f\r]*([+-]?[0-9]+)", toks[1][:-1])
        if not m or int(m.group(1)) <= 0 or int(m.group(1)) >= 2 ** 63:
            return None, line
        servers.append((toks[0].decode(), int(m.group(1))))
    return (servers, None) if servers else (None, 0)


class Roll:
    """One libketama continuum over a server file of its own (distinct inode: libketama
    caches continua in SysV shared memory keyed by ftok(file))."""

    def __init__(self, workdir, n, servers=None, text=None):
        self.path = os.path.join(workdir, "servers-%s" % n)
        with open(self.path, "wb") as f:
            f.write((text if text is not None else "".join("%s\t%d\n" % s for s in servers)).encode())
        self.k = None
        self.k = ketama.Ketama(self.path)

    def get(self, key_bytes):
        return self.k.get_server(key_bytes)

    def points(self):
        return self.k.get_points()

    def close(self):
        self.k = None
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

        # After the published vectors: a refused roll's clean-up (ketama_smoke) detaches
        # every segment this process attached, the earlier rolls' too.
        files = []
        for n, text in enumerate(FILES):
            r = Roll.__new__(Roll)
            r.path, r.k = os.path.join(workdir, "servers-file-%d" % n), None
            rolls.append(r)
            try:
                r.__init__(workdir, "file-%d" % n, text=text)
            except RuntimeError as e:
                line = int(re.search(r"\(line (\d+) in ", str(e)).group(1)) if "(line" in str(e) else 0
                assert model_file(text) == (None, line), (text, str(e), model_file(text))
                log("ketama: file %r refused at line %d (%s)" % (text[:40], line, e))
                files.append({"file": text, "error_line": line})
                continue
            servers, _ = model_file(text)
            model = pub.continuum(servers)
            assert [tuple(p) for p in r.points()] == model, ("file parse differs from the model", text)
            out = [{"key": k, "server": r.get(k.encode("utf-8"))[1]} for k in keys[:FILE_KEYS]]
            per = [[a, sum(1 for _, b in model if b == a)] for a, _ in servers]
            log("ketama: file %r: %s" % (text[:40], per))
            files.append({"file": text, "points_per_server": per, "keys": out})

        # The shared-memory layout, read back from the real segment: numpoints at 0, then
        # the entries from HEADER on, sizeof(mcs) apart.
        libc = ctypes.CDLL(None, use_errno=True)
        libc.shmat.restype = ctypes.c_void_p
        libc.shmat.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
        libc.shmget.argtypes = [ctypes.c_int, ctypes.c_size_t, ctypes.c_int]
        libc.shmdt.argtypes = [ctypes.c_void_p]
        shm = []
        for n, servers in enumerate(SHM_CASES):
            model = pub.continuum(servers)
            fits = HEADER + ctypes.sizeof(Mcs) * len(model) <= MC_SHMSIZE
            case = {"servers": [{"name": a, "weight": w} for a, w in servers], "points": len(model),
                    "fits": fits}
            if fits:
                r = Roll(workdir, "shm-%d" % n, servers)
                rolls.append(r)
                assert [tuple(p) for p in r.points()] == model
                shmid = libc.shmget(ftok_key(r.path), 0, 0)
                addr = libc.shmat(shmid, None, 0o10000)  # SHM_RDONLY
                assert shmid >= 0 and addr not in (None, ctypes.c_void_p(-1).value)
                assert ctypes.c_int.from_address(addr).value == len(model)
                entries = (Mcs * len(model)).from_address(addr + HEADER)
                assert [(e.point, e.ip.decode()) for e in entries] == model
                libc.shmdt(ctypes.c_void_p(addr))
                case["keys"] = [{"key": k, "server": r.get(k.encode("utf-8"))[1]} for k in keys[:FILE_KEYS]]
            else:
                # Past the segment the real library writes out of bounds: a crash or silent
                # corruption, depending on what is mapped after it (logged, not recorded).
                path = os.path.join(workdir, "servers-shm-%d" % n)
                with open(path, "w") as f:
                    f.write("".join("%s\t%d\n" % s for s in servers))
                code = ("import ketama, sys; k = ketama.Ketama(sys.argv[1]); "
                        "print(len(k.get_points()))")
                p = subprocess.run([sys.executable, "-c", code, path], capture_output=True, text=True)
                for flag in ("-M", "-S"):
                    subprocess.run(["ipcrm", flag, "0x%08x" % ftok_key(path)], capture_output=True)
                log("ketama: %d points need %d bytes of a %d-byte segment: the real library %s"
                    % (len(model), HEADER + ctypes.sizeof(Mcs) * len(model), MC_SHMSIZE,
                       "exited %d" % p.returncode if p.returncode >= 0 else "died of signal %d" % -p.returncode))
            shm.append(case)
        log("ketama: shared memory: %d-byte header, %d-byte entries, %d points at most"
            % (HEADER, ctypes.sizeof(Mcs), MAX_POINTS))

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
            "cases": cases,
            "files_notes": "Server files as written (quirks included), rolled by the real library: "
                           "error_line is the line its error names (fgets pieces of 126 bytes, "
                           "from 1; 0: no line), else the points per server name in file order "
                           "and the server of the first %d keys." % FILE_KEYS,
            "files": files,
            "shm_notes": "MC_SHMSIZE = %d bytes of SysV shared memory hold a %d-byte header and "
                         "%d-byte mcs entries (read back from the real segment), so at most %d "
                         "points; past it the real library writes out of bounds (a crash or "
                         "memory corruption, depending on the mapping after the segment)."
                         % (MC_SHMSIZE, HEADER, ctypes.sizeof(Mcs), MAX_POINTS),
            "shm": {"segment_bytes": MC_SHMSIZE, "header_bytes": HEADER,
                    "entry_bytes": ctypes.sizeof(Mcs), "max_points": MAX_POINTS, "cases": shm}})
    finally:
        for r in rolls:
            if not os.path.exists(r.path):
                continue
            key = ftok_key(r.path)
            r.close()
            for flag in ("-M", "-S"):  # in case ketama_smoke() could not remove them
                subprocess.run(["ipcrm", flag, "0x%08x" % key], capture_output=True)
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
