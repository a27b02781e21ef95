"""The workshop hub's name rules, system-user names and settings (classroom/hub/), alone.

The hub's login refuses a name that would not show as what it is, and maps each accepted name to
a system user that cannot collide with the machine's own accounts.  tests/test_hub.py sees the
same rules through the real login page; these are the rules themselves, case by case.
"""

from __future__ import annotations

import os
from pathlib import Path

import hub_state
import pytest
from course_accounts import MAX_NAME, name_problem, normalise, prefix_problem, system_name


@pytest.mark.parametrize(
    "typed, kept", [("Ana", "ana"), ("ＡＮＡ", "ana"), ("  bruno ", "bruno"), ("João", "joão"), ("ﬁona", "fiona")]
)
def test_a_name_is_normalised(typed: str, kept: str) -> None:
    assert normalise(typed) == kept


@pytest.mark.parametrize("name", ["ana", "joão", "li.wei", "o-neil", "user_7", "x" * MAX_NAME])
def test_plain_names_are_accepted(name: str) -> None:
    assert name_problem(name) is None


@pytest.mark.parametrize(
    "name, says",
    [
        ("", "type one"),
        ("x" * (MAX_NAME + 1), f"this one has {MAX_NAME + 1} characters"),
        ("ana\u200b", "U+200B"),
        ("ana\u202e", "U+202E"),
        ("an a", "U+0020"),
        ("ana/../bruno", "'/' is not allowed"),
        (".ana", "starting with a letter or digit"),
    ],
)
def test_other_names_get_one_sentence(name: str, says: str) -> None:
    problem = name_problem(name)
    assert problem is not None and says in problem, problem


def test_system_names_carry_the_prefix_and_fit_linux() -> None:
    assert system_name("ana") == "mcpl-ana"
    for odd in ("joão", "li.wei", "x" * MAX_NAME):
        made = system_name(odd)
        assert made.startswith("mcpl-u") and len(made) <= 32, made
    assert system_name("joão") != system_name("joao") and system_name("joão") == system_name("joão")
    assert prefix_problem("mcpl-") is None and prefix_problem("Root ") is not None


def test_a_roster_file_is_read_normalised_and_checked(tmp_path: Path) -> None:
    listed = tmp_path / "roster.txt"
    listed.write_text("Ana\n# a comment\n\nbruno  # the second\n", encoding="utf-8")
    assert hub_state.roster("chidi, ＤＡＲＡ", str(listed)) == {"ana", "bruno", "chidi", "dara"}
    listed.write_text("ana\nteacher\n", encoding="utf-8")
    with pytest.raises(hub_state.SettingError, match="'teacher' cannot be a learner's: teacher is reserved"):
        hub_state.roster("", str(listed))
    with pytest.raises(hub_state.SettingError, match="U\\+200B"):
        hub_state.roster("ana\u200b", "")
    with pytest.raises(hub_state.SettingError, match="cannot be read"):
        hub_state.roster("", str(tmp_path / "missing.txt"))


def test_a_password_file_must_be_private(tmp_path: Path) -> None:
    kept = tmp_path / "password.txt"
    kept.write_text("workshop-2026\n", encoding="utf-8")
    kept.chmod(0o644)
    with pytest.raises(hub_state.SettingError, match="must be root's and mode 600 \\(it is mode 644\\)"):
        hub_state.secret_file(str(kept))
    kept.chmod(0o600)
    if os.geteuid() == 0:
        assert hub_state.secret_file(str(kept)) == "workshop-2026"
    assert hub_state.secret_file("") == ""


def test_a_changed_password_is_noticed(tmp_path: Path) -> None:
    assert hub_state.passwords_changed(tmp_path, ["one-password", ""]) is False  # first start
    assert hub_state.passwords_changed(tmp_path, ["one-password", ""]) is False
    assert hub_state.passwords_changed(tmp_path, ["two-password", ""]) is True
    assert "two-password" not in (tmp_path / "password-fingerprint").read_text(encoding="utf-8")
    older = tmp_path / "older"
    older.mkdir()
    (older / "jupyterhub_cookie_secret").write_text("00", encoding="utf-8")
    assert hub_state.passwords_changed(older, ["one-password", ""]) is True  # sessions of an older hub


def test_revoking_sessions_drops_the_cookie_secret_and_every_users_token(tmp_path: Path) -> None:
    import sqlite3

    (tmp_path / "jupyterhub_cookie_secret").write_text("00", encoding="utf-8")
    with sqlite3.connect(tmp_path / "jupyterhub.sqlite") as db:
        db.execute("CREATE TABLE api_tokens (id INTEGER, user_id INTEGER, service_id INTEGER)")
        db.execute("CREATE TABLE oauth_codes (id INTEGER)")
        db.executemany("INSERT INTO api_tokens VALUES (?, ?, ?)", [(1, 1, None), (2, 2, None), (3, None, 1)])
        db.execute("INSERT INTO oauth_codes VALUES (1)")
    assert hub_state.revoke_sessions(tmp_path) == 2
    assert not (tmp_path / "jupyterhub_cookie_secret").exists()
    with sqlite3.connect(tmp_path / "jupyterhub.sqlite") as db:
        assert db.execute("SELECT id FROM api_tokens").fetchall() == [(3,)]  # a service's stays
        assert db.execute("SELECT count(*) FROM oauth_codes").fetchone() == (0,)


def test_a_roster_file_may_give_each_learners_name_for_the_gradebook(tmp_path: Path) -> None:
    listed = tmp_path / "roster.txt"
    listed.write_text("ana Ana Lima\nBen  Benedita da Silva  # the second\ncy\n", encoding="utf-8")
    assert hub_state.roster("", str(listed)) == {"ana", "ben", "cy"}
    assert hub_state.roster_people(str(listed)) == {"ana": ("Ana", "Lima"), "ben": ("Benedita", "da Silva")}
    assert hub_state.roster_people("") == {}
