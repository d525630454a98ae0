"""Kuromasu (Kurodoko): numbers that see their count of white cells, shaded cells apart, the
white cells connected.

**Rules.** Shade some cells, never a numbered one, so that no two shaded cells are orthogonal
neighbours and the white cells form one orthogonally connected area. A number tells how many
white cells it sees along its row and its column, itself included: looking in each of the four
directions up to the first shaded cell or the edge of the board.

**The puzzle's text** (the corpus's notation, ``SmilingWayne/puzzlekit-dataset``): a line
``ROWS COLS``, then ROWS rows of tokens, ``-`` an empty cell, a number, ``?`` a numbered cell
whose number is not given (pzprjs's)::

    3 3
    - 4 -
    - - -
    3 - -

**The exact-cover problem**, in Knuth's style (names of :class:`~dlxsat.families.shading.Names`:
cell (i, j) is the point (2i+1, 2j+1)):

- each cell is white or shaded (:class:`~dlxsat.families.shading.CellStates`): a primary item
  ``p13``, covered by the white option ``p13 13:0`` or the shaded one ``p13 13:1 ...``, whose
  secondary item ``13`` colors the neighbours' items ``0``: no two shaded cells touch. A
  numbered cell has no shaded option. With the connected rule, no white cell (or white cross)
  is walled in by shaded cells, stated locally by ring items (``CellStates``'s ``rings``);
- a number N at cell ``13`` looks along four *arms* (``n``, ``s``, ``w``, ``e``), each of some
  *length* k: its first k cells white and the next one shaded, or the arm reaching the edge.
  A length is at most N - 1 and never stops at a numbered cell (never shaded). The number's
  vertical pair of arms is a primary item ``V13``, covered once by an option per pair of
  lengths (u up, d down) that the horizontal arms can complete to N - 1: the option colors the
  cells of both arms (white ``0``, the stoppers ``1``; the cell before a stopper is left out,
  the shaded stopper colors it white itself) and the secondary item ``T13`` with u + d (one
  base-62 digit a character: ``T13``, ``T131``, ... for sums from 62). Its horizontal pair
  ``H13`` likewise, coloring ``T13`` with N - 1 - l - r: both agree exactly when
  u + d + l + r = N - 1, so the number sees N cells, itself included;
- the global rule ``|@connected white``: the cells whose item is colored ``0`` are connected
  (:func:`~dlxsat.families.shading.cells_rule`).

Enumerating each number's four arm lengths at once (an option per way to split N - 1 among
four arms) would be exact too, but has 1.1 million entries on the corpus's 320_31x45 (50,000
options); pairs keep a number's options to about N² / 2. An arm item per number and arm
(an option per length, coloring a length item that the pairs read) has fewer entries (190,969
against 308,910 on 320_31x45) but SAT took twice as long on it (the length items' colors
propagate through long clauses, the cells' colors through binary ones). A board that all
white keeps every number would have that answer, which pzprjs refuses (it wants a shaded
cell): there an item ``x`` is covered by the shaded options at least once.

**Formats.** puz.link ``kurodoko/COLS/ROWS/BODY`` (pzprjs's name of the genre, which dlxsat
takes as an alias): the numbers (:func:`~dlxsat.families.codecs.decode_number16`). pzprv3
(``pzprv3``, ``kurodoko``, ROWS, COLS): the numbers (``.`` none, ``-`` a ``?``), the cells
(``#`` shaded, ``+`` a player's mark, ``.``), then optionally the player's marks on borders
(ignored). The answer grid is the corpus's: ``x`` shaded, ``-`` white.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..xcc.model import Problem
from . import regions as rg
from . import shading as sh
from .base import Puzzle
from .codecs import (
    BLANK,
    QUESTION,
)
from .grid import b62_number
from .hitori import apart, connected_white, draw_numbers
from .loops import cell_name
from .spec import FamilySpec, Picture

Answer = dict[str, Any]
Cell = tuple[int, int]
NAME = "kuromasu"
#: pzprjs's name of the genre (its URLs and files).
TYPE = "kurodoko"
ALIASES = (TYPE,)
#: The four arms: a letter and a step.
ARMS = (("n", -1, 0), ("s", 1, 0), ("w", 0, -1), ("e", 0, 1))


@dataclass(frozen=True)
class KuromasuPuzzle(Puzzle):
    """A Kuromasu board: ``cells[i][j]`` is the number of cell (i, j), or
    :data:`~dlxsat.families.codecs.BLANK` (none) or :data:`~dlxsat.families.codecs.QUESTION`
    (a numbered cell whose number is not given)."""

    cells: tuple[tuple[int, ...], ...]

    @property
    def m(self) -> int:
        return len(self.cells)

    @property
    def n(self) -> int:
        return len(self.cells[0])

    def numbered(self, i: int, j: int) -> bool:
        return self.cells[i][j] != BLANK

    def arm(self, i: int, j: int, di: int, dj: int) -> list[Cell]:
        """The cells from (i, j) (left out) to the edge in direction (di, dj)."""
        out = []
        p, q = i + di, j + dj
        while 0 <= p < self.m and 0 <= q < self.n:
            out.append((p, q))
            p, q = p + di, q + dj
        return out

    def seen(self, i: int, j: int, shaded: set[Cell]) -> int:
        """How many white cells (i, j) sees along its row and column, itself included.

        >>> read("1 3\\n2 - -\\n").seen(0, 0, {(0, 2)})
        2
        """
        count = 1
        for _, di, dj in ARMS:
            for c in self.arm(i, j, di, dj):
                if c in shaded:
                    break
                count += 1
        return count


def read(text: str) -> KuromasuPuzzle:
    """The puzzle of the corpus's text.

    >>> read("2 2\\n3 -\\n- ?\\n").cells
    ((3, -1), (-1, -2))
    """
    _, _, (rows,) = rg.read_grids(text, 1, "kuromasu")
    return KuromasuPuzzle(
        tuple(
            tuple(rg.read_number(tok, f"row {i + 1}, cell {j + 1}") for j, tok in enumerate(row))
            for i, row in enumerate(rows)
        )
    )


def write(puzzle: KuromasuPuzzle) -> str:
    """The corpus's text of the puzzle."""
    rows = [" ".join(rg.write_number(v) for v in row) for row in puzzle.cells]
    return f"{puzzle.m} {puzzle.n}\n" + "".join(r + "\n" for r in rows)


