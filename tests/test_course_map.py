"""The course map is one list in two places (README, notebook 00): they must agree with the disk."""

import json
import re

from support import ROOT


def _readme_map() -> list[str]:
    text = (ROOT / "README.md").read_text()
    section = text.split("## Course map", 1)[1]
    return re.findall(r"^\| \d+ \| `([^`]+\.ipynb)` \|", section, flags=re.M)


def _notebook_map() -> list[str]:
    nb = json.loads((ROOT / "notebooks" / "00-start-here.ipynb").read_text())
    src = next("".join(c["source"]) for c in nb["cells"] if "COURSE = [" in "".join(c["source"]))
    return re.findall(r'^\s*\("((?:notebooks|labs)/[^"]+\.ipynb)"', src, flags=re.M)


def test_readme_and_start_here_list_the_same_course_in_the_same_order():
    readme, notebook = _readme_map(), _notebook_map()
    assert readme, "README.md has no course map table"
    assert readme == notebook


def test_every_notebook_and_lab_on_disk_is_on_the_map_and_vice_versa():
    on_disk = {p.relative_to(ROOT).as_posix() for folder in ("notebooks", "labs")
               for p in (ROOT / folder).glob("*.ipynb")}
    assert set(_readme_map()) == on_disk
