"""The sudoku family: Knuth's SUDOKU-GENERAL-DLX input, encoding, decoding and rules."""

from __future__ import annotations

import functools
import hashlib
import json
import re
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from dlxsat.errors import InputError
from dlxsat.families import get_spec, sudoku
from dlxsat.xcc import parse

GOLDEN = Path(__file__).parent / "data" / "golden"
MANIFEST = json.loads((GOLDEN / "manifest.json").read_text())
CASES = [c for c in MANIFEST if c["family"] == "sudoku"]
GOOD = [c for c in CASES if c["exit_status"] == 0]
BAD = [c for c in CASES if c["exit_status"] != 0]
SOLVED = [c for c in GOOD if "solution" in c]
CHARS = "0123456789abcdefghijklmnopqrstuvw"


def _ids(cases: list[dict]) -> list[str]:
    return [c["name"] for c in cases]


def _puzzle(case: dict) -> sudoku.SudokuPuzzle:
    return sudoku.read((GOLDEN / case["puzzle"]).read_text())


def _chosen_for(problem, grid: list[str]) -> list[int] | None:
    """The options that put ``grid``'s digits in the blank cells, found by their item names;
    None if some blank cell's digit has no option."""
    want = {}
    for i, row in enumerate(grid):
        for j, ch in enumerate(row):
            want[f"p{CHARS[i]}{CHARS[j]}"] = f"r{CHARS[i]}{ch}"
    chosen, filled = [], set()
    for k in range(len(problem.options)):
        names = problem.option_names(k)
        cell = next(x for x in names if x.startswith("p"))
        if want.get(cell) in names:
            chosen.append(k)
            filled.add(cell)
    blanks = {it.name for it in problem.items if it.name.startswith("p")}
    return chosen if filled == blanks else None


def _is_exact_cover(problem, chosen: list[int]) -> bool:
    """Every primary item covered exactly once, every secondary one at most once."""
    count = [0] * len(problem.items)
    for k in chosen:
        for i, _ in problem.options[k]:
            count[i] += 1
    return all(
        (c == 1) if it.primary else (c <= 1) for it, c in zip(problem.items, count, strict=True)
    )


# --- the golden cases --------------------------------------------------------------------------


def test_manifest_has_the_expected_sudoku_cases():
    assert len(GOOD) >= 10 and len(BAD) >= 2 and len(SOLVED) >= 9


@pytest.mark.parametrize("case", GOOD, ids=_ids(GOOD))
def test_encode_is_byte_identical_to_knuth(case):
    out = sudoku.encode(_puzzle(case)).encode()
    assert hashlib.sha256(out).hexdigest() == case["dlx_sha256"]
    assert out == (GOLDEN / case["dlx"]).read_bytes()


@pytest.mark.parametrize("case", GOOD, ids=_ids(GOOD))
def test_puzzle_figures_agree_with_knuth_status_line(case):
    # "OK, I've got n=6, with 5 boxes and 8 clues in 30 cells."
    p = _puzzle(case)
    cells = p.n * p.n - len(p.holes)
    boxes, clues = len(p.boxes), len(p.clues)
    line = f"OK, I've got n={p.n}, with {boxes} boxes and {clues} clues in {cells} cells."
    assert line == case["stderr_first_line"]


@pytest.mark.parametrize("case", BAD, ids=_ids(BAD))
def test_golden_bad_cases_are_input_errors(case):
    with pytest.raises(InputError):
        _puzzle(case)


def test_golden_bad_messages_name_the_place():
    bad = {c["name"]: c for c in BAD}
    with pytest.raises(
        InputError, match=r"^line 1, column 4: digit 1 is already a clue in this row \(column 1\)$"
    ):
        _puzzle(bad["bad-duplicate-in-row"])
    with pytest.raises(InputError, match=r"^line 6, column 1: box 0 has more than n=4 cells$"):
        _puzzle(bad["bad-box-too-big"])


@pytest.mark.parametrize("case", SOLVED, ids=_ids(SOLVED))
def test_checker_accepts_golden_solution(case):
    assert sudoku.check(_puzzle(case), {"grid": case["solution"]}) == []


@pytest.mark.parametrize("case", SOLVED, ids=_ids(SOLVED))
def test_decode_of_solution_options_gives_the_solution(case):
    p = _puzzle(case)
    problem = parse(sudoku.encode(p))
    chosen = _chosen_for(problem, case["solution"])
    assert chosen is not None
    assert len(chosen) == len(p.blanks)
    assert _is_exact_cover(problem, chosen)
    assert sudoku.decode(p, problem, chosen) == {"grid": case["solution"]}


