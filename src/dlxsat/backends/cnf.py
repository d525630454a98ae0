"""The SAT backend: an exact-cover problem as CNF, solved with PySAT, exported as DIMACS.

The translation (every CNF here starts the same way)
    * Variables ``1 .. len(problem.options)`` are the options, in order: true = chosen.
      ``dlxsat decode`` and :func:`read_solver_output` rely on it.
    * A primary item with bounds ``[lo, hi]`` (``1, 1`` for plain exact cover) is covered
      between ``lo`` and ``hi`` times: a cardinality constraint over the options holding it,
      in the encoding chosen (``encoding``: :data:`ENCODINGS`, PySAT's ``pysat.card``). A
      bound of one that the secondary items' colors already imply (:func:`colors_differ`)
      is left out where it would take auxiliary variables.
    * A secondary item follows docs/conventions.md §3. With ``colors='onehot'`` each of its
      colors ``c``
      gets a variable ``y_c`` meaning "some chosen option gives it color ``c``" (an option
      with that color implies ``y_c``, and ``y_c`` implies one of those options); at most one
      of the ``y_c`` and the options that use the item uncolored is true. With
      ``colors='binary'`` an item with exactly two colors gets one variable instead, true for
      one color (``1`` when it is one of them) and false for the other or for "unused".
    * The single-loop rule (``loop``; docs/conventions.md §4): an edge is *on* when its color-``1``
      variable is true. Every vertex has 0 or 2 edges on (:mod:`.loopcuts`); then either
      ``lazy`` cuts are added between incremental solver calls (the solver keeps its learnt
      clauses), or the ``eager`` encoding below makes every model a single loop.
    * The connected, acyclic and sized rules (``connected``, ``acyclic``, ``sized``;
      :mod:`dlxsat.xcc.rules`): each member has a variable "present"
      (:class:`.covering.Members`). Then either ``lazy`` cuts (:mod:`.rulecuts`) are added
      between calls and from inside a call (the propagator observes the members' variables),
      or the ``eager`` encodings below.

The eager loop encoding (``loop_mode='eager'``, and ``dlxsat export dimacs --loop eager``)
    A rooted ordering. The *root* is the used vertex that comes first in item order (a prefix
    chain of "some earlier vertex is used" variables makes it unique and determined). Every
    edge that is on gets a direction (two arc variables, exactly one true when the edge is
    on, none otherwise); a used vertex has one arc out and one in. Every vertex has a label
    of ``B = ceil(log2(number of vertices))`` bits, and an arc ``t -> h`` whose head ``h`` is
    not the root forces ``label(t) < label(h)`` (a comparator of ``3B`` clauses and ``B - 1``
    auxiliary variables). A cycle avoiding the root would need ever larger labels all the
    way round, so every cycle goes through the root: there is one. Conversely the labels
    0, 1, 2, ... along any single loop from its root satisfy it, so the encoding is complete
    and exact. It is ``O(E log V)`` in size, against ``O(V^2)`` or worse for reachability
    by steps or transitive closure.

The eager connected encoding (``connected_mode='eager'``, ``export --connected eager``)
    A parent ordering over the members that can be present (one that cannot is never present
    and no way through). Without roots the *root* is the first present member in member
    order (the prefix chain of the loop's root). Each link gives two arc variables, "the
    parent of ``u`` is ``v``", each implying both present; every present member but the root
    has a parent (one clause), and an arc forces ``label(parent) < label(child)`` over
    ``B = ceil(log2(members))`` bits (the loop's comparator). Following parents lowers the
    label at each step, so it ends, and only at the root: every present member is joined to
    it through present members, and the present set is connected. With ``roots`` a virtual
    root, parent of every root member, takes the root's place: a root member needs no parent,
    every other present member does, so every present member reaches a root member. Complete:
    in a connected answer, breadth-first search from the root gives each present member its
    parent and its depth as label (below the number of members), which satisfy every clause;
    the root is determined by the options, so the models projected on the options are
    exactly the answers. Size: ``O(L log M)`` for ``L`` links and ``M`` members.

The eager acyclic encoding (``acyclic_mode='eager'``, ``export --acyclic eager``)
    An orientation. Each member (an edge ``u - v``) that can be present gets two arc variables,
    exactly one true when it is present and none otherwise; each vertex has at most one arc
    out (its parent edge); every vertex has a label of ``B`` bits, and an arc ``t -> h``
    forces ``label(h) < label(t)``, so no directed cycle exists. Sound: a cycle of present
    edges through ``k`` vertices has ``k`` edges, each oriented out of one of its ``k``
    vertices, each of which has at most one arc out -- so each has exactly one, along the
    cycle, and the cycle is directed, which the labels forbid (two parallel edges are a cycle
    of two). Complete: root each tree of a forest anywhere and orient every edge toward the
    root, labels the depths -- one arc out of each vertex but the roots, labels falling
    toward the root. Size: ``O(E log V)``.

The eager sized encoding (``sized_mode='eager'``, ``export --sized eager``)
    Roots and counts. Every piece is named by one member, its *root*: its anchor, or with one
    size ``s`` for every piece its first member in member order; a member can only be in the
    piece of a root that reaches it in fewer than the root's size links through members that
    can be present (and, one size for all, after the root; anchors: avoiding other anchors) --
    :func:`.covering.sized_roots`. A variable ``w(x, a)``, "``x`` is in the piece of root
    ``a``", per such pair, ``w(a, a)`` being "``a`` is a root" (for an anchor, its presence).
    Clauses: ``w(x, a)`` implies ``x`` present and ``a`` a root; a present member is in exactly
    one root's piece; two linked present members are in the same one (``p(x) and p(y) and
    w(x, a) -> w(y, a)``); the ``w(., a)`` of a root number exactly its size -- at most ``size``
    always (all false when ``a`` is no root), at least ``size`` when ``a`` is a root (``size``
    slack variables equal to "not a root" join the at-least constraint, so that any encoding
    of ``pysat.card`` can state it). Then the connected encoding's parent ordering: every
    present member but a root has a present linked parent of smaller depth, the depths below
    the largest size -- in an order encoding ("depth at least k", :data:`UNARY_DEPTH`), else
    labels of ``ceil(log2(largest size))`` bits. Sound: following parents from a present member ends
    at a root in its piece; linked present members share their root, so the whole piece is
    in the root's class and the class is the piece (every member of the class reaches the
    root through its own piece); its count is the root's size, and a piece holds one root (two
    would each be their own). A piece holding no anchor has no root: impossible. Complete:
    name each piece by its anchor or first member, labels its breadth-first depths from the
    root (below its size), the root reaching every member of it through members after it.
    Size: ``O(sum of the reaches)`` -- each member times the members within ``size`` links.
    One clause per member is implied but stated for propagation: a present member that
    cannot be a piece alone (its size is not 1, or it is no anchor) has a present neighbour.

    *Slots*: a rule of one exact size ``s`` with room for at most
    :data:`.covering.SLOT_PIECES` pieces (:func:`.covering.sized_slots`) names no roots:
    each present member is in one of ``r`` slots (``r`` the room), linked present members
    in the same one, each slot has 0 or ``s`` members (one counter a slot), and each slot's
    members are joined by parents of smaller depth to its first member, the slots ordered
    by their first members. Sound: a slot is a union of pieces, connected, of ``s``
    members: one piece. Complete: number the pieces by their first members. Size:
    ``O(r * members * s)``, against the roots' ``O(members * reach)``.

    *At least* ``s`` (``|@size s+``): pieces are unbounded, so every present member names its
    piece's root in ``ceil(log2(members))`` bits, linked present members name the same, a root
    names itself; every present member but a root has a parent (as above, labels of as many
    bits) -- so a piece names a root in it. A variable ``c(x, a)`` per member ``x`` of root
    ``a``'s reach (fewer than ``s`` links from ``a``, after ``a``) implies ``x`` present and
    naming ``a``: in ``a``'s piece; a root needs ``s`` of them (itself included). Sound: ``s``
    members of ``a``'s piece. Complete: root each piece at its first member: the first ``s``
    of a breadth-first search from it lie in its reach.

Enumeration blocks each answer found with a clause over the option variables (the negated
chosen options suffice when every primary item has ``lo == hi``: no answer contains another),
so solutions are counted once whatever the auxiliary variables do.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from itertools import compress
from operator import itemgetter, lt
from typing import Any

from ..errors import InputError, SolverFailure
from ..options import Option
from ..runtime import guard, memory
from ..runtime.processes import signals_held
from ..xcc import Problem
from ..xcc.loop import ON
from ..xcc.rules import Acyclic, Connected, Sized
from . import Request, SearchResult, SolverSpec, covering
from .covering import COLOR_MODES, DEFAULT_COLORS, CoveringModel, Defined
from .loopcuts import Cut, LoopRule
from .proof import PROOF_SOLVER
from .rulecuts import AcyclicCuts, ConnectedCuts, SizedCuts

#: Cardinality encodings (names of ``pysat.card.EncType``), and ``auto``: chosen per constraint.
ENCODINGS = (
    "auto",
    "pairwise",
    "seqcounter",
    "ladder",
    "totalizer",
    "bitwise",
    "sortnetwrk",
    "cardnetwrk",
    "mtotalizer",
    "kmtotalizer",
    "native",
)
#: These encode "at most one" only.
AMO_ONLY = frozenset({"pairwise", "bitwise", "ladder"})
#: ``auto``: pairwise for "at most one" among at most this many literals (O(n^2) clauses, no
#: auxiliary variables, the strongest propagation), ``AUTO_AMO`` above it, ``AUTO_CARD`` for
#: larger bounds.
#:
#: Measured with ``benchmarks/loops.py --set encodings --repeat 3`` (2 cores; 18 loop puzzles up
#: to 40 x 30 Slitherlink, unique-answer search; total seconds, best of 3): auto 2.13,
#: seqcounter 2.32, kmtotalizer 2.38, mtotalizer 2.73, cardnetwrk 2.90, totalizer 3.03,
#: sortnetwrk 3.53; pairwise 1.95, bitwise 2.15 and ladder 2.52 on the 15 puzzles they can do
#: (not SuperSlitherlink's larger bounds). Solver time alone (best of 5, 10 puzzles): auto
#: 0.77 s, pairwise 0.81, bitwise 0.96, ladder 1.13. So ``auto`` (pairwise on the small groups
#: loop puzzles have, a linear encoding on Sudoku's larger ones) is the default; counting
#: every golden case shows the same order within noise.
AUTO_PAIRWISE_MAX = 6
AUTO_AMO = "seqcounter"
AUTO_CARD = "seqcounter"
DEFAULT_ENCODING = "auto"

LOOP_MODES = ("lazy", "eager")
#: Lazy cuts solve the 30 x 25 Slitherlink in well under 0.2 s of solver time (about 15
#: rounds); the eager encoding (a formula 4 times larger) needs 4-10 s.
DEFAULT_LOOP_MODE = "lazy"
#: The connected and acyclic rules: lazy cuts (:mod:`.rulecuts`), or the eager encodings of
#: the module docstring. Measured with ``benchmarks/rules.py`` (two answers asked for, three
#: instances of each size summed, 30 s each, 2 cores at load 7-8), seconds lazy / eager for
#: N x N = 8, 10, 12, 15 -- a connected sea: 0.11 / 0.41, 0.17 / 1.50, 0.36 / 7.20,
#: 0.26 / 18.1; the sea, every white region reaching the border: 0.20 / 1.19, 0.32 / 3.18,
#: 2.55 / 11.2, 34.7 / 62.3; a spanning tree (connected and acyclic): 0.06 / 7.8,
#: 0.17 / 63.8, 0.34 / none of 3 in 30 s, 0.77 / none. Lazy it is: the incremental solver
#: keeps its learnt clauses across the rounds (16-76 for three instances, 2,392 on the
#: hardest row), while the eager labels' comparators propagate little.
CONNECTED_MODES = ("lazy", "eager")
DEFAULT_CONNECTED_MODE = "lazy"
#: Acyclic alone (a forest, degrees given as clues), the same way: 0.11 / 0.12, 0.13 / 0.27,
#: 0.30 / 0.39, 0.39 / 1.00 -- lazy again, by less.
ACYCLIC_MODES = ("lazy", "eager")
DEFAULT_ACYCLIC_MODE = "lazy"
#: The lazy connected rule's boundaries (:data:`.rulecuts.SEPARATORS`): the least separator,
#: the shortest clause (figures in :mod:`.rulecuts`) -- for a rule of at most
#: :data:`LEAST_MAX_MEMBERS` members that can be present; a larger one gets the front
#: separators. Each least separator is a maximum flow in Python, a breadth-first search over
#: the whole member graph per unit of flow when the piece cut off is far from the largest, and
#: on the largest corpus boards finding them cost 10-60 x the solver's time. Measured with the
#: SAT backend (2 cores, load 14-17, 2026-11-27), least against front: LITS 360_40x57 (2,280
#: members) 52-61 s (49.7 s finding 123 cuts) against 3.8 s, 29_31x45 over 60 s against 6.3;
#: Creek 439_30x48 38-63 s against 4.5, 352_30x45 over 60 s against 7.3; Cave 50_25x25 (625
#: members, two rules) 18-28 s against 2.4, 20_18x18 (324) 3.8 against 1.5. The 15 x 15 seas
#: of the figures in :mod:`.rulecuts` (225 members) keep the least. With the flows in C++
#: (:data:`.rulecuts.PYTHON_FLOW_SECONDS`; 2026-11-29, one process, idle), least against
#: front: LITS 360_40x57 1.01 / 1.04 s, 29_31x45 2.18 / 1.27; Creek 439_30x48 1.40 / 1.03,
#: 352_30x45 4.75 / 2.47; Cave 50_25x25 0.79 / 0.53, 20_18x18 0.60 / 0.41: front still.
CUT_SEPARATORS = "least"
#: The sized rule: lazy :class:`~dlxsat.xcc.rules.Piece` cuts, the eager encoding of the
#: module docstring, or ``auto``: eager for a rule with anchors, lazy for one of one size
#: (:func:`.covering.sized_mode`). Measured with ``benchmarks/sized.py`` (two answers asked
#: for, three instances of each size summed, 20 s each, 2 cores at load 1.5 rising to 10),
#: seconds lazy / eager for N x N = 6, 8, 10 -- Fillomino-like (a rule of one size per label
#: 1-5, one of at least 6): 0.06 / 2.06, 0.25 / 11.8, 0.30 / 28.3; Nurikabe-like (one rule,
#: an anchor per island): 0.08 / 0.07, 0.32 / 0.17, 0.83 / 0.32. Without anchors every member
#: is a candidate root of every member within the size, and the eager formula grows with the
#: members times the size while 28-50 rounds of cuts suffice; with anchors the roots are the
#: few anchors, and the eager formula, small, saves the 72-169 rounds. Hence ``auto``. A rule
#: that states its own preference (:attr:`Sized.prefer <dlxsat.xcc.rules.Sized.prefer>`) has
#: it under ``auto``: on the corpus's Nurikabe, whose owners already place the islands' cells,
#: lazy won (726_10x10 9.3 s eager, 0.30 s lazy); Fillomino's anchored labels want eager.
SIZED_MODES = ("auto", "lazy", "eager")
DEFAULT_SIZED_MODE = "auto"
#: The eager sized encoding's depths (below the largest size) are order-encoded up to this
#: size, binary labels above it. Measured (``benchmarks/sized.py``'s 8 x 8 Fillomino boards,
#: seeds 0-5, the exact-size rules, two answers asked for; solver seconds, best of two runs):
#: order encoding 0.24 s and 395 conflicts, binary labels 0.65 s and 1,503.
UNARY_DEPTH = 16
LEAST_MAX_MEMBERS = 256
#: Each global rule's modes here (the ``K_mode`` options), and its default.
RULE_MODES = {
    "loop": LOOP_MODES,
    "connected": CONNECTED_MODES,
    "acyclic": ACYCLIC_MODES,
    "sized": SIZED_MODES,
}
DEFAULT_RULE_MODES = {
    "loop": DEFAULT_LOOP_MODE,
    "connected": DEFAULT_CONNECTED_MODE,
    "acyclic": DEFAULT_ACYCLIC_MODE,
    "sized": DEFAULT_SIZED_MODE,
}
#: ``--set solvers --repeat 3`` (total seconds as above): cadical195 2.22, cadical153 2.23,
#: glucose4 2.34, glucose42 2.36, minisat22 2.40, mergesat3 2.78, cadical300 3.56,
#: maplechrono 3.69, maplecm 4.08, lingeling 5.98.
DEFAULT_SOLVER = "cadical195"

#: How answers are enumerated (``enumerate``) and how the solver branches (``branching``); see
#: :mod:`.satsearch`. ``calls``: a solver call per answer, its blocking clause added between
#: calls; ``inside``: one call, each answer refused mid-search with its blocking clause by an
#: external propagator. ``solver``: CaDiCaL's own heuristic; ``items``: DLX's (the primary item
#: with fewest free options, its first free option); ``mixed``: DLX's while answers come, the
#: two taking turns of growing length when they stop. ``inside``, ``items`` and ``mixed`` need
#: :data:`PROPAGATOR_SOLVER`. ``auto`` (the defaults): ``inside`` and ``mixed`` when every
#: answer is wanted (a count, or all of them) with that solver, ``calls`` and ``solver``
#: otherwise. Measured (:mod:`.satsearch` has the table; docs/xcc.md "Counting with SAT"):
#: the 1,472 pentomino packings of 4 x 15 in 46-52 s, where one call per answer found 8-20 in
#: 30 s; 12 queens and Langford 11 as fast or faster than by calls; ``mixed`` rather than
#: ``items`` because DLX's branching alone did not count a minimal 25 x 25 Sudoku in a minute
#: (``mixed`` 7-10 s, ``solver`` 2-4 s). When one or two answers are wanted (is the puzzle's
#: answer unique?) ``calls`` and ``solver`` stay: the puzzle families were measured that way.
ENUMERATIONS = ("auto", "calls", "inside")
BRANCHINGS = ("auto", "solver", "items", "mixed")
#: The one PySAT solver with the external-propagator interface (IPASIR-UP).
PROPAGATOR_SOLVER = "cadical195"

OPTIONS = (
    Option("encoding", str, DEFAULT_ENCODING, "cardinality encoding (pysat.card)", ENCODINGS),
    Option(
        "colors", str, DEFAULT_COLORS, "variables for the colors of secondary items", COLOR_MODES
    ),
    Option("solver", str, DEFAULT_SOLVER, "PySAT solver name (cadical195, glucose4, ...)"),
    Option(
        "loop_mode",
        str,
        DEFAULT_LOOP_MODE,
        "single-loop rule: lazy subtour cuts, or an eager complete CNF encoding",
        LOOP_MODES,
        key="loop",
    ),
    Option(
        "connected_mode",
        str,
        DEFAULT_CONNECTED_MODE,
        "connected rule: lazy separation cuts, or an eager complete CNF encoding",
        CONNECTED_MODES,
        key="connected",
    ),
    Option(
        "acyclic_mode",
        str,
        DEFAULT_ACYCLIC_MODE,
        "acyclic rule: lazy cycle cuts, or an eager complete CNF encoding",
        ACYCLIC_MODES,
        key="acyclic",
    ),
    Option(
        "sized_mode",
        str,
        DEFAULT_SIZED_MODE,
        "sized rule: lazy piece cuts, an eager complete CNF encoding, or auto: eager with anchors",
        SIZED_MODES,
        key="sized",
    ),
    Option(
        "enumerate",
        str,
        "auto",
        "answers one solver call each (calls), or blocked inside one call (inside; cadical195)",
        ENUMERATIONS,
    ),
    Option(
        "branching",
        str,
        "auto",
        "the solver's decisions, DLX's (the item with fewest options), or both (cadical195)",
        BRANCHINGS,
    ),
    Option(
        "proof",
        bool,
        False,
        "with one answer or none: the solver writes a DRAT proof refuting any other answer, its "
        "figures in the stats (proof_bytes, proof_seconds, premises; what solve --certify "
        "writes)",
    ),
)


def _check_solver(options: dict[str, Any], rules: Collection[str] | None) -> None:
    """The SAT solver's name is known to PySAT, and can take a ``native`` encoding."""
    if "solver" in options:
        options["solver"] = _solver_name(options["solver"])
    name = options.get("solver", DEFAULT_SOLVER)
    if options.get("encoding") == "native" and name not in _NATIVE_CARDINALITY:
        raise InputError(
            "encoding 'native' needs a solver with cardinality constraints "
            f"({', '.join(sorted(_NATIVE_CARDINALITY))}), not {name!r}"
        )
    if options.get("proof") and name != PROOF_SOLVER:
        raise InputError(f"proof needs the solver {PROOF_SOLVER}, not {name!r}")
    for key, value in (("enumerate", "inside"), ("branching", "items"), ("branching", "mixed")):
        if options.get(key) == value and name != PROPAGATOR_SOLVER:
            raise InputError(
                f"{key} {value!r} needs the solver {PROPAGATOR_SOLVER} "
                f"(an external propagator), not {name!r}"
            )


