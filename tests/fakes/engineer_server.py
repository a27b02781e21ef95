"""An engineer's own server, as one writes it with the official SDK (`mcp` 2.3, plain `MCPServer`,
the FastMCP-style decorators): two tools, a resource and a prompt, nothing built for the
conformance suite.  Not one of mcp_lab's bundled servers, and not mended: the SDK's own answers to
an unknown tool (an `isError` result) and an unknown prompt (-32603) are what it sends.

    python tests/fakes/engineer_server.py                     # stdio
    python tests/fakes/engineer_server.py --http PORT         # Streamable HTTP on 127.0.0.1
    ... --bearer-env VAR                                      # HTTP: 401 unless Authorization: Bearer $VAR
    ... --minted                                              # add open_list / add_item: a handle minted, sent back
    ... --stray                                               # stdio: a stray print() at start-up (a framing defect)

Used by the tests of the CLI, the checker, the conformance classification, redaction and replay.
"""

from __future__ import annotations

import argparse
import itertools
import logging
import os
import sys

from mcp.server import MCPServer

server = MCPServer("engineer-notes", version="1.0.0", instructions="Notes and a greeting.")
NOTES: dict[str, str] = {"welcome": "Hello from the notes server."}
LISTS: dict[str, list[str]] = {}
_IDS = itertools.count(1)


@server.tool()
def add_note(name: str, text: str) -> str:
    """Store a note under a name."""
    NOTES[name] = text
    return f"stored {name}"


@server.tool()
def read_note(name: str) -> str:
    """Read a stored note back."""
    return NOTES.get(name, f"no note {name}")


@server.resource("notes://welcome", name="welcome", mime_type="text/plain")
def welcome() -> str:
    """The welcome note."""
    return NOTES["welcome"]


@server.prompt()
def summarise(topic: str) -> str:
    """Summarise the notes about a topic."""
    return f"Summarise every note about {topic}."


def add_minted_tools() -> None:
    """Two tools that share a handle the server mints: the state a replay must learn."""

    @server.tool()
    def open_list(title: str) -> str:
        """Open a new list; answers its handle."""
        handle = f"list-{os.getpid()}-{next(_IDS)}"
        LISTS[handle] = []
        return handle

    @server.tool()
    def add_item(handle: str, item: str) -> str:
        """Add an item to the list with this handle."""
        if handle not in LISTS:
            raise ValueError(f"Unknown list handle {handle}")
        LISTS[handle].append(item)
        return f"{len(LISTS[handle])} item(s) in {handle}"


def _http(port: int, bearer_env: str | None) -> None:
    import uvicorn

    # host="0.0.0.0", as one writes it for a container: the SDK then turns its Host/Origin check
    # off, so a request with `Host: evil.example.com` is served (the one real defect here).
    app = server.streamable_http_app(host="0.0.0.0")
    if bearer_env:
        token = os.environ[bearer_env]
        inner = app

        async def app(scope, receive, send):  # a bearer gate in front of the SDK's app
            if scope["type"] == "http":
                headers = dict(scope.get("headers") or [])
                if headers.get(b"authorization", b"").decode() != f"Bearer {token}":
                    await send({"type": "http.response.start", "status": 401, "headers": [(b"content-length", b"0")]})
                    await send({"type": "http.response.body", "body": b""})
                    return
            await inner(scope, receive, send)

    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--http", type=int, metavar="PORT")
    p.add_argument("--bearer-env", metavar="VAR")
    p.add_argument("--minted", action="store_true")
    p.add_argument("--stray", action="store_true", help="print one line to stdout at start-up, as debugging does")
    p.add_argument("--crash", action="store_true", help="exit 3 at once, with one line on stderr")
    args = p.parse_args()
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    if args.crash:
        sys.exit("engineer-notes: cannot open the notes database")
    if args.minted:
        add_minted_tools()
    if args.http is not None:
        _http(args.http, args.bearer_env)
    else:
        if args.stray:
            # On a pipe without PYTHONUNBUFFERED this sits in the text buffer and reaches the
            # pipe only when the process exits, after every answer.
            print("engineer-notes: starting up")
        server.run(transport="stdio")


if __name__ == "__main__":
    main()