@pytest.mark.parametrize("case", SOLVED, ids=_ids(SOLVED))
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_checker_rejects_single_cell_mutations(case, data):
    # The golden answers are unique, so changing any one cell breaks some rule.
    p = _puzzle(case)
    grid = list(case["solution"])
    i = data.draw(st.integers(0, p.n - 1), label="row")
    j = data.draw(st.integers(0, p.n - 1), label="col")
    new = data.draw(st.sampled_from(sudoku.CHARS[1 : p.n + 1] + "#.0xA"), label="char")
    assume(new != grid[i][j])
    grid[i] = grid[i][:j] + new + grid[i][j + 1 :]
    assert sudoku.check(p, {"grid": grid})


# --- reading ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, message",
    [
        ("", r"^empty puzzle$"),
        ("\n1\n", r"^line 1: the first line is empty"),
        ("." * 33 + "\n", r"^line 1: the first line has 33 characters, but n is at most 32$"),
        ("1.\n.\n", r"^line 2 has 1 character, but every line must have n=2"),
        ("1.\n...\n", r"^line 2 has 3 characters, but every line must have n=2"),
        ("1.\n\n..\n", r"^line 2 has 0 characters"),
        ("1..\n...\n", r"^only 2 lines, but an n=3 sudoku needs 3 lines"),
        ("1.\n..\n00\n", r"^box-definition group 1 \(from line 3\) has 1 line, not n=2$"),
        ("3.\n..\n", r"^line 1, column 1: digit '3' is larger than n=2$"),
        ("1.\n1.\n", r"^line 2, column 1: digit 1 is already a clue in this column \(line 1\)$"),
        ("12\n..\n0x\n..\n", r"^line 3, column 2: invalid character 'x' in box-definition group 1"),
        ("12\n..\n#.\n..\n", r"^line 3, column 1: invalid character '#'"),
        ("12\n..\n0 \n..\n", r"^line 3, column 2: invalid character ' '"),
        ("12\n..\nw.\n..\n", r"^line 3, column 1: invalid character 'w'"),
        (
            "1.\n..\n0.\n..\n0.\n..\n",
            r"^line 5, column 1: box 0 already contains this cell \(row 1, column 1, put there "
            r"by box-definition group 1\)$",
        ),
        (
            "1..\n..1\n...\n0.0\n..0\n...\n",
            r"^line 5, column 3: digit 1 appears twice in box 0 \(clues at row 1, column 1 and "
            r"row 2, column 3\)$",
        ),
        ("1\t\n..\n", r"^line 1, column 2: a tab is not allowed"),
        ("1\r.\n..\n", r"^line 1, column 2: a carriage return is not allowed"),
        ("é.\n..\n", r"^line 1, column 1: non-ASCII character"),
    ],
)
def test_bad_input_messages(text, message):
    with pytest.raises(InputError, match=message):
        sudoku.read(text)


def test_any_other_character_is_a_blank_cell():
    # Knuth: a digit 1..n is a clue, '#' a hole, anything else a blank (here ' ', '0', 'x', 'A').
    p = sudoku.read(" 0\nxA\n")
    assert p.clues == {} and not p.holes and len(p.blanks) == 4
    assert sudoku.encode(p).startswith("|sudoku!..!..\n")


def test_lenient_line_ends_give_the_same_puzzle():
    text = (GOLDEN / "sudoku" / "puzzlium-A.txt").read_text()
    want = sudoku.encode(sudoku.read(text))
    for variant in (text + "\n\n", text.rstrip("\n"), text.replace("\n", "\r\n")):
        assert sudoku.encode(sudoku.read(variant)) == want


def test_a_trailing_line_of_spaces_is_a_row_not_a_blank_line():
    p = sudoku.read("1.\n  \n")
    assert p.n == 2 and p.clues == {(0, 0): 1} and len(p.blanks) == 3


def test_box_names_beyond_n_are_accepted_as_his_program_does():
    # Tatham's X-sudoku uses boxes a and b for the diagonals, with n = 9.
    p = _puzzle(next(c for c in GOOD if c["name"] == "tatham-9x9-x-1"))
    assert sorted(p.boxes) == [*range(9), 10, 11]
    assert p.boxes[10] == tuple((i, i) for i in range(9))
    assert (4, 4) in p.boxes[10] and (4, 4) in p.boxes[11] and p.boxes_of[4, 4] == (4, 10, 11)


