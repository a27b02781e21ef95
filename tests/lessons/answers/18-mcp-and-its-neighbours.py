"""What the test-learner answers in notebooks/18-mcp-and-its-neighbours.ipynb (quizzes: the right answer)."""

ANSWERS = {"which-protocol": ["MCP", "A2A", "a plain HTTP API", "MCP"]}
AFTER = {
    "c03-ex": (
        "from mcp_lab.notebook import interactions\n"
        "assert interactions.get('which-protocol').owner.score == 4, 'every situation placed right'"
    ),
}
