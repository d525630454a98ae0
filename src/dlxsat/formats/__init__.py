"""Puzzle formats: text in the forms people keep puzzles in → the family's puzzle object.

One module per format, each with ``read(family, text)`` (and ``write(family, puzzle)`` where
the format can hold the puzzle), ``looks_like(family, text)`` for detection, the families it
serves (``FAMILY_NAMES``) and whether a file of many puzzles has one a line (``PER_LINE``) or
records separated by empty lines. The family modules stay the only place that encodes: every
reader ends in the family's own reader.

- ``knuth``: Knuth's input formats, the default, byte for byte as before;
- ``penpa``: Penpa+ URLs (Masyu, Slitherlink, Sudoku), read and written (with an answer);
- ``puzzlink``: puz.link URLs (Masyu, Slitherlink, Sudoku), read and written;
- ``pzprv3``: pzprjs's file format, which puz.link opens, read and written (with an answer);
- ``tatham``: game ids of Simon Tatham's Pearl, Loopy and Solo;
- ``grid``: spaced grid text with an optional ``ROWS COLS`` header;
- ``oneline``: one-line Sudokus of 16, 81 or 256 characters.

Detection tries the specific formats first (a URL, a game id, a one-line Sudoku, a spaced
grid) and falls back on Knuth's, so his inputs are read exactly as before.

>>> read("sudoku", "4..3.3....1.1..2").n
4
>>> detect("masyu", "https://puzz.link/p?mashu/6/6/1063000i3000")
'puzzlink'
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from ..errors import InputError
from ..families import get_family, offered

#: Every format; detection tries them in this order, Knuth's last.
FORMATS = ("penpa", "puzzlink", "pzprv3", "tatham", "oneline", "grid", "knuth")
#: The formats ``convert --to`` can write.
WRITERS = ("knuth", "puzzlink", "grid", "oneline", "penpa", "pzprv3")
#: The formats that can hold an answer beside the puzzle (``convert --with-answer``).
ANSWER_WRITERS = ("penpa", "pzprv3")


def get_format(name: str) -> ModuleType:
    """The module of format ``name``; an :class:`InputError` for an unknown name."""
    if name not in FORMATS:
        raise InputError(f"unknown format {name!r} (choose from {', '.join(sorted(FORMATS))})")
    return importlib.import_module(f"dlxsat.formats.{name}")


def detect(family: str, text: str) -> str:
    """The name of the format ``text`` is in, for a puzzle of ``family``.

    >>> detect("sudoku", "." * 81), detect("masyu", "0.\\n.1\\n"), detect("masyu", "w -\\n- b\\n")
    ('oneline', 'knuth', 'grid')
    """
    if getattr(get_family(family), "WHOLE_FILE", False):  # exact-cover data: Knuth's only
        return "knuth"
    for name in FORMATS:
        mod = get_format(name)
        if family in mod.FAMILY_NAMES and mod.looks_like(family, text):
            return name
    return "knuth"


def read(family: str, text: str, format: str | None = None) -> Any:
    """Read one puzzle of ``family`` from ``text`` in ``format`` (detected when None)."""
    name = format or detect(family, text)
    mod = get_format(name)
    if family not in mod.FAMILY_NAMES:
        raise InputError(
            f"the {name} format has no {family} (it has {', '.join(mod.FAMILY_NAMES)})"
        )
    return mod.read(family, text)


def write(family: str, puzzle: Any, format: str, answer: Any = None) -> str:
    """The puzzle as text in ``format`` (one of :data:`WRITERS`), with ``answer`` drawn in it
    when given (only the formats of :data:`ANSWER_WRITERS` hold one)."""
    if format not in WRITERS:
        raise InputError(f"cannot write the {format} format (choose from {', '.join(WRITERS)})")
    mod = get_format(format)
    if family not in mod.FAMILY_NAMES:
        raise InputError(f"the {format} format has no {family}")
    if answer is not None:
        if format not in ANSWER_WRITERS:
            raise InputError(
                f"the {format} format cannot hold an answer (these can: "
                f"{', '.join(ANSWER_WRITERS)})"
            )
        text: str = mod.write(family, puzzle, answer)
    else:
        text = mod.write(family, puzzle)
    return text


def split_records(family: str, text: str, format: str | None = None) -> list[tuple[int, str]]:
    """The records of a file of puzzles, each as (its first line number, its text).

    A line-based format (URL, game id, one-line Sudoku) has one puzzle a line; the others are
    separated by empty lines (for Sudoku: lines with nothing at all, since a line of spaces is
    a row of blank cells in Knuth's format). The format is that of the first record.

    >>> split_records("sudoku", "." * 81 + "\\n\\n" + "1" + "." * 80 + "\\n")
    [(1, '.................................................................................'), \
(3, '1................................................................................')]
    """
    if getattr(get_family(family), "WHOLE_FILE", False):  # exact-cover data: one problem
        return [(1, text)] if text.strip() else []
    lines = text.replace("\r\n", "\n").split("\n")
    first = next((k for k, line in enumerate(lines) if line.strip()), None)
    if first is None:
        return []
    name = format or detect(family, lines[first])
    if get_format(name).PER_LINE and (format or not _knuth_sudoku_of_16(family, name, lines)):
        return [(k + 1, line.strip()) for k, line in enumerate(lines) if line.strip()]
    records: list[tuple[int, str]] = []
    start: int | None = None
    empty = (lambda s: s == "") if family == "sudoku" else (lambda s: not s.strip())
    for k, line in enumerate(lines + [""]):
        if empty(line):
            if start is not None:
                records.append((start + 1, "\n".join(lines[start:k]) + "\n"))
                start = None
        elif start is None:
            start = k
    return records


def _knuth_sudoku_of_16(family: str, name: str, lines: list[str]) -> bool:
    """Whether lines that each look like a 4 × 4 one-line Sudoku are rather one or more of
    Knuth's 16 × 16 Sudokus (16 characters a line, in blocks of 16 lines)."""
    full = [line for line in lines if line.strip()]
    return name == "oneline" and all(len(line) == 16 for line in full) and len(full) % 16 == 0


def read_each(family: str, text: str, format: str | None = None) -> list[tuple[int, int, Any]]:
    """Every record of a file of one or many puzzles, read on its own: ``(record number, first
    line, puzzle or the InputError that says what is wrong with it)``, so that a caller can
    answer the good records of a file with a few bad ones (``solve --keep-going``).

    >>> text = "4..3.3....1.1..2\\n4..3\\n" + "." * 16
    >>> [(k, line, type(x).__name__) for k, line, x in read_each("sudoku", text)]
    [(1, 1, 'SudokuPuzzle'), (2, 2, 'InputError'), (3, 3, 'SudokuPuzzle')]
    """
    records = split_records(family, text, format)
    if not records:
        raise InputError("empty input: no puzzle")
    name = format or detect(family, records[0][1])
    out: list[tuple[int, int, Any]] = []
    for k, (line, record) in enumerate(records, 1):
        try:
            out.append((k, line, read(family, record, name)))
        except InputError as e:
            out.append((k, line, e))
    return out


@dataclass
class Records:
    """The puzzles of a file to solve: ``numbers`` their record numbers when some records were
    left out or there are several (None: one puzzle, read whole), ``bad`` each record left out
    with its first line and what is wrong with it."""

    puzzles: list[Any]
    numbers: list[int] | None = None
    bad: list[tuple[int, int, InputError]] = field(default_factory=list)


def read_records(
    family: str, text: str, format: str | None = None, keep_going: bool = False
) -> Records:
    """The puzzles of a file of one or many (:func:`read_many`); with ``keep_going`` a bad
    record is left out and noted instead of stopping the run (``solve --keep-going``).

    >>> r = read_records("sudoku", "4..3.3....1.1..2\\n4..3\\n", keep_going=True)
    >>> len(r.puzzles), r.numbers, [(k, line) for k, line, _ in r.bad]
    (1, [1], [(2, 2)])
    """
    if not keep_going:
        try:
            return Records(read_many(family, text, format))
        except InputError as e:
            if str(e).startswith("record "):  # a file of many: say how to answer the rest
                raise InputError(f"{e} (--keep-going answers the other records)") from None
            raise
    each = read_each(family, text, format)
    bad = [(k, line, e) for k, line, e in each if isinstance(e, InputError)]
    puzzles = [p for _, _, p in each if not isinstance(p, InputError)]
    numbers = [k for k, _, p in each if not isinstance(p, InputError)]
    return Records(puzzles, numbers if bad or len(each) > 1 else None, bad)


def read_many(family: str, text: str, format: str | None = None) -> list[Any]:
    """Every puzzle of a file of one or many; an error names the record and its line.

    >>> [p.n for p in read_many("sudoku", "4..3.3....1.1..2\\n" * 2)]
    [4, 4]
    """
    records = split_records(family, text, format)
    if not records:
        raise InputError("empty input: no puzzle")
    if len(records) == 1:
        return [read(family, records[0][1], format)]
    name = format or detect(family, records[0][1])
    # One-line Sudokus: all read at once where they can be (the others, and every error, one by
    # one as below: the same puzzles and messages).
    bulk = offered(get_family(family), "read_bulk") if name == "oneline" else None
    ready = bulk([record for _, record in records]) if bulk else [None] * len(records)
    out = []
    for k, ((line, record), puzzle) in enumerate(zip(records, ready, strict=True), 1):
        if puzzle is not None:
            out.append(puzzle)
            continue
        try:
            out.append(read(family, record, name))
        except InputError as e:
            raise InputError(f"record {k} (line {line}): {e}") from None
    return out


def convert(
    family: str,
    text: str,
    to: str,
    format: str | None = None,
    name: str = "input",
    answer_of: Callable[[Any, str], Any] | None = None,
) -> str:
    """Every puzzle of ``text`` (in ``format``, detected when None) written in format ``to``:
    one a line for the line-based formats, else separated by empty lines. An error in a file of
    several names the record and its line; ``name`` names an input with no puzzle. With
    ``answer_of`` (see :func:`dlxsat.pipeline.solved_answer`), each puzzle is written with that
    answer.

    >>> convert("sudoku", "4..3.3....1.1..2\\n" * 2, "knuth").split("\\n\\n")[1].split()
    ['4..3', '.3..', '..1.', '1..2', '0011', '0011', '2233', '2233']
    """
    if answer_of is not None:
        check_answer_writer(to)
    records = split_records(family, text, format)
    if not records:
        raise InputError(f"{name}: no puzzle")
    outs = []
    for k, (line, record) in enumerate(records, 1):
        try:
            puzzle = read(family, record, format)
            where = f"record {k}: " if len(records) > 1 else ""
            answer = answer_of(puzzle, where) if answer_of is not None else None
            outs.append(write(family, puzzle, to, answer))
        except InputError as e:
            if len(records) == 1:
                raise
            raise InputError(f"record {k} (line {line}): {e}") from None
    per_line = to in ("puzzlink", "oneline", "penpa")
    return ("" if per_line else "\n").join(outs)


def check_answer_writer(to: str) -> None:
    """Refuse to write an answer in a format that cannot hold one (``convert --with-answer``).

    >>> check_answer_writer("pzprv3")
    """
    if to not in ANSWER_WRITERS:
        why = (
            "a puz.link URL holds only the problem (pzprjs writes answers in its files, not its "
            "URLs)"
            if to == "puzzlink"
            else f"the {to} format holds no answer"
        )
        raise InputError(f"--with-answer: {why}; use --to {' or --to '.join(ANSWER_WRITERS)}")
