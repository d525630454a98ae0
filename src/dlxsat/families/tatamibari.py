"""Tatamibari: rectangles, each holding one symbol that says its shape; no four meet at a point.

**Rules.** Divide the grid along its lines into rectangles, each containing exactly one symbol:
``+`` a square, ``-`` a rectangle wider than tall, ``|`` one taller than wide (``?``: a symbol
of unknown kind, any shape). No point of the grid is a corner of four rectangles.

**The puzzle's text** (the corpus's notation, ``SmilingWayne/puzzlekit-dataset``): a line
``ROWS COLS``, then ROWS rows of tokens, ``s`` a square's symbol (``+``), ``h`` a horizontal
one (``-``), ``v`` a vertical one (``|``), ``-`` no symbol (and ``?``)::

    2 3
    s h -
    - - -

**The exact-cover problem**, in Knuth's style (names of
:class:`~dlxsat.families.shading.Names`: cell (i, j) is the point (2i+1, 2j+1), the grid point
(i, j) -- the corner above and left of cell (i, j) -- is (2i, 2j)):

- a primary item per cell;
- a secondary item per inner grid point;
- an option per rectangle that contains exactly one symbol and has its shape: the rectangle's
  cells and, uncolored, the inner grid points that are its top-left and its bottom-right
  corners. Four rectangles meet at a point p exactly when the rectangle on the cell above and
  left of p ends there (its bottom-right corner) and the one on the cell below and right of p
  begins there (its top-left corner): where three rectangles meet, two of them have p as a
  corner, and those lie side by side, never diagonally. So one item per point, covered by
  those two kinds of rectangle only, forbids exactly the crossings. No global rule.

**Formats.** puz.link ``tatamibari/COLS/ROWS/BODY``: a character a symbol, ``3`` ``+``, ``1``
``|``, ``2`` ``-``, ``.`` ``?``, ``g``-``z`` runs of 1-20 empty cells. pzprv3 (``pzprv3``,
``tatamibari``, ROWS, COLS): the symbols (``c`` ``+``, ``a`` ``|``, ``b`` ``-``, ``-`` ``?``,
``.``), then the borders a player drew (as Shikaku's). The answer grid is the corpus's: a
region number per cell.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import accumulate
from typing import Any

from ..errors import InputError
from ..xcc.model import Problem
from . import regions as rg
from . import shading as sh
from .base import Puzzle
from .codecs import B36, block, make_url, read_pzprv3, url_of, write_block
from .loops import cell_name
from .spec import Codec, FamilySpec, Picture

Answer = dict[str, Any]
NAME = TYPE = "tatamibari"
#: The symbols: a square, wider than tall, taller than wide, unknown; and no symbol.
SQUARE, WIDE, TALL, ANY, NONE = "+", "-", "|", "?", "."
SYMBOLS = SQUARE + WIDE + TALL + ANY
#: The corpus's tokens, pzprjs's file letters and URL characters of each symbol.
CORPUS = {"s": SQUARE, "h": WIDE, "v": TALL, "?": ANY, "-": NONE}
FILE = {"c": SQUARE, "b": WIDE, "a": TALL, "-": ANY, ".": NONE}
URL = {"3": SQUARE, "2": WIDE, "1": TALL, ".": ANY}


@dataclass(frozen=True)
class TatamibariPuzzle(Puzzle):
    """A Tatamibari board: ``rows[i][j]`` is a symbol of :data:`SYMBOLS` or :data:`NONE`."""

    rows: tuple[str, ...]

    @property
    def m(self) -> int:
        return len(self.rows)

    @property
    def n(self) -> int:
        return len(self.rows[0])

    def symbols(self) -> list[tuple[int, int, str]]:
        """The symbols, ``(i, j, symbol)`` in reading order."""
        return [
            (i, j, s) for i, row in enumerate(self.rows) for j, s in enumerate(row) if s != NONE
        ]


def fits(symbol: str, h: int, w: int) -> bool:
    """Whether a rectangle of height h and width w has the shape ``symbol`` asks for.

    >>> fits("+", 2, 2), fits("-", 1, 3), fits("|", 1, 3), fits("?", 1, 3)
    (True, True, False, True)
    """
    if symbol == SQUARE:
        return h == w
    if symbol == WIDE:
        return w > h
    if symbol == TALL:
        return h > w
    return True


def _make(rows: list[list[str]], table: dict[str, str], where: str) -> TatamibariPuzzle:
    out = []
    for i, row in enumerate(rows):
        for j, tok in enumerate(row):
            if tok not in table:
                known = ", ".join(sorted(table))
                raise InputError(f"{where}row {i + 1}, cell {j + 1}: {tok!r} is none of {known}")
        out.append("".join(table[t] for t in row))
    return TatamibariPuzzle(tuple(out))


def read(text: str) -> TatamibariPuzzle:
    """The puzzle of the corpus's text.

    >>> read("2 3\\ns h -\\n- v ?\\n").rows
    ('+-.', '.|?')
    """
    _, _, (rows,) = rg.read_grids(text, 1, "tatamibari")
    return _make(rows, CORPUS, "")


def write(puzzle: TatamibariPuzzle) -> str:
    """The corpus's text of the puzzle."""
    back = {v: k for k, v in CORPUS.items()}
    rows = [" ".join(back[s] for s in row) for row in puzzle.rows]
    return f"{puzzle.m} {puzzle.n}\n" + "".join(r + "\n" for r in rows)


