"""The kernels compiled ahead of time: one C extension module, built by ``numba.pycc`` in the
user's cache directory and loaded by path (about a millisecond, numpy only: no numba).

Why: loading the JIT-compiled kernels from numba's cache costs importing numba and its
first-dispatch set-up, some tenths of a second in every process that outgrows the interpreted
tier; an extension module is a ``dlopen``.

**Never stale.** The module's name is ``dlxkernels_`` and a hash of everything its code comes
from (:func:`key`): the sources of ``kernel.py``, ``arrays.py`` and the modules that compile
them, the numba, numpy and Python versions and the CPU (the code is compiled for the host's
instruction set). Any change gives a new name, so an old module is simply not looked for
(old ones can be deleted with the cache directory at any time). A module that does not load or
lacks a kernel, or is not the file its build wrote (its checksum is kept beside it: a truncated
extension module crashes the process that loads it), is deleted and built again.

**Built once, atomically.** The build runs in a child process (``python -m
dlxsat.backends.dlx.compiled --build``; the compiler's chatter stays off the caller's output),
under a lock file, into a temporary folder in the cache directory, and the finished file is
renamed into place: a process never sees half a module, and processes that start at once build
it once (the others wait at the lock, then load it). A build that fails leaves a
``.failed`` note beside it with the reason; processes then use numba's JIT without trying again
(``--build`` tries again). ``DLXSAT_AOT=0`` turns all this off.
"""

from __future__ import annotations

import contextlib
import importlib.machinery
import importlib.util
import os
import sys
import zlib
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any, cast

from . import catalog

#: ``0`` here turns the ahead-of-time module off (numba's JIT compiles the kernels).
SWITCH = "DLXSAT_AOT"
PREFIX = "dlxkernels_"
HERE = Path(__file__).resolve().parent
#: The files the module's code is generated from.
SOURCES = ("kernel.py", "arrays.py", "estimate.py", "catalog.py", "compiled.py", "jit.py", "aot.py")


class BuildError(Exception):
    """The module could not be built (the reason)."""


def enabled() -> bool:
    """Whether the ahead-of-time module may be used (``DLXSAT_AOT`` is not ``0``)."""
    return os.environ.get(SWITCH, "1").strip() != "0"


def cache_dir() -> Path:
    """``$XDG_CACHE_HOME/dlxsat``, or ``~/.cache/dlxsat``."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "dlxsat"


def _numba_version() -> bytes:
    """Numba's version file (not ``import numba``: that is what the module saves)."""
    spec = importlib.util.find_spec("numba")
    if spec is None or spec.origin is None:
        return b"no numba"
    version = Path(spec.origin).parent / "_version.py"
    try:
        return version.read_bytes()
    except OSError:
        return str(os.stat(spec.origin).st_mtime_ns).encode()


def _numpy_version() -> bytes:
    """Numpy's version file (not ``import numpy``: 60-100 ms of CPU, which asking whether the
    module is built must not cost)."""
    spec = importlib.util.find_spec("numpy")
    if spec is None or spec.origin is None:
        return b"no numpy"
    version = Path(spec.origin).parent / "version.py"
    try:
        return version.read_bytes()
    except OSError:
        return str(os.stat(spec.origin).st_mtime_ns).encode()


def _cpu() -> bytes:
    """What identifies the host's instruction set (the module is compiled for it)."""
    import platform

    try:
        with open("/proc/cpuinfo", "rb") as f:
            for line in f:
                if line.startswith((b"flags", b"Features")):
                    return line
    except OSError:
        pass
    return f"{platform.machine()} {platform.processor()}".encode()


def checksum(data: bytes) -> str:
    """64 bits of ``data``'s CRC-32 and Adler-32, in hex: enough to tell versions of the
    module and its damage apart, and quick to load (``hashlib``'s import costs more than the
    rest of loading the module).

    >>> checksum(b"dancing links")
    '2107704e234a0516'
    """
    return f"{zlib.crc32(data):08x}{zlib.adler32(data):08x}"


