"""The CP-SAT model of the relaxed puzzle (paper 001 sections 2 and 5), built from a Puzzle.

Each cell has one *choice* variable: an index into the cell's list of (piece, rotation) options,
pre-filtered to pieces of the cell's kind turned with grey exactly toward the rim (so the rim and
kind rules cost nothing in the solver). A table (or element constraints) links the choice to the
piece and to the colours the cell shows its neighbours; AllDifferent keeps each piece once; hints
are cells with a single option. Colours must agree on every shared edge except those touching a
*relaxed* cell — those cells only hold a piece of their kind and are refilled optimally afterwards.
With ``soft=True`` the agreements become Booleans whose sum is maximised (the fallback model).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np
from ortools.sat.python import cp_model

from ..core.board import Board
from ..core.errors import E2optError
from ..core.puzzle import CORNER, Puzzle
from ..fill.order import spiral

Cell = tuple[int, int]
STEPS = ((-1, 0), (0, 1), (1, 0), (0, -1))  # neighbour offsets of sides t, r, b, l


def neighbours(puzzle: Puzzle, r: int, c: int) -> list[tuple[int, Cell]]:
    """(side, neighbour cell) for each side of (r, c) that faces another cell, not the rim."""
    out = []
    for side, (dr, dc) in enumerate(STEPS):
        rr, cc = r + dr, c + dc
        if 0 <= rr < puzzle.rows and 0 <= cc < puzzle.cols:
            out.append((side, (rr, cc)))
    return out


def check_relaxed(puzzle: Puzzle, cells: Iterable[Iterable[int]]) -> list[Cell]:
    """The relaxed cells as a list; E2optError unless they are on the board, not hints, pairwise non-adjacent."""
    out: list[Cell] = []
    hinted = puzzle.hint_map()
    for item in cells:
        cell = tuple(int(v) for v in item)
        if len(cell) != 2:
            raise E2optError(f"relaxed_cells: each cell needs [row, col], got {list(cell)}")
        r, c = cell
        if not (0 <= r < puzzle.rows and 0 <= c < puzzle.cols):
            raise E2optError(f"relaxed_cells: ({r},{c}) is off the {puzzle.rows}x{puzzle.cols} board")
        if cell in hinted:
            raise E2optError(f"relaxed_cells: ({r},{c}) is a hint cell, hints are never relaxed")
        if cell in out:
            raise E2optError(f"relaxed_cells: ({r},{c}) is listed twice")
        for _, other in neighbours(puzzle, r, c):
            if other in out:
                raise E2optError(f"relaxed_cells: ({r},{c}) and {other} share an edge")
        out.append((r, c))
    return out


def draw_relaxed(puzzle: Puzzle, k: int, rng: np.random.Generator, keep: Iterable[Cell] = ()) -> list[Cell]:
    """``keep`` plus random movable cells up to k in all, pairwise non-adjacent; E2optError if none fit.

    Cells are drawn one by one at random; when that sequential draw gets stuck below k (it fills only
    about 70% of what fits) and nothing is kept, k random cells of one checkerboard colour are taken.
    """
    kept = list(keep)
    chosen = list(kept)
    taken = set(chosen)
    hinted = puzzle.hint_map()
    cells = [(r, c) for r in range(puzzle.rows) for c in range(puzzle.cols) if (r, c) not in hinted]
    for i in rng.permutation(len(cells)):
        if len(chosen) >= k:
            break
        r, c = cells[i]
        if (r, c) not in taken and all(n not in taken for _, n in neighbours(puzzle, r, c)):
            chosen.append((r, c))
            taken.add((r, c))
    if len(chosen) < k and not kept:
        colour = [[cell for cell in cells if sum(cell) % 2 == side] for side in (0, 1)]
        big = max(colour, key=len)
        if len(big) >= k:
            return [big[i] for i in sorted(rng.choice(len(big), size=k, replace=False))]
    if len(chosen) < k:
        raise E2optError(
            f"relaxed: could not place {k} pairwise non-adjacent relaxed cells on the "
            f"{puzzle.rows}x{puzzle.cols} board (got {len(chosen)}); use a smaller number"
        )
    return chosen


def max_relaxed(puzzle: Puzzle) -> int:
    """How many relaxed cells draw_relaxed can always place: the larger checkerboard colour, hints left out."""
    hinted = puzzle.hint_map()
    movable = [(r, c) for r in range(puzzle.rows) for c in range(puzzle.cols) if (r, c) not in hinted]
    even = sum(1 for r, c in movable if (r + c) % 2 == 0)
    return max(even, len(movable) - even)


def _turned(puzzle: Puzzle, cells: set[Cell], quarter_turns: int) -> set[Cell]:
    """The cells after turning the whole board clockwise (1 turn: square only; 2 turns: any board)."""
    rows, cols = puzzle.rows, puzzle.cols
    if quarter_turns == 1:
        return {(c, rows - 1 - r) for r, c in cells}
    return {(rows - 1 - r, cols - 1 - c) for r, c in cells}


def symmetry_applies(puzzle: Puzzle, relaxed: Iterable[Cell]) -> bool:
    """True when turning a solution gives another solution: no hints and R unchanged by the turn."""
    relaxed = set(relaxed)
    turns = 1 if puzzle.rows == puzzle.cols else 2
    return not puzzle.hints and _turned(puzzle, relaxed, turns) == relaxed


def cell_options(
    puzzle: Puzzle,
    relaxed: set[Cell],
    symmetry: bool,
    order_rng: np.random.Generator | None,
) -> dict[Cell, tuple[np.ndarray, np.ndarray]]:
    """Per cell the (pieces, rotations) it may hold, sorted by 4*piece+rotation or shuffled by order_rng.

    A relaxed cell keeps one rotation per piece (its joins are free, the completion turns it).
    With ``symmetry``, the lowest-numbered corner piece may only sit top-left (square board) or
    top-left/top-right (other boards), which keeps one of each 4 (resp. 2) turned copies of a solution.
    """
    hinted = puzzle.hint_map()
    hinted_pieces = np.array([h.piece for h in puzzle.hints], dtype=np.int64)
    grey = puzzle.oriented == 0  # (P, 4 rotations, 4 sides)
    first_corner = int(np.flatnonzero(puzzle.kinds == CORNER)[0])
    rows, cols = puzzle.rows, puzzle.cols
    corner_home = {(0, 0)} if rows == cols else {(0, 0), (0, cols - 1)}
    out: dict[Cell, tuple[np.ndarray, np.ndarray]] = {}
    for r in range(rows):
        for c in range(cols):
            if (r, c) in hinted:
                h = hinted[(r, c)]
                out[(r, c)] = (np.array([h.piece]), np.array([h.rot]))
                continue
            fits = np.all(grey == np.array(puzzle.rim_sides(r, c)), axis=2)  # (P, 4)
            fits[hinted_pieces] = False
            if symmetry and puzzle.cell_kind(r, c) == CORNER:
                if (r, c) == (0, 0) and rows == cols:
                    fits[np.arange(len(fits)) != first_corner] = False
                elif (r, c) not in corner_home:
                    fits[first_corner] = False
            if (r, c) in relaxed:
                fits &= np.cumsum(fits, axis=1) == 1  # keep the first fitting rotation only
            pieces, rots = np.nonzero(fits)
            if order_rng is not None:
                order = order_rng.permutation(len(pieces))
                pieces, rots = pieces[order], rots[order]
            out[(r, c)] = (pieces, rots)
    return out


@dataclass
class PuzzleModel:
    """A built model and what is needed to read a board back from a solution."""

    model: cp_model.CpModel
    choice: dict[Cell, cp_model.IntVar]
    options: dict[Cell, tuple[np.ndarray, np.ndarray]]
    matches: list[cp_model.IntVar] = field(default_factory=list)

    def board(self, value) -> Board:
        """The board of a solution; ``value`` maps a choice variable to its value (solver.value)."""
        rows = 1 + max(r for r, _ in self.choice)
        cols = 1 + max(c for _, c in self.choice)
        piece = np.empty((rows, cols), dtype=np.int64)
        rot = np.empty((rows, cols), dtype=np.int64)
        for cell, var in self.choice.items():
            i = int(value(var))
            piece[cell], rot[cell] = self.options[cell][0][i], self.options[cell][1][i]
        return Board(piece, rot)


def build_model(
    puzzle: Puzzle,
    relaxed: Iterable[Cell],
    *,
    table: bool = True,
    symmetry: bool = False,
    soft: bool = False,
    order_rng: np.random.Generator | None = None,
) -> PuzzleModel:
    """The relaxed puzzle as a CP-SAT model (see the module docstring).

    ``table``: AddAllowedAssignments per cell, else element constraints; ``symmetry``: break the
    board's turn symmetry (only pass True when symmetry_applies); ``soft``: maximise matched joins
    instead of requiring them; ``order_rng``: shuffle each cell's option list (random value order).
    """
    relaxed = set(relaxed)
    options = cell_options(puzzle, relaxed, symmetry, order_rng)
    model = cp_model.CpModel()
    choice: dict[Cell, cp_model.IntVar] = {}
    piece_var: dict[Cell, cp_model.IntVar] = {}
    side_var: dict[tuple[Cell, int], cp_model.IntVar] = {}
    matches: list[cp_model.IntVar] = []

    def side_colours(cell: Cell, side: int) -> np.ndarray:
        pieces, rots = options[cell]
        return puzzle.oriented[pieces, rots, side]

    for r in range(puzzle.rows):
        for c in range(puzzle.cols):
            cell = (r, c)
            pieces = options[cell][0]
            if len(pieces) == 0:
                raise E2optError(f"cell ({r},{c}): no piece can sit there (kinds, hints or symmetry clash)")
            choice[cell] = model.new_int_var(0, len(pieces) - 1, f"choice_{r}_{c}")
            piece_var[cell] = model.new_int_var_from_domain(
                cp_model.Domain.from_values(sorted(set(pieces.tolist()))), f"piece_{r}_{c}"
            )
            if cell in relaxed:
                continue
            for side, other in neighbours(puzzle, r, c):
                if other in relaxed:
                    continue
                key, other_key = (cell, side), (other, (side + 2) % 4)
                if other_key in side_var and not soft:
                    side_var[key] = side_var[other_key]  # one colour variable per hard join
                    continue
                colours = set(side_colours(cell, side).tolist())
                if not soft:
                    colours &= set(side_colours(other, (side + 2) % 4).tolist())
                if not colours:
                    raise E2optError(f"cell ({r},{c}): no colour can match its neighbour {other}")
                side_var[key] = model.new_int_var_from_domain(
                    cp_model.Domain.from_values(sorted(colours)), f"colour_{r}_{c}_{side}"
                )
                if soft and other_key in side_var:
                    match = model.new_bool_var(f"match_{r}_{c}_{side}")
                    model.add(side_var[key] == side_var[other_key]).only_enforce_if(match)
                    matches.append(match)

    for (r, c), var in choice.items():
        pieces, rots = options[(r, c)]
        sides = [s for s in range(4) if ((r, c), s) in side_var]
        columns = [pieces] + [puzzle.oriented[pieces, rots, s] for s in sides]
        targets = [piece_var[(r, c)]] + [side_var[((r, c), s)] for s in sides]
        if table:
            tuples = np.column_stack([np.arange(len(pieces)), *columns])
            model.add_allowed_assignments([var, *targets], tuples.tolist())
        else:
            for values, target in zip(columns, targets, strict=True):
                model.add_element(var, values.tolist(), target)
    model.add_all_different(piece_var.values())
    if soft:
        model.maximize(sum(matches))
    return PuzzleModel(model, choice, options, matches)


VARIABLE_STRATEGIES = {
    "min_domain": cp_model.CHOOSE_MIN_DOMAIN_SIZE,
    "max_domain": cp_model.CHOOSE_MAX_DOMAIN_SIZE,
    "row_scan": cp_model.CHOOSE_FIRST,
    "spiral": cp_model.CHOOSE_FIRST,
}


def add_strategy(pm: PuzzleModel, rows: int, cols: int, variable: str, value: str) -> bool:
    """Add the decision strategy (paper 004) on the choice variables; False for CP-SAT's own search.

    Variables: min/max domain (ties in row order), row scan, or spiral; values: min or max index in
    the option list ("random" = min over a shuffled list, see cell_options).
    """
    if variable == "default":
        return False
    cells = spiral(rows, cols) if variable == "spiral" else [(r, c) for r in range(rows) for c in range(cols)]
    select = cp_model.SELECT_MAX_VALUE if value == "max" else cp_model.SELECT_MIN_VALUE
    pm.model.add_decision_strategy([pm.choice[cell] for cell in cells], VARIABLE_STRATEGIES[variable], select)
    return True
