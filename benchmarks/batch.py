"""Many 9 x 9 Sudokus in one process: ``dlxsat.solve_many`` against references, as ratios.

The puzzles: ``--puzzles N`` Sudokus from Simon Tatham's generator (``sgt-solo --generate N
3x3``, Debian package ``sgt-puzzles``) when it is installed, else the 9 x 9 Sudokus bundled in
``puzzles/sudoku*`` repeated to ``N``. Every solver must *prove* each answer unique (look for a
second one) and every dlxsat answer is rule-checked; the answers are compared between all of
them at the end.

Measured, in one run, each as puzzles per second, everything included (reading the texts,
building, searching, decoding, checking, the report objects):

- ``solve_many, auto``: the batch path as it runs by default, Knuth texts (9 lines of cells
  and 9 of boxes); ``solve_many, auto, one-line texts``: the same puzzles as the 81-character
  lines of a file of Sudokus; ``solve_many, dlx``: the dlx backend named;
- ``Norvig``: the reference, written here after Peter Norvig's well-known Python solver
  (constraint propagation: eliminate and assign singles; search on the cell with the fewest
  candidates), extended to look for a second solution;
- (not with ``--quick``) ``solve_many, sat``, and ``solve`` per puzzle with dlx and sat;
- ``Knuth``: his per-puzzle pipeline ``sudoku-general-dlx | dlx1``, two processes per puzzle,
  when ``--knuth DIR`` names a folder holding ``sudoku-general-dlx.w``, ``dlx1.w`` and
  ``gb_flip.w`` (repository ``shreevatsa/knuth-literate-programs``) and ``ctangle`` and ``cc``
  exist: they are tangled and compiled (``-O2``) into a temporary folder first.

The batch figures and Norvig's are measured interleaved, ``--repeat`` rounds: each round runs
every batch figure on all the puzzles (each first in turn) and Norvig on every ``repeat``-th of
them, and each rate is all its puzzles over all its time, so that the load of a shared machine
falls on all alike.
The one-off kernel load is reported apart. The ratios printed are each figure over Norvig's
and over ``solve_many, auto``'s. Usage: ``python benchmarks/batch.py [--puzzles 200]
[--repeat 5] [--knuth DIR] [--quick]`` (``--quick``: only the interleaved figures). Takes
about half a minute.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

import dlxsat  # noqa: E402
from dlxsat.families import sudoku  # noqa: E402

# --- the puzzles ---------------------------------------------------------------------------


def generated(n: int) -> list[str] | None:
    """``n`` Sudokus from sgt-solo as Knuth's input texts, or None without the generator."""
    exe = shutil.which("sgt-solo") or (
        "/usr/games/sgt-solo" if os.path.exists("/usr/games/sgt-solo") else None
    )
    if exe is None:
        return None
    ids = subprocess.run(
        [exe, "--generate", str(n), "3x3"], capture_output=True, text=True, check=True
    ).stdout.split()
    return [sudoku.from_tatham_id(game_id) for game_id in ids]


def bundled(n: int) -> list[str]:
    texts = []
    for path in sorted(ROOT.glob("puzzles/sudoku*/*.txt")):
        text = path.read_text()
        p = sudoku.read(text)
        if p.n == 9 and not p.holes and len(p.boxes) == 9:
            texts.append(text)
    return [texts[k % len(texts)] for k in range(n)]


def line_of(text: str) -> str:
    """The 81 characters of a puzzle's cells (``.`` for blanks), Norvig's input."""
    return "".join(text.splitlines()[:9])


# --- the Norvig-style reference ------------------------------------------------------------

DIGITS = "123456789"
CELLS = [(r, c) for r in range(9) for c in range(9)]
UNITS = [[(r, c) for c in range(9)] for r in range(9)]
UNITS += [[(r, c) for r in range(9)] for c in range(9)]
UNITS += [
    [(r, c) for r in range(br, br + 3) for c in range(bc, bc + 3)]
    for br in (0, 3, 6)
    for bc in (0, 3, 6)
]
UNITS_OF = {s: [u for u in UNITS if s in u] for s in CELLS}
PEERS = {s: {t for u in UNITS_OF[s] for t in u} - {s} for s in CELLS}


