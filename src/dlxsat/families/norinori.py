"""Norinori: shade two cells in every region, every shaded cell one of a pair.

**Rules.** Shade exactly two cells in every region (the board is divided by thick walls). Every
shaded cell has exactly one shaded orthogonal neighbour: the shaded cells form pairs of
neighbours, which may lie across a wall.

**The puzzle's text** (the corpus's notation, ``SmilingWayne/puzzlekit-dataset``): a line
``ROWS COLS``, ROWS rows of ``-`` (an empty clue grid, which Norinori has not), then ROWS rows of
region labels (a region: the connected cells of one label)::

    2 2
    - -
    - -
    1 1
    2 2

**The exact-cover problem**, in Knuth's style (names of :class:`~dlxsat.families.shading.Names`:
cell (i, j) is the point (2i+1, 2j+1), the border between two cells their midpoint):

- a primary item per cell, ``13``, covered once: by the cell's *white* option, or by one of the
  pairs on it (then the cell is shaded);
- a primary item per region, ``r`` and its top cell's name, covered by the white options of its
  cells exactly k - 2 times, k its number of cells (``4|r11`` for a region of six): two cells
  of every region are shaded. A white option is ``13 r11`` (a region of two cells has no item
  and its cells no white option);
- an option per pair of neighbouring cells ``a`` and ``b``: their items and, uncolored,
  the secondary items of the borders around the pair (up to six, named by their midpoints).
  Two pairs side by side would share such a border, so none touch: every shaded cell has
  exactly one shaded neighbour, the rule, exactly. There is no global rule.

Measured on the largest corpus puzzles (36 x 54, 25 x 40, 24 x 36): an option per cell and
partner (a shaded cell naming the other of its pair, its neighbours' states colored ``1`` or
``0``, the regions counting shaded cells) took SAT and CP-SAT about three times as long; a
shaded option per cell beside the pairs (regions counting shaded cells, a partner item per
cell) had 11 % more entries and was 10-30 % slower.

**Formats.** puz.link ``norinori/COLS/ROWS/BODY``: the walls
(:func:`~dlxsat.families.codecs.decode_border`; pzprjs ignores flags here, and so does dlxsat).
pzprv3: pzprjs writes ``pzprv3.1``, the walls (two blocks), then the cells (``#`` shaded, ``+``
a player's mark, ``.``) and optionally the player's marks on borders; older ``pzprv3`` files
give the number of regions and a region number per cell instead of the walls. The answer grid
is the corpus's: ``x`` shaded, ``-`` not.
"""

from __future__ import annotations

from typing import Any

from ..errors import InputError
from ..xcc.model import Problem
from . import regions as rg
from . import shading as sh
from .codecs import decode_border, encode_border, make_url, read_pzprv3, url_of, write_block
from .loops import cell_name
from .regions import Answer, RegionLoopPuzzle
from .spec import Codec, FamilySpec, Picture

NAME = TYPE = "norinori"
#: Shaded cells per region.
PER_REGION = 2


class NorinoriPuzzle(RegionLoopPuzzle):
    """A Norinori board: its regions (:class:`~dlxsat.families.regions.RegionLoopPuzzle`'s
    rooms; it has no blocked cells and no numbers)."""


def read(text: str) -> NorinoriPuzzle:
    """The puzzle of the corpus's text.

    >>> read("2 2\\n- -\\n- -\\n1 1\\n2 2\\n").rooms
    [[(0, 0), (0, 1)], [(1, 0), (1, 1)]]
    """
    m, n, (clues, labels) = rg.read_grids(text, 2, "norinori")
    for i, row in enumerate(clues):
        for j, tok in enumerate(row):
            if tok != "-":
                raise InputError(
                    f"row {i + 1}, cell {j + 1}: {tok!r} in the clue grid (Norinori has none: -)"
                )
    return NorinoriPuzzle(rg.board(labels).room)


def write(puzzle: NorinoriPuzzle) -> str:
    """The corpus's text (regions numbered from 1 in reading order)."""
    rows = [f"{puzzle.m} {puzzle.n}", *[" ".join("-" * puzzle.n) for _ in range(puzzle.m)]]
    rows += rg.region_rows(puzzle, "@")
    return "".join(r + "\n" for r in rows)


def region_item(names: sh.Names, puzzle: RegionLoopPuzzle, k: int) -> str:
    """Region k's item: ``r`` and its top cell's name."""
    return "r" + names.cell(*puzzle.top(k))


