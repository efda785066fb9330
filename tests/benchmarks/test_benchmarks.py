"""Smoke runs of every script in benchmarks/: each runs once on a tiny instance with a tiny budget, its outputs
in tmp_path (never in benchmarks/results/), and what it promises is checked (exit 0, a result line, JSON keys).
A script added to benchmarks/ without an entry in SMOKE fails test_every_script_has_a_smoke_run."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "benchmarks"
INST = ROOT / "instances"
E2 = str(INST / "eternity2.txt")
E2_BOARD = str(INST / "boards" / "eternity2_470_Joshua_Blackwood_470.board")
SET1_3 = str(INST / "brendan_set1" / "set1_03x03.txt")
SET1_4 = str(INST / "brendan_set1" / "set1_04x04.txt")
CONFIG = str(ROOT / "config" / "eternity2.yaml")
PLACES = {
    "python": sys.executable, "root": str(ROOT), "instances": str(INST), "e2": E2, "e2_board": E2_BOARD,
    "set1_3": SET1_3, "set1_4": SET1_4, "set2_3": str(INST / "brendan_set2" / "set2_03x03.txt"), "config": CONFIG,
}  # fmt: skip


def jsonl(path: Path) -> list[dict]:
    """The JSON lines of a file."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def check_bad_inputs(tmp: Path, out: str) -> None:
    page = (tmp / "bad.md").read_text(encoding="utf-8")
    assert "**2 cases, 1 families: 2 pass, 0 fail;" in page
    assert page.count("| 2 | `e2opt: error: ") == 2


def check_clique(tmp: Path, out: str) -> None:
    (line,) = jsonl(tmp / "c.jsonl")
    assert line["puzzle"] == "set2_03x03" and line["max_joins"] == 12
    assert [m["q"] for m in line["runs"][0]["marks"]] == [1000, 2000]
    assert "set2_03x03 cpsat: {'joins': 12, 'status': 'optimal'" in out


def check_clique_move(tmp: Path, out: str) -> None:
    rows = jsonl(tmp / "cm.jsonl")
    assert [r["move"] for r in rows] == ["region det=0.1", "clique q=1000"]
    assert all(r["gain"] >= 0 and r["cells"] == 16 for r in rows)


def check_cpsat(tmp: Path, out: str) -> None:
    (row,) = jsonl(tmp / "cs.jsonl")
    assert row["status"] == "OPTIMAL" and row["score_after"] == 24


def check_cpsat_memory(tmp: Path, out: str) -> None:
    page = (tmp / "mem.md").read_text(encoding="utf-8")
    assert "| 4x4 | table | 144 |" in page and "| 4x4 | element | 144 |" in page


def check_dfs(tmp: Path, out: str) -> None:
    (row,) = jsonl(tmp / "d.jsonl")
    assert row["puzzle"] == "set1_04x04" and row["valid"] is True and 0 <= row["score"] <= 24
    assert len(list((tmp / "boards").glob("set1_04x04_auto_order_s1_*.board"))) == 1


def check_dfs_pipeline(tmp: Path, out: str) -> None:
    assert out.startswith("set1_04x04 seed 1 1 CPU s: ") and " valid | cpu " in out
    assert "| pilot (worker1): " in out or out.rstrip().endswith("| no pilot"), out
    assert (tmp / "boards" / "pipeline_set1_04x04_s1_1cpu.board").exists()


def check_engine(tmp: Path, out: str) -> None:
    assert "kernel: before " in out and "after/before " in out


def check_exact_count(tmp: Path, out: str) -> None:
    (row,) = jsonl(tmp / "ex.jsonl")
    assert (row["puzzle"], row["solutions"], row["complete"]) == ("set1_03x03", 16, True)


def check_exact_brendan(tmp: Path, out: str) -> None:
    assert [(r["method"], r["solutions"]) for r in jsonl(tmp / "exb.jsonl")] == [
        ("colorpairs", 16),
        ("cpsat", 16),
    ]


def check_exact_best(tmp: Path, out: str) -> None:
    rows = jsonl(tmp / "best.jsonl")
    assert [r["bound"] for r in rows] == ["none", "optimum-1", "optimum"]
    assert (
        rows[0]["complete"] is True
        and rows[0]["score"] == rows[1]["score"] == 23
        and rows[2]["score"] is None
    )


