"""Akari (Light Up): lights that light every white cell and never each other.

**Rules.** Place lights on white cells. A light lights its own cell and the cells of its row
and column up to a wall or the edge. Every white cell is lit; no light lights another; a
numbered wall has exactly that many lights on its orthogonal neighbours.

**The puzzle's text** (the corpus's notation, ``SmilingWayne/puzzlekit-dataset``): a line
``ROWS COLS``, then ROWS rows of tokens, ``-`` a white cell, ``x`` a wall, ``0``-``4`` a
numbered wall (``.`` and ``#`` are read too)::

    3 3
    - - -
    - 1 -
    - - x

**The exact-cover problem**, in Knuth's style (names of
:class:`~dlxsat.families.shading.Names`: cell (i, j) is the point (2i+1, 2j+1)). A *segment* is
a maximal run of white cells in a row (``h`` and its first cell's name) or a column (``v``...):
a light lights exactly the segments it is in.

- a primary item per segment, covered once: by the light on one of its cells, or by its *dark*
  option, ``h13 d13 d15 d17``, which covers, uncolored, a secondary item ``d`` per cell of the
  segment. A cell lies in two segments, and two dark options would both cover its ``d`` item:
  so at most one of its segments is dark, and every cell is lit. A segment holding one light
  at most, no light lights another;
- a primary item per numbered wall, named by its cell, covered exactly that many times
  (``2|33``) by the lights next to it; a wall numbered 0 has no item, and no light is offered
  beside it;
- an option per light, on each white cell: its two segments and the numbered walls next to it
  (``h13 v13 33``). There is no global rule.

The plainer encoding, a primary item per white cell covered once or twice by the lights that
light it and an option per light covering every cell it lights, would have 87,796 entries on
the 100 x 100 corpus puzzle (34,555 here), and each cell covered one or two times is a
cardinality constraint for SAT, where here a cell costs one binary clause.

**Formats.** puz.link ``akari/COLS/ROWS/BODY`` (pzprjs also reads ``lightup`` and
``bijutsukan``): :func:`~dlxsat.families.codecs.decode_4cell`, ``.`` a wall without a number.
pzprv3 (``pzprv3``, ``lightup``, ROWS, COLS): one block, ``0``-``4`` a numbered wall, ``-`` a
wall, ``#`` a light, ``+`` a player's mark, ``.``; then, optionally, a block of walls a player
ticked (ignored). The answer grid is the corpus's: ``o`` a light, ``-`` the other cells (read
also with the walls written as in the problem, or as ``x``).
"""

from __future__ import annotations

from dataclasses import dataclass
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
from .loops import cell_name
from .spec import Codec, FamilySpec, Picture

Answer = dict[str, Any]
NAME = "akari"
#: pzprjs's names: URLs are written ``akari``, files ``lightup``.
URL_TYPE, FILE_TYPE = "akari", "lightup"
ALIASES = ("lightup", "bijutsukan")
#: A white cell, and a wall without a number (pzprjs's values); numbered walls are 0-4.
WHITE, WALL = BLANK, QUESTION
LIGHT = "o"


@dataclass(frozen=True)
class AkariPuzzle(Puzzle):
    """An Akari board: ``cells[i][j]`` is :data:`WHITE`, :data:`WALL` or a wall's number."""

    cells: tuple[tuple[int, ...], ...]

    @property
    def m(self) -> int:
        return len(self.cells)

    @property
    def n(self) -> int:
        return len(self.cells[0])

    def is_white(self, i: int, j: int) -> bool:
        return 0 <= i < self.m and 0 <= j < self.n and self.cells[i][j] == WHITE

    def segments(self, across: bool | None = None) -> list[list[tuple[int, int]]]:
        """The maximal runs of white cells: the rows' (left to right; ``across`` True), the
        columns' (top to bottom; False), or both, the rows' first (None).

        >>> p = read("2 2\\n- x\\n- -\\n")
        >>> p.segments(True), p.segments(False)
        ([[(0, 0)], [(1, 0), (1, 1)]], [[(0, 0), (1, 0)], [(1, 1)]])
        """
        if across is None:
            return self.segments(True) + self.segments(False)
        cells, m, n = self.cells, self.m, self.n
        if across:
            lines = [[(i, j) for j in range(n)] for i in range(m)]
        else:
            lines = [[(i, j) for i in range(m)] for j in range(n)]
        out: list[list[tuple[int, int]]] = []
        for line in lines:
            run: list[tuple[int, int]] = []
            for i, j in line:
                if cells[i][j] == WHITE:
                    run.append((i, j))
                elif run:
                    out.append(run)
                    run = []
            if run:
                out.append(run)
        return out


