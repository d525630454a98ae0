"""Answers and their JSON form (SPEC.md §5).

An answer is a plain dict so that it is its own JSON form: ``{"edges": [[r, c], ...]}`` for the
loop families (midpoints of the loop's edges in doubled coordinates, sorted) and
``{"grid": ["row", ...]}`` for sudoku (digits ``1-9a-w``, ``#`` for holes).
"""

from __future__ import annotations

from collections.abc import Iterable

Answer = dict


def edges_answer(edges: Iterable[tuple[int, int]]) -> Answer:
    """The answer made of these edge midpoints, sorted.

    >>> edges_answer([(2, 1), (0, 1)])
    {'edges': [[0, 1], [2, 1]]}
    """
    return {"edges": sorted([int(r), int(c)] for r, c in edges)}


def grid_answer(rows: Iterable[str]) -> Answer:
    """The answer made of these sudoku rows."""
    return {"grid": list(rows)}


def answer_key(answer: Answer) -> tuple:
    """A hashable key, to compare sets of answers across backends."""
    if "edges" in answer:
        return ("edges", tuple(tuple(e) for e in answer["edges"]))
    return ("grid", tuple(answer["grid"]))


def edge_ends(x: int, y: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """The two tiles an edge midpoint joins, in doubled coordinates.

    >>> edge_ends(1, 2), edge_ends(2, 3)
    (((0, 2), (2, 2)), ((2, 2), (2, 4)))
    """
    return ((x - 1, y), (x + 1, y)) if x & 1 else ((x, y - 1), (x, y + 1))


def loop_pieces(edges: Iterable[tuple[int, int]]) -> int:
    """How many connected pieces these edges form: a rule checker's test for one single loop
    (once every tile is known to have degree 0 or 2, one piece means one cycle).

    >>> square = [(0, 1), (1, 0), (1, 2), (2, 1)]
    >>> loop_pieces(square), loop_pieces(square + [(x + 4, y) for x, y in square])
    (1, 2)
    """
    adj: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for x, y in edges:
        a, b = edge_ends(x, y)
        adj.setdefault(a, []).append(b)
        adj.setdefault(b, []).append(a)
    pieces = 0
    seen: set[tuple[int, int]] = set()
    for start in adj:
        if start in seen:
            continue
        pieces += 1
        seen.add(start)
        stack = [start]
        while stack:
            for w in adj[stack.pop()]:
                if w not in seen:
                    seen.add(w)
                    stack.append(w)
    return pieces
