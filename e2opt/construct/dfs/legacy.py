"""The sections of the two constructions the DFS replaced, ``construct.breakdfs`` and ``construct.backtrack``,
translated once when a config is read (config/translate.py): the section the run's construction (or its
producers') used becomes ``construct.dfs`` with its preset (``recipe: blackwood`` or ``backtrack``) and the
same board for the same seed; a section no construction used, as every run folder of those versions dumped,
is dropped. Old run folders load this way; nothing else reads these sections.
"""

from __future__ import annotations

from typing import Any

from ...core.errors import ConfigError
from .recipes import BACKTRACK_BREAKS, BLACKWOOD_BREAKS, BLACKWOOD_QUOTA

# every key of the old sections with its default there (the section's keys given override these)
BREAKDFS: dict[str, Any] = {
    "order": "blackwood", "teeth": 5, "scale_from": 256, "breaks": BLACKWOOD_BREAKS, "piece_breaks": 1,
    "frame_colour_breaks": False, "privileged": (), "privileged_frame": 1, "privileged_inner": 2,
    "quota": BLACKWOOD_QUOTA, "quota_on": "colours", "good_pieces": None, "node_budget": 50_000_000_000,
    "abort": (), "time_limit_s": 60.0, "max_attempts": None, "harvest": {},
}  # fmt: skip
BACKTRACK: dict[str, Any] = {
    "order": "comb", "teeth": 2, "breaks": BACKTRACK_BREAKS, "frame_breaks": False, "touching_breaks": False,
    "piece_breaks": 1, "quota_colours": (), "quota_auto": 3, "quota": (), "node_budget": 20_000_000,
    "abort": ((0.05, 0.35), (0.15, 0.5), (0.4, 0.59), (0.7, 0.645)), "time_limit_s": 60.0,
    "max_restarts": None, "finish_width": 1024, "finish_cpsat_s": 0.0,
}  # fmt: skip
OLD = {"breakdfs": BREAKDFS, "backtrack": BACKTRACK}


def _old_method(method: Any) -> bool:
    """``method`` names one of the old sections."""
    return isinstance(method, str) and method in OLD


def _number(value: Any) -> bool:
    """A finite int or float (not a bool), as a node count and its fractions must be."""
    return isinstance(value, int | float) and not isinstance(value, bool) and abs(value) < 2**63


def _refuse(source: str, key: str, problem: str) -> None:
    """ConfigError naming the file and ``construct.backtrack.<key>``."""
    where = f"construct.backtrack.{key}"
    raise ConfigError(f"{source}: key '{where}': {problem}", where, problem)


def _breakdfs(given: dict[str, Any]) -> dict[str, Any]:
    """A breakdfs section as the construct.dfs section that builds the same board (Blackwood's recipe)."""
    fixed = {"recipe": "blackwood", "frame_breaks": True, "touching_breaks": True, "clue_breaks": 0}
    section = fixed | BREAKDFS | given
    section["time_limit_cpu_s"] = section.pop("time_limit_s")  # CPU seconds there too
    return section


def _backtrack(given: dict[str, Any], source: str) -> dict[str, Any]:
    """A backtrack section as the construct.dfs section that builds the same board: depths there are
    positions here, ``abort`` node fractions placements, ``quota_colours`` the privileged colours,
    ``finish_width`` and ``finish_cpsat_s`` the completion of the one harvested partial."""
    old = BACKTRACK | given
    budget, abort = old["node_budget"], old["abort"]
    if not (_number(budget) and isinstance(budget, int)):
        _refuse(source, "node_budget", f"expected an integer, got {budget!r}")
    try:
        if not all(_number(frac) for frac, _ in abort):
            raise TypeError
        abort = [[max(1, int(frac * budget)), at] for frac, at in abort]
    except (TypeError, ValueError):
        _refuse(source, "abort", f"expected [node fraction, position] pairs, got {abort!r}")
    return {
        "recipe": "backtrack", "order": old["order"], "teeth": old["teeth"], "scale_from": None,
        "breaks": old["breaks"], "piece_breaks": old["piece_breaks"], "frame_breaks": old["frame_breaks"],
        "frame_colour_breaks": True, "touching_breaks": old["touching_breaks"], "clue_breaks": 0,
        "privileged": old["quota_colours"], "privileged_frame": 0, "privileged_inner": old["quota_auto"],
        "quota": old["quota"], "quota_on": "colours", "node_budget": budget, "abort": abort,
        "time_limit_cpu_s": old["time_limit_s"], "max_attempts": old["max_restarts"],
        "harvest": {"complete": 1, "cpsat_wall_s": old["finish_cpsat_s"], "neighbours": False,
                    "beam_width": old["finish_width"], "repair_cpu_s": 0.0},
    }  # fmt: skip


def translate_old_sections(data: dict, source: str) -> list[tuple[str, str]]:
    """Replace ``construct.breakdfs`` / ``construct.backtrack`` in ``data`` (in place) by what they meant; the
    (old, new) pairs. A construction (or run.roles.method) naming one: that section becomes construct.dfs;
    an unused one is dropped; two in use at once, or a key those sections never had, is refused."""
    construct = data.get("construct")
    if not isinstance(construct, dict):
        return []
    roles = (data.get("run") or {}).get("roles") if isinstance(data.get("run"), dict) else None
    users = {"construct.method": construct}
    if isinstance(roles, dict):
        users["run.roles.method"] = roles
    used = {key: owner["method"] for key, owner in users.items() if _old_method(owner.get("method"))}
    if len(set(used.values())) > 1:
        problem = "construct.breakdfs and construct.backtrack cannot both run: give one construct.dfs section"
        raise ConfigError(f"{source}: key 'run.roles.method': {problem}", "run.roles.method", problem)
    moved = []
    for name in OLD:
        if name not in construct and name not in used.values():
            continue
        section = construct.pop(name, None) or {}
        if not isinstance(section, dict):
            problem = f"expected a mapping, got {section!r}"
            raise ConfigError(f"{source}: key 'construct.{name}': {problem}", f"construct.{name}", problem)
        if name not in used.values():
            moved.append((f"construct.{name}", "nothing (no construction used it)"))
            continue
        unknown = sorted(set(section) - set(OLD[name]))
        if unknown:
            key = f"construct.{name}.{unknown[0]}"
            problem = f"unknown key '{key}' (known here: {', '.join(sorted(OLD[name]))})"
            raise ConfigError(f"{source}: {problem}", key, problem)
        construct["dfs"] = _breakdfs(section) if name == "breakdfs" else _backtrack(section, source)
        recipe = construct["dfs"]["recipe"]
        moved.append((f"construct.{name}", f"construct.dfs (recipe: {recipe})"))
        for key, owner in users.items():
            if owner.get("method") == name:
                owner["method"] = "dfs"
                moved.append((f"{key}: {name}", f"{key}: dfs"))
    return moved
