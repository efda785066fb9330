"""The package's layers (docs/design.md): data flows down, nothing imports upward, and no module-level
import cycle. The import graph is read from the source with ``ast`` (lazy imports inside functions too), so
this test is also the tool: ``python -m pytest tests/test_layers.py -q`` reruns it."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "e2opt"
# lowest first; a module may import from its own layer and the layers below it
LAYERS = (
    ("core",),
    ("config",),
    ("cpsat",),
    ("construct", "search", "exact", "clique"),
    ("engine",),
    ("sweep", "bench"),
    ("cli",),
    ("", "__main__"),  # the public API (e2opt/__init__.py) and python -m e2opt
)


def modules() -> dict[str, Path]:
    """Dotted module names under e2opt (without the e2opt. prefix; '' is the package) -> file."""
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def imports(name: str, path: Path, known: set[str], top_level_only: bool) -> set[str]:
    """The e2opt modules that ``name`` imports (a package's name when a name is not a module)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = tree.body if top_level_only else list(ast.walk(tree))
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found = set()
    for node in nodes:
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            elif node.module and (node.module == "e2opt" or node.module.startswith("e2opt.")):
                target = node.module[len("e2opt.") :] if node.module != "e2opt" else ""
            else:
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}" if target else alias.name
                found.add(sub if sub in known else target)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("e2opt."):
                    found.add(alias.name[len("e2opt.") :])
    found.discard(name)
    return found


def layer(name: str) -> int:
    top = name.split(".")[0]
    return next(i for i, names in enumerate(LAYERS) if top in names)


def test_every_module_belongs_to_a_layer():
    assert all(layer(name) >= 0 for name in modules())


def test_nothing_imports_from_a_higher_layer():
    mods = modules()
    upward = [
        f"{name} -> {target}"
        for name, path in mods.items()
        for target in imports(name, path, set(mods), top_level_only=False)
        if layer(target) > layer(name)
    ]
    assert upward == []


def test_no_module_level_import_cycle():
    mods = modules()
    graph = {name: imports(name, path, set(mods), top_level_only=True) for name, path in mods.items()}
    cycles, state = [], {}

    def visit(node: str, stack: list[str]) -> None:
        state[node] = "open"
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == "open":
                cycles.append([*stack[stack.index(nxt) :], nxt])
            elif nxt not in state:
                visit(nxt, [*stack, nxt])
        state[node] = "done"

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    # a package's __init__ re-exporting its modules is not a cycle of logic
    real = [c for c in cycles if not any(c[i] == c[i + 1].rsplit(".", 1)[0] for i in range(len(c) - 1))]
    assert real == []
