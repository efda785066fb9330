"""Paper 002's clique formulation: graphs equal a brute-force construction, the heuristic returns cliques
(as large as the exact oracle's on small graphs), cliques become boards the verifier accepts, DIMACS
files read back to the same graph, and the clique move never lowers the board."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

from e2opt.clique.dimacs import read_dimacs, write_dimacs
from e2opt.clique.exact import max_clique
from e2opt.clique.graph import puzzle_graph, window_cells, window_graph
from e2opt.clique.place import is_clique
from e2opt.clique.pls import BEST, OM, PA, C, CliqueSearch
from e2opt.clique.solve import board_from_clique, run_heuristic
from e2opt.core.board import Board, format_board, parse_board, random_board, score
from e2opt.core.formats.read import read_puzzle
from e2opt.core.generate import generate
from e2opt.core.puzzle import CORNER, format_puzzle, parse_puzzle, rotate
from e2opt.core.verify import verify_texts
from tests.conftest import SET1, TINY_BOARD, TINY_PUZZLE

STEPS = {(-1, 0): 0, (0, 1): 1, (1, 0): 2, (0, -1): 3}


def _reference_nodes(puzzle, fixed: dict, cells, pieces, symmetry: bool):
    """(piece, (r, c), rot) placements by plain loops: fit the rim, match every fixed neighbour."""
    first = min(p for p in range(len(puzzle.pieces)) if puzzle.kinds[p] == CORNER)
    out = []
    for r, c in cells:
        for p in pieces:
            for k in range(4):
                if not puzzle.fits(p, r, c, k):
                    continue
                sides = rotate(puzzle.pieces[p], k)
                ok = all(
                    rotate(puzzle.pieces[fixed[(r + dr, c + dc)][0]], fixed[(r + dr, c + dc)][1])[(s + 2) % 4]
                    == sides[s]
                    for (dr, dc), s in STEPS.items()
                    if (r + dr, c + dc) in fixed
                )
                if symmetry and not puzzle.hints:
                    allowed = [(0, 0)] if puzzle.rows == puzzle.cols else [(0, 0), (0, puzzle.cols - 1)]
                    ok &= p != first or (r, c) in allowed
                    ok &= not (puzzle.rows == puzzle.cols and (r, c) == (0, 0) and p != first)
                if ok:
                    out.append((p, (r, c), k))
    return out


def _reference_edges(puzzle, nodes) -> set:
    """Pairs (i, j) of nodes that can share a board: other piece, other cell, matching when adjacent."""
    edges = set()
    for i, j in combinations(range(len(nodes)), 2):
        (p, (r, c), k), (q, (r2, c2), k2) = nodes[i], nodes[j]
        if p == q or (r, c) == (r2, c2):
            continue
        s = STEPS.get((r2 - r, c2 - c))
        if s is not None and rotate(puzzle.pieces[p], k)[s] != rotate(puzzle.pieces[q], k2)[(s + 2) % 4]:
            continue
        edges.add((i, j))
    return edges


def _as_tuples(puzzle, graph):
    cell = graph.node_cell()
    return [
        (int(p), divmod(int(x), puzzle.cols), int(k))
        for p, x, k in zip(graph.piece, cell, graph.rot, strict=True)
    ]


def _bitset_edges(adj) -> set:
    n = adj.shape[0]
    return {(i, j) for i in range(n) for j in range(i + 1, n) if (int(adj[i, j // 64]) >> (j % 64)) & 1}


def _tiny_puzzles():
    yield parse_puzzle(TINY_PUZZLE)
    yield read_puzzle(SET1 / "set1_03x04.txt")
    yield read_puzzle(SET1 / "set1_04x04.txt")
    for seed in range(3):
        yield generate(3 + seed % 2, 4, 2, 3, seed, hints=seed)[0]


@pytest.mark.parametrize("symmetry", [True, False])
def test_puzzle_graph_counts_equal_a_brute_force_construction(symmetry):
    for puzzle in _tiny_puzzles():
        fixed = {(h.row, h.col): (h.piece, h.rot) for h in puzzle.hints}
        cells = [(r, c) for r in range(puzzle.rows) for c in range(puzzle.cols) if (r, c) not in fixed]
        pieces = [p for p in range(len(puzzle.pieces)) if p not in {h.piece for h in puzzle.hints}]
        ref = _reference_nodes(puzzle, fixed, cells, pieces, symmetry)
        graph = puzzle_graph(puzzle, symmetry)
        assert sorted(_as_tuples(puzzle, graph)) == sorted(ref)
        ref_edges = _reference_edges(puzzle, _as_tuples(puzzle, graph))
        assert graph.n_edges() == len(ref_edges)
        assert _bitset_edges(graph.bitset()) == ref_edges


def test_paper_002_node_counts_and_its_3x3_edge_count():
    """Table 1 gives 30 / 138 / 478 nodes for 3x3 / 4x4 / 5x5 and 291 edges for its 3x3 (our set 2)."""
    for n, nodes in ((3, 30), (4, 138), (5, 478)):
        assert puzzle_graph(read_puzzle(SET1 / f"set1_0{n}x0{n}.txt")).n_nodes == nodes
    assert puzzle_graph(read_puzzle(SET1.parent / "brendan_set2" / "set2_03x03.txt")).n_edges() == 291


def test_window_graph_equals_the_brute_force_one_against_the_board_around():
    for seed in range(4):
        puzzle, _ = generate(5, 6, 3, 3, seed, hints=1)
        board = random_board(puzzle, np.random.default_rng(seed))
        cells = window_cells(puzzle, seed % 2, 1 + seed % 3, 3, 3)
        region = [divmod(int(x), puzzle.cols) for x in cells]
        fixed = {
            (r, c): (int(board.piece[r, c]), int(board.rot[r, c]))
            for r in range(puzzle.rows)
            for c in range(puzzle.cols)
            if (r, c) not in region
        }
        pieces = [int(board.piece[r, c]) for r, c in region]
        graph = window_graph(puzzle, board, cells)
        ref = _reference_nodes(puzzle, fixed, region, pieces, symmetry=False)
        assert sorted(_as_tuples(puzzle, graph)) == sorted(ref)
        assert _bitset_edges(graph.bitset()) == _reference_edges(puzzle, _as_tuples(puzzle, graph))


def _random_adj(n: int, p: float, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    adj = np.zeros((n, (n + 63) // 64), dtype=np.uint64)
    for i, j in combinations(range(n), 2):
        if rng.random() < p:
            adj[i, j // 64] |= np.uint64(1) << np.uint64(j % 64)
            adj[j, i // 64] |= np.uint64(1) << np.uint64(i % 64)
    return adj


def _check_sets(search: CliqueSearch) -> None:
    """delta, C, PA and OM agree with a recount from the clique."""
    adj, n = search.adj, search.n
    clique = set(search.lists[C, : search.size[C]].tolist())
    edges = _bitset_edges(adj)
    joined = lambda u, v: (min(u, v), max(u, v)) in edges  # noqa: E731
    delta = [sum(1 for u in clique if u != v and not joined(u, v)) for v in range(n)]
    assert search.delta[:n].tolist() == delta
    assert all(delta[v] == 0 for v in clique)
    assert set(search.lists[PA, : search.size[PA]].tolist()) == {
        v for v in range(n) if v not in clique and delta[v] == 0
    }
    assert set(search.lists[OM, : search.size[OM]].tolist()) == {
        v for v in range(n) if v not in clique and delta[v] == 1
    }


def test_heuristic_returns_cliques_as_large_as_the_exact_oracle_on_small_graphs():
    for seed in range(12):
        n = 20 + 7 * seed
        adj = _random_adj(n, 0.3 + 0.05 * (seed % 8), seed)
        exact = max_clique(adj)
        assert is_clique(adj, np.array(exact))
        search = CliqueSearch(adj, seed)
        search.run(20_000)
        assert is_clique(adj, search.best())
        assert len(search.best()) == len(exact)
        _check_sets(search)


def test_heuristic_on_puzzle_graphs_matches_the_oracle_and_keeps_its_sets_exact():
    for puzzle in _tiny_puzzles():
        graph = puzzle_graph(puzzle)
        adj = graph.bitset()
        exact = max_clique(adj)
        for seed in range(3):
            search = CliqueSearch(adj, seed)
            search.run(5_000)
            assert is_clique(adj, search.best()) and search.best_size == len(exact)
            _check_sets(search)


def test_a_run_continued_in_pieces_equals_one_run_and_reset_reuses_buffers():
    adj = puzzle_graph(read_puzzle(SET1 / "set1_05x05.txt")).bitset()
    whole = CliqueSearch(adj, 7)
    whole.run(30_000, 10**9)
    parts = CliqueSearch(np.zeros((0, 1), dtype=np.uint64), 0, capacity=adj.shape[0])
    parts.reset(adj, 7)
    for limit in (1, 2, 50, 999, 30_000):
        parts.run(limit, 10**9)
    assert parts.st.tolist() == whole.st.tolist()
    assert np.array_equal(parts.best(), whole.best())
    assert parts.st[BEST] == whole.best_size


def test_cliques_become_boards_the_verifier_accepts_with_holes_filled():
    cases = [(read_puzzle(SET1 / "set1_04x05.txt"), 1)]
    cases += [(generate(4, 5, 3, 3, seed, hints=seed % 2, recolour=3)[0], seed) for seed in range(4)]
    for puzzle, seed in cases:
        graph = puzzle_graph(puzzle)
        run = run_heuristic(graph, 3_000, seed)
        for nodes in (run.last.nodes, run.last.nodes[: len(run.last.nodes) // 2]):  # fewer cells: more holes
            board, joins, holes = board_from_clique(puzzle, graph, nodes, fill_limit_s=5.0, seed=seed)
            report = verify_texts(format_puzzle(puzzle), format_board(board))
            assert report.valid and report.score == joins == score(puzzle, board)
            assert holes == graph.target - len(nodes)
            cell = graph.node_cell()[nodes]
            assert np.array_equal(board.piece.reshape(-1)[cell], graph.piece[nodes])  # the clique stays put


def test_dimacs_reads_back_to_the_same_graph(tmp_path):
    puzzle = parse_puzzle(TINY_PUZZLE)
    board = parse_board(TINY_BOARD)
    big = generate(5, 5, 3, 3, 1)
    graphs = [
        puzzle_graph(read_puzzle(SET1 / "set1_04x04.txt")),
        puzzle_graph(puzzle),
        window_graph(big[0], big[1], window_cells(big[0], 1, 1, 3, 3)),
        window_graph(puzzle, board, window_cells(puzzle, 0, 0, 2, 3)),
    ]
    for k, graph in enumerate(graphs):
        path = tmp_path / f"g{k}.clq"
        assert write_dimacs(graph, path, "test", buffer_bytes=4096) == (graph.n_nodes, graph.n_edges())
        n, edges = read_dimacs(path)
        assert n == graph.n_nodes
        assert {tuple(e) for e in edges.tolist()} == _bitset_edges(graph.bitset())
        node_lines = [ln.split()[2:] for ln in path.read_text().splitlines() if ln.startswith("c node ")]
        cell = graph.node_cell()
        assert node_lines == [
            [str(v) for v in (i + 1, p, x // graph.cols, x % graph.cols, k2)]
            for i, (p, x, k2) in enumerate(zip(graph.piece, cell, graph.rot, strict=True))
        ]


def test_a_perfect_board_is_a_perfect_clique_of_its_window():
    puzzle, solution = generate(6, 6, 3, 4, 4)
    cells = window_cells(puzzle, 1, 1, 4, 4)
    graph = window_graph(puzzle, solution, cells)
    run = run_heuristic(graph, 100_000, 1)
    assert run.stopped == "perfect clique" and len(run.last.nodes) == 16
    assert isinstance(solution, Board)
