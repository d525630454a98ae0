"""Writing output files whole or not at all.

An output file is written to a temporary file beside it and renamed over it at the end, so a
failure, a time limit or a signal never leaves half a file: the temporary file is removed (the
process guard of :mod:`dlxsat.limits` removes it even when the process is ended from outside).
The file gets the permissions a plain ``open(path, "w")`` would give (``0666`` less the umask),
not the ``0600`` of :func:`tempfile.mkstemp`.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from . import limits
from .errors import InputError


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


@contextmanager
def atomic_output(path: str, binary: bool = False) -> Iterator[Any]:
    """A text (or ``binary``) file to write ``path`` through; renamed to ``path`` only if the
    block succeeds.

    >>> import pathlib, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> with atomic_output(str(folder / "out.txt")) as f:
    ...     _ = f.write("hello\\n")
    >>> sorted(p.name for p in folder.iterdir()), (folder / "out.txt").read_text()
    (['out.txt'], 'hello\\n')
    """
    if os.path.isdir(path):
        raise InputError(f"{path}: is a directory, not an output file")
    folder = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".dlxsat-")
    except OSError as e:
        raise InputError(f"{path}: cannot write: {e.strerror}") from None
    limits.track_temp(tmp)
    try:
        os.fchmod(fd, 0o666 & ~_umask())
        with os.fdopen(fd, "wb" if binary else "w") as f:
            yield f
        os.replace(tmp, path)
    except OSError as e:
        _remove(tmp)
        raise InputError(f"{path}: cannot write: {e.strerror or e}") from None
    except BaseException:
        _remove(tmp)
        raise
    finally:
        limits.untrack_temp(tmp)


def _remove(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass
