"""Jobs in worker processes: a hard time limit and a memory limit for each job, one fork per
worker rather than per job.

A worker is a child forked from the process that runs the comparison (the local runner, or a
Dask worker) after that process loaded the solver libraries (:func:`jobs.warm`), so a worker
starts with them. It runs jobs one after the other: it reads a job (pickled, length first) from
one pipe, runs :func:`jobs.run_job` and writes the record back as one line of JSON on another.

The parent kills a worker -- its whole process group, so an external solver program goes too --
when its job passes ``timeout + grace``: a solver stuck in C code, ignoring its own limit, cannot
hang the run. The record says ``timeout`` and a fresh worker takes the next job. A worker also
dies with its parent (``PR_SET_PDEATHSIG``, and an alarm per job as a last resort), so a killed
comparison leaves no job running.

Why workers are reused (measured with ``benchmarks/compare.py``, 40 Masyu boards with ``sat``):
a fresh fork per job cost 13 to 16 ms a job, +19 to +25 % of solving them in one process. A fork
and exit is 1.3 ms of that; the rest is the child's first writes to the pages it shares with its
parent (copy on write: Python's reference counts write to every object a job touches; a 10 x 10
solve took 17.2 ms in a fresh child, 11.5 ms in the warm parent). A reused worker pays that once.

What reuse must not change, and how it does not:

* **The memory limit** is the one ``--memory`` means everywhere, the process's data
  (``RLIMIT_DATA``, :mod:`dlxsat.runtime.memory`), set as a soft limit before each job, giving
  it the room a fresh worker would have: the limit plus the data earlier jobs of this worker
  left behind. A job that runs out (``MemoryError``: ``memout``) or fails (``error``) is its
  worker's last: what follows gets a process whose heap no failed job left half-built.
* **One thread**, as a fresh fork has: a job that leaves a thread running (a library's thread
  pool) is its worker's last. Forking from a process with threads is unsafe, so the portfolio
  backend would otherwise start its members the slow way (``spawn``) in every later job.
* **Peak memory per job**: the kernel's high-water mark ``VmHWM`` is reset before each job by
  writing ``5`` to ``/proc/self/clear_refs`` (Linux 4.0 and later). Where that cannot be done,
  every worker runs one job, so the process's peak is the job's.
* **Memory left behind**: after a job that used more than :data:`HAND_BACK_MB`, the allocators
  hand back what they keep (``gc``, ``malloc_trim``); a job after which the worker still holds
  more than :data:`LEFTOVER_MB` of resident memory beyond what it held when forked is its
  worker's last, so no job's peak counts more than that of earlier jobs'
  leftovers. Each record also says what the worker held when the job started (``start_rss_mb``): the
  peak minus it is what the job itself added.
* **Signals and forking** follow :mod:`dlxsat.runtime.processes`, the layer the portfolio's
  members stand on too: a worker is a plain process, not a copy of the dlxsat program it was
  forked from (no share in the parent's signal handling, SIGINT ignored: a Ctrl-C is for the
  parent, which then kills its workers; it dies with its parent). Signals are held from before
  each fork until the parent has recorded the worker, and blocked in the child until it is a
  plain worker, so a Ctrl-C at that moment is not lost in the parent (an exception raised
  inside a fork hook is dropped), not handled by the parent's handler in the child, and leaves
  no worker that nobody would stop.
* **Isolation on demand**: ``worker_jobs`` bounds the jobs one worker runs; ``1`` gives every job
  a fresh process, as BenchExec does. Each record's ``worker_job`` says which job of its worker
  it was (1: a fresh process).

Plain ``os.fork`` rather than :mod:`multiprocessing`: Dask's worker processes are daemons, which
``multiprocessing`` forbids to have children, and one code path serves both runners.
"""

from __future__ import annotations

import atexit
import gc
import json
import math
import os
import pickle
import selectors
import signal
import struct
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..runtime import host, memory, processes
from ..runtime.memory import reset_peak
from ..runtime.memory import status_kb as memory_kb
from .jobs import FORK_LOCK, Job, base_record, now_iso, run_job, warm, warm_generation

#: The length in front of each pickled job on a worker's job pipe.
_LENGTH = struct.Struct("!Q")

