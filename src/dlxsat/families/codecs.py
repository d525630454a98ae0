"""puz.link URLs and pzprv3 files: their frames and the body codecs genres share.

A puz.link URL is ``https://puzz.link/p?TYPE[/FLAGS]/COLS/ROWS/BODY``; TYPE is pzprjs's name of
the genre (a family's alias, :data:`dlxsat.families.ALIASES`), BODY the genre's encoding of the
board: a sequence of the codecs below, each consuming its part of the body and handing back the
rest (pzprjs's ``Encode.js``, robx/pzprjs, the reference implementation of puz.link). A
pzprv3 file is ``pzprv3`` (or ``pzprv3.1``...), the type, ROWS, COLS (height first!), then
blocks of space-separated tokens, the board's and then the answer's (:func:`read_pzprv3`).

Cells are numbered row by row; a clue's value is a number, :data:`BLANK` (no clue) or
:data:`QUESTION` (a ``?``: a clue of unknown value). Borders are the ``(COLS-1)*ROWS`` between
horizontal neighbours (``vert``) then the ``COLS*(ROWS-1)`` between vertical ones (``horiz``),
each row by row, 1 for a wall. Every decoder raises :class:`InputError` on a body it cannot
read, naming what it was reading; every encoder writes what pzprjs writes, byte for byte. The
module names no family: a type is looked up in the registry.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence

from ..errors import InputError

#: No clue in a cell (pzprjs's ``qnum = -1``), and a clue of unknown value (``-2``, a ``?``).
BLANK, QUESTION = -1, -2
B36 = "0123456789abcdefghijklmnopqrstuvwxyz"

URL_BASE = "https://puzz.link/p?"
_URL = re.compile(r"\s*(?:[a-z][a-z0-9+.-]*://)?[^\s?]*\?([^\s]*)\s*", re.I)
_MAX_CELLS = 1_000_000  # a sanity bound, far above any puzzle dlxsat can encode


def looks_like_url(text: str) -> bool:
    """One line with a ``?`` query whose first part is a puz.link type.

    >>> looks_like_url("https://puzz.link/p?mashu/6/6/1063000i3000")
    True
    >>> looks_like_url("0..\\n.1.\\n")
    False
    """
    m = _URL.fullmatch(text)
    return m is not None and "\n" not in text.strip() and "/" in m[1]


def parse_url(text: str) -> tuple[str, str, int, int, str]:
    """(type, flags, cols, rows, body) of a puz.link URL; an :class:`InputError` if it is none.

    >>> parse_url("https://puzz.link/p?mashu/v:/10/8/0a/")
    ('mashu', '', 10, 8, '0a')
    """
    m = _URL.fullmatch(text)
    if m is None or "\n" in text.strip():
        raise InputError("not a puz.link URL (like https://puzz.link/p?mashu/10/10/...)")
    parts = m[1].split("/")
    kind = re.sub(r"_(edit|play)$", "", parts.pop(0)).lower()
    if parts and parts[0].startswith("v:"):
        parts.pop(0)
    flags = parts.pop(0) if parts and not parts[0].isdigit() else ""
    if len(parts) < 2 or not (parts[0].isdigit() and parts[1].isdigit()):
        raise InputError(f"the puz.link URL has no COLS/ROWS after {kind!r}")
    cols, rows = int(parts[0]), int(parts[1])
    body = "/".join(parts[2:]).rstrip("/")
    if not (0 < cols and 0 < rows and cols * rows <= _MAX_CELLS):
        raise InputError(f"the puz.link URL's size {cols} x {rows} is not a board")
    return kind, flags, cols, rows, body


def url_of(family: str, text: str) -> tuple[str, int, int, str]:
    """(flags, cols, rows, body) of a puz.link URL that must be of ``family`` (its name or an
    alias is the URL's type); a URL of another genre is a one-line error naming it.

    >>> url_of("masyu", "https://puzz.link/p?mashu/3/2/1f")
    ('', 3, 2, '1f')
    >>> url_of("sudoku", "https://puzz.link/p?mashu/3/2/1f")
    Traceback (most recent call last):
    ...
    dlxsat.errors.InputError: this is a puz.link URL of masyu (type 'mashu'), not of sudoku
    """
    from . import ALIASES, FAMILIES

    kind, flags, cols, rows, body = parse_url(text)
    owner = kind if kind in FAMILIES else ALIASES.get(kind)
    if owner is None:
        raise InputError(f"puz.link type {kind!r} is not a genre dlxsat reads")
    if owner != family:
        raise InputError(f"this is a puz.link URL of {owner} (type {kind!r}), not of {family}")
    return flags, cols, rows, body


def make_url(kind: str, cols: int, rows: int, body: str, flags: str = "") -> str:
    """The URL of a board (one line): pzprjs ends a URL whose last character is not
    alphanumeric with ``/``, so that mail and chat programs keep that character in the link.

    >>> make_url("mashu", 3, 2, "1f")
    'https://puzz.link/p?mashu/3/2/1f\\n'
    """
    url = f"{URL_BASE}{kind}/{flags + '/' if flags else ''}{cols}/{rows}/{body}"
    if not url[-1].isalnum():
        url += "/"
    return url + "\n"


# ---------------------------------------------------------------------------------------------
# Body codecs. Each decoder takes the body and the number of things it reads, and returns the
# values and the rest of the body.


def _malformed(what: str) -> InputError:
    return InputError(f"the puz.link URL has malformed {what}")


def _pack5(bits: Sequence[int]) -> str:
    return "".join(
        B36[sum(b << (4 - i) for i, b in enumerate(bits[k : k + 5]))]
        for k in range(0, len(bits), 5)
    )


def decode_border(body: str, cols: int, rows: int) -> tuple[list[int], list[int], str]:
    """The walls between cells, five a base-32 digit: ``(vert, horiz, rest)``.

    >>> decode_border("g8", 2, 2)
    ([1, 0], [0, 1], '')
    """
    nv, nh = (cols - 1) * rows, cols * (rows - 1)
    pos1 = min((nv + 4) // 5, len(body))
    pos2 = min((nh + 4) // 5 + pos1, len(body))
    vert, horiz = [0] * nv, [0] * nh
    try:
        for bits, chunk in ((vert, body[:pos1]), (horiz, body[pos1:pos2])):
            k = 0
            for ch in chunk:
                v = int(ch, 32)
                for w in (16, 8, 4, 2, 1):
                    if k < len(bits):
                        bits[k] = 1 if v & w else 0
                        k += 1
    except ValueError:
        raise _malformed("borders") from None
    return vert, horiz, body[pos2:]


def encode_border(vert: Sequence[int], horiz: Sequence[int]) -> str:
    """:func:`decode_border`'s text.

    >>> encode_border([1, 0], [0, 1])
    'g8'
    """
    return _pack5(vert) + _pack5(horiz)


def rooms(
    cols: int,
    rows: int,
    vert: Sequence[int],
    horiz: Sequence[int],
    blocked: Collection[int] = (),
) -> list[list[int]]:
    """The rooms the walls make, in pzprjs's order (by their first cell, row by row), each
    its cells sorted; ``blocked`` cells are in no room.

    >>> rooms(2, 2, [1, 0], [1, 0])
    [[0], [1, 2, 3]]
    """
    room_of: dict[int, int] = {}
    out: list[list[int]] = []
    for start in range(cols * rows):
        if start in room_of or start in blocked:
            continue
        room_of[start] = len(out)
        stack, part = [start], []
        while stack:
            c = stack.pop()
            part.append(c)
            r, q = divmod(c, cols)
            near = []
            if q + 1 < cols and not vert[r * (cols - 1) + q]:
                near.append(c + 1)
            if q > 0 and not vert[r * (cols - 1) + q - 1]:
                near.append(c - 1)
            if r + 1 < rows and not horiz[r * cols + q]:
                near.append(c + cols)
            if r > 0 and not horiz[(r - 1) * cols + q]:
                near.append(c - cols)
            for d in near:
                if d not in room_of and d not in blocked:
                    room_of[d] = len(out)
                    stack.append(d)
        out.append(sorted(part))
    return out


def walls(regions: Sequence[Sequence[object]]) -> tuple[list[int], list[int]]:
    """The walls between cells of different regions (``regions[i][j]`` any label), as
    :func:`decode_border` gives them: ``(vert, horiz)``; the inverse of :func:`rooms`.

    >>> walls([[1, 2], [2, 2]])
    ([1, 0], [1, 0])
    """
    rows, cols = len(regions), len(regions[0])
    vert = [int(regions[i][j] != regions[i][j + 1]) for i in range(rows) for j in range(cols - 1)]
    horiz = [int(regions[i][j] != regions[i + 1][j]) for i in range(rows - 1) for j in range(cols)]
    return vert, horiz


def region_grid(cols: int, rows: int, vert: Sequence[int], horiz: Sequence[int]) -> list[list[int]]:
    """The region of each cell (numbered from 1 in pzprjs's order, :func:`rooms`), row by row.

    >>> region_grid(2, 2, [1, 0], [1, 0])
    [[1, 2], [2, 2]]
    """
    out = [[0] * cols for _ in range(rows)]
    for k, room in enumerate(rooms(cols, rows, vert, horiz), 1):
        for c in room:
            out[c // cols][c % cols] = k
    return out


def top_cell(room: Sequence[int], cols: int) -> int:
    """The cell of a room that carries its number in pzprjs: the leftmost column's top cell.

    >>> top_cell([1, 2, 3], 2)
    2
    """
    return min(room, key=lambda c: (c % cols, c // cols))


def _read_number16(body: str, i: int) -> tuple[int, int]:
    """The number at ``body[i]`` and its length; (BLANK, 0) when none starts there."""
    ch = body[i]
    wide = {"-": (2, 0), "+": (3, 0), "=": (3, 4096), "%": (3, 8192), "@": (3, 8192)}
    wide |= {"*": (4, 12240), "$": (5, 77776)}
    if ch in "0123456789abcdef":
        return int(ch, 16), 1
    if ch in wide:
        width, base = wide[ch]
        digits = body[i + 1 : i + 1 + width]
        if len(digits) != width:
            raise _malformed("numbers")
        return int(digits, 16) + base, 1 + width
    if ch == ".":
        return QUESTION, 1
    return BLANK, 0


def decode_number16(body: str, count: int) -> tuple[list[int], str]:
    """Numbers (hex, ``-xx``, ``+xxx``...), ``.`` for ``?``, ``g``-``z`` runs of 1-20 blanks.

    >>> decode_number16("1g.-1a", 5)
    ([1, -1, -2, 26, -1], '')
    """
    values, c, i = [BLANK] * count, 0, 0
    try:
        while i < len(body) and c < count:
            ch = body[i]
            v, n = _read_number16(body, i)
            if v != BLANK:
                values[c] = v
                i += n
                c += 1
            elif "g" <= ch <= "z":
                c += int(ch, 36) - 15
                i += 1
            else:
                i += 1
    except ValueError:
        raise _malformed("numbers") from None
    return values, body[i:]


def write_number16(v: int) -> str:
    """One number as :func:`decode_number16` reads it ("" for a blank)."""
    if v == QUESTION:
        return "."
    if 0 <= v < 16:
        return B36[v]
    if 16 <= v < 256:
        return "-" + format(v, "x")
    if 256 <= v < 4096:
        return "+" + format(v, "x")
    if 4096 <= v < 8192:
        return "=" + format(v - 4096, "03x")
    if 8192 <= v < 12240:
        return "@" + format(v - 8192, "03x")
    if 12240 <= v < 77776:
        return "*" + format(v - 12240, "04x")
    if v >= 77776:
        return "$" + format(v - 77776, "05x")
    return ""


def encode_number16(values: Sequence[int], write: Callable[[int], str] = write_number16) -> str:
    """:func:`decode_number16`'s text.

    >>> encode_number16([1, -1, -2, 26, -1])
    '1g.-1ag'
    """
    out, blanks = [], 0
    for v in values:
        text = write(v)
        if text == "":
            blanks += 1
        if blanks == 0:
            out.append(text)
        elif text or blanks == 20:
            out.append(B36[15 + blanks] + text)
            blanks = 0
    if blanks:
        out.append(B36[15 + blanks])
    return "".join(out)


def decode_room_number16(
    body: str, cols: int, rows: int, vert: Sequence[int], horiz: Sequence[int]
) -> tuple[list[int], str]:
    """A number per room (after the borders), put on each room's :func:`top_cell`: a value
    per cell, :data:`BLANK` elsewhere."""
    found = rooms(cols, rows, vert, horiz)
    values, rest = decode_number16(body, len(found))
    cells = [BLANK] * (cols * rows)
    for room, v in zip(found, values, strict=True):
        if v != BLANK:
            cells[top_cell(room, cols)] = v
    return cells, rest


def encode_room_number16(
    cells: Sequence[int], cols: int, rows: int, vert: Sequence[int], horiz: Sequence[int]
) -> str:
    """:func:`decode_room_number16`'s text."""
    found = rooms(cols, rows, vert, horiz)
    return encode_number16([cells[top_cell(room, cols)] for room in found])


def decode_4cell(body: str, count: int) -> tuple[list[int], str]:
    """Clues 0-4 (Slitherlink, Koburin): ``5``-``9`` a clue and one blank, ``a``-``e`` a clue
    and two blanks, ``g``-``z`` runs of blanks, ``.`` a ``?``.

    >>> decode_4cell("5g2", 5)
    ([0, -1, -1, 2, -1], '')
    """
    values, c = [BLANK] * count, 0
    for i, ch in enumerate(body):
        if c >= count:
            return values, body[i:]
        if "0" <= ch <= "4":
            values[c] = int(ch)
        elif "5" <= ch <= "9":
            values[c] = int(ch) - 5
            c += 1
        elif "a" <= ch <= "e":
            values[c] = int(ch, 16) - 10
            c += 2
        elif "g" <= ch <= "z":
            c += int(ch, 36) - 16
        elif ch == ".":
            values[c] = QUESTION
        else:
            raise _malformed("clues")
        c += 1
        if c >= count:
            return values, body[i + 1 :]
    return values, ""


def encode_4cell(values: Sequence[int]) -> str:
    """:func:`decode_4cell`'s text, as pzprjs writes it.

    >>> encode_4cell([0, -1, -1, 2, -1])
    'ac'
    """
    out, blanks, c, n = [], 0, 0, len(values)
    while c < n:
        v, text = values[c], ""
        if v >= 0:
            if c + 1 < n and values[c + 1] != BLANK:
                text = B36[v]
            elif c + 2 < n and values[c + 2] != BLANK:
                text = B36[v + 5]
                c += 1
            else:
                text = B36[v + 10]
                c += 2
        elif v == QUESTION:
            text = "."
        else:
            blanks += 1
        if blanks == 0:
            out.append(text)
        elif text or blanks == 20:
            out.append(B36[blanks + 15] + text)
            blanks = 0
        c += 1
    if blanks:
        out.append(B36[blanks + 15])
    return "".join(out)


def decode_arrow_number16(body: str, count: int) -> tuple[list[int], list[int], str]:
    """Arrow clues (Yajilin): a direction (0 none, 1 up, 2 down, 3 left, 4 right) and a number
    (``.``: ``?``; ``+``: a clue without number, -3); ``a``-``z`` runs of blanks.

    >>> decode_arrow_number16("23b41", 5)
    ([2, 0, 0, 4, 0], [3, -1, -1, 1, -1], '')
    """
    dirs, nums = [0] * count, [BLANK] * count
    c = i = 0
    try:
        while i < len(body):
            ch = body[i]
            if ch == "+":
                dirs[c], nums[c] = 0, -3
            elif "0" <= ch <= "4":
                nxt = body[i + 1]
                dirs[c] = int(ch)
                nums[c] = QUESTION if nxt == "." else int(nxt, 16)
                i += 1
            elif "5" <= ch <= "9":
                dirs[c], nums[c] = int(ch) - 5, int(body[i + 1 : i + 3], 16)
                i += 2
            elif ch == "-":
                dirs[c], nums[c] = int(body[i + 1], 16), int(body[i + 2 : i + 5], 16)
                i += 4
            elif "a" <= ch <= "z":
                c += int(ch, 36) - 10
            else:
                raise ValueError(ch)
            c += 1
            if c >= count:
                return dirs, nums, body[i + 1 :]
            i += 1
    except (ValueError, IndexError):
        raise _malformed("arrow clues") from None
    return dirs, nums, ""


def encode_arrow_number16(dirs: Sequence[int], nums: Sequence[int]) -> str:
    """:func:`decode_arrow_number16`'s text.

    >>> encode_arrow_number16([2, 0, 0, 4, 0], [3, -1, -1, 1, -1])
    '23b41a'
    """
    out, blanks = [], 0
    for d, n in zip(dirs, nums, strict=True):
        if n == QUESTION:
            text = f"{d}."
        elif n == -3:
            text = "+"
        elif 0 <= n < 16:
            text = f"{d}{n:x}"
        elif 16 <= n < 256:
            text = f"{d + 5}{n:x}"
        elif 256 <= n < 4096:
            text = f"-{d}{n:x}"
        else:
            text = ""
            blanks += 1
        if blanks == 0:
            out.append(text)
        elif text or blanks == 26:
            out.append(B36[blanks + 9] + text)
            blanks = 0
    if blanks:
        out.append(B36[blanks + 9])
    return "".join(out)


def decode_circle(body: str, count: int) -> tuple[list[int], str]:
    """Circles, three cells a base-27 digit: 0 none, 1 white, 2 black (Masyu, Moon or Sun:
    1 sun, 2 moon; Dotchi Loop).

    >>> decode_circle("1f", 5)
    ([0, 0, 1, 1, 2], '')
    """
    values = [0] * count
    pos = min((count + 2) // 3, len(body))
    try:
        for k, ch in enumerate(body[:pos]):
            v = int(ch, 27)
            for w, t in enumerate((9, 3, 1)):
                if 3 * k + w < count:
                    values[3 * k + w] = v // t % 3
    except ValueError:
        raise _malformed("circles") from None
    return values, body[pos:]


def encode_circle(values: Sequence[int]) -> str:
    """:func:`decode_circle`'s text.

    >>> encode_circle([0, 0, 1, 1, 2])
    '1f'
    """
    out = []
    for k in range(0, len(values), 3):
        group = [max(0, x) for x in values[k : k + 3]]
        out.append(B36[sum(x * t for x, t in zip(group, (9, 3, 1), strict=False))])
    return "".join(out)


def decode_binary(body: str, count: int) -> tuple[list[int], str]:
    """One bit a cell, five a base-32 digit (Simple Loop's and Double Back's blocked cells).

    >>> decode_binary("g", 3)
    ([1, 0, 0], '')
    """
    bits, c = [0] * count, 0
    try:
        for i, ch in enumerate(body):
            v = int(ch, 32)
            for w in (16, 8, 4, 2, 1):
                if c < count:
                    bits[c] = 1 if v & w else 0
                    c += 1
            if c >= count:
                return bits, body[i + 1 :]
    except ValueError:
        raise _malformed("cells") from None
    return bits, ""


def encode_binary(bits: Sequence[int], skip_none: bool = False) -> str:
    """:func:`decode_binary`'s text (empty, with ``skip_none``, when no bit is set)."""
    if skip_none and not any(bits):
        return ""
    return _pack5(bits)


def decode_dot(body: str, count: int) -> tuple[list[int], str]:
    """Dots of value 1 or 2 (Galaxies' white and black stars) on ``count`` positions, 0 none
    (pzprjs's ``decodeDot``): ``0``-``f`` a dot, value ``v % 2 + 1``, then ``v >> 1`` empty
    positions; ``g``-``z`` runs of 1-20 empty positions.

    >>> decode_dot("6fg", 12)
    ([1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0], 'g')
    """
    values, s = [0] * count, 0
    for i, ch in enumerate(body):
        if "0" <= ch <= "9" or "a" <= ch <= "f":
            v = int(ch, 16)
            if s < count:
                values[s] = v % 2 + 1
            s += (v >> 1) + 1
        elif "g" <= ch <= "z":
            s += int(ch, 36) - 15
        else:
            raise _malformed("dots")
        if s >= count:
            return values, body[i + 1 :]
    return values, ""


def encode_dot(values: Sequence[int]) -> str:
    """:func:`decode_dot`'s text, as pzprjs writes it: a dot followed within 7 positions by
    another is written with the gap, else as ``e`` or ``f`` (a jump of 8, maybe past the end).

    >>> encode_dot([1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0]), encode_dot([0, 1, 0])
    ('6f', 'ge')
    """
    out, blanks, s, n = [], 0, 0, len(values)
    while s < n:
        text = ""
        if values[s] > 0:
            d = values[s]
            gap = next((k for k in range(1, 8) if s + k < n and values[s + k] > 0), 0)
            if gap:
                text = B36[2 * (gap - 1) + d - 1]
                s += gap - 1
            else:
                text = B36[13 + d]
                s += 7
        else:
            blanks += 1
        if blanks == 0:
            out.append(text)
        elif text or blanks == 20:
            out.append(B36[blanks + 15] + text)
            blanks = 0
        s += 1
    if blanks:
        out.append(B36[blanks + 15])
    return "".join(out)


# ---------------------------------------------------------------------------------------------
# pzprv3 files


def _pzprv3_lines(text: str) -> list[str]:
    """A pzprv3 file's lines (one-line ``/`` form unfolded), trailing blank lines dropped; an
    :class:`InputError` if it does not begin like one."""
    from urllib.parse import unquote

    text = text.strip("\n").replace("\r\n", "\n")
    if "\n" not in text.strip():
        query = text.strip().partition("?")[2] or text.strip()
        text = "\n".join(unquote(part) for part in query.split("/"))
    lines = text.split("\n")
    while lines and not lines[-1].strip():
        lines.pop()
    if len(lines) < 4 or not re.fullmatch(r"pzprv3(\.\d+)?", lines[0].strip()):
        raise InputError("not a pzprv3 file (it begins 'pzprv3', the type, rows, columns)")
    return lines


def pzprv3_version(text: str) -> str:
    """The first line of a pzprv3 file: ``pzprv3``, ``pzprv3.1``, ``pzprv3.2`` (which decides
    how some genres lay out their sections).

    >>> pzprv3_version("pzprv3.2/dotchi/1/1/0 /")
    'pzprv3.2'
    """
    return _pzprv3_lines(text)[0].strip()


def pzprv3_type(text: str) -> str:
    """The second line of a pzprv3 file, the genre's type as pzprjs wrote it (lower case): for
    a family that reads several types and must know which (``pipelink``, ``pipelinkr``).

    >>> pzprv3_type("pzprv3/PipelinkR/1/1/circle/o /")
    'pipelinkr'
    """
    return _pzprv3_lines(text)[1].strip().lower()


def read_pzprv3(text: str, family: str) -> tuple[int, int, list[str]]:
    """(rows, cols, the lines after the size) of a pzprv3 file of ``family``'s type (a file of
    another genre is a one-line error naming it). Blank lines are kept: some genres write one
    (Country Road's flags line). The file may also be given on one line, its lines joined by
    ``/`` -- as pzprjs writes a whole file into a URL (``...?pzprv3/TYPE/...``, each line
    percent-encoded).

    >>> read_pzprv3("pzprv3\\nmashu\\n2\\n3\\n. . 1 \\n", "masyu")
    (2, 3, ['. . 1 '])
    >>> read_pzprv3("https://puzz.link/p?pzprv3/mashu/1/2/.%201%20/", "masyu")
    (1, 2, ['. 1 '])
    """
    from . import ALIASES, FAMILIES

    lines = _pzprv3_lines(text)
    kind = lines[1].strip().lower()
    owner = kind if kind in FAMILIES else ALIASES.get(kind)
    if owner is None:
        raise InputError(f"pzprv3 type {kind!r} is not a genre dlxsat reads")
    if owner != family:
        raise InputError(f"this is a pzprv3 file of {owner} (type {kind!r}), not of {family}")
    try:
        rows, cols = int(lines[2]), int(lines[3])
    except ValueError:
        raise InputError("line 3 and 4 of a pzprv3 file are its rows and columns") from None
    if rows < 1 or cols < 1:
        raise InputError(f"a pzprv3 board of {rows} x {cols} is not a board")
    return rows, cols, lines[4:]


def block(lines: Sequence[str], start: int, rows: int, cols: int, what: str) -> list[list[str]]:
    """``rows`` lines of ``cols`` space-separated tokens from ``lines[start:]`` (a pzprv3
    section), an :class:`InputError` naming ``what`` when the file is short or a line is not
    that wide."""
    if len(lines) < start + rows:
        raise InputError(f"the pzprv3 file ends before its {what} ({rows} lines)")
    out = []
    for k in range(rows):
        tokens = lines[start + k].split()
        if len(tokens) != cols:
            raise InputError(
                f"line {start + k + 5} of the pzprv3 file: {len(tokens)} values in its {what}, "
                f"not {cols}"
            )
        out.append(tokens)
    return out


def write_block(table: Sequence[Sequence[object]]) -> list[str]:
    """Lines of a pzprv3 section as pzprjs writes them (each value followed by a space)."""
    return ["".join(f"{v} " for v in row) for row in table]


def read_numbers(lines: Sequence[str], start: int, rows: int, cols: int) -> list[list[int]]:
    """pzprjs's ``decodeCellQnum`` block at ``lines[start:]``: a number, ``-`` a ``?``
    (:data:`QUESTION`), ``.`` none (:data:`BLANK`).

    >>> read_numbers(["3 . ", "- 12 "], 0, 2, 2)
    [[3, -1], [-2, 12]]
    """
    out = []
    for i, row in enumerate(block(lines, start, rows, cols, "numbers")):
        values = []
        for j, t in enumerate(row):
            if t == ".":
                values.append(BLANK)
            elif t == "-":
                values.append(QUESTION)
            elif t.isdigit() and t.isascii():
                values.append(int(t))
            else:
                raise InputError(f"cell ({i + 1}, {j + 1}) of the pzprv3 file: {t!r} is no number")
        out.append(values)
    return out


def number_rows(cells: Sequence[Sequence[int]]) -> list[list[str]]:
    """pzprjs's ``encodeCellQnum`` block, the inverse of :func:`read_numbers`.

    >>> number_rows([[3, -1], [-2, 12]])
    [['3', '.'], ['-', '12']]
    """
    return [["." if v == BLANK else "-" if v == QUESTION else str(v) for v in row] for row in cells]


def read_pzprv3_regions(
    version: str, lines: Sequence[str], start: int, rows: int, cols: int
) -> tuple[list[list[int]], int]:
    """The regions of a pzprv3 file of pzprjs's ``country.js`` genres (Country Road, Moon or
    Sun, Dotchi Loop, ...) from ``lines[start:]``, and the index of the line after them:
    ``pzprv3.2`` files give the walls (two blocks, :func:`decode_border`'s order), older ones
    (``pzprv3``, ``pzprv3.1``) a line with the number of rooms and then a room number per cell.
    Regions are numbered from 1 in pzprjs's order either way.

    >>> read_pzprv3_regions("pzprv3.2", ["1 ", "0 ", "0 1 "], 0, 2, 2)
    ([[1, 2], [1, 1]], 3)
    >>> read_pzprv3_regions("pzprv3", ["2", "0 1 ", "0 0 "], 0, 2, 2)
    ([[1, 2], [1, 1]], 3)
    """
    if version.strip() == "pzprv3.2":
        vert = block(lines, start, rows, cols - 1, "walls between horizontal neighbours")
        horiz = block(lines, start + rows, rows - 1, cols, "walls between vertical neighbours")
        flat_v = [int(v == "1") for row in vert for v in row]
        flat_h = [int(v == "1") for row in horiz for v in row]
        return region_grid(cols, rows, flat_v, flat_h), start + 2 * rows - 1
    ids = block(lines, start + 1, rows, cols, "room numbers")
    return region_grid(cols, rows, *walls(ids)), start + 1 + rows


def write_pzprv3_walls(regions: Sequence[Sequence[object]]) -> list[str]:
    """The two wall blocks of a ``pzprv3.2`` file (as pzprjs writes them) for ``regions``."""
    rows, cols = len(regions), len(regions[0])
    vert, horiz = walls(regions)
    table = [vert[i * (cols - 1) : (i + 1) * (cols - 1)] for i in range(rows)]
    table += [horiz[i * cols : (i + 1) * cols] for i in range(rows - 1)]
    return write_block(table)
