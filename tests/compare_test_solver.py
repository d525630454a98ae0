"""A solver for the tests of ``dlxsat compare`` only: it can sleep past its time limit (like a
solver stuck in C code), or lie. Registered by the tests in ``dlxsat.solvers.SOLVERS`` as
``slow``; the forked workers of ``compare`` inherit the registration."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from dlxsat.options import Option
from dlxsat.result import SearchResult
from dlxsat.solvers import Request, SolverSpec

OPTIONS = (
    Option("sleep", float, 0.0, "seconds to sleep first, whatever the time limit", low=0),
    Option("lie", bool, False, "say there is no answer"),
    Option("hog", int, 0, "MiB of memory to fill first", low=0),
    Option("fail", bool, False, "raise an exception (a solver's crash)"),
    Option("linger", bool, False, "leave a thread running (as a library's thread pool does)"),
    Option("leak", int, 0, "MiB of memory to keep after returning (a leak)", low=0),
    Option("reserve", int, 0, "MiB of address space to reserve, untouched, and keep", low=0),
    Option("die", int, 0, "end this process with this signal (0: do not)", low=0),
    Option("timer", bool, False, "leave a thread that ends 5 ms later (a cancelled timer's)"),
)

SPEC = SolverSpec(
    name="slow",
    kind="search",
    summary="test only: sat, after a sleep that ignores the time limit; or a liar",
    options=OPTIONS,
)

#: What ``leak`` keeps.
_LEAKED: list = []


def solve(problem: Any, request: Request, options: Mapping[str, Any]) -> SearchResult:
    sleep, lie, hog = options.get("sleep", 0.0), options.get("lie", False), options.get("hog", 0)
    fail, linger, leak = (
        options.get("fail", False),
        options.get("linger", False),
        options.get("leak", 0),
    )
    timer, die, reserve = (
        options.get("timer", False),
        options.get("die", 0),
        options.get("reserve", 0),
    )
    if reserve:
        import mmap

        _LEAKED.append(mmap.mmap(-1, reserve << 20))  # counted in VmSize, not resident
    if die:
        import os
        import signal

        if die != signal.SIGKILL:  # (which has no handler to reset)
            signal.signal(die, signal.SIG_DFL)
        os.kill(os.getpid(), die)
        time.sleep(10)  # (a signal whose default is to go on: the parent's limit ends it)
    _LEAKED.append(bytearray(leak << 20))
    if linger:
        import threading

        threading.Thread(target=time.sleep, args=(3600,), daemon=True).start()
    time.sleep(sleep)
    if fail:
        raise RuntimeError("the test solver fails on purpose")
    filled = bytearray(hog << 20)  # noqa: F841 - held until the solver returns
    if lie:
        return SearchResult(count=0, exhausted=True)
    from dlxsat.backends import cnf

    result = cnf.solve(problem, request, {})
    if timer:  # a thread that ends a moment after the search, as a cancelled timer's does
        import threading

        threading.Thread(target=time.sleep, args=(0.005,)).start()
    return result
