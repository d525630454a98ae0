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

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import InputError
from ..xcc.model import Problem
from ..xcc.names import parse_point_name
from .base import Puzzle
from .codecs import BLANK
from .grid import needs_wide_names, point_name
from .loops import SIDES, cell_name
from .regions import Builder as _RegionBuilder
from .regions import answer_rows
from .spec import Codec

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


@dataclass(frozen=True)
class NumberBoard(Puzzle):
    """A board of numbered cells (Cave, Shikaku): ``clues[i][j]`` a number,
    :data:`~dlxsat.families.codecs.BLANK` (none) or :data:`~dlxsat.families.codecs.QUESTION`.

    >>> NumberBoard(((2, -1), (-1, -2))).numbers()
    [(0, 0, 2), (1, 1, -2)]
    """

    clues: tuple[tuple[int, ...], ...]

    @property
    def m(self) -> int:
        return len(self.clues)

    @property
    def n(self) -> int:
        return len(self.clues[0])

    def numbers(self) -> list[tuple[int, int, int]]:
        """The clues (``?`` too), ``(i, j, value)`` in reading order."""
        return [
            (i, j, v) for i, row in enumerate(self.clues) for j, v in enumerate(row) if v != BLANK
        ]


def read_clues(
    rows: Sequence[Sequence[str]], where: str, zero: str | None = None
) -> tuple[tuple[int, ...], ...]:
    """The numbers of the corpus's clue rows (``-`` or ``.`` none, ``?`` a number not given);
    ``where`` starts each error's place, ``zero`` says why a 0 is wrong (None: it is not).

    >>> read_clues([["2", "-"], [".", "?"]], "")
    ((2, -1), (-1, -2))
    >>> read_clues([["0"]], "", "a rectangle's area is not 0")
    Traceback (most recent call last):
    dlxsat.errors.InputError: row 1, cell 1: a rectangle's area is not 0
    """
    from .regions import read_number

    out = []
    for i, row in enumerate(rows):
        values = []
        for j, tok in enumerate(row):
            place = f"{where}row {i + 1}, cell {j + 1}"
            v = BLANK if tok == "." else read_number(tok, place)
            if v == 0 and zero is not None:
                raise InputError(f"{place}: {zero}")
            values.append(v)
        out.append(tuple(values))
    return tuple(out)


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


#: The colours of a cell's state item (:class:`CellStates`).
WHITE_COLOUR, SHADED_COLOUR = "0", "1"


