"""Global rules: what the chosen options must do *together*, beyond covering items.

An exact-cover problem is local: each option says which items it covers, and an answer is a
set of options covering every primary item as often as its bounds say. Many puzzles add one
rule about the answer as a whole that no option can see -- one loop, one connected sea, paths
without cycles. Knuth handled the single loop inside his solver (DLX2-LOOP); dlxsat declares
such rules as parts of the problem (:attr:`Problem.rules <dlxsat.xcc.model.Problem.rules>`),
so that every backend enforces them and every checker checks them, knowing nothing of puzzles:

:class:`SingleLoop`
    The edges given color ``1`` form one cycle (DLX2-LOOP's rule). Its graph is explicit:
    vertex items (primary) and edge items (secondary) joining two of them. Knuth's own data
    declare it by their names (:func:`SingleLoop.from_names`, docs/conventions.md §4).
:class:`Connected`
    The *members* present in an answer form one connected set over the declared links; or,
    with ``roots``, every connected piece holds a root member (a piece "touches the border").
:class:`Acyclic`
    The members present, each an edge between two vertices, hold no cycle (paths or trees).
:class:`Sized`
    The members present fall into connected pieces of the sizes the rule gives: one size for
    every piece, or one anchor in every piece and the anchor's size (islands around clues).

A *member* is an entry kind ``(item, color)``: it is present when a chosen option has that
item with that color (``color`` None: the item is covered at all). A shaded cell is typically
``(cell item, "1")``, a white one ``(cell item, "0")``, a loop edge ``(edge item, "1")``.

In Knuth's text format (:mod:`dlxsat.xcc.dlxformat`) a rule is a block of comment lines that
begin ``|@``, so his solvers still read the data (and solve it without the rule)::

    |@loop                      the single loop, its graph from the names (empty: not allowed)
    |@loop or-empty             ... the empty edge set counts as a loop, as in DLX2-LOOP
    |@connected LABEL           a Connected rule (LABEL optional: named in messages)
    |@members 11:0 13:0 31:0    its members, item:color or item (more lines add more)
    |@links 11 13 11 31         pairs of member items, linked; or "|@links grid"
    |@roots 11 13               (optional) root members; or "|@roots border"
    |@acyclic LABEL             an Acyclic rule
    |@members 01:1 10:1 12:1    its members (edges)
    |@ends a b a c              the two vertices of each member, in order; or "|@ends grid"
    |@sized LABEL               a Sized rule: |@members and |@links as for connected, then
    |@size 4                    every piece has 4 members (|@size 4+: at least 4); or
    |@anchors 11 3 57 5         anchors: 11 in a piece of 3, 57 in a piece of 5
    |@owners 11 n11 57 n57      (optional) an owner item per anchor: see Sized.owners
    |@prefer lazy               (optional) the mode it asks for where the backends' is auto

``grid`` links join members whose items are named by coordinates (docs/conventions.md §4)
two apart in one coordinate: the orthogonal neighbours of a cell ``(2i+1, 2j+1)``. ``grid``
ends are the two tiles an edge midpoint joins. ``border`` roots are the members whose point
lies on the outer rows or columns of all the members' points.

>>> from dlxsat.xcc import parse
>>> p = parse("|@connected\\n|@members x:1 y:1\\n|@links x y\\na b | x y\\na x:1\\nb y:1\\n"
...           "a x:0\\nb y:0\\n")
>>> p.rules[0].kind, [p.items[i].name for i, _ in p.rules[0].members], p.rules[0].links
('connected', ['x', 'y'], ((0, 1),))
>>> violation(p, p.rules[0], [0, 3]), violation(p, p.rules[0], [0, 1])
(None, None)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from ..errors import InputError
from .loop import ON, LoopGraph, connected_pieces, edge_ends, loop_graph
from .names import parse_point_name

if TYPE_CHECKING:
    from .model import Problem

#: An entry kind: (item index, color), the color None for "covered at all".
Member = tuple[int, "str | None"]

#: The kinds of global rule, in the order of the option flags and the docs.
KINDS = ("loop", "connected", "acyclic", "sized")
#: The modes a :class:`Sized` rule may prefer (``|@prefer MODE``).
PREFERENCES = ("lazy", "eager")


@dataclass(frozen=True)
class SingleLoop:
    """The edges colored ``1`` (:data:`~dlxsat.xcc.loop.ON`) form one cycle.

    ``graph`` holds the vertex and edge items (:class:`~dlxsat.xcc.loop.LoopGraph`);
    ``allow_empty``: the empty edge set counts as a loop too, as in Knuth's DLX2-LOOP (his
    counts), never for a puzzle's answer.
    """

    graph: LoopGraph = field(compare=False)
    allow_empty: bool = False
    kind: ClassVar[str] = "loop"

    @classmethod
    def from_names(cls, problem: Problem, allow_empty: bool = False) -> SingleLoop:
        """The rule over the items named as vertices and edges (Knuth's convention)."""
        return cls(loop_graph(problem), allow_empty)

    @property
    def label(self) -> str:
        return ""

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SingleLoop):
            return NotImplemented
        return (self.graph.vertices, self.graph.edges, self.allow_empty) == (
            other.graph.vertices,
            other.graph.edges,
            other.allow_empty,
        )

    def __hash__(self) -> int:
        return hash((self.graph.edges, self.allow_empty))

    def members(self) -> tuple[Member, ...]:
        """The edges as members: present when colored ``1``."""
        return tuple((e, ON) for e, _, _ in self.graph.edges)


