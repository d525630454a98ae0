"""The SAT backend (``dlxsat.backends.cnf``) and the loop cuts it shares with CP-SAT.

Counts and solution sets must equal an obviously correct brute force on random small problems
(every encoding kind, both color modes, every loop mode), and Knuth's solvers' counts on every
golden case.
"""

from __future__ import annotations

import doctest
import time

import pytest
from conftest import golden_cases, golden_count_runs, golden_problem
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from problems import brute_force, exact_cover_problems, loop_problems

from dlxsat.backends import cnf, loopcuts
from dlxsat.errors import InputError
from dlxsat.solvers import get_solver as get_backend
from dlxsat.xcc import Item, Problem, parse
from dlxsat.xcc.loop import is_single_cycle, used_edges

SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])

#: Encodings for any bound, and those that only say "at most one".
ANY_BOUND = [
    "auto",
    "seqcounter",
    "totalizer",
    "sortnetwrk",
    "cardnetwrk",
    "mtotalizer",
    "kmtotalizer",
]
AMO_ONLY = ["pairwise", "ladder", "bitwise"]


def solutions(problem: Problem, **kw) -> tuple[list[list[int]], cnf.SearchResult]:
    r = cnf.solve(problem, **kw)
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


@pytest.mark.parametrize("mode", ["lazy", "eager"])
@pytest.mark.parametrize("colors", ["onehot", "binary"])
@pytest.mark.parametrize("allow_empty", [True, False])
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(p=loop_problems(max_rows=4, max_cols=4))
def test_loop_rule_same_solutions_as_brute_force(mode, colors, allow_empty, p):
    got, r = solutions(p, loop=True, allow_empty_loop=allow_empty, loop_mode=mode, colors=colors)
    assert got == sorted(brute_force(p, loop=True, allow_empty_loop=allow_empty))
    for chosen in got:
        edges = used_edges(p, chosen)
        assert is_single_cycle(edges) or (allow_empty and not edges)
    if mode == "eager":
        assert r.stats["cuts"] == 0


@SETTINGS
@given(p=loop_problems(max_rows=3, max_cols=4), limit=st.integers(1, 3), keep=st.integers(0, 2))
def test_limit_and_keep(p, limit, keep):
    everything = brute_force(p, loop=True)
    r = cnf.solve(p, loop=True, limit=limit, keep=keep)
    assert r.count == min(limit, len(everything))
    assert len(r.solutions) == min(keep, r.count)
    assert all(s in everything for s in r.solutions)
    assert all(s == sorted(s) for s in r.solutions)
    if len(everything) < limit:
        assert r.exhausted


# ---------------------------------------------------------------- golden counts


GOLDEN_RUNS = golden_count_runs()


def test_golden_runs_cover_every_case():
    assert len(GOLDEN_RUNS) >= 60
    assert {p.values[0] for p in GOLDEN_RUNS} == {
        c["dlx"] for c in golden_cases(ok_only=True) if c.get("dlx")
    }


@pytest.mark.parametrize("dlx, loop, count", GOLDEN_RUNS)
def test_golden_counts(dlx, loop, count):
    p = golden_problem(dlx)
    r = cnf.solve(p, loop=loop, allow_empty_loop=True, keep=0)
    assert (r.count, r.exhausted) == (count, True)


@pytest.mark.parametrize("mode", ["eager"])
@pytest.mark.parametrize(
    "dlx, loop, count", [p for p in GOLDEN_RUNS if p.values[1] and p.values[2] < 200]
)
def test_golden_loop_counts_eager(mode, dlx, loop, count):
    p = golden_problem(dlx)
    r = cnf.solve(p, loop=True, allow_empty_loop=True, keep=0, loop_mode=mode)
    assert (r.count, r.exhausted) == (count, True)


def test_golden_unique_answers_are_knuths():
    from dlxsat.xcc.names import parse_point_name

    for c in golden_cases(ok_only=True):
        if "solution_edges" not in c:
            continue
        p = golden_problem(c["dlx"])
        r = get_backend("sat").solve(p, loop=True, allow_empty_loop=False, limit=2)
        assert r.count == 1 and r.exhausted, c["name"]
        want = sorted(parse_point_name(n) for n in c["solution_edges"])
        assert used_edges(p, r.solutions[0]) == want, c["name"]


def test_empty_loop_counted_only_when_allowed():
    p = golden_problem("masyu/empty-2x2.dlx")
    assert cnf.solve(p, loop=True, allow_empty_loop=True).count == 2
    r = cnf.solve(p, loop=True, allow_empty_loop=False)
    assert r.count == 1 and len(used_edges(p, r.solutions[0])) == 4


