"""Pictures of answers (dlxsat.pictures): SVG and PNG files of every family, checked as files."""

from __future__ import annotations

import builtins
import os
import xml.etree.ElementTree as ET

import pytest
from conftest import ROOT

from dlxsat import pictures
from dlxsat.errors import InputError
from dlxsat.pipeline import prepare, solve

SVG = "{http://www.w3.org/2000/svg}"
PUZZLES = ROOT / "puzzles"
#: Every family, and every kind of board of each (holes, X-sudoku groups, rectangular boxes,
#: letter regions, boards beyond Knuth's one-digit names).
SAMPLES = [
    ("masyu", "masyu/tatham-10x10.txt"),
    ("masyu", "masyu/tatham-18x10.txt"),
    ("slitherlink", "slitherlink/tatham-5x5-1.txt"),
    ("slitherlink", "slitherlink/tatham-10x10-2.txt"),
    ("superslitherlink", "superslitherlink/pi-day-2025.txt"),
    ("sudoku", "sudoku/puzzlium-A.txt"),
    ("sudoku", "sudoku/tatham-6x6-1.txt"),
    ("sudoku", "sudoku/tatham-9x9-x-1.txt"),
]


def solved(family: str, name: str):
    prep = prepare(family, (PUZZLES / name).read_text())
    report = solve(family, prep.puzzle, backend="sat")
    assert report.status == "unique"
    return prep.puzzle, report.solutions[0]


def expected_texts(family: str, puzzle) -> int:
    """One text per digit or clue drawn."""
    if family == "sudoku":
        return puzzle.n * puzzle.n - len(puzzle.holes)
    if family == "masyu":
        return 0
    return sum(ch != "." for row in puzzle.rows for ch in row)


@pytest.mark.parametrize("family, name", SAMPLES)
def test_svg_holds_one_loop_path_and_one_text_per_digit(tmp_path, family, name):
    puzzle, answer = solved(family, name)
    out = tmp_path / "a.svg"
    pictures.save_picture(family, puzzle, answer, str(out), "svg")
    root = ET.parse(out).getroot()
    texts = root.findall(f".//{SVG}text")
    assert len(texts) == expected_texts(family, puzzle)
    loops = [g for g in root.iter(f"{SVG}g") if g.get("id") == "loop"]
    if family == "sudoku":
        assert loops == []
        assert sorted(t.text for t in texts) == sorted(
            c for row in answer["grid"] for c in row if c != "#"
        )
    else:
        assert len(loops) == 1 and len(loops[0].findall(f"{SVG}path")) == 1
        # The path visits every loop edge: one move per edge, and closes.
        d = loops[0].find(f"{SVG}path").get("d")
        assert d.count("L") == len(answer["edges"])


@pytest.mark.parametrize("family, name", SAMPLES[::2] + [SAMPLES[-1]])
def test_png_loads_with_the_size_of_the_board(tmp_path, family, name):
    import matplotlib.image as mpimg

    puzzle, answer = solved(family, name)
    out = tmp_path / "a.png"
    pictures.save_picture(family, puzzle, answer, str(out), "png")
    h, w = mpimg.imread(out).shape[:2]
    assert (w, h) == pictures.picture_size(family, puzzle)
    rows, cols = pictures.board_cells(family, puzzle)
    assert w == (cols + 1) * pictures.CELL_PX and h == (rows + 1) * pictures.CELL_PX


def test_large_boards_get_smaller_cells():
    prep = prepare("slitherlink", "." * 150 + "\n" + "." * 150 + "\n")
    w, h = pictures.picture_size("slitherlink", prep.puzzle)
    assert w <= pictures.MAX_PX and pictures.cell_pixels("slitherlink", prep.puzzle) < 40


def test_a_failed_save_leaves_no_file_and_no_temporary(tmp_path, monkeypatch):
    from matplotlib.figure import Figure

    puzzle, answer = solved("masyu", "masyu/tatham-10x10.txt")

    def broken(self, f, **kw):
        f.write(b"<svg half")
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(Figure, "savefig", broken)
    with pytest.raises(RuntimeError):
        pictures.save_picture("masyu", puzzle, answer, str(tmp_path / "a.svg"), "svg")
    assert os.listdir(tmp_path) == []
    with pytest.raises(InputError, match="no such directory"):
        pictures.save_picture("masyu", puzzle, answer, str(tmp_path / "x" / "a.svg"), "svg")


def test_without_matplotlib_the_error_is_one_line(tmp_path, monkeypatch):
    real = builtins.__import__

    def no_matplotlib(name, *args, **kw):
        if name.startswith("matplotlib"):
            raise ImportError(name)
        return real(name, *args, **kw)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    puzzle, answer = solved("slitherlink", "slitherlink/tatham-5x5-1.txt")
    message = r"--png: matplotlib is not installed; run: pip install 'dlxsat\[plot\]'"
    with pytest.raises(InputError, match=message):
        pictures.save_picture("slitherlink", puzzle, answer, str(tmp_path / "a.png"), "png")
    assert os.listdir(tmp_path) == []


def test_solve_and_decode_draw_from_the_command_line(tmp_path, capfd):
    from dlxsat import cli

    src = PUZZLES / "slitherlink" / "tatham-5x5-1.txt"
    svg, png = tmp_path / "s.svg", tmp_path / "s.png"
    assert cli.main(["solve", "slitherlink", str(src), "--svg", str(svg), "--quiet"]) == 0
    assert ET.parse(svg).getroot().tag == f"{SVG}svg"
    cnf, model = tmp_path / "p.cnf", tmp_path / "model.txt"
    assert cli.main(["export", "dimacs", "slitherlink", str(src), "-o", str(cnf)]) == 0
    from pysat.formula import CNF
    from pysat.solvers import Solver

    with Solver(name="cadical195", bootstrap_with=CNF(from_file=str(cnf)).clauses) as s:
        assert s.solve()
        model.write_text("s SATISFIABLE\nv " + " ".join(map(str, s.get_model())) + " 0\n")
    capfd.readouterr()
    assert cli.main(["decode", "slitherlink", str(src), str(model), "--png", str(png)]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    capfd.readouterr()
    assert (
        cli.main(["solve", "slitherlink", str(src), "--svg", str(tmp_path / "no" / "a.svg")]) == 2
    )
    out, err = capfd.readouterr()
    assert out == "" and err.count("\n") == 1 and "no such directory" in err
