"""Cold start: the wall time of one ``dlxsat solve`` process, as a ratio to ``python -c pass``.

Each command runs as a fresh process, interleaved with the reference ``python -c pass`` of the
same interpreter, round after round; the medians are printed, in milliseconds and as ratios to
the reference's median. The commands solve the 10 x 10 Masyu of ``puzzles/masyu`` with the
default backend (sat), ``--backend dlx`` and ``--backend cpsat``, both as ``python -m dlxsat``
and through the ``dlxsat`` console script (when one sits next to the interpreter).

Before timing, every command runs once untimed with bytecode writing allowed, so that the
``.pyc`` files and numba's kernel cache exist, as they do after ``pip install`` and a first run:
what is measured is a cold *process*, not a cold disk. ``PYTHONPATH`` points at this checkout.

The default backend is ``auto`` (a short DLX trial, interpreted in a fresh process, then SAT
for a loop puzzle); a 9 x 9 Sudoku is timed too. ``--backend cpsat`` imports OR-tools without
pandas (``dlxsat.backends.ortools_loader``).

``--xcc`` also times ``dlxsat solve xcc`` on generated exact-cover problems (pentomino
packings of 6 x 10 and 3 x 20, 12 queens, Langford pairs of 11: is the answer unique?) with
``auto``, ``dlx`` and ``sat``: in a fresh process ``auto``'s trial runs interpreted, and on
such problems (few items, many entries) a trial the interpreter cannot finish runs again
compiled (``backends/auto.py``, ``second_trial``).

``--kernels`` also times, in fresh processes, loading the compiled DLX kernels
(``dlxsat.backends.dlx.load()``, in ms and as a ratio to ``python -c pass``; importing numpy and
the backend before it is timed apart) from the ahead-of-time module in the user's cache
(``backends/dlx/aot.py``) and, interleaved, from numba's JIT cache (``DLXSAT_AOT=0``), medians
of ``--rounds`` runs; ``--cold`` adds one run of each from empty caches (the module built: tens
of seconds; the kernels JIT-compiled).

``--tiers`` times, in fresh processes, one DLX search (``--backend dlx``) per puzzle of
:data:`TIER_PUZZLES` (small to large), in the CPU seconds of the whole process (user and
system), under three policies, interleaved: the kernels interpreted throughout, compiled from
the first node (numpy and the ahead-of-time module imported first), and the default
(``dlx.interpreted_seconds`` and ``dlx.COMPILED_FROM_ENTRIES``): what numpy's import costs
against the interpreted search it would replace, problem by problem.

Bytecode caching is on for every run (``PYTHONDONTWRITEBYTECODE`` is removed from the
environment: development machines may set it, users do not).

Usage: ``python benchmarks/startup.py [--rounds N] [--importtime] [--xcc] [--kernels [--cold]]
[--tiers] [--only NAME]``;
``--importtime`` also prints the ten slowest imports (cumulative, ``python -X importtime``) of
each command. Takes about half a minute with the default 9 rounds.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PUZZLE = "puzzles/masyu/tatham-10x10.txt"
SUDOKU = "puzzles/sudoku/tatham-9x9-1.txt"


def commands() -> dict[str, list[str]]:
    py = sys.executable
    solve = ["solve", "masyu", PUZZLE]
    out = {
        "python -c pass": [py, "-c", "pass"],
        "python -m dlxsat solve (auto)": [py, "-m", "dlxsat", *solve],
        "python -m dlxsat solve sudoku (auto)": [py, "-m", "dlxsat", "solve", "sudoku", SUDOKU],
        "python -m dlxsat solve --backend sat": [py, "-m", "dlxsat", *solve, "--backend", "sat"],
        "python -m dlxsat solve --backend dlx": [py, "-m", "dlxsat", *solve, "--backend", "dlx"],
        "python -m dlxsat solve --backend cpsat": [
            py,
            "-m",
            "dlxsat",
            *solve,
            "--backend",
            "cpsat",
        ],
    }
    script = Path(py).parent / "dlxsat"
    if script.exists():
        out["dlxsat solve (auto), console script"] = [str(script), *solve]
        out["dlxsat solve --backend dlx, console script"] = [
            str(script),
            *solve,
            "--backend",
            "dlx",
        ]
    return out


#: ``--xcc``: generated problems (``dlxsat.instances``), by name and generator arguments.
XCC_PROBLEMS = {
    "pentominoes 6x10": ("pentominoes", ["6", "10"]),
    "pentominoes 3x20": ("pentominoes", ["3", "20"]),
    "queens 12": ("queens", ["12"]),
    "langford 11": ("langford", ["11"]),
}


def xcc_commands(folder: Path) -> dict[str, list[str]]:
    """``dlxsat solve xcc`` with auto, dlx and sat on each of XCC_PROBLEMS (written to
    ``folder``)."""
    sys.path.insert(0, str(ROOT / "src"))
    from dlxsat.instances import generate

    out = {}
    for name, (family, args) in XCC_PROBLEMS.items():
        path = folder / f"{family}-{'x'.join(args)}.dlx"
        path.write_text(generate(family, args))
        for backend in ("auto", "dlx", "sat"):
            cmd = [sys.executable, "-m", "dlxsat", "solve", "xcc", str(path)]
            out[f"xcc {name} --backend {backend}"] = [*cmd, "--backend", backend]
    return out


def environment() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # an installed package has its .pyc files
    env["PYTHONPATH"] = str(ROOT / "src") + os.pathsep + env.get("PYTHONPATH", "")
    return env


def run(cmd: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed: {done.stderr.decode().strip()}")
    return elapsed


def slowest_imports(cmd: list[str], env: dict[str, str], top: int = 10) -> list[str]:
    if Path(cmd[0]).name == "dlxsat":  # a console script: run its interpreter explicitly
        cmd = [sys.executable, cmd[0], *cmd[1:]]
    done = subprocess.run(
        [cmd[0], "-X", "importtime", *cmd[1:]], cwd=ROOT, env=env, capture_output=True, text=True
    )
    rows = []
    for line in done.stderr.splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[1].strip().isdigit():
            rows.append((int(parts[1]), parts[2].rstrip()))
    rows.sort(reverse=True)
    return [f"{us / 1000:8.1f} ms {name}" for us, name in rows[:top]]


KERNEL_LOAD = """
import time
t0 = time.perf_counter()
import numpy
t1 = time.perf_counter()
from dlxsat.backends import dlx
from dlxsat.backends.dlx import compiled
t2 = time.perf_counter()
dlx.load()
t3 = time.perf_counter()
print(t1 - t0, t2 - t1, t3 - t2, compiled.ahead_of_time())
"""


def _load(env: dict[str, str]) -> tuple[float, float, float, bool]:
    out = subprocess.run(
        [sys.executable, "-c", KERNEL_LOAD], env=env, capture_output=True, text=True, check=True
    )
    numpy, backend, load, ahead = out.stdout.split()
    return float(numpy), float(backend), float(load), ahead == "True"


def kernel_load(env: dict[str, str], rounds: int, cold: bool, ref: float) -> None:
    """Median seconds of ``dlx.load()`` in fresh processes (numpy and the backend imported
    first, timed apart), from the ahead-of-time module and from numba's JIT cache, interleaved;
    with ``cold``, once each from empty caches (the module built; the kernels JIT-compiled)."""
    import tempfile

    jit_env = {**env, "DLXSAT_AOT": "0"}
    _load(env), _load(jit_env)  # the module built, numba's cache filled
    runs: dict[str, list[tuple[float, float, float, bool]]] = {"aot": [], "jit": []}
    for _ in range(rounds):
        runs["aot"].append(_load(env))
        runs["jit"].append(_load(jit_env))
    if not all(r[3] for r in runs["aot"]):
        print("\n(the ahead-of-time module could not be built here: both rows are numba's JIT)")
    print("\ndlx.load() in a fresh process (every kernel, both integer sizes), medians, ms;")
    print("ratio: dlx.load() to `python -c pass`; before it: import numpy, import the backend")
    for name, label in (("aot", "ahead-of-time module"), ("jit", "numba JIT, warm cache")):
        numpy, backend, load = (statistics.median(r[i] for r in runs[name]) for i in range(3))
        print(
            f"  {label:24} load {load * 1000:8.1f} ({load / ref:5.2f}x)"
            f"   numpy {numpy * 1000:6.1f}   backend {backend * 1000:6.1f}"
        )
    if cold:
        with tempfile.TemporaryDirectory() as cache:
            built = _load({**env, "XDG_CACHE_HOME": cache})[2]
        with tempfile.TemporaryDirectory() as cache:
            compiled = _load({**jit_env, "NUMBA_CACHE_DIR": cache})[2]
        print(f"  empty caches: module built {built:.1f} s, JIT-compiled {compiled:.1f} s")


#: ``--tiers``: (family, puzzle), small to large.
TIER_PUZZLES = [
    ("sudoku", "puzzles/sudoku/tatham-9x9-1.txt"),
    ("sudoku", "puzzles/sudoku-hard/tatham-9x9-advanced-01.txt"),
    ("sudoku", "puzzles/sudoku/tatham-16x16-1.txt"),
    ("sudoku", "puzzles/sudoku-25/tatham-25x25-basic-01.txt"),
    ("masyu", "puzzles/masyu/tatham-10x10.txt"),
    ("masyu", "puzzles/masyu/tatham-18x10.txt"),
    ("masyu", "puzzles/masyu/tatham-20x14.txt"),
    ("masyu", "puzzles/masyu-bench/bench-24x14-01.txt"),
    ("slitherlink", "puzzles/slitherlink/tatham-10x10-1.txt"),
    ("slitherlink", "puzzles/slitherlink/tatham-20x15.txt"),
]

#: The child of ``--tiers``: one DLX search under a policy, then its figures.
TIER_CHILD = """
import json, sys
from dlxsat.backends import dlx
policy, family, path = sys.argv[1:4]
if policy == "interpreted":
    dlx.INTERPRETED_SECONDS = float("inf")
