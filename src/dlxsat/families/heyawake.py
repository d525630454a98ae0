"""Heyawake: shaded cells apart, the white cells connected, numbered rooms, short white lines.

**Rules.** The board is divided into rooms by thick walls. Shade some cells so that no two
shaded cells are orthogonal neighbours; the white cells form one orthogonally connected area;
a room with a number holds exactly that many shaded cells; and no line of consecutive white
cells in a row or column crosses two walls (spans three rooms).

**The puzzle's text** (the corpus's notation, ``SmilingWayne/puzzlekit-dataset``): a line
``ROWS COLS``, ROWS rows of numbers (``-`` none, ``?`` a number not given), then ROWS rows of
room labels (any tokens: a room is the connected cells of one label); a room's number may
stand in any of its cells, and is written back in its top cell (the top of its leftmost
column, pzprjs's place)::

    2 3
    1 - -
    - - -
    a a b
    a a b

**The exact-cover problem**, in Knuth's style (names of :class:`~dlxsat.families.shading.Names`:
cell (i, j) is the point (2i+1, 2j+1), the wall between two cells their midpoint):

- each cell is white or shaded (:class:`~dlxsat.families.shading.CellStates`): a primary item
  ``p13``, covered by the white option ``p13 13:0`` or the shaded one ``p13 13:1 ...``, whose
  secondary item ``13`` colors the neighbours' items ``0``: no two shaded cells touch. A cell
  of a room numbered 0 has no shaded option;
- no white cell, nor white cross, is walled in by shaded cells: a primary item per cell for
  its neighbours (``n13``) and one for the cells two steps away (``d13``), covered by their
  white options at least once (``CellStates``'s ``rings``). The connected rule implies both;
  stated locally they spare it its most frequent cuts (on the corpus's largest, 350_31x45,
  1,558 cuts and 15 s become 62 cuts and 3.5 s);
- a primary item per numbered room, ``r`` and its top cell's name, covered by the shaded
  options of its cells exactly its number of times (``3|r11``);
- a primary item per *window*: the cells of a row (or column) from the cell before one wall to
  the cell after the next wall along it, ``w`` and the first wall's name, covered by the shaded
  options of its cells at least once (``1:5|w14`` for a window of five): no white line crosses
  those two walls. Every line crossing two walls holds the window of two consecutive ones;
- the global rule ``|@connected white``: the cells whose item is colored ``0`` are connected
  (:func:`~dlxsat.families.shading.cells_rule`).

A board that all white keeps every rule (no window, no room numbered above 0) would have that
answer, which pzprjs refuses (it wants a shaded cell): there an item ``x`` is covered by the
shaded options at least once.

**Formats.** puz.link ``heyawake/COLS/ROWS/BODY`` (pzprjs reads ``heyawacky`` too): the walls
(:func:`~dlxsat.families.codecs.decode_border`), then a number per room
(:func:`~dlxsat.families.codecs.decode_number16` in pzprjs's room order, on each room's top
cell). pzprv3: pzprjs writes ``pzprv3.1``, ``heyawake``, ROWS, COLS, the walls (two blocks),
the numbers (``.`` none, ``-`` a ``?``), the cells (``#`` shaded, ``+`` a player's mark,
``.``), then optionally the player's marks on borders (ignored); older ``pzprv3`` files give
the number of rooms and a room number per cell instead of the walls. The answer grid is the
corpus's: ``x`` shaded, ``-`` white.
"""

from __future__ import annotations

from typing import Any

from ..xcc.model import Problem
from . import regions as rg
from . import shading as sh
from .codecs import BLANK, QUESTION, number_rows, read_numbers, read_pzprv3, write_block
from .hitori import apart, connected_white, draw_numbers
from .loops import cell_name
from .regions import RegionLoopPuzzle
from .spec import Codec, FamilySpec, Picture

Answer = dict[str, Any]
Cell = tuple[int, int]
NAME = TYPE = "heyawake"
ALIASES = ("heyawacky",)


