"""LITS: a tetromino in every region, all connected, no 2 x 2 block, no equal ones touching.

**Rules.** The board is divided into regions by thick walls. Shade four orthogonally connected
cells in every region (an L, I, T or S tetromino; mirror images and rotations are the same
shape, S counting Z). All shaded cells are orthogonally connected; no 2 x 2 block is shaded;
two tetrominoes of the same shape never touch orthogonally across a wall.

**The puzzle's text** (the corpus's notation, ``SmilingWayne/puzzlekit-dataset``): a line
``ROWS COLS``, then ROWS rows of region labels (a region: the connected cells of one label;
``@`` a hole, a cell of no region, never shaded -- the corpus has a few)::

    2 4
    1 1 1 2
    1 2 2 2

**The exact-cover problem**, in Knuth's style (names of
:class:`~dlxsat.families.shading.Names`: cell (i, j) is the point (2i+1, 2j+1), grid point
(i, j) the point (2i, 2j), the border between two cells their midpoint):

- a primary item per region, ``r`` and its top cell's name (the top of its leftmost column),
  and an option per tetromino that fits in the region (its 18 fixed forms, the O left out):
  every region holds exactly one;
- the option covers, uncolored, a secondary item per cell of the tetromino, named by the
  cell: the shaded cells, which nothing else covers;
- the 2 x 2 blocks: a block whose cells lie in k >= 2 regions (a tetromino of one region
  never fills one) is full when each of the k regions' tetrominoes holds all of its cells of
  the block. Such a tetromino covers the block's item, named ``b`` and the block's centre
  point, which may be covered at most k - 1 times: an uncolored secondary item when k = 2,
  a primary item of bounds 0 to k - 1 (``0:2|b22``) otherwise. Exactly no full block;
- the walls: for each border between two regions and each shape (L, I, T, S), a secondary
  item, the shape's letter and the border's name (``L12``), covered by every tetromino of
  that shape holding one of the border's two cells: two equal tetrominoes touching across
  the border would both cover it. Exact, as touching is a property of one border; an item
  of a whole wall between two regions would also forbid equal shapes touching the same wall
  far apart;
- the global rule ``|@connected shaded``: the cells' items covered are connected
  (:func:`~dlxsat.families.shading.cells_rule`), enforced by the backends -- DLX prunes,
  SAT and CP-SAT add cuts lazily (default) or state it eagerly (``--connected-mode eager``).

**Formats.** puz.link ``lits/COLS/ROWS/BODY``: the walls
(:func:`~dlxsat.families.codecs.decode_border`); the flag ``d`` is pzprjs's old body, a
character per cell and a wall between neighbours of different characters (read only). pzprv3:
pzprjs writes ``pzprv3.1``, the walls (two blocks), then the cells (``#`` shaded, ``+`` a
player's mark, ``.``) and optionally the player's marks on borders; older ``pzprv3`` files
give the number of regions and a region number per cell instead of the walls. Neither has
holes. The answer grid is the corpus's: a shaded cell's letter is its tetromino's shape
(``L``, ``I``, ``T``, ``S``; ``x`` is read too), ``-`` not shaded.
"""

from __future__ import annotations

from typing import Any

from ..errors import InputError
from ..xcc.model import Problem
from . import regions as rg
from . import shading as sh
from .codecs import decode_border, encode_border, make_url, read_pzprv3, url_of, write_block
from .loops import cell_name
from .regions import BLOCKED, Answer, RegionLoopPuzzle
from .spec import Codec, FamilySpec, Picture

NAME = TYPE = "lits"
HOLE, WHITE, SHADED = "@", "-", "x"
LETTERS = "LITS"
Cell = tuple[int, int]
Shape = tuple[Cell, ...]


class LitsPuzzle(RegionLoopPuzzle):
    """A LITS board: its regions (:class:`~dlxsat.families.regions.RegionLoopPuzzle`'s rooms)
    and holes (its blocked cells)."""


def _normal(cells: list[Cell]) -> Shape:
    """A shape moved to the origin, its cells sorted."""
    i0 = min(i for i, _ in cells)
    j0 = min(j for _, j in cells)
    return tuple(sorted((i - i0, j - j0) for i, j in cells))


def _forms(cells: list[Cell]) -> set[Shape]:
    """A shape's fixed forms: its rotations and mirror images."""
    out = set()
    for _ in range(4):
        cells = [(j, -i) for i, j in cells]
        out.add(_normal(cells))
        out.add(_normal([(i, -j) for i, j in cells]))
    return out


