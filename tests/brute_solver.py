"""A search backend for the tests only: every subset of the options, tried depth first.

It exists to show what adding a search backend takes -- this one module and one line of
``dlxsat.solvers.SOLVERS`` (the tests add ``"brute": "brute_solver"``): the contract suite
(``tests/test_search_contract.py``) and ``dlxsat.solve`` then run it like any other, its option
is read from its ``SPEC`` by the one checker and the one settings grammar, and nothing else in
dlxsat names it. It decides each option in turn (in or out, in the ``order`` asked), pruning on
upper bounds and color conflicts only, and judges the rest -- lower bounds, the single-loop
rule -- at the leaves: exponential, for small problems.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from dlxsat.options import Option
from dlxsat.result import SearchResult
from dlxsat.solvers import Request, SolverSpec
from dlxsat.xcc import Problem
from dlxsat.xcc.loop import is_single_cycle, used_edges
from dlxsat.xcc.rules import SingleLoop

SPEC = SolverSpec(
    name="brute",
    kind="search",
    summary="test only: every subset of the options, depth first",
    options=(
        Option(
            "order",
            str,
            "forward",
            "which options are decided first",
            choices=("forward", "backward"),
        ),
    ),
)


class _TimeUp(Exception):
    """The request's deadline passed during the search."""


def solve(problem: Problem, request: Request, options: Mapping[str, Any]) -> SearchResult:
    """Every solution of ``problem`` up to ``request.limit`` (see ``dlxsat.solvers``)."""
    order = options.get("order", "forward")
    result = SearchResult(stats={"order": order, "nodes": 0})
    if not request.wants_more(0):
        return result
    try:
        for chosen in _covers(problem, request, order, result.stats):
            result.count += 1
            request.found(result.count)
            if request.keeps(len(result.solutions)):
                result.solutions.append(chosen)
            if not request.wants_more(result.count):
                return result
    except _TimeUp:
        result.timed_out = True
        return result
    result.exhausted = True
    return result


def _covers(
    problem: Problem, request: Request, order: str, stats: dict[str, Any]
) -> Iterator[list[int]]:
    """The solutions, sorted option lists, in the order of the search."""
    items = problem.items
    primary = problem.n_primary
    ks = list(range(len(problem.options)))
    if order == "backward":
        ks.reverse()
    counts = [0] * len(items)
    colors: list[list[str | None]] = [[] for _ in items]
    chosen: list[int] = []

    def fits(k: int) -> bool:
        ok = True
        for i, c in problem.options[k]:
            if i < primary:
                counts[i] += 1
                ok &= counts[i] <= items[i].hi
            else:
                colors[i].append(c)
                given = colors[i]
                ok &= len(given) <= 1 or (None not in given and len(set(given)) == 1)
        return ok

    def unfit(k: int) -> None:
        for i, _ in problem.options[k]:
            if i < primary:
                counts[i] -= 1
            else:
                colors[i].pop()

    def leaf() -> bool:
        if any(not items[i].lo <= counts[i] <= items[i].hi for i in range(primary)):
            return False
        loop = problem.rule("loop")
        if isinstance(loop, SingleLoop):
            edges = used_edges(problem, chosen)
            return is_single_cycle(edges) if edges else loop.allow_empty
        return True

    def go(depth: int) -> Iterator[list[int]]:
        stats["nodes"] += 1
        if request.deadline.expired():
            raise _TimeUp
        if depth == len(ks):
            if leaf():
                yield sorted(chosen)
            return
        yield from go(depth + 1)
        k = ks[depth]
        if fits(k):
            chosen.append(k)
            yield from go(depth + 1)
            chosen.pop()
        unfit(k)

    yield from go(0)
