"""Reference pages generated at build time from the code itself, so they cannot drift from it.

Two sources, each read through one function that the tests call as well:

* :func:`usage_text` -- the ``--help`` of ``dlxsat`` or of one of its commands, from the
  argparse parser :func:`dlxsat.cli_arguments.build_parser` (at a fixed width, so builds are
  stable);
* :func:`solver_facts` / :func:`options_markdown` -- every solver of the registry
  :data:`dlxsat.solvers.SOLVERS`, as its :class:`~dlxsat.solvers.SolverSpec` declares it, with
  its options (:class:`dlxsat.options.Option`).

A directive (``dlxsat-usage COMMAND``) and a marker (a ``dlxsat-options`` block) put them into
the pages; the functions themselves need nothing but dlxsat, so ``tests/test_docs.py`` can check
them without Sphinx.
"""

from __future__ import annotations

import argparse
import os
from typing import Any

#: The width of the generated usage text (argparse reads COLUMNS).
WIDTH = 100
#: The line of a page that the options of every solver replace.
OPTIONS_MARK = "```{dlxsat-options}\n```"


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:  # argparse has no public way to list its subparsers
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def commands() -> list[str]:
    """The commands of ``dlxsat``, in the order of ``dlxsat --help``."""
    from dlxsat.cli_arguments import build_parser

    return list(_subcommands(build_parser()))


def usage_text(command: str = "") -> str:
    """What ``dlxsat COMMAND --help`` prints (``dlxsat --help`` for ``""``)."""
    from dlxsat.cli_arguments import build_parser

    saved = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = str(WIDTH)
    try:
        parser = build_parser()
        for word in command.split():
            parser = _subcommands(parser)[word]
        return parser.format_help().rstrip("\n")
    finally:
        if saved is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = saved


def solver_facts() -> list[Any]:
    """The :class:`~dlxsat.solvers.SolverSpec` of every solver of the registry, in its order
    (compare-only solvers included: their ``public`` is False)."""
    from dlxsat import solvers

    return [solvers.spec_of(name) for name in solvers.SOLVERS]


def _cell(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _values(option: Any) -> str:
    if option.kind is bool:
        return "flag (`true`/`false` in settings)"
    if option.choices:
        return ", ".join(f"`{c}`" for c in option.choices)
    what = {int: "whole number", float: "number", str: "text"}.get(
        option.kind, option.kind.__name__
    )
    if option.low is not None:
        what += f" ≥ {option.low:g}"
    return what


def _default(option: Any) -> str:
    if option.kind is bool:
        return "off" if not option.default else "on"
    if option.default in (None, ""):
        return "—"
    if option.kind in (int, float) and isinstance(option.default, str):
        return _cell(option.default)  # words, not a value: "CP-SAT's choice"
    return f"`{option.default}`"


def options_markdown() -> str:
    """The options page's body: for each solver its kind, summary and a table of its options."""
    out = []
    for s in solver_facts():
        out.append(f"### `{s.name}`\n")
        where = "an exact-cover problem (any family)" if s.kind == "search" else "the puzzle itself"
        summary = _cell(s.summary[:1].upper() + s.summary[1:]).rstrip(".")
        line = f"{summary}. Kind: **{s.kind}**, works on {where}"
        if s.families:
            line += "; families: " + ", ".join(f"`{f}`" for f in s.families)
        if not s.public:
            line += "; offered by `dlxsat compare` only (it runs a program outside dlxsat)"
        out.append(line + ".\n")
        if not s.options:
            out.append("It takes no options.\n")
            continue
        head = "| option | values | default | what it does |"
        rule = "|---|---|---|---|"
        if s.family_options:
            head += " families |"
            rule += "---|"
        out += [head, rule]
        for o in s.options:
            name = o.flag if s.public else f"{o.key}="  # compare-only: no command-line flag
            row = f"| `{name}` | {_values(o)} | {_default(o)} | {_cell(o.help)} |"
            if s.family_options:
                fams = [f for f, names in s.family_options.items() if o.name in names]
                row += " " + (", ".join(f"`{f}`" for f in fams) or "—") + " |"
            out.append(row)
        out.append("")
    return "\n".join(out)


def _module_of(source: str) -> str | None:
    """The module a docstring came from, from autodoc's node source ``FILE:docstring of NAME``."""
    if ":docstring of " not in source:
        return None
    import importlib

    parts = source.rsplit(":docstring of ", 1)[1].split(".")
    for end in range(len(parts), 0, -1):
        name = ".".join(parts[:end])
        try:
            importlib.import_module(name)
        except ImportError:
            continue
        return name
    return None


def setup(app: Any) -> dict[str, Any]:
    from docutils import nodes  # type: ignore[import-untyped]
    from sphinx.util.docutils import SphinxDirective

    class Usage(SphinxDirective):
        """``dlxsat-usage [COMMAND...]``: the command's ``--help``, as a literal block."""

        optional_arguments = 2

        def run(self) -> list[Any]:
            text = usage_text(" ".join(self.arguments))
            block = nodes.literal_block(text, text)
            block["language"] = "text"
            return [block]

    def put_options(app: Any, docname: str, source: list[str]) -> None:
        # The options go into the page's source before it is parsed (not through a directive),
        # so that each solver's heading is a real section of the page and of its contents.
        source[0] = source[0].replace(OPTIONS_MARK, options_markdown())

    def group_docstring_examples(app: Any, doctree: Any) -> None:
        # A docstring's examples use the names of its module, as pytest's --doctest-modules
        # runs them; the doctest builder would run every block of a page in one bare
        # namespace. So each block from a docstring joins a group named after its module,
        # whose setup loads that module's globals.
        modules = set()
        for node in doctree.findall(nodes.doctest_block):
            module = _module_of(node.source or "")
            if module:
                node["groups"] = [module]
                modules.add(module)
        for module in sorted(modules):
            code = f"import importlib; globals().update(vars(importlib.import_module({module!r})))"
            setup = nodes.comment(code, code)
            setup["testnodetype"] = "testsetup"
            setup["groups"] = [module]
            doctree.append(setup)

    app.add_directive("dlxsat-usage", Usage)
    app.connect("doctree-read", group_docstring_examples)
    app.connect("source-read", put_options)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
