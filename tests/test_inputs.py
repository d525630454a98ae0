"""Reading input (dlxsat.inputs.read_text): bounded while reading, a byte-order mark accepted,
and a bad one-line Sudoku told by what is wrong with it."""

from __future__ import annotations

import io

import pytest
from conftest import assert_input_error

from dlxsat import inputs
from dlxsat.errors import InputError

SUDOKU_LINE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


class Endless(io.RawIOBase):
    """A stream that never ends (like /dev/zero or `yes`), counting what was read from it."""

    def __init__(self, byte: bytes) -> None:
        self.byte, self.given = byte, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        buffer[:] = self.byte * len(buffer)
        self.given += len(buffer)
        return len(buffer)


@pytest.mark.parametrize("byte, message", [(b"a", "more than 4 MiB"), (b"\0", "NUL byte")])
def test_an_endless_input_is_refused_while_reading(monkeypatch, byte, message):
    monkeypatch.setattr(inputs, "MAX_INPUT_BYTES", 4 << 20)
    stream = Endless(byte)
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BufferedReader(stream)))
    with pytest.raises(InputError, match=message):
        inputs.read_text("-", "puzzle")
    assert stream.given <= (4 << 20) + 2 * inputs.CHUNK_BYTES


def test_the_cap_is_in_the_message(cli_run, monkeypatch, tmp_path):
    monkeypatch.setattr(inputs, "MAX_INPUT_BYTES", 1 << 20)
    big = tmp_path / "big.txt"
    big.write_text((SUDOKU_LINE + "\n") * 20_000)  # 1.6 MB
    rc, out, err = cli_run(["solve", "sudoku", big])
    assert_input_error(rc, out, err, "more than 1 MiB", "too large")


def test_dev_zero_fails_at_once(cli_run):
    rc, out, err = cli_run(["solve", "masyu", "/dev/zero"])
    assert_input_error(rc, out, err, "/dev/zero: binary data")


def test_the_cap_covers_the_largest_real_inputs():
    """A million one-line Sudokus (the largest batch input we know of) fit under the cap."""
    assert 1_000_000 * (len(SUDOKU_LINE) + 1) < inputs.MAX_INPUT_BYTES


@pytest.mark.parametrize(
    "args, text",
    [
        (["solve", "sudoku", "-"], "4..3.3....1.1..2\n"),
        (["solve", "sudoku", "-"], "4..3\n.3..\n..1.\n1..2\n"),
        (["dlx", "-"], "a b\na\nb\n"),
        (["encode", "masyu", "-"], "0.\n.1\n"),
    ],
)
def test_a_utf8_byte_order_mark_is_accepted(cli_run, args, text):
    rc, out, err = cli_run(args, b"\xef\xbb\xbf" + text.encode())
    assert rc == cli_run(args, text.encode())[0]
    assert "non-ASCII" not in err and "\ufeff" not in err


def test_a_bad_81_character_line_says_what_is_wrong(cli_run):
    bad = SUDOKU_LINE[:40] + "x" + SUDOKU_LINE[41:]
    rc, out, err = cli_run(["solve", "sudoku", "-"], bad.encode())
    assert_input_error(rc, out, err, "character 41: 'x'")
    assert "n is at most" not in err
    rc, out, err = cli_run(["solve", "sudoku", "-"], (bad[:80] + "\n").encode())  # 80 characters
    assert rc == 2 and "Traceback" not in err


@pytest.mark.parametrize(
    "args",
    [["export", "dimacs", "sudoku"], ["convert", "sudoku", "--to", "oneline"]],
    ids=["export", "convert"],
)
def test_export_and_convert_read_stdin_when_file_is_omitted(cli_run, args):
    rc, out, err = cli_run(args, b"4..3.3....1.1..2\n")
    assert rc == 0, err
    assert (
        out
        == cli_run(
            [*args[:-2], "-", *args[-2:]] if "--to" in args else [*args, "-"], b"4..3.3....1.1..2\n"
        )[1]
    )
    assert out.strip()
