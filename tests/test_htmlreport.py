"""``dlxsat report --html``: the page's structure, read back with the standard library's parser.

These tests run everywhere (no browser); tests/test_report_browser.py opens the same page in a
headless Chromium and checks that sorting, filtering and the plots work there.
"""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest
from stores import FORTY_SETTINGS, forty_puzzles, record, write_store

from dlxsat.cli import main
from dlxsat.htmlreport import NO_PLOTS, inline_svg

SVG = "{http://www.w3.org/2000/svg}"


class Page(HTMLParser):
    """What a test needs of a page: every start tag with its attributes, the tables' rows
    (each cell as (attributes, text)), the text of the scripts, and the page's text."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.tables: dict[str, dict[str, list]] = {}
        self.scripts: list[str] = []
        self.text: list[str] = []
        self._table: str | None = None
        self._part = "body"
        self._cell: list | None = None
        self._in_script = False
        self.doctype = ""
        self.feed(text)
        self.close()

    def handle_decl(self, decl: str) -> None:
        self.doctype = decl

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        self.tags.append((tag, a))
        if tag == "table":
            self._table = a.get("id") or f"table-{len(self.tables)}"
            self.tables[self._table] = {"head": [], "body": [], "row_attrs": []}
        elif tag in ("thead", "tbody"):
            self._part = "head" if tag == "thead" else "body"
        elif tag == "tr" and self._table:
            self.tables[self._table][self._part].append([])
            if self._part == "body":
                self.tables[self._table]["row_attrs"].append(a)
        elif tag in ("td", "th") and self._table:
            self._cell = [a, ""]
        elif tag == "script":
            self._in_script = True
            self.scripts.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None and self._table:
            self.tables[self._table][self._part][-1].append((self._cell[0], self._cell[1]))
            self._cell = None
        elif tag == "table":
            self._table = None
        elif tag == "script":
            self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script:
            self.scripts[-1] += data
            return
        if self._cell is not None:
            self._cell[1] += data
        self.text.append(data)


@pytest.fixture
def store(tmp_path: Path) -> Path:
    return write_store(tmp_path / "forty.jsonl", forty_puzzles())


def html_report(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["report", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_page_of_forty_puzzles(store: Path, tmp_path: Path, capsys) -> None:
    out_file = tmp_path / "report.html"
    code, out, err = html_report([str(store), "--html", str(out_file)], capsys)
    assert code == 0, err
    assert out.startswith("| setting |")  # the table is still printed
    text = out_file.read_text(encoding="utf-8")
    page = Page(text)
    assert page.doctype.lower() == "doctype html"
    tags = [t for t, _ in page.tags]

    # Self-contained: no file or address is loaded, and the policy forbids any request.
    assert not {"link", "img", "iframe", "object", "embed"} & set(tags)
    assert all("src" not in a for t, a in page.tags if t == "script")
    csp = [a["content"] for t, a in page.tags if a.get("http-equiv") == "Content-Security-Policy"]
    assert csp and "default-src 'none'" in csp[0]
    for _, attrs in page.tags:
        for name, value in attrs.items():
            if value and not name.startswith("xmlns"):  # namespace names, never loaded
                assert "http://" not in value and "https://" not in value, (name, value)
    assert [a.get("charset") for t, a in page.tags if t == "meta"][0] == "utf-8"

    # The settings table: one row per setting, in the store's order, disagreements marked.
    settings = page.tables["settings"]
    assert [c[1] for c in settings["head"][0]][:2] == ["setting", "solved"]
    assert [row[0][1] for row in settings["body"]] == list(FORTY_SETTINGS)
    solved = [row[1][1] for row in settings["body"]]
    assert solved == ["40/40", "40/40", "40/40", "37/40"]
    # The 'none' of sat:loop=eager on bench-07 disagrees with the three others: one job each.
    disagreements = [row[-1] for row in settings["body"]]
    assert [c[1] for c in disagreements] == ["1", "1", "1", "1"]
    assert all("disagree" in c[0]["class"].split() for c in disagreements)

    # The puzzle table: 40 rows, a column per setting, numbers sortable.
    puzzles = page.tables["puzzles"]
    head = [c[1] for c in puzzles["head"][0]]
    assert head == ["puzzle", "family", "size", *FORTY_SETTINGS, "fastest", "agree"]
    assert [c[0]["data-type"] for c in puzzles["head"][0]] == [
        "text",
        "text",
        "number",
        *["number"] * 4,
        "text",
        "text",
    ]
    assert len(puzzles["body"]) == 40
    for row in puzzles["body"]:
        assert len(row) == len(head)
        for attrs, _ in row[3:7]:
            float(attrs["data-sort"])  # every job's cell has a sort key
    rows = zip(puzzles["body"], puzzles["row_attrs"], strict=True)
    by_name = {row[0][1]: (row, attrs) for row, attrs in rows}
    bad_row, bad_attrs = by_name["puzzles/masyu-bench/bench-07.txt"]
    assert bad_attrs.get("class") == "disagree" and bad_row[-1][1] == "no"
    assert bad_row[4][1].startswith("none ") and "disagree" in bad_row[4][0]["class"]
    marked = [n for n, (_, a) in by_name.items() if a.get("class") == "disagree"]
    assert marked == ["puzzles/masyu-bench/bench-07.txt"]
    # A time out sorts after every solved job, and is shown as unsolved.
    timed_out = by_name["puzzles/masyu-bench/bench-05.txt"][0][6]
    assert timed_out[1].startswith("timeout") and "unsolved" in timed_out[0]["class"]
    solved_keys = [float(r[6][0]["data-sort"]) for r in puzzles["body"] if "unique" in r[6][1]]
    assert float(timed_out[0]["data-sort"]) > max(solved_keys)
    # The fastest setting of each puzzle is its solved job of least time.
    for row in puzzles["body"]:
        times = {
            s: float(c[0]["data-sort"])
            for s, c in zip(FORTY_SETTINGS, row[3:7], strict=True)
            if "unsolved" not in c[0]["class"]
        }
        assert row[7][1] == min(times, key=times.__getitem__)

    # The controls and the script that sorts and filters.
    ids = {a.get("id") for _, a in page.tags}
    assert {"filter", "only-disagree", "shown"} <= ids
    script = "".join(page.scripts)
    assert "sortTable" in script and "filterPuzzles" in script

    # The plots: the cactus plot and three scatter plots, each valid SVG, ids unique.
    assert tags.count("svg") == 4
    figures = [a["id"] for t, a in page.tags if t == "figure"]
    assert figures == ["plot-cactus", "plot-scatter-1", "plot-scatter-2", "plot-scatter-3"]
    all_ids = [a["id"] for _, a in page.tags if "id" in a]
    assert len(all_ids) == len(set(all_ids))
    for chunk in text.split("<svg")[1:]:
        root = ET.fromstring("<svg" + chunk.split("</svg>")[0] + "</svg>")
        assert root.tag == SVG + "svg"
    assert "Cactus plot: 4 settings on 40 puzzles" in "".join(page.text)


def test_page_without_matplotlib(store: Path, tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import fails as if not installed
    out_file = tmp_path / "report.html"
    code, _, err = html_report([str(store), "--html", str(out_file)], capsys)
    assert code == 0, err
    page = Page(out_file.read_text(encoding="utf-8"))
    assert "svg" not in [t for t, _ in page.tags]
    assert NO_PLOTS in "".join(page.text)
    assert len(page.tables["puzzles"]["body"]) == 40  # the tables are all there


def test_plot_that_cannot_be_drawn_is_a_note(tmp_path: Path, capsys) -> None:
    """A time out with no time limit cannot be placed on the scatter plot: the page says so,
    and still has the cactus plot."""
    store = write_store(
        tmp_path / "s.jsonl",
        [
            record("p1", "sat", "unique", 1.0, timeout=None),
            record("p1", "cpsat", "timeout", 5.0, timeout=None),
            record("p2", "sat", "unique", 2.0, timeout=None),
            record("p2", "cpsat", "unique", 1.5, timeout=None),
        ],
    )
    out_file = tmp_path / "r.html"
    code, _, err = html_report([str(store), "--timeout", "5", "--html", str(out_file)], capsys)
    assert code == 0, err
    page = Page(out_file.read_text(encoding="utf-8"))
    assert [t for t, _ in page.tags].count("svg") == 2
    out_file.unlink()
    # --timeout is the records' time limit, not the run's: a page that takes longer to draw
    # than it says is still written (armed as a deadline, a loaded machine was stopped by it).
    code, _, err = html_report([str(store), "--timeout", "0.01", "--html", str(out_file)], capsys)
    assert code == 0 and out_file.exists(), err
    out_file.unlink()
    # Without --timeout the PAR-2 score is undefined: the whole report is refused, no page.
    code, out, err = html_report([str(store), "--html", str(out_file)], capsys)
    assert (code, out) == (2, "") and "no time limit" in err
    assert not out_file.exists()


def test_title_and_escaping(tmp_path: Path, capsys) -> None:
    store = write_store(
        tmp_path / "s.jsonl",
        [record("<b>p&1</b>", "sat", "unique", 1.0), record("<b>p&1</b>", "dlx", "unique", 2.0)],
    )
    out_file = tmp_path / "r.html"
    code, _, err = html_report(
        [str(store), "--html", str(out_file), "--title", "A <script> & more"], capsys
    )
    assert code == 0, err
    text = out_file.read_text(encoding="utf-8")
    page = Page(text)
    assert [t for t, _ in page.tags].count("script") == 1  # the page's own only
    assert "<b>p&1</b>" in [row[0][1] for row in page.tables["puzzles"]["body"]]
    assert "A &lt;script&gt; &amp; more" in text


@pytest.mark.parametrize(
    ("target", "message"),
    [("{tmp}", "is a directory"), ("{tmp}/no/such/dir/r.html", "cannot write")],
)
def test_unwritable_page_is_one_line(tmp_path: Path, capsys, target: str, message: str) -> None:
    # A store of two jobs: the page's size does not matter here (the forty puzzles' plots took
    # 2 s of each case).
    store = write_store(
        tmp_path / "s.jsonl", [record("p", "sat", "unique", 1.0), record("p", "dlx", "unique", 2.0)]
    )
    before = sorted(p.name for p in tmp_path.iterdir())
    code, out, err = html_report([str(store), "--html", target.format(tmp=tmp_path)], capsys)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and message in err
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_inline_svg_prefixes_every_reference() -> None:
    svg = (
        '<?xml version="1.0" encoding="utf-8" standalone="no"?>\n'
        '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x.dtd">\n'
        '<svg xmlns:xlink="http://www.w3.org/1999/xlink"><metadata><rdf:RDF/></metadata>'
        '<defs><path id="m1"/>'
        '<clipPath id="c2"><rect/></clipPath></defs><g id="g" clip-path="url(#c2)">'
        '<use xlink:href="#m1" style="fill: #ffffff"/></g></svg>'
    )
    out = inline_svg(svg, "x-")
    assert out.startswith("<svg") and "metadata" not in out
    assert 'id="x-m1"' in out and 'id="x-c2"' in out and 'id="x-g"' in out
    assert "url(#x-c2)" in out and 'href="#x-m1"' in out
    assert "#ffffff" in out  # a colour is not an id
    ET.fromstring(out)
