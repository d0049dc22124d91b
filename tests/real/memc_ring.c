/* memc_ring: asks the real libmemcached which server each key maps to.
 *
 * usage: memc_ring weighted|ketama HOST:PORT:WEIGHT... < keys
 *   stdin:  one key a line, hex-encoded (an empty line is the empty key)
 *   stdout: "V <libmemcached version>"
 *           "B <distribution> <ketama_weighted> <hash> <ketama_hash>"   (behaviours as set)
 *           "K <server index>" for each key, from memcached_generate_hash()
 *           "S <server index>|-" for each key, from memcached_server_by_key() (or - when the
 *                                library refuses the key, e.g. "" or > 250 bytes)
 *           "C <value> <server index>" for each continuum point, in the library's own order
 *
 * No server is contacted: libmemcached computes the continuum when servers are added and
 * hashes keys locally.
 */
#include <libmemcached/memcached.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Same layout as libmemcached 1.1.4's src/libmemcached/continuum.hpp (not installed). */
struct memcached_continuum_item_st {
  uint32_t index;
  uint32_t value;
};

static void die(const char *what, memcached_st *memc, memcached_return_t rc) {
  fprintf(stderr, "memc_ring: %s: %s\n", what, memc ? memcached_last_error_message(memc)
                                                     : memcached_strerror(NULL, rc));
  exit(2);
}

static int hexval(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

int main(int argc, char **argv) {
  if (argc < 3 || (strcmp(argv[1], "weighted") && strcmp(argv[1], "ketama"))) {
    fprintf(stderr, "usage: memc_ring weighted|ketama HOST:PORT:WEIGHT... < hexkeys\n");
    return 2;
  }
  int weighted = !strcmp(argv[1], "weighted");
  memcached_st *memc = memcached_create(NULL);
  if (!memc) die("memcached_create", NULL, MEMCACHED_FAILURE);
  memcached_return_t rc;

  /* Servers first: memcached_server_add_with_weight() turns weighted ketama on by itself
   * for any weight > 1 (src/libmemcached/hosts.cc server_add()); the behaviours set after
   * the servers decide the final mode, and each set rebuilds the continuum. */
  char **hosts = calloc(argc, sizeof(char *));
  unsigned *ports = calloc(argc, sizeof(unsigned));
  for (int i = 2; i < argc; i++) {
    char *spec = strdup(argv[i]);
    char *w = strrchr(spec, ':');
    if (!w) die("bad server spec", NULL, MEMCACHED_INVALID_ARGUMENTS);
    *w++ = 0;
    char *p = strrchr(spec, ':');
    if (!p) die("bad server spec", NULL, MEMCACHED_INVALID_ARGUMENTS);
    *p++ = 0;
    hosts[i - 2] = spec;
    ports[i - 2] = (unsigned) atoi(p);
    rc = memcached_server_add_with_weight(memc, spec, (in_port_t) atoi(p), (uint32_t) atoi(w));
    if (rc != MEMCACHED_SUCCESS) die("memcached_server_add_with_weight", memc, rc);
  }
  int nservers = argc - 2;

  if (weighted) {
    rc = memcached_behavior_set(memc, MEMCACHED_BEHAVIOR_DISTRIBUTION,
                                MEMCACHED_DISTRIBUTION_CONSISTENT_KETAMA);
    if (rc != MEMCACHED_SUCCESS) die("DISTRIBUTION", memc, rc);
    /* Sets HASH and KETAMA_HASH to MD5 and the distribution to CONSISTENT_WEIGHTED. */
    rc = memcached_behavior_set(memc, MEMCACHED_BEHAVIOR_KETAMA_WEIGHTED, 1);
    if (rc != MEMCACHED_SUCCESS) die("KETAMA_WEIGHTED", memc, rc);
  } else {
    rc = memcached_behavior_set(memc, MEMCACHED_BEHAVIOR_DISTRIBUTION,
                                MEMCACHED_DISTRIBUTION_CONSISTENT_KETAMA);
    if (rc != MEMCACHED_SUCCESS) die("DISTRIBUTION", memc, rc);
    rc = memcached_behavior_set(memc, MEMCACHED_BEHAVIOR_KETAMA_WEIGHTED, 0);
    if (rc != MEMCACHED_SUCCESS) die("KETAMA_WEIGHTED", memc, rc);
    /* The key hash AND the continuum point hash are MEMCACHED_BEHAVIOR_HASH (hashkit
     * base_hash); KETAMA_HASH is stored but not used by 1.1.4. Set both to MD5. */
    rc = memcached_behavior_set(memc, MEMCACHED_BEHAVIOR_KETAMA_HASH, MEMCACHED_HASH_MD5);
    if (rc != MEMCACHED_SUCCESS) die("KETAMA_HASH", memc, rc);
    rc = memcached_behavior_set(memc, MEMCACHED_BEHAVIOR_HASH, MEMCACHED_HASH_MD5);
    if (rc != MEMCACHED_SUCCESS) die("HASH", memc, rc);
    /* Setting a hash does not rebuild the continuum; setting the distribution does. */
    rc = memcached_behavior_set(memc, MEMCACHED_BEHAVIOR_DISTRIBUTION,
                                MEMCACHED_DISTRIBUTION_CONSISTENT_KETAMA);
    if (rc != MEMCACHED_SUCCESS) die("DISTRIBUTION", memc, rc);
  }

  printf("V %s\n", memcached_lib_version());
  printf("B %llu %llu %llu %llu\n",
         (unsigned long long) memcached_behavior_get(memc, MEMCACHED_BEHAVIOR_DISTRIBUTION),
         (unsigned long long) memcached_behavior_get(memc, MEMCACHED_BEHAVIOR_KETAMA_WEIGHTED),
         (unsigned long long) memcached_behavior_get(memc, MEMCACHED_BEHAVIOR_HASH),
         (unsigned long long) memcached_behavior_get(memc, MEMCACHED_BEHAVIOR_KETAMA_HASH));

  char line[1 << 16];
  char key[1 << 15];
  while (fgets(line, sizeof line, stdin)) {
    size_t n = strcspn(line, "\r\n"), len = 0;
    if (n % 2) die("odd hex line", NULL, MEMCACHED_INVALID_ARGUMENTS);
    for (size_t i = 0; i < n; i += 2) {
      int hi = hexval(line[i]), lo = hexval(line[i + 1]);
      if (hi < 0 || lo < 0) die("bad hex", NULL, MEMCACHED_INVALID_ARGUMENTS);
      key[len++] = (char) (hi * 16 + lo);
    }
    uint32_t idx = memcached_generate_hash(memc, key, len);
    printf("K %u\n", idx);
    rc = MEMCACHED_SUCCESS; /* memcached_server_by_key() leaves it untouched on success */
    const memcached_instance_st *inst = memcached_server_by_key(memc, key, len, &rc);
    if (rc == MEMCACHED_SUCCESS && inst) {
      int found = -1;
      for (int i = 0; i < nservers; i++) {
        if (!strcmp(memcached_server_name(inst), hosts[i])
            && memcached_server_port(inst) == ports[i] && found < 0)
          found = i;
      }
      printf("S %d\n", found);
    } else {
      printf("S -\n");
    }
  }

  for (uint32_t i = 0; i < memc->ketama.continuum_points_counter; i++) {
    printf("C %u %u\n", memc->ketama.continuum[i].value, memc->ketama.continuum[i].index);
  }
  memcached_free(memc);
  return 0;
}
