"""The CP-SAT backend: an exact-cover problem as a model for OR-tools' CP-SAT solver.

The model
    * One Boolean variable per option (true = chosen).
    * A primary item with bounds ``[lo, hi]``: ``AddExactlyOne`` for ``[1, 1]``,
      ``AddAtMostOne`` for ``[0, 1]``, a linear constraint ``lo <= sum <= hi`` otherwise.
    * A secondary item (docs/conventions.md §3), as in the SAT backend (:mod:`.cnf`):
      ``colors='onehot'``
      gives each color ``c`` a Boolean "some chosen option gives it ``c``" (implied by those
      options, implying one of them), at most one of which, together with the options using
      the item uncolored, is true; ``colors='binary'`` uses one Boolean for a two-color item.
    * The single-loop rule (``loop``; docs/conventions.md §4): an edge is on when its color-``1``
      Boolean is true; every vertex has ``sum(edges on) == 2 * used``. Then either
      ``loop_mode='circuit'`` (the default, measured faster): ``AddCircuit`` over the
      vertices, each edge giving two arcs (one per direction, their sum equal to "on") and
      each vertex a self-loop meaning "unused" (CP-SAT allows every vertex to be skipped:
      the empty edge set); or ``loop_mode='lazy'``: solve, and when the answer has several
      cycles add the cuts of :mod:`.loopcuts` and solve again, hinted with the last answer.
    * The connected, acyclic and sized rules (:mod:`dlxsat.xcc.rules`): a Boolean per member
      that can be present (:class:`.covering.Members`). ``lazy``: the cuts of :mod:`.rulecuts`
      through the same re-solve rounds as the lazy loop; ``eager``: integer *ranks* that are
      distances, so that the options determine every other variable (see below).

The eager connected model (``connected_mode='eager'``)
    The root is the first present member (a chain of Booleans, as the SAT encoding's prefix
    chain); with ``roots`` a virtual root of rank 0, so that a present root member has rank 1.
    An absent member has rank 0, the root 0, a present one at most one more than a present
    neighbour's (both ways: ``|rank(u) - rank(v)| <= 1``). A Boolean "``v`` is one step
    before ``u``" per link direction is true exactly when both are present and ``rank(u) ==
    rank(v) + 1``, and every present member but the root (or a root member) has such a
    step. Following steps lowers the rank by one each time down to the root, so every
    present member reaches it (connected; with roots: each piece holds a root member); and
    the ranks are then exactly the breadth-first distances from the root (a step chain gives
    ``rank >= distance``, the neighbour bound ``rank <= distance``), so every variable is
    determined by the present members.

The eager acyclic model (``acyclic_mode='eager'``)
    Each tree is rooted at its least vertex: ``least(x) <= x`` is equal along every present
    edge, and ``x`` is a root exactly when ``least(x) == x``; a root has rank 0. Each present
    edge goes one step down: of its two arc Booleans, true exactly when the edge is present
    and the tail's rank is the head's plus one, one holds; each vertex has at most one arc
    out, and every vertex but a root has one. Sound as the SAT orientation is (a cycle of
    present edges would be a directed cycle, along which the ranks fall forever); each
    non-root's one arc leads towards the root, so ``least`` is the tree's least vertex, the
    ranks its depths and the arcs its parent edges: all determined.

The eager sized model (``sized_mode='eager'``)
    Every piece is named by its *root*: its anchor, or with one size for every piece its first
    member (the roots each member can have, within the root's size of it:
    :func:`.covering.sized_roots`, as in the SAT encoding). With exact sizes a Boolean "``x``
    is in the piece of root ``a``" per such pair: a present member is in exactly one root's
    piece (``sum == present``), linked present members in the same one, and a root's piece has
    ``sum == size * root`` members -- CP-SAT's linear constraints, where the SAT encoding needs
    cardinality circuits. With *at least* a size, an integer per member names its piece's
    first member (``0 .. x``, equal along present links; ``x`` itself exactly when ``x`` is a
    root), and a root counts, among the members within its size of it, those naming it: at
    least its size. Either way ranks that are distances from the root (the connected model's,
    one root per piece) make every piece reach its root, so the classes are the pieces; the
    root (anchor, or first member: the only one the domains allow), the ranks and the
    Booleans are then determined by the options.

    Why determined: CP-SAT counts by enumerating assignments, and a model whose ranks and
    arcs can vary within one answer (the SAT encodings' labels with integers, or a flow from
    the root) lists each answer once per way of ranking it: enumerated so, the 2 x 4 grids
    of ``tests/test_rules.py`` did not finish in a minute; one answer per round, each
    blocked, a 3 x 3 count of 1,760 answers took 80 s, which the determined model
    enumerates in 0.4 s.

Counting every solution (``limit=None``) enumerates with a solution callback (the model's
other variables are determined by the options, except the arc directions of ``circuit``, so
answers are collected by their option sets; CP-SAT enumerates completely only with one
worker, so enumeration always uses one); finding a few (``limit``) solves repeatedly,
blocking each answer with a clause on the option variables. Either way a lazy cut found on
the way stops the search, is added, and the search goes on.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

from ..options import Option
from ..runtime import guard
from ..xcc import Problem
from ..xcc.rules import Acyclic, Connected, Sized
from . import Request, SearchResult, SolverSpec, covering, ortools_loader
from .covering import COLOR_MODES, DEFAULT_COLORS
from .loopcuts import LoopRule
from .rulecuts import AcyclicCuts, ConnectedCuts, SizedCuts

#: Measured with benchmarks/loops.py (2 cores): ``circuit`` solves the hard Slitherlink 3-6
#: times faster than ``lazy`` (each lazy round is a fresh CP-SAT search: no learnt clauses
#: survive between rounds). Colors: see :data:`.covering.DEFAULT_COLORS`.
LOOP_MODES = ("lazy", "circuit")
DEFAULT_LOOP_MODE = "circuit"
#: The connected and acyclic rules (see the module docstring). Measured with
#: ``benchmarks/rules.py`` (two answers asked for, three instances of each size summed, 30 s
#: each, 2 cores at load 7-8), seconds lazy / eager for N x N = 8, 10, 12, 15 -- a connected
#: sea: 2.27 / 1.83, 7.46 / 5.77, 12.8 / 8.06, 19.7 / 19.6; the sea, every white region
#: reaching the border: 4.75 / 3.39, 9.77 / 6.42, 15.6 / 11.1, 48.1 / 17.3. Eager wins
#: connected: each lazy round is a fresh search, and the sea took 20-130 of them.
CONNECTED_MODES = ("lazy", "eager")
DEFAULT_CONNECTED_MODE = "eager"
#: Acyclic alone (a forest, degrees given as clues): lazy / eager 0.96 / 2.00, 0.98 / 3.18,
#: 1.87 / 5.93, 2.80 / 8.97 -- lazy, whose first model has few cycles to cut (2-11 rounds).
#: Both rules on the same edges (a spanning tree) are hard for CP-SAT in every mode: 8 x 8
#: lazy 8.2 s, eager 6.7 s; 10 x 10 lazy 38.9 s, eager 62.8 s and one of three unfinished;
#: in a later run at load 14, 10 x 10 with connected eager and acyclic lazy (these defaults)
#: finished none of three in 30 s, connected lazy and acyclic eager 27.0 s, both lazy 26.4 s.
#: The SAT backend solves them in under a second (:data:`.cnf.DEFAULT_CONNECTED_MODE`).
ACYCLIC_MODES = ("lazy", "eager")
DEFAULT_ACYCLIC_MODE = "lazy"
#: The lazy connected rule's boundaries (:data:`.rulecuts.SEPARATORS`): the front ones, more
#: of them per round, where the SAT backend takes the least. Lazy, least / front (one run at
#: load 1-3; CP-SAT's times vary with the load, its workers share the 2 cores): the sea at 10
#: and 15, 0.63 / 1.59 and 1.99 / 6.01 s; with the border, 6.29 / 4.00 and 42.1 / 15.8 s;
#: spanning trees, 24.8 / 3.52 s and none of three / 7.27 s.
CUT_SEPARATORS = "front"
#: The sized rule (see the module docstring); ``auto``: eager for a rule with anchors, lazy
#: for one of one size (:func:`.covering.sized_mode`). Measured as
#: :data:`.cnf.DEFAULT_SIZED_MODE` (the same run), seconds lazy / eager for N x N = 6, 8, 10
#: -- Fillomino-like: 4.66 / 13.7, 13.5 / 38.2 (one of three unfinished), 22.0 / 58.9 (none
#: of three finished in 20 s); Nurikabe-like: 4.76 / 0.32, 10.6 / 0.82, 25.5 / 1.55 (each lazy
#: round a new search, 69-117 of them). The same split as the SAT backend's, wider.
SIZED_MODES = ("auto", "lazy", "eager")
DEFAULT_SIZED_MODE = "auto"
#: Each global rule's default mode here (the ``K_mode`` options).
DEFAULT_RULE_MODES = {
    "loop": DEFAULT_LOOP_MODE,
    "connected": DEFAULT_CONNECTED_MODE,
    "acyclic": DEFAULT_ACYCLIC_MODE,
    "sized": DEFAULT_SIZED_MODE,
}

OPTIONS = (
    Option(
        "colors", str, DEFAULT_COLORS, "variables for the colors of secondary items", COLOR_MODES
    ),
    Option(
        "loop_mode",
        str,
        DEFAULT_LOOP_MODE,
        "single-loop rule: AddCircuit, or lazy subtour cuts",
        LOOP_MODES,
        key="loop",
    ),
    Option(
        "connected_mode",
        str,
        DEFAULT_CONNECTED_MODE,
        "connected rule: lazy separation cuts, or an eager parent ordering with ranks",
        CONNECTED_MODES,
        key="connected",
    ),
    Option(
        "acyclic_mode",
        str,
        DEFAULT_ACYCLIC_MODE,
        "acyclic rule: lazy cycle cuts, or an eager orientation with ranks",
        ACYCLIC_MODES,
        key="acyclic",
    ),
    Option(
        "sized_mode",
        str,
        DEFAULT_SIZED_MODE,
        "sized rule: lazy piece cuts, an eager model of roots, counts and ranks, or auto:"
        " eager with anchors",
        SIZED_MODES,
        key="sized",
    ),
    Option("workers", int, "CP-SAT's choice", "CP-SAT search workers", low=1, metavar="N"),
)

SPEC = SolverSpec(
    name="cpsat",
    kind="search",
    summary="CP-SAT model from the exact-cover problem (OR-tools); loop by AddCircuit or cuts",
    options=OPTIONS,
    libraries=("ortools",),
    # Measured with ``benchmarks/memory.py`` on 100 x 100 loop boards: 1160 bytes per option
    # entry, rounded up; OR-tools itself takes about 160 MB of data once loaded (VmData).
    bytes_per_entry=1300,
    library_bytes=160 << 20,
    library_module="ortools",
    # OR-tools' CP-SAT may catch SIGINT itself (``solve`` asks it not to): it then stops the
    # search and returns as if out of time (see ``dlxsat.pipeline.run_solver``).
    catches_sigint=True,
    capped=("workers",),
)


def load() -> None:
    """Import OR-tools' CP-SAT now, so that a caller can time that apart."""
    ortools_loader.cp_model()


