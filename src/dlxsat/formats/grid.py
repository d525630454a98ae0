"""Spaced grid text, as copied from puzzle sites: one row a line, cells separated by spaces.

An optional first line ``ROWS COLS`` gives the size. Cells are ``w``/``b``/``-`` for Masyu (white,
black, none; also ``1`` white and ``2`` black, as Janko's Masyu are written in the public
puzzlekit data set), a clue ``0``-``4`` or ``-`` for Slitherlink, a number ``1``-``n`` or ``-``
(also ``.``, ``0``) for Sudoku. A Sudoku has the standard boxes of its size, unless n more lines of
region numbers follow the grid (a jigsaw Sudoku: each region one box). This is how the public
puzzlekit corpus (``SmilingWayne/puzzlekit-dataset``) writes its problems; its answers are
grids too, read and written here (:func:`answer`, :func:`write_answer`).
"""

from __future__ import annotations

import re
from typing import Any

from ..answer import Answer
from ..errors import InputError
from ..families import get_spec, sudoku
from .oneline import has_standard_boxes, partition

NAME = "grid"
PER_LINE = False

_HEADER = re.compile(r"\s*(\d+)\s+(\d+)\s*")
#: What a cell token of each family becomes in Knuth's format.
_CELLS = {
    # 1 = white, 2 = black: the circles' order in pzprjs and in puzzlekit's Janko data.
    "masyu": {"w": "0", "b": "1", "1": "0", "2": "1", "-": ".", ".": "."},
    "slitherlink": {**{c: c for c in "01234"}, "-": ".", ".": "."},
}
_BACK = {"masyu": {"0": "w", "1": "b", ".": "-"}, "slitherlink": {".": "-"}}


def _lines(text: str) -> list[str]:
    return [line for line in text.replace("\r\n", "\n").split("\n") if line.strip()]


def looks_like(family: str, text: str) -> bool:
    """A ``ROWS COLS`` header, or rows whose cells are separated by spaces.

    Knuth's Masyu and Slitherlink rows never hold a space; his Sudoku rows may (a space is a
    blank cell there), so for Sudoku every line must be a list of numbers, ``-`` or ``.``.

    >>> looks_like("masyu", "w - b\\n- - -\\n"), looks_like("masyu", "0.1\\n...\\n")
    (True, False)
    >>> looks_like("sudoku", "4 - - 3\\n- 3 - -\\n- - 1 -\\n1 - - 2\\n")
    True
    """
    if "\t" in text:
        return False  # no format uses tabs: leave them to Knuth's readers, which name them
    lines = _lines(text)
    if not lines:
        return False
    if _HEADER.fullmatch(lines[0]):
        return True
    spaced = [len(line.split()) > 1 for line in lines]
    if family != "sudoku":
        return any(spaced)
    return all(spaced) and all(
        re.fullmatch(r"\d+|[-.]", tok) for line in lines for tok in line.split()
    )


def _size(lines: list[str]) -> tuple[tuple[int, int] | None, list[str]]:
    m = _HEADER.fullmatch(lines[0]) if lines else None
    if m:
        return (int(m[1]), int(m[2])), lines[1:]
    return None, lines


def read(family: str, text: str) -> Any:
    """The puzzle of a spaced grid; errors name the line (counting the header) and column.

    >>> read("masyu", "2 3\\nw - b\\n- - -\\n").rows
    ('0.1', '...')
    >>> read("sudoku", "1 - - -\\n- - - -\\n- - - -\\n- - - -\\n").groups[0]
    ('0011', '0011', '2233', '2233')
    """
    lines = _lines(text)
    size, body = _size(lines)
    first = len(lines) - len(body) + 1  # line number of the first row
    if not body:
        raise InputError("the grid has no rows")
    rows = [line.split() for line in body]
    width = size[1] if size else len(rows[0])
    height = size[0] if size else (len(rows) if family != "sudoku" else width)
    if family == "sudoku" and height != width:
        raise InputError(f"line {first - 1}: a sudoku is square, not {height} x {width}")
    for k, row in enumerate(rows[:height]):
        if len(row) != width:
            raise InputError(f"line {first + k}: {len(row)} cells, but the grid is {width} wide")
    if len(rows) < height:
        raise InputError(f"the grid has {len(rows)} rows, not {height}")
    extra = rows[height:]
    if family != "sudoku":
        if extra:
            raise InputError(f"line {first + height}: more rows than the {height} of the grid")
        table = _CELLS[family]
        out = []
        for k, row in enumerate(rows):
            cells = []
            for c, tok in enumerate(row, 1):
                if tok.lower() not in table:
                    allowed = (
                        "w or 1 (white), b or 2 (black), - or . (none)"
                        if family == "masyu"
                        else "0-4 or -"
                    )
                    raise InputError(f"line {first + k}, cell {c}: {tok!r} is not {allowed}")
                cells.append(table[tok.lower()])
            out.append("".join(cells))
        return get_spec(family).read("".join(r + "\n" for r in out))
    return _read_sudoku(rows[:height], extra, first)


