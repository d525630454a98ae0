"""The portfolio backend: several search backends race on the problem, each in its own process.

Which backend is fastest depends on the instance (a 25 x 25 Sudoku: SAT in seconds, dancing
links in minutes; many small Sudokus: the other way round), so the portfolio runs its
*members* at once on the machine's cores and takes the first complete answer -- one that the
time limit did not cut short. The others are stopped at once.

What it guarantees
    * Every solution any member returns is checked against the problem's definition
      (:func:`dlxsat.xcc.check.solution_problem`, which shares no code with the backends)
      before it is trusted: a member returning a non-solution is a bug and raises
      :class:`~dlxsat.errors.RuleViolation`.
    * Complete results that arrive together must agree
      (:func:`dlxsat.agreement.search_difference`): a different number of solutions, or a
      solution one member proved does not exist, raises :class:`~dlxsat.errors.Disagreement`.
      With ``confirm=K`` the portfolio waits for K members to finish and compares them all, a
      crosscheck at the price of the K-th slowest member.
    * No worker outlives the call: workers are stopped (SIGTERM, then SIGKILL after
      :data:`STOP_GRACE` seconds) and reaped on every way out -- an answer, the time limit, an
      error, Ctrl-C or SIGTERM (:class:`dlxsat.runtime.guard.Interrupted`, a ``BaseException``, when
      the CLI installed its handlers; :class:`KeyboardInterrupt` otherwise). On Linux each
      worker also asks the kernel to kill it when its parent dies, so even a SIGKILL of the
      parent leaves none behind. Workers ignore SIGINT: a Ctrl-C in a terminal reaches the
      whole process group, and stopping them is the parent's job.

Members
    ``members`` is a comma list of search backends, each written in the one settings grammar
    of :func:`dlxsat.solvers.parse_setting` -- ``BACKEND[:key=value[;key=value...]]``, the keys
    being the backend's declared option keys -- e.g. ``sat,dlx`` or
    ``sat:solver=glucose4,sat:solver=cadical195,cpsat:workers=1``. The same backend may appear
    with different options. Workers find their backend through the solver
    registry (:data:`dlxsat.solvers.SOLVERS`, name -> module path): the parent resolves the
    name and the worker imports the module, so a module registered there (and importable on
    ``sys.path``, which ``spawn`` hands on to its children) can be a member.

Processes
    Workers stand on :mod:`dlxsat.runtime.processes`, as ``compare``'s workers do, and are
    forked (:func:`start_method`): a fork costs a few milliseconds and the worker inherits every
    module (and compiled DLX kernel) the parent already loaded, where a spawned worker is a
    fresh interpreter that imports its backend, 0.1-0.6 s on the 2-core machine of
    ``benchmarks/portfolio.py`` (each member's ``start_seconds``). But a process with a second
    thread must not fork (a lock that thread holds stays locked in the child). So:

    * a process with one thread -- on Linux, where ``/proc/self/task`` counts native threads of
      OR-tools or numba too -- forks its workers. The ``dlxsat`` program's watchdog thread is
      paused while they start (:func:`dlxsat.runtime.processes.forking`), so the CLI's
      portfolio forks (it spawned before: 0.26 s a member against 0.024 s forked);
    * a process with other threads (a library's thread pool, pytest-xdist's worker) has them
      forked by multiprocessing's *fork server*: a single-threaded process started once, the
      first time it is needed, with this module and the members' backends loaded
      (:func:`_preload`), which then forks each worker. The first race pays for the server
      (about a spawn); the next ones start their workers in milliseconds;
    * elsewhere (not Linux) workers are spawned.

    A program that calls the portfolio must, as with any use of ``spawn`` or ``forkserver``,
    guard its own top-level code with ``if __name__ == "__main__":``; multiprocessing keeps its
    fork server and resource tracker processes until the program exits.

>>> [o.key for o in OPTIONS]
['members', 'confirm']
>>> [(m.label, m.name, m.options) for m in parse_members("sat:solver=glucose4,dlx")]
[('sat:solver=glucose4', 'sat', {'solver': 'glucose4'}), ('dlx', 'dlx', {})]
"""

from __future__ import annotations

