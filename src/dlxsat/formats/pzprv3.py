"""pzprjs's file format (``pzprv3``), read and written, with the answer.

A puz.link URL holds only the problem: pzprjs encodes no answer in its URLs (its URL encoders
write the question's cells alone, and its own tests keep every solved board as a file, never as
a URL). To hand a player a solved board, dlxsat writes pzprjs's file format, which puz.link opens
(File ▸ Open, or by dropping the file on the page) and which keeps the lines drawn. One value a
line (``/`` separates them where the text is written on one line, as pzprjs's tests do):

``pzprv3``, the type (``mashu``, ``slither``, ``sudoku``), the size, then blocks of rows whose
values are separated by spaces (each row ends with a space):

- Masyu: ROWS, COLS; the cells (``.`` none, ``1`` white, ``2`` black); the lines between
  horizontal neighbours (ROWS rows of COLS − 1: ``1`` a line, ``0`` none, ``-1`` a cross);
  the lines between vertical neighbours (ROWS − 1 rows of COLS);
- Slitherlink: ROWS, COLS; the clues (``.`` none, ``0``-``4``, ``-`` a ``?``); the vertical
  grid lines (ROWS rows of COLS + 1); the horizontal ones (ROWS + 1 rows of COLS). Version
  ``pzprv3.1`` adds a block of cell colours after the clues, which is skipped;
- Sudoku: N; the givens (``.`` blank, a number); the answer numbers (``.`` where none).

The standard boxes of pzprjs's Sudoku are those of :func:`dlxsat.formats.puzzlink.box_shape`.
"""

from __future__ import annotations

import re
from typing import Any

from ..answer import Answer
from ..errors import InputError
from ..families import get_spec, sudoku

NAME = "pzprv3"
PER_LINE = False

#: pzprjs's type names of each family; the first is written.
TYPES = {"masyu": ("mashu", "masyu", "pearl"), "slitherlink": ("slither",), "sudoku": ("sudoku",)}
FAMILY_OF_TYPE = {t: f for f, types in TYPES.items() for t in types}
_MAX_CELLS = 1_000_000


def looks_like(family: str, text: str) -> bool:
    """A text whose first value is ``pzprv3`` (or ``pzprv3.1``).

    >>> looks_like("masyu", "pzprv3/mashu/1/2/. 1 /0 /"), looks_like("masyu", "0.\\n.1\\n")
    (True, False)
    """
    return re.match(r"\s*pzprv3(\.\d+)?\s*[/\n]", text) is not None


def _values(text: str) -> list[str]:
    """The file's lines (``/`` or a line end between them), blank ones dropped."""
    return [v.strip() for v in re.split(r"[/\n]", text.replace("\r\n", "\n")) if v.strip()]


def _size(values: list[str], k: int, what: str) -> int:
    if k >= len(values) or not values[k].isdigit():
        raise InputError(f"the pzprv3 file has no {what} (line {k + 1})")
    return int(values[k])


def _block(values: list[str], start: int, rows: int, cols: int, what: str) -> list[list[str]]:
    """``rows`` lines of ``cols`` space-separated values from line ``start`` (0-based)."""
    out = []
    for k in range(start, start + rows):
        if k >= len(values):
            raise InputError(f"the pzprv3 file ends before its {what} (line {k + 1})")
        row = values[k].split()
        if len(row) != cols:
            raise InputError(
                f"line {k + 1} of the pzprv3 file: {len(row)} values in its {what}, not {cols}"
            )
        out.append(row)
    return out