def build(puzzle: KuromasuPuzzle) -> Problem:
    """The exact-cover problem (see the module doc)."""
    m, n = puzzle.m, puzzle.n
    names = sh.Names(m, n)
    b = sh.Builder()
    cells = [(i, j) for i in range(m) for j in range(n)]
    states = sh.CellStates(b, names, cells, rings=2)
    state = states.items
    # The white entries of the cells that may be shaded (numbered ones are always white).
    white = {x: state[x] + ":0" for x in state if not puzzle.numbered(*x)}
    looks: list[list[str]] = []
    everything_seen = True
    for i, j in cells:
        v = puzzle.cells[i][j]
        if v < 0:
            continue
        c = names.cell(i, j)
        width = len(b62_number(max(v - 1, 0)))
        arms = {letter: puzzle.arm(i, j, di, dj) for letter, di, dj in ARMS}
        # Each arm's lengths: at most N - 1, its stopper (the next cell) shadeable or beyond
        # the edge.
        lengths = {
            letter: [
                k
                for k in range(min(len(arm), v - 1) + 1)
                if k == len(arm) or not puzzle.numbered(*arm[k])
            ]
            for letter, arm in arms.items()
        }
        down = {u + d for u in lengths["n"] for d in lengths["s"] if u + d < v}
        across = {v - 1 - w - e for w in lengths["w"] for e in lengths["e"] if w + e < v}
        totals = down & across
        everything_seen = everything_seen and sum(map(len, arms.values())) == v - 1
        b.item("V" + c)
        b.item("H" + c)
        b.secondary.extend(_items("T" + c, width))
        looked = {
            letter: {k: _look(white, arm, k) for k in lengths[letter]}
            for letter, arm in arms.items()
        }
        for first, second, item in (("n", "s", "V"), ("w", "e", "H")):
            for u, see_u in looked[first].items():
                for d, see_d in looked[second].items():
                    t = u + d if item == "V" else v - 1 - u - d
                    if t in totals:
                        looks.append([item + c, *see_u, *see_d, *_colours("T" + c, t, width)])
    shadeable = [c for c in cells if not puzzle.numbered(*c)]
    alone = everything_seen and bool(shadeable)
    if alone:
        # All white would keep every number; pzprjs wants a shaded cell.
        b.item("x", 1, len(shadeable))
    for cell in cells:
        b.options.append(states.white(cell))
        if not puzzle.numbered(*cell):
            b.options.append([*states.shaded(cell, apart=True), *(["x"] if alone else [])])
    b.options += looks
    sh.some_shaded(b, names, check(puzzle, {"shaded": []}))
    problem = b.problem()
    return problem.with_rules(states.rule(problem, sh.WHITE_COLOUR, "white"))


