"""Each job in a process of its own, with a hard time limit and a memory limit.

A worker is a child forked from the process that runs the comparison (the local runner, or a
Dask worker): it inherits the solver libraries already loaded there (see :func:`jobs.warm`), so
a job costs a fork, not an interpreter start and a second of imports. The child sets its memory
limit (``RLIMIT_AS``), runs :func:`jobs.run_job` and sends the record back as one JSON text
through a pipe. The parent kills it (``SIGKILL``) when it passes ``timeout + grace``: a solver
stuck in C code, ignoring its own time limit, cannot hang the run. The child also dies with its
parent (``PR_SET_PDEATHSIG``, and an alarm as a last resort), so a killed comparison leaves no
job running.

Plain ``os.fork`` rather than :mod:`multiprocessing`: Dask's worker processes are daemons, which
``multiprocessing`` forbids to have children, and one code path serves both runners.
"""

from __future__ import annotations

import json
import math
import os
import resource
import select
import signal
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from .jobs import FORK_LOCK, Job, base_record, now_iso, run_job


@dataclass
class Child:
    """A running worker: its process id, the read end of its pipe, and its deadline."""

    job: Job
    pid: int
    fd: int
    started: float
    deadline: float | None
    data: bytearray = field(default_factory=bytearray)
    killed: bool = False


def start(job: Job) -> Child:
    """Fork a worker for ``job``."""
    sys.stdout.flush()  # the child must not inherit unwritten output (it would print it twice)
    sys.stderr.flush()
    parent = os.getpid()
    read_fd, write_fd = os.pipe()
    with FORK_LOCK:
        pid = os.fork()
    if pid == 0:  # the child: never returns
        os.close(read_fd)
        _child(job, write_fd, parent)
    os.close(write_fd)
    try:
        os.setpgid(pid, pid)  # also here: the group must exist before a kill (no race)
    except (PermissionError, ProcessLookupError):
        pass  # the child did it first, or is gone already
    os.set_blocking(read_fd, False)
    now = time.monotonic()
    deadline = None if job.timeout is None else now + job.timeout + job.grace
    return Child(job, pid, read_fd, now, deadline)


def _child(job: Job, fd: int, parent: int) -> None:
    code = 0
    try:
        os.setpgid(0, 0)  # a group of its own, killed whole at the time limit
        die_with_parent(parent)
        if job.timeout is not None:
            signal.alarm(math.ceil(job.timeout + 3 * job.grace) + 5)
        if job.memory_mb is not None:
            limit = int(job.memory_mb * 1024 * 1024)
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        record = run_job(job)
        data = json.dumps(record).encode()
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.close(fd)  # the parent sees the end now, not after this process is torn down
    except BaseException:  # noqa: BLE001 - the parent records a silent death as an error
        code = 1
    finally:
        os._exit(code)  # no atexit handlers, no flushing of the parent's buffers


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


def read_some(child: Child) -> bool:
    """Read what ``child`` has sent; True when its pipe is closed (it is done or dead)."""
    while True:
        try:
            chunk = os.read(child.fd, 1 << 16)
        except BlockingIOError:
            return False
        if not chunk:
            return True
        child.data += chunk


def kill(child: Child) -> None:
    """Stop ``child`` at once, and whatever it started (an external solver program): the worker
    leads a process group of its own."""
    child.killed = True
    try:
        os.killpg(child.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        try:
            os.kill(child.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


#: Workers that sent their record and are exiting: reaped later, without waiting for them.
_exiting: list[int] = []


def _reap_exited() -> None:
    for pid in list(_exiting):
        try:
            done, _ = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            done = pid
        if done:
            _exiting.remove(pid)


def reap_all() -> None:
    """Wait for the workers still exiting (at the end of a run: no zombie is left behind)."""
    while _exiting:
        try:
            os.waitpid(_exiting.pop(), 0)
        except ChildProcessError:
            pass


def finish(child: Child) -> dict[str, Any]:
    """Reap ``child`` and return its job's record (made here when the worker died silently)."""
    os.close(child.fd)
    _reap_exited()
    if not child.killed and child.data:
        try:
            record = json.loads(child.data)
        except ValueError:
            pass
        else:
            _exiting.append(child.pid)  # it is freeing its memory: no need to wait for that
            return record
    _, status = os.waitpid(child.pid, 0)
    record = base_record(child.job)
    record["wall_seconds"] = round(time.monotonic() - child.started, 6)
    record["finished"] = now_iso()
    if child.killed:
        record["status"] = "timeout"
    elif child.job.memory_mb is not None and os.WIFSIGNALED(status):
        # A library that cannot allocate under RLIMIT_AS aborts or crashes rather than raising.
        record["status"] = "memout"
    else:
        how = (
            f"signal {os.WTERMSIG(status)}"
            if os.WIFSIGNALED(status)
            else f"exit status {os.WEXITSTATUS(status)}"
        )
        record["error"] = f"the worker died ({how}) without a result"
    return record


def run_isolated(job: Job) -> dict[str, Any]:
    """Run ``job`` in a worker of its own and wait for its record (the Dask path)."""
    from .jobs import warm

    warm(job)
    child = start(job)
    try:
        while not read_some(child):
            wait = None if child.deadline is None else child.deadline - time.monotonic()
            if wait is not None and wait <= 0:
                kill(child)
                break
            select.select([child.fd], [], [], wait)
    except BaseException:
        kill(child)
        raise
    finally:
        record = finish(child)
    return record
