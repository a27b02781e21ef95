"""Add compiled bytecode to the browser edition's Python archives, compiled by Pyodide itself.

Run inside Pyodide by tools/lite_bytecode.mjs (`make lite`, through tools/lite_build.py), never by
the host's Python: bytecode belongs to one interpreter version, and the only interpreter that is
sure to match the site's is the site's own Pyodide.

Why: a Pyodide kernel starts from nothing each time a notebook opens. Its file system lives in
memory, so whatever CPython compiles while importing (IPython, pydantic, the standard library,
mcp_lab) is compiled again by the next kernel; compiling is about half of an import's time
in WebAssembly. Shipping the bytecode in the archives makes each kernel's start faster.

What each archive gains, the sources kept beside it (tracebacks still show the lines):
  * a wheel: `pkg/__pycache__/mod.<cache tag>.pyc` for every `pkg/mod.py`, with RECORD lines;
    the import system reads it from the folder the wheel unpacks into;
  * the standard library's zip: `pkg/mod.pyc` beside `pkg/mod.py`, the one place zipimport
    looks (it prefers it over the source).
Each .pyc is hash-based and unchecked (PEP 552): the importer uses it without comparing it
with the source's modification time, which unpacking does not keep. A file that does not
compile (a template, Python 2 test data) keeps its source alone. Entries are dated like the
archive's own, and marshal runs with a fixed hash seed (the .mjs sets PYTHONHASHSEED=0), so the
same inputs give the same archives.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import marshal
import sys
import warnings
import zipfile
from pathlib import Path

UNCHECKED_HASH = 0b01  # PEP 552 flags: hash-based, do not check the source


def pyc(source: bytes, filename: str) -> bytes | None:
    """The .pyc bytes of `source`, compiled as `filename`; None if it does not compile."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # invalid escapes in libraries' test files, etc.
        try:
            code = compile(source, filename, "exec", dont_inherit=True)
        except (SyntaxError, ValueError):
            return None
    header = importlib.util.MAGIC_NUMBER + UNCHECKED_HASH.to_bytes(4, "little")
    return header + importlib.util.source_hash(source) + marshal.dumps(code)


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def compiled_name(name: str, in_wheel: bool) -> str:
    """Where the importer looks for the bytecode of archive member `name` (a .py file)."""
    if not in_wheel:
        return name[:-3] + ".pyc"
    folder, _, stem = name[:-3].rpartition("/")
    cached = f"__pycache__/{stem}.{sys.implementation.cache_tag}.pyc"
    return f"{folder}/{cached}" if folder else cached


def add_bytecode(archive: Path, prefix: str) -> int:
    """Rewrite `archive` with a .pyc for each .py member; return how many were added.

    `prefix` is the path the member's file has at run time, before its name: the site-packages
    folder for a wheel, the zip's own path for the standard library (what tracebacks show).
    """
    in_wheel = archive.suffix == ".whl"
    with zipfile.ZipFile(archive) as z:
        members = [(info, z.read(info)) for info in z.infolist()]
    present = {info.filename for info, _ in members}
    added: list[tuple[zipfile.ZipInfo, bytes]] = []
    for info, data in members:
        if not info.filename.endswith(".py") or compiled_name(info.filename, in_wheel) in present:
            continue
        code = pyc(data, f"{prefix}/{info.filename}")
        if code is not None:
            added.append((zipfile.ZipInfo(compiled_name(info.filename, in_wheel), info.date_time), code))
    if not added:
        return 0
    record = next((i.filename for i, _ in members if in_wheel and i.filename.endswith(".dist-info/RECORD")), None)
    tmp = archive.with_name(archive.name + ".tmp")
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as out:
        for info, data in members:
            if info.filename == record:
                lines = data.decode("utf-8").rstrip("\n").split("\n")
                lines[-1:-1] = [_record_line(i.filename, d) for i, d in added]  # RECORD's own line last
                data = ("\n".join(lines) + "\n").encode("utf-8")
            out.writestr(info, data, zipfile.ZIP_DEFLATED)
        for info, data in added:
            out.writestr(info, data, zipfile.ZIP_DEFLATED)
    tmp.replace(archive)
    return len(added)


def main(folder: str, site_packages: str, stdlib_zip: str) -> str:
    """Compile every wheel of `folder` and its python_stdlib.zip; a one-line summary."""
    counts = []
    for archive in sorted(Path(folder).iterdir()):
        if archive.suffix == ".whl":
            counts.append(add_bytecode(archive, site_packages))
        elif archive.name == "python_stdlib.zip":
            counts.append(add_bytecode(archive, stdlib_zip))
    return f"{sum(counts)} modules compiled in {len(counts)} archives for {sys.implementation.cache_tag}"
