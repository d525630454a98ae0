"""Dotchi Loop: a loop through every white circle, all alike in each region, past the black.

The rules, as a player reads them: draw one loop through the centres of cells, without
branches or crossings. It passes every white circle and no black one. The board is divided
into regions; in each region the loop goes straight through all the white circles, or turns on
all of them. Empty cells may be passed or not; regions need not be visited.

**The text form** is the corpus's notation: a line ``ROWS COLS``, then ROWS rows of the clue
grid (``-`` empty, ``w`` white circle, ``b`` black circle), then ROWS rows of region names (any
token; cells with the same name side by side are one region). Written back with the regions
numbered from 1 in pzprjs's order (by their first cell, row by row), as the other formats
give them.

**The encoding.** The loop is Masyu's (:class:`~dlxsat.families.loops.LoopBoard`: a primary
vertex item per cell, a secondary edge item per pair of neighbours colored ``1`` on the loop,
``0`` off it, and ``|@loop``). An empty cell's options are its shapes (no edge, or two), a
black circle's the one without edge (and no option of a neighbour puts an edge of a black
circle on), a white circle's the six with two edges. A region with two white circles or more
has a secondary item ``Rg`` + its number (base 62), colored ``s`` by each straight option of
its white circles and ``t`` by each turning one: one color for the whole region, so its white
circles all go straight or all turn. Nothing more is needed: the local rules are all in the
options, the loop in the rule.

**Formats.** puz.link ``dotchi``: the region walls (Border), then the circles (Circle: ``1``
white, ``2`` black). pzprv3 ``dotchi``: ``pzprv3.2`` files give the walls, older ones the
room numbers; then the circles (``1``, ``2``, ``.``), the two line blocks, the player's marks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..answer import Answer
from ..errors import InputError
from ..xcc.model import Item, Problem
from .base import Puzzle
from .codecs import (
    decode_border,
    decode_circle,
    encode_border,
    encode_circle,
    make_url,
    region_grid,
    url_of,
    walls,
)
from .grid import b62_number
from .loops import (
    LoopBoard,
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
    read_country_pzprv3,
    read_mark_grid,
    render_line,
    write_country_pzprv3,
    write_grid,
)
from .spec import Codec, FamilySpec, Picture

NAME = "dotchi-loop"
EMPTY, WHITE, BLACK = 0, 1, 2
TOKENS = "-wb"
#: A cell's sides: north, south, west, east.
SIDES = ((-1, 0), (1, 0), (0, -1), (0, 1))


@dataclass(frozen=True)
class DotchiPuzzle(Puzzle):
    """An ``m`` x ``n`` board: ``circles[i][j]`` :data:`EMPTY`, :data:`WHITE` or :data:`BLACK`;
    ``regions[i][j]`` the cell's region, numbered from 1 in pzprjs's order."""

    m: int
    n: int
    circles: tuple[tuple[int, ...], ...]
    regions: tuple[tuple[int, ...], ...]


def make(circles: list[list[int]], labels: list[list[Any]]) -> DotchiPuzzle:
    """The puzzle of these circles and region labels (renumbered in pzprjs's order)."""
    m, n = len(circles), len(circles[0])
    regions = region_grid(n, m, *walls(labels))
    return DotchiPuzzle(m, n, tuple(map(tuple, circles)), tuple(map(tuple, regions)))


def read(text: str) -> DotchiPuzzle:
    """A puzzle in the corpus's notation.

    >>> p = read("2 2\\nw -\\nb w\\n1 1\\n2 1\\n")
    >>> p.circles, p.regions
    (((1, 0), (2, 1)), ((1, 1), (2, 1)))
    """
    return make(*read_mark_grid(text, TOKENS, "-, w or b"))


def write(puzzle: DotchiPuzzle) -> str:
    """:func:`read`'s text."""
    rows = [[TOKENS[c] for c in row] for row in puzzle.circles]
    return write_grid(puzzle.m, puzzle.n, rows, puzzle.regions)


# ---------------------------------------------------------------------------------------------
# The exact-cover problem


def build(puzzle: DotchiPuzzle) -> Problem:
    """The exact-cover problem (see the module doc), with the single-loop rule."""
    board = LoopBoard(puzzle.m, puzzle.n)
    cells = [(i, j) for i in range(puzzle.m) for j in range(puzzle.n)]
    black = {(i, j) for i, j in cells if puzzle.circles[i][j] == BLACK}
    off = {e for i, j in black for e in board.edge_points(i, j)}
    whites: dict[int, int] = {}
    for i, j in cells:
        if puzzle.circles[i][j] == WHITE:
            whites[puzzle.regions[i][j]] = whites.get(puzzle.regions[i][j], 0) + 1
    shared = {r: "Rg" + b62_number(r) for r, k in whites.items() if k > 1}
    options = []
    for i, j in cells:
        kind = puzzle.circles[i][j]
        degrees = (0,) if kind == BLACK else (2,) if kind == WHITE else (0, 2)
        for on in board.shapes(i, j, degrees):
            if on & off:
                continue
            option = [board.cell(i, j), *board.edge_entries(i, j, on)]
            region = shared.get(puzzle.regions[i][j])
            if kind == WHITE and region:
                straight = len({x for x, _ in on}) == 1 or len({y for _, y in on}) == 1
                option.append(f"{region}:{'s' if straight else 't'}")
            options.append(option)
    primary = [Item(name) for name in board.vertices()]
    return loop_problem(primary, board.all_edges() + sorted(shared.values()), options)


def encode(puzzle: DotchiPuzzle) -> str:
    """The exact-cover data: the board as comments, then :func:`build`'s problem."""
    return loop_text([f"{NAME}:", *write(puzzle).splitlines()], build(puzzle))


def decode(puzzle: DotchiPuzzle, problem: Problem, chosen: Any) -> Answer:
    """The loop's edges of the chosen options."""
    return line_answer(edges_on(problem, chosen))


# ---------------------------------------------------------------------------------------------
# The rules, judged on the answer


def check(puzzle: DotchiPuzzle, answer: Answer) -> list[str]:
    """The rules of Dotchi Loop judged on ``answer``, in pzprjs's order: branches and
    crossings, lines on black circles, regions with straight and turning white circles, white
    circles off the loop, dead ends, one loop.

    >>> p = read("2 2\\nw w\\n- -\\n1 1\\n1 1\\n")
    >>> check(p, {"edges": [[0, 1], [1, 0], [1, 2], [2, 1]]})
    []
    """
    m, n = puzzle.m, puzzle.n
    edges, problems = line_edges(m, n, answer)
    if problems:
        return problems
    problems += degree_problems(m, n, edges, (3, 4))
    kinds: dict[int, dict[str, tuple[int, int]]] = {}
    isolated = []
    for i in range(m):
        for j in range(n):
            here = [
                (2 * i + di, 2 * j + dj) in edges for di, dj in ((-1, 0), (1, 0), (0, -1), (0, 1))
            ]
            if puzzle.circles[i][j] == BLACK and any(here):
                problems.append(f"the loop passes the black circle at {cell_name(i, j)}")
            if puzzle.circles[i][j] != WHITE:
                continue
            if not any(here):
                isolated.append(f"the white circle at {cell_name(i, j)} is not on the loop")
            elif degree(edges, i, j) == 2:
                straight = (here[0] and here[1]) or (here[2] and here[3])
                kinds.setdefault(puzzle.regions[i][j], {}).setdefault(
                    "straight" if straight else "turning", (i, j)
                )
    for r, found in sorted(kinds.items()):
        if len(found) == 2:
            a, b = found["straight"], found["turning"]
            problems.append(
                f"region {r} has a straight white circle at {cell_name(*a)} and a turning one at "
                f"{cell_name(*b)}"
            )
    problems += isolated
    problems += degree_problems(m, n, edges, (1,))
    if problems:
        return problems
    if not edges:
        return ["there is no loop"]
    return pieces_problem(edges)


# ---------------------------------------------------------------------------------------------
# Text and pictures


def render(puzzle: DotchiPuzzle, answer: Answer | None = None) -> str:
    """The board in ASCII: ``W`` white, ``B`` black circles, ``.`` empty cells, the loop (the
    regions are not shown)."""
    return render_line(puzzle.m, puzzle.n, answer, lambda i, j: ".WB"[puzzle.circles[i][j]])


def draw(canvas: Any, puzzle: DotchiPuzzle, answer: Answer | None) -> None:
    """The regions' walls, the circles, and the loop through the cell centres."""
    canvas.grid(puzzle.m, puzzle.n)
    canvas.walls(puzzle.regions)
    if answer:
        canvas.loop(answer.get("edges", []), 0.5)
    for i, row in enumerate(puzzle.circles):
        for j, c in enumerate(row):
            if c != EMPTY:
                canvas.circle(i, j, black=c == BLACK, radius=0.25, z=2.5)


# ---------------------------------------------------------------------------------------------
# puz.link and pzprv3


def read_url(text: str) -> DotchiPuzzle:
    """The puzzle of a puz.link ``dotchi`` URL.

    >>> print(write(read_url("https://puzz.link/p?dotchi/2/2/g81i")), end="")
    2 2
    - -
    w b
    1 2
    1 1
    """
    flags, cols, rows, body = url_of(NAME, text)
    if flags:
        raise InputError(f"puz.link flags {flags!r}: dotchi has none")
    vert, horiz, rest = decode_border(body, cols, rows)
    values, _ = decode_circle(rest, rows * cols)
    circles = [values[r * cols : (r + 1) * cols] for r in range(rows)]
    return make(circles, region_grid(cols, rows, vert, horiz))


def write_url(puzzle: DotchiPuzzle, answer: Answer | None = None) -> str:
    """The puz.link URL, as pzprjs writes it."""
    body = encode_border(*walls(puzzle.regions))
    body += encode_circle([c for row in puzzle.circles for c in row])
    return make_url("dotchi", puzzle.n, puzzle.m, body)


def parse_pzprv3(text: str) -> tuple[DotchiPuzzle, Answer]:
    """The puzzle of a pzprv3 ``dotchi`` file and the line drawn in it."""
    regions, cells, answer = read_country_pzprv3(text, NAME)
    circles = []
    for i, row in enumerate(cells):
        for j, v in enumerate(row):
            if v not in (".", "1", "2"):
                raise InputError(
                    f"cell ({i + 1}, {j + 1}) of the pzprv3 file: {v!r} is not ., 1 or 2"
                )
        circles.append([0 if v == "." else int(v) for v in row])
    return make(circles, regions), answer


def write_pzprv3(puzzle: DotchiPuzzle, answer: Answer | None = None) -> str:
    """The pzprv3 file as pzprjs writes it, with the answer's line drawn."""
    cells = [[str(c) if c else "." for c in row] for row in puzzle.circles]
    return write_country_pzprv3("dotchi", puzzle.regions, cells, answer)


SPEC = FamilySpec(
    name=NAME,
    summary="Dotchi Loop: a loop through white circles, all straight or all turning in a region",
    aliases=("dotchi",),
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
        "puzzlink": Codec(read=read_url, write=write_url, names=("dotchi",)),
        "pzprv3": pzprv3_codec(NAME, "dotchi", parse_pzprv3, write_pzprv3, write),
        "grid": grid_codec(read, write),
    },
    picture=Picture(lambda p: (p.m, p.n), draw),
)
