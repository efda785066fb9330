"""Where ``e2opt solve -o DIR`` writes its boards: DIR/<puzzle>_<k>.board, never over an existing file."""

from __future__ import annotations

from pathlib import Path

from .board import Board, format_board
from .errors import E2optError


class BoardWriter:
    """Numbers the boards from 1; refuses a folder that already holds boards of this puzzle."""

    def __init__(self, folder: str, puzzle_name: str):
        self.folder, self.name, self.k = Path(folder), puzzle_name, 0
        if self.folder.exists() and not self.folder.is_dir():
            raise E2optError(f"-o {folder}: exists and is not a folder")
        old = sorted(self.folder.glob(f"{puzzle_name}_*.board")) if self.folder.is_dir() else []
        if old:
            raise E2optError(
                f"-o {folder}: already holds {old[0].name}; refusing to overwrite, use another folder"
            )
        self.folder.mkdir(parents=True, exist_ok=True)

    def __call__(self, board: Board) -> None:
        self.k += 1
        path = self.folder / f"{self.name}_{self.k}.board"
        try:
            with open(path, "x", encoding="utf-8") as out:
                out.write(format_board(board))
        except FileExistsError:
            raise E2optError(f"{path}: exists, refusing to overwrite") from None
