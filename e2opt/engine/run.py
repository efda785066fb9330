"""Start a run: a new run folder, then the run engine (workers/coordinator.py) in it.

A run folder ``runs/<UTC stamp>_<name>_s<seed>/`` holds its marker (runfolder.py), config.yaml
(resolved), inputs/ (copies of the puzzle and a warm-start board), events.jsonl, best.board (rewritten at
every new best), checkpoint (every ``output.checkpoint_every_wall_s``), result.json at the end, score.png and
best.svg, and .lock, held by the one process that owns the folder (core/folderlock.py). resume.py continues a
run from its checkpoint.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..core.folderlock import FolderLock
from ..core.formats.read import read_puzzle
from ..core.fsutil import atomic_write_text
from .capacity import check_workers
from .config import RunConfig
from .coordinator import run_team, worker_count
from .loader import load_config
from .result import Result
from .runfolder import CONFIG, keep_inputs, make_run_dir, mark, marker_kind

__all__ = ["Result", "run_api", "run_config"]


def run_config(
    cfg: RunConfig,
    quiet: bool = True,
    run_dir: Path | None = None,
    executor: str = "local",
    scheduler: str | None = None,
    spent_s: float = 0.0,
    announced: int | None = None,
) -> Result:
    """Construct + search for one config in a new run folder (or the given one, e.g. a sweep's run folder);
    ``spent_s`` wall seconds already spent (the command's imports) count in the wall budget; ``announced``:
    the worker count the command line said already (``starting N worker(s)``).

    SIGINT, SIGTERM or SIGHUP stop the construction (its board so far becomes the start) and the search
    after its current move; the run then ends with a checkpoint, so that ``resume`` goes on from there.
    """
    puzzle = read_puzzle(cfg.instance)
    check_workers(worker_count(cfg, executor), executor, scheduler, "--workers (run.workers)")
    if run_dir is None:
        run_dir = make_run_dir(cfg.output.runs_dir, cfg.name, cfg.seed)
    else:
        run_dir = Path(run_dir)
        run_dir.mkdir(parents=True, exist_ok=True)
        if marker_kind(run_dir) != "run":
            mark(run_dir, "run")
    with FolderLock(run_dir, "run"):  # one owner per run folder, released by the OS if this process dies
        keep_inputs(run_dir, cfg.instance, cfg.construct.board)
        atomic_write_text(run_dir / CONFIG, cfg.to_yaml())
        return run_team(
            cfg, run_dir, puzzle, quiet, executor, scheduler, spent_s=spent_s, announced=announced
        )


def run_api(config: RunConfig | str | Path, quiet: bool = True, **overrides: Any) -> Result:
    """``e2opt.run``: a config file or a RunConfig; keyword overrides by dotted key, ``__`` for dots
    (``run(cfg, stop__max_iterations=1000, seed=3)``)."""
    values = {key.replace("__", "."): value for key, value in overrides.items()}
    if isinstance(config, RunConfig):
        if values:
            from ..config.schema import set_dotted, to_plain
            from .loader import config_from_dict

            data = to_plain(config)  # every section: an override may choose another construction
            for key, value in values.items():
                set_dotted(data, key, value)
            config = config_from_dict(data, "<solve arguments>")
    else:
        config = load_config(config, **values)
    return run_config(config, quiet=quiet)
