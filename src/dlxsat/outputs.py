"""Every output of dlxsat -- stdout and the files it writes -- whole, or an error naming it.

**Every byte is checked.** A write may take fewer bytes than it was given (a nearly full disk;
Python's unbuffered ``-u`` stdout, whose text layer drops the rest without a word), so every
write goes through :func:`write_all`, which writes the rest until all of it got through and
turns a write that takes nothing into an error. Any failure is one :class:`OutputError` line
naming the output (``out.txt: cannot write: No space left on device``, ``cannot write to
stdout: ...``): exit status 2.

**Files appear whole or not at all.** A regular file (or a new path) is written to a
temporary file beside it and renamed over it at the end, so a failure, a time limit or a
signal never leaves half a file: the temporary file is removed (the process guard of
:mod:`dlxsat.runtime.guard` removes it even when the process is ended from outside). Its name
says which process made it (``.dlxsat-HOST.PID.START-XXXXXXXX``), so the one a killed run
(``SIGKILL``) left behind is removed by the next run that writes in that folder. The file gets
the permissions a plain ``open(path, "w")`` would give (``0666`` less the umask), not the
``0600`` of :func:`tempfile.mkstemp`.

**Outputs of one command appear together.** Inside :func:`together` (the command line puts
every command in one) the renames wait for the end of the block: when anything in it fails --
the second picture of ``--svg a --png b``, the answer on stdout -- none of its files appears.

What the path names is kept: a symbolic link is followed and its target written (atomically, in
the target's directory, when the target is a regular file or does not exist yet), and a device,
a FIFO or a socket is written in place, never replaced by a regular file (``-o /dev/null``
discards, ``-o /dev/full`` fails with "no space left"). ``-o -`` and ``-o /dev/stdout`` write
to standard output whatever it is (a pipe, a terminal, a file), after the rest of the output
is made.
"""

from __future__ import annotations

import errno
import hashlib
import io
import os
import re
import select
import stat
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from .errors import InputError
from .runtime import cleanup
from .runtime.host import running, start_ticks

#: The names of standard output as an output path.
STDOUT_NAMES = ("-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1")
#: Unbuffered text is gathered into writes of this size (the buffer of files written).
CHUNK = 1 << 16


class OutputError(InputError):
    """An output could not be written whole (a full disk, a closed stdout, a folder that cannot
    be written): one line naming it, exit status 2."""


class StdoutError(OutputError):
    """stdout cannot take the output (closed, a full disk): one line, exit status 2."""


# --------------------------------------------------------------------------- every byte


def write_all(write: Callable[[Any], int | None], data: bytes | memoryview, what: str) -> None:
    """Write all of ``data`` with ``write`` (a file's ``write`` or ``os.write`` on a
    descriptor, which return how many bytes they took): what a short write left is written
    again, and a write that takes nothing is an :class:`OSError` (``ENOSPC``) naming ``what``
    and how far it got. A descriptor that would block (a non-blocking pipe that is full) is
    waited for.

    >>> got = []
    >>> write_all(lambda b: got.append(bytes(b[:2])) or 2, b"hello", "demo"); b"".join(got)
    b'hello'
    >>> write_all(lambda b: 0, b"hello", "demo")
    Traceback (most recent call last):
    OSError: [Errno 28] No space left on device: 'demo: 0 of 5 bytes written'
    """
    view = memoryview(data).cast("B")
    done = 0
    while done < len(view):
        try:
            n = write(view[done:])
        except BlockingIOError as e:  # a buffered writer: it took some of it
            n = e.characters_written
            if not n:
                _wait_writable(write)
                continue
        if n is None:  # a raw non-blocking writer: nothing taken yet
            _wait_writable(write)
            continue
        if n <= 0:
            msg = f"{what}: {done} of {len(view)} bytes written"
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), msg)
        done += n


def _wait_writable(write: Callable[[Any], int | None]) -> None:
    """Wait until the descriptor behind ``write`` can take more (a moment, if it is unknown)."""
    owner = getattr(write, "__self__", None)
    try:
        fd = owner.fileno() if owner is not None else None
    except (OSError, ValueError, AttributeError):
        fd = None
    if fd is None:
        time.sleep(0.01)
        return
    select.select([], [fd], [], 1.0)


