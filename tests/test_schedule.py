"""``compare``'s job order: the longest predicted first (``dlxsat.compare.schedule``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dlxsat.compare import compare
from dlxsat.compare.jobs import Job
from dlxsat.compare.schedule import Predictor, cells, longest_first

ROOT = Path(__file__).resolve().parent.parent


def job(puzzle: str, setting: str, size: tuple[int, int] | None, text: str = "") -> Job:
    backend = setting.split(":")[0]
    return Job(puzzle, text, puzzle, "masyu", backend, setting, {}, {}, size=size)


def record(j: Job, seconds: float, status: str = "unique") -> dict:
    return {
        "job": j.id,
        "family": j.family,
        "setting": j.setting,
        "backend": j.backend,
        "mode": j.mode,
        "size": list(j.size) if j.size else None,
        "wall_seconds": seconds,
        "status": status,
    }


def order(jobs: list[Job], records: list[dict] = ()) -> list[str]:  # type: ignore[assignment]
    return [f"{j.puzzle} {j.setting}" for j in longest_first(jobs, records)]


@pytest.mark.parametrize(
    "size, text, expected",
    [((10, 18), "", 180.0), (None, "x" * 50, 5.0), (None, "", 1.0), ((0, 5), "x" * 30, 3.0)],
)
def test_cells_is_the_boards_or_a_proxy(size, text, expected):
    assert cells(size, text) == expected


def test_nothing_stored_the_size_orders_and_ties_keep_their_order():
    jobs = [job("a", "sat", (10, 10)), job("b", "sat", (20, 36)), job("a", "cpsat", (10, 10))]
    assert order(jobs) == ["b sat", "a sat", "a cpsat"]


def test_the_store_fits_each_setting_against_the_size():
    # Stored: cpsat:loop=lazy took 1 s on 10 x 10 and 16 s on 20 x 20, sat 0.03-0.1 s. A new
    # 15 x 15 board: its cpsat job (about 5 s predicted) before the sat one, and both after
    # the 20 x 20's cpsat job.
    old = [
        record(job("p", "cpsat:loop=lazy", (10, 10)), 1.0),
        record(job("q", "cpsat:loop=lazy", (20, 20)), 16.0),
        record(job("p", "sat", (10, 10)), 0.03),
        record(job("q", "sat", (20, 20)), 0.1),
    ]
    jobs = [
        job("n", "sat", (15, 15)),
        job("n", "cpsat:loop=lazy", (15, 15)),
        job("m", "cpsat:loop=lazy", (20, 20)),
    ]
    assert order(jobs, old) == ["m cpsat:loop=lazy", "n cpsat:loop=lazy", "n sat"]
    predicted = Predictor(old).seconds(jobs[1])
    assert 4 < predicted < 6  # 1 s x (225 / 100) ^ 2


def test_a_job_stored_itself_takes_its_time_and_errors_teach_nothing():
    a, b = job("a", "sat", (10, 10)), job("b", "sat", (10, 10))
    assert order([a, b], [record(b, 5.0), record(a, 0.1)]) == ["b sat", "a sat"]
    assert order([a, b], [record(b, 5.0, status="error")]) == ["a sat", "b sat"]


def test_same_solver_other_options_stand_in_for_an_unknown_setting():
    old = [record(job("p", "sat:loop=eager", (10, 10)), 9.0)]
    jobs = [job("n", "cpsat", (12, 12)), job("n", "sat:loop=lazy", (10, 10))]
    assert order(jobs, old) == ["n sat:loop=lazy", "n cpsat"]


def test_compare_starts_the_longest_predicted_job_first(tmp_path):
    # One worker: the records come in the order the jobs started; the 6 x 6 Sudoku (larger)
    # first, though listed second.
    out = tmp_path / "r.jsonl"
    small = str(ROOT / "puzzles/sudoku/tatham-4x4-1.txt")
    large = str(ROOT / "puzzles/sudoku/tatham-6x6-1.txt")
    compare("sudoku", [small, large], ["dlx"], output=str(out), jobs=1, quiet=True)
    records = [json.loads(x) for x in out.read_text().splitlines()]
    assert [r["size"] for r in records] == [[6, 6], [4, 4]]
