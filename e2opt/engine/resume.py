"""Resume a run in its folder: from the newest good checkpoint to the original stopping criteria, counting
the time already spent. It works only in a folder e2opt made (runfolder.require), and a run that already
meets its criteria is left untouched (AlreadyFinished). Checkpoints of the one-worker engine e2opt had
before every run became a team resume as a team of one.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from ..core.errors import E2optError
from ..core.folderlock import FolderLock
from ..core.formats.read import read_puzzle
from ..core.fsutil import STATE_FILE_MB, atomic_write_text, read_user_text
from ..core.puzzle import Puzzle
from ..search import stop as stopping
from ..search.state import SearchState
from .capacity import check_workers
from .checkpoint import CHECKPOINT_FILES, load_checkpoint
from .config import RunConfig
from .coordinator import run_team, worker_count
from .eventkinds import Resume, RunWarning, WorkersAdded, make
from .events import EventLog, read_events
from .progress import format_clock, warn
from .resize import grow
from .result import Result
from .round import cpu_share, worker_criteria
from .runfolder import BEST, CONFIG, INTERRUPTS, RESULT, has_ended, load_run_config, require
from .team import Team


class AlreadyFinished(E2optError):
    """resume on a run that already meets its stopping criteria: nothing to do, nothing changed."""


def resume_run(
    run_dir: str | Path,
    quiet: bool = True,
    overrides: tuple[str, ...] = (),
    executor: str = "local",
    scheduler: str | None = None,
    workers: int | None = None,
) -> Result:
    """Continue a run from its newest good checkpoint to its stopping criteria.

    ``workers`` (``resume --workers N``) grows the team (resize.py); None keeps the run's workers.

    ``--set stop.*`` overrides extend the criteria and are saved in config.yaml, so a later resume keeps them.
    A run that already meets its criteria raises AlreadyFinished and nothing in its folder changes.
    """
    if workers is not None and workers < 1:
        raise E2optError(f"--workers {workers}: expected a whole number of at least 1")
    if workers is not None:
        check_workers(workers, executor, scheduler)
    run_dir = require(run_dir, "run")
    with FolderLock(run_dir, "run"):  # before anything is read: the owner may be writing
        return _resume(run_dir, quiet, overrides, executor, scheduler, workers)


def _resume(
    run_dir: Path,
    quiet: bool,
    overrides: tuple[str, ...],
    executor: str,
    scheduler: str | None,
    workers: int | None,
) -> Result:
    """resume_run in a folder this process owns."""
    if not (run_dir / CONFIG).is_file():
        raise E2optError(
            f"{run_dir}: run folder without {CONFIG}: it was stopped before its config was written"
        )
    cfg, stored = load_run_config(run_dir, overrides)
    if workers is not None:  # a run stopped before its first checkpoint starts again with these workers
        cfg = replace(cfg, run=replace(cfg.run, workers=workers))
    puzzle = read_puzzle(cfg.instance)
    if not any((run_dir / name).exists() for name in CHECKPOINT_FILES):
        _store_config(run_dir, stored, overrides)
        return _restart(cfg, run_dir, puzzle, quiet, executor, scheduler)
    state, meta, warnings = load_checkpoint(run_dir)
    try:
        if "team" in meta:
            team = Team.restore(cfg, run_dir, puzzle, state, meta)
        else:
            team = Team.from_single(cfg, run_dir, puzzle, state, meta)
    except (ValueError, KeyError) as exc:
        raise E2optError(f"{run_dir}: the checkpoint does not fit {cfg.instance} ({exc})") from None
    if has_ended(run_dir, meta["best_score"]) and _stop_reason(run_dir) not in INTERRUPTS:
        past = _past(cfg, team, float(meta["wall_s"]))
        if not overrides or past is not None:
            raise AlreadyFinished(_finished_message(run_dir, past, team, overrides))
    before = team.n
    grown = workers is not None and grow(team, workers)
    _store_config(run_dir, stored, overrides)
    events = EventLog(run_dir)
    if grown:
        events.write(WorkersAdded(before=before, workers=team.n))
    for warning in warnings:
        events.write(RunWarning(message=warning))
        warn(warning)  # on stderr, --quiet or not: a checkpoint was skipped
    adopted = team.adopt_saved_best()
    events.write(Resume(iteration=sum(team.moves), wall_s=round(meta["wall_s"], 3), adopted_best=adopted))
    events.close()
    best = f"best {team.best['score']}/{puzzle.max_score}" if team.best else "no best board yet"
    _say(
        quiet,
        f"resuming {run_dir.resolve().name} from its checkpoint at {format_clock(meta['wall_s'])} of the run "
        f"({sum(team.moves):,} moves, {best}"
        + (", a newer best.board adopted" if adopted else "")
        + f"), {team.n} worker(s)",
    )
    return run_team(cfg, run_dir, puzzle, quiet, executor, scheduler, team)


def _store_config(run_dir: Path, stored: RunConfig, overrides: tuple[str, ...]) -> None:
    """config.yaml written again when ``--set`` changed it, or when it was written by an older e2opt (read
    translated): the folder then holds today's names, and the next read needs no translation."""
    text = stored.to_yaml()
    if overrides or read_user_text(run_dir / CONFIG, STATE_FILE_MB) != text:
        atomic_write_text(run_dir / CONFIG, text)


