"""The SAT backend (``dlxsat.backends.cnf``) and the loop cuts it shares with CP-SAT.

What every search solver must do (brute-force agreement in every loop mode, golden counts,
limits, refusals, time limits) is in test_search_contract.py; here, what only this backend
has: every cardinality encoding against the brute force, the cuts, the PySAT solvers and their
options, time limits inside a solver call.
"""

from __future__ import annotations

import doctest
import time

import pytest
from conftest import LOADED_MARGIN, golden_problem
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from problems import brute_force, exact_cover_problems, loop_problems

from dlxsat.backends import cnf, covering, loopcuts
from dlxsat.errors import InputError
from dlxsat.solvers import solve_problem
from dlxsat.xcc import Item, Problem, parse


def solve_sat(problem, **kw):
    """The sat backend, with the request and options checked as every caller's are."""
    kw.setdefault("keep", None)  # (the tests read the answers: every one found is kept)
    return solve_problem(problem, "sat", **kw)


SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])

#: Encodings for any bound, and those that only say "at most one".
#: (``auto``, the default, is tested with every search solver in test_search_contract.py.)
ANY_BOUND = [
    "seqcounter",
    "totalizer",
    "sortnetwrk",
    "cardnetwrk",
    "mtotalizer",
    "kmtotalizer",
]
AMO_ONLY = ["pairwise", "ladder", "bitwise"]


def solutions(problem: Problem, **kw) -> tuple[list[list[int]], cnf.SearchResult]:
    r = solve_sat(problem, **kw)
    assert r.exhausted and not r.timed_out
    assert r.count == len(r.solutions)
    return sorted(r.solutions), r


# ---------------------------------------------------------------- brute-force agreement


@pytest.mark.parametrize("kind", ["XC", "XCC", "MCC"])
@pytest.mark.parametrize("encoding", ANY_BOUND)
@SETTINGS
@given(data=st.data())
def test_same_solutions_as_brute_force(kind, encoding, data):
    p = data.draw(exact_cover_problems(kind))
    colors = data.draw(st.sampled_from(["onehot", "binary"]))
    got, r = solutions(p, encoding=encoding, colors=colors)
    assert got == sorted(brute_force(p))
    assert r.stats["encoding"] == encoding and r.stats["colors"] == colors


@pytest.mark.parametrize("kind", ["XC", "XCC"])
@pytest.mark.parametrize("encoding", AMO_ONLY)
@SETTINGS
@given(data=st.data())
def test_at_most_one_encodings_on_exact_cover(kind, encoding, data):
    p = data.draw(exact_cover_problems(kind))
    got, _ = solutions(
        p, encoding=encoding, colors=data.draw(st.sampled_from(["onehot", "binary"]))
    )
    assert got == sorted(brute_force(p))


@pytest.mark.parametrize(("hint", "aux"), [(None, True), (6, True), (8, False)])
def test_a_problems_pairwise_hint_writes_its_groups_without_aux_variables(hint, aux):
    # One item of 7 options: at most one of them is a sequential counter's auxiliary
    # variables above the backend's threshold of 6, pairwise clauses under a hint of 8.
    p = parse("a\n" + "a\n" * 7)
    p = Problem(p.items, p.options, pairwise_at_most=hint)
    built = cnf.build(p)
    assert (built.nvars > 7) == aux
    got, _ = solutions(p)
    assert got == sorted(brute_force(p))


