"""The process guard of one dlxsat run: signals become exceptions, an alarm enforces the run's
:class:`~dlxsat.runtime.deadline.Deadline`, a watchdog ends a process that cannot stop itself,
and one line on stderr says how far the run got.

Why a process-level guard: the search backends stop themselves at the deadline they are given,
but reading, encoding, building a model, cut rounds, decoding and printing are plain Python
spread over many modules, and some work happens inside library calls that do not return on
their own (numba kernels, a PySAT solver, OR-tools). So the run as a whole is guarded here:

* **The alarm.** :func:`arm` is handed the run's :class:`Deadline` and sets ``ITIMER_REAL`` to
  go off :data:`ALARM_GRACE` seconds after it (the backends, given the same deadline, normally
  stop first and report their own figures); ``SIGALRM`` then raises :class:`TimeUp` in the main
  thread, wherever Python code runs (and the stop hooks are called: see the watchdog). The
  guard holds no deadline anyone reads: code that needs the run's deadline is handed the
  value. A piece of the run with a limit of its own (one backend of ``crosscheck``) is a
  :class:`Scope` made of two Deadline values.
* **Signals.** ``SIGINT`` and ``SIGTERM`` raise :class:`Interrupted`. Both are
  :class:`BaseException` subclasses, so a library's ``except Exception`` does not swallow them.
  A signal the process was started ignoring stays ignored, as Python itself leaves an ignored
  ``SIGINT``: a shell starts the background jobs of a script with ``SIGINT`` ignored, and a
  Ctrl-C meant for the foreground must not end them (``nohup``-like wrappers do the same).
* **Stops Python drops.** A handler runs wherever the main thread is, also inside a gc
  callback or a ``__del__``, where Python prints an exception as "ignored" and drops it. Such
  a stop is kept (:func:`_unraisable`, the run's ``sys.unraisablehook``) and raised again by
  the next check of any :class:`Deadline` and by the alarm, set to come back at once.
* **The watchdog.** A Python signal handler runs only between bytecodes of the main thread:
  not while a C call runs. So every signal is also written to a wake-up pipe read by a watchdog
  thread. At once it calls the *stop hooks* the running code registered (:func:`stop_hook`:
  the SAT backend registers its solver's ``interrupt``, CP-SAT its ``stop_search``, so the
  call returns within milliseconds and the main thread stops as usual); if the process has
  not ended :data:`HARD_GRACE` seconds later, the watchdog prints the one line itself, removes
  the temporary files, ends the child processes and leaves with ``os._exit``. It exists only
  in a real ``dlxsat`` process (:func:`install`), never when :func:`dlxsat.cli.main` is called
  in-process (tests), so it cannot kill a caller. A thread can reach only C calls that release
  the GIL; the backends keep the others short (CaDiCaL 1.9.5, which holds the GIL, asks a
  Python propagator after each propagation whether to stop, and its older versions run in
  conflict budgets of about 50 ms; dancing links in kernel slices of about 10 ms). Not
  bounded: a call of PySAT's ``lingeling`` or ``kissat404`` (no interrupt, no budget), and one
  numba kernel load or OR-tools model copy (a second or so on the largest boards).
* **Forking.** A process with a second thread must not fork (a lock held by that thread stays
  locked in the child), which made the CLI's portfolio start its members with ``spawn`` (0.26 s
  a member against 0.024 s forked). :func:`watchdog_paused` ends the watchdog thread for the
  moment of a fork and starts a new one after: the thread is asked to leave through its own
  pipe, hands over any signal it read meanwhile, and is joined, so the process has one thread
  when it forks. A signal in that window waits in the pipe for the new watchdog (the main
  thread holds its signals across a fork: :func:`dlxsat.runtime.processes.forking`).
* **Figures.** A run's :class:`Progress` is a value of the run: the CLI makes it when the run
  begins (:func:`begin_run`, which registers it as the one the stop line reads) and hands it
  down -- to the pipeline, the generators, ``compare`` -- which record in it what the run has
  reached (phase, answers found; the solvers through their request's ``on_found``), so a stop
  at any moment can say how far it got. Nothing else holds the figures; a library caller's
  run, with no CLI, records them in a value nobody reads.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..exits import SIGNAL_EXITS, Exit
from . import deadline as deadline_module
from .cleanup import end_descendants, remove_temp_files
from .deadline import Deadline
from .host import threads


def process_start(most: float = 10.0) -> float:
    """When this process began, on the ``time.monotonic`` clock: its start time in
    ``/proc/self/stat`` (clock ticks since boot, on ``CLOCK_BOOTTIME``). Python's own start-up
    comes before any of dlxsat's code runs -- 0.5 to 0.7 s on a loaded 2-core machine, mostly
    ``site`` -- and a user's ``--timeout`` counts it. Now, where that cannot be read or the
    process is older than ``most`` seconds (dlxsat imported late by another program).

    >>> 0 <= time.monotonic() - process_start(1e9) < 1e9
    True
    """
    now = time.monotonic()
    try:
        with open("/proc/self/stat") as f:
            ticks = int(f.read().rsplit(")", 1)[1].split()[19])  # field 22, starttime
        age = time.clock_gettime(time.CLOCK_BOOTTIME) - ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, AttributeError):
        return now
    return now - age if 0 <= age <= most else now


#: When the process began (see :func:`process_start`): the start of the run for its deadline.
STARTED = process_start()

#: The alarm goes off this long after the deadline: the backends, which stop themselves at the
#: deadline, and ``generate``, which stops itself too, get the chance to report in their own
#: words first (at 0.1 s, ``generate --timeout 1e-9`` under a load of 19 on 2 cores had not:
#: drawing its first loop took 0.16 s). With :data:`HARD_GRACE` it bounds how late a run
#: ends: within 0.5 s of its deadline (``benchmarks/limits.py`` measures it; ending a process
#: that holds a few GB of models adds 0.1 to 0.2 s).
ALARM_GRACE = 0.2
#: After a signal, the process must be gone within this many seconds or the watchdog ends it
#: (the stop hooks are called at once; this is for code that ignores them).
HARD_GRACE = 0.25

#: The largest solution count or limit a user may ask for: the kernels count in int64.
MAX_COUNT = 1 << 62

#: The signals the guard turns into stops.
SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGALRM)
#: Written to the watchdog's pipe to make it leave (no signal has number 0).
_LEAVE = 0


class Stop(BaseException):
    """The run must stop now: a time limit, a signal. Not an :class:`Exception`, so that
    library code catching ``Exception`` lets it through. ``code``: the run's exit status."""

    code: Exit = Exit.BUG

    def describe(self) -> str:
        return "stopped"


