"""How late a dlxsat run ends after a signal or its deadline, on every backend, from the CLI.

Every run is what a user types: a fresh ``python -m dlxsat solve ...`` process, timed by this
script's clock from the moment it started the process (so Python's own start-up counts, as it
does for a user's ``--timeout``). Three figures:

* **signal**: SIGTERM sent mid-search (1.5 s after dlxsat's handlers are in) to a count of the
  empty 16 x 16 Sudoku (which never ends: answers come fast) and of a minimal 25 x 25 Sudoku
  (one answer after seconds of a single SAT call); the time from the signal to the process's
  exit. Reference, in the same round: a Python process that only sleeps, killed the same way.
* **deadline**: ``--timeout T`` on a 200 x 200 Masyu (``boards.masyu``, one answer, a huge
  model) and ``--count --timeout 4`` on a sparse 40 x 40 Masyu (12 circles: more answers than
  can be counted); how long after ``T`` the process ended, and how it ended (its own report,
  exit 3, or the alarm's stop line).
* **portfolio start**: ``solve --backend portfolio --json`` from the CLI: how its members were
  started (``fork`` since the watchdog is paused around the fork; ``spawn`` before) and each
  member's ``start_seconds``, against the same race started from the API in this process.

The rounds interleave the backends, so a shared machine's load spreads over all of them. The
goal (issue 19): every run ends within 0.5 s of its signal or deadline.

    python benchmarks/limits.py                 # 3 rounds of everything
    python benchmarks/limits.py --rounds 1 --only signal
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tests"))
ENV = dict(os.environ, PYTHONPATH=str(ROOT / "src"))

BACKENDS = ["sat", "sat:glucose4", "dlx", "cpsat"]
#: Counts a signal stops: answers come fast (each SAT call is short), and one answer takes
#: seconds (a single long SAT call: the case where CaDiCaL held the GIL throughout).
WORKLOADS = {
    "empty 16x16": "empty16.txt",
    "minimal 25x25": str(ROOT / "puzzles" / "sudoku-25" / "minimal-25x25-01.txt"),
}


def _args(backend: str) -> list[str]:
    name, _, solver = backend.partition(":")
    return ["--backend", name] + (["--solver", solver] if solver else [])


def _guarded(pid: int) -> None:
    """Wait until the process catches SIGTERM (dlxsat's handlers are in)."""
    for _ in range(20000):
        try:
            with open(f"/proc/{pid}/status") as f:
                for line in f:
                    if line.startswith("SigCgt:") and int(line.split()[1], 16) & (1 << 14):
                        return
        except OSError:
            return
        time.sleep(0.001)


def signal_latency(cmd: list[str], delay: float, cwd: str) -> tuple[float, int, str]:
    """Start ``cmd``, SIGTERM it ``delay`` s after its handlers are in; (seconds from the signal
    to its exit, exit status, last line on stderr)."""
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=ENV, cwd=cwd)
    _guarded(p.pid)
    time.sleep(delay)
    sent = time.monotonic()
    p.send_signal(signal.SIGTERM)
    p.wait()
    took = time.monotonic() - sent
    err = p.stderr.read().decode().strip().splitlines() if p.stderr else []
    return took, p.returncode, err[-1] if err else ""


def deadline_lateness(cmd: list[str], timeout: float, cwd: str) -> tuple[float, int, str]:
    """Run ``cmd`` (which has ``--timeout timeout``); (seconds past the timeout at its exit,
    counted from its start, exit status, how it ended)."""
    start = time.monotonic()
    r = subprocess.run(cmd, capture_output=True, env=ENV, cwd=cwd)
    late = time.monotonic() - start - timeout
    err = r.stderr.decode().strip().splitlines()
    how = err[-1] if err else r.stdout.decode().split("\n", 1)[0]
    return late, r.returncode, how[:100]


