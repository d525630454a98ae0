"""Masyu spaced grids with ``1``/``2`` circles (1 white, 2 black), as 113 of the 830 Janko
Masyu of the public puzzlekit data set are written (issue 22, item 4)."""

from __future__ import annotations

import pytest
from conftest import ROOT
from hypothesis import given, settings
from hypothesis import strategies as st

import dlxsat
from dlxsat import formats
from dlxsat.cli import main
from dlxsat.errors import InputError

JANKO = {
    "janko-596-15x12.txt": "janko-596-solution.txt",
    "janko-616-12x12.txt": "janko-616-solution.txt",
}


def solution_edges(text: str) -> list[list[int]]:
    """The data set's answer (a direction pair per cell: ``ns``, ``ew``, ``se``, ...) as loop
    edges in doubled coordinates (docs/conventions.md §4), each from its west or north end."""
    edges = set()
    for i, line in enumerate(text.strip().split("\n")[1:]):
        for j, token in enumerate(line.split()):
            if "s" in token:
                edges.add((2 * i + 1, 2 * j))
            if "e" in token:
                edges.add((2 * i, 2 * j + 1))
    return [list(e) for e in sorted(edges)]


@pytest.mark.parametrize("name", sorted(JANKO))
def test_janko_boards_with_digits_solve_to_janko_answer(name: str) -> None:
    text = (ROOT / "puzzles/masyu-grid" / name).read_text()
    assert formats.detect("masyu", text) == "grid"
    tokens = {t for line in text.split("\n")[1:] for t in line.split()}
    assert tokens <= {"1", "2", "-"} and "2" in tokens  # written with digits only
    report = dlxsat.solve("masyu", text, backend="sat")
    assert report.status == "unique"
    expected = solution_edges((ROOT / "tests/data" / JANKO[name]).read_text())
    assert report.solutions[0]["edges"] == expected


def test_digits_and_letters_mean_the_same() -> None:
    digits = formats.read("masyu", "2 3\n1 - 2\n2 - 1\n")
    letters = formats.read("masyu", "2 3\nw - b\nb - w\n")
    assert digits.rows == letters.rows == ("0.1", "1.0")


def test_a_bad_cell_names_what_is_accepted(capsys, tmp_path) -> None:
    with pytest.raises(InputError) as e:
        formats.read("masyu", "2 3\n1 - 3\n- - -\n", "grid")
    message = str(e.value)
    assert "line 2, cell 3: '3'" in message
    for accepted in ("w or 1 (white)", "b or 2 (black)", "- or . (none)"):
        assert accepted in message
    path = ROOT / "puzzles/masyu-grid/janko-616-12x12.txt"
    bad = tmp_path / "bad.txt"
    head, body = path.read_text().split("\n", 1)
    bad.write_text(head + "\n" + body.replace("2", "x", 1))
    code = main(["solve", "masyu", str(bad)])
    out, err = capsys.readouterr()
    assert (code, out) == (2, "") and err.count("\n") == 1 and "w or 1 (white)" in err


SPELLINGS = {".": ["-", "."], "0": ["w", "W", "1"], "1": ["b", "B", "2"]}


@settings(max_examples=60, deadline=None)
@given(
    rows=st.integers(2, 9).flatmap(
        lambda m: st.integers(2, 9).flatmap(
            lambda n: st.lists(st.text(".01", min_size=n, max_size=n), min_size=m, max_size=m)
        )
    ),
    data=st.data(),
    header=st.booleans(),
)
def test_any_spelling_round_trips(rows: list[str], data, header: bool) -> None:
    """A board written with any mix of spellings reads back as the same board, and dlxsat's own
    grid (letters) reads back too."""
    lines = [" ".join(data.draw(st.sampled_from(SPELLINGS[c])) for c in row) for row in rows]
    # A first line of two numbers is read as the ROWS COLS header ("1 1" is one), so a board
    # whose first row is two white circles spelled 1 needs its header, as the format says.
    first = lines[0].split()
    if (
        header
        or all(len(row) == 1 for row in rows)
        or (len(first) == 2 and all(t.isdigit() for t in first))
    ):
        lines.insert(0, f"{len(rows)} {len(rows[0])}")
    puzzle = formats.read("masyu", "\n".join(lines) + "\n")
    assert puzzle.rows == tuple(rows)
    assert formats.read("masyu", formats.write("masyu", puzzle, "grid")).rows == tuple(rows)
