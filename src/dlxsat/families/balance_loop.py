"""Balance Loop: a loop through every circle, balanced at the white ones, not at the black.

The rules, as a player reads them: draw one loop through the centres of cells, without
branches or crossings, passing every circle. From a circle the loop leaves in two directions
and runs straight for a while each way: its two *arms* (their lengths in line segments, steps
between two cells; where the loop goes straight through the circle, the two halves of the
straight stretch). At a white circle the two arms are equally long, at a black one they are
not. A number on a circle is the sum of its arms.

**The text form** is the corpus's notation: a line ``ROWS COLS``, then a row of tokens a line:
``-`` an empty cell, ``w``/``b`` a white/black circle, ``3b`` (or ``b3``) a black circle with
number 3, ``4w`` (or ``w4``) a white one with 4; written back as ``w``, ``b``, ``4w``, ``3b``.

**The encoding.** The loop is Masyu's (:class:`~dlxsat.families.loops.LoopBoard`: a primary
vertex item per cell, a secondary edge item per pair of neighbours colored ``1`` on the loop,
``0`` off it, and ``|@loop``); an empty cell's options are its shapes (no edge, or two). An
*arm* of length ``k`` in a direction is the ``k`` edges straight from the cell colored ``1`` and
the next one ``0`` (the loop turns there; nothing when the board ends first). A circle is on
the loop, and:

- *a numbered circle* (number ``n``): its vertex item's options are its six shapes (two ways
  straight, four turns) each with arms ``a + b = n`` (``a, b >= 1``), ``a = b`` for white, ``a !=
  b`` for black: at most ``6(n - 1)`` options, each fixing the circle's arms whole.
- *a circle without number*: its vertex item's options are its six shapes alone; each
  direction ``d`` from it has a primary item ``A`` + ``d`` + the circle's number (circles are
  numbered row by row, in base 62: ``An0``), whose options are "no arm" (the first edge ``0``) or
  an arm of each length ``k`` the board allows. The circle's two edges on pick the two arms.
  White: every arm option colors a secondary item ``L=`` + the circle's number with ``k`` (a
  base-62 digit; a second item ``M=``... holds the next digit on boards longer than 62), so
  the two arms must agree. Black: the arm option of length ``k`` covers the secondary item
  ``D`` + the circle's number + ``k`` without a color, which two arms cannot both do, so they
  differ. This is ``6 + 4 + 4L`` options a circle, against some ``6L^2`` for all pairs.

**Formats.** puz.link ``balance`` (Number16 of one value a cell: ``0``/``1`` a white/black
circle without number, ``2n``/``2n + 1`` with number ``n`` -- so a 0 on a circle cannot be
written, as in pzprjs; the flag ``f``, "every cell on the loop", changes the rules and is
refused); pzprv3 ``balance`` (cells ``Q,N``: color 0 white or 1 black, number or ``-2``; ``.``
none; the two line blocks).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..answer import Answer
from ..errors import InputError
from ..xcc.model import Item, Problem
from .base import Puzzle
from .codecs import (
    BLANK,
    QUESTION,
    block,
    decode_number16,
    encode_number16,
    make_url,
    read_pzprv3,
    url_of,
)
from .grid import b62, b62_number
from .loops import (
    LoopBoard,
    arm_length,
    cell_name,
    degree,
    degree_problems,
    edges_on,
    grid_codec,
    line_answer,
    line_edges,
    loop_problem,
    loop_text,
    pieces_problem,
    pzprv3_codec,
    pzprv3_line_answer,
    read_grid,
    render_line,
    write_grid,
    write_line_file,
)
from .spec import Codec, FamilySpec, Picture

NAME = "balance-loop"
WHITE, BLACK = 0, 1
#: The four directions by letter (Knuth's order of a cell's edges: north, west, east, south).
DIRECTIONS = {"n": (-1, 0), "w": (0, -1), "e": (0, 1), "s": (1, 0)}
_TOKEN = re.compile(r"(\d*)([wb])(\d*)")


@dataclass(frozen=True)
class Circle:
    """A circle: its ``colour`` (:data:`WHITE`, :data:`BLACK`) and ``number``
    (:data:`~dlxsat.families.codecs.QUESTION`: none)."""

    colour: int
    number: int = QUESTION

    @property
    def token(self) -> str:
        """The circle in the corpus's notation (the number first)."""
        return (str(self.number) if self.number >= 0 else "") + "wb"[self.colour]


