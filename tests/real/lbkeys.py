"""Keys for the load-balancer fixtures (nginx.json, haproxy.json).

The keys travel in an HTTP header (`X-Key`), so only header-safe keys from keys.py are
used: no control bytes, no comma (HAProxy's `hdr()` stops at a comma), no leading or
trailing blank (both programs trim them), not empty (both balance an empty key round
robin). `forced_crc32` makes keys whose CRC-32 is a chosen value, to land exactly on a
point: CRC-32 is affine in the message bits, so seven suffix bytes from 0x40-0x5F
(`@A-Z[\\]^_`, 35 free bits) can reach any 32-bit value. `forced_sdbm` does the same for
HAProxy's sdbm (`h * 65599 + c`) by meeting in the middle over two 3-byte halves from
`[0-9A-Za-z_-]` (2^36 suffixes for 2^32 values).
"""

import zlib

from keys import all_keys

SUFFIX_LEN = 7
SUFFIX_BASE = 0x40


def header_safe(key):
    b = key.encode("utf-8")
    return (len(b) > 0 and len(b) <= 1000 and b[0] not in b" \t" and b[-1] not in b" \t"
            and b"," not in b and all(c >= 0x20 and c != 0x7F for c in b))


def lb_keys():
    return [k for k in all_keys() if header_safe(k)]


def _solve(columns, target):
    """Bits x (len(columns) of them) with XOR of columns[i] for set x[i] == target, or None."""
    rows = []  # (pivot bit, vector, combination)
    for i, col in enumerate(columns):
        v, comb = col, 1 << i
        for bit, rv, rc in rows:
            if v >> bit & 1:
                v ^= rv
                comb ^= rc
        if v:
            bit = v.bit_length() - 1
            # keep rows reduced on this pivot
            rows = [(b, rv ^ v, rc ^ comb) if rv >> bit & 1 else (b, rv, rc) for b, rv, rc in rows]
            rows.append((bit, v, comb))
    x, t = 0, target
    for bit, rv, rc in sorted(rows, key=lambda r: -r[0]):
        if t >> bit & 1:
            t ^= rv
            x ^= rc
    return x if t == 0 else None


def forced_crc32(prefix, target):
    """prefix + 7 bytes from @A-Z[\\]^_ whose zlib CRC-32 is `target`."""
    p = prefix.encode("utf-8")
    base_suffix = bytes([SUFFIX_BASE]) * SUFFIX_LEN
    base = zlib.crc32(p + base_suffix)
    columns = []
    for byte in range(SUFFIX_LEN):
        for bit in range(5):
            s = bytearray(base_suffix)
            s[byte] ^= 1 << bit
            columns.append(zlib.crc32(p + bytes(s)) ^ base)
    x = _solve(columns, target ^ base)
    if x is None:
        raise ValueError("no suffix reaches 0x%08x" % target)
    s = bytearray(base_suffix)
    for i in range(len(columns)):
        if x >> i & 1:
            s[i // 5] ^= 1 << (i % 5)
    key = prefix + s.decode("ascii")
    assert zlib.crc32(key.encode()) == target
    return key


SDBM_K = 65599
SDBM_ALPHABET = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_"
M32 = 0xFFFFFFFF
_halves = None


def sdbm(b, h=0):
    for c in b:
        h = (c + h * SDBM_K) & M32
    return h


def _sdbm_halves():
    global _halves
    if _halves is None:
        _halves = {}
        for x in SDBM_ALPHABET:
            for y in SDBM_ALPHABET:
                for z in SDBM_ALPHABET:
                    _halves.setdefault((x * SDBM_K * SDBM_K + y * SDBM_K + z) & M32, bytes([x, y, z]))
    return _halves


def forced_sdbm(prefix, target):
    """prefix + 6 bytes from [0-9A-Za-z_-] whose sdbm is `target`."""
    halves = _sdbm_halves()
    p = prefix.encode("utf-8")
    k3 = pow(SDBM_K, 3, 1 << 32)
    inv_k3 = pow(k3, -1, 1 << 32)
    base = (sdbm(p) * k3 * k3) & M32
    for right, tail in halves.items():
        left = ((target - base - right) * inv_k3) & M32
        head = halves.get(left)
        if head is not None:
            key = prefix + (head + tail).decode("ascii")
            assert sdbm(key.encode()) == target
            return key
    raise ValueError("no suffix reaches 0x%08x" % target)


if __name__ == "__main__":
    ks = lb_keys()
    print(len(ks), "header-safe keys")
    for t in (0, 1, 0xFFFFFFFF, 0x12345678):
        print(forced_crc32("k", t), forced_sdbm("k", t))
