"""The one way the suite's notebook runs start a kernel and move it to the Portuguese copy.

`notebook_client(nb, folder)` is plain nbclient: the notebook's own kernel (its kernelspec, else
python3), started in `folder` as the Lab starts it in the notebook's folder, no colours, and the
output-widget fix of tests/_support/output_widgets.py.  `move_to_copy(client, copy, folder)`
points a running client at the Portuguese copy of its notebook: the kernel changes folder (so
mcp_lab.notebook.i18n speaks Portuguese and the copy's relative paths hold) and the interactions
registry starts over, as for any notebook opened anew.  Neither cell is saved in a notebook.
Used by tests/test_rerun.py, tests/test_labs_rerun.py and tests/test_edition_waits.py.
"""

from __future__ import annotations

from pathlib import Path

from _support.output_widgets import use_own_connection_for_output_widgets

CELL_TIMEOUT = 120  # seconds a cell may run (nbclient's `timeout`)


def notebook_client(nb, folder: Path, **options):
    from nbclient import NotebookClient
    from traitlets.config import Config

    config = Config()
    config.KernelManager.transport_encryption = "auto"
    client = NotebookClient(
        nb,
        config=config,
        kernel_name=nb.metadata.get("kernelspec", {}).get("name") or "python3",
        timeout=CELL_TIMEOUT,
        startup_timeout=60,
        extra_arguments=["--InteractiveShell.colors=nocolor"],
        resources={"metadata": {"path": str(folder)}},
        **options,
    )
    use_own_connection_for_output_widgets(client)  # nbclient #312: see _support/output_widgets.py
    return client


async def move_to_copy(client, copy, folder: Path) -> None:
    import nbformat

    client.nb, first = copy, copy.cells[0]
    move = (
        f"__import__('os').chdir({str(folder)!r})\n"
        "__import__('mcp_lab.notebook.interactions').notebook.interactions.clear()"
    )
    try:
        await client.async_execute_cell(nbformat.v4.new_code_cell(move), 0)
    finally:
        copy.cells[0] = first