def rectangles(puzzle: TatamibariPuzzle) -> list[tuple[int, int, int, int]]:
    """Every rectangle ``(top, left, height, width)`` holding exactly one symbol, of the shape
    it asks for, by the symbols in reading order, then height, width, top, left.

    >>> rectangles(read("1 3\\nh - -\\n"))
    [(0, 0, 1, 2), (0, 0, 1, 3)]
    """
    m, n = puzzle.m, puzzle.n
    s = [[0] * (n + 1)]
    for row in puzzle.rows:
        line = [0, *accumulate(int(c != NONE) for c in row)]
        s.append([a + b for a, b in zip(s[-1], line, strict=True)])
    out: list[tuple[int, int, int, int]] = []
    for ci, cj, symbol in puzzle.symbols():
        for h in range(1, m + 1):
            for w in range(1, n + 1):
                # Every rectangle around (ci, cj) holds one a size smaller around it, so once
                # no h x w one holds a single symbol, no wider one does, nor (at w = 1) a taller.
                alone = [
                    (top, left)
                    for top in range(max(0, ci - h + 1), min(ci, m - h) + 1)
                    for left in range(max(0, cj - w + 1), min(cj, n - w) + 1)
                    if s[top + h][left + w] - s[top][left + w] - s[top + h][left] + s[top][left]
                    == 1
                ]
                if not alone:
                    break
                if fits(symbol, h, w):
                    out.extend((top, left, h, w) for top, left in alone)
            if not alone and w == 1:
                break
    return out


def build(puzzle: TatamibariPuzzle) -> Problem:
    """The exact-cover problem (see the module doc)."""
    m, n = puzzle.m, puzzle.n
    names = sh.Names(m, n)
    b = sh.Builder()
    for i in range(m):
        for j in range(n):
            b.item(names.cell(i, j))
    points: set[tuple[int, int]] = set()
    for top, left, h, w in rectangles(puzzle):
        cells = [names.cell(i, j) for i in range(top, top + h) for j in range(left, left + w)]
        corners = [p for p in ((top, left), (top + h, left + w)) if 0 < p[0] < m and 0 < p[1] < n]
        points.update(corners)
        b.options.append([*cells, *(names.point(*p) for p in corners)])
    b.secondary = [names.point(*p) for p in sorted(points)]
    return b.problem()


def encode(puzzle: TatamibariPuzzle) -> str:
    """The exact-cover data (Knuth's format, the board in its comment lines)."""
    return sh.Builder.text(["tatamibari:", *write(puzzle).splitlines()], build(puzzle))


def decode(puzzle: TatamibariPuzzle, problem: Problem, chosen: Any) -> Answer:
    """The regions: the cells of each chosen rectangle (its primary items)."""
    names = sh.Names(puzzle.m, puzzle.n)
    n_primary = problem.n_primary
    return sh.regions_answer(
        [names.cell_of(problem.items[x].name) for x, _ in problem.options[k] if x < n_primary]
        for k in chosen
    )


