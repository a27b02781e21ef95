"""What the test-learner does in notebook 09: predicts that C does not see B's write."""

ANSWERS = {"lost-write": "no: C sees only the two seed events"}
AFTER = {"74487779": 'assert guess.held, "the lost write was predicted"'}
