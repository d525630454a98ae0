"""What every solver returns, and the one place where a result becomes a status word.

All solvers -- the search backends on an exact-cover problem and the reasoning solvers on a
puzzle -- return a :class:`SearchResult`. Its ``status`` for a given mode is decided only by
:func:`status_of`, so ``solve``, ``crosscheck``, ``compare`` and the API cannot disagree about it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

#: The status words (docs/conventions.md §5):
#:
#: ``unique``
#:     exactly one answer, and the search (or the deductions) proved there is no other;
#: ``multiple``
#:     at least two answers;
#: ``none``
#:     no answer at all (proved);
#: ``counted``
#:     ``count``/``all`` mode: ``count`` is the exact number of answers;
#: ``stalled``
#:     a reasoning solver ran out of deductions before it decided the puzzle (``count`` is
#:     None: nothing is known about the number of answers);
#: ``timeout``
#:     the time limit stopped the run; ``count`` holds the answers found so far.
Status = Literal["unique", "multiple", "none", "counted", "stalled", "timeout"]
#: The statuses that decide something about a puzzle -- the search (or the deductions) ran to
#: the end of the question asked: the only ones two solvers can agree or disagree on
#: (:mod:`dlxsat.agreement`), a job's answer (``compare``'s store, ``dlxsat report``). The
#: one list of them.
DECIDED: tuple[Status, ...] = ("unique", "multiple", "none", "counted")
STATUSES: tuple[Status, ...] = (*DECIDED, "stalled", "timeout")

#: What a caller asks for: ``unique`` (look for two answers), ``count`` or ``all`` of them.
Mode = Literal["unique", "count", "all"]
MODES: tuple[Mode, ...] = ("unique", "count", "all")


@dataclass
class SearchResult:
    """What a solver found.

    ``solutions`` holds the chosen option indices of each stored solution (sorted ascending),
    from a search backend; ``answers`` the decoded answers of a reasoning solver, which works on
    the puzzle and never sees options. ``count`` is the number of solutions found (None when
    nothing is known, as after a stall); ``exhausted`` says the whole search space was explored
    (so ``count`` is the exact total); ``timed_out`` that the time limit stopped it; ``stalled``
    that a reasoning solver ran out of deductions. ``stats`` holds the solver's figures
    (``seconds``, ``nodes``, ``updates``, ``rounds``, ``cuts``, ``variables``, ``clauses``, ...);
    ``steps`` one line per deduction when a reasoning solver was asked to explain.
    """

    solutions: list[list[int]] = field(default_factory=list)
    count: int | None = 0
    exhausted: bool = False
    timed_out: bool = False
    stats: dict[str, Any] = field(default_factory=dict)
    answers: list[dict[str, Any]] = field(default_factory=list)
    stalled: bool = False
    steps: list[str] = field(default_factory=list)


def status_of(mode: str, result: SearchResult) -> Status:
    """The status word of ``result`` for a run in ``mode``.

    >>> status_of("unique", SearchResult(count=1, exhausted=True))
    'unique'
    >>> status_of("unique", SearchResult(count=2))
    'multiple'
    >>> status_of("count", SearchResult(count=7, exhausted=True))
    'counted'
    >>> status_of("unique", SearchResult(count=None, stalled=True))
    'stalled'
    """
    if result.timed_out:
        return "timeout"
    if result.stalled:
        return "stalled"
    if mode != "unique":
        return "counted"
    if not result.count:
        return "none"
    return "unique" if result.count == 1 and result.exhausted else "multiple"


@dataclass
class Settled(SearchResult):
    """The search result of one puzzle of a batch, as a solver's batch path settled it
    (``solve_many`` of a solver with ``SPEC.batch``; see :class:`dlxsat.solvers.Template`),
    for the pipeline to check and report: ``puzzle``, its time ``seconds`` (a share of its
    chunk's, for puzzles solved many in one call), and how its answers are to be checked.

    Its ``answers`` were read back by the family's template and judged by it (``obeys``: every
    one passed the template's rule check; when one did not, the pipeline asks the family's
    checker for the message); or, when ``problem`` is set, its ``solutions`` are option
    indices of ``problem``, the puzzle's own exact-cover problem, to be decoded and checked as
    a single solve's are.
    """

    puzzle: Any = None
    seconds: float = 0.0
    problem: Any = None
    obeys: bool = True

    @classmethod
    def row(
        cls,
        puzzle: Any,
        count: int,
        exhausted: bool,
        stats: dict[str, Any],
        answers: list[dict[str, Any]],
        seconds: float,
        obeys: bool,
    ) -> Settled:
        """A puzzle settled among many in one call (a chunk): what it has, nothing more. (The
        fields are given in their order, some three times faster than by name: this is made
        for every puzzle of a file of Sudokus.)

        >>> s = Settled.row("p", 1, True, {}, [], 0.5, False)
        >>> s.count, s.exhausted, s.timed_out, s.puzzle, s.seconds, s.problem, s.obeys
        (1, True, False, 'p', 0.5, None, False)
        """
        return cls(
            [], count, exhausted, False, stats, answers, False, [], puzzle, seconds, None, obeys
        )

    @classmethod
    def of(
        cls,
        result: SearchResult,
        puzzle: Any,
        seconds: float,
        problem: Any = None,
        obeys: bool = True,
    ) -> Settled:
        """``result`` as the search result of ``puzzle``."""
        return cls(**vars(result), puzzle=puzzle, seconds=seconds, problem=problem, obeys=obeys)
