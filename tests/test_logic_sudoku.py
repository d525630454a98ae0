"""The Sudoku logic backend: each strategy on a position built for it, soundness on random
positions, the golden puzzles, statuses, explanations and the uniqueness rules."""

from __future__ import annotations

import functools
import random
import re
import time

import pytest
from conftest import GOLDEN, ask, golden_cases
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dlxsat.errors import InputError
from dlxsat.families import sudoku as family
from dlxsat.reasoning import sudoku as S
from dlxsat.result import status_of

CHARS = S.CHARS


# ---------------------------------------------------------------------------------------------
# Helpers


def boxes_text(n: int, rows: int, cols: int) -> str:
    """A box-definition group of rows × cols boxes."""
    per_band = n // cols
    return "\n".join(
        "".join(CHARS[(i // rows) * per_band + j // cols] for j in range(n)) for i in range(n)
    )


def diagonals_text(n: int) -> str:
    """Two groups: box ``a`` the main diagonal, box ``b`` the other one (X-sudoku)."""
    main = ["".join("a" if i == j else "." for j in range(n)) for i in range(n)]
    anti = ["".join("b" if i + j == n - 1 else "." for j in range(n)) for i in range(n)]
    return "\n".join(main + anti)


def board(grid: str = "", *groups: str, n: int = 9) -> S.Board:
    """A board from Knuth's text: ``grid`` (n lines; blank means an empty grid) and groups."""
    rows = grid.strip("\n") if grid else "\n".join(["." * n] * n)
    return S.board_from_text("\n".join([rows, *groups]) + "\n")


def std9(grid: str = "") -> S.Board:
    return board(grid, boxes_text(9, 3, 3))


def position(
    b: S.Board,
    cands: dict[tuple[int, int], str] | None = None,
    default: str | None = None,
) -> S.State:
    """Every open cell gets ``default`` (all digits) unless ``cands`` says otherwise; givens
    are placed as usual (so their digits leave their peers)."""
    state, clash = S.initial_state(b)
    assert clash is None
    full = default if default is not None else CHARS[1 : b.n + 1]
    for c, (i, j) in enumerate(b.cells):
        if state.value[c]:
            continue
        digits = (cands or {}).get((i, j), full)
        state.cand[c] = sum(S._bit(CHARS.index(ch)) for ch in digits)
    return state


def status(out, mode: str = "unique") -> str:
    """The status word of a result, as the pipeline computes it (dlxsat.result.status_of)."""
    return status_of(mode, out)


def mask(digits: str) -> int:
    return sum(S._bit(CHARS.index(ch)) for ch in digits)


def removed(b: S.Board, step: S.Step) -> dict[tuple[int, int], str]:
    """A step's eliminations as {cell: digits}."""
    return {b.cells[c]: S._digits(m, "") for c, m in step.removes}


def row_cells(r: int, cols) -> list[tuple[int, int]]:
    return [(r, c) for c in cols]


# ---------------------------------------------------------------------------------------------
# Each strategy on a position built for it, with its exact effect


def test_naked_single_places_the_only_candidate():
    b = std9()
    step = S.find_naked_single(b, position(b, {(4, 2): "7"}))
    assert step.strategy == "naked_single"
    assert step.places == [(b.index[4, 2], 7)] and not step.removes
    assert step.line(b) == "naked_single: (5,3) has one candidate — placed 7 at (5,3)"


def test_hidden_single_in_an_exact_unit():
    b = std9()
    cands = {(3, j): "12346789" for j in range(9) if j != 6}
    step = S.find_hidden_single(b, position(b, cands))
    assert step.places == [(b.index[3, 6], 5)]
    assert step.line(b) == "hidden_single: 5 has one place in row 4 — placed 5 at (4,7)"


def test_hidden_single_ignores_units_with_holes():
    # Row 0 has a hole, so it need not contain a 5: one place for 5 proves nothing there.
    b = board("#........\n" + "\n".join(["........."] * 8))
    cands = {(0, j): "12346789" for j in range(1, 8)}
    assert not b.exact[b.line["row", 0]]
    assert S.find_hidden_single(b, position(b, cands)) is None
    # Without the hole, and with no 5 at (0,0), it is a hidden single.
    b2 = board()
    step = S.find_hidden_single(b2, position(b2, {**cands, (0, 0): "12346789"}))
    assert step.places == [(b2.index[0, 8], 5)]


def test_locked_candidates_pointing():
    b = std9()
    cands = {cell: "12346789" for cell in [(0, 2), (1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2)]}
    step = S.find_locked_candidates(b, position(b, cands))
    assert step.strategy == "locked_candidates"
    assert removed(b, step) == {(0, j): "5" for j in range(3, 9)}
    assert step.line(b).startswith("locked_candidates: 5 of box 0 lies in row 1 (pointing) —")


def test_locked_candidates_box_line():
    b = std9()
    cands = {(4, j): "12456789" for j in (0, 1, 2, 6, 7, 8)}
    step = S.find_locked_candidates(b, position(b, cands))
    assert removed(b, step) == {(i, j): "3" for i in (3, 5) for j in (3, 4, 5)}
    assert "3 of row 5 lies in box 4 (box-line)" in step.line(b)


def test_locked_candidates_with_a_diagonal_box():
    # X-sudoku: box 0's 7s all lie on the main diagonal, so the rest of the diagonal loses 7.
    b = board("", boxes_text(9, 3, 3), diagonals_text(9))
    cands = {(i, j): "12345689" for i in range(3) for j in range(3) if i != j}
    step = S.find_locked_candidates(b, position(b, cands))
    assert removed(b, step) == {(k, k): "7" for k in range(3, 9)}
    assert "7 of box 0 lies in box a (two units)" in step.line(b)


def test_naked_pair():
    b = std9()
    step = S.find_naked_pair(b, position(b, {(0, 0): "12", (0, 5): "12"}))
    assert removed(b, step) == {(0, j): "12" for j in (1, 2, 3, 4, 6, 7, 8)}
    assert step.line(b).startswith("naked_pair: (1,1) (1,6) hold only 1,2 in row 1 — removed 1,2")


def test_naked_pair_works_in_a_row_with_holes():
    # Every non-hole cell takes a digit, so the pair's digits leave the rest of the row even
    # though the row need not contain all nine digits.
    b = board("........#\n" + "\n".join(["........."] * 8))
    step = S.find_naked_pair(b, position(b, {(0, 0): "12", (0, 5): "12"}))
    assert removed(b, step) == {(0, j): "12" for j in (1, 2, 3, 4, 6, 7)}


def test_hidden_pair():
    b = std9()
    cands = {(2, j): "1235789" for j in range(9) if j not in (1, 7)}
    step = S.find_hidden_pair(b, position(b, cands))
    assert removed(b, step) == {(2, 1): "1235789", (2, 7): "1235789"}
    assert step.line(b).startswith("hidden_pair: 4,6 only in (3,2) (3,8) of row 3 —")


def test_naked_triple():
    b = std9()
    step = S.find_naked_triple(b, position(b, {(0, 0): "12", (0, 3): "23", (0, 6): "13"}))
    assert removed(b, step) == {(0, j): "123" for j in (1, 2, 4, 5, 7, 8)}
    assert "(1,1) (1,4) (1,7) hold only 1,2,3 in row 1" in step.line(b)


def test_hidden_triple():
    b = std9()
    cands = {(i, 4): "123489" for i in (0, 2, 3, 5, 6, 8)}
    step = S.find_hidden_triple(b, position(b, cands))
    assert removed(b, step) == {(i, 4): "123489" for i in (1, 4, 7)}
    assert "5,6,7 only in (2,5) (5,5) (8,5) of column 5" in step.line(b)


def test_x_wing_rows():
    b = std9()
    cands = {(r, j): "12356789" for r in (1, 5) for j in range(9) if j not in (2, 7)}
    step = S.find_x_wing(b, position(b, cands))
    assert removed(b, step) == {(i, j): "4" for i in range(9) if i not in (1, 5) for j in (2, 7)}
    assert "4 of row 2, row 6 lies in column 3, column 8" in step.line(b)
    assert sorted(b.cells[c] for c in step.pattern) == [(1, 2), (1, 7), (5, 2), (5, 7)]


def test_x_wing_columns():
    b = std9()
    cands = {(i, c): "12356789" for c in (0, 6) for i in range(9) if i not in (3, 8)}
    step = S.find_x_wing(b, position(b, cands))
    assert removed(b, step) == {(i, j): "4" for i in (3, 8) for j in range(9) if j not in (0, 6)}


def test_y_wing():
    b = std9()
    step = S.find_y_wing(b, position(b, {(0, 0): "12", (0, 4): "13", (2, 1): "23"}))
    assert removed(b, step) == {cell: "3" for cell in [(0, 1), (0, 2), (2, 3), (2, 4), (2, 5)]}
    assert step.line(b).startswith("y_wing: (1,5):31 (1,1):12 (3,2):23 (pivot (1,1)) —")


def zambon_figure_11_1() -> tuple[S.Board, S.State]:
    """The bivalue cells of Zambon's example (Listing 11-6); the cells that see both ends of
    his chain get 9 and other digits, the rest is filled."""
    b = std9()
    state = position(b, default="")
    pairs = {
        "15": [(0, 1), (2, 2)],
        "19": [(8, 1)],
        "27": [(4, 0), (4, 2)],
        "29": [(1, 1)],
        "39": [(2, 7), (8, 7)],
        "45": [(0, 8)],
        "47": [(7, 2), (7, 6)],
        "48": [(6, 8)],
        "49": [(0, 0), (1, 5), (2, 5)],
    }
    cells = {cell: ds for ds, cs in pairs.items() for cell in cs}
    cells.update({(6, 0): "369", (8, 0): "369", (2, 1): "368", (7, 0): "368"})
    for c, cell in enumerate(b.cells):
        if cell in cells:
            state.cand[c] = mask(cells[cell])
        else:
            state.cand[c], state.value[c] = 0, 1  # filled (its digit does not matter here)
    return b, state


def test_xy_chain_reproduces_zambons_example():
    b, state = zambon_figure_11_1()
    assert S.find_y_wing(b, state) is None  # it needs the 4-cell chain
    step = S.find_xy_chain(b, state)
    assert step.line(b) == (
        "xy_chain: (9,2):91 (1,2):15 (1,9):54 (1,1):49 — removed 9 from (2,2), (7,1), (9,1)"
    )
    assert [b.cells[c] for c in step.pattern] == [(8, 1), (0, 1), (0, 8), (0, 0)]


def test_xy_chain_respects_its_length_limits():
    b, state = zambon_figure_11_1()
    assert S.find_xy_chain(b, state, max_cells=3) is None
    # From 5 cells on, the first chain found is an 8-cell one; none of 9 removes anything.
    step = S.find_xy_chain(b, state, min_cells=5)
    assert step.line(b) == (
        "xy_chain: (1,1):94 (1,9):45 (1,2):51 (9,2):19 (9,8):93 (3,8):39 (3,6):94 (2,6):49 "
        "— removed 9 from (2,2)"
    )
    assert S.find_xy_chain(b, state, min_cells=9) is None


def test_unique_rectangle():
    b = std9()
    cands = {(0, 0): "12", (0, 1): "12", (3, 0): "12", (3, 1): "1257"}
    step = S.find_unique_rectangle(b, position(b, cands))
    assert removed(b, step) == {(3, 1): "12"}
    assert step.line(b).startswith("unique_rectangle: (1,1) (1,2) (4,1) hold only 1,2;")


def test_unique_rectangle_needs_two_boxes():
    # Corners in four different boxes: swapping 1 and 2 would break the boxes, no deduction.
    b = std9()
    cands = {(0, 0): "12", (0, 4): "12", (3, 0): "12", (3, 4): "1257"}
    assert S.find_unique_rectangle(b, position(b, cands)) is None


def test_unique_rectangle_skipped_when_a_diagonal_meets_it():
    # In an X-sudoku the main diagonal holds one corner, (0,0): swapping would break it.
    cands = {(0, 0): "12", (0, 1): "12", (3, 0): "12", (3, 1): "1257"}
    x = board("", boxes_text(9, 3, 3), diagonals_text(9))
    assert S.find_unique_rectangle(x, position(x, cands)) is None
    plain = std9()
    step = S.find_unique_rectangle(plain, position(plain, cands))
    assert removed(plain, step) == {(3, 1): "12"}


def test_forcing_chain():
    # (0,0)=1 leaves (0,1) and (1,1) both needing 3 in box 0.
    b = std9()
    step = S.find_forcing_chain(b, position(b, {(0, 0): "12", (0, 1): "13", (1, 1): "13"}))
    assert removed(b, step) == {(0, 0): "1"}
    line = step.line(b)
    assert line.startswith("forcing_chain: (1,1)=1 → ")
    assert "contradiction: " in line and line.endswith("removed 1 from (1,1)")


def test_strategies_find_nothing_on_an_empty_grid():
    b = std9()
    state = position(b)
    for name, finder in S.STRATEGIES:
        assert finder(b, state) is None, name


# ---------------------------------------------------------------------------------------------
# Soundness: on positions derived from a known solution, no strategy removes a true digit or
# places a wrong one (the unique rectangle only when the position has a second completion).

SOUND_CASES = [
    e
    for e in golden_cases("sudoku", ok_only=True)
    if e.get("solution") and e["name"] != "tatham-16x16-1"
]


def _solution_of(b: S.Board, case: dict) -> list[int]:
    return [CHARS.index(case["solution"][i][j]) for i, j in b.cells]


BOARDS = {e["name"]: S.board_from_text((GOLDEN / e["puzzle"]).read_text()) for e in SOUND_CASES}


def _random_position(b: S.Board, truth: list[int], rng: random.Random, fill: float, extra: float):
    state = S.State([0] * len(b.cells), [0] * len(b.cells))
    for c in range(len(b.cells)):
        if c in b.givens or rng.random() < fill:
            state.value[c] = truth[c]
        else:
            others = [d for d in range(1, b.n + 1) if d != truth[c] and rng.random() < extra]
            state.cand[c] = S._bit(truth[c]) | sum(S._bit(d) for d in others)
    for c in range(len(b.cells)):  # filled digits leave their peers, as in a real solve
        if state.value[c]:
            for p in S._members(b.peers[c]):
                state.cand[p] &= ~S._bit(state.value[c])
    return state


def _check_step(b: S.Board, state: S.State, step: S.Step, truth: list[int], case) -> bool:
    """Assert the step is right; return False when it (legitimately) left the solution."""
    for c, d in step.places:
        assert d == truth[c], (step.line(b), "placed a wrong digit")
    wrong = [c for c, m in step.removes if m & S._bit(truth[c])]
    if not wrong:
        return True
    assert step.strategy == "unique_rectangle", (step.line(b), "removed a true digit")
    # Then the corners hold a and b crosswise in the solution, and the swapped grid must be a
    # second completion of the position: valid for every unit and within the candidates.
    (_, ab), corners = step.removes[0], step.pattern
    a, bb = S._digits_of(ab)
    other = list(truth)
    for c in corners:
        assert truth[c] in (a, bb)
        other[c] = a + bb - truth[c]
        assert state.cand[c] & S._bit(other[c])
    rows = [["#"] * b.n for _ in range(b.n)]
    for c, (i, j) in enumerate(b.cells):
        rows[i][j] = CHARS[other[c]]
    puzzle = family.read((GOLDEN / case["puzzle"]).read_text())
    assert family.check(puzzle, {"grid": ["".join(r) for r in rows]}) == []
    return False


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    case=st.sampled_from(SOUND_CASES),
    seed=st.integers(0, 2**32 - 1),
    fill=st.floats(0.0, 0.7),
    extra=st.floats(0.05, 0.6),
)
def test_strategies_never_contradict_the_solution(case, seed, fill, extra):
    b = BOARDS[case["name"]]
    truth = _solution_of(b, case)
    state = _random_position(b, truth, random.Random(seed), fill, extra)
    assert S.contradiction(b, state) is None
    for _name, finder in S.STRATEGIES:  # every strategy on the starting position
        step = finder(b, state)
        if step is not None:
            _check_step(b, state, step, truth, case)
    for _ in range(40):  # then the engine's own sequence of steps
        for _name, finder in S.STRATEGIES:
            step = finder(b, state)
            if step is not None:
                break
        else:
            break
        if not _check_step(b, state, step, truth, case):
            break
        S.apply(b, state, step)
        assert S.contradiction(b, state) is None
        for c, v in enumerate(state.value):
            assert v in (0, truth[c]) and (v or state.cand[c] & S._bit(truth[c]))


# ---------------------------------------------------------------------------------------------
# Golden puzzles and the statuses

UNIQUE = [e for e in golden_cases("sudoku", ok_only=True) if e.get("solution")]


@pytest.mark.parametrize("case", UNIQUE, ids=lambda e: e["name"])
def test_golden_unique_cases_solve_by_logic(case):
    puzzle = family.read((GOLDEN / case["puzzle"]).read_text())
    out = S.solve(puzzle)
    assert (status(out), out.count) == ("unique", 1)
    assert out.answers == [{"grid": case["solution"]}]
    assert family.check(puzzle, out.answers[0]) == []
    assert out.stats["solved_by"] == "logic"
    assert out.stats["hardest"] in S.RANK and out.stats["grade"] == S.LEVEL[out.stats["hardest"]]
    assert sum(out.stats["strategy_uses"].values()) == out.stats["deductions"]
    expected = "search" if out.stats["assumed_uniqueness"] else "deduction"
    assert out.stats["uniqueness"] == expected


def test_golden_unique_case_through_the_pipeline():
    from dlxsat.pipeline import solve

    case = next(e for e in UNIQUE if e["name"] == "puzzlium-A")
    report = solve("sudoku", (GOLDEN / case["puzzle"]).read_text(), backend="logic", explain=True)
    assert (report.status, report.count) == ("unique", 1)
    assert report.solutions == [{"grid": case["solution"]}]
    assert report.steps and all(
        re.fullmatch(r"[a-z_]+: .+ — (placed|removed) .+", line) for line in report.steps
    )


def test_unique_rectangle_answer_is_checked_by_search():
    # The 16 × 16 golden puzzle needs a unique rectangle: its uniqueness is then confirmed by
    # a search from the candidates before that step.
    case = next(e for e in UNIQUE if e["name"] == "tatham-16x16-1")
    out = S.solve(family.read((GOLDEN / case["puzzle"]).read_text()))
    assert out.stats["strategy_uses"].get("unique_rectangle")
    assert out.stats["assumed_uniqueness"] and out.stats["uniqueness"] == "search"
    assert (status(out), out.count) == ("unique", 1)
    assert out.answers == [{"grid": case["solution"]}]


UR_TWO_ANSWERS = """\
.5.1..
3...15
.1..3.
4...53
.24..1
......
""" + boxes_text(6, 3, 2)


def test_unique_rectangle_on_a_puzzle_with_several_answers():
    # A unique rectangle completes this grid, but the puzzle has three answers: the check by
    # search reports it instead of a false "unique".
    puzzle = family.read(UR_TWO_ANSWERS + "\n")
    out = S.solve(puzzle, ask(), {"explain": True})
    assert out.stats["strategy_uses"].get("unique_rectangle") == 1
    assert out.stats["logic"] == "solved"
    assert (status(out), out.count) == ("multiple", 2)
    assert all(family.check(puzzle, a) == [] for a in out.answers)
    assert any(line.startswith("search (checking uniqueness") for line in out.steps)
    counted = S.solve(puzzle, ask("count", keep=1000))
    assert (status(counted, "count"), counted.count) == ("counted", 3)
    assert len(counted.answers) == 3  # kept for the pipeline's rule check, as search backends do


def test_stalled_then_fallback_counts_like_knuth():
    case = next(e for e in golden_cases("sudoku") if e["name"] == "random-9x9-boxes-4holes")
    puzzle = family.read((GOLDEN / case["puzzle"]).read_text())
    assert S.solve(puzzle).steps == []
    out = S.solve(puzzle, ask(), {"explain": True})
    assert (status(out), out.count, out.answers) == ("stalled", None, [])
    out.steps = out.steps[out.stats["deductions"] :]
    assert out.steps[0].startswith("stalled: no strategy applies")
    assert len(out.steps) == 1 + puzzle.n and "[" in out.steps[1]
    multiple = S.solve(puzzle, ask(), {"fallback": True})
    assert (status(multiple), multiple.count, len(multiple.answers)) == ("multiple", 2, 2)
    assert all(family.check(puzzle, a) == [] for a in multiple.answers)
    counted = S.solve(puzzle, ask("all"), {"fallback": True})
    assert (status(counted, "all"), counted.count) == ("counted", case["dlx1"]["count"])
    assert len({tuple(a["grid"]) for a in counted.answers}) == counted.count


def test_count_mode_on_a_unique_puzzle():
    case = next(e for e in UNIQUE if e["name"] == "tatham-9x9-1")
    out = S.solve(family.read((GOLDEN / case["puzzle"]).read_text()), ask("count"))
    assert (status(out, "count"), out.count, out.exhausted) == ("counted", 1, True)


def test_contradiction_means_no_answer():
    # (0,3) needs a 4, but column 3 already has one.
    puzzle = family.read("123.\n...4\n....\n....\n" + boxes_text(4, 2, 2) + "\n")
    out = S.solve(puzzle, ask(), {"explain": True})
    assert (status(out), out.count, out.answers) == ("none", 0, [])
    assert out.stats["uniqueness"] == "deduction"
    assert out.steps[-1].startswith("contradiction: ")


def test_full_box_with_a_hole_has_no_answer():
    # Knuth counts the hole in the box's size: a 4-cell box must hold 4 digits in 3 cells.
    puzzle = family.read("#...\n....\n....\n....\n" + boxes_text(4, 2, 2) + "\n")
    assert status(S.solve(puzzle)) == "none"
    assert S.solve(puzzle, ask("count")).count == 0


def test_explain_lists_every_step():
    case = next(e for e in UNIQUE if e["name"] == "tatham-9x9-1")
    puzzle = family.read((GOLDEN / case["puzzle"]).read_text())
    out = S.solve(puzzle, ask(), {"explain": True})
    assert len(out.steps) == out.stats["deductions"]
    assert sum(line.startswith("xy_chain: ") for line in out.steps) == 1
    assert S.solve(puzzle).steps == []


def test_timeout():
    case = next(e for e in UNIQUE if e["name"] == "tatham-9x9-1")
    out = S.solve(family.read((GOLDEN / case["puzzle"]).read_text()), ask(timeout=0))
    assert (status(out), out.count, out.timed_out) == ("timeout", 0, True)


def test_bad_options():
    puzzle = family.read("1.\n..\n")
    with pytest.raises(InputError, match="mode"):
        S.solve(puzzle, ask("fast"))
    with pytest.raises(InputError, match="order"):
        S.solve(puzzle, ask(), {"order": "fast"})
    from dlxsat import reasoning

    with pytest.raises(InputError, match=r"^--depth is for masyu .*; sudoku takes --explain"):
        reasoning.SPEC.check({"depth": 3}, family="sudoku")
    with pytest.raises(InputError, match="does not take --encoding"):
        reasoning.SPEC.check({"encoding": "seq"}, family="sudoku", spelling="flag")


def test_latin_square_without_boxes():
    # No box groups: a latin square, rows and columns only.
    puzzle = family.read("1.\n..\n")
    out = S.solve(puzzle)
    assert (status(out), out.count) == ("unique", 1)
    assert out.answers == [{"grid": ["12", "21"]}]


def test_board_adapter():
    puzzle = family.read((GOLDEN / "sudoku" / "puzzlium-A.txt").read_text())
    b = S.board_from_puzzle(puzzle)
    assert len(b.cells) == 36 - len(puzzle.holes)
    assert (0, 0) not in b.index and b.givens[b.index[0, 2]] == 5
    # Rows and columns with holes are not exact, nor boxes smaller than n.
    assert not b.exact[b.line["row", 0]] and b.exact[b.line["row", 1]]
    assert [b.names[u] for u in b.units_of[b.index[1, 1]]] == ["row 2", "column 2", "box 2"]
    assert b.sees(b.index[1, 1], b.index[1, 5]) and not b.sees(b.index[1, 1], b.index[3, 0])


# ---------------------------------------------------------------------------------------------
# The benchmark's puzzles


def _benchmark_module():
    import importlib.util

    from conftest import ROOT

    spec = importlib.util.spec_from_file_location(
        "logic_sudoku_benchmark", ROOT / "benchmarks" / "logic_sudoku.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_tatham_game_ids_convert_to_the_golden_files():
    converted = 0
    for e in golden_cases("sudoku", ok_only=True):
        if "game id" in e.get("source", ""):
            game_id = e["source"].split("game id ")[1].strip()
            assert family.from_tatham_id(game_id) == (GOLDEN / e["puzzle"]).read_text()
            converted += 1
    assert converted >= 5


def test_hard_puzzles_solve_by_logic():
    bench = _benchmark_module()
    hard = [c for c in bench.cases() if c[1].startswith("hard")]
    assert len(hard) >= 30
    for name, _group, text, _known in hard:
        puzzle = family.read(text)
        out = S.solve(puzzle)
        assert (status(out), out.count) == ("unique", 1), name
        assert family.check(puzzle, out.answers[0]) == [], name


# ---------------------------------------------------------------------------------------------
# Zambon's level-2 and level-3 additions to the ladder, each on a position built for it


def test_naked_quad():
    b = std9()
    cands = {(0, 0): "12", (0, 2): "34", (0, 4): "13", (0, 7): "24"}
    step = S.find_naked_quad(b, position(b, cands))
    assert step.strategy == "naked_quad"
    assert removed(b, step) == {(0, j): "1234" for j in (1, 3, 5, 6, 8)}
    assert "(1,1) (1,3) (1,5) (1,8) hold only 1,2,3,4 in row 1" in step.line(b)


def fish_position(b: S.Board, rows: dict[int, tuple[int, ...]], digit: str = "4") -> S.State:
    """Digit ``digit`` only at the given columns of the given rows; everywhere else free."""
    others = "".join(ch for ch in "123456789" if ch != digit)
    cands = {(r, j): others for r, cols in rows.items() for j in range(9) if j not in cols}
    return position(b, cands)


def test_swordfish():
    b = std9()
    state = fish_position(b, {1: (0, 3), 4: (3, 6), 7: (0, 6)})
    assert S.find_x_wing(b, state) is None  # no two rows share their two columns
    step = S.find_swordfish(b, state)
    assert step.strategy == "swordfish"
    want = {(i, j): "4" for i in range(9) if i not in (1, 4, 7) for j in (0, 3, 6)}
    assert removed(b, step) == want
    assert "4 of row 2, row 5, row 8 lies in column 1, column 4, column 7" in step.line(b)


def test_jellyfish():
    b = std9()
    state = fish_position(b, {0: (1, 3), 2: (3, 5), 5: (5, 7), 7: (7, 1)})
    assert S.find_x_wing(b, state) is None and S.find_swordfish(b, state) is None
    step = S.find_jellyfish(b, state)
    assert step.strategy == "jellyfish"
    want = {(i, j): "4" for i in range(9) if i not in (0, 2, 5, 7) for j in (1, 3, 5, 7)}
    assert removed(b, step) == want


def rectangle_position(b: S.Board, box1: list[tuple[int, int]]) -> S.State:
    """5 at (0,0) and (2,2) of box 0, at ``box1`` in box 1, at (3,3) and (4,4) of box 4, at
    (4,1) and (5,0) of box 3; no other 5 in those boxes; everything else free."""
    fives = {(0, 0), (2, 2), *box1, (3, 3), (4, 4), (4, 1), (5, 0)}
    cands = {}
    for i in range(6):
        for j in range(6):
            cands[i, j] = "123456789" if (i, j) in fives else "12346789"
    return position(b, cands)


def test_rectangle_chain_around_four_boxes():
    # If (0,0) were 5: box 1's 5 is off row 0, so at (1,3); box 4's is off row 1 and column 3,
    # so at (4,4); box 3's off row 4 and column 4, so at (5,0) -- in column 0 with (0,0).
    b = std9()
    step = S.find_rectangle(b, rectangle_position(b, [(1, 3)]))
    assert step.strategy == "rectangle"
    assert removed(b, step) == {(0, 0): "5"}
    assert step.line(b) == (
        "rectangle: 5 at (1,1) cannot be chained around box 0 → box 1 → box 4 → box 3 "
        "— removed 5 from (1,1)"
    )


def test_rectangle_pointing_inside_the_chain():
    # With box 1's 5s only in row 0, (0,0) = 5 would leave box 1 without a 5 at once.
    b = std9()
    step = S.find_rectangle(b, rectangle_position(b, [(0, 3), (0, 5)]))
    assert removed(b, step) == {(0, 0): "5"}
    assert "5 at (1,1) would leave no 5 in box 1" in step.line(b)


def test_rectangle_keeps_what_can_go_around():
    # A second place for box 1's 5 off column 3 lets the chain close: nothing to remove at
    # (0,0) for 5 (another cell or digit may still fail, but (0,0) keeps its 5).
    b = std9()
    step = S.find_rectangle(b, rectangle_position(b, [(1, 3), (2, 5)]))
    assert step is None or (0, 0) not in removed(b, step) or "5" not in removed(b, step)[0, 0]


def test_rectangle_needs_regular_boxes():
    jigsaw = next(e for e in golden_cases("sudoku", ok_only=True) if "jigsaw" in e["name"])
    b = S.board_from_text((GOLDEN / jigsaw["puzzle"]).read_text())
    assert S._box_grid(b) is None
    assert S.find_rectangle(b, position(b)) is None
    x = board("", boxes_text(9, 3, 3), diagonals_text(9))  # extra units are fine
    assert S._box_grid(x) is not None


def test_grades_follow_zambons_levels():
    assert [S.LEVEL[name] for name, _ in S.STRATEGIES] == sorted(S.LEVEL.values())
    assert {n for n, level in S.LEVEL.items() if level == 3} == {
        "rectangle", "xy_chain", "swordfish", "jellyfish"
    }  # fmt: skip
    assert set(S.ZAMBON_NAME) == {n for n, level in S.LEVEL.items() if level <= 3}
    assert S.LEVEL["unique_rectangle"] == 4 and S.LEVEL["forcing_chain"] == 5


def test_explain_steps_as_data_use_the_texts_coordinates():
    b = std9()
    step = S.find_naked_single(b, position(b, {(4, 2): "7"}))
    data = step.data(b)
    assert data["placed"] == [[5, 3, 7]] and data["pattern"] == [[5, 3]]
    assert "(5,3)" in data["text"] and data["level"] == 0
    case = next(e for e in UNIQUE if e["name"] == "tatham-9x9-1")
    out = S.solve(family.read((GOLDEN / case["puzzle"]).read_text()), ask(), {"explain": True})
    assert [d["text"] for d in out.stats["steps"]] == out.steps
    assert "steps" not in S.solve(family.read((GOLDEN / case["puzzle"]).read_text())).stats


# ---------------------------------------------------------------------------------------------
# Zambon's XY-chain search, transcribed as the oracle: pairs_find, xy_chain_digit and
# xy_chain_step of chapter 11, with his data (0-based rows, pair lists per digit pair in grid
# order, a used cell flagged by adding 10 to its row), on a 9 x 9 grid of candidate sets.

ROW, COL, BOX = 0, 1, 2


def zambon_oracle(grid: list[list[set[int]]]):
    """(chain as [(row, col, in, out)], removals as {(row, col)}) or None."""
    n_x_pairs = [[0] * 10 for _ in range(10)]
    x_pairs = [[[[], [], []] for _ in range(10)] for _ in range(10)]
    for k in range(9):
        for j in range(9):
            if len(grid[k][j]) == 2:
                i1, i2 = sorted(grid[k][j])
                n_x_pairs[i1][0] += 1
                n_x_pairs[i2][0] += 1
                for a, b in ((i1, i2), (i2, i1)):
                    n_x_pairs[a][b] += 1
                    x_pairs[a][b][ROW].append(k)
                    x_pairs[a][b][COL].append(j)
                    x_pairs[a][b][BOX].append(k // 3 * 3 + j // 3)

    @functools.cache
    def footprint(r: int, c: int) -> list[tuple[int, int]]:
        return [
            (i, j)
            for i in range(9)
            for j in range(9)
            if (i, j) != (r, c) and (i == r or j == c or (i // 3, j // 3) == (r // 3, c // 3))
        ]

    def step(info: list[list[int]], depth: int):
        last = info[-1]
        i0, ix = info[0][0], last[0]
        for iy in range(1, 10):
            for ixy in range(n_x_pairs[ix][iy]):
                k_r = x_pairs[ix][iy][ROW][ixy]
                if k_r >= 9:
                    continue
                k_c, k_b = x_pairs[ix][iy][COL][ixy], x_pairs[ix][iy][BOX][ixy]
                if not (k_r == last[1] or k_c == last[2] or k_b == last[3]):
                    continue
                if iy == i0 and depth > 2:
                    r0, c0 = info[0][1], info[0][2]
                    foot = set(footprint(k_r, k_c))
                    inter = [rc for rc in footprint(r0, c0) if rc in foot]
                    hits = {(r, c) for r, c in inter if r < 9 and i0 in grid[r][c]}
                    if hits:
                        return info + [[iy, k_r, k_c, k_b]], hits
                x_pairs[ix][iy][ROW][ixy] += 10
                x_pairs[iy][ix][ROW][ixy] += 10
                info.append([iy, k_r, k_c, k_b])
                found = step(info, depth + 1) if depth < 8 else None
                info.pop()
                x_pairs[ix][iy][ROW][ixy] -= 10
                x_pairs[iy][ix][ROW][ixy] -= 10
                if found:
                    return found
        return None

    def digit(i0: int):
        for i1 in range(1, 10):
            for i01 in range(n_x_pairs[i0][i1]):
                r, c, b = (x_pairs[i0][i1][t][i01] for t in (ROW, COL, BOX))
                x_pairs[i0][i1][ROW][i01] += 10
                x_pairs[i1][i0][ROW][i01] += 10
                found = step([[i0, r, c, b], [i1, r, c, b]], 1)
                x_pairs[i0][i1][ROW][i01] -= 10
                x_pairs[i1][i0][ROW][i01] -= 10
                if found:
                    return found
        return None

    for i in range(1, 10):
        if n_x_pairs[i][0] >= 2:
            found = digit(i)
            if found:
                info, hits = found
                # info: [i0 at start], [i1 at start], then one entry per further cell; as cells
                # (row, col, in, out): the start is i0 -> i1, each next cell prev.out -> its own.
                chain = [(info[0][1], info[0][2], info[0][0], info[1][0])]
                chain += [
                    (info[t][1], info[t][2], info[t - 1][0], info[t][0])
                    for t in range(2, len(info))
                ]
                return chain, hits
    return None


def random_chain_position(rng: random.Random, b: S.Board) -> tuple[S.State, list[list[set]]]:
    """Random candidates: some cells filled with 9 (never a chain digit), many bivalue cells
    over 1..8, the rest 3 to 5 of 1..8."""
    state = position(b, default="")
    grid = [[set() for _ in range(9)] for _ in range(9)]
    filled, pairs = rng.uniform(0.1, 0.5), rng.uniform(0.15, 0.6)
    pool = rng.sample(range(1, 9), rng.randint(3, 8))
    for c, (i, j) in enumerate(b.cells):
        x = rng.random()
        if x < filled:
            state.cand[c], state.value[c] = 0, 9
            grid[i][j] = {9}
            continue
        if x < filled + pairs:
            ds = set(rng.sample(pool, 2))
        else:
            ds = set(rng.sample(range(1, 9), rng.randint(3, 5)))
        grid[i][j] = ds
        state.cand[c] = sum(S._bit(d) for d in ds)
    return state, grid


def test_xy_chain_zambon_order_matches_his_search():
    rng = random.Random(2015)
    b = std9()
    found = 0
    lengths = []
    for _ in range(1000):
        state, grid = random_chain_position(rng, b)
        want = zambon_oracle(grid)
        step = S.find_xy_chain(b, state, order="zambon")
        if want is None:
            assert step is None
            continue
        found += 1
        chain, hits = want
        cells = [(*b.cells[c], None, None) for c in step.pattern]
        assert [(r, c) for r, c, _, _ in cells] == [(r, c) for r, c, _, _ in chain]
        digits = re.findall(r":(\w)(\w)", step.text)
        assert [(int(a), int(z)) for a, z in digits] == [(a, z) for _, _, a, z in chain]
        assert set(removed(b, step)) == hits
        assert set(removed(b, step).values()) == {str(chain[0][2])}
        if found % 10 == 0:
            shortest = S.find_xy_chain(b, state, order="shortest")
            assert shortest is not None and len(shortest.pattern) <= len(step.pattern)
        lengths.append(len(step.pattern))
    assert found >= 300 and max(lengths) >= 7  # long chains were exercised, not only Y-wings


def test_xy_chain_zambons_example_log_line():
    # The seed's example: his log "(8,1):91 (0,1):15 (0,8):54 (0,0):49" is 0-based.
    b, state = zambon_figure_11_1()
    grid = [
        [set(S._digits_of(state.cand[b.index[i, j]])) or {9} for j in range(9)] for i in range(9)
    ]
    chain, hits = zambon_oracle(grid)
    assert [(r, c, a, z) for r, c, a, z in chain] == [
        (8, 1, 9, 1), (0, 1, 1, 5), (0, 8, 5, 4), (0, 0, 4, 9)
    ]  # fmt: skip
    assert hits == {(1, 1), (6, 0), (8, 0)}
    step = S.find_xy_chain(b, state)
    assert step.text == "(9,2):91 (1,2):15 (1,9):54 (1,1):49"


def test_xy_chain_search_respects_the_deadline():
    b, state = zambon_figure_11_1()
    with pytest.raises(S.SearchTimeout):
        S.find_xy_chain(b, state, min_cells=9, deadline=0.0)
    assert S.find_xy_chain(b, state, deadline=time.perf_counter() + 60) is not None


def test_rectangle_search_respects_the_deadline():
    b = std9()
    state = rectangle_position(b, [(1, 3), (2, 5)])
    with pytest.raises(S.SearchTimeout):
        S.find_rectangle(b, state, deadline=0.0)
