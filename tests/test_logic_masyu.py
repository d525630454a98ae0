"""The Masyu logic backend: Yen et al.'s heuristics, intersection method and elimination search.

Every deduction must hold in every answer. The property tests check that on boards whose
answer (a loop) is known because the board was made from it: no heuristic, intersection or
elimination step may decide an edge against that loop or strike out the pattern it uses.
"""

from __future__ import annotations

import doctest
import json
import random
import time
from pathlib import Path

import pytest
from conftest import LOADED_MARGIN, ask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dlxsat
from dlxsat import reasoning as logic
from dlxsat.errors import InputError
from dlxsat.families import masyu as fam
from dlxsat.generators.masyu import board_text, loop_circles, loop_edges, random_loop
from dlxsat.reasoning import masyu as lm
from dlxsat.result import SearchResult, status_of
from dlxsat.solvers import Request

GOLDEN = Path(__file__).parent / "data" / "golden"
CASES = [c for c in json.loads((GOLDEN / "manifest.json").read_text()) if c["family"] == "masyu"]
GOOD = [c for c in CASES if c["exit_status"] == 0]
UNIQUE = [c for c in GOOD if c.get("solution_edges")]
NONE = [c for c in GOOD if c["dlx2_loop_single_loop"]["count"] == 0]
SMALL_MANY = [c for c in GOOD if c["dlx2_loop_single_loop"]["count"] > 1]


def load(case: dict) -> fam.MasyuPuzzle:
    return fam.read((GOLDEN / case["puzzle"]).read_text())


def ids(cases: list[dict]) -> list[str]:
    return [c["name"] for c in cases]


def status(out, mode: str = "unique") -> str:
    """The status word of a result, as the pipeline computes it (dlxsat.result.status_of)."""
    return status_of(mode, out)


def loop_count(case: dict) -> int:
    """Knuth's single-loop count without the empty edge set (which `solve` never returns)."""
    n = case["dlx2_loop_single_loop"]["count"]
    return n - 1 if all(ch == "." for row in load(case).rows for ch in row) else n


# --- golden cases ----------------------------------------------------------------------------


@pytest.mark.parametrize("case", UNIQUE, ids=ids(UNIQUE))
def test_golden_unique_solved_by_deduction(case):
    puzzle = load(case)
    out = lm.solve(puzzle)
    assert status(out) == "unique" and out.count == 1 and out.exhausted
    assert out.stats["deduction"] == "solved"
    assert out.answers == [fam.answer_from_names(case["solution_edges"])]
    assert fam.check(puzzle, out.answers[0]) == []
    assert out.stats["decided"] == out.stats["edges"]


@pytest.mark.parametrize("case", UNIQUE, ids=ids(UNIQUE))
def test_golden_unique_through_pipeline(case):
    text = (GOLDEN / case["puzzle"]).read_text()
    report = dlxsat.solve("masyu", text, backend="logic")
    assert report.status == "unique" and report.count == 1
    assert report.solutions == [fam.answer_from_names(case["solution_edges"])]
    report = dlxsat.solve("masyu", text, backend="logic", mode="count")
    assert (report.status, report.count, report.solutions) == ("counted", 1, [])


@pytest.mark.parametrize("case", NONE, ids=ids(NONE))
def test_golden_without_answer_proved_none(case):
    out = lm.solve(load(case))
    assert (status(out), out.count, out.answers) == ("none", 0, [])
    out = lm.solve(load(case), ask("count"))
    assert (status(out, "count"), out.count) == ("counted", 0)


@pytest.mark.parametrize("case", SMALL_MANY, ids=ids(SMALL_MANY))
def test_golden_counts_with_fallback(case):
    puzzle = load(case)
    assert status(lm.solve(puzzle)) == "stalled"
    assert lm.solve(puzzle).count is None
    want = loop_count(case)
    out = lm.solve(puzzle, ask("count", keep=1000), {"fallback": True})
    assert (status(out, "count"), out.count, out.exhausted) == ("counted", want, True)
    assert len(out.answers) == min(want, 1000)  # kept for the pipeline's rule check
    out = lm.solve(puzzle, ask("all"), {"fallback": True})
    assert out.count == want == len(out.answers)
    assert len({tuple(map(tuple, a["edges"])) for a in out.answers}) == want
    assert all(fam.check(puzzle, a) == [] for a in out.answers)
    out = lm.solve(puzzle, ask(), {"fallback": True})
    expect = ("multiple", 2, 2) if want > 1 else ("unique", 1, 1)
    assert (status(out), out.count, len(out.answers)) == expect


