"""A DFS with breaks that runs in a folder for hours: harvest pool, checkpoints, exact resume after kill -9.

The folder (``RUN_DIR/harvest`` when the run engine calls the construction) holds ``state.npz`` (the
DFS's exact state, the pool's counts, the deepest partial board, CPU spent; written atomically at each
checkpoint), ``pool.jsonl`` and ``journal.jsonl`` (harvest.py). After a kill the DFS continues from
its last checkpoint and visits again exactly the nodes it had visited since: the counts come from the
checkpoint (nothing counted twice) and boards found again are already in the pool (kept once). A folder
written by the former breakdfs package keeps its pool, counts and CPU; its DFS starts afresh.
"""

from __future__ import annotations

import hashlib
import io
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from ...core.board import Board
from ...core.fsutil import atomic_write_bytes
from ...core.puzzle import Puzzle
from ...fill.order import make_order
from . import kernel as k
from .config import HarvestConfig
from .harvest import Pool, board_entry
from .rules import Recipe, make_rules
from .search import Dfs, Found
from .shares import share_quotas

CHUNK = 1 << 22  # placements between clock checks (about 0.1 CPU s)


@dataclass
class Summary:
    """What a long DFS did: nodes, attempts, CPU, deepest partial (codes by depth), pool and counts."""

    nodes: int
    attempts: int
    cpu_s: float
    deepest: int
    deepest_codes: np.ndarray
    call_codes: np.ndarray  # the deepest partial reached by this LongRun object (this call), codes by depth
    call_cpu_s: float  # CPU of this object's runs (resumed time not counted)
    kept: int
    counts: dict
    band_rates: dict


def default_min_placed(puzzle: Puzzle) -> int:
    """248 pieces on 16x16 (Blackwood's 60-s depth), scaled by the number of cells elsewhere."""
    return max(1, round(248 * puzzle.n_cells / 256))


def lane_seed(seed: int, lane: int) -> int:
    """Lane 0 runs on the run's seed (one lane is the single DFS); lane i > 0 on an independent stream."""
    return (
        seed if lane == 0 else int(np.random.SeedSequence([seed, lane]).generate_state(1, np.uint64)[0] >> 1)
    )


def lane_prefix(lane: int) -> str:
    """Lane 0's arrays keep their names in ``state.npz`` (a folder of one lane reads as before)."""
    return "" if lane == 0 else f"lane{lane}_"


def lane_arrays(arrays: dict[str, np.ndarray], lane: int) -> dict[str, np.ndarray]:
    """One lane's arrays of a checkpoint, under their ``Dfs.arrays()`` names."""
    if lane == 0:
        return {n: a for n, a in arrays.items() if not n.startswith("lane")}
    prefix = lane_prefix(lane)
    return {n[len(prefix) :]: a for n, a in arrays.items() if n.startswith(prefix)}


def recipe_key(recipe: Recipe) -> str:
    """A stable name of a recipe's rules (its ``source`` left out), kept per lane in the checkpoint."""
    rules = {k: v for k, v in asdict(recipe).items() if k != "source"}
    return hashlib.sha256(json.dumps(rules, sort_keys=True).encode()).hexdigest()[:16]


def lane_plan(recipe: Recipe, others: Sequence[tuple[Recipe, object]], lanes: int) -> list[Recipe]:
    """Each lane's recipe: ``[recipe, *others]`` in turn, repeated past its end."""
    plan = [recipe, *(r for r, _ in others)]
    return [plan[i % len(plan)] for i in range(lanes)]


