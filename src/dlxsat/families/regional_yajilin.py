"""Regional Yajilin: shade some cells, loop through all the others; regions count their shading.

**The rules.** The board is divided into regions; some hold a number. Shade some cells, no two
of them side by side, and draw one loop through the centres of all the other cells; the loop
does not branch or cross itself. A number says how many cells of its region are shaded. A
numbered cell is an ordinary cell: it may be shaded or on the loop.

**The puzzle's text** is the corpus's notation (``SmilingWayne/puzzlekit-dataset``, Janko's
puzzles): an optional line ``ROWS COLS``, then the rows of numbers (``-`` none, ``?`` an
unknown one), then as many rows of region labels (any tokens; a region is a connected set of
cells of one label, as pzprjs draws walls between different labels). A region holds at most
one number. Written, the regions are labelled 1, 2, ... and each number stands on its region's
top cell, as in puz.link's URLs, which have no other place for it (:func:`write`).

**The encoding**, in Knuth's style, one step at a time (the shared part is
:func:`~dlxsat.families.loops.shaded_loop_options`, as for Yajilin):

1. Each cell (i, j) is a primary item, the tile (2i, 2j) of Masyu's naming (docs/
   conventions.md §4); the loop's edges are secondary items named by their midpoints,
   colored ``1`` (on the loop) or ``0``.
2. A cell's options are the loop's ways through it (two of its edges ``1``, the others ``0``)
   and *shaded* (every edge ``0``): each cell is on the loop or shaded.
3. Each pair of neighbours has a secondary item (the edge's name behind an ``x``) that the
   shaded option of either covers, without color: two shaded neighbours would cover it twice.
4. A region's number k ≥ 1 is a primary item named by the number's cell, (2i+1, 2j+1), to be
   covered exactly k times (Knuth's multiplicity ``k|name``) by the shaded options of the
   region's cells; a 0 has no item (Knuth's format has no bound 0): its region's cells have no
   shaded option.
5. The global rule ``|@loop``: the edges colored ``1`` form a single loop (never the empty
   one), added lazily by the backends.

An answer is ``{"edges": [[x, y], ...], "shaded": [[i, j], ...]}``.

**Formats**: puz.link URLs (``yajilin-regions``, ``yajirin-regions``; the body pzprjs's Border
then RoomNumber16, the number on each region's top cell -- the top of its leftmost column; the
flag ``o``, shaded cells outside the loop, changes the rules and is refused), pzprv3 files (the
regions as numbered rooms, the numbers on their top cells, the shaded cells ``#``, the line
blocks), and the corpus's grids (problem: numbers then regions; answer: a cell on the loop is
the sides the loop leaves by, ``x`` a shaded cell).
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
    decode_border,
    decode_room_number16,
    encode_border,
    encode_room_number16,
    make_url,
    read_pzprv3,
    rooms,
    top_cell,
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

NONE, UNKNOWN = "-", "?"


@dataclass(frozen=True)
class RegionalYajilinPuzzle(Puzzle):
    """A Regional Yajilin board: ``numbers[i][j]`` is ``-``, a number or ``?``;
    ``labels[i][j]`` the cell's region label.

    >>> p = read("2 3\\n1 - -\\n- - -\\na a b\\na b b\\n")
    >>> p.rooms, p.number_of(0)
    ([[(0, 0), (0, 1), (1, 0)], [(0, 2), (1, 1), (1, 2)]], ((0, 0), 1))
    """

    numbers: tuple[tuple[str, ...], ...]
    labels: tuple[tuple[str, ...], ...]

    @property
    def m(self) -> int:
        return len(self.numbers)

    @property
    def n(self) -> int:
        return len(self.numbers[0])

    @cached_property
    def rooms(self) -> list[list[tuple[int, int]]]:
        """The regions: connected cells of one label, ordered by their first cell (row by
        row, as pzprjs numbers its rooms), each its cells sorted."""
        room_of: dict[tuple[int, int], int] = {}
        out: list[list[tuple[int, int]]] = []
        for start in ((i, j) for i in range(self.m) for j in range(self.n)):
            if start in room_of:
                continue
            room_of[start] = len(out)
            label, stack, part = self.labels[start[0]][start[1]], [start], []
            while stack:
                i, j = stack.pop()
                part.append((i, j))
                for p, q in ((i - 1, j), (i + 1, j), (i, j - 1), (i, j + 1)):
                    if (
                        0 <= p < self.m
                        and 0 <= q < self.n
                        and (p, q) not in room_of
                        and self.labels[p][q] == label
                    ):
                        room_of[(p, q)] = len(out)
                        stack.append((p, q))
            out.append(sorted(part))
        return out

    def number_of(self, room: int) -> tuple[tuple[int, int], int | None] | None:
        """The cell of a region's number and the number (None: ``?``); None if it has none."""
        for i, j in self.rooms[room]:
            tok = self.numbers[i][j]
            if tok != NONE:
                return (i, j), (None if tok == UNKNOWN else int(tok))
        return None

    def cells(self) -> list[tuple[int, int]]:
        return [(i, j) for i in range(self.m) for j in range(self.n)]

    @cached_property
    def board(self) -> LoopBoard:
        return shaded_board(self.m, self.n)

    @cached_property
    def data(self) -> LoopData:
        """The exact-cover problem (:func:`encode`), made once."""
        return _data(self)


