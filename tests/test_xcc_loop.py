"""The single-loop rule on exact-cover data (``xcc --loop``) in ``crosscheck``, ``compare`` and
``report``: DLX2-LOOP's counts from every backend, Knuth's golden counts the reference."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from conftest import GOLDEN, golden_cases
from stores import record, write_store

from dlxsat.backends.cnf import ENCODINGS, LOOP_MODES
from dlxsat.compare import plan
from dlxsat.compare.agreement import disagreements
from dlxsat.compare.store import job_id
from dlxsat.families import xcc
from dlxsat.pipeline import solve
from dlxsat.report import disagreeing_jobs, read_store, summarize

#: Golden Masyu and Slitherlink data (Knuth's MASYU-DLX and SLITHERLINK-DLX output): small
#: ones whose DLX2 and DLX2-LOOP counts differ, and one whose two covers are both loops.
CASES = ("masyu/random-few-4x4-1", "masyu/random-few-5x5-2", "slitherlink/tatham-5x5-1")
EMPTY_2X2 = "masyu/empty-2x2"
QUEENS = Path(__file__).parent / "data" / "queens-6.dlx"  # no loop convention


def counts(name: str) -> tuple[int, int]:
    """Knuth's counts of a golden case: DLX2's covers and DLX2-LOOP's single loops."""
    family, case = name.split("/")
    (c,) = [c for c in golden_cases(family, ok_only=True) if c["name"] == case]
    return c["dlx2_disjoint_loops"]["count"], c["dlx2_loop_single_loop"]["count"]


def path(name: str) -> str:
    return str(GOLDEN / f"{name}.dlx")


def one_error_line(r: subprocess.CompletedProcess, *fragments: str) -> None:
    assert r.returncode == 2, r.stderr
    assert r.stdout == "" and "Traceback" not in r.stderr
    assert len(r.stderr.splitlines()) == 1 and r.stderr.startswith("dlxsat: error: ")
    for f in fragments:
        assert f in r.stderr, r.stderr


def test_crosscheck_loop_gives_knuths_dlx2_loop_counts_from_every_backend(dlxsat_cli) -> None:
    names = [*CASES, EMPTY_2X2]
    looped = dlxsat_cli("crosscheck", "xcc", *map(path, names), "--loop", "--json")
    plain = dlxsat_cli("crosscheck", "xcc", *map(path, names), "--json")
    for r in (looped, plain):
        assert r.returncode == 0, r.stderr
    for name, with_rule, without in zip(
        names, json.loads(looped.stdout), json.loads(plain.stdout), strict=True
    ):
        covers, loops = counts(name)
        assert with_rule["counts"] == {"dlx": loops, "sat": loops, "cpsat": loops}
        assert without["counts"] == {"dlx": covers, "sat": covers, "cpsat": covers}
        assert with_rule["agree"] and without["agree"]
    assert counts(CASES[0]) == (25, 16)  # the rule is what makes the difference


def test_crosscheck_loop_takes_the_portfolio_and_auto(dlxsat_cli) -> None:
    r = dlxsat_cli(
        "crosscheck", "xcc", path(CASES[1]), "--loop", "--backends", "dlx,portfolio,auto"
    )
    assert r.returncode == 0, r.stderr
    loops = counts(CASES[1])[1]
    row = r.stdout.splitlines()[-1]
    assert row.count(f" {loops} ") == 3 and row.endswith("agree"), r.stdout


def test_loop_on_data_without_the_convention_is_one_line_naming_the_file(
    dlxsat_cli, tmp_path: Path
) -> None:
    good, bad = path(CASES[0]), str(QUEENS)
    r = dlxsat_cli("crosscheck", "xcc", good, bad, "--loop")
    one_error_line(r, bad, "--loop: these data do not follow the loop convention")
    store = tmp_path / "r.jsonl"
    c = dlxsat_cli("compare", "xcc", good, bad, "--loop", "--settings", "dlx", "-o", str(store))
    one_error_line(c, QUEENS.name, "loop convention")  # (compare names it as it shows it)
    assert not store.exists()  # refused before any job ran: not even an empty store
    write_store(store, [record("p", "dlx", "unique", 1.0)])
    before = store.read_bytes()
    c = dlxsat_cli("compare", "xcc", bad, "--loop", "--settings", "dlx", "-o", str(store))
    one_error_line(c, QUEENS.name)
    assert store.read_bytes() == before
    for command in (["crosscheck", "masyu"], ["compare", "masyu", "--settings", "dlx"]):
        one_error_line(
            dlxsat_cli(*command, str(GOLDEN / "masyu/empty-2x2.txt"), "--loop"), "xcc data"
        )


