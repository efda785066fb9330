"""Boards a run's producers made, new and repeated, per hour of the run (the table in docs/pipeline.md).

python benchmarks/repeats_per_hour.py RUN_DIR [--hours 1]

A producer keeps every board it hands over, in order, in ``worker<i>/produced/NNNNNN.board``; the run counts
a board once, by its key, so only a board's first copy has a ``produced`` event in ``events.jsonl``. The k-th
new board of a worker is its k-th ``produced`` event, whose ``wall_s`` places it in an hour; a repeat is
placed at the wall time of the next new board of its worker (it was made before that one), or of the
worker's last event when no new board follows. Since commit 38b442b a call throws away a completion that
repeats a board made before on the folder and completes the next partial (at most 4 times); the board's
``.json`` counts them (``repeats``, the handed-over board included when it is a repeat too): "thrown away".
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

from e2opt.construct.dfs.harvest import board_entry
from e2opt.core.formats.read import read_board
from e2opt.engine.events import read_events


def produced_events(run_dir: Path) -> dict[int, list[dict]]:
    """The ``produced`` events of each worker, in order."""
    events: dict[int, list[dict]] = defaultdict(list)
    for event in read_events(run_dir):
        if event.get("event") == "produced":
            events[int(event["worker"])].append(event)
    return events


def made_boards(run_dir: Path, worker: int) -> list[tuple[bool, int]]:
    """Per board of the worker's ``produced/`` folder, in order: whether no earlier one equals it, and the
    completions its call threw away as repeats."""
    seen: set[str] = set()
    made = []
    for path in sorted((run_dir / f"worker{worker}" / "produced").glob("*.board")):
        key = board_entry(read_board(path)).key
        info = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
        thrown = int(info.get("repeats", 0)) - int(bool(info.get("completion", {}).get("repeated")))
        made.append((key not in seen, thrown))
        seen.add(key)
    return made


def per_hour(run_dir: Path, hours: float) -> dict[int, list[int]]:
    """Per hour index: [boards made, repeats handed over, completions thrown away]."""
    rows: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0])
    for worker, events in produced_events(run_dir).items():
        made = made_boards(run_dir, worker)
        new = sum(is_new for is_new, _ in made)
        if new != len(events):
            raise SystemExit(
                f"worker{worker}: {new} new boards in produced/ but {len(events)} produced events"
            )
        k = 0
        for is_new, thrown in made:
            event = events[min(k, len(events) - 1)]
            row = rows[int(event["wall_s"] // (3600 * hours))]
            row[0] += 1
            row[1] += not is_new
            row[2] += thrown
            k += is_new
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run_dir", type=Path)
    ap.add_argument("--hours", type=float, default=1.0, help="width of a row in hours")
    args = ap.parse_args()
    rows = per_hour(args.run_dir, args.hours)
    print("| hour | boards made | repeats handed over | new (counted) | completions thrown away |")
    print("|---|---|---|---|---|")
    for index in sorted(rows):
        made, repeats, thrown = rows[index]
        span = f"{index * args.hours:g}-{(index + 1) * args.hours:g} h"
        print(f"| {span} | {made} | {repeats} | {made - repeats} | {thrown} |")


if __name__ == "__main__":
    main()
