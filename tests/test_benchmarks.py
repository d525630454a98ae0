"""Every benchmark script runs (``--help`` prints its help, exit 0; those docs/measurements.md
names run for real on a tiny input), and the README's ``encode`` -> ``parse_dlx`` ->
``solve_problem`` pattern works for every family -- it failed for SuperSlitherlink ("unknown
item name 'a'"), and benchmarks/dlx.py with it."""

from __future__ import annotations

import json
import os
import re
import runpy
import subprocess
import sys
from pathlib import Path

import pytest

import dlxsat

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "data" / "golden"
BENCHMARKS = sorted((ROOT / "benchmarks").glob("*.py"))


def test_there_are_benchmarks():
    assert len(BENCHMARKS) >= 10


@pytest.mark.parametrize("script", BENCHMARKS, ids=lambda p: p.name)
def test_every_benchmark_prints_its_help(script: Path, monkeypatch, capsys):
    """Run as ``python benchmarks/NAME.py --help`` is, in this process (a fresh interpreter
    for each of the twenty cost a second of the suite's CPU): its help, exit 0."""
    monkeypatch.setattr(sys, "argv", [str(script), "--help"])
    monkeypatch.syspath_prepend(str(script.parent))  # (as python puts the script's folder first)
    with pytest.raises(SystemExit) as exit_:
        runpy.run_path(str(script), run_name="__main__")
    out, err = capsys.readouterr()
    assert exit_.value.code in (0, None), err
    assert out.lower().lstrip().startswith(("usage:", "the ")), out[:200]
    assert "Traceback" not in err


def _cases(family: str) -> list[dict]:
    manifest = json.loads((GOLDEN / "manifest.json").read_text())
    return [c for c in manifest if c["family"] == family and c["exit_status"] == 0]


def _counts(case: dict) -> list[tuple[bool, int]]:
    """(loop rule?, Knuth's count) of a golden case (as in conftest.golden_count_runs)."""
    out = []
    for key in ("dlx1", "dlx2_disjoint_loops", "dlx3_disjoint_loops"):
        if (case.get(key) or {}).get("count") is not None:
            out.append((False, case[key]["count"]))
    for key in ("dlx2_loop_single_loop", "single_loop_count", "single_loop_count_bruteforce"):
        v = case.get(key)
        v = v.get("count") if isinstance(v, dict) else v
        if v is not None:
            out.append((True, v))
    return out


CASES = [c for f in ("superslitherlink", "masyu", "slitherlink", "sudoku") for c in _cases(f)]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['family']}/{c['name']}")
def test_encode_parse_dlx_solve_problem_for_every_family(case: dict):
    text = dlxsat.encode(case["family"], (GOLDEN / case["puzzle"]).read_text())
    problem = dlxsat.parse_dlx(text)
    counts = _counts(case)
    assert counts
    for loop, count in counts[:2]:
        assert dlxsat.solve_problem(problem, "dlx", loop=loop, keep=0).count == count
    # Knuth's own bytes are read the same way
    assert dlxsat.parse_dlx((GOLDEN / case["dlx"]).read_text()).n_primary == problem.n_primary


def test_the_encodings_benchmark_runs_no_setting_that_does_not_apply():
    """SuperSlitherlink's clues need 'at least k of n': the 'at most one' encodings cannot
    encode them, and their jobs failed and counted as unsolved in PAR-2. They run on the other
    families only."""
    import argparse
    import importlib.util

    from dlxsat.backends.cnf import AMO_ONLY

    spec = importlib.util.spec_from_file_location("loops", ROOT / "benchmarks" / "loops.py")
    loops = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loops)
    a = argparse.Namespace(
        set="encodings", only="5x5", timeout=5.0, jobs=None, format="csv", plot_out=None
    )
    runs = {c[c.index("compare") + 1]: c for c in loops.commands(a, "s.jsonl") if "compare" in c}
    assert "superslitherlink" in runs and "slitherlink" in runs
    settings = {
        f: " ".join(c[i + 1] for i, w in enumerate(c) if w == "--settings") for f, c in runs.items()
    }
    for enc in AMO_ONLY:
        assert enc not in settings["superslitherlink"]
        assert enc in settings["slitherlink"]
    assert "seqcounter" in settings["superslitherlink"]