import os
import signal
import sys
import time
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from ..errors import Disagreement, InputError, RuleViolation, SolverFailure
from ..options import Option
from ..runtime import host, processes
from ..runtime.deadline import Deadline
from ..xcc import Problem
from ..xcc.check import solution_problem
from . import Request, SearchResult, SolverSpec

NAME = "portfolio"

#: Members when none are named. ``benchmarks/portfolio.py`` (2 loaded cores, 12 runs, wall
#: time of ``dlxsat solve``, geometric mean ratio to ``sat`` alone): ``sat,dlx`` 1.70,
#: ``sat,cpsat:workers=1`` 1.92; when counting (where dancing links is 3.3 times faster than
#: SAT) ``sat,dlx`` 0.39, ``sat,cpsat`` 1.17. Only two: the machine has two cores.
DEFAULT_MEMBERS = "sat,dlx"
#: How workers are started: ``auto`` is ``fork`` when that is safe, else ``spawn`` (see the
#: module doc); ``spawn`` or ``fork`` force one.
START_METHOD = "auto"
#: Seconds a worker gets to die after SIGTERM before it is killed.
STOP_GRACE = 0.5
#: Seconds the parent waits past the time limit for members' own timed-out reports.
TIMEOUT_GRACE = 0.25

OPTIONS = (
    Option(
        "members",
        str,
        DEFAULT_MEMBERS,
        "search backends to race, comma separated, each with its options as :key=value "
        "(e.g. sat:solver=glucose4,dlx)",
        metavar="LIST",
    ),
    Option(
        "confirm",
        int,
        1,
        "members that must finish and agree before the answer is returned (1: the first one)",
        low=1,
        metavar="K",
    ),
)


def _check_team(options: dict[str, Any], rules: Collection[str] | None) -> None:
    """The members are search backends with options they take, enough to confirm."""
    team = parse_members(options.get("members", DEFAULT_MEMBERS), rules)
    confirm = options.get("confirm", 1)
    if confirm > len(team):
        raise InputError(f"confirm={confirm} needs at least {confirm} members, not {len(team)}")


SPEC = SolverSpec(
    name=NAME,
    kind="search",
    summary="several search backends at once, one process each; the first complete answer wins",
    options=OPTIONS,
    # Unmeasured: its members build their models in processes of their own, each bounded by the
    # memory limit; the parent's estimate is the largest model of any backend.
    bytes_per_entry=1600,
    validate=_check_team,
)


@dataclass
class Member:
    """One member of a portfolio: a search backend (``name``) with its ``options``; ``label`` is
    how the user wrote it, the member's name in the statistics."""

    label: str
    name: str
    options: dict[str, Any] = field(default_factory=dict)


def parse_members(text: str, rules: Collection[str] | None = None) -> list[Member]:
    """Read a ``members`` list (see the module doc); an :class:`InputError` when it is wrong
    (``rules``: the kinds of global rule the problem has, when known).

    >>> parse_members("sat:loop=eager")[0].options
    {'loop_mode': 'eager'}
    >>> parse_members("sat,logic")
    Traceback (most recent call last):
    ...
    dlxsat.errors.InputError: portfolio member 'logic' is not a search backend (choose from ...)
    """
    from ..solvers import names, parse_setting, spec_of

    searchers = [n for n in names("search") if n != NAME]
    members: list[Member] = []
    for label in (part.strip() for part in text.split(",")):
        if not label:
            raise InputError(f"empty name in the portfolio's member list {text!r}")
        name = label.partition(":")[0].strip()
        if name not in searchers:
            what = "a search backend" if name in names(None) else "a backend"
            raise InputError(
                f"portfolio member {name!r} is not {what} (choose from {', '.join(searchers)})"
            )
        try:
            _, grid = parse_setting(label)
            declared = spec_of(name).by_key()
            given = {declared[k].name: v[0] for k, v in grid.items()}
            options = spec_of(name).check(given, rules=rules)
        except InputError as e:
            raise InputError(f"portfolio member {label!r}: {e}") from None
        if any(m.label == label for m in members):
            raise InputError(f"portfolio member {label!r} named twice")
        members.append(Member(label, name, options))
    return members


def disagreement(
    a: SearchResult, b: SearchResult, names: tuple[str, str] = ("one", "the other")
) -> str | None:
    """How two complete results of one search contradict each other; None when they don't
    (:func:`dlxsat.agreement.search_difference`)."""
    from ..agreement import search_difference

    return search_difference(a, b, names)


