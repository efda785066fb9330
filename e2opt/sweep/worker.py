"""The worker side of a sweep: plain data in, plain data out, so it pickles to processes and Dask clusters."""

from __future__ import annotations

import copy
import traceback
from pathlib import Path
from typing import Any

from ..core.fsutil import atomic_write_text
from ..core.signals import StopWatcher
from ..engine.executors import TASK
from ..engine.loader import config_from_dict
from ..engine.runfolder import CONFIG, INTERRUPTS


def execute(task: dict[str, Any]) -> dict[str, Any]:
    """Run one sweep run in its folder, or resume it when the folder already holds its config; never raises.

    Returns {"id", "status": done | interrupted | failed | pending (not started: the sweep is stopping),
    "result": result.json data, "error": one line}. A failure's traceback goes to error.txt in the run folder.
    """
    from ..engine.resume import resume_run
    from ..engine.run import run_config  # here, not at the top: sweep-report needs no search code

    run_dir, stop_file = Path(task["run_dir"]), Path(task["stop_file"])
    if stop_file.exists():
        return {"id": task["id"], "status": "pending"}
    try:
        with StopWatcher(stop_file):
            if (run_dir / CONFIG).is_file():
                result = resume_run(run_dir, quiet=True, executor=TASK)
            else:
                cfg = config_from_dict(copy.deepcopy(task["config"]), f"sweep run {task['id']}", dumped=True)
                result = run_config(cfg, quiet=True, run_dir=run_dir, executor=TASK)
    except KeyboardInterrupt:
        return {
            "id": task["id"],
            "status": "interrupted",
            "error": "stopped outside its search (construction)",
        }
    except Exception as exc:
        run_dir.mkdir(parents=True, exist_ok=True)
        atomic_write_text(run_dir / "error.txt", traceback.format_exc())
        return {"id": task["id"], "status": "failed", "error": f"{type(exc).__name__}: {exc}".splitlines()[0]}
    data = result.to_json()
    status = "interrupted" if data["stop_reason"] in INTERRUPTS else "done"
    return {"id": task["id"], "status": status, "result": data}
