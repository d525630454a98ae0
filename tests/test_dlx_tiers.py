"""The dlx backend's two tiers: the interpreted kernels and the compiled ones search the same
tree (Knuth's figures on the golden cases, either way), and a search that moves from one to the
other mid-way ends exactly as one that never moved. Start-up: importing the backend and the
solver registry loads neither numba nor numpy.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys

import pytest
from conftest import GOLDEN, ROOT, as_a_fresh_process, golden_problem

import dlxsat.backends.dlx as backend
from dlxsat.solvers import Request, solve_problem
from dlxsat.xcc.rules import SingleLoop


def solve_dlx(problem, **kw):
    """The dlx backend, with the request and options checked as every caller's are."""
    kw.setdefault("keep", None)  # (the tests read the answers: every one found is kept)
    return solve_problem(problem, "dlx", **kw)


CASES = [c for c in json.loads((GOLDEN / "manifest.json").read_text()) if c["exit_status"] == 0]
RUNS = {"dlx1": False, "dlx2": False, "dlx2_disjoint_loops": False, "dlx2_loop_single_loop": True}
RUNS["dlx3_disjoint_loops"] = False
#: Runs small enough for the interpreter (a tenth of a second or so each).
SMALL = [
    (c, key) for c in CASES for key in RUNS if c.get(key) and 100 < c[key]["updates"] <= 70_000
]


def _id(run: tuple[dict, str]) -> str:
    return f"{run[0]['family']}/{run[0]['name']}-{run[1]}"


@pytest.mark.parametrize("tier", ["interpreted", "compiled"])
@pytest.mark.parametrize("run", SMALL, ids=_id)
def test_each_tier_gives_knuths_figures(monkeypatch, run, tier):
    case, key = run
    monkeypatch.setattr(backend, "INTERPRETED_SECONDS", math.inf if tier == "interpreted" else 0)
    r = solve_dlx(golden_problem(case["dlx"]), loop=RUNS[key], keep=0)
    ref = case[key]
    assert (r.count, r.stats["nodes"], r.stats["updates"]) == (
        ref["count"],
        ref["nodes"],
        ref["updates"],
    )
    assert r.stats["kernel"] == tier and r.exhausted


@pytest.mark.parametrize(
    "name, loop",
    [
        ("masyu/random-few-5x6-3", True),
        ("superslitherlink/random-5x3-1", True),
        ("sudoku/random-9x9-boxes-4holes", False),
        ("masyu/random-few-4x4-4", False),
    ],
)
def test_moving_to_the_compiled_tier_mid_search_changes_nothing(monkeypatch, name, loop):
    problem = golden_problem(f"{name}.dlx")
    monkeypatch.setattr(backend, "INTERPRETED_SECONDS", 0)
    whole = solve_dlx(problem, loop=loop)
    assert whole.stats["kernel"] == "compiled"
    # A few nodes interpreted, then the rest compiled (as in a process that has not loaded
    # the compiled kernel yet).
    as_a_fresh_process(monkeypatch)
    monkeypatch.setattr(backend, "INTERPRETED_SECONDS", 1e-9)
    monkeypatch.setattr(backend, "FIRST_BUDGET_INTERPRETED", 3)
    moved = solve_dlx(problem, loop=loop)
    assert moved.stats["kernel"] == "compiled" and moved.stats["nodes"] > 3
    assert moved.solutions == whole.solutions and moved.count == whole.count > 0
    for key in ("nodes", "updates"):
        assert moved.stats[key] == whole.stats[key]
    # And all of it interpreted.
    monkeypatch.setattr(backend, "INTERPRETED_SECONDS", math.inf)
    slow = solve_dlx(problem, loop=loop)
    assert slow.stats["kernel"] == "interpreted"
    assert (slow.solutions, slow.stats["nodes"]) == (whole.solutions, whole.stats["nodes"])


