"""Many sudokus of one shape through one exact-cover problem: the batch path's fast way.

Knuth's encoding leaves out what the clues settle, so every puzzle has a problem of its own.
But its solutions are exactly those of the *empty* grid's problem (same size, holes and boxes)
with the clues' options chosen beforehand: choosing the option "digit d in cell c" for every
clue covers the same items the encoding omits, and hides the same options. So the empty grid's
problem is laid out once (:class:`Shape`), and each puzzle only copies its arrays, *pre-covers*
its clues' options (``kernel.precover``) and runs the compiled Algorithm X on what is left --
no DLX text, no parsing, no building per puzzle, and a few microseconds in the kernel for a
9 x 9 grid. The answers are decoded from the chosen options (option ``k`` of the empty grid is
digit ``k % n + 1`` in the ``k // n``-th cell) and then judged by the family's own rule checker
like every other answer (``dlxsat.pipeline.solve_many``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from operator import itemgetter
from typing import Any

from .backends.dlx import FIRST_BUDGET, SLICE
from .families import sudoku
from .families.sudoku import SudokuPuzzle
from .result import SearchResult
from .xcc.model import Problem

#: ``solve_many`` takes this path for at least this many sudokus: loading the compiled kernel
#: costs some tenths of a second, the price of some 30-50 small puzzles solved interpreted.
MIN_PUZZLES = 32


def shape_key(puzzle: SudokuPuzzle) -> tuple:
    """What two puzzles must share to share a :class:`Shape`: size, holes and boxes."""
    return (puzzle.n, puzzle.holes, tuple(puzzle.boxes.items()))


def empty_grid(puzzle: SudokuPuzzle) -> SudokuPuzzle:
    """``puzzle`` without its clues."""
    return SudokuPuzzle(puzzle.n, {}, puzzle.holes, puzzle.boxes, puzzle.groups)


class Shape:
    """The empty grid's problem of one puzzle shape, laid out for the compiled kernel once.

    A shape whose empty grid has no primary item (every row, column and box has holes) is
    not for this path: :func:`Shape.of` gives None for it.
    """

    @classmethod
    def of(cls, puzzle: SudokuPuzzle) -> Shape | None:
        empty = empty_grid(puzzle)
        problem = sudoku.build(empty)
        return cls(puzzle, problem) if problem.n_primary else None

    def __init__(self, puzzle: SudokuPuzzle, problem: Problem | None = None) -> None:
        import numpy as np

        from .backends.dlx import compiled
        from .backends.dlx import kernel as k
        from .backends.dlx.arrays import build, kernel_dtype

        n = puzzle.n
        self.key = shape_key(puzzle)
        self._boxes, self._holes = puzzle.boxes, puzzle.holes
        empty = empty_grid(puzzle)
        self.n = n
        self.problem = problem if problem is not None else sudoku.build(empty)
        #: the cells, in the order of their options (every cell has n options, digits 1..n).
        self.cells = empty.blanks
        self.position = {cell: p for p, cell in enumerate(self.cells)}
        a = build(self.problem)
        dtype = kernel_dtype(a)
        self.second, self.last_itm = a.second, a.last_itm
        self.nd = np.array(a.nd, dtype=dtype)
        self.ln = np.array(a.ln, dtype=np.int32)
        self.cl = np.array(a.cl, dtype=dtype)
        self.opt_of = np.array(a.opt_of, dtype=np.int32)
        self.work = (self.nd.copy(), self.ln.copy(), self.cl.copy())
        # The first node of every option: after the first spacer, each option's entries and
        # its own spacer.
        first = []
        node = a.last_itm + 1
        for option in self.problem.options:
            first.append(node)
            node += len(option) + 1
        self.first_node = first
        self.max_level = a.max_level
        self.search = compiled.kernel("search_c", dtype)
        self.search_given = compiled.kernel("search_given", dtype)
        self.base = np.concatenate([self.nd, self.ln, self.cl]).astype(np.int32)
        self.k = k
        self.np = np
        self.params = np.zeros(k.N_PARAMS, dtype=np.int64)
        self.params[k.P_SECOND] = a.second
        self.params[k.P_LAST_ITM] = a.last_itm
        self.st = np.zeros(k.N_STATE, dtype=np.int64)
        self.choice = np.zeros(a.max_level, dtype=np.int32)
        self.rows = 256
        self.sols = np.zeros((self.rows, a.max_level), dtype=np.int32)
        self.sol_len = np.zeros(self.rows, dtype=np.int32)
        self.givens = np.zeros(max(1, len(self.cells)), dtype=np.int32)
        # For the rule check: every region's cells (flat indices into the joined grid) and
        # whether it must hold every digit, exactly as ``sudoku.check`` judges them.
        flat = [i * n + j for i, j in self.cells]
        self.live = flat
        self.holes = sorted(i * n + j for i, j in puzzle.holes)
        # (itemgetter picks a region's characters out of the joined grid in one call)
        regions = []
        for a in range(n):
            for line in ([(a, b) for b in range(n)], [(b, a) for b in range(n)]):
                live = [i * n + j for i, j in line if (i, j) not in puzzle.holes]
                regions.append((live, len(live) == n))
        for cells in puzzle.boxes.values():
            live = [i * n + j for i, j in cells if (i, j) not in puzzle.holes]
            regions.append((live, len(cells) == n))
        self.regions = [(_picker(live), len(live), full) for live, full in regions]
        self.hole_chars = _picker(self.holes)
        self.live_chars = _picker(flat)
        self.digit_set = frozenset(sudoku.CHARS[1 : n + 1])
        template = [sudoku.BLANK] * (n * n)
        for hole in self.holes:
            template[hole] = sudoku.HOLE
        self.template = template

    def fits(self, puzzle: SudokuPuzzle) -> bool:
        """Whether ``puzzle`` has this shape (quickly when it shares the objects, as puzzles
        of one ``sudoku.many_reader`` do)."""
        if puzzle.boxes is self._boxes and puzzle.holes == self._holes:
            return puzzle.n == self.n
        return shape_key(puzzle) == self.key

    def solve(
        self,
        puzzle: SudokuPuzzle,
        limit: int | None,
        keep: int | None,
        deadline: float | None,
    ) -> SearchResult:
        """Search ``puzzle`` (of this shape); ``solutions`` are option indices of
        :attr:`problem` (the clues' options not among them)."""
        k = self.k
        nd, ln, cl = self.work
        n, position, first, givens = self.n, self.position, self.first_node, self.givens
        count = 0
        for cell, d in puzzle.clues.items():
            givens[count] = first[position[cell] * n + d - 1]
            count += 1
        st, params, sols, lens = self.st, self.params, self.sols, self.sol_len
        params[k.P_MAX_COUNT] = limit if limit is not None else 1 << 62
        stats: dict[str, Any] = {"algorithm": "X", "loop": False, "kernel": "compiled"}
        result = SearchResult(stats=stats)
        solutions = result.solutions
        budget = FIRST_BUDGET * 64
        start = time.perf_counter()
        # The first call resets the arrays, pre-covers the clues and begins the search.
        params[k.P_STORE_CAP] = self.rows if keep is None else min(self.rows, keep)
        params[k.P_BUDGET] = budget
        status = self.search_given(
            self.base,
            nd,
            ln,
            cl,
            givens,
            count,
            self.opt_of,
            self.choice,
            st,
            params,
            sols,
            lens,
        )
        if status < 0:  # the clues fill every cell: one solution, choosing nothing
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
        stats["nodes"] = int(st[k.S_NODES])
        stats["updates"] = int(st[k.S_UPDATES])
        stats["seconds"] = time.perf_counter() - start
        return result

    def obeys_rules(self, puzzle: SudokuPuzzle, grid: list[str]) -> bool:
        """Whether ``sudoku.check(puzzle, {"grid": grid})`` finds nothing wrong, decided from
        the puzzle's clues, holes and regions (never from the encoding) with the regions
        precomputed for the shape: some ten times faster. When it says False the caller asks
        ``sudoku.check`` for the message."""
        n = self.n
        if len(grid) != n or any(len(row) != n for row in grid):
            return False
        s = "".join(grid)
        if self.holes and set(self.hole_chars(s)) != {sudoku.HOLE}:
            return False
        if not set(self.live_chars(s)) <= self.digit_set:
            return False
        chars = sudoku.CHARS
        for (i, j), d in puzzle.clues.items():
            if s[i * n + j] != chars[d]:
                return False
        for chars_of, size, complete in self.regions:
            if len(set(chars_of(s))) != size or (complete and size != n):
                return False
        return True

    def grid(self, puzzle: SudokuPuzzle, chosen: list[int]) -> list[str]:
        """The filled grid: holes, clues, and digit ``k % n + 1`` in cell ``k // n`` for every
        chosen option ``k`` (a cell no option fills stays ``.``, for the checker to see)."""
        n, live, chars = self.n, self.live, sudoku.CHARS
        cells = list(self.template)
        for (i, j), d in puzzle.clues.items():
            cells[i * n + j] = chars[d]
        for option in chosen:
            cells[live[option // n]] = chars[option % n + 1]
        return ["".join(cells[i * n : (i + 1) * n]) for i in range(n)]


def _picker(indices: list[int]) -> Callable[[str], tuple[str, ...]]:
    """The characters at ``indices`` of a string, as a tuple (for none or one index too)."""
    if len(indices) == 1:
        k = indices[0]
        return lambda s: (s[k],)
    if not indices:
        return lambda s: ()
    return itemgetter(*indices)
