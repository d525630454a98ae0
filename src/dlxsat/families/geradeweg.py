"""Geradeweg: a loop through every numbered cell, whose straight stretches there are that long.

The rules, as a player reads them: draw one loop through the centres of cells, without
branches or crossings, passing every numbered cell. Every straight stretch of the loop that
touches a numbered cell is as long as the number (in line segments, steps between two cells):
where the loop goes straight through the cell, the one stretch through it; where it turns
there, both stretches leaving it. A ``?`` (pzprjs also treats a ``0`` so) asks only that where
the loop turns, the two stretches are equally long.

**The text form** is the corpus's notation: a line ``ROWS COLS``, then a row of tokens a line,
``-`` an empty cell, a number, or ``?``.

**The encoding.** The loop is Masyu's (:class:`~dlxsat.families.loops.LoopBoard`: a primary
vertex item per cell, a secondary edge item per pair of neighbours colored ``1`` on the loop,
``0`` off it, and ``|@loop``). An empty cell's options are its shapes (no edge, or two). A
numbered cell is on the loop, and its vertex item's options are the ways the clue can be met,
each coloring the *arms* it needs -- an arm of length ``k`` in a direction is the ``k`` edges
straight from the cell that way colored ``1`` and the next ``0`` (the loop turns there; nothing
when the board ends first):

- going straight with number ``n``: the two arms of lengths ``a + b = n`` (``a, b >= 1``),
  ``n - 1`` options for each of the two directions;
- turning with number ``n``: both arms of length ``n``, one option for each of the four
  corners;
- ``?``: going straight, the two edges alone (nothing is asked); turning, both arms of the same
  length ``k``, one option per ``k`` the board allows.

The clue's cell has no other options, so its item is covered by exactly one way of meeting the
clue; the loop rule does the rest. A clue's options are few (at most ``2(n - 1) + 4``).

**Formats.** puz.link ``geradeweg`` (Number16: ``.`` a ``?``; the flag ``f``, "every cell on the
loop", changes the rules and is refused); pzprv3 ``geradeweg`` (cells: a number, ``-`` a ``?``,
``.``; the two line blocks).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..answer import Answer
from ..errors import InputError
from ..xcc.model import Item, Problem
from .base import Puzzle
from .codecs import (
    BLANK,
    decode_number16,
    encode_number16,
    make_url,
    number_rows,
    read_numbers,
    read_pzprv3,
    url_of,
)
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
    number_token,
    pieces_problem,
    pzprv3_codec,
    pzprv3_line_answer,
    read_number_grid,
    render_line,
    write_line_file,
    write_number_grid,
)
from .spec import Codec, FamilySpec, Picture

NAME = "geradeweg"
#: The four directions (north, west, east, south: Knuth's order of a cell's edges).
DIRECTIONS = ((-1, 0), (0, -1), (0, 1), (1, 0))


@dataclass(frozen=True)
class GeradewegPuzzle(Puzzle):
    """An ``m`` x ``n`` board; ``clues[i][j]`` a number, :data:`QUESTION` (``?``) or
    :data:`BLANK` (no clue)."""

    m: int
    n: int
    clues: tuple[tuple[int, ...], ...]


def read(text: str) -> GeradewegPuzzle:
    """A puzzle in the corpus's notation.

    >>> read("2 3\\n2 - ?\\n- - -\\n").clues
    ((2, -1, -2), (-1, -1, -1))
    """
    return GeradewegPuzzle(*read_number_grid(text))


def write(puzzle: GeradewegPuzzle) -> str:
    """:func:`read`'s text."""
    return write_number_grid(puzzle.m, puzzle.n, puzzle.clues)


# ---------------------------------------------------------------------------------------------
# The exact-cover problem


