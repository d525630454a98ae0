"""Every genre, from one table: its bundled puzzles solved, read and written in every format,
its published answers accepted and its wrong answers rejected with the rule named.

Each genre has a data file ``tests/data/genres/<family>.json`` (sources in
``puzzles/README.md``)::

    {"puzzles": [{"name": ..., "problem": corpus grid text, "answer": corpus answer grid,
                  "url": puz.link URL of the same board (optional),
                  "pzprv3": pzprjs's file of it with the answer (optional)}, ...],
     "wrong":   [{"name": ..., "puzzle": a text in any format, "answer": a text holding a
                  wrong answer (or null: the puzzle's text holds it), "rule": a fragment of
                  the violation expected}, ...]}

The puzzles are small published ones (the whole corpus is ``benchmarks/genres.py``'s); the
wrong answers come from pzprjs's test scripts where it has them. A genre's data file is all a
new genre adds here.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import dlxsat
from dlxsat import formats
from dlxsat.answer import answer_key
from dlxsat.families import FAMILIES, get_spec
from dlxsat.xcc import parse

DATA = Path(__file__).resolve().parent / "data" / "genres"
GENRES = sorted(p.stem for p in DATA.glob("*.json") if p.stem in FAMILIES)
#: Backends every small puzzle is solved with, all answers each, to agree.
BACKENDS = ("dlx", "sat", "cpsat")


def _data(family: str) -> dict:
    return json.loads((DATA / f"{family}.json").read_text())


PUZZLES = [
    pytest.param(family, p, id=f"{family}-{p['name']}")
    for family in GENRES
    for p in _data(family)["puzzles"]
]
WRONG = [
    pytest.param(family, w, id=f"{family}-{w['name']}")
    for family in GENRES
    for w in _data(family).get("wrong", [])
]


def _published(family: str, case: dict):
    puzzle = formats.read(family, case["problem"], "grid")
    return puzzle, formats.read_answer(family, puzzle, case["answer"], "grid")


def test_every_genre_with_data_is_registered():
    assert GENRES == sorted(p.stem for p in DATA.glob("*.json"))


@pytest.mark.parametrize("family, case", PUZZLES)
def test_the_published_answer_comes_back_unique(family, case):
    puzzle, published = _published(family, case)
    report = dlxsat.solve(family, puzzle)
    assert report.status == "unique"
    assert answer_key(report.solutions[0]) == answer_key(published)
    assert dlxsat.check(family, puzzle, published).correct


@pytest.mark.parametrize("family, case", PUZZLES)
def test_every_backend_finds_the_same_answers(family, case):
    puzzle, published = _published(family, case)
    found = {b: dlxsat.solve(family, puzzle, backend=b, mode="all") for b in BACKENDS}
    keys = {b: sorted(answer_key(a) for a in r.solutions) for b, r in found.items()}
    assert all(k == [answer_key(published)] for k in keys.values()), keys


@pytest.mark.parametrize("family, case", PUZZLES)
def test_the_encoding_declares_the_genres_rules(family, case):
    spec = get_spec(family)
    puzzle = formats.read(family, case["problem"], "grid")
    problem = parse(spec.encode(puzzle), allow_empty=True)
    assert sorted({r.kind for r in problem.rules}) == sorted(spec.rules)
    assert spec.build_problem(puzzle) == spec.problem(puzzle, spec.encode(puzzle))
    # The data alone, as any exact-cover file, solve to the same count.
    assert dlxsat.solve("xcc", spec.encode(puzzle), mode="count").count == 1


@pytest.mark.parametrize("family, case", PUZZLES)
def test_every_format_round_trips(family, case, tmp_path):
    spec = get_spec(family)
    puzzle, published = _published(family, case)
    same = spec.write(puzzle)
    assert spec.write(spec.read(same)) == same
    for fmt in spec.writes:
        text = formats.write(family, puzzle, fmt)
        assert spec.write(formats.read(family, text, fmt)) == same, fmt
    if case.get("url"):
        assert spec.write(formats.read(family, case["url"])) == same
        assert formats.write(family, puzzle, "puzzlink").strip() == case["url"].strip()
    for fmt in spec.answers:
        if fmt not in spec.writes:
            continue
        text = formats.write(family, puzzle, fmt, published)
        assert answer_key(formats.read_answer(family, puzzle, text, fmt)) == answer_key(published)
    grid = formats.write(family, puzzle, "grid", published)
    assert grid.split() == case["answer"].split()
    if case.get("pzprv3"):
        held = formats.read_answer(family, None, case["pzprv3"], "pzprv3")
        assert answer_key(held) == answer_key(published)
    svg = tmp_path / "answer.svg"
    from dlxsat.pictures import save_picture

    save_picture(family, puzzle, published, str(svg), "svg")
    assert svg.read_text().startswith("<?xml")


@pytest.mark.parametrize("family, case", WRONG)
def test_a_wrong_answer_is_rejected_with_its_rule_named(family, case):
    report = dlxsat.check(family, case["puzzle"], case.get("answer"))
    assert not report.correct
    assert case["rule"] in report.violations[0], report.violations


#: A LITS with holes (the corpus's 171_9x8, janko.at LITS 171): puz.link and pzprv3 have none.
LITS_HOLES = """9 8
1 1 1 1 7 10 11 11
2 2 1 7 7 10 10 11
2 2 4 7 7 7 10 11
2 4 4 4 4 10 10 11
2 5 5 8 8 11 11 11
3 5 5 8 8 9 11 @
3 5 5 8 8 9 9 @
3 3 5 6 9 9 6 6
3 3 6 6 6 6 6 6
"""


@pytest.mark.parametrize(
    "family, text, status, refused",
    [
        ("lits", LITS_HOLES, "unique", ("puzzlink", "pzprv3")),
        # Two stars of one cell (the corpus writes a token a cell): both touch the cell, so
        # no answer -- and the exact-cover data name the board by its URL instead.
        ("galaxies", "https://puzz.link/p?tentaisho/3/3/0f", "none", ("grid",)),
    ],
)
def test_a_board_a_format_cannot_hold_is_solved_and_refused_there(family, text, status, refused):
    from dlxsat.errors import InputError

    puzzle = formats.read(family, text)
    assert dlxsat.solve(family, puzzle).status == status
    for fmt in refused:
        with pytest.raises(InputError):
            formats.write(family, puzzle, fmt)


#: Encoding choices a genre makes per puzzle, each on a small board where it applies: the
#: family module's constant set (None: its default), and a rule the encoding must then hold.
#: Nurikabe with SHARED 1: every number above 1 owns its cells under the one shared owner;
#: Fillomino's 7 has room for one region of 7 (7 cells may take it): an anchored rule.
CHOICES = [
    ("nurikabe", "SHARED", 1, "5 5\n- 5 - - -\n- - 2 - -\n- - - - -\n- - 1 - -\n- - - 3 -\n"),
    ("fillomino", None, None, "3 3\n1 - -\n- 7 -\n- - 1\n"),
]


@pytest.mark.parametrize(("family", "name", "value", "text"), CHOICES)
def test_an_encoding_choice_keeps_the_answers(monkeypatch, family, name, value, text):
    """Every backend finds the one answer, the rule checker accepts it, and (Fillomino) the
    label with room for one region is anchored at its given number."""
    module = get_spec(family).build.__module__
    if name is not None:
        import importlib

        monkeypatch.setattr(importlib.import_module(module), name, value)
    puzzle = formats.read(family, text, "grid")
    found = {b: dlxsat.solve(family, puzzle, backend=b, mode="all") for b in BACKENDS}
    keys = {b: [answer_key(a) for a in r.solutions] for b, r in found.items()}
    assert all(len(k) == 1 and k == keys["dlx"] for k in keys.values()), keys
    assert dlxsat.check(family, puzzle, found["sat"].solutions[0]).correct
    if family == "fillomino":
        problem = get_spec(family).build(puzzle)
        assert [(r.label, r.anchors, r.prefer) for r in problem.rules if r.anchors] == [
            ("size-7", ((3, 7),), "eager")  # (the 7 is the 4th cell that may take 7)
        ]
