"""The global rules (dlxsat.xcc.rules) on every backend, against a brute force on random grids.

Random small problems on a grid: cells that are shaded or not (their members ``cell:1`` must be
connected, or every piece must reach the border, or the pieces must have sizes), edges that are
on or off (they must hold no cycle, or be connected through the tiles they share). The brute
force lists every exact cover and keeps those whose present members networkx finds connected,
acyclic or in pieces of the right sizes -- code that shares nothing with dlxsat's. Every
backend, in every mode it has for the rule, must give exactly those answers; the rules' text
form round-trips; the checker names what a rule breaks.

The lazy modes' cuts are checked as premises would be (:func:`dlxsat.xcc.rules.justified`,
itself against networkx), a backend with a broken cut generator is caught by the checker, the
eager DIMACS export has exactly the answers, and a rule's mode is refused without its rule.
"""

from __future__ import annotations

import contextlib
import functools
import math
import re
import sys
from collections.abc import Iterator
from dataclasses import replace
from itertools import combinations

import networkx as nx
import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st
from problems import brute_force

from dlxsat.backends.covering import owned_reaches
from dlxsat.errors import InputError, RuleViolation
from dlxsat.solvers import RULE_MODE_ALONE, search_solvers
from dlxsat.solvers import solve_problem as _solve_problem
from dlxsat.xcc import Item, Problem, parse, write
from dlxsat.xcc.check import check_solutions, solution_problem
from dlxsat.xcc.names import b62
from dlxsat.xcc.rules import (
    KINDS,
    Acyclic,
    Connected,
    Cut,
    Cycle,
    Piece,
    Separation,
    Sized,
    justified,
    pieces,
    present,
)

#: (backend, options) of every way dlxsat enforces the connected, acyclic and sized rules (a
#: problem's rules take the modes of their kinds).
WAYS = [
    ("dlx", {}),
    ("sat", {"connected_mode": "lazy", "acyclic_mode": "lazy", "sized_mode": "lazy"}),
    ("sat", {"connected_mode": "eager", "acyclic_mode": "eager", "sized_mode": "eager"}),
    ("cpsat", {"connected_mode": "lazy", "acyclic_mode": "lazy", "sized_mode": "lazy"}),
    ("cpsat", {"connected_mode": "eager", "acyclic_mode": "eager", "sized_mode": "eager"}),
]


def solve_problem(problem, backend="dlx", **kw):
    """The solver, every answer found kept (the tests read the answers)."""
    kw.setdefault("keep", None)
    return _solve_problem(problem, backend, **kw)


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
def sized_problems(draw, max_rows: int = 3, max_cols: int = 4) -> Problem:
    """:func:`shading_problems`' cells under one Sized rule instead: the shaded cells fall into
    pieces of one size (Fillomino's cells of a number), or each piece holds one of a few
    anchors and has its size (Nurikabe's islands)."""
    p = draw(shading_problems(max_rows, max_cols))
    (cells,) = p.rules
    n = len(cells.members)
    if draw(st.booleans()):
        size, at_least = draw(st.integers(1, 4)), draw(st.booleans())
        rule = Sized(cells.members, cells.links, size, (), "pieces", at_least)
    else:
        at = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=3, unique=True))
        sizes = draw(st.lists(st.integers(1, 4), min_size=len(at), max_size=len(at)))
        anchors = tuple(zip(at, sizes, strict=True))
        rule = Sized(cells.members, cells.links, anchors=anchors, label="islands")
    return Problem(p.items, p.options, rules=(rule,))


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


@st.composite
def counted_problems(draw, base: st.SearchStrategy[Problem]) -> Problem:
    """``base``'s problem with one more primary item ``n`` in every option with an entry of
    color ``1`` (a cell shaded, an edge on), covered ``lo..hi`` times (not ``1..1``): how many
    may be shaded or on -- an MCC problem, for Algorithm M."""
    p = draw(base)
    first = p.n_primary
    ones = sum(1 for o in p.options if any(c == "1" for _, c in o))
    hi = draw(st.integers(2, max(2, ones)))
    lo = draw(st.integers(0, hi))

    def at(i: int) -> int:
        return i if i < first else i + 1

    items = [*p.items[:first], Item("n", True, lo, hi), *p.items[first:]]
    options = [
        tuple((at(i), c) for i, c in o) + (((first, None),) if any(c == "1" for _, c in o) else ())
        for o in p.options
    ]
    rules = tuple(replace(r, members=tuple((at(i), c) for i, c in r.members)) for r in p.rules)
    return Problem(items, options, rules=rules)


@st.composite
def tiling_problems(draw, max_rows: int = 3, max_cols: int = 3) -> Problem:
    """Cells (2i+1, 2j+1) as primary items covered at most once (bounds ``0..1``), by single
    cells and dominoes (a random part of them kept); the cells covered must be connected,
    maybe only piece by piece to the border: members on primary items, for Algorithm M (its
    null moves leave a cell out)."""
    rows, cols = draw(st.integers(1, max_rows)), draw(st.integers(2, max_cols))
    cells = [(2 * i + 1, 2 * j + 1) for i in range(rows) for j in range(cols)]
    at = {xy: k for k, xy in enumerate(cells)}
    items = [Item(_name(x, y), True, 0, 1) for x, y in cells]
    pairs = [
        (at[(x, y)], at[(x + dx, y + dy)])
        for x, y in cells
        for dx, dy in ((2, 0), (0, 2))
        if (x + dx, y + dy) in at
    ]
    tiles = [(k,) for k in range(len(cells))] + pairs
    kept = draw(st.lists(st.booleans(), min_size=len(tiles), max_size=len(tiles)))
    options = [tuple((k, None) for k in tile) for tile, on in zip(tiles, kept, strict=True) if on]
    roots = None
    if draw(st.booleans()):
        roots = tuple(k for k, (x, y) in enumerate(cells) if x in (1, 2 * rows - 1) or y == 1)
    members = tuple((k, None) for k in range(len(cells)))
    return Problem(items, options, rules=(Connected(members, tuple(pairs), roots, "covered"),))


@st.composite
def sized_tiling_problems(draw) -> Problem:
    """:func:`tiling_problems`' cells covered at most once, under a Sized rule instead: the
    covered cells in pieces of one size (maybe at least it), or around anchors."""
    p = draw(tiling_problems())
    (cells,) = p.rules
    n = len(cells.members)
    if draw(st.booleans()):
        size, at_least = draw(st.integers(1, 4)), draw(st.booleans())
        rule = Sized(cells.members, cells.links, size, (), "pieces", at_least)
    else:
        at = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=3, unique=True))
        sizes = draw(st.lists(st.integers(1, 4), min_size=len(at), max_size=len(at)))
        rule = Sized(cells.members, cells.links, anchors=tuple(zip(at, sizes, strict=True)))
    return Problem(p.items, p.options, rules=(rule,))


# --------------------------------------------------------------------------- the brute force


