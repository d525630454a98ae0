"""Country Road: a loop that visits every region once; numbers count the visited cells.

**Rules.** Draw one loop through the centres of cells (from cell to orthogonal neighbour, no
branch, no crossing). It visits every region (country) exactly once: it enters it once and
leaves it once. A region's number says how many of its cells the loop visits. Two orthogonally
adjacent cells in different regions are not both left unvisited. (Janko's boards have blocked
cells, the corpus's ``@``: in no region, never visited, and no neighbour of theirs counts as in
another region.)

**The puzzle's text** (the corpus's notation, ``SmilingWayne/puzzlekit-dataset``): a line
``ROWS COLS``, ROWS rows of numbers (``-`` none; a region's number in any one of its cells),
then ROWS rows of region labels, ``@`` a blocked cell::

    2 3
    2 - -
    - - -
    1 1 2
    1 2 2

**The exact-cover problem**, in Knuth's style (names of
:class:`~dlxsat.families.loops.LoopBoard`, docs/conventions.md §4):

- a primary item per open cell ``(2i, 2j)``, a vertex of the loop, and a secondary item per
  edge between two open cells, named by its midpoint, colored ``1`` (on the loop) or ``0``;
- the options of a cell: off the loop (all its edges ``0``), or each pair of its edges on;
- *a number* is a primary item named by its region's top cell's centre ``(2i+1, 2j+1)``,
  covered exactly that many times (``3|11``) by the on-the-loop options of the region's cells
  (a region numbered 0 loses them);
- *once per region* is counted at the walls: a loop that visits a region once crosses its
  walls exactly twice, and twice crossed means one visit (a loop wholly inside one region
  crosses nothing, so "every region twice" also says "every region visited", when there are two
  regions or more). Each edge between two regions gets a primary item ``#``\\ edge whose options
  are ``#e e:1 rA rB`` (crossed: it covers both regions' items ``rA`` -- ``r`` and the top
  cell's centre -- each covered exactly twice, ``2|r11``) and ``#e e:0`` (not crossed);
- *not both unvisited*: the off-the-loop option of a cell also covers the ``#`` item of each of
  its edges into another region. ``#e`` is covered exactly once, so of "crossed", "not crossed,
  both visited", "cell a off the loop", "cell b off the loop" exactly one holds: both cells off
  the loop would cover it twice. The rule costs no item and no option;
- the global rule ``|@loop``: the edges on form one cycle, added lazily by the backends.

**Formats.** puz.link ``country/COLS/ROWS/BODY``: the walls
(:func:`~dlxsat.families.codecs.decode_border`), then a number per region in pzprjs's order
(:func:`~dlxsat.families.codecs.decode_number16`, written on the region's top cell). pzprv3
(pzprjs writes ``pzprv3.2``): a flags line (empty), the walls (older files: room numbers), the
numbers, the line, the player's marks. The flag ``e`` / ``country_empty`` (regions may stay
unvisited) changes the rules and is refused; so is writing a board with blocked cells, which
pzprjs's Country Road has not. The answer grid is the corpus's line tokens.
"""

from __future__ import annotations

from typing import Any

from ..xcc.model import Item, Problem
from . import regions as rg
from .loops import cell_name, edges_on, line_answer, render_line
from .regions import Answer, RegionLoopPuzzle
from .spec import FamilySpec, Picture

NAME = "country-road"
TYPE = "country"
BLOCK = "@"
#: Crossings of a region's walls: one visit.
CROSSINGS = 2


class CountryRoadPuzzle(RegionLoopPuzzle):
    """A Country Road board: its regions, their numbers, its blocked cells."""


def read(text: str) -> CountryRoadPuzzle:
    """The puzzle of the corpus's text (``@``, also ``#`` and ``x``: a blocked cell).

    >>> read("2 3\\n2 - -\\n- - -\\n1 1 2\\n1 2 2\\n").clues
    (2, -1)
    """
    return rg.read_numbered(CountryRoadPuzzle, text, "country road", blocked=("@", "#", "x"))


def write(puzzle: CountryRoadPuzzle) -> str:
    """The corpus's text (each number on its region's top cell)."""
    return rg.write_numbered(puzzle, BLOCK)


def room_item(puzzle: RegionLoopPuzzle, k: int) -> str:
    """Region k's item of visits: ``r`` and its top cell's centre point."""
    i, j = puzzle.top(k)
    return "r" + puzzle.loop_board.name(2 * i + 1, 2 * j + 1)


