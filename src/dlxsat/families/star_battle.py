"""Star Battle: K stars in every row, column and region, no two touching.

**Rules.** Place stars in cells so that every row, every column and every region (the board
is divided by thick walls) holds exactly K of them, and no two stars touch, not even
diagonally. (Janko's boards may have cells in no region, the corpus's ``@`` or ``#``: they hold
no star.)

**The puzzle's text** (the corpus's notation, ``SmilingWayne/puzzlekit-dataset``): a line
``ROWS COLS K``, then ROWS rows of region labels (a region: the connected cells of one label),
``@`` or ``#`` a cell in no region::

    4 4 1
    1 1 2 2
    1 1 2 2
    3 3 4 4
    3 3 4 4

**The exact-cover problem**, in Knuth's style -- his n queens, with regions and a tighter
neighbourhood (names of :class:`~dlxsat.families.shading.Names`: cell (i, j) is the point
(2i+1, 2j+1), grid point (i, j) is (2i, 2j)):

- a primary item per region (named by its top cell, ``13``; the smallest regions first), per
  row, ``row0``, ``row1``, ..., and per column, ``col0``, ..., each covered exactly K times
  (``2|row0`` when K is 2);
- a secondary item per 2 x 2 block of cells, named by its centre, the grid point inside it
  (``22``). Two cells touch, orthogonally or diagonally, exactly when some 2 x 2 block holds
  both (on a board one cell high or wide: a secondary item per pair of neighbours, named by
  the grid point between them);
- an option per star, on each cell in a region: its row, its column, its region and, uncolored,
  the blocks it is in (up to four). A block holds one star at most, so no two stars touch. The
  cells without a star need no option; there is no global rule.

**Formats.** puz.link ``starbattle/COLS/ROWS/K/BODY``: K in its own segment, then the walls
(:func:`~dlxsat.families.codecs.decode_border`; a URL without K has one star). pzprv3:
``pzprv3``, ``starbattle``, ROWS, COLS, K, the number of regions and a region number per cell,
then the cells (``#`` a star, ``+`` a player's mark, ``.``). pzprjs has no cells outside the
regions: a board with some is written in neither. The answer grid is the corpus's: its size
line ``ROWS COLS K``, ``x`` a star, ``-`` none.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..errors import InputError
from ..xcc.model import Problem
from . import regions as rg
from . import shading as sh
from .codecs import decode_border, encode_border, make_url, read_pzprv3, url_of, write_block
from .loops import cell_name
from .regions import BLOCKED, Answer, RegionLoopPuzzle
from .spec import Codec, FamilySpec, Picture

NAME = "star-battle"
#: puz.link's and pzprjs's name.
TYPE = "starbattle"
STAR, EMPTY = "x", "-"
#: The corpus's marks of a cell in no region (``HOLE`` is written).
HOLES, HOLE = ("@", "#"), "#"
_HEADER = re.compile(r"\s*(\d+)\s+(\d+)(?:\s+(\d+))?\s*")


@dataclass(frozen=True)
class StarBattlePuzzle(RegionLoopPuzzle):
    """A Star Battle board: its regions (cells in none are
    :data:`~dlxsat.families.regions.BLOCKED`) and ``stars``, K."""

    stars: int = 1


def read(text: str) -> StarBattlePuzzle:
    """The puzzle of the corpus's text (a size line without K: one star).

    >>> p = read("2 3 1\\n1 1 2\\n@ 2 2\\n")
    >>> p.stars, p.rooms, sorted(p.blocked)
    (1, [[(0, 0), (0, 1)], [(0, 2), (1, 1), (1, 2)]], [(1, 0)])
    """
    lines = rg.grid_lines(text)
    head = _HEADER.fullmatch(" ".join(lines[0])) if lines else None
    if head is None:
        raise InputError("line 1: a star battle begins with its size and stars, ROWS COLS K")
    stars = int(head[3] or 1)
    if stars < 1:
        raise InputError("line 1: K, the stars in every row, column and region, is at least 1")
    body = "\n".join([f"{head[1]} {head[2]}", *(" ".join(row) for row in lines[1:])])
    m, n, (labels,) = rg.read_grids(body, 1, "star battle")
    b = rg.board([[None if t in HOLES else t for t in row] for row in labels], blocked=None)
    return StarBattlePuzzle(b.room, stars=stars)


def write(puzzle: StarBattlePuzzle) -> str:
    """The corpus's text (regions numbered from 1 in reading order, ``#`` no region)."""
    rows = [f"{puzzle.m} {puzzle.n} {puzzle.stars}", *rg.region_rows(puzzle, HOLE)]
    return "".join(r + "\n" for r in rows)


