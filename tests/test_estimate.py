"""Knuth's Monte Carlo estimate of the DLX search tree (``dlxsat.backends.dlx.estimate``).

The estimate is unbiased: its expected value is the tree's node count exactly. That is tested
exactly on small random problems by walking every probe path with its probability, and
statistically (many probes, a fixed seed, a loose bound) on golden cases whose node counts
Knuth's programs and the DLX backend agree on.
"""

from __future__ import annotations

import math
import time

import pytest
from conftest import golden_problem
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from problems import exact_cover_problems, loop_problems

from dlxsat.backends import dlx
from dlxsat.backends.dlx import estimate as est_mod
from dlxsat.backends.dlx import kernel as k
from dlxsat.backends.dlx.arrays import build
from dlxsat.backends.dlx.estimate import estimate
from dlxsat.solvers import Request, solve_problem
from dlxsat.xcc import Item, Problem, parse
from dlxsat.xcc.loop import loop_graph
from dlxsat.xcc.rules import SingleLoop


def dlx_solve(problem, **kw):
    kw.setdefault("keep", None)  # (the tests read the answers: every one found is kept)
    return solve_problem(problem, "dlx", **kw)


def auto_solve(problem, **kw):
    return solve_problem(problem, "auto", **kw)


SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def expected(
    problem: Problem, loop: bool, allow_empty: bool, mirrored: bool = False
) -> tuple[float, float]:
    """The exact expected (nodes, solutions) of one probe: every path, by its probability
    (``mirrored``: in the tree whose ties go to the rightmost item; Algorithm M's tree for a
    problem with multiplicities)."""
    arrays = build(problem, loop_graph(problem) if loop else None)
    m = problem.kind == "MCC"
    params = est_mod.probe_params(arrays, loop, allow_empty)
    params[k.P_MIRROR] = 1 if mirrored else 0
    levels = arrays.max_level + 1
    nodes = sols = 0.0
    todo: list[tuple[list[int], list[int]]] = [([], [])]  # (choices, their degrees)
    while todo:
        choices, degrees = todo.pop()
        u = [(c + 0.5) / d for c, d in zip(choices, degrees, strict=True)] + [0.0] * (
            levels - len(choices)
        )
        deg = [0] * levels
        n, _, s, depth = est_mod.probe(arrays, params, u, deg, m=m)
        seen = deg[:depth]
        assert seen[: len(degrees)] == degrees
        # this path makes choice 0 beyond the prefix; branch on the others
        for i in range(len(choices), depth):
            for c in range(1, seen[i]):
                todo.append((choices + [0] * (i - len(choices)) + [c], seen[: i + 1]))
        p = math.prod(1 / d for d in seen)
        nodes += p * n
        sols += p * s
    return nodes, sols


@pytest.mark.parametrize("kind", ["XC", "XCC", "MCC"])
@SETTINGS
@given(data=st.data())
def test_expected_value_is_the_node_count_exactly(kind, data):
    p = data.draw(exact_cover_problems(kind))
    r = dlx_solve(p, keep=0)
    nodes, sols = expected(p, False, True)
    assert nodes == pytest.approx(r.stats["nodes"], rel=1e-9)
    assert sols == pytest.approx(r.count, rel=1e-9, abs=1e-9)


@pytest.mark.parametrize("allow_empty", [True, False])
@SETTINGS
@given(p=loop_problems(max_rows=3, max_cols=4))
def test_expected_value_is_exact_with_the_loop_rule(allow_empty, p):
    # Options the loop rule refuses are children with empty subtrees: still unbiased.
    r = dlx_solve(p, loop=True, allow_empty_loop=allow_empty, keep=0)
    nodes, sols = expected(p, True, allow_empty)
    assert nodes == pytest.approx(r.stats["nodes"], rel=1e-9)
    assert sols == pytest.approx(r.count, rel=1e-9, abs=1e-9)


