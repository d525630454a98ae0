"""Detour: a loop through every cell, turning as often in a region as its number says.

**Rules.** Draw one loop through the centres of all the cells (from cell to orthogonal
neighbour, no branch, no crossing). A region's number says how many times the loop turns in
the region's cells.

**The puzzle's text** (the corpus's notation, ``SmilingWayne/puzzlekit-dataset``): a line
``ROWS COLS``, ROWS rows of numbers (``-`` none; a region's number in any one of its cells),
then ROWS rows of region labels::

    2 3
    - - 2
    - - -
    1 1 2
    1 2 2

**The exact-cover problem**, in Knuth's style (names of
:class:`~dlxsat.families.loops.LoopBoard`, docs/conventions.md §4):

- a primary item per cell ``(2i, 2j)``, a vertex of the loop, and a secondary item per edge
  between two cells, named by its midpoint, colored ``1`` (on the loop) or ``0``;
- a primary item per numbered region, named by its top cell's centre ``(2i+1, 2j+1)``, with
  multiplicity: covered exactly *number* times (``3|11``);
- the options of a cell: the six ways (fewer at the border) of passing it -- two edges on, the
  others off, since every cell is on the loop. A way that turns names its region's item, so the
  region's number counts its turns: the clue is exact in the options, no counting elsewhere.
  In a region numbered 0 the turning ways are left out;
- the global rule ``|@loop``: the edges on form one cycle, added lazily by the backends.

**Formats.** puz.link ``detour/COLS/ROWS/BODY``: the walls
(:func:`~dlxsat.families.codecs.decode_border`), then a number per region in pzprjs's order
(:func:`~dlxsat.families.codecs.decode_number16`; pzprjs writes it on the region's top cell).
pzprv3 (pzprjs writes ``pzprv3.2``): the walls (older files: room numbers), the numbers, the
line, the player's marks. The answer grid is the corpus's line tokens.
"""

from __future__ import annotations

from typing import Any

from ..xcc.model import Item, Problem
from . import regions as rg
from .loops import edges_on, line_answer, render_line
from .regions import Answer, RegionLoopPuzzle
from .spec import FamilySpec, Picture

NAME = "detour"
TYPE = "detour"


class DetourPuzzle(RegionLoopPuzzle):
    """A Detour board: its regions and their numbers (turns)."""


def read(text: str) -> DetourPuzzle:
    """The puzzle of the corpus's text.

    >>> read("2 3\\n- - 2\\n- - -\\n1 1 2\\n1 2 2\\n").clues
    (-1, 2)
    """
    return rg.read_numbered(DetourPuzzle, text, "detour")


def write(puzzle: DetourPuzzle) -> str:
    """The corpus's text (each number on its region's top cell)."""
    return rg.write_numbered(puzzle)


def build(puzzle: DetourPuzzle) -> Problem:
    """The exact-cover problem (see the module doc), with the single-loop rule."""
    lb = puzzle.loop_board
    b = rg.Builder()
    cells = [(i, j) for i in range(puzzle.m) for j in range(puzzle.n)]
    b.primary = [Item(lb.cell(i, j)) for i, j in cells]
    clue_item: dict[int, str] = {}
    for k in range(puzzle.room_count):
        v = puzzle.clue(k)
        if v > 0:
            i, j = puzzle.top(k)
            clue_item[k] = lb.name(2 * i + 1, 2 * j + 1)
            b.item(clue_item[k], v)
    for i, j in cells:
        k = puzzle.room[i][j]
        for on, entries in rg.shapes(puzzle, i, j, (2,)):
            if not rg.is_turn(on):
                b.options.append([lb.cell(i, j), *entries])
            elif k in clue_item:
                b.options.append([lb.cell(i, j), *entries, clue_item[k]])
            elif puzzle.clue(k) != 0:
                b.options.append([lb.cell(i, j), *entries])
    b.secondary = lb.all_edges()
    return b.problem()


def encode(puzzle: DetourPuzzle) -> str:
    """The exact-cover data (Knuth's format, the board in its comment lines)."""
    return rg.Builder.text(["detour:", *write(puzzle).splitlines()], build(puzzle))


def decode(puzzle: DetourPuzzle, problem: Problem, chosen: Any) -> Answer:
    return line_answer(edges_on(problem, chosen))


def check(puzzle: DetourPuzzle, answer: Answer) -> list[str]:
    """The rules, judged on the answer, in pzprjs's order: no branch, no crossing, each
    region's turns as its number says, no dead end, one loop, every cell on it.

    >>> p = read("2 2\\n4 -\\n- -\\n1 1\\n1 1\\n")
    >>> check(p, {"edges": [[0, 1], [1, 0], [1, 2], [2, 1]]})
    []
    >>> check(p, {"edges": [[0, 1], [1, 0]]})[0]
    'the region at (1, 1) has 1 turn, not 4'
    """
    line = rg.read_line(puzzle, answer)
    out = line.wrong + rg.branches(line) + rg.crossings_of_line(line)
    for k, cells in enumerate(puzzle.rooms):
        v = puzzle.clue(k)
        t = rg.turns(line, cells)
        if v >= 0 and t != v:
            s = "" if t == 1 else "s"
            out.append(f"{rg.room_name(puzzle, k)} has {t} turn{s}, not {v}")
    out += rg.dead_ends(line)
    if not any(d in (1, 3, 4) for d in line.degree.values()):
        out += rg.several_loops(line)
    out += rg.empty_cells(line)
    return out


def render(puzzle: DetourPuzzle, answer: Answer | None = None) -> str:
    """The loop over the numbers (on each region's top cell), then the regions as letters.

    >>> print(render(read("1 2\\n2 -\\n1 1\\n")))
    2   .
    <BLANKLINE>
    aa
    """
    return (
        render_line(puzzle.m, puzzle.n, answer, rg.glyph(puzzle)) + "\n\n" + rg.render_rooms(puzzle)
    )


def draw(canvas: Any, puzzle: DetourPuzzle, answer: Answer | None) -> None:
    """The regions with their walls, each number small in its top cell's corner, the loop."""
    rg.draw_board(canvas, puzzle, answer, small=True)


SPEC = FamilySpec(
    name=NAME,
    summary="Detour: a loop through every cell; a region's number counts the loop's turns in it",
    aliases=(),
    rules=("loop",),
    read=read,
    write=write,
    encode=encode,
    decode=decode,
    check=check,
    render=render,
    build=build,
    bytes_per_cell=5500,
    formats=("knuth", "puzzlink", "pzprv3", "grid"),
    writes=("knuth", "puzzlink", "pzprv3", "grid"),
    answers=("pzprv3", "grid"),
    codecs=rg.country_codecs(DetourPuzzle, NAME, TYPE, read, write, numbers=True),
    picture=Picture(lambda p: (p.m, p.n), draw),
)
