"""The pilot: which of the derived recipe's candidates (candidates.py) a run takes, chosen on the puzzle.

Each candidate is one setting of the few knobs the statistics leave open: the quota's margin over the
random expectation (or no quota), the branching at which breaks begin, and breaks next to the hints. The
pilot runs each candidate's DFS from a fresh attempt (seeded from the run) and halves the field round
after round (``halving``: ``pilot.nodes`` placements in all, so a seed's choice is the same on any
machine and under any load; CPU seconds moved it: docs/dfs_results.md "A pilot counted in placements"),
keeping the candidates whose deepest partial matches the most joins (a placed cell adds about two, a break
takes one away: a candidate that spends its breaks early to get a few cells deeper loses; ties: the
earlier candidate); with ``pilot.draws`` > 1 each candidate's first round is shared by that many fresh
attempts, the best going on (``Draws``); a quota-free winner is put to the quota candidates in a second
halving (``quota_stage``). When no candidate gets past the position where breaks begin, the quota and
schedule cannot be met on this puzzle: the pilot relaxes them (no quota, clue breaks, earlier breaks) and
says so in one warning line. The chosen trial also sets the attempts' abort marks (unless ``abort`` is
given): an attempt that has not reached ABORT_SHARE of the trial's depth within ABORT_NODES times the
trial's nodes, or the trial's depth within three times that, starts afresh, so one bad opening cannot
hold a run for hours.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from ...core.puzzle import Puzzle
from ..finish import placed_joins
from .candidates import Knobs, candidates, derived_recipe
from .config import DfsConfig
from .rules import Recipe
from .search import Dfs, recipe_dfs

Stop = Callable[[], bool]  # asked to stop (a run's stop file): the pilot ends at once


def never() -> bool:
    """The stop of a pilot nobody stops."""
    return False


@dataclass
class Trial:
    """One candidate's attempt in the pilot, kept alive between rounds: its deepest partial's pieces (hints
    included), breaks and matched joins, nodes, CPU s, and the round it was dropped in (None: never)."""

    knobs: Knobs
    placed: int = 0
    breaks: int = 0
    joins: int = 0
    nodes: int = 0
    cpu_s: float = 0.0
    dropped: int | None = None

    def as_dict(self) -> dict:
        return {"knobs": self.knobs.label(), "placed": self.placed, "breaks": self.breaks, "joins": self.joins,
                "nodes": self.nodes, "cpu_s": round(self.cpu_s, 3), "dropped": self.dropped}  # fmt: skip


class Attempt:
    """A candidate's DFS from a fresh attempt (seeded from the run), advanced round after round."""

    def __init__(self, puzzle: Puzzle, recipe: Recipe, knobs: Knobs, seed: int):
        self.puzzle, self.trial = puzzle, Trial(knobs)
        self.dfs = recipe_dfs(puzzle, recipe, seed)

    @property
    def done(self) -> bool:
        """The attempt placed every cell: nothing more to learn from it."""
        return self.dfs.deepest == self.dfs.order.depth

    def advance(self, nodes: int, chunk: int = 1 << 18, stop: Stop = never) -> Trial:
        """``nodes`` more placements of this attempt (at most ``chunk`` between ``stop`` calls); what it
        reached."""
        start, dfs, t = time.process_time(), self.dfs, self.trial
        until = dfs.nodes + nodes
        while dfs.nodes < until and not self.done and not stop():
            before = dfs.nodes
            dfs.step(min(chunk, until - dfs.nodes))
            if dfs.nodes == before:
                break  # a tree with no placement left to make
        if dfs.deepest + len(self.puzzle.hints) > t.placed:
            t.joins = placed_joins(self.puzzle, dfs.board(dfs.deepest_codes()))
            t.breaks = int(dfs.pairs[dfs.deepest]) - t.joins
            t.placed = dfs.deepest + len(self.puzzle.hints)
        t.nodes, t.cpu_s = dfs.nodes, t.cpu_s + time.process_time() - start
        return t