def solutions(result) -> list[list[int]]:
    return sorted(sorted(s) for s in result.solutions)


@SETTINGS
@given(data=st.data(), allow_empty=st.booleans())
def test_the_mirrored_tree_has_the_same_solutions_and_unbiased_probes(data, allow_empty):
    # Ties between the shortest items to the rightmost (auto's loop trial searches this tree
    # after Knuth's): the same solutions through another tree, which the mirrored probes
    # estimate without bias, as the plain ones do Knuth's -- with colors, and with the loop rule.
    loop = data.draw(st.booleans())
    if loop:
        p = data.draw(loop_problems(max_rows=3, max_cols=4))
        q = p.with_rules(SingleLoop.from_names(p, allow_empty=allow_empty))
    else:
        p = q = data.draw(exact_cover_problems(data.draw(st.sampled_from(["XCC", "MCC"]))))
        assume(p.kind != "XC")  # (colors or multiplicities: dancing links, not bitsets)
    knuth = dlx.solve(q, Request(), {})
    mirrored = dlx.solve(q, Request(), {}, mirrored=True)
    assert mirrored.stats["mirrored"] and "mirrored" not in knuth.stats
    assert mirrored.count == knuth.count and solutions(mirrored) == solutions(knuth)
    nodes, sols = expected(p, loop, allow_empty or not loop, mirrored=True)
    assert nodes == pytest.approx(mirrored.stats["nodes"], rel=1e-9)
    assert sols == pytest.approx(mirrored.count, rel=1e-9, abs=1e-9)


def test_a_mirrored_tree_is_another_tree_also_for_algorithm_m():
    p = looped(golden_problem("masyu/random-few-5x6-3.dlx"))  # 1,711 nodes, 167 loops
    knuth = dlx.solve(p, Request(), {})
    mirrored = dlx.solve(p, Request(), {}, mirrored=True)
    assert knuth.stats["nodes"] == 1_711 != mirrored.stats["nodes"]
    assert mirrored.count == knuth.count == 167 and solutions(mirrored) == solutions(knuth)
    # Algorithm M (multiplicities): a SuperSlitherlink's tree, mirrored
    p = looped(golden_problem("superslitherlink/random-3x5-2.dlx"))
    assert p.kind == "MCC"
    knuth = dlx.solve(p, Request(), {})
    mirrored = dlx.solve(p, Request(), {}, mirrored=True)
    assert knuth.stats["nodes"] != mirrored.stats["nodes"] and mirrored.stats["mirrored"]
    assert mirrored.count == knuth.count > 0 and solutions(mirrored) == solutions(knuth)


def looped(p: Problem) -> Problem:
    """``p`` with Knuth's loop rule as DLX2-LOOP has it (the empty edge set a loop too)."""
    return p.with_rules(SingleLoop.from_names(p, allow_empty=True))


@pytest.mark.parametrize(
    "dlx_file, loop, probes, bound",
    [
        ("masyu/random-few-5x6-3.dlx", True, 400, 0.1),  # 1,711 nodes, 167 loops
        ("slitherlink/tatham-5x5-1.dlx", True, 600, 0.25),
        ("sudoku/tatham-9x9-1.dlx", False, 100, 0.1),
    ],
)
def test_mean_of_many_probes_converges(dlx_file, loop, probes, bound):
    p = golden_problem(dlx_file)
    r = dlx_solve(p, loop=loop, keep=0)
    e = estimate(looped(p) if loop else p, probes=probes, seed=7)
    assert e.probes == probes == len(e.samples)
    assert abs(e.nodes - r.stats["nodes"]) <= bound * r.stats["nodes"]
    assert abs(e.solutions - r.count) <= bound * r.count + 1