# ---------------------------------------------------------------------------------------------
# Reading and writing the corpus's notation


def from_tokens(
    numbers: list[list[str]], labels: list[list[str]], first: int = 1
) -> RegionalYajilinPuzzle:
    """The puzzle of rows of number tokens and rows of region labels (``first``: the line
    number of the first row); a region with two numbers is an :class:`InputError`."""
    if not numbers or not numbers[0]:
        raise InputError("the puzzle has no rows of cells")
    width = len(numbers[0])
    for k, row in enumerate(numbers + labels):
        if len(row) != width:
            raise InputError(f"line {first + k}: {len(row)} cells, but line {first} has {width}")
    clean = []
    for k, row in enumerate(numbers):
        out = []
        for c, tok in enumerate(row, 1):
            if tok in (NONE, "."):
                out.append(NONE)
            elif tok == UNKNOWN or (tok.isdigit() and tok.isascii()):
                out.append(tok if tok == UNKNOWN else str(int(tok)))
            else:
                raise InputError(f"line {first + k}, cell {c}: {tok!r} is not - , a number or ?")
        clean.append(tuple(out))
    puzzle = RegionalYajilinPuzzle(tuple(clean), tuple(tuple(row) for row in labels))
    for room in puzzle.rooms:
        given = [c for c in room if puzzle.numbers[c[0]][c[1]] != NONE]
        if len(given) > 1:
            raise InputError(
                f"cells {cell_name(*given[0])} and {cell_name(*given[1])} are numbers of one "
                "region: a region has at most one"
            )
    shaded_board(puzzle.m, puzzle.n)
    return puzzle


def read(text: str) -> RegionalYajilinPuzzle:
    """The puzzle of the corpus's notation: an optional ``ROWS COLS`` line, the rows of
    numbers, then as many rows of region labels.

    >>> read("1 -\\n- -\\n1 1\\n1 2\\n").numbers
    (('1', '-'), ('-', '-'))
    """
    rows, first = token_rows("\n".join(puzzle_lines(text.replace("\r\n", "\n"))), blocks=2)
    if len(rows) % 2:
        raise InputError(f"{len(rows)} rows: the numbers and the regions need as many rows each")
    m = len(rows) // 2
    return from_tokens(rows[:m], rows[m:], first)


def write(puzzle: RegionalYajilinPuzzle) -> str:
    """The corpus's notation, with its ``ROWS COLS`` line, in the form every format agrees
    on: the regions labelled 1, 2, ... by their first cell, each number on its region's top
    cell (the top of its leftmost column, where pzprjs keeps it; a puz.link URL has no other
    place). :func:`read` reads it back.

    >>> print(write(read("- 1\\n- -\\na a\\na b\\n")), end="")
    2 2
    1 -
    - -
    1 1
    1 2
    """
    n = puzzle.n
    values = _on_top_cells(puzzle)
    label = {c: str(k) for k, cells in enumerate(puzzle.rooms, 1) for c in cells}
    rows = [" ".join(_token(v) for v in values[k : k + n]) for k in range(0, len(values), n)]
    rows += [" ".join(label[(i, j)] for j in range(n)) for i in range(puzzle.m)]
    return f"{puzzle.m} {puzzle.n}\n" + "".join(row + "\n" for row in rows)


