"""Tests of benchmarks/plot.py: cactus series, the SVG it draws, and its error handling."""

from __future__ import annotations

import csv
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import plot  # noqa: E402

SVG = "{http://www.w3.org/2000/svg}"
COLUMNS = ["puzzle", "setting", "backend", "build", "solve", "total", "result"]


def write_csv(path: Path, rows: list[dict[str, str]], columns: list[str] = COLUMNS) -> Path:
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=columns, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)
    return path


def run(puzzle: str, setting: str, total: str, result: str = "unique", solve: str = "") -> dict:
    return {"puzzle": puzzle, "setting": setting, "total": total, "solve": solve, "result": result}


ROWS = [
    run("p1", "sat eager", "3.5", solve="3.0"),
    run("p1", "cpsat & <lazy>", "0.2", solve="0.1"),
    run("p2", "sat eager", "0.05", solve="0.04"),
    run("p2", "cpsat & <lazy>", "20.0", result="timeout"),
    run("p3", "sat eager", "", result="error: boom"),
    run("p3", "cpsat & <lazy>", "1.25", result="2+", solve=""),
    run("p4", "dlx", "20.0", result="timeout"),
]


def test_series_sorted_and_only_solved_runs() -> None:
    series = plot.cactus_series(ROWS)
    assert list(series) == ["sat eager", "cpsat & <lazy>", "dlx"]
    assert series["sat eager"] == [0.05, 3.5]  # the error is left out, the times sorted
    assert series["cpsat & <lazy>"] == [0.2, 1.25]  # the timeout (20 s) is left out
    assert series["dlx"] == []
    # With --metric solve, a solved run without a solve time is left out.
    assert plot.cactus_series(ROWS, "solve")["cpsat & <lazy>"] == [0.1]


@settings(max_examples=50, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["a", "b", "c"]),
            st.floats(min_value=0, max_value=1e4, allow_nan=False),
            st.sampled_from(["unique", "2", "3+", "timeout", "error: x"]),
        ),
        max_size=40,
    )
)
def test_series_property(runs: list[tuple[str, float, str]]) -> None:
    rows = [run(f"p{i}", s, repr(t), result=r) for i, (s, t, r) in enumerate(runs)]
    series = plot.cactus_series(rows)
    for setting, times in series.items():
        assert times == sorted(times)
        expected = [t for s, t, r in runs if s == setting and r not in ("timeout", "error: x")]
        assert times == sorted(expected)
    ET.fromstring(plot.render_svg(series, "t"))  # always well-formed


def test_svg_has_a_polyline_per_setting_and_a_legend(tmp_path: Path) -> None:
    path = write_csv(tmp_path / "runs.csv", ROWS)
    out = tmp_path / "out.svg"
    assert plot.main([str(path), "-o", str(out), "--title", "Encodings <&>"]) == 0
    root = ET.parse(out).getroot()
    assert root.tag == f"{SVG}svg"
    lines = root.findall(f"{SVG}polyline")
    # dlx solved nothing: no curve, but still named in the legend.
    assert [p.get("data-setting") for p in lines] == ["sat eager", "cpsat & <lazy>"]
    assert [len(p.get("points", "").split()) for p in lines] == [2, 2]
    texts = ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]
    legend = ["".join(t.itertext()) for t in root.iter(f"{SVG}text") if t.get("class") == "legend"]
    assert legend == ["sat eager (2 solved)", "cpsat & <lazy> (2 solved)", "dlx (0 solved)"]
    assert "Encodings <&>" in texts  # the title, escaped in the file and read back
    assert "number of puzzles solved" in texts
    # Log-scale y ticks cover the times: 0.01 s to 10 s.
    assert {"0.01", "0.1", "1", "10"} <= set(texts)
    # Slower times are drawn higher up (smaller y) along each curve.
    ys = [float(xy.split(",")[1]) for xy in lines[0].get("points", "").split()]
    assert ys[0] > ys[1]


def test_solve_metric(tmp_path: Path) -> None:
    path = write_csv(tmp_path / "runs.csv", ROWS)
    out = tmp_path / "out.svg"
    assert plot.main([str(path), "-o", str(out), "--metric", "solve"]) == 0
    root = ET.parse(out).getroot()
    counts = [len(p.get("points", "").split()) for p in root.findall(f"{SVG}polyline")]
    assert counts == [2, 1]


@pytest.mark.parametrize(
    "columns, rows, message",
    [
        (["puzzle", "setting", "result"], [], "missing column(s) total"),
        (["puzzle", "total"], [], "missing column(s) setting, result"),
        (COLUMNS, [run("p", "s", "fast")], "line 2: total is not a number: 'fast'"),
        (COLUMNS, [], "no runs"),
    ],
)
def test_bad_csv_is_one_line_error_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], columns, rows, message
) -> None:
    path = write_csv(tmp_path / "bad.csv", rows, columns)
    out = tmp_path / "out.svg"
    assert plot.main([str(path), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("plot.py: error: ")
    assert message in err
    assert not out.exists()


def test_missing_file_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert plot.main([str(tmp_path / "none.csv"), "-o", str(tmp_path / "o.svg")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot read CSV" in err


def test_loops_csv_round_trip(tmp_path: Path) -> None:
    """What ``loops.py --csv`` writes is what plot.py reads (same column names)."""
    import loops

    record = {c: "" for c in loops.CSV_COLUMNS}
    record.update(puzzle="p", setting="sat pairwise", backend="sat", encoding="pairwise")
    record.update(total="0.012345", solve="0.01", result="unique")
    path = tmp_path / "runs.csv"
    loops.write_csv(str(path), [record])
    assert [p.name for p in tmp_path.iterdir()] == ["runs.csv"]  # no temporary file left
    rows = plot.read_rows(path)
    assert rows == [record]
    assert plot.cactus_series(rows) == {"sat pairwise": [0.012345]}
