"""Yajilin: shade some cells, draw one loop through all the others; arrows count the shading.

**The rules.** Some cells hold a clue: an arrow with a number. Shade some of the other cells,
no two of them side by side, and draw one loop through the centres of all the remaining
cells, never through a clue cell; the loop does not branch or cross itself. A number counts
the shaded cells in its arrow's direction, all the way to the edge of the board.

**The puzzle's text** is the corpus's notation (``SmilingWayne/puzzlekit-dataset``, Janko's
puzzles): an optional line ``ROWS COLS``, then a row of space-separated tokens per row of
cells. ``-`` is an open cell (shaded or on the loop); ``2n`` an arrow clue, a count and the
direction ``n`` (up), ``s``, ``e``, ``w`` (``n2`` is read too); ``x`` a grey clue cell
without a number (pzprjs's "clue without number"; the corpus's ``@`` is read as one: no arrow
of the corpus crosses it, so whether it stops one never matters). pzprjs knows two more
clues, read and written here: ``?n`` an arrow with an unknown count, and a count without
arrow (``2``, ``?``) -- the editor's slip pzprjs refuses every answer of ("A number has no
arrow."), and so does dlxsat.

**The encoding**, in Knuth's style, one step at a time (the shared part is
:func:`~dlxsat.families.loops.shaded_loop_options`):

1. Each open cell (i, j) is a primary item, the tile (2i, 2j) of Masyu's naming (docs/
   conventions.md §4). The loop's edges between two open cells are secondary items named by
   their midpoints, colored ``1`` (on the loop) or ``0``; no edge touches a clue cell, so no
   option can run the loop through one, and a clue cell has no item at all: it is neither
   shaded nor on the loop by construction.
2. An open cell's options are the loop's ways through it -- two of its open edges ``1``, the
   others ``0`` -- and one more, *shaded*: every edge ``0``. So every open cell is on the loop
   or shaded, never both, and the loop never ends or branches.
3. Two shaded cells may not touch: each pair of open neighbours has a secondary item (the
   edge's name behind an ``x``) that the shaded option of either cell covers, without color;
   two shaded neighbours would cover it twice.
4. An arrow with count k is a primary item (2i+1, 2j+1), as Masyu's circles are, that must be
   covered exactly k times (a multiplicity, Knuth's DLX3 ``k|name``): the shaded option of
   every open cell the arrow points at covers it. A count of 0 has no item (a bound of 0 is
   no item in Knuth's format): its cells simply have no shaded option. An arrow without a
   count (``?``) or a grey cell constrains nothing; a count without arrow is an item no option
   covers, so that such a puzzle has no answer, as pzprjs accepts none.
5. The global rule: the edges colored ``1`` form a single loop (``|@loop``, the loop over the
   vertex and edge items found by their names; never the empty loop). The backends add it
   lazily; everything else is local and exact in the options.

Enumerating the ways an arrow's cells can be shaded (an option per non-adjacent set of k
cells, the cells' shading as colored secondary items) was measured too: on the largest
corpus puzzles it is slower (2.9 s against 2.8 on ``528_39x57`` when only arrows of at most
50 ways are enumerated, 6.3 s at 1,000), and an arrow of 9 over 38 cells has 14 million ways.
The multiplicity states the same rule with one entry per counted cell.

An answer is ``{"edges": [[x, y], ...], "shaded": [[i, j], ...]}``: the loop's edge midpoints
in doubled coordinates and the shaded cells, both sorted (:func:`~dlxsat.families.loops
.line_answer`).

**Formats**: puz.link URLs (``yajilin``, ``yajirin``; the body is pzprjs's ArrowNumber16; the
display flag ``b`` is read and dropped, the flag ``o`` -- shaded cells outside the loop -- is a
rule this family does not have and is refused), pzprv3 files (clues ``D,N``, ``#``, ``.``;
the shaded cells ``#``; the line blocks), and the corpus's grids (problem and answer: a cell
on the loop is the sides the loop leaves by, ``x`` a shaded cell, ``-`` a clue cell).
"""