def check_long_pair(tmp: Path, out: str) -> None:
    lines = out.strip().splitlines()
    assert [line.split(" seed ")[0] for line in lines] == ["set1_04x04 (base)", "set1_04x04 (calm)"], out
    assert all(" 2 CPU s: " in line and " valid | cpu " in line for line in lines), out
    calm = next((tmp / "lp" / "set1_04x04_s1_calm").glob("*/config.yaml")).read_text(encoding="utf-8")
    assert "plateau: 100" in calm  # the variant's settings reached its run


def check_hour_matrix(tmp: Path, out: str) -> None:
    check_long_pair(tmp, out)
    assert (tmp / "lp" / "results.txt").read_text(encoding="utf-8") == out  # the lines kept as printed


def check_table_line(text: str) -> Callable[[Path, str], None]:
    """A check that the output holds ``text``."""

    def check(tmp: Path, out: str) -> None:
        assert text in out, out

    return check


def check_mutation(tmp: Path, out: str) -> None:
    assert "| e2opt.core.board.py | 3 | 1 | 1 | 1 | 50.0% |" in out


def check_pipeline(tmp: Path, out: str) -> None:
    fig = json.loads((tmp / "pb.json").read_text())["figures"]["pipeline"]["1"]
    assert fig["verified"] is True and 0 <= fig["score"] <= 24
    assert Path(fig["run_dir"]).parent == tmp / "runs"


def check_regions(tmp: Path, out: str) -> None:
    (row,) = jsonl(tmp / "reg.jsonl")
    assert row["label"] == "smoke" and 0 <= row["construction_score"] <= 24


def check_repair(tmp: Path, out: str) -> None:
    (row,) = jsonl(tmp / "rep.jsonl")
    assert (row["variant"], row["start"]) == ("default", 470) and row["best"] >= 470


def check_rss(tmp: Path, out: str) -> None:
    lines = (tmp / "rss.csv").read_text().splitlines()
    assert lines[0] == "elapsed_s,rss_mb" and len(lines) >= 2 and out.startswith("exit 0; ")


def check_suite_time(tmp: Path, out: str) -> None:
    (row,) = json.loads((tmp / "st.json").read_text())
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout
    assert (row["label"], row["commit"], row["exit"], row["failed"]) == ("now", head.strip(), 0, 0)
    assert row["passed"] > 0 and row["cpu_s"] > 0
    assert out.startswith(f"now ({head[:7]}): exit 0, ")


def check_workers_kill(tmp: Path, out: str) -> None:
    summary = jsonl(tmp / "wk.jsonl")[-1]
    assert summary["exit"] == 0 and summary["final_ge_every_earlier"] is True and len(summary["workers"]) == 2
    kills = (len(summary["bests_before_kills"]), summary["worker_lost_events"])
    assert kills == (1, 1), summary  # the kill happened, to a worker at work


def mutants(tmp: Path) -> None:
    """A mutmut folder of one module: one mutant survived, one killed, one not run."""
    (tmp / "mut").mkdir()
    (tmp / "mut" / "e2opt.core.board.py.meta").write_text('{"exit_code_by_key": {"a": 0, "b": 1, "c": null}}')


def runs_folder(tmp: Path) -> None:
    (tmp / "runs").mkdir()


def runs_folder_and_hard_puzzle(tmp: Path) -> None:
    """An empty runs folder and a 6x6 puzzle with recoloured sides: no perfect board ends the run early."""
    from e2opt.core.generate import generate
    from e2opt.core.puzzle import write_puzzle

    runs_folder(tmp)
    write_puzzle(generate(6, 6, 3, 5, 3, recolour=8)[0], tmp / "hard.txt")  # `e2opt solve`: no perfect board


def produced_run(tmp: Path) -> None:
    """A run folder whose producer made boards A, A again, then B (its call threw away 2 completions):
    A's event in hour 0, B's in hour 1, so hour 1 holds A's repeat and B."""
    made = tmp / "run" / "worker1" / "produced"
    made.mkdir(parents=True)
    boards = {"a": "2 2\n1:0 2:1\n3:2 4:3\n", "b": "2 2\n4:0 3:1\n2:2 1:3\n"}
    infos = [{"repeats": 0}, {"repeats": 1, "completion": {"repeated": True}}, {"repeats": 2}]
    for i, (name, info) in enumerate(zip("aab", infos, strict=True), 1):
        (made / f"{i:06d}.board").write_text(boards[name], encoding="utf-8")
        (made / f"{i:06d}.json").write_text(json.dumps(info), encoding="utf-8")
    events = [{"event": "produced", "worker": 1, "score": 4, "wall_s": w} for w in (100.0, 4000.0)]
    (tmp / "run" / "events.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")


