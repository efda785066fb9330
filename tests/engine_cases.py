"""The runs that pin the engine's behaviour across restructurings: one small config per construction method,
run with 1 and 2 workers to an iteration-bounded stop, reduced to what must not change (the best board, the
sequence of new bests). tests/data/engine_before/make.py recorded them before the one-engine change."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "engine_before"
PUZZLE = ROOT / "instances" / "brendan_set2" / "set2_06x06.txt"
START_BOARD = DATA / "start_6x6.board"  # a random board of PUZZLE, for the warm start

CONSTRUCT: dict[str, dict[str, Any]] = {
    "random": {"method": "random"},
    "board": {"method": "board", "board": str(START_BOARD)},
    "cpsat": {"method": "cpsat", "cpsat": {"num_workers": 1, "relaxed": 6, "time_limit_wall_s": 30}},
    "beam": {"method": "beam", "beam": {"width": 64, "fanout": 4, "time_limit_cpu_s": None}},  # one beam
    # the node budget ends the search, never the clock: 5 s was reached first on a busy machine (56 vs 60)
    "backtrack": {"method": "backtrack", "backtrack": {"time_limit_s": 600, "node_budget": 20000}},
    "regions": {"method": "regions", "regions": {"height": 2, "num_workers": 1}},
}
CASES = tuple(CONSTRUCT)


def case_config(name: str, workers: int, folder: Path) -> Path:
    """The config file of one case, written into ``folder``."""
    data = {
        "instance": str(PUZZLE),
        "name": f"{name}-{workers}",
        "seed": 5,
        "construct": CONSTRUCT[name],
        "search": {
            "plateau": 60,
            "intensify_after": 2,
            "moves": {
                "assignment": {"weight": 1.0, "cost_cpu_ms": 0.2, "holes": 6},
                "tsr": {"weight": 0.3, "cost_cpu_ms": 0.05},
            },
            "schedule": {"kind": "fixed"},
        },
        "stop": {"max_iterations": 400, "max_wall_s": None},
        "run": {
            "workers": workers,
            "sync_every_moves": 100,
            "restart_from": "fresh",
            "roles": {"method": None},
        },
        "output": {"runs_dir": str(folder / "runs"), "plots": False},
    }
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "run.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


def fingerprint(config: Path) -> dict[str, Any]:
    """Run the config and keep what must not change: score, moves, best board, the new bests in order."""
    import e2opt
    from e2opt.engine.events import read_events

    result = e2opt.run(config)
    run_dir = Path(result.run_dir)
    bests = [[e["score"], e.get("iteration")] for e in read_events(run_dir) if e["event"] == "best"]
    return {
        "best_score": result.best_score,
        "iterations": result.iterations,
        "board": (run_dir / "best.board").read_text(),
        "bests": bests,
    }
