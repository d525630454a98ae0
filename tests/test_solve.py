"""The whole pipeline on every golden case: its counts and answers equal Knuth's, and the
backends agree with one another on every golden puzzle (crosscheck)."""

from __future__ import annotations

import json

import pytest
from conftest import GOLDEN, ROOT, golden_cases

import dlxsat
from dlxsat import cli, pipeline
from dlxsat.answer import answer_key
from dlxsat.crosscheck import crosscheck, format_table
from dlxsat.families import get_spec
from dlxsat.families.spec import Policy
from dlxsat.xcc.names import b62

CASES = golden_cases(ok_only=True, registered=True)


def empty_loop_is_allowed(case: dict, text: str) -> bool:
    """Does no clue forbid the empty edge set? (Knuth counts it; `solve` never does.)"""
    lines = text.strip("\n").split("\n")
    if case["family"] == "masyu":
        return all(ch == "." for row in lines for ch in row)
    rows = [row for row in lines if not row.startswith("!")]
    letters = [row for row in lines if row.startswith("!")]
    return all(ch in ".0" or ch.isalpha() for row in rows for ch in row) and all(
        row.endswith("=0") for row in letters
    )


def expected_count(case: dict, text: str) -> int | None:
    if case["family"] == "sudoku":
        return case["dlx1"]["count"] if case.get("dlx1") else None
    if case["family"] == "fillomino":  # (his rules: solved with --rules knuth below)
        return case["dlx2"]["count"] if case.get("dlx2") else None
    for key in ("dlx2_loop_single_loop",):
        if case.get(key):
            n = case[key]["count"]
            break
    else:
        n = case.get("single_loop_count", case.get("single_loop_count_bruteforce"))
    if n is not None and empty_loop_is_allowed(case, text):
        n -= 1
    return n


def knuth_names(answer: dict) -> list[str]:
    return sorted(b62(r) + b62(c) for r, c in answer["edges"])


@pytest.mark.parametrize("case", CASES, ids=lambda e: f"{e['family']}/{e['name']}")
def test_counts_and_answers_equal_knuths(case):
    """The pipeline's count and answer of every golden puzzle are Knuth's. Its steps around
    the search (read, encode, decode, check the rules, leave out the empty loop) are the same
    for every backend, so it runs on dlx; every search backend's counts of the same exact-cover
    data are checked in test_search_contract.py (test_golden_counts), and their answers to
    every golden puzzle agree below (crosscheck)."""
    backend = "dlx"
    text = (GOLDEN / case["puzzle"]).read_text()
    want = expected_count(case, text)
    assert want is not None, "every accepted golden case has a reference count"
    # Knuth's counts are of his rules: a family with sets of rules states his (Fillomino's
    # standard rules are tested against the published answers in test_fillomino.py).
    policy = Policy(rules=get_spec(case["family"]).data_variant)
    report = pipeline.solve(
        case["family"], text, backend=backend, mode="all", timeout=120, policy=policy
    )
    assert report.status == "counted"
    assert report.count == want == len(report.solutions)
    assert len({answer_key(a) for a in report.solutions}) == want  # no answer twice
    if want == 1:
        answer = report.solutions[0]
        if case["family"] == "sudoku":
            assert answer == {"grid": case["solution"]}
        elif case.get("solution_edges"):
            assert knuth_names(answer) == case["solution_edges"]
    unique = pipeline.solve(case["family"], text, backend=backend, timeout=120, policy=policy)
    assert unique.status == {0: "none", 1: "unique"}.get(want, "multiple")
    assert unique.count == min(want, 2)


@pytest.mark.parametrize("family", ["masyu", "slitherlink", "superslitherlink", "sudoku"])
def test_crosscheck_agrees_on_every_golden_puzzle(family):
    files = [str(GOLDEN / e["puzzle"]) for e in CASES if e["family"] == family]
    rows = crosscheck(family, files, ["dlx", "sat", "cpsat"], timeout=120)
    assert len(rows) == len(files)
    assert all(r.agree and not r.timed_out for r in rows), format_table(rows)
    table = format_table(rows)
    assert table.count("agree") == len(files)