def test_no_possible_edge_means_no_loop():
    # Vertices but no option puts an edge on: only the empty set, and that only if allowed.
    p = parse("00 02 | 01\n00 01:0\n02 01:0\n")
    assert cnf.solve(p, loop=True, allow_empty_loop=True).count == 1
    assert cnf.solve(p, loop=True, allow_empty_loop=False).count == 0
    assert cnf.solve(p, loop=True, allow_empty_loop=False, loop_mode="eager").count == 0


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
        r = cnf.solve(p, loop=loop, solver=solver, keep=0)
        assert (r.count, r.exhausted, r.stats["solver"]) == (count, True, solver), dlx


def test_solver_aliases():
    p = parse("a\na\n")
    assert cnf.solve(p, solver="g4").stats["solver"] == "glucose4"
    assert cnf.solve(p, solver="cd19").stats["solver"] == "cadical195"


@settings(max_examples=30, deadline=None)
@given(p=exact_cover_problems("MCC"))
def test_native_cardinality_with_minicard(p):
    got, _ = solutions(p, encoding="native", solver="minicard")
    assert got == sorted(brute_force(p))


def test_defaults_are_measured_ones():
    r = cnf.solve(parse("a\na\n"))
    assert r.stats["solver"] == cnf.DEFAULT_SOLVER == "cadical195"
    assert r.stats["encoding"] == cnf.DEFAULT_ENCODING
    assert r.stats["colors"] == cnf.DEFAULT_COLORS
    assert r.stats["loop_mode"] == "none"
    r = cnf.solve(parse("00 02 | 01\n00 01:1\n02 01:1\n"), loop=True)
    assert r.stats["loop_mode"] == cnf.DEFAULT_LOOP_MODE == "lazy"
    for key in ("variables", "clauses", "rounds", "cuts", "seconds", "solve_seconds"):
        assert key in r.stats


@pytest.mark.parametrize(
    "kw, message",
    [
        ({"encoding": "nosuch"}, "unknown encoding"),
        ({"colors": "rainbow"}, "unknown color mode"),
        ({"solver": "nosuch"}, "unknown SAT solver"),
        ({"loop_mode": "circuit", "loop": True}, "cpsat"),
        ({"loop_mode": "sideways", "loop": True}, "unknown loop mode"),
        ({"loop_mode": "lazy"}, "only with the single-loop rule"),
        ({"workers": 4}, "cpsat"),
        ({"frobnicate": 1}, "unknown option"),
        ({"limit": -1}, "solution limit must not be negative"),
        ({"keep": -1}, "to keep must not be negative"),
        ({"timeout": 0}, "time limit must be positive"),
    ],
)
def test_bad_options(kw, message):
    with pytest.raises(InputError, match=message):
        cnf.solve(parse("00 02 | 01\n00 01:1\n02 01:1\n"), **kw)


def test_native_needs_a_cardinality_solver():
    with pytest.raises(InputError, match="minicard"):
        cnf.solve(parse("a\na\na\na\n"), encoding="native")
    assert cnf.solve(parse("a\na\na\na\n"), encoding="native", solver="gluecard4").count == 3


@pytest.mark.parametrize("encoding", AMO_ONLY)
def test_at_most_one_encodings_refuse_larger_bounds(encoding):
    p = parse("2|a b\na\na\na\nb\n")  # a: exactly 2 of 3 options
    with pytest.raises(InputError, match="only encodes 'at most one'.*item a"):
        cnf.solve(p, encoding=encoding)
    # ... but are fine where every bound is one.
    assert cnf.solve(parse("a b\na\nb\na b\n"), encoding=encoding).count == 2


def test_unsatisfiable_bounds():
    assert cnf.solve(parse("3|a\na\na\n")).count == 0  # at least 3 of 2 options
    assert cnf.solve(parse("a b\nb\n")).count == 0  # a has no option
    assert cnf.solve(parse("0:1|a b\nb\n")).count == 1


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
    r = cnf.solve(_pigeonholes(13), timeout=0.5, solver=solver)
    elapsed = time.monotonic() - start
    assert r.timed_out and not r.exhausted and r.count == 0
    assert elapsed < 5


def test_timeout_between_rounds():
    # 2^24 solutions: enumeration can't finish, each round is quick.
    items = [Item(f"p{i}") for i in range(24)]
    options = [((i, None),) for i in range(24) for _ in range(2)]
    start = time.monotonic()
    r = cnf.solve(Problem(items, options), timeout=0.3, keep=5)
    assert r.timed_out and not r.exhausted
    assert r.count > 5 and len(r.solutions) == 5
    assert time.monotonic() - start < 5


def test_docstring_examples():
    for module in (cnf, loopcuts):
        failed, attempted = doctest.testmod(module)
        assert failed == 0 and attempted > 0
