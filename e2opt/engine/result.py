"""What a run reached (result.json), and the one place that ends a run: best.board, the end event,
result.json and the pictures."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from ..core.bks import best_known
from ..core.board import Board, write_board
from ..core.fsutil import atomic_write_text
from ..core.puzzle import Puzzle
from ..search.schedule import add_totals
from .envfail import RunWriteFailed, Salvage, is_fault, where
from .eventkinds import End, make
from .events import EventLog
from .runfolder import BEST, RESULT, WRITE_FAILED

if TYPE_CHECKING:
    from .team import Team


@dataclass
class Result:
    """What a run reached; written as result.json."""

    instance: str
    seed: int
    best_score: int
    max_score: int
    best_known: int | None
    iterations: int
    moves_per_s: float
    wall_s: float
    cpu_s: float
    time_to_best_s: float
    stop_reason: str
    run_dir: str
    construction: dict = field(default_factory=dict)
    diversifications: int = 0
    intensifications: int = 0
    best_board: Board | None = field(default=None, repr=False)
    workers: list[dict] | None = None  # per-worker figures
    clues: str | None = None  # the official set's clue convention ('1/5' starter-only, '5/5' strict)
    viewer_url: str | None = None  # the best board as a link to the community viewer (formats/viewer.py)
    lost: int = 0  # rounds lost with their worker (killed, crashed, a Dask worker gone), all workers
    lost_cpu_s: float = 0.0  # the CPU those rounds had used (not in cpu_s: no state kept it)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data.pop("best_board")
        if self.workers is None:
            data.pop("workers")
        return data

    def label(self, puzzle: Puzzle) -> None:
        """Set the clue convention and the viewer link of the best board (before result.json is written)."""
        from ..core.formats.official import clue_convention
        from ..core.formats.viewer import viewer_url

        self.clues = clue_convention(puzzle)
        self.viewer_url = None if self.best_board is None else viewer_url(puzzle, self.best_board)

    def losses(self) -> str:
        """``, 1 round lost ...`` for the summary line; nothing when no worker was lost."""
        return f", {lost_text(self.lost, self.lost_cpu_s)}" if self.lost else ""

    def summary(self) -> str:
        """Two lines for people: the score and how it was reached, then the run folder."""
        known = ""
        if self.best_known is not None:
            known = f" (best known {self.best_known}, gap {self.best_known - self.best_score})"
        clues = f" (clues {self.clues})" if self.clues else ""
        return (
            f"{self.instance}{clues} seed {self.seed}: {self.best_score}/{self.max_score}{known}; "
            f"{self.iterations} moves ({self.moves_per_s:,.0f}/s), best after {self.time_to_best_s:.1f} s, "
            f"{self.wall_s:.1f} s wall, {self.cpu_s:.1f} s CPU{self.losses()}; stopped by {self.stop_reason}\n"
            f"run folder: {self.run_dir}" + (f"\nviewer: {self.viewer_url}" if self.viewer_url else "")
        )


def lost_text(rounds: int, cpu_s: float) -> str:
    """``2 rounds lost with their worker (14.2 CPU s)``, one phrase for the summary, the view and the report."""
    return f"{rounds} round{'s' if rounds != 1 else ''} lost with their worker ({cpu_s:,.1f} CPU s)"


def per_second(count: float, seconds: float) -> float:
    """A rate rounded for result.json; 0 when no time was measured."""
    return round(count / seconds, 1) if seconds > 0 else 0.0


def worker_figures(team: Team) -> list[dict[str, Any]]:
    """Each worker's figures for result.json: its best, moves, CPU, restarts, losses, why it stopped."""
    out = []
    for i, state in enumerate(team.states):
        if state is None:  # stopped before its first answer
            continue
        meta = state.meta
        out.append(
            {
                "worker": i,
                "role": team.role(i),
                "best_score": meta.best_score,
                "iterations": team.moves[i],
                "cpu_s": round(meta.cpu_s, 3),
                "moves_per_s": per_second(team.moves[i], meta.cpu_s),
                "time_to_best_s": round(meta.best_wall_s, 3),
                "restarts": meta.restarts,
                "lost": team.lost[i],
                "lost_cpu_s": round(team.lost_cpu[i], 3),
                "construction_score": meta.construction.get("score"),
                "stop_reason": team.finished[i],
                "moves": team.move_summaries[i],
            }
        )
    return out


