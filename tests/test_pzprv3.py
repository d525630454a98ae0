"""pzprjs's file format (``pzprv3``), which puz.link opens with the answer drawn: pzprjs's own
solved examples read, and written back byte for byte; every puzzle and answer round-trips."""

from __future__ import annotations

import pytest
from conftest import ROOT
from hypothesis import given, settings
from hypothesis import strategies as st

import dlxsat
from dlxsat import formats
from dlxsat.cli import main
from dlxsat.errors import InputError
from dlxsat.families import get_spec, sudoku
from dlxsat.formats import pzprv3
from dlxsat.formats.puzzlink import box_shape

#: pzprjs (puz.link's program, repository robx/pzprjs), test/script/mashu.js, slither.js and
#: sudoku.js: each genre's debug URL and the file of its correct answer (the check list's
#: entry without an error code). ``-1`` marks a cross (no line) drawn by the player.
PZPRJS = {
    "masyu": (
        "https://puzz.link/p?mashu/6/6/1063000i3000",
        "pzprv3/mashu/6/6/. . 1 . . . /. 2 . . 1 . /. . . . . . /. . . 2 . . /. 1 . . . . /"
        ". . . . . . /1 1 1 0 1 /0 1 1 -1 0 /0 0 1 1 0 /0 1 -1 1 1 /1 1 0 0 0 /0 0 1 0 0 /"
        "1 0 0 1 1 1 /1 1 0 0 1 1 /1 1 1 -1 0 1 /1 -1 0 1 0 0 /0 0 1 1 0 0 /",
    ),
    "slitherlink": (
        "https://puzz.link/p?slither/5/5/cbcbcddad",
        "pzprv3/slither/5/5/2 . . 1 . /. 2 . . 1 /. . 2 . . /3 . . 3 . /. 0 . . 3 /"
        "1 -1 0 -1 -1 1 /1 1 -1 1 -1 1 /1 1 1 0 0 1 /1 1 1 1 1 1 /-1 -1 -1 0 1 1 /1 1 1 1 1 /"
        "-1 1 1 -1 -1 /0 -1 1 0 0 /0 0 0 1 0 /1 -1 1 -1 0 /-1 0 -1 0 1 /",
    ),
    "sudoku": (
        "https://puzz.link/p?sudoku/4/4/g1k23k3g",
        "pzprv3/sudoku/4/. 1 . . /. . . 2 /3 . . . /. . 3 . /2 . 4 3 /4 3 1 . /. 4 2 1 /1 2 . 4 /",
    ),
}


def board(puzzle) -> tuple:
    if hasattr(puzzle, "givens"):
        return (tuple(puzzle.givens), tuple(puzzle.groups))
    return puzzle.rows


@pytest.mark.parametrize("family", sorted(PZPRJS))
def test_pzprjs_answers_are_read_and_written_back(family: str) -> None:
    url, text = PZPRJS[family]
    assert formats.detect(family, text) == "pzprv3"
    puzzle, answer = pzprv3.parse(family, text)
    assert board(puzzle) == board(formats.read(family, url))
    # pzprjs's answer is the one dlxsat finds, and the only one.
    report = dlxsat.solve(family, url, backend="sat")
    assert report.status == "unique" and report.solutions == [answer]
    # Written back: pzprjs's file, byte for byte, but for its crosses (no line either way).
    expected = text.replace("-1", "0").replace("/", "\n")
    assert pzprv3.write(family, puzzle, answer) == expected


def test_version_3_1_skips_the_cell_colours() -> None:
    # pzprjs test/script/slither.js: a line drawn through the mouse on an empty 1 x 5 board.
    text = "pzprv3.1/slither/1/5/. . . . . /0 0 0 0 0 /0 1 0 0 0 0 /1 0 0 0 0 /0 1 0 0 0 /"
    with pytest.raises(InputError):  # a one-row Slitherlink is no puzzle for dlxsat
        pzprv3.read("slitherlink", text)
    two = "pzprv3.1/slither/2/2/. . /. 1 /0 0 /0 0 /1 0 0 /0 0 1 /1 0 /0 0 /0 1 /"
    puzzle, answer = pzprv3.parse("slitherlink", two)
    assert puzzle.rows == ("..", ".1")
    assert answer == {"edges": [[0, 1], [1, 0], [3, 4], [4, 3]]}


@pytest.mark.parametrize(
    ("family", "text", "fragment"),
    [
        ("slitherlink", "pzprv3.1/slither/2/3/f/. . . /. . . /", "rule flag 'f'"),
        ("masyu", "pzprv3/slither/2/2/. . /. . /", "is slitherlink, not masyu"),
        ("masyu", "pzprv3/lits/2/2/", "not one dlxsat reads"),
        ("masyu", "pzprv3/mashu/2/2/. 3 /. . /0 /0 /0 0 /", "'3' is not . (none), 1"),
        ("masyu", "pzprv3/mashu/2/2/. 1 /. . /0 /0 /", "ends before its lines between rows"),
        ("masyu", "pzprv3/mashu/2/2/. 1 /. . /0 /", "ends before its lines between columns"),
        ("masyu", "pzprv3/mashu/2/x/", "no number of columns"),
        ("slitherlink", "pzprv3/slither/2/2/. 5 /. . /", "'5' is not a clue"),
        ("sudoku", "pzprv3/sudoku/4/. 1 . /", "3 values in its givens, not 4"),
        ("sudoku", "pzprv3/sudoku/4/. 1 . . /. . . 2 /3 . . . /. . 3 9 /", "'9' is not 1-4"),
        ("masyu", "pzprv4/mashu/2/2/", "not a pzprv3 file"),
    ],
)
def test_bad_files_are_one_line_errors(family: str, text: str, fragment: str) -> None:
    with pytest.raises(InputError) as e:
        pzprv3.read(family, text)
    assert fragment in str(e.value) and "\n" not in str(e.value)


