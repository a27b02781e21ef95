"""The command line as an engineer meets it, against a server nobody here wrote
(tests/fakes/engineer_server.py: the official SDK's plain MCPServer, stdio or HTTP, optionally
behind a bearer token): exit codes, one-line errors, --require, structured findings, a closed
pipe, credentials sent and never recorded, start-up deadlines."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

import mcp_lab
from mcp_lab import http_servers
from mcp_lab.__main__ import main

FAKES = Path(__file__).resolve().parent / "fakes"
ENGINEER = [sys.executable, str(FAKES / "engineer_server.py")]
TOKEN = "tok-3f9a1c77e2b84d0c9a55"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err.strip()


@pytest.mark.parametrize(
    "argv, says",
    [
        (["probe", "node", "server.js"], "the server's command goes after `--`: mcp-lab probe -- node server.js"),
        (["probe", "python3"], "put it after `--`: mcp-lab probe -- python3"),
        (["probe", "no-such-server"], "unknown server 'no-such-server'"),
        (["probe", "--", "no-such-executable-here"], "'no-such-executable-here' is not on PATH"),
        (["probe", "--", *ENGINEER, "--crash"], "exited with exit code 1 before the probe reached a verdict"),
        (["cost", "--", *ENGINEER, "--crash"], "cannot open the notes database"),
        (["probe", "--http", "--", *ENGINEER, "--crash"], "before listening"),
        (["probe", "http://127.0.0.1:9/mcp"], "cannot connect to http://127.0.0.1:9/mcp"),
        (["probe", "--bearer-env", "MCP_LAB_UNSET_VAR", "calendar"], "$MCP_LAB_UNSET_VAR is not set"),
        (["probe", "--header", "NoEquals", "calendar"], "write NAME=VALUE"),
        (["replay", "no-such.jsonl", "calendar"], "no-such.jsonl"),
    ],
)
def test_could_not_run_is_exit_2_and_one_line(capsys, argv, says):
    code, _, err = run(capsys, *argv)
    assert code == 2, (code, err)
    assert says in err and "\n" not in err and "Traceback" not in err, err
    assert "['" not in err, f"a hint in Python list syntax: {err}"


@pytest.mark.wire_deliberate(server_noise="the noisy server's banner is the finding under test")
def test_probe_findings_are_structured_and_set_the_exit_status(capsys):
    code, out, _ = run(capsys, "probe", "--json", "noisy")
    assert code == 1
    findings = json.loads(out)["findings"]
    framing = [f for f in findings if f["kind"] == "framing"]
    assert framing and framing[0]["line"] and framing[0]["spec"].endswith("stdio#receiving-messages"), findings
    code, out, _ = run(capsys, "probe", "--json", "--require", "2026-07-28", "--", *ENGINEER)
    assert code == 0 and json.loads(out)["findings"] == [] and json.loads(out)["version"] == "2026-07-28"
    code, out, _ = run(capsys, "probe", "--require", "2025-11-25", "--", *ENGINEER)
    assert code == 1 and "finding  require: --require 2025-11-25: the negotiated version is 2026-07-28" in out
    code, out, _ = run(capsys, "probe", "--json", "future")
    assert code == 1 and [f["kind"] for f in json.loads(out)["findings"]] == ["no-mutual-version"]


def test_a_closed_stdout_ends_quietly():
    proc = subprocess.Popen(
        [sys.executable, "-m", "mcp_lab", "cost", "--json", "calendar"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    proc.stdout.read(5)  # what `| head -c 5` reads, then it goes away
    proc.stdout.close()
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0 and b"Traceback" not in err and b"BrokenPipe" not in err, err.decode()


def test_the_console_script_is_declared():
    import tomllib

    data = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text())
    assert data["project"]["scripts"]["mcp-lab"] == "mcp_lab.__main__:main"


def test_every_command_documents_its_exit_status(capsys):
    for command in ("probe", "cost", "record", "replay", "diff", "conformance", "check"):
        with pytest.raises(SystemExit) as e:
            main([command, "--help"])
        assert e.value.code == 0
        out = " ".join(capsys.readouterr().out.split())
        assert "exit status: 0 clean; 1 ran and found a defect or a difference; 2 could not run" in out, command


# -- credentials ----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def guarded():
    """The engineer's server over HTTP, 401 unless `Authorization: Bearer TOKEN`."""
    os.environ["ENGINEER_TOKEN"] = TOKEN
    with http_servers.serve_http([*ENGINEER, "--http", "{port}", "--bearer-env", "ENGINEER_TOKEN"]) as srv:
        yield srv


