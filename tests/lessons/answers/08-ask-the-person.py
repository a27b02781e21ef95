"""Lab 08 registers no interaction: the learner edits server.py (the solution has it)."""

ANSWERS: dict = {}
