"""The suite's order comes from measured durations (tests/_support/durations.py), not a hand list."""

from __future__ import annotations

import json
from types import SimpleNamespace

from _support import durations


def _unit(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def test_the_longest_unit_goes_first_and_a_units_tests_stay_together():
    ids = ["a.py::t1", "a.py::t2", "b.py::t1", "c.py::t1", "b.py::t2"]
    known = {"a.py::t1": 1.0, "a.py::t2": 1.0, "b.py::t1": 30.0, "b.py::t2": 5.0, "c.py::t1": 4.0}
    assert durations.longest_first(ids, _unit, known) == ["b.py::t1", "b.py::t2", "c.py::t1", "a.py::t1", "a.py::t2"]


def test_an_unmeasured_test_counts_as_new_and_no_record_keeps_collection_order():
    ids = ["a.py::t1", "b.py::t1"]
    assert durations.longest_first(ids, _unit, {}) == ids
    assert durations.unit_seconds(["n.py::new"], _unit, {"gone.py::t": 99.0}) == {"n.py": durations.NEW_TEST_SECONDS}


def test_the_recorder_sums_each_tests_phases_and_writes_them(tmp_path, monkeypatch):
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    out = tmp_path / "durations.json"
    rec = durations.Recorder(str(out))
    for when, took in (("setup", 0.25), ("call", 2.0), ("teardown", 0.25)):
        rec.pytest_runtest_logreport(SimpleNamespace(nodeid="x.py::t", when=when, duration=took))
    rec.pytest_sessionfinish(None)
    assert json.loads(out.read_text()) == {"x.py::t": 2.5}
    assert durations.load(out) == {"x.py::t": 2.5}


def test_a_worker_leaves_the_writing_to_the_controller(tmp_path, monkeypatch):
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw0")
    out = tmp_path / "durations.json"
    rec = durations.Recorder(str(out))
    rec.pytest_runtest_logreport(SimpleNamespace(nodeid="x.py::t", when="call", duration=1.0))
    rec.pytest_sessionfinish(None)
    assert not out.exists()


def test_a_broken_record_reads_as_none(tmp_path):
    bad = tmp_path / "durations.json"
    bad.write_text("{not json")
    assert durations.load(bad) == {}
