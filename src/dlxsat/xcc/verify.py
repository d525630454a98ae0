"""Is a set of options a solution of an exact-cover problem? An independent check for ``dlx``.

The ``dlx`` command has no puzzle whose rules could judge an answer, but it can judge each
solution against the problem itself: every primary item covered between its bounds, and every
secondary item either unused, used once uncolored, or used with a single color.
"""

from __future__ import annotations

from collections.abc import Iterable

from .model import Problem


def cover_problems(problem: Problem, chosen: Iterable[int]) -> list[str]:
    """What is wrong with ``chosen`` (option indices) as a solution of ``problem``; [] if right.

    >>> from dlxsat.xcc import parse
    >>> p = parse("a b | x\\na x:1\\nb x:1\\na b\\n")
    >>> cover_problems(p, [0, 1]), cover_problems(p, [0, 2])
    ([], ['item a covered 2 times, not between 1 and 1'])
    """
    chosen = list(chosen)
    problems = []
    if len(set(chosen)) != len(chosen):
        problems.append("an option chosen twice")
    count = [0] * len(problem.items)
    color: dict[int, str | None] = {}
    for k in chosen:
        if not 0 <= k < len(problem.options):
            return [f"no option {k}"]
        for i, c in problem.options[k]:
            count[i] += 1
            if i >= problem.n_primary:
                if count[i] > 1 and (c is None or color.get(i) != c):
                    problems.append(f"secondary item {problem.items[i].name} used inconsistently")
                color[i] = c
    for i in range(problem.n_primary):
        it = problem.items[i]
        if not it.lo <= count[i] <= it.hi:
            problems.append(
                f"item {it.name} covered {count[i]} times, not between {it.lo} and {it.hi}"
            )
    return problems