def lane_quotas(max_nodes: int | None, lanes: int, shares: Sequence[float] | None = None) -> list[int] | None:
    """``max_nodes`` placements in all, shared by ``shares`` (shares.share_quotas) or as evenly as possible
    (the first lanes take the rest)."""
    if max_nodes is None:
        return None
    if shares is not None:
        return share_quotas(max_nodes, shares)
    return [max_nodes // lanes + (i < max_nodes % lanes) for i in range(lanes)]


class LongRun:
    """The DFS, its pool and its folder; ``run`` continues until a budget or a stop request."""

    def __init__(
        self,
        puzzle: Puzzle,
        recipe: Recipe,
        harvest: HarvestConfig,
        seed: int,
        folder: Path | None = None,
        max_attempts: int | None = None,
        start: dict[str, np.ndarray] | None = None,
        lanes: int = 1,
        others: Sequence[tuple[Recipe, dict[str, np.ndarray] | None]] = (),
        shares: Sequence[float] | None = None,
    ):
        """``start``: an attempt for lane 0 to continue (``Dfs.arrays()`` of the same recipe, the pilot's
        winner) when the folder holds no state of its own. ``lanes``: independent DFS's in this process.
        ``others``: recipes (each with its attempt, or None) for lanes 1, 2, ... in turn, the plan
        ``[(recipe, start), *others]`` repeated when there are more lanes (a repeat starts from the root);
        none: every lane runs ``recipe``. Every recipe keeps ``recipe``'s fill order. A lane the folder's
        checkpoint ran under another recipe starts from the root. ``shares``: each lane's share of this
        object's placements (shares.py; None: the lane with the fewest placements in all runs next). Each
        lane's deepest partial since it was last completed (``since``) is kept across calls (``forget``)."""
        self.puzzle, self.recipe, self.folder, self.max_attempts = puzzle, recipe, folder, max_attempts
        self.order = make_order(puzzle, recipe.order, recipe.teeth)
        if any((r.order, r.teeth) != (recipe.order, recipe.teeth) for r, _ in others):
            raise ValueError("lanes: every lane's recipe must keep the first lane's fill order")
        hmin = harvest.min_placed or default_min_placed(puzzle)
        rules = {}  # one set of kernel arrays per distinct recipe
        if shares is not None and (len(shares) != lanes or min(shares) <= 0):
            raise ValueError(f"lanes: {lanes} positive shares wanted, got {list(shares)}")
        self.shares = None if shares is None else list(shares)
        self.lane_recipes = lane_plan(recipe, others, lanes)
        self.lanes, given = [], [start, *(s for _, s in others)]
        starts = [given[i] if i < len(given) else None for i in range(lanes)]
        for i, r in enumerate(self.lane_recipes):
            if r not in rules:
                rules[r] = make_rules(puzzle, self.order, r)
            self.lanes.append(Dfs(puzzle, self.order, rules[r], lane_seed(seed, i), hmin))
        self.pool = Pool(harvest.pool_size, harvest.margin, hmin, folder)
        self.cpu_before = 0.0
        self.best_codes = np.zeros(0, dtype=np.int32)
        self.lane_codes = [
            np.zeros(0, dtype=np.int32) for _ in range(lanes)
        ]  # each lane's deepest, this object
        self.call_lane = 0  # the lane that first reached the deepest of them
        self.since = [np.zeros(0, dtype=np.int32) for _ in range(lanes)]
        self.band = {"<150": [0, 0.0], "150-200": [0, 0.0], ">200": [0, 0.0]}
        if folder is not None and (folder / "state.npz").exists():
            self._load(folder / "state.npz")
            for lane in self.lanes:
                lane.restart_deepest()  # so that ``call_codes`` is reached by this object, not loaded
        elif any(s is not None for s in starts):
            for lane, s in zip(self.lanes, starts, strict=True):
                if s is not None:
                    lane.load(s)  # its deepest partial counts as this call's
            self.checkpoint(0.0)  # a kill before the first checkpoint still resumes the pilot's attempts
        self.cpu_loaded = self.cpu_before
        self.nodes_loaded = [lane.nodes for lane in self.lanes]

    @property
    def nodes(self) -> int:
        """Placements of every lane, all attempts."""
        return sum(lane.nodes for lane in self.lanes)

    @property
    def attempts(self) -> int:
        return sum(lane.attempts for lane in self.lanes)

    @property
    def deepest(self) -> int:
        """The deepest partial of the lanes' current attempts (depths, hints not counted)."""
        return max(lane.deepest for lane in self.lanes)

    def board(self, codes: np.ndarray) -> Board:
        return self.lanes[0].board(codes)

    def _load(self, path: Path) -> None:
        with np.load(path) as data:
            arrays = {name: data[name] for name in data.files}
        info = json.loads(bytes(arrays.pop("info")).decode())
        self.best_codes = arrays.pop("best_codes").astype(np.int32)
        ran = info.get("recipes", [recipe_key(self.recipe)] * info.get("lanes", 1))  # before: one recipe
        for i, lane in enumerate(self.lanes):
            mine = lane_arrays(arrays, i)
            # a state of the old breakdfs kernel cannot be continued, nor a lane the folder did not have or
            # ran under other rules: the pool, counts and CPU go on, that lane's DFS from the root
            if "rank_of" in mine and i < len(ran) and ran[i] == recipe_key(self.lane_recipes[i]):
                lane.load(mine)
                self.since[i] = arrays.get(f"since{i}", self.since[i]).astype(np.int32)
        self.pool.load_counts(info["counts"])
        self.cpu_before = float(info["cpu_s"])

    def checkpoint(self, cpu_s: float) -> None:
        """The exact state, atomically, then the pool compacted (a kill in between loses nothing)."""
        if self.folder is None:
            return
        info = {"counts": self.pool.counts_dict(), "cpu_s": cpu_s, "lanes": len(self.lanes),
                "recipes": [recipe_key(r) for r in self.lane_recipes]}  # fmt: skip
        arrays = {}
        for i, lane in enumerate(self.lanes):
            arrays.update({f"{lane_prefix(i)}{name}": a for name, a in lane.arrays().items()})
        arrays["best_codes"] = self.best_codes
        arrays.update({f"since{i}": codes for i, codes in enumerate(self.since)})
        arrays["info"] = np.frombuffer(json.dumps(info).encode(), dtype=np.uint8)
        buf = io.BytesIO()
        np.savez(buf, **arrays)
        atomic_write_bytes(self.folder / "state.npz", buf.getvalue())
        self.pool.compact()

    def _offer(self, found: Found, lane: int) -> None:
        placed = len(found.codes) + len(self.puzzle.hints)
        if self.pool.count(placed, found.joins, found.complete):
            board = self.board(found.codes)
            self.pool.add(board_entry(board, found.joins, lane))

    def run(
        self,
        cpu_s: float | None = None,
        max_nodes: int | None = None,
        stop: Callable[[], bool] | None = None,
        checkpoint_every_s: float = 60.0,
        tick: Callable[[LongRun], None] | None = None,
        chunk: int = CHUNK,
    ) -> Summary:
        """Continue until ``cpu_s`` CPU seconds in all (resumed time counted), ``max_nodes`` placements in
        all (exact: the last chunk is cut to it), ``max_attempts``, a perfect board or ``stop()``; checkpoint
        and sum up. ``tick`` sees the run after every chunk (progress lines)."""
        start = time.process_time()
        last_ckpt = start
        quotas = lane_quotas(max_nodes, len(self.lanes), self.shares)

        def spent() -> float:
            return self.cpu_before + time.process_time() - start

        while True:
            if cpu_s is not None and spent() >= cpu_s:
                break
            if stop is not None and stop():
                break
            if self.pool.best_complete >= self.order_pairs:
                break  # a perfect board: nothing left to search for
            i = self._next_lane(quotas)
            if i is None:
                break
            dfs = self.lanes[i]
            size = chunk if quotas is None else min(chunk, quotas[i] - dfs.nodes)
            t0, n0 = time.process_time(), dfs.nodes
            found = dfs.step(size)
            self._band(int(dfs.st[8][k.DEPTH]), dfs.nodes - n0, time.process_time() - t0)
            for f in found:
                self._offer(f, i)
            if dfs.deepest > min(len(self.lane_codes[i]), len(self.since[i])):
                self._deeper(i, dfs.deepest_codes())
            if tick is not None:
                tick(self)
            if time.process_time() - last_ckpt >= checkpoint_every_s:
                self.checkpoint(spent())
                last_ckpt = time.process_time()
        self.checkpoint(spent())
        return Summary(
            self.nodes,
            self.attempts,
            spent(),
            len(self.best_codes),
            self.best_codes.copy(),
            self.call_codes.copy(),
            spent() - self.cpu_loaded,
            len(self.pool.entries),
            self.pool.counts_dict(),
            {b: round(n / t) if t > 0 else 0 for b, (n, t) in self.band.items()},
        )

    def _deeper(self, i: int, codes: np.ndarray) -> None:
        """Lane i's current attempt reached ``codes``: its deepest of this object, of the run, since it was last
        completed, as each applies."""
        if len(codes) > len(self.lane_codes[i]):
            self.lane_codes[i] = codes
            if len(codes) > len(self.call_codes):
                self.call_lane = i
        if len(codes) > len(self.since[i]):
            self.since[i] = codes
        if len(codes) > len(self.best_codes):
            self.best_codes = codes.copy()

    def forget(self, done: Callable[[np.ndarray], bool]) -> None:
        """Drop each lane's partial since it was last completed if ``done`` says it was completed."""
        for i, codes in enumerate(self.since):
            if len(codes) and done(codes):
                self.since[i] = np.zeros(0, dtype=np.int32)

    @property
    def call_codes(self) -> np.ndarray:
        """The deepest partial reached by this object (this call), codes by depth."""
        return self.lane_codes[self.call_lane]

    @property
    def order_pairs(self) -> int:
        """The joins of a perfect board."""
        return int(self.lanes[0].pairs[-1])

    def _next_lane(self, quotas: list[int] | None) -> int | None:
        """The lane to run next: the one with the fewest placements (with ``shares``: this object's, for its
        share) among those below their share of ``max_nodes`` and not ending past ``max_attempts`` (None:
        none left). Each lane's path depends on its own placements alone, so the lanes' interleaving (chunks,
        resumes) never changes what they find."""
        spent = self.max_attempts is not None and self.attempts >= self.max_attempts
        open_ = [
            i
            for i, lane in enumerate(self.lanes)
            if (quotas is None or lane.nodes < quotas[i])
            and not (spent and lane.status in (k.BUDGET, k.EXHAUSTED))
        ]
        if self.shares is None:
            return min(open_, key=lambda i: (self.lanes[i].nodes, i), default=None)
        mine = [lane.nodes - n0 for lane, n0 in zip(self.lanes, self.nodes_loaded, strict=True)]
        return min(open_, key=lambda i: (mine[i] / self.shares[i], i), default=None)

    def _band(self, depth: int, nodes: int, cpu: float) -> None:
        """Nodes and CPU of a chunk, filed under the depth band the search ended it in."""
        name = "<150" if depth < 150 else ("150-200" if depth <= 200 else ">200")
        self.band[name][0] += nodes
        self.band[name][1] += cpu
