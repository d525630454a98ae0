"""DIMACS export and solver-output reading (``dlxsat.backends.cnf``), round trips through the
external solvers picosat and cadical (Debian packages; CI installs them: a missing one is a
failure, not a skip)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import GOLDEN, golden_cases, golden_problem
from hypothesis import HealthCheck, given, settings
from problems import brute_force, exact_cover_problems, loop_problems

from dlxsat.backends import dimacs
from dlxsat.cli import main
from dlxsat.errors import InputError
from dlxsat.solvers import solve_problem
from dlxsat.xcc import Problem, parse
from dlxsat.xcc.loop import used_edges
from dlxsat.xcc.names import parse_point_name
from dlxsat.xcc.rules import SingleLoop

SOLVERS = {
    "picosat": lambda path: ["picosat", str(path)],
    "cadical": lambda path: ["cadical", "-q", str(path)],
}
UNIQUE = [
    pytest.param(c, id=f"{c['family']}/{c['name']}")
    for c in golden_cases(ok_only=True)
    if "solution_edges" in c or "solution" in c
]


def run_solver(name: str, path: Path) -> str:
    """Run an external SAT solver on a DIMACS file; its stdout."""
    if shutil.which(name) is None:
        pytest.fail(f"the SAT solver {name!r} is not installed (apt-get install {name})")
    done = subprocess.run(SOLVERS[name](path), capture_output=True, text=True, timeout=120)
    # Competition exit codes: 10 satisfiable, 20 unsatisfiable.
    assert done.returncode in (10, 20), done.stderr
    return done.stdout


def is_exact_cover(problem: Problem, chosen: list[int]) -> bool:
    """Every primary item within its bounds, every secondary item used consistently."""
    count = [0] * len(problem.items)
    colors: dict[int, set] = {}
    for k in chosen:
        for i, c in problem.options[k]:
            count[i] += 1
            colors.setdefault(i, set()).add(c)
    for i, it in enumerate(problem.items):
        if it.primary:
            if not it.lo <= count[i] <= it.hi:
                return False
        elif count[i] > 1 and (None in colors[i] or len(colors[i]) > 1):
            return False
    return True


def looped(p: Problem) -> Problem:
    """``p`` with Knuth's single-loop rule (by its names), a puzzle's: no empty loop."""
    return p.with_rules(SingleLoop.from_names(p))


# ---------------------------------------------------------------- the file itself


def test_export_header_and_variable_map():
    p = looped(golden_problem("masyu/empty-2x2.dlx"))
    text = dimacs.export_dimacs(p, source="masyu empty-2x2.txt")
    lines = text.splitlines()
    comments = [x for x in lines if x.startswith("c")]
    assert "c source: masyu empty-2x2.txt" in comments
    assert any(x.startswith("c encoding: auto") for x in comments)
    assert any(x.startswith("c rule loop: eager - complete") for x in comments)
    # Variables 1..n are the options, in order, written as in the DLX text.
    for k in range(len(p.options)):
        assert f"c var {k + 1} option {p.option_text(k)}" in comments
    # Edge variables by doubled coordinates (Knuth's two-character names 01, 10, 12, 21).
    for x, y in [(0, 1), (1, 0), (1, 2), (2, 1)]:
        assert any(re.fullmatch(rf"c var \d+ edge {x} {y} = .*", c) for c in comments)
    header = [x for x in lines if x.startswith("p ")]
    assert len(header) == 1
    _, _, nv, nc = header[0].split()
    clauses = [x for x in lines if not x.startswith(("c", "p"))]
    assert len(clauses) == int(nc)
    used = set()
    for c in clauses:
        lits = [int(w) for w in c.split()]
        assert lits[-1] == 0 and all(lits[:-1])
        used |= {abs(v) for v in lits[:-1]}
    assert max(used) <= int(nv)
    # Every variable is described (singly or in a range).
    described = set()
    for c in comments:
        m = re.match(r"c var (\d+)(?:-(\d+))? ", c)
        if m:
            first = int(m.group(1))
            described |= set(range(first, int(m.group(2) or first) + 1))
    assert described == set(range(1, int(nv) + 1))


def test_export_without_loop_says_disjoint_loops_are_possible():
    p = looped(golden_problem("masyu/empty-2x2.dlx"))
    text = dimacs.export_dimacs(p, modes={"loop": "none"})
    assert "several disjoint loops" in text and "NOT encoded" in text
    assert not re.search(r"^c var \d+ edge", text, re.M)  # no loop variables at all


@pytest.mark.parametrize(
    "kw, message",
    [
        ({"modes": {"loop": "lazy"}}, "unknown loop mode"),
        ({"encoding": "native"}, "can't be exported"),
        ({"encoding": "nosuch"}, "unknown encoding"),
        ({"colors": "nosuch"}, "unknown colors"),
    ],
)
def test_export_bad_options(kw, message):
    with pytest.raises(InputError, match=message):
        dimacs.export_dimacs(parse("a\na\n"), **kw)


def test_eager_export_needs_the_rule():
    with pytest.raises(InputError, match="is not a loop puzzle"):
        dimacs.export_dimacs(golden_problem("sudoku/tatham-4x4-1.dlx"), modes={"loop": "eager"})


# ---------------------------------------------------------------- reading solver output


def test_read_competition_output():
    out = "c comment\ns SATISFIABLE\nv 1 -2 3\nv -4 5 0\n"
    assert dimacs.read_solver_output(out) == ("SATISFIABLE", {1, 3, 5})
    assert dimacs.read_solver_output("s UNSATISFIABLE\n") == ("UNSATISFIABLE", set())
    assert dimacs.read_solver_output("c x\ns UNKNOWN\n")[0] == "UNKNOWN"


def test_read_minisat_result_file():
    assert dimacs.read_solver_output("SAT\n1 -2 3 0\n") == ("SATISFIABLE", {1, 3})
    assert dimacs.read_solver_output("UNSAT\n") == ("UNSATISFIABLE", set())


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "no status line"),
        ("v 1 2 0\n", "no status line"),
        ("s SATISFIABLE\n", "no values"),
        ("s SATISFIABLE\nv 1 x 0\n", "line 2: not a literal"),
        ("s MAYBE\n", "unknown solver status"),
        ("s SATISFIABLE\nhello world\n", "line 2: not a line of SAT solver output"),
        ("s SATISFIABLE\ns UNSATISFIABLE\n", "second, different status"),
    ],
)
def test_read_bad_output(text, message):
    with pytest.raises(InputError, match=message):
        dimacs.read_solver_output(text)


# ---------------------------------------------------------------- round trips


@pytest.mark.parametrize("solver", sorted(SOLVERS))
@pytest.mark.parametrize("case", UNIQUE)
def test_round_trip_on_unique_golden_cases(case, solver, tmp_path):
    """export -> external solver -> read_solver_output -> the answer Knuth's solvers found."""
    p = golden_problem(case["dlx"])
    loop = case["family"] != "sudoku"
    path = tmp_path / "x.cnf"
    path.write_text(dimacs.export_dimacs(looped(p) if loop else p, source=case["name"]))
    status, true_vars = dimacs.read_solver_output(run_solver(solver, path))
    assert status == "SATISFIABLE"
    chosen = dimacs.chosen_options(p, true_vars)
    assert is_exact_cover(p, chosen)
    if loop:
        # The eager encoding is complete: any model is the (unique) single loop.
        want = sorted(parse_point_name(n) for n in case["solution_edges"])
        assert used_edges(p, chosen) == want
    else:
        r = solve_problem(p, "sat", limit=2)
        assert r.count == 1 and r.exhausted
        assert chosen == r.solutions[0]


