"""The SAT backend's search inside one CaDiCaL call (``dlxsat.backends.satsearch``): DLX's
branching, answers blocked mid-search, loop cuts handed over, and a call ended from inside.

Every way of enumerating and branching must give the brute force's answers, with limits and
keeps, with and without the loop rule; the options are refused where the solver lacks the
interface; the propagator's bookkeeping follows CaDiCaL's trail; a time limit or a signal ends
a call within a few milliseconds of CaDiCaL's questions, and the process stays sound.
"""

from __future__ import annotations

import signal
import threading
import time

import pytest
from conftest import LOADED_MARGIN
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from problems import brute_force, exact_cover_problems, loop_problems

from dlxsat import InputError, parse_dlx
from dlxsat import solve_problem as _solve_problem
from dlxsat.backends import cnf
from dlxsat.backends.satsearch import TURN_CONFLICTS, ItemSearch
from dlxsat.instances import get
from dlxsat.xcc.check import solution_problem

#: Few examples each: five plans, three kinds and the loop rule make 20 tests of them, and the
#: contract suite draws 30 more for the default plan (test_search_contract.py).
SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])

#: Every way the backend can search with the propagator, and the old way for comparison.
PLANS = [
    (e, b)
    for e in ("calls", "inside")
    for b in ("solver", "items", "mixed")
    if (e, b) != ("calls", "solver")
]


def solve_problem(problem, backend="dlx", **kw):
    """The solver, every answer found kept (the tests read the answers)."""
    kw.setdefault("keep", None)
    return _solve_problem(problem, backend, **kw)


@pytest.mark.parametrize("enumerate_, branching", PLANS)
@pytest.mark.parametrize("kind", ["XC", "XCC", "MCC"])
@SETTINGS
@given(data=st.data())
def test_every_plan_gives_the_brute_forces_answers(enumerate_, branching, kind, data):
    p = data.draw(exact_cover_problems(kind))
    limit = data.draw(st.sampled_from([None, 1, 2, 3]))
    r = solve_problem(p, "sat", limit=limit, enumerate=enumerate_, branching=branching)
    everything = sorted(brute_force(p))
    assert r.stats["enumerate"] == enumerate_ and r.stats["branching"] == branching
    if limit is None:
        assert sorted(r.solutions) == everything and r.exhausted
    else:
        assert r.count == min(limit, len(everything))
        assert all(s in everything for s in r.solutions)
        assert len({tuple(s) for s in r.solutions}) == len(r.solutions)
        if len(everything) < limit:
            assert r.exhausted
        if r.exhausted:
            assert r.count == len(everything)


@pytest.mark.parametrize("enumerate_, branching", PLANS)
@SETTINGS
@given(p=loop_problems(max_rows=4, max_cols=4), allow_empty=st.booleans())
def test_loop_cuts_are_handed_over_inside_the_search(enumerate_, branching, p, allow_empty):
    r = solve_problem(
        p,
        "sat",
        loop=True,
        allow_empty_loop=allow_empty,
        enumerate=enumerate_,
        branching=branching,
    )
    assert r.exhausted
    assert sorted(r.solutions) == sorted(brute_force(p, loop=True, allow_empty_loop=allow_empty))


def test_counting_defaults_to_the_propagator_and_one_answer_to_calls():
    p = parse_dlx(get("queens").generate(6))
    counted = solve_problem(p, "sat", keep=0)
    assert counted.count == 4 and counted.exhausted
    assert (counted.stats["enumerate"], counted.stats["branching"]) == ("inside", "mixed")
    assert counted.stats["rounds"] == 1  # one solver call for every answer
    assert counted.stats["item_decisions"] > 0
    two = solve_problem(p, "sat", limit=2)
    assert (two.stats["enumerate"], two.stats["branching"]) == ("calls", "solver")
    assert "item_decisions" not in two.stats
    other = solve_problem(p, "sat", keep=0, solver="glucose4")
    assert other.count == 4 and other.stats["enumerate"] == "calls"


