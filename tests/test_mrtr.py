"""mcp_lab.mrtr: the multi round-trip loop, against real server logic.

Servers: the bundled stdlib calendar, the SDK-built calendar (mcp 2.3.0, whose requestState is
an AES-GCM token), and tests/fakes/stubborn_server.py, which never stops asking (the round
bound), only says "try again later" (requestState-only rounds) or asks two forms under odd
keys. Answers come from `mcp_lab.widgets`, so every test goes through the real widget code.

The stdlib calendar and the stubborn server run in-process (their own line handlers over the
in-memory transport); the SDK calendar is a real process. What is checked is what crossed the wire: the exact lines in `client.trace.sent` and
`client.trace.received`, decoded only to compare values.
"""

from __future__ import annotations

import json
import time

import pytest
from fakes import stubborn_server  # noqa: E402  (tests/ is on sys.path: see conftest.py)

import mcp_lab
from mcp_lab import jsonrpc, mrtr, widgets
from mcp_lab.session.connect import connect_in_memory
from mcp_lab.wire.revisions import CLIENT_CAPABILITIES_KEY

WHEN = "2026-09-10T08:30:00Z"
DENTIST = {"name": "create_event", "arguments": {"title": "Dentist"}}
CREATED = f"Created e3: Dentist at {WHEN}"
BOTH_MODES = {"elicitation": widgets.capabilities()}  # what ElicitationForm can render


@pytest.fixture(params=["calendar", "sdk_calendar"])
def server(request):
    """Each calendar in turn: the bare-hands one (in-process) and the SDK one (a real process)
    speak the same wire."""
    if request.param == "calendar":
        yield request.getfixturevalue("calendar")
        return
    client = mcp_lab.connect(request.param, timeout=15.0)
    try:
        yield client
    finally:
        client.close()


@pytest.fixture
def fake():
    """fake(mode, *args) -> a Client on the stubborn server; all are closed at the end."""
    made = []

    def start(mode: str = "always", *args: str):
        later = int(args[0]) if args else stubborn_server.LATER
        c = connect_in_memory(lambda line: stubborn_server.handle_line(line, mode, later), name="stubborn")
        made.append(c)
        return c

    yield start
    for c in made:
        c.close()


def sent_requests(client, method: str = "tools/call") -> list[tuple[str, dict]]:
    """(exact line, decoded object) for every request of `method` the client wrote."""
    out = []
    for line in client.trace.sent:
        obj = json.loads(line)
        if obj.get("method") == method:
            out.append((line, obj))
    return out


def received_results(client) -> list[tuple[str, dict]]:
    return [(line, json.loads(line)) for line in client.trace.received if '"result"' in line]


def text_of(result: jsonrpc.Result) -> str:
    return " ".join(c["text"] for c in result.result.get("content", []) if c.get("type") == "text")


def never_called(key, request):
    raise AssertionError(f"the answerer was asked for {key!r} although the server requested nothing")


# ----------------------------------------------------------------------------- the happy path
def test_dentist_completes_with_a_new_id_same_keys_and_echoed_state(server):
    answer = widgets.scripted_answerer({"startsAt": WHEN})
    ex = mrtr.call(server, "tools/call", DENTIST, answer, capabilities=BOTH_MODES)

    assert ex.complete and ex.rounds == 2
    assert text_of(ex.final) == CREATED
    assert ex.responses == [{"when": {"action": "accept", "content": {"startsAt": WHEN}}}]

    (first_line, first), (retry_line, retry) = sent_requests(server)
    (interim_line, interim), (final_line, final) = received_results(server)
    # Two independent requests: a new id, each answered under its own id.
    assert first["id"] != retry["id"]
    assert (interim["id"], final["id"]) == (first["id"], retry["id"])
    assert interim["result"]["resultType"] == "input_required"
    assert final["result"]["resultType"] == "complete"
    # The retry is the ORIGINAL params plus the two continuation fields, nothing else.
    p0, p1 = first["params"], retry["params"]
    assert {k: v for k, v in p1.items() if k not in ("inputResponses", "requestState")} == p0
    assert set(p1) - set(p0) == {"inputResponses", "requestState"}
    # inputResponses answers under exactly the keys the server chose.
    assert set(p1["inputResponses"]) == set(interim["result"]["inputRequests"]) == {"when"}
    assert p1["inputResponses"]["when"] == {"action": "accept", "content": {"startsAt": WHEN}}
    # requestState: byte-exact, both as a value and as the very characters on the two lines.
    state = interim["result"]["requestState"]
    assert p1["requestState"] == state
    wire = '"requestState":' + json.dumps(state, ensure_ascii=False)
    assert wire in interim_line and wire in retry_line
    assert "requestState" not in p0 and "inputResponses" not in p0


