"""One-line Sudokus: 16, 81 or 256 characters in a line, row by row, with standard boxes.

A clue is a digit (``1-9``, then ``a-g`` for 16 × 16, either case), a blank is ``.`` or ``0``.
This is how collections of thousands of Sudokus are kept, one a line.
"""

from __future__ import annotations

from typing import Any

from ..errors import InputError
from ..families import sudoku

NAME = "oneline"
PER_LINE = True
SIZES = {16: 4, 81: 9, 256: 16}
BLANKS = ".0"


def looks_like(family: str, text: str) -> bool:
    """A single line of 16, 81 or 256 characters that are all digits or blanks (of 81 or 256
    characters whatever they are: nothing else is that long, and the reader says what is wrong).

    >>> looks_like("sudoku", "." * 81), looks_like("sudoku", "4..3\\n.3..\\n..1.\\n1..2\\n")
    (True, False)
    """
    line = text.strip()
    n = SIZES.get(len(line))
    if family != "sudoku" or n is None:
        return False
    if len(line) > 32 and "\n" not in line:
        # No other format has a single line this long (Knuth's Sudokus have n <= 32 lines):
        # a bad character is then told by this reader, not as "n is at most 32".
        return True
    return all(c in BLANKS or 0 < sudoku.CHARS.find(c.lower()) <= n for c in line)


def read(family: str, text: str) -> Any:
    """The Sudoku of a one-line text, with the standard boxes of its size.

    >>> p = read("sudoku", "4..3.3....1.1..2")
    >>> p.n, p.clues[0, 0], p.groups[0][0]
    (4, 4, '0011')
    """
    line = text.strip()
    if "\n" in line:
        raise InputError("a one-line sudoku is a single line")
    n = SIZES.get(len(line))
    if n is None:
        raise InputError(f"a one-line sudoku has 16, 81 or 256 characters, not {len(line)}")
    cells = []
    for k, c in enumerate(line, 1):
        if c in BLANKS:
            cells.append(sudoku.BLANK)
            continue
        d = sudoku.CHARS.find(c.lower())
        if not 0 < d <= n:
            raise InputError(
                f"character {k}: {c!r} is neither a digit 1-{sudoku.CHARS[n]} nor a blank (. or 0)"
            )
        cells.append(sudoku.CHARS[d])
    givens = ["".join(cells[i * n : (i + 1) * n]) for i in range(n)]
    shape = sudoku.standard_box_shape(n)
    assert shape is not None  # 4, 9 and 16 are squares
    return sudoku.read(sudoku.write_rows(givens, [sudoku.box_group(n, *shape)]))


def write(family: str, puzzle: Any) -> str:
    """One line, ``.`` for blanks; only Sudokus with exactly the standard boxes fit.

    >>> write("sudoku", read("sudoku", "4..3.3....1.1..2"))
    '4..3.3....1.1..2\\n'
    """
    n = puzzle.n
    if n * n not in SIZES:
        raise InputError(f"a one-line sudoku is 4, 9 or 16 cells wide, not {n}")
    if puzzle.holes:
        raise InputError("a one-line sudoku has no holes")
    if not has_standard_boxes(puzzle):
        raise InputError("a one-line sudoku has the standard boxes and no others")
    return "".join(puzzle.givens) + "\n"


def has_standard_boxes(puzzle: Any) -> bool:
    """Whether the puzzle's boxes are exactly the standard ones of its size, whatever their
    names (the X-sudoku diagonals, say, are more than that)."""
    shape = sudoku.standard_box_shape(puzzle.n)
    return shape is not None and box_cells(puzzle) == partition(sudoku.box_group(puzzle.n, *shape))


def box_cells(puzzle: Any) -> set[frozenset[tuple[int, int]]]:
    """The puzzle's boxes as sets of cells (names forgotten)."""
    return {frozenset(cells) for cells in puzzle.boxes.values()}


def partition(group: list[str]) -> set[frozenset[tuple[int, int]]]:
    """The boxes of one box-definition group as sets of cells."""
    boxes: dict[str, set[tuple[int, int]]] = {}
    for i, row in enumerate(group):
        for j, ch in enumerate(row):
            if ch != ".":
                boxes.setdefault(ch, set()).add((i, j))
    return {frozenset(cells) for cells in boxes.values()}
