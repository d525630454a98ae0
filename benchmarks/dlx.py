"""Time the native dancing-links backend on every golden case, against Knuth's programs and xcover.

For each golden case (tests/data/golden/manifest.json) the puzzle is encoded with
``dlxsat.encode`` and every solution is counted, with and without the loop rule as the manifest
records Knuth's runs (DLX1, DLX2, DLX2-LOOP, DLX3; and the single-loop counts of MCC data,
for which there is no time of his). Printed per run: our search time (best of ``--repeat``
runs; compiling the kernels is done once beforehand and not counted), nodes per second, the
ratio to Knuth's ``seconds`` in the manifest, and -- on XC/XCC data without the loop rule --
xcover's time measured in the same run. Counts and node figures are checked against the
manifest on the way.

xcover (a numba library for exact cover with colors, by dancing cells) is not a dependency of
dlxsat. To include it, install it into the benchmark's own virtual environment::

    python -m venv benchmarks/.venv
    benchmarks/.venv/bin/pip install -e . xcover
    benchmarks/.venv/bin/python benchmarks/dlx.py

Usage: ``python benchmarks/dlx.py [--repeat N] [--only SUBSTRING]``. Takes well under a minute
once the kernels are cached (the first run compiles them, some 10-20 s).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "data" / "golden"
sys.path.insert(0, str(ROOT / "src"))

import dlxsat  # noqa: E402
from dlxsat.backends import dlx as dlx_backend  # noqa: E402
from dlxsat.solvers import solve_problem  # noqa: E402
from dlxsat.xcc import Problem, parse  # noqa: E402

#: Manifest keys of Knuth's runs -> does the loop rule apply?
RUNS = {
    "dlx1": False,
    "dlx2_disjoint_loops": False,
    "dlx2_loop_single_loop": True,
    "dlx3_disjoint_loops": False,
}


def load_xcover() -> Any:
    import warnings

    try:
        with warnings.catch_warnings():  # its ZDD module warns about a cast when compiled
            warnings.simplefilter("ignore")
            import xcover
    except ImportError:
        return None
    return xcover


def xcover_arrays(xcover: Any, problem: Problem) -> tuple:
    """xcover's input arrays for ``problem`` (its own conversion, done outside the timing)."""
    from xcover.solvers import input_as_arrays

    options = [problem.option_names(k) for k in range(len(problem.options))]
    primary = [it.name for it in problem.items if it.primary]
    secondary = [it.name for it in problem.items if not it.primary]
    return input_as_arrays(options, primary, secondary, colored=problem.has_colors)


def time_xcover(arrays: tuple) -> tuple[float, int]:
    """One enumeration of every solution by xcover's Algorithm C: (seconds, count)."""
    from xcover import algorithm_c

    start = time.perf_counter()
    count = sum(1 for _ in algorithm_c(*arrays))
    return time.perf_counter() - start, count


