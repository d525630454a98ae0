"""Aqre: numbered rooms, the shaded cells connected, no four alike in a row.

**Rules.** The board is divided into rooms by thick walls. Shade some cells so that the shaded
cells form one orthogonally connected area; a room with a number holds exactly that many shaded
cells; and no four consecutive cells of a row or column are all shaded, nor all white.
(pzprjs's ``b`` variant, two neighbours across a wall never alike, is another puzzle: dlxsat
refuses its URLs and files.)

**The puzzle's text** (the corpus's notation, ``SmilingWayne/puzzlekit-dataset``): a line
``ROWS COLS``, ROWS rows of numbers (``-`` none, ``?`` a number not given), then ROWS rows of
room labels (any tokens: a room is the connected cells of one label); a room's number may
stand in any of its cells, and is written back in its top cell (the top of its leftmost
column, pzprjs's place)::

    2 4
    3 - - -
    - - - -
    a a b b
    a a b b

**The exact-cover problem**, in Knuth's style (names of :class:`~dlxsat.families.shading.Names`:
cell (i, j) is the point (2i+1, 2j+1)):

- each cell is white or shaded (:class:`~dlxsat.families.shading.CellStates`): a primary item
  ``p13``, covered by the white option ``p13 13:0`` or the shaded one ``p13 13:1 ...``, whose
  secondary item ``13`` carries the cell's colour for the connected rule. A cell of a room
  numbered 0 has no shaded option;
- a primary item per numbered room, ``r`` and its top cell's name, covered by the shaded
  options of its cells exactly its number of times (``3|r11``);
- a primary item per *run* of four consecutive cells in a row (``h`` and its first cell's
  name) or a column (``v``...), covered by the shaded options of its cells one to three times
  (``1:3|h11``): neither all shaded nor all white;
- the global rule ``|@connected shaded``: the cells whose item is colored ``1`` are connected
  (:func:`~dlxsat.families.shading.cells_rule`).

**Formats.** puz.link ``aqre/COLS/ROWS/BODY``: the walls
(:func:`~dlxsat.families.codecs.decode_border`), then a number per room
(:func:`~dlxsat.families.codecs.decode_number16` in pzprjs's room order, on each room's top
cell), as Heyawake's. pzprv3: pzprjs writes ``pzprv3.1``, ``aqre``, ROWS, COLS, the walls (two
blocks), the numbers (``.`` none, ``-`` a ``?``), the cells (``#`` shaded, ``+`` a player's
mark, ``.``), then optionally the player's marks on borders (ignored); older ``pzprv3`` files
give the number of rooms and a room number per cell instead of the walls. The answer grid is
the corpus's: ``x`` shaded, ``-`` white.
"""

from __future__ import annotations

from typing import Any

from ..errors import InputError
from ..xcc.model import Problem
from . import regions as rg
from . import shading as sh
from .codecs import BLANK, QUESTION, read_pzprv3
from .heyawake import clue_cells, parse_rooms_file, write_rooms_file
from .hitori import draw_numbers
from .loops import cell_name
from .regions import RegionLoopPuzzle
from .spec import Codec, FamilySpec, Picture

Answer = dict[str, Any]
Cell = tuple[int, int]
NAME = TYPE = "aqre"
#: The longest line of alike cells allowed.
LONGEST = 3


class AqrePuzzle(RegionLoopPuzzle):
    """An Aqre board: its rooms and their numbers
    (:class:`~dlxsat.families.regions.RegionLoopPuzzle`'s; it has no blocked cells)."""

    def runs(self) -> list[tuple[str, list[Cell]]]:
        """The runs of :data:`LONGEST` + 1 consecutive cells: (``h`` or ``v``, the cells), the
        rows' first.

        >>> runs = read("1 5\\n- - - - -\\na a a a a\\n").runs()
        >>> [(kind, cells[0], cells[-1]) for kind, cells in runs]
        [('h', (0, 0), (0, 3)), ('h', (0, 1), (0, 4))]
        """
        m, n, k = self.m, self.n, LONGEST + 1
        out = [("h", [(i, j + d) for d in range(k)]) for i in range(m) for j in range(n - k + 1)]
        out += [("v", [(i + d, j) for d in range(k)]) for j in range(n) for i in range(m - k + 1)]
        return out


