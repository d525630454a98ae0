"""Fillomino: read Knuth's FILLOMINO-DLX input and print his exact-cover data, byte for byte.

**The puzzle.** Some cells of an ``m`` x ``n`` board hold numbers; fill every other cell with a
number so that each maximal rookwise-connected set of cells with the same number ``d`` has exactly
``d`` cells (a *d-omino*). Equivalently: cut the board into regions, each labelled with its
size, two regions of the same size never sharing an edge, every given number lying in a region of
that size.

**His input.** One line per row, one character per cell: ``.`` blank, ``1``-``9`` or ``a``-``f``
a given number 1-15. Anything else (``0``, a capital, a space) is an illegal entry.

**His assumption.** The numbers in a solution are only ``1 .. dmax``, where ``dmax`` is the
largest number given. He says so himself, and that this can be "a serious deviation from the
standard rules": a board whose published answer has a region larger than every given number
(a 5-omino on a board whose clues are all 1, say) has no solution in his encoding. Four of the
golden boards are like that (``janko-78_9x9``, ``-66``, ``-436``, ``-583``). The field ``dmax``
of :class:`FillominoPuzzle` is that bound; :func:`read` sets it to the largest given number,
as he does, but a caller may raise it.

**The exact-cover problem** (what :func:`encode` prints, in his order):

- *Primary items*: one per cell, named by its coordinates (``3a`` is row 3, column 10, 0-based),
  given or blank; every cell is covered by exactly one region.
- *Secondary items* ``vijd`` and ``hijd``, one per number ``d = 1 .. dmax`` and per edge between
  two *blank* cells: ``vijd`` is the edge between (i, j-1) and (i, j), ``hijd`` the one between
  (i-1, j) and (i, j). A region of size ``d`` lists the ``d``-item of every edge between one of
  its blank cells and a blank cell outside it, so two ``d``-regions never meet across such an
  edge: both would need the same uncolored secondary item.
- No colors: a secondary item is simply used by at most one chosen option, so DLX1's
  Algorithm X (or DLX2, which runs it on data without colors) solves the problem.
- *Options*: one per feasible ``d``-omino ``P``, for each ``d = 1 .. dmax`` and each cell in
  row-major order as the cell that "starts" ``P``: its cells (in the order the search found
  them), then its boundary items. ``P`` is feasible when it holds no given number other than
  ``d`` and every given ``d`` next to it is inside it. Edges at a given cell need no item: a
  region can only touch a given ``d`` by containing it, which is how the search builds it.

**Which cell starts a region.** A region with no given number is generated from its first cell
in row-major order, and then it may not touch a given ``d`` at all (that ``d`` would have to be
part of it). A region holding given ``d``'s is generated from the first of *those* (its blank
cells may come earlier); from that cell, every given ``d`` that becomes adjacent to the region
is a *forced move*: it joins the region at once, with the ``d``'s next to it, and so on. If a
forced cell comes before the starting cell, or the region would exceed ``d`` cells, that branch
is dropped.

**The search** is his generalization of Algorithm R of TAOCP exercise 7.2.2-75, which lists the
connected ``d``-cell sets containing a vertex ``v0`` exactly once each (Redelmeier's method):
the cells chosen so far form a list; candidates are the neighbours of the listed cells, scanned
cell by cell in list order and, for each, north, west, east, south. A candidate is taken if no
scan has met it before; either way, it stays "seen" (a count per cell) until the scan that met
it is undone, so each set is produced from one choice sequence only. :func:`_regions` keeps his
order exactly, because that order is the order of the output lines.

**Names.** His program prints every number with ``%x``; for ``0 .. 15`` that is one base-62
digit (docs/conventions.md §4). Three regimes, chosen once per board:

1. *His names*, whenever his program reads the board (at most 16 rows, rows of at most 78
   characters, as his 80-byte line buffer allows, and numbers at most 15): ``%x`` exactly, so a
   column of 16 or more takes two hex digits (``010`` is row 0, column 16, as in the golden case
   ``wide-seventeen-columns``). Such names stay unambiguous: only the column can be longer. (At
   16 rows and more than 16 columns his framing of the board writes one cell past his array;
   we print what his construction means there.)
2. *Base-62 digits*, one character per coordinate and per number, when his program cannot read
   the board but every coordinate and number is at most 61: cell ``0g``, edge ``v0g5``.
3. *Decimal* beyond that, in every name of the board: cell ``63.40`` (row and column joined by a
   dot, as the loop families write their large boards), edge ``63.40v17`` / ``63.40h17`` (the
   cell, the edge's letter as an infix, then ``d``; his ``v``/``h`` prefix would make
   ``v63.40.17``, one character more than the 8 that DLX names may have). A board whose longest
   name would still exceed 8 characters (a coordinate or number above 99, roughly) is refused.

The comment lines echo the board as his program echoes its input; a board with a number above
15 (built directly, not read) is echoed one number or ``.`` per cell, separated by spaces.

**Where dlxsat differs from his reader**, all on input he mishandles or refuses: a missing final
newline, CRLF line ends and trailing empty lines are accepted; rows of unequal length are an
error (he pads short rows with blanks); boards beyond his limits (more than 16 rows, rows longer
than 78) are read whole; a tab, a carriage return or a non-ASCII character is an error naming its
line and column, as every illegal entry is.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property

from ..errors import InputError
from ..xcc.names import MAX_DIGIT, b62

#: His digits: the character of number ``k`` is ``DIGITS[k]`` (``.`` for a blank cell).
DIGITS = ".123456789abcdef"
BLANK = "."
#: His limits: ``maxn`` rows (and ``bufsize`` - 2 characters in a row), numbers below ``maxd``.
MAX_ROWS = 16
MAX_ROW_CHARS = 78
MAX_NUMBER = 15
#: Longest item name Knuth's solvers accept.
MAX_NAME = 8

Givens = tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class FillominoPuzzle:
    """A Fillomino board: ``givens[i][j]`` is the number in cell (i, j), 0 for a blank cell.

    ``dmax`` bounds the numbers of a solution (his assumption: the largest given number).

    >>> p = read("1.\\n.2\\n")
    >>> p.m, p.n, p.givens, p.dmax, p.naming
    (2, 2, ((1, 0), (0, 2)), 2, 'knuth')
    """

    m: int
    n: int
    givens: Givens
    dmax: int

    def __post_init__(self) -> None:
        if self.m < 1 or self.n < 1:
            raise InputError(f"a board needs a row and a column, not {self.m}x{self.n}")
        if len(self.givens) != self.m or any(len(row) != self.n for row in self.givens):
            raise InputError(f"the givens are not {self.m} rows of {self.n} numbers")
        largest = max(max(row) for row in self.givens)
        if min(min(row) for row in self.givens) < 0:
            raise InputError("a given number must be 1 or more (0 for a blank cell)")
        if self.dmax < largest:
            raise InputError(f"dmax = {self.dmax} is less than the given number {largest}")
        if self.naming == "decimal":
            longest = len(f"{self.m - 1}.{self.n - 1}v{self.dmax}")
            if longest > MAX_NAME:
                raise InputError(
                    f"a {self.m}x{self.n} board with numbers up to {self.dmax} is too large: "
                    f"its item names would exceed {MAX_NAME} characters"
                )

    @classmethod
    def from_givens(
        cls, givens: Sequence[Sequence[int]], dmax: int | None = None
    ) -> FillominoPuzzle:
        """The board of these rows of numbers (0 blank); ``dmax`` defaults to the largest.

        >>> FillominoPuzzle.from_givens([[0, 3, 0]]).dmax
        3
        """
        rows = tuple(tuple(row) for row in givens)
        largest = max((max(row, default=0) for row in rows), default=0)
        return cls(len(rows), len(rows[0]) if rows else 0, rows, largest if dmax is None else dmax)

    @property
    def clues(self) -> int:
        """How many cells hold a given number."""
        return sum(v > 0 for row in self.givens for v in row)

    @cached_property
    def naming(self) -> str:
        """``knuth`` (his ``%x`` names), ``base62`` or ``decimal``: see the module doc."""
        if self.m <= MAX_ROWS and self.n <= MAX_ROW_CHARS and self.dmax <= MAX_NUMBER:
            return "knuth"
        if max(self.m - 1, self.n - 1, self.dmax) <= MAX_DIGIT:
            return "base62"
        return "decimal"

    def cell_name(self, i: int, j: int) -> str:
        """The primary item of cell (i, j).

        >>> read("1.\\n..\\n").cell_name(1, 0)
        '10'
        """
        if self.naming == "knuth":
            return f"{i:x}{j:x}"
        if self.naming == "base62":
            return b62(i) + b62(j)
        return f"{i}.{j}"

    def edge_name(self, letter: str, i: int, j: int, d: int) -> str:
        """The secondary item of the ``letter`` edge (``v`` west, ``h`` north) of (i, j) for d.

        >>> read("1.\\n..\\n").edge_name("v", 1, 1, 1)
        'v111'
        """
        if self.naming == "knuth":
            return f"{letter}{i:x}{j:x}{d:x}"
        if self.naming == "base62":
            return letter + b62(i) + b62(j) + b62(d)
        return f"{i}.{j}{letter}{d}"

    def row_text(self, i: int) -> str:
        """Row i as his input shows it; on a board with a number above 15, each cell as a
        decimal number or ``.``, separated by spaces."""
        row = self.givens[i]
        if max(max(r) for r in self.givens) <= MAX_NUMBER:
            return "".join(DIGITS[v] for v in row)
        return " ".join(str(v) if v else BLANK for v in row)


# ---------------------------------------------------------------------------------------------
# Reading


def _lines(text: str) -> list[str]:
    """The lines of ``text`` (CRLF read as LF, trailing empty lines dropped)."""
    lines = text.replace("\r\n", "\n").split("\n")
    while lines and lines[-1] == "":
        lines.pop()
    return lines


def read(text: str) -> FillominoPuzzle:
    """Parse FILLOMINO-DLX input, refusing what his program refuses (with line and column).

    Boards beyond his limits (more than 16 rows, rows of more than 78 cells) are accepted.

    >>> read("3.\\n.a\\n").givens
    ((3, 0), (0, 10))
    >>> read("3.x\\n...\\n")
    Traceback (most recent call last):
      ...
    dlxsat.errors.InputError: line 1, column 3: illegal entry 'x' (use . or a digit 1-9, a-f)
    """
    lines = _lines(text)
    if not lines:
        raise InputError("empty puzzle: no rows")
    width = len(lines[0])
    if width == 0:
        raise InputError("line 1, column 1: the first row is empty")
    rows: list[tuple[int, ...]] = []
    for r, line in enumerate(lines, 1):
        row: list[int] = []
        for c, ch in enumerate(line, 1):
            k = DIGITS.find(ch)
            if k < 0:
                if ch == "\t":
                    what = "a tab is not allowed in a puzzle"
                elif ch == "\r":
                    what = "a carriage return is not allowed in a puzzle"
                else:
                    what = f"illegal entry {ch!r} (use . or a digit 1-9, a-f)"
                raise InputError(f"line {r}, column {c}: {what}")
            row.append(k)
        if len(line) != width:
            col = min(len(line), width) + 1
            raise InputError(
                f"line {r}, column {col}: row has {len(line)} cells, but line 1 has {width}"
            )
        rows.append(tuple(row))
    return FillominoPuzzle.from_givens(rows)


def status_line(puzzle: FillominoPuzzle) -> str:
    """The line his program writes on stderr after reading a board (not part of the data).

    >>> status_line(read("1.\\n.2\\n"))
    "OK, I've read 2 clues <= 2, for a 2x2 board."
    """
    return (
        f"OK, I've read {puzzle.clues} clues <= {puzzle.dmax}, for a {puzzle.m}x{puzzle.n} board."
    )


# ---------------------------------------------------------------------------------------------
# The regions: his Algorithm R with forced moves


class _Board:
    """The board in one array with a frame around it, as he keeps it: cell (i, j) is at
    ``(i + 1) * width + j + 1``, so that comparing positions compares cells in row-major order.
    A cell holds its given number, 0 if blank, -1 in the frame."""

    def __init__(self, puzzle: FillominoPuzzle) -> None:
        self.m, self.n = puzzle.m, puzzle.n
        self.width = w = puzzle.n + 2
        self.cell = [-1] * ((puzzle.m + 2) * w)
        for i, row in enumerate(puzzle.givens):
            self.cell[(i + 1) * w + 1 : (i + 1) * w + 1 + self.n] = row
        #: The four neighbours in his order: north, west, east, south.
        self.steps = (-w, -1, 1, w)

    def pos(self, i: int, j: int) -> int:
        return (i + 1) * self.width + j + 1

    def coords(self, p: int) -> tuple[int, int]:
        return p // self.width - 1, p % self.width - 1


def _regions(board: _Board, d: int, start: int) -> Iterator[list[int]]:
    """The feasible d-ominoes that ``start`` starts, each as its cells in the order found.

    The yielded list is the search's own and is changed afterwards: copy it to keep it.
    """
    cell, steps = board.cell, board.steps
    first = cell[start]
    if first == 0:
        if any(cell[start + s] == d for s in steps):
            return  # a region touching a given d must contain it, so it starts elsewhere
        forcing = False
    elif first != d:
        return
    else:
        forcing = True  # the region's first given d: the other d's it touches are forced in

    # seen[p] counts the scans that have met blank cell p in the current branch; a cell of the
    # region that is a given d has seen 1 instead, as a mark, from its forced move to its undoing.
    seen: dict[int, int] = {}
    cells = [start]
    seen[start] = 1

    def force(p: int) -> bool:
        """Take in every given d connected to the new cell p through given d's (depth first,
        his stack order); False if one comes before ``start`` or there would be too many."""
        if not forcing:
            return True
        stack = [p]
        while stack:
            q = stack.pop()
            for s in steps:
                t = q + s
                if cell[t] != d or seen.get(t, 0):
                    continue
                if t < start or len(cells) == d:
                    return False
                cells.append(t)
                seen[t] = 1
                stack.append(t)
        return True

    def undo_forced(keep: int) -> None:
        while len(cells) > keep:
            seen[cells.pop()] = 0

    def grow(i0: int, a0: int) -> Iterator[list[int]]:
        """Extend the region by candidates met after direction ``a0`` of ``cells[i0]``."""
        top = len(cells)  # the cells this level scans (deeper levels add and remove theirs)
        met: list[int] = []
        for i in range(i0, top):
            v = cells[i]
            for a in range(a0 + 1 if i == i0 else 0, 4):
                u = v + steps[a]
                if cell[u]:
                    continue  # the frame, or a given number (a given d comes in by force)
                seen[u] = seen.get(u, 0) + 1
                met.append(u)
                if seen[u] > 1:
                    continue  # met before: taken already, or passed over for good
                if not forcing and (u < start or any(cell[u + s] == d for s in steps)):
                    continue  # it would start the region elsewhere, or touch a given d
                cells.append(u)
                here = len(cells)
                if force(u):
                    if len(cells) == d:
                        yield cells
                    else:
                        yield from grow(i, a)
                undo_forced(here)
                cells.pop()  # (u stays seen: the branches after this one must avoid it)
        for u in met:
            seen[u] -= 1

    if force(start):
        if len(cells) == d:
            yield cells
        else:
            yield from grow(0, -1)


# ---------------------------------------------------------------------------------------------
# The encoding


def encode(puzzle: FillominoPuzzle) -> str:
    """Exactly what FILLOMINO-DLX prints on stdout for ``puzzle``.

    >>> print(encode(read("1.\\n..\\n")), end="")
    | fillomino-dlx:
    | 1.
    | ..
    00 01 10 11 | v111 h111
     00
     11 h111 v111
    """
    board = _Board(puzzle)
    m, n, dmax = puzzle.m, puzzle.n, puzzle.dmax
    cell, pos = board.cell, board.pos
    out = ["| fillomino-dlx:\n"]
    out.extend(f"| {puzzle.row_text(i)}\n" for i in range(m))

    names = {pos(i, j): puzzle.cell_name(i, j) for i in range(m) for j in range(n)}
    out.extend(names[pos(i, j)] + " " for i in range(m) for j in range(n))
    out.append("|")
    # An edge item exists only between two blank cells; the v's come first, then the h's.
    v_edges = [
        (i, j)
        for i in range(m)
        for j in range(1, n)
        if not cell[pos(i, j)] and not cell[pos(i, j - 1)]
    ]
    h_edges = [
        (i, j)
        for i in range(1, m)
        for j in range(n)
        if not cell[pos(i, j)] and not cell[pos(i - 1, j)]
    ]
    for letter, edges in (("v", v_edges), ("h", h_edges)):
        out.extend(
            " " + puzzle.edge_name(letter, i, j, d) for i, j in edges for d in range(1, dmax + 1)
        )
    out.append("\n")

    # His assumption: no region has more than dmax cells, so no larger region has an option.
    w = board.width
    for d in range(1, dmax + 1):
        edge: Callable[[str, int], str] = _edge_namer(puzzle, board, d)
        # The boundary of a blank cell p towards a blank neighbour, in his order N, W, E, S:
        # (neighbour, the item's letter, the position of the cell the edge is named after).
        sides = ((-w, "h", 0), (-1, "v", 0), (1, "v", 1), (w, "h", w))
        for start in (pos(i, j) for i in range(m) for j in range(n)):
            if cell[start] not in (0, d):
                continue  # (what _regions would find at once: only a d or a blank starts one)
            for region in _regions(board, d, start):
                inside = set(region)
                line = [" " + names[p] for p in region]
                for p in region:
                    if cell[p]:
                        continue
                    line.extend(
                        " " + edge(letter, p + at)
                        for step, letter, at in sides
                        if not cell[p + step] and p + step not in inside
                    )
                line.append("\n")
                out.append("".join(line))
    return "".join(out)


def _edge_namer(puzzle: FillominoPuzzle, board: _Board, d: int) -> Callable[[str, int], str]:
    """``edge(letter, p)``: the d-item of the ``letter`` edge of the cell at position p."""
    cache: dict[tuple[str, int], str] = {}

    def edge(letter: str, p: int) -> str:
        key = (letter, p)
        name = cache.get(key)
        if name is None:
            i, j = board.coords(p)
            name = cache[key] = puzzle.edge_name(letter, i, j, d)
        return name

    return edge
