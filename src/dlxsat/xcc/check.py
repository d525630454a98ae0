"""Is a set of options a solution of a :class:`Problem`? Checked from the definitions alone.

A search backend's solution is a list of option indices. This checks it against
docs/conventions.md §3 directly -- every primary item covered between its bounds, an uncolored
secondary item used at most once, a colored one given one color by every option that uses it
and never used uncolored as well -- and that the problem's global rules hold (the single loop,
connected members, no cycle: :func:`dlxsat.xcc.rules.violation`).
It shares no code with any backend, so it can judge them: the portfolio backend checks every
solution any member returns before it trusts it, and ``dlxsat dlx`` every solution it prints
(:func:`check_solutions`). It is the one exact-cover checker of dlxsat.

>>> from dlxsat.xcc import parse
>>> p = parse("a b | x\\na x:0\\nb x:1\\na b\\n")
>>> solution_problem(p, [2]), solution_problem(p, [0, 1])
(None, "secondary item 'x' gets two colors, 0 and 1")
>>> solution_problem(p, [2, 2])
'option 2 chosen twice'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..errors import RuleViolation
from .model import Problem
from .rules import violation


def solution_problem(problem: Problem, chosen: Sequence[int]) -> str | None:
    """What is wrong with ``chosen`` as a solution of ``problem`` (its items and its global
    rules); None when it is one."""
    n_options = len(problem.options)
    seen: set[int] = set()
    covered = [0] * len(problem.items)
    colors: dict[int, str | None] = {}  # secondary item -> its color (None: used uncolored)
    for k in chosen:
        if not 0 <= k < n_options:
            return f"no option {k} (the problem has {n_options})"
        if k in seen:
            return f"option {k} chosen twice"
        seen.add(k)
        for i, color in problem.options[k]:
            item = problem.items[i]
            if item.primary:
                covered[i] += 1
                continue
            if i in colors:
                if color is None or colors[i] is None:
                    return f"secondary item {item.name!r} used twice (not both with one color)"
                if colors[i] != color:
                    return f"secondary item {item.name!r} gets two colors, {colors[i]} and {color}"
            colors[i] = color
    for i, item in enumerate(problem.items[: problem.n_primary]):
        if not item.lo <= covered[i] <= item.hi:
            bounds = str(item.lo) if item.lo == item.hi else f"{item.lo} to {item.hi}"
            return f"primary item {item.name!r} covered {covered[i]} times, not {bounds}"
    for rule in problem.rules:
        wrong = violation(problem, rule, chosen)
        if wrong is not None:
            return wrong
    return None


def check_solutions(
    problem: Problem,
    solutions: Sequence[Sequence[int]],
    *,
    who: str = "dlx",
    stop: Callable[[], bool] | None = None,
    seen: set[tuple[int, ...]] | None = None,
) -> int:
    """Check every solution (:func:`solution_problem`) and that none comes twice, until
    ``stop()`` says to stop; how many were checked. A wrong one is a bug of the solver
    ``who``: :class:`~dlxsat.errors.RuleViolation`. ``seen`` holds the solutions checked before
    (to check a stream in pieces).

    >>> from dlxsat.xcc import parse
    >>> check_solutions(parse("a b\\na\\nb\\na b\\n"), [[0, 1], [2]])
    2
    >>> check_solutions(parse("a b\\na\\nb\\na b\\n"), [[0]])
    Traceback (most recent call last):
    ...
    dlxsat.errors.RuleViolation: dlx returned a solution that is not one: primary item 'b' \
covered 0 times, not 1
    """
    seen = set() if seen is None else seen
    for n, chosen in enumerate(solutions):
        if stop is not None and stop():
            return n
        wrong = solution_problem(problem, chosen)
        if wrong:
            raise RuleViolation(f"{who} returned a solution that is not one: {wrong}")
        key = tuple(sorted(chosen))
        if key in seen:
            raise RuleViolation(f"{who} returned the same solution twice")
        seen.add(key)
    return len(solutions)
