"""Every genre, from one table: its bundled puzzles solved, read and written in every format,
its published answers accepted and its wrong answers rejected with the rule named.

Each genre has a data file ``tests/data/genres/<family>.json`` (sources in
``puzzles/README.md``)::

    {"puzzles": [{"name": ..., "problem": corpus grid text, "answer": corpus answer grid,
                  "url": puz.link URL of the same board (optional),
                  "pzprv3": pzprjs's file of it with the answer (optional)}, ...],
     "wrong":   [{"name": ..., "puzzle": a text in any format, "answer": a text holding a
                  wrong answer (or null: the puzzle's text holds it), "rule": a fragment of
                  the violation expected, "rules": the variant judging it (optional,
                  ``--rules``)}, ...],
     "variants": [{"name": ..., "problem": ..., "answer": ... (as in "puzzles"), "rules": a
                  variant of the family (``FamilySpec.variants``, ``--rules``) under which
                  the published answer alone is right, "answers": how many answers the
                  default rules give, "rule": a fragment of the violation the variant names
                  in each of the others}, ...]}

The puzzles are small published ones (the whole corpus is ``benchmarks/genres.py``'s); the
wrong answers come from pzprjs's test scripts where it has them. A genre's data file is all a
new genre adds here.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

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
VARIANTS = [
    pytest.param(family, v, id=f"{family}-{v['name']}-{v['rules']}")
    for family in GENRES
    for v in _data(family).get("variants", [])
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
    report = dlxsat.check(family, case["puzzle"], case.get("answer"), rules=case.get("rules"))
    assert not report.correct
    assert case["rule"] in report.violations[0], report.violations


@pytest.mark.parametrize("family, case", VARIANTS)
def test_a_variant_keeps_the_published_answer_alone(family, case, tmp_path, capsys):
    """A puzzle that assumes a variant of the rules: several answers under the default rules,
    each but the published one broken under the variant (the rule named), the published one
    alone found by every backend under it, on the command line too; a variant the family
    lacks is a one-line error."""
    from dlxsat.cli import main

    puzzle, published = _published(family, case)
    rules = case["rules"]
    assert rules in get_spec(family).variants
    loose = dlxsat.solve(family, puzzle, backend="sat", mode="all")
    assert loose.count == case["answers"]
    assert answer_key(published) in {answer_key(a) for a in loose.solutions}
    assert dlxsat.check(family, puzzle, published, rules=rules).correct
    for other in loose.solutions:
        if answer_key(other) != answer_key(published):
            assert dlxsat.check(family, puzzle, other).correct
            report = dlxsat.check(family, puzzle, other, rules=rules)
            assert not report.correct and case["rule"] in report.violations[0]
    for backend in BACKENDS:
        found = dlxsat.solve(family, puzzle, backend=backend, mode="all", rules=rules)
        assert [answer_key(a) for a in found.solutions] == [answer_key(published)], backend
    path = tmp_path / "puzzle.txt"
    path.write_text(case["problem"])
    assert main(["solve", family, str(path), "--rules", rules, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "unique"
    assert main(["solve", family, str(path), "--rules", "no-such-rules"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no-such-rules" in err, err


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


#: Boards at the edges of the corpus's notation (``ROWS COLS`` and rows of tokens): numbers
#: the board cannot hold, no number at all, sizes and rows that do not match, tokens no genre
#: has. Each genre reads them as its own notation allows: an answer, "none", or one line.
EDGE_BOARDS = {
    "a number beyond any integer type": "3 3\n- - -\n- 99999999999999999999 -\n- - -\n",
    "a number larger than the board": "3 3\n- - -\n- 10 -\n- - -\n",
    "a negative number": "3 3\n- - -\n- -5 -\n- - -\n",
    "no number, one cell": "1 1\n-\n",
    "no number, 3 x 3": "3 3\n- - -\n- - -\n- - -\n",
    "one cell of 5": "1 1\n5\n",
    "one cell of 1": "1 1\n1\n",
    "a row of 1 and 2": "1 2\n1 2\n",
    "an empty board": "0 0\n",
    "rows missing": "3 3\n- - -\n",
    "rows too long": "2 2\n- - -\n- - -\n",
    "nothing": "",
    "only a size": "2 2\n",
    "an enormous size": "100000 100000\n",
    "tokens of no genre": "3 3\n# $ %\n- - -\n- - -\n",
    "a letter beyond ASCII": "2 2\n- \u00e9\n- -\n",
}


@pytest.mark.parametrize("family", GENRES)
def test_edge_boards_end_in_an_answer_none_or_one_line(cli_run, family):
    """Every genre, on every board of :data:`EDGE_BOARDS`: status 0 with its verdict, or 2 with
    one line of error on stderr and nothing on stdout; never a traceback, an answer the
    checker refuses, or an item's bounds the exact-cover model itself rejects (a Nurikabe
    number above the board's cells once asked for a sea of -1 cells, a Fillomino given beyond
    any integer type had no label's color, a NumberLink board without numbers gave the empty
    board, which has no line, as its answer; a Kuromasu 1 alone on its board the white board,
    which pzprjs refuses: no cell is shaded)."""
    for what, text in EDGE_BOARDS.items():
        rc, out, err = cli_run(["solve", family, "-", "--quiet", "--timeout", "20"], text.encode())
        lines = err.splitlines()
        if rc == 0:
            assert out.split(":")[0] in ("unique", "multiple", "none"), (what, out)
            assert not any("internal error" in line for line in lines), (what, err)
        else:
            assert rc == 2 and out == "", (what, rc, out, err)
            assert len(lines) == 1 and lines[0].startswith("dlxsat: error: "), (what, err)
            assert "bounds" not in lines[0], (what, err)


#: Puzzles of a family with an argument (FamilySpec.argument) and the argument's part in
#: their verdict: ``proof`` (narrow one answer, rest none), ``second`` (the rest's answer is
#: a second one), ``fallback`` (the narrow problem has none: the exact problem decides).
ARGUED = [
    ("numberlink", _data("numberlink")["puzzles"][1]["problem"], "unique", "proof"),
    ("numberlink", "3 4\n- - - 2\n- 2 1 -\n1 - - -\n", "multiple", "second"),
    # The path of 1s leaves a cell empty in every answer: no touch-free answer uses them all.
    ("numberlink", "1 3\n1 1 -\n", "unique", "fallback"),
    ("numberlink", "2 3\n1 - 1\n- - -\n", "multiple", "fallback"),
    ("numberlink", _data("numberlink")["puzzles"][2]["problem"], "unique", "fallback"),
]


@pytest.mark.parametrize("backend", [*BACKENDS, "auto"])
@pytest.mark.parametrize("family, text, status, part", ARGUED)
def test_an_argument_gives_the_exact_problems_verdict(family, text, status, part, backend):
    puzzle = formats.read(family, text, "grid")
    argued = dlxsat.solve(family, puzzle, backend=backend)
    exact = dlxsat.solve(family, puzzle, backend=backend, argue=False)
    assert argued.status == exact.status == status
    assert ("rest" in argued.stats) == (part != "fallback")
    assert ("second" == part) == (argued.stats.get("rest", {}).get("count") == 1)
    if status == "unique":
        assert answer_key(argued.solutions[0]) == answer_key(exact.solutions[0])
    # Counting never argues: the exact problem's count.
    counted = dlxsat.solve(family, puzzle, backend=backend, mode="count")
    assert "rest" not in counted.stats and (counted.count == 1) == (status == "unique")


#: Small NumberLinks (random boards) for the rest's items that keep out answers with more
#: cells or a larger weight (bridges, flips: docs/genres/numberlink.md, step 5), and whether
#: some answer of each leaves a cell empty. The first five have several such answers, which
#: the flips cut to fewer covers of the rest; the last three have none.
REST_BOARDS = [
    ("4 5\n1 1 4 - 5\n2 - 3 - -\n- - - - -\n2 3 - 4 5\n", True),
    ("4 5\n- 1 4 4 3\n- - - - 3\n- - - - -\n2 2 - 1 -\n", True),
    ("3 5\n1 - - - -\n- - - 2 2\n- - - - 1\n", True),
    ("4 5\n3 3 - - 1\n- 1 - - -\n2 - - - -\n- - 2 - -\n", True),
    ("3 5\n- - - 4 -\n1 1 4 - 3\n2 2 - - 3\n", True),
    ("4 5\n5 4 4 3 -\n- 1 2 - -\n- - 1 - 3\n- - 5 - 2\n", False),
    ("4 4\n- - - -\n3 1 2 -\n4 - 2 3\n4 - - 1\n", False),
    ("3 5\n- - - - -\n3 - 2 1 -\n2 - 1 - 3\n", False),
]


@pytest.mark.parametrize("text, empty", REST_BOARDS)
def test_the_rest_has_a_cover_exactly_when_an_answer_leaves_a_cell_empty(monkeypatch, text, empty):
    """Sound items keep a cover (the fewest-cells, lightest answer leaving a cell empty)
    whenever an answer leaves a cell empty; the flips (``FLIP_STEPS``) leave out some."""
    from dlxsat.families import numberlink
    from dlxsat.solvers import solve_problem
    from dlxsat.xcc.loop import edge_ends

    puzzle = formats.read("numberlink", text, "grid")
    answers = dlxsat.solve("numberlink", puzzle, backend="dlx", mode="all").solutions
    used = [{(x // 2, y // 2) for e in a["edges"] for x, y in edge_ends(*e)} for a in answers]
    assert answers and any(len(u) < puzzle.m * puzzle.n for u in used) == empty
    covers = solve_problem(numberlink.touch_free(puzzle, holes=True), "dlx").count
    assert (covers > 0) == empty
    monkeypatch.setattr(numberlink, "FLIP_STEPS", 0)
    unflipped = solve_problem(numberlink.touch_free(puzzle, holes=True), "dlx").count
    assert (covers < unflipped) == empty


def _random_numberlink(rng: random.Random) -> str:
    """A board of 2 x 2 to 5 x 5 with one to six values, some given four times or three
    (no answer), some ``?``."""
    m, n = rng.randint(2, 5), rng.randint(2, 5)
    cells = rng.sample([(i, j) for i in range(m) for j in range(n)], m * n)
    grid = [["-"] * n for _ in range(m)]
    for value in rng.sample(["1", "2", "3", "4", "5", "?"], rng.randint(1, min(6, m * n // 2))):
        for _ in range(rng.choice([2, 2, 2, 2, 3, 4])):
            if cells:
                i, j = cells.pop()
                grid[i][j] = value
    return f"{m} {n}\n" + "".join(" ".join(row) + "\n" for row in grid)


#: The families with a counter of their own (FamilySpec.counter), each with a maker of random
#: boards to count.
COUNTED = {"numberlink": _random_numberlink}


def test_every_family_with_its_own_counter_is_counted_here():
    assert {f for f in FAMILIES if get_spec(f).counter is not None} == set(COUNTED)


@pytest.mark.parametrize("family", sorted(COUNTED))
def test_a_family_s_own_count_is_its_exact_problem_s(monkeypatch, family):
    """``solve --count`` on the default backend goes by the family's counter (here without
    DLX's trial before it); on 60 random boards, the bundled puzzles and the edge boards that
    read, it gives the count DLX finds on the exact problem (boards of no answer, one and over
    twenty among them)."""
    from dlxsat import pipeline

    monkeypatch.setattr(pipeline, "COUNT_TRIAL_SECONDS", 0.0)
    rng = random.Random(20261128)
    boards = [COUNTED[family](rng) for _ in range(60)]
    boards += [p["problem"] for p in _data(family)["puzzles"]]
    boards += list(EDGE_BOARDS.values())
    counts = []
    for text in boards:
        try:
            puzzle = formats.read(family, text, "grid")
        except dlxsat.InputError:
            continue
        exact = dlxsat.solve(family, puzzle, backend="dlx", mode="count")
        own = dlxsat.solve(family, puzzle, mode="count")
        assert own.stats["counter"] == get_spec(family).counter.name and "nodes" not in own.stats
        assert own.status == exact.status == "counted" and own.count == exact.count, text
        counts.append(exact.count)
    assert 0 in counts and 1 in counts and max(counts) > 20  # every kind of board was drawn


def test_the_numberlink_sweep_counts_alike_every_way_round_and_compiled(monkeypatch):
    """The sweep's count does not depend on the way round the board is swept (:func:`sweep`
    ends in whichever way first fits its limit), on the order the states go into the next
    frontier's table, nor on the tier its kernels run in."""
    from dlxsat.families import numberlink_sweep as nls

    rng = random.Random(20261129)
    boards = [formats.read("numberlink", _random_numberlink(rng), "grid") for _ in range(30)]
    # Interpreted throughout (a process that has not loaded the compiled kernels, and a
    # threshold no busy machine reaches), then compiled from the first cell.
    monkeypatch.setattr(nls, "_compiled_kernels", {})
    monkeypatch.setattr(nls, "INTERPRETED_SECONDS", 1e9)
    expected = [nls.sweep(p.clues, p.values()) for p in boards]
    assert not any(e.compiled for e in expected)
    for puzzle, swept in zip(boards, expected, strict=True):
        colors = nls.color_indices(puzzle.values())
        for name, turn in nls.ORIENTATIONS.items():
            assert nls._count(turn(puzzle.clues), colors, 10**6)[0] == swept.count, name
    # The states put in order by the table's regions before they go in (large tables only,
    # so here with regions of two slots and a buffer of four states: flushed every two).
    monkeypatch.setattr(nls, "REGION_BITS", 2)
    monkeypatch.setattr(nls, "MIN_REGION_BITS", 1)
    monkeypatch.setattr(nls, "BUFFERED", 4)
    regions = [nls.sweep(p.clues, p.values()) for p in boards]
    assert [r.count for r in regions] == [e.count for e in expected]
    monkeypatch.undo()
    monkeypatch.setattr(nls, "_compiled_kernels", {})
    monkeypatch.setattr(nls, "INTERPRETED_SECONDS", 0.0)
    compiled = [nls.sweep(p.clues, p.values()) for p in boards]
    assert all(c.compiled for c in compiled if c.peak)  # (a number left alone: no sweep)
    assert [c.count for c in compiled] == [e.count for e in expected]