@dataclass(frozen=True)
class Connected:
    """The members present form one connected set over ``links`` (pairs of member positions);
    with ``roots`` (member positions), each connected piece must hold a root instead.

    The empty set is connected. ``label`` names the rule in messages (``sea``, ``white``).
    """

    members: tuple[Member, ...]
    links: tuple[tuple[int, int], ...]
    roots: tuple[int, ...] | None = None
    label: str = ""
    kind: ClassVar[str] = "connected"

    def __post_init__(self) -> None:
        n = len(self.members)
        if any(not (0 <= a < n and 0 <= b < n) or a == b for a, b in self.links):
            raise ValueError("a link must join two different members")
        if self.roots is not None and any(not 0 <= r < n for r in self.roots):
            raise ValueError("a root must be a member")
        object.__setattr__(
            self, "links", tuple(sorted({(min(a, b), max(a, b)) for a, b in self.links}))
        )
        if self.roots is not None:
            object.__setattr__(self, "roots", tuple(sorted(set(self.roots))))

    def neighbours(self) -> list[list[int]]:
        """Member position → the positions linked to it."""
        adj: list[list[int]] = [[] for _ in self.members]
        for a, b in self.links:
            adj[a].append(b)
            adj[b].append(a)
        return adj


@dataclass(frozen=True)
class Acyclic:
    """The members present, member ``k`` an edge joining vertices ``ends[k]``, contain no
    cycle. The vertices may be given any numbers: they are renumbered 0, 1, 2, ... in the order
    they first appear, so that two rules of the same graph are equal.

    >>> Acyclic(((0, "1"), (1, "1")), ((7, 9), (9, 4))).ends
    ((0, 1), (1, 2))
    """

    members: tuple[Member, ...]
    ends: tuple[tuple[int, int], ...]
    label: str = ""
    kind: ClassVar[str] = "acyclic"

    def __post_init__(self) -> None:
        if len(self.ends) != len(self.members):
            raise ValueError("every member of an acyclic rule needs its two ends")
        if any(u == v for u, v in self.ends):
            raise ValueError("an edge of an acyclic rule must join two different vertices")
        number: dict[int, int] = {}
        ends = tuple(
            (number.setdefault(u, len(number)), number.setdefault(v, len(number)))
            for u, v in self.ends
        )
        object.__setattr__(self, "ends", ends)


