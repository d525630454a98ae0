"""Puzzle formats (dlxsat.formats): puz.link URLs, Tatham ids, spaced grids, one-line Sudokus,
files of many puzzles -- on published examples, round trips and malformed input."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import GOLDEN, ROOT, golden_cases
from hypothesis import given, settings
from hypothesis import strategies as st

import dlxsat
from dlxsat import formats, pipeline
from dlxsat.errors import InputError
from dlxsat.families import get_spec, sudoku
from dlxsat.formats import puzzlink

PUZZLES = ROOT / "puzzles"
PUBLISHED = PUZZLES / "puzzlink"


def knuth(family: str, puzzle) -> str:
    return get_spec(family).write(puzzle)


# ---------------------------------------------------------------------------------------------
# pzprjs's own examples (its test scripts give the board of each URL)


@pytest.mark.parametrize(
    "family, url, board",
    [
        (
            "masyu",
            "https://puzz.link/p?mashu/6/6/1063000i3000",
            "..0...\n.1..0.\n......\n...1..\n.0....\n......\n",
        ),
        (
            "slitherlink",
            "https://puzz.link/p?slither/5/5/cbcbcddad",
            "2..1.\n.2..1\n..2..\n3..3.\n.0..3\n",
        ),
        (
            "sudoku",
            "http://pzv.jp/p.html?sudoku/4/4/g1k23k3g",
            ".1..\n...2\n3...\n..3.\n0011\n0011\n2233\n2233\n",
        ),
    ],
)
def test_pzprjs_examples_decode_to_their_boards(family, url, board):
    assert formats.detect(family, url) == "puzzlink"
    assert knuth(family, formats.read(family, url)) == board
    assert formats.write(family, formats.read(family, board), "puzzlink").endswith(
        url.rsplit("/", 1)[1] + "\n"
    )


def published(family: str) -> list[str]:
    return (PUBLISHED / f"{family}.txt").read_text().split()


@pytest.mark.parametrize("family", ["masyu", "slitherlink", "sudoku"])
def test_published_urls_solve_uniquely_and_encode_back_byte_for_byte(family):
    urls = published(family)
    reports = list(pipeline.solve_many(family, urls, backend="sat"))
    assert [r.status for r in reports] == ["unique"] * len(urls)
    for url in urls:
        again = formats.write(family, formats.read(family, url), "puzzlink").strip()
        if url.endswith("gch1222ch331bg222"):
            # Made by another encoder: pzprjs writes a clue in the last cell as c (2 + 10).
            assert again.endswith("gch1222ch331bg22c")
        else:
            assert again.rsplit("/", 1)[1] == url.rsplit("/", 1)[1]


def test_a_published_board_of_45_by_31():
    url = published("slitherlink")[-1]
    p = formats.read("slitherlink", url)
    assert (p.m, p.n) == (31, 45) and p.wide


def test_the_variant_prefix_and_aliases_are_read():
    a = formats.read(
        "masyu", "https://puzz.link/p?mashu/v:/10/10/000000060i23601000000001i200f90000"
    )
    b = formats.read("masyu", "puzz.link/p?pearl_edit/10/10/000000060i23601000000001i200f90000/")
    assert a.rows == b.rows and sum(r.count("1") for r in a.rows) == 7


@pytest.mark.parametrize(
    "family, url, fragment",
    [
        ("masyu", "https://puzz.link/p?mashu/3/3/00z", "base-27"),
        ("masyu", "https://puzz.link/p?mashu/3/3/0000", "more than its cells need"),
        ("masyu", "https://puzz.link/p?mashu/f/3/3/000", "flags 'f'"),
        ("masyu", "https://puzz.link/p?slither/3/3/000", "URL of slitherlink (type 'slither')"),
        ("masyu", "https://puzz.link/p?nurikabe2/3/3/000", "not a genre dlxsat reads"),
        ("masyu", "https://puzz.link/p?mashu/3", "no COLS/ROWS"),
        ("slitherlink", "https://puzz.link/p?slither/2/2/5f", "'f'"),
        ("slitherlink", "https://puzz.link/p?slither/2/2/0000z", "more than its cells need"),
        ("sudoku", "https://puzz.link/p?sudoku/4/6/g1", "square"),
        ("sudoku", "https://puzz.link/p?sudoku/4/4/5", "not a number 1-4"),
        ("sudoku", "https://puzz.link/p?sudoku/4/4/-1", "needs 2 hex digits"),
        ("sudoku", "https://puzz.link/p?sudoku/4/4/!", "not a number or run"),
        ("aqre", "https://puzz.link/p?aqre/b/3/3/0000g", "flags 'b'"),
        (
            "aqre",
            "pzprv3.1/aqre/3/3/b/0 0 /0 0 /0 0 /1 0 0 /0 0 0 /. . . /. . . /. . . /# # # /",
            "variant 'b'",
        ),
    ],
)
def test_malformed_urls_are_one_line_errors(family, url, fragment):
    with pytest.raises(InputError) as e:
        formats.read(family, url)
    assert fragment in str(e.value) and "\n" not in str(e.value)


# ---------------------------------------------------------------------------------------------
# Knuth's inputs stay Knuth's, byte for byte


def bundled_files() -> list[tuple[str, Path]]:
    folders = {
        "masyu": ["masyu", "masyu-bench"],
        "slitherlink": ["slitherlink", "benchmarks"],
        "superslitherlink": ["superslitherlink"],
        "sudoku": ["sudoku", "sudoku-hard"],
    }
    return [
        (family, f)
        for family, names in folders.items()
        for name in names
        for f in sorted((PUZZLES / name).glob("*.txt"))
    ]


def test_every_golden_and_bundled_knuth_input_is_detected_as_knuth_and_encodes_the_same():
    for case in golden_cases(ok_only=True, registered=True):
        family, text = case["family"], (GOLDEN / case["puzzle"]).read_text()
        assert formats.detect(family, text) == "knuth", case["puzzle"]
        fam = get_spec(family)
        assert dlxsat.encode(family, text) == fam.encode(fam.read(text))
    for family, f in bundled_files():
        assert formats.detect(family, f.read_text()) == "knuth", f


# ---------------------------------------------------------------------------------------------
# Every bundled puzzle to puz.link and back

#: The bundled puzzles puz.link cannot hold, and why.
NO_PUZZLINK = {
    "puzzlium-A.txt": "no holes",
    "tatham-6x6-1.txt": "2 rows x 3 columns",  # its boxes are 3 rows x 2 columns
    "tatham-9x9-x-1.txt": "3 rows x 3 columns and no others",
}


def test_every_bundled_puzzle_converts_to_puzzlink_and_back():
    refused = {}
    for family, f in bundled_files():
        fam = get_spec(family)
        puzzle = fam.read(f.read_text())
        try:
            url = formats.write(family, puzzle, "puzzlink")
        except InputError as e:
            refused[f.name] = str(e)
            continue
        back = formats.read(family, url)
        assert knuth(family, back) == knuth(family, puzzle) or (
            family == "sudoku" and back.clues == puzzle.clues and back.boxes == puzzle.boxes
        ), f
    superslither = [f.name for fam, f in bundled_files() if fam == "superslitherlink"]
    xsudoku = {f.name for fam, f in bundled_files() if "-x-" in f.name}
    assert set(refused) == set(NO_PUZZLINK) | set(superslither) | xsudoku
    for name, why in NO_PUZZLINK.items():
        assert why in refused[name]
    for family in ("masyu", "slitherlink", "sudoku"):
        for url in published(family):
            again = formats.write(family, formats.read(family, url), "puzzlink")
            assert knuth(family, formats.read(family, again)) == knuth(
                family, formats.read(family, url)
            )


# ---------------------------------------------------------------------------------------------
# Round trips, property-tested


def boards(alphabet: str, low: int = 2, high: int = 12):
    return st.integers(low, high).flatmap(
        lambda m: st.integers(low, high).flatmap(
            lambda n: st.lists(st.text(alphabet, min_size=n, max_size=n), min_size=m, max_size=m)
        )
    )


@settings(max_examples=60, deadline=None)
@given(rows=boards(".01"), fmt=st.sampled_from(["puzzlink", "grid", "knuth"]))
def test_masyu_round_trips(rows, fmt):
    text = "".join(r + "\n" for r in rows)
    puzzle = formats.read("masyu", text, "knuth")
    assert formats.read("masyu", formats.write("masyu", puzzle, fmt)).rows == tuple(rows)


@settings(max_examples=60, deadline=None)
@given(rows=boards("....01234"), fmt=st.sampled_from(["puzzlink", "grid", "knuth"]))
def test_slitherlink_round_trips(rows, fmt):
    text = "".join(r + "\n" for r in rows)
    puzzle = formats.read("slitherlink", text, "knuth")
    assert formats.read("slitherlink", formats.write("slitherlink", puzzle, fmt)).rows == tuple(
        rows
    )


@st.composite
def sudokus(draw, sizes=(4, 6, 8, 9, 10, 12, 16)):
    """A board of standard boxes with some clues that break no row or column rule (boxes
    may be broken: the formats carry clues, not solutions)."""
    n = draw(st.sampled_from(sizes))
    cells = draw(
        st.lists(
            st.tuples(st.integers(0, n - 1), st.integers(0, n - 1), st.integers(1, n)),
            max_size=n * 2,
        )
    )
    grid = [["."] * n for _ in range(n)]
    for i, j, d in cells:
        if all(sudoku.CHARS[d] not in (grid[i][k], grid[k][j]) for k in range(n)):
            grid[i][j] = sudoku.CHARS[d]
    return n, ["".join(r) for r in grid]


@settings(max_examples=60, deadline=None)
@given(board=sudokus(), fmt=st.sampled_from(["grid", "oneline", "puzzlink"]))
def test_sudoku_round_trips(board, fmt):
    n, givens = board
    shape = puzzlink.box_shape(n) if fmt == "puzzlink" else sudoku.standard_box_shape(n)
    try:
        group = sudoku.box_group(n, *shape)
        puzzle = sudoku.read(sudoku.write_rows(givens, [group]))
    except InputError:
        return  # a clue twice in a box: not a puzzle any format must hold
    if fmt == "oneline" and n not in (4, 9, 16):
        with pytest.raises(InputError):
            formats.write("sudoku", puzzle, fmt)
        return
    back = formats.read("sudoku", formats.write("sudoku", puzzle, fmt))
    assert back.givens == puzzle.givens and back.boxes == puzzle.boxes


def test_a_jigsaw_sudoku_in_grid_format_round_trips():
    text = "4 4\n1 - - -\n- - - 2\n- - - -\n- 3 - -\n1 1 2 2\n1 3 3 2\n1 3 4 2\n3 4 4 4\n"
    p = formats.read("sudoku", text)
    assert p.groups[0] == ("0011", "0221", "0231", "2333")
    written = formats.write("sudoku", p, "grid")
    assert written.endswith("0 0 1 1\n0 2 2 1\n0 2 3 1\n2 3 3 3\n")
    assert formats.read("sudoku", written).boxes == p.boxes
    with pytest.raises(InputError, match="no others"):
        formats.write("sudoku", p, "puzzlink")


# ---------------------------------------------------------------------------------------------
# The traps of the issue, grids and one-liners


def test_an_81_character_line_is_a_sudoku_with_boxes():
    line = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    r = dlxsat.solve("sudoku", line, backend="sat")
    assert r.status == "unique"
    assert r.solutions[0]["grid"][0] == "417369825"
    with pytest.raises(InputError, match="16, 81 or 256"):
        formats.read("sudoku", line[:-1], "oneline")


def test_spaced_grids_with_and_without_header():
    m = formats.read("masyu", "w - b\n- - -\n")
    assert m.rows == ("0.1", "...")
    s = formats.read("slitherlink", "2 2\n3 -\n- 1\n")
    assert s.rows == ("3.", ".1")
    u = formats.read("sudoku", "6 6\n" + "- - - - - -\n" * 5 + "1 - - - - 6\n")
    assert u.groups[0][0] == "000111" and u.clues[5, 5] == 6


@pytest.mark.parametrize(
    "family, text, fragment",
    [
        ("masyu", "w - x\n- - -\n", "line 1, cell 3"),
        ("masyu", "3 3\nw - b\n- - -\n", "2 rows, not 3"),
        ("slitherlink", "1 - 5\n- - -\n", "'5' is not 0-4 or -"),
        ("slitherlink", "1 - -\n- -\n", "line 2: 2 cells"),
        ("sudoku", "7 7\n" + "- - - - - - -\n" * 7, "no standard boxes"),
        ("sudoku", "1 - - -\n- - - -\n- - - -\n- - - 5\n", "not a number 1-4"),
        ("sudoku", "- - - -\n" * 4 + "1 1 2 2\n" * 4, "region 1 has 8 cells"),
    ],
)
def test_malformed_grids(family, text, fragment):
    with pytest.raises(InputError) as e:
        formats.read(family, text, "grid")
    assert fragment in str(e.value)


def test_tatham_ids_are_accepted_directly():
    p = formats.read("masyu", "3x2:BbaWa")
    assert p.rows == ("1..", ".0.") and formats.detect("masyu", "3x2:BbaWa") == "tatham"


# ---------------------------------------------------------------------------------------------
# Files of many puzzles


def test_read_many_splits_lines_and_blank_separated_records_and_names_the_bad_one():
    urls = "\n".join(published("sudoku")) + "\n"
    assert len(formats.read_many("sudoku", urls)) == 7
    two = "0.\n.1\n\n..\n1.\n"
    assert [p.rows for p in formats.read_many("masyu", two)] == [("0.", ".1"), ("..", "1.")]
    bad = "." * 81 + "\n" + "." * 80 + "x\n"
    with pytest.raises(InputError, match=r"record 2 \(line 2\)"):
        formats.read_many("sudoku", bad)
