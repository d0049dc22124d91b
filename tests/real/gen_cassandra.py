"""cassandra.json: Murmur3Partitioner hash values from the DataStax Python driver.

token = cassandra.murmur3.murmur3(key bytes): the driver's C extension (cassandra/cmurmur3.c,
MurmurHash3_x64_128 with seed 0, first 64-bit half, tail bytes read as signed chars, as
Cassandra's Java MurmurHash.hash3_x64_128 does). Every value is checked against the
driver's pure-Python fallback (cassandra.murmur3._murmur3) and against the driver's
Murmur3Token.hash_fn (which maps Long.MIN_VALUE to Long.MAX_VALUE).
"""

import cassandra
from cassandra import murmur3 as m3
from cassandra.metadata import Murmur3Token

from common import log, write_fixture
from keys import all_keys

MIN_LONG = -(1 << 63)
MAX_LONG = (1 << 63) - 1


def unsigned_tail_murmur3(data):
    """Murmur3 x64_128 h1 with UNSIGNED tail bytes (the reference C++ / most libraries), only
    to count how many keys the signed-tail variant changes."""
    mask = (1 << 64) - 1
    c1, c2 = 0x87C37B91114253D5, 0x4CF5AD432745937F
    rotl = lambda x, r: ((x << r) | (x >> (64 - r))) & mask

    def fmix(k):
        k ^= k >> 33
        k = (k * 0xFF51AFD7ED558CCD) & mask
        k ^= k >> 33
        k = (k * 0xC4CEB9FE1A85EC53) & mask
        return k ^ (k >> 33)

    h1 = h2 = 0
    n = len(data) // 16
    for i in range(n):
        k1 = int.from_bytes(data[16 * i:16 * i + 8], "little")
        k2 = int.from_bytes(data[16 * i + 8:16 * i + 16], "little")
        k1 = (rotl((k1 * c1) & mask, 31) * c2) & mask
        h1 = ((rotl(h1 ^ k1, 27) + h2) * 5 + 0x52DCE729) & mask
        k2 = (rotl((k2 * c2) & mask, 33) * c1) & mask
        h2 = ((rotl(h2 ^ k2, 31) + h1) * 5 + 0x38495AB5) & mask
    tail = data[16 * n:]
    k1 = int.from_bytes(tail[:8], "little")
    k2 = int.from_bytes(tail[8:], "little")
    if k2:
        h2 ^= (rotl((k2 * c2) & mask, 33) * c1) & mask
    if tail:
        h1 ^= (rotl((k1 * c1) & mask, 31) * c2) & mask
    h1 ^= len(data)
    h2 ^= len(data)
    h1 = (h1 + h2) & mask
    h2 = (h2 + h1) & mask
    h1, h2 = fmix(h1), fmix(h2)
    h1 = (h1 + h2) & mask
    return h1 - (1 << 64) if h1 >> 63 else h1


def main():
    assert m3.murmur3 is not m3._murmur3, "the driver's C extension (cmurmur3) is not loaded"
    keys = all_keys()
    tokens, differ = [], 0
    for k in keys:
        b = k.encode("utf-8")
        t = m3.murmur3(b)
        assert MIN_LONG <= t <= MAX_LONG
        assert t == m3._murmur3(b), k
        assert Murmur3Token.hash_fn(b) == (MAX_LONG if t == MIN_LONG else t)
        differ += t != unsigned_tail_murmur3(b)
        tokens.append({"key": k, "token": str(t)})
    empty = m3.murmur3(b"")
    log("cassandra: %d tokens; murmur3(b'') = %d; %d keys differ from the unsigned-tail Murmur3"
        % (len(tokens), empty, differ))
    assert differ > 0
    write_fixture("cassandra.json", {
        "produced_by": "cassandra-driver %s (PyPI), cassandra.murmur3.murmur3 = C extension "
                       "cassandra.cmurmur3" % cassandra.__version__,
        "notes": "token = cassandra.murmur3.murmur3(UTF-8 bytes of key) as a signed 64-bit "
                 "decimal: MurmurHash3_x64_128, seed 0, first half (h1), tail bytes "
                 "sign-extended. The driver returns %d for the empty key; Cassandra's "
                 "Murmur3Partitioner.getToken() returns Long.MIN_VALUE "
                 "(-9223372036854775808) for an empty key instead, and maps a hash of "
                 "Long.MIN_VALUE to Long.MAX_VALUE (normalize). %d of these keys hash "
                 "differently with unsigned tail bytes." % (empty, differ),
        "tokens": tokens})


if __name__ == "__main__":
    main()
