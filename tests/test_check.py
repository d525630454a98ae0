"""``dlxsat check``: published answers accepted, wrong ones rejected with the rule named.

The answers are the public puzzlekit corpus's (``tests/data/check/corpus.json``: a few small
published puzzles of each of its Masyu, Slitherlink, Sudoku and jigsaw sets, with their
answers; sources in ``puzzles/README.md``); the whole corpus is benchmarks/check_corpus.py's.
Every answer form is tried: the corpus's grid, a pzprv3 file with the answer drawn, a Penpa+ URL
with its answer layer, dlxsat's own form in Python.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import dlxsat
from dlxsat import formats
from dlxsat.cli import main

DATA = json.loads((Path(__file__).parent / "data" / "check" / "corpus.json").read_text())
#: The corpus's sets and the family each is.
FAMILY = {"masyu": "masyu", "slitherlink": "slitherlink", "sudoku": "sudoku", "jigsaw": "sudoku"}
CASES = [
    pytest.param(FAMILY[name], case, id=f"{name}-{case['key']}")
    for name, cases in DATA.items()
    for case in cases
]
TOKENS = {"masyu": ["-", "ns", "ew", "ne", "nw", "se", "sw"], "slitherlink": ["x", "-"]}


def changed(family: str, answer: str, seed: int) -> str:
    """The answer grid with one cell given another token of its notation."""
    head, *rows = answer.strip().splitlines()
    cells = [row.split() for row in rows]
    rng = random.Random(seed)
    i, j = rng.randrange(len(cells)), rng.randrange(len(cells[0]))
    tokens = TOKENS.get(family) or [str(d) for d in range(1, len(cells) + 1)]
    cells[i][j] = rng.choice([t for t in tokens if t != cells[i][j]])
    return "\n".join([head, *(" ".join(r) for r in cells)]) + "\n"


@pytest.mark.parametrize("family, case", CASES)
def test_the_published_answer_is_correct_and_unique(family, case):
    report = dlxsat.check(family, case["problem"], case["answer"], unique=True)
    assert (report.correct, report.violations, report.unique) == (True, [], True)


@pytest.mark.parametrize("family, case", CASES)
def test_one_changed_cell_is_wrong_with_the_rule_named(family, case):
    for seed in range(3):
        report = dlxsat.check(family, case["problem"], changed(family, case["answer"], seed))
        assert not report.correct
        assert report.violations and all(v.strip() for v in report.violations)


@pytest.mark.parametrize("family, case", CASES)
def test_a_file_or_url_holding_the_answer_is_judged_alone(family, case, tmp_path, capsys):
    puzzle = formats.read(family, case["problem"], "grid")
    answer = formats.read_answer(family, puzzle, case["answer"], "grid")
    if family == "sudoku" and len(case["problem"].split("\n")) > puzzle.n + 1:
        return  # a jigsaw: pzprjs's and Penpa+'s sudokus have standard boxes only
    for to in ("pzprv3", "penpa"):
        path = tmp_path / f"solved.{to}"
        path.write_text(formats.write(family, puzzle, to, answer))
        assert main(["check", family, str(path)]) == 0
        assert capsys.readouterr().out == "correct\n"


def test_exit_statuses_and_json(tmp_path, capsys):
    case = DATA["masyu"][0]
    puzzle, right = tmp_path / "p.txt", tmp_path / "a.txt"
    puzzle.write_text(case["problem"])
    right.write_text(case["answer"])
    assert main(["check", "masyu", str(puzzle), str(right), "--unique"]) == 0
    assert capsys.readouterr().out == "correct and unique\n"
    wrong = tmp_path / "wrong.txt"
    wrong.write_text(changed("masyu", case["answer"], 0))
    assert main(["check", "masyu", str(puzzle), str(wrong), "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["correct"] is False and report["violations"] and report["family"] == "masyu"
    assert main(["check", "masyu", str(puzzle), str(wrong)]) == 1
    out = capsys.readouterr().out
    assert out.startswith("wrong: ") and out.count("\n") == 1
    bad = tmp_path / "bad.txt"
    bad.write_text("5 5\nqq\n")
    assert main(["check", "masyu", str(puzzle), str(bad)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("dlxsat: error: ") and err.count("\n") == 1
    # A pzprv3 file of another board is no answer to this one.
    other = formats.read("masyu", DATA["masyu"][1]["problem"], "grid")
    elsewhere = tmp_path / "other.pzprv3"
    solved = dlxsat.solve("masyu", other).solutions[0]
    elsewhere.write_text(formats.write("masyu", other, "pzprv3", solved))
    assert main(["check", "masyu", str(puzzle), str(elsewhere)]) == 2
    assert "holds another masyu" in capsys.readouterr().err


def test_a_puzzle_file_without_an_answer_is_an_input_error(tmp_path, capsys):
    case = DATA["slitherlink"][0]
    puzzle = formats.read("slitherlink", case["problem"], "grid")
    path = tmp_path / "bare.pzprv3"
    path.write_text(formats.write("slitherlink", puzzle, "pzprv3"))
    assert main(["check", "slitherlink", str(path)]) == 2
    assert "holds no answer" in capsys.readouterr().err


def test_the_api_takes_an_answer_in_dlxsats_form():
    case = DATA["sudoku"][0]
    puzzle = formats.read("sudoku", case["problem"], "grid")
    solved = dlxsat.solve("sudoku", puzzle).solutions[0]
    assert dlxsat.check("sudoku", puzzle, solved).correct
    grid = list(solved["grid"])
    grid[0] = grid[0][1] + grid[0][0] + grid[0][2:]
    assert not dlxsat.check("sudoku", puzzle, {"grid": grid}).correct
