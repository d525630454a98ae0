"""``--timeout`` on every command is read by one reader (``runtime.deadline.seconds_of``):
``inf`` and ``1e309`` mean no limit (they ended in OverflowError tracebacks), beyond a year is
one line and exit 2."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import assert_input_error
from stores import record, write_store

from dlxsat.cli_arguments import build_parser

ROOT = Path(__file__).resolve().parent.parent
MASYU = str(ROOT / "puzzles/masyu/tatham-10x10.txt")
SUDOKU = str(ROOT / "puzzles/sudoku/tatham-4x4-1.txt")
DLX = "a b\na\nb\n"

#: One working command line of each command (``{tmp}``: a fresh folder), and its stdin.
COMMANDS = {
    "encode": (["encode", "masyu", MASYU], ""),
    "dlx": (["dlx", "-"], DLX),
    "solve": (["solve", "masyu", MASYU, "--quiet"], ""),
    "export": (["export", "dimacs", "sudoku", SUDOKU, "-o", "{tmp}/out.cnf"], ""),
    "decode": (["decode", "sudoku", SUDOKU, "-"], "s UNSATISFIABLE\n"),
    "crosscheck": (["crosscheck", "sudoku", SUDOKU], ""),
    "check": (["check", "sudoku", SUDOKU, "-", "--unique"], "4 1 2 3\n2 3 4 1\n3 2 1 4\n1 4 3 2\n"),
    "from-tatham": (
        ["from-tatham", "masyu", "10x10:BbWmWWcWWdWiWaBaBBaBaWaBeWaBbBbBaWhBgWcWaWaBaWaBaWc"],
        "",
    ),
    "compare": (["compare", "sudoku", SUDOKU, "--settings", "dlx", "-o", "{tmp}/r.jsonl"], ""),
    "generate": (["generate", "masyu", "6x6", "--seed", "1"], ""),
    "convert": (["convert", "sudoku", SUDOKU, "--to", "oneline"], ""),
    "report": (["report", "{tmp}/store.jsonl"], ""),
    "instance": (["instance", "queens", "4"], ""),
    "verify": (["verify", "sudoku", SUDOKU, "{tmp}/cert", "--checker", "dratify"], ""),
}


def test_the_table_names_every_command():
    sub = next(a for a in build_parser()._actions if a.dest == "command")
    assert sorted(COMMANDS) == sorted(sub.choices)


def _args(name: str, tmp_path: Path, timeout: str) -> list[str]:
    write_store(tmp_path / "store.jsonl", [record("p", "dlx", "unique", 0.5)])
    if name == "verify":  # (the certificate it checks)
        from dlxsat.certify import solve_certified

        _, cert = solve_certified("sudoku", Path(SUDOKU).read_text(), {})
        assert cert is not None
        cert.write(str(tmp_path / "cert"))
    return [w.format(tmp=tmp_path) for w in COMMANDS[name][0]] + ["--timeout", timeout]


@pytest.mark.parametrize("timeout", ["inf", "1e309", "Infinity"])
@pytest.mark.parametrize("name", COMMANDS)
def test_an_infinite_time_limit_is_no_limit(cli_run, tmp_path, name, timeout):
    rc, out, err = cli_run(_args(name, tmp_path, timeout), COMMANDS[name][1].encode())
    assert rc == 0, err
    assert "Traceback" not in err and "error" not in err


@pytest.mark.parametrize("name", COMMANDS)
def test_a_time_limit_past_a_year_is_one_line(cli_run, tmp_path, name):
    rc, out, err = cli_run(_args(name, tmp_path, "1e9"), COMMANDS[name][1].encode())
    assert_input_error(rc, out, err, "--timeout", "at most")


def test_the_compare_api_takes_an_infinite_limit(tmp_path):
    from dlxsat.compare import compare

    out = compare(
        "sudoku",
        [SUDOKU],
        ["dlx"],
        output=str(tmp_path / "r.jsonl"),
        timeout=float("inf"),
        quiet=True,
    )
    assert out.ran == 1 and out.statuses["unique"] == 1
