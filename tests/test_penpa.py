"""Penpa+ URLs: real ones from public code read, solved and checked against the answers their
authors published; variants refused; every puzzle and answer written and read back."""

from __future__ import annotations

import base64
import json
import zlib

import pytest
from conftest import ROOT
from hypothesis import given, settings
from hypothesis import strategies as st

import dlxsat
from dlxsat import formats
from dlxsat.cli import main
from dlxsat.errors import InputError
from dlxsat.families import get_spec, sudoku
from dlxsat.formats import penpa

CASES = json.loads((ROOT / "tests/data/penpa/cases.json").read_text())


def board(puzzle) -> tuple:
    """What a puzzle is, to compare (sudoku puzzles compare by identity)."""
    if hasattr(puzzle, "givens"):
        return (tuple(puzzle.givens), tuple(puzzle.groups))
    return puzzle.rows


def urls(family: str) -> list[str]:
    return (ROOT / f"puzzles/penpa/{family}.txt").read_text().split()


@pytest.mark.parametrize("family", ["masyu", "slitherlink", "sudoku"])
def test_published_urls_solve_uniquely(family: str) -> None:
    for url in urls(family):
        assert formats.detect(family, url) == "penpa"
        report = dlxsat.solve(family, url, backend="sat")
        assert report.status == "unique", url[:40]


@pytest.mark.parametrize("case", CASES["answers"], ids=lambda c: f"{c['family']}-{c['line']}")
def test_answers_published_with_the_urls_are_ours(case: dict) -> None:
    family, url = case["family"], urls(case["family"])[case["line"] - 1]
    published = penpa.answer(family, None, case["url"])
    assert published is not None
    # The answer URL holds the same puzzle as the puzzle URL, and its answer is dlxsat's.
    assert board(penpa.read(family, case["url"])) == board(penpa.read(family, url))
    assert dlxsat.solve(family, url).solutions == [published]
    assert penpa.answer(family, None, url) is None  # the puzzle URL has no answer drawn


@pytest.mark.parametrize("twin", CASES["puzzlink_twins"], ids=lambda t: str(t["line"]))
def test_penpa_and_puzzlink_urls_of_one_slitherlink_agree(twin: dict) -> None:
    url = urls("slitherlink")[twin["line"] - 1]
    assert penpa.read("slitherlink", url).rows == formats.read("slitherlink", twin["puzzlink"]).rows


def test_the_jigsaw_sudoku_has_its_drawn_regions() -> None:
    jigsaw = penpa.read("sudoku", urls("sudoku")[1])
    assert jigsaw.n == 5 and len(jigsaw.groups) == 1
    regions = {c: [] for c in set("".join(jigsaw.groups[0]))}
    for i, row in enumerate(jigsaw.groups[0]):
        for j, c in enumerate(row):
            regions[c].append((i, j))
    assert sorted(map(len, regions.values())) == [5] * 5
    assert jigsaw.groups[0] != tuple(sudoku.box_group(5, 1, 5))  # not rows: drawn regions


@pytest.mark.parametrize("case", CASES["refused"], ids=lambda c: c["message"])
def test_variants_and_other_grids_are_refused(case: dict, capsys, tmp_path) -> None:
    with pytest.raises(InputError) as e:
        formats.read(case["family"], case["url"])
    assert case["message"] in str(e.value)
    path = tmp_path / "u.txt"
    path.write_text(case["url"] + "\n")
    code = main(["solve", case["family"], str(path)])
    out, err = capsys.readouterr()
    assert (code, out) == (2, "") and err.count("\n") == 1 and case["message"] in err


def test_every_form_of_the_address_is_read() -> None:
    fragment = urls("masyu")[0]
    assert fragment.startswith("m=edit&p=")
    board = penpa.read("masyu", fragment)
    for url in (
        "https://swaroopg92.github.io/penpa-edit/#" + fragment,
        "https://opt-pan.github.io/penpa-edit/?" + fragment,
        "https://swaroopg92.github.io/penpa-edit/#" + fragment.replace("+", "%2B"),
        "  https://swaroopg92.github.io/penpa-edit/#" + fragment.rstrip("=") + "  \n",
    ):
        assert formats.detect("masyu", url) == "penpa"
        assert formats.read("masyu", url) == board
    assert formats.detect("masyu", "https://puzz.link/p?mashu/6/6/1063000i3000") == "puzzlink"


