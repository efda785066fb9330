"""The moves of the search, one module each; ``build_moves`` makes those the config enables.

A new move is one module with a Move subclass, one line in MODULES and one field in config.MovesConfig;
the loop does not change. Modules are imported only when enabled (CP-SAT moves import ortools).
"""

from __future__ import annotations

import importlib

from ..context import SearchContext
from .base import Move

MODULES = {
    "assignment": ("assignment", "AssignmentMove"),
    "checkerboard": ("assignment", "CheckerboardMove"),
    "tsr": ("tsr", "TsrMove"),
    "region": ("region", "RegionMove"),
    "border": ("border", "BorderMove"),
    "clique": ("clique", "CliqueMove"),
}


def build_moves(ctx: SearchContext) -> list[Move]:
    """One Move object per enabled move of ctx.cfg.moves, in MovesConfig order."""
    out = []
    for name, settings in ctx.cfg.moves.enabled():
        module, cls = MODULES[name]
        out.append(getattr(importlib.import_module(f"{__name__}.{module}"), cls)(ctx, settings))
    return out
