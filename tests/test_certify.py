"""``solve --certify`` and ``verify``: certificates of unique answers that an independent
checker verifies, and that fail once tampered with or checked against another puzzle."""

from __future__ import annotations

import json
import os
import shutil
import stat
import tempfile
from pathlib import Path

import pytest
from conftest import ROOT

from dlxsat import certify
from dlxsat.errors import InputError
from dlxsat.families.spec import Policy
from dlxsat.pipeline import prepare

MASYU = ROOT / "puzzles/masyu/tatham-10x10.txt"
OTHER_MASYU = ROOT / "puzzles/masyu/tatham-10x10-b.txt"
SUDOKU = ROOT / "puzzles/sudoku/puzzlium-A.txt"
#: Three cells in a row, the outer two shaded, the shaded cells connected: the middle one is
#: shaded -- but the lazy search first meets (or, the answer blocked, is left with) a model
#: with it white, so a cut of the connected rule is a premise.
CONNECTED = """|@connected sea
|@members x:1 y:1 z:1
|@links x y y z
A B C | x y z
A x:1
B y:1
B y:0
C z:1
"""
#: Three edges of a triangle, two of them on, no cycle: the third is off -- the acyclic rule's
#: cut of the whole triangle is a premise.
ACYCLIC = """|@acyclic
|@members x:1 y:1 z:1
|@ends 1 2 2 3 3 1
A B C | x y z
A x:1
B y:1
C z:1
C z:0
"""
#: Four cells in a row, the first two shaded, pieces of two: the other two are
#: white -- the sized rule's cut "these three are no piece" is a premise (the lazy mode
#: states "the fourth not alone" in the formula; with three cells, "at most two present").
SIZED = """|@sized
|@members x:1 y:1 z:1 w:1
|@links x y y z z w
|@size 2
A B C D | x y z w
A x:1
B y:1
C z:1
C z:0
D w:1
D w:0
"""
#: Two answers ({a}, {b} and {a b} as one option: three, in fact).
SEVERAL = "a b\na\nb\na b\n"
#: No answer (b cannot be covered).
NONE = "a b\na\n"


@pytest.fixture(scope="module")
def certificates(tmp_path_factory) -> dict[str, tuple[str, Path, Path]]:
    """name -> (family, puzzle file, certificate folder), each written by ``solve --certify``."""
    folder = tmp_path_factory.mktemp("certificates")
    (folder / "connected.dlx").write_text(CONNECTED)
    (folder / "none.dlx").write_text(NONE)
    (folder / "acyclic.dlx").write_text(ACYCLIC)
    (folder / "sized.dlx").write_text(SIZED)
    made = {}
    for name, family, puzzle in (
        ("sudoku", "sudoku", SUDOKU),
        ("masyu", "masyu", MASYU),
        ("connected", "xcc", folder / "connected.dlx"),
        ("acyclic", "xcc", folder / "acyclic.dlx"),
        ("sized", "xcc", folder / "sized.dlx"),
        ("none", "xcc", folder / "none.dlx"),
    ):
        prep = prepare(family, puzzle.read_text())
        result, cert = certify.certified_search(prep, {})
        assert cert is not None, name
        cert.write(str(folder / name))
        made[name] = (family, puzzle, folder / name)
    return made


def copy_of(cert: Path, tmp_path: Path) -> Path:
    target = tmp_path / "copy"
    shutil.copytree(cert, target)
    return target


@pytest.mark.parametrize("name", ["sudoku", "masyu", "connected", "acyclic", "sized", "none"])
def test_a_certificate_verifies_with_dratify(dlxsat_cli, certificates, name):
    family, puzzle, cert = certificates[name]
    got = dlxsat_cli("verify", family, puzzle, cert, "--checker", "dratify", "--json")
    verdict = json.loads(got.stdout)
    assert got.returncode == 0, got.stdout + got.stderr
    assert verdict["verified"] and verdict["checker"].startswith("dratify")
    assert verdict["claim"] == ("none" if name == "none" else "unique")


def test_the_loop_and_connected_certificates_have_premises(certificates):
    for name, kind in (("masyu", "loop"), ("connected", "Separation"), ("acyclic", "Cycle")):
        meta = json.loads((certificates[name][2] / certify.META).read_text())
        assert list(meta["formula"]["modes"].values()) == ["lazy"]
        assert meta["premises"], name
        assert {p["cut"]["type"] for p in meta["premises"]} == {kind if kind != "loop" else "loop"}
        cnf = (certificates[name][2] / certify.FORMULA).read_text()
        rule = {"masyu": "loop", "connected": "connected sea", "acyclic": "acyclic"}[name]
        assert f"c rule {rule}: lazy" in cnf