class _Model:
    """The CP-SAT model of a problem (its :mod:`.covering` model stated with CP-SAT's
    constraints) and the literals the search loop needs."""

    def __init__(self, problem: Problem, colors: str, modes: Mapping[str, str]) -> None:
        cp_model = ortools_loader.cp_model()  # without pandas: see ortools_loader

        self.cp_model = cp_model
        self.problem = problem
        m = self.m = cp_model.CpModel()
        model = covering.build(problem, colors=colors)
        self.x = [m.new_bool_var(f"option {k}") for k in range(len(problem.options))]
        lit: list[Any] = list(self.x)  # model variable → CP-SAT literal
        self.rule: LoopRule | None = None
        self.on: dict[int, Any] = {}
        #: The lazy connected, acyclic and sized rules: cut generator, member → its Boolean.
        self.lazy: list[tuple[ConnectedCuts | AcyclicCuts | SizedCuts, dict[int, Any]]] = []
        for p in model.primaries:
            lits = [lit[k] for k in p.options]
            if (p.lo, p.hi) == (1, 1):
                m.add_exactly_one(lits)  # an empty list makes the model infeasible, rightly
            elif p.lo == 0 and p.hi == 1:
                if len(lits) > 1:
                    m.add_at_most_one(lits)
            else:
                m.add_linear_constraint(sum(lits), p.lo, p.hi)
        for s in model.secondaries:
            for d in s.defined:
                self._defined(d, lit)
            if len(s.at_most_one) > 1:
                m.add_at_most_one([lit[k] for k in s.at_most_one])
        for members in model.members:
            for d in members.defined:
                self._defined(d, lit)
        if model.loop is not None:
            self._loop(model.loop, lit, modes["loop"])
        for members in model.members:
            rule = members.rule
            on = {k: lit[v] for k, v in enumerate(members.present) if v is not None}
            mode = modes[rule.kind]
            if isinstance(rule, Sized):
                mode = covering.sized_mode(rule, mode)
            eager = mode == "eager"
            if isinstance(rule, Sized):
                self._reaches(rule)
                if eager:
                    self._sized(rule, on)
                else:
                    self._lazy_sized(rule, on)
            elif isinstance(rule, Connected):
                if eager:
                    self._connected(rule, on)
                else:
                    self.lazy.append((ConnectedCuts(rule, list(on), CUT_SEPARATORS), on))
            elif eager:
                self._acyclic(rule, on)
            else:
                self.lazy.append((AcyclicCuts(rule), on))

    def _defined(self, d: covering.Defined, lit: list[Any]) -> None:
        """A new Boolean true exactly when one of ``d``'s options is chosen."""
        m = self.m
        v = m.new_bool_var(d.name)
        lit.append(v)
        for k in d.options:
            m.add_implication(lit[k], v)
        for k in d.excluded:
            m.add_implication(lit[k], v.negated())
        m.add_bool_or([v.negated(), *(lit[k] for k in d.options)])

    def _loop(self, shared: covering.Loop, lit: list[Any], mode: str) -> None:
        m = self.m
        self.on = on = {e: lit[v] for e, v in shared.on.items()}
        rule = shared.rule
        used: dict[int, Any] = {}
        for v, es in rule.incident().items():
            if es:
                used[v] = m.new_bool_var(f"used {v}")
                m.add(sum(on[e] for e in es) == 2 * used[v])
        if shared.some_edge:
            m.add_bool_or(list(on.values()))
        if mode == "circuit":
            if used:
                node = {v: j for j, v in enumerate(used)}
                arcs = [(node[v], node[v], used[v].negated()) for v in used]
                for e, u, v in rule.edges:
                    f = m.new_bool_var(f"arc {u}->{v}")
                    g = m.new_bool_var(f"arc {v}->{u}")
                    m.add(f + g == on[e])
                    arcs += [(node[u], node[v], f), (node[v], node[u], g)]
                m.add_circuit(arcs)
        else:
            self.rule = rule

    def _connected(self, rule: Connected, on: dict[int, Any]) -> None:
        """The eager connected rule: ranks that are distances from the root (the module
        docstring), so that every variable is determined by the options."""
        m = self.m
        order = sorted(on)
        if not order:
            return
        roots = set(rule.roots or ())
        rooted = rule.roots is not None
        # Without roots: the root (first present member) has rank 0. With roots: the virtual
        # root has 0, so a present root member has 1.
        rank = {k: m.new_int_var(0, len(order) - (not rooted), f"rank {k}") for k in order}
        root: dict[int, Any] = {}
        if not rooted:
            before: Any = None  # "some earlier member is present"
            for j, k in enumerate(order):
                r = root[k] = m.new_bool_var(f"root {k}")
                if before is None:
                    m.add(r == on[k])
                else:
                    m.add_bool_and([on[k], before.negated()]).only_enforce_if(r)
                    m.add_bool_or([on[k].negated(), before, r])
                if j + 1 < len(order):
                    nxt = m.new_bool_var(f"some member up to {k} present")
                    m.add_implication(on[k], nxt)
                    if before is None:
                        m.add_implication(nxt, on[k])
                    else:
                        m.add_implication(before, nxt)
                        m.add_bool_or([nxt.negated(), before, on[k]])
                    before = nxt
        for k in order:
            m.add(rank[k] == 0).only_enforce_if(on[k].negated())
            if k in root:
                m.add(rank[k] == 0).only_enforce_if(root[k])
            elif rooted:
                m.add(rank[k] == 1 if k in roots else rank[k] >= 1).only_enforce_if(on[k])
        steps: dict[int, list[Any]] = {k: [] for k in order}
        for a, b in rule.links:
            if a not in on or b not in on:
                continue
            both = [on[a], on[b]]
            m.add(rank[a] - rank[b] <= 1).only_enforce_if(both)
            m.add(rank[b] - rank[a] <= 1).only_enforce_if(both)
            for child, parent in ((a, b), (b, a)):
                if child in roots:
                    continue  # (rank 1: no present member is nearer the virtual root)
                # "parent is one step nearer the root": true exactly when it is.
                step = m.new_bool_var(f"{parent} one step before {child}")
                m.add_implication(step, on[child])
                m.add_implication(step, on[parent])
                m.add(rank[child] == rank[parent] + 1).only_enforce_if(step)
                m.add(rank[child] != rank[parent] + 1).only_enforce_if([*both, step.negated()])
                steps[child].append(step)
        for k in order:
            if k not in roots:
                m.add_bool_or([on[k].negated(), *([root[k]] if k in root else []), *steps[k]])

    def _acyclic(self, rule: Acyclic, on: dict[int, Any]) -> None:
        """The eager acyclic rule: each tree rooted at its least vertex, ranks its depths, each
        present edge one step down (the module docstring); determined by the options."""
        m = self.m
        edges = sorted(on)
        verts = sorted({x for k in edges for x in rule.ends[k]})
        if not verts:
            return
        rank = {x: m.new_int_var(0, len(verts) - 1, f"rank v{x}") for x in verts}
        # The least vertex of x's tree (the rule numbers vertices 0, 1, ...), and whether it
        # is x: x is then the root.
        least = {x: m.new_int_var(0, x, f"least of the tree of v{x}") for x in verts}
        root = {x: m.new_bool_var(f"root v{x}") for x in verts}
        out: dict[int, list[Any]] = {x: [] for x in verts}
        for x in verts:
            m.add(least[x] == x).only_enforce_if(root[x])
            m.add(least[x] <= x - 1).only_enforce_if(root[x].negated())
            m.add(rank[x] == 0).only_enforce_if(root[x])
        for k in edges:
            u, v = rule.ends[k]
            m.add(least[u] == least[v]).only_enforce_if(on[k])
            arcs = []
            for t, h in ((u, v), (v, u)):
                # "h is t's parent": t one step deeper than h, exactly when the edge is on.
                arc = m.new_bool_var(f"arc v{t}->v{h}")
                m.add_implication(arc, on[k])
                m.add(rank[t] == rank[h] + 1).only_enforce_if(arc)
                m.add(rank[t] != rank[h] + 1).only_enforce_if([on[k], arc.negated()])
                out[t].append(arc)
                arcs.append(arc)
            m.add_bool_or([on[k].negated(), *arcs])
        for x, group in out.items():
            if len(group) > 1:
                m.add_at_most_one(group)
            m.add_bool_or([root[x], *group])

    def _reaches(self, rule: Sized) -> None:
        """The distance labelling of each anchor with an owner item, as the SAT backend's
        :meth:`~dlxsat.backends.cnf._Builder.reaches` states it."""
        m = self.m
        for reach in covering.owned_reaches(self.problem, rule):
            for k in reach.beyond:
                m.add(self.x[k] == 0)
            owned: dict[int, Any] = {}
            for x in reach.depth:
                options = [self.x[k] for k in reach.owned[x]]
                if len(options) == 1:
                    owned[x] = options[0]
                    continue
                v = owned[x] = m.new_bool_var(f"owned {x} of {reach.anchor}")
                m.add_max_equality(v, options)
            label = {xk: m.new_bool_var(f"depth {xk} of {reach.anchor}") for xk in reach.labels()}
            for clause in reach.clauses():
                literals = [
                    (owned[x] if k is None else label[(x, k)], positive)
                    for x, k, positive in clause
                ]
                m.add_bool_or([b if positive else b.negated() for b, positive in literals])

    def _lazy_sized(self, rule: Sized, on: dict[int, Any]) -> None:
        """The sized rule by lazy cuts, after the members in no right piece are absent and a
        present member that cannot be a piece alone has a present neighbour (as the SAT
        backend's :meth:`~dlxsat.backends.cnf._Builder.lazy_sized`)."""
        m = self.m
        gone = set(covering.sized_impossible(rule, sorted(on)))
        for x in sorted(gone):
            m.add(on[x] == 0)
        anchored = dict(rule.anchors)
        adj = rule.neighbours()
        for x in sorted(on):
            if (rule.size if rule.size is not None else anchored.get(x, 0)) != 1:
                m.add_bool_or([on[x].negated(), *(on[y] for y in adj[x] if y in on)])
        left = [x for x in sorted(on) if x not in gone]
        if covering.one_piece_at_most(rule, left):
            m.add(sum(on[x] for x in left) <= (rule.size or 0))
        self.lazy.append((SizedCuts(rule, left), on))

    def _sized(self, rule: Sized, on: dict[int, Any]) -> None:
        """The eager sized rule (the module docstring): with exact sizes, each present member in
        the piece of one root, counted against the root's size; with ``at least``, each present
        member names its piece's first member, which counts its reach. Ranks that are distances
        from the root join every piece to it; every variable is determined by the options."""
        m = self.m
        order = sorted(on)
        want = rule.size or 1
        if not order or (rule.at_least and want <= 1):
            return
        where = covering.sized_roots(rule, order)
        anchors = {a for a, _ in rule.anchors}
        # root[x]: "x is the root of its piece" -- a present anchor; the first member of its
        # piece otherwise.
        root: dict[int, Any] = {}
        for x in order:
            if x in anchors:
                root[x] = on[x]
            elif rule.size is not None:
                root[x] = m.new_bool_var(f"root {x}")
                m.add_implication(root[x], on[x])
        if rule.at_least:
            # The root each present member names: its piece's first member (absent: 0).
            name = {x: m.new_int_var(0, x, f"root named by {x}") for x in order}
            for x in order:
                m.add(name[x] == 0).only_enforce_if(on[x].negated())
                m.add(name[x] == x).only_enforce_if(root[x])
                m.add(name[x] != x).only_enforce_if([on[x], root[x].negated()])
            for a, reach in where.reach.items():
                counted = [root[a]]
                for x in reach[1:]:
                    # "x is in a's piece": present and naming a, exactly.
                    c = m.new_bool_var(f"{x} in the piece of {a}")
                    m.add_implication(c, on[x])
                    m.add(name[x] == a).only_enforce_if(c)
                    m.add(name[x] != a).only_enforce_if([on[x], c.negated()])
                    counted.append(c)
                m.add(sum(counted) >= want).only_enforce_if(root[a])
            same = [(u, v, [(name[u], name[v])]) for u, v in rule.links if u in on and v in on]
            deepest = len(order)
        else:
            within: dict[int, dict[int, Any]] = {x: {} for x in order}
            for a, reach in where.reach.items():
                within[a][a] = root[a]
                for x in reach[1:]:
                    w = within[x][a] = m.new_bool_var(f"{x} in the piece of {a}")
                    m.add_implication(w, root[a])
                m.add(sum(within[x][a] for x in reach) == where.size[a] * root[a])
            for x in order:
                m.add(sum(within[x].values()) == on[x])  # (an empty sum: x is never present)
            same = []
            for u, v in rule.links:
                if u in on and v in on:
                    pairs = []
                    for a in within[u].keys() | within[v].keys():
                        pairs.append((within[u].get(a, 0), within[v].get(a, 0)))
                    same.append((u, v, pairs))
            deepest = max((min(where.size[a], len(r)) for a, r in where.reach.items()), default=1)
        for u, v, pairs in same:  # linked present members are in one piece
            for left, right in pairs:
                m.add(left == right).only_enforce_if([on[u], on[v]])
        self._ranks(rule, on, deepest, root)

    def _ranks(self, rule: Sized, on: dict[int, Any], deepest: int, root: dict[int, Any]) -> None:
        """Ranks that are distances from each piece's root (``root[x]``: "x is a root"; an
        anchor is one, a member without an entry never is), below ``deepest``: an absent
        member and a root have rank 0, linked present members ranks at most 1 apart, and every
        present member but a root a present neighbour exactly one rank below (the connected
        model's steps)."""
        m = self.m
        order = sorted(on)
        anchors = {a for a, _ in rule.anchors}
        rank = {k: m.new_int_var(0, max(0, deepest - 1), f"rank {k}") for k in order}
        for k in order:
            m.add(rank[k] == 0).only_enforce_if(on[k].negated())
            if k in root:
                m.add(rank[k] == 0).only_enforce_if(root[k])
        steps: dict[int, list[Any]] = {k: [] for k in order}
        for a, b in rule.links:
            if a not in on or b not in on:
                continue
            both = [on[a], on[b]]
            m.add(rank[a] - rank[b] <= 1).only_enforce_if(both)
            m.add(rank[b] - rank[a] <= 1).only_enforce_if(both)
            for child, parent in ((a, b), (b, a)):
                if child in anchors:
                    continue  # (rank 0: its piece's root)
                step = m.new_bool_var(f"{parent} one step before {child}")
                m.add_implication(step, on[child])
                m.add_implication(step, on[parent])
                m.add(rank[child] == rank[parent] + 1).only_enforce_if(step)
                m.add(rank[child] != rank[parent] + 1).only_enforce_if([*both, step.negated()])
                steps[child].append(step)
        for k in order:
            own = [root[k]] if k in root else []
            m.add_bool_or([on[k].negated(), *own, *steps[k]])

    def cuts(self, value: Callable[[Any], bool]) -> list[list[Any]]:
        """The clauses (lists of literals) of the cuts an answer breaks (``value``: whether a
        Boolean is true in it), of the lazy loop and every lazy rule; [] if it keeps them."""
        found: list[list[Any]] = []
        if self.rule is not None:
            on = self.on
            for c in self.rule.cuts([e for e, b in on.items() if value(b)]):
                found.append(
                    [on[c.inside].negated(), on[c.outside].negated(), *(on[e] for e in c.boundary)]
                )
        for cutter, members in self.lazy:
            present = [k for k, b in members.items() if value(b)]
            for cut in cutter.cuts(present):
                # A boundary member without a Boolean is never present: its literal is false.
                found.append(
                    [
                        members[k] if positive else members[k].negated()
                        for k, positive in cut.literals()
                        if k in members
                    ]
                )
        return found

    @property
    def cutting(self) -> bool:
        """Whether some rule is held by lazy cuts."""
        return self.rule is not None or bool(self.lazy)

    def add_clauses(self, clauses: list[list[Any]]) -> None:
        for clause in clauses:
            self.m.add_bool_or(clause)


