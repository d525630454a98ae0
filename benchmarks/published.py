"""The default backend on published boards: against the virtual best engine and puzzlekit.

A random sample of the public corpus's boards (``benchmarks/corpus.py``) per family -- 16 x 16
Sudokus, Masyu, Slitherlink (the sets of :data:`SETS`), or any genre of
``benchmarks/genres.py``'s table (:data:`genres.GENRES`: its published boards of at most
``--max-cells`` cells that dlxsat reads) -- drawn with ``--seed`` (a fresh seed after each change to
``auto``'s rule makes a fresh held-out set), is solved in one process with every engine loaded
first (``--no-load``: as in a user's process, each loaded when a run first needs it), by
``auto`` (every family's default but a few: below) and each single engine (``dlx``, ``sat``,
``cpsat``), asking "is the answer unique?" as ``dlxsat solve`` does, and by puzzlekit 0.3.4
(OR-tools CP-SAT, one answer) in a second process that stays up, its solver modules loaded,
timed around its ``solve`` call. Every solver runs each puzzle in turn (the order rotating),
for ``--rounds`` rounds; each keeps its best time, so that a loaded machine's stalls count
less (a run that reached the time limit is not run again).

Printed per family: the total of its default backend (``auto``, or the engine its spec names:
``pipeline.default_backend``) and of each solver over the virtual best engine's (the
per-puzzle best of dlx, sat and cpsat, chosen after the fact), the default's total over
puzzlekit's (both in the same run), how many puzzles ``auto`` took more than 2 x their best
engine + 0.1 s, the engines ``auto`` ended with, and the load average before and after. A
genre puzzlekit has no solver for (``None`` in the table) runs without it; ``>`` before a
ratio: one of that solver's runs reached the time limit (counted at the time it took).

Run::

    python benchmarks/published.py --dataset puzzlekit-dataset --seed 7 --sample 20 \\
        [--families sudoku16,masyu,slitherlink] [--rounds 2] \\
        [--puzzlekit-python venv/bin/python] [--timeout 30] [--exclude TUNED-KEYS]
    python benchmarks/published.py --dataset puzzlekit-dataset --seed 31 --sample 10 \\
        --families yajilin,nurikabe,akari --max-cells 225 --jsonl runs.jsonl
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import json
import math
import os
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "benchmarks"))

import corpus  # noqa: E402
import genres  # noqa: E402

import dlxsat  # noqa: E402
from dlxsat import formats, pipeline  # noqa: E402
from dlxsat.errors import InputError  # noqa: E402

#: Set → (dlxsat family, the corpus's genre folder, puzzlekit's type, the boards' header or
#: None for any, most cells).
SETS: dict[str, tuple[str, str, str, str | None, int]] = {
    "sudoku16": ("sudoku", "Sudoku", "sudoku", "16 16", 256),
    "sudoku9": ("sudoku", "Sudoku", "sudoku", "9 9", 81),
    "masyu": ("masyu", "Masyu", "masyu", None, 400),
    "slitherlink": ("slitherlink", "Slitherlink", "slitherlink", None, 400),
}

ENGINES = ("dlx", "sat", "cpsat")

#: A genre's boards (a name of :data:`genres.GENRES` that is not a set) of at most this many
#: cells, by default: the sample's runs stay short (DLX may need its whole time limit).
MAX_CELLS = 225


def family_of(name: str, most: int = MAX_CELLS) -> tuple[str, str, str | None, str | None, int]:
    """A set's or genre's (dlxsat family, corpus genre folder, puzzlekit type or None, header
    or None, most cells): a set of :data:`SETS`, else a genre of :data:`genres.GENRES` with
    ``most`` cells at most. An unknown name: ``KeyError``."""
    if name in SETS:
        return SETS[name]
    folder, kind = genres.GENRES[name]
    return name, folder, kind, None, most


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
    ``--only``'s files, such as ``benchmarks/data/auto-tuned-boards.txt``. A key is a board of
    every set and genre (``12_10x10``: the corpus reuses keys across genres), or of one
    (``cave:12_10x10``, :func:`listed`)."""
    lines = Path(path).read_text().splitlines()
    return frozenset(w for line in lines if (w := line.split("#")[0].strip()))


def listed(name: str, key: str, keys: frozenset[str]) -> bool:
    """Does ``keys`` (:func:`keys_of`) name board ``key`` of set or genre ``name``: the key
    alone, or qualified by the name? The list's older lines are keys alone, so a board tuned
    on in one genre kept the boards of that key in every other out of the held-out sets; its
    lines since name the genre.

    >>> keys = frozenset({"12_10x10", "cave:7_8x8"})
    >>> [listed("cave", "12_10x10", keys), listed("cave", "7_8x8", keys)]
    [True, True]
    >>> [listed("nurikabe", "7_8x8", keys), listed("nurikabe", "8_8x8", keys)]
    [False, False]
    """
    return key in keys or f"{name}:{key}" in keys


