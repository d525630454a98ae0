"""Fillomino: Knuth's FILLOMINO-DLX output byte for byte, his DLX2's figures on it, his reader's
limits and quirks, and the same construction on boards beyond them; then the standard rules'
model (regions of any size) on every backend against a brute force, its bound widened when the
answers found ask for it, and the ``--rules`` choice on the command line.

(The genre's formats, published answers and wrong answers are tests/test_genres.py's table.)"""

from __future__ import annotations

import doctest
import hashlib
import itertools
import json
import random
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from dlxsat import solve_problem
from dlxsat.errors import InputError
from dlxsat.families import fillomino
from dlxsat.families.fillomino import FillominoPuzzle, encode, read
from dlxsat.xcc import parse

GOLDEN = Path(__file__).parent / "data" / "golden"
CASES = [
    c for c in json.loads((GOLDEN / "manifest.json").read_text()) if c["family"] == "fillomino"
]
GOOD = [c for c in CASES if c["exit_status"] == 0]
BAD = [c for c in CASES if c["exit_status"] != 0]
PUBLISHED = [c for c in GOOD if c.get("published_solution")]

Grid = list[list[int]]
Case = dict[str, Any]


def ids(cases: list[Case]) -> list[str]:
    return [c["name"] for c in cases]


def puzzle_of(case: Case) -> FillominoPuzzle:
    return read((GOLDEN / case["puzzle"]).read_text())


def published(case: Case) -> Grid:
    """The corpus's answer grid (its first line is the size)."""
    return [[int(v) for v in line.split()] for line in case["published_solution"].splitlines()[1:]]


def solve(puzzle: FillominoPuzzle, keep: int | None = 0) -> Any:
    return solve_problem(parse(encode(puzzle)), "dlx", limit=None, keep=keep)


def answer(puzzle: FillominoPuzzle, text: str, chosen: list[int]) -> Grid:
    """The filled board of a solution: each option's cells get its size."""
    problem = parse(text)
    where = {puzzle.cell_name(i, j): (i, j) for i in range(puzzle.m) for j in range(puzzle.n)}
    grid = [[0] * puzzle.n for _ in range(puzzle.m)]
    for k in chosen:
        cells = [
            where[problem.items[x].name] for x, _ in problem.options[k] if x < problem.n_primary
        ]
        for i, j in cells:
            assert grid[i][j] == 0
            grid[i][j] = len(cells)
    return grid


def is_fillomino(grid: Grid) -> bool:
    """Every maximal rookwise-connected set of cells labelled d has d cells (the rules checked
    directly, independently of the encoding)."""
    m, n = len(grid), len(grid[0])
    seen = [[False] * n for _ in range(m)]
    for i, j in itertools.product(range(m), range(n)):
        if seen[i][j]:
            continue
        d, stack, size = grid[i][j], [(i, j)], 0
        seen[i][j] = True
        while stack:
            a, b = stack.pop()
            size += 1
            for x, y in ((a - 1, b), (a, b - 1), (a, b + 1), (a + 1, b)):
                if 0 <= x < m and 0 <= y < n and not seen[x][y] and grid[x][y] == d:
                    seen[x][y] = True
                    stack.append((x, y))
        if size != d:
            return False
    return True


# --- Knuth's output and figures on the golden cases ------------------------------------------


@pytest.mark.parametrize("case", GOOD, ids=ids(GOOD))
def test_encode_is_knuths_output_byte_for_byte(case: Case) -> None:
    puzzle = puzzle_of(case)
    want = (GOLDEN / case["dlx"]).read_bytes()
    assert hashlib.sha256(want).hexdigest() == case["dlx_sha256"]
    assert encode(puzzle).encode() == want
    assert fillomino.status_line(puzzle) == case["stderr_first_line"]


