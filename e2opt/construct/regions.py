"""Region-by-region construction on CP-SAT: paper 002's greedy (§3.1) and backtracking (§3.2) heuristics.

The board is cut into regions (bands of rows or blocks, optionally the frame first); each region is
filled by e2opt.region_model.solve_region from the unplaced pieces of its cells' kinds, counting joins
inside the region and against the regions already placed. Each region takes exactly as many pieces of
each kind as it has cells of that kind, so the last region gets exactly the remaining pieces and the
board is always complete and valid. A region CP-SAT leaves unsolved (time limit, deadline, stop
request) is filled by fill_region, a fast best-fit rule, and the record says so.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..core.board import Board
from ..core.puzzle import Puzzle
from ..core.ticks import Ticks
from ..cpsat.region_model import RegionSolution, solve_region
from .config import RegionsConfig
from .region_pieces import candidates, fill_region, possible_joins, region_joins

MIN_SOLVE_S = 0.2  # a region with less time than this before the deadline is filled without CP-SAT
RESERVE_S = 0.5  # kept back from the deadline for the fills and bookkeeping
SOLVED = ("optimal", "feasible")

Report = Callable[[str], None]


def region_list(puzzle: Puzzle, cfg: RegionsConfig) -> list[np.ndarray]:
    """The regions in fill order, each an (k, 2) array of (row, col); hint cells are left out."""
    rows, cols = puzzle.rows, puzzle.cols
    hinted = puzzle.hint_map()
    height = cfg.height
    width = cols if cfg.shape == "rows" else (cfg.width or cfg.height)
    shapes: list[list[tuple[int, int]]] = []
    if cfg.order == "frame_first":
        ring = [(0, c) for c in range(cols)] + [(r, cols - 1) for r in range(1, rows)]
        ring += [(rows - 1, c) for c in range(cols - 2, -1, -1)] + [(r, 0) for r in range(rows - 2, 0, -1)]
        shapes.append(ring)
        top, left, bottom, right = 1, 1, rows - 1, cols - 1
        width = min(width, cols - 2) if cfg.shape == "rows" else width
    else:
        top, left, bottom, right = 0, 0, rows, cols
    for r0 in range(top, bottom, height):
        for c0 in range(left, right, width):
            shapes.append(
                [
                    (r, c)
                    for r in range(r0, min(r0 + height, bottom))
                    for c in range(c0, min(c0 + width, right))
                ]
            )
    out = []
    for cells in shapes:
        kept = [cell for cell in cells if cell not in hinted]
        if kept:
            out.append(np.array(kept, dtype=np.int64).reshape(-1, 2))
    return out


@dataclass
class _Build:
    """The partial board and what the construction did so far."""

    board: Board
    records: list[dict]  # one per placed region, in region order
    solves: int = 0
    backtracks: int = 0
    fills: int = 0

    def copy(self) -> _Build:
        return _Build(self.board.copy(), list(self.records), self.solves, self.backtracks, self.fills)

    def unplaced(self, puzzle: Puzzle) -> np.ndarray:
        used = np.zeros(len(puzzle.pieces), dtype=bool)
        used[self.board.piece[self.board.piece >= 0]] = True
        return np.flatnonzero(~used)


class RegionBuilder:
    """Runs the greedy or backtracking construction over the regions, within the run's deadline."""

    def __init__(
        self,
        puzzle: Puzzle,
        cfg: RegionsConfig,
        rng: np.random.Generator,
        deadline_s: float | None,
        stop_requested: Callable[[], bool],
        report: Report | None,
    ):
        self.puzzle, self.cfg, self.rng = puzzle, cfg, rng
        self.start = time.perf_counter()
        self.cpu_start = time.process_time()
        self.deadline = None if deadline_s is None else self.start + deadline_s - RESERVE_S
        self.stop_requested = stop_requested
        self.lines = Ticks(report)
        self.regions = region_list(puzzle, cfg)
        board = Board(np.full((puzzle.rows, puzzle.cols), -1), np.zeros((puzzle.rows, puzzle.cols), int))
        for h in puzzle.hints:
            board.piece[h.row, h.col], board.rot[h.row, h.col] = h.piece, h.rot
        self.state = _Build(board, [])

    def time_left(self, until: float | None = None) -> float:
        """Wall seconds before ``until`` or the deadline, whichever comes first (inf when neither)."""
        ends = [t for t in (until, self.deadline) if t is not None]
        return min(ends) - time.perf_counter() if ends else float("inf")

    def solve(self, i: int, *, perfect: bool, exclude=(), until: float | None = None) -> dict:
        """Solve region i on the current board (perfect: no mismatch allowed); its record, not yet placed."""
        cells, board = self.regions[i], self.state.board
        possible = possible_joins(self.puzzle, board, cells)
        pool = candidates(self.puzzle, board, cells, self.state.unplaced(self.puzzle), self.cfg, self.rng)
        left = self.time_left(until)
        cpu0, wall0 = time.process_time(), time.perf_counter()
        record = {"region": i, "cells": len(cells), "candidates": len(pool), "possible": possible}
        if left < MIN_SOLVE_S or self.stop_requested():
            record["status"] = "skipped"
            return record
        start = None
        if self.cfg.warm_start and not perfect and len(np.unique(cells[:, 0])) > 1:
            start = self.row_by_row(cells, until)
            pool = np.union1d(pool, start[0])  # a pre-filtered pool may lack a piece the rows chose
            left = self.time_left(until)
            record["warm_start_joins"] = region_joins(self.puzzle, board, cells, *start)
        sol = self.solve_cells(cells, pool, left, exclude, possible if perfect else None, start)
        record.update(
            status=sol.status,
            seconds=round(time.perf_counter() - wall0, 3),
            cpu_s=round(time.process_time() - cpu0, 3),
        )
        if sol.joins >= 0:  # solved, or the warm start kept when CP-SAT found nothing better in time
            record.update(piece=sol.piece, rot=sol.rot, joins=sol.joins, mismatches=possible - sol.joins)
        return record

    def solve_cells(self, cells, pool, left: float, exclude=(), min_joins=None, start=None) -> RegionSolution:
        """One CP-SAT solve of ``cells`` from ``pool`` with the config's limits and a fresh seed."""
        self.state.solves += 1
        return solve_region(
            self.puzzle,
            self.state.board,
            cells,
            pieces=pool,
            time_limit_s=max(0.0, min(self.cfg.time_limit_wall_s, left)),
            seed=int(self.rng.integers(2**31)),
            num_workers=self.cfg.num_workers,
            exclude=exclude,
            min_joins=min_joins,
            stop_requested=self.stop_requested,
            warm_start=start,
        )

    def row_by_row(self, cells: np.ndarray, until: float | None) -> tuple[np.ndarray, np.ndarray]:
        """A warm start for a region of several rows: each of its rows solved in turn (fill_region when
        CP-SAT finds nothing), as the 1-row construction would; the board is left as it was."""
        board = self.state.board
        for row in np.unique(cells[:, 0]):
            sub = cells[cells[:, 0] == row]
            pool = candidates(self.puzzle, board, sub, self.state.unplaced(self.puzzle), self.cfg, self.rng)
            sol = self.solve_cells(sub, pool, self.time_left(until))
            piece, rot = (
                (sol.piece, sol.rot)
                if sol.status in SOLVED
                else fill_region(self.puzzle, board, sub, pool, self.rng)
            )
            board.piece[sub[:, 0], sub[:, 1]], board.rot[sub[:, 0], sub[:, 1]] = piece, rot
        start = (board.piece[cells[:, 0], cells[:, 1]].copy(), board.rot[cells[:, 0], cells[:, 1]].copy())
        board.piece[cells[:, 0], cells[:, 1]], board.rot[cells[:, 0], cells[:, 1]] = -1, 0
        return start

    def place(self, record: dict) -> None:
        """Put a solved region's pieces on the board; a region CP-SAT did not solve is filled (fill_region)."""
        cells, board = self.regions[record["region"]], self.state.board
        if "piece" not in record:
            pool = candidates(self.puzzle, board, cells, self.state.unplaced(self.puzzle), self.cfg, self.rng)
            record["piece"], record["rot"] = fill_region(self.puzzle, board, cells, pool, self.rng)
            joins = region_joins(self.puzzle, board, cells, record["piece"], record["rot"])
            record.update(joins=joins, mismatches=record["possible"] - joins, filled=True)
            self.state.fills += 1
        board.piece[cells[:, 0], cells[:, 1]] = record["piece"]
        board.rot[cells[:, 0], cells[:, 1]] = record["rot"]
        self.state.records.append(record)
        self.progress()

    def lift(self) -> dict:
        """Take the last placed region off the board; its record."""
        record = self.state.records.pop()
        cells = self.regions[record["region"]]
        self.state.board.piece[cells[:, 0], cells[:, 1]] = -1
        self.state.board.rot[cells[:, 0], cells[:, 1]] = 0
        return record

    def greedy(self) -> None:
        """Paper 002 Algorithm 1 from the first unplaced region on: each region once, most joins."""
        for i in range(len(self.state.records), len(self.regions)):
            self.place(self.solve(i, perfect=False))

    def backtracking(self) -> dict:
        """Paper 002 Algorithm 2: perfect regions only, no-good cuts on backtracks, then greedy from the deepest board."""
        until = time.perf_counter() + self.cfg.backtrack_wall_s
        excluded: list[list[tuple[np.ndarray, np.ndarray]]] = [[] for _ in self.regions]
        deepest = self.state.copy()
        ended = "complete"
        i = 0
        while i < len(self.regions):
            if self.stop_requested() or self.time_left(until) < MIN_SOLVE_S:
                ended = "stopped" if self.stop_requested() else "time limit"
                break
            record = self.solve(i, perfect=True, exclude=excluded[i], until=until)
            if "piece" in record:
                self.place(record)
                i += 1
                if i < len(self.regions):
                    excluded[i] = []  # the region above changed: earlier cuts of region i no longer apply
                if i > len(deepest.records):
                    deepest = self.state.copy()
                continue
            if record["status"] != "infeasible" and self.time_left(until) < MIN_SOLVE_S:
                ended = "time limit"
                break
            if i == 0:
                ended = "no perfect first region"
                break
            old = (
                self.lift()
            )  # no perfect placement proven (or found in the limit): back to the region before
            i -= 1
            excluded[i].append((old["piece"], old["rot"]))
            self.state.backtracks += 1
        backtracks, solves = self.state.backtracks, self.state.solves
        if i < len(self.regions):
            self.state = deepest  # the deepest partial board, finished by the greedy rule
            self.state.backtracks, self.state.solves = backtracks, solves
        return {
            "backtracking_end": ended,
            "backtracking_depth": i,
            "perfect_regions": len(self.state.records),
        }

    def progress(self) -> None:
        """A progress line for long constructions (core/ticks.py: at most one every 5 s)."""
        if not self.lines.due():
            return
        placed = self.state.records
        self.lines.say(
            f"regions: {len(placed)}/{len(self.regions)} placed, "
            f"{sum(r['mismatches'] for r in placed)} mismatches, {self.state.backtracks} backtracks, "
            f"{time.perf_counter() - self.start:.0f} s"
        )


