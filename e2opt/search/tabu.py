"""TabuSearch: the control flow of Algorithm 1 of paper 001 (very large neighbourhood tabu search).

Each iteration the schedule picks one move (search/moves: the assignment move of Algorithm 1 by
default, also the checkerboard assignment, swap-and-rotate, CP-SAT region repair and border
optimisation), the move changes the board in place and returns the score change, and the acceptance
keeps or undoes it (tabu rules: keep; annealing: Metropolis). The assignment move: choose holes (not in
tabu list 1), build the cost matrix (reverse arcs of tabu list 2 penalised), solve it with scipy's
linear_sum_assignment, apply it. A plateau (``plateau`` moves without a new best) triggers a diversification (random swap-and-rotate moves); ``intensify_after``
plateaus in a row without a new best trigger an intensification (the best board is restored).
Choices where the paper is vague: a plateau counts moves since the last new best or plateau event;
the intensification replaces that plateau's diversification; tabu lists survive both. Holes of all
kinds go into one move, a piece that cannot fit a hole getting a forbidden cost (the identity is
always feasible). Tie noise makes equal-weight reassignments random sideways moves; cost noise
(``cost_noise`` joins per cost entry) lets a move give up joins now and then (the noising method).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ..core.board import Board, rule_violations
from ..core.board import score as board_score
from ..core.errors import BoardError
from ..core.puzzle import Puzzle
from .acceptance import Acceptance
from .config import SearchConfig
from .context import SearchContext
from .flat import FlatPuzzle
from .moves import build_moves
from .moves.assignment import AssignmentMove
from .moves.diversify import DiversifyMove
from .schedule import Schedule
from .state import SearchState
from .stop import Clock, Status, iteration_limit

TICK = 64  # moves between clock reads (and "tick" events); stop criteria are checked there too

EventCallback = Callable[[str, dict], None]


@dataclass
class SearchResult:
    """What one call of TabuSearch.run reached."""

    best_board: Board
    best_score: int
    iterations: int  # total moves made by the search (all runs, resumes included)
    time_to_best_s: float  # run clock wall seconds at which the best board was found
    stop_reason: str
    moves_per_s: float  # moves per CPU second during this call
    diversifications: int
    intensifications: int
    moves: dict = field(default_factory=dict)  # per move: calls, CPU s, gain, improving calls, share


def _ignore(kind: str, info: dict) -> None:
    """The default event callback."""


class TabuSearch:
    """The search on one puzzle; ``state`` holds everything needed to continue it exactly."""

    def __init__(self, puzzle: Puzzle, board: Board, cfg: SearchConfig, rng: np.random.Generator):
        problems = rule_violations(puzzle, board)
        if problems:
            raise BoardError(f"initial board breaks the rules: {problems[0]}")
        flat = FlatPuzzle.of(puzzle)
        piece, rot = flat.flatten(board)
        seed = int(rng.integers(0, 2**63 - 1))
        self._setup(puzzle, cfg, SearchState.initial(piece, rot, 0, seed), flat)
        self.state.score = self.state.best_score = self._recompute()

    @classmethod
    def from_state(cls, puzzle: Puzzle, cfg: SearchConfig, state: SearchState) -> TabuSearch:
        """Continue a search from a saved state (see SearchState.to_dict / from_dict).

        ValueError when the state does not belong to this puzzle (checked before any kernel reads it:
        numba does not check bounds).
        """
        flat = FlatPuzzle.of(puzzle)
        state.check_fits(flat.n)
        rule_problems = rule_violations(puzzle, flat.board(state.piece, state.rot))
        rule_problems += rule_violations(puzzle, flat.board(state.best_piece, state.best_rot))
        if rule_problems:
            raise ValueError(f"search state: {rule_problems[0]}")
        search = cls.__new__(cls)
        search._setup(puzzle, cfg, state, flat)
        score = search._recompute()
        if score != state.score:
            raise ValueError(f"search state: score {state.score} does not match its board ({score})")
        return search

    def _setup(self, puzzle: Puzzle, cfg: SearchConfig, state: SearchState, flat: FlatPuzzle) -> None:
        """Bind config, the shared context, the moves, the schedule and the acceptance rule."""
        self.puzzle, self.cfg, self.state, self.flat = puzzle, cfg, state, flat
        self.ctx = SearchContext.of(puzzle, flat, state, annealing=cfg.acceptance.kind == "annealing")
        self._colour, self._mis = self.ctx.colour, self.ctx.mis
        self.moves = build_moves(self.ctx, cfg.moves)
        self.schedule = Schedule(
            cfg.schedule, [m.name for m in self.moves], [m.settings for m in self.moves], state
        )
        self.acceptance = Acceptance(cfg.acceptance, state)
        self._diversify = DiversifyMove(self.ctx, cfg.diversify_swaps)
        self._saved = (state.piece.copy(), state.rot.copy()) if self.acceptance.annealing else None
        self.last_move = ""  # the move of the latest iteration: new-best events name it

    def _recompute(self) -> int:
        """colour, mis and the score of the current board from scratch."""
        return self.ctx.recompute()

    def current_board(self) -> Board:
        return self.flat.board(self.state.piece, self.state.rot)

    def best_board(self) -> Board:
        return self.flat.board(self.state.best_piece, self.state.best_rot)

    def adopt_best(
        self,
        board: Board,
        value: int,
        iteration: int | None = None,
        wall_s: float | None = None,
        cpu_s: float | None = None,
    ) -> None:
        """Take ``board`` (valid, scoring ``value``) as the best board (a best.board newer than a checkpoint).

        ``iteration`` and the times say when it was found, when known (from events.jsonl).
        """
        st = self.state
        st.best_piece[:], st.best_rot[:] = self.flat.flatten(board)
        st.best_score = int(value)
        if iteration is not None:
            st.best_iteration = int(iteration)
        if wall_s is not None and cpu_s is not None:
            st.time_to_best_wall, st.time_to_best_cpu = float(wall_s), float(cpu_s)

    def move(self) -> None:
        """One iteration: the scheduled move, kept or undone by the acceptance rule."""
        st, schedule = self.state, self.schedule
        i = schedule.pick()
        self.last_move = self.moves[i].name
        if self._saved is not None:
            self._saved[0][:], self._saved[1][:] = st.piece, st.rot
        start = time.process_time() if schedule.timed else 0.0
        delta = self.moves[i]()
        if self.acceptance.undoes(delta):
            st.piece[:], st.rot[:] = self._saved
            self.ctx.recompute()
            delta = 0
        st.score += delta
        schedule.record(i, delta, time.process_time() - start if schedule.timed else 0.0)
        st.iteration += 1

    def reassign_cells(self, cells: list[int]) -> None:
        """The assignment move on given flat cells (pairwise non-adjacent, movable), without the selection: for tests."""
        move = next((m for m in self.moves if isinstance(m, AssignmentMove)), None)
        move = move or AssignmentMove(self.ctx, self.cfg.assignment)
        self.state.score += move.reassign_cells(cells)

    def run(
        self, stop: Callable[[Status], bool], clock: Clock, on_event: EventCallback | None = None
    ) -> SearchResult:
        """Search until ``stop`` holds; time criteria are read every TICK moves, iteration limits exactly."""
        st = self.state
        emit = on_event or _ignore
        limit = iteration_limit(stop)
        first_iteration, cpu0 = st.iteration, clock.cpu()
        self.acceptance.start(stop)
        status = Status()
        last_cpu = cpu0
        while True:
            status.iteration, status.score, status.best_score = st.iteration, st.score, st.best_score
            status.intensifications = st.intensifications
            status.wall_s, status.cpu_s = clock.wall(), clock.cpu()
            if not self.schedule.timed:
                self.schedule.add_cpu(status.cpu_s - last_cpu)
            last_cpu = status.cpu_s
            self.acceptance.cool(st.iteration, status.cpu_s)
            emit("tick", self._info(status.wall_s, status.cpu_s))
            if stop(status):
                break
            end = st.iteration + TICK - st.iteration % TICK
            self._advance(end if limit is None else min(end, limit), clock, emit)
        cpu = clock.cpu() - cpu0
        reason = getattr(stop, "reason", "") or type(stop).__name__
        emit(
            "end",
            {
                "iteration": st.iteration,
                "best_score": st.best_score,
                "stop_reason": reason,
                "moves": self.schedule.summary(),
            },
        )
        return SearchResult(
            best_board=self.best_board(),
            best_score=st.best_score,
            iterations=st.iteration,
            time_to_best_s=st.time_to_best_wall,
            stop_reason=reason,
            moves_per_s=(st.iteration - first_iteration) / cpu if cpu > 0 else 0.0,
            diversifications=st.diversifications,
            intensifications=st.intensifications,
            moves=self.schedule.summary(),
        )

    def _advance(self, end: int, clock: Clock, emit: EventCallback) -> None:
        """Move until iteration ``end``; return early after a new best or an intensification."""
        st, cfg = self.state, self.cfg
        while st.iteration < end:
            if st.plateau_moves >= cfg.plateau and self._plateau(clock, emit):
                return
            self.move()
            if cfg.check:
                self.check()
            if st.score > st.best_score:
                self._new_best(clock, emit, self.last_move)
                return
            st.moves_since_best += 1
            st.plateau_moves += 1

    def _plateau(self, clock: Clock, emit: EventCallback) -> bool:
        """Diversify, or intensify after ``intensify_after`` plateaus in a row; True if it intensified."""
        st = self.state
        st.plateau_moves = 0
        st.plateaus_in_a_row += 1
        if st.plateaus_in_a_row >= self.cfg.intensify_after:
            st.plateaus_in_a_row = 0
            st.intensifications += 1
            st.piece[:], st.rot[:] = st.best_piece, st.best_rot
            st.score = self._recompute()
            emit("intensify", self._counters())
            return True
        st.score += self._diversify()
        st.diversifications += 1
        emit("diversify", self._counters())
        if st.score > st.best_score:
            self._new_best(clock, emit, "diversify")
        return False

    def _new_best(self, clock: Clock, emit: EventCallback, move: str) -> None:
        """Keep the current board as the search's best; the event names the move that made it."""
        st = self.state
        st.best_piece[:], st.best_rot[:] = st.piece, st.rot
        st.best_score, st.best_iteration = st.score, st.iteration
        st.moves_since_best = st.plateau_moves = st.plateaus_in_a_row = 0
        st.time_to_best_wall, st.time_to_best_cpu = clock.wall(), clock.cpu()
        info = {"score": st.score, "iteration": st.iteration, "move": move}
        emit("best", {**info, "wall_s": st.time_to_best_wall, "cpu_s": st.time_to_best_cpu})

    def _counters(self) -> dict:
        """Where the search stands: move, scores, plateaus so far (for events and progress)."""
        st = self.state
        return {
            "iteration": st.iteration,
            "score": st.score,
            "best_score": st.best_score,
            "diversifications": st.diversifications,
            "intensifications": st.intensifications,
        }

    def _info(self, wall: float, cpu: float) -> dict:
        info = {**self._counters(), "wall_s": wall, "cpu_s": cpu, "moves": self.schedule.summary()}
        if self.acceptance.annealing:
            info["temperature"] = round(float(self.acceptance.temperature[0]), 4)
        return info

    def check(self) -> None:
        """Check mode: recompute everything from scratch; AssertionError on any difference."""
        st = self.state
        colour, mis = self._colour.copy(), self._mis.copy()
        scratch = self._recompute()
        board = self.current_board()
        truth = board_score(self.puzzle, board)
        problems = rule_violations(self.puzzle, board)
        if (
            problems
            or not (scratch == truth == st.score)
            or not np.array_equal(colour, self._colour)
            or not np.array_equal(mis, self._mis)
        ):
            raise AssertionError(
                f"check failed at iteration {st.iteration}: incremental score {st.score}, "
                f"recomputed {scratch}, verifier {truth}, colours equal {np.array_equal(colour, self._colour)}, mismatches equal "
                f"{np.array_equal(mis, self._mis)}, rule violations {problems[:3]}"
            )
