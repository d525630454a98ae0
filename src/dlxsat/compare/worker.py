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

* **The memory limit** is a soft ``RLIMIT_AS`` set before each job. A job that runs out
  (``MemoryError``: ``memout``) or fails (``error``) is its worker's last: what follows gets a
  process whose heap no failed job left half-built.
* **One thread**, as a fresh fork has: a job that leaves a thread running (a library's thread
  pool) is its worker's last. Forking from a process with threads is unsafe, so the portfolio
  backend would otherwise start its members the slow way (``spawn``) in every later job.
* **Peak memory per job**: the kernel's high-water mark ``VmHWM`` is reset before each job by
  writing ``5`` to ``/proc/self/clear_refs`` (Linux 4.0 and later). Where that cannot be done,
  every worker runs one job, so the process's peak is the job's.
* **Isolation on demand**: ``worker_jobs`` bounds the jobs one worker runs; ``1`` gives every job
  a fresh process, as BenchExec does. Each record's ``worker_job`` says which job of its worker
  it was (1: a fresh process).

Plain ``os.fork`` rather than :mod:`multiprocessing`: Dask's worker processes are daemons, which
``multiprocessing`` forbids to have children, and one code path serves both runners.
"""

from __future__ import annotations

import atexit
import json
import math
import os
import pickle
import resource
import select
import signal
import struct
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from .jobs import (
    FORK_LOCK,
    Job,
    base_record,
    now_iso,
    reset_peak,
    run_job,
    warm,
    warm_generation,
)

#: The length in front of each pickled job on a worker's job pipe.
_LENGTH = struct.Struct("!Q")

#: Statuses after which a worker stops: its next job gets a clean process. (A worker also
#: stops when its job left a thread running: see the module doc.)
LAST_JOB = frozenset({"memout", "error"})


def _peak_resettable() -> bool:
    """Whether this kernel lets a process reset its peak memory (tried once, in the parent)."""
    return reset_peak()


#: ``False`` where the peak cannot be reset: every worker then runs a single job.
PEAK_RESETTABLE = _peak_resettable()


@dataclass
class Worker:
    """A worker process: the pipes to it, the job it runs (None: idle) and that job's deadline."""

    pid: int
    jobs_fd: int  # the parent writes jobs here (blocking: the worker is waiting for one)
    records_fd: int  # the worker writes records here (non-blocking in the parent)
    generation: int  # what was warmed when it was forked (jobs.warm_generation)
    job: Job | None = None
    started: float = 0.0
    deadline: float | None = None
    jobs_run: int = 0
    data: bytearray = field(default_factory=bytearray)
    leaving: bool = False  # it said its last job is done: it exits by itself
    killed: bool = False
    gone: bool = False  # reaped: dead, or killed


#: The pipe ends the parent holds for its workers: a new worker closes them at once, or a worker
#: retired by closing its job pipe would never see the end of it.
_PARENT_FDS: set[int] = set()


def spawn() -> Worker:
    """Fork a worker, idle until it is given a job."""
    sys.stdout.flush()  # the child must not inherit unwritten output (it would print it twice)
    sys.stderr.flush()
    parent = os.getpid()
    with FORK_LOCK:
        jobs_r, jobs_w = os.pipe()
        records_r, records_w = os.pipe()
        generation = warm_generation()
        pid = os.fork()
        if pid == 0:  # the child: never returns
            for fd in (jobs_w, records_r, *_PARENT_FDS):
                os.close(fd)
            _serve(jobs_r, records_w, parent)
        os.close(jobs_r)
        os.close(records_w)
        _PARENT_FDS.update((jobs_w, records_r))
    try:
        os.setpgid(pid, pid)  # also here: the group must exist before a kill (no race)
    except (PermissionError, ProcessLookupError):
        pass  # the child did it first, or is gone already
    os.set_blocking(records_r, False)
    return Worker(pid, jobs_w, records_r, generation)


def _serve(jobs_fd: int, records_fd: int, parent: int) -> None:
    """The worker's life: jobs in, records out, until the job pipe closes or a job fails."""
    code = 0
    try:
        os.setpgid(0, 0)  # a group of its own, killed whole at the time limit
        die_with_parent(parent)
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        jobs_run = 0
        while True:
            job = _receive(jobs_fd)
            if job is None:
                break
            jobs_run += 1
            if job.timeout is not None:
                signal.alarm(math.ceil(job.timeout + 3 * job.grace) + 5)
            resource.setrlimit(resource.RLIMIT_AS, (_soft_limit(job.memory_mb, hard), hard))
            reset_peak()
            record = run_job(job)
            record["worker_job"] = jobs_run
            signal.alarm(0)
            last = record["status"] in LAST_JOB or _threads() > 1
            _send_all(records_fd, (b"L" if last else b"M") + json.dumps(record).encode() + b"\n")
            if last:
                break
    except BaseException:  # noqa: BLE001 - the parent records a silent death as an error
        code = 1
    finally:
        os._exit(code)  # no atexit handlers, no flushing of the parent's buffers


