"""A producer's boards on disk, numbered in the order it made them (``worker<i>/produced/000012.board``).

A producer's construction may change files as it goes (a dfs producer moves its harvest state on and marks
the partials it completed), so a round lost after a board was made (kill -9 of the process, a lost Dask
worker) could not make that board again, and the board would be lost. Each board is therefore written
before the round answers; the round that runs again finds it under its number and hands it over instead
of building another. The files are also the record of every board the producer made.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..core.board import Board, write_board
from ..core.errors import BoardError
from ..core.formats.read import read_board
from ..core.fsutil import atomic_write_text


class ProducedLog:
    """Boards by number in ``folder`` (None: a run without a folder keeps none)."""

    def __init__(self, folder: Path | None):
        self.folder = folder

    def _paths(self, n: int) -> tuple[Path, Path]:
        assert self.folder is not None
        stem = self.folder / f"{n:06d}"
        return stem.with_suffix(".board"), stem.with_suffix(".json")

    def load(self, n: int) -> tuple[Board, dict[str, Any]] | None:
        """Board n and its construction info when a lost round made it already, else None."""
        if self.folder is None:
            return None
        board_path, info_path = self._paths(n)
        if not info_path.exists():  # written last: without it the board may be torn
            return None
        try:
            return read_board(board_path), json.loads(info_path.read_text())
        except (BoardError, OSError, ValueError):
            return None

    def save(self, n: int, board: Board, info: dict[str, Any]) -> None:
        """Board n and its info, atomically, the info last."""
        if self.folder is None:
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        board_path, info_path = self._paths(n)
        write_board(board, board_path)
        atomic_write_text(info_path, json.dumps(info, default=str))
