"""Cave (Bag, Corral): shade the walls around one connected cave whose numbers see their counts.

**Rules.** Shade some cells (never a numbered one). The white cells form one orthogonally
connected area, the cave; every piece of shaded cells reaches the edge of the board (no wall
is enclosed by the cave); a number is the count of white cells it sees along its row and its
column up to the first shaded cell or the edge, its own cell counted once. A ``?`` is a cell of
the cave whose number is not given. pzprjs also wants at least one shaded cell.

**The puzzle's text** (the corpus's notation, ``SmilingWayne/puzzlekit-dataset``): a line
``ROWS COLS``, then ROWS rows of tokens, ``-`` an empty cell, a number, or ``?``::

    2 3
    - 3 -
    - - -

**The exact-cover problem**, in Knuth's style (names of
:class:`~dlxsat.families.shading.Names`: cell (i, j) is the point (2i+1, 2j+1)):

- a secondary item per cell, named by the cell, colored ``1`` when the cell is shaded and
  ``0`` when it is white;
- a primary item per cell, ``p`` and the cell's name, covered once. An empty cell has the
  options ``p13 13:1`` and ``p13 13:0``; a ``?`` has ``p13 13:0``; a number has an option per
  way it can see its count: the lengths (up, down, left, right) of its four arms of white
  cells, which add up to the number less one, each arm ending at the edge or at a shaded cell.
  The option colors the number's cell, its arms' cells ``0`` and the cells that end them
  ``1`` (``p33 33:0 13:1 35:0 37:1 31:0``);
- when no number rules out a board without shaded cells (every number is ROWS + COLS - 1),
  a primary item ``any``, covered from 1 to k times by the k empty cells' shaded options,
  asks for one (pzprjs's ``brNoShade``);
- two global rules: ``|@connected cave``, the cells colored ``0`` are connected, and
  ``|@connected walls`` with ``|@roots border``, every piece of cells colored ``1`` holds a
  cell of the outline (:func:`~dlxsat.families.shading.cells_rule`). DLX prunes both, SAT
  and CP-SAT add cuts lazily (default) or state them eagerly (``--connected-mode eager``).

**Formats.** puz.link ``cave/COLS/ROWS/BODY`` (pzprjs also reads ``bag``): the numbers
(:func:`~dlxsat.families.codecs.decode_number16`, ``.`` a ``?``). pzprv3 (``pzprv3``,
``cave``, ROWS, COLS): the numbers (``.`` none, ``-`` a ``?``), the cells (``#`` shaded, ``+``
a player's mark, ``.``), then optionally the player's marks on borders (ignored). The answer
grid is the corpus's, which marks the cave, not the walls: ``x`` a white cell (a number's
too), ``-`` a shaded one.
"""

from __future__ import annotations

from itertools import product
from typing import Any

from ..errors import InputError
from ..xcc.model import Problem
from . import regions as rg
from . import shading as sh
from .codecs import (
    BLANK,
    QUESTION,
    block,
    decode_number16,
    encode_number16,
    make_url,
    read_pzprv3,
    url_of,
    write_block,
)
from .loops import SIDES, cell_name
from .spec import Codec, FamilySpec, Picture

Answer = dict[str, Any]
NAME = TYPE = "cave"
#: Why a clue of 0 is wrong.
ZERO = "a number sees itself, not 0"
ALIASES = ("bag",)
#: The corpus's answer grid marks the cave: ``x`` white, ``-`` shaded.
CAVE, WALL = "x", "-"
Cell = tuple[int, int]


class CavePuzzle(sh.NumberBoard):
    """A Cave board: ``clues[i][j]`` a number, :data:`~dlxsat.families.codecs.BLANK` or
    :data:`~dlxsat.families.codecs.QUESTION`."""


def read(text: str) -> CavePuzzle:
    """The puzzle of the corpus's text.

    >>> read("2 3\\n- 3 -\\n? - -\\n").numbers()
    [(0, 1, 3), (1, 0, -2)]
    """
    _, _, (rows,) = rg.read_grids(text, 1, NAME)
    return CavePuzzle(sh.read_clues(rows, "", ZERO))


