"""The smaller promises to an engineer: `--json` is JSON even when the run cannot start, a server's
flags given without `--` get a one-line hint, and a secret on the server's command line stays out
of the cassette (its header and the recorded stderr)."""

from __future__ import annotations

import contextlib
import io
import json
import sys

from mcp_lab.__main__ import main
from mcp_lab.session import cassette


def _run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


def test_json_is_an_error_object_when_the_server_cannot_start():
    dead = ["--", sys.executable, "-c", "import sys; sys.exit(4)"]
    for command in (["check", "--json"], ["probe", "--json"]):
        code, out, err = _run([*command, *dead])
        data = json.loads(out)
        assert code == 2 and data["ok"] is False and "exit code 4" in data["error"], (command, out)
        assert err.count("\n") == 1, err


def test_a_servers_flags_without_the_separator_get_one_hint_line():
    code, out, err = _run(["probe", "python", "-m", "mcp_lab.servers.calendar"])
    assert code == 2 and out == ""
    assert err.strip() == (
        "mcp-lab probe: unrecognized arguments: -m mcp_lab.servers.calendar; a server's command goes after "
        "`--`: mcp-lab probe -- python -m mcp_lab.servers.calendar"
    ), err


LEAKY = """
import os, sys
from mcp_lab.servers import calendar
print("starting with token " + os.environ["TOKEN"], file=sys.stderr, flush=True)
for line in sys.stdin.buffer:
    sys.stdout.buffer.write(calendar.handle_line(line)); sys.stdout.buffer.flush()
"""


def test_a_token_on_the_command_line_stays_out_of_the_cassette(tmp_path):
    token = "s3cr3t-t0ken-42"
    script = tmp_path / "s.txt"
    script.write_text("tools/list\n")
    out = tmp_path / "c.jsonl"
    argv = ["env", f"TOKEN={token}", sys.executable, "-c", LEAKY, "--api-key", "k3y-v4lue-99"]
    code, _, err = _run(["record", str(out), "--script", str(script), "--", *argv])
    assert code == 0, err
    text = out.read_text()
    assert token not in text and "k3y-v4lue-99" not in text
    c = cassette.read(out)
    command = c.header["server"]["command"]
    assert command[:2] == ["env", "TOKEN=<redacted>"] and command[-2:] == ["--api-key", "<redacted>"], command
    stderr = [e.line for e in c.trace if e.kind == "stderr"]
    assert "starting with token <redacted>" in stderr, stderr
