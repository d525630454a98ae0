"""Galaxies (Tentaisho, Spiral Galaxies): divide the board into regions symmetric about their
stars.

**Rules.** Stars stand on cell centres, on borders between two cells and on inner grid points.
Divide the board along the grid lines into regions, each holding exactly one star and
symmetric about it under the half turn (a cell's mirror image through the star is in the
region too). No border passes over a star. Black and white stars (pzprjs's) differ only in how
the regions are painted. A board from pzprjs may have holes: cells outside the board.

**The puzzle's text** (the corpus's notation, ``SmilingWayne/puzzlekit-dataset``): a line
``ROWS COLS``, then ROWS rows of a token per cell: ``-`` no star, ``0`` a star at the cell's
centre, ``1`` on its right border, ``2`` on its bottom border, ``3`` at its bottom right
corner (a cell holds one token, so the corpus has no two stars of one cell, no black stars and
no holes)::

    2 3
    0 - 1
    - - -

**The exact-cover problem**, in Knuth's style (names of
:class:`~dlxsat.families.shading.Names`: cell (i, j) is the point (2i+1, 2j+1); a star at
doubled point (x, y), cell centres odd/odd):

- *where a galaxy may reach.* A cell touching a star (holding it, or beside it, or at its
  corner) belongs to that star's galaxy, so to no other; a cell belongs to star s's galaxy
  only if its mirror image through s is a cell of the board, and only if a path of such cells
  joins it to the cells touching s. These conditions are applied until nothing changes: the
  cells left are the galaxy's *possible* cells (about 2.5 galaxies a cell on the corpus's
  largest boards, where every star could reach every cell);
- a primary item per cell, ``p`` and the cell's name, covered once: the cell is in one galaxy;
- an option per star s and pair of possible cells c, c' mirror images through s, or the
  star's own cell alone: ``p13 p1b 13:a 1b:a``, covering both cells and coloring their
  secondary items with the star's color. Covering every cell once makes each galaxy
  symmetric about its star, and holds the cells touching the star;
- the colors are single characters (``0``-``9``, ``a``-``z``, ``A``-``Z``), shared by stars
  whose possible cells are disjoint (a greedy coloring of the stars that share a possible
  cell; the corpus's boards need at most 11): a cell's color then says which galaxy holds it;
- the global rules, one per star: ``|@connected galaxy`` and the star's name, with ``|@roots``
  the cells touching the star: the possible cells with the star's color form pieces that each
  hold a cell touching the star -- the galaxy is connected
  (:func:`~dlxsat.families.shading.cells_rule`). DLX prunes, SAT and CP-SAT add cuts lazily
  (default) or state it eagerly (``--connected-mode eager``).

**Formats.** puz.link ``tentaisho/COLS/ROWS/BODY`` (pzprjs knows no other name): the stars on
the (2 ROWS - 1)(2 COLS - 1) half-cell positions in reading order
(:func:`~dlxsat.families.codecs.decode_dot`), then the holes, a bit a cell
(:func:`~dlxsat.families.codecs.decode_binary`), only when there are some. pzprv3 (``pzprv3``,
``tentaisho``, ROWS, COLS): 2 ROWS - 1 lines of 2 COLS - 1 characters without spaces (``1`` a
white star, ``2`` a black one, ``X`` a hole, ``.``), the borders a player drew (ROWS lines of
COLS - 1 values between horizontal neighbours, ROWS - 1 lines of COLS between vertical ones:
``1`` or ``2`` a border, ``-1`` a player's mark, ``0`` none), then the cells' colors (0-3,
painting only; dlxsat writes each galaxy in its star's color). The answer grid is the
corpus's: a region number per cell.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import InputError
from ..xcc.model import Problem
from . import regions as rg
from . import shading as sh
from .base import Puzzle
from .codecs import (
    decode_binary,
    decode_dot,
    encode_binary,
    encode_dot,
    make_url,
    read_pzprv3,
    url_of,
    write_block,
)
from .loops import cell_name
from .spec import Codec, FamilySpec, Picture

Answer = dict[str, Any]
NAME = "galaxies"
TYPE = "tentaisho"
ALIASES = (TYPE,)
Cell = tuple[int, int]
Point = tuple[int, int]
#: A star's value: pzprjs's white and black stars.
WHITE_STAR, BLACK_STAR = 1, 2
#: The corpus's token of a star by the parity of its doubled point (odd, even).
TOKENS = {(1, 1): "0", (1, 0): "1", (0, 1): "2", (0, 0): "3"}
#: The galaxies' colors, one character each.
COLORS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


@dataclass(frozen=True)
class GalaxiesPuzzle(Puzzle):
    """A Galaxies board of ``rows`` x ``cols`` cells: ``stars`` maps each star's doubled point
    (x, y) (1 <= x <= 2 rows - 1, 1 <= y <= 2 cols - 1; a cell's centre is odd/odd) to its
    value (:data:`WHITE_STAR`, :data:`BLACK_STAR`), in reading order; ``holes`` the cells
    outside the board."""

    rows: int
    cols: int
    stars: tuple[tuple[Point, int], ...]
    holes: frozenset[Cell] = frozenset()

    @property
    def m(self) -> int:
        return self.rows

    @property
    def n(self) -> int:
        return self.cols

    def cells(self) -> list[Cell]:
        """The cells of the board (holes left out), in reading order."""
        return [(i, j) for i in range(self.m) for j in range(self.n) if (i, j) not in self.holes]


def make(rows: int, cols: int, stars: dict[Point, int], holes: frozenset[Cell]) -> GalaxiesPuzzle:
    """A board, its stars checked to lie inside the outline."""
    for x, y in stars:
        if not (1 <= x <= 2 * rows - 1 and 1 <= y <= 2 * cols - 1):
            raise InputError(f"a star at {star_place(rows, cols, (x, y))} lies on the outline")
    return GalaxiesPuzzle(rows, cols, tuple(sorted(stars.items())), holes)


def touching(star: Point) -> list[Cell]:
    """The cells touching a star (holding it, beside it, at its corner).

    >>> touching((1, 1)), touching((2, 3))
    ([(0, 0)], [(0, 1), (1, 1)])
    """
    x, y = star
    return [(i, j) for i in {(x - 1) // 2, x // 2} for j in {(y - 1) // 2, y // 2}]


def mirror(star: Point, cell: Cell) -> Cell:
    """A cell's mirror image through a star (maybe off the board)."""
    return star[0] - 1 - cell[0], star[1] - 1 - cell[1]


def star_place(m: int, n: int, star: Point) -> str:
    """A star's place as people find it.

    >>> star_place(3, 3, (1, 1)), star_place(3, 3, (2, 2))
    ('the centre of cell (1, 1)', 'the corner above left of cell (2, 2)')
    >>> star_place(3, 3, (1, 2))
    'the border between cells (1, 1) and (1, 2)'
    """
    x, y = star
    if x % 2 and y % 2:
        return f"the centre of cell {cell_name(x // 2, y // 2)}"
    if x % 2 or y % 2:
        a, b = touching(star)
        return f"the border between cells {cell_name(*a)} and {cell_name(*b)}"
    return sh.point_place(m, n, x // 2, y // 2)


def read(text: str) -> GalaxiesPuzzle:
    """The puzzle of the corpus's text.

    >>> read("2 3\\n0 3 -\\n- - -\\n").stars
    (((1, 1), 1), ((2, 4), 1))
    """
    m, n, (rows,) = rg.read_grids(text, 1, NAME)
    stars: dict[Point, int] = {}
    for i, row in enumerate(rows):
        for j, tok in enumerate(row):
            if tok in ("-", "."):
                continue
            if tok not in ("0", "1", "2", "3"):
                raise InputError(
                    f"row {i + 1}, cell {j + 1}: {tok!r} is not - (no star) or 0-3 (a star at "
                    "the cell's centre, right border, bottom border, bottom right corner)"
                )
            k = int(tok)
            stars[(2 * i + 1 + k // 2, 2 * j + 1 + k % 2)] = WHITE_STAR
    return make(m, n, stars, frozenset())


def write(puzzle: GalaxiesPuzzle) -> str:
    """The corpus's text of the puzzle (an :class:`InputError` for what it cannot hold: two
    stars of one cell, holes)."""
    m, n = puzzle.m, puzzle.n
    if puzzle.holes:
        raise InputError("the corpus's notation of galaxies has no holes; this board has some")
    grid = [["-"] * n for _ in range(m)]
    for (x, y), _ in puzzle.stars:
        i, j = (x - 1) // 2, (y - 1) // 2
        if grid[i][j] != "-":
            raise InputError(
                f"cell {cell_name(i, j)} has two stars; the corpus's notation holds one a cell"
            )
        grid[i][j] = TOKENS[(x % 2, y % 2)]
    return f"{m} {n}\n" + "".join(" ".join(r) + "\n" for r in grid)


def possible(puzzle: GalaxiesPuzzle) -> list[set[Cell]]:
    """Each star's possible cells (see the module doc), stars in the puzzle's order."""
    board = set(puzzle.cells())
    owner: dict[Cell, list[int]] = {}
    for k, (star, _) in enumerate(puzzle.stars):
        for c in touching(star):
            owner.setdefault(c, []).append(k)
    out = []
    for k, (star, _) in enumerate(puzzle.stars):
        roots = touching(star)
        # (only the cells whose mirror image can be on the board: a box around the star)
        x, y = star
        box = (
            (i, j)
            for i in range(max(0, x - puzzle.m), min(puzzle.m, x))
            for j in range(max(0, y - puzzle.n), min(puzzle.n, y))
        )
        cand = {
            c for c in box if c in board and owner.get(c, [k]) == [k] and mirror(star, c) in board
        }
        while True:
            cand = {c for c in cand if mirror(star, c) in cand}
            if not all(c in cand for c in roots):
                cand = set()
                break
            reached = set(roots)
            stack = list(roots)
            while stack:
                i, j = stack.pop()
                for c in ((i - 1, j), (i + 1, j), (i, j - 1), (i, j + 1)):
                    if c in cand and c not in reached:
                        reached.add(c)
                        stack.append(c)
            if reached == cand:
                break
            cand = reached
        out.append(cand)
    return out


def colors(cells: list[set[Cell]]) -> list[str]:
    """A color per star such that stars sharing a possible cell differ (greedy, the stars of
    most neighbours first)."""
    at: dict[Cell, list[int]] = {}
    for k, part in enumerate(cells):
        for c in part:
            at.setdefault(c, []).append(k)
    near: list[set[int]] = [set() for _ in cells]
    for ks in at.values():
        for k in ks:
            near[k].update(ks)
    for k in range(len(cells)):
        near[k].discard(k)
    out = [""] * len(cells)
    for k in sorted(range(len(cells)), key=lambda k: (-len(near[k]), k)):
        used = {out[o] for o in near[k]}
        free = [c for c in COLORS if c not in used]
        if not free:
            raise InputError(
                f"the galaxies' possible cells overlap too much for {len(COLORS)} colors"
            )
        out[k] = free[0]
    return out


def build(puzzle: GalaxiesPuzzle) -> Problem:
    """The exact-cover problem (see the module doc)."""
    names = sh.Names(puzzle.m, puzzle.n)
    b = sh.Builder()
    if any(c in puzzle.holes for star, _ in puzzle.stars for c in touching(star)):
        # A star on a hole's cell or border has no galaxy: no answer, which an item no option
        # covers says (the others would be solved around it, an answer the checker refuses).
        b.item("hole")
        return b.problem()
    board = puzzle.cells()
    for c in board:
        b.item("p" + names.cell(*c))
    cells = possible(puzzle)
    color = colors(cells)
    for k, (star, _) in enumerate(puzzle.stars):
        for c in sorted(cells[k]):
            d = mirror(star, c)
            if d < c:
                continue
            pair = [c] if d == c else [c, d]
            b.options.append(
                [
                    *("p" + names.cell(*e) for e in pair),
                    *(f"{names.cell(*e)}:{color[k]}" for e in pair),
                ]
            )
    b.secondary = [names.cell(*c) for c in board]
    problem = b.problem()
    rules = [
        sh.cells_rule(
            problem,
            {c: names.cell(*c) for c in cells[k]},
            color[k],
            "galaxy" + names.name(*star),
            roots=touching(star),
        )
        for k, (star, _) in enumerate(puzzle.stars)
        if cells[k]
    ]
    return problem.with_rules(*rules)


def encode(puzzle: GalaxiesPuzzle) -> str:
    """The exact-cover data (Knuth's format, the board in its comment lines)."""
    heading = write(puzzle).splitlines() if _corpus_can_hold(puzzle) else [url(puzzle)]
    return sh.Builder.text(["galaxies:", *heading], build(puzzle))


def _corpus_can_hold(puzzle: GalaxiesPuzzle) -> bool:
    try:
        write(puzzle)
    except InputError:
        return False
    return True


def decode(puzzle: GalaxiesPuzzle, problem: Problem, chosen: Any) -> Answer:
    """The regions: each chosen option's cells go to the star between them."""
    names = sh.Names(puzzle.m, puzzle.n)
    galaxy: dict[Point, list[Cell]] = {}
    for k in chosen:
        pair = [
            names.cell_of(problem.items[x].name[1:]) for x, c in problem.options[k] if c is None
        ]
        (a, b), (c, d) = pair[0], pair[-1]
        galaxy.setdefault((a + c + 1, b + d + 1), []).extend(pair)
    return sh.regions_answer(galaxy.values())


def check(puzzle: GalaxiesPuzzle, answer: Answer) -> list[str]:
    """The rules, judged on the answer, in pzprjs's order: a border over a star (a border
    between its cells, or touching its grid point), a region without a star, one not
    symmetric about its star, one with several stars; before them, an answer that is no
    partition of the board.

    >>> p = read("1 3\\n1 - -\\n")
    >>> check(p, {"regions": [[[0, 0], [0, 1]], [[0, 2]]]})
    ['the region at (1, 3) has no star']
    >>> check(p, {"regions": [[[0, 0], [0, 1], [0, 2]]]})
    ['the region at (1, 1) is not symmetric about its star']
    """
    m, n = puzzle.m, puzzle.n
    label, parts, out = sh.answer_regions(answer, m, n, puzzle.holes)
    if out:
        return out
    borders = sh.answer_borders(m, n, answer) | _hole_borders(puzzle)
    ends = sh.border_ends(m, n, borders)
    valid: list[Point] = []
    for star, _ in puzzle.stars:
        x, y = star
        if any(c in puzzle.holes for c in touching(star)):
            ok = False
        elif x % 2 and y % 2:
            ok = True
        elif x % 2 or y % 2:
            ok = star not in borders
        else:
            ok = ends[(x // 2, y // 2)] == 0
        if ok:
            valid.append(star)
        else:
            out.append(f"a border passes over the star at {star_place(m, n, star)}")
    held: list[list[Point]] = [[] for _ in parts]
    for star in valid:
        i, j = touching(star)[0]
        held[label[i][j]].append(star)
    for cells, stars in zip(parts, held, strict=True):
        if not stars:
            out.append(f"the region at {cell_name(*cells[0])} has no star")
    for k, (cells, stars) in enumerate(zip(parts, held, strict=True)):
        if len(stars) == 1:
            for c in cells:
                p, q = mirror(stars[0], c)
                if not (0 <= p < m and 0 <= q < n) or label[p][q] != k:
                    out.append(
                        f"the region at {cell_name(*cells[0])} is not symmetric about its star"
                    )
                    break
    for cells, stars in zip(parts, held, strict=True):
        if len(stars) > 1:
            out.append(f"the region at {cell_name(*cells[0])} has {len(stars)} stars")
    return out


def _hole_borders(puzzle: GalaxiesPuzzle) -> set[tuple[int, int]]:
    """The borders (midpoints) between a hole and a cell of the board."""
    out = set()
    for i, j in puzzle.holes:
        for p, q in sh.neighbours(puzzle.m, puzzle.n, i, j):
            if (p, q) not in puzzle.holes:
                out.add((i + p + 1, j + q + 1))
    return out


def render(puzzle: GalaxiesPuzzle, answer: Answer | None = None) -> str:
    """The doubled grid: ``o`` a white star, ``*`` a black one, ``#`` a hole, ``.`` cells,
    ``+`` grid points; with an answer, ``|`` and ``-`` its borders.

    >>> print(render(read("1 2\\n1 -\\n"), {"regions": [[[0, 0], [0, 1]]]}))
    .o.
    """
    m, n = puzzle.m, puzzle.n
    stars = dict(puzzle.stars)
    borders = sh.answer_borders(m, n, answer) | _hole_borders(puzzle) if answer else set()
    rows = []
    for x in range(1, 2 * m):
        row = []
        for y in range(1, 2 * n):
            if (x, y) in stars:
                row.append("o" if stars[(x, y)] == WHITE_STAR else "*")
            elif x % 2 and y % 2:
                row.append("#" if (x // 2, y // 2) in puzzle.holes else ".")
            elif (x, y) in borders:
                row.append("|" if x % 2 else "-")
            elif x % 2 or y % 2:
                row.append(" ")
            else:
                row.append("+")
        rows.append("".join(row))
    return "\n".join(rows)


def draw(canvas: Any, puzzle: GalaxiesPuzzle, answer: Answer | None) -> None:
    """The stars (white or black, on their half-cell places), holes grey, and the answer's
    regions."""
    canvas.grid(puzzle.m, puzzle.n)
    for i, j in puzzle.holes:
        canvas.shade(i, j, "#999999")
    sh.draw_region_answer(canvas, puzzle.m, puzzle.n, answer)
    for (x, y), v in puzzle.stars:
        canvas.circle((x - 1) / 2, (y - 1) / 2, v == BLACK_STAR, 0.18, 3)


# ---------------------------------------------------------------------------------------------
# Formats


def read_url(text: str) -> GalaxiesPuzzle:
    """A puz.link URL: the stars (``decodeDot``), then the holes (``decodeEmpty``) if any.

    >>> p = read_url("https://puzz.link/p?tentaisho/5/5/6fl94fi65en8dbf10000")
    >>> len(p.stars), sorted(p.holes)
    (12, [(0, 4)])
    """
    _, cols, rows, body = url_of(NAME, text)
    w = 2 * cols - 1
    values, rest = decode_dot(body, w * (2 * rows - 1))
    stars = {(s // w + 1, s % w + 1): v for s, v in enumerate(values) if v}
    holes: frozenset[Cell] = frozenset()
    if rest:
        bits, _ = decode_binary(rest, rows * cols)
        holes = frozenset((c // cols, c % cols) for c, bit in enumerate(bits) if bit)
    return make(rows, cols, stars, holes)


def write_url(puzzle: GalaxiesPuzzle, answer: Answer | None = None) -> str:
    """The puz.link URL, as pzprjs writes it.

    >>> write_url(read_url("https://puzz.link/p?tentaisho/5/5/6fl94fi65en8dbf10000"))
    'https://puzz.link/p?tentaisho/5/5/6fl94fi65en8dbf10000\\n'
    """
    return url(puzzle) + "\n"


def url(puzzle: GalaxiesPuzzle) -> str:
    m, n = puzzle.m, puzzle.n
    w = 2 * n - 1
    values = [0] * (w * (2 * m - 1))
    for (x, y), v in puzzle.stars:
        values[(x - 1) * w + y - 1] = v
    bits = [int((i, j) in puzzle.holes) for i in range(m) for j in range(n)]
    body = encode_dot(values) + encode_binary(bits, skip_none=True)
    return make_url(TYPE, n, m, body).strip()


def _parse_pzprv3(text: str) -> tuple[GalaxiesPuzzle, Answer | None]:
    rows, cols, lines = read_pzprv3(text, NAME)
    if len(lines) < 2 * rows - 1:
        raise InputError(f"the pzprv3 file ends before its stars ({2 * rows - 1} lines)")
    stars: dict[Point, int] = {}
    holes = set()
    for k in range(2 * rows - 1):
        line = lines[k].strip()
        if len(line) != 2 * cols - 1:
            raise InputError(
                f"line {k + 5} of the pzprv3 file: {len(line)} characters in its stars, "
                f"not {2 * cols - 1}"
            )
        for y, ch in enumerate(line, 1):
            x = k + 1
            if ch in "12":
                stars[(x, y)] = int(ch)
            elif ch == "X" and x % 2 and y % 2:
                holes.add((x // 2, y // 2))
            elif ch not in ".-X":
                raise InputError(
                    f"line {k + 5} of the pzprv3 file: {ch!r} is not 1, 2 (a star), X or ."
                )
    puzzle = make(rows, cols, stars, frozenset(holes))
    at = 2 * rows - 1
    if rows * cols == 1 or len(lines) < at + 2 * rows - 1:
        return puzzle, None
    found = sh.read_border_answer(lines, at, rows, cols, puzzle.holes)
    if found is None:
        return puzzle, None
    parts, stray = found
    answer = sh.regions_answer(parts)
    if stray:
        answer[sh.STRAY] = sorted([x, y] for x, y in stray)
    return puzzle, answer


def read_file(text: str) -> GalaxiesPuzzle:
    return _parse_pzprv3(text)[0]


def file_answer(puzzle: GalaxiesPuzzle | None, text: str) -> Answer | None:
    """The answer a pzprv3 file holds (None: no border drawn); with ``puzzle``, the file must
    hold that puzzle."""
    held, drawn = _parse_pzprv3(text)
    if puzzle is not None and held != puzzle:
        raise InputError(f"the pzprv3 file holds another {NAME} than the puzzle given")
    return drawn


def write_file(puzzle: GalaxiesPuzzle, answer: Answer | None = None) -> str:
    """The pzprv3 file as pzprjs writes it: the stars, the answer's borders (none beside a
    hole: the hole's edge is one), each galaxy painted in its star's color.

    >>> write_file(read("1 2\\n1 -\\n"), {"regions": [[[0, 0], [0, 1]]]}).split("\\n")
    ['pzprv3', 'tentaisho', '1', '2', '.1.', '0 ', '1 1 ', '']
    """
    m, n = puzzle.m, puzzle.n
    stars = dict(puzzle.stars)
    lines = ["pzprv3", TYPE, str(m), str(n)]
    for x in range(1, 2 * m):
        line = ""
        for y in range(1, 2 * n):
            if (x, y) in stars:
                line += str(stars[(x, y)])
            elif x % 2 and y % 2 and (x // 2, y // 2) in puzzle.holes:
                line += "X"
            else:
                line += "."
        lines.append(line)
    borders = sh.answer_borders(m, n, answer) - _hole_borders(puzzle)
    lines += write_block(sh.border_block_rows(m, n, borders))
    lines += write_block(_paint(puzzle, answer))
    return "\n".join(lines) + "\n"


def _paint(puzzle: GalaxiesPuzzle, answer: Answer | None) -> list[list[int]]:
    """pzprjs's colors of the cells: each region its star's value where it holds one valid
    star (pzprjs's ``encolor``), 0 elsewhere."""
    m, n = puzzle.m, puzzle.n
    paint = [[0] * n for _ in range(m)]
    if not answer or check(puzzle, answer):
        return paint
    stars = dict(puzzle.stars)
    for part in answer.get(sh.REGIONS, []):
        cells = [(i, j) for i, j in part]
        inside = set(cells)
        found = [v for star, v in stars.items() if touching(star)[0] in inside]
        for i, j in cells:
            paint[i][j] = found[0] if len(found) == 1 else 0
    return paint


def grid_answer(puzzle: GalaxiesPuzzle, text: str) -> Answer:
    """The answer of the corpus's answer grid (a region number per cell)."""
    return sh.read_region_ids(text, puzzle.m, puzzle.n)


def write_grid(puzzle: GalaxiesPuzzle, answer: Answer | None = None) -> str:
    """The corpus's problem text, or with ``answer`` its answer grid."""
    return write(puzzle) if answer is None else sh.write_region_ids(puzzle.m, puzzle.n, answer)


SPEC = FamilySpec(
    name=NAME,
    aliases=ALIASES,
    summary="Galaxies: regions symmetric about their one star each",
    read=read,
    write=write,
    encode=encode,
    decode=decode,
    check=check,
    render=render,
    build=build,
    rules=("connected",),
    # Reading, encoding and parsing the corpus's 19_20x36: 1157 bytes a character at the peak
    # (tracemalloc), doubled.
    bytes_per_cell=2300,
    formats=("knuth", "puzzlink", "pzprv3", "grid"),
    writes=("knuth", "puzzlink", "pzprv3", "grid"),
    answers=("pzprv3", "grid"),
    codecs={
        "puzzlink": Codec(read=read_url, write=write_url, names=ALIASES),
        "pzprv3": Codec(read=read_file, write=write_file, answer=file_answer, names=ALIASES),
        "grid": Codec(read=read, write=write_grid, answer=grid_answer),
    },
    picture=Picture(lambda p: (p.m, p.n), draw),
)