class CellStates:
    """Cells that are each white or shaded, in Knuth's style, for genres whose rules look at
    both states (white cells counted or connected, shaded ones kept apart).

    Each cell (i, j) of ``cells`` gets a primary item ``p`` + its name, covered once, and a
    secondary item, its name (``13``), colored :data:`WHITE_COLOUR` ``0`` or
    :data:`SHADED_COLOUR` ``1`` by the cell's two options, :meth:`white` (``p13 13:0``) and
    :meth:`shaded` (``p13 13:1``); other options (a clue's) read a cell's state by coloring its
    item. With ``apart`` a shaded option colors its neighbours' items ``0``: no two shaded cells
    are orthogonal neighbours, exactly, and no item more. Naming the state items by their
    cells lets the connected rule over them be written ``|@links grid``.

    ``rings`` (for genres whose white cells are connected and shaded ones apart): no white
    piece is walled in near a cell. For each cell and each radius ``r < rings`` (at most 2),
    the cells at distance r + 1 from it (orthogonal steps) are its *ring*: were they all
    shaded, the cells within distance r would be cut off from the rest, and they hold a white
    cell (one next to the ring: shaded cells are apart), as the rest does when the board has
    cells beyond the ring (one next to the ring again). So the ring gets a primary item (``n``
    + the cell's name for radius 0, the cell's neighbours; ``d`` for radius 1, a diamond of up
    to eight cells), covered by its cells' white options, at least once. The connected rule
    implies these; stated locally, they spare the lazy rule its most frequent cuts (a white
    cell, or a white cross, walled in by shaded ones).

    >>> b = Builder()
    >>> states = CellStates(b, Names(1, 2), [(0, 0), (0, 1)])
    >>> states.white((0, 0)), states.shaded((0, 1), apart=True)
    (['p11', '11:0'], ['p13', '13:1', '11:0'])
    >>> b.options += [states.white((0, 0)), states.shaded((0, 1), apart=True)]
    >>> b.options.append(states.white((0, 1)))
    >>> p = b.problem()
    >>> sorted(states.shaded_cells(p, [0, 1]))
    [(0, 1)]
    >>> members = states.rule(p, WHITE_COLOUR, "white").members
    >>> members == ((p.index["11"], "0"), (p.index["13"], "0"))
    True
    >>> b = Builder()
    >>> states = CellStates(b, Names(1, 4), [(0, j) for j in range(4)], rings=2)
    >>> states.white((0, 0)), states.white((0, 2))
    (['p11', '11:0', 'n13'], ['p15', '15:0', 'n13', 'n17', 'd11'])
    >>> [(i.name, i.lo, i.hi) for i in b.primary if i.name[0] in "nd"]
    [('n11', 1, 1), ('n13', 1, 2), ('n15', 1, 2), ('n17', 1, 1), ('d11', 1, 1), ('d17', 1, 1)]
    """

    def __init__(self, b: Builder, names: Names, cells: Iterable[Cell], rings: int = 0) -> None:
        self.names = names
        self.items = {cell: names.cell(*cell) for cell in cells}
        for name in self.items.values():
            b.item("p" + name)
        b.secondary.extend(self.items.values())
        #: The ring items (``rings``) each white option covers, by cell.
        self._on_white: dict[Cell, list[str]] = {cell: [] for cell in self.items}
        for r, prefix in enumerate("nd"[:rings]):
            for cell, name in self.items.items():
                inside, ring = self._ball(cell, r)
                if ring and len(self.items) > len(inside) + len(ring):
                    b.item(prefix + name, 1, len(ring))
                    for c in ring:
                        self._on_white[c].append(prefix + name)

    def _ball(self, cell: Cell, r: int) -> tuple[set[Cell], list[Cell]]:
        """The cells within distance ``r`` of ``cell`` (orthogonal steps through the cells),
        and those at distance r + 1, in order of discovery."""
        inside = {cell}
        front = [cell]
        for step in range(r + 1):
            found: list[Cell] = []
            for c in front:
                for d in neighbours(self.names.m, self.names.n, *c):
                    if d in self.items and d not in inside and d not in found:
                        found.append(d)
            if step == r:
                return inside, found
            inside.update(found)
            front = found
        return inside, []

    def white(self, cell: Cell) -> list[str]:
        """The head of the cell's white option."""
        name = self.items[cell]
        return ["p" + name, f"{name}:{WHITE_COLOUR}", *self._on_white[cell]]

    def shaded(self, cell: Cell, apart: bool = False) -> list[str]:
        """The head of the cell's shaded option; with ``apart``, its neighbours colored white."""
        name = self.items[cell]
        out = ["p" + name, f"{name}:{SHADED_COLOUR}"]
        if apart:
            m, n = self.names.m, self.names.n
            for other in neighbours(m, n, *cell):
                if other in self.items:
                    out.append(f"{self.items[other]}:{WHITE_COLOUR}")
        return out

    def shaded_cells(self, problem: Problem, chosen: Iterable[int]) -> set[Cell]:
        """The cells whose shaded option is among the ``chosen`` options of ``problem``."""
        index = problem.index
        cell_of = {index["p" + name]: cell for cell, name in self.items.items()}
        out = set()
        for k in chosen:
            option = problem.options[k]
            cell = cell_of.get(option[0][0])
            if cell is not None and option[1][1] == SHADED_COLOUR:
                out.add(cell)
        return out

    def rule(self, problem: Problem, colour: str, label: str) -> Connected | Sized:
        """The connected rule over the cells of ``colour`` (:func:`cells_rule`)."""
        return cells_rule(problem, self.items, colour, label)


#: The item of "at least one cell is shaded" (:func:`decide_cells`).
ANY = "any"


def decide_cells(b: Builder, names: Names, cells: Iterable[Cell], force: str | None = None) -> None:
    """Let each of ``cells`` be decided on its own: a primary item ``p`` and the cell's name,
    with the options ``p13 13:1`` (shaded) and ``p13 13:0`` (white), the cell's secondary item
    colored (the caller declares it). With ``force``, a primary item of that name covered
    from 1 to k times by the k options that shade: at least one of these cells is shaded
    (pzprjs's ``brNoShade``, for a puzzle whose clues force no shaded cell).

    >>> b = Builder()
    >>> decide_cells(b, Names(1, 2), [(0, 0)], ANY)
    >>> [(it.name, it.lo, it.hi) for it in b.primary], b.options
    ([('p11', 1, 1), ('any', 1, 1)], [['p11', '11:1', 'any'], ['p11', '11:0']])
    """
    cells = list(cells)
    for i, j in cells:
        cell = names.cell(i, j)
        b.item("p" + cell)
        b.options.append(["p" + cell, cell + ":1", *([force] if force else [])])
        b.options.append(["p" + cell, cell + ":0"])
    if force:
        b.item(force, 1, max(1, len(cells)))


