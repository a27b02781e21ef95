"""The browser edition ships bytecode: tools/lite_bytecode.py adds it, and the site's kernels use it.

The first tests run the archive rewriting with this machine's Python on small archives made here
(the bytes of a .pyc differ between versions; their layout does not). The last one starts the
built site's own Pyodide in Node, as a kernel in the browser starts it, and proves three things:
the standard library came from the shipped .pyc files (zipimport names the .pyc it loaded), a
wheel's shipped .pyc was accepted (an import that rejected it would have compiled the source and
written a timestamp-based .pyc over it), and a traceback still shows the library's source lines.
The site is built by `make lite` under the tests' shared lock (tests/_support/lite_site.py): a
no-op when another test built it already.
"""

from __future__ import annotations

import importlib.util
import json
import marshal
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import lite_bytecode
import pytest
from _support import ROOT
from _support.lite_site import make_lite

SITE_PACKAGES = "/lib/python3.14/site-packages"
SOURCES = {
    "pkg/__init__.py": b"from .mod import answer\n",
    "pkg/mod.py": b'def answer():\n    """Forty-two."""\n    return {"a", "b"} and 42\n',
    "pkg/broken.py": b"print 'a template, not Python 3'\n",
    "pkg/data.txt": b"not code\n",
    "top.py": b"X = 1\n",
}


def _wheel(folder: Path) -> Path:
    wheel = folder / "pkg-1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as z:
        for name, data in SOURCES.items():
            z.writestr(zipfile.ZipInfo(name, (2026, 1, 1, 0, 0, 0)), data)
        record = [f"{name},sha256=x,{len(data)}" for name, data in SOURCES.items()]
        z.writestr("pkg-1.0.dist-info/RECORD", "\n".join([*record, "pkg-1.0.dist-info/RECORD,,"]) + "\n")
    return wheel


def _pyc_parts(data: bytes) -> tuple[int, bytes, object]:
    """(PEP 552 flags, source hash, code object) of a .pyc."""
    assert data[:4] == importlib.util.MAGIC_NUMBER, "the .pyc was not written for this interpreter"
    return int.from_bytes(data[4:8], "little"), data[8:16], marshal.loads(data[16:])


def test_a_wheel_gains_unchecked_bytecode_beside_its_sources(tmp_path):
    wheel = _wheel(tmp_path)
    assert lite_bytecode.add_bytecode(wheel, SITE_PACKAGES) == 3, "three of the four .py files compile"
    tag = sys.implementation.cache_tag
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        for name, data in SOURCES.items():
            assert z.read(name) == data, f"{name}: the source must stay as it was (tracebacks read it)"
        flags, source_hash, code = _pyc_parts(z.read(f"pkg/__pycache__/mod.{tag}.pyc"))
        record = z.read("pkg-1.0.dist-info/RECORD").decode().splitlines()
    assert flags == 0b01, f"flags {flags:#b}: the .pyc must be hash-based and unchecked (unpacking loses mtimes)"
    assert source_hash == importlib.util.source_hash(SOURCES["pkg/mod.py"]), "the hash is not the source's"
    assert code.co_filename == f"{SITE_PACKAGES}/pkg/mod.py", code.co_filename
    assert f"__pycache__/top.{tag}.pyc" in names and f"pkg/__pycache__/__init__.{tag}.pyc" in names, names
    assert not any("broken" in n and n.endswith(".pyc") for n in names), "a file that does not compile gets no .pyc"
    assert record[-1] == "pkg-1.0.dist-info/RECORD,,", "RECORD's own line stays last"
    assert any(line.startswith(f"pkg/__pycache__/mod.{tag}.pyc,sha256=") for line in record), record


def test_the_same_wheel_gives_the_same_bytes_and_a_second_pass_adds_nothing(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first, second = _wheel(tmp_path / "a"), _wheel(tmp_path / "b")
    lite_bytecode.add_bytecode(first, SITE_PACKAGES)
    lite_bytecode.add_bytecode(second, SITE_PACKAGES)
    assert first.read_bytes() == second.read_bytes(), "the same sources gave different archives"
    assert lite_bytecode.add_bytecode(first, SITE_PACKAGES) == 0, "a compiled archive was compiled again"


def test_the_standard_library_zip_gets_pyc_where_zipimport_looks(tmp_path):
    stdlib = tmp_path / "python_stdlib.zip"
    with zipfile.ZipFile(stdlib, "w") as z:
        z.writestr("json/__init__.py", b"import sys\n")
        z.writestr("string.py", b"A = 1\n")
    lite_bytecode.add_bytecode(stdlib, "/lib/python314.zip")
    with zipfile.ZipFile(stdlib) as z:
        names = set(z.namelist())
        _flags, _hash, code = _pyc_parts(z.read("json/__init__.pyc"))
    assert {"json/__init__.pyc", "string.pyc", "json/__init__.py", "string.py"} <= names, names
    assert code.co_filename == "/lib/python314.zip/json/__init__.py", code.co_filename


# The site's own Pyodide in Node: the standard library, IPython (preloaded by the site) and a traceback.
PROBE = """
import { loadPyodide } from %(module)s;
const site = %(site)s;
const py = await loadPyodide({ indexURL: site, lockFileURL: site + "pyodide-lock.json", packages: ["ipython"] });
console.log(py.runPython(`
import importlib.util, json, os, traceback
import IPython
cached = importlib.util.cache_from_source(IPython.__file__)
flags = int.from_bytes(open(cached, "rb").read(8)[4:], "little") if os.path.exists(cached) else None
try:
    json.loads("{")
except ValueError:
    shown = traceback.format_exc()
json.dumps({"json_file": json.__file__, "ipython_pyc_flags": flags, "traceback": shown})
`));
"""


def test_the_built_sites_kernel_imports_its_bytecode(tmp_path):
    static = ROOT / "build" / "lite" / "static" / "pyodide"
    built = make_lite()
    if built.returncode != 0:
        reason = f"make lite failed (exit {built.returncode}): {(built.stderr or built.stdout).strip()[-300:]}"
        if os.environ.get("CI") == "true":
            pytest.fail(reason, pytrace=False)
        pytest.skip(reason)  # a machine without the edition's inputs (network, npm) says why
    node = shutil.which("node")
    assert node, "node not found: the browser edition is built and checked with Node.js 20+"
    probe = tmp_path / "probe.mjs"
    probe.write_text(
        PROBE % {"module": json.dumps((static / "pyodide.mjs").as_uri()), "site": json.dumps(f"{static}/")}
    )
    done = subprocess.run([node, str(probe)], capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, f"the site's Pyodide did not start in Node: {done.stderr.strip()[-600:]}"
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["json_file"].endswith(".pyc"), (
        f"json came from {seen['json_file']}: the site's python_stdlib.zip holds no bytecode (tools/lite_bytecode.py)"
    )
    assert seen["ipython_pyc_flags"] == 0b01, (
        f"IPython's .pyc after the import: flags {seen['ipython_pyc_flags']} (want 0b1, the shipped unchecked "
        "bytecode): it was missing or refused, and the kernel compiled the source itself"
    )
    assert "obj, end = self.scan_once(s, idx)" in seen["traceback"], (
        "a traceback through the standard library lost its source lines:\n" + seen["traceback"]
    )