@pytest.mark.parametrize("case", [c for c in UNIQUE if c.values[0]["family"] != "sudoku"])
def test_round_trip_without_loop_rule_is_an_exact_cover(case, tmp_path):
    """``--loop none``: a model is a solution of DLX2's problem (maybe several loops)."""
    p = golden_problem(case["dlx"])
    path = tmp_path / "x.cnf"
    path.write_text(dimacs.export_dimacs(looped(p), modes={"loop": "none"}))
    status, true_vars = dimacs.read_solver_output(run_solver("cadical", path))
    assert status == "SATISFIABLE"
    assert is_exact_cover(p, dimacs.chosen_options(p, true_vars))


@pytest.mark.parametrize("colors", ["onehot", "binary"])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(p=exact_cover_problems("MCC"))
def test_exported_cnf_has_the_problems_solutions(colors, p):
    """Without the loop rule the CNF's models, projected on the options, are the solutions:
    checked by enumerating models of the exported text with PySAT."""
    got = _enumerate_dimacs(
        dimacs.export_dimacs(p, colors=colors, encoding="totalizer"), len(p.options)
    )
    assert got == sorted(brute_force(p))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(p=loop_problems(max_rows=3, max_cols=4))
def test_exported_eager_cnf_has_the_single_loops(p):
    got = _enumerate_dimacs(dimacs.export_dimacs(looped(p)), len(p.options))
    assert got == sorted(brute_force(p, loop=True, allow_empty_loop=False))


