"""SuperSlitherlink: Knuth's SUPERSLITHERLINK-GENERAL-DLX output byte for byte (quirks
included), bad input, wide boards, decoding, the rule checker (against golden answers and a
brute force), drawing."""

from __future__ import annotations

import hashlib
import json
from functools import cache

import pytest
from conftest import GOLDEN, ROOT, golden_cases
from hypothesis import given, settings
from hypothesis import strategies as st
from test_slitherlink import brute_force_answers, cover_of, grid_edges, ids, knuth_answer

from dlxsat.answer import Answer, edges_answer
from dlxsat.errors import InputError
from dlxsat.families import slitherlink, superslitherlink
from dlxsat.inputs import read_text
from dlxsat.xcc.dlxformat import parse
from dlxsat.xcc.loop import loop_graph

CASES = golden_cases("superslitherlink")
GOOD = [c for c in CASES if c["exit_status"] == 0]
BAD = [c for c in CASES if c["exit_status"] != 0]
#: Small enough for the brute force of test_slitherlink.
SMALL = [c for c in GOOD if c["name"] != "pi-day-2025"]


def load(case: dict) -> superslitherlink.SuperSlitherlinkPuzzle:
    return superslitherlink.read(read_text(str(GOLDEN / case["puzzle"])))


def loop_count(case: dict) -> int:
    """The golden number of single loops, less the empty edge set where Knuth counts it."""
    count = case.get("single_loop_count", case.get("single_loop_count_bruteforce"))
    puzzle = load(case)
    empty_ok = all(ch in ".0" or ch.isalpha() for row in puzzle.rows for ch in row) and not any(
        puzzle.clues.values()
    )
    return count - empty_ok


def digit_rules(puzzle, answer: Answer) -> list[str]:
    """The rules without the letters: one loop, and the digit clues."""
    edges, problems = slitherlink.loop_problems(puzzle.m, puzzle.n, answer)
    return problems + slitherlink.digit_clue_problems(puzzle.rows, edges)


@cache
def digit_loops(name: str) -> tuple[Answer, ...]:
    """Every loop of a small golden case that keeps its digit clues (letters ignored)."""
    case = next(c for c in GOOD if c["name"] == name)
    return tuple(brute_force_answers(load(case), digit_rules))


@cache
def golden_answers(name: str) -> tuple[Answer, ...]:
    """Knuth's unique answer where the manifest has it, else every answer by brute force."""
    case = next(c for c in GOOD if c["name"] == name)
    if case.get("solution_edges"):
        return (knuth_answer(case["solution_edges"]),)
    puzzle = load(case)
    return tuple(a for a in digit_loops(name) if not superslitherlink.check(puzzle, a))


# --- encoding --------------------------------------------------------------------------------


@pytest.mark.parametrize("case", GOOD, ids=ids(GOOD))
def test_encode_is_knuths_output_byte_for_byte(case: dict) -> None:
    out = superslitherlink.encode(load(case)).encode()
    assert out == (GOLDEN / case["dlx"]).read_bytes()
    assert hashlib.sha256(out).hexdigest() == case["dlx_sha256"]
    assert out.startswith(b"| slitherlink-dlx:\n")


@pytest.mark.parametrize("case", GOOD, ids=ids(GOOD))
def test_knuths_clue_zero_quirk_leaves_options_the_reader_drops(case: dict) -> None:
    """Where a letter with clue 0 has several cells, Knuth's data names it in options without
    declaring it: the general reader refuses that (docs/conventions.md §3), and the family's
    ``problem`` drops exactly those options."""
    puzzle = load(case)
    quirky = {
        k for k, v in puzzle.clues.items() if v == 0 and sum(r.count(k) for r in puzzle.rows) > 1
    }
    assert bool(quirky) == (case["name"] in {"random-3x5-2", "random-5x4-3", "random-5x3-4"})
    text = superslitherlink.encode(puzzle)
    if quirky:
        with pytest.raises(InputError, match="unknown item name"):
            parse(text)
    problem = superslitherlink.problem(puzzle, text)
    dropped = len(text.splitlines()) - len(problem.comments) - 1 - len(problem.options)
    named = {t for line in text.splitlines() for t in line.split() if t in quirky}
    assert named == quirky and (dropped > 0) == bool(quirky)
    assert len(loop_graph(problem).vertices) == (puzzle.m + 1) * (puzzle.n + 1)


@pytest.mark.parametrize("case", SMALL, ids=ids(SMALL))
def test_the_encodings_loops_are_the_rules_loops(case: dict) -> None:
    """Among all loops that keep the digit clues, those that are solutions of Knuth's data (as
    read, with the quirk's options dropped) are exactly those the checker accepts, and there are
    as many as the golden brute force (or Knuth's solver) counted."""
    puzzle = load(case)
    problem = superslitherlink.problem(puzzle, superslitherlink.encode(puzzle))
    loops = digit_loops(case["name"])
    by_encoding = [a for a in loops if cover_of(problem, a) is not None]
    by_checker = [a for a in loops if not superslitherlink.check(puzzle, a)]
    assert by_encoding == by_checker
    assert len(by_checker) == loop_count(case)
    if case.get("solution_edges"):
        assert by_checker == [knuth_answer(case["solution_edges"])]


