"""``python -m mcp_lab.servers.showcase [--http PORT] [--state-key-file PATH]``.

stdio by default; with ``--http PORT`` Streamable HTTP on 127.0.0.1 only (PORT 0 picks a free
port), with one ready line on stderr once the socket listens. Nothing but MCP goes to stdout.
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import sys

from mcp_lab.servers.spec_mcpserver import STATE_KEY_ENV, request_state_key

from . import SERVER_NAME, build_server

HOST = "127.0.0.1"
PATH = "/mcp"


def bind(port: int) -> socket.socket:
    """A listening-ready TCP socket on 127.0.0.1:port, or one line on stderr and exit status 1."""
    # IPPROTO_TCP named, not left 0: asyncio turns Nagle's algorithm off (TCP_NODELAY) only on
    # connections whose socket says it is TCP, and an accepted connection inherits this socket's
    # proto.  With 0, each answer's last small write waited for the client's delayed ACK: about
    # 40 ms per request (measured: 48 ms a tools/list, 4 ms with it named).
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((HOST, port))
    except OSError as exc:
        sock.close()
        sys.exit(f"showcase: cannot listen on {HOST}:{port}: {exc.strerror} (pick another port, or 0 for any free one)")
    return sock


async def serve_http(sock: socket.socket, key: str | None) -> None:
    """uvicorn on the bound socket; the SDK's app checks Host and Origin (DNS-rebinding protection)."""
    import uvicorn

    app = build_server(key).streamable_http_app(host=HOST, streamable_http_path=PATH)
    # No access log and no log config: uvicorn would print to stdout, which stays empty here.
    config = uvicorn.Config(app, log_level="warning", access_log=False, log_config=None)
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve(sockets=[sock]))
    while not server.started and not task.done():
        await asyncio.sleep(0.01)
    if server.started:
        port = sock.getsockname()[1]
        print(f"showcase: serving Streamable HTTP on http://{HOST}:{port}{PATH}", file=sys.stderr, flush=True)
    await task


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m mcp_lab.servers.showcase",
        description=f"{SERVER_NAME}: the whole MCP 2026-07-28 surface on the SDK",
    )
    parser.add_argument("--http", type=int, metavar="PORT", help="serve Streamable HTTP on 127.0.0.1:PORT/mcp")
    parser.add_argument("--state-key-file", metavar="PATH", help=f"shared requestState key (else ${STATE_KEY_ENV})")
    args = parser.parse_args(argv)
    key = request_state_key(args.state_key_file, "showcase")
    if args.http is None:
        build_server(key).run(transport="stdio")
        return
    if not 0 <= args.http <= 65535:
        parser.error(f"--http takes a port from 0 to 65535, not {args.http}")
    sock = bind(args.http)
    try:
        asyncio.run(serve_http(sock, key))
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