def _url(text: str) -> str:
    return penpa.URL_BASE + penpa.encode_payload(text)


@pytest.mark.parametrize(
    ("family", "url", "fragment"),
    [
        ("masyu", "https://swaroopg92.github.io/penpa-edit/#m=edit&p=!!!", "not base64"),
        ("masyu", penpa.URL_BASE + base64.b64encode(b"plain").decode(), "not compressed"),
        ("masyu", _url("square,3,3\n[0,0,0,0]\n{}\n{broken\n{}\n"), "damaged"),
        ("masyu", _url("hex,3,3\n[0]\n{}\n{}\n{}\n"), "'hex' grid"),
        (
            "masyu",
            _url("square,3,3\n[0,0,0,0]\n{}\n" + '{zY:{"0":[1,"circle_L",1]}}\n{}\n'),
            "outside the board",
        ),
        (
            "masyu",
            _url("square,3,3\n[0,0,0,0]\n{}\n" + '{zY:{"60":[1,"circle_L",1]}}\n{}\n'),
            "not in a cell",
        ),
        (
            "masyu",
            _url("square,3,3\n[0,0,0,0]\n{}\n" + '{zY:{"16":[5,"circle_L",1]}}\n{}\n'),
            "style 5",
        ),
        ("masyu", _url("square,3,3\n[0,0,0,0]\n{}\n" + '{zN:{"16":["1",1,"1"]}}\n{}\n'), "numbers"),
        (
            "slitherlink",
            _url("square,3,3\n[0,0,0,0]\n{}\n" + '{zN:{"16":["7",1,"1"]}}\n{}\n'),
            "not 0-4",
        ),
        ("sudoku", _url("sudoku,4,3\n[0,0,0,0]\n{}\n{}\n{}\n"), "square"),
        (
            "sudoku",
            _url("sudoku,4,4\n[0,0,0,0]\n{}\n" + '{zN:{"18":["5",1,"1"]}}\n{}\n'),
            "not 1-4",
        ),
        ("masyu", _url("1,2,3\n"), "first version"),
        ("masyu", _url("square,3,3\n"), "cut short"),
    ],
)
def test_bad_urls_are_one_line_errors(family: str, url: str, fragment: str) -> None:
    with pytest.raises(InputError) as e:
        penpa.read(family, url)
    assert fragment in str(e.value) and "\n" not in str(e.value)


def test_a_sudoku_whose_lines_do_not_make_regions() -> None:
    q = penpa._empty_layer()
    nx0 = 8
    point = lambda i, j: nx0 * nx0 + nx0 * (i + 1) + j + 1  # noqa: E731
    q["lineE"][f"{point(0, 1)},{point(1, 1)}"] = 2  # one short wall: no region of 4 cells
    text = "sudoku,4,4\n[0,0,0,0]\n{}\n" + json.dumps(q) + "\n{}\n"
    with pytest.raises(InputError, match="not 4 regions of 4"):
        penpa.read("sudoku", _url(penpa.abbreviate(text)))


# ---------------------------------------------------------------------------------------------
# Round trips


#: Pieces that make up texts hard for the abbreviations: a literal z, the codes after it, and
#: the words that get abbreviated.
PIECES = ["z", "Z", "9", "N", "O", '"', "q", "a", "_", "number", '"number"', '"qa"', "null"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(PIECES + ['"__a"', '"lineE"', '"line"'])).map("".join))
def test_abbreviations_round_trip(text: str) -> None:
    assert penpa.unabbreviate(penpa.abbreviate(text)) == text


def boards(alphabet: str, low: int = 2, high: int = 9):
    return st.integers(low, high).flatmap(
        lambda m: st.integers(low, high).flatmap(
            lambda n: st.lists(st.text(alphabet, min_size=n, max_size=n), min_size=m, max_size=m)
        )
    )


def edge_sets(m: int, n: int, offset: int):
    """Any sets of edges of an m x n board (``offset`` 0: between cells; 1: along the grid)."""
    rows, cols = 2 * (m - 1 + offset), 2 * (n - 1 + offset)
    edge = st.tuples(st.integers(0, rows), st.integers(0, cols)).filter(
        lambda e: (e[0] + e[1]) % 2 == 1
    )
    return st.lists(edge, unique=True, max_size=12).map(lambda es: sorted(map(list, es)))


