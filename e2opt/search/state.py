"""SearchState: everything the tabu search needs to continue exactly where it stopped.

Boards are flat (cell c = r * cols + col). Colours, mismatches and the score follow from the board
and are recomputed on resume; everything random comes from the one splitmix64 word ``rng``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np

_EXTRA = "extra_"  # checkpoint key prefix of the arrays moves, schedule and acceptance keep in ``extra``
_ARRAYS = ("piece", "rot", "best_piece", "best_rot", "tabu_cells", "tabu_arcs", "rng")


@dataclass(eq=False)
class SearchState:
    """Current and best boards, both tabu lists (as 'tabu until iteration'), counters and RNG state.

    tabu_arcs[b, a] > iteration: moving the piece at cell a to cell b is penalised (row b is read
    when hole b's costs are built, so one row serves a whole row of the cost matrix).
    """

    piece: np.ndarray  # (n,) piece at each cell of the current board
    rot: np.ndarray  # (n,) its rotation
    best_piece: np.ndarray  # (n,) the best board found so far
    best_rot: np.ndarray
    tabu_cells: np.ndarray  # (n,) tabu list 1: cell c may not be a hole while tabu_cells[c] > iteration
    tabu_arcs: np.ndarray  # (n, n) tabu list 2, see above
    rng: np.ndarray  # (1,) uint64 splitmix64 state of the search
    iteration: int = 0
    score: int = 0
    best_score: int = 0
    best_iteration: int = 0
    moves_since_best: int = 0
    plateau_moves: int = 0  # moves since the last new best or plateau event (diversify / intensify)
    plateaus_in_a_row: int = 0  # plateaus since the last new best
    diversifications: int = 0
    intensifications: int = 0
    time_to_best_wall: float = 0.0  # run clock seconds when the best board was found
    time_to_best_cpu: float = 0.0
    extra: dict[str, np.ndarray] = field(default_factory=dict)  # state of moves, schedule, acceptance

    @classmethod
    def initial(cls, piece: np.ndarray, rot: np.ndarray, score: int, seed: int) -> SearchState:
        """A fresh state at iteration 0: the given flat board is also the best; tabu lists empty."""
        n = piece.shape[0]
        return cls(
            piece=piece.astype(np.int64),
            rot=rot.astype(np.int64),
            best_piece=piece.astype(np.int64),
            best_rot=rot.astype(np.int64),
            tabu_cells=np.zeros(n, dtype=np.int64),
            tabu_arcs=np.zeros((n, n), dtype=np.int64),
            rng=np.array([seed], dtype=np.uint64),
            score=score,
            best_score=score,
        )

    def check_fits(self, n: int) -> None:
        """ValueError unless the arrays are those of an n-cell board: shapes, a permutation, rotations 0-3."""
        shapes = {"tabu_arcs": (n, n), "rng": (1,)}
        for name in _ARRAYS:
            want = shapes.get(name, (n,))
            if getattr(self, name).shape != want:
                raise ValueError(
                    f"search state: {name} has shape {getattr(self, name).shape}, expected {want}"
                )
        for board in ("", "best_"):
            if not np.array_equal(np.sort(getattr(self, board + "piece")), np.arange(n)):
                raise ValueError(f"search state: {board}piece is not a permutation of the {n} pieces")
            if not np.all((getattr(self, board + "rot") >= 0) & (getattr(self, board + "rot") < 4)):
                raise ValueError(f"search state: {board}rot holds a rotation outside 0-3")

    def to_dict(self) -> dict[str, Any]:
        """Plain data for an .npz checkpoint: numpy arrays (copied) and Python ints/floats."""
        out: dict[str, Any] = {}
        for f in fields(self):
            if f.name != "extra":
                value = getattr(self, f.name)
                out[f.name] = value.copy() if f.name in _ARRAYS else value
        out.update({_EXTRA + name: value.copy() for name, value in self.extra.items()})
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SearchState:
        """Inverse of to_dict (also accepts 0-d arrays for the numbers); ValueError on a missing key."""
        missing = [f.name for f in fields(cls) if f.name not in data and f.name != "extra"]
        if missing:
            raise ValueError(f"search state: missing {', '.join(missing)}")
        values: dict[str, Any] = {}
        extra = {k[len(_EXTRA) :]: np.array(v) for k, v in data.items() if k.startswith(_EXTRA)}
        for f in fields(cls):
            if f.name == "extra":
                continue
            value = data[f.name]
            if f.name == "rng":
                values[f.name] = np.array(value, dtype=np.uint64).reshape(1)
            elif f.name in _ARRAYS:
                values[f.name] = np.array(value, dtype=np.int64)
            elif f.type == "float":
                values[f.name] = float(value)
            else:
                values[f.name] = int(value)
        return cls(**values, extra=extra)
