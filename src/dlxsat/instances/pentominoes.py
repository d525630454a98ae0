"""Packing the twelve pentominoes into a rectangle of 60 cells, as Knuth's XC data.

The pieces carry Conway's names, which Knuth uses (TAOCP 7.2.2.1): O P Q R S T U V W X Y Z
(O is the straight piece, Q the L, R the F, S the N). Items: the twelve piece names, then the
cells ``<row><col>`` (base-62 digits, row first), all primary. One option per placement of a
piece in any of its orientations: the piece, then its cells in row-major order. Placements
are not reduced by symmetry, so each packing is counted with its 3 mirror images.
"""

from __future__ import annotations

from ..errors import InputError
from ..xcc.names import b62
from . import Arg

NAME = "pentominoes"
SUMMARY = "the 12 pentominoes packed into a ROWS x COLS rectangle (ROWS x COLS = 60)"
ARGS = (Arg("rows", "rows of the rectangle", 1, 60), Arg("cols", "columns of the rectangle", 1, 60))

#: Each piece, by Conway's letter, drawn row by row (``#`` a cell).
PIECES = {
    "O": ["#####"],
    "P": ["##", "##", "#."],
    "Q": ["#.", "#.", "#.", "##"],
    "R": [".##", "##.", ".#."],
    "S": ["##..", ".###"],
    "T": ["###", ".#.", ".#."],
    "U": ["#.#", "###"],
    "V": ["#..", "#..", "###"],
    "W": ["#..", "##.", ".##"],
    "X": [".#.", "###", ".#."],
    "Y": ["####", ".#.."],
    "Z": ["##.", ".#.", ".##"],
}

#: Packings of the rectangles, mirror images counted (4 per packing of the literature):
#: 3 x 20: 2, 4 x 15: 368, 5 x 12: 1010, 6 x 10: 2339 (Haselgrove and Haselgrove, 1960;
#: TAOCP 7.2.2.1; OEIS A000105's pentominoes, and Knuth's "Dancing links", 2000, Table 1).
KNOWN = {
    (3, 20): 8,
    (20, 3): 8,
    (4, 15): 1472,
    (5, 12): 4040,
    (6, 10): 9356,
}

#: The smallest case (8 answers); the tests count it with dlx only: SAT and CP-SAT take up
#: to a minute on it (tests/test_instances.py's SAT_HARD).
TESTED = (3, 20)

Cells = tuple[tuple[int, int], ...]


def orientations(rows: list[str]) -> list[Cells]:
    """The distinct shapes of a piece under rotation and reflection, each normalised to its
    top-left corner and sorted.

    >>> [len(orientations(PIECES[p])) for p in "XRO"]
    [1, 8, 2]
    """
    cells = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "#"]
    seen: dict[Cells, None] = {}
    for k in range(8):
        moved = []
        for r, c in cells:
            if k & 4:
                r, c = c, r
            if k & 2:
                r = -r
            if k & 1:
                c = -c
            moved.append((r, c))
        r0 = min(r for r, _ in moved)
        c0 = min(c for _, c in moved)
        seen.setdefault(tuple(sorted((r - r0, c - c0) for r, c in moved)), None)
    return list(seen)


def generate(rows: int, cols: int) -> str:
    """The DLX data of the pentominoes in a ``rows`` x ``cols`` rectangle.

    >>> data = generate(3, 20).splitlines()
    >>> data[1].split()[:14], len(data) - 2
    (['O', 'P', 'Q', 'R', 'S', 'T', 'U', 'V', 'W', 'X', 'Y', 'Z', '00', '01'], 1236)
    """
    if rows * cols != 60:
        raise InputError(f"pentominoes: the rectangle must have 60 cells, not {rows}x{cols}")
    name = [[b62(r) + b62(c) for c in range(cols)] for r in range(rows)]
    lines = [
        f"| pentominoes {rows} {cols}: the 12 pentominoes in a {rows}x{cols} rectangle",
        " ".join([*PIECES, *(name[r][c] for r in range(rows) for c in range(cols))]),
    ]
    for piece, drawing in PIECES.items():
        for shape in orientations(drawing):
            height = 1 + max(r for r, _ in shape)
            width = 1 + max(c for _, c in shape)
            for r in range(rows - height + 1):
                for c in range(cols - width + 1):
                    cells = " ".join(name[r + dr][c + dc] for dr, dc in shape)
                    lines.append(f"{piece} {cells}")
    return "\n".join(lines) + "\n"
