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
from typing import Any

from ..errors import InputError
from ..xcc.model import Problem
from ..xcc.names import MAX_DIGIT, b62, un62
from .spec import Bounded, Codec, FamilySpec, Picture, Policy

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
Answer = dict[str, Any]

#: The two sets of rules a puzzle's exact-cover problem may state (``--rules``): the standard
#: rules (regions of any size, the default for solving), or Knuth's (no region larger than the
#: largest given number: his data, what ``encode`` prints unless told otherwise).
STANDARD, KNUTH = "standard", "knuth"
RULES = (STANDARD, KNUTH)
#: The standard model lists every region of at most this many cells as an option of its own,
#: his way; larger ones are made cell by cell under the sized rule. Fewer listed regions mean
#: fewer variables for SAT to assign in each round of cuts, more mean fewer rounds; measured
#: on the corpus's largest with the sat backend (proving uniqueness, 2026-11-27, 2 cores at
#: load 16-18), seconds for K = 2, 3, 4, 5, 6 -- 790_30x45: over 400, 30.8, 99.1, 152, over
#: 300; 810_32x50 (back to back): K = 3 29.0, K = 4 46.6.
CUTOFF = 3
#: A label d with a given d and fewer than 2d cells that may take it has room for one region
#: of d, the given's: its sized rule has the given as its anchor, and asks for this mode
#: (:attr:`Sized.prefer <dlxsat.xcc.rules.Sized.prefer>`). Measured: see docs/genres/fillomino.md.
LONE_MODE = "eager"
#: A label d with fewer than 3d cells that may take it (and no anchor: above) has room for two
#: regions of d at most: its sized rule asks for this mode, in which the SAT backend puts each
#: region in one of two *slots* (:data:`dlxsat.backends.covering.SLOT_PIECES`) with a counter
#: each. Measured on 286_10x10 (two regions of 36 among 80 cells; load 2-5): 1.5 s and 2
#: rounds, lazy 25-39 s and 4,244 rounds.
FEW_MODE = "eager"
#: A given number g more than twice the given number below it (or :data:`CUTOFF`) and more
#: than this above it begins a gap of sizes with no label but :data:`LARGER` (:func:`bound`).
#: Measured: see docs/genres/fillomino.md.
GAP = 16
#: The color of a cell in a region larger than the bound (:func:`bound`).
LARGER = "+"
#: The standard model's hint to CNF translations (:attr:`Problem.pairwise_at_most
#: <dlxsat.xcc.model.Problem.pairwise_at_most>`): a blank cell has an option per small region
#: holding it and per label, 24-37 on 240_20x36, over the backends' threshold of six, and their
#: "at most one" written with a sequential counter's auxiliary variables doubles the formula's
#: variables (43,598 against 17,221 there), which CaDiCaL assigns and PySAT hands over whole
#: after each of the lazy rules' thousands of calls. Measured with the `sat` backend, the two
#: alternating in one process (2026-11-28, idle): 240_20x36 49 -> 24 s (solver 13.5 -> 2.5 s,
#: fetching the models 13 -> 6 s of it), 330_50x64 16.0-18.7 -> 11.2-11.7 s, 266_9x9
#: 5.6-6.2 -> 3.2 s, 810_32x50 1.2-1.4 -> 0.8-0.9 s, 790_30x45 1.0 -> 1.2 s; 16 published
#: boards of at most 225 cells 488 -> 481 ms in all (32 and 128 as 64 within 10 %).
PAIRWISE_AT_MOST = 64


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
    #: Which rules the exact-cover problem states: :data:`STANDARD` or :data:`KNUTH`.
    rules: str = "standard"
    #: The standard model's bound (0: the default, :func:`bound`): regions up to it have a
    #: label each, larger ones share :data:`LARGER`.
    bound: int = 0
    #: Borders drawn in the puzzle (puz.link's given borders), as midpoints in doubled
    #: coordinates: the two cells beside one lie in different regions.
    walls: frozenset[tuple[int, int]] = frozenset()
    #: Cells holding a ``?``: a number is there, not given (for the rules, a blank cell).
    unknown: frozenset[tuple[int, int]] = frozenset()

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
        if self.rules not in RULES:
            raise InputError(
                f"unknown fillomino rules {self.rules!r} (choose from standard, knuth)"
            )
        if self.bound and self.bound < largest:
            raise InputError(f"the bound {self.bound} is less than the given number {largest}")

    def check_knuth_names(self) -> None:
        """Refuse a board whose names in his construction would pass 8 characters."""
        if self.naming == "decimal":
            longest = len(f"{self.m - 1}.{self.n - 1}v{self.dmax}")
            if longest > MAX_NAME:
                raise InputError(
                    f"a {self.m}x{self.n} board with numbers up to {self.dmax} is too large for "
                    f"Knuth's construction: its item names would exceed {MAX_NAME} characters "
                    "(the standard rules' model has no such limit: --rules standard)"
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
    puzzle.check_knuth_names()
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


# ---------------------------------------------------------------------------------------------
# The standard rules: his options for small regions, labels and the sized rule for the rest


def bound(puzzle: FillominoPuzzle) -> int:
    """The standard model's bound U: every region of at most U cells has a label of its own,
    a given number above U has one too (:func:`labels_above`), and the other regions larger
    than U share :data:`LARGER`. At least :data:`CUTOFF`; the largest given number, unless
    the given numbers above :data:`CUTOFF` leave a *gap*: a number more than twice the one
    below it and more than :data:`GAP` above it (1, 2, 4, 8, 16, 128 -- U = 16, not 128).
    Labels for the sizes in a gap would stand for clueless regions only; :data:`LARGER` does.

    >>> bound(read("1.\\n.9\\n")), bound(read("1.\\n..\\n"))
    (9, 3)
    >>> bound(FillominoPuzzle.from_givens([[5, 8, 40]]))
    8
    """
    if puzzle.bound:
        return puzzle.bound
    top = CUTOFF
    for g in sorted({g for row in puzzle.givens for g in row if g > CUTOFF}):
        if g > 2 * top and g - top > GAP:
            break
        top = g
    return top


def labels_above(puzzle: FillominoPuzzle) -> list[int]:
    """The given numbers above the bound (:func:`bound`), each with a label of its own.

    >>> labels_above(FillominoPuzzle.from_givens([[5, 8, 40], [40, 90, 0]]))
    [40, 90]
    """
    top = bound(puzzle)
    return sorted({g for row in puzzle.givens for g in row if g > top})


def label_color(d: int) -> str:
    """The one-character color of label ``d`` (a region of ``d`` cells): its base-62 digit,
    from 62 on a character from U+00C0 on (DLX colors are one character; dlxsat reads any).

    >>> label_color(5), label_color(61), label_color(62)
    ('5', 'Z', 'À')
    """
    return b62(d) if d <= MAX_DIGIT else chr(0xC0 + d - MAX_DIGIT - 1)


def _label_of(color: str) -> int:
    """:func:`label_color` read back (0 for :data:`LARGER`).

    >>> [_label_of(label_color(d)) for d in (5, 61, 62, 128)], _label_of(LARGER)
    ([5, 61, 62, 128], 0)
    """
    if color == LARGER:
        return 0
    return un62(color) if color.isascii() else ord(color) - 0xC0 + MAX_DIGIT + 1


class _Names:
    """The standard model's item names (doubled coordinates, docs/conventions.md §4): cell
    (i, j) is covered by primary item ``#`` + its point (2i+1, 2j+1), labelled by the
    secondary item of its point; the border between two cells, the midpoint of their points:
    its item of size d is the point, ``/`` and d (``12/3``), its wall item ``=`` and a label
    color (``12=5``)."""

    def __init__(self, puzzle: FillominoPuzzle) -> None:
        from .shading import Names

        self.points = Names(puzzle.m, puzzle.n)

    def cell(self, i: int, j: int) -> str:
        return "#" + self.points.cell(i, j)

    def label(self, i: int, j: int) -> str:
        return self.points.cell(i, j)

    def border(self, a: tuple[int, int], b: tuple[int, int]) -> str:
        return self.points.name(a[0] + b[0] + 1, a[1] + b[1] + 1)


def _crosses(region: Sequence[tuple[int, int]], walls: frozenset[tuple[int, int]]) -> bool:
    """Whether two cells of a region lie either side of a wall."""
    inside = set(region)
    return any(
        (i + p + 1, j + q + 1) in walls
        for i, j in region
        for p, q in ((i + 1, j), (i, j + 1))
        if (p, q) in inside
    )


def build(puzzle: FillominoPuzzle) -> Problem:
    """The exact-cover problem of ``puzzle``'s rules: his data read (:data:`KNUTH`), or the
    standard rules' model (:data:`STANDARD`), built directly.

    **The standard model.** Every region of at most K = :data:`CUTOFF` cells is an option of
    its own, made exactly as his (the feasible d-ominoes of his Algorithm R, d <= K, with his
    items keeping two d-regions apart), under the names of :class:`_Names`. A region of more
    than K cells is made cell by cell: each cell that may lie in one has an option per label d
    = K+1 .. U (U = :func:`bound`) and per given number above U (:func:`labels_above`, the set
    G) -- its primary item and its label item colored d -- and one with the color
    :data:`LARGER` for "more than U". A sized rule per label says that the cells labelled d
    fall into pieces of exactly d cells: this is Fillomino's rule itself, since two regions of
    one size never touch, so the cells of one label that touch are one region. A last sized
    rule gives the :data:`LARGER` pieces at least U+1 cells. A given number g > K has the one
    label g; a blank cell has them all.

    Every cover whose :data:`LARGER` pieces have no size in G is an answer (such a piece is one
    region: no given number lies in it, and none of its neighbours has its size). Every answer
    with no two regions of sizes above U and outside G side by side is a cover, and exactly one
    when no :data:`LARGER` piece of the cover has a size in G (a clueless region of a size in G
    is also the cover with that label). An answer with two such regions side by side has no
    cover, but the cover that joins them has a :data:`LARGER` piece of at least 2U+3 cells
    (two sizes above U). So when no cover found has a :data:`LARGER` piece of 2U+3 cells or
    more or of a size in G, the covers found are answers and all there are; :func:`widen`
    raises the bound when one has.

    Given walls (puz.link's given borders) drop the small regions crossing them, and a cell's
    labels each use the wall's item of that label, so that the two sides never share one.
    """
    if puzzle.rules == KNUTH:
        from ..xcc import parse

        return parse(encode(puzzle), allow_empty=True)
    from ..xcc.rules import Sized
    from .shading import Builder

    m, n, k = puzzle.m, puzzle.n, CUTOFF
    names = _Names(puzzle)
    b = Builder()
    if any(g > m * n for row in puzzle.givens for g in row):
        # A region larger than the board: no answer, which a cell item no option covers says
        # (the labels of such sizes would not even have a color: label_color).
        b.item(names.cell(0, 0))
        return b.problem()
    top = bound(puzzle)
    sizes = [*range(k + 1, top + 1), *labels_above(puzzle)]
    secondary: dict[str, None] = {}
    for i in range(m):
        for j in range(n):
            b.item(names.cell(i, j))
    board = _Board(puzzle)
    cell, coords = board.cell, board.coords
    for d in range(1, k + 1):
        for start in (board.pos(i, j) for i in range(m) for j in range(n)):
            if cell[start] not in (0, d):
                continue
            for found in _regions(board, d, start):
                region = [coords(p) for p in found]
                if puzzle.walls and _crosses(region, puzzle.walls):
                    continue
                inside = set(found)
                line = [names.cell(*c) for c in region]
                for p in found:
                    if cell[p]:
                        continue
                    for step in board.steps:
                        q = p + step
                        if not cell[q] and q not in inside:
                            name = f"{names.border(coords(p), coords(q))}/{b62(d)}"
                            secondary.setdefault(name)
                            line.append(name)
                b.options.append(line)
    # The labels: the cells that may take each, in reading order.
    holders: dict[str, list[tuple[int, int]]] = {}
    for i in range(m):
        for j in range(n):
            g = puzzle.givens[i][j]
            if 0 < g <= k:
                continue
            colors = [label_color(g)] if g else [label_color(d) for d in sizes]
            if not g:
                colors.append(LARGER)
            walls = [
                (a, names.border((i, j), a))
                for a in ((i - 1, j), (i, j - 1), (i, j + 1), (i + 1, j))
                if (i + a[0] + 1, j + a[1] + 1) in puzzle.walls
            ]
            label = names.label(i, j)
            secondary.setdefault(label)
            for color in colors:
                line = [names.cell(i, j), f"{label}:{color}"]
                for _, wall in walls:
                    secondary.setdefault(f"{wall}={color}")
                    line.append(f"{wall}={color}")
                b.options.append(line)
                holders.setdefault(color, []).append((i, j))
    b.secondary = list(secondary)
    problem = b.problem()
    index = problem.index
    rules = []
    for color, cells in holders.items():
        at = {c: x for x, c in enumerate(cells)}
        members = tuple((index[names.label(*c)], color) for c in cells)
        links = tuple(
            (at[c], at[o]) for c in cells for o in ((c[0] + 1, c[1]), (c[0], c[1] + 1)) if o in at
        )
        if color == LARGER:
            rules.append((top + 1, Sized(members, links, top + 1, (), "larger", at_least=True)))
            continue
        d = _label_of(color)
        given = [c for c in cells if puzzle.givens[c[0]][c[1]] == d]
        if given and len(cells) < 2 * d:
            # Room for one region of d only, and a given d lies in it: an anchor.
            anchor = ((at[given[0]], d),)
            rules.append((d, Sized(members, links, None, anchor, f"size-{d}", prefer=LONE_MODE)))
        elif given and len(cells) < 3 * d:
            # Room for two regions of d at most: the backends' slot encoding (eager).
            rules.append((d, Sized(members, links, d, (), f"size-{d}", prefer=FEW_MODE)))
        else:
            rules.append((d, Sized(members, links, d, (), f"size-{d}")))
    rules.sort(key=lambda dr: (dr[1].at_least, dr[0]))
    from dataclasses import replace

    hinted = replace(problem, pairwise_at_most=PAIRWISE_AT_MOST)
    return hinted.with_rules(*(r for _, r in rules))


# ---------------------------------------------------------------------------------------------
# Answers


def _cells_of(puzzle: FillominoPuzzle, problem: Problem) -> dict[str, tuple[int, int]]:
    """Primary item name → its cell, in either model's names."""
    if puzzle.rules == KNUTH:
        return {puzzle.cell_name(i, j): (i, j) for i in range(puzzle.m) for j in range(puzzle.n)}
    names = _Names(puzzle)
    return {names.cell(i, j): (i, j) for i in range(puzzle.m) for j in range(puzzle.n)}


def _pieces(
    puzzle: FillominoPuzzle, problem: Problem, chosen: Sequence[int]
) -> tuple[list[list[tuple[int, int]]], list[list[tuple[int, int]]]]:
    """The regions of a cover: (every region, the :data:`LARGER` ones). A small region is an
    option's cells; the labelled cells make the rest, the touching cells of one label one
    region."""
    cell_of = _cells_of(puzzle, problem)
    n_primary = problem.n_primary
    regions: list[list[tuple[int, int]]] = []
    label: dict[tuple[int, int], str] = {}
    for k in chosen:
        option = problem.options[k]
        cells = [cell_of[problem.items[x].name] for x, _ in option if x < n_primary]
        color = next((c for x, c in option if x >= n_primary and c is not None), None)
        if color is None:
            regions.append(cells)
        else:
            label[cells[0]] = color
    from .shading import blocks

    larger = []
    for color in sorted(set(label.values())):
        for part in blocks([c for c, v in label.items() if v == color]):
            regions.append(part)
            if color == LARGER:
                larger.append(part)
    return regions, larger


def decode(puzzle: FillominoPuzzle, problem: Problem, chosen: Sequence[int]) -> Answer:
    """The answer of a cover: its regions, ``{"regions": [[[i, j], ...], ...]}`` (each
    region's cells sorted, the regions sorted; a cell's number is its region's size)."""
    from .shading import regions_answer

    return regions_answer(_pieces(puzzle, problem, chosen)[0])


def probe(puzzle: FillominoPuzzle, problem: Problem) -> Problem | None:
    """The covers that use :data:`LARGER` (for a count, which keeps no cover to look at): the
    same options, with a primary item ``+`` that each option labelling a cell :data:`LARGER`
    covers, to be covered at least once. None for his data (no such label)."""
    if puzzle.rules == KNUTH:
        return None
    from ..xcc.model import Item

    n = problem.n_primary
    larger = [any(c == LARGER for _, c in o) for o in problem.options]
    if not any(larger):
        return None
    items = [*problem.items[:n], Item(LARGER, True, 1, sum(larger)), *problem.items[n:]]

    def moved(x: int) -> int:
        return x if x < n else x + 1

    options = [
        tuple((moved(x), c) for x, c in o) + (((n, None),) if big else ())
        for o, big in zip(problem.options, larger, strict=True)
    ]
    from dataclasses import replace

    from ..xcc.rules import Sized

    rules = tuple(
        replace(r, members=tuple((moved(x), c) for x, c in r.members))
        for r in problem.rules
        if isinstance(r, Sized)  # (the standard model's only rules)
    )
    return Problem(items, options, rules=rules, pairwise_at_most=problem.pairwise_at_most)


def widen(
    puzzle: FillominoPuzzle, problem: Problem, solutions: Sequence[Sequence[int]]
) -> FillominoPuzzle | None:
    """The puzzle with a larger bound when a cover found has a :data:`LARGER` region of at
    least 2U+3 cells (U the bound; see :func:`build`) -- two regions larger than U side by side
    could make it, so the search did not see every answer -- or of the size of a given number
    above U (:func:`labels_above`: the cover may be no answer, or a second cover of one):
    then a bound of that size, and at least the largest given number (no gap left). None when
    none has: the covers found are all the answers there are."""
    if puzzle.rules == KNUTH:
        return None
    top = bound(puzzle)
    above = set(labels_above(puzzle))
    found = [len(p) for chosen in solutions for p in _pieces(puzzle, problem, chosen)[1]]
    if not any(size >= 2 * top + 3 or size in above for size in found):
        return None
    from dataclasses import replace

    return replace(puzzle, bound=max(max(found), puzzle.dmax))


def _beside(x: int, y: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """The two cells either side of the border at doubled point (x, y)."""
    if y % 2 == 0:
        return (x // 2, (y - 1) // 2), (x // 2, (y + 1) // 2)
    return ((x - 1) // 2, y // 2), ((x + 1) // 2, y // 2)


def numbers(puzzle: FillominoPuzzle, answer: Answer) -> list[list[int]]:
    """The filled board of an answer: each cell its region's size (0 where no region is)."""
    grid = [[0] * puzzle.n for _ in range(puzzle.m)]
    for part in answer.get("regions", []):
        for i, j in part:
            if 0 <= i < puzzle.m and 0 <= j < puzzle.n:
                grid[i][j] = len(part)
    return grid


def check(puzzle: FillominoPuzzle, answer: Answer) -> list[str]:
    """The rules, judged on the answer, in pzprjs's order: a region smaller than a number in
    it, two regions of one number side by side, a region larger than a number in it, a region
    with two numbers, a given wall inside a region, a cell without a number; before them, an
    answer that is no partition of the board.

    An answer of dlxsat's is a partition, each cell's number its region's size; one read from
    a file may also hold the numbers written (``numbers``, 0 where none is), its regions
    formed as pzprjs forms them (:func:`_answer_of_numbers`).

    >>> p = read("2.\\n.1\\n")
    >>> check(p, {"regions": [[[0, 0], [0, 1]], [[1, 0]], [[1, 1]]]})
    ['two regions with the number 1 share the border between cells (2, 1) and (2, 2)']
    >>> check(p, {"regions": [[[0, 0], [0, 1]], [[1, 0], [1, 1]]]})
    ['the region at (2, 1) has 2 cells, more than 1']
    """
    from .loops import cell_name
    from .shading import answer_regions

    m, n = puzzle.m, puzzle.n
    label, parts, out = answer_regions(answer, m, n)
    if out:
        return out
    written = answer.get("numbers")

    def value(i: int, j: int) -> int:
        given = puzzle.givens[i][j]
        if given or not isinstance(written, list):
            return given
        try:
            return int(written[i][j])
        except (IndexError, TypeError, ValueError):
            return 0

    kinds = [sorted({value(i, j) for i, j in cells} - {0}) for cells in parts]
    # A region's number: its one kind of number; its size when it has none written.
    number = [
        (v[0] if len(v) == 1 else None) if v or isinstance(written, list) else len(cells)
        for cells, v in zip(parts, kinds, strict=True)
    ]

    def size(cells: list[tuple[int, int]]) -> str:
        return f"{len(cells)} cell" + ("" if len(cells) == 1 else "s")

    # (A region of two kinds of number has no number to compare its size with: pzprjs's way.)
    for cells, values in zip(parts, kinds, strict=True):
        if len(values) == 1 and values[0] > len(cells):
            where = cell_name(*cells[0])
            out.append(f"the region at {where} has {size(cells)}, fewer than {values[0]}")
    for i in range(m):
        for j in range(n):
            for p, q in ((i, j + 1), (i + 1, j)):
                if p < m and q < n and label[i][j] != label[p][q]:
                    v = number[label[i][j]]
                    if v is not None and v == number[label[p][q]]:
                        out.append(
                            f"two regions with the number {v} share the border between cells "
                            f"{cell_name(i, j)} and {cell_name(p, q)}"
                        )
    for cells, values in zip(parts, kinds, strict=True):
        if len(values) == 1 and values[0] < len(cells):
            where = cell_name(*cells[0])
            out.append(f"the region at {where} has {size(cells)}, more than {values[0]}")
    for cells, values in zip(parts, kinds, strict=True):
        if len(values) > 1:
            listed = ", ".join(map(str, values))
            out.append(f"the region at {cell_name(*cells[0])} holds different numbers ({listed})")
    for x, y in sorted(puzzle.walls):
        a, b = _beside(x, y)
        if label[a[0]][a[1]] == label[b[0]][b[1]]:
            out.append(
                f"the given border between cells {cell_name(*a)} and {cell_name(*b)} lies "
                "inside a region"
            )
    if isinstance(written, list):
        out += [
            f"cell {cell_name(i, j)} has no number"
            for i in range(m)
            for j in range(n)
            if not value(i, j)
        ]
    return out


def render(puzzle: FillominoPuzzle, answer: Answer | None = None) -> str:
    """The board in his form (``.`` blank, ``?`` a number not given, numbers above 9 as his
    letters up to 15, then in decimal separated by spaces), then the answer filled in.

    >>> print(render(read("2.\\n.1\\n"), {"regions": [[[0, 0], [0, 1]], [[1, 0]], [[1, 1]]]}))
    2.
    .1
    <BLANKLINE>
    22
    11
    """

    def rows(grid: Sequence[Sequence[int]], unknown: frozenset[tuple[int, int]]) -> str:
        wide = max(max(r) for r in grid) > MAX_NUMBER
        sep = " " if wide else ""
        return "\n".join(
            sep.join(
                "?" if (i, j) in unknown else (str(v) if wide else DIGITS[v]) if v else BLANK
                for j, v in enumerate(row)
            )
            for i, row in enumerate(grid)
        )

    out = rows(puzzle.givens, puzzle.unknown)
    if answer:
        out += "\n\n" + rows(numbers(puzzle, answer), frozenset())
    return out


def draw(canvas: Any, puzzle: FillominoPuzzle, answer: Answer | None) -> None:
    """The given numbers (bold), the given walls, and the answer: its numbers and regions."""
    from ..drawing import ANSWER
    from .shading import draw_region_answer

    canvas.grid(puzzle.m, puzzle.n)
    filled = numbers(puzzle, answer) if answer else None
    for i in range(puzzle.m):
        for j in range(puzzle.n):
            v = puzzle.givens[i][j]
            if v or (i, j) in puzzle.unknown:
                canvas.text(i, j, str(v) if v else "?", bold=True)
            elif filled and filled[i][j]:
                canvas.text(i, j, str(filled[i][j]), colour=ANSWER)
    if puzzle.walls:
        label = [[i * puzzle.n + j for j in range(puzzle.n)] for i in range(puzzle.m)]
        canvas.walls(_wall_label(puzzle, label))
    draw_region_answer(canvas, puzzle.m, puzzle.n, answer)


def _wall_label(puzzle: FillominoPuzzle, label: list[list[int]]) -> list[list[int]]:
    """Labels that differ exactly across the given walls (the canvas draws walls between
    differing labels): the cells joined where no wall separates them."""
    from .shading import components

    parts = components(
        puzzle.m, puzzle.n, lambda a, b: (a[0] + b[0] + 1, a[1] + b[1] + 1) not in puzzle.walls
    )
    for k, part in enumerate(parts):
        for i, j in part:
            label[i][j] = k
    return label


# ---------------------------------------------------------------------------------------------
# Formats: his (``knuth``), the corpus's grid, puz.link, pzprv3


def write(puzzle: FillominoPuzzle) -> str:
    """His input form of the board (what :func:`read` reads).

    >>> write(read("1.\\n.a\\n"))
    '1.\\n.a\\n'
    """
    if puzzle.dmax > MAX_NUMBER or puzzle.unknown:
        what = "a number above 15" if puzzle.dmax > MAX_NUMBER else "a '?'"
        raise InputError(f"Knuth's form of a fillomino has no {what}: write it as --format grid")
    return "".join(puzzle.row_text(i) + "\n" for i in range(puzzle.m))


def _board(
    rows: Sequence[Sequence[int | None]],
    walls: frozenset[tuple[int, int]] = frozenset(),
) -> FillominoPuzzle:
    """A board from rows of numbers, 0 blank, None a ``?``."""
    givens = [[v or 0 for v in row] for row in rows]
    unknown = frozenset(
        (i, j) for i, row in enumerate(rows) for j, v in enumerate(row) if v is None
    )
    puzzle = FillominoPuzzle.from_givens(givens)
    from dataclasses import replace

    return replace(puzzle, walls=walls, unknown=unknown)


def _grid_number(token: str, where: str) -> int | None:
    """A token of the corpus's grid: a number from 1, ``-`` (or ``.``) blank, ``?``."""
    if token in ("-", "."):
        return 0
    if token == "?":
        return None
    if token.isascii() and token.isdigit() and int(token) > 0:
        return int(token)
    raise InputError(f"{where}: {token!r} is not a number from 1, - or ?")


def read_grid(text: str) -> FillominoPuzzle:
    """The corpus's problem text: ``ROWS COLS``, then rows of tokens (``-`` blank -- ``.``
    too, as one corpus puzzle writes it -- a number, ``?``).

    >>> read_grid("2 3\\n2 - -\\n- ? 12\\n").givens
    ((2, 0, 0), (0, 0, 12))
    """
    from .regions import read_grids

    _, _, (rows,) = read_grids(text, 1, "fillomino")
    return _board(
        [
            [_grid_number(t, f"row {i + 1}, cell {j + 1}") for j, t in enumerate(row)]
            for i, row in enumerate(rows)
        ]
    )


def _tokens(puzzle: FillominoPuzzle) -> list[list[str]]:
    return [
        ["?" if (i, j) in puzzle.unknown else str(v) if v else "-" for j, v in enumerate(row)]
        for i, row in enumerate(puzzle.givens)
    ]


def write_grid(puzzle: FillominoPuzzle, answer: Answer | None = None) -> str:
    """The corpus's problem text, or with ``answer`` its answer grid (each cell its region's
    size)."""
    rows = _tokens(puzzle) if answer is None else numbers(puzzle, answer)
    return f"{puzzle.m} {puzzle.n}\n" + "".join(" ".join(map(str, r)) + "\n" for r in rows)


def _answer_of_numbers(
    puzzle: FillominoPuzzle, grid: Sequence[Sequence[int]], borders: frozenset[tuple[int, int]]
) -> Answer:
    """The answer a board of numbers (0 empty) and drawn borders stand for, read as pzprjs
    reads it: neighbouring cells are one region unless a border (given or drawn) parts them
    or they hold two different numbers; the numbers ride along (``numbers``) when they are not
    simply the regions' sizes, for the checker to judge."""
    from .shading import components, regions_answer

    walls = puzzle.walls | borders

    def same(a: tuple[int, int], b: tuple[int, int]) -> bool:
        if (a[0] + b[0] + 1, a[1] + b[1] + 1) in walls:
            return False
        x, y = grid[a[0]][a[1]], grid[b[0]][b[1]]
        return x == y or not x or not y

    parts = components(puzzle.m, puzzle.n, same)
    out = regions_answer(parts)
    if any(grid[i][j] != len(part) for part in parts for i, j in part):
        out["numbers"] = [list(row) for row in grid]
    return out


def grid_answer(puzzle: FillominoPuzzle, text: str) -> Answer:
    """The answer of the corpus's answer grid (each cell its region's size)."""
    from .regions import answer_rows

    rows = answer_rows(text, puzzle.m, puzzle.n)
    grid = [
        [_grid_number(t, f"answer row {i + 1}") or 0 for t in row] for i, row in enumerate(rows)
    ]
    return _answer_of_numbers(puzzle, grid, frozenset())


def read_url(text: str) -> FillominoPuzzle:
    """A puz.link URL: the numbers (``decodeNumber16``), then the given borders, if any.

    >>> read_url("https://puzz.link/p?fillomino/3/1/2h").givens
    ((2, 0, 0),)
    """
    from .codecs import BLANK as NONE
    from .codecs import QUESTION, decode_border, decode_number16, url_of

    flags, cols, rows, body = url_of(NAME, text)
    if flags:
        raise InputError(f"the puz.link URL's flags {flags!r} ask for a variant dlxsat lacks")
    values, rest = decode_number16(body, cols * rows)
    walls: frozenset[tuple[int, int]] = frozenset()
    if rest:
        vert, horiz, _ = decode_border(rest, cols, rows)
        walls = _walls_of(rows, cols, vert, horiz)
    grid = [
        [
            None if v == QUESTION else 0 if v == NONE else v
            for v in values[i * cols : (i + 1) * cols]
        ]
        for i in range(rows)
    ]
    if any(v is not None and v < 0 for row in grid for v in row) or any(0 == v for v in values):
        raise InputError("the puz.link URL has a number below 1")
    return _board(grid, walls)


def _walls_of(
    rows: int, cols: int, vert: Sequence[int], horiz: Sequence[int]
) -> frozenset[tuple[int, int]]:
    """Given borders from pzprjs's two lists (between horizontal neighbours, then vertical)."""
    out = {
        (2 * i + 1, 2 * j + 2)
        for i in range(rows)
        for j in range(cols - 1)
        if vert[i * (cols - 1) + j]
    }
    out |= {
        (2 * i + 2, 2 * j + 1) for i in range(rows - 1) for j in range(cols) if horiz[i * cols + j]
    }
    return frozenset(out)


def _wall_lists(puzzle: FillominoPuzzle) -> tuple[list[int], list[int]]:
    m, n, w = puzzle.m, puzzle.n, puzzle.walls
    vert = [int((2 * i + 1, 2 * j + 2) in w) for i in range(m) for j in range(n - 1)]
    horiz = [int((2 * i + 2, 2 * j + 1) in w) for i in range(m - 1) for j in range(n)]
    return vert, horiz


def write_url(puzzle: FillominoPuzzle, answer: Answer | None = None) -> str:
    """The puz.link URL, as pzprjs writes it (the borders only when some is given).

    >>> write_url(read("2..\\n"))
    'https://puzz.link/p?fillomino/3/1/2h\\n'
    """
    from .codecs import BLANK as NONE
    from .codecs import QUESTION, encode_border, encode_number16, make_url

    values = [
        QUESTION if (i, j) in puzzle.unknown else v or NONE
        for i, row in enumerate(puzzle.givens)
        for j, v in enumerate(row)
    ]
    body = encode_number16(values)
    if puzzle.walls:
        body += encode_border(*_wall_lists(puzzle))
    return make_url(NAME, puzzle.n, puzzle.m, body)


def _parse_pzprv3(text: str) -> tuple[FillominoPuzzle, Answer | None]:
    """The puzzle of a pzprv3 file and the answer it holds (None: no number written, no
    border drawn)."""
    from .codecs import block, read_pzprv3

    rows, cols, lines = read_pzprv3(text, NAME)
    if lines and lines[0].strip() == "t":
        raise InputError("the pzprv3 file asks for the 'regions of at most 3' variant (t)")
    start = 1 if lines and not lines[0].strip() else 0
    clues = block(lines, start, rows, cols, "numbers")
    written = block(lines, start + rows, rows, cols, "answer numbers")
    across = block(lines, start + 2 * rows, rows, cols - 1, "vertical borders")
    down = block(lines, start + 3 * rows, rows - 1, cols, "horizontal borders")

    def number(token: str, where: str) -> int | None:
        if token == ".":
            return 0
        if token == "-":
            return None
        if token.isascii() and token.isdigit() and int(token) > 0:
            return int(token)
        raise InputError(f"the pzprv3 file's {where}: {token!r} is not a number, . or -")

    grid = [[number(t, "numbers") for t in row] for row in clues]
    given: set[tuple[int, int]] = set()
    drawn: set[tuple[int, int]] = set()
    for table, dx, dy in ((across, 1, 2), (down, 2, 1)):
        for i, row in enumerate(table):
            for j, t in enumerate(row):
                at = (2 * i + dx, 2 * j + dy)  # the border right of, or below, cell (i, j)
                if t in ("X", "-X"):
                    given.add(at)
                elif t in ("1", "2"):
                    drawn.add(at)
                elif t not in ("0", "-1"):
                    raise InputError(f"the pzprv3 file's borders: {t!r} is not a border")
    puzzle = _board(grid, frozenset(given))
    # A written number may carry a player's candidates ("4[1,,3,]") or be a cell color mark.
    values = [
        [int(t.split("[")[0]) if t.split("[")[0].isdigit() else 0 for t in row] for row in written
    ]
    if not drawn and not any(map(any, values)):
        return puzzle, None
    full = [[puzzle.givens[i][j] or values[i][j] for j in range(cols)] for i in range(rows)]
    return puzzle, _answer_of_numbers(puzzle, full, frozenset(drawn))


def read_file(text: str) -> FillominoPuzzle:
    return _parse_pzprv3(text)[0]


def file_answer(puzzle: FillominoPuzzle | None, text: str) -> Answer | None:
    """The answer a pzprv3 file holds (None: none); with ``puzzle``, the file must hold it."""
    held, answer = _parse_pzprv3(text)
    if puzzle is not None and (held.givens, held.walls, held.unknown) != (
        puzzle.givens,
        puzzle.walls,
        puzzle.unknown,
    ):
        raise InputError(f"the pzprv3 file holds another {NAME} than the puzzle given")
    return answer


def write_file(puzzle: FillominoPuzzle, answer: Answer | None = None) -> str:
    """The pzprv3 file as pzprjs writes it: the numbers, the answer's numbers (``.`` on a
    given one), then the borders (``X`` given, ``1`` between two regions of the answer)."""
    from .codecs import write_block
    from .shading import answer_borders

    m, n = puzzle.m, puzzle.n
    filled = numbers(puzzle, answer) if answer else [[0] * n for _ in range(m)]
    lines = ["pzprv3", NAME, str(m), str(n)]
    lines += write_block(
        [["-" if t == "?" else "." if t == "-" else t for t in row] for row in _tokens(puzzle)]
    )
    lines += write_block(
        [
            [
                "." if puzzle.givens[i][j] or not filled[i][j] else str(filled[i][j])
                for j in range(n)
            ]
            for i in range(m)
        ]
    )
    drawn = answer_borders(m, n, answer)

    def border(x: int, y: int) -> str:
        return "X" if (x, y) in puzzle.walls else "1" if (x, y) in drawn else "0"

    lines += write_block([[border(2 * i + 1, 2 * j + 2) for j in range(n - 1)] for i in range(m)])
    lines += write_block([[border(2 * i + 2, 2 * j + 1) for j in range(n)] for i in range(m - 1)])
    return "\n".join(lines) + "\n"


def looks_like_grid(text: str) -> bool:
    """Whether a text is the corpus's grid (a ``ROWS COLS`` line) rather than his form."""
    first = text.lstrip().split("\n", 1)[0].split()
    return len(first) == 2 and all(t.isdigit() for t in first)


def encode_data(puzzle: FillominoPuzzle) -> str:
    """The exact-cover data of ``puzzle``'s rules: his bytes (:data:`KNUTH`, :func:`encode`),
    or the standard model (:func:`build`) in his format with its sized rules as ``|@`` lines."""
    if puzzle.rules == KNUTH:
        return encode(puzzle)
    from .shading import Builder

    heading = [
        f"fillomino (standard rules: regions of at most {CUTOFF} cells listed, larger ones by "
        f"label up to {bound(puzzle)}{''.join(f', {d}' for d in labels_above(puzzle))}, "
        f"'{LARGER}' above):",
        *render(puzzle).splitlines(),
    ]
    return Builder.text(heading, build(puzzle))


def problem_of(puzzle: FillominoPuzzle, text: str) -> Problem:
    """The problem of the data ``text`` (either model's: both state their rules)."""
    from ..xcc import parse

    return parse(text, allow_empty=True)


def prepare(
    puzzles: list[FillominoPuzzle], policy: Policy
) -> tuple[list[FillominoPuzzle], list[str]]:
    """The puzzles under the rules ``policy`` names (``--rules``)."""
    from dataclasses import replace

    if policy.loop:
        raise InputError("--loop is for xcc data; a fillomino puzzle has its own rules")
    if policy.boxes is not None:
        raise InputError("--boxes is for sudoku; a fillomino puzzle has no boxes")
    if policy.rules is None:
        return puzzles, []
    if policy.rules not in RULES:
        raise InputError(f"unknown fillomino rules {policy.rules!r} (choose from standard, knuth)")
    return [replace(p, rules=policy.rules) for p in puzzles], []


NAME = "fillomino"

SPEC = FamilySpec(
    name=NAME,
    summary="Fillomino: regions of every size, each cell holding its region's size",
    aliases=("fillomino01",),
    rules=("sized",),
    variants=RULES,
    data_variant=KNUTH,
    read=read,
    write=write,
    encode=encode_data,
    decode=decode,
    check=check,
    render=render,
    build=build,
    problem_of=problem_of,
    bounded=Bounded(probe, widen),
    prepare_puzzles=prepare,
    bytes_per_cell=2000,
    # The sized rule is where SAT's cuts shine and DLX's pruning does not (janko-141_9x9: dlx
    # 16.4 s, sat 0.72 s, cpsat 4.8 s; auto, its DLX trial first, 1.2 s): sat by default.
    default_backend="sat",
    formats=("knuth", "puzzlink", "pzprv3", "grid"),
    writes=("knuth", "puzzlink", "pzprv3", "grid"),
    answers=("pzprv3", "grid"),
    codecs={
        "puzzlink": Codec(read=read_url, write=write_url, names=(NAME, "fillomino01")),
        "pzprv3": Codec(read=read_file, write=write_file, answer=file_answer, names=(NAME,)),
        "grid": Codec(
            read=read_grid, write=write_grid, answer=grid_answer, looks_like=looks_like_grid
        ),
    },
    picture=Picture(lambda p: (p.m, p.n), draw),
    example="puzzles/fillomino/janko-141_9x9.txt",
)
