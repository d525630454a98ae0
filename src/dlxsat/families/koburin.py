"""Koburin: shade some cells, draw one loop through all the others; numbers count shaded neighbours.

**The rules.** Some cells hold a number (0-4). Shade some of the other cells, no two of them
side by side, and draw one loop through the centres of all the remaining cells, never through
a numbered cell; the loop does not branch or cross itself. A number counts the shaded cells
among its (up to) four neighbours.

**The puzzle's text** is the corpus's notation (``SmilingWayne/puzzlekit-dataset``, Janko's
puzzles): an optional line ``ROWS COLS``, then a row of space-separated tokens per row of
cells: ``-`` an open cell (shaded or on the loop), ``0``-``4`` a numbered cell, ``?`` a
numbered cell whose number is unknown (pzprjs's ``?``: it blocks, it counts nothing).

**The encoding**, in Knuth's style, one step at a time (as Yajilin's: the shared part is
:func:`~dlxsat.families.loops.shaded_loop_options`):

1. Each open cell (i, j) is a primary item, the tile (2i, 2j) of Masyu's naming (docs/
   conventions.md §4); the loop's edges between two open cells are secondary items named by
   their midpoints, colored ``1`` (on the loop) or ``0``. No edge touches a numbered cell, so
   the loop never passes one, and a numbered cell has no cell item: it is never shaded.
2. An open cell's options are the loop's ways through it (two of its open edges ``1``, the
   others ``0``) and *shaded* (every edge ``0``): each open cell is on the loop or shaded.
3. Each pair of open neighbours has a secondary item (the edge's name behind an ``x``) that
   the shaded option of either covers, without color: two shaded neighbours would cover it
   twice.
4. A number k ≥ 1 is a primary item (2i+1, 2j+1), as Masyu's circles are, to be covered
   exactly k times (Knuth's multiplicity ``k|name``) by the shaded options of its open
   neighbours; a 0 has no item (Knuth's format has no bound 0), its neighbours simply have no
   shaded option.
5. The global rule ``|@loop``: the edges colored ``1`` form a single loop (never the empty
   one), added lazily by the backends.

A number's options could as well list the sets of its shaded neighbours (at most six sets of
four neighbours): the multiplicity states it with one entry per neighbour.

An answer is ``{"edges": [[x, y], ...], "shaded": [[i, j], ...]}``.

**Formats**: puz.link URLs (``koburin``; the body pzprjs's 4Cell; the display flag ``b`` is
read and dropped, the flags ``o`` (shaded cells outside the loop) and ``m`` (numbers count the
eight cells around) change the rules and are refused), pzprv3 files (the same flags as lines;
the numbers, ``-`` for ``?``; the shaded cells ``#``; the line blocks), and the corpus's grids
(problem and answer: a cell on the loop is the sides the loop leaves by, in any order, ``x`` a
shaded cell, ``-`` a numbered one).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ..errors import InputError
from ..xcc.model import Problem
from .base import Puzzle, puzzle_lines
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
from .loops import (
    LoopBoard,
    LoopData,
    cell_name,
    count_clues,
    draw_line,
    edges_on,
    line_answer,
    read_answer_grid,
    read_cell_ans,
    read_pzprv3_lines,
    render_line,
    shaded_board,
    shaded_loop_options,
    shaded_loop_problems,
    token_rows,
    untouched,
    write_answer_grid,
    write_cell_ans,
    write_pzprv3_lines,
)
from .spec import Answer, Codec, FamilySpec, Picture

OPEN, UNKNOWN = "-", "?"
STEPS = ((-1, 0), (0, -1), (0, 1), (1, 0))


@dataclass(frozen=True)
class KoburinPuzzle(Puzzle):
    """A Koburin board: ``cells[i][j]`` is ``-`` (open), ``0``-``4`` or ``?``.

    >>> p = read("2 3\\n- 1 -\\n- - -\\n")
    >>> p.m, p.n, p.number(0, 1), p.neighbours(0, 1)
    (2, 3, 1, [(0, 0), (0, 2), (1, 1)])
    """

    cells: tuple[tuple[str, ...], ...]

    @property
    def m(self) -> int:
        return len(self.cells)

    @property
    def n(self) -> int:
        return len(self.cells[0])

    def is_open(self, i: int, j: int) -> bool:
        return self.cells[i][j] == OPEN

    def number(self, i: int, j: int) -> int | None:
        """A numbered cell's number (None: ``?``, or an open cell)."""
        tok = self.cells[i][j]
        return int(tok) if tok.isdigit() else None

    def neighbours(self, i: int, j: int) -> list[tuple[int, int]]:
        return [
            (i + di, j + dj) for di, dj in STEPS if 0 <= i + di < self.m and 0 <= j + dj < self.n
        ]

    def open_cells(self) -> list[tuple[int, int]]:
        return [(i, j) for i in range(self.m) for j in range(self.n) if self.is_open(i, j)]

    def clue_cells(self) -> list[tuple[int, int]]:
        return [(i, j) for i in range(self.m) for j in range(self.n) if not self.is_open(i, j)]

    @cached_property
    def board(self) -> LoopBoard:
        return shaded_board(self.m, self.n)

    @cached_property
    def data(self) -> LoopData:
        """The exact-cover problem (:func:`encode`), made once."""
        return _data(self)


