"""The exact-cover model, Knuth's DLX text format and the loop graph."""

from __future__ import annotations

import pytest
from conftest import GOLDEN, golden_cases
from hypothesis import given, settings
from problems import brute_force, exact_cover_problems, loop_problems

from dlxsat.errors import InputError
from dlxsat.families import superslitherlink
from dlxsat.xcc import Item, Problem, parse, write
from dlxsat.xcc.loop import is_single_cycle, loop_graph, used_edges

GOLDEN_DLX = [e for e in golden_cases(ok_only=True) if e.get("dlx")]


@pytest.mark.parametrize("case", GOLDEN_DLX, ids=lambda e: f"{e['family']}/{e['name']}")
def test_every_golden_file_parses_and_round_trips(case):
    text = (GOLDEN / case["dlx"]).read_text()
    if case["family"] == "superslitherlink":
        # His data for letters of clue 0 names undeclared items: the family's rule reads it.
        puzzle = superslitherlink.read((GOLDEN / case["puzzle"]).read_text())
        p = superslitherlink.problem(puzzle, text)
    else:
        p = parse(text)
    assert p.items, "no items read"
    assert parse(write(p)) == p
    # Knuth's solvers need: multiplicities only in SuperSlitherlink, colors in the loop families
    # (Fillomino's secondary items have none).
    expected_kind = {"sudoku": "XC", "fillomino": "XC", "superslitherlink": "MCC"}.get(
        case["family"], "XCC"
    )
    if p.options and p.items[0].name != "abort":
        assert p.kind == expected_kind


@settings(max_examples=150, deadline=None)
@given(exact_cover_problems(kind="MCC"))
def test_parse_write_round_trip_mcc(p):
    assert parse(write(p)) == p


@settings(max_examples=150, deadline=None)
@given(exact_cover_problems(kind="XCC"))
def test_parse_write_round_trip_xcc(p):
    text = write(p)
    q = parse(text)
    assert q == p and write(q) == text


def test_bounds_syntax():
    p = parse("2|a 0:3|b c | x y\na b x:A\n")
    assert [(i.name, i.lo, i.hi, i.primary) for i in p.items] == [
        ("a", 2, 2, True),
        ("b", 0, 3, True),
        ("c", 1, 1, True),
        ("x", 1, 1, False),
        ("y", 1, 1, False),
    ]
    assert p.kind == "MCC"
    assert p.option_names(0) == ["a", "b", "x:A"]


def test_comments_blank_lines_and_secondary_only_options():
    p = parse("| head\n\na b | x\n  | note\na x:1\n\nx:0\nb\n")
    # The secondary-only option is dropped as Knuth's solvers drop it, so indices stay his.
    assert len(p.options) == 2
    assert p.option_text(1) == "b"
    assert any("no primary items" in c for c in p.comments)


def test_option_with_unknown_item_is_an_input_error():
    # docs/conventions.md §3, as DLX3 does.
    # (SuperSlitherlink's letters of clue 0: superslitherlink.problem.)
    with pytest.raises(InputError, match="line 3: unknown item name 'z'"):
        parse("a b\na\nb z\nb\n")


def test_name_of_eight_characters_is_allowed():
    p = parse("abcdefgh\nabcdefgh\n")
    assert p.items[0].name == "abcdefgh"


@pytest.mark.parametrize(
    "text, message",
    [
        ("| only a comment\n", "no items"),
        ("a a\n", "duplicate item name 'a'"),
        ("a | x | y\n", "contains | twice"),
        ("abcdefghi\n", "too long"),
        ("3:2|a\n", "lower bound exceeds upper bound"),
        ("0|a\n", "upper bound is zero"),
        ("x|a\n", "illegal digit"),
        ("1:a\n", "lower bound without upper bound"),
        ("a | x:1\n", "illegal ':'"),
        ("a | 2|x\n", "illegal '|'"),
        ("a b\na b a\n", "duplicate item name 'a' in this option"),
        ("a | x\na x:12\n", "color must be a single character"),
        ("a | x\na:1\n", "primary item must be uncolored"),
        ("a | x\na :1\n", "empty item name"),
    ],
)
def test_knuths_input_errors(text, message):
    with pytest.raises(InputError, match=message.replace("|", r"\|")):
        parse(text)


def test_kind():
    assert Problem([Item("a")], [((0, None),)]).kind == "XC"
    assert Problem([Item("a"), Item("x", False)], [((0, None), (1, "1"))]).kind == "XCC"
    assert Problem([Item("a", lo=0, hi=2)], [((0, None),)]).kind == "MCC"
    with pytest.raises(ValueError):
        Problem([Item("x", False), Item("a")], [])


def test_loop_graph_of_a_golden_masyu():
    p = parse((GOLDEN / "masyu" / "tatham-10x10-1.dlx").read_text())
    g = loop_graph(p)
    assert len(g.vertices) == 100  # one per cell
    assert len(g.edges) == 2 * 10 * 9  # every edge between two adjacent cells
    for e, u, v in g.edges:
        (x, y), (a, b), (c, d) = g.coords[e], g.coords[u], g.coords[v]
        assert (a + c, b + d) == (2 * x, 2 * y)  # an edge is the midpoint of its vertices


@pytest.mark.parametrize(
    "text, message",
    [
        ("00 01\n00 01\n", "isn't secondary"),
        ("00 | 02\n00 02:1\n", "isn't primary"),
        ("00 | 01\n00 01:1\n", "nonexistent vertex"),
    ],
)
def test_loop_graph_errors(text, message):
    with pytest.raises(InputError, match=message):
        loop_graph(parse(text))


def test_wide_names_are_loop_items():
    p = parse("70.40 70.42 | 70.41\n70.40 70.41:1\n70.42 70.41:1\n")
    g = loop_graph(p)
    assert g.edges == ((2, 0, 1),)
    assert used_edges(p, [0, 1]) == [(70, 41)]


def test_is_single_cycle():
    square = [(0, 1), (1, 0), (1, 2), (2, 1)]
    assert is_single_cycle(square)
    assert not is_single_cycle([])
    assert not is_single_cycle(square[:3])  # a path
    two = square + [(x + 4, y) for x, y in square]
    assert not is_single_cycle(two)  # two loops
    assert not is_single_cycle([(0, 0)])  # not an edge


@settings(max_examples=100, deadline=None)
@given(loop_problems())
def test_brute_force_loop_solutions_are_single_cycles(p):
    for sol in brute_force(p, loop=True, allow_empty_loop=False):
        assert is_single_cycle(used_edges(p, sol))
    assert len(brute_force(p, loop=True)) <= len(brute_force(p, loop=False))
