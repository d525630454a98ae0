"""Answers and their JSON form (docs/conventions.md §5).

An answer is a plain dict so that it is its own JSON form: ``{"edges": [[r, c], ...]}`` for the
loop families (midpoints of the loop's edges in doubled coordinates, sorted) and
``{"grid": ["row", ...]}`` for sudoku (digits ``1-9a-w``, ``#`` for holes); for the shading
genres their marked cells ``{"shaded" | "stars" | "lights": [[i, j], ...]}``, for the region
genres their partition ``{"regions": [[[i, j], ...], ...]}``, sorted (0-based rows and columns).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypeAlias

from .xcc.loop import connected_pieces, edge_ends

__all__ = [
    "Answer",
    "AnswerKey",
    "answer_key",
    "edge_ends",
    "edges_answer",
    "grid_answer",
    "loop_pieces",
]

Answer: TypeAlias = dict[str, Any]
#: An answer as :func:`answer_key` makes it hashable.
AnswerKey: TypeAlias = tuple[str, tuple[Any, ...]]


def edges_answer(edges: Iterable[tuple[int, int]]) -> Answer:
    """The answer made of these edge midpoints, sorted.

    >>> edges_answer([(2, 1), (0, 1)])
    {'edges': [[0, 1], [2, 1]]}
    """
    return {"edges": sorted([int(r), int(c)] for r, c in edges)}


def grid_answer(rows: Iterable[str]) -> Answer:
    """The answer made of these sudoku rows."""
    return {"grid": list(rows)}


def answer_key(answer: Answer) -> AnswerKey:
    """A hashable key, to compare sets of answers across backends."""
    if "edges" in answer:
        return ("edges", tuple(tuple(e) for e in answer["edges"]))
    if "options" in answer:  # exact-cover data: the chosen options, in any order
        return ("options", tuple(sorted(answer["options"])))
    for kind in CELL_KINDS:
        if kind in answer:
            return (kind, _frozen(answer[kind]))
    return ("grid", tuple(answer["grid"]))


#: The answers of the shading and region genres: their marked cells ``[[i, j], ...]`` or their
#: regions ``[[[i, j], ...], ...]``, sorted (other keys, such as a file's stray borders, are
#: judged by the rule checker and are no part of the key).
CELL_KINDS = ("shaded", "stars", "lights", "regions")


def _frozen(value: Any) -> Any:
    """Nested lists as nested tuples (hashable).

    >>> answer_key({"regions": [[[0, 0], [0, 1]]], "stray": [[1, 2]]})
    ('regions', (((0, 0), (0, 1)),))
    """
    if isinstance(value, (list, tuple)):
        return tuple(_frozen(v) for v in value)
    return value


def loop_pieces(edges: Iterable[tuple[int, int]]) -> int:
    """How many connected pieces these edges form: a rule checker's test for one single loop
    (once every tile is known to have degree 0 or 2, one piece means one cycle).

    >>> square = [(0, 1), (1, 0), (1, 2), (2, 1)]
    >>> loop_pieces(square), loop_pieces(square + [(x + 4, y) for x, y in square])
    (1, 2)
    """
    return len(connected_pieces(((x, y), *edge_ends(x, y)) for x, y in edges))
