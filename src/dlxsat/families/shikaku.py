"""Shikaku: divide the board into rectangles, each holding one number, its area.

**Rules.** Divide the grid along its lines into rectangles. Each rectangle contains exactly one
number, and the number is its area (a ``?`` stands for a number not given: any area).

**The puzzle's text** (the corpus's notation, ``SmilingWayne/puzzlekit-dataset``): a line
``ROWS COLS``, then ROWS rows of tokens, ``-`` an empty cell, a number, or ``?``::

    2 3
    2 - -
    - 4 -

**The exact-cover problem**, in Knuth's style (names of
:class:`~dlxsat.families.shading.Names`: cell (i, j) is the point (2i+1, 2j+1)):

- a primary item per cell;
- an option per rectangle that contains exactly one number and has its area: the rectangle's
  cells. Covering every cell once divides the board into such rectangles, and each number's
  cell lies in exactly one of them, its own. There is nothing else: no secondary item, no
  global rule.

The options are made from each number's divisors (a rectangle h x w of area N, each position
holding the number's cell), a count of the numbers in a rectangle in constant time (a table of
prefix sums) leaving out those that hold another.

**Formats.** puz.link ``shikaku/COLS/ROWS/BODY``: the numbers
(:func:`~dlxsat.families.codecs.decode_number16`, ``.`` a ``?``). pzprv3 (``pzprv3``,
``shikaku``, ROWS, COLS): the numbers (``.`` none, ``-`` a ``?``), then the borders a player
drew, pzprjs's answer (ROWS lines of COLS - 1 values between horizontal neighbours, ROWS - 1
lines of COLS between vertical ones; ``1`` or ``2`` a border, ``-1`` a player's mark, ``0``
none). The answer grid is the corpus's: a region number per cell (written numbered from 1 in
the column-major order of the regions' first cells, as most of its answers are).
"""

from __future__ import annotations

from itertools import accumulate
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
from .loops import cell_name
from .spec import Codec, FamilySpec, Picture

Answer = dict[str, Any]
NAME = TYPE = "shikaku"
#: Why a clue of 0 is wrong.
ZERO = "a rectangle's area is not 0"


class ShikakuPuzzle(sh.NumberBoard):
    """A Shikaku board: ``clues[i][j]`` a number, :data:`~dlxsat.families.codecs.BLANK` or
    :data:`~dlxsat.families.codecs.QUESTION`."""


def read(text: str) -> ShikakuPuzzle:
    """The puzzle of the corpus's text.

    >>> read("2 3\\n2 - -\\n- ? -\\n").numbers()
    [(0, 0, 2), (1, 1, -2)]
    """
    _, _, (rows,) = rg.read_grids(text, 1, "shikaku")
    return ShikakuPuzzle(sh.read_clues(rows, "", ZERO))


def write(puzzle: ShikakuPuzzle) -> str:
    """The corpus's text of the puzzle."""
    rows = [" ".join(rg.write_number(v) for v in row) for row in puzzle.clues]
    return f"{puzzle.m} {puzzle.n}\n" + "".join(r + "\n" for r in rows)


def _prefix(puzzle: ShikakuPuzzle) -> list[list[int]]:
    """Prefix sums of the clue cells: ``s[i][j]`` counts those above and left of (i, j)."""
    out = [[0] * (puzzle.n + 1)]
    for row in puzzle.clues:
        line = [0, *accumulate(int(v != BLANK) for v in row)]
        out.append([a + b for a, b in zip(out[-1], line, strict=True)])
    return out


