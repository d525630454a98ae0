"""``solve --certify`` and ``verify`` on every registered family: a small puzzle of each with one
answer certifies and verifies; its certificate with the proof cut short, or with a premise no
rule justifies, does not; a puzzle of each with two answers gets no certificate, and one line
saying why. The puzzles: ``tests/data/certify-families.json``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT

from dlxsat import certify
from dlxsat.families import FAMILIES
from dlxsat.pipeline import prepare
from dlxsat.xcc import rules as xrules

TABLE: dict[str, dict[str, str]] = json.loads(
    (ROOT / "tests/data/certify-families.json").read_text()
)["families"]


def test_the_table_holds_every_family():
    assert sorted(TABLE) == sorted(FAMILIES)


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> dict[str, Path]:
    """Family -> its certificate folder, written on first use (each xdist worker its own)."""
    return {"": tmp_path_factory.mktemp("families")}


def certificate(made: dict[str, Path], family: str) -> Path:
    if family not in made:
        prep = prepare(family, TABLE[family]["unique"])
        result, cert = certify.certified_search(prep, {})
        assert cert is not None and cert.meta["claim"] == "unique", (family, result.count)
        cert.write(str(made[""] / family))
        made[family] = made[""] / family
    return made[family]


def _cut_proof_short(folder: Path, problem: Any) -> str:
    """The first half of the proof's clauses (binary DRAT: each ends with a zero byte), so
    it derives no empty clause."""
    clauses = (folder / certify.PROOF).read_bytes().split(b"\0")[:-1]
    (folder / certify.PROOF).write_bytes(b"\0".join(clauses[: len(clauses) // 2]) + b"\0")
    return ""


def _unjustified_premise(folder: Path, problem: Any) -> str:
    """The first premise made too strong (the boundary of its cut emptied, its cycle or
    piece cut to one member), or, without premises, one added that no rule justifies: a
    member of a connected rule cut off from its neighbour, one member called a cycle, a
    rule the puzzle lacks."""
    meta = json.loads((folder / certify.META).read_text())
    premises = meta["premises"]
    if premises:
        cut = premises[0]["cut"]
        if cut["type"] in ("loop", "Separation"):
            cut["boundary"] = []
        elif cut["type"] == "Cycle":
            cut["members"] = cut["members"][:1]
        else:
            cut["held"], cut["grown"] = cut["held"][:1], []
    else:
        rule = problem.rules[0] if problem.rules else None
        if isinstance(rule, xrules.Connected) and rule.roots is None:
            a, b = rule.links[0]
            cut = {"type": "Separation", "a": a, "b": b, "boundary": []}
        elif isinstance(rule, xrules.Connected):
            roots = set(rule.roots or ())
            a = next(x for link in rule.links for x in link if x not in roots)
            cut = {"type": "Separation", "a": a, "b": None, "boundary": []}
        elif isinstance(rule, xrules.Acyclic):
            cut = {"type": "Cycle", "members": [0]}
        else:
            cut = {"type": "Cycle", "members": [0]}
        premises.append({"rule": 0 if rule is not None else len(problem.rules), "cut": cut})
        # (formula.cnf must hold the added premise's clause too -- but verify judges the
        # premise from the graph before it compares formulas: that check must fail it.)
    (folder / certify.META).write_text(json.dumps(meta))
    return "premise 1 is not justified" if len(premises) == 1 else "is not justified"


@pytest.mark.parametrize("family", list(FAMILIES))
def test_a_unique_puzzles_certificate_verifies(made, family):
    folder = certificate(made, family)
    verdict = certify.verify(prepare(family, TABLE[family]["unique"]), str(folder), "dratify")
    assert verdict.verified, (family, verdict.reason)
    assert verdict.claim == "unique" and verdict.checker.startswith("dratify")


@pytest.mark.parametrize("tamper", [_cut_proof_short, _unjustified_premise])
@pytest.mark.parametrize("family", list(FAMILIES))
def test_a_tampered_certificate_fails(made, tmp_path, family, tamper):
    prep = prepare(family, TABLE[family]["unique"])
    folder = tmp_path / "copy"
    shutil.copytree(certificate(made, family), folder)
    fragment = tamper(folder, prep.problem)
    verdict = certify.verify(prep, str(folder), "dratify")
    assert not verdict.verified, family
    assert fragment in verdict.reason, (family, verdict.reason)


@pytest.mark.parametrize("family", list(FAMILIES))
def test_a_puzzle_with_two_answers_gets_no_certificate(dlxsat_cli, tmp_path, family):
    puzzle = tmp_path / "two.txt"
    puzzle.write_text(TABLE[family]["multiple"])
    got = dlxsat_cli("solve", family, puzzle, "--certify", tmp_path / "c", "--quiet")
    assert got.returncode == 1, (family, got.stderr)
    assert got.stderr.splitlines() == [
        "dlxsat: error: --certify: no certificate written: the puzzle is multiple"
        " (a certificate proves one answer, or none)"
    ], family
    assert sorted(p.name for p in tmp_path.iterdir()) == ["two.txt"]