def _now(name: str, write: Callable[[], Any]) -> None:
    """A write of a run's ordinary end: done now, an error goes up."""
    write()


def finish(team: Team, events: EventLog, salvage: Salvage | None = None, pictures: bool = True) -> Result:
    """best.board, the end event, result.json (all workers' CPU, the run's wall time, per-worker figures).
    After an environment failure (envfail.py) each write is tried once by ``salvage``; then, and for a run
    left at once (``pictures`` False), no picture is drawn."""
    cfg, puzzle = team.cfg, team.puzzle
    step = _now if salvage is None else salvage.attempt
    step(BEST, lambda: write_board(team.best_board, team.dir / BEST))
    reasons = [r for r in team.finished if r is not None]
    known = best_known(puzzle)
    cpu = team.cpu()
    result = Result(
        instance=puzzle.name,
        seed=cfg.seed,
        best_score=int(team.best["score"]),
        max_score=puzzle.max_score,
        best_known=None if known is None else known.best_known,
        iterations=sum(team.moves),
        moves_per_s=per_second(sum(team.moves), cpu),
        wall_s=round(team.clock.wall(), 3),
        cpu_s=round(cpu, 3),
        time_to_best_s=round(float(team.best["wall_s"] or 0.0), 3),
        stop_reason=team.stop_reason or (reasons[0] if reasons else "interrupted"),
        run_dir=str(team.dir),
        construction=team.construction(),
        diversifications=team.totals("diversifications"),
        intensifications=team.totals("intensifications"),
        best_board=team.best_board,
        workers=worker_figures(team),
        lost=sum(team.lost),
        lost_cpu_s=round(sum(team.lost_cpu), 3),
    )
    result.label(puzzle)
    end = {k: v for k, v in result.to_json().items() if k not in ("construction", "workers")}
    step(
        "end event",
        lambda: (events.write(make("end", **end, moves=add_totals(team.move_summaries))), events.close()),
    )
    step(RESULT, lambda: atomic_write_text(team.dir / RESULT, json.dumps(result.to_json(), indent=2) + "\n"))
    if cfg.output.plots and pictures and salvage is None:
        from .plots import refresh_plots

        refresh_plots(team.dir, puzzle, team.best_board)
    return result


@contextmanager
def faults_end_the_run(team: Team, events: EventLog) -> Iterator[None]:
    """Inside the block, an environment failure ends the run: what can be written is, then RunWriteFailed."""
    try:
        yield
    except OSError as exc:
        if not is_fault(exc):
            raise
        raise RunWriteFailed(_end(team, events, exc)) from None


def _end(team: Team, events: EventLog, exc: OSError) -> str:
    """Write what can still be written after ``exc``; the one line that says what happened and what is kept."""
    team.stop_reason = f"{WRITE_FAILED} ({where(exc)})"
    salvage = Salvage()
    if team.best_board is not None:
        if not team.unsearched():  # else a checkpoint is skipped on purpose (team.py)
            salvage.attempt("checkpoint", lambda: team.checkpoint(events))
        finish(team, events, salvage)
    else:
        salvage.attempt("end event", lambda: events.write(End(stop_reason=team.stop_reason)))
    kept = ", ".join(salvage.written) or "nothing"
    lost = f"; not written: {', '.join(salvage.lost)}" if salvage.lost else ""
    board = "best.board is whole" if (team.dir / BEST).exists() else "no best.board yet"
    return (
        f"{where(exc)}; the run stopped and wrote what it could ({kept}{lost}); {board}; "
        f"`e2opt resume {team.dir}` continues it once the folder can be written again"
    )