#: Statuses after which a worker stops: its next job gets a clean process. (A worker also
#: stops when its job left a thread running or memory behind: see the module doc.)
LAST_JOB = frozenset({"memout", "error"})

#: MiB of resident memory a worker may hold beyond what it held when forked, after its last
#: job and after handing back what the allocators keep, before it makes way for a fresh one.
#: Measured on the 40 Masyu boards of puzzles/masyu-bench in one worker: sat ends at +16 MiB,
#: dlx and sat with the eager loop rule below that; CP-SAT takes 17 MiB at its first solve in
#: a process and ends at +64 after the 36 x 20 boards.
LEFTOVER_MB = 64

#: MiB above its start a job's peak must reach for the worker to hand memory back after it
#: (``gc.collect``, ``malloc_trim``: a millisecond or two, spent only after such jobs). A
#: 10 x 10 Masyu run after a 58 x 40 one peaked at 55 MiB without the hand-back, 29 with it,
#: 23 in a fresh worker.
HAND_BACK_MB = 8

#: Seconds a worker waits for the threads its job ended to leave ``/proc/self/task``: a
#: cancelled ``threading.Timer`` (the sat backend's time limit) is listed a moment longer, and
#: without the wait 16 of 35 Sudokus with ``sat:solver=glucose4`` went to a fresh worker
#: (with it, only the first: 1 of 35). A job that leaves no thread, the usual case, waits nothing.
THREADS_SETTLE = 0.05

#: How a process dies when an allocation fails under the memory limit in a library that aborts
#: or crashes rather than raising; a death by any other signal (a ``kill -9``) is an error.
_MEMOUT_SIGNALS = frozenset({signal.SIGABRT, signal.SIGSEGV, signal.SIGBUS})

#: Blocked while a worker is forked (see the module doc).
_BLOCKED = processes.BLOCKED
#: Signals held across a fork (the process layer's; named here for the tests).
_signals_held = processes.signals_held

#: ``False`` where the peak cannot be reset: every worker then runs a single job.
PEAK_RESETTABLE = reset_peak()


@dataclass
class Worker:
    """A worker process: the pipes to it, the job it runs (None: idle) and that job's deadline."""

    pid: int
    jobs_fd: int  # the parent writes jobs here (blocking: the worker is waiting for one)
    records_fd: int  # the worker writes records here (non-blocking in the parent)
    generation: int  # what was warmed when it was forked (jobs.warm_generation)
    # The thread that forked it: Linux ends a worker when that thread ends (PR_SET_PDEATHSIG
    # names a thread, not a process), so only that thread may give it jobs.
    owner: int = field(default_factory=threading.get_ident)
    run: object = None  # the local run that forked it (None: the Dask pool), see stop_all
    job: Job | None = None
    started: float = 0.0
    deadline: float | None = None
    jobs_run: int = 0
    data: bytearray = field(default_factory=bytearray)
    leaving: bool = False  # it said its last job is done: it exits by itself
    retired: bool = False  # its job pipe is closed: it is exiting
    killed: bool = False
    gone: bool = False  # reaped


#: Every worker this process forked and has not reaped, by process id, and the pipe ends the
#: parent holds for them (a new worker closes those at once, or a worker retired by closing its
#: job pipe would never see the end of it). Both under ``FORK_LOCK``: they must be right at the
#: moment of every fork, whichever thread forks.
_ALIVE: dict[int, Worker] = {}
_PARENT_FDS: set[int] = set()
#: Held while retired workers are reaped, so that no process id is waited for twice.
_REAP_LOCK = threading.Lock()


def spawn(run: object = None) -> Worker:
    """Fork a worker, idle until it is given a job; ``run`` is the token of the local run it
    works for (:func:`stop_all` ends that run's workers and no others)."""
    with processes.forking() as mask:
        return _spawn(run, mask)