@pytest.mark.parametrize(
    "name",
    [
        "masyu/random-few-5x6-3",
        "slitherlink/tatham-5x5-1",
        "sudoku/tatham-9x9-1",
        "superslitherlink/random-5x3-1",  # (Algorithm M)
    ],
)
def test_the_mirrored_search_is_the_same_in_both_tiers(monkeypatch, name):
    # (auto's loop trial searches the mirrored tree compiled; the tests of its figures run
    # small problems interpreted)
    problem = golden_problem(f"{name}.dlx")
    loop = not name.startswith("sudoku")
    if loop:
        problem = problem.with_rules(SingleLoop.from_names(problem, allow_empty=True))
    runs = {}
    for tier, seconds in (("interpreted", math.inf), ("compiled", 0)):
        monkeypatch.setattr(backend, "INTERPRETED_SECONDS", seconds)
        r = backend.solve(problem, Request(keep=None), {}, mirrored=True)
        assert r.stats["kernel"] == tier and r.stats["mirrored"] and r.exhausted
        runs[tier] = (sorted(map(sorted, r.solutions)), r.stats["nodes"], r.stats["updates"])
    assert runs["interpreted"] == runs["compiled"]
    knuth = backend.solve(problem, Request(keep=None), {})
    assert runs["compiled"][0] == sorted(map(sorted, knuth.solutions))


@pytest.mark.parametrize(
    "numpy, entries, starts_compiled",
    [
        (False, backend.COMPILED_FROM_ENTRIES - 1, False),  # small: interpreted first
        (False, backend.COMPILED_FROM_ENTRIES, True),  # large: numpy imported for it
        (True, 10, True),  # numpy imported already: the load is a millisecond
    ],
)
def test_large_problems_start_compiled(monkeypatch, numpy, entries, starts_compiled):
    """With the ahead-of-time module built, a fresh process starts a search in the compiled
    tier at its first node when numpy is imported already or the problem has at least
    ``COMPILED_FROM_ENTRIES`` entries; else it runs interpreted first, for a while."""
    as_a_fresh_process(monkeypatch)
    monkeypatch.setattr(backend, "ahead_of_time_built", lambda: True)
    monkeypatch.setattr(backend, "_numpy_imported", lambda: numpy)
    seconds = backend.interpreted_seconds("search_c", "int16", entries)
    assert (seconds == 0) == starts_compiled
    assert backend._starts_compiled("C", entries) == starts_compiled
    # Without the module (numba's JIT: a few tenths of a second to load) size changes nothing.
    monkeypatch.setattr(backend, "ahead_of_time_built", lambda: False)
    assert backend.interpreted_seconds("search_c", "int16", entries) > 0


def test_only_the_needed_jit_kernel_is_loaded():
    """Without the ahead-of-time module (``DLXSAT_AOT=0``), a fresh process that solves an XCC
    problem compiled has numba load Algorithm C's kernel for int16 arrays and nothing else."""
    code = (
        "import math, dlxsat.backends.dlx as b\n"
        "from dlxsat.xcc import parse\n"
        "b.INTERPRETED_SECONDS = 0\n"
        "r = b.solve(parse('a b | x\\na b x:0\\nb x:1\\na\\n'), b.Request(), {})\n"
        "from dlxsat.backends.dlx import jit\n"
        "loaded = {n: len(d.signatures) for n, d in jit._DISPATCHERS.items()}\n"
        "print(r.count, r.stats['kernel'], r.stats['arrays'], loaded)\n"
    )
    env = {**os.environ, "DLXSAT_AOT": "0"}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True, env=env
    ).stdout
    want = (
        "{'search_c': 1, 'search_m': 0, 'precover': 0, 'search_given': 0, 'search_many': 0,"
        " 'probe': 0, 'probe_m': 0}"
    )
    assert out.strip() == f"2 compiled int16 {want}"