def blocks_of(m: int, n: int, i: int, j: int) -> list[tuple[int, int]]:
    """The grid points (i, j) that name the blocks cell (i, j) is in: the inner corners of the
    cell, or on a board one cell high or wide the points it shares with a neighbour.

    >>> blocks_of(3, 3, 0, 0), blocks_of(1, 3, 0, 1)
    ([(1, 1)], [(0, 1), (0, 2)])
    """
    corners = [(i + a, j + b) for a in (0, 1) for b in (0, 1)]
    if m > 1 and n > 1:
        return [(p, q) for p, q in corners if 0 < p < m and 0 < q < n]
    if m == 1:
        return [(0, q) for q in (j, j + 1) if 0 < q < n]
    return [(p, 0) for p in (i, i + 1) if 0 < p < m]


def build(puzzle: StarBattlePuzzle) -> Problem:
    """The exact-cover problem (see the module doc)."""
    m, n, k = puzzle.m, puzzle.n, puzzle.stars
    names = sh.Names(m, n)
    b = sh.Builder()
    region = [names.cell(*puzzle.top(r)) for r in range(puzzle.room_count)]
    # The regions come first, the smallest first: Algorithm M breaks a tie of its choice by
    # the leftmost item, and a region is more constrained than a row or column of as many
    # options left (its cells touch one another). Measured on the 307 published boards of at
    # most 225 cells: 7.36 million nodes against 10.07 million with rows, columns, regions.
    for r in sorted(range(puzzle.room_count), key=lambda r: (len(puzzle.rooms[r]), r)):
        b.item(region[r], k)
    for i in range(m):
        b.item(f"row{i}", k)
    for j in range(n):
        b.item(f"col{j}", k)
    points: set[tuple[int, int]] = set()
    for i in range(m):
        for j in range(n):
            if puzzle.room[i][j] == BLOCKED:
                continue
            near = blocks_of(m, n, i, j)
            points.update(near)
            b.options.append(
                [f"row{i}", f"col{j}", region[puzzle.room[i][j]], *(names.point(*p) for p in near)]
            )
    b.secondary = [names.point(*p) for p in sorted(points)]
    return b.problem()


def encode(puzzle: StarBattlePuzzle) -> str:
    """The exact-cover data (Knuth's format, the board in its comment lines)."""
    return sh.Builder.text(["star-battle:", *write(puzzle).splitlines()], build(puzzle))


def decode(puzzle: StarBattlePuzzle, problem: Problem, chosen: Any) -> Answer:
    """The stars: the row and column of each chosen option."""
    stars = []
    for k in chosen:
        row, col = (problem.items[x].name for x, _ in problem.options[k][:2])
        stars.append((int(row[3:]), int(col[3:])))
    return sh.cells_answer(sh.STARS, stars)


