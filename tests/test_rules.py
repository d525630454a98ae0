"""The global rules (dlxsat.xcc.rules) on every backend, against a brute force on random grids.

Random small problems on a grid: cells that are shaded or not (their members ``cell:1`` must
be connected, or every piece must reach the border), edges that are on or off (they must hold
no cycle, or be connected through the tiles they share). The brute force lists every exact
cover and keeps those whose present members networkx finds connected or acyclic -- code that
shares nothing with dlxsat's. Every backend, in every mode it has for the rule, must give
exactly those answers; the rules' text form round-trips; the checker names what a rule breaks.

The lazy modes' cuts are checked as premises would be (:func:`dlxsat.xcc.rules.justified`,
itself against networkx), a backend with a broken cut generator is caught by the checker, the
eager DIMACS export has exactly the answers, and a rule's mode is refused without its rule.
"""

from __future__ import annotations

from itertools import combinations

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from problems import brute_force

from dlxsat.errors import InputError, RuleViolation
from dlxsat.solvers import RULE_MODE_ALONE, solve_problem
from dlxsat.xcc import Item, Problem, parse, write
from dlxsat.xcc.check import check_solutions, solution_problem
from dlxsat.xcc.names import b62
from dlxsat.xcc.rules import KINDS, Acyclic, Connected, Cycle, Separation, justified, present

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


# --------------------------------------------------------------------------- cuts and modes


def _links_graph(rule: Connected) -> nx.Graph:
    g = nx.Graph()
    g.add_nodes_from(range(len(rule.members)))
    g.add_edges_from(rule.links)
    return g


def _separates(rule: Connected, cut: Separation) -> bool:
    """Whether ``cut``'s boundary separates its head from ``b`` (or the roots), by networkx."""
    g = _links_graph(rule)
    g.remove_nodes_from(cut.boundary)
    goals = set(rule.roots) if rule.roots is not None else {cut.b}
    return cut.a not in cut.boundary and not (goals & nx.node_connected_component(g, cut.a))


def _recorded_cuts(monkeypatch) -> list[tuple[Connected | Acyclic, Separation | Cycle]]:
    """Every cut the backends' generators (dlxsat.backends.rulecuts) make from now on."""
    from dlxsat.backends import rulecuts

    seen: list[tuple[Connected | Acyclic, Separation | Cycle]] = []
    for cls in (rulecuts.ConnectedCuts, rulecuts.AcyclicCuts):
        original = cls.cuts

        def cuts(self, on, original=original):
            found = original(self, on)
            seen.extend((self.rule, cut) for cut in found)
            return found

        monkeypatch.setattr(cls, "cuts", cuts)
    return seen


#: (rule, cut, what ``justified`` says: None, or a part of its message).
_LINE = Connected(tuple((k, "1") for k in range(4)), ((0, 1), (1, 2), (2, 3)))
_ROOTED = Connected(_LINE.members, _LINE.links, (0,))
_SQUARE = Acyclic(tuple((k, "1") for k in range(4)), ((0, 1), (1, 2), (2, 3), (3, 0)))
JUSTIFIED = [
    (_LINE, Separation(0, 3, (1,)), None),
    (_LINE, Separation(0, 3, (2,)), None),
    (_LINE, Separation(0, 3, ()), "member 0 reaches member 3 avoiding the boundary"),
    (_LINE, Separation(0, 2, (2,)), "in its boundary"),
    (_LINE, Separation(0, None, (1,)), "a cut to the roots fits a rule with roots"),
    (_ROOTED, Separation(3, None, (2,)), None),
    (_ROOTED, Separation(3, None, (0,)), None),  # (the root itself blocks the way)
    (_ROOTED, Separation(3, None, ()), "member 3 reaches a root (0)"),
    (_ROOTED, Separation(0, None, (1,)), "member 0 reaches a root (0)"),
    (_SQUARE, Cycle((0, 1, 2, 3)), None),
    (_SQUARE, Cycle((0, 1, 2)), "hold no cycle"),
    (_SQUARE, Separation(0, 1, ()), "no cut of a acyclic rule"),
    (_LINE, Cycle((0, 1)), "no cut of a connected rule"),
]


@pytest.mark.parametrize(("rule", "cut", "verdict"), JUSTIFIED)
def test_justified_accepts_valid_cuts_and_names_what_is_wrong(rule, cut, verdict):
    said = justified(rule, cut)
    assert said is None if verdict is None else verdict in said


@pytest.mark.parametrize("backend", ["sat", "cpsat"])
@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
@given(problem=st.one_of(shading_problems(3, 4), edge_problems(3, 3)), count=st.booleans())
def test_every_cut_a_backend_adds_is_justified(backend, problem, count):
    """Cuts made between solver calls (a limit) and, by sat, inside one call (a count: the
    propagator) -- least separators (sat) and front ones (cpsat) -- each valid by
    ``justified``; each with one boundary member or cycle member dropped judged as networkx
    judges it (a cycle less a member is none: always refused)."""
    kinds = {r.kind for r in problem.rules}
    options = {f"{k}_mode": "lazy" for k in kinds}
    with pytest.MonkeyPatch.context() as mp:
        seen = _recorded_cuts(mp)
        solve_problem(problem, backend, limit=None if count else 2, **options)
    for rule, cut in seen:
        assert justified(rule, cut) is None, (rule, cut)
        if isinstance(cut, Cycle):
            for m in cut.members:
                fewer = Cycle(tuple(x for x in cut.members if x != m))
                assert justified(rule, fewer) is not None
            continue
        for m in cut.boundary:
            fewer = Separation(cut.a, cut.b, tuple(x for x in cut.boundary if x != m))
            assert (justified(rule, fewer) is None) == _separates(rule, fewer)


