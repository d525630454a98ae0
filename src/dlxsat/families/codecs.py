"""The frames of puz.link URLs, shared by the families that implement their own codecs.

A puz.link URL is ``https://puzz.link/p?TYPE[/FLAGS]/COLS/ROWS/BODY``; TYPE is pzprjs's name of
the genre (a family's alias, :data:`dlxsat.families.ALIASES`), BODY the genre's own encoding of
the board. This module reads and writes the frame; a family's codec (its spec's ``codecs``)
decodes the body. It names no family: a type is looked up in the registry.
"""

from __future__ import annotations

import re

from ..errors import InputError

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
