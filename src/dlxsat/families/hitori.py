"""Hitori: shade repeated numbers away, shaded cells apart, the white cells connected.

**Rules.** Every cell holds a number (or none). Shade some cells so that no number appears twice
among the white cells of a row or of a column; no two shaded cells are orthogonal neighbours;
the white cells form one orthogonally connected area. (pzprjs also wants at least one shaded
cell; only a board without a repeated number could do without.)

Those rules are all. A published Hitori is unique under them, so its answer shades no cell
needlessly (a shaded cell whose number has no white twin in its row or column could turn
white, keeping every rule: a second answer); asking that of every answer as well (as
puzzlekit's "most white cells" does) would prove uniqueness only among such answers.

**The puzzle's text** (the corpus's notation, ``SmilingWayne/puzzlekit-dataset``): a line
``ROWS COLS``, then ROWS rows of numbers, ``-`` a cell without one (``?`` a number not given,
pzprjs's; neither is ever repeated)::

    3 3
    1 1 2
    2 3 1
    3 1 1

**The exact-cover problem**, in Knuth's style (names of :class:`~dlxsat.families.shading.Names`:
cell (i, j) is the point (2i+1, 2j+1)). A *group* is the cells of one number in one row (``h``
and its first cell's name) or one column (``v``...), when there are two or more.

- each cell is white or shaded (:class:`~dlxsat.families.shading.CellStates`): a primary item
  ``p13``, covered by the white option ``p13 13:0 ...`` or the shaded one ``p13 13:1 ...``,
  whose secondary item ``13`` colors the neighbours' items ``0``: no two shaded cells touch;
- no white cell, nor white cross, is walled in by shaded cells: a primary item per cell for
  its neighbours (``n13``) and one for the cells two steps away (``d13``), covered by their
  white options at least once (``CellStates``'s ``rings``), implied by the connected rule and
  sparing it most of its cuts (on hard_25x25, 135 cuts in 43 rounds become 6 in 6);
- a group's secondary item is covered by the white options of its cells: at most once, so no
  number is repeated among the white cells;
- the global rule ``|@connected white``: the cells whose item is colored ``0`` are connected
  (:func:`~dlxsat.families.shading.cells_rule`).

A board with no repeated number would be solved by leaving every cell white, which pzprjs
refuses: there a primary item ``x`` is covered by the shaded options at least once.

**Formats.** puz.link ``hitori/COLS/ROWS/BODY``: a character per cell, a base-36 digit a number
below 36, ``-`` and two digits a larger one, ``.`` none, ``@`` or ``%`` a ``?``
(:func:`decode_hitori`). pzprv3 (``pzprv3``, ``hitori``, ROWS, COLS): the numbers (``.`` none,
``-`` a ``?``), then the cells (``#`` shaded, ``+`` a player's mark, ``.``), then optionally
the player's marks on borders (ignored). The answer grid is the corpus's: ``x`` shaded, ``-``
white.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import InputError
from ..xcc.model import Problem
from . import regions as rg
from . import shading as sh
from .base import Puzzle
from .codecs import BLANK, QUESTION
from .loops import cell_name
from .spec import FamilySpec, Picture

Answer = dict[str, Any]
Cell = tuple[int, int]
NAME = TYPE = "hitori"
_B36 = "0123456789abcdefghijklmnopqrstuvwxyz"


@dataclass(frozen=True)
class HitoriPuzzle(Puzzle):
    """A Hitori board: ``cells[i][j]`` is the number of cell (i, j), or
    :data:`~dlxsat.families.codecs.BLANK` (none) or :data:`~dlxsat.families.codecs.QUESTION`
    (a ``?``)."""

    cells: tuple[tuple[int, ...], ...]

    @property
    def m(self) -> int:
        return len(self.cells)

    @property
    def n(self) -> int:
        return len(self.cells[0])

    def groups(self) -> list[tuple[str, list[Cell]]]:
        """The groups: the cells of one number (1 or more: pzprjs ignores 0 and ``?``) in one
        row (kind ``h``) or column (``v``), two or more, each in reading order; the rows'
        first.

        >>> read("2 3\\n1 2 1\\n2 2 3\\n").groups()
        [('h', [(0, 0), (0, 2)]), ('h', [(1, 0), (1, 1)]), ('v', [(0, 1), (1, 1)])]
        """
        out: list[tuple[str, list[Cell]]] = []
        m, n = self.m, self.n
        lines = [("h", [(i, j) for j in range(n)]) for i in range(m)]
        lines += [("v", [(i, j) for i in range(m)]) for j in range(n)]
        for kind, line in lines:
            by_value: dict[int, list[Cell]] = {}
            for i, j in line:
                v = self.cells[i][j]
                if v >= 1:
                    by_value.setdefault(v, []).append((i, j))
            out.extend((kind, cells) for cells in by_value.values() if len(cells) > 1)
        return out


def _value(tok: str, where: str) -> int:
    if tok == "-":
        return BLANK
    if tok == "?":
        return QUESTION
    if tok.isdigit() and tok.isascii():
        return int(tok)
    raise InputError(f"{where}: {tok!r} is not a number, - (none) or ?")


def read(text: str) -> HitoriPuzzle:
    """The puzzle of the corpus's text.

    >>> read("2 2\\n1 1\\n- ?\\n").cells
    ((1, 1), (-1, -2))
    """
    _, _, (rows,) = rg.read_grids(text, 1, "hitori")
    return HitoriPuzzle(
        tuple(
            tuple(_value(tok, f"row {i + 1}, cell {j + 1}") for j, tok in enumerate(row))
            for i, row in enumerate(rows)
        )
    )


def _token(v: int) -> str:
    return "-" if v == BLANK else "?" if v == QUESTION else str(v)


def write(puzzle: HitoriPuzzle) -> str:
    """The corpus's text of the puzzle."""
    rows = [" ".join(_token(v) for v in row) for row in puzzle.cells]
    return f"{puzzle.m} {puzzle.n}\n" + "".join(r + "\n" for r in rows)


