"""A tiny in-process HTTP server that answers each POST with a scripted raw reply.

Used to test what the client does with replies no well-behaved server sends: SSE events split
across writes, multi-line data, a stream closed before the response, a non-JSON body, an
oversized body, and no answer at all.  Bound to 127.0.0.1, on a free port, in a thread; `close()`
releases anything still waiting and shuts the socket, so no test leaves it listening.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class FakeServer:
    """`reply(body: dict) -> list[bytes] | None`: the raw chunks to write after the headers;
    None means never answer (hold the connection until close).  `status` is an int, or a
    callable `status(body) -> int` for a server whose status depends on the request."""

    def __init__(self, status: int = 200, headers: dict | None = None, reply=None):
        fake = self
        self.release = threading.Event()
        self.bodies: list[dict] = []
        self.request_headers: list[dict] = []

        class H(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *a):
                pass

            def do_POST(self):
                raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                try:
                    body = json.loads(raw)
                except ValueError:
                    body = raw.decode()
                fake.bodies.append(body)
                fake.request_headers.append(dict(self.headers))
                chunks = reply(body)
                if chunks is None:
                    fake.release.wait(30)  # hold the request: a server that never answers
                    return
                self.send_response(status(body) if callable(status) else status)
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.send_header("Connection", "close")
                self.end_headers()
                for c in chunks:
                    self.wfile.write(c)
                    self.wfile.flush()
                self.close_connection = True

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), H)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}/mcp"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.release.set()
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(5)
