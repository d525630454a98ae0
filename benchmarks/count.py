"""Counting every answer, per backend: ``dlx``, ``sat``, the model ``counter`` and ``auto``.

Each instance is counted as a user counts it (``dlxsat solve xcc FILE --count --backend B
--timeout T --json``, a fresh process each, so every figure includes the start-up), the
backends interleaved, and the table gives the seconds, the count and the ratio to the virtual
best (the fastest backend on that instance, in the same run). The counts must agree: a
disagreement is printed and the exit status is 1.

Instances are ``FAMILY ARGS`` of ``dlxsat instance`` (the classic families: queens, Langford
pairs, packings), or ``masyu:RxC`` for an empty R x C Masyu's exact-cover data counted
without the loop rule (the disjoint-loop covers; issue 33's empty 7 x 7 has 4,468,252,414), or
``masyu:RxC:loop`` with it (the single loops).

    python3 benchmarks/count.py                              # the default instances, 60 s each
    python3 benchmarks/count.py --only queens --timeout 30
    python3 benchmarks/count.py --instances "queens 6" masyu:3x4 --backends dlx,counter

The machine's load average is printed before and after: timings of a shared machine are
comparable only within one run. The counter needs ``pip install 'dlxsat[count]'``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
INSTANCES = [
    "queens 8",
    "queens 10",
    "langford 11",
    "masyu:5x5",
    "masyu:6x6",
    "masyu:7x7",
    "masyu:6x6:loop",
]
BACKENDS = ["dlx", "sat", "counter", "auto"]


def dlxsat(*args: str, timeout: float | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m dlxsat ARGS`` in a fresh process, from this checkout."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    return subprocess.run(
        [sys.executable, "-m", "dlxsat", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
    )


def data_of(instance: str, folder: Path) -> tuple[Path, list[str]]:
    """The instance's exact-cover file, and the extra arguments its count needs."""
    name = instance.replace(" ", "-").replace(":", "-")
    path = folder / f"{name}.dlx"
    if instance.startswith("masyu:"):
        size, *rest = instance.split(":")[1:]
        rows, cols = map(int, size.split("x"))
        board = ("." * cols + "\n") * rows
        made = subprocess.run(
            [sys.executable, "-m", "dlxsat", "encode", "masyu"],
            input=board,
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
        )
        text, extra = made.stdout, (["--loop"] if rest == ["loop"] else [])
    else:
        made = dlxsat("instance", *instance.split())
        text, extra = made.stdout, []
    if made.returncode != 0:
        raise SystemExit(f"count.py: cannot make {instance!r}: {made.stderr.strip()}")
    path.write_text(text)
    return path, extra


def count(path: Path, extra: list[str], backend: str, timeout: float) -> tuple[str, float]:
    """(the count, or why there is none; wall seconds) of one backend on one file."""
    start = time.monotonic()
    args = ["solve", "xcc", str(path), *extra, "--count", "--backend", backend]
    done = dlxsat(*args, "--timeout", str(timeout), "--json", timeout=timeout + 60)
    seconds = time.monotonic() - start
    try:
        report = json.loads(done.stdout)
    except json.JSONDecodeError:
        return (done.stderr.strip().splitlines() or ["error"])[-1][:60], seconds
    if report.get("status") == "timeout":
        return "timeout", seconds
    engine = report.get("stats", {}).get("auto", {}).get("engine")
    return str(report.get("count")) + (f" ({engine})" if engine else ""), seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--instances", nargs="+", default=INSTANCES, metavar="INSTANCE")
    parser.add_argument("--only", help="only the instances whose name contains this")
    parser.add_argument("--backends", default=",".join(BACKENDS))
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per count")
    a = parser.parse_args()
    instances = [i for i in a.instances if not a.only or a.only in i]
    backends = a.backends.split(",")
    print(f"load average before: {os.getloadavg()}")
    print()
    print("| instance | " + " | ".join(f"{b} s" for b in backends) + " | count | best |")
    print("|---|" + "---|" * len(backends) + "---|---|")
    disagree = False
    with tempfile.TemporaryDirectory() as tmp:
        for instance in instances:
            path, extra = data_of(instance, Path(tmp))
            got = {b: count(path, extra, b, a.timeout) for b in backends}
            counts = {v.split()[0] for v, _ in got.values() if v.split()[0].isdigit()}
            finished = {b: s for b, (v, s) in got.items() if v.split()[0].isdigit()}
            best = min(finished.values(), default=None)
            cells = []
            for b in backends:
                value, seconds = got[b]
                if b not in finished:
                    cells.append(f"{value} ({seconds:.1f})")
                else:
                    ratio = f" ({seconds / best:.2f}x)" if best else ""
                    cells.append(f"{seconds:.2f}{ratio}")
            if len(counts) > 1:
                disagree = True
            shown = " / ".join(sorted(counts)) or "-"
            winner = min(finished, key=finished.__getitem__) if finished else "-"
            print(f"| {instance} | " + " | ".join(cells) + f" | {shown} | {winner} |", flush=True)
    print()
    print(f"load average after: {os.getloadavg()}")
    if disagree:
        print("count.py: the backends disagree on a count", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