def build(puzzle: HitoriPuzzle) -> Problem:
    """The exact-cover problem (see the module doc)."""
    m, n = puzzle.m, puzzle.n
    names = sh.Names(m, n)
    b = sh.Builder()
    cells = [(i, j) for i in range(m) for j in range(n)]
    states = sh.CellStates(b, names, cells, rings=2)
    groups = puzzle.groups()
    of: dict[Cell, list[str]] = {c: [] for c in cells}
    for kind, part in groups:
        name = kind + names.cell(*part[0])
        b.secondary.append(name)
        for c in part:
            of[c].append(name)
    anything = [] if groups else ["x"]
    if not groups:
        # Nothing needs shading, and pzprjs wants a shaded cell.
        b.item("x", 1, len(cells))
    for c in cells:
        b.options.append([*states.white(c), *of[c]])
        b.options.append([*states.shaded(c, apart=True), *anything])
    sh.some_shaded(b, names, check(puzzle, {"shaded": []}))
    problem = b.problem()
    return problem.with_rules(states.rule(problem, sh.WHITE_COLOUR, "white"))


def encode(puzzle: HitoriPuzzle) -> str:
    """The exact-cover data (Knuth's format, the board in its comment lines, the rule in its
    ``|@`` lines)."""
    return sh.Builder.text(["hitori:", *write(puzzle).splitlines()], build(puzzle))


def decode(puzzle: HitoriPuzzle, problem: Problem, chosen: Any) -> Answer:
    """The shaded cells: those the chosen options color shaded."""
    return sh.decode_shaded(puzzle, problem, chosen)


def check(puzzle: HitoriPuzzle, answer: Answer) -> list[str]:
    """The rules, judged on the answer, in pzprjs's order: a shaded cell at all, shaded cells
    apart, the white cells connected, no number repeated among them.

    >>> p = read("2 2\\n1 1\\n2 1\\n")
    >>> check(p, {"shaded": [[0, 1]]})
    []
    >>> check(p, {"shaded": [[0, 0]]})
    ['column 2 has the number 1 twice among its white cells, at (1, 2) and (2, 2)']
    """
    m, n = puzzle.m, puzzle.n
    shaded, out = sh.answer_cells(answer, sh.SHADED, m, n)
    if not shaded:
        out.append(sh.NO_SHADED_CELL)
    out += apart(shaded)
    out += connected_white(m, n, shaded)
    cells = puzzle.cells
    for kind, part in puzzle.groups():
        white = [c for c in part if c not in shaded]
        if len(white) > 1:
            line = f"row {white[0][0] + 1}" if kind == "h" else f"column {white[0][1] + 1}"
            out.append(
                f"{line} has the number {cells[white[0][0]][white[0][1]]} twice among its white "
                f"cells, at {cell_name(*white[0])} and {cell_name(*white[1])}"
            )
    return out


def apart(shaded: set[Cell]) -> list[str]:
    """pzprjs's ``csAdjacent``: shaded cells side by side."""
    return [
        f"the shaded cells {cell_name(i, j)} and {cell_name(*other)} are adjacent"
        for i, j in sorted(shaded)
        for other in ((i, j + 1), (i + 1, j))
        if other in shaded
    ]


