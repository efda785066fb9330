"""Config loading: every bad key or value names the file and the dotted key path."""

from pathlib import Path

import pytest
import yaml
from helpers import plain_yaml

from e2opt.config.schema import to_plain
from e2opt.config.sections import StopConfig
from e2opt.core.errors import ConfigError
from e2opt.engine.config import RunConfig
from e2opt.engine.loader import load_config
from e2opt.search.config import ASSIGNMENT_KEYS, SearchConfig
from e2opt.search.moves.assignment import AssignmentConfig

ROOT = Path(__file__).resolve().parents[2]
INSTANCE = ROOT / "instances" / "brendan_set1" / "set1_04x04.txt"


def write(tmp_path: Path, data: dict, name: str = "c.yaml") -> Path:
    path = tmp_path / name
    path.write_text(plain_yaml(data))
    return path


def base(**extra) -> dict:
    return {"instance": str(INSTANCE), **extra}


@pytest.mark.parametrize(
    "data, key, words",
    [
        (base(serch={}), "serch", "unknown key"),
        (base(search={"hole": 4}), "search.hole", "unknown key"),
        (base(search={"holes": "many"}), "search.holes", "expected"),
        (base(search={"holes": 1}), "search.holes", "min"),
        (base(search={"tabu_cells": [5, 2]}), "search.tabu_cells", "min <= max"),
        (base(search={"select": "best"}), "search.select", "'biased'"),
        (base(stop={"max_wall_s": -1}), "stop.max_wall_s", "positive"),
        (base(stop={"max_iterations": 1.5}), "stop.max_iterations", "integer"),
        (base(seed=True), "seed", "integer"),
        (base(construct={"method": "board"}), "construct.board", "needs a path"),
        (base(output={"checkpoint_every_wall_s": 0}), "output.checkpoint_every_wall_s", "positive"),
        (base(construct={"cpsat": {"num_workers": 0}}), "construct.cpsat.num_workers", "positive"),
        (base(output={"checkpoint_every_wall_s": float("nan")}), "output.checkpoint_every_wall_s", "finite"),
        (base(stop={"max_wall_s": float("nan")}), "stop.max_wall_s", "finite number, got nan"),
        (base(stop={"max_cpu_s": float("inf")}), "stop.max_cpu_s", "finite number, got inf"),
        (base(search={"bias": float("nan")}), "search.bias", "finite"),
    ],
)
def test_bad_values_name_file_and_key(tmp_path, data, key, words):
    path = write(tmp_path, data)
    with pytest.raises(ConfigError) as err:
        load_config(path)
    message = str(err.value)
    assert str(path) in message
    assert f"'{key}'" in message
    assert words in message


def test_missing_instance_file_is_named(tmp_path):
    path = write(tmp_path, {"instance": "nowhere.txt"})
    with pytest.raises(ConfigError, match=r"instance.*nowhere\.txt"):
        load_config(path)


def test_missing_instance_key(tmp_path):
    path = write(tmp_path, {"seed": 1})
    with pytest.raises(ConfigError, match="missing key 'instance'"):
        load_config(path)


