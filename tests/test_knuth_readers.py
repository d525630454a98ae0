"""SuperSlitherlink's `!` lines read by Knuth's rules: dlxsat's stdout is byte for byte his,
and its warnings are his warnings.

The golden files in ``tests/data/superslitherlink-knuth-readers/`` were made with Knuth's
SUPERSLITHERLINK-GENERAL-DLX, tangled from ``superslitherlink-general-dlx.w`` (as published in
github.com/shreevatsa/knuth-literate-programs, programs-orig/) and compiled with gcc::

    ctangle superslitherlink-general-dlx.w && gcc -O -o ssg superslitherlink-general-dlx.c
    for f in *.txt; do ./ssg < $f > ${f%.txt}.knuth-out 2> ${f%.txt}.knuth-err; done

His program also prints "OK, I've read a MxN array of clues." on stderr, a progress note that
dlxsat does not print; every other line of his stderr is a warning dlxsat must give too.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import TESTS
from test_cli import run as run_cli

DATA = TESTS / "data" / "superslitherlink-knuth-readers"
#: Cases where his data is valid: dlxsat prints the same bytes, with the same warnings.
SAME = ["unknown-letter", "clue-between-rows", "clue-line-first", "region-digits", "thirty-rows"]
#: Cases where his program prints invalid data (a letter left without a clue becomes the item
#: ``-2|a``, which no DLX solver takes): dlxsat gives one input error instead.
INVALID = {
    "clue-before-its-letter": "line 1 comes before the letter occurs",
    "thirty-rows-letters": "it stops after 30 board rows",
}


@pytest.fixture
def cli_run(monkeypatch, capfd):
    return lambda args, stdin=b"": run_cli(args, stdin, monkeypatch, capfd)


def his_warnings(case: str) -> list[str]:
    err = (DATA / f"{case}.knuth-err").read_text().splitlines()
    return [line for line in err if not line.startswith("OK, I've read")]


@pytest.mark.parametrize("case", SAME)
def test_stdout_and_warnings_match_knuth(cli_run, case: str) -> None:
    rc, out, err = cli_run(["encode", "superslitherlink", DATA / f"{case}.txt"])
    assert rc == 0
    assert out == (DATA / f"{case}.knuth-out").read_text()
    ours = err.splitlines()
    for warning in his_warnings(case):
        assert any(line.startswith("dlxsat: warning: ") and line.endswith(warning) for line in ours)
    if case == "thirty-rows":  # he reads nothing after 30 rows, silently; dlxsat says so
        assert ours == [
            "dlxsat: warning: lines 31-32 ignored: Knuth's program reads nothing "
            "after 30 board rows"
        ]
    elif not his_warnings(case):
        assert ours == []


@pytest.mark.parametrize("case", sorted(INVALID))
def test_where_his_data_is_invalid_dlxsat_refuses(cli_run, case: str) -> None:
    assert "-2|" in (DATA / f"{case}.knuth-out").read_text()
    assert any(w.startswith("No `!") for w in his_warnings(case))
    rc, out, err = cli_run(["encode", "superslitherlink", DATA / f"{case}.txt"])
    assert rc == 2 and out == "" and err.count("\n") == 1
    assert "has no clue line" in err and INVALID[case] in err


def test_region_digits_are_letters_to_the_solvers_too(cli_run) -> None:
    """A board using 5 as a region mark solves like the same board using a letter."""
    text = (DATA / "region-digits.txt").read_bytes()
    rc5, out5, _ = cli_run(["solve", "superslitherlink", "-", "--count", "--quiet"], text)
    lettered = text.replace(b"5", b"c")
    rcc, outc, _ = cli_run(["solve", "superslitherlink", "-", "--count", "--quiet"], lettered)
    assert rc5 == rcc == 0
    assert out5.split("(")[0] == outc.split("(")[0]


def test_every_case_has_its_golden_files() -> None:
    cases = sorted(p.stem for p in Path(DATA).glob("*.txt"))
    assert cases == sorted(SAME + list(INVALID))
    for case in cases:
        assert (DATA / f"{case}.knuth-out").read_text().startswith("| slitherlink-dlx:\n")


def test_a_masyu_without_final_newline_is_accepted(cli_run) -> None:
    """MASYU-DLX panics on it; dlxsat reads it as if the newline were there (puzzles/README.md)."""
    whole = (TESTS.parent / "puzzles/masyu/tatham-10x10.txt").read_bytes()
    assert whole.endswith(b"\n")
    rc, out, err = cli_run(["encode", "masyu", "-"], whole)
    rc2, out2, err2 = cli_run(["encode", "masyu", "-"], whole.rstrip(b"\n"))
    assert rc == rc2 == 0 and out2 == out and err2 == ""
