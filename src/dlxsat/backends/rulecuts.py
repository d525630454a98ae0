"""The connected, acyclic and sized rules as lazy cuts, shared by the SAT (``cnf``) and CP-SAT
(``cpsat``) backends -- generalised subtour elimination, as :mod:`.loopcuts` is for the loop.

Both backends encode the exact-cover problem and, for each member of a
:class:`~dlxsat.xcc.rules.Connected` or :class:`~dlxsat.xcc.rules.Acyclic` rule, a variable
``p(m)``: "member ``m`` is present" (:class:`~.covering.Members`). Nothing else of the rule is
stated; each model found is looked at here, and when its present members break the rule the
backend gets clauses that the model breaks and every answer keeps, adds them and solves again
(the SAT backend also from inside a call, through its propagator). The cuts are the data of
:mod:`dlxsat.xcc.rules` (:class:`~dlxsat.xcc.rules.Separation`,
:class:`~dlxsat.xcc.rules.Cycle`), and :func:`dlxsat.xcc.rules.justified` checks any of them
from the rule alone.

Connected, no roots. Let the present members form several pieces; take one piece ``K``, a
member ``a`` of it, and a present member ``b`` of another piece. Remove ``K`` from the graph
of the members that can be present, and let ``R`` be the connected piece of what is left that
holds ``b``. A connected answer holding ``a`` and ``b`` has a path from ``a`` to ``b``; where
the path last enters ``R`` it comes from ``K`` (any other member that can be present, next to
``R``, would be in ``R``), so it holds a member of ``N(K) ∩ R`` (``R``'s members next to
``K``). The clause

    ``not p(a)  or  not p(b)  or  p(s1) or p(s2) or ...``  (``s1, s2, ...`` = ``N(K) ∩ R``)

is therefore valid, and the model breaks it: ``K`` is a whole piece, so no member next to it
outside it is present. Taking ``R`` rather than "all but ``K``" leaves out the members beyond
``K`` on its other side, as in :mod:`.loopcuts`. A member no option can make present is no way
through: it is left out of ``R``, and added to the boundary when next to ``R`` (where a path of
the full member graph could enter ``R`` through it); having no variable it adds no literal, but
the cut stays valid for the rule alone, the form :func:`~dlxsat.xcc.rules.justified` checks.
Each piece ``K`` gets one cut per piece ``R`` of the rest holding other present members: the
*front* separators.

Connected, with roots. A virtual root, always present, is linked to every root member; a
piece ``K`` holding no root member gets ``not p(a) or p(s1) or ...`` with ``R`` the piece of
the rest holding the virtual root (an impossible root counts as a way in, hence as boundary).

Least separators. Any set of members absent from the model that every path from ``K`` to
``b``'s piece (or to a root) passes through makes a valid cut that the model breaks; the
front one lies against ``K`` and can be long (the whole rim of a region). The *least*
separator -- fewest absent members, present ones uncuttable, a maximum flow over the members
(:meth:`ConnectedCuts.least_cut`) -- gives the shortest clause: one per piece against the
largest piece (or the roots). Measured on the hardest instances of ``benchmarks/rules.py``
(the SAT backend, three 15 x 15 seas whose white regions must reach the border, two answers
asked for, back to back at load 1): the front cuts took 21,845 rounds and 37 s (18 s in the
solver), the least 2,392 rounds and 12.5 s (2.2 s in the solver, the rest finding them); on
the other kinds both took well under a second. CP-SAT, whose every round is a new search,
did better with the front cuts' greater number (:data:`dlxsat.backends.cpsat.CUT_SEPARATORS`).

Acyclic. The present members are taken in order into a union-find forest; each member that
joins two vertices already joined closes one cycle with the forest's path between them, and
gives ``not p(e1) or not p(e2) or ...`` over that cycle's members.

Sized. Each piece ``K`` of the present members that is wrong as a whole piece gives a
:class:`~dlxsat.xcc.rules.Piece` (:class:`SizedCuts`): the core of ``K`` that no larger piece
can mend, when there is one, else ``K`` with every member next to it.

Members are positions in the rule's member list; a rule's graph is its own, never a family's.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Collection, Iterable
from typing import Any

from ..xcc.rules import Acyclic, Connected, Cycle, Piece, Separation, Sized

#: The ways of choosing a connected cut's boundary (see the module docstring).
SEPARATORS = ("front", "least")
#: The sized rule's lazy cuts add a *ball* cut beside the front one for each whole piece too
#: small for its size (:meth:`SizedCuts._ball`). Measured: see :class:`SizedCuts`.
BALL_CUTS = True
#: A present member's capacity in :meth:`ConnectedCuts.least_cut`: never cut.
_INFINITE = 1 << 30
#: Seconds a process spends finding least separators in Python before it moves to OR-tools'
#: maximum flow (C++, ``ortools.graph.python.max_flow``): about what importing that costs
#: (78-97 ms measured, 2026-11-29), so a process that finds few cuts never pays for it and
#: one that finds many pays at most twice what the faster one alone would (rent or buy).
#: Both give the same separator (:meth:`ConnectedCuts.least_cut`). Measured on 12 published
#: boards of at most 225 cells each, in one process (2026-11-29, idle): finding the cuts was
#: 59 % of the `sat` backend's time on Cave, 82 % on Creek, 71 % on Aqre, 21 % on LITS,
#: 16 % on Nurikabe; OR-tools found the same cuts in 0.46-0.56 of the time with a capacity
#: set and reset per member, 0.28-0.34 (Cave, Creek, Aqre; the calls replayed) updating only those
#: changed since the last call (:meth:`ConnectedCuts._native_cut`). Whole `sat` solves:
#: ``benchmarks/cuts.py``, figures in docs/backends.md.
PYTHON_FLOW_SECONDS = 0.1
#: The Python flows' seconds so far in this process (:func:`_native_flow`).
_python_flow_seconds = 0.0
#: Set when OR-tools' maximum flow could not be imported: the flows stay in Python.
_native_missing = False


def _native_flow() -> bool:
    """Whether least separators are now found by OR-tools' maximum flow: once this process
    has spent :data:`PYTHON_FLOW_SECONDS` on them in Python, or when the module is loaded
    already (the CP-SAT backend's process has OR-tools in memory)."""
    return (
        _python_flow_seconds >= PYTHON_FLOW_SECONDS
        or "ortools.graph.python.max_flow" in sys.modules
    )


class ConnectedCuts:
    """The cuts of a :class:`~dlxsat.xcc.rules.Connected` rule (see the module docstring).

    ``possible``: the member positions some option can make present (those with a variable);
    ``separators``: ``front`` or ``least`` (:data:`SEPARATORS`).

    >>> rule = Connected(((0, "1"), (1, "1"), (2, "1")), ((0, 1), (1, 2)))
    >>> ConnectedCuts(rule, [0, 1, 2]).cuts([0, 2])
    [Separation(a=0, b=2, boundary=(1,))]
    >>> ConnectedCuts(rule, [0, 2]).cuts([0, 2])  # 1 is never present: a wall, no literal
    [Separation(a=0, b=2, boundary=(1,))]
    >>> rooted = Connected(rule.members, rule.links, (0,))
    >>> ConnectedCuts(rooted, [0, 1, 2]).cuts([0, 2]), ConnectedCuts(rooted, [0, 1, 2]).cuts([0, 1])
    ([Separation(a=2, b=None, boundary=(1,))], [])
    >>> fan = Connected(tuple((k, "1") for k in range(6)),  # 0 - 1, 2, 3 - 4 - 5
    ...                 ((0, 1), (0, 2), (0, 3), (1, 4), (2, 4), (3, 4), (4, 5)))
    >>> ConnectedCuts(fan, range(6)).cuts([0, 5])
    [Separation(a=0, b=5, boundary=(1, 2, 3)), Separation(a=5, b=0, boundary=(4,))]
    >>> ConnectedCuts(fan, range(6), "least").cuts([0, 5])
    [Separation(a=5, b=0, boundary=(4,))]
    """

    def __init__(
        self, rule: Connected, possible: Collection[int], separators: str = "front"
    ) -> None:
        self.rule = rule
        self.least = separators == "least"
        n = len(rule.members)
        self.can = [False] * n
        for m in possible:
            self.can[m] = True
        #: Member → its neighbours (the whole member graph), those that can be present, and
        #: those that cannot (walls of a least separator's side, :meth:`least_cut`).
        self.adj = rule.neighbours()
        self.open = [[y for y in nbrs if self.can[y]] for nbrs in self.adj]
        self.walls = [[y for y in nbrs if not self.can[y]] for nbrs in self.adj]
        self.roots = [] if rule.roots is None else list(rule.roots)
        #: The flow network of :meth:`least_cut` (:meth:`_network`), built at its first use:
        #: each node's arcs, each arc's head and capacity, each member's arcs in -> out and
        #: out -> the sink.
        self._sink = 2 * n
        self._arcs: list[list[int]] = []
        self._head: list[int] = []
        self._base: list[int] = []
        self._through: list[int] = []
        self._to_sink: list[int] = []

    def cuts(self, on: Iterable[int]) -> list[Separation]:
        """Cuts that the model with these present members breaks; [] if it keeps the rule."""
        on_set = set(on)
        parts = _pieces(on_set, self.adj)
        if self.rule.roots is None:
            if len(parts) <= 1:
                return []
            if not self.least:
                return self._between(parts, on_set)
            largest = max(parts, key=len)
            return [
                Separation(part[0], largest[0], self.least_cut(part, largest, on_set))
                for part in parts
                if part is not largest
            ]
        roots = set(self.roots)
        lost = [part for part in parts if not roots.intersection(part)]
        if self.least:
            return [Separation(p[0], None, self.least_cut(p, self.roots, on_set)) for p in lost]
        return [self._to_roots(part) for part in lost]

    def _region(self, starts: Iterable[int], inside: set[int]) -> tuple[list[int], set[int]]:
        """The members that can be present reachable from ``starts`` avoiding ``inside``, and
        the region's boundary: its members next to ``inside``, and the members that cannot be
        present next to it -- every way into the region from ``inside``.

        One pass over each reached member's neighbours finds both, with a mark per member
        instead of sets: the sea of Nurikabe 1055_40x57 is cut from each of its pieces in
        turn, most of the board searched each time (9,544 searches in one `sat` solve: 12.0 s
        of cuts as a search and a second pass over sets, 9.9 s as one; the same cuts)."""
        can, adj = self.can, self.adj
        mark = bytearray(len(can))  # 1: inside, 2: in the region
        for x in inside:
            mark[x] = 1
        region = [s for s in starts if not mark[s] and can[s]]
        for x in region:
            mark[x] = 2
        out: set[int] = set()
        stack = list(region)
        while stack:
            x = stack.pop()
            for y in adj[x]:
                seen = mark[y]
                if seen == 1:
                    out.add(x)
                elif not can[y]:
                    out.add(y)
                elif not seen:
                    mark[y] = 2
                    region.append(y)
                    stack.append(y)
        return region, out

    def _between(self, parts: list[list[int]], on: set[int]) -> list[Separation]:
        found: list[Separation] = []
        seen: set[tuple[int, int, tuple[int, ...]]] = set()
        for part in parts:
            inside = set(part)
            a = part[0]
            done: set[int] = set()
            for b in sorted(on - inside):  # each b the least present member of its region
                if b in done:
                    continue
                region, out = self._region([b], inside)
                done.update(region)
                boundary = tuple(sorted(out))
                key = (min(a, b), max(a, b), boundary)
                if key not in seen:
                    seen.add(key)
                    found.append(Separation(a, b, boundary))
        return found

    def _network(self) -> None:
        """The flow network of :meth:`least_cut`, built once: member ``m`` is two nodes,
        ``2m`` (in) and ``2m + 1`` (out), joined by an arc of capacity 1 (absent) or "infinite"
        (present) set per call; each link an infinite arc out -> in both ways; each member an
        arc out -> the sink (node ``2M``), open only for the sink's members. Arc ``e`` and its
        reverse ``e ^ 1`` are stored side by side."""
        n = len(self.can)
        self._arcs = [[] for _ in range(2 * n + 1)]
        self._through = [-1] * n
        self._to_sink = [-1] * n

        def arc(u: int, v: int, c: int) -> int:
            e = len(self._head)
            self._head += [v, u]
            self._base += [c, 0]
            self._arcs[u].append(e)
            self._arcs[v].append(e + 1)
            return e

        for m in range(n):
            if self.can[m]:
                self._through[m] = arc(2 * m, 2 * m + 1, 1)
                self._to_sink[m] = arc(2 * m + 1, self._sink, 0)
                for y in self.open[m]:
                    arc(2 * m + 1, 2 * y, _INFINITE)

    def least_cut(
        self, source: Iterable[int], sink: Iterable[int], on: set[int]
    ) -> tuple[int, ...]:
        """A least set of members absent from the model (``on``: the present ones) that
        separates the ``source`` members from the ``sink`` ones, present members never cut;
        with the members that cannot be present next to the source's side, which cost
        nothing: the cut nearest the source, of a maximum flow over the members.

        Every maximum flow leaves the same nodes reachable from the source in its residual
        network (a node the source reaches in one reaches it in all: the cut nearest the
        source is the least of all minimum cuts), so the flow's algorithm does not change the
        separator, only its time: in Python (:meth:`_python_cut`) until the process has spent
        :data:`PYTHON_FLOW_SECONDS` on them, then by OR-tools (:meth:`_native_cut`)."""
        global _python_flow_seconds, _native_missing
        if _native_flow() and not _native_missing:
            try:
                return self._native_cut(source, sink, on)
            except ImportError:  # (an installation without OR-tools' graph module)
                _native_missing = True
        start = time.perf_counter()
        cut = self._python_cut(source, sink, on)
        _python_flow_seconds += time.perf_counter() - start
        return cut

    def _python_cut(
        self, source: Iterable[int], sink: Iterable[int], on: set[int]
    ) -> tuple[int, ...]:
        """:meth:`least_cut` by shortest augmenting paths in Python, one unit each (a path's
        bottleneck is an absent member), then the cut nearest the source."""
        if not self._head:
            self._network()
        cap = self._base[:]
        for m in on:
            cap[self._through[m]] = _INFINITE
        for m in sink:
            if self.can[m]:
                cap[self._to_sink[m]] = _INFINITE
        head, arcs, goal = self._head, self._arcs, self._sink
        starts = [2 * m + 1 for m in source]
        # (A list for the search's marks, not a dict: some 20 % less time in the searches,
        # which were more than half of a LITS solve. Dinic's phases, tried, took 2.7 times as
        # long in Python.)
        unseen = -2
        n_nodes = len(arcs)
        while True:
            came = [unseen] * n_nodes  # node → the arc it was reached by, -1 at a start
            for x in starts:
                came[x] = -1
            queue = list(starts)
            for x in queue:
                for e in arcs[x]:
                    if cap[e] > 0:
                        y = head[e]
                        if came[y] == unseen:
                            came[y] = e
                            queue.append(y)
                if came[goal] != unseen:
                    break
            if came[goal] == unseen:
                break  # (``queue`` holds the source's side of the cut)
            y = goal
            while came[y] >= 0:
                e = came[y]
                cap[e] -= 1
                cap[e ^ 1] += 1
                y = head[e ^ 1]
        side = {x >> 1 for x in queue if x & 1}
        wall = {x >> 1 for x in queue if not x & 1 and came[x + 1] == unseen}
        walls = self.walls
        wall.update(y for x in side for y in walls[x])
        return tuple(sorted(wall))

    def _native_network(self) -> None:
        """:meth:`_network`'s flow network in OR-tools' ``SimpleMaxFlow``, built once, with a
        source node of its own (``2M + 1``) and an arc from it to each member's out node,
        opened for the source's members. The capacities of a call are kept there afterwards:
        the next call changes only those that differ (:meth:`_native_cut`) -- the calls of a
        round share the present members and the sink, and the next round's present members
        are mostly the same: setting and resetting every present member's arc took more than
        the flow itself (Cave 10 x 10s: 175 capacities a call)."""
        from ortools.graph.python import max_flow

        n = len(self.can)
        flow = max_flow.SimpleMaxFlow()
        self._flow: Any = flow
        self._n_through = [-1] * n
        self._n_sink = [-1] * n
        self._n_source = [-1] * n
        for m in range(n):
            if self.can[m]:
                self._n_through[m] = flow.add_arc_with_capacity(2 * m, 2 * m + 1, 1)
                self._n_sink[m] = flow.add_arc_with_capacity(2 * m + 1, 2 * n, 0)
                self._n_source[m] = flow.add_arc_with_capacity(2 * n + 1, 2 * m + 1, 0)
                for y in self.open[m]:
                    flow.add_arc_with_capacity(2 * m + 1, 2 * y, _INFINITE)
        #: The members whose through arc is open wide, whose sink arc and source arc are open.
        self._set_on: set[int] = set()
        self._set_sink: set[int] = set()
        self._set_source: set[int] = set()

    def _native_cut(
        self, source: Iterable[int], sink: Iterable[int], on: set[int]
    ) -> tuple[int, ...]:
        """:meth:`least_cut` by OR-tools' maximum flow (push-relabel, in C++), whose
        ``get_source_side_min_cut`` is the nodes the source reaches in the residual network."""
        if not hasattr(self, "_flow"):
            self._native_network()
        flow, can = self._flow, self.can
        on_now = {m for m in on if can[m]}
        sink_now = {m for m in sink if can[m]}
        source_now = {m for m in source if can[m]}
        for now, was, arcs, wide, shut in (
            (on_now, self._set_on, self._n_through, _INFINITE, 1),
            (sink_now, self._set_sink, self._n_sink, _INFINITE, 0),
            (source_now, self._set_source, self._n_source, _INFINITE, 0),
        ):
            for m in now - was:
                flow.set_arc_capacity(arcs[m], wide)
            for m in was - now:
                flow.set_arc_capacity(arcs[m], shut)
        self._set_on, self._set_sink, self._set_source = on_now, sink_now, source_now
        n = len(can)
        if flow.solve(2 * n + 1, 2 * n) != flow.OPTIMAL:  # (not met: the capacities are small)
            return self._python_cut(source_now, sink_now, on)
        reached = flow.get_source_side_min_cut()
        mark = bytearray(2 * n + 2)
        for x in reached:
            mark[x] = 1
        wall: set[int] = set()
        walls = self.walls
        for x in reached:
            if x >= 2 * n:
                continue  # (the source node)
            if x & 1:  # a member on the source's side: its impossible neighbours are walls
                wall.update(walls[x >> 1])
            elif not mark[x + 1]:  # reached but not through: cut
                wall.add(x >> 1)
        return tuple(sorted(wall))

    def _to_roots(self, part: list[int]) -> Separation:
        inside = set(part)
        _, boundary = self._region(self.roots, inside)  # the virtual root's piece, without it
        # The virtual root is next to every root: one that cannot be present is a way in.
        boundary.update(r for r in self.roots if not self.can[r] and r not in inside)
        return Separation(part[0], None, tuple(sorted(boundary)))


def _pieces(on: set[int], adj: list[list[int]]) -> list[list[int]]:
    """The connected pieces of the members ``on`` over ``adj``, each sorted, by least member."""
    seen: set[int] = set()
    found: list[list[int]] = []
    for start in sorted(on):
        if start in seen:
            continue
        seen.add(start)
        members = [start]
        stack = [start]
        while stack:
            for y in adj[stack.pop()]:
                if y in on and y not in seen:
                    seen.add(y)
                    members.append(y)
                    stack.append(y)
        found.append(sorted(members))
    return found


class AcyclicCuts:
    """The cuts of an :class:`~dlxsat.xcc.rules.Acyclic` rule (see the module docstring).

    >>> tri = Acyclic(((0, "1"), (1, "1"), (2, "1"), (3, "1")), ((0, 1), (1, 2), (2, 0), (2, 3)))
    >>> AcyclicCuts(tri).cuts([0, 1, 2, 3]), AcyclicCuts(tri).cuts([0, 1, 3])
    ([Cycle(members=(2, 1, 0))], [])
    """

    def __init__(self, rule: Acyclic) -> None:
        self.rule = rule

    def cuts(self, on: Iterable[int]) -> list[Cycle]:
        """One cut per cycle the present members ``on`` close (one per closing member, with
        the forest's path); [] if they hold none."""
        ends = self.rule.ends
        parent: dict[int, int] = {}

        def find(x: int) -> int:
            parent.setdefault(x, x)
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        tree: dict[int, list[tuple[int, int]]] = {}
        closing: list[int] = []
        for m in sorted(set(on)):
            u, v = ends[m]
            ru, rv = find(u), find(v)
            if ru == rv:
                closing.append(m)
                continue
            parent[ru] = rv
            tree.setdefault(u, []).append((v, m))
            tree.setdefault(v, []).append((u, m))
        if not closing:
            return []
        # Root each tree of the forest: every vertex's parent (vertex, member) and depth.
        up: dict[int, tuple[int, int]] = {}
        depth: dict[int, int] = {}
        for root in tree:
            if root in depth:
                continue
            depth[root] = 0
            stack = [root]
            while stack:
                x = stack.pop()
                for y, m in tree[x]:
                    if y not in depth:
                        depth[y], up[y] = depth[x] + 1, (x, m)
                        stack.append(y)
        found: list[Cycle] = []
        for m in closing:
            x, y = ends[m]
            left: list[int] = []
            right: list[int] = []
            while x != y:  # climb from the deeper end until the two meet
                if depth.get(x, 0) >= depth.get(y, 0):
                    x, e = up[x]
                    left.append(e)
                else:
                    y, e = up[y]
                    right.append(e)
            found.append(Cycle((m, *left, *reversed(right))))
        return found


class SizedCuts:
    """The cuts of a :class:`~dlxsat.xcc.rules.Sized` rule.

    The present members of a model fall into pieces; a piece ``K`` that is wrong as a whole
    piece (:meth:`Sized.fault <dlxsat.xcc.rules.Sized.fault>` with ``closed``) gives one
    :class:`~dlxsat.xcc.rules.Piece`, which the model breaks (``K``'s members are present, the
    members next to it absent) and every answer keeps:

    * When no larger piece can mend ``K`` either (``fault`` without ``closed``: two anchors,
      more members than its size, or no anchor and more members than any anchor's size), the
      cut is ``not p(h1) or not p(h2) or ...`` over a *core* of ``K`` alone, no ``grown``
      members: a connected part of ``K`` that no piece may hold, as small as is cheaply found:
      the first ``size + 1`` members of a breadth-first search in ``K`` from its first member
      (one size for every piece); the first ``s + 1`` from an anchor of size ``s``, or a
      shortest path in ``K`` between two anchors, whichever is smallest; the first ``s + 1``
      from its first member when ``K`` holds no anchor, ``s`` the largest anchor's size. A
      shorter clause is a stronger one: it forbids every piece that holds the core, not only
      ``K``.
    * Otherwise (too few members, or no anchor and not too many yet) ``K`` might be part of a
      right piece, and only ``K`` closed off is wrong: ``held`` is ``K`` and ``grown`` every
      member next to it in the rule's graph. One that no option can make present has no
      variable: its literal is false and the backend leaves it out (the cut stays valid for
      the rule alone, as :func:`~dlxsat.xcc.rules.justified` checks it).

    >>> rule = Sized(tuple((k, "1") for k in range(4)), ((0, 1), (1, 2), (2, 3)), size=2)
    >>> SizedCuts(rule).cuts([0, 1, 2]), SizedCuts(rule).cuts([0, 2, 3])
    ([Piece(held=(0, 1, 2), grown=())], [Piece(held=(0,), grown=(1,))])
    >>> islands = Sized(rule.members, rule.links, anchors=((0, 3), (3, 1)))
    >>> SizedCuts(islands).cuts([0, 1, 2, 3]), SizedCuts(islands).cuts([1, 2])
    ([Piece(held=(2, 3), grown=())], [Piece(held=(1, 2), grown=(0, 3))])
    """

    def __init__(
        self, rule: Sized, possible: Collection[int] | None = None, balls: bool | None = None
    ) -> None:
        self.rule = rule
        self.adj = rule.neighbours()
        self.anchored = dict(rule.anchors)
        self.balls = BALL_CUTS if balls is None else balls
        n = len(rule.members)
        #: The members that some option can make present (all, when not told).
        self.can = [possible is None] * n
        for m in possible or ():
            self.can[m] = True

    def cuts(self, on: Iterable[int]) -> list[Piece]:
        """Cuts that the model with these present members breaks; [] if it keeps the rule."""
        rule = self.rule
        found: list[Piece] = []
        for part in _pieces(set(on), self.adj):
            if rule.fault(part, closed=True) is None:
                continue
            if rule.fault(part, closed=False) is not None:
                found.append(Piece(self._core(part)))
                continue
            inside = set(part)
            around = {y for x in part for y in self.adj[x]} - inside
            if inside.intersection(self.anchored):
                # Holding its anchor, the piece grows into no other: those are walls.
                around -= set(self.anchored)
            ball = self._ball(part) if self.balls else None
            if ball is None or not around.issuperset(ball.grown):
                # (a ball cut whose grown members all lie next to K implies the front cut)
                found.append(Piece(tuple(part), tuple(sorted(self._needed(part, around)))))
            if ball is not None:
                found.append(ball)
        return found

    def _ball(self, part: list[int]) -> Piece | None:
        """The *ball* cut of a whole piece ``K`` = ``part`` too small for the size ``s`` it must
        have (one size for all, or its one anchor's), or None when it has no such size.

        ``R`` is the first ``s - 1`` members of a breadth-first search from ``K`` (``K``
        first) through members that can be present, other anchors being walls (a piece holds
        one anchor). Every piece holding ``K`` inside ``R`` is too small, so a right piece
        holding ``K`` holds a member next to ``R``: the clause ``not K or N(R)`` (``held``
        ``K``, ``grown`` ``N(R)`` less the walls) forbids at once every way of growing ``K``
        by fewer than ``s - |K|`` members, where the front cut forbids ``K`` closed off only.
        When the search runs out first, ``N(R)`` holds only members no option can make
        present (no literals): the clause is ``not K``. When ``R`` is ``K`` it replaces the
        front cut (the walls left out)."""
        anchored = self.anchored
        held = [m for m in part if m in anchored]
        if len(held) > 1 or (not held and self.rule.size is None):
            return None
        want = self.rule.size if self.rule.size is not None else anchored[held[0]]
        if len(part) >= want:
            return None
        walls = set(anchored) - set(held)
        region = set(part)
        order = list(part)
        head = 0
        while head < len(order) and len(order) < want - 1:
            x = order[head]
            head += 1
            for y in self.adj[x]:
                if y not in region and y not in walls and self.can[y]:
                    region.add(y)
                    order.append(y)
                    if len(order) == want - 1:
                        break
        grown = {y for x in order for y in self.adj[x]} - region - walls
        if len(order) < want - 1:
            # The search ran out: the grown members can never be present, and some may be
            # needless (beyond them the piece stays too small).
            grown = self._needed(part, grown)
        return Piece(tuple(part), tuple(sorted(grown)))

    def _needed(self, part: list[int], grown: set[int]) -> set[int]:
        """The members of ``grown`` that a cut holding ``part`` needs: one is left out when
        every piece holding ``part`` and avoiding the rest is still too small (so that each
        cut is as short as :func:`~dlxsat.xcc.rules.justified` allows). Only for a piece
        with a size to reach (one size, or one anchor); else ``grown`` as it is.

        The members are taken in order, each left out or kept for good, so the question for
        each is how far ``part`` reaches through any member (as
        :func:`~dlxsat.xcc.rules.justified` counts) avoiding the walls and the members still
        kept: a search of up to the size's members each (:meth:`_reach`), or when that would
        cost more than the whole graph, the connected parts of what avoids all of them, found
        once; leaving a member out joins it to the parts next to it (a union-find), so each
        question is a sum over the parts next to one member (on a 20 x 36 Fillomino's pieces
        of 128, the searches cost 5 of 30 seconds)."""
        anchored = self.anchored
        held = [m for m in part if m in anchored]
        if len(held) > 1 or (not held and self.rule.size is None):
            return grown
        want = self.rule.size if self.rule.size is not None else anchored[held[0]]
        walls = set(anchored) - set(held) if held else set()
        adj = self.adj
        if want * len(grown) < len(adj):  # a search per member is cheaper than the parts
            return self._needed_searched(part, grown, walls, want)
        return self._needed_joined(part, grown, walls, want)

    def _needed_searched(
        self, part: list[int], grown: set[int], walls: set[int], want: int
    ) -> set[int]:
        """:meth:`_needed` by a search per member."""
        kept = set(grown)
        for g in sorted(grown):
            if self._reach(part, kept - {g}, walls, want) < want:
                kept.discard(g)
        return kept

    def _needed_joined(
        self, part: list[int], grown: set[int], walls: set[int], want: int
    ) -> set[int]:
        """:meth:`_needed` by the connected parts, joined as members are left out.

        The parts are labelled by a search each (a union-find over every pair of neighbours
        cost twice as much: it was a quarter of a 20 x 36 Fillomino's cuts), then joined by a
        union-find over the parts: a member left out is a part of its own, joined to those
        next to it."""
        adj = self.adj
        blocked = grown | walls
        label = [-1] * len(adj)
        count: list[int] = []
        for start in range(len(adj)):
            if label[start] >= 0 or start in blocked:
                continue
            here = len(count)
            label[start] = here
            stack = [start]
            size = 1
            while stack:
                for y in adj[stack.pop()]:
                    if label[y] < 0 and y not in blocked:
                        label[y] = here
                        stack.append(y)
                        size += 1
            count.append(size)
        parent = list(range(len(count)))

        def find(x: int) -> int:
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        def join(x: int, y: int) -> None:
            rx, ry = find(x), find(y)
            if rx != ry:
                if count[rx] < count[ry]:
                    rx, ry = ry, rx
                parent[ry] = rx
                count[rx] += count[ry]

        kept = set(grown)
        for g in sorted(grown):
            home = find(label[part[0]])
            near = {find(label[y]) for y in adj[g] if y not in kept and y not in walls}
            reach = count[home]
            if home in near:
                reach += 1 + sum(count[r] for r in near if r != home)
            if reach >= want:
                continue
            kept.discard(g)
            label[g] = len(count)
            count.append(1)
            parent.append(label[g])
            for y in adj[g]:
                if y not in kept and y not in walls:
                    join(label[g], label[y])
        return kept

    def _reach(self, part: list[int], grown: set[int], walls: set[int], cap: int) -> int:
        """How many members a piece holding ``part`` can reach avoiding ``grown`` and
        ``walls`` (through any member, as :func:`~dlxsat.xcc.rules.justified` counts),
        counted up to ``cap``."""
        seen = set(part)
        stack = list(part)
        while stack and len(seen) < cap:
            for y in self.adj[stack.pop()]:
                if y not in seen and y not in grown and y not in walls:
                    seen.add(y)
                    stack.append(y)
        return len(seen)

    def _core(self, part: list[int]) -> tuple[int, ...]:
        """A connected part of ``part`` that is wrong whatever grows (see the class doc)."""
        anchored = self.anchored
        if self.rule.size is not None:
            return tuple(sorted(self._nearest(part, part[0], self.rule.size + 1)))
        held = [m for m in part if m in anchored]
        if not held:
            return tuple(sorted(self._nearest(part, part[0], max(anchored.values()) + 1)))
        # Each anchor with more members than its size around it, and a path between two
        # anchors: the smallest of them.
        found = [
            tuple(sorted(self._nearest(part, a, anchored[a] + 1)))
            for a in held
            if len(part) > anchored[a]
        ]
        if len(held) > 1:
            found.append(self._path(part, held[0], set(held[1:])))
        return min(found, key=len)

    def _nearest(self, part: list[int], start: int, count: int) -> list[int]:
        """The first ``count`` members of a breadth-first search in ``part`` from ``start``
        (connected: each but the first is next to one before it)."""
        inside = set(part)
        seen = [start]
        reached = {start}
        head = 0
        while len(seen) < count:
            for y in self.adj[seen[head]]:
                if y in inside and y not in reached:
                    reached.add(y)
                    seen.append(y)
            head += 1
        return seen[:count]

    def _path(self, part: list[int], start: int, goals: set[int]) -> tuple[int, ...]:
        """The members of a shortest path in ``part`` from ``start`` to one of ``goals``."""
        inside = set(part)
        back = {start: start}
        queue = [start]
        head = 0
        while True:
            x = queue[head]
            head += 1
            if x in goals:
                path = [x]
                while x != start:
                    x = back[x]
                    path.append(x)
                return tuple(sorted(path))
            for y in self.adj[x]:
                if y in inside and y not in back:
                    back[y] = x
                    queue.append(y)
