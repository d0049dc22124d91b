"""ketama_published.json: libketama (last.fm) vectors as PUBLISHED by libketama itself and by
ports that assert libketama's results. No number here is computed by us: every vector is
transcribed from the cited file. The small model below (the rules of RJ/ketama
libketama/ketama.c) only checks the transcription: it must reproduce every vector and
every published MD5 digest, or the run fails.
"""

import bisect
import hashlib
import math
import struct

from common import log, write_fixture

RJ = "RJ/ketama"
RJ_COMMIT = "2c6284c2094142af95e4e8b779b324bc95cdecfc"
MW = "wikimedia/mediawiki"
MW_PATH = "tests/phpunit/includes/libs/HashRingTest.php"

# RJ/ketama ketama.servers (address, memory) -- the list libketama's own test uses.
KETAMA_SERVERS = [("10.0.1.1:11211", 600), ("10.0.1.2:11211", 300), ("10.0.1.3:11211", 200),
                  ("10.0.1.4:11211", 350), ("10.0.1.5:11211", 1000), ("10.0.1.6:11211", 800),
                  ("10.0.1.7:11211", 950), ("10.0.1.8:11211", 100)]

# wikimedia/mediawiki HashRingTest::testHashRingKetamaMode, "Known correct values generated
# from C code: https://github.com/RJ/ketama/blob/master/libketama/ketama_test.c": for key
# "0".."99", the line "<ketama_hashi(key)> <point found> <server>" (ketama_test.c's printf).
MEDIAWIKI_LINES = """\
2216742351 2217271743 10.0.1.1:11211
943901380 949045552 10.0.1.5:11211
2373066440 2374693370 10.0.1.6:11211
2127088620 2130338203 10.0.1.6:11211
2046197672 2051996197 10.0.1.7:11211
2134629092 2135172435 10.0.1.1:11211
470382870 472541453 10.0.1.7:11211
1608782991 1609789509 10.0.1.3:11211
2516119753 2520092206 10.0.1.2:11211
3465331781 3466294492 10.0.1.4:11211
1749342675 1753760600 10.0.1.5:11211
1136464485 1137779711 10.0.1.1:11211
3620997826 3621580689 10.0.1.7:11211
283385029 285581365 10.0.1.6:11211
2300818346 2302165654 10.0.1.5:11211
2132603803 2134614475 10.0.1.8:11211
2962705863 2969767984 10.0.1.2:11211
786427760 786565633 10.0.1.5:11211
4095887727 4096760944 10.0.1.6:11211
2906459679 2906987515 10.0.1.6:11211
137884056 138922607 10.0.1.4:11211
81549628 82491298 10.0.1.6:11211
3530020790 3530525869 10.0.1.6:11211
4231817527 4234960467 10.0.1.7:11211
2011099423 2014738083 10.0.1.7:11211
107620750 120968799 10.0.1.6:11211
3979113294 3981926993 10.0.1.4:11211
273671938 276355738 10.0.1.4:11211
4032816947 4033300359 10.0.1.5:11211
464234862 466093615 10.0.1.1:11211
3007059764 3007671127 10.0.1.5:11211
542337729 542491760 10.0.1.7:11211
4040385635 4044064727 10.0.1.5:11211
3319802648 3320661601 10.0.1.7:11211
1032153571 1035085391 10.0.1.1:11211
3543939100 3545608820 10.0.1.5:11211
3876899353 3885324049 10.0.1.2:11211
3771318181 3773259708 10.0.1.8:11211
3457906597 3459285639 10.0.1.5:11211
3028975062 3031083168 10.0.1.7:11211
244467158 250943416 10.0.1.5:11211
1604785716 1609789509 10.0.1.3:11211
3905343649 3905751132 10.0.1.1:11211
1713497623 1725056963 10.0.1.5:11211
1668356087 1668827816 10.0.1.5:11211
3427369836 3438933308 10.0.1.1:11211
2515850457 2520092206 10.0.1.2:11211
3886138983 3887390208 10.0.1.1:11211
4019334756 4023153300 10.0.1.8:11211
1170561012 1170785765 10.0.1.7:11211
1841809344 1848425105 10.0.1.6:11211
973223976 973369204 10.0.1.1:11211
358093210 359562433 10.0.1.6:11211
378350808 380841931 10.0.1.5:11211
4008477862 4012085095 10.0.1.7:11211
1027226549 1028630030 10.0.1.6:11211
2386583967 2387706118 10.0.1.1:11211
522892146 524831677 10.0.1.7:11211
3779194982 3788912803 10.0.1.5:11211
3764731657 3771312500 10.0.1.7:11211
184756999 187529415 10.0.1.6:11211
838351231 845886003 10.0.1.3:11211
2827220548 2828019973 10.0.1.6:11211
3604721411 3607668249 10.0.1.6:11211
472866282 475506254 10.0.1.5:11211
2752268796 2754833471 10.0.1.5:11211
1791464754 1795042583 10.0.1.7:11211
3029359475 3031083168 10.0.1.7:11211
3633378211 3639985542 10.0.1.6:11211
3148267284 3149217023 10.0.1.6:11211
163887996 166705043 10.0.1.7:11211
3642803426 3649125922 10.0.1.7:11211
3901799218 3902199881 10.0.1.7:11211
418045394 425867331 10.0.1.6:11211
346775981 348578169 10.0.1.6:11211
368352208 372224616 10.0.1.7:11211
2643711995 2644259911 10.0.1.5:11211
2032983336 2033860601 10.0.1.6:11211
3567842357 3572867530 10.0.1.2:11211
1024982737 1028630030 10.0.1.6:11211
933966832 938106828 10.0.1.7:11211
2102520899 2103402846 10.0.1.7:11211
3537205399 3538094881 10.0.1.7:11211
2311233534 2314593262 10.0.1.1:11211
2500514664 2503565236 10.0.1.7:11211
1091958846 1093484995 10.0.1.6:11211
3984972691 3987453644 10.0.1.1:11211
2669994439 2670911201 10.0.1.4:11211
2846111786 2846115813 10.0.1.5:11211
1805010806 1808593732 10.0.1.8:11211
1587024774 1587746378 10.0.1.5:11211
3214549588 3215619351 10.0.1.2:11211
1965214866 1970922428 10.0.1.7:11211
1038671000 1040777775 10.0.1.7:11211
820820468 823114475 10.0.1.6:11211
2722835329 2723166435 10.0.1.5:11211
1602053414 1604196066 10.0.1.5:11211
1330835426 1335097278 10.0.1.5:11211
556547565 557075710 10.0.1.4:11211
2977587884 2978402952 10.0.1.1:11211
"""

