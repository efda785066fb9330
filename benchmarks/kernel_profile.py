"""Where the DFS kernel spends its time, instruction by instruction: perf's samples mapped onto its machine code.

python benchmarks/kernel_profile.py [SEED] [--placements 3e8] [--top 40] [--asm FILE]

Runs the kernel as ``dfs_rate.py`` does (E2, Blackwood's preset, one attempt) under ``perf record``
(cpu-clock sampling, which works on a VM without hardware counters), then reads the compiled kernel's
address and bytes that the run wrote, keeps the samples that fall inside it and prints the hottest
instructions with their share of the kernel's samples (a sample is charged to the instruction after a slow
one: a load's latency shows on its first user). ``--asm`` writes the whole annotated disassembly.
Needs ``perf`` and ``objdump`` (binutils) on the PATH. numba's JIT code has no symbols for perf; this maps it.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

CODE_BYTES = 65536  # more than the kernel's machine code; the tail past it is never sampled


def mapped_after(addr: int) -> int:
    """Bytes from ``addr`` to the end of this process's memory mapping that holds it (reading past would fault)."""
    for line in Path("/proc/self/maps").read_text().splitlines():
        lo, hi = (int(x, 16) for x in line.split()[0].split("-"))
        if lo <= addr < hi:
            return hi - addr
    raise RuntimeError(f"address {addr:#x} is in no mapping of this process")


def child(seed: int, placements: int, out: Path) -> None:
    """Compile and warm the kernel, write its entry and code bytes to ``out``, then run it."""
    from e2opt import read_puzzle
    from e2opt.construct.dfs import kernel
    from e2opt.construct.dfs.config import DfsConfig
    from e2opt.construct.dfs.longrun import LongRun
    from e2opt.construct.dfs.recipes import preset_recipe

    puzzle = read_puzzle(Path(__file__).resolve().parents[1] / "instances" / "eternity2.txt")
    cfg = DfsConfig(recipe="blackwood", abort=(), privileged=None)
    run = LongRun(puzzle, preset_recipe(cfg, puzzle, "blackwood"), cfg.harvest, seed)
    run.run(max_nodes=1000)
    (cres,) = kernel._dfs.overloads.values()  # the plain variant, the preset's
    entry = cres.library.get_pointer_to_function(cres.fndesc.llvm_func_name)
    (out / "code.bin").write_bytes(ctypes.string_at(entry, min(CODE_BYTES, mapped_after(entry))))
    began = time.process_time()
    summary = run.run(max_nodes=placements, chunk=1 << 21)
    rate = summary.nodes / (time.process_time() - began) / 1e6
    (out / "entry.json").write_text(json.dumps({"entry": entry, "rate": rate, "deepest": summary.deepest}))


def annotate(out: Path) -> tuple[list[tuple[int, str]], Counter, dict]:
    """The kernel's instructions (offset, text) and its samples by offset."""
    info = json.loads((out / "entry.json").read_text())
    ips = subprocess.run(
        ["perf", "script", "-i", str(out / "perf.data"), "-F", "ip"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    hits = Counter(int(ip, 16) - info["entry"] for ip in ips)
    size = (out / "code.bin").stat().st_size
    hits = Counter({off: n for off, n in hits.items() if 0 <= off < size})
    info["samples"], info["inside"] = len(ips), sum(hits.values())
    asm = subprocess.run(
        ["objdump", "-D", "-b", "binary", "-m", "i386:x86-64", str(out / "code.bin")],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    lines = []
    for line in asm.splitlines():
        m = re.match(r"\s*([0-9a-f]+):\s+(?:[0-9a-f]{2} )+\s*(.*)", line)
        if m:
            lines.append((int(m.group(1), 16), m.group(2).strip()))
    return lines, hits, info


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("seed", type=int, nargs="?", default=2)
    ap.add_argument("--placements", type=float, default=3e8)
    ap.add_argument("--top", type=int, default=40)
    ap.add_argument("--asm", type=Path)
    ap.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.seed, int(args.placements), args.child)
        return
    missing = [tool for tool in ("perf", "objdump") if shutil.which(tool) is None]
    if missing:
        sys.exit(f"kernel_profile: {' and '.join(missing)} not found on the PATH")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        me = [sys.executable, __file__, str(args.seed), "--placements", str(args.placements), "--child", tmp]
        subprocess.run(["perf", "record", "-q", "-o", str(out / "perf.data"), "--", *me], check=True)
        lines, hits, info = annotate(out)
    total = max(info["inside"], 1)
    print(f"seed {args.seed}: {info['rate']:.1f} M placements/CPU s, deepest {info['deepest']}; "
          f"{info['inside']:,} of {info['samples']:,} samples in the kernel")  # fmt: skip
    for off, text in sorted(lines, key=lambda x: -hits[x[0]])[: args.top]:
        print(f"{100 * hits[off] / total:6.2f} %  {off:6x}  {text}")
    if args.asm:
        args.asm.write_text("".join(f"{100 * hits[o] / total:6.2f} {o:6x}  {t}\n" for o, t in lines))


if __name__ == "__main__":
    main()
