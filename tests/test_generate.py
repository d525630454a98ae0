"""The Masyu generator: random loops, the circles they allow, unique puzzles, the CLI command."""

from __future__ import annotations

import doctest
import random
import re
import sys

import pytest
from conftest import ask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dlxsat
from dlxsat.cli import main
from dlxsat.errors import InputError
from dlxsat.families import masyu as fam
from dlxsat.generators import masyu as generate
from dlxsat.generators.masyu import (
    LoopCanvas,
    UniquenessOracle,
    board_text,
    generate_masyu,
    is_unique,
    loop_circles,
    loop_edges,
    parse_size,
    random_loop,
    solvable_loop,
    switchable_problem,
)
from dlxsat.reasoning import masyu as lm
from dlxsat.result import status_of

# --- sizes -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, size", [("10x10", (10, 10)), ("36x20", (36, 20)), (" 2X3 ", (2, 3)), ("99x2", (99, 2))]
)
def test_parse_size(text, size):
    assert parse_size(text) == size


@pytest.mark.parametrize(
    "text, words",
    [
        ("10", "not ROWSxCOLS"),
        ("10x", "not ROWSxCOLS"),
        ("x10", "not ROWSxCOLS"),
        ("ten x ten", "not ROWSxCOLS"),
        ("10x10x10", "not ROWSxCOLS"),
        ("-3x4", "not ROWSxCOLS"),
        ("1x5", "2 or more"),
        ("0x0", "2 or more"),
        ("100x5", "at most 99"),
    ],
)
def test_parse_size_errors(text, words):
    with pytest.raises(InputError, match=words) as err:
        parse_size(text)
    assert "\n" not in str(err.value)


# --- loops ---------------------------------------------------------------------------------------


def is_simple_loop(loop: list[tuple[int, int]], rows: int, cols: int) -> bool:
    return (
        len(loop) >= 4
        and len(set(loop)) == len(loop)
        and all(0 <= i < rows and 0 <= j < cols for i, j in loop)
        and all(
            abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1
            for a, b in zip(loop, loop[1:] + loop[:1], strict=True)
        )
    )


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 9), st.integers(2, 9), st.integers(0, 10**6), st.booleans())
def test_random_loop_is_one_simple_loop(rows, cols, seed, anneal):
    loop = random_loop(rows, cols, random.Random(seed), anneal=anneal).loop()
    assert is_simple_loop(loop, rows, cols)


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 7), st.integers(2, 7), st.lists(st.integers(0, 10**4), max_size=60))
def test_flips_keep_one_loop(rows, cols, picks):
    """can_flip admits exactly the flips after which the border is still one simple loop."""
    canvas = random_loop(rows, cols, random.Random(len(picks)), anneal=False)
    for pick in picks:
        f = canvas.faces[pick % len(canvas.faces)]
        if canvas.can_flip(f):
            canvas.flip(f)
        loop = canvas.loop()
        assert is_simple_loop(loop, rows, cols)
        # The masks kept up to date by flips describe that same loop.
        on = set(loop_edges(loop))
        for i in range(rows):
            for j in range(cols):
                mask = canvas.mask[(i + 1) * canvas.cw + j + 1]
                want = sum(
                    bit
                    for bit, (di, dj) in zip((1, 2, 4, 8), lm.STEP, strict=True)
                    if (2 * i + di, 2 * j + dj) in on
                )
                assert mask == want


def test_loops_cover_most_cells():
    rng = random.Random(5)
    cover = [len(random_loop(10, 10, rng).loop()) / 100 for _ in range(10)]
    assert sum(cover) / len(cover) > 0.7


