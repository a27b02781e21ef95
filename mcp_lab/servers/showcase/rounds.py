"""Multi-round-trip requests: `input_required` results that ask the client for elicitation, sampling, roots.

In 2026-07-28 a server never sends a request of its own. A tool (or a prompt) that needs
something from the client answers `resultType: "input_required"` with `inputRequests` (a map
of keys to the requests it would have sent) and, when it must remember something, an opaque
`requestState`. The client retries with a NEW request carrying `inputResponses` under the same
keys and the same `requestState`.
Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr

`requestState` is hostile input: the SDK seals what a handler returns (AES-GCM, bound to the
method, target and arguments, with an expiry) and unseals it before the handler runs, so a
tampered state is refused with -32602 before any code here sees it. The handlers below only
ever read the plaintext they minted.

Each handler asks only for what this request's `clientCapabilities` declare, and answers -32021
(MissingRequiredClientCapability, naming the capability) otherwise.
"""

from __future__ import annotations

import json
from typing import Any

from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.prompts.base import UserMessage
from mcp.shared.exceptions import MCPError
from mcp_types import (
    MISSING_REQUIRED_CLIENT_CAPABILITY,
    CallToolResult,
    CreateMessageRequest,
    CreateMessageRequestParams,
    CreateMessageResult,
    ElicitRequest,
    ElicitRequestFormParams,
    ElicitResult,
    InputRequest,
    InputRequiredResult,
    ListRootsRequest,
    ListRootsResult,
    SamplingMessage,
    TextContent,
)

# What each kind of input request needs the client to have declared, and how -32021 names it.
NEEDS = {"elicitation": {"elicitation": {"form": {}}}, "sampling": {"sampling": {}}, "roots": {"roots": {}}}


def declared(ctx: Context, kind: str) -> bool:
    """Whether this request's clientCapabilities allow an input request of `kind`."""
    caps = ctx.client_capabilities
    if caps is None:
        return False
    if kind == "elicitation":
        # A bare `elicitation: {}` means form mode; `{"url": {}}` alone does not.
        e = caps.elicitation
        return e is not None and (e.form is not None or e.url is None)
    return getattr(caps, kind) is not None


def require(ctx: Context, *kinds: str) -> None:
    """-32021 naming every capability in `kinds` that this request did not declare."""
    missing = [k for k in kinds if not declared(ctx, k)]
    if missing:
        required: dict[str, Any] = {}
        for kind in missing:
            required.update(NEEDS[kind])
        raise MCPError(
            MISSING_REQUIRED_CLIENT_CAPABILITY,
            f"This tool needs the client capability {', '.join(missing)}, which the request did not declare",
            {"requiredCapabilities": required},
        )


def ask_text(message: str, field: str, kind: str = "string") -> ElicitRequest:
    """An elicitation form with one required field."""
    schema = {"type": "object", "properties": {field: {"type": kind}}, "required": [field]}
    return ElicitRequest(params=ElicitRequestFormParams(message=message, requested_schema=schema))


def ask_model(text: str, max_tokens: int) -> CreateMessageRequest:
    """A sampling request with one user message."""
    message = SamplingMessage(role="user", content=TextContent(type="text", text=text))
    return CreateMessageRequest(params=CreateMessageRequestParams(messages=[message], max_tokens=max_tokens))


def ask_roots() -> ListRootsRequest:
    return ListRootsRequest()


def need(requests: dict[str, InputRequest], state: dict[str, Any] | None = None) -> InputRequiredResult:
    """An input_required result; `state` (plaintext JSON here) is sealed by the SDK on the way out."""
    return InputRequiredResult(
        input_requests=requests, request_state=None if state is None else json.dumps(state, separators=(",", ":"))
    )


def answers(ctx: Context) -> dict[str, Any]:
    return dict(ctx.input_responses or {})


def state_of(ctx: Context) -> dict[str, Any]:
    """The plaintext state this server minted (already verified and unsealed by the SDK), or {}."""
    return json.loads(ctx.request_state) if ctx.request_state else {}


def accepted(answer: Any, field: str) -> Any:
    """The value of `field` in an accepted elicitation answer, else None."""
    if isinstance(answer, ElicitResult) and answer.action == "accept":
        return (answer.content or {}).get(field)
    return None


def sampled_text(answer: Any) -> str | None:
    if isinstance(answer, CreateMessageResult) and isinstance(answer.content, TextContent):
        return answer.content.text
    return None


def root_uris(answer: Any) -> list[str] | None:
    return [str(r.uri) for r in answer.roots] if isinstance(answer, ListRootsResult) else None


def done(text: str) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=text)])


def register_rounds(mcp: MCPServer) -> None:
    """The tools and the prompt that return input_required."""
    register_single_rounds(mcp)
    register_stateful_rounds(mcp)

    @mcp.prompt()
    def test_input_required_result_prompt(ctx: Context) -> list[UserMessage] | InputRequiredResult:
        """A prompt that first asks the user what context to use (input_required on prompts/get)."""
        context = accepted(answers(ctx).get("user_context"), "context")
        if not isinstance(context, str):
            require(ctx, "elicitation")
            return need({"user_context": ask_text("What context should the prompt use?", "context")})
        return [UserMessage(TextContent(type="text", text=f"Answer with this context in mind: {context}"))]


