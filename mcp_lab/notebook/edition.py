"""The browser edition in the notebook: one line where a cell needs the installed edition, and
the opener of a lesson that cannot run in a browser tab.

The same notebook files serve both editions; what differs is decided here, at run time, from
`sys.platform` (Pyodide is "emscripten").  In the installed edition nothing here shows anything.

- `install(ipython)` (called by `%load_ext mcp_lab`, browser only): a `NotInBrowser` raised by a
  cell prints its one line (what cannot run here, and where it runs) instead of a traceback.
- `%mcp edition NN` (first cell of a lesson the browser cannot run to the end): in the browser,
  the paragraph of OPENERS[NN] saying what in this lesson needs a real process, Node or an HTTP
  port, and where it runs; nothing in the installed edition.
"""

from __future__ import annotations

import html

from mcp_lab.servers.inprocess import INSTALLED_EDITION, NotInBrowser, in_browser

__all__ = ["OPENERS", "install", "opener"]

PREFIX = "mcp_lab (browser edition): "
# Lessons the browser edition cannot run to the end: why, in one paragraph each.
OPENERS = {
    "02": "The calendar by hand (every line, every error code) runs here, on the calendar in this "
    "tab. The comparison with the official SDK starts a server process through the SDK's client, "
    "so Run All stops there.",
    "03": "This lesson is about bytes on a pipe between two processes (framing, stderr, a child "
    "that dies); a browser tab has neither pipes nor processes, so Run All stops at the first cell.",
    "06": "The pinned reference server needs Node; here it answers from its recording, which holds "
    "the chapter's probe (server/discover refused, then initialize) but not the lesson's other "
    "experiments, so Run All stops at the first request the recording does not hold.",
    "07": "The calendar's form runs here, and the event is booked when you accept it; the SDK's "
    "restaurant booking needs a server process, so Run All stops there.",
    "09": "The lost write runs here, with a fresh copy of the calendar's module standing in for each "
    "fresh process; the reference server's part comes from a recording that does not hold it, and "
    "the durable server keeps its calendars in a database file shared between processes.",
    "11": "The token counts run here, from the reference server's recording, and give the chapter's "
    "figures; how the catalogue changes with the handshake needs the live server.",
    "13": "Streamable HTTP needs a server listening on a port; a browser tab cannot listen.",
    "14": "The official conformance suite runs on Node 22 against a server process.",
    "15": "Recording, replaying and diffing servers start the servers they compare as processes.",
    "16": "The dated revisions and the deprecation policy run here; the experiments on a server "
    "start the SDK's showcase server as a process, so Run All stops there.",
    "17": "The calendar on the official SDK, a host's launch configuration and the Inspector all "
    "need processes on your machine.",
}


def _one_line(shell, etype, value, tb, tb_offset=None):
    # Shown as the cell's error (so Run All still stops here), in one line instead of a traceback.
    shell._showtraceback(etype, value, [f"{PREFIX}{value}"])


def install(ipython) -> None:
    """In the browser edition: NotInBrowser shows its one line, not a traceback."""
    if in_browser():
        ipython.set_custom_exc((NotInBrowser,), _one_line)


def opener(lesson: str) -> None:
    """Show the browser edition's paragraph for `lesson` ("06"); nothing in the installed edition."""
    if not in_browser() or lesson not in OPENERS:
        return
    from IPython.display import HTML, display

    text = f"In the browser edition: {OPENERS[lesson]} Run it to the end in {INSTALLED_EDITION}."
    display(
        HTML(
            "<div class='mcp-lab-edition' style='border-left:4px solid #e8a33d;padding:4px 10px;"
            f"background:#fff8ec'>{html.escape(text)}</div>"
        )
    )
