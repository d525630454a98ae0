"""Speed of the generic exact-cover path: dlx against xcover, and ``solve xcc`` against a puzzle.

1. Counting every solution of pentomino 4 x 15 and 6 x 10 and of 12 queens (``dlxsat
   instance``): the dlx backend's nodes (Knuth's count of search-tree nodes, to compare with
   DLX1/DLX2 on the same file) and search time, against xcover's (PyPI; its Algorithm C) on
   the same problem, in one process, interleaved, best of ``--repeat`` (wall seconds of the
   search, and the ratio of processor seconds, steadier on a shared machine). Compiling or
   loading the kernels of both is done first and reported apart.
2. The whole process: ``dlxsat solve xcc`` on an 8-queens file against ``dlxsat solve masyu``
   on the 10 x 10 bundled board, with the same backend, cold runs interleaved (median).

xcover is not a dependency of dlxsat; install it in an environment of its own and run this
script with that environment's python:

    python3 -m venv --system-site-packages /tmp/xcv && /tmp/xcv/bin/pip install xcover
    /tmp/xcv/bin/python benchmarks/xcc_speed.py
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from dlxsat.instances import generate  # noqa: E402
from dlxsat.solvers import solve_problem  # noqa: E402
from dlxsat.xcc import Problem, parse  # noqa: E402

CASES = [("pentominoes", "4", "15"), ("pentominoes", "6", "10"), ("queens", "12")]


def time_dlx(problem: Problem) -> tuple[float, int, int, float, float, str]:
    """(search seconds, count, nodes, compile-or-load seconds, processor seconds of the whole
    call, layout) of one count by dlx."""
    cpu = time.process_time()
    r = solve_problem(problem, backend="dlx", keep=0)
    cpu = time.process_time() - cpu
    st = r.stats
    return st["seconds"], r.count, st["nodes"], st.get("compile_seconds", 0.0), cpu, st["layout"]


def xcover_counter(problem: Problem):
    """A function timing one enumeration by xcover (its input conversion outside the timing),
    or None when xcover is not installed."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from xcover import algorithm_c
            from xcover.solvers import input_as_arrays
    except ImportError:
        return None
    options = [problem.option_names(k) for k in range(len(problem.options))]
    primary = [it.name for it in problem.items if it.primary]
    secondary = [it.name for it in problem.items if not it.primary]
    arrays = input_as_arrays(options, primary, secondary, colored=problem.has_colors)

    def run() -> tuple[float, int, float]:
        cpu = time.process_time()
        start = time.perf_counter()
        count = sum(1 for _ in algorithm_c(*arrays))
        return time.perf_counter() - start, count, time.process_time() - cpu

    return run


def kernels(repeat: int) -> None:
    from dlxsat.backends import dlx

    warm = parse(generate("queens", ["6"]))
    t0 = time.perf_counter()
    dlx.load()  # the compiled kernels (a count this small would not load them)
    time_dlx(warm)
    ours_load = time.perf_counter() - t0
    t0 = time.perf_counter()
    xc = xcover_counter(warm)
    if xc is not None:
        xc()
    theirs_load = time.perf_counter() - t0
    print(f"load/compile: dlx {ours_load:.2f} s, xcover {theirs_load:.2f} s (not in the times)")
    print(
        f"{'case':<16} {'count':>6} {'nodes':>10} {'updates':>13} {'layout':>9} {'dlx s':>8} "
        f"{'xcover s':>9} {'ratio':>6} {'cpu ratio':>9}"
    )
    for case in CASES:
        problem = parse(generate(case[0], list(case[1:])))
        xc = xcover_counter(problem)
        ours, theirs, ours_cpu, theirs_cpu = [], [], [], []
        for _ in range(repeat):  # interleaved, best of each
            seconds, count, nodes, _, cpu, layout = time_dlx(problem)
            ours.append(seconds)
            ours_cpu.append(cpu)
            if xc is not None:
                t, n, c = xc()
                assert n == count, (case, n, count)
                theirs.append(t)
                theirs_cpu.append(c)
        updates = solve_problem(problem, backend="dlx", keep=0).stats["updates"]
        best = min(theirs) if theirs else float("nan")
        best_cpu = min(theirs_cpu) if theirs_cpu else float("nan")
        print(
            f"{' '.join(case):<16} {count:>6} {nodes:>10} {updates:>13} {layout:>9} "
            f"{min(ours):>8.3f} {best:>9.3f} {min(ours) / best:>6.2f} "
            f"{min(ours_cpu) / best_cpu:>9.2f}",
            flush=True,
        )


def processes(repeat: int, backend: str) -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    queens = Path(tempfile.mkdtemp()) / "queens-8.dlx"
    queens.write_text(generate("queens", ["8"]))
    runs = {
        "solve xcc queens-8": ["xcc", str(queens)],
        "solve masyu tatham-10x10": ["masyu", str(ROOT / "puzzles/masyu/tatham-10x10.txt")],
    }
    times: dict[str, list[float]] = {k: [] for k in runs}
    for _ in range(repeat):
        for name, args in runs.items():
            cmd = [sys.executable, "-m", "dlxsat", "solve", *args, "--backend", backend]
            t0 = time.perf_counter()
            subprocess.run(cmd, env=env, check=True, capture_output=True)
            times[name].append(time.perf_counter() - t0)
    ref = statistics.median(times["solve masyu tatham-10x10"])
    for name, ts in times.items():
        med = statistics.median(ts)
        print(f"{backend:<6} {name:<26} median {med:.3f} s  ratio to masyu {med / ref:.2f}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--backends", default="dlx,sat", help="for the whole-process comparison")
    a = ap.parse_args()
    kernels(a.repeat)
    for backend in a.backends.split(","):
        processes(max(a.repeat, 5), backend)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
