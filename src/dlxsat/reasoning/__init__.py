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
* **Time limit.** ``request.deadline`` bounds the whole run, including the ``fallback``
  search; at the limit the result is ``timed_out`` with the figures reached so far.
* **Options.** ``depth`` belongs to Masyu, ``order`` to Sudoku; giving one to the other family
  is a one-line :class:`~dlxsat.errors.InputError` (:meth:`SolverSpec.check` with the family).

>>> from dlxsat.families import masyu
>>> r = solve("masyu", masyu.read(".0..\\n....\\n..1.\\n....\\n"), Request(), {"explain": True})
>>> r.count, r.exhausted, r.steps[0][:12], r.stats["steps"][0]["rule"]
(1, True, 'heuristic 2:', 'heuristics')
>>> SPEC.check({"order": "zambon"}, family="masyu")
Traceback (most recent call last):
...
dlxsat.errors.InputError: --order is for sudoku (not masyu); masyu takes --explain, --fallback, \
--depth
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import InputError
from ..options import Option
from ..result import SearchResult
from ..solvers import Request, SolverSpec

__all__ = ["solve", "SPEC", "OPTIONS"]

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

SPEC = SolverSpec(
    name="logic",
    kind="reasoning",
    summary=(
        "reasoning like a person: Sudoku by Zambon's strategies; Masyu by Yen et al.'s "
        "intersection method and elimination search"
    ),
    options=OPTIONS,
    families=("sudoku", "masyu"),
    # The options each family's solver takes (the others are refused with a one-line error).
    family_options={
        "sudoku": ("explain", "fallback", "order"),
        "masyu": ("explain", "fallback", "depth"),
    },
    # Measured like the search backends' (benchmarks/memory.py): its candidate sets and
    # edge states take about 300 bytes per entry of the puzzle's exact-cover problem.
    bytes_per_entry=300,
)


def solve(family: str, puzzle: Any, request: Request, options: Mapping[str, Any]) -> SearchResult:
    """Solve ``puzzle`` of ``family`` by reasoning; the answers come decoded (``answers``).

    ``request.mode`` says what to look for (``limit`` follows from it); ``keep`` answers are
    kept in ``count`` mode, to be checked. ``options`` were checked for ``family``.
    """
    import importlib

    from ..families import get_spec

    module = get_spec(family).logic
    if module is None:  # (SPEC.families keeps such families out; a spec without one here)
        raise InputError(f"backend logic has no solver for {family}")
    solver = importlib.import_module(module)
    result: SearchResult = solver.solve(puzzle, request, options)
    return result
