"""What a stopped run must not leave behind: temporary files and child processes.

The temporary files are those of :func:`dlxsat.outputs.atomic_output` not yet renamed; the
children are every process the run started (compare's workers, portfolio members, external
solver programs), found through ``/proc`` so that a grandchild is not missed. Both are cleared
by the main thread when it reports a stop, and by the watchdog when it ends the process
(:mod:`dlxsat.runtime.guard`).
"""

from __future__ import annotations

import os
import signal
import sys

_temp_files: set[str] = set()


def track_temp(path: str) -> None:
    """Remember a temporary file (or folder: a certificate's, :mod:`dlxsat.certify`) to
    remove if the run is stopped before it is renamed."""
    _temp_files.add(path)


def untrack_temp(path: str) -> None:
    """Forget ``path``: it was renamed or removed."""
    _temp_files.discard(path)


def remove_temp_files() -> None:
    """Remove every temporary file still tracked (from any thread: each is removed once)."""
    for path in list(_temp_files):
        try:
            if os.path.isdir(path) and not os.path.islink(path):
                import shutil

                shutil.rmtree(path, ignore_errors=True)
            else:
                os.unlink(path)
        except OSError:
            pass
        _temp_files.discard(path)


def descendants(pid: int | None = None) -> list[int]:
    """The process ids of every descendant of ``pid`` (this process), children first.

    Read from ``/proc/PID/task/*/children`` (Linux); elsewhere only ``multiprocessing``'s
    children are known.

    >>> import subprocess
    >>> child = subprocess.Popen(["sleep", "5"])
    >>> child.pid in descendants()
    True
    >>> child.kill(); _ = child.wait()
    """
    root = os.getpid() if pid is None else pid
    found: list[int] = []
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
                if k not in found:
                    found.append(k)
                    todo.append(k)
    if not found and pid is None and "multiprocessing" in sys.modules:
        import multiprocessing

        found = [c.pid for c in multiprocessing.active_children() if c.pid]
    return found


def end_descendants() -> None:
    """Send ``SIGTERM`` to every descendant of this process."""
    for p in descendants():
        try:
            os.kill(p, signal.SIGTERM)
        except OSError:
            pass