SPEC = SolverSpec(
    name="sat",
    kind="search",
    summary="CNF from the exact-cover problem, solved by a PySAT solver; global rules by lazy cuts",
    options=OPTIONS,
    libraries=("python-sat",),
    # Memory per option entry (item occurrence), measured with ``benchmarks/memory.py`` on
    # 100 x 100 loop boards: 700 bytes, rounded up. PySAT's solvers load little.
    bytes_per_entry=900,
    validate=_check_solver,
)

#: The memory a solver takes for a formula, beyond the formula's own lists: bytes per variable,
#: clause and literal, fitted to CaDiCaL 1.9.5 in PySAT after a first call (random formulas of
#: 0.3-3 million variables, 1-4 million clauses of 2-8 literals: 249-1,001 MB, each within 10 %
#: of the fit) and rounded up. :meth:`Session` refuses a formula that would not fit in the
#: run's memory limit: past it, the solver's allocation fails in C++, where no Python error is
#: raised and the process aborts (``std::bad_alloc``: a 20 x 36 Fillomino's eager sized
#: encoding, 30 million variables and 62 million clauses).
SOLVER_BYTES_PER_VARIABLE = 300
SOLVER_BYTES_PER_CLAUSE = 64
SOLVER_BYTES_PER_LITERAL = 12