def _spawn(run: object, mask: Any) -> Worker:
    parent = os.getpid()
    # (signals are held and blocked by processes.forking: for the child's sake too)
    with FORK_LOCK:
        fds: list[int] = []
        try:
            fds.extend(os.pipe())
            fds.extend(os.pipe())
            pid = os.fork()
        except OSError:
            for fd in fds:
                os.close(fd)
            raise
        jobs_r, jobs_w, records_r, records_w = fds
        if pid == 0:  # the child: never returns
            _child(jobs_r, records_w, (jobs_w, records_r, *_PARENT_FDS), parent, mask)
        os.close(jobs_r)
        os.close(records_w)
        _PARENT_FDS.update((jobs_w, records_r))
        worker = Worker(pid, jobs_w, records_r, warm_generation(), run=run)
        _ALIVE[pid] = worker  # before any signal can interrupt: the run's end finds it
    try:
        os.setpgid(pid, pid)  # also here: the group must exist before a kill (no race)
    except (PermissionError, ProcessLookupError):
        pass  # the child did it first, or is gone already
    os.set_blocking(records_r, False)
    return worker


def _child(
    jobs_fd: int, records_fd: int, inherited: tuple[int, ...], parent: int, mask: Any
) -> None:
    code = 0
    try:
        for fd in inherited:
            os.close(fd)
        processes.become_child(parent, mask)
        # What it inherited is never collected here: a collection after a job then scans only
        # what jobs made (a Dask worker's process has far more objects than the runner's).
        gc.freeze()
        os.setpgid(0, 0)  # a group of its own, killed whole at the time limit
        _serve(jobs_fd, records_fd)
    except BaseException:  # noqa: BLE001 - the parent records a silent death as an error
        code = 1
    finally:
        os._exit(code)  # no atexit handlers, no flushing of the parent's buffers


def _serve(jobs_fd: int, records_fd: int) -> None:
    """The worker's life: jobs in, records out, until the job pipe closes or a job is its last."""
    forked = memory_kb("VmRSS", "VmData")
    jobs_run = 0
    while True:
        job = _receive(jobs_fd)
        if job is None:
            return
        jobs_run += 1
        if job.timeout is not None:
            signal.alarm(math.ceil(job.timeout + 3 * job.grace) + 5)
        before = memory_kb("VmRSS", "VmData")
        left = 0 if not forked or not before else max(0, before["VmData"] - forked["VmData"])
        memory.limit_data(_soft_limit(job.memory_mb, left))
        reset_peak()
        record = run_job(job)
        record["worker_job"] = jobs_run
        record["start_rss_mb"] = None if before is None else round(before["VmRSS"] / 1024, 1)
        signal.alarm(0)
        if (record["peak_rss_mb"] or 0) - (record["start_rss_mb"] or 0) > HAND_BACK_MB:
            _hand_back()
        last = record["status"] in LAST_JOB or _threads_left() or _left_behind(forked)
        _send_all(records_fd, (b"L" if last else b"M") + json.dumps(record).encode() + b"\n")
        if last:
            return


def _threads_left() -> bool:
    """Whether the job left a thread running (given :data:`THREADS_SETTLE` to end)."""
    until = time.monotonic() + THREADS_SETTLE
    while host.threads() > 1:
        if time.monotonic() >= until:
            return True
        time.sleep(0.001)
    return False


def _hand_back() -> None:
    """Give back the memory the allocators keep after a large job: Python's free lists and
    unreachable cycles, the C heap's free pages."""
    gc.collect()
    if processes.LIBC is not None and hasattr(processes.LIBC, "malloc_trim"):
        processes.LIBC.malloc_trim(0)


def _left_behind(forked: dict[str, int] | None) -> bool:
    """Whether this worker holds more than :data:`LEFTOVER_MB` of resident memory beyond what
    it held when ``forked``."""
    now = memory_kb("VmRSS")
    if forked is None or now is None:
        return False
    return now["VmRSS"] - forked["VmRSS"] > LEFTOVER_MB * 1024


def _soft_limit(memory_mb: float | None, left_kb: int) -> int | None:
    """The data limit for a job, in bytes: ``memory_mb``, plus the data earlier jobs of this
    worker left (``left_kb``), so that the job has the room it would have in a fresh worker;
    None when there is no limit."""
    if memory_mb is None:
        return None
    return int(memory_mb * 1024 * 1024) + left_kb * 1024


