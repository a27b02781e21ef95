"""The interactions API of the lessons, without a browser: IPython's real InteractiveShell, the
real widgets (their handlers run as a click runs them), the bundled calendar.

- `%load_ext mcp_lab` turns on pytest's assertion rewriting: a failing one-line fact check shows
  its reason and both compared values;
- every interactive part registers under its key, carries `mcp-lab-pending` while unanswered,
  and is answered through its own widgets; re-running a cell replaces what it registered;
- a prediction's reveal stays hidden until the prediction is made, in either order with expect();
- a %%rpc challenge left as it started waits without raising;
- `folded` shows the first items and folds the rest.
"""

from __future__ import annotations

import html

import pytest

import mcp_lab
from mcp_lab.notebook import interactions
from mcp_lab.notebook.interactions import PENDING_CLASS


@pytest.fixture(scope="module")
def ip():
    from IPython import get_ipython
    from IPython.testing.globalipapp import start_ipython

    shell = start_ipython() or get_ipython()  # started once per process; later calls return None
    shell.run_line_magic("load_ext", "mcp_lab")
    shell.run_cell("import mcp_lab")
    yield shell
    shell.run_cell("%mcp close calendar")


@pytest.fixture(autouse=True)
def fresh_registry():
    interactions.clear()
    yield
    interactions.clear()


def run(ip, source: str):
    result = ip.run_cell(source)
    if result.error_in_exec is not None:
        raise result.error_in_exec
    return result.result


def pending_keys() -> list[str]:
    return [i.key for i in interactions.pending()]


# -- assertion rewriting -------------------------------------------------------------------------
def test_a_failing_fact_check_shows_its_reason_and_both_values(ip):
    result = ip.run_cell(
        'answer = {"resultType": "input_required"}\nassert answer["resultType"] == "complete", "B finishes"'
    )
    message = str(result.error_in_exec)
    assert isinstance(result.error_in_exec, AssertionError), message
    assert message.splitlines()[0] == "B finishes", message
    assert "'input_required' == 'complete'" in message, message


def test_a_passing_fact_check_is_silent(ip):
    assert ip.run_cell('assert 1 + 1 == 2, "arithmetic"').error_in_exec is None


# -- the registry ------------------------------------------------------------------------------
def test_register_answer_and_settle_through_the_owner():
    import ipywidgets as w

    state = {"value": None}
    box = w.VBox()
    item = interactions.register(
        "thing",
        "choice",
        is_done=lambda: state["value"] is not None,
        act=lambda v: state.update(value=v),
        widget=box,
    )
    assert PENDING_CLASS in box._dom_classes and pending_keys() == ["thing"]
    interactions.answer("thing", 3)
    assert state["value"] == 3 and item.done and pending_keys() == []
    assert PENDING_CLASS not in box._dom_classes
    with pytest.raises(KeyError, match="no interaction 'nope'"):
        interactions.answer("nope", 1)
    with pytest.raises(ValueError, match="kind must be one of"):
        interactions.register("x", "poll", is_done=lambda: False, act=print)


def test_re_running_a_cell_replaces_what_it_registered(ip):
    cell = 'g = mcp_lab.predict("same", "Which?", options=["a", "b"])\ng'
    run(ip, cell)
    first = interactions.get("same").owner
    run(ip, cell)  # the learner's second Shift-Enter
    assert interactions.get("same").owner is not first and pending_keys() == ["same"]


def test_a_key_two_cells_register_is_a_conflict(ip):
    run(ip, 'a = mcp_lab.predict("same-key", "?", options=["x", "y"])')
    run(ip, 'b = mcp_lab.predict("same-key", "!", options=["x", "y"])')  # another cell, same key
    assert interactions.conflicts() == ["same-key"]
    run(ip, 'b = mcp_lab.predict("same-key", "!", options=["x", "y"])')  # that cell again: no more
    assert interactions.conflicts() == ["same-key"]


