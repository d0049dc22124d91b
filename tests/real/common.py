"""Small helpers shared by the generators in tests/real/."""

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "fixtures")


def log(*args):
    print("[real]", *args, file=sys.stderr, flush=True)


def deb_version(pkg):
    """Installed version of a Debian package, or None."""
    try:
        out = subprocess.run(["dpkg-query", "-W", "-f=${Version}", pkg],
                             capture_output=True, text=True, check=True).stdout.strip()
        return out or None
    except (subprocess.CalledProcessError, FileNotFoundError):
        return None


def _nodict(v):
    if isinstance(v, dict):
        return False
    if isinstance(v, list):
        return all(_nodict(x) for x in v)
    return True


def _flat(v):
    """True if v is printed on one line: a scalar, a list holding no dict, or a dict
    whose values hold no dict (so one key entry or one slot-range list is one line)."""
    if isinstance(v, dict):
        return all(_nodict(x) for x in v.values())
    return _nodict(v)


def dumps(obj, indent=0):
    """JSON text: nested containers indented one space a level, flat ones on one line."""
    one = lambda v: json.dumps(v, ensure_ascii=False, separators=(", ", ": "))
    if _flat(obj):
        return one(obj)
    pad = " " * (indent + 1)
    if isinstance(obj, dict):
        items = [pad + one(k) + ": " + dumps(v, indent + 1) for k, v in obj.items()]
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    items = [pad + dumps(v, indent + 1) for v in obj]
    return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"


def write_fixture(name, obj):
    """Write fixtures/<name> as UTF-8 JSON (non-ASCII kept as is), one trailing newline."""
    os.makedirs(FIXTURES, exist_ok=True)
    path = os.path.join(FIXTURES, name)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(dumps(obj))
        f.write("\n")
    os.replace(tmp, path)
    log("wrote", os.path.relpath(path, os.path.dirname(os.path.dirname(HERE))),
        "(%d bytes)" % os.path.getsize(path))


def ranges(sorted_ints):
    """[1,2,3,7,9,10] -> [[1,3],[7,7],[9,10]]"""
    out = []
    for v in sorted_ints:
        if out and out[-1][1] == v - 1:
            out[-1][1] = v
        else:
            out.append([v, v])
    return out
