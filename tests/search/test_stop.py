"""Stopping criteria: each alone, combined with AnyOf, built from a StopConfig, and the clock offsets; the
signals that trigger them."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import pytest

from e2opt.config.sections import StopConfig
from e2opt.core import signals
from e2opt.core.signals import REPEAT_S, Interrupted, StopSignals
from e2opt.search.stop import (
    AnyOf,
    Clock,
    MaxCpuTime,
    MaxIntensifications,
    MaxIterations,
    MaxWallTime,
    Status,
    TargetScore,
    from_config,
    iteration_limit,
    process_age,
)


def test_each_criterion_holds_exactly_at_its_bound():
    assert not MaxIterations(10)(Status(iteration=9)) and MaxIterations(10)(Status(iteration=10))
    assert not MaxWallTime(2.0)(Status(wall_s=1.99)) and MaxWallTime(2.0)(Status(wall_s=2.0))
    assert not MaxCpuTime(2.0)(Status(cpu_s=1.5, wall_s=9)) and MaxCpuTime(2.0)(Status(cpu_s=2.5))
    assert not TargetScore(470)(Status(score=470, best_score=469)) and TargetScore(470)(
        Status(best_score=470)
    )
    assert not MaxIntensifications(3)(Status(intensifications=2)) and MaxIntensifications(3)(
        Status(intensifications=3)
    )


def test_any_of_names_the_first_criterion_that_holds():
    stop = AnyOf(TargetScore(480), MaxIterations(100), MaxWallTime(5))
    assert not stop(Status(iteration=99, best_score=400, wall_s=4))
    assert stop(Status(iteration=100, best_score=400, wall_s=6))
    assert stop.reason == "max_iterations (100)"
    assert stop(Status(iteration=1, best_score=480))
    assert stop.reason == "target_score (480)"


def test_interrupted_stops_with_the_given_reason():
    flag = Interrupted()
    stop = AnyOf(MaxIterations(10**9), flag)
    assert not stop(Status())
    flag.trigger("SIGTERM")
    assert stop(Status()) and stop.reason == "SIGTERM"


def test_a_second_sigint_stops_at_once_only_when_it_is_not_the_first_delivered_twice(monkeypatch):
    """``timeout -s INT`` signals the command and then its group: two SIGINTs microseconds apart are one
    request (stop after the move); a second one REPEAT_S later is a second request (stop at once). The
    handler is called as the interpreter calls it, on a clock set by the test (a real signal reaches the
    main thread at a time no test controls: tests/engine/test_run_signals.py sends real ones to a real
    run)."""
    now = [100.0]
    monkeypatch.setattr(signals.time, "monotonic", lambda: now[0])
    flag = Interrupted()
    handler = StopSignals(flag)._handle
    handler(signal.SIGINT, None)
    assert flag.triggered and flag.reason == "SIGINT"
    now[0] += 0.001
    handler(signal.SIGINT, None)  # the same request again: no KeyboardInterrupt
    now[0] += REPEAT_S
    with pytest.raises(KeyboardInterrupt):
        handler(signal.SIGINT, None)
    term = Interrupted()  # a SIGTERM first: a SIGINT right after it is the same request too
    handler = StopSignals(term)._handle
    handler(signal.SIGTERM, None)
    handler(signal.SIGINT, None)
    assert term.reason == "SIGTERM"


def test_from_config_defaults_the_target_to_the_maximum_and_adds_only_what_is_set():
    stop = from_config(StopConfig(max_cpu_s=60, max_wall_s=None), 480)
    assert [type(c) for c in stop.criteria] == [TargetScore, MaxCpuTime]
    assert stop(Status(best_score=480)) and not stop(Status(best_score=479, cpu_s=59.9))
    full = from_config(StopConfig(1, 2, 3, 400, 5), 480)
    assert [c.reason for c in full.criteria] == [
        "target_score (400)",
        "max_wall_s (1 s)",
        "max_cpu_s (2 s)",
        "max_iterations (3)",
        "max_intensifications (5)",
    ]


def test_iteration_limit_is_the_smallest_max_iterations_anywhere():
    assert iteration_limit(MaxIterations(7)) == 7
    assert iteration_limit(AnyOf(MaxWallTime(1), AnyOf(MaxIterations(50), MaxIterations(30)))) == 30
    assert iteration_limit(AnyOf(MaxWallTime(1), TargetScore(3))) is None
    assert iteration_limit(TargetScore(3)) is None


def test_clock_counts_time_spent_before_a_resume():
    clock = Clock(wall_offset=100.0, cpu_offset=50.0)
    assert 100.0 <= clock.wall() < 101.0
    assert 50.0 <= clock.cpu() < 51.0
    start = clock.cpu()
    end = time.process_time() + 0.05
    while time.process_time() < end:
        pass
    assert clock.cpu() - start >= 0.05


def test_process_age_counts_the_seconds_since_the_process_started():
    """The command's start-up counts in the run's wall budget: the age of a process that slept 0.6 s."""
    code = "import time; time.sleep(0.6); from e2opt.search.stop import process_age; print(process_age())"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert 0.6 <= float(out) < 30.0
    assert 0.0 < process_age() < time.time()  # this test's own process: started before, and not in 1970