def check(puzzle: TatamibariPuzzle, answer: Answer) -> list[str]:
    """The rules, judged on the answer, in pzprjs's order: four regions meeting at a point, a
    region without a symbol, a square's not square, a ``-``'s not wider than tall, a ``|``'s
    not taller than wide, a region with two symbols, one not a rectangle, a border with a dead
    end (drawn inside a region, in a file); before them, an answer that is no partition.

    >>> p = read("1 3\\nh - v\\n")
    >>> check(p, {"regions": [[[0, 0], [0, 1]], [[0, 2]]]})[0]
    'the region at (1, 3) has a | but is not taller than wide (1 x 1)'
    """
    m, n = puzzle.m, puzzle.n
    _, parts, out = sh.answer_regions(answer, m, n)
    if out:
        return out
    out += sh.crossings(m, n, answer)
    found = [[puzzle.rows[i][j] for i, j in cells if puzzle.rows[i][j] != NONE] for cells in parts]
    for cells, symbols in zip(parts, found, strict=True):
        if not symbols:
            out.append(f"the region at {cell_name(*cells[0])} has no symbol")
    shapes = ((SQUARE, "is not a square"), (WIDE, "is not wider than tall"))
    for symbol, what in (*shapes, (TALL, "is not taller than wide")):
        for cells, symbols in zip(parts, found, strict=True):
            known = [s for s in symbols if s != ANY]
            rect, h, w = sh.is_rectangle(cells)
            if rect and known and known[0] == symbol and not fits(symbol, h, w):
                out.append(
                    f"the region at {cell_name(*cells[0])} has a {symbol} but {what} ({h} x {w})"
                )
    for cells, symbols in zip(parts, found, strict=True):
        if len(symbols) > 1:
            out.append(f"the region at {cell_name(*cells[0])} has {len(symbols)} symbols")
    for cells in parts:
        if not sh.is_rectangle(cells)[0]:
            out.append(f"the region at {cell_name(*cells[0])} is not a rectangle")
    return out + sh.dead_ends(m, n, answer)


def render(puzzle: TatamibariPuzzle, answer: Answer | None = None) -> str:
    """The symbols (``.`` none), then the answer's regions as letters.

    >>> print(render(read("1 3\\nh - v\\n"), {"regions": [[[0, 0], [0, 1]], [[0, 2]]]}))
    -.|
    <BLANKLINE>
    aab
    """
    board = "\n".join(puzzle.rows)
    return board + ("\n\n" + sh.render_regions(puzzle.m, puzzle.n, answer) if answer else "")


def draw(canvas: Any, puzzle: TatamibariPuzzle, answer: Answer | None) -> None:
    """The symbols and the answer's regions."""
    glyph = {SQUARE: "+", WIDE: "\u2212", TALL: "|", ANY: "?"}
    canvas.grid(puzzle.m, puzzle.n)
    for i, j, s in puzzle.symbols():
        canvas.text(i, j, glyph[s], bold=True)
    sh.draw_region_answer(canvas, puzzle.m, puzzle.n, answer)


# ---------------------------------------------------------------------------------------------
# Formats


def decode_symbols(body: str, count: int) -> list[str]:
    """pzprjs's ``decodeTatamibari``: a character a symbol, ``g``-``z`` runs of 1-20 empty
    cells (any other character skips two cells, as pzprjs reads it).

    >>> decode_symbols("3g1.", 5)
    ['+', '.', '|', '?', '.']
    """
    out, c = [NONE] * count, 0
    for ch in body:
        if c >= count:
            break
        if ch in URL:
            out[c] = URL[ch]
        elif "g" <= ch <= "z":
            c += int(ch, 36) - 16
        else:
            c += 1
        c += 1
    return out


def encode_symbols(symbols: list[str]) -> str:
    """pzprjs's ``encodeTatamibari`` (:func:`decode_symbols`' text).

    >>> encode_symbols(['+', '.', '|', '?', '.'])
    '3g1.g'
    """
    back = {v: k for k, v in URL.items()}
    out, blanks = [], 0
    for s in symbols:
        if s == NONE:
            blanks += 1
            if blanks == 20:
                out.append(B36[15 + blanks])
                blanks = 0
            continue
        if blanks:
            out.append(B36[15 + blanks])
            blanks = 0
        out.append(back[s])
    if blanks:
        out.append(B36[15 + blanks])
    return "".join(out)


