"""Imported only by the fork server of a run's worker processes (prewarm.SERVER_MODULES): the server dies with
the run's process at once (without it, it ended on EOF of its pipe, then took seconds to unload numba), and
warms the run's kernels for every worker forked from it (prewarm.py)."""

from __future__ import annotations

from .lifeline import die_with_parent
from .prewarm import prewarm

die_with_parent()
prewarm()