def _read_sudoku(rows: list[list[str]], extra: list[list[str]], first: int) -> Any:
    n = len(rows)
    if n > sudoku.MAX_N:
        raise InputError(f"line {first}: a sudoku is at most {sudoku.MAX_N} wide, not {n}")
    givens = []
    for k, row in enumerate(rows):
        cells = []
        for c, tok in enumerate(row, 1):
            if tok in ("-", ".", "0"):
                cells.append(sudoku.BLANK)
            elif tok.isdigit() and 1 <= int(tok) <= n:
                cells.append(sudoku.CHARS[int(tok)])
            else:
                raise InputError(f"line {first + k}, cell {c}: {tok!r} is not a number 1-{n} or -")
        givens.append("".join(cells))
    if not extra:
        shape = sudoku.standard_box_shape(n)
        if shape is None:
            raise InputError(
                f"an n={n} sudoku has no standard boxes: give n lines of region numbers after "
                "the grid"
            )
        return sudoku.read(sudoku.write_rows(givens, [sudoku.box_group(n, *shape)]))
    at = first + n
    if len(extra) != n:
        raise InputError(f"line {at}: {len(extra)} lines of regions, but the grid needs {n}")
    names: dict[str, int] = {}
    group = []
    for k, row in enumerate(extra):
        if len(row) != n:
            raise InputError(f"line {at + k}: {len(row)} regions, but the grid is {n} wide")
        for c, tok in enumerate(row, 1):
            if tok not in names:
                if len(names) == sudoku.MAX_BOXES:
                    raise InputError(
                        f"line {at + k}, cell {c}: more than {sudoku.MAX_BOXES} regions"
                    )
                names[tok] = len(names)
        group.append("".join(sudoku.CHARS[names[tok]] for tok in row))
    for tok, x in names.items():
        size = sum(r.count(sudoku.CHARS[x]) for r in group)
        if size != n:
            raise InputError(f"region {tok} has {size} cells, but every region needs n={n}")
    return sudoku.read(sudoku.write_rows(givens, [group]))


def write(family: str, puzzle: Any, answer: Answer | None = None) -> str:
    """The spaced grid with its ``ROWS COLS`` header (and region lines for a jigsaw Sudoku);
    with ``answer``, the answer grid in the corpus's notation instead (:func:`write_answer`).

    >>> print(write("masyu", read("masyu", "w - b\\n- - -\\n")), end="")
    2 3
    w - b
    - - -
    """
    if answer is not None:
        return write_answer(family, puzzle, answer)
    if family != "sudoku":
        back = _BACK[family]
        lines = [f"{puzzle.m} {puzzle.n}"]
        lines += [" ".join(back.get(c, c) for c in row) for row in puzzle.rows]
        return "\n".join(lines) + "\n"
    n = puzzle.n
    if puzzle.holes:
        raise InputError("the grid format has no holes ('#' cells)")
    lines = [f"{n} {n}"]
    lines += [
        " ".join("-" if c == sudoku.BLANK else str(sudoku.CHARS.find(c)) for c in row)
        for row in puzzle.givens
    ]
    if has_standard_boxes(puzzle):
        return "\n".join(lines) + "\n"
    if len(puzzle.groups) != 1 or {len(c) for c in partition(list(puzzle.groups[0]))} != {n}:
        raise InputError(
            "the grid format gives either the standard boxes or one set of n regions of n cells"
        )
    group = puzzle.groups[0]
    lines += [" ".join(str(sudoku.CHARS.find(c)) for c in row) for row in group]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------------
# Answers in the corpus's notation: the answer grid below a ``ROWS COLS`` header.
#
# Masyu: a cell on the loop is written as the sides the loop leaves it by, in the order n, s,
# e, w (``ns``, ``ew``, ``ne``, ``nw``, ``se``, ``sw``); a cell off it ``-``. Slitherlink: a cell
# inside the loop ``x``, outside ``-`` (the loop is the boundary between them). Sudoku: the
# digits, as numbers.