def construct_regions(
    puzzle: Puzzle,
    cfg: RegionsConfig,
    rng: np.random.Generator,
    deadline_s: float | None = None,
    stop_requested: Callable[[], bool] | None = None,
    report: Report | None = None,
) -> tuple[Board, dict]:
    """A complete valid board built region by region, and its record for result.json."""
    builder = RegionBuilder(puzzle, cfg, rng, deadline_s, stop_requested or (lambda: False), report)
    info: dict = {}
    if cfg.mode == "backtracking":
        info.update(builder.backtracking())
    builder.greedy()
    state = builder.state
    records = sorted(state.records, key=lambda r: r["region"])
    info.update(
        mode=cfg.mode,
        regions=len(builder.regions),
        regions_solved=sum(1 for r in records if not r.get("filled")),
        regions_filled=state.fills,
        fallback_used=state.fills > 0,
        solves=state.solves,
        backtracks=state.backtracks,
        mismatches_per_region=[int(r["mismatches"]) for r in records],
        status_per_region=[r["status"] for r in records],
        seconds_per_region=[r.get("seconds", 0.0) for r in records],
        cpu_s_per_region=[r.get("cpu_s", 0.0) for r in records],
        candidates_per_region=[r["candidates"] for r in records],
        warm_start_joins_per_region=[r.get("warm_start_joins") for r in records],
        wall_s=round(time.perf_counter() - builder.start, 3),
        cpu_s=round(time.process_time() - builder.cpu_start, 3),
        interrupted=builder.stop_requested(),
    )
    if state.fills:
        filled = [r for r in records if r.get("filled")]
        info["status"] = [r["status"] for r in filled]
        info["fallback"] = f"a best-fit fill in {len(filled)} of {len(records)} regions"
    return state.board, info
