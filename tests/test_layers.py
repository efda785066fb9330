"""The package's layers (docs/design.md): nothing imports a higher layer, peers import each other only along a
crossing of the map, and no import cycle between modules or between the parts of one package.

The map is read from docs/design.md (its ``layers`` and ``crossings`` blocks), the one place of the rule. The
import graph is read from the source with ``ast``, imports inside functions included, so this test is also the
tool: ``python -m pytest tests/test_layers.py -q``. Each check is a function of a graph that returns its
violations, so a planted graph shows that each one reports what it must.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "e2opt"
DESIGN = ROOT / "docs" / "design.md"

Graph = dict[str, set[str]]  # module (dotted, without "e2opt."; "" is the package) -> modules it imports


def read_map(text: str) -> tuple[list[set[str]], list[tuple[str, str]]]:
    """The layers (lowest first; each a set of top-level names) and the crossings (importer, imported) of
    design.md's ``layers`` and ``crossings`` blocks."""
    layers_block = re.search(r"```layers\n(.*?)```", text, re.S)
    crossings_block = re.search(r"```crossings\n(.*?)```", text, re.S)
    assert layers_block and crossings_block, "docs/design.md lacks its ```layers or ```crossings block"
    layers = []
    for line in layers_block.group(1).splitlines():
        if not line or line[0].isspace():
            continue  # a continuation line of the layer above
        names = set()
        for token in line.split():
            if token.endswith("/"):
                names.add(token[:-1])
            elif token.endswith(".py"):
                names.add("" if token == "__init__.py" else token[:-3])
            else:
                break
        layers.append(names)
    crossings = [tuple(line.split()[0:3:2]) for line in crossings_block.group(1).splitlines() if line.strip()]
    return layers[::-1], crossings


def modules(package: Path = PACKAGE) -> dict[str, Path]:
    """Dotted module names under the package (without its prefix; '' is the package) -> file."""
    out = {}
    for path in package.rglob("*.py"):
        parts = list(path.relative_to(package).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _type_checking_only(tree: ast.AST) -> set[int]:
    """ids of the import nodes under ``if TYPE_CHECKING:`` (they never run)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            out |= {id(sub) for stmt in node.body for sub in ast.walk(stmt)}
    return out


def imports(
    name: str, path: Path, known: set[str], prefix: str = "e2opt", runs_only: bool = False
) -> set[str]:
    """The modules of the package that ``name`` imports, anywhere in its file (a package's name when a name is
    not a module); with ``runs_only``, without the imports under ``if TYPE_CHECKING:``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _type_checking_only(tree) if runs_only else set()
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    package = [p for p in package if p]
    found = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            elif node.module and (node.module == prefix or node.module.startswith(prefix + ".")):
                target = node.module[len(prefix) + 1 :]
            else:
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}" if target else alias.name
                found.add(sub if sub in known else target)
        elif isinstance(node, ast.Import):
            found |= {a.name[len(prefix) + 1 :] for a in node.names if a.name.startswith(prefix + ".")}
    found.discard(name)
    return found


def import_graph(package: Path = PACKAGE, runs_only: bool = False) -> Graph:
    """Every module of the package -> the modules it imports (see ``imports``)."""
    mods = modules(package)
    return {name: imports(name, path, set(mods), package.name, runs_only) for name, path in mods.items()}


def layer_of(name: str, layers: list[set[str]]) -> int | None:
    """The index of the module's layer (None when the map does not place its top-level name)."""
    top = name.split(".")[0]
    return next((i for i, names in enumerate(layers) if top in names), None)


def unplaced(graph: Graph, layers: list[set[str]]) -> list[str]:
    """Modules whose top-level name is in no layer of the map."""
    return sorted(name for name in graph if layer_of(name, layers) is None)


def upward(graph: Graph, layers: list[set[str]]) -> list[str]:
    """Imports of a higher layer, as 'importer -> imported'."""
    return sorted(
        f"{a} -> {b}"
        for a, targets in graph.items()
        for b in targets
        if (layer_of(a, layers) or 0) < (layer_of(b, layers) or 0)
    )


def _within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def peer_imports(graph: Graph, layers: list[set[str]], crossings: list[tuple[str, str]]) -> list[str]:
    """Imports between two different top-level packages of one layer that no crossing allows."""
    return sorted(
        f"{a} -> {b}"
        for a, targets in graph.items()
        for b in targets
        if a.split(".")[0] != b.split(".")[0]
        and layer_of(a, layers) == layer_of(b, layers)
        and not any(_within(a, src) and _within(b, dst) for src, dst in crossings)
    )


def cycles(graph: Graph) -> list[list[str]]:
    """The strongly connected sets of two or more nodes (each holds a cycle), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []

    def visit(node: str) -> None:  # Tarjan
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while not group or group[-1] != node:
                group.append(stack.pop())
            if len(group) > 1:
                out.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(out)


def module_cycles(graph: Graph) -> list[list[str]]:
    """Cycles between modules; a package's __init__ importing its own modules (re-exporting them) is not one."""
    return cycles({a: {b for b in t if not (a == "" or b.startswith(a + "."))} for a, t in graph.items()})


