"""Slitherlink: Knuth's SLITHERLINK-DLX output byte for byte, bad input, wide boards, decoding,
the rule checker (against golden answers and a brute force), drawing, Tatham's game ids.

The helpers ``brute_force_answers`` and ``cover_of`` serve the SuperSlitherlink tests too.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from functools import cache

import pytest
from conftest import GOLDEN, ROOT, golden_cases
from hypothesis import given, settings
from hypothesis import strategies as st

from dlxsat.answer import Answer, edges_answer
from dlxsat.errors import InputError
from dlxsat.families import slitherlink
from dlxsat.inputs import read_text
from dlxsat.xcc.dlxformat import parse
from dlxsat.xcc.loop import is_single_cycle, loop_graph
from dlxsat.xcc.model import Problem
from dlxsat.xcc.names import parse_point_name

CASES = golden_cases("slitherlink")
GOOD = [c for c in CASES if c["exit_status"] == 0]
BAD = [c for c in CASES if c["exit_status"] != 0]


def ids(cases: list[dict]) -> list[str]:
    return [c["name"] for c in cases]


def load(case: dict, family=slitherlink):
    return family.read(read_text(str(GOLDEN / case["puzzle"])))


# --- helpers shared with test_superslitherlink ------------------------------------------------


def brute_force_answers(puzzle, check: Callable[[object, Answer], list[str]]) -> list[Answer]:
    """Every answer of a small board that ``check`` accepts, by listing the sets of cells inside
    the loop (a loop on the grid is the boundary of the cells it encloses), row by row, pruning
    only on digit clues whose neighbourhood is decided."""
    m, n, rows = puzzle.m, puzzle.n, puzzle.rows
    inside = [[False] * n for _ in range(m)]

    def at(i: int, j: int) -> bool:
        return 0 <= i < m and 0 <= j < n and inside[i][j]

    def row_fits(i: int) -> bool:
        for j, ch in enumerate(rows[i]):
            if ch in "01234":
                me = inside[i][j]
                sides = (at(i - 1, j), at(i, j - 1), at(i, j + 1), at(i + 1, j))
                if sum(s != me for s in sides) != int(ch):
                    return False
        return True

    found: list[Answer] = []

    def boundary() -> list[tuple[int, int]]:
        edges = []
        for x in range(2 * m + 1):
            for y in range(2 * n + 1):
                if (x + y) & 1:
                    i, j = x // 2, y // 2
                    a, b = (at(i, j - 1), at(i, j)) if x & 1 else (at(i - 1, j), at(i, j))
                    if a != b:
                        edges.append((x, y))
        return edges

    def go(i: int) -> None:
        if i == m:
            edges = boundary()
            if row_fits(m - 1) and edges and not check(puzzle, edges_answer(edges)):
                found.append(edges_answer(edges))
            return
        for bits in range(1 << n):
            for j in range(n):
                inside[i][j] = bool(bits >> j & 1)
            if i == 0 or row_fits(i - 1):
                go(i + 1)
        inside[i] = [False] * n

    go(0)
    return found


def cover_of(problem: Problem, answer: Answer) -> list[int] | None:
    """The options that make ``answer`` a solution of ``problem``, or None if there are none.

    Built from the answer alone: every option head (a tile, subtile or cell) takes the one
    option whose colors agree with the loop; the answer is a solution if each head has one and
    every primary item is then covered within its bounds. (Two agreeing options for one head
    would be a defect of the encoding, so that is an assertion.)"""
    on = {tuple(e) for e in answer["edges"]}
    n_primary = problem.n_primary
    coords = [parse_point_name(it.name) for it in problem.items]
    if not on <= set(coords[n_primary:]):
        return None  # a loop edge that is no item of the encoding
    agreeing: dict[int, list[int]] = {}
    for k, opt in enumerate(problem.options):
        ks = agreeing.setdefault(opt[0][0], [])
        if all(c is None or (c == "1") == (coords[i] in on) for i, c in opt if i >= n_primary):
            ks.append(k)
    assert all(len(ks) <= 1 for ks in agreeing.values())
    if not all(agreeing.values()):
        return None
    chosen = sorted(ks[0] for ks in agreeing.values())
    counts = [0] * n_primary
    for k in chosen:
        for i, _ in problem.options[k]:
            if i < n_primary:
                counts[i] += 1
    if not all(it.lo <= c <= it.hi for it, c in zip(problem.items, counts, strict=False)):
        return None
    return chosen


def knuth_answer(names: list[str]) -> Answer:
    """The answer given by Knuth's edge names (golden ``solution_edges``)."""
    return edges_answer(parse_point_name(name) for name in names)


