"""Two breakdfs kernels side by side on one fixed tree: E2, Blackwood's recipe, the same placements.

python docs/breakdfs_rate_ab.py COMMIT [SEED] [PLACEMENTS]   (defaults: seed 14, 3e8 placements)

The kernel of COMMIT (git show COMMIT:e2opt/breakdfs/kernel.py, loaded as its own module) and the working
tree's kernel each drive their own BreakDfs over the same tree; they take turns chunk by chunk (2^21
placements), so both see the same machine load. Checks that both made the same placements to the same
state (depth, deepest, the harvested boards), then prints per band the placements per CPU s of each
(band = depth at the end of the chunk, < 150, 150-200, > 200).
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

from e2opt.breakdfs import engine
from e2opt.breakdfs import kernel as new_kernel
from e2opt.breakdfs.config import BreakDfsConfig
from e2opt.core.puzzle import read_puzzle

ROOT = Path(__file__).resolve().parents[1]
CHUNK = 1 << 21


def old_kernel(commit: str):
    """The kernel module as it was at ``commit``."""
    text = subprocess.run(["git", "show", f"{commit}:e2opt/breakdfs/kernel.py"], cwd=ROOT, check=True,
                          capture_output=True, text=True).stdout  # fmt: skip
    text = text.replace("from ..search.kernels import below", "from e2opt.search.kernels import below")
    path = Path(tempfile.mkdtemp()) / f"kernel_{commit[:8]}.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def band(depth: int) -> str:
    return "<150" if depth < 150 else ("150-200" if depth <= 200 else ">200")


def main() -> None:
    commit = sys.argv[1]
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 14
    total = int(float(sys.argv[3])) if len(sys.argv) > 3 else 3 * 10**8
    puzzle = read_puzzle(ROOT / "instances" / "eternity2.txt")
    kernels = {"before": old_kernel(commit), "after": new_kernel}
    runs = {name: engine.BreakDfs(puzzle, BreakDfsConfig(), seed) for name in kernels}
    before = runs["before"]  # its entries as int32, as they were before commit 5ac1694's int16 lists
    before.lists = replace(before.lists, ent=before.lists.ent.astype(np.int32))
    for name, kern in kernels.items():  # compile / load outside the timing
        engine.k = kern
        runs[name].step(1000)  # the same 1000 placements for both
    rates = {name: {b: [0, 0.0] for b in ("<150", "150-200", ">200")} for name in kernels}
    found = {name: [] for name in kernels}
    while min(r.nodes for r in runs.values()) < total:
        for name, kern in kernels.items():
            engine.k = kern
            run = runs[name]
            size = min(CHUNK, total - run.nodes)
            t0, n0 = time.process_time(), run.nodes
            found[name] += [(len(f.codes), f.joins) for f in run.step(size)]
            cpu = time.process_time() - t0
            slot = rates[name][band(int(run.st[7][new_kernel.DEPTH]))]
            slot[0] += run.nodes - n0
            slot[1] += cpu
    engine.k = new_kernel
    a, b = runs["before"], runs["after"]
    same = (a.nodes == b.nodes and a.attempts == b.attempts and np.array_equal(a.st[4], b.st[4])
            and np.array_equal(a.st[8], b.st[8]) and found["before"] == found["after"])  # fmt: skip
    print(f"seed {seed}, {total:,} placements each, before = {commit[:8]}; same placements and state: {same}")
    for name in kernels:
        n = sum(v[0] for v in rates[name].values())
        t = sum(v[1] for v in rates[name].values())
        parts = "  ".join(f"{bd} {v[0] / max(v[1], 1e-9) / 1e6:5.1f} M/s ({v[1]:5.1f} s)" for bd, v in rates[name].items())
        print(f"  {name:>6}: all {n / t / 1e6:5.1f} M/s  {parts}")
    if not same:
        sys.exit(1)


if __name__ == "__main__":
    main()