@dataclass(frozen=True)
class Sized:
    """The members present fall into connected pieces over ``links``, and every piece has the
    size the rule gives it: ``size`` members for every piece (with ``at_least``: ``size`` or
    more); or, with ``anchors`` (pairs ``(member position, size)``), exactly one anchor present
    in every piece and that anchor's size of members.

    The empty set keeps it. Fillomino's cells of one number (``size``: the number) and
    Nurikabe's islands (``anchors``: the clues) are such pieces; ``at_least`` lets Fillomino
    stand for every region larger than a bound by one label, so that a bound can be proved
    large enough (no answer uses that label). ``label`` names the rule in messages.

    >>> Sized(((0, "1"), (1, "1")), ((0, 1),), anchors=((1, 2),)).anchors
    ((1, 2),)
    """

    members: tuple[Member, ...]
    links: tuple[tuple[int, int], ...]
    size: int | None = None
    anchors: tuple[tuple[int, int], ...] = ()
    label: str = ""
    at_least: bool = False
    #: The mode the rule asks the SAT and CP-SAT backends for when theirs is ``auto``
    #: (:data:`PREFERENCES`; None: the backends' own choice, :func:`dlxsat.backends.covering.
    #: sized_mode`). What is known of the rule's instances, stated once where the rule is made
    #: (Nurikabe's islands: lazy, with the figures beside :data:`dlxsat.families.nurikabe.
    #: SIZED_MODE`); no part of what the rule means, so rules differing in it are equal.
    prefer: str | None = field(default=None, compare=False)
    #: Pairs ``(anchor member position, item index)``: an anchor's *owner* item, a primary item
    #: covered by the options that make the anchor's piece present and by no other: a member
    #: is in that anchor's piece exactly when a chosen option covering the owner item makes it
    #: present (Nurikabe: a number's item ``n13``, covered by the white options of the cells it
    #: owns). What the options state, told to the backends: SAT and CP-SAT then join the
    #: anchor's piece in the formula by a distance labelling within its size
    #: (:func:`dlxsat.backends.covering.owned_reaches`) rather than by cuts alone. A wrong
    #: declaration loses answers, so rules differing in it differ.
    owners: tuple[tuple[int, int], ...] = ()
    kind: ClassVar[str] = "sized"

    def __post_init__(self) -> None:
        n = len(self.members)
        if any(not (0 <= a < n and 0 <= b < n) or a == b for a, b in self.links):
            raise ValueError("a link must join two different members")
        if (self.size is None) == (not self.anchors):
            raise ValueError("a sized rule gives one size to every piece, or anchors")
        if self.size is not None and self.size < 1:
            raise ValueError("a piece has at least one member")
        if self.at_least and self.size is None:
            raise ValueError("'at least' applies to one size for every piece, not to anchors")
        if any(not 0 <= m < n or size < 1 for m, size in self.anchors):
            raise ValueError("an anchor is a member with a size of at least 1")
        if len({m for m, _ in self.anchors}) != len(self.anchors):
            raise ValueError("a member is an anchor once")
        if self.prefer is not None and self.prefer not in PREFERENCES:
            raise ValueError(f"a sized rule prefers one of {', '.join(PREFERENCES)}")
        anchored = {m for m, _ in self.anchors}
        if any(m not in anchored for m, _ in self.owners):
            raise ValueError("an owner item belongs to an anchor")
        if len({m for m, _ in self.owners}) != len(self.owners):
            raise ValueError("an anchor has one owner item")
        object.__setattr__(self, "owners", tuple(sorted(self.owners)))
        object.__setattr__(
            self, "links", tuple(sorted({(min(a, b), max(a, b)) for a, b in self.links}))
        )
        object.__setattr__(self, "anchors", tuple(sorted(self.anchors)))

    def neighbours(self) -> list[list[int]]:
        """Member position → the positions linked to it."""
        adj: list[list[int]] = [[] for _ in self.members]
        for a, b in self.links:
            adj[a].append(b)
            adj[b].append(a)
        return adj

    def fault(self, piece: Sequence[int], closed: bool) -> str | None:
        """What is wrong with a connected ``piece`` of present members (positions): when
        ``closed`` it is a whole piece; otherwise only what no larger piece can mend (too many
        members, two anchors). None when nothing is."""
        anchored = dict(self.anchors)
        held = [m for m in piece if m in anchored]
        if len(held) > 1:
            return f"holds {len(held)} anchors"
        want = self.size if self.size is not None else (anchored[held[0]] if held else None)
        if self.at_least and want is not None:
            if closed and len(piece) < want:
                return f"has {_members(len(piece))}, fewer than {want}"
            return None
        if want is not None and len(piece) > want:
            return f"has {_members(len(piece))}, more than {want}"
        if want is None and len(piece) > max(anchored.values()):
            # No anchor can be added to it without its size exceeding every anchor's.
            return f"has {_members(len(piece))} and no anchor, more than any anchor's size"
        if not closed:
            return None
        if want is None:
            return "holds no anchor"
        if len(piece) != want:
            return f"has {_members(len(piece))}, not {want}"
        return None


def _members(n: int) -> str:
    return f"{n} member" if n == 1 else f"{n} members"


Rule = SingleLoop | Connected | Acyclic | Sized


def kinds(rules: Iterable[Rule]) -> set[str]:
    """The kinds of these rules.

    >>> sorted(kinds([Connected(((0, None),), ())]))
    ['connected']
    """
    return {r.kind for r in rules}


# --------------------------------------------------------------------------- checking


def present(problem: Problem, chosen: Iterable[int], members: Sequence[Member]) -> list[bool]:
    """Which members the chosen options make present (see the module doc)."""
    where: dict[Member, int] = {m: k for k, m in enumerate(members)}
    anyc: dict[int, int] = {i: k for k, (i, c) in enumerate(members) if c is None}
    out = [False] * len(members)
    for k in chosen:
        for i, c in problem.options[k]:
            at = where.get((i, c))
            if at is not None:
                out[at] = True
            at = anyc.get(i)
            if at is not None:
                out[at] = True
    return out


def pieces(on: Sequence[int], links: Iterable[tuple[int, int]]) -> list[list[int]]:
    """The connected pieces of the members ``on`` (positions) over ``links``, each sorted,
    ordered by their least member (an isolated member is a piece of its own).

    >>> pieces([0, 1, 3], [(0, 1), (1, 2), (2, 3)])
    [[0, 1], [3]]
    """
    keep = set(on)
    parent = {m: m for m in keep}

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in links:
        if a in keep and b in keep:
            ra, rb = find(a), find(b)
            if ra != rb:
                parent[max(ra, rb)] = min(ra, rb)
    groups: dict[int, list[int]] = {}
    for m in sorted(keep):
        groups.setdefault(find(m), []).append(m)
    return sorted(groups.values())


