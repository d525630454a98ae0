"""Boards of regions for the loop genres that draw them (Country Road, Detour, Double Back) and
boards of blocked cells (Simple Loop): the puzzle, its text forms, its exact-cover pieces.

A board is a grid of cells, each in one *room* (a region: the connected cells of one label of
the corpus's region grid, or the cells the walls of a puz.link board enclose) or *blocked*
(the corpus's ``@``, ``#`` or ``x``; pzprjs's empty cells, ``ques 7``): the loop never enters
a blocked cell, and a blocked cell is in no room. Rooms are numbered as pzprjs numbers them,
by their first cell in reading order, so that a board read from any format is the same object;
a room may carry a number, kept per room (pzprjs keeps it on the room's *top cell*, the top of
its leftmost column, :func:`~dlxsat.families.codecs.top_cell`, and so does every writer here).

The exact-cover pieces shared by these genres (docs/conventions.md §4, the Masyu names of
:class:`~dlxsat.families.loops.LoopBoard`): a room's item is named by its top cell's centre
point ``(2i+1, 2j+1)`` (as a Masyu circle is; no loop item has such a name), prefixed where a
genre needs a second item per room; an edge between two rooms has a *crossing* item
``#``\\ edge (as Masyu's class items are named), whose options say whether the loop crosses
there and, when it does, cover the two rooms' items: counting crossings is how "the loop
enters every room once (twice)" becomes local.

>>> b = board([["a", "a", "b"], ["#", "b", "b"]], blocked="#")
>>> b.room, b.rooms
(((0, 0, 1), (-1, 1, 1)), [[(0, 0), (0, 1)], [(0, 2), (1, 1), (1, 2)]])
>>> crossings(b)
[((0, 3), 0, 1), ((1, 2), 0, 1)]
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, TypeVar

from ..errors import InputError
from ..xcc.model import Item, Problem
from .base import Puzzle
from .codecs import BLANK, QUESTION, block, rooms
from .loops import (
    SIDES,
    LoopBoard,
    cell_name,
    degree,
    grid_codec,
    line_answer,
    line_edges,
    named_problem,
    number_token,
)
from .spec import Codec

Answer = dict[str, Any]
#: The room of a blocked cell.
BLOCKED = -1


@dataclass(frozen=True)
class RegionLoopPuzzle(Puzzle):
    """A board of rooms and blocked cells: ``room[i][j]`` is the room of cell (i, j), numbered
    from 0 in pzprjs's order, or :data:`BLOCKED`; ``clues[k]`` is room k's number
    (:data:`~dlxsat.families.codecs.BLANK` none, :data:`~dlxsat.families.codecs.QUESTION` a
    ``?``), empty for genres without numbers. Build one with :func:`board`.
    """

    room: tuple[tuple[int, ...], ...]
    clues: tuple[int, ...] = ()

    @property
    def m(self) -> int:
        return len(self.room)

    @property
    def n(self) -> int:
        return len(self.room[0])

    @cached_property
    def rooms(self) -> list[list[tuple[int, int]]]:
        """The cells of each room, in reading order."""
        out: list[list[tuple[int, int]]] = [[] for _ in range(self.room_count)]
        for i, row in enumerate(self.room):
            for j, k in enumerate(row):
                if k != BLOCKED:
                    out[k].append((i, j))
        return out

    @cached_property
    def room_count(self) -> int:
        return 1 + max((k for row in self.room for k in row), default=-1)

    @cached_property
    def blocked(self) -> frozenset[tuple[int, int]]:
        return frozenset(
            (i, j) for i, row in enumerate(self.room) for j, k in enumerate(row) if k == BLOCKED
        )

    def top(self, k: int) -> tuple[int, int]:
        """Room k's top cell (the top of its leftmost column), where its number is written."""
        return min(self.rooms[k], key=lambda c: (c[1], c[0]))

    def clue(self, k: int) -> int:
        return self.clues[k] if self.clues else BLANK

    def clue_at(self, i: int, j: int) -> int:
        """The number written in cell (i, j): its room's, on the room's top cell."""
        k = self.room[i][j]
        if k == BLOCKED or self.top(k) != (i, j):
            return BLANK
        return self.clue(k)

    @cached_property
    def loop_board(self) -> LoopBoard:
        return LoopBoard(self.m, self.n)

    def is_open(self, i: int, j: int) -> bool:
        return 0 <= i < self.m and 0 <= j < self.n and self.room[i][j] != BLOCKED