def check(puzzle: StarBattlePuzzle, answer: Answer) -> list[str]:
    """The rules, judged on the answer, in pzprjs's order: no two stars touch, no region with
    more than K, none with fewer, every row and column with K (and no star outside the
    regions).

    >>> p = read("4 4 1\\n1 1 2 2\\n1 1 2 2\\n3 3 4 4\\n3 3 4 4\\n")
    >>> check(p, {"stars": [[0, 0], [1, 1]]})[0]
    'the stars at (1, 1) and (2, 2) touch'
    """
    m, n, k = puzzle.m, puzzle.n, puzzle.stars
    stars, out = sh.answer_cells(answer, sh.STARS, m, n)
    for c in sorted(stars & puzzle.blocked):
        out.append(f"a star on cell {cell_name(*c)}, which is in no region")
    for i, j in sorted(stars):
        for p, q in ((i, j + 1), (i + 1, j - 1), (i + 1, j), (i + 1, j + 1)):
            if (p, q) in stars:
                out.append(f"the stars at {cell_name(i, j)} and {cell_name(p, q)} touch")
    count = [sum(c in stars for c in cells) for cells in puzzle.rooms]
    for r, have in enumerate(count):
        if have > k:
            out.append(f"{rg.room_name(puzzle, r)} has {have} stars, more than {k}")
    for r, have in enumerate(count):
        if have < k:
            out.append(f"{rg.room_name(puzzle, r)} has {have} stars, fewer than {k}")
    for i in range(m):
        have = sum((i, j) in stars for j in range(n))
        if have != k:
            out.append(f"row {i + 1} has {have} stars, not {k}")
    for j in range(n):
        have = sum((i, j) in stars for i in range(m))
        if have != k:
            out.append(f"column {j + 1} has {have} stars, not {k}")
    return out


def render(puzzle: StarBattlePuzzle, answer: Answer | None = None) -> str:
    """The regions as letters (``#`` no region), ``*`` a star.

    >>> print(render(read("2 2 1\\n1 2\\n1 2\\n"), {"stars": [[0, 0]]}))
    *b
    ab
    """
    stars = sh.marked_cells(answer, sh.STARS)
    letters = rg.render_rooms(puzzle).split("\n")
    return sh.render_cells(
        puzzle.m, puzzle.n, lambda i, j: "*" if (i, j) in stars else letters[i][j]
    )


def draw(canvas: Any, puzzle: StarBattlePuzzle, answer: Answer | None) -> None:
    """The regions with their walls (cells in none grey) and the stars."""
    from ..drawing import ANSWER

    canvas.grid(puzzle.m, puzzle.n)
    for i, j in puzzle.blocked:
        canvas.shade(i, j, "#999999")
    canvas.walls(puzzle.room)
    for i, j in sorted(sh.marked_cells(answer, sh.STARS)):
        canvas.text(i, j, "\u2605", colour=ANSWER, scale=1.3)


# ---------------------------------------------------------------------------------------------
# Formats


def read_url(text: str) -> StarBattlePuzzle:
    """A puz.link URL: K, then the walls.

    >>> p = read_url("https://puzz.link/p?starbattle/6/6/1/4ilbhgdnmhou")
    >>> p.stars, p.room_count
    (1, 6)
    """
    _, cols, rows, body = url_of(NAME, text)
    count, _, walls = body.partition("/")
    if count and not count.isdigit():
        raise InputError(f"the puz.link URL's star count {count!r} is not a number")
    vert, horiz, _ = decode_border(walls, cols, rows)
    room = rg.from_walls(cols, rows, vert, horiz).room
    return StarBattlePuzzle(room, stars=max(1, int(count or 1)))


def _no_holes(puzzle: StarBattlePuzzle) -> None:
    if puzzle.blocked:
        raise InputError(
            "pzprjs's starbattle has no cells outside the regions; this board has some"
        )


def write_url(puzzle: StarBattlePuzzle, answer: Answer | None = None) -> str:
    """The puz.link URL, as pzprjs writes it.

    >>> write_url(read("2 2 1\\n1 2\\n1 2\\n"))
    'https://puzz.link/p?starbattle/2/2/1/o0\\n'
    """
    _no_holes(puzzle)
    body = f"{puzzle.stars}/{encode_border(*rg.walls(puzzle))}"
    return make_url(TYPE, puzzle.n, puzzle.m, body)


