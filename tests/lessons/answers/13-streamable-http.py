"""What the test-learner does in notebook 13: predicts the GET, breaks a header of their choice."""

ANSWERS = {"get-status": 405}
EDITS = {"your-turn-edit": 'my_header = {"Mcp-Name": "delete_everything"}   # a name the body does not carry\n'}
AFTER = {
    "37db1cdd": 'assert guess.held, "405 was predicted, and came back"',
    "your-turn-run": 'assert (ex.status, e.code) == (400, -32020), "the learner\'s header was refused"',
}
