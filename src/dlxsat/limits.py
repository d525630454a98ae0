"""Hard limits on one run of dlxsat: one deadline, signals, memory, and a clean way out.

Why a process-level guard: the search backends check their deadline between solver calls, but
reading, encoding, building a model, cut rounds, decoding and printing are plain Python spread
over many modules, and some work happens inside library calls that do not return on their own
(numba kernels, a PySAT solver, OR-tools). So the run as a whole is guarded here, once:

* **Deadline.** :func:`arm_deadline` sets ``ITIMER_REAL`` to go off :data:`ALARM_GRACE`
  seconds after the deadline (the backends, given the same deadline, normally stop first and
  report their own figures); ``SIGALRM`` then raises :class:`TimeUp` in the main thread,
  wherever Python code runs.
* **Signals.** ``SIGINT`` and ``SIGTERM`` raise :class:`Interrupted`. Both are
  :class:`BaseException` subclasses, so a library's ``except Exception`` does not swallow them.
* **Watchdog.** A Python signal handler runs only between bytecodes of the main thread: not
  while a C call runs, and not at all if some library swallows the exception. So every signal
  is also written to a wake-up pipe read by a watchdog thread; if the process has not ended
  :data:`HARD_GRACE` seconds later, the watchdog prints the one line itself, removes the
  temporary files, ends the child processes and leaves with ``os._exit``. The watchdog exists
  only in a real ``dlxsat`` process (:func:`install_process_guard`), never when
  :func:`dlxsat.cli.main` is called in-process (tests), so it cannot kill a caller.
* **Figures.** :data:`progress` holds what the run has reached (phase, answers found), updated
  by the pipeline and the backends, so a stop at any moment can say how far it got.
* **Memory.** :func:`set_memory_limit` caps the process's data segment (``RLIMIT_DATA``; see
  its docstring for why not ``RLIMIT_AS``), and :func:`check_fits` refuses, before building, a
  model whose estimated size does not fit.

Library calls that cannot be interrupted: a numba kernel slice (about
:data:`dlxsat.backends.dlx.SLICE` seconds), one PySAT call (CaDiCaL runs in conflict budgets,
other solvers are interrupted by a timer), one CP-SAT ``Solve`` (given the time left as its
``max_time_in_seconds``). Each returns within its budget; the watchdog bounds the rest -- but
only calls that release the GIL, since the watchdog is a Python thread: a C call that holds
the GIL without a budget (PySAT's plain ``solve()``, which the Masyu generator's uniqueness
oracle uses) delays the stop until it returns.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Any

#: When this module was first imported: the start of the run for its deadline.
STARTED = time.monotonic()

#: The alarm goes off this long after the deadline: the backends, which stop themselves at the
#: deadline, get the chance to return their figures first.
ALARM_GRACE = 0.4
#: After a signal, the process must be gone within this many seconds or the watchdog ends it.
HARD_GRACE = 0.5

EXIT_TIMEOUT = 3
EXIT_INTERRUPTED = {signal.SIGINT: 130, signal.SIGTERM: 143}

#: The largest solution count or limit a user may ask for: the kernels count in int64.
MAX_COUNT = 1 << 62


class Stop(BaseException):
    """The run must stop now: a time limit, a signal. Not an :class:`Exception`, so that
    library code catching ``Exception`` lets it through."""

    code = 1

    def describe(self) -> str:
        return "stopped"


class TimeUp(Stop):
    """The deadline of the run (``--timeout``) has passed."""

    code = EXIT_TIMEOUT

    def describe(self) -> str:
        return f"time limit of {_seconds(progress.timeout)} s reached"


class Interrupted(Stop):
    """``SIGINT`` (Ctrl-C) or ``SIGTERM``; exit status 128 + the signal's number."""

    def __init__(self, signum: int = signal.SIGINT):
        super().__init__(signum)
        self.signum = signum
        self.code = 128 + int(signum)

    def describe(self) -> str:
        return f"interrupted ({signal.Signals(self.signum).name})"