#: Every fixed tetromino but the O, with its letter: 8 L (J too), 2 I, 4 T, 4 S (Z too).
TETROMINOES: dict[Shape, str] = {
    form: letter
    for letter, cells in (
        ("L", [(0, 0), (1, 0), (2, 0), (2, 1)]),
        ("I", [(0, 0), (0, 1), (0, 2), (0, 3)]),
        ("T", [(0, 0), (0, 1), (0, 2), (1, 1)]),
        ("S", [(0, 1), (0, 2), (1, 0), (1, 1)]),
    )
    for form in sorted(_forms(cells))
}


def letter_of(cells: list[Cell]) -> str | None:
    """The letter of a tetromino's cells, None when they are no L, I, T or S.

    >>> letter_of([(5, 5), (5, 6), (6, 6), (6, 7)]), letter_of([(0, 0), (0, 1), (1, 0), (1, 1)])
    ('S', None)
    """
    return TETROMINOES.get(_normal(cells)) if len(cells) == 4 else None


def read(text: str) -> LitsPuzzle:
    """The puzzle of the corpus's text.

    >>> p = read("2 4\\n1 1 1 @\\n1 2 2 2\\n")
    >>> p.rooms, sorted(p.blocked)
    ([[(0, 0), (0, 1), (0, 2), (1, 0)], [(1, 1), (1, 2), (1, 3)]], [(0, 3)])
    """
    _, _, (labels,) = rg.read_grids(text, 1, NAME)
    b = rg.board(labels, blocked=HOLE)
    if not b.rooms:
        raise InputError("the lits has no region, only holes")
    return LitsPuzzle(b.room)


def write(puzzle: LitsPuzzle) -> str:
    """The corpus's text (regions numbered from 1 in reading order, ``@`` a hole)."""
    return f"{puzzle.m} {puzzle.n}\n" + "".join(r + "\n" for r in rg.region_rows(puzzle, HOLE))


def placements(puzzle: LitsPuzzle, k: int) -> list[tuple[str, list[Cell]]]:
    """The tetrominoes (letter, cells in reading order) that fit in region k, by their first
    cell, then form.

    >>> [t for t, _ in placements(read("2 3\\n1 1 1\\n1 2 2\\n"), 0)]
    ['L']
    """
    inside = set(puzzle.rooms[k])
    out = []
    for i, j in puzzle.rooms[k]:
        for form, letter in TETROMINOES.items():
            # Each form placed with its first cell on (i, j): every placement exactly once.
            di, dj = i - form[0][0], j - form[0][1]
            cells = [(p + di, q + dj) for p, q in form]
            if inside.issuperset(cells):
                out.append((letter, cells))
    return out


def block_parts(puzzle: LitsPuzzle) -> list[tuple[Cell, dict[int, list[Cell]]]]:
    """The 2 x 2 blocks that tetrominoes could fill: (top-left cell, region → its cells of the
    block) for the blocks without a hole whose cells lie in two regions or more."""
    out = []
    room = puzzle.room
    for i in range(puzzle.m - 1):
        for j in range(puzzle.n - 1):
            cells = [(i, j), (i, j + 1), (i + 1, j), (i + 1, j + 1)]
            if any(room[p][q] == BLOCKED for p, q in cells):
                continue
            parts: dict[int, list[Cell]] = {}
            for p, q in cells:
                parts.setdefault(room[p][q], []).append((p, q))
            if len(parts) > 1:
                out.append(((i, j), parts))
    return out