@pytest.mark.parametrize("case", BAD, ids=ids(BAD))
def test_knuths_rejected_input_is_an_input_error(case: Case) -> None:
    assert case["exit_status"] != 0 and case["stderr_first_line"].startswith("illegal entry")
    with pytest.raises(InputError, match=r"^line 1, column 3: illegal entry 'x'"):
        puzzle_of(case)


@pytest.mark.parametrize("case", GOOD, ids=ids(GOOD))
def test_dlx_gives_knuths_dlx2_figures(case: Case) -> None:
    r = solve(puzzle_of(case))
    ref = case["dlx2"]
    assert (r.count, r.stats["nodes"], r.stats["updates"]) == (
        ref["count"],
        ref["nodes"],
        ref["updates"],
    )
    assert r.exhausted


@pytest.mark.parametrize("case", PUBLISHED, ids=ids(PUBLISHED))
def test_published_answers_and_his_assumption(case: Case) -> None:
    """A board has his (unique) answer exactly when its published answer has no region larger
    than the largest given number; the others have none under his assumption."""
    puzzle, want = puzzle_of(case), published(case)
    assert is_fillomino(want)
    largest_region = max(map(max, want))
    if case["dlx2"]["count"] == 0:
        assert largest_region > puzzle.dmax
        return
    assert largest_region <= puzzle.dmax
    r = solve(puzzle, keep=1)
    assert answer(puzzle, encode(puzzle), r.solutions[0]) == want


@pytest.mark.parametrize("name", ["janko-78_9x9", "janko-66_10x10", "janko-583_10x10"])
def test_raising_dmax_finds_the_published_answer(name: str) -> None:
    (case,) = [c for c in PUBLISHED if c["name"] == name]
    want = published(case)
    puzzle = FillominoPuzzle.from_givens(puzzle_of(case).givens, dmax=max(map(max, want)))
    r = solve(puzzle, keep=2)
    assert r.count == 1
    assert answer(puzzle, encode(puzzle), r.solutions[0]) == want


# --- his reader: limits, quirks, and what dlxsat refuses -------------------------------------


def test_seventeen_columns_keep_his_hex_names() -> None:
    (case,) = [c for c in GOOD if c["name"] == "wide-seventeen-columns"]
    puzzle = puzzle_of(case)
    assert (puzzle.m, puzzle.n, puzzle.naming) == (2, 17, "knuth")
    assert puzzle.cell_name(1, 16) == "110" and puzzle.edge_name("v", 0, 16, 1) == "v0101"


@pytest.mark.parametrize(
    "m, n, dmax, naming",
    [
        (16, 16, 15, "knuth"),
        (16, 17, 1, "knuth"),  # (his framing writes one cell past his array here)
        (2, 78, 1, "knuth"),  # his 80-byte buffer: 78 cells, the newline and the NUL
        (17, 16, 1, "base62"),  # "too many rows" for him
        (2, 79, 1, "decimal"),  # (column 78 has no base-62 digit)
        (17, 62, 1, "base62"),
        (17, 63, 1, "decimal"),
        (2, 2, 16, "base62"),  # (built directly: his digits stop at f)
        (62, 62, 61, "base62"),
        (63, 2, 1, "decimal"),
        (2, 2, 62, "decimal"),
        (99, 99, 99, "decimal"),
    ],
)
def test_naming_regimes(m: int, n: int, dmax: int, naming: str) -> None:
    givens = [[0] * n for _ in range(m)]
    givens[0][0] = dmax
    assert FillominoPuzzle.from_givens(givens).naming == naming


def test_too_large_for_eight_character_names() -> None:
    givens = [[0] * 100 for _ in range(100)]
    givens[0][0] = 100
    with pytest.raises(InputError, match="exceed 8 characters"):
        encode(FillominoPuzzle.from_givens(givens))


def test_line_ends_and_trailing_lines_are_forgiven() -> None:
    plain = encode(read("1..\n.2.\n"))
    for text in ("1..\n.2.", "1..\r\n.2.\r\n", "1..\n.2.\n\n\n"):
        assert encode(read(text)) == plain


