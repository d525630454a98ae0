"""Masyu by reasoning: Yen, Chiu, Chou and Chen's heuristics, intersection and elimination search.

The seed paper (``masyu-solver-intersection-elimination.txt``) solves Masyu in three stages:

1. **Five heuristics** (its section III.B) fix lines that local clue patterns force: a black
   circle near the border, a white circle on the border, two adjacent black circles, three or
   more white circles in a row, and a black circle with two white circles diagonally on one side.
2. **The intersection method** (III.C): every circle has a few possible *patterns* (4 for a
   black circle: the corner it turns and its two legs; 8 for a white one: across or up and
   down, and the neighbour and side where the line turns -- together they cover every way a
   loop can pass the circle, which is all intersection needs). The impossible patterns are
   struck out, and what all remaining patterns have in common is certain. A pattern is
   impossible when it makes a branch, a premature loop, a dead end, or breaks another circle.
   Here those tests are the standard edge rules, run to a fixpoint after every change: a cell
   has 0 or 2 lines (branches, dead ends), path fragments may not close before the loop is
   complete (premature loops, tracked by linking the two ends of every fragment), and a
   pattern is struck out as soon as an edge it needs is decided the other way (errors at
   other circles, as their consequences propagate).
3. **Elimination search** (III.D): assume a pattern, propagate by intersection, and strike the
   pattern out when that leads to a contradiction. We add the other half of the intersection
   idea: what every surviving assumption of one circle leads to is certain as well. When the
   circles give nothing more, the same is done with single edges (line or cross). Assumptions
   near the last change are tried first; a final sweep over all of them before giving up
   keeps the result independent of that order.

**Depth.** The paper's three steps -- assumption, "extending ratiocination" by the intersection
method, error testing -- are elimination search of depth 1: an assumption is followed by
propagation only. Its closing sentence on the method ("if we do error test and find nothing
against rules, we keep conducting elimination search") also reads as nesting: an assumption
that propagation does not refute is itself searched by elimination. ``depth=d`` propagates
every assumption by elimination search of depth ``d - 1``, over the circles and edges near
what the assumption changed (where its contradictions arise; that keeps depth 2 affordable).
0 is heuristics and intersection alone. The default, :data:`DEFAULT_DEPTH` = 2, is the
shallowest setting that comes close to the paper's result (all 182 published puzzles finished
by deduction): on the 169 published boards of ``benchmarks/logic_masyu.py`` depth 1 finishes
152 and depth 2 finishes 168 (README); boards that depth 2 leaves need depth 3 or more.
Deeper levels run only when the shallower ones have nothing left, and after each success the
search returns to depth 1, so a board that depth 1 finishes costs what it cost before. Every
depth is sound: an assumption is struck out only when it leads to a contradiction, and an edge
is set only when every assumption not refuted sets it.

**Figures.** The paper's Table I is in the result's ``stats``, computed in one place
(:meth:`Deducer.stats`, which the CLI prints and the benchmark reads): ``seconds``,
``elimination_share`` (per cent of the board's edges that elimination search decided
directly), the time of each part and per 1 % decided (``elimination_seconds_per_percent``;
``intersection_seconds_per_percent`` covers the heuristics and the propagation, the paper's
"heuristic and testing" column), and the counts of assumptions tried (``hypotheses``, at
every depth) and refuted (``refutations``).

**Explanations.** With ``explain`` every step is a line of ``steps``, and the same steps as
data in ``stats["steps"]``: ``{"rule", "text", "line", "cross"}``, the rule being
``heuristics``, ``intersection``, ``elimination``, ``contradiction`` or ``stalled`` and each
edge given as the two cells it joins. Cells are ``(row,column)``, 1-based, as puzzle books
print them -- the one convention of every ``--explain`` in dlxsat (JSON answers keep the
0-based doubled coordinates of docs/conventions.md §4).

Every deduction holds in every answer, so a board that deductions complete has exactly one
answer (the result is a proof of uniqueness, and no uniqueness assumption is ever used), and a
deduction that reaches a contradiction proves that there is none. When deductions stall, the
result is ``stalled`` unless ``fallback`` asks for a small backtracking search on the same
edge-state model (which is also how ``count`` and ``all`` modes enumerate). The request's
deadline bounds the whole run. The result is a :class:`~dlxsat.result.SearchResult`; its status
word comes from :func:`dlxsat.result.status_of` alone.

The solver works on :class:`Board` (rows, columns, clue kinds), made from a puzzle by
:func:`board_from_puzzle`; cells are numbered row by row, edges are horizontal ones first.

>>> from dlxsat.result import status_of
>>> out = solve([".0..", "....", "..1.", "...."])
>>> status_of("unique", out), out.count, len(out.answers[0]["edges"]), out.stats["deduction"]
('unique', 1, 8, 'solved')
>>> status_of("unique", solve(["1..", "...", "..."]))
'stalled'
>>> out = solve(["1..", "...", "..."], options={"fallback": True})
>>> status_of("unique", out), out.count
('multiple', 2)
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..answer import Answer, edges_answer
from ..result import SearchResult
from ..solvers import Request

__all__ = [
    "Board",
    "Contradiction",
    "Geometry",
    "State",
    "board_from_puzzle",
    "board_from_rows",
    "heuristic_deductions",
    "Deducer",
    "search",
    "solve",
    "DEFAULT_DEPTH",
]

#: The default depth of elimination search in :func:`solve` (see the module notes).
DEFAULT_DEPTH = 2

#: Edge states.
UNKNOWN, LINE, CROSS = 0, 1, 2
#: Clue kinds.
EMPTY, BLACK, WHITE = 0, 1, 2
#: Directions, with their row/column steps; ``d ^ 1`` is the opposite direction.
NORTH, SOUTH, WEST, EAST = 0, 1, 2, 3
STEP = ((-1, 0), (1, 0), (0, -1), (0, 1))
DIR_NAME = ("north", "south", "west", "east")
STATE_NAME = ("unknown", "line", "cross")


class Contradiction(Exception):
    """The current board state (or an assumption) breaks a rule; ``str()`` says which."""


class Timeout(Exception):
    """The time limit ran out."""


# ---------------------------------------------------------------------------------------------
# The board and its fixed geometry


@dataclass(frozen=True)
class Board:
    """The solver's view of a Masyu puzzle: ``kinds[i * n + j]`` is EMPTY, BLACK or WHITE."""

    m: int
    n: int
    kinds: tuple[int, ...]

    def kind(self, i: int, j: int) -> int:
        return self.kinds[i * self.n + j]