def test_a_401_is_said_as_such_with_what_to_pass(capsys, guarded):
    code, _, err = run(capsys, "probe", guarded.url)
    assert code == 2 and "the server answered HTTP 401 Unauthorized" in err and "--bearer-env VAR" in err, err
    assert "closed its pipes" not in err
    code, out, _ = run(capsys, "probe", "--bearer-env", "ENGINEER_TOKEN", guarded.url)
    assert code == 0 and "engineer-notes" in out
    code, out, _ = run(capsys, "cost", "--header", f"Authorization=Bearer {TOKEN}", guarded.url)
    assert code == 0 and "add_note" in out


def test_connect_sends_headers(guarded):
    with pytest.raises(mcp_lab.TransportClosed, match="401"):
        with mcp_lab.connect(guarded.url) as c:
            c.request("server/discover")
    with mcp_lab.connect(guarded.url, headers={"Authorization": f"Bearer {TOKEN}"}) as c:
        assert c.request("server/discover").ok
    with pytest.raises(ValueError, match="headers= is for an HTTP server"):
        mcp_lab.connect("calendar", headers={"X": "y"})


def test_a_recorded_cassette_holds_no_secret(capsys, guarded, tmp_path):
    out = tmp_path / "guarded.jsonl"
    script = tmp_path / "script.txt"
    script.write_text(
        'tools/call {"name": "add_note", "arguments": {"name": "pin", "text": "PIN-4421-9987"}}\n'
        'tools/call {"name": "read_note", "arguments": {"name": "pin"}}\n'
    )
    code, _, err = run(
        capsys,
        "record",
        str(out),
        guarded.url,
        "--script",
        str(script),
        "--bearer-env",
        "ENGINEER_TOKEN",
        "--header",
        "X-Api-Key=key-77aa55bb33",
        "--redact",
        "params.arguments.text",
    )
    assert code == 0, err
    text = out.read_text(encoding="utf-8")
    assert '"kind":"http"' in text and "read_note" in text, "the recording is not the session"
    for secret in (TOKEN, "key-77aa55bb33", "PIN-4421-9987"):
        assert secret not in text, f"{secret} is in the cassette"
    assert "<redacted>" in text
    header = json.loads(text.splitlines()[0])
    assert "authorization" in header["redacted"]["headers"] and "x-api-key" in header["redacted"]["headers"]
    # the file still loads and replays against the guarded server with the token given again
    assert mcp_lab.Trace.load(out)
    code, _, err = run(capsys, "replay", str(out), guarded.url)
    assert code == 2 and "401" in err and "--bearer-env" in err


def test_trace_save_from_python_hides_the_standard_credentials(guarded, tmp_path):
    with mcp_lab.connect(guarded.url, headers={"Authorization": f"Bearer {TOKEN}", "Cookie": "sid=c00kie-value"}) as c:
        assert c.request("tools/list").ok
        path = c.trace.save(tmp_path / "py.jsonl")
    text = Path(path).read_text(encoding="utf-8")
    assert TOKEN not in text and "c00kie-value" not in text and "tools/list" in text


# -- start-up ---------------------------------------------------------------------------------------
def test_connect_has_a_start_up_deadline_of_its_own(tmp_path):
    slow = tmp_path / "slow.py"
    slow.write_text(
        "import sys, time\ntime.sleep(1.5)\n"
        f"sys.argv = ['x']\nsys.path.insert(0, {str(FAKES)!r})\nimport engineer_server\nengineer_server.main()\n"
    )
    # The first request may wait for start-up (here 1.5 s of loading) although its own deadline is 1 s.
    with mcp_lab.connect([sys.executable, str(slow)], timeout=1.0, start_timeout=30) as c:
        assert c.request("server/discover").ok
        started = time.monotonic()
        assert c.request("tools/list").ok and time.monotonic() - started < 1.0
    hung = tmp_path / "hung.py"
    hung.write_text("import time\ntime.sleep(30)\n")
    with mcp_lab.connect([sys.executable, str(hung)], timeout=0.5, start_timeout=1.5) as c:
        with pytest.raises(mcp_lab.DeadlineExceeded, match="did not start: .* start-up deadline of 1.5 s"):
            c.request("server/discover")
