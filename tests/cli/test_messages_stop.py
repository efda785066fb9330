"""The defaults of the stopping criteria (search/stop.py) and of Interrupted (core/signals.py)."""

from __future__ import annotations

import time

import numpy as np

from e2opt.core.signals import Interrupted
from e2opt.search.stop import AnyOf, Clock, MaxCpuTime, Status


def test_clock_starts_at_zero_or_at_the_given_offsets():
    clock = Clock()
    assert 0 <= clock.wall() < 0.5 and 0 <= clock.cpu() < 0.5
    later = Clock(100.0, 50.0)
    assert 100 <= later.wall() < 100.5 and 50 <= later.cpu() < 50.5
    time.sleep(0.01)
    assert clock.wall() >= 0.01


def test_interrupted_and_any_of_start_untriggered_with_their_reasons():
    stop = Interrupted()
    assert stop.triggered is False and stop.reason == "interrupted" and not stop(Status())
    stop.trigger()
    assert stop.triggered is True and stop.reason == "interrupted" and stop(Status())
    stop.trigger("SIGTERM")
    assert stop.reason == "SIGTERM"
    assert AnyOf().reason == "" and not AnyOf()(Status())
    assert MaxCpuTime(2.0)(Status(cpu_s=2.0)) and not MaxCpuTime(2.0)(Status(cpu_s=np.nextafter(2.0, 0)))