def key() -> str:
    """The hash that names the module: its sources, numba, numpy, Python, the CPU."""
    global _key
    if _key is None:
        parts = [(HERE / name).read_bytes() for name in SOURCES]
        parts += [_numba_version(), _numpy_version(), sys.version.encode(), _cpu()]
        _key = checksum(b"\0".join(parts))
    return _key


_key: str | None = None


def module_name() -> str:
    return PREFIX + key()


def module_path(directory: Path | None = None) -> Path:
    """Where the module for this installation lives (it may not exist yet)."""
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    return (directory or cache_dir()) / (module_name() + suffix)


def export_name(name: str, dtype_name: str) -> str:
    """The module's function for kernel ``name`` on ``dtype_name`` arrays."""
    return f"{name}_{dtype_name}"


def _complete(module: ModuleType) -> bool:
    return all(
        hasattr(module, export_name(n, t)) for n in catalog.SIGNATURES for t in catalog.DTYPES
    )


def _stem(path: Path) -> str:
    return path.name.split(".")[0]


def _digest_path(path: Path) -> Path:
    return path.with_name(_stem(path) + ".sum")


def _digest(path: Path) -> str:
    return checksum(path.read_bytes())


def intact(path: Path) -> bool:
    """Whether the file at ``path`` is the one its build wrote (its checksum beside it): a
    damaged extension module can crash the process that loads it (a truncated one: ``SIGBUS``),
    so it is checked first (a millisecond)."""
    try:
        return _digest_path(path).read_text().strip() == _digest(path)
    except OSError:
        return False


def load(path: Path) -> ModuleType | None:
    """The module at ``path``, or None when it is damaged, does not load or lacks a kernel."""
    if not intact(path):
        return None
    name = _stem(path)
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        return None
    try:
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except (ImportError, OSError):
        return None
    return module if _complete(module) else None


def module() -> ModuleType | None:
    """The loaded module, built first when missing (or damaged); None when it is turned off or
    cannot be built (the caller uses numba's JIT then)."""
    if not enabled():
        return None
    directory = cache_dir()
    path = module_path(directory)
    if path.exists():
        loaded = load(path)
        if loaded is not None:
            return loaded
        with contextlib.suppress(OSError):
            path.unlink()  # damaged: built again below
    if _failed(path).exists() or buildable() is not None:
        return None
    _build_in_child(directory)
    return load(path) if path.exists() else None


def _failed(path: Path) -> Path:
    return path.with_name(_stem(path) + ".failed")


def buildable() -> str | None:
    """Why the module cannot be built here (no numba, no ``numba.pycc``, no C compiler), or
    None when it can."""
    spec = importlib.util.find_spec("numba")
    if spec is None or spec.origin is None:
        return "numba is not installed"
    if not (Path(spec.origin).parent / "pycc" / "__init__.py").exists():
        return "this numba has no numba.pycc"
    import shlex
    import shutil
    import sysconfig

    compiler = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    words = shlex.split(compiler)
    if not words or shutil.which(words[0]) is None:
        return f"no C compiler ({compiler!r} not found)"
    return None