#: Before PySAT's C++ encodes a cardinality constraint of ``k`` of ``n`` (or ``n - k``), at
#: most ``3 n min(k, n - k + 1)`` clauses (the sequential counter ``2 n k``, the totalizer
#: 2.8 n k on 700 literals with a bound of 128, the others fewer), each some
#: ``CARD_BYTES_PER_CLAUSE`` as C++ vectors and then Python lists, must fit in the memory left,
#: with ``CARD_RESERVE`` to spare for the constraints until the next check: constraints of more
#: than a 32nd of that reserve are checked each, the others every ``CARD_CHECK_EVERY``-th
#: (reading the process's memory costs some 30 microseconds).
CARD_BYTES_PER_CLAUSE = 200
CARD_RESERVE = 64 << 20
CARD_CHECK_EVERY = 256

#: Solvers with native cardinality constraints in PySAT (``add_atmost``: encoding ``native``).
_NATIVE_CARDINALITY = frozenset({"minicard", "gluecard3", "gluecard4"})
#: Solvers that cannot take new clauses after solving (a new solver is built each round).
_NOT_INCREMENTAL = frozenset({"kissat404"})
#: Solvers whose calls can be stopped by a conflict budget only (no interrupt in PySAT).
_BUDGET_ONLY = frozenset({"cadical103", "cadical153", "cadical195", "cadical300"})
#: Solvers whose calls cannot be stopped at all: the time limit is checked between calls.
_UNSTOPPABLE = frozenset({"lingeling", "kissat404"})
#: Seconds a CaDiCaL call should take at most (its conflict budget adapts to it): CaDiCaL holds
#: the GIL, so neither a signal's handler nor the process guard's watchdog can act before it
#: returns, and a run must end within 0.5 s of a signal or its deadline. A fixed budget of 2000
#: conflicts took 0.77 s on a 200 x 200 Masyu on a loaded machine (and up to 50000 were given).
SLICE_SECONDS = 0.05
#: The same, for CaDiCaL 1.9.5 once a call of the session has outlasted its first conflict
#: budget (``Session._go_on_sliced``): longer slices, each a call that begins again from the
#: root, for searches of seconds to minutes. A propagator ending one long call at the
#: deadline instead (``satsearch.CallStopper``, the way before) is asked four Python questions
#: a decision; in slices of 0.25 s the same searches took half the time or less (two pentomino
#: packings of 6 x 10 2.63 -> 0.97 s, Kuromasu 370_31x45 1.67 -> 1.04 s, NumberLink
#: 553_15x15 19.5 -> 9.8 s, a minimal 25 x 25 Sudoku 1.34 -> 1.07 s; docs/backends.md), where
#: slices of 0.05 s, or of 1,000 conflicts, cut the searches too often (the pentominoes 2.4 s).
LONG_SLICE_SECONDS = 0.25
#: The last slice before a deadline gets this share of the time left, at the pace (conflicts a
#: second) of the slice before it: the process's alarm goes off 0.2 s past the deadline
#: (``runtime.guard.ALARM_GRACE``), and a slice's pace varies from one to the next.
DEADLINE_SHARE = 0.5
#: The first conflict budget, and the bounds of the budget.
FIRST_BUDGET, MIN_BUDGET, MAX_BUDGET = 1000, 50, 1 << 20
#: The first budget of a CaDiCaL 1.9.5 call (before the session goes on in slices:
#: ``Session._go_on_sliced``) times the formula's clauses is at most this: 1,000
#: conflicts up to 200,000 clauses, fewer beyond. A signal or the deadline waits for the
#: budget to end (2,000 conflicts took 0.77 s on a 200 x 200 Masyu, above).
FIRST_BUDGET_CLAUSES = 200_000_000
#: CaDiCaL's inprocessing off: a conflict budget does not bound it, and in an incremental
#: search (a blocking clause or a loop cut per round) variable elimination must be undone and
#: redone -- one call with a budget of 500 conflicts took 3.0 s on a sparse 40 x 40 Masyu
#: count. Measured (one loaded run each): that count reached 145 answers in 6 s instead of 11,
#: its longest call 0.15 s instead of 2.8 s; a minimal 25 x 25 Sudoku took 10.4 and 11.7 s
#: instead of 9.2 and 11.1 s (its longest call 0.21 s instead of 0.37 s).
CADICAL_OPTIONS = {"elim": 0, "probe": 0, "vivify": 0, "subsume": 0, "lucky": 0}


def load() -> None:
    """Import PySAT's solvers and encodings now, so that a caller can time that apart."""
    import pysat.card  # noqa: F401
    import pysat.solvers  # noqa: F401


# --------------------------------------------------------------------------- the formula


@dataclass
class Cnf:
    """A CNF built from a :class:`Problem`, with what each variable means.

    ``on`` maps each edge item that can be on to its (positive) literal; ``rule`` is the
    loop rule when the lazy loop mode needs cuts; ``lazy`` the connected, acyclic and sized
    rules in lazy mode. ``atmosts`` hold the ``native`` cardinality constraints (for solvers with
    ``add_atmost``).
    """

    n_options: int
    nvars: int = 0
    clauses: list[list[int]] = field(default_factory=list)
    atmosts: list[tuple[list[int], int]] = field(default_factory=list)
    #: Descriptions of single variables past the options (see :meth:`described`), and of
    #: options named otherwise (a loop's edges).
    names: dict[int, str] = field(default_factory=dict)
    ranges: list[tuple[int, int, str]] = field(default_factory=list)
    on: dict[int, int] = field(default_factory=dict)
    rule: LoopRule | None = None
    lazy: list[MemberCuts] = field(default_factory=list)
    describe: list[str] = field(default_factory=list)
    #: When a list, every cut :meth:`cuts` makes is appended to it as ``(rule, cut, clause)``
    #: (the loop's :class:`.loopcuts.LoopRule` or a member rule, the cut's data, its clause):
    #: a certificate's premises (:mod:`dlxsat.certify`) are these cuts, each justified apart.
    log: list[tuple[Any, Any, list[int]]] | None = None
    #: CaDiCaL options the problem asks for (:attr:`Problem.cadical_options
    #: <dlxsat.xcc.model.Problem.cadical_options>`), set over the backend's own.
    configure: dict[str, int] = field(default_factory=dict)

    def described(self, problem: Problem) -> dict[int, str]:
        """Every variable's description: an option's text (variable ``k + 1`` is option
        ``k``), or what :attr:`names` says."""
        texts = {k + 1: f"option {problem.option_text(k)}" for k in range(self.n_options)}
        texts.update(self.names)
        return texts

    def cut_clause(self, cut: Cut) -> list[int]:
        """The clause of a loop cut (see :mod:`.loopcuts`)."""
        return [-self.on[cut.inside], -self.on[cut.outside], *(self.on[e] for e in cut.boundary)]

    @property
    def cutting(self) -> bool:
        """Whether some rule is held by lazy cuts (a model must be looked at)."""
        return self.rule is not None or bool(self.lazy)

    def watched(self) -> list[int]:
        """The variables the cuts look at besides the options: the loop's edges and the lazy
        rules' members (a propagator must observe them to hand them to :meth:`cuts`)."""
        found = set(self.on.values())
        for rule in self.lazy:
            found.update(rule.lits.values())
        return sorted(v for v in found if v > self.n_options)

    def cuts(self, true: Callable[[int], bool]) -> list[list[int]]:
        """The clauses of the cuts that a model (``true``: whether a variable is true in it)
        breaks, of every lazy rule; [] when it keeps them all."""
        clauses = self._loop_cuts([e for e, lit in self.on.items() if true(lit)])
        for rule in self.lazy:
            clauses += rule.clauses([m for m, lit in rule.lits.items() if true(lit)], self.log)
        return clauses

    def model_cuts(self, model: list[int]) -> list[list[int]]:
        """:meth:`cuts` of a model as PySAT gives it (``model[v - 1] > 0``: ``v`` is true; a
        variable past its end is false), each rule's members read in one step
        (:meth:`MemberCuts.present`): a Python call per member cost as much as the solver's
        calls on a 20 x 36 Fillomino (28,000 lookups a round over its 67 sized rules)."""
        if len(model) < self.nvars:
            model = model + [0] * (self.nvars - len(model))
        clauses = self._loop_cuts([e for e, lit in self.on.items() if model[lit - 1] > 0])
        for rule in self.lazy:
            clauses += rule.clauses(rule.present(model), self.log)
        return clauses

    def _loop_cuts(self, on: list[int]) -> list[list[int]]:
        """The clauses of the loop's cuts for its edges ``on`` (none without the rule)."""
        clauses: list[list[int]] = []
        if self.rule is not None:
            for cut in self.rule.cuts(on):
                clauses.append(self.cut_clause(cut))
                if self.log is not None:
                    self.log.append((self.rule, cut, clauses[-1]))
        return clauses


#: Whether a literal's value in a PySAT model is true (a C function: no Python call per value).
_POSITIVE = partial(lt, 0)


@dataclass
class MemberCuts:
    """A connected, acyclic or sized rule held by lazy cuts: its cut generator (:mod:`.rulecuts`)
    and the literal of each member that can be present (position → literal)."""

    cutter: ConnectedCuts | AcyclicCuts | SizedCuts
    lits: dict[int, int]
    #: The members with a literal, and a reader of their values from a PySAT model.
    _order: list[int] = field(init=False, repr=False)
    _read: Callable[[list[int]], Any] = field(init=False, repr=False)
    #: The present members of the last model that broke none of this rule's cuts: see
    #: :meth:`clauses`.
    _kept: list[int] | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        self._order = list(self.lits)
        at = [lit - 1 for lit in self.lits.values()]
        # (itemgetter of one index returns the value, not a tuple of one)
        self._read = itemgetter(*at, *at[:1]) if at else (lambda model: ())

    def present(self, model: list[int]) -> list[int]:
        """The members present in a model as PySAT gives it (long enough for every literal)."""
        return list(compress(self._order, map(_POSITIVE, self._read(model))))

    def clauses(
        self, on: list[int], log: list[tuple[Any, Any, list[int]]] | None = None
    ) -> list[list[int]]:
        """The clauses of the cuts that a model with the members ``on`` present breaks (each
        also appended to ``log``, with the rule and the cut, when given: :attr:`Cnf.log`). A
        boundary member without a literal can never be present: its literal is false and
        left out.

        Most models a lazy search sees keep a given rule with the very members it kept in the
        model before (the solver, asked again after other rules' cuts, returns the same
        pieces): on a 20 x 36 Fillomino, 190,196 of 212,685 rules' looks at a model (89 %).
        The cutters are functions of ``on`` alone, so such a look is answered from the last
        model that kept the rule, without a search (its 14,180 models and 52,724 cuts: the
        rules' looks took 15 s instead of 23, timed in the process at load 3.5)."""
        if on == self._kept:
            return []
        lits = self.lits
        found = []
        for cut in self.cutter.cuts(on):
            clause = [
                lits[m] if positive else -lits[m] for m, positive in cut.literals() if m in lits
            ]
            found.append(clause)
            if log is not None:
                log.append((self.cutter.rule, cut, clause))
        if not found:
            self._kept = on
        return found