def long_run(tmp: Path) -> None:
    """A run folder with the run CPU clock at 0, 100 and 300 s of wall clock (0, 180, 580 CPU s), new bests at
    50 s (90 CPU s) and 200 s (380 CPU s), two producer boards and a pilot's choice."""
    run = tmp / "run"
    (run / "worker1" / "harvest").mkdir(parents=True)
    events = [{"event": "stats", "wall_s": w, "cpu_s": c} for w, c in ((0, 0), (100, 180), (300, 580))]
    events += [
        {"event": "best", "wall_s": 50, "score": 10, "role": "repairer"},
        {"event": "best", "wall_s": 200, "score": 12, "role": "producer"},
    ]
    events += [
        {"event": "produced", "worker": 1, "score": s, "placed": p, "wall_s": 150}
        for s, p in ((11, 14), (12, 15))
    ]
    (run / "events.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")
    report = {"chosen": "no quota", "trials": [{"knobs": "no quota", "placed": 13}]}
    (run / "worker1" / "harvest" / "recipe.json").write_text(json.dumps({"report": report}), encoding="utf-8")


def staged_pilots(tmp: Path) -> None:
    """``long_run`` with a second producer whose pilot ran the quota stage."""
    long_run(tmp)
    report = {"chosen": "quota 0.6", "trials": [{"knobs": "quota 0.6", "placed": 20}], "quota_stage": "found"}
    (tmp / "run" / "worker3" / "harvest").mkdir(parents=True)
    (tmp / "run" / "worker3" / "harvest" / "recipe.json").write_text(
        json.dumps({"report": report}), encoding="utf-8"
    )


def attempts_run(tmp: Path) -> None:
    """``long_run`` with a producer's boards from three DFS attempts of six boards each."""
    long_run(tmp)
    produced = tmp / "run" / "worker1" / "produced"
    produced.mkdir()
    scores = {1: (10, 11, 12, 11, 11, 11), 2: (12, 12, 12, 13, 13, 14), 3: (9, 9, 9, 9, 10, 10)}
    boards = [(a, s) for a, ss in scores.items() for s in ss]
    for i, (attempt, score) in enumerate(boards):
        (produced / f"{i:06d}.json").write_text(
            json.dumps({"attempts": attempt, "score": score}), encoding="utf-8"
        )


def check_attempts(tmp: Path, out: str) -> None:
    """Each attempt's opening boards against the rest, and their rank correlation (perfect here)."""
    assert " worker1 attempt 2: 6 boards, first 3 mean 12.00, rest mean 13.33, best 14\n" in out, out
    assert out.endswith("\n3 attempts of >= 6 boards: Spearman 1.00 (p 0.00)\n"), out


# script -> (arguments as shell words, env additions, preparation, check); several entries per script allowed;
# {tmp} is tmp_path, the other {names} are PLACES (paths with spaces stay one word)
Entry = tuple[str, str, dict[str, str], Callable[[Path], None] | None, Callable[[Path, str], None]]


def check_dfs_stuck(tmp: Path, out: str) -> None:
    """The 4x4 (no hint: the eight candidates) is solved by every candidate on both seeds."""
    assert out.startswith("set1_04x04: 0 hints, 8 candidates, 2,000,000 placements per attempt\n"), out
    assert out.count("placed [16, 16]") == 8, out


def check_dfs_depths(tmp: Path, out: str) -> None:
    """E2's preset for a fraction of a CPU s: one line, shares of the samples summing to one over bands of
    64 depths (255 depths: four bands and the empty fifth), no deeper than the deepest partial."""
    (row,) = [json.loads(line) for line in out.splitlines()]
    assert row["recipe"] == "blackwood" and row["first_break"] == 201 and len(row["share"]) == 5, out
    assert abs(sum(row["share"]) - 1) < 1e-3 and row["samples"] > 0, out
    deepest_band = max(i for i, x in enumerate(row["share"]) if x > 0)
    assert deepest_band * 64 <= row["deepest"] - 1, out


def check_pilot_choice(tmp: Path, out: str) -> None:
    """Two draws per candidate on the 4x4 (no hint: eight candidates): one line per seed, its winner's
    attempt solved (16 pieces, 24 joins)."""
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["seed"] for r in rows] == [1, 2] and all(len(r["reached"]) == 8 for r in rows), out
    assert all((r["placed"], r["joins"], r["breaks"], r["relaxed"]) == (16, 24, 0, False) for r in rows), out


