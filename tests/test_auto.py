"""The ``auto`` backend's choices (``dlxsat.backends.auto``). Its answers are held to every
search solver's contract in test_search_contract.py (it is in the registry); here: which
engine it picks and why, the switch from DLX to SAT past a budget, and ``stats["auto"]``
through the pipeline, the CLI's ``--json`` and the batch path."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from conftest import golden_problem, run

import dlxsat
from dlxsat import pipeline
from dlxsat.backends import auto
from dlxsat.families import sudoku
from dlxsat.solvers import search_solvers, solve_problem


def dlx_solve(problem, **kw):
    kw.setdefault("keep", None)  # (the tests read the answers: every one found is kept)
    return solve_problem(problem, "dlx", **kw)


def auto_solve(problem, **kw):
    kw.setdefault("keep", None)  # (the tests read the answers: every one found is kept)
    return solve_problem(problem, "auto", **kw)


ROOT = Path(__file__).resolve().parent.parent
HARD_SUDOKU = ROOT / "puzzles/sudoku-hard/tatham-9x9-unreasonable-01.txt"
SUDOKU_16 = pipeline.prepare(
    "sudoku", (ROOT / "puzzles/sudoku/tatham-16x16-1.txt").read_text()
).problem
SUDOKU_16_ENTRIES = sum(len(o) for o in SUDOKU_16.options)


def test_auto_is_a_search_solver_and_the_default():
    assert "auto" in search_solvers()  # so the contract suite runs it
    for family in ("masyu", "slitherlink", "superslitherlink", "sudoku"):
        assert pipeline.default_backend(family) == "auto"
        assert pipeline.default_backend(family, many=True) == "auto"


def test_the_families_whose_default_is_not_auto_are_those_docs_auto_names():
    """docs/auto.md's table of the families whose measurements named another default engine
    is the specs' list, engine for engine (a spec changed without its figures fails here)."""
    import re

    from dlxsat.families import names

    text = (ROOT / "docs" / "auto.md").read_text()
    section = text.split("## Families whose default is not `auto`", 1)[1].split("\n## ", 1)[0]
    documented = dict(re.findall(r"^\| ([\w-]+) \| `(\w+)` \|", section, re.MULTILINE))
    specs = {f: pipeline.default_backend(f) for f in names()}
    assert documented == {f: b for f, b in specs.items() if b != "auto"}
    assert documented  # (the table was found)


def test_easy_problem_ends_in_the_trial(monkeypatch):
    monkeypatch.setattr(auto, "TRIAL_MIN_SECONDS", 60.0)  # a loaded machine's pace is no matter
    r = auto_solve(golden_problem("sudoku/tatham-9x9-1.dlx"), limit=2)
    info = r.stats["auto"]
    assert (r.count, r.exhausted) == (1, True)
    assert info["engine"] == "dlx" and "trial" in info["reason"]
    assert "estimate" not in info and r.stats["nodes"] == 65  # DLX's own figures


def test_loop_problem_past_the_trial_goes_to_sat(monkeypatch):
    monkeypatch.setattr(auto, "TRIAL_SECONDS", 1e-6)
    monkeypatch.setattr(auto, "LOOP_ESTIMATE_PROBES", 0)  # (the trial's way to SAT, alone)
    p = golden_problem("slitherlink/tatham-10x10-1.dlx")
    r = auto_solve(p, loop=True, allow_empty_loop=False, limit=2)
    info = r.stats["auto"]
    assert info["engine"] == "sat" and "loop" in info["reason"]
    assert "estimate" not in info  # not needed for this choice
    assert r.count == 1 and r.exhausted and "clauses" in r.stats  # SAT's own figures


@pytest.mark.parametrize(
    "board, budget, small_budget",
    [
        ("tatham-5x5-1", "TRIAL_SECONDS_SMALL_LOOP", True),
        ("tatham-5x5-1", "TRIAL_SECONDS_SMALL_LOOP", False),
        ("tatham-10x10-1", "TRIAL_SECONDS", True),
        ("tatham-10x10-1", "TRIAL_SECONDS", False),
    ],
)
def test_a_small_loop_problem_has_its_own_trial_time(monkeypatch, board, budget, small_budget):
    # A loop problem of at most NODE_BUDGET_MIN_ITEMS primary items (a 5 x 5 Slitherlink: 36
    # grid points and its clues) has its own time bound, and the loop problems' node budget
    # when NODE_BUDGET_SMALL_LOOP (none before); a larger one (a 10 x 10: 121 grid points and
    # its clues) the loop problems' bound and their node budget either way.
    auto.load()
    monkeypatch.setattr(auto, "TRIAL_SECONDS", 400.0)
    monkeypatch.setattr(auto, "TRIAL_SECONDS_SMALL_LOOP", 300.0)
    monkeypatch.setattr(auto, "NODE_BUDGET_SMALL_LOOP", small_budget)
    p = golden_problem(f"slitherlink/{board}.dlx")
    r = auto_solve(p, loop=True, allow_empty_loop=False, limit=2)
    info = r.stats["auto"]
    assert info["trial_budget"] == getattr(auto, budget)
    large = p.n_primary > auto.NODE_BUDGET_MIN_ITEMS
    assert ("trial_nodes" in info) == (large or small_budget)
    if "trial_nodes" in info:
        assert info["trial_nodes"] == auto.TRIAL_NODES_PER_ITEM_LOOP * p.n_primary
    assert r.count == 1 and r.exhausted


