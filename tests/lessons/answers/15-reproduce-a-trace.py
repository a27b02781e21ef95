"""What the test-learner answers in notebooks/15-reproduce-a-trace.ipynb (quizzes: the right answer)."""

# The SDK calendar words tools/list, the call's result and the week differently: all three change.
ANSWERS = {"my-replay": 3}
AFTER = {
    "c15-mine-replay": ("assert guess.held is True and theirs.counts['changed'] == 3, 'the diff marks three changed'"),
}
