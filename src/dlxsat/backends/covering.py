"""The covering model: what the SAT (``cnf``) and CP-SAT (``cpsat``) backends both state.

A :class:`~dlxsat.xcc.Problem` becomes Boolean variables and a few kinds of constraint, built
here once; each backend only says how to write each kind (clauses through ``pysat.card``, or
CP-SAT's ``AddExactlyOne`` and linear constraints). The variables are numbered: ``0 .. n-1``
are the options (true = chosen), ``n, n+1, ...`` the auxiliary variables of
:attr:`CoveringModel.aux`, in the order a backend must create them (the SAT backend's DIMACS
numbering follows it).

The constraints (docs/conventions.md §3, §4)
    * :class:`Primary`: a primary item with bounds ``[lo, hi]`` is covered by between ``lo``
      and ``hi`` of its options.
    * :class:`Secondary`: a secondary item is given at most one "way": one of the options
      using it uncolored, or one color. Colors become variables (:class:`Defined`) by the
      color scheme (``colors``, :data:`COLOR_MODES`): ``onehot`` gives each color ``c`` a
      variable "some chosen option gives the item color ``c``"; ``binary`` gives an item with
      exactly two colors one variable, true for one color (``1`` when it is one of them) and
      false for the other or for "unused", plus a variable "used with a color" when some
      option uses the item uncolored.
    * :class:`Loop` (the problem's :class:`~dlxsat.xcc.rules.SingleLoop` rule): an edge is
      *on* when its color-``1`` variable is true; every vertex has 0 or 2 edges on
      (:meth:`~.loopcuts.LoopRule.degree_groups`); and, unless the empty loop is allowed, some
      edge is on. How the rest of the rule is stated -- lazy cuts, an eager CNF ordering,
      ``AddCircuit`` -- is each backend's own loop mode.
    * :class:`Members` (a :class:`~dlxsat.xcc.rules.Connected`,
      :class:`~dlxsat.xcc.rules.Acyclic` or :class:`~dlxsat.xcc.rules.Sized` rule): a variable
      per member, true exactly when the
      member is present (:func:`dlxsat.xcc.rules.present`). It is an existing variable where
      one means exactly that -- the option, when a single option makes the member present; a
      color variable, or an earlier member's, true exactly when one of the same options is
      chosen -- else a new :class:`Defined` one. A member no option can make present has none
      (it is never present). The rule itself -- lazy cuts (:mod:`.rulecuts`) or an eager
      encoding -- is each backend's own mode; the eager sized encodings share the roots each
      member may belong to (:func:`sized_roots`).

So a new color scheme is written here only; a new cardinality or loop encoding is written in
the one backend that offers it.

>>> from dlxsat.xcc import parse
>>> m = build(parse("a b | x\\na x:1\\nb x:1\\na b\\n"), colors="onehot")
>>> [(p.name, p.lo, p.hi, p.options) for p in m.primaries]
[('a', 1, 1, [0, 2]), ('b', 1, 1, [1, 2])]
>>> s = m.secondaries[0]
>>> s.uncolored, s.colors, [(d.var, d.name, d.options) for d in s.defined], s.at_most_one
([], {'1': [0, 1]}, [(3, 'color x:1', [0, 1])], [3])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..xcc import Problem
from ..xcc.loop import ON, LoopGraph
from ..xcc.rules import Acyclic, Connected, SingleLoop, Sized

if TYPE_CHECKING:
    from ..xcc.rules import Rule
    from .loopcuts import LoopRule

#: How the colors of secondary items become variables (see the module docstring).
COLOR_MODES = ("onehot", "binary")
#: Binary colors: about 10 % fewer variables and clauses on loop puzzles, and less solver time
#: for both backends (SAT: 0.67 s against 0.93 s summed over the 11 hardest benchmark puzzles,
#: best of 7; CP-SAT: 10-25 % less); counting every golden case: equal.
DEFAULT_COLORS = "binary"


@dataclass
class Primary:
    """Primary item ``item`` (named ``name``): between ``lo`` and ``hi`` of ``options`` chosen."""

    item: int
    name: str
    lo: int
    hi: int
    options: list[int]


@dataclass
class Defined:
    """Auxiliary variable ``var``, true exactly when one of ``options`` is chosen; each of
    ``excluded`` (options) makes it false. ``name`` says what it means."""

    var: int
    name: str
    options: list[int]
    excluded: list[int] = field(default_factory=list)


@dataclass
class Secondary:
    """Secondary item ``item``: the options using it ``uncolored``, those giving it each color
    (``colors``), the variables of its colors (``defined``, to create in this order), and the
    variables of which at most one is true (``at_most_one``: the uncolored options and the
    color variables)."""

    item: int
    name: str
    uncolored: list[int]
    colors: dict[str, list[int]]
    defined: list[Defined]
    at_most_one: list[int]


@dataclass
class Loop:
    """The single-loop rule's shared part: the edges that can be on, with their variables
    (``on``: edge item → variable), the :class:`~.loopcuts.LoopRule` over them, the groups of
    "0 or 2 on" (one per vertex), and whether some edge must be on (``some_edge``)."""

    graph: LoopGraph
    on: dict[int, int]
    rule: LoopRule
    degree_groups: list[list[int]]
    some_edge: bool


@dataclass
class Members:
    """A connected, acyclic or sized rule's shared part: ``present[m]`` is the variable true exactly
    when member ``m`` is present, None when no option can make it present; ``defined`` the
    auxiliary variables made for this rule (a member another rule has already got keeps its
    variable), to create in this order."""

    rule: Connected | Acyclic | Sized
    present: list[int | None]
    defined: list[Defined]

    @property
    def possible(self) -> list[int]:
        """The member positions that can be present (that have a variable)."""
        return [m for m, v in enumerate(self.present) if v is not None]


@dataclass
class CoveringModel:
    """The model of a problem: variables and constraints, in the order to state them."""

    problem: Problem
    colors: str
    primaries: list[Primary]
    secondaries: list[Secondary]
    #: Auxiliary variables (``var`` ``n_options``, ``n_options + 1``, ...), in creation order.
    aux: list[Defined]
    #: (item, color) → the variable true when that item has that color, where there is one.
    color_var: dict[tuple[int, str], int]
    loop: Loop | None = None
    #: The connected, acyclic and sized rules, in the problem's order.
    members: list[Members] = field(default_factory=list)

    @property
    def n_options(self) -> int:
        return len(self.problem.options)

    @property
    def n_vars(self) -> int:
        """Options and auxiliary variables."""
        return self.n_options + len(self.aux)


def build(
    problem: Problem,
    *,
    colors: str = DEFAULT_COLORS,
    rules: Sequence[Rule] | None = None,
) -> CoveringModel:
    """The covering model of ``problem`` (``colors``: one of :data:`COLOR_MODES`, checked by the
    caller), with the shared part of each of its global ``rules`` (default: all the problem's;
    a caller leaves out those it does not enforce, as ``export --loop none`` does)."""
    n_primary = problem.n_primary
    prim: list[list[int]] = [[] for _ in range(n_primary)]
    unc: dict[int, list[int]] = {}
    col: dict[int, dict[str, list[int]]] = {}
    for k, opt in enumerate(problem.options):
        for i, c in opt:
            if i < n_primary:
                prim[i].append(k)
            elif c is None:
                unc.setdefault(i, []).append(k)
            else:
                col.setdefault(i, {}).setdefault(c, []).append(k)
    primaries = [
        Primary(i, it.name, it.lo, it.hi, prim[i]) for i, it in enumerate(problem.items[:n_primary])
    ]
    model = CoveringModel(problem, colors, primaries, [], [], {})
    for i in range(n_primary, len(problem.items)):
        model.secondaries.append(_secondary(model, i, unc.get(i, []), col.get(i, {})))
    chosen = list(problem.rules if rules is None else rules)
    member_rules = [r for r in chosen if isinstance(r, (Connected, Acyclic, Sized))]
    for rule in chosen:
        if isinstance(rule, SingleLoop):
            model.loop = _loop(model, rule)
    if member_rules:
        _members(model, member_rules, col)
    return model


def _secondary(
    model: CoveringModel, i: int, unc: list[int], col: dict[str, list[int]]
) -> Secondary:
    name = model.problem.items[i].name
    colors = sorted(col)
    defined: list[Defined] = []

    def new(what: str, options: list[int], excluded: list[int] | None = None) -> int:
        d = Defined(model.n_vars, what, options, excluded or [])
        model.aux.append(d)
        defined.append(d)
        return d.var

    group = list(unc)
    if model.colors == "binary" and len(colors) == 2:
        pos = ON if ON in colors else colors[0]
        neg = colors[1] if pos == colors[0] else colors[0]
        b = new(f"color {name}:{pos} (false: {name}:{neg} or unused)", col[pos], col[neg])
        model.color_var[(i, pos)] = b
        if unc:
            group.append(new(f"used {name} with a color", col[pos] + col[neg]))
    else:
        for c in colors:
            y = new(f"color {name}:{c}", col[c])
            model.color_var[(i, c)] = y
            group.append(y)
    return Secondary(i, name, unc, col, defined, group)


def _loop(model: CoveringModel, loop: SingleLoop) -> Loop:
    from .loopcuts import LoopRule

    graph = loop.graph
    on = {e: model.color_var[(e, ON)] for e, _, _ in graph.edges if (e, ON) in model.color_var}
    rule = LoopRule(model.problem, possible=on, graph=graph)
    return Loop(graph, on, rule, rule.degree_groups(), not loop.allow_empty)


def _members(
    model: CoveringModel,
    rules: Sequence[Connected | Acyclic | Sized],
    col: dict[int, dict[str, list[int]]],
) -> None:
    """Each rule's :class:`Members`, its presence variables made as the module doc says."""
    problem = model.problem
    wanted = {i for rule in rules for i, c in rule.members if c is None}
    anywhere: dict[int, list[int]] = {i: [] for i in wanted}  # item → the options holding it
    if wanted:
        for k, opt in enumerate(problem.options):
            for i, _ in opt:
                if i in anywhere:
                    anywhere[i].append(k)
    # Options → the variable true exactly when one of them is chosen: the options themselves,
    # the color variables (a binary one's excluded options only say what its item forbids).
    by_options: dict[tuple[int, ...], int] = {(k,): k for k in range(model.n_options)}
    for d in model.aux:
        by_options.setdefault(tuple(sorted(d.options)), d.var)
    for rule in rules:
        present: list[int | None] = []
        defined: list[Defined] = []
        for i, c in rule.members:
            if c is None:
                options = anywhere[i]
            elif i < problem.n_primary:
                options = []  # a primary item has no color
            else:
                options = col.get(i, {}).get(c, [])
            key = tuple(sorted(options))
            var = by_options.get(key) if key else None
            if key and var is None:
                name = problem.items[i].name + ("" if c is None else f":{c}")
                label = f" {rule.label}" if rule.label else ""
                d = Defined(model.n_vars, f"present {name} (rule {rule.kind}{label})", options)
                model.aux.append(d)
                defined.append(d)
                var = by_options[key] = d.var
            present.append(var)
        model.members.append(Members(rule, present, defined))