def test_the_schema_the_form_renders_is_the_one_the_server_sent(server):
    answer = widgets.scripted_answerer({"startsAt": WHEN})
    ex = mrtr.call(server, "tools/call", DENTIST, answer, capabilities=BOTH_MODES)
    asked = ex.answers[0].result["inputRequests"]["when"]
    assert asked["method"] == "elicitation/create"
    assert asked["params"]["requestedSchema"] == {
        "type": "object",
        "properties": {"startsAt": {"type": "string", "format": "date-time"}},
        "required": ["startsAt"],
    }
    form = answer.last_form
    assert form.params == asked["params"] and list(form.fields) == ["startsAt"]
    assert type(form.fields["startsAt"]).__name__ == "DatetimePicker"
    assert form.result == ex.responses[0]["when"]


def test_every_round_is_in_the_trace(server):
    ex = mrtr.call(server, "tools/call", DENTIST, widgets.scripted_answerer({"startsAt": WHEN}))
    sends = [e for e in server.trace.of("send") if isinstance(e.message, jsonrpc.Request)]
    recvs = [e for e in server.trace.of("recv") if isinstance(e.message, jsonrpc.Result)]
    assert [e.message.id for e in sends] == [e.message.id for e in recvs]
    assert len(sends) == ex.rounds == 2
    assert [r.id for r in ex.answers] == [e.message.id for e in recvs]
    assert [e.summary.split(" ")[-1] for e in recvs] == ["input_required", "complete"]
    assert all(e.elapsed_ms is not None for e in recvs)  # each answer matched to its own send


# ----------------------------------------------------------------------------- capabilities
@pytest.mark.parametrize("declared", [BOTH_MODES, {"elicitation": {"form": {}}}])
def test_declared_capabilities_are_exactly_what_the_answerer_renders(server, declared):
    mrtr.call(server, "tools/call", DENTIST, widgets.scripted_answerer({"startsAt": WHEN}), capabilities=declared)
    metas = [obj["params"]["_meta"][CLIENT_CAPABILITIES_KEY] for _, obj in sent_requests(server)]
    assert metas == [declared, declared]  # the same declaration in every round, nothing added


def test_an_answerer_that_renders_nothing_is_not_asked(server):
    # Declaring no elicitation is honest for a client that cannot show a form: the server must
    # then not ask (both calendars refuse with -32021 instead), and the answerer is never called.
    ex = mrtr.call(server, "tools/call", DENTIST, never_called, capabilities={})
    assert ex.rounds == 1 and isinstance(ex.final, jsonrpc.Error)
    assert ex.final.code == jsonrpc.MISSING_REQUIRED_CLIENT_CAPABILITY
    ((_, obj),) = sent_requests(server)
    assert obj["params"]["_meta"][CLIENT_CAPABILITIES_KEY] == {}


def test_interactive_declares_what_its_widgets_render(server):
    it = mrtr.interactive(server, "tools/call", DENTIST)
    it.form("when").set(startsAt=WHEN).accept()
    metas = [obj["params"]["_meta"][CLIENT_CAPABILITIES_KEY] for _, obj in sent_requests(server)]
    assert metas == [{"elicitation": widgets.capabilities()}] * 2 == [BOTH_MODES] * 2


# ----------------------------------------------------------------------------- decline / cancel
@pytest.mark.parametrize("action", ["decline", "cancel"])
def test_decline_and_cancel_end_in_a_tool_error(server, action):
    ex = mrtr.call(server, "tools/call", DENTIST, widgets.scripted_answerer(action=action), capabilities=BOTH_MODES)
    assert ex.rounds == 2 and ex.complete
    assert ex.final.result["isError"] is True and action in text_of(ex.final)
    (_, retry) = sent_requests(server)[1]
    assert retry["params"]["inputResponses"] == {"when": {"action": action}}  # no content key at all
    # Nothing was created: the week still holds the two seed events.
    week = server.request("resources/read", {"uri": "calendar://week"}).unwrap()
    assert [e["id"] for e in json.loads(week["contents"][0]["text"])] == ["e1", "e2"]


