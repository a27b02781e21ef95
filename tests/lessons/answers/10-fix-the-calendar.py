"""Lab 10 has no interaction: the learner's work is the server file (the solution carries it)."""

ANSWERS: dict = {}
