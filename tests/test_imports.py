"""The package's import graph: every module imports, and no two modules import each other.

An import circle (even through imports made inside functions) means two modules each need
the other, so neither can be understood or changed alone; it also breaks as soon as one of
the lazy imports moves to the top. The graph is read from the source (an AST walk over every
``import`` statement, wherever it stands), so a circle is found before it bites.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import dlxsat

PACKAGE = Path(dlxsat.__file__).parent


def modules() -> dict[str, Path]:
    """Every module of the package by dotted name."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def import_graph() -> dict[str, set[str]]:
    """Module → the package's modules it imports anywhere in its code (its own ancestor
    packages left out: importing ``dlxsat.x`` runs ``dlxsat/__init__`` by definition; and
    imports for type hints alone, under ``if TYPE_CHECKING:``)."""
    mods = modules()
    graph: dict[str, set[str]] = {m: set() for m in mods}
    for name, path in mods.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        tree = ast.parse(path.read_text())
        typing_only = {
            id(n)
            for block in ast.walk(tree)
            if isinstance(block, ast.If) and "TYPE_CHECKING" in ast.unparse(block.test)
            for n in ast.walk(block)
        }
        for node in ast.walk(tree):
            if id(node) in typing_only:  # imported for type hints alone: not at run time
                continue
            if isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package
                    for _ in range(node.level - 1):
                        anchor = anchor.rpartition(".")[0]
                    base = f"{anchor}.{base}" if base else anchor
                targets = [base] + [f"{base}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                continue
            for t in targets:
                if t in mods and t != name and not name.startswith(t + "."):
                    graph[name].add(t)
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected parts of ``graph`` with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for v in graph:
        if v not in index:
            visit(v)
    return found


def test_the_graph_reader_finds_a_circle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    """The package's import graph, read once for the tests that look at it."""
    return import_graph()


def test_the_graph_sees_lazy_and_relative_imports(graph):
    assert "dlxsat.solvers" in graph["dlxsat.pipeline"]  # at the top, relative
    assert "dlxsat.solvers" in graph["dlxsat.compare.settings"]
    assert "dlxsat.backends.dimacs" in graph["dlxsat.backends.external"]  # inside a function


def test_no_import_circle(graph):
    assert circles(graph) == []


def test_every_module_imports_in_a_fresh_interpreter():
    names = [m for m in modules() if m != "dlxsat.__main__"]
    code = "import importlib, sys\nfor m in sys.argv[1:]:\n    importlib.import_module(m)\n"
    done = subprocess.run(
        [sys.executable, "-c", code, *names], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
