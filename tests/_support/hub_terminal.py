"""Type commands into a real Lab terminal of a learner's server, as a person at the keyboard does.

JupyterLab's terminal is jupyter_server's terminals API: `POST /api/terminals` makes one (a
shell started by the server with its own settings: this is where PATH used to be reset), and
the websocket `/terminals/websocket/<name>` carries `["stdin", text]` one way and
`["stdout", text]` the other.  `run_in_terminal` types each command followed by an `echo` of
a marker with the command's exit status, reads until that marker comes back (each command has
a deadline), and deletes the terminal.  Returns, per command, (exit status, what it printed),
with the terminal's colour codes and carriage returns removed.
"""

from __future__ import annotations

import asyncio
import json
import re
import secrets
import time

import httpx

from _support.hub import HubError

COMMAND_DEADLINE = 120.0
_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07|\r")


async def _read_until(ws, marker: re.Pattern, deadline: float, seen: list[str]) -> re.Match:
    end = time.monotonic() + deadline
    while True:
        found = marker.search(_ANSI.sub("", "".join(seen)))
        if found:
            return found
        left = end - time.monotonic()
        if left <= 0:
            raise HubError(f"no prompt back within {deadline:.0f} s; the terminal showed:\n{''.join(seen)[-1500:]}")
        raw = await asyncio.wait_for(ws.read_message(), timeout=left)
        if raw is None:
            raise HubError("the terminal's websocket closed")
        kind, *rest = json.loads(raw)
        if kind == "stdout":
            seen.append(rest[0])


async def run_in_terminal(
    server_url: str, token: str, commands: list[str], deadline: float = COMMAND_DEADLINE
) -> list[tuple[int, str]]:
    from tornado.httpclient import HTTPRequest
    from tornado.websocket import websocket_connect

    headers = {"Authorization": f"token {token}"}
    async with httpx.AsyncClient(timeout=30.0, headers=headers) as http:
        r = await http.post(f"{server_url}/api/terminals")
        if r.status_code != 200:
            raise HubError(f"could not open a terminal: {r.status_code} {r.text[:200]}")
        name = r.json()["name"]
        ws = None
        try:
            url = server_url.replace("http", "ws", 1) + f"/terminals/websocket/{name}"
            ws = await asyncio.wait_for(websocket_connect(HTTPRequest(url, headers=headers)), 30)
            results = []
            for command in commands:
                tag = secrets.token_hex(4)
                # The marker is printed by the shell, never typed as-is: an echo of the typed line
                # (which holds `__"done"...`) cannot match it.
                await ws.write_message(json.dumps(["stdin", f'{command}; echo "__{tag}"_"$?"__\r']))
                seen: list[str] = []
                done = await _read_until(ws, re.compile(rf"__{tag}_(\d+)__"), deadline, seen)
                text = _ANSI.sub("", "".join(seen))
                results.append((int(done.group(1)), text[: done.start()]))
            return results
        finally:
            if ws is not None:
                ws.close()
            await http.delete(f"{server_url}/api/terminals/{name}")