# ---------------------------------------------------------------------------------------------
# Reading and writing the corpus's notation


def from_tokens(rows: list[list[str]], first: int = 1) -> KoburinPuzzle:
    """The puzzle of rows of tokens (``first``: the line number of the first row)."""
    if not rows or not rows[0]:
        raise InputError("the puzzle has no rows of cells")
    width = len(rows[0])
    cells = []
    for k, row in enumerate(rows):
        if len(row) != width:
            raise InputError(f"line {first + k}: {len(row)} cells, but line {first} has {width}")
        out = []
        for c, tok in enumerate(row, 1):
            if tok in (OPEN, "."):
                out.append(OPEN)
            elif tok == UNKNOWN or (tok.isdigit() and tok.isascii() and int(tok) <= 4):
                out.append(tok if tok == UNKNOWN else str(int(tok)))
            else:
                raise InputError(
                    f"line {first + k}, cell {c}: {tok!r} is not - (open), a number 0-4 or ?"
                )
        cells.append(tuple(out))
    puzzle = KoburinPuzzle(tuple(cells))
    shaded_board(puzzle.m, puzzle.n)
    return puzzle


def read(text: str) -> KoburinPuzzle:
    """The puzzle of the corpus's notation: an optional ``ROWS COLS`` line, then the rows.

    >>> read("- 1\\n0 -\\n").cells
    (('-', '1'), ('0', '-'))
    """
    rows, first = token_rows("\n".join(puzzle_lines(text.replace("\r\n", "\n"))))
    return from_tokens(rows, first)


def write(puzzle: KoburinPuzzle) -> str:
    """The corpus's notation, with its ``ROWS COLS`` line: what :func:`read` reads back.

    >>> print(write(read("- 1\\n? -\\n")), end="")
    2 2
    - 1
    ? -
    """
    return f"{puzzle.m} {puzzle.n}\n" + "".join(" ".join(row) + "\n" for row in puzzle.cells)


# ---------------------------------------------------------------------------------------------
# The encoding


def _data(puzzle: KoburinPuzzle) -> LoopData:
    board = puzzle.board
    given = []
    for i, j in puzzle.clue_cells():
        count = puzzle.number(i, j)
        if count is not None:
            seen = [c for c in puzzle.neighbours(i, j) if puzzle.is_open(*c)]
            given.append(((i, j), count, seen))
    clues, counters, unshaded = count_clues(board, given)
    vertices, secondary, options = shaded_loop_options(
        board, puzzle.open_cells(), counters, unshaded
    )
    comments = ["koburin:", *(" ".join(row) for row in puzzle.cells)]
    return LoopData([*vertices, *clues], secondary, options, comments)


def build(puzzle: KoburinPuzzle) -> Problem:
    """The exact-cover problem, built directly: ``build(p) == SPEC.problem(p, encode(p))``.

    >>> p = read("- - -\\n- 2 -\\n- - -\\n")
    >>> build(p) == SPEC.problem(p, encode(p)), build(p).items[8]
    (True, Item(name='33', primary=True, lo=2, hi=2))
    """
    problem: Problem = puzzle.data.problem()
    return problem