def check_pilot_finalists(tmp: Path, out: str) -> None:
    """E2 with a pilot too short to finish: the winner's deepest partial is the first finalist, and each
    completion is a whole board at least as good as its partial's matched joins (the repair keeps its best)."""
    (row,) = [json.loads(line) for line in out.splitlines()]
    first = row["finalists"][0]
    assert (first["placed"], first["joins"]) == (row["placed"], row["joins"]) and row["placed"] < 256, out
    assert all(f["joins"] <= f["filled"] <= f["completed"] <= 480 for f in row["finalists"]), out


def check_producer_alone(tmp: Path, out: str) -> None:
    """Two scored lanes on a 3x3: every call's board re-verified, the shares summing to one, CPU rising, and
    the summary line counting the calls."""
    rows = jsonl(tmp / "p" / "calls.jsonl")
    assert rows and all(r["valid"] and 0 <= r["score"] <= 12 and r["lane"] in (0, 1) for r in rows), rows
    assert all(abs(sum(r["shares"]) - 1) < 1e-3 for r in rows), rows  # rounded to 4 places
    assert [r["call"] for r in rows] == list(range(len(rows))) and rows[-1]["cpu_total_s"] >= 1.0, rows
    assert out.startswith(f"p: {len(rows)} boards in "), out
    assert len(list((tmp / "p").glob("*.board"))) == len(rows)


def perf_works(tmp: Path) -> None:
    """kernel_profile.py needs perf allowed to sample here, and objdump; a machine without them skips it."""
    if shutil.which("objdump") is None or shutil.which("perf") is None:
        pytest.skip("perf or objdump not installed")
    probe = subprocess.run(
        ["perf", "record", "-q", "-o", str(tmp / "probe.data"), "--", "true"], capture_output=True
    )
    if probe.returncode != 0:
        pytest.skip("perf may not sample on this machine")


def check_kernel_profile(tmp: Path, out: str) -> None:
    head, *rows = out.splitlines()
    assert head.startswith("seed 1: ") and " samples in the kernel" in head, out
    shares = [float(row.split()[0]) for row in rows]
    assert len(rows) == 5 and shares == sorted(shares, reverse=True) and 0 < sum(shares) <= 100.01, out
    asm = (tmp / "k.asm").read_text().splitlines()
    assert len(asm) > 100 and abs(sum(float(line.split()[0]) for line in asm) - 100) < 0.5


def check_workers_cpu(tmp: Path, out: str) -> None:
    (row,) = jsonl(tmp / "cpu.jsonl")
    assert row["case"] == "2" and row["exit"] == 0 and 0 < row["search_cpu_s"] <= row["all_cpu_s"]
    # the share is the run's CPU over its wall x cores, rounded (on a loaded machine the 4-s run's search
    # can get a few ms of CPU, a share that rounds to 0.0: the ratio is checked, not its sign)
    share = round(row["search_cpu_s"] / (row["wall_s"] * row["cores"]), 3)
    assert row["search_share"] == share <= row["all_share"] * 1.05 and row["lost"] == 0


