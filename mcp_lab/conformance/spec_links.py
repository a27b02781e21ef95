"""Where in the 2026-07-28 specification a conformance check's requirement is written.

The suite's checks cite the spec as it stood when each check was written: `draft/...` pages
that moved before the release (`basic/transports` became `basic/transports/streamable-http`,
`basic/utilities/mrtr` became `basic/patterns/mrtr`), 2025 pages, SEP pages, pull requests.
A learner reading a failure wants the released text, so each citation is mapped onto the
2026-07-28 page and heading that states the same rule; when a check cites nothing that maps,
its scenario's page is used.  Every anchor here is a heading that exists on the released site
(a test checks them against the spec's own pages when they are beside the repository); a rule
stated under a heading whose slug is not plain (the Origin rule, under "Security & Endpoint")
links to its page without an anchor rather than to a guess.
"""

from __future__ import annotations

import re

__all__ = ["SPEC_BASE", "spec_link", "TARGETS"]

SPEC_BASE = "https://modelcontextprotocol.io/specification/2026-07-28/"
_HTTP = "basic/transports/streamable-http"

# A cited page (any revision, or draft) and anchor -> the 2026-07-28 page#anchor.
_BY_CITATION = {
    "basic/index#capabilities": "basic/index#general-fields",
    "basic/index#meta": "basic/index#general-fields",
    "basic/transports#case-sensitivity": f"{_HTTP}#case-sensitivity",
    "basic/transports#custom-headers-from-tool-parameters": f"{_HTTP}#custom-headers-from-tool-parameters",
    "basic/transports#protocol-version-header": f"{_HTTP}#protocol-version-header",
    "basic/transports#server-behavior-for-custom-headers": f"{_HTTP}#server-behavior-for-custom-headers",
    "basic/transports#server-validation": f"{_HTTP}#server-validation",
    "basic/transports#standard-mcp-request-headers": f"{_HTTP}#standard-request-headers",
    "basic/transports#value-encoding": f"{_HTTP}#value-encoding",
    "basic/utilities/mrtr": "basic/patterns/mrtr#multi-round-trip-requests",
    "server/resources#error-handling": "server/resources#error-handling",
    "server/resources#listing-resources": "server/resources#listing-resources",
    "server/resources#reading-resources": "server/resources#reading-resources",
    "server/resources#resource-templates": "server/resources#resource-templates",
    "server/tools#tool-names": "server/tools#tool-names",
    "server/tools#x-mcp-header": "server/tools#x-mcp-header",
    "server/tools#calling-tools": "server/tools#calling-tools",
    "server/tools#listing-tools": "server/tools#listing-tools",
    "server/tools#capabilities": "server/tools#capabilities",
    "server/prompts#embedded-resources": "server/prompts#embedded-resources",
    "server/prompts#getting-prompts": "server/prompts#getting-a-prompt",
    "server/prompts#image-content": "server/prompts#image-content",
    "server/prompts#listing-prompts": "server/prompts#listing-prompts",
    "server/utilities/caching": "server/utilities/caching#cacheable-results",
    "server/utilities/completion": "server/utilities/completion#requesting-completions",
    "server/utilities/progress": "basic/patterns/progress#progress-flow",
    "basic/transports#security-warning": _HTTP,
}

# A check whose own citation is a pull request, where the rule has a precise heading.
_BY_CHECK = {
    "sep-2575-http-server-method-not-found-404-initialize": f"{_HTTP}#protocol-version-header",
    "sep-2243-server-accepts-whitespace-header-value": f"{_HTTP}#server-validation",
}

# A scenario's name (exact, then by prefix) -> the page#anchor of the rule it tests.
_BY_SCENARIO = {
    "server-stateless": "basic/index#statelessness",
    "server-sse-multiple-streams": f"{_HTTP}#receiving-messages",
    "dns-rebinding-protection": _HTTP,  # its Origin rule opens the page, under a heading with no plain slug
    "caching": "server/utilities/caching#cacheable-results",
    "sep-2164-resource-not-found": "server/resources#error-handling",
    "completion-complete": "server/utilities/completion#requesting-completions",
    "http-header-validation": f"{_HTTP}#server-validation",
    "http-custom-header-server-validation": f"{_HTTP}#server-behavior-for-custom-headers",
    "request-metadata": "basic/index#general-fields",
    "tools_call": "server/tools#calling-tools",
    "http-standard-headers": f"{_HTTP}#standard-request-headers",
    "http-custom-headers": f"{_HTTP}#custom-headers-from-tool-parameters",
    "http-invalid-tool-headers": "server/tools#x-mcp-header",
    "sep-2322-client-request-state": "basic/patterns/mrtr#multi-round-trip-requests",
    "tools-list": "server/tools#listing-tools",
    "resources-list": "server/resources#listing-resources",
    "resources-templates-read": "server/resources#resource-templates",
    "prompts-list": "server/prompts#listing-prompts",
    "server-initialize": "basic/versioning#backward-compatibility-with-initialization-based-versions",
}
_BY_PREFIX = (
    ("input-required-result-", "basic/patterns/mrtr#multi-round-trip-requests"),
    ("json-schema-", "basic/index#json-schema-usage"),
    ("tools-call-", "server/tools#calling-tools"),
    ("resources-", "server/resources#reading-resources"),
    ("prompts-get-", "server/prompts#getting-a-prompt"),
)

TARGETS = sorted(
    set(_BY_CITATION.values()) | set(_BY_SCENARIO.values()) | set(_BY_CHECK.values()) | {t for _, t in _BY_PREFIX}
)

_SPEC_URL = re.compile(r"^https://modelcontextprotocol\.io/specification/[^/]+/(.+)$")


def spec_link(
    scenario: str, references: list[dict] | None, revision: str | None = "2026-07-28", check_id: str | None = None
) -> str | None:
    """The 2026-07-28 URL (with anchor) for a check of `scenario` citing `references`, or None
    (an extension such as tasks, which the released spec does not contain).  For a run at an
    earlier revision the check's own citation of a dated page is kept as the suite gives it."""
    if revision and revision != "2026-07-28":
        return next(
            (
                str(r["url"])
                for r in references or []
                if re.match(r"^https://modelcontextprotocol\.io/specification/\d{4}-\d\d-\d\d/", str(r.get("url", "")))
            ),
            None,
        )
    if check_id in _BY_CHECK:
        return SPEC_BASE + _BY_CHECK[check_id]
    for ref in references or []:
        m = _SPEC_URL.match(str(ref.get("url", "")))
        if m and m.group(1) in _BY_CITATION:
            return SPEC_BASE + _BY_CITATION[m.group(1)]
    target = _BY_SCENARIO.get(scenario)
    if target is None:
        target = next((t for prefix, t in _BY_PREFIX if scenario.startswith(prefix)), None)
    return SPEC_BASE + target if target else None
