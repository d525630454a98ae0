"""The one exact-cover checker (``dlxsat.xcc.check``), with the single-loop rule: it is the
check behind ``dlxsat dlx`` (``--loop`` included) and the portfolio's trust in its members."""

from __future__ import annotations

import json

import pytest
from conftest import GOLDEN

import dlxsat
from dlxsat.errors import RuleViolation
from dlxsat.result import SearchResult
from dlxsat.xcc import parse
from dlxsat.xcc.check import check_solutions, solution_problem
from dlxsat.xcc.rules import SingleLoop

#: Two 2 x 2 squares side by side (grid points (0,0)-(2,2) and (0,4)-(2,6)); in each, a vertex
#: either puts both its edges on or neither. Options 0, 2, 4, 6 close the first square,
#: 8, 10, 12, 14 the second, and the odd options leave the edges off.
TWO_SQUARES = (
    "00 02 20 22 04 06 24 26 | 01 10 12 21 05 14 16 25\n"
    "00 01:1 10:1\n00 01:0 10:0\n02 01:1 12:1\n02 01:0 12:0\n"
    "20 10:1 21:1\n20 10:0 21:0\n22 12:1 21:1\n22 12:0 21:0\n"
    "04 05:1 14:1\n04 05:0 14:0\n06 05:1 16:1\n06 05:0 16:0\n"
    "24 14:1 25:1\n24 14:0 25:0\n26 16:1 25:1\n26 16:0 25:0\n"
)
TWO_LOOPS = [0, 2, 4, 6, 8, 10, 12, 14]
ONE_LOOP = [0, 2, 4, 6, 9, 11, 13, 15]


def test_two_disjoint_loops_are_no_answer_under_the_loop_rule():
    p = parse(TWO_SQUARES)
    assert solution_problem(p, TWO_LOOPS) is None  # an exact cover ...
    looped = p.with_rules(SingleLoop.from_names(p))
    assert solution_problem(looped, TWO_LOOPS) == (
        "rule loop: the edges colored 1 form 2 loops, not a single loop"
    )  # ... but not one loop
    assert check_solutions(looped, [ONE_LOOP]) == 1
    with pytest.raises(RuleViolation, match="not a single loop"):
        check_solutions(looped, [ONE_LOOP, TWO_LOOPS])
    with pytest.raises(RuleViolation, match="twice"):
        check_solutions(p, [ONE_LOOP, ONE_LOOP])


def test_dlx_loop_rejects_an_answer_of_two_disjoint_loops(cli_run, monkeypatch, tmp_path):
    """The check of ``dlxsat dlx --loop`` is independent of the search: a search that returned
    two disjoint loops is caught (the real one never does: it has the rule built in)."""
    from dlxsat.backends import dlx

    monkeypatch.setattr(
        dlx, "solve", lambda problem, request, options: SearchResult([TWO_LOOPS], 1, True)
    )
    path = tmp_path / "two.dlx"
    path.write_text(TWO_SQUARES)
    rc, out, err = cli_run(["dlx", path, "--loop", "--all"])
    assert rc != 0 and "single loop" in err and out == ""
    rc, out, err = cli_run(["dlx", path, "--all"])  # without the rule it is an answer
    assert rc == 0, err


def test_decode_json_status_is_in_the_vocabulary(cli_run, tmp_path):
    text = (GOLDEN / "sudoku" / "puzzlium-A.txt").read_text()
    puzzle = tmp_path / "p.txt"
    puzzle.write_text(text)
    prob = dlxsat.solve_problem(dlxsat.parse_dlx(dlxsat.encode("sudoku", text)), "sat", limit=1)
    model = tmp_path / "model.txt"
    model.write_text("s SATISFIABLE\nv " + " ".join(str(k + 1) for k in prob.solutions[0]) + " 0\n")
    rc, out, err = cli_run(["decode", "sudoku", puzzle, model, "--json"])
    assert rc == 0, err
    report = json.loads(out)
    assert report["status"] in dlxsat.STATUSES and report["count"] == 1
    model.write_text("s UNSATISFIABLE\n")
    rc, out, err = cli_run(["decode", "sudoku", puzzle, model, "--json"])
    assert json.loads(out)["status"] in dlxsat.STATUSES
