"""Double Back: a loop through every open cell that visits every region exactly twice.

**Rules.** Draw one loop through the centres of all the cells that are not blocked (from cell
to orthogonal neighbour, no branch, no crossing, never into a blocked cell). The loop visits
every region exactly twice: it enters each region twice and leaves it twice.

**The puzzle's text** (the corpus's notation, ``SmilingWayne/puzzlekit-dataset``): a line
``ROWS COLS``, then ROWS rows of region labels, ``#`` a blocked cell::

    2 4
    1 1 2 2
    1 # 2 2

**The exact-cover problem**, in Knuth's style (names of
:class:`~dlxsat.families.loops.LoopBoard`, docs/conventions.md §4):

- a primary item per open cell ``(2i, 2j)``, a vertex of the loop, and a secondary item per
  edge between two open cells, named by its midpoint, colored ``1`` (on the loop) or ``0``;
- the options of a cell: each pair of its edges on, the others off (every open cell is on the
  loop);
- "visits twice" is counted at the walls: a loop that visits a region twice crosses its walls
  exactly four times (in, out, in, out), and conversely four crossings make two visits (a loop
  wholly inside a region crosses nothing). So each edge between two regions gets a primary
  item ``#``\\ edge with two options, ``#e e:0`` (not crossed) and ``#e e:1 rA rB`` (crossed:
  the two regions' items), and each region an item ``rA`` (``r`` and its top cell's centre
  ``(2i+1, 2j+1)``) covered exactly four times (``4|r11``). The count is exact in the options:
  a cell that crosses out of its region on both sides would cover its region twice in one
  option, so the crossings are counted on the edges, not on the cells;
- the global rule ``|@loop``: the edges on form one cycle, added lazily by the backends.

**Formats.** puz.link ``doubleback/COLS/ROWS/BODY``: the walls
(:func:`~dlxsat.families.codecs.decode_border`), then the blocked cells, five a base-32 digit
(:func:`~dlxsat.families.codecs.decode_binary`; nothing when none is). pzprv3 (pzprjs writes
``pzprv3.2``): the walls (older files: room numbers), the cells (``*`` blocked), the line, the
player's marks. The answer grid is the corpus's line tokens, ``-`` for a blocked cell.
"""

from __future__ import annotations

from typing import Any

from ..xcc.model import Item, Problem
from . import regions as rg
from .loops import edges_on, line_answer, render_line
from .regions import Answer, RegionLoopPuzzle
from .spec import FamilySpec, Picture

NAME = "double-back"
TYPE = "doubleback"
BLOCK = "#"
#: Crossings of a region's walls: two visits.
CROSSINGS = 4


class DoubleBackPuzzle(RegionLoopPuzzle):
    """A Double Back board: its regions and blocked cells."""


def read(text: str) -> DoubleBackPuzzle:
    """The puzzle of the corpus's text (``#``, also ``@`` and ``x``: a blocked cell).

    >>> p = read("2 4\\n1 1 2 2\\n1 # 2 2\\n")
    >>> p.room, sorted(p.blocked)
    (((0, 0, 1, 1), (0, -1, 1, 1)), [(1, 1)])
    """
    m, n, (labels,) = rg.read_grids(text, 1, "double back")
    blocked = ("#", "@", "x")
    b = rg.board([[None if t in blocked else t for t in row] for row in labels], blocked=None)
    return DoubleBackPuzzle(b.room)


def write(puzzle: DoubleBackPuzzle) -> str:
    """The corpus's text (regions numbered from 1 in reading order)."""
    return f"{puzzle.m} {puzzle.n}\n" + "".join(r + "\n" for r in rg.region_rows(puzzle, BLOCK))


def room_item(puzzle: RegionLoopPuzzle, k: int) -> str:
    """Region k's item: ``r`` and its top cell's centre point."""
    i, j = puzzle.top(k)
    return "r" + puzzle.loop_board.name(2 * i + 1, 2 * j + 1)


def build(puzzle: DoubleBackPuzzle) -> Problem:
    """The exact-cover problem (see the module doc), with the single-loop rule."""
    lb = puzzle.loop_board
    b = rg.Builder()
    cells = [(i, j) for i in range(puzzle.m) for j in range(puzzle.n) if puzzle.is_open(i, j)]
    b.primary = [Item(lb.cell(i, j)) for i, j in cells]
    crossing = rg.crossings(puzzle)
    for e, _, _ in crossing:
        b.item("#" + lb.name(*e))
    rooms = [room_item(puzzle, k) for k in range(puzzle.room_count)]
    for name in rooms:
        b.item(name, CROSSINGS)
    used: set[str] = set()
    for i, j in cells:
        for _, entries in rg.shapes(puzzle, i, j, (2,), used):
            b.options.append([lb.cell(i, j), *entries])
    for e, r, s in crossing:
        name = lb.name(*e)
        used.add(name)  # (a cell with no shape, walled in by holes, uses it nowhere else)
        b.options.append(["#" + name, f"{name}:0"])
        b.options.append(["#" + name, f"{name}:1", rooms[r], rooms[s]])
    b.secondary = [e for e in lb.all_edges() if e in used]
    return b.problem()


def encode(puzzle: DoubleBackPuzzle) -> str:
    """The exact-cover data (Knuth's format, the board in its comment lines)."""
    return rg.Builder.text(["double-back:", *write(puzzle).splitlines()], build(puzzle))


def decode(puzzle: DoubleBackPuzzle, problem: Problem, chosen: Any) -> Answer:
    return line_answer(edges_on(problem, chosen))


def check(puzzle: DoubleBackPuzzle, answer: Answer) -> list[str]:
    """The rules, judged on the answer, in pzprjs's order: no branch, no crossing, no dead
    end, one loop, every open cell on it, every region visited twice (never into a blocked
    cell).

    >>> p = read("2 2\\n1 2\\n1 2\\n")
    >>> check(p, {"edges": [[0, 1], [1, 0], [1, 2], [2, 1]]})
    ['the loop enters the region at (1, 1) 1 time, not twice', \
'the loop enters the region at (1, 2) 1 time, not twice']
    """
    line = rg.read_line(puzzle, answer)
    out = line.wrong + rg.branches(line) + rg.crossings_of_line(line) + rg.dead_ends(line)
    if not out:
        out += rg.several_loops(line)
    out += rg.empty_cells(line)
    for k, c in enumerate(rg.passes(puzzle, line)):
        if c != CROSSINGS:
            s = "" if c // 2 == 1 else "s"
            out.append(f"the loop enters {rg.room_name(puzzle, k)} {c // 2} time{s}, not twice")
    return out


def render(puzzle: DoubleBackPuzzle, answer: Answer | None = None) -> str:
    """The loop (``#`` a blocked cell), then the regions as letters.

    >>> print(render(read("1 2\\n1 #\\n")))
    .   #
    <BLANKLINE>
    a#
    """
    return (
        render_line(puzzle.m, puzzle.n, answer, rg.glyph(puzzle)) + "\n\n" + rg.render_rooms(puzzle)
    )


def draw(canvas: Any, puzzle: DoubleBackPuzzle, answer: Answer | None) -> None:
    """The regions with their walls, the blocked cells grey, the loop."""
    rg.draw_board(canvas, puzzle, answer, small=False)


SPEC = FamilySpec(
    name=NAME,
    summary="Double Back: a loop through every open cell, visiting every region twice",
    aliases=(TYPE,),
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
    codecs=rg.country_codecs(
        DoubleBackPuzzle, NAME, TYPE, read, write, numbers=False, blocked=True
    ),
    picture=Picture(lambda p: (p.m, p.n), draw),
)
