#!/usr/bin/env bash
# The floating-point benchmark: the programs of this directory (floats on symbolic inputs) and,
# for the cost on code without floats, those of tests/bench/programs, under --float symbolic and
# --float concrete side by side through cairn-bench-engine (--search dfs, --max-time SECONDS).
#
#   tests/bench/floats/run.sh CAIRN_BINARY [--time SECONDS]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cairn=${1:?usage: run.sh CAIRN_BINARY [--time SECONDS]}
time_limit=60
[[ ${2:-} == --time ]] && time_limit=${3:?--time needs SECONDS}
bench=$(dirname "$cairn")/../tests/bench/cairn-bench-engine
[[ -x $bench ]] || { echo "run.sh: no cairn-bench-engine at $bench" >&2; exit 2; }
"$bench" "$cairn" "$here" "$here/../programs" --search dfs \
  --config "symbolic=--float symbolic --max-time $time_limit" \
  --config "concrete=--float concrete --max-time $time_limit"