#: Leave out a primary item's "at most one" when :func:`colors_differ` says the colors' own
#: clauses imply it, unless it would be written pairwise. Measured (published boards, each
#: best of 5, the two settings interleaved in one process, 2 cores at load 1): `sat` on 10
#: Slitherlinks 228 -> 205 ms (0.90), 10 Masyus 276 -> 254 (0.92), 10 Country Roads 0.97,
#: CaDiCaL's conflicts the same; genres without such items unchanged. On the corpus's 8
#: largest of each (best of 2, interleaved): Slitherlink 5.94 -> 4.11 s in all (60 x 60: 3.11
#: -> 1.79; 30 x 40s 0.28-0.60 -> 0.23-0.41), Masyu 2.63 -> 2.48 s. Pairwise clauses are
#: kept because CDCL learns from them: left out too, NumberLink's rest of `151_12x12` took
#: 23,917 conflicts instead of 16,880, of `300_15x15` 66,085 instead of 61,772, where a
#: sequential counter's auxiliary variables (a grid point's seven options) only cost.
SKIP_IMPLIED_AT_MOST_ONE = True


def colors_differ(problem: Problem, options: Sequence[int]) -> bool:
    """Whether any two of ``options`` give some secondary item two different colors -- checked
    as: they name the same secondary items, in the same order, all colored, and no two give
    them the same colors.

    Two options that color an item differently cannot both be chosen, and the translation
    says so already: each option implies its color's variable (or, binary, the variable or its
    negation), and at most one color of an item holds. So "at most one of ``options``" follows
    from those clauses by unit propagation (choosing one makes its colors true, each other
    color false, and every option of another color false) and need not be written
    (:data:`SKIP_IMPLIED_AT_MOST_ONE`: where it would take auxiliary variables). In Knuth's
    loop encodings every grid point's options are its ways of coloring its edges: on a 10 x 10
    Slitherlink, leaving out the sequential counters of the grid points' seven options saves
    1,377 of 6,577 clauses and 486 of 1,607 variables.

    >>> from dlxsat.xcc import parse
    >>> p = parse("v | a b\\nv a:0 b:1\\nv a:1 b:0\\nv a:1 b:1\\n")
    >>> colors_differ(p, [0, 1, 2])
    True
    >>> colors_differ(parse("v | a b\\nv a:0 b:1\\nv a:0\\n"), [0, 1])  # b's color alone
    False
    >>> colors_differ(parse("v | a\\nv a:0\\nv a:1\\nv a:1\\n"), [0, 1, 2])  # two alike
    False
    """
    n_primary = problem.n_primary
    named: list[int] | None = None
    seen: set[tuple[str | None, ...]] = set()
    for k in options:
        option = problem.options[k]
        items = [i for i, _ in option if i >= n_primary]
        if named is None:
            if not items:
                return False
            named = items
        elif items != named:
            return False
        colors = tuple([c for i, c in option if i >= n_primary])
        if None in colors or colors in seen:
            return False
        seen.add(colors)
    return True