def _build_in_child(directory: Path) -> None:
    """Build in a child process, the same ``dlxsat`` package on its path; a failure is noted
    beside the module (the caller falls back to the JIT)."""
    package_root = str(HERE.parent.parent.parent)  # the folder holding ``dlxsat``
    import subprocess

    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH")) if p)
    command = [sys.executable, "-m", "dlxsat.backends.dlx.compiled", "--build"]
    subprocess.run(
        [*command, "--directory", str(directory)],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,
    )


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``path`` (where ``fcntl`` exists; elsewhere the atomic rename
    alone keeps the module whole)."""
    try:
        import fcntl
    except ImportError:
        yield
        return
    with open(path, "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def build(directory: Path | None = None) -> Path:
    """Build the module into ``directory`` (default: :func:`cache_dir`) unless it is there and
    loads; returns its path. Raises :class:`BuildError`."""
    reason = buildable()
    if reason is not None:
        raise BuildError(reason)
    directory = directory or cache_dir()
    directory.mkdir(parents=True, exist_ok=True)
    path = module_path(directory)
    with _locked(path.with_name(_stem(path) + ".lock")):
        if path.exists() and load(path) is not None:
            return path  # built by another process meanwhile
        _failed(path).unlink(missing_ok=True)
        _remove_abandoned_builds(directory)
        try:
            _compile(path)
        except Exception as e:
            reason = f"{type(e).__name__}: {e}".strip()
            _failed(path).write_text(reason + "\n")
            raise BuildError(reason) from e
    return path


#: A temporary build folder older than this (seconds) was left by a build that was killed.
ABANDONED = 3600


def _remove_abandoned_builds(directory: Path) -> None:
    """Delete the build folders of killed builds (a build is some tens of seconds)."""
    import shutil
    import time

    for folder in directory.glob("build-*"):
        with contextlib.suppress(OSError):
            if time.time() - folder.stat().st_mtime > ABANDONED:
                shutil.rmtree(folder)


def _compile(path: Path) -> None:
    """``numba.pycc`` run on every kernel of ``catalog.SIGNATURES`` for every dtype, into a
    temporary folder beside ``path``, the result renamed to ``path``."""
    import tempfile
    import warnings

    _lift_memory_limit()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pycc is "pending deprecation" since numba 0.57
        from numba.pycc.cc import CC

    from . import jit

    env = jit.namespace(cache=False)
    name = _stem(path)
    with tempfile.TemporaryDirectory(prefix="build-", dir=path.parent) as tmp:
        cc: Any = cast(Any, CC)(name)  # (numba.pycc's CC is not annotated)
        cc.output_dir = tmp
        cc.output_file = path.name
        cc.target_cpu = "host"  # as numba's JIT does; the CPU is part of the module's name
        cc.use_nrt = False  # the kernels allocate nothing
        for kernel_name, signature in catalog.SIGNATURES.items():
            for t in catalog.DTYPES:
                function: Any = jit.rebind(jit.python_function(kernel_name), env)
                cc.export(export_name(kernel_name, t), signature.format(t=t))(function)
        with warnings.catch_warnings(), _releasing_the_gil():
            warnings.simplefilter("ignore")
            cc.compile()
        built = Path(tmp) / path.name
        digest = Path(tmp) / _digest_path(path).name
        digest.write_text(_digest(built) + "\n")
        # The digest first: a module in place always has its digest beside it.
        os.replace(digest, _digest_path(path))
        os.replace(built, path)


@contextlib.contextmanager
def _releasing_the_gil() -> Iterator[None]:
    """``numba.pycc`` compiles every export with ``Flags()``, whose ``release_gil`` is off, and
    offers no way to set it: for the length of a build, its ``Flags`` set it.

    Why: a kernel that holds the GIL stops every other thread of the process for the whole
    slice it runs (some milliseconds), so DLX in one thread and SAT or a progress display in
    another take turns instead of running at once. The kernels touch no Python object (they
    are compiled in nopython mode, allocating nothing), so the wrapper may let go of the GIL
    after unboxing the arguments and take it back before boxing the result, as numba's JIT
    does for ``nogil=True``.
    """
    from numba.pycc import compiler as imported

    compiler: Any = imported  # (its ``Flags`` is numba.core.compiler's, imported, not exported)
    original = compiler.Flags

    class Flags(original):  # type: ignore[misc,valid-type]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.release_gil = True

    compiler.Flags = Flags
    try:
        yield
    finally:
        compiler.Flags = original


def _lift_memory_limit() -> None:
    """A build started by a job with a memory limit is not that job's: raise the soft data
    limit to the hard one (the job's own limit is the soft one, ``runtime.memory``)."""
    try:
        import resource
    except ImportError:
        return
    _, hard = resource.getrlimit(resource.RLIMIT_DATA)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_DATA, (hard, hard))