class _CheckedFileIO(io.FileIO):
    """A file descriptor whose every write is written whole (:func:`write_all`): the raw layer
    of the files this module writes, below Python's own buffer."""

    def write(self, data: Any) -> int:
        write_all(self._write_some, data, self.name if isinstance(self.name, str) else "output")
        return len(memoryview(data).cast("B"))

    def _write_some(self, data: Any) -> int | None:
        """One write of the descriptor (the seam a test replaces to stand for a full disk)."""
        return super().write(data)


def _checked_file(fd: int, binary: bool, name: str) -> Any:
    """The file object to write ``fd`` through: buffered, every byte checked, text as UTF-8."""
    raw = _CheckedFileIO(fd, "wb", closefd=True)
    raw.name = name
    buffered = io.BufferedWriter(raw, CHUNK)
    if binary:
        return buffered
    return io.TextIOWrapper(buffered, encoding="utf-8", newline="\n")


# --------------------------------------------------------------------------- failures


def _cannot(path: str, e: OSError) -> OutputError:
    reason = e.strerror or str(e)
    if e.errno == errno.EISDIR:
        return OutputError(f"{path}: is a directory, not an output file")
    if e.errno == errno.ENOSPC and e.filename and "bytes written" in str(e.filename):
        reason += f" ({str(e.filename).rsplit(': ', 1)[-1]})"
    return OutputError(f"{path}: cannot write: {reason}")


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


# --------------------------------------------------------------------------- where it goes


def is_stdout(path: str) -> bool:
    """Whether output path ``path`` names standard output (``-``, ``/dev/stdout``, ...).

    >>> is_stdout("-"), is_stdout("/dev/stdout"), is_stdout("out.txt")
    (True, True, False)
    """
    return path in STDOUT_NAMES or os.path.normpath(path) in STDOUT_NAMES


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
        raise OutputError(f"{path}: is a directory, not an output file")
    return target, not stat.S_ISREG(mode)


# --------------------------------------------------------------------------- together


@dataclass
class _Pending:
    """A file written to its temporary file, waiting for the end of :func:`together`."""

    tmp: str
    target: str
    path: str


_stages: list[list[_Pending]] = []


@contextmanager
def together() -> Iterator[None]:
    """The files written (by :func:`atomic_output`) in the block appear at its end, all of
    them, or -- when anything in the block fails -- none: their temporary files are removed.
    Blocks nest; an inner block's files appear at the end of the inner block.

    >>> import pathlib, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> try:
    ...     with together():
    ...         with atomic_output(str(folder / "a.txt")) as f:
    ...             _ = f.write("a")
    ...         raise InputError("the second output failed")
    ... except InputError:
    ...     pass
    >>> sorted(p.name for p in folder.iterdir())
    []
    """
    pending: list[_Pending] = []
    _stages.append(pending)
    try:
        yield
    except BaseException:
        _discard(pending)
        raise
    finally:
        _stages.pop()  # (blocks nest: this one is the innermost)
    _commit(pending)


def _commit(pending: list[_Pending]) -> None:
    """Rename each temporary file over its target; if one cannot be, the rest are dropped
    and the files this commit created are removed again (the files it replaced stay new)."""
    created: list[str] = []
    for k, p in enumerate(pending):
        existed = os.path.lexists(p.target)
        try:
            os.replace(p.tmp, p.target)
        except OSError as e:
            _discard(pending[k:])
            for target in created:
                _remove(target)
            raise _cannot(p.path, e) from None
        cleanup.untrack_temp(p.tmp)
        if not existed:
            created.append(p.target)


def _discard(pending: list[_Pending]) -> None:
    for p in pending:
        _remove(p.tmp)
        cleanup.untrack_temp(p.tmp)


# --------------------------------------------------------------------------- temporary files


def _host_key() -> str:
    """This machine and process-id namespace, in the names of temporary files: a file made
    under another (another machine's on a shared folder, another container's) is never judged
    by the processes seen from here."""
    try:
        namespace = os.stat("/proc/self/ns/pid").st_ino
    except OSError:
        namespace = 0
    return hashlib.sha256(f"{os.uname().nodename}:{namespace}".encode()).hexdigest()[:8]


_HOST = _host_key()
_TEMP_NAME = re.compile(r"^\.dlxsat-([0-9a-f]{8})\.(\d+)\.(\d+)-")
#: A temporary file whose maker cannot be told (another machine's, an older dlxsat's) is
#: stale after this many seconds.
STALE_AFTER = 24 * 3600.0
_swept: set[str] = set()