def grid_edges(m: int, n: int) -> list[tuple[int, int]]:
    return [(x, y) for x in range(2 * m + 1) for y in range(2 * n + 1) if (x + y) & 1]


# --- encoding --------------------------------------------------------------------------------


@pytest.mark.parametrize("case", GOOD, ids=ids(GOOD))
def test_encode_is_knuths_output_byte_for_byte(case: dict) -> None:
    out = slitherlink.encode(load(case)).encode()
    assert out == (GOLDEN / case["dlx"]).read_bytes()
    assert hashlib.sha256(out).hexdigest() == case["dlx_sha256"]


@pytest.mark.parametrize("case", BAD, ids=ids(BAD))
def test_golden_bad_cases_are_input_errors(case: dict) -> None:
    with pytest.raises(
        InputError, match=r"line 1: the board dimensions must be 2 or more, not 1x3"
    ):
        load(case)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("3.\n.5\n", r"^line 2, column 2: illegal clue '5'"),
        ("3.\n.x\n", r"^line 2, column 2: illegal clue 'x'"),
        ("3..\n.1\n", r"^line 2, column 3: row has wrong number of clues \(2, but line 1 has 3\)"),
        ("3.\n.1.\n", r"^line 2, column 3: row has wrong number of clues \(3, but line 1 has 2\)"),
        ("3\n1\n", r"^line 1: the board dimensions must be 2 or more, not 2x1"),
        ("3.\n\n..\n", r"^line 2: blank line inside the board"),
        ("3.\n.\t\n", r"^line 2, column 2: a tab"),
        ("3.\r.1\n", r"^line 1, column 3: a carriage return"),
        ("", r"^empty puzzle"),
        ("\n\n", r"^empty puzzle"),
        (("." * 500 + "\n") * 500, r"^a 500x500 board is too large: .*'1000.1000'"),
    ],
    ids=lambda v: v[:20].replace("\n", "/") if isinstance(v, str) else None,
)
def test_bad_input_messages(text: str, message: str) -> None:
    """Each mistake gets its own message, with line and column where there is one."""
    with pytest.raises(InputError, match=message):
        slitherlink.read(text)


def test_trailing_blank_lines_are_accepted_and_not_echoed() -> None:
    assert slitherlink.encode(slitherlink.read("3.\n.1\n\n \n")) == slitherlink.encode(
        slitherlink.read("3.\n.1")
    )


def test_knuths_limit_keeps_base62_names() -> None:
    text = "\n".join(["2" + "." * 29] * 30) + "\n"
    puzzle = slitherlink.read(text)
    assert not puzzle.wide
    head = slitherlink.encode(puzzle).split("\n")[31].split()
    assert head[0] == "00" and "YY" in head and "XX" not in head  # 60 = 'Y', the cell 59 = 'X'
    assert all(len(name) == 2 for name in head if name != "|")


