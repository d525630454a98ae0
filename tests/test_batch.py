"""The batch path: ``build`` gives the problem of the DLX text, ``solve_many`` gives what
``solve`` gives (on the sudoku fast path too), checks every input before solving any, and judges
every answer by the family's rules."""

from __future__ import annotations

import json

import pytest
from conftest import GOLDEN, ROOT, golden_problem
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from test_sudoku import sudoku_cases

import dlxsat
from dlxsat import pipeline
from dlxsat.errors import InputError, RuleViolation
from dlxsat.families import get_family, sudoku
from dlxsat.families.sudoku import BatchTemplate
from dlxsat.solvers import spec_of
from dlxsat.xcc import parse

#: The batch path's threshold: the dlx solver's (its SPEC.batch).
MIN_PUZZLES = spec_of("dlx").batch

CASES = [c for c in json.loads((GOLDEN / "manifest.json").read_text()) if c["exit_status"] == 0]
SUDOKUS = [c for c in CASES if c["family"] == "sudoku"]
BUILDERS = [c for c in CASES if hasattr(get_family(c["family"]), "build")]


def _text(case: dict) -> str:
    return (GOLDEN / case["puzzle"]).read_text()


def _key(report) -> tuple:
    return report.status, report.count, sorted(json.dumps(a) for a in report.solutions)


@pytest.mark.parametrize("case", BUILDERS, ids=lambda c: f"{c['family']}/{c['name']}")
def test_build_is_the_parsed_dlx_text(case):
    fam = get_family(case["family"])
    puzzle = fam.read(_text(case))
    built = fam.build(puzzle)
    parsed = golden_problem(case["dlx"], allow_empty=True)
    assert built == parsed
    assert [it.name for it in built.items] == [it.name for it in parsed.items]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(sudoku_cases())
def test_sudoku_build_matches_parse_on_random_puzzles(case):
    text, _ = case
    try:
        p = sudoku.read(text)
    except InputError:
        assume(False)
    assert sudoku.build(p) == parse(sudoku.encode(p), allow_empty=True)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(sudoku_cases())
def test_fast_rule_check_agrees_with_the_family_checker(case):
    text, grid = case
    try:
        p = sudoku.read(text)
    except InputError:
        assume(False)
    shape = sudoku.batch_template(p)
    assume(shape is not None)
    verdict = sudoku.check(p, {"grid": grid}) == []
    assert shape.obeys_rules(p, {"grid": grid}) == verdict
    broken = [row.replace("#", "1", 1) for row in grid]  # a digit in a hole, if there is one
    assert shape.obeys_rules(p, {"grid": broken}) == (sudoku.check(p, {"grid": broken}) == [])