def test_a_boundary_member_left_out_is_caught():
    """On a 3 x 3 grid of cells, corner 0 cut off from corner 8 by its two neighbours: either
    alone leaves a way round."""
    rule = Connected(
        tuple((k, "1") for k in range(9)),
        tuple((k, k + 1) for k in range(9) if k % 3 < 2) + tuple((k, k + 3) for k in range(6)),
    )
    assert justified(rule, Separation(0, 8, (1, 3))) is None
    assert justified(rule, Separation(0, 8, (1,))) is not None
    assert justified(rule, Separation(0, 8, (3,))) is not None


def _row(rule: str) -> Problem:
    """Three cells in a row, each shaded or not; ``connected``: the shaded ones connected
    (answer "1 0 1" breaks it); ``acyclic``: three edges of a triangle, each on or not
    (all three on break it)."""
    items = [Item(f"p{k}") for k in range(3)] + [Item(f"c{k}", primary=False) for k in range(3)]
    options = [((k, None), (3 + k, c)) for k in range(3) for c in "01"]
    members = tuple((3 + k, "1") for k in range(3))
    made = (
        Connected(members, ((0, 1), (1, 2)))
        if rule == "connected"
        else Acyclic(members, ((0, 1), (1, 2), (2, 0)))
    )
    return Problem(items, options, rules=(made,))


@pytest.mark.parametrize("backend", ["sat", "cpsat"])
@pytest.mark.parametrize(
    ("kind", "cutter"), [("connected", "ConnectedCuts"), ("acyclic", "AcyclicCuts")]
)
def test_a_backend_whose_cuts_accept_a_broken_model_is_caught(monkeypatch, backend, kind, cutter):
    """With the cut generator made to accept every model, the lazy mode returns an answer that
    breaks the rule, and the checker (independent of the backends) refuses it."""
    from dlxsat.backends import rulecuts

    monkeypatch.setattr(getattr(rulecuts, cutter), "cuts", lambda self, on: [])
    problem = _row(kind)
    r = solve_problem(problem, backend, **{f"{kind}_mode": "lazy"})
    assert r.count == 8  # every cover, the broken one among them
    wrong = [s for s in r.solutions if solution_problem(problem, s) is not None]
    assert len(wrong) == 1 and solution_problem(problem, wrong[0]).startswith(f"rule {kind}")
    with pytest.raises(RuleViolation, match=f"returned a solution that is not one: rule {kind}"):
        check_solutions(problem, r.solutions, who=backend)


def _dimacs_answers(text: str, n: int) -> list[list[int]]:
    """Every model of a DIMACS text projected on its first ``n`` variables (the options), by
    blocking each in turn (as tests/test_dimacs.py enumerates)."""
    from pysat.formula import CNF
    from pysat.solvers import Solver

    found = []
    with Solver(name="cadical195", bootstrap_with=CNF(from_string=text).clauses) as s:
        while s.solve():
            model = s.get_model() or []
            chosen = [v - 1 for v in model[:n] if v > 0]
            found.append(chosen)
            s.add_clause([-(k + 1) if k in chosen else k + 1 for k in range(n)])
    return sorted(found)


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(problem=st.one_of(shading_problems(), edge_problems()))
def test_the_eager_dimacs_export_has_exactly_the_answers(problem):
    from dlxsat.backends.dimacs import export_dimacs

    text = export_dimacs(problem)
    kind = problem.rules[0].kind
    assert f"c rule {kind}: eager - complete" in text
    assert _dimacs_answers(text, len(problem.options)) == answers(problem)


#: (backend, option, mode) of the rule modes that must be taken with their rule only.
MODES = [
    ("sat", "connected_mode", "eager"),
    ("sat", "acyclic_mode", "lazy"),
    ("cpsat", "connected_mode", "lazy"),
    ("cpsat", "acyclic_mode", "eager"),
]


@pytest.mark.parametrize(("backend", "option", "mode"), MODES)
def test_a_rule_mode_is_taken_with_its_rule_and_refused_without(backend, option, mode):
    kind = option.removesuffix("_mode")
    problem = _row(kind)
    r = solve_problem(problem, backend, **{option: mode})
    assert r.count == 7 and r.stats[option] == mode
    other = _row("acyclic" if kind == "connected" else "connected")
    with pytest.raises(InputError) as e:
        solve_problem(other, backend, **{option: mode})
    assert str(e.value) == RULE_MODE_ALONE[kind] and "\n" not in str(e.value)
