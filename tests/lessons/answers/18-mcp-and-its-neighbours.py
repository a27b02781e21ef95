"""What the test-learner answers in notebooks/18-mcp-and-its-neighbours.ipynb (quizzes: the right answer)."""

ANSWERS = {"which-protocol": ["MCP", "A2A", "a plain HTTP API", "MCP"]}
AFTER = {
    "c02-discover": "assert '2026-07-28' in found['supportedVersions'], found",
    "c02-lists": "assert all(listed.values()), 'each list method answers with its items'",
    "c02-call": "assert set(sent) == {'name', 'arguments', '_meta'} and made.ok, 'no conversation, no history'",
    "c03-ex": (
        "from mcp_lab.notebook import interactions\n"
        "assert interactions.get('which-protocol').owner.score == 4, 'every situation placed right'"
    ),
}
