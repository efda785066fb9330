"""Settings of older e2opt versions: every old run folder of tests/data loads translated, with one line naming
its config.yaml and the old -> new keys, and resumes; a fresh run's config.yaml holds only live settings in
today's names (no time setting without its clock), and reads back without a word."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml
from conftest import e2opt
from helpers import plain_yaml

from e2opt.core.errors import ConfigError
from e2opt.engine.loader import load_config
from e2opt.engine.resume import resume_run
from e2opt.engine.runfolder import load_run_config

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
OLD_FOLDERS = [DATA / "engine_before" / "runs" / "single", DATA / "engine_before" / "runs" / "team",
               DATA / "roles_before" / "run"]  # fmt: skip
LEGACY = {"breakdfs", "backtrack"}


def keys(data: dict, prefix: str = "") -> set[str]:
    """Every dotted key of nested mappings."""
    out = set()
    for key, value in data.items():
        out.add(f"{prefix}{key}")
        if isinstance(value, dict):
            out |= keys(value, f"{prefix}{key}.")
    return out


def copied(folder: Path, tmp_path: Path) -> Path:
    """An old run folder copied to tmp_path, its recorded runs_dir pointing there."""
    run_dir = tmp_path / folder.name
    shutil.copytree(folder, run_dir)
    return run_dir


@pytest.mark.parametrize("folder", OLD_FOLDERS, ids=lambda p: p.parent.parent.name + "/" + p.name)
def test_an_old_run_folder_loads_translated_with_one_line_naming_its_config(folder, tmp_path, capsys):
    run_dir = copied(folder, tmp_path)
    old = yaml.safe_load((run_dir / "config.yaml").read_text())
    assert LEGACY & set(old["construct"]) and "holes" in old["search"]  # what the older versions dumped
    cfg, stored = load_run_config(run_dir)
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith(
        f"warning: {run_dir / 'config.yaml'}: settings of an older e2opt"
    )
    assert "search.holes -> search.moves.assignment.holes" in err[0]
    assert "construct.backtrack -> nothing (no construction used it)" in err[0]
    assert cfg.search.assignment.holes == old["search"]["holes"]
    assert not LEGACY & set(stored.to_dict()["construct"])


def test_an_old_run_folder_resumes_and_is_written_once_in_todays_names(tmp_path, capsys):
    run_dir = copied(DATA / "engine_before" / "runs" / "single", tmp_path)
    result = resume_run(run_dir, overrides=("stop.max_iterations=250",))
    assert result.iterations == 250
    capsys.readouterr()
    now = yaml.safe_load((run_dir / "config.yaml").read_text())
    assert not LEGACY & set(now["construct"]) and "holes" not in now["search"]
    load_run_config(run_dir)
    assert capsys.readouterr().err == ""  # translated once: the folder reads as today's


def test_a_fresh_config_dumps_only_the_constructions_it_runs(capsys):
    cfg = load_config(ROOT / "config" / "eternity2.yaml")
    dumped = yaml.safe_load(cfg.to_yaml())
    assert set(dumped["construct"]) == {"method", "beam", "dfs"}  # beam builds, dfs produces (run.roles)
    assert not LEGACY & keys(dumped)
    assert not [
        key for key in keys(dumped) if key.rsplit(".", 1)[-1] in ("time_limit_s", "repair_s", "restarts")
    ]
    assert capsys.readouterr().err == ""
    plain = load_config(ROOT / "config" / "quick.yaml").to_dict()
    assert set(plain["construct"]) == {"method"}  # random: no section of its own


def test_an_old_key_from_the_command_line_is_one_line_and_read_under_its_new_name(tmp_path, capsys):
    path = tmp_path / "c.yaml"
    path.write_text(f"instance: {ROOT / 'instances' / 'brendan_set1' / 'set1_04x04.txt'}\n")
    cfg = load_config(path, ["search.bias=2.5"])
    assert cfg.search.assignment.bias == 2.5
    assert capsys.readouterr().err.splitlines() == [
        "warning: --set search.bias=2.5: settings of an older e2opt, read under their new names: "
        "search.bias -> search.moves.assignment.bias"
    ]
    path.write_text(path.read_text() + "search: {bias: 1.0, moves: {assignment: {bias: 2.0}}}\n")
    with pytest.raises(ConfigError, match="given twice"):
        load_config(path)


def test_a_run_of_two_workers_from_an_old_config_says_so_once(tmp_path):
    """The run's own process says it; its workers' fork server, which reads the file too, does not."""
    path = tmp_path / "old.yaml"
    data = {"instance": str(ROOT / "instances" / "brendan_set1" / "set1_04x04.txt"), "search": {"holes": 3},
            "stop": {"max_iterations": 400}, "run": {"workers": 2, "share_every_s": 1},
            "output": {"runs_dir": str(tmp_path / "runs"), "plots": False}}  # fmt: skip
    path.write_text(plain_yaml(data))
    proc = e2opt("run", path, "--quiet")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.splitlines() == [
        f"warning: {path}: settings of an older e2opt, read under their new names: "
        "search.holes -> search.moves.assignment.holes; run.share_every_s -> run.share_every_wall_s"
    ]


def test_the_pilots_cpu_seconds_are_read_as_the_placements_they_made(tmp_path, capsys):
    """``construct.dfs.pilot.cpu_s`` (before the pilot counted placements) becomes ``pilot.nodes`` at 4e7
    placements per CPU s, so an old run folder's 15 s is today's default, 6e8, and resumes as it ran."""
    path = tmp_path / "c.yaml"
    path.write_text(
        f"instance: {ROOT / 'instances' / 'brendan_set1' / 'set1_04x04.txt'}\n"
        "construct: {method: dfs, dfs: {pilot: {cpu_s: 7.5}}}\n"
    )
    assert load_config(path).construct.dfs.pilot.nodes == 300_000_000
    assert "construct.dfs.pilot.cpu_s -> construct.dfs.pilot.nodes" in capsys.readouterr().err
    cfg = load_config(path, ["construct.dfs.pilot.cpu_s=15"])
    assert cfg.construct.dfs.pilot.nodes == 600_000_000 == type(cfg.construct.dfs.pilot)().nodes
