"""Typed events (engine/eventkinds.py): every kind written through EventLog and read back is the same object,
the lines of old run folders read into their classes and write back as they were, damaged and unknown lines
still read."""

from __future__ import annotations

import dataclasses
import json
import typing
from pathlib import Path

import pytest

from e2opt.engine import eventkinds
from e2opt.engine.eventkinds import KINDS, End, Event, Restart, Stats, Unknown, make, parse
from e2opt.engine.events import EventLog, read_events, read_typed

ROOT = Path(__file__).resolve().parents[2]
OLD_RUNS = sorted((ROOT / "tests" / "data").glob("*/**/events.jsonl"))
SAMPLES: dict[type, typing.Any] = {
    int: 7,
    float: 1.25,
    str: "x",
    bool: True,
    list: [1, 2],
    dict: {"a": {"b": 1}},
}


def full(cls: type[Event]) -> Event:
    """An event of ``cls`` with every field set, each to a value of its type, and one extra field."""
    hints = typing.get_type_hints(cls)
    values = {}
    for f in dataclasses.fields(cls):
        if f.name == "extra":
            continue
        kinds = [typing.get_origin(t) or t for t in typing.get_args(hints[f.name]) if t is not type(None)]
        values[f.name] = SAMPLES[kinds[-1]]  # float before int in Number: the last is the narrowest that fits
    return cls(**values, extra={"note": "kept"})


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_an_event_written_and_read_back_is_the_same_object(kind, tmp_path):
    event = full(KINDS[kind])
    log = EventLog(tmp_path)
    heard: list[Event] = []
    log.listeners.append(heard.append)
    log.write(event)
    log.close()
    (back,) = read_typed(tmp_path)
    assert back == event and heard == [event] and type(back) is KINDS[kind]
    (line,) = read_events(tmp_path)
    assert line["event"] == kind and line["note"] == "kept"


def test_an_event_made_from_its_line_fields_writes_the_same_line_as_the_class(tmp_path):
    log = EventLog(tmp_path)
    log.write(make("restart", **{"from": "pool", "score": 3, "worker": 1, "wall_s": 2.5}))
    log.write(Restart(source="pool", score=3, worker=1, wall_s=2.5))
    log.close()
    first, second = (tmp_path / "events.jsonl").read_text().splitlines()
    assert first == second and json.loads(first)["from"] == "pool"


def test_a_kind_without_a_class_cannot_be_made():
    with pytest.raises(ValueError, match=r"eventkinds\.py"):
        make("no_such_kind", score=1)


@pytest.mark.parametrize("path", OLD_RUNS, ids=lambda p: str(p.relative_to(ROOT / "tests" / "data")))
def test_old_run_folders_read_into_their_classes_and_write_back_as_they_were(path):
    lines = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    assert lines
    for line in lines:
        event = parse(line)
        assert not isinstance(event, Unknown), line
        assert event.to_dict() == line
        assert parse(event.to_dict()) == event


def test_a_wrong_typed_field_reads_as_none_and_is_kept_as_it_was():
    line = {"event": "stats", "score": "x", "wall_s": 2.1, "workers": [{"worker": 0}], "flag": True}
    event = parse(line)
    assert isinstance(event, Stats) and event.score is None and event.wall_s == 2.1
    assert event.extra == {"score": "x", "flag": True} and event.to_dict() == line
    assert parse({"event": "best", "score": True}).score is None  # a bool is no score


def test_an_unknown_kind_and_a_line_without_one_still_read():
    newer = {"event": "from_a_newer_e2opt", "wall_s": 3.0, "what": 1}
    event = parse(newer)
    assert isinstance(event, Unknown) and event.wall_s == 3.0 and event.to_dict() == newer
    assert eventkinds.kind_of(event) == "from_a_newer_e2opt"
    bare = parse({"score": 4})
    assert isinstance(bare, Unknown) and eventkinds.kind_of(bare) is None and bare.to_dict() == {"score": 4}


def test_an_end_holds_the_result_beyond_its_fields():
    end = make("end", stop_reason="max_wall_s (5 s)", best_score=40, wall_s=5.1, best_known=None, clues="0/5")
    assert isinstance(end, End) and end.best_score == 40 and end.extra == {"best_known": None, "clues": "0/5"}
    assert parse(end.to_dict()) == end
