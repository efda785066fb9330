"""No exact method compiles a kernel inside its clock: ``solve`` warms the chosen method's kernels first (the
registry names them), and ``e2opt warm-up`` warms every entry of every registry into numba's cache."""

from __future__ import annotations

import importlib

import pytest
from helpers import compiled_kernels

from e2opt.cli import warmup
from e2opt.cli.main import main
from e2opt.core.generate import generate
from e2opt.exact.solve import EXACT_METHODS, options, solve, warm_methods


def _compiled_kernels(module_name: str) -> int:
    """How many of the numba kernels ``module_name`` defines have a compiled (or cache-loaded) signature."""
    from numba.core.registry import CPUDispatcher

    module = importlib.import_module(module_name)
    return sum(
        1
        for value in vars(module).values()
        if isinstance(value, CPUDispatcher) and value.py_func.__module__ == module_name and value.signatures
    )


@pytest.mark.parametrize("name", EXACT_METHODS)
def test_after_the_warm_up_every_kernel_of_the_method_is_compiled_and_a_solve_compiles_nothing(name):
    """Helpers called only inside other kernels compile into their callers (and a cache load skips them), so
    each module is asked for its entry points only; the solve afterwards must add no signature anywhere."""
    warm_methods([name])
    modules = [m for m in EXACT_METHODS[name].options.kernels if m != "e2opt.kernels.rng"]  # helpers only
    assert [m for m in modules if _compiled_kernels(m) == 0] == []
    before = compiled_kernels()
    puzzle, _ = generate(5, 5, 3, 4, 7)
    flat = {"find_all": True, "keep_boards": False} if EXACT_METHODS[name].options.enumerates else {}
    solve(puzzle, options(name, time_limit_s=20, **flat), progress=None)
    assert compiled_kernels() == before


def test_warm_up_warms_every_entry_of_every_registry_and_names_each(monkeypatch, capsys):
    from e2opt.construct import METHODS
    from e2opt.search.moves import MOVES

    called: dict[str, list[str]] = {}

    def recorder(label):
        def warm(names):
            called[label] = list(names)
            return called[label][:1]

        return warm

    monkeypatch.setattr("e2opt.search.warm.warm_moves", recorder("moves"))
    monkeypatch.setattr("e2opt.construct.warm.warm_constructions", recorder("constructions"))
    monkeypatch.setattr("e2opt.exact.solve.warm_methods", recorder("exact"))
    assert main(["warm-up"]) == 0
    constructions = list(METHODS)
    assert called == {"moves": list(MOVES), "constructions": constructions, "exact": list(EXACT_METHODS)}
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines] == [label for label, _ in warmup.registries()]
    assert all(line.split(": ")[1].startswith("1 entries with kernels warmed in ") for line in lines)
