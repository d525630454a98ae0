"""The compiled tier's loader: ``kernel.py``'s kernels as machine code, compiled ahead of time
where that can be done, by numba's JIT otherwise.

* **Ahead of time** (:mod:`.aot`): ``numba.pycc`` compiles every kernel of :data:`SIGNATURES`,
  for both integer sizes, into one C extension module kept in the user's cache directory
  (``$XDG_CACHE_HOME/dlxsat`` or ``~/.cache/dlxsat``), named after a hash of the kernels'
  source, the numba, numpy and Python versions and the CPU, so that a stale module is never
  loaded. Loading it takes about a millisecond and imports numpy, not numba. It is built the
  first time a process needs a compiled kernel (some tens of seconds, once), or beforehand with
  ``python -m dlxsat.backends.dlx.compiled --build``.
* **JIT** (:mod:`.jit`): numba compiles a kernel at its first call and keeps it in its own
  on-disk cache; loading from that cache costs some tenths of a second (importing numba).
  Used where no module can be built (no C compiler, no ``numba.pycc``, a failed build), for a
  kernel without a signature in :data:`SIGNATURES`, and when ``DLXSAT_AOT=0``.

Either way the kernels are the same code with the same search trees; :func:`kernel` hands out
one kernel for one integer size, as the backend and the batch path ask for them.
"""

from __future__ import annotations

import sys
from typing import Any

from .catalog import DTYPES, ELSEWHERE, HELPERS, KERNELS, SIGNATURES  # noqa: F401

#: (kernel name, dtype name) handed out in this process already.
_ready: set[tuple[str, str]] = set()
#: The ahead-of-time module: not looked for yet (None), loaded, or unavailable (False).
_module: Any = None


def kernel(name: str, dtype: Any) -> Any:
    """Kernel ``name`` (``search_c``, ``search_m``; the batch path's ``search_given`` and
    ``search_many``;
    ``estimate``'s ``probe``) compiled for ``nd``/``cl`` arrays of ``dtype`` (``int16`` or
    ``int32``): from the ahead-of-time module when there is one (built first if need be), else
    from numba's JIT."""
    import numpy as np

    dtype_name = np.dtype(dtype).name
    function = _ahead_of_time(name, dtype_name)
    if function is None:
        from . import jit

        function = jit.kernel(name, dtype)
    _ready.add((name, dtype_name))
    return function


def is_ready(name: str, dtype: Any) -> bool:
    """Whether :func:`kernel` has handed out ``name`` for ``dtype`` in this process."""
    import numpy as np

    return (name, np.dtype(dtype).name) in _ready


def ahead_of_time() -> bool:
    """Whether this process runs the ahead-of-time module's kernels (looked for, or built,
    on the first call)."""
    global _module
    if _module is None:
        from . import aot

        _module = aot.module() or False
    return _module is not False


def _ahead_of_time(name: str, dtype_name: str) -> Any:
    if name not in SIGNATURES or dtype_name not in DTYPES or not ahead_of_time():
        return None
    from .aot import export_name

    return getattr(_module, export_name(name, dtype_name), None)


def main(argv: list[str] | None = None) -> int:
    """``python -m dlxsat.backends.dlx.compiled --build``: build the ahead-of-time module now
    (in the cache directory, or ``--directory``) and print its path; status 1 and the reason
    on stderr when it cannot be built."""
    import argparse
    from pathlib import Path

    from ...exits import Exit
    from . import aot

    ap = argparse.ArgumentParser(description="Build dlxsat's compiled dancing-links kernels.")
    ap.add_argument("--build", action="store_true", help="build the ahead-of-time module")
    ap.add_argument("--directory", help="where to keep it (default: the cache directory)")
    args = ap.parse_args(argv)
    if not args.build:
        ap.print_usage(sys.stderr)
        return Exit.INPUT
    try:
        path = aot.build(Path(args.directory) if args.directory else None)
    except aot.BuildError as e:
        print(f"dlxsat: cannot build the compiled kernels: {e}", file=sys.stderr)
        return Exit.BUG
    print(path)
    return Exit.OK


if __name__ == "__main__":
    sys.exit(main())