SMOKE: list[Entry] = [
    ("bad_inputs.py", "--cases 2 --out {tmp}/bad.md", {}, None, check_bad_inputs),
    ("clique_bench.py", "--puzzles {set2_3} --seeds 1 --qs 1000 2000 --min-cap 0.2 --out {tmp}/c.jsonl", {}, None, check_clique),
    ("clique_move_bench.py", "{e2} {e2_board} --windows 1 --size 4 4 --qs 1000 --out {tmp}/cm.jsonl", {}, None, check_clique_move),
    ("clique_6x6.sh", "", {"PUZZLES": "{set1_4}", "SEEDS": "1", "SELECTIONS": "1e4"}, None, check_table_line("seed 1: clique 16/16")),
    ("cpsat_bench.py", "--instance {set1_4} --relaxed 0 --seeds 1 --set time_limit_wall_s=2 --out {tmp}/cs.jsonl", {}, None, check_cpsat),
    ("cpsat_memory.py", "--sizes 4 --limit 0.5 --out {tmp}/mem.md", {}, None, check_cpsat_memory),
    ("dfs_bench.py", "{set1_4} --seeds 1 --dfs-s 0.2 --total-s 1 --out {tmp}/d.jsonl --boards {tmp}/boards", {}, None, check_dfs),
    ("dfs_pipeline.sh", "1 1 {set1_4}", {"BOARDS": "{tmp}/boards"}, None, check_dfs_pipeline),
    ("long_pair.sh", "2 1 {set1_4} {tmp}/lp base calm=search.plateau=100", {}, None, check_long_pair),
    ("hour_table.py", "{tmp}/run --marks 100 400", {}, long_run, check_table_line(
        "best at 100, 400 run CPU s: 10, 12\n  new bests (score, run CPU s, wall s, role): (10, 90, 50, repairer), "
        "(12, 380, 200, producer)\n  producer boards: 2, 14-15 pieces, 11 x1, 12 x1 (mean 11.5)\n"
        "  by pieces placed (pieces: boards, mean score): 14: 1, 11.0, 15: 1, 12.0\n"
        "  pilot (worker1): no quota; 13 pieces in the pilot")),
    ("hour_table.py", "{tmp}/run --marks 100 --attempts", {}, attempts_run, check_attempts),
    ("hour_matrix.sh", "{tmp}/lp base calm=search.plateau=100", {"PUZZLES": "{set1_4}", "SEEDS": "1", "CPU_S": "2"}, None, check_hour_matrix),
    ("dfs_rate.py", "1 --placements 1e5", {}, None, check_table_line("seed 1: 100,000 placements")),
    ("dfs_depths.py", "{e2} --seeds 1 --cpu-s 0.3 --band 64", {}, None, check_dfs_depths),
    ("dfs_stuck.py", "{set1_4} --seeds 1 2 --nodes 2000000", {}, None, check_dfs_stuck),
    ("pilot_said.py", "{tmp}/run", {}, staged_pilots, check_table_line(
        "pilot (worker1): no quota; 13 pieces in the pilot; "
        "pilot (worker3): quota 0.6; 20 pieces in the pilot; quota stage: found")),
    ("producer_alone.py", "{set2_3} {tmp}/p --cpu-s 1 --set time_limit_cpu_s=0.3 --set pilot.nodes=2000000 --set harvest.cpsat_wall_s=0.2 --set harvest.repair_cpu_s=0.05 --set lanes=2 --set lane_recipes=ranked --set lane_shares=scored", {}, None, check_producer_alone),
    ("pilot_choice.py", "{set1_4} --seeds 1 2 --set pilot.nodes=8000000 --set pilot.draws=2", {}, None, check_pilot_choice),
    ("pilot_choice.py", "{e2} --seeds 1 --set pilot.nodes=10000000 --set harvest.cpsat_wall_s=0.5 --set harvest.repair_cpu_s=0.1 --complete 2", {}, None, check_pilot_finalists),
    ("engine_bench.py", "{root} --reps 1 --kernel-cpu-s 0.1 --figures kernel", {}, None, check_engine),
    ("exact_bench.py", "count --instances set1_03x03 --limit 5 --out {tmp}/ex.jsonl", {}, None, check_exact_count),
    ("exact_bench.py", "brendan --instances set1_03x03 --limit 5 --cpsat-limit 5 --out {tmp}/exb.jsonl", {}, None, check_exact_brendan),
    ("exact_bench.py", "best --sizes 4 --seeds 0 --recolour 1 --limit 5 --out {tmp}/best.jsonl", {}, None, check_exact_best),
    ("exact_estimate.py", "{set1_4}", {}, None, check_table_line("| set1_04x04 | 3.7 | 3.7 | 3.9 | 3.9 | 0.4 |")),
    ("formats_bench.py", "--repeats 1", {}, None, check_table_line("| official-set check and numbering")),
    ("kernel_profile.py", "1 --placements 3e6 --top 5 --asm {tmp}/k.asm", {}, perf_works, check_kernel_profile),
    ("moves_bench.py", "tsr --instance {e2} --board {e2_board} --cpu-s 0.05", {}, None, check_table_line("score 470 -> 470")),
    ("moves_bench.py", "region --instance {e2} --board {e2_board} --sizes 4 --calls 2", {}, None, check_table_line("4x4: 2 calls, improved 0 (0%)")),
    ("moves_bench.py", "fixed --config {config} --moves 50 --seed 1", {}, None, check_table_line("50 moves in ")),
    ("moves_bench.py", "mix --config {config} --cpu-s 0.2 --at --seeds 1 --variants today", {}, None, check_table_line("today: median 0.2s ")),
    ("mutation_counts.py", "{tmp}/mut", {}, mutants, check_mutation),
    ("pipeline_bench.py", "--cpu-s 1 --seeds 1 --variants pipeline --puzzle {set1_4} --out {tmp}/pb.json --keep {tmp}/runs", {}, None, check_pipeline),
    ("regions_bench.py", "{root}/config/eternity2_regions.yaml --seeds 1 --label smoke --set instance={set1_4} --out {tmp}/reg.jsonl", {}, None, check_regions),
    ("repeats_per_hour.py", "{tmp}/run", {}, produced_run, check_table_line("| 0-1 h | 1 | 0 | 1 | 0 |\n| 1-2 h | 2 | 1 | 1 | 2 |")),
    ("repair_bench.py", "--boards {e2_board} --config {config} --cpu-s 0.1 --variants default --out {tmp}/rep.jsonl", {}, None, check_repair),
    ("repair_bench.py", "--probe --boards {e2_board} --config {config} --cpu-s 0.02", {}, None, check_table_line("| repair_window | ")),
    ("rss_probe.py", "--every 0.1 --settle 0 --out {tmp}/rss.csv -- {python} -c 'import time; time.sleep(0.3)'", {}, None, check_rss),
    ("suite_time.py", "--python {python} --variant now HEAD '{python} -m pytest -q -p no:cacheprovider tests/core/test_info.py' --out {tmp}/st.json", {}, None, check_suite_time),
    ("workers_cpu.py", "--wall 4 --cases 2 --config {root}/config/quick.yaml --out {tmp}/cpu.jsonl", {}, None, check_workers_cpu),
    ("workers_kill.py", "--kills 1 --runtime 10 --runs-dir {tmp}/runs {tmp}/wk.jsonl -- {root}/config/quick.yaml --workers 2 --set instance={tmp}/hard.txt --set stop.max_iterations=null --set output.plots=false", {}, runs_folder_and_hard_puzzle, check_workers_kill),
]  # fmt: skip