def keeps_rules(problem: Problem, chosen: list[int]) -> bool:
    """Whether ``chosen`` keeps every rule of ``problem``, judged with networkx."""
    for rule in problem.rules:
        on = [k for k, p in enumerate(present(problem, chosen, rule.members)) if p]
        if isinstance(rule, Sized):
            g = nx.Graph()
            g.add_nodes_from(on)
            g.add_edges_from((a, b) for a, b in rule.links if a in g and b in g)
            anchors = dict(rule.anchors)
            for part in nx.connected_components(g):
                held = [anchors[m] for m in part if m in anchors]
                want = rule.size if rule.size is not None else held[0] if len(held) == 1 else 0
                if len(part) < want or (len(part) > want and not rule.at_least):
                    return False
        elif isinstance(rule, Acyclic):
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


@pytest.mark.parametrize("way", WAYS, ids=_way_id)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problem=sized_problems())
def test_sized_pieces_agree_with_the_brute_force(way, problem):
    assert solved(way, problem) == answers(problem)


@settings(max_examples=40, deadline=None)
@given(problem=st.one_of(shading_problems(), edge_problems(), sized_problems()))
def test_rules_round_trip_through_the_text_form(problem):
    """``|@`` lines: parse(write(p)) == p, rules included (with ``grid`` links where they are
    the grid's, explicit pairs otherwise)."""
    again = parse(write(problem))
    assert again == problem and again.rules == problem.rules


@settings(max_examples=60, deadline=None)
@given(problem=st.one_of(shading_problems(), edge_problems(), sized_problems()))
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


def test_a_sized_rule_written_by_hand_is_read_and_judged():
    """Three cells in a row, anchors on both ends: islands of 1 and 2 cells."""
    text = (
        "|@sized islands\n|@members 11:1 13:1 15:1\n|@links grid\n|@anchors 11 1 15 2\n"
        "p11 p13 p15 | 11 13 15\n"
        "p11 11:1\np11 11:0\np13 13:1\np13 13:0\np15 15:1\np15 15:0\n"
    )
    p = parse(text)
    (rule,) = p.rules
    assert rule.kind == "sized" and rule.anchors == ((0, 1), (2, 2)) and rule.size is None
    assert solution_problem(p, [0, 2, 4]) == (
        "rule sized islands: the piece of 11 13 15 holds 2 anchors"
    )
    assert solution_problem(p, [0, 3, 4]) == (
        "rule sized islands: the piece of 15 has 1 member, not 2"
    )
    assert solution_problem(p, [1, 2, 5]) == "rule sized islands: the piece of 13 holds no anchor"
    assert solution_problem(p, [1, 3, 5]) is None  # no cell shaded: nothing to break
    assert solution_problem(p, [0, 3, 5]) is None  # an anchor absent is no fault
    assert solution_problem(p, [1, 2, 4]) is None
    for wrong, message in [
        ("|@anchors 11 1 15 2", "give '|@size N' or '|@anchors ITEM N ...', one of them"),
        ("|@anchors 11 0", "'0' is not a size"),
        ("|@anchors 11", "needs a member and a size per anchor"),
        ("|@anchors 11 1 11 2", "a member is an anchor twice"),
        ("|@anchors 11 1 15 2\n|@prefer fast", "'|@prefer' takes one of lazy, eager"),
    ]:
        bad = text.replace("|@anchors 11 1 15 2", wrong if "give" not in message else "")
        with pytest.raises(InputError, match=re.escape(message)):
            parse(bad)
    again = parse(text.replace("|@anchors 11 1 15 2", "|@size 2"))
    assert again.rules[0].size == 2 and solution_problem(again, [0, 2, 5]) is None
    assert solution_problem(again, [0, 2, 4]) == (
        "rule sized islands: the piece of 11 13 15 has 3 members, more than 2"
    )
    more = parse(text.replace("|@anchors 11 1 15 2", "|@size 2+"))
    assert more.rules[0].at_least and "|@size 2+\n" in write(more)
    assert solution_problem(more, [0, 2, 4]) is None
    assert solution_problem(more, [0, 3, 5]) == (
        "rule sized islands: the piece of 11 has 1 member, fewer than 2"
    )
    with pytest.raises(ValueError, match="'at least' applies to one size"):
        Sized(rule.members, rule.links, None, ((0, 2),), "", True)
    lazy = parse(text.replace("15 2\n", "15 2\n|@prefer lazy\n"))
    assert lazy.rules[0].prefer == "lazy" and lazy.rules[0] == rule  # (no part of its meaning)
    assert "|@anchors 11 1 15 2\n|@prefer lazy\n" in write(lazy) and rule.prefer is None


#: Owned islands: a row of five cells, numbers 2 (11) and 1 (19); a cell is shaded (``1``) or
#: white and owned by a number (its item ``n11`` or ``n19``, covered its value of times).
OWNED = (
    "|@sized islands\n|@members 11:0 13:0 15:0 17:0 19:0\n|@links grid\n|@anchors 11 2 19 1\n"
    "|@owners 11 n11 19 n19\n"
    "p11 p13 p15 p17 p19 2|n11 n19 | 11 13 15 17 19\n"
    "p11 11:0 n11\np19 19:0 n19\n"
    + "".join(f"p{c} {c}:1\np{c} {c}:0 n11\np{c} {c}:0 n19\n" for c in (13, 15, 17))
)


@pytest.mark.parametrize("way", WAYS, ids=_way_id)
def test_owner_items_join_each_island_and_keep_every_answer(way):
    """An anchor's owner item (``|@owners``) is read and written, and every way answers as
    without it: the distance labelling of SAT and CP-SAT leaves out no answer and the cell two
    steps from the 2 (too far for its island) is never owned by it."""
    owned = parse(OWNED)
    (rule,) = owned.rules
    assert rule.owners == ((0, owned.index["n11"]), (4, owned.index["n19"]))
    assert "|@owners 11 n11 19 n19\n" in write(owned) and parse(write(owned)) == owned
    two, one = owned_reaches(owned, rule)
    assert (two.depth, two.beyond, one.depth, one.beyond) == (
        {0: 0, 1: 1},
        [6, 9],
        {4: 0},
        [4, 7, 10],
    )
    plain = parse(OWNED.replace("|@owners 11 n11 19 n19\n", ""))
    assert plain.rules[0].owners == () and plain.rules[0] != rule
    backend, options = way
    mode = {k: v for k, v in options.items() if k == "sized_mode"}
    found = sorted(map(sorted, solve_problem(owned, backend, **mode).solutions))
    assert found == sorted(map(sorted, solve_problem(plain, "dlx").solutions))
    assert found == [[0, 1, 3, 5, 8]]  # 11 13 white, 15 17 shaded, 19 alone
    for wrong, message in [
        ("|@owners 11 n11 19", "needs an anchor and an item per owner"),
        ("|@owners 13 n11", "'13' is not an anchor"),
        ("|@owners 11 19", "owner item '19' isn't primary"),
        ("|@owners 11 n11 11 n19", "an anchor has two owner items"),
    ]:
        with pytest.raises(InputError, match=re.escape(message)):
            parse(OWNED.replace("|@owners 11 n11 19 n19", wrong))


#: A Sized rule over a row of four cells, each shaded or not: the shaded ones in pairs.
PAIRS = (
    "|@sized pair\n|@members 11:1 13:1 15:1 17:1\n|@links grid\n|@size 2\n"
    "p11 p13 p15 p17 | 11 13 15 17\n"
    "p11 11:1\np11 11:0\np13 13:1\np13 13:0\np15 15:1\np15 15:0\np17 17:1\np17 17:0\n"
)