def test_board_beyond_knuths_limit_gets_wide_names_and_a_loop_graph() -> None:
    m, n = 35, 32
    rows = ["".join("0123."[(3 * i + j) % 5] for j in range(n)) for i in range(m)]
    puzzle = slitherlink.read("\n".join(rows) + "\n")
    assert puzzle.wide
    text = slitherlink.encode(puzzle)
    problem = parse(text)
    names = [it.name for it in problem.items]
    assert all(len(name) <= slitherlink.MAX_NAME for name in names)
    assert names[0] == "0.0" and "70.64" in names and "69.64" in names and "69.63" in names
    graph = loop_graph(problem)
    assert len(graph.vertices) == (m + 1) * (n + 1)
    assert len(graph.edges) == m * (n + 1) + (m + 1) * n
    assert sorted(graph.coords[e] for e, _, _ in graph.edges) == grid_edges(m, n)
    vertex_items = set(graph.vertices)
    clue_items = [
        it.name for k, it in enumerate(problem.items) if it.primary and k not in vertex_items
    ]
    clue_cells = [(i, j) for i in range(m) for j in range(n) if rows[i][j] != "."]
    assert clue_items == [f"{2 * i + 1}.{2 * j + 1}" for i, j in clue_cells]
    # 7 options per inner point, 2 per corner, 4 per other border point, then the clue cells.
    n_tile_options = 7 * (m - 1) * (n - 1) + 4 * 2 + 4 * 2 * (m - 1 + n - 1)
    n_clue_options = sum(len(slitherlink.masks_with(int(rows[i][j]))) for i, j in clue_cells)
    assert len(problem.options) == n_tile_options + n_clue_options
    # An answer in wide coordinates: the loop around the whole board meets no clue here but
    # is a cycle, and the checker sees the clues it breaks.
    border = [(0, y) for y in range(1, 2 * n, 2)] + [(2 * m, y) for y in range(1, 2 * n, 2)]
    border += [(x, 0) for x in range(1, 2 * m, 2)] + [(x, 2 * n) for x in range(1, 2 * m, 2)]
    assert is_single_cycle(border)
    problems = slitherlink.check(puzzle, edges_answer(border))
    assert problems and all(p.startswith("cell (") for p in problems)


# --- decoding and checking -------------------------------------------------------------------


@cache
def golden_answers(name: str) -> tuple[Answer, ...]:
    """The answers of a golden case: Knuth's unique one, or all found by brute force."""
    case = next(c for c in GOOD if c["name"] == name)
    if case.get("solution_edges"):
        return (knuth_answer(case["solution_edges"]),)
    return tuple(brute_force_answers(load(case), slitherlink.check))


@pytest.mark.parametrize("case", GOOD, ids=ids(GOOD))
def test_checker_accepts_knuths_unique_answer(case: dict) -> None:
    puzzle = load(case)
    answer = knuth_answer(case["solution_edges"])
    assert slitherlink.check(puzzle, answer) == []


SMALL = [c for c in GOOD if "5x5" in c["name"]]


@pytest.mark.parametrize("case", SMALL, ids=ids(SMALL))
def test_brute_force_with_the_checker_finds_exactly_knuths_answer(case: dict) -> None:
    found = brute_force_answers(load(case), slitherlink.check)
    assert found == [knuth_answer(case["solution_edges"])]
    assert len(found) == case["dlx2_loop_single_loop"]["count"]


@pytest.mark.parametrize("case", GOOD, ids=ids(GOOD))
def test_decode_of_the_answers_cover_gives_the_answer(case: dict) -> None:
    puzzle = load(case)
    problem = parse(slitherlink.encode(puzzle))
    for answer in golden_answers(case["name"]):
        chosen = cover_of(problem, answer)
        assert chosen is not None
        assert slitherlink.decode(puzzle, problem, chosen) == answer
        # Dropping the options that put the loop's edges on gives no loop at all.
        assert slitherlink.decode(puzzle, problem, chosen[:0]) == {"edges": []}


MUTATION_CASES = [c["name"] for c in GOOD]


@settings(max_examples=150, deadline=None)
@given(name=st.sampled_from(MUTATION_CASES), k=st.integers(min_value=0, max_value=10**6))
def test_checker_rejects_every_single_edge_mutation(name: str, k: int) -> None:
    case = next(c for c in GOOD if c["name"] == name)
    puzzle = load(case)
    answer = golden_answers(name)[0]
    edges = grid_edges(puzzle.m, puzzle.n)
    flip = edges[k % len(edges)]
    mutated = {tuple(e) for e in answer["edges"]} ^ {flip}
    assert slitherlink.check(puzzle, edges_answer(mutated))


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        ({}, 'the answer has no list of "edges"'),
        ({"edges": [[0, 0]]}, "[0, 0] is not an edge of the grid"),
        ({"edges": [[0, 5]]}, "[0, 5] is not an edge of the grid"),
        ({"edges": [["a", 1]]}, "['a', 1] is not an edge [row, column]"),
        ({"edges": []}, "there is no loop"),
        ({"edges": [[0, 1], [0, 1]]}, "edge [0, 1] is listed twice"),
        ({"edges": [[0, 1], [1, 0], [1, 2], [2, 1]]}, "cell (2, 2) has clue 1 but 0 loop sides"),
        (
            {"edges": [[0, 1], [1, 0], [1, 2], [2, 1], [2, 3], [3, 2], [3, 4], [4, 3]]},
            "point [2, 2] has 4 loop edges (must be 0 or 2)",
        ),
    ],
)
def test_checker_messages(answer: Answer, message: str) -> None:
    assert message in slitherlink.check(slitherlink.read("3.\n.1\n"), answer)


