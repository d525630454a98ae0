"""The portfolio backend: the first complete answer wins, checked; disagreements are errors; no
worker process outlives a call -- after an answer, a time limit, an error, Ctrl-C or SIGTERM.

Misbehaving members come from ``portfolio_fakes`` (a test-only backend registered in the solver
registry under the name ``fake``; the spawned workers import it by module path).
"""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import subprocess
import sys
import time

import pytest
from conftest import ROOT, as_foreground

import dlxsat
from dlxsat import solvers
from dlxsat.backends import portfolio
from dlxsat.errors import Disagreement, InputError, RuleViolation, SolverFailure
from dlxsat.result import SearchResult, status_of
from dlxsat.solvers import solve_problem
from dlxsat.xcc import parse
from dlxsat.xcc.check import solution_problem
from dlxsat.xcc.rules import SingleLoop

#: Two solutions: {a b, c} and {a, b c}.
TWO = parse("a b c\na b\nc\na\nb c\n")
#: One solution: {a, b}.
SUDOKU = (ROOT / "puzzles" / "sudoku" / "tatham-9x9-1.txt").read_text()


@pytest.fixture(autouse=True)
def fake_member(monkeypatch):
    monkeypatch.setitem(solvers.SOLVERS, "fake", "portfolio_fakes")


def children() -> set[int]:
    """The processes whose parent is this one (zombies included), leaving out multiprocessing's
    resource tracker and fork server: one per process, started by the first use of
    multiprocessing (of its fork server), not workers."""
    me, found = os.getpid(), set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                cmdline = f.read()
        except (OSError, IndexError):
            continue
        if ppid == me and b"resource_tracker" not in cmdline and b"forkserver" not in cmdline:
            found.add(int(entry))
    return found


@pytest.fixture
def no_workers_left():
    """Asserts, after the test, that every worker it started is gone and reaped."""
    before = children()
    yield
    assert multiprocessing.active_children() == []
    assert children() - before == set()


def race(problem=TWO, **kwargs):
    """The portfolio, with the request and its options checked as every caller's are."""
    kwargs.setdefault("keep", None)  # (the tests read the answers: every one found is kept)
    return solve_problem(problem, "portfolio", **kwargs)


@pytest.mark.parametrize("method", ["fork", "forkserver", "spawn"])
def test_first_complete_answer_wins_over_a_member_that_never_answers(
    method, monkeypatch, no_workers_left
):
    monkeypatch.setattr(portfolio, "START_METHOD", method)
    start = time.monotonic()
    r = race(members="fake:act=sleep,sat", limit=None)
    assert time.monotonic() - start < 20  # the sleeper would take 600 s
    assert r.count == 2 and r.exhausted and not r.timed_out
    assert sorted(r.solutions) == [[0, 1], [2, 3]]
    assert r.stats["winner"] == "sat"
    assert r.stats["members"]["sat"]["status"] == "won"
    assert r.stats["members"]["fake:act=sleep"]["status"] == "stopped"
    assert r.stats["members"]["sat"]["seconds"] > 0
    assert r.stats["start_method"] == method


def test_a_worker_stopped_while_starting_runs_no_handler_of_ours(
    monkeypatch, tmp_path, no_workers_left
):
    """SIGTERM is blocked from before the fork until a worker has set its own handlers: one
    that comes meanwhile ends the worker quietly instead of running this process's handler in
    it (which printed a traceback of guard.Interrupted when ``compare`` ran the portfolio)."""
    monkeypatch.setattr(portfolio, "START_METHOD", "fork")
    marker = tmp_path / "handler-ran"
    real = portfolio._member_main

    def slow_start(*args):
        if multiprocessing.current_process().name == "dlxsat-dlx":
            time.sleep(1.0)  # still starting when sat has won and the portfolio stops it
        real(*args)

    monkeypatch.setattr(portfolio, "_member_main", slow_start)
    old = signal.signal(signal.SIGTERM, lambda *_: marker.write_text(str(os.getpid())))
    try:
        r = race(members="sat,dlx", limit=None)
    finally:
        signal.signal(signal.SIGTERM, old)
    assert r.stats["winner"] == "sat" and r.stats["members"]["dlx"]["status"] == "stopped"
    assert not marker.exists()


