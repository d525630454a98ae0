"""What this process runs on and with: the cores it may use, the threads it has.

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
