"""The cross-check of every comparison: finished jobs on the same puzzle must agree.

Two records of one puzzle (same family and text, same mode) that both ran to their end must
give the same status; for ``unique``, ``none`` and ``counted`` also the same count and the same
answers (by hash). A ``multiple`` status is compared alone: in ``unique`` mode a solver stops at
its second answer, and which two it meets first is its own affair. A disagreement means a solver
or an encoding is wrong -- the most important thing a comparison can find. The judgement is
:func:`dlxsat.agreement.difference`'s, as for ``report`` and ``crosscheck``.

>>> a = {"puzzle": "p", "puzzle_sha256": "x", "mode": "unique", "setting": "dlx",
...      "status": "unique", "count": 1, "answer_sha256": "h1"}
>>> disagreements([a, {**a, "setting": "sat", "answer_sha256": "h2"}])
['p: dlx and sat disagree: unique (1 answer, hash h1) against unique (1 answer, hash h2)']
>>> disagreements([a, {**a, "setting": "sat", "status": "timeout", "count": 0}])
[]
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..agreement import difference, record_outcome
from ..result import DECIDED


def _describe(r: dict[str, Any]) -> str:
    if r["status"] == "multiple":
        return "multiple"
    n = r.get("count")
    hash_ = r.get("answer_sha256")
    answers = f"{n} answer{'s' if n != 1 else ''}"
    return f"{r['status']} ({answers}, hash {hash_[:16] if hash_ else 'none'})"


def disagreements(records: Iterable[dict[str, Any]]) -> list[str]:
    """One line for each record that disagrees with the first finished record of its puzzle
    (by setting text)."""
    groups: dict[tuple[str, str, str, bool], list[dict[str, Any]]] = {}
    for r in records:
        # A puzzle is its family and text: one text read as two families is two puzzles, and
        # exact-cover data with the loop rule and without are two questions (compare --loop).
        if r.get("status") in DECIDED:
            key = (r.get("family", ""), r["puzzle_sha256"], r["mode"], bool(r.get("loop_rule")))
            groups.setdefault(key, []).append(r)
    out = []
    for group in groups.values():
        group.sort(key=lambda r: r["setting"])  # the same report whatever order jobs ended in
        first = group[0]
        for other in group[1:]:
            if difference(record_outcome(first), record_outcome(other)):
                out.append(
                    f"{other['puzzle']}: {first['setting']} and {other['setting']} disagree: "
                    f"{_describe(first)} against {_describe(other)}"
                )
    return out
