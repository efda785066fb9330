"""Resume a run in its folder: from the newest good checkpoint to the original stopping criteria, counting
the time already spent. It works only in a folder e2opt made (runfolder.require), and a run that already
meets its criteria is left untouched (AlreadyFinished).
"""

from __future__ import annotations

import json
from pathlib import Path

from . import stop as stopping
from .board import read_board, rule_violations, score
from .checkpoint import CHECKPOINT_FILES, load_checkpoint
from .config import RunConfig
from .errors import BoardError, E2optError
from .events import EventLog, read_events
from .fsutil import atomic_write_text
from .puzzle import Puzzle, read_puzzle
from .run import Result, Run, start
from .runfolder import BEST, CONFIG, INTERRUPTS, RESULT, has_ended, load_run_config, require
from .search.state import SearchState
from .search.tabu import SearchResult, TabuSearch, warm_up
from .signals import StopSignals
from .workers.coordinator import resume_team


class AlreadyFinished(E2optError):
    """resume on a run that already meets its stopping criteria: nothing to do, nothing changed."""


def resume_run(
    run_dir: str | Path,
    quiet: bool = True,
    overrides: tuple[str, ...] = (),
    executor: str = "local",
    scheduler: str | None = None,
) -> Result:
    """Continue a run from its newest good checkpoint to its stopping criteria.

    ``--set stop.*`` overrides extend the criteria and are saved in config.yaml, so a later resume keeps them.
    A run that already meets its criteria raises AlreadyFinished and nothing in its folder changes.
    """
    run_dir = require(run_dir, "run")
    if not (run_dir / CONFIG).is_file():
        raise E2optError(
            f"{run_dir}: run folder without {CONFIG}: it was stopped before its config was written"
        )
    cfg, stored = load_run_config(run_dir, overrides)
    puzzle = read_puzzle(cfg.instance)
    if not any((run_dir / name).exists() for name in CHECKPOINT_FILES):
        if overrides:
            atomic_write_text(run_dir / CONFIG, stored.to_yaml())
        return _restart(cfg, run_dir, puzzle, quiet, executor, scheduler)
    state, meta, warnings = load_checkpoint(run_dir)
    if "team" in meta:
        if (
            not overrides
            and has_ended(run_dir, meta["best_score"])
            and _stop_reason(run_dir) not in INTERRUPTS
        ):
            raise AlreadyFinished(
                f"{run_dir}: finished already ({_stop_reason(run_dir)}); nothing was changed. "
                "To go on, extend a budget: e2opt resume RUN_DIR --set stop.KEY=VALUE"
            )
        if overrides:
            atomic_write_text(run_dir / CONFIG, stored.to_yaml())
        return resume_team(cfg, run_dir, puzzle, (state, meta, warnings), quiet, executor, scheduler)
    try:
        search = TabuSearch.from_state(puzzle, cfg.search, SearchState.from_dict(state))
    except ValueError as exc:
        raise E2optError(f"{run_dir}: the checkpoint does not fit {cfg.instance} ({exc})") from None
    criteria = stopping.from_config(cfg.stop, puzzle.max_score)
    met = criteria(_status(search, meta))
    if met and has_ended(run_dir, search.state.best_score):
        raise AlreadyFinished(_finished_message(run_dir, criteria.reason, search, overrides))
    if overrides:
        atomic_write_text(run_dir / CONFIG, stored.to_yaml())
    warm_up()
    clock = stopping.Clock(meta["wall_s"], meta["cpu_s"])
    run = Run(cfg, run_dir, puzzle, clock, quiet)
    run.construction = meta.get("construction", {})
    for warning in warnings:
        run.events.write("warning", message=warning)
        run.progress.message(f"warning: {warning}")
    adopted = _adopt_saved_best(puzzle, search, run_dir)
    run.events.write(
        "resume", iteration=search.state.iteration, wall_s=round(meta["wall_s"], 3), adopted_best=adopted
    )
    if met:  # killed after its last checkpoint, before result.json: only the end is missing
        run.progress.close()
        return run.finish(_ended(search, meta, criteria.reason))
    run.progress.message(f"resumed at move {search.state.iteration}, best {search.state.best_score}")
    interrupted = stopping.Interrupted()
    with StopSignals(interrupted):
        return run.search(search, interrupted)


def _status(search: TabuSearch, meta: dict) -> stopping.Status:
    """What the stopping criteria see at a checkpoint."""
    st = search.state
    return stopping.Status(
        st.iteration,
        st.score,
        st.best_score,
        st.intensifications,
        float(meta["wall_s"]),
        float(meta["cpu_s"]),
    )


def _stop_reason(run_dir: Path) -> str | None:
    """The stop reason in result.json, None when it cannot be read."""
    try:
        return json.loads((run_dir / RESULT).read_text(encoding="utf-8")).get("stop_reason")
    except (OSError, ValueError, AttributeError):
        return None


def _finished_message(run_dir: Path, reason: str, search: TabuSearch, overrides: tuple[str, ...]) -> str:
    """Why resume has nothing to do: the criterion that holds, and how to extend the run."""
    where = f"{search.state.iteration} moves, best {search.state.best_score}"
    if overrides:
        given = " ".join(f"--set {text}" for text in overrides)
        return f"{given}: the run is already past it ({reason} holds at {where}); nothing was changed"
    return (
        f"{run_dir}: finished already ({reason} holds at {where}); nothing was changed. "
        "To go on, extend a budget: e2opt resume RUN_DIR --set stop.KEY=VALUE"
    )


def _ended(search: TabuSearch, meta: dict, reason: str) -> SearchResult:
    """The outcome of a run whose criteria held at its last checkpoint; moves/s is the run's average."""
    st = search.state
    rate = st.iteration / meta["cpu_s"] if meta["cpu_s"] > 0 else 0.0
    return SearchResult(
        search.best_board(), st.best_score, st.iteration, st.time_to_best_wall, reason, rate,
        st.diversifications, st.intensifications,
    )  # fmt: skip


def _restart(
    cfg: RunConfig,
    run_dir: Path,
    puzzle: Puzzle,
    quiet: bool,
    executor: str = "local",
    scheduler: str | None = None,
) -> Result:
    """A run stopped before its first checkpoint (during construction) starts again in its folder.

    The stopped attempt's best.board and result.json go first, so nothing of it can be taken for the new one's.
    """
    for name in (BEST, RESULT):
        (run_dir / name).unlink(missing_ok=True)
    log = EventLog(run_dir)
    log.write("restart", reason="no checkpoint yet: stopped during construction")
    log.close()
    return start(cfg, run_dir, puzzle, quiet, executor, scheduler)


def _adopt_saved_best(puzzle: Puzzle, search: TabuSearch, run_dir: Path) -> bool:
    """best.board may be newer than the checkpoint (kill -9): keep it when it is valid and better.

    Its iteration and time come from the matching "best" event of events.jsonl, when it was written.
    """
    try:
        board = read_board(run_dir / BEST)
    except BoardError:
        return False
    if rule_violations(puzzle, board):
        return False
    value = score(puzzle, board)
    if value <= search.state.best_score:
        return False
    found = {}
    for event in read_events(run_dir):
        if event.get("event") == "best" and event.get("score") == value:
            found = event
    search.adopt_best(board, value, found.get("iteration"), found.get("wall_s"), found.get("cpu_s"))
    return True
