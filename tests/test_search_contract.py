"""The contract every search solver keeps (``dlxsat.solvers.search_solvers()``: dlx, sat, cpsat,
portfolio; and ``brute``, a backend of the tests registered here alone).

One suite, parametrized over the solvers of the registry and over what each declares (its loop
modes, its color modes), so a new search solver is tested by being registered: the same answers
as an obviously correct brute force on random problems, with and without the single-loop rule;
Knuth's counts on every golden case; ``limit`` and ``keep``; options it does not take, values
it does not allow and bad limits refused with an :class:`InputError`; a time limit that stops
it cleanly with the figures so far. What only one solver has (SAT encodings and solvers,
CP-SAT workers, the DLX kernels' node counts) is tested in its own file.
"""

from __future__ import annotations

import importlib
import time

import pytest
from conftest import LOADED_MARGIN, golden_cases, golden_count_runs, golden_problem
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from problems import brute_force, exact_cover_problems, loop_problems

from dlxsat import solvers
from dlxsat.errors import InputError
from dlxsat.solvers import SolverSpec, search_solvers, solve_problem
from dlxsat.xcc import Item, Problem, parse
from dlxsat.xcc.loop import is_single_cycle, used_edges
from dlxsat.xcc.names import parse_point_name

SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])

#: Search solvers registered by these tests alone. ``brute`` (tests/brute_solver.py) shows that a
#: new search backend is one module and one registry line: the whole contract runs on it.
TEST_SOLVERS = {"brute": "brute_solver"}
#: ... except the golden cases, too large for its exhaustive search.
SMALL_ONLY = {"brute"}

SOLVERS = search_solvers() + list(TEST_SOLVERS)


@pytest.fixture(autouse=True)
def registered(monkeypatch):
    """The test solvers in the registry, for as long as a test runs (one line each)."""
    for name, module in TEST_SOLVERS.items():
        monkeypatch.setitem(solvers.SOLVERS, name, module)


def spec(name: str) -> SolverSpec:
    """Solver ``name``'s spec, the test solvers' too (read before they are registered)."""
    return importlib.import_module(TEST_SOLVERS.get(name) or solvers.SOLVERS[name]).SPEC


def options_of(name: str):
    return spec(name).options


#: The solvers that search themselves. A portfolio races these (its answers are theirs, checked
#: on every random problem and golden case here) in worker processes, so it keeps the rest of
#: the contract -- limits, refusals, time limits, small cases -- but is spared the hundreds of
#: races the agreement tests would start (some 15 s); test_portfolio.py tests its races.
SEARCHING = [s for s in SOLVERS if s != "portfolio"]


def declared(name: str, option: str) -> tuple[str, ...]:
    """The choices solver ``name`` declares for ``option`` (its python name), or ()."""
    return next((o.choices for o in options_of(name) if o.name == option), ())


#: (solver, loop mode): every loop mode each solver declares (None: it has just one way).
LOOP_MODES = [
    pytest.param(s, m, id=f"{s}-{m}" if m else s)
    for s in SOLVERS
    for m in declared(s, "loop_mode") or (None,)
]
SEARCHING_LOOP_MODES = [p for p in LOOP_MODES if p.values[0] in SEARCHING]


def run(name: str, problem: Problem, **kw):
    """Solve, leaving out the options given as None (so a solver without them is asked too):
    the request and the options are checked once, against the solver's spec, as every caller's
    are (dlxsat.solvers.solve_problem)."""
    given = {k: v for k, v in kw.items() if v is not None}
    given.setdefault("keep", None)  # (the tests read the answers: every one found is kept)
    return solve_problem(problem, name, **given)


def colors_for(name: str, data) -> str | None:
    """A color mode the solver declares, drawn by hypothesis; None if it declares none."""
    modes = declared(name, "colors")
    return data.draw(st.sampled_from(modes)) if modes else None


def all_solutions(name: str, problem: Problem, **kw):
    r = run(name, problem, **kw)
    assert r.exhausted and not r.timed_out
    assert r.count == len(r.solutions)
    assert all(s == sorted(s) for s in r.solutions)
    return sorted(r.solutions), r


# ---------------------------------------------------------------- brute-force agreement


@pytest.mark.parametrize("name", SEARCHING)
@pytest.mark.parametrize("kind", ["XC", "XCC", "MCC"])
@SETTINGS
@given(data=st.data())
def test_same_solutions_as_brute_force(name, kind, data):
    p = data.draw(exact_cover_problems(kind))
    colors = colors_for(name, data)
    got, r = all_solutions(name, p, colors=colors)
    assert got == sorted(brute_force(p))
    if colors:
        assert r.stats["colors"] == colors