class HeyawakePuzzle(RegionLoopPuzzle):
    """A Heyawake board: its rooms and their numbers
    (:class:`~dlxsat.families.regions.RegionLoopPuzzle`'s; it has no blocked cells)."""

    def lines(self) -> list[list[Cell]]:
        """The rows, then the columns, as lists of cells."""
        m, n = self.m, self.n
        return [[(i, j) for j in range(n)] for i in range(m)] + [
            [(i, j) for i in range(m)] for j in range(n)
        ]

    def windows(self) -> list[tuple[tuple[int, int], list[Cell]]]:
        """The windows (see the module doc): (the first wall's midpoint, the cells), the rows'
        then the columns'.

        >>> read("1 4\\n- - - -\\na b c c\\n").windows()
        [((1, 2), [(0, 0), (0, 1), (0, 2)])]
        """
        room = self.room
        out = []
        for line in self.lines():
            walls = [
                k for k in range(len(line) - 1) if _room(room, line[k]) != _room(room, line[k + 1])
            ]
            for a, b in zip(walls, walls[1:], strict=False):
                (i, j), (p, q) = line[a], line[a + 1]
                out.append(((i + p + 1, j + q + 1), line[a : b + 2]))
        return out


def _room(room: tuple[tuple[int, ...], ...], c: Cell) -> int:
    return room[c[0]][c[1]]


def read(text: str) -> HeyawakePuzzle:
    """The puzzle of the corpus's text.

    >>> p = read("2 3\\n- - -\\n- 2 -\\nx x y\\nx x y\\n")
    >>> p.rooms, p.clues
    ([[(0, 0), (0, 1), (1, 0), (1, 1)], [(0, 2), (1, 2)]], (2, -1))
    """
    _, _, (numbers, labels) = rg.read_grids(text, 2, "heyawake")
    cells = [
        [rg.read_number(tok, f"row {i + 1}, cell {j + 1}") for j, tok in enumerate(row)]
        for i, row in enumerate(numbers)
    ]
    b = rg.board(labels)
    return HeyawakePuzzle(b.room, rg.numbers_in_cells(b, cells))


def write(puzzle: HeyawakePuzzle) -> str:
    """The corpus's text (numbers on the rooms' top cells, rooms numbered from 1)."""
    return rg.write_numbered(puzzle)


def room_item(names: sh.Names, puzzle: RegionLoopPuzzle, k: int) -> str:
    """Room k's item: ``r`` and its top cell's name."""
    return "r" + names.cell(*puzzle.top(k))


def build(puzzle: HeyawakePuzzle) -> Problem:
    """The exact-cover problem (see the module doc)."""
    m, n = puzzle.m, puzzle.n
    names = sh.Names(m, n)
    b = sh.Builder()
    cells = [(i, j) for i in range(m) for j in range(n)]
    states = sh.CellStates(b, names, cells, rings=2)
    covers: dict[Cell, list[str]] = {c: [] for c in cells}
    for k, part in enumerate(puzzle.rooms):
        v = puzzle.clue(k)
        if v >= 1:
            item = room_item(names, puzzle, k)
            b.item(item, v)
            for c in part:
                covers[c].append(item)
    shadeable = {(i, j) for i, j in cells if puzzle.clue(puzzle.room[i][j]) != 0}
    windows = puzzle.windows()
    for wall, part in windows:
        item = "w" + names.name(*wall)
        b.item(item, 1, max(1, sum(c in shadeable for c in part)))
        for c in part:
            covers[c].append(item)
    if not windows and not any(puzzle.clue(k) >= 1 for k in range(puzzle.room_count)):
        # All white would keep every rule; pzprjs wants a shaded cell.
        b.item("x", 1, max(1, len(shadeable)))
        for c in shadeable:
            covers[c].append("x")
    for c in cells:
        b.options.append(states.white(c))
        if c in shadeable:
            b.options.append([*states.shaded(c, apart=True), *covers[c]])
    sh.some_shaded(b, names, check(puzzle, {"shaded": []}))
    problem = b.problem()
    return problem.with_rules(states.rule(problem, sh.WHITE_COLOUR, "white"))


def encode(puzzle: HeyawakePuzzle) -> str:
    """The exact-cover data (Knuth's format, the board in its comment lines, the rule in its
    ``|@`` lines)."""
    return sh.Builder.text(["heyawake:", *write(puzzle).splitlines()], build(puzzle))


def decode(puzzle: HeyawakePuzzle, problem: Problem, chosen: Any) -> Answer:
    """The shaded cells: those the chosen options color shaded."""
    return sh.decode_shaded(puzzle, problem, chosen)