@dataclass
class SizedRoots:
    """Where the pieces of a :class:`~dlxsat.xcc.rules.Sized` rule can lie: what its eager
    encodings (SAT and CP-SAT) share.

    Each piece of an answer is named by one of its members, its *root*: its anchor, or with one
    size for every piece its first member (in member order). ``reach[a]`` lists the members
    that can be in the piece of root ``a`` (``a`` first): those that some option can make
    present, a path of fewer than ``size[a]`` links from ``a`` through such members -- a piece of
    ``size[a]`` members holds a path from ``a`` to each of its members, of at most ``size[a]``
    members -- avoiding the other anchors (a piece holds one), or with one size for every
    piece, through members after ``a`` only (``a`` is the piece's first). ``roots[x]``: the
    roots whose reach holds ``x``, in order. With ``at_least`` (pieces of ``size`` members or
    more) a piece is unbounded, and ``reach[a]`` holds where the *first* ``size`` members of a
    breadth-first search from ``a`` in its piece can be: what the encodings count.

    >>> rule = Sized(tuple((k, "1") for k in range(4)), ((0, 1), (1, 2), (2, 3)), size=2)
    >>> r = sized_roots(rule, [0, 1, 2, 3])
    >>> r.reach, r.roots[2]
    ({0: [0, 1], 1: [1, 2], 2: [2, 3], 3: [3]}, [1, 2])
    >>> sized_roots(Sized(rule.members, rule.links, anchors=((0, 2), (2, 3))), [0, 1, 2]).reach
    {0: [0, 1], 2: [2, 1]}
    """

    reach: dict[int, list[int]]
    size: dict[int, int]
    roots: dict[int, list[int]]


