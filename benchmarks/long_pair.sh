#!/usr/bin/env bash
# Variants of config/eternity2.yaml (only the instance switched) side by side on one puzzle and seed: each run
# has 2 workers and a CPU budget, all run at the same time, in folders that persist, so a measurement
# stopped (a closed session, a reboot, SIGTERM to its process group) resumes where it was when the same command runs again.
#   bash benchmarks/long_pair.sh CPU_S SEED PUZZLE DIR LABEL[=KEY=VALUE,KEY=VALUE] ...
#   bash benchmarks/long_pair.sh 6840 1 instances/eternity2.txt ~/hour base short=construct.dfs.short_first=true
# A variant's run.workers=N gives that run N workers (the same CPU budget in all):
#   bash benchmarks/long_pair.sh 6840 1 instances/eternity2.txt ~/hour base w4=run.workers=4
# 6840 CPU s is what a quiet wall hour gives 2 workers on 2 cores (95 %, docs/workers.md). Prints one line per
# variant once every run has ended: the score re-verified from the puzzle file, CPU and wall seconds.
# The body is one function, read whole before it runs: bash reads a script as it goes, so an edit of this file
# during a two-hour measurement would otherwise change what the running one does next.
set -euo pipefail
main() {
  root=$(cd "$(dirname "$0")/.." && pwd)
  python=${PYTHON:-python}
  cpu=$1; seed=$2; puzzle=$(realpath "$3"); out=$4; shift 4
  name=$(basename "$puzzle" .txt)
  mkdir -p "$out"
  for variant in "$@"; do
    label=${variant%%=*}
    dir="$out/${name}_s${seed}_${label}"
    run=$(ls -td "$dir"/*/ 2>/dev/null | head -1 || true)
    if [ -n "$run" ] && [ -f "$run/result.json" ] && ! grep -q '"stop_reason": *"SIG' "$run/result.json"; then
      continue  # finished before (a run stopped by a signal also writes result.json: that one is resumed)
    elif [ -n "$run" ]; then
      "$python" -m e2opt resume "$run" --quiet > "$dir.log" 2>&1 &
    else
      extra=()
      if [ "$variant" != "$label" ]; then
        IFS=, read -ra kvs <<< "${variant#*=}"
        for kv in "${kvs[@]}"; do extra+=(--set "$kv"); done
      fi
      # 2 workers unless the variant sets run.workers: of two --set of one key the last counts
      "$python" -m e2opt run "$root/config/eternity2.yaml" --set "instance=$puzzle" --set output.plots=false \
        --set run.workers=2 ${extra[@]+"${extra[@]}"} --seed "$seed" --max-cpu-s "$cpu" --max-wall-s $((cpu * 10)) \
        --runs-dir "$dir" --quiet > "$dir.log" 2>&1 &
    fi
  done
  wait
  for variant in "$@"; do
    label=${variant%%=*}
    run=$(ls -td "$out/${name}_s${seed}_${label}"/*/ | head -1)
    echo "$name ($label) seed $seed ${cpu} CPU s: $("$python" -m e2opt verify "$puzzle" "$run/best.board" | head -1)" \
      "| $("$python" -c "import json,sys; r=json.load(open(sys.argv[1])); print('cpu', round(r['cpu_s']), 'wall', round(r['wall_s']))" "$run/result.json")"
  done
}
main "$@"
