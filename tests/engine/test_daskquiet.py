"""The LocalCluster workers' preload drops only the heartbeat failure of a closing cluster (engine/daskquiet.py)."""

from __future__ import annotations

import logging
import threading

import pytest

from e2opt.engine.daskquiet import HEARTBEAT_FAILED, SchedulerGone, dask_setup


def record(message: str, exc: BaseException | None) -> logging.LogRecord:
    info = None if exc is None else (type(exc), exc, None)
    return logging.LogRecord("distributed.worker", logging.ERROR, __file__, 1, message, None, info)


def test_the_heartbeat_failure_of_a_closed_scheduler_connection_is_dropped_and_nothing_else():
    comm = pytest.importorskip("distributed.comm.core")
    keep = SchedulerGone().filter
    assert not keep(
        record(HEARTBEAT_FAILED + ".", comm.CommClosedError("in <TCP (closed)>: Stream is closed"))
    )
    assert not keep(record(HEARTBEAT_FAILED + ".", ConnectionResetError("reset by peer")))
    assert keep(record(HEARTBEAT_FAILED + ".", None))
    assert keep(record("Unexpected exception during heartbeat. Closing worker.", ValueError("bad")))
    assert keep(record("Compute Failed", comm.CommClosedError("closed")))


def test_the_preload_puts_the_filter_on_distributeds_worker_logger(caplog):
    """Run off the main thread, as a hook that may not touch the signals of this test process."""
    logger = logging.getLogger("distributed.worker")
    before = list(logger.filters)
    try:
        thread = threading.Thread(target=dask_setup)
        thread.start()
        thread.join()
        with caplog.at_level(logging.ERROR, logger="distributed.worker"):
            try:
                raise ConnectionResetError("reset by peer")
            except OSError:
                logger.exception(HEARTBEAT_FAILED + ".")
            logger.error("a worker error that stays")
        assert [r.getMessage() for r in caplog.records] == ["a worker error that stays"]
    finally:
        logger.filters[:] = before
