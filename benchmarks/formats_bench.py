"""CPU cost of the format code on the real puzzle: reading each puzzle format, writing and reading back each
board format, the official-set check and the viewer link (median of 7 repeats, time.process_time, one
process). Run: .venv/bin/python benchmarks/formats_bench.py [--repeats 7]"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from e2opt import read_board, read_puzzle
from e2opt.core.formats.detect import BOARD_WRITERS, PUZZLE_WRITERS, parse_any_board, parse_any_puzzle
from e2opt.core.formats.official import find_official_numbering
from e2opt.core.formats.viewer import viewer_url

ROOT = Path(__file__).resolve().parents[1]


def cpu_ms(fn, repeats: int) -> float:
    """Median CPU milliseconds of ``repeats`` calls of fn."""
    times = []
    for _ in range(repeats):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return 1000 * statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7, help="calls per figure; the median is printed")
    n = parser.parse_args().repeats
    puzzle = read_puzzle(ROOT / "instances" / "eternity2.txt")
    board = read_board(ROOT / "instances" / "boards" / "eternity2_470_Joshua_Blackwood_470.board")
    print(f"| what (eternity2, 16x16) | CPU ms (median of {n}) |")
    print("|---|---|")
    for fmt in ("e2opt", "csv"):
        text = PUZZLE_WRITERS[fmt](puzzle)
        print(f"| read puzzle, {fmt} (detected) | {cpu_ms(lambda t=text: parse_any_puzzle(t, 'p'), n):.1f} |")
    for fmt, write in BOARD_WRITERS.items():
        if fmt == "url":
            print(f"| viewer link | {cpu_ms(lambda: viewer_url(puzzle, board), n):.1f} |")
            continue
        text = write(puzzle, board)
        ms_w = cpu_ms(lambda w=write: w(puzzle, board), n)
        ms_r = cpu_ms(lambda t=text: parse_any_board(t, "b", puzzle), n)
        print(f"| board {fmt}: write / read (detected) | {ms_w:.1f} / {ms_r:.1f} |")

    print(
        f"| official-set check and numbering (uncached) | {cpu_ms(lambda: find_official_numbering(puzzle), n):.1f} |"
    )


if __name__ == "__main__":
    main()
