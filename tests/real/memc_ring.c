/* memc_ring: asks the real libmemcached which server each key maps to.
 *
 * usage: memc_ring weighted|ketama SERVER... < keys
 *        memc_ring ketama-late SERVER... [-- SERVER...] < keys
 *   ketama-late: the servers before "--" are added BEFORE the behaviours are set (as pylibmc
 *   does: servers to the constructor, then behaviors), the ones after "--" after them.
 *   SERVER: HOST:PORT:WEIGHT  memcached_server_add_with_weight()
 *           unix:PATH:WEIGHT  memcached_server_add_unix_socket_with_weight()
 *           parse:LIST        memcached_servers_parse(LIST) + memcached_server_push()
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

/* Adds one SERVER argument (see usage). */
static void add_server(memcached_st *memc, const char *arg) {
  memcached_return_t rc;
  char *spec = strdup(arg);
  if (!strncmp(spec, "parse:", 6)) {
    memcached_server_list_st list = memcached_servers_parse(spec + 6);
    if (!list) die("memcached_servers_parse", NULL, MEMCACHED_INVALID_ARGUMENTS);
    rc = memcached_server_push(memc, list);
    if (rc != MEMCACHED_SUCCESS) die("memcached_server_push", memc, rc);
    memcached_server_list_free(list);
    return;
  }
  char *w = strrchr(spec, ':');
  if (!w) die("bad server spec", NULL, MEMCACHED_INVALID_ARGUMENTS);
  *w++ = 0;
  if (!strncmp(spec, "unix:", 5)) {
    rc = memcached_server_add_unix_socket_with_weight(memc, spec + 5, (uint32_t) atoi(w));
    if (rc != MEMCACHED_SUCCESS) die("memcached_server_add_unix_socket_with_weight", memc, rc);
    return;
  }
  char *p = strrchr(spec, ':');
  if (!p) die("bad server spec", NULL, MEMCACHED_INVALID_ARGUMENTS);
  *p++ = 0;
  rc = memcached_server_add_with_weight(memc, spec, (in_port_t) atoi(p), (uint32_t) atoi(w));
  if (rc != MEMCACHED_SUCCESS) die("memcached_server_add_with_weight", memc, rc);
}

int main(int argc, char **argv) {
  if (argc < 3 || (strcmp(argv[1], "weighted") && strcmp(argv[1], "ketama") && strcmp(argv[1], "ketama-late"))) {
    fprintf(stderr, "usage: memc_ring weighted|ketama|ketama-late SERVER... < hexkeys\n");
    return 2;
  }
  int weighted = !strcmp(argv[1], "weighted");
  int late = !strcmp(argv[1], "ketama-late");
  memcached_st *memc = memcached_create(NULL);
  if (!memc) die("memcached_create", NULL, MEMCACHED_FAILURE);
  memcached_return_t rc;
  int first = 2;
  if (late) {
    for (; first < argc && strcmp(argv[first], "--"); first++) add_server(memc, argv[first]);
    if (first < argc) first++; /* skip "--" */
  }

  /* weighted: servers first, then the behaviours (KETAMA_WEIGHTED=1 decides the mode).
   * ketama: the behaviours first, as a client configures itself before adding servers;
   * adding a server of weight > 1 then turns weighted ketama on by itself
   * (src/libmemcached/hosts.cc server_add(), memcached_server_push()). */
  if (!weighted) {
    /* The key hash AND the continuum point hash are MEMCACHED_BEHAVIOR_HASH (hashkit
     * base_hash); KETAMA_HASH is stored but not used by 1.1.4. Set both to MD5, BEFORE the
     * distribution: setting a hash does not rebuild the continuum (behavior.cc), so in
     * ketama-late the continuum built by set_distribution would keep the default hash. */
    rc = memcached_behavior_set(memc, MEMCACHED_BEHAVIOR_KETAMA_HASH, MEMCACHED_HASH_MD5);
    if (rc != MEMCACHED_SUCCESS) die("KETAMA_HASH", memc, rc);
    rc = memcached_behavior_set(memc, MEMCACHED_BEHAVIOR_HASH, MEMCACHED_HASH_MD5);
    if (rc != MEMCACHED_SUCCESS) die("HASH", memc, rc);
    rc = memcached_behavior_set(memc, MEMCACHED_BEHAVIOR_DISTRIBUTION,
                                MEMCACHED_DISTRIBUTION_CONSISTENT_KETAMA);
    if (rc != MEMCACHED_SUCCESS) die("DISTRIBUTION", memc, rc);
    rc = memcached_behavior_set(memc, MEMCACHED_BEHAVIOR_KETAMA_WEIGHTED, 0);
    if (rc != MEMCACHED_SUCCESS) die("KETAMA_WEIGHTED", memc, rc);
  }

  for (int i = first; i < argc; i++) add_server(memc, argv[i]);
  uint32_t nservers = memcached_server_count(memc);

  if (weighted) {
    rc = memcached_behavior_set(memc, MEMCACHED_BEHAVIOR_DISTRIBUTION,
                                MEMCACHED_DISTRIBUTION_CONSISTENT_KETAMA);
    if (rc != MEMCACHED_SUCCESS) die("DISTRIBUTION", memc, rc);
    /* Sets HASH and KETAMA_HASH to MD5 and the distribution to CONSISTENT_WEIGHTED. */
    rc = memcached_behavior_set(memc, MEMCACHED_BEHAVIOR_KETAMA_WEIGHTED, 1);
    if (rc != MEMCACHED_SUCCESS) die("KETAMA_WEIGHTED", memc, rc);
  }

  printf("V %s\n", memcached_lib_version());
  for (uint32_t i = 0; i < nservers; i++) {
    const memcached_instance_st *inst = memcached_server_instance_by_position(memc, i);
    printf("N %s %u\n", memcached_server_name(inst), (unsigned) memcached_server_port(inst));
  }
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
      for (uint32_t i = 0; i < nservers && found < 0; i++) {
        if (memcached_server_instance_by_position(memc, i) == inst) found = (int) i;
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