# ---------------------------------------------------------------------------------------------
# The encoding


def _data(puzzle: RegionalYajilinPuzzle) -> LoopData:
    board = puzzle.board
    given = []
    for room in range(len(puzzle.rooms)):
        number = puzzle.number_of(room)
        if number is not None and number[1] is not None:
            given.append((number[0], number[1], puzzle.rooms[room]))
    clues, counters, unshaded = count_clues(board, given)
    vertices, secondary, options = shaded_loop_options(board, puzzle.cells(), counters, unshaded)
    comments = ["regional-yajilin:"] + [
        " ".join(a) + "   " + " ".join(b)
        for a, b in zip(puzzle.numbers, puzzle.labels, strict=True)
    ]
    return LoopData([*vertices, *clues], secondary, options, comments)


def build(puzzle: RegionalYajilinPuzzle) -> Problem:
    """The exact-cover problem, built directly: ``build(p) == SPEC.problem(p, encode(p))``.

    >>> p = read("2 - -\\n- - -\\n- - -\\na a a\\na a a\\na a a\\n")
    >>> build(p) == SPEC.problem(p, encode(p)), build(p).items[9]
    (True, Item(name='11', primary=True, lo=2, hi=2))
    """
    problem: Problem = puzzle.data.problem()
    return problem


def encode(puzzle: RegionalYajilinPuzzle) -> str:
    """The exact-cover data: the puzzle as comments, the loop rule, items and options."""
    return puzzle.data.text()


def problem_of(puzzle: RegionalYajilinPuzzle, text: str) -> Problem:
    """The problem of the data ``text`` (built, not parsed, when it is the puzzle's own)."""
    problem: Problem = puzzle.data.problem_of(text)
    return problem


def decode(puzzle: RegionalYajilinPuzzle, problem: Problem, chosen: Iterable[int]) -> Answer:
    """The answer of the chosen options: the loop's edges, and the cells it misses."""
    edges = edges_on(problem, chosen)
    return line_answer(edges, untouched(puzzle.cells(), edges))


# ---------------------------------------------------------------------------------------------
# Checking


def check(puzzle: RegionalYajilinPuzzle, answer: Answer) -> list[str]:
    """The rules of Regional Yajilin judged on ``answer`` (the module doc), in pzprjs's
    order.

    >>> p = read("- - -\\n- 1 -\\n- - -\\na a a\\na b a\\na a a\\n")
    >>> ring = {"edges": [[0, 1], [0, 3], [1, 0], [1, 4], [3, 0], [3, 4], [4, 1], [4, 3]]}
    >>> check(p, ring | {"shaded": [[1, 1]]})
    []
    >>> check(p, ring)[0]
    'the region of the number 1 on (2, 2) has 0 shaded cells, not 1'
    """

    def counts(edges: set[tuple[int, int]], shaded: set[tuple[int, int]]) -> list[str]:
        out = []
        for room, cells in enumerate(puzzle.rooms):
            given = puzzle.number_of(room)
            if given is None or given[1] is None:
                continue
            cell, count = given
            seen = sum(c in shaded for c in cells)
            if seen != count:
                out.append(
                    f"the region of the number {count} on {cell_name(*cell)} has {seen} "
                    f"shaded cell{'' if seen == 1 else 's'}, not {count}"
                )
        return out

    return shaded_loop_problems(puzzle.m, puzzle.n, answer, (), counts)


# ---------------------------------------------------------------------------------------------
# Text and pictures


