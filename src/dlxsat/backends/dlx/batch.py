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
its answer is, is the family's business (its :class:`~dlxsat.solvers.Template`); this module
knows no puzzle.

:func:`solve_many` is the dlx backend's batch path (``SPEC.batch``): puzzles of one template's
shape in chunks of :data:`CHUNK` through the kernel, each within :data:`NODE_BUDGET` nodes; a
puzzle a chunk does not settle is searched again on its own (:meth:`Batch.one`). The ``auto``
backend runs the same path, each puzzle within a trial (:func:`dlxsat.backends.auto.solve_many`).
The pipeline checks and reports what comes out (:func:`dlxsat.pipeline.solve_many`).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from ...result import SearchResult, Settled
from ...runtime.deadline import Deadline
from ...solvers import Request, Template
from ...xcc.model import Problem
from . import FIRST_BUDGET, SLICE

#: The solutions :meth:`Precovered.solve_chunk` keeps per puzzle: two settle "is it unique?";
#: a puzzle that has more to keep (counting, or listing all) is searched again on its own.
CHUNK_STORE = 2

#: Puzzles per call of the batch kernel (:meth:`Precovered.solve_chunk`): enough that the
#: call's fixed cost (some 10 microseconds) and the arrays' per-call work vanish per puzzle,
#: few enough that reports stream out (a chunk of 9 x 9 Sudokus takes some 20 ms).
CHUNK = 1024
#: Nodes a puzzle gets in the batch kernel before it is searched again on its own (with the
#: clock checked; under ``auto`` within its batch trial,
#: :data:`dlxsat.backends.auto.BATCH_TRIAL_SECONDS`): the hardest 9 x 9s of
#: ``puzzles/sudoku-hard`` take a few thousand; 20,000 nodes are some 10 ms.
NODE_BUDGET = 20_000
#: A time limit per puzzle shorter than this (seconds) keeps the batch path off the kernel's
#: chunks, whose node budget, not the clock, bounds each puzzle.
CHUNK_MIN_TIMEOUT = 1.0
#: The most templates whose problems are kept laid out (:func:`laid_out`).
KEPT_LAYOUTS = 8


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


#: (template, its problem laid out) by the template's identity, kept between calls: laying out
#: a 9 x 9 Sudoku's empty grid takes some 30 ms, a hundred puzzles' worth.
_LAID_OUT: dict[int, tuple[Template, Precovered]] = {}


def laid_out(template: Template) -> Precovered:
    """``template``'s problem laid out for the kernel, once per template (the family keeps one
    template per shape)."""
    known = _LAID_OUT.get(id(template))
    if known is None:
        if len(_LAID_OUT) >= KEPT_LAYOUTS:
            _LAID_OUT.clear()
        known = _LAID_OUT[id(template)] = (template, Precovered(template.problem))
    return known[1]


def solve_many(
    template: Template,
    puzzles: Sequence[Any],
    mode: str,
    timeout: float | None,
    on_found: Callable[[int], None] | None = None,
) -> Iterator[Settled]:
    """The dlx backend's batch path: ``puzzles`` of ``template``'s shape solved in ``mode``,
    each within ``timeout`` seconds; one :class:`~dlxsat.result.Settled` per puzzle, in order
    (``on_found``: unused, the batch's searches are short)."""
    return Batch(template, mode, timeout).settle(puzzles)


