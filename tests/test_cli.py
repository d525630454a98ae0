"""The command line: bad input gives one specific line on stderr, exit 2, and nothing on stdout."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import GOLDEN, ROOT, assert_input_error, golden_cases, run  # noqa: F401

FAMILY_PUZZLE = {
    "masyu": GOLDEN / "masyu" / "tatham-10x10-1.txt",
    "slitherlink": GOLDEN / "slitherlink" / "tatham-5x5-1.txt",
    "superslitherlink": GOLDEN / "superslitherlink" / "pi-day-2025.txt",
    "sudoku": GOLDEN / "sudoku" / "puzzlium-A.txt",
}


BAD_INPUTS = [
    # (family, bytes, fragments expected in the message)
    ("masyu", b"", ["empty"]),
    ("masyu", b"\n\n  \n", ["empty"]),
    ("masyu", b"\xff\xfe..\n..\n", ["not UTF-8"]),
    ("masyu", b"..\0\n..\n", ["binary"]),
    ("masyu", b"..\t.\n...\n", ["line 1, column 3", "tab"]),
    ("masyu", b"...\n", ["2 or more"]),
    ("masyu", b".\n.\n.\n", ["2 or more"]),
    ("masyu", b"...\n.x.\n", ["line 2", "column 2", "illegal clue"]),
    ("masyu", b"...\n....\n", ["line 2", "wrong number"]),
    ("slitherlink", b"", ["empty"]),
    ("slitherlink", b"3.2\n", ["2 or more"]),
    ("slitherlink", b"..\t\n...\n", ["tab"]),
    ("slitherlink", b".5.\n...\n", ["line 1"]),
    ("superslitherlink", b"", ["empty"]),
    ("superslitherlink", b"aa.\n...\n!a3\n", ["line 3", "="]),
    ("superslitherlink", b"a\n.\n", ["2 or more"]),
    ("sudoku", b"", ["empty"]),
    ("sudoku", b"\x80\n", ["not UTF-8"]),
]


@pytest.mark.parametrize("family, data, fragments", BAD_INPUTS)
def test_bad_puzzle_input_on_stdin(cli_run, family, data, fragments):
    rc, out, err = cli_run(["encode", family], data)
    assert_input_error(rc, out, err, *fragments)


@pytest.mark.parametrize(
    "case",
    [e for e in golden_cases(registered=True) if e["exit_status"] != 0],
    ids=lambda e: f"{e['family']}/{e['name']}",
)
def test_knuths_rejected_inputs(cli_run, case):
    rc, out, err = cli_run(["encode", case["family"], GOLDEN / case["puzzle"]])
    assert_input_error(rc, out, err)


@pytest.mark.parametrize("family", sorted(FAMILY_PUZZLE))
def test_missing_file_and_directory(cli_run, family, tmp_path):
    rc, out, err = cli_run(["encode", family, tmp_path / "nope.txt"])
    assert_input_error(rc, out, err, "no such file")
    rc, out, err = cli_run(["solve", family, tmp_path])
    assert_input_error(rc, out, err, "directory")


@pytest.mark.parametrize("family", sorted(FAMILY_PUZZLE))
def test_crlf_and_trailing_blank_lines_are_accepted(cli_run, family):
    data = FAMILY_PUZZLE[family].read_bytes()
    rc, plain, _ = cli_run(["encode", family], data)
    assert rc == 0 and plain
    rc, crlf, err = cli_run(["encode", family], data.replace(b"\n", b"\r\n"))
    assert (rc, err) == (0, "") and crlf == plain
    rc, trailing, err = cli_run(["encode", family], data + b"\n\n\n")
    assert (rc, err) == (0, "") and trailing == plain


@pytest.mark.parametrize(
    "args, fragments",
    [
        (["encode", "kakuro"], ["invalid choice", "kakuro"]),
        (["frobnicate"], ["invalid choice"]),
        ([], ["required"]),
        (["solve", "masyu", FAMILY_PUZZLE["masyu"], "--backend", "quantum"], ["invalid choice"]),
        (["solve", "masyu", FAMILY_PUZZLE["masyu"], "--timeout", "-1"], ["positive"]),
        (["dlx", "--first", "0"], ["positive whole number"]),
        (["dlx", "--all", "--count"], ["not allowed with"]),
        (["generate", "masyu", "axb"], ["ROWSxCOLS"]),
        (["from-tatham", "superslitherlink", "5x5:a"], ["invalid choice"]),
        (["from-tatham", "masyu", "10x10"], ["not a Pearl game id"]),
        (["from-tatham", "masyu", "2x2:BbX"], ["character 3", "'X'"]),
        (["from-tatham", "masyu", "3x3:Ba"], ["2 cells, not 3x3 = 9"]),
        (["from-tatham", "slitherlink", "2x2t1:d"], ["grid type t1"]),
        (["from-tatham", "sudoku", "3j:abc"], ["jigsaw"]),
        (["from-tatham", "sudoku", "3x3k:abc"], ["killer"]),
        (["from-tatham", "sudoku", "2x2:5o"], ["clue 5, not in 1..4"]),
        (["from-tatham", "sudoku", "2x2:o"], ["15 cells, not 4x4 = 16"]),
        (["from-tatham", "sudoku", "7x7:a"], ["not supported"]),
    ],
)
def test_usage_errors(cli_run, args, fragments):
    rc, out, err = cli_run(args, b"")
    assert_input_error(rc, out, err, *fragments)


#: Command lines of every command, good and bad (bad ones: each error the parser can give).
COMMAND_LINES = [
    ["encode", "masyu", "p.txt", "--format", "knuth", "--timeout", "2"],
    ["encode", "kakuro"],
    ["dlx", "--first", "3", "--loop", "--json"],
    ["dlx", "--all", "--count"],
    ["solve", "sudoku", "-", "--backend", "sat", "--encoding", "totalizer", "--boxes", "standard"],
    ["solve", "masyu", "--loop"],
    ["solve", "masyu", "--backend", "quantum"],
    ["solve", "masyu", "p.txt", "--nope"],
    ["export", "dimacs", "slitherlink", "a", "b", "-o", "d", "--settings", "sat:colors=binary"],
    ["decode", "masyu", "p.txt", "-", "--svg", "a.svg"],
    ["crosscheck", "masyu", "p.txt", "--backends", "dlx,sat"],
    ["from-tatham", "masyu", "10x10:abc"],
    ["compare", "masyu", "x", "--preset", "loops", "--jobs", "2", "--memory", "100"],
    ["generate", "masyu", "8x10", "--seed", "x"],
    ["instance", "queens", "8"],
    ["convert", "--to", "grid", "p.txt"],
    ["report", "r.jsonl", "--plot", "nope"],
    ["solve"],
]


@pytest.mark.parametrize(
    "between, after",
    [
        ("solve masyu --backend sat p.txt", "solve masyu p.txt --backend sat"),
        ("check masyu --json p.txt a.txt", "check masyu p.txt a.txt --json"),
        ("encode slitherlink --timeout 5 p.txt", "encode slitherlink p.txt --timeout 5"),
        (
            "export dimacs --settings sat:colors=binary masyu p.txt",
            "export dimacs masyu p.txt --settings sat:colors=binary",
        ),
    ],
)
def test_options_may_come_between_the_positionals(between, after):
    """``dlxsat solve masyu --backend sat FILE`` is read as with the options last (argparse's
    plain ``parse_args`` took FILE for an unrecognized argument)."""
    from dlxsat.cli_arguments import parse_arguments

    assert vars(parse_arguments(between.split())) == vars(parse_arguments(after.split()))


@pytest.mark.parametrize("words", COMMAND_LINES, ids=" ".join)
def test_a_parser_of_one_command_parses_as_the_whole_one(words):
    """``parse_arguments`` declares only the command it is given (the others cost 3 ms a
    run): its answer, its error and that command's help are the whole parser's."""
    from dlxsat.cli_arguments import build_parser, parse_arguments
    from dlxsat.errors import InputError

    def outcome(parse):
        try:
            return vars(parse())
        except InputError as e:
            return str(e)

    whole = build_parser()
    assert outcome(lambda: parse_arguments(words)) == outcome(lambda: whole.parse_args(words))
    one = build_parser(words[0])
    sub = next(a for a in one._actions if a.dest == "command")
    assert list(sub.choices) == [words[0]]  # the others are not declared at all
    every = next(a for a in whole._actions if a.dest == "command")
    assert sub.choices[words[0]].format_help() == every.choices[words[0]].format_help()


@pytest.mark.parametrize(
    "data, fragments",
    [
        (b"| nothing but a comment\n", ["no items"]),
        # docs/conventions.md §3: an input error
        (b"a b\na c\n", ["line 2", "unknown item name 'c'"]),
        (b"a a\n", ["line 1", "duplicate item name"]),
        (b"3:1|a\n", ["lower bound exceeds upper bound"]),
        (b"a | x\na x:10\n", ["line 2", "single character"]),
    ],
)
def test_bad_dlx_input(cli_run, data, fragments):
    rc, out, err = cli_run(["dlx"], data)
    assert_input_error(rc, out, err, *fragments)


def test_loop_rule_errors_are_input_errors(cli_run):
    rc, out, err = cli_run(["dlx", "--loop"], b"00 | 01\n00 01:1\n")
    assert_input_error(rc, out, err, "nonexistent vertex")


def test_export_to_an_unwritable_place_writes_nothing(cli_run, tmp_path):
    target = tmp_path / "missing-dir" / "out.cnf"
    rc, out, err = cli_run(["export", "dimacs", "masyu", FAMILY_PUZZLE["masyu"], "-o", target])
    assert_input_error(rc, out, err, "cannot write")
    assert not target.parent.exists()


def test_export_of_a_bad_puzzle_leaves_no_file(cli_run, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("..x\n...\n")
    target = tmp_path / "out.cnf"
    rc, out, err = cli_run(["export", "dimacs", "masyu", bad, "-o", target])
    assert_input_error(rc, out, err, "illegal clue")
    assert list(tmp_path.iterdir()) == [bad]


def test_python_dash_m_runs_the_cli():
    p = subprocess.run(
        [sys.executable, "-m", "dlxsat", "encode", "masyu", str(FAMILY_PUZZLE["masyu"])],
        capture_output=True,
        cwd=ROOT,
    )
    assert p.returncode == 0
    assert p.stdout == (GOLDEN / "masyu" / "tatham-10x10-1.dlx").read_bytes()


def test_import_is_light():
    """`import dlxsat` and the CLI's start-up must not load the heavy solver libraries."""
    code = (
        "import sys, dlxsat, dlxsat.cli, dlxsat.pipeline; "
        "heavy = [m for m in ('numba', 'ortools', 'networkx', 'pysat') if m in sys.modules]; "
        "print(','.join(heavy))"
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert p.stdout.strip() == ""


def test_encode_reads_stdin_when_no_file(cli_run):
    data = FAMILY_PUZZLE["masyu"].read_bytes()
    rc, out, err = cli_run(["encode", "masyu"], data)
    assert rc == 0 and out == (GOLDEN / "masyu" / "tatham-10x10-1.dlx").read_text()


def test_from_tatham_prints_a_puzzle_the_other_commands_take(cli_run, tmp_path):
    game_id = "10x10:BbWmWWcWWdWiWaBaBBaBaWaBeWaBbBbBaWhBgWcWaWaBaWaBaWc"
    rc, out, err = cli_run(["from-tatham", "masyu", game_id])
    assert (rc, err) == (0, "")
    assert out == (ROOT / "puzzles" / "masyu" / "tatham-10x10.txt").read_text()
    path = tmp_path / "pearl.txt"
    path.write_text(out)
    rc, out, err = cli_run(["solve", "masyu", path, "--quiet"])
    assert rc == 0 and out.startswith("unique"), (out, err)


def test_dlx_ties_choose_knuths_tree_or_its_mirror(cli_run):
    # The same answers through two trees: Knuth's (his node counts) and the mirrored one; a
    # wrong choice, or the option given to a backend without it, is a one-line error.
    runs = {}
    for puzzle in (ROOT / "puzzles/masyu/tatham-10x10.txt", GOLDEN / "masyu/random-few-5x6-3.txt"):
        for ties in ("leftmost", "rightmost"):
            args = ["solve", "masyu", puzzle, "--backend", "dlx", "--ties", ties, "--json"]
            rc, out, err = cli_run(args)
            assert rc in (0, 1), err  # (unique, or several answers)
            report = json.loads(out)
            assert report["stats"].get("mirrored", False) == (ties == "rightmost")
            answers = sorted(json.dumps(a, sort_keys=True) for a in report["solutions"])
            runs[puzzle.name, ties] = (report["status"], answers, report["stats"]["nodes"])
    # (a puzzle of several answers: each tree stops at the first two it meets, not the same two)
    for name, status in (("tatham-10x10.txt", "unique"), ("random-few-5x6-3.txt", "multiple")):
        knuth, mirrored = runs[name, "leftmost"], runs[name, "rightmost"]
        assert knuth[0] == mirrored[0] == status and knuth[2] != mirrored[2]
    assert runs["tatham-10x10.txt", "leftmost"][1] == runs["tatham-10x10.txt", "rightmost"][1]
    puzzle = ROOT / "puzzles/masyu/tatham-10x10.txt"
    assert_input_error(
        *cli_run(["solve", "masyu", puzzle, "--backend", "dlx", "--ties", "middle"]), "ties"
    )
    assert_input_error(
        *cli_run(["solve", "masyu", puzzle, "--backend", "sat", "--ties", "rightmost"]), "--ties"
    )
