"""A local web page that counts the requests it gets (notebook 07: a URL-mode link never fetched).

site = counting_page()              # listens on 127.0.0.1, a free port, in a daemon thread
site.url("/connect/weather")        # the address to put in a URL-mode elicitation
site.hits                           # the paths requested so far
site.close()                        # idempotent; the thread ends with the kernel anyway
"""

from __future__ import annotations

import http.server
import threading

__all__ = ["CountingPage", "counting_page"]


class CountingPage:
    def __init__(self) -> None:
        self.hits: list[str] = []
        hits = self.hits

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 -- the name http.server calls
                hits.append(self.path)
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args):  # quiet: nothing on the notebook's stderr
                pass

        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self._server.server_port
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        self.closed = False

    def url(self, path: str = "/") -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self._server.shutdown()
            self._server.server_close()


def counting_page() -> CountingPage:
    return CountingPage()
