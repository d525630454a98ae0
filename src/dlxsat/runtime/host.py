"""What this process runs on and with: the cores it may use, the threads it has; and which
processes of this machine are still running (:func:`running`), for what a killed run left.

The one place either is counted: how many workers a run may start (``compare``'s jobs, the
portfolio, the solvers' thread options: :func:`dlxsat.solvers.max_workers`) follows from
:func:`cores`, and whether the process may fork (:func:`dlxsat.runtime.processes.single_threaded`,
the guard's watchdog pausing for a fork, ``compare``'s workers checking that a job left no
thread behind) from :func:`threads`.

>>> cores() >= 1 and threads() >= 1
True
"""

from __future__ import annotations

import os


def cores() -> int:
    """The cores this process may run on: its CPU affinity where the system has one (a
    container or ``taskset`` may give it fewer than the machine has), else the machine's."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def threads(unknown: int = 1) -> int:
    """The threads of this process, native ones included (OR-tools', numba's), as
    ``/proc/self/task`` counts them exactly; ``unknown`` where it cannot say."""
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return unknown


def start_ticks(pid: int) -> int:
    """When process ``pid`` started, in clock ticks since boot (``/proc/PID/stat``): with the
    pid, it tells a process apart from a later one given the same pid. 0 where it cannot be
    read (no such process, no ``/proc``)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
    except OSError:
        return 0
    # The command name (field 2) may hold spaces: the fields after its ')' are fixed.
    try:
        return int(stat[stat.rfind(b")") + 2 :].split()[19])
    except (IndexError, ValueError):
        return 0


def running(pid: int, ticks: int) -> bool:
    """Whether the process ``pid`` that started at ``ticks`` (:func:`start_ticks`) still runs
    on this machine: False once it has ended, even when its pid was given to another since.

    >>> running(os.getpid(), start_ticks(os.getpid())), running(os.getpid(), -1)
    (True, False)
    """
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # alive, another user's
    except OSError:
        return False
    return start_ticks(pid) == ticks
