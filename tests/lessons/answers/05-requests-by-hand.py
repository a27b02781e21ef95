"""Lab 05 registers no interaction: the learner types the four requests (the solution has them)."""

ANSWERS: dict = {}