def _enumerate_dimacs(text: str, n: int) -> list[list[int]]:
    """Every solution (option sets) of a DIMACS text, by blocking clauses on 1..n."""
    from pysat.formula import CNF
    from pysat.solvers import Solver

    formula = CNF(from_string=text)
    found = []
    with Solver(name="cadical195", bootstrap_with=formula.clauses) as s:
        while s.solve():
            model = s.get_model() or []
            chosen = [v - 1 for v in model[:n] if v > 0]
            found.append(chosen)
            if n == 0:  # no option variables to block: the one (empty) solution
                break
            s.add_clause([-(k + 1) if k in chosen else k + 1 for k in range(n)])
    return sorted(found)


#: A case of each family for the round trips through the command line and the API (the same
#: code for every case of a family: export, the solver's output read, the answer decoded and
#: rule-checked), the richest of each: a jigsaw with holes, a Masyu that is not square. Every
#: unique case's own CNF goes through both solvers in test_round_trip_on_unique_golden_cases.
ONE_A_FAMILY = [
    p
    for p in UNIQUE
    if p.id
    in (
        "sudoku/random-6x6-jigsaw-3holes",
        "masyu/tatham-18x10-1",
        "slitherlink/tatham-10x10-1",
        "superslitherlink/pi-day-2025",
    )
]


def test_one_a_family_is_one_of_each():
    assert sorted(p.values[0]["family"] for p in ONE_A_FAMILY) == sorted(
        {p.values[0]["family"] for p in UNIQUE}
    )


@pytest.mark.parametrize("case", ONE_A_FAMILY)
def test_cli_round_trip(case, tmp_path, capsys):
    """``dlxsat export dimacs`` -> cadical -> ``dlxsat decode`` gives the golden answer."""
    fam, puzzle = case["family"], str(GOLDEN / case["puzzle"])
    out = tmp_path / "x.cnf"
    assert main(["export", "dimacs", fam, puzzle, "-o", str(out)]) == 0
    model = tmp_path / "x.model"
    model.write_text(run_solver("cadical", out))
    capsys.readouterr()
    assert main(["decode", fam, puzzle, str(model), "--json"]) == 0
    import json

    answer = json.loads(capsys.readouterr().out)["solutions"][0]
    if fam == "sudoku":
        assert answer["grid"] == case["solution"]
    else:
        want = sorted(list(parse_point_name(n)) for n in case["solution_edges"])
        assert answer["edges"] == want


@pytest.mark.parametrize("case", ONE_A_FAMILY)
def test_library_round_trip(case, tmp_path):
    """What the two commands do, through the API: ``export_cnf`` -> cadical -> ``decode_model``
    gives the golden answer, rule-checked."""
    import dlxsat

    fam, text = case["family"], (GOLDEN / case["puzzle"]).read_text()
    out = tmp_path / "x.cnf"
    with open(out, "w") as f:
        dlxsat.export_cnf(fam, text).write(f, source="test")
    got = dlxsat.decode_model(fam, text, run_solver("cadical", out))
    assert got.status == "SATISFIABLE"
    if fam == "sudoku":
        assert got.answer == {"grid": case["solution"]}
    else:
        assert got.answer == {
            "edges": sorted(list(parse_point_name(n)) for n in case["solution_edges"])
        }


def test_decode_model_refuses_a_model_that_is_no_answer():
    """A model that breaks the puzzle's rules (here: no edge at all) is the user's error, named
    by ``name``; an unsatisfiable verdict is no answer."""
    import dlxsat

    case = next(c.values[0] for c in UNIQUE if c.values[0]["name"] == "tatham-5x5-1")
    text = (GOLDEN / case["puzzle"]).read_text()
    with pytest.raises(InputError, match=r"^mine: the model is not an answer to this puzzle"):
        dlxsat.decode_model("slitherlink", text, "s SATISFIABLE\nv -1 0\n", name="mine")
    got = dlxsat.decode_model("slitherlink", text, "s UNSATISFIABLE\n")
    assert (got.status, got.answer) == ("UNSATISFIABLE", None)