def _answer_rows(text: str, rows: int, cols: int) -> list[list[str]]:
    """The ``rows`` x ``cols`` tokens of an answer grid (a ``ROWS COLS`` header, if any, must
    agree); an :class:`InputError` naming the line for a grid of another shape."""
    lines = _lines(text)
    size, body = _size(lines)
    first = len(lines) - len(body) + 1
    if size is not None and size != (rows, cols):
        raise InputError(f"line 1: the answer is {size[0]} x {size[1]}, the puzzle {rows} x {cols}")
    if len(body) < rows:
        raise InputError(f"the answer has {len(body)} rows, not {rows}")
    out = []
    for k, line in enumerate(body[:rows]):
        toks = line.split()
        if len(toks) != cols:
            raise InputError(f"line {first + k}: {len(toks)} cells, but the answer is {cols} wide")
        out.append(toks)
    return out


def answer(family: str, puzzle: Any, text: str) -> Answer:
    """The answer of an answer grid in the corpus's notation, in dlxsat's form (the edges of
    the loop, or the digits); an :class:`InputError` for a token that means nothing there.

    >>> p = read("masyu", "2 2\\n- -\\n- -\\n")
    >>> answer("masyu", p, "2 2\\nse sw\\nne nw\\n")
    {'edges': [[0, 1], [1, 0], [1, 2], [2, 1]]}
    >>> answer("slitherlink", read("slitherlink", "2 2\\n- -\\n- -\\n"), "x -\\n- -\\n")
    {'edges': [[0, 1], [1, 0], [1, 2], [2, 1]]}
    """
    if family == "sudoku":
        n = puzzle.n
        grid = []
        for i, row in enumerate(_answer_rows(text, n, n)):
            out = []
            for j, tok in enumerate(row):
                if (i, j) in puzzle.holes:
                    out.append(sudoku.HOLE)
                elif tok.isdigit() and 1 <= int(tok) <= n:
                    out.append(sudoku.CHARS[int(tok)])
                else:
                    raise InputError(f"row {i + 1}, cell {j + 1}: {tok!r} is not a digit 1-{n}")
            grid.append("".join(out))
        return {"grid": grid}
    m, n = puzzle.m, puzzle.n
    rows = _answer_rows(text, m, n)
    edges: set[tuple[int, int]] = set()
    if family == "masyu":
        from ..families.loops import read_segments

        return read_segments(rows, m, n)
    inside = []
    for i, row in enumerate(rows):
        for j, tok in enumerate(row):
            if tok not in ("x", "-"):
                raise InputError(f"row {i + 1}, cell {j + 1}: {tok!r} is not x (inside) or -")
        inside.append([tok == "x" for tok in row])
    for i in range(m):
        for j in range(n):
            here = inside[i][j]
            if i == 0 and here:
                edges.add((0, 2 * j + 1))
            if j == 0 and here:
                edges.add((2 * i + 1, 0))
            below = inside[i + 1][j] if i + 1 < m else False
            right = inside[i][j + 1] if j + 1 < n else False
            if here != below:
                edges.add((2 * i + 2, 2 * j + 1))
            if here != right:
                edges.add((2 * i + 1, 2 * j + 2))
    return {"edges": [list(e) for e in sorted(edges)]}


def write_answer(family: str, puzzle: Any, answer: Answer) -> str:
    """The answer grid of ``answer`` in the corpus's notation (what :func:`answer` reads).

    >>> p = read("slitherlink", "2 2\\n- -\\n- -\\n")
    >>> print(write_answer("slitherlink", p, answer("slitherlink", p, "- x\\n- x")), end="")
    2 2
    - x
    - x
    """
    if family == "sudoku":
        n = puzzle.n
        lines = [f"{n} {n}"]
        lines += [
            " ".join("-" if c in ".#" else str(sudoku.CHARS.find(c)) for c in row)
            for row in answer["grid"]
        ]
        return "\n".join(lines) + "\n"
    m, n = puzzle.m, puzzle.n
    edges = {tuple(e) for e in answer.get("edges", [])}
    lines = [f"{m} {n}"]
    if family == "masyu":
        from ..families.loops import write_segments

        lines += [" ".join(row) for row in write_segments(m, n, answer)]
        return "\n".join(lines) + "\n"
    for i in range(m):
        crossed, row = 0, []
        for j in range(n):
            crossed += (2 * i + 1, 2 * j) in edges  # the vertical edge left of the cell
            row.append("x" if crossed % 2 else "-")
        lines.append(" ".join(row))
    return "\n".join(lines) + "\n"
