"""One default: a config naming only the instance, config/eternity2.yaml and the Python API's
``RunConfig(instance=...)`` run the same settings; a ``search.moves`` section replaces the default mix while
a dotted key changes one setting of it; a run folder's config.yaml that lacks a key reads the value it was
written with."""

from __future__ import annotations

from pathlib import Path

from conftest import ROOT

from e2opt.config.translate import OLD_DEFAULTS
from e2opt.engine.config import RunConfig
from e2opt.engine.loader import config_from_dict, load_config
from e2opt.sweep.spec import load_sweep

SHIPPED = ROOT / "config" / "eternity2.yaml"
E2 = ROOT / "instances" / "eternity2.txt"
MIX = ["assignment", "tsr", "region", "border"]


def test_the_instance_alone_runs_what_the_shipped_config_runs(tmp_path: Path) -> None:
    shipped = load_config(SHIPPED)
    only = tmp_path / "only.yaml"
    only.write_text(f"instance: {E2}\n")
    assert load_config(only).to_yaml() == shipped.to_yaml()
    assert RunConfig(instance=str(E2)).to_yaml() == shipped.to_yaml()
    assert shipped.name == "eternity2" and shipped.seed == 1 and shipped.stop.max_wall_s == 3600


def test_a_moves_section_replaces_the_mix_and_a_dotted_key_changes_one_setting(tmp_path: Path) -> None:
    assert [name for name, _ in load_config(SHIPPED).search.moves.enabled()] == MIX
    path = tmp_path / "c.yaml"
    path.write_text(f"instance: {E2}\nsearch: {{moves: {{tsr: {{}}}}, plateau: 100}}\n")
    assert [name for name, _ in load_config(path).search.moves.enabled()] == ["tsr"]
    cfg = load_config(SHIPPED, ["search.moves.tsr.tries=16"])
    assert [name for name, _ in cfg.search.moves.enabled()] == MIX and cfg.search.moves.tsr.tries == 16
    for run in load_sweep(ROOT / "config" / "sweeps" / "holes.yaml").runs:  # its set: keys keep the mix
        assert [name for name in MIX if run.config["search"]["moves"][name]] == MIX


def test_a_run_folder_missing_a_key_reads_the_default_it_was_written_with() -> None:
    cfg = config_from_dict({"instance": str(E2)}, "old/config.yaml", dumped=True)
    harvest = cfg.construct.dfs.harvest
    assert (cfg.seed, cfg.construct.method, cfg.construct.beam.time_limit_cpu_s) == (0, "random", None)
    assert (harvest.complete, harvest.cpsat_wall_s, harvest.repair_cpu_s) == (3, 10.0, 15.0)
    assert [name for name, _ in cfg.search.moves.enabled()] == ["assignment"]
    assert (cfg.search.schedule.kind, cfg.stop.max_wall_s) == ("adaptive", None)
    assert (cfg.run.workers, cfg.run.restart_from, cfg.run.roles.method) == (1, "fresh", None)
    assert len(OLD_DEFAULTS) == 12  # each key above: a new default needs its old value there
    written = RunConfig(instance=str(E2)).to_dict()  # today's dump lacks nothing: it reads back equal
    assert config_from_dict(written, "new/config.yaml", dumped=True).to_dict() == written
