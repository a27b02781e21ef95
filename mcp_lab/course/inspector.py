"""The MCP Inspector, pinned, run on the bundled servers: its CLI from code, its web UI on loopback.

    make inspector                                   # install (once), then open the web UI on the calendar
    python -m mcp_lab.course.inspector               # the same, once installed
    python -m mcp_lab.course.inspector --cli tools/list

Theory of operation.  `@modelcontextprotocol/inspector` 2.12 is the official tool for poking at
an MCP server by hand.  It needs Node >= 22.19, and many machines have Node 20, so its folder
(`tools/inspector/`, a package.json and a lock file) pins both the Inspector and Node 22 from
npm (the `node` package puts a `node` binary in `node_modules/.bin`).  `make inspector` runs
`npm ci` there once (a stamp file), never as part of `make setup`, which stays fast.

Every run puts that `.bin` folder first on PATH for the Inspector's process only, writes a
config file with the host-config entries of the servers asked for (the shape
`python -m mcp_lab host-config` prints) plus `"protocolEra": "auto"`, so the Inspector probes
the era the way notebook 06 does, and sets MCP_INSPECTOR_SECRET_STORE=memory (no OS keychain
is assumed).  The web UI binds 127.0.0.1 (the Inspector's default, never changed here), on
ports chosen free, behind a random API token that the printed URL carries.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from mcp_lab.course import host_config
from mcp_lab.transport.process import reap, spawn

__all__ = ["INSPECTOR_DIR", "installed", "cli", "WebInspector", "write_config", "NotInstalled"]

INSPECTOR_DIR = Path(__file__).resolve().parents[2] / "tools" / "inspector"
BIN = INSPECTOR_DIR / "node_modules" / ".bin"
VERSION = "2.12.0"
START_TIMEOUT = 60.0


class NotInstalled(RuntimeError):
    """The pinned Inspector is not installed: `make inspector` installs it."""


def installed() -> bool:
    return (BIN / "mcp-inspector").exists() and (BIN / "node").exists()


def _require() -> None:
    if not installed():
        raise NotInstalled(
            f"the MCP Inspector {VERSION} is not installed: run `make inspector` "
            f"(npm ci in {INSPECTOR_DIR.name}/, about 15 s and 300 MB)"
        )


def _env(extra: dict[str, str] | None = None) -> dict[str, str]:
    env = {
        **os.environ,
        "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
        "MCP_INSPECTOR_SECRET_STORE": "memory",
        "MCP_AUTO_OPEN_ENABLED": "false",
    }
    env.pop("HOST", None)  # the Inspector binds HOST; unset means its default, 127.0.0.1
    return {**env, **(extra or {})}


def write_config(path: Path, names: tuple[str, ...] = ("calendar",), era: str = "auto") -> Path:
    """An Inspector config: the host-config entries of `names`, each with a protocolEra."""
    document = host_config.config(list(names))
    for entry in document["mcpServers"].values():
        entry["protocolEra"] = era
    path.write_text(json.dumps(document, indent=2))
    return path


def cli(method: str = "tools/list", server: str = "calendar", *, timeout: float = 60.0) -> Any:
    """Run `mcp-inspector --cli ... --method METHOD` against a bundled server; its JSON answer."""
    _require()
    with tempfile.TemporaryDirectory(prefix="mcp_lab-inspector-") as folder:
        cfg = write_config(Path(folder) / "inspector.json", (server,))
        done = subprocess.run(
            [str(BIN / "mcp-inspector"), "--cli", "--config", str(cfg), "--server", server, "--method", method],
            capture_output=True,
            text=True,
            timeout=timeout,
            env=_env(),
            cwd=folder,
        )
    if done.returncode != 0:
        tail = " | ".join(done.stderr.strip().splitlines()[-3:])
        raise RuntimeError(f"mcp-inspector --cli {method} exited with {done.returncode}: {tail}")
    return json.loads(done.stdout)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class WebInspector:
    """The Inspector's web UI on 127.0.0.1, in its own process group; `url` carries the token."""

    def __init__(self, names: tuple[str, ...] = ("calendar",), *, folder: Path | None = None):
        _require()
        self._own_folder = folder is None  # a temporary folder of ours goes when it stops
        self.folder = Path(folder or tempfile.mkdtemp(prefix="mcp_lab-inspector-"))
        self.folder.mkdir(parents=True, exist_ok=True)
        self.token = secrets.token_urlsafe(16)
        self.port = _free_port()
        cfg = write_config(self.folder / "inspector.json", names)
        self.log_path = self.folder / "inspector.log"
        self._log = open(self.log_path, "w")
        ports = {
            "CLIENT_PORT": str(self.port),
            "MCP_SANDBOX_PORT": str(_free_port()),
            "MCP_APP_ORIGIN_PORT": str(_free_port()),
            "MCP_INSPECTOR_API_TOKEN": self.token,
        }
        self.proc = spawn(
            [str(BIN / "mcp-inspector"), "--web", "--config", str(cfg)],
            env=_env(ports),
            cwd=self.folder,
            stdin=False,
            log=self._log,
            what="the MCP Inspector",
            whole_env=True,  # _env() unsets HOST
        )
        self.url = f"http://127.0.0.1:{self.port}/?MCP_INSPECTOR_API_TOKEN={self.token}"

    def wait_ready(self, timeout: float = START_TIMEOUT) -> "WebInspector":
        deadline = time.monotonic() + timeout
        while "is up and running" not in self.log_path.read_text():
            if self.proc.poll() is not None:
                raise RuntimeError(f"the Inspector exited with {self.proc.returncode}: {self.log_tail()}")
            if time.monotonic() > deadline:
                tail = self.log_tail()
                self.stop()
                raise RuntimeError(f"the Inspector did not start within {timeout:g} s: {tail}")
            time.sleep(0.1)
        return self

    def log_tail(self, n: int = 5) -> str:
        return " | ".join(self.log_path.read_text().strip().splitlines()[-n:])

    def stop(self, grace: float = 5.0) -> None:
        """SIGTERM to the whole process group (the Inspector and the servers it spawned), then SIGKILL."""
        reap(self.proc, grace)
        self._log.close()
        if self._own_folder:
            import shutil

            shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> "WebInspector":
        try:
            return self.wait_ready()
        except BaseException:  # a signal or Ctrl-C while it starts: __exit__ will not run, so stop here
            self.stop()
            raise

    def __exit__(self, *exc) -> None:
        self.stop()


