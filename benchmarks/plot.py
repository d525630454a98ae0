"""A plot of results stores of ``dlxsat compare`` (a cactus plot by default), as PNG or SVG.

A thin call of the report's plotting (:mod:`dlxsat.plots`, matplotlib: ``pip install
'dlxsat[plot]'``), kept so the benchmark commands read as before; ``dlxsat report RESULTS
--plot KIND --plot-out FILE`` draws the same figure and prints the table too.

    python3 benchmarks/loops.py --set encodings -o encodings.jsonl
    python3 benchmarks/plot.py encodings.jsonl -o encodings.svg
    python3 benchmarks/plot.py encodings.jsonl -o by-size.png --plot size
    python3 benchmarks/plot.py encodings.jsonl -o pair.svg --plot scatter \\
        --x sat --y sat:encoding=seqcounter
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from dlxsat.errors import InputError  # noqa: E402
from dlxsat.plots import KINDS, draw  # noqa: E402
from dlxsat.report import read_store  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("stores", nargs="+", metavar="RESULTS", help="results store(s) of compare")
    ap.add_argument("-o", "--output", required=True, help="the plot's file: .png or .svg")
    ap.add_argument("--plot", choices=KINDS, default="cactus")
    ap.add_argument("--x", metavar="SETTING", help="scatter: the setting on the x axis")
    ap.add_argument("--y", metavar="SETTING", help="scatter: the setting on the y axis")
    ap.add_argument("--timeout", type=float, help="time limit of jobs whose record has none")
    ap.add_argument("--title", help="the plot's title")
    a = ap.parse_args(argv)
    try:
        store = read_store(a.stores)
        for w in store.warnings:
            print(f"plot.py: warning: {w}", file=sys.stderr)
        draw(a.plot, store, a.output, x=a.x, y=a.y, timeout=a.timeout, title=a.title)
    except InputError as e:
        print(f"plot.py: error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
