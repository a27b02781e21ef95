"""Public module `mcp_lab.mrtr`: multi round-trip requests (`input_required` -> answers -> retry).

`call()` runs the loop with an answer function (a script, a test); `interactive()` answers with
ipywidgets forms in a notebook. The loop lives in `mcp_lab.session.mrtr`, the forms in
`mcp_lab.notebook.interactive`; this module joins the two under the name notebooks use.
"""

from mcp_lab.notebook.interactive import Interactive, interactive
from mcp_lab.session.mrtr import MAX_ROUNDS, MrtrCall, RoundsExceeded, call
from mcp_lab.wire.revisions import MRTR_METHODS  # the requests that may answer input_required

__all__ = ["MAX_ROUNDS", "MRTR_METHODS", "RoundsExceeded", "MrtrCall", "call", "interactive", "Interactive"]
