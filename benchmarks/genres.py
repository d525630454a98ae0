"""The genres on the public corpus: published answers reproduced, and speed against puzzlekit.

Two runs (see ``benchmarks/corpus.py`` for the corpus):

``--answers``
    Every puzzle of each genre is read (the corpus's notation), solved with dlxsat's default
    (``auto``, asking "is the answer unique?") and its answer compared with the published one.
    Prints per genre: puzzles, with a published answer, read, unique, equal to the published
    answer; then every puzzle that is not, and why (a variant rule, a duplicate, a corpus
    error). The figures go in docs/genres.md. ``--rules NAME`` solves and judges under one
    of the genres' variants (``dlxsat solve --rules``, e.g. Kurotto's ``touching``).
``--speed``
    The three largest published puzzles of each genre (by cells), solved by dlxsat's default
    (proving uniqueness) and by puzzlekit 0.3.4 (OR-tools CP-SAT, finding one answer) in the
    same run: seconds each and the ratio of the totals. puzzlekit runs in the Python given by
    ``--puzzlekit-python`` (a virtual environment with ``pip install puzzlekit==0.3.4``), one
    process per puzzle, timed around its ``solve`` call (model building included); dlxsat runs
    in this process with its engines loaded first, timed around ``dlxsat.solve``.

Run::

    python benchmarks/genres.py --dataset puzzlekit-dataset --answers [--genres yajilin,...]
    python benchmarks/genres.py --dataset puzzlekit-dataset --answers --genres kurotto \
        --rules touching
    python benchmarks/genres.py --dataset puzzlekit-dataset --answers --genres numberlink \
        --shard 0/2 2> log0   # (and --shard 1/2 in another process; --skip log0 resumes)
    python benchmarks/genres.py --dataset puzzlekit-dataset --speed \\
        --puzzlekit-python venv/bin/python --timeout 60
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "benchmarks"))

import corpus  # noqa: E402

import dlxsat  # noqa: E402
from dlxsat import formats  # noqa: E402
from dlxsat.answer import answer_key  # noqa: E402
from dlxsat.errors import InputError  # noqa: E402

#: dlxsat's family → (the corpus's genre folder, puzzlekit's type; None: it has no solver).
GENRES: dict[str, tuple[str, str | None]] = {
    "masyu": ("Masyu", "masyu"),
    "slitherlink": ("Slitherlink", "slitherlink"),
    "sudoku": ("Sudoku", "sudoku"),
    "yajilin": ("Yajilin", "yajilin"),
    "country-road": ("CountryRoad", "country_road"),
    "simple-loop": ("SimpleLoop", "simple_loop"),
    "castle-wall": ("CastleWall", "castle_wall"),
    "moon-or-sun": ("MoonSun", "moon_sun"),
    "balance-loop": ("BalanceLoop", "balance_loop"),
    "geradeweg": ("Geradeweg", "geradeweg"),
    "dotchi-loop": ("DotchiLoop", "dotchi_loop"),
    "double-back": ("DoubleBack", "double_back"),
    "detour": ("Detour", "detour"),
    "koburin": ("Koburin", "koburin"),
    "regional-yajilin": ("RegionalYajilin", "regional_yajilin"),
    "pipelink": ("Pipelink", None),
    "numberlink": ("NumberLink", None),
    "nurikabe": ("Nurikabe", "nurikabe"),
    "hitori": ("Hitori", "hitori"),
    "heyawake": ("Heyawake", "heyawake"),
    "lits": ("LITS", "lits"),
    "norinori": ("Norinori", "norinori"),
    "star-battle": ("Starbattle", "starbattle"),
    "kurotto": ("Kurotto", "kurotto"),
    "cave": ("Cave", "cave"),
    "creek": ("Creek", "creek"),
    "aqre": ("Aqre", "aqre"),
    "shikaku": ("Shikaku", "shikaku"),
    "fillomino": ("Fillomino", None),
    "galaxies": ("Galaxies", None),
    "tatamibari": ("Tatamibari", "tatamibari"),
    "kuromasu": ("Kuromasu", "kuromasu"),
    "akari": ("Akari", "akari"),
}

#: What puzzlekit runs in its own Python: one solve, timed, as JSON.
PUZZLEKIT = """
import json, sys, time
import puzzlekit
text, kind, limit = sys.stdin.read(), sys.argv[1], float(sys.argv[2])
start = time.perf_counter()
result = puzzlekit.solve(text, kind, solver_options={"time_limit_sec": limit})
seconds = time.perf_counter() - start
print(json.dumps({"seconds": seconds, "status": result.solution_data.get("status")}))
"""


def registered(family: str) -> bool:
    from dlxsat.families import FAMILIES

    return family in FAMILIES


def named(parser: argparse.ArgumentParser, text: str) -> list[str]:
    """The genres of a comma-separated ``--genres`` value, each a name of :data:`GENRES`;
    anything else is the parser's error (a one-line message, exit status 2)."""
    names = text.split(",")
    unknown = [n for n in names if n not in GENRES]
    if unknown:
        parser.error(f"not a genre of benchmarks/genres.py: {', '.join(unknown)}")
    return names


