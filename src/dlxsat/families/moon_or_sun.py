"""Moon or Sun: a loop visiting every region once, by turns through its suns or its moons.

The rules, as a player reads them: draw one loop through the centres of cells, without
branches or crossings. The board is divided into regions, and the loop visits every region
exactly once (it enters it once and leaves it once). In each region it passes all the suns and
no moon, or all the moons and no sun, and at least one of them; and two regions that follow
each other along the loop are of different kinds: sun region, moon region, sun region, ...

**The text form** is the corpus's notation: a line ``ROWS COLS``, then ROWS rows of the clue
grid (``-`` empty, ``o`` sun, ``x`` moon), then ROWS rows of region names (cells with the same
name side by side are one region). Written back with the regions numbered from 1 in pzprjs's
order (by their first cell, row by row).

**The encoding.** The loop is Masyu's (:class:`~dlxsat.families.loops.LoopBoard`: a primary
vertex item per cell, a secondary edge item per pair of neighbours colored ``1`` on the loop,
``0`` off it, and ``|@loop``); a cell's options are its shapes (no edge, or two). Each region
``r`` (numbered in base 62) has

- a secondary *kind* item ``Tg`` + ``r`` colored ``s`` (a sun region) or ``m`` (a moon region).
  A sun's options with two edges color its region's kind ``s``, its option without edge ``m``
  (a moon's the other way round): so a region passes all its suns and no moon or the reverse,
  and since every mark is passed or not, at least one of its kind. A region without moons has no
  way to be a moon region (its suns have no option without edge), and the reverse.
- a primary *crossing* item ``Xg`` + ``r`` with multiplicity 2 (``2|Xg3``): the loop crosses the
  region's border exactly twice, so it visits the region exactly once (it cannot stay inside
  one region of several, and it cannot skip one). Each edge between two regions ``r`` and
  ``q`` has a primary *switch* item ``S`` + its name with three options: the edge ``0``; or the
  edge ``1``, covering both regions' crossing items, and coloring their kinds ``s`` and ``m``,
  or ``m`` and ``s``: two regions that follow each other are of different kinds.

A region without any mark cannot be met (pzprjs: "passes neither the marks of the moon nor the
sun"): it gets a primary item ``Eg`` + ``r`` without options. A board of one region has no
border to cross: its loop just passes its suns or its moons.

**Formats.** puz.link ``moonsun``: the region walls (Border), then the marks (Circle: ``1`` sun,
``2`` moon). pzprv3 ``moonsun``: ``pzprv3.2`` files give the walls, older ones the room
numbers; then the marks (``1`` sun, ``2`` moon, ``.``), the two line blocks, the player's
marks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..answer import Answer
from ..errors import InputError
from ..xcc.loop import edge_ends
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

NAME = "moon-or-sun"
#: pzprjs's numbers of the marks, and the corpus's letters (``o`` sun, ``x`` moon).
EMPTY, SUN, MOON = 0, 1, 2
TOKENS = "-ox"
KIND = {SUN: "s", MOON: "m"}
WORD = {SUN: "sun", MOON: "moon"}


@dataclass(frozen=True)
class MoonSunPuzzle(Puzzle):
    """An ``m`` x ``n`` board: ``marks[i][j]`` :data:`EMPTY`, :data:`SUN` or :data:`MOON`;
    ``regions[i][j]`` the cell's region, numbered from 1 in pzprjs's order."""

    m: int
    n: int
    marks: tuple[tuple[int, ...], ...]
    regions: tuple[tuple[int, ...], ...]


def make(marks: list[list[int]], labels: list[list[Any]]) -> MoonSunPuzzle:
    """The puzzle of these marks and region labels (renumbered in pzprjs's order)."""
    m, n = len(marks), len(marks[0])
    regions = region_grid(n, m, *walls(labels))
    return MoonSunPuzzle(m, n, tuple(map(tuple, marks)), tuple(map(tuple, regions)))


def read(text: str) -> MoonSunPuzzle:
    """A puzzle in the corpus's notation.

    >>> p = read("2 2\\no -\\nx o\\n1 1\\n2 2\\n")
    >>> p.marks, p.regions
    (((1, 0), (2, 1)), ((1, 1), (2, 2)))
    """
    return make(*read_mark_grid(text, TOKENS, "- (empty), o or x"))


def write(puzzle: MoonSunPuzzle) -> str:
    """:func:`read`'s text."""
    rows = [[TOKENS[c] for c in row] for row in puzzle.marks]
    return write_grid(puzzle.m, puzzle.n, rows, puzzle.regions)


# ---------------------------------------------------------------------------------------------
# The exact-cover problem


def build(puzzle: MoonSunPuzzle) -> Problem:
    """The exact-cover problem (see the module doc), with the single-loop rule."""
    board = LoopBoard(puzzle.m, puzzle.n)
    region = puzzle.regions
    names = sorted({r for row in region for r in row})
    kinds: dict[int, set[str]] = {r: set() for r in names}
    for i, row in enumerate(puzzle.marks):
        for j, mark in enumerate(row):
            if mark:
                kinds[region[i][j]].add(KIND[mark])
    kind = {r: "Tg" + b62_number(r) for r in names}
    crossing = {r: "Xg" + b62_number(r) for r in names}
    primary = [Item(name) for name in board.vertices()]
    if len(names) > 1:
        primary += [Item(crossing[r], lo=2, hi=2) for r in names]
    primary += [Item("Eg" + b62_number(r)) for r in names if not kinds[r]]
    options: list[list[str]] = []
    for i, row in enumerate(puzzle.marks):
        for j, mark in enumerate(row):
            r = region[i][j]
            for on in board.shapes(i, j):
                option = [board.cell(i, j), *board.edge_entries(i, j, on)]
                if mark:
                    mine = KIND[mark]
                    colour = mine if on else ({"s", "m"} - {mine}).pop()
                    if colour not in kinds[r]:
                        continue
                    option.append(f"{kind[r]}:{colour}")
                options.append(option)
    for x, y in board.all_edge_points():
        (a, b), (c, d) = edge_ends(x, y)
        r, q = region[a // 2][b // 2], region[c // 2][d // 2]
        if r == q:
            continue
        switch, edge = "S" + board.name(x, y), board.name(x, y)
        primary.append(Item(switch))
        options.append([switch, f"{edge}:0"])
        for one, two in (("s", "m"), ("m", "s")):
            if one in kinds[r] and two in kinds[q]:
                options.append(
                    [
                        switch,
                        f"{edge}:1",
                        crossing[r],
                        crossing[q],
                        f"{kind[r]}:{one}",
                        f"{kind[q]}:{two}",
                    ]
                )
    secondary = board.all_edges() + [kind[r] for r in names]
    return loop_problem(primary, secondary, options)


def encode(puzzle: MoonSunPuzzle) -> str:
    """The exact-cover data: the board as comments, then :func:`build`'s problem."""
    return loop_text([f"{NAME}:", *write(puzzle).splitlines()], build(puzzle))


def decode(puzzle: MoonSunPuzzle, problem: Problem, chosen: Any) -> Answer:
    """The loop's edges of the chosen options."""
    return line_answer(edges_on(problem, chosen))


# ---------------------------------------------------------------------------------------------
# The rules, judged on the answer


def check(puzzle: MoonSunPuzzle, answer: Answer) -> list[str]:
    """The rules of Moon or Sun judged on ``answer``, in pzprjs's order: branches and
    crossings, regions entered more than once, regions passing suns and moons, moon (sun)
    regions in a row, regions passing some of their moons (suns) only, regions not visited,
    regions passing no mark, dead ends, one loop.

    >>> p = read("2 2\\no x\\no x\\n1 2\\n1 2\\n")
    >>> check(p, {"edges": [[0, 1], [1, 0], [1, 2], [2, 1]]})
    []
    """
    m, n = puzzle.m, puzzle.n
    edges, problems = line_edges(m, n, answer)
    if problems:
        return problems
    problems += degree_problems(m, n, edges, (3, 4))
    region = puzzle.regions
    names = sorted({r for row in region for r in row})
    crossings = dict.fromkeys(names, 0)
    visited: set[int] = set()
    passed: dict[int, dict[int, list[tuple[int, int]]]] = {r: {SUN: [], MOON: []} for r in names}
    missed: dict[int, dict[int, list[tuple[int, int]]]] = {r: {SUN: [], MOON: []} for r in names}
    for i in range(m):
        for j in range(n):
            on = degree(edges, i, j) > 0
            if on:
                visited.add(region[i][j])
            if puzzle.marks[i][j]:
                (passed if on else missed)[region[i][j]][puzzle.marks[i][j]].append((i, j))
    follow = []
    for x, y in sorted(edges):
        (a, b), (c, d) = edge_ends(x, y)
        r, q = region[a // 2][b // 2], region[c // 2][d // 2]
        if r != q:
            crossings[r] += 1
            crossings[q] += 1
            follow.append((r, q))
    for r in names:
        if crossings[r] > 2:
            problems.append(f"the loop crosses the border of region {r} {crossings[r]} times")
    for r in names:
        if passed[r][SUN] and passed[r][MOON]:
            problems.append(
                f"region {r}: the loop passes a sun at {cell_name(*passed[r][SUN][0])} and a "
                f"moon at {cell_name(*passed[r][MOON][0])}"
            )
    for mark in (MOON, SUN):
        for r, q in follow:
            if passed[r][mark] and passed[q][mark]:
                problems.append(
                    f"regions {r} and {q} follow each other on the loop, both passing their "
                    f"{WORD[mark]}s"
                )
    for mark in (MOON, SUN):
        for r in names:
            if passed[r][mark] and missed[r][mark]:
                problems.append(
                    f"region {r}: the loop passes {WORD[mark]}s but not the {WORD[mark]} at "
                    f"{cell_name(*missed[r][mark][0])}"
                )
    problems += [f"region {r} is not visited by the loop" for r in names if r not in visited]
    problems += [
        f"region {r}: the loop passes neither a sun nor a moon there"
        for r in names
        if r in visited and not passed[r][SUN] and not passed[r][MOON]
    ]
    problems += degree_problems(m, n, edges, (1,))
    if problems:
        return problems
    if not edges:
        return ["there is no loop"]
    return pieces_problem(edges)


# ---------------------------------------------------------------------------------------------
# Text and pictures


def render(puzzle: MoonSunPuzzle, answer: Answer | None = None) -> str:
    """The board in ASCII: ``o`` suns, ``x`` moons, ``.`` empty cells, the loop (the regions
    are not shown)."""
    return render_line(puzzle.m, puzzle.n, answer, lambda i, j: ".ox"[puzzle.marks[i][j]])


def draw(canvas: Any, puzzle: MoonSunPuzzle, answer: Answer | None) -> None:
    """The regions' walls, suns (white circles) and moons (black), and the loop."""
    canvas.grid(puzzle.m, puzzle.n)
    canvas.walls(puzzle.regions)
    if answer:
        canvas.loop(answer.get("edges", []), 0.5)
    for i, row in enumerate(puzzle.marks):
        for j, c in enumerate(row):
            if c != EMPTY:
                canvas.circle(i, j, black=c == MOON, radius=0.25, z=2.5)


# ---------------------------------------------------------------------------------------------
# puz.link and pzprv3


def read_url(text: str) -> MoonSunPuzzle:
    """The puzzle of a puz.link ``moonsun`` URL.

    >>> print(write(read_url("https://puzz.link/p?moonsun/2/2/g89i")), end="")
    2 2
    o -
    - x
    1 2
    1 1
    """
    flags, cols, rows, body = url_of(NAME, text)
    if flags:
        raise InputError(f"puz.link flags {flags!r}: moonsun has none")
    vert, horiz, rest = decode_border(body, cols, rows)
    values, _ = decode_circle(rest, rows * cols)
    marks = [values[r * cols : (r + 1) * cols] for r in range(rows)]
    return make(marks, region_grid(cols, rows, vert, horiz))


def write_url(puzzle: MoonSunPuzzle, answer: Answer | None = None) -> str:
    """The puz.link URL, as pzprjs writes it."""
    body = encode_border(*walls(puzzle.regions))
    body += encode_circle([c for row in puzzle.marks for c in row])
    return make_url("moonsun", puzzle.n, puzzle.m, body)


def parse_pzprv3(text: str) -> tuple[MoonSunPuzzle, Answer]:
    """The puzzle of a pzprv3 ``moonsun`` file and the line drawn in it."""
    regions, cells, answer = read_country_pzprv3(text, NAME)
    marks = []
    for i, row in enumerate(cells):
        for j, v in enumerate(row):
            if v not in (".", "1", "2"):
                raise InputError(f"pzprv3 cell ({i + 1}, {j + 1}): {v!r} is not ., 1 or 2")
        marks.append([0 if v == "." else int(v) for v in row])
    return make(marks, regions), answer


def write_pzprv3(puzzle: MoonSunPuzzle, answer: Answer | None = None) -> str:
    """The pzprv3 file as pzprjs writes it, with the answer's line drawn."""
    cells = [[str(c) if c else "." for c in row] for row in puzzle.marks]
    return write_country_pzprv3("moonsun", puzzle.regions, cells, answer)


SPEC = FamilySpec(
    name=NAME,
    summary="Moon or Sun: a loop visiting each region once, by turns through its suns or moons",
    aliases=("moonsun",),
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
        "puzzlink": Codec(read=read_url, write=write_url, names=("moonsun",)),
        "pzprv3": pzprv3_codec(NAME, "moonsun", parse_pzprv3, write_pzprv3, write),
        "grid": grid_codec(read, write),
    },
    picture=Picture(lambda p: (p.m, p.n), draw),
)