def check(puzzle: HeyawakePuzzle, answer: Answer) -> list[str]:
    """The rules, judged on the answer, in pzprjs's order: a shaded cell at all, shaded cells
    apart, the white cells connected, the rooms' numbers, no white line across two walls.

    >>> p = read("2 2\\n1 -\\n- -\\na b\\na b\\n")
    >>> check(p, {"shaded": [[0, 0]]}), check(p, {"shaded": [[1, 1]]})[0]
    ([], 'the region at (1, 1) has 0 shaded cells, not 1')
    """
    m, n = puzzle.m, puzzle.n
    shaded, out = sh.answer_cells(answer, sh.SHADED, m, n)
    if not shaded:
        out.append(sh.NO_SHADED_CELL)
    out += apart(shaded)
    out += connected_white(m, n, shaded)
    for k, part in enumerate(puzzle.rooms):
        v = puzzle.clue(k)
        have = sum(c in shaded for c in part)
        if v >= 0 and have != v:
            word = "cell" if have == 1 else "cells"
            out.append(f"{rg.room_name(puzzle, k)} has {have} shaded {word}, not {v}")
    room = puzzle.room
    for line in puzzle.lines():
        run: list[Cell] = []
        for c in [*line, None]:
            if c is not None and c not in shaded:
                run.append(c)
                continue
            walls = sum(
                _room(room, a) != _room(room, b) for a, b in zip(run, run[1:], strict=False)
            )
            if walls > 1:
                out.append(
                    f"the white cells from {cell_name(*run[0])} to {cell_name(*run[-1])} "
                    f"run across {walls} walls, more than one"
                )
            run = []
    return out