def test_a_file_of_the_problem_alone() -> None:
    puzzle, answer = pzprv3.parse("masyu", "pzprv3\nmashu\n2\n2\n1 . \n. 2 \n")
    assert puzzle.rows == ("0.", ".1") and answer is None


def test_convert_with_answer(tmp_path, capsys) -> None:
    source = ROOT / "puzzles/masyu/tatham-10x10.txt"
    out_file = tmp_path / "solved.txt"
    argv = ["convert", "masyu", str(source), "--to", "pzprv3", "--with-answer", "-o"]
    assert main([*argv, str(out_file)]) == 0
    written = out_file.read_text()
    assert written.startswith("pzprv3\nmashu\n10\n10\n")
    expected = dlxsat.solve("masyu", source.read_text()).solutions[0]
    assert pzprv3.answer("masyu", None, written) == expected
    # Read back as any puzzle file: the same board.
    assert formats.read("masyu", written).rows == formats.read("masyu", source.read_text()).rows
    capsys.readouterr()
    code = main(["convert", "masyu", str(source), "--to", "puzzlink", "--with-answer"])
    out, err = capsys.readouterr()
    assert (code, out) == (2, "") and "holds only the problem" in err and "--to pzprv3" in err
    assert err.count("\n") == 1
    # The corpus's answer grid (the notation of the public puzzlekit corpus) holds it too.
    assert main(["convert", "masyu", str(source), "--to", "grid", "--with-answer"]) == 0
    out, _ = capsys.readouterr()
    assert out.startswith("10 10\n")
    assert formats.read_answer("masyu", formats.read("masyu", source.read_text()), out) == expected


def test_convert_with_answer_of_a_puzzle_without_one(tmp_path, capsys) -> None:
    source = tmp_path / "none.txt"
    source.write_text("11\n11\n")  # four black circles side by side: no loop
    code = main(["convert", "masyu", str(source), "--to", "pzprv3", "--with-answer"])
    out, err = capsys.readouterr()
    assert (code, out) == (2, "") and "no answer" in err


# ---------------------------------------------------------------------------------------------
# Round trips


def boards(alphabet: str, low: int = 2, high: int = 9):
    return st.integers(low, high).flatmap(
        lambda m: st.integers(low, high).flatmap(
            lambda n: st.lists(st.text(alphabet, min_size=n, max_size=n), min_size=m, max_size=m)
        )
    )


def edge_sets(m: int, n: int, offset: int):
    rows, cols = 2 * (m - 1 + offset), 2 * (n - 1 + offset)
    edge = st.tuples(st.integers(0, rows), st.integers(0, cols)).filter(
        lambda e: (e[0] + e[1]) % 2 == 1
    )
    return st.lists(edge, unique=True, max_size=12).map(lambda es: sorted(map(list, es)))


@settings(max_examples=60, deadline=None)
@given(rows=boards(".01"), data=st.data(), one_line=st.booleans())
def test_masyu_round_trips(rows: list[str], data, one_line: bool) -> None:
    puzzle = get_spec("masyu").read("".join(r + "\n" for r in rows))
    edges = data.draw(edge_sets(len(rows), len(rows[0]), 0))
    text = formats.write("masyu", puzzle, "pzprv3", {"edges": edges} if edges else None)
    if one_line:  # as pzprjs's tests write files
        text = text.replace("\n", "/")
    assert formats.read("masyu", text).rows == tuple(rows)
    assert pzprv3.answer("masyu", None, text) == ({"edges": edges} if edges else None)


@settings(max_examples=60, deadline=None)
@given(rows=boards(".01234"), data=st.data())
def test_slitherlink_round_trips(rows: list[str], data) -> None:
    puzzle = get_spec("slitherlink").read("".join(r + "\n" for r in rows))
    edges = data.draw(edge_sets(len(rows), len(rows[0]), 1))
    text = formats.write("slitherlink", puzzle, "pzprv3", {"edges": edges} if edges else None)
    assert formats.read("slitherlink", text).rows == tuple(rows)
    assert pzprv3.answer("slitherlink", None, text) == ({"edges": edges} if edges else None)


@settings(max_examples=40, deadline=None)
@given(n=st.sampled_from([4, 6, 8, 9, 16]), data=st.data())
def test_sudoku_round_trips(n: int, data) -> None:
    digits = sudoku.CHARS[1 : n + 1]
    cells = data.draw(st.lists(st.sampled_from(digits + "." * n), min_size=n * n, max_size=n * n))
    givens = ["".join(cells[i * n : (i + 1) * n]) for i in range(n)]
    try:
        puzzle = sudoku.read(sudoku.write_rows(givens, [sudoku.box_group(n, *box_shape(n))]))
    except InputError:
        return  # a clue repeated in a row, column or box: not a puzzle
    grid = data.draw(st.lists(st.sampled_from(digits), min_size=n * n, max_size=n * n))
    rows = ["".join(grid[i * n : (i + 1) * n]) for i in range(n)]
    answer = {
        "grid": [
            "".join(
                sudoku.CHARS[puzzle.clues[i, j]] if (i, j) in puzzle.clues else c
                for j, c in enumerate(row)
            )
            for i, row in enumerate(rows)
        ]
    }
    text = formats.write("sudoku", puzzle, "pzprv3", answer)
    back = formats.read("sudoku", text)
    assert back.givens == puzzle.givens and back.groups == puzzle.groups
    assert pzprv3.answer("sudoku", None, text) == answer