class _Builder:
    """Accumulates variables, clauses and variable descriptions."""

    def __init__(self, problem: Problem, encoding: str, colors: str):
        self.problem = problem
        self.encoding = encoding
        self.colors = colors
        self.cnf = Cnf(len(problem.options))
        self.top = len(problem.options)
        # (The options' own names are not written here but by :meth:`Cnf.described`, for the
        # DIMACS comments that alone read them: their texts took 5 ms of a 14 x 24
        # Slitherlink's 19 ms of building, in every solve.)
        self.lit: list[int] = []  # model variable → literal
        self._cards = 0  # cardinality constraints encoded by PySAT so far (see :meth:`_card`)

    # ----- variables and clauses

    def var(self, name: str) -> int:
        self.top += 1
        self.cnf.names[self.top] = name
        return self.top

    def block(self, count: int, name: str) -> list[int]:
        """``count`` fresh variables described together."""
        first = self.top + 1
        self.top += count
        if count:
            self.cnf.ranges.append((first, self.top, name))
        return list(range(first, self.top + 1))

    def add(self, clause: list[int]) -> None:
        self.cnf.clauses.append(clause)

    def contradiction(self, why: str) -> None:
        """Make the formula unsatisfiable (portable: no empty clause in the DIMACS text)."""
        v = self.var(f"false: {why}")
        self.add([v])
        self.add([-v])

    # ----- cardinality

    def _encoding_for(self, n: int, bound: int) -> str:
        if self.encoding != "auto":
            return self.encoding
        if bound == 1:
            most = self.problem.pairwise_at_most or AUTO_PAIRWISE_MAX  # (the problem's hint)
            return "pairwise" if n <= most else AUTO_AMO
        return AUTO_CARD

    def _card(self, lits: list[int], bound: int, what: str, need: str) -> None:
        """At most ``bound`` (1 <= bound < len(lits)) of ``lits`` are true."""
        from pysat.card import CardEnc, EncType

        enc = self._encoding_for(len(lits), bound)
        if enc == "pairwise" and bound == 1:  # written here: PySAT's call costs more than this
            self.cnf.clauses.extend([-a, -b] for j, a in enumerate(lits) for b in lits[j + 1 :])
            return
        if enc in AMO_ONLY and bound != 1:
            raise InputError(
                f"encoding {enc!r} only encodes 'at most one', but {what} needs {need}; "
                "choose seqcounter, totalizer, sortnetwrk, cardnetwrk, mtotalizer, "
                "kmtotalizer or auto"
            )
        if enc == "native":
            self.cnf.atmosts.append((list(lits), bound))
            return
        # PySAT encodes in C++, where an allocation past the memory limit aborts the process
        # instead of raising MemoryError: each large constraint, and every
        # CARD_CHECK_EVERY-th, first makes sure that it and a reserve fit.
        needed = CARD_BYTES_PER_CLAUSE * 3 * len(lits) * min(bound, len(lits) - bound + 1)
        self._cards += 1
        if needed >= CARD_RESERVE // 32 or self._cards % CARD_CHECK_EVERY == 0:
            memory.check_fits(
                f"the SAT encoding of {what} ({need}) and what follows",
                needed + CARD_RESERVE,
            )
        first = self.top + 1
        f = CardEnc.atmost(lits, bound=bound, top_id=self.top, encoding=getattr(EncType, enc))
        self.cnf.clauses.extend(f.clauses)
        if f.nv > self.top:
            self.cnf.ranges.append((first, f.nv, f"aux {enc}: {what}"))
            self.top = f.nv

    def at_most(self, lits: list[int], k: int, what: str) -> None:
        if k >= len(lits):
            return
        if k <= 0:
            self.cnf.clauses.extend([-x] for x in lits)
            return
        self._card(lits, k, what, f"at most {k} of {len(lits)}")

    def at_least(self, lits: list[int], k: int, what: str) -> None:
        n = len(lits)
        if k <= 0:
            return
        if k > n:
            self.contradiction(f"{what} needs {k} of {n}")
        elif k == n:
            self.cnf.clauses.extend([x] for x in lits)
        elif k == 1:
            self.add(list(lits))
        else:
            self._card([-x for x in lits], n - k, what, f"at least {k} of {n}")

    # ----- the covering model, stated as clauses

    def exact_cover(self, model: CoveringModel) -> None:
        """The model's constraints in its order (variable numbers follow it: see
        :mod:`.covering`)."""
        lit = self.lit = list(range(1, model.n_options + 1))
        for p in model.primaries:
            lits = [lit[k] for k in p.options]
            what = f"item {p.name}"
            self.at_least(lits, p.lo, what)
            if (
                p.hi == 1
                and SKIP_IMPLIED_AT_MOST_ONE
                and self._encoding_for(len(lits), 1) != "pairwise"
                and colors_differ(self.problem, p.options)
            ):
                continue  # (implied: see colors_differ and SKIP_IMPLIED_AT_MOST_ONE)
            self.at_most(lits, p.hi, what)
        for s in model.secondaries:
            for d in s.defined:
                self.defined(d)
            self.at_most([lit[k] for k in s.at_most_one], 1, f"item {s.name}")
        for members in model.members:  # (the members' variables after the colors': covering)
            for d in members.defined:
                self.defined(d)

    def defined(self, d: Defined) -> None:
        """A new variable true exactly when one of ``d``'s options is chosen."""
        lit = self.lit
        assert d.var == len(lit), "auxiliary variables are made in the covering model's order"
        v = self.var(d.name)
        lit.append(v)
        self.cnf.clauses.extend([-lit[k], v] for k in d.options)
        self.cnf.clauses.extend([-lit[k], -v] for k in d.excluded)
        self.add([-v, *(lit[k] for k in d.options)])  # v only when one of them

    # ----- the single-loop rule

    def loop(self, model: CoveringModel, mode: str) -> None:
        """Degree 0 or 2 at every vertex, then ``lazy`` (cuts later) or ``eager``."""
        p = self.problem
        shared = model.loop
        assert shared is not None
        on = {e: self.lit[v] for e, v in shared.on.items()}
        for e, lit in on.items():
            x, y = shared.graph.coords[e]
            self.cnf.names[lit] = f"edge {x} {y} = {p.items[e].name}:{ON}"
        self.cnf.on = on
        for es in shared.degree_groups:
            lits = [on[e] for e in es]
            for a in lits:  # not degree 1
                self.add([-a, *(b for b in lits if b != a)])
            for j, a in enumerate(lits):  # not degree 3 or more
                for k in range(j + 1, len(lits)):
                    for m in range(k + 1, len(lits)):
                        self.add([-a, -lits[k], -lits[m]])
        if shared.some_edge:
            if on:
                self.add(list(on.values()))
            else:
                self.contradiction("the loop rule needs an edge on, and no edge can be on")
        if mode == "eager":
            self.eager_loop(shared.rule)
        else:
            self.cnf.rule = shared.rule

    def eager_loop(self, rule: LoopRule) -> None:
        """The rooted ordering of the module docstring."""
        p = self.problem
        on = self.cnf.on
        at = rule.incident()
        verts = [v for v in rule.graph.vertices if at[v]]
        if not verts:
            return
        names = {v: p.items[v].name for v in verts}
        used: dict[int, int] = {}
        for v in verts:
            u = used[v] = self.var(f"used {names[v]}")
            self.cnf.clauses.extend([-on[e], u] for e in at[v])
            self.add([-u, *(on[e] for e in at[v])])
        root = self.first_true(verts, used, names, "vertex", "used")
        out: dict[int, list[int]] = {v: [] for v in verts}
        inn: dict[int, list[int]] = {v: [] for v in verts}
        arcs: list[tuple[int, int, int]] = []
        for e, u, v in rule.edges:
            f = self.var(f"arc {names[u]} -> {names[v]}")
            g = self.var(f"arc {names[v]} -> {names[u]}")
            self.add([-f, on[e]])
            self.add([-g, on[e]])
            self.add([-on[e], f, g])
            self.add([-f, -g])
            out[u].append(f)
            inn[v].append(f)
            out[v].append(g)
            inn[u].append(g)
            arcs += [(u, v, f), (v, u, g)]
        for group in (*out.values(), *inn.values()):
            for j, a in enumerate(group):
                for b in group[j + 1 :]:
                    self.add([-a, -b])
        bits = max(1, (len(verts) - 1).bit_length())
        label = {v: self.block(bits, f"label of {names[v]} (bits, low first)") for v in verts}
        for t, h, a in arcs:
            aux = self.block(bits - 1, f"label order for arc {names[t]} -> {names[h]}")
            self.less(label[t], label[h], [-a, root[h]], aux)

    def first_true(
        self,
        keys: list[int],
        lits: dict[int, int],
        names: dict[int, str],
        noun: str,
        adj: str,
        tag: str = "",
    ) -> dict[int, int]:
        """Key → "root" variable, true exactly for the first key (in ``keys`` order) whose
        literal is true: a prefix chain of "some earlier one is true" variables makes it
        unique and determined (``noun``, ``adj``, ``tag``: the variables' descriptions)."""
        root: dict[int, int] = {}
        before = 0  # "some earlier key is true"; 0 = none yet (constant false)
        for j, v in enumerate(keys):
            r = root[v] = self.var(f"{tag}root {names[v]}")
            self.add([-r, lits[v]])
            if before:
                self.add([-r, -before])
                self.add([-lits[v], before, r])
            else:
                self.add([-lits[v], r])
            if j + 1 < len(keys):
                nxt = self.var(f"{tag}some {noun} up to {names[v]} {adj}")
                self.add([-lits[v], nxt])
                if before:
                    self.add([-before, nxt])
                    self.add([-nxt, before, lits[v]])
                else:
                    self.add([-nxt, lits[v]])
                before = nxt
        return root

    # ----- the connected, acyclic and sized rules

    def members(self, model: CoveringModel, modes: Mapping[str, str]) -> None:
        """Each connected, acyclic or sized rule in its mode: cuts later (``lazy``) or
        ``eager``."""
        for members in model.members:
            rule = members.rule
            lits = {m: self.lit[v] for m, v in enumerate(members.present) if v is not None}
            label = f" {rule.label}" if rule.label else ""
            mode = modes[rule.kind]
            if isinstance(rule, Sized):
                mode = covering.sized_mode(rule, mode)
            self.cnf.describe.append(
                f"rule {rule.kind}{label}: {mode}, {len(rule.members)} members "
                f"({len(lits)} can be present)"
            )
            if isinstance(rule, Sized):
                self.reaches(rule)
                if mode == "eager":
                    self.eager_sized(rule, lits)
                else:
                    self.lazy_sized(rule, lits)
            elif isinstance(rule, Connected):
                if mode == "eager":
                    self.eager_connected(rule, lits)
                else:
                    separators = CUT_SEPARATORS if len(lits) <= LEAST_MAX_MEMBERS else "front"
                    cutter = ConnectedCuts(rule, list(lits), separators)
                    self.cnf.lazy.append(MemberCuts(cutter, lits))
            elif mode == "eager":
                self.eager_acyclic(rule, lits)
            else:
                self.cnf.lazy.append(MemberCuts(AcyclicCuts(rule), lits))

    def reaches(self, rule: Sized) -> None:
        """The distance labelling of each anchor with an owner item
        (:class:`.covering.Reach`), in either mode: its options beyond reach never chosen,
        "owned" the option (or a variable true exactly when one of its options is chosen)."""
        names, tag = self._member_names(rule, range(len(rule.members)))
        for reach in covering.owned_reaches(self.problem, rule):
            for k in reach.beyond:
                self.add([-self.lit[k]])
            owned: dict[int, int] = {}
            for m in reach.depth:
                options = [self.lit[k] for k in reach.owned[m]]
                if len(options) == 1:
                    owned[m] = options[0]
                    continue
                v = owned[m] = self.var(f"{tag}{names[m]} in the piece of {names[reach.anchor]}")
                self.cnf.clauses.extend([-x, v] for x in options)
                self.add([-v, *options])
            where = reach.labels()
            depths = self.block(len(where), f"{tag}depths in the piece of {names[reach.anchor]}")
            label = dict(zip(where, depths, strict=True))
            for clause in reach.clauses():
                self.add(
                    [
                        (owned[m] if k is None else label[(m, k)]) * (1 if positive else -1)
                        for m, k, positive in clause
                    ]
                )

    def lazy_sized(self, rule: Sized, lits: dict[int, int]) -> None:
        """The sized rule by lazy cuts, after what is cheap to state at once: the members in no
        right piece absent (:func:`.covering.sized_impossible`), a present member that
        cannot be a piece alone next to a present one (:meth:`_not_alone`) -- the commonest
        wrong piece, which the cuts would otherwise refuse one round at a time -- and, where
        there is room for one piece only, at most its size present
        (:func:`.covering.one_piece_at_most`)."""
        gone = set(covering.sized_impossible(rule, sorted(lits)))
        for x in sorted(gone):
            self.add([-lits[x]])
        self._not_alone(rule, lits)
        left = [m for m in sorted(lits) if m not in gone]
        if covering.one_piece_at_most(rule, left):
            label = f" {rule.label}" if rule.label else ""
            self.at_most([lits[m] for m in left], rule.size or 0, f"rule sized{label}: one piece")
        cutter = SizedCuts(rule, left)
        self.cnf.lazy.append(MemberCuts(cutter, lits))

    def _member_names(
        self, rule: Connected | Acyclic | Sized, keys: Collection[int]
    ) -> tuple[dict[int, str], str]:
        """The members' names (``item:color``) in variable descriptions, and the rule's tag
        that begins them."""
        items = self.problem.items
        names = {}
        for m in keys:
            i, c = rule.members[m]
            names[m] = items[i].name + ("" if c is None else f":{c}")
        return names, f"rule {rule.kind} {rule.label}".rstrip() + ": "

    def eager_connected(self, rule: Connected, lits: dict[int, int]) -> None:
        """The parent ordering of the module docstring: every present member but the root
        (without roots: the first present one; with roots: any root member) has a present
        neighbour as parent, whose label is smaller."""
        order = sorted(lits)
        if not order:
            return
        names, tag = self._member_names(rule, order)
        root: dict[int, int] = {}
        if rule.roots is None:
            root = self.first_true(order, lits, names, "member", "present", tag)
        roots = set(rule.roots or ())
        parents: dict[int, list[int]] = {m: [] for m in order}
        arcs: list[tuple[int, int, int]] = []  # (child, parent, arc variable)
        for a, b in rule.links:
            if a in lits and b in lits:
                for child, parent in ((a, b), (b, a)):
                    if child in roots:
                        continue  # a root member needs no parent: the virtual root is its parent
                    arc = self.var(f"{tag}parent of {names[child]} is {names[parent]}")
                    self.add([-arc, lits[child]])
                    self.add([-arc, lits[parent]])
                    parents[child].append(arc)
                    arcs.append((child, parent, arc))
        for m in order:
            if m in roots:
                continue
            self.add([-lits[m], *([root[m]] if m in root else []), *parents[m]])
        bits = max(1, (len(order) - 1).bit_length())
        label = {m: self.block(bits, f"{tag}label of {names[m]} (bits, low first)") for m in order}
        for child, parent, arc in arcs:
            aux = self.block(bits - 1, f"{tag}label of {names[parent]} < of {names[child]}")
            self.less(label[parent], label[child], [-arc], aux)

    def eager_acyclic(self, rule: Acyclic, lits: dict[int, int]) -> None:
        """The orientation of the module docstring: each present edge directed, at most one
        arc out of each vertex, labels decreasing along every arc."""
        order = sorted(lits)
        if not order:
            return
        names, tag = self._member_names(rule, order)
        out: dict[int, list[int]] = {}
        arcs: list[tuple[int, int, int]] = []  # (tail, head, arc variable)
        for m in order:
            u, v = rule.ends[m]
            f = self.var(f"{tag}{names[m]} directed v{u} -> v{v}")
            g = self.var(f"{tag}{names[m]} directed v{v} -> v{u}")
            self.add([-f, lits[m]])
            self.add([-g, lits[m]])
            self.add([-lits[m], f, g])
            self.add([-f, -g])
            out.setdefault(u, []).append(f)
            out.setdefault(v, []).append(g)
            arcs += [(u, v, f), (v, u, g)]
        for x, group in out.items():
            self.at_most(group, 1, f"{tag}arcs out of v{x}")
        bits = max(1, (len(out) - 1).bit_length())
        label = {x: self.block(bits, f"{tag}label of v{x} (bits, low first)") for x in out}
        for t, h, arc in arcs:
            aux = self.block(bits - 1, f"{tag}label order for arc v{t} -> v{h}")
            self.less(label[h], label[t], [-arc], aux)

    def eager_sized(self, rule: Sized, lits: dict[int, int]) -> None:
        """The sized rule's encoding of the module docstring: one root per piece, the piece's
        members counted against it, every present member joined to its root by parents."""
        if rule.at_least:
            self._sized_at_least(rule, lits)
            return
        order = sorted(lits)
        if not order:
            return
        if covering.sized_slots(rule, order):
            self._sized_slots(rule, lits)
            return
        names, tag = self._member_names(rule, order)
        where = covering.sized_roots(rule, order)
        anchors = {a for a, _ in rule.anchors}
        self._not_alone(rule, lits)
        # root[a]: "a is the root of its piece" -- a present anchor always is, and with one
        # size for every piece, the piece's first member. within[x][a]: "x is in the piece of
        # root a" (x = a: root[a] itself).
        root = {
            a: lits[a] if a in anchors else self.var(f"{tag}root {names[a]}") for a in where.reach
        }
        within: dict[int, dict[int, int]] = {x: {} for x in order}
        for a, reach in where.reach.items():
            if a not in anchors:
                self.add([-root[a], lits[a]])
            within[a][a] = root[a]
            for x in reach[1:]:
                v = within[x][a] = self.var(f"{tag}{names[x]} in the piece of {names[a]}")
                self.add([-v, lits[x]])
                self.add([-v, root[a]])
        for x in order:  # a present member is in the piece of exactly one root
            choices = list(within[x].values())
            self.add([-lits[x], *choices])
            self.at_most(choices, 1, f"{tag}the root of {names[x]}")
        for u, v in rule.links:  # linked present members are in the same piece
            if u in lits and v in lits:
                for x, y in ((u, v), (v, u)):
                    for a, lit in within[x].items():
                        same = within[y].get(a)
                        self.add([-lits[x], -lits[y], -lit, *([same] if same else [])])
        for a, reach in where.reach.items():  # the root's piece has its size, or it is no root
            counted = [within[x][a] for x in reach]
            want = where.size[a]
            self.at_most(counted, want, f"{tag}the piece of {names[a]}")
            self._at_least_if(root[a], counted, want, f"{tag}the piece of {names[a]}")
        deepest = max((min(where.size[a], len(r)) for a, r in where.reach.items()), default=1)
        self._parents(
            rule,
            lits,
            names,
            tag,
            deepest,
            {x: within[x].get(x) for x in order},
            lambda x, y: bool(within[x].keys() & within[y].keys()),
        )

    def _sized_slots(self, rule: Sized, lits: dict[int, int]) -> None:
        """The eager sized rule of one size ``s`` with room for few pieces
        (:func:`.covering.sized_slots`): each present member in one of ``r`` *slots* (``r``
        = the members that can be in a right piece // ``s``), linked present members in the
        same one, each slot 0 or ``s`` members, each slot's members connected (parents of
        smaller depth up to the slot's root, its first member), the slots ordered by their
        first members. One counter per slot, where the roots' encoding has one per member
        (see the module docstring)."""
        size = rule.size or 1
        gone = set(covering.sized_impossible(rule, sorted(lits)))
        for x in sorted(gone):
            self.add([-lits[x]])
        lits = {m: lit for m, lit in lits.items() if m not in gone}
        order = sorted(lits)
        if not order:
            return
        names, tag = self._member_names(rule, order)
        r = len(order) // size
        slot = {x: self.block(r, f"{tag}{names[x]} in slot 1, 2, ...") for x in order}
        for x in order:
            self.add([-lits[x], *slot[x]])
            for v in slot[x]:
                self.add([-v, lits[x]])
            self.at_most(slot[x], 1, f"{tag}the slot of {names[x]}")
        for u, v in rule.links:  # linked present members share their slot
            if u in slot and v in slot:
                for x, y in ((u, v), (v, u)):
                    for j in range(r):
                        self.add([-slot[x][j], -lits[y], slot[y][j]])
        # seen[x][j]: "slot j has a member at or before x" (in member order).
        seen = {x: self.block(r, f"{tag}slots used up to {names[x]}") for x in order}
        root = {}
        for k, x in enumerate(order):
            before = seen[order[k - 1]] if k else None
            firsts = []
            for j in range(r):
                f = seen[x][j]
                self.add([-slot[x][j], f])
                if before is None:
                    self.add([-f, slot[x][j]])
                else:
                    self.add([-before[j], f])
                    self.add([-f, before[j], slot[x][j]])
                if j:  # slot j's first member comes after slot j-1's
                    self.add([-slot[x][j], *([before[j - 1]] if before is not None else [])])
                first = self.var(f"{tag}{names[x]} first of slot {j + 1}")
                self.add([-first, slot[x][j]])
                if before is not None:
                    self.add([-first, -before[j]])
                firsts.append(first)
            root[x] = self.var(f"{tag}{names[x]} first of its slot")
            self.add([-root[x], *firsts])
        for j in range(r):
            members = [slot[x][j] for x in order]
            used = seen[order[-1]][j]
            self.at_most(members, size, f"{tag}slot {j + 1}")
            self._at_least_if(used, members, size, f"{tag}slot {j + 1}")
        self._not_alone(rule, lits)
        self._parents(rule, lits, names, tag, size, root, lambda x, y: True)

    def _not_alone(self, rule: Sized, lits: dict[int, int]) -> None:
        """A present member that could not be a piece alone has a present neighbour: implied
        by the rest, stated for the solver's propagation (a piece of one member, the commonest
        wrong piece, is then refused by one clause)."""
        anchored = dict(rule.anchors)
        adj = rule.neighbours()
        for x in sorted(lits):
            # The size of x's piece, were x alone: 0 when that piece would hold no anchor.
            size = rule.size if rule.size is not None else anchored.get(x, 0)
            if size != 1:
                self.add([-lits[x], *(lits[y] for y in adj[x] if y in lits)])

    def _at_least_if(self, cond: int, lits: list[int], k: int, what: str) -> None:
        """At least ``k`` of ``lits`` when ``cond`` is true: at least ``k`` of ``lits`` and
        ``k`` new variables each equal to ``not cond`` (a conditional bound that every
        cardinality encoding of :data:`ENCODINGS` can state)."""
        if k <= 0:
            return
        if k > len(lits):
            self.add([-cond])
            return
        slack = self.block(k, f"{what}: not its root (slack of 'at least {k}')")
        for d in slack:
            self.add([d, cond])
            self.add([-d, -cond])
        self.at_least([*lits, *slack], k, what)

    def _parents(
        self,
        rule: Sized,
        lits: dict[int, int],
        names: dict[int, str],
        tag: str,
        deepest: int,
        root: Mapping[int, int | None],
        may_meet: Callable[[int, int], bool],
    ) -> None:
        """Every present member but a root (``root[x]``: its literal "x is a root", None when
        it never is; a present anchor is one) has a present linked parent with a smaller
        label, over labels of enough bits for ``deepest`` members from a root to a leaf.
        ``may_meet(x, y)``: whether linked ``x`` and ``y`` can be present together (an arc
        between two that cannot is left out)."""
        order = sorted(lits)
        anchors = {a for a, _ in rule.anchors}
        parents: dict[int, list[int]] = {m: [] for m in order}
        arcs: list[tuple[int, int, int]] = []  # (child, parent, arc variable)
        for a, b in rule.links:
            if a in lits and b in lits and may_meet(a, b):
                for child, parent in ((a, b), (b, a)):
                    if child in anchors:
                        continue  # an anchor is its piece's root
                    arc = self.var(f"{tag}parent of {names[child]} is {names[parent]}")
                    self.add([-arc, lits[child]])
                    self.add([-arc, lits[parent]])
                    parents[child].append(arc)
                    arcs.append((child, parent, arc))
        for m in order:
            if m in anchors:
                continue
            own = root.get(m)
            self.add([-lits[m], *([own] if own is not None else []), *parents[m]])
        if deepest <= UNARY_DEPTH:
            # depth[m][k-1]: "m's depth is at least k" (k = 1 .. deepest - 1), an order
            # encoding; an arc makes the child at least one deeper than its parent.
            depth = {
                m: self.block(deepest - 1, f"{tag}depth of {names[m]} at least 1, 2, ...")
                for m in order
            }
            for m in order:
                for k in range(1, deepest - 1):
                    self.add([-depth[m][k], depth[m][k - 1]])
            for child, parent, arc in arcs:
                if deepest > 1:
                    self.add([-arc, depth[child][0]])
                for k in range(1, deepest - 1):
                    self.add([-arc, -depth[parent][k - 1], depth[child][k]])
                if deepest > 1:
                    self.add([-arc, -depth[parent][deepest - 2]])
                else:
                    self.add([-arc])
            return
        bits = max(1, (deepest - 1).bit_length())
        label = {m: self.block(bits, f"{tag}label of {names[m]} (bits, low first)") for m in order}
        for child, parent, arc in arcs:
            aux = self.block(bits - 1, f"{tag}label of {names[parent]} < of {names[child]}")
            self.less(label[parent], label[child], [-arc], aux)

    def _sized_at_least(self, rule: Sized, lits: dict[int, int]) -> None:
        """Pieces of at least ``rule.size`` members (the module docstring): each piece has a
        root, which every member of the piece names by its bits; the members of the root's
        reach that name it count at least ``size``."""
        want = rule.size or 1
        order = sorted(lits)
        if want <= 1 or not order:
            return  # every piece has a member
        names, tag = self._member_names(rule, order)
        where = covering.sized_roots(rule, order)
        bits = max(1, order[-1].bit_length())
        name = {
            x: self.block(bits, f"{tag}the root {names[x]} names (bits, low first)") for x in order
        }

        def names_it(x: int, a: int, cond: list[int]) -> None:
            """``cond`` (a clause's other literals) or ``x`` names ``a``."""
            for j, bit in enumerate(name[x]):
                self.add([*cond, bit if a >> j & 1 else -bit])

        root = {x: self.var(f"{tag}root {names[x]}") for x in order}
        self._not_alone(rule, lits)
        for x in order:
            self.add([-root[x], lits[x]])
            names_it(x, x, [-root[x]])
        for u, v in rule.links:  # linked present members name one root
            if u in lits and v in lits:
                for bu, bv in zip(name[u], name[v], strict=True):
                    self.add([-lits[u], -lits[v], -bu, bv])
                    self.add([-lits[u], -lits[v], bu, -bv])
        for a, reach in where.reach.items():
            counted = [root[a]]
            for x in reach[1:]:
                c = self.var(f"{tag}{names[x]} counted for {names[a]}")
                self.add([-c, lits[x]])
                names_it(x, a, [-c])
                counted.append(c)
            self._at_least_if(root[a], counted, want, f"{tag}the piece of {names[a]}")
        self._parents(rule, lits, names, tag, len(order), root, lambda x, y: True)

    def less(self, x: list[int], y: list[int], inactive: list[int], aux: list[int]) -> None:
        """Clauses for ``x < y`` (bit lists, low bit first) unless a literal of ``inactive``.

        Going down from the top bit, "still to decide" ``t_i`` says ``x[i:] < y[i:]``:
        ``x_i <= y_i``, and unless ``x_i < y_i`` already, ``t_{i-1}``; at bit 0 it must be
        strict.
        """
        cond = inactive
        for i in reversed(range(len(x))):
            if i == 0:
                self.add([*cond, -x[0]])
                self.add([*cond, y[0]])
            else:
                t = aux[i - 1]
                self.add([*cond, -x[i], y[i]])
                self.add([*cond, -x[i], t])
                self.add([*cond, y[i], t])
                cond = [-t]

    def finish(self) -> Cnf:
        self.cnf.nvars = self.top
        return self.cnf