def solve(problem: Problem, request: Request, options: Mapping[str, Any]) -> SearchResult:
    """Race the ``members`` on ``problem`` (see ``dlxsat.solvers`` for the arguments).

    Returns the first complete result (or, with ``confirm=K``, the first of K that agree),
    with ``stats``: ``winner`` (the member's label), ``members`` (label -> ``status``,
    ``seconds`` of wall time from start to report, ``start_seconds`` from start until the
    worker had its backend imported, and the member's own ``stats``), ``seconds`` (wall time
    of the whole race), ``start_method`` and ``cores``. A member's ``status`` is ``won``,
    ``agreed`` (finished, compared, agreed), ``stopped`` (still running when the race ended),
    ``timeout``, ``failed: ...`` or ``died: ...``.

    After the time limit the result has ``timed_out`` and the figures of the member that had
    found the most solutions. Raises :class:`Disagreement` when complete results disagree,
    :class:`RuleViolation` when a member returns a non-solution, :class:`InputError` when a
    member rejects its options, and :class:`SolverFailure` when too few members are left to
    give (or confirm) an answer.
    """
    team = parse_members(options.get("members", DEFAULT_MEMBERS))
    confirm = options.get("confirm", 1)
    # The members' own requests: the same, but their progress is not this process's.
    race = _Race(problem, team, replace(request, on_found=_quiet))
    try:
        race.start()
        return race.run(confirm)
    finally:
        race.stop()


def _quiet(count: int) -> None:
    """A member's progress: a worker process reports only its result."""


# --------------------------------------------------------------------------- the parent side


@dataclass
class _Runner:
    """A member's worker process, its end of the pipe and what it reported."""

    member: Member
    process: Any
    conn: Any
    started: float
    status: str = "stopped"
    seconds: float | None = None
    start_seconds: float | None = None
    result: SearchResult | None = None

    @property
    def running(self) -> bool:
        return self.result is None and self.status == "stopped"


