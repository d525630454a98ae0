"""The JSON contract of the command line (README, *Commands*): every command's object has the
documented keys in the documented order, and is what :mod:`dlxsat.jsonform` makes of the
library's results -- the command line only prints it."""

from __future__ import annotations

import json
import re

import pytest
from conftest import GOLDEN, run

import dlxsat
from dlxsat import jsonform, textform
from dlxsat.xcc.check import check_solutions
from dlxsat.xcc.listing import summary_line, write_listing

SUDOKU = GOLDEN / "sudoku" / "puzzlium-A.txt"
MASYU = GOLDEN / "masyu" / "tatham-10x10-1.txt"
SOLVE_KEYS = ["family", "backend", "status", "count", "solutions", "seconds", "stats"]
DLX_KEYS = ["count", "complete", "exhaustive", "checked", "nodes", "updates", "seconds"]


@pytest.fixture
def cli(monkeypatch, capfd):
    return lambda *args, stdin=b"": run(list(args), stdin, monkeypatch, capfd)


def _without_times(data: dict) -> dict:
    """The object with its wall-clock figures taken out (they differ from run to run)."""
    data = dict(data)
    data.pop("seconds", None)
    data["stats"] = {k: v for k, v in data.get("stats", {}).items() if "seconds" not in k}
    data["stats"].pop("kernel", None)  # interpreted or compiled, by the time it took
    return data


def test_solve_json_keys_and_library_object(cli):
    rc, out, err = cli("solve", "sudoku", SUDOKU, "--backend", "dlx", "--json")
    assert rc == 0, err
    assert out.endswith("}\n") and out.count("\n") == 1
    got = json.loads(out)
    assert list(got) == SOLVE_KEYS
    report = dlxsat.solve("sudoku", SUDOKU.read_text(), backend="dlx")
    assert _without_times(got) == _without_times(jsonform.solve_json(report))


def test_solve_json_with_crosscheck_and_steps(cli):
    rc, out, err = cli(
        "solve", "sudoku", SUDOKU, "--backend", "dlx", "--crosscheck", "sat", "--json"
    )
    assert rc == 0, err
    got = json.loads(out)
    assert list(got) == [*SOLVE_KEYS, "crosscheck"]
    assert [list(c) for c in got["crosscheck"]] == [
        ["backend", "status", "count", "seconds", "agree", "difference"]
    ]
    rc, out, err = cli("solve", "sudoku", SUDOKU, "--backend", "logic", "--explain", "--json")
    assert rc == 0, err
    got = json.loads(out)
    assert list(got) == [*SOLVE_KEYS, "steps"] and got["steps"]
    assert "steps" not in got["stats"]  # steps are data of their own, not a statistic


def _masked(text: str) -> str:
    """Text with its wall-clock figures (and the dlx kernel chosen by them) masked."""
    text = re.sub(r"seconds=[^,\n]+", "seconds=F", text)
    return re.sub(r"kernel=\w+", "kernel=K", re.sub(r"\d+\.\d+(e-?\d+)?|\d+e-\d+", "F", text))


def test_solve_text_is_the_library_text(cli):
    rc, out, err = cli("solve", "sudoku", SUDOKU, "--backend", "dlx", "--quiet")
    assert rc == 0, err
    report = dlxsat.solve("sudoku", SUDOKU.read_text(), backend="dlx")
    assert _masked(out) == _masked(textform.solve_text(report))
    assert out.startswith("unique: 1 solution (sudoku, backend dlx, ")


def test_batch_json_lines_start_with_the_record(cli, tmp_path):
    lines = [SUDOKU.read_text()] * 2
    path = tmp_path / "two.txt"
    path.write_text("\n".join(lines))
    rc, out, err = cli("solve", "sudoku", path, "--backend", "dlx", "--json")
    assert rc == 0, err
    objects = [json.loads(line) for line in out.splitlines()]
    assert [list(o) for o in objects] == [["record", *SOLVE_KEYS]] * 2
    rc, out, err = cli("solve", "sudoku", path, "--backend", "dlx")
    assert rc == 0, err
    report = next(dlxsat.solve_many("sudoku", [SUDOKU.read_text()], backend="dlx"))
    assert out.splitlines() == [textform.batch_line(1, report), textform.batch_line(2, report)]


def test_dlx_json_keys_and_solutions(cli):
    rc, out, err = cli("dlx", "--first", "2", "--json", stdin=b"a b\na\nb\na b\n")
    assert rc == 0, err
    got = json.loads(out)
    assert list(got) == [*DLX_KEYS, "solutions"]
    assert got["count"] == 2 and got["complete"] and got["checked"] == 2
    assert got["solutions"] == [["a", "b"], ["a b"]]
    rc, out, err = cli("dlx", "--json", stdin=b"a b\na\nb\na b\n")
    assert list(json.loads(out)) == DLX_KEYS


def test_dlx_listing_is_the_library_listing(cli):
    text = "a b\na\nb\na b\n"
    rc, out, err = cli("dlx", "--all", stdin=text.encode())
    assert rc == 0, err
    problem = dlxsat.read_dlx(text)
    result = dlxsat.search_dlx(problem, keep=None)
    pieces: list[str] = []
    listed = write_listing(problem, result.solutions, pieces.append)
    assert listed == check_solutions(problem, result.solutions) == 2
    want = "".join(pieces) + summary_line(2, result.stats, False, 2, 2)
    assert out.splitlines()[:-1] == want.splitlines()[:-1] == ["1:", " a", " b", "2:", " a b"]
    assert out.splitlines()[-1].startswith("2 solutions, ")


def test_decode_json(cli, tmp_path):
    model = tmp_path / "model"
    model.write_text("s UNSATISFIABLE\n")
    rc, out, err = cli("decode", "masyu", MASYU, model, "--json")
    assert rc == 0, err
    assert out == '{"family": "masyu", "status": "none", "count": 0, "solutions": []}\n'
    rc, out, err = cli("decode", "masyu", MASYU, model)
    assert (rc, out) == (0, "no answer: the solver said UNSATISFIABLE\n")


def test_crosscheck_json_keys(cli):
    rc, out, err = cli("crosscheck", "sudoku", SUDOKU, "--backends", "dlx,sat", "--json")
    assert rc == 0, err
    rows = json.loads(out)
    assert [list(r) for r in rows] == [
        ["file", "load_seconds", "counts", "seconds", "agree", "timed_out", "difference"]
    ]