def _parse_pzprv3(text: str) -> tuple[StarBattlePuzzle, Answer | None]:
    rows, cols, lines = read_pzprv3(text, NAME)
    if not lines or not lines[0].strip().isdigit():
        raise InputError("line 5 of a starbattle pzprv3 file is K, the stars per row")
    stars = int(lines[0])
    vert, horiz, at = rg.read_rooms("pzprv3", lines, 1, rows, cols)
    room = rg.from_walls(cols, rows, vert, horiz).room
    puzzle = StarBattlePuzzle(room, stars=max(1, stars))
    found = sh.read_ans_block(lines, at, rows, cols)
    return puzzle, sh.cells_answer(sh.STARS, found) if found else None


def read_file(text: str) -> StarBattlePuzzle:
    return _parse_pzprv3(text)[0]


def file_answer(puzzle: StarBattlePuzzle | None, text: str) -> Answer | None:
    """The answer a pzprv3 file holds (None: no star); with ``puzzle``, the file must hold
    that puzzle."""
    held, drawn = _parse_pzprv3(text)
    if puzzle is not None and (puzzle.room, puzzle.stars) != (held.room, held.stars):
        raise InputError(f"the pzprv3 file holds another {NAME} than the puzzle given")
    return drawn


def write_file(puzzle: StarBattlePuzzle, answer: Answer | None = None) -> str:
    """The pzprv3 file as pzprjs writes it, with the answer's stars.

    >>> write_file(read("1 2 1\\n1 1\\n"), {"stars": [[0, 1]]}).split("\\n")
    ['pzprv3', 'starbattle', '1', '2', '1', '1', '0 0 ', '. # ', '']
    """
    _no_holes(puzzle)
    m, n = puzzle.m, puzzle.n
    lines = ["pzprv3", TYPE, str(m), str(n), str(puzzle.stars), str(puzzle.room_count)]
    lines += write_block(puzzle.room)
    lines += write_block(sh.ans_rows(m, n, sh.marked_cells(answer, sh.STARS)))
    return "\n".join(lines) + "\n"


def grid_answer(puzzle: StarBattlePuzzle, text: str) -> Answer:
    """The answer of the corpus's answer grid (``x`` a star, ``-`` none)."""
    lines = text.strip().split("\n")
    head = _HEADER.fullmatch(lines[0]) if lines else None
    if head and head[3] is not None:
        if int(head[3]) != puzzle.stars:
            raise InputError(
                f"line 1: the answer has {head[3]} stars a row, the puzzle {puzzle.stars}"
            )
        lines[0] = f"{head[1]} {head[2]}"
    stars = sh.read_marks("\n".join(lines), puzzle.m, puzzle.n, STAR, (EMPTY,), "star")
    return sh.cells_answer(sh.STARS, stars)


def write_grid(puzzle: StarBattlePuzzle, answer: Answer | None = None) -> str:
    """The corpus's problem text, or with ``answer`` its answer grid."""
    if answer is None:
        return write(puzzle)
    stars = sh.marked_cells(answer, sh.STARS)
    head = f"{puzzle.m} {puzzle.n} {puzzle.stars}"
    return sh.write_marks(head, puzzle.m, puzzle.n, stars, STAR, EMPTY)


SPEC = FamilySpec(
    name=NAME,
    summary="Star Battle: K stars in every row, column and region, no two touching",
    aliases=(TYPE,),
    read=read,
    write=write,
    encode=encode,
    decode=decode,
    check=check,
    render=render,
    build=build,
    # Reading, encoding and parsing the corpus's largest, starbattlefdd4c885_25x25: 285 bytes a
    # character at the peak (tracemalloc), doubled.
    bytes_per_cell=600,
    formats=("knuth", "puzzlink", "pzprv3", "grid"),
    writes=("knuth", "puzzlink", "pzprv3", "grid"),
    answers=("pzprv3", "grid"),
    codecs={
        "puzzlink": Codec(read=read_url, write=write_url, names=(TYPE,)),
        "pzprv3": Codec(read=read_file, write=write_file, answer=file_answer, names=(TYPE,)),
        "grid": Codec(read=read, write=write_grid, answer=grid_answer),
    },
    picture=Picture(lambda p: (p.m, p.n), draw),
)
