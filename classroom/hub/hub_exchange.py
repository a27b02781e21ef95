"""nbgrader's collect for the workshop hub: a submission counts only for the account that made it.

Learners submit into the exchange's `inbound/` folder, which every account may write to, each
submission a folder named `<student>+<assignment>+<time>+<random>`.  nbgrader's own collect
takes the student from that name and only *warns* when the folder belongs to another account
("cheating attempt?"), then collects it: a learner could hand in work as someone else, or
replace someone else's latest submission.  This collect drops such a folder (with a warning
naming both accounts) before choosing each learner's latest submission.  The teacher's
nbgrader configuration (written by the hub) selects it.
"""

from __future__ import annotations

import os
import pwd

from nbgrader.exchange.default.collect import ExchangeCollect


def owner_of(path: str) -> str:
    try:
        return pwd.getpwuid(os.stat(path).st_uid).pw_name
    except (KeyError, OSError):
        return "an unknown account"


class OwnerCheckedCollect(ExchangeCollect):
    """ExchangeCollect keeping only the submissions whose folder belongs to the student it names."""

    def _path_to_record(self, path):
        record = super()._path_to_record(path)
        owner = owner_of(path)
        if owner != record["username"]:
            self.log.warning(
                "skipped %s: it names %s but was made by %s", record["filename"], record["username"], owner
            )
            record = {**record, "username": f"{record['username']} (made by {owner})", "forged": True}
        return record

    def init_src(self):
        super().init_src()
        self.src_records = [r for r in self.src_records if not r.get("forged")]
