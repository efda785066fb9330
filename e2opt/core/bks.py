"""Best known scores per shipped instance, read from the bks.csv packaged with e2opt.

``e2opt/data/bks.csv`` is the copy read at run time (it ships in the wheel); ``instances/bks.csv`` is the
human copy next to the instances, and a test keeps the two identical.
"""

from __future__ import annotations

import csv
import io
import os
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path


@dataclass(frozen=True)
class BestKnown:
    """Best known score of one instance and where that figure comes from."""

    instance: str
    max_score: int
    best_known: int
    source: str


@cache
def table() -> dict[str, BestKnown]:
    """All rows of the packaged bks.csv, keyed by instance name (the puzzle file's stem)."""
    text = resources.files("e2opt").joinpath("data", "bks.csv").read_text(encoding="utf-8")
    rows = csv.DictReader(io.StringIO(text))
    return {
        row["instance"]: BestKnown(
            row["instance"], int(row["max_score"]), int(row["best_known"]), row["source"]
        )
        for row in rows
    }


def best_known(name_or_puzzle) -> BestKnown | None:
    """The best known entry for a Puzzle (by its name), an instance name or a puzzle file path; else None."""
    if isinstance(name_or_puzzle, str | os.PathLike):
        return table().get(Path(name_or_puzzle).stem)
    return table().get(name_or_puzzle.name)