def cells(problem: str) -> int:
    rows, cols = problem.split("\n", 1)[0].split()[:2]
    return int(rows) * int(cols)


def published_answers(
    family: str,
    dataset: str,
    timeout: float,
    rules: str | None = None,
    shard: tuple[int, int] = (0, 1),
    skip: frozenset[str] = frozenset(),
) -> dict[str, object]:
    """The ``--answers`` run of one genre (under its variant ``rules``, None: its default
    rules): counts and the puzzles that did not come back. ``shard`` ``(k, n)``: only the
    puzzles whose place in key order is ``k`` modulo ``n`` (to share a run among processes).
    Each puzzle's status and seconds go to stderr as it ends; the puzzles in ``skip`` are
    left out (a run resumed)."""
    genre, _ = GENRES[family]
    puzzles = corpus.load(genre, dataset)
    counts = dict.fromkeys(["with answer", "read", "unique", "equal"], 0)
    notes: list[str] = []
    start = time.perf_counter()
    k, n = shard
    for place, (key, (problem, answer)) in enumerate(sorted(puzzles.items())):
        if place % n != k or key in skip:
            continue
        if answer is None:
            notes.append(f"{key}: no published answer")
            continue
        counts["with answer"] += 1
        try:
            puzzle = formats.read(family, problem, "grid")
            published = formats.read_answer(family, puzzle, answer, "grid")
        except InputError as e:
            notes.append(f"{key}: not read: {e}")
            continue
        counts["read"] += 1
        began = time.perf_counter()
        report = dlxsat.solve(family, puzzle, timeout=timeout, rules=rules)
        took = time.perf_counter() - began
        print(f"{key} {report.status} {took:.2f} s", file=sys.stderr, flush=True)
        if report.status != "unique":
            notes.append(f"{key}: {report.status} (count {report.count}, {took:.1f} s)")
            continue
        counts["unique"] += 1
        if answer_key(report.solutions[0]) != answer_key(published):
            wrong = dlxsat.check(family, puzzle, published, rules=rules).violations
            notes.append(f"{key}: differs from the published answer ({'; '.join(wrong[:1])})")
            continue
        counts["equal"] += 1
    return {
        "genre": family,
        "puzzles": len(puzzles),
        **counts,
        "seconds": round(time.perf_counter() - start, 1),
        "notes": notes,
    }


def largest(family: str, dataset: str, k: int = 3) -> list[tuple[str, str]]:
    """The ``k`` largest published puzzles (by cells) that dlxsat reads: a malformed one (a
    header counting rows its grid lacks) is no puzzle to time."""
    genre, _ = GENRES[family]
    puzzles = corpus.load(genre, dataset)
    with_answer = [(key, p) for key, (p, a) in puzzles.items() if a is not None]
    found: list[tuple[str, str]] = []
    for key, problem in sorted(with_answer, key=lambda kp: -cells(kp[1])):
        try:
            formats.read(family, problem, "grid")
        except InputError:
            continue
        found.append((key, problem))
        if len(found) == k:
            break
    return found


def puzzlekit_seconds(python: str, kind: str, problem: str, limit: float) -> tuple[float, str]:
    wall = limit * 3 + 120  # (its time limit does not bound building the model)
    try:
        done = subprocess.run(
            [python, "-c", PUZZLEKIT, kind, str(limit)],
            input=problem,
            capture_output=True,
            text=True,
            timeout=wall,
        )
    except subprocess.TimeoutExpired:
        return float("nan"), f"no answer in {wall:.0f} s wall"
    if done.returncode != 0:
        return float("nan"), "error: " + (done.stderr.strip().splitlines() or ["?"])[-1]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    return float(out["seconds"]), str(out["status"])