@SETTINGS
@given(data=st.data())
def test_an_at_most_one_the_colors_imply_is_left_out_and_nothing_changes(data):
    # Items whose options all color the same secondary items, no two alike (as a grid point's
    # options color its edges): their "at most one" is left out where it would need auxiliary
    # variables (a pairwise one is kept), and the answers stay the same.
    palette = data.draw(st.sampled_from(["01", "012"]))
    n_sec = data.draw(st.integers(2 if palette == "012" else 3, 3))  # (7 colorings or more)
    items = [Item("a"), Item("b")] + [Item(f"s{i}", False) for i in range(n_sec)]
    options = []
    sizes = []
    for head in (0, 1):
        secs = data.draw(st.permutations(range(2, 2 + n_sec)))
        colorings = data.draw(
            st.lists(
                st.tuples(*[st.sampled_from(palette)] * n_sec), min_size=3, max_size=8, unique=True
            )
        )
        options += [((head, None), *zip(secs, cs, strict=True)) for cs in colorings]
        sizes.append(len(colorings))
    p = Problem(items, options)
    colors = data.draw(st.sampled_from(["onehot", "binary"]))
    encoding = data.draw(st.sampled_from(["auto", "seqcounter", "kmtotalizer"]))
    assert all(
        cnf.colors_differ(p, [k for k, o in enumerate(options) if o[0][0] == h]) for h in (0, 1)
    )
    got, _ = solutions(p, colors=colors, encoding=encoding)
    assert got == sorted(brute_force(p))
    clauses = len(cnf.build(p, colors=colors, encoding=encoding).clauses)
    cnf.SKIP_IMPLIED_AT_MOST_ONE = False
    try:
        written = len(cnf.build(p, colors=colors, encoding=encoding).clauses)
        assert solutions(p, colors=colors, encoding=encoding)[0] == got
    finally:
        cnf.SKIP_IMPLIED_AT_MOST_ONE = True
    left_out = encoding != "auto" or max(sizes) > cnf.AUTO_PAIRWISE_MAX
    assert (clauses < written) == left_out and clauses <= written


# ---------------------------------------------------------------- the loop cuts


def test_cuts_separate_two_squares_and_hold_for_single_loops():
    # A 2 x 4 grid of vertices: two unit squares, or the one big rectangle.
    names = ["00", "02", "04", "06", "20", "22", "24", "26"]
    edges = ["01", "03", "05", "10", "12", "14", "16", "21", "23", "25"]
    items = [Item(n) for n in names] + [Item(e, False) for e in edges]
    p = Problem(items, [])
    idx = {it.name: k for k, it in enumerate(items)}
    rule = loopcuts.LoopRule(p)
    left = [idx[e] for e in ("01", "10", "12", "21")]
    right = [idx[e] for e in ("05", "14", "16", "25")]
    big = [idx[e] for e in ("01", "03", "05", "10", "16", "21", "23", "25")]
    assert rule.cuts(big) == [] and rule.is_single_loop(big)
    cuts = rule.cuts(left + right)
    assert cuts and not rule.is_single_loop(left + right)
    on_big = set(big)
    for cut in cuts:
        # The answer with two squares breaks the cut ...
        assert cut.inside in left + right and cut.outside in left + right
        assert not set(cut.boundary) & set(left + right)
        # ... and the single loop satisfies it.
        assert cut.inside not in on_big or cut.outside not in on_big or set(cut.boundary) & on_big
    # The boundary of a square's piece: the edges joining the squares (03, 23).
    assert {tuple(sorted(items[e].name for e in c.boundary)) for c in cuts} == {("03", "23")}


@SETTINGS
@given(p=loop_problems(max_rows=4, max_cols=4), data=st.data())
def test_every_cut_holds_for_every_single_loop(p, data):
    """Cuts made from any multi-cycle answer never exclude a single-loop answer."""
    rule = loopcuts.LoopRule(p)
    single = [set(_on(p, s)) for s in brute_force(p, loop=True, allow_empty_loop=False)]
    for chosen in brute_force(p):
        on = _on(p, chosen)
        cuts = rule.cuts(on)
        assert bool(cuts) == (len(rule.components(on)) > 1)
        for cut in cuts:
            assert cut.inside in on and cut.outside in on and not set(cut.boundary) & set(on)
            for loop_edges in single:
                assert (
                    cut.inside not in loop_edges
                    or cut.outside not in loop_edges
                    or set(cut.boundary) & loop_edges
                )


def _on(p: Problem, chosen: list[int]) -> list[int]:
    return sorted({i for k in chosen for i, c in p.options[k] if c == "1" and i >= p.n_primary})


# ---------------------------------------------------------------- solvers and options


@pytest.mark.parametrize(
    "solver",
    [
        "cadical195",
        "cadical153",
        "glucose4",
        "minisat22",
        "lingeling",
        "kissat404",
        "maplechrono",
        "minicard",
    ],
)
def test_other_solvers_agree(solver):
    for dlx, loop, count in [
        ("masyu/random-few-4x4-1.dlx", True, 16),
        ("masyu/random-few-4x4-1.dlx", False, 25),
        ("superslitherlink/random-6x3-5.dlx", True, 2),
        ("sudoku/random-9x9-boxes-4holes.dlx", False, 15),
    ]:
        p = golden_problem(dlx)
        r = solve_sat(p, loop=loop, solver=solver, keep=0)
        assert (r.count, r.exhausted, r.stats["solver"]) == (count, True, solver), dlx