class TimeUp(Stop):
    """The deadline of the run (``--timeout``) has passed."""

    code = Exit.LIMIT

    def describe(self) -> str:
        return f"time limit of {_seconds(_state.progress.timeout)} s reached"


class Interrupted(Stop):
    """``SIGINT`` (Ctrl-C) or ``SIGTERM``; exit status 128 + the signal's number
    (:meth:`Exit.of_signal <dlxsat.exits.Exit.of_signal>`)."""

    def __init__(self, signum: int = signal.SIGINT):
        super().__init__(signum)
        self.signum = signum
        self.code = Exit.of_signal(signum)

    def describe(self) -> str:
        return f"interrupted ({signal.Signals(self.signum).name})"


def _stop_for(signum: int) -> Stop:
    return TimeUp() if signum == signal.SIGALRM else Interrupted(signum)


def _seconds(value: float | None) -> str:
    return "?" if value is None else f"{value:g}"


@dataclass
class Progress:
    """How far a run has got, for the line printed when it is stopped: one value per run, made
    when it begins (:func:`begin_run`) and handed down to whatever works for it.

    >>> p = Progress(phase="searching", backend="sat", count=7)
    >>> p.figures(elapsed=1.5)
    'while searching (backend sat): 7 solutions so far, 1.5 s'
    >>> p.set_phase("checking the answers"); p.found(2); p.figures(elapsed=2)
    'while checking the answers (backend sat): 2 solutions so far, 2 s'
    """

    phase: str = "starting"
    backend: str = ""
    count: int = 0
    #: The time limit as the user gave it, in seconds (for the line only).
    timeout: float | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    #: What ``count`` counts, singular and plural (``compare`` counts the jobs it stored).
    unit: tuple[str, str] = ("solution", "solutions")
    #: When the run began (``time.monotonic``): the process's start, or an in-process call's.
    started: float = STARTED

    def set_phase(self, phase: str, backend: str | None = None) -> None:
        """Record what the run is doing now (``reading``, ``encoding``, ``building``, ...).

        A stop raised earlier but swallowed by some library is raised again here.
        """
        raise_swallowed()
        self.phase = phase
        if backend is not None:
            self.backend = backend

    def found(self, count: int) -> None:
        """Record the number of answers found so far (a request's ``on_found``)."""
        self.count = count

    def figures(self, elapsed: float | None = None) -> str:
        if elapsed is None:
            elapsed = time.monotonic() - self.started
        where = f"while {self.phase}" + (f" (backend {self.backend})" if self.backend else "")
        more = "".join(f", {k} {v}" for k, v in self.extra.items())
        unit = self.unit[0] if self.count == 1 else self.unit[1]
        return f"{where}: {self.count} {unit} so far{more}, {elapsed:.3g} s"


