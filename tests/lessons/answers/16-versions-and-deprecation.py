"""What the test-learner answers in notebooks/16-versions-and-deprecation.ipynb (quizzes: the right answer)."""

from mcp_lab.course import dating

# Worked by hand from the registry's spans, not by dating.span(): the exercise's own answers
# must agree with these.
DATES = {
    "A": ("2024-11-05", "2024-11-05"),
    "B": ("2025-03-26", "2025-11-25"),
    "C": ("2026-07-28", "2026-07-28"),
    "D": ("2025-03-26", "2025-03-26"),
    "E": ("2024-11-05", "2025-11-25"),
    "F": ("2025-11-25", "2025-11-25"),
    "G": ("2026-07-28", "2026-07-28"),
    "H": (dating.NONE, dating.NONE),
}
ANSWERS = {
    "subscribe": "-32601: method not found",
    "date-the-articles": {f"{k}. {text}": DATES[k] for k, (text, _) in dating.ARTICLES.items()},
}
AFTER = {
    "c12": (
        "from mcp_lab.notebook import interactions\n"
        "dated = interactions.get('date-the-articles').owner\n"
        "assert dated.score == len(dating.ARTICLES), 'every article dated right'"
    ),
    "c16-removed-live": "assert guess.held is True, 'resources/subscribe is an unknown method there'",
}