def norvig_assign(values: dict, s: tuple, d: str) -> dict | None:
    for other in values[s].replace(d, ""):
        if norvig_eliminate(values, s, other) is None:
            return None
    return values


def norvig_eliminate(values: dict, s: tuple, d: str) -> dict | None:
    if d not in values[s]:
        return values
    values[s] = values[s].replace(d, "")
    if not values[s]:
        return None
    if len(values[s]) == 1 and not all(norvig_eliminate(values, t, values[s]) for t in PEERS[s]):
        return None
    for u in UNITS_OF[s]:
        places = [t for t in u if d in values[t]]
        if not places or (len(places) == 1 and norvig_assign(values, places[0], d) is None):
            return None
    return values


def norvig_solutions(values: dict | None, found: list, limit: int = 2) -> None:
    if values is None or len(found) >= limit:
        return
    if all(len(values[s]) == 1 for s in CELLS):
        found.append("".join(values[s] for s in CELLS))
        return
    _, s = min((len(values[s]), s) for s in CELLS if len(values[s]) > 1)
    for d in values[s]:
        norvig_solutions(norvig_assign(dict(values), s, d), found, limit)


def norvig(line: str) -> list[str]:
    """At most two solutions of an 81-character puzzle, each as 81 digits."""
    values: dict | None = {s: DIGITS for s in CELLS}
    for s, ch in zip(CELLS, line, strict=True):
        if ch in DIGITS and values is not None:
            values = norvig_assign(values, s, ch)
    found: list[str] = []
    norvig_solutions(values, found)
    return found


# --- Knuth's pipeline ----------------------------------------------------------------------


def build_knuth(folder: Path, into: Path) -> tuple[Path, Path] | None:
    """Tangle and compile SUDOKU-GENERAL-DLX and DLX1; None when something is missing."""
    names = ("sudoku-general-dlx.w", "dlx1.w", "gb_flip.w")
    if not all((folder / name).exists() for name in names) or not shutil.which("ctangle"):
        return None
    for name in names:
        shutil.copy(folder / name, into / name)
        subprocess.run(["ctangle", name], cwd=into, capture_output=True)
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        return None
    subprocess.run([cc, "-O2", "-w", "-o", "sgd", "sudoku-general-dlx.c"], cwd=into, check=True)
    subprocess.run([cc, "-O2", "-w", "-o", "dlx1", "dlx1.c", "gb_flip.c"], cwd=into, check=True)
    return into / "sgd", into / "dlx1"


def knuth_count(programs: tuple[Path, Path], text: str) -> int:
    """Knuth's count of solutions: ``sudoku-general-dlx < puzzle | dlx1``."""
    sgd, dlx1 = programs
    data = subprocess.run([sgd], input=text, capture_output=True, text=True).stdout
    report = subprocess.run([dlx1], input=data, capture_output=True, text=True).stderr
    line = next(x for x in report.splitlines() if x.startswith("Altogether"))
    return int(line.split()[1])


# --- measuring -----------------------------------------------------------------------------


def rate(run: Callable[[], object], n: int, repeat: int) -> tuple[float, object]:
    best, out = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        out = run()
        best = min(best, time.perf_counter() - start)
    return n / best, out