def test_units_and_attributes_for_the_logic_solver():
    p = _puzzle(next(c for c in GOOD if c["name"] == "puzzlium-A"))
    assert p.n == 6 and p.digits == "123456"
    assert p.holes == {(0, 0), (0, 5), (2, 2), (2, 3), (5, 2), (5, 3)}
    assert p.clues[0, 2] == 5 and p.clues[4, 5] == 1 and len(p.clues) == 8
    rows = [u for u in p.units if u.kind == "row"]
    assert [u.complete for u in rows] == [False, True, False, True, True, False]
    assert rows[0].cells == ((0, 1), (0, 2), (0, 3), (0, 4))
    boxes = [u for u in p.units if u.kind == "box"]
    assert [u.index for u in boxes] == [0, 1, 2, 3, 4] and all(u.complete for u in boxes)
    for cell, ks in p.units_of.items():
        assert all(cell in p.units[k].cells for k in ks)
        assert len(ks) == 3  # one row, one column, one hexomino
    assert set(p.units_of) == {(i, j) for i in range(6) for j in range(6)} - p.holes


def test_tatham_9x9_units_are_all_complete():
    p = _puzzle(next(c for c in GOOD if c["name"] == "tatham-9x9-1"))
    assert len(p.units) == 27 and all(u.complete and len(u.cells) == 9 for u in p.units)


def test_family_registry_finds_the_module():
    fam = get_spec("sudoku")
    assert fam is sudoku.SPEC and fam.rules == ()


# --- checking, decoding, rendering ------------------------------------------------------------


def test_checker_names_each_kind_of_violation():
    p = _puzzle(next(c for c in GOOD if c["name"] == "puzzlium-A"))
    good = next(c for c in GOOD if c["name"] == "puzzlium-A")["solution"]
    assert sudoku.check(p, {"edges": []}) == ["the answer has no grid (a list of row strings)"]
    assert sudoku.check(p, {"grid": good[:5]}) == ["the grid has 5 rows, not 6"]
    assert sudoku.check(p, {"grid": good[:5] + ["43##1"]}) == ["row 6 has 5 characters, not 6"]
    hole_filled = ["21562#"] + good[1:]
    assert "row 1, column 1: '2' in a hole (should be '#')" in sudoku.check(
        p, {"grid": hole_filled}
    )
    not_hole = [good[0], "#46132"] + good[2:]
    assert "row 2, column 1: '#' in a cell that is not a hole" in sudoku.check(
        p, {"grid": not_hole}
    )
    bad_digit = [good[0], "746132"] + good[2:]
    assert "row 2, column 1: '7' is not a digit from 1 to 6" in sudoku.check(p, {"grid": bad_digit})
    # Swapping two digits of a row keeps the row complete but breaks a clue and the columns.
    swapped = ["#5162#"] + good[1:]
    found = sudoku.check(p, {"grid": swapped})
    assert "row 1, column 3: the clue 5 was changed to 1" in found
    assert any(v.startswith("column 2: digit 5 twice") for v in found)
    assert any(v.startswith("column 2: digits") and "missing" in v for v in found)


def test_rows_with_holes_need_not_hold_every_digit_but_full_boxes_do():
    # 2x2, hole at (1, 1): row 1 and column 1 have holes, so they only forbid repeats; box 0
    # has 2 cells (complete) and box 1 has 1 cell.
    p = sudoku.read("..\n.#\n00\n1.\n")
    assert sudoku.check(p, {"grid": ["12", "2#"]}) == []
    assert sudoku.check(p, {"grid": ["21", "1#"]}) == []
    assert sudoku.check(p, {"grid": ["11", "2#"]}) == [
        "row 1: digit 1 twice (row 1, column 1 and row 1, column 2)",
        "row 1: digits 2 missing",
        "box 0: digit 1 twice (row 1, column 1 and row 1, column 2)",
        "box 0: digits 2 missing",
    ]
    # A box of n cells counts its holes (as Knuth's program does): it can never be complete.
    q = sudoku.read("..\n.#\n0.\n.0\n")
    assert sudoku.check(q, {"grid": ["12", "2#"]}) == ["box 0: digits 2 missing"]


def test_decode_rejects_options_that_are_not_cell_assignments():
    p = sudoku.read("1.\n..\n")
    problem = parse(sudoku.encode(p))
    with pytest.raises(InputError, match="option 99 does not exist"):
        sudoku.decode(p, problem, [99])
    with pytest.raises(InputError, match="fills a cell that is not blank"):
        sudoku.decode(p, problem, [2, 3])  # both options fill p11
    other = parse("a b\na b\n")
    with pytest.raises(InputError, match="is not a sudoku cell assignment"):
        sudoku.decode(p, other, [0])
    # A cell that no chosen option fills stays blank, and the checker says so.
    partial = sudoku.decode(p, problem, [0])
    assert partial == {"grid": ["12", ".."]}
    assert "row 2, column 1: '.' is not a digit from 1 to 2" in sudoku.check(p, partial)


