"""The package's import graph: every module imports, and no two modules import each other.

An import circle (even through imports made inside functions) means two modules each need
the other, so neither can be understood or changed alone; it also breaks as soon as one of
the lazy imports moves to the top. The graph is read from the source (an AST walk over every
``import`` statement, wherever it stands), so a circle is found before it bites.

Modules are also imported by name, with ``importlib``: the registries (``SOLVERS``,
``FAMILIES``) map names to modules, a family's spec names its generator and its reasoning
solver (``generator="dlxsat..."``, ``logic="dlxsat..."``). :func:`dynamic_edges` reads those
too -- a string naming a module of the package, passed to ``importlib.import_module`` (or
``__import__``), a value of a module-level dict literal (a registry), or the value of a keyword
argument (a spec's field) -- as an import by the module that holds it.
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


def dynamic_edges() -> dict[str, set[str]]:
    """Module → the package's modules it names for importing by name (see the module doc;
    its own ancestor packages left out, as for imports)."""
    mods = modules()
    edges: dict[str, set[str]] = {}
    for name, path in mods.items():
        named = names_imported(ast.parse(path.read_text()), set(mods))
        edges[name] = {t for t in named if t != name and not name.startswith(t + ".")}
    return edges


def names_imported(tree: ast.Module, mods: set[str]) -> set[str]:
    """The modules of ``mods`` that the code of ``tree`` names to import them by name:
    constants passed to ``import_module``/``__import__``, values of module-level dict literals
    (registries), values of keyword arguments (a spec's fields)."""

    def named(node: ast.AST) -> str | None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in mods:
            return node.value
        return None

    found: list[str | None] = []
    for statement in tree.body:  # registries: NAME = {key: "dlxsat.module", ...}
        value = statement.value if isinstance(statement, (ast.Assign, ast.AnnAssign)) else None
        if isinstance(value, ast.Dict):
            found += [named(v) for v in value.values]
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if called in ("import_module", "__import__") and node.args:
            found.append(named(node.args[0]))
        found += [named(k.value) for k in node.keywords]  # a spec's field: logic="dlxsat..."
    return {t for t in found if t is not None}


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


@pytest.fixture(scope="module")
def full_graph(graph) -> dict[str, set[str]]:
    """The import graph with the imports by name (:func:`dynamic_edges`) added."""
    dynamic = dynamic_edges()
    return {m: graph[m] | dynamic[m] for m in graph}


def test_the_graph_sees_lazy_and_relative_imports(graph):
    assert "dlxsat.solvers" in graph["dlxsat.pipeline"]  # at the top, relative
    assert "dlxsat.solvers" in graph["dlxsat.compare.settings"]
    assert "dlxsat.backends.dimacs" in graph["dlxsat.backends.external"]  # inside a function


def test_the_graph_sees_imports_by_name(full_graph):
    """The registries' modules, a family spec's generator and reasoning solver, a constant
    given to ``importlib.import_module``; and not a module's name used otherwise (a command
    line to run, a ``sys.modules`` lookup)."""
    assert "dlxsat.families.masyu" in full_graph["dlxsat.families"]  # FAMILIES
    assert "dlxsat.backends.cnf" in full_graph["dlxsat.solvers"]  # SOLVERS
    assert "dlxsat.reasoning" in full_graph["dlxsat.solvers"]
    assert "dlxsat.generators.masyu" in full_graph["dlxsat.families.masyu"]  # generator=
    assert "dlxsat.reasoning.sudoku" in full_graph["dlxsat.families.sudoku"]  # logic=
    assert "dlxsat.backends.dlx.compiled" not in full_graph["dlxsat.backends.dlx.aot"]  # argv
    assert "dlxsat.backends.dlx.compiled" not in full_graph["dlxsat.backends.auto"]  # sys.modules
    code = (
        "import importlib\n"
        "importlib.import_module('dlxsat.xcc')\n"
        "def f():\n    return __import__('dlxsat.errors')\n"
        "REGISTRY = {'a': 'dlxsat.answer', 'b': 'not a module'}\n"
        "SPEC = make(logic='dlxsat.reasoning', text='dlxsat.result is not imported')\n"
        "run(['python', '-m', 'dlxsat.cli'])\n"
    )
    mods = set(modules())
    got = names_imported(ast.parse(code), mods)
    assert got == {"dlxsat.xcc", "dlxsat.errors", "dlxsat.answer", "dlxsat.reasoning"}


def test_no_import_circle(graph):
    assert circles(graph) == []


#: The imports that still close circles once the imports by name count (each (importer,
#: imported)); none may be added. The registries point down at the solvers and families, so a
#: solver importing the registry module, or a reasoning solver or generator importing its
#: family or the pipeline, goes back up:
#:
#: - ``dlxsat.solvers`` is both the registry (SOLVERS names every solver) and the home of the
#:   types every solver needs (Request, SolverSpec, Template): the fix is a module of those
#:   types under both, with SolverSpec's cross-solver messages (``_not_taken``,
#:   ``_other_choice``) moved to the registry, and the portfolio handed its members' specs
#:   rather than looking them up;
#: - a family's spec names its reasoning solver and generator (``logic=``, ``generator=``),
#:   which read the family's puzzles and solve through the pipeline: the fix is to name them
#:   in registries of their own (``dlxsat.reasoning``, ``dlxsat.generators``) rather than in
#:   the family's spec.
KNOWN_BACK_EDGES = {
    ("dlxsat.reasoning", "dlxsat.solvers"),
    ("dlxsat.backends.dlx.batch", "dlxsat.solvers"),
    ("dlxsat.backends.portfolio", "dlxsat.solvers"),
    ("dlxsat.reasoning", "dlxsat.families"),
    ("dlxsat.reasoning.sudoku", "dlxsat.families.sudoku"),
    ("dlxsat.reasoning.sudoku", "dlxsat.families"),
    ("dlxsat.generators.masyu", "dlxsat.pipeline"),
    ("dlxsat.generators.masyu", "dlxsat.families"),
    ("dlxsat.generators.masyu", "dlxsat.families.masyu"),
    # memory.estimate_bytes asks a solver's spec for its figures (a lazy import), while the
    # sat backend checks the memory left before C++ allocates (memory.check_fits).
    ("dlxsat.runtime.memory", "dlxsat.solvers"),
}


def test_no_new_import_circle_through_imports_by_name(full_graph):
    """With the imports by name counted, the only circles are those closed by
    :data:`KNOWN_BACK_EDGES` (each still there: one removed must leave the list too)."""
    assert all(b in full_graph[a] for a, b in KNOWN_BACK_EDGES)
    rest = {m: {t for t in ts if (m, t) not in KNOWN_BACK_EDGES} for m, ts in full_graph.items()}
    assert circles(rest) == []


#: What a family module may not import, anywhere in its code (lazily included): a family is
#: read, encoded, decoded, checked and drawn by its own module and the modules under it.
ABOVE_THE_FAMILIES = ("dlxsat.display", "dlxsat.inputs", "dlxsat.pipeline", "dlxsat.formats")


def test_families_do_not_import_upward(graph):
    for module, imported in graph.items():
        if not module.startswith("dlxsat.families"):
            continue
        upward = sorted(
            t
            for t in imported
            if t.startswith("dlxsat.cli")
            or any(t == u or t.startswith(u + ".") for u in ABOVE_THE_FAMILIES)
        )
        assert upward == [], f"{module} imports {upward}"


def test_every_module_imports_in_a_fresh_interpreter():
    names = [m for m in modules() if m != "dlxsat.__main__"]
    code = "import importlib, sys\nfor m in sys.argv[1:]:\n    importlib.import_module(m)\n"
    done = subprocess.run(
        [sys.executable, "-c", code, *names], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
