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
from dlxsat.backends import dlx
from dlxsat.errors import InputError, RuleViolation
from dlxsat.families import FAMILIES, get_spec, sudoku
from dlxsat.families.spec import Policy
from dlxsat.families.sudoku import BatchTemplate
from dlxsat.solvers import spec_of
from dlxsat.xcc import parse
from dlxsat.xcc.loop import loop_graph

#: The batch path's threshold: the dlx solver's (its SPEC.batch).
MIN_PUZZLES = spec_of("dlx").batch
#: The largest search tree (nodes) a random Sudoku of the fast-path test may have.
SMALL = 20_000

CASES = [c for c in json.loads((GOLDEN / "manifest.json").read_text()) if c["exit_status"] == 0]
SUDOKUS = [c for c in CASES if c["family"] == "sudoku"]
BUILDERS = [c for c in CASES if c["family"] in FAMILIES and get_spec(c["family"]).build is not None]


def _text(case: dict) -> str:
    return (GOLDEN / case["puzzle"]).read_text()


def _key(report) -> tuple:
    return report.status, report.count, sorted(json.dumps(a) for a in report.solutions)


@pytest.mark.parametrize("case", BUILDERS, ids=lambda c: f"{c['family']}/{c['name']}")
def test_build_is_the_parsed_dlx_text(case):
    fam = get_spec(case["family"])
    puzzle = fam.read(_text(case))
    if fam.data_variant:  # Knuth's data are of his rules (Fillomino: --rules knuth)
        puzzle = fam.prepare_puzzles([puzzle], Policy(rules=fam.data_variant))[0][0]
    built = fam.build(puzzle)
    parsed = fam.with_rules(golden_problem(case["dlx"], allow_empty=True))
    assert built == parsed
    assert [it.name for it in built.items] == [it.name for it in parsed.items]
    if built.rule("loop") is not None:  # (equal rules compare vertices and edges only)
        assert built.rule("loop").graph.coords == parsed.rule("loop").graph.coords


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(sudoku_cases())
def test_sudoku_build_matches_parse_on_random_puzzles(case):
    text, _ = case
    try:
        p = sudoku.read(text)
    except InputError:
        assume(False)
    assert sudoku.build(p) == parse(sudoku.encode(p), allow_empty=True)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
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
    out, since the fast path would repeat that search for each of its puzzles. The tree is
    measured in nodes, not seconds: a time limit let each such draw cost its whole limit, and
    how many were drawn varied from run to run (0.5 to 13 s of CPU for the same test).
    """
    text, _ = case
    try:
        puzzle = sudoku.read(text)
    except InputError:
        assume(False)
    if puzzle.blanks:  # (with nothing to fill there is no search to measure)
        small = dlx.solve(parse(sudoku.encode(puzzle)), dlx.Request(limit=2), {}, max_nodes=SMALL)
        assume(not small.timed_out)
    slow = pipeline.solve("sudoku", text, backend="dlx")
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


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(st.integers(2, 7), st.integers(2, 7), st.data())
def test_masyu_build_matches_parse_on_random_puzzles(m, n, data):
    from dlxsat.families import masyu

    cells = data.draw(st.lists(st.sampled_from("....01"), min_size=m * n, max_size=m * n))
    text = "".join("".join(cells[i * n : (i + 1) * n]) + "\n" for i in range(m))
    try:
        p = masyu.read(text)
    except InputError:
        assume(False)
    built = masyu.build(p)
    assert built == masyu.SPEC.problem(p, masyu.encode(p))
    if built.rule("loop") is not None:  # (an aborted board's problem has no graph to compare)
        assert built.rule("loop").graph == loop_graph(built)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(st.integers(1, 6), st.integers(1, 6), st.data())
def test_slitherlink_build_matches_parse_on_random_puzzles(m, n, data):
    from dlxsat.families import slitherlink

    cells = data.draw(st.lists(st.sampled_from("...01234"), min_size=m * n, max_size=m * n))
    text = "".join("".join(cells[i * n : (i + 1) * n]) + "\n" for i in range(m))
    try:
        p = slitherlink.read(text)
    except InputError:
        assume(False)
    built = slitherlink.build(p)
    assert built == slitherlink.SPEC.problem(p, slitherlink.encode(p))
    # (the loop's graph is made from coordinates, not read from the names: the same graph)
    assert built.rule("loop").graph == loop_graph(built)


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


# --------------------------------------------------------------------------- chunks of puzzles


def _solved_grid(rng) -> list[list[int]]:
    """A random valid 9 x 9 grid: the usual pattern, digits, bands and stacks shuffled."""
    digits = rng.sample(range(1, 10), 9)
    rows = [3 * band + r for band in rng.sample(range(3), 3) for r in rng.sample(range(3), 3)]
    cols = [3 * stack + c for stack in rng.sample(range(3), 3) for c in rng.sample(range(3), 3)]
    return [[digits[(3 * (i % 3) + i // 3 + j) % 9] for j in cols] for i in rows]


def _line(grid, keep) -> str:
    return "".join(str(grid[i][j]) if (i, j) in keep else "." for i in range(9) for j in range(9))


def _random_lines(seed: int, count: int) -> list[str]:
    """One-line Sudokus from random grids with 20 to 45 clues (many with several answers)."""
    import random

    rng = random.Random(seed)
    out = []
    for _ in range(count):
        grid = _solved_grid(rng)
        cells = [(i, j) for i in range(9) for j in range(9)]
        out.append(_line(grid, set(rng.sample(cells, rng.randint(20, 45)))))
    return out


def _two_answers() -> str:
    """A full grid (a published puzzle's answer) less the four cells of a swappable rectangle
    (two rows of a band, two columns of different stacks): exactly two answers."""
    for text in _published():
        g = pipeline.solve("sudoku", text, backend="dlx").solutions[0]["grid"]
        for r1 in range(9):
            for r2 in range(r1 + 1, 3 * (r1 // 3) + 3):
                for c1 in range(9):
                    for c2 in range(3 * (c1 // 3) + 3, 9):
                        if g[r1][c1] == g[r2][c2] and g[r1][c2] == g[r2][c1]:
                            rect = {(r1, c1), (r1, c2), (r2, c1), (r2, c2)}
                            cells = {(i, j) for i in range(9) for j in range(9)} - rect
                            return _line([[int(c) for c in row] for row in g], cells)
    raise AssertionError("no swappable rectangle in the published answers")


def _no_answer(line: str, answer: str) -> str:
    """``line`` (a puzzle with the one answer ``answer``) with a blank cell given a digit other
    than its answer's that no clue of its row, column or box has: then no answer is left."""
    for k, ch in enumerate(line):
        if ch != ".":
            continue
        i, j = divmod(k, 9)
        peers = {line[i * 9 + c] for c in range(9)} | {line[r * 9 + j] for r in range(9)}
        peers |= {
            line[r * 9 + c]
            for r in range(i - i % 3, i - i % 3 + 3)
            for c in range(j - j % 3, j - j % 3 + 3)
        }
        for d in "123456789":
            if d != answer[k] and d not in peers:
                return line[:k] + d + line[k + 1 :]
    raise AssertionError("no cell to spoil")


def _published() -> list[str]:
    """The bundled 9 x 9 Sudokus with the standard boxes (Tatham's, up to "unreasonable")."""
    out = []
    for path in sorted(ROOT.glob("puzzles/sudoku*/*9x9*.txt")):
        text = path.read_text()
        p = sudoku.read(text)
        if not p.holes and len(p.boxes) == 9:
            out.append(text)
    return out


@pytest.fixture
def chunk_calls(monkeypatch):
    """How many puzzles went through the batch kernel's chunks."""
    from dlxsat.backends.dlx.batch import Precovered

    calls = []
    real = Precovered.solve_chunk

    def spy(self, given, counts, limit, budget):
        calls.append(len(counts))
        return real(self, given, counts, limit, budget)

    monkeypatch.setattr(Precovered, "solve_chunk", spy)
    return calls


def _mixed_batch() -> list[str]:
    published = _published()
    unique = sudoku.read(published[0])
    single = pipeline.solve("sudoku", published[0], backend="dlx")
    line = "".join(unique.givens)
    answer = "".join(single.solutions[0]["grid"])
    return [*published, *_random_lines(7, 30), _two_answers(), _no_answer(line, answer), answer]


@pytest.fixture(scope="module")
def few_answers() -> list[str]:
    """The puzzles of :func:`_mixed_batch` with at most 100 answers (a random grid with 20
    clues can have millions): each search stops at its 101st answer, where counting them all
    under a time limit of a second took 4 s of the test and depended on the machine's load."""
    from dlxsat import formats
    from dlxsat.solvers import solve_problem

    def answers(text: str) -> int:
        problem = sudoku.build(formats.read("sudoku", text))
        return solve_problem(problem, "dlx", limit=101, keep=0).count

    return [t for t in _mixed_batch() if answers(t) <= 100]


@pytest.mark.parametrize("backend", ["auto", "dlx"])
@pytest.mark.parametrize("mode", ["unique", "count", "all"])
def test_chunks_give_what_solve_gives(backend, mode, chunk_calls, few_answers):
    """Published and random 9 x 9s, one with two answers, one with none and a full grid, in
    Knuth's format and as one-line texts: every report as ``solve`` makes it, one at a time,
    and the puzzles went through the chunk kernel."""
    # (counting or listing: the puzzles of at most 100 answers)
    texts = _mixed_batch() if mode == "unique" else few_answers
    reports = list(dlxsat.solve_many("sudoku", texts, backend=backend, mode=mode))
    assert sum(chunk_calls) == len(texts)
    singles = [pipeline.solve("sudoku", t, backend="dlx", mode=mode) for t in texts]
    assert [_key(r) for r in reports] == [_key(s) for s in singles]
    statuses = {r.status for r in reports}
    assert statuses >= ({"unique", "multiple", "none"} if mode == "unique" else {"counted"})
    for r in reports:
        assert r.backend == backend and r.stats["kernel"] == "compiled"
        assert r.stats["checked"] == (r.count if r.count <= 2 else len(r.solutions) or r.count)
        if backend == "auto":
            assert r.stats["auto"]["engine"] == "dlx"


def test_a_puzzle_past_the_chunk_budget_is_searched_on_its_own(monkeypatch, chunk_calls):
    """With a budget of one node no puzzle is settled in the chunk: each is searched again on
    its own (under auto: its trial, then auto's choice), with the same reports."""
    from dlxsat.backends.dlx import batch

    monkeypatch.setattr(batch, "NODE_BUDGET", 1)
    texts = _mixed_batch()
    for backend in ("auto", "dlx"):
        reports = list(dlxsat.solve_many("sudoku", texts, backend=backend))
        singles = [pipeline.solve("sudoku", t, backend="dlx") for t in texts]
        assert [_key(r) for r in reports] == [_key(s) for s in singles]
    assert sum(chunk_calls) == 2 * len(texts)


def test_a_wrong_answer_from_a_chunk_is_never_reported(monkeypatch):
    """The chunk's answers are judged by the family's rules, not by the search: a grid with a
    digit changed is a RuleViolation with the checker's message."""
    texts = _published()
    real = BatchTemplate.grids

    def spoiled(self, cells, sols, sol_len):
        grids = real(self, cells, sols, sol_len).copy()
        grids[3, 0, 80] = grids[3, 0, 79]  # two equal digits in the last row
        return grids

    monkeypatch.setattr(BatchTemplate, "grids", spoiled)
    with pytest.raises(RuleViolation, match="row 9: digit .* twice|column 9|box"):
        list(dlxsat.solve_many("sudoku", texts, backend="auto"))


def test_a_clue_changed_in_a_chunk_is_caught(monkeypatch):
    texts = _published()
    real = BatchTemplate.grids

    def moved(self, cells, sols, sol_len):
        grids = real(self, cells, sols, sol_len).copy()
        k = int(np.flatnonzero(cells[0])[0])  # a clue of the first puzzle
        grids[0, 0, k] = grids[0, 0, k] % 9 + 1
        return grids

    import numpy as np

    monkeypatch.setattr(BatchTemplate, "grids", moved)
    with pytest.raises(RuleViolation, match="clue"):
        list(dlxsat.solve_many("sudoku", texts, backend="dlx"))


def test_a_bad_line_among_many_says_what_reading_it_alone_says():
    from dlxsat import formats

    good = _random_lines(1, 40)
    bad = good[9][:40] + "x" + good[9][41:]
    with pytest.raises(InputError) as alone:
        formats.read("sudoku", bad)
    with pytest.raises(InputError) as many:
        dlxsat.solve_many("sudoku", [*good[:9], bad, *good[10:]])
    assert str(many.value) == f"puzzle 10: {alone.value}"
    twice = good[0].replace(".", good[0].strip(".")[0], 1)  # a digit twice in a row or column
    with pytest.raises(InputError, match="^puzzle 2: "):
        dlxsat.solve_many("sudoku", [good[1], twice, *good[2:]])


@settings(max_examples=300, deadline=None)
@given(sudoku_cases(), st.booleans(), st.data())
def test_read_bulk_reads_as_one_by_one(case, one_line, data):
    """Each text read in bulk is the puzzle reading it alone gives (same fields), or left to
    that reading (None) -- always when reading it alone is an error; also damaged texts and
    one-line Sudokus."""
    from dlxsat import formats

    text, grid = case
    if one_line:
        text = "".join(text.splitlines()[:9]).ljust(81, ".")[:81]
    if data.draw(st.booleans(), label="damage"):
        k = data.draw(st.integers(0, len(text) - 1), label="at")
        text = text[:k] + data.draw(st.sampled_from("19#.0x\n"), label="char") + text[k + 1 :]
    try:
        want = _fields(formats.read("sudoku", text))
    except InputError:
        want = None
    got = sudoku.read_bulk([text, text])
    for p in got:
        if p is not None:
            assert want is not None and _fields(p) == want
    if want is not None and not one_line and "#" not in text and text.endswith("\n"):
        n = len(text.splitlines()[0])
        if n <= 9 and all(len(x) == n and set(x) <= set("0123456789.") for x in text.splitlines()):
            assert got[0] is not None, repr(text)  # the common form is read in bulk


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(sudoku_cases(with_holes=False))  # (the packed arrays are for grids without holes)
def test_array_rule_check_agrees_with_the_family_checker(case):
    import numpy as np

    text, grid = case
    try:
        p = sudoku.read(text)
    except InputError:
        assume(False)
    shape = sudoku.batch_template(p)
    assume(shape is not None and shape.packs)
    cells = shape.packed_cells([p])
    values = np.array([[sudoku.CHARS.find(c) % 256 for c in "".join(grid)]], dtype=np.uint8)
    assert shape.obey_rules(cells, values[:, None, :]).tolist() == [
        [sudoku.check(p, {"grid": grid}) == []]
    ]


def test_a_file_of_one_line_sudokus_is_read_as_one_by_one():
    """formats.read_many reads one-line files in bulk: the same puzzles as reading each line,
    and a bad line's error names its record and line as before."""
    from dlxsat import formats

    lines = _random_lines(5, 30) + [_two_answers()]
    many = formats.read_many("sudoku", "\n".join(lines) + "\n")
    assert [_fields(p) for p in many] == [_fields(formats.read("sudoku", x)) for x in lines]
    bad = lines[:]
    bad[6] = bad[6][:10] + "z" + bad[6][11:]
    with pytest.raises(InputError) as alone:
        formats.read("sudoku", bad[6])
    with pytest.raises(InputError) as whole:
        formats.read_many("sudoku", "\n".join(bad) + "\n")
    assert str(whole.value) == f"record 7 (line 7): {alone.value}"
