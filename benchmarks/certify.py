"""The cost of a certificate: ``solve --certify`` against the plain unique solve, and ``verify``.

For each puzzle, interleaved and repeated (the best time of each kept):

``plain``
    ``dlxsat.solve(family, text, backend="sat")``: the unique-answer solve (two answers asked
    for), its whole time (reading, encoding, building, searching, checking).
``certify``
    :func:`dlxsat.certify.solve_certified` -- the same search, its solver writing a DRAT proof
    as it goes, keeping the cuts it adds -- plus writing the certificate folder. ``ratio`` =
    certify / plain. Each run writes a new folder (replacing an old certificate adds its
    removal: 2-8 ms of ``rmdir`` on this machine's file system).
``verify``
    :func:`dlxsat.certify.verify` with each checker available: cake_lpr on drat-trim's LRAT
    proof when both are on the PATH, drat-trim when it is, dratify (pure Python; with
    cdclkit-native's engine when that is installed).

Columns also give the premises (cuts) and the proof's size (binary DRAT). The default puzzles are
the ones issue 33 names: a published 16 x 16 Sudoku, 24 x 14 Masyu (Janko's, 14 rows by 24
columns) and a 20 x 15 Slitherlink, and a 10 x 10 Masyu.

    python3 benchmarks/certify.py
    python3 benchmarks/certify.py --repeat 1 --checkers drat-trim,cake_lpr
    python3 benchmarks/certify.py masyu:puzzles/masyu-published/janko-020-36x20.txt

The machine's load average is printed before and after: timings of a shared machine are
comparable only within one run.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

import dlxsat  # noqa: E402
from dlxsat import certify  # noqa: E402
from dlxsat.pipeline import prepare  # noqa: E402

PUZZLES = [
    "masyu:puzzles/masyu/tatham-10x10.txt",
    "sudoku:puzzles/sudoku/tatham-16x16-1.txt",
    "masyu:puzzles/masyu-published/janko-019-24x14.txt",
    "slitherlink:puzzles/slitherlink/tatham-20x15.txt",
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("puzzles", nargs="*", metavar="FAMILY:FILE", default=PUZZLES)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each (best kept)")
    text = "comma-separated: cake_lpr, drat-trim, dratify (default: those available)"
    parser.add_argument("--checkers", default=None, help=text)
    a = parser.parse_args()
    checkers = a.checkers.split(",") if a.checkers else ["cake_lpr", "drat-trim", "dratify"]
    needs = {"cake_lpr": ("cake_lpr", "drat-trim"), "drat-trim": ("drat-trim",)}
    checkers = [c for c in checkers if all(shutil.which(p) for p in needs.get(c, ()))]
    print(f"load average before: {os.getloadavg()[0]:.2f}; checkers: {', '.join(checkers)}")
    head = "| puzzle | plain s | certify s | ratio | premises | proof KB |"
    head += "".join(f" verify {c} s |" for c in checkers)
    print(head)
    print("|---" * (6 + len(checkers)) + "|")
    folder = Path(tempfile.mkdtemp(prefix="dlxsat-certify-bench-"))
    try:
        for spec in a.puzzles:
            family, _, name = spec.partition(":")
            text = (ROOT / name).read_text()
            best: dict[str, float] = {}
            cert = None
            for k in range(a.repeat):
                t0 = time.perf_counter()
                report = dlxsat.solve(family, text, backend="sat")
                best["plain"] = min(best.get("plain", 1e9), time.perf_counter() - t0)
                assert report.status == "unique", (spec, report.status)
                t0 = time.perf_counter()
                _, cert = certify.solve_certified(family, text, {})
                assert cert is not None
                cert.write(str(folder / f"c{k}"))  # (a new folder, as a new certificate is)
                best["certify"] = min(best.get("certify", 1e9), time.perf_counter() - t0)
            assert cert is not None
            prep = prepare(family, text)
            for checker in checkers:
                for _ in range(1 if checker == "dratify" else a.repeat):
                    t0 = time.perf_counter()
                    verdict = certify.verify(prep, str(folder / "c0"), checker)
                    took = time.perf_counter() - t0
                    assert verdict.verified, (spec, checker, verdict.reason)
                    best[checker] = min(best.get(checker, 1e9), took)
            size = (folder / "c0" / certify.PROOF).stat().st_size / 1e3
            row = (
                f"| {Path(name).stem} | {best['plain']:.3f} | {best['certify']:.3f} | "
                f"{best['certify'] / best['plain']:.2f} | {cert.meta['formula']['premises']} | "
                f"{size:.0f} |"
            )
            print(row + "".join(f" {best[c]:.2f} |" for c in checkers), flush=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