@pytest.mark.parametrize("small_budget", [True, False])
def test_a_small_loop_trial_stops_at_its_node_budget(monkeypatch, small_budget):
    # A published Regional Yajilin of 118 primary items whose DLX tree has over two million
    # nodes in Knuth's order and in the mirrored one, where SAT answers in some 20 ms: given
    # 300 s, the trial stops at the node budget (Knuth's share of it, then the mirrored tree)
    # and SAT answers; without the budget it searches until its time (here 0.2 s) is out.
    auto.load()
    monkeypatch.setattr(auto, "TRIAL_SECONDS_SMALL_LOOP", 300.0 if small_budget else 0.2)
    monkeypatch.setattr(auto, "NODE_BUDGET_SMALL_LOOP", small_budget)
    text = (ROOT / "tests/data/auto/regional-yajilin-17_10x11.txt").read_text()
    p = pipeline.prepare("regional-yajilin", text).problem
    assert p.kind == "MCC" and p.n_primary == 118 <= auto.NODE_BUDGET_MIN_ITEMS
    r = auto_solve(p, limit=2)
    info = r.stats["auto"]
    assert info["engine"] == "sat" and r.count == 1 and r.exhausted, info
    budget = auto.TRIAL_NODES_PER_ITEM_LOOP * p.n_primary
    if small_budget:
        assert info["trial_searched"] == info["trial_nodes"] == budget, info
        assert info["trial_knuth_searched"] == round(auto.LOOP_TRIAL_KNUTH_SHARE_M * budget)
        assert info["trial_mirrored"]
    else:
        assert "trial_nodes" not in info and "trial_mirrored" not in info
        assert info["trial_searched"] > budget


def test_a_small_loop_problem_with_another_rule_has_the_rules_node_budget(monkeypatch):
    # A loop problem that also has a connected rule (Knuth's data with both) has a node budget
    # whatever its size (NODE_BUDGET_WITH_RULES; the loop's, per item), and so the loop
    # problems' time bound, not the one of small loop problems, which have no other bound.
    from dlxsat.xcc.rules import Connected

    monkeypatch.setattr(auto, "TRIAL_SECONDS", 400.0)
    monkeypatch.setattr(auto, "TRIAL_SECONDS_SMALL_LOOP", 300.0)
    p = golden_problem("slitherlink/tatham-5x5-1.dlx")
    edge = p.n_primary  # (a secondary item: an edge; a member alone is always connected)
    r = auto_solve(p.with_rules(Connected(((edge, "1"),), ())), loop=True, limit=2)
    info = r.stats["auto"]
    assert p.n_primary <= auto.NODE_BUDGET_MIN_ITEMS
    assert info["features"]["rules"] == ["connected"]
    assert info["trial_budget"] == 400.0
    assert info["trial_nodes"] == auto.TRIAL_NODES_PER_ITEM_LOOP * p.n_primary
    assert r.count == 1 and r.exhausted


def test_large_loop_problem_skips_the_trial(monkeypatch):
    monkeypatch.setattr(auto, "LOOP_TRIAL_MAX_ENTRIES", 100)
    p = golden_problem("slitherlink/tatham-5x5-1.dlx")
    r = auto_solve(p, loop=True, allow_empty_loop=False, limit=2)
    info = r.stats["auto"]
    assert info["engine"] == "sat" and "large loop" in info["reason"]
    assert "trial_seconds" not in info and r.count == 1
    # counting still tries DLX first
    r = auto_solve(p, loop=True, allow_empty_loop=False, keep=0)
    assert "trial_seconds" in r.stats["auto"] and r.count == 1


def test_counting_many_loops_uses_the_estimate_and_dlx(monkeypatch):
    monkeypatch.setattr(auto, "TRIAL_SECONDS", 1e-6)
    monkeypatch.setattr(auto, "LOOP_COUNT_ANSWERS", 5)  # few probes: a rough count
    monkeypatch.setattr(auto, "ESTIMATE_SECONDS", 600.0)  # every probe, on a busy machine too
    monkeypatch.setattr(auto, "dlx_load_seconds", lambda problem: 0.0)
    p = golden_problem("masyu/random-few-5x6-3.dlx")  # 167 loops
    r = auto_solve(p, loop=True, keep=0)
    info = r.stats["auto"]
    assert info["estimate"]["answers"] >= auto.LOOP_COUNT_ANSWERS
    assert info["engine"] == "dlx" and r.count == 167


def test_counting_algorithm_m_s_many_answers_goes_by_the_estimate_to_dlx(monkeypatch):
    """An item of multiplicity 4 among 20 options (4,845 answers): counted past its trial,
    Algorithm M's tree is estimated and DLX counts; without an estimate of M's tree ``auto``
    gave such counts to SAT, a call per answer (a 6-of-34 choice's 1,344,904 answers: 481,986
    counted in 30 s, where DLX counts them all in 0.3 s)."""
    from dlxsat.backends import dlx
    from dlxsat.xcc import parse

    monkeypatch.setattr(auto, "TRIAL_SECONDS", 1e-6)
    monkeypatch.setattr(auto, "ESTIMATE_SECONDS", 600.0)
    monkeypatch.setattr(auto, "dlx_load_seconds", lambda problem: 0.0)
    monkeypatch.setattr(auto, "COUNTER_MIN_SECONDS", 1e9)
    monkeypatch.setattr(dlx, "INTERPRETED_SECONDS", 1e-9)  # (the trial's time: compiled CPU)
    text = "4|a | " + " ".join(f"s{i}" for i in range(20)) + "\n"
    problem = parse(text + "".join(f"a s{i}\n" for i in range(20)))
    assert problem.kind == "MCC"
    r = auto_solve(problem, keep=0)
    info = r.stats["auto"]
    assert info["engine"] == "dlx" and "estimated DLX tree" in info["reason"], info
    assert info["estimate"]["answers"] > 100 and r.count == 4845


