"""The ``logic`` backend: solvers that reason like people, from the source documents.

Unlike the search backends it works on the puzzle itself, so it exists only for the families
that have one: Sudoku (Zambon's strategies up to XY-chain) and Masyu (Yen et al.'s intersection
method with elimination search).
"""

from __future__ import annotations

from typing import Any

from ..errors import InputError
from .outcome import LogicOutcome

__all__ = ["LogicOutcome", "solve"]

FAMILIES = ("sudoku", "masyu")


def solve(family: str, puzzle: Any, **options: Any) -> LogicOutcome:
    """Solve ``puzzle`` of ``family`` by reasoning (options: mode, timeout, explain, fallback)."""
    if family == "sudoku":
        from . import sudoku

        return sudoku.solve(puzzle, **options)
    if family == "masyu":
        from . import masyu

        return masyu.solve(puzzle, **options)
    raise InputError(
        f"the logic backend has no solver for {family} (it has: {', '.join(FAMILIES)})"
    )