# ----------------------------------------------------------------------------- the round bound
def test_a_server_that_never_stops_asking_is_cut_off_after_10_rounds(fake):
    client = fake("always")
    asked = []

    def answer(key, request):
        asked.append(key)
        return widgets.scripted_answerer({"startsAt": WHEN})(key, request)

    with pytest.raises(mrtr.RoundsExceeded, match=r"still asked for input after 10 rounds; giving up") as info:
        mrtr.call(client, "tools/call", {"name": "x", "arguments": {}}, answer)
    assert info.value.data == {"rounds": 10} and mrtr.MAX_ROUNDS == 10
    assert info.value.exchange.rounds == 10 and not info.value.exchange.complete  # nothing lost
    sent = sent_requests(client)
    assert len(sent) == 10 and len({obj["id"] for _, obj in sent}) == 10
    assert asked == [f"ask-{n}" for n in range(1, 10)]  # the 10th interim result is not answered
    # Round n+1 answers round n's key and echoes round n's state, not an older one.
    for n, (_, obj) in enumerate(sent[1:], start=1):
        assert list(obj["params"]["inputResponses"]) == [f"ask-{n}"]
        assert obj["params"]["requestState"].startswith(f"round {n}:")


def test_the_round_bound_is_a_parameter(fake):
    with pytest.raises(mrtr.RoundsExceeded, match="after 3 rounds"):
        mrtr.call(
            fake("always"), "tools/call", {"name": "x"}, widgets.scripted_answerer({"startsAt": WHEN}), max_rounds=3
        )


def test_interactive_stops_after_10_rounds_with_a_visible_message(fake):
    client = fake("always")
    it = mrtr.interactive(client, "tools/call", {"name": "x"})
    filled = 0
    while not it.done:
        (key,) = it.round.forms
        it.form(key).set(startsAt=WHEN).accept()
        filled += 1
    assert filled == 9 and it.exchange.rounds == 10 and len(sent_requests(client)) == 10
    assert it.final.result_type == "input_required"
    assert "after 10 rounds" in it.widget.children[-1].value


# ----------------------------------------------------------------------------- requestState only
def test_request_state_only_results_are_retried_without_asking(fake):
    client = fake("later", "3")
    ex = mrtr.call(client, "tools/call", {"name": "x", "arguments": {"k": 1}}, never_called, backoff=(0.0, 0.0))
    assert ex.complete and ex.rounds == 4 and ex.responses == [{}, {}, {}]
    states = [obj["result"]["requestState"] for _, obj in received_results(client)[:3]]
    sent = sent_requests(client)
    for (_, obj), state in zip(sent[1:], states):
        # Only the echoed state travels: no empty inputResponses is invented.
        assert set(obj["params"]) == {"name", "arguments", "requestState", "_meta"}
        assert obj["params"]["requestState"] == state
    # The tricky characters (quotes, backslash, non-ASCII, trailing spaces) survived every echo.
    assert ex.final.result["structuredContent"] == {"requestState": states[-1], "inputResponses": None, "rounds": 3}
    assert states[-1].endswith("✓ +/=  ")


def test_request_state_only_rounds_back_off_boundedly(fake):
    # The default pause is 50 ms, doubling, capped at 250 ms: 50 + 100 + 200 + 250 for four rounds.
    client = fake("later", "4")
    t0 = time.monotonic()
    ex = mrtr.call(client, "tools/call", {"name": "x"}, never_called)
    took = time.monotonic() - t0
    assert ex.complete and ex.rounds == 5
    assert 0.6 <= took < 5.0


def test_interactive_retries_request_state_only_results_at_once(fake):
    it = mrtr.interactive(fake("later", "2"), "tools/call", {"name": "x"})
    assert it.done and it.exchange.rounds == 3 and text_of(it.final) == "done"


