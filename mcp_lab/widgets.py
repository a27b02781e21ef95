"""Public module name `mcp_lab.widgets`, kept short and stable for notebooks and scripts.

The implementation is `mcp_lab.notebook.widgets`; importing this name gives that very module (one module
object under two names, so state such as caches and monkeypatches is shared).
"""

import importlib
import sys

sys.modules[__name__] = importlib.import_module("mcp_lab.notebook.widgets")
