"""A legacy server that answers server/discover with the error code given as argv[1]
(-32602 "Invalid params" or -32603 "Internal error" are what real frameworks send)."""

import sys

from _legacy import error, serve

CODE = int(sys.argv[1])
serve(lambda msg: error(msg["id"], CODE, {-32602: "Invalid params", -32603: "Internal error"}.get(CODE, "Error")))