def write(puzzle: CavePuzzle) -> str:
    """The corpus's text of the puzzle."""
    rows = [" ".join(rg.write_number(v) for v in row) for row in puzzle.clues]
    return f"{puzzle.m} {puzzle.n}\n" + "".join(r + "\n" for r in rows)


def arms(puzzle: CavePuzzle, i: int, j: int, v: int) -> list[tuple[list[Cell], list[Cell]]]:
    """The ways number v at (i, j) sees its count: (the white cells of its four arms, the
    shaded cells ending them), one per choice of the arms' lengths (up, down, left, right)
    adding up to v - 1 (none crossing a number's cell is shaded: those end nothing).

    >>> [len(w) for w, _ in arms(read("1 3\\n- 2 -\\n"), 0, 1, 2)]
    [1, 1]
    """
    m, n, clues = puzzle.m, puzzle.n, puzzle.clues
    rays = []
    for _, di, dj in SIDES:
        ray = []
        p, q = i + di, j + dj
        while 0 <= p < m and 0 <= q < n:
            ray.append((p, q))
            p, q = p + di, q + dj
        rays.append(ray)
    out = []
    for lengths in product(*(range(min(len(r), v - 1) + 1) for r in rays)):
        if sum(lengths) != v - 1:
            continue
        white = [c for r, k in zip(rays, lengths, strict=True) for c in r[:k]]
        ends = [r[k] for r, k in zip(rays, lengths, strict=True) if k < len(r)]
        if any(clues[p][q] != BLANK for p, q in ends):
            continue
        out.append((white, ends))
    return out


def build(puzzle: CavePuzzle) -> Problem:
    """The exact-cover problem (see the module doc)."""
    m, n = puzzle.m, puzzle.n
    names = sh.Names(m, n)
    b = sh.Builder()
    clues = puzzle.clues
    for i, j, v in puzzle.numbers():
        cell = names.cell(i, j)
        b.item("p" + cell)
        if v == QUESTION:
            b.options.append(["p" + cell, cell + ":0"])
            continue
        for white, ends in arms(puzzle, i, j, v):
            b.options.append(
                [
                    "p" + cell,
                    cell + ":0",
                    *(names.cell(*c) + ":0" for c in white),
                    *(names.cell(*c) + ":1" for c in ends),
                ]
            )
    empty = [(i, j) for i in range(m) for j in range(n) if clues[i][j] == BLANK]
    force = all(v in (QUESTION, m + n - 1) for _, _, v in puzzle.numbers())
    sh.decide_cells(b, names, empty, sh.ANY if force else None)
    b.secondary = [names.cell(i, j) for i in range(m) for j in range(n)]
    sh.some_shaded(b, names, check(puzzle, {"shaded": []}))
    problem = b.problem()
    items = {(i, j): names.cell(i, j) for i in range(m) for j in range(n)}
    border = [c for c in items if c[0] in (0, m - 1) or c[1] in (0, n - 1)]
    return problem.with_rules(
        sh.cells_rule(problem, items, "0", "cave"),
        sh.cells_rule(problem, items, "1", "walls", roots=border),
    )


def encode(puzzle: CavePuzzle) -> str:
    """The exact-cover data (Knuth's format, the board in its comment lines)."""
    return sh.Builder.text(["cave:", *write(puzzle).splitlines()], build(puzzle))


def decode(puzzle: CavePuzzle, problem: Problem, chosen: Any) -> Answer:
    """The shaded cells: those the chosen options color shaded."""
    return sh.decode_shaded(puzzle, problem, chosen)


def seen(puzzle: CavePuzzle, shaded: set[Cell], i: int, j: int) -> int:
    """How many white cells (i, j) sees along its row and column, itself once."""
    count = 1
    for _, di, dj in SIDES:
        p, q = i + di, j + dj
        while 0 <= p < puzzle.m and 0 <= q < puzzle.n and (p, q) not in shaded:
            count += 1
            p, q = p + di, q + dj
    return count


