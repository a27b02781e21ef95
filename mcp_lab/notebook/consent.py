"""Consent in the host: the person says yes or no before each tool call leaves.

Theory of operation.  A tool's description and its annotations are text the *server* wrote.
The model reads them as part of its context, so a hostile or careless server can use them to
talk the model into a call the person never wanted; and an annotation such as `readOnlyHint`
is a claim, not a guarantee (the spec calls annotations untrusted unless the server is).  The
only party that can stop a call is the host, and the only one who can decide is the person.

`ConsentPrompt` is what the person sees for one proposed call: which server, which tool, the
exact arguments that would be sent, the description and the annotations shown *as the
server's unverified words*, and two buttons, Allow and Deny.  Code drives the same objects a
person clicks (`allow()` / `deny()` press the real buttons), so a test exercises the very
handlers a click runs.

`ConsentGate` is the host's rule in one place: `gate.call(...)` builds the prompt and hands it
to `ask` (display it, or decide it from code); nothing is sent until a decision arrives; on
Allow it sends the `tools/call` and passes the result on; on Deny it sends nothing and passes
on a tool error that says the person declined, so the model can read why.  In a notebook the
kernel cannot block waiting for a click, so the continuation is a callback (`then`).

Each prompt registers with `mcp_lab.notebook.interactions` as kind "consent", under
`"<gate key>/<n>"` (the smallest n from 1 not taken); `answer("allow")` / `answer("deny")` press
the real buttons.  A failure while sending after Allow (a closed connection) is shown under the
prompt and kept in `prompt.error`, never lost in the Lab's log.

Spec: https://modelcontextprotocol.io/specification/2026-07-28/server/tools#security-considerations
"""

from __future__ import annotations

import html
import json
from typing import Any, Callable

from mcp_lab.wire.words import N_, _

__all__ = ["ConsentPrompt", "ConsentGate", "annotation_hints", "declined_result"]

SPEC_TOOLS_SECURITY = "https://modelcontextprotocol.io/specification/2026-07-28/server/tools#security-considerations"

# What each ToolAnnotations hint claims, in a person's words (see schema.ts ToolAnnotations).
_HINTS = {
    "readOnlyHint": (N_("the server claims it only reads"), N_("the server claims it may change things")),
    "destructiveHint": (
        N_("the server claims it may delete or overwrite"),
        N_("the server claims it never deletes or overwrites"),
    ),
    "idempotentHint": (
        N_("the server claims repeating it changes nothing more"),
        N_("the server claims repeating it has further effects"),
    ),
    "openWorldHint": (
        N_("the server claims it reaches the outside world"),
        N_("the server claims it stays within its own data"),
    ),
}


def annotation_hints(tool: dict) -> list[str]:
    """The tool's annotations as plain sentences, each marked as the server's unverified claim."""
    notes = tool.get("annotations") if isinstance(tool.get("annotations"), dict) else {}
    lines = []
    for key, (if_true, if_false) in _HINTS.items():
        if isinstance(notes.get(key), bool):
            lines.append(
                f"{key}={str(notes[key]).lower()}: "
                + _("{claim} (unverified)").format(claim=_(if_true if notes[key] else if_false))
            )
    if not lines:
        lines.append(_("no annotations: the server claims nothing about this tool's effects"))
    return lines


def declined_result(tool_name: str) -> dict:
    """What the model reads instead of a result when the person said no (nothing was sent)."""
    return {
        "resultType": "complete",
        "isError": True,
        "content": [
            {
                "type": "text",
                "text": f"The person declined the call to {tool_name}; it was not sent. "
                "Do not retry it without asking them.",
            }
        ],
    }


