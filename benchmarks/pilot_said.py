"""What a run's producer pilots chose, a line each: python benchmarks/pilot_said.py RUN_DIR.

Reads every ``worker*/harvest/recipe.json`` of the folder (the pilot's report, build.resolve): the chosen
candidate, its trial's pieces and, when it ran, what the quota stage found; "no pilot" when the folder has
none (a preset recipe, or no producer). hour_table.py and dfs_pipeline.sh print these lines."""

from __future__ import annotations

import json
import sys
from pathlib import Path


def pilot_lines(run_dir: Path) -> list[str]:
    """One line per producer whose pilot chose a recipe."""
    lines = []
    for recipe in sorted(run_dir.glob("worker*/harvest/recipe.json")):
        report = json.loads(recipe.read_text(encoding="utf-8")).get("report", {})
        chosen = report.get("chosen")
        if chosen:
            placed = {t["knobs"]: t for t in report.get("trials", [])}.get(chosen, {}).get("placed")
            stage = f"; quota stage: {report['quota_stage']}" if "quota_stage" in report else ""
            lines.append(
                f"pilot ({recipe.parent.parent.name}): {chosen}; {placed} pieces in the pilot{stage}"
            )
    return lines


if __name__ == "__main__":
    print("; ".join(pilot_lines(Path(sys.argv[1]))) or "no pilot")
