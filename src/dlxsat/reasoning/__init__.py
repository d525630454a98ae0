"""The reasoning solvers (``--backend logic``): they solve like people, from the source documents.

Unlike the search backends they work on the puzzle itself, so they exist only for the families
that have one: Sudoku (Zambon's strategies up to XY-chain) and Masyu (Yen et al.'s intersection
method with elimination search). They may read the family's puzzle object; families never
import them.
"""

from __future__ import annotations

from typing import Any

from ..errors import InputError
from ..options import Option
from ..result import SearchResult
from .outcome import LogicOutcome

__all__ = ["LogicOutcome", "solve", "NAME", "KIND", "OPTIONS", "FAMILIES"]

NAME = "logic"
KIND = "reasoning"
SUMMARY = "reasoning like a person: Sudoku strategies up to XY-chain; Masyu intersection method"
FAMILIES = ("sudoku", "masyu")

OPTIONS = (
    Option("explain", bool, False, "print every deduction"),
    Option("fallback", bool, False, "finish with a search when the reasoning stalls"),
)


def solve(
    family: str, puzzle: Any, *, mode: str = "unique", timeout: float | None = None, **options: Any
) -> SearchResult:
    """Solve ``puzzle`` of ``family`` by reasoning; the answers come decoded (``answers``)."""
    if family == "sudoku":
        from . import sudoku as solver
    elif family == "masyu":
        from . import masyu as solver
    else:
        raise InputError(
            f"backend logic has no solver for {family} (it has one for {', '.join(FAMILIES)})"
        )
    outcome: LogicOutcome = solver.solve(puzzle, mode=mode, timeout=timeout, **options)
    exhausted = outcome.status in ("unique", "none", "counted")
    return SearchResult(
        count=outcome.count,
        exhausted=exhausted,
        timed_out=outcome.status == "timeout",
        stalled=outcome.status == "stalled",
        stats=outcome.stats,
        answers=list(outcome.answers),
        steps=list(outcome.steps),
    )
