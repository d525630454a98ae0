"""Shading and region genres: the part they share.

Two kinds of genre live on a board of cells without a line:

- **shading genres** mark some cells (Norinori's shaded cells, Star Battle's stars, Akari's
  lights). Their answer is ``{KIND: [[i, j], ...]}``, the marked cells sorted (0-based row,
  column), KIND ``shaded``, ``stars`` or ``lights``;
- **region genres** divide the board (Shikaku, Tatamibari). Their answer is
  ``{"regions": [[[i, j], ...], ...]}``: each region's cells sorted, the regions sorted -- the
  partition itself, however a corpus or a file numbers its regions. An answer read from
  pzprjs's border blocks may also hold ``"stray"``: the midpoints of borders drawn between two
  cells of one region (a player's dead-end line), which the rule checkers judge as pzprjs does.

Item names follow docs/conventions.md §4 with cells at odd/odd points, as pzprjs's doubled
coordinates have them: cell (i, j) is the point (2i+1, 2j+1), the grid point (i, j) is
(2i, 2j), the border between two neighbouring cells is their midpoint. :class:`Names` writes
them (base-62 digits, decimal with a dot past Knuth's limits) and reads them back; a genre
puts a letter in front where one point needs several items (a cell's state ``s13`` beside the
cell ``13``). :class:`Builder` (a loop genre's builder without the loop rule) turns named
options into a :class:`~dlxsat.xcc.model.Problem`.

The rest reads and writes these answers in the corpus's answer grids (a token per cell:
:func:`read_marks`, :func:`write_marks`; region ids: :func:`regions_of_ids`,
:func:`region_id_rows`) and in pzprv3 blocks (``#`` cells: :func:`read_ans_block`; border
blocks: :func:`read_border_answer`), and judges them (:func:`answer_cells`,
:func:`answer_regions`, :func:`blocks`, :func:`border_ends`).

>>> names = Names(2, 3)
>>> names.cell(1, 2), names.point(1, 1), names.cell_of("s35")
('35', '22', (1, 2))
>>> regions_of_ids([["1", "1", "2"], ["3", "3", "2"]])
[[(0, 0), (0, 1)], [(1, 0), (1, 1)], [(0, 2), (1, 2)]]
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..errors import InputError
from ..xcc.model import Problem
from ..xcc.names import parse_point_name
from .grid import needs_wide_names, point_name
from .loops import SIDES, cell_name
from .regions import Builder as _RegionBuilder
from .regions import answer_rows

if TYPE_CHECKING:
    from ..xcc.rules import Connected, Sized

Answer = dict[str, Any]
Cell = tuple[int, int]
#: The answer key of each kind of shading genre.
SHADED, STARS, LIGHTS, REGIONS = "shaded", "stars", "lights", "regions"
#: An answer's borders inside a region (read from a file): judged, never part of the answer.
STRAY = "stray"


class Names:
    """Item names on an ``m`` x ``n`` board (see the module doc), made once each."""

    def __init__(self, m: int, n: int) -> None:
        self.m, self.n = m, n
        self.wide = needs_wide_names(2 * max(m, n))
        self._names: dict[tuple[int, int], str] = {}

    def name(self, x: int, y: int) -> str:
        """The name of doubled-grid point (x, y)."""
        key = (x, y)
        found = self._names.get(key)
        if found is None:
            found = self._names[key] = point_name(x, y, self.wide)
        return found

    def cell(self, i: int, j: int) -> str:
        """Cell (i, j): its centre (2i+1, 2j+1)."""
        return self.name(2 * i + 1, 2 * j + 1)

    def point(self, i: int, j: int) -> str:
        """Grid point (i, j), the corner above and left of cell (i, j): (2i, 2j)."""
        return self.name(2 * i, 2 * j)

    def point_of(self, name: str) -> tuple[int, int]:
        """The doubled coordinates of a name, after any prefix of letters or ``#``.

        >>> Names(40, 40).point_of("s41.70")
        (41, 70)
        """
        k = 0
        while k < len(name) - 2 and not name[k].isdigit():
            k += 1
        if not self.wide:
            k = len(name) - 2
        found = parse_point_name(name[k:])
        if found is None:
            raise InputError(f"item {name!r} names no point of the board")
        return found

    def cell_of(self, name: str) -> Cell:
        """The cell whose centre a name (after its prefix) is."""
        x, y = self.point_of(name)
        return x // 2, y // 2


class Builder(_RegionBuilder):
    """Named items and options (a loop genre's :class:`~dlxsat.families.regions.Builder`)
    made into a problem without the single-loop rule: these genres have no global rule."""

    def problem(self) -> Problem:
        return self.plain_problem()


def cells_rule(
    problem: Problem,
    items: Mapping[Cell, str],
    colour: str | None,
    label: str,
    *,
    roots: Collection[Cell] | None = None,
    size: int | None = None,
    anchors: Mapping[Cell, int] | None = None,
) -> Connected | Sized:
    """The global rule over a set of cells: the cells whose item (``items[cell]``, an item of
    ``problem``) has ``colour`` (None: a primary item covered) -- the shaded cells, the white
    ones, one region's -- linked where they are orthogonal neighbours.

    Without ``size`` or ``anchors``: :class:`~dlxsat.xcc.rules.Connected` (with ``roots``
    every piece must reach one of those cells, e.g. the border). With ``size`` every piece has
    that many cells (Fillomino's cells of one number); with ``anchors`` (cell → size) every
    piece holds one anchor and has its size (Nurikabe's islands): :class:`Sized`.

    >>> b = Builder()
    >>> for k in "13", "15", "33":
    ...     b.item("p" + k)
    ...     b.secondary.append(k)
    ...     b.options += [["p" + k, k + ":1"], ["p" + k, k + ":0"]]
    >>> p = b.problem()
    >>> rule = cells_rule(p, {(0, 0): "13", (0, 1): "15", (1, 0): "33"}, "1", "shaded")
    >>> rule.kind, rule.links, rule.members[0] == (p.index["13"], "1")
    ('connected', ((0, 1), (0, 2)), True)
    >>> cells_rule(p, {(0, 0): "13", (0, 1): "15"}, "0", "white", anchors={(0, 1): 2}).anchors
    ((1, 2),)
    """
    from ..xcc.rules import Connected, Sized

    cells = sorted(items)
    at = {cell: k for k, cell in enumerate(cells)}
    index = problem.index
    members = tuple((index[items[cell]], colour) for cell in cells)
    links = tuple(
        (at[(i, j)], at[other])
        for i, j in cells
        for other in ((i + 1, j), (i, j + 1))
        if other in at
    )
    if size is not None or anchors is not None:
        placed = tuple((at[cell], v) for cell, v in (anchors or {}).items())
        return Sized(members, links, size, placed, label)
    kept = None if roots is None else tuple(sorted(at[cell] for cell in roots if cell in at))
    return Connected(members, links, kept, label)


def neighbours(m: int, n: int, i: int, j: int) -> list[Cell]:
    """The orthogonal neighbours of cell (i, j) on the board, in the order n, s, e, w."""
    return [(i + di, j + dj) for _, di, dj in SIDES if 0 <= i + di < m and 0 <= j + dj < n]


def pair_borders(m: int, n: int, a: Cell, b: Cell) -> list[tuple[int, int]]:
    """The borders (midpoints) between the cells of a piece, here two neighbouring cells, and
    the cells around it, sorted.

    >>> pair_borders(2, 3, (0, 0), (0, 1))
    [(1, 4), (2, 1), (2, 3)]
    """
    piece = {a, b}
    out = set()
    for i, j in piece:
        for p, q in neighbours(m, n, i, j):
            if (p, q) not in piece:
                out.add((i + p + 1, j + q + 1))
    return sorted(out)


# ---------------------------------------------------------------------------------------------
# Answers of marked cells


def cells_answer(kind: str, cells: Iterable[Sequence[int]]) -> Answer:
    """The answer of a shading genre: its marked cells, sorted.

    >>> cells_answer("stars", [(1, 0), (0, 2)])
    {'stars': [[0, 2], [1, 0]]}
    """
    return {kind: sorted([int(i), int(j)] for i, j in cells)}


def answer_cells(answer: Answer, kind: str, m: int, n: int) -> tuple[set[Cell], list[str]]:
    """The cells an answer marks, and complaints about entries that are not cells of the board.

    >>> answer_cells({"shaded": [[0, 0], [5, 5]]}, "shaded", 2, 2)
    ({(0, 0)}, ['the answer names cell (6, 6), outside the 2 x 2 board'])
    """
    found: set[Cell] = set()
    wrong: list[str] = []
    items = answer.get(kind)
    if not isinstance(items, list):
        return found, [f"the answer has no list of {kind} cells"]
    for c in items:
        if not (
            isinstance(c, (list, tuple)) and len(c) == 2 and all(isinstance(v, int) for v in c)
        ):
            wrong.append(f"the answer's entry {c!r} is not a cell [row, column]")
        elif not (0 <= c[0] < m and 0 <= c[1] < n):
            wrong.append(
                f"the answer names cell {cell_name(c[0], c[1])}, outside the {m} x {n} board"
            )
        else:
            found.add((c[0], c[1]))
    return found, wrong


def read_marks(
    text: str, m: int, n: int, marked: str, unmarked: Collection[str], what: str
) -> set[Cell]:
    """The cells of an answer grid in the corpus's notation whose token is ``marked`` (the
    others must be among ``unmarked``); ``what`` names the mark in errors.

    >>> sorted(read_marks("2 2\\nx -\\n- x\\n", 2, 2, "x", "-", "shaded cell"))
    [(0, 0), (1, 1)]
    """
    out: set[Cell] = set()
    for i, row in enumerate(answer_rows(text, m, n)):
        for j, tok in enumerate(row):
            if tok == marked:
                out.add((i, j))
            elif tok not in unmarked:
                allowed = " or ".join(repr(t) for t in [marked, *sorted(unmarked)])
                raise InputError(
                    f"answer row {i + 1}, cell {j + 1}: {tok!r} is not {allowed} "
                    f"({marked} a {what})"
                )
    return out


def write_marks(
    header: str, m: int, n: int, cells: Collection[Cell], marked: str, other: str
) -> str:
    """An answer grid in the corpus's notation: ``header`` (its size line), then a token a cell."""
    rows = [" ".join(marked if (i, j) in cells else other for j in range(n)) for i in range(m)]
    return header + "\n" + "".join(r + "\n" for r in rows)


def marked_cells(answer: Answer | None, kind: str) -> set[Cell]:
    """The cells an answer (or None) marks, as a set (for writers and pictures)."""
    return {(c[0], c[1]) for c in (answer or {}).get(kind, [])}


# ---------------------------------------------------------------------------------------------
# pzprv3 blocks of marked cells (pzprjs's ``decodeCellAns``)


def read_ans_block(lines: Sequence[str], start: int, rows: int, cols: int) -> set[Cell] | None:
    """The ``#`` cells of a pzprv3 answer block at ``lines[start:]`` (``+`` and ``.`` are
    unmarked); None when the file ends before it (a file of the puzzle alone)."""
    from .codecs import block

    if len(lines) < start + rows:
        return None
    cells = block(lines, start, rows, cols, "answer cells")
    return {(i, j) for i in range(rows) for j in range(cols) if cells[i][j] == "#"}


def ans_rows(m: int, n: int, cells: Collection[Cell]) -> list[list[str]]:
    """A pzprv3 answer block: ``#`` a marked cell, ``.`` the others."""
    return [["#" if (i, j) in cells else "." for j in range(n)] for i in range(m)]


# ---------------------------------------------------------------------------------------------
# Region answers


def regions_answer(regions: Iterable[Iterable[Sequence[int]]]) -> Answer:
    """The answer of a region genre: each region's cells sorted, the regions sorted.

    >>> regions_answer([[(1, 0)], [(0, 1), (0, 0)]])
    {'regions': [[[0, 0], [0, 1]], [[1, 0]]]}
    """
    parts = [sorted([int(i), int(j)] for i, j in part) for part in regions]
    return {REGIONS: sorted(parts)}


def components(m: int, n: int, same: Any) -> list[list[Cell]]:
    """The connected pieces of the board where ``same(a, b)`` joins neighbouring cells a and b,
    each in reading order, ordered by their first cell in column-major order (the corpus's
    order of region ids)."""
    seen: dict[Cell, int] = {}
    out: list[list[Cell]] = []
    for j in range(n):
        for i in range(m):
            if (i, j) in seen:
                continue
            k = len(out)
            seen[(i, j)] = k
            stack, part = [(i, j)], []
            while stack:
                a = stack.pop()
                part.append(a)
                for b in neighbours(m, n, *a):
                    if b not in seen and same(a, b):
                        seen[b] = k
                        stack.append(b)
            out.append(sorted(part))
    return out


def regions_of_ids(rows: Sequence[Sequence[str]]) -> list[list[Cell]]:
    """The regions of a grid of region ids: connected cells of one id (an id used twice, for
    two separate pieces, makes two regions), in the corpus's order."""
    m, n = len(rows), len(rows[0])
    return components(m, n, lambda a, b: rows[a[0]][a[1]] == rows[b[0]][b[1]])


def region_id_rows(m: int, n: int, regions: Iterable[Iterable[Sequence[int]]]) -> list[list[str]]:
    """The corpus's region ids of a partition: regions numbered from 1 in the column-major
    order of their first cell (as its Shikaku and Tatamibari answers are).

    >>> region_id_rows(2, 2, [[[0, 0], [0, 1]], [[1, 0], [1, 1]]])
    [['1', '1'], ['2', '2']]
    """
    label = [[-1] * n for _ in range(m)]
    parts = [[(int(i), int(j)) for i, j in part] for part in regions]
    for k, part in enumerate(parts):
        for i, j in part:
            label[i][j] = k
    order = sorted(range(len(parts)), key=lambda k: min((j, i) for i, j in parts[k]))
    number = {k: str(r + 1) for r, k in enumerate(order)}
    return [[number.get(k, "-") for k in row] for row in label]


def region_borders(m: int, n: int, label: Sequence[Sequence[int]]) -> set[tuple[int, int]]:
    """The midpoints of the borders between neighbouring cells of different labels."""
    out = set()
    for i in range(m):
        for j in range(n):
            if j + 1 < n and label[i][j] != label[i][j + 1]:
                out.add((2 * i + 1, 2 * j + 2))
            if i + 1 < m and label[i][j] != label[i + 1][j]:
                out.add((2 * i + 2, 2 * j + 1))
    return out


def read_border_answer(
    lines: Sequence[str], start: int, rows: int, cols: int
) -> tuple[list[list[Cell]], set[tuple[int, int]]] | None:
    """The regions and stray borders of pzprjs's answer border blocks (``decodeBorderAns``:
    ``1`` or ``2`` a border, ``-1`` and ``0`` none) at ``lines[start:]``; None when the file
    ends before them or draws no border at all (a file of the puzzle alone)."""
    from .codecs import block

    if len(lines) < start + 2 * rows - 1:
        return None
    across = block(lines, start, rows, cols - 1, "borders between horizontal neighbours")
    down = block(lines, start + rows, rows - 1, cols, "borders between vertical neighbours")
    drawn = {
        (2 * i + 1, 2 * j + 2) for i, r in enumerate(across) for j, v in enumerate(r) if v in "12"
    }
    drawn |= {
        (2 * i + 2, 2 * j + 1) for i, r in enumerate(down) for j, v in enumerate(r) if v in "12"
    }
    if not drawn:
        return None
    return regions_of_borders(rows, cols, drawn)


def regions_of_borders(
    m: int, n: int, drawn: Collection[tuple[int, int]]
) -> tuple[list[list[Cell]], set[tuple[int, int]]]:
    """The regions the borders (midpoints) enclose, and the borders inside a region.

    >>> regions_of_borders(2, 2, {(1, 2), (3, 2)})
    ([[(0, 0), (1, 0)], [(0, 1), (1, 1)]], set())
    >>> regions_of_borders(2, 2, {(1, 2)})
    ([[(0, 0), (0, 1), (1, 0), (1, 1)]], {(1, 2)})
    """

    def same(a: Cell, b: Cell) -> bool:
        return (a[0] + b[0] + 1, a[1] + b[1] + 1) not in drawn

    parts = components(m, n, same)
    label = [[0] * n for _ in range(m)]
    for k, part in enumerate(parts):
        for i, j in part:
            label[i][j] = k
    stray = {e for e in drawn if _sides_same(label, e)}
    return parts, stray


def _sides_same(label: Sequence[Sequence[int]], e: tuple[int, int]) -> bool:
    """Whether the two cells either side of border ``e`` (a midpoint) have one label."""
    x, y = e
    if x % 2:  # between columns
        a, b = (x // 2, y // 2 - 1), (x // 2, y // 2)
    else:  # between rows
        a, b = (x // 2 - 1, y // 2), (x // 2, y // 2)
    return label[a[0]][a[1]] == label[b[0]][b[1]]


def border_block_rows(m: int, n: int, borders: Collection[tuple[int, int]]) -> list[list[int]]:
    """pzprjs's answer border blocks (``1`` a border): ROWS lines between horizontal
    neighbours, then ROWS - 1 lines between vertical ones."""
    across = [[int((2 * i + 1, 2 * j + 2) in borders) for j in range(n - 1)] for i in range(m)]
    down = [[int((2 * i + 2, 2 * j + 1) in borders) for j in range(n)] for i in range(m - 1)]
    return across + down


def border_answer(lines: Sequence[str], start: int, rows: int, cols: int) -> Answer | None:
    """The region answer of pzprjs's answer border blocks at ``lines[start:]``, with its
    ``stray`` borders if it has some; None when the file draws no border."""
    found = read_border_answer(lines, start, rows, cols)
    if found is None:
        return None
    parts, stray = found
    out = regions_answer(parts)
    if stray:
        out[STRAY] = sorted([x, y] for x, y in stray)
    return out


def answer_borders(m: int, n: int, answer: Answer | None) -> set[tuple[int, int]]:
    """The borders an answer draws: between its regions, and its stray ones."""
    if not answer:
        return set()
    label = [[-1] * n for _ in range(m)]
    for k, part in enumerate(answer.get(REGIONS, [])):
        for i, j in part:
            label[i][j] = k
    return region_borders(m, n, label) | {(e[0], e[1]) for e in answer.get(STRAY, [])}


def dead_ends(m: int, n: int, answer: Answer) -> list[str]:
    """pzprjs's ``bdDeadEnd``: a grid point where a single border ends (only a stray border,
    drawn inside a region, can).

    >>> dead_ends(1, 3, {"regions": [[[0, 0], [0, 1], [0, 2]]], "stray": [[1, 2]]})
    []
    >>> dead_ends(2, 2, {"regions": [[[0, 0], [0, 1], [1, 0], [1, 1]]], "stray": [[1, 2]]})
    ['a border has a dead end at the corner below right of cell (1, 1)']
    """
    ends = border_ends(m, n, answer_borders(m, n, answer))
    return [
        f"a border has a dead end at {corner_name(i, j)}"
        for (i, j), k in sorted(ends.items())
        if k == 1
    ]


def crossings(m: int, n: int, answer: Answer) -> list[str]:
    """pzprjs's ``bdCross``: an inner grid point where four borders meet (four regions).

    >>> crossings(2, 2, {"regions": [[[0, 0]], [[0, 1]], [[1, 0]], [[1, 1]]]})
    ['four regions meet at the corner below right of cell (1, 1)']
    """
    ends = border_ends(m, n, answer_borders(m, n, answer))
    return [
        f"four regions meet at {corner_name(i, j)}" for (i, j), k in sorted(ends.items()) if k == 4
    ]


def read_region_ids(text: str, m: int, n: int) -> Answer:
    """The region answer of the corpus's answer grid (a region id per cell: the connected
    cells of one id are a region)."""
    return regions_answer(regions_of_ids(answer_rows(text, m, n)))


def write_region_ids(m: int, n: int, answer: Answer) -> str:
    """The corpus's answer grid of a region answer (:func:`region_id_rows`).

    >>> print(write_region_ids(1, 3, {"regions": [[[0, 0], [0, 1]], [[0, 2]]]}), end="")
    1 3
    1 1 2
    """
    rows = region_id_rows(m, n, answer.get(REGIONS, []))
    return f"{m} {n}\n" + "".join(" ".join(r) + "\n" for r in rows)


def render_regions(m: int, n: int, answer: Answer) -> str:
    """An answer's regions as letters (``a``-``z``, ``A``-``Z``, repeating), in the order of
    :func:`region_id_rows`."""
    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    rows = region_id_rows(m, n, answer.get(REGIONS, []))
    return "\n".join(
        "".join("?" if k == "-" else letters[(int(k) - 1) % len(letters)] for k in row)
        for row in rows
    )


def answer_regions(
    answer: Answer, m: int, n: int
) -> tuple[list[list[int]], list[list[Cell]], list[str]]:
    """An answer's partition read for a rule checker: (a region number per cell, -1 where no
    region has it; the regions' cells; complaints about what is not a partition of the board:
    entries that are not cells, cells in two regions or in none, a region in pieces).

    >>> answer_regions({"regions": [[[0, 0]], [[0, 1]]]}, 1, 2)
    ([[0, 1]], [[(0, 0)], [(0, 1)]], [])
    """
    label = [[-1] * n for _ in range(m)]
    parts: list[list[Cell]] = []
    wrong: list[str] = []
    given = answer.get(REGIONS)
    if not isinstance(given, list):
        return label, parts, ["the answer has no list of regions"]
    for part in given:
        cells: list[Cell] = []
        for c in part if isinstance(part, list) else [part]:
            if not (
                isinstance(c, (list, tuple)) and len(c) == 2 and all(isinstance(v, int) for v in c)
            ):
                wrong.append(f"the answer's entry {c!r} is not a cell [row, column]")
            elif not (0 <= c[0] < m and 0 <= c[1] < n):
                wrong.append(f"the answer names cell {cell_name(c[0], c[1])}, outside the board")
            elif label[c[0]][c[1]] != -1:
                wrong.append(f"cell {cell_name(c[0], c[1])} is in two regions")
            else:
                label[c[0]][c[1]] = len(parts)
                cells.append((c[0], c[1]))
        if cells:
            parts.append(sorted(cells))
    for i in range(m):
        for j in range(n):
            if label[i][j] == -1:
                wrong.append(f"cell {cell_name(i, j)} is in no region")
    for cells in parts:
        if len(blocks(cells)) > 1:
            wrong.append(f"the region at {cell_name(*cells[0])} is in several pieces")
    return label, parts, wrong


def is_rectangle(cells: Sequence[Cell]) -> tuple[bool, int, int]:
    """Whether the cells fill their bounding box, and its height and width.

    >>> is_rectangle([(0, 0), (0, 1)]), is_rectangle([(0, 0), (1, 1)])
    ((True, 1, 2), (False, 2, 2))
    """
    rows = [i for i, _ in cells]
    cols = [j for _, j in cells]
    h, w = max(rows) - min(rows) + 1, max(cols) - min(cols) + 1
    return h * w == len(set(cells)), h, w


def border_ends(m: int, n: int, borders: Collection[tuple[int, int]]) -> dict[tuple[int, int], int]:
    """How many border segments meet at each grid point (i, j) of the board, the outline
    counting as two at every point on it (pzprjs's ``checkBorderCount``): 1 is a dead end,
    4 a crossing.

    >>> ends = border_ends(2, 2, {(1, 2)})
    >>> ends[(1, 1)], ends[(0, 1)]
    (1, 3)
    """
    out: dict[tuple[int, int], int] = {}
    for i in range(m + 1):
        for j in range(n + 1):
            out[(i, j)] = 2 if i in (0, m) or j in (0, n) else 0
    for x, y in borders:
        if x % 2:  # between columns: from point (x//2, y/2) down to (x//2 + 1, y/2)
            ends = ((x // 2, y // 2), (x // 2 + 1, y // 2))
        else:  # between rows: from point (x/2, y//2) right to (x/2, y//2 + 1)
            ends = ((x // 2, y // 2), (x // 2, y // 2 + 1))
        for p in ends:
            out[p] += 1
    return out


def corner_name(i: int, j: int) -> str:
    """Inner grid point (i, j) as people find it: the corner below and right of cell (i, j),
    which is 1-based (the cell of 0-based (i - 1, j - 1)).

    >>> corner_name(1, 2)
    'the corner below right of cell (1, 2)'
    """
    return f"the corner below right of cell ({i}, {j})"


# ---------------------------------------------------------------------------------------------
# Judging shaded cells


def blocks(cells: Collection[Cell]) -> list[list[Cell]]:
    """The orthogonally connected pieces of a set of cells, each sorted, in reading order.

    >>> blocks({(0, 0), (0, 1), (2, 2)})
    [[(0, 0), (0, 1)], [(2, 2)]]
    """
    seen: set[Cell] = set()
    out = []
    for start in sorted(cells):
        if start in seen:
            continue
        seen.add(start)
        stack, part = [start], []
        while stack:
            i, j = stack.pop()
            part.append((i, j))
            for _, di, dj in SIDES:
                b = (i + di, j + dj)
                if b in cells and b not in seen:
                    seen.add(b)
                    stack.append(b)
        out.append(sorted(part))
    return out


# ---------------------------------------------------------------------------------------------
# Text and pictures


def render_cells(m: int, n: int, glyph: Any) -> str:
    """The board as text, one character a cell (``glyph(i, j)``)."""
    return "\n".join("".join(glyph(i, j) for j in range(n)) for i in range(m))


def draw_region_answer(canvas: Any, m: int, n: int, answer: Answer | None) -> None:
    """An answer's regions, their borders in the answer's colour (stray ones too), inside the
    board's black outline."""
    from ..drawing import ANSWER

    if answer:
        label = [[-1] * n for _ in range(m)]
        for k, part in enumerate(answer.get(REGIONS, [])):
            for i, j in part:
                if 0 <= i < m and 0 <= j < n:
                    label[i][j] = k
        canvas.walls(label, colour=ANSWER)
        stray = [tuple(e) for e in answer.get(STRAY, [])]
        canvas.segments([_segment(x, y) for x, y in stray], ANSWER, 2.2, 2)
    canvas.walls([[0] * n for _ in range(m)])


def _segment(x: int, y: int) -> list[tuple[float, float]]:
    """The plot segment (column, row order) of the border at midpoint (x, y)."""
    if x % 2:  # between columns
        return [(y / 2, (x - 1) / 2), (y / 2, (x + 1) / 2)]
    return [((y - 1) / 2, x / 2), ((y + 1) / 2, x / 2)]