def build(
    problem: Problem,
    *,
    encoding: str | None = None,
    colors: str | None = None,
    modes: Mapping[str, str] | None = None,
) -> Cnf:
    """The CNF of ``problem``, its global rules each in its mode (``modes``: rule kind →
    ``lazy``, ``eager`` or ``none`` -- not enforced; a kind not named: its default mode).

    >>> from dlxsat.xcc import parse
    >>> problem = parse("a b | x\\na x:1\\nb x:1\\na b\\n")
    >>> cnf = build(problem)
    >>> names = cnf.described(problem)
    >>> names[1], names[4], cnf.nvars
    ('option a x:1', 'color x:1', 4)
    """
    given = {k: v for k, v in (("encoding", encoding), ("colors", colors)) if v is not None}
    checked = SPEC.check(given)  # a public entry point: ``solve`` checks its options once
    return _build(
        problem,
        checked.get("encoding", DEFAULT_ENCODING),
        checked.get("colors", DEFAULT_COLORS),
        rule_modes(problem, modes or {}),
    )


def rule_modes(problem: Problem, given: Mapping[str, str]) -> dict[str, str]:
    """The mode of each global rule of ``problem`` (by kind): ``given``, else the default;
    an :class:`InputError` for a mode this backend does not have.

    >>> from dlxsat.xcc import parse
    >>> from dlxsat.xcc.rules import SingleLoop
    >>> p = parse("00 02 | 01\\n00 01:1\\n02 01:1\\n")
    >>> rule_modes(p.with_rules(SingleLoop.from_names(p)), {}), rule_modes(p, {"loop": "eager"})
    ({'loop': 'lazy'}, {})
    """
    modes = {}
    for rule in problem.rules:
        mode = given.get(rule.kind, DEFAULT_RULE_MODES[rule.kind])
        if mode != "none" and mode not in RULE_MODES[rule.kind]:
            known = ", ".join(RULE_MODES[rule.kind])
            raise InputError(f"unknown {rule.kind} mode {mode!r} (choose from {known}, none)")
        modes[rule.kind] = mode
    return modes


def _build(problem: Problem, enc: str, cm: str, modes: Mapping[str, str]) -> Cnf:
    b = _Builder(problem, enc, cm)
    b.cnf.configure = dict(problem.cadical_options)
    b.cnf.describe = [
        f"encoding: {enc} (cardinality), colors: {cm}",
    ]
    rules = [r for r in problem.rules if modes.get(r.kind, "none") != "none"]
    model = covering.build(problem, colors=cm, rules=rules)
    b.exact_cover(model)
    if model.loop is not None:
        b.loop(model, modes["loop"])
    b.members(model, modes)
    return b.finish()


# --------------------------------------------------------------------------- solving


def _solver_name(name: str | None) -> str:
    """The canonical PySAT name of ``name`` (aliases accepted)."""
    from pysat.solvers import SolverNames

    if name is None:
        return DEFAULT_SOLVER
    known: dict[str, Any] = {k: v for k, v in vars(SolverNames).items() if not k.startswith("_")}
    for canonical, aliases in known.items():
        if name == canonical or name in aliases:
            return canonical
    raise InputError(f"unknown SAT solver {name!r} (PySAT names: {', '.join(sorted(known))})")


