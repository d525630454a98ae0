"""The global rules (dlxsat.xcc.rules) on every backend, against a brute force on random grids.

Random small problems on a grid: cells that are shaded or not (their members ``cell:1`` must
be connected, or every piece must reach the border), edges that are on or off (they must hold
no cycle, or be connected through the tiles they share). The brute force lists every exact
cover and keeps those whose present members networkx finds connected or acyclic -- code that
shares nothing with dlxsat's. Every backend, in every mode it has for the rule, must give
exactly those answers; the rules' text form round-trips; the checker names what a rule breaks.
"""

from __future__ import annotations

from itertools import combinations

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from problems import brute_force

from dlxsat.solvers import solve_problem
from dlxsat.xcc import Item, Problem, parse, write
from dlxsat.xcc.check import solution_problem
from dlxsat.xcc.names import b62
from dlxsat.xcc.rules import KINDS, Acyclic, Connected, present

#: (backend, options) of every way dlxsat enforces the connected and acyclic rules.
WAYS = [
    ("dlx", {}),
    ("sat", {"connected_mode": "lazy", "acyclic_mode": "lazy"}),
    ("sat", {"connected_mode": "eager", "acyclic_mode": "eager"}),
    ("cpsat", {"connected_mode": "lazy", "acyclic_mode": "lazy"}),
    ("cpsat", {"connected_mode": "eager", "acyclic_mode": "eager"}),
]


def _way_id(way: tuple[str, dict]) -> str:
    name, options = way
    modes = sorted(set(options.values()))
    return name + (":" + ",".join(modes) if modes else "")


# --------------------------------------------------------------------------- random problems


def _name(x: int, y: int) -> str:
    return b62(x) + b62(y)


@st.composite
def shading_problems(draw, max_rows: int = 3, max_cols: int = 4) -> Problem:
    """Cells (2i+1, 2j+1) as secondary items colored 1 (shaded) or 0, each decided by its own
    primary item with a random subset of the two options kept, plus a few random options
    shading two neighbouring cells alike (so that choices interact); one Connected rule over
    the shaded (or the white) cells, maybe with the border as roots."""
    rows, cols = draw(st.integers(1, max_rows)), draw(st.integers(2, max_cols))
    cells = [(2 * i + 1, 2 * j + 1) for i in range(rows) for j in range(cols)]
    items = [Item("p" + _name(x, y)) for x, y in cells]
    items += [Item(_name(x, y), primary=False) for x, y in cells]
    n = len(cells)
    options: list[tuple] = []
    for k in range(n):
        kept = draw(st.sampled_from([("0", "1"), ("0", "1"), ("0", "1"), ("0",), ("1",)]))
        options += [((k, None), (n + k, c)) for c in kept]
    colour = draw(st.sampled_from("10"))
    members = tuple((n + k, colour) for k in range(n))
    at = {xy: k for k, xy in enumerate(cells)}
    links = tuple(
        (at[(x, y)], at[(x + dx, y + dy)])
        for x, y in cells
        for dx, dy in ((2, 0), (0, 2))
        if (x + dx, y + dy) in at
    )
    roots = None
    if draw(st.booleans()):
        roots = tuple(k for k, (x, y) in enumerate(cells) if x in (1, 2 * rows - 1) or y == 1)
    return Problem(items, options, rules=(Connected(members, links, roots, "cells"),))


@st.composite
def edge_problems(draw, max_rows: int = 3, max_cols: int = 3) -> Problem:
    """Tiles (2i, 2j) and the edges between them as secondary items colored 1 (on) or 0, each
    decided by its own primary item (a random subset of the two options kept); one rule over
    the edges on: acyclic (paths and trees only), or connected through the tiles they share."""
    rows, cols = draw(st.integers(2, max_rows)), draw(st.integers(2, max_cols))
    edges = sorted(
        [(2 * i + 1, 2 * j) for i in range(rows - 1) for j in range(cols)]
        + [(2 * i, 2 * j + 1) for i in range(rows) for j in range(cols - 1)]
    )
    n = len(edges)
    items = [Item("q" + _name(x, y)) for x, y in edges]
    items += [Item(_name(x, y), primary=False) for x, y in edges]
    options: list[tuple] = []
    for k in range(n):
        kept = draw(st.sampled_from([("0", "1"), ("0", "1"), ("0", "1"), ("0",), ("1",)]))
        options += [((k, None), (n + k, c)) for c in kept]
    members = tuple((n + k, "1") for k in range(n))
    ends = []
    for x, y in edges:
        a, b = ((x - 1, y), (x + 1, y)) if x & 1 else ((x, y - 1), (x, y + 1))
        ends.append((a[0] * 100 + a[1], b[0] * 100 + b[1]))
    if draw(st.booleans()):
        rule = Acyclic(members, tuple(ends), "paths")
    else:
        links = tuple((a, b) for a, b in combinations(range(n), 2) if set(ends[a]) & set(ends[b]))
        rule = Connected(members, links, None, "pipes")
    return Problem(items, options, rules=(rule,))


