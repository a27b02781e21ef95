"""The Portuguese edition: the package's words through gettext, the catalogs kept in step.

- which edition a kernel speaks (its notebook's path, MCP_LAB_LANG, %mcp lang; never LANG), and
  that the widgets, verdicts and lint then speak it;
- every catalog that exists is translated, not fuzzy, keeps its {fields} and follows the
  terminology table; every generated notebook is what `make translations` writes (the check the
  suite fails on, naming the catalog and the entry);
- the pipeline on a fixture (tests/i18n_fixture): an English paragraph changed is named, becomes
  fuzzy after an update, and a notebook catalog that appears with an untranslated entry fails
  while a checkout with none passes;
- the cell splitter on every real notebook: its pieces give the cell back byte for byte.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from _support import ROOT

from mcp_lab.course import translate as tr
from mcp_lab.course.translate_cells import render, segments
from mcp_lab.notebook import i18n
from mcp_lab.wire.words import _

FIXTURE = ROOT / "tests" / "i18n_fixture"


# -- the catalogs ------------------------------------------------------------------------------------
def test_every_catalog_is_translated_and_in_step():
    """What `make test` fails on: an English message or paragraph changed (its entry missing or
    fuzzy), an entry untranslated, a {field} lost, a listed term not followed, or a generated
    notebook that differs from what `make translations` writes. Each line names the catalog and
    the entry; the fix is `make translations`, then translating what it lists."""
    found = tr.problems(ROOT)
    assert not found, "the Portuguese edition is out of step:\n" + "\n".join(found)


def test_the_package_catalog_covers_what_the_package_shows():
    cat = tr._read(ROOT / tr.PACKAGE_PO)
    entries = [m for m in cat if m.id]
    assert len(entries) >= 200, len(entries)
    assert all(m.string and (isinstance(m.string, str) or all(m.string)) and not m.fuzzy for m in entries)
    ids = {m.id if isinstance(m.id, str) else m.id[0] for m in entries}
    assert {"Predict", "Check", "Accept", "Decline", "Allow", "Deny", "Send reply"} <= ids


def test_the_terminology_table_holds_the_chapters_words():
    rows = {r["english"]: r for r in tr.terminology(ROOT)}
    chosen = {e: rows[e]["portuguese"] for e in ("tool", "request", "response", "notification", "spec", "transport")}
    assert chosen == {
        "tool": "ferramenta",
        "request": "solicitação",
        "response": "resposta",
        "notification": "notificação",
        "spec": "especificação",
        "transport": "transporte",
    }
    assert rows["capabilities"]["portuguese"] == "capacidades" and rows["revision"]["portuguese"] == "revisão"
    kept = ("resource", "prompt", "handle", "elicitation", "sampling", "wire", "trace")
    assert all(rows[k]["portuguese"] == k for k in kept)


def test_a_term_not_followed_is_named():
    cat = tr._read(ROOT / tr.PACKAGE_PO)
    (entry,) = [m for m in cat if m.id == "expected the tool list"]
    entry.string = "o esperado era a lista de instrumentos"
    found = tr.term_problems("mcp_lab.po", cat, tr.terminology(ROOT))
    assert found == [
        "mcp_lab.po: mcp_lab/course/challenges.py: 'tool' should read 'ferramenta': "
        "'o esperado era a lista de instrumentos'"
    ]


def test_a_lost_field_is_named():
    cat = tr._read(ROOT / tr.PACKAGE_PO)
    (entry,) = [m for m in cat if m.id == "{text} is not a number"]
    entry.string = "isto não é um número"
    found = tr._entry_problems("mcp_lab.po", tr._read(ROOT / tr.PACKAGE_PO), cat)
    assert found == [
        "mcp_lab.po: mcp_lab/notebook/fields.py: the translation's {fields} differ from the English: "
        "'{text} is not a number'"
    ]


def _mini_package(root: Path, message: str) -> None:
    (root / "mcp_lab").mkdir(parents=True, exist_ok=True)
    shutil.copy(ROOT / "babel.cfg", root / "babel.cfg")
    (root / "mcp_lab" / "shown.py").write_text(f"from mcp_lab.wire.words import _\n\nLINE = _({message!r})\n")


def test_a_changed_package_message_is_named_then_fuzzy(tmp_path):
    _mini_package(tmp_path, "Press Check when you are done.")
    tr.update(tmp_path)
    po = tmp_path / tr.PACKAGE_PO
    cat = tr._read(po)
    (entry,) = [m for m in cat if m.id]
    entry.string = "Clique em Verificar quando terminar."
    tr._write(po, cat)
    assert tr.problems(tmp_path) == []

    _mini_package(tmp_path, "Press Check when you have answered.")
    assert tr.problems(tmp_path) == [
        "mcp_lab/locale/pt_BR/LC_MESSAGES/mcp_lab.po: mcp_lab/shown.py: not in the catalog (new or changed "
        "English): 'Press Check when you have answered.'"
    ]
    tr.update(tmp_path)
    assert tr.problems(tmp_path) == [
        "mcp_lab/locale/pt_BR/LC_MESSAGES/mcp_lab.po: mcp_lab/shown.py: fuzzy (the English changed; revise it): "
        "'Press Check when you have answered.'"
    ]
    text = po.read_text(encoding="utf-8")
    assert '#| msgid "Press Check when you are done."' in text  # the translator sees what changed
    assert 'msgstr "Clique em Verificar quando terminar."' in text  # and keeps the old translation to revise
    # a fuzzy entry is not shown: the kernel falls back to English until it is revised
    table, _plural = i18n.read_catalog(po)
    assert "Press Check when you have answered." not in table


# -- the notebooks' pipeline, on the fixture ----------------------------------------------------------
@pytest.fixture
def checkout(tmp_path):
    """A copy of the fixture checkout: three English notebooks and a lab's source, their catalogs,
    the generated Portuguese files (tests/test_translations_labs.py for the lab)."""
    dest = tmp_path / "course"
    shutil.copytree(FIXTURE, dest)
    return dest


def test_the_fixture_edition_is_in_step(checkout):
    assert tr.problems(checkout) == []
    assert tr.translated_notebooks(checkout) == [
        "labs/03-fixture-lab.ipynb",
        "labs/source/04-fixture-lab/04-fixture-lab.ipynb",
        "notebooks/01-fixture.ipynb",
        "notebooks/02-fixture-next.ipynb",
    ]


def test_the_generated_notebook_keeps_cells_ids_and_code(checkout):
    english = json.loads((checkout / "notebooks/01-fixture.ipynb").read_text())
    portuguese = json.loads((checkout / "notebooks/pt-BR/01-fixture.ipynb").read_text())
    assert [(c["id"], c["cell_type"]) for c in english["cells"]] == [
        (c["id"], c["cell_type"]) for c in portuguese["cells"]
    ]
    assert portuguese["metadata"]["mcp_lab"] == {"edition": "pt-BR", "source": "notebooks/01-fixture.ipynb"}
    code = "".join(portuguese["cells"][1]["source"])
    assert code == (
        "import mcp_lab\n\n"
        "# conecta ao servidor calendar incluído\n"
        "# (um processo novo para este notebook)\n"
        'cal = mcp_lab.connect("calendar")  # o nome curto\n'
        "%mcp list\n"
        'print("Conectado ao calendar.")\n'
        'with open("../cassettes/week.jsonl") as f:\n'
        "    lines = f.readlines()\n"
        'print(f"A gravação tem {len(lines)} linhas.")\n'
        'method = "tools/list"  # um nome de método fica como está'
    )
    assert portuguese["cells"][2]["source"] == english["cells"][2]["source"]  # %%rpc: the wire, untouched
    links = "".join(portuguese["cells"][0]["source"]).rsplit("\n", 1)[-1]
    assert "(02-fixture-next.ipynb)" in links and "(../../labs/pt-BR/03-fixture-lab.ipynb)" in links


def test_a_changed_english_paragraph_fails_naming_it(checkout):
    nb_path = checkout / "notebooks/01-fixture.ipynb"
    nb = json.loads(nb_path.read_text())
    nb["cells"][4]["source"] = "A server that answers `-32602` says the request's `_meta` lacks a key."
    nb_path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n")
    assert tr.problems(checkout) == [
        "locale/pt_BR/notebooks/01-fixture.po: notebooks/01-fixture.ipynb#cell-id=c04:1: not in the catalog "
        '(new or changed English): "A server that answers `-32602` says the request\'s `_meta` lacks a key."',
        "notebooks/pt-BR/01-fixture.ipynb: differs from what make translations generates from its catalog: run it",
    ]
    tr.update(checkout)
    found = tr.problems(checkout)
    assert found[0].startswith(
        "locale/pt_BR/notebooks/01-fixture.po: notebooks/01-fixture.ipynb#cell-id=c04:1: fuzzy (the English changed"
    )
    # the translator revises it; make translations writes the notebook again; all is in step
    po = checkout / tr.notebook_catalog("notebooks/01-fixture.ipynb")
    cat = tr._read(po)
    for m in cat:
        if m.fuzzy and m.id:
            m.string, m.previous_id = "Um servidor que responde `-32602` diz que falta uma chave no `_meta`.", []
            m.flags.discard("fuzzy")
    tr._write(po, cat)
    for path, text in tr.build(checkout).items():
        path.write_text(text, encoding="utf-8")
    assert tr.problems(checkout) == []


def test_no_notebook_catalog_passes_and_an_untranslated_one_fails(checkout):
    shutil.rmtree(checkout / "locale")
    for folder in ("notebooks/pt-BR", "labs/pt-BR"):
        shutil.rmtree(checkout / folder)
    assert tr.problems(checkout) == []  # main today: no notebook is in the Portuguese edition yet
    tr.update(checkout, ["notebooks/02-fixture-next.ipynb"])  # a catalog appears, untranslated
    assert tr.problems(checkout) == [
        "locale/pt_BR/notebooks/02-fixture-next.po: notebooks/02-fixture-next.ipynb#cell-id=c00:1: "
        "untranslated: '# 02 · The next lesson'",
        "notebooks/pt-BR/02-fixture-next.ipynb: not generated yet: run make translations",
    ]


def test_update_and_build_change_nothing_when_in_step(tmp_path):
    """`make translations` on this checkout as committed rewrites no catalog and no notebook."""
    copy = tmp_path / "repo"
    shutil.copytree(ROOT / "mcp_lab", copy / "mcp_lab", ignore=shutil.ignore_patterns("node_modules", "__pycache__"))
    shutil.copy(ROOT / "babel.cfg", copy / "babel.cfg")
    for folder in ("locale", "notebooks", "labs", "docs"):
        if (ROOT / folder).exists():
            shutil.copytree(ROOT / folder, copy / folder, ignore=shutil.ignore_patterns("node_modules"))
    assert tr.update(copy) == []
    changed = [p for p, text in tr.build(copy).items() if p.read_text(encoding="utf-8") != text]
    assert changed == []


def test_the_command_line_check_exits_1_naming_the_entry(checkout, capsys):
    assert tr.main(["--root", str(checkout), "check"]) == 0
    (checkout / tr.notebook_catalog("notebooks/02-fixture-next.ipynb")).write_text(
        (checkout / tr.notebook_catalog("notebooks/02-fixture-next.ipynb"))
        .read_text(encoding="utf-8")
        .replace('msgstr "# 02 · A próxima lição"', 'msgstr ""'),
        encoding="utf-8",
    )
    capsys.readouterr()
    assert tr.main(["--root", str(checkout), "check"]) == 1
    out = capsys.readouterr().out
    assert "02-fixture-next.po: notebooks/02-fixture-next.ipynb#cell-id=c00:1: untranslated" in out


# -- the cell splitter on the real course -------------------------------------------------------------
def _course_notebooks() -> list[Path]:
    return sorted(
        p
        for folder in ("notebooks", "labs")
        for p in (ROOT / folder).glob("*.ipynb")  # the English source, not an edition's copy
    )


def test_every_real_cell_splits_and_joins_back():
    """Each English cell of the course, cut into entries and joined again with its own English,
    is the cell byte for byte; a code cell rendered with every entry changed still compiles."""
    import ast

    from mcp_lab.course.translate_cells import _masked

    entries = 0
    for path in _course_notebooks():
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            segs = segments(cell)
            source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
            assert "".join(s.raw for s in segs) == source, f"{path.name} {cell.get('id')}"
            assert "".join(render(s, s.msgid or "") for s in segs) == source, f"{path.name} {cell.get('id')}"
            entries += sum(s.msgid is not None for s in segs)
            if cell["cell_type"] == "code" and not source.lstrip().startswith("%%"):
                try:
                    ast.parse(_masked(source))
                except SyntaxError:
                    continue  # a deliberate syntax error stays one
                changed = "".join(render(s, "tradução " + (s.msgid or "")) for s in segs)
                ast.parse(_masked(changed))
    assert entries > 500, entries


def test_an_unreadable_catalog_shows_english_with_one_line(edition, monkeypatch, tmp_path, capsys):
    broken = tmp_path / "pt_BR" / "LC_MESSAGES" / "mcp_lab.po"
    broken.parent.mkdir(parents=True)
    broken.write_text('msgid "Predict"\nmsgstr "Prever"\nnot a line of a PO file\n', encoding="utf-8")
    monkeypatch.setattr(edition, "LOCALE_DIR", tmp_path)
    monkeypatch.setattr(edition, "_loaded", {})
    edition.set_language("pt-BR")
    assert _("Predict") == "Predict" and _("Check") == "Check"
    err = capsys.readouterr().err.strip().splitlines()
    assert (
        len(err) == 1
        and err[0].startswith("mcp_lab: the pt-BR catalog could not be read (")
        and err[0].endswith("; showing English")
    )


def _looked_up_in_f_strings(source: str) -> list[int]:
    """Lines where `_("...")`, `ngettext(...)` or `N_("...")` sits inside an f-string's braces."""
    import ast

    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.JoinedStr):
            for inner in ast.walk(node):
                if isinstance(inner, ast.Call) and getattr(inner.func, "id", "") in ("_", "ngettext", "N_"):
                    if any(isinstance(a, ast.Constant) for a in inner.args):
                        found.append(inner.lineno)
    return found