def sized_mode(rule: Sized, mode: str) -> str:
    """The mode ``rule`` is enforced in by the SAT and CP-SAT backends: ``mode``, or for
    ``auto`` the mode the rule prefers (:attr:`Sized.prefer <dlxsat.xcc.rules.Sized.prefer>`),
    else ``eager`` when the rule has anchors and ``lazy`` when it has one size.

    Why: the eager encodings name every piece by a root (:func:`sized_roots`). With anchors
    only the anchors are roots, and the model stays small (a Nurikabe's few clues); with one
    size every member is a candidate root of every member within that size of it, and the
    model grows with the members times the size -- lazy piece cuts are then far cheaper
    (figures beside :data:`dlxsat.backends.cnf.DEFAULT_SIZED_MODE`).

    >>> from dlxsat.xcc.rules import Sized
    >>> row = tuple((k, "1") for k in range(3)), ((0, 1), (1, 2))
    >>> sized_mode(Sized(*row, size=2), "auto"), sized_mode(Sized(*row, anchors=((0, 2),)), "auto")
    ('lazy', 'eager')
    >>> sized_mode(Sized(*row, size=2), "eager")
    'eager'
    >>> sized_mode(Sized(*row, size=2, prefer="eager"), "auto")
    'eager'
    """
    if mode != "auto":
        return mode
    if rule.prefer is not None:
        return rule.prefer
    return "eager" if rule.anchors else "lazy"