def encode(puzzle: KoburinPuzzle) -> str:
    """The exact-cover data: the puzzle as comments, the loop rule, items and options."""
    return puzzle.data.text()


def problem_of(puzzle: KoburinPuzzle, text: str) -> Problem:
    """The problem of the data ``text`` (built, not parsed, when it is the puzzle's own)."""
    problem: Problem = puzzle.data.problem_of(text)
    return problem


def decode(puzzle: KoburinPuzzle, problem: Problem, chosen: Iterable[int]) -> Answer:
    """The answer of the chosen options: the loop's edges, and the open cells it misses."""
    edges = edges_on(problem, chosen)
    return line_answer(edges, untouched(puzzle.open_cells(), edges))


# ---------------------------------------------------------------------------------------------
# Checking


def check(puzzle: KoburinPuzzle, answer: Answer) -> list[str]:
    """The rules of Koburin judged on ``answer`` (the module doc), in pzprjs's order.

    >>> ring = {"edges": [[0, 1], [0, 3], [1, 0], [1, 4], [3, 0], [3, 4], [4, 1], [4, 3]]}
    >>> check(read("- - -\\n- 0 -\\n- - -\\n"), ring)
    []
    >>> check(read("- - -\\n- 1 -\\n- - -\\n"), ring)
    ['the number 1 on (2, 2) has 0 shaded neighbours, not 1']
    """

    def counts(edges: set[tuple[int, int]], shaded: set[tuple[int, int]]) -> list[str]:
        out = []
        for i, j in puzzle.clue_cells():
            count = puzzle.number(i, j)
            if count is None:
                continue
            seen = sum(c in shaded for c in puzzle.neighbours(i, j))
            if seen != count:
                out.append(
                    f"the number {count} on {cell_name(i, j)} has {seen} shaded "
                    f"neighbour{'' if seen == 1 else 's'}, not {count}"
                )
        return out

    return shaded_loop_problems(puzzle.m, puzzle.n, answer, puzzle.clue_cells(), counts)


# ---------------------------------------------------------------------------------------------
# Text and pictures


def render(puzzle: KoburinPuzzle, answer: Answer | None = None) -> str:
    """The board in ASCII: numbers, ``#`` a shaded cell, the loop as ``---`` and ``|``.

    >>> print(render(read("- 1\\n- -\\n"), {"edges": [[1, 0], [1, 2], [2, 1]],
    ...        "shaded": [[0, 0]]}))
    #   1
    |   |
    .---.
    """
    return render_line(
        puzzle.m, puzzle.n, answer, lambda i, j: "." if puzzle.is_open(i, j) else puzzle.cells[i][j]
    )


def draw(canvas: Any, puzzle: KoburinPuzzle, answer: Answer | None) -> None:
    """The grid, the numbered cells with their numbers, the shaded cells and the loop."""
    draw_line(canvas, puzzle.m, puzzle.n, answer)
    for i, j in puzzle.clue_cells():
        canvas.shade(i, j, "#dddddd")
        canvas.text(i, j, puzzle.cells[i][j])


# ---------------------------------------------------------------------------------------------
# puz.link and pzprv3

#: pzprjs's flags of Koburin that change the rules: the line of a pzprv3 file, the letter of a URL.
RULE_FLAGS = {
    "o": "shaded cells outside the loop",
    "m": "numbers count the eight cells around",
}


def _refuse_flags(flags: Iterable[str], where: str) -> None:
    for flag in flags:
        if flag in RULE_FLAGS:
            raise InputError(
                f"the {where} flag {flag!r} ({RULE_FLAGS[flag]}) changes the rules; "
                "dlxsat does not support it"
            )


def _token(value: int) -> str:
    return OPEN if value == BLANK else UNKNOWN if value == QUESTION else str(value)


def _value(tok: str) -> int:
    return BLANK if tok == OPEN else QUESTION if tok == UNKNOWN else int(tok)


def read_url(text: str) -> KoburinPuzzle:
    """The puzzle of a puz.link URL (``koburin``).

    >>> print(write(read_url("https://puzz.link/p?koburin/5/5/clcbg.n")), end="")
    5 5
    2 - - - -
    - - - - 2
    - - 1 - -
    - ? - - -
    - - - - -
    """
    flags, cols, rows, body = url_of("koburin", text)
    _refuse_flags(flags, "puz.link")
    values, _ = decode_4cell(body, cols * rows)
    for k, v in enumerate(values):
        if v > 4:
            raise InputError(f"cell {k + 1} of the puz.link koburin holds {v}, not a number 0-4")
    tokens = [_token(v) for v in values]
    return from_tokens([tokens[k : k + cols] for k in range(0, len(tokens), cols)])