def test_the_pentomino_packings_that_calls_could_not_count():
    """Issue 20: SAT's count of packings collapsed (the 8 of 3 x 20 took a minute, the 1,472
    of 4 x 15 were not counted at all); DLX's branching counts these in seconds."""
    p = parse_dlx(get("pentominoes").generate(3, 20))
    r = solve_problem(p, "sat", keep=8)
    assert r.count == 8 and r.exhausted and len(set(map(tuple, r.solutions))) == 8
    assert r.stats["branching"] == "mixed"
    assert all(solution_problem(p, chosen) is None for chosen in r.solutions)


@pytest.mark.parametrize(
    "options, words",
    [
        ({"enumerate": "inside", "solver": "glucose4"}, "enumerate 'inside' needs the solver"),
        ({"branching": "items", "solver": "minisat22"}, "branching 'items' needs the solver"),
        ({"branching": "mixed", "solver": "cadical153"}, "branching 'mixed' needs the solver"),
        ({"branching": "sideways"}, "unknown branching 'sideways'"),
        ({"enumerate": "twice"}, "unknown enumerate 'twice'"),
    ],
)
def test_options_the_solver_cannot_do_are_refused(options, words):
    p = parse_dlx("a b\na\nb\na b\n")
    with pytest.raises(InputError, match=words):
        solve_problem(p, "sat", **options)


def test_the_options_on_the_command_line(cli_run, tmp_path):
    path = tmp_path / "q.dlx"
    path.write_text(get("queens").generate(6))
    rc, out, err = cli_run(
        ["solve", "xcc", path, "--backend", "sat", "--count", "--branching", "items", "--json"]
    )
    assert rc == 0, err
    assert '"branching": "items"' in out and '"count": 4' in out
    rc, out, err = cli_run(["solve", "xcc", path, "--backend", "sat", "--enumerate", "nope"])
    assert rc == 2 and out == "" and "unknown enumerate 'nope'" in err


# ---------------------------------------------------------------- ending a call


def _long_count():
    """A count that takes SAT many seconds: the 4 x 15 packings."""
    return parse_dlx(get("pentominoes").generate(4, 15))


def test_a_time_limit_ends_the_one_call():
    p = _long_count()
    start = time.monotonic()
    r = solve_problem(p, "sat", keep=0, timeout=0.5)
    took = time.monotonic() - start
    assert r.timed_out and not r.exhausted
    assert r.stats["rounds"] == 1
    assert (r.count or 0) < 1472
    assert took < 0.5 + LOADED_MARGIN  # (it ends within milliseconds; the bound is for load)


#: The program of the signal test: a SAT count that runs for many seconds, SIGINT sent from
#: another thread 0.05 s after the search's first decision (inside the call however long the
#: build takes on a loaded machine), then a second, short count in the same interpreter.
SIGNAL_PROGRAM = """
import signal, sys, threading, time
from dlxsat import parse_dlx, solve_problem
from dlxsat.backends.satsearch import ItemSearch
from dlxsat.instances import get

# (Python's own handler: a shell starts background jobs with SIGINT ignored, and this process
# would inherit that)
signal.signal(signal.SIGINT, signal.default_int_handler)
timer = threading.Timer(0.05, signal.raise_signal, (signal.SIGINT,))
decide = ItemSearch.decide

def first_decision_starts_the_timer(self):
    if not timer.is_alive() and not timer.finished.is_set():
        timer.start()
    return decide(self)

ItemSearch.decide = first_decision_starts_the_timer
start = time.monotonic()
try:
    r = solve_problem(parse_dlx(get("pentominoes").generate(4, 15)), "sat", keep=0)
except KeyboardInterrupt:
    print("interrupted", round(time.monotonic() - start, 3))
else:
    print("not interrupted", r.count, r.timed_out)
    sys.exit(1)
ItemSearch.decide = decide
again = solve_problem(parse_dlx(get("queens").generate(6)), "sat", keep=0)
print("again", again.count, again.exhausted)
"""