def sized_modes(problem: Problem, mode: str) -> str:
    """What the backends report as their ``sized_mode``: the mode each sized rule of
    ``problem`` is enforced in, ``lazy``, ``eager`` or (rules of both shapes, ``auto``)
    ``lazy+eager``."""
    found = {sized_mode(r, mode) for r in problem.rules if isinstance(r, Sized)}
    return "+".join(m for m in ("lazy", "eager") if m in found) or mode


def sized_roots(rule: Sized, possible: Sequence[int]) -> SizedRoots:
    """The :class:`SizedRoots` of ``rule`` over the members in ``possible`` (those that some
    option can make present)."""
    can = set(possible)
    adj = rule.neighbours()
    anchored = dict(rule.anchors)
    if rule.size is not None:
        size = {a: rule.size for a in sorted(can)}
    else:
        size = {a: v for a, v in anchored.items() if a in can}
    reach: dict[int, list[int]] = {}
    roots: dict[int, list[int]] = {x: [] for x in sorted(can)}
    for a, want in size.items():
        found = [a]
        depth = {a: 0}
        head = 0
        while head < len(found):
            x = found[head]
            head += 1
            if depth[x] + 1 >= want:
                continue
            for y in adj[x]:
                if y in depth or y not in can or y in anchored or (rule.size is not None and y < a):
                    continue
                depth[y] = depth[x] + 1
                found.append(y)
        reach[a] = found
        for x in found:
            roots[x].append(a)
    return SizedRoots(reach, size, roots)


def sized_impossible(rule: Sized, possible: Sequence[int]) -> list[int]:
    """The members of ``possible`` (those some option can make present) that lie in no right
    piece of ``rule`` whatever the rest does, in order: with anchors, those no anchor reaches
    in fewer than its size links avoiding the other anchors (:func:`sized_roots`); with one
    size, those whose connected piece of ``possible`` has fewer members than the size. The
    lazy modes state them absent, as the eager encodings do by giving them no root.

    >>> row = tuple((k, "1") for k in range(5)), ((0, 1), (1, 2), (3, 4))
    >>> sized_impossible(Sized(*row, size=3), range(5))
    [3, 4]
    >>> sized_impossible(Sized(*row, anchors=((0, 2),)), range(5))
    [2, 3, 4]
    """
    if rule.anchors:
        roots = sized_roots(rule, possible).roots
        return [x for x in sorted(roots) if not roots[x]]
    can = set(possible)
    adj = rule.neighbours()
    seen: set[int] = set()
    out: list[int] = []
    for start in sorted(can):
        if start in seen:
            continue
        seen.add(start)
        piece, stack = [start], [start]
        while stack:
            for y in adj[stack.pop()]:
                if y in can and y not in seen:
                    seen.add(y)
                    piece.append(y)
                    stack.append(y)
        if len(piece) < (rule.size or 1):
            out += piece
    return sorted(out)


