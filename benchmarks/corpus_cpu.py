"""The corpus run's CPU per puzzle: every published puzzle of a set solved by the default backend.

The run this measures: each puzzle of the public corpus's Masyu, Slitherlink, Sudoku and
jigsaw Sudoku sets (``benchmarks/corpus.py``) read from the corpus's notation and solved with
``dlxsat.solve`` as a user would (the default backend, asking "is the answer unique?"), one
process per set, so that the process's one-off costs (imports, loading the compiled kernels)
are counted once per set as they are in such a run. What is measured is the CPU time of that
process (user and system, all its threads, and any child it waited for: the ahead-of-time
kernels' build, should it happen), per puzzle, with every tree's bytecode written first
(``compile_tree``), as a user's installed package has it.

Several source trees can be measured in one run, interleaved (``--tree LABEL=DIR``, ``DIR``
holding ``src/dlxsat``; the first is the reference the others' ratios are to), so that a
change's effect is seen on a shared machine: ``git archive COMMIT src | tar -x -C DIR`` makes
one. Each round runs every (set, tree) pair once, the trees' order rotating; the report gives
each tree's median over the rounds of CPU per puzzle per set and in all, its ratio to the
reference, the engines ``auto`` ended with, and the load average seen.

Run::

    python benchmarks/corpus_cpu.py --dataset puzzlekit-dataset [--sets masyu,sudoku]
        [--sample 10] [--rounds 3] [--tree before=/tmp/old] [--tree after=.]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import corpus  # noqa: E402

#: Set name → (family, the corpus's genre folder).
SETS = {
    "masyu": ("masyu", "Masyu"),
    "slitherlink": ("slitherlink", "Slitherlink"),
    "sudoku": ("sudoku", "Sudoku"),
    "jigsaw": ("sudoku", "JigsawSudoku"),
}

#: The child: reads ``{"family", "puzzles": [[key, text], ...], "timeout"}`` on stdin, solves
#: every puzzle with the default backend, prints its figures as JSON. Only the API every tree
#: measured has (``formats.read``, ``dlxsat.solve``).
CHILD = r"""
import json, sys, time
start = time.process_time()
import dlxsat
from dlxsat import formats
job = json.load(sys.stdin)
engines, statuses = {}, {}
for key, text in job["puzzles"]:
    try:
        report = dlxsat.solve(job["family"], formats.read(job["family"], text, "grid"),
                              timeout=job["timeout"])
        status = report.status
        engine = (report.stats.get("auto") or {}).get("engine", report.backend)
    except Exception as e:  # a puzzle a tree cannot read or solve: counted, not fatal
        status, engine = "error", type(e).__name__
    statuses[status] = statuses.get(status, 0) + 1
    engines[engine] = engines.get(engine, 0) + 1
print(json.dumps({"cpu": time.process_time() - start, "engines": engines, "statuses": statuses}))
"""


def compile_tree(tree: Path) -> None:
    """Write the bytecode of ``tree``'s sources before any is timed, as an installed package
    has it. Without it, on a machine that sets ``PYTHONDONTWRITEBYTECODE`` a tree with no
    ``.pyc`` files compiles its modules in every child: some 70 ms of CPU a set, which a
    tree with older ones (stale for the files changed) paid only in part."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(tree / "src")], check=True)


def tree_argument(parser: argparse.ArgumentParser) -> None:
    """``--tree LABEL=DIR``, again for each tree: a source tree to measure (``DIR`` holding
    ``src/dlxsat``); the first is the reference (see :func:`source_trees`)."""
    parser.add_argument(
        "--tree",
        action="append",
        default=[],
        help="LABEL=DIR: a source tree to measure (default: this one); the first is the reference",
    )


def source_trees(given: list[str]) -> list[tuple[str, Path]]:
    """The ``--tree`` values as (label, directory), in the order given; this checkout alone,
    labelled ``this``, when none is given."""
    trees = [(t.split("=", 1)[0], Path(t.split("=", 1)[1]).resolve()) for t in given]
    return trees or [("this", ROOT)]


