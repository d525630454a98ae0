"""How puzzles and solve reports show themselves in Jupyter (issue 22, item 3).

IPython asks an object for its rich forms through ``_repr_svg_``, ``_repr_html_`` and the like,
and shows the first it gets in its order of preference (HTML before SVG). So:

- a puzzle (every family's puzzle class has :class:`dlxsat.families.base.Puzzle` as a base,
  to which this module attaches the methods when it is imported: ``import dlxsat`` imports it
  when IPython is loaded, so a family knows nothing of notebooks) gives the SVG picture of its
  board from :mod:`dlxsat.pictures`; without matplotlib ``_repr_svg_`` gives None and
  ``_repr_html_`` the text board of the family's ``render``, with a line saying what to install
  for pictures (with matplotlib ``_repr_html_`` gives None, so the SVG is shown);
- a :class:`~dlxsat.pipeline.SolveReport` gives a table of its figures and the picture of the
  board with its first answer (``_repr_html_``), or that picture alone (``_repr_svg_``).

The problem's own table (``Problem._repr_html_``) is in :mod:`dlxsat.xcc.summary`. matplotlib is
imported only when a picture is drawn.
"""

from __future__ import annotations

import html
import importlib.util
from typing import Any

from .extras import missing_message
from .families import family_of, get_spec
from .families.base import Puzzle

#: What the notebook says in place of a picture when matplotlib is not installed.
NO_PICTURES = missing_message("pictures", "matplotlib")
#: At most this many of a report's statistics go in its table (the first ones, as reported).
MAX_STATS = 12


def has_matplotlib() -> bool:
    """Whether pictures can be drawn (found without importing matplotlib)."""
    try:
        return importlib.util.find_spec("matplotlib") is not None
    except (ImportError, ValueError):  # a stub in sys.modules (None), as tests make it
        return False


def board_text(family: str, puzzle: Any, answer: dict[str, Any] | None = None) -> str:
    """The board (and answer) as the family's ``render`` draws it in ASCII."""
    text: str = get_spec(family).render(puzzle, answer)
    return text


def board_html(family: str, puzzle: Any, answer: dict[str, Any] | None = None) -> str:
    """The text board in a ``<pre>``, with the note that pictures need matplotlib."""
    return (
        f'<pre class="dlxsat-board">{html.escape(board_text(family, puzzle, answer))}</pre>'
        f'<p class="dlxsat-note"><small>{html.escape(NO_PICTURES)}</small></p>'
    )


def picture_or_board(family: str, puzzle: Any, answer: dict[str, Any] | None = None) -> str:
    """HTML for the board: the inline SVG picture, or the text board without matplotlib."""
    if has_matplotlib():
        from .pictures import picture_svg

        svg = picture_svg(get_spec(family), puzzle, answer)
        if svg is not None:
            return svg
    return board_html(family, puzzle, answer)


def puzzle_svg(puzzle: Any) -> str | None:
    """A puzzle's ``_repr_svg_``: the picture of its board (None without matplotlib)."""
    if not has_matplotlib():
        return None
    from .pictures import picture_svg

    return picture_svg(family_of(puzzle), puzzle)


def puzzle_html(puzzle: Any) -> str | None:
    """A puzzle's ``_repr_html_``: None with matplotlib (the SVG is shown), else the text
    board."""
    if has_matplotlib():
        return None
    return board_html(family_of(puzzle).name, puzzle)


def attach() -> None:
    """Give every family's puzzles their rich forms (on their common base class)."""
    Puzzle._repr_svg_ = puzzle_svg  # type: ignore[attr-defined]
    Puzzle._repr_html_ = puzzle_html  # type: ignore[attr-defined]


attach()


def _cell(value: Any) -> str:
    if isinstance(value, float):
        value = f"{value:.4g}"
    return html.escape(str(value))


def report_svg(report: Any) -> str | None:
    """The picture of a report's board with its first answer; None without matplotlib or when
    the report has no puzzle (one made by hand, or a run stopped before reading it)."""
    if report.puzzle is None or not has_matplotlib():
        return None
    from .pictures import picture_svg

    answer = report.solutions[0] if report.solutions else None
    return picture_svg(get_spec(report.family), report.puzzle, answer)


def report_html(report: Any) -> str:
    """A report as HTML: its figures in a table, then the board with its first answer."""
    rows = [
        ("family", report.family),
        ("backend", report.backend),
        ("status", report.status),
        ("count", "unknown" if report.count is None else report.count),
        ("seconds", round(report.seconds, 4)),
    ]
    scalars = [
        (k, v)
        for k, v in report.stats.items()
        if isinstance(v, (int, float, str)) and not isinstance(v, bool)
    ]
    rows += [(f"stats: {k}", v) for k, v in scalars[:MAX_STATS]]
    table = "".join(f"<tr><th>{_cell(k)}</th><td>{_cell(v)}</td></tr>" for k, v in rows)
    out = f'<table class="dlxsat-report">{table}</table>'
    if report.puzzle is not None:
        answer = report.solutions[0] if report.solutions else None
        if len(report.solutions) > 1:
            out += f"<p>The first of {len(report.solutions)} answers:</p>"
        elif answer is None:
            out += "<p>No answer to show; the board:</p>"
        out += picture_or_board(report.family, report.puzzle, answer)
    return out
