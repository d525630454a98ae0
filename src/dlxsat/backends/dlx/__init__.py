"""The native dancing-links backend: Knuth's DLX1/2/3 (and DLX2-LOOP), interpreted or compiled.

The algorithm is chosen from the data (``problem.kind``): Algorithm X for exact cover with
secondary items (``XC``, DLX1), Algorithm C when colors appear (``XCC``, DLX2), Algorithm M
when multiplicities appear (``MCC``, DLX3). The search trees are Knuth's -- same item choice,
same tie breaking, same ``nodes`` and ``updates`` figures as his programs with default options.
A problem's single-loop rule (:class:`~dlxsat.xcc.rules.SingleLoop`) is enforced as DLX2-LOOP
does (on Algorithm M too). Its :class:`~dlxsat.xcc.rules.Connected`,
:class:`~dlxsat.xcc.rules.Acyclic` and :class:`~dlxsat.xcc.rules.Sized` rules are enforced in
the same spirit, on Algorithms C and M
(``kernel._choose``): once an option is chosen, a check over the members present and those still
possible refuses it when no answer below could keep the rule, and the next option is tried
without counting a node; a solution is checked exactly. ``nodes`` and ``updates`` keep Knuth's
meaning (without such rules, his figures).

The search runs in the kernels of ``kernel.py`` over flat integer arrays (``arrays.py``):
dancing links, or for Algorithm X bitsets or sparse sets, with the same tree
(:func:`layout_for`). A kernel returns to Python every few milliseconds, so that the time
limit, the solution limit and the storing of solutions are handled here while the kernel
resumes where it stopped.

The kernels run in two tiers, the same code either way. A search starts *interpreted*: the
kernel functions run as plain Python on lists, which needs no loading at all and settles a
10 x 10 Masyu in about 10 ms. Once the process's interpreted searches have cost about what
loading the compiled kernels does (:func:`interpreted_seconds`: at once when that is a
millisecond), the search moves, state and all, to the *compiled* tier (``compiled.py``),
about a hundred times faster: the
kernels compiled ahead of time into an extension module in the user's cache (built once; then
loaded in a millisecond or two, with numpy's import), or where that module cannot be built,
by numba's JIT (a few tenths of a second to load even from numba's on-disk cache, one kernel
at a time) -- the cost that used to dominate every cold ``dlxsat solve --backend dlx``.
``stats["kernel"]`` says which tier finished the search, the load time is reported apart
(``compile_seconds``) from the search time (``seconds``).

>>> from dlxsat.xcc import parse
>>> r = solve(parse("a b c | x\\na b x:0\\nc x:1\\na x:1\\nb c\\n"), Request(), {})
>>> r.count, r.solutions, r.exhausted, r.stats["algorithm"], r.stats["nodes"]
(1, [[2, 3]], True, 'C', 4)
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ...options import Option
from ...xcc.model import Problem
from .. import Request, SearchResult, SolverSpec

if TYPE_CHECKING:
    from ...result import Settled
    from ...solvers import Template
    from .arrays import Arrays

#: Which of the active items with the fewest options the search branches on.
TIES = ("leftmost", "rightmost")
OPTIONS = (
    Option(
        "ties",
        str,
        "leftmost",
        "which of the items with fewest options to branch on: the leftmost (Knuth's: his "
        "tree and node counts) or the rightmost (the mirrored tree, the same answers; "
        "dancing links only: plain exact cover on bitsets keeps Knuth's)",
        TIES,
    ),
)

SPEC = SolverSpec(
    name="dlx",
    kind="search",
    summary="Knuth's dancing links (Algorithms X, C, M; DLX2-LOOP's single-loop rule; "
    "connected, acyclic and sized rules), compiled",
    options=OPTIONS,
    libraries=("numba",),
    # Measured with ``benchmarks/memory.py`` on 100 x 100 loop boards, rounded up: the flat
    # arrays of dancing links take little per entry; numba and LLVM take about 260 MB of data
    # once loaded (VmData).
    bytes_per_entry=150,
    library_bytes=260 << 20,
    library_module="numba",
    # Many puzzles sharing one problem with options chosen beforehand (``solve_many``): worth
    # it from 32 puzzles on -- loading the compiled kernel costs some tenths of a second, the
    # price of some 30-50 small puzzles solved interpreted.
    batch=32,
)


def solve_many(
    template: Template,
    puzzles: Sequence[Any],
    mode: str,
    timeout: float | None,
    on_found: Callable[[int], None] | None = None,
) -> Iterator[Settled]:
    """The batch path (``SPEC.batch``): puzzles that share ``template``'s problem, each with
    some options chosen beforehand, solved on that problem laid out once (:mod:`.batch`)."""
    from . import batch

    return batch.solve_many(template, puzzles, mode, timeout, on_found)


#: Which of Knuth's algorithms solves which kind of problem.
ALGORITHMS = {"XC": "X", "XCC": "C", "MCC": "M"}

#: A kernel call should take about this long (seconds): short enough for a prompt time limit,
#: long enough that going back to Python costs nothing.
SLICE = 0.01
#: Nodes in the first kernel call, and the fewest in any call (the budget adapts in between).
FIRST_BUDGET = 1024
MIN_BUDGET = 16
#: Nodes in the first call of the interpreted tier (some hundred times slower per node).
FIRST_BUDGET_INTERPRETED = 64
#: Search seconds after which an interpreted search moves to the compiled tier: about a
#: quarter of what loading the compiled kernel costs from numba's cache (0.3-0.5 s on 2
#: cores), so a search never pays much more than the load it avoided, and one that outgrows
#: the interpreter loses at most this (from the ahead-of-time module the load is numpy's
#: import, some tens of milliseconds: the interpreter still settles most small puzzles first).
#: A search starts compiled when that kernel is loaded in the process already. 0 always
#: starts compiled; ``math.inf`` never compiles.
INTERPRETED_SECONDS = 0.1
#: With the ahead-of-time module built, the compiled kernels cost numpy's import (about 70 ms
#: of CPU, idle or loaded; its wall time is 0.2-0.8 s on 2 cores at load 9-10) and a
#: millisecond or two: an interpreted search moves to them after this many seconds of CPU
#: (rent or buy: at most about twice the cheaper tier's cost), and one starts on them from the
#: first node when numpy is imported already (the load is then the millisecond). On a 16 x 16
#: Sudoku the interpreter searches some 5 nodes a millisecond of CPU (141 nodes: 25-35 ms),
#: the compiled tier some 200 times more.
AOT_INTERPRETED_SECONDS = 0.05
#: With the ahead-of-time module built, a problem of at least this many entries (the sum of
#: its options' lengths) starts in the compiled tier at its first node, importing numpy and
#: loading the module first: even its smallest search costs the interpreter about what that
#: import does, so the interpreted start would be paid on top. Measured with
#: ``benchmarks/startup.py --tiers`` (one ``--backend dlx`` search per fresh process, bytecode
#: cached, CPU of the whole process, medians of 3, interleaved; 2 cores at load 8): numpy and
#: the module cost 75-110 ms of CPU (a 9 x 9 Sudoku, 736 entries: 103 ms interpreted against
#: 178 compiled from the first node; a 10 x 10 Masyu, 2,145 entries: 108 against 190); a
#: 25 x 25 Sudoku of forced moves (6,576 entries, 325 nodes, the fewest a problem of that size
#: needs) 249 against 239; a 20 x 14 Masyu (7,176 entries, 1,146 nodes) 294 against 244, and
#: 217 by the rule before this one (50 ms interpreted, then the load). Between 2,000 and
#: 6,000 entries the tree decides (a 10 x 10 Slitherlink of 44,000 nodes: over 1.3 s
#: interpreted, 227 ms compiled), which the switch after :data:`AOT_INTERPRETED_SECONDS`
#: bounds.
COMPILED_FROM_ENTRIES = 6_000
#: Algorithm X runs on bitsets of options up to this many options (sets of 64 words), on
#: sparse sets above (where a node's work on the words would outgrow DLX1's on the links).
BITS_MAX_OPTIONS = 64 * 63
#: Up to this many words the bitset kernel keeps every item's length from level to level
#: (12 queens, 3 words: a fifth faster); above, it counts the lengths it needs afresh at each
#: node (the pentominoes, 27-33 words: a third faster than keeping them).
KEPT_MAX_WORDS = 8
#: Bitsets and sparse sets only for problems of at most this many primary items: each node
#: of theirs scans every item's set, where dancing links touch only the options covered, so
#: on many items they lose. Measured (compiled, idle, same process; links against the bitset
#: layout picked by the option count alone): 9 x 9 Sudoku, 324 items, 1.5 ms against 6 ms;
#: 16 x 16, 1,024 items, 6 ms against 54 ms; 25 x 25, 1,336 items, 11 ms against 0.19-0.21 s.
#: The problems the sets were made for have few: pentominoes 72, 12 queens 24, Langford 33.
SETS_MAX_ITEMS = 128


#: ``stats["layout"]``: the name of each layout.
LAYOUT_NAMES = ("links", "sets", "bits", "bits-kept")


def layout_for(problem: Problem, loop: bool) -> int:
    """Which layout (``kernel.LINKS``, ``SETS``, ``BITS``, ``BITS_KEPT``) the search of
    ``problem`` runs on: dancing links for colors, multiplicities, the loop rule or any other
    global rule of the problem, and problems of many primary items (:data:`SETS_MAX_ITEMS`),
    bitsets or sparse sets for other Algorithm X problems. All give Knuth's search tree and
    figures.

    >>> from dlxsat.xcc import parse
    >>> layout_for(parse("a b\\na\\nb\\n"), False), layout_for(parse("a b\\na\\nb\\n"), True)
    (3, 0)
    >>> layout_for(parse("|@acyclic\\n|@members a b\\n|@ends 1 2 2 1\\na b\\na\\nb\\n"), False)
    0
    """
    from . import kernel as k

    if problem.kind != "XC" or loop or problem.rules:
        return k.LINKS
    if sum(1 for item in problem.items if item.primary) > SETS_MAX_ITEMS:
        return k.LINKS
    n = len(problem.options)
    if n > BITS_MAX_OPTIONS:
        return k.SETS
    return k.BITS_KEPT if -(-n // 63) <= KEPT_MAX_WORDS else k.BITS


def _compiled_kernel(name: str, dtype: Any) -> tuple[Any, float]:
    """Compiled kernel ``name`` for ``dtype`` arrays, and the seconds it took to compile or
    load it (next to nothing once done in this process)."""
    start = time.perf_counter()
    from . import compiled

    return compiled.kernel(name, dtype), time.perf_counter() - start


def load() -> None:
    """Load every compiled kernel a search may pick (Algorithms X/C and M, for ``int16`` and
    ``int32`` tables) now, so that a caller can time that apart; searches then start compiled.
    From the ahead-of-time module: numpy's import and a millisecond or two (the module is
    built first if it is missing: tens of seconds, once); by numba's JIT: its import and 0.3 s
    for the first kernel, 6 ms for each other."""
    for name in ("search_c", "search_m"):
        for dtype in ("int16", "int32"):
            _compiled_kernel(name, dtype)


def _compiled_ready(name: str, dtype: Any) -> bool:
    """Whether this process has the compiled kernel ``name`` for ``dtype`` loaded already."""
    import sys

    compiled = sys.modules.get(f"{__name__}.compiled")
    return compiled is not None and compiled.is_ready(name, dtype)


def solve(
    problem: Problem,
    request: Request,
    options: Mapping[str, Any],
    *,
    max_nodes: int | None = None,
    trial_seconds: float | None = None,
    arrays: Arrays | None = None,
    found_budget: tuple[int, float] | None = None,
    mirrored: bool = False,
) -> SearchResult:
    """Find the solutions of ``problem`` (see ``dlxsat.solvers`` for the arguments).

    ``max_nodes`` ends the search after that many nodes, as ``timed_out`` (Knuth's programs
    stop after a given number of mems the same way): a budget that does not depend on the
    machine's speed or load, for ``auto``'s trial (not a user option). ``trial_seconds``
    ends it, likewise, after that many seconds of CPU searching in the tier it ends in (the
    time spent interpreted before moving to the compiled tier, and the load, do not count; the
    request's deadline still does): ``auto``'s trial, a budget of compiled search that an
    interpreted start some hundred times slower a node used to spend on its first 64 nodes,
    and that other processes' load on the machine no longer shortens. ``arrays``: the
    problem's dancing-links layout made already (by :func:`.arrays.build_numpy`, for a search
    that starts compiled; ``auto`` probes it first), searched in place. ``found_budget``:
    the ``(max_nodes, trial_seconds)`` that replace those two budgets, when larger, once the
    search has found a solution (``auto``'s trial of a unique search; ``stats["found_by"]``
    then says how many nodes the search had made by the end of the slice that found it).
    ``mirrored`` (or the option ``ties="rightmost"``): ties between the shortest items go to
    the rightmost, not Knuth's leftmost (on dancing links; ignored by plain exact cover on
    bitsets or sparse sets): the same solutions through another tree, which
    ``auto``'s loop trial searches after Knuth's (``stats["mirrored"]`` then true); Knuth's
    node counts are the unmirrored search's.

        ``stats``: ``algorithm`` (``X``, ``C`` or ``M``), ``loop`` (whether the loop rule was
        on), ``rules`` (the kinds of the problem's global rules, each once, as declared),
        ``nodes``, ``updates`` (Knuth's counts), ``seconds`` (the search), ``compile_seconds``
        (compiling or loading the compiled kernel, the first time in a process), ``kernel``
        (``interpreted`` or ``compiled``: the tier that finished the search), ``build_seconds``
        (laying out the arrays), ``arrays`` (``int16`` or ``int32``: the kernels' integer size, the
    smallest that holds the problem), ``layout`` (:func:`layout_for`: ``links``, ``sets``,
    ``bits`` or ``bits-kept``). Loading the compiled kernel counts against the deadline
    only when ``request.loading_counts``.
    """
    loop = problem.rule("loop")
    allow_empty_loop = loop is None or loop.allow_empty  # type: ignore[union-attr]
    limit, keep = request.limit, request.keep

    from .arrays import build, build_bits, build_numpy, build_sets, kernel_dtype
    from .kernel import BITS, BITS_KEPT, LINKS, N_STATE, SETS

    stats: dict[str, Any] = {
        "algorithm": ALGORITHMS[problem.kind],
        "loop": loop is not None,
        "rules": list(dict.fromkeys(rule.kind for rule in problem.rules)),
        "nodes": 0,
        "updates": 0,
        "seconds": 0.0,
        "compile_seconds": 0.0,
        "build_seconds": 0.0,
    }
    result = SearchResult(stats=stats)
    start = time.perf_counter()
    graph = loop.graph if loop is not None else None  # type: ignore[union-attr]
    if problem.n_primary == 0:
        # Nothing to cover (e.g. a Sudoku with every cell given): one solution, choosing
        # nothing -- whose edge set is empty, for the loop rule.
        if limit != 0:
            stats["nodes"] = 1
            result.exhausted = True
            if allow_empty_loop:
                result.count = 1
                if keep != 0:
                    result.solutions.append([])
        return result

    # Algorithm X without global rules runs on bitsets or sparse sets (Knuth's tree and
    # figures with less work; see kernel.py); colors, multiplicities and rules on dancing links.
    layout = layout_for(problem, loop is not None)
    entries = _entries(problem)
    if layout in (BITS, BITS_KEPT):
        arrays = build_bits(problem, N_STATE)
    elif layout == SETS:
        arrays = build_sets(problem)
    elif arrays is not None and layout == LINKS:
        pass  # (the caller's)
    elif _starts_compiled(ALGORITHMS[problem.kind], entries):
        # Numpy's layout for the compiled kernels: 1 ms for a 25 x 25 Sudoku against 3 ms
        # for the lists and their copy into arrays (0.2 against 0.4 ms for a 9 x 9).
        arrays = build_numpy(problem, graph)
    else:
        arrays = build(problem, graph)
    dtype = kernel_dtype(arrays)
    stats["arrays"] = getattr(dtype, "__name__", dtype)
    stats["layout"] = LAYOUT_NAMES[layout]
    stats["build_seconds"] = time.perf_counter() - start
    if limit == 0:
        return result
    mirrored = (mirrored or options.get("ties") == "rightmost") and layout == LINKS
    if mirrored:
        stats["mirrored"] = True
    _search(
        arrays,
        dtype,
        result,
        request,
        layout,
        max_nodes,
        allow_empty_loop,
        trial_seconds,
        entries,
        found_budget,
        mirrored,
    )
    return result


def _entries(problem: Problem) -> int:
    """The problem's entries: the sum of its options' lengths (its size for the kernels)."""
    return sum(len(option) for option in problem.options)


def _starts_compiled(algorithm: str, entries: int = 0) -> bool:
    """Whether a search of Algorithm ``algorithm`` on a problem of ``entries`` entries would
    start in the compiled tier: its kernels are loaded in this process (for both integer
    sizes), or are cheap enough to load (:func:`interpreted_seconds`), and compiling is
    allowed."""
    name = "search_m" if algorithm == "M" else "search_c"
    return INTERPRETED_SECONDS < math.inf and all(
        interpreted_seconds(name, t, entries) <= 0 for t in ("int16", "int32")
    )


def interpreted_seconds(name: str, dtype: Any, entries: int = 0) -> float:
    """How many seconds of CPU a search of a problem of ``entries`` entries runs interpreted
    before it moves to the compiled kernel ``name`` for ``dtype``: none when that kernel is
    loaded in this process, or when the ahead-of-time module is built and either numpy is
    imported (loading is then a millisecond or two) or the problem has at least
    :data:`COMPILED_FROM_ENTRIES` entries (its interpreted search would cost more than
    numpy's import); else what is left, after this process's interpreted searches so far, of
    :data:`AOT_INTERPRETED_SECONDS` when the module is built, of :data:`INTERPRETED_SECONDS`
    otherwise (numba's JIT) -- a process that solves many small puzzles pays the load once
    they have cost as much, not a search at a time. :data:`INTERPRETED_SECONDS` 0 or infinite
    says always compiled, never compiled."""
    if INTERPRETED_SECONDS <= 0 or INTERPRETED_SECONDS == math.inf:
        return INTERPRETED_SECONDS
    if _compiled_ready(name, dtype):
        return 0.0
    if not ahead_of_time_built():
        return max(0.0, INTERPRETED_SECONDS - _interpreted_spent[0])
    if _numpy_imported() or entries >= COMPILED_FROM_ENTRIES:
        return 0.0
    return max(0.0, min(INTERPRETED_SECONDS, AOT_INTERPRETED_SECONDS) - _interpreted_spent[0])


#: The CPU seconds this process's searches have spent interpreted (see
#: :func:`interpreted_seconds`).
_interpreted_spent = [0.0]


def _numpy_imported() -> bool:
    """Whether this process has imported numpy (what loading the compiled kernels costs most
    is that import)."""
    import sys

    return "numpy" in sys.modules


def ahead_of_time_built() -> bool:
    """Whether the ahead-of-time module of this installation is built and may be used (the
    first time in a process a few milliseconds, hashing the kernels' sources, without
    importing numpy; then a ``stat``)."""
    from . import aot

    return aot.enabled() and aot.module_path().exists()


def _search(
    arrays: Arrays,
    dtype: Any,
    result: SearchResult,
    request: Request,
    layout: int = 0,
    max_nodes: int | None = None,
    allow_empty_loop: bool = True,
    trial_seconds: float | None = None,
    entries: int = 0,
    found_budget: tuple[int, float] | None = None,
    mirrored: bool = False,
) -> None:
    """Run the right kernel slice by slice until it is done, stopped, out of time or past
    ``max_nodes`` or ``trial_seconds`` (see :func:`solve`); begin interpreted and move to the
    compiled tier when the search has taken :func:`interpreted_seconds` of CPU."""
    from . import kernel as k

    loop, limit, keep = result.stats["loop"], request.limit, request.keep
    algorithm_m = result.stats["algorithm"] == "M"
    name = "search_m" if algorithm_m else "search_c"
    params: Any = [0] * k.N_PARAMS  # a list, then a numpy array for the compiled kernels
    params[k.P_SECOND] = arrays.second
    params[k.P_LAST_ITM] = arrays.last_itm
    params[k.P_LOOP] = 1 if loop else 0
    params[k.P_ALLOW_EMPTY] = 1 if allow_empty_loop else 0
    params[k.P_MAX_COUNT] = limit if limit is not None else 1 << 62
    params[k.P_LAYOUT] = layout
    params[k.P_RULES] = arrays.rules
    params[k.P_MIRROR] = 1 if mirrored else 0
    params[k.P_AUX] = arrays.aux
    rows = 256 if keep is None else max(1, min(keep, 256))
    # The search state: Python lists for the interpreted tier (the kernel fills ``sols[k, m]``:
    # a dict does), numpy arrays for the compiled one.
    nd: Any = arrays.nd
    ln: Any = arrays.ln
    cl: Any = arrays.cl
    opt_of: Any = arrays.opt_of
    sols: Any = {}
    sol_len: Any = [0] * rows
    st: Any = list(arrays.state) if arrays.state is not None else [0] * k.N_STATE
    # The choices of every level (Algorithm M: and DLX3's first_tweak of each).
    depth = arrays.max_level
    stack: Any = [[0] * depth, [0] * depth] if algorithm_m else [0] * depth
    kernel = getattr(k, name)
    interpreted = True
    stats = result.stats
    deadline = request.deadline.at  # (moved later by the compiled kernels' load, see below)
    switch = interpreted_seconds(name, dtype, entries)
    # ``trial_seconds`` counts the CPU of this thread's slices in the tier the search ends in
    # (None: not counting yet -- the search is interpreted and may still move).
    trial_cpu: float | None = None

    def compile_now() -> None:
        nonlocal nd, ln, cl, opt_of, sols, sol_len, st, stack, params, kernel, interpreted
        nonlocal deadline
        load_start = time.perf_counter()
        import numpy as np

        kernel, _ = _compiled_kernel(name, dtype)
        # (numpy's import counted in: it is most of the load)
        load = time.perf_counter() - load_start
        stats["compile_seconds"] = load
        if deadline is not None and not request.loading_counts:
            # The time limit is for searching, not for loading -- unless the run has one
            # deadline for everything (the CLI, crosscheck's per-backend limit).
            deadline += load
        nd, cl = np.array(nd, dtype=dtype), np.array(cl, dtype=dtype)
        ln, opt_of = np.array(ln, dtype=np.int32), np.array(opt_of, dtype=np.int32)
        sols = np.zeros((rows, depth), dtype=np.int32)
        sol_len = np.zeros(rows, dtype=np.int32)
        stack = np.array(stack, dtype=np.int32)
        st, params = np.array(st, dtype=np.int64), np.array(params, dtype=np.int64)
        interpreted = False

    budget = FIRST_BUDGET_INTERPRETED
    rate = 0.0  # nodes per second in the last slice
    solutions = result.solutions
    search_start = time.perf_counter()
    interpreted_cpu = 0.0  # the CPU seconds of the interpreted slices
    if switch <= 0:
        compile_now()
        budget = FIRST_BUDGET
    if trial_seconds is not None and (not interpreted or switch == math.inf):
        trial_cpu = 0.0  # (else from when the search moves to the compiled tier)
    cpu_rate = 0.0  # nodes per CPU second in the last slice
    while True:
        wanted = rows if keep is None else min(rows, keep - len(solutions))
        params[k.P_STORE_CAP] = wanted
        params[k.P_BUDGET] = budget
        if deadline is not None and rate > 0:
            # A slice that would run past the deadline is cut to the nodes left before it,
            # at the rate the last slice ran: a trial of a few milliseconds (auto's) ended up
            # to a whole slice late, 10 ms, when the budget had doubled just before it.
            left = max(0.0, deadline - time.monotonic())
            params[k.P_BUDGET] = max(MIN_BUDGET, min(budget, int(rate * left) + 1))
        if trial_cpu is not None and cpu_rate > 0:
            # (the same cut for the trial's seconds of CPU)
            left = max(0.0, trial_seconds - trial_cpu)  # type: ignore[operator]
            params[k.P_BUDGET] = max(
                MIN_BUDGET, min(int(params[k.P_BUDGET]), int(cpu_rate * left) + 1)
            )
        if max_nodes is not None:
            # (within the cut above: taking ``budget`` here undid it, and a 5 ms trial of a
            # 25 x 25 Sudoku ran 8 ms)
            left_nodes = max_nodes - int(st[k.S_NODES])
            params[k.P_BUDGET] = max(1, min(int(params[k.P_BUDGET]), left_nodes))
        t0, c0 = time.perf_counter(), time.thread_time()
        before = int(st[k.S_NODES])
        status = kernel(nd, ln, cl, opt_of, stack, st, params, sols, sol_len)
        t1, cpu = time.perf_counter(), time.thread_time() - c0
        if interpreted:
            interpreted_cpu += cpu
            _interpreted_spent[0] += cpu
        if trial_cpu is not None:
            trial_cpu += cpu
        if t1 > t0:
            rate = (int(st[k.S_NODES]) - before) / (t1 - t0)
        if cpu > 0:
            cpu_rate = (int(st[k.S_NODES]) - before) / cpu
        for i in range(int(st[k.S_STORED])):
            solutions.append(sorted(int(sols[i, j]) for j in range(int(sol_len[i]))))
        st[k.S_STORED] = 0
        request.found(int(st[k.S_COUNT]))  # the figures, should the run be stopped
        if found_budget is not None and max_nodes is not None and int(st[k.S_COUNT]) > 0:
            # (the budgets grow once, between slices: the slice that found the solution may
            # have run on to the old budget, which the new one then continues)
            max_nodes = max(max_nodes, found_budget[0])
            if trial_seconds is not None:
                trial_seconds = max(trial_seconds, found_budget[1])
            stats["found_by"] = int(st[k.S_NODES])
            found_budget = None
        if status == k.DONE:
            result.exhausted = True
            break
        if status == k.LIMIT:
            break
        if deadline is not None and time.monotonic() >= deadline:
            result.timed_out = True
            break
        if max_nodes is not None and int(st[k.S_NODES]) >= max_nodes:
            result.timed_out = True
            stats["stopped_at_nodes"] = max_nodes
            break
        if trial_cpu is not None and trial_cpu >= trial_seconds:  # type: ignore[operator]
            result.timed_out = True
            break
        if status == k.BUDGET:
            if interpreted and interpreted_cpu >= switch:
                compile_now()
                if trial_seconds is not None:
                    trial_cpu = 0.0
                # Nodes per second go up some hundredfold: let the budget catch up.
                budget = max(budget * 64, FIRST_BUDGET)
                rate = cpu_rate = 0.0
                continue
            # Aim at SLICE seconds per call.
            if t1 - t0 < SLICE / 2:
                budget = min(budget * 2, 1 << 40)
            elif t1 - t0 > SLICE * 2:
                budget = max(budget // 2, MIN_BUDGET)
    stats["kernel"] = "interpreted" if interpreted else "compiled"
    stats["seconds"] = time.perf_counter() - search_start - stats["compile_seconds"]
    stats["nodes"] = int(st[k.S_NODES])
    stats["updates"] = int(st[k.S_UPDATES])
    result.count = int(st[k.S_COUNT])
