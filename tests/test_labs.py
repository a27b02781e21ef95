"""Labs 05, 08 and 12 (and what all four labs share): each check tells the truth in both
directions, the labs are generated from their one source, and no answer leaks.

For every lab: the untouched template fails its check with the helpful message (a CheckFailed
whose text is asserted, never a NameError or a TypeError out of the check's own code) and the
solution passes; variants of the solution that break one rule fail with the message for that
rule, so a check cannot pass by checking nothing.  Every check runs against real server
processes.  The lab notebooks themselves (templates and solutions) are executed by
tests/test_labs_rerun.py, once each, with every cell run twice and the notebook run again; a
test here proves that every lab is in its list and that no other test runs them again.
Every lab is authored once under labs/source/ (nbgrader markers and cell metadata); the test
of the generator proves that what is committed is what `make labs` writes.
"""

from __future__ import annotations

import copy
import json
import re
import sys
from pathlib import Path

import pytest
from _support import ROOT

from mcp_lab import tokens
from mcp_lab.course import check_ask, check_budget, check_requests, generate, plumbing
from mcp_lab.course._check import CheckFailed

LABS = ROOT / "labs"
SOLUTIONS = LABS / "solutions"
NOTEBOOKS = ("05-requests-by-hand.ipynb", "08-ask-the-person.ipynb", "12-token-budget.ipynb")
ALL_LABS = ("05-requests-by-hand", "08-ask-the-person", "10-fix-the-calendar", "12-token-budget")
SERVER = "08-ask-the-person/server.py"


# --- helpers ----------------------------------------------------------------------------------


def cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def source(cell: dict) -> str:
    return "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


def tagged(path: Path, tag: str) -> list[str]:
    return [source(c) for c in cells(path) if tag in c.get("metadata", {}).get("tags", [])]


def run_cells(path: Path, *, upto_tag: str = "check") -> dict:
    """Execute a notebook's code cells in-process, from its folder, until the check cell."""
    import os

    ns: dict = {"__name__": "__lab__"}
    old = os.getcwd()
    os.chdir(path.parent)
    try:
        for c in cells(path):
            if c["cell_type"] != "code":
                continue
            if upto_tag in c.get("metadata", {}).get("tags", []):
                break
            # `%load_ext mcp_lab` and other magics are IPython, not Python: blank them, keep numbering.
            src = "\n".join("" if line.lstrip().startswith("%") else line for line in source(c).split("\n"))
            if "connect(" in src and "your-work" not in c.get("metadata", {}).get("tags", []):
                continue  # the optional "try it" cells: the check starts its own servers
            exec(compile(src, f"{path.name}", "exec"), ns)
    finally:
        os.chdir(old)
    return ns


# --- lab 00: requests by hand -----------------------------------------------------------------


def lab00_requests(path: Path) -> list:
    ns = run_cells(path)
    return [ns["discover"], ns["list_tools"], ns["read_week"], ns["create"]]


def test_lab00_template_fails_with_the_placeholder_message():
    with pytest.raises(CheckFailed) as info:
        check_requests.check(lab00_requests(LABS / NOTEBOOKS[0]))
    assert str(info.value).startswith(
        "request 1 (server/discover) is still a placeholder: write the JSON-RPC request as a dict"
    )


def test_lab05_try_each_sends_what_is_written_and_skips_the_rest(capsys):
    """The lab's optional "try one" cell, one line in the package: placeholders wait, text that is
    not JSON gets one line, and a written request is answered by a calendar of its own."""
    good = lab00_requests(SOLUTIONS / NOTEBOOKS[0])
    capsys.readouterr()  # the solution's own cells print too
    check_requests.try_each({"discover": good[0], "list_tools": ..., "read_week": "{not json", "create": good[3]})
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith('discover: {"jsonrpc":"2.0","id":') and "supportedVersions" in out[0], out
    assert out[1] == "list_tools: not written yet" and out[2].startswith("read_week: not JSON yet (")
    assert out[3].startswith("create: ") and "Created e3" in out[3], out