@pytest.mark.parametrize("name", [*search_solvers(), "external"])
def test_every_backend_enforces_every_kind_of_rule(name):
    """Every search backend (``external`` through the eager DIMACS export, when cadical is
    installed) declares every kind of rule and keeps a sized one: of the 16 covers, the
    empty row and a pair at the left, in the middle or at the right (four in a row are one
    piece of four)."""
    import shutil

    from dlxsat.solvers import spec_of

    if name == "external" and shutil.which("cadical") is None:
        pytest.skip("cadical is not installed")
    assert set(spec_of(name).rules) == set(KINDS)
    problem = parse(PAIRS)
    r = solve_problem(problem, name, limit=None)
    assert sorted(sorted(s) for s in r.solutions) == answers(problem)
    assert r.count == 4


@pytest.mark.parametrize(
    ("chosen", "wrong"),
    [
        (["p11 11:1", "p13 13:1", "p15 15:0", "p17 17:0"], None),
        (["p11 11:0", "p13 13:0", "p15 15:0", "p17 17:0"], None),
        (["p11 11:1", "p13 13:1", "p15 15:1", "p17 17:0"], "the piece of 11 13 15 has 3 members"),
        (["p11 11:1", "p13 13:0", "p15 15:1", "p17 17:1"], "the piece of 11 has 1 member"),
    ],
)
def test_the_xcc_familys_check_judges_a_sized_rule(chosen, wrong):
    """An answer given as its options (``xcc.check``, what ``decode`` and ``crosscheck`` use)
    is judged by the sized rule too, the piece and what is wrong with it named."""
    from dlxsat.families import xcc

    said = xcc.check(xcc.read(PAIRS), {"options": chosen})
    assert said == [] if wrong is None else said[0].startswith(f"rule sized pair: {wrong}")


#: A row of four cells, each blank (0), in a pair (1) or in an island (2): the 1s in pieces
#: of two, the 2s in islands around 11 (of one cell) or 17 (of two).
TWO_SHAPES = (
    "|@sized pair\n|@members 11:1 13:1 15:1 17:1\n|@links grid\n|@size 2\n"
    "|@sized islands\n|@members 11:2 13:2 15:2 17:2\n|@links grid\n|@anchors 11 1 17 2\n"
    "p11 p13 p15 p17 | 11 13 15 17\n"
    + "".join(f"p{c} {c}:{v}\n" for c in ("11", "13", "15", "17") for v in "012")
)


@pytest.mark.parametrize("backend", ["sat", "cpsat"])
@pytest.mark.parametrize(
    ("mode", "said"), [(None, "lazy+eager"), ("auto", "lazy+eager"), ("lazy", "lazy")]
)
def test_auto_enforces_a_sized_rule_with_anchors_eagerly_and_one_size_lazily(backend, mode, said):
    """The default ``auto``: the anchored rule eager, the one-size rule lazy (what the
    backend reports), the answers the brute force's."""
    problem = parse(TWO_SHAPES)
    r = solve_problem(problem, backend, limit=None, **({"sized_mode": mode} if mode else {}))
    assert sorted(sorted(x) for x in r.solutions) == answers(problem)
    assert r.stats["sized_mode"] == said


def test_a_backend_refuses_a_kind_of_rule_it_does_not_declare():
    """A SolverSpec lists the rule kinds its backend enforces; a problem with another kind is
    refused in one line rather than solved as if the rule were not there."""
    from dlxsat.solvers import spec_of

    spec = replace(spec_of("sat"), rules=("loop", "connected", "acyclic"))
    with pytest.raises(InputError, match="backend sat does not enforce the sized rule") as e:
        spec.check_rules(parse(PAIRS))
    assert "\n" not in str(e.value)


def test_every_kind_of_rule_is_named_in_the_solvers_modes():
    from dlxsat.solvers import RULE_KINDS

    assert RULE_KINDS == KINDS


# --------------------------------------------------------------------------- dlx's pruning

#: The problems drawn for the dlx backend: its Algorithm C (colors) and M (multiplicities).
DRAWN = {
    "cells": (shading_problems(), "C"),
    "edges": (edge_problems(), "C"),
    "counted-cells": (counted_problems(shading_problems()), "M"),
    "counted-edges": (counted_problems(edge_problems()), "M"),
    "tiles": (tiling_problems(), "M"),
    "sized-cells": (sized_problems(), "C"),
    "counted-sized": (counted_problems(sized_problems()), "M"),
    "sized-tiles": (sized_tiling_problems(), "M"),
}


# --------------------------------------------------------------------------- least separators


@st.composite
def flow_cases(draw) -> tuple[Connected, list[int], list[set[int]]]:
    """A connected rule over a grid of members (some that no option can make present, maybe
    the border as roots) and a run of models, each the set of its present members."""
    rows, cols = draw(st.integers(1, 5)), draw(st.integers(2, 6))
    n = rows * cols
    links = tuple(
        (i * cols + j, i * cols + j + dj)
        for i in range(rows)
        for j in range(cols)
        for dj in (1, cols)
        if (dj == 1 and j + 1 < cols) or (dj == cols and i + 1 < rows)
    )
    roots = None
    if draw(st.booleans()):
        roots = tuple(k for k in range(n) if k < cols or k % cols in (0, cols - 1))
    rule = Connected(tuple((k, "1") for k in range(n)), links, roots, "cells")
    possible = [k for k in range(n) if draw(st.integers(0, 5))]
    models = draw(st.lists(st.sets(st.sampled_from(possible or [0])), min_size=1, max_size=5))
    return rule, possible, [m & set(possible) for m in models]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=flow_cases())
def test_least_separators_are_the_same_in_python_and_by_ortools(case):
    """The cut nearest the source is the same for every maximum flow: OR-tools' (which keeps
    its capacities from call to call and changes only those that differ) gives exactly the
    Python flow's cuts, model after model on one rule -- and each is a valid cut."""
    from dlxsat.backends import rulecuts

    rule, possible, models = case
    python = rulecuts.ConnectedCuts(rule, possible, "least")
    native = rulecuts.ConnectedCuts(rule, possible, "least")
    for on in models:
        with pytest.MonkeyPatch.context() as m:
            m.setattr(rulecuts, "_native_flow", lambda: False)
            expected = python.cuts(on)
        with pytest.MonkeyPatch.context() as m:
            m.setattr(rulecuts, "_native_flow", lambda: True)
            assert native.cuts(on) == expected
        assert all(justified(rule, cut) is None for cut in expected)
    assert not hasattr(python, "_flow")
    assert hasattr(native, "_flow") == bool(python._head)  # (both flows ran, or neither)


