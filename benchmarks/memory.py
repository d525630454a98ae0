"""Peak memory of dlxsat per family, board size and command, as ratios to a baseline.

Each run is a separate ``python -m dlxsat`` process; its peak resident memory comes from
``os.wait4`` (``ru_maxrss``). The baseline is ``encode`` of a 4 x 4 Masyu in the same run, so
the figures are comparable across machines. Columns: MB, MB per 1000 cells of the board, and
the ratio to the baseline. With ``--estimate`` it also prints the bytes per input character
and per option entry that :mod:`dlxsat.runtime.memory` uses to refuse a model that cannot fit.

    python3 benchmarks/memory.py                  # a few sizes, every family, a minute or two
    python3 benchmarks/memory.py --sizes 50,100,200 --families masyu --commands export,sat
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import boards  # noqa: E402

COMMANDS = {
    "encode": ["encode", "{family}", "{file}"],
    "export": ["export", "dimacs", "{family}", "{file}", "-o", "{out}"],
    "dlx": ["solve", "{family}", "{file}", "--backend", "dlx", "--quiet", "--timeout", "{t}"],
    "sat": ["solve", "{family}", "{file}", "--backend", "sat", "--quiet", "--timeout", "{t}"],
    "cpsat": ["solve", "{family}", "{file}", "--backend", "cpsat", "--quiet", "--timeout", "{t}"],
}


def board(family: str, size: int) -> tuple[str, int]:
    """The puzzle text and its number of cells."""
    if family == "sudoku":
        box = max(2, round(size**0.5))
        return boards.sudoku(box), box**4
    return getattr(boards, family)(size, size), size * size


def peak_mb(args: list[str], env: dict[str, str]) -> tuple[float, float, int]:
    """Peak resident MB, seconds and exit status of one dlxsat run."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "dlxsat", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_maxrss / 1024, time.perf_counter() - start, proc.returncode


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="25,50,100")
    ap.add_argument("--families", default="masyu,slitherlink,superslitherlink,sudoku")
    ap.add_argument("--commands", default="encode,export,dlx,sat,cpsat")
    ap.add_argument("--timeout", default="60", help="per solve run (seconds)")
    a = ap.parse_args()
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    with tempfile.TemporaryDirectory() as tmp:
        base_file = Path(tmp, "base.txt")
        base_file.write_text(boards.masyu(4, 4))
        base, _, _ = peak_mb(["encode", "masyu", str(base_file)], env)
        print(f"baseline (encode a 4x4 Masyu): {base:.1f} MB")
        print(
            f"{'family':<17}{'size':>6}{'command':>9}{'MB':>9}{'MB/kcell':>10}{'ratio':>8}"
            f"{'s':>8}  exit"
        )
        for family in a.families.split(","):
            for size in map(int, a.sizes.split(",")):
                text, cells = board(family, size)
                path = Path(tmp, f"{family}-{size}.txt")
                path.write_text(text)
                for command in a.commands.split(","):
                    args = [
                        w.format(family=family, file=path, out=Path(tmp, "out.cnf"), t=a.timeout)
                        for w in COMMANDS[command]
                    ]
                    mb, secs, code = peak_mb(args, env)
                    print(
                        f"{family:<17}{size:>6}{command:>9}{mb:>9.1f}"
                        f"{1000 * (mb - base) / cells:>10.2f}{mb / base:>8.2f}{secs:>8.2f}  {code}"
                    )


if __name__ == "__main__":
    main()
