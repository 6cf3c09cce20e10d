#!/usr/bin/env bash
# Runs Triton's tutorials (python/tutorials of a Triton source tree, given as
# DIR) unchanged on tritium, one process each, and prints a table: each
# tutorial's exit status, time and last line. Logs go to OUT/tutorial-*.log.
#
#   tests/triton_suite/tutorials.sh DIR OUT [NAMES...]
#
# Set IMPL=triton to run them on the installed Triton instead.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
dir=$1 out=$2
shift 2
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(01-vector-add 02-fused-softmax
  03-matrix-multiplication 04-low-memory-dropout 05-layer-norm
  06-fused-attention 07-extern-functions 08-grouped-gemm
  09-persistent-matmul 11-programmatic-dependent-launch)
mkdir -p "$out"
py=${PYTHON:-python3}
pp=${PYTHONPATH:-}
if [ "${IMPL:-tritium}" = tritium ]; then
  pp="$root/python:$root/python/compat${pp:+:$pp}"
fi
rows=()
for n in "${names[@]}"; do
  start=$(date +%s)
  (cd "$dir" && MPLBACKEND=Agg PYTHONPATH="$pp" timeout "${TUTORIAL_TIMEOUT:-300}" \
    "$py" "$n.py") > "$out/tutorial-$n.log" 2>&1
  rc=$?
  last=$(grep -v "^\s*$" "$out/tutorial-$n.log" | tail -1 | cut -c1-100)
  rows+=("$(printf '%-34s rc=%-3s %4ss  %s' "$n" "$rc" $(( $(date +%s) - start )) "$last")")
done
printf '%s\n' "${rows[@]}"