def _temp_prefix() -> str:
    pid = os.getpid()
    return f".dlxsat-{_HOST}.{pid}.{start_ticks(pid)}-"


def temp_name(folder: str) -> str:
    """A new name for a temporary file of this process in ``folder`` (nothing is created):
    one :func:`sweep_stale` removes once this process has ended."""
    return os.path.join(folder, _temp_prefix() + os.urandom(6).hex())


def sweep_stale(folder: str) -> list[str]:
    """Remove the temporary files of dlxsat runs that ended without removing them (killed by
    ``SIGKILL``, or a machine that went down) from ``folder``; the names removed. A file made
    by a process of this machine that still runs is kept; one whose maker cannot be told, once
    it is a day old. Done once per folder and process, by :func:`atomic_output`."""
    removed: list[str] = []
    try:
        names = [n for n in os.listdir(folder or ".") if n.startswith(".dlxsat-")]
    except OSError:
        return removed
    now = time.time()
    for name in names:
        path = os.path.join(folder, name)
        m = _TEMP_NAME.match(name)
        if m and m.group(1) == _HOST:
            stale = not running(int(m.group(2)), int(m.group(3)))
        else:
            try:
                stale = now - os.lstat(path).st_mtime > STALE_AFTER
            except OSError:
                continue
        if stale and _remove(path):
            removed.append(name)
    return removed


# --------------------------------------------------------------------------- atomic_output


@contextmanager
def atomic_output(path: str, binary: bool = False, *, alone: bool = False) -> Iterator[Any]:
    """A text (or ``binary``) file to write ``path`` through: the file appears whole, and only
    if the block succeeds (inside :func:`together`, only if that block succeeds too, unless
    ``alone``); devices and FIFOs are written in place, ``-`` and ``/dev/stdout`` are stdout
    (see the module's docstring). Text is written as UTF-8.

    >>> import pathlib, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> with atomic_output(str(folder / "out.txt")) as f:
    ...     _ = f.write("hello\\n")
    >>> sorted(p.name for p in folder.iterdir()), (folder / "out.txt").read_text()
    (['out.txt'], 'hello\\n')
    """
    if is_stdout(path):
        with _to_stdout(binary) as f:
            yield f
        return
    target, in_place = resolve_output(path)
    if in_place:
        with _in_place(path, target, binary) as f:
            yield f
        return
    folder = os.path.dirname(target)
    if folder not in _swept:
        _swept.add(folder)
        sweep_stale(folder)
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=_temp_prefix())
    except OSError as e:
        raise _cannot(path, e) from None
    cleanup.track_temp(tmp)
    staged = False
    try:
        os.fchmod(fd, 0o666 & ~_umask())
        f = _checked_file(fd, binary, path)
        with f:
            yield f
        if _stages and not alone:
            _stages[-1].append(_Pending(tmp, target, path))
            staged = True
        else:
            os.replace(tmp, target)
    except OSError as e:
        _remove(tmp)
        raise _cannot(path, e) from None
    except BaseException:
        _remove(tmp)
        raise
    finally:
        if not staged:
            cleanup.untrack_temp(tmp)


@contextmanager
def _in_place(path: str, target: str, binary: bool) -> Iterator[Any]:
    """Write a device or FIFO through an ordinary open (no rename: it stays what it is)."""
    try:
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)
    except OSError as e:
        raise _cannot(path, e) from None
    f = _checked_file(fd, binary, path)
    try:
        yield f
        f.close()  # the flush that tells a full device
    except OSError as e:
        _close_quietly(f)
        raise _cannot(path, e) from None
    except BaseException:
        _close_quietly(f)
        raise


@contextmanager
def _to_stdout(binary: bool) -> Iterator[Any]:
    """Gather the output in memory, then write it to stdout whole (nothing when the block
    fails): ``-o -``, ``-o /dev/stdout``, whatever stdout is."""
    buffer: Any = io.BytesIO() if binary else io.StringIO()
    yield buffer
    write_stdout(buffer.getvalue())


def _close_quietly(f: Any) -> None:
    try:
        f.close()
    except OSError:
        pass


def _remove(path: str) -> bool:
    try:
        os.unlink(path)
    except OSError:
        return False
    return True