@pytest.mark.parametrize("installed, engine", [(True, "counter"), (False, "dlx")])
def test_a_count_both_engines_would_take_long_over_goes_to_the_counter(
    monkeypatch, installed, engine
):
    """The disjoint-loop covers of an empty Masyu (Knuth's data, no loop rule): with the
    counter's threshold at 0 s a count goes to the model counter when it is installed, and
    counts what DLX counts; without it, to the engines as before."""
    from dlxsat.xcc import parse

    monkeypatch.setattr(auto, "TRIAL_SECONDS", 1e-6)
    monkeypatch.setattr(auto, "ESTIMATE_SECONDS", 600.0)
    monkeypatch.setattr(auto, "COUNTER_MIN_SECONDS", 0.0)
    monkeypatch.setattr(auto, "SAT_SECONDS_PER_ENTRY", 1.0)  # (so that DLX is the other)
    monkeypatch.setattr(auto, "counter_installed", lambda: installed)
    data = dlxsat.encode("masyu", ".....\n" * 5)  # 23,858 covers, 151,713 DLX nodes
    problem = parse(data, allow_empty=True)
    r = solve_problem(problem, "auto", limit=None, keep=0)
    assert r.stats["auto"]["engine"] == engine, r.stats["auto"]
    assert r.count == dlx_solve(problem, limit=None, keep=0).count > 1


@pytest.mark.parametrize("sat_per_entry, rate, engine", [(1.0, 1e6, "dlx"), (1e-9, 1e-3, "sat")])
def test_when_counting_the_estimate_decides(monkeypatch, sat_per_entry, rate, engine):
    monkeypatch.setattr(auto, "TRIAL_SECONDS", 1e-6)
    monkeypatch.setattr(auto, "SAT_SECONDS_PER_ENTRY", sat_per_entry)
    monkeypatch.setattr(auto, "DLX_NODES_PER_SECOND", rate)
    monkeypatch.setattr(auto, "dlx_load_seconds", lambda problem: 0.0)
    monkeypatch.setattr(auto, "ESTIMATE_SECONDS", 600.0)
    r = auto_solve(SUDOKU_16, keep=0)  # counted: 3,649 nodes, more than a trial of no time
    info = r.stats["auto"]
    assert info["engine"] == engine and "estimated DLX tree" in info["reason"], info
    assert info["estimate"]["probes"] >= 1 and info["predicted"]["load"] == 0
    assert info["trial_budget"] == 1e-6 and r.count == 1


def test_not_counted_past_the_trial_goes_to_sat_without_estimate(monkeypatch):
    # Even with an estimate that would favour DLX (a fast DLX, a slow SAT), a problem that is
    # not counted and outlives its trial goes to SAT: the estimate is not consulted.
    monkeypatch.setattr(auto, "TRIAL_MIN_SECONDS", 1e-6)
    monkeypatch.setattr(auto, "TRIAL_SHARE", 0.0)
    monkeypatch.setattr(auto, "DLX_NODES_PER_SECOND", 1e12)
    monkeypatch.setattr(auto, "dlx_load_seconds", lambda problem: 0.0)
    r = auto_solve(SUDOKU_16, limit=2)
    info = r.stats["auto"]
    assert info["engine"] == "sat" and "trial" in info["reason"], info
    assert "estimate" not in info and "switched_after" not in info
    assert r.count == 1 and r.exhausted and "clauses" in r.stats  # SAT's own figures


def test_the_trial_is_a_share_of_sats_predicted_time(monkeypatch):
    # A problem SAT is predicted to take long on stays on DLX: its trial is long enough for
    # the 3,649 nodes of this 16 x 16 Sudoku however slow the machine (here a trial of 400 s).
    monkeypatch.setattr(auto, "TRIAL_SECONDS", 1e-6)
    monkeypatch.setattr(auto, "TRIAL_SAT_SECONDS_PER_ENTRY", 400 / SUDOKU_16_ENTRIES)
    r = auto_solve(SUDOKU_16, limit=2)
    info = r.stats["auto"]
    assert info["engine"] == "dlx" and "trial" in info["reason"], info
    assert 399 < info["trial_budget"] < 401 and r.stats["nodes"] == 3649
    # Counting and loop problems keep the short trial whatever SAT's prediction.
    feats = dict(info["features"])
    assert auto.trial_seconds(feats, None) == 1e-6
    assert auto.trial_seconds({**feats, "loop": True}, 2) == 1e-6


def test_the_trial_ends_after_its_nodes_per_item(monkeypatch):
    # However long its time budget (here 400 s), a trial searches at most TRIAL_NODES_PER_ITEM
    # nodes per primary item: this 16 x 16 Sudoku's 3,649 nodes (6 per item) end inside 64
    # per item, not inside 4.
    monkeypatch.setattr(auto, "TRIAL_SAT_SECONDS_PER_ENTRY", 400 / SUDOKU_16_ENTRIES)
    r = auto_solve(SUDOKU_16, limit=2)
    info = r.stats["auto"]
    assert info["engine"] == "dlx" and info["trial_nodes"] == 64 * SUDOKU_16.n_primary
    assert info["trial_searched"] == r.stats["nodes"] == 3649
    monkeypatch.setattr(auto, "TRIAL_NODES_PER_ITEM", 4)
    start = time.monotonic()
    r = auto_solve(SUDOKU_16, limit=2)
    info = r.stats["auto"]
    assert info["engine"] == "sat" and "trial" in info["reason"]
    assert info["trial_searched"] == info["trial_nodes"] == 4 * SUDOKU_16.n_primary
    assert time.monotonic() - start < 400  # (the node budget ended it, not the clock)
    assert r.count == 1 and r.exhausted
    # Counts have no node budget (their trees are all searched), nor problems of few items.
    feats = dict(info["features"])
    assert auto.trial_nodes(feats, None) is None
    loop_budget = auto.TRIAL_NODES_PER_ITEM_LOOP * SUDOKU_16.n_primary
    assert auto.trial_nodes({**feats, "loop": True}, 2) == loop_budget
    assert auto.trial_nodes({**feats, "primary": auto.NODE_BUDGET_MIN_ITEMS}, 2) is None