def colored_cells(
    m: int, n: int, problem: Problem, chosen: Iterable[int], colour: str
) -> set[Cell]:
    """The cells whose item (named by the cell, :meth:`Names.cell`) the chosen options give
    ``colour``: the shaded cells of a genre whose cells are colored ``1`` or ``0``."""
    names = Names(m, n)
    cell_of = {names.cell(i, j): (i, j) for i in range(m) for j in range(n)}
    out: set[Cell] = set()
    for k in chosen:
        for x, c in problem.options[k]:
            if c == colour:
                cell = cell_of.get(problem.items[x].name)
                if cell is not None:
                    out.add(cell)
    return out


#: The checkers' words for pzprjs's ``brNoShade`` ("there are no shaded cells on the board"),
#: a rule of Cave, Creek, Heyawake, Hitori, Kuromasu and Kurotto.
NO_SHADED_CELL = "no cell is shaded"
#: The item of :func:`some_shaded`.
SOME_SHADED = "any"


def some_shaded(b: Builder, names: Names, all_white: Sequence[str]) -> None:
    """pzprjs refuses a board without a shaded cell in some genres (:data:`NO_SHADED_CELL`),
    a rule no clue states: where the all-white board breaks no other rule (``all_white``: the
    checker's verdict on it), a primary item :data:`SOME_SHADED`, named by every option that
    shades a cell, covered at least once, keeps that board out. Elsewhere another rule does,
    and the data stay as they were (every published puzzle: its answer is unique and shades
    cells). Without it a 1 x 1 Hitori ``1`` was solved as the white board, which its checker
    refused: an internal error.

    >>> b = Builder()
    >>> b.item("p11")
    >>> b.secondary.append("11")
    >>> b.options += [["p11", "11:0"], ["p11", "11:1"]]
    >>> some_shaded(b, Names(1, 1), [NO_SHADED_CELL])
    >>> b.options, [(i.name, i.lo, i.hi) for i in b.primary]
    ([['p11', '11:0'], ['p11', '11:1', 'any']], [('p11', 1, 1), ('any', 1, 1)])
    """
    if any(v != NO_SHADED_CELL for v in all_white):
        return
    shade = {f"{names.cell(i, j)}:{SHADED_COLOUR}" for i in range(names.m) for j in range(names.n)}
    shading = [o for o in b.options if not shade.isdisjoint(o)]
    b.item(SOME_SHADED, 1, max(1, len(shading)))
    for option in shading:
        option.append(SOME_SHADED)


def decode_shaded(puzzle: Any, problem: Problem, chosen: Iterable[int]) -> Answer:
    """The answer of a genre whose cells' items are colored :data:`SHADED_COLOUR` when shaded
    (:class:`CellStates`, or items named by the cells): the cells the chosen options shade.
    ``puzzle`` has ``m`` rows and ``n`` columns."""
    return cells_answer(SHADED, colored_cells(puzzle.m, puzzle.n, problem, chosen, SHADED_COLOUR))


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
# Codecs of the genres whose answer is their shaded cells

#: The corpus's tokens of a shaded and of a white cell in the answer grids of shading genres.
SHADE_MARK, WHITE_MARK = "x", "-"


def shaded_grid_codec(read: Callable[[str], Any], write: Callable[[Any], str]) -> Codec:
    """The corpus's ``grid`` format of a genre whose answer is its shaded cells: the problem
    text as the genre reads and writes it (``read``, ``write``); the answer grid the problem's
    size line, then a token a cell, ``x`` shaded and ``-`` white. The puzzle needs ``m`` rows
    and ``n`` columns.

    >>> from types import SimpleNamespace
    >>> codec = shaded_grid_codec(lambda text: None, lambda puzzle: "1 2\\n1 1\\n")
    >>> board = SimpleNamespace(m=1, n=2)
    >>> codec.answer(board, "1 2\\nx -\\n")
    {'shaded': [[0, 0]]}
    >>> codec.write(board, {"shaded": [[0, 0]]})
    '1 2\\nx -\\n'
    >>> codec.write(board, None)
    '1 2\\n1 1\\n'
    """

    def answer(puzzle: Any, text: str) -> Answer:
        shaded = read_marks(text, puzzle.m, puzzle.n, SHADE_MARK, (WHITE_MARK,), "shaded cell")
        return cells_answer(SHADED, shaded)

    def write_grid(puzzle: Any, answer: Answer | None = None) -> str:
        if answer is None:
            return write(puzzle)
        shaded = marked_cells(answer, SHADED)
        head = f"{puzzle.m} {puzzle.n}"
        return write_marks(head, puzzle.m, puzzle.n, shaded, SHADE_MARK, WHITE_MARK)

    return Codec(read=read, write=write_grid, answer=answer)


