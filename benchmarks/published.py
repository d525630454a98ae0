"""The default backend on published boards: against the virtual best engine and puzzlekit.

A random sample of the public corpus's boards (``benchmarks/corpus.py``) per family -- 16 x 16
Sudokus, Masyu, Slitherlink -- drawn with ``--seed`` (a fresh seed after each change to
``auto``'s rule makes a fresh held-out set), is solved in one process with every engine loaded
first (``--no-load``: as in a user's process, each loaded when a run first needs it), by
dlxsat's default (``auto``) and each single engine (``dlx``, ``sat``, ``cpsat``), asking "is
the answer unique?" as ``dlxsat solve`` does, and by puzzlekit 0.3.4 (OR-tools CP-SAT, one
answer) in a second process that stays up, its solver modules loaded, timed around its
``solve`` call. Every solver runs each puzzle in turn (the order rotating), for ``--rounds``
rounds; each keeps its best time, so that a loaded machine's stalls count less.

Printed per family: each solver's total over the virtual best engine's (the per-puzzle best
of dlx, sat and cpsat, chosen after the fact), the default's total over puzzlekit's (both in
the same run), how many puzzles ``auto`` took more than 2 x their best engine + 0.1 s, the
engines ``auto`` ended with, and the load average before and after.

Run::

    python benchmarks/published.py --dataset puzzlekit-dataset --seed 7 --sample 20 \\
        [--families sudoku16,masyu,slitherlink] [--rounds 2] \\
        [--puzzlekit-python venv/bin/python] [--timeout 30] [--exclude TUNED-KEYS]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
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

#: Set → (dlxsat family, the corpus's genre folder, puzzlekit's type, the boards' header or
#: None for any, most cells).
SETS: dict[str, tuple[str, str, str, str | None, int]] = {
    "sudoku16": ("sudoku", "Sudoku", "sudoku", "16 16", 256),
    "sudoku9": ("sudoku", "Sudoku", "sudoku", "9 9", 81),
    "masyu": ("masyu", "Masyu", "masyu", None, 400),
    "slitherlink": ("slitherlink", "Slitherlink", "slitherlink", None, 400),
}

ENGINES = ("dlx", "sat", "cpsat")

#: puzzlekit's side: reads ``{"kind", "text", "limit"}`` lines, answers ``{"seconds",
#: "status"}`` lines; the first puzzle of a kind is solved once untimed (its module's import).
PUZZLEKIT = r"""
import json, sys, time
import puzzlekit
seen = set()
for line in sys.stdin:
    job = json.loads(line)
    opts = lambda: {"time_limit_sec": job["limit"]}
    if job["kind"] not in seen:
        puzzlekit.solve(job["text"], job["kind"], solver_options=opts())
        seen.add(job["kind"])
    start = time.perf_counter()
    result = puzzlekit.solve(job["text"], job["kind"], solver_options=opts())
    seconds = time.perf_counter() - start
    print(json.dumps({"seconds": seconds, "status": result.solution_data.get("status")}),
          flush=True)
