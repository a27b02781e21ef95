"""The lessons' harness: the test-learner who answers every interaction from outside the notebook
(see tests/lessons/harness.py); `answers/<notebook stem>.py` holds what it answers."""