def test_least_separators_stay_in_python_without_ortools_max_flow(monkeypatch):
    """Where OR-tools' maximum flow cannot be imported, the flows stay in Python (the same
    cuts), and the process stops trying."""
    from dlxsat.backends import rulecuts

    rule = Connected(
        tuple((k, "1") for k in range(6)), ((0, 1), (1, 2), (3, 4), (4, 5), (0, 3), (1, 4), (2, 5))
    )
    expected = rulecuts.ConnectedCuts(rule, range(6), "least")._python_cut([0], [2], {0, 2})
    monkeypatch.setitem(sys.modules, "ortools.graph.python.max_flow", None)  # import fails
    monkeypatch.delattr("ortools.graph.python.max_flow", raising=False)
    monkeypatch.setattr(rulecuts, "_native_missing", False)
    monkeypatch.setattr(rulecuts, "PYTHON_FLOW_SECONDS", 0.0)
    cuts = rulecuts.ConnectedCuts(rule, range(6), "least")
    assert cuts.least_cut([0], [2], {0, 2}) == expected == (1, 3)  # nearest the source
    assert rulecuts._native_missing and not hasattr(cuts, "_flow")


def _front_cuts(rule: Connected, possible: list[int], on: set[int]) -> list[Separation]:
    """The front separators by their definition (:mod:`dlxsat.backends.rulecuts`): for each
    piece ``K``, a search over the members that can be present from each present member
    (from the roots) avoiding ``K``; the boundary is the region's members next to ``K`` and
    the members that cannot be present next to the region (or roots that cannot be)."""
    can = set(possible)
    nbrs: dict[int, set[int]] = {k: set() for k in range(len(rule.members))}
    for u, v in rule.links:
        nbrs[u].add(v)
        nbrs[v].add(u)
    parts = pieces(sorted(on), rule.links)

    def region(starts, inside):
        reached = {s for s in starts if s in can and s not in inside}
        queue, out = list(reached), set()
        for x in queue:
            for y in nbrs[x]:
                if y in inside:
                    out.add(x)
                elif y not in can:
                    out.add(y)
                elif y not in reached:
                    reached.add(y)
                    queue.append(y)
        return reached, out

    found: list[Separation] = []
    if rule.roots is not None:
        for part in parts:
            if not set(rule.roots) & set(part):
                _, out = region(rule.roots, set(part))
                out |= {r for r in rule.roots if r not in can and r not in part}
                found.append(Separation(part[0], None, tuple(sorted(out))))
        return found
    if len(parts) < 2:
        return []
    seen = set()
    for part in parts:
        done: set[int] = set()
        for b in sorted(on - set(part)):
            if b not in done:
                reached, out = region([b], set(part))
                done |= reached
                key = (min(part[0], b), max(part[0], b), tuple(sorted(out)))
                if key not in seen:
                    seen.add(key)
                    found.append(Separation(part[0], b, key[2]))
    return found


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=flow_cases())
def test_front_separators_are_those_of_their_definition(case):
    """The front separators (`cpsat`'s, and `sat`'s on rules of more than 256 members) are
    exactly those of their definition, written again here, model after model: their boundary
    with its walls, one cut per region, none twice."""
    from dlxsat.backends import rulecuts

    rule, possible, models = case
    cuts = rulecuts.ConnectedCuts(rule, possible, "front")
    for on in models:
        assert cuts.cuts(on) == _front_cuts(rule, possible, on)


def test_least_separators_move_to_ortools_after_their_python_seconds(monkeypatch):
    """A process finds least separators in Python until they have taken
    ``PYTHON_FLOW_SECONDS``, then by OR-tools -- the same cuts, so the same rounds of a SAT
    solve."""
    import json
    from pathlib import Path

    import dlxsat
    from dlxsat.backends import rulecuts

    native_cut = rulecuts.ConnectedCuts._native_cut
    bundled = Path(__file__).parent / "data" / "genres" / "cave.json"
    text = json.loads(bundled.read_text())["puzzles"][0]["problem"]  # an 8 x 8 of the corpus
    monkeypatch.delitem(sys.modules, "ortools.graph.python.max_flow", raising=False)
    monkeypatch.setattr(
        rulecuts.ConnectedCuts, "_native_cut", lambda *a: pytest.fail("OR-tools too early")
    )
    monkeypatch.setattr(rulecuts, "_python_flow_seconds", 0.0)
    monkeypatch.setattr(rulecuts, "PYTHON_FLOW_SECONDS", math.inf)
    assert not rulecuts._native_flow()
    slow = dlxsat.solve("cave", text, backend="sat", mode="unique")
    assert rulecuts._python_flow_seconds > 0
    monkeypatch.setattr(rulecuts, "PYTHON_FLOW_SECONDS", 0.0)
    native_calls: list[tuple[int, ...]] = []

    def counted(self, source, sink, on):
        native_calls.append(native_cut(self, source, sink, on))
        return native_calls[-1]

    monkeypatch.setattr(rulecuts.ConnectedCuts, "_native_cut", counted)
    assert rulecuts._native_flow()
    fast = dlxsat.solve("cave", text, backend="sat", mode="unique")
    assert native_calls and all(isinstance(c, tuple) for c in native_calls)
    assert fast.stats["rounds"] == slow.stats["rounds"] and fast.stats["cuts"] == slow.stats["cuts"]
    assert fast.stats["rounds"] > 1 and fast.solutions == slow.solutions


@contextlib.contextmanager
def dlx_tier(tier: str) -> Iterator[None]:
    """The dlx backend's search in ``tier``: ``interpreted``, ``compiled`` (its kernel for the
    smallest integer size, int16 here), ``compiled-int32`` (the kernel for large tables)."""
    import numpy as np

    import dlxsat.backends.dlx as backend
    import dlxsat.backends.dlx.arrays as arrays

    saved = backend.INTERPRETED_SECONDS, arrays.kernel_dtype
    backend.INTERPRETED_SECONDS = math.inf if tier == "interpreted" else 0
    if tier == "compiled-int32":
        arrays.kernel_dtype = lambda a: np.int32
    try:
        yield
    finally:
        backend.INTERPRETED_SECONDS, arrays.kernel_dtype = saved


@pytest.mark.parametrize("tier", ["interpreted", "compiled", "compiled-int32"])
@pytest.mark.parametrize("drawn", DRAWN)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_dlx_prunes_to_the_brute_forces_answers_in_every_tier(tier, drawn, data):
    strategy, algorithm = DRAWN[drawn]
    problem = data.draw(strategy)
    with dlx_tier(tier):
        r = solve_problem(problem, "dlx")
    assert r.stats["kernel"] == tier.removesuffix("-int32")
    assert r.stats["algorithm"] == algorithm
    assert r.stats["rules"] == [problem.rules[0].kind]
    assert r.exhausted and r.count == len(r.solutions)
    assert sorted(r.solutions) == answers(problem)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problem=shading_problems(4, 4), data=st.data())
def test_a_rooted_rule_is_checked_alike_from_its_roots_or_from_its_present_members(problem, data):
    """A Connected rule with roots is checked by a search from its roots, or, with more than
    ``kernel.FEW_ROOTS`` of them, by searches from its present members (``kernel._rooted``):
    either way, on the same problem, the same tree and the brute force's answers."""
    import dlxsat.backends.dlx.kernel as k

    (rule,) = problem.rules
    rule = replace(
        rule,
        roots=rule.roots
        or tuple(
            data.draw(st.sets(st.integers(0, len(rule.members) - 1), min_size=1), label="roots")
        ),
    )
    rooted = Problem(problem.items, problem.options, rules=(rule,))
    saved = k.FEW_ROOTS
    runs = []
    try:
        with dlx_tier("interpreted"):
            for few in (-1, 1 << 30):
                k.FEW_ROOTS = few
                r = solve_problem(rooted, "dlx")
                runs.append((r.stats["nodes"], r.stats["updates"], sorted(r.solutions)))
    finally:
        k.FEW_ROOTS = saved
    assert runs[0] == runs[1]
    assert runs[0][2] == answers(rooted)