_TOKENS = {"-": WHITE, ".": WHITE, "x": WALL, "#": WALL}


def _cells(rows: list[list[str]], where: str) -> tuple[tuple[int, ...], ...]:
    out = []
    for i, row in enumerate(rows):
        values = []
        for j, tok in enumerate(row):
            if tok in _TOKENS:
                values.append(_TOKENS[tok])
            elif tok in "01234" and len(tok) == 1:
                values.append(int(tok))
            else:
                raise InputError(
                    f"{where} row {i + 1}, cell {j + 1}: {tok!r} is not - (white), x (wall) "
                    "or a wall's number 0-4"
                )
        out.append(tuple(values))
    return tuple(out)


def read(text: str) -> AkariPuzzle:
    """The puzzle of the corpus's text.

    >>> read("2 3\\n- 1 -\\n- - x\\n").cells
    ((-1, 1, -1), (-1, -1, -2))
    """
    _, _, (rows,) = rg.read_grids(text, 1, "akari")
    return AkariPuzzle(_cells(rows, ""))


def token(v: int) -> str:
    return "-" if v == WHITE else "x" if v == WALL else str(v)


def write(puzzle: AkariPuzzle) -> str:
    """The corpus's text of the puzzle."""
    rows = [" ".join(token(v) for v in row) for row in puzzle.cells]
    return f"{puzzle.m} {puzzle.n}\n" + "".join(r + "\n" for r in rows)


def build(puzzle: AkariPuzzle) -> Problem:
    """The exact-cover problem (see the module doc)."""
    m, n = puzzle.m, puzzle.n
    names = sh.Names(m, n)
    b = sh.Builder()
    segment: list[tuple[str, list[tuple[int, int]]]] = [
        (prefix + names.cell(*run[0]), run)
        for prefix, across in (("h", True), ("v", False))
        for run in puzzle.segments(across)
    ]
    seg_of: dict[tuple[int, int], list[str]] = {}
    for name, run in segment:
        b.item(name)
        for c in run:
            seg_of.setdefault(c, []).append(name)
    cells = puzzle.cells
    for i in range(m):
        for j in range(n):
            if cells[i][j] > 0:
                b.item(names.cell(i, j), cells[i][j])
    for i in range(m):
        for j in range(n):
            if cells[i][j] != WHITE:
                continue
            near = [(p, q) for p, q in sh.neighbours(m, n, i, j) if cells[p][q] >= 0]
            if any(cells[p][q] == 0 for p, q in near):
                continue  # beside a wall numbered 0: no light
            b.options.append([*seg_of[(i, j)], *(names.cell(*c) for c in near)])
    for name, run in segment:
        b.options.append([name, *("d" + names.cell(*c) for c in run)])
    b.secondary = [
        "d" + names.cell(i, j) for i in range(m) for j in range(n) if cells[i][j] == WHITE
    ]
    return b.problem()


def encode(puzzle: AkariPuzzle) -> str:
    """The exact-cover data (Knuth's format, the board in its comment lines)."""
    return sh.Builder.text(["akari:", *write(puzzle).splitlines()], build(puzzle))


def decode(puzzle: AkariPuzzle, problem: Problem, chosen: Any) -> Answer:
    """The lights: each chosen option of two segments is a light, in the row of its row
    segment and the column of its column segment."""
    names = sh.Names(puzzle.m, puzzle.n)
    lights = []
    for k in chosen:
        option = problem.options[k]
        first, second = (problem.items[x].name for x, _ in option[:2])
        if first[0] == "h" and second[0] == "v":
            lights.append((names.cell_of(first)[0], names.cell_of(second)[1]))
    return sh.cells_answer(sh.LIGHTS, lights)


