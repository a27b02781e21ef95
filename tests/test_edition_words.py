"""What a learner sees speaks the edition; what crosses the wire never does.

- which edition a kernel speaks (its notebook's path, MCP_LAB_LANG, %mcp lang; never LANG), and
  that the widgets, verdicts, lint findings (the envelope table's lines) then speak it while the
  wire's own messages stay English;
- what a learner meets outside the lesson modules: 00's course map, 09's isolation table, the
  diagrams' lifelines, 02's grid.
The catalogs and the pipeline that feed these are tests/test_translations.py's.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from _support import ROOT

from mcp_lab.wire.words import _, ngettext


# -- the kernel's edition ------------------------------------------------------------------------------
def test_english_is_the_message_itself(edition):
    assert edition.language() == "en"
    assert _("Predict") == "Predict"
    assert ngettext("{n} error", "{n} errors", 1) == "{n} error"
    assert ngettext("{n} error", "{n} errors", 2) == "{n} errors"


def test_a_portuguese_kernel_reads_the_catalog(edition):
    edition.set_language("pt-BR")
    assert _("Predict") == "Prever"
    assert ngettext("{n} error", "{n} errors", 1).format(n=1) == "1 erro"
    assert ngettext("{n} error", "{n} errors", 3).format(n=3) == "3 erros"
    assert _("a message no catalog holds") == "a message no catalog holds"


@pytest.mark.parametrize(
    "env, expected",
    [
        ({"JPY_SESSION_NAME": "/course/notebooks/pt-BR/02-json-rpc-by-hand.ipynb"}, "pt-BR"),
        ({"JPY_SESSION_NAME": "/course/labs/pt-BR/08-ask-the-person.ipynb"}, "pt-BR"),
        ({"JPY_SESSION_NAME": "/course/notebooks/02-json-rpc-by-hand.ipynb"}, "en"),
        ({"JPY_SESSION_NAME": "/course/notebooks/pt-BR.ipynb"}, "en"),  # a file's name is not a folder
        ({"LANG": "pt_BR.UTF-8", "LC_ALL": "pt_BR.UTF-8"}, "en"),  # the machine's locale is never read
        ({"MCP_LAB_LANG": "pt_BR"}, "pt-BR"),
        ({"MCP_LAB_LANG": "en", "JPY_SESSION_NAME": "/c/notebooks/pt-BR/00.ipynb"}, "en"),
        ({"MCP_LAB_LANG": "klingon"}, "en"),
    ],
)
def test_the_edition_follows_the_notebook(edition, monkeypatch, env, expected):
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert edition.language() == expected


def test_set_language_wins_and_a_wrong_tag_is_one_line(edition, monkeypatch):
    monkeypatch.setenv("JPY_SESSION_NAME", "/c/notebooks/pt-BR/00-start-here.ipynb")
    assert edition.set_language("en") == "en"
    assert edition.set_language(None) == "pt-BR"
    with pytest.raises(ValueError, match=r"^no 'fr' edition: the course speaks en, pt-BR$"):
        edition.set_language("fr")


def test_the_mcp_lang_magic(edition, capsys):
    from IPython.core.error import UsageError

    from mcp_lab.notebook.magics import _lang

    _lang(["pt-BR"])
    assert capsys.readouterr().out.strip() == "o mcp_lab fala pt-BR"  # said in the edition now in force
    assert _("Accept") == "Aceitar"
    _lang(["auto"])
    assert edition.language() == "en"
    with pytest.raises(UsageError, match="no 'de' edition"):
        _lang(["de"])


def test_what_a_learner_sees_speaks_the_edition(edition):
    from mcp_lab.notebook.form import ElicitationForm
    from mcp_lab.notebook.predict import Prediction
    from mcp_lab.notebook.quiz import Question
    from mcp_lab.wire.lint import lint

    schema = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
    bad = '{"jsonrpc": "2.0", "id": null, "method": "tools/list"}'
    seen = {}
    for tag in ("en", "pt-BR"):
        edition.set_language(tag)
        guess = Prediction("k", "Which code?", ["-32602", "-32601"])
        guess.interaction.act("-32602")
        guess.expect("-32601", why="the method is unknown")
        form = ElicitationForm({"mode": "form", "message": "Name?", "requestedSchema": schema})
        q = Question("Which?", ["a", "b"], answer=0, explanations=["yes", "no"])
        q.choose(1)
        seen[tag] = (
            guess._button.description,
            guess.verdict(),
            [b.description for b in form.buttons.values()],
            form.errors["name"],
            q.feedback.splitlines()[0],
            lint(bad, era="modern").text().splitlines()[0],
        )
    assert seen["en"] == (
        "Predict",
        "Not quite: you predicted -32602, the answer is -32601. Why: the method is unknown",
        ["Accept", "Decline", "Cancel"],
        "required",
        "Not quite. The right answer is: a.",
        "lint: 2 errors",
    )
    assert seen["pt-BR"] == (
        "Prever",
        "Não foi bem assim: você previu -32602; a resposta é -32601. Por quê: the method is unknown",
        ["Aceitar", "Recusar", "Cancelar"],
        "obrigatório",
        "Não foi bem assim. A resposta certa é: a.",
        "lint: 2 erros",
    )


def test_the_wire_is_never_translated(edition):
    """Rule names, severities as data, spec anchors and what is sent stay English in any edition."""
    from mcp_lab.wire.lint import lint

    edition.set_language("pt-BR")
    found = lint('{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}', era="modern")
    assert found.rules == ["meta-missing"] and found[0].severity == "error"
    assert found[0].section == "basic/index#general-fields"
    assert "io.modelcontextprotocol/protocolVersion" in found[0].message


# One message breaking each row of the envelope table (tests/test_envelope_rules.py has many more).
ENVELOPE_BREAKERS = {
    "batch": [],
    "not-object": 1,
    "jsonrpc-version": {"jsonrpc": "1.0", "id": 1, "method": "x"},
    "id-null": {"jsonrpc": "2.0", "id": None, "method": "x"},
    "error-id-null": {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "m"}},
    "id-type": {"jsonrpc": "2.0", "id": True, "method": "x"},
    "method-missing": {"jsonrpc": "2.0", "id": 1},
    "method-type": {"jsonrpc": "2.0", "id": 1, "method": ""},
    "mixed-message": {"jsonrpc": "2.0", "id": 1, "method": "x", "result": {}},
    "params-type": {"jsonrpc": "2.0", "id": 1, "method": "x", "params": [1]},
    "result-and-error": {"jsonrpc": "2.0", "id": 1, "result": {}, "error": {"code": 1, "message": "m"}},
    "result-id": {"jsonrpc": "2.0", "result": {}},
    "result-type": {"jsonrpc": "2.0", "id": 1, "result": 3},
    "error-code": {"jsonrpc": "2.0", "id": 1, "error": {"message": "m"}},
    "error-message": {"jsonrpc": "2.0", "id": 1, "error": {"code": 1}},
}


def test_envelope_findings_speak_the_edition_but_the_wire_stays_english(edition):
    """The lint shows each envelope row's line in Portuguese; what the parser raises (and a server
    sends back as its JSON-RPC error message) is the same English in any edition."""
    from mcp_lab.wire import jsonrpc
    from mcp_lab.wire.lint import lint

    assert set(ENVELOPE_BREAKERS) == {row.rule for row in jsonrpc.ENVELOPE_RULES}
    rows = {row.rule: row for row in jsonrpc.ENVELOPE_RULES}
    english = {rule: rows[rule].message(value) for rule, value in ENVELOPE_BREAKERS.items()}
    edition.set_language("pt-BR")
    for rule, value in ENVELOPE_BREAKERS.items():
        assert rows[rule].message(value) == english[rule], rule
        assert rows[rule].shown(value) != english[rule], f"{rule} has no Portuguese: {english[rule]!r}"

    bad = '{"jsonrpc": "2.0", "id": true, "method": "tools/list"}'
    shown = [f.message for f in lint(bad, era="modern") if f.rule == "id-type"]
    assert shown == [
        "o id precisa ser uma string ou um inteiro, e não bool true; o servidor responde -32600 Invalid Request"
    ]
    with pytest.raises(jsonrpc.ProtocolError) as raised:
        jsonrpc.parse(bad)
    assert raised.value.message == "Invalid Request: id must be a string or an integer, not bool true"


def test_import_mcp_lab_reads_no_catalog():
    """`import mcp_lab` stays cheap in a Portuguese kernel: no polib, no Babel, no catalog read
    until the first message is shown; then the catalog is read once."""
    code = (
        "import sys, mcp_lab\n"
        "before = sorted(m for m in ('polib', 'babel', 'mcp_lab.notebook.i18n') if m in sys.modules)\n"
        "from mcp_lab.wire.words import _\n"
        "word = _('Predict')\n"
        "from mcp_lab.notebook import i18n\n"
        "print(before, word, 'polib' in sys.modules, 'babel' in sys.modules, list(i18n._loaded))\n"
    )
    env = {**os.environ, "MCP_LAB_LANG": "pt-BR"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[] Prever True False ['pt-BR']"


def test_one_kernel_per_edition(tmp_path):
    """Two kernels, as the Jupyter server starts them (JPY_SESSION_NAME = the notebook's path):
    the Portuguese notebook's speaks Portuguese, the English one's stays English."""
    import nbformat
    from nbclient import NotebookClient

    said = {}
    for folder in ("notebooks/pt-BR", "notebooks"):
        nb = nbformat.v4.new_notebook()
        nb.cells = [nbformat.v4.new_code_cell("import mcp_lab\nfrom mcp_lab.wire.words import _\nprint(_('Check'))")]
        env = {**os.environ, "JPY_SESSION_NAME": str(tmp_path / folder / "00-start-here.ipynb")}
        env.pop("MCP_LAB_LANG", None)
        client = NotebookClient(nb, timeout=60, kernel_name="python3")
        client.execute(env=env)
        said[folder] = nb.cells[0].outputs[0]["text"].strip()
    assert said == {"notebooks/pt-BR": "Verificar", "notebooks": "Check"}


# -- what a learner meets outside the lesson modules: 00's map, 09's tables, diagrams, 02's grid ---
def _course_from_00() -> list[tuple[str, str, int]]:
    import ast

    nb = json.loads((ROOT / "notebooks" / "00-start-here.ipynb").read_text())
    src = next("".join(c["source"]) for c in nb["cells"] if "COURSE = [" in "".join(c["source"]))
    tree = ast.parse(src)
    assign = next(n for n in tree.body if isinstance(n, ast.Assign) and n.targets[0].id == "COURSE")
    return ast.literal_eval(assign.value)


def test_the_portuguese_course_map_shows_every_title_of_00_in_portuguese(edition, capsys):
    from mcp_lab.course import views

    course = _course_from_00()
    edition.set_language("pt-BR")
    views.course_map(course)
    shown = capsys.readouterr().out
    assert "Comece aqui: por que um protocolo, o mapa" in shown and "min no total" in shown
    # Every title of notebook 00 is in the package's catalog (babel.cfg extracts them), translated.
    untranslated = [t for _p, t, _m in course if _(t) == t and t != "Streamable HTTP"]
    assert untranslated == [], f"titles of 00's COURSE shown in English: {untranslated}"
    assert "Start here: why a protocol" not in shown


def test_the_portuguese_isolate_table_diagram_and_primitive_grid(edition):
    from mcp_lab.course.exercises import check_primitives
    from mcp_lab.session.isolate import Isolation, Row, _labels
    from mcp_lab.wire.trace import Trace

    edition.set_language("pt-BR")
    assert _labels(2, None) == ["processo A", "processo B"]
    iso = Isolation("calendar", [Row(label="processo A", method="tools/list", request="{}", error="x")], Trace())
    page = iso._repr_html_()
    assert "solicitação (linha exata)" in page and "1 mensagem, cada uma num processo novo" in page
    assert "request (exact line)" not in page and iso[0].summary == "nenhuma resposta: x"
    assert "participant C as cliente" in str(Trace().mermaid())
    title, head = (c.value for c in check_primitives().widget.children[:2])
    assert "Para cada funcionalidade" in title and "primitiva" in head and "quem decide" in head
    edition.set_language("en")
    assert _labels(1, None) == ["process A"] and "participant C as client" in str(Trace().mermaid())
