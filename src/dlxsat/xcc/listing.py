"""Solutions of an exact-cover problem checked and listed in Knuth's layout (``dlxsat dlx``).

A solver's solutions are judged against the problem itself before anyone sees them: each must
be a solution (:func:`dlxsat.xcc.check.check_solutions`, with the single-loop rule when asked)
and none may come twice; a wrong one is a bug in the solver, raised as ``RuleViolation``. The
checks stop at a deadline, given as ``expired`` (a function saying whether the time is up, so
that this layer knows no clock), and the callers say how many solutions were checked.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .check import check_solutions
from .model import Problem

#: Solutions listed per chunk of text: the output is written as it is made, in pieces this big.
CHUNK = 256


def _never() -> bool:
    return False


def write_listing(
    problem: Problem,
    solutions: list[list[int]],
    write: Callable[[str], object],
    expired: Callable[[], bool] = _never,
) -> int:
    """Check (:func:`dlxsat.xcc.check.check_solutions`, the problem's global rules too) and
    ``write`` the solutions in Knuth's layout (``N:`` then one option a line),
    :data:`CHUNK` at a time, until ``expired()``; how many were written.

    >>> from dlxsat.xcc import parse
    >>> write_listing(parse("a b\\na\\nb\\na b\\n"), [[2], [0, 1]], print)
    1:
     a b
    2:
     a
     b
    <BLANKLINE>
    2
    """
    seen: set[tuple[int, ...]] = set()
    chunk: list[str] = []
    listed = len(solutions)
    for n, chosen in enumerate(solutions):
        if expired():
            listed = n
            break
        check_solutions(problem, [chosen], seen=seen)
        chunk.append(f"{n + 1}:\n" + "".join(f" {problem.option_text(i)}\n" for i in chosen))
        if len(chunk) >= CHUNK:
            write("".join(chunk))
            chunk.clear()
    write("".join(chunk))
    return listed


def short(value: Any) -> str:
    """A statistic for people: floats to four significant digits, the rest as they are.

    >>> short(0.123456), short(7)
    ('0.1235', '7')
    """
    return f"{value:.4g}" if isinstance(value, float) else str(value)


def summary_line(
    count: int | None, stats: Mapping[str, Any], timed_out: bool, listed: int, found: int
) -> str:
    """The last line of ``dlx``'s text output: the count and the search's figures, and what a
    time limit cut short (``listed`` of the ``found`` solutions checked and printed).

    >>> summary_line(2, {"nodes": 5, "updates": 40, "seconds": 0.01}, False, 0, 0)
    '2 solutions, 5 nodes, 40 updates, 0.01 s\\n'
    """
    note = " (time limit reached)" if timed_out else ""
    if listed < found:
        note = f" (time limit reached: {listed} of them checked and printed)"
    return (
        f"{count} solution{'s' if count != 1 else ''}, {stats.get('nodes', 0)} nodes, "
        f"{stats.get('updates', 0)} updates, {short(stats.get('seconds', 0.0))} s{note}\n"
    )
