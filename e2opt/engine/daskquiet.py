"""Preloaded (``distributed.worker.preload``) in the worker processes of a LocalCluster that e2opt starts: they
leave Ctrl-C and a hang-up to the run, as e2opt's own worker processes do (core/signals.py).

A Ctrl-C in the terminal reaches the whole process group, the LocalCluster's workers too: each printed a
KeyboardInterrupt traceback and died with the round it ran, and the run, whose stop file asks its rounds to
end after their current move, waited for answers that never came. Ignoring the signals there, the rounds
end at the stop file and answer, and the run ends as a local one does (``stopped by SIGINT``). SIGTERM keeps
its default: the cluster's own shutdown ends its workers with it.
"""

from __future__ import annotations

import signal
import threading
from typing import Any

PRELOAD = __name__


def dask_setup(worker: Any = None) -> None:
    """distributed's preload hook, in the worker process: Ctrl-C and SIGHUP ignored from now on."""
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGINT, signal.SIGHUP):
            signal.signal(sig, signal.SIG_IGN)
