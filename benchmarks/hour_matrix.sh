#!/usr/bin/env bash
# The first-hour matrix (docs/dfs.md "Lanes"): long_pair.sh on each puzzle and seed in turn, seed by seed so that
# a matrix cut off holds whole seeds; every pair resumes where it stopped when the same command runs again.
#   bash benchmarks/hour_matrix.sh DIR LABEL[=KEY=VALUE,KEY=VALUE] ...
#   bash benchmarks/hour_matrix.sh ~/hour base lanes2=construct.dfs.lanes=2
# $PUZZLES (default: the real puzzle, e2class_1001 and e2class_1002, which were never tuned on, and the strict
# 5-clue puzzle), $SEEDS (default 1 2 3) and $CPU_S (default 6840, a quiet wall hour of 2 workers) change it.
# Appends long_pair's lines to DIR/results.txt as each pair ends, and prints them.
# The body is one function, read whole before it runs: bash reads a script as it goes, so an edit of this file
# during a two-hour measurement would otherwise change what the running one does next.
set -euo pipefail
main() {
  root=$(cd "$(dirname "$0")/.." && pwd)
  out=$1; shift
  puzzles=${PUZZLES:-"$root/instances/eternity2.txt $root/instances/generated/e2class_1001.txt $root/instances/generated/e2class_1002.txt $root/instances/eternity2_5hints.txt"}
  mkdir -p "$out"
  for seed in ${SEEDS:-1 2 3}; do
    for puzzle in $puzzles; do
      bash "$root/benchmarks/long_pair.sh" "${CPU_S:-6840}" "$seed" "$puzzle" "$out" "$@" | tee -a "$out/results.txt"
    done
  done
}
main "$@"
