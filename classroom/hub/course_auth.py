"""The workshop hub's login: one workshop password, names that show as what they are.

JupyterHub's `SharedPasswordAuthenticator` checks the password; this subclass adds the rules
of `course_accounts`: the typed name is normalised (NFKC, lower case) and refused with one
sentence when it is not a plain name (the login page shows that sentence in place of "Invalid
username or password"); `teacher` is always an admin name, so the workshop password never opens
it (without an admin password nobody logs in as `teacher`); and with a roster only its names
log in.
"""

from __future__ import annotations

from course_accounts import TEACHER, name_problem, normalise
from jupyterhub.authenticators.shared import SharedPasswordAuthenticator
from tornado import web
from traitlets import Set, Unicode


class CourseAuthenticator(SharedPasswordAuthenticator):
    """Shared-password login with normalised names, a reserved teacher and an optional roster."""

    roster = Set(Unicode(), config=True, help="The learners' names; empty: any valid name may log in.")

    def normalize_username(self, username: str) -> str:
        return normalise(username)

    def validate_username(self, username: str) -> bool:
        return name_problem(username) is None and super().validate_username(username)

    async def authenticate(self, handler, data):
        name = self.normalize_username(data.get("username", ""))
        problem = name_problem(name)
        if problem:
            raise web.HTTPError(403, problem)
        authenticated = await super().authenticate(handler, {**data, "username": name})
        if authenticated is None:
            if name == TEACHER:
                raise web.HTTPError(403, "The name 'teacher' is reserved for the course's teacher.")
            return None
        if self.roster and name != TEACHER and name not in self.roster:
            raise web.HTTPError(403, f"'{name}' is not on this workshop's list of learners: ask the teacher.")
        return authenticated
