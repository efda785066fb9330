"""The record-class depth-first search with breaks (Blackwood's recipe) and the deep partial boards it harvests.

recipe: schedules and privileged colours per puzzle; tables + kernel: the numba DFS; engine: attempts and
exact state; harvest: the bounded pool; longrun: a DFS in a folder that survives kill -9; complete: holes
filled and repaired. docs/breakdfs.md has the design and the figures.
"""