def test_solver_aliases():
    p = parse("a\na\n")
    assert solve_sat(p, solver="g4").stats["solver"] == "glucose4"
    assert solve_sat(p, solver="cd19").stats["solver"] == "cadical195"


@settings(max_examples=30, deadline=None)
@given(p=exact_cover_problems("MCC"))
def test_native_cardinality_with_minicard(p):
    got, _ = solutions(p, encoding="native", solver="minicard")
    assert got == sorted(brute_force(p))


def test_defaults_are_measured_ones():
    r = solve_sat(parse("a\na\n"))
    assert r.stats["solver"] == cnf.DEFAULT_SOLVER == "cadical195"
    assert r.stats["encoding"] == cnf.DEFAULT_ENCODING
    assert r.stats["colors"] == cnf.DEFAULT_COLORS
    assert r.stats["loop_mode"] == "none"
    r = solve_sat(parse("00 02 | 01\n00 01:1\n02 01:1\n"), loop=True)
    assert r.stats["loop_mode"] == cnf.DEFAULT_LOOP_MODE == "lazy"
    for key in ("variables", "clauses", "rounds", "cuts", "seconds", "solve_seconds"):
        assert key in r.stats


@pytest.mark.parametrize(
    "kw, message",
    [
        ({"encoding": "nosuch"}, "unknown encoding"),
        ({"colors": "rainbow"}, "unknown colors"),
        ({"solver": "nosuch"}, "unknown SAT solver"),
        ({"loop_mode": "circuit", "loop": True}, "cpsat"),
        ({"loop_mode": "sideways", "loop": True}, "unknown loop 'sideways'"),
        ({"workers": 4}, "cpsat"),
    ],
)
def test_bad_options(kw, message):
    with pytest.raises(InputError, match=message):
        solve_sat(parse("00 02 | 01\n00 01:1\n02 01:1\n"), **kw)


def test_native_needs_a_cardinality_solver():
    with pytest.raises(InputError, match="minicard"):
        solve_sat(parse("a\na\na\na\n"), encoding="native")
    assert solve_sat(parse("a\na\na\na\n"), encoding="native", solver="gluecard4").count == 3


@pytest.mark.parametrize("encoding", AMO_ONLY)
def test_at_most_one_encodings_refuse_larger_bounds(encoding):
    p = parse("2|a b\na\na\na\nb\n")  # a: exactly 2 of 3 options
    with pytest.raises(InputError, match="only encodes 'at most one'.*item a"):
        solve_sat(p, encoding=encoding)
    # ... but are fine where every bound is one.
    assert solve_sat(parse("a b\na\nb\na b\n"), encoding=encoding).count == 2


# ---------------------------------------------------------------- time limits


def _pigeonholes(n: int) -> Problem:
    """n + 1 pigeons (primary), n holes (secondary): no solution, and hard for CDCL."""
    items = [Item(f"p{i}") for i in range(n + 1)] + [Item(f"h{j}", False) for j in range(n)]
    options = [((i, None), (n + 1 + j, None)) for i in range(n + 1) for j in range(n)]
    return Problem(items, options)


@pytest.mark.parametrize("solver", ["cadical195", "glucose4", "minisat22"])
def test_timeout_inside_a_solver_call(solver):
    # CaDiCaL is stopped by conflict budgets, the others by an interrupt. (Lingeling and
    # Kissat can't be stopped within a call in PySAT: the clock is checked between calls.)
    start = time.monotonic()
    r = solve_sat(_pigeonholes(16), timeout=0.2, solver=solver)  # (the call starts in ms)
    elapsed = time.monotonic() - start
    assert r.timed_out and not r.exhausted and r.count == 0
    # The unbounded call runs for hours; 60 s is what a loaded 2-core box meets (issue 18).
    assert elapsed < LOADED_MARGIN


def test_docstring_examples():
    for module in (cnf, covering, loopcuts):
        failed, attempted = doctest.testmod(module)
        assert failed == 0 and attempted > 0


