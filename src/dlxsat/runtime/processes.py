"""The process layer under ``compare``'s workers and the portfolio's members: how dlxsat forks a
child that works for it, and what it asks of the process it forks from.

One discipline for every fork, in one place:

* **Before the fork** (:func:`forking`): unwritten output is flushed (the child would print it
  again); ``SIGINT``, ``SIGTERM`` and ``SIGALRM`` are held (:func:`signals_held`: a signal that
  comes meanwhile is raised again after the block, for its own handler, rather than landing
  between the fork and the line that records the child) and blocked, so the child cannot run
  the parent's handler before it has its own; and the guard's watchdog thread is paused
  (:func:`dlxsat.runtime.guard.watchdog_paused`), so that the process forks with one thread.
* **In the child** (:func:`become_child`): it is made a plain process -- none of the parent's
  signal handling, its wake-up pipe closed, ``SIGINT`` ignored (a Ctrl-C reaches the whole
  process group, and stopping children is the parent's job) -- and asks Linux to kill it when
  the parent dies (``PR_SET_PDEATHSIG``), so not even a ``SIGKILL`` of the parent leaves it
  running. Only then are its signals unblocked.
* **Whether a fork is safe** (:func:`single_threaded`): a lock held by another thread at the
  fork stays locked forever in the child, so dlxsat forks only a process with one thread,
  which ``/proc/self/task`` counts exactly (native threads of OR-tools or numba included;
  :func:`dlxsat.runtime.host.threads`).
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any

from . import guard
from .host import threads

#: Held and blocked while a child is forked (see the module doc).
BLOCKED = frozenset({signal.SIGINT, signal.SIGTERM, signal.SIGALRM})


def single_threaded() -> bool:
    """Whether this process may fork safely: Linux, and one thread (see the module doc; not
    where ``/proc`` cannot count them).

    >>> single_threaded() == (sys.platform == "linux" and threads() == 1)
    True
    """
    return sys.platform == "linux" and threads(unknown=0) == 1


def _libc() -> Any:
    """The C library, loaded once here rather than in every child."""
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True)
    except (OSError, ImportError):
        return None


LIBC = _libc()


def die_with_parent(parent: int) -> None:
    """Ask Linux to ``SIGKILL`` this process when its parent dies (a no-op elsewhere); leave
    at once if ``parent`` died before the request took effect."""
    if LIBC is None:
        return
    try:
        LIBC.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
    except AttributeError:  # no prctl: not Linux
        return
    if os.getppid() != parent:
        os._exit(1)


@contextlib.contextmanager
def signals_held(on_signal: Callable[[int], object] | None = None) -> Iterator[None]:
    """Hold the signals of :data:`BLOCKED` for the length of the block, then raise each one
    that came again, for its own handler. Blocking them is not enough in the parent: the
    kernel hands a signal to another thread (a watchdog, a timer), and Python still runs the
    handler in the main thread at its next instruction -- between a fork and the line that
    records the child, say, leaving a child nobody would stop. ``on_signal`` is told of each
    signal as it comes (a long call that runs Python callbacks can then end itself early)."""
    if threading.current_thread() is not threading.main_thread():
        yield  # (signals are handled in the main thread; a thread here need not hold them)
        return
    came: list[int] = []
    held: dict[int, Any] = {}
    first: BaseException | None = None
    try:
        for s in BLOCKED:
            handler = signal.getsignal(s)
            # Not swapped: a handler set from C (not ours), and a signal the process ignores
            # -- a shell starts background jobs with SIGINT ignored, and a Ctrl-C meant for the
            # foreground must not end their search.
            if handler is not None and handler is not signal.SIG_IGN:
                held[s] = handler
                signal.signal(s, lambda signum, _frame: _held(came, signum, on_signal))
        yield
    finally:
        # Put back whatever happens meanwhile: a signal whose handler raises may land here
        # too, and a handler left swapped would drop that signal for good.
        while True:
            try:
                for signum, handler in held.items():
                    signal.signal(signum, handler)
                break
            except BaseException as e:  # noqa: BLE001 - raised again below
                first = first or e
        for signum in dict.fromkeys(came):
            signal.raise_signal(signum)  # (its handler now, with a real frame)
    if first is not None:
        raise first


def _held(came: list[int], signum: int, on_signal: Callable[[int], object] | None) -> None:
    came.append(signum)
    if on_signal is not None:
        on_signal(signum)


@contextlib.contextmanager
def forking() -> Iterator[Any]:
    """The block around a fork (``os.fork``, or ``multiprocessing``'s ``fork`` start): output
    flushed, signals held and blocked, the watchdog paused (see the module doc). Yields the
    signal mask to give the child back in :func:`become_child`."""
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            pass
    with signals_held(), guard.watchdog_paused():
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, BLOCKED)
        try:
            yield mask
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)


def become_child(parent: int, mask: Any = None) -> None:
    """Make a process just forked by :func:`forking` a plain child of ``parent`` (see the module
    doc), then give it back the signal ``mask`` (None: leave the mask as it is)."""
    guard.become_plain()
    die_with_parent(parent)
    if mask is not None:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