@settings(max_examples=40, deadline=None)
@given(st.integers(3, 8), st.integers(3, 8), st.integers(0, 10**6))
def test_circles_fit_their_loop(rows, cols, seed):
    """Every circle the loop allows is satisfied by the loop (the family's rule checker)."""
    loop = random_loop(rows, cols, random.Random(seed)).loop()
    circles = loop_circles(loop)
    puzzle = fam.read(board_text(rows, cols, circles))
    answer = {"edges": [list(e) for e in loop_edges(loop)]}
    assert fam.check(puzzle, answer) == []
    # ... and no other cell could take a circle: each one added breaks the rules.
    for i in range(rows):
        for j in range(cols):
            if (i, j) in circles:
                continue
            for clue in "01":
                more = fam.read(board_text(rows, cols, {**circles, (i, j): clue}))
                assert fam.check(more, answer) != []


# --- uniqueness ----------------------------------------------------------------------------------


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(3, 6), st.integers(3, 6), st.integers(0, 10**6))
def test_oracle_agrees_with_search(rows, cols, seed):
    rng = random.Random(seed)
    loop = random_loop(rows, cols, rng).loop()
    circles = loop_circles(loop)
    oracle = UniquenessOracle(rows, cols)
    try:
        for _ in range(4):
            text = board_text(rows, cols, circles)
            count = lm.solve(text.split(), ask("count"), {"fallback": True}).count
            assert count >= 1
            assert oracle.other_answer(loop, circles) == (count > 1)
            if circles:
                del circles[rng.choice(sorted(circles))]
    finally:
        oracle.close()


def test_switchable_problem_counts_like_each_board():
    """Switches on for some circles and off for the others: the answers of that board."""
    from dlxsat.backends import cnf

    circles = [((0, 1), "0"), ((1, 1), "1"), ((1, 2), "0"), ((2, 0), "1")]
    problem, switch = switchable_problem(3, 4, circles)
    assert sorted(switch) == sorted(circles)
    for on in ([], circles[:1], circles[1:3], circles):
        board = board_text(3, 4, dict(on))
        want = lm.solve(board.split(), ask("count"), {"fallback": True}).count
        # Each switch "on" option forced or forbidden by a one-option clause of its own.
        forced = [[v if pair in on else -v] for pair, v in switch.items()]
        formula = cnf.build(problem, modes={"loop": "lazy"})
        formula.clauses += forced
        session = cnf.Session("glucose4", formula)
        count = 0
        while session.find(None):
            count += 1
            model = session.model()
            true = {v for v in model if v > 0}  # (a variable past the model's end is false)
            session.add([-lit for lit in formula.on.values() if lit in true])
        session.close()
        assert count == want, board


def test_switchable_problem_refuses_impossible_circles():
    with pytest.raises(ValueError, match="no loop can pass"):
        switchable_problem(3, 3, [((0, 0), "0")])  # a white circle can't go straight in a corner


def test_is_unique():
    assert is_unique("..\n..\n")
    assert not is_unique("...\n...\n")
    assert is_unique("...\n.0.\n")


# --- the generator -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "rows, cols, seed", [(2, 2, 0), (3, 5, 1), (6, 6, 2), (8, 7, 3), (10, 10, 4)]
)
def test_generated_puzzle(rows, cols, seed):
    text = generate_masyu(rows, cols, seed=seed)
    assert text == generate_masyu(rows, cols, seed=seed)  # deterministic
    assert text.endswith("\n") and set(text) <= set("01.\n")
    puzzle = fam.read(text)
    assert (puzzle.m, puzzle.n) == (rows, cols)
    out = lm.solve(puzzle, ask(), {"fallback": True})
    assert (status_of("unique", out), out.count) == ("unique", 1)
    report = dlxsat.solve("masyu", text, backend="sat")
    assert (report.status, report.solutions) == ("unique", out.answers)
    # Its circles are circles the answer's loop allows (the loop it was made from).
    answer = {tuple(e) for e in out.answers[0]["edges"]}
    allowed = loop_circles(cells_of(answer))
    clues = {(i, j): ch for i, row in enumerate(text.split()) for j, ch in enumerate(row)}
    assert {c: v for c, v in clues.items() if v != "."}.items() <= allowed.items()