@pytest.mark.parametrize("name, mode", SEARCHING_LOOP_MODES)
@pytest.mark.parametrize("allow_empty", [True, False])
@SETTINGS
@given(p=loop_problems(max_rows=4, max_cols=4), data=st.data())
def test_loop_rule_same_solutions_as_brute_force(name, mode, allow_empty, p, data):
    kw = {"loop_mode": mode, "colors": colors_for(name, data)}
    got, r = all_solutions(name, p, loop=True, allow_empty_loop=allow_empty, **kw)
    assert got == sorted(brute_force(p, loop=True, allow_empty_loop=allow_empty))
    for chosen in got:
        edges = used_edges(p, chosen)
        assert is_single_cycle(edges) or (allow_empty and not edges)
    if mode:
        assert r.stats["loop_mode"] == mode
        if mode != "lazy":  # complete encodings need no cuts
            assert r.stats["cuts"] == 0


@pytest.mark.parametrize("name, mode", SEARCHING_LOOP_MODES)
@SETTINGS
@given(p=loop_problems(max_rows=3, max_cols=4), limit=st.integers(1, 3), keep=st.integers(0, 2))
def test_limit_and_keep(name, mode, p, limit, keep):
    everything = brute_force(p, loop=True)
    r = run(name, p, loop=True, limit=limit, keep=keep, loop_mode=mode)
    assert r.count == min(limit, len(everything))
    assert len(r.solutions) == min(keep, r.count)
    assert all(s in everything for s in r.solutions)
    assert all(s == sorted(s) for s in r.solutions)
    if len(everything) < limit:
        assert r.exhausted


@pytest.mark.parametrize("name", SOLVERS)
def test_limits_on_a_small_case(name):
    p = parse("a b\na\nb\na b\n")  # two solutions
    r = run(name, p, limit=0)
    assert r.count == 0 and r.solutions == []
    r = run(name, p, keep=0)
    assert (r.count, r.solutions, r.exhausted) == (2, [], True)
    r = run(name, p, limit=1)
    assert r.count == 1 and r.solutions[0] in ([0, 1], [2])
    r = run(name, p, keep=1)
    assert (r.count, len(r.solutions), r.exhausted) == (2, 1, True)


# ---------------------------------------------------------------- golden counts


GOLDEN_RUNS = golden_count_runs()


def test_golden_runs_cover_every_case():
    assert len(GOLDEN_RUNS) >= 60
    assert {p.values[0] for p in GOLDEN_RUNS} == {
        c["dlx"] for c in golden_cases(ok_only=True) if c.get("dlx")
    }


# The DLX backend's golden counts, with Knuth's node counts too, are in test_dlx.py.
@pytest.mark.parametrize("name", [s for s in SEARCHING if s != "dlx" and s not in SMALL_ONLY])
@pytest.mark.parametrize("dlx, loop, count", GOLDEN_RUNS)
def test_golden_counts(name, dlx, loop, count):
    p = golden_problem(dlx)
    r = run(name, p, loop=loop, allow_empty_loop=True, keep=0)
    assert (r.count, r.exhausted) == (count, True)


#: Loop modes other than each solver's default, on the golden loop cases with few answers.
OTHER_LOOP_MODES = [
    pytest.param(s, m, id=f"{s}-{m}")
    for s in SOLVERS
    for o in options_of(s)
    if o.name == "loop_mode"
    for m in o.choices
    if m != o.default
]
#: Knuth's answer of each golden case with exactly one, by its DLX file.
KNUTHS_ANSWER = {
    c["dlx"]: sorted(parse_point_name(n) for n in c["solution_edges"])
    for c in golden_cases(ok_only=True)
    if "solution_edges" in c
}


@pytest.mark.parametrize("name, mode", OTHER_LOOP_MODES)
@pytest.mark.parametrize(
    "dlx, loop, count", [p for p in GOLDEN_RUNS if p.values[1] and p.values[2] < 200]
)
def test_golden_loop_counts_other_modes(name, mode, dlx, loop, count):
    p = golden_problem(dlx)
    r = run(name, p, loop=True, allow_empty_loop=True, loop_mode=mode)
    assert (r.count, r.exhausted) == (count, True)
    if dlx in KNUTHS_ANSWER:  # ... and the one answer is Knuth's
        assert [used_edges(p, s) for s in r.solutions] == [KNUTHS_ANSWER[dlx]]


#: (solver, its default loop mode); the other modes' answers are checked just above. (The DLX
#: backend's: test_dlx.py, test_golden_unique_loop_is_knuths.)
DEFAULT_LOOP_MODES = [
    pytest.param(s, next((o.default for o in options_of(s) if o.name == "loop_mode"), None), id=s)
    for s in SEARCHING
    if s != "dlx" and s not in SMALL_ONLY
]


@pytest.mark.parametrize("name, mode", DEFAULT_LOOP_MODES)
def test_golden_unique_answers_are_knuths(name, mode):
    extra = {"workers": 2} if "workers" in {o.name for o in options_of(name)} else {}
    assert len(KNUTHS_ANSWER) >= 10
    for dlx, want in KNUTHS_ANSWER.items():
        p = golden_problem(dlx)
        r = run(name, p, loop=True, allow_empty_loop=False, limit=2, loop_mode=mode, **extra)
        assert r.count == 1 and r.exhausted, dlx
        assert used_edges(p, r.solutions[0]) == want, dlx