def violation(problem: Problem, rule: Rule, chosen: Sequence[int]) -> str | None:
    """What the chosen options break of ``rule``, in one line naming items; None when they keep
    it. Written from the definitions alone, sharing no code with any backend's enforcement.

    >>> from dlxsat.xcc import parse
    >>> p = parse("|@acyclic\\n|@members x y z\\n|@ends 1 2 2 3 3 1\\na | x y z\\na x y z\\n"
    ...           "a x y\\n")
    >>> violation(p, p.rules[0], [0]), violation(p, p.rules[0], [1])
    ('rule acyclic: the members x y z form a cycle', None)
    """
    name = problem.items
    if isinstance(rule, SingleLoop):
        on = [e for e, _, _ in rule.graph.edges]
        shown = present(problem, chosen, [(e, ON) for e in on])
        used = [(e, u, v) for (e, u, v), s in zip(rule.graph.edges, shown, strict=True) if s]
        if not used:
            return None if rule.allow_empty else "rule loop: no edge is colored 1 (no loop at all)"
        degree: dict[int, int] = {}
        for _, u, v in used:
            degree[u] = degree.get(u, 0) + 1
            degree[v] = degree.get(v, 0) + 1
        odd = sorted(v for v, d in degree.items() if d != 2)
        if odd:
            v = odd[0]
            return f"rule loop: vertex {name[v].name} has {degree[v]} edges colored 1, not 0 or 2"
        parts = connected_pieces(used)
        if len(parts) > 1:
            return f"rule loop: the edges colored 1 form {len(parts)} loops, not a single loop"
        return None
    here = present(problem, chosen, rule.members)
    on = [k for k, s in enumerate(here) if s]
    label = f" {rule.label}" if rule.label else ""

    def names(ks: Iterable[int]) -> str:
        shown = [name[rule.members[k][0]].name for k in ks]
        return " ".join(shown[:6]) + (" ..." if len(shown) > 6 else "")

    if isinstance(rule, Sized):
        for part in pieces(on, rule.links):
            fault = rule.fault(part, closed=True)
            if fault is not None:
                return f"rule sized{label}: the piece of {names(part)} {fault}"
        return None
    if isinstance(rule, Connected):
        parts = pieces(on, rule.links)
        if rule.roots is None:
            if len(parts) > 1:
                return (
                    f"rule connected{label}: the members {names(parts[1])} are cut off from "
                    f"{names(parts[0])}"
                )
            return None
        roots = set(rule.roots)
        for part in parts:
            if not roots.intersection(part):
                return f"rule connected{label}: the members {names(part)} reach no root"
        return None
    parent: dict[int, int] = {}

    def find(x: int) -> int:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for k in on:
        u, v = rule.ends[k]
        ru, rv = find(u), find(v)
        if ru == rv:
            cycle = sorted(cycle_through(rule, on, k))
            return f"rule acyclic{label}: the members {names(cycle)} form a cycle"
        parent[ru] = rv
    return None


def cycle_through(rule: Acyclic, on: Sequence[int], closing: int) -> list[int]:
    """The members of a cycle that member ``closing`` closes among ``on`` (those before it
    in ``on`` hold no cycle), in order along the cycle, ``closing`` first."""
    before = on[: list(on).index(closing)]
    adj: dict[int, list[tuple[int, int]]] = {}
    for k in before:
        u, v = rule.ends[k]
        adj.setdefault(u, []).append((v, k))
        adj.setdefault(v, []).append((u, k))
    start, goal = rule.ends[closing]
    back: dict[int, tuple[int, int]] = {start: (start, -1)}
    stack = [start]
    while stack:  # the tree path from start to goal
        x = stack.pop()
        for y, k in adj.get(x, ()):
            if y not in back:
                back[y] = (x, k)
                stack.append(y)
    path = [closing]
    x = goal
    while x != start:
        x, k = back[x]
        path.append(k)
    return path


# --------------------------------------------------------------------------- cuts


@dataclass(frozen=True)
class Separation:
    """A cut of a :class:`Connected` rule: the clause ``not p(a) or not p(b) or p(s1) or ...``
    over the members' presence, ``boundary`` = ``(s1, s2, ...)`` (member positions).

    Without roots it says "a connected answer holding ``a`` and ``b`` holds a member of the
    boundary"; with roots ``b`` is None and it says "an answer holding ``a`` holds a member of
    the boundary" (the piece of ``a`` must reach a root). Search backends add such clauses
    lazily (:mod:`dlxsat.backends.rulecuts`); :func:`justified` says whether one is valid.
    """

    a: int
    b: int | None
    boundary: tuple[int, ...]

    def literals(self) -> list[tuple[int, bool]]:
        """The clause as (member position, presence) pairs, one of which must hold."""
        head = [(self.a, False)] + ([] if self.b is None else [(self.b, False)])
        return head + [(m, True) for m in self.boundary]


@dataclass(frozen=True)
class Cycle:
    """A cut of an :class:`Acyclic` rule: the clause ``not p(e1) or not p(e2) or ...``, the
    members ``(e1, e2, ...)`` (positions) closing a cycle, so not all of them are present."""

    members: tuple[int, ...]

    def literals(self) -> list[tuple[int, bool]]:
        """The clause as (member position, presence) pairs, one of which must hold."""
        return [(m, False) for m in self.members]


