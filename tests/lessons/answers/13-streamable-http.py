"""What the test-learner does in notebook 13: predicts the GET, breaks a header of their choice."""

ANSWERS = {"get-status": 405}
EDITS = {"your-turn-edit": 'my_header = {"Mcp-Name": "delete_everything"}   # a name the body does not carry\n'}