def render(puzzle: RegionalYajilinPuzzle, answer: Answer | None = None) -> str:
    """The board in ASCII: the numbers (``.`` elsewhere), ``#`` a shaded cell, the loop as
    ``---`` and ``|`` (the regions are in the picture, not here).

    >>> print(render(read("1 -\\n- -\\na a\\na a\\n"), {"edges": [[0, 1], [1, 0], [1, 2],
    ...        [2, 1]]}))
    1---.
    |   |
    .---.
    """
    width = max(len(tok) for row in puzzle.numbers for tok in row)
    return render_line(
        puzzle.m,
        puzzle.n,
        answer,
        lambda i, j: "." if puzzle.numbers[i][j] == NONE else puzzle.numbers[i][j],
        width=width,
    )


def draw(canvas: Any, puzzle: RegionalYajilinPuzzle, answer: Answer | None) -> None:
    """The grid, the regions' thick walls, the numbers, the shaded cells and the loop."""
    draw_line(canvas, puzzle.m, puzzle.n, answer)
    room_of = {c: k for k, cells in enumerate(puzzle.rooms) for c in cells}
    canvas.walls([[room_of[(i, j)] for j in range(puzzle.n)] for i in range(puzzle.m)])
    shaded = {tuple(c) for c in (answer or {}).get("shaded", [])}
    for i, row in enumerate(puzzle.numbers):
        for j, tok in enumerate(row):
            if tok != NONE:
                # In the cell's top-left corner, small, as pzprjs puts a region's number:
                # the loop passes through the cell's centre.
                colour = "white" if (i, j) in shaded else "black"
                canvas.text(i - 0.28, j - 0.28, tok, colour=colour, scale=0.6)


# ---------------------------------------------------------------------------------------------
# puz.link and pzprv3


def _refuse_flags(flags: Iterable[str], where: str) -> None:
    if "o" in flags:
        raise InputError(
            f"the {where} flag 'o' (shaded cells outside the loop) changes the rules; "
            "dlxsat does not support it"
        )


def _value(tok: str) -> int:
    return BLANK if tok == NONE else QUESTION if tok == UNKNOWN else int(tok)


def _token(value: int) -> str:
    return NONE if value == BLANK else UNKNOWN if value == QUESTION else str(value)


def _walls(puzzle: RegionalYajilinPuzzle) -> tuple[list[int], list[int]]:
    """pzprjs's borders: between horizontal neighbours, then vertical ones, 1 for a wall."""
    room_of = {c: k for k, cells in enumerate(puzzle.rooms) for c in cells}
    m, n = puzzle.m, puzzle.n
    vert = [int(room_of[(i, j)] != room_of[(i, j + 1)]) for i in range(m) for j in range(n - 1)]
    horiz = [int(room_of[(i, j)] != room_of[(i + 1, j)]) for i in range(m - 1) for j in range(n)]
    return vert, horiz


def _on_top_cells(puzzle: RegionalYajilinPuzzle) -> list[int]:
    """Each region's number on its top cell (pzprjs's place for it), cell by cell."""
    values = [BLANK] * (puzzle.m * puzzle.n)
    for room, cells in enumerate(puzzle.rooms):
        given = puzzle.number_of(room)
        if given is not None:
            top = top_cell([i * puzzle.n + j for i, j in cells], puzzle.n)
            values[top] = QUESTION if given[1] is None else given[1]
    return values


def _from_rooms(
    values: list[int], room_ids: list[list[str]], first: int = 1
) -> RegionalYajilinPuzzle:
    n = len(room_ids[0])
    numbers = [[_token(v) for v in values[k : k + n]] for k in range(0, len(values), n)]
    return from_tokens(numbers, room_ids, first)


def read_url(text: str) -> RegionalYajilinPuzzle:
    """The puzzle of a puz.link URL (``yajilin-regions``, ``yajirin-regions``); the regions
    are labelled 1, 2, ... in pzprjs's order.

    >>> print(write(read_url("https://puzz.link/p?yajilin-regions/5/5/49j60s3020g1g")), end="")
    5 5
    2 - - 0 -
    - - - - -
    - - 1 - -
    - - - - -
    - - - - -
    1 1 1 2 2
    1 1 1 2 2
    3 3 4 2 2
    3 3 4 5 5
    3 3 4 5 5
    """
    flags, cols, rows, body = url_of("regional-yajilin", text)
    _refuse_flags(flags, "puz.link")
    vert, horiz, rest = decode_border(body, cols, rows)
    values, _ = decode_room_number16(rest, cols, rows, vert, horiz)
    label = [""] * (cols * rows)
    for k, room in enumerate(rooms(cols, rows, vert, horiz), 1):
        for c in room:
            label[c] = str(k)
    ids = [label[k : k + cols] for k in range(0, len(label), cols)]
    return _from_rooms(values, ids)