#: The eager encodings of a sized rule of one exact size ``s`` with room for at most this many
#: pieces (fewer than ``(SLOT_PIECES + 1) s`` members that can be in a right piece) put each
#: piece in one of that many *slots* (:func:`sized_slots`) rather than naming it by a root
#: among all its members. Measured (the SAT backend, load 2-5, 2026-11-27): Fillomino
#: 286_10x10's label 36 (80 members, two slots) 1.5 s and 2 rounds, lazy 25-39 s and 4,244
#: rounds; at three to eight slots (266_9x9's labels 8-15) slower than lazy: 36 s and over 80
#: s against 5-7 s.
SLOT_PIECES = 2


def sized_slots(rule: Sized, possible: Sequence[int]) -> int:
    """How many slots the eager encodings give ``rule`` over the members ``possible``: the
    room for pieces, when the rule has one exact size and room for 1 to :data:`SLOT_PIECES`
    pieces among the members that can be in a right piece (:func:`sized_impossible`); 0
    when they name pieces by roots instead.

    >>> row = tuple((k, "1") for k in range(5)), ((0, 1), (1, 2), (2, 3), (3, 4))
    >>> sized_slots(Sized(*row, size=1), range(5)), sized_slots(Sized(*row, size=2), range(5))
    (0, 2)
    """
    if rule.size is None or rule.at_least:
        return 0
    room = (len(possible) - len(sized_impossible(rule, possible))) // rule.size
    return room if room <= SLOT_PIECES else 0


def one_piece_at_most(rule: Sized, possible: Sequence[int]) -> bool:
    """Whether ``rule`` (one exact size ``s`` for every piece) has room for one piece at most:
    fewer than ``2 s`` members can be present, so at most ``s`` of them are -- a cardinality
    constraint the lazy modes state at once (an answer's present members are 0 or ``s``).

    >>> row = tuple((k, "1") for k in range(5)), ((0, 1), (1, 2), (2, 3), (3, 4))
    >>> one_piece_at_most(Sized(*row, size=3), range(5))
    True
    >>> one_piece_at_most(Sized(*row, size=2), range(5))
    False
    """
    return rule.size is not None and not rule.at_least and len(possible) < 2 * rule.size