@pytest.mark.parametrize(
    "text, message",
    [
        ("", r"^empty puzzle"),
        ("\n\n", r"^empty puzzle"),
        ("\n..\n", r"^line 1, column 1: the first row is empty"),
        ("1..\n.2\n", r"^line 2, column 3: row has 2 cells, but line 1 has 3"),
        ("1..\n.2..\n", r"^line 2, column 4: row has 4 cells"),
        ("1..\n\n...\n", r"^line 2, column 1: row has 0 cells"),  # (he reads a row of blanks)
        ("1.\t\n", r"^line 1, column 3: a tab is not allowed"),
        ("1.\r.\n", r"^line 1, column 3: a carriage return is not allowed"),
        ("1.\n.0\n", r"^line 2, column 2: illegal entry '0'"),
        ("1.\n.A\n", r"^line 2, column 2: illegal entry 'A'"),
        ("1.\n.g\n", r"^line 2, column 2: illegal entry 'g'"),
        ("1 \n..\n", r"^line 1, column 2: illegal entry ' '"),
        ("1.\n.\u00e9\n", r"^line 2, column 2: illegal entry '\u00e9'"),
    ],
)
def test_malformed_input(text: str, message: str) -> None:
    with pytest.raises(InputError, match=message) as caught:
        read(text)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(
    "rows, dmax, message",
    [
        ([[1, 0], [0]], None, "not 2 rows of 2"),
        ([[1, -1]], None, "1 or more"),
        ([[3, 0]], 2, "less than the given number 3"),
        ([], None, "a board needs a row"),
    ],
)
def test_bad_boards_built_directly(rows: list[list[int]], dmax: int | None, message: str) -> None:
    with pytest.raises(InputError, match=message):
        FillominoPuzzle.from_givens(rows, dmax)


# --- his construction, checked by its meaning --------------------------------------------------


def test_small_boards_have_exactly_the_fillings_the_rules_allow() -> None:
    """On random small boards, the exact cover's solutions are exactly the fillings with numbers
    1..dmax that obey the rules (counted by brute force)."""
    rng = random.Random(2024)
    tried = 0
    while tried < 40:
        m, n = rng.randint(1, 3), rng.randint(2, 4)
        dmax = rng.randint(1, 4)
        givens = [
            [rng.randint(1, dmax) if rng.random() < 0.4 else 0 for _ in range(n)] for _ in range(m)
        ]
        blanks = [(i, j) for i in range(m) for j in range(n) if not givens[i][j]]
        if dmax ** len(blanks) > 1024:
            continue
        tried += 1
        puzzle = FillominoPuzzle.from_givens(givens, dmax)
        fillings = []
        for values in itertools.product(range(1, dmax + 1), repeat=len(blanks)):
            grid = [row[:] for row in givens]
            for (i, j), v in zip(blanks, values, strict=True):
                grid[i][j] = v
            if is_fillomino(grid):
                fillings.append(grid)
        text = encode(puzzle)
        r = solve_problem(parse(text), "dlx", limit=None, keep=None)
        found = sorted(answer(puzzle, text, s) for s in r.solutions)
        assert found == sorted(fillings), givens