# ----------------------------------------------------------------------------- several keys
def test_input_responses_use_the_servers_keys_exactly(fake):
    client = fake("two-keys")
    ex = mrtr.call(
        client,
        "tools/call",
        {"name": "x"},
        widgets.scripted_answerer({"startsAt": WHEN, "room": "B"}),
        capabilities=BOTH_MODES,
    )
    assert ex.complete
    expected = {
        "when/1": {"action": "accept", "content": {"startsAt": WHEN}},
        "Where ✓": {"action": "accept", "content": {"room": "B"}},
    }
    assert sent_requests(client)[1][1]["params"]["inputResponses"] == expected
    assert ex.final.result["structuredContent"]["inputResponses"] == expected  # as the server saw them


# ----------------------------------------------------------------------------- Interactive from code
def test_interactive_accept_from_code_completes(server):
    it = mrtr.interactive(server, "tools/call", DENTIST)
    assert not it.done and it.exchange.rounds == 1
    form = it.form("when")
    assert form.result is None and not form.can_accept  # required and empty: Accept is blocked
    assert form.accept() is None and not it.done  # pressing it anyway sends nothing
    form.set(startsAt=WHEN)
    assert form.can_accept
    assert form.accept() == {"action": "accept", "content": {"startsAt": WHEN}}
    assert it.done and it.exchange.rounds == 2 and text_of(it.final) == CREATED
    assert CREATED in it.widget.children[-1].value  # the outcome replaces the form
    with pytest.raises(LookupError, match="no form is waiting"):
        it.form("when")
    (_, first), (_, retry) = sent_requests(server)
    assert retry["params"]["requestState"] == it.exchange.answers[0].result["requestState"]
    assert retry["id"] != first["id"]


def test_interactive_decline_from_code_is_an_error_result(server):
    it = mrtr.interactive(server, "tools/call", DENTIST)
    assert it.form("when").decline() == {"action": "decline"}
    assert it.done and it.final.result["isError"] is True
    assert "decline" in text_of(it.final) and "decline" in it.widget.children[-1].value


def test_interactive_richer_form_from_the_sdk_server():
    with mcp_lab.connect("sdk_calendar", timeout=15.0) as sdk:
        it = mrtr.interactive(sdk, "tools/call", {"name": "book_table", "arguments": {"restaurant": "Chez Mia"}})
        form = it.form("booking")
        assert {k: type(v).__name__ for k, v in form.fields.items()} == {
            "seating": "Dropdown",
            "partySize": "Text",
            "highChair": "Checkbox",
            "guestName": "Text",
        }
        assert form.content == {"partySize": 2, "highChair": False, "guestName": "Guest"}  # the defaults
        form.set(seating="terrace", partySize=13)
        assert form.errors == {"partySize": "must be at most 12"} and form.accept() is None
        form.set(partySize=4, highChair=True)
        form.accept()
        assert text_of(it.final) == "Booked a terrace table for 4 at Chez Mia under Guest (with a high chair)."
        assert it.final.result["structuredContent"] == {
            "restaurant": "Chez Mia",
            "seating": "terrace",
            "partySize": 4,
            "highChair": True,
            "guestName": "Guest",
        }


def test_only_the_three_mrtr_methods_are_accepted(calendar):
    with pytest.raises(ValueError, match="tools/list cannot answer input_required"):
        mrtr.call(calendar, "tools/list", {}, never_called)
    assert calendar.trace.sent == []


def test_interactive_shows_a_retry_that_fails_instead_of_swallowing_it():
    client = mcp_lab.connect("calendar")
    try:
        run = mrtr.interactive(client, "tools/call", {"name": "create_event", "arguments": {"title": "Dentist"}})
        form = run.form("when")
        form.set(startsAt=WHEN)
        client.close()  # the server is gone before the person presses Accept
        form.accept()
        assert run.done and run.error is not None
        assert "The retry failed" in run.widget.children[0].value
    finally:
        client.close()


@pytest.mark.wire_deliberate(server="a server answering with an unknown resultType, to see the client refuse it")
def test_an_invalid_answer_is_a_local_error_never_mistaken_for_the_servers():
    from mcp_lab.wire.errors import InvalidAnswer, ProtocolError

    def odd(line):
        msg = json.loads(line)
        return json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": {"resultType": "partial", "content": []}})

    with connect_in_memory(odd, name="odd") as c:
        with pytest.raises(InvalidAnswer, match="unknown resultType 'partial'") as info:
            mrtr.call(c, "tools/call", {"name": "x", "arguments": {}}, never_called)
    assert not isinstance(info.value, ProtocolError) and not hasattr(info.value, "code"), info.value