@dataclass(frozen=True)
class BalancePuzzle(Puzzle):
    """An ``m`` x ``n`` board; ``circles[i][j]`` the circle on cell (i, j), or None."""

    m: int
    n: int
    circles: tuple[tuple[Circle | None, ...], ...]

    def numbered(self) -> dict[tuple[int, int], int]:
        """Each circle's number in row-by-row order (its auxiliary items' names)."""
        cells = [(i, j) for i, row in enumerate(self.circles) for j, c in enumerate(row) if c]
        return {cell: k for k, cell in enumerate(cells)}


def read(text: str) -> BalancePuzzle:
    """A puzzle in the corpus's notation.

    >>> read("1 3\\n3b - w\\n").circles
    ((Circle(colour=1, number=3), None, Circle(colour=0, number=-2)),)
    """
    m, n, (rows,) = read_grid(text)
    circles = []
    for i, row in enumerate(rows):
        out: list[Circle | None] = []
        for j, tok in enumerate(row):
            found = _TOKEN.fullmatch(tok)
            if tok == "-":
                out.append(None)
            elif found and not (found[1] and found[3]):
                digits = found[1] or found[3]
                out.append(Circle("wb".index(found[2]), int(digits) if digits else QUESTION))
            else:
                raise InputError(f"row {i + 1}, cell {j + 1}: {tok!r} is not -, w, b, 3b or b3")
        circles.append(tuple(out))
    return BalancePuzzle(m, n, tuple(circles))


def write(puzzle: BalancePuzzle) -> str:
    """:func:`read`'s text."""
    rows = [[c.token if c else "-" for c in row] for row in puzzle.circles]
    return write_grid(puzzle.m, puzzle.n, rows)


# ---------------------------------------------------------------------------------------------
# The exact-cover problem


def _arms(
    board: LoopBoard, i: int, j: int, first: str, second: str, a: int, b: int
) -> list[str] | None:
    """The entries of a circle at (i, j) leaving by directions ``first`` and ``second`` with
    arms ``a`` and ``b``, its other edges ``0``; None where the board is too small."""
    one = board.arm(i, j, *DIRECTIONS[first], a)
    two = board.arm(i, j, *DIRECTIONS[second], b)
    if one is None or two is None:
        return None
    used = {(2 * i + DIRECTIONS[d][0], 2 * j + DIRECTIONS[d][1]) for d in (first, second)}
    rest = [f"{board.name(*e)}:0" for e in board.edge_points(i, j) if e not in used]
    return one + two + rest