def solver_bytes(cnf: Cnf) -> int:
    """The memory a solver is estimated to take for ``cnf`` (:data:`SOLVER_BYTES_PER_VARIABLE`
    and the two figures beside it).

    >>> solver_bytes(Cnf(2, nvars=2, clauses=[[1, 2], [-1]]))
    764
    """
    literals = sum(map(len, cnf.clauses))
    return (
        SOLVER_BYTES_PER_VARIABLE * cnf.nvars
        + SOLVER_BYTES_PER_CLAUSE * len(cnf.clauses)
        + SOLVER_BYTES_PER_LITERAL * literals
    )


class Session:
    """One PySAT solver kept across rounds, with a time limit on each call.

    :meth:`find` looks for a model that is an answer (adding loop cuts on the way); clauses
    added between calls (:meth:`add`) keep what the solver has learnt. The Masyu generator
    asks its many "is there another answer?" questions through one session.
    """

    def __init__(self, name: str, cnf: Cnf, search: Any = None, proof: bool = False):
        from pysat.solvers import NoSuchSolverError, Solver

        self.name = name
        self.cnf = cnf
        #: Whether the solver writes a DRAT proof of all its calls (:meth:`proof`;
        #: :data:`PROOF_SOLVER` only), as ``solve --certify`` asks.
        self.proof = proof
        if proof and name != PROOF_SOLVER:
            raise InputError(f"a proof needs the solver {PROOF_SOLVER}, not {name!r}")
        self.incremental = name not in _NOT_INCREMENTAL
        self.added: list[list[int]] = []
        self.rounds = self.cuts = 0  # solver calls, loop cuts added
        self.budget = FIRST_BUDGET  # conflicts per CaDiCaL call
        self.slice = SLICE_SECONDS  # seconds a budgeted call should take (it adapts to them)
        self.solving = self.cutting = 0.0  # seconds inside the solver, finding cuts
        #: The external propagator connected to the solver (:data:`PROPAGATOR_SOLVER` only):
        #: ``search`` (:class:`.satsearch.ItemSearch`, counting and listing inside one call),
        #: or a :class:`.satsearch.CallStopper` in a session writing a proof (one solver's
        #: calls). Calls then run whole, the propagator ending them at the deadline or a signal
        #: (:meth:`_solve_propagated`), and CaDiCaL keeps its inprocessing. Any other CaDiCaL
        #: 1.9.5 session begins each call with a conflict budget, its inprocessing off
        #: (:attr:`first_budget`), until a call outlasts it: then that call and the session's
        #: later ones go on in slices, the inprocessing back on (:meth:`_go_on_sliced`).
        ours = search is None and name == PROPAGATOR_SOLVER
        self.first_budget = ours and not proof
        if ours and proof:
            from .satsearch import CallStopper

            search = CallStopper()
        self.search = search
        if cnf.atmosts and name not in _NATIVE_CARDINALITY:
            raise InputError(
                "encoding 'native' needs a solver with cardinality constraints "
                f"({', '.join(sorted(_NATIVE_CARDINALITY))}), not {name!r}"
            )
        memory.check_fits(
            f"the SAT solver's copy of the formula ({cnf.nvars:,} variables, "
            f"{len(cnf.clauses):,} clauses)",
            solver_bytes(cnf),
        )
        try:
            self.solver = self._open(Solver)
        except NoSuchSolverError:
            raise InputError(f"SAT solver {name!r} is not available in this PySAT") from None
        if search is not None:
            search.attach(self.solver.solver)

    def _open(self, solver_class: Any) -> Any:
        s = solver_class(name=self.name, with_proof=self.proof)
        if self.name in _BUDGET_ONLY and hasattr(s.solver, "configure"):
            settings = {**(CADICAL_OPTIONS if not self.search else {}), **self.cnf.configure}
            if settings:
                s.solver.configure(settings)  # (before any clause: CaDiCaL requires it)
        handle = getattr(s.solver, "cadical", None)
        if self.name == PROPAGATOR_SOLVER and handle is not None:
            # CaDiCaL 1.9.5's clauses one C call each, without PySAT's Python wrappers around
            # it: 5.9 ms against 8.2-10.4 for a 16 x 19 Slitherlink's 20,566 clauses, 33-36
            # against 45-57 for a 20 x 36 Fillomino's 104,866 (2026-11-27, idle).
            from pysolvers import cadical195_add_cl

            if not all([cadical195_add_cl(handle, c) for c in self.cnf.clauses]):
                s.solver.status = False  # (as PySAT's add_clause says an empty clause)
        else:
            s.append_formula(self.cnf.clauses)
        for lits, k in self.cnf.atmosts:
            s.add_atmost(lits, k)
        for c in self.added:
            s.add_clause(c)
        return s

    def add(self, clause: list[int]) -> None:
        if self.incremental:
            self.solver.add_clause(clause)
        else:
            self.added.append(clause)

    def find(self, deadline: float | None, assumptions: list[int] | None = None) -> bool | None:
        """Whether there is a model that is an answer (then :meth:`model` is one), or None when
        the deadline came first. With a loop rule, a model of several cycles gets its cuts added
        (:meth:`Cnf.cut_clause`), as does a model breaking a lazy connected, acyclic or sized rule
        (:meth:`Cnf.cuts`), and the solver is asked again."""
        cnf = self.cnf
        while True:
            t0 = time.perf_counter()
            answer = self.solve(deadline, assumptions or [])
            t1 = time.perf_counter()
            self.solving += t1 - t0
            self.rounds += 1
            if not answer or not cnf.cutting:
                return answer
            cuts = cnf.model_cuts(self.model())
            self.cutting += time.perf_counter() - t1
            if not cuts:
                return True
            for clause in cuts:
                self.add(clause)
            self.cuts += len(cuts)

    def solve(self, deadline: float | None, assumptions: list[int]) -> bool | None:
        """True/False, or None when the deadline came first."""
        if not self.incremental and self.added:
            from pysat.solvers import Solver

            self.solver.delete()
            self.solver = self._open(Solver)
        if self.search is not None:
            return self._solve_propagated(deadline, assumptions)
        if self.first_budget:
            return self._solve_first_budget(deadline, assumptions)
        # In a dlxsat process a signal must stop a call even without a time limit.
        stoppable = deadline is not None or guard.installed()
        if not stoppable or self.name in _UNSTOPPABLE:
            if deadline is not None and time.monotonic() >= deadline:
                return None
            solved: bool = self.solver.solve(assumptions=assumptions)
            return solved
        while True:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                return None
            if self.name in _BUDGET_ONLY:
                result = self._solve_budgeted(deadline, assumptions)
            else:
                result = self._solve_interrupted(left, assumptions)
            if result is not None or (deadline is not None and time.monotonic() >= deadline):
                return result

    def _solve_interrupted(self, left: float | None, assumptions: list[int]) -> bool | None:
        """One call that releases the GIL, interrupted after ``left`` seconds by a timer, and at
        once by the process guard's watchdog on a signal or the alarm."""
        timer = None if left is None else threading.Timer(left, self.solver.interrupt)
        with guard.stop_hook(self.solver.interrupt):
            if timer is not None:
                timer.start()
            try:
                outcome: bool | None = self.solver.solve_limited(
                    assumptions=assumptions, expect_interrupt=True
                )
                return outcome
            finally:
                if timer is not None:
                    timer.cancel()
                self.solver.clear_interrupt()

    def _solve_budgeted(self, deadline: float | None, assumptions: list[int]) -> bool | None:
        """CaDiCaL in PySAT has no interrupt: run in conflict budgets of about :attr:`slice`
        seconds each (:data:`SLICE_SECONDS`, or :data:`LONG_SLICE_SECONDS` once a CaDiCaL
        1.9.5 call outlasted its first budget), checking the clock between them (and letting a
        signal's handler run). The last slice before the deadline is cut to the time left, at
        the pace of the slice before it (:data:`DEADLINE_SHARE` of it): a slice that ran on
        past the deadline's grace was stopped by the process's alarm instead, and the run's
        report lost what the search had found before (a NumberLink's first answer)."""
        pace = 0.0  # conflicts a second, in the last slice
        while deadline is None or time.monotonic() < deadline:
            budget = self.budget
            if deadline is not None and pace > 0:
                left = deadline - time.monotonic()
                budget = max(MIN_BUDGET, min(budget, int(pace * left * DEADLINE_SHARE)))
            self.solver.conf_budget(budget)
            t0 = time.perf_counter()
            result: bool | None = self.solver.solve_limited(assumptions=assumptions)
            took = time.perf_counter() - t0
            if result is not None:
                return result
            pace = budget / max(took, 1e-6)
            if budget < self.budget:
                continue  # (cut short for the deadline: no measure of the slice's length)
            if took < self.slice / 2:
                self.budget = min(2 * self.budget, MAX_BUDGET)
            elif took > self.slice:
                self.budget = max(self.budget // 2, MIN_BUDGET)
        return None

    def _solve_first_budget(self, deadline: float | None, assumptions: list[int]) -> bool | None:
        """A CaDiCaL 1.9.5 call before any has outlasted its first conflict budget: that budget
        (smaller on large formulas, whose conflicts cost more: a signal or the deadline waits
        for it, :data:`FIRST_BUDGET_CLAUSES`), then, if it is spent before the deadline, the
        rest of the call in slices (:meth:`_go_on_sliced`)."""
        if deadline is not None and time.monotonic() >= deadline:
            return None
        clauses = max(1, len(self.cnf.clauses))
        self.solver.conf_budget(max(MIN_BUDGET, min(FIRST_BUDGET, FIRST_BUDGET_CLAUSES // clauses)))
        result: bool | None = self.solver.solve_limited(assumptions=assumptions)
        if result is not None or (deadline is not None and time.monotonic() >= deadline):
            return result
        return self._go_on_sliced(deadline, assumptions)

    def _go_on_sliced(self, deadline: float | None, assumptions: list[int]) -> bool | None:
        """The rest of a call that outlasted its first conflict budget, and the session's
        later calls: CaDiCaL's inprocessing turned back on, and conflict budgets of about
        :data:`LONG_SLICE_SECONDS` each (:meth:`_solve_budgeted`), the clock and the signals
        looked at between them; a call that nothing can stop (no deadline, no process guard:
        a library call without a time limit) runs whole.

        Why not slices from the start: inprocessing does not pay on short calls, and most calls
        of a puzzle's solve are short (Fillomino 240_20x36: 17,347 calls, 2 conflicts each).
        Why not one whole call with a propagator ending it at the deadline
        (:class:`.satsearch.CallStopper`, the way before): CaDiCaL asks a propagator four
        Python questions a decision, a third to a half of a long search's time (the rest of
        NumberLink 340_15x15: 94,461 conflicts in 6.0 s with one, 94,275 in 4.4 s in budgets
        of 20,000 conflicts). Why not the short slices of :data:`SLICE_SECONDS` to the end:
        each begins again from the root, and searches cut that often lose their way (two
        pentomino packings of 6 x 10: 4.2 s against 1.3 before inprocessing was turned back
        on; in budgets of 1,000 conflicts 2.4 s, of 0.25 s 0.97)."""
        self.first_budget = False
        self.slice = LONG_SLICE_SECONDS
        self.solver.solver.configure({**{k: 1 for k in CADICAL_OPTIONS}, **self.cnf.configure})
        return self.solve(deadline, assumptions)

    def _solve_propagated(self, deadline: float | None, assumptions: list[int]) -> bool | None:
        """One CaDiCaL call with the propagator, which ends it at ``deadline`` or at a
        signal by handing CaDiCaL the empty clause (:meth:`.satsearch.CallStopper.stop`):
        None then, and the solver is spent.

        No conflict budgets: each would end the call and the next restart from the root,
        which cost the 4 x 15 pentomino count 2-3 x its time. PySAT's ``solve`` on the main
        thread swaps in a SIGINT handler that jumps (``longjmp``) out of the solver; with a
        propagator the solver runs Python callbacks, and a jump out of one of them would leave
        the interpreter broken, while a Python handler's exception raised inside a callback
        would only be noted when the call returns. So the call is made as from another thread
        (PySAT's own function, its ``main_thread`` flag 0: no jump), the signals are held for
        its length and tell the propagator to stop, then are raised for their own handlers;
        the process guard's watchdog tells it too (a stop hook)."""
        from pysat.solvers import pysolvers  # (PySAT's C module)

        search = self.search
        if search.stopping:
            return None
        search.stop_at = deadline
        raw = self.solver.solver
        with guard.stop_hook(search.stop), signals_held(search.stop):
            result = bool(pysolvers.cadical195_solve(raw.cadical, assumptions, 0))
        if search.stopping:
            return None
        raw.status = result
        return result

    def model(self) -> list[int]:
        """The model as a list: ``model[v - 1] > 0`` when variable ``v`` is true."""
        return self.solver.get_model() or []

    def proof_bytes(self) -> bytes:
        """The binary DRAT proof the solver has written over all its calls so far (a session
        opened with ``proof``; :func:`.proof.proof_bytes`). A clause added between calls
        (:meth:`add`) is no lemma of it: the formula it refutes must hold that clause."""
        from .proof import proof_bytes

        if not self.proof:
            raise SolverFailure("this solver session writes no proof")
        return proof_bytes(self.solver)

    def search_stats(self) -> dict[str, int]:
        """The solver's own figures over all its calls (PySAT's ``accum_stats``): decisions,
        conflicts, propagations, restarts -- to set beside DLX's nodes and updates. Empty for
        a solver that keeps none (or a non-incremental one, rebuilt each round)."""
        try:
            figures = self.solver.accum_stats() or {}
        except (AttributeError, NotImplementedError):
            return {}
        keys = ("decisions", "conflicts", "propagations", "restarts")
        return {k: int(figures[k]) for k in keys if k in figures}

    def close(self) -> None:
        """Free the solver, once. Signals are held meanwhile: a Ctrl-C raised inside PySAT's
        ``delete``, between freeing the solver and forgetting it, left it to be freed again
        (the process aborted, "munmap_chunk(): invalid pointer": found by a loaded run of
        ``test_a_signal_at_any_moment_ends_the_run_cleanly``)."""
        with signals_held():
            solver, self.solver = self.solver, None
            if solver is not None:
                solver.delete()


def _prove(
    cnf: Cnf,
    blocking: list[int] | None,
    request: Request,
    result: SearchResult,
    proof: bytes | None,
    searched: float,
) -> None:
    """The ``proof`` option: the figures of the DRAT proof refuting the formula, the cuts the
    search added and the answer's ``blocking`` clause (None: no answer) into
    ``result.stats`` -- ``proof``, the search's own (its solver wrote it: what ``solve
    --certify`` writes), or, with ``None``, a fresh solver's (:func:`.proof.prove`; a search
    with a propagator that adds clauses of its own). ``searched``: when the search ended."""
    from .proof import prove

    premises = list({tuple(clause): clause for _, _, clause in cnf.log or ()}.values())
    cnf.log = None
    if proof is None:
        clauses = cnf.clauses + premises + ([blocking] if blocking is not None else [])
        proof = prove(clauses, request.deadline)
        if proof is None:
            result.timed_out = True
            return
    result.stats["premises"] = len(premises)
    result.stats["proof_bytes"] = len(proof)
    result.stats["proof_seconds"] = round(time.perf_counter() - searched, 6)


def search_plan(options: Mapping[str, Any], limit: int | None) -> tuple[bool, str]:
    """Whether answers are enumerated inside one call, and the branching (:data:`BRANCHINGS`
    but ``auto``), for ``options`` and a request for ``limit`` answers (None: all).

    >>> search_plan({}, None), search_plan({}, 2), search_plan({"solver": "glucose4"}, None)
    ((True, 'mixed'), (False, 'solver'), (False, 'solver'))
    >>> search_plan({"enumerate": "inside"}, 2), search_plan({"branching": "items"}, None)
    ((True, 'mixed'), (True, 'items'))
    >>> search_plan({"enumerate": "calls"}, None), search_plan({"branching": "solver"}, None)
    ((False, 'solver'), (True, 'solver'))
    """
    able = options.get("solver", DEFAULT_SOLVER) == PROPAGATOR_SOLVER
    enumerate_ = options.get("enumerate", "auto")
    inside = enumerate_ == "inside" or (enumerate_ == "auto" and able and limit is None)
    branching = options.get("branching", "auto")
    if branching == "auto":
        branching = "mixed" if inside else "solver"
    return inside, branching


def solve(problem: Problem, request: Request, options: Mapping[str, Any]) -> SearchResult:
    """Find, count or list the solutions of ``problem`` with a SAT solver (see the module doc).

    Stats: ``variables``, ``clauses`` (of the first formula), ``rounds`` (solver calls),
    ``cuts`` (cuts of the lazy rules added), ``seconds`` (everything), ``build_seconds`` (the
    translation), ``solve_seconds`` (inside the solver's calls), ``cut_seconds`` (finding
    cuts), ``encoding``, ``colors``, ``solver``, ``loop_mode`` (``none`` without the rule),
    ``connected_mode``, ``acyclic_mode`` and ``sized_mode`` (with such a rule; ``sized_mode``
    as ``auto`` resolved it: :func:`.covering.sized_modes`), ``enumerate`` and ``branching``
    (as resolved: :func:`search_plan`), ``item_decisions`` (DLX's branching
    decisions, with the propagator), and the solver's ``decisions``, ``conflicts``,
    ``propagations`` and ``restarts``.

    >>> from dlxsat.xcc import parse
    >>> r = solve(parse("a b c\\na b\\nc\\na\\nb c\\n"), Request(), {})
    >>> r.count, sorted(r.solutions), r.exhausted
    (2, [[0, 1], [2, 3]], True)
    """
    start = time.perf_counter()
    deadline = request.deadline.at
    enc = options.get("encoding", DEFAULT_ENCODING)
    cm = options.get("colors", DEFAULT_COLORS)
    modes = rule_modes(
        problem, {k: options[f"{k}_mode"] for k in RULE_MODES if f"{k}_mode" in options}
    )
    name = options.get("solver", DEFAULT_SOLVER)
    cnf = _build(problem, enc, cm, modes)
    built = time.perf_counter()
    stats: dict[str, Any] = {
        "variables": cnf.nvars,
        "clauses": len(cnf.clauses),
        "rounds": 0,
        "cuts": 0,
        "encoding": enc,
        "colors": cm,
        "solver": name,
        "loop_mode": modes.get("loop", "none"),
        **{f"{kind}_mode": modes[kind] for kind in ("connected", "acyclic") if kind in modes},
        **(
            {"sized_mode": covering.sized_modes(problem, modes["sized"])}
            if "sized" in modes
            else {}
        ),
    }
    result = SearchResult(stats=stats)
    n = cnf.n_options
    proving = bool(options.get("proof"))
    if proving:
        cnf.log = []  # (the cuts added: the proof's premises)
    last_blocking: list[int] = []
    inside, branching = search_plan(options, request.limit)
    stats["enumerate"] = "inside" if inside else "calls"
    stats["branching"] = branching
    session: Session

    def record(chosen: list[int]) -> list[int]:
        """Count and keep an answer; its blocking clause (empty: no other answer exists)."""
        nonlocal last_blocking
        result.count = (result.count or 0) + 1
        request.found(result.count)
        if request.keeps(len(result.solutions)):
            result.solutions.append(chosen)
        blocking = covering.blocking(problem, chosen)
        last_blocking = [k + 1 if value else -(k + 1) for k, value in blocking]
        return last_blocking

    def check(model: list[int]) -> list[list[int]] | None:
        """The propagator's question for each model (options first, then the watched
        variables: the loop's edges, the lazy rules' members): its cuts if it breaks a lazy
        rule; inside, an answer's blocking clause while more are wanted; None to accept it
        and end the call."""
        if cnf.cutting:
            t0 = time.perf_counter()
            true = {lit for lit in model if lit > 0}
            cuts = cnf.cuts(true.__contains__)
            session.cutting += time.perf_counter() - t0
            if cuts:
                session.cuts += len(cuts)
                return cuts
        if not inside:
            return None
        blocking = record([lit - 1 for lit in model[:n] if lit > 0])
        if not blocking:
            result.exhausted = True
            return None
        return [blocking] if request.wants_more(result.count) else None

    search = None
    if inside or branching != "solver":
        from . import satsearch

        primary = problem.n_primary
        search = satsearch.ItemSearch(
            [[i for i, _ in option if i < primary] for option in problem.options],
            [problem.items[i].lo for i in range(primary)],
            check,
            branching=branching,
            watched=cnf.watched(),
        )
    # (A propagator that adds clauses (ItemSearch) would put them in the proof as lemmas.)
    session = Session(name, cnf, search, proof=proving and search is None)
    proof: bytes | None = None
    try:
        if inside:
            # One call enumerates: ``check`` counts each answer and refuses it until enough.
            if request.wants_more(0):
                answer = session.find(deadline)
                if answer is None:
                    result.timed_out = True
                elif answer is False:
                    result.exhausted = True
        # Otherwise one call from the root per answer, a blocking clause after it. Measured
        # against it with benchmarks/satcount.py (same run, loaded 2 cores; docs/xcc.md
        # "Counting with SAT"): option phases set false counted 12 queens at 367 answers/s
        # against 750 and Langford 11 at 355 against 650; DLX-like splitting under assumptions
        # (every prefix of an answer exhausted, MRV order) at 439 against 974.
        while not inside and request.wants_more(result.count):  # limit 0: look for nothing
            answer = session.find(deadline)
            if answer is None:
                result.timed_out = True
                break
            if not answer:
                result.exhausted = True
                break
            model = session.model()
            blocking = record([lit - 1 for lit in model[:n] if lit > 0])  # model[k] is ±(k+1)
            if not blocking:
                result.exhausted = True
                break
            session.add(blocking)
        if search is not None:
            stats["item_decisions"] = search.decisions
        if session.proof and result.exhausted and (result.count or 0) <= 1:
            proof = session.proof_bytes()
    except BaseException:
        # A stop inside a solver call (PySAT turns SIGINT into KeyboardInterrupt mid-search)
        # can leave CaDiCaL in a state where reading its statistics aborts the process.
        session.close()
        raise
    stats.update(session.search_stats())
    session.close()
    if proving and result.exhausted and (result.count or 0) <= 1:
        blocked = last_blocking if result.count else None
        _prove(cnf, blocked, request, result, proof, time.perf_counter())
    end = time.perf_counter()
    stats["rounds"], stats["cuts"] = session.rounds, session.cuts
    stats["build_seconds"] = round(built - start, 6)
    stats["solve_seconds"] = round(session.solving, 6)
    stats["cut_seconds"] = round(session.cutting, 6)
    stats["seconds"] = round(end - start, 6)
    return result