class _Race:
    """The worker processes of one :func:`solve` call and the bookkeeping of their reports."""

    def __init__(self, problem: Problem, team: list[Member], request: Request) -> None:
        self.problem = problem
        self.team = team
        self.request = request
        self.start_time = time.monotonic()
        self.deadline = request.deadline.at
        self.runners: list[_Runner] = []
        self.method = START_METHOD

    def start(self) -> None:
        """Start one worker per member, then hand each its problem.

        SIGINT is ignored while the workers are created: a spawned interpreter inherits an
        ignored signal (not a blocked one), so a Ctrl-C typed while it boots cannot print a
        traceback from it. (A Ctrl-C in those few milliseconds is lost to the parent too.)
        """
        import multiprocessing
        import threading

        from ..solvers import SOLVERS

        # Signals held and blocked while the workers start (processes.forking): a worker
        # inherits the mask (through exec too, with spawn) and unblocks only once its own
        # handlers are set. A SIGTERM that came between the fork and that point would otherwise
        # run this process's handler in the worker (a traceback of a Stop) or dlxsat's
        # start-up message in a spawned one. The watchdog is paused, so the CLI may fork.
        with processes.forking():
            self.method = start_method()
            context = multiprocessing.get_context(self.method)
            if self.method == "forkserver":
                context.set_forkserver_preload(_preload(self.team))
            main = threading.current_thread() is threading.main_thread()
            spawned = main and self.method != "fork"
            old = signal.signal(signal.SIGINT, signal.SIG_IGN) if spawned else None
            try:
                self._start_all(context)
            finally:
                if spawned:
                    signal.signal(signal.SIGINT, old)
        # Sent only now, so the workers boot in parallel (a large problem fills the pipe, and
        # each send waits for its worker to read).
        for runner in self.runners:
            # The time left, not the instant: a member counts it from when it has booted (as
            # its own time limit), so a slow start (spawn: up to 0.6 s) does not eat it all.
            remaining = self.request.deadline.remaining()
            left = None if remaining is None else max(remaining, 0.01)
            job = (self.request, runner.member.options, left)
            try:
                runner.conn.send((SOLVERS[runner.member.name], self.problem, job))
            except (BrokenPipeError, ConnectionResetError):
                pass  # it died at start; its sentinel tells the loop in run()

    def _start_all(self, context: Any) -> None:
        """One worker per member, started with ``context``."""
        for member in self.team:
            ours, theirs = context.Pipe()
            process = context.Process(
                target=_member_main,
                # (a fork server's worker is its child, not ours: it dies with the server)
                args=(theirs, None if self.method == "forkserver" else os.getpid(), time.time()),
                name=f"dlxsat-{member.label}",
            )
            process.daemon = True  # multiprocessing's own exit handler kills it too
            process.start()
            theirs.close()
            self.runners.append(_Runner(member, process, ours, time.monotonic()))

    def run(self, confirm: int) -> SearchResult:
        """Wait for reports until ``confirm`` complete results are in, or the time is up."""
        from multiprocessing.connection import wait

        done: list[_Runner] = []
        while True:
            live = [r for r in self.runners if r.running]
            if len(done) >= confirm or not live:
                break
            if len(done) + len(live) < confirm:
                break  # not enough members left to confirm
            now = time.monotonic()
            if self.deadline is not None and now >= self.deadline + TIMEOUT_GRACE:
                break
            wait_for = None if self.deadline is None else self.deadline + TIMEOUT_GRACE - now
            ready = wait([r.conn for r in live] + [r.process.sentinel for r in live], wait_for)
            for runner in live:
                if runner.conn in ready or runner.process.sentinel in ready:
                    self._collect(runner)
                    if runner.result is not None and not runner.result.timed_out:
                        done.append(runner)
        # Take in whatever else has arrived meanwhile: results that came together are compared.
        for runner in self.runners:
            if runner.running and runner.conn.poll():
                self._collect(runner)
                if runner.result is not None and not runner.result.timed_out:
                    done.append(runner)
        return self._decide(done, confirm)

    def _collect(self, runner: _Runner) -> None:
        """Read ``runner``'s report (or learn that it died without one)."""
        try:
            kind, payload, start_seconds = runner.conn.recv()
        except (EOFError, OSError):
            runner.process.join(STOP_GRACE)
            runner.status = f"died: exit status {runner.process.exitcode}"
            return
        runner.seconds = time.monotonic() - runner.started
        runner.start_seconds = start_seconds
        if kind == "input":
            raise InputError(f"portfolio member {runner.member.label}: {payload}")
        if kind == "error":
            runner.status = f"failed: {payload}"
            return
        result: SearchResult = payload
        if len({tuple(s) for s in result.solutions}) < len(result.solutions):
            raise RuleViolation(
                f"portfolio member {runner.member.label} returned the same solution twice"
            )
        for chosen in result.solutions:
            wrong = solution_problem(self.problem, chosen)
            if wrong:
                raise RuleViolation(
                    f"portfolio member {runner.member.label} returned options {chosen}, which are "
                    f"not a solution: {wrong}"
                )
        runner.result = result
        runner.status = "timeout" if result.timed_out else "finished"

    def _decide(self, done: list[_Runner], confirm: int) -> SearchResult:
        """The answer from the complete results in ``done`` (in order of arrival)."""
        # Compared in the order the members were named, so the message does not depend on which
        # one happened to finish first.
        ordered = sorted(done, key=self.runners.index)
        first = ordered[0] if ordered else None
        for other in ordered[1:]:
            assert first is not None and first.result and other.result
            labels = (first.member.label, other.member.label)
            why = disagreement(first.result, other.result, labels)
            if why:
                raise Disagreement(f"portfolio members {labels[0]} and {labels[1]} disagree: {why}")
        if done and len(done) >= confirm:
            done[0].status = "won"
            for other in done[1:]:
                other.status = "agreed"
            answer = done[0].result
            assert answer is not None
            result = SearchResult(
                solutions=answer.solutions,
                count=answer.count,
                exhausted=answer.exhausted,
                stats=self._stats(done[0].member.label),
            )
            return result
        timed_out = self.deadline is not None and time.monotonic() >= self.deadline
        if timed_out or any(r.status == "timeout" for r in self.runners):
            partial = [r.result for r in self.runners if r.result is not None]
            best = max(partial, key=lambda r: r.count or 0, default=SearchResult(count=0))
            if done:  # fewer than ``confirm`` finished: what they found is still a partial count
                finished = [r.result for r in done if r.result is not None]
                best = max([best, *finished], key=lambda r: r.count or 0)
            return SearchResult(
                solutions=best.solutions,
                count=best.count,
                timed_out=True,
                stats=self._stats(None),
            )
        failures = "; ".join(
            f"{r.member.label} {r.status}" for r in self.runners if r.status.startswith(("f", "d"))
        )
        raise SolverFailure(
            f"the portfolio has {len(done)} complete answer{'s' if len(done) != 1 else ''}, "
            f"needs {confirm}: {failures}"
        )

    def _stats(self, winner: str | None) -> dict[str, Any]:
        members: dict[str, Any] = {}
        for r in self.runners:
            entry: dict[str, Any] = {"status": r.status}
            if r.seconds is not None:
                entry["seconds"] = round(r.seconds, 6)
            if r.start_seconds is not None:
                entry["start_seconds"] = round(r.start_seconds, 6)
            if r.result is not None:
                entry["stats"] = r.result.stats
            members[r.member.label] = entry
        return {
            "winner": winner,
            "members": members,
            "seconds": round(time.monotonic() - self.start_time, 6),
            "start_method": self.method,
            "cores": host.cores(),
        }

    def stop(self) -> None:
        """Stop and reap every worker still running; SIGINT and SIGTERM wait until it is done,
        so a second Ctrl-C cannot leave a worker behind."""
        blocked = {signal.SIGINT, signal.SIGTERM}
        old = signal.pthread_sigmask(signal.SIG_BLOCK, blocked)
        try:
            for r in self.runners:
                if r.process.is_alive():
                    r.process.terminate()
            end = time.monotonic() + STOP_GRACE
            for r in self.runners:
                r.process.join(max(end - time.monotonic(), 0))
            for r in self.runners:
                if r.process.is_alive():
                    r.process.kill()
                    r.process.join()
                r.conn.close()
                r.process.close()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, old)


