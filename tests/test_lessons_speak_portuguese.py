"""In the Portuguese edition, every lesson's predictions, quizzes and typed tasks show Portuguese.

One case per lesson module (`mcp_lab/course/lessons/*.py`, found at collection time, so a new
module is covered without touching this file).  With the kernel speaking pt-BR, the test builds
what the learner sees and asserts, for each

- prediction (`ASKS`): the widget's title shows the catalog's Portuguese prompt, never the English
  one, and the reason shown after the verdict (`why`) has a Portuguese text of its own;
- self-check question (`QUESTIONS` or `quiz()`): the widget shows the Portuguese prompt, and every
  option's explanation has a Portuguese text;
- typed task (`TASKS`): the line that says what to type and the line shown when it is done.

A failure names the lesson and the English that has no translation: mark it `N_()` in the module,
run `make translations`, and translate the new entry in mcp_lab/locale/pt_BR/LC_MESSAGES/mcp_lab.po.
"""

from __future__ import annotations

import html
import importlib
import pkgutil

import pytest

from mcp_lab.course import lessons
from mcp_lab.notebook import i18n, interactions
from mcp_lab.notebook.quiz import markdown_html
from mcp_lab.wire.words import _

# A module whose words are the sentences a function returns, not tables of texts: its own test below.
SENTENCES_ONLY = {"lab08"}
MODULES = sorted(
    m.name
    for m in pkgutil.iter_modules(lessons.__path__)
    if not m.name.startswith("_") and m.name not in SENTENCES_ONLY
)


@pytest.fixture
def portuguese(monkeypatch):
    for name in ("MCP_LAB_LANG", "JPY_SESSION_NAME"):
        monkeypatch.delenv(name, raising=False)
    interactions.clear()
    i18n.set_language("pt-BR")
    yield
    i18n.set_language(None)
    interactions.clear()


def _questions(module) -> list:
    if hasattr(module, "QUESTIONS"):
        return list(module.QUESTIONS)
    return list(module.quiz().questions) if hasattr(module, "quiz") else []


def _untranslated(texts) -> list[str]:
    return [t for t in texts if t and _(t) == t]


@pytest.mark.parametrize("name", MODULES)
def test_a_lessons_words_show_in_portuguese(portuguese, name):
    module = importlib.import_module(f"{lessons.__name__}.{name}")
    asks = getattr(module, "ASKS", {})
    questions = _questions(module)
    tasks = getattr(module, "TASKS", {})
    assert asks or questions or tasks, f"{name} holds no prediction, quiz or task"

    missing = []
    for key, ask in asks.items():
        title = lessons.predict(key).widget.children[0].value
        assert "Predict:" not in title, title
        if _(ask.prompt) == ask.prompt or html.escape(ask.prompt) in title:
            missing.append(f"prediction {key}: {ask.prompt!r}")
        elif html.escape(_(ask.prompt)) not in title:
            missing.append(f"prediction {key}: the widget does not show the Portuguese prompt")
        missing += [f"prediction {key} why: {t!r}" for t in _untranslated([ask.why])]
    for n, q in enumerate(questions, 1):
        shown = q.widget.children[0].value
        if _(q.prompt) == q.prompt or markdown_html(_(q.prompt)) not in shown:
            missing.append(f"question {n}: {q.prompt!r}")
        missing += [f"question {n} explanation: {t!r}" for t in _untranslated(q.explanations)]
    for key, task in tasks.items():
        missing += [f"task {key}: {t!r}" for t in _untranslated([task.prompt, task.done])]
    assert not missing, f"{name} shows English in the Portuguese edition:\n" + "\n".join(missing)


def test_the_portuguese_prompt_replaces_the_english_one(portuguese):
    """A known case, so the generic test above cannot pass by comparing a string with itself."""
    guess = lessons.predict("tools-list-asks-2025")
    title = guess.widget.children[0].value
    assert "Um tools/list cujo _meta pede a revisão 2025-11-25" in title
    assert "sent to this calendar" not in title
    labels = [label for label, _value in guess._input.options]
    assert labels == ["um resultado completo", "-32602", "-32022", "-32601"]
    assert guess.options[0] == "a complete result"  # the value expect() compares stays English


def test_lab08_says_what_the_server_did_in_portuguese(portuguese):
    """lab08.said() reads the learner's server's answer into one sentence, shown in the edition's
    language; what the server said (its TODO message, the person's question) stays as it came."""
    from mcp_lab.course.lessons import lab08
    from mcp_lab.wire import jsonrpc

    todo = jsonrpc.Error(1, -32603, "NotImplementedError: TODO 2 in ask_for_room")
    assert lab08.said(todo) == "ainda não terminado: TODO 2 (o servidor diz: TODO 2 in ask_for_room)"
    asked = jsonrpc.Result(
        1, {"resultType": "input_required", "inputRequests": {"room": {"params": {"message": "Room?"}}}}
    )
    assert lab08.said(asked) == "pergunta à pessoa (room: Room?)"
    assert "NÃO DEVE" in lab08.said(asked, declared_form=False)
    refused = jsonrpc.Error(1, lab08.MISSING_CAPABILITY, "m", data={"elicitation": {"form": {}}})
    assert lab08.said(refused).startswith("recusada com -32021, embora esta solicitação tenha declarado um formulário")
    assert lab08.said(refused, declared_form=False).startswith("recusada com -32021, citando {'elicitation'")
    assert lab08.said(5) == "não há resposta para ler: 5"
