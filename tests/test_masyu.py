"""Masyu: Knuth's MASYU-DLX output byte for byte, decoding, the rule checker, drawing."""

from __future__ import annotations

import doctest
import hashlib
import itertools
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dlxsat.errors import InputError
from dlxsat.families import masyu
from dlxsat.inputs import read_text
from dlxsat.xcc.dlxformat import parse
from dlxsat.xcc.loop import is_single_cycle, loop_graph
from dlxsat.xcc.model import Problem
from dlxsat.xcc.names import parse_point_name

GOLDEN = Path(__file__).parent / "data" / "golden"
CASES = [c for c in json.loads((GOLDEN / "manifest.json").read_text()) if c["family"] == "masyu"]
GOOD = [c for c in CASES if c["exit_status"] == 0]
BAD = [c for c in CASES if c["exit_status"] != 0]
UNIQUE = [c for c in GOOD if c.get("solution_edges")]
# Small enough for the throwaway search below to list every solution quickly.
SEARCHABLE = [c for c in GOOD if c["dlx2_disjoint_loops"]["nodes"] < 5000]


def load(case: dict) -> masyu.MasyuPuzzle:
    return masyu.read(read_text(str(GOLDEN / case["puzzle"])))


def ids(cases: list[dict]) -> list[str]:
    return [c["name"] for c in cases]


# --- a throwaway XCC search (Knuth's Algorithm C without the dancing), for the tests only ------


def xcc_solutions(problem: Problem) -> Iterator[list[int]]:
    """Every set of options covering each primary item once with consistent colors."""
    n_primary = problem.n_primary
    by_item: list[list[int]] = [[] for _ in range(n_primary)]
    for k, opt in enumerate(problem.options):
        for i, _ in opt:
            if i < n_primary:
                by_item[i].append(k)
    covered = [False] * n_primary
    color: dict[int, str] = {}  # secondary item -> its color, "" when used uncolored
    chosen: list[int] = []

    def fits(k: int) -> bool:
        for i, c in problem.options[k]:
            if i < n_primary:
                if covered[i]:
                    return False
            elif i in color and (c is None or color[i] != c):
                return False
        return True

    def search() -> Iterator[list[int]]:
        best: list[int] | None = None
        for i in range(n_primary):
            if not covered[i]:
                cand = [k for k in by_item[i] if fits(k)]
                if best is None or len(cand) < len(best):
                    best = cand
                    if not cand:
                        return
        if best is None:
            yield list(chosen)
            return
        for k in best:
            newly = []
            for i, c in problem.options[k]:
                if i < n_primary:
                    covered[i] = True
                elif i not in color:
                    color[i] = c or ""
                    newly.append(i)
            chosen.append(k)
            yield from search()
            chosen.pop()
            for i, _ in problem.options[k]:
                if i < n_primary:
                    covered[i] = False
            for i in newly:
                del color[i]

    yield from search()


def options_for(problem: Problem, answer: dict) -> list[int]:
    """The options that agree with a known loop: one per primary item (an exact cover)."""
    on = {tuple(e) for e in answer["edges"]}
    chosen = []
    for k, opt in enumerate(problem.options):
        ok = True
        for i, c in opt:
            it = problem.items[i]
            if it.primary or c is None:
                continue
            xy = parse_point_name(it.name)
            if xy is not None and (xy in on) != (c == "1"):
                ok = False
                break
        if ok:
            chosen.append(k)
    cover = sorted(i for k in chosen for i, _ in problem.options[k] if i < problem.n_primary)
    assert cover == list(range(problem.n_primary)), "the known loop is not an exact cover"
    return chosen


# --- encoding --------------------------------------------------------------------------------


@pytest.mark.parametrize("case", GOOD, ids=ids(GOOD))
def test_encode_is_knuths_output(case: dict) -> None:
    out = masyu.encode(load(case))
    assert hashlib.sha256(out.encode()).hexdigest() == case["dlx_sha256"]
    assert out == (GOLDEN / case["dlx"]).read_text()