def test_yaml_syntax_error_names_line(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(f"instance: {INSTANCE}\nsearch:\n  holes: [1, 2\n")
    with pytest.raises(ConfigError, match=r"bad\.yaml, line \d+: not valid YAML"):
        load_config(path)


def test_yaml_nan_is_rejected_like_any_bad_value(tmp_path):
    path = tmp_path / "nan.yaml"
    path.write_text(f"instance: {INSTANCE}\nstop:\n  max_wall_s: .nan\n")
    with pytest.raises(ConfigError, match=r"nan\.yaml: key 'stop\.max_wall_s': must be a finite number"):
        load_config(path)


def test_config_that_is_not_utf8_is_a_config_error(tmp_path):
    path = tmp_path / "latin1.yaml"
    path.write_bytes(f"instance: {INSTANCE}\nname: caf\xe9\n".encode("latin-1"))
    with pytest.raises(ConfigError, match=r"latin1\.yaml: not UTF-8 text"):
        load_config(path)


def test_empty_sections_get_the_defaults(tmp_path):
    path = tmp_path / "empty.yaml"
    path.write_text(f"instance: {INSTANCE}\nstop:\n  # max_wall_s: 60\n  # max_cpu_s: 60\nsearch:\n")
    cfg = load_config(path)
    assert cfg.stop == StopConfig() and cfg.search == SearchConfig()
    assert load_config(path, ["stop.max_iterations=5"]).stop.max_iterations == 5


def test_missing_config_file(tmp_path):
    with pytest.raises(ConfigError, match="no such config file"):
        load_config(tmp_path / "none.yaml")


def test_relative_paths_resolve_against_the_config_folder(tmp_path):
    sub = tmp_path / "configs"
    sub.mkdir()
    (tmp_path / "p.txt").write_text(INSTANCE.read_text())
    path = write(sub, {"instance": "../p.txt"})
    cfg = load_config(path)
    assert Path(cfg.instance) == (tmp_path / "p.txt").resolve()
    assert cfg.name == "p"


def test_overrides_and_keyword_values(tmp_path):
    path = write(tmp_path, base(search={"holes": 4}))
    cfg = load_config(path, ["search.holes=[2, 6]", "stop.max_iterations=50"], seed=9)
    assert cfg.search.assignment.holes_range == (2, 6)
    assert cfg.stop.max_iterations == 50
    assert cfg.seed == 9
    with pytest.raises(ConfigError, match=r"'search\.nope'"):
        load_config(path, ["search.nope=1"])
    with pytest.raises(ConfigError, match=r"expected key\.path=value"):
        load_config(path, ["search.holes"])


def test_resolved_yaml_round_trips(tmp_path):
    cfg = load_config(write(tmp_path, base(seed=3, search={"holes": [4, 8]}, stop={"max_cpu_s": 5})))
    again = load_config(write(tmp_path, yaml.safe_load(cfg.to_yaml()), "again.yaml"))
    assert again == cfg
    assert isinstance(again, RunConfig)


@pytest.mark.parametrize("name", sorted(p.name for p in (ROOT / "config").glob("*.yaml")))
def test_shipped_configs_load(name):
    cfg = load_config(ROOT / "config" / name)
    assert Path(cfg.instance).is_file()


def test_readme_test_command_is_what_ci_runs():
    readme = (ROOT / "README.md").read_text()
    blocks = [b.split("```")[0].strip() for b in readme.split("```bash")[1:]]
    assert len(blocks) >= 2
    assert "e2opt run config/eternity2.yaml" in blocks[0]
    assert blocks[1] in (ROOT / ".ci" / "run").read_text()


# --- the assignment move's settings: search.moves.assignment (paper 001's names at the top of search: older) ---

PAPER_001 = {"holes": [4, 8], "select": "random", "bias": 2.0, "tabu_cells": [0, 0], "tabu_arcs": [1, 2],
             "reverse_penalty": 0.5, "tie_noise": False, "cost_noise": 0.0}  # fmt: skip


def test_paper_001_names_and_the_assignment_section_give_the_same_config(tmp_path, capsys):
    old = load_config(write(tmp_path, base(search=PAPER_001), "old.yaml"))
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith(
        f"warning: {tmp_path / 'old.yaml'}: settings of an older e2opt"
    )
    assert "search.holes -> search.moves.assignment.holes" in err[0]
    new = load_config(write(tmp_path, base(search={"moves": {"assignment": PAPER_001}}), "new.yaml"))
    assert old == new and old.search.assignment == AssignmentConfig(**{**PAPER_001, "holes": (4, 8),
        "tabu_cells": (0, 0), "tabu_arcs": (1, 2)})  # fmt: skip
    assert load_config(write(tmp_path, base(), "none.yaml")).search.assignment == AssignmentConfig()


def test_a_setting_given_under_both_names_is_one_error_naming_both_keys_and_the_file(tmp_path):
    path = write(tmp_path, base(search={"cost_noise": 0.0, "moves": {"assignment": {"cost_noise": 0.5}}}))
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert str(err.value) == (
        f"{path}: key 'search.cost_noise': given twice, as 'search.cost_noise' (its older name) and as "
        "'search.moves.assignment.cost_noise': keep 'search.moves.assignment.cost_noise'"
    )


def test_paper_001_names_into_an_assignment_section_set_to_null_keep_it_off(tmp_path):
    """A stored config of a run without the assignment move still carries its settings (the checkerboard
    move runs with them): they load, and the move stays off."""
    search = {
        "cost_noise": 0.0,
        "tabu_arcs": [3, 4],
        "moves": {"assignment": None, "checkerboard": {"weight": 1.0}},
    }
    cfg = load_config(write(tmp_path, base(search=search))).search
    assert [name for name, _ in cfg.moves.enabled()] == ["checkerboard"]
    shared = cfg.moves.settings_of("checkerboard")
    assert (shared.weight, shared.cost_noise, shared.tabu_arcs) == (1.0, 0.0, (3, 4))


def test_a_stored_config_in_paper_001_names_loads_as_before(tmp_path):
    """A run folder written before the assignment section existed (tests/data/engine_before) lists search.holes,
    ...: it loads with the same settings (tests/engine/test_engine_compat.py resumes it to the same boards)."""
    stored = ROOT / "tests" / "data" / "engine_before" / "runs" / "single" / "config.yaml"
    data = yaml.safe_load(stored.read_text())
    assert {"holes", "cost_noise"} <= set(data["search"]) and "holes" not in data["search"]["moves"][
        "assignment"
    ]
    data["instance"], data["output"]["runs_dir"] = str(INSTANCE), str(tmp_path)
    (tmp_path / "config.yaml").write_text(yaml.safe_dump(data))  # as the run folder holds it
    assignment = load_config(tmp_path / "config.yaml", dumped=True).search.assignment
    assert (assignment.weight, assignment.cost_cpu_ms) == (
        1.0,
        0.2,
    )  # from the section, the rest from the top
    assert all(to_plain(getattr(assignment, key)) == data["search"][key] for key in ASSIGNMENT_KEYS)