def test_a_uniform_tree_is_estimated_exactly_by_every_probe():
    # Five items with two options each: every path sees degree 2 five times.
    p = Problem([Item(f"p{i}") for i in range(5)], [((i, None),) for i in range(5) for _ in "ab"])
    e = estimate(p, probes=10, seed=None)
    assert set(e.samples) == {63.0} and e.nodes == 63 == dlx_solve(p, keep=0).stats["nodes"]
    assert e.solutions == 32 and e.depth == 5
    assert e.updates == pytest.approx(dlx_solve(p, keep=0).stats["updates"])


def test_fixed_seed_repeats_and_no_primary_item():
    p = golden_problem("slitherlink/tatham-5x5-1.dlx")
    a = estimate(looped(p), probes=20, seed=3)
    b = estimate(looped(p), probes=20, seed=3)
    assert a.samples == b.samples
    e = estimate(Problem([Item("x", False)], [((0, None),)]), probes=4)
    assert (e.nodes, e.solutions) == (1.0, 1.0)


def test_deadline_stops_after_one_probe():
    p = golden_problem("sudoku/tatham-9x9-1.dlx")
    e = estimate(p, probes=1000, deadline=time.monotonic() - 1)
    assert e.probes == 1


@pytest.mark.parametrize("mirrored", [False, True])
def test_algorithm_m_s_tree_with_the_loop_rule_is_estimated_exactly(mirrored):
    # A SuperSlitherlink (multiplicities and the loop rule): 75 nodes in Knuth's order, 87
    # mirrored; the probes' tweaks, null moves and refused options weigh every path right.
    p = looped(golden_problem("superslitherlink/random-3x5-2.dlx"))
    assert p.kind == "MCC"
    r = dlx.solve(p, Request(), {}, mirrored=mirrored)
    nodes, sols = expected(p, True, True, mirrored=mirrored)
    assert nodes == pytest.approx(r.stats["nodes"], rel=1e-9) and r.stats["nodes"] in (75, 87)
    assert sols == pytest.approx(r.count, rel=1e-9) and r.count == 1
    # a bound above 1 with slack: the child that uses no more of the item is weighed too
    q = parse("2|a b\na\na b\nb\n")  # (Algorithm M: 'a' twice at most)
    e = estimate(q, probes=50, seed=2)
    assert e is not None and e.nodes == pytest.approx(expected(q, False, True)[0])


@pytest.mark.parametrize("mirrored", [False, True])
@pytest.mark.parametrize(
    "dlx_file, loop",
    [
        ("masyu/random-few-5x6-3.dlx", True),
        ("sudoku/tatham-9x9-1.dlx", False),
        ("superslitherlink/random-3x5-2.dlx", True),  # Algorithm M
    ],
)
def test_compiled_probes_walk_the_same_paths(dlx_file, loop, mirrored):
    p = golden_problem(dlx_file)
    if loop:
        p = looped(p)
    a = estimate(p, probes=50, seed=5, compiled=False, mirrored=mirrored)
    b = estimate(p, probes=50, seed=5, compiled=True, mirrored=mirrored)
    assert a.samples == b.samples
    assert (a.solutions, a.depth) == (b.solutions, b.depth)
    assert a.updates == pytest.approx(b.updates)


def test_compiled_probes_of_a_large_algorithm_m_problem_walk_the_same_paths():
    # A Country Road of more than 64 primary items: compiled, the probes choose by the pass
    # over the choice keys kept in ``ln`` (arrays.choice_keys), interpreted by the active list.
    from test_dlx_tiers import _mcc_genre_problems

    param = next(p for p in _mcc_genre_problems() if p.id.startswith("country-road"))
    p = param.values[0]
    assert build(p, loop_graph(p)).aux > 0 and p.n_primary > k.FLAT_SCAN_ITEMS_COMPILED
    for mirrored in (False, True):
        a = estimate(p, probes=30, seed=4, compiled=False, mirrored=mirrored)
        b = estimate(p, probes=30, seed=4, compiled=True, mirrored=mirrored)
        assert a.samples == b.samples and max(a.samples) > 100
        assert (a.solutions, a.depth) == (b.solutions, b.depth)
