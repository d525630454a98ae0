"""Writing output files whole or not at all, without replacing what the path names.

A regular file (or a new path) is written to a temporary file beside it and renamed over it at
the end, so a failure, a time limit or a signal never leaves half a file: the temporary file is
removed (the process guard of :mod:`dlxsat.runtime.guard` removes it even when the process is ended
from outside). The file gets the permissions a plain ``open(path, "w")`` would give (``0666``
less the umask), not the ``0600`` of :func:`tempfile.mkstemp`.

What the path names is kept: a symbolic link is followed and its target written (atomically, in
the target's directory, when the target is a regular file or does not exist yet), and a device,
a FIFO or a socket is written in place, never replaced by a regular file (``-o /dev/null``
discards, ``-o /dev/full`` fails with "no space left", ``-o /dev/stdout`` writes to stdout).
Every failure is one :class:`InputError` line naming the path.
"""

from __future__ import annotations

import errno
import os
import stat
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from .errors import InputError
from .runtime import cleanup


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _cannot(path: str, e: OSError) -> InputError:
    reason = e.strerror or str(e)
    if e.errno == errno.EISDIR:
        return InputError(f"{path}: is a directory, not an output file")
    return InputError(f"{path}: cannot write: {reason}")


def resolve_output(path: str) -> tuple[str, bool]:
    """The file to write for output ``path``, and whether it is written in place.

    Links are followed (a dangling link names the file to create); the result is written in
    place when it exists and is not a regular file (a device, a FIFO, a socket), else by a
    temporary file and a rename. A directory is an :class:`InputError`.

    >>> resolve_output("/dev/null")
    ('/dev/null', True)
    """
    target = os.path.realpath(path)
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        return target, False
    except OSError as e:
        raise _cannot(path, e) from None
    if stat.S_ISDIR(mode):
        raise InputError(f"{path}: is a directory, not an output file")
    return target, not stat.S_ISREG(mode)


@contextmanager
def atomic_output(path: str, binary: bool = False) -> Iterator[Any]:
    """A text (or ``binary``) file to write ``path`` through: the file appears whole, and only
    if the block succeeds (devices and FIFOs are written in place, see the module's docstring).

    >>> import pathlib, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> with atomic_output(str(folder / "out.txt")) as f:
    ...     _ = f.write("hello\\n")
    >>> sorted(p.name for p in folder.iterdir()), (folder / "out.txt").read_text()
    (['out.txt'], 'hello\\n')
    """
    target, in_place = resolve_output(path)
    if in_place:
        with _in_place(path, target, binary) as f:
            yield f
        return
    folder = os.path.dirname(target)
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".dlxsat-")
    except OSError as e:
        raise _cannot(path, e) from None
    cleanup.track_temp(tmp)
    try:
        os.fchmod(fd, 0o666 & ~_umask())
        with os.fdopen(fd, "wb" if binary else "w") as f:
            yield f
        os.replace(tmp, target)
    except OSError as e:
        _remove(tmp)
        raise _cannot(path, e) from None
    except BaseException:
        _remove(tmp)
        raise
    finally:
        cleanup.untrack_temp(tmp)


@contextmanager
def _in_place(path: str, target: str, binary: bool) -> Iterator[Any]:
    """Write a device or FIFO through an ordinary ``open`` (no rename: it stays what it is)."""
    try:
        f = open(target, "wb" if binary else "w")  # noqa: SIM115 - closed below, errors told
    except OSError as e:
        raise _cannot(path, e) from None
    try:
        yield f
        f.close()  # the flush that tells a full device
    except OSError as e:
        _close_quietly(f)
        raise _cannot(path, e) from None
    except BaseException:
        _close_quietly(f)
        raise


def _close_quietly(f: Any) -> None:
    try:
        f.close()
    except OSError:
        pass


def _remove(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


class StdoutError(InputError):
    """stdout cannot take the output (closed, a full disk): one line, exit status 2."""


class _GuardedStdout:
    """sys.stdout for the program: a failed write is a :class:`StdoutError` (one line, not a
    traceback), told once; after it, writes and flushes are dropped, so that the flush at exit
    cannot fail a second time. ``stream`` None stands for a stdout closed at start (``>&-``)."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream
        self._failed = False

    def _fail(self, reason: str) -> StdoutError:
        self._failed = True
        if self._stream is None:
            return StdoutError("stdout is closed: nowhere to write the output")
        return StdoutError(f"cannot write to stdout: {reason}")

    def write(self, text: str) -> int:
        if self._failed:
            return len(text)
        if self._stream is None:
            raise self._fail("it is closed")
        try:
            return int(self._stream.write(text))
        except BrokenPipeError:  # the reader went away (`| head`): not an error of ours
            self._failed = True
            raise
        except (OSError, ValueError) as e:
            raise self._fail(getattr(e, "strerror", None) or str(e)) from None

    def flush(self) -> None:
        if self._failed or self._stream is None:
            return
        try:
            self._stream.flush()
        except BrokenPipeError:
            self._failed = True
            raise
        except (OSError, ValueError) as e:
            raise self._fail(getattr(e, "strerror", None) or str(e)) from None

    def isatty(self) -> bool:
        return self._stream is not None and not self._failed and self._stream.isatty()

    @property
    def closed(self) -> bool:
        return self._stream is None or self._failed or bool(self._stream.closed)

    def __getattr__(self, name: str) -> Any:
        if self._stream is None:
            raise AttributeError(name)
        return getattr(self._stream, name)


def guard_std_streams() -> None:
    """Make the program's standard streams safe to use, whatever it was started with.

    A descriptor 0, 1 or 2 closed at start is opened on ``/dev/null``, so no file the run opens
    (a results store) lands on it and receives stray output. A closed stderr then discards the
    error lines (the exit status still tells) rather than ``print(file=None)`` sending them to
    stdout; stdout becomes :class:`_GuardedStdout`, so a closed or full stdout is one error line.
    """
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            try:
                null = os.open(os.devnull, os.O_RDWR)
            except OSError:
                continue
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - the process's stderr till exit
    if not isinstance(sys.stdout, _GuardedStdout):
        sys.stdout = _GuardedStdout(sys.stdout)