def interleaved(
    batches: dict[str, Callable[[], list]], texts: list[str], lines: list[str], rounds: int
) -> tuple[dict[str, float], dict[str, list], list]:
    """Puzzles per second of each batch run and of Norvig's solver, measured in turns (see the
    module docstring); also the reports of the batch runs' last round and Norvig's answers."""
    seconds = dict.fromkeys([*batches, NORVIG], 0.0)
    done = dict.fromkeys(seconds, 0)
    reports: dict[str, list] = {}
    found: list = [None] * len(lines)
    names = list(batches)
    for r in range(rounds):
        for name in names[r % len(names) :] + names[: r % len(names)]:  # each first in turn
            run = batches[name]
            start = time.perf_counter()
            reports[name] = run()
            seconds[name] += time.perf_counter() - start
            done[name] += len(texts)
        mine = range(r, len(lines), rounds)
        start = time.perf_counter()
        answers = [norvig(lines[k]) for k in mine]
        seconds[NORVIG] += time.perf_counter() - start
        done[NORVIG] += len(mine)
        for k, a in zip(mine, answers, strict=True):
            found[k] = a
    return {name: done[name] / seconds[name] for name in seconds}, reports, found


NORVIG = "Norvig (Python, unique-checked)"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--puzzles", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--knuth", type=Path, help="folder with Knuth's .w files")
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()

    texts = generated(args.puzzles)
    source = "sgt-solo --generate (default difficulty)"
    if texts is None:
        texts, source = bundled(args.puzzles), "bundled puzzles/sudoku*, repeated"
    n = len(texts)
    lines = [line_of(t) for t in texts]
    print(f"{n} 9x9 Sudokus from {source}; 1 core of {os.cpu_count()}")

    start = time.perf_counter()
    list(dlxsat.solve_many("sudoku", texts[:1] * 32, backend="dlx"))  # load the kernels
    load = time.perf_counter() - start

    def batch(backend: str, given: list[str]) -> Callable[[], list]:
        return lambda: list(dlxsat.solve_many("sudoku", given, backend=backend))

    def single(backend: str) -> Callable[[], list]:
        return lambda: [dlxsat.solve("sudoku", t, backend=backend) for t in texts]

    runs = {
        "solve_many, auto": batch("auto", texts),
        "solve_many, auto, one-line texts": batch("auto", lines),
        "solve_many, dlx": batch("dlx", texts),
    }
    figures, batches, found = interleaved(runs, texts, lines, args.repeat)
    if not args.quick:
        figures["solve_many, sat"], _ = rate(batch("sat", texts), n, 1)
        figures["solve per puzzle, dlx"], _ = rate(single("dlx"), n, 1)
        figures["solve per puzzle, sat"], _ = rate(single("sat"), n, 1)
    knuth_counts = None
    if args.knuth and not args.quick:
        with tempfile.TemporaryDirectory() as tmp:
            programs = build_knuth(args.knuth, Path(tmp))
            if programs is None:
                print(f"Knuth's pipeline skipped: no .w files in {args.knuth} or no ctangle/cc")
            else:
                figures["Knuth: sudoku-general-dlx | dlx1, per puzzle"], knuth_counts = rate(
                    lambda: [knuth_count(programs, t) for t in texts], n, 1
                )
    elif not args.quick:
        print("Knuth's pipeline skipped: give --knuth DIR (his .w files) to include it")

    agree = True
    for reports in batches.values():
        ours = ["".join(r.solutions[0]["grid"]) for r in reports]
        agree = (
            agree and all(r.status == "unique" for r in reports) and [[s] for s in ours] == found
        )
    if knuth_counts is not None:
        agree = agree and all(c == 1 for c in knuth_counts)
    print(f"kernel load, once per process: {load:.2f} s (not in the figures)")
    print(f"{'':48} {'puzzles/s':>10} {'x Norvig':>9} {'/ auto':>8}")
    ref, ours_ref = figures[NORVIG], figures["solve_many, auto"]
    for name, value in figures.items():
        print(f"{name:48} {value:10.0f} {value / ref:8.1f}x {value / ours_ref:7.3f}x")
    print("answers agree (all unique, same grids)" if agree else "ANSWERS DISAGREE")
    if not agree:
        sys.exit(1)


if __name__ == "__main__":
    main()