def stop_line(stop: BaseException, progress: Progress | None = None) -> str:
    """The one line printed on stderr when a run is stopped: what stopped it and ``progress``
    (by default the current run's, registered by :func:`begin_run`).

    >>> stop_line(Interrupted(signal.SIGTERM), Progress(phase="building")).split(":")[:2]
    ['dlxsat', ' interrupted (SIGTERM) while building']
    """
    what = stop.describe() if isinstance(stop, Stop) else "stopped"
    return f"dlxsat: {what} {(progress or _state.progress).figures()}"


class _State:
    """Everything the guard knows of this process (one object rather than a dozen globals)."""

    def __init__(self) -> None:
        self.installed = False  # handlers and watchdog of a real dlxsat process
        self.running = False  # the CLI's main has begun: a stop can be raised and reported
        self.stopping = False  # a stop was raised: later signals wait for the clean-up
        self.own_alarm = False  # in-process: SIGALRM's handler is ours, to give back
        self.alarm: Deadline = Deadline.never()  # what ITIMER_REAL is set for, less the grace
        self.last_stop: list[Stop] = []
        #: A stop Python dropped (raised in a gc callback, a ``__del__``: :func:`_unraisable`),
        #: to raise again at the next check of a deadline or when the alarm comes back.
        self.dropped: Stop | None = None
        self.unraisable_before: Callable[[Any], object] | None = None  # the hook we wrap
        self.reported = False  # the command's outcome is out (:func:`reported`)
        self.exit_lock = threading.Lock()
        self.exit_claimed: list[int] = []  # the exit status of whoever claimed the way out
        self.done = threading.Event()
        self.alarms = 0  # SIGALRM stops raised
        self.resumed = 0  # stops consumed with the run going on (see Scope)
        self.pipe: tuple[int, int] | None = None  # the watchdog's wake-up pipe
        self.watchdog: threading.Thread | None = None
        self.carried: list[int] = []  # signals a leaving watchdog read, for the next one
        self.hooks: dict[int, Callable[[], object]] = {}
        #: Signals the process was started ignoring (:func:`install`): they stay ignored.
        self.ignored: frozenset[int] = frozenset()
        #: The current run's figures (:func:`begin_run`): the one the stop line reads.
        self.progress = Progress()
        #: The own deadline of the last :class:`Scope` that closed (or is closing): its alarm
        #: may be on its way already (:func:`_superseded`).
        self.closed_scope: Deadline | None = None


_state = _State()


def installed() -> bool:
    """Whether this is a real ``dlxsat`` process with the process guard."""
    return _state.installed


def begin_run() -> Progress:
    """From now on a signal raises :class:`Stop` (before, it ends the process at once).

    Returns the run's :class:`Progress`, new, registered as the current run's: the one the stop
    line reads (the caller hands it down to what works for the run). The run's clock starts
    at the start of the process, or now when called in-process.
    """
    _state.running = True
    _state.dropped = None
    _state.reported = False
    _hook_unraisable()
    progress = Progress()
    if not _state.installed:
        progress.started = time.monotonic()
    _state.progress = progress
    return progress


def run_deadline(seconds: float | None) -> Deadline:
    """The run's deadline: ``seconds`` from the start of the run (see :func:`begin_run`)."""
    return Deadline(None if seconds is None else _state.progress.started + seconds)


