"""A recording played back as a server: the answers come from a cassette file, not from code.

    python -m mcp_lab.servers.cassette calendar.jsonl             # stdio
    python -m mcp_lab.servers.cassette calendar.jsonl --http 8765 # Streamable HTTP on 127.0.0.1

Theory of operation.  The cassette (see `mcp_lab.session.cassette` for the format) holds the
client's requests and the server's answers.  Each incoming request is matched against the
recorded requests with the same method and the same params, where "the same" leaves out what
a different client, or a later run, legitimately sends differently: the whole `_meta` (another
client states another clientInfo), the opaque `requestState` (it is echoed from an answer), and
the client's self-description in a legacy `initialize`.
The recorded answer is sent with the incoming request's id.  When one request was recorded
several times with different answers (an `input_required` round, then a retry), the answers are
played in the recorded order, the last one repeating.

A request that matches nothing is answered -32601 when its method was never recorded and
-32602 when the method was recorded with other params, and one stderr line says what the
recording holds, so the person at the client can see what was expected.  Notifications are
taken and never answered.  Messages the recorded server sent unasked (a list_changed
notification) are not played: they answered nothing this client did.

The server reads the file itself (a few lines of JSON) instead of importing the session layer:
a bundled server depends on the wire only.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from mcp_lab.servers.calendar import dump_line, error
from mcp_lab.wire import jsonrpc

FORMAT = 1
VOLATILE = ("_meta", "requestState")
# A legacy handshake says who the client is and what it can do; any client gets the recorded
# session (the server picks the version in its answer, whatever was asked).
VOLATILE_BY_METHOD = {"initialize": ("clientInfo", "capabilities", "protocolVersion")}


class BadCassette(Exception):
    """The file cannot be played; the message is one line naming the line and the problem."""


def _key_params(params: Any, method: str = "") -> str:
    skip = VOLATILE + VOLATILE_BY_METHOD.get(method, ())
    p = {k: v for k, v in (params or {}).items() if k not in skip} if isinstance(params, dict) else params
    return json.dumps(p, sort_keys=True, ensure_ascii=False)


def _read(path: str) -> tuple[dict, list[tuple[str, str, dict]]]:
    """The header and the (kind, peer, message) of every send and recv event, in order."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise BadCassette(f"{path}: cannot be read ({e.strerror or e})") from None
    lines = raw.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    if not lines:
        raise BadCassette(f"{path}: the file is empty, not a cassette")
    header: dict = {}
    events: list[tuple[str, str, dict]] = []
    for n, line in enumerate(lines, 1):
        try:
            obj = json.loads(line)
        except ValueError:
            raise BadCassette(f"{path} line {n}: not JSON" + (" (not an mcp_lab cassette)" if n == 1 else "")) from None
        if n == 1:
            if not isinstance(obj, dict) or obj.get("cassette") != "mcp_lab":
                raise BadCassette(f"{path} line 1: not an mcp_lab cassette (no header)")
            if not isinstance(obj.get("format"), int) or obj["format"] > FORMAT:
                raise BadCassette(
                    f"{path} line 1: cassette format {obj.get('format')!r} is newer than "
                    f"this server reads ({FORMAT}): upgrade mcp_lab"
                )
            header = obj
            continue
        msg = obj.get("message") if isinstance(obj, dict) else None
        if isinstance(msg, dict) and obj.get("kind") in ("send", "recv"):
            events.append((obj["kind"], obj.get("peer"), msg))
    return header, events


def read_sessions(path: str) -> tuple[dict, list[list[tuple[str, Any, dict | None]]]]:
    """The header and one session per peer (a recorded process): what the client sent, in order
    (requests and notifications), each with the recorded answer (None for a notification)."""
    header, events = _read(path)
    sessions: dict[Any, list[list]] = {}
    asked: dict[tuple, list] = {}
    for kind, peer, msg in events:
        if kind == "send" and isinstance(msg.get("method"), str):
            step = [msg["method"], msg.get("params"), None]
            sessions.setdefault(peer, []).append(step)
            if "id" in msg:
                asked[(peer, json.dumps(msg["id"]))] = step
        elif kind == "recv" and "method" not in msg and ("result" in msg or "error" in msg):
            step = asked.pop((peer, json.dumps(msg.get("id"))), None)
            if step is not None:
                step[2] = msg
    return header, [[tuple(step) for step in steps] for steps in sessions.values()]


def read_pairs(path: str) -> tuple[dict, list[tuple[str, Any, dict]]]:
    """The header and the recorded (method, params, answer) triples, in order."""
    header, sessions = read_sessions(path)
    pairs = [step for steps in sessions for step in steps if step[2] is not None]
    if not pairs:
        raise BadCassette(f"{path}: the recording holds no answered request, so there is nothing to play")
    return header, pairs


