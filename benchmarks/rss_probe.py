"""Resident memory of a command over time (docs/runs.md): does a long run stay flat?

Starts the command, reads VmRSS of it and its children from /proc every ``--every`` seconds, and
writes one CSV line per sample (elapsed seconds, RSS in MB). At the end it prints the first sample
after ``--settle`` seconds, the last and the largest, and the growth between them. Linux only.

    python benchmarks/rss_probe.py --every 30 --out rss.csv -- e2opt run config/eternity2.yaml --max-wall-s 1800 --quiet
"""

from __future__ import annotations

import argparse
import subprocess
import time
from pathlib import Path


def rss_mb(pid: int) -> float:
    """VmRSS of a process and all its descendants, in MB (0 for a process that is gone)."""
    total = 0.0
    pending = [pid]
    while pending:
        current = pending.pop()
        try:
            status = Path(f"/proc/{current}/status").read_text()
            children = Path(f"/proc/{current}/task/{current}/children").read_text().split()
        except OSError:
            continue
        for line in status.splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1]) / 1024
        pending.extend(int(child) for child in children)
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=float, default=30.0, help="seconds between samples")
    parser.add_argument("--settle", type=float, default=60.0, help="growth is counted from this time on")
    parser.add_argument("--out", required=True, help="CSV file of the samples")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="the command, after --")
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    start = time.perf_counter()
    proc = subprocess.Popen(command)
    samples: list[tuple[float, float]] = []
    with open(args.out, "w", encoding="utf-8") as out:
        out.write("elapsed_s,rss_mb\n")
        while proc.poll() is None:
            sample = (time.perf_counter() - start, rss_mb(proc.pid))
            if sample[1] > 0:
                samples.append(sample)
                out.write(f"{sample[0]:.1f},{sample[1]:.1f}\n")
                out.flush()
            time.sleep(args.every)
    settled = [s for s in samples if s[0] >= args.settle] or samples
    first, last = settled[0], settled[-1]
    peak = max(rss for _, rss in samples)
    print(
        f"exit {proc.returncode}; {len(samples)} samples; RSS at {first[0]:.0f} s {first[1]:.1f} MB, "
        f"at {last[0]:.0f} s {last[1]:.1f} MB (growth {last[1] - first[1]:+.1f} MB), peak {peak:.1f} MB"
    )


if __name__ == "__main__":
    main()
