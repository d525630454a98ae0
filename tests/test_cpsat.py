"""The CP-SAT backend (``dlxsat.backends.cpsat``): same answers as the brute force and as
Knuth's solvers, in both loop modes and both color modes; options and time limits."""

from __future__ import annotations

import doctest
import time

import pytest
from conftest import golden_cases, golden_count_runs, golden_problem
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from problems import brute_force, exact_cover_problems, loop_problems

from dlxsat.backends import cpsat
from dlxsat.errors import InputError
from dlxsat.solvers import get_solver as get_backend
from dlxsat.xcc import Item, Problem, parse
from dlxsat.xcc.loop import is_single_cycle, used_edges
from dlxsat.xcc.names import parse_point_name

SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def solutions(problem: Problem, **kw):
    r = cpsat.solve(problem, **kw)
    assert r.exhausted and not r.timed_out
    assert r.count == len(r.solutions)
    return sorted(r.solutions), r


@pytest.mark.parametrize("kind", ["XC", "XCC", "MCC"])
@SETTINGS
@given(data=st.data())
def test_same_solutions_as_brute_force(kind, data):
    p = data.draw(exact_cover_problems(kind))
    colors = data.draw(st.sampled_from(["onehot", "binary"]))
    got, r = solutions(p, colors=colors)
    assert got == sorted(brute_force(p))
    assert r.stats["colors"] == colors


@pytest.mark.parametrize("mode", ["lazy", "circuit"])
@pytest.mark.parametrize("allow_empty", [True, False])
@SETTINGS
@given(p=loop_problems(max_rows=4, max_cols=4), colors=st.sampled_from(["onehot", "binary"]))
def test_loop_rule_same_solutions_as_brute_force(mode, allow_empty, p, colors):
    got, r = solutions(p, loop=True, allow_empty_loop=allow_empty, loop_mode=mode, colors=colors)
    assert got == sorted(brute_force(p, loop=True, allow_empty_loop=allow_empty))
    for chosen in got:
        edges = used_edges(p, chosen)
        assert is_single_cycle(edges) or (allow_empty and not edges)
    assert r.stats["loop_mode"] == mode


@pytest.mark.parametrize("mode", ["lazy", "circuit"])
@SETTINGS
@given(p=loop_problems(max_rows=3, max_cols=4), limit=st.integers(1, 3), keep=st.integers(0, 2))
def test_limit_and_keep(mode, p, limit, keep):
    everything = brute_force(p, loop=True)
    r = cpsat.solve(p, loop=True, limit=limit, keep=keep, loop_mode=mode)
    assert r.count == min(limit, len(everything))
    assert len(r.solutions) == min(keep, r.count)
    assert all(s in everything for s in r.solutions)
    assert all(s == sorted(s) for s in r.solutions)
    if len(everything) < limit:
        assert r.exhausted


@pytest.mark.parametrize("limit", [1, 2, 5])
@pytest.mark.parametrize("loop", [False, True])
def test_limit_is_never_exceeded_with_parallel_workers(limit, loop):
    # Parallel workers can report answers after StopSearch; a round must drop them
    # (CI once saw three answers come back for limit 2).
    p = golden_problem("masyu/random-few-4x4-4.dlx")
    for _ in range(15):
        r = cpsat.solve(p, loop=loop, limit=limit, workers=8)
        assert r.count == limit == len(r.solutions)
        assert len({tuple(s) for s in r.solutions}) == limit


GOLDEN_RUNS = golden_count_runs()


@pytest.mark.parametrize("dlx, loop, count", GOLDEN_RUNS)
def test_golden_counts(dlx, loop, count):
    p = golden_problem(dlx)
    r = cpsat.solve(p, loop=loop, allow_empty_loop=True, keep=0)
    assert (r.count, r.exhausted) == (count, True)


@pytest.mark.parametrize(
    "dlx, loop, count", [p for p in GOLDEN_RUNS if p.values[1] and p.values[2] < 200]
)
def test_golden_loop_counts_lazy(dlx, loop, count):
    p = golden_problem(dlx)
    r = cpsat.solve(p, loop=True, allow_empty_loop=True, keep=0, loop_mode="lazy")
    assert (r.count, r.exhausted) == (count, True)


@pytest.mark.parametrize("mode", ["lazy", "circuit"])
def test_golden_unique_answers_are_knuths(mode):
    for c in golden_cases(ok_only=True):
        if "solution_edges" not in c:
            continue
        p = golden_problem(c["dlx"])
        r = get_backend("cpsat").solve(
            p, loop=True, allow_empty_loop=False, limit=2, loop_mode=mode, workers=2
        )
        assert r.count == 1 and r.exhausted, c["name"]
        want = sorted(parse_point_name(n) for n in c["solution_edges"])
        assert used_edges(p, r.solutions[0]) == want, c["name"]


def test_empty_loop_counted_only_when_allowed():
    p = golden_problem("masyu/empty-2x2.dlx")
    for mode in ("lazy", "circuit"):
        assert cpsat.solve(p, loop=True, allow_empty_loop=True, loop_mode=mode).count == 2
        r = cpsat.solve(p, loop=True, allow_empty_loop=False, loop_mode=mode)
        assert r.count == 1 and len(used_edges(p, r.solutions[0])) == 4


def test_defaults_and_stats():
    r = cpsat.solve(golden_problem("masyu/empty-2x2.dlx"), loop=True, workers=1)
    st_ = r.stats
    assert st_["loop_mode"] == cpsat.DEFAULT_LOOP_MODE == "circuit"
    assert st_["colors"] == cpsat.DEFAULT_COLORS
    assert st_["workers"] == 1 and st_["solver"].startswith("cp-sat")
    for key in ("variables", "constraints", "rounds", "cuts", "seconds", "solve_seconds"):
        assert key in st_


@pytest.mark.parametrize(
    "kw, message",
    [
        ({"encoding": "pairwise"}, "sat backend"),
        ({"solver": "glucose4"}, "sat backend"),
        ({"loop_mode": "eager", "loop": True}, "cpsat has lazy and circuit"),
        ({"loop_mode": "sideways", "loop": True}, "unknown loop mode"),
        ({"loop_mode": "circuit"}, "only with the single-loop rule"),
        ({"colors": "rainbow"}, "unknown color mode"),
        ({"workers": 0}, "positive"),
        ({"frobnicate": 1}, "unknown option"),
        ({"limit": -1}, "solution limit must not be negative"),
        ({"keep": -1}, "to keep must not be negative"),
        ({"timeout": 0}, "time limit must be positive"),
    ],
)
def test_bad_options(kw, message):
    with pytest.raises(InputError, match=message):
        cpsat.solve(parse("00 02 | 01\n00 01:1\n02 01:1\n"), **kw)


def test_timeout_while_enumerating():
    items = [Item(f"p{i}") for i in range(24)]
    options = [((i, None),) for i in range(24) for _ in range(2)]
    start = time.monotonic()
    r = cpsat.solve(Problem(items, options), timeout=0.5, keep=3)
    assert r.timed_out and not r.exhausted
    assert r.count >= 3 and len(r.solutions) == 3
    assert time.monotonic() - start < 5


def test_timeout_in_lazy_rounds():
    p = golden_problem("superslitherlink/pi-day-2025.dlx")
    start = time.monotonic()
    r = cpsat.solve(p, loop=True, limit=2, timeout=0.2, loop_mode="lazy")
    assert r.timed_out and not r.exhausted and r.count == 0
    assert time.monotonic() - start < 5


def test_docstring_examples():
    failed, attempted = doctest.testmod(cpsat)
    assert failed == 0 and attempted > 0