def _raise_stop(signum: int, frame: Any) -> None:
    if signum == signal.SIGALRM and _late(_state.dropped):
        _state.dropped = None
        return
    if _state.dropped is not None and not _state.exit_claimed:
        stop, _state.dropped = _state.dropped, None  # (the alarm that brings it back)
        raise stop
    if _state.stopping or _state.exit_claimed:
        return
    if signum == signal.SIGALRM and _superseded():
        _state.alarms += 1  # (and resumed: the watchdog, woken by it too, stands down)
        _state.resumed += 1
        return
    stop = _stop_for(signum)
    if _state.installed and not _state.running:
        # Still importing: nothing to clean up, and no code yet to catch an exception.
        os.write(2, (f"dlxsat: {stop.describe()} while starting\n").encode())
        os._exit(stop.code)
    _state.stopping = True
    if signum == signal.SIGALRM:
        _state.alarms += 1
    _state.last_stop.append(stop)
    raise stop


def _superseded() -> bool:
    """Whether the alarm that went off is a closed :class:`Scope`'s, come too late.

    The timer going off and Python running this handler are two moments: the handler runs at
    the main thread's next bytecode boundary. A scope's own alarm (``crosscheck --timeout``'s
    per backend) that went off as its piece returned ran its handler while the scope closed,
    or just after, outside the code that takes the scope's time outs: the run stopped with
    "time limit ... reached while checking the answers" (a CI failure). Such an alarm is
    recognised by the alarm now set not being due (a genuine one always is: the timer is set
    for the deadline plus the grace, and :func:`finishing` re-sets it only once it is due),
    while the closing scope's own deadline is."""
    closed = _state.closed_scope
    if closed is None or closed.at is None:
        return False
    now = time.monotonic()
    if now < closed.at:
        return False
    now_set = _state.alarm
    if now_set is closed or now_set.at is None or now < now_set.at:
        _state.closed_scope = None
        return True
    return False


def reported() -> None:
    """The command has put out its outcome -- a time out it noticed itself included
    (``generate``'s "time is up ..."): a time limit that comes from now on changes nothing.
    The alarm's stop, or a dropped one, is not raised (it printed a second line, the run's
    "time limit ... reached", after the command's own); a signal still stops the run, and the
    watchdog still bounds what is left (renames, the flush of stdout)."""
    _state.reported = True


def _late(dropped: Stop | None) -> bool:
    """Whether a time limit that comes now is too late to matter (see :func:`reported`)."""
    return _state.reported and (dropped is None or isinstance(dropped, TimeUp))


def _handlers() -> None:
    for s in SIGNALS:
        signal.signal(s, signal.SIG_IGN if s in _state.ignored else _raise_stop)


#: A stop Python dropped comes back with the alarm this many seconds later, for code that
#: never checks a deadline.
REDELIVER = 0.01


def _unraisable(unraisable: Any) -> None:
    """``sys.unraisablehook`` of a run: an exception Python cannot raise where it happened (in
    a gc callback, a ``__del__``, a weakref or ctypes callback, a fork hook) is printed as
    "Exception ignored in ..." and dropped. A signal's handler runs wherever the main thread
    is, so a :class:`Stop` lands there now and then (CI: "Exception ignored in gc_callback ...
    TimeUp"), and then the run did not stop at its deadline -- the stop was gone, and
    ``stopping`` made later signals wait for it. Such a stop is kept instead (no traceback):
    the next check of a deadline raises it again (:func:`raise_dropped`), and so does the
    alarm, set to come back in :data:`REDELIVER` seconds for code that checks none. A
    :class:`MemoryError` is dropped without a word: at the memory limit (``--memory``) a
    generator closed while the search unwinds from the first one (a ``sorted(...)`` of a
    solution's options) printed "Exception ignored in <generator ...> MemoryError" above the
    run's one-line error; the run meets the limit again where it can report it, or goes on
    with the memory the unwinding freed. Any other exception goes to the hook that was there
    before."""
    error = getattr(unraisable, "exc_value", None)
    if isinstance(error, Stop):
        _drop(error)
        return
    if isinstance(error, MemoryError):
        return
    before = _state.unraisable_before or sys.__unraisablehook__
    before(unraisable)


def _drop(stop: Stop) -> None:
    _state.dropped = stop
    # (only where SIGALRM's handler is ours: in-process without an alarm, it would kill)
    if _state.installed or _state.own_alarm:
        signal.setitimer(signal.ITIMER_REAL, REDELIVER)


def _hook_unraisable() -> None:
    """Put :func:`_unraisable` in as ``sys.unraisablehook`` (the one before it is kept)."""
    if sys.unraisablehook is not _unraisable:
        _state.unraisable_before = sys.unraisablehook
        sys.unraisablehook = _unraisable