def test_every_script_has_a_smoke_run() -> None:
    scripts = sorted(p.name for p in BENCH.iterdir() if p.suffix in (".py", ".sh"))
    assert scripts == sorted({entry[0] for entry in SMOKE})


@pytest.mark.parametrize(
    ("script", "args", "env", "prepare", "check"),
    SMOKE,
    ids=[f"{e[0]}-{e[1].split()[0] if e[1] else ''}" for e in SMOKE],
)
@pytest.mark.slow
def test_smoke(tmp_path: Path, script: str, args: str, env: dict[str, str], prepare, check) -> None:
    """The script exits 0 from an empty folder and writes what it promises; nothing lands in the repository."""
    if prepare:
        prepare(tmp_path)
    path = BENCH / script
    command = ["bash" if script.endswith(".sh") else sys.executable, str(path)]
    places = {**PLACES, "tmp": str(tmp_path)}
    command += [word.format(**places) for word in shlex.split(args)]
    extra = {k: v.format(**places) for k, v in env.items()}
    full_env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHON": sys.executable, **extra}
    before = subprocess.run(
        ["git", "status", "--porcelain", "benchmarks"], cwd=ROOT, capture_output=True, text=True
    )
    proc = subprocess.run(command, cwd=tmp_path, env=full_env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    check(tmp_path, proc.stdout)
    after = subprocess.run(
        ["git", "status", "--porcelain", "benchmarks"], cwd=ROOT, capture_output=True, text=True
    )
    assert after.stdout == before.stdout


@pytest.mark.slow
def test_long_pair_resumes_a_run_stopped_by_a_signal_and_leaves_a_finished_one(tmp_path: Path) -> None:
    """A run stopped by SIGTERM writes result.json too: the next call resumes it, and only it."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHON": sys.executable}
    command = ["bash", str(BENCH / "long_pair.sh"), "2", "1", SET1_4, str(tmp_path / "lp"), "a", "b"]
    subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, check=True, timeout=300)
    results = {v: next((tmp_path / "lp" / f"set1_04x04_s1_{v}").glob("*/result.json")) for v in "ab"}
    stopped = json.loads(results["a"].read_text(encoding="utf-8"))
    assert not stopped["stop_reason"].startswith("SIG")  # a budget, or the 4x4's perfect score, ended it
    stopped["stop_reason"] = "SIGTERM"
    results["a"].write_text(json.dumps(stopped), encoding="utf-8")
    finished = results["b"].stat().st_mtime_ns
    proc = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert not json.loads(results["a"].read_text(encoding="utf-8"))["stop_reason"].startswith("SIG")
    assert results["b"].stat().st_mtime_ns == finished
