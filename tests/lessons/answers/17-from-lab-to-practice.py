"""What the test-learner does in notebooks/17-from-lab-to-practice.ipynb (quizzes: the right answer)."""

# The test-learner fixes the host entry for lab 10's server with absolute paths.
EDITS = {
    "p17-yours": (
        "MY_ENTRY = {'command': sys.executable,\n"
        "            'args': [str(Path('../labs/10-fix-the-calendar/calendar_server.py').resolve())]}\n"
        "\n"
        "launched, what = host_config.try_entry('my-calendar', MY_ENTRY)\n"
        "print(what)\n"
    ),
}
AFTER = {"p17-yours": "assert launched and 'modern era' in what, what"}
