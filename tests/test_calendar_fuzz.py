"""Bad input: 10,000 generated malformed or random lines into ONE calendar process.

The server must never die, must answer every request-like line with exactly one valid
JSON-RPC error-or-result line, and must never write a non-JSON line to stdout.  The lines
come from a seeded generator (reproducible: the seed is in the failure message), mixing
random bytes, truncated and mutated valid requests, wrong types in every envelope field,
deep nesting, huge numbers and odd Unicode.
"""

import json
import random
import subprocess
import sys
import threading

import pytest

SEED = 20260728
N = 10_000

VALID = [
    {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/list",
        "params": {
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {},
            }
        },
    },
    {
        "jsonrpc": "2.0",
        "id": "x",
        "method": "tools/call",
        "params": {
            "name": "create_event",
            "arguments": {"title": "T"},
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}},
            },
        },
    },
    {"jsonrpc": "2.0", "id": 3, "method": "resources/read", "params": {"uri": "calendar://week"}},
    {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}},
]
WEIRD = [None, True, False, 0, -1, 2**80, 1.5, "", "☃", "\ud800", [], {}, [1, 2], {"a": {}}, "2026-07-28"]


def mutate(rng: random.Random) -> str:
    kind = rng.randrange(9)
    base = json.loads(json.dumps(rng.choice(VALID)))
    if kind == 0:
        return "".join(chr(rng.randrange(32, 0x2FFF)) for _ in range(rng.randrange(0, 60)))
    if kind == 1:
        s = json.dumps(base)
        return s[: rng.randrange(len(s))]
    if kind == 2:
        base[rng.choice(["jsonrpc", "id", "method", "params"])] = rng.choice(WEIRD)
        return json.dumps(base)
    if kind == 3:
        params = base.setdefault("params", {})
        if isinstance(params, dict):
            params[rng.choice(["_meta", "name", "arguments", "uri", "requestState", "inputResponses"])] = rng.choice(
                WEIRD
            )
        return json.dumps(base)
    if kind == 4:
        depth = rng.randrange(1, 3000)
        return "[" * depth + "]" * depth if rng.random() < 0.5 else '{"a":' * depth + "1" + "}" * depth
    if kind == 5:
        s = bytearray(json.dumps(base).encode())
        for _ in range(rng.randrange(1, 6)):
            s[rng.randrange(len(s))] = rng.randrange(32, 127)
        return s.decode("latin-1")
    if kind == 6:
        base.pop(rng.choice(list(base)), None)
        return json.dumps(base)
    if kind == 7:
        meta = base.get("params", {}).get("_meta") if isinstance(base.get("params"), dict) else None
        if isinstance(meta, dict):
            meta[rng.choice(list(meta))] = rng.choice(WEIRD)
        return json.dumps(base, ensure_ascii=rng.random() < 0.5)
    return json.dumps(rng.choice(WEIRD))


def expects_answer(line: str) -> bool:
    """Request-like = anything but a well-formed notification or a response.

    NaN, Infinity and lone surrogates are not JSON: such a line gets a -32700, like any other.
    """
    from mcp_lab.servers.calendar import load_message

    try:
        msg = load_message(line)
    except (ValueError, RecursionError, UnicodeError):
        return True
    if (
        isinstance(msg, dict)
        and msg.get("jsonrpc") == "2.0"
        and isinstance(msg.get("method"), str)
        and msg["method"]
        and "id" not in msg
        and "result" not in msg
        and "error" not in msg
        and isinstance(msg.get("params", {}), dict)
    ):
        return False  # a well-formed notification (the envelope table's rows): never answered
    if isinstance(msg, dict) and "method" not in msg and ("result" in msg or "error" in msg):
        return False
    return True


def test_ten_thousand_bad_lines_one_process(tmp_path):
    rng = random.Random(SEED)
    lines = []
    for _ in range(N):
        line = mutate(rng).replace("\n", " ").replace("\r", " ")
        lines.append(line)
    expected = sum(expects_answer(line) for line in lines)

    proc = subprocess.Popen(
        [sys.executable, "-m", "mcp_lab.servers.calendar"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    out: list[bytes] = []
    reader = threading.Thread(target=lambda: out.extend(proc.stdout), daemon=True)
    reader.start()
    try:
        data = "".join(line + "\n" for line in lines).encode("utf-8", errors="surrogatepass")
        proc.stdin.write(data)
        proc.stdin.close()
        proc.wait(timeout=120)
        reader.join(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(5)
    assert proc.returncode == 0, f"the server died (seed {SEED}): exit {proc.returncode}"
    answers = []
    for raw in out:
        text = raw.decode("utf-8")  # valid UTF-8, every line
        msg = json.loads(text, parse_constant=lambda c: pytest.fail(f"{c} written: not JSON: {text}"))
        assert isinstance(msg, dict) and msg.get("jsonrpc") == "2.0" and ("result" in msg) != ("error" in msg), text
        answers.append(msg)
    assert len(answers) == expected, f"seed {SEED}: {len(answers)} answers for {expected} request-like lines"
    codes = {a["error"]["code"] for a in answers if "error" in a}
    assert codes <= {-32700, -32600, -32601, -32602, -32603, -32021, -32022}, codes
    assert -32603 not in codes, "an internal error means a handler crashed on some input"
