"""Serve the built browser edition on 127.0.0.1 (`make lite-serve`; the browser test uses `serve`).

    python tools/lite_serve.py [SITE_DIR] [PORT]

A plain static server: any static host serves the same folder. This one exists to bind
127.0.0.1 only, to give `.mjs` and `.wasm` the types browsers insist on, and to print the URL.
"""

from __future__ import annotations

import functools
import http.server
import sys
import threading
from pathlib import Path

DEFAULT_SITE = "build/lite"
FIRST_PAGE = "lab/index.html?path=notebooks/00-start-here.ipynb"
FIRST_PAGE_PT = "lab/pt-BR/index.html?path=notebooks/pt-BR/00-start-here.ipynb"  # the Lab in Portuguese


class _Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".js": "text/javascript",
        ".mjs": "text/javascript",
        ".wasm": "application/wasm",
        ".json": "application/json",
        ".ipynb": "application/json",
        ".whl": "application/zip",
        ".zip": "application/zip",
    }
    quiet = False

    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        if not self.quiet:
            super().log_message(format, *args)


def serve(site: Path, port: int = 0, *, quiet: bool = True) -> tuple[http.server.ThreadingHTTPServer, str]:
    """Start serving `site` on 127.0.0.1 in a daemon thread; return (server, base URL).

    Stop it with `server.shutdown(); server.server_close()`.
    """
    if not (site / "index.html").is_file():
        raise FileNotFoundError(f"{site} is not a built site (no index.html): run make lite")
    handler = functools.partial(type("Handler", (_Handler,), {"quiet": quiet}), directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, name="lite-serve", daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def main(argv: list[str]) -> int:
    site = Path(argv[0] if argv else DEFAULT_SITE)
    try:
        port = int(argv[1]) if len(argv) > 1 else 8765
    except ValueError:
        print(f"lite-serve: the port must be a number, not {argv[1]!r}", file=sys.stderr)
        return 2
    try:
        server, url = serve(site, port, quiet=False)
    except FileNotFoundError as e:
        print(f"lite-serve: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(
            f"lite-serve: cannot listen on 127.0.0.1:{port} ({e.strerror}); try make lite-serve LITE_PORT=8766",
            file=sys.stderr,
        )
        return 1
    print(f"The browser edition is at {url}{FIRST_PAGE}  (Ctrl-C stops the server)")
    if (site / FIRST_PAGE_PT.partition("?")[0]).is_file():
        print(f"A edição em português: {url}{FIRST_PAGE_PT}", flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    finally:
        server.shutdown()
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