def register_single_rounds(mcp: MCPServer) -> None:
    """One question, one answer, no state: elicitation, sampling, roots."""

    @mcp.tool()
    def test_input_required_result_elicitation(ctx: Context) -> CallToolResult | InputRequiredResult:
        """Asks the user's name (elicitation), then greets them. A missing answer is asked again."""
        answer = answers(ctx).get("user_name")
        if isinstance(answer, ElicitResult) and answer.action != "accept":
            return done(f"No greeting: the user chose {answer.action!r}.")
        name = accepted(answer, "name")
        if not isinstance(name, str):
            require(ctx, "elicitation")
            return need({"user_name": ask_text("What is your name?", "name")})
        return done(f"Hello, {name}!")

    @mcp.tool()
    def test_input_required_result_sampling(ctx: Context) -> CallToolResult | InputRequiredResult:
        """Asks the client's model a question (sampling), then reports its answer."""
        text = sampled_text(answers(ctx).get("capital_question"))
        if text is None:
            require(ctx, "sampling")
            return need({"capital_question": ask_model("What is the capital of France?", 100)})
        return done(f"The model answered: {text}")

    @mcp.tool()
    def test_input_required_result_list_roots(ctx: Context) -> CallToolResult | InputRequiredResult:
        """Asks the client for its roots, then lists them."""
        uris = root_uris(answers(ctx).get("client_roots"))
        if uris is None:
            require(ctx, "roots")
            return need({"client_roots": ask_roots()})
        return done("The client's roots: " + (", ".join(uris) if uris else "(none)"))

    @mcp.tool()
    def test_input_required_result_capabilities(ctx: Context) -> CallToolResult | InputRequiredResult:
        """Asks only for what the request's clientCapabilities declare (sampling, elicitation, roots)."""
        offers = {
            "elicitation": ("user_name", lambda: ask_text("What is your name?", "name")),
            "sampling": ("greeting", lambda: ask_model("Generate a greeting", 50)),
            "roots": ("client_roots", ask_roots),
        }
        usable = {key: make() for kind, (key, make) in offers.items() if declared(ctx, kind)}
        if not usable:
            require(ctx, "sampling")  # nothing to ask with: name the simplest capability that would do
        got = answers(ctx)
        if all(key in got for key in usable):
            return done(f"Received answers for: {', '.join(sorted(usable))}.")
        return need({k: r for k, r in usable.items() if k not in got})


def register_stateful_rounds(mcp: MCPServer) -> None:
    """Rounds that carry requestState: confirm, several inputs at once, several rounds, tampering."""

    def confirm_round(ctx: Context, tool: str) -> CallToolResult | InputRequiredResult:
        state = state_of(ctx)
        ok = accepted(answers(ctx).get("confirm"), "ok")
        if state.get("tool") != tool or not isinstance(ok, bool):
            require(ctx, "elicitation")
            return need({"confirm": ask_text("Please confirm", "ok", "boolean")}, {"tool": tool, "round": 1})
        return done(f"state-ok: round {state['round']} state came back intact; confirmed={ok}.")

    @mcp.tool()
    def test_input_required_result_request_state(ctx: Context) -> CallToolResult | InputRequiredResult:
        """Asks for a confirmation and keeps a requestState; the retry must echo it ("state-ok")."""
        return confirm_round(ctx, "test_input_required_result_request_state")

    @mcp.tool()
    def test_input_required_result_tampered_state(ctx: Context) -> CallToolResult | InputRequiredResult:
        """Like the request-state tool; a retry whose requestState was altered is refused with -32602."""
        return confirm_round(ctx, "test_input_required_result_tampered_state")

    @mcp.tool()
    def test_input_required_result_multiple_inputs(ctx: Context) -> CallToolResult | InputRequiredResult:
        """Asks three things at once (elicitation, sampling, roots); only the missing ones are asked again."""
        wanted = {
            "user_name": lambda: ask_text("What is your name?", "name"),
            "greeting": lambda: ask_model("Generate a greeting", 50),
            "client_roots": ask_roots,
        }
        got = answers(ctx)
        name, greeting, uris = (
            accepted(got.get("user_name"), "name"),
            sampled_text(got.get("greeting")),
            root_uris(got.get("client_roots")),
        )
        have = {"user_name": isinstance(name, str), "greeting": greeting is not None, "client_roots": uris is not None}
        if not all(have.values()):
            require(ctx, "elicitation", "sampling", "roots")
            return need({k: make() for k, make in wanted.items() if not have[k]}, {"tool": "multiple_inputs"})
        return done(f"{greeting} {name}! Your roots: {', '.join(uris or []) or '(none)'}.")

    @mcp.tool()
    def test_input_required_result_multi_round(ctx: Context) -> CallToolResult | InputRequiredResult:
        """Two questions in two rounds; the state carries the first answer into the second round."""
        state, got = state_of(ctx), answers(ctx)
        name = state.get("name")
        if not isinstance(name, str):
            name = accepted(got.get("step1"), "name")
            if not isinstance(name, str):
                require(ctx, "elicitation")
                return need({"step1": ask_text("Step 1: What is your name?", "name")}, {"step": 1})
            return need({"step2": ask_text("Step 2: What is your favorite color?", "color")}, {"step": 2, "name": name})
        color = accepted(got.get("step2"), "color")
        if not isinstance(color, str):
            return need({"step2": ask_text("Step 2: What is your favorite color?", "color")}, {"step": 2, "name": name})
        return done(f"{name}'s favorite color is {color}.")
