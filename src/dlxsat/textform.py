"""The text the command line prints for people (its JSON is :mod:`dlxsat.jsonform`'s).

Drawings of answers are the families' (``render``); what is made here are the lines around
them: a solve's verdict, figures and cross-checks, and one line per puzzle of a batch.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .answer import Answer
from .xcc.listing import short

if TYPE_CHECKING:
    from .pipeline import Agreement, SolveReport


def checked_note(report: SolveReport) -> list[str]:
    """Say plainly when fewer answers were checked against the rules than were counted."""
    checked = report.stats.get("checked")
    counter = report.stats.get("counter")
    if isinstance(counter, str) and not checked and report.count:
        return [f"checked: none -- the family's {counter} counts without listing"]
    if checked is None or report.count is None or checked >= report.count:
        return []
    return [f"checked: the first {checked} of the {report.count} answers against the rules"]


def solve_text(
    report: SolveReport, checks: Sequence[Agreement] = (), drawings: Sequence[str] = ()
) -> str:
    """``solve``'s text: the solver's steps, the verdict with the count, how many answers were
    checked, the solver's figures, each cross-check, then ``drawings`` (one per answer, each
    headed ``solution K:`` when there are several).

    >>> from dlxsat.pipeline import SolveReport
    >>> print(solve_text(SolveReport("sudoku", "dlx", "none", 0, [], 0.25, {"nodes": 0.5})), end="")
    none: 0 solutions (sudoku, backend dlx, 0.250 s)
    stats: nodes=0.5
    """
    lines = list(report.steps)
    count = "?" if report.count is None else report.count
    lines.append(
        f"{report.status}: {count} solution{'s' if report.count != 1 else ''} "
        f"({report.family}, backend {report.backend}, {report.seconds:.3f} s)"
    )
    lines.extend(checked_note(report))
    if report.stats:  # figures only: nested data is for --json
        shown = (
            f"{k}={short(v)}" for k, v in report.stats.items() if not isinstance(v, dict | list)
        )
        lines.append("stats: " + ", ".join(shown))
    for c in checks:
        verdict = "agrees" if c.agree else f"DISAGREES: {c.difference}"
        lines.append(
            f"crosscheck: {c.backend} {verdict} ({c.status}, {c.count} found, {c.seconds:.3f} s)"
        )
    for k, drawing in enumerate(drawings, 1):
        if len(drawings) > 1:
            lines.append(f"solution {k}:")
        lines.append(drawing)
    return "\n".join(lines) + "\n"


def answer_line(answer: Answer) -> str:
    """An answer on one line: a sudoku's rows run together, a loop's edges as compact JSON.

    >>> answer_line({"grid": ["12", "21"]}), answer_line({"edges": [[0, 1], [1, 0]]})
    ('1221', '[[0,1],[1,0]]')
    """
    if "grid" in answer:
        return "".join(answer["grid"])
    return json.dumps(answer["edges"], separators=(",", ":"))


def batch_line(k: int, report: SolveReport) -> str:
    """One line of ``solve`` on a file of many puzzles: the ``k``-th (1-based) puzzle's status
    and first answer (``-`` when none)."""
    answer = answer_line(report.solutions[0]) if report.solutions else "-"
    return f"{k} {report.status} {answer}"
