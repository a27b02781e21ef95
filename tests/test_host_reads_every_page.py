"""Notebook 01's host reads every page of tools/list: its Host cell, run against the paged toolbox."""

from __future__ import annotations

import json

from _support import ROOT

import mcp_lab
from mcp_lab.servers import known, paged

HOST_CELL = "c04"


def host_class(source_edit=lambda s: s):
    cells = json.loads((ROOT / "notebooks" / "01-host-client-server.ipynb").read_text())["cells"]
    src = "".join(next(c for c in cells if c["id"] == HOST_CELL)["source"])
    ns: dict = {"mcp_lab": mcp_lab}
    exec(compile(source_edit(src), "01 host", "exec"), ns)
    return ns["Host"]


def owned(Host) -> dict:
    host = Host({"paged": known.argv_for("paged")}, model=None)
    try:
        return dict(host.owner)
    finally:
        host.close()


def test_the_host_learns_every_tool_of_every_page():
    assert sorted(owned(host_class())) == sorted(t["name"] for t in paged.TOOLS)


def test_a_host_that_stops_at_page_one_would_be_caught():
    # The same cell with the end test broken (every page treated as the last): three of seven.
    first_page_only = host_class(lambda s: s.replace('if "nextCursor" not in page:', "if True:"))
    assert len(owned(first_page_only)) == paged.PAGE_SIZE < len(paged.TOOLS)
