"""Benchmark the portfolio backend against each single backend, from the command line.

Every run is what a user types: a fresh ``python -m dlxsat solve FAMILY FILE --backend B
--timeout T --json`` process, timed by its wall clock (start-up, imports, the numba kernels'
loading and the portfolio's worker processes included). For each puzzle the settings run one
after another in a rotating order, so that the load of a shared machine spreads over all of
them; the ratios are to ``sat`` (the default backend) and to the best single backend of each
puzzle (what a user who guessed right would get), measured in the same run. A run stopped by
the time limit counts as the limit (marked ``>``).

Puzzles: a few of the hardest of each set in ``puzzles/`` (Masyu ``masyu-bench``, Slitherlink,
``sudoku-hard``) and the 25 x 25 Sudokus of ``puzzles/sudoku-25`` (Tatham's Solo, and minimal
a minimal one made from one of them by :func:`make_minimal`).

    python benchmarks/portfolio.py                    # every puzzle, every setting
    python benchmarks/portfolio.py --only 25x25 --timeout 30
    python benchmarks/portfolio.py --make-minimal     # remake puzzles/sudoku-25/minimal-*.txt
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

#: Counted (``--count``) rather than solved: Tatham's 9 x 9 number 1 with its first two rows
#: blanked (54,620 answers), made by :func:`blank_rows` -- enumeration, where dancing links
#: is at its best and SAT (a blocking clause per answer) at its worst.
COUNTED = "sudoku/tatham-9x9-1.txt:blank-2-rows:count"

#: (family, path under puzzles/): a few of the hardest of each set.
PUZZLES = [
    ("masyu", "masyu/tatham-10x10.txt"),
    ("masyu", "masyu-bench/minimal-24x14-01.txt"),
    ("masyu", "masyu-bench/minimal-36x20-01.txt"),
    ("masyu", "masyu-bench/bench-36x20-01.txt"),
    ("slitherlink", "slitherlink/tatham-20x15.txt"),
    ("slitherlink", "slitherlink/tatham-30x25.txt"),
    ("sudoku", "sudoku-hard/tatham-9x9-unreasonable-01.txt"),
    ("sudoku", "sudoku-hard/tatham-9x9-x-unreasonable-01.txt"),
    ("sudoku", "sudoku-25/tatham-25x25-basic-01.txt"),
    ("sudoku", "sudoku-25/tatham-25x25-intermediate-01.txt"),
    ("sudoku", "sudoku-25/minimal-25x25-01.txt"),
    ("sudoku", COUNTED),
]

#: (label, command-line arguments). The single backends first: the ratios refer to them.
SETTINGS = [
    ("dlx", ["--backend", "dlx"]),
    ("sat", ["--backend", "sat"]),
    ("cpsat", ["--backend", "cpsat"]),
    ("pf sat,dlx", ["--backend", "portfolio", "--members", "sat,dlx"]),
    ("pf sat,cpsat", ["--backend", "portfolio", "--members", "sat,cpsat:workers=1"]),
]
SINGLE = ("dlx", "sat", "cpsat")

#: The Solo puzzles whose answers :func:`make_minimal` starts from, and the seeds of the order
#: in which it tries to remove clues: (output file, Solo file, seed).
MINIMAL = [
    ("sudoku-25/minimal-25x25-01.txt", "sudoku-25/tatham-25x25-basic-01.txt", 1),
]


def blank_rows(text: str, rows: int) -> str:
    """The Sudoku ``text`` with the clues of its first ``rows`` rows removed."""
    lines = text.splitlines()
    n = len(lines[0])
    return "\n".join(["." * n] * rows + lines[rows:]) + "\n"


def run(family: str, path: Path, args: list[str], timeout: float) -> tuple[float, str, dict]:
    """One cold ``dlxsat solve`` run: (wall seconds, status, stats)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    command = [sys.executable, "-m", "dlxsat", "solve", family, str(path), "--json"]
    start = time.perf_counter()
    try:
        proc = subprocess.run(
            command + args + ["--timeout", str(timeout)],
            capture_output=True,
            text=True,
            env=env,
            timeout=timeout + 60,  # a machine short of memory can stall a run past its limit
        )
    except subprocess.TimeoutExpired:
        return time.perf_counter() - start, "timeout", {}
    wall = time.perf_counter() - start
    if proc.returncode not in (0, 3):
        return wall, f"error {proc.returncode}: {proc.stderr.strip()[:80]}", {}
    report = json.loads(proc.stdout)
    return wall, report["status"], report.get("stats", {})


def _name(path: Path) -> str:
    try:
        return str(path.relative_to(ROOT / "puzzles"))
    except ValueError:
        return path.name


