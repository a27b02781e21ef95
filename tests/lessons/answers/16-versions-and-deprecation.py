"""What the test-learner answers in notebooks/16-versions-and-deprecation.ipynb (quizzes: the right answer).

The prediction is answered wrong on purpose (-32602), so the run shows the "Not quite" verdict.
"""

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
    "old-subscribe-on-new-server": "-32602",
    "date-the-articles": {f"{k}. {text}": DATES[k] for k, (text, _) in dating.ARTICLES.items()},
}
TRUTH = {"old-subscribe-on-new-server": "-32601"}
EDITS = {
    "c05-my-request": (
        "my_request = {'jsonrpc': '2.0', 'id': 1, 'method': 'tools/list',\n"
        "              'params': {'_meta': {**revisions.meta(), revisions.LOG_LEVEL_KEY: 'debug'}}}\n"
    ),
}
AFTER = {
    "c02-versions": (
        "newest_first = list(revisions.ALL_VERSIONS)\n"
        "assert newest_first == sorted(newest_first, reverse=True), 'ISO dates sort as text'"
    ),
    "c04": "assert str(lesson.earliest_removal('2026-07-28')) == '2027-07-28'",
    "c04-expedited": "assert str(lesson.expedited_floor('2026-07-28')) == '2026-10-26'",
    "c06": "assert listed.result['resultType'] == 'complete', 'the deprecated key is still served'",
    "c16-removed-live": ("assert guess.held is False and str(guess.actual) == '-32601', guess.verdict()"),
    "c16-removed-more": (
        "with mcp_lab.connect('calendar') as cal:\n"
        "    codes = {m: cal.request(m, {}).code for m in ['initialize', 'ping', 'logging/setLevel']}\n"
        "assert set(codes.values()) == {-32601}, codes"
    ),
    "practice-registry-1": (
        "dated = {r for since, _, r in lesson.REGISTRY.values() if since == revisions.LATEST}\n"
        "assert dated == {lesson.earliest_removal(revisions.LATEST).isoformat()}, 'twelve months after'"
    ),
    "practice-registry-2b": (
        "assert {'roots/list', 'sampling/createMessage'} <= set(server_requests), 'deprecated, still asked'"
    ),
    "practice-registry-4b": (
        "verdicts = lesson.request_id_verdicts()\n"
        "assert [c for c, v in verdicts.items() if len(set(v)) > 1] == [1.5], 'the forms differ on 1.5 only'"
    ),
    "practice-registry-6": (
        "header = inspect.getsource(generated)\n"
        "assert 'Generated; do not edit' in header and '2026-07-28.json' in header, 'made from the schema'"
    ),
    "c12": (
        "from mcp_lab.notebook import interactions\n"
        "dated = interactions.get('date-the-articles').owner\n"
        "assert dated.score == len(dating.ARTICLES), 'every article dated right'"
    ),
}
