"""Generalized sudoku, as Knuth's SUDOKU-GENERAL-DLX reads and encodes it.

The input is ``n`` lines of ``n`` characters (1 ≤ n ≤ 32), the first line's length fixing
``n``: a digit ``1-9a-w`` up to ``n`` is a clue, ``#`` a hole (a cell outside the puzzle), and
any other character a blank cell. Then come zero or more *box-definition groups*, each again
``n`` lines of ``n`` characters: ``.`` says nothing about the cell, a box name ``0-9a-v`` puts
the cell into that box. Boxes of different groups may overlap (X-sudoku diagonals), a box name
may be reused in several groups (it is then one box), and a box may have at most ``n`` cells.

The rules, exactly as his encoding states them:

- every non-hole cell gets one digit 1..n; no digit twice in a row, a column or a box;
- a row or column *without holes* must contain every digit (its items are primary); one with
  holes only forbids repeats (secondary items);
- a box with exactly ``n`` cells must contain every digit, a smaller box only forbids repeats.
  A box's size counts its holes too (as his program counts them), so an ``n``-cell box with a
  hole has no solution.

The encoding (:func:`encode`) is his byte for byte: a comment line with the clues, then the
items ``pij`` (cell i, j is filled), ``rid``/``cjd``/``bxd`` (digit d in row i, column j,
box x) — omitting those that a clue already settles — and one option per possible digit of
each blank cell. Clue cells get no option, so :func:`decode` starts from the clues.

Deliberate differences from his program, all on input it mishandles or rejects anyway: trailing
empty lines and a missing final newline are accepted (he rejects both), CRLF line ends are
accepted, a clue digit larger than ``n`` is rejected (he keeps it as a clue that no option can
respect), and tabs, lone carriage returns and non-ASCII characters are rejected (he reads bytes,
so a multibyte character would count as several cells).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from ..answer import Answer, grid_answer
from ..errors import InputError
from ..xcc.model import Problem
from .base import Puzzle
from .spec import Batch, FamilySpec, Picture, Policy, Tatham

#: Knuth's ``encode``: the character of 0..32. Clue digits are 1..n, box names and coordinates
#: 0..31, so one character always suffices.
CHARS = "0123456789abcdefghijklmnopqrstuvw"
MAX_N = 32
MAX_BOXES = 32
HOLE = "#"
BLANK = "."

Cell = tuple[int, int]


def _char(v: int) -> str:
    return CHARS[v]


@dataclass(frozen=True)
class Unit:
    """A row, column or box: no digit may appear twice in it.

    ``cells`` are its non-hole cells (row-major order). ``size`` is Knuth's count of the unit:
    ``n`` minus the holes for rows and columns, every listed cell (holes too) for boxes.
    ``complete`` (``size == n``) means every digit 1..n must appear in it; otherwise each digit
    appears at most once. ``index`` is the row or column number or the box name's value.
    """

    kind: str
    index: int
    cells: tuple[Cell, ...]
    size: int
    complete: bool

    @property
    def label(self) -> str:
        """Human name, e.g. ``row 3`` (0-based, like Knuth's item names) or ``box a``."""
        return f"{self.kind} {_char(self.index)}"


@dataclass(eq=False)
class SudokuPuzzle(Puzzle):
    """A parsed generalized sudoku.

    Attributes (coordinates are 0-based ``(row, column)``; digits are ints 1..n):

    ``n``
        the size: n rows, n columns, digits 1..n.
    ``digits``
        the digit alphabet, ``digits[d - 1]`` is digit d's character (``"123456789abc..."``).
    ``clues``
        cell → given digit.
    ``holes``
        the cells outside the puzzle (``#``), which take no digit.
    ``boxes``
        box name value (0..31) → its cells in row-major order, holes included.
    ``groups``
        the box-definition groups as read, each a tuple of n strings (for drawing regions).
    ``units``
        every row, column and box that has at least one cell in Knuth's count (see
        :class:`Unit`), rows first, then columns, then boxes by name.
    ``units_of``
        cell → indices into ``units`` of the units holding it (non-hole cells only).
    ``boxes_of``
        cell → names of the boxes holding it (what each option of the encoding lists).
    ``blanks``, ``givens``
        the cells to fill; the grid as given (digits, ``#``, ``.``), as Knuth's comment shows it.
    """

    n: int
    clues: dict[Cell, int]
    holes: frozenset[Cell]
    boxes: dict[int, tuple[Cell, ...]]
    groups: tuple[tuple[str, ...], ...] = field(default_factory=tuple)

    @property
    def digits(self) -> str:
        """The first ``n`` of Knuth's digit characters ``1-9a-w``."""
        return CHARS[1 : self.n + 1]

    @property
    def blanks(self) -> list[Cell]:
        """The cells to fill: neither hole nor clue, row-major."""
        return [
            (i, j)
            for i in range(self.n)
            for j in range(self.n)
            if (i, j) not in self.holes and (i, j) not in self.clues
        ]

    @property
    def givens(self) -> list[str]:
        """The grid as given: clue digits, ``#`` for holes, ``.`` for blank cells."""
        return [
            "".join(
                HOLE if (i, j) in self.holes else self._given_char((i, j)) for j in range(self.n)
            )
            for i in range(self.n)
        ]

    def _given_char(self, cell: Cell) -> str:
        d = self.clues.get(cell)
        return BLANK if d is None else _char(d)

    @cached_property
    def units(self) -> tuple[Unit, ...]:
        """Rows, columns (those with a non-hole cell), then boxes by name; see :class:`Unit`."""
        n = self.n
        out: list[Unit] = []
        for kind in ("row", "col"):
            for a in range(n):
                cells: Sequence[tuple[int, int]] = [
                    (a, b) if kind == "row" else (b, a) for b in range(n)
                ]
                live = tuple(c for c in cells if c not in self.holes)
                if live:
                    out.append(Unit(kind, a, live, len(live), len(live) == n))
        for x in sorted(self.boxes):
            cells = self.boxes[x]
            live = tuple(c for c in cells if c not in self.holes)
            out.append(Unit("box", x, live, len(cells), len(cells) == n))
        return tuple(out)

    @cached_property
    def units_of(self) -> dict[Cell, tuple[int, ...]]:
        """Non-hole cell → indices into :attr:`units` of the units that hold it."""
        acc: dict[Cell, list[int]] = {}
        for k, unit in enumerate(self.units):
            for cell in unit.cells:
                acc.setdefault(cell, []).append(k)
        return {cell: tuple(ks) for cell, ks in acc.items()}

    @cached_property
    def boxes_of(self) -> dict[Cell, tuple[int, ...]]:
        """Cell → the names of the boxes holding it, ascending (holes included)."""
        acc: dict[Cell, list[int]] = {}
        for x in sorted(self.boxes):
            for cell in self.boxes[x]:
                acc.setdefault(cell, []).append(x)
        return {cell: tuple(xs) for cell, xs in acc.items()}


# ---------------------------------------------------------------------------------------------
# Reading


def _split_lines(text: str) -> list[str]:
    """Lines of ``text``; trailing *empty* lines dropped, but not lines of spaces.

    :func:`dlxsat.families.base.puzzle_lines` drops whitespace-only trailing lines, which would be
    wrong here: a space is a blank cell in Knuth's format, so ``"    "`` is a real row.
    """
    lines = text.replace("\r\n", "\n").split("\n")
    while lines and lines[-1] == "":
        lines.pop()
    for r, line in enumerate(lines, 1):
        if line.isascii() and "\t" not in line and "\r" not in line:
            continue  # (the usual case, decided without a Python loop over the characters)
        for c, ch in enumerate(line, 1):
            if ch == "\t":
                raise InputError(f"line {r}, column {c}: a tab is not allowed in a puzzle")
            if ch == "\r":
                raise InputError(
                    f"line {r}, column {c}: a carriage return is not allowed in a puzzle"
                )
            if not ch.isascii():
                raise InputError(
                    f"line {r}, column {c}: non-ASCII character {ch!r} is not allowed in a sudoku"
                )
    return lines


def from_tatham_id(game_id: str) -> str:
    """Knuth's input text for a game id of Simon Tatham's Solo (``sgt-solo``, his Sudoku).

    A Solo id is ``CxR:DESC`` (or ``N:DESC`` for ``NxN``), then an ``x`` for X-sudoku; letters
    for symmetry and difficulty may follow and are ignored. As in his program, the grid has
    ``n = C·R`` rows and each box is ``C`` rows by ``R`` columns. DESC lists the cells row by
    row: a number for a clue (``_`` separates two numbers), a letter ``a``-``z`` a run of 1-26
    blank cells. The boxes become one box-definition group; X-sudoku adds a group for each
    diagonal (boxes ``a`` and ``b``). Jigsaw (``j``) and killer (``k``) ids are refused: their
    regions need a format of their own.

    >>> print(from_tatham_id("2x2:4b3a3d1a1b2"), end="")
    4..3
    .3..
    ..1.
    1..2
    0011
    0011
    2233
    2233
    """
    params, colon, desc = game_id.strip().partition(":")
    shape = re.fullmatch(r"(\d+)(?:x(\d+))?([a-z0-9]*)", params)
    if not colon or shape is None:
        raise InputError(f"{game_id!r} is not a Solo game id like '3x3:DESC'")
    c = int(shape[1])
    r = int(shape[2]) if shape[2] else c
    flags = re.sub(r"d[a-z]|md?\d+|r\d+|a", "", shape[3])  # symmetry, difficulty
    if "j" in flags or "k" in flags:
        kind = "jigsaw" if "j" in flags else "killer"
        raise InputError(f"Solo {kind} ids are not supported (only rectangular boxes)")
    if flags not in ("", "x"):
        raise InputError(f"unknown flags {flags!r} in the Solo parameters {params!r}")
    n = c * r
    if not (c >= 2 and r >= 2 and n <= MAX_N):
        raise InputError(f"Solo boxes of {c}x{r} are not supported (n = c·r must be 4..{MAX_N})")
    cells: list[str] = []
    for m in re.finditer(r"(\d+)|([a-z])|(_)|(.)", desc):
        if m[1]:
            v = int(m[1])
            if not 1 <= v <= n:
                raise InputError(f"the Solo description has clue {v}, not in 1..{n}")
            cells.append(_char(v))
        elif m[2]:
            cells.extend(BLANK * (ord(m[2]) - ord("a") + 1))
        elif m[4]:
            raise InputError(
                f"character {m.start() + 1} of the Solo description: {m[4]!r} is no cell"
            )
    if len(cells) != n * n:
        raise InputError(f"the Solo description has {len(cells)} cells, not {n}x{n} = {n * n}")
    rows = ["".join(cells[i * n : (i + 1) * n]) for i in range(n)]
    # Box (i // c, j // r): c rows of r cells each, numbered row by row.
    boxes = ["".join(_char((i // c) * c + j // r) for j in range(n)) for i in range(n)]
    if "x" in flags:
        boxes += ["".join("a" if j == i else "." for j in range(n)) for i in range(n)]
        boxes += ["".join("b" if j == n - 1 - i else "." for j in range(n)) for i in range(n)]
    return "".join(line + "\n" for line in rows + boxes)


def _plural(k: int, word: str) -> str:
    return f"{k} {word}" if k == 1 else f"{k} {word}s"


def read(text: str) -> SudokuPuzzle:
    """Parse Knuth's generalized-sudoku format; raise :class:`InputError` for what he rejects.

    Lines are checked in order, as his program reads them, so the first error reported is
    the one he would stop at.

    >>> p = read("1.\\n.#\\n0.\\n1.\\n")
    >>> p.n, p.clues, sorted(p.holes), p.boxes
    (2, {(0, 0): 1}, [(1, 1)], {0: ((0, 0),), 1: ((1, 0),)})
    >>> p.digits, [u.label for u in p.units if u.complete]
    ('12', ['row 0', 'col 0'])
    """
    lines = _split_lines(text)
    if not lines:
        raise InputError("empty puzzle")
    n = len(lines[0])
    if n == 0:
        raise InputError("line 1: the first line is empty (its length is n, from 1 to 32)")
    if n > MAX_N:
        raise InputError(f"line 1: the first line has {n} characters, but n is at most {MAX_N}")

    clues: dict[Cell, int] = {}
    holes: set[Cell] = set()
    row_clue: dict[tuple[int, int], int] = {}  # (row, digit) → column of that clue
    col_clue: dict[tuple[int, int], int] = {}  # (column, digit) → row of that clue
    boxes: dict[int, list[Cell]] = {}
    box_group: dict[tuple[int, Cell], int] = {}  # (box, cell) → group that put it there
    box_clue: dict[tuple[int, int], Cell] = {}  # (box, digit) → the clue's cell

    def cell_line(i: int, line: str) -> None:
        for j, ch in enumerate(line):
            if ch == HOLE:
                holes.add((i, j))
                continue
            d = CHARS.find(ch) if ch != "0" else -1
            if d <= 0:
                continue  # any other character is a blank cell, as in Knuth's program
            where = f"line {i + 1}, column {j + 1}"
            if d > n:
                raise InputError(f"{where}: digit {ch!r} is larger than n={n}")
            if (i, d) in row_clue:
                raise InputError(
                    f"{where}: digit {ch} is already a clue in this row "
                    f"(column {row_clue[i, d] + 1})"
                )
            if (j, d) in col_clue:
                raise InputError(
                    f"{where}: digit {ch} is already a clue in this column "
                    f"(line {col_clue[j, d] + 1})"
                )
            row_clue[i, d] = j
            col_clue[j, d] = i
            clues[i, j] = d

    def box_line(g: int, i: int, line: str) -> None:
        # (The position is formatted only for a message: this loop runs for every cell.)
        def where(j: int) -> str:
            return f"line {g * n + i + 1}, column {j + 1}"

        for j, ch in enumerate(line):
            if ch == ".":
                continue
            x = CHARS.find(ch)
            if not 0 <= x < MAX_BOXES:
                raise InputError(
                    f"{where(j)}: invalid character {ch!r} in box-definition group {g} "
                    "(a box name 0-9 or a-v, or '.')"
                )
            if (x, (i, j)) in box_group:
                raise InputError(
                    f"{where(j)}: box {ch} already contains this cell (row {i + 1}, column "
                    f"{j + 1}, put there by box-definition group {box_group[x, (i, j)]})"
                )
            d = clues.get((i, j))
            if d is not None:
                if (x, d) in box_clue:
                    r, c = box_clue[x, d]
                    raise InputError(
                        f"{where(j)}: digit {_char(d)} appears twice in box {ch} (clues at row "
                        f"{r + 1}, column {c + 1} and row {i + 1}, column {j + 1})"
                    )
                box_clue[x, d] = (i, j)
            box_group[x, (i, j)] = g
            cells = boxes.setdefault(x, [])
            cells.append((i, j))
            if len(cells) > n:
                raise InputError(f"{where(j)}: box {ch} has more than n={n} cells")

    for r, line in enumerate(lines):
        if len(line) != n:
            raise InputError(
                f"line {r + 1} has {_plural(len(line), 'character')}, but every line must have "
                f"n={n} (the length of the first line)"
            )
        g, i = divmod(r, n)
        if g == 0:
            cell_line(i, line)
        else:
            box_line(g, i, line)
    if len(lines) < n:
        raise InputError(
            f"only {_plural(len(lines), 'line')}, but an n={n} sudoku needs {n} lines of cells"
        )
    if len(lines) % n:
        g = len(lines) // n
        raise InputError(
            f"box-definition group {g} (from line {g * n + 1}) has "
            f"{_plural(len(lines) % n, 'line')}, not n={n}"
        )
    groups = tuple(tuple(lines[g * n : (g + 1) * n]) for g in range(1, len(lines) // n))
    return SudokuPuzzle(
        n=n,
        clues=clues,
        holes=frozenset(holes),
        boxes={x: tuple(sorted(cells)) for x, cells in sorted(boxes.items())},
        groups=groups,
    )


#: Box shapes (rows, columns) of the sizes that are not squares: Simon Tatham's rectangles for
#: Solo, two or three rows of wide boxes (6 → 2 × 3, 8 → 2 × 4, 10 → 2 × 5, 12 → 3 × 4).
RECTANGLE_BOXES = {6: (2, 3), 8: (2, 4), 10: (2, 5), 12: (3, 4)}


def standard_box_shape(n: int) -> tuple[int, int] | None:
    """The (rows, columns) of the usual boxes of an n × n sudoku, or None when there are none:
    √n × √n when n is a square, Tatham's rectangles for 6, 8, 10 and 12.

    >>> standard_box_shape(9), standard_box_shape(6), standard_box_shape(7)
    ((3, 3), (2, 3), None)
    """
    root = int(round(n**0.5))
    if root * root == n and n > 1:
        return (root, root)
    return RECTANGLE_BOXES.get(n)


def box_group(n: int, rows: int, cols: int) -> list[str]:
    """A box-definition group of boxes ``rows`` × ``cols``, named row by row; boxes at the right
    and bottom edges are cut short when the shape does not divide n (as puz.link draws them).

    >>> box_group(4, 2, 2)
    ['0011', '0011', '2233', '2233']
    """
    across = -(-n // cols)
    if -(-n // rows) * across > MAX_BOXES:
        raise InputError(
            f"{rows} x {cols} boxes on an n={n} board make more than {MAX_BOXES} boxes"
        )
    return ["".join(_char((i // rows) * across + j // cols) for j in range(n)) for i in range(n)]


def with_standard_boxes(puzzle: SudokuPuzzle) -> SudokuPuzzle:
    """The puzzle with the usual boxes added (:func:`standard_box_shape`) as its first group.

    >>> with_standard_boxes(read("1...\\n....\\n....\\n....\\n")).groups[0]
    ('0011', '0011', '2233', '2233')
    """
    shape = standard_box_shape(puzzle.n)
    if shape is None:
        raise InputError(
            f"an n={puzzle.n} sudoku has no standard boxes (squares, or 6, 8, 10, 12); "
            "give its box lines"
        )
    groups = [list(box_group(puzzle.n, *shape))] + [list(g) for g in puzzle.groups]
    return read(write_rows(puzzle.givens, groups))


def box_policy(puzzles: list[SudokuPuzzle], standard: bool) -> tuple[list[SudokuPuzzle], str]:
    """Sudokus without box lines, never silently: with ``standard`` (``--boxes standard``) they
    get the standard boxes; otherwise they stay what they are in Knuth's format, Latin squares,
    and the note returned says so and what ``standard`` would add ("" when all have boxes).

    >>> bare = read("1...\\n....\\n....\\n....\\n")
    >>> box_policy([bare], True)[0][0].groups[0]
    ('0011', '0011', '2233', '2233')
    >>> box_policy([bare], False)[1].split(";")[1]
    ' --boxes standard adds 2x2 boxes'
    """
    bare = [k for k, p in enumerate(puzzles) if not p.boxes]
    if not bare:
        return puzzles, ""
    if standard:
        return [with_standard_boxes(p) if not p.boxes else p for p in puzzles], ""
    n = puzzles[bare[0]].n
    shape = standard_box_shape(n)
    offer = (
        f"--boxes standard adds {shape[0]}x{shape[1]} boxes"
        if shape
        else f"an n={n} sudoku has no standard boxes; add box lines"
    )
    which = "it" if len(puzzles) == 1 else f"{len(bare)} of the {len(puzzles)} puzzles"
    return puzzles, (
        f"no box lines, so {which} is a Latin square in Knuth's format (rows and columns "
        f"only); {offer}"
    )


def write_rows(givens: list[str], groups: list[list[str]]) -> str:
    """Knuth's input text from the rows of cells and the box-definition groups."""
    return "".join(line + "\n" for line in [*givens, *(row for g in groups for row in g)])


def write(puzzle: SudokuPuzzle) -> str:
    """The puzzle in Knuth's input format (``.`` for blank cells): :func:`read` gives it back.

    >>> print(write(read("1.\\n.2\\n01\\n01\\n")), end="")
    1.
    .2
    01
    01
    """
    return write_rows(puzzle.givens, [list(g) for g in puzzle.groups])


# ---------------------------------------------------------------------------------------------
# Encoding


def encode(puzzle: SudokuPuzzle) -> str:
    """Exactly what SUDOKU-GENERAL-DLX prints for ``puzzle``.

    >>> print(encode(read("1.\\n..\\n")), end="")
    |sudoku!1.!..
    p01 p10 p11 r02 r11 r12 c02 c11 c12 |
    p01 r02 c12
    p10 r12 c02
    p11 r11 c11
    p11 r12 c12
    """
    n = puzzle.n
    digits = range(1, n + 1)
    ch = _char
    # Which digits are already clues in each row, column and box (their items are omitted).
    row_has: list[set[int]] = [set() for _ in range(n)]
    col_has: list[set[int]] = [set() for _ in range(n)]
    box_has: dict[int, set[int]] = {x: set() for x in puzzle.boxes}
    for (i, j), d in puzzle.clues.items():
        row_has[i].add(d)
        col_has[j].add(d)
    boxes_of = puzzle.boxes_of
    for cell, d in puzzle.clues.items():
        for x in boxes_of.get(cell, ()):
            box_has[x].add(d)
    row_size = [n - sum((i, j) in puzzle.holes for j in range(n)) for i in range(n)]
    col_size = [n - sum((i, j) in puzzle.holes for i in range(n)) for j in range(n)]
    box_size = {x: len(cells) for x, cells in puzzle.boxes.items()}
    box_names = sorted(puzzle.boxes)

    out = ["|sudoku", *("!" + row for row in puzzle.givens), "\n"]
    blanks = puzzle.blanks
    # Primary items (units that need all n digits), then "|", then secondary ones; each primary
    # name is followed by a space and each secondary one preceded by one, as Knuth prints them.
    out.extend(f"p{ch(i)}{ch(j)} " for i, j in blanks)
    for prefix, sizes, has in (("r", row_size, row_has), ("c", col_size, col_has)):
        out.extend(
            f"{prefix}{ch(a)}{ch(d)} "
            for a in range(n)
            if sizes[a] == n
            for d in digits
            if d not in has[a]
        )
    out.extend(
        f"b{ch(x)}{ch(d)} "
        for x in box_names
        if box_size[x] == n
        for d in digits
        if d not in box_has[x]
    )
    out.append("|")
    for prefix, sizes, has in (("r", row_size, row_has), ("c", col_size, col_has)):
        out.extend(
            f" {prefix}{ch(a)}{ch(d)}"
            for a in range(n)
            if 0 < sizes[a] < n
            for d in digits
            if d not in has[a]
        )
    out.extend(
        f" b{ch(x)}{ch(d)}"
        for x in box_names
        if box_size[x] < n
        for d in digits
        if d not in box_has[x]
    )
    out.append("\n")
    for i, j in blanks:
        xs = boxes_of.get((i, j), ())
        for d in digits:
            if d in row_has[i] or d in col_has[j] or any(d in box_has[x] for x in xs):
                continue
            out.append(f"p{ch(i)}{ch(j)} r{ch(i)}{ch(d)} c{ch(j)}{ch(d)}")
            out.extend(f" b{ch(x)}{ch(d)}" for x in xs)
            out.append("\n")
    return "".join(out)


# ---------------------------------------------------------------------------------------------
# Decoding, checking, drawing


def _coord(name: str, k: int) -> int:
    v = CHARS.find(name[k]) if len(name) == 3 else -1
    if v < 0:
        raise ValueError(name)
    return v


def decode(puzzle: SudokuPuzzle, problem: Problem, chosen: list[int]) -> Answer:
    """The filled grid for the chosen options: the clues plus one digit per chosen option.

    Each option of :func:`encode` names its cell (``pij``) and its digit (in ``rid``). A cell
    that no chosen option fills stays ``.`` (the rule checker will report it); an option that
    is not a cell assignment, or a cell filled twice, is an :class:`InputError`.
    """
    grid = [list(row) for row in puzzle.givens]
    for k in chosen:
        if not 0 <= k < len(problem.options):
            raise InputError(f"option {k} does not exist (the problem has {len(problem.options)})")
        names = problem.option_names(k)
        cell = digit = None
        try:
            for name in names:
                if name.startswith("p"):
                    cell = (_coord(name, 1), _coord(name, 2))
                elif name.startswith("r"):
                    digit = _coord(name, 2)
        except ValueError:
            cell = None
        if cell is None or digit is None or not (0 < digit <= puzzle.n):
            raise InputError(f"option {k} ({' '.join(names)}) is not a sudoku cell assignment")
        i, j = cell
        if not (i < puzzle.n and j < puzzle.n) or grid[i][j] != BLANK:
            raise InputError(f"option {k} ({' '.join(names)}) fills a cell that is not blank")
        grid[i][j] = _char(digit)
    return grid_answer("".join(row) for row in grid)


def check(puzzle: SudokuPuzzle, answer: Answer) -> list[str]:
    """Every way ``answer`` breaks the rules (empty list: it is a solution).

    This works from the puzzle's clues, holes and boxes directly, not from the encoding, so it
    can catch an encoding or solver bug. Rows and columns in messages count from 1.
    """
    n = puzzle.n
    grid = answer.get("grid") if isinstance(answer, dict) else None
    if not isinstance(grid, list) or not all(isinstance(row, str) for row in grid):
        return ["the answer has no grid (a list of row strings)"]
    problems: list[str] = []
    if len(grid) != n:
        problems.append(f"the grid has {len(grid)} rows, not {n}")
    for i, row in enumerate(grid):
        if len(row) != n:
            problems.append(f"row {i + 1} has {len(row)} characters, not {n}")
    if problems:
        return problems

    value: dict[Cell, int] = {}
    for i in range(n):
        for j in range(n):
            ch = grid[i][j]
            at = f"row {i + 1}, column {j + 1}"
            if (i, j) in puzzle.holes:
                if ch != HOLE:
                    problems.append(f"{at}: {ch!r} in a hole (should be '#')")
                continue
            if ch == HOLE:
                problems.append(f"{at}: '#' in a cell that is not a hole")
                continue
            d = CHARS.find(ch) if ch != "0" else -1
            if not 1 <= d <= n:
                problems.append(f"{at}: {ch!r} is not a digit from 1 to {_char(n)}")
                continue
            value[i, j] = d
            given = puzzle.clues.get((i, j))
            if given is not None and given != d:
                problems.append(f"{at}: the clue {_char(given)} was changed to {ch}")

    # Rows and columns: never a digit twice; all n digits when the line has no hole.
    # Boxes: never a digit twice; all n digits when the box has n cells (holes counted).
    regions: list[tuple[str, list[Cell], bool]] = []
    for i in range(n):
        cells = [(i, j) for j in range(n)]
        regions.append((f"row {i + 1}", cells, not any(c in puzzle.holes for c in cells)))
    for j in range(n):
        cells = [(i, j) for i in range(n)]
        regions.append((f"column {j + 1}", cells, not any(c in puzzle.holes for c in cells)))
    for x, box in puzzle.boxes.items():
        regions.append((f"box {_char(x)}", list(box), len(box) == n))
    for label, cells, complete in regions:
        seen: dict[int, Cell] = {}
        for cell in cells:
            digit = value.get(cell)
            if digit is None:
                continue
            if digit in seen:
                (a, b), (i, j) = seen[digit], cell
                problems.append(
                    f"{label}: digit {_char(digit)} twice (row {a + 1}, column {b + 1} and "
                    f"row {i + 1}, column {j + 1})"
                )
            else:
                seen[digit] = cell
        if complete:
            missing = [_char(d) for d in range(1, n + 1) if d not in seen]
            if missing:
                problems.append(f"{label}: digits {' '.join(missing)} missing")
    return problems


def render(puzzle: SudokuPuzzle, answer: Answer | None) -> str:
    """The grid as text, one row a line, cells separated by spaces: the answer's digits, or
    without an answer the clues (blanks ``.``).

    Where the first box-definition group puts neighbouring cells in different boxes, the space
    between them becomes ``|`` and a line of ``-`` (``+`` at crossings) separates the rows,
    so ordinary sudoku boxes show as usual.

    >>> p = read("....\\n....\\n....\\n....\\n0011\\n0011\\n2233\\n2233\\n")
    >>> print(render(p, {"grid": ["1234", "3412", "2143", "4321"]}))
    1 2|3 4
    3 4|1 2
    ---+---
    2 1|4 3
    4 3|2 1
    """
    n = puzzle.n
    grid = list(answer.get("grid", [])) if isinstance(answer, dict) else list(puzzle.givens)
    rows = [(grid[i] if i < len(grid) else "").ljust(n, BLANK)[:n] for i in range(n)]
    region = puzzle.groups[0] if puzzle.groups else None

    def box(i: int, j: int) -> str:
        return region[i][j] if region else "."

    def wall_right(i: int, j: int) -> bool:  # between (i, j) and (i, j + 1)
        return region is not None and box(i, j) != box(i, j + 1)

    def wall_below(i: int, j: int) -> bool:  # between (i, j) and (i + 1, j)
        return region is not None and box(i, j) != box(i + 1, j)

    out: list[str] = []
    for i in range(n):
        line = []
        for j in range(n):
            line.append(rows[i][j])
            if j + 1 < n:
                line.append("|" if wall_right(i, j) else " ")
        out.append("".join(line))
        if i + 1 < n and any(wall_below(i, j) for j in range(n)):
            sep = []
            for j in range(n):
                sep.append("-" if wall_below(i, j) else " ")
                if j + 1 < n:
                    vertical = wall_right(i, j) or wall_right(i + 1, j)
                    horizontal = wall_below(i, j) or wall_below(i, j + 1)
                    sep.append(
                        "+"
                        if vertical and horizontal
                        else "|"
                        if vertical
                        else "-"
                        if horizontal
                        else " "
                    )
            out.append("".join(sep).rstrip())
    return "\n".join(out)


# ---------------------------------------------------------------------------------------------
# Building the exact-cover problem directly (the batch path: no DLX text to write and read)


def build(puzzle: SudokuPuzzle) -> Problem:
    """The :class:`~dlxsat.xcc.Problem` of :func:`encode`'s data, without writing it out:
    ``build(p) == xcc.parse(encode(p), allow_empty=True)`` (same items, options and order).

    >>> from dlxsat.xcc import parse
    >>> p = read("1.\\n..\\n")
    >>> build(p) == parse(encode(p)), build(p).option_names(0)
    (True, ['p01', 'r02', 'c12'])
    """
    from ..xcc.model import Item

    n = puzzle.n
    ch = CHARS
    row_has: list[set[int]] = [set() for _ in range(n)]
    col_has: list[set[int]] = [set() for _ in range(n)]
    box_has: dict[int, set[int]] = {x: set() for x in puzzle.boxes}
    boxes_of = puzzle.boxes_of
    for (i, j), d in puzzle.clues.items():
        row_has[i].add(d)
        col_has[j].add(d)
        for x in boxes_of.get((i, j), ()):
            box_has[x].add(d)
    holes = puzzle.holes
    row_size = [n - sum((i, j) in holes for j in range(n)) for i in range(n)]
    col_size = [n - sum((i, j) in holes for i in range(n)) for j in range(n)]
    box_names = sorted(puzzle.boxes)
    box_size = {x: len(puzzle.boxes[x]) for x in box_names}
    blanks = puzzle.blanks
    digits = range(1, n + 1)

    def unit_items(primary: bool) -> list[str]:
        names = []
        for prefix, sizes, has in (("r", row_size, row_has), ("c", col_size, col_has)):
            names += [
                f"{prefix}{ch[a]}{ch[d]}"
                for a in range(n)
                if (sizes[a] == n if primary else 0 < sizes[a] < n)
                for d in digits
                if d not in has[a]
            ]
        names += [
            f"b{ch[x]}{ch[d]}"
            for x in box_names
            if (box_size[x] == n) == primary
            for d in digits
            if d not in box_has[x]
        ]
        return names

    primaries = [f"p{ch[i]}{ch[j]}" for i, j in blanks] + unit_items(True)
    if not primaries:
        # Knuth's item line then starts with '|', which his reader (and ours) takes for a
        # comment: the data has no items, the problem is empty.
        return Problem([], [])
    items = [Item(name) for name in primaries]
    items += [Item(name, primary=False) for name in unit_items(False)]
    index = {it.name: k for k, it in enumerate(items)}
    options = []
    for k, (i, j) in enumerate(blanks):
        xs = boxes_of.get((i, j), ())
        ri, cj = row_has[i], col_has[j]
        for d in digits:
            if d in ri or d in cj or any(d in box_has[x] for x in xs):
                continue
            entries: list[tuple[int, str | None]] = [(k, None), (index[f"r{ch[i]}{ch[d]}"], None)]
            entries.append((index[f"c{ch[j]}{ch[d]}"], None))
            entries += [(index[f"b{ch[x]}{ch[d]}"], None) for x in xs]
            options.append(tuple(entries))
    return Problem(items, options)


def many_reader() -> Callable[[str], SudokuPuzzle]:
    """A :func:`read` for many puzzles that mostly share their box-definition groups (as a
    file of 9 x 9 Sudokus does): the groups are checked once per distinct text, not once per
    puzzle, which makes reading several times faster. Each call returns what :func:`read`
    returns, and raises what it raises (for anything unusual it *is* :func:`read`).

    >>> r = many_reader()
    >>> a, b = r("1.\\n..\\n01\\n01\\n"), r(".2\\n..\\n01\\n01\\n")
    >>> a.clues, b.clues, a.boxes is b.boxes
    ({(0, 0): 1}, {(0, 1): 2}, True)
    """
    shapes: dict[tuple[str, ...], SudokuPuzzle] = {}

    def read_one(text: str) -> SudokuPuzzle:
        lines = _split_lines(text)
        n = len(lines[0]) if lines else 0
        if not 0 < n <= MAX_N or len(lines) < n or len(lines) % n:
            return read(text)
        if any(len(line) != n for line in lines):
            return read(text)
        groups = tuple(lines[n:])
        shape = shapes.get(groups)
        if shape is None:
            # The groups on a blank grid: every error they can have without clues.
            blank = [" " * n] * n
            try:
                shape = read("".join(f"{line}\n" for line in blank + lines[n:]))
            except InputError:
                return read(text)  # (a clue line may hold an earlier error)
            shapes[groups] = shape
        cells = read("".join(f"{line}\n" for line in lines[:n]))  # the clue lines' checks
        seen: set[tuple[int, int]] = set()
        boxes_of = shape.boxes_of
        for cell, d in cells.clues.items():
            for x in boxes_of.get(cell, ()):
                if (x, d) in seen:
                    return read(text)  # a digit twice in a box: read's own message
                seen.add((x, d))
        return SudokuPuzzle(n, cells.clues, cells.holes, shape.boxes, shape.groups)

    return read_one


class PackedSudoku(SudokuPuzzle):
    """A Sudoku read by :func:`read_bulk`: the same puzzle as :func:`read` gives, its clues
    kept packed (``packed[i * n + j]``: the digit of cell i, j, 0 when blank) and made into the
    ``clues`` dictionary only when asked for -- a file of many puzzles is mostly solved
    without ever asking."""

    def __init__(
        self,
        n: int,
        boxes: dict[int, tuple[Cell, ...]],
        groups: tuple[tuple[str, ...], ...],
        packed: bytes,
    ) -> None:
        self.n, self.holes, self.boxes, self.groups = n, frozenset(), boxes, groups
        self.packed = packed

    @property
    def clues(self) -> dict[Cell, int]:
        """Cell → given digit, as :class:`SudokuPuzzle` has it (made from ``packed`` once)."""
        clues = self.__dict__.get("_clues")
        if clues is None:
            n = self.n
            clues = {divmod(k, n): d for k, d in enumerate(self.packed) if d}
            self.__dict__["_clues"] = clues
        return clues

    @clues.setter
    def clues(self, value: dict[Cell, int]) -> None:
        self.__dict__["_clues"] = value


#: Bytes of the texts :func:`read_bulk` reads itself: a clue cell's digit (0: blank), or 255.
_CELL_BYTES = bytes(
    (ord(c) - 48 if c.isdigit() else 0 if c == "." else 255) if c.isascii() else 255
    for c in map(chr, range(256))
)
#: The one-line Sudoku's standard boxes (the ``oneline`` format's).
_ONE_LINE_GROUP = "".join(f"{row}\n" for row in box_group(9, 3, 3))


#: The shapes :func:`read_bulk` has read, by size and box groups' text (None: the groups have an
#: error), kept between calls so that the puzzles of later files share their boxes objects.
_BULK_SHAPES: dict[tuple[int, str], SudokuPuzzle | None] = {}


def read_bulk(texts: Sequence[object]) -> list[SudokuPuzzle | None]:
    """Many texts read at once, where they are in the common forms of a file of Sudokus:
    Knuth's format with every line ``n`` characters of ``0-9`` and ``.`` (n ≤ 9) ended by a
    line feed, or a one-line Sudoku of 81 characters (``0-9`` and ``.``: what
    :mod:`dlxsat.formats` detects as the ``oneline`` format). For such a text the puzzle is
    what reading it one by one gives (a :class:`PackedSudoku`); for any other input, and for
    a text with an error, ``None``: the caller reads it one by one, with the message that
    gives. The cells are checked for all texts of a size at once (numpy arrays), the box
    groups once per distinct group text.

    >>> a, b, c = read_bulk(["1.\\n..\\n01\\n01\\n", "." * 80 + "9", "11\\n..\\n"])
    >>> a.clues, b.clues, len(b.boxes), c
    ({(0, 0): 1}, {(8, 8): 9}, 9, None)
    """
    import numpy as np

    out: list[SudokuPuzzle | None] = [None] * len(texts)
    forms: dict[tuple[int, int], list[int]] = {}  # (n, length) -> texts of that form
    for k, text in enumerate(texts):
        if type(text) is not str:
            continue
        size = len(text)
        if size == 81 or (size == 82 and text[81] == "\n"):
            forms.setdefault((0, 81), []).append(k)  # one line (checked below)
            continue
        n = text.find("\n")
        if 0 < n <= 9 and size % (n + 1) == 0 and text[-1] == "\n":
            forms.setdefault((n, size), []).append(k)
    table = np.frombuffer(_CELL_BYTES, dtype=np.uint8)
    shapes = _BULK_SHAPES
    if len(shapes) > 64:
        shapes.clear()
    for (n, size), ks in forms.items():
        data = "".join(texts[k][:size] for k in ks).encode("ascii", "replace")  # type: ignore[index]
        raw = np.frombuffer(data, dtype=np.uint8)
        if n == 0:  # one-line Sudokus: 81 cells, the standard boxes
            n, width, cells = 9, 81, table[raw.reshape(len(ks), 81)]
            good = (cells != 255).all(axis=1)
            groups = [_ONE_LINE_GROUP] * len(ks)
        else:
            lines = size // (n + 1)
            if lines % n:
                continue
            grid = raw.reshape(len(ks), lines, n + 1)
            good = (grid[:, :, n] == 10).all(axis=1)
            cells = table[grid[:, :n, :n].reshape(len(ks), n * n)]
            good &= (cells <= n).all(axis=1)
            if lines > n:  # box names 0-9 and "." only (others: read one by one)
                good &= (table[grid[:, n:, :n]] != 255).all(axis=(1, 2))
            start = n * (n + 1)
            groups = [texts[k][start:] for k in ks]  # type: ignore[index]
        packed = cells.tobytes()
        by_shape: dict[str, list[int]] = {}
        for r in np.flatnonzero(good).tolist():
            by_shape.setdefault(groups[r], []).append(r)
        width = n * n
        for group, rows in by_shape.items():
            if (n, group) not in shapes:
                try:
                    shape = read(f"{' ' * n}\n" * n + group)  # the groups' own errors
                except InputError:
                    shape = None
                shapes[n, group] = shape
            shape = shapes[n, group]
            if shape is None:
                continue
            for r in _without_repeats(shape, cells[rows]):
                out[ks[rows[r]]] = PackedSudoku(
                    n, shape.boxes, shape.groups, packed[rows[r] * width : (rows[r] + 1) * width]
                )
    return out


def _without_repeats(shape: SudokuPuzzle, cells: object) -> list[int]:
    """The rows of ``cells`` (clue digits, one row a puzzle of ``shape``) with no digit twice
    in a row, column or box."""
    import numpy as np

    values = np.asarray(cells)
    bits = _bits(values, shape.n)
    ok = np.ones(len(values), dtype=bool)
    for where, _ in _units_by_size(shape.n, [(unit.cells, False) for unit in shape.units]):
        given = (values[:, where] > 0).sum(axis=1)  # clues per unit
        ok &= (_popcount(bits[:, where].sum(axis=1)) == given).all(axis=1)
    indices: list[int] = np.flatnonzero(ok).tolist()
    return indices


def _units_by_size(n: int, units: Sequence[tuple[Sequence[Cell], bool]]) -> list[tuple[Any, Any]]:
    """The units (their cells, and whether complete) as index arrays, one per size of unit:
    ``where[k, u]`` is the ``k``-th cell (``i * n + j``) of unit ``u``, so that ``row[where]``
    summed over its first axis is the sums per unit; and the units' ``complete`` flags."""
    import numpy as np

    sizes: dict[int, list[tuple[Sequence[Cell], bool]]] = {}
    for cells, complete in units:
        sizes.setdefault(len(cells), []).append((cells, complete))
    return [
        (
            np.array([[i * n + j for i, j in cells] for cells, _ in same], dtype=np.intp).T,
            np.array([complete for _, complete in same]),
        )
        for size, same in sizes.items()
        if size
    ]


def _bits(values: object, n: int) -> Any:
    """``2 ** v`` for every digit ``v`` (1..n) of ``values``, 0 for anything else: a unit's
    sum of them has one bit per digit in it, and fewer bits than the unit has digits when a
    digit repeats (two equal powers carry)."""
    import numpy as np

    table = np.zeros(256, dtype=np.int64)
    table[1 : n + 1] = np.left_shift(1, np.arange(1, n + 1, dtype=np.int64))
    return table[np.asarray(values)]


def _popcount(sums: object) -> Any:
    """The number of 1 bits of each (whole, non-negative) value of ``sums``."""
    import numpy as np

    x = np.asarray(sums).astype(np.uint64)
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return ((x * np.uint64(0x0101010101010101)) >> np.uint64(56)).astype(np.int64)


# --------------------------------------------------------------------------- many at once


def batch_template(puzzle: SudokuPuzzle) -> BatchTemplate | None:
    """The problem ``puzzle`` shares with every Sudoku of its shape, for a solver that solves
    one problem many times with options chosen beforehand (a solver's batch path, its
    ``solve_many``; :class:`dlxsat.solvers.Template`): None when its shape is not for that
    (the empty grid has no primary item: every row, column and box has holes). One template
    per shape is made and kept (:data:`_TEMPLATES`): a solver keeps its layout of the
    template's problem, which costs some hundred puzzles' worth to make."""
    key = shape_key(puzzle)
    if key in _TEMPLATES:
        return _TEMPLATES[key]
    if len(_TEMPLATES) >= KEPT_TEMPLATES:
        _TEMPLATES.clear()
    template = BatchTemplate(puzzle)
    made = _TEMPLATES[key] = template if template.problem.n_primary else None
    return made


#: The most shapes whose templates are kept.
KEPT_TEMPLATES = 8
#: :func:`batch_template`'s templates, by :func:`shape_key` (None: not a shape for it).
_TEMPLATES: dict[object, BatchTemplate | None] = {}


class BatchTemplate:
    """The empty grid's problem of one Sudoku shape (size, holes, boxes) and what a puzzle of
    that shape is in its terms: its clues are options chosen beforehand (:meth:`givens`) --
    choosing "digit d in cell c" for every clue covers the items Knuth's encoding leaves out
    and hides the same options -- and an answer is read back from the chosen options
    (:meth:`answer`; option ``k`` of the empty grid is digit ``k % n + 1`` in its ``k // n``-th
    blank cell) and judged by :meth:`obeys_rules`, ``check``'s judgement made faster by regions
    worked out once for the shape."""

    def __init__(self, puzzle: SudokuPuzzle) -> None:
        from operator import itemgetter

        n = puzzle.n
        self.key = shape_key(puzzle)
        self._boxes, self._holes = puzzle.boxes, puzzle.holes
        self._alike = [puzzle.boxes]  # boxes objects known to be these boxes
        empty = SudokuPuzzle(n, {}, puzzle.holes, puzzle.boxes, puzzle.groups)
        self.n = n
        self.problem = build(empty)
        #: the cells, in the order of their options (every cell has n options, digits 1..n).
        cells = empty.blanks
        self.position = {cell: p for p, cell in enumerate(cells)}

        def picker(indices: list[int]) -> Callable[[str], tuple[str, ...]]:
            # the characters at ``indices`` of a string, as a tuple, in one call
            if len(indices) == 1:
                k = indices[0]
                return lambda s: (s[k],)
            if not indices:
                return lambda s: ()
            return itemgetter(*indices)

        flat = [i * n + j for i, j in cells]
        self.live = flat
        holes = sorted(i * n + j for i, j in puzzle.holes)
        self.has_holes = bool(holes)
        regions = []
        for a in range(n):
            for line in ([(a, b) for b in range(n)], [(b, a) for b in range(n)]):
                live = [i * n + j for i, j in line if (i, j) not in puzzle.holes]
                regions.append((live, len(live) == n))
        for box in puzzle.boxes.values():
            live = [i * n + j for i, j in box if (i, j) not in puzzle.holes]
            regions.append((live, len(box) == n))
        self.regions = [(picker(live), len(live), full) for live, full in regions]
        self.hole_chars = picker(holes)
        self.live_chars = picker(flat)
        self.digit_set = frozenset(CHARS[1 : n + 1])
        template = [BLANK] * (n * n)
        for hole in holes:
            template[hole] = HOLE
        self.template = template
        #: Whether :meth:`packed_cells` and the array methods after it serve this shape (one
        #: without holes, as every one-line Sudoku); others go one puzzle at a time.
        self.packs = not holes
        self._regions: list[tuple[Any, Any]] | None = None

    # The array methods: many puzzles of this shape at once, one row each (a chunk of a file).

    def packed_cells(self, puzzles: Sequence[SudokuPuzzle]) -> object:
        """The clues of ``puzzles`` as one array, a row a puzzle: ``[p, i * n + j]`` is the
        digit of cell i, j (0: blank)."""
        import numpy as np

        n = self.n
        rows = []
        for puzzle in puzzles:
            packed = getattr(puzzle, "packed", None)
            if packed is None:
                cells = bytearray(n * n)
                for (i, j), d in puzzle.clues.items():
                    cells[i * n + j] = d
                packed = bytes(cells)
            rows.append(packed)
        return np.frombuffer(b"".join(rows), dtype=np.uint8).reshape(len(puzzles), n * n)

    def given_options(self, cells: object) -> tuple[object, object]:
        """What :meth:`givens` says for every row of ``cells`` (:meth:`packed_cells`): the
        options the clues choose, ``given[p, :counts[p]]``, and ``counts``."""
        import numpy as np

        cells = np.asarray(cells)
        clue = cells > 0
        counts = clue.sum(axis=1)
        width = max(1, int(counts.max(initial=0)))
        where = np.argsort(~clue, axis=1, kind="stable")[:, :width]  # clue cells first
        digits = np.take_along_axis(cells, where, axis=1).astype(np.int32)
        # (no holes: cell i * n + j is blank cell number i * n + j, its options n of them)
        given = np.where(digits > 0, where * self.n + digits - 1, 0).astype(np.intp)
        return given, counts

    def grids(self, cells: object, sols: object, sol_len: object) -> object:
        """The filled grids, ``[p, s]`` for solution ``s`` of row ``p`` (chosen options
        ``sols[p, s, :sol_len[p, s]]``, as :meth:`answer` reads them): a cell no option fills
        keeps its clue or 0."""
        import numpy as np

        cells, sols, sol_len = np.asarray(cells), np.asarray(sols), np.asarray(sol_len)
        rows, kept, _ = sols.shape
        grids = np.repeat(cells[:, None, :], kept, axis=1)
        chosen = np.arange(sols.shape[2]) < sol_len[:, :, None]
        option = sols[chosen]
        start = np.broadcast_to(
            np.arange(0, grids.size, cells.shape[1]).reshape(rows, kept, 1), sols.shape
        )
        # (no holes: option k fills cell k // n, the grid's cells being its blank cells)
        grids.reshape(-1)[start[chosen] + option // self.n] = option % self.n + 1
        return grids

    def obey_rules(self, cells: object, grids: object) -> object:
        """:meth:`obeys_rules` for every grid of ``grids`` (:meth:`grids`) at once, from the
        clues and the regions (never the encoding): every cell a digit 1..n, every clue kept,
        no digit twice in a row, column or box (the sum of ``2 ** digit`` over a region has
        as many 1 bits as the region has cells), and a complete region holds all n digits."""
        import numpy as np

        cells, grids = np.asarray(cells), np.asarray(grids)
        n = self.n
        clues = cells[:, None, :]
        ok = ((grids - np.uint8(1)) < n).all(axis=2)  # (0 - 1 wraps round to 255)
        ok &= ((clues == 0) | (grids == clues)).all(axis=2)
        if self._regions is None:
            units = SudokuPuzzle(n, {}, self._holes, self._boxes).units
            self._regions = _units_by_size(n, [(unit.cells, unit.complete) for unit in units])
        bits = _bits(grids, n)
        every = (1 << (n + 1)) - 2  # the digits 1..n as bits
        for where, complete in self._regions:
            sums = bits[:, :, where].sum(axis=2)  # [p, s, region]
            ok &= (_popcount(sums) == len(where)).all(axis=2)
            ok &= ((sums == every) | ~complete).all(axis=2)
        return ok

    def answers_of_chunk(
        self, cells: object, sols: object, sol_len: object, kept: object, settled: object
    ) -> tuple[list[list[Answer]], list[bool]]:
        """Per row of ``cells`` (:meth:`packed_cells`): the answers of its first ``kept[p]``
        solutions (``sols[p, s, :sol_len[p, s]]``, chosen options; none for a row not
        ``settled``), and whether they all obey the rules (:meth:`obey_rules`, as arrays)."""
        import numpy as np

        kept, settled = np.asarray(kept), np.asarray(settled)
        grids = np.asarray(self.grids(cells, sols, sol_len))
        wanted = (np.arange(grids.shape[1]) < kept[:, None]) & settled[:, None]
        bad = (wanted & ~np.asarray(self.obey_rules(cells, grids))).any(axis=1)
        # The text of the answers kept, grid after grid, row after row.
        text = self.answers_text(grids[wanted])
        n = self.n
        lines = [text[at : at + n] for at in range(0, len(text), n)]
        answers: list[list[Answer]] = []
        at = 0  # the first line of the row's answers
        for keep in np.where(settled, kept, 0).tolist():
            if keep == 1:
                answers.append([{"grid": lines[at : at + n]}])
            else:
                answers.append(
                    [{"grid": lines[at + s * n : at + (s + 1) * n]} for s in range(keep)]
                )
            at += keep * n
        return answers, (~bad).tolist()

    def answers_text(self, grids: object) -> str:
        """The digits of ``grids`` as characters, one grid after the other (``n * n`` each)."""
        import numpy as np

        chars = np.frombuffer(CHARS.encode(), dtype=np.uint8)
        text: str = chars[np.asarray(grids)].tobytes().decode("ascii")
        return text

    def fits(self, puzzle: SudokuPuzzle) -> bool:
        """Whether ``puzzle`` has this shape (quickly when it shares the objects, as puzzles
        of one :func:`many_reader` do)."""
        boxes = puzzle.boxes
        if (boxes is self._boxes or any(boxes is seen for seen in self._alike)) and (
            puzzle.holes == self._holes
        ):
            return puzzle.n == self.n
        if shape_key(puzzle) != self.key:
            return False
        if len(self._alike) < 16:  # (puzzles read apart share equal boxes, not the same)
            self._alike.append(boxes)
        return True

    def fitting(self, puzzles: Sequence[SudokuPuzzle], start: int, stop: int) -> int:
        """The end of the run of ``puzzles[start:stop]`` that have this shape (as :meth:`fits`
        says, quickly for puzzles that share their boxes objects)."""
        boxes, holes, n = self._boxes, self._holes, self.n
        end = start
        while end < stop:
            puzzle = puzzles[end]
            if puzzle.boxes is boxes and puzzle.holes == holes and puzzle.n == n:
                end += 1
            elif self.fits(puzzle):
                boxes = puzzle.boxes  # (puzzles of one file share them)
                end += 1
            else:
                break
        return end

    def problem_of(self, puzzle: SudokuPuzzle) -> Problem:
        """The exact-cover problem of ``puzzle`` alone (:func:`build`): for a solver that
        leaves the shared problem for a puzzle of its own."""
        return build(puzzle)

    def givens(self, puzzle: SudokuPuzzle) -> list[int]:
        """The options of :attr:`problem` that ``puzzle``'s clues choose."""
        n, position = self.n, self.position
        return [position[cell] * n + d - 1 for cell, d in puzzle.clues.items()]

    def answer(self, puzzle: SudokuPuzzle, chosen: Sequence[int]) -> Answer:
        """The filled grid: holes, clues, and digit ``k % n + 1`` in blank cell ``k // n`` for
        every chosen option ``k`` (a cell no option fills stays ``.``, for the checker)."""
        n, live = self.n, self.live
        cells = list(self.template)
        for (i, j), d in puzzle.clues.items():
            cells[i * n + j] = CHARS[d]
        for option in chosen:
            cells[live[option // n]] = CHARS[option % n + 1]
        return grid_answer("".join(cells[i * n : (i + 1) * n]) for i in range(n))

    def obeys_rules(self, puzzle: SudokuPuzzle, answer: Answer) -> bool:
        """Whether :func:`check` finds nothing wrong with ``answer``, decided from the clues,
        holes and regions (never from the encoding), some ten times faster. When it says
        False the caller asks :func:`check` for the message."""
        n, grid = self.n, answer["grid"]
        if len(grid) != n or any(len(row) != n for row in grid):
            return False
        s = "".join(grid)
        if self.has_holes and set(self.hole_chars(s)) != {HOLE}:
            return False
        if not set(self.live_chars(s)) <= self.digit_set:
            return False
        for (i, j), d in puzzle.clues.items():
            if s[i * n + j] != CHARS[d]:
                return False
        for chars_of, size, complete in self.regions:
            if len(set(chars_of(s))) != size or (complete and size != n):
                return False
        return True


def shape_key(
    puzzle: SudokuPuzzle,
) -> tuple[int, frozenset[Cell], tuple[tuple[int, tuple[Cell, ...]], ...]]:
    """What two puzzles must share to share a :class:`BatchTemplate`: size, holes and boxes."""
    return (puzzle.n, puzzle.holes, tuple(puzzle.boxes.items()))


def prepare(puzzles: list[SudokuPuzzle], policy: Policy) -> tuple[list[SudokuPuzzle], list[str]]:
    """The family's policy (:class:`~dlxsat.families.spec.Policy`): ``boxes`` is
    :func:`box_policy`'s; a loop rule is refused (a Sudoku has none)."""
    if policy.loop:
        raise InputError("--loop is for xcc data; a sudoku puzzle has its own rules")
    if policy.boxes not in (None, "standard"):
        raise InputError(f"unknown box policy {policy.boxes!r} (choose from standard)")
    puzzles, note = box_policy(puzzles, policy.boxes == "standard")
    return puzzles, [note] if note else []


def draw(canvas: Any, puzzle: SudokuPuzzle, answer: Answer | None) -> None:
    """The grid with thick box borders (the first box-definition group; cells of further
    groups, such as X-sudoku diagonals, lightly shaded), holes filled, clues in black and the
    digits of the answer in blue."""
    from ..drawing import ANSWER

    n = puzzle.n
    for g in puzzle.groups[1:]:
        for i, r in enumerate(g):
            for j, c in enumerate(r):
                if c != BLANK:
                    canvas.shade(i, j, "#e8eef8")
    for i, j in puzzle.holes:
        canvas.shade(i, j, "#555555")
    canvas.grid(n, n, "#999999", 0.6)
    canvas.walls(puzzle.groups[0] if puzzle.groups else [[0] * n for _ in range(n)])
    grid = (answer or {}).get("grid") or puzzle.givens
    for i in range(n):
        for j in range(n):
            ch = grid[i][j] if i < len(grid) and j < len(grid[i]) else BLANK
            if (i, j) in puzzle.holes or ch in ".#":
                continue
            given = (i, j) in puzzle.clues
            canvas.text(i, j, ch, colour="black" if given else ANSWER, bold=given)


#: Reading, encoding and parsing take some 600 bytes per cell**1.5: a Sudoku's options grow as
#: the cube of its rows.
BYTES_PER_SUDOKU_CELL = 600

SPEC = FamilySpec(
    name="sudoku",
    summary="generalized Sudoku (n <= 32): holes, irregular and overlapping boxes",
    read=read,
    write=write,
    encode=encode,
    decode=decode,
    check=check,
    render=render,
    build=build,
    memory=lambda cells, rows: BYTES_PER_SUDOKU_CELL * rows**3,
    formats=("knuth", "penpa", "puzzlink", "pzprv3", "tatham", "oneline", "grid"),
    writes=("knuth", "puzzlink", "grid", "oneline", "penpa", "pzprv3"),
    answers=("pzprv3", "penpa", "grid"),
    picture=Picture(lambda p: (p.n, p.n), draw),
    batch=Batch(
        template=batch_template, many_reader=many_reader, read_bulk=read_bulk, backend="auto"
    ),
    tatham=Tatham("Solo", from_tatham_id),
    logic="dlxsat.reasoning.sudoku",
    prepare_puzzles=prepare,
    example="puzzles/sudoku/puzzlium-A.txt",
)
