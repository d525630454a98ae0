"""Knuth's input formats, the default: each family's own reader and writer, byte for byte."""

from __future__ import annotations

from typing import Any

from ..families import get_spec

NAME = "knuth"
#: Records of a many-puzzle file are separated by empty lines (a puzzle has several lines).
PER_LINE = False


def looks_like(family: str, text: str) -> bool:
    """Knuth's format is what is left when no other format claims the text."""
    return True


def read(family: str, text: str) -> Any:
    """The family's reader, unchanged (so every byte of Knuth's output stays as it was)."""
    return get_spec(family).read(text)


def write(family: str, puzzle: Any) -> str:
    """The family's writer: text that :func:`read` turns back into the same puzzle."""
    return get_spec(family).write(puzzle)