def test_solve_certify_writes_the_folder_and_says_so(dlxsat_cli, tmp_path):
    got = dlxsat_cli("solve", "masyu", MASYU, "--certify", tmp_path / "c", "--quiet")
    assert got.returncode == 0, got.stderr
    assert got.stdout.startswith("unique: 1 solution")
    assert "certificate written to" in got.stderr
    assert sorted(os.listdir(tmp_path / "c")) == sorted(
        [certify.META, certify.FORMULA, certify.PROOF]
    )
    assert sorted(os.listdir(tmp_path)) == ["c"]  # no temporary folder left
    again = dlxsat_cli("solve", "masyu", MASYU, "--certify", tmp_path / "c", "--quiet")
    assert again.returncode == 0  # an old certificate is replaced
    assert sorted(os.listdir(tmp_path)) == ["c"]


def test_a_puzzle_with_two_answers_gets_no_certificate(dlxsat_cli, tmp_path):
    (tmp_path / "two.dlx").write_text(SEVERAL)
    for family, puzzle in (("sudoku", "................"), ("xcc", tmp_path / "two.dlx")):
        args = ("solve", family) + ((puzzle,) if family == "xcc" else ())
        got = dlxsat_cli(*args, "--certify", tmp_path / "c", stdin=str(puzzle))
        assert got.returncode == 1
        assert "no certificate written: the puzzle is multiple" in got.stderr
        assert not (tmp_path / "c").exists()


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["--count"], "not with --count"),
        (["--backend", "dlx"], "not dlx"),
        (["--backend", "sat", "--solver", "glucose4"], "not glucose4"),
        (["--backend", "sat", "--encoding", "native", "--solver", "minicard"], "not minicard"),
    ],
)
def test_certify_refuses_what_it_cannot_certify(dlxsat_cli, tmp_path, args, fragment):
    got = dlxsat_cli("solve", "sudoku", SUDOKU, "--certify", tmp_path / "c", *args)
    assert got.returncode == 2 and fragment in got.stderr, got.stderr
    assert not (tmp_path / "c").exists()


def test_certify_does_not_replace_a_file_that_is_no_certificate(dlxsat_cli, tmp_path):
    (tmp_path / "c").write_text("keep me")
    got = dlxsat_cli("solve", "sudoku", SUDOKU, "--certify", tmp_path / "c")
    assert got.returncode == 2 and "not a certificate folder" in got.stderr
    assert (tmp_path / "c").read_text() == "keep me"
    assert sorted(os.listdir(tmp_path)) == ["c"]


