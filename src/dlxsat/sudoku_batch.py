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
from typing import Any

from .backends.dlx import FIRST_BUDGET, MIN_BUDGET, SLICE
from .families import sudoku
from .families.sudoku import SudokuPuzzle
from .result import SearchResult

#: ``solve_many`` takes this path for at least this many sudokus: loading the compiled kernel
#: costs some tenths of a second, the price of some 30-50 small puzzles solved interpreted.
MIN_PUZZLES = 32


def shape_key(puzzle: SudokuPuzzle) -> tuple:
    """What two puzzles must share to share a :class:`Shape`: size, holes and boxes."""
    return (puzzle.n, puzzle.holes, tuple(puzzle.boxes.items()))


class Shape:
    """The empty grid's problem of one puzzle shape, laid out for the compiled kernel once."""

    def __init__(self, puzzle: SudokuPuzzle) -> None:
        import numpy as np

        from .backends.dlx import compiled
        from .backends.dlx import kernel as k
        from .backends.dlx.arrays import build, kernel_dtype

        n = puzzle.n
        empty = SudokuPuzzle(n, {}, puzzle.holes, puzzle.boxes, puzzle.groups)
        self.n = n
        self.problem = sudoku.build(empty)
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
        self.precover = compiled.kernel("precover", dtype)
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
        regions = []
        for a in range(n):
            for line in ([(a, b) for b in range(n)], [(b, a) for b in range(n)]):
                live = tuple(i * n + j for i, j in line if (i, j) not in puzzle.holes)
                regions.append((live, len(live) == n))
        for cells in puzzle.boxes.values():
            live = tuple(i * n + j for i, j in cells if (i, j) not in puzzle.holes)
            regions.append((live, len(cells) == n))
        self.regions = regions
        self.digit_set = frozenset(sudoku.CHARS[1 : n + 1])
        template = [sudoku.BLANK] * (n * n)
        for hole in self.holes:
            template[hole] = sudoku.HOLE
        self.template = template

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
        nd[:] = self.nd
        ln[:] = self.ln
        cl[:] = self.cl
        n, position, first, givens = self.n, self.position, self.first_node, self.givens
        count = 0
        for cell, d in puzzle.clues.items():
            givens[count] = first[position[cell] * n + d - 1]
            count += 1
        updates = self.precover(nd, ln, cl, givens, count, self.second, self.last_itm)
        stats: dict[str, Any] = {"algorithm": "X", "loop": False, "kernel": "compiled"}
        result = SearchResult(stats=stats)
        start = time.perf_counter()
        if cl[k.NEXT] == 0:  # the clues fill every cell: one solution, choosing nothing
            if limit != 0:
                result.count, result.exhausted, stats["nodes"] = 1, True, 1
                if keep != 0:
                    result.solutions.append([])
            stats["updates"] = int(updates)
            stats["seconds"] = time.perf_counter() - start
            return result
        st, params, sols, sol_len = self.st, self.params, self.sols, self.sol_len
        st[:] = 0
        params[k.P_MAX_COUNT] = limit if limit is not None else 1 << 62
        budget = FIRST_BUDGET * 64
        while True:
            wanted = self.rows if keep is None else min(self.rows, keep - len(result.solutions))
            params[k.P_STORE_CAP] = wanted
            params[k.P_BUDGET] = budget
            t0 = time.perf_counter()
            status = self.search(nd, ln, cl, self.opt_of, self.choice, st, params, sols, sol_len)
            t1 = time.perf_counter()
            for i in range(int(st[k.S_STORED])):
                result.solutions.append(sorted(sols[i, : sol_len[i]].tolist()))
            st[k.S_STORED] = 0
            if status == k.DONE:
                result.exhausted = True
                break
            if status == k.LIMIT:
                break
            if deadline is not None and time.monotonic() >= deadline:
                result.timed_out = True
                break
            if status == k.BUDGET:
                if t1 - t0 < SLICE / 2:
                    budget = min(budget * 2, 1 << 40)
                elif t1 - t0 > SLICE * 2:
                    budget = max(budget // 2, MIN_BUDGET)
        result.count = int(st[k.S_COUNT])
        stats["nodes"] = int(st[k.S_NODES])
        stats["updates"] = int(st[k.S_UPDATES]) + int(updates)
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
        if any(s[k] != sudoku.HOLE for k in self.holes):
            return False
        if not {s[k] for k in self.live} <= self.digit_set:
            return False
        chars = sudoku.CHARS
        if any(s[i * n + j] != chars[d] for (i, j), d in puzzle.clues.items()):
            return False
        for cells, complete in self.regions:
            seen = {s[k] for k in cells}
            if len(seen) != len(cells) or (complete and len(cells) != n):
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
