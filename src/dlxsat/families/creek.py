"""Creek: shade cells so that every clue on a grid point counts the shaded cells around it, and
the white cells are connected.

**Rules.** Numbers stand on grid points (the corners of cells, the outline's included). Shade
some cells so that each number is the count of shaded cells among the (up to four) cells
touching its point, and all white cells are orthogonally connected. A ``?`` is a point with a
circle but no number: any count. pzprjs also wants at least one shaded cell.

**The puzzle's text** (the corpus's notation, ``SmilingWayne/puzzlekit-dataset``): a line
``ROWS COLS`` (the size in cells), then ROWS + 1 rows of COLS + 1 tokens, one per grid point:
``-`` (or ``.``) no number, ``0``-``4``, ``?``::

    2 2
    - 1 -
    - - 2
    - - -

**The exact-cover problem**, in Knuth's style (names of
:class:`~dlxsat.families.shading.Names`: cell (i, j) is the point (2i+1, 2j+1), grid point
(i, j) the point (2i, 2j)):

- a secondary item per cell, named by the cell, colored ``1`` when the cell is shaded and
  ``0`` when it is white: every option that decides a cell gives it its color, and the
  options of an answer agree on it;
- a primary item per number, named by its grid point, and an option per way of shading
  exactly that many of the cells around it: the point and the cells' colors
  (``22 11:1 13:0 31:0 33:1``). A number larger than its cells has no option, and the puzzle
  no answer;
- a primary item ``p`` and the cell's name for each cell that no number touches, with the
  options ``p13 13:1`` and ``p13 13:0``: every cell is decided, by a number or on its own;
- when no number is positive nothing forces a shaded cell, and a primary item ``any``,
  covered from 1 to k times by the k options that shade a cell on its own, asks for one
  (pzprjs's ``brNoShade``); otherwise the numbers force one and the item is left out;
- the global rule ``|@connected white``: the cells colored ``0`` are connected
  (:func:`~dlxsat.families.shading.cells_rule`), enforced by the backends -- DLX prunes,
  SAT and CP-SAT add cuts lazily (default) or state it eagerly (``--connected-mode eager``).

**Formats.** puz.link ``creek/COLS/ROWS/BODY``: the numbers of the (ROWS + 1)(COLS + 1) grid
points in reading order (:func:`~dlxsat.families.codecs.decode_4cell`, ``.`` a ``?``); the
flag ``d`` is pzprjs's old body (a character per point, ``0``-``4`` a number), read only.
pzprv3 (``pzprv3``, ``creek``, ROWS, COLS): ROWS + 1 lines of COLS + 1 numbers (``.`` none,
``-`` a ``?``), then the cells (``#`` shaded, ``+`` a player's mark, ``.``). The answer grid is
the corpus's: ``x`` shaded, ``-`` white.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Any

from ..errors import InputError
from ..xcc.model import Problem
from . import regions as rg
from . import shading as sh
from .base import Puzzle
from .codecs import (
    BLANK,
    QUESTION,
    block,
    decode_4cell,
    encode_4cell,
    make_url,
    read_pzprv3,
    url_of,
    write_block,
)
from .spec import Codec, FamilySpec, Picture

Answer = dict[str, Any]
NAME = TYPE = "creek"


@dataclass(frozen=True)
class CreekPuzzle(Puzzle):
    """A Creek board of ``m`` x ``n`` cells: ``points[i][j]`` the number on grid point (i, j)
    (0 <= i <= m, 0 <= j <= n), :data:`~dlxsat.families.codecs.BLANK` or
    :data:`~dlxsat.families.codecs.QUESTION`."""

    points: tuple[tuple[int, ...], ...]

    @property
    def m(self) -> int:
        return len(self.points) - 1

    @property
    def n(self) -> int:
        return len(self.points[0]) - 1

    def numbers(self) -> list[tuple[int, int, int]]:
        """The numbers (``?`` left out), ``(i, j, value)`` by their points in reading order."""
        return [(i, j, v) for i, row in enumerate(self.points) for j, v in enumerate(row) if v >= 0]

    def around(self, i: int, j: int) -> list[tuple[int, int]]:
        """The cells touching grid point (i, j), in reading order."""
        return [
            (p, q) for p in (i - 1, i) for q in (j - 1, j) if 0 <= p < self.m and 0 <= q < self.n
        ]


def _points(rows: list[list[str]], where: str) -> tuple[tuple[int, ...], ...]:
    out = []
    for i, row in enumerate(rows):
        values = []
        for j, tok in enumerate(row):
            v = BLANK if tok == "." else rg.read_number(tok, f"{where}row {i + 1}, point {j + 1}")
            if v > 4:
                raise InputError(
                    f"{where}row {i + 1}, point {j + 1}: {v} cells cannot touch a grid point (0-4)"
                )
            values.append(v)
        out.append(tuple(values))
    return tuple(out)


def read(text: str) -> CreekPuzzle:
    """The puzzle of the corpus's text.

    >>> read("1 2\\n- 1 -\\n- - 2\\n").numbers()
    [(0, 1, 1), (1, 2, 2)]
    """
    lines = rg.grid_lines(text)
    head = lines[0] if lines else []
    if len(head) != 2 or not all(t.isdigit() for t in head):
        raise InputError("line 1: a creek begins with its size in cells, ROWS COLS")
    m, n = int(head[0]), int(head[1])
    if m < 1 or n < 1:
        raise InputError(f"line 1: a creek of {m} x {n} cells is no board")
    body = lines[1:]
    if len(body) != m + 1:
        raise InputError(f"the creek has {len(body)} rows of points, not {m + 1} (ROWS + 1)")
    for k, row in enumerate(body):
        if len(row) != n + 1:
            raise InputError(f"line {k + 2}: {len(row)} points, but a row has {n + 1} (COLS + 1)")
    return CreekPuzzle(_points(body, ""))


def write(puzzle: CreekPuzzle) -> str:
    """The corpus's text of the puzzle."""
    rows = [" ".join(rg.write_number(v) for v in row) for row in puzzle.points]
    return f"{puzzle.m} {puzzle.n}\n" + "".join(r + "\n" for r in rows)


