"""Lab 08 (ask the person): a room-booking server whose one tool has to ask the person.

    python server.py              # stdio: one JSON-RPC message per line (the lab's check starts it)
    python server.py --http PORT  # Streamable HTTP on 127.0.0.1:PORT/mcp (the conformance suite's way in)

The tool `book_room(startsAt)` books a meeting room, but the room is the person's choice, not
the model's.  In revision 2026-07-28 a server never sends a request to the client, so the tool
answers the first call with an *interim* result,

    {"resultType": "input_required",
     "inputRequests": {"room": {"method": "elicitation/create", "params": {...a form...}}},
     "requestState": "<opaque, signed>"}

and the client calls `book_room` again -- a new request, with a new id -- carrying the person's
answer in `inputResponses.room` and the `requestState` echoed unchanged.  That second request
must be answerable by ANY process of this server: everything it needs travels in the message.

What the lab's check expects (the contract of this tool):

* first call, when the request declares form elicitation: the interim result above; the form
  asks one required property, "room", whose `enum` lists the free rooms;
* first call without form elicitation in `clientCapabilities`: the JSON-RPC error -32021 with
  `data.requiredCapabilities` = {"elicitation": {"form": {}}};
* retry with "accept" and a room that was offered: "Booked <room> at <startsAt>." (not an error);
* retry with "decline" or "cancel": a result with "isError": true that says so (no booking);
* retry without an answer under "room": the question again (a new input_required), not an error;
* a requestState that this server did not issue, or that was changed: refused (-32602).

Work through the TODO markers in `book_room` and `ask_for_room`; everything else is complete.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import os
import sys
from typing import Any

# The bundled calendar supplies the per-request envelope rules (the `_meta` check, the
# JSON-RPC error shape); this file adds one tool on top of them.
from mcp_lab.servers.calendar import Refusal, check_meta, dump_line as dump, error, is_datetime

SERVER_INFO = {"name": "lab08-rooms", "version": "0.1.0"}
FREE_ROOMS = ["Aurora", "Borealis", "Cosmos"]

# Every process of this server must share the key, or a retry landing on another process could
# not verify the state.  A real server loads it from a secret store; the lab reads it from the
# environment with a fixed fallback so that `python server.py` just works.
SECRET = os.environ.get("LAB08_SECRET", "lab-08-not-a-real-secret").encode()

TOOL = {
    "name": "book_room",
    "description": "Book a meeting room. Asks the person which room.",
    "inputSchema": {
        "type": "object",
        "properties": {"startsAt": {"type": "string", "format": "date-time",
                                    "description": "Start of the meeting, ISO 8601 UTC."}},
        "required": ["startsAt"],
    },
}

# The form the person fills in: a flat object of primitive properties (elicitation's rule).
ROOM_FORM = {
    "type": "object",
    "properties": {"room": {"type": "string", "title": "Room", "enum": FREE_ROOMS}},
    "required": ["room"],
}


# --- helpers you use (complete) ------------------------------------------------------------

def complete(body: dict) -> dict:
    """A final result: resultType "complete", and who answered in _meta."""
    return {"resultType": "complete", **body, "_meta": {"io.modelcontextprotocol/serverInfo": SERVER_INFO}}


def tool_error(text: str) -> dict:
    """A tool's own failure: a normal result the model can read, with isError true."""
    return complete({"content": [{"type": "text", "text": text}], "isError": True})


def declares_form_elicitation(caps: dict) -> bool:
    """Did THIS request declare that its client can show a form?  ({} under elicitation means form.)"""
    e = caps.get("elicitation")
    return isinstance(e, dict) and (not e or isinstance(e.get("form"), dict))


def seal(state: dict) -> str:
    """The requestState for `state`: base64 JSON plus an HMAC, so a changed copy is detected."""
    body = base64.urlsafe_b64encode(json.dumps(state, separators=(",", ":")).encode()).decode()
    tag = hmac.new(SECRET, body.encode(), hashlib.sha256).hexdigest()
    return f"{body}.{tag}"


def unseal(token: Any) -> dict:
    """The state a requestState carries, or Refusal(-32602) if this server did not issue it as is."""
    if not isinstance(token, str) or token.count(".") != 1:
        raise Refusal(-32602, "Invalid requestState: missing, or not one this server issued")
    body, tag = token.split(".")
    expected = hmac.new(SECRET, body.encode(), hashlib.sha256).hexdigest()
    if not hmac.compare_digest(tag, expected):
        raise Refusal(-32602, "Invalid requestState: the signature does not match (changed, or not issued here)")
    try:
        return json.loads(base64.urlsafe_b64decode(body))
    except (binascii.Error, ValueError):
        raise Refusal(-32602, "Invalid requestState: unreadable") from None


# --- the tool ------------------------------------------------------------------------------

