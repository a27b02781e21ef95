"""A legacy server that never answers server/discover (drops unknown requests on the floor)."""

from _legacy import serve

serve(lambda msg: None)