def _truncate_proof(cert: Path) -> None:
    """The first half of the proof's clauses (binary DRAT: each ends with a zero byte)."""
    clauses = (cert / certify.PROOF).read_bytes().split(b"\0")[:-1]
    (cert / certify.PROOF).write_bytes(b"\0".join(clauses[: len(clauses) // 2]) + b"\0")


def _drop_blocking(cert: Path) -> None:
    lines = (cert / certify.FORMULA).read_text().splitlines()
    head = next(k for k, line in enumerate(lines) if line.startswith("p cnf"))
    nv, m = lines[head].split()[2:]
    lines[head] = f"p cnf {nv} {int(m) - 1}"
    (cert / certify.FORMULA).write_text("\n".join(lines[:-1]) + "\n")


def _weaken_premise(cert: Path) -> None:
    meta = json.loads((cert / certify.META).read_text())
    meta["premises"][0]["cut"]["boundary"] = meta["premises"][0]["cut"]["boundary"][1:]
    (cert / certify.META).write_text(json.dumps(meta))


def _shorten_cycle(cert: Path) -> None:
    meta = json.loads((cert / certify.META).read_text())
    meta["premises"][0]["cut"]["members"] = meta["premises"][0]["cut"]["members"][1:]
    (cert / certify.META).write_text(json.dumps(meta))


def _shorten_held(cert: Path) -> None:
    meta = json.loads((cert / certify.META).read_text())
    meta["premises"][0]["cut"]["held"] = meta["premises"][0]["cut"]["held"][:-1]
    (cert / certify.META).write_text(json.dumps(meta))


def _other_answer(cert: Path) -> None:
    meta = json.loads((cert / certify.META).read_text())
    meta["answer"]["options"] = meta["answer"]["options"][1:]
    (cert / certify.META).write_text(json.dumps(meta))


@pytest.mark.parametrize(
    "name, tamper, fragment",
    [
        ("masyu", _truncate_proof, ""),
        ("masyu", _drop_blocking, "formula.cnf is not this puzzle's CNF"),
        ("masyu", _weaken_premise, "premise 1 is not justified: edge"),
        ("connected", _weaken_premise, "premise 1 is not justified: rule connected: member"),
        ("acyclic", _shorten_cycle, "premise 1 is not justified: rule acyclic: the members"),
        ("sized", _shorten_held, "premise 1 is not justified: rule sized: the held members"),
        ("sudoku", _other_answer, "not an answer to this puzzle"),
    ],
)
def test_a_tampered_certificate_does_not_verify(
    dlxsat_cli, certificates, tmp_path, name, tamper, fragment
):
    family, puzzle, cert = certificates[name]
    cert = copy_of(cert, tmp_path)
    tamper(cert)
    got = dlxsat_cli("verify", family, puzzle, cert, "--checker", "dratify")
    assert got.returncode == 1, got.stdout + got.stderr
    assert got.stdout.startswith("not verified") and fragment in got.stdout, got.stdout


def test_the_proof_checker_itself_rejects_the_formula_without_its_blocking_clause(
    certificates, tmp_path
):
    cert = copy_of(certificates["masyu"][2], tmp_path)
    _drop_blocking(cert)
    ok, name, _ = certify.check_proof(
        str(cert / certify.FORMULA), str(cert / certify.PROOF), "dratify"
    )
    assert name.startswith("dratify") and not ok


@pytest.mark.parametrize(
    "family, puzzle, cert, fragment",
    [
        ("masyu", OTHER_MASYU, "masyu", ""),
        ("sudoku", SUDOKU, "masyu", "not of a sudoku one"),
        ("sudoku", "4..3.3....1.1..2", "sudoku", ""),
    ],
)
def test_a_certificate_verifies_no_other_puzzle(
    dlxsat_cli, certificates, family, puzzle, cert, fragment
):
    args = ("verify", family) + ((puzzle,) if isinstance(puzzle, Path) else ("-",))
    got = dlxsat_cli(*args, certificates[cert][2], stdin=str(puzzle))
    assert got.returncode == 1, got.stdout + got.stderr
    assert got.stdout.startswith("not verified") and fragment in got.stdout


def test_verify_of_what_is_no_certificate_is_bad_input(dlxsat_cli, tmp_path):
    got = dlxsat_cli("verify", "sudoku", SUDOKU, tmp_path)
    assert got.returncode == 2 and "not a certificate folder" in got.stderr
    (tmp_path / certify.META).write_text("{}")
    got = dlxsat_cli("verify", "sudoku", SUDOKU, tmp_path)
    assert got.returncode == 2 and "not a certificate of this format" in got.stderr


def _fake_drat_trim(folder: Path, output: str, status: int, name: str = "drat-trim") -> None:
    exe = folder / name
    exe.write_text(f"#!/bin/sh\nprintf '{output}'\nexit {status}\n")
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR)


def _fake_lrat_writer(folder: Path) -> None:
    """A drat-trim that verifies and writes (an empty) LRAT file after its ``-L``."""
    exe = folder / "drat-trim"
    script = 'while [ "$1" ]; do [ "$1" = -L ] && : > "$2"; shift; done\nprintf "s VERIFIED\\n"\n'
    exe.write_text("#!/bin/sh\n" + script)
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR)


def test_the_command_line_offers_every_checker():
    from dlxsat import cli_arguments

    assert cli_arguments.CHECKERS == certify.CHECKERS


@pytest.mark.parametrize(
    "output, status, verified",
    [
        (r"c parsing\n\rs VERIFIED\n", 0, True),  # its lines begin with a carriage return
        (r"\rs NOT VERIFIED\n", 1, False),
        (r"\rs TIMEOUT\n", 0, False),  # exit status 0, but no verdict
        (r"c ERROR: did not find p cnf line\n", 0, False),
    ],
)
def test_drat_trim_verifies_only_with_its_verdict_and_status(
    certificates, tmp_path, monkeypatch, output, status, verified
):
    _fake_drat_trim(tmp_path, output, status)
    monkeypatch.setenv("PATH", str(tmp_path))  # (auto: drat-trim, without cake_lpr)
    cert = certificates["sudoku"][2]
    ok, name, _ = certify.check_proof(str(cert / certify.FORMULA), str(cert / certify.PROOF))
    assert (ok, name) == (verified, "drat-trim")


@pytest.mark.parametrize(
    "output, verified",
    [
        (r"s VERIFIED UNSAT\n", True),
        (r"c empty clause not derived at end of proof\n", False),  # (its exit status is 0)
        (r"c Input file: x\nc Parsing error\n", False),
    ],
)
def test_cake_lpr_checks_drat_trims_lrat_and_only_its_verdict_counts(
    certificates, tmp_path, monkeypatch, output, verified
):
    _fake_lrat_writer(tmp_path)
    _fake_drat_trim(tmp_path, output, 0, name="cake_lpr")
    monkeypatch.setenv("PATH", str(tmp_path))
    cert = certificates["sudoku"][2]
    ok, name, word = certify.check_proof(str(cert / certify.FORMULA), str(cert / certify.PROOF))
    assert (ok, name) == (verified, certify.CAKE_LPR)  # (auto chose it)
    assert word == output.replace(r"\n", "\n").splitlines()[-1]


def test_cake_lpr_says_no_when_drat_trim_writes_no_lrat(certificates, tmp_path, monkeypatch):
    _fake_drat_trim(tmp_path, r"s NOT VERIFIED\n", 1)
    _fake_drat_trim(tmp_path, r"s VERIFIED UNSAT\n", 0, name="cake_lpr")
    monkeypatch.setenv("PATH", str(tmp_path))
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    cert = certificates["sudoku"][2]
    ok, name, word = certify.check_proof(
        str(cert / certify.FORMULA), str(cert / certify.PROOF), "cake_lpr"
    )
    assert (ok, name) == (False, certify.CAKE_LPR)
    assert word == "drat-trim wrote no LRAT proof: s NOT VERIFIED"
    assert os.listdir(tmp_path / "tmp") == []  # (its folder for the LRAT proof removed)


@pytest.mark.parametrize(
    "checker, fragment", [("drat-trim", "not on the PATH"), ("cake_lpr", "must be on the PATH")]
)
def test_a_checker_asked_for_but_missing(certificates, monkeypatch, checker, fragment):
    monkeypatch.setenv("PATH", "/nonexistent")
    cert = certificates["sudoku"][2]
    with pytest.raises(InputError, match=fragment):
        certify.check_proof(str(cert / certify.FORMULA), str(cert / certify.PROOF), checker)


def test_a_certificate_of_the_loop_rule_verifies_only_with_it(dlxsat_cli, tmp_path):
    """xcc data with ``--loop``: the certificate states the rule, and verify must be told."""
    data = tmp_path / "m.dlx"
    data.write_text(prepare("masyu", MASYU.read_text()).dlx_text)
    got = dlxsat_cli("solve", "xcc", data, "--loop", "--certify", tmp_path / "c", "--quiet")
    assert got.returncode == 0, got.stderr
    with_rule = dlxsat_cli("verify", "xcc", data, tmp_path / "c", "--loop", "--checker", "dratify")
    assert with_rule.returncode == 0, with_rule.stdout
    without = dlxsat_cli("verify", "xcc", data, tmp_path / "c", "--checker", "dratify")
    assert without.returncode == 1 and "global rules are not this puzzle's" in without.stdout


def test_premise_fault_checks_the_cut_from_the_graph_alone():
    prep = prepare("xcc", CONNECTED)
    cnf = certify.build_formula(prep.problem, certify.formula_settings(prep.problem, {}))
    good = certify.Premise(0, {"type": "Separation", "a": 0, "b": 2, "boundary": [1]})
    assert certify.premise_fault(prep.problem, cnf, good) is None
    assert certify.premise_clause(prep.problem, cnf, good)[:2] == [
        -cnf.lazy[0].lits[0],
        -cnf.lazy[0].lits[2],
    ]
    for cut, fragment in (
        ({"type": "Separation", "a": 0, "b": 2, "boundary": []}, "avoiding the boundary"),
        ({"type": "Cycle", "members": [0, 1]}, "no cut of a connected rule"),
        ({"type": "loop", "inside": 0, "outside": 1, "boundary": []}, "unknown cut type"),
        ({"type": "Separation", "a": 0, "b": "x", "boundary": []}, "not a member position"),
    ):
        why = certify.premise_fault(prep.problem, cnf, certify.Premise(0, cut))
        assert why is not None and fragment in why, (cut, why)
    assert "rules" in (certify.premise_fault(prep.problem, cnf, certify.Premise(3, {})) or "")


def test_the_policy_must_match(certificates):
    prep = prepare("xcc", CONNECTED, policy=Policy())
    verdict = certify.verify(prep, str(certificates["connected"][2]), "dratify")
    assert verdict.verified and verdict.seconds["proof"] >= 0


@pytest.mark.parametrize(
    "text, proved",
    [(CONNECTED, True), (NONE, True), (SEVERAL, False)],
)
def test_the_sat_backends_proof_option_records_the_cost(text, proved):
    """``sat:proof=true`` (compare --settings): the proof's figures, for one answer or none."""
    from dlxsat.solvers import solve_problem
    from dlxsat.xcc import parse

    result = solve_problem(parse(text), "sat", limit=2, proof=True)
    assert ("proof_bytes" in result.stats) is proved
    if proved:
        assert result.stats["proof_seconds"] >= 0 and result.stats["premises"] >= 0
    with pytest.raises(InputError, match="proof needs the solver cadical195"):
        solve_problem(parse(text), "sat", proof=True, solver="glucose4")
