"""Penpa+ URLs (``https://swaroopg92.github.io/penpa-edit/#m=edit&p=...``), read and written.

Penpa+ (penpa-edit, first by opt-pan, now swaroopg92) keeps a whole puzzle in its URL: the
parameter ``p`` is base64 of the raw DEFLATE of a text of lines, in which JSON keys are
abbreviated (``zN`` for ``"number"``, ``zY`` for ``"symbol"``, ..., and ``zZ`` for a literal
``z``, so that undoing the abbreviations is one left-to-right pass). The lines used here:

0. the header, comma-separated: grid type (``square``, ``sudoku``, ...), columns, rows
   (with the spaces of line 1), ..., and the sudoku flags: field 11 the diagonal ⟍, field 14
   the diagonal ⟋;
1. the spaces ``[top, bottom, left, right]``: rows and columns of the grid left out of the
   board;
3. the problem (``pu_q``) and 4. the answer (``pu_a``) layers: ``number`` (cell → ``[value,
   style, size]``, size ``"1"`` a full-size number), ``symbol`` (cell → ``[style, name,
   layer]``), ``line`` (``"cell,cell"`` → style: a path through cell centres), ``lineE``
   (``"vertex,vertex"`` → style: a line along the grid), and the variant elements.

A square grid of C × R cells numbers its cells ``(C + 4)·(row + 2) + column + 2`` and its
grid points ``(C + 4)·(R + 4)`` further on, ``(C + 4)·(i + 1) + j + 1`` for point (i, j).

What is read:

- Masyu: circles (``circle_L``, ``circle_M``, ``circle_S``, ``circle_SS``): style 1 or 8
  white, 2 black;
- Slitherlink: full-size numbers 0-4 in cells (``?`` and empty ones are no clue);
- Sudoku (grid type ``sudoku`` or ``square``, n × n): full-size numbers 1-n; the regions are
  those the problem's ``lineE`` lines cut the grid into (a jigsaw sudoku), or the standard
  boxes of the size when no line crosses the grid; the diagonal flags add a group each.

Anything else that carries rules -- a number in a Masyu, a circle in a Slitherlink, thermometers,
arrows, cages, killer sums, shading -- is refused with what it is, rather than silently dropped.
The answer layer is read too (:func:`answer`), so a solved Penpa+ URL can be checked.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

from ..answer import Answer
from ..errors import InputError
from ..families import get_spec, sudoku

NAME = "penpa"
PER_LINE = True

#: The address the URLs written point at (the maintained Penpa+).
URL_BASE = "https://swaroopg92.github.io/penpa-edit/#m=edit&p="

#: Penpa+'s abbreviations (COMPRESS_SUB in its class_p.js): code character after ``z`` → text.
_ABBREVIATIONS = {
    "Z": "z",
    "9": '"qa"',
    "Q": '"pu_q"',
    "A": '"pu_a"',
    "G": '"grid"',
    "M": '"edit_mode"',
    "S": '"surface"',
    "L": '"line"',
    "E": '"lineE"',
    "W": '"wall"',
    "C": '"cage"',
    "N": '"number"',
    "Y": '"symbol"',
    "P": '"special"',
    "B": '"board"',
    "R": '"command_redo"',
    "U": '"command_undo"',
    "8": '"command_replay"',
    "1": '"numberS"',
    "F": '"freeline"',
    "2": '"freelineE"',
    "T": '"thermo"',
    "3": '"arrows"',
    "D": '"direction"',
    "0": '"squareframe"',
    "5": '"polygon"',
    "4": '"deletelineE"',
    "6": '"killercages"',
    "7": '"nobulbthermo"',
    "_": '"__a"',
    "O": "null",
}
_ABBREVIATED = {text: code for code, text in _ABBREVIATIONS.items() if code != "Z"}
_ABBREVIATE = re.compile("z|" + "|".join(re.escape(t) for t in _ABBREVIATED))

#: Circle symbols a Masyu may use, and their styles: Penpa+'s 1 and 8 are white, 2 black.
CIRCLES = ("circle_L", "circle_M", "circle_S", "circle_SS")
WHITE_STYLES, BLACK_STYLES = (1, 8), (2,)
#: Elements of the problem layer that carry rules dlxsat does not know, and their names.
VARIANT_ELEMENTS = {
    "surface": "shaded cells",
    "numberS": "small numbers (killer sums or corner clues)",
    "thermo": "thermometers",
    "nobulbthermo": "thermometers",
    "arrows": "arrows",
    "direction": "direction lines",
    "squareframe": "frames",
    "polygon": "polygons",
    "killercages": "killer cages",
    "cage": "cages",
    "line": "lines",
    "freeline": "free lines",
    "freelineE": "free lines",
    "wall": "walls",
}
_QUERY = re.compile(r"(?:^|[?#&])p=([^&#\s]+)")


def looks_like(family: str, text: str) -> bool:
    """One line with a ``p=`` parameter, from Penpa+ (its address, or an ``m=`` mode).

    >>> looks_like("masyu", "https://swaroopg92.github.io/penpa-edit/#m=edit&p=7Vf")
    True
    >>> looks_like("masyu", "https://puzz.link/p?mashu/6/6/1063000i3000")
    False
    """
    line = text.strip()
    if "\n" in line or not _QUERY.search(line):
        return False
    return "penpa" in line.lower() or bool(re.search(r"(?:^|[?#&])m=(edit|solve)\b", line))


def payload(text: str) -> str:
    """The ``p`` parameter of a Penpa+ URL (or of its ``m=edit&p=...`` fragment)."""
    m = _QUERY.search(text.strip())
    if m is None or "\n" in text.strip():
        raise InputError(
            "not a Penpa+ URL (like https://swaroopg92.github.io/penpa-edit/#m=edit&p=...)"
        )
    return unquote(m[1]) if "%" in m[1] else m[1]


def unabbreviate(text: str) -> str:
    """Undo Penpa+'s abbreviations as Penpa+ does: the pairs of its table in reverse order,
    each replaced everywhere, ``zZ`` (a literal ``z``) last. (URLs made before the ``zZ``
    escape existed hold plain ``z`` characters; this order reads them as Penpa+ does.)

    >>> unabbreviate('{zN:{"28":["4",1,"1"]},zL:{},"x":zO,"puzZzZ":1}')
    '{"number":{"28":["4",1,"1"]},"line":{},"x":null,"puzz":1}'
    """
    for code, full in reversed(_ABBREVIATIONS.items()):
        text = text.replace("z" + code, full)
    return text


def abbreviate(text: str) -> str:
    """Penpa+'s abbreviations, the inverse of :func:`unabbreviate`.

    >>> abbreviate('{"number":{},"puzz":null}')
    '{zN:{},"puzZzZ":zO}'
    """
    return _ABBREVIATE.sub(lambda m: "zZ" if m[0] == "z" else "z" + _ABBREVIATED[m[0]], text)


def decode_payload(p: str) -> str:
    """The text of a ``p`` parameter: base64, then raw DEFLATE (zlib-wrapped is taken too)."""
    p = p.replace("-", "+").replace("_", "/").replace(" ", "+")
    try:
        data = base64.b64decode(p + "=" * (-len(p) % 4), validate=True)
    except (binascii.Error, ValueError):
        raise InputError("the Penpa+ URL's p= parameter is not base64") from None
    for wbits in (-15, 15):
        try:
            raw = zlib.decompress(data, wbits)
            break
        except zlib.error:
            continue
    else:
        raise InputError("the Penpa+ URL's p= parameter is not compressed Penpa+ data")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError("the Penpa+ data is not UTF-8 text") from None


def encode_payload(text: str) -> str:
    """The ``p`` parameter of a text: raw DEFLATE, then base64 (as Penpa+ writes it)."""
    squeeze = zlib.compressobj(9, zlib.DEFLATED, -15)
    data = squeeze.compress(text.encode("utf-8")) + squeeze.flush()
    return base64.b64encode(data).decode("ascii")


@dataclass
class Board:
    """A decoded Penpa+ square board: size, where the board lies in the full grid, the header
    fields and the problem and answer layers."""

    gridtype: str
    rows: int
    cols: int
    top: int
    left: int
    nx0: int
    ny0: int
    header: list[str]
    question: dict[str, Any]
    solution: dict[str, Any]

    def cell(self, index: Any, what: str) -> tuple[int, int]:
        """The board cell (row, column) of a Penpa+ cell index; an error for anything else."""
        k = _int(index, what)
        if not 0 <= k < self.nx0 * self.ny0:
            raise InputError(f"the Penpa+ {what} at {k} is not in a cell")
        r, c = divmod(k, self.nx0)
        r, c = r - 2 - self.top, c - 2 - self.left
        if not (0 <= r < self.rows and 0 <= c < self.cols):
            raise InputError(f"the Penpa+ {what} at {k} is outside the board")
        return r, c

    def point(self, index: Any, what: str) -> tuple[int, int]:
        """The grid point (row, column) of a Penpa+ vertex index."""
        k = _int(index, what) - self.nx0 * self.ny0
        if not 0 <= k < self.nx0 * self.ny0:
            raise InputError(f"the Penpa+ {what} at {k} is not a grid point")
        i, j = divmod(k, self.nx0)
        i, j = i - 1 - self.top, j - 1 - self.left
        if not (0 <= i <= self.rows and 0 <= j <= self.cols):
            raise InputError(f"the Penpa+ {what} at {k} is outside the board")
        return i, j

    def flag(self, k: int) -> bool:
        return len(self.header) > k and self.header[k].strip() == "1"


def _int(value: Any, what: str) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise InputError(f"the Penpa+ {what} position {value!r} is not a number") from None


def parse(text: str) -> Board:
    """Decode a Penpa+ URL into its :class:`Board` (square grids only)."""
    lines = unabbreviate(decode_payload(payload(text))).split("\n")
    header = lines[0].split(",")
    if header and header[0][:1].isdigit():
        raise InputError("a Penpa+ URL of the first version (before 2020) is not read")
    gridtype = header[0]
    if gridtype not in ("square", "sudoku"):
        raise InputError(f"a Penpa+ {gridtype!r} grid is not read (square and sudoku grids are)")
    if len(header) < 3 or len(lines) < 5:
        raise InputError("the Penpa+ data is cut short")
    try:
        cols, rows = int(header[1]), int(header[2])
        space = json.loads(lines[1]) if lines[1].strip() else [0, 0, 0, 0]
        top, bottom, left, right = (int(v) for v in space)
        question = json.loads(lines[3]) if lines[3].strip() else {}
        solution = json.loads(lines[4]) if lines[4].strip() else {}
    except (ValueError, TypeError):
        raise InputError("the Penpa+ data is damaged (its size or layers do not parse)") from None
    if not (isinstance(question, dict) and isinstance(solution, dict)):
        raise InputError("the Penpa+ data is damaged (its layers are not objects)")
    board_rows, board_cols = rows - top - bottom, cols - left - right
    if not (0 < board_rows <= 1000 and 0 < board_cols <= 1000):
        raise InputError(f"the Penpa+ board of {board_cols} x {board_rows} cells is not a board")
    return Board(
        gridtype, board_rows, board_cols, top, left, cols + 4, rows + 4, header, question, solution
    )


def _entries(layer: dict[str, Any], key: str) -> dict[str, Any]:
    value = layer.get(key) or {}
    return value if isinstance(value, dict) else {}


def _refuse_variants(board: Board, allowed: Iterable[str]) -> None:
    present = [
        name
        for key, name in VARIANT_ELEMENTS.items()
        if key not in allowed and board.question.get(key)
    ]
    if present:
        raise InputError(
            "the Penpa+ puzzle has "
            + ", ".join(dict.fromkeys(present))
            + ": variant rules dlxsat does not read"
        )


def read(family: str, text: str) -> Any:
    """The puzzle of a Penpa+ URL.

    >>> url = write("masyu", get_spec("masyu").read("..0\\n01.\\n"))
    >>> read("masyu", url).rows
    ('..0', '01.')
    """
    board = parse(text)
    if family == "masyu":
        return _read_masyu(board)
    if family == "slitherlink":
        return _read_slitherlink(board)
    return _read_sudoku(board)


def _grid(board: Board, fill: str = ".") -> list[list[str]]:
    return [[fill] * board.cols for _ in range(board.rows)]


def _read_masyu(board: Board) -> Any:
    _refuse_variants(board, ())
    if any(_full_size(v) for v in _entries(board.question, "number").values()):
        raise InputError("the Penpa+ Masyu has numbers, which are no Masyu clues")
    grid = _grid(board)
    for k, value in _entries(board.question, "symbol").items():
        if not (isinstance(value, list) and len(value) >= 2 and value[1] in CIRCLES):
            raise InputError(f"the Penpa+ Masyu has a symbol {value!r} that is not a circle")
        r, c = board.cell(k, "circle")
        if value[0] in WHITE_STYLES:
            grid[r][c] = "0"
        elif value[0] in BLACK_STYLES:
            grid[r][c] = "1"
        else:
            raise InputError(
                f"the Penpa+ circle at row {r + 1}, column {c + 1} has style {value[0]!r}: "
                "neither white (1, 8) nor black (2)"
            )
    return get_spec("masyu").read("".join("".join(row) + "\n" for row in grid))


def _full_size(value: Any) -> bool:
    return isinstance(value, list) and len(value) >= 3 and str(value[2]) == "1"


def _numbers(board: Board, what: str) -> dict[tuple[int, int], str]:
    """The full-size numbers of the problem layer, by cell (``?`` and blanks left out)."""
    out = {}
    for k, value in _entries(board.question, "number").items():
        if not _full_size(value):
            continue  # pencil marks and corner notes: not clues
        text = str(value[0]).strip()
        if text in ("", "?"):
            continue
        out[board.cell(k, what)] = text
    return out


def _read_slitherlink(board: Board) -> Any:
    _refuse_variants(board, ())
    if _entries(board.question, "symbol"):
        raise InputError("the Penpa+ Slitherlink has symbols, which are no Slitherlink clues")
    grid = _grid(board)
    for (r, c), text in _numbers(board, "number").items():
        if text not in ("0", "1", "2", "3", "4"):
            raise InputError(
                f"the Penpa+ Slitherlink has {text!r} at row {r + 1}, column {c + 1}, not 0-4"
            )
        grid[r][c] = text
    return get_spec("slitherlink").read("".join("".join(row) + "\n" for row in grid))


def _read_sudoku(board: Board) -> Any:
    _refuse_variants(board, ())
    n = board.rows
    if board.cols != n:
        raise InputError(f"a sudoku is square, not {board.cols} x {board.rows}")
    if not 1 < n <= sudoku.MAX_N:
        raise InputError(f"a sudoku is 2 to {sudoku.MAX_N} wide, not {n}")
    grid = _grid(board, sudoku.BLANK)
    for (r, c), text in _numbers(board, "number").items():
        if not (text.isdigit() and 1 <= int(text) <= n):
            raise InputError(
                f"the Penpa+ sudoku has {text!r} at row {r + 1}, column {c + 1}, not 1-{n}"
            )
        grid[r][c] = sudoku.CHARS[int(text)]
    groups = [_regions(board, n)]
    if board.flag(11):
        groups.append(["".join("a" if j == i else "." for j in range(n)) for i in range(n)])
    if board.flag(14):
        groups.append(["".join("b" if j == n - 1 - i else "." for j in range(n)) for i in range(n)])
    givens = ["".join(row) for row in grid]
    return sudoku.read(sudoku.write_rows(givens, groups))


def _walls(board: Board) -> set[tuple[tuple[int, int], tuple[int, int]]]:
    """The pairs of neighbouring cells that a ``lineE`` line of the problem separates."""
    walls = set()
    for key in _entries(board.question, "lineE"):
        ends = str(key).split(",")
        if len(ends) != 2:
            continue
        (i1, j1), (i2, j2) = sorted(board.point(e, "region line") for e in ends)
        if i1 == i2 and j2 == j1 + 1 and 0 < i1 < board.rows:  # horizontal, inside
            walls.add(((i1 - 1, j1), (i1, j1)))
        elif j1 == j2 and i2 == i1 + 1 and 0 < j1 < board.cols:  # vertical, inside
            walls.add(((i1, j1 - 1), (i1, j1)))
    return walls


def _regions(board: Board, n: int) -> list[str]:
    """The box-definition group: the regions the lines cut the grid into, or standard boxes."""
    walls = _walls(board)
    if not walls:
        shape = sudoku.standard_box_shape(n)
        if shape is None:
            raise InputError(f"an n={n} sudoku has no standard boxes and no region lines")
        return sudoku.box_group(n, *shape)
    region = [[-1] * n for _ in range(n)]
    count = 0
    for i in range(n):
        for j in range(n):
            if region[i][j] >= 0:
                continue
            stack, region[i][j] = [(i, j)], count
            while stack:
                a, b = stack.pop()
                for c, d in ((a + 1, b), (a - 1, b), (a, b + 1), (a, b - 1)):
                    pair = ((a, b), (c, d)) if (a, b) < (c, d) else ((c, d), (a, b))
                    if 0 <= c < n and 0 <= d < n and region[c][d] < 0 and pair not in walls:
                        region[c][d] = count
                        stack.append((c, d))
            count += 1
    sizes = [sum(row.count(k) for row in region) for k in range(count)]
    if count != n or set(sizes) != {n}:
        raise InputError(
            f"the Penpa+ sudoku's region lines cut it into {count} regions of "
            f"{sorted(set(sizes))} cells, not {n} regions of {n}"
        )
    return ["".join(sudoku.CHARS[k] for k in row) for row in region]


# ---------------------------------------------------------------------------------------------
# The answer layer


def answer(family: str, puzzle: Any, text: str) -> Answer | None:
    """The answer a Penpa+ URL holds in its answer layer, in dlxsat's form (docs/conventions.md
    §5); None when the layer is empty. With ``puzzle``, the URL must hold that puzzle. Masyu:
    the ``line`` paths between cell centres; Slitherlink: the ``lineE`` lines along the grid;
    Sudoku: the grid, clues and answer numbers together."""
    from .pzprv3 import same_puzzle

    same_puzzle(family, puzzle, read(family, text), "Penpa+ URL")
    board = parse(text)
    if family == "masyu":
        edges = set()
        for key in _entries(board.solution, "line"):
            a, b = (board.cell(e, "line end") for e in str(key).split(",")[:2])
            edges.add((a[0] + b[0], a[1] + b[1]))  # the midpoint of two cells, doubled
        return {"edges": [list(e) for e in sorted(edges)]} if edges else None
    if family == "slitherlink":
        edges = set()
        for key in _entries(board.solution, "lineE"):
            a, b = (board.point(e, "line end") for e in str(key).split(",")[:2])
            edges.add((a[0] + b[0], a[1] + b[1]))
        return {"edges": [list(e) for e in sorted(edges)]} if edges else None
    if family == "sudoku":
        grid = _grid(board, sudoku.BLANK)
        found = False
        for layer in (board.question, board.solution):
            for k, value in _entries(layer, "number").items():
                if _full_size(value) and str(value[0]).strip().isdigit():
                    r, c = board.cell(k, "number")
                    grid[r][c] = sudoku.CHARS[int(value[0])]
                    found |= layer is board.solution
        return {"grid": ["".join(row) for row in grid]} if found else None
    raise InputError(f"the penpa format has no {family} answer")


# ---------------------------------------------------------------------------------------------
# Writing


def _empty_layer() -> dict[str, Any]:
    """A layer with every element Penpa+ 3 writes, empty (as in its own URLs)."""
    layer: dict[str, Any] = {
        "command_redo": {"__a": []},
        "command_undo": {"__a": []},
        "command_replay": {"__a": []},
    }
    for key in ("surface", "number", "numberS", "symbol", "freeline", "freelineE"):
        layer[key] = {}
    for key in ("thermo", "arrows", "direction", "squareframe", "polygon"):
        layer[key] = []
    for key in ("line", "lineE", "wall", "cage", "deletelineE"):
        layer[key] = {}
    layer["killercages"], layer["nobulbthermo"] = [], []
    return layer


def write(family: str, puzzle: Any, solution: Answer | None = None) -> str:
    """A Penpa+ URL of a puzzle (and, when given, its ``solution`` in the answer layer, so that
    Penpa+ shows the solved board): one line.

    A sudoku's regions (standard boxes or a jigsaw's) are drawn as Penpa+ draws boxes, thick
    ``lineE`` lines, and an X-sudoku's diagonals are its header flags.
    """
    rows: int
    cols: int
    if family == "sudoku":
        rows = cols = puzzle.n
    else:
        rows, cols = puzzle.m, puzzle.n
    nx0, ny0 = cols + 4, rows + 4

    def cell(r: int, c: int) -> int:
        return nx0 * (r + 2) + c + 2

    def point(i: int, j: int) -> int:
        return nx0 * ny0 + nx0 * (i + 1) + j + 1

    q, a = _empty_layer(), _empty_layer()
    gridtype, tags, diagonals = "square", [family], ["0", "0"]
    if family == "masyu":
        for r, row in enumerate(puzzle.rows):
            for c, ch in enumerate(row):
                if ch != ".":
                    q["symbol"][str(cell(r, c))] = [2 if ch == "1" else 1, "circle_L", 1]
        for x, y in (solution or {}).get("edges", []):
            ends = sorted((cell(x // 2, y // 2), cell((x + 1) // 2, (y + 1) // 2)))
            a["line"][f"{ends[0]},{ends[1]}"] = 3
    elif family == "slitherlink":
        for r, row in enumerate(puzzle.rows):
            for c, ch in enumerate(row):
                if ch != ".":
                    q["number"][str(cell(r, c))] = [int(ch), 1, "1"]
        for x, y in (solution or {}).get("edges", []):
            ends = sorted((point(x // 2, y // 2), point((x + 1) // 2, (y + 1) // 2)))
            a["lineE"][f"{ends[0]},{ends[1]}"] = 3
    else:
        gridtype, tags = "sudoku", ["classic"]
        n = puzzle.n
        if puzzle.holes:
            raise InputError("a Penpa+ sudoku has no holes ('#' cells)")
        diagonals = _sudoku_boxes(puzzle, q, point)
        for (r, c), d in sorted(puzzle.clues.items()):
            q["number"][str(cell(r, c))] = [str(d), 1, "1"]
        grid = (solution or {}).get("grid") or []
        for r, line in enumerate(grid[:n]):
            for c, ch in enumerate(line[:n]):
                if (r, c) not in puzzle.clues and ch in sudoku.CHARS[1 : n + 1]:
                    a["number"][str(cell(r, c))] = [str(sudoku.CHARS.index(ch)), 2, "1"]
    size = 38
    header = [gridtype, str(cols), str(rows), str(size), "0", "1", "1"]
    header += [str((cols + 1) * size), str((rows + 1) * size)]
    centre = cell(rows // 2, cols // 2)
    header += [str(centre), str(centre), diagonals[0], "0", "0", diagonals[1]]
    header += ["Title: ", "Author: ", "", "", "OFF", "false"]
    cells = [cell(r, c) for r in range(rows) for c in range(cols)]
    centres = [cells[0]] + [b - a for a, b in zip(cells, cells[1:], strict=False)]
    # Penpa+'s editing modes, as its own URLs hold them (the problem and answer layers each
    # remember a tool and a style; Penpa+ fails to load a URL without them).
    tools = {
        "surface": ["", 1],
        "line": ["1", 2],
        "lineE": ["1", 2],
        "wall": ["", 2],
        "cage": ["1", 10],
        "number": ["1", 1],
        "symbol": ["circle_L", 1],
        "special": ["thermo", ""],
        "board": ["", ""],
        "move": ["1", ""],
        "combi": ["battleship", ""],
        "sudoku": ["1", 1],
    }
    answer_tools = {**tools, "line": ["1", 3], "lineE": ["1", 3], "wall": ["", 3]}
    answer_tools.update(number=["1", 2], sudoku=["1", 9])
    mode = {
        "qa": "pu_q",
        "grid": ["1", "2", "1"],
        "pu_q": {"edit_mode": "surface", **tools},
        "pu_a": {"edit_mode": "surface", **answer_tools},
    }
    lines = [
        ",".join(header),
        "[0,0,0,0]",
        json.dumps(mode, separators=(",", ":")),
        json.dumps(q, separators=(",", ":")),
        json.dumps(a, separators=(",", ":")),
        json.dumps(centres, separators=(",", ":")),
        '["Surface","Composite"]',
        "{}",
        '"x"',
        '"x"',
        "[3,2,1]",
        json.dumps(mode, separators=(",", ":")),
        '"x"',
        "0",
        json.dumps(_empty_layer(), separators=(",", ":")),
        json.dumps(_empty_layer(), separators=(",", ":")),
        "{}",
        json.dumps(tags),
        "",
    ]
    return URL_BASE + encode_payload(abbreviate("\n".join(lines))) + "\n"


def _sudoku_boxes(puzzle: Any, q: dict[str, Any], point: Any) -> list[str]:
    """Draw the regions into ``q``'s ``lineE`` (thick lines between cells of different
    regions, as Penpa+ draws boxes) and return the two diagonal flags; an error for boxes
    Penpa+ cannot show this way (regions that overlap or leave cells out)."""
    from .oneline import box_cells

    n = puzzle.n
    diagonal = frozenset((i, i) for i in range(n))
    anti = frozenset((i, n - 1 - i) for i in range(n))
    regions = box_cells(puzzle)
    flags = ["1" if diagonal in regions else "0", "1" if anti in regions else "0"]
    rest = regions - {diagonal, anti}
    where = {cell: k for k, region in enumerate(rest) for cell in region}
    if len(rest) != n or len(where) != n * n or any(len(r) != n for r in rest):
        raise InputError(
            "a Penpa+ sudoku is written with n regions of n cells (and the diagonals) only"
        )
    # The diagonals as Penpa+ draws them when the grid is made (style 12), besides the flags.
    for i in range(n):
        if flags[0] == "1":
            q["lineE"][f"{point(i, i)},{point(i + 1, i + 1)}"] = 12
        if flags[1] == "1":
            q["lineE"][f"{point(i + 1, n - i - 1)},{point(i, n - i)}"] = 12
    for i in range(n):
        for j in range(n):
            if i + 1 < n and where[i, j] != where[i + 1, j]:
                q["lineE"][f"{point(i + 1, j)},{point(i + 1, j + 1)}"] = 2
            if j + 1 < n and where[i, j] != where[i, j + 1]:
                q["lineE"][f"{point(i, j + 1)},{point(i + 1, j + 1)}"] = 2
    return flags
