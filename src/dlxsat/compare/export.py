"""A corpus as a SAT benchmark set: one DIMACS file per puzzle and setting, and a manifest.

``dlxsat export dimacs FAMILY PUZZLES... -o DIR --settings 'sat:encoding=...'`` writes, for each
puzzle and each setting, the CNF that ``dlxsat export dimacs`` writes for one puzzle (the
complete ``eager`` loop encoding for the loop families, the meaning of every variable in
comments), and ``DIR/manifest.json``: for each file its puzzle, setting, and the expected
outcome -- the status of the puzzle (``unique``, ``multiple``, ``none``: solved once here, by the
default backend, in ``unique`` mode) and the hash of its answers (:func:`store.answer_hash`),
so a model any other SAT solver finds can be decoded (``dlxsat decode``) and checked against it.
Only the options that shape the formula (``encoding``, ``colors``; ``loop`` must be ``eager``)
may be given.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Collection, Sequence
from typing import Any

from ..errors import InputError

#: The keys of a ``sat`` setting that change the CNF (the others choose how it is solved).
FORMULA_KEYS = ("encoding", "colors")


def _write(path: str, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all (:func:`dlxsat.outputs.atomic_output`)."""
    from ..outputs import atomic_output

    with atomic_output(path) as f:
        f.write(text)


def _slug(text: str) -> str:
    """A file-name piece for a setting's text.

    >>> _slug("sat:colors=onehot;encoding=totalizer")
    'sat-colors=onehot-encoding=totalizer'
    """
    return re.sub(r"[^A-Za-z0-9_.=-]+", "-", text).strip("-")


def _stem(path: str) -> str:
    """A file-name piece for a puzzle: its file's name without suffix (``FILE:LINE`` of a file
    of many puzzles gives ``FILE-LINE``).

    >>> _stem("puzzles/masyu/tatham-10x10.txt"), _stem("hard.txt:12")
    ('tatham-10x10', 'hard-12')
    """
    path, _, line = path.rpartition(":") if re.search(r":\d+$", path) else (path, "", "")
    stem = os.path.splitext(os.path.basename(path))[0]
    return f"{stem}-{line}" if line else stem


def _formula_settings(specs: Sequence[str], rules: Collection[str]) -> tuple[list[Any], list[str]]:
    from .settings import RULE_KEYS, parse_spec

    chosen: dict[str, Any] = {}
    notes = []
    for spec in specs or ["sat"]:
        for s in parse_spec(spec):
            if s.backend != "sat":
                raise InputError(f"export: --settings {spec!r}: only sat settings make a CNF")
            skip = None
            for key in RULE_KEYS:
                mode = s.options.get(key)
                if mode is not None and mode != "eager":
                    skip = f"an exported CNF has the complete {key} encoding"
                elif mode is not None and key not in rules:
                    skip = "this family has no loop" if key == "loop" else f"no {key} rule"
            if skip:
                notes.append(f"skipping {s.text}: {skip}")
                continue
            other = sorted(k for k in s.options if k not in (*FORMULA_KEYS, *RULE_KEYS))
            if other:
                raise InputError(
                    f"export: --settings {spec!r}: {other[0]} does not change the CNF "
                    f"(only {', '.join(FORMULA_KEYS)} do)"
                )
            formula = {k: v for k, v in s.options.items() if k in FORMULA_KEYS}
            from .settings import Setting

            canonical = Setting("sat", formula)
            chosen.setdefault(canonical.text, canonical)
    return list(chosen.values()), notes


def export_corpus(
    family: str,
    puzzles: Sequence[str],
    specs: Sequence[str],
    folder: str,
    *,
    timeout: float | None = None,
    format: str | None = None,
) -> list[dict[str, Any]]:
    """Write the CNF files and ``manifest.json`` into ``folder``; the manifest's entries."""
    from .. import __version__
    from ..backends.external import cnf_text
    from ..families import get_spec
    from ..pipeline import prepare, solve
    from .corpus import load
    from .store import answer_hash

    check_folder(folder)
    settings, notes = _formula_settings(specs, get_spec(family).rules)
    for note in notes:
        print(f"dlxsat: note: {note}", file=sys.stderr)
    if not settings:
        raise InputError("export: no setting left to export")
    copies: list[str] = []
    corpus = load(puzzles, family, format, copies)
    for note in copies:
        print(f"dlxsat: note: {note}", file=sys.stderr)
    made = not os.path.isdir(folder)
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as e:
        raise InputError(f"{folder}: cannot make the folder: {e.strerror}") from None
    from ..outputs import together

    entries: list[dict[str, Any]] = []
    try:
        # The CNF files and the manifest appear together at the end, or none of them (a full
        # disk once left CNF files and no manifest.json); a folder made here goes too.
        with together():
            stems = [_stem(p.path) for p in corpus]
            for puzzle, stem in zip(corpus, stems, strict=True):
                if stems.count(stem) > 1:  # two folders with a tatham-10x10.txt each
                    stem = f"{stem}-{puzzle.sha256[:8]}"
                prep = prepare(family, puzzle.text, puzzle.format)
                expected = solve(family, prep.puzzle, mode="unique", timeout=timeout)
                for s in settings:
                    text = cnf_text(
                        prep.problem,
                        source=f"{family} {puzzle.path}",
                        **{k: s.options.get(k) for k in FORMULA_KEYS},
                    )
                    name = f"{stem}--{_slug(s.text)}.cnf"
                    _write(os.path.join(folder, name), text)
                    header = next(line for line in text.splitlines() if line.startswith("p cnf "))
                    nvars, nclauses = (int(x) for x in header.split()[2:4])
                    entries.append(
                        {
                            "cnf": name,
                            "puzzle": puzzle.path,
                            "puzzle_sha256": puzzle.sha256,
                            "family": family,
                            "setting": s.text,
                            "variables": nvars,
                            "clauses": nclauses,
                            "expected_status": expected.status,
                            "count": expected.count,
                            "answer_sha256": answer_hash(expected.solutions)
                            if expected.status in ("unique", "none")
                            else None,
                        }
                    )
            manifest = {"dlxsat_version": __version__, "family": family, "entries": entries}
            _write(os.path.join(folder, "manifest.json"), json.dumps(manifest, indent=1) + "\n")
    except BaseException:
        if made:
            _remove_empty(folder)
        raise
    return entries


_FOLDER = "give -o the name of a folder for its CNF files and manifest.json"


def check_folder(folder: str) -> None:
    """Refuse, before any work, an output that cannot be a corpus export's folder: stdout, a
    file, or a new name ending in ``.cnf`` (``-o x.cnf`` made a folder named ``x.cnf``).

    >>> check_folder("x.cnf")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    dlxsat.errors.InputError: x.cnf: a corpus export makes a folder, not one .cnf file: ...
    """
    from ..outputs import is_stdout

    if is_stdout(folder):
        raise InputError(f"{folder}: a corpus export makes a folder, not stdout: {_FOLDER}")
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise InputError(f"{folder}: not a folder (a corpus export writes several files)")
    if not os.path.isdir(folder) and folder.rstrip("/").lower().endswith(".cnf"):
        raise InputError(f"{folder}: a corpus export makes a folder, not one .cnf file: {_FOLDER}")


def _remove_empty(folder: str) -> None:
    """Remove ``folder`` if nothing is left in it (an export that failed, its files taken back)."""
    try:
        os.rmdir(folder)
    except OSError:
        pass  # not empty: someone else's files, or a temporary file a signal left
