"""Notebook 04's challenge sheet: every check fails on the text the learner starts from, with a
sentence and a hint, and passes on a right answer -- against the real servers, through the same
prepare/exchange path the `%%rpc` magic uses."""

from __future__ import annotations

import pytest

from mcp_lab.course.challenges import CHALLENGES, NotYet, judge
from mcp_lab.notebook import magics


@pytest.fixture(scope="module")
def connections():
    opened = {name: magics.connect(name)[0] for name in ("calendar", "everything")}
    yield opened
    for client in opened.values():
        client.close()


def _send(connections, challenge, text):
    client = connections[challenge.connection]
    flags = challenge.flags.split()
    body = magics.prepare(text, client, raw="--raw" in flags, meta="--meta" in flags)
    return magics.exchange(client, body)


@pytest.mark.parametrize("number", sorted(CHALLENGES))
def test_the_check_fails_on_the_starting_text_and_passes_on_a_solution(connections, number):
    c = CHALLENGES[number]
    if number == 6:  # the retry continues an interim answer: ask first, as the notebook does
        first = _send(
            connections,
            c,
            '{"jsonrpc": "2.0", "id": 60, "method": "tools/call", "params": '
            '{"name": "create_event", "arguments": {"title": "Dentist"}}}',
        )
        assert first["result"]["resultType"] == "input_required", f"expected an interim answer, got {first!r}"
    reason = judge(number, _send(connections, c, c.start))
    assert reason, f"challenge {number}: its starting text already passes the check; nothing to do for the learner"
    assert judge(number, _send(connections, c, c.solution)) is None, (
        f"challenge {number}: the solution fails the check: {judge(number, _send(connections, c, c.solution))}"
    )


def test_a_failed_check_renders_as_its_sentence_and_hint_not_a_traceback():
    e = NotYet(1, "the server answered error -32602", "look at params._meta")
    assert e._render_traceback_() == [
        "challenge 1: not yet. the server answered error -32602",
        "hint: look at params._meta",
    ]


def test_a_retry_without_action_gets_a_sentence_that_names_action_and_the_lint_points_at_elicit_result(
    connections,
):
    c = CHALLENGES[6]
    no_action = c.solution.replace('"action": "accept", ', "")
    assert '"action"' not in no_action
    answer = _send(connections, c, no_action)
    reason = judge(6, answer)
    assert "has no `action`" in reason and not reason.endswith("''"), reason
    from mcp_lab.wire import lint

    found = str(lint.lint(answer.sent))
    assert "closest is ElicitResult (the answer to elicitation/create): action" in found, found
