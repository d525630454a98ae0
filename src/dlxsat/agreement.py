"""Whether two results agree: the one place that decides it.

``solve --crosscheck``, ``crosscheck``, ``compare``, ``report`` and the portfolio all ask the
same question -- do two solvers' results on one puzzle contradict each other? -- of results in
different shapes (a report, a row of counts, a store record, a search result). Each turns its
results into :class:`Outcome` values (or, for search results, asks :func:`search_difference`),
and :func:`difference` judges them, so two commands cannot judge one store differently.

The rules: a result that decided nothing (``timeout``, ``stalled``, a job that failed) agrees
with anything. Otherwise the statuses must be equal; two ``multiple`` results agree whatever
answers they hold (each found two of the several there are); the counts must be equal where
both are known; and so must the answers, where both sides know them (a set of answer keys, or
a hash of the answers; a count too large to keep every answer has none).

>>> a = Outcome("dlx", "unique", 1, "h1")
>>> difference(a, Outcome("sat", "unique", 1, "h2"))
'dlx and sat found different answers'
>>> difference(a, Outcome("sat", "timeout", 0))
''
>>> difference(Outcome("dlx", "counted", 7), Outcome("sat", "counted", 7, "h"))
''
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .result import DECIDED, SearchResult


@dataclass(frozen=True)
class Outcome:
    """One solver's result on one puzzle: ``name`` (the solver or setting, for messages),
    ``status``, ``count`` (None: unknown) and ``answers`` (a set of answer keys, or a hash of
    the answers; None: unknown)."""

    name: str
    status: str
    count: int | None = None
    answers: Any = None


def difference(a: Outcome, b: Outcome) -> str:
    """Why ``a`` and ``b`` disagree, in a line; the empty string when they agree."""
    if a.status not in DECIDED or b.status not in DECIDED:
        return ""
    if a.status != b.status:
        return f"{a.name} says {a.status}, {b.name} says {b.status}"
    if a.status == "multiple":
        return ""
    if a.count is not None and b.count is not None and a.count != b.count:
        return f"{a.name} found {a.count} answers, {b.name} found {b.count}"
    if a.answers is not None and b.answers is not None and a.answers != b.answers:
        return f"{a.name} and {b.name} found different answers"
    return ""


def record_outcome(record: dict[str, Any], name: str | None = None) -> Outcome:
    """The outcome of a record of ``dlxsat compare``'s store."""
    return Outcome(
        name or str(record.get("setting", "")),
        str(record.get("status")),
        record.get("count"),
        record.get("answer_sha256"),
    )


def search_difference(
    a: SearchResult, b: SearchResult, names: tuple[str, str] = ("one", "the other")
) -> str | None:
    """How two complete results of one *search* contradict each other; None when they don't.

    A search result is finer than a status: it is *exhaustive* when the search ran to the end
    (``count`` is the total), or stopped at the solution limit. Two exhaustive results must have
    equal counts; a result that stopped at the limit must not have found more solutions than an
    exhaustive one; and when an exhaustive result lists every solution, every solution of the
    other must be among them. Two results that both stopped at the limit may hold different
    solutions (each is checked on its own). ``names`` name ``a`` and ``b`` in the explanation.

    >>> R = SearchResult
    >>> search_difference(R([[1]], 1, exhausted=True), R([[1], [2]], 2), ("sat", "dlx"))
    'sat found 1 solution in all, dlx found 2'
    >>> search_difference(R([[1]], 1, exhausted=True), R([[2]], 1, exhausted=True))
    'the other found options [2], which one proved are no solution'
    >>> search_difference(R([[1], [2]], 2), R([[1], [3]], 2)) is None
    True
    """
    for (x, nx), (y, ny) in (((a, names[0]), (b, names[1])), ((b, names[1]), (a, names[0]))):
        if not x.exhausted:
            continue
        if (y.exhausted and y.count != x.count) or (y.count or 0) > (x.count or 0):
            n = x.count
            return f"{nx} found {n} solution{'s' if n != 1 else ''} in all, {ny} found {y.count}"
        if len(x.solutions) == x.count:
            listed = {tuple(s) for s in x.solutions}
            for s in y.solutions:
                if tuple(s) not in listed:
                    return f"{ny} found options {list(s)}, which {nx} proved are no solution"
    return None