def geomean(xs: list[float]) -> float:
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def bench(only: str | None, timeout: float) -> None:
    rows = []
    for family, name in PUZZLES:
        if only and only not in name:
            continue
        source, _, derived = name.partition(":")
        path = ROOT / "puzzles" / source
        if derived:  # a puzzle made here, counted rather than solved
            made = Path(tempfile.mkdtemp()) / "tatham-9x9-1-blank-2-rows.txt"
            made.write_text(blank_rows(path.read_text(), 2))
            path = made
        if path.exists():
            rows.append((family, path, ["--count"] if derived else []))
    print(f"{len(rows)} puzzles, time limit {timeout:g} s, {os.cpu_count()} cores; wall seconds")
    labels = [label for label, _ in SETTINGS]
    print(f"{'puzzle':44}" + "".join(f"{label:>14}" for label in labels) + "  winners")
    walls: dict[str, dict[str, float]] = {}
    for k, (family, path, mode) in enumerate(rows):
        name = _name(path) + (" (count)" if mode else "")
        walls[name] = {}
        order = SETTINGS[k % len(SETTINGS) :] + SETTINGS[: k % len(SETTINGS)]
        cells: dict[str, str] = {}
        winners = []
        for label, args in order:
            wall, status, stats = run(family, path, args + mode, timeout)
            walls[name][label] = wall if status != "timeout" else max(wall, timeout)
            mark = ">" if status == "timeout" else " " if status in ("unique", "counted") else "?"
            cells[label] = f"{mark}{wall:.2f}"
            if "winner" in stats:
                winners.append(f"{label.split()[1]}:{stats['winner'] or '-'}")
            if status.startswith("error"):
                print(f"  {name} {label}: {status}", file=sys.stderr)
        print(f"{name:44}" + "".join(f"{cells[label]:>14}" for label in labels), *winners)
    print("\nratios (geometric mean over the puzzles; < 1 is faster)")
    print(f"{'setting':16}{'to sat':>10}{'to best single':>16}{'worst to best':>15}")
    for label in labels:
        to_sat = [w[label] / w["sat"] for w in walls.values()]
        to_best = [w[label] / min(w[s] for s in SINGLE) for w in walls.values()]
        print(f"{label:16}{geomean(to_sat):10.2f}{geomean(to_best):16.2f}{max(to_best):15.2f}")
    by_family: dict[str, list[str]] = {}
    for (family, _path, mode), name in zip(rows, walls, strict=True):
        by_family.setdefault(family + (" count" if mode else ""), []).append(name)
    print("\nper family, geometric mean ratio to sat")
    print(f"{'setting':16}" + "".join(f"{f:>14}" for f in by_family))
    for label in labels:
        print(
            f"{label:16}"
            + "".join(
                f"{geomean([walls[n][label] / walls[n]['sat'] for n in names]):14.2f}"
                for names in by_family.values()
            )
        )


def make_minimal(source: Path, seed: int) -> str:
    """The Sudoku ``source`` with more clues removed, tried in an order fixed by ``seed``, each
    removal kept only while the answer stays unique (checked by the SAT backend): no clue of
    the result can go. Harder than Solo's own puzzles, which stop removing clues once its
    deductions at the chosen grade no longer finish the grid."""
    import dlxsat

    lines = source.read_text().splitlines()
    n = len(lines[0])
    grid, boxes = [list(row) for row in lines[:n]], lines[n:]

    def text() -> str:
        return "\n".join("".join(r) for r in grid) + "\n" + "\n".join(boxes) + "\n"

    assert dlxsat.solve("sudoku", text(), backend="sat").status == "unique", source
    clues = [(i, j) for i in range(n) for j in range(n) if grid[i][j] != "."]
    random.Random(seed).shuffle(clues)
    for i, j in clues:
        kept, grid[i][j] = grid[i][j], "."
        if dlxsat.solve("sudoku", text(), backend="sat").status != "unique":
            grid[i][j] = kept
    return text()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", help="puzzles whose path contains this")
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds per run (default 10)")
    ap.add_argument("--make-minimal", action="store_true", help="remake the minimal 25 x 25 ones")
    a = ap.parse_args()
    if a.make_minimal:
        for out, source, seed in MINIMAL:
            start = time.perf_counter()
            text = make_minimal(ROOT / "puzzles" / source, seed)
            (ROOT / "puzzles" / out).write_text(text)
            clues = sum(ch != "." for line in text.splitlines()[:25] for ch in line)
            print(f"{out}: {clues} clues ({time.perf_counter() - start:.0f} s)")
        return
    bench(a.only, a.timeout)


if __name__ == "__main__":
    main()