def _free_cells(rows: int, cols: int, roots: bool = False) -> Problem:
    """Every cell of a grid free to be shaded or not; the shaded cells connected (to the
    border, with ``roots``)."""
    cells = [(2 * i + 1, 2 * j + 1) for i in range(rows) for j in range(cols)]
    at = {xy: k for k, xy in enumerate(cells)}
    n = len(cells)
    items = [Item("p" + _name(x, y)) for x, y in cells]
    items += [Item(_name(x, y), primary=False) for x, y in cells]
    options = [((k, None), (n + k, c)) for k in range(n) for c in "01"]
    links = tuple((at[(x, y)], at[(x + 2, y)]) for x, y in cells if (x + 2, y) in at) + tuple(
        (at[(x, y)], at[(x, y + 2)]) for x, y in cells if (x, y + 2) in at
    )
    border = tuple(k for k, (x, y) in enumerate(cells) if x in (1, 2 * rows - 1) or y == 1)
    members = tuple((n + k, "1") for k in range(n))
    rule = Connected(members, links, border if roots else None, "shaded")
    return Problem(items, options, rules=(rule,))


def _free_edges(rows: int, cols: int) -> Problem:
    """Every edge of a grid of tiles free to be on or off; the edges on hold no cycle."""
    edges = sorted(
        [(2 * i + 1, 2 * j) for i in range(rows - 1) for j in range(cols)]
        + [(2 * i, 2 * j + 1) for i in range(rows) for j in range(cols - 1)]
    )
    n = len(edges)
    items = [Item("q" + _name(x, y)) for x, y in edges]
    items += [Item(_name(x, y), primary=False) for x, y in edges]
    options = [((k, None), (n + k, c)) for k in range(n) for c in "01"]
    ends = tuple(
        ((x - 1) * 100 + y, (x + 1) * 100 + y) if x & 1 else (x * 100 + y - 1, x * 100 + y + 1)
        for x, y in edges
    )
    return Problem(items, options, rules=(Acyclic(tuple((n + k, "1") for k in range(n)), ends),))


def _counted(problem: Problem, lo: int, hi: int) -> Problem:
    """``problem`` with a primary item counting its entries of color 1 (Algorithm M)."""
    first = problem.n_primary
    at = [i if i < first else i + 1 for i in range(len(problem.items))]
    options = [
        tuple((at[i], c) for i, c in o) + (((first, None),) if any(c == "1" for _, c in o) else ())
        for o in problem.options
    ]
    items = [*problem.items[:first], Item("n", True, lo, hi), *problem.items[first:]]
    rules = tuple(
        replace(r, members=tuple((at[i], c) for i, c in r.members)) for r in problem.rules
    )
    return Problem(items, options, rules=rules)


def _sized(problem: Problem, size: int | None, anchors=(), at_least: bool = False) -> Problem:
    """:func:`_free_cells`' problem with its rule made a Sized one over the same cells."""
    (rule,) = problem.rules
    sized = Sized(rule.members, rule.links, size, tuple(anchors), "shaded", at_least)
    return Problem(problem.items, problem.options, rules=(sized,))


#: (name, problem, its answers): every cell or edge free, so that only the rule prunes.
PRUNED = [
    ("connected 3x3", _free_cells(3, 3), 219),
    ("connected to the border 3x3", _free_cells(3, 3, roots=True), 460),
    ("acyclic 3x3 tiles", _free_edges(3, 3), 3102),
    ("pieces of 3, 3x3", _sized(_free_cells(3, 3), 3), 27),
    ("pieces of 3 or more, 3x3", _sized(_free_cells(3, 3), 3, at_least=True), 202),
    ("islands of 1, 2, 4, 3x3", _sized(_free_cells(3, 3), None, ((0, 4), (2, 1), (7, 2))), 14),
    ("connected 3x3, at most 4 shaded (M)", _counted(_free_cells(3, 3), 0, 4), 80),
    ("pieces of 2, 3x3, at most 4 shaded (M)", _counted(_sized(_free_cells(3, 3), 2), 0, 4), 25),
]


@functools.cache
def pruned_answers(name: str) -> list[list[int]]:
    """The brute force's answers to the problem of :data:`PRUNED` called ``name`` (some
    thousand covers to judge: once)."""
    return answers(next(problem for n, problem, _ in PRUNED if n == name))


@pytest.mark.parametrize("tier", ["interpreted", "compiled"])
@pytest.mark.parametrize("name, problem, count", PRUNED, ids=[c[0] for c in PRUNED])
def test_dlx_prunes_partial_choices(tier, name, problem, count):
    """The rule refuses partial choices that no answer extends: fewer nodes than the same
    search without the rule, which only a check of its solutions would leave."""
    bare = Problem(problem.items, problem.options)
    with dlx_tier(tier):
        pruned, whole = solve_problem(problem, "dlx"), solve_problem(bare, "dlx")
    assert sorted(pruned.solutions) == pruned_answers(name)
    assert pruned.count == count
    assert pruned.stats["nodes"] < whole.stats["nodes"]
    assert pruned.stats["rules"] == [problem.rules[0].kind] and whole.stats["rules"] == []


@pytest.mark.parametrize("name, problem, count", PRUNED, ids=[c[0] for c in PRUNED])
def test_dlx_resumes_and_moves_tiers_mid_search_with_rules(monkeypatch, name, problem, count):
    """The rule table's state lives in the kernels' arrays: a search cut into slices of a few
    nodes, begun interpreted and finished compiled, ends as one compiled search does."""
    from conftest import as_a_fresh_process

    import dlxsat.backends.dlx as backend

    with dlx_tier("compiled"):
        whole = solve_problem(problem, "dlx")
    as_a_fresh_process(monkeypatch)
    monkeypatch.setattr(backend, "INTERPRETED_SECONDS", 1e-9)
    monkeypatch.setattr(backend, "FIRST_BUDGET_INTERPRETED", 3)
    monkeypatch.setattr(backend, "FIRST_BUDGET", 5)
    monkeypatch.setattr(backend, "SLICE", 0)  # (the budget never grows)
    moved = solve_problem(problem, "dlx")
    assert moved.stats["kernel"] == "compiled" and whole.count == count
    assert (moved.solutions, moved.count) == (whole.solutions, whole.count)
    for key in ("nodes", "updates"):
        assert moved.stats[key] == whole.stats[key]


def test_knuths_estimate_leaves_the_rules_out():
    """The tree estimate (``auto``'s) probes the tree without the rules' pruning: an estimate
    of the larger tree, not an error (Algorithm M's problems too)."""
    from dlxsat.backends.dlx.estimate import estimate

    problem = PRUNED[0][1]
    e = estimate(problem, probes=4, seed=1)
    bare = estimate(Problem(problem.items, problem.options), probes=4, seed=1)
    assert e.samples == bare.samples
    m = PRUNED[-1][1]
    assert m.kind == "MCC"
    e = estimate(m, probes=4, seed=1)
    bare = estimate(Problem(m.items, m.options), probes=4, seed=1)
    assert e.samples == bare.samples


