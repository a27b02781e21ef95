"""Each notebook and lab reads as a lesson, not as its own test harness (issue 22's targets).

Per notebook under notebooks/, per lab (template and solution) under labs/:

- no mention of the harness (`answer_from_code`, `MCP_LAB_ANSWER_FROM_CODE`, `AUTOFILL`,
  `FROM_CODE`, "harness") anywhere in it, prose included;
- no assert message that repeats its expression (`{...!r:.300}` value dumps, "expected X to be
  Y, got {...}"): pytest's rewriting (`%load_ext mcp_lab`) shows the compared values;
- assert statements take at most 10% of the visible code lines (every line an assert spans
  counts; blank lines do not);
- no code line over 100 characters (a 1400-pixel window shows about that many);
- the first code cell loads the extension (`%load_ext mcp_lab`), in a Python notebook;
- no private name (`x._name`) used in a code cell (outside strings; `self._x` in a class the
  notebook itself defines is its own business).

Run it on your notebooks: `pytest -q -p no:xdist tests/test_lesson_reading.py -k 02-`.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest
from _support import ROOT

LESSONS = sorted((ROOT / "notebooks").glob("*.ipynb")) + sorted((ROOT / "labs").glob("*.ipynb"))
LESSONS += sorted((ROOT / "labs" / "solutions").glob("*.ipynb"))
HARNESS = re.compile(r"answer_from_code|MCP_LAB_ANSWER_FROM_CODE|AUTOFILL|FROM_CODE|harness", re.I)
REPEATS = re.compile(r"!r:\.\d+|expected .+ to be .+, got \{")
PRIVATE = re.compile(r"(?<!\bself)(?<!\bcls)\._[A-Za-z]")  # a notebook's own class may use its own
STRINGS = re.compile(r"\"[^\"]*\"|'[^']*'")
MAX_LINE, ASSERT_SHARE = 100, 0.10


def _id(path: Path) -> str:
    return str(path.relative_to(ROOT)).removesuffix(".ipynb")


def _notebook(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _code(nb: dict) -> list[str]:
    return ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]


def _python(nb: dict) -> bool:
    return nb.get("metadata", {}).get("kernelspec", {}).get("language", "python") == "python"


def _code_part(line: str) -> str:
    """The line without its string literals and its trailing comment (roughly)."""
    return re.sub(r"#.*$", "", STRINGS.sub('""', line))


def assert_lines(source: str) -> int:
    """Lines spanned by assert statements (IPython lines blanked, numbering kept)."""
    python = "\n".join("" if line.lstrip().startswith(("%", "!")) else line for line in source.splitlines())
    try:
        tree = ast.parse(python)
    except SyntaxError:
        return sum(1 for line in source.splitlines() if line.lstrip().startswith("assert "))
    return sum(n.end_lineno - n.lineno + 1 for n in ast.walk(tree) if isinstance(n, ast.Assert))


lessons = pytest.mark.parametrize("path", LESSONS, ids=[_id(p) for p in LESSONS])


@lessons
def test_no_mention_of_the_harness(path):
    found = [
        f"cell {i}: {line.strip()[:90]}"
        for i, c in enumerate(_notebook(path)["cells"])
        for line in "".join(c["source"]).splitlines()
        if HARNESS.search(line)
    ]
    assert not found, "the lesson mentions its test harness (the tests answer from outside):\n" + "\n".join(found)


@lessons
def test_no_assert_message_repeats_its_expression(path):
    found = [line.strip()[:120] for src in _code(_notebook(path)) for line in src.splitlines() if REPEATS.search(line)]
    assert not found, "assert messages that format the values (pytest shows them):\n" + "\n".join(found)


@lessons
def test_asserts_are_at_most_a_tenth_of_the_code(path):
    sources = _code(_notebook(path))
    visible = sum(1 for src in sources for line in src.splitlines() if line.strip())
    asserted = sum(assert_lines(src) for src in sources)
    assert asserted <= ASSERT_SHARE * visible, (
        f"{asserted} of {visible} visible code lines are asserts ({asserted / max(visible, 1):.0%}); at most 10%"
    )


@lessons
def test_no_code_line_over_100_characters(path):
    long = [
        f"{len(line)}: {line[:60]}..."
        for src in _code(_notebook(path))
        for line in src.splitlines()
        if len(line) > MAX_LINE
    ]
    assert not long, f"{len(long)} code lines over {MAX_LINE} characters:\n" + "\n".join(long[:20])


@lessons
def test_the_first_code_cell_loads_the_extension(path):
    nb = _notebook(path)
    sources = _code(nb)
    if not sources or not _python(nb):
        return  # no kernel needed (the glossary) or the MCP wire kernel (04b): nothing to load
    lines = [line.strip() for line in sources[0].splitlines() if line.strip() and not line.strip().startswith("#")]
    assert lines and lines[0] == "%load_ext mcp_lab", f"the first code cell starts with {lines[:1]}"


@lessons
def test_no_private_name_in_a_code_cell(path):
    found = [
        line.strip()[:100]
        for src in _code(_notebook(path))
        for line in src.splitlines()
        if PRIVATE.search(_code_part(line))
    ]
    assert not found, "private names used in the lesson (give the package a public one):\n" + "\n".join(found)


def test_the_counters_find_what_they_count():
    assert assert_lines('x = 1\nassert x == 1, "one"\nassert (\n    x\n), "set"') == 4
    assert REPEATS.search("assert a == 1, f'expected a to be 1, got {a!r:.300}'")
    assert not REPEATS.search('assert a == 1, "every result says what kind it is"')
    assert PRIVATE.search("tokens._SPECS") and PRIVATE.search("loaded._repr_html_()")
    assert not PRIVATE.search("obj.__class__") and not PRIVATE.search(_code_part("x = 1  # see t._y"))
    assert not PRIVATE.search(_code_part('m = load("pkg._v1")')) and not PRIVATE.search("self._step(0)")
    assert HARNESS.search("if answer_from_code():") and not HARNESS.search("the answer from the server")
