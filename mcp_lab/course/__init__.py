"""Checks for the course labs (one module per lab)."""