class Batch:
    """Puzzles of one :class:`~dlxsat.solvers.Template`'s shape on its laid-out problem.

    In chunks of :data:`CHUNK` through the kernel when the template :attr:`packs
    <dlxsat.solvers.Template.packs>` them, ``chunks`` is asked for and the time limit allows
    (:data:`CHUNK_MIN_TIMEOUT`), else one at a time (:meth:`one`). With ``trial`` (seconds),
    a puzzle searched on its own gets at most that long; one that outgrows it with time left
    goes to ``beyond_trial(puzzle, deadline, start)`` (``auto``'s choice). ``tag``: figures
    added, each a copy, to the ``stats`` of every puzzle settled here (``auto``'s word on the
    engine that ran).
    """

    def __init__(
        self,
        template: Template,
        mode: str,
        timeout: float | None,
        *,
        chunks: bool = True,
        trial: float | None = None,
        beyond_trial: Callable[[Any, Deadline, float], Settled] | None = None,
        tag: Mapping[str, dict[str, Any]] | None = None,
    ) -> None:
        self.template = template
        self.laid = laid_out(template)
        self.mode = mode
        self.timeout = timeout
        self.limit = Request.for_mode(mode).limit
        self.chunks = (
            chunks and template.packs and (timeout is None or timeout >= CHUNK_MIN_TIMEOUT)
        )
        self.trial = trial
        self.beyond_trial = beyond_trial
        self.tag = tag or {}

    def settle(self, puzzles: Sequence[Any]) -> Iterator[Settled]:
        """Every puzzle of ``puzzles`` settled, in order."""
        if not self.chunks:
            for puzzle in puzzles:
                yield self.one(puzzle)
            return
        for start in range(0, len(puzzles), CHUNK):
            yield from self.chunk(puzzles[start : start + CHUNK])

    def one(self, puzzle: Any) -> Settled:
        """One puzzle on the laid-out problem, its given options pre-covered, within its time
        limit (and the trial, if any)."""
        start = time.perf_counter()
        deadline = Deadline.after(self.timeout)
        template = self.template
        request = Request.for_mode(self.mode, deadline=deadline)
        if self.trial is not None:
            trial = deadline.sooner(Deadline.after(self.trial))
            result = self.laid.solve(
                template.givens(puzzle), dataclasses.replace(request, deadline=trial)
            )
            if result.timed_out and not deadline.expired() and self.beyond_trial is not None:
                return self.beyond_trial(puzzle, deadline, start)
        else:
            result = self.laid.solve(template.givens(puzzle), request)
        answers = [template.answer(puzzle, chosen) for chosen in result.solutions]
        result.solutions = []
        result.answers = answers
        obeys = all([template.obeys_rules(puzzle, answer) for answer in answers])
        for key, value in self.tag.items():
            result.stats[key] = dict(value)
        return Settled.of(result, puzzle, time.perf_counter() - start, obeys=obeys)

    def chunk(self, chunk: Sequence[Any]) -> Iterator[Settled]:
        """Puzzles in one call of the compiled kernel (:data:`NODE_BUDGET` nodes each), their
        answers read back and judged by the template as arrays; a puzzle the chunk does not
        settle is searched on its own (:meth:`one`)."""
        import numpy as np

        start = time.perf_counter()
        template, laid = self.template, self.laid
        cells = template.packed_cells(chunk)
        given, counts = template.given_options(cells)
        found = laid.solve_chunk(given, counts, self.limit, NODE_BUDGET)
        settled = found.settled()
        covered = found.status == -1  # the given options cover everything: one solution
        count = np.where(covered, 1, found.count)
        kept = np.minimum(count, found.sol_len.shape[1])
        answers, obeys = template.answers_of_chunk(cells, found.sols, found.sol_len, kept, settled)
        per_puzzle = (time.perf_counter() - start) / len(chunk)
        kernel_seconds = found.seconds / len(chunk)
        exhausted = ((found.status == 0) | covered).tolist()  # (DONE, or nothing to search)
        rows = zip(
            chunk,
            settled.tolist(),
            count.tolist(),
            np.where(covered, 1, found.nodes).tolist(),
            found.updates.tolist(),
            exhausted,
            answers,
            obeys,
            strict=True,
        )
        algorithm, tag = laid.algorithm, self.tag
        for puzzle, done, total, nodes, updates, ended, kept_answers, ok in rows:
            if not done:
                yield self.one(puzzle)
                continue
            stats = {
                "algorithm": algorithm,
                "loop": False,
                "kernel": "compiled",
                "nodes": nodes,
                "updates": updates,
                "seconds": kernel_seconds,
            }
            for key, value in tag.items():
                stats[key] = dict(value)
            yield Settled.row(puzzle, total, ended, stats, kept_answers, per_puzzle, ok)