"""


def keys_of(path: str) -> frozenset[str]:
    """The board keys a file lists, one a line (``#`` starts a comment): ``--exclude``'s and
    ``--only``'s files, such as ``benchmarks/data/auto-tuned-boards.txt``."""
    lines = Path(path).read_text().splitlines()
    return frozenset(w for line in lines if (w := line.split("#")[0].strip()))


def sample(
    name: str, dataset: str, k: int, seed: int, exclude: frozenset[str] = frozenset()
) -> list[tuple[str, str]]:
    """``k`` boards of set ``name`` with a published answer, drawn with ``seed``: (key, text);
    none of the keys in ``exclude`` (boards a rule was tuned on, for a held-out set)."""
    _, genre, _, header, most = SETS[name]
    boards = []
    for key, (text, answer) in sorted(corpus.load(genre, dataset).items()):
        if key in exclude:
            continue
        head = " ".join(text.split("\n", 1)[0].split()[:2])
        rows, cols = (int(x) for x in head.split())
        if answer is None or (header is not None and head != header) or rows * cols > most:
            continue
        boards.append((key, text))
    return random.Random(seed).sample(boards, min(k, len(boards)))


def ours(family: str, text: str, backend: str, timeout: float) -> tuple[float, dict]:
    puzzle = formats.read(family, text, "grid")
    start = time.perf_counter()
    report = dlxsat.solve(family, puzzle, backend=backend, timeout=timeout)
    seconds = time.perf_counter() - start
    auto = report.stats.get("auto") or {}
    out = {"status": report.status, "engine": auto.get("engine", backend)}
    if auto:  # (the trial's figures, for a closer look in --jsonl)
        out["auto"] = {k: v for k, v in auto.items() if k != "predicted"}
    elif "nodes" in report.stats:
        out["nodes"] = report.stats["nodes"]
    return seconds, out


def load_engines() -> None:
    from dlxsat.backends import auto, cpsat

    auto.load()
    cpsat.load()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    corpus.dataset_argument(parser)
    parser.add_argument("--families", default="sudoku16,masyu,slitherlink")
    parser.add_argument("--sample", type=int, default=20, help="boards per family")
    parser.add_argument("--seed", type=int, default=1, help="which boards (a fresh held-out set)")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per run")
    parser.add_argument("--puzzlekit-python", default=None, help="a Python with puzzlekit 0.3.4")
    parser.add_argument("--jsonl", default=None, help="every run as a JSON line")
    parser.add_argument(
        "--exclude",
        default=None,
        help="a file of board keys (one a line, '#' comments) never drawn: the boards a rule "
        "was tuned on, so that the sample is held out",
    )
    parser.add_argument(
        "--solvers",
        default="auto,dlx,sat,cpsat",
        help="dlxsat's solvers to run (auto alone, with --no-load: as the corpus run and the "
        "command line use it); the VBS needs dlx, sat and cpsat",
    )
    parser.add_argument(
        "--no-load",
        action="store_true",
        help="do not load the engines first: each loads when a run first needs it, as in a "
        "user's process (auto's trial then starts interpreted)",
    )
    a = parser.parse_args()
    if not a.dataset:
        parser.error("no corpus: give --dataset DIR or set DLXSAT_CORPUS")
    exclude = keys_of(a.exclude) if a.exclude else frozenset()
    if not a.no_load:
        load_engines()
    worker = None
    if a.puzzlekit_python:
        worker = subprocess.Popen(
            [a.puzzlekit_python, "-c", PUZZLEKIT],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
    solvers = a.solvers.split(",") + (["puzzlekit"] if worker else [])
    vbs_known = all(e in solvers for e in ENGINES)
    log = open(a.jsonl, "w") if a.jsonl else None  # noqa: SIM115
    load_before = os.getloadavg()
    print(f"load average before: {load_before[0]:.1f} {load_before[1]:.1f}")
    print(
        "| set | boards | auto/VBS | dlx/VBS | sat/VBS | cpsat/VBS | auto/puzzlekit "
        "| auto > 2 x best + 0.1 s | auto's engines | load |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name in a.families.split(","):
        family, _, kind, _, _ = SETS[name]
        boards = sample(name, a.dataset, a.sample, a.seed, exclude)
        best: dict[tuple[str, str], float] = {}
        engine: dict[str, str] = {}
        for r in range(a.rounds):
            for i, (key, text) in enumerate(boards):
                shift = (i + r) % len(solvers)
                for solver in solvers[shift:] + solvers[:shift]:
                    if solver == "puzzlekit":
                        assert worker is not None and worker.stdin and worker.stdout
                        job = {"kind": kind, "text": text, "limit": a.timeout}
                        worker.stdin.write(json.dumps(job) + "\n")
                        worker.stdin.flush()
                        out = json.loads(worker.stdout.readline())
                        seconds = float(out["seconds"])
                    else:
                        seconds, out = ours(family, text, solver, a.timeout)
                        if solver == "auto":
                            engine[key] = out["engine"]
                    best[key, solver] = min(seconds, best.get((key, solver), float("inf")))
                    if log:
                        row = {"set": name, "board": key, "solver": solver, "seconds": seconds}
                        log.write(json.dumps({**row, **out}) + "\n")
        keys = [k for k, _ in boards]
        total = {s: sum(best[k, s] for k in keys) for s in solvers}
        vbs = sum(min(best[k, e] for e in ENGINES) for k in keys) if vbs_known else math.nan
        slow = (
            sum(best[k, "auto"] > 2 * min(best[k, e] for e in ENGINES) + 0.1 for k in keys)
            if vbs_known
            else "-"
        )
        used: dict[str, int] = {}
        for k in engine:
            used[engine[k]] = used.get(engine[k], 0) + 1
        pk = f"{total['auto'] / total['puzzlekit']:.2f}" if worker else "-"
        ratios = [f"{total[s] / vbs:.2f}" if s in total else "-" for s in ("auto", *ENGINES)]
        load = os.getloadavg()[0]
        print(
            f"| {name} | {len(keys)} | {' | '.join(ratios)} | {pk} | {slow} | "
            f"{', '.join(f'{e} {n}' for e, n in sorted(used.items()))} | {load:.1f} |",
            flush=True,
        )
    if worker:
        assert worker.stdin
        worker.stdin.close()
        worker.wait(timeout=60)
    load_after = os.getloadavg()
    print(f"load average after: {load_after[0]:.1f} {load_after[1]:.1f}")


if __name__ == "__main__":
    main()
