"""Initial board from CP-SAT on the relaxed puzzle, completed by the assignment move (paper 001 §2, §5).

Round 1 solves the model of cpsat/relaxed_model.py with |R| relaxed cells (pairwise non-adjacent, drawn with
the run's rng or given in the config); the relaxed cells are then refilled optimally with
fill.assignment.reassign. ``max_attempts`` - 1 more rounds repeat it with a new draw of R and a new seed:
on the 16x16 puzzle CP-SAT either solves a relaxed model within about 10 s or not in 40 s
(docs/cpsat.md), so several short rounds beat one long one. CP-SAT keeps no "deepest node", so paper 001's "complete the largest
partial assignment at random" has no direct equivalent; when a round finds nothing in its time
limit, the steps of ``cfg.fallback`` are tried in order:

- ``more_relaxed``: up to ``fallback_rounds`` new hard rounds, each adding ``fallback_step`` relaxed
  cells to the previous set (the easier relaxed puzzle paper 001's Figure 4 says is solved more often);
- ``max_matches``: the same relaxed model with every join made soft, maximising the matched joins.
  Any kind-respecting placement is feasible, so CP-SAT returns a board within seconds and improves it
  until the limit — the CP-SAT counterpart of the largest partial assignment.

If every step fails, the board is e2opt.board.random_board, so a run never fails just because CP-SAT
found nothing; the info dict says which path was taken. A round is skipped, with its reason recorded, when
the run's deadline leaves too little time for it (model building counts against the deadline) or when its
model would need more memory than the machine has available; the next step is then tried.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from ortools.sat.python import cp_model

from ..core.board import Board, random_board, score
from ..core.errors import E2optError
from ..core.fsutil import atomic_write_text
from ..core.puzzle import Puzzle
from ..cpsat.relaxed_model import (
    Cell,
    add_strategy,
    build_model,
    check_relaxed,
    draw_relaxed,
    symmetry_applies,
)
from ..cpsat.solver import StopRequested, solve_interruptibly
from ..fill.assignment import reassign
from .config import CpSatConfig

MIN_ROUND_S = 0.5  # a round with less time than this left before the deadline is skipped
RESERVE_S = 0.5  # kept back from the deadline for model building, completion and bookkeeping
OVERSHOOT = 0.9  # CP-SAT ran up to 11% past its limit on the loaded 2-core machine (44.5 s for 40 s)
# CP-SAT expands table constraints before its time limit can stop it: 6.9-11 s for the 157k tuples of
# the 16x16 puzzle on the loaded 2-core machine (load 5.5); element constraints load in about 0.5 s.
LOAD_S_PER_TUPLE = 5e-5
# Element models load faster but not at once: a 0.5 s limit on 16x16 (157k options) took 2.1 s (load 4).
LOAD_S_PER_ELEMENT_OPTION = 1.2e-5
# Peak memory of a CP-SAT round grows with the (piece, rotation) options of its hard cells: 830 MB for the
# 157k options of 16x16 (docs/cpsat.md) and 2.9 GB for the 945k of 24x24, both with 2 workers
# and the element model; the line through them, rounded up (docs/cpsat_memory.md: 1.4-2.9x a 2 s round's peak).
MODEL_BASE_MB = 450.0
MODEL_KB_PER_OPTION = 2.7
SOLVED = (cp_model.OPTIMAL, cp_model.FEASIBLE)
FIRST_STEPS = ("first", "restart")  # the rounds of the configured model; the others are fallbacks


@dataclass
class Round:
    """One CP-SAT attempt: hard or soft (max_matches) model, its relaxed cells and its time limit."""

    model: str
    relaxed: list[Cell]
    time_limit_s: float


def solver_for(cfg: CpSatConfig, time_limit_s: float, seed: int, fixed_search: bool, log: list[str] | None):
    """A CpSolver with the config's parameters; None presolve knobs keep CP-SAT's own defaults."""
    solver = cp_model.CpSolver()
    p = solver.parameters
    p.max_time_in_seconds = time_limit_s
    p.num_workers = cfg.num_workers
    p.random_seed = seed
    p.catch_sigint_signal = False  # Ctrl-C belongs to the run (signals.StopSignals), which stops the solve
    p.cp_model_presolve = cfg.presolve
    if cfg.symmetry_level is not None:
        p.symmetry_level = cfg.symmetry_level
    if cfg.probing_level is not None:
        p.cp_model_probing_level = cfg.probing_level
    if cfg.max_presolve_iterations is not None:
        p.max_presolve_iterations = cfg.max_presolve_iterations
    if fixed_search:
        p.search_branching = cp_model.FIXED_SEARCH  # follow the decision strategy strictly
    if log is not None:
        p.log_search_progress = True
        p.log_to_stdout = False
        solver.log_callback = log.append
    return solver


def _never() -> bool:
    return False


def solve_round(
    puzzle: Puzzle,
    cfg: CpSatConfig,
    rnd: Round,
    rng: np.random.Generator,
    log: list[str] | None,
    stop_requested: StopRequested = _never,
    deadline: float | None = None,
) -> tuple[Board | None, dict]:
    """Build and solve one round; the CP board (relaxed cells not yet refilled) or None, and its record.

    ``deadline`` (a time.perf_counter value): the solve is cut to end by then, building included; a round
    whose build leaves no time is not solved (status SKIPPED).
    """
    t0 = time.perf_counter()
    symmetry = cfg.symmetry_breaking and symmetry_applies(puzzle, rnd.relaxed)
    order_rng = rng if cfg.value_strategy == "random" else None
    pm = build_model(
        puzzle,
        rnd.relaxed,
        table=cfg.table == "table",
        symmetry=symmetry,
        soft=rnd.model == "max_matches",
        order_rng=order_rng,
    )
    fixed = add_strategy(pm, puzzle.rows, puzzle.cols, cfg.variable_strategy, cfg.value_strategy)
    seed = int(rng.integers(2**31))
    if deadline is not None:
        left = time_left(deadline) - load_estimate_s(puzzle, cfg, rnd.relaxed)  # loading runs past the limit
        if left < MIN_ROUND_S:
            built = time.perf_counter() - t0
            reason = (
                f"building the model took {built:.1f} s and left {max(left, 0):.1f} s before the run's budget"
            )
            return None, {
                "model": rnd.model,
                "relaxed": len(rnd.relaxed),
                "status": "SKIPPED",
                "reason": reason,
            }
        rnd.time_limit_s = min(rnd.time_limit_s, left)
    if log is not None:
        log.append(f"# e2opt round: model={rnd.model} relaxed={len(rnd.relaxed)} seed={seed}")
    solver = solver_for(cfg, rnd.time_limit_s, seed, fixed, log)
    status = solve_interruptibly(solver, pm.model, stop_requested)
    record = {
        "model": rnd.model,
        "relaxed": len(rnd.relaxed),
        "status": solver.status_name(status),
        "time_limit_s": round(rnd.time_limit_s, 3),
        "wall_s": round(time.perf_counter() - t0, 3),
        "random_seed": seed,
        "symmetry_broken": symmetry,
    }
    if status not in SOLVED:
        return None, record
    if pm.matches:
        record["matched_joins"] = int(solver.objective_value)
    return pm.board(solver.value), record


def construct_cpsat(
    puzzle: Puzzle,
    cfg: CpSatConfig,
    rng: np.random.Generator,
    deadline_s: float | None = None,
    log_path: str | None = None,
    stop_requested: StopRequested | None = None,
) -> tuple[Board, dict]:
    """A valid board from the relaxed CP-SAT model plus completion, with its record for result.json.

    ``deadline_s`` is the wall time left in the run: rounds are shortened to fit it and skipped
    when too little remains. The CP-SAT log goes to ``log_path`` when ``cfg.log`` is set.
    When ``stop_requested()`` turns true (a signal), the round in progress stops and no other starts.
    """
    start = time.perf_counter()
    deadline = None if deadline_s is None else start + deadline_s
    stop_requested = stop_requested or _never
    log: list[str] | None = [] if cfg.log and log_path else None
    first = (
        check_relaxed(puzzle, cfg.relaxed_cells)
        if cfg.relaxed_cells is not None
        else draw_relaxed(puzzle, cfg.relaxed, rng)
    )
    records: list[dict] = []
    board, relaxed, path = None, first, "random"
    for step, rnd in _schedule(puzzle, cfg, first, rng):
        if stop_requested():
            break
        reason = skip_reason(puzzle, cfg, rnd, deadline)
        if reason is not None:
            records.append(
                {"model": rnd.model, "relaxed": len(rnd.relaxed), "status": "SKIPPED", "reason": reason}
            )
            continue  # a later step may fit: a smaller model, or one that loads faster
        try:
            board, record = solve_round(puzzle, cfg, rnd, rng, log, stop_requested, deadline)
        except E2optError as exc:  # a model CP-SAT cannot take (e.g. a hint no piece can match): next step
            board, record = None, {"model": rnd.model, "relaxed": len(rnd.relaxed), "status": "MODEL_ERROR"}
            record["error"] = str(exc)
        records.append(record)
        if log is not None:
            atomic_write_text(log_path, "\n".join(log) + "\n")
        if board is not None:
            relaxed, path = rnd.relaxed, step
            break

    if board is None:
        board, relaxed = random_board(puzzle, rng), []
        before = after = score(puzzle, board)
    else:
        before = score(puzzle, board)
        board = reassign(puzzle, board, relaxed)
        after = score(puzzle, board)
    info = {
        "relaxed": len(relaxed) if path != "random" else None,  # None: no CP-SAT board was used
        "relaxed_cells": [list(cell) for cell in relaxed],
        "status": [r["status"] for r in records],
        "rounds": records,
        "wall_s": round(time.perf_counter() - start, 3),
        "fallback_used": path not in FIRST_STEPS,
        "fallback": None if path in FIRST_STEPS else path,
        "interrupted": stop_requested(),
        "score_before_completion": before,
        "score_after_completion": after,
    }
    return board, info


def time_left(deadline: float) -> float:
    """Seconds a CP-SAT solve may be given before ``deadline``: reserve and overshoot taken off."""
    return OVERSHOOT * (deadline - time.perf_counter() - RESERVE_S)


def skip_reason(puzzle: Puzzle, cfg: CpSatConfig, rnd: Round, deadline: float | None) -> str | None:
    """Why the round cannot run (too little time before the run's budget, too little memory); None if it can."""
    need_mb = memory_estimate_mb(puzzle, rnd.relaxed)
    free_mb = available_memory_mb()
    if free_mb is not None and need_mb > free_mb:
        return f"the model would need about {need_mb:,.0f} MB, {free_mb:,.0f} MB is available"
    if deadline is None:
        return None
    left, need = time_left(deadline), MIN_ROUND_S + load_estimate_s(puzzle, cfg, rnd.relaxed)
    if left < need:
        return f"{max(left, 0):.1f} s left before the run's budget, the round needs at least {need:.1f} s"
    return None


def options(puzzle: Puzzle, relaxed: list[Cell]) -> int:
    """(piece, rotation) options over the hard cells: the size of the model's per-cell constraints."""
    per_cell = np.bincount(puzzle.kinds, minlength=3) * np.array([1, 1, 4])
    skip = set(relaxed)
    hard = [(r, c) for r in range(puzzle.rows) for c in range(puzzle.cols) if (r, c) not in skip]
    return int(sum(per_cell[puzzle.cell_kind(r, c)] for r, c in hard))


def load_estimate_s(puzzle: Puzzle, cfg: CpSatConfig, relaxed: list[Cell]) -> float:
    """Seconds CP-SAT may spend loading the model, past any time limit (see LOAD_S_PER_TUPLE)."""
    per_option = LOAD_S_PER_TUPLE if cfg.table == "table" else LOAD_S_PER_ELEMENT_OPTION
    return per_option * options(puzzle, relaxed)


def memory_estimate_mb(puzzle: Puzzle, relaxed: list[Cell]) -> float:
    """Peak MB a round's process may reach (see MODEL_KB_PER_OPTION)."""
    return MODEL_BASE_MB + MODEL_KB_PER_OPTION * options(puzzle, relaxed) / 1024


def available_memory_mb() -> float | None:
    """MemAvailable of /proc/meminfo in MB; None where it cannot be read (not Linux)."""
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError):
        return None
    return None


def _schedule(puzzle: Puzzle, cfg: CpSatConfig, first: list[Cell], rng: np.random.Generator):
    """(step name, Round) in the order they are tried: the first round, then the fallback steps."""
    yield "first", Round("hard", first, cfg.time_limit_wall_s)
    for _ in range(
        cfg.max_attempts - 1
    ):  # CP-SAT solves a relaxed E2 fast or not at all: a new draw beats waiting
        relaxed = first if cfg.relaxed_cells is not None else draw_relaxed(puzzle, len(first), rng)
        yield "restart", Round("hard", relaxed, cfg.time_limit_wall_s)
    for step in cfg.fallback:
        if step == "max_matches":
            yield step, Round("max_matches", first, cfg.fallback_time_limit_wall_s)
            continue
        relaxed = first
        for _ in range(cfg.fallback_rounds):
            try:
                relaxed = draw_relaxed(puzzle, len(relaxed) + cfg.fallback_step, rng, keep=relaxed)
            except E2optError:
                break  # the board has no room for that many non-adjacent relaxed cells
            yield step, Round("hard", relaxed, cfg.fallback_time_limit_wall_s)