def test_no_message_is_looked_up_inside_an_f_string():
    """Babel does not read inside an f-string's braces: a `_()` there would never reach the
    catalog (its message would stay English in every edition). Each is computed before instead."""
    assert _looked_up_in_f_strings("x = 1\nline = f\"<b>{_('unknown')}</b>\"\n") == [2]  # the defect, caught
    assert _looked_up_in_f_strings('word = _("unknown")\nline = f"<b>{word}</b>"\n') == []
    hidden = [
        f"{path.relative_to(ROOT)}:{line}"
        for path in sorted((ROOT / "mcp_lab").rglob("*.py"))
        if "node_modules" not in path.parts
        for line in _looked_up_in_f_strings(path.read_text(encoding="utf-8"))
    ]
    assert not hidden, "messages looked up inside f-strings (Babel cannot extract them): " + ", ".join(hidden)


def test_options_show_translated_and_answer_in_english(edition):
    """A prediction's or a quiz's options show in the edition's language, while the value a test
    learner (or the verdict) uses stays the author's English: the interaction keys and answers are
    the same in both editions. (Any text the catalog holds serves as an option here.)"""
    from mcp_lab.notebook.predict import Prediction
    from mcp_lab.notebook.quiz import Question

    edition.set_language("pt-BR")
    guess = Prediction("p", "Which button sends the form?", ["Accept", "Decline"])
    assert guess._input.options == (("Aceitar", "Accept"), ("Recusar", "Decline"))
    guess.interaction.act("Accept")
    guess.expect("Accept")
    assert guess.value == "Accept" and guess.held
    assert guess.verdict() == "A sua previsão se confirmou: Aceitar."
    q = Question("Which one?", ["Allow", "Deny"], answer=1, explanations=["Right.", "Right."])
    assert q.choose("Deny") is True and q.choose("Negar") is True
    assert sorted(label for label, _i in q.widget.children[1].options) == ["Negar", "Permitir"]