# Published MD5 digests of ketama_test's whole output ("\n" for the empty ketama_error()
# line, then one "%u %u %s\n" line per key "0".."N-1") over KETAMA_SERVERS.
DIGESTS = [
    (1000000, "5672b131391f5aa2b280936aec1eea74",
     "%s libketama/test.sh (commit %s): md5sum of `ketama_test ../ketama.servers`" % (RJ, RJ_COMMIT)),
    (1000, "d1a4912a80e4654ec2e4e462c8b911c6",
     "%s %s (commit cfff40e900f5878e62d818985d8049357eccf099): md5( $ketama_test( 1e3 ) )" % (MW, MW_PATH)),
    (100000, "c69ac9eb7a8a630c0cded201cefeaace",
     "%s %s (commit 2a9f1056f11bf6847eefe05d4f4526c322e00e8b): md5( $ketama_test( 1e5 ) )" % (MW, MW_PATH)),
]


# ------------------------------------------------------------------ check-only model
def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def continuum(servers):
    """ketama_create_continuum(): pct = (float)mem / (float)total; ks = floorf(pct * 40.0 *
    (float)n) (double product, converted to float by floorf); label "%s-%d" % (addr, k);
    4 little-endian words of MD5(label) per k; sorted by point (ties: qsort, unspecified)."""
    total = sum(w for _, w in servers)
    n = len(servers)
    pts = []
    for addr, w in servers:
        pct = f32(f32(w) / f32(total))
        ks = int(math.floor(f32(pct * 40.0 * float(n))))
        for k in range(ks):
            d = hashlib.md5(("%s-%d" % (addr, k)).encode()).digest()
            pts.extend((struct.unpack_from("<I", d, 4 * h)[0], addr) for h in range(4))
    pts.sort(key=lambda p: p[0])
    return pts


