"""The optional dependencies ("extras") of dlxsat, and one message for a missing one.

dlxsat itself needs only PySAT, OR-tools and numba. Pictures and plots need matplotlib
(``dlxsat[plot]``), progress bars tqdm (``dlxsat[progress]``), ``compare --dask`` the Dask
``distributed`` package (``dlxsat[dask]``), ``verify`` a DRAT checker where drat-trim is not on
the PATH (dratify, ``dlxsat[certify]``), and the documentation Sphinx (``dlxsat[docs]``).
Each feature imports its library through :func:`need` (the feature cannot work without it) or
:func:`wanted` (a comfort: the feature goes on without it), so that a user who lacks one is told
in one line which ``pip install`` to run, and every such line reads the same.

>>> EXTRAS["matplotlib"]
'plot'
>>> missing_message("--png", "matplotlib.figure")
"--png: matplotlib is not installed; run: pip install 'dlxsat[plot]'"
"""

from __future__ import annotations

import sys
from types import ModuleType

from .errors import InputError

#: Importable module -> the extra of ``pyproject.toml`` that installs it.
EXTRAS: dict[str, str] = {
    "matplotlib": "plot",
    "tqdm": "progress",
    "distributed": "dask",
    "sphinx": "docs",
    "dratify": "certify",
}

#: The notes already printed by :func:`wanted` (one per feature and run, not one per call).
_noted: set[str] = set()


def _import(module: str) -> ModuleType:
    # Through the ``__import__`` hook, not importlib, so that whatever stands in for a missing
    # library (``sys.modules[name] = None``, a patched ``__import__``) is honoured here as well.
    __import__(module)
    return sys.modules[module]


def missing_message(feature: str, module: str) -> str:
    """The one line telling the user that ``feature`` needs ``module`` and how to install it."""
    top = module.split(".")[0]
    return f"{feature}: {top} is not installed; run: pip install 'dlxsat[{EXTRAS[top]}]'"


def need(module: str, feature: str) -> ModuleType:
    """Import ``module`` for ``feature``; when it is not installed, an :class:`InputError` whose
    message names the ``pip install`` to run (the CLI prints it as one line, exit status 2).

    >>> need("tqdm", "progress bars").__name__
    'tqdm'
    """
    try:
        return _import(module)
    except ImportError:
        raise InputError(missing_message(feature, module)) from None


def installed(module: str) -> ModuleType | None:
    """Import ``module`` quietly, or ``None`` when it is missing: for a display that has a plain
    fallback of its own and so has nothing to tell the user (a notebook's picture, a page's plots).

    >>> installed("tqdm").__name__
    'tqdm'
    """
    try:
        return _import(module)
    except ImportError:
        return None


def wanted(module: str, feature: str) -> ModuleType | None:
    """Import ``module`` for ``feature``, a comfort the run can do without: ``None`` when it is
    not installed, after one note on stderr naming the ``pip install`` (once per feature)."""
    try:
        return _import(module)
    except ImportError:
        if feature not in _noted:
            _noted.add(feature)
            sys.stderr.write(f"dlxsat: note: {missing_message(feature, module)}\n")
        return None
