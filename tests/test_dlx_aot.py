"""The compiled kernels ahead of time (``backends/dlx/aot.py``) and the JIT fallback: either way
Knuth's figures; the module is named by everything its code comes from, built once when
processes start at once, a damaged one is not used, and without it (no compiler, turned off,
failed build) numba's JIT takes over.

Building the whole module costs some 20-30 s of CPU. The processes of the concurrency test
build a narrowed one into a temporary cache directory shared by the tests of this file: the
same code (lock, temporary folder, checksum, rename, load) on a catalog of one kernel for one
integer type (:data:`NARROWED`, some 3 s, its C glue unoptimized). That the whole catalog
builds and loads is checked on the module the rest of the suite searches with
(``test_the_suites_module_is_whole``), and that its searches give Knuth's figures here
(``SCRIPT``) and in test_dlx.py.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import GOLDEN, ROOT

from dlxsat.backends.dlx import aot

#: Golden runs with their figures (Algorithms X, C with the loop rule, and M).
RUNS = [
    ("masyu/tatham-10x10-1.dlx", True, "dlx2_loop_single_loop"),
    ("sudoku/tatham-16x16-1.dlx", False, "dlx1"),
    ("superslitherlink/tatham-plain-5x5-2.dlx", False, "dlx3_disjoint_loops"),
]
#: The catalog of the narrowed module: the kernel of Knuth's estimate on int16 arrays, and the
#: run it estimates (the cheapest kernel to build: 4 s, against 6 s for Algorithm M's search
#: and 7 s for X/C's, so the narrowed module only estimates).
NARROWED = ("probe", "int16")
NARROWED_RUNS = RUNS[:1]

#: In a fresh process: solves the golden runs of ``argv[1]`` compiled, on the arrays of each
#: integer type of ``argv[2]`` (null: the one the backend picks, int16 for these), then Knuth's
#: estimate on the runs of ``argv[3]`` compiled and interpreted. Prints the figures, whether
#: the ahead-of-time module ran them, and whether numba was imported.
SCRIPT = """
import json, sys
import numpy as np
import dlxsat.backends.dlx as b
import dlxsat.backends.dlx.arrays as arrays
from conftest import golden_problem
from dlxsat.solvers import solve_problem
b.INTERPRETED_SECONDS = 0
runs, dtypes, estimated = map(json.loads, sys.argv[1:4])
out = []
for dtype in dtypes:
    if dtype is not None:
        arrays.kernel_dtype = lambda a, t=getattr(np, dtype): t
    for dlx, loop in runs:
        r = solve_problem(golden_problem(dlx), "dlx", loop=loop, keep=0)
        s = r.stats
        out.append([r.count, s["nodes"], s["updates"], s["kernel"], s["arrays"]])
from dlxsat.backends.dlx import compiled, estimate
for dlx, loop in estimated:  # Knuth's estimate, compiled = interpreted
    p = golden_problem(dlx)
    if loop:
        from dlxsat.xcc.rules import SingleLoop
        p = p.with_rules(SingleLoop.from_names(p, allow_empty=True))
    e = [estimate.estimate(p, probes=16, seed=7, compiled=c) for c in (True, False)]
    out.append([(x.nodes, x.updates, x.solutions, x.depth) for x in e])
print(json.dumps([out, compiled.ahead_of_time(), "numba" in sys.modules]))
"""

#: What SCRIPT does: (runs solved, integer types, runs estimated). WHOLE checks every kernel
#: in both integer types; LIGHT, for the tests that only show which tier ran, one search
#: (a fresh process loading numba's JIT kernels costs 0.5 s of CPU more for WHOLE);
#: NARROWED_CHECK, the narrowed module's one kernel.
WHOLE = (RUNS, [None, "int32"], RUNS[:2])
LIGHT = (RUNS[:1], [None], [])
NARROWED_CHECK = ([], [], NARROWED_RUNS)


#: Put on the path of a process (and of the build it starts), narrows the catalog to
#: NARROWED when ``dlxsat.backends.dlx.catalog`` is imported (nothing else is imported early).
NARROWING = f"""
import importlib.abc, importlib.machinery, sys


