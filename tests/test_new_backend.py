"""Adding a search backend is one module and one registry line; adding an option, the module.

``brute`` (tests/brute_solver.py) is registered here with one line, and then runs through
``dlxsat.solve`` (encode, solve, decode, rule check: the loop rule too), takes its option from
the API and from the one settings grammar (portfolio members, ``compare --settings``), and is
refused options it does not declare -- with nothing else in dlxsat naming it. The contract
suite (test_search_contract.py) runs the whole contract on it as well.
"""

from __future__ import annotations

import dataclasses

import pytest
from conftest import GOLDEN

import dlxsat
from dlxsat import solvers
from dlxsat.errors import InputError
from dlxsat.options import Option
from dlxsat.xcc import parse


@pytest.fixture(autouse=True)
def registered(monkeypatch):
    monkeypatch.setitem(solvers.SOLVERS, "brute", "brute_solver")  # the one registry line


SUDOKU = "4..3\n.3..\n..1.\n1..2\n"


def test_a_registered_backend_solves_puzzles_through_the_pipeline():
    mine = dlxsat.solve("sudoku", SUDOKU, backend="brute")
    theirs = dlxsat.solve("sudoku", SUDOKU, backend="sat")
    assert mine.status == theirs.status == "unique"
    assert mine.solutions == theirs.solutions
    backward = dlxsat.solve("sudoku", SUDOKU, backend="brute", mode="count", order="backward")
    assert (backward.status, backward.count, backward.stats["order"]) == ("counted", 1, "backward")


def test_a_registered_backend_keeps_the_loop_rule_through_the_pipeline():
    text = (GOLDEN / "masyu" / "empty-2x2.txt").read_text()
    mine = dlxsat.solve("masyu", text, backend="brute", mode="all")
    assert mine.status == "counted" and mine.count == 1  # the empty loop is no answer
    assert mine.solutions == dlxsat.solve("masyu", text, backend="dlx", mode="all").solutions


def test_its_options_come_from_its_spec_everywhere():
    assert solvers.parse_setting("brute:order=backward") == ("brute", {"order": ["backward"]})
    with pytest.raises(InputError, match="unknown order 'sideways'"):
        dlxsat.solve("sudoku", SUDOKU, backend="brute", order="sideways")
    with pytest.raises(InputError, match="backend brute does not take option 'encoding'"):
        dlxsat.solve("sudoku", SUDOKU, backend="brute", encoding="ladder")
    from dlxsat.backends.portfolio import parse_members

    member = parse_members("brute:order=backward,sat")[0]
    assert (member.name, member.options) == ("brute", {"order": "backward"})
    from dlxsat.compare.settings import parse_spec

    assert [s.text for s in parse_spec("brute:order=forward,backward")] == [
        "brute",
        "brute:order=backward",
    ]


def test_an_option_added_to_the_spec_alone_is_taken(monkeypatch):
    import brute_solver

    extra = Option("patience", int, 1, "a new option", low=1)
    wider = dataclasses.replace(brute_solver.SPEC, options=(*brute_solver.SPEC.options, extra))
    monkeypatch.setattr(brute_solver, "SPEC", wider)
    problem = parse("a b\na\nb\na b\n")
    assert dlxsat.solve_problem(problem, "brute", patience=3).count == 2
    assert solvers.parse_setting("brute:patience=2")[1] == {"patience": [2]}
    with pytest.raises(InputError, match="patience must be at least 1"):
        dlxsat.solve_problem(problem, "brute", patience=0)
