"""The single-loop rule as lazy cuts, shared by the SAT (``cnf``) and CP-SAT (``cpsat``) backends.

Both backends encode the exact-cover problem without the loop rule, plus two cheap local facts
(every vertex has 0 or 2 edges on: :meth:`LoopRule.degree_groups`), so that every answer they
find is a set of disjoint cycles. :meth:`LoopRule.cuts` looks at such an answer: when its
edges form more than one cycle it returns clauses that the answer breaks but that every
single-loop answer satisfies, the backend adds them and solves again. This is subtour
elimination, as in solvers of the travelling salesman problem.

The cut. Let ``C`` be one cycle of the answer and ``G`` the graph of every edge that can be on
at all. Remove the vertices of ``C`` from ``G``; each connected piece ``R`` that still holds an
edge ``b`` of another cycle gives one cut. Any single loop that uses an edge ``a`` of ``C``
and the edge ``b`` inside ``R`` has to pass from ``R`` to the rest of the board, and the only
edges of ``G`` leaving ``R`` end on the vertices of ``C``. So the clause

    ``not on(a)  or  not on(b)  or  on(e1) or on(e2) or ...``  (``e1, e2, ...`` = ``G``-edges
    between ``R`` and ``C``)

holds for every single-loop answer, and the current answer (which uses ``a`` and ``b`` and
none of those edges, since ``C`` is a closed cycle) breaks it. Taking ``R`` as a piece of
``G - C`` rather than just "everything outside ``C``" leaves out the edges into the other side
of ``C`` (say its inside, when ``b`` is outside), which makes the cut shorter and stronger.

Edges and vertices are item indices of the :class:`~dlxsat.xcc.Problem`; the loop graph is the
problem's :class:`~dlxsat.xcc.rules.SingleLoop` rule's, never a puzzle family's.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass

from ..xcc import Problem
from ..xcc.loop import LoopGraph, connected_pieces, loop_graph


@dataclass(frozen=True)
class Cut:
    """The clause ``not on(inside) or not on(outside) or on(boundary[0]) or ...``.

    ``inside`` and ``outside`` are edge items of two different cycles of an answer;
    ``boundary`` the edge items (possibly none) that a single loop using both must include
    one of.
    """

    inside: int
    outside: int
    boundary: tuple[int, ...]


class LoopRule:
    """The loop graph of a problem restricted to the edges that can be on, and its cuts.

    ``possible`` are the edge items some option gives color ``1``; the others can never be on
    and are left out (a backend has no "on" literal for them). ``graph``: the problem's
    :func:`~dlxsat.xcc.loop.loop_graph`, when the caller has it already.

    >>> from dlxsat.xcc import parse
    >>> p = parse("00 02 20 22 | 01 10 12 21\\n00 01:1 10:1\\n02 01:1 12:1\\n"
    ...           "20 10:1 21:1\\n22 12:1 21:1\\n")
    >>> rule = LoopRule(p, possible=[4, 5, 6, 7])
    >>> rule.cuts([4, 5, 6, 7]), rule.is_single_loop([4, 5, 6, 7])
    ([], True)
    """

    def __init__(
        self,
        problem: Problem,
        possible: Collection[int] | None = None,
        graph: LoopGraph | None = None,
    ):
        self.graph: LoopGraph = graph if graph is not None else loop_graph(problem)
        keep = set(possible) if possible is not None else None
        #: (edge item, vertex item, vertex item) for every edge that can be on.
        self.edges: list[tuple[int, int, int]] = [
            (e, u, v) for e, u, v in self.graph.edges if keep is None or e in keep
        ]
        self.ends: dict[int, tuple[int, int]] = {e: (u, v) for e, u, v in self.edges}
        #: Vertex item → [(neighbour, edge item), ...] over the edges that can be on.
        self.adj: dict[int, list[tuple[int, int]]] = {v: [] for v in self.graph.vertices}
        for e, u, v in self.edges:
            self.adj[u].append((v, e))
            self.adj[v].append((u, e))

    @property
    def empty(self) -> bool:
        """True when no edge can ever be on."""
        return not self.edges

    def incident(self) -> dict[int, list[int]]:
        """Vertex item → the edge items (that can be on) touching it, for every vertex."""
        return {v: [e for _, e in nbrs] for v, nbrs in self.adj.items()}

    def degree_groups(self) -> list[list[int]]:
        """For each vertex with an edge that can be on, those edges: 0 or 2 of them are on.

        A single cycle has degree 2 at each of its vertices and 0 elsewhere. Knuth's puzzle
        encodings imply this already; encoding it again keeps the rule exact for any problem
        (DLX2-LOOP assumes it) and lets the backends read each component of an answer as a
        cycle.
        """
        return [es for es in self.incident().values() if es]

    def components(self, on: Iterable[int]) -> list[set[int]]:
        """The edge sets of the connected components of the ``on`` edges, in the order of their
        first edge in ``on`` (:func:`dlxsat.xcc.loop.connected_pieces`, the one connectivity
        routine; networkx did this once, but importing it took longer than solving a 10 x 10
        puzzle).

        >>> from dlxsat.xcc import parse
        >>> p = parse("00 02 20 22 | 01 10 12 21\\n00 01:1 10:1\\n")
        >>> rule = LoopRule(p, possible=[4, 5, 6, 7])
        >>> rule.components([7, 4]), rule.components([7, 4, 5])
        ([{7}, {4}], [{4, 5, 7}])
        """
        ends = self.ends
        return [set(p) for p in connected_pieces((e, *ends[e]) for e in on)]

    def is_single_loop(self, on: Iterable[int]) -> bool:
        """Whether the ``on`` edges (degrees 0 or 2 assumed) are one cycle; empty is not."""
        return len(self.components(on)) == 1

    def cuts(self, on: Iterable[int]) -> list[Cut]:
        """Cuts that the answer with these ``on`` edges breaks; [] if it has at most one cycle.

        Each cycle ``C`` gives one cut per piece of ``G - C`` holding edges of other cycles
        (see the module docstring); every cut is valid for every single-loop answer.

        The pieces are found for all cycles at once: label the *regions* of ``G`` minus the
        vertices of every cycle (one search over the board), then join regions and cycles
        where a ``G``-edge touches both. A piece of ``G - C`` is a connected part of that
        small graph once ``C`` is taken out. So a round costs one pass over ``G`` however
        many cycles the answer has.
        """
        on = list(on)
        comps = self.components(on)
        if len(comps) <= 1:
            return []
        ends, adj = self.ends, self.adj
        # Nodes of the small graph: cycles 0..k-1, then regions k, k+1, ...
        node: dict[int, int] = {}
        for c, comp in enumerate(comps):
            for e in comp:
                u, v = ends[e]
                node[u] = node[v] = c
        n_nodes = len(comps)
        for start in adj:
            if start in node:
                continue
            node[start] = n_nodes
            stack = [start]
            while stack:
                x = stack.pop()
                for y, _ in adj[x]:
                    if y not in node:
                        node[y] = n_nodes
                        stack.append(y)
            n_nodes += 1
        # For each cycle: the G-edges from its vertices to each other node (its boundary).
        touch: list[dict[int, list[int]]] = [{} for _ in comps]
        links: list[set[int]] = [set() for _ in range(n_nodes)]
        for c, comp in enumerate(comps):
            for x in {x for e in comp for x in ends[e]}:
                for y, e in adj[x]:
                    d = node[y]
                    if d != c:
                        touch[c].setdefault(d, []).append(e)
                        links[c].add(d)
                        links[d].add(c)
        found: list[Cut] = []
        seen: set[tuple[int, int, tuple[int, ...]]] = set()
        for c, comp in enumerate(comps):
            a = min(comp)
            done: set[int] = {c}
            for o in range(len(comps)):
                if o in done:
                    continue
                # The piece of G - C holding cycle o: the nodes reachable from o avoiding c.
                piece = {o}
                stack = [o]
                while stack:
                    for d in links[stack.pop()]:
                        if d not in piece and d != c:
                            piece.add(d)
                            stack.append(d)
                done |= piece
                b = min(min(comps[d]) for d in piece if d < len(comps))
                boundary = tuple(sorted(e for d in piece for e in touch[c].get(d, ())))
                key = (min(a, b), max(a, b), boundary)
                if key not in seen:
                    seen.add(key)
                    found.append(Cut(a, b, boundary))
        return found