def _threads() -> int:
    """The threads of this process, native ones included (1 where ``/proc`` cannot say)."""
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return 1


def _soft_limit(memory_mb: float | None, hard: int) -> int:
    if memory_mb is None:
        return hard
    limit = int(memory_mb * 1024 * 1024)
    return limit if hard == resource.RLIM_INFINITY else min(limit, hard)


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


def _libc() -> Any:
    """The C library, loaded once here rather than in every worker."""
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True)
    except (OSError, ImportError):
        return None


_LIBC = _libc()


def die_with_parent(parent: int) -> None:
    """Ask Linux to kill this process when its parent dies (a no-op elsewhere)."""
    if _LIBC is None:
        return
    try:
        _LIBC.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except AttributeError:  # no prctl: not Linux
        return
    if os.getppid() != parent:  # the parent died before the request took effect
        os._exit(1)


def give(worker: Worker, job: Job) -> bool:
    """Hand ``job`` to the idle ``worker``; False if the worker is gone (it is then reaped)."""
    data = pickle.dumps(job, protocol=pickle.HIGHEST_PROTOCOL)
    try:
        _send_all(worker.jobs_fd, _LENGTH.pack(len(data)) + data)
    except (BrokenPipeError, ConnectionResetError):
        _close(worker)
        os.waitpid(worker.pid, 0)
        worker.gone = True
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
                record = json.loads(worker.data[1:])
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
    """Kill ``worker`` (its job passed its deadline) and return the job's ``timeout`` record."""
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
    for fd in (worker.jobs_fd, worker.records_fd):
        if fd in _PARENT_FDS:
            _PARENT_FDS.discard(fd)
            os.close(fd)


def _death_record(worker: Worker) -> dict[str, Any]:
    """Reap a dead (or killed) worker; the record of the job it took with it."""
    _close(worker)
    _, status = os.waitpid(worker.pid, 0)
    worker.gone = True
    job = worker.job
    assert job is not None, "a worker died between jobs"
    record = base_record(job)
    record["wall_seconds"] = round(time.monotonic() - worker.started, 6)
    record["worker_job"] = worker.jobs_run + 1
    record["finished"] = now_iso()
    if worker.killed:
        record["status"] = "timeout"
    elif job.memory_mb is not None and os.WIFSIGNALED(status):
        # A library that cannot allocate under RLIMIT_AS aborts or crashes rather than raising.
        record["status"] = "memout"
    else:
        how = (
            f"signal {os.WTERMSIG(status)}"
            if os.WIFSIGNALED(status)
            else f"exit status {os.WEXITSTATUS(status)}"
        )
        record["error"] = f"the worker died ({how}) without a result"
    worker.job = None
    return record


#: Retired workers that are exiting: reaped later, without waiting for them to free memory.
_exiting: list[int] = []


def retire(worker: Worker) -> None:
    """Let an idle ``worker`` go: closing its job pipe ends its loop."""
    _close(worker)
    _exiting.append(worker.pid)
    for pid in list(_exiting):
        try:
            done, _ = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            done = pid
        if done:
            _exiting.remove(pid)


def reap_all() -> None:
    """Wait for the retired workers still exiting (at the end of a run: no zombie is left)."""
    while _exiting:
        try:
            os.waitpid(_exiting.pop(), 0)
        except ChildProcessError:
            pass


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
        while record is None:
            wait = None if worker.deadline is None else worker.deadline - time.monotonic()
            if wait is not None and wait <= 0:
                return expire(worker)
            select.select([worker.records_fd], [], [], wait)
            record = collect(worker)
    except BaseException:
        kill(worker)
        if worker.job is not None:
            _death_record(worker)
        raise
    if stays(worker, worker_jobs):
        with _IDLE_LOCK:
            _IDLE.append(worker)
    return record


def _idle_worker() -> Worker:
    """An idle worker forked after everything now warmed was loaded (older ones are retired:
    they would load the rest inside the job's time)."""
    now = warm_generation()
    with _IDLE_LOCK:
        while _IDLE:
            worker = _IDLE.pop()
            if worker.generation == now:
                return worker
            retire(worker)
    return spawn()


def retire_idle() -> None:
    """Retire this process's idle workers (at the end of a Dask run, and at exit)."""
    with _IDLE_LOCK:
        while _IDLE:
            retire(_IDLE.pop())
    reap_all()


atexit.register(retire_idle)
