"""Time ``dlxsat generate masyu``: puzzles per size and seed, and the cost of its questions.

For each size and seed the whole generation is timed (``generate_masyu``, verification by the
pipeline included) and the puzzle's digest printed, so that two versions of dlxsat can be
compared on the same puzzles::

    PYTHONPATH=src python benchmarks/generate.py            # this version
    PYTHONPATH=/other/checkout/src python benchmarks/generate.py

As a reference measured in the same run, the uniqueness questions of one board (each circle
removed in turn from the full board) are asked twice: of the :class:`UniquenessOracle` (one
incremental solver) and of a fresh SAT search per question (``dlxsat.solve``, as one would
without the oracle); the ratio is printed.

Usage: ``python benchmarks/generate.py [--sizes 10x10,20x20] [--seeds 1-5]``. About 10 s.
"""

from __future__ import annotations

import argparse
import hashlib
import inspect
import random
import time

from dlxsat.generators import masyu as gen


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="10x10,20x20")
    ap.add_argument("--seeds", default="1-5")
    a = ap.parse_args()
    lo, _, hi = a.seeds.partition("-")
    seeds = range(int(lo), int(hi or lo) + 1)
    total = 0.0
    for size in a.sizes.split(","):
        rows, cols = gen.parse_size(size)
        for seed in seeds:
            t = time.process_time()  # CPU time: the machine may be shared
            text = gen.generate_masyu(rows, cols, seed=seed)
            dt = time.process_time() - t
            total += dt
            digest = hashlib.sha256(text.encode()).hexdigest()[:12]
            print(f"{size:>7} seed {seed}: {dt:7.3f} s  puzzle {digest}")
    print(f"total {total:.3f} s of CPU")

    if not hasattr(gen, "UniquenessOracle"):
        return
    from dlxsat.pipeline import solve

    rows, cols = gen.parse_size(a.sizes.split(",")[0])
    loop, circles = gen.solvable_loop(rows, cols, random.Random(1))
    fewer = [{c: v for c, v in circles.items() if c != x} for x in circles]
    t = time.process_time()
    if "loop" in inspect.signature(gen.UniquenessOracle).parameters:  # dlxsat 0.x's oracle
        oracle = gen.UniquenessOracle(rows, cols, loop, circles)
        asked = [oracle.other_answer(f) for f in fewer]
    else:
        oracle = gen.UniquenessOracle(rows, cols)
        asked = [oracle.other_answer(loop, f) for f in fewer]
    oracle.close()
    t_oracle = time.process_time() - t
    t = time.process_time()
    fresh = []
    for x in circles:
        text = gen.board_text(rows, cols, {c: v for c, v in circles.items() if c != x})
        fresh.append(solve("masyu", text, backend="sat").status == "multiple")
    t_fresh = time.process_time() - t
    assert asked == fresh
    print(
        f"{len(circles)} questions on a {rows}x{cols} board: oracle {t_oracle:.3f} s, "
        f"fresh search each {t_fresh:.3f} s (ratio {t_fresh / t_oracle:.1f})"
    )


if __name__ == "__main__":
    main()
