"""The clique graph in DIMACS format, written as a stream (paper 002 publishes its graphs for the clique
community; the 10x10 one is over 1 GB, so it is never held in memory: a numba kernel fills a fixed buffer
with ``e i j`` lines pair by pair and the buffer is written out, again and again).

File: ``c`` comment lines (what the graph is, then ``c node ID PIECE ROW COL ROT`` for every node, so a
clique found by another solver maps back to a board), ``p edge N M``, then one ``e i j`` line per edge with
1-based ids and i < j, ordered by i then j. The edge count is counted first by the same kernel test.
The file appears complete or not at all (temporary file, then rename).
"""

from __future__ import annotations

import os

import numpy as np

from ..core.errors import E2optError
from ..core.fsutil import atomic_stream
from . import kernels
from .graph import CliqueGraph

BUFFER_BYTES = 1 << 22  # 4 MiB of lines per write


def write_dimacs(
    graph: CliqueGraph, path: str | os.PathLike, title: str = "", buffer_bytes: int = BUFFER_BYTES
) -> tuple[int, int]:
    """Write the graph to ``path`` (module docstring); return (nodes, edges)."""
    n = graph.n_nodes
    edges = graph.n_edges()
    cols = graph.cols
    cell = graph.node_cell()
    head = [
        f"c {title}".rstrip(),
        f"c {n} nodes, {edges} edges, a perfect clique has {graph.target} nodes",
        "c nodes are listed as: c node ID PIECE ROW COL ROT (ids 1-based; ROT = clockwise quarter turns)",
    ]
    with atomic_stream(path) as out:
        out.write(("\n".join(head) + "\n").encode())
        rows = np.stack([np.arange(1, n + 1), graph.piece, cell // cols, cell % cols, graph.rot], axis=1)
        for at in range(0, n, 50_000):
            lines = (f"c node {a} {b} {c} {d} {e}\n" for a, b, c, d, e in rows[at : at + 50_000].tolist())
            out.write("".join(lines).encode())
        out.write(f"p edge {n} {edges}\n".encode())
        buf = np.empty(max(int(buffer_bytes), 4096), dtype=np.uint8)
        pos = np.zeros(2, dtype=np.int64)
        while pos[0] < n:
            used = kernels.dimacs_lines(graph.lcell, graph.piece, graph.colours, graph.side, pos, buf)
            out.write(memoryview(buf)[:used])
    return n, edges


def read_dimacs(path: str | os.PathLike) -> tuple[int, np.ndarray]:
    """(nodes, edges as an (M, 2) array of 0-based pairs) of a DIMACS ``p edge`` file; E2optError when bad."""
    n, declared, pairs = -1, -1, []
    with open(path, encoding="ascii") as f:
        for no, line in enumerate(f, 1):
            tok = line.split()
            if not tok or tok[0] == "c":
                continue
            if tok[0] == "p" and len(tok) == 4 and tok[1] in ("edge", "col"):
                n, declared = int(tok[2]), int(tok[3])
            elif tok[0] == "e" and len(tok) == 3 and n >= 0:
                pairs.append((int(tok[1]) - 1, int(tok[2]) - 1))
            else:
                raise E2optError(f"{path}, line {no}: not a DIMACS 'p edge N M' or 'e i j' line")
    edges = np.array(pairs, dtype=np.int64).reshape(-1, 2)
    if n < 0 or len(edges) != declared or (len(edges) and (edges.min() < 0 or edges.max() >= n)):
        raise E2optError(f"{path}: the edges do not agree with the 'p edge {n} {declared}' line")
    return n, edges