def board(
    labels: Sequence[Sequence[object]],
    blocked: object = None,
    clue_of: Callable[[list[tuple[int, int]]], int] | None = None,
) -> RegionLoopPuzzle:
    """The board whose rooms are the connected cells of equal ``labels`` (cells labelled
    ``blocked`` are blocked), numbered in pzprjs's order; ``clue_of(cells)`` gives a room's
    number (None: a board without numbers).

    >>> board([[1, 2], [1, 1]]).room
    ((0, 1), (0, 0))
    """
    m, n = len(labels), len(labels[0])
    room = [[BLOCKED] * n for _ in range(m)]
    cells: list[list[tuple[int, int]]] = []
    for i in range(m):
        for j in range(n):
            if labels[i][j] == blocked or room[i][j] != BLOCKED:
                continue
            k, part, stack = len(cells), [], [(i, j)]
            room[i][j] = k
            while stack:
                a, b = stack.pop()
                part.append((a, b))
                for _, di, dj in SIDES:
                    p, q = a + di, b + dj
                    if (
                        0 <= p < m
                        and 0 <= q < n
                        and room[p][q] == BLOCKED
                        and labels[p][q] != blocked
                        and labels[p][q] == labels[i][j]
                    ):
                        room[p][q] = k
                        stack.append((p, q))
            cells.append(sorted(part))
    clues = tuple(clue_of(part) for part in cells) if clue_of is not None else ()
    return RegionLoopPuzzle(tuple(tuple(r) for r in room), clues)