def _look(white: dict[Cell, str], arm: list[Cell], k: int) -> list[str]:
    """The entries of an arm ``k`` cells long: its first k cells white, the next one shaded
    (when the board goes on). Cells always white (numbered ones, without a ``white`` entry)
    are left out, and so is the k-th: the shaded stopper colors it white itself.

    >>> white = {(0, j): f"{j}:0" for j in range(4) if j != 2}
    >>> [_look(white, [(0, 1), (0, 2), (0, 3)], k) for k in (0, 2, 3)]
    [['1:1'], ['1:0', '3:1'], ['1:0', '3:0']]
    """
    if k == len(arm):
        return [white[x] for x in arm if x in white]
    stop = white[arm[k]]
    return [*(white[x] for x in arm[: max(k - 1, 0)] if x in white), stop[:-1] + "1"]


def _items(name: str, width: int) -> list[str]:
    """The secondary items of a number of ``width`` base-62 digits: ``name``, then ``name``
    and the digit's place from the second on (one color is one character)."""
    return [name + (str(p) if p else "") for p in range(width)]


def _colours(name: str, value: int, width: int) -> list[str]:
    """The entries coloring :func:`_items` with ``value``'s digits, lowest first.

    >>> _colours("T13", 5, 1), _colours("T13", 63, 2)
    (['T13:5'], ['T13:1', 'T131:1'])
    """
    digits = b62_number(value).rjust(width, "0")[::-1]
    return [f"{item}:{digit}" for item, digit in zip(_items(name, width), digits, strict=True)]


def encode(puzzle: KuromasuPuzzle) -> str:
    """The exact-cover data (Knuth's format, the board in its comment lines, the rule in its
    ``|@`` lines)."""
    return sh.Builder.text(["kuromasu:", *write(puzzle).splitlines()], build(puzzle))


def decode(puzzle: KuromasuPuzzle, problem: Problem, chosen: Any) -> Answer:
    """The shaded cells: those whose shaded option is chosen."""
    names = sh.Names(puzzle.m, puzzle.n)
    shaded = []
    for k in chosen:
        option = problem.options[k]
        name = problem.items[option[0][0]].name
        if name[0] == "p" and option[1][1] == sh.SHADED_COLOUR:
            shaded.append(names.cell_of(name))
    return sh.cells_answer(sh.SHADED, shaded)