def test_export_loop_mode_policy():
    """``export``'s default mode of each rule: complete (eager); a loop family has the loop."""
    import dlxsat

    sudoku = "4..3.3....1.1..2"
    assert dlxsat.export_cnf("sudoku", sudoku).modes == {}
    assert dlxsat.export_cnf("masyu", "0.\n.1\n").modes == {"loop": "eager"}
    assert dlxsat.export_cnf("masyu", "0.\n.1\n", loop="none").modes == {"loop": "none"}
    with pytest.raises(InputError, match="sudoku is not a loop puzzle"):
        dlxsat.export_cnf("sudoku", sudoku, loop="eager")


#: Three cells in a row, each shaded or not; the shaded ones must be connected.
ROW = (
    "|@connected shaded\n|@members 11:1 13:1 15:1\n|@links grid\n"
    "p11 p13 p15 | 11 13 15\n"
    "p11 11:1\np11 11:0\np13 13:1\np13 13:0\np15 15:1\np15 15:0\n"
)
#: The same row, the shaded cells in pieces of two.
PAIR_ROW = ROW.replace("|@connected shaded", "|@sized pair").replace("grid\n", "grid\n|@size 2\n")
#: kind -> (puzzle, a model that breaks the rule (assumptions on the options), what is wrong).
BROKEN = {
    "connected": (ROW, [1, -2, -3, 4, 5, -6], "shaded: the members 15 are cut off from 11"),
    "sized": (
        PAIR_ROW,
        [1, -2, 3, -4, 5, -6],
        "pair: the piece of 11 13 15 has 3 members, more than 2",
    ),
}


@pytest.mark.parametrize("kind", sorted(BROKEN))
@pytest.mark.parametrize("mode", ["none", "eager"])
def test_decode_says_how_the_cnf_held_the_rule_and_names_what_a_model_breaks(
    tmp_path, capsys, kind, mode
):
    """``decode --cnf``: the CNF's mode of each rule in the JSON; a model that breaks the rule
    (connected: both ends shaded, the middle not; sized: all three shaded -- possible only
    without the rule) is refused naming the rule and how the CNF held it; a CNF of another
    puzzle is refused."""
    text_of, assumptions, wrong = BROKEN[kind]
    puzzle, cnf = tmp_path / "row.dlx", tmp_path / "row.cnf"
    puzzle.write_text(text_of)
    assert main(["export", "dimacs", "xcc", str(puzzle), f"--{kind}", mode, "-o", str(cnf)]) == 0
    text = cnf.read_text()
    assert f"c rule {kind}: {mode} - " in text
    broken = tmp_path / "broken.model"
    sat = "SATISFIABLE" if mode == "none" else "UNSATISFIABLE"
    from pysat.formula import CNF
    from pysat.solvers import Solver

    with Solver(name="cadical195", bootstrap_with=CNF(from_string=text).clauses) as s:
        found = s.solve(assumptions=assumptions)
        assert found == (mode == "none")
        model = s.get_model() if found else []
    broken.write_text(f"s {sat}\n" + (f"v {' '.join(map(str, model))} 0\n" if model else ""))
    capsys.readouterr()
    code = main(["decode", "xcc", str(puzzle), str(broken), "--cnf", str(cnf), "--json"])
    out, err = capsys.readouterr()
    if mode == "none":
        assert code == 2 and out == ""
        assert err == (
            f"dlxsat: error: {broken}: the model is not an answer to this puzzle: rule {kind}"
            f" {wrong} (the CNF holds the {kind} rule as 'none')\n"
        )
    else:
        assert code == 0 and json.loads(out)["cnf_rules"] == {kind: "eager"}
    other = tmp_path / "other.dlx"
    other.write_text(text_of.replace("p15 15:0\n", ""))
    assert main(["decode", "xcc", str(other), str(broken), "--cnf", str(cnf)]) == 2
    assert "not this puzzle's CNF (it has 6 options, the puzzle's exact-cover problem 5)" in (
        capsys.readouterr().err
    )