def test_a_time_limit_does_not_change_cadicals_answers():
    """CaDiCaL 1.9.5 runs a call's first conflict budget, then the rest of it in slices of
    about a quarter of a second when a deadline (or a process guard) may have to end it, whole
    when nothing can: the cuts move the search, not what it finds."""
    from dlxsat.instances import get

    p = parse(get("queens").generate(30))
    free = solve_problem(p, "sat", limit=1)
    timed = solve_problem(p, "sat", limit=1, timeout=3600)
    assert free.stats["solver"] == timed.stats["solver"] == cnf.PROPAGATOR_SOLVER
    assert free.stats["conflicts"] > cnf.FIRST_BUDGET  # (a first budget would have ended it)
    assert timed.stats["conflicts"] > cnf.FIRST_BUDGET
    assert timed.count == free.count == 1
    from dlxsat.xcc.check import solution_problem

    assert solution_problem(p, timed.solutions[0]) is None
    assert solution_problem(p, free.solutions[0]) is None


def test_the_last_slice_before_a_deadline_is_cut_to_the_time_left(monkeypatch):
    """A slice that ran on past the deadline's grace (0.2 s) was stopped by the process's alarm
    instead, and the report lost what the search had found (a NumberLink's first answer, at
    1.2 s past a 170 s limit). On a made-up clock, a solver doing 10,000 conflicts a second in
    slices of a quarter of a second, given a deadline at 0.9 s: the slices before it shrink to
    the time left, and the search ends within one least budget of it (0.1 s late without)."""
    clock = [0.0]

    class Clock:
        @staticmethod
        def monotonic() -> float:
            return clock[0]

        perf_counter = monotonic

    class Solver:
        budget = 0
        budgets: list[int] = []

        def conf_budget(self, n: int) -> None:
            self.budget = n
            self.budgets.append(n)

        def solve_limited(self, assumptions: list[int]) -> None:
            clock[0] += self.budget / 10_000  # (a search that never ends)

    session = cnf.Session("cadical195", cnf.build(parse("a\na\n")))
    session.close()
    session.solver = Solver()
    session.slice, session.budget = 0.25, 2_500
    monkeypatch.setattr(cnf, "time", Clock)
    assert session._solve_budgeted(0.9, []) is None
    assert 0.9 <= clock[0] < 0.9 + cnf.MIN_BUDGET / 10_000 + 1e-9
    assert session.solver.budgets[:2] == [2_500, 2_500] and min(session.solver.budgets) < 2_500


def test_a_call_past_its_first_budget_goes_on_in_slices():
    """Short CaDiCaL calls run in a first conflict budget, inprocessing off; a call past it
    goes on in slices of :data:`cnf.LONG_SLICE_SECONDS`, inprocessing on, with no propagator
    (a stopper's Python questions, four a decision, cost long searches a third to a half of
    their time), and so do the session's later calls; a deadline still ends it."""
    from dlxsat.backends.satsearch import CallStopper

    small = cnf.Session("cadical195", cnf.build(parse("a b c\na b\nc\na\nb c\n")))
    assert small.find(None) is True and small.find(time.monotonic() + 60) is True
    assert small.search is None and small.first_budget and small.slice == cnf.SLICE_SECONDS
    small.close()

    holes = cnf.Session("cadical195", cnf.build(_pigeonholes(9)))
    assert holes.find(time.monotonic() + 3600) is False
    assert holes.search is None and not holes.first_budget
    assert holes.slice == cnf.LONG_SLICE_SECONDS
    assert holes.search_stats()["conflicts"] > cnf.FIRST_BUDGET
    holes.close()

    start = time.monotonic()
    hard = cnf.Session("cadical195", cnf.build(_pigeonholes(16)))
    # (no end in minutes without a limit; its first budget, milliseconds, ends well within it)
    assert hard.find(time.monotonic() + 1.0) is None
    assert hard.search is None and not hard.first_budget
    assert time.monotonic() - start < LOADED_MARGIN
    hard.close()

    proving = cnf.Session(cnf.PROOF_SOLVER, cnf.build(_pigeonholes(3)), proof=True)
    assert isinstance(proving.search, CallStopper)  # (from the start: one solver's calls)
    proving.close()
