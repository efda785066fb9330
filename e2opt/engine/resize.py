"""``e2opt resume --workers N``: a resumed run goes on with more workers than it had.

New workers join as a fresh worker of a new run would (their first round is their own construction), and
the stop criteria are the run's: a CPU budget is shared by all the workers now in the team (round.cpu_share),
so the total stays the run's budget. A team cannot shrink on resume: every worker's state and CPU seconds
make up the run's totals and its checkpoint, and dropping one would lose its CPU from the budget's count.
"""

from __future__ import annotations

from ..core.errors import E2optError
from .team import Team


def grow(team: Team, workers: int) -> bool:
    """Give ``team`` ``workers`` workers (the new ones unstarted); True when it changed. E2optError to shrink."""
    if workers == team.n:
        return False
    if workers < team.n:
        raise E2optError(
            f"--workers {workers}: this run has {team.n} workers; a resumed run keeps them all (each one's "
            f"state and CPU time are part of the run), so give {team.n} or more"
        )
    more = workers - team.n
    team.n = workers
    team.states += [None] * more
    team.finished += [None] * more
    team.current += [0] * more
    team.moves += [0] * more
    team.rounds += [0] * more
    team.lost += [0] * more
    team.lost_cpu += [0.0] * more
    team.move_summaries += [{} for _ in range(more)]
    return True
