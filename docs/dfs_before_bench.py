"""The breakdfs construction of commit 012ce0b (before issue 32), measured as docs/dfs_bench.py measures construct.dfs.

git worktree add --detach /tmp/before 012ce0b
cd /tmp/before && PYTHONPATH=. python /path/to/e2opt/docs/dfs_before_bench.py instances/eternity2.txt 1 2 3 \\
    >> /path/to/e2opt/docs/dfs_data/before_e2.jsonl
(``--config config/eternity2.yaml``: that config's producer section, as a user pointing it at another puzzle got.)
It imports e2opt.breakdfs, which exists only at that commit: run it with that worktree first on the path, after
one short run of the same DFS so that its numba kernels are compiled outside the timing.
"""

import json
import sys
import time
from dataclasses import replace

import numpy as np
from e2opt.breakdfs.config import HarvestConfig
from e2opt.breakdfs.construct import build_breakdfs

from e2opt.core.board import score
from e2opt.core.formats.read import read_puzzle
from e2opt.engine.loader import load_config

config = (
    sys.argv[sys.argv.index("--config") + 1] if "--config" in sys.argv else "config/eternity2_blackwood.yaml"
)
args = [a for a in sys.argv[1:] if a not in ("--config", config)]
cfg = load_config(config).construct.breakdfs
cfg = replace(cfg, time_limit_s=60.0, harvest=HarvestConfig(complete=1, cpsat_s=5.0, repair_s=10.0))
p = read_puzzle(args[0])
for seed in map(int, args[1:]):
    t = time.process_time()
    b, info = build_breakdfs(p, cfg, np.random.default_rng(seed), 120.0, None, None)
    print(
        json.dumps(
            {
                "code": "before",
                "puzzle": p.name,
                "seed": seed,
                "placed": info["best_placed"],
                "score": score(p, b),
                "nodes_per_s": info["nodes_per_s"],
                "bands": info["band_nodes_per_s"],
                "cpu_s": round(time.process_time() - t, 1),
            }
        ),
        flush=True,
    )