def build(puzzle: LitsPuzzle) -> Problem:
    """The exact-cover problem (see the module doc)."""
    m, n = puzzle.m, puzzle.n
    names = sh.Names(m, n)
    b = sh.Builder()
    room = puzzle.room
    region = [region_item(names, puzzle, k) for k in range(puzzle.room_count)]
    for r in region:
        b.item(r)
    # Each cell's blocks: (block item, the cells of the cell's region in it).
    blocks_of: dict[Cell, list[tuple[str, list[Cell]]]] = {}
    full_items: list[str] = []
    for (i, j), parts in block_parts(puzzle):
        item = "b" + names.point(i + 1, j + 1)
        if len(parts) == 2:
            full_items.append(item)
        else:
            b.item(item, 0, len(parts) - 1)
        for cells in parts.values():
            for c in cells:
                blocks_of.setdefault(c, []).append((item, cells))

    # The borders of each cell with other regions (worked out once a cell: each cell lies in
    # some dozens of placements), and which letters each side can put there.
    walls_of: dict[Cell, list[tuple[int, int]]] = {}

    def walls(i: int, j: int) -> list[tuple[int, int]]:
        found = walls_of.get((i, j))
        if found is None:
            found = walls_of[(i, j)] = [
                (i + p + 1, j + q + 1)
                for p, q in sh.neighbours(m, n, i, j)
                if room[p][q] not in (BLOCKED, room[i][j])
            ]
        return found

    options: list[tuple[int, str, list[Cell]]] = []
    sides: dict[tuple[str, tuple[int, int]], set[int]] = {}
    for k in range(puzzle.room_count):
        for letter, cells in placements(puzzle, k):
            options.append((k, letter, cells))
            for c in cells:
                for e in walls(*c):
                    sides.setdefault((letter, e), set()).add(k)
    touching = {key for key, ks in sides.items() if len(ks) > 1}
    for k, letter, cells in options:
        opt = [region[k], *(names.cell(*c) for c in cells)]
        inside = set(cells)
        opt += sorted(
            {item for c in cells for item, part in blocks_of.get(c, []) if inside >= set(part)}
        )
        opt += sorted(
            {letter + names.name(*e) for c in cells for e in walls(*c) if (letter, e) in touching}
        )
        b.options.append(opt)
    cells_all = [(i, j) for i in range(m) for j in range(n) if room[i][j] != BLOCKED]
    b.secondary = [
        *(names.cell(i, j) for i, j in cells_all),
        *full_items,
        *sorted(letter + names.name(*e) for letter, e in touching),
    ]
    problem = b.problem()
    items = {c: names.cell(*c) for c in cells_all}
    return problem.with_rules(sh.cells_rule(problem, items, None, "shaded"))


def region_item(names: sh.Names, puzzle: RegionLoopPuzzle, k: int) -> str:
    """Region k's item: ``r`` and its top cell's name."""
    return "r" + names.cell(*puzzle.top(k))


def encode(puzzle: LitsPuzzle) -> str:
    """The exact-cover data (Knuth's format, the board in its comment lines)."""
    return sh.Builder.text(["lits:", *write(puzzle).splitlines()], build(puzzle))


def decode(puzzle: LitsPuzzle, problem: Problem, chosen: Any) -> Answer:
    """The shaded cells: the cells of each chosen tetromino."""
    names = sh.Names(puzzle.m, puzzle.n)
    cell_of = {names.cell(i, j): (i, j) for i in range(puzzle.m) for j in range(puzzle.n)}
    shaded = [
        cell_of[problem.items[x].name]
        for k in chosen
        for x, _ in problem.options[k]
        if problem.items[x].name in cell_of
    ]
    return sh.cells_answer(sh.SHADED, shaded)


def pieces(puzzle: RegionLoopPuzzle, shaded: set[Cell]) -> list[tuple[int, list[Cell]]]:
    """The shaded pieces within each region (pzprjs's blocks: shaded cells joined where no
    wall parts them), with their regions, by region."""
    out = []
    for k, cells in enumerate(puzzle.rooms):
        out += [(k, piece) for piece in sh.blocks(set(cells) & shaded)]
    return out


def check(puzzle: LitsPuzzle, answer: Answer) -> list[str]:
    """The rules, judged on the answer, in pzprjs's order: a shaded hole, a 2 x 2 block, a
    region with more than four shaded cells, a region whose shaded cells are in pieces, equal
    tetrominoes touching, the shaded cells divided, a region without shaded cells, one with
    fewer than four.

    >>> p = read("1 8\\n1 1 1 1 2 2 2 2\\n")
    >>> check(p, {"shaded": [[0, j] for j in range(8)]})
    ['the I at (1, 1) and the I at (1, 5) touch']
    """
    m, n = puzzle.m, puzzle.n
    shaded, out = sh.answer_cells(answer, sh.SHADED, m, n)
    out += [
        f"cell {cell_name(*c)} is shaded, but it is a hole" for c in sorted(shaded & puzzle.blocked)
    ]
    for i in range(m - 1):
        for j in range(n - 1):
            if {(i, j), (i, j + 1), (i + 1, j), (i + 1, j + 1)} <= shaded:
                out.append(f"the shaded cells at {cell_name(i, j)} form a 2 x 2 block")
    count = [len(set(cells) & shaded) for cells in puzzle.rooms]
    out += [
        f"{rg.room_name(puzzle, k)} has {c} shaded cells, more than four"
        for k, c in enumerate(count)
        if c > 4
    ]
    found = pieces(puzzle, shaded)
    split = sorted({k for k, _ in found if sum(r == k for r, _ in found) > 1})
    out += [f"the shaded cells of {rg.room_name(puzzle, k)} are in pieces" for k in split]
    out += _equal_neighbours(puzzle, found)
    out += sh.divided(shaded - puzzle.blocked, "shaded")
    out += [f"{rg.room_name(puzzle, k)} has no shaded cell" for k, c in enumerate(count) if c == 0]
    out += [
        f"{rg.room_name(puzzle, k)} has {c} shaded cell{'s' if c > 1 else ''}, fewer than four"
        for k, c in enumerate(count)
        if 0 < c < 4
    ]
    return out