def test_render_draws_the_first_groups_boxes():
    case = next(c for c in GOOD if c["name"] == "tatham-4x4-1")
    text = sudoku.render(_puzzle(case), {"grid": case["solution"]})
    assert text.splitlines() == ["4 1|2 3", "2 3|4 1", "---+---", "3 2|1 4", "1 4|3 2"]
    puzzlium = next(c for c in GOOD if c["name"] == "puzzlium-A")
    lines = sudoku.render(_puzzle(puzzlium), {"grid": puzzlium["solution"]}).splitlines()
    assert lines[0].startswith("#|1 5 6 2|#")
    plain = sudoku.render(sudoku.read("1.\n..\n"), {"grid": ["12", "21"]})
    assert plain == "1 2\n2 1"


# --- the checker and the encoding agree -------------------------------------------------------


@functools.cache
def _case_strategies(n: int) -> dict[str, st.SearchStrategy]:
    """The strategies sudoku_cases draws from for an n x n grid, made once each (a fresh
    strategy per draw spent much of each example working out its properties)."""
    cells = st.sampled_from([(i, j) for i in range(n) for j in range(n)])
    return {
        "digits": st.permutations(range(1, n + 1)),
        "holes": st.lists(cells, max_size=n),
        "clues": st.lists(cells, max_size=n * n // 2),
        "names": st.lists(st.sampled_from(".." + CHARS[:32]), min_size=n * n, max_size=n * n),
        "digit": st.integers(1, n),
    }


@st.composite
def sudoku_cases(draw, with_holes: bool = True):
    """A puzzle (as text) and a candidate answer: a valid a×b-box sudoku grid with random holes
    (unless ``with_holes`` is false) and clues, sometimes an extra box group, sometimes one cell
    changed."""
    a = draw(st.integers(1, 3), label="box rows")
    b = draw(st.integers(1, 3), label="box cols")
    n = a * b
    strategies = _case_strategies(n)
    perm = draw(strategies["digits"], label="digits")
    base = [[perm[(i * b + i // a + j) % n] for j in range(n)] for i in range(n)]
    cells = [(i, j) for i in range(n) for j in range(n)]
    holes = set(draw(strategies["holes"], label="holes")) if with_holes else set()
    clues = set(draw(strategies["clues"], label="clues")) - holes
    lines = [
        "".join(
            "#" if (i, j) in holes else CHARS[base[i][j]] if (i, j) in clues else "."
            for j in range(n)
        )
        for i in range(n)
    ]
    if draw(st.booleans(), label="boxes"):
        lines += ["".join(CHARS[(i // a) * a + j // b] for j in range(n)) for i in range(n)]
    if draw(st.booleans(), label="extra group"):
        names = draw(strategies["names"])
        lines += ["".join(names[i * n : (i + 1) * n]) for i in range(n)]
    grid = [["#" if (i, j) in holes else CHARS[base[i][j]] for j in range(n)] for i in range(n)]
    if draw(st.booleans(), label="mutate"):
        free = [c for c in cells if c not in holes and c not in clues]
        if free:
            i, j = draw(st.sampled_from(free), label="cell")
            grid[i][j] = CHARS[draw(strategies["digit"], label="digit")]
    return "\n".join(lines) + "\n", ["".join(row) for row in grid]


@settings(max_examples=150, deadline=None)
@given(sudoku_cases())
def test_checker_accepts_exactly_the_exact_covers(case):
    """check() judges the rules directly; the encoding states them as an exact cover. A grid
    must pass one exactly when it passes the other."""
    text, grid = case
    try:
        p = sudoku.read(text)
    except InputError:
        assume(False)  # a random extra group can put two equal clues in one box, or too many cells
    assume(p.blanks)  # with nothing to fill, the item line is empty and the DLX text has no items
    problem = parse(sudoku.encode(p))
    chosen = _chosen_for(problem, grid)
    covers = chosen is not None and _is_exact_cover(problem, chosen)
    assert (sudoku.check(p, {"grid": grid}) == []) == covers
    if chosen is not None:
        assert sudoku.decode(p, problem, chosen) == {"grid": grid}


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="\n\n\n.#0123abvwxz \t\ré", max_size=60))
def test_any_text_is_read_or_rejected_cleanly(text):
    """No input makes read() fail with anything but an InputError; what it accepts encodes."""
    try:
        p = sudoku.read(text)
    except InputError as e:
        assert "\n" not in str(e) and str(e)
        return
    out = sudoku.encode(p)
    assert out.startswith("|sudoku!") and out.count("\n") >= 2


# --- Tatham's Solo game ids -------------------------------------------------------------------

ROOT = Path(__file__).resolve().parent.parent


def test_bundled_puzzles_match_their_solo_game_ids():
    readme = (ROOT / "puzzles" / "README.md").read_text()
    rows = re.findall(r"^\| `(sudoku/[^`]+)` \|.*game id `([^`]+)` \|$", readme, re.M)
    assert len(rows) == 6 and "sudoku/tatham-9x9-x-1.txt" in {f for f, _ in rows}
    hard = re.findall(r"^\| `(sudoku-hard/[^`]+)` \|[^|]+\| `([^`]+)` \|$", readme, re.M)
    assert len(hard) == len(list((ROOT / "puzzles" / "sudoku-hard").glob("*.txt"))) >= 30
    for path, game_id in rows + hard:
        text = (ROOT / "puzzles" / path).read_text()
        assert text == sudoku.from_tatham_id(game_id), path
        sudoku.read(text)


@pytest.mark.parametrize("c, r", [(2, 2), (3, 2), (2, 3), (3, 3), (4, 3), (5, 6)])
def test_solo_boxes_are_c_rows_by_r_columns(c, r):
    n = c * r
    blanks = "z" * (n * n // 26) + ("" if n * n % 26 == 0 else chr(ord("a") - 1 + n * n % 26))
    text = sudoku.from_tatham_id(f"{c}x{r}:{blanks}")
    sudoku.read(text)
    lines = text.splitlines()
    assert lines[:n] == ["." * n] * n and len(lines) == 2 * n  # the grid, one group of boxes
    names = {ch for line in lines[n:] for ch in line}
    assert len(names) == n
    for b in names:
        cells = [(i, j) for i, line in enumerate(lines[n:]) for j, ch in enumerate(line) if ch == b]
        rows = {i for i, _ in cells}
        cols = {j for _, j in cells}
        assert len(cells) == n
        assert max(rows) - min(rows) == c - 1 and max(cols) - min(cols) == r - 1


def test_solo_numbers_above_9_and_x_diagonals():
    # 16 cells of a 4x4: "10"-style numbers are read whole, "_" separates two numbers.
    text = sudoku.from_tatham_id("2x2xdu:1_2_3_4l")
    lines = text.splitlines()
    assert lines[:4] == ["1234", "....", "....", "...."]
    assert lines[8:12] == ["a...", ".a..", "..a.", "...a"]
    assert lines[12:16] == ["...b", "..b.", ".b..", "b..."]
    big = sudoku.from_tatham_id("4x4:16_10" + "z" * 9 + "t")
    assert big.splitlines()[0] == "ga.............."


@pytest.mark.parametrize(
    "game_id, message",
    [
        ("3x3", "not a Solo game id"),
        ("3j:abc", "jigsaw"),
        ("3x3k:abc", "killer"),
        ("3x3q:abc", "unknown flags 'q'"),
        ("1x4:p", "not supported"),
        ("8x5:a", "not supported"),
        ("2x2:5o", r"clue 5, not in 1\.\.4"),
        ("2x2:0o", r"clue 0, not in 1\.\.4"),
        ("2x2:1,o", r"character 2 of the Solo description: ','"),
        ("2x2:q", r"17 cells, not 4x4 = 16"),
    ],
)
def test_bad_solo_ids(game_id, message):
    with pytest.raises(InputError, match=message):
        sudoku.from_tatham_id(game_id)


def test_25x25_puzzles_match_their_solo_game_ids():
    readme = (ROOT / "puzzles" / "README.md").read_text()
    rows = re.findall(r"^\| `(sudoku-25/tatham-[^`]+)` \|[^|]+\| `([^`]+)` \|$", readme, re.M)
    assert len(rows) == len(list((ROOT / "puzzles" / "sudoku-25").glob("tatham-*.txt"))) == 4
    for path, game_id in rows:
        text = (ROOT / "puzzles" / path).read_text()
        assert text == sudoku.from_tatham_id(game_id), path
    # The minimal one keeps some of the clues of the Solo puzzle it was made from, and no other.
    source = (ROOT / "puzzles" / "sudoku-25" / "tatham-25x25-basic-01.txt").read_text()
    minimal = (ROOT / "puzzles" / "sudoku-25" / "minimal-25x25-01.txt").read_text()
    pairs = list(zip(source, minimal, strict=True))
    assert all(m in (s, ".") for s, m in pairs) and sum(s != m for s, m in pairs) == 37