class OverMemory(Exception):
    """A model would not fit in the memory limit (raised before building it); exit status 3."""

    code = EXIT_TIMEOUT


def _seconds(value: float | None) -> str:
    return "?" if value is None else f"{value:g}"


@dataclass
class Progress:
    """How far the run has got, for the line printed when it is stopped.

    >>> p = Progress(phase="searching", backend="sat", count=7)
    >>> p.figures(elapsed=1.5)
    'while searching (backend sat): 7 solutions so far, 1.5 s'
    """

    phase: str = "starting"
    backend: str = ""
    count: int = 0
    timeout: float | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    #: What ``count`` counts, singular and plural (``compare`` counts the jobs it stored).
    unit: tuple[str, str] = ("solution", "solutions")
    #: When the run began (``time.monotonic``): the process's start, or an in-process call's.
    started: float = STARTED

    def figures(self, elapsed: float | None = None) -> str:
        if elapsed is None:
            elapsed = time.monotonic() - self.started
        where = f"while {self.phase}" + (f" (backend {self.backend})" if self.backend else "")
        more = "".join(f", {k} {v}" for k, v in self.extra.items())
        unit = self.unit[0] if self.count == 1 else self.unit[1]
        return f"{where}: {self.count} {unit} so far{more}, {elapsed:.3g} s"


#: The figures of the current run.
progress = Progress()


def set_phase(phase: str, backend: str | None = None) -> None:
    """Record what the run is doing now (``reading``, ``encoding``, ``building``, ...).

    A stop raised earlier but swallowed by some library is raised again here.
    """
    raise_swallowed()
    progress.phase = phase
    if backend is not None:
        progress.backend = backend


def found(count: int) -> None:
    """Record the number of answers found so far."""
    progress.count = count


def stop_line(stop: BaseException) -> str:
    """The one line printed on stderr when a run is stopped.

    >>> progress.phase, progress.count, progress.backend = "building", 0, ""
    >>> stop_line(Interrupted(signal.SIGTERM)).split(":")[:2]
    ['dlxsat', ' interrupted (SIGTERM) while building']
    """
    what = stop.describe() if isinstance(stop, Stop) else "stopped"
    return f"dlxsat: {what} {progress.figures()}"


# --------------------------------------------------------------------------- clean-up

_temp_files: set[str] = set()


def track_temp(path: str) -> None:
    """Remember a temporary file to remove if the run is stopped before it is renamed."""
    _temp_files.add(path)


def untrack_temp(path: str) -> None:
    _temp_files.discard(path)


def remove_temp_files() -> None:
    for path in list(_temp_files):
        try:
            os.unlink(path)
        except OSError:
            pass
        _temp_files.discard(path)


def descendants(pid: int | None = None) -> list[int]:
    """The process ids of every descendant of ``pid`` (this process), children first.

    Read from ``/proc/PID/task/*/children`` (Linux); elsewhere only ``multiprocessing``'s
    children are known.
    """
    root = os.getpid() if pid is None else pid
    found_pids: list[int] = []
    todo = [root]
    while todo:
        p = todo.pop()
        try:
            tasks = os.listdir(f"/proc/{p}/task")
        except OSError:
            continue
        for t in tasks:
            try:
                with open(f"/proc/{p}/task/{t}/children") as f:
                    kids = [int(x) for x in f.read().split()]
            except (OSError, ValueError):
                continue
            for k in kids:
                if k not in found_pids:
                    found_pids.append(k)
                    todo.append(k)
    if not found_pids and pid is None and "multiprocessing" in sys.modules:
        import multiprocessing

        found_pids = [c.pid for c in multiprocessing.active_children() if c.pid]
    return found_pids


def end_children() -> None:
    """Send ``SIGTERM`` to every process this run started (workers, external solvers) -- in a
    dlxsat process only: called in-process, the caller's children are not the run's."""
    if not _guard_installed:
        return
    for p in descendants():
        try:
            os.kill(p, signal.SIGTERM)
        except OSError:
            pass