def sibling_cycles(graph: Graph) -> list[list[str]]:
    """Cycles between the parts (modules and sub-packages, each with what it holds) of one package."""
    out = []
    parts_of = [name.split(".") for name in graph if name]
    for package in sorted({".".join(parts[:i]) for parts in parts_of for i in range(len(parts))}):
        depth = len(package.split(".")) if package else 0

        def part(name: str, depth: int = depth, package: str = package) -> str | None:
            inside = not package or name.startswith(package + ".")
            return name.split(".")[depth] if inside and name != package else None

        collapsed: Graph = {}
        for a, targets in graph.items():
            if (pa := part(a)) is not None:
                collapsed.setdefault(pa, set()).update(p for b in targets if (p := part(b)) not in (None, pa))
        out += [[f"{package}.{p}" if package else p for p in group] for group in cycles(collapsed)]
    return out


def crossing_cycles(crossings: list[tuple[str, str]]) -> list[list[str]]:
    """Cycles the crossings draw between top-level packages."""
    graph: Graph = {}
    for src, dst in crossings:
        graph.setdefault(src.split(".")[0], set()).add(dst.split(".")[0])
    return cycles(graph)


LAYERS, CROSSINGS = read_map(DESIGN.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def graph() -> Graph:
    return import_graph()


def test_every_module_belongs_to_a_layer(graph):
    assert unplaced(graph, LAYERS) == []


def test_nothing_imports_from_a_higher_layer(graph):
    assert upward(graph, LAYERS) == []


def test_peers_import_each_other_only_along_the_crossings_of_the_map(graph):
    assert peer_imports(graph, LAYERS, CROSSINGS) == []


def test_every_crossing_is_used_and_they_draw_no_cycle(graph):
    used = {
        (src, dst)
        for src, dst in CROSSINGS
        for a, targets in graph.items()
        if _within(a, src)
        for b in targets
        if _within(b, dst)
    }
    assert (sorted(set(CROSSINGS) - used), crossing_cycles(CROSSINGS)) == ([], [])


def test_no_import_cycle_between_modules_or_parts_of_a_package():
    running = import_graph(runs_only=True)
    assert (module_cycles(running), sibling_cycles(running)) == ([], [])


def test_no_cycle_even_through_type_only_imports_outside_the_engine():
    """Type-only imports count here too: the search's config -> moves -> context cycle is gone (the context
    holds no config); only the engine's round/team <-> roles cycle is left, for its own change."""
    graph = import_graph()
    assert module_cycles(graph) == []
    assert [c for c in sibling_cycles(graph) if not c[0].startswith("engine.")] == []


def test_a_planted_forbidden_import_is_reported(tmp_path):
    """A fake package with one import of each forbidden kind: every checker names it, and only it."""
    files = {
        "__init__.py": "",
        "core/__init__.py": "",
        "core/a.py": "def f():\n    from ..fam1 import x  # upward, lazy\n",
        "fam1/__init__.py": "",
        "fam1/x.py": "from ..fam2 import y\nfrom . import z\n",  # a peer import outside the crossings
        "fam1/z.py": "from .x import X\n",  # x <-> z: a module cycle
        "fam2/__init__.py": "",
        "fam2/y.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..fam1.x import X\n",
        "fam2/w.py": "from ..fam1 import x\n",  # allowed by a crossing
    }
    for name, text in files.items():
        (tmp_path / "pkg" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "pkg" / name).write_text(text)
    layers, crossings = read_map(
        "```layers\n__init__.py   api\nfam1/ fam2/   families\n  more words/\ncore/   base\n```\n"
        "```crossings\nfam2.w -> fam1   a reason\n```\n"
    )
    assert layers == [{"core"}, {"fam1", "fam2"}, {""}] and crossings == [("fam2.w", "fam1")]
    graph = import_graph(tmp_path / "pkg")
    running = import_graph(tmp_path / "pkg", runs_only=True)
    assert upward(graph, layers) == ["core.a -> fam1.x"]
    assert peer_imports(graph, layers, crossings) == ["fam1.x -> fam2.y", "fam2.y -> fam1.x"]
    assert module_cycles(running) == [["fam1.x", "fam1.z"]]
    assert sibling_cycles(running) == [
        ["fam1", "fam2"],
        ["fam1.x", "fam1.z"],
    ]  # fam1.x -> fam2.y, fam2.w -> fam1
    assert "fam2.y" not in {m for c in module_cycles(running) for m in c}  # TYPE_CHECKING never runs
    assert crossing_cycles([("a.m", "b"), ("b", "c"), ("c.n", "a")]) == [["a", "b", "c"]]


def test_a_cycle_between_sub_packages_is_reported():
    """Modules a.p.m -> a.q.n -> a.p.o form no module cycle, but parts p and q of package a import each other."""
    graph = {"a": set(), "a.p.m": {"a.q.n"}, "a.q.n": {"a.p.o"}, "a.p.o": set()}
    assert (module_cycles(graph), sibling_cycles(graph)) == ([], [["a.p", "a.q"]])


def test_import_e2opt_loads_neither_numba_nor_ortools():
    """The public API's names load on first use (e2opt/__init__.py), so ``import e2opt`` stays light."""
    code = "import e2opt, sys; print(sorted(m for m in ('numba', 'ortools') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout == "[]\n"


def test_every_public_name_still_imports():
    import e2opt

    assert [name for name in e2opt.__all__ if getattr(e2opt, name, None) is None] == []
