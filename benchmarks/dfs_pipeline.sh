#!/usr/bin/env bash
# config/eternity2.yaml with only the instance changed, 2 workers, a CPU budget: the final score, re-verified.
#   bash benchmarks/dfs_pipeline.sh CPU_S SEED PUZZLE... >> benchmarks/results/dfs/pipeline.txt
set -euo pipefail
cpu=$1; seed=$2; shift 2
runs=$(mktemp -d)
for puzzle in "$@"; do
  python -m e2opt run config/eternity2.yaml --set "instance=$PWD/$puzzle" --set output.plots=false \
    --seed "$seed" --workers 2 --max-cpu-s "$cpu" --max-wall-s $((cpu * 4)) --runs-dir "$runs" --quiet > /dev/null
  dir=$(ls -td "$runs"/*/ | head -1)
  mkdir -p benchmarks/results/dfs/boards
  cp "$dir/best.board" "benchmarks/results/dfs/boards/pipeline_$(basename "$puzzle" .txt)_s${seed}_${cpu}cpu.board"
  echo "$(basename "$puzzle" .txt) seed $seed ${cpu} CPU s: $(python -m e2opt verify "$puzzle" "$dir/best.board" | head -1)" \
    "| $(python -c "import json,sys; r=json.load(open(sys.argv[1])); print('cpu', round(r['cpu_s']), 'wall', round(r['wall_s']))" "$dir/result.json")"
done