def check(puzzle: CavePuzzle, answer: Answer) -> list[str]:
    """The rules, judged on the answer, in pzprjs's order: a shaded number, no shaded cell at
    all, the cave in several pieces, a wall enclosed by the cave, a number seeing another
    count.

    >>> p = read("2 3\\n- 3 -\\n- - -\\n")
    >>> check(p, {"shaded": [[1, 1]]})
    []
    >>> check(p, {"shaded": [[1, 0]]})
    ['the 3 at (1, 2) sees 4 cells, not 3']
    """
    m, n = puzzle.m, puzzle.n
    shaded, out = sh.answer_cells(answer, sh.SHADED, m, n)
    out += [
        f"the number at {cell_name(i, j)} is shaded"
        for i, j, _ in puzzle.numbers()
        if (i, j) in shaded
    ]
    if not shaded:
        out.append(sh.NO_SHADED_CELL)
    white = {(i, j) for i in range(m) for j in range(n)} - shaded
    out += sh.divided(white, "white")
    for piece in sh.blocks(shaded):
        if not any(i in (0, m - 1) or j in (0, n - 1) for i, j in piece):
            out.append(f"the shaded cells at {cell_name(*piece[0])} do not reach the edge")
    for i, j, v in puzzle.numbers():
        k = seen(puzzle, shaded, i, j)
        if v > 0 and k != v and (i, j) not in shaded:
            out.append(f"the {v} at {cell_name(i, j)} sees {k} cells, not {v}")
    return out


def render(puzzle: CavePuzzle, answer: Answer | None = None) -> str:
    """The board, a character a cell: a number (``+`` from 10 on, ``?``), ``#`` shaded, ``.``.

    >>> print(render(read("1 3\\n- 2 -\\n"), {"shaded": [[0, 2]]}))
    .2#
    """
    shaded = sh.marked_cells(answer, sh.SHADED)

    def glyph(i: int, j: int) -> str:
        v = puzzle.clues[i][j]
        if v == QUESTION:
            return "?"
        if v != BLANK:
            return str(v) if v < 10 else "+"
        return "#" if (i, j) in shaded else "."

    return sh.render_cells(puzzle.m, puzzle.n, glyph)


def draw(canvas: Any, puzzle: CavePuzzle, answer: Answer | None) -> None:
    """The numbers and the shaded cells."""
    canvas.grid(puzzle.m, puzzle.n)
    for i, j in sorted(sh.marked_cells(answer, sh.SHADED)):
        canvas.shade(i, j)
    canvas.walls([[0] * puzzle.n for _ in range(puzzle.m)])
    for i, j, v in puzzle.numbers():
        canvas.text(i, j, "?" if v == QUESTION else str(v))


# ---------------------------------------------------------------------------------------------
# Formats


def read_url(text: str) -> CavePuzzle:
    """A puz.link URL (``cave`` or ``bag``): the numbers (``decodeNumber16``).

    >>> read_url("https://puzz.link/p?bag/3/1/g2g").numbers()
    [(0, 1, 2)]
    """
    _, cols, rows, body = url_of(NAME, text)
    values, _ = decode_number16(body, cols * rows)
    if 0 in values:
        raise InputError("the puz.link URL has a number 0 (a number sees itself)")
    return CavePuzzle(tuple(tuple(values[i * cols : (i + 1) * cols]) for i in range(rows)))


def write_url(puzzle: CavePuzzle, answer: Answer | None = None) -> str:
    """The puz.link URL, as pzprjs writes it.

    >>> write_url(read_url("https://puzz.link/p?cave/6/6/g3q2h3jbj3i3i2g"))
    'https://puzz.link/p?cave/6/6/g3q2h3jbj3i3i2g\\n'
    """
    values = [v for row in puzzle.clues for v in row]
    return make_url(TYPE, puzzle.n, puzzle.m, encode_number16(values))