def test_compare_loop_counts_every_setting_and_report_keeps_the_questions_apart(
    dlxsat_cli,
    tmp_path: Path,
) -> None:
    files = [path(n) for n in CASES[:2]]
    store = tmp_path / "r.jsonl"
    grid = ["--settings", "dlx", "--settings", "sat:loop=lazy,eager"]
    grid += ["--settings", "cpsat:loop=circuit,lazy", "--settings", "portfolio"]
    common = ["--mode", "count", "--jobs", "1", "--quiet", "-o", str(store)]
    c = dlxsat_cli("compare", "xcc", *files, "--loop", *grid, *common)
    assert c.returncode == 0, c.stderr
    assert "skipping" not in c.stderr  # every loop mode applies under --loop
    records = [json.loads(line) for line in store.read_text().splitlines()]
    assert len(records) == 2 * 6
    expected = {Path(f).name: counts(n)[1] for f, n in zip(files, CASES, strict=False)}
    settings = {"dlx", "sat", "sat:loop=eager", "cpsat", "cpsat:loop=lazy", "portfolio"}
    assert {r["setting"] for r in records} == settings
    for r in records:
        assert r["loop_rule"] is True and r["status"] == "counted"
        assert r["count"] == expected[Path(r["puzzle"]).name], r
    for name in expected:  # the same answers, not only as many
        assert len({r["answer_sha256"] for r in records if r["puzzle"].endswith(name)}) == 1
    # The same files without the rule: other counts, other jobs, and no disagreement.
    p = dlxsat_cli("compare", "xcc", *files, "--settings", "dlx", "--settings", "sat", *common)
    assert p.returncode == 0, p.stderr
    plain = [json.loads(line) for line in store.read_text().splitlines()][12:]
    assert len(plain) == 4 and all("loop_rule" not in r for r in plain)
    covers = {Path(f).name: counts(n)[0] for f, n in zip(files, CASES, strict=False)}
    assert all(r["count"] == covers[Path(r["puzzle"]).name] for r in plain)
    assert len({r["job"] for r in records + plain}) == 16
    # A second run with --loop finds every job stored.
    again = dlxsat_cli("compare", "xcc", *files, "--loop", *grid, *common)
    assert again.returncode == 0 and "12 jobs: 0 run, 12 already in" in again.stdout
    rep = dlxsat_cli("report", str(store), "--format", "json")
    assert rep.returncode == 0, rep.stderr
    rows = {row["setting"]: row for row in json.loads(rep.stdout)["settings"]}
    assert set(rows) == {f"{s} (loop rule)" for s in settings} | {"dlx", "sat"}
    assert all(
        row["solved"] == row["jobs"] == 2 and row["disagreements"] == 0 for row in rows.values()
    )


def test_loop_jobs_are_judged_only_against_loop_jobs(tmp_path: Path) -> None:
    def job(setting: str, count: int, loop: bool) -> dict:
        r = record("m.dlx", setting, "counted", 0.1, mode="count", count=count, family="xcc")
        r["answer_sha256"] = str(count)  # (stands for the hash of as many answers)
        if loop:
            r["loop_rule"] = True
            r["job"] = job_id("xcc", r["puzzle_sha256"], setting, "count", loop_rule=True)
        return r

    rule, plain, other = job("dlx", 16, True), job("dlx", 25, False), job("sat", 17, True)
    assert rule["job"] != plain["job"]
    assert disagreements([rule, plain]) == []
    wrong = disagreements([rule, plain, other])
    assert len(wrong) == 1 and "dlx and sat disagree" in wrong[0]
    store = write_store(tmp_path / "s.jsonl", [rule, plain, other])
    assert disagreeing_jobs(read_store([store]).records) == {rule["job"], other["job"]}
    rows = {row.setting: row.disagreements for row in summarize(read_store([store]))}
    assert rows == {"dlx (loop rule)": 1, "dlx": 0, "sat (loop rule)": 1}


def test_plan_gives_loop_jobs_their_own_ids() -> None:
    with_rule, _ = plan("xcc", [path(CASES[0])], ["dlx", "sat:loop=eager"], loop=True)
    without, notes = plan("xcc", [path(CASES[0])], ["dlx", "sat:loop=eager"])
    assert [j.setting for j in with_rule] == ["dlx", "sat:loop=eager"]
    assert all(j.loop for j in with_rule) and [j.setting for j in without] == ["dlx"]
    assert notes == ["skipping sat:loop=eager: xcc has no loop, so loop=eager means nothing"]
    assert with_rule[0].id != without[0].id
    with pytest.raises(Exception, match="xcc data"):
        plan("masyu", [str(GOLDEN / "masyu/empty-2x2.txt")], ["dlx"], loop=True)


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_sat_with_every_encoding_and_loop_mode_counts_dlx2_loops(encoding: str) -> None:
    puzzle = xcc.read(Path(path(CASES[1])).read_text(), loop=True)
    covers, loops = counts(CASES[1])
    options = {"encoding": encoding} | ({"solver": "minicard"} if encoding == "native" else {})
    for mode in LOOP_MODES:
        r = solve("xcc", puzzle, backend="sat", mode="all", loop_mode=mode, **options)
        assert (r.status, r.count, r.stats["checked"]) == ("counted", loops, loops), mode
        assert all(xcc.check(puzzle, a) == [] for a in r.solutions)
    plain = solve("xcc", xcc.read(puzzle.text), backend="sat", mode="count", **options)
    assert plain.count == covers