def write_url(puzzle: RegionalYajilinPuzzle, answer: Answer | None = None) -> str:
    """The puz.link URL pzprjs writes for the board."""
    vert, horiz = _walls(puzzle)
    body = encode_border(vert, horiz)
    body += encode_room_number16(_on_top_cells(puzzle), puzzle.n, puzzle.m, vert, horiz)
    return make_url("yajilin-regions", puzzle.n, puzzle.m, body)


def _parse_pzprv3(text: str) -> tuple[RegionalYajilinPuzzle, Answer | None]:
    rows, cols, lines = read_pzprv3(text, "regional-yajilin")
    at = 0
    if lines and lines[0].strip() == "o":
        _refuse_flags("o", "pzprv3")
    at += 1  # the number of rooms (pzprjs ignores it when reading)
    ids = block(lines, at, rows, cols, "rooms")
    table = block(lines, at + rows, rows, cols, "numbers")
    values = []
    for r, row in enumerate(table):
        for v in row:
            if v in (".", "-") or (v.isdigit() and v.isascii()):
                values.append(BLANK if v == "." else QUESTION if v == "-" else int(v))
            else:
                raise InputError(
                    f"line {at + rows + r + 5} of the pzprv3 file: {v!r} is not a number, - or ."
                )
    puzzle = _from_rooms(values, ids, at + 5)
    at += 2 * rows
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


def read_file(text: str) -> RegionalYajilinPuzzle:
    """The puzzle of a pzprv3 file."""
    return _parse_pzprv3(text)[0]


def file_answer(puzzle: Any, text: str) -> Answer | None:
    """The answer drawn in a pzprv3 file (None: nothing drawn)."""
    return _parse_pzprv3(text)[1]


def write_file(puzzle: RegionalYajilinPuzzle, answer: Answer | None = None) -> str:
    """The pzprv3 file pzprjs writes for the board (rooms numbered from 0 by their first
    cell, each number on its room's top cell), with the answer drawn when given."""
    m, n = puzzle.m, puzzle.n
    room_of = {c: k for k, cells in enumerate(puzzle.rooms) for c in cells}
    values = _on_top_cells(puzzle)
    answer = answer or {}
    lines = ["pzprv3", "yajilin-regions", str(m), str(n), str(len(puzzle.rooms))]
    lines += write_block([[room_of[(i, j)] for j in range(n)] for i in range(m)])
    lines += write_block(
        [
            ["." if v == BLANK else "-" if v == QUESTION else str(v) for v in values[k : k + n]]
            for k in range(0, m * n, n)
        ]
    )
    lines += write_block(write_cell_ans(m, n, answer.get("shaded", [])))
    lines += write_block(write_pzprv3_lines(m, n, answer.get("edges", [])))
    return "\n".join(lines) + "\n"


def write_grid(puzzle: RegionalYajilinPuzzle, answer: Answer | None = None) -> str:
    """The corpus's problem grid, or with ``answer`` its answer grid."""
    if answer is None:
        return write(puzzle)
    return write_answer_grid(puzzle.m, puzzle.n, answer)


SPEC = FamilySpec(
    name="regional-yajilin",
    aliases=("yajilin-regions", "yajirin-regions"),
    summary="Regional Yajilin: shade cells (never two side by side) and loop through the "
    "others; a region's number counts its shaded cells",
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
        "puzzlink": Codec(
            read=read_url, write=write_url, names=("yajilin-regions", "yajirin-regions")
        ),
        "pzprv3": Codec(read=read_file, write=write_file, answer=file_answer),
        "grid": Codec(
            read=read,
            write=write_grid,
            answer=lambda p, text: read_answer_grid(text, p.m, p.n),
        ),
    },
    picture=Picture(lambda p: (p.m, p.n), draw),
)
