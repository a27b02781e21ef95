"""The bundled calendar as an engineer might break it in a pull request: the CI job of
docs/engineers.md must fail on it, for these reasons and no others.

1. An unknown resource is answered with -32002, the code of earlier revisions (2026-07-28:
   MUST NOT be emitted; MUST answer -32602): `check` and conformance find it, and a replay of a
   cassette recorded against the correct calendar shows the changed answer.
2. A debugging `print()` at start-up on stdout (stdio: MUST NOT), which a Python server on a pipe
   without PYTHONUNBUFFERED flushes only at exit: `check` and `conformance --stdio` find it.

    python tests/fakes/broken_calendar.py            # stdio, as the CI job runs it
"""

from __future__ import annotations

from mcp_lab.servers import calendar


def _resources_read(params, caps):
    uri = params.get("uri")
    if uri != calendar.RESOURCE["uri"]:
        raise calendar.Refusal(-32002, f"Resource not found: {uri!r}", {"uri": uri})
    return calendar._resources_read(params, caps)


if __name__ == "__main__":
    calendar.HANDLERS["resources/read"] = _resources_read
    print("calendar: starting up (debug)")
    calendar.main()
