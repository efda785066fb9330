#!/bin/sh
# The 6x6 target of issue 28 (docs/clique.md): `e2opt solve --method clique` to a perfect board, seeds 1-10,
# on the three 6x6 puzzles we have; the last line of each run (clique, selections, joins, CPU s).
for p in instances/brendan_set2/set2_06x06.txt instances/brendan_set1/set1_06x06.txt instances/clue1_6x6.txt; do
  for s in 1 2 3 4 5 6 7 8 9 10; do
    echo "$p seed $s: $(.venv/bin/e2opt solve "$p" --method clique --seed "$s" --selections 5e7 --quiet | tail -1)"
  done
done