# -- predictions -------------------------------------------------------------------------------
def test_prediction_hidden_until_made_then_expect(ip):
    run(ip, 'guess = mcp_lab.predict("version", "What comes back?", options=["-32602", "-32022"])\nguess')
    run(ip, 'with guess.reveal():\n    print("the real answer")')
    guess = ip.user_ns["guess"]
    area = guess._reveals[-1]
    assert area["out"].layout.display == "none" and area["wait"].layout.display != "none"
    assert PENDING_CLASS in guess.widget._dom_classes and guess.held is None
    interactions.answer("version", "-32602")
    assert area["out"].layout.display != "none" and area["wait"].layout.display == "none"
    assert PENDING_CLASS not in guess.widget._dom_classes
    guess.expect("-32022", why="the server serves 2026-07-28 only")  # answer, then expect
    assert guess.held is False
    assert guess.verdict() == (
        "Not quite: you predicted -32602, the answer is -32022. Why: the server serves 2026-07-28 only"
    )
    assert "Not quite" in area["verdict"].value


def test_prediction_expect_before_the_answer_and_typed_answers(ip):
    run(ip, 'count = mcp_lab.predict("count", "How many events?", kind=int)\ncount')
    count = ip.user_ns["count"]
    count.expect(2, why="e1 and e2")  # expect, then answer
    assert count.held is None and count.verdict() == ""
    interactions.answer("count", 2)
    assert count.held is True and count.verdict() == "Your prediction held: 2. Why: e1 and e2"
    interactions.answer("count", 5)  # a prediction is made once: the form is frozen
    assert count.value == 2
    with pytest.raises(ValueError, match="not one of the options"):
        mcp_lab.predict("p", "?", options=["x", "y"]).interaction.answer("z")
    with pytest.raises(ValueError, match="needs options"):
        mcp_lab.predict("p", "?")


def test_an_error_inside_a_reveal_reaches_the_cell(ip):
    run(ip, 'g = mcp_lab.predict("boom", "?", options=["a", "b"])')
    result = ip.run_cell('with g.reveal():\n    raise RuntimeError("the server died")')
    assert isinstance(result.error_in_exec, RuntimeError)


# -- quiz ----------------------------------------------------------------------------------------
def test_quiz_questions_register_as_key_slash_n_and_default_to_nothing():
    from mcp_lab.quiz import Question, Quiz

    q = [Question(f"Q{i}?", ["no", "yes"], answer=1, explanations=["No.", "Yes."]) for i in range(2)]
    quiz = Quiz(q, key="stdio-quiz")
    assert pending_keys() == ["stdio-quiz/1", "stdio-quiz/2"]
    assert [i.solution for i in interactions.pending()] == [1, 1]
    assert all(PENDING_CLASS in x.widget._dom_classes for x in q)
    assert interactions.answer("stdio-quiz/1", 0) is False  # a wrong answer is an answer
    interactions.answer("stdio-quiz/2", "yes")  # by option text too
    assert pending_keys() == [] and quiz.score == 1
    assert not any(PENDING_CLASS in x.widget._dom_classes for x in q)


# -- forms (elicitation) -------------------------------------------------------------------------
def test_a_form_per_elicitation_answered_with_field_values(calendar):
    run_ = mcp_lab.mrtr.interactive(
        calendar, "tools/call", {"name": "create_event", "arguments": {"title": "Dentist"}}, key="dentist"
    )
    item = interactions.get("dentist")
    assert item.kind == "form" and not item.done and PENDING_CLASS in item.widget._dom_classes
    interactions.answer("dentist", {"startsAt": "2026-09-10T08:30:00Z"})
    assert run_.done and run_.final.result_type == "complete", run_.final
    assert PENDING_CLASS not in item.widget._dom_classes and pending_keys() == []


def test_a_declined_form_and_a_bad_value(calendar):
    run_ = mcp_lab.mrtr.interactive(calendar, "tools/call", {"name": "create_event", "arguments": {"title": "X"}})
    assert pending_keys() == ["create_event"], "without key= the tool's name is the key"
    with pytest.raises(ValueError, match="create_event: answer a form with a dict"):
        interactions.answer("create_event", 42)
    interactions.answer("create_event", "decline")
    assert run_.done and pending_keys() == []


