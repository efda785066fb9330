"""Lane shares by completed boards (``lane_shares: scored``): each lane's share of a call's placements and
completions is the chance that its recipe makes the best boards, judged by the boards its partials completed to.

Why: the pilot ranks recipes by how deep they get soon, but the producer is judged by its completed boards,
and depth is a poor proxy for them (on the strict clues the recipe whose boards scored best ranked low by
depth: docs/dfs_results.md). Lanes of the pilot's ranked recipes (``lane_recipes: ranked``) are arms of a
bandit; probability matching (Thompson's rule in expectation) gives each arm the posterior probability that
its mean board is the highest. Each lane's mean is a normal posterior: its boards plus PRIOR_BOARDS at the
mean of all boards, with the spread of boards around their lane's mean pooled over the lanes (a puzzle's own
scale: nothing in joins is tuned); every lane keeps FLOOR of an even share, so that none stops being
measured. The probabilities are integrated on a grid, not sampled: the shares are a pure function of the
scores, so a resumed run shares as the uninterrupted one did.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from scipy.special import log_ndtr

PRIOR_BOARDS = 1  # a lane's mean starts as this many boards at the mean of all lanes' boards
FLOOR = 0.25  # of an even share, kept by every lane
MIN_SPREAD = 0.5  # joins: the spread of boards never counts as less (a few equal scores say little)
STEPS = 16  # grid points per standard deviation of the narrowest lane
MAX_GRID = 200_001


def best_chances(means: Sequence[float], sds: Sequence[float]) -> list[float]:
    """P(lane i's value is the highest) for independent normals N(means[i], sds[i]^2), sds > 0: the density
    of each times the others' distribution functions, integrated by trapezoids on one grid fine enough for
    the narrowest."""
    mu, sd = np.asarray(means, dtype=float), np.asarray(sds, dtype=float)
    lo, hi = (mu - 9 * sd).min(), (mu + 9 * sd).max()
    x = np.linspace(lo, hi, int(min(MAX_GRID, max(1_001, (hi - lo) / sd.min() * STEPS + 1))))
    z = (x[None, :] - mu[:, None]) / sd[:, None]
    pdf = np.exp(-0.5 * z * z) / (sd[:, None] * math.sqrt(2 * math.pi))
    log_cdf = log_ndtr(z)
    f = pdf * np.exp(log_cdf.sum(axis=0)[None, :] - log_cdf)  # times the product of the others' cdfs
    p = ((f[:, 1:] + f[:, :-1]) * 0.5 * np.diff(x)[None, :]).sum(axis=1)
    if not np.isfinite(p).all() or p.sum() <= 0:
        return [1.0 / len(mu)] * len(mu)
    return [float(v) for v in p / p.sum()]


def lane_shares(scores: Sequence[Sequence[int]]) -> list[float]:
    """Each lane's share (they sum to 1) from the scores of the boards its partials completed to, lane by
    lane; even while no board is scored or with one lane."""
    lanes = len(scores)
    every = [x for s in scores for x in s]
    if lanes == 1 or not every:
        return [1.0 / lanes] * lanes
    mean = sum(every) / len(every)
    ss = sum((x - sum(s) / len(s)) ** 2 for s in scores if len(s) > 1 for x in s)
    dof = sum(len(s) - 1 for s in scores if len(s) > 1)
    spread = math.sqrt(ss / dof) if dof else float(np.std(every))
    spread = max(spread, MIN_SPREAD)
    means = [(sum(s) + PRIOR_BOARDS * mean) / (len(s) + PRIOR_BOARDS) for s in scores]
    sds = [spread / math.sqrt(len(s) + PRIOR_BOARDS) for s in scores]
    return [FLOOR / lanes + (1 - FLOOR) * p for p in best_chances(means, sds)]


def share_quotas(total: int, shares: Sequence[float]) -> list[int]:
    """``total`` placements split by ``shares``: whole parts first, the rest one each to the largest
    fractions (ties to the first lanes); they add up to ``total``."""
    exact = [total * s / sum(shares) for s in shares]
    out = [math.floor(e) for e in exact]
    for i in sorted(range(len(exact)), key=lambda i: (out[i] - exact[i], i))[: total - sum(out)]:
        out[i] += 1
    return out


def charge(credit: list[float], shares: Sequence[float], lane: int) -> None:
    """One completion given to ``lane``: every lane earns its share, the lane served pays one (smooth
    weighted round robin: over any stretch of completions each lane's count stays within about one of its
    share of them, whatever the shares were before)."""
    for i, s in enumerate(shares):
        credit[i] += s
    credit[lane] -= 1


def share_order(lanes: Sequence[int], credit: Sequence[float], shares: Sequence[float]) -> list[int]:
    """Positions of ``lanes`` (each candidate's lane, best candidate of a lane first) in the order to
    complete them: each next one the best left of the lane with the most credit once every lane earned its
    share (ties to the larger share, then the first lane); ``credit`` as the folder's completions left it."""
    queues: dict[int, list[int]] = {}
    for pos, lane in enumerate(lanes):
        queues.setdefault(lane, []).append(pos)
    credit, out = list(credit), []
    while queues:
        earned = [c + s for c, s in zip(credit, shares, strict=True)]
        lane = max(queues, key=lambda i: (earned[i], shares[i], -i))
        out.append(queues[lane].pop(0))
        charge(credit, shares, lane)
        if not queues[lane]:
            del queues[lane]
    return out