from __future__ import annotations

import re
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
    decode_arrow_number16,
    encode_arrow_number16,
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

#: The four directions: letter → (step, pzprjs's number, picture arrow, text arrow).
DIRECTIONS = {
    "n": ((-1, 0), 1, "\u2191", "^"),
    "s": ((1, 0), 2, "\u2193", "v"),
    "w": ((0, -1), 3, "\u2190", "<"),
    "e": ((0, 1), 4, "\u2192", ">"),
}
PZPR_DIRECTION = {v[1]: k for k, v in DIRECTIONS.items()}
OPEN, GREY, UNKNOWN = "-", "x", "?"
_CLUE = re.compile(r"(\d+|\?)?([nsew])?|([nsew])(\d+|\?)", re.ASCII)


@dataclass(frozen=True)
class YajilinPuzzle(Puzzle):
    """A Yajilin board: ``cells[i][j]`` is ``-`` (open), ``x`` (grey) or a clue ``2n``,
    ``?n``, ``2``, ``?`` (count, then direction; either may be missing).

    >>> p = read("2 3\\n- 1e -\\n- - -\\n")
    >>> p.m, p.n, p.clue(0, 1), p.ray(0, 1)
    (2, 3, (1, 'e'), [(0, 2)])
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

    def clue(self, i: int, j: int) -> tuple[int | None, str | None] | None:
        """A clue cell's (count, direction), None for an unknown one; None for a cell that
        holds no count or arrow (open, or grey)."""
        tok = self.cells[i][j]
        if tok in (OPEN, GREY):
            return None
        count, direction = tok.rstrip("nsew"), tok[len(tok.rstrip("nsew")) :]
        return (None if count == UNKNOWN else int(count)), direction or None

    def ray(self, i: int, j: int) -> list[tuple[int, int]]:
        """The cells an arrow on (i, j) points at, to the edge of the board (clue cells too)."""
        clue = self.clue(i, j)
        if clue is None or clue[1] is None:
            return []
        (di, dj), *_ = DIRECTIONS[clue[1]]
        out = []
        a, b = i + di, j + dj
        while 0 <= a < self.m and 0 <= b < self.n:
            out.append((a, b))
            a, b = a + di, b + dj
        return out

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


def _token(tok: str, where: str) -> str:
    """A clue token in its written form (``2n``, ``?n``, ``2``, ``?``, ``-``, ``x``)."""
    low = tok.lower()
    if low in (OPEN, ".", ""):
        return OPEN
    if low in (GREY, "@", "#"):
        return GREY
    m = _CLUE.fullmatch(low)
    if m is None or not (m[1] or m[2] or m[3]) or (m[1] is None and m[2]):
        raise InputError(
            f"{where}: {tok!r} is not - (open), x (grey) or a clue like 2n (count and "
            "direction n, s, e or w)"
        )
    count, direction = (m[1], m[2] or "") if m[3] is None else (m[4], m[3])
    if count != UNKNOWN:
        count = str(int(count))
    return count + direction


def from_tokens(rows: list[list[str]], first: int = 1) -> YajilinPuzzle:
    """The puzzle of rows of tokens (``first``: the line number of the first row)."""
    if not rows or not rows[0]:
        raise InputError("the puzzle has no rows of cells")
    width = len(rows[0])
    cells = []
    for k, row in enumerate(rows):
        if len(row) != width:
            raise InputError(f"line {first + k}: {len(row)} cells, but line {first} has {width}")
        cells.append(tuple(_token(t, f"line {first + k}, cell {c}") for c, t in enumerate(row, 1)))
    puzzle = YajilinPuzzle(tuple(cells))
    shaded_board(puzzle.m, puzzle.n)
    return puzzle


def read(text: str) -> YajilinPuzzle:
    """The puzzle of the corpus's notation: an optional ``ROWS COLS`` line, then the rows.

    >>> read("- 1w\\n2s -\\n").cells
    (('-', '1w'), ('2s', '-'))
    >>> read("2 2\\n- 1w\\n2s y\\n")
    Traceback (most recent call last):
    ...
    dlxsat.errors.InputError: line 3, cell 2: 'y' is not - (open), x (grey) or a clue like 2n \
