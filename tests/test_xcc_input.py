"""Knuth's exact-cover data as a puzzle family (``xcc``): every command, every backend."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import assert_input_error

from dlxsat.backends.cnf import ENCODINGS
from dlxsat.families import xcc
from dlxsat.instances import generate
from dlxsat.pipeline import solve

DATA = Path(__file__).parent / "data"
QUEENS = DATA / "queens-6.dlx"  # dlxsat instance queens 6: 4 answers (OEIS A000170)
#: Knuth's MASYU-DLX data of a 4 x 4 board: DLX2 counts 25 covers, DLX2-LOOP 16 single loops
#: (golden manifest, his programs).
MASYU = DATA / "golden" / "masyu" / "random-few-4x4-1.dlx"


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    """``python -m dlxsat ARGS`` in a process of its own (for a run with a memory limit)."""
    cmd = [sys.executable, "-m", "dlxsat", *args]
    return subprocess.run(cmd, capture_output=True, text=True, input=stdin, timeout=300)


@pytest.mark.parametrize(
    "backend,options",
    [("dlx", {}), ("cpsat", {}), ("portfolio", {})]
    + [
        ("sat", {"encoding": e} | ({"solver": "minicard"} if e == "native" else {}))
        for e in ENCODINGS
    ],
)
def test_every_backend_counts_and_checks(backend: str, options: dict) -> None:
    text = generate("langford", ["7"])  # 52 answers (twice OEIS A014552)
    r = solve("xcc", text, backend=backend, mode="all", **options)
    assert r.status == "counted" and r.count == 52 and r.stats["checked"] == 52
    puzzle = xcc.read(text)
    assert all(xcc.check(puzzle, a) == [] for a in r.solutions)
    assert len({tuple(sorted(a["options"])) for a in r.solutions}) == 52


@pytest.mark.parametrize("backend", ["dlx", "sat", "cpsat"])
def test_loop_rule_gives_knuths_dlx2_loop_counts(backend: str) -> None:
    text = MASYU.read_text()
    assert solve("xcc", text, backend=backend, mode="count").count == 25
    looped = xcc.read(text, loop=True)
    r = solve("xcc", looped, backend=backend, mode="all")
    assert r.count == 16
    assert all(xcc.check(looped, a) == [] for a in r.solutions)


def test_checker_judges_covers_and_loops() -> None:
    looped = xcc.read(MASYU.read_text(), loop=True)
    plain = xcc.read(MASYU.read_text())
    every = solve("xcc", plain, backend="dlx", mode="all").solutions
    broken = [a for a in every if xcc.check(looped, a)]
    assert len(broken) == 25 - 16
    assert xcc.check(looped, broken[0])[0].endswith("loops, not a single loop")
    wrong = {"options": every[0]["options"][1:]}
    assert xcc.check(plain, wrong) and "covered 0 times" in xcc.check(plain, wrong)[0]
    assert xcc.check(plain, {"options": ["no such"]}) == ["no option 'no such' in the data"]


def test_solve_prints_the_options_in_knuths_layout_and_json(dlxsat_cli) -> None:
    r = dlxsat_cli("solve", "xcc", str(QUEENS), "--backend", "dlx", "--all")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("counted: 4 solutions (xcc, backend dlx")
    assert "solution 1:\n r0 c1 a1 b4\n r1 c3 a4 b3\n" in r.stdout
    j = dlxsat_cli("solve", "xcc", str(QUEENS), "--backend", "sat", "--all", "--json")
    data = json.loads(j.stdout)
    assert data["family"] == "xcc" and data["count"] == 4
    assert all(len(a["options"]) == 6 for a in data["solutions"])
    # --json: each answer is its list of option texts, the lines the text output prints.
    k = dlxsat_cli("solve", "xcc", str(MASYU), "--backend", "dlx", "--loop", "--all", "--json")
    listing = dlxsat_cli("solve", "xcc", str(MASYU), "--backend", "dlx", "--loop", "--all").stdout
    blocks = [b.splitlines()[1:] for b in listing.split("solution ")[1:]]
    answers = json.loads(k.stdout)["solutions"]
    assert len(answers) == len(blocks) == 16
    for answer, block in zip(answers, blocks, strict=True):
        assert list(answer) == ["options"] and all(isinstance(t, str) for t in answer["options"])
        assert [f" {t}" for t in answer["options"]] == [line for line in block if line]


def test_loop_flag_on_the_command_line(dlxsat_cli) -> None:
    for backend in ("dlx", "sat", "cpsat"):
        r = dlxsat_cli(
            "solve", "xcc", str(MASYU), "--backend", backend, "--loop", "--count", "--json"
        )
        assert r.returncode == 0, r.stderr
        assert json.loads(r.stdout)["count"] == 16
    r = dlxsat_cli("solve", "xcc", str(MASYU), "--backend", "sat", "--loop", "eager", "--count")
    assert r.returncode == 0 and r.stdout.startswith("counted: 16 solutions")
    bad = dlxsat_cli("solve", "xcc", str(QUEENS), "--loop")
    assert bad.returncode == 2 and bad.stdout == ""
    assert len(bad.stderr.splitlines()) == 1 and "--loop: these data do not follow" in bad.stderr


@pytest.mark.parametrize(
    "data,message",
    [
        ("a b\na c\n", "line 2: unknown item name 'c'"),
        ("a | x\na:1 x\n", "line 2: primary item must be uncolored"),
        ("a | x\na x:12\n", "line 2: color must be a single character"),
        ("abcdefghi\n", "line 1: item name too long"),
        ("a b\n\n| c\na :1\n", "line 4: empty item name"),
        ("a 2:1|b\na\n", "line 1: lower bound exceeds upper bound"),
    ],
)
def test_bad_data_is_one_line_naming_the_line(
    dlxsat_cli, tmp_path: Path, data: str, message: str
) -> None:
    f = tmp_path / "bad.dlx"
    f.write_text(data)
    for command in (["solve", "xcc", str(f)], ["export", "dimacs", "xcc", str(f)]):
        r = dlxsat_cli(*command)
        assert r.returncode == 2 and r.stdout == ""
        assert r.stderr.count("\n") == 1 and message in r.stderr


@pytest.mark.parametrize("data", ["a b\na c\n", "a | x\na:1 x\n"])
def test_every_command_names_the_line_of_bad_data(cli_run, tmp_path: Path, data: str) -> None:
    f = tmp_path / "bad.dlx"
    f.write_text(data)
    store = tmp_path / "r.jsonl"
    commands = [
        ["solve", "xcc", f],
        ["solve", "xcc", f, "--loop"],
        ["encode", "xcc", f],
        ["export", "dimacs", "xcc", f],
        ["decode", "xcc", f, QUEENS],
        ["crosscheck", "xcc", QUEENS, f, "--backends", "dlx,sat"],  # (the good file first)
        ["crosscheck", "xcc", f, "--loop"],
        ["compare", "xcc", QUEENS, f, "--settings", "dlx", "-o", store],
        ["compare", "xcc", f, "--loop", "--settings", "dlx", "-o", store],
    ]
    for command in commands:
        rc, out, err = cli_run(command)
        assert_input_error(rc, out, err, "line 2: ")
        if command[0] in ("crosscheck", "compare"):  # several files: the one at fault named
            assert "bad.dlx: line 2: " in err, err
    assert not store.exists()


def test_solve_reads_large_data_within_a_small_memory_limit(tmp_path: Path) -> None:
    """Exact-cover data are not a board: reading them costs tens of bytes a character, not a
    Masyu's kilobytes a cell (961 options x 184 items were once estimated at 1.9 GB)."""
    f = tmp_path / "queens-31.dlx"
    f.write_text(generate("queens", ["31"]))
    r = run("solve", "xcc", str(f), "--backend", "dlx", "--memory", "1000")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("multiple: 2 solutions (xcc, backend dlx")