def test_a_loop_trial_ends_after_its_nodes_per_item(monkeypatch):
    # A loop problem's trial has a node budget of its own: however long its time (here
    # 400 s), this Slitherlink's trial stops at 1 node per item and SAT answers; with 100 per
    # item DLX finishes it in the trial.
    monkeypatch.setattr(auto, "TRIAL_SECONDS", 400.0)
    p = golden_problem("slitherlink/tatham-10x10-2.dlx")  # 7,929 nodes, 46 an item
    assert p.n_primary > auto.NODE_BUDGET_MIN_ITEMS
    r = auto_solve(p, loop=True, allow_empty_loop=False, limit=2)
    info = r.stats["auto"]
    assert info["engine"] == "dlx" and info["trial_nodes"] == 100 * p.n_primary
    assert info["trial_searched"] == r.stats["nodes"] < info["trial_nodes"]
    monkeypatch.setattr(auto, "TRIAL_NODES_PER_ITEM_LOOP", 1)
    start = time.monotonic()
    r = auto_solve(p, loop=True, allow_empty_loop=False, limit=2)
    info = r.stats["auto"]
    assert info["engine"] == "sat" and "loop" in info["reason"], info
    assert info["trial_searched"] == info["trial_nodes"] == p.n_primary
    assert time.monotonic() - start < 400 and r.count == 1 and r.exhausted


MASYU_MIRRORED = ROOT / "puzzles/masyu-published/janko-119-18x10.txt"


@pytest.mark.parametrize("share", [0.5, 0.25, None])
def test_a_loop_trial_searches_the_mirrored_tree_too(monkeypatch, share):
    # This Masyu's DLX tree has 1,351,358 nodes in Knuth's order (5,258 an item), which
    # Knuth's estimate puts at 5 an item, and 7,306 mirrored (ties to the rightmost item: 28.4
    # an item). So the trial runs: Knuth's tree for its share of the budget, then the mirrored
    # one, which ends within the rest.
    auto.load()
    monkeypatch.setattr(auto, "TRIAL_SECONDS", 400.0)
    monkeypatch.setattr(auto, "LOOP_TRIAL_KNUTH_SHARE", share)
    p = pipeline.prepare("masyu", MASYU_MIRRORED.read_text()).problem
    budget = auto.TRIAL_NODES_PER_ITEM_LOOP * p.n_primary
    r = auto_solve(p, limit=2)
    info = r.stats["auto"]
    assert r.count == 1 and r.exhausted
    assert info["estimate"]["nodes"] <= budget
    if share is None:  # Knuth's tree alone: past its budget, then SAT
        assert info["engine"] == "sat" and info["trial_searched"] == budget, info
        assert "trial_mirrored" not in info
        return
    assert info["engine"] == "dlx" and info["trial_mirrored"] and r.stats["mirrored"], info
    knuth = round(share * budget)
    assert info["trial_knuth_searched"] == knuth
    assert info["trial_searched"] == r.stats["nodes"] == knuth + 7_306
    assert knuth < info["trial_found_by"] <= info["trial_searched"]  # (found in the mirrored)


@pytest.mark.parametrize(
    "share, share_m, knuth",
    [
        (0.5, 0.7, 0.7),  # (the rule: Algorithm M's problems have their own share)
        (0.5, None, 0.5),  # (no share of their own: the loop problems' share)
        (0.5, 0.25, 0.25),
        (None, 0.7, None),  # (no two orders at all: Knuth's tree alone)
    ],
)
def test_an_algorithm_m_loop_trial_searches_the_mirrored_tree_too(
    monkeypatch, share, share_m, knuth
):
    # A published Double Back (multiplicities: Algorithm M, not probed before its trial):
    # 25,817 nodes in Knuth's order (111.8 an item, past the trial's 100), 819 mirrored. (No
    # growth: Knuth's tree finds its answer early, and grown it would end in the trial.)
    auto.load()
    monkeypatch.setattr(auto, "TRIAL_SECONDS", 400.0)
    monkeypatch.setattr(auto, "FOUND_BUDGET_GROWTH", None)
    monkeypatch.setattr(auto, "LOOP_TRIAL_KNUTH_SHARE", share)
    monkeypatch.setattr(auto, "LOOP_TRIAL_KNUTH_SHARE_M", share_m)
    text = (ROOT / "tests/data/auto/double-back-13_10x10.txt").read_text()
    p = pipeline.prepare("double-back", text).problem
    assert p.kind == "MCC" and p.n_primary == 231
    r = auto_solve(p, limit=2)
    info = r.stats["auto"]
    assert r.count == 1 and r.exhausted and "estimate" not in info
    budget = auto.TRIAL_NODES_PER_ITEM_LOOP * p.n_primary
    if knuth is None:
        assert info["engine"] == "sat" and info["trial_searched"] == budget, info
        assert "trial_mirrored" not in info
    else:
        assert info["engine"] == "dlx" and r.stats["mirrored"], info
        assert info["trial_knuth_searched"] == round(knuth * budget)
        assert info["trial_searched"] == r.stats["nodes"] == round(knuth * budget) + 819


