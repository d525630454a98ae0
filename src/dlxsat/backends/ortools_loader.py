"""OR-tools' CP-SAT Python API, imported without importing pandas first.

``ortools.sat.python.cp_model`` imports pandas at its top, though pandas is used only by its
``*_series`` methods (variables indexed by a ``pd.Index``) and in type annotations: some 0.6 s
of a 1 s import on 2 cores, more than the rest of a ``dlxsat solve --backend cpsat`` together
(``benchmarks/startup.py``). dlxsat never builds series, so :func:`cp_model` imports the module
with a stand-in for pandas that lasts only for that import: its attributes are placeholder
classes, which is all the module's top level asks of them (its annotations and one ``Union``).
The stand-in is then taken out of ``sys.modules`` -- any later ``import pandas`` gets the real
one -- and the module's own ``pd`` becomes a proxy that imports the real pandas the first time
an attribute is asked for, so the series methods still work, paying the import then.

When pandas is imported already, or OR-tools is imported already, nothing is done differently.
The stand-in is in ``sys.modules`` only while ``cp_model`` runs its top level, in the thread
that imports it; ``tests/test_cpsat.py`` runs the backend's whole contract on the result and
checks the series methods and a later ``import pandas``.
"""

from __future__ import annotations

import importlib
import sys
import threading
import types
from typing import Any

_lock = threading.Lock()


class _Placeholder(types.ModuleType):
    """Pandas as ``cp_model``'s top level sees it: any attribute is a new empty class."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        value = type(name, (), {"__module__": "pandas"})
        setattr(self, name, value)
        return value


class _LazyPandas(types.ModuleType):
    """``cp_model``'s ``pd`` after the import: the real pandas, imported on first use."""

    def __getattr__(self, name: str) -> Any:
        return getattr(importlib.import_module("pandas"), name)


def cp_model() -> types.ModuleType:
    """``ortools.sat.python.cp_model``, imported without pandas when that is not loaded yet."""
    name = "ortools.sat.python.cp_model"
    module = sys.modules.get(name)
    if module is not None:
        return module
    with _lock:
        if name in sys.modules or "pandas" in sys.modules:
            return importlib.import_module(name)
        sys.modules["pandas"] = _Placeholder("pandas")
        try:
            module = importlib.import_module(name)
        finally:
            if isinstance(sys.modules.get("pandas"), _Placeholder):
                del sys.modules["pandas"]
        if isinstance(getattr(module, "pd", None), _Placeholder):
            module.pd = _LazyPandas("pandas")  # type: ignore[attr-defined]
        return module
