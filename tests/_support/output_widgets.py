"""nbclient's stand-in for a front end's Output widget, sending on a connection of its own.

Why this exists (measured): nbclient mimics a front end for `ipywidgets.Output` (the course's
predictions hide their reveal in one).  Its mimic sends the widget's state back to the kernel on
the very shell socket on which nbclient is, at that moment, awaiting the cell's execute_reply
through pyzmq's asyncio poller.  A send reads the socket's edge-triggered events, so the reply
that arrives next can wake nobody: the poller only sees it when its own timeout fires, and the
cell then "takes" nbclient's whole cell timeout (120 s) although the kernel answered in
milliseconds (nbclient issue #312, open).  Under load it happened in about one run in three of
notebook 09's cell 4, and made the suite's re-runs of 02, 06 and 09 take 145-315 s instead of
15-30 s.  py-spy showed both sides idle during the wait: the kernel had answered; the client
had not been woken.

The fix keeps the mimic and its behaviour (the kernel still receives the widget's outputs, as
from a browser) and changes one thing: its messages go out on a second, blocking connection to
the same kernel (as a second front end's would), so the socket nbclient polls is never written
to while it waits.
"""

from __future__ import annotations

from typing import Any

from nbclient.jsonutil import json_clean
from nbclient.output_widget import OutputWidget

__all__ = ["use_own_connection_for_output_widgets"]

_SIDE = "_mcp_lab_side_client"  # attribute of the NotebookClient holding the second connection


class _OutputWidgetOnItsOwnConnection(OutputWidget):
    def _publish_msg(
        self,
        msg_type: str,
        data: dict[str, Any] | None = None,
        metadata: dict[str, Any] | None = None,
        buffers: list[Any] | None = None,
        **keys: Any,
    ) -> None:
        side = getattr(self.executor, _SIDE, None)
        if side is None:
            side = self.executor.km.blocking_client()
            side.start_channels(shell=True, iopub=False, stdin=False, hb=False, control=False)
            setattr(self.executor, _SIDE, side)
        content = json_clean(dict(data=data or {}, comm_id=self.comm_id, **keys))
        msg = side.session.msg(msg_type, content=content, parent=self.parent_header, metadata=metadata or {})
        side.shell_channel.send(msg)


def use_own_connection_for_output_widgets(client) -> None:
    """Make `client` (an nbclient NotebookClient) mimic Output widgets on a second connection,
    closed when the notebook completes."""
    client.widget_registry = {"@jupyter-widgets/output": {"OutputModel": _OutputWidgetOnItsOwnConnection}}
    earlier = client.on_notebook_complete

    def close_side_connection(**kw) -> None:
        side = getattr(client, _SIDE, None)
        if side is not None:
            side.stop_channels()
            setattr(client, _SIDE, None)
        if earlier is not None:
            earlier(**kw)

    client.on_notebook_complete = close_side_connection
