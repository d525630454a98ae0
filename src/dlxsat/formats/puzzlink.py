"""puz.link URLs (``https://puzz.link/p?mashu/10/10/...``), read and written.

The URL encodings are those of pzprjs, the program behind puzz.link (and pzv.jp, pzprxs):
the query is ``TYPE/[v:VARIANT/][FLAGS/]COLS/ROWS/BODY`` -- width before height -- and the body
lists the cells row by row:

- Masyu (``mashu``, ``masyu``, ``pearl``): three cells per character, a base-27 digit
  (``0-9a-q``) whose base-3 digits, most significant first, are 0 none, 1 white, 2 black.
- Slitherlink (``slither``, ``slitherlink``): ``0-4`` a clue; ``5-9`` a clue (minus 5) then one
  blank cell, ``a-e`` a clue (minus 10) then two; ``g-z`` 1-20 blank cells; ``.`` a ``?`` clue
  (a cell with an unknown number: no clue here).
- Sudoku (``sudoku``): a number in hex, ``0-9a-f`` one digit, ``-`` then two, ``+`` then three;
  ``.`` a ``?`` (blank); ``g-z`` 1-20 blank cells. Its boxes are pzprjs's: ⌊√n⌋ × ⌊√n⌋ cells
  (so 2 × 2 for 8 × 8), but 2 rows × 3 columns for 6 × 6; where ⌊√n⌋ does not divide n the
  boxes at the right and bottom edges are cut short (they then only forbid repeats).

Flags that change the rules (Masyu's and Slitherlink's ``f``) are refused rather than ignored.
"""

from __future__ import annotations

import re
from typing import Any

from ..errors import InputError
from ..families import get_spec, sudoku
from ..families.codecs import URL_BASE, looks_like_url, make_url, parse_url, url_of

__all__ = ["URL_BASE", "looks_like", "parse_url", "read", "write"]

NAME = "puzzlink"
PER_LINE = True

#: The name puz.link's URLs are written with, for the families this module writes (the
#: others' codecs say their own); every name is read (the families' aliases).
TYPES = {"masyu": "mashu", "slitherlink": "slither", "sudoku": "sudoku"}


def looks_like(family: str, text: str) -> bool:
    """One line with a ``?`` query whose first part is a puz.link type.

    >>> looks_like("masyu", "https://puzz.link/p?mashu/6/6/1063000i3000")
    True
    >>> looks_like("masyu", "0..\\n.1.\\n")
    False
    """
    return looks_like_url(text)


def read(family: str, text: str) -> Any:
    """The puzzle of a puz.link URL of this family's type.

    >>> print(get_spec("masyu").write(read("masyu", "http://puzz.link/p?mashu/3/2/1f")), end="")
    ..0
    01.
    """
    flags, cols, rows, body = url_of(family, text)
    if flags:
        raise InputError(f"puz.link flags {flags!r} change the rules; dlxsat does not support them")
    fam = get_spec(family)
    if family == "masyu":
        circles = _read_circles(body, rows * cols)
        chars = [".01"[v] for v in circles]
        return fam.read(_rows(chars, cols))
    if family == "slitherlink":
        values = _read_4cell(body, rows * cols)
        return fam.read(_rows(["." if v is None else str(v) for v in values], cols))
    if rows != cols:
        raise InputError(f"a puz.link sudoku is square, not {cols} x {rows}")
    n = cols
    if n > sudoku.MAX_N:
        raise InputError(f"a sudoku is at most {sudoku.MAX_N} wide, not {n}")
    values = _read_number16(body, n * n)
    for k, v in enumerate(values):
        if v is not None and not 1 <= v <= n:
            raise InputError(f"cell {k + 1} of the puz.link sudoku holds {v}, not a number 1-{n}")
    cells = [sudoku.BLANK if v is None else sudoku.CHARS[v] for v in values]
    givens = [("".join(cells[i * n : (i + 1) * n])) for i in range(n)]
    return sudoku.read(sudoku.write_rows(givens, [sudoku.box_group(n, *box_shape(n))]))


def box_shape(n: int) -> tuple[int, int]:
    """pzprjs's boxes of an n × n sudoku, (rows, columns).

    >>> box_shape(9), box_shape(6), box_shape(8), box_shape(16)
    ((3, 3), (2, 3), (2, 2), (4, 4))
    """
    side = max(1, int(n**0.5 + 1e-9))
    return (side, 3) if n == 6 else (side, side)


def _rows(chars: list[str], cols: int) -> str:
    return "".join("".join(chars[k : k + cols]) + "\n" for k in range(0, len(chars), cols))


def _bad(body: str, k: int, what: str) -> InputError:
    return InputError(f"character {k + 1} of the puz.link body: {body[k]!r} {what}")


def _extra(body: str, k: int) -> InputError:
    return InputError(f"the puz.link body has {len(body) - k} characters more than its cells need")


