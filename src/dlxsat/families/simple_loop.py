"""Simple Loop: one loop through every cell that is not blocked.

**Rules.** Draw one loop through the centres of the cells, going from cell to orthogonal
neighbour, that passes every open cell exactly once and never enters a blocked (shaded) cell.

**The puzzle's text** (the corpus's notation, ``SmilingWayne/puzzlekit-dataset``): a line
``ROWS COLS``, then ROWS rows of COLS tokens, ``-`` an open cell and ``x`` a blocked one
(``.`` and ``#`` are read too)::

    3 3
    - - -
    - x -
    - - -

**The exact-cover problem**, in Knuth's style (the Masyu names of
:class:`~dlxsat.families.loops.LoopBoard`, docs/conventions.md §4):

- a primary item per open cell ``(2i, 2j)`` -- a vertex of the loop;
- a secondary item per edge between two open cells, named by its midpoint, colored ``1`` (on
  the loop) or ``0``; an edge into a blocked cell is no item at all, so the loop cannot take it;
- the options of an open cell: each pair of its edges on, the others off (a cell with two open
  neighbours has one option, a corridor the loop must take);
- the global rule ``|@loop``: the edges on form one cycle (never the empty one). Every option
  has degree 2, so every open cell is on the loop; what the options cannot see -- that the
  cycles are one -- the backends add lazily.

**Formats.** puz.link ``simpleloop/COLS/ROWS/BODY``: the blocked cells, five a base-32 digit
(:func:`~dlxsat.families.codecs.decode_binary`), nothing at all when none is blocked. pzprv3
(``pzprv3``, ``simpleloop``, ROWS, COLS): a block of ``*`` blocked / ``.`` open, then the two
blocks of the line. The answer grid is the corpus's line tokens
(:func:`~dlxsat.families.loops.read_segments`), ``-`` for a blocked cell.
"""

from __future__ import annotations

from typing import Any

from ..errors import InputError
from ..xcc.model import Item, Problem
from . import regions as rg
from .codecs import block, decode_binary, encode_binary, make_url, read_pzprv3, url_of, write_block
from .loops import (
    edges_on,
    grid_codec,
    line_answer,
    read_pzprv3_lines,
    render_line,
    write_pzprv3_lines,
)
from .regions import Answer, RegionLoopPuzzle
from .spec import Codec, FamilySpec, Picture

NAME = "simple-loop"
#: puz.link's and pzprjs's name.
TYPE = "simpleloop"
OPEN, BLOCK = "-", "x"


class SimpleLoopPuzzle(RegionLoopPuzzle):
    """A Simple Loop board: its blocked cells (the open cells' rooms mean nothing here)."""


def _make(m: int, n: int, blocked: set[tuple[int, int]]) -> SimpleLoopPuzzle:
    b = rg.board([[int((i, j) in blocked) for j in range(n)] for i in range(m)], blocked=1)
    return SimpleLoopPuzzle(b.room)


def read(text: str) -> SimpleLoopPuzzle:
    """The puzzle of the corpus's grid text.

    >>> sorted(read("2 3\\n- x -\\n- - -\\n").blocked)
    [(0, 1)]
    """
    m, n, (rows,) = rg.read_grids(text, 1, "simple loop")
    blocked = set()
    for i, row in enumerate(rows):
        for j, tok in enumerate(row):
            if tok in ("x", "#"):
                blocked.add((i, j))
            elif tok not in ("-", "."):
                raise InputError(f"row {i + 1}, cell {j + 1}: {tok!r} is not - (open) or x")
    return _make(m, n, blocked)


def write(puzzle: SimpleLoopPuzzle) -> str:
    """The corpus's grid text of the puzzle (what :func:`read` reads back)."""
    rows = [
        " ".join(BLOCK if (i, j) in puzzle.blocked else OPEN for j in range(puzzle.n))
        for i in range(puzzle.m)
    ]
    return f"{puzzle.m} {puzzle.n}\n" + "".join(r + "\n" for r in rows)


def build(puzzle: SimpleLoopPuzzle) -> Problem:
    """The exact-cover problem (see the module doc), with the single-loop rule."""
    b = rg.Builder()
    lb = puzzle.loop_board
    cells = [(i, j) for i in range(puzzle.m) for j in range(puzzle.n) if puzzle.is_open(i, j)]
    b.primary = [Item(lb.cell(i, j)) for i, j in cells]
    seen: set[str] = set()
    for i, j in cells:
        for _, entries in rg.shapes(puzzle, i, j, (2,), seen):
            b.options.append([lb.cell(i, j), *entries])
    b.secondary = [e for e in lb.all_edges() if e in seen]
    return b.problem()


def encode(puzzle: SimpleLoopPuzzle) -> str:
    """The exact-cover data (Knuth's format, the board in its comment lines)."""
    heading = ["simple-loop:", *write(puzzle).splitlines()]
    return rg.Builder.text(heading, build(puzzle))


def decode(puzzle: SimpleLoopPuzzle, problem: Problem, chosen: Any) -> Answer:
    return line_answer(edges_on(problem, chosen))