def test_a_file_with_blank_lines_is_one_problem(dlxsat_cli, tmp_path: Path) -> None:
    f = tmp_path / "gaps.dlx"
    f.write_text("a b\n\na\n\nb\n\na b\n")
    r = dlxsat_cli("solve", "xcc", str(f), "--count", "--backend", "dlx")
    assert r.returncode == 0 and r.stdout.startswith("counted: 2 solutions")


@pytest.mark.skipif(
    shutil.which("picosat") is None, reason="needs picosat (apt-get install picosat)"
)
@pytest.mark.parametrize(
    "name,loop,flags",
    [
        ("queens 6", False, []),  # XC
        ("graceful 6", False, ["--colors", "onehot"]),  # XCC: labels are colors
        ("matrices 4 2", False, ["--encoding", "totalizer"]),  # MCC: multiplicities
        ("masyu", False, []),  # Knuth's MASYU-DLX data: covers, disjoint loops allowed
        ("masyu", True, ["--loop", "eager"]),  # ... and one loop (DLX2-LOOP's rule)
    ],
)
def test_dimacs_export_solved_by_picosat_decodes_to_a_checked_answer(
    dlxsat_cli, tmp_path: Path, name: str, loop: bool, flags: list[str]
) -> None:
    if name == "masyu":
        source = MASYU
    else:
        family, *args = name.split()
        source = tmp_path / f"{family}.dlx"
        source.write_text(generate(family, args))
    cnf = tmp_path / "x.cnf"
    r = dlxsat_cli("export", "dimacs", "xcc", str(source), "-o", str(cnf), *flags)
    assert r.returncode == 0, r.stderr
    model = subprocess.run(["picosat", str(cnf)], capture_output=True, text=True).stdout
    assert model.startswith("s SATISFIABLE")
    d = dlxsat_cli(
        "decode", "xcc", str(source), "-", "--json", *(["--loop"] if loop else []), stdin=model
    )
    assert d.returncode == 0, d.stderr
    answer = json.loads(d.stdout)["solutions"][0]
    puzzle = xcc.read(source.read_text(), loop=loop)
    assert answer["options"] and xcc.check(puzzle, answer) == []