def test_the_numberlink_sweep_stops_at_its_limits():
    """Past its limit of states a sweep gives no count rather than a wrong one, the ladder of
    limits finds a board's better way round, and a deadline stops it."""
    from dlxsat.families.numberlink import read
    from dlxsat.families.numberlink_sweep import sweep
    from dlxsat.runtime.deadline import Deadline

    wide = read("6 6\n1 - - - - 2\n" + "- - - - - -\n" * 4 + "1 - - - - 2\n")
    limited = sweep(wide.clues, wide.values(), max_states=10)
    assert limited.count is None and not limited.timed_out
    assert sweep(wide.clues, wide.values()).count > 1000
    lopsided = read("3 8\n1 2 3 4 - - - -\n" + "- - - - - - - -\n" + "1 2 3 4 - - - -\n")
    swept = sweep(lopsided.clues, lopsided.values(), first=2)
    assert swept.count == sweep(lopsided.clues, lopsided.values()).count
    assert swept.orientation != "as given"
    late = sweep(wide.clues, wide.values(), deadline=Deadline(0.0))
    assert late.count is None and late.timed_out


def test_a_count_the_counter_gives_up_on_is_an_engine_s(monkeypatch, dlxsat_cli):
    """Past the counter's limit of states ``auto`` counts the exact problem (the figures say
    why); out of time, the count is a time out; a named backend never asks the counter; the
    text says no answer was checked."""
    from dlxsat import pipeline
    from dlxsat.families import numberlink_sweep
    from dlxsat.runtime.deadline import Deadline

    text = "4 4\n1 - - 2\n- - - -\n- - - -\n1 - - 2\n"
    exact = dlxsat.solve("numberlink", text, backend="dlx", mode="count").count
    # A board DLX counts within its trial: DLX's count, the counter never asked (a trial of
    # 60 s: 0.1 s is not sure to hold on a busy machine).
    monkeypatch.setattr(pipeline, "COUNT_TRIAL_SECONDS", 60.0)
    trial = dlxsat.solve("numberlink", text, mode="count")
    assert trial.count == exact > 20 and "nodes" in trial.stats and "counter" not in trial.stats
    monkeypatch.setattr(pipeline, "COUNT_TRIAL_SECONDS", 0.0)
    own = dlxsat.solve("numberlink", text, mode="count")
    assert own.count == exact and own.stats["counter"] and "nodes" not in own.stats
    monkeypatch.setattr(numberlink_sweep, "state_limit", lambda: 5)
    fallback = dlxsat.solve("numberlink", text, mode="count")
    assert fallback.count == exact and fallback.stats["counter_gave_up"].startswith("past ")
    assert "counter" not in fallback.stats and "auto" in fallback.stats
    monkeypatch.undo()
    # Too wide for the sweep's words (30 across): the engine counts.
    wide = "30 30\n1 2" + " -" * 28 + "\n" + ("-" + " -" * 29 + "\n") * 29
    monkeypatch.setattr(pipeline, "COUNT_TRIAL_SECONDS", 0.0)
    too_wide = dlxsat.solve("numberlink", wide, mode="count")
    assert too_wide.count == 0 and "too wide" in too_wide.stats["counter_gave_up"]
    monkeypatch.undo()
    late, gave_up = pipeline.counted(pipeline.prepare("numberlink", text), Deadline(0.0))
    assert late is not None and late.timed_out and gave_up is None
    named = dlxsat.solve("numberlink", text, backend="sat", mode="count")
    assert named.count == exact and "counter" not in named.stats
    monkeypatch.setattr(pipeline, "COUNT_TRIAL_SECONDS", 0.0)
    out = dlxsat_cli("solve", "numberlink", "-", "--count", stdin=text).stdout
    assert out.startswith(f"counted: {exact} solutions") and "counts without listing" in out
    out = dlxsat_cli("solve", "numberlink", "-", "--count", "--backend", "dlx", stdin=text).stdout
    assert "without listing" not in out