def read_url(text: str) -> TatamibariPuzzle:
    """A puz.link URL: the symbols.

    >>> read_url("https://puzz.link/p?tatamibari/3/1/3g1").rows
    ('+.|',)
    """
    _, cols, rows, body = url_of(NAME, text)
    values = decode_symbols(body, cols * rows)
    return TatamibariPuzzle(tuple("".join(values[i * cols : (i + 1) * cols]) for i in range(rows)))


def write_url(puzzle: TatamibariPuzzle, answer: Answer | None = None) -> str:
    """The puz.link URL, as pzprjs writes it.

    >>> write_url(read("1 3\\ns - v\\n"))
    'https://puzz.link/p?tatamibari/3/1/3g1\\n'
    """
    return make_url(TYPE, puzzle.n, puzzle.m, encode_symbols(list("".join(puzzle.rows))))


def _parse_pzprv3(text: str) -> tuple[TatamibariPuzzle, Answer | None]:
    rows, cols, lines = read_pzprv3(text, NAME)
    puzzle = _make(block(lines, 0, rows, cols, "symbols"), FILE, "the pzprv3 file's ")
    return puzzle, sh.border_answer(lines, rows, rows, cols)


def read_file(text: str) -> TatamibariPuzzle:
    return _parse_pzprv3(text)[0]


def file_answer(puzzle: TatamibariPuzzle | None, text: str) -> Answer | None:
    """The answer a pzprv3 file holds (None: no border drawn); with ``puzzle``, the file must
    hold that puzzle."""
    held, drawn = _parse_pzprv3(text)
    if puzzle is not None and held != puzzle:
        raise InputError(f"the pzprv3 file holds another {NAME} than the puzzle given")
    return drawn


def write_file(puzzle: TatamibariPuzzle, answer: Answer | None = None) -> str:
    """The pzprv3 file as pzprjs writes it, with the answer's borders.

    >>> write_file(read("1 3\\ns - v\\n"), {"regions": [[[0, 0]], [[0, 1], [0, 2]]]}).split("\\n")
    ['pzprv3', 'tatamibari', '1', '3', 'c . a ', '1 0 ', '']
    """
    m, n = puzzle.m, puzzle.n
    back = {v: k for k, v in FILE.items()}
    lines = ["pzprv3", TYPE, str(m), str(n)]
    lines += write_block([[back[s] for s in row] for row in puzzle.rows])
    lines += write_block(sh.border_block_rows(m, n, sh.answer_borders(m, n, answer)))
    return "\n".join(lines) + "\n"


def grid_answer(puzzle: TatamibariPuzzle, text: str) -> Answer:
    """The answer of the corpus's answer grid (a region number per cell)."""
    return sh.read_region_ids(text, puzzle.m, puzzle.n)


def write_grid(puzzle: TatamibariPuzzle, answer: Answer | None = None) -> str:
    """The corpus's problem text, or with ``answer`` its answer grid."""
    return write(puzzle) if answer is None else sh.write_region_ids(puzzle.m, puzzle.n, answer)


SPEC = FamilySpec(
    name=NAME,
    summary="Tatamibari: rectangles shaped by their one symbol, never four at a corner",
    read=read,
    write=write,
    encode=encode,
    decode=decode,
    check=check,
    render=render,
    build=build,
    # Reading, encoding and parsing the corpus's 19_14x14: 468 bytes a character at the
    # peak (tracemalloc), doubled.
    bytes_per_cell=1000,
    formats=("knuth", "puzzlink", "pzprv3", "grid"),
    writes=("knuth", "puzzlink", "pzprv3", "grid"),
    answers=("pzprv3", "grid"),
    codecs={
        "puzzlink": Codec(read=read_url, write=write_url, names=(TYPE,)),
        "pzprv3": Codec(read=read_file, write=write_file, answer=file_answer, names=(TYPE,)),
        "grid": Codec(read=read, write=write_grid, answer=grid_answer),
    },
    picture=Picture(lambda p: (p.m, p.n), draw),
)