# --------------------------------------------------------------------------- stdout


def _put(stream: Any, data: str | bytes) -> None:
    """Write ``data`` to the text stream ``stream`` (stdout) all of it, or raise
    :class:`OSError`: through its binary layer, with :func:`write_all`, when it has one (the
    text layer of an unbuffered stream drops what a short write left), else through
    ``write``, whose count is checked."""
    binary = getattr(stream, "buffer", None)
    if binary is None:
        if isinstance(data, bytes):
            raise OSError(errno.EINVAL, "stdout takes no bytes here")
        n = stream.write(data)
        if n is not None and n < len(data):
            raise OSError(errno.ENOSPC, f"short write: {n} of {len(data)} characters written")
        return
    if isinstance(data, str):
        data = data.encode(stream.encoding or "utf-8", stream.errors or "strict")
    write_all(binary.write, data, "stdout")
    if getattr(stream, "line_buffering", False) or getattr(stream, "write_through", False):
        binary.flush()


class _GuardedStdout:
    """sys.stdout for the program: every write checked whole (:func:`write_all`), and a failed
    write a :class:`StdoutError` (one line, not a traceback), told once; after it, writes and
    flushes are dropped, so that the flush at exit cannot fail a second time. ``stream`` None
    stands for a stdout closed at start (``>&-``)."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream
        self._failed = False
        if stream is not None:
            try:
                stream.flush()  # what was written before goes first
            except (OSError, ValueError):
                pass

    def _fail(self, reason: str) -> StdoutError:
        self._failed = True
        if self._stream is None:
            return StdoutError("stdout is closed: nowhere to write the output")
        return StdoutError(f"cannot write to stdout: {reason}")

    def write(self, text: str) -> int:
        self.put(text)
        return len(text)

    def put(self, data: str | bytes) -> None:
        """Write text or bytes, all of it (see :func:`_put`)."""
        if self._failed:
            return
        if self._stream is None:
            raise self._fail("it is closed")
        try:
            _put(self._stream, data)
        except BrokenPipeError:  # the reader went away (`| head`): not an error of ours
            self._failed = True
            raise
        except (OSError, ValueError) as e:
            raise self._fail(_reason(e)) from None

    def flush(self) -> None:
        if self._failed or self._stream is None:
            return
        try:
            binary = getattr(self._stream, "buffer", None)
            (binary or self._stream).flush()
        except BrokenPipeError:
            self._failed = True
            raise
        except (OSError, ValueError) as e:
            raise self._fail(_reason(e)) from None

    def isatty(self) -> bool:
        return self._stream is not None and not self._failed and self._stream.isatty()

    @property
    def closed(self) -> bool:
        return self._stream is None or self._failed or bool(self._stream.closed)

    def __getattr__(self, name: str) -> Any:
        if self._stream is None:
            raise AttributeError(name)
        return getattr(self._stream, name)


def _reason(e: BaseException) -> str:
    reason = getattr(e, "strerror", None) or str(e)
    where = getattr(e, "filename", None)
    if isinstance(where, str) and "bytes written" in where:
        reason += f" ({where.rsplit(': ', 1)[-1]})"
    return str(reason)


def write_stdout(data: str | bytes) -> None:
    """Write ``data`` (text, or the bytes of a picture) to stdout, all of it, and flush:
    a :class:`StdoutError` when it cannot be (``BrokenPipeError`` passes: the reader left)."""
    out = sys.stdout
    if isinstance(out, _GuardedStdout):
        out.put(data)
        out.flush()
        return
    if out is None:
        raise StdoutError("stdout is closed: nowhere to write the output")
    try:
        _put(out, data)
        out.flush()
    except BrokenPipeError:
        raise
    except (OSError, ValueError) as e:  # a full disk, `> /dev/full`, a closed descriptor
        raise StdoutError(f"cannot write to stdout: {_reason(e)}") from None


def guard_std_streams() -> None:
    """Make the program's standard streams safe to use, whatever it was started with.

    A descriptor 0, 1 or 2 closed at start is opened on ``/dev/null``, so no file the run opens
    (a results store) lands on it and receives stray output. A closed stderr then discards the
    error lines (the exit status still tells) rather than ``print(file=None)`` sending them to
    stdout; stdout becomes :class:`_GuardedStdout`, so a closed, full or short stdout is one
    error line.
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
