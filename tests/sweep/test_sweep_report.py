"""A sweep's summary numbers against hand-computed ones: statistics per setting, gaps to the best known
score, the mean score curve."""

from __future__ import annotations

import pytest

from e2opt.sweep.report import describe, mean_curve, summarise


def test_describe_and_summarise_against_hand_computed_numbers():
    assert describe([]) is None
    stats = describe([3, 1, 4, 1, 5])
    assert (stats.n, stats.min, stats.median, stats.mean, stats.max) == (5, 1, 3, 2.8, 5)

    def row(setting, score, status="done", instance="set1_04x04", ttb=1.0, rate=100.0):
        return {
            "setting": setting,
            "status": status,
            "best_score": score,
            "instance": instance,
            "time_to_best_s": ttb,
            "moves_per_s": rate,
        }

    rows = [
        row("k=2", 20, ttb=1.0, rate=10.0),
        row("k=2", 22, ttb=2.0, rate=20.0),
        row("k=2", 17, ttb=6.0, rate=60.0),
        row("k=2", 0, status="failed"),
        row("k=8", 24, instance="set1_04x04"),
        row("k=8", 23, instance="set1_04x04"),
        row("k=8", 21, status="interrupted"),
        row("mixed", 100, instance="eternity2"),
        row("unknown", 5, instance="no_such_instance"),
        row("none", 5, status="failed"),
    ]
    got = {s.setting: s for s in summarise(rows)}
    assert list(got) == ["k=2", "k=8", "mixed", "unknown", "none"]
    k2 = got["k=2"]
    assert (k2.stats.n, k2.stats.min, k2.stats.median, k2.stats.mean, k2.stats.max, k2.runs) == (
        3,
        17,
        20,
        pytest.approx(59 / 3),
        22,
        4,
    )
    assert (k2.best_known, k2.gap, k2.mean_time_to_best_s, k2.mean_moves_per_s) == (24, 2, 3.0, 30.0)
    k8 = got["k=8"]
    assert (k8.stats.n, k8.stats.median, k8.stats.mean, k8.gap) == (2, 23.5, 23.5, 0)
    assert (got["mixed"].best_known, got["mixed"].gap) == (470, 370)
    assert got["unknown"].best_known is None and got["unknown"].gap is None
    assert got["none"].stats is None and got["none"].gap is None


def test_mean_curve_is_the_mean_of_step_functions_from_the_last_first_score():
    a = [(0.0, 10), (2.0, 14)]
    b = [(1.0, 12), (3.0, 13)]
    times, values = mean_curve([a, b], points=5)
    assert times.tolist() == [1.0, 1.5, 2.0, 2.5, 3.0]
    assert values.tolist() == [11.0, 11.0, 13.0, 13.0, 13.5]
    assert mean_curve([[]], points=3)[0].size == 0
