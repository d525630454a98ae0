"""Adding a puzzle family is one module and one registry line.

``dominoes`` (tests/domino_family.py: tile a board's free cells with dominoes) is registered
here with one line and then runs through ``dlxsat.solve``, every search backend, ``encode``,
``solve --svg``, ``check``, ``convert`` and ``compare`` -- with nothing else in dlxsat naming
it, as tests/test_new_backend.py shows for a solver.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import dlxsat
from dlxsat import families
from dlxsat.cli import main

BOARD = "....\n.#..\n...#\n"
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def registered(monkeypatch):
    monkeypatch.setitem(families.FAMILIES, "dominoes", "domino_family")  # the one registry line


@pytest.fixture
def board(tmp_path: Path) -> Path:
    path = tmp_path / "board.txt"
    path.write_text(BOARD)
    return path


def test_it_solves_through_the_pipeline_on_every_backend():
    reports = [dlxsat.solve("dominoes", BOARD, backend=b, mode="all") for b in ("dlx", "sat")]
    reports.append(dlxsat.solve("dominoes", BOARD, backend="cpsat", mode="all"))
    assert {r.status for r in reports} == {"counted"}
    assert len({json.dumps(sorted(map(str, r.solutions))) for r in reports}) == 1
    assert reports[0].count == 3  # the three tilings of this board
    assert dlxsat.solve("dominoes", BOARD).status == "multiple"


def test_encode_and_solve_with_a_picture(board, tmp_path, capsys):
    assert main(["encode", "dominoes", str(board)]) == 0
    data = capsys.readouterr().out
    assert data.startswith("| dominoes:\n") and "11 13" in data  # cell (0,0) and (0,1)
    svg = tmp_path / "tiling.svg"
    assert main(["solve", "dominoes", str(board), "--all", "--svg", str(svg), "--quiet"]) == 0
    assert "counted: 3 solutions" in capsys.readouterr().out
    assert svg.read_text().count("<text") == len(BOARD.replace("\n", "").replace("#", ""))


def test_check_names_the_broken_rule(board, tmp_path, capsys):
    answer = tmp_path / "answer.txt"
    answer.write_text("ewew\ns#ew\nnew#\n")
    assert main(["check", "dominoes", str(board), str(answer)]) == 0
    assert capsys.readouterr().out == "correct\n"
    answer.write_text("ewew\ns#ew\nnwe#\n")
    assert main(["check", "dominoes", str(board), str(answer), "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["correct"] is False
    assert report["violations"][0] == "cell (3, 2): its domino's other half is not there"


def test_convert_writes_its_own_formats(board, capsys):
    assert main(["convert", "dominoes", str(board), "--to", "knuth"]) == 0
    assert capsys.readouterr().out == BOARD
    assert main(["convert", "dominoes", str(board), "--to", "grid", "--with-answer"]) == 0
    out, err = capsys.readouterr()
    assert "more than one answer" in err
    assert dlxsat.check("dominoes", BOARD, out).correct
    assert main(["convert", "dominoes", str(board), "--to", "puzzlink"]) == 2
    assert "the puzzlink format has no dominoes" in capsys.readouterr().err


def test_compare_runs_its_jobs(board, tmp_path, capsys):
    store = tmp_path / "results.jsonl"
    argv = ["compare", "dominoes", str(board), "--settings", "dlx", "--settings", "sat"]
    assert main([*argv, "--mode", "count", "-o", str(store), "--jobs", "1", "--quiet"]) == 0
    records = [json.loads(line) for line in store.read_text().splitlines()]
    assert {(r["setting"], r["status"], r["count"]) for r in records} == {
        ("dlx", "counted", 3),
        ("sat", "counted", 3),
    }


def test_no_other_module_names_it():
    named = [
        path.relative_to(ROOT)
        for path in (ROOT / "src").rglob("*.py")
        if "domino_family" in (text := path.read_text()) or '"dominoes"' in text
    ]
    assert named == []
