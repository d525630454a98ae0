"""The examples in the docstrings are part of the documentation: they must stay true."""

from __future__ import annotations

import doctest
import importlib
import os

import pytest
from conftest import ROOT

MODULES = [
    "dlxsat",
    "dlxsat.errors",
    "dlxsat.inputs",
    "dlxsat.answer",
    "dlxsat.pipeline",
    "dlxsat.xcc.model",
    "dlxsat.xcc.dlxformat",
    "dlxsat.xcc.names",
    "dlxsat.xcc.loop",
    "dlxsat.families.grid",
    "dlxsat.backends",
    "dlxsat.backends.dimacs",
    "dlxsat.limits",
    "dlxsat.outputs",
    "dlxsat.xcc.verify",
    "dlxsat.families.superslitherlink",
    "dlxsat.report",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    cwd = os.getcwd()
    os.chdir(ROOT)  # examples read bundled puzzles by relative path, as a user would
    try:
        module = importlib.import_module(name)
        failed, attempted = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    finally:
        os.chdir(cwd)
    assert failed == 0
    assert attempted > 0, f"{name} has no examples"
