#!/usr/bin/env bash
# Interleaved A/B timing of two model_bench binaries on one model (issue 30):
# farm-bench runs NEW and OLD in turn (A B A B ...), so both see the same
# machine; it reports whole-process CPU and wall time (min/median/max) and
# the NEW/OLD ratio pair by pair. Each run's own figure (model_bench's best
# ms per sample over REPEAT runs, batch 1) is kept and summarized too: min
# and median over the runs. The load average is printed before and after.
# Usage: bench/speed/ab.sh OLD_MODEL_BENCH NEW_MODEL_BENCH MODEL THREADS
#        [RUNS=7] [REPEAT=300] [extra model_bench flags...]
set -euo pipefail
old=$1 new=$2 model=$3 threads=$4 runs=${5:-7} repeat=${6:-300}
shift 6 2>/dev/null || shift $#
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
args="$model --repeat $repeat --batch 1 --threads $threads --stats 0 $*"
echo "model $(basename "$model") threads $threads; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
farm-bench -n "$runs" --vs "sh -c 'exec $old $args >>$tmp/old.jsonl 2>&1'" \
  -- sh -c "exec $new $args >>$tmp/new.jsonl 2>&1" 2>&1 | grep -Ev '^\s*$'
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
for k in old new; do
  # The first line is farm-bench's warm-up run.
  tail -n +2 "$tmp/$k.jsonl" | sed -n 's/.*"ms_per_sample":\([0-9.]*\).*/\1/p' | sort -g |
    awk -v k="$k" '{v[NR]=$1} END {printf "%s model_bench best ms/sample over runs: min %.4f median %.4f max %.4f (%d runs)\n", k, v[1], v[int((NR+1)/2)], v[NR], NR}'
done
