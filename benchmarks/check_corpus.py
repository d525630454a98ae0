"""``dlxsat check`` on every published answer of the corpus's Masyu, Slitherlink, Sudoku and
jigsaw Sudoku sets: each must be accepted, and -- where the puzzle is unique, proved by
solving it -- rejected once one cell of it is changed, with the rule it breaks named.

A changed cell: one cell of the answer grid given another token of the notation (Masyu:
another set of loop sides, or ``-``; Slitherlink: inside and outside swapped; Sudoku: another
digit), chosen by a generator seeded with the puzzle's key, so a run is repeatable. A unique
puzzle has no other answer, so every changed answer is wrong; the check must say which rule
it breaks.

Run (see ``benchmarks/corpus.py`` for the corpus)::

    python benchmarks/check_corpus.py --dataset puzzlekit-dataset [--sets masyu,sudoku]

Prints one row per set: puzzles, with an answer, read, answers accepted, unique (solved),
changed answers rejected, and the rules named; then each puzzle that did not pass, and why.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "benchmarks"))

import corpus  # noqa: E402

import dlxsat  # noqa: E402
from dlxsat import formats  # noqa: E402
from dlxsat.errors import InputError  # noqa: E402

#: Set name → (family, the corpus's genre folder).
SETS = {
    "masyu": ("masyu", "Masyu"),
    "slitherlink": ("slitherlink", "Slitherlink"),
    "sudoku": ("sudoku", "Sudoku"),
    "jigsaw": ("sudoku", "JigsawSudoku"),
}
#: The tokens of a cell, by family, a changed cell takes another of them.
TOKENS = {
    "masyu": ["-", "ns", "ew", "ne", "nw", "se", "sw"],
    "slitherlink": ["x", "-"],
}


def changed(family: str, answer: str, key: str) -> str:
    """``answer`` (the corpus's grid) with one cell given another token."""
    head, *rows = answer.strip().splitlines()
    cells = [row.split() for row in rows]
    rng = random.Random(key)
    i = rng.randrange(len(cells))
    j = rng.randrange(len(cells[i]))
    if family == "sudoku":
        n = len(cells)
        tokens = [str(d) for d in range(1, n + 1)]
    else:
        tokens = TOKENS[family]
    cells[i][j] = rng.choice([t for t in tokens if t != cells[i][j]])
    return "\n".join([head, *(" ".join(row) for row in cells)]) + "\n"


def rule_word(violation: str) -> str:
    """A short name of the rule a violation names (for the summary)."""
    words = violation.split(":")[-1].split()
    return " ".join(words[:4])


def run_set(name: str, dataset: str, timeout: float, limit: int | None) -> dict[str, object]:
    family, genre = SETS[name]
    puzzles = corpus.load(genre, dataset)
    row: dict[str, object] = {"set": name, "puzzles": len(puzzles)}
    counts: Counter[str] = Counter()
    rules: Counter[str] = Counter()
    failures: list[str] = []
    start = time.perf_counter()
    for k, (key, (problem, answer)) in enumerate(sorted(puzzles.items())):
        if limit is not None and k >= limit:
            break
        if answer is None:
            continue
        counts["with answer"] += 1
        try:
            puzzle = formats.read(family, problem, "grid")
        except InputError as e:
            failures.append(f"{key}: puzzle not read: {e}")
            continue
        counts["read"] += 1
        try:
            report = dlxsat.check(family, puzzle, answer, answer_format="grid")
        except InputError as e:
            failures.append(f"{key}: answer not read: {e}")
            continue
        if not report.correct:
            failures.append(f"{key}: published answer rejected: {report.violations[0]}")
            continue
        counts["accepted"] += 1
        solved = dlxsat.solve(family, puzzle, timeout=timeout)
        if solved.status != "unique":
            failures.append(f"{key}: not unique ({solved.status}), not changed")
            continue
        counts["unique"] += 1
        wrong = dlxsat.check(family, puzzle, changed(family, answer, key), answer_format="grid")
        if wrong.correct:
            failures.append(f"{key}: a changed answer was accepted")
            continue
        counts["changed rejected"] += 1
        rules[rule_word(wrong.violations[0])] += 1
    row.update(counts)
    row["seconds"] = round(time.perf_counter() - start, 1)
    row["rules"] = ", ".join(f"{r} ({n})" for r, n in rules.most_common(4))
    row["failures"] = failures
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    corpus.dataset_argument(parser)
    parser.add_argument("--sets", default=",".join(SETS), help="comma-separated")
    parser.add_argument("--timeout", type=float, default=60.0, help="per uniqueness solve")
    parser.add_argument("--limit", type=int, default=None, help="puzzles per set (a sample)")
    a = parser.parse_args()
    if not a.dataset:
        parser.error("no corpus: give --dataset DIR or set DLXSAT_CORPUS")
    rows = [run_set(s, a.dataset, a.timeout, a.limit) for s in a.sets.split(",")]
    cols = ["set", "puzzles", "with answer", "read", "accepted", "unique", "changed rejected"]
    print("| " + " | ".join([*cols, "seconds", "rules named (most often)"]) + " |")
    print("|" + "---|" * (len(cols) + 2))
    for row in rows:
        cells = [str(row.get(c, 0)) for c in cols]
        print("| " + " | ".join([*cells, str(row["seconds"]), str(row["rules"])]) + " |")
    for row in rows:
        for failure in row["failures"]:  # type: ignore[attr-defined]
            print(f"{row['set']}: {failure}")


if __name__ == "__main__":
    main()
