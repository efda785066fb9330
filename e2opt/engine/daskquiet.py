"""Preloaded (``distributed.worker.preload``) in the worker processes of a LocalCluster that e2opt starts: they
leave Ctrl-C and a hang-up to the run, as e2opt's own worker processes do (core/signals.py), and keep quiet
when the run's scheduler closes before them.

A Ctrl-C in the terminal reaches the whole process group, the LocalCluster's workers too: each printed a
KeyboardInterrupt traceback and died with the round it ran, and the run, whose stop file asks its rounds to
end after their current move, waited for answers that never came. Ignoring the signals there, the rounds
end at the stop file and answer, and the run ends as a local one does (``stopped by SIGINT``). SIGTERM keeps
its default: the cluster's own shutdown ends its workers with it.

The scheduler of such a cluster lives in the run's process and closes only when the run closes the cluster
(or the run dies, which its checkpoint covers). On a loaded machine a worker's heartbeat can still be on its
way then, and distributed logged its failure with a traceback on the run's terminal; that one record is
dropped (``SchedulerGone``), every other log record of the worker stays.
"""

from __future__ import annotations

import logging
import signal
import threading
from typing import Any

PRELOAD = __name__
HEARTBEAT_FAILED = "Failed to communicate with scheduler during heartbeat"


class SchedulerGone(logging.Filter):
    """Drops distributed's heartbeat-failure record when its cause is a lost connection to the scheduler (an
    OSError: distributed's CommClosedError is one)."""

    def filter(self, record: logging.LogRecord) -> bool:
        closed = record.exc_info is not None and isinstance(record.exc_info[1], OSError)
        return not (closed and record.getMessage().startswith(HEARTBEAT_FAILED))


def dask_setup(worker: Any = None) -> None:
    """distributed's preload hook, in the worker process: Ctrl-C and SIGHUP ignored from now on, and the
    heartbeat failure of a closing cluster dropped."""
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGINT, signal.SIGHUP):
            signal.signal(sig, signal.SIG_IGN)
    logging.getLogger("distributed.worker").addFilter(SchedulerGone())