@dataclass(frozen=True)
class Piece:
    """A cut of a :class:`Sized` rule: the clause ``not p(h1) or not p(h2) or ... or p(g1) or
    p(g2) or ...``: not all the ``held`` members present unless one of the ``grown`` ones is.

    With ``grown`` the neighbours of ``held`` it says "``held`` is no whole piece" (it is too
    small, or holds no anchor); with no ``grown`` it says "``held`` is in no piece" (too many
    members for its size, two anchors).
    """

    held: tuple[int, ...]
    grown: tuple[int, ...] = ()

    def literals(self) -> list[tuple[int, bool]]:
        """The clause as (member position, presence) pairs, one of which must hold."""
        return [(m, False) for m in self.held] + [(m, True) for m in self.grown]


Cut = Separation | Cycle | Piece


def justified(rule: Rule, cut: Cut) -> str | None:
    """Why ``cut`` is not valid for every answer keeping ``rule``, in one line; None when it is.

    Written from the definitions alone, as :func:`violation` is, so that a cut a backend adds
    can be checked as a premise: it uses only the rule's members and links (or ends), never
    the options, so a member no option can make present still counts as a way through.

    * A :class:`Separation` of a :class:`Connected` rule without roots is valid iff every path
      from ``a`` to ``b`` over the links passes through the boundary: then a connected set
      holding both holds a boundary member. With roots (``b`` None): iff every path from ``a``
      to a root member passes through the boundary (``a`` itself no root).
    * A :class:`Cycle` of an :class:`Acyclic` rule is valid iff its members hold a cycle: then
      an answer holding them all has one.
    * A :class:`Piece` of a :class:`Sized` rule is valid iff its ``held`` members are connected
      and either ``grown`` holds all their neighbours and ``held`` is no right whole piece, or
      ``held`` cannot lie in any right piece (too many members for the size it must have, or
      two anchors), or the members reached from ``held`` avoiding ``grown`` (and the other
      anchors, when ``held`` holds one) are fewer than the size its piece must have (a *ball*
      cut: every piece holding ``held`` inside them is too small). (Sufficient conditions:
      a cut none of them shows valid is refused.)

    >>> rule = Connected(((0, None), (1, None), (2, None)), ((0, 1), (1, 2)))
    >>> justified(rule, Separation(0, 2, (1,))), justified(rule, Separation(0, 2, ()))
    (None, 'member 0 reaches member 2 avoiding the boundary')
    >>> tri = Acyclic(((0, None), (1, None), (2, None)), ((0, 1), (1, 2), (2, 0)))
    >>> justified(tri, Cycle((0, 1, 2))), justified(tri, Cycle((0, 1)))
    (None, 'the members 0 1 hold no cycle')
    """
    n = len(rule.members) if not isinstance(rule, SingleLoop) else 0
    if isinstance(rule, Connected) and isinstance(cut, Separation):
        ends = [cut.a] + ([] if cut.b is None else [cut.b])
        if any(not 0 <= m < n for m in (*ends, *cut.boundary)):
            return "a member position out of range"
        if (cut.b is None) != (rule.roots is not None):
            return (
                "a cut to the roots fits a rule with roots, a cut between two members one without"
            )
        wall = set(cut.boundary)
        if wall.intersection(ends):
            return "a member of the clause's head is in its boundary"
        goals = set(rule.roots) if rule.roots is not None else {cut.b}
        adj = rule.neighbours()
        seen, stack = {cut.a}, [cut.a]
        while stack:  # a search from a in the graph minus the boundary
            x = stack.pop()
            if x in goals:
                what = "a root" if rule.roots is not None else f"member {x}"
                via = f" ({x})" if rule.roots is not None else ""
                return f"member {cut.a} reaches {what}{via} avoiding the boundary"
            for y in adj[x]:
                if y not in seen and y not in wall:
                    seen.add(y)
                    stack.append(y)
        return None
    if isinstance(rule, Acyclic) and isinstance(cut, Cycle):
        if any(not 0 <= m < n for m in cut.members) or len(set(cut.members)) != len(cut.members):
            return "member positions out of range or repeated"
        parent: dict[int, int] = {}

        def find(x: int) -> int:
            parent.setdefault(x, x)
            while parent[x] != x:
                x = parent[x]
            return x

        for m in cut.members:
            u, v = (find(x) for x in rule.ends[m])
            if u == v:
                return None  # member m closes a cycle among those before it
            parent[u] = v
        return f"the members {' '.join(map(str, cut.members))} hold no cycle"
    if isinstance(rule, Sized) and isinstance(cut, Piece):
        if any(not 0 <= m < n for m in (*cut.held, *cut.grown)) or not cut.held:
            return "member positions out of range, or none held"
        held = set(cut.held)
        adj = rule.neighbours()
        start = cut.held[0]
        seen, stack = {start}, [start]
        while stack:
            for y in adj[stack.pop()]:
                if y in held and y not in seen:
                    seen.add(y)
                    stack.append(y)
        if seen != held:
            return "the held members are not connected"
        around = {y for x in held for y in adj[x]} - held
        closed = around <= set(cut.grown)
        if rule.fault(sorted(held), closed=closed) is None and not _bounded(rule, cut, adj):
            what = "a whole piece that is right" if closed else "part of a piece that may be right"
            return f"the held members may be {what}"
        return None
    return f"a {type(cut).__name__} is no cut of a {rule.kind} rule"


