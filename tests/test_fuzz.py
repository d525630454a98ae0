"""Fuzzing: random and mutated inputs to every reader and every command.

Whatever the input, a reader returns or raises :class:`InputError`; a command ends with status
0, 2 or 3, with exactly one line on stderr and nothing on stdout for 2, never a traceback,
within its time limit, and never leaves a partial output file.

Profiles (hypothesis): ``ci`` (the default, a few hundred inputs in all, about 20 s) and
``long`` (``DLXSAT_FUZZ=long``, or ``python3 benchmarks/fuzz.py``; ``DLXSAT_FUZZ_EXAMPLES``
inputs per test, default 500). :data:`TRIED` counts the
inputs tried, by test, for the report of ``benchmarks/fuzz.py``.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from conftest import GOLDEN, ROOT
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_cli import run as run_cli

from dlxsat.backends.dimacs import read_solver_output
from dlxsat.errors import InputError
from dlxsat.families import get_spec
from dlxsat.xcc import parse

settings.register_profile(
    "ci",
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
settings.register_profile(
    "long",
    max_examples=int(os.environ.get("DLXSAT_FUZZ_EXAMPLES", "500")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("DLXSAT_FUZZ", "ci"))

#: Inputs tried per test in this process.
TRIED: Counter[str] = Counter()

FAMILIES = ["masyu", "slitherlink", "superslitherlink", "sudoku"]
SEEDS = {
    "masyu": [GOLDEN / "masyu" / "tatham-10x10-1.txt", ROOT / "puzzles/masyu/tatham-10x10.txt"],
    "slitherlink": [GOLDEN / "slitherlink" / "tatham-5x5-1.txt"],
    "superslitherlink": [
        GOLDEN / "superslitherlink" / "pi-day-2025.txt",
        ROOT / "tests/data/superslitherlink-knuth-readers/region-digits.txt",
    ],
    "sudoku": [GOLDEN / "sudoku" / "puzzlium-A.txt", GOLDEN / "sudoku" / "tatham-4x4-1.txt"],
}
SEED_TEXT = {f: [p.read_text() for p in paths] for f, paths in SEEDS.items()}
#: The genres' own notation (the corpus's ``ROWS COLS`` and rows of tokens): the table tests'
#: published puzzles as seeds (tests/data/genres).
GENRE_DATA = ROOT / "tests" / "data" / "genres"
for _path in sorted(GENRE_DATA.glob("*.json")):
    SEED_TEXT[_path.stem] = [case["problem"] for case in json.loads(_path.read_text())["puzzles"]]
GENRES = sorted(set(SEED_TEXT) - set(FAMILIES))
DLX_SEEDS = [(GOLDEN / "sudoku" / "tatham-4x4-1.dlx").read_text(), "a b | x\na x:1\nb x:2\n"]
#: Characters that matter to some reader.
ALPHABET = ".0123456789abcAB!=|:- \n\t\r#é\0x"


def mutated(seeds: list[str]) -> st.SearchStrategy[str]:
    """A seed text with a few random edits: replace, insert or delete characters, cut it."""

    @st.composite
    def edit(draw: st.DrawFn) -> str:
        text = list(draw(st.sampled_from(seeds)))
        for _ in range(draw(st.integers(0, 4))):
            kind = draw(st.sampled_from(["replace", "insert", "delete", "cut", "dup"]))
            at = draw(st.integers(0, max(len(text) - 1, 0)))
            ch = draw(st.sampled_from(ALPHABET))
            if kind == "replace" and text:
                text[at] = ch
            elif kind == "insert":
                text.insert(at, ch)
            elif kind == "delete" and text:
                del text[at]
            elif kind == "cut":
                text = text[:at]
            elif kind == "dup":
                line_end = "".join(text).find("\n", at)
                if line_end > 0:
                    text[line_end + 1 : line_end + 1] = text[at : line_end + 1]
        return "".join(text)

    return edit()


def inputs(family: str) -> st.SearchStrategy[str]:
    return st.one_of(mutated(SEED_TEXT[family]), st.text(ALPHABET, max_size=60))


# --------------------------------------------------------------------------- readers


@pytest.mark.parametrize("family", [*FAMILIES, *GENRES])
def test_readers_return_or_say_input_error(family: str) -> None:
    fam = get_spec(family)

    @given(inputs(family))
    def check(text: str) -> None:
        TRIED[f"read {family}"] += 1
        try:
            fam.encode(fam.read(text))
        except InputError as e:
            assert "\n" not in str(e) and str(e)

    check()


@given(st.one_of(mutated(DLX_SEEDS), st.text(ALPHABET, max_size=60)))
def test_dlx_reader(text: str) -> None:
    TRIED["read dlx"] += 1
    try:
        parse(text)
    except InputError as e:
        assert "\n" not in str(e)


@given(st.one_of(mutated(["s SATISFIABLE\nv 1 -2 3 0\n", "SAT\n1 -2 0\n"]), st.text(ALPHABET)))
def test_solver_output_reader(text: str) -> None:
    TRIED["read model"] += 1
    try:
        read_solver_output(text)
    except InputError as e:
        assert "\n" not in str(e)


# --------------------------------------------------------------------------- commands


@pytest.fixture
def cli_run(monkeypatch, capfd):
    return lambda args, stdin=b"": run_cli(args, stdin, monkeypatch, capfd)


LIMIT = 2.0  # --timeout of every fuzzed command that searches


def assert_clean(rc: int, out: str, err: str, seconds: float) -> None:
    assert rc in (0, 2, 3), f"exit {rc}: {err}"
    assert "Traceback" not in err
    # LIMIT + 1 s held on an idle machine; a loaded 2-core box needs more (issue 18). A command
    # that ignores its limit runs for minutes.
    assert seconds <= 3 * LIMIT + 4.0, f"{seconds:.2f} s"
    if rc == 2:
        assert out == "", out[:200]
        lines = err.rstrip("\n").split("\n")
        assert len(lines) == 1 and lines[0].startswith("dlxsat: error: "), err


COMMANDS = [
    ["encode", "{family}"],
    ["solve", "{family}", "-", "--backend", "sat", "--timeout", str(LIMIT), "--quiet"],
    ["solve", "{family}", "-", "--count", "--timeout", str(LIMIT), "--json"],
    ["export", "dimacs", "{family}", "-", "-o", "{out}", "--timeout", str(LIMIT)],
]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c[:2]))
def test_commands_end_cleanly(cli_run, tmp_path: Path, command: list[str]) -> None:
    out_file = tmp_path / "out.cnf"

    @given(st.sampled_from(FAMILIES).flatmap(lambda f: st.tuples(st.just(f), inputs(f))))
    def check(case: tuple[str, str]) -> None:
        family, text = case
        TRIED[" ".join(command[:2])] += 1
        args = [w.format(family=family, out=out_file) for w in command]
        start = time.monotonic()
        rc, out, err = cli_run(args, text.encode())
        assert_clean(rc, out, err, time.monotonic() - start)
        leftovers = [p.name for p in tmp_path.iterdir() if p.name != "out.cnf"]
        assert leftovers == [], leftovers  # no temporary file left
        if out_file.exists():  # a file written is a whole CNF
            assert rc == 0
            assert out_file.read_text().endswith("0\n")
            out_file.unlink()

    check()


@given(st.one_of(mutated(DLX_SEEDS), st.text(ALPHABET, max_size=60)))
def test_dlx_command(cli_run, text: str) -> None:
    TRIED["dlx"] += 1
    start = time.monotonic()
    rc, out, err = cli_run(["dlx", "--first", "3", "--timeout", str(LIMIT)], text.encode())
    assert_clean(rc, out, err, time.monotonic() - start)


@given(
    st.sampled_from(["masyu", "slitherlink", "sudoku"]),
    st.one_of(
        mutated(["10x10:BbWmWWcWWdWiWaBaBBaBaWaBeWaBbBbBaWhBgWcWaWaBaWaBaWc", "3x3x:a9_5f6c8"]),
        st.text(ALPHABET + "xX_", max_size=30),
    ),
)
def test_from_tatham_command(cli_run, family: str, game_id: str) -> None:
    TRIED["from-tatham"] += 1
    start = time.monotonic()
    rc, out, err = cli_run(["from-tatham", family, game_id])
    assert_clean(rc, out, err, time.monotonic() - start)


def _small(size: str) -> bool:
    return all(not p.isdigit() or int(p) <= 30 for p in size.split("x"))


@given(st.text("0123456789x-", max_size=7).filter(_small))
def test_generate_command(cli_run, size: str) -> None:
    """In-process, boards up to 30 x 30: the generator's uniqueness oracle makes PySAT calls
    without a time budget, which only the process guard's watchdog bounds (in a real run:
    ``test_generate_in_a_real_process``)."""
    TRIED["generate"] += 1
    start = time.monotonic()
    rc, out, err = cli_run(["generate", "masyu", size or "x", "--seed", "1", "--timeout", "1"])
    assert_clean(rc, out, err, time.monotonic() - start)


@pytest.mark.slow
def test_generate_in_a_real_process() -> None:
    """A 30 x 30 board in a real run ends within its limit. (Larger boards can overrun: the
    generator's uniqueness oracle makes PySAT calls without a budget that hold the GIL, so
    neither the alarm nor the watchdog thread can act until they return; see
    dlxsat.runtime.guard.)"""
    import subprocess

    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    start = time.monotonic()
    r = subprocess.run(
        [sys.executable, "-m", "dlxsat", "generate", "masyu", "30x30", "--seed", "1"]
        + ["--timeout", "1"],
        capture_output=True,
        env=env,
        timeout=30,
    )
    TRIED["process"] += 1
    assert_clean(r.returncode, r.stdout.decode(), r.stderr.decode(), time.monotonic() - start)


@pytest.mark.slow
def test_a_few_mutated_inputs_in_real_processes(tmp_path: Path) -> None:
    """The same promises with the real program (process guard, exit, stdout flushing)."""
    import random
    import subprocess

    rng = random.Random(12)
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    for n in range(4):
        family = FAMILIES[n]
        text = list(SEED_TEXT[family][0])
        for _ in range(3):
            text[rng.randrange(len(text))] = rng.choice(ALPHABET)
        start = time.monotonic()
        r = subprocess.run(
            [sys.executable, "-m", "dlxsat", "solve", family, "-", "--timeout", str(LIMIT)],
            input="".join(text).encode(),
            capture_output=True,
            env=env,
            timeout=30,
        )
        TRIED["process"] += 1
        assert_clean(r.returncode, r.stdout.decode(), r.stderr.decode(), time.monotonic() - start)