def test_cold_imports_stay_light():
    """Importing the CLI and the solver registry, and reading every solver's options, loads
    none of the heavy libraries (numba, numpy, OR-tools, pysat, networkx, pandas)."""
    code = (
        "import sys, dlxsat.cli, dlxsat.pipeline\n"
        "from dlxsat.solvers import all_options\n"
        "all_options()\n"
        "heavy = ('numba', 'numpy', 'ortools', 'pysat', 'networkx', 'pandas', 'scipy')\n"
        "print(sorted(m for m in heavy if m in sys.modules))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    ).stdout
    assert out.strip() == "[]"


def _mcc_genre_problems() -> list:
    """The MCC problems (Algorithm M) of the genres' small published puzzles with more primary
    items than ``kernel.FLAT_SCAN_ITEMS_COMPILED``, one per genre."""
    from test_genres import GENRES, _data

    import dlxsat.backends.dlx.kernel as k
    from dlxsat import formats, pipeline

    found = []
    for family in GENRES:
        for case in _data(family)["puzzles"]:
            puzzle = formats.read(family, case["problem"], "grid")
            problem = pipeline.prepare(family, puzzle).problem
            if problem.has_multiplicities and problem.n_primary > k.FLAT_SCAN_ITEMS_COMPILED:
                found.append(pytest.param(problem, id=f"{family}-{case['name']}"))
                break
    return found


def jit_namespace() -> dict:
    from dlxsat.backends.dlx import jit

    return jit.namespace(cache=False)


@pytest.mark.parametrize("mirrored", [False, True])
@pytest.mark.parametrize("problem", _mcc_genre_problems())
def test_algorithm_m_chooses_alike_by_its_list_or_a_pass_over_the_items(
    monkeypatch, problem, mirrored
):
    """Algorithm M finds the item to branch on by a pass over every primary item when there
    are many (``FLAT_SCAN_ITEMS``: compiled, above 64), by walking the active list otherwise;
    the pass reads the choice keys kept in ``ln`` when the layout has them
    (``arrays.choice_keys``), each item's bound and slack otherwise: the same item at every
    node, so the same tree and figures (its first 2,000 nodes), interpreted every way and
    compiled with and without the keys, in Knuth's order and mirrored."""
    import dlxsat.backends.dlx.arrays as arrays_module
    import dlxsat.backends.dlx.kernel as k
    from dlxsat.solvers import Request

    def search() -> tuple:
        r = backend.solve(
            problem, Request.for_mode("unique"), {}, max_nodes=2_000, mirrored=mirrored
        )
        return r.stats["kernel"], r.stats["nodes"], r.stats["updates"], r.solutions

    assert arrays_module.build(problem).aux > 0  # (the genre's bounds fit the keys)
    runs = []
    for max_bound in (arrays_module.KEY_MAX_BOUND, 0):  # with the keys, then without
        monkeypatch.setattr(arrays_module, "KEY_MAX_BOUND", max_bound)
        monkeypatch.setattr(backend, "INTERPRETED_SECONDS", math.inf)
        for flat in (0, 10**9):
            monkeypatch.setattr(k, "FLAT_SCAN_ITEMS", flat)
            runs.append(search())
        monkeypatch.setattr(backend, "INTERPRETED_SECONDS", 0)
        runs.append(search())
    assert [r[0] for r in runs] == ["interpreted", "interpreted", "compiled"] * 2
    # (the compiled tier's namespace, the ahead-of-time module's too, takes the pass)
    assert jit_namespace()["FLAT_SCAN_ITEMS"] == k.FLAT_SCAN_ITEMS_COMPILED < problem.n_primary
    assert all(r[1:] == runs[0][1:] for r in runs)
    assert runs[0][1] > 10


def _many_rules() -> list[tuple[str, int, str]]:
    """(family, puzzle, tier) for the bundled genre puzzles whose problems have two global
    rules or more (DLX checks them in turn), in both tiers but Fillomino's and Kurotto's third
    (204,942 and 17,188 nodes: compiled only)."""
    from dlxsat.pipeline import prepare

    out = []
    for family in ("cave", "fillomino", "galaxies", "kurotto", "nurikabe"):
        puzzles = json.loads((ROOT / "tests" / "data" / "genres" / f"{family}.json").read_text())
        for k, puzzle in enumerate(puzzles["puzzles"]):
            if len(prepare(family, puzzle["problem"]).problem.rules) < 2:
                continue
            tiers = ["compiled"] if (family, k) in (("fillomino", 2), ("kurotto", 2)) else TIERS
            out += [(family, k, tier) for tier in tiers]
    return out


TIERS = ["interpreted", "compiled"]


@pytest.mark.parametrize("family, k, tier", _many_rules())
def test_the_rules_checked_in_any_order_give_the_same_tree(monkeypatch, family, k, tier):
    """DLX checks a node's rules from the one that failed last (``kernel._rules_hold``), a
    choice of speed only: the problem's rules in reverse or turned round search the same tree,
    to the node and the update, and find the same answers, in either tier."""
    from dataclasses import replace

    from dlxsat.pipeline import prepare

    puzzle = json.loads((ROOT / "tests" / "data" / "genres" / f"{family}.json").read_text())
    problem = prepare(family, puzzle["puzzles"][k]["problem"]).problem
    rules = problem.rules
    monkeypatch.setattr(backend, "INTERPRETED_SECONDS", math.inf if tier == "interpreted" else 0)
    figures = set()
    for order in (rules, rules[::-1], rules[1:] + rules[:1]):
        r = solve_dlx(replace(problem, rules=order), limit=2, timeout=60)
        assert r.exhausted and r.stats["kernel"] == tier
        figures.add((r.stats["nodes"], r.stats["updates"], tuple(map(tuple, r.solutions))))
    assert len(figures) == 1