# -- consent -------------------------------------------------------------------------------------
def test_consent_prompts_register_and_allow_sends_the_call(calendar):
    from mcp_lab.notebook.consent import ConsentGate

    tool = calendar.request("tools/list").unwrap()["tools"][0]
    booking = {"title": "Dentist", "startsAt": "2026-09-10T08:30:00Z"}
    results = []
    gate = ConsentGate(lambda prompt: None, key="gate")
    first = gate.call(calendar, tool, booking, server="calendar", then=results.append)
    second = gate.call(calendar, tool, booking, server="calendar", then=results.append)
    assert pending_keys() == ["gate/1", "gate/2"] and (first.key, second.key) == ("gate/1", "gate/2")
    assert results == [], "nothing is sent before the person decides"
    interactions.answer("gate/1", "allow")
    interactions.answer("gate/2", "deny")
    assert results[0]["content"][0]["text"].startswith("Created"), results[0]
    assert results[1]["isError"] is True
    assert pending_keys() == [] and PENDING_CLASS not in first.widget()._dom_classes
    with pytest.raises(ValueError, match="answer 'allow' or 'deny'"):
        gate.call(calendar, tool, {}, server="calendar", then=results.append)
        interactions.answer("gate/3", "yes")


def test_a_failed_send_after_allow_is_shown_under_the_prompt():
    from mcp_lab.notebook.consent import ConsentGate

    client = mcp_lab.connect("calendar")
    tool = client.request("tools/list").unwrap()["tools"][0]
    client.close()
    prompt = ConsentGate(lambda p: None).call(client, tool, {}, server="calendar", then=print)
    prompt.allow()
    assert prompt.error is not None and "The call failed" in prompt._status.value


# -- choice --------------------------------------------------------------------------------------
def test_choose_the_primitive_is_a_widget_graded_on_check():
    from mcp_lab.course.exercises import PRIMITIVE_CASES, check_primitives

    ex = check_primitives()
    assert pending_keys() == ["primitives"] and ex.score is None
    assert ex._feedback.value == "", "nothing graded or shown before the learner acts"
    ex._button.click()  # Check with blanks: a hint, still pending
    assert "Fill in every line" in ex._feedback.value and pending_keys() == ["primitives"]
    everything_a_tool = {c.capability: ("tool", "model") for c in PRIMITIVE_CASES}
    right = sum(c.primitive == "tool" and c.decider == "model" for c in PRIMITIVE_CASES)
    assert interactions.answer("primitives", everything_a_tool) == right
    assert pending_keys() == [] and "not quite: you picked tool, model" in ex._feedback.value
    assert all(html.escape(c.why[1:]) in ex._feedback.value for c in PRIMITIVE_CASES), "every answer explained"
    ex2 = check_primitives()
    interactions.answer("primitives", [(c.primitive, c.decider) for c in PRIMITIVE_CASES])
    assert ex2.score == len(PRIMITIVE_CASES)


# -- challenges ----------------------------------------------------------------------------------
def test_an_untouched_challenge_waits_and_an_attempt_is_judged(ip, capsys):
    from mcp_lab.course.challenges import CHALLENGES, NotYet

    run(ip, "%mcp connect calendar")
    run(ip, "from mcp_lab.course.challenges import check")
    run(ip, f"%%rpc calendar\n{CHALLENGES[1].start}")
    run(ip, "check(1)")  # the starting text, unchanged: waiting, no raise
    assert "challenge 1: waiting for your message" in capsys.readouterr().out
    assert pending_keys() == ["challenge-1"]
    with pytest.raises(NotYet, match="challenge 1: not yet"):
        run(ip, '%%rpc calendar\n{"jsonrpc": "2.0", "id": 1, "method": "tools/lis"}\n')
        run(ip, "check(1)")
    interactions.answer("challenge-1", CHALLENGES[1].solution)
    assert pending_keys() == [] and "challenge 1: done." in capsys.readouterr().out


# -- folded --------------------------------------------------------------------------------------
def test_folded_shows_the_first_items_and_folds_the_rest():
    from mcp_lab.notebook.views import folded

    tools = [{"name": f"tool{i}"} for i in range(12)]
    view = folded(tools, "the server's tools", keep=5)
    page = view._repr_html_()
    assert page.count("tool") == 12 + 1 and "7 more, click to open" in page
    assert page.index("tool4") < page.index("<details>") < page.index("tool5")
    assert repr(view).splitlines()[-1] == "  ... 7 more"
    assert "<details>" not in folded(tools[:3], "few")._repr_html_()


def test_no_harness_switch_is_left_in_the_package():
    import mcp_lab.quiz as quiz

    assert not hasattr(quiz, "answer_from_code") and not hasattr(quiz, "HARNESS_VARIABLE")