@pytest.mark.parametrize("case", BAD, ids=ids(BAD))
def test_golden_bad_cases_are_input_errors(case: dict) -> None:
    with pytest.raises(InputError, match=r"^line 3: no = sign in '!a3'"):
        load(case)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("aa\n..\n", r"^line 1, column 1: letter 'a' has no clue line '!a=\.\.\.'"),
        ("a.\n.b\n!a=1\n", r"^line 2, column 2: letter 'b' has no clue line"),
        ("aa\n..\n!a=1\n!a=2\n", r"^line 4: a second clue for letter 'a' \(the first is on line 3"),
        ("aa\n..\n!a=\n", r"^line 3, column 4: the clue of letter 'a' must be a number, not ''"),
        (
            "aa\n..\n!a=3x\n",
            r"^line 3, column 4: the clue of letter 'a' must be a number, not '3x'$",
        ),
        ("aa\n..\n!a=-1\n", r"must be a number, not '-1'"),
        ("aa\n..\n!a\n", r"^line 3: no = sign in '!a'"),
        ("!a=1\naa\n..\n", r"^line 2, column 1: letter 'a' has no clue line .*line 1 comes before"),
        ("aa\n..\n\n!a=1\n", r"^line 3: blank line inside the board"),
        ("a#\n..\n!a=1\n", r"^line 1, column 2: illegal character '#'"),
        ("a|\n..\n!a=1\n", r"^line 1, column 2: illegal character '\|'"),
        ("a:\n..\n!a=1\n", r"^line 1, column 2: illegal character ':'"),
        ("a!\n..\n!a=1\n", r"^line 1, column 2: illegal character '!'"),
        ("a \n..\n!a=1\n", r"^line 1, column 2: illegal character ' '"),
        ("aé\n..\n!a=1\n", r"^line 1, column 2: illegal character 'é'"),
        (
            "aa\n.\n!a=1\n",
            r"^line 2, column 2: row has wrong number of clues \(1, but line 1 has 2",
        ),
        ("aaa\n!a=1\n", r"^line 1: the board dimensions must be 2 or more, not 1x3"),
        ("!a=1\n", r"^empty puzzle"),
        (("." * 500 + "\n") * 50, r"^a 50x500 board is too large: .*'100NW1000'"),
    ],
    ids=lambda v: v[:24].replace("\n", "/") if isinstance(v, str) else None,
)
def test_bad_input_messages(text: str, message: str) -> None:
    """Knuth's panics and warnings, and what his program takes for letters, are input errors."""
    with pytest.raises(InputError, match=message):
        superslitherlink.read(text)


def test_letters_are_ordered_as_knuth_orders_them() -> None:
    puzzle = superslitherlink.read("ba\nBA\n!b=1\n!a=2\n!A=1\n!B=3\n")
    head = superslitherlink.encode(puzzle).split("\n")[7]
    assert head.endswith("2|A 6|B 4|a 2|b | 01 03 10 12 14 21 23 30 32 34 41 43")