def _parse_pzprv3(text: str) -> tuple[CavePuzzle, Answer | None]:
    rows, cols, lines = read_pzprv3(text, NAME)
    tokens = block(lines, 0, rows, cols, "numbers")
    puzzle = CavePuzzle(
        sh.read_clues(
            [["?" if t == "-" else t for t in row] for row in tokens], "the pzprv3 file's ", ZERO
        )
    )
    shaded = sh.read_ans_block(lines, rows, rows, cols)
    return puzzle, sh.cells_answer(sh.SHADED, shaded) if shaded else None


def read_file(text: str) -> CavePuzzle:
    return _parse_pzprv3(text)[0]


def file_answer(puzzle: CavePuzzle | None, text: str) -> Answer | None:
    """The answer a pzprv3 file holds (None: nothing shaded); with ``puzzle``, the file must
    hold that puzzle."""
    held, drawn = _parse_pzprv3(text)
    if puzzle is not None and held != puzzle:
        raise InputError(f"the pzprv3 file holds another {NAME} than the puzzle given")
    return drawn


def write_file(puzzle: CavePuzzle, answer: Answer | None = None) -> str:
    """The pzprv3 file as pzprjs writes it, with the answer's shaded cells.

    >>> write_file(read("1 3\\n- 2 -\\n"), {"shaded": [[0, 2]]}).split("\\n")
    ['pzprv3', 'cave', '1', '3', '. 2 . ', '. . # ', '']
    """
    m, n = puzzle.m, puzzle.n
    lines = ["pzprv3", TYPE, str(m), str(n)]
    lines += write_block(
        [
            ["." if v == BLANK else "-" if v == QUESTION else str(v) for v in row]
            for row in puzzle.clues
        ]
    )
    lines += write_block(sh.ans_rows(m, n, sh.marked_cells(answer, sh.SHADED)))
    return "\n".join(lines) + "\n"


def grid_answer(puzzle: CavePuzzle, text: str) -> Answer:
    """The answer of the corpus's answer grid (``x`` the cave, ``-`` shaded)."""
    white = sh.read_marks(text, puzzle.m, puzzle.n, CAVE, (WALL,), "cell of the cave")
    every = {(i, j) for i in range(puzzle.m) for j in range(puzzle.n)}
    return sh.cells_answer(sh.SHADED, every - white)


def write_grid(puzzle: CavePuzzle, answer: Answer | None = None) -> str:
    """The corpus's problem text, or with ``answer`` its answer grid (the cave marked)."""
    if answer is None:
        return write(puzzle)
    m, n = puzzle.m, puzzle.n
    white = {(i, j) for i in range(m) for j in range(n)} - sh.marked_cells(answer, sh.SHADED)
    return sh.write_marks(f"{m} {n}", m, n, white, CAVE, WALL)


SPEC = FamilySpec(
    name=NAME,
    aliases=ALIASES,
    summary="Cave: one connected cave, walls reaching the edge, numbers counting what they see",
    read=read,
    write=write,
    encode=encode,
    decode=decode,
    check=check,
    render=render,
    build=build,
    rules=("connected",),
    # Reading, encoding and parsing the corpus's 20_18x18: 4249 bytes a character at the peak
    # (tracemalloc; a long number's arms make many options), doubled.
    bytes_per_cell=8500,
    formats=("knuth", "puzzlink", "pzprv3", "grid"),
    writes=("knuth", "puzzlink", "pzprv3", "grid"),
    answers=("pzprv3", "grid"),
    codecs={
        "puzzlink": Codec(read=read_url, write=write_url, names=(TYPE, *ALIASES)),
        "pzprv3": Codec(
            read=read_file, write=write_file, answer=file_answer, names=(TYPE, *ALIASES)
        ),
        "grid": Codec(read=read, write=write_grid, answer=grid_answer),
    },
    picture=Picture(lambda p: (p.m, p.n), draw),
)