@pytest.mark.parametrize("mode", ["unique", "count", "all"])
def test_sudoku_fast_path_gives_what_solve_gives(mode):
    texts = [_text(c) for c in SUDOKUS]
    batch = texts * (MIN_PUZZLES // len(texts) + 1)  # enough for the fast path
    reports = list(dlxsat.solve_many("sudoku", batch, backend="dlx", mode=mode))
    assert len(reports) == len(batch)
    assert all(r.stats["kernel"] == "compiled" and "precover" not in r.stats for r in reports)
    singles = [pipeline.solve("sudoku", t, backend="dlx", mode=mode) for t in texts]
    for k, r in enumerate(reports):
        assert _key(r) == _key(singles[k % len(texts)])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(sudoku_cases())
def test_sudoku_fast_path_on_random_puzzles(case):
    """(Unique mode: a random grid with few clues can have millions of answers.)

    A random grid with holes and an extra group can have no answer at all, and proving that can
    take dancing links hundreds of millions of nodes (one such 9 x 9 took 96 million in 20 s,
    where SAT needed 0.05 s): cases the single search cannot settle in a small tree are left
    out, since the fast path would repeat that search for each of its puzzles.
    """
    text, _ = case
    try:
        sudoku.read(text)
    except InputError:
        assume(False)
    slow = pipeline.solve("sudoku", text, backend="dlx", timeout=2)
    assume(slow.status != "timeout" and slow.stats.get("nodes", 0) <= 20_000)
    fast = list(dlxsat.solve_many("sudoku", [text] * MIN_PUZZLES, backend="dlx"))
    assert _key(fast[0]) == _key(fast[-1])
    assert (fast[0].status, fast[0].count) == (slow.status, slow.count)
    if slow.status == "unique":
        assert fast[0].solutions == slow.solutions


@pytest.mark.parametrize("backend", ["dlx", "sat"])
def test_loop_families_in_a_batch(backend):
    cases = [c for c in CASES if c["family"] == "masyu" and c.get("dlx2_loop_single_loop")][:4]
    texts = [_text(c) for c in cases]
    reports = list(dlxsat.solve_many("masyu", texts, backend=backend))
    assert [_key(r) for r in reports] == [
        _key(pipeline.solve("masyu", t, backend=backend)) for t in texts
    ]


def test_inputs_may_be_puzzles_already_read():
    text = _text(SUDOKUS[0])
    mixed = [text, sudoku.read(text)]
    a, b = dlxsat.solve_many("sudoku", mixed, backend="dlx")
    assert _key(a) == _key(b) and a.status == "unique"


def test_every_input_is_checked_before_the_first_is_solved(monkeypatch):
    solved = []
    monkeypatch.setattr(pipeline, "run_solver", lambda *a: solved.append(a))
    good = _text(SUDOKUS[0])
    with pytest.raises(InputError, match=r"^puzzle 3: line 1"):
        dlxsat.solve_many("sudoku", [good, good, "1" * 40 + "\n", good])
    with pytest.raises(InputError, match=r"^puzzle 2: a int is neither a text nor a sudoku"):
        dlxsat.solve_many("sudoku", [good, 7])
    with pytest.raises(InputError, match="time limit must be positive"):
        dlxsat.solve_many("sudoku", [good], timeout=0)
    with pytest.raises(InputError, match="unknown mode"):
        dlxsat.solve_many("sudoku", [good], mode="some")
    with pytest.raises(InputError, match="does not take"):
        dlxsat.solve_many("sudoku", [good], backend="dlx", encoding="ladder")
    assert solved == []


def test_a_wrong_answer_is_never_reported(monkeypatch):
    """An answer the rule checker refuses is a bug, raised, on the fast path too."""
    texts = [_text(SUDOKUS[0])] * MIN_PUZZLES
    monkeypatch.setattr(
        BatchTemplate, "answer", lambda self, puzzle, chosen: {"grid": ["1" * puzzle.n] * puzzle.n}
    )
    with pytest.raises(RuleViolation):
        list(dlxsat.solve_many("sudoku", texts, backend="dlx"))


def test_timeout_is_per_puzzle():
    """Each puzzle gets the whole time limit (a batch is never cut short), and a puzzle out of
    time is reported as such, the others still solved."""
    texts = [_text(c) for c in SUDOKUS]
    reports = list(dlxsat.solve_many("sudoku", texts, backend="sat", timeout=30))
    assert [_key(r) for r in reports] == [
        _key(pipeline.solve("sudoku", t, backend="sat")) for t in texts
    ]
    late = list(dlxsat.solve_many("sudoku", texts, backend="dlx", timeout=1e-9))
    assert len(late) == len(texts) and {r.status for r in late} == {"timeout"}


def test_batch_benchmark_runs(tmp_path):
    """benchmarks/batch.py on a few puzzles: it prints its ratios and finds the answers equal."""
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "batch.py"), "--puzzles", "40", "--quick"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    ).stdout
    assert "solve_many, dlx" in out and "Norvig" in out and "answers agree" in out


def _fields(p: sudoku.SudokuPuzzle) -> tuple:
    return p.n, p.clues, p.holes, p.boxes, p.groups


