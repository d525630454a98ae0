"""The single-loop rule's graph (DLX2-LOOP), recognised from item names only.

As docs/conventions.md §4 says, a primary item named by two even coordinates is a *vertex*; a
secondary item named by two coordinates of odd sum is an *edge* joining the two vertices beside it.
The rule says that the edges colored ``1`` in a solution form one cycle. Backends learn about loops
from here only, never from a puzzle family, so any DLX file that follows the naming gets the rule.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from ..errors import InputError
from .model import Problem
from .names import parse_point_name

#: The color that puts an edge on the loop.
ON = "1"

E = TypeVar("E", bound=Hashable)
V = TypeVar("V", bound=Hashable)


@dataclass(frozen=True)
class LoopGraph:
    """Vertices and edges of the loop rule, as item indices of a :class:`Problem`.

    ``edges[k] = (e, u, v)``: secondary item ``e`` joins vertex items ``u`` and ``v``.
    ``coords`` maps every vertex and edge item to its doubled coordinates.
    """

    vertices: tuple[int, ...]
    edges: tuple[tuple[int, int, int], ...]
    coords: dict[int, tuple[int, int]]

    @property
    def empty(self) -> bool:
        return not self.edges


def loop_graph(problem: Problem) -> LoopGraph:
    """Find the vertex and edge items of ``problem`` by their names, as DLX2-LOOP does.

    Raises :class:`InputError` where Knuth's loop solver panics: an edge-named item that is
    primary, a vertex-named item that is secondary, an edge without both of its vertices.

    >>> from dlxsat.xcc.dlxformat import parse
    >>> g = loop_graph(parse("00 02 | 01\\n00 01:1\\n02 01:1\\n"))
    >>> g.vertices, g.edges
    ((0, 1), ((2, 0, 1),))
    """
    at: dict[tuple[int, int], int] = {}
    vertices: list[int] = []
    edges: list[tuple[int, int, int]] = []
    coords: dict[int, tuple[int, int]] = {}
    for k, it in enumerate(problem.items):
        xy = parse_point_name(it.name)
        if xy is None:
            continue
        x, y = xy
        at[xy] = k
        if (x + y) & 1:
            if it.primary:
                raise InputError(f"loop rule: edge item {it.name!r} isn't secondary")
            ends = edge_ends(x, y)
            u, v = at.get(ends[0]), at.get(ends[1])
            if u is None or v is None:
                raise InputError(f"loop rule: edge item {it.name!r} for a nonexistent vertex")
            edges.append((k, u, v))
            coords[k] = xy
        elif not x & 1:
            if not it.primary:
                raise InputError(f"loop rule: vertex item {it.name!r} isn't primary")
            vertices.append(k)
            coords[k] = xy
    return LoopGraph(tuple(vertices), tuple(edges), coords)


def used_edges(problem: Problem, chosen: Iterable[int]) -> list[tuple[int, int]]:
    """Coordinates of the edge items colored ``1`` by the chosen options, sorted.

    An edge item is a two-coordinate secondary name with odd coordinate sum; this does not
    check the vertices (use :func:`loop_graph` for that).
    """
    found: set[tuple[int, int]] = set()
    n_primary = problem.n_primary
    coords = loop_coords(problem)
    for k in chosen:
        for i, color in problem.options[k]:
            if color == ON and i >= n_primary:
                xy = coords[i] if i in coords else parse_point_name(problem.items[i].name)
                if xy is not None and (xy[0] + xy[1]) & 1:
                    found.add(xy)
    return sorted(found)


def loop_coords(problem: Problem) -> dict[int, tuple[int, int]]:
    """The coordinates of the items of ``problem``'s loop rule (none without one): what
    :func:`loop_graph` read from their names, so that a decoder need not parse them again
    (checking a unique solve's two answers, 20 published Masyus: 1.8 ms a board with the
    names parsed, 1.4 without)."""
    rule = problem.rule("loop")
    graph: LoopGraph | None = getattr(rule, "graph", None)
    return graph.coords if graph is not None else {}


def edge_ends(x: int, y: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """The two vertices an edge midpoint ``(x, y)`` (odd ``x + y``) joins, in doubled coordinates.

    >>> edge_ends(1, 2), edge_ends(2, 3)
    (((0, 2), (2, 2)), ((2, 2), (2, 4)))
    """
    return ((x - 1, y), (x + 1, y)) if x & 1 else ((x, y - 1), (x, y + 1))


def grid_loop_graph(
    width: int, height: int, edges: Iterable[tuple[int, tuple[int, int]]]
) -> LoopGraph:
    """The loop graph of a grid whose vertex items come first, row by row (the vertex at
    doubled coordinates ``(2i, 2j)`` is item ``i * width + j``), and whose edge items are
    ``edges``: each an item and its doubled coordinates, joining the two vertices
    :func:`edge_ends` gives. What :func:`loop_graph` reads from the names, known from the
    coordinates instead (Masyu's and Slitherlink's builders, which every solve runs).

    >>> g = grid_loop_graph(2, 1, [(2, (0, 1))])
    >>> g.vertices, g.edges, g.coords
    ((0, 1), ((2, 0, 1),), {0: (0, 0), 1: (0, 2), 2: (0, 1)})
    """
    coords = {i * width + j: (2 * i, 2 * j) for i in range(height) for j in range(width)}
    links: list[tuple[int, int, int]] = []
    for k, (x, y) in edges:
        coords[k] = (x, y)
        (ux, uy), (vx, vy) = edge_ends(x, y)
        links.append((k, (ux // 2) * width + uy // 2, (vx // 2) * width + vy // 2))
    return LoopGraph(tuple(range(width * height)), tuple(links), coords)


def connected_pieces(links: Iterable[tuple[E, V, V]]) -> list[list[E]]:
    """The connected pieces of a graph given by its links ``(edge, end, end)``: the edges of each
    piece, in the order the links came; pieces ordered by their first edge.

    The one connectivity routine of dlxsat: the rule checkers (:func:`dlxsat.answer.loop_pieces`),
    :func:`is_single_cycle`, the SAT and CP-SAT loop cuts (``LoopRule.components``) and the
    Masyu generator all count loops with it. A depth-first search over the links: linear, and
    no graph library to import.

    >>> connected_pieces([("a", 1, 2), ("b", 3, 4), ("c", 2, 3), ("d", 5, 6)])
    [['a', 'b', 'c'], ['d']]
    """
    links = list(links)
    at: dict[V, list[int]] = {}  # vertex → the links touching it
    for k, (_, u, v) in enumerate(links):
        at.setdefault(u, []).append(k)
        at.setdefault(v, []).append(k)
    seen = [False] * len(links)
    pieces: list[list[E]] = []
    for first in range(len(links)):
        if seen[first]:
            continue
        seen[first] = True
        piece, stack = [first], [first]
        while stack:  # depth-first over links sharing a vertex
            _, u, v = links[stack.pop()]
            for k in (*at[u], *at[v]):
                if not seen[k]:
                    seen[k] = True
                    piece.append(k)
                    stack.append(k)
        piece.sort()
        pieces.append([links[k][0] for k in piece])
    return pieces


def is_single_cycle(edges: Sequence[tuple[int, int]]) -> bool:
    """Whether these edges (midpoints in doubled coordinates) form exactly one cycle.

    The empty set is not a cycle here. Every vertex must have degree 0 or 2 and the edges must
    be connected.

    >>> is_single_cycle([(0, 1), (1, 0), (1, 2), (2, 1)])
    True
    >>> is_single_cycle([(0, 1), (1, 0)])
    False
    """
    if not edges:
        return False
    degree: dict[tuple[int, int], int] = {}
    links = []
    for x, y in edges:
        if not (x + y) & 1:
            return False
        a, b = edge_ends(x, y)
        degree[a] = degree.get(a, 0) + 1
        degree[b] = degree.get(b, 0) + 1
        links.append(((x, y), a, b))
    if any(d != 2 for d in degree.values()):
        return False
    return len(connected_pieces(links)) == 1