def build(puzzle: CreekPuzzle) -> Problem:
    """The exact-cover problem (see the module doc)."""
    m, n = puzzle.m, puzzle.n
    names = sh.Names(m, n)
    b = sh.Builder()
    touched: set[tuple[int, int]] = set()
    for i, j, v in puzzle.numbers():
        point = names.point(i, j)
        b.item(point)
        cells = puzzle.around(i, j)
        touched.update(cells)
        for on in combinations(cells, v):
            b.options.append([point, *(f"{names.cell(*c)}:{int(c in on)}" for c in cells)])
    free = [(i, j) for i in range(m) for j in range(n) if (i, j) not in touched]
    force = not any(v > 0 for _, _, v in puzzle.numbers())
    sh.decide_cells(b, names, free, sh.ANY if force else None)
    b.secondary = [names.cell(i, j) for i in range(m) for j in range(n)]
    sh.some_shaded(b, names, check(puzzle, {"shaded": []}))
    problem = b.problem()
    items = {(i, j): names.cell(i, j) for i in range(m) for j in range(n)}
    # No roots, although the cells around a 0 are white in every answer: rooted, every piece
    # is cut off from those few cells, often far away, where unrooted it is cut off from the
    # largest piece, and the SAT backend needs more rounds and longer cuts (439_30x48: 14.2 s
    # rooted against 4.6 s with front separators; over 100 s against 38-63 s with least ones).
    return problem.with_rules(sh.cells_rule(problem, items, "0", "white"))


