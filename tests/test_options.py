"""Every solver option flag with every backend: taken and honoured, or refused in one line.

The flags of ``dlxsat solve`` are built from the solvers' declared options
(``dlxsat.solvers``); this table-driven test runs each declared flag, with a value its taker
allows, against every backend, and every common flag against every backend.
"""

from __future__ import annotations

import json

import pytest
from conftest import GOLDEN, assert_input_error

from dlxsat import solvers
from dlxsat.options import Option

PUZZLE = GOLDEN / "masyu" / "tatham-10x10-1.txt"  # a loop family every solver (logic too) takes


def good_value(option: Option) -> list[str]:
    """Command-line words giving ``option`` a value it allows (a flag alone for a bool)."""
    if option.kind is bool:
        return []
    if option.choices:  # a value other than the default, so that it must be passed on
        return [next(c for c in option.choices if c != option.default)]
    if option.kind is int:
        return ["2"]
    return [str(option.default)]


def applies_to_masyu(backend: str, key: str) -> bool:
    """Whether ``key`` reaches the solver on this test's Masyu puzzle: the logic backend
    declares options per family (its ``SPEC.family_options``)."""
    per_family = solvers.spec_of(backend).family_options
    return not per_family or key.replace("-", "_") in per_family["masyu"]


FLAG_RUNS = [
    pytest.param(backend, key, id=f"{backend}-{key}")
    for backend in solvers.names()
    for key in sorted({o.key for o in solvers.all_options()})
]


@pytest.mark.parametrize("backend, key", FLAG_RUNS)
def test_every_declared_flag_with_every_backend(cli_run, backend, key):
    mine = {o.key: o for o in solvers.options_of(backend)}
    taker = mine.get(key) or solvers.takers(key)[0][1]
    rc, out, err = cli_run(
        ["solve", "masyu", PUZZLE, "--backend", backend, "--json", taker.flag, *good_value(taker)]
    )
    if key in mine and not applies_to_masyu(backend, key):
        # A reasoning solver's option for another family (logic's --order is Sudoku's).
        assert_input_error(rc, out, err, f"{taker.flag} is for sudoku")
    elif key in mine and key in ("connected", "acyclic", "sized"):
        # The mode of a rule Masyu has not: refused (test_rules runs them with their rules).
        assert_input_error(rc, out, err, solvers.RULE_MODE_ALONE[key])
    elif key in mine:
        assert rc == 0, err
        report = json.loads(out)
        assert report["backend"] == backend and report["status"] == "unique"
        if key in ("encoding", "colors", "solver") or key == "loop":
            stat = {"loop": "loop_mode"}.get(key, key)
            assert report["stats"][stat] == good_value(taker)[0]
    else:
        assert_input_error(rc, out, err, f"backend {backend} does not take {taker.flag}")


@pytest.mark.parametrize("backend", solvers.names())
@pytest.mark.parametrize(
    "flags",
    [[], ["--count"], ["--all"], ["--timeout", "30"], ["--crosscheck"], ["--crosscheck", "sat"]],
    ids=lambda f: " ".join(f) or "plain",
)
def test_common_flags_with_every_backend(cli_run, backend, flags):
    rc, out, err = cli_run(["solve", "masyu", PUZZLE, "--backend", backend, "--json", *flags])
    assert rc == 0, err
    report = json.loads(out)
    assert report["count"] == 1
    assert report["status"] == ("counted" if {"--count", "--all"} & set(flags) else "unique")
    if "--crosscheck" in flags:
        assert [c["agree"] for c in report["crosscheck"]] == [True]


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["--backend", "sat", "--encoding", "nonsense"], "unknown encoding 'nonsense'"),
        (["--backend", "sat", "--loop", "circuit"], "unknown loop 'circuit'"),
        (["--backend", "cpsat", "--loop", "eager"], "unknown loop 'eager'"),
        (["--backend", "cpsat", "--workers", "0"], "workers must be at least 1"),
        (["--backend", "cpsat", "--workers", "two"], "workers takes a whole number"),
        (["--backend", "logic", "--solver", "glucose4"], "backend logic does not take --solver"),
        (["--backend", "dlx", "--colors", "onehot"], "backend dlx does not take --colors"),
        (["--crosscheck", "dlx,nope"], "unknown backend 'nope'"),
        (["--crosscheck", "logic"], "unknown backend 'logic'"),
        (["--backend", "nope"], "solve: argument --backend: invalid choice"),
    ],
)
def test_bad_option_values_are_one_line_errors(cli_run, args, fragment):
    rc, out, err = cli_run(["solve", "masyu", PUZZLE, *args])
    assert_input_error(rc, out, err, fragment)
    assert err.count("dlxsat") == 1  # no doubled prefix