def test_board_beyond_knuths_limit_gets_wide_names_and_a_loop_graph() -> None:
    m, n = 35, 32
    rows = ["".join("aabbc.12..3"[(i // 2 * 3 + j) % 11] for j in range(n)) for i in range(m)]
    text = "\n".join(rows) + "\n!a=40\n!b=30\n!c=20\n"
    puzzle = superslitherlink.read(text)
    assert puzzle.wide
    problem = superslitherlink.problem(puzzle, superslitherlink.encode(puzzle))
    names = {it.name for it in problem.items}
    assert all(len(name) <= slitherlink.MAX_NAME for name in names)
    assert {"0.0", "70.64", "0SE0", "70NW64", "1.13", "a", "b", "c"} <= names
    assert not any(len(name) == 2 and name not in "abc" for name in names)
    graph = loop_graph(problem)
    assert len(graph.vertices) == (m + 1) * (n + 1)
    legal, _ = superslitherlink.legal_edges(puzzle)
    assert sorted(graph.coords[e] for e, _, _ in graph.edges) == [
        (x, y) for x, y in grid_edges(m, n) if legal[x][y]
    ]
    # No internal edge of a letter is an item: cells (0,0) and (0,1) are both 'a'.
    assert "1.2" not in names and "1.4" in names
    bounds = {it.name: (it.lo, it.hi) for it in problem.items}
    assert bounds["a"] == (80, 80) and bounds[f"{2 * 0 + 1}.{2 * 6 + 1}"] == (2, 2)


# --- decoding and checking -------------------------------------------------------------------


UNIQUE = [c for c in GOOD if c.get("solution_edges")]


@pytest.mark.parametrize("case", UNIQUE, ids=ids(UNIQUE))
def test_checker_accepts_knuths_unique_answer(case: dict) -> None:
    answer = knuth_answer(case["solution_edges"])
    assert superslitherlink.check(load(case), answer) == []


@pytest.mark.parametrize("case", GOOD, ids=ids(GOOD))
def test_decode_of_the_answers_cover_gives_the_answer(case: dict) -> None:
    puzzle = load(case)
    problem = superslitherlink.problem(puzzle, superslitherlink.encode(puzzle))
    answers = golden_answers(case["name"])
    assert answers
    for answer in answers:
        chosen = cover_of(problem, answer)
        assert chosen is not None
        assert superslitherlink.decode(puzzle, problem, chosen) == answer


def test_plain_boards_are_judged_as_slitherlink_judges_them() -> None:
    case = next(c for c in GOOD if c["name"] == "tatham-plain-5x5-1")
    plain = slitherlink.read((GOLDEN / case["puzzle"]).read_text())
    puzzle = load(case)
    answer = golden_answers(case["name"])[0]
    for e in grid_edges(puzzle.m, puzzle.n):
        mutated = edges_answer({tuple(x) for x in answer["edges"]} ^ {e})
        assert superslitherlink.check(puzzle, mutated) == slitherlink.check(plain, mutated)


@settings(max_examples=150, deadline=None)
@given(
    name=st.sampled_from([c["name"] for c in GOOD]),
    pick=st.integers(min_value=0, max_value=10**6),
    k=st.integers(min_value=0, max_value=10**6),
)
def test_checker_rejects_every_single_edge_mutation(name: str, pick: int, k: int) -> None:
    case = next(c for c in GOOD if c["name"] == name)
    puzzle = load(case)
    answers = golden_answers(name)
    answer = answers[pick % len(answers)]
    edges = grid_edges(puzzle.m, puzzle.n)
    mutated = {tuple(e) for e in answer["edges"]} ^ {edges[k % len(edges)]}
    assert superslitherlink.check(puzzle, edges_answer(mutated))


def test_checker_messages_for_letters() -> None:
    puzzle = superslitherlink.read("aa\nb.\n!a=6\n!b=2\n")
    around_a = [[0, 1], [0, 3], [1, 0], [1, 4], [2, 1], [2, 3]]
    assert superslitherlink.check(puzzle, {"edges": around_a}) == [
        "letter 'b' has clue 2 but 1 loop boundary edge"
    ]
    first_cell = [[0, 1], [1, 0], [1, 2], [2, 1]]
    assert superslitherlink.check(puzzle, {"edges": first_cell}) == [
        "loop edge [1, 2] lies inside the cells of 'a'",
        "letter 'a' has clue 6 but 3 loop boundary edges",
        "letter 'b' has clue 2 but 1 loop boundary edge",
    ]


def test_render_shows_letters_loop_and_clue_lines() -> None:
    case = next(c for c in GOOD if c["name"] == "pi-day-2025")
    puzzle = load(case)
    answer = golden_answers(case["name"])[0]
    drawing = superslitherlink.render(puzzle, answer)
    lines = drawing.split("\n")
    board = lines[: 2 * puzzle.m + 1]
    assert sum(line.count("---") for line in board) + drawing.count("|") == len(answer["edges"])
    assert board[1] == "  a   a   a"
    assert board[6:9] == [
        "+---+---+---+---+   +   +   +",
        "|               |",
        "+   +---+---+---+   +   +   +",
    ]
    assert board[9] == "|   |     c   c   d   d   d"


def test_bundled_pi_day_puzzle_is_the_golden_one() -> None:
    bundled = ROOT / "puzzles" / "superslitherlink" / "pi-day-2025.txt"
    assert bundled.read_text() == (GOLDEN / "superslitherlink" / "pi-day-2025.txt").read_text()


@pytest.mark.parametrize(
    "case",
    [
        c
        for c in golden_cases("superslitherlink", ok_only=True)
        if c.get("single_loop_count_bruteforce") is not None
        and c.get("dlx3_disjoint_loops") is None
    ],
    ids=lambda c: c["name"],
)
def test_dlx_command_reads_knuths_zero_clue_data_by_the_family_rule(cli_run, case):
    """Knuth's data names undeclared letters of clue 0; `dlxsat dlx` recognises his header and
    echoed puzzle, leaves those options out with one warning, and counts what brute force does."""
    rc, out, err = cli_run(["dlx", GOLDEN / case["dlx"], "--loop", "--json"])
    assert rc == 0, err
    assert json.loads(out)["count"] == case["single_loop_count_bruteforce"]
    assert err.count("\n") == 1 and "naming a letter of clue 0" in err
