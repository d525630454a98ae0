"""The native dancing-links backend: Knuth's DLX1/DLX2/DLX3 (and DLX2-LOOP) in compiled code.

The algorithm is chosen from the data (``problem.kind``): Algorithm X for exact cover with
secondary items (``XC``, DLX1), Algorithm C when colors appear (``XCC``, DLX2), Algorithm M
when multiplicities appear (``MCC``, DLX3). The search trees are Knuth's -- same item choice,
same tie breaking, same ``nodes`` and ``updates`` figures as his programs with default options.
With ``loop=True`` the single-loop rule of DLX2-LOOP is enforced (on Algorithm M too).

The search runs in numba kernels (``kernel.py``) over flat integer arrays (``arrays.py``). A
kernel returns to Python every few milliseconds, so that the time limit, the solution limit
and the storing of solutions are handled here while the kernel resumes where it stopped.
numba is imported only when this backend runs; numba caches the compiled kernels on disk, and
the time to compile or load them is reported apart (``compile_seconds``) from the search time
(``seconds``).

>>> from dlxsat.xcc import parse
>>> r = solve(parse("a b c | x\\na b x:0\\nc x:1\\na x:1\\nb c\\n"))
>>> r.count, r.solutions, r.exhausted, r.stats["algorithm"], r.stats["nodes"]
(1, [[2, 3]], True, 'C', 4)
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from ... import limits
from ...errors import InputError
from ...xcc.model import Problem
from .. import SearchResult, check_limits

if TYPE_CHECKING:
    from .arrays import Arrays

NAME = "dlx"
KIND = "search"
SUMMARY = "Knuth's dancing links (Algorithms X, C, M; DLX2-LOOP's single-loop rule), compiled"
OPTIONS: tuple = ()

#: Which of Knuth's algorithms solves which kind of problem.
ALGORITHMS = {"XC": "X", "XCC": "C", "MCC": "M"}

#: A kernel call should take about this long (seconds): short enough for a prompt time limit,
#: long enough that going back to Python costs nothing.
SLICE = 0.01
#: Nodes in the first kernel call, and the fewest in any call (the budget adapts in between).
FIRST_BUDGET = 1024
MIN_BUDGET = 16

_loaded: dict[str, Any] = {}


def _kernels(dtype: Any) -> tuple[Any, float]:
    """The kernel module with its kernels for ``dtype`` arrays compiled or loaded from numba's
    cache; and the seconds that took (0 once done in this process)."""
    key = dtype.__name__
    if key in _loaded:
        return _loaded[key], 0.0
    start = time.perf_counter()
    from . import kernel

    kernel.warm_up(dtype)
    _loaded[key] = kernel
    return kernel, time.perf_counter() - start


def load() -> None:
    """Import numba and load the compiled kernels for the usual (``int16``) tables now, so that
    a caller can time that apart."""
    import numpy as np

    _kernels(np.int16)


def solve(
    problem: Problem,
    *,
    loop: bool = False,
    allow_empty_loop: bool = True,
    limit: int | None = None,
    keep: int | None = None,
    timeout: float | None = None,
    **options: Any,
) -> SearchResult:
    """Find the solutions of ``problem`` (see ``dlxsat.backends`` for the arguments).

        ``stats``: ``algorithm`` (``X``, ``C`` or ``M``), ``loop`` (whether the loop rule was
        on), ``nodes``, ``updates`` (Knuth's counts), ``seconds`` (the search), ``compile_seconds``
        (compiling or loading the kernels, the first time in a process), ``build_seconds`` (laying
        out the arrays), ``arrays`` (``int16`` or ``int32``: the kernels' integer size, the
    smallest that holds the problem). ``timeout`` bounds the search time; the compiling is not
    counted.
    """
    if options:
        raise InputError(f"the dlx backend takes no option {', '.join(map(repr, sorted(options)))}")
    check_limits(limit, keep, timeout)

    from ...xcc.loop import loop_graph
    from .arrays import build, kernel_dtype  # (numpy: imported here, outside the timings)

    stats: dict[str, Any] = {
        "algorithm": ALGORITHMS[problem.kind],
        "loop": bool(loop),
        "nodes": 0,
        "updates": 0,
        "seconds": 0.0,
        "compile_seconds": 0.0,
        "build_seconds": 0.0,
    }
    result = SearchResult(stats=stats)
    start = time.perf_counter()
    deadline = None if timeout is None else start + timeout
    graph = loop_graph(problem) if loop else None
    if problem.n_primary == 0:
        # Nothing to cover (e.g. a Sudoku with every cell given): one solution, choosing
        # nothing -- whose edge set is empty, for the loop rule.
        if limit != 0:
            stats["nodes"] = 1
            result.exhausted = True
            if not loop or allow_empty_loop:
                result.count = 1
                if keep != 0:
                    result.solutions.append([])
        return result

    arrays = build(problem, graph)
    dtype = kernel_dtype(arrays)
    stats["arrays"] = dtype.__name__
    stats["build_seconds"] = time.perf_counter() - start
    k, stats["compile_seconds"] = _kernels(dtype)
    if limit == 0:
        return result
    _search(k, arrays, dtype, result, loop, allow_empty_loop, limit, keep, deadline)
    return result


def _search(
    k: Any,
    arrays: Arrays,
    dtype: Any,
    result: SearchResult,
    loop: bool,
    allow_empty_loop: bool,
    limit: int | None,
    keep: int | None,
    deadline: float | None,
) -> None:
    """Run the right kernel slice by slice until it is done, stopped, or out of time
    (``deadline``, a ``time.perf_counter`` time)."""
    import numpy as np

    params = np.zeros(k.N_PARAMS, dtype=np.int64)
    params[k.P_SECOND] = arrays.second
    params[k.P_LAST_ITM] = arrays.last_itm
    params[k.P_LOOP] = 1 if loop else 0
    params[k.P_ALLOW_EMPTY] = 1 if allow_empty_loop else 0
    params[k.P_MAX_COUNT] = limit if limit is not None else 1 << 62
    rows = 256 if keep is None else max(1, min(keep, 256))
    sols = np.zeros((rows, arrays.max_level), dtype=np.int32)
    sol_len = np.zeros(rows, dtype=np.int32)
    st = k.new_state()
    nd, ln, cl = (
        k.flat(arrays.nd, dtype),
        k.lengths(arrays.nd, arrays.n_items),
        k.flat(arrays.cl, dtype),
    )
    if result.stats["algorithm"] == "M":  # the choices and DLX3's first_tweak of each level
        kernel, stack = k.search_m, np.zeros((2, arrays.max_level), dtype=np.int32)
    else:  # the choices
        kernel, stack = k.search_c, np.zeros(arrays.max_level, dtype=np.int32)

    budget = FIRST_BUDGET
    solutions = result.solutions
    search_start = time.perf_counter()
    while True:
        wanted = rows if keep is None else min(rows, keep - len(solutions))
        params[k.P_STORE_CAP] = wanted
        params[k.P_BUDGET] = budget
        t0 = time.perf_counter()
        status = kernel(nd, ln, cl, arrays.opt_of, stack, st, params, sols, sol_len)
        t1 = time.perf_counter()
        for i in range(int(st[k.S_STORED])):
            solutions.append(sorted(sols[i, : sol_len[i]].tolist()))
        st[k.S_STORED] = 0
        limits.found(int(st[k.S_COUNT]))  # the figures, should the run be stopped
        if status == k.DONE:
            result.exhausted = True
            break
        if status == k.LIMIT:
            break
        if deadline is not None and t1 >= deadline:
            result.timed_out = True
            break
        if status == k.BUDGET:
            # Aim at SLICE seconds per call.
            if t1 - t0 < SLICE / 2:
                budget = min(budget * 2, 1 << 40)
            elif t1 - t0 > SLICE * 2:
                budget = max(budget // 2, MIN_BUDGET)
    stats = result.stats
    stats["seconds"] = time.perf_counter() - search_start
    stats["nodes"] = int(st[k.S_NODES])
    stats["updates"] = int(st[k.S_UPDATES])
    result.count = int(st[k.S_COUNT])