def test_dispatch_through_logic_package():
    out = logic.solve("masyu", load(UNIQUE[0]), Request.for_mode("unique"), {})
    assert isinstance(out, SearchResult) and status_of("unique", out) == "unique"


# --- explanations, figures, time limit ---------------------------------------------------------

# A board that needs elimination search (checked below): generate_masyu(8, 8, seed=0,
# logic_only=True).
HARD = [
    "...1....",
    "......00",
    "1..1....",
    "....1...",
    "..0.1.1.",
    "1..0....",
    "........",
    "1......1",
]


def test_elimination_needed_and_explained():
    out = lm.solve(HARD, ask(), {"explain": True})
    assert status(out) == "unique"
    assert fam.check(fam.read("\n".join(HARD)), out.answers[0]) == []
    assert out.stats["by_elimination"] > 0 and out.stats["hypotheses"] > 0
    assert 0 < out.stats["elimination_share"] < 100
    total = sum(out.stats[k] for k in ("by_heuristics", "by_intersection", "by_elimination"))
    assert total == out.stats["decided"] == out.stats["edges"]
    assert out.steps and all(step.strip() for step in out.steps)
    assert any(step.startswith("heuristic ") for step in out.steps)
    assert any(step.startswith("elimination: ") for step in out.steps)
    assert lm.solve(HARD).steps == []


def test_without_elimination_it_stalls():
    out = lm.solve(HARD, ask(), {"eliminate": False})
    assert status(out) == "stalled" and out.count is None and out.stats["hypotheses"] == 0
    shallow = lm.solve(HARD, ask(), {"depth": 0})
    assert status(shallow) == "stalled" and shallow.stats["hypotheses"] == 0


def test_time_limit():
    out = lm.solve(HARD, ask(timeout=1e-9))
    assert (status(out), out.count, out.timed_out) == ("timeout", 0, True)