def test_lab00_solution_passes():
    report = check_requests.check(lab00_requests(SOLUTIONS / NOTEBOOKS[0]))
    assert len(report.passed) == 8
    assert report.passed[-1] == "request 4 (tools/call): Created e3: Dentist at 2026-09-10T08:30:00Z"


def test_lab00_an_id_may_be_reused_once_its_request_was_answered():
    # basic/index: an id must not match a request still waiting for its answer; each of the four
    # is answered before the next is sent, so the same id four times is allowed.
    good = [json.loads(r) if isinstance(r, str) else r for r in lab00_requests(SOLUTIONS / NOTEBOOKS[0])]
    same_id = [{**r, "id": 1} for r in good]
    report = check_requests.check(same_id)
    assert report.passed[-1] == "request 4 (tools/call): Created e3: Dentist at 2026-09-10T08:30:00Z"
    assert "id 1 (also request 1's, answered already: allowed)" in report.passed[2]


def test_lab00_names_the_first_unmet_rule():
    good = lab00_requests(SOLUTIONS / NOTEBOOKS[0])
    cases = [
        (
            1,
            {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
            "request 2 (tools/list): expected params._meta with both required keys; got no params._meta at all",
        ),
        (
            2,
            '{"jsonrpc": "2.0", "id": 3, "method": "resources/read",}',
            "request 3 (resources/read): expected valid JSON text; got a parse error",
        ),
        (3, {**good[3], "method": "tools.call"}, 'request 4 (tools/call): expected "method": "tools/call"'),
        (
            0,
            {k: v for k, v in good[0].items() if k != "id"},
            'request 1 (server/discover): expected a request, with an id; got a message without "id"',
        ),
        (
            3,
            {**good[3], "params": {**good[3]["params"], "name": 42}},
            "request 4 (tools/call): expected a request that validates against the 2026-07-28 schema (CallToolRequest",
        ),
    ]
    for index, bad, message in cases:
        requests = list(good)
        requests[index] = bad
        with pytest.raises(CheckFailed) as info:
            check_requests.check(requests)
        assert str(info.value).startswith(message), str(info.value)
    no_start = json.loads(json.dumps(good[3]))
    del no_start["params"]["arguments"]["startsAt"]
    with pytest.raises(CheckFailed, match=r"got error -32021 .*give a startsAt"):
        check_requests.check(good[:3] + [no_start])


def test_lab05_a_first_page_only_client_fails_and_the_solution_reads_every_page():
    """The template's list_every_tool reads page 1 only: against the paged toolbox it gets three
    of seven tools and the check names the pagination rule; the solution's follows nextCursor."""
    good = lab00_requests(SOLUTIONS / NOTEBOOKS[0])
    first_page_only = run_cells(LABS / NOTEBOOKS[0])["list_every_tool"]
    with pytest.raises(CheckFailed) as info:
        check_requests.check(good, first_page_only)
    text = str(info.value)
    assert text.startswith("every page (tools/list on the paged toolbox): expected all 7 tool names"), text
    assert "after 1 request(s)" in text and "server/utilities/pagination" in text, text
    report = check_requests.check(good, run_cells(SOLUTIONS / NOTEBOOKS[0])["list_every_tool"])
    assert (
        report.passed[-1]
        == "every page (tools/list on the paged toolbox): 7 tools over 3 pages, every nextCursor followed"
    )


def test_lab05_page_check_says_what_a_client_that_edits_its_cursor_meets():
    from mcp_lab.session.isolate import flip_one_character

    def tampers(send):  # follows, but edits the cursor: the server refuses it, the check says so
        meta = {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
        }
        page = send({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": meta}})["result"]
        cursor = flip_one_character(page["nextCursor"])
        return send({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": meta, "cursor": cursor}})[
            "result"
        ]["tools"]

    with pytest.raises(CheckFailed, match=r"list_every_tool raised KeyError: 'result'"):
        check_requests.check_pages(tampers)
    with pytest.raises(CheckFailed, match=r"should be a function"):
        check_requests.check_pages(...)


# --- lab 02: ask the person -------------------------------------------------------------------


def test_lab08_template_fails_at_todo_2_with_the_message():
    with pytest.raises(CheckFailed) as info:
        check_ask.check(LABS / SERVER)
    text = str(info.value)
    assert text.startswith('accept (the person picks a room): expected a result with resultType "input_required"')
    assert (
        "got the JSON-RPC error -32603" in text
        and "TODO 2" in text
        and "Spec rule: https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr" in text
    )


def test_lab08_solution_passes():
    report = check_ask.check(SOLUTIONS / SERVER)
    assert len(report.passed) == 14, report.text()
    assert "accept: Booked Aurora at 2026-09-10T08:30:00Z." in report.passed, report.passed
    assert "a retry without the answer gets a new input_required asking for the room again" in report.passed


def variant(tmp_path: Path, old: str, new: str) -> Path:
    """The solution server with one piece of it replaced: a learner's near miss."""
    text = (SOLUTIONS / SERVER).read_text(encoding="utf-8")
    assert old in text, old
    path = tmp_path / "server.py"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


# Near-miss solutions: one line of the solution changed, and the check must name exactly that.
LAB08_NEAR_MISSES = {
    "asks-without-the-capability": (
        "if not declares_form_elicitation(caps):",
        "if False:",
        r"^a request that declares no capabilities: expected the error -32021",
    ),
    "believes-requestState": (
        "issued = unseal(state)",
        'issued = json.loads(base64.urlsafe_b64decode(state.split(".")[0] + "=="))',
        r"^a retry with a changed requestState \(its readable content rewritten to offer \"Broom closet\"\): expected a refusal",
    ),
    "decline-that-books": (
        'if action == "decline":',
        'if action == "no such action":',
        r"^decline \(the person says no\): expected a result with \"isError\": true",
    ),
    "refuses-a-missing-answer": (
        "return ask_for_room(starts)   # the answer we need is missing: ask again, not an error",
        'raise Refusal(-32602, "inputResponses.room is missing")',
        r'^a retry without the answer under "room" \(inputResponses \{\}\): expected a new result with resultType '
        r'"input_required" asking for "room" again; got the JSON-RPC error -32602.*SHOULD answer with a new '
        r"InputRequiredResult",
    ),
    "discover-without-cache-fields": (
        '"ttlMs": 3600000, "cacheScope": "public"}),',
        "}),",
        r"^the plumbing \(server/discover asking 2026-07-28\): expected an answer that validates against the "
        r"2026-07-28 schema \(DiscoverResult\); got cacheScope: Field required",
    ),
    "null-id-on-an-unreadable-line": (
        'answer = error(None, -32700, "Parse error: the line is not valid JSON")',
        'answer = {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}}',
        r"^the plumbing \(a line that is not JSON\): .*id must be a string or an integer, not None",
    ),
    "answers-a-null-id": (
        "    if isinstance(rid, bool) or not isinstance(rid, (str, int)):\n",
        "    if False:\n",
        r"^the plumbing \(a request whose id is null\): .*id must be a string or an integer, not None",
    ),
    "state-kept-in-the-process": (
        'SECRET = os.environ.get("LAB08_SECRET", "lab-08-not-a-real-secret").encode()',
        "SECRET = os.urandom(16)",
        r"^a retry that reaches a second, fresh process",
    ),
}


@pytest.mark.wire_deliberate(server="lab 08 solutions broken on purpose to prove the check catches them")
@pytest.mark.parametrize("miss", sorted(LAB08_NEAR_MISSES))
def test_lab08_catches_each_near_miss(tmp_path, miss):
    old, new, message = LAB08_NEAR_MISSES[miss]
    with pytest.raises(CheckFailed, match=message):
        check_ask.check(variant(tmp_path, old, new))


def test_lab08_a_server_that_cannot_start_is_a_clear_failure(tmp_path):
    path = variant(tmp_path, "def book_room(", "def book_room(:")
    with pytest.raises(CheckFailed, match=r"the server gave no usable answer .*SyntaxError"):
        check_ask.check(path)


def test_the_templates_plumbing_obeys_the_schema_already(tmp_path):
    """What a learner copies from a template is valid before they touch it."""
    for server in (LABS / SERVER, LABS / "10-fix-the-calendar" / "calendar_server.py"):
        lines = plumbing.probe(
            [sys.executable, str(server)], env={"CALENDAR_DB": str(tmp_path / "c.sqlite3")}, cwd=str(tmp_path)
        )
        assert len(lines) == 1 and "validate against the 2026-07-28 schema" in lines[0], (server, lines)


# --- lab 03: token budget ---------------------------------------------------------------------


def lab03(path: Path) -> dict:
    return run_cells(path)


def test_lab03_template_fails_on_the_budget_with_the_real_numbers():
    ns = lab03(LABS / NOTEBOOKS[2])
    before = ns["before"].tools_total
    assert before > 2 * check_budget.BUDGET
    with pytest.raises(CheckFailed) as info:
        check_budget.check(ns["trimmed"], original=ns["catalog"])
    assert str(info.value).startswith(f"catalog costs {before:,} tokens; the budget is {check_budget.BUDGET:,}")


def test_lab03_solution_passes_with_margin():
    ns = lab03(SOLUTIONS / NOTEBOOKS[2])
    report = check_budget.check(ns["trimmed"], original=ns["catalog"])
    assert report.cost.tools_total <= 0.9 * check_budget.BUDGET
    assert report.passed[-1].startswith(f"catalog costs {report.cost.tools_total:,} tokens")


@pytest.mark.wire_deliberate(server="a lab 03 catalog broken on purpose (annotations as a string)")
def test_lab03_meaning_is_checked_before_size():
    ns = lab03(SOLUTIONS / NOTEBOOKS[2])
    good, original = ns["trimmed"], ns["catalog"]

    def naive(schema):  # strips "title" everywhere, the create_event argument included
        return (
            {k: naive(v) for k, v in schema.items() if k not in ("title", "examples")}
            if isinstance(schema, dict)
            else schema
        )

    cases = [
        (good[:-1], r"^tool names: expected the same 8 tools.*got missing \['send_reminder'\]"),
        ([{**t, "name": "create"} if t["name"] == "create_event" else t for t in good], r"^tool names: .*create"),
        (
            [{**t, "description": ""} if t["name"] == "book_room" else t for t in good],
            r"^tool book_room: expected a non-empty description",
        ),
        (
            [{**t, "inputSchema": naive(t["inputSchema"])} for t in good],
            r"^tool create_event, required argument 'title': expected still listed in required and defined",
        ),
        (
            [
                {**t, "inputSchema": {**t["inputSchema"], "required": "eventId"}} if t["name"] == "delete_event" else t
                for t in good
            ],
            r"^tool delete_event: expected an inputSchema that is valid JSON Schema 2020-12",
        ),
        (
            [
                {
                    **t,
                    "inputSchema": {
                        **t["inputSchema"],
                        "properties": {
                            **t["inputSchema"]["properties"],
                            "minutesBefore": {"type": "string", "description": "Minutes."},
                        },
                    },
                }
                if t["name"] == "send_reminder"
                else t
                for t in good
            ],
            r"^tool send_reminder, required argument 'minutesBefore': expected its type \"integer\"",
        ),
        (
            [
                {
                    **t,
                    "inputSchema": {
                        **t["inputSchema"],
                        "properties": {**t["inputSchema"]["properties"], "eventId": {"type": "string"}},
                    },
                }
                if t["name"] == "delete_event"
                else t
                for t in good
            ],
            r"^tool delete_event, required argument 'eventId': expected a description",
        ),
        (..., r"^`trimmed` is still a placeholder"),
        (
            [{**t, "annotations": "read-only"} if t["name"] == "list_events" else t for t in good],
            r"^the served catalog: expected an answer that validates against the 2026-07-28 schema \(ListToolsResult\)"
            r"; got tools\.1\.annotations",
        ),
    ]
    for trimmed, pattern in cases:
        with pytest.raises(CheckFailed) as info:
            check_budget.check(trimmed, original=original)
        assert re.search(pattern, str(info.value)), str(info.value)


MARKETING = "Part of Team Calendar, the powerful and flexible solution for managing your team's time."


def _marketed(good: list[dict], description=lambda tool: MARKETING, strip_optional: bool = True) -> list[dict]:
    """The catalog a learner met (issue 36): one marketing sentence for every tool, and the
    optional arguments kept without their descriptions. It fits the budget."""
    out = copy.deepcopy(good)
    for tool in out:
        tool["description"] = description(tool)
        schema = tool["inputSchema"]
        for arg, prop in schema["properties"].items():
            if strip_optional and arg not in schema.get("required", []):
                prop.pop("description", None)
    return out


def test_lab12_refuses_one_marketing_sentence_for_every_tool():
    ns = lab03(SOLUTIONS / NOTEBOOKS[2])
    good, original = ns["trimmed"], ns["catalog"]
    assert tokens.catalog_cost(_marketed(good), None).tools_total <= check_budget.BUDGET  # it fits
    with pytest.raises(CheckFailed) as info:
        check_budget.check(_marketed(good), original=original)
    assert re.match(r"tool create_event, optional argument 'durationMinutes': expected a description", str(info.value))
    with pytest.raises(CheckFailed) as info:
        check_budget.check(_marketed(good, strip_optional=False), original=original)
    assert re.match(
        r"tools create_event and list_events: expected a description of each tool's own job", str(info.value)
    )


@pytest.mark.parametrize(
    "description, pattern",
    [
        # distinct, but praise only: no word of the tool's own job
        (
            lambda t: f"{MARKETING} Loved by {sum(map(ord, t['name']))} teams.",
            r"^tool create_event: expected a description that says what",
        ),
        (lambda t: t["name"].replace("_", " ").capitalize() + ".", r"^tool create_event: .*beyond its name"),
        (lambda t: "Creates an event." if t["name"] == "create_event" else t["description"], r"^tool create_event"),
    ],
)
def test_lab12_refuses_descriptions_with_no_content(description, pattern):
    ns = lab03(SOLUTIONS / NOTEBOOKS[2])
    good, original = ns["trimmed"], ns["catalog"]
    keep_own = _marketed(good, description=description, strip_optional=False)
    with pytest.raises(CheckFailed) as info:
        check_budget.check(keep_own, original=original)
    assert re.search(pattern, str(info.value)), str(info.value)


def test_lab12_content_is_judged_by_words_of_the_tools_own_job():
    """Short descriptions in other words than the original still pass (a word of the name will do)."""
    ns = lab03(SOLUTIONS / NOTEBOOKS[2])
    good, original = ns["trimmed"], ns["catalog"]
    terse = {"delete_event": "Removes an event for good.", "send_reminder": "Pings attendees ahead of time."}
    rewritten = _marketed(good, description=lambda t: terse.get(t["name"], t["description"]), strip_optional=False)
    report = check_budget.check(rewritten, original=original)
    assert "every tool's description is its own and says what that tool does" in report.passed


def solution_paths_to_open(markdown: str) -> list[str]:
    """Backticked spans that name a solution as a file to open, not inside a terminal command."""
    return [
        span
        for span in re.findall(r"`([^`\n]+)`", markdown)
        if "solutions/" in span and not re.match(r"(diff|cat|less|git|cp)\b", span)
    ]


def test_a_lab_names_its_solution_only_in_a_command_a_learner_can_run():
    """`make lab` hides labs/solutions/ from the file browser: lab 10 used to say "compare your file
    with `solutions/...`", which a learner could not open (issue 36)."""
    old = "When the check prints *All 8 expectations met*, compare your file with `solutions/10-fix-the-calendar/calendar_server.py`."
    assert solution_paths_to_open(old) == ["solutions/10-fix-the-calendar/calendar_server.py"]
    found = [
        f"{path.name}: `{span}`"
        for path in sorted((LABS / "source").glob("*/*.ipynb"))
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]
        if cell["cell_type"] == "markdown"
        for span in solution_paths_to_open("".join(cell["source"]))
    ]
    assert not found, "the file browser hides labs/solutions/; give a terminal command instead: " + ", ".join(found)


# --- the notebooks ----------------------------------------------------------------------------


def test_notebooks_are_saved_clean_and_paired():
    for lab in ALL_LABS:
        name = f"{lab}.ipynb"
        template, solution = cells(LABS / name), cells(SOLUTIONS / name)
        assert len(template) == len(solution), name
        for t, s in zip(template, solution):
            for c in (t, s):
                if c["cell_type"] == "code":
                    assert c["outputs"] == [] and c["execution_count"] is None, name
            tags = t.get("metadata", {}).get("tags", [])
            assert [x for x in tags if x != "raises-exception"] == s.get("metadata", {}).get("tags", []), name
            if "your-work" not in tags:
                assert source(t) == source(s), f"{name}: only the learner's cells may differ"
        head = source(template[0])
        for word in (
            "**Goals.**",
            "**Prerequisites.**",
            "**Time.**",
            "**Reset to the template.**",
            "git checkout -- labs/",
        ):
            assert word in head, (name, word)


# --- one source: nbgrader's markers and metadata, and what `make labs` writes ------------------


def test_committed_labs_are_what_the_source_generates():
    stale = generate.stale(LABS)
    assert not stale, "these files differ from what labs/source/ generates; run `make labs` and commit: " + ", ".join(
        str(p.relative_to(ROOT)) for p in stale
    )


def test_a_student_version_edited_by_hand_is_caught(tmp_path):
    import shutil

    copy = tmp_path / "labs"
    shutil.copytree(LABS, copy, ignore=shutil.ignore_patterns("*.sqlite3*", "__pycache__"))
    server = copy / SERVER
    server.write_text(server.read_text(encoding="utf-8").replace("# TODO 3", "# TODO three"), encoding="utf-8")
    assert generate.stale(copy) == [server]
    assert generate.main(["--check", "--labs", str(copy)]) == 1
    assert generate.main(["--labs", str(copy)]) == 0 and generate.stale(copy) == []


def test_source_metadata_is_nbgrader_v3_and_the_check_cell_is_graded():
    import nbformat
    from nbgrader.nbgraderformat import MetadataValidator

    for lab in ALL_LABS:
        nb = nbformat.read(LABS / "source" / lab / f"{lab}.ipynb", as_version=4)
        MetadataValidator().validate_nb(nb)  # nbgrader's own validator (schema version 3)
        graded = [c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade")]
        assert len(graded) == 1 and "check" in graded[0].metadata.tags, f"{lab}: one graded cell, the check"
        meta = graded[0].metadata.nbgrader
        assert meta["locked"] and meta["points"] > 0 and not meta["solution"], (lab, meta)
        for c in nb.cells:
            keys = set(c.metadata.get("nbgrader", {}))
            assert keys <= {"grade", "grade_id", "locked", "points", "schema_version", "solution", "task"}, (lab, keys)
        work = [c for c in nb.cells if "your-work" in c.metadata.get("tags", [])]
        assert all(c.metadata.nbgrader["solution"] and "### BEGIN SOLUTION" in c.source for c in work), lab


def test_the_generator_handles_stubs_and_refuses_broken_markers():
    text = (
        "a = 1\n    ### BEGIN STUB\n    toy()\n    ### END STUB\n    ### BEGIN SOLUTION\n    real()\n"
        "    ### END SOLUTION\n### BEGIN SOLUTION\nsecret()\n### END SOLUTION\nb = 2"
    )
    assert generate.student_text(text) == ("a = 1\n    toy()\n# YOUR CODE HERE\nraise NotImplementedError()\nb = 2")
    assert generate.solution_text(text) == "a = 1\n    real()\nsecret()\nb = 2"
    for broken in ("### BEGIN SOLUTION\nx", "### END SOLUTION", "### BEGIN STUB\nx\n### END STUB\ny = 1"):
        with pytest.raises(generate.SourceError):
            generate.student_text(broken, "lab.py")


# --- no solution in a template ----------------------------------------------------------------


def _code(line: str) -> str:
    return line.split("  # ")[0].strip()  # the code of a line, without its comment


def _solution_only_lines(solution: str, template: str) -> list[str]:
    """Code lines (20+ characters) of the solution that the template does not have."""
    mine = {_code(line) for line in template.splitlines()}
    return [
        _code(line)
        for line in solution.splitlines()
        if len(_code(line)) >= 20 and _code(line) not in mine and not _code(line).startswith("#")
    ]


# Lines that ARE the answer; each must be in the solution and nowhere in the template.
DISTINCTIVE = {
    NOTEBOOKS[0]: ['"method": "server/discover"', '"method": "resources/read"', '"name": "create_event",'],
    SERVER: [
        "raise Refusal(-32021",
        'return {"resultType": "input_required"',
        "issued = unseal(state)",
        'if action == "decline":',
    ],
    NOTEBOOKS[2]: ["def strip_noise(schema):", "TOOL_TEXT = {", "Create a calendar event (visible to the team)."],
}


def test_no_solution_code_leaked_into_a_template():
    for name in NOTEBOOKS:
        template_cells, solution_cells = cells(LABS / name), cells(SOLUTIONS / name)
        template_text = "\n".join(source(c) for c in template_cells)
        work = [
            (source(t), source(s))
            for t, s in zip(template_cells, solution_cells)
            if "your-work" in t.get("metadata", {}).get("tags", [])
        ]
        if name != NOTEBOOKS[1]:
            assert work, name
        for t, s in work:
            assert "YOUR CODE HERE" in t and "YOUR CODE HERE" not in s and t != s, name
            for line in _solution_only_lines(s, t):
                assert line not in template_text, (name, line)
        for snippet in DISTINCTIVE.get(name, []):
            assert snippet in "\n".join(source(c) for c in solution_cells), snippet
            assert snippet not in template_text, (name, snippet)
    template, solution = (LABS / SERVER).read_text(), (SOLUTIONS / SERVER).read_text()
    assert template.count("YOUR CODE HERE") == 3 and template.count("raise NotImplementedError") == 2, template
    assert "YOUR CODE HERE" not in solution and "NotImplementedError" not in solution
    notebook = "\n".join(source(c) for c in cells(LABS / NOTEBOOKS[1]))
    for line in _solution_only_lines(solution, template):
        assert line not in template and line not in notebook, line
    for snippet in DISTINCTIVE[SERVER]:
        assert snippet in solution and snippet not in template and snippet not in notebook, snippet


def test_every_lab_notebook_is_executed_once_by_the_rerun_test():
    import test_labs_rerun  # tests/ is on pytest's pythonpath (pyproject.toml)
    import test_notebooks

    assert sorted(test_labs_rerun.LABS) == sorted(p.stem for p in SOLUTIONS.glob("*.ipynb")), "a lab nobody runs"
    assert sorted(test_labs_rerun.LABS) == sorted(p.stem for p in LABS.glob("*.ipynb")), "a lab nobody runs"
    assert not [p for p in test_notebooks.NOTEBOOKS if p.relative_to(ROOT).parts[0] == "labs"], "run twice"


# --- a failing check reads as one sentence ------------------------------------------------------


class _Shell:
    """The two parts of IPython's shell that show_in_one_line uses."""

    def __init__(self, custom=()):
        self.custom_exceptions, self.shown = custom, None

    def set_custom_exc(self, exc_tuple, handler):
        self.custom_exceptions, self.handler = exc_tuple, handler

    def _showtraceback(self, etype, value, stb):
        self.shown = stb


def test_a_check_failure_is_shown_as_its_sentence_and_other_handlers_are_left_alone():
    from mcp_lab.course._check import show_in_one_line

    shell = _Shell()
    assert show_in_one_line(shell) and shell.custom_exceptions == (CheckFailed,)
    shell.handler(shell, CheckFailed, CheckFailed("process C read 2 event(s)."), None)
    assert shell.shown == ["CheckFailed: process C read 2 event(s)."], shell.shown
    theirs = _Shell(custom=(ValueError,))
    assert not show_in_one_line(theirs) and theirs.custom_exceptions == (ValueError,)


def _with_schema(good: list[dict], name: str, change) -> list[dict]:
    """The solution's catalog with one tool's inputSchema changed by `change(schema)`."""
    out = copy.deepcopy(good)
    for tool in out:
        if tool["name"] == name:
            tool["inputSchema"] = change(tool["inputSchema"])
    return out


def _deep(schema: dict) -> dict:
    nested: dict = {"type": "string", "description": "Event ID, e.g. e2."}
    for _ in range(40):
        nested = {"anyOf": [nested], "description": "Event ID, e.g. e2."}
    return {**schema, "properties": {**schema["properties"], "eventId": nested}}


@pytest.mark.parametrize(
    "name, change, pattern",
    [
        pytest.param(
            "book_room",
            lambda s: {k: v for k, v in s.items() if k != "type"},
            r'^tool book_room: expected inputSchema with "type": "object"; got no type at all\. '
            r"Spec rule: https://\S+/server/tools#tool: .*Hint: ",
            marks=pytest.mark.wire_deliberate(server="a lab 12 catalog broken on purpose (no type object)"),
        ),
        (
            "delete_event",
            lambda s: {**s, "properties": {**s["properties"], "eventId": {"$ref": "https://example.com/id.json"}}},
            r'^tool delete_event: expected only local references .*got "https://example\.com/id\.json"\. '
            r"Spec rule: https://\S+/basic/index#ref-resolution: .*Hint: ",
        ),
        (
            "list_events",
            lambda s: {**s, "$schema": "https://json-schema.org/draft/2030-01/schema"},
            r"^tool list_events: expected no \$schema .*got \"https://json-schema\.org/draft/2030-01/schema\"\. "
            r"Spec rule: https://\S+/basic/index#schema-dialect: .*Hint: ",
        ),
        (
            "delete_event",
            _deep,
            r"^tool delete_event: expected a schema nested at most 32 levels deep.*"
            r"basic/index#composition-keyword-resource-use",
        ),
    ],
    ids=["lost-type-object", "remote-ref", "unknown-dialect", "unbounded-nesting"],
)
def test_lab12_refuses_a_tool_schema_that_breaks_the_json_schema_rules(name, change, pattern):
    """Each JSON Schema rule of basic/index and server/tools, broken on one tool of a catalog that
    otherwise passes: the check names the tool, the rule's page and heading, and a hint."""
    ns = lab03(SOLUTIONS / NOTEBOOKS[2])
    good, original = ns["trimmed"], ns["catalog"]
    with pytest.raises(CheckFailed) as info:
        check_budget.check(_with_schema(good, name, change), original=original)
    assert re.search(pattern, str(info.value)), str(info.value)


def test_lab12_accepts_a_named_known_dialect_and_a_local_ref():
    """What the rules allow still passes: draft-07 named in $schema, a $ref into $defs."""
    ns = lab03(SOLUTIONS / NOTEBOOKS[2])
    good, original = ns["trimmed"], ns["catalog"]

    def local(s: dict) -> dict:
        props = {**s["properties"], "eventId": {"$ref": "#/$defs/eventId"}}
        return {**s, "$defs": {"eventId": s["properties"]["eventId"]}, "properties": props}

    allowed = _with_schema(good, "list_events", lambda s: {**s, "$schema": "http://json-schema.org/draft-07/schema#"})
    check_budget.check(allowed, original=original)
    assert check_budget.schema_problem(local(original[3]["inputSchema"])) is None