def test_without_a_server_the_kernels_folder_decides(edition, monkeypatch, tmp_path):
    """nbclient and JupyterLite's kernel name no notebook, but start in the notebook's folder."""
    for folder, expected in (("notebooks/pt-BR", "pt-BR"), ("notebooks", "en")):
        (tmp_path / folder).mkdir(parents=True, exist_ok=True)
        monkeypatch.chdir(tmp_path / folder)
        assert edition.language() == expected
    monkeypatch.chdir(tmp_path / "notebooks/pt-BR")
    monkeypatch.setenv("JPY_SESSION_NAME", str(tmp_path / "notebooks" / "00-start-here.ipynb"))
    assert edition.language() == "en"  # a server's word wins over the folder


def test_the_catalog_ships_with_the_package_and_the_browser_edition(tmp_path):
    import importlib.util
    import tomllib
    import zipfile

    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["mcp_lab"]
    assert any((ROOT / "mcp_lab").glob(pattern) for pattern in data), data
    spec = importlib.util.spec_from_file_location("lite_build", ROOT / "tools" / "lite_build.py")
    lite_build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(lite_build)
    wheel = lite_build.project_wheel(ROOT, "0.1.0", tmp_path)
    assert "mcp_lab/locale/pt_BR/LC_MESSAGES/mcp_lab.po" in zipfile.ZipFile(wheel).namelist()
    pins = (ROOT / "lite" / "wheels.in").read_text()
    assert "\npolib==" in pins, "the browser edition's kernel reads the catalog with polib"
    # pinned is not enough: the package's wheel declares no dependencies, so polib loads only if preloaded
    assert "polib" in lite_build.PRELOAD, "polib is not preloaded: the Pyodide kernel would show English"