def board_from_rows(rows: Sequence[str]) -> Board:
    """A :class:`Board` from rows of Knuth's format: ``1`` black, ``.`` none, other digits white.

    >>> board_from_rows(["1.", ".0"]).kinds
    (1, 0, 0, 2)
    """
    kinds = tuple(EMPTY if ch == "." else BLACK if ch == "1" else WHITE for r in rows for ch in r)
    return Board(len(rows), len(rows[0]), kinds)


def board_from_puzzle(puzzle: Any) -> Board:
    """The one adapter from the family's puzzle object (or a plain list of rows) to a Board."""
    rows = getattr(puzzle, "rows", puzzle)
    if isinstance(rows, str):
        rows = [r for r in rows.splitlines() if r]
    return board_from_rows(list(rows))


@dataclass(frozen=True)
class Pattern:
    """One way a line can pass a circle: ``items`` are the (edge, LINE/CROSS) it requires."""

    name: str
    items: tuple[tuple[int, int], ...]
    need: dict[int, int]


class Geometry:
    """Everything about a board that never changes: edge numbering, neighbours, patterns.

    Edges ``0 .. ne-1`` are real; ``ne`` is a sentinel standing for every edge off the board,
    permanently crossed, so that every cell has four edges and every pattern is well defined.
    """

    def __init__(self, board: Board) -> None:
        self.board = board
        m, n = self.m, self.n = board.m, board.n
        self.ncells = m * n
        nh = m * (n - 1)
        self.ne = nh + (m - 1) * n
        self.sentinel = self.ne
        self.edge_cells: list[tuple[int, int]] = []
        self.edge_coord: list[tuple[int, int]] = []
        for i in range(m):
            for j in range(n - 1):
                self.edge_cells.append((i * n + j, i * n + j + 1))
                self.edge_coord.append((2 * i, 2 * j + 1))
        for i in range(m - 1):
            for j in range(n):
                self.edge_cells.append((i * n + j, (i + 1) * n + j))
                self.edge_coord.append((2 * i + 1, 2 * j))
        self.cell_edges = [
            [self.edge(i, j, d) for d in range(4)] for i in range(m) for j in range(n)
        ]
        self.kinds = board.kinds
        self.circles = [c for c in range(self.ncells) if board.kinds[c] != EMPTY]
        self.circle_of = [-1] * self.ncells
        for k, c in enumerate(self.circles):
            self.circle_of[c] = k
        self.patterns = [self._patterns(c) for c in self.circles]
        # A pattern asking for a line off the board, or for both states of one edge, is dead.
        self.initial_alive = []
        for pats in self.patterns:
            mask = 0
            for p, pat in enumerate(pats):
                if pat.need is not None and pat.need.get(self.sentinel) != LINE:
                    mask |= 1 << p
            self.initial_alive.append(mask)
        # kill[e]: (circle, patterns a line on e rules out, patterns a cross on e rules out).
        self.kill: list[list[tuple[int, int, int]]] = [[] for _ in range(self.ne + 1)]
        for k, pats in enumerate(self.patterns):
            by_edge: dict[int, list[int]] = {}
            for p, pat in enumerate(pats):
                for e, v in pat.items:
                    masks = by_edge.setdefault(e, [0, 0])
                    masks[0 if v == CROSS else 1] |= 1 << p
            for e in sorted(by_edge):
                self.kill[e].append((k, by_edge[e][0], by_edge[e][1]))

    # -- coordinates ------------------------------------------------------------------------

    def inside(self, i: int, j: int) -> bool:
        return 0 <= i < self.m and 0 <= j < self.n

    def edge(self, i: int, j: int, d: int) -> int:
        """The edge leaving cell (i, j) in direction d; the sentinel when it leaves the board."""
        di, dj = STEP[d]
        i2, j2 = i + di, j + dj
        if not (self.inside(i, j) and self.inside(i2, j2)):
            return self.sentinel
        if di == 0:
            return i * (self.n - 1) + min(j, j2)
        return self.m * (self.n - 1) + min(i, i2) * self.n + j

    def between(self, a: int, b: int) -> int:
        """The edge between cells a and b, or -1 when they are not neighbours."""
        n = self.n
        if a > b:
            a, b = b, a
        if b == a + 1 and b % n:
            return (a // n) * (n - 1) + a % n
        if b == a + n:
            return self.m * (n - 1) + a
        return -1

    def cell_text(self, c: int) -> str:
        """A cell as people count: 1-based (row, column)."""
        return f"({c // self.n + 1},{c % self.n + 1})"

    def edge_cells_1based(self, e: int) -> list[list[int]]:
        """An edge as the two cells it joins, each ``[row, column]`` 1-based (as in the text)."""
        return [[c // self.n + 1, c % self.n + 1] for c in self.edge_cells[e]]

    def edge_text(self, e: int) -> str:
        if e == self.sentinel:
            return "an edge off the board"
        a, b = self.edge_cells[e]
        return f"{self.cell_text(a)}-{self.cell_text(b)}"

    def circle_text(self, k: int) -> str:
        c = self.circles[k]
        colour = "black" if self.kinds[c] == BLACK else "white"
        return f"{colour} circle {self.cell_text(c)}"

    # -- patterns (Fig. 8 and 9 of the paper) -------------------------------------------------

    def _pattern(self, name: str, items: Iterable[tuple[int, int]]) -> Pattern:
        need: dict[int, int] = {}
        kept = []
        for e, v in items:
            if e == self.sentinel and v == CROSS:
                continue  # always true
            old = need.get(e)
            if old is None:
                need[e] = v
                kept.append((e, v))
            elif old != v:  # the pattern asks one edge to be two things: it never applies
                return Pattern(name, tuple(kept), None)  # type: ignore[arg-type]
        return Pattern(name, tuple(kept), need)

    def _patterns(self, c: int) -> list[Pattern]:
        i, j = divmod(c, self.n)
        ed = self.edge
        pats = []
        if self.kinds[c] == BLACK:
            # Turn here; both legs run two cells, going straight through the next cell.
            for dv in (NORTH, SOUTH):
                for dh in (WEST, EAST):
                    items = [(ed(i, j, dv ^ 1), CROSS), (ed(i, j, dh ^ 1), CROSS)]
                    for d, perp in ((dv, (WEST, EAST)), (dh, (NORTH, SOUTH))):
                        i1, j1 = i + STEP[d][0], j + STEP[d][1]
                        items += [(ed(i, j, d), LINE), (ed(i1, j1, d), LINE)]
                        items += [(ed(i1, j1, p), CROSS) for p in perp]
                    pats.append(self._pattern(f"{DIR_NAME[dv]}-{DIR_NAME[dh]}", items))
        else:
            # Go straight through; the line turns (to one side or the other) in a neighbour.
            for axis, perp in (((WEST, EAST), (NORTH, SOUTH)), ((NORTH, SOUTH), (WEST, EAST))):
                base = [(ed(i, j, d), LINE) for d in axis] + [(ed(i, j, d), CROSS) for d in perp]
                for s in axis:
                    i1, j1 = i + STEP[s][0], j + STEP[s][1]
                    for t in perp:
                        items = base + [
                            (ed(i1, j1, s), CROSS),
                            (ed(i1, j1, t), LINE),
                            (ed(i1, j1, t ^ 1), CROSS),
                        ]
                        name = (
                            "horizontal" if axis[0] == WEST else "vertical"
                        ) + f", turning {DIR_NAME[t]} in the {DIR_NAME[s]} neighbour"
                        pats.append(self._pattern(name, items))
        return pats


# ---------------------------------------------------------------------------------------------
# The changing state: edge states, path fragments, surviving patterns


class State:
    """Edge states and what follows from them, with a propagation queue.

    ``partner[c]`` is the other end of the path fragment that ends at cell c (c itself for a
    cell without lines); ``size`` and ``circ`` (kept at both ends) count the fragment's edges
    and circles. That is enough to see a fragment about to close into a loop and to tell
    whether that loop would be the whole answer.
    """

    __slots__ = (
        "g", "st", "deg", "unk", "partner", "size", "circ", "alive", "done", "nlines", "ndecided",
        "closed", "closable", "pending", "cellq", "incell", "circq", "incirc", "log", "data",
        "trail",
    )  # fmt: skip

    def __init__(self, g: Geometry) -> None:
        self.g = g
        self.st = [UNKNOWN] * g.ne + [CROSS]
        self.deg = [0] * g.ncells
        self.unk = [sum(e != g.sentinel for e in es) for es in g.cell_edges]
        self.partner = list(range(g.ncells))
        self.size = [0] * g.ncells
        self.circ = [1 if k != EMPTY else 0 for k in g.kinds]
        self.alive = list(g.initial_alive)
        # done[k]: the set of patterns whose common part has been applied (-1: none yet). The
        # common part changes only when a pattern is struck out, so it is computed only then.
        self.done = [-1] * len(g.circles)
        self.nlines = 0
        self.ndecided = 0
        self.closed = False
        self.closable: list[int] = []
        self._fresh_queues()
        self.log: list[str] | None = None
        self.data: list[dict[str, Any]] | None = None
        # Every circle is examined once at the start (dead patterns, first intersections).
        self.circq.extend(range(len(g.circles)))
        for k in range(len(g.circles)):
            self.incirc[k] = 1
        self.cellq.extend(range(g.ncells))
        for c in range(g.ncells):
            self.incell[c] = 1

    def _fresh_queues(self) -> None:
        self.pending: list[tuple[int, int, str]] = []
        self.cellq: list[int] = []
        self.incell = bytearray(self.g.ncells)
        self.circq: list[int] = []
        self.incirc = bytearray(len(self.g.circles))
        self.trail: list[int] = []

    def copy(self) -> State:
        """A copy to make assumptions on (without log, with an empty trail and empty queues)."""
        s = State.__new__(State)
        s.g = self.g
        s.st = self.st[:]
        s.deg = self.deg[:]
        s.unk = self.unk[:]
        s.partner = self.partner[:]
        s.size = self.size[:]
        s.circ = self.circ[:]
        s.alive = self.alive[:]
        s.done = self.done[:]
        s.nlines = self.nlines
        s.ndecided = self.ndecided
        s.closed = self.closed
        s.closable = self.closable[:]
        s._fresh_queues()
        s.log = None
        s.data = None
        return s

    # -- setting edges ---------------------------------------------------------------------

    def set(self, e: int, v: int) -> bool:
        """Give edge e the state v; False if it had it already. Raises Contradiction."""
        old = self.st[e]
        if old == v:
            return False
        g = self.g
        if old != UNKNOWN:
            raise Contradiction(f"{g.edge_text(e)} would be both line and cross")
        a, b = g.edge_cells[e]
        if v == LINE:
            deg = self.deg
            if deg[a] == 2 or deg[b] == 2:
                c = a if deg[a] == 2 else b
                raise Contradiction(f"the line would branch at {g.cell_text(c)}")
            self.st[e] = LINE
            self.nlines += 1
            deg[a] += 1
            deg[b] += 1
            self._link(a, b)
        else:
            self.st[e] = CROSS
        self.ndecided += 1
        self.unk[a] -= 1
        self.unk[b] -= 1
        self.trail.append(e)
        for c in (a, b):
            if not self.incell[c]:
                self.incell[c] = 1
                self.cellq.append(c)
        alive = self.alive
        for k, if_line, if_cross in g.kill[e]:
            dead = alive[k] & (if_line if v == LINE else if_cross)
            if dead:
                alive[k] ^= dead
                if not self.incirc[k]:
                    self.incirc[k] = 1
                    self.circq.append(k)
        return True

    def _link(self, a: int, b: int) -> None:
        """Join the fragments ending at a and b (a line was just drawn between them)."""
        g = self.g
        partner, size, circ = self.partner, self.size, self.circ
        pa, pb = partner[a], partner[b]
        total = len(g.circles)
        if pa == b:
            if size[a] + 1 != self.nlines or circ[a] != total:
                why = "other lines" if size[a] + 1 != self.nlines else "circles"
                raise Contradiction(
                    f"a loop would close at {g.edge_text(g.between(a, b))}, leaving {why} outside"
                )
            self.closed = True
            self.pending.append((-1, CROSS, "the loop is closed: every other edge is a cross"))
            return
        s = size[a] + size[b] + 1
        cc = circ[a] + circ[b]
        partner[pa], partner[pb] = pb, pa
        size[pa] = size[pb] = s
        circ[pa] = circ[pb] = cc
        gap = g.between(pa, pb)
        if gap >= 0 and self.st[gap] == UNKNOWN:
            if s == self.nlines and cc == total:
                self.closable.append(gap)  # closing it would finish the loop: not forbidden
            else:
                self.pending.append(
                    (gap, CROSS, "")  # "would close a loop too early", worded when logged
                )
        if self.closable:
            # A closing edge that was allowed may no longer be: lines have appeared elsewhere.
            keep = []
            for h in self.closable:
                if self.st[h] != UNKNOWN:
                    continue
                x, y = g.edge_cells[h]
                if partner[x] == y and size[x] == self.nlines and circ[x] == total:
                    keep.append(h)
                else:
                    self.pending.append((h, CROSS, ""))
            self.closable = keep

    def note(self, text: str) -> None:
        if self.log is not None:
            self.log.append(text)
        if self.data is not None:
            self.data.append({"rule": _rule_of(text), "text": text, "line": [], "cross": []})

    def set_all(self, items: Iterable[tuple[int, int]], why: str) -> int:
        """Set several edges, logging one step for those that change; returns how many did."""
        done = [(e, v) for e, v in items if self.set(e, v)]
        if done and self.log is not None:
            text = f"{why}: " + ", ".join(self._fmt(e, v) for e, v in done)
            self.log.append(text)
            if self.data is not None:
                g = self.g
                self.data.append(
                    {
                        "rule": _rule_of(why),
                        "text": text,
                        "line": [g.edge_cells_1based(e) for e, v in done if v == LINE],
                        "cross": [g.edge_cells_1based(e) for e, v in done if v == CROSS],
                    }
                )
        return len(done)

    def _fmt(self, e: int, v: int) -> str:
        return f"{STATE_NAME[v]} {self.g.edge_text(e)}"

    # -- propagation (the intersection method) ----------------------------------------------

    def propagate(self) -> None:
        """Apply the degree rules, the loop rule and the circles' pattern intersections until
        nothing changes. Raises Contradiction."""
        g = self.g
        st, deg, unk, cell_edges = self.st, self.deg, self.unk, g.cell_edges
        pending, cellq, circq = self.pending, self.cellq, self.circq
        logged = self.log is not None  # reasons are worded only when they are logged
        while True:
            if pending:
                e, v, why = pending.pop()
                if e < 0:  # the loop closed: everything else is a cross
                    self.set_all(((f, CROSS) for f in range(g.ne) if st[f] == UNKNOWN), why)
                else:
                    if not why and logged:
                        why = f"{g.edge_text(e)} would close a loop too early"
                    self.set_all(((e, v),), why)
            elif cellq:
                c = cellq.pop()
                self.incell[c] = 0
                u = unk[c]
                d = deg[c]
                if d == 2:
                    if u:
                        self.set_all(
                            ((e, CROSS) for e in cell_edges[c] if st[e] == UNKNOWN),
                            f"{g.cell_text(c)} has two lines" if logged else "",
                        )
                elif d == 1:
                    if u == 0:
                        raise Contradiction(f"the line dead-ends at {g.cell_text(c)}")
                    if u == 1:
                        e = next(e for e in cell_edges[c] if st[e] == UNKNOWN)
                        why = f"the line must leave {g.cell_text(c)}" if logged else ""
                        self.set_all(((e, LINE),), why)
                elif u == 1:
                    e = next(e for e in cell_edges[c] if st[e] == UNKNOWN)
                    why = f"{g.cell_text(c)} is a dead end" if logged else ""
                    self.set_all(((e, CROSS),), why)
            elif circq:
                k = circq.pop()
                self.incirc[k] = 0
                self.intersect(k)
            else:
                return

    def intersect(self, k: int) -> int:
        """Set what all of circle k's surviving patterns share (the intersection method).

        Patterns are struck out as soon as an edge they need the other way is decided (in
        :meth:`set`); the common part changes only then, so it is computed only then.
        """
        mask = self.alive[k]
        if not mask:
            raise Contradiction(f"no pattern of the {self.g.circle_text(k)} fits")
        if mask == self.done[k]:
            return 0
        self.done[k] = mask
        st = self.st
        pats = self.g.patterns[k]
        live = [pats[p] for p in range(len(pats)) if mask >> p & 1]
        first, rest = live[0], live[1:]
        common = [
            (e, v)
            for e, v in first.items
            if st[e] == UNKNOWN and all(q.need.get(e) == v for q in rest)
        ]
        if not common:
            return 0
        if self.log is None:  # words only when they are logged (this runs very often)
            why = ""
        elif len(live) == 1:
            why = f"the {self.g.circle_text(k)} can only go {first.name}"
        else:
            why = f"all {len(live)} possible patterns of the {self.g.circle_text(k)} agree"
        return self.set_all(common, why)

    # -- reading the result -------------------------------------------------------------------

    def answer(self) -> Answer:
        g = self.g
        return edges_answer(g.edge_coord[e] for e in range(g.ne) if self.st[e] == LINE)

    def undecided_circle(self, k: int) -> bool:
        """Whether some edge of circle k's surviving patterns is still unknown."""
        st = self.st
        pats = self.g.patterns[k]
        mask = self.alive[k]
        p = 0
        while mask:
            if mask & 1 and any(st[e] == UNKNOWN for e, _ in pats[p].items):
                return True
            mask >>= 1
            p += 1
        return False


# ---------------------------------------------------------------------------------------------
# The five heuristics (section III.B)


def heuristic_deductions(g: Geometry) -> list[tuple[int, int, str]]:
    """The lines that the paper's five heuristics draw, as (edge, LINE, reason).

    They need no search: each follows from the clues near one circle. (The intersection method
    would find them too; they come first, as in the paper, and count apart in the figures.)
    An edge off the board among them means the clues contradict each other.

    >>> g = Geometry(board_from_rows(["1...", "....", "....", "...."]))
    >>> [(g.edge_text(e), why[:11]) for e, v, why in heuristic_deductions(g)][:2]
    [('(1,1)-(2,1)', 'heuristic 1'), ('(2,1)-(3,1)', 'heuristic 1')]
    """
    out: list[tuple[int, int, str]] = []
    m, n, ed = g.m, g.n, g.edge
    kind = g.board.kind

    def leg(i: int, j: int, d: int, why: str) -> None:
        di, dj = STEP[d]
        out.append((ed(i, j, d), LINE, why))
        out.append((ed(i + di, j + dj, d), LINE, why))

    def black(i: int, j: int) -> bool:
        return g.inside(i, j) and kind(i, j) == BLACK

    def white(i: int, j: int) -> bool:
        return g.inside(i, j) and kind(i, j) == WHITE

    for c in g.circles:
        i, j = divmod(c, n)
        where = g.cell_text(c)
        if kind(i, j) == BLACK:
            # 1. A leg needs two cells; too close to a border, the opposite leg is forced.
            for d in range(4):
                di, dj = STEP[d]
                if not g.inside(i + 2 * di, j + 2 * dj):
                    leg(
                        i,
                        j,
                        d ^ 1,
                        f"heuristic 1: black circle {where} is too near the "
                        f"{DIR_NAME[d]} border, its line runs two cells {DIR_NAME[d ^ 1]}",
                    )
            # 3. Two black circles side by side: each leg points away from the other.
            for d in range(4):
                di, dj = STEP[d]
                if black(i + di, j + dj):
                    leg(
                        i,
                        j,
                        d ^ 1,
                        f"heuristic 3: black circle {where} has a black neighbour "
                        f"to the {DIR_NAME[d]}, its line runs {DIR_NAME[d ^ 1]}",
                    )
            # 5. White circles on both diagonals of one side: the line leaves the other way.
            for d in range(4):
                di, dj = STEP[d]
                pi, pj = STEP[d ^ 2 if d < 2 else d - 2]  # a perpendicular step
                if white(i + di + pi, j + dj + pj) and white(i + di - pi, j + dj - pj):
                    leg(
                        i,
                        j,
                        d ^ 1,
                        f"heuristic 5: black circle {where} has white circles "
                        f"diagonally to the {DIR_NAME[d]}, its line runs {DIR_NAME[d ^ 1]}",
                    )
        else:
            # 2. A white circle on the border runs along it.
            if i in (0, m - 1):
                out += [
                    (
                        ed(i, j, d),
                        LINE,
                        f"heuristic 2: white circle {where} is on the "
                        "top or bottom border, the line runs along it",
                    )
                    for d in (WEST, EAST)
                ]
            if j in (0, n - 1):
                out += [
                    (
                        ed(i, j, d),
                        LINE,
                        f"heuristic 2: white circle {where} is on the "
                        "left or right border, the line runs along it",
                    )
                    for d in (NORTH, SOUTH)
                ]
            # 4. In a run of three or more white circles, the line crosses every one of them.
            for run_dirs, cross_dirs in (
                ((WEST, EAST), (NORTH, SOUTH)),
                ((NORTH, SOUTH), (WEST, EAST)),
            ):
                length = 1
                for d in run_dirs:
                    di, dj = STEP[d]
                    x, y = i + di, j + dj
                    while white(x, y):
                        length += 1
                        x, y = x + di, y + dj
                if length >= 3:
                    out += [
                        (
                            ed(i, j, d),
                            LINE,
                            f"heuristic 4: white circle {where} is in a run "
                            f"of {length} white circles, the line crosses the run",
                        )
                        for d in cross_dirs
                    ]
    return out


# ---------------------------------------------------------------------------------------------
# The solver


class Deducer:
    """Runs the paper's three stages on one board and keeps its figures.

    ``depth`` is how deep elimination search nests (see the module notes): 0 stops after the
    heuristics and the intersection method, 1 is the paper's assumption + intersection, and
    ``d`` propagates every assumption by elimination search of depth ``d - 1``. Deeper levels
    are tried only when the shallower ones have nothing more to give, and after every success
    the solver returns to the shallowest level (iterative deepening), so a deeper setting
    costs nothing on boards the shallower one finishes. The constructor's default is 1 (what
    :mod:`dlxsat.generators.masyu` relies on); :func:`solve` uses :data:`DEFAULT_DEPTH`.

    ``decided`` counts the edges each stage decided: ``heuristics``, ``intersection`` (the
    propagation), ``elimination`` (what a refuted assumption, or the common result of all
    surviving assumptions, decides directly; the propagation that follows counts as
    intersection again, as in the paper). ``seconds`` splits the time the same way: the
    heuristics, the propagation on the board itself, and the assumptions (everything done
    inside them, at every depth, counts as elimination).
    """

    def __init__(
        self,
        board: Board | None,
        *,
        explain: bool = False,
        deadline: float | None = None,
        depth: int = 1,
        _inner: tuple[Geometry, State, dict[int, tuple[list[int], list[int]]]] | None = None,
    ):
        if _inner is None:
            assert board is not None
            self.g = Geometry(board)
            self.state = State(self.g)
            self._near_cache: dict[int, tuple[list[int], list[int]]] = {}
        else:  # a nested search inside an assumption: shares the geometry and the cache
            self.g, self.state, self._near_cache = _inner
        self.steps: list[str] | None = [] if explain else None
        self.steps_data: list[dict[str, Any]] | None = [] if explain else None
        self.state.log = self.steps
        self.state.data = self.steps_data
        self.deadline = deadline
        self.depth = depth
        self.decided = {"heuristics": 0, "intersection": 0, "elimination": 0}
        self.seconds = {"heuristics": 0.0, "intersection": 0.0, "elimination": 0.0}
        self.hypotheses = 0
        self.refutations = 0
        self.deepest = 0  # the deepest level of elimination search that taught something
        # A nested search looks only near what its assumption changed (see _assume).
        self.local = _inner is not None
        self._cursor: dict[int, int] = {}  # where each deeper level's sweep resumes
        self._fill()

    def _tick(self) -> None:
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise Timeout

    def _propagate(self) -> None:
        t = time.perf_counter()
        before = self.state.ndecided
        try:
            self.state.propagate()
        finally:
            self.decided["intersection"] += self.state.ndecided - before
            self.seconds["intersection"] += time.perf_counter() - t

    def heuristics(self) -> None:
        """Stage 1 (raises Contradiction when the clues contradict each other)."""
        t = time.perf_counter()
        s = self.state
        before = s.ndecided
        # One step per heuristic application (consecutive deductions with the same reason).
        groups: list[tuple[str, list[tuple[int, int]]]] = []
        for e, v, why in heuristic_deductions(self.g):
            if e == self.g.sentinel:
                raise Contradiction(why.split(": ", 1)[1] + " -- but it cannot")
            if groups and groups[-1][0] == why:
                groups[-1][1].append((e, v))
            else:
                groups.append((why, [(e, v)]))
        for why, items in groups:
            s.set_all(items, why)
        self.decided["heuristics"] += s.ndecided - before
        self.seconds["heuristics"] += time.perf_counter() - t

    def run(self, eliminate: bool = True, edges: bool = True) -> str:
        """Deduce as far as possible: ``solved``, ``none``, ``stalled`` or ``timeout``.

        ``eliminate=False`` is depth 0 (no elimination search)."""
        if not eliminate:
            self.depth = 0
        try:
            self.heuristics()
            self._propagate()
            if self.depth:
                self._fill()
                self.saturate(edges)
        except Contradiction as why:
            self.state.note(f"contradiction: {why}; the puzzle has no answer")
            return "none"
        except Timeout:
            return "timeout"
        return "solved" if self.state.closed else "stalled"

    def saturate(self, edges: bool = True) -> None:
        """Elimination search until the board is finished or nothing more follows, shallowest
        level first (raises Contradiction, Timeout)."""
        while not self.state.closed:
            if self.depth >= 1 and self.eliminate(edges):
                continue
            for level in range(2, self.depth + 1):
                if self._sweep(level, edges):
                    self._touch()  # back to level 1, near what changed
                    break
            else:
                return

    # -- elimination search (section III.D) -----------------------------------------------------

    def _assume(self, items: Iterable[tuple[int, int]], level: int) -> State | Contradiction:
        """The state after assuming ``items`` and propagating (by elimination search of depth
        ``level - 1`` when ``level > 1``), or the contradiction it meets."""
        self._tick()
        self.hypotheses += 1
        s = self.state.copy()
        try:
            for e, v in items:
                s.set(e, v)
            s.propagate()
            if level > 1 and not s.closed:
                inner = Deducer(
                    None,
                    deadline=self.deadline,
                    depth=level - 1,
                    _inner=(self.g, s, self._near_cache),
                )
                try:
                    inner.saturate()
                finally:
                    self.hypotheses += inner.hypotheses
        except Contradiction as why:
            return why
        return s

    def _common(self, results: list[State]) -> list[tuple[int, int]]:
        """What every one of the assumption states decided that the main state has not."""
        main = self.state.st
        first, rest = results[0], results[1:]
        out = []
        for e in first.trail:
            v = first.st[e]
            if main[e] == UNKNOWN and all(r.st[e] == v for r in rest):
                out.append((e, v))
        return out

    def _apply(self, items: list[tuple[int, int]], why: str) -> None:
        """Apply the direct results of an elimination, then propagate."""
        s = self.state
        before = s.ndecided
        s.set_all(items, why)
        self.decided["elimination"] += s.ndecided - before
        self._propagate()

    # Which assumptions to try next at depth 1. Circles and edges near the last changes first
    # (an assumption far from them fails the same way as before); when those give nothing, one
    # more sweep over everything, so that the result does not depend on the order. Deeper
    # levels sweep everything (they run only when depth 1 has nothing left).

    def _near(self, c: int) -> tuple[list[int], list[int]]:
        """Circles within 3 cells of cell c and edges within 2 cells of it (cached)."""
        got = self._near_cache.get(c)
        if got is None:
            g = self.g
            i, j = divmod(c, g.n)
            circles: list[int] = []
            edges: set[int] = set()
            for x in range(max(0, i - 3), min(g.m, i + 4)):
                for y in range(max(0, j - 3), min(g.n, j + 4)):
                    d = x * g.n + y
                    if g.circle_of[d] >= 0:
                        circles.append(g.circle_of[d])
                    if abs(x - i) <= 2 and abs(y - j) <= 2:
                        edges.update(e for e in g.cell_edges[d] if e != g.sentinel)
            got = self._near_cache[c] = (circles, sorted(edges))
        return got

    def _fill(self) -> None:
        """Queue every circle and every edge (a full sweep); in a nested search, only those
        near what the assumption changed."""
        if self.local:
            self._circleq: deque[int] = deque()
            self._edgeq: deque[int] = deque()
            self._cq_in = bytearray(len(self.g.circles))
            self._eq_in = bytearray(self.g.ne)
            self._seen = 0
            self._touch()
            self._changed = False
            return
        self._circleq = deque(range(len(self.g.circles)))
        self._edgeq = deque(range(self.g.ne))
        self._cq_in = bytearray([1]) * len(self._circleq)
        self._eq_in = bytearray([1]) * len(self._edgeq)
        self._seen = len(self.state.trail)
        self._changed = False

    def _touch(self) -> None:
        """Queue the circles and edges near what the main state decided since the last call."""
        trail = self.state.trail
        cq, eq, cq_in, eq_in = self._circleq, self._edgeq, self._cq_in, self._eq_in
        for e in trail[self._seen :]:
            for c in self.g.edge_cells[e]:
                circles, edges = self._near(c)
                for k in circles:
                    if not cq_in[k]:
                        cq_in[k] = 1
                        cq.append(k)
                for f in edges:
                    if not eq_in[f]:
                        eq_in[f] = 1
                        eq.append(f)
        self._seen = len(trail)
        self._changed = True

    def eliminate(self, edges: bool = True) -> bool:
        """One step of depth-1 elimination search: True when it taught something (then
        propagated)."""
        if self.eliminate_circles() or (edges and self.eliminate_edges()):
            self._touch()
            return True
        if self._changed and not self.local:  # nothing near the changes: sweep all once more
            self._fill()
            if self.eliminate_circles() or (edges and self.eliminate_edges()):
                self._touch()
                return True
        return False

    def _sweep(self, level: int, edges: bool) -> bool:
        """Try the undecided circles, then the unknown edges, at ``level``; True at the first
        that teaches something. The main search sweeps everything, resuming after the last
        success (so a success does not make it retry what just failed); a nested one only
        what lies near its assumption's changes."""
        g, s = self.g, self.state
        if self.local:
            near_c, near_e = set(), set()
            for e in s.trail:
                for c in g.edge_cells[e]:
                    circles, es = self._near(c)
                    near_c.update(circles)
                    near_e.update(es)
            items = [(0, k) for k in sorted(near_c)] + [(1, e) for e in sorted(near_e)]
        else:
            items = [(0, k) for k in range(len(g.circles))] + [(1, e) for e in range(g.ne)]
        if not edges:
            items = [item for item in items if item[0] == 0]
        start = self._cursor.get(level, 0) % max(1, len(items))
        for t in range(len(items)):
            kind, x = items[(start + t) % len(items)]
            if kind == 0:
                hit = s.undecided_circle(x) and self._timed(self._try_circle, x, level)
            else:
                hit = s.st[x] == UNKNOWN and self._timed(self._try_edge, x, level)
            if hit:
                self._cursor[level] = start + t
                return True
        return False

    def _timed(self, attempt: Callable[[int, int], bool], what: int, level: int) -> bool:
        """Run one attempt, charging its time to elimination except the propagation on the
        main board that follows a success (which is intersection, as in the paper)."""
        t = time.perf_counter()
        before = self.seconds["intersection"]
        try:
            return attempt(what, level)
        finally:
            spent = time.perf_counter() - t - (self.seconds["intersection"] - before)
            self.seconds["elimination"] += spent

    def eliminate_circles(self) -> bool:
        """Try the patterns of queued circles until one assumption teaches something."""
        q = self._circleq
        while q:
            k = q.popleft()
            self._cq_in[k] = 0
            if self.state.undecided_circle(k) and self._timed(self._try_circle, k, 1):
                if not self._cq_in[k]:  # it may have more to give
                    self._cq_in[k] = 1
                    q.appendleft(k)
                return True
        return False

    def eliminate_edges(self) -> bool:
        """Assume line, then cross, for queued unknown edges until one teaches something."""
        q = self._edgeq
        while q:
            e = q.popleft()
            self._eq_in[e] = 0
            if self.state.st[e] == UNKNOWN and self._timed(self._try_edge, e, 1):
                return True
        return False

    def _try_circle(self, k: int, level: int) -> bool:
        """Assume each surviving pattern of circle k in turn (at ``level``)."""
        g, s = self.g, self.state
        pats = g.patterns[k]
        results, refuted, reasons = [], [], []
        mask = s.alive[k]
        for p in range(len(pats)):
            if mask >> p & 1:
                r = self._assume(pats[p].items, level)
                if isinstance(r, Contradiction):
                    refuted.append(p)
                    reasons.append(f"{pats[p].name} ({r})")
                else:
                    results.append(r)
        deep = f" (depth {level})" if level > 1 else ""
        if refuted:
            self.refutations += len(refuted)
            self.deepest = max(self.deepest, level)
            s.note(
                f"elimination{deep}: assuming the {g.circle_text(k)} goes "
                + "; or ".join(reasons)
                + " -- impossible"
            )
            for p in refuted:
                s.alive[k] &= ~(1 << p)
            before = s.ndecided
            s.intersect(k)
            self.decided["elimination"] += s.ndecided - before
            self._propagate()
            return True
        common = self._common(results)
        if common:
            self.deepest = max(self.deepest, level)
            self._apply(
                common,
                f"elimination{deep}: every possible pattern of the {g.circle_text(k)} leads to",
            )
            return True
        return False

    def _try_edge(self, e: int, level: int) -> bool:
        """Assume a line, then a cross, on edge e (at ``level``)."""
        g = self.g
        deep = f" (depth {level})" if level > 1 else ""
        results = []
        for v in (LINE, CROSS):
            r = self._assume(((e, v),), level)
            if isinstance(r, Contradiction):
                self.refutations += 1
                self.deepest = max(self.deepest, level)
                other = CROSS if v == LINE else LINE
                self._apply(
                    [(e, other)],
                    f"elimination{deep}: a {STATE_NAME[v]} on {g.edge_text(e)} leads to a "
                    f"contradiction ({r})",
                )
                return True
            results.append(r)
        common = self._common(results)
        if common:
            self.deepest = max(self.deepest, level)
            self._apply(
                common, f"elimination{deep}: both a line and a cross on {g.edge_text(e)} lead to"
            )
            return True
        return False

    # -- figures ------------------------------------------------------------------------------

    def stats(self, seconds: float) -> dict[str, Any]:
        """The figures of the paper's Table I for this board, and a few more.

        This is the one place they are computed; the CLI prints them and the benchmark reads
        them. ``elimination_share`` is the per cent of the board's edges that elimination
        search decided directly; ``elimination_seconds_per_percent`` its time divided by that
        share; ``intersection_seconds_per_percent`` the time of the heuristics and the
        propagation on the board divided by the share they decided (the paper's "heuristic
        and testing" column). Times inside assumptions count as elimination.
        """
        ne = self.g.ne
        share = {k: (100.0 * v / ne if ne else 0.0) for k, v in self.decided.items()}
        el_s = self.seconds["elimination"]
        in_s = self.seconds["intersection"] + self.seconds["heuristics"]
        other_share = share["heuristics"] + share["intersection"]
        return {
            "seconds": round(seconds, 6),
            "edges": ne,
            "decided": self.state.ndecided,
            "by_heuristics": self.decided["heuristics"],
            "by_intersection": self.decided["intersection"],
            "by_elimination": self.decided["elimination"],
            "elimination_share": round(share["elimination"], 2),
            "heuristics_seconds": round(self.seconds["heuristics"], 6),
            "intersection_seconds": round(self.seconds["intersection"], 6),
            "elimination_seconds": round(el_s, 6),
            "elimination_seconds_per_percent": round(el_s / share["elimination"], 6)
            if share["elimination"]
            else None,
            "intersection_seconds_per_percent": round(in_s / other_share, 6)
            if other_share
            else None,
            "hypotheses": self.hypotheses,
            "refutations": self.refutations,
            "depth": self.depth,
            "deepest": self.deepest,
        }


def _rule_of(text: str) -> str:
    """The stage a logged step belongs to, for the structured explanation."""
    for rule in ("heuristic", "elimination", "contradiction", "stalled"):
        if text.startswith(rule):
            return "heuristics" if rule == "heuristic" else rule
    return "intersection"


# ---------------------------------------------------------------------------------------------
# The fallback search


def _branches(s: State) -> list[list[tuple[int, int]]]:
    """A partition of the remaining answers of ``s``: a list of alternative assumptions."""
    g = s.g
    st, deg, unk = s.st, s.deg, s.unk
    best, best_u = -1, 5
    # Continue a fragment from the end with the fewest ways on: exactly one of them is a line.
    for c in range(g.ncells):
        if deg[c] == 1 and unk[c] < best_u:
            best, best_u = c, unk[c]
            if best_u <= 2:
                break
    if best >= 0:
        return [[(e, LINE)] for e in g.cell_edges[best] if st[e] == UNKNOWN]
    # No line yet: a line or a cross at a circle (or at any edge when there are no circles).
    for c in g.circles:
        for e in g.cell_edges[c]:
            if st[e] == UNKNOWN:
                return [[(e, LINE)], [(e, CROSS)]]
    for e in range(g.ne):
        if st[e] == UNKNOWN:
            return [[(e, LINE)], [(e, CROSS)]]
    return []


def search(
    start: State,
    limit: int | None,
    keep: int | None,
    deadline: float | None,
    max_nodes: int | None = None,
) -> tuple[int, list[Answer], bool, int]:
    """Depth-first search from ``start``: (answers counted, answers kept, exhausted, nodes).

    Each node propagates by the intersection method; a node is an answer when its loop closed.
    The search stops after ``limit`` answers or ``max_nodes`` nodes (then ``exhausted`` is
    False); it raises :class:`Timeout` (with the figures so far) at the deadline.
    """
    count, nodes = 0, 0
    kept: list[Answer] = []
    stack = [start]
    while stack:
        if deadline is not None and time.perf_counter() > deadline:
            raise Timeout((count, kept, nodes))
        if max_nodes is not None and nodes >= max_nodes:
            return count, kept, False, nodes
        s = stack.pop()
        nodes += 1
        if s.closed:
            count += 1
            if keep is None or len(kept) < keep:
                kept.append(s.answer())
            if limit is not None and count >= limit:
                return count, kept, False, nodes
            continue
        children = []
        for items in _branches(s):
            t = s.copy()
            try:
                for e, v in items:
                    t.set(e, v)
                t.propagate()
            except Contradiction:
                continue
            children.append(t)
        stack.extend(reversed(children))
    return count, kept, True, nodes


def solve(
    puzzle: Any, request: Request | None = None, options: Mapping[str, Any] | None = None
) -> SearchResult:
    """Solve a Masyu puzzle (a :class:`~dlxsat.families.masyu.MasyuPuzzle`, or its rows) by
    reasoning (see the module docstring), as ``request`` asks (a
    :class:`dlxsat.solvers.Request`; default: ``unique`` mode, no time limit).

    ``request.mode`` is ``unique`` (one answer proven unique, or two found by the fallback),
    ``count`` or ``all`` (which need the fallback unless deductions finish the board).
    ``request.keep`` bounds the answers kept in ``count`` mode (the pipeline checks them; see
    :data:`dlxsat.solvers.CHECKED_WHEN_COUNTING`). ``request.deadline`` bounds the whole run,
    deductions and fallback search alike; at the limit the result says ``timed_out`` with the
    figures reached so far; ``request.found`` is told the answers found. ``options``:
    ``explain``, ``fallback``, ``depth`` (the depth of elimination search; 0: heuristics and
    intersection only) and ``eliminate`` (False: depth 0).
    """
    request = request or Request.for_mode("unique")
    result = _solve(
        puzzle,
        mode=request.mode,
        timeout=request.deadline.remaining(),
        keep=request.keep,
        **(options or {}),
    )
    request.found(result.count or 0)
    return result


def _solve(
    puzzle: Any,
    *,
    mode: str,
    timeout: float | None,
    keep: int | None,
    explain: bool = False,
    fallback: bool = False,
    depth: int = DEFAULT_DEPTH,
    eliminate: bool = True,
) -> SearchResult:
    """:func:`solve` with the request's figures and the options spelled out."""
    start = time.perf_counter()
    deadline = start + timeout if timeout is not None else None
    board = board_from_puzzle(puzzle)
    d = Deducer(board, explain=explain, deadline=deadline, depth=depth if eliminate else 0)
    result = d.run()
    steps = d.steps if d.steps is not None else []
    s = d.state

    def outcome(**fields: Any) -> SearchResult:
        extra = fields.pop("extra", {})
        stats = d.stats(time.perf_counter() - start)
        stats["deduction"] = result
        stats.update(extra)
        if d.steps_data is not None:
            stats["steps"] = d.steps_data
        return SearchResult(stats=stats, steps=steps, **fields)

    if result == "solved":
        return outcome(count=1, exhausted=True, answers=[s.answer()])
    if result == "none":
        return outcome(count=0, exhausted=True)
    if result == "timeout":
        return outcome(count=0, timed_out=True)
    if not fallback:
        s.note(f"stalled: {s.ndecided} of {d.g.ne} edges decided; the strategies go no further")
        return outcome(count=None, stalled=True)
    s.note(f"stalled after {s.ndecided} of {d.g.ne} edges; searching the rest")
    limit = 2 if mode == "unique" else None
    kept_most = keep if mode == "count" else None
    try:
        count, kept, exhausted, nodes = search(s, limit, kept_most, deadline)
    except Timeout as t:
        count, kept, nodes = t.args[0]
        return outcome(count=count, answers=kept, timed_out=True, extra={"search_nodes": nodes})
    return outcome(count=count, answers=kept, exhausted=exhausted, extra={"search_nodes": nodes})
