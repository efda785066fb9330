"""Paper 002's Max-Clique formulation: the clique graph of a puzzle or window (graph), GLP's max-clique
heuristic (pls), boards from cliques with holes filled by the region model (place), DIMACS export
(dimacs, command), ``solve --method clique`` (solve) and an exact small-graph oracle (exact)."""
