"""Sphinx configuration of dlxsat's documentation (build: ``bash .ci/docs``).

Pages are Markdown (MyST); the API reference comes from the docstrings (autodoc), whose
``>>>`` examples the doctest builder runs; the command usage and the solvers' options are
generated from the code (``_ext/dlxsat_reference.py``).
"""

from __future__ import annotations

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(HERE, "_ext"))
sys.path.insert(0, os.path.join(ROOT, "src"))  # the dlxsat of this tree, installed or not
# The docstrings' examples open bundled puzzles by relative path, as pytest runs them.
os.chdir(ROOT)

import dlxsat  # noqa: E402

project = "dlxsat"
author = "the dlxsat authors"
copyright = "the dlxsat authors, MIT licence"
release = version = dlxsat.__version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.doctest",
    "sphinx.ext.viewcode",
    "dlxsat_reference",
]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "index"
exclude_patterns = ["_build", "_ext", "**/.ipynb_checkpoints"]
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "show-inheritance": True}
# Docstring examples are the same doctests pytest runs (--doctest-modules): `-b doctest`
# runs those on the pages too, and the ```{doctest} blocks of the Markdown pages.
doctest_test_doctest_blocks = "default"

html_theme = "furo"
html_title = f"dlxsat {release}"
html_static_path: list[str] = []
