"""Kill counts of a mutmut run, per module, from the .meta files mutmut leaves under mutants/ (docs/mutation.md).

python benchmarks/mutation_counts.py [mutants/e2opt]
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path


def outcome(exit_code: int | None) -> str:
    """mutmut's exit codes: None not run yet, 0 the tests passed (survived), 1 or 3 a test failed (killed)."""
    if exit_code is None:
        return "not run"
    return "survived" if exit_code == 0 else ("killed" if exit_code in (1, 3) else f"exit {exit_code}")


def main() -> None:
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else "mutants/e2opt")
    total: Counter[str] = Counter()
    print("| module | mutants | killed | survived | not run | kill rate of those run |")
    print("|---|---|---|---|---|---|")
    for meta in sorted(folder.glob("*.meta")):
        counts = Counter(outcome(code) for code in json.loads(meta.read_text())["exit_code_by_key"].values())
        total.update(counts)
        ran = counts["killed"] + counts["survived"]
        rate = f"{100 * counts['killed'] / ran:.1f}%" if ran else "-"
        name = meta.name.removesuffix(".meta")
        print(
            f"| {name} | {counts.total()} | {counts['killed']} | {counts['survived']} | {counts['not run']} | {rate} |"
        )
    ran = total["killed"] + total["survived"]
    rate = f"{100 * total['killed'] / ran:.1f}%" if ran else "-"
    print(
        f"| all | {total.total()} | {total['killed']} | {total['survived']} | {total['not run']} | {rate} |"
    )


if __name__ == "__main__":
    main()