class ConsentPrompt:
    """One proposed tool call, shown to the person with Allow and Deny; decided once."""

    def __init__(self, tool: dict, arguments: dict, *, server: str):
        self.tool, self.arguments, self.server = tool, dict(arguments), server
        self.decision: str | None = None  # "allow" | "deny" once decided
        self._callbacks: list[Callable[[str], None]] = []
        self._box = None
        self._buttons: dict[str, Any] = {}
        self.error: Exception | None = None
        self.key: str | None = None  # its interaction's key, once a gate registered it

    @property
    def name(self) -> str:
        return str(self.tool.get("name"))

    def text(self) -> str:
        """The prompt as plain text: what a person is asked to decide (also the widget's content)."""
        lines = [
            _("{server} wants to run {tool} with:").format(server=self.server, tool=self.name),
            json.dumps(self.arguments, indent=2, ensure_ascii=False),
            _("The server describes the tool as (its words, unverified):"),
            "  " + str(self.tool.get("description", _("(no description)"))),
            _("Annotations (hints from the server, not guarantees):"),
        ]
        lines += [f"  - {h}" for h in annotation_hints(self.tool)]
        return "\n".join(lines)

    def _html(self) -> str:
        esc = html.escape
        hints = "".join(f"<li>{esc(h)}</li>" for h in annotation_hints(self.tool))
        return (
            "<div>"
            + _("{server} wants to run {tool} with:").format(
                server=f"<b>{esc(self.server)}</b>", tool=f"<code>{esc(self.name)}</code>"
            )
            + f"<pre style='white-space:pre-wrap;word-break:normal;overflow-wrap:break-word'>{esc(json.dumps(self.arguments, indent=2, ensure_ascii=False))}</pre>"
            "<div style='border-left:3px solid #c90;padding-left:6px'>"
            + "<i>{}</i><br>".format(_("The server's description (its words, unverified):"))
            + f"<span style='white-space:pre-wrap'>{esc(str(self.tool.get('description', '')))}</span>"
            + "<br><i>{}</i><ul>{}</ul></div></div>".format(
                _("Annotations, hints from the server, not guarantees:"), hints
            )
        )

    def widget(self):
        """The ipywidgets view: the prompt and its Allow / Deny buttons (built once)."""
        if self._box is None:
            import ipywidgets as w

            allow = w.Button(description=_("Allow"), button_style="success")
            deny = w.Button(description=_("Deny"), button_style="danger")
            allow.on_click(lambda _b: self._decide("allow"))
            deny.on_click(lambda _b: self._decide("deny"))
            self._buttons = {"allow": allow, "deny": deny}
            self._status = w.HTML("<i>{}</i>".format(_("Waiting for your decision: nothing has been sent.")))
            self._box = w.VBox([w.HTML(self._html()), w.HBox([allow, deny]), self._status])
        return self._box

    def show_problem(self, text: str) -> None:
        """Say under the buttons what went wrong after the decision."""
        self.widget()
        self._status.value = f"<b style='color:#c00'>{html.escape(text)}</b>"

    def on_decision(self, callback: Callable[[str], None]) -> None:
        self._callbacks.append(callback)

    def allow(self) -> "ConsentPrompt":
        """Press Allow, exactly as a person would."""
        self.widget()
        self._buttons["allow"].click()
        return self

    def deny(self) -> "ConsentPrompt":
        """Press Deny, exactly as a person would."""
        self.widget()
        self._buttons["deny"].click()
        return self

    def _decide(self, decision: str) -> None:
        if self.decision is not None:
            return  # decided once; a second click does nothing
        self.decision = decision
        for button in self._buttons.values():
            button.disabled = True
        self._status.value = (
            "<b>Allowed</b>: the call was sent."
            if decision == "allow"
            else "<b>Denied</b>: nothing was sent to the server."
        )
        for callback in self._callbacks:
            callback(decision)

    def _ipython_display_(self):
        from IPython.display import display

        display(self.widget())

    def __repr__(self) -> str:
        return f"<ConsentPrompt {self.server}.{self.name} decision={self.decision}>"


def _decide(prompt: ConsentPrompt, value: str) -> ConsentPrompt:
    if value not in ("allow", "deny"):
        raise ValueError(f"{getattr(prompt, 'key', 'consent')}: answer 'allow' or 'deny', got {value!r}")
    return prompt.allow() if value == "allow" else prompt.deny()


class ConsentGate:
    """The host's rule: no tools/call is sent before the person allowed that very call."""

    def __init__(self, ask: Callable[[ConsentPrompt], None], *, key: str = "consent"):
        self.ask = ask  # shows the prompt, or decides it from code
        self.key = key
        self.prompts: list[ConsentPrompt] = []
        self.origin: str | None = None  # the cell of the last call made from a cell

    def call(self, client, tool: dict, arguments: dict, *, server: str, then: Callable[[dict], Any]) -> ConsentPrompt:
        """Ask, then (on Allow) send `tools/call` and pass its result to `then`; on Deny pass a
        declined result without sending anything."""
        from mcp_lab.notebook import interactions

        prompt = ConsentPrompt(tool, arguments, server=server)
        self.prompts.append(prompt)
        # A call made by a click handler (the model's next step after a decision) belongs to the
        # cell that started the conversation: re-running that cell replaces all its prompts.
        self.origin = interactions.current_origin() or self.origin
        item = interactions.register(
            interactions.free_key(self.key),
            "consent",
            is_done=lambda: prompt.decision is not None,
            act=lambda value: _decide(prompt, value),
            widget=prompt.widget(),
            owner=prompt,
            origin=self.origin,
        )
        prompt.key = item.key

        def decided(decision: str) -> None:
            try:
                if decision == "allow":
                    then(client.request("tools/call", {"name": prompt.name, "arguments": prompt.arguments}).unwrap())
                else:
                    then(declined_result(prompt.name))
            except Exception as e:  # a click handler's error would only reach the Lab's log
                prompt.error = e
                prompt.show_problem(_("The call failed: {error}").format(error=f"{type(e).__name__}: {e}"))

        prompt.on_decision(lambda _decision: item.settle())
        prompt.on_decision(decided)
        self.ask(prompt)
        return prompt
