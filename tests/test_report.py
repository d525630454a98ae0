"""Tests of ``dlxsat report``: the per-setting table, its formats, the plots, and bad input."""

from __future__ import annotations

import csv
import io
import json
import os
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from conftest import ROOT
from stores import record, solve_store, write_store

from dlxsat import plots
from dlxsat.cli import main
from dlxsat.report import read_store, summarize

SVG = "{http://www.w3.org/2000/svg}"

#: Three settings on four puzzles, time limit 10 s. Setting ``sat:loop=eager`` says ``none`` on
#: p4 where ``sat`` found an answer: one disagreement for each of them.
FIRST = [
    record("p1", "sat", "unique", 9.0),  # replaced in the second store
    record("p2", "sat", "unique", 3.0),
    record("p3", "sat", "unique", 5.0),  # replaced below (a re-run that timed out)
    record("p4", "sat", "unique", 2.0, stats={"variables": 100, "clauses": 400, "rounds": 3}),
    record("p3", "sat", "timeout", 10.2),
    record("p1", "sat:loop=eager", "unique", 0.5),
    record("p2", "sat:loop=eager", "memout", 4.0),
    record("p3", "sat:loop=eager", "unique", 8.0),
    record("p4", "sat:loop=eager", "none", 0.1),
]
SECOND = [
    record("p1", "sat", "unique", 1.0, stats={"variables": 50, "clauses": 200, "rounds": 1}),
    record("p1", "cpsat", "unique", 0.25, stats={"variables": 70, "constraints": 90}),
    record("p2", "cpsat", "error", 0.3),
    record("p3", "cpsat", "stalled", 0.4),
    record("p4", "cpsat", "timeout", 10.0),
]


@pytest.fixture
def stores(tmp_path: Path) -> list[str]:
    """Two stores to merge; the second ends in a line a killed writer left half-written."""
    a = write_store(tmp_path / "a.jsonl", FIRST)
    b = write_store(tmp_path / "b.jsonl", SECOND, tail='{"job": "deadbeef", "sta')
    return [str(a), str(b)]