# --------------------------------------------------------------------------- signals

_guard_installed = False  # the process guard (handlers + watchdog) of a real dlxsat process
_stopping = False  # a Stop was raised: later signals must not raise again during clean-up
_exit_lock = threading.Lock()
_exit_claimed: list[int] = []  # the exit status of whoever claimed the way out
_done = threading.Event()
_deadline: float | None = None


_running = False  # the CLI's main has begun: a stop can be raised and reported there


def begin_run() -> None:
    """From now on a signal raises :class:`Stop` (before, it ends the process at once).

    The run's clock starts at the start of the process, or now when called in-process.
    """
    global _running
    _running = True
    progress.__init__()  # type: ignore[misc]
    if not _guard_installed:
        progress.started = time.monotonic()


def _raise_stop(signum: int, frame: Any) -> None:
    global _stopping
    if _stopping or _exit_claimed:
        return
    if _guard_installed and not _running:
        # Still importing: nothing to clean up, and no code yet to catch an exception.
        stop = TimeUp() if signum == signal.SIGALRM else Interrupted(signum)
        os.write(2, (f"dlxsat: {stop.describe()} while starting\n").encode())
        os._exit(stop.code)
    _stopping = True
    stop: Stop = TimeUp() if signum == signal.SIGALRM else Interrupted(signum)
    if signum == signal.SIGALRM:
        _alarms[0] += 1
    _last_stop.append(stop)
    raise stop


def _handlers() -> None:
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGALRM):
        signal.signal(s, _raise_stop)


def rearm() -> None:
    """Install the handlers again: some libraries reset ``SIGINT`` when they finish (OR-tools'
    CP-SAT leaves it at the default, which would kill the process without a word)."""
    if threading.current_thread() is not threading.main_thread():
        return
    if _guard_installed:
        _handlers()
        return
    # In-process: the caller's own SIGINT handler, as Python still records it, goes back in.
    current = signal.getsignal(signal.SIGINT)
    if current is not None:
        signal.signal(signal.SIGINT, current)


_armed = False


def install_process_guard() -> None:
    """Handlers and watchdog for a real ``dlxsat`` process: the first thing it does."""
    global _guard_installed
    if _guard_installed:
        return
    _guard_installed = True
    _handlers()
    # A signal's number is written to this pipe even while the main thread is inside a C call.
    r, w = os.pipe()
    os.set_blocking(w, False)
    signal.set_wakeup_fd(w, warn_on_full_buffer=False)
    threading.Thread(target=_watchdog, args=(r,), name="dlxsat-watchdog", daemon=True).start()


def _watchdog(fd: int) -> None:
    while True:
        try:
            data = os.read(fd, 64)
        except OSError:
            return
        if not data:
            return
        nums = [b for b in data if b in (signal.SIGINT, signal.SIGTERM, signal.SIGALRM)]
        if not nums:
            continue
        if _done.wait(HARD_GRACE):
            return
        if set(nums) == {signal.SIGALRM} and _resumed[0] >= _alarms[0] > 0:
            continue  # a scope's own time out, reported as such: the run goes on
        signum = nums[0]
        stop: Stop = TimeUp() if signum == signal.SIGALRM else Interrupted(signum)
        if not claim_exit(stop.code):
            # The main thread is printing its own stop line: give it a moment, then go.
            if _done.wait(2.0):
                return
            hard_exit(_exit_claimed[0])
        try:
            os.write(2, (stop_line(stop) + "\n").encode())
        except OSError:
            pass
        hard_exit(stop.code)


_alarms = [0]  # how many SIGALRM stops were raised
_resumed = [0]  # how many times a stop was consumed and the run went on (see Scope)


def resume() -> None:
    """A :class:`TimeUp` of a :class:`Scope` was handled: the run goes on (watchdog: stand down)."""
    global _stopping
    _resumed[0] += 1
    _stopping = False
    _last_stop.clear()


