"""The teacher's room view: a JupyterHub service at /services/room/ (started by the hub).

A small tornado server, managed by the hub (jupyterhub_config.py lists it beside the idle
culler), on 127.0.0.1; the proxy routes /services/room/ to it.  A browser is logged in through
the hub's OAuth (`HubOAuthenticated`): only a user whose hub token grants
`access:services!service=room` gets in, and the hub gives that to its admins (the `teacher`),
not to learners, who see 403.  The page polls `api/room` every few seconds and redraws its
table (sending the XSRF token the page carries: JupyterHub accepts a cookie on a `fetch` only
with it); `api/room` asks the hub's REST API for the users (last activity, whether their server
runs) with the service's own token, and reads each learner's home for where they are
(room_report.py).  It runs as root, as the hub does, since homes are private to each learner.

Its settings come from the hub in the environment: MCP_LAB_ROOM_HOMES (the homes' folder),
MCP_LAB_ROOM_TEACHER (the name left out of the table), and JupyterHub's own JUPYTERHUB_*
variables (its token, the API URL, its prefix and port).
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path
from urllib.parse import urlparse

sys.path.insert(0, str(Path(__file__).resolve().parent))

import room_report  # noqa: E402
from jupyterhub.services.auth import HubOAuthCallbackHandler, HubOAuthenticated  # noqa: E402
from jupyterhub.utils import url_path_join  # noqa: E402
from tornado import web  # noqa: E402
from tornado.httpclient import AsyncHTTPClient, HTTPRequest  # noqa: E402

POLL_SECONDS = 5
PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>The room</title>
<style>
body { font-family: system-ui, sans-serif; margin: 1.5em; }
table { border-collapse: collapse; } td, th { border-bottom: 1px solid #ddd; padding: .3em .7em;
text-align: left; vertical-align: top; } .failed { color: #a00; } .passed { color: #070; }
.stuck { background: #fff4d6; } small { color: #666; }
</style></head>
<body><h1>The room</h1>
<p><small>Refreshed every %(poll)s s; notebooks and checks as last saved or reported by the
learner's kernel. <span id="when"></span></small></p>
<table><thead><tr><th>learner</th><th>last activity</th><th>server</th><th>notebook</th>
<th>progress</th><th>waiting</th><th>labs</th></tr></thead><tbody id="rows"></tbody></table>
<script>
function esc(s) { const d = document.createElement("div"); d.textContent = s ?? ""; return d.innerHTML; }
function ago(t) {
  if (!t) return "never";
  const m = Math.round((Date.now() - Date.parse(t)) / 60000);
  return m < 1 ? "just now" : m + " min ago";
}
async function refresh() {
  const r = await fetch("api/room", {credentials: "same-origin", headers: {"X-XSRFToken": %(xsrf)s}});
  if (!r.ok) { document.getElementById("when").textContent = "refresh failed: " + r.status; return; }
  const rows = await r.json();
  document.getElementById("rows").innerHTML = rows.map(row => {
    const p = row.progress ? row.progress[0] + " / " + row.progress[1] + " cells" : "";
    const waiting = (row.pending || []).map(i => esc(i[0]) + " <small>(" + esc(i[1]) + ")</small>").join("<br>");
    const labs = Object.entries(row.labs || {}).map(([lab, res]) =>
      '<span class="' + res.split(":")[0] + '">' + esc(lab) + ": " + esc(res) + "</span>").join("<br>");
    return '<tr class="' + ((row.pending || []).length ? "stuck" : "") + '" data-learner="' + esc(row.name) + '">' +
      "<td>" + esc(row.name) + "</td><td>" + ago(row.last_activity) + "</td><td>" + esc(row.server) +
      "</td><td>" + esc(row.notebook || "") + "</td><td>" + p + "</td><td>" + waiting + "</td><td>" + labs + "</td></tr>";
  }).join("");
  document.getElementById("when").textContent = "Last refresh " + new Date().toLocaleTimeString() + ".";
}
refresh(); setInterval(refresh, %(poll)s * 1000);
</script></body></html>
"""


class RoomPage(HubOAuthenticated, web.RequestHandler):
    @web.authenticated
    def get(self):
        self.set_header("Content-Type", "text/html; charset=utf-8")
        xsrf = self.xsrf_token  # the hub's check: a cookie-authenticated fetch must carry it
        self.write(
            PAGE % {"poll": POLL_SECONDS, "xsrf": json.dumps(xsrf.decode() if isinstance(xsrf, bytes) else xsrf)}
        )


class RoomData(HubOAuthenticated, web.RequestHandler):
    @web.authenticated
    async def get(self):
        api = os.environ["JUPYTERHUB_API_URL"]
        request = HTTPRequest(
            url_path_join(api, "users"),
            headers={"Authorization": f"token {os.environ['JUPYTERHUB_API_TOKEN']}"},
            request_timeout=10,
        )
        response = await AsyncHTTPClient().fetch(request)
        users = json.loads(response.body)
        homes, teacher = Path(os.environ["MCP_LAB_ROOM_HOMES"]), os.environ.get("MCP_LAB_ROOM_TEACHER", "teacher")
        rows = await asyncio.to_thread(room_report.room, homes, users, teacher)
        self.set_header("Content-Type", "application/json")
        self.set_header("Cache-Control", "no-store")
        self.write(json.dumps(rows))


def make_app() -> web.Application:
    prefix = os.environ.get("JUPYTERHUB_SERVICE_PREFIX", "/services/room/")
    return web.Application(
        [
            (prefix, RoomPage),
            (url_path_join(prefix, "api/room"), RoomData),
            (url_path_join(prefix, "oauth_callback"), HubOAuthCallbackHandler),
        ],
        cookie_secret=os.urandom(32),
    )


async def main() -> None:
    where = urlparse(os.environ["JUPYTERHUB_SERVICE_URL"])
    make_app().listen(where.port, address=where.hostname or "127.0.0.1")
    await asyncio.Event().wait()  # until the hub stops it (SIGTERM)


if __name__ == "__main__":
    asyncio.run(main())