def check(puzzle: SimpleLoopPuzzle, answer: Answer) -> list[str]:
    """The rules, judged on the answer, in pzprjs's order: no branch, no crossing, no dead end,
    one loop, every open cell on it (and never into a blocked cell).

    >>> p = read("2 2\\n- -\\n- -\\n")
    >>> check(p, {"edges": [[0, 1], [1, 0], [1, 2], [2, 1]]})
    []
    >>> check(p, {"edges": [[0, 1], [1, 0]]})
    ['the line has a dead end at cell (1, 2)', 'the line has a dead end at cell (2, 1)']
    """
    line = rg.read_line(puzzle, answer)
    out = line.wrong + rg.branches(line) + rg.crossings_of_line(line) + rg.dead_ends(line)
    if out:
        return out
    out = rg.several_loops(line) + rg.empty_cells(line)
    if not out and not line.edges:
        out.append("there is no loop")
    return out


def render(puzzle: SimpleLoopPuzzle, answer: Answer | None = None) -> str:
    """The board in ASCII (``#`` a blocked cell) with the loop.

    >>> print(render(read("2 2\\n- -\\n- -\\n"), {"edges": [[0, 1], [1, 0], [1, 2], [2, 1]]}))
    .---.
    |   |
    .---.
    """
    return render_line(puzzle.m, puzzle.n, answer, rg.glyph(puzzle))


def draw(canvas: Any, puzzle: SimpleLoopPuzzle, answer: Answer | None) -> None:
    """The grid, the blocked cells black, the loop."""
    canvas.grid(puzzle.m, puzzle.n)
    for i, j in puzzle.blocked:
        canvas.shade(i, j)
    if answer:
        canvas.loop(answer.get("edges", []), 0.5)


# ---------------------------------------------------------------------------------------------
# Formats


def read_url(text: str) -> SimpleLoopPuzzle:
    """A puz.link URL: the blocked cells (nothing when none is).

    >>> sorted(read_url("https://puzz.link/p?simpleloop/5/5/sg020").blocked)
    [(0, 0), (0, 1), (0, 2), (1, 0), (3, 3)]
    """
    flags, cols, rows, body = url_of(NAME, text)
    if flags:
        raise InputError(f"puz.link flags {flags!r} are not Simple Loop's (it has none)")
    bits, _ = decode_binary(body, cols * rows) if body else ([0] * (cols * rows), "")
    return _make(rows, cols, {divmod(c, cols) for c, b in enumerate(bits) if b})


def write_url(puzzle: SimpleLoopPuzzle, answer: Answer | None = None) -> str:
    """The puz.link URL, as pzprjs writes it.

    >>> write_url(read("2 2\\n- -\\n- -\\n"))
    'https://puzz.link/p?simpleloop/2/2//\\n'
    """
    bits = [int((i, j) in puzzle.blocked) for i in range(puzzle.m) for j in range(puzzle.n)]
    return make_url(TYPE, puzzle.n, puzzle.m, encode_binary(bits, skip_none=True))


def _parse_pzprv3(text: str) -> tuple[SimpleLoopPuzzle, Answer | None]:
    rows, cols, lines = read_pzprv3(text, NAME)
    cells = block(lines, 0, rows, cols, "cells")
    puzzle = _make(
        rows, cols, {(i, j) for i in range(rows) for j in range(cols) if cells[i][j] == "*"}
    )
    if len(lines) < 3 * rows - 1:
        return puzzle, None
    across = block(lines, rows, rows, cols - 1, "lines between horizontal neighbours")
    down = block(lines, 2 * rows, rows - 1, cols, "lines between vertical neighbours")
    return puzzle, line_answer(read_pzprv3_lines(across, down))


def read_file(text: str) -> SimpleLoopPuzzle:
    return _parse_pzprv3(text)[0]


def file_answer(puzzle: SimpleLoopPuzzle | None, text: str) -> Answer | None:
    """The answer a pzprv3 file holds (None: it has no line blocks); with ``puzzle``, the file
    must hold that puzzle."""
    held, drawn = _parse_pzprv3(text)
    if puzzle is not None and held != puzzle:
        raise InputError("the pzprv3 file holds another simple-loop than the puzzle given")
    return drawn


def write_file(puzzle: SimpleLoopPuzzle, answer: Answer | None = None) -> str:
    """The pzprv3 file as pzprjs writes it, with the answer's line (if any).

    >>> write_file(read("1 2\\n- -\\n")).split("\\n")
    ['pzprv3', 'simpleloop', '1', '2', '. . ', '0 ', '']
    """
    m, n = puzzle.m, puzzle.n
    lines = ["pzprv3", TYPE, str(m), str(n)]
    lines += write_block(
        [["*" if (i, j) in puzzle.blocked else "." for j in range(n)] for i in range(m)]
    )
    lines += write_block(write_pzprv3_lines(m, n, (answer or {}).get("edges", [])))
    return "\n".join(lines) + "\n"


SPEC = FamilySpec(
    name=NAME,
    summary="Simple Loop: one loop through every cell that is not blocked",
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
    codecs={
        "puzzlink": Codec(read=read_url, write=write_url, names=(TYPE,)),
        "pzprv3": Codec(read=read_file, write=write_file, answer=file_answer, names=(TYPE,)),
        "grid": grid_codec(read, write, shade=""),
    },
    picture=Picture(lambda p: (p.m, p.n), draw),
)