def rectangles(puzzle: ShikakuPuzzle) -> list[tuple[int, int, int, int]]:
    """Every rectangle ``(top, left, height, width)`` holding exactly one number, of its area
    (any area for a ``?``), by the numbers in reading order, then height, top, left.

    >>> rectangles(read("1 3\\n2 - -\\n"))
    [(0, 0, 1, 2)]
    """
    m, n = puzzle.m, puzzle.n
    s = _prefix(puzzle)
    out = []
    for ci, cj, v in puzzle.numbers():
        shapes = [(h, w) for h in range(1, m + 1) for w in range(1, n + 1)]
        if v != QUESTION:
            shapes = [(h, v // h) for h in range(1, min(m, v) + 1) if v % h == 0 and v // h <= n]
        for h, w in shapes:
            for top in range(max(0, ci - h + 1), min(ci, m - h) + 1):
                for left in range(max(0, cj - w + 1), min(cj, n - w) + 1):
                    inside = (
                        s[top + h][left + w] - s[top][left + w] - s[top + h][left] + s[top][left]
                    )
                    if inside == 1:
                        out.append((top, left, h, w))
    return out


def build(puzzle: ShikakuPuzzle) -> Problem:
    """The exact-cover problem (see the module doc)."""
    names = sh.Names(puzzle.m, puzzle.n)
    b = sh.Builder()
    for i in range(puzzle.m):
        for j in range(puzzle.n):
            b.item(names.cell(i, j))
    for top, left, h, w in rectangles(puzzle):
        b.options.append(
            [names.cell(i, j) for i in range(top, top + h) for j in range(left, left + w)]
        )
    return b.problem()


def encode(puzzle: ShikakuPuzzle) -> str:
    """The exact-cover data (Knuth's format, the board in its comment lines)."""
    return sh.Builder.text(["shikaku:", *write(puzzle).splitlines()], build(puzzle))


def decode(puzzle: ShikakuPuzzle, problem: Problem, chosen: Any) -> Answer:
    """The regions: the cells of each chosen rectangle."""
    names = sh.Names(puzzle.m, puzzle.n)
    return sh.regions_answer(
        [names.cell_of(problem.items[x].name) for x, _ in problem.options[k]] for k in chosen
    )


def check(puzzle: ShikakuPuzzle, answer: Answer) -> list[str]:
    """The rules, judged on the answer, in pzprjs's order: a region without a number, one with
    two, one not a rectangle, one whose size is not its number, a border with a dead end (a
    border a file draws inside a region); before them, an answer that is no partition of the
    board.

    >>> p = read("1 3\\n2 - 1\\n")
    >>> check(p, {"regions": [[[0, 0], [0, 1]], [[0, 2]]]})
    []
    >>> check(p, {"regions": [[[0, 0]], [[0, 1], [0, 2]]]})[0]
    'the region at (1, 1) has 1 cell, not its number 2'
    """
    m, n = puzzle.m, puzzle.n
    _, parts, out = sh.answer_regions(answer, m, n)
    if out:
        return out
    found = [
        [puzzle.clues[i][j] for i, j in cells if puzzle.clues[i][j] != BLANK] for cells in parts
    ]
    for cells, clues in zip(parts, found, strict=True):
        if not clues:
            out.append(f"the region at {cell_name(*cells[0])} has no number")
    for cells, clues in zip(parts, found, strict=True):
        if len(clues) > 1:
            out.append(f"the region at {cell_name(*cells[0])} has {len(clues)} numbers")
    for cells in parts:
        if not sh.is_rectangle(cells)[0]:
            out.append(f"the region at {cell_name(*cells[0])} is not a rectangle")
    for cells, clues in zip(parts, found, strict=True):
        known = [v for v in clues if v > 0]
        if known and known[0] != len(cells):
            s = "" if len(cells) == 1 else "s"
            out.append(
                f"the region at {cell_name(*cells[0])} has {len(cells)} cell{s}, "
                f"not its number {known[0]}"
            )
    return out + sh.dead_ends(m, n, answer)


def render(puzzle: ShikakuPuzzle, answer: Answer | None = None) -> str:
    """The numbers (``.`` none), then the answer's regions as letters.

    >>> print(render(read("1 3\\n2 - 1\\n"), {"regions": [[[0, 0], [0, 1]], [[0, 2]]]}))
    2 . 1
    <BLANKLINE>
    aab
    """
    board = "\n".join(
        " ".join("." if v == BLANK else "?" if v == QUESTION else str(v) for v in row)
        for row in puzzle.clues
    )
    return board + ("\n\n" + sh.render_regions(puzzle.m, puzzle.n, answer) if answer else "")


def draw(canvas: Any, puzzle: ShikakuPuzzle, answer: Answer | None) -> None:
    """The numbers and the answer's regions."""
    canvas.grid(puzzle.m, puzzle.n)
    for i, j, v in puzzle.numbers():
        canvas.text(i, j, "?" if v == QUESTION else str(v))
    sh.draw_region_answer(canvas, puzzle.m, puzzle.n, answer)


# ---------------------------------------------------------------------------------------------
# Formats


def read_url(text: str) -> ShikakuPuzzle:
    """A puz.link URL: the numbers (``decodeNumber16``).

    >>> read_url("https://puzz.link/p?shikaku/3/1/2g1").numbers()
    [(0, 0, 2), (0, 2, 1)]
    """
    _, cols, rows, body = url_of(NAME, text)
    values, _ = decode_number16(body, cols * rows)
    if 0 in values:
        raise InputError("the puz.link URL has a number 0 (a rectangle's area is not 0)")
    return ShikakuPuzzle(tuple(tuple(values[i * cols : (i + 1) * cols]) for i in range(rows)))


def write_url(puzzle: ShikakuPuzzle, answer: Answer | None = None) -> str:
    """The puz.link URL, as pzprjs writes it.

    >>> write_url(read("1 3\\n2 - 1\\n"))
    'https://puzz.link/p?shikaku/3/1/2g1\\n'
    """
    values = [v for row in puzzle.clues for v in row]
    return make_url(TYPE, puzzle.n, puzzle.m, encode_number16(values))


def read_clue_block(lines: list[str], rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """The numbers of a pzprv3 file (``.`` none, ``-`` a ``?``)."""
    tokens = block(lines, 0, rows, cols, "numbers")
    return sh.read_clues(
        [["?" if t == "-" else t for t in row] for row in tokens], "the pzprv3 file's ", ZERO
    )


def _parse_pzprv3(text: str) -> tuple[ShikakuPuzzle, Answer | None]:
    rows, cols, lines = read_pzprv3(text, NAME)
    puzzle = ShikakuPuzzle(read_clue_block(lines, rows, cols))
    return puzzle, sh.border_answer(lines, rows, rows, cols)


def read_file(text: str) -> ShikakuPuzzle:
    return _parse_pzprv3(text)[0]


def file_answer(puzzle: ShikakuPuzzle | None, text: str) -> Answer | None:
    """The answer a pzprv3 file holds (None: no border drawn); with ``puzzle``, the file must
    hold that puzzle."""
    held, drawn = _parse_pzprv3(text)
    if puzzle is not None and held != puzzle:
        raise InputError(f"the pzprv3 file holds another {NAME} than the puzzle given")
    return drawn


def write_file(puzzle: ShikakuPuzzle, answer: Answer | None = None) -> str:
    """The pzprv3 file as pzprjs writes it, with the answer's borders.

    >>> write_file(read("1 3\\n2 - 1\\n"), {"regions": [[[0, 0], [0, 1]], [[0, 2]]]}).split("\\n")
    ['pzprv3', 'shikaku', '1', '3', '2 . 1 ', '0 1 ', '']
    """
    m, n = puzzle.m, puzzle.n
    lines = ["pzprv3", TYPE, str(m), str(n)]
    lines += write_block(
        [
            ["." if v == BLANK else "-" if v == QUESTION else str(v) for v in row]
            for row in puzzle.clues
        ]
    )
    lines += write_block(sh.border_block_rows(m, n, sh.answer_borders(m, n, answer)))
    return "\n".join(lines) + "\n"


def grid_answer(puzzle: ShikakuPuzzle, text: str) -> Answer:
    """The answer of the corpus's answer grid (a region number per cell)."""
    return sh.read_region_ids(text, puzzle.m, puzzle.n)


def write_grid(puzzle: ShikakuPuzzle, answer: Answer | None = None) -> str:
    """The corpus's problem text, or with ``answer`` its answer grid."""
    return write(puzzle) if answer is None else sh.write_region_ids(puzzle.m, puzzle.n, answer)


SPEC = FamilySpec(
    name=NAME,
    summary="Shikaku: rectangles, each holding one number, its area",
    read=read,
    write=write,
    encode=encode,
    decode=decode,
    check=check,
    render=render,
    build=build,
    # Reading, encoding and parsing the corpus's shikaku0126_50x40: 344 bytes a character at the
    # peak (tracemalloc), doubled.
    bytes_per_cell=700,
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
