"""Parameter sweeps: a base config x a grid of overrides x named variants x seeds, each run an ordinary run folder.

spec.py (the sweep file and its expansion, the journal), folder.py (the sweep folder), engine/executors/ (local
processes or Dask), worker.py (one run, plain data in and out), loop.py (submit, record, stop), report.py
(summary table and plots). The sweep file format is described in spec.py and docs/sweeps.md.
"""

from ..engine.executors import check_executor, sweep_executor
from .folder import check_configs, create_sweep
from .loop import SweepOutcome, default_workers, run_sweep
from .spec import Sweep, SweepRun, expand_sweep, load_sweep, parse_seeds
from .worker import execute

__all__ = [
    "Sweep",
    "SweepOutcome",
    "SweepRun",
    "check_configs",
    "check_executor",
    "create_sweep",
    "default_workers",
    "execute",
    "expand_sweep",
    "load_sweep",
    "parse_seeds",
    "run_sweep",
    "sweep_executor",
]