@dataclass
class Reach:
    """An anchor's piece joined in the formula, within its size: the *distance labelling* of a
    :class:`~dlxsat.xcc.rules.Sized` rule's anchor with an owner item
    (:attr:`Sized.owners <dlxsat.xcc.rules.Sized.owners>`), what the SAT and CP-SAT backends
    state for it in any sized mode.

    ``owned[m]``: the options that put member ``m`` in the anchor's piece (they cover the owner
    item and make ``m`` present); ``depth[m]``: the fewest links from the anchor to ``m``
    through members that can be owned, below ``size`` (the anchor 0), ``links`` among those
    members. ``beyond``: the options
    covering the owner item that make a member present at ``size`` links or more, or out of
    reach: a piece of ``size`` members holding the anchor holds no such member.

    The labelling (:meth:`clauses`) has a variable ``d(m, k)`` per owned member ``m`` but the
    anchor and ``depth[m] <= k < size``: "``m`` is in the piece within ``k`` links of the
    anchor through the piece". ``m`` owned implies ``d(m, size - 1)``; ``d(m, k)`` implies ``m``
    owned, ``d(m, k + 1)``, and ``d(y, k - 1)`` for some member ``y`` linked to ``m`` (the
    anchor's own ``d`` being its being owned); and ``m`` owned with ``d(y, k - 1)`` for a linked
    ``y`` implies ``d(m, k)``. Sound: the piece is connected and of ``size`` members, so its
    breadth-first depths from the anchor are below ``size``, and "within ``k`` links" by
    them satisfies every clause. Determined: the clauses make ``d(m, k)`` exactly that, so
    the options fix every label (CP-SAT counts by enumerating assignments). A model keeps it
    only when every owned member is joined to the anchor through owned members: the owner's
    count of members is then one connected piece around its anchor, which the lazy cuts
    otherwise learn piece by piece.

    >>> from dlxsat.xcc import parse
    >>> p = parse("|@sized\\n|@members 1:0 3:0 5:0\\n|@links 1 3 3 5\\n|@anchors 1 2\\n"
    ...           "|@owners 1 n\\n2|n p1 p3 p5 | 1 3 5\\np1 1:0 n\\np3 3:0 n\\np5 5:0 n\\n"
    ...           "p3 3:1\\np5 5:1\\n")
    >>> r = owned_reaches(p, p.rules[0])[0]
    >>> r.owned, r.depth, r.beyond
    ({0: [0], 1: [1], 2: [2]}, {0: 0, 1: 1}, [2])
    """

    anchor: int
    size: int
    owned: dict[int, list[int]]
    depth: dict[int, int]
    beyond: list[int]
    #: Each member of ``depth`` → the members of ``depth`` linked to it.
    links: dict[int, list[int]] = field(repr=False)

    def clauses(self) -> list[list[tuple[int, int | None, bool]]]:
        """The labelling's clauses (see the class doc), each a list of literals ``(m, k,
        positive)``: ``k`` None for "``m`` is owned" (one of ``owned[m]`` chosen), else
        ``d(m, k)``. Every ``(m, k)`` named is in :meth:`labels`."""
        out: list[list[tuple[int, int | None, bool]]] = []
        top = self.size - 1
        linked = self.links
        for m, depth in self.depth.items():
            if m == self.anchor:
                continue
            out.append([(m, None, False), (m, top, True)])
            for k in range(depth, self.size):
                out.append([(m, k, False), (m, None, True)])
                if k < top:
                    out.append([(m, k, False), (m, k + 1, True)])
                ways = [
                    (y, None if y == self.anchor else k - 1, True)
                    for y in linked[m]
                    if self.depth[y] <= k - 1
                ]
                out.append([(m, k, False), *ways])
                out += [[(m, None, False), (y, j, False), (m, k, True)] for y, j, _ in ways]
        return out

    def labels(self) -> list[tuple[int, int]]:
        """The ``(m, k)`` of the variables ``d(m, k)``, in order."""
        return [
            (m, k)
            for m, depth in self.depth.items()
            if m != self.anchor
            for k in range(depth, self.size)
        ]


def owned_reaches(problem: Problem, rule: Sized) -> list[Reach]:
    """The :class:`Reach` of each anchor of ``rule`` with an owner item."""
    at = {member: m for m, member in enumerate(rule.members)}
    adj = rule.neighbours()
    sizes = dict(rule.anchors)
    # The options covering each owner item, in one pass over the options (a pass per owner
    # took 0.76 s on a 50 x 50 Nurikabe's 226 owners and 8,178 options).
    covering_owner: dict[int, list[int]] = {item: [] for _, item in rule.owners}
    for k, option in enumerate(problem.options):
        for i, _ in option:
            if i in covering_owner:
                covering_owner[i].append(k)
    found = []
    for anchor, item in rule.owners:
        owned: dict[int, list[int]] = {}
        for k in covering_owner[item]:
            for i, color in problem.options[k]:
                for key in ((i, color), (i, None)):
                    if key in at:
                        owned.setdefault(at[key], []).append(k)
        size = sizes[anchor]
        depth = {anchor: 0} if anchor in owned else {}
        queue = list(depth)
        for x in queue:
            if depth[x] + 1 >= size:
                continue
            for y in adj[x]:
                if y in owned and y not in depth:
                    depth[y] = depth[x] + 1
                    queue.append(y)
        beyond = sorted({k for m, ks in owned.items() if m not in depth for k in ks})
        links = {m: [y for y in adj[m] if y in depth] for m in depth}
        found.append(Reach(anchor, size, owned, depth, beyond, links))
    return found


def blocking(problem: Problem, chosen: list[int]) -> list[tuple[int, bool]]:
    """A clause over the option variables that one answer (its ``chosen`` options) breaks and
    every other answer keeps: ``(option, value)`` pairs, one of which must hold.

    When no answer can hold another (:attr:`Problem.answers_are_incomparable`) the chosen options
    suffice; otherwise every option is named. Empty: there is no other answer.

    >>> from dlxsat.xcc import parse
    >>> blocking(parse("a b\\na\\nb\\na b\\n"), [0, 1])
    [(0, False), (1, False)]
    """
    if problem.answers_are_incomparable:
        return [(k, False) for k in chosen]
    members = set(chosen)
    return [(k, k not in members) for k in range(len(problem.options))]