def connected_white(m: int, n: int, shaded: set[Cell]) -> list[str]:
    """pzprjs's ``cuDivideRB``: the white cells in more than one piece."""
    white = {(i, j) for i in range(m) for j in range(n)} - shaded
    pieces = sh.blocks(white)
    if len(pieces) < 2:
        return []
    return [
        f"the white cells are divided: {cell_name(*pieces[1][0])} is cut off from "
        f"{cell_name(*pieces[0][0])}"
    ]


def render(puzzle: HitoriPuzzle, answer: Answer | None = None) -> str:
    """The board: a number as a base-36 digit (``+`` from 36), ``.`` none, ``?``, ``#`` a
    shaded cell.

    >>> print(render(read("2 2\\n1 1\\n2 12\\n"), {"shaded": [[0, 0]]}))
    #1
    2c
    """
    shaded = sh.marked_cells(answer, sh.SHADED)

    def glyph(i: int, j: int) -> str:
        if (i, j) in shaded:
            return "#"
        v = puzzle.cells[i][j]
        return "." if v == BLANK else "?" if v == QUESTION else _B36[v] if v < 36 else "+"

    return sh.render_cells(puzzle.m, puzzle.n, glyph)


def draw(canvas: Any, puzzle: HitoriPuzzle, answer: Answer | None) -> None:
    """The numbers, the shaded cells dark with their numbers in white."""
    canvas.grid(puzzle.m, puzzle.n)
    draw_numbers(canvas, puzzle.cells, sh.marked_cells(answer, sh.SHADED))


def draw_numbers(
    canvas: Any, cells: tuple[tuple[int, ...], ...], shaded: set[Cell], shade: bool = True
) -> None:
    """Shaded cells dark (when ``shade``), and the numbers: white on a shaded cell."""
    for i, j in sorted(shaded):
        canvas.shade(i, j)
    for i, row in enumerate(cells):
        for j, v in enumerate(row):
            if v != BLANK:
                colour = "white" if (i, j) in shaded else "black"
                canvas.text(i, j, "?" if v == QUESTION else str(v), colour=colour)


# ---------------------------------------------------------------------------------------------
# Formats


def decode_hitori(body: str, count: int) -> tuple[list[int], str]:
    """pzprjs's ``decodeHitori``: a character per cell, no runs of blanks -- a base-36 digit,
    ``-`` and two base-36 digits, ``@`` or ``%`` a ``?``, anything else (``.``) none.

    >>> decode_hitori("1a.-10@", 5)
    ([1, 10, -1, 36, -2], '')
    """
    values = [BLANK] * count
    c = i = 0
    while i < len(body) and c < count:
        ch = body[i]
        if ch in _B36:
            values[c] = int(ch, 36)
        elif ch == "-":
            digits = body[i + 1 : i + 3]
            if len(digits) != 2 or any(d not in _B36 for d in digits):
                raise InputError("the puz.link URL's numbers are malformed")
            values[c] = int(digits, 36)
            i += 2
        elif ch in "%@":
            values[c] = QUESTION
        c += 1
        i += 1
    return values, body[i:]


def encode_hitori(values: list[int]) -> str:
    """pzprjs's ``encodeHitori`` (:func:`decode_hitori`'s text).

    >>> encode_hitori([1, 10, -1, 36, -2])
    '1a.-10@'
    """
    out = []
    for v in values:
        if v == QUESTION:
            out.append("@")
        elif 0 <= v < 36:
            out.append(_B36[v])
        elif 36 <= v < 1296:
            out.append("-" + _B36[v // 36] + _B36[v % 36])
        else:
            out.append(".")
    return "".join(out)


SPEC = FamilySpec(
    name=NAME,
    summary="Hitori: shade repeated numbers away, shaded cells apart, the white cells connected",
    read=read,
    write=write,
    encode=encode,
    decode=decode,
    check=check,
    render=render,
    build=build,
    rules=("connected",),
    # Reading, encoding and parsing the corpus's three largest: up to 2,621 bytes a character
    # at the peak (tracemalloc), doubled.
    bytes_per_cell=5300,
    formats=("knuth", "puzzlink", "pzprv3", "grid"),
    writes=("knuth", "puzzlink", "pzprv3", "grid"),
    answers=("pzprv3", "grid"),
    codecs={
        "puzzlink": sh.numbers_url_codec(
            HitoriPuzzle, NAME, TYPE, (TYPE,), decode_hitori, encode_hitori
        ),
        "pzprv3": sh.numbers_file_codec(HitoriPuzzle, NAME, TYPE, (TYPE,)),
        "grid": sh.shaded_grid_codec(read, write),
    },
    picture=Picture(lambda p: (p.m, p.n), draw),
)