def write_url(puzzle: KoburinPuzzle, answer: Answer | None = None) -> str:
    """The puz.link URL pzprjs writes for the board."""
    values = [_value(tok) for row in puzzle.cells for tok in row]
    return make_url("koburin", puzzle.n, puzzle.m, encode_4cell(values))


def _parse_pzprv3(text: str) -> tuple[KoburinPuzzle, Answer | None]:
    rows, cols, lines = read_pzprv3(text, "koburin")
    at = 0
    for flag in ("o", "m", "b"):  # pzprjs's flag lines, in this order, each if set
        if at < len(lines) and lines[at].strip() == flag:
            _refuse_flags(flag, "pzprv3")
            at += 1
    table = block(lines, at, rows, cols, "numbers")
    tokens = [[OPEN if v == "." else UNKNOWN if v == "-" else v for v in row] for row in table]
    puzzle = from_tokens(tokens, at + 5)
    at += rows
    if len(lines) <= at or not any(line.strip() for line in lines[at:]):
        return puzzle, None
    shaded = read_cell_ans(block(lines, at, rows, cols, "shaded cells"))
    at += rows
    across = block(lines, at, rows, cols - 1, "lines") if cols > 1 else []
    down = block(lines, at + rows, rows - 1, cols, "lines")
    edges = read_pzprv3_lines(across, down)
    if not edges and not shaded:
        return puzzle, None
    return puzzle, line_answer(edges, shaded)


def read_file(text: str) -> KoburinPuzzle:
    """The puzzle of a pzprv3 file."""
    return _parse_pzprv3(text)[0]


def file_answer(puzzle: Any, text: str) -> Answer | None:
    """The answer drawn in a pzprv3 file (None: nothing drawn)."""
    return _parse_pzprv3(text)[1]


def write_file(puzzle: KoburinPuzzle, answer: Answer | None = None) -> str:
    """The pzprv3 file pzprjs writes for the board, with the answer drawn when given."""
    m, n = puzzle.m, puzzle.n
    table = [
        ["." if t == OPEN else "-" if t == UNKNOWN else t for t in row] for row in puzzle.cells
    ]
    answer = answer or {}
    lines = ["pzprv3", "koburin", str(m), str(n)]
    lines += write_block(table)
    lines += write_block(write_cell_ans(m, n, answer.get("shaded", [])))
    lines += write_block(write_pzprv3_lines(m, n, answer.get("edges", [])))
    return "\n".join(lines) + "\n"


def write_grid(puzzle: KoburinPuzzle, answer: Answer | None = None) -> str:
    """The corpus's problem grid, or with ``answer`` its answer grid."""
    if answer is None:
        return write(puzzle)
    return write_answer_grid(puzzle.m, puzzle.n, answer)


SPEC = FamilySpec(
    name="koburin",
    summary="Koburin: shade cells (never two side by side) and loop through the others; "
    "numbers count their shaded neighbours",
    rules=("loop",),
    read=read,
    write=write,
    encode=encode,
    decode=decode,
    check=check,
    render=render,
    build=build,
    problem_of=problem_of,
    # Reading, encoding and building, per character of the text: measured 1.6-1.9 KB on the
    # largest corpus boards of the three shade-or-loop genres, 3.6 KB on a 12 x 12 Koburin.
    bytes_per_cell=4500,
    formats=("knuth", "puzzlink", "pzprv3", "grid"),
    writes=("knuth", "puzzlink", "pzprv3", "grid"),
    answers=("pzprv3", "grid"),
    codecs={
        "puzzlink": Codec(read=read_url, write=write_url, names=("koburin",)),
        "pzprv3": Codec(read=read_file, write=write_file, answer=file_answer),
        "grid": Codec(
            read=read,
            write=write_grid,
            answer=lambda p, text: read_answer_grid(text, p.m, p.n),
        ),
    },
    picture=Picture(lambda p: (p.m, p.n), draw),
)