def _equal_neighbours(puzzle: LitsPuzzle, found: list[tuple[int, list[Cell]]]) -> list[str]:
    """Pairs of tetrominoes (pieces of four cells) of one shape touching across a wall."""
    shape: dict[Cell, tuple[int, str | None]] = {}
    for k, (_, cells) in enumerate(found):
        if len(cells) == 4:
            for c in cells:
                shape[c] = (k, _shape_key(cells))
    out = []
    seen = set()
    for (i, j), (a, key) in sorted(shape.items()):
        for p, q in ((i, j + 1), (i + 1, j)):
            other = shape.get((p, q))
            if other is None or other[0] == a or other[1] != key or (a, other[0]) in seen:
                continue
            seen.add((a, other[0]))
            first, second = found[a][1][0], found[other[0]][1][0]
            what = letter_of(found[a][1]) or "tetromino"
            out.append(
                f"the {what} at {cell_name(*first)} and the {what} at {cell_name(*second)} touch"
            )
    return out


def _shape_key(cells: list[Cell]) -> str:
    """A piece's shape up to rotation and reflection (pzprjs's canonical form)."""
    return min(str(f) for f in _forms(cells))


def letters(puzzle: RegionLoopPuzzle, shaded: set[Cell]) -> dict[Cell, str]:
    """Each shaded cell's letter: its region's tetromino's shape, ``x`` when the region's
    shaded cells are no L, I, T or S."""
    out = {}
    for _, cells in pieces(puzzle, shaded):
        letter = letter_of(cells) or SHADED
        for c in cells:
            out[c] = letter
    return out


def render(puzzle: LitsPuzzle, answer: Answer | None = None) -> str:
    """The regions as letters (``#`` a hole), and beside them the answer's tetrominoes as
    their shapes' letters (``.`` not shaded).

    >>> print(render(read("2 3\\n1 1 1\\n1 2 2\\n"), {"shaded": [[0, 0], [0, 1], [0, 2], [1, 0]]}))
    aaa LLL
    abb L..
    """
    rooms = rg.render_rooms(puzzle).split("\n")
    if not answer:
        return "\n".join(rooms)
    mark = letters(puzzle, sh.marked_cells(answer, sh.SHADED))
    return "\n".join(
        rooms[i] + " " + "".join(mark.get((i, j), ".") for j in range(puzzle.n))
        for i in range(puzzle.m)
    )


def draw(canvas: Any, puzzle: LitsPuzzle, answer: Answer | None) -> None:
    """The regions with their walls, holes grey, and the shaded cells."""
    canvas.grid(puzzle.m, puzzle.n)
    for i, j in puzzle.blocked:
        canvas.shade(i, j, "#999999")
    for i, j in sorted(sh.marked_cells(answer, sh.SHADED)):
        canvas.shade(i, j)
    canvas.walls(puzzle.room)


# ---------------------------------------------------------------------------------------------
# Formats


def read_url(text: str) -> LitsPuzzle:
    """A puz.link URL: the walls (flag ``d``: pzprjs's old body, a character per cell).

    >>> read_url("https://puzz.link/p?lits/4/4/9q02jg").room_count
    3
    >>> read_url("https://puzz.link/p?lits/d/3/1/aab").rooms
    [[(0, 0), (0, 1)], [(0, 2)]]
    """
    flags, cols, rows, body = url_of(NAME, text)
    if "d" in flags:
        chars = body[: cols * rows].ljust(cols * rows)
        labels = [list(chars[i * cols : (i + 1) * cols]) for i in range(rows)]
        return LitsPuzzle(rg.board(labels).room)
    vert, horiz, _ = decode_border(body, cols, rows)
    return LitsPuzzle(rg.from_walls(cols, rows, vert, horiz).room)


