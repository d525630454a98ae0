"""A run stopped by its time limit in the search prints its figures where the command prints
its output -- stdout, exit status 3 -- whichever backend it used (issue 35: dlx and sat, which
stop themselves at the deadline, printed them on stdout; CP-SAT building its model and a
portfolio waiting for its members were stopped by the run's alarm, and only a line on stderr
said how far they got). The overrunning backend is ``late_solver``: it finds one answer and then
never looks at its deadline."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from conftest import ROOT

from dlxsat import cli, solvers
from dlxsat.instances import generate

SUDOKU = str(ROOT / "puzzles" / "sudoku" / "tatham-4x4-1.txt")


def run(args: list[str], capfd) -> tuple[int, str, str]:
    capfd.readouterr()
    rc = cli.main(args)
    out, err = capfd.readouterr()
    return rc, out, err


@pytest.fixture(scope="module")
def queens(tmp_path_factory) -> str:
    """16 queens: read at once, counted by dlx in far longer than the limit."""
    path = tmp_path_factory.mktemp("queens") / "queens16.dlx"
    path.write_text(generate("queens", ["16"]))
    return str(path)


#: Backends that overrun their deadline (the alarm stops them) and stop themselves at it.
BACKENDS = {"late (overruns: the alarm stops it)": "late", "dlx (stops itself)": "dlx"}


@pytest.mark.parametrize("json_out", [True, False], ids=["--json", "text"])
@pytest.mark.parametrize("name", BACKENDS)
def test_solve_prints_the_figures_of_a_time_out_on_stdout(
    monkeypatch, capfd, queens, name: str, json_out: bool
) -> None:
    monkeypatch.setitem(solvers.SOLVERS, "late", "late_solver")
    backend = BACKENDS[name]
    args = ["solve", "xcc", queens, "--backend", backend, "--count", "--timeout", "1"]
    rc, out, err = run(args + (["--json"] if json_out else []), capfd)
    assert rc == 3, err
    assert err == ""
    if json_out:
        got = json.loads(out)
        assert (got["status"], got["backend"]) == ("timeout", backend)
        if backend == "late":
            assert got["count"] == 1  # what it had found, as a backend's own time out says
    else:
        assert out.startswith("timeout: "), out


def test_dlx_prints_the_figures_of_a_time_out_on_stdout(monkeypatch, capfd, tmp_path) -> None:
    """``dlx`` too, when its search overran (a kernel load) and the alarm stopped it."""
    monkeypatch.setitem(solvers.SOLVERS, "dlx", "late_solver")
    data = tmp_path / "p.dlx"
    data.write_text("a b\na\nb\na b\n")
    rc, out, err = run(["dlx", str(data), "--timeout", "1", "--json"], capfd)
    assert rc == 3, err
    assert err == ""
    got = json.loads(out)
    assert got["count"] == 1 and got["complete"] is False


def test_a_time_out_overrun_in_a_dlxsat_process(tmp_path) -> None:
    """In a real process the watchdog stands down for the moment of printing the figures."""
    script = (
        "import sys; sys.path.insert(0, {tests!r}); from dlxsat import solvers, cli; "
        "solvers.SOLVERS['late'] = 'late_solver'; cli.run()"
    ).format(tests=str(ROOT / "tests"))
    r = subprocess.run(
        [sys.executable, "-c", script, "solve", "sudoku", SUDOKU, "--backend", "late"]
        + ["--timeout", "1", "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        env=dict(os.environ, PYTHONPATH=str(ROOT / "src")),
    )
    assert r.returncode == 3, r.stderr
    assert r.stderr == ""
    assert json.loads(r.stdout)["status"] == "timeout"