def test_checker_sees_two_loops() -> None:
    puzzle = slitherlink.read("...\n...\n")
    two = [[0, 1], [1, 0], [1, 2], [2, 1], [0, 5], [1, 4], [1, 6], [2, 5]]
    assert slitherlink.check(puzzle, {"edges": two}) == ["the edges form 2 separate loops, not one"]


def test_render_draws_the_loop_and_the_clues() -> None:
    case = GOOD[0]
    puzzle = load(case)
    answer = golden_answers(case["name"])[0]
    drawing = slitherlink.render(puzzle, answer)
    lines = drawing.split("\n")
    assert sum(line.count("---") for line in lines) + drawing.count("|") == len(answer["edges"])
    for i, row in enumerate(puzzle.rows):
        cells = lines[2 * i + 1].ljust(4 * puzzle.n + 1)
        assert "".join(cells[4 * j + 2] for j in range(puzzle.n)) == row.replace(".", " ")
    assert all(line.count("+") == puzzle.n + 1 for line in lines[0::2] if line)
    assert "-" not in slitherlink.render(puzzle)


# --- Tatham's game ids and the bundled puzzles ----------------------------------------------


@pytest.mark.parametrize("case", GOOD, ids=ids(GOOD))
def test_from_tatham_id_gives_the_golden_puzzle(case: dict) -> None:
    game_id = case["source"].rsplit(" ", 1)[1]
    assert slitherlink.from_tatham_id(game_id) == (GOLDEN / case["puzzle"]).read_text()


def tatham_id(rows: list[str]) -> str:
    """Loopy's description of a board (test-side writer: runs of blanks as letters a-z)."""
    out, run = [], 0
    for ch in "".join(rows) + "!":
        if ch == "." and run < 26:
            run += 1
            continue
        if run:
            out.append(chr(ord("a") + run - 1))
            run = 1 if ch == "." else 0
        if ch not in ".!":
            out.append(ch)
    if run:
        out.append(chr(ord("a") + run - 1))
    return f"{len(rows[0])}x{len(rows)}t0:" + "".join(out)


@settings(max_examples=100, deadline=None)
@given(
    st.integers(2, 12).flatmap(
        lambda n: st.lists(st.text(alphabet="....01234", min_size=n, max_size=n), min_size=2)
    )
)
def test_from_tatham_id_round_trip(rows: list[str]) -> None:
    assert slitherlink.from_tatham_id(tatham_id(rows)) == "".join(r + "\n" for r in rows)


@pytest.mark.parametrize(
    ("game_id", "message"),
    [
        ("5x5t0", r"not a Loopy game id"),
        ("5x5t1:abc", r"grid type t1 is not the square grid"),
        ("2x2t0:a5b", r"character 2 of the Loopy description: '5'"),
        ("2x2t0:ab", r"has 3 faces, not 2x2 = 4"),
    ],
)
def test_from_tatham_id_rejects_bad_ids(game_id: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        slitherlink.from_tatham_id(game_id)


def test_bundled_puzzles_match_their_game_ids() -> None:
    readme = (ROOT / "puzzles" / "README.md").read_text()
    rows = re.findall(r"^\| `(slitherlink/[^`]+)` \| [^|]+ \| `([^`]+)` \|$", readme, re.M)
    assert {"slitherlink/tatham-20x15.txt", "slitherlink/tatham-30x25.txt"} <= {f for f, _ in rows}
    for path, game_id in rows:
        text = (ROOT / "puzzles" / path).read_text()
        assert text == slitherlink.from_tatham_id(game_id), path
        puzzle = slitherlink.read(text)
        assert not puzzle.wide and parse(slitherlink.encode(puzzle)).n_primary > 0