@settings(max_examples=300, deadline=None)
@given(st.lists(sudoku_cases(), min_size=1, max_size=4), st.data())
def test_many_reader_reads_as_read_does(cases, data):
    """Same puzzles, same errors (message and all), also when the box groups repeat and when
    a clue line is damaged."""
    read_many = sudoku.many_reader()
    for text, _ in cases + cases:
        if data.draw(st.booleans(), label="damage"):
            k = data.draw(st.integers(0, len(text) - 1), label="at")
            text = text[:k] + data.draw(st.sampled_from("12#.x\n"), label="char") + text[k + 1 :]
        try:
            want = _fields(sudoku.read(text))
        except InputError as e:
            with pytest.raises(InputError) as got:
                read_many(text)
            assert str(got.value) == str(e)
        else:
            assert _fields(read_many(text)) == want


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(st.integers(2, 7), st.integers(2, 7), st.data())
def test_masyu_build_matches_parse_on_random_puzzles(m, n, data):
    from dlxsat.families import masyu

    cells = data.draw(st.lists(st.sampled_from("....01"), min_size=m * n, max_size=m * n))
    text = "".join("".join(cells[i * n : (i + 1) * n]) + "\n" for i in range(m))
    try:
        p = masyu.read(text)
    except InputError:
        assume(False)
    assert masyu.build(p) == parse(masyu.encode(p))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(st.integers(1, 6), st.integers(1, 6), st.data())
def test_slitherlink_build_matches_parse_on_random_puzzles(m, n, data):
    from dlxsat.families import slitherlink

    cells = data.draw(st.lists(st.sampled_from("...01234"), min_size=m * n, max_size=m * n))
    text = "".join("".join(cells[i * n : (i + 1) * n]) + "\n" for i in range(m))
    try:
        p = slitherlink.read(text)
    except InputError:
        assume(False)
    assert slitherlink.build(p) == parse(slitherlink.encode(p))


# --------------------------------------------------------------------------- bad records


SUDOKU_LINE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def _thousand(tmp_path, bad=(500,)):
    lines = [SUDOKU_LINE] * 1000
    for k in bad:
        lines[k - 1] = SUDOKU_LINE[:40] + "x" + SUDOKU_LINE[41:]
    path = tmp_path / "many.txt"
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize("json_out", [False, True])
def test_keep_going_answers_every_good_line(cli_run, tmp_path, json_out):
    """1,000 one-line Sudokus with line 500 malformed: 999 answers (numbered by record), the
    bad one named with its line on stderr, exit 2 at the end."""
    path = _thousand(tmp_path)
    rc, out, err = cli_run(
        ["solve", "sudoku", path, "--keep-going", *(["--json"] if json_out else [])]
    )
    assert rc == 2
    lines = out.splitlines()
    assert len(lines) == 999
    if json_out:
        records = [json.loads(x) for x in lines]
        numbers = [r["record"] for r in records]
        assert all(r["status"] == "unique" for r in records)
    else:
        numbers = [int(x.split()[0]) for x in lines]
        assert all(x.split()[1] == "unique" for x in lines)
    assert numbers == [k for k in range(1, 1001) if k != 500]
    errors = err.splitlines()
    assert errors[0].startswith("dlxsat: error: record 500 (line 500): character 41: 'x'")
    assert errors[-1] == "dlxsat: error: 1 of 1000 records not read (see above); 999 answered"
    assert len(errors) == 2


def test_without_keep_going_a_bad_line_stops_before_any_answer(cli_run, tmp_path):
    rc, out, err = cli_run(["solve", "sudoku", _thousand(tmp_path)])
    assert rc == 2 and out == ""
    assert "record 500 (line 500)" in err and "--keep-going" in err


def test_keep_going_with_the_first_and_last_lines_bad(cli_run, tmp_path):
    rc, out, err = cli_run(["solve", "sudoku", _thousand(tmp_path, (1, 1000)), "--keep-going"])
    assert rc == 2 and len(out.splitlines()) == 998 and out.startswith("2 unique ")
    assert "record 1 (line 1)" in err and "record 1000 (line 1000)" in err
    assert err.splitlines()[-1].startswith("dlxsat: error: 2 of 1000 records not read")


def test_keep_going_on_a_good_file_is_the_plain_batch(cli_run, tmp_path):
    path = _thousand(tmp_path, bad=())
    rc, out, err = cli_run(["solve", "sudoku", path, "--keep-going"])
    assert rc == 0 and err == ""
    assert out == cli_run(["solve", "sudoku", path])[1]