def crossings(puzzle: RegionLoopPuzzle) -> list[tuple[tuple[int, int], int, int]]:
    """Every edge between two open cells of different rooms: (its midpoint, the room of the
    cell west or north of it, the room of the other), row by row."""
    out = []
    room = puzzle.room
    for x in range(2 * puzzle.m - 1):
        for y in range((x + 1) & 1, 2 * puzzle.n - 1, 2):
            (a, b), (c, d) = ((x // 2, y // 2), (x // 2 + (x & 1), y // 2 + (y & 1)))
            r, s = room[a][b], room[c][d]
            if r != BLOCKED and s != BLOCKED and r != s:
                out.append(((x, y), r, s))
    return out


def walls(puzzle: RegionLoopPuzzle) -> tuple[list[int], list[int]]:
    """The walls of the board as pzprjs's border codecs list them (``vert`` between horizontal
    neighbours, ``horiz`` between vertical ones): a wall between two open cells of different
    rooms (a blocked cell needs none: it is in no room, and pzprjs draws it walled).

    >>> walls(board([[1, 2], [1, 1]]))
    ([1, 0], [0, 1])
    """
    room, m, n = puzzle.room, puzzle.m, puzzle.n

    def wall(a: int, b: int) -> int:
        return int(a != b and a != BLOCKED and b != BLOCKED)

    vert = [wall(room[i][j], room[i][j + 1]) for i in range(m) for j in range(n - 1)]
    horiz = [wall(room[i][j], room[i + 1][j]) for i in range(m - 1) for j in range(n)]
    return vert, horiz


def from_walls(
    cols: int,
    rows: int,
    vert: Sequence[int],
    horiz: Sequence[int],
    blocked: Sequence[int] = (),
    numbers: Sequence[int] | None = None,
) -> RegionLoopPuzzle:
    """The board of pzprjs's walls and blocked cells (flags, row by row), with ``numbers`` per
    room in pzprjs's order (None: no numbers)."""
    found = rooms(cols, rows, vert, horiz, {c for c, b in enumerate(blocked) if b})
    room = [[BLOCKED] * cols for _ in range(rows)]
    for k, part in enumerate(found):
        for c in part:
            room[c // cols][c % cols] = k
    clues = tuple(numbers) if numbers is not None else ()
    return RegionLoopPuzzle(tuple(tuple(r) for r in room), clues)


def numbers_in_cells(puzzle: RegionLoopPuzzle, cells: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """Room numbers from a number per cell (:data:`BLANK` none): a room's one number wherever it
    is written (pzprjs moves it to the top cell); two in one room is an error."""
    out = []
    for part in puzzle.rooms:
        found = [(cells[i][j], (i, j)) for i, j in part if cells[i][j] != BLANK]
        if len(found) > 1:
            where = " and ".join(cell_name(*c) for _, c in found[:2])
            raise InputError(f"the room of cell {cell_name(*part[0])} has two numbers ({where})")
        out.append(found[0][0] if found else BLANK)
    return tuple(out)


# ---------------------------------------------------------------------------------------------
# The corpus's notation: ``ROWS COLS``, then grids of space-separated tokens.

_HEADER = re.compile(r"\s*(\d+)\s+(\d+)\s*")


def grid_lines(text: str) -> list[list[str]]:
    """The token rows of a grid text (blank lines dropped)."""
    return [line.split() for line in text.replace("\r\n", "\n").split("\n") if line.strip()]


def read_grids(text: str, count: int, what: str) -> tuple[int, int, list[list[list[str]]]]:
    """(rows, cols, ``count`` grids of tokens) of a text in the corpus's notation: an optional
    ``ROWS COLS`` header, then ``count`` grids of ROWS rows each (without a header, the rows
    are split evenly); ``what`` names the genre in errors."""
    lines = grid_lines(text)
    head = _HEADER.fullmatch(" ".join(lines[0])) if lines else None
    body = lines[1:] if head else lines
    first = 2 if head else 1
    if not body:
        raise InputError(f"the {what} has no rows")
    if head:
        m, n = int(head[1]), int(head[2])
    else:
        if len(body) % count:
            raise InputError(f"a {what} without a size line needs {count} grids of equal height")
        m, n = len(body) // count, len(body[0])
    if m < 1 or n < 1:
        raise InputError(f"line 1: a {what} of {m} x {n} cells is no board")
    if len(body) < count * m:
        raise InputError(f"the {what} has {len(body)} rows, not {count * m} ({count} x {m})")
    if len(body) > count * m:
        raise InputError(f"line {first + count * m}: more rows than the {count} x {m} of a {what}")
    for k, row in enumerate(body):
        if len(row) != n:
            raise InputError(f"line {first + k}: {len(row)} cells, but the grid is {n} wide")
    return m, n, [body[g * m : (g + 1) * m] for g in range(count)]


def read_number(token: str, where: str) -> int:
    """A clue token of the corpus: ``-`` none, a number, ``?`` a number not given."""
    if token == "-":
        return BLANK
    if token == "?":
        return QUESTION
    if token.isdigit() and token.isascii():
        return int(token)
    raise InputError(f"{where}: {token!r} is not a number, - or ?")


#: A clue's token in the corpus's notation (:func:`~dlxsat.families.loops.number_token`).
write_number = number_token


def region_rows(puzzle: RegionLoopPuzzle, blocked: str) -> list[str]:
    """The region grid's rows: rooms numbered from 1, ``blocked`` for a blocked cell."""
    return [" ".join(blocked if k == BLOCKED else str(k + 1) for k in row) for row in puzzle.room]


def clue_rows(puzzle: RegionLoopPuzzle) -> list[str]:
    """The clue grid's rows: each number on its room's top cell, ``-`` elsewhere."""
    return [
        " ".join(write_number(puzzle.clue_at(i, j)) for j in range(puzzle.n))
        for i in range(puzzle.m)
    ]


def answer_rows(text: str, m: int, n: int) -> list[list[str]]:
    """The ``m`` x ``n`` tokens of an answer grid in the corpus's notation (its ``ROWS COLS``
    header, if any, must agree)."""
    lines = grid_lines(text)
    head = _HEADER.fullmatch(" ".join(lines[0])) if lines else None
    if head and (int(head[1]), int(head[2])) != (m, n):
        raise InputError(f"line 1: the answer is {head[1]} x {head[2]}, the puzzle {m} x {n}")
    body = lines[1:] if head else lines
    if len(body) < m:
        raise InputError(f"the answer has {len(body)} rows, not {m}")
    for k, row in enumerate(body[:m]):
        if len(row) != n:
            raise InputError(f"answer row {k + 1}: {len(row)} cells, but the board is {n} wide")
    return body[:m]


# ---------------------------------------------------------------------------------------------
# pzprv3 files of pzprjs's country.js genres


def pzprv3_version(text: str) -> str:
    """The first line of a pzprv3 file (``pzprv3``, ``pzprv3.1``, ``pzprv3.2``), also when the
    file is given on one line (``/`` between its lines, as in a URL).

    >>> pzprv3_version("https://puzz.link/p?pzprv3.2/detour/1/1/"), pzprv3_version("pzprv3\\nx")
    ('pzprv3.2', 'pzprv3')
    """
    text = text.strip()
    if "\n" not in text:
        text = (text.partition("?")[2] or text).split("/")[0]
    return text.split("\n")[0].strip()


def read_rooms(
    version: str,
    lines: Sequence[str],
    start: int,
    rows: int,
    cols: int,
    walls_version: str = "pzprv3.2",
) -> tuple[list[int], list[int], int]:
    """The walls (``vert``, ``horiz``) of a country.js file from ``lines[start:]``, and the
    index of the line after them: ``pzprv3.2`` writes the walls (two blocks), older versions
    the number of rooms and a room number per cell (a wall wherever two neighbours differ).
    Other genres began writing walls with another version (``walls_version``: LITS and
    Norinori with ``pzprv3.1``).

    >>> read_rooms("pzprv3", ["2", "0 1", "1 1"], 0, 2, 2)
    ([1, 0], [1, 0], 3)
    >>> read_rooms("pzprv3.1", ["1", "0", "1 0"], 0, 2, 2, walls_version="pzprv3.1")
    ([1, 0], [1, 0], 3)
    """
    if version == walls_version:
        across = block(lines, start, rows, cols - 1, "walls between horizontal neighbours")
        down = block(lines, start + rows, rows - 1, cols, "walls between vertical neighbours")
        return (
            [int(v == "1") for row in across for v in row],
            [int(v == "1") for row in down for v in row],
            start + 2 * rows - 1,
        )
    ids = block(lines, start + 1, rows, cols, "room numbers")
    vert = [int(ids[i][j] != ids[i][j + 1]) for i in range(rows) for j in range(cols - 1)]
    horiz = [int(ids[i][j] != ids[i + 1][j]) for i in range(rows - 1) for j in range(cols)]
    return vert, horiz, start + 1 + rows


def wall_rows(puzzle: RegionLoopPuzzle) -> list[list[int]]:
    """The two wall blocks of a ``pzprv3.2`` file (rows of ``vert``, then of ``horiz``)."""
    m, n = puzzle.m, puzzle.n
    vert, horiz = walls(puzzle)
    return [vert[i * (n - 1) : (i + 1) * (n - 1)] for i in range(m)] + [
        horiz[i * n : (i + 1) * n] for i in range(m - 1)
    ]


# ---------------------------------------------------------------------------------------------
# The exact-cover problem


class Builder:
    """Items and options of a loop genre, named, turned into a :class:`Problem` with the
    single-loop rule (:meth:`problem`) or into Knuth's text (:meth:`text`). Primary items may
    have bounds (``lo``, ``hi``); options naming no primary item are left out, as the DLX
    reader leaves them out."""

    def __init__(self) -> None:
        self.primary: list[Item] = []
        self.secondary: list[str] = []
        self.options: list[list[str]] = []

    def item(self, name: str, lo: int = 1, hi: int | None = None) -> None:
        self.primary.append(Item(name, True, lo, lo if hi is None else hi))

    def problem(self) -> Problem:
        """The problem with the single-loop rule (read from the names, as Knuth's data)."""
        from ..xcc.rules import SingleLoop

        problem = self.plain_problem()
        return problem.with_rules(SingleLoop.from_names(problem))

    def plain_problem(self) -> Problem:
        """The problem of the items and options alone, without a global rule (for genres
        that have none: :class:`dlxsat.families.shading.Builder`).

        >>> b = Builder()
        >>> b.item("a", 2)
        >>> b.secondary, b.options = ["x"], [["a", "x:1"], ["a"], ["x:0"]]
        >>> p = b.plain_problem()
        >>> p.option_names(0), len(p.options), p.rules
        (['a', 'x:1'], 2, ())
        """
        return named_problem(self.primary, self.secondary, self.options)

    @staticmethod
    def text(heading: Sequence[str], problem: Problem) -> str:
        """The data: comment lines (``| `` and each of ``heading``), then the problem in
        Knuth's format with its ``|@loop`` line."""
        from ..xcc.dlxformat import write

        return "".join(f"| {line}\n" for line in heading) + write(problem)


def edge_cells(edge: tuple[int, int]) -> tuple[tuple[int, int], tuple[int, int]]:
    """The two cells an edge (midpoint) joins, west or north first.

    >>> edge_cells((1, 2))
    ((0, 1), (1, 1))
    """
    x, y = edge
    return (x // 2, y // 2), ((x + 1) // 2, (y + 1) // 2)


def neighbour(i: int, j: int, edge: tuple[int, int]) -> tuple[int, int]:
    """The cell across ``edge`` from cell (i, j)."""
    x, y = edge
    return x - i, y - j


def shapes(
    puzzle: RegionLoopPuzzle,
    i: int,
    j: int,
    degrees: Iterable[int],
    used: set[str] | None = None,
) -> list[tuple[list[tuple[int, int]], list[str]]]:
    """The ways the loop can be at open cell (i, j): for each set of its open edges whose size
    is in ``degrees``, (the edges on, the entries coloring every open edge ``1`` or ``0``).
    ``used``: the names of the open edges are added to it when the cell has a way (the edge
    items the cell's options name, for the builder's list of secondary items)."""
    from itertools import combinations

    edges = [
        t for t in puzzle.loop_board.edge_tokens(i, j) if puzzle.is_open(*neighbour(i, j, t[0]))
    ]
    ones, zeros, ks = [t[2] for t in edges], [t[3] for t in edges], range(len(edges))
    out = []
    for d in sorted(set(degrees)):
        for on in combinations(ks, d):
            out.append(([edges[k][0] for k in on], [ones[k] if k in on else zeros[k] for k in ks]))
    if used is not None and out:
        used.update(name for _, name, _, _ in edges)
    return out


def is_turn(on: Sequence[tuple[int, int]]) -> bool:
    """Whether a cell's two edges on the loop make a turn (are not opposite)."""
    (a, b), (c, d) = on
    return a != c and b != d


# ---------------------------------------------------------------------------------------------
# Judging answers


@dataclass
class Line:
    """An answer's line on a board, as a rule checker reads it: its edges, each open cell's
    degree, and what is wrong with it as a set of edges (malformed entries, edges into blocked
    cells)."""

    edges: set[tuple[int, int]]
    degree: dict[tuple[int, int], int]
    wrong: list[str]

    def cells(self, d: int) -> list[tuple[int, int]]:
        """The open cells of degree ``d``, row by row."""
        return [c for c, k in self.degree.items() if k == d]


def read_line(puzzle: RegionLoopPuzzle, answer: Answer) -> Line:
    edges, wrong = line_edges(puzzle.m, puzzle.n, answer)
    for i, j in sorted(puzzle.blocked):
        if degree(edges, i, j):
            wrong.append(f"the line enters blocked cell {cell_name(i, j)}")
    deg = {
        (i, j): degree(edges, i, j)
        for i in range(puzzle.m)
        for j in range(puzzle.n)
        if (i, j) not in puzzle.blocked
    }
    return Line(edges, deg, wrong)


def branches(line: Line) -> list[str]:
    return [f"the line branches at cell {cell_name(*c)}" for c in line.cells(3)]


def crossings_of_line(line: Line) -> list[str]:
    return [f"the line crosses itself at cell {cell_name(*c)}" for c in line.cells(4)]


def dead_ends(line: Line) -> list[str]:
    return [f"the line has a dead end at cell {cell_name(*c)}" for c in line.cells(1)]


def several_loops(line: Line) -> list[str]:
    """More than one loop (the degrees being 0 or 2)."""
    from ..answer import loop_pieces

    pieces = loop_pieces(line.edges)
    return [f"the line forms {pieces} separate loops, not one"] if pieces > 1 else []


def empty_cells(line: Line) -> list[str]:
    return [f"cell {cell_name(*c)} is not on the loop" for c in line.cells(0)]


def passes(puzzle: RegionLoopPuzzle, line: Line) -> list[int]:
    """How many times the line crosses each room's walls (from inside out or outside in)."""
    out = [0] * puzzle.room_count
    for e, a, b in crossings(puzzle):
        if e in line.edges:
            out[a] += 1
            out[b] += 1
    return out


def room_name(puzzle: RegionLoopPuzzle, k: int) -> str:
    """A room as a player finds it: by its top cell."""
    return f"the region at {cell_name(*puzzle.top(k))}"


def turns(line: Line, cells: Iterable[tuple[int, int]]) -> int:
    """How many of ``cells`` the line turns in."""
    n = 0
    for i, j in cells:
        x, y = 2 * i, 2 * j
        v = (x - 1, y) in line.edges or (x + 1, y) in line.edges
        h = (x, y - 1) in line.edges or (x, y + 1) in line.edges
        n += v and h
    return n


# ---------------------------------------------------------------------------------------------
# Text and pictures


def glyph(puzzle: RegionLoopPuzzle) -> Callable[[int, int], str]:
    """One character a cell for :func:`~dlxsat.families.loops.render_line`: ``#`` blocked, a
    room's number (0-9, ``+`` above, ``?``) on its top cell, ``.`` elsewhere."""

    def at(i: int, j: int) -> str:
        if puzzle.room[i][j] == BLOCKED:
            return "#"
        v = puzzle.clue_at(i, j)
        return "." if v == BLANK else "?" if v == QUESTION else str(v) if v < 10 else "+"

    return at


def render_rooms(puzzle: RegionLoopPuzzle) -> str:
    """The rooms as letters (``a``-``z``, ``A``-``Z``, repeating), ``#`` blocked."""
    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    return "\n".join(
        "".join("#" if k == BLOCKED else letters[k % len(letters)] for k in row)
        for row in puzzle.room
    )


def draw_board(canvas: Any, puzzle: RegionLoopPuzzle, answer: Answer | None, small: bool) -> None:
    """The grid, the rooms' walls, blocked cells grey, the numbers (``small``: in the top
    cell's corner, as pzprjs draws Detour's) and the line."""
    canvas.grid(puzzle.m, puzzle.n)
    for i, j in puzzle.blocked:
        canvas.shade(i, j, "#999999")
    if puzzle.room_count > 1 or puzzle.blocked:
        canvas.walls(puzzle.room)
    for k in range(puzzle.room_count):
        v = puzzle.clue(k)
        if v == BLANK:
            continue
        i, j = puzzle.top(k)
        text = "?" if v == QUESTION else str(v)
        if small:
            canvas.text(i - 0.3, j - 0.3, text, scale=0.55)
        else:
            canvas.text(i, j, text)
    if answer:
        canvas.loop(answer.get("edges", []), 0.5)


# ---------------------------------------------------------------------------------------------
# The formats of pzprjs's country.js genres (Country Road, Detour, Double Back): a genre module
# passes its names and its puzzle class.

P = TypeVar("P", bound=RegionLoopPuzzle)


def read_numbered(cls: type[P], text: str, what: str, blocked: Sequence[str] = ()) -> P:
    """A board of numbered rooms in the corpus's notation: ``ROWS COLS``, ROWS rows of numbers
    (``-`` none), ROWS rows of region labels (a token in ``blocked``, one character each, is a
    blocked cell). A room's number may stand in any of its cells (one at most).

    >>> read_numbered(RegionLoopPuzzle, "2 2\\n- -\\n- 3\\n1 2\\n2 2\\n", "detour").clues
    (-1, 3)
    """
    m, n, (numbers, labels) = read_grids(text, 2, what)
    if not blocked:
        for i, row in enumerate(labels):
            for j, tok in enumerate(row):
                if tok in ("@", "#", "x"):
                    raise InputError(f"row {i + 1}, cell {j + 1}: a {what} has no blocked cells")
    cells = [
        [read_number(tok, f"row {i + 1}, cell {j + 1}") for j, tok in enumerate(row)]
        for i, row in enumerate(numbers)
    ]
    for i, row in enumerate(labels):
        for j, tok in enumerate(row):
            if tok in blocked and cells[i][j] != BLANK:
                raise InputError(f"row {i + 1}, cell {j + 1}: a number in a blocked cell")
    b = board([[None if t in blocked else t for t in row] for row in labels], blocked=None)
    return cls(b.room, numbers_in_cells(b, cells))


def write_numbered(puzzle: RegionLoopPuzzle, blocked: str = "@") -> str:
    """The corpus's notation of a board of numbered rooms (what :func:`read_numbered` reads)."""
    rows = [f"{puzzle.m} {puzzle.n}", *clue_rows(puzzle), *region_rows(puzzle, blocked)]
    return "".join(r + "\n" for r in rows)


def read_url(cls: type[P], family: str, text: str, numbers: bool, blocked: bool = False) -> P:
    """A puz.link URL of a country.js genre: the walls, then a number per room (``numbers``)
    or the blocked cells (``blocked``; nothing when none is). Flags change the rules (Country
    Road's ``e``: countries may stay unvisited) and are refused."""
    from .codecs import decode_binary, decode_border, decode_number16, url_of

    flags, cols, rows, body = url_of(family, text)
    if flags:
        raise InputError(
            f"puz.link flags {flags!r} change the {family} rules; dlxsat does not support them"
        )
    vert, horiz, rest = decode_border(body, cols, rows)
    cells = [0] * (cols * rows)
    if blocked and rest:
        cells, rest = decode_binary(rest, cols * rows)
    b = from_walls(cols, rows, vert, horiz, cells)
    clues: tuple[int, ...] = ()
    if numbers:
        values, rest = decode_number16(rest, b.room_count)
        clues = tuple(values)
    return cls(b.room, clues)


def write_url(kind: str, puzzle: RegionLoopPuzzle, numbers: bool, blocked: bool = False) -> str:
    """The puz.link URL of a country.js genre, as pzprjs writes it."""
    from .codecs import encode_binary, encode_border, encode_number16, make_url

    if puzzle.blocked and not blocked:
        raise InputError(f"puz.link's {kind} has no blocked cells; this board has some")
    body = encode_border(*walls(puzzle))
    if blocked:
        bits = [int(k == BLOCKED) for row in puzzle.room for k in row]
        body += encode_binary(bits, skip_none=True)
    if numbers:
        body += encode_number16([puzzle.clue(k) for k in range(puzzle.room_count)])
    return make_url(kind, puzzle.n, puzzle.m, body)


def parse_file(
    cls: type[P], family: str, text: str, numbers: bool, flags_line: bool = False
) -> tuple[P, Answer | None]:
    """A pzprv3 file of a country.js genre and the answer it holds (None: no line blocks).

    ``pzprv3.2`` (what pzprjs writes): [a flags line: Country Road], two wall blocks; older
    versions ([flags: ``pzprv3.1`` Country Road]) the number of rooms and a room number per
    cell. Then the cells (``numbers``: ``.`` none, a number, ``-`` a ``?``; else ``*`` blocked,
    ``.`` open), the two line blocks, the player's marks (ignored)."""
    from .codecs import read_numbers, read_pzprv3
    from .loops import read_pzprv3_lines

    version = pzprv3_version(text)
    rows, cols, lines = read_pzprv3(text, family)
    at = 0
    if flags_line and version != "pzprv3":
        if lines and lines[0].strip():
            raise InputError(
                f"the pzprv3 file's options {lines[0].strip()!r} change the {family} rules; "
                "dlxsat does not support them"
            )
        at = 1
    vert, horiz, at = read_rooms(version, lines, at, rows, cols)
    cells = block(lines, at, rows, cols, "cells")
    is_blocked = [int(not numbers and v == "*") for row in cells for v in row]
    b = from_walls(cols, rows, vert, horiz, is_blocked)
    clues: tuple[int, ...] = ()
    if numbers:
        clues = numbers_in_cells(b, read_numbers(lines, at, rows, cols))
    at += rows
    puzzle = cls(b.room, clues)
    if len(lines) < at + 2 * rows - 1:
        return puzzle, None
    across = block(lines, at, rows, cols - 1, "lines between horizontal neighbours")
    down = block(lines, at + rows, rows - 1, cols, "lines between vertical neighbours")
    return puzzle, line_answer(read_pzprv3_lines(across, down))


def write_file(
    kind: str,
    puzzle: RegionLoopPuzzle,
    answer: Answer | None,
    numbers: bool,
    flags_line: bool = False,
) -> str:
    """The pzprv3 file of a country.js genre as pzprjs writes it (``pzprv3.2``)."""
    from .codecs import number_rows, write_block
    from .loops import write_pzprv3_lines

    m, n = puzzle.m, puzzle.n
    if puzzle.blocked and numbers:
        raise InputError(f"pzprjs's {kind} has no blocked cells; this board has some")
    lines = ["pzprv3.2", kind, str(m), str(n)] + ([""] if flags_line else [])
    lines += write_block(wall_rows(puzzle))
    if numbers:
        cells = number_rows([[puzzle.clue_at(i, j) for j in range(n)] for i in range(m)])
    else:
        cells = [["*" if k == BLOCKED else "." for k in row] for row in puzzle.room]
    lines += write_block(cells)
    lines += write_block(write_pzprv3_lines(m, n, (answer or {}).get("edges", [])))
    lines += write_block([[0] * n for _ in range(m)])
    return "\n".join(lines) + "\n"


def same_board(family: str, puzzle: RegionLoopPuzzle | None, held: RegionLoopPuzzle) -> None:
    """Refuse a file's answer when the file holds another board than ``puzzle`` (None: any)."""
    if puzzle is not None and (puzzle.room, puzzle.clues) != (held.room, held.clues):
        raise InputError(f"the pzprv3 file holds another {family} than the puzzle given")


def country_codecs(
    cls: type[P],
    family: str,
    kind: str,
    read: Callable[[str], P],
    write: Callable[[P], str],
    *,
    numbers: bool,
    blocked: bool = False,
    flags_line: bool = False,
) -> dict[str, Codec]:
    """The ``puzzlink``, ``pzprv3`` and ``grid`` codecs of a genre of pzprjs's ``country.js``
    (walls, then a number per room or blocked cells): :func:`read_url`/:func:`write_url`,
    :func:`parse_file`/:func:`write_file` and :func:`~dlxsat.families.loops.grid_codec`
    (no shaded cells) with the genre's own settings. ``family`` names the genre in errors;
    ``kind`` is pzprjs's name of it.

    >>> from dlxsat.families.detour import DetourPuzzle, read, write
    >>> codecs = country_codecs(DetourPuzzle, "detour", "detour", read, write, numbers=True)
    >>> puzzle = codecs["puzzlink"].read("https://puzz.link/p?detour/6/5/i5rpid6hgqh423")
    >>> puzzle.clues
    (-1, -1, 4, 2, 3)
    >>> codecs["puzzlink"].write(puzzle, None)
    'https://puzz.link/p?detour/6/5/i5rpid6hgqh423\\n'
    >>> text = codecs["pzprv3"].write(puzzle, None)
    >>> codecs["pzprv3"].read(text) == puzzle, codecs["pzprv3"].answer(puzzle, text)
    (True, {'edges': []})
    """

    def parse(text: str) -> tuple[P, Answer | None]:
        return parse_file(cls, family, text, numbers=numbers, flags_line=flags_line)

    def file_answer(puzzle: P | None, text: str) -> Answer | None:
        held, drawn = parse(text)
        same_board(family, puzzle, held)
        return drawn

    def url(text: str) -> P:
        return read_url(cls, family, text, numbers=numbers, blocked=blocked)

    def to_url(puzzle: P, answer: Answer | None = None) -> str:
        return write_url(kind, puzzle, numbers=numbers, blocked=blocked)

    def to_file(puzzle: P, answer: Answer | None = None) -> str:
        return write_file(kind, puzzle, answer, numbers=numbers, flags_line=flags_line)

    return {
        "puzzlink": Codec(read=url, write=to_url, names=(kind,)),
        "pzprv3": Codec(
            read=lambda text: parse(text)[0], write=to_file, answer=file_answer, names=(kind,)
        ),
        "grid": grid_codec(read, write, shade=""),
    }