def claim_exit(code: int) -> bool:
    """Claim the way out (main thread or watchdog, whoever comes first); False if taken."""
    with _exit_lock:
        if _exit_claimed:
            return False
        _exit_claimed.append(code)
        return True


def hard_exit(code: int) -> None:
    """Leave now, from any thread: temporary files removed, children ended."""
    remove_temp_files()
    end_children()
    os._exit(code)


def finished() -> None:
    """The run is over (the main thread is about to return its exit status)."""
    _done.set()


# --------------------------------------------------------------------------- the deadline


def arm_deadline(timeout: float | None) -> None:
    """Start the run's deadline: ``timeout`` seconds from the start of the process."""
    global _deadline, _armed, _stopping
    progress.timeout = timeout
    _stopping = False
    if timeout is None:
        _deadline = None
        return
    _deadline = progress.started + timeout
    if threading.current_thread() is not threading.main_thread():
        return  # no alarm off the main thread: the backends' own deadline is all there is
    if not _guard_installed:
        # In-process (a caller's main): only the alarm; SIGINT and SIGTERM stay the caller's.
        _armed = True
        signal.signal(signal.SIGALRM, _raise_stop)
    left = max(_deadline - time.monotonic(), 0.0) + ALARM_GRACE
    signal.setitimer(signal.ITIMER_REAL, left)


def disarm() -> None:
    """Stop the alarm and, in-process, give back the default SIGALRM action (tests call
    ``main``; in-process, SIGINT and SIGTERM are never touched)."""
    global _deadline, _armed, _stopping, _running
    if threading.current_thread() is threading.main_thread():
        signal.setitimer(signal.ITIMER_REAL, 0)
        if _armed and not _guard_installed:
            _restore_defaults()
    _armed = False
    _deadline = None
    _stopping = False
    _running = _running and _guard_installed
    if not _guard_installed:  # in-process: the next run may be stopped too
        _exit_claimed.clear()
    _last_stop.clear()
    progress.timeout = None


def _restore_defaults() -> None:
    global _armed
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, signal.SIG_DFL)
    _armed = False


def deadline(own: float | None = None) -> float | None:
    """The earlier of ``own`` (a ``time.monotonic`` deadline) and the run's deadline."""
    if _deadline is None:
        return own
    return _deadline if own is None else min(own, _deadline)


def remaining(timeout: float | None = None) -> float | None:
    """Seconds left: of ``timeout`` counted from now, and of the run's deadline."""
    own = None if timeout is None else time.monotonic() + timeout
    d = deadline(own)
    return None if d is None else d - time.monotonic()


def expired() -> bool:
    """Whether the run's deadline has passed."""
    return _deadline is not None and time.monotonic() >= _deadline


# --------------------------------------------------------------------------- memory

#: The default limit is this share of the memory the machine has available at start.
DEFAULT_SHARE = 0.75
#: ... but never below this many MB: loading numba and OR-tools alone takes about 260 MB of data.
MIN_DEFAULT_MB = 1024
#: Memory per option entry (item occurrence) of the DIMACS export with the eager loop encoding,
#: measured with ``benchmarks/memory.py`` on 100 x 100 loop boards (1450 bytes), rounded up: for
#: :func:`check_fits`. Each solver's own figures are in its ``SPEC`` (:mod:`dlxsat.solvers`).
EXPORT_BYTES_PER_ENTRY = 1600
#: Memory per cell (input character) of reading, encoding and parsing a loop puzzle (measured:
#: 4.8, 6.2 and 9.8 KB), and per cell**1.5 of a Sudoku (its options grow as n**3).
BYTES_PER_CELL = {"masyu": 5500, "slitherlink": 7000, "superslitherlink": 11000}
BYTES_PER_SUDOKU_CELL = 600

_limit_bytes: int | None = None


