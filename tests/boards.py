"""Large boards made on the spot, for the limit tests and benchmarks/memory.py.

A serpentine loop (a Hamiltonian cycle of the grid) is made in linear time, unlike the
generator's random loops (half a minute at 200 x 200); every family's puzzle is read off it.
"""

from __future__ import annotations

from dlxsat.generators.masyu import board_text, loop_circles

Cell = tuple[int, int]


def serpentine(rows: int, cols: int) -> list[Cell]:
    """A cycle through every cell of a board with an even number of rows.

    >>> serpentine(2, 3)
    [(0, 0), (0, 1), (0, 2), (1, 2), (1, 1), (1, 0)]
    """
    loop = [(0, j) for j in range(cols)]
    for i in range(1, rows):
        js = range(cols - 1, 0, -1) if i % 2 else range(1, cols)
        loop += [(i, j) for j in js]
    loop += [(i, 0) for i in range(rows - 1, 0, -1)]
    return loop


def masyu(rows: int, cols: int) -> str:
    """A Masyu with every circle the serpentine loop allows."""
    return board_text(rows, cols, loop_circles(serpentine(rows, cols)))


def slitherlink(rows: int, cols: int) -> str:
    """A valid Slitherlink board of this size: clues 0-3 in a fixed pattern, a third blank. (To
    measure time and memory a puzzle need not be solvable, only valid.)"""
    return "".join(
        "".join("." if (i + j) % 3 == 0 else str((i * 7 + j * 3) % 4) for j in range(cols)) + "\n"
        for i in range(rows)
    )


def superslitherlink(rows: int, cols: int) -> str:
    """The Slitherlink board with a few cells grouped under letters."""
    lines = slitherlink(rows, cols).splitlines()
    lines[0] = "aa" + lines[0][2:]
    lines[1] = "b" + lines[1][1:]
    return "\n".join(lines) + "\n!a=3\n!b=2\n"


def sudoku(box: int) -> str:
    """An empty Sudoku of ``box**2`` rows and columns."""
    n = box * box
    return ("." * n + "\n") * n