def _circle_options(
    board: LoopBoard, i: int, j: int, circle: Circle, k: int
) -> tuple[list[Item], list[str], list[list[str]]]:
    """The primary items, secondary items and options of circle number ``k`` at (i, j)."""
    head = board.cell(i, j)
    if circle.number >= 0:
        options = []
        pairs = [(a, b) for x, a in enumerate("nwes") for b in "nwes"[x + 1 :]]
        for first, second in pairs:
            for a in range(1, circle.number):
                b = circle.number - a
                if (a == b) != (circle.colour == WHITE):
                    continue
                entries = _arms(board, i, j, first, second, a, b)
                if entries is not None:
                    options.append([head, *entries])
        return [], [], options
    options = board.cell_options(i, j, (2,))
    name, longest = b62_number(k), max(board.m, board.n) - 1
    if circle.colour == WHITE:  # the arm's length, one base-62 digit an item
        secondary = ["L=" + name] + (["M=" + name] if longest >= 62 else [])
    else:  # an item per length, used by one arm at most
        secondary = ["D" + name + b62_number(length) for length in range(1, longest + 1)]
    primary = []
    for d, (di, dj) in DIRECTIONS.items():
        ray = board.ray(i, j, di, dj)
        if not ray:
            continue
        arm_item = "A" + d + name
        primary.append(Item(arm_item))
        options.append([arm_item, f"{board.name(*ray[0])}:0"])
        for length in range(1, len(ray) + 1):
            entries = board.arm(i, j, di, dj, length) or []
            if circle.colour == WHITE:
                code = (b62(length % 62), b62(length // 62))
                entries += [f"{item}:{c}" for item, c in zip(secondary, code, strict=False)]
            else:
                entries.append("D" + name + b62_number(length))
            options.append([arm_item, *entries])
    return primary, secondary, options


def build(puzzle: BalancePuzzle) -> Problem:
    """The exact-cover problem (see the module doc), with the single-loop rule."""
    board = LoopBoard(puzzle.m, puzzle.n)
    primary = [Item(name) for name in board.vertices()]
    secondary = board.all_edges()
    options: list[list[str]] = []
    numbers = puzzle.numbered()
    for i, row in enumerate(puzzle.circles):
        for j, circle in enumerate(row):
            if circle is None:
                options += board.cell_options(i, j)
                continue
            more, aux, opts = _circle_options(board, i, j, circle, numbers[i, j])
            primary += more
            secondary += aux
            options += opts
    return loop_problem(primary, secondary, options)


def encode(puzzle: BalancePuzzle) -> str:
    """The exact-cover data: the board as comments, then :func:`build`'s problem."""
    return loop_text([f"{NAME}:", *write(puzzle).splitlines()], build(puzzle))


def decode(puzzle: BalancePuzzle, problem: Problem, chosen: Any) -> Answer:
    """The loop's edges of the chosen options."""
    return line_answer(edges_on(problem, chosen))


# ---------------------------------------------------------------------------------------------
# The rules, judged on the answer


def check(puzzle: BalancePuzzle, answer: Answer) -> list[str]:
    """The rules of Balance Loop judged on ``answer``, in pzprjs's order: branches and
    crossings, arms too short or too long for a number, unequal at white, equal at black, dead
    ends, circles off the loop, one loop.

    >>> p = read("2 2\\nw -\\n- -\\n")
    >>> check(p, {"edges": [[0, 1], [1, 0], [1, 2], [2, 1]]})
    []
    >>> check(read("2 2\\nb -\\n- -\\n"), {"edges": [[0, 1], [1, 0], [1, 2], [2, 1]]})
    ['the black circle at (1, 1) has equal arms (1 and 1)']
    """
    m, n = puzzle.m, puzzle.n
    edges, problems = line_edges(m, n, answer)
    if problems:
        return problems
    problems += degree_problems(m, n, edges, (3, 4))
    short, long, unequal, equal, off = [], [], [], [], []
    for i, row in enumerate(puzzle.circles):
        for j, c in enumerate(row):
            if c is None:
                continue
            if degree(edges, i, j) == 0:
                off.append(f"the circle at {cell_name(i, j)} is not on the loop")
            if degree(edges, i, j) != 2:
                continue
            arms = [arm_length(m, n, edges, i, j, *d) for d in DIRECTIONS.values()]
            a, b = (x for x in arms if x)
            where = f"the {'white' if c.colour == WHITE else 'black'} circle at {cell_name(i, j)}"
            if 0 <= c.number and a + b < c.number:
                short.append(f"{where} has arms {a} + {b}, shorter than its number {c.number}")
            if 0 <= c.number < a + b:
                long.append(f"{where} has arms {a} + {b}, longer than its number {c.number}")
            if c.colour == WHITE and a != b:
                unequal.append(f"{where} has unequal arms ({a} and {b})")
            if c.colour == BLACK and a == b:
                equal.append(f"{where} has equal arms ({a} and {b})")
    problems += short + long + unequal + equal
    problems += degree_problems(m, n, edges, (1,))
    problems += off
    if problems:
        return problems
    if not edges:
        return ["there is no loop"]
    return pieces_problem(edges)


# ---------------------------------------------------------------------------------------------
# Text and pictures


def render(puzzle: BalancePuzzle, answer: Answer | None = None) -> str:
    """The board in ASCII: circles as their tokens, ``.`` empty cells, the loop between cells."""
    width = max([len(c.token) for row in puzzle.circles for c in row if c] + [1])

    def glyph(i: int, j: int) -> str:
        c = puzzle.circles[i][j]
        return c.token if c else "."

    return render_line(puzzle.m, puzzle.n, answer, glyph, width)


def draw(canvas: Any, puzzle: BalancePuzzle, answer: Answer | None) -> None:
    """White and black circles with their numbers, and the loop through the cell centres."""
    canvas.grid(puzzle.m, puzzle.n)
    if answer:
        canvas.loop(answer.get("edges", []), 0.5)
    for i, row in enumerate(puzzle.circles):
        for j, c in enumerate(row):
            if c is not None:
                canvas.circle(i, j, black=c.colour == BLACK, z=2.5)
                if c.number >= 0:
                    colour = "white" if c.colour == BLACK else "black"
                    canvas.text(i, j, str(c.number), colour=colour, scale=0.8)


# ---------------------------------------------------------------------------------------------
# puz.link and pzprv3


def read_url(text: str) -> BalancePuzzle:
    """The puzzle of a puz.link ``balance`` URL.

    >>> print(write(read_url("https://puzz.link/p?balance/3/2/71g0h")), end="")
    2 3
    3b b -
    w - -
    """
    flags, cols, rows, body = url_of(NAME, text)
    if flags:
        raise InputError(f"puz.link flags {flags!r} change the rules; dlxsat reads none")
    values, _ = decode_number16(body, rows * cols)
    cells: list[Circle | None] = []
    for v in values:
        if v < 0:  # a blank, or '.', which pzprjs reads as no circle
            cells.append(None)
        elif v < 2:
            cells.append(Circle(v))
        else:
            cells.append(Circle(v % 2, v // 2))
    circles = tuple(tuple(cells[r * cols : (r + 1) * cols]) for r in range(rows))
    return BalancePuzzle(rows, cols, circles)


def write_url(puzzle: BalancePuzzle, answer: Answer | None = None) -> str:
    """The puz.link URL, as pzprjs writes it."""
    values = [
        BLANK if c is None else c.colour if c.number < 0 else 2 * c.number + c.colour
        for row in puzzle.circles
        for c in row
    ]
    return make_url("balance", puzzle.n, puzzle.m, encode_number16(values))


def parse_pzprv3(text: str) -> tuple[BalancePuzzle, Answer]:
    """The puzzle of a pzprv3 ``balance`` file and the line drawn in it."""
    rows, cols, lines = read_pzprv3(text, NAME)
    if lines and lines[0].strip() == "f":
        raise InputError("the pzprv3 file has the rule flag 'f'; dlxsat reads none")
    circles = []
    for i, row in enumerate(block(lines, 0, rows, cols, "cells")):
        out: list[Circle | None] = []
        for j, v in enumerate(row):
            if v == ".":
                out.append(None)
                continue
            colour, _, number = v.partition(",")
            if colour not in ("0", "1") or not re.fullmatch(r"-?\d+", number):
                raise InputError(
                    f"line {i + 5} of the pzprv3 file, cell {j + 1}: {v!r} is not . or "
                    "COLOUR,NUMBER"
                )
            out.append(Circle(int(colour), int(number) if int(number) >= 0 else QUESTION))
        circles.append(tuple(out))
    puzzle = BalancePuzzle(rows, cols, tuple(circles))
    return puzzle, pzprv3_line_answer(lines, rows, rows, cols)


def write_pzprv3(puzzle: BalancePuzzle, answer: Answer | None = None) -> str:
    """The pzprv3 file as pzprjs writes it, with the answer's line drawn."""
    cells = [[f"{c.colour},{c.number}" if c else "." for c in row] for row in puzzle.circles]
    return write_line_file("balance", puzzle.m, puzzle.n, cells, answer)


SPEC = FamilySpec(
    name=NAME,
    summary="Balance Loop: a loop through every circle, equal arms at white, unequal at black",
    aliases=("balance",),
    rules=("loop",),
    read=read,
    write=write,
    encode=encode,
    decode=decode,
    check=check,
    render=render,
    build=build,
    bytes_per_cell=5000,
    formats=("knuth", "puzzlink", "pzprv3", "grid"),
    writes=("knuth", "puzzlink", "pzprv3", "grid"),
    answers=("pzprv3", "grid"),
    codecs={
        "puzzlink": Codec(read=read_url, write=write_url, names=("balance",)),
        "pzprv3": pzprv3_codec(NAME, "balance", parse_pzprv3, write_pzprv3, write),
        "grid": grid_codec(read, write),
    },
    picture=Picture(lambda p: (p.m, p.n), draw),
)