def render(puzzle: HeyawakePuzzle, answer: Answer | None = None) -> str:
    """The rooms as letters, a room's number (0-9, ``+`` above, ``?``) on its top cell,
    ``#`` a shaded cell.

    >>> print(render(read("1 3\\n- 1 -\\na b c\\n"), {"shaded": [[0, 1]]}))
    a#c
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


def clue_cells(puzzle: RegionLoopPuzzle) -> tuple[tuple[int, ...], ...]:
    """The number written in each cell (on the rooms' top cells)."""
    return tuple(tuple(puzzle.clue_at(i, j) for j in range(puzzle.n)) for i in range(puzzle.m))


def draw(canvas: Any, puzzle: HeyawakePuzzle, answer: Answer | None) -> None:
    """The rooms with their walls and numbers, the shaded cells."""
    canvas.grid(puzzle.m, puzzle.n)
    draw_numbers(canvas, clue_cells(puzzle), sh.marked_cells(answer, sh.SHADED))
    canvas.walls(puzzle.room)


# ---------------------------------------------------------------------------------------------
# Formats


def read_url(text: str) -> HeyawakePuzzle:
    """A puz.link URL: the walls, then a number per room.

    >>> read_url("https://puzz.link/p?heyawake/6/6/lll155007rs12222j").clues
    (2, 2, 2, 2, -1, -1, -1, -1)
    """
    return rg.read_url(HeyawakePuzzle, NAME, text, numbers=True)


def write_url(puzzle: HeyawakePuzzle, answer: Answer | None = None) -> str:
    """The puz.link URL, as pzprjs writes it.

    >>> write_url(read_url("https://puzz.link/p?heyawacky/6/6/lll155007rs12222j"))
    'https://puzz.link/p?heyawake/6/6/lll155007rs12222j\\n'
    """
    return rg.write_url(TYPE, puzzle, numbers=True)


def parse_rooms_file(cls: type[rg.P], family: str, text: str) -> tuple[rg.P, set[Cell] | None]:
    """A pzprv3 file of pzprjs's ``heyawake.js`` and ``aqre.js`` genres (after the config
    line, if the genre has one): the walls (``pzprv3.1``) or the number of rooms and a room
    number per cell (``pzprv3``), the numbers (``.`` none, ``-`` a ``?``, a room's number in any
    of its cells), then the cells; the shaded ones (None: the file ends before them)."""
    version = rg.pzprv3_version(text)
    rows, cols, lines = read_pzprv3(text, family)
    if not any(line.strip() for line in lines):
        # The header alone: pzprjs opens an empty board, one room without a number.
        b = rg.from_walls(cols, rows, [0] * (rows * (cols - 1)), [0] * ((rows - 1) * cols))
        return cls(b.room, (BLANK,)), None
    vert, horiz, at = rg.read_rooms(version, lines, 0, rows, cols, walls_version="pzprv3.1")
    b = rg.from_walls(cols, rows, vert, horiz)
    numbers = read_numbers(list(lines), at, rows, cols)
    puzzle = cls(b.room, rg.numbers_in_cells(b, numbers))
    return puzzle, sh.read_ans_block(lines, at + rows, rows, cols)


def write_rooms_file(
    kind: str, puzzle: RegionLoopPuzzle, answer: Answer | None, head: tuple[str, ...] = ()
) -> str:
    """The pzprv3 file of :func:`parse_rooms_file` as pzprjs writes it (``pzprv3.1``), with
    ``head`` (a config line) before the walls."""
    m, n = puzzle.m, puzzle.n
    lines = ["pzprv3.1", kind, str(m), str(n), *head]
    lines += write_block(rg.wall_rows(puzzle))
    lines += write_block(number_rows(clue_cells(puzzle)))
    lines += write_block(sh.ans_rows(m, n, sh.marked_cells(answer, sh.SHADED)))
    return "\n".join(lines) + "\n"


def read_file(text: str) -> HeyawakePuzzle:
    return parse_rooms_file(HeyawakePuzzle, NAME, text)[0]


def file_answer(puzzle: HeyawakePuzzle | None, text: str) -> Answer | None:
    """The answer a pzprv3 file holds (None: nothing shaded); with ``puzzle``, the file must
    hold that puzzle."""
    held, shaded = parse_rooms_file(HeyawakePuzzle, NAME, text)
    rg.same_board(NAME, puzzle, held)
    return sh.cells_answer(sh.SHADED, shaded) if shaded else None


def write_file(puzzle: HeyawakePuzzle, answer: Answer | None = None) -> str:
    """The pzprv3 file as pzprjs writes it (``pzprv3.1``), with the answer's shaded cells.

    >>> write_file(read("1 2\\n1 -\\na a\\n"), {"shaded": [[0, 0]]}).split("\\n")
    ['pzprv3.1', 'heyawake', '1', '2', '0 ', '1 . ', '# . ', '']
    """
    return write_rooms_file(TYPE, puzzle, answer)


SPEC = FamilySpec(
    name=NAME,
    summary="Heyawake: numbered rooms, shaded cells apart, white cells connected, short lines",
    aliases=ALIASES,
    read=read,
    write=write,
    encode=encode,
    decode=decode,
    check=check,
    render=render,
    build=build,
    rules=("connected",),
    # SAT, not auto: DLX's trees here run to hundreds or thousands of nodes an item on most
    # boards past 10 x 10 (a cell is shaded or not, and only the white cells' connection and
    # the rooms' counts prune), and where DLX wins SAT is within 1.8 x of it, so auto's trial
    # costs more than it saves. On published boards of at most 225 cells (10 a sample, best of
    # 2, engines loaded; benchmarks/published.py, 2026-11-28 seeds 66 and 67, and seed 62 of
    # the session before), over the virtual best engine: sat 1.01, 1.24, 1.03 against auto's
    # 1.67, 1.41, 1.63; on the corpus's three largest (31 x 45) sat 0.31, 0.32, 0.28 s against
    # auto's 0.56, 0.33, 0.32 s.
    default_backend="sat",
    # Reading, encoding and parsing the corpus's three largest: up to 916 bytes a character
    # at the peak (tracemalloc), doubled.
    bytes_per_cell=1900,
    formats=("knuth", "puzzlink", "pzprv3", "grid"),
    writes=("knuth", "puzzlink", "pzprv3", "grid"),
    answers=("pzprv3", "grid"),
    codecs={
        "puzzlink": Codec(read=read_url, write=write_url, names=(TYPE, *ALIASES)),
        "pzprv3": Codec(
            read=read_file, write=write_file, answer=file_answer, names=(TYPE, *ALIASES)
        ),
        "grid": sh.shaded_grid_codec(read, write),
    },
    picture=Picture(lambda p: (p.m, p.n), draw),
)