def read(text: str) -> AqrePuzzle:
    """The puzzle of the corpus's text.

    >>> p = read("2 3\\n- - -\\n- 2 -\\nx x y\\nx x y\\n")
    >>> p.rooms, p.clues
    ([[(0, 0), (0, 1), (1, 0), (1, 1)], [(0, 2), (1, 2)]], (2, -1))
    """
    _, _, (numbers, labels) = rg.read_grids(text, 2, NAME)
    cells = [
        [rg.read_number(tok, f"row {i + 1}, cell {j + 1}") for j, tok in enumerate(row)]
        for i, row in enumerate(numbers)
    ]
    b = rg.board(labels)
    return AqrePuzzle(b.room, rg.numbers_in_cells(b, cells))


def write(puzzle: AqrePuzzle) -> str:
    """The corpus's text (numbers on the rooms' top cells, rooms numbered from 1)."""
    return rg.write_numbered(puzzle)


def build(puzzle: AqrePuzzle) -> Problem:
    """The exact-cover problem (see the module doc)."""
    m, n = puzzle.m, puzzle.n
    names = sh.Names(m, n)
    b = sh.Builder()
    cells = [(i, j) for i in range(m) for j in range(n)]
    states = sh.CellStates(b, names, cells)
    covers: dict[Cell, list[str]] = {c: [] for c in cells}
    for k, part in enumerate(puzzle.rooms):
        v = puzzle.clue(k)
        if v >= 1:
            item = "r" + names.cell(*puzzle.top(k))
            b.item(item, v)
            for c in part:
                covers[c].append(item)
    shadeable = {(i, j) for i, j in cells if puzzle.clue(puzzle.room[i][j]) != 0}
    for kind, part in puzzle.runs():
        item = kind + names.cell(*part[0])
        b.item(item, 1, max(1, min(LONGEST, sum(c in shadeable for c in part))))
        for c in part:
            covers[c].append(item)
    for c in cells:
        b.options.append(states.white(c))
        if c in shadeable:
            b.options.append([*states.shaded(c), *covers[c]])
    problem = b.problem()
    return problem.with_rules(states.rule(problem, sh.SHADED_COLOUR, "shaded"))


def encode(puzzle: AqrePuzzle) -> str:
    """The exact-cover data (Knuth's format, the board in its comment lines, the rule in its
    ``|@`` lines)."""
    return sh.Builder.text(["aqre:", *write(puzzle).splitlines()], build(puzzle))


def decode(puzzle: AqrePuzzle, problem: Problem, chosen: Any) -> Answer:
    """The shaded cells: those the chosen options color shaded."""
    return sh.decode_shaded(puzzle, problem, chosen)


def check(puzzle: AqrePuzzle, answer: Answer) -> list[str]:
    """The rules, judged on the answer, in pzprjs's order: the shaded cells connected, the
    rooms' numbers, no four shaded cells in a line, no four white ones.

    >>> p = read("1 4\\n1 - - -\\na a b b\\n")
    >>> check(p, {"shaded": [[0, 1]]}), check(p, {"shaded": [[0, 0], [0, 2]]})[0]
    ([], 'the shaded cells are divided: (1, 3) is cut off from (1, 1)')
    """
    m, n = puzzle.m, puzzle.n
    shaded, out = sh.answer_cells(answer, sh.SHADED, m, n)
    pieces = sh.blocks(shaded)
    if len(pieces) > 1:
        out.append(
            f"the shaded cells are divided: {cell_name(*pieces[1][0])} is cut off from "
            f"{cell_name(*pieces[0][0])}"
        )
    for k, part in enumerate(puzzle.rooms):
        v = puzzle.clue(k)
        have = sum(c in shaded for c in part)
        if v >= 0 and have != v:
            word = "cell" if have == 1 else "cells"
            out.append(f"{rg.room_name(puzzle, k)} has {have} shaded {word}, not {v}")
    for state, what in ((True, "shaded"), (False, "white")):
        for _, part in puzzle.runs():
            if all((c in shaded) == state for c in part):
                out.append(
                    f"{LONGEST + 1} {what} cells in a line, from {cell_name(*part[0])} to "
                    f"{cell_name(*part[-1])}"
                )
    return out


