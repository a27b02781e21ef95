"""Who is calling the durable calendar: the identity a handle's permission check compares.

The identity must come from something the caller cannot simply claim in the message, so it
never comes from `arguments` or `_meta` (a client writes those, per request,
and a prompt-injected model could write them too):

* over stdio, the person is whoever the host launched this process for.  The spec's
  authorization page says a stdio server should not run the HTTP authorization flow and
  should take its credentials from the environment instead, so the host names the caller in
  the MCP_LAB_CALLER environment variable when it starts the process; without it the caller
  is the operating-system account running the process ("uid:1000").  One process, one caller,
  fixed for its whole life.
* over Streamable HTTP (`--http PORT`), every request carries `Authorization: Bearer <token>`.
  The server validates the token and the caller is the principal the token was issued to.
  There is no authorization server here, so validation is a static table (MCP_LAB_DURABLE_TOKENS
  = "alice=<token>,bob=<token>", tokens of at least 16 characters) standing in for one: a token
  that is missing or not in the table gets HTTP 401 with `WWW-Authenticate: Bearer`, as the
  authorization page requires for an invalid token.  Only a digest of the principal's name is
  stored, never a token.  Without MCP_LAB_DURABLE_TOKENS the HTTP server runs open (the
  conformance suite drives it that way): every client is the one caller "http:anonymous", and
  the banner on stderr says so.  Open mode keeps handles unguessable but cannot tell callers
  apart, so it is for a test bench on 127.0.0.1, never for data that belongs to someone.

`owner_digest()` is what the calendars table stores for an owner (a digest: the file names
nobody, and holds no token).
"""

from __future__ import annotations

import hashlib
import hmac
import os
from typing import Any

__all__ = [
    "CALLER_ENV",
    "TOKENS_ENV",
    "MIN_TOKEN",
    "ANONYMOUS",
    "stdio_caller",
    "load_tokens",
    "bearer_caller",
    "owner_digest",
]

CALLER_ENV = "MCP_LAB_CALLER"  # stdio: the identity the host gives this process
TOKENS_ENV = "MCP_LAB_DURABLE_TOKENS"  # HTTP: "name=token,name=token", the accepted bearer tokens
MIN_TOKEN = 16
ANONYMOUS = "http:anonymous"  # every HTTP client, when no bearer tokens are configured (open mode)


def stdio_caller(environ: Any = None) -> str:
    """Who a stdio process serves: the name the host put in $MCP_LAB_CALLER, else this OS account."""
    named = (os.environ if environ is None else environ).get(CALLER_ENV, "").strip()
    return f"host:{named}" if named else f"uid:{os.getuid()}"


def load_tokens(environ: Any = None) -> dict[str, str]:
    """The bearer tokens an HTTP server accepts, token -> principal, from $MCP_LAB_DURABLE_TOKENS."""
    raw = (os.environ if environ is None else environ).get(TOKENS_ENV, "")
    tokens: dict[str, str] = {}
    for entry in filter(None, (e.strip() for e in raw.split(","))):
        name, sep, token = entry.partition("=")
        if not sep or not name.strip() or len(token.strip()) < MIN_TOKEN:
            raise SystemExit(
                f"durable: {TOKENS_ENV} entry {name.strip() or entry!r} must be name=token "
                f"with a token of at least {MIN_TOKEN} characters"
            )
        tokens[token.strip()] = name.strip()
    return tokens


def bearer_caller(tokens: dict[str, str], authorization: str | None) -> str | None:
    """The principal a valid `Authorization: Bearer <token>` header names, else None (-> HTTP 401)."""
    scheme, _, token = (authorization or "").strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    presented = token.strip().encode("utf-8", "surrogatepass")
    found = None
    for known, name in tokens.items():  # compare every entry in constant time, then decide
        if hmac.compare_digest(known.encode("utf-8"), presented):
            found = name
    return None if found is None else f"bearer:{found}"


def owner_digest(caller: str) -> str:
    """What the calendars table stores for an owner: a digest, so the file names nobody."""
    return hashlib.sha256(caller.encode("utf-8")).hexdigest()[:32]
