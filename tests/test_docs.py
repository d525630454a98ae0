"""The documentation cannot drift from the code: the generated pages list every command and every
declared option, every command has its page, references into the conventions page point at
sections that exist, and the README keeps its promises (short, its test command what CI runs).

The site itself is built, with warnings as errors and its examples run, by ``.ci/docs``; these
tests need no Sphinx.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from dlxsat import solvers
from dlxsat.cli_arguments import build_parser

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
sys.path.insert(0, str(DOCS / "_ext"))

import dlxsat_reference as reference  # noqa: E402


def test_options_page_lists_every_declared_option_of_every_solver() -> None:
    page = reference.options_markdown()
    sections = re.split(r"^### ", page, flags=re.M)[1:]
    by_solver = {section.split("`")[1]: section for section in sections}
    assert list(by_solver) == list(solvers.SOLVERS)  # every solver, in the registry's order
    for name in solvers.SOLVERS:
        section = by_solver[name]
        declared = solvers.options_of(name)
        rows = [line for line in section.splitlines() if re.match(r"\| `(--)?[\w-]+=?` \|", line)]
        assert len(rows) == len(declared), name
        for option, row in zip(declared, rows, strict=True):
            assert row.split("|")[1].strip() in (f"`{option.flag}`", f"`{option.key}=`"), row
            for choice in option.choices:
                assert f"`{choice}`" in row, (name, option.key, choice)
            assert option.help.split(";")[0].strip() in row.replace("\\|", "|"), (name, option)
        if not declared:
            assert "takes no options" in section


def test_options_page_is_where_the_backends_page_says() -> None:
    assert reference.OPTIONS_MARK in (DOCS / "backends.md").read_text()


def test_every_command_has_a_page_with_its_generated_usage() -> None:
    names = reference.commands()
    assert names and "solve" in names
    index = (DOCS / "commands/index.md").read_text()
    toctree = index.split("```{toctree}")[1].split("```")[0].split()
    for name in names:
        page = DOCS / "commands" / f"{name}.md"
        assert page.exists(), f"no page for dlxsat {name}"
        assert f"```{{dlxsat-usage}} {name}\n```" in page.read_text(), name
        assert name in toctree, name
    assert sorted(p.stem for p in (DOCS / "commands").glob("*.md")) == sorted([*names, "index"])


@pytest.mark.parametrize("command", ["", *reference.commands()])
def test_usage_text_is_the_parsers_help(command: str) -> None:
    text = reference.usage_text(command)
    parser = build_parser()
    assert text.startswith("usage: dlxsat" + (" " + command if command else ""))
    if command:
        parser = reference._subcommands(parser)[command]
    for action in parser._actions:
        for flag in action.option_strings:
            assert flag in text, (command, flag)


def section_numbers() -> set[str]:
    text = (DOCS / "conventions.md").read_text()
    return set(re.findall(r"^## §(\d+) ", text, flags=re.M))


def test_references_to_the_conventions_point_at_sections_that_exist() -> None:
    sections = section_numbers()
    assert sections == {str(n) for n in range(1, 8)}
    cited = 0
    for folder in ("src", "tests", "benchmarks", "puzzles"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix not in (".py", ".md") or not path.is_file():
                continue
            text = path.read_text(encoding="utf-8")
            assert not re.search(r"SPEC(\.md)? §", text), f"{path} cites SPEC.md, which users lack"
            for group in re.findall(r"conventions\.md ((?:§\d+(?:, )?)+)", text):
                for number in re.findall(r"§(\d+)", group):
                    assert number in sections, (path, number)
                    cited += 1
    assert cited >= 20  # the code does cite it


def test_readme_is_short_links_the_docs_and_runs_what_ci_runs() -> None:
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) < 150
    assert "docs/" in readme
    test_command = "python3 -m pip install -e '.[test]' && python3 -m pytest -q -n auto"
    assert test_command in readme
    assert test_command in (ROOT / ".ci/run").read_text()
    for target in re.findall(r"\]\(([^)#]+)\)", readme):
        if "://" not in target:
            assert (ROOT / target).exists(), target


def test_readme_install_command_installs_the_extras_its_commands_need() -> None:
    readme = (ROOT / "README.md").read_text()
    install = re.search(r"python3 -m pip install -e '\.\[([\w,]+)\]' && dlxsat", readme)
    assert install, "the README's first command installs dlxsat with extras and runs it"
    extras = set(install.group(1).split(","))
    if re.search(r"--(png|svg)\b|--plot\b", readme):
        assert "plot" in extras
    assert "progress" in extras  # compare and many-puzzle solve show bars
