"""What the test-learner answers in notebook 07 (each key is an interaction the notebook registers)."""

ANSWERS = {
    "dentist": {"startsAt": "2026-09-10T08:30:00Z"},
    "decline": "decline",
    "booking": {"seating": "terrace", "partySize": 4, "highChair": True},
    "secret": "accept",
    "url-consent": "accept",
    "no-roots": "-32021 naming roots",
    "brief": ["file:///projects/learner/projects/calendar"],  # the roots form: share one root
    "brief/2": "A calendar server the course's lessons drive.",  # the sampling form: the reply
}
