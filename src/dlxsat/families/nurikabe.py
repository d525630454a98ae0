"""Nurikabe: islands of white cells around the numbers, in one connected sea.

**Rules.** Shade some cells. The numbers are never shaded. Every island (an orthogonally
connected piece of white cells) holds exactly one number, and has that many cells; a ``?`` is a
number of unknown value (its island may have any size, but it counts as the island's number).
The shaded cells (the sea) are orthogonally connected, and no 2 x 2 block is all shaded.

**The puzzle's text** (the corpus's notation, ``SmilingWayne/puzzlekit-dataset``): a line
``ROWS COLS``, then ROWS rows of tokens, ``-`` an empty cell, a number, ``?``::

    3 3
    1 - -
    - - -
    - 5 -

**The exact-cover problem**, in Knuth's style (names of
:class:`~dlxsat.families.shading.Names`: cell (i, j) is the point (2i+1, 2j+1), a grid point
(i, j) is (2i, 2j), a border the midpoint of its two cells):

- a secondary item per cell, its *state*, ``13``, coloured ``0`` (white) or ``1`` (shaded),
  for the rules and the options to read; and a primary item per cell, ``p13``, covered once:
  by the cell's *shaded* option ``p13 13:1 ...``, or by an option that makes it white;
- a primary item per 2 x 2 block without a number, named by its centre point (``22``), covered
  by the shaded options of its cells at most three times (``0:3|22``): no block is all
  shaded, exactly (a block holding a number is never all shaded and has no item);
- without a ``?``, when the numbers leave at most a tenth of the board to shade
  (:data:`SMALL_SEA`) or the board's cells times the shaded ones are few
  (:data:`SEA_COUNT_ENTRIES`), a primary item ``sea`` that the shaded options cover at most that
  many times (``0:10|sea``): the sea has no more cells than the numbers leave;
- a primary item per number, ``n`` and its cell's name. Optionally (:data:`PLACEMENTS`, off by
  default), a number whose islands are few (at most that many connected sets of its size
  holding it, within the cells it may own, see below) has an option per island, covering its
  item once: ``n13 p13 p15 13:0 15:0 11:1 17:1 ...``, its cells' items, their states white
  and the states of the cells around it shaded.
  So the island is whole and of its size, it touches no other island, and nothing in the
  options needs the global rules for it;
- every other number (all of them by default; the corpus has numbers up to 994) owns its cells
  one by one: an option per cell it may own, ``p15 15:0 n13 14:2 ...``, its item ``n13`` covered
  exactly its number of times (``5|n13``; a ``?`` from 1 to the most cells it may have). Two
  neighbouring white cells must have one owner: each border between cells two such numbers may
  own is a secondary item (named by its midpoint) that the owner colours with its digit
  (base 62) among the border's possible owners, so two owners clash. The numbers above
  :data:`SHARED` (20) are one owner, uncounted: the islands' rule gives each its size;
  but one that may own at most :data:`CROWDED` (1.5) times its value of cells, its island
  nearly forced, is counted as the small ones are;
- two global rules (:mod:`dlxsat.xcc.rules`), over the cells' states with their orthogonal
  neighbours as links (``|@links grid``): ``|@connected sea`` over the cells coloured ``1``
  (:class:`~dlxsat.xcc.rules.Connected`: the sea is one piece), and ``|@sized islands`` over
  the cells coloured ``0`` with the numbers as *anchors* (:class:`~dlxsat.xcc.rules.Sized`:
  every island holds exactly one anchor and has the anchor's size). The islands of the few
  numbers are exact in the options already; the rule keeps the large numbers' owned cells in
  one piece around their number, and refuses an island of no number. Each counted number's
  item is its anchor's *owner* (``|@owners 13 n13 ...``, :attr:`Sized.owners
  <dlxsat.xcc.rules.Sized.owners>`): the cells it owns are its island, so SAT and CP-SAT
  join them around it in the formula by a distance labelling within its value
  (:class:`~dlxsat.backends.covering.Reach`), where the cuts joined them round after round.
  A number above :data:`SHARED` is counted when that labelling is small (:data:`REACH`) and
  its cells are little contested (:data:`CONTESTED`).

A ``?`` cannot be an anchor of one size, so each option of its own cell comes in one copy per
size its island may have, ``... 13q5`` for 5 cells, ``13q5`` a secondary item of that option
alone. The islands' rule takes these items as the ``?``'s members (present when covered) in
place of its state, each an anchor of its size and linked to the cell's neighbours: exactly
one is present, so the ``?`` anchors its island whatever its size.

One deduction shrinks the problem before any search, without changing its answers: a white cell
lies in the island of some number n, within n - 1 steps of it through cells that are no number
and touch no other number (a cell beside two numbers would join their islands). A cell no number
reaches that way gets only its shaded option, and a number owns only the cells it reaches
(:func:`owners`).

A second one, by the plane's topology, when the sea's size is known (no ``?``): of two
numbers side by side on a diagonal, one island is enclosed by the sea (a path of shaded cells
between their two shared neighbours, closed through the corner they share, goes round it), so
it touches no border cell and its bounding box of ``w`` x ``h`` cells costs the sea at least
``2 (w + h) + 3`` cells. When one of the two cannot be enclosed so (or lies on the border),
the other is, and owns only cells of the boxes that can (:func:`enclosures`): a number beside
a number of the border on a diagonal never reaches the border. On the corpus's ``29_10x10`` (a
37 and a 36 on a diagonal, a sea of 27) it leaves the 36 the 49 cells of the four 6 x 6 boxes
off the border that hold it: SAT proves the answer unique in 4 s, where without it no engine
found an answer in minutes (docs/genres/nurikabe.md).

Measured (2026-11-27, 2 cores at load 9-17, SAT backend, lazy rules): on the corpus's 31 x 45
``229`` a cell-by-cell encoding (white or shaded, the sized rule alone) took 44 s; owners
for every number 16 s; islands as options for the few numbers and owners for the rest 42-61 s
with 29 rounds of cuts (its formula alone, without the global rules, 3.5 s); at load 9, owners
for every number 6 s, islands as options 13 s: hence owners. The block items
covered by white options at least once (``1:4|22``) made SAT's formula five times larger
(cardinality constraints over every island option on the block): covered by shaded options at
most three times they are one clause each.

**Formats.** puz.link ``nurikabe/COLS/ROWS/BODY``: the numbers
(:func:`~dlxsat.families.codecs.decode_number16`, ``.`` a ``?``). pzprv3: one block, a number,
``-`` a ``?``, ``#`` a shaded cell, ``+`` a cell a player marked white, ``.`` nothing. The answer
grid is the corpus's: ``x`` shaded, ``-`` white.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import InputError
from ..xcc.model import Problem
from ..xcc.rules import Connected, Sized
from . import regions as rg
from . import shading as sh
from .base import Puzzle
from .codecs import (
    BLANK,
    QUESTION,
    block,
    decode_number16,
    encode_number16,
    make_url,
    read_pzprv3,
    url_of,
    write_block,
)
from .loops import cell_name
from .spec import Codec, FamilySpec, Picture

Answer = dict[str, Any]
Cell = tuple[int, int]
NAME = TYPE = "nurikabe"
#: The colours of a cell's state item: white, shaded.
WHITE_COLOUR, SHADED_COLOUR = "0", "1"


@dataclass(frozen=True)
class NurikabePuzzle(Puzzle):
    """A Nurikabe board: ``cells[i][j]`` is :data:`~dlxsat.families.codecs.BLANK`, a number
    (at least 1) or :data:`~dlxsat.families.codecs.QUESTION`."""

    cells: tuple[tuple[int, ...], ...]

    @property
    def m(self) -> int:
        return len(self.cells)

    @property
    def n(self) -> int:
        return len(self.cells[0])

    def clues(self) -> dict[Cell, int]:
        """Every number's cell → its value (QUESTION for a ``?``), in reading order."""
        return {
            (i, j): v for i, row in enumerate(self.cells) for j, v in enumerate(row) if v != BLANK
        }