def sample(
    name: str,
    dataset: str,
    k: int,
    seed: int,
    exclude: frozenset[str] = frozenset(),
    most: int = MAX_CELLS,
) -> list[tuple[str, str]]:
    """``k`` boards of set or genre ``name`` with a published answer, drawn with ``seed``:
    (key, text); none of the keys in ``exclude`` (boards a rule was tuned on, for a held-out
    set). A genre's boards (not a set's: their draw stays what it was) are of at most ``most``
    cells and read by dlxsat (a malformed board is passed over, the next drawn instead)."""
    family, genre, _, header, most = family_of(name, most)
    boards = []
    for key, (text, answer) in sorted(corpus.load(genre, dataset).items()):
        if listed(name, key, exclude):
            continue
        head = " ".join(text.split("\n", 1)[0].split()[:2])
        rows, cols = (int(x) for x in head.split())
        if answer is None or (header is not None and head != header) or rows * cols > most:
            continue
        boards.append((key, text))
    if name in SETS:
        return random.Random(seed).sample(boards, min(k, len(boards)))
    drawn = []
    for key, text in random.Random(seed).sample(boards, len(boards)):
        if len(drawn) == k:
            break
        try:
            formats.read(family, text, "grid")
        except InputError:
            continue
        drawn.append((key, text))
    return drawn


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


def variant(spec: str) -> tuple[str, dict[str, object]]:
    """``--variant``'s ``NAME:CONSTANT=VALUE,...``: the name and ``auto``'s module constants
    (values as Python literals: ``16``, ``None``, ``False``).

    >>> variant("old:TRIAL_NODES_PER_ITEM_RULES=None,NODE_BUDGET_WITH_RULES=False")
    ('old', {'TRIAL_NODES_PER_ITEM_RULES': None, 'NODE_BUDGET_WITH_RULES': False})
    """
    from dlxsat.backends import auto

    name, _, assignments = spec.partition(":")
    constants: dict[str, object] = {}
    for assignment in filter(None, assignments.split(",")):
        constant, _, value = assignment.partition("=")
        if not hasattr(auto, constant):
            raise ValueError(f"auto has no constant {constant}")
        constants[constant] = ast.literal_eval(value)
    if not name or name in ("auto", *ENGINES, "puzzlekit"):
        raise ValueError(f"a variant needs a name of its own: {spec}")
    return name, constants


@contextlib.contextmanager
def as_variant(constants: dict[str, object]) -> Iterator[None]:
    """Within it, ``auto``'s module ``constants`` are set; then put back."""
    from dlxsat.backends import auto

    saved = {c: getattr(auto, c) for c in constants}
    try:
        for c, v in constants.items():
            setattr(auto, c, v)
        yield
    finally:
        for c, v in saved.items():
            setattr(auto, c, v)


