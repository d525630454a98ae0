"""Knuth's DLX data solved as it is (``dlxsat dlx``): read, searched by dancing links within
a deadline, every solution checked against the problem (:mod:`dlxsat.xcc.listing`).

There is no puzzle here whose rules could judge an answer, so the problem itself is the judge.
"""

from __future__ import annotations

from .result import SearchResult
from .runtime import guard
from .runtime.deadline import Deadline
from .xcc import Problem


def read_data(text: str, loop: bool = False) -> Problem:
    """The exact-cover problem of DLX text, with the global rules it declares; ``loop`` adds
    Knuth's single-loop rule as his DLX2-LOOP applies it (by the items' names, the empty edge
    set counting as a loop), an :class:`~dlxsat.errors.InputError` when the data do not follow
    its naming.

    Knuth's SuperSlitherlink data names undeclared letters of clue 0: that family's rule reads
    it; any other unknown item is an input error of the general reader.

    >>> read_data("a b\\na\\nb\\n").option_text(1)
    'b'
    """
    from .families.xcc import read_problem
    from .xcc.rules import SingleLoop

    problem = read_problem(text)
    if loop and problem.rule("loop") is None:
        problem = problem.with_rules(SingleLoop.from_names(problem, allow_empty=True))
    return problem


def search(
    problem: Problem,
    *,
    limit: int | None = None,
    keep: int | None = None,
    deadline: Deadline | None = None,
    progress: guard.Progress | None = None,
) -> SearchResult:
    """Search ``problem`` with the dlx backend (with its global rules): stop after
    ``limit`` solutions, keep the first ``keep`` (all when None), before ``deadline`` -- less
    the share of the time left that checking and printing the solutions keep, as
    :func:`dlxsat.pipeline.solve` keeps it (a deadline already past stops the run).
    ``progress``: the run's figures (:class:`~dlxsat.runtime.guard.Progress`).

    >>> search(read_data("a b\\na\\nb\\na b\\n")).count
    2
    """
    from .pipeline import CHECK_RESERVE, SEARCHING
    from .solvers import Request, get_solver

    progress = progress or guard.Progress()
    progress.set_phase(SEARCHING, "dlx")
    searching = (deadline or Deadline.never()).reserve(CHECK_RESERVE, 0.5)
    if searching.expired():
        raise guard.TimeUp()
    request = Request(limit=limit, keep=keep, deadline=searching, on_found=progress.found)
    try:
        result: SearchResult = get_solver("dlx").solve(problem, request, {})
    except guard.TimeUp:
        if deadline is None or deadline.at is None:
            raise
        # The run's alarm stopped a search that overran (a kernel load): its figures are the
        # command's output, as when the search stops itself at the deadline.
        guard.overran()
        return SearchResult(count=progress.count, timed_out=True)
    return result