#: Hand-written rules, each with the answers dlx must give: members on primary items, with
#: colors there, with "any color", and two rules at once.
HAND = [
    # A colored member on a primary item no option colors: never present.
    ("|@connected\n|@members a:1 b\n|@links a b\na b\na\nb\n", [[0, 1]]),
    # "Any color": x is present with either color, y only with none; x - y - z in a row.
    (
        "|@connected\n|@members x y z:1\n|@links x y y z\na b c | x y z\n"
        "a x:0\nb y\nc z:1\nb\nc z:0\n",
        [[0, 1, 2], [0, 1, 4], [0, 3, 4]],
    ),
    # Two rules: the cells shaded connected, the cells white acyclic as edges (never 3 white).
    (
        "|@connected\n|@members x:1 y:1 z:1\n|@links x y y z\n"
        "|@acyclic\n|@members x:0 y:0 z:0\n|@ends 1 2 2 3 3 1\n"
        "a b c | x y z\na x:1\na x:0\nb y:1\nb y:0\nc z:1\nc z:0\n",
        None,
    ),
    # Sized on primary items covered at most once (Algorithm M), any color: a, b, c in a row,
    # the island of a has two cells, c's one (a and b, by two options or one; or c alone).
    (
        "|@sized\n|@members a b c\n|@links a b b c\n|@anchors a 2 c 1\n"
        "0:1|a 0:1|b 0:1|c\na\nb\nc\na b\n",
        [[], [0, 1], [2], [3]],
    ),
    # Members on primary items that two chosen options may hold (Algorithm M, bounds above
    # 1): a member stays present while either holds it (the kernels' present stacks).
    (
        "|@connected\n|@members a b c\n|@links a b b c\n0:2|a 0:1|b 1:2|c\na\na\nb\nc\na c\nc\n",
        None,
    ),
    (
        "|@connected\n|@members a b c d\n|@links a b b c c d\n|@roots a\n"
        "1:2|a 0:2|b 0:2|c 1:1|d\na\na b\nb c\nc d\nd\nb\nc\n",
        None,
    ),
]


@pytest.mark.parametrize("tier", ["interpreted", "compiled"])
@pytest.mark.parametrize("text, want", HAND)
def test_dlx_keeps_hand_written_rules(tier, text, want):
    problem = parse(text)
    with dlx_tier(tier):
        got = sorted(solve_problem(problem, "dlx").solutions)
    assert got == answers(problem)
    if want is not None:
        assert got == want


def _kernel_rule_state(cl: list[int], r: int) -> list[tuple[list[int], list[int], list[int]]]:
    """Each rule of the kernels' rule table at ``r``: (its present stack, the members its item
    states make present, its marks)."""
    from dlxsat.backends.dlx import arrays as a
    from dlxsat.backends.dlx import kernel as k

    states = r + cl[r + a.R_STATE]
    out = []
    for j in range(cl[r + a.R_COUNT]):
        b = r + cl[r + a.R_BLOCKS + j]
        size = cl[b + a.B_SIZE]
        items, colors = r + cl[b + a.B_ITEMS], r + cl[b + a.B_COLORS]
        stack = r + cl[b + a.B_STACK]
        marks = r + cl[b + a.B_MARKS]
        out.append(
            (
                sorted(cl[stack : stack + cl[b + a.B_HEIGHT]]),
                [m for m in range(size) if k._present(cl, states, cl[items + m], cl[colors + m])],
                cl[marks : marks + size],
            )
        )
    return out


@pytest.mark.parametrize(
    "name, problem, count",
    PRUNED + [(f"hand-written {j}", parse(t), 0) for j, (t, _) in enumerate(HAND)],
    ids=[c[0] for c in PRUNED] + [f"hand-written {j}" for j in range(len(HAND))],
)
def test_the_present_stacks_follow_the_item_states_node_by_node(name, problem, count):
    """The kernels keep each rule's present members on a stack (``kernel._mark``), so that a
    check looks at those and their neighbours only. Searched one node a call (interpreted), the
    stack holds after every call exactly the members the item states make present, and every
    mark a check set is cleared; the search's answers are the brute force's."""
    from dlxsat.backends.dlx import arrays as a
    from dlxsat.backends.dlx import kernel as k

    arrays = a.build(problem)
    params = [0] * k.N_PARAMS
    params[k.P_SECOND], params[k.P_LAST_ITM] = arrays.second, arrays.last_itm
    params[k.P_MAX_COUNT], params[k.P_RULES], params[k.P_BUDGET] = 1 << 62, arrays.rules, 1
    params[k.P_STORE_CAP] = 1 << 20
    algorithm_m = problem.has_multiplicities
    depth = arrays.max_level
    stack = [[0] * depth, [0] * depth] if algorithm_m else [0] * depth
    st, sols, sol_len = [0] * k.N_STATE, {}, [0] * (1 << 12)
    kernel = k.search_m if algorithm_m else k.search_c
    calls = 0
    while True:
        status = kernel(
            arrays.nd, arrays.ln, arrays.cl, arrays.opt_of, stack, st, params, sols, sol_len
        )
        calls += 1
        for stacked, want, marks in _kernel_rule_state(arrays.cl, arrays.rules):
            assert stacked == want
            assert set(marks) <= {k.UNKNOWN}
        if status == k.DONE:
            break
        assert status == k.BUDGET
    found = sorted(sorted(sols[s, m] for m in range(sol_len[s])) for s in range(st[k.S_STORED]))
    assert found == answers(problem)
    assert calls > 1 and (count == 0 or len(found) == count)


def test_dlx_refuses_a_colored_member_of_a_primary_item_it_cannot_count():
    problem = Problem(
        [Item("a"), Item("b")],
        [((0, "1"), (1, None)), ((0, None),), ((1, None),)],
        rules=(Connected(((0, "1"), (1, None)), ((0, 1),)),),
    )
    with pytest.raises(InputError, match="rule member a:1: primary item with a color"):
        solve_problem(problem, "dlx")


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