def _clue_options(board: LoopBoard, i: int, j: int, number: int) -> list[list[str]]:
    """The options of a numbered cell: the ways its number can be met (module doc)."""
    head = board.cell(i, j)
    here = set(board.edge_points(i, j))
    out = []

    def option(arms: list[tuple[int, int, int]]) -> None:
        entries: list[str] = []
        for di, dj, k in arms:
            arm = board.arm(i, j, di, dj, k)
            if arm is None:
                return
            entries += arm
        used = {(2 * i + di, 2 * j + dj) for di, dj, _ in arms}
        entries += [f"{board.name(*e)}:0" for e in sorted(here - used)]
        out.append([head, *entries])

    for a, b in ((DIRECTIONS[0], DIRECTIONS[3]), (DIRECTIONS[1], DIRECTIONS[2])):
        if number > 0:
            # (only arms that fit on the board: a number beyond any board has no option)
            longest = max(board.m, board.n)
            for k in range(max(1, number - longest), min(number, longest + 1)):
                option([(*a, k), (*b, number - k)])
        else:  # a ? going straight: nothing is asked of the stretch
            ends = {(2 * i + a[0], 2 * j + a[1]), (2 * i + b[0], 2 * j + b[1])}
            if ends <= here:
                out.append([head, *board.edge_entries(i, j, ends)])
    for a in (DIRECTIONS[0], DIRECTIONS[3]):
        for b in (DIRECTIONS[1], DIRECTIONS[2]):
            lengths = [number] if number > 0 else range(1, max(board.m, board.n))
            for k in lengths:
                option([(*a, k), (*b, k)])
    return out


def build(puzzle: GeradewegPuzzle) -> Problem:
    """The exact-cover problem (see the module doc), with the single-loop rule."""
    board = LoopBoard(puzzle.m, puzzle.n)
    options = []
    for i, row in enumerate(puzzle.clues):
        for j, v in enumerate(row):
            if v == BLANK:
                options += board.cell_options(i, j)
            else:
                options += _clue_options(board, i, j, v)
    primary = [Item(name) for name in board.vertices()]
    return loop_problem(primary, board.all_edges(), options)


def encode(puzzle: GeradewegPuzzle) -> str:
    """The exact-cover data: the board as comments, then :func:`build`'s problem."""
    return loop_text([f"{NAME}:", *write(puzzle).splitlines()], build(puzzle))


def decode(puzzle: GeradewegPuzzle, problem: Problem, chosen: Any) -> Answer:
    """The loop's edges of the chosen options."""
    return line_answer(edges_on(problem, chosen))


# ---------------------------------------------------------------------------------------------
# The rules, judged on the answer


def check(puzzle: GeradewegPuzzle, answer: Answer) -> list[str]:
    """The rules of Geradeweg judged on ``answer``, in pzprjs's order: branches and crossings,
    stretches too short, too long, unequal at a ``?``, numbers off the loop, dead ends, one
    loop.

    >>> p = read("2 2\\n1 -\\n- -\\n")
    >>> check(p, {"edges": [[0, 1], [1, 0], [1, 2], [2, 1]]})
    []
    >>> check(read("2 3\\n2 - -\\n- - -\\n"), {"edges": [[0, 1], [1, 0], [1, 2], [2, 1]]})
    ['the horizontal stretch at (1, 1) is 1 segment long, shorter than its number 2', \
'the vertical stretch at (1, 1) is 1 segment long, shorter than its number 2']
    """
    m, n = puzzle.m, puzzle.n
    edges, problems = line_edges(m, n, answer)
    if problems:
        return problems
    problems += degree_problems(m, n, edges, (3, 4))
    short, long, unequal, off = [], [], [], []
    for i, row in enumerate(puzzle.clues):
        for j, v in enumerate(row):
            if v == BLANK:
                continue
            north, west, east, south = (arm_length(m, n, edges, i, j, *d) for d in DIRECTIONS)
            across, down = west + east, north + south
            if v > 0:
                for way, length in (("horizontal", across), ("vertical", down)):
                    s = "" if length == 1 else "s"
                    where = f"the {way} stretch at {cell_name(i, j)} is {length} segment{s} long"
                    if 0 < length < v:
                        short.append(f"{where}, shorter than its number {v}")
                    elif length > v:
                        long.append(f"{where}, longer than its number {v}")
            elif across and down and across != down:
                unequal.append(
                    f"the ? at {cell_name(i, j)}: the stretches leaving it are {across} and "
                    f"{down} segments long, not equal"
                )
            if degree(edges, i, j) == 0:
                off.append(f"the clue at {cell_name(i, j)} is not on the loop")
    problems += short + long + unequal + off
    problems += degree_problems(m, n, edges, (1,))
    if problems:
        return problems
    if not edges:
        return ["there is no loop"]
    return pieces_problem(edges)