def parse(family: str, text: str) -> tuple[Any, Answer | None]:
    """The puzzle of a pzprv3 file and the answer drawn in it (None when nothing is drawn)."""
    values = _values(text)
    if not values or not re.fullmatch(r"pzprv3(\.\d+)?", values[0]):
        raise InputError("not a pzprv3 file (its first line is not 'pzprv3')")
    version = values[0]
    kind = values[1].lower() if len(values) > 1 else ""
    if kind not in FAMILY_OF_TYPE:
        raise InputError(f"pzprv3 type {kind!r} is not one dlxsat reads ({', '.join(TYPES)})")
    if FAMILY_OF_TYPE[kind] != family:
        raise InputError(f"pzprv3 type {kind!r} is {FAMILY_OF_TYPE[kind]}, not {family}")
    if family == "sudoku":
        return _parse_sudoku(values)
    rows, cols = _size(values, 2, "number of rows"), _size(values, 3, "number of columns")
    at = 4
    if at < len(values) and re.fullmatch(r"[a-z]+", values[at]):
        raise InputError(f"the pzprv3 file has the rule flag {values[at]!r}; dlxsat reads none")
    if not (0 < rows and 0 < cols and rows * cols <= _MAX_CELLS):
        raise InputError(f"the pzprv3 size {rows} x {cols} is not a board")
    cells = _block(values, at, rows, cols, "cells")
    at += rows
    if family == "masyu":
        chars = {".": ".", "1": "0", "2": "1"}
        text_rows = []
        for i, row in enumerate(cells):
            for j, v in enumerate(row):
                if v not in chars:
                    raise InputError(
                        f"line {5 + i} of the pzprv3 file, cell {j + 1}: {v!r} is not . (none), "
                        "1 (white) or 2 (black)"
                    )
            text_rows.append("".join(chars[v] for v in row))
        puzzle = get_spec("masyu").read("".join(r + "\n" for r in text_rows))
        if at >= len(values):
            return puzzle, None  # the problem alone, no line blocks
        across = _block(values, at, rows, cols - 1, "lines between columns")
        down = _block(values, at + rows, rows - 1, cols, "lines between rows")
        edges = _drawn(across, 0, 1) + _drawn(down, 1, 0)
    else:
        text_rows = []
        for i, row in enumerate(cells):
            for j, v in enumerate(row):
                if v not in (".", "-", "0", "1", "2", "3", "4"):
                    raise InputError(
                        f"line {5 + i} of the pzprv3 file, cell {j + 1}: {v!r} is not a clue "
                        "0-4, - or ."
                    )
            text_rows.append("".join("." if v in ".-" else v for v in row))
        puzzle = get_spec("slitherlink").read("".join(r + "\n" for r in text_rows))
        if at >= len(values):
            return puzzle, None
        if version != "pzprv3":
            at += rows  # the cell colours of pzprv3.1
        vertical = _block(values, at, rows, cols + 1, "vertical lines")
        horizontal = _block(values, at + rows, rows + 1, cols, "horizontal lines")
        edges = _drawn(vertical, 1, 0) + _drawn(horizontal, 0, 1)
    answer = {"edges": [list(e) for e in sorted(edges)]} if edges else None
    return puzzle, answer


def _drawn(block: list[list[str]], di: int, dj: int) -> list[tuple[int, int]]:
    """The edges drawn (value ``1``) in a block of lines: the line at (i, j) is the edge
    (2i + di, 2j + dj) of the doubled grid."""
    return [
        (2 * i + di, 2 * j + dj)
        for i, row in enumerate(block)
        for j, v in enumerate(row)
        if v == "1"
    ]


def _states(edges: set[tuple[int, int]], rows: int, cols: int, di: int, dj: int) -> list[list[int]]:
    """The inverse of :func:`_drawn`: 1 where the edge is in ``edges``, else 0."""
    return [[int((2 * i + di, 2 * j + dj) in edges) for j in range(cols)] for i in range(rows)]


def _parse_sudoku(values: list[str]) -> tuple[Any, Answer | None]:
    from .puzzlink import box_shape

    n = _size(values, 2, "size")
    if not 1 < n <= sudoku.MAX_N:
        raise InputError(f"a sudoku is 2 to {sudoku.MAX_N} wide, not {n}")

    def number(v: str, k: int, j: int) -> str:
        if v in (".", "-"):
            return sudoku.BLANK
        if not (v.isdigit() and 1 <= int(v) <= n):
            raise InputError(f"line {k + 1} of the pzprv3 file, cell {j + 1}: {v!r} is not 1-{n}")
        return sudoku.CHARS[int(v)]

    givens = [
        "".join(number(v, 3 + i, j) for j, v in enumerate(row))
        for i, row in enumerate(_block(values, 3, n, n, "givens"))
    ]
    puzzle = sudoku.read(sudoku.write_rows(givens, [sudoku.box_group(n, *box_shape(n))]))
    found = False
    grid = [list(row) for row in givens]
    if len(values) > 3 + n:
        for i, row in enumerate(_block(values, 3 + n, n, n, "answer")):
            for j, v in enumerate(row):
                if v not in (".", "-", "0"):
                    grid[i][j] = number(v, 3 + n + i, j)
                    found = True
    return puzzle, ({"grid": ["".join(r) for r in grid]} if found else None)