def _bounded(rule: Sized, cut: Piece, adj: list[list[int]]) -> bool:
    """Whether every piece holding ``cut.held`` and none of ``cut.grown`` is too small: the
    members reached from ``held`` avoiding ``grown`` -- and, when ``held`` holds an anchor,
    the other anchors (a piece holds one) -- are fewer than the size its piece must have."""
    anchored = dict(rule.anchors)
    mine = [m for m in cut.held if m in anchored]
    if len(mine) > 1 or (not mine and rule.size is None):
        return False
    want = rule.size if rule.size is not None else anchored[mine[0]]
    blocked = set(cut.grown) | (set(anchored) - set(mine) if mine else set())
    seen = set(cut.held)
    stack = list(cut.held)
    while stack and len(seen) < want:
        for y in adj[stack.pop()]:
            if y not in seen and y not in blocked:
                seen.add(y)
                stack.append(y)
    return len(seen) < want


# --------------------------------------------------------------------------- text


def _point_links(problem: Problem, members: Sequence[Member]) -> set[tuple[int, int]] | None:
    """The ``grid`` links of these members, or None when an item is not named by a point."""
    at: dict[tuple[int, int], int] = {}
    for k, (i, _) in enumerate(members):
        xy = parse_point_name(problem.items[i].name)
        if xy is None:
            return None
        at[xy] = k
    links = set()
    for (x, y), k in at.items():
        for xy in ((x + 2, y), (x, y + 2)):
            j = at.get(xy)
            if j is not None:
                links.add((min(k, j), max(k, j)))
    return links


def _point_border(problem: Problem, members: Sequence[Member]) -> set[int] | None:
    points = [parse_point_name(problem.items[i].name) for i, _ in members]
    if not points or any(p is None for p in points):
        return None
    xs = [p[0] for p in points if p is not None]
    ys = [p[1] for p in points if p is not None]
    lo_x, hi_x, lo_y, hi_y = min(xs), max(xs), min(ys), max(ys)
    return {
        k
        for k, p in enumerate(points)
        if p is not None and (p[0] in (lo_x, hi_x) or p[1] in (lo_y, hi_y))
    }


def _grid_ends(problem: Problem, members: Sequence[Member]) -> list[tuple[int, int]] | None:
    tiles: dict[tuple[int, int], int] = {}
    ends = []
    for i, _ in members:
        xy = parse_point_name(problem.items[i].name)
        if xy is None or not (xy[0] + xy[1]) & 1:
            return None
        a, b = edge_ends(*xy)
        ends.append((tiles.setdefault(a, len(tiles)), tiles.setdefault(b, len(tiles))))
    return ends


def rule_lines(problem: Problem, rule: Rule) -> list[str]:
    """The ``|@`` lines that declare ``rule`` of ``problem`` (see the module doc); short forms
    (``grid``, ``border``) wherever they mean the same.

    >>> from dlxsat.xcc import parse
    >>> p = parse("|@connected sea\\n|@members 11:0 13:0\\n|@links 11 13\\n11 13\\n11\\n13\\n")
    >>> rule_lines(p, p.rules[0])
    ['|@connected sea', '|@members 11:0 13:0', '|@links grid']
    """
    items = problem.items
    if isinstance(rule, SingleLoop):
        head = "|@loop or-empty" if rule.allow_empty else "|@loop"
        if rule == SingleLoop.from_names(problem, rule.allow_empty):
            return [head]
        edges = " ".join(
            f"{items[e].name} {items[u].name} {items[v].name}" for e, u, v in rule.graph.edges
        )
        return [head, f"|@edges {edges}"]
    out = [f"|@{rule.kind}" + (f" {rule.label}" if rule.label else "")]
    out.append(
        "|@members "
        + " ".join(items[i].name if c is None else f"{items[i].name}:{c}" for i, c in rule.members)
    )
    if isinstance(rule, (Connected, Sized)):
        if _point_links(problem, rule.members) == set(rule.links):
            out.append("|@links grid")
        else:
            m = rule.members
            out.append(
                "|@links "
                + " ".join(f"{items[m[a][0]].name} {items[m[b][0]].name}" for a, b in rule.links)
            )
        if isinstance(rule, Sized):
            if rule.size is not None:
                out.append(f"|@size {rule.size}{'+' if rule.at_least else ''}")
            else:
                anchors = " ".join(f"{items[rule.members[m][0]].name} {v}" for m, v in rule.anchors)
                out.append(f"|@anchors {anchors}")
            if rule.owners:
                owners = " ".join(
                    f"{items[rule.members[m][0]].name} {items[i].name}" for m, i in rule.owners
                )
                out.append(f"|@owners {owners}")
            if rule.prefer is not None:
                out.append(f"|@prefer {rule.prefer}")
        elif rule.roots is not None:
            if _point_border(problem, rule.members) == set(rule.roots):
                out.append("|@roots border")
            else:
                out.append(
                    "|@roots " + " ".join(items[rule.members[r][0]].name for r in rule.roots)
                )
    else:
        grid = _grid_ends(problem, rule.members)
        if grid is not None and _same_graph(grid, rule.ends):
            out.append("|@ends grid")
        else:
            out.append("|@ends " + " ".join(f"v{u} v{v}" for u, v in rule.ends))
    return out


