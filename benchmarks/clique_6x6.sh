#!/bin/sh
# The 6x6 target of issue 28 (docs/clique.md): `e2opt solve --method clique` to a perfect board, seeds 1-10,
# on the three 6x6 puzzles we have; the last line of each run (clique, selections, joins, CPU s).
#   sh benchmarks/clique_6x6.sh > benchmarks/results/clique/clique_6x6.txt
# Overrides: $PUZZLES, $SEEDS, $SELECTIONS (default 5e7); $PYTHON (default python) runs e2opt.
root=$(cd "$(dirname "$0")/.." && pwd)
python=${PYTHON:-python}
puzzles=${PUZZLES:-"$root/instances/brendan_set2/set2_06x06.txt $root/instances/brendan_set1/set1_06x06.txt $root/instances/clue1_6x6.txt"}
for p in $puzzles; do
  for s in ${SEEDS:-1 2 3 4 5 6 7 8 9 10}; do
    echo "$p seed $s: $("$python" -m e2opt solve "$p" --method clique --seed "$s" --selections "${SELECTIONS:-5e7}" --quiet | tail -1)"
  done
done
