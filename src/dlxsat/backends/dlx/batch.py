"""The dlx backend's batch capability: one problem laid out once, solved many times with
different options chosen beforehand.

Many puzzles of one family can share one exact-cover problem when each is that problem with
some options chosen in advance: a Sudoku's problem is the empty grid's (same size, holes and
boxes) with its clues' options chosen, since choosing the option "digit d in cell c" for every
clue covers the same items Knuth's encoding leaves out, and hides the same options. So the
shared problem is laid out once for the compiled kernel (:class:`Precovered`), and each puzzle
only copies its arrays, *pre-covers* its given options (``kernel.search_given``) and runs
Algorithm X or C on what is left -- no DLX text, no parsing, no building per puzzle: a few
microseconds in the kernel for a 9 x 9 grid. :meth:`Precovered.solve_chunk` does that for a
whole chunk of puzzles in one call of the compiled kernel (``kernel.search_many``), within a
node budget per puzzle; :meth:`Precovered.solve` searches one puzzle, resumably, within a
deadline (a puzzle the chunk's budget did not settle). Which options a puzzle gives, and what
its answer is, is the family's business (its ``batch_template``); this module knows no puzzle.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from ...result import SearchResult
from ...solvers import Request
from ...xcc.model import Problem
from . import FIRST_BUDGET, SLICE

#: The solutions :meth:`Precovered.solve_chunk` keeps per puzzle: two settle "is it unique?";
#: a puzzle that has more to keep (counting, or listing all) is searched again on its own.
CHUNK_STORE = 2


class Chunk:
    """What :meth:`Precovered.solve_chunk` found, one row per puzzle: ``status`` (the kernel's
    code; -1: the given options cover every item), ``count``, ``nodes``, ``updates``, and the
    solutions kept, ``sols[p, s, :sol_len[p, s]]`` (option indices)."""

    def __init__(self, out: Any, sols: Any, sol_len: Any, seconds: float) -> None:
        self.status, self.count, self.nodes, self.updates = out.T
        self.sols, self.sol_len, self.seconds = sols, sol_len, seconds

    def settled(self) -> Any:
        """Which puzzles the chunk settled (the others ran out of budget or of room)."""
        from . import kernel as k

        status = self.status
        return (status == k.DONE) | (status == k.LIMIT) | (status == -1)


class Precovered:
    """``problem`` laid out for the compiled kernel once; :meth:`solve` solves it with some
    options chosen beforehand. Its ``solutions`` are option indices of ``problem``, the given
    options not among them. (No loop rule: the batch families have none.)"""

    def __init__(self, problem: Problem) -> None:
        import numpy as np

        from . import compiled
        from . import kernel as k
        from .arrays import build, kernel_dtype

        self.problem = problem
        a = build(problem)
        dtype: Any = kernel_dtype(a)
        nd = np.array(a.nd, dtype=dtype)
        ln = np.array(a.ln, dtype=np.int32)
        cl = np.array(a.cl, dtype=dtype)
        self.opt_of = np.array(a.opt_of, dtype=np.int32)
        self.work = (nd.copy(), ln.copy(), cl.copy())
        self.start = (nd, ln, cl)  # as laid out: each puzzle of a chunk starts from them
        self.base = np.concatenate([nd, ln, cl]).astype(np.int32)
        # The first node of every option: after the first spacer, each option's entries and
        # its own spacer.
        first = []
        node = a.last_itm + 1
        for option in problem.options:
            first.append(node)
            node += len(option) + 1
        self.first_node = first
        if problem.kind == "MCC":
            raise ValueError("pre-covered search has Algorithms X and C, not M (multiplicities)")
        self.algorithm = "X" if problem.kind == "XC" else "C"
        self.search = compiled.kernel("search_c", dtype)
        self.search_given = compiled.kernel("search_given", dtype)
        self.k = k
        self.params = np.zeros(k.N_PARAMS, dtype=np.int64)
        self.params[k.P_SECOND] = a.second
        self.params[k.P_LAST_ITM] = a.last_itm
        self.st = np.zeros(k.N_STATE, dtype=np.int64)
        self.choice = np.zeros(a.max_level, dtype=np.int32)
        self.rows = 256
        self.sols = np.zeros((self.rows, a.max_level), dtype=np.int32)
        self.sol_len = np.zeros(self.rows, dtype=np.int32)
        self.givens = np.zeros(max(1, len(problem.options)), dtype=np.int32)
        self.first_nodes = np.array(first + [0], dtype=np.int32)
        self.dtype = dtype
        self.max_level = a.max_level

    def solve_chunk(self, given: Any, counts: Any, limit: int | None, budget: int) -> Chunk:
        """Solve the problem once per row of ``given`` (option indices, ``counts[p]`` of them
        at the start of row ``p``), each puzzle with at most ``budget`` nodes and ``limit``
        solutions (None: all), in one call of the compiled kernel."""
        import numpy as np

        from . import compiled

        k = self.k
        rows = len(counts)
        first = self.first_nodes[given]
        params = self.params.copy()
        params[k.P_MAX_COUNT] = limit if limit is not None else 1 << 62
        params[k.P_STORE_CAP] = CHUNK_STORE
        params[k.P_BUDGET] = budget
        sols = np.zeros((rows, CHUNK_STORE, self.max_level), dtype=np.int32)
        sol_len = np.zeros((rows, CHUNK_STORE), dtype=np.int32)
        out = np.zeros((rows, 4), dtype=np.int64)
        nd, ln, cl = self.work
        many = compiled.kernel("search_many", self.dtype)
        start = time.perf_counter()
        many(
            *self.start,
            nd,
            ln,
            cl,
            first,
            counts.astype(np.int64),
            self.opt_of,
            self.choice,
            self.st,
            params,
            sols,
            sol_len,
            out,
        )
        return Chunk(out, sols, sol_len, time.perf_counter() - start)

    def solve(self, given: Sequence[int], request: Request) -> SearchResult:
        """Solve the problem with the options ``given`` chosen beforehand, as ``request``
        asks (its loop rule aside)."""
        k = self.k
        nd, ln, cl = self.work
        first, givens = self.first_node, self.givens
        count = 0
        for option in given:
            givens[count] = first[option]
            count += 1
        limit, keep, deadline = request.limit, request.keep, request.deadline.at
        st, params, sols, lens = self.st, self.params, self.sols, self.sol_len
        params[k.P_MAX_COUNT] = limit if limit is not None else 1 << 62
        stats: dict[str, Any] = {"algorithm": self.algorithm, "loop": False, "kernel": "compiled"}
        result = SearchResult(stats=stats)
        solutions = result.solutions
        budget = FIRST_BUDGET * 64
        start = time.perf_counter()
        # The first call resets the arrays, pre-covers the given options and begins the search.
        params[k.P_STORE_CAP] = self.rows if keep is None else min(self.rows, keep)
        params[k.P_BUDGET] = budget
        status = self.search_given(
            self.base, nd, ln, cl, givens, count, self.opt_of, self.choice, st, params, sols, lens
        )
        if status < 0:  # the given options cover everything: one solution, choosing nothing
            st[k.S_NODES] = 1
            if limit != 0:
                result.count, result.exhausted = 1, True
                if keep != 0:
                    solutions.append([])
        while status >= 0:
            t1 = time.perf_counter()
            for i in range(int(st[k.S_STORED])):
                solutions.append(sorted(sols[i, : lens[i]].tolist()))
            st[k.S_STORED] = 0
            if status == k.DONE:
                result.exhausted = True
                break
            if status == k.LIMIT:
                break
            if deadline is not None and time.monotonic() >= deadline:
                result.timed_out = True
                break
            if status == k.BUDGET and t1 - start < SLICE / 2:
                budget = min(budget * 2, 1 << 40)
            params[k.P_STORE_CAP] = (
                self.rows if keep is None else min(self.rows, keep - len(solutions))
            )
            params[k.P_BUDGET] = budget
            status = self.search(nd, ln, cl, self.opt_of, self.choice, st, params, sols, lens)
        if status >= 0:
            result.count = int(st[k.S_COUNT])
        request.found(result.count or 0)
        stats["nodes"] = int(st[k.S_NODES])
        stats["updates"] = int(st[k.S_UPDATES])
        stats["seconds"] = time.perf_counter() - start
        return result