# ---------------------------------------------------------------------------------------------
# Text and pictures


def render(puzzle: GeradewegPuzzle, answer: Answer | None = None) -> str:
    """The board in ASCII: clues as their tokens, ``.`` empty cells, the loop between cells."""
    width = max([len(number_token(v)) for row in puzzle.clues for v in row] + [1])

    def glyph(i: int, j: int) -> str:
        v = puzzle.clues[i][j]
        return "." if v == BLANK else number_token(v)

    return render_line(puzzle.m, puzzle.n, answer, glyph, width)


def draw(canvas: Any, puzzle: GeradewegPuzzle, answer: Answer | None) -> None:
    """Circled numbers (and ``?``) and the loop through the cell centres."""
    canvas.grid(puzzle.m, puzzle.n)
    if answer:
        canvas.loop(answer.get("edges", []), 0.5)
    for i, row in enumerate(puzzle.clues):
        for j, v in enumerate(row):
            if v != BLANK:
                canvas.circle(i, j, black=False, z=2.5)
                canvas.text(i, j, number_token(v), scale=0.8)


# ---------------------------------------------------------------------------------------------
# puz.link and pzprv3


def read_url(text: str) -> GeradewegPuzzle:
    """The puzzle of a puz.link ``geradeweg`` URL.

    >>> print(write(read_url("https://puzz.link/p?geradeweg/3/2/2j.")), end="")
    2 3
    2 - -
    - - ?
    """
    flags, cols, rows, body = url_of(NAME, text)
    if flags:
        raise InputError(f"puz.link flags {flags!r} change the rules; dlxsat reads none")
    values, _ = decode_number16(body, rows * cols)
    clues = tuple(tuple(values[r * cols : (r + 1) * cols]) for r in range(rows))
    return GeradewegPuzzle(rows, cols, clues)


def write_url(puzzle: GeradewegPuzzle, answer: Answer | None = None) -> str:
    """The puz.link URL, as pzprjs writes it."""
    body = encode_number16([v for row in puzzle.clues for v in row])
    return make_url(NAME, puzzle.n, puzzle.m, body)


def parse_pzprv3(text: str) -> tuple[GeradewegPuzzle, Answer]:
    """The puzzle of a pzprv3 ``geradeweg`` file and the line drawn in it."""
    rows, cols, lines = read_pzprv3(text, NAME)
    if lines and lines[0].strip() == "f":
        raise InputError("the pzprv3 file has the rule flag 'f'; dlxsat reads none")
    clues = [tuple(row) for row in read_numbers(lines, 0, rows, cols)]
    puzzle = GeradewegPuzzle(rows, cols, tuple(clues))
    return puzzle, pzprv3_line_answer(lines, rows, rows, cols)


def write_pzprv3(puzzle: GeradewegPuzzle, answer: Answer | None = None) -> str:
    """The pzprv3 file as pzprjs writes it, with the answer's line drawn."""
    return write_line_file(NAME, puzzle.m, puzzle.n, number_rows(puzzle.clues), answer)


SPEC = FamilySpec(
    name=NAME,
    summary="Geradeweg: a loop through the numbers, each straight stretch touching one that long",
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
        "puzzlink": Codec(read=read_url, write=write_url, names=(NAME,)),
        "pzprv3": pzprv3_codec(NAME, NAME, parse_pzprv3, write_pzprv3, write),
        "grid": grid_codec(read, write),
    },
    picture=Picture(lambda p: (p.m, p.n), draw),
)