def encoded(case: dict) -> tuple[str, str]:
    """The case's DLX text from dlxsat's encoder (or the golden file if that fails), and a note."""
    golden = (GOLDEN / case["dlx"]).read_text()
    try:
        text = dlxsat.encode(case["family"], (GOLDEN / case["puzzle"]).read_text())
    except Exception as e:  # an encoder still being written: say so, use Knuth's bytes
        return golden, f"encoder failed ({type(e).__name__}); used the golden .dlx"
    if hashlib.sha256(text.encode()).hexdigest() != case["dlx_sha256"]:
        return text, "ENCODING DIFFERS from Knuth's"
    return text, ""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3, help="runs per case; the best is kept")
    ap.add_argument("--only", default="", help="only cases whose family/name contains this")
    args = ap.parse_args(argv)

    xcover = load_xcover()
    manifest = json.loads((GOLDEN / "manifest.json").read_text())
    cases = [
        c for c in manifest if c["exit_status"] == 0 and args.only in f"{c['family']}/{c['name']}"
    ]
    started = time.perf_counter()
    dlx_backend.load()  # compile or load the kernels once, before any timing
    print(f"kernels ready in {time.perf_counter() - started:.2f} s (compiled or loaded from cache)")
    if xcover is None:
        print(
            "xcover not importable, not measured. To compare with it: python -m venv "
            "benchmarks/.venv && benchmarks/.venv/bin/pip install -e . xcover, then run "
            "benchmarks/.venv/bin/python benchmarks/dlx.py"
        )
    else:
        time_xcover(xcover_arrays(xcover, parse("a b | x\na x:1\nb x:1\n")))  # compile it
    print()
    head = f"{'case':40} {'run':22} {'count':>7} {'nodes':>9} {'ours s':>9} {'Mnodes/s':>8}"
    head += f" {'Knuth s':>8} {'ratio':>6} {'xcover s':>9} {'ratio':>6}"
    print(head)
    print("-" * len(head))

    ours_total = knuth_total = 0.0
    ours_on_x = xcover_total = 0.0
    problems = 0
    started = time.perf_counter()
    for case in cases:
        text, note = encoded(case)
        problem = dlxsat.parse_dlx(text)  # (SuperSlitherlink data by its family's rule)
        runs: list[tuple[str, bool, dict | None]] = [
            (key, loop, case[key]) for key, loop in RUNS.items() if case.get(key)
        ]
        if problem.kind == "MCC" and (
            "single_loop_count" in case or "single_loop_count_bruteforce" in case
        ):
            want = case.get("single_loop_count", case.get("single_loop_count_bruteforce"))
            runs.append(("single_loop_count", True, {"count": want}))
        for key, loop, ref in runs:
            # xcover runs on the XC/XCC data without the loop rule (and it needs an option).
            versus = xcover is not None and not loop and problem.kind in ("XC", "XCC")
            arrays = xcover_arrays(xcover, problem) if versus and problem.options else None
            best = xs = float("inf")
            xcount = None
            for _ in range(args.repeat):  # interleaved, so that both see the same machine load
                r = solve_problem(problem, "dlx", loop=loop, keep=0)
                best = min(best, r.stats["seconds"])
                if arrays is not None:
                    seconds, xcount = time_xcover(arrays)
                    xs = min(xs, seconds)
            nodes = r.stats["nodes"]
            wrong = r.count != ref["count"] or nodes != ref.get("nodes", nodes)
            line = f"{case['family'] + '/' + case['name']:40} {key:22} {r.count:7d} {nodes:9d}"
            line += f" {best:9.4f} {nodes / best / 1e6 if best > 0 else 0:8.1f}"
            if "seconds" in ref:
                ours_total += best
                knuth_total += ref["seconds"]
                line += f" {ref['seconds']:8.4f} {best / ref['seconds']:6.2f}"
            else:
                line += f" {'':8} {'':6}"
            if versus:
                if arrays is not None:
                    xcover_total += xs
                    ours_on_x += best
                    line += f" {xs:9.4f} {best / xs if xs > 0 else 0:6.2f}"
                    if xcount != r.count:
                        line += f"  XCOVER COUNTED {xcount}"
                else:
                    line += f" {'-':>9} {'':6}"
            if wrong:
                line += f"  MISMATCH (Knuth: {ref['count']} solutions, {ref.get('nodes')} nodes)"
            print(line + (f"  [{note}]" if note else ""))
            problems += 1
    print("-" * len(head))
    summary = (
        f"TOTAL {problems} runs in {time.perf_counter() - started:.1f} s: ours {ours_total:.4f} s"
        f" vs Knuth {knuth_total:.4f} s (ratio {ours_total / knuth_total:.2f})"
    )
    if xcover is not None and xcover_total > 0:
        summary += (
            f"; on the XC/XCC runs ours {ours_on_x:.4f} s vs xcover {xcover_total:.4f} s"
            f" (ratio {ours_on_x / xcover_total:.2f})"
        )
    else:
        summary += "; xcover not measured"
    print(summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
