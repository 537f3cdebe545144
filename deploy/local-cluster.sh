#!/usr/bin/env bash
# A Cairn cluster on this machine's loopback: a solver pool replica, the coordinator and N
# workers, each its own process.
#   deploy/local-cluster.sh start [--workers N] [--pool-threads N] [--worker-token-file FILE]
#                                  (default 2 workers; the coordinator takes workers with one of
#                                  the file's tokens only, and each worker sends the file's first
#                                  one; without the option, the coordinator's own token, made
#                                  beside its job store and readable by this user only)
#   deploy/local-cluster.sh stop
#   deploy/local-cluster.sh status
# `start` prints CAIRN_SERVER=HOST:PORT (for `cairn submit|status|wait|results|cancel`) and the
# dashboard's URL. Environment: CAIRN_BUILD_DIR (default: build), CAIRN_CLUSTER_DIR (the
# cluster's logs, job store and process ids; default: $TMPDIR/cairn-local-cluster).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$(realpath -m "${CAIRN_BUILD_DIR:-$root/build}") # absolute: the pool starts in the cluster's directory
state=${CAIRN_CLUSTER_DIR:-${TMPDIR:-/tmp}/cairn-local-cluster}

usage() { echo "usage: $0 start [--workers N] [--pool-threads N] [--worker-token-file FILE] | stop | status" >&2; exit 2; }

# Waits until FILE holds a line starting with PREFIX; prints the rest of that line.
await_line() {
  local file=$1 prefix=$2 pid=$3
  for _ in $(seq 300); do
    if line=$(grep -m1 "^$prefix" "$file" 2>/dev/null); then
      echo "${line#"$prefix"}"
      return 0
    fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  echo "local-cluster: $(basename "$file" .out) did not start; see ${file%.out}.log" >&2
  return 1
}

start() {
  local workers=2 pool_threads=2
  local -a server_auth=() worker_auth=()
  while (($#)); do
    case $1 in
      --workers) workers=${2:?}; shift 2 ;;
      --pool-threads) pool_threads=${2:?}; shift 2 ;;
      --worker-token-file)
        [[ -r ${2:?} ]] || { echo "local-cluster: cannot read $2" >&2; exit 1; }
        server_auth=(--worker-token-file "$2"); worker_auth=(--token-file "$2"); shift 2 ;;
      *) usage ;;
    esac
  done
  [[ $workers =~ ^[0-9]+$ ]] || usage
  for bin in solver-pool/daemon/cairn-solver-pool server/cairn-server worker/daemon/cairn-worker; do
    [[ -x $build/$bin ]] || { echo "local-cluster: $build/$bin is missing: run deploy/bootstrap.sh build" >&2; exit 1; }
  done
  if [[ -f $state/pids ]]; then
    echo "local-cluster: a cluster runs already (state in $state): stop it first" >&2
    exit 1
  fi
  mkdir -p "$state"
  : >"$state/pids"
  # Workers authenticate by default: given no tokens, the coordinator makes its own beside its
  # job store (256 random bits, readable by this user only), and the workers send it.
  ((${#server_auth[@]} > 0)) || worker_auth=(--token-file "$state/jobs.db.worker-token")
  trap 'echo "local-cluster: start failed: stopping what started" >&2; stop' ERR

  # The pool makes its own token in its working directory; the workers and the coordinator send it.
  (cd "$state" && exec "$build/solver-pool/daemon/cairn-solver-pool" --listen 127.0.0.1:0 --threads "$pool_threads") \
    >"$state/pool.out" 2>"$state/pool.log" &
  echo $! >>"$state/pids"
  local pool
  pool=$(await_line "$state/pool.out" "listening on " $!)

  "$build/server/cairn-server" --listen 127.0.0.1:0 --http 127.0.0.1:0 --db "$state/jobs.db" \
    --work-dir "$state" --solver-pool "$pool" --solver-pool-token-file "$state/cairn-solver-pool.token" "${server_auth[@]}" >"$state/server.out" 2>"$state/server.log" &
  local server_pid=$!
  echo $server_pid >>"$state/pids"
  local server dashboard
  server=$(await_line "$state/server.out" "listening on " $server_pid)
  dashboard=$(await_line "$state/server.out" "dashboard on " $server_pid)

  for i in $(seq "$workers"); do
    "$build/worker/daemon/cairn-worker" --server "$server" --solver-pool "$pool" --name "worker-$i" \
      --solver-pool-token-file "$state/cairn-solver-pool.token" \
      "${worker_auth[@]}" >"$state/worker-$i.out" 2>"$state/worker-$i.log" &
    echo $! >>"$state/pids"
  done
  trap - ERR
  echo "CAIRN_SERVER=$server" | tee "$state/env"
  echo "dashboard: $dashboard"
  echo "solver pool: $pool; $workers workers; logs in $state"
}

stop() {
  [[ -f $state/pids ]] || { echo "local-cluster: no cluster runs (no $state/pids)"; return 0; }
  # Workers first, then the coordinator, then the pool: each stops on SIGTERM.
  local pids
  pids=$(tac "$state/pids")
  for pid in $pids; do
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then
      echo "local-cluster: process $pid did not stop within 5 s: killing it" >&2
      kill -KILL "$pid" 2>/dev/null || true
    fi
  done
  rm -f "$state/pids" "$state/env"
  echo "local-cluster: stopped (job store and logs kept in $state)"
}

status() {
  [[ -f $state/pids ]] || { echo "no cluster runs"; return 0; }
  cat "$state/env" 2>/dev/null || true
  while read -r pid; do
    if kill -0 "$pid" 2>/dev/null; then
      echo "$pid running: $(tr '\0' ' ' </proc/"$pid"/cmdline | cut -c1-100)"
    else
      echo "$pid gone"
    fi
  done <"$state/pids"
}

case ${1:-} in
  start) shift; start "$@" ;;
  stop) stop ;;
  status) status ;;
  *) usage ;;
esac