def test_crosscheck_and_compare_take_xcc(dlxsat_cli, tmp_path: Path) -> None:
    r = dlxsat_cli("crosscheck", "xcc", str(QUEENS), "--backends", "dlx,sat,cpsat")
    assert r.returncode == 0, r.stderr
    store = tmp_path / "r.jsonl"
    c = dlxsat_cli(
        "compare",
        "xcc",
        str(QUEENS),
        "--settings",
        "dlx",
        "--settings",
        "sat:encoding=seqcounter,totalizer",
        "--mode",
        "count",
        "--jobs",
        "1",
        "--quiet",
        "-o",
        str(store),
    )
    assert c.returncode == 0, c.stderr
    records = [json.loads(line) for line in store.read_text().splitlines()]
    assert len(records) == 3 and {rec["count"] for rec in records} == {4}
    rep = dlxsat_cli("report", str(store))
    assert rep.returncode == 0 and "sat:encoding=totalizer" in rep.stdout


def test_api_reads_and_solves_exact_cover_data() -> None:
    import dlxsat

    puzzle = dlxsat.read_puzzle("xcc", QUEENS.read_text())
    assert puzzle.problem.kind == "XC" and (puzzle.m, puzzle.n) == (36, 34)
    assert dlxsat.solve("xcc", puzzle, backend="cpsat", mode="count").count == 4


def test_api_takes_a_problem_built_in_python() -> None:
    import dlxsat
    from dlxsat.xcc import Item, Problem

    problem = dlxsat.parse_dlx(QUEENS.read_text())
    r = dlxsat.solve("xcc", problem, backend="sat", mode="all")
    assert r.count == 4 and all(
        xcc.check(xcc.read(QUEENS.read_text()), a) == [] for a in r.solutions
    )
    items = [Item("a"), Item("b"), Item("x", primary=False)]
    for options, message in [
        ([((0, None),), ((1, None),), ()], "line 4: an empty option (option 2)"),
        ([((0, None), (2, "1")), ((2, "1"),)], "line 3: an option naming no primary item"),
    ]:
        with pytest.raises(dlxsat.InputError, match=re.escape(message)):
            dlxsat.solve("xcc", Problem(items, options), backend="dlx")
    with pytest.raises(dlxsat.InputError, match="line 1: item name too long"):
        dlxsat.solve("xcc", Problem([Item("abcdefghi")], [((0, None),)]), backend="dlx")


def test_an_option_without_primary_items_is_dropped_with_knuths_warning(
    dlxsat_cli, tmp_path: Path
) -> None:
    f = tmp_path / "secondary.dlx"
    f.write_text("a b | x\na x:1\nx:1\nb x:1\nb\n")
    warning = "dlxsat: warning: line 3: option ignored (no primary items): x:1\n"
    for command in (["dlx", str(f)], ["solve", "xcc", str(f), "--backend", "sat", "--count"]):
        r = dlxsat_cli(*command)
        assert r.returncode == 0 and r.stderr == warning, r.stderr
        assert r.stdout.startswith(("2 solutions", "counted: 2 solutions"))  # not 3: x:1 dropped


def test_superslitherlink_data_are_read_as_dlx_reads_them() -> None:
    from dlxsat.families import superslitherlink

    assert xcc.SUPERSLITHERLINK_HEADER == superslitherlink.HEADER
    text = (DATA / "golden/superslitherlink/pi-day-2025.dlx").read_text()
    assert xcc.read(text).problem == superslitherlink.problem_from_data(text)


def test_sat_records_its_decisions_and_conflicts() -> None:
    r = solve("xcc", generate("queens", ["8"]), backend="sat", mode="count")
    assert r.count == 92 and r.stats["decisions"] > 0 and r.stats["conflicts"] > 0
