"""What the fork server of a run's worker processes (core/signals.worker_context) does when it starts
(``SERVER_MODULES``; forkserver_init.py): it dies with the run's process, and it compiles or loads the run's numba kernels once, there, so that every worker forked from it starts ready instead of loading
them itself (about a CPU second per worker and per construction method, paid 48 times by 48 workers).

What to warm reaches the server as JSON in the environment (``PREWARM_ENV``), set while the server starts:
``{"config": PATH, "sets": [...]}`` (the command line's config, read in the server, which ``e2opt run`` starts
while its own imports go on) or ``{"data": {...}}`` (a loaded config). Without it, or when anything fails,
nothing is warmed here and each worker warms what it needs, as before.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
from typing import Any

PREWARM_ENV = "E2OPT_PREWARM_CONFIG"
SERVER_MODULES = ["e2opt.engine.round", "e2opt.engine.forkserver_init"]


def start_server(what: dict[str, Any]) -> None:
    """Start the worker processes' fork server now, to warm ``what`` (its imports overlap the caller's)."""
    from ..core.signals import worker_context

    worker_context(SERVER_MODULES, {PREWARM_ENV: json.dumps(what)})


def prewarm() -> None:
    """Warm the kernels of the config in the environment (none without one)."""
    text = os.environ.get(PREWARM_ENV)
    if not text:
        return
    from ..config.schema import build
    from .config import RunConfig
    from .loader import load_config
    from .warm import warm_up

    with contextlib.suppress(Exception):  # never the server's end: the workers then warm up themselves
        what = json.loads(text)
        if "data" in what:
            warm_up(build(RunConfig, what["data"], "<prewarm>"))
        else:
            with contextlib.redirect_stderr(io.StringIO()):  # the run's own process says what it translated
                cfg = load_config(what["config"], what.get("sets", []))
            warm_up(cfg)
