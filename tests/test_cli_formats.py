"""The command line with other formats: --format, --boxes, convert, files of many puzzles."""

from __future__ import annotations

import io
import json
import sys

import pytest
from conftest import ROOT

from dlxsat import cli

PUZZLES = ROOT / "puzzles"
LINE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


@pytest.fixture
def cli_run(monkeypatch, capfd):
    def run(args, stdin: bytes = b""):
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
        rc = cli.main([str(a) for a in args])
        out, err = capfd.readouterr()
        return rc, out, err

    return run


def one_line_error(rc, out, err, *fragments):
    assert rc == 2 and out == ""
    lines = err.strip().split("\n")
    assert len(lines) == 1 and lines[0].startswith("dlxsat: error: "), err
    for f in fragments:
        assert f in lines[0], lines[0]


def test_solve_reads_a_puzzlink_url_and_an_81_character_line(cli_run):
    url = (PUZZLES / "puzzlink" / "masyu.txt").read_text().split()[1]
    rc, out, err = cli_run(["solve", "masyu", "-", "--json"], url.encode())
    assert rc == 0 and json.loads(out)["status"] == "unique"
    rc, out, err = cli_run(["solve", "sudoku", "-", "--quiet"], LINE.encode())
    assert rc == 0 and out.startswith("unique: 1 solution") and err == ""


def test_a_url_or_game_id_may_stand_in_place_of_the_file(cli_run):
    rc, out, err = cli_run(["solve", "masyu", "https://puzz.link/p?mashu/6/6/1063000i3000"])
    assert rc == 0 and out.startswith("unique: 1 solution")
    rc, out, err = cli_run(["encode", "sudoku", "2x2:4b3a3d1a1b2"])
    assert rc == 0 and out.startswith("|sudoku!4..3!.3..!..1.!1..2\n")
    penpa = (PUZZLES / "penpa" / "sudoku.txt").read_text().splitlines()[0]
    rc, out, err = cli_run(["solve", "sudoku", penpa, "--quiet"])
    assert rc == 0 and out.startswith("unique: 1 solution"), err
    rc, out, err = cli_run(["solve", "masyu", "missing.txt"])
    one_line_error(rc, out, err, "missing.txt: no such file")


@pytest.mark.parametrize(
    "command",
    [
        ["export", "dimacs", "masyu"],
        ["crosscheck", "masyu", "--backends", "dlx,sat"],
        ["crosscheck", "masyu", "--backends", "dlx,sat", "--json"],
    ],
)
def test_every_command_that_reads_a_puzzle_takes_a_url_in_its_place(cli_run, command):
    """export, crosscheck and compare read their puzzles as solve does: a URL (whose
    ``?`` is no glob pattern) is the puzzle itself."""
    url = "https://puzz.link/p?mashu/6/6/1063000i3000"
    rc, out, err = cli_run([*command, url])
    assert rc == 0, err
    assert out.startswith("p cnf") or out.startswith("c ") or url in out


def test_compare_and_a_corpus_export_take_urls_among_files():
    from dlxsat.compare import corpus

    url = "https://puzz.link/p?mashu/6/6/1063000i3000"
    masyu = str(PUZZLES / "masyu" / "tatham-10x10.txt")
    assert corpus.expand([url, masyu, url]) == [url, corpus._shown(masyu)]
    (first, second) = corpus.load([url, masyu], "masyu")
    assert first.path == url and first.text == url and first.size == (6, 6)


def test_forcing_a_format_that_does_not_fit_is_a_one_line_error(cli_run):
    rc, out, err = cli_run(["solve", "sudoku", "-", "--format", "puzzlink"], LINE.encode())
    one_line_error(rc, out, err, "not a puz.link URL")
    rc, out, err = cli_run(["encode", "masyu", "-", "--format", "grid"], b"0.\n.x\n")
    one_line_error(rc, out, err, "line 1, cell 1")
    rc, out, err = cli_run(["solve", "superslitherlink", "-", "--format", "oneline"], b"x")
    one_line_error(rc, out, err, "the oneline format has no superslitherlink")


def test_a_grid_without_box_lines_is_never_a_silent_latin_square(cli_run, tmp_path):
    plain = tmp_path / "plain.txt"
    plain.write_text(
        "".join((PUZZLES / "sudoku" / "tatham-9x9-1.txt").read_text().splitlines(True)[:9])
    )
    rc, out, err = cli_run(["solve", "sudoku", plain, "--quiet"])
    assert rc == 0 and out.startswith("multiple: 2 solutions")
    assert err.count("\n") == 1 and "Latin square" in err and "--boxes standard adds 3x3" in err
    rc, out, err = cli_run(["solve", "sudoku", plain, "--quiet", "--boxes", "standard"])
    assert rc == 0 and out.startswith("unique: 1 solution") and err == ""
    # Knuth's encoding of it is untouched: no boxes, exactly his bytes.
    rc, out, err = cli_run(["encode", "sudoku", plain])
    assert rc == 0 and " b" not in out.split("\n")[1] and err == ""