def _recorded_cuts(monkeypatch) -> list[tuple[Connected | Acyclic | Sized, Cut]]:
    """Every cut the backends' generators (dlxsat.backends.rulecuts) make from now on."""
    from dlxsat.backends import rulecuts

    seen: list[tuple[Connected | Acyclic | Sized, Cut]] = []
    for cls in (rulecuts.ConnectedCuts, rulecuts.AcyclicCuts, rulecuts.SizedCuts):
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
_PAIRS = Sized(_LINE.members, _LINE.links, size=2)
_ISLANDS = Sized(_LINE.members, _LINE.links, anchors=((0, 1), (3, 2)))
_BIG = Sized(_LINE.members, _LINE.links, 3, at_least=True)
#: 0 - 1 - 2, 1 - 3 - 4 - 5: an island of 4 at 0, one of 1 at 5.
_WIDE = Sized(
    tuple((k, "1") for k in range(6)),
    ((0, 1), (1, 2), (1, 3), (3, 4), (4, 5)),
    anchors=((0, 4), (5, 1)),
)
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
    (_PAIRS, Piece((1,), (0, 2)), None),  # a lone member, too small
    (_PAIRS, Piece((1, 2), (0, 3)), "may be a whole piece that is right"),
    (_PAIRS, Piece((1, 2), (0,)), "may be part of a piece that may be right"),
    (_PAIRS, Piece((0, 1, 2)), None),  # too large, whatever grows
    (_PAIRS, Piece((0, 2)), "not connected"),
    (_ISLANDS, Piece((0, 1)), None),  # two anchors
    (_ISLANDS, Piece((1, 2), (0, 3)), None),  # no anchor
    (_ISLANDS, Piece((2, 3)), "may be part of a piece"),
    (_ISLANDS, Piece((1, 2, 3)), None),  # no anchor, larger than the largest (2)
    (_ISLANDS, Piece((3,), (2,)), None),  # 3 alone, of 2
    (_ISLANDS, Separation(0, 3, (1,)), "no cut of a sized rule"),
    (_BIG, Piece((1, 2), (0, 3)), None),  # a whole piece of 2, fewer than 3
    (_BIG, Piece((0, 1, 2, 3)), "may be a whole piece that is right"),  # 4 of at least 3
    (_BIG, Piece((1, 2), (0,)), "may be part of a piece"),
    # Ball cuts: every piece holding held and no grown member is too small.
    (_BIG, Piece((0,), (2,)), None),  # within 0 1: fewer than 3
    (_BIG, Piece((0,), (3,)), "may be part of a piece"),  # 0 1 2 may be a piece of 3
    (_ISLANDS, Piece((3,), ()), "may be part of a piece"),  # 3 2 may be the island of 2
    (_WIDE, Piece((0,), (2, 4)), None),  # 0 1 3: fewer than 4 (5, an anchor, is a wall)
    (_WIDE, Piece((0,), (2,)), "may be part of a piece"),  # 0 1 3 4 may be the island of 4
]


@pytest.mark.parametrize(("rule", "cut", "verdict"), JUSTIFIED)
def test_justified_accepts_valid_cuts_and_names_what_is_wrong(rule, cut, verdict):
    said = justified(rule, cut)
    assert said is None if verdict is None else verdict in said


@pytest.mark.parametrize("backend", ["sat", "cpsat"])
@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    problem=st.one_of(shading_problems(3, 4), edge_problems(3, 3), sized_problems(3, 4)),
    count=st.booleans(),
)
def test_every_cut_a_backend_adds_is_justified(backend, problem, count):
    """Cuts made between solver calls (a limit) and, by sat, inside one call (a count: the
    propagator) -- least separators (sat) and front ones (cpsat) -- each valid by
    ``justified``; each with one boundary member or cycle member dropped judged as networkx
    judges it (a cycle less a member is none: always refused); a piece cut with one member
    next to it left out is refused (the piece might grow there)."""
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
        if isinstance(cut, Piece):
            assert _piece_is_wrong(rule, cut)
            for m in cut.grown:
                fewer = Piece(cut.held, tuple(x for x in cut.grown if x != m))
                assert justified(rule, fewer) is not None
            continue
        for m in cut.boundary:
            fewer = Separation(cut.a, cut.b, tuple(x for x in cut.boundary if x != m))
            assert (justified(rule, fewer) is None) == _separates(rule, fewer)


def _piece_is_wrong(rule: Sized, cut: Piece) -> bool:
    """Whether no answer holds ``cut``'s held members without a grown one, by networkx: every
    piece that holds them -- held plus any connected set of members next to them but the
    grown ones, on a small graph all such sets tried -- is wrong or can still grow."""
    g = nx.Graph()
    g.add_nodes_from(range(len(rule.members)))
    g.add_edges_from(rule.links)
    held = set(cut.held)
    if not nx.is_connected(g.subgraph(held)):
        return False
    free = [m for m in g if m not in held and m not in cut.grown]
    if len(free) > 12:
        return True  # (too many to try: justified has judged it)
    anchors = dict(rule.anchors)
    for extra in range(len(free) + 1):
        for more in combinations(free, extra):
            piece = held | set(more)
            if not nx.is_connected(g.subgraph(piece)):
                continue
            # A whole piece: its neighbours are all absent (grown ones too).
            sizes = [anchors[m] for m in piece if m in anchors]
            want = rule.size if rule.size is not None else sizes[0] if len(sizes) == 1 else 0
            if len(sizes) > 1 or want == 0:
                continue
            if len(piece) == want or (rule.at_least and len(piece) >= want):
                return False
    return True


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
    (all three on break it); ``sized``: the shaded ones in pieces of two (only "0 0 0",
    "1 1 0" and "0 1 1" keep it)."""
    items = [Item(f"p{k}") for k in range(3)] + [Item(f"c{k}", primary=False) for k in range(3)]
    options = [((k, None), (3 + k, c)) for k in range(3) for c in "01"]
    members = tuple((3 + k, "1") for k in range(3))
    made = {
        "connected": Connected(members, ((0, 1), (1, 2))),
        "acyclic": Acyclic(members, ((0, 1), (1, 2), (2, 0))),
        "sized": Sized(members, ((0, 1), (1, 2)), size=2),
    }[rule]
    return Problem(items, options, rules=(made,))


#: (kind, the cut generator of the lazy modes, how many of _row's 8 covers the lazy mode
#: returns without its cuts, how many of them keep the rule). The sized rule's lazy mode
#: states "a member not alone" at once: the covers with a lone member (1 0 0, 0 1 0, 0 0 1,
#: 1 0 1) are gone before any cut, and "1 1 1" is the broken one left (the test turns off
#: "at most 2 present", which three members with room for one piece of two also get).
ROWS = [
    ("connected", "ConnectedCuts", 8, 7),
    ("acyclic", "AcyclicCuts", 8, 7),
    ("sized", "SizedCuts", 4, 3),
]


@pytest.mark.parametrize("backend", ["sat", "cpsat"])
@pytest.mark.parametrize(("kind", "cutter", "covers", "keep"), ROWS)
def test_a_backend_whose_cuts_accept_a_broken_model_is_caught(
    monkeypatch, backend, kind, cutter, covers, keep
):
    """With the cut generator made to accept every model, the lazy mode returns answers that
    break the rule, and the checker (independent of the backends) refuses them."""
    from dlxsat.backends import covering, rulecuts

    monkeypatch.setattr(getattr(rulecuts, cutter), "cuts", lambda self, on: [])
    monkeypatch.setattr(covering, "one_piece_at_most", lambda rule, possible: False)
    problem = _row(kind)
    r = solve_problem(problem, backend, **{f"{kind}_mode": "lazy"})
    assert r.count == covers  # every cover left, the broken ones among them
    wrong = [s for s in r.solutions if solution_problem(problem, s) is not None]
    assert len(wrong) == covers - keep
    assert all(solution_problem(problem, s).startswith(f"rule {kind}") for s in wrong)
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
@given(problem=st.one_of(shading_problems(), edge_problems(), sized_problems()))
def test_the_eager_dimacs_export_has_exactly_the_answers(problem):
    from dlxsat.backends.dimacs import export_dimacs

    text = export_dimacs(problem)
    kind = problem.rules[0].kind
    assert f"c rule {kind}: eager - complete" in text
    assert _dimacs_answers(text, len(problem.options)) == answers(problem)


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(problem=sized_problems())
def test_the_eager_sized_encoding_is_exact_with_binary_labels_too(problem):
    """The eager sized encoding's depths are order-encoded on small sizes (all of the drawn
    problems'), binary labels on large ones: these too, everywhere."""
    from dlxsat.backends import cnf
    from dlxsat.backends.dimacs import export_dimacs

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(cnf, "UNARY_DEPTH", 1)
        text = export_dimacs(problem)
    assert _dimacs_answers(text, len(problem.options)) == answers(problem)


