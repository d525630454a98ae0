"""The family registry: every family is one module stating itself in one spec, and nothing
outside the families (and the formats, reasoning solvers and generators, which serve
particular families) names a family in its code."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

import dlxsat
from dlxsat import families
from dlxsat.families.spec import FamilySpec
from dlxsat.solvers import RULE_KINDS

PACKAGE = Path(dlxsat.__file__).parent
#: The parts of dlxsat that may name a family: they are about particular families.
MAY_NAME = ("families", "formats", "reasoning", "generators")


@pytest.mark.parametrize("name", list(families.FAMILIES))
def test_every_registered_family_has_a_spec_of_its_name(name):
    spec = families.get_spec(name)
    assert isinstance(spec, FamilySpec) and spec.name == name
    module = importlib.import_module(families.FAMILIES[name])
    assert module.SPEC is spec
    assert set(spec.formats) >= {"knuth"} and set(spec.writes) <= set(spec.formats) | {"knuth"}
    assert set(spec.answers) <= set(spec.formats)
    assert all(kind in RULE_KINDS for kind in spec.rules)


def test_the_registrys_aliases_are_the_specs():
    declared = {alias: s.name for s in families.specs() for alias in s.aliases}
    assert declared == families.ALIASES
    assert not set(families.ALIASES) & set(families.FAMILIES)


def test_an_alias_works_where_the_name_does():
    assert dlxsat.solve("mashu", "0..\n...\n..1\n").family == "masyu"
    assert families.canonical("slither") == "slitherlink"


def _string_constants(tree: ast.AST) -> set[str]:
    """The string constants of a module's code, its docstrings left out."""
    docs = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docs.add(id(body[0].value))
    return {
        n.value
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs
    }


def test_no_module_outside_the_families_names_a_family():
    names = {*families.FAMILIES, *families.ALIASES}
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        part = path.relative_to(PACKAGE).parts
        if part[0] in MAY_NAME:
            continue
        named = names & _string_constants(ast.parse(path.read_text()))
        if named:
            found[str(path.relative_to(PACKAGE))] = sorted(named)
    assert found == {}
