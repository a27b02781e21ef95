"""Notebook 07's last sections: the URL-mode link bound to its user, and each primitive's guard.

Theory of operation.  Two things a learner acts on:

- the prediction `traversal-uri`: what the calendar answers a `resources/read` whose URI climbs
  out of its namespace (the reveal sends it; the calendar's answer decides the verdict);
- the task `connect-page-check`: the check a server's "connect" page makes before it accepts what
  a URL-mode elicitation asked for.  The rule
  (https://modelcontextprotocol.io/specification/2026-07-28/client/elicitation#phishing): the
  server MUST verify who opens the URL and MUST ensure it is the user who started the
  elicitation; an identity the client or the URL supplies is not proof (#identifying-the-user).
  The cases are a model of that page, not a bundled server: each names the user the elicitation
  was made for, the user a verified browser session belongs to (None: no session), and the user
  the URL's own query claims.  The learner's function answers True (accept) or False (refuse).
"""

from __future__ import annotations

from typing import Any

from mcp_lab.course.lessons import Ask, Task
from mcp_lab.wire.words import N_, _

ASKS = {
    "traversal-uri": Ask(
        N_("resources/read of calendar://week/../../etc/passwd, sent to the calendar: what comes back?"),
        options=[N_("the week's events"), N_("the text of /etc/passwd"), "-32602", "-32002"],
        why=N_(
            "the calendar serves only the URIs it lists, so any other URI is a resource that does "
            "not exist, and 2026-07-28 gives that one code (the retired -32002 is not emitted)."
        ),
    ),
}

# (what the case is, elicited for, verified session user, user named in the URL, accept?)
CONNECT_CASES = [
    (N_("Alice opens her own link"), "alice", "alice", "alice", True),
    (N_("Bob opens the link Alice forwarded him"), "alice", "bob", "alice", False),
    (N_("nobody signed in, the URL says alice"), "alice", None, "alice", False),
    (N_("Bob signed in, the URL edited to say bob"), "alice", "bob", "bob", False),
]


def judge_connect_check(check: Any) -> str | None:
    if not callable(check):
        return _("type a function: def my_check(elicited_for, session_user, url_user): return True or False.")
    for label, elicited_for, session_user, url_user, right in CONNECT_CASES:
        try:
            said = check(elicited_for, session_user, url_user)
        except Exception as e:  # the learner's code: any failure is one sentence
            return _("{case}: your function raised {error}: {message}.").format(
                case=_(label), error=type(e).__name__, message=e
            )
        if said is not right:
            if said:
                return _("{case}: your function accepted it ({said}).").format(case=_(label), said=repr(said))
            return _("{case}: your function refused it ({said}).").format(case=_(label), said=repr(said))
    return None


TASKS = {
    "connect-page-check": Task(
        judge=judge_connect_check,
        hint=N_(
            "only one of the three arguments is proof of who is at the browser; compare it with "
            "the user the elicitation was made for."
        ),
        prompt=N_("Write my_check above (a function), run it, then run this cell."),
        done=N_("done: only the user who started the elicitation, signed in, gets through."),
    ),
}