def _sized_row(n: int, size: int) -> Problem:
    """A row of ``n`` cells, each shaded or not, the shaded ones in pieces of ``size``."""
    items = [Item("p" + _name(1, 2 * k + 1)) for k in range(n)]
    items += [Item(_name(1, 2 * k + 1), primary=False) for k in range(n)]
    options = [((k, None), (n + k, c)) for k in range(n) for c in "01"]
    members = tuple((n + k, "1") for k in range(n))
    links = tuple((k, k + 1) for k in range(n - 1))
    return Problem(items, options, rules=(Sized(members, links, size, (), "pieces"),))


@pytest.mark.parametrize("slots", [0, 12], ids=["roots", "slots"])
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(problem=sized_problems())
@example(problem=_sized_row(6, 4))  # (two pieces of 2 in one slot of 4, were slots not connected)
def test_the_eager_sized_encoding_is_exact_with_slots_and_with_roots(slots, problem):
    """A one-size rule's pieces are named by roots, or put in slots when there is room for
    few (:data:`dlxsat.backends.covering.SLOT_PIECES`): each way alone, on every drawn
    problem (12 slots: every one-size rule of at most 12 members)."""
    from dlxsat.backends import covering
    from dlxsat.backends.dimacs import export_dimacs

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(covering, "SLOT_PIECES", slots)
        text = export_dimacs(problem)
    assert _dimacs_answers(text, len(problem.options)) == answers(problem)


#: (backend, option, mode) of the rule modes that must be taken with their rule only.
MODES = [
    ("sat", "connected_mode", "eager"),
    ("sat", "acyclic_mode", "lazy"),
    ("sat", "sized_mode", "eager"),
    ("cpsat", "connected_mode", "lazy"),
    ("cpsat", "acyclic_mode", "eager"),
    ("cpsat", "sized_mode", "lazy"),
]


@pytest.mark.parametrize(("backend", "option", "mode"), MODES)
def test_a_rule_mode_is_taken_with_its_rule_and_refused_without(backend, option, mode):
    kind = option.removesuffix("_mode")
    problem = _row(kind)
    r = solve_problem(problem, backend, **{option: mode}, limit=None)
    keep = next(keep for k, _, _, keep in ROWS if k == kind)
    assert r.count == keep and r.stats[option] == mode
    other = _row("acyclic" if kind == "connected" else "connected")
    with pytest.raises(InputError) as e:
        solve_problem(other, backend, **{option: mode})
    assert str(e.value) == RULE_MODE_ALONE[kind] and "\n" not in str(e.value)


@settings(max_examples=60, deadline=None)
@given(problem=sized_problems(4, 5), data=st.data())
def test_a_piece_cut_leaves_out_the_same_members_searched_or_joined(problem, data):
    """The sized cuts' two ways of finding the boundary members a cut needs (a search per
    member, or the connected parts joined as members are left out) agree on every whole
    piece of a random set of present members."""
    from dlxsat.backends.rulecuts import SizedCuts

    (rule,) = problem.rules
    cutter = SizedCuts(rule)
    anchored = dict(rule.anchors)
    on = data.draw(st.sets(st.integers(0, len(rule.members) - 1)))
    for part in pieces(sorted(on), rule.links):
        held = [m for m in part if m in anchored]
        if len(held) > 1 or (not held and rule.size is None):
            continue
        want = rule.size if rule.size is not None else anchored[held[0]]
        walls = set(anchored) - set(held)
        around = {y for x in part for y in cutter.adj[x]} - set(part) - walls
        searched = cutter._needed_searched(part, set(around), walls, want)
        assert searched == cutter._needed_joined(part, set(around), walls, want)


def test_a_rule_kept_by_the_same_members_is_not_searched_again():
    """The SAT backend's lazy rules answer a model whose present members are those of the
    last model that kept the rule without asking the cutter again (most models of a lazy
    search repeat them), and ask it for any other members, including a set that broke it."""
    from dlxsat.backends.cnf import MemberCuts
    from dlxsat.backends.rulecuts import SizedCuts

    asked: list[list[int]] = []

    class Counting(SizedCuts):
        def cuts(self, on):
            asked.append(list(on))
            return super().cuts(on)

    rule = MemberCuts(Counting(_PAIRS), {k: k + 1 for k in range(4)})
    assert rule.clauses([0, 1]) == [] and rule.clauses([0, 1]) == []
    assert asked == [[0, 1]]
    broken = rule.clauses([0, 1, 2])
    assert broken and rule.clauses([0, 1, 2]) == broken
    assert rule.clauses([2, 3]) == [] and rule.clauses([0, 1]) == []
    assert asked == [[0, 1], [0, 1, 2], [0, 1, 2], [2, 3], [0, 1]]


# (Most drawn member sets are one piece and are assumed away: on some seeds Hypothesis's
# filtering health check failed the run before any example did -- CI once, 2026-11-28.)
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(data=st.data())
def test_a_least_separator_is_a_separator_and_none_is_smaller(data):
    # The least cut of a connected rule (a maximum flow over the members) against every set of
    # absent members: it must part the two pieces, cut no present member, and be the smallest.
    from dlxsat.backends.rulecuts import ConnectedCuts, _pieces

    n = data.draw(st.integers(3, 9))
    pairs = [(a, b) for a in range(n) for b in range(a + 1, n)]
    links = tuple(data.draw(st.lists(st.sampled_from(pairs), unique=True, max_size=16)))
    possible = data.draw(st.sets(st.integers(0, n - 1)))
    on = data.draw(st.sets(st.sampled_from(sorted(possible)))) if possible else set()
    rule = Connected(tuple((k, "1") for k in range(n)), links)
    cuts = ConnectedCuts(rule, possible, "least")
    parts = _pieces(on, cuts.adj)
    assume(len(parts) >= 2)
    sink = max(parts, key=len)
    source = next(part for part in parts if part is not sink)
    wall = cuts.least_cut(source, sink, on)
    cut = {m for m in wall if m in possible}
    assert not cut & on

    def parted(removed: set[int]) -> bool:
        seen = set(source)
        stack = list(source)
        while stack:
            for y in cuts.adj[stack.pop()]:
                if y in possible and y not in removed and y not in seen:
                    seen.add(y)
                    stack.append(y)
        return not seen & set(sink)

    assert parted(cut)
    absent = sorted(possible - on)
    least = min(
        k for k in range(len(absent) + 1) if any(parted(set(c)) for c in combinations(absent, k))
    )
    assert len(cut) == least
