"""Worker roles, one module each behind one interface (base.Role), and which worker has which role.

A role is one module here and one line in ``ROLES``. The coordinator, the team, resume and result ask a
worker's Role (``Team.role_of``) instead of comparing names: ``serves`` (the role works for the others and
ends when they have, so its own end does not count for the run's), ``hand_out`` (what the next task carries)
and ``settle`` (what an answer brings); the round (round.py) calls ``claim``, ``first_board``, ``begun``,
``play`` and ``leaving``. Role names are what events and result.json carry ("worker" for a run without
producers, as before roles were objects).
"""

from __future__ import annotations

from ...config.sections import RunSection
from .base import Role
from .producer import Producer
from .repairer import Repairer
from .searcher import Searcher

ROLES: dict[str, Role] = {role.name: role for role in (Searcher(), Producer(), Repairer())}


def auto_producers(workers: int) -> int:
    """``run.roles.producers: auto``: none for one worker, else half the workers, rounded down, at least one.

    Measured (docs/pipeline.md "How many producers"; E2 with its centre hint, 2,400 CPU s of all workers,
    seeds 1-3): 2 workers (1 producer) 465, 465, 465; 4 workers with 1 producer (this rule gave a third before)
    465, 464, 465 (its producer made 6-8 boards); 4 workers with 2 producers 465, 466, 465 (11-17 boards, the
    best found first). On a 16-core machine, 8 workers: 1 producer 464, 4 producers 465.
    """
    return 0 if workers <= 1 else max(1, workers // 2)


def producer_count(run: RunSection, workers: int) -> int:
    """How many of ``workers`` produce: ``run.roles.producers`` (``auto``: auto_producers), at most
    workers - 1. ``auto`` in a run meeting every ``sync_every_moves`` moves without ``leave_after_moves`` means
    none: such a run repeats seed for seed only without roles (an explicit count there is a config error)."""
    producers = run.roles.producers
    if producers == "auto":
        if run.sync_every_moves is not None and run.roles.leave_after_moves is None:
            return 0
        producers = auto_producers(workers)
    return min(int(producers), workers - 1)


def assign(run: RunSection, workers: int) -> list[Role]:
    """Each worker's role: workers 1..producers produce, the others repair; without producers every worker
    searches its own board (worker 0 always searches, as the one worker of a run would)."""
    producers = producer_count(run, workers)
    if producers == 0:
        return [ROLES[Searcher.name]] * workers
    return [ROLES[Producer.name] if 1 <= i <= producers else ROLES[Repairer.name] for i in range(workers)]


__all__ = ["ROLES", "Role", "assign", "auto_producers", "producer_count"]