def test_a_signal_ends_the_call_then_reaches_its_handler():
    """SIGINT during the call: held while CaDiCaL runs Python callbacks (a jump out of one
    would break the interpreter), the call ended from inside, then KeyboardInterrupt raised
    by Python's own handler; the process goes on soundly. In a fresh interpreter, as a library
    caller has it (with Python's SIGINT handler set: run from a background job, the suite's
    processes inherit SIGINT ignored)."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", SIGNAL_PROGRAM],
        capture_output=True,
        text=True,
        timeout=60 + LOADED_MARGIN,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.split("\n")
    assert lines[0].startswith("interrupted") and lines[1] == "again 4 True", done.stdout


def test_an_ignored_signal_does_not_end_the_call(monkeypatch):
    # A process that ignores SIGINT (a background job) keeps counting through one: the call
    # ends at its time limit, not at the signal. (Before, holding the signals swapped its own
    # handler in for the ignored one and stopped the search at once: count 0.)
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    timer = threading.Timer(0.05, signal.raise_signal, (signal.SIGINT,))
    decide = ItemSearch.decide

    def first_decision_starts_the_timer(self):
        if not timer.is_alive() and not timer.finished.is_set():
            timer.start()
        return decide(self)

    monkeypatch.setattr(ItemSearch, "decide", first_decision_starts_the_timer)
    try:
        start = time.monotonic()
        r = solve_problem(_long_count(), "sat", keep=0, timeout=1.0)
        took = time.monotonic() - start
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, old)
    assert timer.finished.is_set() and r.timed_out and not r.exhausted
    assert took >= 1.0  # it searched on to the limit (the old code stopped at the signal)


# ---------------------------------------------------------------- the bookkeeping


def test_the_counts_follow_assignments_levels_and_backtracks():
    # items a b c; options 1: a b, 2: c, 3: a, 4: b c
    search = ItemSearch([[0, 1], [2], [0], [1, 2]], [1, 1, 1], lambda m: None, branching="items")
    assert search.free == [2, 2, 2] and search.need == [1, 1, 1]
    assert search.decide() == 1  # item a (first of the fewest), its first option
    search.on_new_level()
    search.on_assignment(1)  # option 1 chosen: a and b covered
    search.on_assignment(-3)
    search.on_assignment(-4)
    assert search.need == [0, 0, 1] and search.free == [0, 0, 1]
    assert search.decide() == 2  # c is left, with option 2
    search.on_new_level()
    search.on_assignment(-2, fixed=False)
    search.on_assignment(-3, fixed=True)  # a root fact told while deeper: kept
    search.on_backtrack(0)
    assert search.levels == [] and search.trail == [-3]
    assert search.need == [1, 1, 1] and search.free == [1, 2, 2]
    assert search.decide() == 1


def test_mixed_branching_takes_turns_when_answers_stop():
    search = ItemSearch([[0], [0]], [1], lambda m: None, branching="mixed")
    assert search.decide() == 1  # DLX's turn
    search.backtracks = TURN_CONFLICTS
    assert search.decide() == 0  # CaDiCaL's turn
    search.backtracks = 2 * TURN_CONFLICTS
    assert search.decide() == 1 and search.turn == 2 * TURN_CONFLICTS  # DLX's, longer
    search.backtracks = 4 * TURN_CONFLICTS
    assert search.decide() == 0
    search.check_model([1, -2])  # an answer: DLX's turns afresh
    assert search.decide() == 1 and search.turn == TURN_CONFLICTS
    solver_only = ItemSearch([[0], [0]], [1], lambda m: None, branching="solver")
    assert solver_only.decide() == 0


def test_the_default_encoding_is_unchanged_by_the_plan():
    """The plan changes how the solver searches, not the formula (DIMACS export, stats)."""
    p = parse_dlx(get("queens").generate(6))
    counted = solve_problem(p, "sat", keep=0)
    found = solve_problem(p, "sat", limit=1)
    assert counted.stats["clauses"] == found.stats["clauses"] == len(cnf.build(p).clauses)
