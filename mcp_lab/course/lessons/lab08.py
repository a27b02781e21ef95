"""Lab 08's "try it by hand" cells: one sentence that says what the learner's server did.

    with mcp_lab.connect([sys.executable, str(SERVER)], capabilities=FORM) as rooms:
        first = rooms.request("tools/call", BOOK)
    print(rooms.trace.received[-1])
    print(lab08.said(first))                      # asks the person / not finished yet: TODO 2 ...

Theory of operation
-------------------
The try-it cells call the learner's `book_room` the way a real client does: a client that can
show a form declares it on every request (`clientCapabilities`, elicitation/form), and one that
cannot declares nothing.  What comes back depends on how far the learner got, and the raw line
alone does not say what to do next.  `said(answer, declared_form=...)` reads the answer against
the lab's contract and returns one sentence:

- the template's `NotImplementedError("TODO n ...")`, reported by the server as -32603, becomes
  "not finished yet: TODO n (...)", so the learner knows which TODO to work on;
- an `input_required` to a request that declared a form is the point of the lab (it asks the
  person); to one that declared nothing it breaks a MUST NOT, so TODO 1 is named;
- -32021 is right for a request that declared nothing, and a slip for one that declared a form;
- a complete result is quoted.

It reads only what crossed the wire; nothing here knows the solution.
"""

from __future__ import annotations

import re
from typing import Any

from mcp_lab.wire import jsonrpc
from mcp_lab.wire.words import _

__all__ = ["said"]

_TODO = re.compile(r"NotImplementedError: (TODO (\d)\b.*)")
MISSING_CAPABILITY = -32021


def said(answer: Any, *, declared_form: bool = True) -> str:
    """One sentence: what `book_room`'s answer means for a client that did (not) declare a form."""
    if isinstance(answer, jsonrpc.Error):
        todo = _TODO.search(answer.message or "")
        if todo:
            return _("not finished yet: TODO {n} (the server says: {says})").format(n=todo.group(2), says=todo.group(1))
        if answer.code == MISSING_CAPABILITY:
            if declared_form:
                return _("refused with -32021 although this request declared a form: look at TODO 1's test again")
            return _("refused with -32021, naming {data}: right, this client cannot show a form").format(
                data=answer.data
            )
        return _("error {code}: {message}").format(code=answer.code, message=answer.message)
    if not isinstance(answer, jsonrpc.Result):
        return _("no answer to read: {answer}").format(answer=repr(answer))
    if answer.result_type == "input_required":
        if not declared_form:
            return _("it asks a client that declared no form, which a server MUST NOT do: that is TODO 1")
        questions = answer.result.get("inputRequests") or {}
        asked = [f"{key}: {q.get('params', {}).get('message')}" for key, q in questions.items()]
        return _("asks the person ({questions})").format(questions="; ".join(asked))
    content = answer.result.get("content") or [{}]
    text = content[0].get("text", "")
    if answer.result.get("isError"):
        return _("a tool error: {text}").format(text=text)
    return _("complete: {text}").format(text=text)