def strips(m: int, n: int) -> tuple[Grid, Grid]:
    """A board with one answer and large numbers: even rows a (n-3)-strip and a 3-strip, odd
    rows a 1, an (n-2)-strip and a 1; some cells blank, two of them side by side in each eighth
    row (so that the board has edge items)."""
    answer_grid = [
        [n - 3] * (n - 3) + [3] * 3 if i % 2 == 0 else [1] + [n - 2] * (n - 2) + [1]
        for i in range(m)
    ]
    givens = [row[:] for row in answer_grid]
    for i in range(m):
        for j in (
            (n // 2, n // 2 + 1, n - 2) if i % 8 == 0 else (0, n // 2 + 4) if i % 8 == 3 else ()
        ):
            givens[i][j] = 0
    return givens, answer_grid


@pytest.mark.parametrize("m, n, naming", [(20, 20, "base62"), (64, 64, "decimal")])
def test_beyond_his_limits_same_construction_other_names(m: int, n: int, naming: str) -> None:
    givens, want = strips(m, n)
    puzzle = FillominoPuzzle.from_givens(givens)
    assert puzzle.naming == naming and puzzle.dmax == n - 2
    text = encode(puzzle)
    names = text.splitlines()[1 + m].split()
    assert max(map(len, names)) <= 8 and len(set(names)) == len(names)
    if naming == "decimal":
        assert "63.63" in names and "0.33v1" in names and "56.33v62" in names
        assert re.fullmatch(r"\| 61 61 61 .* \. .* 3 \. 3", text.splitlines()[1])
    else:
        assert "jj" in names and "v0b1" in names and "vgbi" in names  # (19, 19); (16, 11)
    r = solve_problem(parse(text), "dlx", limit=None, keep=1)
    assert r.count == 1 and answer(puzzle, text, r.solutions[0]) == want


def test_doctests() -> None:
    assert doctest.testmod(fillomino).failed == 0


# --- the standard rules ------------------------------------------------------------------------


def standard_fillings(givens: Grid) -> set[tuple[tuple[int, ...], ...]]:
    """Every filling of a small board under the standard rules (regions of any size), by brute
    force over the board's set partitions: each block's cells get its size, and the filling
    counts when it obeys :func:`is_fillomino` and the given numbers."""
    m, n = len(givens), len(givens[0])
    cells = [(i, j) for i in range(m) for j in range(n)]
    found = set()

    def blocks(k: int, labels: list[int], used: int) -> Iterator[list[int]]:
        if k == len(cells):
            yield labels
            return
        for b in range(used + 1):
            labels.append(b)
            yield from blocks(k + 1, labels, max(used, b + 1))
            labels.pop()

    for labels in blocks(0, [], 0):
        sizes = Counter(labels)
        grid = [[0] * n for _ in range(m)]
        for (i, j), b in zip(cells, labels, strict=True):
            grid[i][j] = sizes[b]
        if all(
            g in (0, v)
            for gr, vr in zip(givens, grid, strict=True)
            for g, v in zip(gr, vr, strict=True)
        ):
            if is_fillomino(grid):
                found.add(tuple(map(tuple, grid)))
    return found


def row_fillings(n: int) -> int:
    """The fillings of an empty 1 x n board: compositions of n with no two equal parts side by
    side."""

    def count(left: int, last: int) -> int:
        if left == 0:
            return 1
        return sum(count(left - d, d) for d in range(1, left + 1) if d != last)

    return count(n, 0)


def filled(puzzle: FillominoPuzzle, answer: dict[str, Any]) -> tuple[tuple[int, ...], ...]:
    return tuple(map(tuple, fillomino.numbers(puzzle, answer)))


@pytest.mark.parametrize("backend", ["dlx", "sat", "cpsat"])
def test_the_standard_rules_have_exactly_the_brute_forces_fillings(backend: str) -> None:
    """Random boards of at most 8 cells, given numbers up to 6 (regions above the bound come
    up, and clueless ones of any size): every answer, by every backend, is a filling the brute
    force finds, and none is missing."""
    import dlxsat

    rng = random.Random(7)
    for _ in range(12):
        m, n = rng.choice([(1, 6), (2, 3), (2, 4), (1, 8)])
        givens = [[rng.choice([0, 0, 0, 1, 2, 3, 5, 6]) for _ in range(n)] for _ in range(m)]
        puzzle = FillominoPuzzle.from_givens(givens)
        report = dlxsat.solve("fillomino", puzzle, backend=backend, mode="all")
        assert {filled(puzzle, a) for a in report.solutions} == standard_fillings(givens), givens
        assert report.count == len(report.solutions)


@pytest.mark.parametrize("backend", ["dlx", "sat", "cpsat"])
@pytest.mark.parametrize(
    "givens, mode",
    [
        ([[4, 0, 0, 0], [0, 0, 0, 0]], fillomino.FEW_MODE),  # 8 cells: room for two 4s
        ([[0, 4, 0, 0, 0, 0, 0, 0]], fillomino.FEW_MODE),
        ([[0, 0, 5, 0], [0, 0, 0, 0]], fillomino.LONE_MODE),  # 8 cells: room for one 5
    ],
)
def test_labels_with_room_for_few_regions_ask_for_their_mode(
    givens: Grid, mode: str, backend: str
) -> None:
    """A given's label with room for one region (an anchor) or two (slots) asks for its mode,
    and every backend still finds exactly the brute force's fillings."""
    import dlxsat

    puzzle = FillominoPuzzle.from_givens(givens)
    d = max(map(max, givens))
    (rule,) = [r for r in fillomino.build(puzzle).rules if r.label == f"size-{d}"]
    assert rule.prefer == mode
    report = dlxsat.solve("fillomino", puzzle, backend=backend, mode="all")
    assert {filled(puzzle, a) for a in report.solutions} == standard_fillings(givens)


def test_the_standard_model_asks_for_pairwise_groups_and_keeps_its_answers() -> None:
    """The standard model's hint (PAIRWISE_AT_MOST) reaches the CNF: a blank cell of a 3 x 3
    board has more options than the backends' threshold, so without the hint their "at most
    one" takes auxiliary variables and with it none; the answers are the same either way,
    those of the count's probe too."""
    from dlxsat.backends import cnf

    givens = [[0, 0, 0], [0, 4, 0], [0, 0, 0]]
    puzzle = FillominoPuzzle.from_givens(givens)
    problem = fillomino.build(puzzle)
    assert problem.pairwise_at_most == fillomino.PAIRWISE_AT_MOST > cnf.AUTO_PAIRWISE_MAX
    probed = fillomino.probe(puzzle, problem)
    assert probed is not None and probed.pairwise_at_most == fillomino.PAIRWISE_AT_MOST
    unhinted = replace(problem, pairwise_at_most=None)
    assert cnf.build(problem).nvars < cnf.build(unhinted).nvars
    answers = [
        sorted(map(sorted, solve_problem(p, "sat", limit=None, keep=None).solutions))
        for p in (problem, unhinted)
    ]
    assert answers[0] == answers[1] and len(answers[0]) > 1


@pytest.mark.parametrize(
    "n, backend",
    [(7, "cpsat")] + [(n, b) for n in (7, 9, 12) for b in ("dlx", "sat")],
)  # (CP-SAT, a new search per cut round, takes 40 s to count a row that widens on a busy machine)
def test_a_row_counts_right_when_its_bound_must_widen(n: int, backend: str) -> None:
    """An empty row of n cells: with the bound U = 3, two clueless regions of 4 or more side by
    side (9 = 4 + 5, 12 = 4 + 8 or 5 + 7) have no cover of their own -- the
    cover joining them has a region of 2U + 3 or more, so the count widens the bound and counts
    again; the model alone counts fewer. (Seven cells have room for no such pair.)"""
    assert fillomino.bound(read("." * n + "\n")) == 3
    import dlxsat

    puzzle = read("." * n + "\n")
    bare = solve_problem(fillomino.build(puzzle), backend, limit=None).count
    report = dlxsat.solve("fillomino", puzzle, backend=backend, mode="count")
    assert report.count == row_fillings(n)
    assert (bare == row_fillings(n)) == (n < 2 * fillomino.bound(puzzle) + 3)


def row_answers(givens: list[int]) -> set[tuple[int, ...]]:
    """The fillings of a 1 x n board: compositions of n with no two equal parts side by side,
    each part's cells holding its size, the given numbers among them."""
    n = len(givens)
    found = set()
    for cuts in itertools.product([False, True], repeat=n - 1):
        parts, size = [], 1
        for cut in cuts:
            if cut:
                parts.append(size)
                size = 1
            else:
                size += 1
        parts.append(size)
        if any(a == b for a, b in itertools.pairwise(parts)):
            continue
        row = tuple(p for p in parts for _ in range(p))
        if all(g in (0, v) for g, v in zip(givens, row, strict=True)):
            found.add(row)
    return found


@pytest.mark.parametrize("backend", ["dlx", "sat"])
@pytest.mark.parametrize(
    "text",
    ["7" + "." * 13, "1" + "." * 5 + "7" + "." * 8, "..8......1.....", "9" + "." * 11],
)
def test_a_gap_above_the_bound_keeps_every_answer(text: str, backend: str, monkeypatch) -> None:
    """With the gap at its least (GAP = 0: a given number more than twice the one below it
    begins one), a row's answers are the brute force's: a clueless region of a given number's
    size (7 + 7 in 14 cells) or two clueless regions side by side in the gap make the model
    widen; the bound is CUTOFF or the number below the gap."""
    import dlxsat

    monkeypatch.setattr(fillomino, "GAP", 0)
    puzzle = read(text + "\n")
    assert fillomino.labels_above(puzzle) == [max(map(int, text.replace(".", "")))]
    report = dlxsat.solve("fillomino", puzzle, backend=backend, mode="all")
    givens = [int(c) if c != "." else 0 for c in text]
    assert {filled(puzzle, a)[0] for a in report.solutions} == row_answers(givens)


def test_widen_asks_for_a_wider_bound_only_past_2u_plus_3() -> None:
    puzzle = read("." * 12 + "\n")
    problem = fillomino.build(puzzle)
    one = [k for k, o in enumerate(problem.options) if any(c == "+" for _, c in o)]
    assert fillomino.widen(puzzle, problem, [one]) == replace(puzzle, bound=12)
    small = read("." * 8 + "\n")
    problem = fillomino.build(small)
    one = [k for k, o in enumerate(problem.options) if any(c == "+" for _, c in o)]
    assert fillomino.widen(small, problem, [one]) is None  # 8 < 2 * 3 + 3


@pytest.mark.parametrize("rules, sized", [("knuth", False), ("standard", True), (None, False)])
def test_encode_prints_his_data_unless_told(rules: str | None, sized: bool, capsys) -> None:
    """``encode`` prints his bytes by default (the golden checks), the standard model with
    ``--rules standard``; ``solve`` states the standard rules unless told ``--rules knuth``."""
    from dlxsat.cli import main

    path = str(GOLDEN / "fillomino" / "janko-436_10x10.txt")
    args = ["encode", "fillomino", path] + (["--rules", rules] if rules else [])
    assert main(args) == 0
    out = capsys.readouterr().out
    assert ("|@sized" in out) == sized
    if not sized:
        assert hashlib.sha256(out.encode()).hexdigest() == next(
            c["dlx_sha256"] for c in GOOD if c["name"] == "janko-436_10x10"
        )


def test_solve_takes_the_standard_rules_unless_told(capsys) -> None:
    """janko-436 has no answer under his assumption (a clueless 7-region, all numbers up to 6)
    and its published one under the standard rules."""
    from dlxsat.cli import main

    path = str(GOLDEN / "fillomino" / "janko-436_10x10.txt")
    assert main(["solve", "fillomino", path, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "unique"
    assert main(["solve", "fillomino", path, "--rules", "knuth", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "none"
    assert main(["solve", "fillomino", path, "--rules", "loose"]) == 2
    assert "unknown fillomino rules 'loose'" in capsys.readouterr().err
    assert main(["solve", "masyu", "puzzles/masyu/tatham-10x10.txt", "--rules", "knuth"]) == 2
    assert "--rules: a masyu puzzle has one set of rules" in capsys.readouterr().err