def machine_memory_mb() -> int | None:
    """MemAvailable (else MemTotal) from ``/proc/meminfo``, in MB; None when unknown."""
    try:
        with open("/proc/meminfo") as f:
            info = dict(line.split(":", 1) for line in f)
    except (OSError, ValueError):
        return None
    for key in ("MemAvailable", "MemTotal"):
        if key in info:
            return int(info[key].split()[0]) // 1024
    return None


def default_memory_mb() -> int | None:
    """A safe share of the machine's memory: :data:`DEFAULT_SHARE` of what is available."""
    mb = machine_memory_mb()
    return None if mb is None else max(int(mb * DEFAULT_SHARE), MIN_DEFAULT_MB)


def set_memory_limit(mb: int | None) -> None:
    """Cap the process's memory at ``mb`` megabytes (Linux: ``RLIMIT_DATA``).

    Why ``RLIMIT_DATA`` and not ``RLIMIT_AS``: ``RLIMIT_AS`` counts address space that is only
    reserved, never used -- numba/llvmlite and OR-tools reserve much of it (measured on a
    10 x 10 Masyu: peak address space 511 MB with dlx and 491 MB with cpsat, against 259 MB and
    157 MB of data). ``RLIMIT_DATA`` (Linux 4.7 and later) counts the heap and private
    writable mappings, which is where puzzles, models and answers live, so a limit in MB
    means about what a user expects. When it is reached an allocation fails and Python raises
    :class:`MemoryError`, which the CLI turns into one line and exit status 3.
    """
    global _limit_bytes
    if mb is None:
        return
    try:
        import resource
    except ImportError:  # not on a POSIX system: the estimate of check_fits still applies
        _limit_bytes = mb << 20
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
    want = mb << 20
    if hard != resource.RLIM_INFINITY:
        want = min(want, hard)
    resource.setrlimit(resource.RLIMIT_DATA, (want, hard))
    _limit_bytes = want


def memory_limit_mb() -> int | None:
    return None if _limit_bytes is None else _limit_bytes >> 20