def check(puzzle: KuromasuPuzzle, answer: Answer) -> list[str]:
    """The rules, judged on the answer, in pzprjs's order (a shaded cell at all, shaded cells
    apart, the white cells connected, the numbers' counts), then no numbered cell shaded.

    >>> p = read("1 3\\n2 - -\\n")
    >>> check(p, {"shaded": [[0, 2]]}), check(p, {"shaded": [[0, 1]]})[0]
    ([], 'the white cells are divided: (1, 3) is cut off from (1, 1)')
    """
    m, n = puzzle.m, puzzle.n
    shaded, out = sh.answer_cells(answer, sh.SHADED, m, n)
    if not shaded:
        out.append(sh.NO_SHADED_CELL)
    out += apart(shaded)
    out += connected_white(m, n, shaded)
    for i in range(m):
        for j in range(n):
            v = puzzle.cells[i][j]
            if v >= 0:
                have = puzzle.seen(i, j, shaded)
                if have != v:
                    out.append(
                        f"the number {v} at {cell_name(i, j)} sees {have} white cells, not {v}"
                    )
    for i, j in sorted(shaded):
        if puzzle.numbered(i, j):
            out.append(f"the numbered cell {cell_name(i, j)} is shaded")
    return out


def render(puzzle: KuromasuPuzzle, answer: Answer | None = None) -> str:
    """The board: a number as a base-36 digit (``+`` from 36), ``?``, ``#`` a shaded cell,
    ``.`` a white one.

    >>> print(render(read("1 3\\n2 - 12\\n"), {"shaded": [[0, 1]]}))
    2#c
    """
    shaded = sh.marked_cells(answer, sh.SHADED)
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"

    def glyph(i: int, j: int) -> str:
        v = puzzle.cells[i][j]
        if (i, j) in shaded:
            return "#"
        return "." if v == BLANK else "?" if v == QUESTION else digits[v] if v < 36 else "+"

    return sh.render_cells(puzzle.m, puzzle.n, glyph)


def draw(canvas: Any, puzzle: KuromasuPuzzle, answer: Answer | None) -> None:
    """The numbers and the shaded cells."""
    canvas.grid(puzzle.m, puzzle.n)
    draw_numbers(canvas, puzzle.cells, sh.marked_cells(answer, sh.SHADED))


# ---------------------------------------------------------------------------------------------
# Formats


SPEC = FamilySpec(
    name=NAME,
    summary="Kuromasu (Kurodoko): numbers see their count of white cells; shaded cells apart",
    aliases=ALIASES,
    read=read,
    write=write,
    encode=encode,
    decode=decode,
    check=check,
    render=render,
    build=build,
    rules=("connected",),
    # auto, the default (sat until 2026-11-28: on the corpus's three largest, 31 x 45, at load
    # 17, auto's trial cost 38.1 + 34.0 + 22.8 s against sat's 29.0 + 23.5 + 15.3). Measured
    # again since DLX's nodes got cheaper (benchmarks/published.py, boards of at most 225
    # cells, 10 a sample, best of 2): auto 1.01 and 1.03 x the virtual best engine on seeds 62
    # and 67, DLX's answer every time, where sat is 1.60 and 1.46; on the three largest auto
    # goes to SAT after a trial of a node an item: 1.93, 1.47, 2.94 s against sat's 1.96,
    # 1.37, 2.67 (2026-11-28, alternating, 2 cores shared with two other runs).
    # Reading, encoding and parsing the corpus's three largest: up to 5,555 bytes a character
    # at the peak (tracemalloc), doubled.
    bytes_per_cell=11200,
    formats=("knuth", "puzzlink", "pzprv3", "grid"),
    writes=("knuth", "puzzlink", "pzprv3", "grid"),
    answers=("pzprv3", "grid"),
    codecs={
        "puzzlink": sh.numbers_url_codec(KuromasuPuzzle, NAME, TYPE, ALIASES),
        "pzprv3": sh.numbers_file_codec(KuromasuPuzzle, NAME, TYPE, ALIASES),
        "grid": sh.shaded_grid_codec(read, write),
    },
    picture=Picture(lambda p: (p.m, p.n), draw),
)
