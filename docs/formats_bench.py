"""CPU cost of the format code on the real puzzle: reading each puzzle format, writing and reading back each
board format, the official-set check and the viewer link (median of 7 repeats, time.process_time, one
process). Run: .venv/bin/python docs/formats_bench.py"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

from e2opt.core.formats.detect import BOARD_WRITERS, PUZZLE_WRITERS, parse_any_board, parse_any_puzzle
from e2opt.core.formats.official import _official_cached
from e2opt.core.formats.read import read_board, read_puzzle
from e2opt.core.formats.viewer import viewer_url

ROOT = Path(__file__).resolve().parents[1]


def cpu_ms(fn, repeats: int = 7) -> float:
    times = []
    for _ in range(repeats):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return 1000 * statistics.median(times)


def main() -> None:
    puzzle = read_puzzle(ROOT / "instances" / "eternity2.txt")
    board = read_board(ROOT / "instances" / "boards" / "eternity2_470_Joshua_Blackwood_470.board")
    print("| what (eternity2, 16x16) | CPU ms (median of 7) |")
    print("|---|---|")
    for fmt in ("e2opt", "csv"):
        text = PUZZLE_WRITERS[fmt](puzzle)
        print(f"| read puzzle, {fmt} (detected) | {cpu_ms(lambda t=text: parse_any_puzzle(t, 'p')):.1f} |")
    for fmt, write in BOARD_WRITERS.items():
        if fmt == "url":
            print(f"| viewer link | {cpu_ms(lambda: viewer_url(puzzle, board)):.1f} |")
            continue
        text = write(puzzle, board)
        ms_w = cpu_ms(lambda w=write: w(puzzle, board))
        ms_r = cpu_ms(lambda t=text: parse_any_board(t, "b", puzzle))
        print(f"| board {fmt}: write / read (detected) | {ms_w:.1f} / {ms_r:.1f} |")

    def official() -> None:
        _official_cached.cache_clear()
        _official_cached(puzzle)

    print(f"| official-set check and numbering (uncached) | {cpu_ms(official):.1f} |")


if __name__ == "__main__":
    main()
