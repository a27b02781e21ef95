"""The browser edition offers both editions (tools/lite_build.py): what it stages, and lab/pt-BR/.

The site itself, opened in Chromium with the Portuguese entry, is tests/browser/test_lite_browser.py's
(test_the_portuguese_entry_speaks_portuguese); these check the two build steps on small folders.
"""

from __future__ import annotations

import importlib.util
import json

import pytest
from _support import ROOT

spec = importlib.util.spec_from_file_location("lite_build", ROOT / "tools" / "lite_build.py")
lite_build = importlib.util.module_from_spec(spec)
spec.loader.exec_module(lite_build)

# lab/index.html as jupyter lite build (jupyterlite-core 0.8.6) writes it, abridged to what moves.
LAB_PAGE = """<html><head>
<link rel="manifest" href="../manifest.webmanifest">
<link id="jupyter-lite-main" rel="preload" href="../build/lab/bundle.js?_=c9f706b" main="index" as="script">
<script id="jupyter-config-data" type="application/json" data-jupyter-lite-root="..">{}</script>
<script>(async function () { await import('../config-utils.js?_=c9f706b'); }.call(this));</script>
</head><body></body></html>"""


def _site(tmp_path, translations=True):
    site = tmp_path / "site"
    (site / "lab").mkdir(parents=True)
    (site / "lab" / "index.html").write_text(LAB_PAGE)
    config = {"jupyter-config-data": {"appUrl": "/lab", "settingsUrl": "../build/schemas"}}
    (site / "lab" / "jupyter-lite.json").write_text(json.dumps(config))
    if translations:
        (site / "api" / "translations").mkdir(parents=True)
        (site / "api" / "translations" / "pt_BR.json").write_text('{"data": {}}')
    return site


def test_both_editions_are_staged_and_no_teachers_folder(tmp_path):
    files = [
        "notebooks/00.ipynb",
        "notebooks/pt-BR/00.ipynb",
        "labs/05.ipynb",
        "labs/08-x/server.py",
        "labs/pt-BR/05.ipynb",
        "labs/pt-BR/08-x/server.py",
        "labs/source/05.ipynb",
        "labs/solutions/05.ipynb",
        "labs/pt-BR/source/05.ipynb",
        "labs/pt-BR/solutions/05.ipynb",
    ]
    for name in files:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("{}")
    (tmp_path / "README.md").write_text("readme")
    out = tmp_path / "files"
    lite_build.stage_contents(tmp_path, out)
    staged = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    assert staged == ["README.md", *sorted(f for f in files if "/source/" not in f and "/solutions/" not in f)]


def test_the_portuguese_entry_is_the_lab_one_folder_down_in_pt_BR(tmp_path):
    site = _site(tmp_path)
    assert lite_build.add_edition_entries(site) == ["lab/pt-BR/index.html"]
    page = (site / "lab" / "pt-BR" / "index.html").read_text()
    assert 'data-jupyter-lite-root="../.."' in page
    assert 'href="../../build/lab/bundle.js' in page and 'href="../../manifest.webmanifest"' in page
    assert "'../../config-utils.js" in page
    config = json.loads((site / "lab" / "pt-BR" / "jupyter-lite.json").read_text())["jupyter-config-data"]
    assert config["settingsOverrides"] == {"@jupyterlab/translation-extension:plugin": {"locale": "pt_BR"}}
    assert config["settingsUrl"] == "../../build/schemas"
    assert not (site / "lab" / "jupyter-lite.json").read_text().count("locale"), "the English entry changed"


def test_a_site_without_the_language_pack_says_so_in_one_line(tmp_path):
    with pytest.raises(SystemExit, match="jupyterlab-language-pack-pt-BR is not installed"):
        lite_build.add_edition_entries(_site(tmp_path, translations=False))
    with pytest.raises(SystemExit, match="not a built site"):
        lite_build.add_edition_entries(tmp_path / "nowhere")