def encode(puzzle: CreekPuzzle) -> str:
    """The exact-cover data (Knuth's format, the board in its comment lines)."""
    return sh.Builder.text(["creek:", *write(puzzle).splitlines()], build(puzzle))


def decode(puzzle: CreekPuzzle, problem: Problem, chosen: Any) -> Answer:
    """The shaded cells: those the chosen options color shaded."""
    return sh.decode_shaded(puzzle, problem, chosen)


def check(puzzle: CreekPuzzle, answer: Answer) -> list[str]:
    """The rules, judged on the answer, in pzprjs's order: no shaded cell at all, a number
    with too many shaded cells around it, white cells in several pieces, a number with too
    few.

    >>> p = read("1 2\\n- 1 -\\n- - -\\n")
    >>> check(p, {"shaded": [[0, 1]]})
    []
    >>> check(p, {"shaded": [[0, 0], [0, 1]]})
    ['the 1 at the corner above left of cell (1, 2) has 2 shaded cells around it, not 1']
    """
    m, n = puzzle.m, puzzle.n
    shaded, out = sh.answer_cells(answer, sh.SHADED, m, n)
    if not shaded:
        out.append(sh.NO_SHADED_CELL)
    counts = [
        (i, j, v, sum(c in shaded for c in puzzle.around(i, j))) for i, j, v in puzzle.numbers()
    ]

    def wrong(i: int, j: int, v: int, k: int) -> str:
        place = sh.point_place(m, n, i, j)
        return f"the {v} at {place} has {k} shaded cells around it, not {v}"

    out += [wrong(*c) for c in counts if c[3] > c[2]]
    white = {(i, j) for i in range(m) for j in range(n)} - shaded
    out += sh.divided(white, "white")
    out += [wrong(*c) for c in counts if c[3] < c[2]]
    return out


def render(puzzle: CreekPuzzle, answer: Answer | None = None) -> str:
    """The cells (``#`` shaded, ``.`` white) between the rows of grid points (a number, ``?``,
    or ``+`` none).

    >>> print(render(read("1 2\\n- 1 -\\n- - -\\n"), {"shaded": [[0, 1]]}))
    +1+
    .#
    +++
    """
    shaded = sh.marked_cells(answer, sh.SHADED)

    def point(v: int) -> str:
        return "+" if v == BLANK else "?" if v == QUESTION else str(v)

    rows = []
    for i, row in enumerate(puzzle.points):
        rows.append("".join(point(v) for v in row))
        if i < puzzle.m:
            rows.append("".join("#" if (i, j) in shaded else "." for j in range(puzzle.n)))
    return "\n".join(rows)


def draw(canvas: Any, puzzle: CreekPuzzle, answer: Answer | None) -> None:
    """The shaded cells, and the numbers in circles on the grid points."""
    canvas.grid(puzzle.m, puzzle.n)
    for i, j in sorted(sh.marked_cells(answer, sh.SHADED)):
        canvas.shade(i, j)
    canvas.walls([[0] * puzzle.n for _ in range(puzzle.m)])
    for i, row in enumerate(puzzle.points):
        for j, v in enumerate(row):
            if v != BLANK:
                canvas.circle(i - 0.5, j - 0.5, False, 0.3, 3)
                canvas.text(i - 0.5, j - 0.5, "?" if v == QUESTION else str(v), scale=0.8)


# ---------------------------------------------------------------------------------------------
# Formats


def _board(values: list[int], cols: int, rows: int) -> CreekPuzzle:
    w = cols + 1
    return CreekPuzzle(tuple(tuple(values[i * w : (i + 1) * w]) for i in range(rows + 1)))


