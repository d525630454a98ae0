"""NumberLink: join each pair of equal numbers by a path through cell centres.

The rules, as a player reads them: draw paths from cell centre to the centre of an orthogonal
neighbour. Each path joins two cells holding the same number; a numbered cell is the end of
exactly one path, and no path passes through a number. Two paths never share a cell (so they
never cross or branch). Cells may stay empty: there is no rule that every cell is used (Janko's
rules for his "Arukone", the corpus's source, say so; so does pzprjs's ``numlin``, and six
corpus answers leave cells empty). A ``?`` is a number of unknown value: as pzprjs judges it,
it pairs only with another ``?``. pzprjs does not ask a number to appear exactly twice (four
``1``\\ s make two paths), and neither does dlxsat.

**The text form** is the corpus's notation (``SmilingWayne/puzzlekit-dataset``): a line ``ROWS
COLS``, then a row of tokens a line: ``-`` an empty cell, a number, or ``?``.

**The encoding.** The paths are lines through cell centres, named as Masyu's loop is
(:class:`~dlxsat.families.loops.LoopBoard`): a primary vertex item per cell and a secondary
edge item per pair of neighbours, colored ``1`` on a path and ``0`` off it.

1. *Degrees.* A numbered cell's options are its ends: one of its edges ``1``, the others
   ``0``. An empty cell's options are "unused" (every edge ``0``) and its six ways of being
   passed (two edges ``1``). So paths end exactly at numbers and never branch or cross.
2. *Equal numbers.* Every value gets a color (a single character; ``?`` one of its own). Each
   empty cell has a secondary *color item* ``c`` + its name, and each edge a primary *link
   item* ``#`` + its name with the options: ``#e e:0`` (no path there), and for every value
   ``k`` the edge may carry, ``#e e:1 ca:k cb:k``, coloring both its cells ``k`` (a numbered
   cell has no color item: its edges carry its own value only, and an edge between two
   numbers is on only when they are equal). A color item takes one color in any answer, so
   along a path every cell has one color, that of the numbers at its ends: a path never joins
   two different numbers. A value may run only in the parts of the board (pieces of empty
   cells) that touch two of its numbers; every other ``k`` of an edge is left out.
3. *No cycle*, the global rule ``|@acyclic paths`` over the edges colored ``1`` (their ends
   the cells: ``|@ends grid``). Degrees and colors alone allow a closed loop of empty cells
   beside the paths; with no cycle, every piece of the line is a path, and by 1 it ends at
   two numbers. DLX prunes a choice that closes a cycle; SAT and CP-SAT add cycle cuts
   lazily.

The link items keep the options few: an edge has one option per value it may carry, where a
cell's options colored by value would be six per value. This problem is what ``encode``
prints, and what listing answers solves; a count on the default backend goes by a sweep of
the board instead, outside the exact cover (:mod:`.numberlink_sweep`, the family's counter).

**A shorter proof of uniqueness** (the family's :class:`~dlxsat.families.spec.Argument`).
With cells allowed to stay empty, a path may take very many roads through the space the others
leave, and proving that none gives a second answer is slow on the exact problem: on a 15 x 15
the first SAT call itself runs out of time. So a ``unique`` search goes another way first.

4. *Shortening.* A path *touches itself* where two of its cells are side by side and it does
   not pass between them; cutting it short there (joining the two cells directly, emptying
   the cells between) gives another answer with fewer cells used. So every answer shortens,
   step by step, to a *touch-free* one, and an answer that uses every cell shortens from
   itself alone (each step empties a cell).
5. *The touch-free problem* (:func:`touch_free`), the *narrow* problem: the exact problem's
   items and options of steps 1 and 2 without the "unused" options (no cell stays empty),
   and two kinds of item more. A *value item* ``v`` + cell per empty cell, with an option
   per value that may run there, coloring the cell's color item with it: a variable per
   cell and value, which the touch items name. No touch, in Knuth's style: a *guard item*
   ``t`` + edge + value for each edge and each value given exactly twice that both its cells
   may carry, bounds 0 to 2, named by each cell's options of that value (a number's ends, an
   empty cell's value option) and by the edge's "off" option: two cells of the value side
   by side with no path between them would cover it three times. (A value given twice has
   one path; a value given four times may have two paths side by side, and gets no guard.)
   The acyclic rule stays (a ring of a value apart from its path touches nothing).
6. *The rest* (:func:`touch_free` with ``holes``): answers that leave a cell empty and in
   which no value given twice touches itself (the narrow problem with each empty cell's
   "unused" option back, naming its value item, and a primary item ``holes``, bounds 1 to
   the number of empty cells, named by each "unused" option), kept to those with the fewest
   cells used by *bridges*. If an answer other than A exists, it shortens (step 4) to such
   an answer; take one, B, with the fewest cells used. Let an empty cell have two
   neighbours of one value given twice (so on its one path): on opposite sides, or on two
   sides with the fourth cell of their 2 x 2 block not joined to the first; the path runs
   at least four steps between them, and through the empty cell it would run two: another
   answer with at least two cells fewer and a cell still empty, which shortens to one with
   fewer cells than B. So B has no such bridge, and a bridge item ``b`` + cells + value
   (named by the empty cell's "unused" option, the two cells' options of the value and the
   "off" option of the edge to the fourth cell, bounds 0 to one less) forbids it.
   *Flips*: among those B, take one whose used cells have the least sum of places in
   reading order (row by row, 0 to mn - 1). Let a path of B run from a cell p to a cell q
   along a shortest route of the grid, two or three steps long (:data:`FLIP_STEPS`), and the
   cells between of another shortest route from p to q, none of them on the first, be empty,
   with a smaller sum of places. Moved onto that route, the path gives another answer with
   as many cells, a cell still empty and a smaller sum: touch-free, it comes before B; not,
   it shortens to one with fewer cells. So B has no such flip, and a flip item ``f`` + cells
   (named by the other route's "unused" options and, for each cell the path passes between p
   and q, its option passed between its two neighbours on the route; bounds 0 to one less)
   forbids it. No value is named: a flip moves a path of any value.
7. *The verdict.* Two covers of the narrow problem are two answers. One, A, and a cover of
   the rest: two answers (A uses every cell, the other does not). One and none of the rest:
   every answer other than A would give a cover of the rest (B above), so A is the only
   answer. No cover of the narrow problem (every answer leaves a cell empty, six corpus
   puzzles): the exact problem decides.

The narrow problem propagates strongly (every cell is passed, and no path may run beside
itself) and finds the answer of a 15 x 15 in seconds where the exact problem's first SAT
call may not in a minute; the rest holds the whole question of a second answer, and is the
slow part (figures in ``docs/genres/numberlink.md``). Both problems carry the hint
:data:`PAIRWISE_AT_MOST` for CNF translations.

**Formats.** puz.link ``numlin`` (Number16: ``.`` a ``?``; pzprjs also reads the name
``numberlink``); pzprv3 ``numlin`` (the cells: a number, ``-`` a ``?``, ``.``; the two line
blocks; a file that ends after its size is an empty board, as pzprjs reads it). The answer grid
is the corpus's line tokens: a path's end is the one side it leaves by (``n``, ``s``, ``e``,
``w``), ``-`` an unused cell. pzprjs's Arukone (``arukone``: letters, and every cell used) is
another genre, not read here.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any

from ..answer import Answer
from ..errors import InputError
from ..xcc.loop import connected_pieces, edge_ends
from ..xcc.model import Problem
from ..xcc.names import DIGITS
from ..xcc.rules import Acyclic
from .base import Puzzle
from .codecs import (
    BLANK,
    QUESTION,
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
    cell_name,
    degree,
    edges_on,
    grid_codec,
    line_answer,
    line_edges,
    number_token,
    pzprv3_codec,
    pzprv3_line_answer,
    read_number_grid,
    render_line,
    write_line_file,
    write_number_grid,
)
from .regions import Builder
from .spec import Argument, Codec, Counter, FamilySpec, Picture

NAME = "numberlink"
TYPE = "numlin"
#: The colors of the values, in the order of the values (``?`` last): a single character each,
#: none of them a space, ``:`` or ``|`` (Knuth's format).
PALETTE = DIGITS[1:] + "0" + "!#$%&()*+,-./;<=>?@[]^_{}~"


@dataclass(frozen=True)
class NumberLinkPuzzle(Puzzle):
    """An ``m`` x ``n`` board; ``clues[i][j]`` a number (0 or more), :data:`QUESTION` (``?``)
    or :data:`BLANK` (an empty cell)."""

    m: int
    n: int
    clues: tuple[tuple[int, ...], ...]

    def values(self) -> list[int]:
        """The values on the board, numbers in order and then :data:`QUESTION`."""
        found = {v for row in self.clues for v in row if v != BLANK}
        return sorted(found - {QUESTION}) + ([QUESTION] if QUESTION in found else [])


def read(text: str) -> NumberLinkPuzzle:
    """A puzzle in the corpus's notation.

    >>> read("2 3\\n1 - ?\\n- 1 ?\\n").clues
    ((1, -1, -2), (-1, 1, -2))
    """
    return NumberLinkPuzzle(*read_number_grid(text))


def write(puzzle: NumberLinkPuzzle) -> str:
    """:func:`read`'s text."""
    return write_number_grid(puzzle.m, puzzle.n, puzzle.clues)


