"""The course's rule of thumb for a notebook's minutes, and a tool that applies it.

Rule (stated in notebook 00): reading at 150 words a minute, half a minute per code cell (a lesson's
cells hold one idea each, a few lines), three minutes per exercise (a code cell tagged `exercise`,
or one that checks what the learner typed: `your_turn(...)`), one per quiz question (the questions
of `mcp_lab.self_check("NN")`, counted in the package); rounded to the nearest 5, at least 5.  A
lab's minutes are its author's estimate.

    python -m mcp_lab.course.times          # print each notebook's minutes by the rule
    python -m mcp_lab.course.times --write  # rewrite the headers, README's map and notebook 00's

tests/test_course_map.py checks that every notebook states the minutes this rule gives.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

WORDS_PER_MINUTE, CELL_MINUTES, EXERCISE_MINUTES, QUESTION_MINUTES = 150, 0.5, 3, 1
SELF_CHECK = re.compile(r"""self_check\(\s*["']([^"']+)["']""")
TIME = re.compile(r"\*\*Time\.\*\* About (\d+) minutes\.")


def rule_of_thumb_minutes(nb: dict) -> int:
    minutes = 0.0
    for cell in nb["cells"]:
        src = "".join(cell["source"])
        if cell["cell_type"] == "markdown":
            minutes += len(re.sub(r"`[^`]*`", " x ", src).split()) / WORDS_PER_MINUTE
        elif SELF_CHECK.search(src):
            minutes += _questions(SELF_CHECK.search(src).group(1)) * QUESTION_MINUTES
        elif "exercise" in cell.get("metadata", {}).get("tags", []) or "your_turn(" in src:
            minutes += EXERCISE_MINUTES
        else:
            minutes += CELL_MINUTES
    return max(5, 5 * round(minutes / 5))


def _questions(lesson: str) -> int:
    from mcp_lab.course import lessons

    return len(lessons.self_check(lesson))


def _source(text: str) -> list[str]:
    lines = text.split("\n")
    return [line + "\n" for line in lines[:-1]] + ([lines[-1]] if lines[-1] else [])


def write(root: Path) -> dict[str, int]:
    """Apply the rule to every numbered notebook, README's course map and notebook 00's COURSE."""
    found = {}
    for path in sorted((root / "notebooks").glob("[0-9]*.ipynb")):
        nb = json.loads(path.read_text())
        minutes = rule_of_thumb_minutes(nb)
        first = "".join(nb["cells"][0]["source"])
        nb["cells"][0]["source"] = _source(TIME.sub(f"**Time.** About {minutes} minutes.", first))
        path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n")
        found[f"notebooks/{path.name}"] = minutes
    readme = (root / "README.md").read_text()
    row = re.compile(r"^(\| \d+ \| `([^`]+\.ipynb)` \|.*\| )(\d+)( \|)$", flags=re.M)
    readme = row.sub(lambda m: m.group(1) + str(found.get(m.group(2), m.group(3))) + m.group(4), readme)
    total = sum(int(m.group(3)) for m in row.finditer(readme.split("## Course map", 1)[1]))
    readme = re.sub(
        r"About [\d.]+ hours in all \(\d+ minutes\)", f"About {total / 60:.1f} hours in all ({total} minutes)", readme
    )
    (root / "README.md").write_text(readme)
    start = root / "notebooks" / "00-start-here.ipynb"
    nb = json.loads(start.read_text())
    entry = re.compile(r'(\("((?:notebooks|labs)/[^"]+\.ipynb)",\s*"[^"]*",\s*)(\d+)\)')
    for cell in nb["cells"]:
        src = "".join(cell["source"])
        if "COURSE = [" in src:
            cell["source"] = _source(
                entry.sub(lambda m: m.group(1) + f"{found.get(m.group(2), int(m.group(3))):>2})", src)
            )
    start.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n")
    return found


def main(argv: list[str]) -> int:
    root = Path(__file__).resolve().parents[2]
    if "--write" in argv:
        for path, minutes in write(root).items():
            print(f"{minutes:4} min  {path}")
        return 0
    for path in sorted((root / "notebooks").glob("[0-9]*.ipynb")):
        print(f"{rule_of_thumb_minutes(json.loads(path.read_text())):4} min  notebooks/{path.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