@pytest.mark.parametrize("spawned", [False, True])
def test_the_start_up_guard_is_the_programs_not_a_spawned_members(spawned):
    """A spawned member is given the program's ``sys.argv`` (``.../dlxsat``) before it imports
    dlxsat; only the program itself installs the start-up guard (whose message, from a member
    stopped while starting, was printed on the user's terminal)."""
    code = (
        "import signal, sys; sys.argv = ['/usr/bin/dlxsat', 'solve']; import dlxsat; "
        "print(signal.getsignal(signal.SIGTERM) is signal.SIG_DFL)"
    )
    extra = ["--multiprocessing-fork"] if spawned else []
    out = subprocess.run(
        [sys.executable, "-c", code, *extra], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == str(spawned)


def test_fork_only_when_single_threaded_else_the_fork_server(monkeypatch):
    import threading

    monkeypatch.setattr(portfolio, "START_METHOD", "auto")
    # Earlier tests may have left threads (OR-tools keeps some), so ask /proc how many there are.
    single = len(os.listdir("/proc/self/task")) == 1
    assert portfolio.start_method() == ("fork" if single else "forkserver")
    stop = threading.Event()
    helper = threading.Thread(target=stop.wait)
    helper.start()
    try:
        assert portfolio.start_method() == "forkserver"
    finally:
        stop.set()
        helper.join()


def test_a_process_with_threads_forks_its_members_through_the_fork_server(
    monkeypatch, no_workers_left
):
    """Another thread (a library's pool, pytest-xdist's) rules out a plain fork; the fork server
    forks the members instead of spawning them, and a second race reuses it."""
    import threading

    monkeypatch.setattr(portfolio, "START_METHOD", "auto")
    stop = threading.Event()
    helper = threading.Thread(target=stop.wait)
    helper.start()
    try:
        for _ in range(2):
            r = race(members="sat,fake:act=sleep", limit=None)
            assert r.stats["start_method"] == "forkserver"
            assert r.count == 2 and r.stats["winner"] == "sat"
            assert r.stats["members"]["sat"]["start_seconds"] is not None
    finally:
        stop.set()
        helper.join()


def test_the_cli_forks_its_members(tmp_path):
    """The dlxsat program's watchdog thread is paused while members start: they are forked
    (they were spawned, at ten times the cost), and none is left after the run."""
    puzzle = ROOT / "puzzles" / "masyu" / "tatham-10x10.txt"
    r = subprocess.run(
        [sys.executable, "-m", "dlxsat", "solve", "masyu", str(puzzle), "--backend", "portfolio"]
        + ["--json"],
        capture_output=True,
        env=dict(os.environ, PYTHONPATH=str(ROOT / "src")),
        timeout=120,
        check=True,
    )
    data = json.loads(r.stdout)
    assert data["status"] == "unique" and r.stderr == b""
    assert data["stats"]["start_method"] == "fork"


def test_time_limit_stops_members_that_ignore_it(no_workers_left):
    start = time.monotonic()
    r = race(members="fake:act=timeout,fake:act=stubborn", timeout=0.5)
    took = time.monotonic() - start
    assert r.timed_out and status_of("unique", r) == "timeout" and r.count == 0
    assert took < 0.5 + portfolio.TIMEOUT_GRACE + portfolio.STOP_GRACE + 5
    members = r.stats["members"]
    assert members["fake:act=timeout"]["status"] == "timeout"
    assert members["fake:act=stubborn"]["status"] == "stopped"  # killed: it ignores SIGTERM


def test_disagreeing_count_is_an_error(no_workers_left):
    with pytest.raises(
        Disagreement, match="sat found 2 solutions in all, fake:act=miscount found 1"
    ):
        race(members="sat,fake:act=miscount", confirm=2)


def test_a_non_solution_is_never_returned(no_workers_left):
    with pytest.raises(RuleViolation, match=r"fake:act=nonsolution returned options \[0\]"):
        race(members="fake:act=nonsolution,fake:act=sleep")


def test_a_solution_counted_twice_is_never_returned(no_workers_left):
    with pytest.raises(RuleViolation, match="same solution twice"):
        race(members="fake:act=twice,fake:act=sleep")


def test_confirm_waits_for_agreement(no_workers_left):
    r = race(members="sat,fake:act=right,dlx", confirm=2, limit=None)
    statuses = sorted(m["status"] for m in r.stats["members"].values())
    assert statuses[:2] == ["agreed", "stopped"] or statuses == ["agreed", "agreed", "won"]
    assert "won" in statuses and r.count == 2


def test_crashed_members_do_not_stop_the_others(no_workers_left):
    r = race(members="fake:act=crash,fake:act=exit,fake:act=late")
    assert r.stats["winner"] == "fake:act=late" and r.count == 2
    members = r.stats["members"]
    assert members["fake:act=crash"]["status"] == "failed: ZeroDivisionError: fake member crashed"
    assert members["fake:act=exit"]["status"] == "died: exit status 7"


def test_no_member_left_is_a_failure(no_workers_left):
    with pytest.raises(SolverFailure, match="fake:act=crash failed.*fake:act=exit died"):
        race(members="fake:act=crash,fake:act=exit")
    with pytest.raises(SolverFailure, match="needs 2"):
        race(members="fake:act=crash,sat", confirm=2)


def test_a_member_rejecting_its_options_is_an_input_error(no_workers_left):
    with pytest.raises(InputError, match="portfolio member 'cpsat:loop=lazy': a loop mode applies"):
        race(members="cpsat:loop=lazy,fake:act=sleep", loop=False)


@pytest.mark.parametrize(
    "members, fragment",
    [
        ("sat,logic", "not a search backend"),
        ("sat,portfolio", "not a search backend"),
        ("sat,nosuch", "not a backend"),
        ("sat,,dlx", "empty name"),
        ("sat:solver", "key=value"),
        ("sat:workers=2", r"sat does not take 'workers' \(it takes encoding, colors, solver, loop"),
        ("dlx:x=1", r"dlx does not take 'x' \(it takes ties"),
        ("sat:encoding=nosuch", "member 'sat:encoding=nosuch': unknown encoding"),
        ("sat,sat", "named twice"),
    ],
)
def test_bad_member_lists(members, fragment, no_workers_left):
    with pytest.raises(InputError, match=fragment):
        race(members=members)


def test_confirm_needs_enough_members():
    with pytest.raises(InputError, match="confirm=3 needs at least 3 members"):
        race(members="sat,dlx", confirm=3)


@pytest.mark.parametrize(
    "a, b, agree",
    [
        (SearchResult([[1]], 1, exhausted=True), SearchResult([[1]], 1, exhausted=True), True),
        (SearchResult([[1]], 1, exhausted=True), SearchResult([], 0, exhausted=True), False),
        (SearchResult([[1]], 1, exhausted=True), SearchResult([[1], [2]], 2), False),
        (SearchResult([[1], [2]], 2), SearchResult([[1], [3]], 2), True),
        (SearchResult([[1], [2]], 2, exhausted=True), SearchResult([[2]], 1), True),
        (SearchResult([[1], [2]], 2, exhausted=True), SearchResult([[3]], 1), False),
        (SearchResult([], 5, exhausted=True), SearchResult([], 5, exhausted=True), True),
        (SearchResult([[1]], 5, exhausted=True), SearchResult([[2]], 5, exhausted=True), True),
    ],
)
def test_disagreement_rules(a, b, agree):
    assert (portfolio.disagreement(a, b) is None) is agree
    assert (portfolio.disagreement(b, a) is None) is agree


def test_solution_check():
    p = parse("a b | x\na x:0\nb x:1\na b\nb x\n")
    assert solution_problem(p, [2]) is None
    assert "two colors" in solution_problem(p, [0, 1])
    assert "used twice" in solution_problem(p, [0, 3])
    assert "covered 0 times" in solution_problem(p, [0])
    assert "no option 9" in solution_problem(p, [9])
    loop = parse("00 02 | 01\n00 01:1\n02 01:1\n")
    loop = loop.with_rules(SingleLoop.from_names(loop))
    assert solution_problem(loop, [0, 1]) == (
        "rule loop: vertex 00 has 1 edges colored 1, not 0 or 2"
    )


def test_through_the_pipeline_answers_are_rule_checked(no_workers_left):
    r = dlxsat.solve("sudoku", SUDOKU, backend="portfolio", members="sat,dlx")
    assert r.status == "unique" and r.backend == "portfolio"
    assert r.solutions[0]["grid"][0] == "268357419"
    assert r.stats["winner"] in ("sat", "dlx")


# --------------------------------------------------------------------------- the command line

#: A Sudoku with no clues: counting its answers never ends, so a run is still going when the
#: signal comes.
EMPTY = "\n".join(
    ["." * 9] * 9 + ["".join(str(3 * (r // 3) + c // 3) for c in range(9)) for r in range(9)]
)


def cli_children(pid: int) -> set[int]:
    """The children of process ``pid`` (all its threads'; a thread that ends while they are
    read has none)."""
    found: set[int] = set()
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/children") as f:
                found.update(int(c) for c in f.read().split())
        except FileNotFoundError:
            continue
    return found


def is_tracker(pid: int) -> bool:
    """Whether ``pid`` is multiprocessing's resource tracker (a process that is gone is not)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return b"resource_tracker" in f.read()
    except OSError:
        return False


def gone(pids: set[int], within: float = 5.0) -> bool:
    end = time.monotonic() + within
    while time.monotonic() < end:
        if not any(os.path.exists(f"/proc/{p}") for p in pids):
            return True
        time.sleep(0.05)
    return False


def signalled_run(tmp_path, sig: int) -> tuple[int, str, str, set[int]]:
    """Start ``dlxsat solve --backend portfolio`` on a never-ending count, send ``sig`` once its
    two workers run, and return (exit status, stdout, stderr, the workers' pids)."""
    puzzle = tmp_path / "empty.txt"
    puzzle.write_text(EMPTY + "\n")
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    proc = subprocess.Popen(
        [sys.executable, "-m", "dlxsat", "solve", "sudoku", str(puzzle), "--count"]
        + ["--backend", "portfolio", "--members", "sat,sat:solver=glucose4"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        preexec_fn=as_foreground,
    )
    try:
        workers: set[int] = set()
        end = time.monotonic() + 20
        while time.monotonic() < end:
            workers = {c for c in cli_children(proc.pid) if not is_tracker(c)}
            if len(workers) == 2:
                break
            time.sleep(0.05)
        assert len(workers) == 2, "the workers did not start"
        time.sleep(0.3)  # let them get into their search
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    return proc.returncode, out.decode(), err.decode(), workers


@pytest.mark.parametrize(
    "sig, status, line",
    [
        (signal.SIGINT, 130, "dlxsat: interrupted (SIGINT) while searching"),
        (signal.SIGTERM, 143, "dlxsat: interrupted (SIGTERM) while searching"),
    ],
)
def test_cli_stopped_by_a_signal_leaves_no_worker(tmp_path, sig, status, line):
    rc, out, err, workers = signalled_run(tmp_path, sig)
    assert rc == status
    assert out == ""
    assert err.count("\n") == 1 and err.startswith(line), err
    assert gone(workers)


def test_cli_killed_leaves_no_worker(tmp_path):
    rc, out, err, workers = signalled_run(tmp_path, signal.SIGKILL)
    assert rc == -signal.SIGKILL
    assert gone(workers)  # each worker asked the kernel to kill it with its parent


def test_cli_reports_a_disagreement_with_status_4(tmp_path):
    script = (
        "import sys; sys.path.insert(0, {tests!r}); from dlxsat import solvers, cli; "
        "solvers.SOLVERS['fake'] = 'portfolio_fakes'; sys.exit(cli.main(sys.argv[1:]))"
    ).format(tests=str(ROOT / "tests"))
    puzzle = ROOT / "puzzles" / "sudoku" / "tatham-9x9-1.txt"
    proc = subprocess.run(
        [sys.executable, "-c", script, "solve", "sudoku", str(puzzle), "--backend", "portfolio"]
        + ["--members", "sat,fake:act=miscount", "--confirm", "2"],
        capture_output=True,
        text=True,
        timeout=60,
        env=dict(os.environ, PYTHONPATH=str(ROOT / "src")),
    )
    assert proc.returncode == 4
    assert proc.stdout == ""
    assert proc.stderr.startswith(
        "dlxsat: disagreement: portfolio members sat and fake:act=miscount disagree: "
        "sat found 1 solution in all, fake:act=miscount found 0"
    )
    assert proc.stderr.count("\n") == 1
