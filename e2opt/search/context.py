"""SearchContext: what every move shares: the puzzle's flat arrays, the search state and the live colours.

It holds no config: each move gets its own settings from the registry, so this module names neither the
search's config nor a move's (no import cycle config -> moves -> context -> config).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core.board import Board
from ..core.puzzle import Puzzle
from . import kernels
from .flat import FlatPuzzle
from .state import SearchState


@dataclass(eq=False)
class SearchContext:
    """The current board lives in state.piece / state.rot; colour and mis follow it move by move."""

    puzzle: Puzzle
    flat: FlatPuzzle
    state: SearchState
    annealing: bool  # the acceptance can undo a loss: a move may then offer a worse board
    colour: np.ndarray  # (n, 4): colour each cell shows on each side
    mis: np.ndarray  # (n,): mismatched joins of each cell

    @classmethod
    def of(cls, puzzle: Puzzle, flat: FlatPuzzle, state: SearchState, annealing: bool) -> SearchContext:
        """A context with colour and mis still to be filled (``recompute``)."""
        n = flat.n
        zeros = np.zeros((n, 4), dtype=np.int64), np.zeros(n, dtype=np.int64)
        return cls(puzzle, flat, state, annealing, *zeros)

    def recompute(self) -> int:
        """colour, mis and the score of the current board from scratch."""
        st, f = self.state, self.flat
        return int(kernels.recompute(st.piece, st.rot, f.oriented, f.nbr, self.colour, self.mis))

    def board_view(self) -> Board:
        """The current board as a 2-D Board sharing memory with the state (no copy)."""
        f = self.flat
        return Board(self.state.piece.reshape(f.rows, f.cols), self.state.rot.reshape(f.rows, f.cols))

    def place(self, cells: np.ndarray, pieces: np.ndarray, rots: np.ndarray) -> int:
        """Put pieces[i] turned rots[i] on flat cells[i]; keep colour and mis exact; the score change."""
        st, f = self.state, self.flat
        return int(
            kernels.place_cells(
                cells, pieces, rots, st.piece, st.rot, self.colour, self.mis, f.nbr, f.oriented
            )
        )