def _say(quiet: bool, line: str) -> None:
    """What resume goes on from, on stdout before the run's own lines (``--quiet``: nothing)."""
    if not quiet:
        print(line, flush=True)


def spent_wall_s(run_dir: Path) -> float:
    """The run's wall seconds so far as its events tell them: the latest ``wall_s`` any event carries (the
    coordinator writes statistics every ``output.stats_every_wall_s``, constructions or not)."""
    latest = 0.0
    for event in read_events(run_dir):
        wall = event.get("wall_s")
        if isinstance(wall, int | float) and not isinstance(wall, bool):
            latest = max(latest, float(wall))
    return latest


def _past(cfg: RunConfig, team: Team, wall_s: float) -> str | None:
    """The criterion that every worker already met at the checkpoint, None when one still has work."""
    reason = None
    for i, state in enumerate(team.states):
        if team.role_of(i).serves:
            continue  # a producer ends when the workers it serves have (coordinator.absorb)
        if state is None:
            return None
        meta, search = state.meta, SearchState.from_dict(state.search)
        criteria = worker_criteria(cfg, meta, cpu_share(cfg, team.n), team.puzzle.max_score)
        status = stopping.Status(
            search.iteration, search.score, search.best_score, search.intensifications, wall_s, meta.cpu_s
        )
        if not criteria(status):
            return None
        reason = reason or criteria.reason
    return reason


def _stop_reason(run_dir: Path) -> str | None:
    """The stop reason in result.json, None when it cannot be read."""
    try:
        return json.loads(read_user_text(run_dir / RESULT, STATE_FILE_MB)).get("stop_reason")
    except (OSError, ValueError, AttributeError):
        return None


def _finished_message(run_dir: Path, reason: str | None, team: Team, overrides: tuple[str, ...]) -> str:
    """Why resume has nothing to do: the criterion that holds, and how to extend the run."""
    holds = reason or _stop_reason(run_dir) or "its stop criterion"
    where = f"{sum(team.moves)} moves, best {team.best['score'] if team.best else '?'}"
    if overrides:
        given = " ".join(f"--set {text}" for text in overrides)
        return f"{given}: the run is already past it ({holds} holds at {where}); nothing was changed"
    return (
        f"{run_dir}: finished already ({holds} holds at {where}); nothing was changed. "
        "To go on, extend a budget: e2opt resume RUN_DIR --set stop.KEY=VALUE"
    )


def _restart(
    cfg: RunConfig,
    run_dir: Path,
    puzzle: Puzzle,
    quiet: bool,
    executor: str = "local",
    scheduler: str | None = None,
) -> Result:
    """A run stopped before its first checkpoint (during construction) starts again in its folder, from its
    config: the stopped attempt's best.board is kept when it verifies (the new run's best starts there) and
    the wall time it spent, from its events, counts in the budget; its result.json goes.
    """
    (run_dir / RESULT).unlink(missing_ok=True)
    spent = spent_wall_s(run_dir)
    team = Team(cfg, run_dir, puzzle, worker_count(cfg, executor), stopping.Clock(spent))
    kept = team.adopt_saved_best()
    if not kept:
        (run_dir / BEST).unlink(missing_ok=True)
    log = EventLog(run_dir)
    log.write(make(
        "restart", reason="no checkpoint yet: stopped during construction", wall_s=round(spent, 3),
        kept_best=team.best["score"] if kept else None,
    ))  # fmt: skip
    log.close()
    board = f"best.board kept ({team.best['score']}/{puzzle.max_score})" if kept else "no best board to keep"
    _say(
        quiet,
        f"resuming {run_dir.resolve().name}: no checkpoint (stopped during construction), so it starts again "
        f"from its config; {board}; the {spent:.1f} s already spent count in its budget",
    )
    return run_team(cfg, run_dir, puzzle, quiet, executor, scheduler, team)
