#!/bin/sh
# Prerequisite check for `make setup` (POSIX sh: runs before any venv exists).
#
# Prints the absolute path of a Python >= 3.11 that can create a venv on stdout, and nothing
# else, so the Makefile can use it. On a missing or too-old prerequisite it prints ONE line to
# stderr naming what to install and exits 1 -- no traceback, no wall of text.
#
# PYTHON=/path/to/python overrides the search (then only that interpreter is tried).

fail() {
    echo "mcp_lab set-up: $*" >&2
    exit 1
}

# -- Python: the first candidate that is >= 3.11 wins -------------------------------------
if [ -n "${PYTHON:-}" ]; then
    candidates=$PYTHON
else
    candidates="python3 python3.13 python3.12 python3.11"
fi
found=""
seen=""
for cand in $candidates; do
    command -v "$cand" >/dev/null 2>&1 || continue
    # One interpreter start per candidate: it reports its real path if it is new enough.
    exe=$("$cand" -c 'import sys; print(sys.executable) if sys.version_info >= (3, 11) else print("")' 2>/dev/null) || exe=""
    if [ -n "$exe" ]; then
        found=$exe
        break
    fi
    seen="$seen $cand"
done
if [ -z "$found" ]; then
    if [ -n "${PYTHON:-}" ]; then
        fail "PYTHON=$PYTHON is not a working Python >= 3.11; install Python 3.11 or newer (https://www.python.org/downloads/) or point PYTHON at one."
    fi
    fail "Python 3.11 or newer not found${seen:+ (too old:$seen)}; install Python >= 3.11 (https://www.python.org/downloads/, or apt-get install python3 python3-venv) and rerun."
fi
# Debian splits venv/ensurepip into python3-venv: catch that here rather than mid-set-up.
"$found" -c 'import venv, ensurepip' >/dev/null 2>&1 ||
    fail "$found cannot create virtual environments; install its venv module (Debian/Ubuntu: apt-get install python3-venv) and rerun."

# -- Node >= 20 and npm (for the pinned reference server) ----------------------------------
command -v node >/dev/null 2>&1 ||
    fail "Node.js not found; install Node.js 20 or newer (https://nodejs.org/, or apt-get install nodejs npm) and rerun."
node_version=$(node --version 2>/dev/null) || node_version=""
node_major=$(printf '%s' "$node_version" | sed -n 's/^v\([0-9][0-9]*\)\..*/\1/p')
if [ -z "$node_major" ] || [ "$node_major" -lt 20 ]; then
    fail "Node.js ${node_version:-of unknown version} is too old; install Node.js 20 or newer (https://nodejs.org/) and rerun."
fi
command -v npm >/dev/null 2>&1 ||
    fail "npm not found (Node.js $node_version is there); install npm (https://nodejs.org/, or apt-get install npm) and rerun."

echo "$found"
