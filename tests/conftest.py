"""Shared test set-up: tests/ on sys.path (for ``problems``), golden data locations."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
GOLDEN = TESTS / "data" / "golden"
#: Seconds a call given a time limit under a second may take in all, on a 2-core machine with
#: both cores busy (loading libraries and kernels included: measured up to 12 s). The failures
#: these bounds catch run for minutes or hours (issue 18: no tight wall-clock bounds in tests).
LOADED_MARGIN = 60
sys.path.insert(0, str(TESTS))


def ask(mode: str = "unique", *, timeout: float | None = None, keep: int | None = None) -> Any:
    """The :class:`dlxsat.solvers.Request` of a reasoning solver's test: ``mode`` (and the limit
    that follows from it), ``keep`` answers at most (None: all) and ``timeout`` seconds from now
    (None: no limit)."""
    from dlxsat.runtime.deadline import Deadline
    from dlxsat.solvers import Request

    return Request(
        limit=2 if mode == "unique" else None,
        keep=keep,
        deadline=Deadline.after(timeout),
        mode=mode,
    )


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``-n auto``: a worker more than xdist would start (one a core). Some tests spend seconds
    waiting rather than computing -- for worker processes to start, be reaped or time out, for
    a signal to land, a deadline to pass, a browser to draw: some 25 s of the suite's 190 --
    and the extra worker computes meanwhile (2 cores, idle: 101-106 s against 110 s with two
    workers). ``PYTEST_XDIST_AUTO_NUM_WORKERS`` still decides when set."""
    import os

    from xdist.plugin import pytest_xdist_auto_num_workers as one_a_core

    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # (xdist's own hook reads it)
    return one_a_core(config) + 1


def as_foreground() -> None:
    """For ``preexec_fn``: the child takes ``SIGINT`` and ``SIGTERM`` as a program started in
    the foreground does. Run from a background job, the suite's processes inherit ``SIGINT``
    ignored, and a dlxsat process keeps a signal it was started ignoring ignored (as Python
    does): the tests that send it ``SIGINT`` must start it with the default."""
    import signal

    for s in (signal.SIGINT, signal.SIGTERM):
        signal.signal(s, signal.SIG_DFL)


def golden_cases(
    family: str | None = None, ok_only: bool = False, registered: bool = False
) -> list[dict]:
    """Entries of the golden manifest (docs/conventions.md §6), optionally of one family /
    accepted only / of the families the pipeline and the CLI know (``registered``: the
    manifest also holds cases of families whose module is not registered yet, as Fillomino's,
    whose data the exact-cover tests use all the same)."""
    from dlxsat.families import FAMILIES

    cases = json.loads((GOLDEN / "manifest.json").read_text())
    return [
        e
        for e in cases
        if (family is None or e["family"] == family)
        and (not ok_only or e["exit_status"] == 0)
        and (not registered or e["family"] in FAMILIES)
    ]


def golden_count_runs() -> list:
    """``pytest.param(dlx path, loop, count)`` for every golden count Knuth's solvers (or the
    independent brute force) produced: the cases every search backend must count exactly."""
    runs = []
    for c in golden_cases(ok_only=True):
        name = f"{c['family']}/{c['name']}"
        for key in ("dlx1", "dlx2", "dlx2_disjoint_loops", "dlx3_disjoint_loops"):
            if c.get(key) and c[key].get("count") is not None:
                runs.append(pytest.param(c["dlx"], False, c[key]["count"], id=f"{name}-{key}"))
        # Knuth's loop counts and the independent brute-force count (the same where both
        # exist: then one run checks both).
        loop_counts: dict[int, str] = {}
        for key in ("dlx2_loop_single_loop", "single_loop_count", "single_loop_count_bruteforce"):
            v = c.get(key)
            v = v.get("count") if isinstance(v, dict) else v
            if v is not None:
                loop_counts.setdefault(v, key)
        for v, key in loop_counts.items():
            runs.append(pytest.param(c["dlx"], True, v, id=f"{name}-{key}"))
    return runs


def run(args: list[str], stdin: bytes = b"", monkeypatch=None, capfd=None):
    """Run the CLI in-process; return (exit status, stdout, stderr)."""
    fake = io.TextIOWrapper(io.BytesIO(stdin))
    monkeypatch.setattr(sys, "stdin", fake)
    from dlxsat import cli

    rc = cli.main([str(a) for a in args])
    out, err = capfd.readouterr()
    return rc, out, err


def assert_input_error(rc, out, err, *fragments):
    assert rc == 2, f"exit {rc}, stderr {err!r}"
    assert out == "", f"stdout not empty: {out[:200]!r}"
    lines = err.strip("\n").split("\n")
    assert len(lines) == 1, f"not one line: {err!r}"
    assert lines[0].startswith("dlxsat: error: ")
    assert "Traceback" not in err
    for f in fragments:
        assert f in lines[0], f"{f!r} not in {lines[0]!r}"


@pytest.fixture
def cli_run(monkeypatch, capfd):
    return lambda args, stdin=b"": run(args, stdin, monkeypatch, capfd)


@pytest.fixture
def dlxsat_cli(cli_run):
    """``dlxsat_cli(*args, stdin=text)``: the command line in this process, as the
    ``subprocess.CompletedProcess`` (text) of ``python -m dlxsat ARGS`` -- without a fresh
    interpreter's start-up (0.1-0.2 s) for each command. (The program's own start, its signal
    handling and limits, are tested in real processes: test_cli.py, test_limits.py.)"""

    def command(*args: object, stdin: str | None = None) -> subprocess.CompletedProcess:
        rc, out, err = cli_run([str(a) for a in args], (stdin or "").encode())
        return subprocess.CompletedProcess(list(args), rc, out, err)

    return command


def golden_problem(dlx: str | Path, allow_empty: bool = False):
    """The problem of a golden DLX file (path relative to the golden folder).

    SuperSlitherlink data names letters of clue 0 without declaring them, which the general DLX
    reader refuses (docs/conventions.md §3, as DLX3 does); the family's own rule,
    ``superslitherlink.data_problem``,
    reads it, with the puzzle file beside it.
    """
    from dlxsat.families import superslitherlink
    from dlxsat.xcc import parse

    path = GOLDEN / dlx
    text = path.read_text()
    if path.parent.name == "superslitherlink":
        puzzle = superslitherlink.read(path.with_suffix(".txt").read_text())
        return superslitherlink.data_problem(puzzle, text)
    return parse(text, allow_empty=allow_empty)


def as_a_fresh_process(monkeypatch) -> None:
    """The dlx backend's tiers as in a process that has loaded no compiled kernel, imported no
    numpy and searched nothing interpreted yet: a search starts interpreted (then moves to the
    compiled tier as :data:`INTERPRETED_SECONDS` says)."""
    import dlxsat.backends.dlx as backend
    from dlxsat.backends.dlx import compiled

    monkeypatch.setattr(compiled, "_ready", set())
    monkeypatch.setattr(backend, "_numpy_imported", lambda: False)
    monkeypatch.setattr(backend, "_interpreted_spent", [0.0])