def test_every_real_notebook_generates_with_its_paths_re_aimed(tmp_path):
    """The pipeline on the course as it is: each English notebook and lab, with a fresh (empty)
    catalog, generates a Portuguese copy whose cells and ids are the English ones and whose code
    still compiles; every relative path in its code that names a file next to the English notebook
    names the same file from the Portuguese folder (nothing left pointing nowhere)."""
    import ast

    from mcp_lab.course.translate_cells import _masked, string_literals

    copy = tmp_path / "repo"
    for folder in ("notebooks", "labs"):
        shutil.copytree(ROOT / folder, copy / folder, ignore=shutil.ignore_patterns("source"))
    rels = [p.relative_to(ROOT).as_posix() for p in _course_notebooks()]
    tr.update(copy, rels)  # every catalog created, untranslated
    assert len(tr.translated_notebooks(copy)) == len(rels)
    moved = 0
    for path, text in tr.build(copy).items():
        rel = path.relative_to(copy).as_posix()
        pt = json.loads(text)
        en = json.loads((copy / Path(*path.relative_to(copy).parts[:1], *path.relative_to(copy).parts[2:])).read_text())
        assert [c.get("id") for c in pt["cells"]] == [c.get("id") for c in en["cells"]], rel
        for en_cell, pt_cell in zip(en["cells"], pt["cells"]):
            source = "".join(pt_cell["source"]) if isinstance(pt_cell["source"], list) else pt_cell["source"]
            if pt_cell["cell_type"] != "code" or source.lstrip().startswith("%%"):
                continue
            english = "".join(en_cell["source"]) if isinstance(en_cell["source"], list) else en_cell["source"]
            try:
                ast.parse(_masked(english))
            except SyntaxError:
                continue
            ast.parse(_masked(source))
            for _s, _e, node, _f in string_literals(source):
                value = getattr(node, "value", None)
                if isinstance(value, str) and value.startswith("../"):
                    moved += 1
                    target = Path(os.path.normpath(path.parent / value))  # the folder itself is not written
                    assert target.exists(), f"{rel} {pt_cell.get('id')}: {value} names nothing"
    assert moved >= 1, "no relative path was re-aimed (notebook 14 names ../labs/...)"