@pytest.mark.parametrize("case", BAD, ids=ids(BAD))
def test_bad_golden_cases_are_rejected(case: dict) -> None:
    knuth_says = case["stderr_first_line"].split(":")[0]  # "illegal clue", "row has wrong ..."
    with pytest.raises(InputError, match=rf"^line \d+, column \d+: {knuth_says}"):
        load(case)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("....\n", r"^line 1: the board dimensions must be 2 or more, not 1x4 \(a puzzle of one"),
        (".\n.\n.\n", r"^line 1: the board dimensions must be 2 or more, not 3x1"),
        ("..\n.5\n", r"^line 2, column 2: illegal clue '5'"),
        ("..\n. \n", r"^line 2, column 2: illegal clue ' '"),
        ("...\n....\n", r"^line 2, column 4: row has wrong number of clues \(4, but line 1 has 3"),
        ("...\n\n...\n", r"^line 2, column 1: row has wrong number of clues \(0, but"),
        ("..\n.\t\n", r"^line 2, column 2: a tab"),
        ("..\r..\n", r"^line 1, column 3: a carriage return"),
        ("\n\n", r"^empty puzzle"),
    ],
)
def test_bad_input_messages(text: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        masyu.read(text)


def test_input_leniency() -> None:
    base = masyu.read("0.\n.1\n")
    assert masyu.read("0.\r\n.1\r\n") == base  # CRLF
    assert masyu.read("0.\n.1") == base  # no final newline
    assert masyu.read("0.\n.1\n\n  \n") == base  # trailing blank lines
    assert masyu.encode(masyu.read("0.\n.1")).startswith("| masyu-dlx:\n| 0.\n| .1\n")


def test_digits_2_to_4_are_white_circles() -> None:
    p = masyu.read("2.3.\n..4.\n....\n")
    assert [p.is_white(0, 0), p.is_white(0, 2), p.is_white(1, 2), p.is_black(0, 0)] == [
        True,
        True,
        True,
        False,
    ]
    square = {"edges": [[0, 1], [0, 3], [1, 0], [1, 4], [3, 0], [3, 4], [4, 1], [4, 3]]}
    assert masyu.check(masyu.read("1..\n...\n.2.\n"), square) == []
    assert masyu.check(masyu.read("1..\n...\n..4\n"), square) == [
        "the loop turns on white circle (3, 3)"
    ]
    # Same data as with '0' circles, apart from the echoed input lines.
    body = masyu.encode(p).split("\n", 4)[4]
    assert body == masyu.encode(masyu.read("0.0.\n..0.\n....\n")).split("\n", 4)[4]


def rectangle_board(m: int, n: int) -> tuple[masyu.MasyuPuzzle, dict]:
    """An m×n board whose loop is the rectangle one cell inside the border: black circles on its
    corners, white ones beside two of them (clues away from the border make '#' classes)."""
    rows = [["."] * n for _ in range(m)]
    top, bottom, left, right = 1, m - 2, 1, n - 2
    for i, j in ((top, left), (top, right), (bottom, left), (bottom, right)):
        rows[i][j] = "1"
    rows[top][right - 1] = rows[bottom - 1][left] = "0"
    edges = [(2 * i, y) for i in (top, bottom) for y in range(2 * left + 1, 2 * right, 2)]
    edges += [(x, 2 * j) for j in (left, right) for x in range(2 * top + 1, 2 * bottom, 2)]
    text = "".join("".join(r) + "\n" for r in rows)
    return masyu.read(text), {"edges": sorted([x, y] for x, y in edges)}


@pytest.mark.parametrize(("m", "n"), [(20, 36), (36, 20)])
def test_nikoli_largest_board_uses_wide_names(m: int, n: int) -> None:
    puzzle, loop = rectangle_board(m, n)
    assert puzzle.wide
    problem = parse(masyu.encode(puzzle))
    names = {it.name for it in problem.items}
    far = (2 * m - 2, 2 * n - 2)
    assert f"{far[0]}.{far[1]}" in names  # the last tile
    assert f"3.{2 * n - 3}" in names and f"{2 * m - 3}.3" in names  # two black circles
    assert any(name.startswith("#") and "." in name for name in names)
    assert max(len(name) for name in names) <= 8
    graph = loop_graph(problem)
    assert len(graph.vertices) == m * n
    assert len(graph.edges) == m * (n - 1) + (m - 1) * n
    assert masyu.check(puzzle, loop) == []
    assert masyu.decode(puzzle, problem, options_for(problem, loop)) == loop


def test_board_31_keeps_knuths_names_and_32_goes_wide() -> None:
    p31, _ = rectangle_board(31, 5)
    p32, _ = rectangle_board(32, 5)
    assert not p31.wide and " Y8 " in masyu.encode(p31).split("\n")[32]  # tile (60, 8)
    assert p32.wide and " 62.8 " in masyu.encode(p32).split("\n")[33]


def test_names_too_long_are_rejected() -> None:
    with pytest.raises(InputError, match="too large"):
        masyu.read(("." * 501 + "\n") * 501)


# --- decoding --------------------------------------------------------------------------------


@pytest.mark.parametrize("case", UNIQUE, ids=ids(UNIQUE))
def test_decode_gives_the_whole_loop(case: dict) -> None:
    puzzle = load(case)
    answer = masyu.answer_from_names(case["solution_edges"])
    problem = parse(masyu.encode(puzzle))
    chosen = options_for(problem, answer)
    assert masyu.decode(puzzle, problem, chosen) == answer

    # Without the catch-all and '#' options, which name every edge, the tile and circle options
    # name only class leaders: the union-find table must supply the rest.
    def plain(k: int) -> bool:
        xy = parse_point_name(problem.items[problem.options[k][0][0]].name)
        return xy is not None and (xy[0] % 2 == 1 or not puzzle.has_clue(xy[0] // 2, xy[1] // 2))

    plain_options = [k for k in chosen if plain(k)]
    assert len(plain_options) < len(chosen)
    named = {
        parse_point_name(problem.items[i].name)
        for k in plain_options
        for i, _ in problem.options[k]
    }
    assert not {tuple(e) for e in answer["edges"]} <= named  # some loop edges go unnamed
    assert masyu.decode(puzzle, problem, plain_options) == answer


@pytest.mark.parametrize("case", SEARCHABLE, ids=ids(SEARCHABLE))
def test_every_solution_decodes_and_checker_agrees(case: dict) -> None:
    puzzle = load(case)
    problem = parse(masyu.encode(puzzle))
    solutions = list(xcc_solutions(problem))
    assert len(solutions) == case["dlx2_disjoint_loops"]["count"]
    loops = set()
    for chosen in solutions:
        answer = masyu.decode(puzzle, problem, chosen)
        edges = [tuple(e) for e in answer["edges"]]
        # Disjoint loops obey every local rule; the checker rejects exactly the non-single ones.
        assert (masyu.check(puzzle, answer) == []) == is_single_cycle(edges)
        if is_single_cycle(edges):
            loops.add(tuple(edges))
    empty_counts = all(ch == "." for row in puzzle.rows for ch in row)
    knuth = case["dlx2_loop_single_loop"]["count"]  # his DLX2-LOOP counts the empty set too
    assert len(loops) == knuth - empty_counts
    assert case.get("single_loop_count_bruteforce", knuth) == knuth


# --- the checker -----------------------------------------------------------------------------


@pytest.mark.parametrize("case", UNIQUE, ids=ids(UNIQUE))
def test_checker_accepts_golden_answers(case: dict) -> None:
    assert masyu.check(load(case), masyu.answer_from_names(case["solution_edges"])) == []


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(UNIQUE), st.integers(-2, 40), st.integers(-2, 40))
def test_checker_rejects_any_one_edge_change(case: dict, x: int, y: int) -> None:
    puzzle = load(case)
    edges = {tuple(e) for e in masyu.answer_from_names(case["solution_edges"])["edges"]}
    edges ^= {(x, y)}
    assert masyu.check(puzzle, {"edges": sorted(list(e) for e in edges)}) != []


@settings(max_examples=15, deadline=None)
@given(st.lists(st.sampled_from("..0011"), min_size=9, max_size=9))
def test_checker_and_encoding_agree_on_every_edge_set(cells: list[str]) -> None:
    """On a 3×3 board: the loops the checker accepts among all 4096 edge sets are exactly the
    single loops among the solutions of Knuth's exact-cover data."""
    puzzle = masyu.read("".join("".join(cells[r : r + 3]) + "\n" for r in (0, 3, 6)))
    all_edges = [(x, y) for x in range(5) for y in range(5) if (x + y) & 1]
    by_checker = set()
    for bits in itertools.product((0, 1), repeat=len(all_edges)):
        edges = [e for e, b in zip(all_edges, bits, strict=True) if b]
        if not masyu.check(puzzle, {"edges": [list(e) for e in edges]}):
            by_checker.add(tuple(edges))
    by_encoding = set()
    if not puzzle.reduction.aborted:
        problem = parse(masyu.encode(puzzle))
        for chosen in xcc_solutions(problem):
            edges = tuple(tuple(e) for e in masyu.decode(puzzle, problem, chosen)["edges"])
            if is_single_cycle(edges):
                by_encoding.add(edges)
    assert by_checker == by_encoding


def test_checker_messages() -> None:
    p = masyu.read("1..\n...\n.0.\n")
    square = [[0, 1], [0, 3], [1, 0], [1, 4], [3, 0], [3, 4], [4, 1], [4, 3]]
    assert masyu.check(p, {"edges": square}) == []
    small = [[0, 1], [1, 0], [1, 2], [2, 1]]  # a 2x2 loop: misses the white circle
    assert masyu.check(masyu.read("...\n...\n.0.\n"), {"edges": small}) == [
        "the circle on cell (3, 2) is not on the loop"
    ]
    assert "the loop turns on white circle (2, 2)" in masyu.check(
        masyu.read("...\n.0.\n...\n"), {"edges": [[2, 3], [3, 2], [3, 4], [4, 3]]}
    )
    assert "the loop goes straight through black circle (2, 1)" in masyu.check(
        masyu.read("..\n1.\n..\n"), {"edges": [[1, 0], [0, 1], [1, 2], [3, 0], [3, 2], [4, 1]]}
    )
    assert masyu.check(p, {"edges": [[0, 0]]}) == [
        "[0, 0] is not an edge between two adjacent cells of the board"
    ]
    assert masyu.check(p, {"edges": [[0, 1], [0, 1]]})[0] == "edge [0, 1] is listed twice"
    assert masyu.check(p, {"edges": []}) == ["there is no loop"]
    assert masyu.check(p, {"cells": []}) == ['the answer has no list of "edges"']
    two = masyu.read("....\n....\n")
    loops = [[0, 1], [1, 0], [1, 2], [2, 1], [0, 5], [1, 4], [1, 6], [2, 5]]
    assert masyu.check(two, {"edges": loops}) == ["the edges form 2 separate loops, not one"]


def test_black_circle_needs_straight_neighbours() -> None:
    p = masyu.read("1..\n...\n...\n")
    small = [[0, 1], [1, 0], [1, 2], [2, 1]]  # turns on the circle, then at once again
    assert masyu.check(p, {"edges": small}) == [
        "the loop turns in the cell south of black circle (1, 1)",
        "the loop turns in the cell east of black circle (1, 1)",
    ]


def test_white_circle_needs_a_turn_beside_it() -> None:
    # A straight run through three cells of the middle row, white circle in the middle.
    p = masyu.read(".....\n.....\n..0..\n.....\n")
    loop = [[2 * 2, y] for y in (1, 3, 5, 7)]  # row 2: cells 0..4 joined
    loop += [[6, 1], [6, 3], [6, 5], [6, 7], [5, 0], [5, 8]]
    assert masyu.check(p, {"edges": loop}) == [
        "the loop turns in neither cell next to white circle (3, 3)"
    ]


# --- drawing ---------------------------------------------------------------------------------


def test_doctests() -> None:
    result = doctest.testmod(masyu)
    assert result.attempted >= 10 and result.failed == 0


def test_render() -> None:
    p = masyu.read("1.0\n...\n")
    loop = {"edges": [[0, 1], [0, 3], [1, 0], [1, 4], [2, 1], [2, 3]]}
    assert masyu.render(p, loop) == "B---.---W\n|       |\n.---.---."
    assert masyu.render(p, None) == "B   .   W\n\n.   .   ."


@pytest.mark.parametrize("case", UNIQUE, ids=ids(UNIQUE))
def test_render_golden_answer(case: dict) -> None:
    puzzle = load(case)
    answer = masyu.answer_from_names(case["solution_edges"])
    picture = masyu.render(puzzle, answer).split("\n")
    assert len(picture) == 2 * puzzle.m - 1
    horizontal = sum(1 for x, y in answer["edges"] if x % 2 == 0)
    assert sum(line.count("---") for line in picture[::2]) == horizontal
    assert sum(line.count("|") for line in picture[1::2]) == len(answer["edges"]) - horizontal
    assert [line.replace("-", " ").replace(" ", "") for line in picture[::2]] == [
        row.replace("0", "W").replace("1", "B") for row in puzzle.rows
    ]


# --- Tatham's Pearl game ids ------------------------------------------------------------------

ROOT = Path(__file__).resolve().parent.parent


def test_bundled_puzzles_match_their_pearl_game_ids() -> None:
    readme = (ROOT / "puzzles" / "README.md").read_text()
    rows = re.findall(r"^\| `(masyu/[^`]+)` \| [^|]+ \| `([^`]+)` \|$", readme, re.M)
    assert len(rows) >= 3 and "masyu/tatham-18x10.txt" in {f for f, _ in rows}
    for path, game_id in rows:
        text = (ROOT / "puzzles" / path).read_text()
        assert text == masyu.from_tatham_id(game_id), path
        assert not masyu.read(text).reduction.aborted


@given(
    cells=st.lists(st.sampled_from("BW."), min_size=4, max_size=60),
    width=st.integers(2, 6),
    extra=st.sampled_from(["", "de", "dt", "n", "den"]),
)
def test_pearl_ids_round_trip(cells: list[str], width: int, extra: str) -> None:
    # Write the id as Pearl does (runs of empty cells as letters, 26 at most), read it back.
    height = max(2, len(cells) // width)
    cells = (cells + ["."] * (width * height))[: width * height]
    desc, run = "", 0
    for ch in cells + ["end"]:
        if ch == ".":
            run += 1
            continue
        while run:
            step = min(run, 26)
            desc += chr(ord("a") + step - 1)
            run -= step
        desc += "" if ch == "end" else ch
    text = masyu.from_tatham_id(f"{width}x{height}{extra}:{desc}")
    want = "".join(
        "".join({"B": "1", "W": "0", ".": "."}[c] for c in cells[r * width : (r + 1) * width])
        + "\n"
        for r in range(height)
    )
    assert text == want


@pytest.mark.parametrize(
    "game_id, message",
    [
        ("10x10", "not a Pearl game id"),
        ("10:abc", "not a Pearl game id"),
        ("2x2:BbX", r"character 3 of the Pearl description: 'X'"),
        ("2x2:z", r"26 cells, not 2x2 = 4"),
    ],
)
def test_bad_pearl_ids(game_id: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        masyu.from_tatham_id(game_id)