def ask_for_room(starts: str) -> dict:
    """The interim result: the question under "room", and what the retry must know, sealed."""
    # TODO 2: return the interim result: resultType "input_required", inputRequests with one
    #   entry under the key "room" (a bare {"method": "elicitation/create", "params": {...}} whose
    #   params hold mode "form", a message, and ROOM_FORM as requestedSchema), and a requestState
    #   made with seal({...}) holding what the retry must know (the tool, startsAt, the rooms).
    # YOUR CODE HERE
    raise NotImplementedError("TODO 2 in ask_for_room: answer with resultType input_required")


def book_room(args: dict, params: dict, caps: dict) -> dict:
    starts = args.get("startsAt")
    if not is_datetime(starts):
        return tool_error(f"startsAt must be an ISO 8601 date-time such as 2026-09-10T08:30:00Z, not {starts!r}.")
    responses = params.get("inputResponses")
    state = params.get("requestState")

    if responses is None and state is None:
        # First round: nothing has been asked yet.
        # TODO 1: a server must never ask for an input type the request did not declare.
        #   If `declares_form_elicitation(caps)` is false, refuse the request: raise
        #   Refusal(code, message, data) with the code for a missing client capability and
        #   data {"requiredCapabilities": <a capabilities object naming what is missing>}.
        # YOUR CODE HERE
        return ask_for_room(starts)

    # TODO 3: the retry.  Believe nothing the client sent back:
    #   - unseal(state) verifies the requestState (it raises the right Refusal itself) and
    #     returns what you sealed; check it was issued for this call (same startsAt);
    #   - the person's answer is responses["room"], an ElicitResult {"action", "content"?};
    #     when there is none (an empty inputResponses, say), ask again: return
    #     ask_for_room(starts), a new input_required, rather than an error;
    #   - "decline" and "cancel" end the call with tool_error(...) saying which;
    #   - "accept" books content["room"] if it is one of the rooms you offered, answering
    #     complete({"content": [{"type": "text", "text": f"Booked {room} at {starts}."}], ...}).
    # YOUR CODE HERE
    raise NotImplementedError("TODO 3 in book_room: finish the call from inputResponses and requestState")


# --- protocol plumbing (complete; the calendar's dispatch style) ------------------------------

def _tools_call(params: dict, caps: dict) -> dict:
    if params.get("name") != TOOL["name"]:
        raise Refusal(-32602, f"Unknown tool: {params.get('name')!r}")
    args = params.get("arguments") or {}
    if not isinstance(args, dict):
        raise Refusal(-32602, "tools/call arguments must be an object")
    return book_room(args, params, caps)


HANDLERS = {
    "server/discover": lambda p, c: complete({"supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}},
                                              "ttlMs": 3600000, "cacheScope": "public"}),
    "tools/list": lambda p, c: complete({"tools": [TOOL], "ttlMs": 300000, "cacheScope": "public"}),
    "tools/call": _tools_call,
}


def handle(msg: Any) -> dict | None:
    """One decoded message in, one response dict out (None for a notification)."""
    if not isinstance(msg, dict) or msg.get("jsonrpc") != "2.0" or not isinstance(msg.get("method"), str):
        return error(None, -32600, "Invalid Request: not a JSON-RPC 2.0 request")
    if "id" not in msg:
        return None
    rid, method, params = msg["id"], msg["method"], msg.get("params") or {}
    if isinstance(rid, bool) or not isinstance(rid, (str, int)):
        return error(None, -32600, "Invalid Request: id must be a string or an integer, never null")
    try:
        if method not in HANDLERS:
            raise Refusal(-32601, f"Method not found: {method}")
        return {"jsonrpc": "2.0", "id": rid, "result": HANDLERS[method](params, check_meta(params))}
    except Refusal as r:
        return error(rid, r.code, r.message, r.data)
    except Exception as e:  # a bug costs one answer, never the process; the log says where
        import traceback
        traceback.print_exc(file=sys.stderr)
        return error(rid, -32603, f"Internal error: {type(e).__name__}: {e}")


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if argv:   # `python server.py --http PORT`: the same handle(), over the course's HTTP binding
        import argparse
        parser = argparse.ArgumentParser(prog="python server.py")
        parser.add_argument("--http", type=int, required=True, metavar="PORT",
                            help="serve Streamable HTTP on 127.0.0.1:PORT/mcp instead of stdio")
        from mcp_lab.servers.streamable_http import serve
        serve(handle, parser.parse_args(argv).http, name=SERVER_INFO["name"])
        return
    print(f"{SERVER_INFO['name']}: serving 2026-07-28 on stdio", file=sys.stderr)
    for line in sys.stdin.buffer:
        try:
            answer = handle(json.loads(line))
        except ValueError:
            answer = error(None, -32700, "Parse error: the line is not valid JSON")
        if answer is not None:
            sys.stdout.buffer.write(dump(answer))
            sys.stdout.buffer.flush()


if __name__ == "__main__":
    main()