def numbers_url_codec(
    make: Callable[[tuple[tuple[int, ...], ...]], Any],
    family: str,
    kind: str,
    names: tuple[str, ...],
    decode: Callable[[str, int], tuple[list[int], str]] | None = None,
    encode: Callable[[list[int]], str] | None = None,
) -> Codec:
    """puz.link URLs of a genre whose puzzle is a grid of numbers (Hitori, Kurodoko, Kurotto):
    the body is a number per cell in reading order, by ``decode``/``encode`` (default pzprjs's
    ``number16``, :func:`~dlxsat.families.codecs.decode_number16`). ``make(cells)`` builds the
    puzzle (it has ``cells``, ``m`` and ``n``); ``family`` names the genre for
    :func:`~dlxsat.families.codecs.url_of`, ``kind`` is the type pzprjs writes, ``names`` those
    the codec answers to.

    >>> from dlxsat.families.kurotto import KurottoPuzzle
    >>> codec = numbers_url_codec(KurottoPuzzle, "kurotto", "kurotto", ("kurotto",))
    >>> puzzle = codec.read("https://puzz.link/p?kurotto/5/5/30m4h6h4m02")  # pzprjs's test
    >>> puzzle.cells[0], codec.write(puzzle, None)
    ((3, 0, -1, -1, -1), 'https://puzz.link/p?kurotto/5/5/30m4h6h4m02\\n')
    >>> codec.write(KurottoPuzzle(((2, -1, -2),)), None)  # pzprjs ends a "." with "/"
    'https://puzz.link/p?kurotto/3/1/2g./\\n'
    """
    from .codecs import decode_number16, encode_number16, make_url, url_of

    decode_body = decode or decode_number16
    encode_body = encode or encode_number16

    def read(text: str) -> Any:
        _, cols, rows, body = url_of(family, text)
        values, _ = decode_body(body, cols * rows)
        return make(tuple(tuple(values[i * cols : (i + 1) * cols]) for i in range(rows)))

    def write(puzzle: Any, answer: Answer | None = None) -> str:
        values = [v for row in puzzle.cells for v in row]
        return make_url(kind, puzzle.n, puzzle.m, encode_body(values))

    return Codec(read=read, write=write, names=names)


