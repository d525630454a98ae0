"""Benchmark of the Masyu logic backend (the Masyu half of ``benchmarks/logic.py``).

Yen, Chiu, Chou and Chen solved 182 Nikoli puzzles of four sizes with their five heuristics,
the intersection method and elimination search, and reported in Table I the average time per
puzzle and the share of the board that elimination search had to decide. This benchmark runs
our implementation (``dlxsat.reasoning.masyu``) on boards of the same sizes and prints the
same figures next to theirs.

The boards (``puzzles/masyu-bench/``, listed in ``puzzles/README.md``) come from our generator
with fixed seeds:

* ``bench-*``: ``generate_masyu(rows, cols, seed, logic_only=True)`` -- a circle is removed
  only while the logic solver still solves the board, so like Nikoli's puzzles they can be
  solved by reasoning (10 per size);
* ``minimal-*``: ``generate_masyu(rows, cols, seed)`` -- circles removed while the answer
  stays unique, whether or not reasoning finds it (5 per size): how far deduction gets on
  puzzles made for search.

Each board is solved by deduction alone (no fallback search) in a fresh solver; every answer
is checked with the family's rule checker. "Elimination share" is the share of all edges of
the board decided directly by elimination search (a refuted assumption, or the common result
of all surviving assumptions; what propagation derives from that counts as intersection, as
in the paper); the per-1 % figures divide the time spent in each part by the share it decided.

Run: ``python benchmarks/logic_masyu.py`` (prints Markdown tables; ``run()`` returns them);
``python benchmarks/logic_masyu.py --generate`` remakes the board files.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from dlxsat.families import masyu as family  # noqa: E402
from dlxsat.reasoning import masyu as logic  # noqa: E402

BOARDS = ROOT / "puzzles" / "masyu-bench"

#: The paper's sizes, as (columns, rows) like its "10X10, 18X10, 24X14, 36X20".
SIZES = [(10, 10), (18, 10), (24, 14), (36, 20)]
BENCH_SEEDS = range(1, 11)
MINIMAL_SEEDS = range(1, 6)

#: Table I of the paper, quoted from the seed: (puzzles, average seconds per puzzle, rate of
#: elimination search, seconds of elimination search per 1 % of the board, seconds of the
#: heuristics and testing per 1 %). MATLAB 2009 on an E8400 CPU.
PAPER = {
    (10, 10): (36, "0.0376", "3.53%", "28*10e-4", "2.88*10e-4"),
    (18, 10): (56, "1.1329", "22.56%", "473*10e-4", "8.48*10e-4"),
    (24, 14): (62, "18.8176", "29.74%", "6269*10e-4", "25*10e-4"),
    (36, 20): (28, "268.0739", "32.75%", "81719*10e-4", "66*10e-4"),
}


def board_path(kind: str, cols: int, rows: int, seed: int) -> Path:
    return BOARDS / f"{kind}-{cols}x{rows}-{seed:02d}.txt"


def generate() -> None:
    """(Re)make every board file with the generator (takes several minutes)."""
    from dlxsat.generate import generate_masyu

    BOARDS.mkdir(parents=True, exist_ok=True)
    for kind, seeds, logic_only in (
        ("bench", BENCH_SEEDS, True),
        ("minimal", MINIMAL_SEEDS, False),
    ):
        for cols, rows in SIZES:
            for seed in seeds:
                start = time.perf_counter()
                text = generate_masyu(rows, cols, seed=seed, logic_only=logic_only)
                path = board_path(kind, cols, rows, seed)
                path.write_text(text)
                print(f"{path.relative_to(ROOT)}: {time.perf_counter() - start:.1f} s", flush=True)


def solve_board(path: Path, timeout: float) -> dict:
    """Solve one board by deduction; its figures."""
    puzzle = family.read(path.read_text())
    out = logic.solve(puzzle, timeout=timeout)
    for answer in out.answers:
        problems = family.check(puzzle, answer)
        if problems:
            raise AssertionError(f"{path.name}: wrong answer: {problems[0]}")
    st = out.stats
    return {
        "status": out.status,
        "seconds": st["seconds"],
        "share": st["elimination_share"],
        "decided": 100.0 * st["decided"] / st["edges"],
        "el_seconds": st["elimination_seconds"],
        "in_seconds": st["seconds"] - st["elimination_seconds"],
        "el_share": st["elimination_share"],
        "in_share": 100.0 * (st["by_heuristics"] + st["by_intersection"]) / st["edges"],
        "circles": sum(ch in "01" for ch in path.read_text()),
    }


def per_percent(seconds: float, share: float) -> str:
    return f"{seconds / share * 1e4:.1f}*10e-4" if share else "-"


def solve_set(
    kind: str, cols: int, rows: int, seeds: Iterable[int], timeout: float, detail: list[str]
) -> list[dict]:
    """The figures of ``solve_board`` for each board of one kind and size; a detail row each."""
    figs = []
    for seed in seeds:
        path = board_path(kind, cols, rows, seed)
        f = solve_board(path, timeout)
        figs.append(f)
        detail.append(
            f"| {path.name} | {f['circles']} | {f['status']} | {f['seconds']:.3f} "
            f"| {f['share']:.1f}% |"
        )
    return figs


def run(timeout: float = 120.0) -> str:
    """Solve every board and return the report (Markdown)."""
    out = []
    out.append("## Masyu: Table I of Yen et al. next to ours\n")
    out.append(
        "Boards made by `generate_masyu(..., logic_only=True)` (solvable by reasoning, like "
        "Nikoli's), solved by deduction alone. Time in seconds per puzzle (ours: Python, one "
        "core; the paper: MATLAB 2009, E8400). Elimination share: the share of the board's "
        "edges decided by elimination search. Per 1 %: seconds (x 10^-4) spent per 1 % of the "
        "board, by elimination search and by heuristics plus intersection.\n"
    )
    out.append(
        "| size | puzzles | avg time | max time | elimination share | elim. per 1 % "
        "| heur.+inter. per 1 % | paper: puzzles | paper: avg time | paper: elim. share "
        "| paper: elim. per 1 % | paper: heur. per 1 % |"
    )
    out.append("|---|---|---|---|---|---|---|---|---|---|---|---|")
    detail = []
    for cols, rows in SIZES:
        figs = solve_set("bench", cols, rows, BENCH_SEEDS, timeout, detail)
        solved = [f for f in figs if f["status"] == "unique"]
        el_s = sum(f["el_seconds"] for f in figs)
        in_s = sum(f["in_seconds"] for f in figs)
        el_p = sum(f["el_share"] for f in figs)
        in_p = sum(f["in_share"] for f in figs)
        p = PAPER[(cols, rows)]
        out.append(
            f"| {cols} × {rows} | {len(solved)}/{len(figs)} solved "
            f"| {statistics.mean(f['seconds'] for f in figs):.3f} "
            f"| {max(f['seconds'] for f in figs):.3f} "
            f"| {statistics.mean(f['share'] for f in figs):.2f}% "
            f"| {per_percent(el_s, el_p)} | {per_percent(in_s, in_p)} "
            f"| {p[0]} | {p[1]} | {p[2]} | {p[3]} | {p[4]} |"
        )
    out.append("")
    out.append("## Masyu: minimal puzzles (circles removed while the answer stays unique)\n")
    out.append(
        "Boards made by `generate_masyu(...)`: no circle can go without losing uniqueness, "
        "but nothing guarantees that reasoning finds the answer. Deduction alone; `stalled` "
        "means it stopped with part of the board open (a search, or `--fallback`, finishes).\n"
    )
    out.append("| size | puzzles | solved by deduction | avg time | avg share decided |")
    out.append("|---|---|---|---|---|")
    for cols, rows in SIZES:
        figs = solve_set("minimal", cols, rows, MINIMAL_SEEDS, timeout, detail)
        solved = sum(f["status"] == "unique" for f in figs)
        out.append(
            f"| {cols} × {rows} | {len(figs)} | {solved} "
            f"| {statistics.mean(f['seconds'] for f in figs):.3f} "
            f"| {statistics.mean(f['decided'] for f in figs):.1f}% |"
        )
    out.append("")
    out.append("## Masyu: every board\n")
    out.append("| board | circles | status | seconds | elimination share |")
    out.append("|---|---|---|---|---|")
    out.extend(detail)
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    if sys.argv[1:] == ["--generate"]:
        generate()
    elif sys.argv[1:]:
        print("usage: python benchmarks/logic_masyu.py [--generate]", file=sys.stderr)
        sys.exit(2)
    else:
        print(run(), end="")
