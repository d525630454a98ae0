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
from . import Request, SearchResult, SolverSpec, covering, ortools_loader
from .covering import COLOR_MODES, DEFAULT_COLORS
from .loopcuts import LoopRule

#: Measured with benchmarks/loops.py (2 cores): ``circuit`` solves the hard Slitherlink 3-6
#: times faster than ``lazy`` (each lazy round is a fresh CP-SAT search: no learnt clauses
#: survive between rounds). Colors: see :data:`.covering.DEFAULT_COLORS`.
LOOP_MODES = ("lazy", "circuit")
DEFAULT_LOOP_MODE = "circuit"

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
    Option("workers", int, "CP-SAT's choice", "CP-SAT search workers", low=1, metavar="N"),
)

SPEC = SolverSpec(
    name="cpsat",
    kind="search",
    summary="CP-SAT model from the exact-cover problem (OR-tools); loop rule by AddCircuit or cuts",
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

    def __init__(self, problem: Problem, colors: str, loop: str) -> None:
        cp_model = ortools_loader.cp_model()  # without pandas: see ortools_loader

        self.cp_model = cp_model
        m = self.m = cp_model.CpModel()
        model = covering.build(problem, colors=colors)
        self.x = [m.new_bool_var(f"option {k}") for k in range(len(problem.options))]
        lit: list[Any] = list(self.x)  # model variable → CP-SAT literal
        self.rule: LoopRule | None = None
        self.on: dict[int, Any] = {}
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
                v = m.new_bool_var(d.name)
                lit.append(v)
                for k in d.options:
                    m.add_implication(lit[k], v)
                for k in d.excluded:
                    m.add_implication(lit[k], v.negated())
                m.add_bool_or([v.negated(), *(lit[k] for k in d.options)])
            if len(s.at_most_one) > 1:
                m.add_at_most_one([lit[k] for k in s.at_most_one])
        if model.loop is not None:
            self._loop(model.loop, lit, loop)

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

    def add_cut_clauses(self, cuts: list[Any]) -> None:
        on = self.on
        for c in cuts:
            self.m.add_bool_or(
                [on[c.inside].negated(), on[c.outside].negated(), *(on[e] for e in c.boundary)]
            )


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
    ``solver``, ``colors``, ``loop_mode``, ``workers``.

    >>> from dlxsat.xcc import parse
    >>> r = solve(parse("a b c\\na b\\nc\\na\\nb c\\n"), Request(), {})
    >>> r.count, sorted(r.solutions), r.exhausted
    (2, [[0, 1], [2, 3]], True)
    """
    start = time.perf_counter()
    cm = options.get("colors", DEFAULT_COLORS)
    has_loop = problem.rule("loop") is not None
    mode = options.get("loop_mode", DEFAULT_LOOP_MODE) if has_loop else "none"
    workers = options.get("workers")
    limit = request.limit
    model = _Model(problem, cm, mode)
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
        "loop_mode": mode,
        "workers": workers,
    }
    result = SearchResult(stats=stats)
    x = model.x
    x_index = [v.index for v in x]
    on_edges = list(model.on)
    on_index = [lit.index for lit in model.on.values()]
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
            if model.rule is not None:
                t0 = time.perf_counter()
                on = [e for e, k in zip(on_edges, on_index, strict=True) if solution(k)]
                cuts = model.rule.cuts(on)
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
            model.add_cut_clauses(cb.cuts)
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