def _puzzle(rows: list[list[int]], where: str) -> NurikabePuzzle:
    for i, row in enumerate(rows):
        for j, v in enumerate(row):
            if v == 0:
                raise InputError(
                    f"{where}cell {cell_name(i, j)}: a number 0 (an island has at least one cell)"
                )
    return NurikabePuzzle(tuple(tuple(row) for row in rows))


def read(text: str) -> NurikabePuzzle:
    """The puzzle of the corpus's text.

    >>> read("2 3\\n1 - ?\\n- 12 -\\n").cells
    ((1, -1, -2), (-1, 12, -1))
    """
    _, _, (rows,) = rg.read_grids(text, 1, "nurikabe")
    values = [
        [rg.read_number(tok, f"row {i + 1}, cell {j + 1}") for j, tok in enumerate(row)]
        for i, row in enumerate(rows)
    ]
    return _puzzle(values, "")


def write(puzzle: NurikabePuzzle) -> str:
    """The corpus's text of the puzzle."""
    rows = [" ".join(rg.write_number(v) for v in row) for row in puzzle.cells]
    return f"{puzzle.m} {puzzle.n}\n" + "".join(r + "\n" for r in rows)


# ---------------------------------------------------------------------------------------------
# The exact-cover problem


def owners(puzzle: NurikabePuzzle) -> dict[Cell, list[Cell]]:
    """Every cell that may be white → the numbers (their cells, in reading order) whose island
    may hold it (the module doc's deduction); a cell missing cannot be white. A number's own
    cell has itself alone.

    >>> owners(read("1 4\\n2 - - 1\\n"))
    {(0, 0): [(0, 0)], (0, 3): [(0, 3)], (0, 1): [(0, 0)]}
    """
    m, n = puzzle.m, puzzle.n
    clues = puzzle.clues()
    beside: dict[Cell, set[Cell]] = {}  # a cell → the numbers next to it
    for c in clues:
        for d in sh.neighbours(m, n, *c):
            beside.setdefault(d, set()).add(c)
    out: dict[Cell, list[Cell]] = {c: [c] for c in clues}
    inside = enclosures(puzzle)
    for c, v in clues.items():
        size = question_bound(puzzle) if v == QUESTION else v
        seen = {c}
        todo = deque([(c, 1)])
        while todo:
            here, depth = todo.popleft()
            if depth >= size:
                continue
            for d in sh.neighbours(m, n, *here):
                if d in seen or d in clues or (c in inside and d not in inside[c]):
                    continue
                seen.add(d)
                # A cell beside another number would join that number's island.
                if beside.get(d, set()) - {c}:
                    continue
                out.setdefault(d, []).append(c)
                todo.append((d, depth + 1))
    for d in out:
        out[d].sort()
    return out