def test_crosscheck_reports_a_disagreement():
    from dlxsat.crosscheck import CrossRow, compare

    row = CrossRow("p.txt", counts={"dlx": 1, "sat": 1}, seconds={"dlx": 0.0, "sat": 0.0})
    row.answers = {"dlx": {("grid", ("12", "21"))}, "sat": {("grid", ("21", "12"))}}
    compare(row)
    assert not row.agree and "dlx and sat found different answers" in row.difference
    row = CrossRow("p.txt", counts={"dlx": 1, "sat": 2}, seconds={"dlx": 0.0, "sat": 0.0})
    row.answers = {"dlx": set(), "sat": set()}
    compare(row)
    assert not row.agree and "dlx found 1 answers, sat found 2" in row.difference


def test_cli_solve_json_contract(capsys):
    path = GOLDEN / "masyu" / "tatham-10x10-1.txt"
    rc = cli.main(["solve", "masyu", str(path), "--backend", "dlx", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert rc == 0
    assert set(out) == {"family", "backend", "status", "count", "solutions", "seconds", "stats"}
    assert (out["family"], out["backend"], out["status"], out["count"]) == (
        "masyu",
        "dlx",
        "unique",
        1,
    )
    case = next(e for e in CASES if e["name"] == "tatham-10x10-1" and e["family"] == "masyu")
    assert knuth_names(out["solutions"][0]) == case["solution_edges"]


def test_cli_solve_text_draws_the_answer(capsys):
    path = GOLDEN / "sudoku" / "puzzlium-A.txt"
    rc = cli.main(["solve", "sudoku", str(path), "--backend", "sat"])
    out = capsys.readouterr().out
    assert rc == 0 and out.startswith("unique: 1 solution")
    assert "5|4 6 1|3|2" in out  # the second row, drawn with its box walls


def test_cli_crosscheck_exit_status(capsys):
    files = [str(GOLDEN / "slitherlink" / "tatham-5x5-1.txt")]
    rc = cli.main(["crosscheck", "slitherlink", *files, "--backends", "dlx,sat"])
    out = capsys.readouterr().out
    assert rc == 0 and "agree" in out


def test_empty_loop_is_never_an_answer():
    text = (GOLDEN / "masyu" / "empty-2x2.txt").read_text()
    for backend in ("dlx", "sat", "cpsat"):
        report = dlxsat.solve("masyu", text, backend=backend, mode="all")
        assert report.count == 1  # Knuth's 2 = the empty set + the square
        assert len(report.solutions[0]["edges"]) == 4


def test_timeout_status(capsys):
    """(Whether the limit ends the search or, on a loaded machine, loading the kernels, the
    status is the time out: a longer limit would only search longer.)"""
    path = str(ROOT / "puzzles" / "slitherlink" / "tatham-30x25.txt")
    rc = cli.main(["solve", "slitherlink", path, "--backend", "dlx", "--timeout", "0.5", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert rc == 3 and out["status"] == "timeout"


def test_a_solve_collects_less_often_and_puts_the_callers_threshold_back(monkeypatch):
    """During a solve the collector's youngest threshold is raised (the work sees it);
    afterwards the caller's is back, also after a solve that raised an error. The same for
    ``solve_problem`` (the search's progress calls see it)."""
    import gc

    from dlxsat.runtime import collector

    seen = []
    work = pipeline._solve

    def spying(*args, **kwargs):
        seen.append(gc.get_threshold()[0])
        return work(*args, **kwargs)

    monkeypatch.setattr(pipeline, "_solve", spying)
    before = gc.get_threshold()
    try:
        gc.set_threshold(1234, 5, 6)
        text = (ROOT / "puzzles/sudoku/puzzlium-A.txt").read_text()
        assert dlxsat.solve("sudoku", text, backend="dlx").status == "unique"
        assert seen == [collector.YOUNG_THRESHOLD] and gc.get_threshold() == (1234, 5, 6)
        with pytest.raises(dlxsat.InputError):
            dlxsat.solve("sudoku", "not a sudoku", backend="dlx")
        assert gc.get_threshold() == (1234, 5, 6)
        seen.clear()
        problem = dlxsat.parse_dlx("a b\na\nb\na b\n")
        found = dlxsat.solve_problem(
            problem, "dlx", on_found=lambda n: seen.append(gc.get_threshold()[0])
        )
        assert found.count == 2 and set(seen) == {collector.YOUNG_THRESHOLD}
        assert gc.get_threshold() == (1234, 5, 6)
        with collector.fewer_collections(), collector.fewer_collections():
            assert gc.get_threshold() == (collector.YOUNG_THRESHOLD, 5, 6)
        assert gc.get_threshold() == (1234, 5, 6)
    finally:
        gc.set_threshold(*before)