def start_method() -> str:
    """How workers are started (see the module doc): :data:`START_METHOD` when it names one,
    else ``fork`` when this process has a single thread (no lock can then be held by another
    thread at the fork), ``forkserver`` when it has more, on Linux; ``spawn`` elsewhere."""
    if START_METHOD != "auto":
        return START_METHOD
    if processes.single_threaded():
        return "fork"
    return "forkserver" if sys.platform == "linux" else "spawn"


def _preload(team: list[Member]) -> list[str]:
    """What the fork server loads before it forks any worker: this module, the members'
    backends and what ``__main__`` loads (multiprocessing's default)."""
    from ..solvers import SOLVERS

    return ["__main__", __name__, *dict.fromkeys(SOLVERS[m.name] for m in team)]


# --------------------------------------------------------------------------- the worker side


def _member_main(conn: Any, parent: int | None, created: float) -> None:
    """A worker: receive (backend module, problem, arguments), solve, send one report back.

    The report is ``(kind, payload, start_seconds)``: ``("result", SearchResult, s)``,
    ``("input", message, s)`` when the backend rejects its options (the user's mistake), or
    ``("error", message, s)`` for anything else it raised. ``s`` is the time from the
    parent's creating the process (``created``, ``time.time()``) to the backend imported: the
    price of a member's start.
    """
    # A plain child (processes.become_child): a forked worker inherited the CLI's guard, whose
    # handlers and wake-up pipe are the parent's. SIGINT ignored, and blocked too: some
    # backends' C code installs its own SIGINT handler (PySAT does). SIGTERM, blocked from
    # before the fork until now, has its default action: one sent meanwhile kills it here.
    processes.become_child(os.getppid() if parent is None else parent)
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGALRM})
    try:
        module, problem, job = conn.recv()
    except EOFError:
        return
    start_seconds = time.time() - created
    try:
        import importlib

        backend = importlib.import_module(module)
        start_seconds = time.time() - created
        request, options, left = job
        request = replace(request, deadline=Deadline.after(left))
        report: tuple[Any, ...] = (
            "result",
            backend.solve(problem, request, options),
            start_seconds,
        )
    except InputError as e:
        report = ("input", str(e), start_seconds)
    except Exception as e:  # a bug in a backend: the parent reports it with the member's name
        report = ("error", f"{type(e).__name__}: {e}", start_seconds)
    try:
        conn.send(report)
    except (BrokenPipeError, ConnectionResetError):
        pass  # the parent has stopped listening
    conn.close()