def hashi_bytes(b):
    """ketama_hashi(): the first 4 bytes of MD5(key), little-endian."""
    return struct.unpack_from("<I", hashlib.md5(b).digest())[0]


def hashi(key):
    return hashi_bytes(key.encode())


def get_server_hash(pts, values, h):
    """ketama_get_server(): the first point >= h, wrapping to the first point."""
    i = bisect.bisect_left(values, h)
    return h, pts[i % len(pts)]


def get_server(pts, key, values=None):
    return get_server_hash(pts, values if values is not None else [p for p, _ in pts],
                           hashi(key))


def ketama_test_output(pts, n):
    values = [p for p, _ in pts]
    return "\n" + "".join("%u %u %s\n" % (h, p, a) for h, (p, a) in
                          (get_server(pts, str(i), values) for i in range(n)))


def main():
    vectors = []

    # 1. RJ/ketama python_ketama/tests.py
    servers = [("127.0.0.1:11211", 600), ("127.0.0.1:11212", 400)]
    pts = continuum(servers)
    assert len(pts) == 160 * 2                                  # test_points
    assert hashi("test") == 3446378249                          # test_hashi
    assert get_server(pts, "test")[1] == (3454255383, "127.0.0.1:11211")  # test_hashing
    vectors.append({
        "source": "%s python_ketama/tests.py (commit %s): test_hashing, test_hashi, test_points; "
                  "the same numbers are asserted by the node port 3rd-Eden/node-hashring "
                  "tests/api.test.js (hashValue('test') = 3446378249; find -> 3454255383)" % (RJ, RJ_COMMIT),
        "servers": [{"name": a, "weight": w} for a, w in servers],
        "keys": [{"key": "test", "server": "127.0.0.1:11211", "hash": 3446378249,
                  "point": 3454255383}],
        "points_total": 320,
    })

    # 2. MediaWiki's transcription of libketama's ketama_test output, keys "0".."99".
    pts = continuum(KETAMA_SERVERS)
    keys = []
    for i, line in enumerate(MEDIAWIKI_LINES.splitlines()):
        h, p, a = line.split()
        keys.append({"key": str(i), "server": a, "hash": int(h), "point": int(p)})
    assert ketama_test_output(pts, 100) == "\n" + MEDIAWIKI_LINES, "transcription/model mismatch"
    vectors.append({
        "source": "%s %s, testHashRingKetamaMode (commits cfff40e900f5878e62d818985d8049357eccf099 "
                  "and 2a9f1056f11bf6847eefe05d4f4526c322e00e8b): 'Known correct values generated "
                  "from C code: RJ/ketama libketama/ketama_test.c' over RJ/ketama ketama.servers"
                  % (MW, MW_PATH),
        "servers": [{"name": a, "weight": w} for a, w in KETAMA_SERVERS],
        "keys": keys,
        "output_md5": [{"keys": n, "md5": d, "source": s} for n, d, s in DIGESTS],
    })
    for n, digest, source in DIGESTS:
        got = hashlib.md5(ketama_test_output(pts, n).encode()).hexdigest()
        assert got == digest, (source, got)
    log("ketama_published: %d vectors, %d keys, %d published digests reproduced by the model"
        % (len(vectors), sum(len(v["keys"]) for v in vectors), len(DIGESTS)))

    write_fixture("ketama_published.json", {
        "produced_by": "transcribed from published sources (see each vector's source); "
                       "libketama itself is not packaged by Debian and was not run",
        "notes": "libketama rules (RJ/ketama libketama/ketama.c): label '<addr>-<k>' with addr "
                 "exactly as in the servers file (port always included), k = 0..ks-1, ks = "
                 "floorf(pct * 40.0 * n) with pct = (float)mem/(float)total_mem; 4 points per "
                 "label = MD5 bytes [4h..4h+3] little-endian; key hash = first 4 MD5 bytes "
                 "little-endian; server = first point >= hash, else the first point. hash/point "
                 "per key are the published ketama_hashi(key) and the point found. "
                 "points_total: the continuum size asserted by python_ketama's test_points. "
                 "output_md5: MD5 of '\\n' + ''.join('%u %u %s\\n' % (hash, point, server) for "
                 "keys '0'..str(keys-1)), i.e. libketama's ketama_test output.",
        "vectors": vectors})


if __name__ == "__main__":
    main()