def many(tmp_path, k=25):
    text = (PUZZLES / "puzzlink" / "sudoku.txt").read_text()
    f = tmp_path / "many.txt"
    f.write_text(text * (k // 7 + 1))
    return f, len(text.split()) * (k // 7 + 1)


def test_a_file_of_many_puzzles_streams_one_line_each(cli_run, tmp_path):
    f, count = many(tmp_path)
    rc, out, err = cli_run(["solve", "sudoku", f])
    lines = out.strip().split("\n")
    assert rc == 0 and err == "" and len(lines) == count
    assert lines[0] == "1 unique 2143431234211234"
    rc, out, err = cli_run(["solve", "sudoku", f, "--json", "--backend", "dlx"])
    objects = [json.loads(line) for line in out.strip().split("\n")]
    assert [o["record"] for o in objects] == list(range(1, count + 1))
    assert {o["status"] for o in objects} == {"unique"}


def test_a_bad_record_stops_the_batch_before_any_answer(cli_run, tmp_path):
    f = tmp_path / "bad.txt"
    f.write_text(LINE + "\n" + LINE + "\n" + LINE[:-1] + "x\n")
    rc, out, err = cli_run(["solve", "sudoku", f])
    one_line_error(rc, out, err, "record 3 (line 3)", "character 81")
    rc, out, err = cli_run(["solve", "sudoku", f.with_name("nope.txt")])
    one_line_error(rc, out, err, "no such file")


def test_the_progress_bar_shows_only_on_a_terminal_and_not_when_quiet(
    cli_run, tmp_path, monkeypatch
):
    f, count = many(tmp_path)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    rc, out, err = cli_run(["solve", "sudoku", f])
    assert rc == 0 and len(out.strip().split("\n")) == count
    assert f"{count}/{count}" in err
    rc, out, err = cli_run(["solve", "sudoku", f, "--quiet"])
    assert rc == 0 and err == ""


def test_convert_between_formats_and_back(cli_run, tmp_path):
    src = PUZZLES / "masyu" / "tatham-10x10.txt"
    rc, url, err = cli_run(["convert", "masyu", src, "--to", "puzzlink"])
    assert rc == 0 and url.startswith("https://puzz.link/p?mashu/10/10/")
    rc, grid, err = cli_run(["convert", "masyu", "-", "--to", "grid"], url.encode())
    assert rc == 0 and grid.startswith("10 10\n")
    out_file = tmp_path / "back.txt"
    rc, out, err = cli_run(
        ["convert", "masyu", "-", "--to", "knuth", "-o", out_file], grid.encode()
    )
    assert rc == 0 and out == "" and out_file.read_text() == src.read_text()
    urls = PUZZLES / "puzzlink" / "sudoku.txt"
    rc, out, err = cli_run(["convert", "sudoku", urls, "--to", "oneline"])
    one_line_error(rc, out, err, "record 4 (line 4)", "4, 9 or 16 cells wide, not 6")
    four = tmp_path / "four.txt"
    four.write_text("".join(urls.read_text().splitlines(True)[:3]))
    rc, out, err = cli_run(["convert", "sudoku", four, "--to", "oneline"])
    assert rc == 0 and out.split()[0] == ".1.....23.....3." and len(out.split()) == 3
    rc, out, err = cli_run(
        [
            "convert",
            "superslitherlink",
            PUZZLES / "superslitherlink" / "pi-day-2025.txt",
            "--to",
            "puzzlink",
        ]
    )
    one_line_error(rc, out, err, "the puzzlink format has no superslitherlink")
    rc, out, err = cli_run(
        ["convert", "sudoku", PUZZLES / "sudoku" / "puzzlium-A.txt", "--to", "grid"]
    )
    one_line_error(rc, out, err, "no holes")


def test_encode_export_and_crosscheck_take_the_format(cli_run, tmp_path):
    url = "https://puzz.link/p?slither/5/5/cbcbcddad"
    knuth = b"2..1.\n.2..1\n..2..\n3..3.\n.0..3\n"
    rc, a, _ = cli_run(["encode", "slitherlink", "-", "--format", "puzzlink"], url.encode())
    rc2, b, _ = cli_run(["encode", "slitherlink", "-"], knuth)
    assert rc == rc2 == 0 and a == b
    rc, a, _ = cli_run(["export", "dimacs", "slitherlink", "-"], url.encode())
    rc2, b, _ = cli_run(["export", "dimacs", "slitherlink", "-"], knuth)
    assert rc == rc2 == 0 and a.split("\n")[1:] == b.split("\n")[1:]
    f = tmp_path / "url.txt"
    f.write_text(url + "\n")
    rc, out, err = cli_run(["crosscheck", "slitherlink", f, "--backends", "sat,cpsat", "--json"])
    assert rc == 0 and json.loads(out)[0]["counts"] == {"sat": 1, "cpsat": 1}


def test_wide_drawings_are_cut_into_strips_on_a_narrow_terminal(cli_run, monkeypatch):
    url = (PUZZLES / "puzzlink" / "slitherlink.txt").read_text().split()[3]  # 9 x 9
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True, raising=False)
    monkeypatch.setenv("COLUMNS", "20")
    rc, out, err = cli_run(["solve", "slitherlink", "-"], url.encode())
    assert rc == 0 and "[1-20/37]" in out
    assert (
        max(len(line) for line in out.split("\n") if not line.startswith(("unique", "stats"))) <= 20
    )
