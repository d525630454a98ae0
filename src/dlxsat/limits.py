"""The names of the old ``dlxsat.limits``, kept for callers: the run's limits now live in
:mod:`dlxsat.runtime` -- :mod:`~dlxsat.runtime.deadline` (the time limit as a value),
:mod:`~dlxsat.runtime.guard` (signals, the alarm, the watchdog, the stop line),
:mod:`~dlxsat.runtime.cleanup` (temporary files, child processes),
:mod:`~dlxsat.runtime.memory` (``--memory`` and the estimates) and
:mod:`~dlxsat.runtime.processes` (forking workers). New code imports those.

There is no run deadline here to read: the CLI makes the run's
:class:`~dlxsat.runtime.deadline.Deadline` once, arms the alarm with it (:func:`arm`) and
hands it down.
"""

from __future__ import annotations

from .runtime.cleanup import descendants, remove_temp_files, track_temp, untrack_temp
from .runtime.deadline import Deadline, seconds_of
from .runtime.guard import (
    ALARM_GRACE,
    HARD_GRACE,
    MAX_COUNT,
    STARTED,
    Interrupted,
    Progress,
    Scope,
    Stop,
    TimeUp,
    arm,
    begin_run,
    claim_exit,
    disarm,
    end_children,
    finished,
    found,
    hard_exit,
    progress,
    raise_swallowed,
    rearm,
    resume,
    run_deadline,
    set_phase,
    stop_behind,
    stop_hook,
    stop_line,
)
from .runtime.guard import become_plain as become_worker
from .runtime.guard import install as install_process_guard
from .runtime.guard import installed as guard_installed
from .runtime.memory import (
    DEFAULT_SHARE,
    EXPORT_BYTES_PER_ENTRY,
    MIN_DEFAULT_MB,
    OverMemory,
    check_fits,
    data_in_use,
    default_memory_mb,
    estimate_bytes,
    machine_memory_mb,
)
from .runtime.memory import forget_limit as reset_memory_limit
from .runtime.memory import limit_mb as memory_limit_mb
from .runtime.memory import set_limit as set_memory_limit

__all__ = [
    "ALARM_GRACE",
    "DEFAULT_SHARE",
    "Deadline",
    "HARD_GRACE",
    "Interrupted",
    "EXPORT_BYTES_PER_ENTRY",
    "MAX_COUNT",
    "MIN_DEFAULT_MB",
    "OverMemory",
    "Progress",
    "STARTED",
    "Scope",
    "Stop",
    "TimeUp",
    "arm",
    "become_worker",
    "begin_run",
    "check_fits",
    "claim_exit",
    "data_in_use",
    "default_memory_mb",
    "descendants",
    "disarm",
    "end_children",
    "estimate_bytes",
    "finished",
    "found",
    "guard_installed",
    "hard_exit",
    "install_process_guard",
    "machine_memory_mb",
    "memory_limit_mb",
    "progress",
    "raise_swallowed",
    "rearm",
    "remove_temp_files",
    "reset_memory_limit",
    "resume",
    "run_deadline",
    "seconds_of",
    "set_memory_limit",
    "set_phase",
    "stop_behind",
    "stop_hook",
    "stop_line",
    "track_temp",
    "untrack_temp",
]