def read_url(text: str) -> CreekPuzzle:
    """A puz.link URL: the numbers of the grid points (``decode4Cross``; flag ``d``: the old
    body, a character per point).

    >>> read_url("https://puzz.link/p?creek/2/1/h2i").numbers()
    [(0, 2, 2)]
    >>> read_url("https://puzz.link/p?creek/d/2/1/..2...").numbers()
    [(0, 2, 2)]
    """
    flags, cols, rows, body = url_of(NAME, text)
    count = (cols + 1) * (rows + 1)
    if "d" in flags:
        values = [int(ch) if ch in "01234" else BLANK for ch in body[:count]]
        values += [BLANK] * (count - len(values))
    else:
        values, _ = decode_4cell(body, count)
    return _board(values, cols, rows)


def write_url(puzzle: CreekPuzzle, answer: Answer | None = None) -> str:
    """The puz.link URL, as pzprjs writes it.

    >>> write_url(read_url("https://puzz.link/p?creek/6/6/gagaich2cgb6769dt"))
    'https://puzz.link/p?creek/6/6/gagaich2cgb6769dt\\n'
    """
    values = [v for row in puzzle.points for v in row]
    return make_url(TYPE, puzzle.n, puzzle.m, encode_4cell(values))


def _parse_pzprv3(text: str) -> tuple[CreekPuzzle, Answer | None]:
    rows, cols, lines = read_pzprv3(text, NAME)
    tokens = block(lines, 0, rows + 1, cols + 1, "numbers on the grid points")
    points = _points(
        [["?" if t == "-" else t for t in row] for row in tokens], "the pzprv3 file's "
    )
    puzzle = CreekPuzzle(points)
    shaded = sh.read_ans_block(lines, rows + 1, rows, cols)
    return puzzle, sh.cells_answer(sh.SHADED, shaded) if shaded else None


def read_file(text: str) -> CreekPuzzle:
    return _parse_pzprv3(text)[0]


def file_answer(puzzle: CreekPuzzle | None, text: str) -> Answer | None:
    """The answer a pzprv3 file holds (None: nothing shaded); with ``puzzle``, the file must
    hold that puzzle."""
    held, drawn = _parse_pzprv3(text)
    if puzzle is not None and held != puzzle:
        raise InputError(f"the pzprv3 file holds another {NAME} than the puzzle given")
    return drawn


def write_file(puzzle: CreekPuzzle, answer: Answer | None = None) -> str:
    """The pzprv3 file as pzprjs writes it, with the answer's shaded cells.

    >>> write_file(read("1 1\\n1 -\\n- -\\n"), {"shaded": [[0, 0]]}).split("\\n")
    ['pzprv3', 'creek', '1', '1', '1 . ', '. . ', '# ', '']
    """
    m, n = puzzle.m, puzzle.n
    lines = ["pzprv3", TYPE, str(m), str(n)]
    lines += write_block(
        [
            ["." if v == BLANK else "-" if v == QUESTION else str(v) for v in row]
            for row in puzzle.points
        ]
    )
    lines += write_block(sh.ans_rows(m, n, sh.marked_cells(answer, sh.SHADED)))
    return "\n".join(lines) + "\n"


SPEC = FamilySpec(
    name=NAME,
    summary="Creek: numbers on grid points count the shaded cells around them; white connected",
    read=read,
    write=write,
    encode=encode,
    decode=decode,
    check=check,
    render=render,
    build=build,
    rules=("connected",),
    # SAT, not auto: DLX wins the boards it ends in a few hundred nodes, by up to 3 x, and
    # loses the others with trees of millions (an unshaded cell's connection prunes late); on
    # every sample measured sat was the nearer to the virtual best engine (benchmarks/
    # published.py, boards of at most 225 cells, 10 a sample, best of 2): sat 1.11, 1.02, 1.50
    # against auto's 1.13, 1.07, 1.73 (seeds 62, 67, 69, 2026-11-28); on the corpus's three
    # largest sat 0.11, 1.06, 2.75 s against auto's 0.15, 1.10, 2.82 s.
    default_backend="sat",
    # Reading, encoding and parsing the corpus's 420_40x50: 1086 bytes a character at the peak
    # (tracemalloc), doubled.
    bytes_per_cell=2200,
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
