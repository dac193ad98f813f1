#!/usr/bin/env bash
# The scale-out recipes of docs/commands.md, run as written: the blocks
# marked "<!-- recipe: NAME -->" are copied out of the doc and run, GNU
# parallel on this machine, then the Slurm array jobs on a one-machine
# cluster (scripts/slurm_cluster.sh). Each merged result must equal the
# one-process run byte for byte; a cancelled task (calibrate, the target
# search's eval-trial workers) and a failed task (report) are re-run alone
# and give the same result; a shard of other data is refused.
# Usage: slurm_recipes.sh QFORGE TESTDATA_DIR SOURCE_DIR [LOG]
# Exit 77 (a ctest skip) with the reason when no cluster can run here.
set -euo pipefail
qforge=$(readlink -f "$1")
testdata=$(readlink -f "$2")
src=$(readlink -f "$3")
log=${4:-}
if [ -n "$log" ]; then
  exec > >(tee "$log") 2>&1
fi
doc=$src/docs/commands.md
PATH="$(dirname "$qforge"):$PATH"
export PATH
work=$(mktemp -d /tmp/qforge-recipes.XXXXXX)
# A cluster of its own (folder and ports), so that the test can run while
# another cluster is up.
export QFORGE_SLURM_DIR=$work/cluster
export QFORGE_SLURMCTLD_PORT=$((17000 + ($$ % 500) * 2))
export QFORGE_SLURMD_PORT=$((QFORGE_SLURMCTLD_PORT + 1))
export SLURM_CONF=$QFORGE_SLURM_DIR/slurm.conf
cluster_up=0
cleanup() {
  if [ "$cluster_up" = 1 ]; then
    bash "$src/scripts/slurm_cluster.sh" down >/dev/null 2>&1 || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
cd "$work"

# The fenced block after "<!-- recipe: NAME -->" in the doc.
recipe() {
  awk -v name="$1" '
    $0 == "<!-- recipe: " name " -->" { want = 1; next }
    want && /^```/ { if (inside) exit; inside = 1; next }
    inside { print }' "$doc"
}
same() {  # same FILE_A FILE_B WHAT
  if cmp -s "$1" "$2"; then
    echo "  identical: $3 ($(wc -c < "$1") bytes, $(sha256sum "$1" | cut -c1-16))"
  else
    echo "FAIL: $3 differs from the one-process run"
    exit 1
  fi
}
expect_fail() {  # expect_fail PHRASE COMMAND...
  local phrase=$1 out
  shift
  if out=$("$@" 2>&1); then
    echo "FAIL: '$*' succeeded"
    exit 1
  fi
  echo "  refused: $out"
  case "$out" in *"$phrase"*) ;; *) echo "FAIL: expected '$phrase'"; exit 1 ;; esac
}
wait_job() {  # the array job $1 has no task left in the queue (2 min at most)
  for _ in $(seq 240); do
    [ -z "$(squeue -h -j "$1" 2>/dev/null)" ] && return 0
    sleep 0.5
  done
  echo "FAIL: job $1 still queued after 2 minutes"
  exit 1
}

# The folder the recipes expect: the models and data/*.png.
mkdir data other
cp "$testdata"/mnist/*.png data/
cp "$testdata"/mnist/sample[0-8].png other/  # a data set one sample short
cp "$testdata/models/conv_fc_mnist.tflite" model.tflite
qforge quantize model.tflite --data 'data/*.png' --scale 0.003921569 \
  -o model_int8.tflite -q
for name in parallel.sh calibrate.sbatch report.sbatch slurm.sh \
    parallel-search.sh eval-trial.sbatch slurm-search.sh; do
  recipe "$name" > "$name"
  [ -s "$name" ] || { echo "FAIL: no recipe '$name' in $doc"; exit 1; }
done

# The one-process runs every recipe must reproduce.
start=$(date +%s.%N)
qforge calibrate model.tflite --data 'data/*.png' --scale 0.003921569 \
  -o whole.stats.json -q
for f in html text json md; do
  qforge report model.tflite model_int8.tflite --data 'data/*.png' \
    --scale 0.003921569 --format $f -o whole.report.$f -q
done
qforge quantize model.tflite --data 'data/*.png' --scale 0.003921569 \
  --target-sqnr 65 -o whole.mixed.tflite -q
echo "one process: calibrate, report in 4 formats, target search: $(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN {printf "%.2f", b - a}') s"

compare_all() {  # compare_all WHAT: the merged stats and report, every format
  same stats.json whole.stats.json "$1: merge-stats of 4 shards"
  same report.html whole.report.html "$1: merge-reports of 4 shards (html)"
  for f in text json md; do
    qforge merge-reports report.*.part --require-complete --format $f \
      -o merged.$f
    same merged.$f whole.report.$f "$1: merge-reports of 4 shards ($f)"
  done
}

if command -v parallel >/dev/null 2>&1; then
  echo "--- GNU parallel recipe (docs/commands.md)"
  bash -e parallel.sh
  compare_all "GNU parallel"
  rm -f stats.*.json stats.json report.*.part report.html
  echo "--- GNU parallel target search (docs/commands.md)"
  bash -e parallel-search.sh 2> search.log
  grep "target-sqnr" search.log | head -n 3
  same model_mixed.tflite whole.mixed.tflite "GNU parallel: --target-sqnr over $(ls trials/trial-*.json | wc -l) trials x 2 eval-trial shards"
  rm -rf trials model_mixed.tflite
else
  echo "--- GNU parallel is not installed: its recipe is not run"
fi

echo "--- Slurm cluster"
rc=0
reason=$(bash "$src/scripts/slurm_cluster.sh" up 2>&1) || rc=$?
if [ "$rc" = 3 ]; then
  echo "SKIP: $(echo "$reason" | grep -m1 'cannot run a cluster here' || echo "$reason" | head -n 1)"
  exit 77
elif [ "$rc" != 0 ]; then
  echo "$reason"
  echo "FAIL: scripts/slurm_cluster.sh up exited $rc"
  exit 1
fi
cluster_up=1
echo "$reason"
sinfo

echo "--- Slurm recipe (docs/commands.md), verbatim"
start=$(date +%s.%N)
bash -e slurm.sh
echo "Slurm recipe: $(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN {printf "%.2f", b - a}') s"
compare_all "Slurm"

echo "--- Slurm target search (docs/commands.md), verbatim"
bash -e slurm-search.sh 2>&1 | tee search.log | grep -v "^  \|^quantize\|^target-sqnr: the\|^target-sqnr: all" || true
job=$(sed -n 's/^Submitted batch job //p' search.log)
wait_job "$job"
echo "  eval-trial array job $job ended: $(ls trials/trial-*.part | wc -l) shard files"
same model_mixed.tflite whole.mixed.tflite "Slurm: --target-sqnr over $(ls trials/trial-*.json | wc -l) trials x 2 eval-trial array tasks"

echo "--- a cancelled eval-trial task, re-run alone while the search waits"
rm -rf trials model_mixed.tflite
job=$(sbatch --parsable --hold --array=0-1 eval-trial.sbatch)
scancel "${job}_1"
scontrol release "$job"
qforge quantize model.tflite --data 'data/*.png' --scale 0.003921569 --target-sqnr 65 \
  --trials-dir trials --trial-shards 2 -o model_mixed.tflite -q &
search=$!
for _ in $(seq 300); do [ -f trials/trial-000.0.part ] && break; sleep 0.2; done
sleep 2
[ -f trials/trial-000.0.part ] && [ ! -f trials/trial-000.1.part ] \
  || { echo "FAIL: expected shard 0 only of trial-000"; exit 1; }
echo "  array job $job: task 1 cancelled; the search waits for trial-000's shard 1"
rerun=$(sbatch --parsable --array=1 eval-trial.sbatch)
wait "$search"
wait_job "$job"
wait_job "$rerun"
same model_mixed.tflite whole.mixed.tflite "--target-sqnr after re-running eval-trial task 1 (job $rerun)"

echo "--- a cancelled task, re-run alone"
rm -f stats.*.json stats.json
job=$(sbatch --parsable --hold --array=0-3 calibrate.sbatch)
scancel "${job}_3"
scontrol release "$job"
wait_job "$job"
echo "  array job $job: task 3 cancelled; stats files: $(ls stats.*.json | tr '\n' ' ')"
expect_fail "missing 3" qforge merge-stats stats.*.json --require-complete -o stats.json
sbatch --array=3 --wait calibrate.sbatch
qforge merge-stats stats.*.json --require-complete -o stats.json
same stats.json whole.stats.json "merge-stats after re-running task 3"

echo "--- a failed task, re-run alone"
rm -f report.*.part report.html
mkdir report.2.part  # task 2 cannot write its output
rc=0
sbatch --array=0-3 --wait report.sbatch || rc=$?
echo "  sbatch --wait exited $rc; task 2 said: $(grep -m1 error report.2.log)"
[ "$rc" != 0 ] || { echo "FAIL: sbatch --wait returned 0 with a failed task"; exit 1; }
rmdir report.2.part
expect_fail "missing 2" qforge merge-reports report.*.part --require-complete -o report.html
sbatch --array=2 --wait report.sbatch
qforge merge-reports report.*.part --require-complete -o report.html
same report.html whole.report.html "merge-reports after re-running task 2"

echo "--- a shard of another data set"
qforge calibrate model.tflite --data 'other/*.png' --scale 0.003921569 \
  --shard 1/4 -o other.1.json -q
expect_fail "other.1.json: stats are of another data set" \
  qforge merge-stats stats.0.json other.1.json stats.2.json stats.3.json -o x.json
qforge report model.tflite model_int8.tflite --data 'other/*.png' \
  --scale 0.003921569 --shard 1/4 -o other.1.part -q
expect_fail "other.1.part: a report of another data set" \
  qforge merge-reports report.0.part other.1.part report.2.part report.3.part -o x.html
echo "slurm recipes: all merged results identical to one process"
