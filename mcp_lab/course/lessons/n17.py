"""Notebook 17's words and helpers: its prediction, its typed task, its quiz, and the small
functions its cells call in one line.

- `ASKS`: what the SDK calendar answers to a legacy `initialize` (the standard-library calendar,
  modern only, answers -32601; the SDK serves both eras on one server);
- `TASKS`: the learner writes a host's `mcpServers` entry for lab 10's server; the judge launches
  it the way a host does (`host_config.try_entry`: `env -i`, a fresh folder, a probe), so "right"
  means "a host can start it";
- helpers: a fresh connection that declares form elicitation, and the messages section 1 sends.

The quiz lives here, not in the notebook, so that no answer key sits on the learner's screen
before they answer (predict, then see).
"""

from __future__ import annotations

import json
from typing import Any

from mcp_lab.course.lessons import Ask, Task
from mcp_lab.notebook.quiz import Question
from mcp_lab.wire.words import N_, _

# An English option value (what `kind_of_answer` returns and expect() compares); the display translates it.
ANSWERED = N_("an initialize result")
ASKS = {
    "sdk-calendar-meets-initialize": Ask(
        N_(
            "A client of the 2025-11-25 era sends the SDK calendar its first message: initialize, "
            "protocolVersion 2025-11-25. What comes back?"
        ),
        options=["-32601", "-32022", "-32602", ANSWERED],
        why=N_(
            "MCPServer serves both eras on one server: a first message initialize fixes the "
            "connection's era as legacy, and the SDK answers the handshake. The standard-library "
            "calendar speaks only 2026-07-28, where initialize is an unknown method (-32601)."
        ),
    ),
}


def kind_of_answer(message: Any) -> str:
    """What came back, in the prediction's words: the error code, or a result."""
    return ANSWERED if getattr(message, "ok", False) else str(getattr(message, "code", None))


def _judge_entry(value: Any) -> str | None:
    """None when a host can launch the entry (absolute paths, the right Python), else why not."""
    from mcp_lab.course import host_config

    if not isinstance(value, dict) or not isinstance(value.get("command"), str):
        return _('MY_ENTRY should be a dict with "command" (a string) and "args" (a list of strings).')
    if not isinstance(value.get("args", []), list):
        return _('"args" is a list of strings, never one shell string: hosts run no shell.')
    launched, what = host_config.try_entry("my-calendar", value)
    return None if launched else what


TASKS = {
    "host-entry-of-your-own": Task(
        judge=_judge_entry,
        hint=N_(
            "The host starts in another folder with another PATH: use sys.executable for the "
            "command and Path('../labs/10-fix-the-calendar/calendar_server.py').resolve() for the script."
        ),
        prompt=N_("Set MY_ENTRY, run that cell, then this one: it is launched the way a host launches it."),
        done=N_('launched from the entry: paste {"my-calendar": MY_ENTRY} into your host\'s mcpServers.'),
    ),
}

BARE_LIST = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}'
ASK = {"name": "create_event", "arguments": {"title": "Dentist"}}
LEGACY_HELLO = json.dumps(
    {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "nb17", "version": "1"},
        },
    }
)
INITIALIZED = '{"jsonrpc":"2.0","method":"notifications/initialized"}'
PING = '{"jsonrpc":"2.0","id":2,"method":"ping"}'


def fresh(name: str):
    """A new connection to `name` that declares form elicitation (so create_event may ask).

    The SDK fixes a connection's era from its first message, so each check opens its own."""
    from mcp_lab.session.connect import connect

    return connect(name, timeout=15, capabilities={"elicitation": {"form": {}}})


QUESTIONS = [
    Question(
        N_("You rewrite your server with the SDK's `MCPServer`. Which job is still yours?"),
        [
            N_("Adding resultType to each tool result"),
            N_("Checking who may use a calendar handle"),
            N_("Refusing a request whose _meta is missing"),
            N_("Sealing requestState against tampering"),
        ],
        1,
        [
            N_(
                "The SDK adds resultType to the results of your tools, resources and prompts (not "
                "to everything: section 1 shows its bare {} answer to a legacy ping)."
            ),
            N_("Right: the SDK cannot know which caller owns which state; that is your design."),
            N_("The SDK validates _meta before your function runs (-32602)."),
            N_("The SDK seals requestState for you (the v1. tokens)."),
        ],
    ),
    Question(
        N_(
            'A host config entry reads `"command": "python", "args": ["server.py"]`. '
            "It works in your terminal, but the desktop host says the server exited at once. "
            "The likeliest cause?"
        ),
        [
            N_("The host speaks a newer protocol revision"),
            N_("stdio servers must be given as one shell string"),
            N_("The host has another PATH and another folder"),
            N_("The server needs an Authorization header first"),
        ],
        2,
        [
            N_("A version mismatch gets an error answer, not a process that exits at once."),
            N_("No: args is a list; hosts do not run a shell."),
            N_(
                "Right: a relative script and a bare `python` depend on your shell's folder and "
                "environment; use absolute paths (section 3)."
            ),
            N_("Authorization headers belong to HTTP; a stdio server takes credentials from its environment."),
        ],
    ),
    Question(
        N_('Why does the course set `"protocolEra": "auto"` when it opens the Inspector on the calendar?'),
        [
            N_("So it probes with server/discover first"),
            N_("So the Inspector keeps tools/list cached longer"),
            N_("So the calendar accepts the initialize handshake"),
            N_("So the Inspector skips the Origin check"),
        ],
        0,
        [
            N_(
                "Right: auto means probe, then fall back, as notebook 06 does; the calendar answers "
                "discover, so it is modern."
            ),
            N_("Caching follows the server's ttlMs, not the era setting."),
            N_("The calendar never accepts initialize; it answers -32601."),
            N_("Era has nothing to do with Origin checks, which protect HTTP servers."),
        ],
    ),
]
