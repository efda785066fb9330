"""kill -9 a worker process at random moments of a run of several workers; memory of every process over time.

Usage: python benchmarks/workers_kill.py [--kills 5] [--seed 1] --runtime S --runs-dir EMPTY_DIR OUT.jsonl -- CONFIG [run options]
Starts ``python -m e2opt run ...`` (which must run with 2+ workers), samples the resident memory of the
run's process and of its workers every 10 s, and at ``--kills`` random moments (uniform in the middle 80 %
of ``--max-wall-s``; a moment before the run's first best waits for it) sends SIGKILL to a random live
worker after noting the run's best so far (from events.jsonl). Writes one JSON line per sample and per kill, then the final result and whether the final
best is >= every best noted before a kill.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from e2opt.engine.events import read_events


def rss_mb(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def children(pid: int) -> list[int]:
    """Worker processes of the run: the children of its forkserver (the run's child that forks them)."""

    def pgrep(*args: str) -> list[int]:
        return [
            int(p) for p in subprocess.run(["pgrep", *args], capture_output=True, text=True).stdout.split()
        ]

    return [
        worker
        for server in pgrep("-P", str(pid), "-f", "multiprocessing.forkserver")
        for worker in pgrep("-P", str(server))
    ]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--kills", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runtime", type=float, required=True, help="the run's --max-wall-s")
    parser.add_argument("--runs-dir", required=True, help="the run's --runs-dir (empty before)")
    parser.add_argument("args", nargs=argparse.REMAINDER)
    opts = parser.parse_args()
    rng = random.Random(opts.seed)
    moments = sorted(rng.uniform(0.1, 0.9) * opts.runtime for _ in range(opts.kills))
    args = opts.args[1:] if opts.args[:1] == ["--"] else opts.args
    cmd = [sys.executable, "-m", "e2opt", "run", *args, "--quiet", "--runs-dir", opts.runs_dir]
    cmd += ["--max-wall-s", str(opts.runtime)]
    start = time.time()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    log = open(opts.out, "w")  # noqa: SIM115
    next_sample, bests = 0.0, []
    while proc.poll() is None:
        now = time.time() - start
        if now >= next_sample:
            next_sample += 10
            pids = children(proc.pid)
            sample = {"t": round(now, 1), "run_mb": rss_mb(proc.pid), "workers_mb": [rss_mb(p) for p in pids]}
            log.write(json.dumps(sample) + "\n")
        run_dir = next(Path(opts.runs_dir).iterdir(), None)
        if moments and now >= moments[0] and run_dir is not None:  # a kill waits for the run folder,
            best = max((e["score"] for e in read_events(run_dir) if e.get("event") == "best"), default=None)
            pids = children(proc.pid)
            if pids and best is not None:  # its first best and a live worker (else it waits: no kill is lost)
                moments.pop(0)
                victim = rng.choice(pids)
                os.kill(victim, signal.SIGKILL)
                bests.append(best)
                log.write(json.dumps({"t": round(now, 1), "kill": victim, "best_before": best}) + "\n")
        log.flush()
        time.sleep(0.5)
    _, err = proc.communicate()
    run_dir = next(Path(opts.runs_dir).iterdir())
    result = json.loads((run_dir / "result.json").read_text())
    lost = sum(1 for e in read_events(run_dir) if e.get("event") == "worker_lost")
    summary = {
        "exit": proc.returncode,
        "best_score": result["best_score"],
        "bests_before_kills": bests,
        "final_ge_every_earlier": all(result["best_score"] >= b for b in bests),
        "worker_lost_events": lost,
        "workers": result.get("workers"),
        "wall_s": result["wall_s"],
        "cpu_s": result["cpu_s"],
        "stderr": err[-500:],
    }
    log.write(json.dumps(summary) + "\n")
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
