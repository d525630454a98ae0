"""Slitherlink: read Knuth's SLITHERLINK-DLX input, print his exact-cover data, judge and draw.

The input is ``m`` lines of ``n`` characters, each a clue ``0``-``4`` (how many sides of that
cell the loop uses) or ``.`` (no clue). The loop runs along the grid lines: grid point (i, j),
0 <= i <= m, 0 <= j <= n, is the *tile* (2i, 2j) of the doubled grid, an edge is named by its
midpoint (odd coordinate sum) and the clue of cell (i, j) is the item (2i+1, 2j+1)
(docs/conventions.md §4).

Knuth's data (an XCC problem for DLX2, or DLX2-LOOP for the single-loop rule) has

* a primary item per tile, whose seven options give its edges the colors of one way the loop can
  meet that point (turn NW, NE, SW, SE, go straight N-S or W-E, or stay away);
* a primary item per clue cell, whose options color its four sides in every way that uses
  exactly as many sides as the clue says;
* a secondary item per edge.

Boards beyond his limit of 30 rows or columns are accepted here; their names are then decimal
(``40.70``) instead of base-62 digits, as docs/conventions.md §4 says. The module also holds
what the SuperSlitherlink family shares with it: reading the board, the rule checker's loop
part, the drawing, and the decoding of a solution.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ..answer import Answer, edge_ends, edges_answer, loop_pieces
from ..errors import InputError
from ..xcc.loop import used_edges
from ..xcc.model import Entry, Problem
from .base import puzzle_lines
from .grid import GridPuzzle, needs_wide_names, point_name, tatham_rows
from .spec import FamilySpec, Picture, Tatham

CLUES = "01234"
NO_CLUE = "."

#: Longest item name Knuth's solvers accept; wide boards must keep within it.
MAX_NAME = 8

#: The four sides of a grid point (or of a cell), in the order Knuth lists them in an option:
#: name, bit in a pattern, and the step from the centre to the edge in doubled coordinates.
SIDES = (("N", 8, -1, 0), ("W", 4, 0, -1), ("E", 2, 0, 1), ("S", 1, 1, 0))

#: The ways the loop can meet a grid point, in Knuth's order, as bit patterns of SIDES:
#: N+W, N+E, W+S, E+S, N+S, W+E, and "not on the loop".
TILE_PATTERNS = (0xC, 0xA, 0x5, 0x3, 0x9, 0x6, 0x0)


@dataclass(frozen=True)
class SlitherlinkPuzzle(GridPuzzle):
    """A Slitherlink board: ``rows[i][j]`` is ``.`` or a clue digit ``0``-``4``.

    ``lines`` holds the input lines as given; Knuth's output repeats them as comments.

    >>> p = read("3.\\n.1\\n")
    >>> p.m, p.n, p.wide, p.name(3, 1)
    (2, 2, False, '31')
    """

    lines: tuple[str, ...]

    @property
    def max_coord(self) -> int:
        """A corner's: the board's far corner is the point (2m, 2n)."""
        return 2 * max(self.m, self.n)


# ---------------------------------------------------------------------------------------------
# Reading (shared with SuperSlitherlink)


def board_is_wide(m: int, n: int) -> bool:
    """Whether an m × n board needs decimal names: its corner (2m, 2n) has a coordinate > 61.

    >>> board_is_wide(30, 30), board_is_wide(31, 2)
    (False, True)
    """
    return needs_wide_names(2 * max(m, n))


def read_board(
    lines: Sequence[str], cell_error: Callable[[str], str | None], longest_infix: str = ""
) -> tuple[str, ...]:
    """Check the board lines of a puzzle and return them as rows.

    ``cell_error(ch)`` says what is wrong with a cell character (None when it is fine). The rows
    must all be as long as the first, and there must be at least two rows and two columns, as
    Knuth's programs demand; larger boards than his are fine as long as the longest item name
    (``longest_infix`` is the longest non-digit part of a name, e.g. ``NW``) fits in
    :data:`MAX_NAME` characters.
    """
    if not lines:
        raise InputError("empty puzzle: no rows of clues")
    width = len(lines[0])
    for r, line in enumerate(lines, 1):
        if not line:
            raise InputError(f"line {r}: blank line inside the board")
        for c, ch in enumerate(line, 1):
            problem = cell_error(ch)
            if problem:
                raise InputError(f"line {r}, column {c}: {problem}")
        if len(line) != width:
            col = min(len(line), width) + 1
            raise InputError(
                f"line {r}, column {col}: row has wrong number of clues "
                f"({len(line)}, but line 1 has {width})"
            )
    m, n = len(lines), width
    if m < 2 or n < 2:
        raise InputError(
            f"line 1: the board dimensions must be 2 or more, not {m}x{n} "
            "(a loop needs at least two rows and two columns of cells)"
        )
    longest = point_name(2 * m, 2 * n, board_is_wide(m, n), longest_infix or ".")
    if len(longest) > MAX_NAME:
        raise InputError(
            f"a {m}x{n} board is too large: its item names (such as {longest!r}) would exceed "
            f"{MAX_NAME} characters"
        )
    return tuple(lines)


def _clue_error(ch: str) -> str | None:
    if ch in CLUES or ch == NO_CLUE:
        return None
    return f"illegal clue {ch!r} (use 0-4 for a clue, . for none)"


def read(text: str) -> SlitherlinkPuzzle:
    """Parse SLITHERLINK-DLX input, rejecting what his program rejects (with line and column).

    Unlike his program, any number of rows and columns of 2 or more is accepted.

    >>> read("3.2\\n...\\n").rows
    ('3.2', '...')
    >>> read("3.2\\n")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
      ...
    dlxsat.errors.InputError: line 1: the board dimensions must be 2 or more, not 1x3 (...)
    """
    lines = tuple(puzzle_lines(text))
    return SlitherlinkPuzzle(read_board(lines, _clue_error), lines)


def write(puzzle: SlitherlinkPuzzle) -> str:
    """The puzzle in Knuth's input format, its lines as given (his output repeats them).

    >>> write(read("3.\\n.1\\n"))
    '3.\\n.1\\n'
    """
    return "".join(line + "\n" for line in puzzle.lines)


def from_tatham_id(game_id: str) -> str:
    """Knuth's input text for a square-grid game id of Simon Tatham's Loopy (``sgt-loopy``).

    A Loopy id is ``WxHt0:DESC`` (width, height, grid type 0 = squares; a difficulty ``dX`` may
    follow the type): DESC lists the faces row by row, a digit for a clue and a letter for a
    run of blank faces (``a`` = 1 ... ``z`` = 26).

    >>> print(from_tatham_id("3x2t0:2b1a3"), end="")
    2..
    1.3
    """
    params, colon, desc = game_id.strip().partition(":")
    shape = re.fullmatch(r"(\d+)x(\d+)(?:t(\d+))?(?:d[a-z])?", params)
    if not colon or shape is None:
        raise InputError(f"{game_id!r} is not a Loopy game id like '5x5t0:DESC'")
    width, height = int(shape[1]), int(shape[2])
    if shape[3] not in (None, "0"):
        raise InputError(f"Loopy grid type t{shape[3]} is not the square grid (t0)")
    return tatham_rows(desc, width, height, {c: c for c in CLUES}, "Loopy", "face", "square clue")


# ---------------------------------------------------------------------------------------------
# Encoding


def comment_lines(lines: Iterable[str]) -> list[str]:
    """Knuth's heading: the program's name (SLITHERLINK-DLX's, for both families), then every
    input line as a comment."""
    return ["| slitherlink-dlx:"] + ["| " + line for line in lines]


def item_line(primaries: Iterable[str], secondaries: Iterable[str]) -> str:
    """The item-name line as Knuth prints it: each primary followed by a space, then ``|``, then
    each secondary preceded by a space."""
    return "".join(p + " " for p in primaries) + "|" + "".join(" " + s for s in secondaries)


def tile_options(tile: str, edges: dict[str, str]) -> Iterable[tuple[int, list[str]]]:
    """The options of a tile whose usable edges are ``edges`` (side → edge name), as (number of
    the pattern in :data:`TILE_PATTERNS`, entries); a pattern that needs a missing edge is
    skipped, and every usable edge gets color 1 or 0."""
    for k, pattern in enumerate(TILE_PATTERNS):
        if any(pattern & bit and side not in edges for side, bit, _, _ in SIDES):
            continue
        entries = [tile]
        for side, bit, _, _ in SIDES:
            if side in edges:
                entries.append(f"{edges[side]}:{1 if pattern & bit else 0}")
        yield k, entries


def masks_with(count: int) -> list[int]:
    """The 4-bit patterns of SIDES with ``count`` bits set, ascending (Knuth's order).

    >>> masks_with(1), masks_with(3)
    ([1, 2, 4, 8], [7, 11, 13, 14])
    """
    return [mask for mask in range(16) if mask.bit_count() == count]


def _tiles(m: int, n: int, name: Callable[[int, int], str]) -> Iterator[tuple[str, dict[str, str]]]:
    """Each grid point's name with its edges on the board (side → edge name), in Knuth's
    order: one walk serves :func:`encode` (text) and :func:`build` (a problem)."""
    for i in range(m + 1):
        for j in range(n + 1):
            x, y = 2 * i, 2 * j
            edges = {
                side: name(x + dx, y + dy)
                for side, _, dx, dy in SIDES
                if 0 <= x + dx <= 2 * m and 0 <= y + dy <= 2 * n
            }
            yield name(x, y), edges


def encode(puzzle: SlitherlinkPuzzle) -> str:
    """Exactly what SLITHERLINK-DLX prints on stdout for this puzzle.

    >>> print(encode(read("4.\\n..\\n")), end="")  # doctest: +ELLIPSIS
    | slitherlink-dlx:
    | 4.
    | ..
    00 02 04 20 22 24 40 42 44 11 | 01 03 10 12 14 21 23 30 32 34 41 43
    00 01:1 10:1
    ...
    11 01:1 10:1 12:1 21:1
    """
    m, n, name = puzzle.m, puzzle.n, puzzle.name
    out = comment_lines(puzzle.lines)
    clue_cells = [(i, j) for i in range(m) for j in range(n) if puzzle.rows[i][j] != NO_CLUE]
    out.append(
        item_line(
            [name(2 * i, 2 * j) for i in range(m + 1) for j in range(n + 1)]
            + [name(2 * i + 1, 2 * j + 1) for i, j in clue_cells],
            [name(x, y) for x in range(2 * m + 1) for y in range(2 * n + 1) if (x + y) & 1],
        )
    )
    for tile, edges in _tiles(m, n, name):
        out.extend(" ".join(entries) for _, entries in tile_options(tile, edges))
    for i, j in clue_cells:
        x, y = 2 * i + 1, 2 * j + 1
        cell = name(x, y)
        for mask in masks_with(int(puzzle.rows[i][j])):
            out.append(
                cell
                + "".join(
                    f" {name(x + dx, y + dy)}:{1 if mask & bit else 0}" for _, bit, dx, dy in SIDES
                )
            )
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------------
# Decoding (shared with SuperSlitherlink)


def decode(puzzle: SlitherlinkPuzzle, problem: Problem, chosen: Iterable[int]) -> Answer:
    """The loop of a solution: the edges colored 1 by the chosen options.

    Every grid edge the loop may use is a secondary item of the encoding (all of them here;
    SuperSlitherlink leaves out only edges no loop may use), and every chosen tile option
    colors all of its tile's edges, so the edges colored 1 are the whole loop: none is implied.
    """
    return edges_answer(used_edges(problem, chosen))


# ---------------------------------------------------------------------------------------------
# Checking (shared with SuperSlitherlink)


def cell_sides(i: int, j: int) -> list[tuple[int, int]]:
    """The four edges around cell (i, j), in doubled coordinates: N, W, E, S.

    >>> cell_sides(0, 0)
    [(0, 1), (1, 0), (1, 2), (2, 1)]
    """
    x, y = 2 * i + 1, 2 * j + 1
    return [(x + dx, y + dy) for _, _, dx, dy in SIDES]


def loop_problems(m: int, n: int, answer: Answer) -> tuple[set[tuple[int, int]], list[str]]:
    """The answer's edges that lie on an m × n board, and what keeps them from being one loop.

    Checks that ``answer["edges"]`` lists grid edges, each once; that every grid point has 0
    or 2 of them; that there is at least one; and that they are connected. The clues are left
    to the caller.

    >>> loop_problems(1, 1, {"edges": [[0, 1], [1, 0], [1, 2], [2, 1]]})
    ({(0, 1), (1, 0), (1, 2), (2, 1)}, [])
    >>> print(*loop_problems(1, 1, {"edges": [[0, 1], [0, 2]]})[1], sep="\\n")
    [0, 2] is not an edge of the grid
    point [0, 0] has 1 loop edge (must be 0 or 2)
    point [0, 2] has 1 loop edge (must be 0 or 2)
    """
    problems: list[str] = []
    edges: set[tuple[int, int]] = set()
    raw = answer.get("edges") if isinstance(answer, dict) else None
    if not isinstance(raw, list):
        return edges, ['the answer has no list of "edges"']
    for item in raw:
        if (
            not isinstance(item, (list, tuple))
            or len(item) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in item)
        ):
            problems.append(f"{item!r} is not an edge [row, column]")
            continue
        x, y = item
        if not (x + y) & 1 or not (0 <= x <= 2 * m and 0 <= y <= 2 * n):
            problems.append(f"[{x}, {y}] is not an edge of the grid")
        elif (x, y) in edges:
            problems.append(f"edge [{x}, {y}] is listed twice")
        else:
            edges.add((x, y))
    adj: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for x, y in sorted(edges):
        a, b = edge_ends(x, y)
        adj.setdefault(a, []).append(b)
        adj.setdefault(b, []).append(a)
    for (x, y), nbrs in sorted(adj.items()):
        if len(nbrs) != 2:
            s = "" if len(nbrs) == 1 else "s"
            problems.append(f"point [{x}, {y}] has {len(nbrs)} loop edge{s} (must be 0 or 2)")
    if not edges:
        problems.append("there is no loop")
    if problems:
        return edges, problems
    # Every point has degree 2, so the edges are one cycle iff they are connected.
    pieces = loop_pieces(edges)
    if pieces > 1:
        problems.append(f"the edges form {pieces} separate loops, not one")
    return edges, problems


def digit_clue_problems(rows: Sequence[str], edges: set[tuple[int, int]]) -> list[str]:
    """A complaint for every cell with a clue ``0``-``4`` that has another number of loop sides."""
    problems = []
    for i, row in enumerate(rows):
        for j, ch in enumerate(row):
            if ch in CLUES:
                used = sum(e in edges for e in cell_sides(i, j))
                if used != int(ch):
                    problems.append(
                        f"cell ({i + 1}, {j + 1}) has clue {ch} but {used} loop side"
                        + ("" if used == 1 else "s")
                    )
    return problems


def check(puzzle: SlitherlinkPuzzle, answer: Answer) -> list[str]:
    """Judge ``answer`` by the rules of Slitherlink, directly on the board; [] means it is right.

    The loop is one cycle along the grid lines, and each cell with a clue has exactly that many
    of its four sides on the loop.

    >>> p = read("4.\\n..\\n")
    >>> check(p, {"edges": [[0, 1], [1, 0], [1, 2], [2, 1]]})
    []
    >>> check(p, {"edges": [[0, 3], [1, 2], [1, 4], [2, 3]]})
    ['cell (1, 1) has clue 4 but 1 loop side']
    """
    edges, problems = loop_problems(puzzle.m, puzzle.n, answer)
    return problems + digit_clue_problems(puzzle.rows, edges)


# ---------------------------------------------------------------------------------------------
# Drawing (shared with SuperSlitherlink)


def render_board(rows: Sequence[str], answer: Answer | None = None) -> str:
    """The board in ASCII: ``+`` at the grid points, the clue characters in the cells (blank
    for ``.``), and the loop drawn with ``---`` and ``|`` along the grid lines."""
    edges = set()
    for e in (answer or {}).get("edges", []):
        if isinstance(e, (list, tuple)) and len(e) == 2:
            edges.add(tuple(e))
    m, n = len(rows), len(rows[0])
    lines = []
    for x in range(2 * m + 1):
        parts = []
        for y in range(2 * n + 1):
            on = (x, y) in edges
            if not x & 1:
                parts.append("+" if not y & 1 else "---" if on else "   ")
            elif not y & 1:
                parts.append("|" if on else " ")
            else:
                ch = rows[x // 2][y // 2]
                parts.append(f" {' ' if ch == NO_CLUE else ch} ")
        lines.append("".join(parts).rstrip())
    return "\n".join(lines) + "\n"


def render(puzzle: SlitherlinkPuzzle, answer: Answer | None = None) -> str:
    """The board and the loop of ``answer`` in ASCII.

    >>> print(render(read("4.\\n..\\n"), {"edges": [[0, 1], [1, 0], [1, 2], [2, 1]]}), end="")
    +---+   +
    | 4 |
    +---+   +
    <BLANKLINE>
    +   +   +
    """
    return render_board(puzzle.rows, answer)


# ---------------------------------------------------------------------------------------------
# Building the exact-cover problem directly (the batch path: no DLX text to write and read)


def build(puzzle: SlitherlinkPuzzle) -> Problem:
    """The :class:`~dlxsat.xcc.Problem` of :func:`encode`'s data, without writing it out:
    ``build(p) == SPEC.problem(p, encode(p))``, the same items and options in the same order,
    and the single-loop rule, its graph the one :func:`~dlxsat.xcc.loop.loop_graph` would
    read from the names.

    Every solve starts here, so it works on item numbers, not names: the options of a grid
    point depend only on which of its four sides lie on the board (nine cases), so they are
    made once per case and given the point's edges; the loop's graph is known from the
    coordinates rather than parsed back from the names. (Through the option texts, with the
    graph parsed back, it took 5.1 ms a board on average over 20 published Slitherlinks of
    6 x 6 to 14 x 24, which DLX solves in 2-50 ms in all; this way 2.4 ms.)

    >>> p = read("4.\\n..\\n")
    >>> build(p) == SPEC.problem(p, encode(p))
    True
    """
    from ..xcc.loop import grid_loop_graph
    from ..xcc.model import Item
    from ..xcc.rules import SingleLoop

    m, n, name = puzzle.m, puzzle.n, puzzle.name
    clue_cells = [(i, j) for i in range(m) for j in range(n) if puzzle.rows[i][j] != NO_CLUE]
    items = [Item(name(2 * i, 2 * j)) for i in range(m + 1) for j in range(n + 1)]
    items += [Item(name(2 * i + 1, 2 * j + 1)) for i, j in clue_cells]
    edge: dict[tuple[int, int], int] = {}  # doubled coordinates → item number
    for x in range(2 * m + 1):
        for y in range(2 * n + 1):
            if (x + y) & 1:
                edge[(x, y)] = len(items)
                items.append(Item(name(x, y), primary=False))
    options: list[tuple[Entry, ...]] = []
    patterns: dict[int, list[tuple[str, ...]]] = {}  # sides on the board → colors per option
    for i in range(m + 1):
        for j in range(n + 1):
            x, y = 2 * i, 2 * j
            sides = [
                (bit, edge[(x + dx, y + dy)])
                for _, bit, dx, dy in SIDES
                if 0 <= x + dx <= 2 * m and 0 <= y + dy <= 2 * n
            ]
            present = sum(bit for bit, _ in sides)
            colors = patterns.get(present)
            if colors is None:  # tile_options's patterns, in its order
                colors = patterns[present] = [
                    tuple("1" if pattern & bit else "0" for bit, _ in sides)
                    for pattern in TILE_PATTERNS
                    if not pattern & ~present
                ]
            head: Entry = (i * (n + 1) + j, None)
            ks = [k for _, k in sides]
            options.extend((head, *zip(ks, cs, strict=True)) for cs in colors)
    for c, (i, j) in enumerate(clue_cells):
        x, y = 2 * i + 1, 2 * j + 1
        sides = [(bit, edge[(x + dx, y + dy)]) for _, bit, dx, dy in SIDES]
        head = ((m + 1) * (n + 1) + c, None)
        for mask in masks_with(int(puzzle.rows[i][j])):
            options.append((head, *((k, "1" if mask & bit else "0") for bit, k in sides)))
    graph = grid_loop_graph(n + 1, m + 1, ((k, xy) for xy, k in edge.items()))
    return Problem(items, options).with_rules(SingleLoop(graph))


def draw_board(canvas: Any, rows: Sequence[str], answer: Answer | None) -> None:
    """The grid points, the clue characters in their cells, the loop along the grid lines
    (shared with SuperSlitherlink)."""
    for i, row in enumerate(rows):
        for j, ch in enumerate(row):
            if ch != NO_CLUE:
                canvas.text(i, j, ch)
    canvas.dots(len(rows), len(rows[0]))
    if answer:
        from ..drawing import LINE_ON_GRID

        canvas.loop(answer.get("edges", []), 0.0, LINE_ON_GRID)


def draw(canvas: Any, puzzle: SlitherlinkPuzzle, answer: Answer | None) -> None:
    """The board and its loop (:func:`draw_board`)."""
    draw_board(canvas, puzzle.rows, answer)


SPEC = FamilySpec(
    name="slitherlink",
    summary="Slitherlink: a loop along the grid lines, each number the loop sides of its cell",
    aliases=("slither", "loopy"),
    rules=("loop",),
    read=read,
    write=write,
    encode=encode,
    decode=decode,
    check=check,
    render=render,
    build=build,
    # Reading, encoding and parsing, per character of the text: measured 6.2 KB.
    bytes_per_cell=7000,
    formats=("knuth", "penpa", "puzzlink", "pzprv3", "tatham", "grid"),
    writes=("knuth", "puzzlink", "grid", "penpa", "pzprv3"),
    answers=("pzprv3", "penpa", "grid"),
    picture=Picture(lambda p: (p.m, p.n), draw),
    tatham=Tatham("Loopy", from_tatham_id),
    example="puzzles/slitherlink/tatham-10x10-1.txt",
)