def report(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["report", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_table_figures(stores: list[str]) -> None:
    store = read_store(stores)
    assert len(store.records) == 12  # 14 records, two jobs twice; the broken line skipped
    assert store.warnings == [f"{stores[1]}: line 6: skipped a last line that does not parse"]
    rows = {r.setting: r for r in summarize(store)}
    assert list(rows) == ["sat", "sat:loop=eager", "cpsat"]
    sat = rows["sat"]
    # The last record of a job wins: p1 took 1.0 s (not 9.0), p3 timed out (not 5.0 s).
    assert (sat.solved, sat.jobs) == (3, 4)
    assert sat.par2 == pytest.approx(1.0 + 3.0 + 2.0 + 2 * 10)
    assert (sat.total_seconds, sat.median_seconds, sat.worst_seconds) == (6.0, 2.0, 3.0)
    assert (sat.mean_variables, sat.mean_clauses, sat.mean_rounds) == (75.0, 300.0, 2.0)
    eager = rows["sat:loop=eager"]
    assert (eager.solved, eager.jobs) == (3, 4)  # "none" is a definite answer
    assert eager.par2 == pytest.approx(0.5 + 8.0 + 0.1 + 2 * 10)  # the memout costs 2 × 10 s
    assert eager.median_seconds == 0.5
    assert (sat.disagreements, eager.disagreements) == (1, 1)
    cpsat = rows["cpsat"]
    # Error, stalled and timeout are all unsolved; CP-SAT's constraints are its clauses.
    assert (cpsat.solved, cpsat.par2, cpsat.mean_clauses) == (1, 0.25 + 3 * 20, 90.0)
    assert (cpsat.disagreements, cpsat.mean_rounds) == (0, None)


def test_markdown_is_the_default(stores: list[str], capsys) -> None:
    code, out, err = report(stores, capsys)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == (
        "| setting | solved | PAR-2 s | total s | median s | worst s | variables | clauses "
        "| rounds | disagreements |"
    )
    assert lines[2] == "| sat | 3/4 | 26.000 | 6.000 | 2.000 | 3.000 | 75 | 300 | 2.0 | 1 |"
    assert lines[4] == "| cpsat | 1/4 | 60.250 | 0.250 | 0.250 | 0.250 | 70 | 90 |  | 0 |"
    assert len(lines) == 5
    assert "skipped a last line that does not parse" in err


def test_csv_and_json_parse_back(stores: list[str], tmp_path: Path, capsys) -> None:
    code, out, _ = report([*stores, "--format", "csv"], capsys)
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["setting"] for r in rows] == ["sat", "sat:loop=eager", "cpsat"]
    assert float(rows[1]["par2"]) == pytest.approx(28.6)
    assert rows[2]["mean_rounds"] == "" and rows[0]["solved"] == "3" and rows[0]["jobs"] == "4"
    target = tmp_path / "table.json"
    code, out, _ = report([*stores, "--format", "json", "-o", str(target)], capsys)
    assert (code, out) == (0, "")
    doc = json.loads(target.read_text())
    assert doc["jobs"] == 12 and doc["stores"] == stores
    assert doc["settings"][0]["median_seconds"] == 2.0
    assert doc["settings"][1]["disagreements"] == 1
    assert any("does not parse" in w for w in doc["warnings"])


def test_timeout_needed_when_the_store_has_no_limit(tmp_path: Path, capsys) -> None:
    path = write_store(
        tmp_path / "r.jsonl",
        [
            record("p1", "dlx", "unique", 1.0, timeout=None),
            record("p2", "dlx", "timeout", 3.0, timeout=None),
        ],
    )
    code, out, err = report([str(path)], capsys)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and "give --timeout S" in err
    code, out, _ = report([str(path), "--timeout", "5", "--format", "csv"], capsys)
    assert code == 0 and float(next(csv.DictReader(io.StringIO(out)))["par2"]) == 11.0


def test_different_puzzle_sets_are_warned(tmp_path: Path, capsys) -> None:
    path = write_store(
        tmp_path / "r.jsonl",
        [
            record("p1", "a", "unique", 1.0),
            record("p2", "a", "unique", 1.0),
            record("p1", "b", "unique", 1.0),
        ],
    )
    code, _, err = report([str(path)], capsys)
    assert code == 0 and "b (1 missing)" in err


def svg_ids(path: Path) -> list[str]:
    return [e.get("id", "") for e in ET.parse(path).getroot().iter(f"{SVG}g")]


def svg_texts(path: Path) -> list[str]:
    return ["".join(t.itertext()) for t in ET.parse(path).getroot().iter(f"{SVG}text")]


def test_cactus_png_and_svg(stores: list[str], tmp_path: Path, capsys) -> None:
    import matplotlib.image

    png = tmp_path / "cactus.png"
    code, out, _ = report([*stores, "--plot", "cactus", "--plot-out", str(png)], capsys)
    assert code == 0 and out.startswith("| setting |")
    height, width = matplotlib.image.imread(png).shape[:2]
    assert (width, height) == (800, 500)
    umask = os.umask(0)
    os.umask(umask)
    assert png.stat().st_mode & 0o777 == 0o666 & ~umask  # not the temporary file's 0600
    svg = tmp_path / "cactus.svg"
    assert report([*stores, "--plot-out", str(svg)], capsys)[0] == 0  # cactus by default
    ids = svg_ids(svg)
    assert [i for i in ids if i.startswith("setting-")] == ["setting-0", "setting-1", "setting-2"]
    texts = svg_texts(svg)
    assert {"sat (3/4 solved)", "sat:loop=eager (3/4 solved)", "cpsat (1/4 solved)"} <= set(texts)
    # One marker path per solved job, in each setting's line group.
    root = ET.parse(svg).getroot()
    marks = {
        g.get("id"): len(g.findall(f".//{SVG}use"))
        for g in root.iter(f"{SVG}g")
        if (g.get("id") or "").startswith("setting-")
    }
    assert marks == {"setting-0": 3, "setting-1": 3, "setting-2": 1}
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "a.jsonl",
        "b.jsonl",
        "cactus.png",
        "cactus.svg",
    ]


