"""The results store (docs/store.md): one reader for compare and report, a writer that ends a
torn last line, and two ``compare`` runs on one store sharing the work."""

from __future__ import annotations

import json
import multiprocessing
import os
import sys
from pathlib import Path

import pytest

from dlxsat import solvers
from dlxsat.cli import main
from dlxsat.compare import compare, store
from dlxsat.errors import InputError
from dlxsat.report import read_store

ROOT = Path(__file__).resolve().parent.parent
SUDOKU = [
    str(ROOT / "puzzles/sudoku/tatham-4x4-1.txt"),
    str(ROOT / "puzzles/sudoku/tatham-6x6-1.txt"),
]


def lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text().splitlines()]


@pytest.fixture
def slow(monkeypatch):
    """The test-only solver ``slow`` in the registry (inherited by forked processes)."""
    monkeypatch.setitem(solvers.SOLVERS, "slow", "compare_test_solver")


# ----------------------------------------------------------------------------- a torn line


def test_a_truncated_store_loses_only_the_torn_record(tmp_path, capsys):
    """``truncate -s -100`` cuts the last record: the next run appends on a line of its own,
    runs the cut job again (once), and report reads the store with one warning."""
    out = tmp_path / "r.jsonl"
    compare("sudoku", SUDOKU, ["dlx", "sat"], output=str(out), quiet=True)
    assert len(lines(out)) == 4
    os.truncate(out, out.stat().st_size - 100)
    again = compare("sudoku", SUDOKU, ["dlx", "sat"], output=str(out), quiet=True)
    assert (again.ran, again.skipped) == (1, 3)
    text = out.read_text()
    assert text.endswith("}\n") and text.count("\n") == 5  # the torn line ended, one added
    records = store.read(str(out))
    assert len(records) == 4
    for _ in range(2):  # and it stays done: no job runs again on later runs
        later = compare("sudoku", SUDOKU, ["dlx", "sat"], output=str(out), quiet=True)
        assert (later.ran, later.skipped) == (0, 4)
    capsys.readouterr()
    report = read_store([out])
    assert len(report.records) == 4
    assert report.warnings == [f"{out}: line 4: skipped a record cut short"]
    assert main(["report", str(out)]) == 0


def test_one_rule_for_lines_that_are_not_records(tmp_path):
    """compare and report read a store the same way: a cut record is skipped with a warning
    wherever it is, a last line that does not parse too; any other line is an error."""
    good = json.dumps(
        {"job": "a", "puzzle": "p", "setting": "s", "status": "unique", "wall_seconds": 1.0}
    )
    cases = {
        "cut last": (good + '\n{"job": "b", "sta', 1, "line 2: skipped a last line"),
        "cut middle": (good + '\n{"job": "b", "sta\n' + good + "\n", 1, "line 2: skipped a rec"),
        "junk last": (good + "\nxx", 1, "line 2: skipped a last line"),
        "junk middle": (good + "\nnot json\n" + good + "\n", None, "line 2: not a JSON record"),
        "not a record": ("[1, 2]\n" + good + "\n", None, "line 1: not a JSON record"),
    }
    for name, (text, count, message) in cases.items():
        path = tmp_path / f"{name}.jsonl"
        path.write_text(text)
        if count is None:
            with pytest.raises(InputError, match=message):
                store.read(str(path))
            with pytest.raises(InputError, match=message):
                read_store([path])
        else:
            assert len(store.read(str(path), warn=False)) == count, name
            report = read_store([path])
            assert len(report.records) == count
            assert len(report.warnings) == 1 and message in report.warnings[0], name


# ----------------------------------------------------------------------------- two runs at once


def _run(output: str, settings: list[str], start, results) -> None:
    start.wait()
    out = compare("sudoku", SUDOKU, settings, output=output, quiet=True, jobs=1)
    results.put((out.ran, out.skipped, out.elsewhere))


@pytest.mark.slow
def test_two_concurrent_runs_share_the_jobs(slow, tmp_path):
    """Two runs of one command on one store at once: 80 jobs, 80 records (not 160), each job
    run by one of them; the claims file is gone when both have ended."""
    out = tmp_path / "r.jsonl"
    settings = [f"slow:sleep={0.05 + k / 1000:.3f}" for k in range(40)]  # 40 x 2 puzzles
    ctx = multiprocessing.get_context("fork")
    start, results = ctx.Barrier(2), ctx.Queue()
    runs = [ctx.Process(target=_run, args=(str(out), settings, start, results)) for _ in "ab"]
    for p in runs:
        p.start()
    for p in runs:
        p.join(300)
        assert p.exitcode == 0
    got = [results.get(timeout=10) for _ in runs]
    records = lines(out)
    assert len(records) == 80 and len({r["job"] for r in records}) == 80
    assert sum(ran for ran, _, _ in got) == 80
    assert all(ran > 0 for ran, _, _ in got), got  # both worked: the jobs were shared
    assert sum(elsewhere for _, _, elsewhere in got) == 80
    assert not Path(str(out) + ".claims").exists()


def test_a_claim_of_a_process_that_ended_is_void(tmp_path):
    path = str(tmp_path / "r.jsonl")
    ctx = multiprocessing.get_context("fork")

    def claim_and_die() -> None:
        sharing = store.Sharing(path, lambda *_: True, redo=False)
        os._exit(0 if sharing.claim("job1", None) else 1)

    child = ctx.Process(target=claim_and_die)
    child.start()
    child.join(60)
    assert child.exitcode == 0
    assert "job1" in Path(path + ".claims").read_text()  # killed: the claim stays behind
    sharing = store.Sharing(path, lambda *_: True, redo=False)
    assert sharing.claim("job1", None)  # but it does not count
    assert not store.Sharing(path, lambda *_: True, redo=False).claim("job1", None)  # mine does
    sharing.release()
    assert not Path(path + ".claims").exists()


def test_dask_without_distributed_leaves_no_store(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    out = tmp_path / "r.jsonl"
    rc = main(
        [
            "compare",
            "sudoku",
            SUDOKU[0],
            "--settings",
            "dlx",
            "-o",
            str(out),
            "--dask",
            "tcp://127.0.0.1:1",
        ]
    )
    err = capsys.readouterr().err
    assert rc == 2 and "distributed is not installed; run: pip install 'dlxsat[dask]'" in err
    assert list(tmp_path.iterdir()) == []
