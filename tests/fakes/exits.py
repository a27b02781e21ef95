"""A server that dies at once, explaining why on stderr only."""

import sys

print("fake-exits: cannot open /nonexistent/config.toml", file=sys.stderr)
sys.exit(3)