def fillomino(name):
    text = (ROOT / "tests/data/golden/fillomino" / f"{name}.txt").read_text()
    return pipeline.prepare("fillomino", text).problem


@pytest.mark.parametrize(
    "per_item, growth, engine",
    [
        (30, 2.0, "dlx"),  # the first answer within the trial: it goes on, and finishes
        (30, None, "sat"),  # (no growth: SAT after the trial, as before)
        (20, 3.0, "sat"),  # the first answer not within the trial: no growth
        (30, 4 / 3, "sat"),  # grown, but not enough
    ],
)
def test_a_loop_trial_that_found_an_answer_goes_on(monkeypatch, per_item, growth, engine):
    # This Slitherlink's DLX finds its answer after 4,229 nodes (24.6 an item) and proves it
    # unique after 7,929 (46.1 an item).
    monkeypatch.setattr(auto, "TRIAL_SECONDS", 400.0)
    monkeypatch.setattr(auto, "TRIAL_NODES_PER_ITEM_LOOP", per_item)
    monkeypatch.setattr(auto, "FOUND_BUDGET_GROWTH", growth)
    monkeypatch.setattr(auto, "LOOP_TRIAL_KNUTH_SHARE", None)  # (Knuth's tree alone)
    p = golden_problem("slitherlink/tatham-10x10-2.dlx")
    r = auto_solve(p, loop=True, allow_empty_loop=False, limit=2)
    info = r.stats["auto"]
    assert info["engine"] == engine, info
    assert r.count == 1 and r.exhausted
    if per_item == 30 and growth is not None:  # found within the first budget, then grown
        assert 4_229 <= info["trial_found_by"] <= per_item * p.n_primary
        grown = round(growth * per_item * p.n_primary)
        assert info["trial_searched"] == (7_929 if engine == "dlx" else grown)
    else:
        assert "trial_found_by" not in info
        assert info["trial_searched"] == per_item * p.n_primary
    # Only a search for a second answer grows: the first ends the trial of ``limit=1``.
    assert auto.found_budget(info["features"], 1) is None


@pytest.mark.parametrize("growth, engine", [(2.0, "dlx"), (None, "sat")])
def test_a_rule_problems_trial_that_found_an_answer_goes_on(monkeypatch, growth, engine):
    # This Fillomino (sized rules) finds its answer after 44,984 nodes and proves it unique
    # after 82,019: a floor of 50,000 trial nodes ends before the proof, twice it after.
    monkeypatch.setattr(auto, "TRIAL_SECONDS", 400.0)
    monkeypatch.setattr(auto, "TRIAL_MIN_NODES_RULES", 50_000)
    monkeypatch.setattr(auto, "FOUND_BUDGET_GROWTH", growth)
    p = fillomino("janko-96_12x12")
    r = auto_solve(p, limit=2)
    info = r.stats["auto"]
    assert info["features"]["rules"] == ["sized"] and info["trial_nodes"] == 50_000
    assert info["engine"] == engine and r.count == 1 and r.exhausted, info
    if growth is None:
        assert "trial_found_by" not in info and info["trial_searched"] == 50_000
    else:
        assert 44_984 <= info["trial_found_by"] <= 50_000
        assert info["trial_searched"] == r.stats["nodes"] == 82_019


def test_a_problem_with_global_rules_has_a_node_budget_of_its_own(monkeypatch):
    # A Fillomino (sized rules, 81 items: fewer than NODE_BUDGET_MIN_ITEMS) gets a node budget
    # of TRIAL_NODES_PER_ITEM_RULES an item however long its time (here 400 s): janko-78 ends
    # in it (118 nodes), janko-141 (DLX: hundreds of thousands of nodes) goes to SAT after it.
    monkeypatch.setattr(auto, "TRIAL_SECONDS", 400.0)
    p = fillomino("janko-78_9x9")
    assert p.n_primary <= auto.NODE_BUDGET_MIN_ITEMS
    r = auto_solve(p, limit=2)
    info = r.stats["auto"]
    assert info["features"]["rules"] == ["sized"] and info["trial_budget"] == 400.0
    assert info["trial_nodes"] == max(
        auto.TRIAL_NODES_PER_ITEM_RULES * p.n_primary, auto.TRIAL_MIN_NODES_RULES
    )
    assert info["engine"] == "dlx" and "trial" in info["reason"] and r.count == 1
    start = time.monotonic()
    p = fillomino("janko-141_9x9")
    r = auto_solve(p, limit=2)
    info = r.stats["auto"]
    assert info["engine"] == "sat" and "sized rules" in info["reason"], info
    assert info["trial_searched"] == info["trial_nodes"] == auto.TRIAL_MIN_NODES_RULES  # > 16 x 81
    assert time.monotonic() - start < 400 and r.count == 1 and r.exhausted
    # Without such a rule, a problem of so few items has no node budget (bitsets); with the
    # loop rule alone it has the loop problems' (NODE_BUDGET_SMALL_LOOP).
    feats = {**info["features"], "rules": []}
    assert auto.trial_nodes(feats, 2) is None
    assert auto.trial_nodes({**feats, "loop": True}, 2) == 100 * p.n_primary
    monkeypatch.setattr(auto, "NODE_BUDGET_SMALL_LOOP", False)
    assert auto.trial_nodes({**feats, "loop": True}, 2) is None


