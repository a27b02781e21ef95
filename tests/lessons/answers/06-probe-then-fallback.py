"""What the test-learner answers in notebook 06."""

ANSWERS = {
    "reference-discover": "-32601",
}