def check(puzzle: AkariPuzzle, answer: Answer) -> list[str]:
    """The rules, judged on the answer, in pzprjs's order: no light lights another, every
    numbered wall has its number of lights, every white cell is lit (and no light on a wall).

    >>> p = read("2 2\\n- -\\n- 0\\n")
    >>> check(p, {"lights": [[0, 0]]}), check(p, {"lights": [[0, 0], [1, 0]]})[0]
    ([], 'the lights at (1, 1) and (2, 1) shine on each other')
    """
    m, n = puzzle.m, puzzle.n
    lights, out = sh.answer_cells(answer, sh.LIGHTS, m, n)
    for c in sorted(lights):
        if not puzzle.is_white(*c):
            out.append(f"a light on the wall at {cell_name(*c)}")
    lights = {c for c in lights if puzzle.is_white(*c)}
    lit: set[tuple[int, int]] = set()
    for run in puzzle.segments():
        on = [c for c in run if c in lights]
        if len(on) > 1:
            out.append(
                f"the lights at {cell_name(*on[0])} and {cell_name(*on[1])} shine on each other"
            )
        if on:
            lit.update(run)
    for i in range(m):
        for j in range(n):
            v = puzzle.cells[i][j]
            if v >= 0:
                have = sum(c in lights for c in sh.neighbours(m, n, i, j))
                if have != v:
                    out.append(
                        f"the wall at {cell_name(i, j)} has {have} lights next to it, not {v}"
                    )
    for i in range(m):
        for j in range(n):
            if puzzle.cells[i][j] == WHITE and (i, j) not in lit:
                out.append(f"cell {cell_name(i, j)} is not lit")
    return out


def render(puzzle: AkariPuzzle, answer: Answer | None = None) -> str:
    """The board: ``#`` a wall, its number, ``o`` a light, ``.`` a white cell.

    >>> print(render(read("2 2\\n- x\\n- 1\\n"), {"lights": [[1, 0]]}))
    .#
    o1
    """
    lights = sh.marked_cells(answer, sh.LIGHTS)

    def glyph(i: int, j: int) -> str:
        v = puzzle.cells[i][j]
        if v == WHITE:
            return LIGHT if (i, j) in lights else "."
        return "#" if v == WALL else str(v)

    return sh.render_cells(puzzle.m, puzzle.n, glyph)


def draw(canvas: Any, puzzle: AkariPuzzle, answer: Answer | None) -> None:
    """The walls black with their numbers in white, the lit cells pale, the lights."""
    from ..drawing import ANSWER

    m, n = puzzle.m, puzzle.n
    lights = {c for c in sh.marked_cells(answer, sh.LIGHTS) if puzzle.is_white(*c)}
    if lights:
        for run in puzzle.segments():
            if any(c in lights for c in run):
                for i, j in run:
                    canvas.shade(i, j, "#fff3b0")
    canvas.grid(m, n)
    for i in range(m):
        for j in range(n):
            v = puzzle.cells[i][j]
            if v != WHITE:
                canvas.shade(i, j, "black", z=1)
                if v >= 0:
                    canvas.text(i, j, str(v), colour="white")
    for i, j in sorted(lights):
        canvas.text(i, j, "\u25cf", colour=ANSWER, scale=1.2)


# ---------------------------------------------------------------------------------------------
# Formats


def read_url(text: str) -> AkariPuzzle:
    """A puz.link URL: the walls (``decode4Cell``, ``.`` a wall without a number).

    >>> read_url("https://puzz.link/p?akari/3/2/a.h").cells
    ((0, -1, -1), (-2, -1, -1))
    """
    _, cols, rows, body = url_of(NAME, text)
    values, _ = decode_4cell(body, cols * rows)
    return AkariPuzzle(tuple(tuple(values[i * cols : (i + 1) * cols]) for i in range(rows)))


def write_url(puzzle: AkariPuzzle, answer: Answer | None = None) -> str:
    """The puz.link URL, as pzprjs writes it.

    >>> write_url(read("2 3\\n0 - -\\n- - x\\n"))
    'https://puzz.link/p?akari/3/2/ah./\\n'
    """
    values = [v for row in puzzle.cells for v in row]
    return make_url(URL_TYPE, puzzle.n, puzzle.m, encode_4cell(values))