def speed(family: str, dataset: str, python: str | None, timeout: float) -> list[dict[str, object]]:
    """The ``--speed`` run of one genre: its three largest puzzles on both solvers."""
    _, kind = GENRES[family]
    rows = []
    for key, problem in largest(family, dataset):
        puzzle = formats.read(family, problem, "grid")
        start = time.perf_counter()
        report = dlxsat.solve(family, puzzle, timeout=timeout)
        ours = time.perf_counter() - start
        theirs, status = (float("nan"), "no solver")
        if kind is not None and python:
            theirs, status = puzzlekit_seconds(python, kind, problem, timeout)
        rows.append(
            {
                "genre": family,
                "puzzle": key,
                "cells": cells(problem),
                "dlxsat": round(ours, 3),
                "dlxsat status": report.status,
                "engine": (report.stats.get("auto") or {}).get("engine", report.backend),
                "puzzlekit": round(theirs, 3),
                "puzzlekit status": status,
            }
        )
    return rows


def warm_up() -> None:
    """Load the engines (numba's kernels, PySAT, OR-tools) before anything is timed."""
    from dlxsat.solvers import solve_problem, warm_up_problem

    for backend in ("dlx", "sat", "cpsat"):
        solve_problem(warm_up_problem(["loop"]), backend, keep=0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    corpus.dataset_argument(parser)
    parser.add_argument("--genres", default=None, help="comma-separated (default: every one)")
    parser.add_argument("--answers", action="store_true", help="the published-answer run")
    parser.add_argument("--speed", action="store_true", help="the speed run against puzzlekit")
    parser.add_argument("--puzzlekit-python", default=None, help="a Python with puzzlekit 0.3.4")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per puzzle")
    parser.add_argument("--rules", default=None, help="a variant of the genres (--answers)")
    parser.add_argument(
        "--skip",
        default=None,
        help="a file whose lines begin with the keys of puzzles to leave out (--answers; the "
        "stderr of an earlier run, to resume it)",
    )
    parser.add_argument(
        "--shard",
        default="0/1",
        help="K/N: only every N-th puzzle from the K-th, in key order (--answers; to share a "
        "run among N processes)",
    )
    a = parser.parse_args()
    if not a.dataset:
        parser.error("no corpus: give --dataset DIR or set DLXSAT_CORPUS")
    families = a.genres.split(",") if a.genres else [g for g in GENRES if registered(g)]
    if a.answers:
        try:
            k, n = (int(x) for x in a.shard.split("/"))
        except ValueError:
            parser.error(f"--shard K/N, not {a.shard!r}")
        if not 0 <= k < n:
            parser.error(f"--shard K/N needs 0 <= K < N, not {a.shard!r}")
        skip: frozenset[str] = frozenset()
        if a.skip:
            try:
                with open(a.skip) as lines:
                    skip = frozenset(line.split()[0] for line in lines if line.strip())
            except OSError as e:
                parser.error(f"--skip: {e}")
        rows = [published_answers(f, a.dataset, a.timeout, a.rules, (k, n), skip) for f in families]
        cols = ["genre", "puzzles", "with answer", "read", "unique", "equal", "seconds"]
        print("| " + " | ".join(cols) + " |\n|" + "---|" * len(cols))
        for row in rows:
            print("| " + " | ".join(str(row[c]) for c in cols) + " |")
        for row in rows:
            for note in row["notes"]:  # type: ignore[attr-defined]
                print(f"{row['genre']}: {note}")
    if a.speed:
        warm_up()
        print("| genre | puzzle | cells | dlxsat s | engine | puzzlekit s | puzzlekit status |")
        print("|---|---|---|---|---|---|---|")
        totals: dict[str, list[float]] = {}
        for family in families:
            for row in speed(family, a.dataset, a.puzzlekit_python, a.timeout):
                print(
                    f"| {row['genre']} | {row['puzzle']} | {row['cells']} | {row['dlxsat']} "
                    f"({row['dlxsat status']}) | {row['engine']} | {row['puzzlekit']} | "
                    f"{row['puzzlekit status']} |"
                )
                total = totals.setdefault(family, [0.0, 0.0])
                total[0] += float(row["dlxsat"])  # type: ignore[arg-type]
                total[1] += float(row["puzzlekit"])  # type: ignore[arg-type]
        print("\n| genre | dlxsat s (3 largest) | puzzlekit s | ratio |\n|---|---|---|---|")
        for family, (ours, theirs) in totals.items():
            ratio = ours / theirs if theirs == theirs and theirs > 0 else float("nan")
            print(f"| {family} | {ours:.2f} | {theirs:.2f} | {ratio:.2f} |")


if __name__ == "__main__":
    main()
