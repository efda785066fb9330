"""``e2opt warm-up``: compile every numba kernel of every registry entry into numba's cache once, so that the
first run or solve after an install does not pay for it (each warms what it uses anyway, before its clock)."""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from . import exits
from .command import Command


def registries() -> list[tuple[str, Callable[[], list[str]]]]:
    """Each registry's name and the warm-up of all its entries (the names it warmed)."""
    from ..construct import METHODS
    from ..construct.warm import warm_constructions
    from ..exact.solve import EXACT_METHODS, warm_methods
    from ..search.moves import MOVES
    from ..search.warm import warm_moves

    return [
        ("search.moves.MOVES", lambda: warm_moves(MOVES)),
        ("construct.METHODS", lambda: warm_constructions(list(METHODS))),
        ("exact.solve.EXACT_METHODS", lambda: warm_methods(EXACT_METHODS)),
    ]


class WarmUpCmd(Command):
    """Warm every registry in turn and say how long each took (one line per registry)."""

    name = "warm-up"
    help = "compile every numba kernel of every registry entry into numba's cache (once, after installing)"

    def run(self, args: argparse.Namespace) -> int:
        for label, warm in registries():
            start = time.perf_counter()
            names = warm()
            print(f"{label}: {len(names)} entries with kernels warmed in {time.perf_counter() - start:.1f} s")
        return exits.DONE