def _receive(fd: int) -> Job | None:
    """The next job from the parent (None when it closed the pipe: time to stop)."""
    head = _read_exactly(fd, _LENGTH.size)
    if head is None:
        return None
    body = _read_exactly(fd, _LENGTH.unpack(head)[0])
    return None if body is None else pickle.loads(body)


def _read_exactly(fd: int, n: int) -> bytes | None:
    parts = []
    while n:
        chunk = os.read(fd, n)
        if not chunk:
            return None
        parts.append(chunk)
        n -= len(chunk)
    return b"".join(parts)


def _send_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


# ------------------------------------------------------------------------ the parent side


def give(worker: Worker, job: Job) -> bool:
    """Hand ``job`` to the idle ``worker``; False if the worker is gone (it is then reaped)."""
    data = pickle.dumps(job, protocol=pickle.HIGHEST_PROTOCOL)
    try:
        _send_all(worker.jobs_fd, _LENGTH.pack(len(data)) + data)
    except (BrokenPipeError, ConnectionResetError):
        _reap(worker)
        return False
    worker.job = job
    worker.started = time.monotonic()
    worker.deadline = None if job.timeout is None else worker.started + job.timeout + job.grace
    return True


def collect(worker: Worker) -> dict[str, Any] | None:
    """Read what ``worker`` sent; its job's record once it is whole (or made here when the
    worker died without one), None while the job is still running."""
    while True:
        try:
            chunk = os.read(worker.records_fd, 1 << 16)
        except BlockingIOError:
            return None
        if not chunk:  # the pipe closed before a whole record: the worker died
            return _death_record(worker)
        worker.data += chunk
        if worker.data.endswith(b"\n"):  # one job at a time: the record is whole
            try:
                record: dict[str, Any] = json.loads(worker.data[1:])
            except ValueError:
                return _death_record(worker)
            worker.leaving = worker.data[:1] == b"L"
            worker.data.clear()
            worker.job = None
            worker.jobs_run += 1
            return record


def stays(worker: Worker, worker_jobs: int | None) -> bool:
    """Whether ``worker``, which just finished a job, takes another; if not it is retired (it
    leaves by itself when it said so, or when its job pipe closes)."""
    if worker.gone:
        return False
    if (
        not worker.leaving
        and PEAK_RESETTABLE
        and (worker_jobs is None or worker.jobs_run < worker_jobs)
    ):
        return True
    retire(worker)
    return False


def expire(worker: Worker) -> dict[str, Any]:
    """The record of ``worker``'s job, which passed its deadline: the one it sent, if it came in
    the meantime, else ``timeout`` (the worker is killed)."""
    record = collect(worker)
    if record is not None:
        return record
    kill(worker)
    return _death_record(worker)