@settings(max_examples=60, deadline=None)
@given(rows=boards(".01"), data=st.data())
def test_masyu_round_trips_with_an_answer(rows: list[str], data) -> None:
    puzzle = get_spec("masyu").read("".join(r + "\n" for r in rows))
    edges = data.draw(edge_sets(len(rows), len(rows[0]), 0))
    url = formats.write("masyu", puzzle, "penpa", {"edges": edges} if edges else None)
    assert formats.detect("masyu", url) == "penpa"
    assert formats.read("masyu", url).rows == tuple(rows)
    assert penpa.answer("masyu", None, url) == ({"edges": edges} if edges else None)


@settings(max_examples=60, deadline=None)
@given(rows=boards(".01234"), data=st.data())
def test_slitherlink_round_trips_with_an_answer(rows: list[str], data) -> None:
    puzzle = get_spec("slitherlink").read("".join(r + "\n" for r in rows))
    edges = data.draw(edge_sets(len(rows), len(rows[0]), 1))
    url = formats.write("slitherlink", puzzle, "penpa", {"edges": edges} if edges else None)
    assert formats.read("slitherlink", url).rows == tuple(rows)
    assert penpa.answer("slitherlink", None, url) == ({"edges": edges} if edges else None)


@settings(max_examples=40, deadline=None)
@given(
    n=st.sampled_from([4, 6, 8, 9]),
    diagonals=st.sampled_from([(), ("a",), ("b",), ("a", "b")]),
    data=st.data(),
)
def test_sudoku_round_trips_with_an_answer(n: int, diagonals: tuple, data) -> None:
    cells = data.draw(
        st.lists(st.sampled_from(sudoku.CHARS[1 : n + 1] + "." * n), min_size=n * n, max_size=n * n)
    )
    givens = ["".join(cells[i * n : (i + 1) * n]) for i in range(n)]
    groups = [sudoku.box_group(n, *sudoku.standard_box_shape(n))]
    if "a" in diagonals:
        groups.append(["".join("a" if j == i else "." for j in range(n)) for i in range(n)])
    if "b" in diagonals:
        groups.append(["".join("b" if j == n - 1 - i else "." for j in range(n)) for i in range(n)])
    try:
        puzzle = sudoku.read(sudoku.write_rows(givens, groups))
    except InputError:
        return  # a clue repeated in a row, column or box: not a puzzle
    grid = data.draw(
        st.lists(st.sampled_from(sudoku.CHARS[1 : n + 1]), min_size=n * n, max_size=n * n)
    )
    answer = {"grid": ["".join(grid[i * n : (i + 1) * n]) for i in range(n)]}
    for (i, j), d in puzzle.clues.items():  # an answer keeps the clues
        row = answer["grid"][i]
        answer["grid"][i] = row[:j] + sudoku.CHARS[d] + row[j + 1 :]
    url = formats.write("sudoku", puzzle, "penpa", answer)
    back = formats.read("sudoku", url)
    assert back.givens == puzzle.givens
    assert {frozenset(c) for c in back.boxes.values()} == {
        frozenset(c) for c in puzzle.boxes.values()
    }
    assert penpa.answer("sudoku", None, url) == answer


def test_the_published_jigsaw_round_trips() -> None:
    jigsaw = penpa.read("sudoku", urls("sudoku")[1])
    back = penpa.read("sudoku", formats.write("sudoku", jigsaw, "penpa"))
    assert back.givens == jigsaw.givens and back.groups == jigsaw.groups


def test_convert_with_answer_opens_solved(tmp_path, capsys) -> None:
    source = ROOT / "puzzles/slitherlink/tatham-5x5-1.txt"
    code = main(["convert", "slitherlink", str(source), "--to", "penpa", "--with-answer"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert out.startswith(penpa.URL_BASE) and out.count("\n") == 1
    assert (
        penpa.answer("slitherlink", None, out)
        == dlxsat.solve("slitherlink", source.read_text()).solutions[0]
    )
    # The payload is Penpa+'s: raw DEFLATE of its lines, the abbreviations applied.
    text = zlib.decompress(base64.b64decode(out.split("p=", 1)[1]), -15).decode()
    assert text.startswith("square,5,5,") and "zN:" in text and '"number"' not in text