@pytest.mark.parametrize("bound, engine", [(0, "sat"), (10**9, "dlx")])
def test_a_loop_problem_is_estimated_before_its_trial(monkeypatch, bound, engine):
    # Knuth's probes first, on the layout the trial then searches: a tree estimated past the
    # bound goes to SAT untried; any other is the trial's, whose tree is DLX's own.
    from dlxsat.backends import dlx

    monkeypatch.setattr(dlx, "_starts_compiled", lambda algorithm, entries=0: True)
    monkeypatch.setattr(auto, "TRIAL_SECONDS", 400.0)  # (a loaded machine's pace is no matter)
    monkeypatch.setattr(auto, "LOOP_ESTIMATE_SAT_PER_ITEM", bound)
    p = golden_problem("slitherlink/tatham-10x10-2.dlx")  # 7,929 nodes, 46 an item
    assert p.n_primary > auto.NODE_BUDGET_MIN_ITEMS
    r = auto_solve(p, loop=True, allow_empty_loop=False, limit=2)
    info = r.stats["auto"]
    assert info["engine"] == engine and info["estimate"]["probes"] == auto.LOOP_ESTIMATE_PROBES
    assert info["estimate"]["nodes"] > 0 and r.count == 1 and r.exhausted
    if engine == "sat":
        assert "estimate" in info["reason"] and "trial_seconds" not in info
    else:
        assert (
            r.stats["nodes"]
            == dlx_solve(p, loop=True, allow_empty_loop=False, limit=2).stats["nodes"]
        )


def test_no_loop_estimate_without_probes_or_when_counting(monkeypatch):
    from dlxsat.backends import dlx

    monkeypatch.setattr(dlx, "_starts_compiled", lambda algorithm, entries=0: True)
    p = golden_problem("slitherlink/tatham-10x10-2.dlx")
    feats = auto.features(p, True, 2)
    assert auto.loop_estimate_applies(p, feats, 2)
    assert not auto.loop_estimate_applies(p, feats, None)  # counting: the estimate after
    assert not auto.loop_estimate_applies(p, {**feats, "loop": False}, 2)
    assert not auto.loop_estimate_applies(p, {**feats, "primary": 100}, 2)
    assert not auto.loop_estimate_applies(p, {**feats, "kind": "MCC"}, 2)  # probes: None
    monkeypatch.setattr(auto, "LOOP_ESTIMATE_PROBES", 0)
    assert not auto.loop_estimate_applies(p, feats, 2)


def test_a_large_trial_ends_after_a_node_per_item(monkeypatch):
    # A large Sudoku's trial stops once it has searched as many nodes as it has items to cover,
    # however long its time (here 400 s): the "basic" 25 x 25 (forced moves, some 330 nodes)
    # ends in it on DLX, the "intermediate" one (1.2 million nodes) goes to SAT.
    monkeypatch.setattr(auto, "TRIAL_MIN_SECONDS", 400.0)

    def trial(name):
        text = (ROOT / "puzzles/sudoku-25" / name).read_text()
        p = pipeline.prepare("sudoku", text).problem
        return p, auto_solve(p, limit=2)

    p, r = trial("tatham-25x25-basic-01.txt")
    info = r.stats["auto"]
    assert info["features"]["entries"] > auto.LARGE_ENTRIES
    assert info["engine"] == "dlx" and info["trial_nodes"] == p.n_primary
    assert r.stats["nodes"] < p.n_primary and r.count == 1
    start = time.monotonic()
    p, r = trial("tatham-25x25-intermediate-01.txt")
    info = r.stats["auto"]
    assert info["engine"] == "sat" and info["trial_searched"] == info["trial_nodes"] == p.n_primary
    assert time.monotonic() - start < 400 and r.count == 1 and r.exhausted


def test_small_problems_have_no_node_budget():
    # The 2,339 pentomino packings of 6 x 10 (72 items): unique mode finds two at once; the
    # trial has a time bound only, and DLX answers within it once the process has loaded DLX's
    # compiled kernels (a fresh process: the next test).
    from dlxsat.backends import dlx
    from dlxsat.instances import pentominoes
    from dlxsat.xcc import parse

    dlx.load()

    p = parse(pentominoes.generate(6, 10))
    assert p.n_primary <= auto.NODE_BUDGET_MIN_ITEMS
    info = auto_solve(p, limit=2).stats["auto"]
    assert "trial_nodes" not in info and info["engine"] == "dlx"