@pytest.mark.parametrize("name, mode", LOOP_MODES)
def test_empty_loop_counted_only_when_allowed(name, mode):
    p = golden_problem("masyu/empty-2x2.dlx")
    assert run(name, p, loop=True, allow_empty_loop=True, loop_mode=mode).count == 2
    r = run(name, p, loop=True, allow_empty_loop=False, loop_mode=mode)
    assert r.count == 1 and len(used_edges(p, r.solutions[0])) == 4


@pytest.mark.parametrize("name, mode", LOOP_MODES)
def test_no_possible_edge_means_no_loop(name, mode):
    # Vertices but no option puts an edge on: only the empty set, and that only if allowed.
    p = parse("00 02 | 01\n00 01:0\n02 01:0\n")
    assert run(name, p, loop=True, allow_empty_loop=True, loop_mode=mode).count == 1
    assert run(name, p, loop=True, allow_empty_loop=False, loop_mode=mode).count == 0


@pytest.mark.parametrize("name", SOLVERS)
def test_unsatisfiable_bounds(name):
    assert run(name, parse("3|a\na\na\n")).count == 0  # at least 3 of 2 options
    assert run(name, parse("a b\nb\n")).count == 0  # a has no option
    assert run(name, parse("0:1|a b\nb\n")).count == 1


# ---------------------------------------------------------------- refusals

LOOP_PROBLEM = "00 02 | 01\n00 01:1\n02 01:1\n"


def foreign_options(name: str) -> set[str]:
    """The options other solvers declare and ``name`` does not."""
    own = {o.name for o in options_of(name)}
    return {o.name for other in SOLVERS for o in options_of(other)} - own


@pytest.mark.parametrize("name", SOLVERS)
def test_options_it_does_not_take_are_refused(name):
    p = parse(LOOP_PROBLEM)
    with pytest.raises(InputError, match="option 'frobnicate'"):
        run(name, p, frobnicate=1)
    for option in foreign_options(name):
        with pytest.raises(InputError, match=f"option.* '{option}'") as err:
            run(name, p, loop=True, **{option: "x"})
        assert "\n" not in str(err.value)


@pytest.mark.parametrize("name", SOLVERS)
def test_values_it_does_not_allow_are_refused(name):
    p = parse(LOOP_PROBLEM)
    for o in options_of(name):
        if o.choices:
            with pytest.raises(InputError, match=f"unknown .*'no-such-{o.key}'"):
                run(name, p, loop=True, **{o.name: f"no-such-{o.key}"})


@pytest.mark.parametrize("name", SOLVERS)
@pytest.mark.parametrize(
    "kw, message",
    [
        ({"limit": -1}, "solution limit must not be negative"),
        ({"keep": -1}, "to keep must not be negative"),
        ({"timeout": 0}, "time limit must be positive"),
    ],
)
def test_bad_limits(name, kw, message):
    with pytest.raises(InputError, match=message):
        run(name, parse(LOOP_PROBLEM), **kw)


@pytest.mark.parametrize("name", [s for s in SOLVERS if declared(s, "loop_mode")])
def test_loop_mode_needs_the_loop_rule(name):
    for mode in declared(name, "loop_mode"):
        with pytest.raises(InputError, match="only with the single-loop rule"):
            run(name, parse(LOOP_PROBLEM), loop_mode=mode)


@pytest.mark.parametrize("name", [s for s in SOLVERS if declared(s, "loop_mode")])
def test_other_solvers_loop_modes_are_refused_by_name(name):
    for other in SOLVERS:
        for mode in set(declared(other, "loop_mode")) - set(declared(name, "loop_mode")):
            with pytest.raises(InputError, match=f"'{mode}' is for the {other} backend; {name}"):
                run(name, parse(LOOP_PROBLEM), loop=True, loop_mode=mode)


# ---------------------------------------------------------------- time limits


@pytest.mark.parametrize("name", [s for s in SOLVERS if s not in SMALL_ONLY])
def test_timeout_while_enumerating(name):
    # (brute's first answer here takes 2^30 steps: too large for it, as the golden cases are)
    # 2^30 solutions: enumeration can't finish, answers come quickly.
    items = [Item(f"p{i}") for i in range(30)]
    options = [((i, None),) for i in range(30) for _ in range(2)]
    problem = Problem(items, options)
    run(name, problem, limit=1)  # compile or load first (the DLX kernels)
    start = time.monotonic()
    # (The portfolio starts its members' processes within its limit: on a busy machine 0.3 s
    # may pass before one has found six answers.)
    r = run(name, problem, timeout=3.0 if name == "portfolio" else 0.3, keep=5)
    assert r.timed_out and not r.exhausted
    assert r.count > 5 and len(r.solutions) == 5
    # 11.8 s for dlx with both cores busy (loading its kernels); unbounded: hours (issue 18).
    assert time.monotonic() - start < LOADED_MARGIN