#: Encoding choices a genre makes per puzzle, each on a small board where it applies: the
#: family module's constant set (None: its default), and a rule the encoding must then hold.
#: Nurikabe with SHARED 1: every number above 1 owns its cells under the one shared owner;
#: a 2 x 22 board of a 20 and a 22, two shaded cells: its sea counted (a tenth of the board at
#: most: the ``sea`` item), its 22 counted by default (its distance labelling small: REACH)
#: and with CROWDED 100 (its island nearly forced), shared with REACH 0;
#: Fillomino's 7 has room for one region of 7 (7 cells may take it): an anchored rule.
FIVE = "5 5\n- 5 - - -\n- - 2 - -\n- - - - -\n- - 1 - -\n- - - 3 -\n"
WALL = "2 22\n20" + " -" * 20 + " 22\n" + "- " * 21 + "-\n"
CHOICES = [
    ("nurikabe", "SHARED", 1, FIVE),
    ("nurikabe", None, None, WALL),
    ("nurikabe", "REACH", 0, WALL),
    ("nurikabe", "CROWDED", 100, WALL),
    ("nurikabe", "SEA_COUNT_ENTRIES", 0, FIVE),
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
    if text == WALL:
        problem = get_spec(family).build(puzzle)
        (islands,) = [r for r in problem.rules if r.kind == "sized"]
        assert "sea" in problem.index
        assert [problem.items[i].name for _, i in islands.owners] == (
            ["n11"] if name == "REACH" else ["n11", "n1H"]
        )
    if name in ("SHARED", "SEA_COUNT_ENTRIES"):
        # 14 of 25 cells shaded: more than a tenth of the board, counted by SEA_COUNT_ENTRIES.
        assert ("sea" in get_spec(family).build(puzzle).index) == (name == "SHARED")
    if family == "fillomino":
        problem = get_spec(family).build(puzzle)
        assert [(r.label, r.anchors, r.prefer) for r in problem.rules if r.anchors] == [
            ("size-7", ((3, 7),), "eager")  # (the 7 is the 4th cell that may take 7)
        ]


def _ring(n: int) -> str:
    """An n x n Nurikabe whose sea must ring the (n - 4) x (n - 4) island of the number beside
    the other on a diagonal (the corpus's ``29_10x10`` is n = 10): the other's island, one cell
    more than the border, cannot be enclosed."""
    rows = [["-"] * n for _ in range(n)]
    rows[1][1], rows[2][2] = str(4 * n - 3), str((n - 4) ** 2)
    return f"{n} {n}\n" + "".join(" ".join(row) + "\n" for row in rows)


#: Nurikabe boards whose enclosure deduction (``nurikabe.enclosures``) leaves owners out: two
#: rings, and random boards with a pair of numbers on a diagonal and a small sea (drawn by a
#: seeded generator, kept when the deduction shrank the problem), 1 to 42 answers each.
ENCLOSED = [
    _ring(6),
    _ring(7),
    "7 6\n- - - - - -\n- - - - - -\n- - - - - -\n- - - 24 - -\n- - 5 - - -\n- - - - - -\n"
    "- - - - - -\n",
    "6 5\n- - - - -\n- - - - -\n- - - 5 -\n- - - - 11\n- - - - -\n- - - - -\n",
    "5 6\n- - - - - -\n- - - - - -\n- - 4 - - -\n- 12 - - - -\n- - - - - -\n",
    "6 5\n- - - - -\n- - - - -\n- 4 - - -\n15 - - - -\n- - - - -\n- - - - -\n",
    "6 6\n- - - - - -\n- - - - - -\n- - - - 4 -\n- - - - - 18\n- - - - - -\n- - - - - -\n",
]


def _without_enclosures():
    """A context in which Nurikabe's encoding leaves out its enclosure deduction (a
    ``unittest.mock`` patch, which Hypothesis's examples can use where a fixture cannot)."""
    from unittest import mock

    from dlxsat.families import nurikabe

    return mock.patch.object(nurikabe, "enclosures", lambda puzzle: {})


def _all_answers(puzzle, backend: str = "dlx"):
    """Every answer of a Nurikabe (status ``counted``), and their keys sorted."""
    report = dlxsat.solve("nurikabe", puzzle, backend=backend, mode="all", timeout=20)
    assert report.status == "counted", (backend, report.status)
    return report.solutions, sorted(map(answer_key, report.solutions))


@pytest.mark.parametrize("text", ENCLOSED)
def test_an_enclosed_island_keeps_every_answer(text):
    """The deduction leaves options out and no answer: DLX lists the same answers with it
    and without it (every backend with it, on the rings, whose one answer is the ring)."""
    from dlxsat.families import nurikabe

    puzzle = formats.read("nurikabe", text, "grid")
    assert nurikabe.enclosures(puzzle)
    backends = BACKENDS if text in (_ring(6), _ring(7)) else ("dlx",)
    found = {b: _all_answers(puzzle, b)[1] for b in backends}
    options = len(get_spec("nurikabe").build(puzzle).options)
    with _without_enclosures():
        assert len(get_spec("nurikabe").build(puzzle).options) > options
        without, keys = _all_answers(puzzle)
    assert all(answers == keys for answers in found.values())
    assert without and all(dlxsat.check("nurikabe", puzzle, a).correct for a in without)


def test_a_ring_too_long_for_the_sea_is_found_at_once():
    """The 8 x 8 ring: DLX without the deduction takes some 30 s to list its one answer;
    with it, every backend has it, the island of 16 a 4 x 4 block off the border."""
    puzzle = formats.read("nurikabe", _ring(8), "grid")
    for backend in BACKENDS:
        report = dlxsat.solve("nurikabe", puzzle, backend=backend, timeout=30)
        assert report.status == "unique", backend
        shaded = {tuple(c) for c in report.solutions[0]["shaded"]}
        ring = {(i, j) for i in range(1, 7) for j in range(1, 7)} - {(1, 1)}
        assert shaded == ring - {(i, j) for i in range(2, 6) for j in range(2, 6)}, backend


@st.composite
def small_seas(draw: st.DrawFn) -> str:
    """A Nurikabe board of 4 x 4 to 6 x 6 with two numbers side by side on a diagonal (one on
    the top border, or both off it with a sea of 5 to 12 cells), maybe a third number, the
    numbers summing to the board less the sea, turned by one of the square's 8 symmetries."""
    m = n = draw(st.integers(4, 6))
    on_border = draw(st.booleans())
    i = 0 if on_border else draw(st.integers(1, m - 3))
    j = draw(st.integers(1, n - 2))
    cells = [(i, j), (i + 1, j + draw(st.sampled_from((1, -1))))]
    if draw(st.booleans()):
        third = draw(st.tuples(st.integers(0, m - 1), st.integers(0, n - 1)))
        assume(third not in cells)
        cells.append(third)
    sea = draw(st.integers(5, 12)) if not on_border else draw(st.integers(2, m * n // 2))
    total = m * n - sea
    cuts = sorted(
        draw(
            st.lists(
                st.integers(1, total - 1),
                min_size=len(cells) - 1,
                max_size=len(cells) - 1,
                unique=True,
            )
        )
    )
    values = [b - a for a, b in zip([0, *cuts], [*cuts, total], strict=True)]
    turn = draw(st.integers(0, 7))

    def turned(c: tuple[int, int]) -> tuple[int, int]:
        x, y = c
        x, y = (y, x) if turn & 4 else (x, y)
        return (m - 1 - x if turn & 1 else x, n - 1 - y if turn & 2 else y)

    rows = [["-"] * n for _ in range(m)]
    for c, v in zip(cells, values, strict=True):
        x, y = turned(c)
        rows[x][y] = str(v)
    return f"{m} {n}\n" + "".join(" ".join(row) + "\n" for row in rows)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=small_seas())
def test_the_enclosed_island_keeps_every_answer_of_random_boards(text):
    """On random boards where it applies, DLX lists the same answers with the deduction and
    without it."""
    from dlxsat.families import nurikabe

    puzzle = formats.read("nurikabe", text, "grid")
    assume(nurikabe.enclosures(puzzle))
    found = _all_answers(puzzle)[1]
    with _without_enclosures():
        assert _all_answers(puzzle)[1] == found


@settings(max_examples=200, deadline=None)
@given(
    rows=st.integers(1, 7).flatmap(
        lambda n: st.lists(
            st.text(alphabet="+-|?.......", min_size=n, max_size=n), min_size=1, max_size=7
        )
    )
)
def test_tatamibari_s_rectangles_are_every_rectangle_around_one_symbol(rows):
    """Tatamibari's candidate rectangles (its options) stop growing a rectangle once no
    placement of its size holds a single symbol; they are every rectangle of the board that
    holds exactly one symbol, of the shape that symbol asks for, in the order the options
    take (symbols in reading order, then height, width, top, left)."""
    from dlxsat.families.tatamibari import NONE, TatamibariPuzzle, fits, rectangles

    puzzle = TatamibariPuzzle(tuple(rows))
    m, n = puzzle.m, puzzle.n
    symbols = [(i, j, c) for i, row in enumerate(rows) for j, c in enumerate(row) if c != NONE]
    expected = []
    for ci, cj, symbol in symbols:
        for h in range(1, m + 1):
            for w in range(1, n + 1):
                for top in range(m - h + 1):
                    for left in range(n - w + 1):
                        inside = [
                            (i, j)
                            for i, j, _ in symbols
                            if top <= i < top + h and left <= j < left + w
                        ]
                        if inside == [(ci, cj)] and fits(symbol, h, w):
                            expected.append((top, left, h, w))
    assert rectangles(puzzle) == expected


def test_star_battle_s_regions_come_first_the_smallest_first():
    """Star Battle's primary items are its regions by their number of cells (ties by their
    first cell), then the rows, then the columns: Algorithm M breaks ties by the leftmost
    item, and the more constrained regions make its trees smaller (docs/genres/star-battle)."""
    text = "4 4 1\n1 1 1 2\n1 3 3 2\n4 4 3 2\n4 4 4 2\n"
    lines = dlxsat.encode("star-battle", text).splitlines()
    items = next(x for x in lines if not x.startswith("|")).split(" | ")[0].split()
    regions = {"11": 4, "17": 4, "33": 3, "51": 5}  # (top cell's name: cells)
    assert items[:4] == sorted(regions, key=lambda r: (regions[r], r))
    assert items[4:] == [f"row{i}" for i in range(4)] + [f"col{j}" for j in range(4)]
