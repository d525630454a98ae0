"""Reading text input (a file or stdin) with the checks every command shares."""

from __future__ import annotations

import sys
from typing import Any

from .errors import InputError

#: The most bytes an input may have. The largest real inputs: a puzzle of a few hundred kB (the
#: published 58 x 40 Masyu is 5 kB, Knuth's readers' tests 67 kB), a file of a million one-line
#: Sudokus (82 MB), a SAT model of ten million variables (about 90 MB); 256 MiB leaves a wide
#: margin, and reading stops there (``solve masyu /dev/zero`` grew to 2.7 GB before).
MAX_INPUT_BYTES = 256 << 20
#: Bytes read at a time: each piece is checked for NUL at once, so binary data fails fast.
CHUNK_BYTES = 1 << 20


def read_text(path: str | None, what: str = "input") -> str:
    """Return the text of ``path`` (stdin when ``path`` is None or ``-``), with CRLF ends made LF
    and a leading UTF-8 byte-order mark dropped.

    Raises :class:`InputError` for a missing file, a directory, bytes that are not UTF-8 text,
    an input past :data:`MAX_INPUT_BYTES` (told while reading, not after) or an empty input, so
    that callers deal only with text.
    """
    name = "stdin" if path is None or path == "-" else path
    try:
        if path is None or path == "-":
            if sys.stdin is None:  # `exec 0<&-`: Python starts with no stdin at all
                raise InputError(f"stdin is closed: no {what} to read (give a file name)")
            data = _read_capped(sys.stdin.buffer, name, what)
        else:
            with open(path, "rb") as f:
                data = _read_capped(f, name, what)
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory, not a {what} file") from None
    except PermissionError:
        raise InputError(f"{path}: permission denied") from None
    except OSError as e:
        raise InputError(f"{name}: cannot read: {e.strerror or e}") from None
    if data.startswith(b"\xef\xbb\xbf"):  # a byte-order mark (Windows editors write one)
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise InputError(f"{name}: line {line}: bytes that are not UTF-8 text") from None
    text = text.replace("\r\n", "\n")
    if not text.strip():
        raise InputError(f"{name}: empty {what}")
    return text


def _read_capped(f: Any, name: str, what: str) -> bytes:
    """The bytes of binary file ``f``, read a piece at a time: NUL bytes or more than
    :data:`MAX_INPUT_BYTES` end the reading at once, with an :class:`InputError`."""
    pieces: list[bytes] = []
    size = 0
    while True:
        piece = f.read(min(CHUNK_BYTES, MAX_INPUT_BYTES + 1 - size))
        if not piece:
            return b"".join(pieces)
        if b"\0" in piece:
            raise InputError(f"{name}: binary data (NUL byte), not a {what} text")
        size += len(piece)
        if size > MAX_INPUT_BYTES:
            raise InputError(
                f"{name}: more than {MAX_INPUT_BYTES >> 20} MiB: too large for a {what}"
            )
        pieces.append(piece)


def is_inline_puzzle(arg: str | None) -> bool:
    """Whether a command-line argument in a puzzle file's place is the puzzle itself: a
    puz.link or Penpa+ URL or a Tatham game id that names no file.

    >>> is_inline_puzzle("https://puzz.link/p?mashu/6/6/1063000i3000"), is_inline_puzzle("-")
    (True, False)
    >>> is_inline_puzzle("https://swaroopg92.github.io/penpa-edit/#m=edit&p=7Vf")
    True
    """
    import os

    from .formats import penpa, puzzlink, tatham

    if arg in (None, "-") or os.path.exists(arg):
        return False
    return (
        puzzlink.looks_like("", arg)
        or penpa.looks_like("", arg)
        or any(tatham.looks_like(f, arg) for f in tatham.families())
    )


def puzzle_text(path: str | None) -> str:
    """The text of a puzzle file (stdin for None or ``-``); a URL or a Tatham game id
    given in place of a file name (and naming no file) is the puzzle itself
    (:func:`is_inline_puzzle`).

    >>> puzzle_text("https://puzz.link/p?mashu/6/6/1063000i3000")
    'https://puzz.link/p?mashu/6/6/1063000i3000'
    """
    if path is not None and is_inline_puzzle(path):
        return path
    return read_text(path, "puzzle")
