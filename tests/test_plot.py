"""Tests of the benchmark scripts built on ``dlxsat compare`` and ``dlxsat report``:
``benchmarks/plot.py`` (a call of the report's plots) and ``benchmarks/loops.py`` (a preset run)."""

from __future__ import annotations

import itertools
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from conftest import ROOT
from stores import canonical_setting, record, write_store

from dlxsat.cli import main as dlxsat_main
from dlxsat.solvers import options_of

sys.path.insert(0, str(ROOT / "benchmarks"))

import loops  # noqa: E402
import plot  # noqa: E402

SVG = "{http://www.w3.org/2000/svg}"


def expand(spec: str) -> list[str]:
    """The settings of one ``--settings`` grid, each checked against the option registry and
    written as docs/store.md's canonical text."""
    backend, _, rest = spec.partition(":")
    declared = {o.key: o for o in options_of(backend)}
    axes = []
    for part in filter(None, rest.split(";")):
        key, _, values = part.partition("=")
        option = declared[key]  # a key the backend does not take fails here
        for v in values.split(","):
            option.check(option.parse(v))
        axes.append([(key, v) for v in values.split(",")])
    return [canonical_setting(backend, dict(combo)) for combo in itertools.product(*axes)]


def test_sets_are_the_measured_settings() -> None:
    expanded = {
        name: [s for spec in specs for s in expand(spec)] for name, specs in loops.SETS.items()
    }
    assert expanded["defaults"] == ["sat", "sat:loop=eager", "cpsat", "cpsat:loop=lazy", "dlx"]
    # Every encoding but native, with auto (the default) as plain "sat".
    assert expanded["encodings"][0] == "sat" and len(expanded["encodings"]) == 11
    assert "sat:encoding=native" not in expanded["encodings"]
    assert len(expanded["solvers"]) == 10
    every = expanded["all"]
    assert len(every) == len(set(every)) == 5 + 10 + 9 + 3  # no setting twice


def test_dry_run_prints_one_compare_per_family_then_the_report(capsys) -> None:
    assert loops.main(["--dry-run", "--only", "5x5", "--jobs", "2", "-o", "r.jsonl"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[:3] for line in lines] == [
        ["dlxsat", "compare", "slitherlink"],
        ["dlxsat", "compare", "superslitherlink"],
        ["dlxsat", "report", "r.jsonl"],
    ]
    assert "puzzles/slitherlink/tatham-5x5-1.txt" in lines[0]
    assert lines[0].endswith("-o r.jsonl --timeout 20.0 --jobs 2")


def test_loops_runs_compare_then_report(tmp_path: Path, monkeypatch, capsys) -> None:
    """With compare stood in for (it is another command's work), loops.py hands every family's
    puzzles to it, in one store, and prints the report of that store."""
    calls = []

    def fake_run(cmd: list[str], env: dict) -> subprocess.CompletedProcess:
        args = cmd[3:]
        calls.append(args[:2])
        assert env["PYTHONPATH"].split(":")[0] == str(ROOT / "src")
        if args[0] == "compare":
            store = Path(args[args.index("-o") + 1])
            paths = [p for p in args[2:] if p.startswith(("puzzles/", "tests/"))]
            write_store(store, [record(p, "sat", "unique", 0.5) for p in paths])
            return subprocess.CompletedProcess(cmd, 0)
        return subprocess.CompletedProcess(cmd, dlxsat_main(args))

    monkeypatch.setattr(loops.subprocess, "run", fake_run)
    assert loops.main(["--only", "5x5", "--format", "csv"]) == 0
    assert calls == [
        ["compare", "slitherlink"],
        ["compare", "superslitherlink"],
        ["report", calls[2][1]],
    ]
    out = capsys.readouterr().out
    assert out.splitlines()[1].startswith("sat,5,5,")  # 3 slitherlink + 2 superslitherlink
    assert not Path(calls[2][1]).exists()  # no -o: the store was temporary


def test_plot_py_draws_from_a_store(tmp_path: Path, capsys) -> None:
    store = write_store(
        tmp_path / "r.jsonl",
        [record(f"p{k}", s, "unique", 0.1 * k) for k in (1, 2, 3) for s in ("sat", "dlx")],
    )
    out = tmp_path / "cactus.svg"
    assert plot.main([str(store), "-o", str(out)]) == 0
    ids = [g.get("id") for g in ET.parse(out).getroot().iter(f"{SVG}g")]
    assert ids.count("setting-0") == ids.count("setting-1") == 1
    out = tmp_path / "pair.png"
    assert (
        plot.main([str(store), "-o", str(out), "--plot", "scatter", "--x", "sat", "--y", "dlx"])
        == 0
    )
    assert out.stat().st_size > 1000


@pytest.mark.parametrize("argv, message", [(["none.jsonl"], "no such results store")])
def test_plot_py_errors(tmp_path: Path, capsys, argv: list[str], message: str) -> None:
    assert plot.main([str(tmp_path / a) for a in argv] + ["-o", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("plot.py: error: ") and message in err
    assert list(tmp_path.iterdir()) == []