# 6 x 10 pentominoes (72 items, no node budget): 113 nodes give two answers; a 16 x 16 Sudoku
# (a node budget): its 10-16 ms trial used to end after the interpreter's first 64 nodes of
# the 141 it needs, and SAT answered (issue 34).
@pytest.mark.parametrize("text", ["pentominoes", "sudoku"])
def test_a_fresh_process_trial_is_a_budget_of_compiled_search(tmp_path, text):
    """In a fresh process the trial starts interpreted; the time that takes (some hundred
    times a compiled node's) and loading the compiled kernel from the ahead-of-time module do
    not count against its budget: DLX answers within its trial."""
    import os
    import subprocess
    import sys

    from dlxsat.backends.dlx import aot
    from dlxsat.instances import pentominoes

    assert aot.buildable() is None, aot.buildable()  # (CI installs gcc)
    aot.build()  # (the user's module, as a first compiled search builds it: here at once)
    if text == "pentominoes":
        path = tmp_path / "pentominoes.dlx"
        path.write_text(pentominoes.generate(6, 10))
        args = ["xcc", str(path)]
    else:
        args = ["sudoku", str(ROOT / "puzzles/sudoku/tatham-16x16-1.txt")]
    done = subprocess.run(
        [sys.executable, "-m", "dlxsat", "solve", *args, "--json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    info = out["stats"]["auto"]
    assert info["engine"] == "dlx" and info["reason"] == "DLX finished within its trial", info
    assert out["status"] == ("multiple" if text == "pentominoes" else "unique")


def test_dlx_past_its_budget_hands_over_to_sat(monkeypatch):
    # An estimate that promises a tiny tree, a search that does not end: 2^22 answers counted
    # one by one, a budget far too short for them.
    from dlxsat.xcc import Item, Problem

    p = Problem([Item(f"p{i}") for i in range(22)], [((i, None),) for i in range(22) for _ in "ab"])
    monkeypatch.setattr(auto, "TRIAL_SECONDS", 1e-6)
    monkeypatch.setattr(auto, "MIN_BUDGET", 0.05)
    monkeypatch.setattr(auto, "SWITCH_FACTOR", 0.0)
    monkeypatch.setattr(auto, "dlx_load_seconds", lambda problem: 0.0)
    monkeypatch.setattr(
        auto, "choose", lambda *a: ("dlx", "forced", {"dlx": 0, "sat": 0, "load": 0})
    )
    r = auto_solve(p, limit=3, keep=3)
    info = r.stats["auto"]
    assert info["engine"] in ("dlx", "sat")
    assert r.count == 3 and len(r.solutions) == 3  # whoever answered, the answer is right
    # The limit of 3 answers comes fast, so DLX finished; now force the switch (after the
    # trial, a 0.05 s estimate and DLX's 0.05 s budget, some 0.1 s idle: the time limit leaves a
    # loaded machine over ten times that):
    r = auto_solve(p, keep=0, timeout=1.5)
    info = r.stats["auto"]
    assert info["engine"] == "sat" and "budget" in info["reason"] and info["switched_after"] > 0


def test_choose_predictions():
    f = {"loop": False, "entries": 10_000}
    # Not counted: SAT whatever the estimate says, once the trial is over.
    for nodes in (10, 1e9, None):
        engine, reason, predicted = auto.choose(f, nodes, 1, 0, 0.0, 2)
        assert engine == "sat" and "trial" in reason and 0.5 < predicted["sat"] < 0.501
    # Counting: the estimate decides, SAT paying a call per answer, DLX its nodes and load.
    engine, _, predicted = auto.choose(f, 1e9, 1, 0, 0.0, None)
    assert engine == "sat" and predicted["dlx"] > predicted["sat"]
    assert auto.choose(f, 10, 1, 0, 0.0, None)[0] == "dlx"
    assert auto.choose(f, 3e5, 1e5, 0, 0.0, None)[0] == "dlx"
    # ... SAT's search counted too on trees DLX finishes within COUNT_DLX_SECONDS (here 2 s
    # and 20 s: SAT's formula alone, 0.5 s, would win), not beyond (667 s).
    assert auto.choose(f, 3e5, 1, 0, 0.0, None)[0] == "dlx"
    engine, _, predicted = auto.choose(f, 3e6, 1, 0, 0.0, None)
    assert engine == "dlx" and predicted["sat"] > 10 * predicted["dlx"] - 1
    assert auto.choose(f, 1e8, 1, 0, 0.0, None)[0] == "sat"
    # ... the kernel's load counts against DLX, and the trial's nodes when over the estimate.
    assert auto.choose(f, 10, 1, 0, auto.DLX_LOAD_SECONDS, None)[0] == "sat"
    assert auto.choose(f, 10, 1, 10**7, 0.0, None)[0] == "sat"
    # Algorithm M (no estimate) goes to SAT; loops go to SAT unless counting many answers.
    assert auto.choose(f, None, 0, 0, 0.0, None)[0] == "sat"
    loop = {"loop": True, "entries": 4000}
    assert auto.choose(loop, 10, 10**4, 0, 0.0, 2)[0] == "sat"
    assert auto.choose(loop, 10, 10**4, 0, 0.0, None)[0] == "dlx"
    assert auto.choose(loop, 10, 1, 0, 0.0, None)[0] == "sat"


def test_features_and_trial_budget():
    f = auto.features(SUDOKU_16, False, 2)
    assert f["entries"] == SUDOKU_16_ENTRIES and f["mode"] == "unique" and not f["loop"]
    assert auto.features(SUDOKU_16, True, None)["mode"] == "count"
    # SAT's time at its best: all of it up to LARGE_ENTRIES, a quarter above, the floor under.
    rent = auto.TRIAL_SAT_SECONDS_PER_ENTRY * f["entries"] + 2 * auto.SAT_SECONDS_PER_ANSWER
    assert auto.trial_seconds(f, 2) == max(auto.TRIAL_MIN_SECONDS, rent)
    big = {**f, "entries": auto.LARGE_ENTRIES - 1}
    assert auto.trial_seconds(big, 2) == max(
        auto.TRIAL_MIN_SECONDS,
        auto.TRIAL_SAT_SECONDS_PER_ENTRY * big["entries"] + 2 * auto.SAT_SECONDS_PER_ANSWER,
    )
    large = {**f, "entries": 100 * auto.LARGE_ENTRIES}
    rent = auto.TRIAL_SAT_SECONDS_PER_ENTRY * large["entries"] + 2 * auto.SAT_SECONDS_PER_ANSWER
    assert auto.trial_seconds(large, 2) == pytest.approx(auto.TRIAL_SHARE_LARGE * rent)
    assert auto.trial_seconds(large, 2) > auto.TRIAL_MIN_SECONDS
    small = auto.features(golden_problem("sudoku/tatham-4x4-1.dlx"), False, 2)
    assert auto.trial_seconds(small, 2) == auto.TRIAL_MIN_SECONDS


def test_pipeline_report_says_which_engine_ran():
    r = dlxsat.solve("sudoku", HARD_SUDOKU.read_text())
    assert r.backend == "auto" and r.status == "unique"
    assert r.stats["auto"]["engine"] in ("dlx", "sat") and r.stats["auto"]["reason"]
    assert r.stats["checked"] == 1


def test_cli_json_has_stats_auto(monkeypatch, capfd):
    rc, out, err = run(
        ["solve", "masyu", ROOT / "puzzles/masyu/tatham-10x10.txt", "--json"],
        monkeypatch=monkeypatch,
        capfd=capfd,
    )
    assert rc == 0, err
    data = json.loads(out)
    assert data["backend"] == "auto" and data["status"] == "unique"
    assert data["stats"]["auto"]["engine"] in ("dlx", "sat")
    assert data["stats"]["auto"]["features"]["loop"] is True


def test_batch_path_uses_auto_per_puzzle(monkeypatch):
    texts = [p.read_text() for p in sorted((ROOT / "puzzles/sudoku-hard").glob("*.txt"))]
    reports = list(dlxsat.solve_many("sudoku", texts))  # 35 puzzles: the batch path
    assert all(r.backend == "auto" and r.status == "unique" for r in reports)
    assert all(r.stats["auto"]["engine"] == "dlx" for r in reports)
    assert all(r.stats["checked"] == 1 for r in reports)
    # A puzzle that outgrows the batch trial goes to auto's own choice, answers still checked.
    from dlxsat.backends.dlx import batch

    monkeypatch.setattr(batch, "NODE_BUDGET", 0)  # no puzzle settled in the chunks
    monkeypatch.setattr(auto, "BATCH_TRIAL_SECONDS", 1e-9)
    monkeypatch.setattr(batch, "FIRST_BUDGET", 0)  # a first kernel call of no nodes
    monkeypatch.setattr(auto, "TRIAL_SECONDS", 1e-6)
    again = list(dlxsat.solve_many("sudoku", texts))
    assert [r.solutions for r in again] == [r.solutions for r in reports]
    assert all("batch_trial_seconds" in r.stats["auto"] for r in again)


def test_auto_answers_match_dlx_on_the_bundled_sudokus():
    for path in sorted((ROOT / "puzzles/sudoku").glob("*.txt")):
        text = path.read_text()
        a = dlxsat.solve("sudoku", text, backend="auto")
        d = dlxsat.solve("sudoku", text, backend="dlx")
        assert (a.status, a.solutions) == (d.status, d.solutions), path.name
    assert sudoku  # the family module is what the pipeline decodes with


def test_load_loads_the_engines():
    auto.load()
    assert auto.dlx_load_seconds(golden_problem("sudoku/tatham-9x9-1.dlx")) == 0.0
    assert dlx_solve(golden_problem("sudoku/tatham-9x9-1.dlx")).stats["kernel"] == "compiled"


def test_generated_sudokus_are_unique_and_reproducible():
    """The held-out corpus of benchmarks/auto.py: every file has one answer, and the
    generator makes the same file again from its seed (the first 9 x 9 of the last set: one
    generation is some hundred uniqueness checks)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "generate_sudokus", ROOT / "benchmarks/generate_sudokus.py"
    )
    assert spec and spec.loader
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    for folder in ("sudoku-generated", "sudoku-fresh", "sudoku-fresh2"):
        files = sorted((ROOT / "puzzles" / folder).glob("gen-*.txt"))
        assert {f.name.split("-")[1] for f in files} == {"9x9", "16x16", "25x25"}
        for f in files:
            status = dlxsat.solve("sudoku", f.read_text(), backend="sat").status
            assert status == "unique", f.name
    first = ROOT / "puzzles/sudoku-fresh2/gen-9x9-7320.txt"
    assert gen.generate(3, 22, 7320) == first.read_text()


def test_fresh_masyu_are_unique_and_reproducible():
    """The held-out Masyu of benchmarks/auto.py: every file has one answer, and the generator
    makes the smallest again from its seed."""
    from dlxsat.generators.masyu import generate_masyu

    files = sorted((ROOT / "puzzles/masyu-fresh").glob("fresh-*.txt"))
    assert {f.name.split("-")[1] for f in files} == {"10x10", "18x10", "24x14", "36x20"}
    for f in files:
        assert dlxsat.solve("masyu", f.read_text(), backend="sat").status == "unique", f.name
    first = ROOT / "puzzles/masyu-fresh/fresh-10x10-7601.txt"
    assert generate_masyu(10, 10, 7601) == first.read_text()


def test_dlx_load_seconds_follows_the_kernel_tier(monkeypatch, tmp_path):
    """DLX's load is none once loaded, the ahead-of-time module's when that is built, and
    numba's JIT cache's otherwise (0.6 s charged with the module built sent a pentomino count
    of 8 answers to SAT: over 60 s against DLX's 0.9 s)."""
    from dlxsat.backends.dlx import aot, compiled

    p = golden_problem("masyu/random-few-5x6-3.dlx")
    monkeypatch.setattr(compiled, "is_ready", lambda name, dtype: True)
    assert auto.dlx_load_seconds(p) == 0.0
    monkeypatch.setattr(compiled, "is_ready", lambda name, dtype: False)
    built = tmp_path / "module.so"
    monkeypatch.setattr(aot, "module_path", lambda directory=None: built)
    monkeypatch.setattr(aot, "enabled", lambda: True)
    assert auto.dlx_load_seconds(p) == auto.DLX_LOAD_SECONDS
    built.write_bytes(b"")
    assert auto.dlx_load_seconds(p) == auto.DLX_AOT_LOAD_SECONDS < auto.DLX_LOAD_SECONDS
    monkeypatch.setattr(aot, "enabled", lambda: False)
    assert auto.dlx_load_seconds(p) == auto.DLX_LOAD_SECONDS