def numbers_file_codec(
    make: Callable[[tuple[tuple[int, ...], ...]], Any],
    family: str,
    kind: str,
    names: tuple[str, ...],
) -> Codec:
    """pzprv3 files of a genre whose puzzle is a grid of numbers and whose answer is its shaded
    cells (Hitori, Kurodoko): pzprjs's numbers block (:func:`~dlxsat.families.codecs.read_numbers`),
    then the ``#`` cells; a file of the header alone is pzprjs's empty board. ``make(cells)``
    builds the puzzle (it has ``cells``, ``m`` and ``n``); ``family`` names the genre in errors,
    ``kind`` is the type line pzprjs writes, ``names`` the type lines it reads.

    >>> from dlxsat.families.hitori import HitoriPuzzle
    >>> codec = numbers_file_codec(HitoriPuzzle, "hitori", "hitori", ("hitori",))
    >>> text = codec.write(HitoriPuzzle(((1, 1),)), {"shaded": [[0, 0]]})
    >>> text.split("\\n")
    ['pzprv3', 'hitori', '1', '2', '1 1 ', '# . ', '']
    >>> codec.answer(None, text)
    {'shaded': [[0, 0]]}
    """
    from .codecs import BLANK, number_rows, read_numbers, read_pzprv3, write_block

    def parse(text: str) -> tuple[Any, Answer | None]:
        rows, cols, lines = read_pzprv3(text, family)
        if not any(line.strip() for line in lines):
            return make(((BLANK,) * cols,) * rows), None
        puzzle = make(tuple(tuple(r) for r in read_numbers(lines, 0, rows, cols)))
        shaded = read_ans_block(lines, rows, rows, cols)
        return puzzle, cells_answer(SHADED, shaded) if shaded else None

    def answer(puzzle: Any, text: str) -> Answer | None:
        held, drawn = parse(text)
        if puzzle is not None and held != puzzle:
            raise InputError(f"the pzprv3 file holds another {family} than the puzzle given")
        return drawn

    def write(puzzle: Any, answer: Answer | None = None) -> str:
        m, n = puzzle.m, puzzle.n
        lines = ["pzprv3", kind, str(m), str(n)]
        lines += write_block(number_rows(puzzle.cells))
        lines += write_block(ans_rows(m, n, marked_cells(answer, SHADED)))
        return "\n".join(lines) + "\n"

    return Codec(read=lambda text: parse(text)[0], write=write, answer=answer, names=names)


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
    lines: Sequence[str], start: int, rows: int, cols: int, holes: Collection[Cell] = ()
) -> tuple[list[list[Cell]], set[tuple[int, int]]] | None:
    """The regions and stray borders of pzprjs's answer border blocks (``decodeBorderAns``:
    ``1`` or ``2`` a border, ``-1`` and ``0`` none) at ``lines[start:]``; None when the file
    ends before them or draws no border at all (a file of the puzzle alone). ``holes``:
    cells outside the board, walled off and in no region (Galaxies')."""
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
    if not holes:
        return regions_of_borders(rows, cols, drawn)
    walls = {
        (i + p + 1, j + q + 1)
        for i, j in holes
        for p, q in neighbours(rows, cols, i, j)
        if (p, q) not in holes
    }
    parts, stray = regions_of_borders(rows, cols, drawn | walls)
    return [part for part in parts if part[0] not in holes], stray - walls


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
    answer: Answer, m: int, n: int, holes: Collection[Cell] = ()
) -> tuple[list[list[int]], list[list[Cell]], list[str]]:
    """An answer's partition read for a rule checker: (a region number per cell, -1 where no
    region has it; the regions' cells; complaints about what is not a partition of the board:
    entries that are not cells, cells in two regions or in none, a region in pieces). The
    ``holes`` are cells outside the board (Galaxies'), in no region.

    >>> answer_regions({"regions": [[[0, 0]], [[0, 1]]]}, 1, 2)
    ([[0, 1]], [[(0, 0)], [(0, 1)]], [])
    >>> answer_regions({"regions": [[[0, 0]], [[0, 1]]]}, 1, 2, {(0, 1)})[2]
    ['cell (1, 2) is a hole, in no region']
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
            elif (c[0], c[1]) in holes:
                wrong.append(f"cell {cell_name(c[0], c[1])} is a hole, in no region")
            elif label[c[0]][c[1]] != -1:
                wrong.append(f"cell {cell_name(c[0], c[1])} is in two regions")
            else:
                label[c[0]][c[1]] = len(parts)
                cells.append((c[0], c[1]))
        if cells:
            parts.append(sorted(cells))
    for i in range(m):
        for j in range(n):
            if label[i][j] == -1 and (i, j) not in holes:
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


def divided(cells: Collection[Cell], what: str) -> list[str]:
    """The complaint when ``cells`` (the white ones, the shaded ones) are not connected: their
    pieces, each by its first cell (up to three named).

    >>> divided({(0, 0), (0, 2), (1, 2)}, "white")
    ['the white cells are divided into 2 pieces, at (1, 1) and (1, 3)']
    """
    pieces = blocks(cells)
    if len(pieces) < 2:
        return []
    at = [cell_name(*piece[0]) for piece in pieces[:3]]
    if len(pieces) > 3:
        where = ", ".join(at) + ", ..."
    else:
        where = ", ".join(at[:-1]) + " and " + at[-1]
    return [f"the {what} cells are divided into {len(pieces)} pieces, at {where}"]


def point_place(m: int, n: int, i: int, j: int) -> str:
    """Grid point (i, j) of an m x n board (0 <= i <= m, 0 <= j <= n) as people find it: by a
    cell it is a corner of (1-based).

    >>> point_place(2, 2, 0, 0), point_place(2, 2, 2, 1)
    ('the corner above left of cell (1, 1)', 'the corner below left of cell (2, 2)')
    >>> point_place(2, 2, 2, 2)
    'the corner below right of cell (2, 2)'
    """
    vertical = "above" if i < m else "below"
    side = "left" if j < n else "right"
    return f"the corner {vertical} {side} of cell {cell_name(min(i, m - 1), min(j, n - 1))}"


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