class Draws:
    """A candidate's ``len(attempts)`` fresh attempts (seeds of their own) in the pilot's first round, each
    given an equal part of the candidate's share; the one with the most matched joins (ties: the first) is
    kept and continued in the later rounds. One attempt stuck beside a hint by its opening then no longer
    drops a recipe that another opening takes deep (docs/dfs_results.md "Draws in the pilot's first round")."""

    def __init__(self, attempts: list[Attempt]):
        self.attempts = attempts

    @property
    def trial(self) -> Trial:
        """The trial of the kept attempt (before the first round: the first one's)."""
        return self.attempts[0].trial

    @property
    def dfs(self) -> Dfs:
        """The DFS of the kept attempt."""
        return self.attempts[0].dfs

    def advance(self, nodes: int, stop: Stop = never) -> Trial:
        """The first call shares ``nodes`` among the draws and keeps the best; later calls go on with it."""
        if len(self.attempts) == 1:
            return self.attempts[0].advance(nodes, stop=stop)
        for a in self.attempts:
            a.advance(nodes // len(self.attempts), stop=stop)
        self.attempts = [max(self.attempts, key=lambda a: a.trial.joins)]  # max keeps the first of ties
        return self.attempts[0].trial


def halving(
    attempts: list[Attempt] | list[Draws], total: int, stop: Stop = never, first_round: int = 1
) -> list[int]:
    """Successive halving: ceil(log2 n) rounds of equal placements (``total`` in all), each shared by the
    candidates still in; after each, the better half by matched joins of the deepest partial goes on
    (ties: the earlier candidate), its attempt continued where it stopped. A quota that costs depth in the
    first second and pays later thus gets a longer horizon than one short trial each. Every candidate's
    index, best first: the winner, then the later a candidate was dropped the better, in a round by joins.
    Rounds are numbered from ``first_round`` in the trials' ``dropped``. ``stop()`` true ends the pilot
    after the attempt it is in, the best so far its winner."""
    alive = list(range(len(attempts)))
    rounds = halving_rounds(len(alive))
    for r in range(first_round, first_round + rounds):
        for i in alive:
            attempts[i].advance(total // rounds // len(alive), stop=stop)
        alive.sort(key=lambda i: (-attempts[i].trial.joins, i))
        stopped = stop()
        keep = 1 if r == first_round + rounds - 1 or stopped else (len(alive) + 1) // 2
        for i in alive[keep:]:
            attempts[i].trial.dropped = r
        alive = alive[:keep]
        if stopped:
            break
    last = first_round + rounds  # the winner's rank key: never dropped
    return sorted(
        range(len(attempts)),
        key=lambda i: (-(attempts[i].trial.dropped or last), -attempts[i].trial.joins, i),
    )


def halving_rounds(n: int) -> int:
    """The rounds a halving of ``n`` candidates takes: ceil(log2 n), at least one."""
    return max(1, math.ceil(math.log2(n)))


QUOTA_STAGE_SHARE = 0.5  # of ``pilot.nodes``: the quota stage's placements (quota_stage)


def quota_stage(
    attempts: list[Attempt] | list[Draws],
    recipes: list[Recipe],
    order: list[int],
    total: int,
    cells: int,
    stop: Stop = never,
) -> tuple[list[int], str | None]:
    """When the halving's winner has no quota, a second halving among the candidates with one, their
    attempts continued where they were dropped (QUOTA_STAGE_SHARE of ``total`` placements); its winner
    takes the first place if it gets past its first break. Why: a quota spends the first seconds placing
    its colours and pays after the schedule's first break, which the halving's first rounds do not reach;
    on the strict clues a quota-free winner made boards up to 4 joins below the quota recipe it had
    dropped, given 300 CPU s of DFS each (docs/dfs_results.md "The quota stage"). The order (``halving``'s)
    with the quota winner first, and what the stage found (None: no stage)."""
    quota = [i for i in order if recipes[i].quota]
    if recipes[order[0]].quota or not quota or stop():
        return order, None
    rounds = halving_rounds(len(order))
    for i in quota:
        attempts[i].trial.dropped = None
    sub = halving([attempts[i] for i in quota], int(QUOTA_STAGE_SHARE * total), stop, rounds + 2)
    best = quota[sub[0]]
    last = rounds + 1 + halving_rounds(len(quota))  # the stage's final round
    if attempts[best].trial.placed < first_break(recipes[best], cells):
        attempts[best].trial.dropped = last
        return order, "kept the quota-free winner: no quota candidate got past its first break"
    attempts[order[0]].trial.dropped = last
    return [best, *[i for i in order if i != best]], "a quota candidate got past its first break"


def first_break(recipe: Recipe, cells: int) -> int:
    """The position where the schedule first allows a break, at most ``cells`` (it never does)."""
    return min(recipe.breaks[0][0], cells) if recipe.breaks else cells


def relaxed_warning(mark: int, cells: int, deepest: int) -> str:
    """The line saying the pilot's trials died before ``mark`` (the first break or, without one, the end)."""
    where = (
        f"position {mark}, where breaks begin" if mark < cells else f"all {cells} cells (no break allowed)"
    )
    return (f"dfs: no pilot attempt reached {where} (deepest {deepest}): the quota and break schedule are "
            "relaxed (no quota, earlier breaks, breaks next to clues)")  # fmt: skip


PILOT_SHARE = 0.4  # of the construction's CPU budget, at most, for the whole pilot (a cap for small budgets)
ABORT_NODES, ABORT_SHARE = 5, 0.75  # abort marks from the chosen trial (module docstring)


def abort_marks(best: Trial) -> tuple[tuple[int, int], ...]:
    """[placements, position] marks from the chosen trial (module docstring); none for a trial that did not
    get anywhere."""
    if best.nodes <= 0 or best.placed <= 0:
        return ()
    first = (ABORT_NODES * best.nodes, max(1, int(ABORT_SHARE * best.placed)))
    return (first, (3 * first[0], best.placed))


Ranked = list[tuple[Recipe, dict | None]]  # recipes best first, each with its attempt to continue


def calibrate(
    puzzle: Puzzle, cfg: DfsConfig, seed: int, warn=None, budget_s: float | None = None, stop: Stop = never
) -> tuple[Ranked, dict]:
    """The pilot of the module docstring: the candidates' recipes best first, each with its attempt
    (``Dfs.arrays()``; None without a pilot or when relaxed), which a run continues (an attempt that got
    deep is not thrown away for a fresh one that may die early), and a report of every trial. The first is
    the chosen recipe; the others, those whose trial got past their first break, are for lanes of their
    own (``lane_recipes: ranked``). Each takes the abort marks of its own trial. The halving gets
    ``pilot.nodes`` placements in all; past PILOT_SHARE of ``budget_s`` CPU s it ends as if stopped and its
    report says ``capped`` (a small budget: the one case where the load can move the choice). Relaxed or
    without a pilot, one recipe. Asked to stop (``stop()``), the pilot ends within a chunk of placements and
    its report says ``cut``: its choice is not the full pilot's, so it is not kept for the folder
    (build.resolve)."""
    start = time.process_time()
    pool = candidates(puzzle, cfg.pilot.candidates)
    if not cfg.pilot.enabled:
        pool = pool[:1]
    recipes = [derived_recipe(puzzle, cfg, knobs) for knobs in pool]
    kept = [i for i, r in enumerate(recipes) if r not in recipes[:i]]  # a hint never late: tried once
    pool, recipes = [pool[i] for i in kept], [recipes[i] for i in kept]
    report: dict = {}
    ranked: Ranked = [(recipes[0], None)]
    if cfg.pilot.enabled:
        n, draws = len(pool), cfg.pilot.draws
        attempts = [
            Draws([Attempt(puzzle, r, k, seed + i + d * n) for d in range(draws)])
            for i, (r, k) in enumerate(zip(recipes, pool, strict=True))
        ]
        attempts[0].dfs.step(1)  # the kernel compiled or loaded outside the trials' clocks and the cap
        began, cap = time.process_time(), math.inf if budget_s is None else PILOT_SHARE * budget_s

        def capped() -> bool:
            return time.process_time() - began > cap

        cells = puzzle.n_cells
        order = halving(attempts, cfg.pilot.nodes, lambda: stop() or capped())

        order, second = quota_stage(
            attempts, recipes, order, cfg.pilot.nodes, cells, lambda: stop() or capped()
        )
        over = capped()  # cut by the CPU cap: still the run's choice, kept for the folder
        reached = [i for i in order[1:] if attempts[i].trial.placed >= first_break(recipes[i], cells)]

        def marked(i: int) -> Recipe:  # the abort marks of the candidate's own trial, unless the section's
            return (
                recipes[i]
                if cfg.abort is not None
                else recipes[i].with_(abort=abort_marks(attempts[i].trial))
            )

        ranked = [(marked(i), attempts[i].dfs.arrays()) for i in [order[0], *reached]]
        best = attempts[order[0]].trial
        report = {"trials": [a.trial.as_dict() for a in attempts], "chosen": pool[order[0]].label()}
        if second is not None:
            report["quota_stage"] = second
        if over:
            report["capped"] = True
        mark = first_break(ranked[0][0], cells)
        if stop():
            report["cut"] = True  # not a finding about the puzzle: nothing relaxed, nothing said
        elif best.placed < mark:
            relaxed = derived_recipe(puzzle, cfg, Knobs(None, 1.0, 1))
            text = relaxed_warning(mark, puzzle.n_cells, best.placed)
            if warn is not None:
                warn(text)
            report["relaxed"] = text
            ranked = [(relaxed.with_(source={**relaxed.source, "relaxed": True}, abort=()), None)]
    report["cpu_s"] = round(time.process_time() - start, 3)
    return ranked, report
