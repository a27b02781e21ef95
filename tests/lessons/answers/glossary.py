"""The glossary asks nothing: a page read without a kernel."""

ANSWERS: dict = {}
