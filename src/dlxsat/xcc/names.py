"""Knuth's base-62 coordinate names, which the loop rule reads (docs/conventions.md §4).

This lives with the exact-cover model because backends recognise loop items from names alone;
the grid families build their names from the same digits (see ``families/grid.py``).
"""

from __future__ import annotations

DIGITS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
MAX_DIGIT = len(DIGITS) - 1  # 61


def b62(d: int) -> str:
    """One base-62 digit, Knuth's ``encode``.

    >>> b62(9), b62(10), b62(36), b62(61)
    ('9', 'a', 'A', 'Z')
    """
    if not 0 <= d <= MAX_DIGIT:
        raise ValueError(f"{d} has no base-62 digit")
    return DIGITS[d]


def un62(ch: str) -> int:
    """The value of one base-62 digit, or -1 (Knuth's ``decode``)."""
    return DIGITS.find(ch) if len(ch) == 1 else -1


def parse_point_name(name: str) -> tuple[int, int] | None:
    """Coordinates of a two-digit name (``3e``) or a decimal one (``40.70``), else None.

    >>> parse_point_name("3e"), parse_point_name("40.70"), parse_point_name("p12")
    ((3, 14), (40, 70), None)
    """
    if len(name) == 2:
        x, y = un62(name[0]), un62(name[1])
        return (x, y) if x >= 0 and y >= 0 else None
    a, dot, b = name.partition(".")
    if dot and a.isdigit() and b.isdigit() and a.isascii() and b.isascii():
        return int(a), int(b)
    return None