def load_engines() -> None:
    from dlxsat.backends import auto, cpsat

    auto.load()
    cpsat.load()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    corpus.dataset_argument(parser)
    parser.add_argument(
        "--families",
        default="sudoku16,masyu,slitherlink",
        help="sets (" + ", ".join(SETS) + ") and genres of benchmarks/genres.py, comma-separated",
    )
    parser.add_argument(
        "--max-cells",
        type=int,
        default=MAX_CELLS,
        help=f"a genre's boards of at most this many cells (default {MAX_CELLS}; not the sets')",
    )
    parser.add_argument(
        "--set-cells",
        type=int,
        default=None,
        help="the sets' boards of at most this many cells (default: each set's own: "
        + ", ".join(f"{k} {v[4]}" for k, v in SETS.items())
        + "), e.g. to draw larger Masyus and Slitherlinks once the smaller ones are all tuned on",
    )
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
        "--variant",
        action="append",
        default=[],
        metavar="NAME:CONSTANT=VALUE,...",
        help="also run auto with these module constants (a rule before or after a change, "
        "interleaved in the same process, every solver's order shuffled per board and round); "
        "its total over the VBS is printed under the table",
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
    names = a.families.split(",")
    unknown = [n for n in names if n not in SETS and n not in genres.GENRES]
    if unknown:
        parser.error(f"unknown set or genre: {', '.join(unknown)}")
    exclude = keys_of(a.exclude) if a.exclude else frozenset()
    if a.set_cells is not None:
        for key, spec in SETS.items():
            SETS[key] = (*spec[:4], a.set_cells)
    try:
        variants = dict(variant(v) for v in a.variant)
    except (ValueError, SyntaxError) as e:
        parser.error(f"--variant: {e}")
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
    solvers = a.solvers.split(",") + list(variants) + (["puzzlekit"] if worker else [])
    vbs_known = all(e in solvers for e in ENGINES)
    log = open(a.jsonl, "w") if a.jsonl else None  # noqa: SIM115
    load_before = os.getloadavg()
    print(f"load average before: {load_before[0]:.1f} {load_before[1]:.1f}")
    print(
        "| set | boards | default/VBS | auto/VBS | dlx/VBS | sat/VBS | cpsat/VBS "
        "| default/puzzlekit | auto > 2 x best + 0.1 s | auto's engines | load |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for name in names:
        family, _, kind, _, _ = family_of(name, a.max_cells)
        boards = sample(name, a.dataset, a.sample, a.seed, exclude, a.max_cells)
        if not boards:
            print(f"| {name} | 0 | no board drawn |", flush=True)
            continue
        best: dict[tuple[str, str], float] = {}
        engine: dict[str, str] = {}
        limited: set[str] = set()  # (solvers that reached the time limit on some board)
        limited_on: set[tuple[str, str]] = set()  # (and on which)
        engines_of: dict[str, dict[str, str]] = {}  # (the variants' engines, by board)
        here = [s for s in solvers if s != "puzzlekit" or kind is not None]
        for r in range(a.rounds):
            for i, (key, text) in enumerate(boards):
                shift = (i + r) % len(here)
                order = here[shift:] + here[:shift]
                if variants:  # (a rotation gives each solver the same predecessor: measured,
                    # the solver after cpsat ran 5 % slower, so variants are shuffled)
                    order = random.Random(f"{a.seed} {r} {i}").sample(here, len(here))
                for solver in order:
                    if (key, solver) in limited_on:
                        continue  # (it reached the limit in an earlier round: so it would again)
                    if solver == "puzzlekit":
                        assert worker is not None and worker.stdin and worker.stdout
                        job = {"kind": kind, "text": text, "limit": a.timeout}
                        worker.stdin.write(json.dumps(job) + "\n")
                        worker.stdin.flush()
                        out = json.loads(worker.stdout.readline())
                        seconds = float(out["seconds"])
                    else:
                        if solver in variants:
                            with as_variant(variants[solver]):
                                seconds, out = ours(family, text, "auto", a.timeout)
                            engines_of.setdefault(solver, {})[key] = out["engine"]
                        else:
                            seconds, out = ours(family, text, solver, a.timeout)
                        if solver == "auto":
                            engine[key] = out["engine"]
                        if out["status"] == "timeout":
                            limited.add(solver)
                            limited_on.add((key, solver))
                    best[key, solver] = min(seconds, best.get((key, solver), float("inf")))
                    if log:
                        row = {"set": name, "board": key, "solver": solver, "seconds": seconds}
                        log.write(json.dumps({**row, **out}) + "\n")
                        log.flush()
        keys = [k for k, _ in boards]
        total = {s: sum(best[k, s] for k in keys) for s in here}
        vbs = sum(min(best[k, e] for e in ENGINES) for k in keys) if vbs_known else math.nan
        slow = (
            sum(best[k, "auto"] > 2 * min(best[k, e] for e in ENGINES) + 0.1 for k in keys)
            if vbs_known
            else "-"
        )
        used: dict[str, int] = {}
        for k in engine:
            used[engine[k]] = used.get(engine[k], 0) + 1
        # The family's default backend (its spec's: ``auto`` but where a family measured
        # another), the engine the table's first ratio is of.
        default = pipeline.default_backend(family)
        pk = (
            f"{total[default] / total['puzzlekit']:.2f}"
            if "puzzlekit" in total and default in total
            else "-"
        )
        ratios = [
            f"{'>' * (s in limited)}{total[s] / vbs:.2f}" if s in total else "-"
            for s in (default, "auto", *ENGINES)
        ]
        if default != "auto":
            ratios[0] += f" ({default})"
        load = os.getloadavg()[0]
        print(
            f"| {name} | {len(keys)} | {' | '.join(ratios)} | {pk} | {slow} | "
            f"{', '.join(f'{e} {n}' for e, n in sorted(used.items()))} | {load:.1f} |",
            flush=True,
        )
        for name_, of in engines_of.items():  # (the variants, under the set's row)
            counts: dict[str, int] = {}
            for e in of.values():
                counts[e] = counts.get(e, 0) + 1
            ratio = f"{total[name_] / vbs:.2f}" if vbs_known else "-"
            print(
                f"|   variant {name_} | {len(keys)} | {'>' * (name_ in limited)}{ratio} | "
                f"{', '.join(f'{e} {n}' for e, n in sorted(counts.items()))} |",
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