def _no_holes(puzzle: LitsPuzzle, where: str) -> None:
    if puzzle.blocked:
        raise InputError(f"{where} has no holes; this lits has some")


def write_url(puzzle: LitsPuzzle, answer: Answer | None = None) -> str:
    """The puz.link URL, as pzprjs writes it.

    >>> write_url(read_url("https://puzz.link/p?lits/4/4/9q02jg"))
    'https://puzz.link/p?lits/4/4/9q02jg\\n'
    """
    _no_holes(puzzle, "puz.link's lits")
    return make_url(TYPE, puzzle.n, puzzle.m, encode_border(*rg.walls(puzzle)))


def _parse_pzprv3(text: str) -> tuple[LitsPuzzle, Answer | None]:
    version = rg.pzprv3_version(text)
    rows, cols, lines = read_pzprv3(text, NAME)
    vert, horiz, at = rg.read_rooms(version, lines, 0, rows, cols, walls_version="pzprv3.1")
    puzzle = LitsPuzzle(rg.from_walls(cols, rows, vert, horiz).room)
    shaded = sh.read_ans_block(lines, at, rows, cols)
    return puzzle, sh.cells_answer(sh.SHADED, shaded) if shaded else None


def read_file(text: str) -> LitsPuzzle:
    return _parse_pzprv3(text)[0]


def file_answer(puzzle: LitsPuzzle | None, text: str) -> Answer | None:
    """The answer a pzprv3 file holds (None: nothing shaded); with ``puzzle``, the file must
    hold that puzzle."""
    held, drawn = _parse_pzprv3(text)
    rg.same_board(NAME, puzzle, held)
    return drawn


def write_file(puzzle: LitsPuzzle, answer: Answer | None = None) -> str:
    """The pzprv3 file as pzprjs writes it (``pzprv3.1``), with the answer's shaded cells.

    >>> row = {"shaded": [[0, 0], [0, 1], [0, 2], [0, 3]]}
    >>> write_file(read("1 4\\n1 1 1 1\\n"), row).split("\\n")
    ['pzprv3.1', 'lits', '1', '4', '0 0 0 ', '# # # # ', '']
    """
    _no_holes(puzzle, "pzprjs's lits")
    m, n = puzzle.m, puzzle.n
    lines = ["pzprv3.1", TYPE, str(m), str(n)]
    lines += write_block(rg.wall_rows(puzzle))
    lines += write_block(sh.ans_rows(m, n, sh.marked_cells(answer, sh.SHADED)))
    return "\n".join(lines) + "\n"


def grid_answer(puzzle: LitsPuzzle, text: str) -> Answer:
    """The answer of the corpus's answer grid (a shape's letter shaded, ``-`` not; a hole
    ``-`` or ``@``)."""
    marks = "".join(LETTERS) + SHADED
    shaded = set()
    for i, row in enumerate(rg.answer_rows(text, puzzle.m, puzzle.n)):
        for j, tok in enumerate(row):
            if tok in marks and len(tok) == 1:
                shaded.add((i, j))
            elif tok not in (WHITE, HOLE):
                raise InputError(
                    f"answer row {i + 1}, cell {j + 1}: {tok!r} is not L, I, T, S, x (shaded) "
                    "or - (not shaded)"
                )
    return sh.cells_answer(sh.SHADED, shaded)


def write_grid(puzzle: LitsPuzzle, answer: Answer | None = None) -> str:
    """The corpus's problem text, or with ``answer`` its answer grid (a shaded cell's letter
    its tetromino's)."""
    if answer is None:
        return write(puzzle)
    mark = letters(puzzle, sh.marked_cells(answer, sh.SHADED))
    rows = [" ".join(mark.get((i, j), WHITE) for j in range(puzzle.n)) for i in range(puzzle.m)]
    return f"{puzzle.m} {puzzle.n}\n" + "".join(r + "\n" for r in rows)


SPEC = FamilySpec(
    name=NAME,
    summary="LITS: a tetromino in every region, all connected, no 2x2, no equal ones touching",
    read=read,
    write=write,
    encode=encode,
    decode=decode,
    check=check,
    render=render,
    build=build,
    rules=("connected",),
    # Reading, encoding and parsing the corpus's puzzles: at most 1993 bytes a character at the
    # peak (tracemalloc, 407_17x17), doubled.
    bytes_per_cell=4000,
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