def enclosures(puzzle: NurikabePuzzle) -> dict[Cell, frozenset[Cell]]:
    """The numbers whose island the sea must enclose → the cells that island may hold (the
    module doc's second deduction); empty when the board has a ``?`` (the sea's size is then
    not known).

    Two numbers ``a`` and ``b`` side by side on a diagonal share two neighbours, both shaded
    (white, either would join the two islands). The sea is one piece, so a path of shaded cells
    joins those two; closed by the diagonal step between them, through the corner that ``a``
    and ``b`` share, it is a closed curve that the segment from ``a`` to ``b`` crosses once
    (Jordan), and that no step between two white neighbours crosses. So one of the two islands
    lies inside the curve: it touches no border cell, and as the curve has shaded cells on every
    side of it, beyond the island's bounding box of ``w`` columns and ``h`` rows, the path has
    at least ``2 (w + h) + 3`` cells (the curve's steps cover its width and height twice, the
    diagonal step one of each). When no box of at least ``a``'s number of cells off the border
    has ``2 (w + h) + 3`` cells at most the sea's size, ``a`` cannot be the one inside: ``b``
    is, and its island lies in a box that can (a box holding ``b``, off the border, of at least
    ``b``'s number of cells, ``2 (w + h) + 3`` at most the sea). The island may hold only the
    cells of such boxes. A number on the border is never inside: the number beside it on a
    diagonal is, whatever the sea's size.

    A 6 x 6 board whose 11 shaded cells must ring the 4 around its middle (the 21 cannot be
    enclosed: no box off the border holds 21 cells):

    >>> puzzle = read("6 6\\n- - - - - -\\n- 21 - - - -\\n- - 4 - - -\\n"
    ...               "- - - - - -\\n- - - - - -\\n- - - - - -\\n")
    >>> sorted(enclosures(puzzle)[(2, 2)])
    [(1, 1), (1, 2), (1, 3), (2, 1), (2, 2), (2, 3), (3, 1), (3, 2), (3, 3)]
    """
    m, n = puzzle.m, puzzle.n
    clues = puzzle.clues()
    if QUESTION in clues.values():
        return {}
    sea = m * n - sum(clues.values())

    def widest(k: int, h: int) -> int:
        """The most columns of a box of ``h`` rows off the border, of at least ``k`` cells,
        that a sea of ``sea`` cells can ring (``2 (w + h) + 3`` cells at most); 0 if none."""
        w = min(n - 2, (sea - 3) // 2 - h)
        return w if w >= 1 and h * w >= k else 0

    def off_border(c: Cell) -> bool:
        return 0 < c[0] < m - 1 and 0 < c[1] < n - 1

    def room(c: Cell) -> set[Cell]:
        """The cells of the boxes that may hold the island of the number at ``c`` enclosed:
        off the border, holding ``c``, of at least its value of cells, and ringed by the sea.
        The boxes of ``h`` rows that hold ``c`` cover a rectangle, the wider the more columns
        they have, so the widest stands for them all."""
        (i, j), k = c, clues[c]
        cells: set[Cell] = set()
        if not off_border(c):
            return cells
        for h in range(1, m - 1):
            w = widest(k, h)
            if w:
                cells.update(
                    (x, y)
                    for x in range(max(1, i - h + 1), min(m - 2, i + h - 1) + 1)
                    for y in range(max(1, j - w + 1), min(n - 2, j + w - 1) + 1)
                )
        return cells

    out: dict[Cell, set[Cell]] = {}
    for i, j in clues:
        for dj in (1, -1):
            other = (i + 1, j + dj)
            if other not in clues or (i + 1, j) in clues or (i, j + dj) in clues:
                continue
            for a, b in (((i, j), other), (other, (i, j))):
                if not (off_border(a) and any(widest(clues[a], h) for h in range(1, m - 1))):
                    # ``a`` cannot be the one inside, so ``b`` is (when ``b`` cannot be
                    # either there is no answer, and ``b`` keeps its own cell alone).
                    out[b] = room(b)
    return {c: frozenset(cells | {c}) for c, cells in out.items()}


def question_bound(puzzle: NurikabePuzzle) -> int:
    """The most cells a ``?``'s island can have: the board less the other numbers' islands
    and the other ``?``s, one cell each.

    >>> question_bound(read("2 3\\n? - 2\\n- - ?\\n"))
    3
    """
    clues = puzzle.clues().values()
    known = sum(v for v in clues if v != QUESTION)
    unknown = sum(v == QUESTION for v in clues)
    return max(1, puzzle.m * puzzle.n - known - (unknown - 1))


#: A number whose island has at most this many placements gets an option per placement;
#: above, an option per cell it may own (see the module doc). Off (0): owners for every number
#: were measured faster with SAT (6 s against 13 s with 2000, on the corpus's 229_31x45).
PLACEMENTS = 0
#: A number above this owns its cells without counting them: the islands' rule alone
#: gives it its size (a count of 50 among a thousand cells is a large cardinality
#: constraint for SAT).
COUNTED = 10**9  # every number counted: without counts above 20, 222 rounds of cuts

#: The numbers above this own their cells under one shared owner, uncounted: a cell that only
#: such numbers may own has one white option, not one per number, and the islands' sized
#: rule alone gives each its size and keeps two of them apart (two anchors in a piece).
#: Counting a large number over its hundreds of candidate cells is what makes the first SAT
#: call slow: on 690_50x50 (numbers 47-70) CaDiCaL alone took 84 s for a first model of the
#: formula without the global rules (261,127 variables), 0.45 s with 20 here (78,693). On
#: the 39 corpus puzzles over 15 s before (2026-11-27, SAT, lazy islands, load 9-11): 8
#: within 15 s with 20, 2 without. A single large number pays for sharing (1102_15x21, one
#: 61: unique in 0.09 s counted, over 120 s shared), but counting the lone one was measured
#: and not kept: on the 35 corpus puzzles with exactly one number above 20 (15 s each, idle,
#: 2026-11-27) 28 came back unique and equal against 29 shared (460_20x36, 86_14x24 and
#: 94_20x36 lost, 1102_15x21 and 719_15x15 won).
SHARED = 20
#: ... except a number whose island is nearly forced: one that may own at most CROWDED times its
#: value of cells (itself included) is counted as the small ones are, its count then propagating at
#: once what the cuts find round after round. Chosen by candidate cells as the last session
#: suggested; measured on the 51 corpus puzzles with a number above 20 (12 s each, the default
#: backend, both variants side by side at load 3-5, 2026-11-27): counting those with at most 120
#: candidates won 629_17x17 (7.7 s -> 0.8), 669_14x24 (over 12 s -> 1.0), 719_15x15 (over -> 0.1),
#: 1102_15x21 (over -> 0.4) and 1104_15x24 (2.9 -> 0.4) but lost 510_20x36 and 943_10x10 (10-11 s
#: -> over 12 s) and slowed 506_10x18 (0.4 -> 4.4 s) and 725_12x21 (1.5 -> 8.2 s): 35 within the
#: limit either way. The four wins of a ratio of at most 1.5 (669's 64 and 32 at 1.3 and 1.3, 719's
#: 46 at 1.2, 1102's 61 at 1.0) change no loser of that run (943's 26 is at 2.5, 725's 22 at 2.2,
#: 510's 23 at 4.2, 506's 21 at 4.9).
CROWDED = 1.5
#: A number counted for CROWDED has at most this many candidate cells: counting 1030_32x32's
#: 994 over its 1,019 (65,293 variables against 15,593 shared) took 57 s against 20-28 s
#: shared (with its small sea counted, below).
CROWDED_CELLS = 200
#: Without a ``?`` the shaded cells number exactly the board's cells less the numbers' values. When
#: that is at most a tenth of the board, an item ``sea`` covered by the shaded options at most that
#: many times says so (a cardinality constraint of size board x shaded, small then). The corpus has
#: one such board, 1030_32x32 (a 994 and a 20, ten shaded cells): with it and the 994 shared,
#: unique in 20-28 s; the 994 counted, 57 s with it and over 60 s without; shared without it, over
#: 15 s (the default backend, SAT after DLX's trial, load 5.8-6.7, 2026-11-27). On boards with
#: larger seas (29_10x10, 753_10x10, 756_15x15, 950_13x13, 687_17x17 ...: 30 s each, load 6-7) it
#: won nothing.
SMALL_SEA = 10
#: ... or when the board's cells times its shaded cells are at most this many, the sea's count a
#: small constraint whatever its share of the board. Since the numbers' cells are joined by their
#: distance labelling (REACH), it settles 753_10x10 (an 8, a 30, a 28 and a 15; 19 shaded cells):
#: unique in 24-26 s, where no answer came within 120 s without it. On the 122 corpus puzzles it
#: adds the item to (every board of at most 40 cells with shaded ones, 10 x 10s with up to 40),
#: each solved twice either way interleaved in one process (2026-11-27, idle): the other 121 took
#: 30.7 s in all either way (29_10x10 its 30 s limit both ways, the other 120 0.7 s in all).
SEA_COUNT_ENTRIES = 4000
#: ... and except a number whose distance labelling is small: one with at most this many
#: labels (:func:`reach_cost`) is counted, its cells owned one by one, and every counted
#: number's item is its anchor's owner in the islands' rule (:attr:`Sized.owners
#: <dlxsat.xcc.rules.Sized.owners>`), so that SAT and CP-SAT join its cells around it in the
#: formula, within its value less one steps (:class:`dlxsat.backends.covering.Reach`), where
#: the cuts joined them round after round. Measured: see docs/genres/nurikabe.md.
REACH = 12000
#: ... and whose cells may have at most this many owners on average (:func:`contest`): a
#: number's cells that many others may own multiply the white options and the borders' digits
#: when it is counted (see REACH).
CONTESTED = 5.0
#: The shared owner's name among the owners (no cell).
BIG: Cell = (-1, -1)


def reach_cost(puzzle: NurikabePuzzle, c: Cell, region: set[Cell]) -> int:
    """The labels of the number at ``c``'s distance labelling over ``region`` (the cells it
    may own): for each cell at d steps from it within the region, its value less d.

    >>> p = read("1 4\\n3 - - 1\\n")
    >>> reach_cost(p, (0, 0), {(0, 1), (0, 2)})
    6
    """
    v = puzzle.cells[c[0]][c[1]]
    depth = {c: 0}
    queue = [c]
    for x in queue:
        for y in sh.neighbours(puzzle.m, puzzle.n, *x):
            if y in region and y not in depth:
                depth[y] = depth[x] + 1
                queue.append(y)
    return sum(max(0, v - d) for d in depth.values())


def contest(may: dict[Cell, list[Cell]], region: set[Cell]) -> float:
    """The mean number of possible owners of the cells of ``region`` (``may``: :func:`owners`).

    >>> p = read("1 4\\n3 - - 2\\n")
    >>> contest(owners(p), {(0, 0), (0, 1)})
    1.0
    """
    return sum(len(may[x]) for x in region) / len(region)


def placements(
    puzzle: NurikabePuzzle, c: Cell, region: set[Cell], cap: int
) -> list[list[Cell]] | None:
    """Every island of the number at ``c`` within ``region`` (the cells it may own): the
    connected sets of its size holding ``c``, each sorted; None when there are more than
    ``cap``. Redelmeier's method: each set is grown once, from ``c``, a cell once left out
    never taken again on that branch.

    >>> p = read("2 3\\n3 - -\\n- - -\\n")
    >>> len(placements(p, (0, 0), set(owners(p)), 100))
    4
    """
    m, n = puzzle.m, puzzle.n
    size = puzzle.cells[c[0]][c[1]]
    if cap < 1 or size > 64:  # (the recursion is as deep as the island is large)
        return None
    out: list[list[Cell]] = []
    piece: list[Cell] = []

    def grow(untried: list[Cell], seen: set[Cell]) -> bool:
        if len(piece) == size:
            out.append(sorted(piece))
            return len(out) <= cap
        untried = list(untried)
        while untried:
            x = untried.pop()
            new = [y for y in sh.neighbours(m, n, *x) if y in region and y not in seen]
            piece.append(x)
            going = grow(untried + new, seen | set(new))
            piece.pop()
            if not going:
                return False
        return True

    return out if grow([c], {c}) else None


def build(puzzle: NurikabePuzzle) -> Problem:
    """The exact-cover problem with its two rules (see the module doc)."""
    m, n = puzzle.m, puzzle.n
    names = sh.Names(m, n)
    b = sh.Builder()
    clues = puzzle.clues()
    if sum(1 if v == QUESTION else v for v in clues.values()) > m * n:
        # The islands need more white cells than the board has: no answer, which a cell's
        # item that no option covers says (their counts' bounds would not even be valid).
        b.item("p" + names.cell(0, 0))
        return b.problem()
    may = owners(puzzle)
    cells = [(i, j) for i in range(m) for j in range(n)]
    state = {c: names.cell(*c) for c in cells}
    for c in cells:
        b.item("p" + state[c])
    region: dict[Cell, set[Cell]] = {c: set() for c in clues}
    for x, mine in may.items():
        for c in mine:
            region[c].add(x)
    shapes: dict[Cell, list[list[Cell]]] = {}
    for c, v in clues.items():
        found = None if v == QUESTION else placements(puzzle, c, region[c], PLACEMENTS)
        if found is not None:
            shapes[c] = found
    # The numbers that own cell by cell, and the cells they may own.
    # A number above SHARED owns its cells under one shared name, BIG (see SHARED).
    # ... unless its island is nearly forced (see CROWDED).
    # ... or its reach is small (see REACH).
    big = {
        c
        for c, v in clues.items()
        if v != QUESTION
        and v > SHARED
        and c not in shapes
        and len(region[c]) > min(CROWDED * v, CROWDED_CELLS)
        and (contest(may, region[c]) > CONTESTED or reach_cost(puzzle, c, region[c]) > REACH)
    }
    large = {
        x: sorted({BIG if c in big else c for c in mine if c not in shapes})
        for x, mine in may.items()
    }
    number = {c: "n" + state[c] for c in clues}
    sizes = question_sizes(puzzle, may)
    counted = {
        c
        for c, v in clues.items()
        if c in shapes or v == QUESTION or (v <= COUNTED and c not in big)
    }
    for c, v in clues.items():
        if v == QUESTION:
            b.item(number[c], 1, sizes[c])
        elif c in counted:
            b.item(number[c], 1 if c in shapes else v)
    # A small sea is counted (SMALL_SEA, SEA_COUNT_ENTRIES): no more shaded cells than the
    # numbers leave.
    sea: list[str] = []
    shaded = m * n - sum(clues.values())
    no_sea = QUESTION not in clues.values() and shaded == 0  # (the islands fill the board)
    small = shaded * SMALL_SEA <= m * n or shaded * m * n <= SEA_COUNT_ENTRIES
    if QUESTION not in clues.values() and small and not no_sea:
        b.item("sea", 0, shaded)
        sea = ["sea"]
    blocks: dict[Cell, str] = {}
    for i in range(m - 1):
        for j in range(n - 1):
            four = [(i, j), (i, j + 1), (i + 1, j), (i + 1, j + 1)]
            if any(c in clues for c in four):
                continue
            blocks[(i, j)] = names.point(i + 1, j + 1)
            b.item(blocks[(i, j)], 0, 3)
    covers: dict[Cell, list[str]] = {c: [] for c in cells}
    for (i, j), name in blocks.items():
        for c in ((i, j), (i, j + 1), (i + 1, j), (i + 1, j + 1)):
            covers[c].append(name)
    # The borders between cells two different numbers may own cell by cell: each white option
    # colours them with its number's digits among the border's possible owners.
    marks: dict[Cell, list[tuple[list[str], dict[Cell, str]]]] = {c: [] for c in cells}
    for i, j in cells:
        for d in ((i + 1, j), (i, j + 1)):
            both = sorted(set(large.get((i, j), [])) | set(large.get(d, [])))
            if len(both) < 2 or not large.get((i, j)) or not large.get(d):
                continue
            edge = names.name(i + d[0] + 1, j + d[1] + 1)
            items, digits = border_digits(edge, both)
            b.secondary += items
            marks[(i, j)].append((items, digits))
            marks[d].append((items, digits))
    for c, found in shapes.items():
        for piece in found:
            inside = set(piece)
            around = sorted({y for x in piece for y in sh.neighbours(m, n, *x) if y not in inside})
            entries = [number[c]]
            entries += [f"p{state[x]}" for x in piece]
            entries += [f"{state[x]}:{WHITE_COLOUR}" for x in piece]
            entries += [f"{state[y]}:{SHADED_COLOUR}" for y in around]
            b.options.append(entries)
    for c in cells:
        p, s = "p" + state[c], state[c]
        for owner in large.get(c, []):
            entries = [p, f"{s}:{WHITE_COLOUR}"]
            entries += [number[owner]] if owner in counted else []
            for items, digits in marks[c]:
                entries += [f"{x}:{y}" for x, y in zip(items, digits[owner], strict=True)]
            if clues.get(c) == QUESTION:
                b.options += [[*entries, _size_item(s, k)] for k in range(1, sizes[c] + 1)]
                b.secondary += [_size_item(s, k) for k in range(1, sizes[c] + 1)]
            else:
                b.options.append(entries)
        if c not in clues and not no_sea:
            b.options.append([p, f"{s}:{SHADED_COLOUR}", *sea, *covers[c]])
    b.secondary += [state[c] for c in cells]
    problem = b.problem()
    owned = [c for c in counted if c not in shapes and clues[c] != QUESTION]
    return problem.with_rules(*rules(puzzle, problem, state, sizes, owned))


#: The mode the islands' sized rule asks for when the backend's is ``auto``
#: (:attr:`Sized.prefer <dlxsat.xcc.rules.Sized.prefer>`): lazy cuts. The backends' own
#: ``auto`` is eager for a rule with anchors, right for a few small islands; here the owners
#: already place every island's cells (the options), the eager encoding repeats them (a
#: variable per cell and number that may own it), and a ``?`` is an anchor per size its island
#: may have. Measured (SAT, 2026-11-27, 2 cores at load 0.5-0.7): 726_10x10 (a ``?``) eager
#: 9.3 s (237,566 variables), lazy 0.30 s (4,185); 229_31x45 eager 5.7 s, lazy 2.2 s. On the
#: whole corpus see docs/genres/nurikabe.md.
SIZED_MODE = "lazy"


#: The colours of a border item: base-62 digits.
DIGITS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def border_digits(edge: str, owners: list[Cell]) -> tuple[list[str], dict[Cell, str]]:
    """The items of a border (its name, and more with ``'`` when its owners are more than 62)
    and each possible owner's digits, one a item: two owners differ in one digit at least.

    >>> border_digits("14", [(0, 0), (0, 3)])
    (['14'], {(0, 0): '0', (0, 3): '1'})
    """
    width = 1
    while len(DIGITS) ** width < len(owners):
        width += 1
    items = [edge + "'" * k for k in range(width)]
    digits = {}
    for k, owner in enumerate(owners):
        text = ""
        for _ in range(width):
            k, r = divmod(k, len(DIGITS))
            text += DIGITS[r]
        digits[owner] = text
    return items, digits


def question_sizes(puzzle: NurikabePuzzle, may: dict[Cell, list[Cell]]) -> dict[Cell, int]:
    """Every ``?`` → the most cells its island may have: :func:`question_bound`, and no more
    than the cells it may own."""
    bound = question_bound(puzzle)
    count: dict[Cell, int] = {}
    for mine in may.values():
        for c in mine:
            count[c] = count.get(c, 0) + 1
    return {c: min(bound, count[c]) for c, v in puzzle.clues().items() if v == QUESTION}


def _size_item(state: str, k: int) -> str:
    """The item of a ``?``'s option for an island of k cells (see the module doc)."""
    return f"{state}q{k}"


def rules(
    puzzle: NurikabePuzzle,
    problem: Problem,
    state: dict[Cell, str],
    sizes: dict[Cell, int],
    owned: Sequence[Cell] = (),
) -> tuple[Connected] | tuple[Connected, Connected | Sized]:
    """The sea's connected rule and the islands' sized rule over the cells' states; the
    numbers ``owned`` (counted, their cells owned one by one) have their items as owners.
    No sized rule on a board without numbers: no cell may be white there, and a sized rule
    needs anchors."""
    index = problem.index
    sea = sh.cells_rule(problem, state, SHADED_COLOUR, "sea")
    assert isinstance(sea, Connected)
    clues = puzzle.clues()
    members: list[tuple[int, str | None]] = []
    at: dict[Cell, list[int]] = {}
    anchors: list[tuple[int, int]] = []
    for c in sorted(state):
        v = clues.get(c, BLANK)
        if v != QUESTION:
            at[c] = [len(members)]
            if v != BLANK:
                anchors.append((len(members), v))
            members.append((index[state[c]], WHITE_COLOUR))
            continue
        for k in range(1, sizes[c] + 1):
            at.setdefault(c, []).append(len(members))
            anchors.append((len(members), k))
            members.append((index[_size_item(state[c], k)], None))
    links = [
        (a, b)
        for (i, j), mine in at.items()
        for other in ((i + 1, j), (i, j + 1))
        if other in at
        for a in mine
        for b in at[other]
    ]
    if not anchors:
        return (sea,)
    owners = tuple((at[c][0], index["n" + state[c]]) for c in sorted(owned))
    return sea, Sized(
        tuple(members),
        tuple(links),
        anchors=tuple(anchors),
        label="islands",
        prefer=SIZED_MODE,
        owners=owners,
    )


def encode(puzzle: NurikabePuzzle) -> str:
    """The exact-cover data (Knuth's format, the board in its comment lines)."""
    return sh.Builder.text(["nurikabe:", *write(puzzle).splitlines()], build(puzzle))


def decode(puzzle: NurikabePuzzle, problem: Problem, chosen: Any) -> Answer:
    """The shaded cells: those whose chosen option colours their state ``1``."""
    names = sh.Names(puzzle.m, puzzle.n)
    shaded = []
    for k in chosen:
        for x, colour in problem.options[k][1:2]:
            if colour == SHADED_COLOUR:
                shaded.append(names.cell_of(problem.items[x].name))
    return sh.cells_answer(sh.SHADED, shaded)


# ---------------------------------------------------------------------------------------------
# The rules, judged on an answer


def check(puzzle: NurikabePuzzle, answer: Answer) -> list[str]:
    """The rules, judged on the answer, in pzprjs's order: no number shaded, no 2 x 2 block
    shaded, no island without a number, the sea in one piece, no island with two numbers, every
    island of its number's size.

    >>> p = read("2 2\\n1 -\\n- -\\n")
    >>> check(p, {"shaded": [[0, 1], [1, 0], [1, 1]]})
    []
    >>> check(p, {"shaded": [[0, 1], [1, 1]]})
    ['the island of the 1 at (1, 1) has 2 cells']
    """
    m, n = puzzle.m, puzzle.n
    shaded, out = sh.answer_cells(answer, sh.SHADED, m, n)
    clues = puzzle.clues()
    for c in sorted(shaded):
        if c in clues:
            out.append(f"the number at {cell_name(*c)} is shaded")
    for i in range(m - 1):
        for j in range(n - 1):
            if {(i, j), (i, j + 1), (i + 1, j), (i + 1, j + 1)} <= shaded:
                out.append(f"the 2 x 2 block at {cell_name(i, j)} is all shaded")
    white = {(i, j) for i in range(m) for j in range(n)} - shaded
    islands = sh.blocks(white)
    held = [[c for c in island if c in clues] for island in islands]
    for island, numbers in zip(islands, held, strict=True):
        if not numbers:
            out.append(f"the island at {cell_name(*island[0])} holds no number")
    sea = sh.blocks(shaded)
    if len(sea) > 1:
        out.append(
            f"the shaded cells are divided: {cell_name(*sea[1][0])} is cut off from "
            f"{cell_name(*sea[0][0])}"
        )
    for island, numbers in zip(islands, held, strict=True):
        if len(numbers) > 1:
            where = " and ".join(cell_name(*c) for c in numbers[:2])
            out.append(
                f"the island at {cell_name(*island[0])} holds {len(numbers)} numbers ({where})"
            )
    for island, numbers in zip(islands, held, strict=True):
        for c in numbers:
            v = clues[c]
            if v != QUESTION and v != len(island):
                out.append(f"the island of the {v} at {cell_name(*c)} has {len(island)} cells")
    return out


def render(puzzle: NurikabePuzzle, answer: Answer | None = None) -> str:
    """The board as text: a number as its last digit (``?`` for a ``?``), ``#`` a shaded cell,
    ``.`` a white one.

    >>> print(render(read("2 2\\n1 -\\n- -\\n"), {"shaded": [[0, 1], [1, 0], [1, 1]]}))
    1#
    ##
    """
    shaded = sh.marked_cells(answer, sh.SHADED)

    def glyph(i: int, j: int) -> str:
        v = puzzle.cells[i][j]
        if v == QUESTION:
            return "?"
        if v != BLANK:
            return str(v)[-1]
        return "#" if (i, j) in shaded else "."

    return sh.render_cells(puzzle.m, puzzle.n, glyph)


def draw(canvas: Any, puzzle: NurikabePuzzle, answer: Answer | None) -> None:
    """The grid, the shaded cells and the numbers."""
    canvas.grid(puzzle.m, puzzle.n)
    for i, j in sorted(sh.marked_cells(answer, sh.SHADED)):
        canvas.shade(i, j)
    for (i, j), v in puzzle.clues().items():
        canvas.text(i, j, "?" if v == QUESTION else str(v))


# ---------------------------------------------------------------------------------------------
# Formats


def read_url(text: str) -> NurikabePuzzle:
    """A puz.link URL: the numbers.

    >>> read_url("https://puzz.link/p?nurikabe/5/5/g5k2o1k3g").cells[0]
    (-1, 5, -1, -1, -1)
    """
    _, cols, rows, body = url_of(NAME, text)
    values, _ = decode_number16(body, cols * rows)
    grid = [values[i * cols : (i + 1) * cols] for i in range(rows)]
    return _puzzle(grid, "the URL's ")


def write_url(puzzle: NurikabePuzzle, answer: Answer | None = None) -> str:
    """The puz.link URL, as pzprjs writes it.

    >>> write_url(read_url("https://puzz.link/p?nurikabe/5/5/g5k2o1k3g"))
    'https://puzz.link/p?nurikabe/5/5/g5k2o1k3g\\n'
    """
    flat = [v for row in puzzle.cells for v in row]
    return make_url(TYPE, puzzle.n, puzzle.m, encode_number16(flat))


def _parse_pzprv3(text: str) -> tuple[NurikabePuzzle, Answer | None]:
    rows, cols, lines = read_pzprv3(text, NAME)
    tokens = block(lines, 0, rows, cols, "cells")
    values: list[list[int]] = []
    shaded = set()
    for i, row in enumerate(tokens):
        values.append([])
        for j, tok in enumerate(row):
            if tok == "-":
                values[i].append(QUESTION)
            elif tok.isdigit() and tok.isascii():
                values[i].append(int(tok))
            elif tok in ("#", "+", "."):
                values[i].append(BLANK)
                if tok == "#":
                    shaded.add((i, j))
            else:
                raise InputError(
                    f"line {i + 5} of the pzprv3 file: {tok!r} is not a number, -, #, + or ."
                )
    puzzle = _puzzle(values, "the file's ")
    return puzzle, sh.cells_answer(sh.SHADED, shaded) if shaded else None


def read_file(text: str) -> NurikabePuzzle:
    return _parse_pzprv3(text)[0]


def file_answer(puzzle: NurikabePuzzle | None, text: str) -> Answer | None:
    """The answer a pzprv3 file holds (None: nothing shaded); with ``puzzle``, the file must
    hold that puzzle."""
    held, drawn = _parse_pzprv3(text)
    if puzzle is not None and held.cells != puzzle.cells:
        raise InputError("the pzprv3 file holds another nurikabe puzzle than the one given")
    return drawn


def write_file(puzzle: NurikabePuzzle, answer: Answer | None = None) -> str:
    """The pzprv3 file as pzprjs writes it: with an answer, ``#`` its shaded cells and ``+``
    the other cells without a number (as a player marks them, so that pzprjs sees the board
    decided).

    >>> write_file(read("1 3\\n1 - ?\\n"), {"shaded": [[0, 1]]}).split("\\n")
    ['pzprv3', 'nurikabe', '1', '3', '1 # - ', '']
    """
    m, n = puzzle.m, puzzle.n
    shaded = sh.marked_cells(answer, sh.SHADED)
    other = "." if answer is None else "+"

    def token(i: int, j: int) -> str:
        v = puzzle.cells[i][j]
        if v == QUESTION:
            return "-"
        if v != BLANK:
            return str(v)
        return "#" if (i, j) in shaded else other

    table = [[token(i, j) for j in range(n)] for i in range(m)]
    return "\n".join(["pzprv3", TYPE, str(m), str(n), *write_block(table)]) + "\n"


SPEC = FamilySpec(
    name=NAME,
    summary="Nurikabe: islands around the numbers, of their sizes, in one connected sea",
    read=read,
    write=write,
    encode=encode,
    decode=decode,
    check=check,
    render=render,
    build=build,
    rules=("connected", "sized"),
    bytes_per_cell=900,
    formats=("knuth", "puzzlink", "pzprv3", "grid"),
    writes=("knuth", "puzzlink", "pzprv3", "grid"),
    answers=("pzprv3", "grid"),
    codecs={
        "puzzlink": Codec(read=read_url, write=write_url, names=(TYPE,)),
        "pzprv3": Codec(read=read_file, write=write_file, answer=file_answer, names=(TYPE,)),
        "grid": sh.shaded_grid_codec(read, write),
    },
    picture=Picture(lambda p: (p.m, p.n), draw),
)