def _solution(callback: Any) -> Callable[[int], bool]:
    """The value of each variable (by index) in the answer ``callback`` is reporting.

    The answer is read as one vector: asking for each variable through ``boolean_value``
    cost 0.48 ms an answer on a 1,000-option problem, more than the search (counting the
    3,609 exact covers of the pi-day SuperSlitherlink: 2.6 s, 0.9 s of it searching); the
    vector, 0.15 ms. (Where a callback has no ``response_proto``, as in older OR-tools,
    each variable is asked for without the Python wrapper's checks.)
    """
    proto = getattr(callback, "response_proto", None)
    if proto is None:
        value_of: Callable[[int], bool] = callback.SolutionBooleanValue
        return value_of
    values = proto.solution
    return lambda k: values[k] != 0


def solve(problem: Problem, request: Request, options: Mapping[str, Any]) -> SearchResult:
    """Find, count or list the solutions of ``problem`` with CP-SAT (see the module doc).

    ``workers``: CP-SAT's ``num_workers`` when looking for ``limit`` solutions (default: its
    own choice); counting them all uses one. Stats: ``variables``, ``constraints`` (of the
    first model), ``rounds`` (solver calls), ``cuts``, ``seconds`` (everything),
    ``build_seconds`` (the model), ``solve_seconds`` (inside CP-SAT), ``cut_seconds``,
    ``solver``, ``colors``, ``loop_mode`` (``none`` without the rule), ``connected_mode``,
    ``acyclic_mode`` and ``sized_mode`` (with such a rule; ``sized_mode`` as ``auto``
    resolved it: :func:`.covering.sized_modes`), ``workers``.

    >>> from dlxsat.xcc import parse
    >>> r = solve(parse("a b c\\na b\\nc\\na\\nb c\\n"), Request(), {})
    >>> r.count, sorted(r.solutions), r.exhausted
    (2, [[0, 1], [2, 3]], True)
    """
    start = time.perf_counter()
    cm = options.get("colors", DEFAULT_COLORS)
    kinds = {rule.kind for rule in problem.rules}
    modes = {
        kind: options.get(f"{kind}_mode", default) if kind in kinds else "none"
        for kind, default in DEFAULT_RULE_MODES.items()
    }
    workers = options.get("workers")
    limit = request.limit
    model = _Model(problem, cm, modes)
    cp_model = model.cp_model
    proto = model.m.Proto()
    built = time.perf_counter()
    import ortools

    stats: dict[str, Any] = {
        "variables": len(proto.variables),
        "constraints": len(proto.constraints),
        "rounds": 0,
        "cuts": 0,
        "solver": f"cp-sat {getattr(ortools, '__version__', '?')}",
        "colors": cm,
        **{f"{k}_mode": mode for k, mode in modes.items() if k == "loop" or mode != "none"},
        **(
            {"sized_mode": covering.sized_modes(problem, modes["sized"])}
            if "sized" in kinds
            else {}
        ),
        "workers": workers,
    }
    result = SearchResult(stats=stats)
    x = model.x
    x_index = [v.index for v in x]
    enumerate_all = limit is None
    seen: set[tuple[int, ...]] = set()

    callback: Any = cp_model.CpSolverSolutionCallback  # (OR-tools ships no stubs for it)

    # (OR-tools' package is untyped, so mypy sees its base class as Any: nothing to check.)
    class Collector(callback):  # type: ignore[misc]
        """Takes each answer: a new valid one is kept, a multi-cycle one stops for cuts."""

        def __init__(self) -> None:
            super().__init__()
            self.new: list[tuple[int, ...]] = []
            self.cuts: list[Any] = []
            self.values: list[bool] = []
            self.full = False
            self.stopped = False
            self.cutting = 0.0

        def stop(self) -> None:
            # Parallel workers may still report answers after StopSearch; they are
            # dropped, so a round never gives more than was asked for.
            self.stopped = True
            self.stop_search()

        def on_solution_callback(self) -> None:
            if self.stopped:
                return
            solution = _solution(self)
            values = [solution(k) for k in x_index]
            chosen = tuple(k for k, b in enumerate(values) if b)
            if chosen in seen:
                return
            if model.cutting:
                t0 = time.perf_counter()
                cuts = model.cuts(lambda b: solution(b.index))
                self.cutting += time.perf_counter() - t0
                if cuts:
                    self.cuts, self.values = cuts, values
                    self.stop()
                    return
            seen.add(chosen)
            self.new.append(chosen)
            self.values = values
            if limit is not None and count + len(self.new) >= limit:
                self.full = True
                self.stop()
            elif not enumerate_all:
                self.stop()

    solving = cutting = 0.0
    count = 0  # answers found (result.count, kept as a plain int here)
    while limit is None or count < limit:  # limit 0: look for nothing
        left = request.deadline.remaining()
        if left is not None and left <= 0:
            result.timed_out = True
            break
        solver = cp_model.CpSolver()
        # dlxsat handles Ctrl-C itself (dlxsat.runtime.guard); CP-SAT's own SIGINT handler is not
        # async-signal-safe and now and then aborted the process mid-search.
        solver.parameters.catch_sigint_signal = False
        if left is not None:
            solver.parameters.max_time_in_seconds = left
        if enumerate_all:
            solver.parameters.num_workers = 1  # with more, CP-SAT may miss solutions
        elif workers is not None:
            solver.parameters.num_workers = workers
        solver.parameters.enumerate_all_solutions = enumerate_all
        cb = Collector()
        t0 = time.perf_counter()
        # Solve releases the GIL: the process guard's watchdog stops it at once on a signal.
        with guard.stop_hook(solver.stop_search):
            status = solver.solve(model.m, cb)
        solving += time.perf_counter() - t0 - cb.cutting
        cutting += cb.cutting
        stats["rounds"] += 1
        for chosen in cb.new:
            count += 1
            if request.keeps(len(result.solutions)):
                result.solutions.append(list(chosen))
        result.count = count
        request.found(count)
        if cb.full:
            break
        if status == cp_model.MODEL_INVALID:
            raise RuntimeError("cpsat: invalid model: " + model.m.validate())
        if status == cp_model.INFEASIBLE:
            result.exhausted = True
            break
        # Did the callback stop the search to go on (a cut, or the one answer of this round)?
        stopped = bool(cb.cuts) or (not enumerate_all and bool(cb.new))
        if not stopped:
            if status == cp_model.OPTIMAL:
                result.exhausted = True  # the enumeration ran to its end
            else:
                result.timed_out = True  # FEASIBLE or UNKNOWN: the time limit came first
            break
        if cb.cuts:
            model.add_clauses(cb.cuts)
            stats["cuts"] += len(cb.cuts)
        for chosen in cb.new:
            block = [
                x[k] if value else x[k].negated()
                for k, value in covering.blocking(problem, list(chosen))
            ]
            model.m.add_bool_or(block)  # empty: no other solution, next round is infeasible
        model.m.clear_hints()
        for v, b in zip(x, cb.values, strict=True):
            model.m.add_hint(v, b)
    end = time.perf_counter()
    stats["build_seconds"] = round(built - start, 6)
    stats["solve_seconds"] = round(solving, 6)
    stats["cut_seconds"] = round(cutting, 6)
    stats["seconds"] = round(end - start, 6)
    return result