def _same_graph(a: Sequence[tuple[int, int]], b: Sequence[tuple[int, int]]) -> bool:
    """Whether two lists of ends describe the same graph up to renaming the vertices."""
    rename: dict[int, int] = {}
    for (u, v), (x, y) in zip(a, b, strict=True):
        for p, q in ((u, x), (v, y)):
            if rename.setdefault(p, q) != q:
                return False
    return len(set(rename.values())) == len(rename)


@dataclass
class _Block:
    """One rule's ``|@`` lines as read, before the items are known."""

    kind: str
    line: int
    words: list[str]
    parts: dict[str, list[str]] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)


#: The lines each kind of rule takes after its head, and whether it must have them.
_PARTS = {
    "loop": {"edges": False},
    "connected": {"members": True, "links": True, "roots": False},
    "acyclic": {"members": True, "ends": True},
    "sized": {
        "members": True,
        "links": True,
        "size": False,
        "anchors": False,
        "owners": False,
        "prefer": False,
    },
}


class RuleReader:
    """Collects the ``|@`` lines of DLX text; :meth:`rules` reads them once the items are known.

    Knuth's readers take these lines as comments; a line this reader cannot place is an
    :class:`InputError` naming it, as a bad option line is.
    """

    def __init__(self) -> None:
        self.blocks: list[_Block] = []

    def add(self, line_no: int, text: str) -> None:
        """Take one line (its text after ``|@``)."""
        words = text.split()
        if not words:
            raise InputError(f"line {line_no}: an empty rule line '|@'")
        head, rest = words[0], words[1:]
        if head in _PARTS:
            self.blocks.append(_Block(head, line_no, rest))
            return
        block = self.blocks[-1] if self.blocks else None
        if block is None or head not in _PARTS[block.kind]:
            known = ", ".join(KINDS)
            where = f"a {block.kind} rule" if block else f"no rule (begin one with {known})"
            raise InputError(f"line {line_no}: '|@{head}' does not belong to {where}")
        block.parts.setdefault(head, []).extend(rest)
        block.lines.setdefault(head, line_no)

    def rules(self, problem: Problem) -> tuple[Rule, ...]:
        """The rules declared, over the items of ``problem``."""
        return tuple(self._rule(problem, b) for b in self.blocks)

    def _rule(self, problem: Problem, b: _Block) -> Rule:
        def fail(message: str, part: str | None = None) -> InputError:
            line = b.lines.get(part, b.line) if part else b.line
            return InputError(f"line {line}: rule {b.kind}: {message}")

        for part, needed in _PARTS[b.kind].items():
            if needed and part not in b.parts:
                raise fail(f"no '|@{part}' line")
        index = problem.index

        def item(name: str, part: str) -> int:
            k = index.get(name)
            if k is None:
                raise fail(f"unknown item name {name!r}", part)
            return k

        if b.kind == "loop":
            if b.words not in ([], ["or-empty"]):
                raise fail(f"unknown word {' '.join(b.words)!r} (only 'or-empty')")
            allow_empty = bool(b.words)
            if "edges" not in b.parts:
                try:
                    return SingleLoop.from_names(problem, allow_empty)
                except InputError as e:
                    raise fail(str(e).removeprefix("loop rule: ")) from None
            words = b.parts["edges"]
            if len(words) % 3:
                raise fail("'|@edges' needs three names per edge (edge, vertex, vertex)", "edges")
            triples = [
                (item(words[j], "edges"), item(words[j + 1], "edges"), item(words[j + 2], "edges"))
                for j in range(0, len(words), 3)
            ]
            for edge, u, v in triples:
                if problem.items[edge].primary:
                    raise fail(f"edge item {problem.items[edge].name!r} isn't secondary", "edges")
                for x in (u, v):
                    if not problem.items[x].primary:
                        raise fail(f"vertex item {problem.items[x].name!r} isn't primary", "edges")
            vertices = tuple(sorted({x for _, u, v in triples for x in (u, v)}))
            return SingleLoop(LoopGraph(vertices, tuple(triples), {}), allow_empty)
        label = " ".join(b.words)
        members: list[Member] = []
        at: dict[int, int] = {}
        for token in b.parts["members"]:
            name, colon, color = token.partition(":")
            k = item(name, "members")
            if colon and len(color) != 1:
                raise fail(f"color must be a single character: {token!r}", "members")
            if k in at:
                raise fail(f"item {name!r} is a member twice", "members")
            at[k] = len(members)
            members.append((k, color if colon else None))
        if not members:
            raise fail("no members", "members")

        def member(name: str, part: str) -> int:
            k = item(name, part)
            if k not in at:
                raise fail(f"{name!r} is not a member", part)
            return at[k]

        if b.kind in ("connected", "sized"):
            words = b.parts["links"]
            if words == ["grid"]:
                grid = _point_links(problem, members)
                if grid is None:
                    raise fail("'grid' links need members named by coordinates", "links")
                links = sorted(grid)
            else:
                if len(words) % 2:
                    raise fail("'|@links' needs two names per link", "links")
                links = [
                    (member(words[j], "links"), member(words[j + 1], "links"))
                    for j in range(0, len(words), 2)
                ]
                if any(a == b for a, b in links):
                    raise fail("a link must join two different members", "links")
            if b.kind == "sized":

                def owner(name: str) -> int:
                    k = item(name, "owners")
                    if not problem.items[k].primary:
                        raise fail(f"owner item {name!r} isn't primary", "owners")
                    return k

                return self._sized(b, members, links, label, member, fail, owner)
            roots: list[int] | None = None
            if "roots" in b.parts:
                words = b.parts["roots"]
                if words == ["border"]:
                    border = _point_border(problem, members)
                    if border is None:
                        raise fail("'border' roots need members named by coordinates", "roots")
                    roots = sorted(border)
                else:
                    roots = [member(w, "roots") for w in words]
            return Connected(
                tuple(members), tuple(links), None if roots is None else tuple(roots), label
            )
        words = b.parts["ends"]
        if words == ["grid"]:
            ends = _grid_ends(problem, members)
            if ends is None:
                raise fail("'grid' ends need members named by edge coordinates", "ends")
        else:
            if len(words) != 2 * len(members):
                raise fail(
                    f"'|@ends' needs two vertices per member ({2 * len(members)} words, "
                    f"not {len(words)})",
                    "ends",
                )
            number: dict[str, int] = {}
            ends = [
                (
                    number.setdefault(words[j], len(number)),
                    number.setdefault(words[j + 1], len(number)),
                )
                for j in range(0, len(words), 2)
            ]
            if any(u == v for u, v in ends):
                raise fail("an edge must join two different vertices", "ends")
        return Acyclic(tuple(members), tuple(ends), label)

    @staticmethod
    def _sized(
        b: _Block,
        members: list[Member],
        links: list[tuple[int, int]],
        label: str,
        member: Callable[[str, str], int],
        fail: Callable[..., InputError],
        owner: Callable[[str], int],
    ) -> Sized:
        """A sized rule's ``|@size N`` or ``|@anchors ITEM N ...`` (and ``|@owners``;
        ``owner``: a primary item's index by its name)."""

        def number(word: str, part: str) -> int:
            if not word.isascii() or not word.isdigit() or int(word) < 1:
                raise fail(f"{word!r} is not a size (a whole number from 1)", part)
            return int(word)

        if ("size" in b.parts) == ("anchors" in b.parts):
            raise fail("give '|@size N' or '|@anchors ITEM N ...', one of them")
        prefer = None
        if "prefer" in b.parts:
            words = b.parts["prefer"]
            if len(words) != 1 or words[0] not in PREFERENCES:
                raise fail(f"'|@prefer' takes one of {', '.join(PREFERENCES)}", "prefer")
            prefer = words[0]
        if "size" in b.parts:
            words = b.parts["size"]
            if len(words) != 1:
                raise fail("'|@size' takes one number (N+ for N or more)", "size")
            word = words[0]
            at_least = word.endswith("+")
            size = number(word.removesuffix("+"), "size")
            return Sized(tuple(members), tuple(links), size, (), label, at_least, prefer)
        words = b.parts["anchors"]
        if len(words) % 2:
            raise fail("'|@anchors' needs a member and a size per anchor", "anchors")
        anchors = [
            (member(words[j], "anchors"), number(words[j + 1], "anchors"))
            for j in range(0, len(words), 2)
        ]
        if len({m for m, _ in anchors}) != len(anchors):
            raise fail("a member is an anchor twice", "anchors")
        owners = []
        words = b.parts.get("owners", [])
        if len(words) % 2:
            raise fail("'|@owners' needs an anchor and an item per owner", "owners")
        anchored = {m for m, _ in anchors}
        for j in range(0, len(words), 2):
            m = member(words[j], "owners")
            if m not in anchored:
                raise fail(f"{words[j]!r} is not an anchor", "owners")
            owners.append((m, owner(words[j + 1])))
        if len({m for m, _ in owners}) != len(owners):
            raise fail("an anchor has two owner items", "owners")
        return Sized(
            tuple(members),
            tuple(links),
            None,
            tuple(anchors),
            label,
            prefer=prefer,
            owners=tuple(owners),
        )