def test_a_lab_check_failure_reads_portuguese_with_its_spec_link(edition):
    from mcp_lab.course._check import failure

    edition.set_language("pt-BR")
    message = str(
        failure(
            "request 1",
            expected="one JSON object (a dict)",
            got="a list",
            rule="basic/index: one message is one object; MCP has no batches",
            hint="write a single dict with jsonrpc, id, method and params",
        )
    )
    assert message == (
        "request 1: o esperado era um objeto JSON (um dict); veio a list. Regra da especificação: "
        "https://modelcontextprotocol.io/specification/2026-07-28/basic/index: uma mensagem é um objeto; "
        "o MCP não tem lotes. Dica: escreva um único dict com jsonrpc, id, method e params."
    )


def test_a_repository_path_in_a_code_span_names_the_portuguese_copy(tmp_path):
    """`notebooks/01-x.ipynb` in Portuguese prose sends the reader on through the edition; a path
    with no Portuguese copy (`notebooks/cassettes/`) and one already in it stay as written."""
    (tmp_path / "notebooks" / "pt-BR").mkdir(parents=True)
    (tmp_path / "notebooks" / "pt-BR" / "01-x.ipynb").write_text("{}")
    (tmp_path / "notebooks" / "cassettes").mkdir()
    (tmp_path / "labs" / "pt-BR").mkdir(parents=True)
    text = "Próximo: `notebooks/01-x.ipynb`; os labs em `labs/`; `notebooks/cassettes/`; `notebooks/pt-BR/01-x.ipynb`"
    assert tr._reaim_repo_paths(text, tmp_path, set()) == (
        "Próximo: `notebooks/pt-BR/01-x.ipynb`; os labs em `labs/pt-BR/`; `notebooks/cassettes/`; "
        "`notebooks/pt-BR/01-x.ipynb`"
    )
    planned = {tmp_path / "notebooks" / "pt-BR" / "02-y.ipynb"}
    assert tr._reaim_repo_paths("`notebooks/02-y.ipynb`", tmp_path, planned) == "`notebooks/pt-BR/02-y.ipynb`"


def test_a_long_portuguese_comment_fits_the_window():
    """Comments wrap at 100 characters; one after code moves above it; code is never touched."""
    long = "palavra " * 20
    code = f"x = 1  # {long}\n    # {long}\nprint('ok')  # curto\n"
    fitted = tr.fit_comments(code)
    assert all(len(line) <= 100 for line in fitted.splitlines()), fitted
    assert "x = 1" in fitted.splitlines() and fitted.index("# palavra") < fitted.index("x = 1")
    assert "print('ok')  # curto" in fitted
    assert tr.fit_comments("y = '" + "a" * 120 + "'") == "y = '" + "a" * 120 + "'"
