"""Each genre's problem build (puzzle -> exact-cover problem) on published boards, per source tree.

On a small board the build is most of a solve (a Country Road of 10 x 10: some 5 of 8 ms),
so a genre's ``build`` is measured on its own: ``dlxsat.pipeline.prepare`` of every board
of a sample (``--every K``-th board of at most ``--max-cells`` cells, at most ``--boards``;
a board dlxsat does not read is passed over),
best of ``--repeats`` passes, in a fresh process per (tree, round), the trees alternating
(``--tree LABEL=DIR``, ``DIR`` holding ``src/dlxsat``; ``git archive COMMIT src | tar -x -C
DIR`` makes one; the first tree is the reference). The machine's speed moves between runs,
so each genre's figure is its minimum over ``--rounds``, and the ratio to the reference is
of those minima. ``--same``: also check that every tree builds the same problems (a hash of
each problem's data in Knuth's format and its rules): a faster build must not change the
encoding.

Run::

    python benchmarks/builds.py --dataset puzzlekit-dataset --genres castle-wall,tatamibari \\
        --tree before=/tmp/old --tree after=. [--rounds 3] [--same]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import corpus  # noqa: E402
from corpus_cpu import source_trees, tree_argument  # noqa: E402

#: The child: times the builds of one tree (its ``src`` first on the path), prints JSON.
CHILD = r"""
import hashlib, json, sys, time
tree, bench, job = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
sys.path.insert(0, tree + "/src")
import dlxsat
sys.path.insert(1, bench)
import corpus, genres
from dlxsat import formats, pipeline
from dlxsat.errors import InputError
from dlxsat.xcc.dlxformat import write
out = {"dlxsat": dlxsat.__file__, "seconds": {}, "hashes": {}}
for fam in job["genres"]:
    boards = [
        (key, text)
        for key, (text, _) in sorted(corpus.load(genres.GENRES[fam][0], job["dataset"]).items())
        if genres.cells(text) <= job["max_cells"]
    ][:: job["every"]][: job["boards"]]
    readable, puzzles = [], []
    for key, text in boards:
        try:  # (a malformed corpus board is passed over, as published.py does)
            puzzles.append(formats.read(fam, text, "grid"))
            readable.append((key, text))
        except InputError:
            pass
    boards = readable
    best = float("inf")
    for _ in range(job["repeats"]):
        start = time.perf_counter()
        for puzzle in puzzles:
            pipeline.prepare(fam, puzzle)
        best = min(best, time.perf_counter() - start)
    out["seconds"][fam] = best / max(1, len(puzzles))
    if job["same"]:
        for (key, _), puzzle in zip(boards, puzzles):
            problem = pipeline.prepare(fam, puzzle).problem
            data = write(problem) + repr(problem.rules)
            out["hashes"][fam + "/" + key] = hashlib.sha1(data.encode()).hexdigest()
print(json.dumps(out))
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    corpus.dataset_argument(parser)
    parser.add_argument("--genres", required=True, help="comma-separated")
    tree_argument(parser)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=5, help="passes over the boards a run")
    parser.add_argument("--every", type=int, default=7, help="every K-th board")
    parser.add_argument("--boards", type=int, default=15, help="at most this many a genre")
    parser.add_argument("--max-cells", type=int, default=225)
    parser.add_argument("--same", action="store_true", help="check the trees build alike")
    a = parser.parse_args(argv)
    if not a.dataset:
        parser.error("--dataset (or $DLXSAT_CORPUS): a clone of puzzlekit-dataset")
    if any("=" not in spec for spec in a.tree):
        parser.error("--tree takes LABEL=DIR")
    trees = [(label, str(path)) for label, path in source_trees(a.tree)]
    for label, path in trees:
        if not (Path(path) / "src" / "dlxsat").is_dir():
            parser.error(f"--tree {label}={path}: DIR must hold src/dlxsat")
    job = {
        "genres": a.genres.split(","),
        "dataset": a.dataset,
        "max_cells": a.max_cells,
        "every": a.every,
        "boards": a.boards,
        "repeats": a.repeats,
        "same": a.same,
    }
    seconds: dict[str, dict[str, list[float]]] = {label: {} for label, _ in trees}
    hashes: dict[str, dict[str, str]] = {}
    for r in range(a.rounds):
        for label, path in trees[r % len(trees) :] + trees[: r % len(trees)]:
            run = subprocess.run(
                [sys.executable, "-c", CHILD, path, str(ROOT / "benchmarks"), json.dumps(job)],
                capture_output=True,
                text=True,
                cwd="/",
                env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
            )
            if run.returncode != 0:
                print(f"builds.py: tree {label} failed:\n{run.stderr[-2000:]}", file=sys.stderr)
                return 1
            result = json.loads(run.stdout)
            if not result["dlxsat"].startswith(path + os.sep):  # (the tree asked for, not ours)
                print(f"builds.py: tree {label} imported {result['dlxsat']}", file=sys.stderr)
                return 1
            for fam, s in result["seconds"].items():
                seconds[label].setdefault(fam, []).append(s)
            hashes[label] = result["hashes"]
    ref = trees[0][0]
    print("| genre | " + " | ".join(f"{label} (ms)" for label, _ in trees) + " | ratio |")
    print("|---|" + "---|" * (len(trees) + 1))
    for fam in job["genres"]:
        best = [min(seconds[label][fam]) for label, _ in trees]
        ratios = " / ".join(f"{b / best[0]:.2f}" for b in best[1:]) or "-"
        print(f"| {fam} | " + " | ".join(f"{b * 1e3:.2f}" for b in best) + f" | {ratios} |")
    if a.same:
        for label, _ in trees[1:]:
            differ = sorted(k for k in hashes[ref] if hashes[label].get(k) != hashes[ref][k])
            print(
                f"{label}: {len(hashes[ref]) - len(differ)} of {len(hashes[ref])} problems "
                f"as {ref}'s" + (f"; differ: {', '.join(differ[:10])}" if differ else "")
            )
            if differ:
                return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