def _unhook_unraisable() -> None:
    """Give back the hook :func:`_hook_unraisable` found (in-process, at the end of a run)."""
    if sys.unraisablehook is _unraisable and _state.unraisable_before is not None:
        sys.unraisablehook = _state.unraisable_before
    _state.unraisable_before = None


def raise_dropped() -> None:
    """Raise a stop Python dropped (:func:`_unraisable`), if there is one: called by every
    check of a deadline (:meth:`Deadline.expired <dlxsat.runtime.deadline.Deadline.expired>`,
    ``remaining``), so a run whose stop was dropped still stops at its deadline. Only a stop
    known to be dropped: one still on its way up (a ``finally`` that checks a deadline) is not
    raised a second time. Only in the main thread, where the stop belongs (another thread's
    check, a solver's helper, must not take it away from the run)."""
    if (
        _state.dropped is not None
        and not _state.exit_claimed
        and threading.current_thread() is threading.main_thread()
    ):
        stop, _state.dropped = _state.dropped, None
        if not _late(stop):
            raise stop


deadline_module.on_check(raise_dropped)


def rearm() -> None:
    """Install the handlers again: some libraries reset ``SIGINT`` when they finish (OR-tools'
    CP-SAT leaves it at the default, which would kill the process without a word)."""
    if threading.current_thread() is not threading.main_thread():
        return
    if _state.installed:
        _handlers()
        return
    # In-process: the caller's own SIGINT handler, as Python still records it, goes back in.
    current = signal.getsignal(signal.SIGINT)
    if current is not None:
        signal.signal(signal.SIGINT, current)


def install() -> None:
    """Handlers and watchdog for a real ``dlxsat`` process: the first thing it does."""
    if _state.installed:
        return
    _state.installed = True
    # (Python installs its own SIGINT handler only where SIGINT was not ignored at start.)
    _state.ignored = frozenset(s for s in SIGNAL_EXITS if signal.getsignal(s) is signal.SIG_IGN)
    _handlers()
    _hook_unraisable()
    # A signal's number is written to this pipe even while the main thread is inside a C call.
    r, w = os.pipe()
    os.set_blocking(w, False)
    signal.set_wakeup_fd(w, warn_on_full_buffer=False)
    _state.pipe = (r, w)
    _start_watchdog()


def _start_watchdog() -> None:
    assert _state.pipe is not None
    _state.watchdog = threading.Thread(
        target=_watchdog, args=(_state.pipe[0],), name="dlxsat-watchdog", daemon=True
    )
    _state.watchdog.start()


def _watchdog(fd: int) -> None:
    while True:
        if _state.carried:
            data, _state.carried = bytes(_state.carried), []
        else:
            try:
                data = os.read(fd, 64)
            except OSError:
                return
            if not data:
                return
        nums = [b for b in data if b in SIGNALS]
        if _LEAVE in data:
            _state.carried = nums  # for the watchdog that follows
            return
        if nums:
            _watch(nums)


def _watch(nums: list[int]) -> None:
    """A signal came: stop what runs in C now, and end the process if it is still here after
    :data:`HARD_GRACE` seconds."""
    if _state.done.is_set():
        return
    for hook in list(_state.hooks.values()):
        try:
            hook()
        except Exception:  # noqa: BLE001 - a hook that fails only loses its speed-up
            pass
    if _state.done.wait(HARD_GRACE):
        return
    if set(nums) == {signal.SIGALRM} and _state.resumed >= _state.alarms > 0:
        return  # a scope's own time out, reported as such: the run goes on
    stop = _stop_for(nums[0])
    if not claim_exit(stop.code):
        # The main thread is printing its own stop line: give it a moment, then go.
        if _state.done.wait(2.0):
            return
        hard_exit(_state.exit_claimed[0])
    try:
        os.write(2, (stop_line(stop) + "\n").encode())
    except OSError:
        pass
    hard_exit(stop.code)


@contextlib.contextmanager
def stop_hook(hook: Callable[[], object]) -> Iterator[None]:
    """For the length of the block, the watchdog calls ``hook`` (from its own thread) as soon as
    a signal or the alarm comes: how a C call that releases the GIL but runs on (a PySAT
    solver's ``solve_limited``: ``hook`` is its ``interrupt``) is made to return at once."""
    key = id(hook)
    _state.hooks[key] = hook
    try:
        yield
    finally:
        _state.hooks.pop(key, None)