def _load(name: str):
    """A benchmark script as a module (its ``main`` not run)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    # (registered while it runs: a dataclass's annotations are looked up in its module)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[name]
    return module


@pytest.mark.parametrize("kind", ["fillomino", "nurikabe"])
def test_the_sized_benchmarks_boards_have_their_planted_answer_and_every_way_agrees(kind):
    """benchmarks/sized.py on a tiny board: the planted answer makes every instance solvable,
    and every way (dlx, sat and cpsat, lazy and eager) finds as many answers (of two asked)."""
    sized = _load("sized")
    problem = sized.MAKERS[kind](4, 0)
    assert [r.kind for r in problem.rules] == ["sized"] * (
        sized.BOUND + 1 if kind == "fillomino" else 1
    )
    counts = set()
    for way in sized.WAYS:
        backend, _, mode = way.partition(":")
        options = {"sized_mode": mode} if mode else {}
        r = dlxsat.solve_problem(problem, backend, limit=2, **options)
        assert not r.timed_out
        counts.add(r.count)
    assert len(counts) == 1 and counts.pop() >= 1


def test_the_sized_benchmark_runs_on_a_tiny_input(capsys):
    """Its table, one row per kind, every way finished on the one seed."""
    sized = _load("sized")
    assert sized.main(["--sizes", "3", "--seeds", "1", "--timeout", "30"]) == 0
    rows = [x for x in capsys.readouterr().out.splitlines() if x.startswith(sized.KINDS)]
    assert [x.split()[:2] for x in rows] == [["fillomino", "3"], ["nurikabe", "3"]]
    assert all(x.count(" 1/1 ") == len(sized.WAYS) for x in rows)


# --------------------------------------------------------------------------- tiny runs

MEASUREMENTS = ROOT / "docs" / "measurements.md"

#: Every script docs/measurements.md names, with arguments that make its run tiny (a puzzle or
#: two, one round, short limits): each is run for real, so that a change of the API it uses
#: cannot break it silently ({store} and {out}: a results store and an output file).
TINY = {
    "batch.py": ["--puzzles", "2", "--repeat", "1", "--quick"],
    "compare.py": ["--count", "1", "--repeat", "1", "--timeout", "20"],
    "count.py": ["--instances", "queens 5", "masyu:3x3", "--timeout", "30"],
    "dlx.py": ["--repeat", "1", "--only", "tatham-4x4"],
    "logic.py": ["--only", "tatham-9x9-advanced-01", "--timeout", "20"],
    "logic_masyu.py": ["--only", "janko-011", "--timeout", "20"],
    "loops.py": ["--only", "tatham-5x5-1", "--set", "defaults", "--timeout", "20", "--jobs", "1"],
    "plot.py": ["{store}", "-o", "{out}"],
    "portfolio.py": ["--only", "masyu/tatham-10x10", "--timeout", "20"],
    "rules.py": ["--sizes", "3", "--seeds", "1", "--timeout", "20"],
    "sized.py": ["--sizes", "3", "--seeds", "1", "--timeout", "30"],
    "startup.py": ["--rounds", "1", "--only", "sudoku"],
    "corpus_cpu.py": ["--dataset", "{corpus}", "--sets", "sudoku", "--rounds", "1"],
    "builds.py": [
        *("--dataset", "{corpus}", "--genres", "hitori", "--rounds", "1", "--repeats", "1"),
        *("--tree", f"a={ROOT}", "--same"),
    ],
    "numberlink_sweep.py": ["--dataset", "{corpus}", "--max-width", "8", "--timeout", "60"],
    "cuts.py": ["--dataset", "{corpus}", "--genres", "hitori", "--sample", "1", "--rounds", "1"],
    "dlx_genres.py": [
        *("--dataset", "{corpus}", "--genres", "hitori", "--sample", "1"),
        *("--rounds", "1", "--repeat", "1", "--tree", f"a={ROOT}", "--tree", f"b={ROOT}"),
    ],
}

#: A corpus of one 4 x 4 Sudoku, one 6 x 6 Hitori and one 5 x 5 NumberLink
#: (``tests/data/genres``) in the public corpus's layout (``benchmarks/corpus.py``), for the
#: scripts that read it.
TINY_SUDOKU = "4 4\n1 - - -\n- - 1 -\n- 1 - -\n- - - 1\n"
TINY_HITORI = json.loads((ROOT / "tests/data/genres/hitori.json").read_text())["puzzles"][0]
TINY_NUMBERLINK = json.loads((ROOT / "tests/data/genres/numberlink.json").read_text())["puzzles"][0]


def test_every_script_the_measurements_name_has_a_tiny_run():
    named = set(re.findall(r"benchmarks/(\w+\.py)", MEASUREMENTS.read_text()))
    assert named and named == set(TINY), named ^ set(TINY)


@pytest.mark.slow
@pytest.mark.parametrize("script", sorted(TINY))
def test_every_script_the_measurements_name_runs(script: str, tmp_path: Path):
    """``python benchmarks/SCRIPT`` with a tiny input, in a fresh process as a user runs it:
    exit 0, its figures on stdout, no traceback (benchmarks/dlx.py once stopped at its warm-up:
    ``solve() missing 2 required positional arguments``)."""
    from stores import record, write_store

    store = write_store(
        tmp_path / "store.jsonl",
        [record(f"p{k}.txt", s, "unique", 0.1 * k + 0.1) for k in range(2) for s in "ab"],
    )
    data = tmp_path / "corpus" / "assets" / "data" / "Sudoku"
    data.mkdir(parents=True)
    entry = {"problem": TINY_SUDOKU, "solution": ""}
    (data / "Sudoku_dataset.json").write_text(json.dumps({"count": 1, "data": {"1_4x4": entry}}))
    hitori = tmp_path / "corpus" / "assets" / "data" / "Hitori"
    hitori.mkdir()
    entry = {"problem": TINY_HITORI["problem"], "solution": TINY_HITORI["answer"]}
    (hitori / "Hitori_dataset.json").write_text(json.dumps({"count": 1, "data": {"5_6x6": entry}}))
    numberlink = tmp_path / "corpus" / "assets" / "data" / "NumberLink"
    numberlink.mkdir()
    entry = {"problem": TINY_NUMBERLINK["problem"], "solution": TINY_NUMBERLINK["answer"]}
    (numberlink / "NumberLink_dataset.json").write_text(json.dumps({"data": {"1_5x5": entry}}))
    args = [
        a.format(store=store, out=tmp_path / "plot.svg", corpus=tmp_path / "corpus")
        for a in TINY[script]
    ]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    run = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / script), *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert "Traceback" not in run.stderr and "Error" not in run.stdout, run.stderr[-2000:]
    assert run.stdout.strip() or (tmp_path / "plot.svg").stat().st_size > 100


def test_the_trial_floor_replay_charges_the_trial_then_sat(tmp_path, capsys):
    """benchmarks/auto_replay.py on two made-up boards: a tree of 3,000 nodes is DLX's with a
    floor of 4,000 and costs the trial's 2,000 nodes and SAT's time with a floor of 2,000; a
    tree DLX never ends costs its trial (the trial's own time a node) and SAT's."""
    floor = _load("auto_replay")

    def runs(board: str, dlx: dict, sat: float, searched: int, seconds: float) -> list[dict]:
        auto = {"features": {"primary": 10}, "trial_nodes": 2000, "trial_searched": searched}
        auto["trial_seconds"] = seconds
        common = {"set": "nurikabe", "board": board, "status": "unique"}
        return [
            {**common, "solver": "dlx", **dlx},
            {**common, "solver": "sat", "seconds": sat},
            {**common, "solver": "cpsat", "seconds": 1.0},
            {**common, "solver": "auto", "seconds": 0.05, "auto": auto},
        ]

    lines = runs("a", {"seconds": 0.010, "nodes": 3000}, 0.020, 2000, 0.007)
    lines += runs("b", {"seconds": 10.0, "status": "timeout"}, 0.030, 2000, 0.004)
    path = tmp_path / "runs.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in lines))
    rows = floor.boards([path])["nurikabe"]
    assert [b.nodes for b in rows] == [3000, None]
    vbs = 0.010 + 0.030
    assert floor.ratio(rows, 0, 4000) == pytest.approx((0.010 + 0.008 + 0.030) / vbs)
    assert floor.ratio(rows, 0, 2000) == pytest.approx((0.010 * 2 / 3 + 0.020 + 0.034) / vbs)
    assert floor.ratio(rows, 400, 0) == pytest.approx((0.010 + 0.008 + 0.030) / vbs)
    assert floor.main([str(path), "--per-item", "0", "--floors", "2000,4000"]) == 0
    assert "| 0 | 1.52 | 1.20 |" in capsys.readouterr().out
    # The trial as it ran, scaled, and the best choice at its end: `a`'s 1,000 nodes left
    # cost DLX a third of its 10 ms, less than SAT's 20 ms; `b` has only SAT after its trial.
    assert floor.scaled_ratios(rows, 1) == pytest.approx(
        ((0.010 * 2 / 3 + 0.020 + 0.034) / vbs, (0.010 + 0.034) / vbs)
    )
    assert floor.scaled_ratios(rows, 2) == pytest.approx(((0.010 + 0.038) / vbs,) * 2)
    assert floor.main([str(path), "--per-item", "0", "--floors", "0", "--scales", "1,2"]) == 0
    assert "| 1 | 1.517 | 1.100 |" in capsys.readouterr().out
    # Bad input: a one-line error, exit 2.
    (tmp_path / "bad.jsonl").write_text("{not json\n")
    for args, why in [
        ([str(path), "--families", "cave"], "no boards of cave in these runs"),
        ([str(tmp_path / "none.jsonl")], "cannot read"),
        ([str(tmp_path / "bad.jsonl")], "not a published.py --jsonl record"),
        ([str(path), "--floors", "2k"], "whole numbers"),
        ([str(path), "--scales", "x"], "--scales takes numbers"),
        ([str(path), "--scales", "0"], "positive"),
    ]:
        with pytest.raises(SystemExit) as exit_:
            floor.main(args)
        err = capsys.readouterr().err
        assert exit_.value.code == 2 and why in err and "Traceback" not in err


def test_a_trial_of_seconds_replays_at_its_own_time_a_node(tmp_path, capsys):
    """A problem whose trial had a budget of seconds (no rule, few items: Star Battle) is
    replayed in nodes at the trial's own time a node: 5 ms at 1 microsecond a node is 5,000 of
    DLX's 8,000; then SAT (6 ms), or, chosen at best, DLX's last 3,000 nodes."""
    floor = _load("auto_replay")
    auto = {"features": {"primary": 42}, "trial_budget": 0.005, "trial_seconds": 0.005}
    common = {"set": "star-battle", "board": "c", "status": "unique"}
    lines = [
        {**common, "solver": "dlx", "seconds": 0.009, "nodes": 8000},
        {**common, "solver": "sat", "seconds": 0.006},
        {**common, "solver": "cpsat", "seconds": 1.0},
        {**common, "solver": "auto", "seconds": 0.012, "auto": {**auto, "trial_searched": 5000}},
    ]
    path = tmp_path / "runs.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in lines))
    (board,) = floor.boards([path])["star-battle"]
    assert board.budget is None and board.scaled(1) == 5000 and board.scaled(2) == 10000
    assert floor.scaled_ratios([board], 1) == pytest.approx(
        ((0.009 * 5 / 8 + 0.006) / 0.006, 0.009 / 0.006)
    )
    assert floor.scaled_ratios([board], 2) == pytest.approx((0.009 / 0.006,) * 2)
    assert floor.main([str(path), "--scales", "1"]) == 0
    out = capsys.readouterr().out
    assert "replayed with its budgets 1.94" in out and "| 1 | 1.938 | 1.500 |" in out


def test_the_two_orders_replay_gives_knuth_s_tree_its_share(tmp_path, capsys):
    """benchmarks/auto_orders.py on a made-up board of 200 items (a budget of 20,000 nodes at
    100 an item): Knuth's tree ends after 12,000 nodes, the mirrored one never. Half the budget
    for Knuth's tree stops it at 10,000, the mirrored one takes the other 10,000, then SAT;
    0.7 lets it end (DLX's measured run less its search, plus the search)."""
    orders = _load("auto_orders")
    tree = {
        "family": "country-road",
        "board": "b",
        "primary": 200,
        "kind": "MCC",
        **{"knuth_1": 5_000, "knuth_2": 12_000, "knuth_rate": 1e-6},
        **{"mirrored_1": None, "mirrored_2": None, "mirrored_rate": 2e-6},
    }
    common = {"set": "country-road", "board": "b", "status": "unique"}
    runs = {
        "dlx": {**common, "solver": "dlx", "seconds": 0.015, "nodes": 12_000},
        "sat": {**common, "solver": "sat", "seconds": 0.040},
        "cpsat": {**common, "solver": "cpsat", "seconds": 0.2},
        "auto": {**common, "solver": "auto", "seconds": 0.070},
    }
    seconds, engine = orders.replayed(tree, runs, 100, 0.5, None, 1.0)
    assert engine == "sat" and seconds == pytest.approx(0.040 + 10_000 * 1e-6 + 10_000 * 2e-6)
    seconds, engine = orders.replayed(tree, runs, 100, 0.7, None, 1.0)
    assert engine == "dlx" and seconds == pytest.approx(0.015)
    # Knuth's tree alone, 50 an item: past it (its answer found, but no growth), SAT.
    seconds, engine = orders.replayed(tree, runs, 50, None, None, 1.0)
    assert engine == "sat" and seconds == pytest.approx(0.040 + 10_000 * 1e-6)
    # ... unless it grows once it has found its answer (5,000 nodes): five times 10,000.
    assert orders.replayed(tree, runs, 50, None, 5.0, 1.0)[1] == "dlx"
    # A time budget stops a tree before its nodes do: 5 ms at 1 microsecond a node.
    assert orders.replayed(tree, runs, 100, 0.7, None, 0.005 / 0.7)[1] == "sat"
    # The whole replay, from files, as its command line runs it (the rule's growth and 30 ms:
    # here the answer comes after 11,000 nodes, past Knuth's half, and the mirrored half
    # stops at 15 ms, 7,500 nodes).
    trees = tmp_path / "trees.jsonl"
    trees.write_text(json.dumps({**tree, "knuth_1": 11_000}) + "\n")
    published = tmp_path / "runs.jsonl"
    published.write_text("".join(json.dumps(r) + "\n" for r in runs.values()))
    orders.main(["replay", str(trees), "--runs", str(published), "--shares", "0.5,0.7"])
    out = capsys.readouterr().out
    assert "country-road (1 boards): measured 4.667" in out  # (auto 70 ms, DLX 15)
    assert "share 0.5: 4.333 (dlx 0) | share 0.7: 1.000 (dlx 1)" in out
    # Bad input: a one-line error, exit 2.
    (tmp_path / "bad.jsonl").write_text("{not json\n")
    for args, why in [
        (["replay", str(tmp_path / "none.jsonl"), "--runs", str(published)], "cannot read"),
        (["replay", str(tmp_path / "bad.jsonl"), "--runs", str(published)], "not a trees"),
        (["replay", str(trees), "--runs", str(published), "--shares", "half"], "--shares"),
    ]:
        with pytest.raises(SystemExit) as exit_:
            orders.main(args)
        err = capsys.readouterr().err
        assert exit_.value.code == 2 and why in err and "Traceback" not in err


def test_the_two_orders_trees_are_both_orders_searches(tmp_path):
    """benchmarks/auto_orders.py trees on a corpus of one published Country Road: each
    order's nodes to its first answer and to the end are those of DLX run in that order."""
    from dlxsat.backends import dlx
    from dlxsat.pipeline import prepare
    from dlxsat.solvers import Request

    orders = _load("auto_orders")
    puzzle = json.loads((ROOT / "tests/data/genres/country-road.json").read_text())["puzzles"][0]
    data = tmp_path / "assets" / "data" / "CountryRoad"
    data.mkdir(parents=True)
    entry = {"problem": puzzle["problem"], "solution": puzzle["answer"]}
    (data / "CountryRoad_dataset.json").write_text(json.dumps({"count": 1, "data": {"01": entry}}))
    out = tmp_path / "trees.jsonl"
    orders.main(
        ["trees", "--families", "country-road", "--dataset", str(tmp_path), "--out", str(out)]
    )
    (row,) = [json.loads(line) for line in out.read_text().splitlines()]
    problem = prepare("country-road", puzzle["problem"]).problem
    assert row["board"] == "01" and row["primary"] == problem.n_primary and row["kind"] == "MCC"
    for mirrored, tag in ((False, "knuth"), (True, "mirrored")):
        for limit in (1, 2):
            request = Request.for_mode("unique") if limit == 2 else Request(limit=1)
            r = dlx.solve(problem, request, {}, mirrored=mirrored)
            assert row[f"{tag}_{limit}"] == r.stats["nodes"]
        assert row[f"{tag}_rate"] > 0
    assert row["knuth_1"] <= row["knuth_2"]


def test_a_tuned_key_names_every_genre_or_one(tmp_path):
    """benchmarks/published.py's draw leaves out the boards an ``--exclude`` file lists: a key
    alone in every genre (the list's older lines), ``GENRE:KEY`` in that genre only -- where a
    key alone left a board of that key out of every genre's held-out set."""
    published = _load("published")
    for family, folder in (("cave", "Cave"), ("nurikabe", "Nurikabe")):
        puzzles = json.loads((ROOT / f"tests/data/genres/{family}.json").read_text())["puzzles"]
        data = tmp_path / "assets" / "data" / folder
        data.mkdir(parents=True)
        entry = {"problem": puzzles[0]["problem"], "solution": puzzles[0]["answer"]}
        board = {key: entry for key in ("01", "02", "03")}
        (data / f"{folder}_dataset.json").write_text(json.dumps({"count": 3, "data": board}))
    tuned = tmp_path / "tuned.txt"
    tuned.write_text("# a comment\n01\ncave:02  # tuned on in Cave only\n")
    exclude = published.keys_of(str(tuned))

    def drawn(name):
        return sorted(k for k, _ in published.sample(name, str(tmp_path), 9, 1, exclude))

    assert drawn("cave") == ["03"]
    assert drawn("nurikabe") == ["02", "03"]