def cells_of(edges: set[tuple[int, int]]) -> list[tuple[int, int]]:
    """The loop through these edge midpoints, as its cells in order."""
    adj: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for x, y in edges:
        a, b = ((x - 1, y), (x + 1, y)) if x % 2 else ((x, y - 1), (x, y + 1))
        for p, q in ((a, b), (b, a)):
            adj.setdefault((p[0] // 2, p[1] // 2), []).append((q[0] // 2, q[1] // 2))
    start = min(adj)
    loop, prev = [start], None
    while True:
        nxt = [c for c in adj[loop[-1]] if c != prev][0]
        if nxt == start:
            return loop
        prev = loop[-1]
        loop.append(nxt)


def test_seeds_differ():
    assert len({generate_masyu(6, 6, seed=s) for s in range(4)}) > 1


def test_circles_removed_while_unique():
    """Each remaining circle is needed: without it the answer is no longer unique."""
    text = generate_masyu(6, 6, seed=11)
    clues = [(i, j) for i, row in enumerate(text.split()) for j, ch in enumerate(row) if ch != "."]
    assert clues
    rows = [list(r) for r in text.split()]
    for i, j in clues:
        fewer = [r[:] for r in rows]
        fewer[i][j] = "."
        fewer_out = lm.solve(["".join(r) for r in fewer], ask(), {"fallback": True})
        assert status_of("unique", fewer_out) == "multiple"


def test_solvable_loop_full_clues_unique():
    loop, circles = solvable_loop(7, 9, random.Random(3))
    assert circles == loop_circles(loop)
    out = lm.solve(board_text(7, 9, circles).split(), ask(), {"fallback": True})
    assert status_of("unique", out) == "unique"
    assert {tuple(e) for e in out.answers[0]["edges"]} == set(loop_edges(loop))


def test_logic_only_puzzles_need_no_search():
    text = generate_masyu(8, 8, seed=5, logic_only=True)
    out = lm.solve(text.split())
    assert (status_of("unique", out), out.stats["deduction"]) == ("unique", "solved")


def test_timeout_still_unique():
    text = generate_masyu(7, 7, seed=1, timeout=1e-9)
    assert is_unique(text)


def test_bad_sizes():
    with pytest.raises(InputError):
        generate_masyu(1, 5)


def test_cli(capsys):
    assert main(["generate", "masyu", "6x5", "--seed", "9"]) == 0
    assert capsys.readouterr().out == generate_masyu(6, 5, seed=9)
    assert main(["generate", "masyu", "6by5"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("dlxsat: error: board size") and "Traceback" not in err


def test_cli_size_is_rows_then_columns(capsys):
    """``3x5`` is 3 rows of 5 cells, as in puzzle files (not Tatham's width x height)."""
    assert main(["generate", "masyu", "3x5", "--seed", "4"]) == 0
    rows = capsys.readouterr().out.split()
    assert len(rows) == 3 and {len(r) for r in rows} == {5}


def test_cli_prints_the_seed_it_chose(capsys):
    assert main(["generate", "masyu", "4x6"]) == 0
    out, err = capsys.readouterr()
    m = re.fullmatch(r"dlxsat: seed (\d+)\n", err)
    assert m, err
    # The seed repeats the run; given a seed, nothing is printed on stderr.
    assert main(["generate", "masyu", "4x6", "--seed", m[1]]) == 0
    assert capsys.readouterr() == (out, "")


def test_canvas_padding():
    canvas = LoopCanvas(3, 4)
    assert len(canvas.faces) == 6 and canvas.size == 0


def test_doctests():
    assert doctest.testmod(generate, optionflags=doctest.ELLIPSIS).failed == 0


# --------------------------------------------------------------------------- --timeout


def test_time_up_while_removing_circles_gives_the_unique_puzzle_so_far():
    """A time limit that passes at once, on a board whose first loop is unique with all its
    circles: that puzzle comes back whole (no circle removed) and its answer is unique."""
    seed = next(s for s in range(1, 30) if _first_loop_is_unique(10, 10, s))
    rushed = generate.generate_masyu(10, 10, seed=seed, timeout=1e-9)
    calm = generate.generate_masyu(10, 10, seed=seed)
    assert is_unique(rushed)
    assert rushed.count("0") + rushed.count("1") > calm.count("0") + calm.count("1")


def _first_loop_is_unique(rows: int, cols: int, seed: int) -> bool:
    try:
        generate.generate_masyu(rows, cols, seed=seed, timeout=1e-9, verify=False)
    except generate.OutOfTime:
        return False
    return True


def test_time_up_before_any_unique_loop_is_exit_3_in_its_own_words(cli_run):
    """(50 x 50 seed 3 --timeout 10 exited 2, 'bad input', with 'time limit reached'.)"""
    with pytest.raises(generate.OutOfTime, match="no 12x12 loop has a unique answer yet"):
        generate.generate_masyu(12, 12, seed=3, timeout=1e-9)
    rc, out, err = cli_run(["generate", "masyu", "12x12", "--seed", "3", "--timeout", "1e-9"])
    assert rc == 3 and out == ""
    # Either generate's own check of the deadline says it, or (on a loaded machine, where the
    # process's alarm can go off first) the run's stop line does, naming what generate was doing.
    assert err.startswith(
        (
            "dlxsat: time is up and no 12x12 loop has a unique answer yet",
            "dlxsat: time limit of 1e-09 s reached while looking for a 12x12 loop with a unique",
        )
    ), err
    assert err.count("\n") == 1 and "error" not in err and "solutions so far" not in err


def test_the_alarm_coming_as_generate_says_time_is_up_adds_no_line(cli_run, monkeypatch):
    """The race behind a CI failure: generate noticed its deadline and wrote its line, and the
    run's alarm, going off while it did, wrote "time limit ... reached" under it."""
    import signal

    from dlxsat.runtime import guard

    def out_of_time(*_args, **_kw):
        raise generate.OutOfTime("time is up and no 12x12 loop has a unique answer yet")

    monkeypatch.setattr(generate, "generate_within", out_of_time)
    real = sys.stderr

    class AlarmOnWrite:
        def write(self, text):
            n = real.write(text)
            if text.startswith("dlxsat: time is up"):
                guard._raise_stop(signal.SIGALRM, None)  # (the alarm, as the line goes out)
            return n

        def __getattr__(self, name):
            return getattr(real, name)

    monkeypatch.setattr(sys, "stderr", AlarmOnWrite())
    rc, out, err = cli_run(["generate", "masyu", "12x12", "--seed", "3", "--timeout", "30"])
    assert rc == 3 and out == ""
    assert err == "dlxsat: time is up and no 12x12 loop has a unique answer yet\n", err


def test_a_run_stopped_while_generating_says_what_it_was_doing(cli_run, monkeypatch):
    """The run's own deadline (or a signal) may stop a SAT question of the generator: the line
    says what generate was doing (99 x 99 --timeout 20 said '0 solutions so far')."""
    from dlxsat.runtime import guard

    def stop(*_args, **_kw):
        raise guard.TimeUp()

    monkeypatch.setattr(generate.UniquenessOracle, "other_answer", stop)
    monkeypatch.setattr(generate, "_deduce", lambda *a: ("stalled", _Stalled()))
    rc, out, err = cli_run(["generate", "masyu", "20x20", "--seed", "1", "--timeout", "100"])
    assert rc == 3 and out == ""
    assert "while looking for a 20x20 loop with a unique answer (seed 1)" in err
    assert "1 loop drawn so far" in err and "solutions" not in err


class _Stalled:
    """What _deduce returns for a board its deductions do not finish."""


def test_generate_help_says_what_happens_when_time_is_up(capsys):
    assert main(["generate", "masyu", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "the puzzle so far (its answer still unique) is printed" in text
    assert "exit 3 with no puzzle" in text
