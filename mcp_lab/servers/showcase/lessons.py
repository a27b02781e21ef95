"""Two tools for notebook 07's lessons on multi-round-trip requests beyond elicitation.

``brief_project`` asks the client for its roots (``roots/list``), then asks the client's model to
summarise them (``sampling/createMessage``), then answers. Both questions are entries of
``inputRequests`` in an ``input_required`` result, and both answers come back in
``inputResponses`` of a new request: a 2026-07-28 server never sends a request of its own.
The first round carries no ``requestState`` (there is nothing to remember yet), so its retry must
carry none either; the second round remembers the roots in a sealed ``requestState``.
Spec: https://modelcontextprotocol.io/specification/2026-07-28/client/roots#listing-roots,
https://modelcontextprotocol.io/specification/2026-07-28/client/sampling#creating-messages

``prepare_report`` is "not ready yet": it answers twice with an ``input_required`` result that
holds a ``requestState`` and no ``inputRequests`` (the spec's load-shedding example), which the
client MAY retry at once, and completes on the third request.
Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr#client-requirements-basic-workflow

Sampling and roots are deprecated as of 2026-07-28 (SEP-2577): they remain in the revision, and
new implementations SHOULD NOT adopt them. They are here because existing servers still use them.
"""

from __future__ import annotations

import json

from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from mcp_types import (
    CallToolResult,
    CreateMessageRequest,
    CreateMessageRequestParams,
    InputRequiredResult,
    SamplingMessage,
    TextContent,
)

from .rounds import answers, ask_roots, done, need, require, root_uris, sampled_text, state_of

SUMMARY_PROMPT = "In one sentence, what is the project in {roots} about?"
REPORT_STEPS = 3  # requests until the report is ready: two requestState-only answers, then the report


def ask_summary(uris: list[str]) -> CreateMessageRequest:
    """A sampling request: one user message naming the roots, a system prompt, a token budget."""
    text = SUMMARY_PROMPT.format(roots=", ".join(uris))
    message = SamplingMessage(role="user", content=TextContent(type="text", text=text))
    params = CreateMessageRequestParams(
        messages=[message], system_prompt="You write one-sentence project briefs.", max_tokens=60
    )
    return CreateMessageRequest(params=params)


def register_lessons(mcp: MCPServer) -> None:
    """`brief_project` (roots, then sampling) and `prepare_report` (requestState only)."""

    @mcp.tool()
    def brief_project(ctx: Context) -> CallToolResult | InputRequiredResult:
        """A one-sentence brief of the client's project: asks for its roots, then for a summary."""
        state, got = state_of(ctx), answers(ctx)
        uris = state.get("roots")
        if not isinstance(uris, list):
            uris = root_uris(got.get("workspace"))
            if uris is None:  # round 1: nothing to remember yet, so no requestState
                require(ctx, "roots")
                return need({"workspace": ask_roots()})
            if not uris:
                return done("No roots were shared, so there is no project to brief.")
        summary = sampled_text(got.get("summary"))
        if summary is None:  # round 2 (or a retry that came back without the summary): ask again
            require(ctx, "sampling")
            return need({"summary": ask_summary(uris)}, {"roots": uris})
        return done(f"Brief of {', '.join(uris)}: {summary}")

    @mcp.tool()
    def prepare_report(ctx: Context) -> CallToolResult | InputRequiredResult:
        """A report that is not ready at once: input_required with only a requestState, twice."""
        step = state_of(ctx).get("step", 0) + 1
        if step < REPORT_STEPS:
            state = json.dumps({"step": step}, separators=(",", ":"))
            return InputRequiredResult(request_state=state)
        return done(f"Report ready after {step} requests; the first {step - 1} asked for nothing.")
