"""The sampling and roots forms (`mcp_lab.notebook.client_forms`), alone and in a real MRTR call."""

from __future__ import annotations

import pytest

import mcp_lab
from mcp_lab import mrtr
from mcp_lab.notebook.client_forms import PERSON_MODEL, RootsForm, SamplingForm

ROOTS = [{"uri": "file:///projects/learner/calendar", "name": "Calendar"}, {"uri": "file:///projects/learner/notes"}]


def test_sampling_form_blocks_an_empty_reply_then_sends_a_create_message_result():
    form = SamplingForm({"messages": [{"role": "user", "content": {"type": "text", "text": "Hi?"}}], "maxTokens": 9})
    assert form.send() is None and "Write a reply first" in form._status.value
    sent = form.answer("Hello.")
    assert sent == {
        "role": "assistant",
        "content": {"type": "text", "text": "Hello."},
        "model": PERSON_MODEL,
        "stopReason": "endTurn",
    }
    assert form.reply.disabled and form.button.disabled


def test_roots_form_shares_only_what_is_ticked_and_refuses_foreign_uris():
    form = RootsForm(ROOTS)
    assert not any(box.value for box in form.boxes.values()), "nothing shared by default"
    with pytest.raises(ValueError, match="not a root this client offers"):
        form.set(["file:///etc"])
    assert form.answer(["file:///projects/learner/notes"]) == {"roots": [ROOTS[1]]}
    with pytest.raises(ValueError, match="file://"):
        RootsForm([{"uri": "https://example.com/repo"}])


def test_interactive_answers_roots_then_sampling_against_the_showcase():
    with mcp_lab.connect("showcase", timeout=20) as sc:
        call = mrtr.interactive(
            sc, "tools/call", {"name": "brief_project", "arguments": {}}, sampling=True, roots=ROOTS
        )
        call.form("workspace").answer([ROOTS[0]["uri"]])
        call.form("summary").answer("A calendar.")
        assert call.done
        assert call.final.result["content"][0]["text"] == "Brief of file:///projects/learner/calendar: A calendar."
        first, second, third = (mcp_lab.jsonrpc.parse(line).params for line in sc.trace.sent)
        caps = first["_meta"]["io.modelcontextprotocol/clientCapabilities"]
        assert caps["sampling"] == {} and caps["roots"] == {}
        assert "requestState" not in second, "round 1 gave none, so the retry MUST NOT carry one"
        assert "requestState" in third