def build(puzzle: NorinoriPuzzle) -> Problem:
    """The exact-cover problem (see the module doc)."""
    m, n = puzzle.m, puzzle.n
    names = sh.Names(m, n)
    b = sh.Builder()
    cells = [(i, j) for i in range(m) for j in range(n)]
    for i, j in cells:
        b.item(names.cell(i, j))
    region = [region_item(names, puzzle, k) for k in range(puzzle.room_count)]
    for r, part in zip(region, puzzle.rooms, strict=True):
        # A region of two cells has no white cell (no item, its cells no white option); one
        # of a single cell cannot hold two shaded ones: its item is then left uncoverable.
        if len(part) != PER_REGION:
            b.item(r, max(1, len(part) - PER_REGION))
    for i, j in cells:
        part = puzzle.rooms[puzzle.room[i][j]]
        if len(part) > PER_REGION:
            b.options.append([names.cell(i, j), region[puzzle.room[i][j]]])
    borders: set[tuple[int, int]] = set()
    for i, j in cells:
        for p, q in ((i, j + 1), (i + 1, j)):
            if p < m and q < n:
                around = sh.pair_borders(m, n, (i, j), (p, q))
                borders.update(around)
                b.options.append(
                    [names.cell(i, j), names.cell(p, q), *(names.name(*e) for e in around)]
                )
    b.secondary = [names.name(*e) for e in sorted(borders)]
    return b.problem()


def encode(puzzle: NorinoriPuzzle) -> str:
    """The exact-cover data (Knuth's format, the board in its comment lines)."""
    return sh.Builder.text(["norinori:", *write(puzzle).splitlines()], build(puzzle))


def decode(puzzle: NorinoriPuzzle, problem: Problem, chosen: Any) -> Answer:
    """The shaded cells: the two cells of each chosen pair (a white option's second item is
    its region's)."""
    names = sh.Names(puzzle.m, puzzle.n)
    regions = {region_item(names, puzzle, k) for k in range(puzzle.room_count)}
    shaded = []
    for k in chosen:
        first, second = (problem.items[x].name for x, _ in problem.options[k][:2])
        if second not in regions:
            shaded += [names.cell_of(first), names.cell_of(second)]
    return sh.cells_answer(sh.SHADED, shaded)


def check(puzzle: NorinoriPuzzle, answer: Answer) -> list[str]:
    """The rules, judged on the answer, in pzprjs's order: no block of more than two shaded
    cells, no region with more than two, no shaded cell alone, no region with one, none
    without.

    >>> p = read("2 2\\n- -\\n- -\\n1 1\\n1 1\\n")
    >>> check(p, {"shaded": [[0, 0], [1, 0]]})
    []
    >>> check(p, {"shaded": [[0, 0], [0, 1], [1, 0]]})[0]
    'the shaded cells at (1, 1) form a block of 3, not a pair'
    """
    shaded, out = sh.answer_cells(answer, sh.SHADED, puzzle.m, puzzle.n)
    pieces = sh.blocks(shaded)
    count = [sum(c in shaded for c in cells) for cells in puzzle.rooms]
    for piece in pieces:
        if len(piece) > 2:
            out.append(
                f"the shaded cells at {cell_name(*piece[0])} form a block of {len(piece)}, "
                "not a pair"
            )
    for k, c in enumerate(count):
        if c > PER_REGION:
            out.append(f"{rg.room_name(puzzle, k)} has {c} shaded cells, more than two")
    for piece in pieces:
        if len(piece) == 1:
            out.append(f"the shaded cell {cell_name(*piece[0])} is alone, not in a pair")
    for k, c in enumerate(count):
        if c == 1:
            out.append(f"{rg.room_name(puzzle, k)} has only one shaded cell")
    for k, c in enumerate(count):
        if c == 0:
            out.append(f"{rg.room_name(puzzle, k)} has no shaded cell")
    return out


def render(puzzle: NorinoriPuzzle, answer: Answer | None = None) -> str:
    """The regions as letters, ``#`` a shaded cell.

    >>> print(render(read("2 2\\n- -\\n- -\\n1 1\\n2 2\\n"), {"shaded": [[0, 0], [1, 0]]}))
    #a
    #b
    """
    shaded = sh.marked_cells(answer, sh.SHADED)
    letters = rg.render_rooms(puzzle).split("\n")
    return sh.render_cells(
        puzzle.m, puzzle.n, lambda i, j: "#" if (i, j) in shaded else letters[i][j]
    )