elif policy == "compiled":
    dlx.INTERPRETED_SECONDS = 0.0
import dlxsat
report = dlxsat.solve(family, open(path).read(), backend="dlx", timeout=float(sys.argv[4]))
s = report.stats
print(json.dumps({"nodes": s.get("nodes"), "kernel": s.get("kernel"), "status": report.status,
                  "numpy": "numpy" in sys.modules}))
"""

TIER_POLICIES = ("interpreted", "compiled", "default")
#: A search's time limit in ``--tiers`` (an interpreted 24 x 14 Masyu runs for minutes): a
#: run that reaches it is marked ``>``.
TIER_TIMEOUT = 3.0


def _tier_run(policy: str, family: str, path: str, env: dict[str, str]) -> tuple[float, dict]:
    import json
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(
        [sys.executable, "-c", TIER_CHILD, policy, family, path, str(TIER_TIMEOUT)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{path} ({policy}) failed: {done.stderr.strip()[-500:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, json.loads(done.stdout.strip().splitlines()[-1])


def tiers(env: dict[str, str], rounds: int) -> None:
    """``--tiers``: each puzzle of :data:`TIER_PUZZLES` under each of :data:`TIER_POLICIES`,
    fresh processes, interleaved; medians of the processes' CPU, ms."""
    sys.path.insert(0, str(ROOT / "src"))
    from dlxsat.pipeline import prepare

    for family, path in TIER_PUZZLES:  # warm: .pyc files, the module built
        for policy in TIER_POLICIES:
            _tier_run(policy, family, path, env)
    cpu: dict[tuple[str, str], list[float]] = {}
    info: dict[tuple[str, str], dict] = {}
    for r in range(rounds):
        for i, (family, path) in enumerate(TIER_PUZZLES):
            k = (i + r) % len(TIER_POLICIES)
            for policy in TIER_POLICIES[k:] + TIER_POLICIES[:k]:
                seconds, out = _tier_run(policy, family, path, env)
                cpu.setdefault((path, policy), []).append(seconds)
                info[path, policy] = out
    print(f"\nOne DLX search per fresh process, CPU ms (median of {rounds}), by policy")
    heads = " ".join(f"{p:>11}" for p in TIER_POLICIES)
    print(f"{'puzzle':44} {'entries':>7} {'nodes':>7} {heads}")
    for family, path in TIER_PUZZLES:
        problem = prepare(family, (ROOT / path).read_text()).problem
        entries = sum(len(option) for option in problem.options)
        cells = [
            ("> " if info[path, p]["status"] == "timeout" else "")
            + f"{statistics.median(cpu[path, p]) * 1000:.1f}"
            for p in TIER_POLICIES
        ]
        default = info[path, "default"]
        numpy = "imported" if default["numpy"] else "not imported"
        print(
            f"{path:44} {entries:7d} {info[path, 'compiled']['nodes']:7d} "
            + " ".join(f"{c:>11}" for c in cells)
            + f"  (default: {default['kernel']}, numpy {numpy})"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--importtime", action="store_true")
    ap.add_argument("--kernels", action="store_true")
    ap.add_argument("--xcc", action="store_true", help="exact-cover problems, auto and engines")
    ap.add_argument("--cold", action="store_true", help="with --kernels: from empty caches too")
    ap.add_argument("--tiers", action="store_true", help="DLX interpreted or compiled, by size")
    ap.add_argument("--only", default="", help="only the commands whose name contains this")
    args = ap.parse_args()
    env = environment()
    if args.tiers:
        tiers(env, args.rounds)
        return
    cmds = {k: v for k, v in commands().items() if args.only in k or k == "python -c pass"}
    import tempfile

    folder = tempfile.TemporaryDirectory()
    if args.xcc:
        more = xcc_commands(Path(folder.name))
        cmds.update({k: v for k, v in more.items() if args.only in k})
    for cmd in cmds.values():
        run(cmd, env)  # warm: .pyc files, numba's cache
    times: dict[str, list[float]] = {name: [] for name in cmds}
    for _ in range(args.rounds):
        for name, cmd in cmds.items():
            times[name].append(run(cmd, env))
    ref = statistics.median(times["python -c pass"])
    print(f"interpreter: {sys.executable} (Python {sys.version.split()[0]})")
    print(f"cores: {os.cpu_count()}, rounds: {args.rounds}, interleaved; medians")
    print(f"{'command':45} {'ms':>8} {'ratio':>7}")
    for name, ts in times.items():
        med = statistics.median(ts)
        print(f"{name:45} {med * 1000:8.1f} {med / ref:6.1f}x")
    if args.kernels:
        kernel_load(env, args.rounds, args.cold, ref)
    if args.importtime:
        for name, cmd in cmds.items():
            print(f"\n{name}: slowest imports (cumulative)")
            print("\n".join(slowest_imports(cmd, env)))


if __name__ == "__main__":
    main()