# --------------------------------------------------------------------------- the brute force


def keeps_rules(problem: Problem, chosen: list[int]) -> bool:
    """Whether ``chosen`` keeps every rule of ``problem``, judged with networkx."""
    for rule in problem.rules:
        on = [k for k, p in enumerate(present(problem, chosen, rule.members)) if p]
        if isinstance(rule, Acyclic):
            g = nx.MultiGraph()
            g.add_edges_from(rule.ends[k] for k in on)
            if on and not nx.is_forest(g):
                return False
        elif isinstance(rule, Connected):
            g = nx.Graph()
            g.add_nodes_from(on)
            g.add_edges_from((a, b) for a, b in rule.links if a in g and b in g)
            if rule.roots is None:
                if on and not nx.is_connected(g):
                    return False
            else:
                roots = set(rule.roots)
                if any(not roots & part for part in nx.connected_components(g)):
                    return False
    return True


def answers(problem: Problem) -> list[list[int]]:
    """Every answer of ``problem``, by brute force: exact covers that keep its rules (sorted,
    as :func:`solved` gives them: the brute force lists them in its own order)."""
    bare = Problem(problem.items, problem.options)
    return sorted(s for s in brute_force(bare) if keeps_rules(problem, s))


def solved(way: tuple[str, dict], problem: Problem) -> list[list[int]]:
    name, options = way
    kinds = {r.kind for r in problem.rules}
    given = {k: v for k, v in options.items() if k.removesuffix("_mode") in kinds}
    r = solve_problem(problem, name, **given)
    assert r.exhausted and not r.timed_out
    return sorted(sorted(s) for s in r.solutions)


# --------------------------------------------------------------------------- the tests


@pytest.mark.parametrize("way", WAYS, ids=_way_id)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problem=shading_problems())
def test_connected_cells_agree_with_the_brute_force(way, problem):
    assert solved(way, problem) == answers(problem)


@pytest.mark.parametrize("way", WAYS, ids=_way_id)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problem=edge_problems())
def test_acyclic_and_connected_edges_agree_with_the_brute_force(way, problem):
    assert solved(way, problem) == answers(problem)


@settings(max_examples=40, deadline=None)
@given(problem=st.one_of(shading_problems(), edge_problems()))
def test_rules_round_trip_through_the_text_form(problem):
    """``|@`` lines: parse(write(p)) == p, rules included (with ``grid`` links where they are
    the grid's, explicit pairs otherwise)."""
    again = parse(write(problem))
    assert again == problem and again.rules == problem.rules


@settings(max_examples=40, deadline=None)
@given(problem=st.one_of(shading_problems(), edge_problems()))
def test_the_checker_judges_every_cover_as_the_brute_force(problem):
    bare = Problem(problem.items, problem.options)
    for chosen in brute_force(bare):
        wrong = solution_problem(problem, chosen)
        assert (wrong is None) == keeps_rules(problem, chosen)
        if wrong is not None:
            assert wrong.startswith(f"rule {problem.rules[0].kind} {problem.rules[0].label}")


def test_a_rule_written_by_hand_is_read_and_judged():
    text = (
        "| two cells, connected when both are shaded\n"
        "|@connected sea\n|@members 11:1 13:1 31:1\n|@links grid\n|@roots border\n"
        "p11 p13 p31 | 11 13 31\n"
        "p11 11:1\np11 11:0\np13 13:1\np13 13:0\np31 31:1\np31 31:0\n"
    )
    p = parse(text)
    (rule,) = p.rules
    assert rule.kind == "connected" and rule.label == "sea"
    assert rule.links == ((0, 1), (0, 2)) and rule.roots == (0, 1, 2)
    assert solution_problem(p, [0, 3, 4]) is None  # every piece touches the border
    with pytest.raises(Exception, match="line 3: rule connected: unknown item name 'zz'"):
        parse(text.replace("31:1\n", "zz:1\n", 1))


def test_every_kind_of_rule_is_named_in_the_solvers_modes():
    from dlxsat.solvers import RULE_KINDS

    assert RULE_KINDS == KINDS