def data_in_use() -> int:
    """Bytes of data the process uses now (``VmData``), 0 when unknown."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmData:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError):
        pass
    return 0


def estimate_bytes(backend: str, entries: int) -> int:
    """The estimated memory of ``backend``'s model of a problem with ``entries`` entries, with
    its libraries (``backend`` is a solver, whose ``SPEC`` has the figures, or ``export``).

    >>> estimate_bytes("sat", 1000)
    900000
    """
    if backend == "export":
        return EXPORT_BYTES_PER_ENTRY * entries
    from .solvers import spec_of

    return spec_of(backend).model_bytes(entries)


def estimate_encoding_bytes(family: str, text: str) -> int:
    """The estimated memory of reading, encoding and parsing a puzzle given as ``text``.

    >>> estimate_encoding_bytes("masyu", "..\\n..\\n")
    33000
    """
    return estimate_cells_bytes(family, len(text), max(1, text.count("\n")))


def estimate_cells_bytes(family: str, cells: int, rows: int) -> int:
    """The same, from a board's size: ``cells`` characters (cells and line ends) in ``rows``
    rows (a Sudoku's options grow as the cube of its rows).

    >>> estimate_cells_bytes("sudoku", 90, 9) == 600 * 9**3
    True
    """
    if family == "sudoku":
        return BYTES_PER_SUDOKU_CELL * rows**3
    return BYTES_PER_CELL.get(family, max(BYTES_PER_CELL.values())) * cells


def check_fits(what: str, needed: int) -> None:
    """Raise :class:`OverMemory`, with the estimate, when ``needed`` bytes more cannot fit."""
    if _limit_bytes is None:
        return
    free = _limit_bytes - data_in_use()
    if needed > free:
        raise OverMemory(
            f"{what} needs about {needed >> 20} MB, but only {max(free, 0) >> 20} MB of the "
            f"{_limit_bytes >> 20} MB limit are free (raise it with --memory MB)"
        )


def reset_memory_limit() -> None:
    """Forget the limit (in-process callers); the process's rlimit, once set, stays."""
    global _limit_bytes
    _limit_bytes = None


def guard_installed() -> bool:
    """Whether this is a real ``dlxsat`` process with the process guard."""
    return _guard_installed


def stop_behind(error: BaseException) -> Stop | None:
    """The stop an ordinary exception stands for, if any.

    Some libraries turn a signal into an error of their own: PySAT's solvers catch ``SIGINT``
    themselves and raise ``pysolvers.error("Caught keyboard interrupt")``; a module whose
    initialisation is interrupted raises ``ImportError("initialization failed")`` with our
    :class:`Stop` as its cause; and code that catches everything may swallow the stop and
    fail later. All of these are the stop, not a bug.

    >>> stop_behind(ValueError("x")) is None
    True
    """
    if "keyboard interrupt" in str(error).lower() or isinstance(error, KeyboardInterrupt):
        return Interrupted(signal.SIGINT)
    seen = error
    for _ in range(10):
        nxt = seen.__cause__ or seen.__context__
        if nxt is None:
            break
        if isinstance(nxt, Stop):
            return nxt
        seen = nxt
    if _stopping and _last_stop:
        return _last_stop[-1]
    return None


_last_stop: list[Stop] = []


def raise_swallowed() -> None:
    """Raise again a stop that was raised but never reached the run: Python runs a signal's
    handler wherever the main thread is, and an exception raised inside a fork hook or a ctypes
    callback (numba compiling) is printed as "ignored" and dropped."""
    if _stopping and _last_stop and not _exit_claimed:
        raise _last_stop[-1]


def become_worker() -> None:
    """Make a process just forked to run jobs (``dlxsat compare``'s workers) a plain one: it is
    not the dlxsat process, whose guard it inherited. Its parent stops it (SIGKILL) and reports
    for it, so: no wake-up pipe shared with the parent's watchdog (a signal to the worker would
    end the whole run), no stop carried over, the default actions for SIGTERM and SIGALRM (its
    last-resort alarm kills it), SIGINT ignored (a Ctrl-C is the parent's to handle)."""
    global _guard_installed, _stopping, _running, _armed, _deadline
    signal.set_wakeup_fd(-1)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGALRM, signal.SIG_DFL)
    _guard_installed = _stopping = _running = _armed = False
    _deadline = None
    _last_stop.clear()
    _exit_claimed.clear()
    progress.__init__()  # type: ignore[misc]


class Scope:
    """A deadline of its own for one piece of a run (one backend on one puzzle, as
    ``crosscheck --timeout`` asks), enforced by the alarm like the run's, inside the run's.

    ``owns(stop)`` says whether a :class:`TimeUp` is this scope's (to be reported as a time out
    of this piece) rather than the run's (to end the run). ``close`` puts the run's alarm back.
    """

    def __init__(self, timeout: float | None):
        self.outer = _deadline
        self.mine = None if timeout is None else time.monotonic() + timeout
        self.active = (
            self.mine is not None
            and (self.outer is None or self.mine < self.outer)
            and threading.current_thread() is threading.main_thread()
            and _running  # only inside a CLI run: a library caller's signals are its own
        )
        if self.active:
            self._set(self.mine)

    def _set(self, when: float | None) -> None:
        global _deadline, _armed, _stopping
        _deadline = when
        _stopping = False
        _last_stop.clear()
        if when is None:
            signal.setitimer(signal.ITIMER_REAL, 0)
            return
        if not _guard_installed and not _armed:
            _armed = True
            signal.signal(signal.SIGALRM, _raise_stop)
        signal.setitimer(signal.ITIMER_REAL, max(when - time.monotonic(), 0.0) + ALARM_GRACE)

    def owns(self, stop: BaseException) -> bool:
        return (
            self.active
            and isinstance(stop, TimeUp)
            and (self.outer is None or time.monotonic() < self.outer)
        )

    def close(self) -> None:
        if self.active:
            self._set(self.outer)
            self.active = False
            if self.outer is None and _armed and not _guard_installed:
                _restore_defaults()
