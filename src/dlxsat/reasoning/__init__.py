"""The reasoning solvers (``--backend logic``): they solve like people, from the source documents.

Unlike the search backends they work on the puzzle itself, so they exist only for the families
that have one: Sudoku (Zambon's strategies, his XY-chain search order, plus two named
additions) and Masyu (Yen et al.'s heuristics, intersection method and elimination search, to
any depth). They may read the family's puzzle object; families never import them.

Both return a :class:`~dlxsat.result.SearchResult` directly; the status word comes only from
:func:`dlxsat.result.status_of`. The shared conventions:

* **Count mode.** Like the search backends (``dlxsat.pipeline.CHECKED_WHEN_COUNTING``), a
  reasoning solver keeps up to that many answers in ``count`` mode, so the pipeline checks them
  against the rules before it drops them; in ``all`` mode it keeps every answer.
* **Explanations** (``explain``): ``steps`` holds one line per deduction, and
  ``stats["steps"]`` the same steps as data (a list of dicts, per family). Cells are written
  ``(row,column)``, 1-based, as puzzle books print them -- in both families.
* **Time limit.** ``timeout`` bounds the whole run, including the ``fallback`` search; at the
  limit the result is ``timed_out`` with the figures reached so far.
* **Options.** ``depth`` belongs to Masyu, ``order`` to Sudoku; giving one to the other family
  is a one-line :class:`~dlxsat.errors.InputError`.

>>> from dlxsat.families import masyu
>>> r = solve("masyu", masyu.read(".0..\\n....\\n..1.\\n....\\n"), explain=True)
>>> r.count, r.exhausted, r.steps[0][:12], r.stats["steps"][0]["rule"]
(1, True, 'heuristic 2:', 'heuristics')
>>> solve("masyu", masyu.read("1.\\n..\\n"), order="zambon")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
dlxsat.errors.InputError: --order is for sudoku (...); masyu takes --explain, --fallback, --depth
"""

from __future__ import annotations

from typing import Any

from ..errors import InputError
from ..options import Option
from ..result import SearchResult

__all__ = ["solve", "NAME", "KIND", "SUMMARY", "OPTIONS", "FAMILIES", "FAMILY_OPTIONS"]

NAME = "logic"
KIND = "reasoning"
SUMMARY = (
    "reasoning like a person: Sudoku by Zambon's strategies; Masyu by Yen et al.'s "
    "intersection method and elimination search"
)
FAMILIES = ("sudoku", "masyu")

OPTIONS = (
    Option("explain", bool, False, "print every deduction; cells are (row,column), 1-based"),
    Option("fallback", bool, False, "finish with a search when the reasoning stalls"),
    Option(
        "depth",
        int,
        2,
        "masyu: depth of elimination search (0 none, 1 the paper's assumption + intersection)",
        low=0,
    ),
    Option(
        "order",
        str,
        "zambon",
        "sudoku: order of the XY-chain search (zambon: his search exactly; "
        "shortest: fewest cells first)",
        choices=("zambon", "shortest"),
    ),
)

#: The options each family's solver takes (the others are refused with a one-line error).
FAMILY_OPTIONS = {
    "sudoku": ("explain", "fallback", "order"),
    "masyu": ("explain", "fallback", "depth"),
}
_WHAT = {
    "depth": "masyu (the depth of elimination search)",
    "order": "sudoku (the order of the XY-chain search)",
}


def solve(
    family: str, puzzle: Any, *, mode: str = "unique", timeout: float | None = None, **options: Any
) -> SearchResult:
    """Solve ``puzzle`` of ``family`` by reasoning; the answers come decoded (``answers``)."""
    from ..pipeline import CHECKED_WHEN_COUNTING

    if family not in FAMILY_OPTIONS:
        raise InputError(
            f"backend logic has no solver for {family} (it has one for {', '.join(FAMILIES)})"
        )
    takes = FAMILY_OPTIONS[family]
    declared = {o.name: o for o in OPTIONS}
    for name, value in options.items():
        if name not in takes:
            flags = ", ".join("--" + t for t in takes)
            what = _WHAT.get(name)
            if what is None:
                raise InputError(f"backend logic does not take --{name} (it takes {flags})")
            raise InputError(f"--{name} is for {what}; {family} takes {flags}")
        declared[name].check(value)
    if family == "sudoku":
        from . import sudoku

        return sudoku.solve(
            puzzle, mode=mode, timeout=timeout, keep=CHECKED_WHEN_COUNTING, **options
        )
    from . import masyu

    return masyu.solve(puzzle, mode=mode, timeout=timeout, keep=CHECKED_WHEN_COUNTING, **options)