def test_scatter_puts_unsolved_on_the_border(stores: list[str], tmp_path: Path, capsys) -> None:
    svg = tmp_path / "s.svg"
    argv = [*stores, "--plot", "scatter", "--x", "sat", "--y", "sat:loop=eager"]
    code, _, err = report([*argv, "--plot-out", str(svg)], capsys)
    assert code == 0, err
    root = ET.parse(svg).getroot()
    groups = {g.get("id"): g for g in root.iter(f"{SVG}g")}
    assert {"diagonal", "limit-x", "limit-y", "solved", "unsolved"} <= set(groups)
    # p1 and p4 solved by both; p2 (memout) and p3 (timeout) on the border.
    assert len(groups["solved"].findall(f".//{SVG}use")) == 2
    assert len(groups["unsolved"].findall(f".//{SVG}use")) == 2
    assert "4 puzzles: sat faster on 0, sat:loop=eager faster on 2" in svg_texts(svg)
    fig = plots.scatter(read_store(stores), "sat", "sat:loop=eager")
    unsolved = [c for c in fig.axes[0].collections if c.get_gid() == "unsolved"][0]
    assert sorted(map(tuple, unsolved.get_offsets().tolist())) == [(3.0, 10.0), (10.0, 8.0)]


def test_size_plot(tmp_path: Path, capsys) -> None:
    recs = [
        record(f"p{n}", s, "unique", t * n, size=(n, n))
        for n in (5, 10, 20)
        for s, t in (("sat", 0.01), ("cpsat", 0.02))
    ]
    path = write_store(tmp_path / "r.jsonl", recs)
    png, svg = tmp_path / "size.png", tmp_path / "size.svg"
    for out in (png, svg):
        assert report([str(path), "--plot", "size", "--plot-out", str(out)], capsys)[0] == 0
    import matplotlib.image

    assert matplotlib.image.imread(png).shape[:2] == (500, 800)
    assert [i for i in svg_ids(svg) if i.startswith("setting-")] == ["setting-0", "setting-1"]
    line = plots.size_plot(read_store([path])).axes[0].lines[0]
    assert list(line.get_xdata()) == [25, 100, 400]
    assert list(line.get_ydata()) == pytest.approx([0.05, 0.1, 0.2])


@pytest.mark.parametrize(
    "argv, message",
    [
        (["{tmp}/none.jsonl"], "no such results store"),
        (["{tmp}/empty.jsonl"], "no records in the results store"),
        (["{tmp}/broken.jsonl"], "line 1: not a JSON record"),
        (
            [
                "{tmp}/a.jsonl",
                "--plot",
                "scatter",
                "--x",
                "nope",
                "--y",
                "sat",
                "--plot-out",
                "{tmp}/p.png",
            ],
            "unknown setting 'nope' for --x (the store has: sat, cpsat)",
        ),
        (["{tmp}/a.jsonl", "--plot", "scatter", "--plot-out", "{tmp}/p.png"], "needs --x"),
        (["{tmp}/a.jsonl", "--plot", "cactus", "--plot-out", "{tmp}/p.pdf"], "as .png or .svg"),
        (["{tmp}/a.jsonl", "--plot", "cactus"], "needs --plot-out"),
        (["{tmp}/a.jsonl", "--format", "xml"], "invalid choice: 'xml'"),
    ],
)
def test_bad_input_is_one_line_exit_2(
    tmp_path: Path, capsys, argv: list[str], message: str
) -> None:
    write_store(
        tmp_path / "a.jsonl",
        [record("p1", "sat", "unique", 1.0), record("p1", "cpsat", "unique", 1.0)],
    )
    (tmp_path / "empty.jsonl").write_text("")
    (tmp_path / "broken.jsonl").write_text(
        "not json\n" + json.dumps(record("p", "s", "unique", 1.0)) + "\n"
    )
    before = sorted(p.name for p in tmp_path.iterdir())
    code, out, err = report([a.format(tmp=tmp_path) for a in argv], capsys)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and err.startswith("dlxsat: error: ") and message in err
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # no plot, not half of one