(count and direction n, s, e or w)
    """
    rows, first = token_rows("\n".join(puzzle_lines(text.replace("\r\n", "\n"))))
    return from_tokens(rows, first)


def write(puzzle: YajilinPuzzle) -> str:
    """The corpus's notation, with its ``ROWS COLS`` line: what :func:`read` reads back.

    >>> print(write(read("- 1w\\n?s -\\n")), end="")
    2 2
    - 1w
    ?s -
    """
    return f"{puzzle.m} {puzzle.n}\n" + "".join(" ".join(row) + "\n" for row in puzzle.cells)


# ---------------------------------------------------------------------------------------------
# The encoding


def _data(puzzle: YajilinPuzzle) -> LoopData:
    board = puzzle.board
    given: list[tuple[tuple[int, int], int | None, list[tuple[int, int]]]] = []
    for i, j in puzzle.clue_cells():
        clue = puzzle.clue(i, j)
        if clue is None or clue[0] is None:
            continue
        count, direction = clue
        if direction is None:  # a number without arrow: a clue nothing can meet
            given.append(((i, j), None, []))
        else:
            given.append(((i, j), count, [c for c in puzzle.ray(i, j) if puzzle.is_open(*c)]))
    clues, counters, unshaded = count_clues(board, given)
    vertices, secondary, options = shaded_loop_options(
        board, puzzle.open_cells(), counters, unshaded
    )
    comments = ["yajilin:", *(" ".join(row) for row in puzzle.cells)]
    return LoopData([*vertices, *clues], secondary, options, comments)


def build(puzzle: YajilinPuzzle) -> Problem:
    """The exact-cover problem, built directly: ``build(p) == SPEC.problem(p, encode(p))``.

    >>> p = read("- - -\\n1s - -\\n- - -\\n")
    >>> build(p) == SPEC.problem(p, encode(p)), build(p).items[8]
    (True, Item(name='31', primary=True, lo=1, hi=1))
    """
    problem: Problem = puzzle.data.problem()
    return problem


def encode(puzzle: YajilinPuzzle) -> str:
    """The exact-cover data: the puzzle as comments, the loop rule, items and options."""
    return puzzle.data.text()


def problem_of(puzzle: YajilinPuzzle, text: str) -> Problem:
    """The problem of the data ``text`` (built, not parsed, when it is the puzzle's own)."""
    problem: Problem = puzzle.data.problem_of(text)
    return problem


def decode(puzzle: YajilinPuzzle, problem: Problem, chosen: Iterable[int]) -> Answer:
    """The answer of the chosen options: the loop's edges, and the open cells it misses
    (those chose their shaded option)."""
    edges = edges_on(problem, chosen)
    return line_answer(edges, untouched(puzzle.open_cells(), edges))


# ---------------------------------------------------------------------------------------------
# Checking


def check(puzzle: YajilinPuzzle, answer: Answer) -> list[str]:
    """The rules of Yajilin judged on ``answer`` (the module doc), in pzprjs's order.

    >>> ring = {"edges": [[0, 1], [0, 3], [1, 0], [1, 4], [3, 0], [3, 4], [4, 1], [4, 3]]}
    >>> check(read("- - -\\n- 0n -\\n- - -\\n"), ring)
    []
    >>> check(read("- - -\\n- 1n -\\n- - -\\n"), ring)
    ['the arrow on (2, 2) sees 0 shaded cells, not 1']
    """

    def counts(edges: set[tuple[int, int]], shaded: set[tuple[int, int]]) -> list[str]:
        out = []
        for i, j in puzzle.clue_cells():
            clue = puzzle.clue(i, j)
            if clue is None or clue[0] is None:
                continue
            count, direction = clue
            if direction is None:
                out.append(f"the number {count} on {cell_name(i, j)} has no arrow")
                continue
            seen = sum(c in shaded for c in puzzle.ray(i, j))
            if seen != count:
                out.append(
                    f"the arrow on {cell_name(i, j)} sees {seen} shaded cell"
                    f"{'' if seen == 1 else 's'}, not {count}"
                )
        return out

    return shaded_loop_problems(puzzle.m, puzzle.n, answer, puzzle.clue_cells(), counts)


# ---------------------------------------------------------------------------------------------
# Text and pictures


def _glyph(puzzle: YajilinPuzzle, i: int, j: int) -> str:
    tok = puzzle.cells[i][j]
    if tok == OPEN:
        return "."
    if tok == GREY:
        return "X"
    count, direction = puzzle.clue(i, j) or (None, None)
    return ("?" if count is None else str(count)) + (DIRECTIONS[direction][3] if direction else "")


def render(puzzle: YajilinPuzzle, answer: Answer | None = None) -> str:
    """The board in ASCII: clues as count and arrow (``2>``), ``X`` a grey cell, ``#`` a
    shaded one, the loop as ``---`` and ``|``.

    >>> print(render(read("1e - -\\n- - -\\n"), {"edges": [[1, 2], [1, 4], [2, 3]],
    ...        "shaded": [[0, 1]]}))
    1>   #    .
         |    |
    .    .----.
    """
    width = max(len(_glyph(puzzle, i, j)) for i in range(puzzle.m) for j in range(puzzle.n))
    return render_line(puzzle.m, puzzle.n, answer, lambda i, j: _glyph(puzzle, i, j), width=width)


def draw(canvas: Any, puzzle: YajilinPuzzle, answer: Answer | None) -> None:
    """The grid, the clue cells in light grey with their counts and arrows, the shaded
    cells and the loop."""
    draw_line(canvas, puzzle.m, puzzle.n, answer)
    for i, j in puzzle.clue_cells():
        canvas.shade(i, j, "#dddddd")
        clue = puzzle.clue(i, j)
        if clue is not None:
            count, direction = clue
            text = ("?" if count is None else str(count)) + (
                DIRECTIONS[direction][2] if direction else ""
            )
            canvas.text(i, j, text, scale=0.9 if len(text) < 3 else 0.7)


# ---------------------------------------------------------------------------------------------
# puz.link and pzprv3


def _refuse_flags(flags: Iterable[str], where: str) -> None:
    if "o" in flags:
        raise InputError(
            f"the {where} flag 'o' (shaded cells outside the loop) changes the rules; "
            "dlxsat does not support it"
        )


def _from_pzpr(dirs: list[int], nums: list[int], cols: int) -> list[list[str]]:
    """Rows of tokens from pzprjs's direction and number of each cell."""
    out = []
    for d, q in zip(dirs, nums, strict=True):
        if q == BLANK:
            out.append(OPEN)
        elif q == -3:
            out.append(GREY)
        else:
            out.append(
                (UNKNOWN if q == QUESTION else str(q)) + (PZPR_DIRECTION.get(d, "") if d else "")
            )
    return [out[k : k + cols] for k in range(0, len(out), cols)]


def _to_pzpr(puzzle: YajilinPuzzle) -> tuple[list[int], list[int]]:
    dirs, nums = [], []
    for row in puzzle.cells:
        for tok in row:
            if tok in (OPEN, GREY):
                dirs.append(0)
                nums.append(BLANK if tok == OPEN else -3)
            else:
                count, direction = tok.rstrip("nsew"), tok[len(tok.rstrip("nsew")) :]
                dirs.append(DIRECTIONS[direction][1] if direction else 0)
                nums.append(QUESTION if count == UNKNOWN else int(count))
    return dirs, nums


def read_url(text: str) -> YajilinPuzzle:
    """The puzzle of a puz.link URL (``yajilin`` or ``yajirin``).

    >>> print(write(read_url("https://puzz.link/p?yajilin/5/5/m32j10")), end="")
    5 5
    - - - - -
    - - - - -
    - - - 2w -
    - - - - -
    - - - - 0n
    """
    flags, cols, rows, body = url_of("yajilin", text)
    _refuse_flags(flags, "puz.link")
    dirs, nums, _ = decode_arrow_number16(body, cols * rows)
    return from_tokens(_from_pzpr(dirs, nums, cols))


def write_url(puzzle: YajilinPuzzle, answer: Answer | None = None) -> str:
    """The puz.link URL pzprjs writes for the board."""
    dirs, nums = _to_pzpr(puzzle)
    return make_url("yajilin", puzzle.n, puzzle.m, encode_arrow_number16(dirs, nums))


def _parse_pzprv3(text: str) -> tuple[YajilinPuzzle, Answer | None]:
    rows, cols, lines = read_pzprv3(text, "yajilin")
    at = 0
    if lines and lines[0].strip() == "o":
        _refuse_flags("o", "pzprv3")
    table = block(lines, at, rows, cols, "clues")
    tokens = []
    for r, row in enumerate(table):
        out = []
        for v in row:
            if v == ".":
                out.append(OPEN)
            elif v == "#":
                out.append(GREY)
            else:
                d, comma, q = v.partition(",")
                if not comma or not d.isdigit() or not (q == "-" or q.isdigit()):
                    raise InputError(
                        f"line {r + 5} of the pzprv3 file: {v!r} is not a clue D,N, # or ."
                    )
                out.append((UNKNOWN if q == "-" else str(int(q))) + PZPR_DIRECTION.get(int(d), ""))
        tokens.append(out)
    puzzle = from_tokens(tokens, 5)
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


def read_file(text: str) -> YajilinPuzzle:
    """The puzzle of a pzprv3 file."""
    return _parse_pzprv3(text)[0]


def file_answer(puzzle: Any, text: str) -> Answer | None:
    """The answer drawn in a pzprv3 file (None: nothing drawn)."""
    return _parse_pzprv3(text)[1]


def write_file(puzzle: YajilinPuzzle, answer: Answer | None = None) -> str:
    """The pzprv3 file pzprjs writes for the board, with the answer drawn when given."""
    m, n = puzzle.m, puzzle.n
    dirs, nums = _to_pzpr(puzzle)
    cells = []
    for d, q in zip(dirs, nums, strict=True):
        if q == BLANK:
            cells.append(".")
        elif q == -3:
            cells.append("#")
        else:
            cells.append(f"{d},{'-' if q == QUESTION else q}")
    table = [cells[k : k + n] for k in range(0, len(cells), n)]
    answer = answer or {}
    lines = ["pzprv3", "yajilin", str(m), str(n)]
    lines += write_block(table)
    lines += write_block(write_cell_ans(m, n, answer.get("shaded", [])))
    lines += write_block(write_pzprv3_lines(m, n, answer.get("edges", [])))
    return "\n".join(lines) + "\n"


def write_grid(puzzle: YajilinPuzzle, answer: Answer | None = None) -> str:
    """The corpus's problem grid, or with ``answer`` its answer grid."""
    if answer is None:
        return write(puzzle)
    return write_answer_grid(puzzle.m, puzzle.n, answer)


SPEC = FamilySpec(
    name="yajilin",
    aliases=("yajirin",),
    summary="Yajilin: shade cells (never two side by side) and loop through the others; "
    "arrows count the shaded cells",
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
        "puzzlink": Codec(read=read_url, write=write_url, names=("yajilin", "yajirin")),
        "pzprv3": Codec(read=read_file, write=write_file, answer=file_answer),
        "grid": Codec(
            read=read,
            write=write_grid,
            answer=lambda p, text: read_answer_grid(text, p.m, p.n),
        ),
    },
    picture=Picture(lambda p: (p.m, p.n), draw),
)