def _parse_pzprv3(text: str) -> tuple[AkariPuzzle, Answer | None]:
    rows, cols, lines = read_pzprv3(text, NAME)
    tokens = block(lines, 0, rows, cols, "cells")
    lights = {(i, j) for i in range(rows) for j in range(cols) if tokens[i][j] == "#"}
    plain = [
        ["-" if t in ("#", "+", ".") else "x" if t == "-" else t for t in row] for row in tokens
    ]
    puzzle = AkariPuzzle(_cells(plain, "the pzprv3 file's"))
    return puzzle, sh.cells_answer(sh.LIGHTS, lights) if lights else None


def read_file(text: str) -> AkariPuzzle:
    return _parse_pzprv3(text)[0]


def file_answer(puzzle: AkariPuzzle | None, text: str) -> Answer | None:
    """The answer a pzprv3 file holds (None: no light); with ``puzzle``, the file must hold
    that puzzle."""
    held, drawn = _parse_pzprv3(text)
    if puzzle is not None and held != puzzle:
        raise InputError(f"the pzprv3 file holds another {NAME} than the puzzle given")
    return drawn


def write_file(puzzle: AkariPuzzle, answer: Answer | None = None) -> str:
    """The pzprv3 file as pzprjs writes it, with the answer's lights.

    >>> write_file(read("1 3\\n1 - x\\n"), {"lights": [[0, 1]]}).split("\\n")
    ['pzprv3', 'lightup', '1', '3', '1 # - ', '']
    """
    lights = sh.marked_cells(answer, sh.LIGHTS)

    def tok(i: int, j: int) -> str:
        v = puzzle.cells[i][j]
        if v == WHITE:
            return "#" if (i, j) in lights else "."
        return "-" if v == WALL else str(v)

    lines = ["pzprv3", FILE_TYPE, str(puzzle.m), str(puzzle.n)]
    lines += write_block([[tok(i, j) for j in range(puzzle.n)] for i in range(puzzle.m)])
    return "\n".join(lines) + "\n"


def grid_answer(puzzle: AkariPuzzle, text: str) -> Answer:
    """The answer of the corpus's answer grid: ``o`` a light; ``-``, ``x`` or a wall's number
    the other cells (the corpus writes walls three ways)."""
    lights = sh.read_marks(
        text, puzzle.m, puzzle.n, LIGHT, ("-", "x", "0", "1", "2", "3", "4"), "light"
    )
    return sh.cells_answer(sh.LIGHTS, lights)


def write_grid(puzzle: AkariPuzzle, answer: Answer | None = None) -> str:
    """The corpus's problem text, or with ``answer`` its answer grid (``o`` a light, ``-``
    every other cell, walls too: the way most of its answers are written)."""
    if answer is None:
        return write(puzzle)
    lights = sh.marked_cells(answer, sh.LIGHTS)
    return sh.write_marks(f"{puzzle.m} {puzzle.n}", puzzle.m, puzzle.n, lights, LIGHT, "-")


SPEC = FamilySpec(
    name=NAME,
    summary="Akari (Light Up): lights lighting every white cell, none another; walls count them",
    aliases=ALIASES,
    read=read,
    write=write,
    encode=encode,
    decode=decode,
    check=check,
    render=render,
    build=build,
    # Reading, encoding and parsing the corpus's 530_100x100: 526 bytes a character at the
    # peak (tracemalloc), doubled.
    bytes_per_cell=1100,
    formats=("knuth", "puzzlink", "pzprv3", "grid"),
    writes=("knuth", "puzzlink", "pzprv3", "grid"),
    answers=("pzprv3", "grid"),
    codecs={
        "puzzlink": Codec(read=read_url, write=write_url, names=(URL_TYPE, *ALIASES)),
        "pzprv3": Codec(
            read=read_file,
            write=write_file,
            answer=file_answer,
            names=(FILE_TYPE, NAME, "bijutsukan"),
        ),
        "grid": Codec(read=read, write=write_grid, answer=grid_answer),
    },
    picture=Picture(lambda p: (p.m, p.n), draw),
)