def test_missing_matplotlib_is_one_line(stores, tmp_path: Path, capsys, monkeypatch) -> None:
    import sys

    for name in ("matplotlib.figure", "matplotlib.backends.backend_agg"):
        monkeypatch.setitem(sys.modules, name, None)  # import fails as if not installed
    code, out, err = report([*stores, "--plot-out", str(tmp_path / "c.png")], capsys)
    assert (code, out) == (2, "")
    message = "plots: matplotlib is not installed; run: pip install 'dlxsat[plot]'"
    assert err.strip().endswith(message)


def test_report_light_import() -> None:
    """``import dlxsat.cli`` stays light: the report and matplotlib load only when asked for."""
    import subprocess
    import sys

    heavy = ("matplotlib", "numpy", "dlxsat.report", "dlxsat.plots")
    code = f"import sys, dlxsat.cli; print([m for m in sys.modules if m.startswith({heavy!r})])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.fixture(scope="module")
def solved_store(tmp_path_factory) -> Path:
    """A store of real jobs: three bundled loop puzzles, three SAT settings, solved in-process."""
    path = tmp_path_factory.mktemp("real") / "results.jsonl"
    puzzles = [
        ("slitherlink", ROOT / "puzzles/slitherlink/tatham-5x5-1.txt"),
        ("slitherlink", ROOT / "puzzles/slitherlink/tatham-10x10-1.txt"),
        ("masyu", ROOT / "puzzles/masyu/tatham-10x10.txt"),
    ]
    settings = [("sat", {}), ("sat", {"encoding": "seqcounter"}), ("sat", {"loop": "eager"})]
    return solve_store(path, puzzles, settings)


def test_real_store(solved_store: Path, tmp_path: Path, capsys) -> None:
    code, out, err = report([str(solved_store), "--format", "json"], capsys)
    assert code == 0, err
    rows = json.loads(out)["settings"]
    assert [r["setting"] for r in rows] == ["sat", "sat:encoding=seqcounter", "sat:loop=eager"]
    for r in rows:
        assert (r["solved"], r["jobs"], r["disagreements"]) == (3, 3, 0)
        assert r["par2"] == pytest.approx(r["total_seconds"])  # nothing unsolved
        assert r["mean_variables"] > 0 and r["mean_clauses"] > 0
    # With the eager loop encoding two solver calls suffice (the answer, then the proof that
    # there is no other); lazy loop cuts add calls.
    assert rows[2]["mean_rounds"] == 2.0 < rows[0]["mean_rounds"]
    svg = tmp_path / "size.svg"
    assert report([str(solved_store), "--plot", "size", "--plot-out", str(svg)], capsys)[0] == 0
    assert len([i for i in svg_ids(svg) if i.startswith("setting-")]) == 3


def test_line_separators_inside_strings_are_not_line_ends(tmp_path: Path) -> None:
    """A writer may leave U+2028 unescaped in a string (ensure_ascii=False): still one record."""
    path = tmp_path / "r.jsonl"
    rec = record("puzzles/odd\u2028name.txt", "sat", "unique", 1.0)
    path.write_text(json.dumps(rec, ensure_ascii=False) + "\r\n", encoding="utf-8")
    store = read_store([path])
    assert store.warnings == [] and [r["puzzle"] for r in store.records] == [rec["puzzle"]]


def test_same_text_in_two_families_is_two_puzzles(tmp_path: Path) -> None:
    """A plain SuperSlitherlink file is also a Slitherlink file: their answers differ, rightly."""
    recs = [
        record("p1", "sat", "unique", 1.0),
        record("p1", "dlx", "none", 1.0, family="superslitherlink"),
        record("p1", "cpsat", "none", 1.0),  # but in one family, unique against none disagree
    ]
    rows = summarize(read_store([write_store(tmp_path / "r.jsonl", recs)]))
    assert [(r.setting, r.disagreements) for r in rows] == [("sat", 1), ("dlx", 0), ("cpsat", 1)]
    store = read_store([write_store(tmp_path / "s.jsonl", recs[:2])])
    assert [r.disagreements for r in summarize(store)] == [0, 0]