# ---------------------------------------------------------------------------------------------
# The exact-cover problem


def colors(puzzle: NumberLinkPuzzle) -> dict[int, str]:
    """Each value's color (:data:`PALETTE`, in the order of :meth:`NumberLinkPuzzle.values`);
    an :class:`InputError` when there are more values than colors.

    >>> colors(read("1 4\\n7 ? 7 ?\\n"))
    {7: '1', -2: '2'}
    """
    values = puzzle.values()
    if len(values) > len(PALETTE):
        raise InputError(
            f"the board has {len(values)} different numbers; dlxsat colors at most {len(PALETTE)}"
        )
    return {v: PALETTE[k] for k, v in enumerate(values)}


def room_values(puzzle: NumberLinkPuzzle) -> list[list[set[int]]]:
    """For each empty cell, the values a path through it may have: those with two numbers
    next to the piece of empty cells it lies in (a path leaves a number into that piece and
    must end at another number beside it). Numbered cells get the empty set.

    >>> room_values(read("1 5\\n1 - 1 - 2\\n"))[0]
    [set(), {1}, set(), set(), set()]
    """
    m, n = puzzle.m, puzzle.n
    out: list[list[set[int]]] = [[set() for _ in range(n)] for _ in range(m)]
    seen = [[False] * n for _ in range(m)]
    for si in range(m):
        for sj in range(n):
            if seen[si][sj] or puzzle.clues[si][sj] != BLANK:
                continue
            piece, stack, touching = [], [(si, sj)], {}
            seen[si][sj] = True
            while stack:
                i, j = stack.pop()
                piece.append((i, j))
                for a, b in ((i - 1, j), (i + 1, j), (i, j - 1), (i, j + 1)):
                    if not (0 <= a < m and 0 <= b < n):
                        continue
                    v = puzzle.clues[a][b]
                    if v != BLANK:
                        touching[(a, b)] = v
                    elif not seen[a][b]:
                        seen[a][b] = True
                        stack.append((a, b))
            counts: dict[int, int] = {}
            for v in touching.values():
                counts[v] = counts.get(v, 0) + 1
            values = {v for v, k in counts.items() if k >= 2}
            for i, j in piece:
                out[i][j] = values
    return out