class Narrowed(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name != "dlxsat.backends.dlx.catalog":
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        run = spec.loader.exec_module

        def exec_module(module):
            run(module)
            module.SIGNATURES = {{{NARROWED[0]!r}: module.SIGNATURES[{NARROWED[0]!r}]}}
            module.DTYPES = ({NARROWED[1]!r},)

        spec.loader.exec_module = exec_module
        return spec


sys.meta_path.insert(0, Narrowed())
"""


def expected(runs: list, dtypes: list) -> list[list]:
    cases = {c.get("dlx"): c for c in json.loads((GOLDEN / "manifest.json").read_text())}
    figures = [cases[dlx][key] for dlx, _, key in runs]
    return [
        [f["count"], f["nodes"], f["updates"], "compiled", dtype or "int16"]
        for dtype in dtypes
        for f in figures
    ]


def check(result: list, what: tuple = WHOLE) -> tuple[bool, bool]:
    """The figures of SCRIPT's solves are Knuth's and its estimates the same in both tiers;
    returns (ahead of time, numba imported)."""
    figures, ahead, numba = result
    runs, dtypes, estimated = what
    want = expected(runs, dtypes)
    assert figures[: len(want)] == want
    estimates = figures[len(want) :]
    assert len(estimates) == len(estimated)
    assert all(e[0] == e[1] and e[0][0] > 1 for e in estimates)
    return ahead, numba


def environment(cache: Path, narrowing: Path | None = None, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DLXSAT_AOT", "CC")}
    paths = (str(narrowing) if narrowing else None, str(ROOT / "tests"), env.get("PYTHONPATH"))
    env["PYTHONPATH"] = os.pathsep.join(p for p in paths if p)
    return {**env, "XDG_CACHE_HOME": str(cache), **extra}


def start(cache: Path, narrowing: Path | None = None, what: tuple = WHOLE, **extra: str):
    """SCRIPT in a fresh process doing ``what``; with ``narrowing`` (the folder of NARROWING's
    ``sitecustomize``) the narrowed module's check."""
    if narrowing:
        what = NARROWED_CHECK
        # numba.pycc compiles its C glue (argument parsing, module set-up: the kernel itself
        # is numba's) with the interpreter's flags, -O3: 1.2 s of the narrowed build's 4.5 s.
        # Unoptimized, the same build takes 3 s; the lock, rename and checksum are the same.
        extra = {"CFLAGS": "-O0", **extra}
    args = [json.dumps([[dlx, loop] for dlx, loop, _ in runs]) for runs in (what[0], what[2])]
    return subprocess.Popen(
        [sys.executable, "-c", SCRIPT, args[0], json.dumps(what[1]), args[1]],
        env=environment(cache, narrowing, **extra),
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def finish(process: subprocess.Popen) -> list:
    out, err = process.communicate()
    assert process.returncode == 0, err
    return json.loads(out)


def solve_in_process(cache: Path, what: tuple = WHOLE, **extra: str) -> list:
    return finish(start(cache, what=what, **extra))


def files(cache: Path) -> list[str]:
    folder = cache / "dlxsat"
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


@pytest.fixture(scope="module")
def narrowing(tmp_path_factory) -> Path:
    """A folder whose ``sitecustomize`` narrows the catalog (NARROWING)."""
    folder = tmp_path_factory.mktemp("narrowing")
    (folder / "sitecustomize.py").write_text(NARROWING)
    return folder


@pytest.fixture(scope="module")
def built(tmp_path_factory, narrowing) -> Path:
    """A cache directory whose (narrowed) module two processes built at once, both solving
    with it."""
    if aot.buildable() is not None:
        pytest.fail(f"the module cannot be built here: {aot.buildable()} (CI needs gcc)")
    cache = tmp_path_factory.mktemp("cache")
    first, second = start(cache, narrowing), start(cache, narrowing)
    for process in (first, second):
        ahead, numba = check(finish(process), NARROWED_CHECK)
        assert ahead and not numba  # the module's kernels, numba never imported
    return cache


def test_two_first_uses_at_once_build_one_whole_module(built):
    names = files(built)
    modules = [n for n in names if n.endswith(tuple(aot.importlib.machinery.EXTENSION_SUFFIXES))]
    assert len(modules) == 1 and modules[0].startswith(aot.PREFIX)
    stem = modules[0].split(".")[0]
    assert f"{stem}.sum" in names and aot.intact(built / "dlxsat" / modules[0])
    # No temporary build folder left, no failure noted.
    assert not [n for n in names if n.startswith("build-") or n.endswith(".failed")]


def test_the_suites_module_is_whole():
    """The module of the whole catalog, every kernel for every integer type, builds and loads:
    the one in the user's cache directory that the rest of the suite searches with (built by
    the first compiled search of a run that finds it missing, or here)."""
    path = aot.build()  # (where it is there and loads, only that)
    module = aot.load(path)
    assert module is not None and aot._complete(module)


def test_a_built_module_is_loaded_not_built_again(built, narrowing):
    module = next(p for p in (built / "dlxsat").iterdir() if p.name.endswith(".so"))
    before = module.stat().st_mtime_ns
    ahead, numba = check(finish(start(built, narrowing)), NARROWED_CHECK)
    assert ahead and not numba
    assert module.stat().st_mtime_ns == before


def test_a_damaged_module_is_not_used(built, tmp_path):
    """A module file that is not the one its build wrote is deleted before it is loaded (a
    truncated one would crash the process: SIGBUS), and built again where a compiler is; here
    none, so numba's JIT runs the search, with the same figures."""
    cache = tmp_path / "cache"
    (cache / "dlxsat").mkdir(parents=True)
    module = next(p for p in (built / "dlxsat").iterdir() if p.name.endswith(".so"))
    digest = module.with_name(module.name.split(".")[0] + ".sum")
    (cache / "dlxsat" / digest.name).write_bytes(digest.read_bytes())
    damaged = cache / "dlxsat" / module.name
    damaged.write_bytes(module.read_bytes()[:4096])
    assert not aot.intact(damaged) and aot.intact(module)
    ahead, numba = check(solve_in_process(cache, LIGHT, CC="/nonexistent/cc"), LIGHT)
    assert not ahead and numba
    assert not damaged.exists()


def test_without_a_compiler_numba_jit_runs_the_kernels(tmp_path):
    ahead, numba = check(solve_in_process(tmp_path, LIGHT, CC="/nonexistent/cc"), LIGHT)
    assert not ahead and numba
    assert files(tmp_path) == []  # nothing tried, nothing written


def test_turned_off_numba_jit_runs_the_kernels(tmp_path):
    ahead, numba = check(solve_in_process(tmp_path, DLXSAT_AOT="0"))
    assert not ahead and numba
    assert files(tmp_path) == []


def test_a_failed_build_is_noted_and_not_tried_again(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("DLXSAT_AOT", raising=False)
    monkeypatch.setattr(aot, "buildable", lambda: None)

    def broken(path: Path) -> None:
        raise RuntimeError("the linker said no")

    monkeypatch.setattr(aot, "_compile", broken)
    with pytest.raises(aot.BuildError, match="the linker said no"):
        aot.build()
    note = aot._failed(aot.module_path())
    assert "RuntimeError: the linker said no" in note.read_text()

    def never(directory: Path) -> None:
        raise AssertionError("built again after a failure")

    monkeypatch.setattr(aot, "_build_in_child", never)
    assert aot.module() is None


def test_the_name_follows_the_sources(monkeypatch, tmp_path):
    """Any change of the code the module is made from gives it another name, so a stale module
    is never looked for."""
    for name in aot.SOURCES:
        (tmp_path / name).write_bytes((aot.HERE / name).read_bytes())
    monkeypatch.setattr(aot, "HERE", tmp_path)
    monkeypatch.setattr(aot, "_key", None)
    same = aot.key()
    assert same == aot.key() and len(same) == 16
    kernel = tmp_path / "kernel.py"
    kernel.write_text(kernel.read_text() + "\n# a change\n")
    monkeypatch.setattr(aot, "_key", None)
    assert aot.key() != same


def test_the_cache_directory(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    path = aot.module_path()
    assert path.parent == tmp_path / "dlxsat" and path.name.startswith(aot.PREFIX + aot.key())
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert aot.cache_dir() == Path.home() / ".cache" / "dlxsat"


def test_the_build_command_says_why_it_cannot_build(monkeypatch, tmp_path, capsys):
    from dlxsat.backends.dlx import compiled

    monkeypatch.setenv("CC", "/nonexistent/cc")
    assert compiled.main(["--build", "--directory", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("dlxsat: cannot build the compiled kernels: no C compiler")
    assert list(tmp_path.iterdir()) == []


def test_folders_of_killed_builds_are_removed_later(tmp_path):
    """A build killed midway (a time limit, Ctrl-C) leaves its temporary folder; the next
    build removes those older than an hour, not one that may be another build's."""
    old, recent = tmp_path / "build-old", tmp_path / "build-recent"
    for folder in (old, recent):
        folder.mkdir()
        (folder / "part.o").write_bytes(b"\0")
    hours_ago = old.stat().st_mtime - 2 * aot.ABANDONED
    os.utime(old, (hours_ago, hours_ago))
    aot._remove_abandoned_builds(tmp_path)
    assert not old.exists() and recent.exists()


def test_a_kernel_lets_other_threads_run_while_it_searches(monkeypatch):
    """The kernels release the GIL (the module is built with ``release_gil``; numba's JIT
    kernels are ``nogil``): while one kernel call counts the 365,596 placements of 14 queens
    (about a second, the search in one long call), the main thread wakes from a 50 ms sleep
    and runs. A kernel that held the GIL would keep the main thread asleep until
    its call returned."""
    import threading
    import time

    from dlxsat.backends import dlx
    from dlxsat.backends.dlx import kernel as k
    from dlxsat.instances import get
    from dlxsat.solvers import Request
    from dlxsat.xcc import parse

    problem = parse(get("queens").generate(14))
    dlx.load()
    calls: list[tuple[float, float]] = []
    compiled = dlx._compiled_kernel

    def one_call_kernel(name: str, dtype: object) -> tuple[object, float]:
        inner, seconds = compiled(name, dtype)

        def call(*args: object) -> object:
            args[6][k.P_BUDGET] = 1 << 40  # type: ignore[index]  # (params: no slices)
            start = time.perf_counter()
            status = inner(*args)
            calls.append((start, time.perf_counter()))
            return status

        return call, seconds

    monkeypatch.setattr(dlx, "_compiled_kernel", one_call_kernel)
    monkeypatch.setattr(dlx, "interpreted_seconds", lambda *_: 0.0)  # compiled at once
    results: list[object] = []
    thread = threading.Thread(
        target=lambda: results.append(dlx.solve(problem, Request.for_mode("count"), {})),
        daemon=True,
    )
    started = time.perf_counter()
    thread.start()
    time.sleep(0.05)
    woke = time.perf_counter()
    thread.join(120)
    start, end = max(calls, key=lambda call: call[1] - call[0])  # (the rest: a few nodes)
    assert results[0].count == 365596 and results[0].stats["kernel"] == "compiled"  # type: ignore[attr-defined]
    assert end - start > 0.2  # (the call long enough to tell)
    assert started <= start and woke < end - 0.1, (start - started, woke - started, end - started)
