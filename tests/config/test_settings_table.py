"""docs/settings.md is the table the registries generate now (``e2opt settings``), and every time setting
names its clock."""

from __future__ import annotations

from pathlib import Path

from e2opt.cli.main import main
from e2opt.config.table import markdown, rows
from e2opt.engine.config import RunConfig

ROOT = Path(__file__).resolve().parents[2]


def test_the_committed_table_is_what_the_registries_generate():
    assert (ROOT / "docs" / "settings.md").read_text() == markdown(RunConfig), (
        "docs/settings.md is stale: run e2opt settings -o docs/settings.md --force"
    )


def test_every_time_setting_names_its_clock():
    timed = [key for key, *_ in rows(RunConfig) if key.endswith(("_s", "_ms"))]
    assert timed and all(clock for key, _, clock, _ in rows(RunConfig) if key in timed)
    assert not [key for key in timed if key.rsplit(".", 1)[-1] in ("time_limit_s", "repair_s", "cpsat_s")]


def test_the_command_writes_the_page(tmp_path, capsys):
    out = tmp_path / "settings.md"
    assert main(["settings", "-o", str(out)]) == 0
    assert out.read_text() == markdown(RunConfig)
    assert main(["settings", "-o", str(out)]) == 2  # an existing file needs --force
    assert "--force" in capsys.readouterr().err
