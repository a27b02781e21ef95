"""What notebook 00 shows that is not itself the lesson: the integrations chart and the course map.

    from mcp_lab.course import views
    views.integrations(5, 10)              # (50, 15): without a shared contract, with one
    views.integrations_chart(CASES)        # an SVG bar chart, two bars per case
    views.course_map(COURSE)               # the map as a table, its total, and a note per missing file

The arithmetic is the lesson and stays visible in the notebook (`integrations` is defined there
too, and the chart takes the notebook's own function when one is given). Drawing the bars and
checking the map against the files on disk are plumbing, so they live here, each called in one
line. The map's files are looked up relative to the repository (the folder holding `notebooks/`),
wherever the kernel was started.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Callable, Iterable, Sequence

from IPython.display import HTML

from mcp_lab.servers.inprocess import course_root
from mcp_lab.wire.words import _

__all__ = ["integrations", "integrations_chart", "course_map", "missing_from_map", "REFERENCE_PAGES"]

ROOT = course_root(Path(__file__).resolve().parents[2])  # the checkout, or /drive in a browser
# Pages beside the map, not steps in it (no place in the order, no time).
REFERENCE_PAGES = frozenset({"notebooks/glossary.ipynb"})
_WITHOUT, _WITH = "#d93025", "#1e8e3e"


def integrations(n: int, m: int) -> tuple[int, int]:
    """(pieces of glue without a shared contract, with one): N x M against N + M."""
    return n * m, n + m


def integrations_chart(
    cases: Iterable[tuple[int, int]],
    count: Callable[[int, int], tuple[int, int]] = integrations,
    *,
    width: int = 420,
    row: int = 26,
) -> HTML:
    """Two bars per case, scaled to that case's N x M, so the saving shows at a glance."""
    cases = list(cases)
    height = row * 2 * len(cases) + 10 * len(cases) + 10
    aria = _("integrations without and with a shared protocol")
    parts = [
        f"<svg xmlns='http://www.w3.org/2000/svg' width='{width + 250}' height='{height}' "
        "font-family='sans-serif' font-size='12' role='img' "
        f"aria-label='{html.escape(aria)}'>"
    ]
    y = 5
    for n, m in cases:
        without, with_ = count(n, m)
        for label, value, colour in ((f"N={n}, M={m}: N x M", without, _WITHOUT), ("N + M", with_, _WITH)):
            w = max(2, round(width * value / max(without, with_, 1)))
            parts.append(
                f"<text x='0' y='{y + 16}'>{html.escape(label)}</text>"
                f"<rect x='130' y='{y + 3}' width='{w}' height='{row - 8}' fill='{colour}'/>"
                f"<text x='{136 + w}' y='{y + 16}'>{value}</text>"
            )
            y += row
        y += 10
    parts.append("</svg>")
    return HTML("".join(parts))


def missing_from_map(course: Sequence[tuple[str, str, int]], root: Path = ROOT) -> list[str]:
    """Notebooks and labs on disk that the map does not list (reference pages aside)."""
    on_disk = {
        p.relative_to(root).as_posix() for folder in ("notebooks", "labs") for p in (root / folder).glob("*.ipynb")
    }
    return sorted(on_disk - REFERENCE_PAGES - {path for path, *_rest in course})


def course_map(course: Sequence[tuple[str, str, int]], root: Path = ROOT) -> None:
    """Print the map in order with its minutes and total; say which files this checkout lacks.

    Each title is shown in the edition's language: babel.cfg extracts notebook 00's titles into
    the package's catalog (`mcp_lab.course.translate.course_titles`)."""
    for i, (path, title, minutes) in enumerate(course, 1):
        here = "" if (root / path).exists() else "   " + _("(not in this checkout)")
        print(f"{i:2}. {minutes:3} min  {path:46} {_(title)}{here}")
    total = sum(minutes for *_rest, minutes in course)
    print("    " + _("{total} min in all, about {hours} hours").format(total=total, hours=f"{total / 60:.1f}"))
    left_out = missing_from_map(course, root)
    if left_out:
        print(_("On disk but not on the map (tell the course's maintainers):"), ", ".join(left_out))