def run_child(tree: Path, family: str, puzzles: list[tuple[str, str]], timeout: float) -> dict:
    """One set in a fresh process of ``tree``'s sources: its CPU seconds (the process's own,
    measured by the kernel with its waited-for children, from ``wait4``), and the child's
    report."""
    env = dict(os.environ, PYTHONPATH=str(tree / "src"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # (as a user's: see compile_tree)
    job = json.dumps({"family": family, "puzzles": puzzles, "timeout": timeout})
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(
        [sys.executable, "-c", CHILD], input=job, capture_output=True, text=True, env=env
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{tree}: {done.stderr.strip()[-2000:]}")
    out: dict = json.loads(done.stdout.strip().splitlines()[-1])
    out["process_cpu"] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    corpus.dataset_argument(parser)
    parser.add_argument("--sets", default=",".join(SETS), help="comma-separated")
    parser.add_argument("--sample", type=int, default=1, help="every K-th puzzle of each set")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per puzzle")
    tree_argument(parser)
    a = parser.parse_args()
    if not a.dataset:
        parser.error("no corpus: give --dataset DIR or set DLXSAT_CORPUS")
    trees = source_trees(a.tree)
    for _, tree in trees:
        compile_tree(tree)
    sets = a.sets.split(",")
    work = {}
    for name in sets:
        family, genre = SETS[name]
        puzzles = sorted(
            (key, problem) for key, (problem, _) in corpus.load(genre, a.dataset).items()
        )
        work[name] = (family, puzzles[:: a.sample])
    # cpu[tree][set] = [seconds per round]
    cpu: dict[str, dict[str, list[float]]] = {label: {s: [] for s in sets} for label, _ in trees}
    engines: dict[str, dict[str, dict[str, int]]] = {label: {} for label, _ in trees}
    loads = [os.getloadavg()[0]]
    started = time.perf_counter()
    for rnd in range(a.rounds):
        for i, name in enumerate(sets):
            family, puzzles = work[name]
            k = (rnd + i) % len(trees)
            for label, tree in trees[k:] + trees[:k]:
                out = run_child(tree, family, puzzles, a.timeout)
                cpu[label][name].append(out["process_cpu"])
                engines[label][name] = out["engines"]
                loads.append(os.getloadavg()[0])
                print(
                    f"round {rnd + 1} {name:12} {label:10} {out['process_cpu']:7.2f} s CPU"
                    f" ({1000 * out['process_cpu'] / len(puzzles):.1f} ms a puzzle)"
                    f" {out['engines']} {out['statuses']} load {loads[-1]:.1f}",
                    flush=True,
                )
    ref = trees[0][0]
    print(f"\nCPU per puzzle, ms (median of {a.rounds} rounds; ratio to {ref})")
    print("| tree | " + " | ".join(f"{s} ({len(work[s][1])})" for s in sets) + " | all | ratio |")
    print("|---" * (len(sets) + 3) + "|")
    n_all = sum(len(work[s][1]) for s in sets)
    totals = {label: sum(statistics.median(cpu[label][s]) for s in sets) for label, _ in trees}
    for label, _ in trees:
        cells = [f"{1000 * statistics.median(cpu[label][s]) / len(work[s][1]):.1f}" for s in sets]
        ratio = totals[label] / totals[ref]
        print(
            f"| {label} | " + " | ".join(cells) + f" | {1000 * totals[label] / n_all:.1f} |"
            f" {ratio:.2f} |"
        )
    print(
        f"\n{n_all} puzzles (every {a.sample}th of each set), {len(trees)} trees x {a.rounds}"
        f" rounds in {time.perf_counter() - started:.0f} s; {os.cpu_count()} cores, load average"
        f" {min(loads):.1f}-{max(loads):.1f} (median {statistics.median(loads):.1f})"
    )
    for label, _ in trees:
        print(f"engines ({label}): {engines[label]}")


if __name__ == "__main__":
    main()