def _read_circles(body: str, count: int) -> list[int]:
    """Masyu: 0 none, 1 white, 2 black per cell, three cells to a base-27 character."""
    need = (count + 2) // 3
    if len(body) > need:
        raise _extra(body, need)
    out: list[int] = []
    for k, ch in enumerate(body):
        try:
            v = int(ch, 27)
        except ValueError:
            raise _bad(body, k, "is not a base-27 digit 0-9a-q") from None
        out.extend((v // 9, v // 3 % 3, v % 3))
    out = (out + [0] * count)[:count]
    return out


def _read_4cell(body: str, count: int) -> list[int | None]:
    """Slitherlink: clues 0-4 (None for no clue), with pzprjs's skip characters."""
    out: list[int | None] = []
    k = 0
    for k, ch in enumerate(body):
        if len(out) >= count:
            raise _extra(body, k)
        if "0" <= ch <= "4":
            out.append(int(ch))
        elif "5" <= ch <= "9":
            out += [int(ch) - 5, None]
        elif "a" <= ch <= "e":
            out += [int(ch, 16) - 10, None, None]
        elif "g" <= ch <= "z":
            out += [None] * (int(ch, 36) - 15)
        elif ch == ".":
            out.append(None)  # a '?' clue: the cell has an unknown number, no clue here
        else:
            raise _bad(body, k, "is not a Slitherlink clue or run (0-9, a-e, g-z, .)")
    if len(out) > count + 2 or any(v is not None for v in out[count:]):
        raise InputError(f"the puz.link body describes {len(out)} cells, not {count}")
    return (out + [None] * count)[:count]


def _read_number16(body: str, count: int) -> list[int | None]:
    """Numbers in pzprjs's hex encoding (None for blank cells)."""
    out: list[int | None] = []
    k = 0
    widths = {"-": 2, "+": 3}
    while k < len(body):
        if len(out) >= count:
            raise _extra(body, k)
        ch = body[k]
        if ch in "0123456789abcdef":
            out.append(int(ch, 16))
            k += 1
        elif ch in widths:
            digits = body[k + 1 : k + 1 + widths[ch]]
            if len(digits) != widths[ch] or not re.fullmatch(r"[0-9a-f]+", digits):
                raise _bad(body, k, f"needs {widths[ch]} hex digits after it")
            out.append(int(digits, 16))
            k += 1 + widths[ch]
        elif "g" <= ch <= "z":
            out += [None] * (int(ch, 36) - 15)
            k += 1
        elif ch == ".":
            out.append(None)
            k += 1
        else:
            raise _bad(body, k, "is not a number or run (0-9a-f, -xx, +xxx, g-z, .)")
    if len(out) > count:
        raise InputError(f"the puz.link body describes {len(out)} cells, not {count}")
    return (out + [None] * count)[:count]


# ---------------------------------------------------------------------------------------------
# Writing


def write(family: str, puzzle: Any) -> str:
    """The puz.link URL of a puzzle (one line).

    >>> write("masyu", get_spec("masyu").read("..0\\n01.\\n"))
    'https://puzz.link/p?mashu/3/2/1f\\n'
    """
    values: list[int | None]
    if family == "masyu":
        circles = [2 if c == "1" else 0 if c == "." else 1 for row in puzzle.rows for c in row]
        body = _write_circles(circles)
        cols, rows = puzzle.n, puzzle.m
    elif family == "slitherlink":
        values = [None if c == "." else int(c) for row in puzzle.rows for c in row]
        body = _write_4cell(values)
        cols, rows = puzzle.n, puzzle.m
    elif family == "sudoku":
        n = cols = rows = puzzle.n
        if puzzle.holes:
            raise InputError("a puz.link sudoku has no holes ('#' cells)")
        from .oneline import box_cells, partition

        if box_cells(puzzle) != partition(sudoku.box_group(n, *box_shape(n))):
            r, c = box_shape(n)
            raise InputError(
                f"a puz.link sudoku of size {n} has boxes of {r} rows x {c} columns and no others;"
                " this one's boxes differ"
            )
        body = _write_number16([puzzle.clues.get((i, j)) for i in range(n) for j in range(n)])
    else:
        raise InputError(f"dlxsat writes no puz.link URL of {family}")
    return make_url(TYPES[family], cols, rows, body)


def _write_circles(values: list[int]) -> str:
    out = []
    for k in range(0, len(values), 3):
        a, b, c = (values[k : k + 3] + [0, 0])[:3]
        out.append(_base36(a * 9 + b * 3 + c))
    return "".join(out)


def _base36(v: int) -> str:
    return "0123456789abcdefghijklmnopqrstuvwxyz"[v]


def _flush_blanks(count: int) -> str:
    out = []
    while count > 0:
        step = min(count, 20)
        out.append(_base36(15 + step))
        count -= step
    return "".join(out)


def _write_4cell(values: list[int | None]) -> str:
    """pzprjs's Slitherlink body. A clue takes the blank after it (``5-9``) when the cell two on
    is a clue, and two cells (``a-e``) when neither of the next two is -- even past the end of
    the board, as pzprjs writes it (so its URLs come out byte for byte)."""
    out: list[str] = []
    blanks = 0
    k, count = 0, len(values)
    while k < count:
        v = values[k]
        if v is None:
            blanks += 1
            k += 1
            continue
        out.append(_flush_blanks(blanks))
        blanks = 0
        if k + 1 < count and values[k + 1] is not None:
            out.append(_base36(v))
            k += 1
        elif k + 2 < count and values[k + 2] is not None:
            out.append(_base36(v + 5))
            k += 2
        else:
            out.append(_base36(v + 10))
            k += 3
    out.append(_flush_blanks(blanks))
    return "".join(out)


def _write_number16(values: list[int | None]) -> str:
    out: list[str] = []
    blanks = 0
    for v in values:
        if v is None:
            blanks += 1
            continue
        out.append(_flush_blanks(blanks))
        blanks = 0
        if v < 16:
            out.append(f"{v:x}")
        elif v < 256:
            out.append(f"-{v:02x}")
        else:
            out.append(f"+{v:03x}")
    out.append(_flush_blanks(blanks))
    return "".join(out)