def test_explain_through_cli(capsys):
    from dlxsat.cli import main

    path = str(GOLDEN / UNIQUE[0]["puzzle"])
    assert main(["solve", "masyu", path, "--backend", "logic", "--explain", "--quiet"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("heuristic ")
    assert any(line.startswith("unique: 1 solution") for line in out)


def test_stalled_shows_in_steps():
    out = lm.solve(["1..", "...", "..."], ask(), {"explain": True})
    assert status(out) == "stalled" and out.steps[-1].startswith("stalled:")
    assert out.stats["steps"][-1]["rule"] == "stalled"


def test_doctests():
    assert doctest.testmod(lm, optionflags=doctest.ELLIPSIS).failed == 0


# --- the heuristics, one by one ------------------------------------------------------------------


def lines_of(rows: list[str]) -> set[str]:
    g = lm.Geometry(lm.board_from_rows(rows))
    return {g.edge_text(e) for e, v, _ in lm.heuristic_deductions(g) if v == lm.LINE}


def test_heuristic_1_black_near_border():
    assert lines_of([".....", ".1...", ".....", ".....", "....."]) >= {
        "(2,2)-(3,2)", "(3,2)-(4,2)", "(2,2)-(2,3)", "(2,3)-(2,4)"
    }  # fmt: skip


def test_heuristic_2_white_on_border():
    assert lines_of(["..0..", ".....", "....."]) == {"(1,2)-(1,3)", "(1,3)-(1,4)"}


def test_heuristic_3_adjacent_blacks():
    got = lines_of(["......", "......", "..11..", "......", "......"])
    assert {"(3,2)-(3,3)", "(3,1)-(3,2)", "(3,4)-(3,5)", "(3,5)-(3,6)"} <= got


def test_heuristic_4_three_whites():
    got = lines_of([".....", ".000.", "....."])
    assert got == {f"({r},{c})-({r + 1},{c})" for r in (1, 2) for c in (2, 3, 4)}
    assert lines_of([".....", ".00..", "....."]) == set()


def test_heuristic_5_whites_diagonal():
    got = lines_of(["......", "....0.", "...1..", "....0.", "......", "......"])
    assert {"(3,3)-(3,4)", "(3,2)-(3,3)"} <= got


# --- soundness on boards with a known answer ---------------------------------------------------


@st.composite
def known_boards(draw, side: int = 7, least: float = 0.2):
    """(rows of clues, the loop's edges): a random loop, and some of the circles it allows."""
    m = draw(st.integers(3, side))
    n = draw(st.integers(3, side))
    rng = random.Random(draw(st.integers(0, 10**9)))
    loop = random_loop(m, n, rng, anneal=draw(st.booleans())).loop()
    circles = loop_circles(loop)
    keep = draw(st.floats(least, 1.0))
    circles = {c: v for c, v in sorted(circles.items()) if rng.random() < keep}
    return board_text(m, n, circles).split(), set(loop_edges(loop))


def agrees(d: lm.Deducer, truth: set[tuple[int, int]]) -> None:
    """Every decided edge of the deducer's state agrees with the known loop, and every circle
    keeps a pattern that the loop uses."""
    g, s = d.g, d.state
    for e in range(g.ne):
        if s.st[e] != lm.UNKNOWN:
            assert (s.st[e] == lm.LINE) == (g.edge_coord[e] in truth), g.edge_text(e)
    for k, pats in enumerate(g.patterns):
        used = [
            p
            for p, pat in enumerate(pats)
            if all(
                v == lm.CROSS if e == g.sentinel else (v == lm.LINE) == (g.edge_coord[e] in truth)
                for e, v in pat.items
            )
        ]
        assert any(s.alive[k] >> p & 1 for p in used), g.circle_text(k)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(known_boards())
def test_heuristics_never_contradict_the_loop(board):
    rows, truth = board
    g = lm.Geometry(lm.board_from_rows(rows))
    for e, v, why in lm.heuristic_deductions(g):
        assert e != g.sentinel, why
        assert (v == lm.LINE) == (g.edge_coord[e] in truth), why


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(known_boards())
def test_intersection_never_contradicts_the_loop(board):
    rows, truth = board
    d = lm.Deducer(lm.board_from_rows(rows))
    assert d.run(eliminate=False) in ("solved", "stalled")
    agrees(d, truth)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(known_boards())
def test_elimination_never_contradicts_the_loop(board):
    rows, truth = board
    d = lm.Deducer(lm.board_from_rows(rows))
    result = d.run()
    assert result in ("solved", "stalled")
    agrees(d, truth)
    if result == "solved":
        # Deductions completed the board: a proof that the known loop is the only answer.
        assert {tuple(e) for e in d.state.answer()["edges"]} == truth


# Small boards only: listing every answer of a sparse 7 x 7 board can take minutes.
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(known_boards(side=5, least=0.5))
def test_fallback_search_finds_the_loop(board):
    rows, truth = board
    out = lm.solve(rows, ask("all"), {"fallback": True})
    assert status(out, "all") == "counted" and out.count >= 1 and out.exhausted
    assert truth in [{tuple(e) for e in a["edges"]} for a in out.answers]
    puzzle = fam.read("\n".join(rows))
    assert all(fam.check(puzzle, a) == [] for a in out.answers)
    unique = lm.solve(rows, ask(), {"fallback": True})
    assert status(unique) == ("unique" if out.count == 1 else "multiple")


def test_board_adapter():
    puzzle = fam.read("1.\n.0\n")
    assert lm.board_from_puzzle(puzzle) == lm.board_from_rows(["1.", ".0"])
    assert lm.board_from_puzzle("1.\n.0\n").kinds == (lm.BLACK, lm.EMPTY, lm.EMPTY, lm.WHITE)


BENCH = sorted((Path(__file__).parent.parent / "puzzles" / "masyu-bench").glob("bench-1*.txt"))


@pytest.mark.parametrize("path", BENCH, ids=[p.name for p in BENCH])
def test_bundled_benchmark_boards_solved_by_deduction(path):
    """The small boards of benchmarks/logic_masyu.py (made with logic_only=True)."""
    puzzle = fam.read(path.read_text())
    out = lm.solve(puzzle)
    assert (status(out), out.stats["deduction"]) == ("unique", "solved")
    assert fam.check(puzzle, out.answers[0]) == []


# --- elimination search to any depth, on published boards ------------------------------------

PUBLISHED = Path(__file__).parent.parent / "puzzles" / "masyu-published"


def test_depth_two_finishes_a_published_board_that_depth_one_cannot():
    """Janko's Masyu 61 (18 x 10): the paper's depth 1 stalls, depth 2 finishes it, and the
    answer is the SAT backend's and Janko's own."""
    text = (PUBLISHED / "janko-061-18x10.txt").read_text()
    puzzle = fam.read(text)
    shallow = lm.solve(puzzle, ask(), {"depth": 1})
    assert status(shallow) == "stalled" and shallow.stats["deepest"] == 1
    out = lm.solve(puzzle, ask(), {"explain": True})  # the default depth
    assert status(out) == "unique" and out.stats["depth"] == lm.DEFAULT_DEPTH == 2
    assert out.stats["deepest"] == 2
    assert any(step.startswith("elimination (depth 2): ") for step in out.steps)
    assert out.stats["hypotheses"] > shallow.stats["hypotheses"]
    sat = dlxsat.solve("masyu", text, backend="sat")
    assert sat.status == "unique" and sat.solutions == out.answers
    janko = json.loads((PUBLISHED / "answers.json").read_text())["janko-061-18x10.txt"]
    assert out.answers[0]["edges"] == janko


def test_depth_is_an_option_of_the_logic_backend():
    text = (PUBLISHED / "janko-061-18x10.txt").read_text()
    assert dlxsat.solve("masyu", text, backend="logic", depth=1).status == "stalled"
    assert dlxsat.solve("masyu", text, backend="logic").status == "unique"
    with pytest.raises(InputError, match=r"^--order is for sudoku .*; masyu takes --explain"):
        dlxsat.solve("masyu", text, backend="logic", order="zambon")
    with pytest.raises(InputError, match="depth must be at least 0"):
        dlxsat.solve("masyu", text, backend="logic", depth=-1)


# Small boards: nested search on a sparse 7 x 7 board costs seconds per example.
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.tuples(known_boards(side=6, least=0.3), st.just(2)),
                 st.tuples(known_boards(side=4, least=0.3), st.just(3))))  # fmt: skip