@contextlib.contextmanager
def watchdog_paused(wait: float = 0.05) -> Iterator[bool]:
    """End the watchdog thread for the block, so that the process may fork; a new one starts
    after it. Yields whether the watchdog is paused (also True when there is none); False when it
    did not leave within ``wait`` seconds (it is busy with a signal: the run is stopping)."""
    dog = _state.watchdog
    if dog is None or not dog.is_alive() or _state.pipe is None:
        yield True
        return
    before = threads()
    try:
        os.write(_state.pipe[1], bytes([_LEAVE]))
    except OSError:
        yield False
        return
    until = time.monotonic() + wait
    dog.join(wait)
    if dog.is_alive():
        yield False
        return
    # Python's join returns just before the thread's end: it leaves /proc a moment later.
    while threads() >= before > 1 and time.monotonic() < until:
        time.sleep(0.0002)
    _state.watchdog = None
    try:
        yield True
    finally:
        _start_watchdog()


def claim_exit(code: int) -> bool:
    """Claim the way out (main thread or watchdog, whoever comes first); False if taken."""
    with _state.exit_lock:
        if _state.exit_claimed:
            return False
        _state.exit_claimed.append(code)
        return True


def hard_exit(code: int) -> None:
    """Leave now, from any thread: temporary files removed, children ended."""
    remove_temp_files()
    end_children()
    os._exit(code)


def end_children() -> None:
    """Send ``SIGTERM`` to every process this run started (workers, external solvers) -- in a
    dlxsat process only: called in-process, the caller's children are not the run's."""
    if _state.installed:
        end_descendants()


def finished() -> None:
    """The run is over (the main thread is about to return its exit status)."""
    _state.done.set()


def resume() -> None:
    """A :class:`TimeUp` of a :class:`Scope` was handled: the run goes on (watchdog: stand down)."""
    _state.resumed += 1
    _state.stopping = False
    _state.dropped = None
    _state.last_stop.clear()


def overran() -> None:
    """The run's :class:`TimeUp` came while a search overran the deadline it was given (a
    library call that does not look at it: CP-SAT building its model, a portfolio waiting for
    its members), and the caller reports it as that search's time out -- its figures as the
    command's output, as a backend that stops itself at the deadline gives them. The run goes
    on for the moment of printing them: the watchdog stands down, and the alarm goes off again
    :data:`ALARM_GRACE` seconds from now for a run that does not end."""
    resume()
    if _state.alarm.at is not None:
        _set_alarm(_state.alarm)


def finishing() -> None:
    """The run's search is over and its answers are checked (both stop at the deadline by
    themselves): what is left is printing its figures. The alarm is set to go off
    :data:`ALARM_GRACE` seconds from now at the earliest, not from the deadline: on a busy
    machine a search that returned just past its deadline left the printing a fraction of that
    grace, and the run ended with a stop line "while checking the answers" in place of its own
    figures (or of the error that printing them met)."""
    if _state.alarm.at is not None and not _state.stopping:
        _set_alarm(_state.alarm)


# --------------------------------------------------------------------------- the alarm


def arm(deadline: Deadline, seconds: float | None = None) -> None:
    """Set the alarm for the run's ``deadline`` (plus :data:`ALARM_GRACE`); ``seconds`` is the
    limit as the user gave it, for the line printed when it is reached. Only in the main thread
    (elsewhere the backends' own deadline is all there is); in-process only ``SIGALRM`` is
    taken -- ``SIGINT`` and ``SIGTERM`` stay the caller's."""
    _state.progress.timeout = seconds
    _state.stopping = False
    _state.dropped = None
    _set_alarm(deadline)


def _set_alarm(deadline: Deadline) -> None:
    if threading.current_thread() is not threading.main_thread():
        return
    _state.alarm = deadline
    if _state.dropped is not None and (_state.installed or _state.own_alarm):
        signal.setitimer(signal.ITIMER_REAL, REDELIVER)  # a dropped stop comes back first
        return
    if deadline.at is None:
        signal.setitimer(signal.ITIMER_REAL, 0)
        return
    if not _state.installed and not _state.own_alarm:
        _state.own_alarm = True
        signal.signal(signal.SIGALRM, _raise_stop)
    left = max(deadline.at - time.monotonic(), 0.0)  # (not remaining(): it may raise a stop)
    signal.setitimer(signal.ITIMER_REAL, left + ALARM_GRACE)