def test_help_shows_every_declared_option_with_its_default(cli_run):
    rc, out, _ = cli_run(["solve", "--help"])
    assert rc == 0
    flat = " ".join(out.split())
    for name in solvers.names():
        for o in solvers.options_of(name):
            assert o.flag in flat
            if o.kind is not bool:
                assert f"default: {o.default}" in flat


def test_version(cli_run):
    import dlxsat

    rc, out, _ = cli_run(["--version"])
    assert rc == 0 and out.strip() == f"dlxsat {dlxsat.__version__}"


def test_solve_reads_stdin_when_file_is_omitted(cli_run):
    rc, out, err = cli_run(["solve", "masyu", "--json"], PUZZLE.read_bytes())
    assert rc == 0, err
    assert json.loads(out)["status"] == "unique"


def test_crosscheck_disagreement_exits_4(cli_run, monkeypatch):
    """A backend that loses an answer is caught by ``solve --crosscheck``."""
    from dlxsat.backends import cnf

    real = cnf.solve

    def lossy(problem, request, options):
        result = real(problem, request, options)
        result.solutions, result.count = [], 0
        return result

    monkeypatch.setattr(cnf, "solve", lossy)
    rc, out, err = cli_run(["solve", "masyu", PUZZLE, "--backend", "dlx", "--crosscheck", "sat"])
    assert rc == 4
    assert "crosscheck: sat DISAGREES: dlx says unique, sat says none" in out


def test_dlx_json_has_solutions_and_says_whether_exhaustive(cli_run):
    dlx = GOLDEN / "sudoku" / "puzzlium-A.dlx"
    rc, out, _ = cli_run(["dlx", dlx, "--json", "--first", "1"])
    first = json.loads(out)
    assert rc == 0 and first["exhaustive"] is False and len(first["solutions"]) == 1
    rc, out, _ = cli_run(["dlx", dlx, "--json", "--all"])
    every = json.loads(out)
    assert every["exhaustive"] is True and every["solutions"] == first["solutions"]
    rc, out, _ = cli_run(["dlx", dlx, "--json"])
    assert "solutions" not in json.loads(out)


@pytest.mark.parametrize(
    "family, puzzle", [("masyu", PUZZLE), ("sudoku", GOLDEN / "sudoku" / "puzzlium-A.txt")]
)
def test_explain_json_gives_the_steps_as_data(cli_run, family, puzzle):
    rc, out, err = cli_run(["solve", family, puzzle, "--backend", "logic", "--explain", "--json"])
    assert rc == 0, err
    report = json.loads(out)
    assert report["steps"] and all(isinstance(s, dict) and s["text"] for s in report["steps"])
    assert "steps" not in report["stats"]


def test_a_file_of_many_sudokus_defaults_to_the_batch_backend(cli_run, tmp_path):
    from dlxsat.families import get_spec
    from dlxsat.pipeline import default_backend

    many = tmp_path / "many.txt"
    many.write_text(
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n" * 3
    )
    rc, out, err = cli_run(["solve", "sudoku", many, "--json"])
    assert rc == 0, err
    reports = [json.loads(line) for line in out.splitlines()]
    assert [r["backend"] for r in reports] == [get_spec("sudoku").batch.backend] * 3
    assert {r["status"] for r in reports} == {"unique"}
    assert default_backend("sudoku") == "auto" and default_backend("masyu", many=True) == "auto"