def build(puzzle: CountryRoadPuzzle) -> Problem:
    """The exact-cover problem (see the module doc), with the single-loop rule."""
    lb = puzzle.loop_board
    b = rg.Builder()
    cells = [(i, j) for i in range(puzzle.m) for j in range(puzzle.n) if puzzle.is_open(i, j)]
    b.primary = [Item(lb.cell(i, j)) for i, j in cells]
    crossing = rg.crossings(puzzle)
    for e, _, _ in crossing:
        b.item("#" + lb.name(*e))
    visits = puzzle.room_count > 1
    rooms = [room_item(puzzle, k) for k in range(puzzle.room_count)]
    clue_item: dict[int, str] = {}
    for k in range(puzzle.room_count):
        if visits:
            b.item(rooms[k], CROSSINGS)
        v = puzzle.clue(k)
        if v > 0:
            i, j = puzzle.top(k)
            clue_item[k] = lb.name(2 * i + 1, 2 * j + 1)
            b.item(clue_item[k], v)
    borders: dict[tuple[int, int], list[str]] = {}
    for e, _, _ in crossing:
        for cell in rg.edge_cells(e):
            borders.setdefault(cell, []).append("#" + lb.name(*e))
    used: set[str] = set()
    for i, j in cells:
        k = puzzle.room[i][j]
        for on, entries in rg.shapes(puzzle, i, j, (0, 2), used):
            if not on:
                b.options.append([lb.cell(i, j), *entries, *borders.get((i, j), [])])
            elif k in clue_item:
                b.options.append([lb.cell(i, j), *entries, clue_item[k]])
            elif puzzle.clue(k) != 0:
                b.options.append([lb.cell(i, j), *entries])
    for e, r, s in crossing:
        name = lb.name(*e)
        b.options.append(["#" + name, f"{name}:0"])
        b.options.append(["#" + name, f"{name}:1", rooms[r], rooms[s]])
    b.secondary = [e for e in lb.all_edges() if e in used]
    return b.problem()


def encode(puzzle: CountryRoadPuzzle) -> str:
    """The exact-cover data (Knuth's format, the board in its comment lines)."""
    return rg.Builder.text(["country-road:", *write(puzzle).splitlines()], build(puzzle))


def decode(puzzle: CountryRoadPuzzle, problem: Problem, chosen: Any) -> Answer:
    return line_answer(edges_on(problem, chosen))


def check(puzzle: CountryRoadPuzzle, answer: Answer) -> list[str]:
    """The rules, judged on the answer, in pzprjs's order: no branch, no crossing, no region
    passed twice, each number right, every region visited, no two unvisited neighbours in
    different regions, no dead end, one loop (never into a blocked cell).

    >>> p = read("2 2\\n- -\\n- -\\n1 2\\n1 2\\n")
    >>> check(p, {"edges": [[0, 1], [1, 0], [1, 2], [2, 1]]})
    []
    >>> check(p, {"edges": []})[0]
    'the loop does not visit the region at (1, 1)'
    """
    line = rg.read_line(puzzle, answer)
    out = line.wrong + rg.branches(line) + rg.crossings_of_line(line)
    crossed = rg.passes(puzzle, line) if puzzle.room_count > 1 else [CROSSINGS]
    for k, c in enumerate(crossed):
        if c > CROSSINGS:
            out.append(
                f"the loop passes through {rg.room_name(puzzle, k)} more than once "
                f"({c} crossings of its walls)"
            )
    for k, cells in enumerate(puzzle.rooms):
        v = puzzle.clue(k)
        visited = sum(line.degree[c] > 0 for c in cells)
        if v >= 0 and visited != v:
            s = "" if visited == 1 else "s"
            out.append(f"{rg.room_name(puzzle, k)} has {visited} cell{s} on the loop, not {v}")
    for k, cells in enumerate(puzzle.rooms):
        if not any(line.degree[c] for c in cells):
            out.append(f"the loop does not visit {rg.room_name(puzzle, k)}")
    for e, _, _ in rg.crossings(puzzle):
        a, b = rg.edge_cells(e)
        if not line.degree[a] and not line.degree[b]:
            out.append(
                f"cells {cell_name(*a)} and {cell_name(*b)}, in different regions, are both "
                "off the loop"
            )
    out += rg.dead_ends(line)
    if not any(d in (1, 3, 4) for d in line.degree.values()):
        out += rg.several_loops(line)
    if not out and not line.edges:
        out.append("there is no loop")
    return out


def render(puzzle: CountryRoadPuzzle, answer: Answer | None = None) -> str:
    """The loop over the numbers (on each region's top cell), then the regions as letters.

    >>> print(render(read("1 3\\n2 - -\\n1 1 @\\n")))
    2   .   #
    <BLANKLINE>
    aa#
    """
    return (
        render_line(puzzle.m, puzzle.n, answer, rg.glyph(puzzle)) + "\n\n" + rg.render_rooms(puzzle)
    )


def draw(canvas: Any, puzzle: CountryRoadPuzzle, answer: Answer | None) -> None:
    """The regions with their walls, the numbers, the blocked cells grey, the loop."""
    rg.draw_board(canvas, puzzle, answer, small=False)


SPEC = FamilySpec(
    name=NAME,
    summary="Country Road: a loop visiting every region once; numbers count visited cells",
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
        CountryRoadPuzzle, NAME, TYPE, read, write, numbers=True, flags_line=True
    ),
    picture=Picture(lambda p: (p.m, p.n), draw),
)