def render(puzzle: AqrePuzzle, answer: Answer | None = None) -> str:
    """The rooms as letters, a room's number (0-9, ``+`` above, ``?``) on its top cell,
    ``#`` a shaded cell.

    >>> print(render(read("1 4\\n1 - - -\\na a b b\\n"), {"shaded": [[0, 1]]}))
    1#bb
    """
    shaded = sh.marked_cells(answer, sh.SHADED)
    letters = rg.render_rooms(puzzle).split("\n")

    def glyph(i: int, j: int) -> str:
        if (i, j) in shaded:
            return "#"
        v = puzzle.clue_at(i, j)
        if v == BLANK:
            return letters[i][j]
        return "?" if v == QUESTION else str(v) if v < 10 else "+"

    return sh.render_cells(puzzle.m, puzzle.n, glyph)


def draw(canvas: Any, puzzle: AqrePuzzle, answer: Answer | None) -> None:
    """The rooms with their walls and numbers, the shaded cells."""
    canvas.grid(puzzle.m, puzzle.n)
    draw_numbers(canvas, clue_cells(puzzle), sh.marked_cells(answer, sh.SHADED))
    canvas.walls(puzzle.room)


# ---------------------------------------------------------------------------------------------
# Formats


def read_url(text: str) -> AqrePuzzle:
    """A puz.link URL: the walls, then a number per room (pzprjs's ``b`` variant refused).

    >>> read_url("https://puzz.link/p?aqre/6/6/444400vvo3u0012345g").clues
    (0, 1, 2, 3, 4, 5, -1)
    """
    return rg.read_url(AqrePuzzle, NAME, text, numbers=True)


def write_url(puzzle: AqrePuzzle, answer: Answer | None = None) -> str:
    """The puz.link URL, as pzprjs writes it.

    >>> write_url(read_url("https://puzz.link/p?aqre/6/6/444400vvo3u0012345g"))
    'https://puzz.link/p?aqre/6/6/444400vvo3u0012345g\\n'
    """
    return rg.write_url(TYPE, puzzle, numbers=True)


def _parse_pzprv3(text: str) -> tuple[AqrePuzzle, set[Cell] | None]:
    _, _, lines = read_pzprv3(text, NAME)
    if lines and lines[0].strip() == "b":
        raise InputError(
            "this pzprv3 file is of pzprjs's aqre variant 'b' (neighbours across a wall never "
            "alike), another puzzle; dlxsat does not support it"
        )
    return parse_rooms_file(AqrePuzzle, NAME, text)


def read_file(text: str) -> AqrePuzzle:
    return _parse_pzprv3(text)[0]


def file_answer(puzzle: AqrePuzzle | None, text: str) -> Answer | None:
    """The answer a pzprv3 file holds (None: nothing shaded); with ``puzzle``, the file must
    hold that puzzle."""
    held, shaded = _parse_pzprv3(text)
    rg.same_board(NAME, puzzle, held)
    return sh.cells_answer(sh.SHADED, shaded) if shaded else None


def write_file(puzzle: AqrePuzzle, answer: Answer | None = None) -> str:
    """The pzprv3 file as pzprjs writes it (``pzprv3.1``), with the answer's shaded cells.

    >>> write_file(read("1 2\\n1 -\\na a\\n"), {"shaded": [[0, 0]]}).split("\\n")
    ['pzprv3.1', 'aqre', '1', '2', '0 ', '1 . ', '# . ', '']
    """
    return write_rooms_file(TYPE, puzzle, answer)


SPEC = FamilySpec(
    name=NAME,
    summary="Aqre: numbered rooms, the shaded cells connected, no four alike in a row",
    read=read,
    write=write,
    encode=encode,
    decode=decode,
    check=check,
    render=render,
    build=build,
    rules=("connected",),
    # Reading, encoding and parsing the corpus's three largest: up to 533 bytes a character
    # at the peak (tracemalloc), doubled.
    bytes_per_cell=1100,
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
