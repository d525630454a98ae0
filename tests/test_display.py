"""Notebook display: puzzles, solve reports and problems called as Jupyter calls them
(``_repr_svg_``, ``_repr_html_``), their output parsed back and checked."""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

import pytest
from conftest import ROOT

import dlxsat
from dlxsat.display import NO_PICTURES, board_text
from dlxsat.families import get_spec
from dlxsat.pipeline import SolveReport, prepare
from dlxsat.xcc.summary import problem_html

SVG = "{http://www.w3.org/2000/svg}"

PUZZLES = {
    "masyu": "puzzles/masyu/tatham-10x10.txt",
    "slitherlink": "puzzles/slitherlink/tatham-5x5-1.txt",
    "superslitherlink": "puzzles/superslitherlink/pi-day-2025.txt",
    "sudoku": "puzzles/sudoku/puzzlium-A.txt",
}


class Html(HTMLParser):
    """Tags and the text of a fragment of HTML, and its table as {header: cell text}."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.rows: dict[str, str] = {}
        self.text = ""
        self._th: str | None = None
        self._key: str | None = None
        self._td: str | None = None
        self.feed(text)
        self.close()

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self.tags.append(tag)
        if tag == "th":
            self._th = ""
        elif tag == "td":
            self._td = ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "th" and self._th is not None:
            self._key, self._th = self._th, None
        elif tag == "td" and self._td is not None and self._key is not None:
            self.rows[self._key] = self._td
            self._td = None

    def handle_data(self, data: str) -> None:
        self.text += data
        if self._th is not None:
            self._th += data
        if self._td is not None:
            self._td += data


def svg_root(text: str | None) -> ET.Element:
    assert text is not None and text.lstrip().startswith("<svg")
    root = ET.fromstring(text)
    assert root.tag == SVG + "svg"
    return root


def texts(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(SVG + "text")]


def loop_group(root: ET.Element) -> ET.Element | None:
    return next((g for g in root.iter(SVG + "g") if g.get("id") == "loop"), None)


def read(family: str):
    return get_spec(family).read((ROOT / PUZZLES[family]).read_text())


@pytest.mark.parametrize("family", list(PUZZLES))
def test_puzzle_shows_its_board(family: str) -> None:
    puzzle = read(family)
    root = svg_root(puzzle._repr_svg_())
    assert loop_group(root) is None  # no answer on a puzzle's own picture
    if family == "sudoku":
        expected = sorted(puzzle.digits[d - 1] for d in puzzle.clues.values())
        assert sorted(texts(root)) == expected
    elif family == "slitherlink":
        assert sorted(texts(root)) == sorted(c for row in puzzle.rows for c in row if c != ".")
    assert puzzle._repr_html_() is None  # Jupyter then shows the SVG


@pytest.mark.parametrize("family", list(PUZZLES))
def test_without_matplotlib_a_text_board(family: str, monkeypatch) -> None:
    puzzle = read(family)
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import fails as if not installed
    assert puzzle._repr_svg_() is None
    page = Html(puzzle._repr_html_())
    assert "pre" in page.tags and NO_PICTURES in page.text
    assert board_text(family, puzzle) in page.text


def test_report_shows_figures_and_answer() -> None:
    text = (ROOT / PUZZLES["masyu"]).read_text()
    report = dlxsat.solve("masyu", text, backend="sat")
    assert report.puzzle == prepare("masyu", text).puzzle
    page = Html(report._repr_html_())
    assert page.rows["family"] == "masyu" and page.rows["status"] == "unique"
    assert page.rows["count"] == "1" and page.rows["backend"] == "sat"
    assert page.rows["stats: variables"] == str(report.stats["variables"])
    assert "svg" in page.tags
    root = svg_root(report._repr_svg_())
    loop = loop_group(root)
    assert loop is not None and len(list(loop.iter(SVG + "path"))) == 1
    # The repr stays the dataclass's, without the puzzle.
    assert "puzzle=" not in repr(report)


def test_sudoku_report_draws_every_digit() -> None:
    text = (ROOT / PUZZLES["sudoku"]).read_text()
    report = dlxsat.solve("sudoku", text, backend="dlx")
    root = svg_root(report._repr_svg_())
    grid = report.solutions[0]["grid"]
    assert sorted(texts(root)) == sorted(c for row in grid for c in row if c != "#")


def test_report_without_matplotlib_or_puzzle(monkeypatch) -> None:
    text = (ROOT / PUZZLES["slitherlink"]).read_text()
    report = dlxsat.solve("slitherlink", text, backend="sat", mode="count")
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    assert report._repr_svg_() is None
    page = Html(report._repr_html_())
    assert page.rows["status"] == "counted" and "pre" in page.tags
    assert "No answer to show" in page.text  # count mode keeps no answers
    by_hand = SolveReport("masyu", "sat", "timeout", None, [], 1.5)
    assert by_hand._repr_svg_() is None
    page = Html(by_hand._repr_html_())
    assert page.rows["count"] == "unknown" and "svg" not in page.tags and "pre" not in page.tags


def test_report_of_many_answers_says_which_is_shown() -> None:
    # A 4 x 4 Latin square with one clue has many answers; 'all' keeps them.
    report = dlxsat.solve("sudoku", "1...\n....\n....\n....\n", backend="dlx", mode="all")
    assert len(report.solutions) > 1
    assert f"The first of {len(report.solutions)} answers" in Html(report._repr_html_()).text


def test_problem_summary() -> None:
    text = (ROOT / PUZZLES["masyu"]).read_text()
    problem = dlxsat.parse_dlx(dlxsat.encode("masyu", text))
    page = Html(problem._repr_html_())
    primary = sum(it.primary for it in problem.items)
    assert page.rows["kind"] == "XCC"
    assert page.rows["primary items"] == str(primary)
    assert page.rows["secondary items"] == str(len(problem.items) - primary)
    assert page.rows["options"] == str(len(problem.options))
    assert page.rows["entries (item uses)"] == str(sum(map(len, problem.options)))
    assert page.rows["colours"].startswith("2: 0 (")
    assert page.rows["multiplicities"].startswith("none")
    assert page.rows["first primary items"].startswith(" ".join(i.name for i in problem.items[:8]))
    first = page.rows["first options"]
    assert problem.option_text(0) in first and f"({len(problem.options) - 8} more)" in first


def test_problem_with_multiplicities() -> None:
    text = (ROOT / PUZZLES["superslitherlink"]).read_text()
    problem = prepare("superslitherlink", text).problem
    page = Html(problem_html(problem, shown=100))
    bounded = [it for it in problem.items if it.primary and (it.lo, it.hi) != (1, 1)]
    assert page.rows["kind"] == "MCC" and bounded
    listed = page.rows["multiplicities"]
    assert listed.startswith(f"{len(bounded)} items: ")
    for it in bounded:
        spelled = f"{it.hi}|{it.name}" if it.lo == it.hi else f"{it.lo}:{it.hi}|{it.name}"
        assert spelled in listed.split()