def draw(canvas: Any, puzzle: NorinoriPuzzle, answer: Answer | None) -> None:
    """The regions with their walls and the shaded cells."""
    canvas.grid(puzzle.m, puzzle.n)
    for i, j in sorted(sh.marked_cells(answer, sh.SHADED)):
        canvas.shade(i, j)
    canvas.walls(puzzle.room)


# ---------------------------------------------------------------------------------------------
# Formats


def read_url(text: str) -> NorinoriPuzzle:
    """A puz.link URL: the walls.

    >>> read_url("https://puzz.link/p?norinori/5/5/cag4ocjo").room_count
    5
    """
    _, cols, rows, body = url_of(NAME, text)
    vert, horiz, _ = decode_border(body, cols, rows)
    return NorinoriPuzzle(rg.from_walls(cols, rows, vert, horiz).room)


def write_url(puzzle: NorinoriPuzzle, answer: Answer | None = None) -> str:
    """The puz.link URL, as pzprjs writes it.

    >>> write_url(read_url("https://puzz.link/p?norinori/5/5/cag4ocjo"))
    'https://puzz.link/p?norinori/5/5/cag4ocjo\\n'
    """
    return make_url(TYPE, puzzle.n, puzzle.m, encode_border(*rg.walls(puzzle)))


def _parse_pzprv3(text: str) -> tuple[NorinoriPuzzle, Answer | None]:
    version = rg.pzprv3_version(text)
    rows, cols, lines = read_pzprv3(text, NAME)
    vert, horiz, at = rg.read_rooms(version, lines, 0, rows, cols, walls_version="pzprv3.1")
    puzzle = NorinoriPuzzle(rg.from_walls(cols, rows, vert, horiz).room)
    shaded = sh.read_ans_block(lines, at, rows, cols)
    return puzzle, sh.cells_answer(sh.SHADED, shaded) if shaded else None


def read_file(text: str) -> NorinoriPuzzle:
    return _parse_pzprv3(text)[0]


def file_answer(puzzle: NorinoriPuzzle | None, text: str) -> Answer | None:
    """The answer a pzprv3 file holds (None: nothing shaded); with ``puzzle``, the file must
    hold that puzzle."""
    held, drawn = _parse_pzprv3(text)
    rg.same_board(NAME, puzzle, held)
    return drawn


def write_file(puzzle: NorinoriPuzzle, answer: Answer | None = None) -> str:
    """The pzprv3 file as pzprjs writes it (``pzprv3.1``), with the answer's shaded cells.

    >>> write_file(read("1 2\\n- -\\n1 1\\n"), {"shaded": [[0, 0], [0, 1]]}).split("\\n")
    ['pzprv3.1', 'norinori', '1', '2', '0 ', '# # ', '']
    """
    m, n = puzzle.m, puzzle.n
    lines = ["pzprv3.1", TYPE, str(m), str(n)]
    lines += write_block(rg.wall_rows(puzzle))
    lines += write_block(sh.ans_rows(m, n, sh.marked_cells(answer, sh.SHADED)))
    return "\n".join(lines) + "\n"


SPEC = FamilySpec(
    name=NAME,
    summary="Norinori: two shaded cells in every region, every shaded cell one of a pair",
    read=read,
    write=write,
    encode=encode,
    decode=decode,
    check=check,
    render=render,
    build=build,
    # SAT, not auto: DLX wins a third of the small boards, by up to 2 x, and loses the others
    # by 1.4 to over 300 x (trees of 30,000 nodes to millions: dominoes in regions prune
    # little), paying its trial of some 9 ms on top of SAT's 7-8 ms there. On published boards
    # of at most 225 cells (10 a sample, best of 2, engines loaded; benchmarks/published.py,
    # 2026-11-28 seed 67, seed 62 of the session before), over the virtual best engine: sat
    # 1.21 and 1.14 against auto's 1.88 and 1.35; on the corpus's three largest sat 0.29,
    # 0.09, 0.17 s against auto's 0.36, 0.13, 0.09 s.
    default_backend="sat",
    # Reading, encoding and parsing the corpus's 93_36x54: 403 bytes a character at the
    # peak (tracemalloc), doubled.
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
