"""The key set shared by every generator in tests/real/.

Deterministic: the same list, in the same order, on every run and every Python
version (no use of `random`; a fixed splitmix64 stream makes the pseudo-random
keys). Every key is a Python str; the bytes hashed are its UTF-8 encoding.
"""

MASK64 = (1 << 64) - 1


def splitmix64(seed):
    """Endless stream of 64-bit values (Steele, Lea & Flood's SplitMix64)."""
    state = seed & MASK64
    while True:
        state = (state + 0x9E3779B97F4A7C15) & MASK64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        yield z ^ (z >> 31)


# Alphabet for the pseudo-random keys: ASCII plus 2-, 3- and 4-byte UTF-8 characters.
_ALPHABET = (
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789:-_./{} "
    "éüßñçøÿ"          # 2-byte UTF-8
    "ключДЖЯ"           # 2-byte (Cyrillic)
    "日本語キー€"        # 3-byte
    "🔑😀𝄞"              # 4-byte
)


def edge_keys():
    keys = [
        "",                       # empty key
        "a",
        "ключ",                   # Cyrillic, 8 bytes
        "日本語キー",              # Japanese, 15 bytes
        "x" * 300,                # 300-byte key (longer than memcached's 250-byte limit)
        "123456789",              # the CRC check string (CRC16-XMODEM = 0x31C3)
        "user:1000",
        "foo",
        "bar",
        "hello",
        "key with spaces",
        "tab\tand\nnewline",
        "nul\u0000byte",          # an embedded NUL byte
        "naïve café",
        "Ünïcödé-ÿ",
        "🔑emoji🔑",
        "\u00ff",                 # 2 bytes: C3 BF
        "\u00ff" * 16,            # 32 bytes, every byte >= 0x80
        "€" * 5,                  # 15 bytes, every byte >= 0x80
        "a" * 1000,               # 1000 bytes
    ]
    # Keys whose tail (the bytes after the last full 4/8/16-byte block) holds bytes
    # >= 0x80, for every tail length: n ASCII bytes then a 2-, 3- or 4-byte character.
    for n in range(0, 33):
        keys.append("t" * n + "é")        # ends C3 A9
        keys.append("t" * n + "日")       # ends E6 97 A5
        keys.append("t" * n + "🔑")       # ends F0 9F 94 91
    for n in range(1, 17):
        keys.append("ÿ" * n)              # 2n bytes, all >= 0x80
    return keys


def random_keys(count=1000, seed=0x5EED_2024):
    rng = splitmix64(seed)
    out = []
    for _ in range(count):
        length = next(rng) % 48
        out.append("".join(_ALPHABET[next(rng) % len(_ALPHABET)] for _ in range(length)))
    return out


def all_keys():
    """Edge keys, then user:0..user:1999, then 1000 pseudo-random UTF-8 keys; no duplicates."""
    seen = set()
    out = []
    for k in edge_keys() + ["user:%d" % i for i in range(2000)] + random_keys():
        if k not in seen:
            seen.add(k)
            out.append(k)
    return out


if __name__ == "__main__":
    ks = all_keys()
    print(len(ks), "keys;", sum(1 for k in ks if any(ord(c) > 127 for c in k)), "non-ASCII")