def disarm() -> None:
    """Stop the alarm and, in-process, give back the default SIGALRM action (tests call
    ``main``; in-process, SIGINT and SIGTERM are never touched)."""
    if threading.current_thread() is threading.main_thread():
        signal.setitimer(signal.ITIMER_REAL, 0)
        if _state.own_alarm and not _state.installed:
            signal.signal(signal.SIGALRM, signal.SIG_DFL)
    _state.own_alarm = False
    _state.alarm = Deadline.never()
    _state.stopping = False
    _state.running = _state.running and _state.installed
    if not _state.installed:  # in-process: the next run may be stopped too
        _state.exit_claimed.clear()
    _state.last_stop.clear()
    _state.dropped = None
    _state.closed_scope = None
    _state.reported = False
    if not _state.installed:
        _unhook_unraisable()
    _state.progress.timeout = None


class Scope:
    """A deadline of its own (``own``) for one piece of a run whose deadline is ``run`` (one
    backend on one puzzle, as ``crosscheck --timeout`` asks), enforced by the alarm like the
    run's: :attr:`deadline` is the sooner of the two, to hand to the piece.

    ``owns(stop)`` says whether a :class:`TimeUp` is this scope's (to be reported as a time out
    of this piece) rather than the run's (to end the run). ``close`` puts the alarm back as it
    was. Only inside a CLI run, in the main thread: a library caller's signals are its own.

    >>> s = Scope(Deadline.never(), Deadline.after(5))
    >>> 4 < s.deadline.remaining() <= 5, s.owns(TimeUp())
    (True, False)
    >>> s.close()
    """

    def __init__(self, run: Deadline, own: Deadline):
        # (an alarm already set, the run's or an enclosing scope's, is never put off)
        self.outer = run.sooner(_state.alarm)
        self.own = own
        self.deadline = own.sooner(run)
        self._before = _state.alarm
        self.active = (
            own.at is not None
            and (self.outer.at is None or own.at < self.outer.at)
            and threading.current_thread() is threading.main_thread()
            and _state.running
        )
        if self.active:
            _state.closed_scope = None
            self._set(own)

    def _set(self, when: Deadline) -> None:
        _state.stopping = False
        _state.last_stop.clear()
        _set_alarm(when)

    def owns(self, stop: BaseException) -> bool:
        outer = self.outer.at
        return (
            self.active and isinstance(stop, TimeUp) and (outer is None or time.monotonic() < outer)
        )

    def close(self) -> None:
        if self.active:
            # This scope's alarm, on its way or dropped by Python (a gc callback, come back
            # with :data:`REDELIVER`), is the piece's time out: it must not stop the run.
            _state.closed_scope = self.own
            if isinstance(_state.dropped, TimeUp) and self.owns(_state.dropped):
                _state.dropped = None
                _state.resumed += 1
            self._set(self._before)
            self.active = False
            # (SIGALRM's handler stays ours while a dropped stop is to come back with it)
            alone = _state.own_alarm and not _state.installed and _state.dropped is None
            if self._before.at is None and alone:
                signal.signal(signal.SIGALRM, signal.SIG_DFL)
                _state.own_alarm = False


# --------------------------------------------------------------------------- stops in disguise


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
    if _state.stopping and _state.last_stop:
        return _state.last_stop[-1]
    return None


def raise_swallowed() -> None:
    """Raise again a stop that was raised but never reached the run: Python runs a signal's
    handler wherever the main thread is, and an exception raised inside a fork hook or a ctypes
    callback (numba compiling) is printed as "ignored" and dropped."""
    raise_dropped()
    if _state.stopping and _state.last_stop and not _state.exit_claimed:
        raise _state.last_stop[-1]


def become_plain() -> None:
    """Make a process just forked a plain one: it is not the dlxsat process whose guard it
    inherited. No wake-up pipe shared with the parent's watchdog (a signal to the child would
    end the whole run), no stop or hook carried over, the default actions for SIGTERM and
    SIGALRM, SIGINT ignored (a Ctrl-C is the parent's to handle: it stops its children)."""
    global _state
    signal.set_wakeup_fd(-1)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGALRM, signal.SIG_DFL)
    pipe = _state.pipe
    _state = _State()
    if pipe is not None:
        for fd in pipe:
            try:
                os.close(fd)
            except OSError:
                pass
