"""The JSON a desktop host or an editor reads to launch a stdio server, for each bundled server.

    python -m mcp_lab host-config calendar            # {"mcpServers": {"calendar": {...}}}
    python -m mcp_lab host-config calendar durable    # several servers in one file
    python -m mcp_lab host-config --check calendar    # ... and launch each entry to prove it works

Theory of operation.  Hosts that run local servers (desktop assistants, editors, the MCP
Inspector) share one shape of configuration: an object `mcpServers` whose keys are the names
the person sees, each with `command` (the program), `args` (its arguments, never a shell
string) and `env` (extra environment variables).  The host starts the process itself, in a
working folder of its choosing and with an environment of its own, and speaks MCP over the
child's stdin and stdout.  So an entry must not rely on the shell, the current folder or an
activated virtual environment: `command` is an absolute path (this interpreter, or the `node`
found now), and `env` carries whatever the server needs.

For the durable calendar, `env` is where the host gives the process its caller identity
(MCP_LAB_CALLER, see `mcp_lab.servers.durable`): one person, one process.

`check(name, entry)` launches an entry the way a host would -- through `env -i` with only
PATH, HOME and the entry's own variables, in a fresh temporary folder -- and probes it
(`server/discover`, falling back to `initialize`), so a generated entry is proven, not assumed.
"""

from __future__ import annotations

import getpass
import os
import shutil
import sys
import tempfile
from typing import Any

from mcp_lab.servers import known

__all__ = ["entry", "config", "check", "try_entry", "NAMES"]

NAMES = ("calendar", "sdk_calendar", "durable", "notes", "everything")
_MINIMAL_PATH = "/usr/local/bin:/usr/bin:/bin"


def entry(name: str) -> dict[str, Any]:
    """The `mcpServers` entry that launches the bundled server `name` over stdio."""
    if name not in NAMES:
        raise ValueError(f"no host configuration for {name!r}: use one of {', '.join(NAMES)}")
    argv = known.argv_for(name)
    env: dict[str, str] = {}
    if name == "everything":
        # The installed bin is a `#!/usr/bin/env node` script; a host's PATH may not hold node,
        # so the entry names node itself.
        node = shutil.which("node")
        if node is None:
            raise FileNotFoundError("the reference server needs Node.js >= 20 on PATH: install nodejs")
        argv = [node, str(known.REFERENCE_BIN.resolve()), *argv[1:]]
    if name == "durable":
        env["MCP_LAB_CALLER"] = getpass.getuser()  # the identity this host gives the process
    argv[0] = os.path.abspath(argv[0]) if os.sep in argv[0] else argv[0]
    return {"command": argv[0], "args": argv[1:], "env": env}


def config(names: list[str] | tuple[str, ...]) -> dict[str, Any]:
    """`{"mcpServers": {name: entry}}` for each name, in the order given."""
    if not names:
        raise ValueError(f"name at least one server: {', '.join(NAMES)}")
    return {"mcpServers": {name: entry(name) for name in names}}


def host_argv(server_entry: dict[str, Any], home: str) -> list[str]:
    """The argv a host effectively runs: `env -i` + PATH, HOME and the entry's env, then the command."""
    env_tool = shutil.which("env") or "/usr/bin/env"
    variables = [f"PATH={_MINIMAL_PATH}", f"HOME={home}"]
    variables += [f"{k}={v}" for k, v in (server_entry.get("env") or {}).items()]
    return [env_tool, "-i", *variables, server_entry["command"], *server_entry.get("args", [])]


def check(name: str, server_entry: dict[str, Any], *, timeout: float = 15.0):
    """Launch `server_entry` as a host would and probe it; returns the closed Verdict."""
    from mcp_lab.session.probe import probe  # imported here to keep `import` cheap

    folder = tempfile.mkdtemp(prefix=f"mcp_lab-host-{name}-")
    try:
        verdict = probe(
            host_argv(server_entry, os.environ.get("HOME", folder)), timeout=timeout, refresh=True, cwd=folder
        )
        verdict.close()
        return verdict
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def try_entry(name: str, server_entry: dict[str, Any], *, timeout: float = 15.0) -> tuple[bool, str]:
    """Launch an entry you wrote as a host would (see `check`): (True, what answered) or
    (False, one line saying what went wrong and what to try), never a traceback."""
    if not isinstance(server_entry, dict) or not isinstance(server_entry.get("command"), str):
        return False, f'{name}: an entry is an object with a "command" string (and an "args" list)'
    if not isinstance(server_entry.get("args", []), list):
        return False, f'{name}: "args" is a list of strings, never one shell string'
    try:
        verdict = check(name, server_entry, timeout=timeout)
    except Exception as e:  # a host sees only that the process did not answer: say so in one line
        first = (str(e).strip().splitlines() or [type(e).__name__])[0][:200]
        hint = ""
        if not os.path.isabs(server_entry["command"]) or any(
            a.endswith(".py") and not os.path.isabs(a) for a in server_entry.get("args", [])
        ):
            hint = "; a host starts it in another folder with another PATH: use absolute paths"
        return False, f"{name}: the server did not start from this entry ({first}){hint}"
    return True, f"{name}: launched from the entry, {verdict.era} era, version {verdict.version}"


def main(names: list[str], *, check_entries: bool = False, out=None) -> int:
    """The `host-config` command: print the JSON; with --check, launch each entry first."""
    import json

    out = out or sys.stdout
    try:
        document = config(names)
    except (ValueError, FileNotFoundError) as e:
        print(f"mcp_lab host-config: {e}", file=sys.stderr)
        return 2 if isinstance(e, ValueError) else 1
    if check_entries:
        for name, server_entry in document["mcpServers"].items():
            try:
                verdict = check(name, server_entry)
            except Exception as e:  # one line per broken entry, never a traceback
                print(f"mcp_lab host-config: {name}: launching the entry failed: {e}", file=sys.stderr)
                return 1
            print(f"{name}: launched from the entry, {verdict.era} era, version {verdict.version}", file=sys.stderr)
    print(json.dumps(document, indent=2), file=out)
    return 0