def color_item(board: LoopBoard, i: int, j: int) -> str:
    """The color item of empty cell (i, j): ``c`` and the cell's name (no point name).

    >>> color_item(LoopBoard(2, 2), 1, 0)
    'c20'
    """
    return "c" + board.cell(i, j)


def build(puzzle: NumberLinkPuzzle) -> Problem:
    """The exact-cover problem (see the module doc), with its acyclic rule."""
    m, n = puzzle.m, puzzle.n
    board = LoopBoard(m, n)
    color = colors(puzzle)
    runs = room_values(puzzle)
    b = Builder()
    if all(v == BLANK for row in puzzle.clues for v in row):
        # No number, no path: a board without a line is no answer (pzprjs: "there is no line
        # on the board"), which a cell's item that no option covers says.
        b.item(next(iter(board.vertices())))
        return b.plain_problem()
    for cell in board.vertices():
        b.item(cell)
    edges = board.all_edge_points()
    for x, y in edges:
        b.item("#" + board.name(x, y))
    cells_colored = []
    for i in range(m):
        for j in range(n):
            here = board.edge_points(i, j)
            if puzzle.clues[i][j] == BLANK:
                cells_colored.append(color_item(board, i, j))
                b.options += board.cell_options(i, j, (0,))
                b.options += board.cell_options(i, j, (2,))
            else:
                b.options += [[board.cell(i, j), *board.edge_entries(i, j, [e])] for e in here]
    for x, y in edges:
        (a, c), (d, f) = edge_ends(x, y)
        pair = [(a // 2, c // 2), (d // 2, f // 2)]
        name = board.name(x, y)
        b.options.append(["#" + name, f"{name}:0"])
        given = {puzzle.clues[i][j] for i, j in pair} - {BLANK}
        if len(given) > 1:
            continue  # two different numbers side by side: never joined
        free = [(i, j) for i, j in pair if puzzle.clues[i][j] == BLANK]
        for v in color:
            if (given and v not in given) or any(v not in runs[i][j] for i, j in free):
                continue  # another number's edge, or a piece of empty cells v cannot run in
            items = [f"{color_item(board, i, j)}:{color[v]}" for i, j in free]
            b.options.append(["#" + name, f"{name}:1", *items])
    b.secondary = [*board.all_edges(), *cells_colored]
    return _acyclic(b.plain_problem(), board)


def encode(puzzle: NumberLinkPuzzle) -> str:
    """The exact-cover data: the board as comments, then :func:`build`'s problem."""
    return Builder.text([f"{NAME}:", *write(puzzle).splitlines()], build(puzzle))


def decode(puzzle: NumberLinkPuzzle, problem: Problem, chosen: Any) -> Answer:
    """The paths' edges of the chosen options."""
    return line_answer(edges_on(problem, chosen))


# ---------------------------------------------------------------------------------------------
# The touch-free answers (the argument of a unique search: steps 4-7 of the module doc)

#: The most empty cells times values for which the argument is tried: beyond it the exact
#: problem is solved directly (the five largest corpus boards, 36,000-67,000: their problems
#: take longer to build and turn into CNF than a minute's limit leaves to solve them).
ARGUED_CELL_VALUES = 30_000
#: The touch-free problems' hint to CNF translations (:attr:`Problem.pairwise_at_most
#: <dlxsat.xcc.model.Problem.pairwise_at_most>`): a link item has an option per value and
#: one more, a cell with holes seven, over the backends' threshold of six, and their "at most
#: one" written with a sequential counter's auxiliary variables cost CaDiCaL 3-15 x (the
#: narrow problem of ``25_15x15`` 32 s against 1.7 s, its rest 33 against 11-16 s).
PAIRWISE_AT_MOST = 32
#: The narrow problem's CaDiCaL options (:attr:`Problem.cadical_options
#: <dlxsat.xcc.model.Problem.cadical_options>`): no variable elimination. Its second solver
#: call, after the first answer's blocking clause (a literal per option), spent minutes in
#: CaDiCaL's elimination, where the call stopper is never asked: ``307_15x20`` 352 s at a
#: 60 s limit (18.7 s without elimination, unique), ``308_15x20`` over 190 s at 30 s. The
#: rest (one answer asked, no blocking clause) keeps it: without, 2-2.7 x slower.
NARROW_CADICAL = (("elim", 0),)


#: The longest flips kept out of the rest (module doc, step 6; :func:`flips`): reroutes of 2
#: steps (around a 2 x 2 block) and 3 (in a 2 x 3 block); 0 or 1: none. With them the rest
#: of ``300_15x15`` took 62,000 CaDiCaL conflicts (6 s) instead of 182,000 (30 s), of
#: ``179_15x15`` 141,000 instead of 453,000; 4 steps gained nothing more on ``300_15x15``.
FLIP_STEPS = 3

Cell = tuple[int, int]


def monotone_routes(p: Cell, q: Cell) -> list[tuple[Cell, ...]]:
    """The shortest routes from ``p`` to ``q`` in the grid: their cells between (monotone
    staircases in the rectangle of the two).

    >>> monotone_routes((0, 0), (1, 1))
    [((0, 1),), ((1, 0),)]
    """
    (i, j), (a, c) = p, q
    di, dj = (a > i) - (a < i), (c > j) - (c < j)
    out: list[tuple[Cell, ...]] = []

    def walk(at: Cell, path: tuple[Cell, ...]) -> None:
        if at == q:
            out.append(path[:-1])
            return
        if at[1] != c:
            nxt = (at[0], at[1] + dj)
            walk(nxt, (*path, nxt))
        if at[0] != a:
            nxt = (at[0] + di, at[1])
            walk(nxt, (*path, nxt))

    walk(p, ())
    return out


def flips(
    puzzle: NumberLinkPuzzle, longest: int
) -> list[tuple[tuple[Cell, ...], tuple[Cell, ...]]]:
    """The flips of 2 to ``longest`` steps (module doc, step 6): ``(route, other)``, a
    shortest route of the grid between two cells (its ends included) and the cells between of
    another, disjoint one, all of them empty cells of the puzzle, whose places in reading
    order sum to less than those between on ``route``.

    >>> flips(read("2 2\\n- -\\n- -\\n"), 2)
    [(((0, 0), (1, 0), (1, 1)), ((0, 1),)), (((0, 1), (1, 1), (1, 0)), ((0, 0),))]
    """
    m, n = puzzle.m, puzzle.n
    out = []
    offsets = [
        (di, dj)
        for di in range(0, longest + 1)
        for dj in range(-longest, longest + 1)
        if 2 <= abs(di) + abs(dj) <= longest and (di > 0 or dj > 0)
    ]
    for i in range(m):
        for j in range(n):
            for di, dj in offsets:
                a, c = i + di, j + dj
                if not (0 <= a < m and 0 <= c < n):
                    continue
                routes = [
                    r
                    for r in monotone_routes((i, j), (a, c))
                    if all(puzzle.clues[x][y] == BLANK for x, y in r)
                ]
                for r in routes:
                    for e in routes:
                        if set(r) & set(e):
                            continue
                        if sum(x * n + y for x, y in e) < sum(x * n + y for x, y in r):
                            out.append((((i, j), *r, (a, c)), e))
    return out


def touch_free(puzzle: NumberLinkPuzzle, holes: bool = False) -> Problem:
    """The touch-free answers that use every cell (module doc, step 5): the narrow problem;
    with ``holes``, those that leave a cell empty and keep the bridges (step 6): the rest.

    >>> from dlxsat.solvers import solve_problem
    >>> solve_problem(touch_free(read("1 3\\n1 - 1\\n")), "dlx").count
    1
    >>> solve_problem(touch_free(read("2 3\\n1 - 1\\n- - -\\n")), "dlx").count  # none fills
    0
    """
    m, n = puzzle.m, puzzle.n
    board = LoopBoard(m, n)
    color = colors(puzzle)
    runs = room_values(puzzle)
    given: dict[int, int] = {}
    for row in puzzle.clues:
        for v in row:
            if v != BLANK:
                given[v] = given.get(v, 0) + 1
    paired = {v for v, k in given.items() if k == 2}

    def may(i: int, j: int) -> set[int]:
        v = puzzle.clues[i][j]
        return runs[i][j] if v == BLANK else {v}

    b = Builder()
    for cell in board.vertices():
        b.item(cell)
    blank = [(i, j) for i in range(m) for j in range(n) if puzzle.clues[i][j] == BLANK]
    for i, j in blank:
        b.item("v" + board.cell(i, j))
    edges = board.all_edge_points()
    for x, y in edges:
        b.item("#" + board.name(x, y))
    if holes:
        b.item("holes", 1, max(1, len(blank)))
    joined: set[tuple[int, int]] = set()  # edges between two equal numbers given twice
    guards: dict[tuple[int, int], list[str]] = {}  # an edge's guard items, one per value
    guard_of: dict[tuple[tuple[int, int], int], str] = {}
    for x, y in edges:
        (a, c), (d, f) = edge_ends(x, y)
        shared = may(a // 2, c // 2) & may(d // 2, f // 2) & paired
        for v in sorted(shared, key=lambda v: color[v]):
            # A number is always of its value: it is not named, and lowers the bound instead
            # (at most 2 of 6 -- a number's four ends, a cell, the edge off -- is a counter
            # with aux variables in CNF; at most 1 of 2 is one clause). Two numbers: the edge
            # is on (its "off" option is left out).
            numbered = sum(puzzle.clues[p // 2][q // 2] != BLANK for p, q in edge_ends(x, y))
            if numbered == 2:
                joined.add((x, y))
                continue
            guard = f"t{board.name(x, y)}{color[v]}"
            guards.setdefault((x, y), []).append(guard)
            guard_of[((x, y), v)] = guard
            b.item(guard, 0, 2 - numbered)
    # With holes, the bridges (module doc, step 6): items named by an empty cell's "unused"
    # option, its neighbours' options of a value and an edge's "off" option.
    unused: dict[tuple[int, int], list[str]] = {}
    of_value: dict[tuple[tuple[int, int], int], list[str]] = {}
    off: dict[tuple[int, int], list[str]] = {}
    filled: set[tuple[int, int]] = set()  # empty cells a bridge keeps from staying empty
    if holes:
        for i, j in blank:
            near = [
                (a, c)
                for a, c in ((i - 1, j), (i, j + 1), (i + 1, j), (i, j - 1))
                if 0 <= a < m and 0 <= c < n
            ]
            for (a, c), (d, f) in combinations(near, 2):
                corner = (a + d - i, c + f - j) if a != d and c != f else None
                for v in sorted(may(a, c) & may(d, f) & paired, key=lambda v: color[v]):
                    bridge = f"b{board.cell(i, j)}{board.cell(a, c)}{board.cell(d, f)}{color[v]}"
                    names = 1  # the unused option
                    for side in ((a, c), (d, f)):
                        if puzzle.clues[side[0]][side[1]] == BLANK:
                            of_value.setdefault((side, v), []).append(bridge)
                            names += 1
                    if corner is not None and v in may(*corner):
                        e = (a + corner[0], c + corner[1])  # the edge from (a, c) to the corner
                        off.setdefault(e, []).append(bridge)
                        names += 1
                    if names == 1:  # the cell alone: it is never empty
                        filled.add((i, j))
                        continue
                    unused.setdefault((i, j), []).append(bridge)
                    b.item(bridge, 0, names - 1)
    # With holes, the flips (module doc, step 6): items named by the "unused" options of a
    # route's cells and the shape options of the cells a path passes along another route.
    turns: dict[tuple[Cell, frozenset[tuple[int, int]]], list[str]] = {}
    if holes:
        for route, empty in flips(puzzle, FLIP_STEPS):
            if any(spot in filled for spot in empty):
                continue
            name = "f" + "".join(board.cell(*spot) for spot in (*route, *empty))
            for spot in empty:
                unused.setdefault(spot, []).append(name)
            for k in range(1, len(route) - 1):  # each cell passed between its route neighbours
                spot, before, after = route[k], route[k - 1], route[k + 1]
                shape = frozenset(
                    (
                        (spot[0] + before[0], spot[1] + before[1]),
                        (spot[0] + after[0], spot[1] + after[1]),
                    )
                )
                turns.setdefault((spot, shape), []).append(name)
            b.item(name, 0, len(empty) + len(route) - 3)
    for i in range(m):
        for j in range(n):
            here = board.edge_points(i, j)
            if puzzle.clues[i][j] == BLANK:
                if holes and (i, j) not in filled:
                    extra = ["v" + board.cell(i, j), "holes", *unused.get((i, j), [])]
                    b.options += board.cell_options(i, j, (0,), extra)
                for on in board.shapes(i, j, (2,)):
                    b.options.append(
                        [
                            board.cell(i, j),
                            *board.edge_entries(i, j, on),
                            *turns.get(((i, j), frozenset(on)), []),
                        ]
                    )
                for v in sorted(may(i, j), key=lambda v: color[v]):
                    named = [guard_of[(e, v)] for e in here if (e, v) in guard_of]
                    named += of_value.get(((i, j), v), [])
                    b.options.append(
                        ["v" + board.cell(i, j), f"{color_item(board, i, j)}:{color[v]}", *named]
                    )
            else:
                b.options += [[board.cell(i, j), *board.edge_entries(i, j, [e])] for e in here]
    for x, y in edges:
        (a, c), (d, f) = edge_ends(x, y)
        pair = [(a // 2, c // 2), (d // 2, f // 2)]
        name = board.name(x, y)
        if (x, y) not in joined:
            b.options.append(
                ["#" + name, f"{name}:0", *guards.get((x, y), []), *off.get((x, y), [])]
            )
        numbers = {puzzle.clues[i][j] for i, j in pair} - {BLANK}
        if len(numbers) > 1:
            continue
        free = [(i, j) for i, j in pair if puzzle.clues[i][j] == BLANK]
        for v in color:
            if (numbers and v not in numbers) or any(v not in runs[i][j] for i, j in free):
                continue
            items = [f"{color_item(board, i, j)}:{color[v]}" for i, j in free]
            b.options.append(["#" + name, f"{name}:1", *items])
    b.secondary = [*board.all_edges(), *(color_item(board, i, j) for i, j in blank)]
    return replace(
        _acyclic(b.plain_problem(), board),
        pairwise_at_most=PAIRWISE_AT_MOST,
        cadical_options=() if holes else NARROW_CADICAL,
    )


def _acyclic(problem: Problem, board: LoopBoard) -> Problem:
    """``problem`` with the rule that the edges colored ``1`` make no cycle."""
    index = problem.index
    edges = board.all_edge_points()
    members = tuple((index[board.name(x, y)], "1") for x, y in edges)
    ends = tuple(edge_ends(x, y) for x, y in edges)
    number = {tile: k for k, tile in enumerate(sorted({t for pair in ends for t in pair}))}
    return problem.with_rules(
        Acyclic(members, tuple((number[u], number[v]) for u, v in ends), label="paths")
    )


def shortened(puzzle: NumberLinkPuzzle) -> tuple[Problem, Problem] | None:
    """The argument's two problems (module doc, steps 5-7): the touch-free answers using every
    cell, and those leaving one empty with no bridge (:func:`touch_free`); None for a board
    without empty cells (nothing to shorten) or one whose touch-free problem would be larger
    than :data:`ARGUED_CELL_VALUES` (empty cells times values)."""
    empty = sum(row.count(BLANK) for row in puzzle.clues)
    if not empty or empty * len(puzzle.values()) > ARGUED_CELL_VALUES:
        return None
    return touch_free(puzzle), touch_free(puzzle, holes=True)


def swept(puzzle: NumberLinkPuzzle, deadline: Any) -> tuple[int | None, dict[str, Any]]:
    """The family's count of answers (:class:`~dlxsat.families.spec.Counter`): a sweep of the
    board (:mod:`dlxsat.families.numberlink_sweep`), outside the exact problem; None when
    the board is too wide for it or its frontier outgrows memory (the figures say why under
    ``gave_up``, and the backend counts), or when ``deadline`` stops it (no ``gave_up``)."""
    from .numberlink_sweep import sweep

    if not puzzle.values():  # no number, no line: no answer (as :func:`build` says)
        return 0, {"seconds": 0.0, "peak_states": 0}
    try:
        done = sweep(puzzle.clues, puzzle.values(), deadline=deadline)
    except InputError as e:
        return None, {"gave_up": str(e)}
    figures: dict[str, Any] = {"seconds": done.seconds, "peak_states": done.peak}
    figures["kernel"] = "compiled" if done.compiled else "interpreted"
    if done.count is not None:
        figures["swept"] = done.orientation
    elif not done.timed_out:
        figures["gave_up"] = f"past {done.peak:,} states in every way round"
    return done.count, figures


# ---------------------------------------------------------------------------------------------
# The rules, judged on the answer


def check(puzzle: NumberLinkPuzzle, answer: Answer) -> list[str]:
    """The rules of NumberLink judged on ``answer``, in pzprjs's order: a line at all, no
    branch, no crossing, no path joining three numbers or different ones, none through a
    number, no dead end off a number, no line without a number, every number on a path.

    >>> p = read("2 2\\n1 -\\n- 1\\n")
    >>> check(p, {"edges": [[0, 1], [1, 2]]})
    []
    >>> check(p, {"edges": [[0, 1]]})
    ['cell (1, 2): the line ends here (a dead end)', 'the number 1 at (2, 2) is on no path']
    """
    m, n = puzzle.m, puzzle.n
    edges, problems = line_edges(m, n, answer)
    if problems:
        return problems
    if not edges:
        return ["there is no line on the board"]
    cells = [(i, j) for i in range(m) for j in range(n)]
    deg = {c: degree(edges, *c) for c in cells}
    given = {c: puzzle.clues[c[0]][c[1]] for c in cells if puzzle.clues[c[0]][c[1]] != BLANK}
    problems += [
        f"cell {cell_name(*c)}: the line branches (3 line segments)" for c in cells if deg[c] == 3
    ]
    problems += [f"cell {cell_name(*c)}: the line crosses itself" for c in cells if deg[c] == 4]
    paths = connected_pieces((e, *edge_ends(*e)) for e in sorted(edges))
    ends = []
    for path in paths:
        tiles = sorted({t for e in path for t in edge_ends(*e)})
        ends.append([(x // 2, y // 2) for x, y in tiles if (x // 2, y // 2) in given])

    def named(cs: list[tuple[int, int]]) -> str:
        return ", ".join(f"{number_token(given[c])} at {cell_name(*c)}" for c in cs)

    problems += [f"a path joins {len(cs)} numbers: {named(cs)}" for cs in ends if len(cs) > 2]
    problems += [
        f"a path joins different numbers: {named(cs)}"
        for cs in ends
        if len({given[c] for c in cs}) > 1
    ]
    problems += [
        f"the line passes through the number {number_token(v)} at {cell_name(*c)}"
        for c, v in given.items()
        if deg[c] >= 2
    ]
    problems += [
        f"cell {cell_name(*c)}: the line ends here (a dead end)"
        for c in cells
        if deg[c] == 1 and c not in given
    ]
    for path, cs in zip(paths, ends, strict=True):
        if not cs:
            x, y = min(t for e in path for t in edge_ends(*e))
            problems.append(f"the line through {cell_name(x // 2, y // 2)} joins no number")
    problems += [
        f"the number {number_token(v)} at {cell_name(*c)} is on no path"
        for c, v in given.items()
        if deg[c] == 0
    ]
    return problems


# ---------------------------------------------------------------------------------------------
# Text and pictures


def render(puzzle: NumberLinkPuzzle, answer: Answer | None = None) -> str:
    """The board in ASCII: numbers, ``?``, ``.`` empty cells, the paths between cells."""
    width = max([len(number_token(v)) for row in puzzle.clues for v in row] + [1])

    def glyph(i: int, j: int) -> str:
        v = puzzle.clues[i][j]
        return "." if v == BLANK else number_token(v)

    return render_line(puzzle.m, puzzle.n, answer, glyph, width)


def draw(canvas: Any, puzzle: NumberLinkPuzzle, answer: Answer | None) -> None:
    """The numbers in white circles over the paths through the cell centres."""
    canvas.grid(puzzle.m, puzzle.n)
    if answer:
        canvas.loop(answer.get("edges", []), 0.5)
    for i, row in enumerate(puzzle.clues):
        for j, v in enumerate(row):
            if v != BLANK:
                canvas.circle(i, j, black=False, z=2.5)
                canvas.text(i, j, number_token(v), scale=0.8 if len(number_token(v)) < 3 else 0.6)


# ---------------------------------------------------------------------------------------------
# puz.link and pzprv3


def read_url(text: str) -> NumberLinkPuzzle:
    """The puzzle of a puz.link ``numlin`` URL.

    >>> print(write(read_url("https://puzz.link/p?numlin/3/2/1h.1")), end="")
    2 3
    1 - -
    ? 1 -
    """
    flags, cols, rows, body = url_of(NAME, text)
    if flags:
        raise InputError(f"puz.link flags {flags!r}: a numlin URL has none")
    values, _ = decode_number16(body, rows * cols)
    clues = tuple(tuple(values[r * cols : (r + 1) * cols]) for r in range(rows))
    return NumberLinkPuzzle(rows, cols, clues)


def write_url(puzzle: NumberLinkPuzzle, answer: Answer | None = None) -> str:
    """The puz.link URL, as pzprjs writes it."""
    body = encode_number16([v for row in puzzle.clues for v in row])
    return make_url(TYPE, puzzle.n, puzzle.m, body)


def parse_pzprv3(text: str) -> tuple[NumberLinkPuzzle, Answer]:
    """The puzzle of a pzprv3 ``numlin`` file and the line drawn in it (a file that ends after
    its size is an empty board with nothing drawn)."""
    rows, cols, lines = read_pzprv3(text, NAME)
    if lines:
        clues = tuple(tuple(row) for row in read_numbers(lines, 0, rows, cols))
    else:
        clues = ((BLANK,) * cols,) * rows
    puzzle = NumberLinkPuzzle(rows, cols, clues)
    return puzzle, pzprv3_line_answer(lines, rows, rows, cols)


def write_pzprv3(puzzle: NumberLinkPuzzle, answer: Answer | None = None) -> str:
    """The pzprv3 file as pzprjs writes it, with the answer's line drawn."""
    return write_line_file(TYPE, puzzle.m, puzzle.n, number_rows(puzzle.clues), answer)


SPEC = FamilySpec(
    name=NAME,
    aliases=(TYPE,),
    summary="NumberLink: join equal numbers by paths through cell centres, no two in one cell",
    rules=("acyclic",),
    read=read,
    write=write,
    encode=encode,
    decode=decode,
    check=check,
    render=render,
    build=build,
    argument=Argument(shortened, "touch-free answers"),
    counter=Counter(swept, "sweep of the board"),
    bytes_per_cell=5000,
    formats=("knuth", "puzzlink", "pzprv3", "grid"),
    writes=("knuth", "puzzlink", "pzprv3", "grid"),
    answers=("pzprv3", "grid"),
    codecs={
        "puzzlink": Codec(read=read_url, write=write_url, names=(TYPE, NAME)),
        "pzprv3": pzprv3_codec(NAME, TYPE, parse_pzprv3, write_pzprv3, write),
        "grid": grid_codec(read, write),
    },
    picture=Picture(lambda p: (p.m, p.n), draw),
)
