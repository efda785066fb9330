"""The coordinator's view of a run of several workers: their latest states, the elite, the run's best.

Each answer of a worker's round (round.py) is absorbed here: new bests are verified by the independent
verifier before best.board is rewritten, boards are verified again before they are published to the
workers, and the checkpoint holds every worker's state with the elite and the run's best.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ..core.board import Board, format_board, write_board
from ..core.errors import BoardError, E2optError
from ..core.formats.detect import verifier_puzzle_text
from ..core.formats.read import read_board
from ..core.puzzle import Puzzle
from ..core.verify import verify_texts
from ..search import stop as stopping
from ..search.flat import FlatPuzzle
from ..search.schedule import add_totals
from ..search.state import SearchState
from .boardpool import BoardPool, board_key
from .checkpoint import save_checkpoint
from .config import RunConfig
from .eventkinds import Best, Checkpoint, Produced, Share, WorkerLost, make
from .events import EventLog, read_typed
from .protocol import Answer, ProducedBoard, WorkerMeta, WorkerState
from .roles import Role, assign
from .runfolder import BEST


class Team:
    """The coordinator's view of the run: every worker's latest state, the elite, the run's best."""

    def __init__(self, cfg: RunConfig, run_dir: Path, puzzle: Puzzle, n: int, clock: stopping.Clock):
        self.cfg, self.dir, self.puzzle, self.n, self.clock = cfg, run_dir, puzzle, n, clock
        self.flat = FlatPuzzle.of(puzzle)
        self.puzzle_text = verifier_puzzle_text(cfg.instance)  # community formats in e2opt's text
        self.states: list[WorkerState | None] = [None] * n
        self.finished: list[str | None] = [None] * n
        self.current, self.moves = [0] * n, [0] * n
        self.rounds, self.lost = [0] * n, [0] * n
        self.lost_cpu = [0.0] * n  # CPU seconds of the rounds lost with their process (not in any state)
        self.move_summaries: list[dict[str, dict]] = [{} for _ in range(n)]  # each worker's per-move totals
        self.elite = BoardPool(cfg.run.elite_size, similar=1.0)  # the best distinct boards; never taken
        self.published: list[dict[str, Any]] = []  # the elite as last published (protocol.Task.published)
        self.best: dict[str, Any] | None = None  # {"score", "worker", "iteration", "wall_s", "cpu_s"}
        self.best_board: Board | None = None
        self.stop_reason: str | None = None
        roles = cfg.run.roles
        self.pool = BoardPool(roles.pool_size, roles.similar)
        self.pending: dict[int, str] = {}  # worker -> key of the pool board its round in flight was handed
        self.counted: set[str] = set()  # keys of the produced boards with a "produced" event

    # --- roles ---

    def role_of(self, i: int) -> Role:
        """Worker i's role (roles.assign: it follows the team's size, which resume may grow)."""
        return assign(self.cfg.run, self.n)[i]

    def role(self, i: int) -> str:
        """Worker i's role's name, as events and result.json carry it."""
        return self.role_of(i).name

    def release_unsearched(self, i: int, took: str | None) -> None:
        """Worker i's round answered (or was given up): a board handed out and not searched waits again."""
        key = self.pending.pop(i, None)
        if key is not None and key != took:
            self.pool.release(key)

    def served_finished(self) -> bool:
        """Every worker whose role serves no other has finished: the serving ones have no one to work for."""
        return all(self.finished[i] is not None for i in range(self.n) if not self.role_of(i).serves)

    def take_produced(self, i: int, produced: list[ProducedBoard], events: EventLog) -> None:
        """A producer's boards, each verified and offered to the pool; one "produced" event per distinct board
        (a board handed again by a resumed round, or made by two producers, is counted once)."""
        for board in produced:
            _, value = self.verified(board.piece, board.rot)
            if value != board.score:
                raise E2optError(f"worker {i}: a produced board scores {value}, reported {board.score}")
            kept = self.pool.offer(board.piece, board.rot, value, i, board.wall_s)
            key = board_key(board.piece, board.rot)
            if key in self.counted:
                continue
            self.counted.add(key)
            events.write(Produced(
                worker=i, role=self.role(i), score=value, method=board.method, kept=kept, key=key,
                wall_s=round(board.wall_s, 3), cpu_s=round(board.cpu_s, 3), extra=dict(board.dfs),
            ))  # fmt: skip

    def note_lost(self, i: int, cpu_s: float, error: str, events: EventLog) -> None:
        """Worker i lost a round with its process (killed, crashed, a Dask worker gone): counted, with the CPU
        it had used, and written as a ``worker_lost`` event (result.json, the live view and the report show it)."""
        self.lost[i] += 1
        self.lost_cpu[i] += cpu_s
        events.write(WorkerLost(worker=i, role=self.role(i), error=error[:200], cpu_s=round(cpu_s, 3),
                                wall_s=round(self.clock.wall(), 3)))  # fmt: skip

    # --- what the workers found ---

    def verified(self, piece: np.ndarray, rot: np.ndarray) -> tuple[Board, int]:
        """The board and its score, checked by the independent verifier; E2optError if it breaks a rule."""
        board = self.flat.board(np.asarray(piece), np.asarray(rot))
        report = verify_texts(self.puzzle_text, format_board(board), self.cfg.instance, "<worker board>")
        if not report.valid:
            raise E2optError(f"a worker produced an invalid board: {report.problems[0]}")
        return board, report.score

    def absorb(self, answer: Answer, events: EventLog) -> None:
        """Take a round's answer: the worker's state, its events, a new run best (best.board rewritten), and
        what its role settles (a pool board searched, boards produced)."""
        i, state = answer.worker, answer.state
        first = self.states[i] is None
        self.states[i], self.finished[i] = state, answer.finished
        self.current[i], self.moves[i] = answer.current, answer.moves
        self.move_summaries[i] = answer.move_summary
        self.rounds[i] += 1
        if first:
            info = state.meta.construction
            events.write(make("construction", worker=i, **{**info, "wall_s": round(self.clock.wall(), 3)}))
        improved = False
        self.role_of(i).settle(self, i, answer, events)
        for event in answer.events:  # plain data from the round: typed here, as they are written
            kind, fields = event["event"], {k: v for k, v in event.items() if k != "event"}
            if kind == "best" and (self.best is None or fields["score"] > self.best["score"]):
                self.best = {**fields, "worker": i}
                improved = True
                events.write(make("best", worker=i, **rounded(fields)))
            elif kind == "best":
                events.write(make("worker_best", worker=i, **rounded(fields)))  # for the per-worker curves
            elif kind in ("restart", "diversify", "intensify", "repaired"):
                events.write(make(kind, worker=i, **rounded(fields)))
        if improved:
            board, value = self.verified(state.best_piece, state.best_rot)
            if value != self.best["score"]:
                raise E2optError(f"worker {i}: best board scores {value}, reported {self.best['score']}")
            self.best_board = board
            write_board(board, self.dir / BEST, fsync=False)

    def publish(self, events: EventLog) -> None:
        """Merge every worker's best board into the elite (each verified once) and publish it."""
        wall = self.clock.wall()
        for i, state in enumerate(self.states):
            if state is None or self.elite.known(state.best_piece, state.best_rot):
                continue
            _, value = self.verified(state.best_piece, state.best_rot)
            self.elite.offer(state.best_piece, state.best_rot, value, i, wall)
        self.published = self.elite.shared()
        events.write(Share(wall_s=round(wall, 3), elite=[e["score"] for e in self.published]))

    # --- totals ---

    def construction(self) -> dict[str, Any]:
        """The first worker's construction info (what a one-worker run reports)."""
        return next((s.meta.construction for s in self.states if s is not None), {})

    def cpu(self) -> float:
        """CPU seconds of all workers together (their latest answers)."""
        return sum(s.meta.cpu_s for s in self.states if s is not None)

    def totals(self, key: str) -> int:
        """A search counter summed over every worker and every search it made (restarts included)."""
        total = 0
        for state in self.states:
            if state is not None:
                total += getattr(state.meta, f"{key}_before") + int(state.search[key])
        return total

    def info(self) -> dict[str, Any]:
        """What the progress line and the stats events show."""
        return {
            "iteration": sum(self.moves),
            "score": max(self.current),
            "best_score": self.best["score"] if self.best else 0,
            "diversifications": self.totals("diversifications"),
            "intensifications": self.totals("intensifications"),
            "wall_s": self.clock.wall(),
            "cpu_s": self.cpu(),
            "moves": add_totals(self.move_summaries),  # per move, all workers (for events and report)
        }

    # --- checkpoint ---

    def unsearched(self) -> bool:
        """A worker's construction was cut short by a stop and it made no move: the run keeps no checkpoint, so
        that ``resume`` starts it again from its construction rather than from a board cut short."""
        return any(
            s is not None and s.meta.construction.get("interrupted") and self.moves[i] == 0
            for i, s in enumerate(self.states)
            if not self.role_of(i).serves  # a producer never moves; its boards are in the pool already
        )

    def checkpoint(self, events: EventLog) -> None:
        """Every worker's state, the elite and the run's best in one checkpoint file."""
        if self.unsearched():
            return
        arrays: dict[str, Any] = {}
        metas = []
        for i, state in enumerate(self.states):
            metas.append(None if state is None else state.meta.to_dict())
            if state is not None:
                arrays.update(state.arrays(i))
        elite = self.elite.ranked()
        for j, e in enumerate(elite):
            arrays[f"elite{j}.piece"], arrays[f"elite{j}.rot"] = e.piece, e.rot
        arrays.update(self.pool.arrays())
        wall = self.clock.wall()
        meta = {
            "wall_s": wall,
            "cpu_s": self.cpu(),
            "iteration": sum(self.moves),
            "best_score": self.best["score"] if self.best else None,
            "construction": self.construction(),
            "team": {
                "workers": self.n,
                "meta": metas,
                "rounds": self.rounds,
                "lost": self.lost,
                "lost_cpu": self.lost_cpu,
                "moves": self.moves,
                "current": self.current,
                "best": self.best,
                "elite_scores": [e.score for e in elite],
                "published": len(self.published),
                "pool": self.pool.meta(pending=set(self.pending.values())),
            },
        }
        save_checkpoint(self.dir, arrays, meta)
        events.write(Checkpoint(iteration=sum(self.moves), wall_s=round(wall, 3)))
        events.sync()

    @classmethod
    def restore(
        cls, cfg: RunConfig, run_dir: Path, puzzle: Puzzle, state: dict[str, Any], meta: dict[str, Any]
    ) -> Team:
        """The coordinator as its checkpoint left it (the clock counts the time already spent)."""
        team_meta = meta["team"]
        n = int(team_meta["workers"])
        team = cls(cfg, run_dir, puzzle, n, stopping.Clock(meta["wall_s"], 0.0))
        for i, worker_meta in enumerate(team_meta["meta"]):
            if worker_meta is None:
                continue
            worker = WorkerState.from_arrays(i, state, worker_meta)
            SearchState.from_dict(worker.search).check_fits(team.flat.n)
            team.check_best(i, worker.best_piece, worker.best_rot, worker.meta.best_score)
            team.states[i] = worker
        for key in ("rounds", "lost", "moves", "current"):
            setattr(team, key, list(team_meta[key]))
        team.lost_cpu = [
            float(x) for x in team_meta.get("lost_cpu", [0.0] * n)
        ]  # folders written before losses were counted have none
        for j, value in enumerate(team_meta["elite_scores"]):  # best first: they come back in that order
            team.elite.offer(state[f"elite{j}.piece"], state[f"elite{j}.rot"], int(value), -1, 0.0)
        team.published = team.elite.shared()[: team_meta["published"]]
        if "pool" in team_meta:  # checkpoints before worker roles have none
            team.pool.restore(team_meta["pool"], state)
        team.counted = {e.key for e in read_typed(run_dir) if isinstance(e, Produced) and e.key is not None}
        team.best = team_meta["best"]
        if team.best is not None:
            i = team.best["worker"]
            team.best_board = team.flat.board(team.states[i].best_piece, team.states[i].best_rot)
            if max(s.meta.best_score for s in team.states if s) > team.best["score"]:
                raise E2optError(f"{run_dir}: the checkpoint's best does not match its workers")
        return team

    def check_best(self, i: int, piece: np.ndarray, rot: np.ndarray, recorded: int) -> None:
        """ValueError unless worker i's best board of a checkpoint is valid here and scores what it recorded
        (a checkpoint of another puzzle, or a puzzle file changed under the run)."""
        try:
            _, value = self.verified(piece, rot)
        except E2optError as exc:
            raise ValueError(f"worker {i}: {exc}") from None
        if value != recorded:
            raise ValueError(f"worker {i}: its best board scores {value} here, {recorded} in the checkpoint")

    @classmethod
    def from_single(
        cls, cfg: RunConfig, run_dir: Path, puzzle: Puzzle, state: dict[str, Any], meta: dict[str, Any]
    ) -> Team:
        """A team of one from a checkpoint of the one-worker engine that e2opt had before (no "team" in meta)."""
        search = SearchState.from_dict(state)
        team = cls(cfg, run_dir, puzzle, 1, stopping.Clock(meta["wall_s"], 0.0))
        search.check_fits(team.flat.n)
        team.check_best(0, search.best_piece, search.best_rot, search.best_score)
        worker_meta = WorkerMeta(
            best_score=int(search.best_score),
            best_wall_s=search.time_to_best_wall,
            best_cpu_s=search.time_to_best_cpu,
            search_best_wall_s=search.time_to_best_wall,
            cpu_s=float(meta["cpu_s"]),
            construction=meta.get("construction", {}),
        )
        team.states[0] = WorkerState(worker_meta, state, search.best_piece, search.best_rot)
        team.moves, team.current = [search.iteration], [search.score]
        team.best = {
            "score": search.best_score,
            "worker": 0,
            "iteration": search.best_iteration,
            "wall_s": search.time_to_best_wall,
            "cpu_s": search.time_to_best_cpu,
        }
        team.best_board = team.flat.board(search.best_piece, search.best_rot)
        return team

    def adopt_saved_best(self) -> bool:
        """best.board may be newer than the checkpoint (the run was killed): keep it when valid and better."""
        try:
            board = read_board(self.dir / BEST)
        except BoardError:
            return False
        piece, rot = self.flat.flatten(board)
        try:
            board, value = self.verified(piece, rot)
        except E2optError:
            return False
        if self.best is not None and value <= self.best["score"]:
            return False
        found = Best()  # when it was found: the matching "best" event, when that was written
        for event in read_typed(self.dir):
            if isinstance(event, Best) and event.kind == "best" and event.score == value:
                found = event
        self.best = {"score": value, "worker": found.worker}
        self.best.update({"iteration": found.iteration, "wall_s": found.wall_s, "cpu_s": found.cpu_s})
        self.best_board = board
        self.elite.offer(piece, rot, value, -1, 0.0)  # the best of all: first in the elite
        return True


def rounded(info: dict) -> dict:
    """Floats rounded to milliseconds, for events."""
    return {k: (round(v, 3) if isinstance(v, float) else v) for k, v in info.items()}