def test_deep_elimination_never_contradicts_the_loop(board_depth):
    (rows, truth), depth = board_depth
    d = lm.Deducer(lm.board_from_rows(rows), depth=depth)
    assert d.run() in ("solved", "stalled")
    agrees(d, truth)


def test_table_one_figures_add_up():
    """The one computation of Table I's figures: shares of the edges, per-1 % times."""
    out = lm.solve((PUBLISHED / "janko-061-18x10.txt").read_text().split())
    st = out.stats
    edges = st["edges"]
    assert st["by_heuristics"] + st["by_intersection"] + st["by_elimination"] == edges
    assert st["elimination_share"] == round(100 * st["by_elimination"] / edges, 2)
    other = 100 * (st["by_heuristics"] + st["by_intersection"]) / edges
    spent = st["heuristics_seconds"] + st["intersection_seconds"]
    assert st["intersection_seconds_per_percent"] == pytest.approx(spent / other, abs=2e-6)
    per = st["elimination_seconds"] / (100 * st["by_elimination"] / edges)
    assert st["elimination_seconds_per_percent"] == pytest.approx(per, abs=2e-6)
    parts = st["heuristics_seconds"] + st["intersection_seconds"] + st["elimination_seconds"]
    assert parts <= st["seconds"] + 1e-6


def test_time_limit_bounds_the_fallback_search():
    """A 36 x 20 minimal board with --fallback once ran 22 minutes; the limit now holds."""
    text = Path(__file__).parent.parent / "puzzles" / "masyu-bench" / "minimal-36x20-01.txt"
    start = time.perf_counter()
    # (0.3 s: the deduction is still eliminating at 1 s, as at 0.2 s, idle.)
    out = lm.solve(text.read_text().split(), ask(timeout=0.3), {"fallback": True})
    elapsed = time.perf_counter() - start
    assert out.timed_out and status(out) == "timeout" and out.count is not None
    assert elapsed < LOADED_MARGIN  # the limit plus one propagation step, not 22 minutes
    assert "search_nodes" in out.stats or out.stats["deduction"] == "timeout"


def test_explain_steps_as_data_are_one_based():
    rows = [".0..", "....", "..1.", "...."]
    out = lm.solve(rows, ask(), {"explain": True})
    data = out.stats["steps"]
    assert [d["text"] for d in data] == out.steps
    first = data[0]
    assert first["rule"] == "heuristics"
    for a, b in first["line"] + first["cross"]:
        assert 1 <= a[0] <= 4 and 1 <= a[1] <= 4 and 1 <= b[0] <= 4 and 1 <= b[1] <= 4
        assert f"({a[0]},{a[1]})-({b[0]},{b[1]})" in first["text"]
    # The white circle on the top border, cell (1,2) as books count: a line (1,1)-(1,2).
    assert [[1, 1], [1, 2]] in first["line"]
    assert "steps" not in lm.solve(rows).stats


def test_published_boards_and_janko_answers_agree():
    """The converted files keep Janko's puzzles: his published answer obeys every rule of
    the board as read back (colours and positions of the circles included)."""
    answers = json.loads((PUBLISHED / "answers.json").read_text())
    files = sorted(PUBLISHED.glob("*.txt"))
    assert len(files) >= 100 and len(answers) >= 100
    for path in files:
        puzzle = fam.read(path.read_text())
        cols, rows = map(int, path.stem.rsplit("-", 1)[1].split("x"))
        assert (puzzle.m, puzzle.n) == (rows, cols) and min(rows, cols) >= 10
        if path.name in answers:
            assert fam.check(puzzle, {"edges": answers[path.name]}) == [], path.name