def kill(worker: Worker) -> None:
    """Stop ``worker`` at once, and whatever it started (an external solver program): the worker
    leads a process group of its own."""
    worker.killed = True
    try:
        os.killpg(worker.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        try:
            os.kill(worker.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def _close(worker: Worker) -> None:
    with FORK_LOCK:  # no fork between forgetting an fd and closing it (see _PARENT_FDS)
        for fd in (worker.jobs_fd, worker.records_fd):
            if fd in _PARENT_FDS:
                try:
                    os.close(fd)
                finally:  # (an interrupt right after the close must not leave it listed)
                    _PARENT_FDS.discard(fd)
        # Never again by number: it may soon name another worker's pipe.
        worker.jobs_fd = worker.records_fd = -1


def _reap(worker: Worker, block: bool = True) -> int | None:
    """Close ``worker``'s pipes, wait for it (dead, killed or leaving) and forget it; its wait
    status, or None when not ``block`` and it has not exited yet."""
    _close(worker)
    try:
        pid, status = os.waitpid(worker.pid, 0 if block else os.WNOHANG)
    except ChildProcessError:
        pid, status = worker.pid, 0
    if not pid:
        return None
    worker.gone = True
    with FORK_LOCK:
        _ALIVE.pop(worker.pid, None)
    return status


def _death_record(worker: Worker) -> dict[str, Any]:
    """Reap a dead (or killed) worker; the record of the job it took with it."""
    status = _reap(worker)
    assert status is not None
    job = worker.job
    assert job is not None, "a worker died between jobs"
    record = base_record(job)
    record["wall_seconds"] = round(time.monotonic() - worker.started, 6)
    record["worker_job"] = worker.jobs_run + 1
    record["finished"] = now_iso()
    sig = os.WTERMSIG(status) if os.WIFSIGNALED(status) else None
    late = worker.deadline is not None and time.monotonic() >= worker.deadline
    if worker.killed or late or sig == signal.SIGALRM:  # (SIGALRM: its last-resort alarm)
        record["status"] = "timeout"
    elif job.memory_mb is not None and sig in _MEMOUT_SIGNALS:
        record["status"] = "memout"
    else:
        how = f"signal {sig}" if sig is not None else f"exit status {os.WEXITSTATUS(status)}"
        record["error"] = f"the worker died ({how}) without a result"
    worker.job = None
    return record


def retire(worker: Worker) -> None:
    """Let an idle ``worker`` go: closing its job pipe ends its loop (reaped later)."""
    worker.retired = True
    _close(worker)
    reap_retired(block=False)


def reap_retired(block: bool) -> None:
    """Reap the retired workers that have exited (``block``: wait for all of them)."""
    with _REAP_LOCK:
        with FORK_LOCK:
            retired = [w for w in _ALIVE.values() if w.retired and not w.gone]
        for worker in retired:  # (closed again: a retire cut short may not have)
            _reap(worker, block)


def stop_all(run: object) -> None:
    """Kill and reap every worker forked for ``run`` (see :func:`spawn`) and not yet gone: the
    end of a run, finished or interrupted. Killing an idle worker loses nothing; the workers
    of other runs (another thread's, the Dask pool) are not touched."""
    with FORK_LOCK:
        mine = [w for w in _ALIVE.values() if w.run is run]
    # Every step is safe to repeat: a Ctrl-C that lands here (a caller's KeyboardInterrupt)
    # is kept for the end, so that the clean-up is never left half-done.
    stop: BaseException | None = None
    steps: list[Callable[[], None]] = [
        *(lambda w=w: _end(w) for w in mine),
        lambda: reap_retired(block=True),
    ]
    for step in steps:
        while True:
            try:
                step()
                break
            except BaseException as e:  # noqa: BLE001 - raised again below
                stop = stop or e
    if stop is not None:
        raise stop


def _end(worker: Worker) -> None:
    if not worker.retired:
        kill(worker)
    _close(worker)
    worker.retired = True


# ------------------------------------------------------------------------ the Dask side

#: Idle workers of this process (a Dask worker), kept between its jobs.
_IDLE: list[Worker] = []
_IDLE_LOCK = threading.Lock()


def run_isolated(job: Job, worker_jobs: int | None = None) -> dict[str, Any]:
    """Run ``job`` in a worker and wait for its record (the Dask path: each Dask thread takes an
    idle worker of this process, or forks one)."""
    warm(job)
    worker = _idle_worker()
    while not give(worker, job):
        worker = spawn()
    try:
        record = None
        with selectors.DefaultSelector() as selector:
            selector.register(worker.records_fd, selectors.EVENT_READ)
            while record is None:
                wait = None if worker.deadline is None else worker.deadline - time.monotonic()
                if wait is not None and wait <= 0:
                    selector.unregister(worker.records_fd)
                    record = expire(worker)
                    break
                selector.select(wait)
                record = collect(worker)
    except BaseException:
        kill(worker)
        if not worker.gone:
            _reap(worker)
        raise
    if stays(worker, worker_jobs):
        with _IDLE_LOCK:
            _IDLE.append(worker)
    return record


def _idle_worker() -> Worker:
    """An idle worker this thread forked after everything now warmed was loaded (this thread's
    older ones are retired: they would load the rest inside the job's time)."""
    now, me = warm_generation(), threading.get_ident()
    with _IDLE_LOCK:
        for worker in [w for w in _IDLE if w.owner == me]:
            _IDLE.remove(worker)
            if worker.generation == now:
                return worker
            retire(worker)
    return spawn()


def retire_idle() -> None:
    """Retire this process's idle workers (at the end of a Dask run, and at exit)."""
    with _IDLE_LOCK:
        while _IDLE:
            retire(_IDLE.pop())
    reap_retired(block=True)


atexit.register(retire_idle)
