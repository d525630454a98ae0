"""Loops and paths through cell centres: the part the loop genres share.

Most loop genres (Yajilin, Country Road, Moon or Sun, ... NumberLink's paths) draw their line
through the centres of the cells, as Masyu does, so they share Masyu's names
(docs/conventions.md §4): cell (i, j) is the tile (2i, 2j), a vertex item; the edge between two
neighbouring cells is named by their midpoint, a secondary item colored ``1`` (on the line) or
``0``. Each cell gets options that say which of its edges are on -- none, or two (a loop), one
(a path's end), four (a crossing) -- so that the exact-cover problem makes every cell's degree
right, and the global rule (the single loop: ``|@loop``; or paths without a cycle) does the
rest. This module writes those items and options, reads an answer back, judges a line's
degrees and pieces, and reads and writes the line in the corpus's notation and in pzprv3
files. A genre adds its clues.

An answer is ``{"edges": [[x, y], ...]}`` (midpoints, doubled coordinates, sorted), with
``"shaded": [[i, j], ...]`` for genres that shade cells (Yajilin's ``x``).

>>> board = LoopBoard(2, 2)
>>> board.edges_of(0, 0), board.cell_options(0, 0, degrees=(0, 2))
(['01', '10'], [['00', '01:0', '10:0'], ['00', '01:1', '10:1']])
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import combinations
from typing import Any

from ..errors import InputError
from ..xcc.loop import ON, connected_pieces, edge_ends
from ..xcc.model import Item, Problem
from .grid import needs_wide_names, point_name
from .spec import Codec

Answer = dict[str, Any]
#: A cell's sides: its letter in the corpus's notation and the step to the neighbour.
SIDES = (("n", -1, 0), ("s", 1, 0), ("e", 0, 1), ("w", 0, -1))


class LoopBoard:
    """The items of a line through the centres of an ``m`` x ``n`` board's cells.

    ``name(x, y)`` is the item name of a doubled-grid point (base-62 digits, or decimal with a
    dot past Knuth's limits, as the Masyu family names them).
    """

    def __init__(self, m: int, n: int) -> None:
        self.m, self.n = m, n
        self.wide = needs_wide_names(2 * max(m, n))
        self._names: dict[tuple[int, int], str] = {}
        # each ray's entries "on" and "off", made once: clue genres ask for every arm length
        self._rays: dict[tuple[int, int, int, int], tuple[list[str], list[str]]] = {}
        # (and each cell's edges with their entries "on" and "off": see edge_tokens)
        self._cells: dict[tuple[int, int], list[tuple[tuple[int, int], str, str, str]]] = {}

    def name(self, x: int, y: int) -> str:
        key = (x, y)
        found = self._names.get(key)
        if found is None:
            found = self._names[key] = point_name(x, y, self.wide)
        return found

    def cell(self, i: int, j: int) -> str:
        """The vertex item of cell (i, j)."""
        return self.name(2 * i, 2 * j)

    def edge_points(self, i: int, j: int) -> list[tuple[int, int]]:
        """The edges of cell (i, j) inside the board, in Knuth's order: N, W, E, S."""
        out = []
        for di, dj in ((-1, 0), (0, -1), (0, 1), (1, 0)):
            if 0 <= i + di < self.m and 0 <= j + dj < self.n:
                out.append((2 * i + di, 2 * j + dj))
        return out

    def edges_of(self, i: int, j: int) -> list[str]:
        """The edge items of cell (i, j) (:meth:`edge_points`' names)."""
        return [self.name(x, y) for x, y in self.edge_points(i, j)]

    def vertices(self) -> list[str]:
        """Every cell's vertex item, row by row."""
        return [self.cell(i, j) for i in range(self.m) for j in range(self.n)]

    def all_edges(self) -> list[str]:
        """Every edge item, in the order of their points (row, then column)."""
        return [self.name(x, y) for x, y in self.all_edge_points()]

    def all_edge_points(self) -> list[tuple[int, int]]:
        """Every edge's point, row by row (:meth:`all_edges`' order)."""
        return [(x, y) for x in range(2 * self.m - 1) for y in range(2 * self.n - 1) if (x + y) & 1]

    def cell_options(
        self, i: int, j: int, degrees: Iterable[int] = (0, 2), extra: Sequence[str] = ()
    ) -> list[list[str]]:
        """The options of cell (i, j): one per set of its edges on the line whose size is in
        ``degrees``, each naming every edge of the cell colored ``1`` or ``0``; ``extra``
        entries are added to each (a clue's item, a colored cell item).
        """
        return [
            [self.cell(i, j), *self.edge_entries(i, j, on), *extra]
            for on in self.shapes(i, j, degrees)
        ]

    def shapes(self, i: int, j: int, degrees: Iterable[int] = (0, 2)) -> list[set[tuple[int, int]]]:
        """The ways the line can be at cell (i, j): the sets of its edges (points) on the line
        whose size is in ``degrees``, in :meth:`cell_options`' order.

        >>> LoopBoard(2, 2).shapes(0, 0)
        [set(), {(0, 1), (1, 0)}]
        """
        edges = self.edge_points(i, j)
        return [
            {edges[k] for k in on}
            for d in sorted(set(degrees))
            for on in combinations(range(len(edges)), d)
        ]

    def edge_tokens(self, i: int, j: int) -> list[tuple[tuple[int, int], str, str, str]]:
        """The edges of cell (i, j) (:meth:`edge_points`' order), each as (its point, its item
        name, its entries ``1`` and ``0``), made once a cell: a genre's builder asks for them
        at every shape.

        >>> LoopBoard(1, 2).edge_tokens(0, 0)
        [((0, 1), '01', '01:1', '01:0')]
        """
        edges = self._cells.get((i, j))
        if edges is None:
            names = [(e, self.name(*e)) for e in self.edge_points(i, j)]
            edges = self._cells[(i, j)] = [(e, x, f"{x}:{ON}", f"{x}:0") for e, x in names]
        return edges

    def edge_entries(self, i: int, j: int, on: Iterable[tuple[int, int]]) -> list[str]:
        """Every edge of cell (i, j) colored ``1`` if it is ``on``, else ``0``."""
        on = set(on)
        return [one if e in on else zero for e, _, one, zero in self.edge_tokens(i, j)]

    def ray(self, i: int, j: int, di: int, dj: int) -> list[tuple[int, int]]:
        """The edges (points) met going straight from cell (i, j) by steps ``(di, dj)`` to the
        side of the board, the nearest first.

        >>> LoopBoard(3, 3).ray(0, 1, 1, 0)
        [(1, 2), (3, 2)]
        """
        return ray(self.m, self.n, i, j, di, dj)

    def arm(self, i: int, j: int, di: int, dj: int, k: int) -> list[str] | None:
        """The entries saying that the line runs exactly ``k`` edges straight from cell (i, j)
        by steps ``(di, dj)``: those edges ``1`` and the next one (where the board goes on)
        ``0``, the line turning there; None if the board ends sooner.

        >>> LoopBoard(3, 3).arm(0, 0, 0, 1, 1), LoopBoard(3, 3).arm(0, 0, 0, 1, 3)
        (['01:1', '03:0'], None)
        """
        key = (i, j, di, dj)
        tokens = self._rays.get(key)
        if tokens is None:
            names = [self.name(*e) for e in self.ray(i, j, di, dj)]
            tokens = self._rays[key] = ([f"{x}:{ON}" for x in names], [f"{x}:0" for x in names])
        ones, zeros = tokens
        if k > len(ones):
            return None
        return ones[:k] + zeros[k : k + 1]


def ray(m: int, n: int, i: int, j: int, di: int, dj: int) -> list[tuple[int, int]]:
    """The edges (points) between cells met going straight from cell (i, j) of an ``m`` x
    ``n`` board by steps ``(di, dj)`` to its side, the nearest first.

    >>> ray(3, 3, 2, 2, 0, -1)
    [(4, 3), (4, 1)]
    """
    out = []
    while 0 <= i + di < m and 0 <= j + dj < n:
        out.append((2 * i + di, 2 * j + dj))
        i, j = i + di, j + dj
    return out


def arm_length(
    m: int, n: int, edges: set[tuple[int, int]], i: int, j: int, di: int, dj: int
) -> int:
    """How far the line of ``edges`` runs straight from cell (i, j) by steps ``(di, dj)``:
    the number of consecutive edges on it (0: it does not leave the cell that way).

    >>> arm_length(3, 3, {(0, 1), (0, 3)}, 0, 0, 0, 1), arm_length(3, 3, {(0, 3)}, 0, 0, 0, 1)
    (2, 0)
    """
    k = 0
    for e in ray(m, n, i, j, di, dj):
        if e not in edges:
            break
        k += 1
    return k


def named_problem(
    primary: Sequence[Item], secondary: Sequence[str], options: Iterable[Sequence[str]]
) -> Problem:
    """The exact-cover problem of named items and options (entries ``name`` or
    ``name:color``), without a global rule. Options that name no primary item are left out,
    as the DLX reader leaves them out.

    >>> p = named_problem([Item("a")], ["x"], [["a", "x:1"], ["x:0"]])
    >>> p.option_names(0), len(p.options), p.rules
    (['a', 'x:1'], 1, ())
    """
    items = [*primary, *(Item(name, primary=False) for name in secondary)]
    index = {it.name: k for k, it in enumerate(items)}
    n_primary = len(primary)
    # A genre's options are made of a few thousand tokens, each seen many times: one look-up
    # each once seen (the first entry is most often the option's primary item).
    known: dict[str, tuple[int, str | None]] = {}

    def entry(token: str) -> tuple[int, str | None]:
        name, _, color = token.partition(":")
        found = known[token] = (index[name], color or None)
        return found

    get = known.get
    out = []
    for opt in options:
        entries = tuple([get(token) or entry(token) for token in opt])
        if entries and (entries[0][0] < n_primary or any(k < n_primary for k, _ in entries)):
            out.append(entries)
    return Problem(items, out)


def loop_problem(
    primary: Sequence[Item], secondary: Sequence[str], options: Iterable[Sequence[str]]
) -> Problem:
    """:func:`named_problem` with the single-loop rule over the items named as vertices and
    edges (:meth:`SingleLoop.from_names <dlxsat.xcc.rules.SingleLoop.from_names>`): what a loop
    genre's ``build`` returns, and its ``encode`` writes (:func:`loop_text`).

    >>> p = loop_problem([Item("00"), Item("02")], ["01"], [["00", "01:1"], ["02", "01:1"]])
    >>> p.option_names(1), p.rules[0].kind
    (['02', '01:1'], 'loop')
    """
    from ..xcc.rules import SingleLoop

    problem = named_problem(primary, secondary, options)
    return problem.with_rules(SingleLoop.from_names(problem))


def loop_text(heading: Sequence[str], problem: Problem) -> str:
    """A loop genre's exact-cover data: comment lines (``| `` and each of ``heading``, the
    genre's name and its board), then ``problem`` in Knuth's format with its ``|@loop`` line."""
    from ..xcc.dlxformat import write

    return "".join(f"| {line}\n" for line in heading) + write(problem)


def edges_on(problem: Any, chosen: Iterable[int]) -> list[tuple[int, int]]:
    """The midpoints of the edges the chosen options color ``1``, sorted (an edge item is a
    secondary item named by a point of odd coordinate sum)."""
    from ..xcc.loop import used_edges

    return used_edges(problem, chosen)


def line_answer(edges: Iterable[Sequence[int]], shaded: Iterable[Sequence[int]] = ()) -> Answer:
    """The answer of a line (and shaded cells, if any), sorted."""
    out: Answer = {"edges": sorted([int(x), int(y)] for x, y in edges)}
    shaded = sorted([int(i), int(j)] for i, j in shaded)
    if shaded:
        out["shaded"] = shaded
    return out


def cell_name(i: int, j: int) -> str:
    """Cell (i, j) as people read it: 1-based ``(row, column)``."""
    return f"({i + 1}, {j + 1})"


def line_edges(m: int, n: int, answer: Answer) -> tuple[set[tuple[int, int]], list[str]]:
    """The answer's edges that join two cells of an ``m`` x ``n`` board, and complaints about
    everything else in its ``edges``."""
    problems: list[str] = []
    edges: set[tuple[int, int]] = set()
    raw = answer.get("edges") if isinstance(answer, dict) else None
    if not isinstance(raw, list):
        return edges, ['the answer has no list of "edges"']
    for item in raw:
        ok = isinstance(item, (list, tuple)) and len(item) == 2
        if not ok or not all(isinstance(v, int) and not isinstance(v, bool) for v in item):
            problems.append(f"{item!r} is not an edge [row, column]")
            continue
        x, y = item
        if not (x + y) & 1 or not (0 <= x <= 2 * m - 2 and 0 <= y <= 2 * n - 2):
            problems.append(f"[{x}, {y}] is not an edge between two cells of the board")
        elif (x, y) in edges:
            problems.append(f"edge [{x}, {y}] is listed twice")
        else:
            edges.add((x, y))
    return edges, problems


def degree(edges: set[tuple[int, int]], i: int, j: int) -> int:
    """How many of ``edges`` touch cell (i, j)."""
    x, y = 2 * i, 2 * j
    return sum((x + dx, y + dy) in edges for dx, dy in ((-1, 0), (1, 0), (0, -1), (0, 1)))


def degree_problems(
    m: int, n: int, edges: set[tuple[int, int]], bad: Iterable[int], crossings: bool = False
) -> list[str]:
    """The cells where ``edges`` meet in a number of line segments in ``bad``, a line each as
    :func:`loop_problems` says it: a genre's checker asks for branches (3) and crossings (4)
    and for dead ends (1) at the places of its rules that pzprjs gives them.

    >>> degree_problems(2, 2, {(0, 1)}, (1,))[0]
    'cell (1, 1) has 1 line segment (the loop needs 0 or 2)'
    """
    bad = set(bad)
    need = "0, 2 or 4" if crossings else "0 or 2"
    out = []
    for i in range(m):
        for j in range(n):
            d = degree(edges, i, j)
            if d in bad:
                s = "" if d == 1 else "s"
                out.append(
                    f"cell {cell_name(i, j)} has {d} line segment{s} (the loop needs {need})"
                )
    return out


def pieces_problem(edges: set[tuple[int, int]]) -> list[str]:
    """[] when ``edges`` are connected, else the line saying how many loops they make.

    >>> pieces_problem({(0, 1), (4, 1)})
    ['the line forms 2 separate loops, not one']
    """
    pieces = connected_pieces((e, *edge_ends(*e)) for e in edges)
    if len(pieces) > 1:
        return [f"the line forms {len(pieces)} separate loops, not one"]
    return []


def strands(edges: Iterable[Sequence[int]]) -> list[list[tuple[int, int]]]:
    """The pieces of a line through cell centres that may cross itself (Pipelink): where four
    segments meet at a cell the line goes straight through it both ways, so its vertical and
    horizontal strands there are not joined; at any other cell all its segments are. Each
    piece is its edges (midpoints), sorted; the pieces in the order of their least edges.

    Two rings that cross each other at four cells are two loops, though their edges touch:

    >>> v = [(1, 2), (3, 2), (5, 2), (1, 4), (3, 4), (5, 4), (0, 3), (6, 3)]
    >>> h = [(2, 1), (2, 3), (2, 5), (4, 1), (4, 3), (4, 5), (3, 0), (3, 6)]
    >>> len(strands(v + h)), len(connected_pieces((e, *edge_ends(*e)) for e in v + h))
    (2, 1)
    """
    on = sorted({(int(x), int(y)) for x, y in edges})
    parent = {e: e for e in on}

    def find(e: tuple[int, int]) -> tuple[int, int]:
        while parent[e] != e:
            parent[e] = parent[parent[e]]
            e = parent[e]
        return e

    def join(a: tuple[int, int], b: tuple[int, int]) -> None:
        parent[find(a)] = find(b)

    at: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for e in on:
        for tile in edge_ends(*e):
            at.setdefault(tile, []).append(e)
    for (x, y), mine in at.items():
        if len(mine) == 4:  # a crossing: north with south, west with east
            join((x - 1, y), (x + 1, y))
            join((x, y - 1), (x, y + 1))
        else:
            for e in mine[1:]:
                join(mine[0], e)
    groups: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for e in on:
        groups.setdefault(find(e), []).append(e)
    return sorted(groups.values())


def loop_problems(
    m: int, n: int, edges: set[tuple[int, int]], crossings: bool = False
) -> list[str]:
    """What keeps ``edges`` from being one loop through cell centres: a cell with 1 or 3
    edges (with ``crossings``, 4 is a crossing, which joins no strands: Pipelink), or several
    loops; [] when none (the empty set is no loop).

    >>> loop_problems(2, 2, {(0, 1), (1, 0), (1, 2), (2, 1)})
    []
    >>> loop_problems(2, 2, {(0, 1)})[0]
    'cell (1, 1) has 1 line segment (the loop needs 0 or 2)'
    """
    bad = (1, 3) if crossings else (1, 3, 4)
    problems = degree_problems(m, n, edges, bad, crossings)
    if problems:
        return problems
    if not edges:
        return ["there is no loop"]
    if crossings:  # two loops that only cross are two (:func:`strands`)
        pieces = strands(edges)
        if len(pieces) > 1:
            return [f"the line forms {len(pieces)} separate loops, not one"]
        return []
    return pieces_problem(edges)


# ---------------------------------------------------------------------------------------------
# The corpus's notation of a line through cells (SmilingWayne/puzzlekit-dataset's answers):
# a cell on the line is the sides it leaves by, in the order n, s, e, w (``ns``, ``ew``, ``ne``,
# ``nw``, ``se``, ``sw``; ``nsew`` a crossing; one letter a path's end), ``-`` a cell off it,
# and, where a genre shades cells, ``x`` a shaded one.


def read_grid(text: str, blocks: int = 1) -> tuple[int, int, list[list[list[str]]]]:
    """The corpus's problem notation of a genre: a line ``ROWS COLS``, then ``blocks`` grids of
    ROWS lines of COLS tokens separated by spaces (a clue grid, then for the genres with regions
    a grid of region names); blank lines are skipped. An :class:`InputError` names the line of
    anything else.

    >>> read_grid("2 2\\n- 3\\n1 -\\n")
    (2, 2, [[['-', '3'], ['1', '-']]])
    >>> read_grid("00 1\\n")  # (a size of 0 rows, however written)
    Traceback (most recent call last):
    dlxsat.errors.InputError: line 1: the grid begins with its size 'ROWS COLS', not ['00', '1']
    """
    numbered = [(k, line.split()) for k, line in enumerate(text.split("\n"), 1) if line.strip()]
    if not numbered:
        raise InputError("empty puzzle: no 'ROWS COLS' line")
    k, head = numbered[0]
    if len(head) != 2 or not all(t.isdigit() and int(t) > 0 for t in head):
        raise InputError(f"line {k}: the grid begins with its size 'ROWS COLS', not {head!r}")
    m, n = int(head[0]), int(head[1])
    body = numbered[1:]
    if len(body) != blocks * m:
        want = f"{blocks} x {m}" if blocks > 1 else str(m)
        raise InputError(f"the grid has {len(body)} rows after its size line, not {want}")
    for k, row in body:
        if len(row) != n:
            raise InputError(f"line {k}: {len(row)} cells, but the grid is {n} wide")
    rows = [row for _, row in body]
    return m, n, [rows[b * m : (b + 1) * m] for b in range(blocks)]


def write_grid(m: int, n: int, *grids: Sequence[Sequence[object]]) -> str:
    """:func:`read_grid`'s text: the size line, then each grid's rows of tokens.

    >>> print(write_grid(1, 2, [["-", 3]]), end="")
    1 2
    - 3
    """
    lines = [f"{m} {n}"] + [" ".join(str(t) for t in row) for grid in grids for row in grid]
    return "\n".join(lines) + "\n"


def read_mark_grid(text: str, tokens: str, allowed: str) -> tuple[list[list[int]], list[list[str]]]:
    """The corpus's notation of a genre of marks in regions (Dotchi Loop, Moon or Sun):
    ``ROWS COLS``, a grid of marks, each one character of ``tokens`` (the mark is its index),
    then a grid of region labels. ``allowed`` names the marks in errors.

    >>> read_mark_grid("1 2\\nw -\\na b\\n", "-wb", "-, w or b")
    ([[1, 0]], [['a', 'b']])
    """
    _, _, (rows, labels) = read_grid(text, 2)
    marks = []
    for i, row in enumerate(rows):
        for j, tok in enumerate(row):
            if tok not in tokens or len(tok) != 1:
                raise InputError(f"row {i + 1}, cell {j + 1}: {tok!r} is not {allowed}")
        marks.append([tokens.index(tok) for tok in row])
    return marks, labels


def read_number_grid(text: str) -> tuple[int, int, tuple[tuple[int, ...], ...]]:
    """A clue grid of numbers in the corpus's notation (:func:`read_grid`): ``-`` no clue
    (:data:`~dlxsat.families.codecs.BLANK`), ``?`` a number not given
    (:data:`~dlxsat.families.codecs.QUESTION`), else a number. Geradeweg, NumberLink.

    >>> read_number_grid("2 3\\n2 - ?\\n- - -\\n")
    (2, 3, ((2, -1, -2), (-1, -1, -1)))
    """
    from .codecs import BLANK, QUESTION

    m, n, (rows,) = read_grid(text)
    clues = []
    for i, row in enumerate(rows):
        out = []
        for j, tok in enumerate(row):
            if tok == "-":
                out.append(BLANK)
            elif tok == "?":
                out.append(QUESTION)
            elif tok.isdigit() and tok.isascii():
                out.append(int(tok))
            else:
                raise InputError(f"row {i + 1}, cell {j + 1}: {tok!r} is not -, ? or a number")
        clues.append(tuple(out))
    return m, n, tuple(clues)


def write_number_grid(m: int, n: int, clues: Sequence[Sequence[int]]) -> str:
    """:func:`read_number_grid`'s text.

    >>> print(write_number_grid(1, 3, [[2, -1, -2]]), end="")
    1 3
    2 - ?
    """
    return write_grid(m, n, [[number_token(v) for v in row] for row in clues])


def number_token(v: int) -> str:
    """A clue's token in the corpus's notation: ``-`` none, ``?`` a number not given."""
    from .codecs import BLANK, QUESTION

    return "-" if v == BLANK else "?" if v == QUESTION else str(v)


#: The key of an answer read from a grid whose cells contradict each other: why
#: (``dlxsat check`` reports it as the rule broken).
DISAGREE = "disagree"


def read_segments(rows: Sequence[Sequence[str]], m: int, n: int, shade: str = "x") -> Answer:
    """The answer of a grid of the corpus's line tokens (``m`` rows of ``n``); an
    :class:`InputError` for a token that is none. An edge only one of its two cells names makes
    the answer contradict itself (its :data:`DISAGREE` says where), and an edge leaving the
    board is kept for the rule checker to refuse.

    >>> read_segments([["se", "sw"], ["ne", "nw"]], 2, 2)
    {'edges': [[0, 1], [1, 0], [1, 2], [2, 1]]}
    """
    said: dict[tuple[int, int], int] = {}
    shaded = []
    for i, row in enumerate(rows):
        for j, tok in enumerate(row):
            if tok == "-":
                continue
            if tok == shade:
                shaded.append((i, j))
                continue
            if not set(tok) <= set("nsew") or len(set(tok)) != len(tok):
                raise InputError(f"row {i + 1}, cell {j + 1}: {tok!r} is not - or sides nsew")
            for side, di, dj in SIDES:
                if side in tok:
                    edge = (2 * i + di, 2 * j + dj)
                    said[edge] = said.get(edge, 0) + 1
    out = line_answer(said, shaded)
    half = [
        e
        for e, k in sorted(said.items())
        if k == 1 and 0 <= e[0] <= 2 * m - 2 and 0 <= e[1] <= 2 * n - 2
    ]
    if half:
        (a, b), (c, d) = edge_ends(*half[0])
        out[DISAGREE] = [
            f"cells {cell_name(a // 2, b // 2)} and {cell_name(c // 2, d // 2)} disagree: one "
            "says the line joins them, the other does not"
        ]
    return out


def write_segments(m: int, n: int, answer: Answer, shade: str = "x") -> list[list[str]]:
    """The corpus's tokens of an answer's line (and shaded cells), row by row."""
    edges = {tuple(e) for e in answer.get("edges", [])}
    shaded = {tuple(c) for c in answer.get("shaded", [])}
    out = []
    for i in range(m):
        row = []
        for j in range(n):
            sides = "".join(s for s, di, dj in SIDES if (2 * i + di, 2 * j + dj) in edges)
            row.append(shade if (i, j) in shaded else sides or "-")
        out.append(row)
    return out


# ---------------------------------------------------------------------------------------------
# pzprv3 files: a line through cells is two blocks, the segments between horizontal neighbours
# (``m`` lines of ``n - 1`` values) then between vertical ones (``m - 1`` lines of ``n``); 1 is
# a segment, 0 or -1 (a cross the player put) none.


def read_pzprv3_lines(
    across: Sequence[Sequence[str]], down: Sequence[Sequence[str]]
) -> set[tuple[int, int]]:
    """The edges drawn in a pzprv3 file's two line blocks."""
    edges = {
        (2 * i, 2 * j + 1) for i, row in enumerate(across) for j, v in enumerate(row) if v == "1"
    }
    edges |= {
        (2 * i + 1, 2 * j) for i, row in enumerate(down) for j, v in enumerate(row) if v == "1"
    }
    return edges


def pzprv3_line_answer(lines: Sequence[str], start: int, m: int, n: int) -> Answer:
    """The answer drawn in the two line blocks of a pzprv3 file at ``lines[start:]`` (an
    ``m`` x ``n`` board): pzprjs's board as the player left it, so nothing drawn is an answer
    too (with no line), as is a file that ends before its line blocks (pzprjs reads it so).

    >>> pzprv3_line_answer(["1 ", "0 ", "0 0 "], 0, 2, 2), pzprv3_line_answer([], 0, 2, 2)
    ({'edges': [[0, 1]]}, {'edges': []})
    """
    from .codecs import block

    if len(lines) <= start:
        return line_answer(())
    across = block(lines, start, m, n - 1, "lines between columns")
    down = block(lines, start + m, m - 1, n, "lines between rows")
    return line_answer(read_pzprv3_lines(across, down))


def read_country_pzprv3(text: str, family: str) -> tuple[list[list[int]], list[list[str]], Answer]:
    """A pzprv3 file of pzprjs's ``country.js`` loop genres without a flags line (Moon or Sun,
    Dotchi Loop, Double Back, Detour): the regions (numbered from 1 in pzprjs's order, from
    walls in ``pzprv3.2`` files or room numbers in older ones:
    :func:`~dlxsat.families.codecs.read_pzprv3_regions`), the cell block's tokens, and the
    line drawn (:func:`pzprv3_line_answer`); the block of the player's marks that ends the file
    is not read.

    >>> regions, cells, answer = read_country_pzprv3(
    ...     "pzprv3/dotchi/1/2/2/0 1 /1 . /0 /", "dotchi-loop")
    >>> regions, cells, answer
    ([[1, 2]], [['1', '.']], {'edges': []})
    """
    from .codecs import block, pzprv3_version, read_pzprv3, read_pzprv3_regions

    m, n, lines = read_pzprv3(text, family)
    regions, at = read_pzprv3_regions(pzprv3_version(text), lines, 0, m, n)
    cells = block(lines, at, m, n, "cells")
    return regions, cells, pzprv3_line_answer(lines, at + m, m, n)


def write_country_pzprv3(
    pid: str,
    regions: Sequence[Sequence[int]],
    cells: Sequence[Sequence[object]],
    answer: Answer | None,
) -> str:
    """The ``pzprv3.2`` file pzprjs writes for a ``country.js`` loop genre: walls, the cell
    block, the line (``answer``'s, if any) and an empty block of the player's marks."""
    from .codecs import write_block, write_pzprv3_walls

    m, n = len(regions), len(regions[0])
    lines = ["pzprv3.2", pid, str(m), str(n), *write_pzprv3_walls(regions)]
    lines += write_block(cells)
    lines += write_block(write_pzprv3_lines(m, n, (answer or {}).get("edges", [])))
    lines += write_block([[0] * n for _ in range(m)])
    return "\n".join(lines) + "\n"


def write_line_file(
    pid: str,
    m: int,
    n: int,
    cells: Sequence[Sequence[object]],
    answer: Answer | None,
    head: Sequence[str] = (),
) -> str:
    """A pzprv3 file of a line genre as pzprjs writes it: the header (``pid``, the size), the
    ``head`` lines (a genre's settings), the ``cells`` block, then the answer's line in the two
    line blocks (:func:`write_pzprv3_lines`).

    >>> write_line_file("geradeweg", 1, 2, [[".", "1"]], {"edges": [[0, 1]]}).split("\\n")
    ['pzprv3', 'geradeweg', '1', '2', '. 1 ', '1 ', '']
    """
    from .codecs import write_block

    lines = ["pzprv3", pid, str(m), str(n), *head, *write_block(cells)]
    lines += write_block(write_pzprv3_lines(m, n, (answer or {}).get("edges", [])))
    return "\n".join(lines) + "\n"


def write_pzprv3_lines(m: int, n: int, edges: Iterable[Sequence[int]]) -> list[list[int]]:
    """The two line blocks of a pzprv3 file (across, then down) for ``edges``, as one list of
    rows: ``m`` rows of ``n - 1`` values, then ``m - 1`` rows of ``n``."""
    on = {tuple(e) for e in edges}
    across = [[int((2 * i, 2 * j + 1) in on) for j in range(n - 1)] for i in range(m)]
    down = [[int((2 * i + 1, 2 * j) in on) for j in range(n)] for i in range(m - 1)]
    return across + down


# ---------------------------------------------------------------------------------------------
# A genre's formats: the corpus's grids and pzprv3 files, as codecs of its spec


def grid_codec(read: Callable[[str], Any], write: Callable[[Any], str], shade: str = "x") -> Codec:
    """The ``grid`` codec of a genre whose own text form is the corpus's problem notation
    (``read``/``write``, a puzzle with ``m`` rows and ``n`` columns): with an answer, the
    corpus's answer grid is written and read (:func:`write_answer_grid`,
    :func:`read_answer_grid`; ``shade`` the token of a shaded cell, ``""`` for genres
    without)."""

    def write_with(puzzle: Any, answer: Answer | None) -> str:
        if answer is None:
            return write(puzzle)
        return write_answer_grid(puzzle.m, puzzle.n, answer, shade)

    def answer(puzzle: Any, text: str) -> Answer:
        return read_answer_grid(text, puzzle.m, puzzle.n, shade)

    return Codec(read=read, write=write_with, answer=answer)


def pzprv3_codec(
    family: str,
    pid: str,
    parse: Callable[[str], tuple[Any, Answer]],
    write: Callable[[Any, Answer | None], str],
    same: Callable[[Any], str],
) -> Codec:
    """The ``pzprv3`` codec of a genre from ``parse`` (a file's text to its puzzle and the
    line drawn: :func:`pzprv3_line_answer`) and ``write`` (the file, with the answer's line when
    one is given); an answer's file must hold the puzzle given, as ``same`` writes it."""

    def answer(puzzle: Any, text: str) -> Answer:
        held, drawn = parse(text)
        if puzzle is not None and same(held) != same(puzzle):
            raise InputError(f"the pzprv3 file holds another {family} than the puzzle given")
        return drawn

    return Codec(read=lambda text: parse(text)[0], write=write, answer=answer, names=(pid,))


# ---------------------------------------------------------------------------------------------
# Text and pictures


def render_line(
    m: int, n: int, answer: Answer | None, glyph: Any = lambda i, j: ".", width: int = 1
) -> str:
    """The board in ASCII: ``glyph(i, j)`` for each cell (``width`` characters: a clue of
    several, such as Yajilin's ``2>``, widens every cell), ``---`` and ``|`` for the line
    between cells, ``#`` for a shaded cell.

    >>> print(render_line(2, 2, {"edges": [[0, 1], [1, 0], [1, 2], [2, 1]]}))
    .---.
    |   |
    .---.
    >>> print(render_line(1, 2, {"edges": [[0, 1]]}, lambda i, j: "3x" if j else ".", 2))
    .----3x
    """
    edges = {tuple(e) for e in (answer or {}).get("edges", [])}
    shaded = {tuple(c) for c in (answer or {}).get("shaded", [])}
    lines = []
    for i in range(m):
        if i:
            lines.append(
                "   ".join(
                    ("|" if (2 * i - 1, 2 * j) in edges else " ").ljust(width) for j in range(n)
                )
            )
        parts = []
        for j in range(n):
            if j:
                parts.append("---" if (2 * i, 2 * j - 1) in edges else "   ")
            right = "-" if (2 * i, 2 * j + 1) in edges else " "
            parts.append(("#" if (i, j) in shaded else glyph(i, j)).ljust(width, right))
        lines.append("".join(parts))
    return "\n".join(line.rstrip() for line in lines)


def draw_line(canvas: Any, m: int, n: int, answer: Answer | None) -> None:
    """The grid, the answer's shaded cells and its line through the cell centres."""
    canvas.grid(m, n)
    if answer:
        for i, j in answer.get("shaded", []):
            canvas.shade(i, j)
        canvas.loop(answer.get("edges", []), 0.5)


# ---------------------------------------------------------------------------------------------
# Shade or loop: the genres where every open cell is either shaded or on the loop, and no two
# shaded cells touch (Yajilin, Regional Yajilin, Koburin). A cell's options are the loop's ways
# through it and one more, "shaded"; the shaded option also covers, once each, a secondary item
# per pair of open neighbours (so two shaded neighbours would cover it twice) and the items of
# the clues that count it (primary items with the clue's number as their multiplicity).


def pair_name(board: LoopBoard, x: int, y: int) -> str:
    """The item of the pair of cells either side of edge (x, y): at most one of them shaded.
    It is the edge's name behind an ``x`` (the corpus's mark of a shaded cell), so that it is
    no point name and the loop rule leaves it alone.

    >>> pair_name(LoopBoard(2, 2), 0, 1), pair_name(LoopBoard(40, 2), 41, 2)
    ('x01', 'x41.2')
    """
    return "x" + board.name(x, y)


def shaded_board(m: int, n: int) -> LoopBoard:
    """The :class:`LoopBoard` of an ``m`` x ``n`` shade-or-loop board; an :class:`InputError`
    when its longest item name (a pair item, or a clue item (2i+1, 2j+1) in the far corner)
    would pass Knuth's limit of 8 characters.

    >>> shaded_board(99, 99).wide
    True
    >>> shaded_board(600, 600)
    Traceback (most recent call last):
    ...
    dlxsat.errors.InputError: a 600x600 board is too large: its item names would pass 8 characters
    """
    from ..xcc.dlxformat import MAX_NAME

    board = LoopBoard(m, n)
    names = [board.name(2 * m - 1, 2 * n - 1)]
    if n > 1:
        names.append(pair_name(board, 2 * m - 2, 2 * n - 3))
    if m > 1:
        names.append(pair_name(board, 2 * m - 3, 2 * n - 2))
    longest = max(len(name) for name in names)
    if longest > MAX_NAME:
        raise InputError(
            f"a {m}x{n} board is too large: its item names would pass {MAX_NAME} characters"
        )
    return board


def shaded_loop_options(
    board: LoopBoard,
    open_cells: Iterable[tuple[int, int]],
    counters: Mapping[tuple[int, int], Sequence[str]] | None = None,
    unshaded: Iterable[tuple[int, int]] = (),
) -> tuple[list[str], list[str], list[list[str]]]:
    """The items and options of open cells that are shaded or on the loop (see above):
    ``(vertices, secondary items, options)``. The vertices are the open cells' items, the
    secondary items the edges between two open cells (points in row order) and then their
    pair items (:func:`pair_name`); each open cell, row by row, has an option per two of its
    open edges on the loop (the others off) and, unless it is in ``unshaded``, the option
    "shaded": its edges off, its pair items, and ``counters[(i, j)]``, the items of the clues
    that count the cell (a mapping; None: none).

    >>> v, s, o = shaded_loop_options(LoopBoard(1, 3), [(0, 0), (0, 1), (0, 2)], {(0, 1): ["a"]})
    >>> v, s
    (['00', '02', '04'], ['01', '03', 'x01', 'x03'])
    >>> o[1:3]
    [['02', '01:1', '03:1'], ['02', '01:0', '03:0', 'x01', 'x03', 'a']]
    """
    cells = sorted(open_cells)
    is_open = set(cells)
    no_shade = set(unshaded)
    counts = counters or {}
    vertices = [board.cell(i, j) for i, j in cells]
    edge_points = sorted(
        p
        for i, j in cells
        for p in board.edge_points(i, j)
        if p > (2 * i, 2 * j) and _other_cell(p, i, j) in is_open
    )
    edges = [board.name(x, y) for x, y in edge_points]
    secondary = edges + [pair_name(board, x, y) for x, y in edge_points]
    options: list[list[str]] = []
    for i, j in cells:
        mine = [(x, y) for x, y in board.edge_points(i, j) if _other_cell((x, y), i, j) in is_open]
        names = [board.name(x, y) for x, y in mine]
        head = board.cell(i, j)
        for a, b in combinations(range(len(names)), 2):
            options.append(
                [head, *(f"{e}:{ON if k in (a, b) else '0'}" for k, e in enumerate(names))]
            )
        if (i, j) not in no_shade:
            shaded = [head, *(f"{e}:0" for e in names)]
            shaded += [pair_name(board, x, y) for x, y in mine]
            shaded += list(counts.get((i, j), ()))
            options.append(shaded)
    return vertices, secondary, options


def count_clues(
    board: LoopBoard,
    clues: Iterable[tuple[tuple[int, int], int | None, Iterable[tuple[int, int]]]],
) -> tuple[list[Item], dict[tuple[int, int], list[str]], set[tuple[int, int]]]:
    """The clues that count shaded cells (Yajilin's arrows, Koburin's numbers, Regional
    Yajilin's rooms), for :func:`shaded_loop_options`: ``(items, counters, unshaded)``.

    Each clue is ``(cell, count, seen)``. A count of 0 makes every cell it sees unshaded and
    needs no item; any other count is a primary item at the clue's cell with multiplicity
    ``count``, which the "shaded" option of each cell seen covers once (``counters``): so
    exactly ``count`` of them are shaded. A count of None is an item no option covers: a clue
    that cannot be met, so the puzzle has no answer.

    >>> items, counters, unshaded = count_clues(LoopBoard(1, 3), [((0, 0), 1, [(0, 1), (0, 2)])])
    >>> items, counters, unshaded
    ([Item(name='11', primary=True, lo=1, hi=1)], {(0, 1): ['11'], (0, 2): ['11']}, set())
    """
    items: list[Item] = []
    counters: dict[tuple[int, int], list[str]] = {}
    unshaded: set[tuple[int, int]] = set()
    for (i, j), count, seen in clues:
        name = board.name(2 * i + 1, 2 * j + 1)
        if count is None:
            items.append(Item(name))
        elif count == 0:
            unshaded.update(seen)
        else:
            items.append(Item(name, lo=count, hi=count))
            for c in seen:
                counters.setdefault(c, []).append(name)
    return items, counters, unshaded


def _other_cell(point: tuple[int, int], i: int, j: int) -> tuple[int, int]:
    """The cell across edge ``point`` from cell (i, j)."""
    x, y = point
    return (x - i, y - j)


class LoopData:
    """An exact-cover problem with the single-loop rule, held as names: ``primary`` items
    (:class:`~dlxsat.xcc.Item`\\ s, for a clue's multiplicity, or names), ``secondary`` names,
    ``options`` of entries ``name`` or ``name:color``, and ``comments`` (lines without the
    ``| ``). Its :meth:`text` is Knuth's format with a ``|@loop`` line, its :meth:`problem`
    what parsing that text gives, built without writing and reading it (a family's
    ``problem_of``: a 39 x 57 Yajilin's text is 380 KB), each made once.

    >>> data = LoopData(["00", "02"], ["01"], [["00", "01:1"], ["02", "01:1"]], ["a board"])
    >>> print(data.text(), end="")
    | a board
    |@loop
    00 02 | 01
    00 01:1
    02 01:1
    >>> from dlxsat.xcc import parse
    >>> data.problem() == parse(data.text()), [r.kind for r in data.problem().rules]
    (True, ['loop'])
    """

    def __init__(
        self,
        primary: Sequence[Any],
        secondary: Sequence[str],
        options: Sequence[Sequence[str]],
        comments: Sequence[str] = (),
    ) -> None:
        from ..xcc.model import Item

        self.items = [it if isinstance(it, Item) else Item(it) for it in primary]
        self.secondary = list(secondary)
        self.options = options
        self.comments = list(comments)
        self._text: str | None = None
        self._problem: Any = None

    def text(self) -> str:
        """The data in Knuth's format, as :func:`dlxsat.xcc.write` writes the problem (after
        the comments)."""
        if self._text is None:
            heads = [
                it.name
                if (it.lo, it.hi) == (1, 1)
                else f"{it.hi}|{it.name}"
                if it.lo == it.hi
                else f"{it.lo}:{it.hi}|{it.name}"
                for it in self.items
            ]
            line = " ".join(heads) + (" | " + " ".join(self.secondary) if self.secondary else "")
            out = [f"| {c}" for c in self.comments] + ["|@loop", line]
            out += [" ".join(option) for option in self.options]
            self._text = "\n".join(out) + "\n"
        return self._text

    def problem(self) -> Any:
        """The :class:`~dlxsat.xcc.Problem` of :meth:`text`, with its single-loop rule."""
        if self._problem is None:
            from ..xcc.model import Item, Problem
            from ..xcc.rules import SingleLoop

            items = [*self.items, *(Item(name, primary=False) for name in self.secondary)]
            index = {it.name: k for k, it in enumerate(items)}
            entry: dict[str, tuple[int, str | None]] = {}
            rows = []
            for option in self.options:
                row = []
                for token in option:
                    found = entry.get(token)
                    if found is None:
                        name, _, color = token.partition(":")
                        found = entry[token] = (index[name], color or None)
                    row.append(found)
                rows.append(tuple(row))
            problem = Problem(items, rows, [f"| {c}" for c in self.comments])
            self._problem = problem.with_rules(SingleLoop.from_names(problem))
        return self._problem

    def problem_of(self, text: str) -> Any:
        """The problem of ``text``: :meth:`problem` when it is this data's text, else the
        text parsed (its ``|@loop`` line gives the rule)."""
        if text == self.text():
            return self.problem()
        from ..xcc import parse

        return parse(text, allow_empty=True)


def read_shaded(m: int, n: int, answer: Answer) -> tuple[set[tuple[int, int]], list[str]]:
    """The answer's ``shaded`` cells of an ``m`` x ``n`` board (none when it has no such
    list), and complaints about anything in it that is not a cell of the board."""
    raw = answer.get("shaded", []) if isinstance(answer, dict) else []
    if not isinstance(raw, list):
        return set(), ['the answer\'s "shaded" is not a list of cells']
    cells: set[tuple[int, int]] = set()
    problems = []
    for item in raw:
        ok = isinstance(item, (list, tuple)) and len(item) == 2
        if not ok or not all(isinstance(v, int) and not isinstance(v, bool) for v in item):
            problems.append(f"{item!r} is not a cell [row, column]")
        elif not (0 <= item[0] < m and 0 <= item[1] < n):
            problems.append(f"[{item[0]}, {item[1]}] is not a cell of the board")
        elif (item[0], item[1]) in cells:
            problems.append(f"cell [{item[0]}, {item[1]}] is listed twice as shaded")
        else:
            cells.add((item[0], item[1]))
    return cells, problems


def shaded_loop_problems(
    m: int,
    n: int,
    answer: Answer,
    clues: Iterable[tuple[int, int]],
    counts: Callable[[set[tuple[int, int]], set[tuple[int, int]]], list[str]],
) -> list[str]:
    """What is wrong with ``answer`` by the rules shared by Yajilin, Regional Yajilin and
    Koburin: the loop does not branch, cross or end; it avoids the shaded cells and the
    ``clues`` (cells that are neither shaded nor on it); no two shaded cells touch; it is one
    loop; every other cell is shaded or on it. ``counts(edges, shaded)`` judges the genre's
    clues. The complaints come rule by rule in the order pzprjs checks them (its verdict is
    the first), each naming its cell, 1-based: the genre's clues come after the dead ends.

    >>> ring = {"edges": [[0, 1], [1, 0], [1, 2], [2, 1]]}
    >>> shaded_loop_problems(2, 2, ring, [], lambda e, s: [])
    []
    >>> shaded_loop_problems(2, 3, ring | {"shaded": [[0, 2]]}, [], lambda e, s: [])
    ['cell (2, 3) is neither shaded nor on the loop']
    """
    edges, problems = line_edges(m, n, answer)
    shaded, more = read_shaded(m, n, answer)
    if problems or more:
        return problems + more
    given = set(clues)
    deg = {(i, j): degree(edges, i, j) for i in range(m) for j in range(n)}
    cells = sorted(deg)
    out = [
        f"cell {cell_name(*c)}: the line branches (3 line segments)" for c in cells if deg[c] == 3
    ]
    out += [f"cell {cell_name(*c)}: the line crosses itself" for c in cells if deg[c] == 4]
    out += [
        f"cell {cell_name(*c)} is shaded, but the line passes through it"
        for c in cells
        if c in shaded and deg[c]
    ]
    out += [f"the clue cell {cell_name(*c)} is shaded" for c in cells if c in given and c in shaded]
    out += [
        f"the line passes through the clue cell {cell_name(*c)}"
        for c in cells
        if c in given and deg[c]
    ]
    for i, j in cells:
        for p, q in ((i, j + 1), (i + 1, j)):
            if (i, j) in shaded and (p, q) in shaded:
                out.append(f"the shaded cells {cell_name(i, j)} and {cell_name(p, q)} touch")
    out += [f"cell {cell_name(*c)}: the line ends here (a dead end)" for c in cells if deg[c] == 1]
    out += counts(edges, shaded)
    pieces = connected_pieces((e, *edge_ends(*e)) for e in edges)
    if not pieces:
        out.append("there is no loop")
    elif len(pieces) > 1:
        out.append(f"the line forms {len(pieces)} separate pieces, not one loop")
    out += [
        f"cell {cell_name(*c)} is neither shaded nor on the loop"
        for c in cells
        if not deg[c] and c not in shaded and c not in given
    ]
    return out


def token_rows(text: str, blocks: int = 1) -> tuple[list[list[str]], int]:
    """The rows of space-separated tokens of a grid text (blank lines left out) and the line
    number of the first row. A first line ``ROWS COLS`` is the corpus's header when
    ``blocks`` x ROWS rows of COLS tokens follow it (Regional Yajilin's numbers and regions
    are two blocks), so that a board whose first row is two numbers is not taken for one; a
    header that does not fit is an :class:`InputError`.

    >>> token_rows("2 2\\n1 2\\n- -\\n")
    ([['1', '2'], ['-', '-']], 2)
    >>> token_rows("1 2\\n- -\\n")
    ([['-', '-']], 2)
    >>> token_rows("1 2\\n- -\\n- -\\n")
    ([['1', '2'], ['-', '-'], ['-', '-']], 1)
    """
    rows = [line.split() for line in text.replace("\r\n", "\n").split("\n") if line.strip()]
    head = rows[0] if rows else []
    if len(head) == 2 and all(t.isdigit() and t.isascii() for t in head):
        m, n = int(head[0]), int(head[1])
        if len(rows) - 1 == blocks * m and all(len(row) == n for row in rows[1:]):
            return rows[1:], 2
        if any(len(row) != 2 for row in rows):  # not a board two cells wide either
            raise InputError(
                f"line 1: the board is {m} x {n}, but {len(rows) - 1} rows follow "
                f"(the first of {len(rows[1]) if len(rows) > 1 else 0} cells)"
            )
    return rows, 1


def read_answer_grid(text: str, m: int, n: int, shade: str = "x") -> Answer:
    """The answer of an answer grid in the corpus's notation (:func:`read_segments`): an
    optional ``ROWS COLS`` header that must be the board's, then ``m`` rows of ``n`` tokens
    (lines after them are ignored: some corpus answers repeat their grid).

    >>> read_answer_grid("1 2\\nx -\\n", 1, 2)
    {'edges': [], 'shaded': [[0, 0]]}
    """
    lines = [line.split() for line in text.replace("\r\n", "\n").split("\n") if line.strip()]
    first = 1
    if lines and len(lines[0]) == 2 and all(t.isdigit() for t in lines[0]):
        if (int(lines[0][0]), int(lines[0][1])) != (m, n):
            raise InputError(f"line 1: the answer is {lines[0][0]} x {lines[0][1]}, not {m} x {n}")
        lines, first = lines[1:], 2
    if len(lines) < m:
        raise InputError(f"the answer has {len(lines)} rows, not {m}")
    for k, row in enumerate(lines[:m]):
        if len(row) != n:
            raise InputError(f"line {first + k}: {len(row)} cells, but the answer is {n} wide")
    return read_segments(lines[:m], m, n, shade)


def write_answer_grid(m: int, n: int, answer: Answer, shade: str = "x") -> str:
    """The answer grid in the corpus's notation, with its ``ROWS COLS`` header."""
    rows = write_segments(m, n, answer, shade)
    return f"{m} {n}\n" + "".join(" ".join(row) + "\n" for row in rows)


def untouched(
    cells: Iterable[tuple[int, int]], edges: Iterable[Sequence[int]]
) -> list[tuple[int, int]]:
    """The ``cells`` that none of ``edges`` touches (a shade-or-loop answer's shaded cells).

    >>> untouched([(0, 0), (0, 1), (0, 2)], [(0, 1)])
    [(0, 2)]
    """
    touched = {(a // 2, b // 2) for x, y in edges for a, b in edge_ends(x, y)}
    return [c for c in cells if c not in touched]


def read_cell_ans(block: Sequence[Sequence[str]]) -> list[tuple[int, int]]:
    """The shaded cells (``#``) of a pzprv3 file's answer block (``+``, a dot the player put
    on a cell, and ``.`` are unshaded)."""
    return [(i, j) for i, row in enumerate(block) for j, v in enumerate(row) if v == "#"]


def write_cell_ans(m: int, n: int, shaded: Iterable[Sequence[int]]) -> list[list[str]]:
    """The answer block of a pzprv3 file: ``#`` for the shaded cells, ``.`` elsewhere.

    >>> write_cell_ans(1, 2, [[0, 1]])
    [['.', '#']]
    """
    on = {(c[0], c[1]) for c in shaded}
    return [["#" if (i, j) in on else "." for j in range(n)] for i in range(m)]