def _summary(values: list[float]) -> str:
    return f"median {statistics.median(values):.3f} s, max {max(values):.3f} s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="rounds of every measurement")
    parser.add_argument(
        "--only", choices=["signal", "deadline", "portfolio"], help="one measurement only"
    )
    parser.add_argument("--big-timeout", type=float, default=10.0, help="T for the 200x200 Masyu")
    parser.add_argument(
        "--src", help="the src folder of the dlxsat to measure (another checkout: before/after)"
    )
    a = parser.parse_args()
    if a.src:
        ENV["PYTHONPATH"] = a.src

    import boards

    tmp = tempfile.mkdtemp(prefix="dlxsat-limits-")
    Path(tmp, "empty16.txt").write_text(boards.sudoku(4))
    Path(tmp, "m200.txt").write_text(boards.masyu(200, 200))
    rng = random.Random(1)
    grid = [["."] * 40 for _ in range(40)]
    for _ in range(12):
        grid[rng.randrange(40)][rng.randrange(40)] = rng.choice("01")
    Path(tmp, "sparse40.txt").write_text("".join("".join(r) + "\n" for r in grid))
    py = [sys.executable, "-m", "dlxsat"]

    if a.only in (None, "signal"):
        print("SIGTERM mid-search (1.5 s in) of a count: signal -> exit")
        got: dict[str, list[float]] = {}
        for _ in range(a.rounds):
            sleeper = [sys.executable, "-c", "import time; print(flush=True); time.sleep(60)"]
            p = subprocess.Popen(sleeper, stdout=subprocess.PIPE)
            p.stdout.readline() if p.stdout else None
            sent = time.monotonic()
            p.send_signal(signal.SIGTERM)
            p.wait()
            got.setdefault("reference (a sleeping python)", []).append(time.monotonic() - sent)
            for what, puzzle in WORKLOADS.items():
                for b in BACKENDS:
                    cmd = py + ["solve", "sudoku", puzzle, "--count", *_args(b)]
                    took, code, line = signal_latency(cmd, 1.5, tmp)
                    got.setdefault(f"{what} {b}", []).append(took)
                    if code != 143:
                        print(f"  {what} {b}: exit status {code}: {line}")
        for name, values in got.items():
            print(f"  {name:40} {_summary(values)}")

    if a.only in (None, "deadline"):
        print("How long after the deadline the process ended (from its start)")
        got = {}
        for _ in range(a.rounds):
            for b in BACKENDS:
                t = a.big_timeout
                cmd = py + ["solve", "masyu", "m200.txt", "--timeout", str(t), *_args(b)]
                late, code, how = deadline_lateness(cmd, t, tmp)
                got.setdefault(f"200x200 --timeout {t:g} {b}", []).append(late)
                print(f"  200x200 {b}: {late:+.3f} s, exit {code}: {how}")
                cmd = py + ["solve", "masyu", "sparse40.txt", "--count", "--timeout", "4"]
                late, code, how = deadline_lateness(cmd + _args(b), 4.0, tmp)
                got.setdefault(f"sparse 40x40 --count --timeout 4 {b}", []).append(late)
                print(f"  sparse 40x40 {b}: {late:+.3f} s, exit {code}: {how}")
        for name, values in got.items():
            print(f"  {name:44} {_summary(values)}")

    if a.only in (None, "portfolio"):
        print("The portfolio's members from the CLI and from the API (start_seconds)")
        from dlxsat import pipeline

        puzzle = ROOT / "puzzles" / "masyu" / "tatham-10x10.txt"
        for _ in range(a.rounds):
            cmd = py + ["solve", "masyu", str(puzzle), "--backend", "portfolio", "--json"]
            stats = json.loads(subprocess.run(cmd, capture_output=True, env=ENV).stdout)["stats"]
            cli = {k: v.get("start_seconds") for k, v in stats["members"].items()}
            api = pipeline.solve("masyu", puzzle.read_text(), backend="portfolio").stats
            mine = {k: v.get("start_seconds") for k, v in api["members"].items()}
            print(f"  CLI {stats['start_method']} {cli}; API {api['start_method']} {mine}")


if __name__ == "__main__":
    main()
