"""The puzzles of a comparison: files, folders (searched recursively) and glob patterns.

Every puzzle is read once, in the parent, before any job starts: a missing file or a puzzle its
family rejects is an input error of one line, not a column of failed jobs, and the workers get
the text itself (a Dask worker on another machine need not see the files).
"""

from __future__ import annotations

import glob
import hashlib
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import InputError
from ..inputs import is_inline_puzzle, puzzle_text

#: The names of puzzle files in a folder (the bundled puzzles are ``.txt``); other files there
#: (READMEs, stores, CNFs) are not puzzles.
PUZZLE_SUFFIXES = (".txt",)


@dataclass(frozen=True)
class Puzzle:
    """A puzzle of the corpus: its path as given, its text and format, and the text's sha256."""

    path: str
    text: str
    sha256: str
    format: str | None = None  # None: detected from the text, as ``solve`` does
    size: tuple[int, int] | None = None  # rows, columns of the board
    rules: tuple[str, ...] = ()  # the kinds of global rule its exact-cover data declare (xcc)


def _shown(path: str) -> str:
    """``path`` relative to the working folder when it lies below it."""
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


def expand(args: Sequence[str]) -> list[str]:
    """The puzzle files named by ``args``, in the order given, each once.

    A folder stands for the puzzle files below it (sorted); a pattern with ``*``, ``?`` or ``[``
    for the files it matches (sorted); a puz.link or Penpa+ URL or a Tatham game id that names
    no file for itself, the puzzle (as ``solve`` takes it: :func:`~dlxsat.inputs.is_inline_puzzle`).
    Naming nothing that exists is an input error.
    """
    out: dict[str, None] = {}
    for arg in args:
        if is_inline_puzzle(arg):
            out.setdefault(arg, None)  # (as given: a path's normalizing would mangle a URL)
            continue
        if any(c in arg for c in "*?["):
            matches = sorted(glob.glob(arg, recursive=True))
            if not matches:
                raise InputError(f"{arg}: no file matches this pattern")
            paths = []
            for m in matches:
                paths.extend(_folder(m) if os.path.isdir(m) else [m])
        elif os.path.isdir(arg):
            paths = _folder(arg)
            if not paths:
                raise InputError(f"{arg}: no puzzle files ({', '.join(PUZZLE_SUFFIXES)}) in it")
        elif os.path.exists(arg):
            paths = [arg]
        else:
            raise InputError(f"{arg}: no such file")
        for p in paths:
            out.setdefault(_shown(os.path.normpath(p)), None)
    return list(out)


def _folder(folder: str) -> list[str]:
    found: list[str] = []
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        found.extend(
            os.path.join(root, f)
            for f in sorted(files)
            if f.endswith(PUZZLE_SUFFIXES) and not f.startswith(".")
        )
    return found


def board_size(puzzle: Any) -> list[int]:
    """Rows and columns of a board (a Sudoku of order n is n by n)."""
    if hasattr(puzzle, "m"):
        return [int(puzzle.m), int(puzzle.n)]
    return [int(puzzle.n), int(puzzle.n)]


def load(
    args: Sequence[str],
    family: str,
    format: str | None = None,
    notes: list[str] | None = None,
    loop: bool = False,
) -> list[Puzzle]:
    """Read and check every puzzle named by ``args`` as a puzzle of ``family`` (with ``loop``,
    as exact-cover data that follow the loop convention: ``compare xcc --loop``).

    A file may hold many puzzles (one a line, or records separated by empty lines, as ``solve``
    reads them: :func:`dlxsat.formats.split_records`); each is then a puzzle of its own, named
    ``FILE:LINE``. Two puzzles with the same text are one (the first name names it), and a note
    saying so is added to ``notes``: the jobs would be the same jobs (docs/store.md's job id).
    """
    from ..families import get_spec
    from ..families.spec import Policy
    from ..formats import detect, read, split_records

    spec = get_spec(family)
    policy = Policy(loop=loop)
    spec.prepare([], policy)  # a policy the family refuses, before any file is read

    puzzles: dict[str, Puzzle] = {}
    same: dict[str, list[str]] = {}  # the first name of a puzzle -> the names of its copies
    for path in expand(args):
        text = puzzle_text(path)
        records = split_records(family, text, format)
        if len(records) <= 1:
            named = [(path, text, format)]
        else:
            name = format or detect(family, records[0][1])
            named = [(f"{path}:{line}", record, name) for line, record in records]
        for shown, record, fmt in named:
            try:
                puzzle = spec.prepare([read(family, record, fmt)], policy)[0][0]
            except InputError as e:
                raise InputError(f"{shown}: {e}") from None
            digest = hashlib.sha256(record.encode()).hexdigest()
            size = board_size(puzzle)
            declared = getattr(puzzle, "problem", None)  # exact-cover data: their own rules
            kinds = tuple(sorted({r.kind for r in declared.rules})) if declared else ()
            first = puzzles.setdefault(
                digest, Puzzle(shown, record, digest, fmt, (size[0], size[1]), kinds)
            )
            if first.path != shown:
                same.setdefault(first.path, []).append(shown)
    for first_path, others in same.items():
        if notes is not None:
            more = f" and {len(others) - 1} more" if len(others) > 1 else ""
            notes.append(
                f"{others[0]}{more}: the same puzzle as {first_path} (byte for byte); taken once"
            )
    return list(puzzles.values())
