"""DLX's way of searching, inside a SAT solver: item branching and answers blocked mid-search.

Counting every answer by calling the solver once per answer (a blocking clause between calls)
is how the ``sat`` backend first counted, and on packing problems it collapsed: the 1,472
pentomino packings of a 4 x 15 box were not counted in minutes. Two things were wrong, and
CaDiCaL 1.9.5's external-propagator interface (IPASIR-UP, ``pysat.engines``) mends both from
Python:

* **Branching.** CaDiCaL's own heuristic (VSIDS) decides on whichever option variable is most
  active, usually setting it false, and meets a packing's dead ends late: counting the eight
  pentomino packings of 3 x 20 took 438,169 decisions and 144,412 conflicts (pairwise
  encoding), where Knuth's DLX needs 32,978 nodes. Branching as DLX does -- on the primary
  item with the fewest options left among those still to cover (Knuth's MRV rule), choosing
  its first free option -- took 15,385 decisions and 14,275 conflicts, 6 x faster in time.
  The solver still learns from every conflict and propagates every clause; only the decision
  is DLX's. (Knuth's Algorithm M branches differently on items with multiplicities; here an
  item needing more options is branched on like any other, which is complete because the
  formula decides.)
* **Enumeration.** An answer found is blocked inside the same solver call: the propagator
  refuses the model and hands CaDiCaL the blocking clause, which backjumps only as far as that
  clause needs, instead of a new call that starts from the root. Loop cuts (the single-loop
  rule) are handed over the same way.

DLX's branching is as good as DLX's tree is small, and no better: on a minimal 25 x 25 Sudoku,
whose DLX tree has some 12 million nodes, it did not finish a count in a minute, where
CaDiCaL's own branching counts its one answer in 2-4 s. So the default takes turns
(``mixed``): DLX's branching while answers keep coming; after :data:`TURN_CONFLICTS`
conflicts without an answer CaDiCaL decides for as many conflicts, then DLX for twice as many,
CaDiCaL again, and so on, each answer starting the turns afresh. Both share the learnt clauses
and the blocked answers. Measured (one process, 2 cores at load 1-3, default encoding; see
docs/xcc.md "Counting with SAT"), seconds:

====================  ========  =====  =====  ======
count                 answers   items  mixed  solver
====================  ========  =====  =====  ======
pentominoes 4 x 15    1,472     42     46-52  > 300
pentominoes 3 x 20    8         2.5    2.8    11
12 queens             14,200    3.1    3.4-3.7  4.1
Langford 11           35,584    5.3    5.2-6.0  11.6
minimal 25 x 25       1         > 60   7-10   4.4
9 x 9, 2 rows blank   54,620    4.5    4.6-4.7  4.6
====================  ========  =====  =====  ======

(``solver`` inside one call; one solver call per answer, the backend's way for one or two
answers, took 3.6 s on the last and 2.3 s on the minimal 25 x 25.) DLX itself counts these
in 0.2-4 s, far faster: a SAT decision propagates through hundreds of clauses and, here, a
Python callback per assigned option.

The propagator observes the option variables (and a loop's edge variables); CaDiCaL tells it
of every assignment (:meth:`ItemSearch.on_assignment`), new level and backtrack, so it keeps
each primary item's count of free and chosen options as DLX keeps its list lengths. It is
connected only when asked for (``enumerate=inside`` or ``branching`` other than ``solver`` of
the ``sat`` backend, the defaults when counting with CaDiCaL 1.9.5;
:func:`dlxsat.backends.cnf.solve`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from pysat.engines import Propagator

#: The clock is read at every this many of CaDiCaL's questions (:meth:`ItemSearch.has_clause`,
#: asked after each propagation): some 10-100 microseconds apart on the instances of
#: ``benchmarks/satcount.py``, so a call ends within a few milliseconds of its deadline while
#: the clock costs nothing measurable.
CLOCK_EVERY = 64
#: ``mixed`` branching: conflicts (counted as backtracks) without an answer before CaDiCaL
#: takes its first turn. 2,000, 5,000 and 10,000 gave the same figures within noise on the
#: table above (4 x 15: 52, 47 and 45 s; the minimal 25 x 25: 7.1, 9.9 and 7.7 s).
TURN_CONFLICTS = 5_000

#: What the propagator asks of its owner for each model CaDiCaL finds: the clauses that refuse
#: it (loop cuts, or the blocking clause of an answer to enumerate past), or None to accept it
#: (the solver call then returns it).
Check = Callable[[list[int]], "list[list[int]] | None"]


class CallStopper(Propagator):  # type: ignore[misc]  # (pysat has no type information)
    """The least propagator: it observes no variable and decides nothing, and CaDiCaL asks it
    after each propagation whether it has a clause -- the empty one, which ends the call, once
    :meth:`stop` was called or :attr:`stop_at` has passed.

    So a solver call ends within milliseconds of a deadline or a signal without being cut into
    conflict budgets. The ``sat`` backend connects one to a CaDiCaL 1.9.5 session that writes a
    proof (one solver's calls, whole); :class:`ItemSearch` is one too. Other sessions no
    longer use it: its questions, four Python calls a decision, took a third to a half of a
    long search's time, more than budgets of a quarter of a second cost by beginning again
    from the root (``cnf.Session._go_on_sliced`` has the figures).

    >>> from pysat.solvers import Solver
    >>> s = Solver(name="cadical195", bootstrap_with=[[1, 2], [-1, 2]])
    >>> stopper = CallStopper()
    >>> stopper.attach(s.solver)
    >>> s.solve(), stopper.stopping
    (True, False)
    """

    def __init__(self) -> None:
        super().__init__()
        #: When to end the call (``time.monotonic``; None: never), and whether it was ended.
        self.stop_at: float | None = None
        self.stopping = False
        self._ticks = 0

    def attach(self, solver: object) -> None:
        """Connect to ``solver`` (a PySAT ``Cadical195``)."""
        solver.connect_propagator(self)  # type: ignore[attr-defined]

    def stop(self, *_: object) -> None:
        """End the solver call at its next question (from a signal's handler, or the process
        guard's watchdog thread: setting a flag is all it does)."""
        self.stopping = True

    def _due(self) -> bool:
        """Whether the call must end: :meth:`stop` was called or :attr:`stop_at` has passed
        (the clock is read every :data:`CLOCK_EVERY` questions)."""
        if self.stopping:
            return True
        self._ticks += 1
        if self.stop_at is not None and self._ticks % CLOCK_EVERY == 0:
            self.stopping = time.monotonic() >= self.stop_at
        return self.stopping

    def has_clause(self) -> bool:
        """The empty clause once the call must end."""
        return self._due()

    def add_clause(self) -> list[int]:
        """The empty clause: it ends the call at once (the formula is then unsatisfiable for
        good, so a stopped solver is not asked again)."""
        return []

    def on_assignment(self, lit: int, fixed: bool = False) -> None:
        pass

    def on_new_level(self) -> None:
        pass

    def on_backtrack(self, to: int) -> None:
        pass

    def decide(self) -> int:
        return 0  # CaDiCaL's own choice

    def check_model(self, model: list[int]) -> bool:
        return True

    def propagate(self) -> list[int]:
        return []

    def provide_reason(self, lit: int) -> list[int]:
        return []


class ItemSearch(CallStopper):
    """The external propagator: the decisions of ``branching`` (``solver``: CaDiCaL's own,
    ``items``: DLX's, ``mixed``: taking turns, see the module doc; the choices of the ``sat``
    backend's option, :data:`dlxsat.backends.cnf.BRANCHINGS`), and each complete model passed
    to ``check``, whose clauses refuse it inside the search.

    ``items_of[k]`` are the primary items of option ``k`` (variable ``k + 1``), ``lo[i]`` the
    number of options primary item ``i`` needs (1 for plain exact cover). ``watched`` are
    further variables whose values ``check`` needs (a loop's edges); ``check`` gets every
    watched literal (the options first), as CaDiCaL hands them over.

    >>> from pysat.solvers import Solver
    >>> answers = []
    >>> def check(model):  # a b c; options: a b / c / a / b c
    ...     answers.append(sorted(v - 1 for v in model if v > 0))
    ...     return [[-v for v in model if v > 0]]  # block it, look for the next
    >>> s = Solver(name="cadical195", bootstrap_with=[[1, 3], [1, 4], [2, 4], [-1, -3],
    ...     [-1, -4], [-2, -4]])
    >>> search = ItemSearch([[0, 1], [2], [0], [1, 2]], [1, 1, 1], check, branching="items")
    >>> search.attach(s)
    >>> s.solve(), sorted(answers), search.decisions > 0
    (False, [[0, 1], [2, 3]], True)
    """

    def __init__(
        self,
        items_of: Sequence[Sequence[int]],
        lo: Sequence[int],
        check: Check,
        *,
        branching: str,
        watched: Sequence[int] = (),
    ) -> None:
        super().__init__()
        self.branching = branching
        self.check = check
        n = len(items_of)
        self.n = n
        self.watched = [v for v in watched if v > n]
        self.items_of: list[tuple[int, ...]] = [()] + [tuple(its) for its in items_of]
        self.options_of: list[list[int]] = [[] for _ in lo]
        for k, its in enumerate(items_of):
            for i in its:
                self.options_of[i].append(k + 1)
        #: Per primary item: options still free (unassigned), and options still needed.
        self.free = [len(opts) for opts in self.options_of]
        self.need = list(lo)
        self.value = [0] * (n + 1)  # option variable -> its literal, 0 while unassigned
        self.fixed = [False] * (n + 1)  # assigned for good (at the root): never undone
        #: (``fixed`` is only ever set: CaDiCaL never takes back a root fact.)
        self.trail: list[int] = []
        self.levels: list[int] = []  # trail length where each decision level began
        self.queue: list[list[int]] = []  # clauses for CaDiCaL, handed over one at a time
        self.decisions = 0
        #: ``mixed``: whose turn it is (DLX's: True), its length in conflicts, the backtracks
        #: seen (one per conflict, and per restart) and where the turn began.
        self.dlx_turn = branching != "solver"
        self.turn = TURN_CONFLICTS
        self.backtracks = self.turn_began = 0

    def attach(self, solver: object) -> None:
        """Connect to ``solver`` (a PySAT ``Cadical195``) and observe the variables."""
        solver.connect_propagator(self)  # type: ignore[attr-defined]
        for v in range(1, self.n + 1):
            solver.observe(v)  # type: ignore[attr-defined]
        for v in self.watched:
            solver.observe(v)  # type: ignore[attr-defined]

    # ----- CaDiCaL's notifications: the items' counts follow the trail

    def on_assignment(self, lit: int, fixed: bool = False) -> None:
        # (Called for every option assigned, some ten million times in a long count: locals.)
        v = lit if lit > 0 else -lit
        if v > self.n:
            return
        value = self.value
        if value[v]:
            # Told again when a decided value becomes a root fact: it must not be undone.
            if fixed:
                self.fixed[v] = True
            return
        value[v] = lit
        if fixed:
            self.fixed[v] = True
        items = self.items_of[v]
        free = self.free
        if lit > 0:
            need = self.need
            for i in items:
                need[i] -= 1
                free[i] -= 1
        else:
            for i in items:
                free[i] -= 1
        self.trail.append(lit)

    def on_new_level(self) -> None:
        self.levels.append(len(self.trail))

    def on_backtrack(self, to: int) -> None:
        self.backtracks += 1
        levels = self.levels
        if to >= len(levels):
            return
        keep = levels[to]
        del levels[to:]
        trail = self.trail
        undone = trail[keep:]
        del trail[keep:]
        value, fixed, items_of, free, need = (
            self.value,
            self.fixed,
            self.items_of,
            self.free,
            self.need,
        )
        for lit in undone:
            v = lit if lit > 0 else -lit
            if fixed[v]:
                trail.append(lit)  # a root fact told while deeper: it stays
                continue
            value[v] = 0
            if lit > 0:
                for i in items_of[v]:
                    free[i] += 1
                    need[i] += 1
            else:
                for i in items_of[v]:
                    free[i] += 1

    def has_clause(self) -> bool:
        """A clause to hand over: a queued one, or (to end the call) the empty clause. CaDiCaL
        asks this after every propagation of a search that has a propagator."""
        return bool(self.queue) or self._due()

    def add_clause(self) -> list[int]:
        """The next clause: the empty clause ends the call at once (the formula is then
        unsatisfiable for good, so a stopped solver is not asked again)."""
        return self.queue.pop() if self.queue else []

    # ----- CaDiCaL's questions

    def decide(self) -> int:
        """On DLX's turn, its choice: the first option still free of the first primary item
        with the fewest free options among those that still need one. 0: CaDiCaL chooses."""
        if self.branching == "mixed" and self.backtracks - self.turn_began >= self.turn:
            self.turn_began = self.backtracks
            self.dlx_turn = not self.dlx_turn
            if self.dlx_turn:
                self.turn *= 2
        if not self.dlx_turn or self.stopping:
            return 0
        best, fewest = -1, 1 << 30
        free = self.free
        for i, need in enumerate(self.need):
            if need > 0 and free[i] < fewest:
                best, fewest = i, free[i]
                if fewest <= 2:  # (1 is propagated by the item's clause: none is fewer)
                    break
        if best < 0:
            return 0
        value = self.value
        for v in self.options_of[best]:
            if not value[v]:
                self.decisions += 1
                return v
        return 0

    def check_model(self, model: list[int]) -> bool:
        clauses = self.check(list(model))
        if self.branching == "mixed":  # (an answer or a loop cut: DLX's turns afresh)
            self.dlx_turn, self.turn, self.turn_began = True, TURN_CONFLICTS, self.backtracks
        if not clauses:
            return True
        self.queue.extend(reversed(clauses))
        return False

    def propagate(self) -> list[int]:
        return []

    def provide_reason(self, lit: int) -> list[int]:
        return []