def read(family: str, text: str) -> Any:
    """The puzzle of a pzprv3 file (its answer, if any, is :func:`answer`'s).

    >>> read("masyu", "pzprv3/mashu/2/3/. . 1 /2 . . /0 0 /0 0 /0 0 0 /").rows
    ('..0', '1..')
    """
    return parse(family, text)[0]


def answer(family: str, puzzle: Any, text: str) -> Answer | None:
    """The answer drawn in a pzprv3 file, in dlxsat's form (docs/conventions.md §5); None when
    none is. With ``puzzle``, the file must hold that puzzle (an :class:`InputError` if not)."""
    held, drawn = parse(family, text)
    same_puzzle(family, puzzle, held, "pzprv3 file")
    return drawn


def same_puzzle(family: str, puzzle: Any, held: Any, where: str) -> None:
    """Refuse an answer whose text holds another puzzle than ``puzzle`` (None: any)."""
    if puzzle is None:
        return
    spec = get_spec(family)
    if spec.write(held) != spec.write(puzzle):
        raise InputError(f"the {where} holds another {family} than the puzzle given")


def write(family: str, puzzle: Any, solution: Answer | None = None) -> str:
    """The pzprv3 file of a puzzle, with ``solution`` drawn in it when given.

    >>> p = read("masyu", "pzprv3/mashu/2/2/1 . /. 2 /0 /0 /0 0 /")
    >>> write("masyu", p, {"edges": [[0, 1]]}).split("\\n")
    ['pzprv3', 'mashu', '2', '2', '1 . ', '. 2 ', '1 ', '0 ', '0 0 ', '']
    """
    lines = ["pzprv3", TYPES[family][0]]

    def rows_of(table: list[list[Any]]) -> list[str]:
        return ["".join(f"{v} " for v in row) for row in table]

    if family == "sudoku":
        from .oneline import box_cells, partition
        from .puzzlink import box_shape

        n = puzzle.n
        if puzzle.holes or box_cells(puzzle) != partition(sudoku.box_group(n, *box_shape(n))):
            r, c = box_shape(n)
            raise InputError(
                f"a pzprjs sudoku of size {n} has boxes of {r} rows x {c} columns, no holes and "
                "no other regions; this one differs"
            )
        given = [[puzzle.clues.get((i, j), ".") for j in range(n)] for i in range(n)]
        grid = (solution or {}).get("grid") or []
        found = [
            [
                sudoku.CHARS.index(grid[i][j])
                if i < len(grid)
                and j < len(grid[i])
                and (i, j) not in puzzle.clues
                and grid[i][j] in sudoku.CHARS[1 : n + 1]
                else "."
                for j in range(n)
            ]
            for i in range(n)
        ]
        lines += [str(n), *rows_of(given), *rows_of(found)]
        return "\n".join(lines) + "\n"
    m, n = puzzle.m, puzzle.n
    edges = {tuple(e) for e in (solution or {}).get("edges", [])}
    lines += [str(m), str(n)]
    if family == "masyu":
        code = {".": ".", "1": "2"}
        lines += rows_of([[code.get(ch, "1") for ch in row] for row in puzzle.rows])
        lines += rows_of(_states(edges, m, n - 1, 0, 1))
        lines += rows_of(_states(edges, m - 1, n, 1, 0))
    else:
        lines += rows_of([list(row) for row in puzzle.rows])
        lines += rows_of(_states(edges, m, n + 1, 1, 0))
        lines += rows_of(_states(edges, m + 1, n, 0, 1))
    return "\n".join(lines) + "\n"