class _Stopped(Exception):
    """SIGTERM or SIGHUP arrived: leave the `with` block, whose exit stops the Inspector's group."""


def _stop_on_signals() -> None:
    """SIGTERM (`make` passes it on to its recipe, `kill`, a CI runner's cancel) and SIGHUP (a
    closed terminal) end this process; the Inspector runs in a process group of its own, so
    without this it and its Node children would outlive us.  Turned into an exception, the
    signal unwinds through WebInspector.__exit__, which ends the whole group."""

    def stop(signum, frame):
        raise _Stopped(signal.Signals(signum).name)

    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, stop)


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m mcp_lab.course.inspector",
        description="Open the pinned MCP Inspector on bundled servers (127.0.0.1 only).",
    )
    parser.add_argument("names", nargs="*", default=["calendar"], help="bundled servers (default: calendar)")
    parser.add_argument("--cli", metavar="METHOD", help="run the Inspector's CLI once with this method instead")
    args = parser.parse_args(argv)
    _stop_on_signals()
    try:
        if args.cli:
            print(json.dumps(cli(args.cli, args.names[0]), indent=2))
            return 0
        # `make inspector` / Ctrl-C / SIGTERM: the `with` block's exit ends the Inspector's whole group.
        with WebInspector(tuple(args.names)) as web:
            print(
                f"MCP Inspector {VERSION} on {', '.join(args.names)} (protocolEra auto): {web.url}\n"
                "Open it in a browser on this machine; Ctrl-C stops it.",
                flush=True,
            )
            try:
                web.proc.wait()
            except KeyboardInterrupt:
                pass
    except _Stopped:
        return 0
    except (NotInstalled, RuntimeError, ValueError) as e:
        print(f"mcp_lab inspector: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
