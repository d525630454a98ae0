"""Benchmark: `dlxsat solve sudoku many.txt` against `pipeline.solve_many` on the same puzzles.

The issue's goal: the command line on a file of one-line Sudokus takes at most 1.2 x the time of
`solve_many` called in one process on the same puzzles. Both sides are measured in this run,
interleaved, best of ``--repeat``; the in-process side includes reading the file and importing
dlxsat (what the command does too), so the ratio is the command line's own overhead: start-up,
parsing the records, printing one line per answer.

The puzzles are the bundled hard 9 x 9 Sudokus (puzzles/sudoku-hard, X-sudoku left out),
written as one-line Sudokus and repeated to ``--count`` lines.

Run from the project's root: ``python benchmarks/cli_batch.py [--count N] [--backend B]``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

IN_PROCESS = """
import sys, time
start = time.perf_counter()
from dlxsat import formats, pipeline
puzzles = formats.read_many("sudoku", open(sys.argv[1]).read())
for r in pipeline.solve_many("sudoku", puzzles, backend=sys.argv[2]):
    assert r.status == "unique"
print(time.perf_counter() - start)
"""


def one_liners(count: int) -> str:
    sys.path.insert(0, str(ROOT / "src"))
    from dlxsat import formats
    from dlxsat.families import sudoku

    lines = []
    for f in sorted((ROOT / "puzzles" / "sudoku-hard").glob("tatham-9x9-[aeu]*.txt")):
        lines.append(formats.write("sudoku", sudoku.read(f.read_text()), "oneline").strip())
    return "".join(lines[k % len(lines)] + "\n" for k in range(count))


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--backend", default="dlx", help="default: dlx, what a file of Sudokus uses")
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args(argv[1:])
    env_path = str(ROOT / "src")
    with tempfile.TemporaryDirectory() as tmp:
        many = Path(tmp) / "many.txt"
        many.write_text(one_liners(a.count))
        cli_times, api_times = [], []
        for _ in range(a.repeat):
            start = time.perf_counter()
            out = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "dlxsat",
                    "solve",
                    "sudoku",
                    str(many),
                    "--backend",
                    a.backend,
                    "--quiet",
                ],
                capture_output=True,
                text=True,
                check=True,
                env={"PYTHONPATH": env_path, "PATH": "/usr/bin:/bin"},
            ).stdout
            cli_times.append(time.perf_counter() - start)
            assert out.count(" unique ") == a.count
            start = time.perf_counter()
            subprocess.run(
                [sys.executable, "-c", IN_PROCESS, str(many), a.backend],
                capture_output=True,
                text=True,
                check=True,
                env={"PYTHONPATH": env_path, "PATH": "/usr/bin:/bin"},
            )
            api_times.append(time.perf_counter() - start)
    cli, api = min(cli_times), min(api_times)
    print(f"{a.count} one-line 9x9 Sudokus, backend {a.backend}, best of {a.repeat}")
    print(f"  dlxsat solve sudoku many.txt : {cli:7.2f} s ({a.count / cli:8.1f} puzzles/s)")
    print(f"  pipeline.solve_many          : {api:7.2f} s ({a.count / api:8.1f} puzzles/s)")
    print(f"  ratio command line / API     : {cli / api:7.3f} (goal: at most 1.2)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
