#!/usr/bin/env bash
# config/eternity2.yaml with only the instance changed, 2 workers, a CPU budget: the final score, re-verified.
#   bash benchmarks/dfs_pipeline.sh CPU_S SEED PUZZLE... >> benchmarks/results/dfs/pipeline.txt
# Best boards go to $BOARDS (default benchmarks/results/dfs/boards); $PYTHON (default python) runs e2opt;
# $SETS, space-separated KEY=VALUE settings, each passed as --set, make a variant named $LABEL in the line and
# the board's name (SETS=construct.dfs.lanes=2 LABEL=lanes2). The line ends with the producer's pilot choice.
# The body is one function, read whole before it runs (an edit of this file cannot change a running measurement).
set -euo pipefail
main() {
  root=$(cd "$(dirname "$0")/.." && pwd)
  python=${PYTHON:-python}
  boards=${BOARDS:-$root/benchmarks/results/dfs/boards}
  cpu=$1; seed=$2; shift 2
  extra=()
  for kv in ${SETS:-}; do extra+=(--set "$kv"); done
  runs=$(mktemp -d)
  trap 'rm -rf "$runs"' EXIT
  mkdir -p "$boards"
  for puzzle in "$@"; do
    puzzle=$(realpath "$puzzle")
    "$python" -m e2opt run "$root/config/eternity2.yaml" --set "instance=$puzzle" --set output.plots=false ${extra[@]+"${extra[@]}"} \
      --seed "$seed" --workers 2 --max-cpu-s "$cpu" --max-wall-s $((cpu * 10)) --runs-dir "$runs" --quiet > /dev/null
    dir=$(ls -td "$runs"/*/ | head -1)
    cp "$dir/best.board" "$boards/pipeline_$(basename "$puzzle" .txt)_s${seed}_${cpu}cpu${LABEL:+_$LABEL}.board"
    echo "$(basename "$puzzle" .txt)${LABEL:+ ($LABEL)} seed $seed ${cpu} CPU s: $("$python" -m e2opt verify "$puzzle" "$dir/best.board" | head -1)" \
      "| $("$python" -c "import json,sys; r=json.load(open(sys.argv[1])); print('cpu', round(r['cpu_s']), 'wall', round(r['wall_s']))" "$dir/result.json")" \
      "| $("$python" "$root/benchmarks/pilot_said.py" "$dir")"
  done
}
main "$@"