class Player:
    """Answer decoded messages from the recorded pairs (the `handle(msg)` of this server)."""

    def __init__(self, pairs: list[tuple[str, Any, dict]], *, name: str = "cassette"):
        self.name = name
        self.answers: dict[tuple[str, str], list[dict]] = {}
        self.by_method: dict[str, list[Any]] = {}
        for method, params, answer in pairs:
            self.answers.setdefault((method, _key_params(params, method)), []).append(answer)
            self.by_method.setdefault(method, []).append(params)
        self.played: dict[tuple[str, str], int] = {}

    def handle(self, msg: Any) -> dict | None:
        if isinstance(msg, dict) and "method" not in msg and ("result" in msg or "error" in msg):
            return None  # a response: clients never send one; nothing to answer
        rule = jsonrpc.first_broken(msg)  # the envelope table every judge reads
        if rule is not None:
            rid = msg.get("id") if isinstance(msg, dict) and jsonrpc.is_valid_id(msg.get("id")) else None
            return error(rid, rule.code, f"{jsonrpc.ERROR_NAMES[rule.code]}: {rule.message(msg)}")
        if "id" not in msg:
            return None
        rid, method, params = msg["id"], msg["method"], msg.get("params")
        key = (method, _key_params(params, method))
        if key in self.answers:
            answers = self.answers[key]
            n = self.played.get(key, 0)
            self.played[key] = n + 1
            recorded = answers[min(n, len(answers) - 1)]
            return {"jsonrpc": "2.0", "id": rid, **{k: v for k, v in recorded.items() if k not in ("jsonrpc", "id")}}
        if method not in self.by_method:
            known = ", ".join(sorted(self.by_method))
            self._say(f"unrecorded method {method}; the recording answers: {known}")
            return error(rid, -32601, f"Method not found: {method} is not in this recording (it holds {known})")
        expected = " | ".join(_key_params(p, method) for p in self.by_method[method][:3])
        self._say(
            f"unrecorded params for {method}: got {_key_params(params, method)}; the recording has {expected}"
            " (_meta and requestState are ignored when matching)"
        )
        return error(
            rid,
            -32602,
            f"Invalid params: this recording has no {method} with these params",
            {"recorded": [json.loads(_key_params(p, method)) for p in self.by_method[method][:3]]},
        )

    def _say(self, text: str) -> None:
        print(f"{self.name}: {text}", file=sys.stderr, flush=True)


class SessionPlayer(Player):
    """Several recorded sessions (one per process) played as one server: a connection follows
    the recorded session whose messages it repeats, in order, so each fresh connection gets the
    answers its own conversation got (12 tools before the handshake, 13 after it).

    Each incoming message, request or notification, keeps the sessions whose next recorded
    message matches it: by method and params, the initialize's declared capabilities included
    (what they declare changes the catalogue); failing that, as `Player` matches.  The answer is
    the first such session's.  Once no session matches, answers come as `Player` gives them.
    """

    def __init__(self, sessions: list[list[tuple[str, Any, dict | None]]], *, name: str = "cassette"):
        super().__init__([step for steps in sessions for step in steps if step[2] is not None], name=name)
        self.following = [steps for steps in sessions if steps]
        self.position = 0

    def handle(self, msg: Any) -> dict | None:
        if not (isinstance(msg, dict) and isinstance(msg.get("method"), str)) or not self.following:
            return super().handle(msg)
        method, params, n = msg["method"], msg.get("params"), self.position
        ahead = [steps for steps in self.following if n < len(steps) and steps[n][0] == method]
        strict = [s for s in ahead if _key_params(s[n][1]) == _key_params(params)]
        loose = [s for s in ahead if _key_params(s[n][1], method) == _key_params(params, method)]
        self.following, self.position = strict or loose, n + 1
        if not self.following:
            return super().handle(msg)
        if "id" not in msg:
            return None
        answer = self.following[0][n][2]
        if answer is None:  # recorded without an answer: the process was closed first
            return super().handle(msg)
        return {"jsonrpc": "2.0", "id": msg["id"], **{k: v for k, v in answer.items() if k not in ("jsonrpc", "id")}}


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m mcp_lab.servers.cassette", description="Serve a recorded MCP conversation (a cassette file)."
    )
    parser.add_argument("file", help="the cassette (.jsonl) to play back")
    parser.add_argument("--http", type=int, metavar="PORT", help="serve Streamable HTTP on 127.0.0.1:PORT/mcp")
    args = parser.parse_args(argv)
    try:
        header, pairs = read_pairs(args.file)
    except BadCassette as e:
        print(f"mcp_lab cassette server: {e}", file=sys.stderr)
        return 1
    server = header.get("server") or {}
    label = server.get("label") if isinstance(server.get("label"), str) else "server"
    player = Player(pairs, name=f"cassette[{label}]")
    banner = (
        f"cassette server: playing {len(pairs)} recorded answers of {label} "
        f"({server.get('era') or 'era unknown'}) from {args.file}"
    )
    if args.http is not None:
        from mcp_lab.servers.streamable_http import serve

        serve(player.handle, args.http, name="mcp_lab-cassette", banner=banner)
        return 0
    print(banner + " on stdio", file=sys.stderr, flush=True)
    for line in sys.stdin.buffer:
        try:
            msg = json.loads(line)
        except (ValueError, RecursionError):
            out = dump_line(error(None, -32700, "Parse error: the line is not valid JSON"))
        else:
            answer = player.handle(msg)
            out = None if answer is None else dump_line(answer)
        if out is not None:
            sys.stdout.buffer.write(out)
            sys.stdout.buffer.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
