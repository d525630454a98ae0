"""``dlxsat compare`` (settings grid, jobs killed at their limits, the store and resume, the
cross-check, Dask) and ``dlxsat export dimacs`` of a corpus with an external SAT solver."""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import as_foreground

from dlxsat import solvers
from dlxsat.backends import cnf
from dlxsat.cli import main
from dlxsat.compare import compare, plan, store
from dlxsat.compare.settings import for_family, grid, parse_spec, preset
from dlxsat.compare.worker import HAND_BACK_MB
from dlxsat.errors import InputError
from dlxsat.options import by_key

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
SLITHER = [str(ROOT / f"puzzles/slitherlink/tatham-5x5-{k}.txt") for k in (1, 2, 3)]
SUDOKU = [
    str(ROOT / "puzzles/sudoku/tatham-4x4-1.txt"),
    str(ROOT / "puzzles/sudoku/tatham-6x6-1.txt"),
]


@pytest.fixture
def slow(monkeypatch):
    """The test-only solver ``slow`` in the registry (inherited by the forked workers)."""
    monkeypatch.setitem(solvers.SOLVERS, "slow", "compare_test_solver")


def lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text().splitlines()]


# ----------------------------------------------------------------------------- settings


def test_grid_is_the_cross_product_in_canonical_text():
    texts = [s.text for s in parse_spec("sat:loop=lazy,eager;encoding=totalizer,seqcounter")]
    assert texts == [
        "sat:encoding=totalizer",
        "sat:encoding=seqcounter",
        "sat:encoding=totalizer;loop=eager",
        "sat:encoding=seqcounter;loop=eager",
    ]
    s = parse_spec("cpsat:workers=2")[0]
    assert s.options == {"workers": 2} and s.keywords() == {"workers": 2}
    assert parse_spec("sat:loop=eager")[0].keywords() == {"loop_mode": "eager"}


@pytest.mark.parametrize(
    "spec, message",
    [
        ("sat:encoding=zigzag", "unknown encoding 'zigzag'"),
        ("sat:flavour=mint", "does not take 'flavour'"),
        ("dlx:loop=lazy", "it takes ties"),
        ("cpsat:workers=two", "workers takes a whole number"),
        ("sat:loop", "expected key=value"),
        ("sat:loop=lazy;loop=eager", "loop given twice"),
        ("minisat", "unknown backend 'minisat'"),
    ],
)
def test_bad_settings(spec, message):
    with pytest.raises(InputError, match=message):
        parse_spec(spec)


def test_presets_come_from_the_registry(monkeypatch):
    encoding = by_key(cnf.OPTIONS)["encoding"]
    assert [s.options["encoding"] for s in preset("encodings")] == list(encoding.choices)
    loops = {(s.backend, s.options["loop"]) for s in preset("loops")}
    assert loops == {(b, c) for b, o in solvers.takers("loop") for c in o.choices}
    assert [s.backend for s in preset("backends")] == solvers.search_solvers()
    # a choice added to the declaration is at once part of the preset and of the grammar
    wider = tuple(
        o if o.key != "encoding" else type(o)(**{**o.__dict__, "choices": (*o.choices, "new")})
        for o in cnf.OPTIONS
    )
    monkeypatch.setattr(cnf, "SPEC", dataclasses.replace(cnf.SPEC, options=wider))
    assert preset("encodings")[-1].text == "sat:encoding=new"
    assert parse_spec("sat:encoding=new")[0].options == {"encoding": "new"}


def test_a_preset_setting_the_solver_refuses_is_skipped_with_its_words():
    kept, notes = for_family(grid([], ["encodings"]), "sudoku")
    assert "sat:encoding=native" not in [s.text for s in kept]
    assert len(kept) == len(preset("encodings")) - 1
    assert any(n.startswith("skipping sat:encoding=native: encoding 'native' needs") for n in notes)
    kept, _ = for_family(grid(["sat:encoding=native;solver=minicard"], ["encodings"]), "sudoku")
    assert "sat:encoding=native;solver=minicard" in [s.text for s in kept]


def test_loop_settings_are_skipped_on_sudoku_with_a_note():
    kept, notes = for_family(grid(["sat:loop=lazy,eager", "dlx"], ["loops"]), "sudoku")
    assert [s.text for s in kept] == ["dlx"]
    assert any("skipping sat:loop=eager: sudoku has no loop" in n for n in notes)
    kept, _ = for_family(grid(["sat", "sat:loop=lazy"]), "masyu")
    assert [s.text for s in kept] == ["sat"]  # one job, spelled twice
    with pytest.raises(InputError, match="no setting applies to sudoku"):
        plan("sudoku", SUDOKU, ["cpsat:loop=lazy"])


#: Four cells in a row, each shaded or not, the shaded ones in pairs (the sized rule): the
#: empty row, or a pair at the left, in the middle or at the right.
PAIRS = (
    "|@sized pair\n|@members 11:1 13:1 15:1 17:1\n|@links grid\n|@size 2\n"
    "p11 p13 p15 p17 | 11 13 15 17\n"
    "p11 11:1\np11 11:0\np13 13:1\np13 13:0\np15 15:1\np15 15:0\np17 17:1\np17 17:0\n"
)


def test_the_sized_rules_modes_are_compared_as_the_other_rules_are(tmp_path):
    """``sat:sized=lazy,eager`` and ``cpsat:sized=lazy,eager`` run as jobs of their own, each
    recording its mode, and agree with dlx; the modes are part of the ``rules`` preset and are
    skipped, with a note, for puzzles without a sized rule."""
    puzzle, out = tmp_path / "pairs.dlx", tmp_path / "r.jsonl"
    puzzle.write_text(PAIRS)
    settings = ["sat:sized=lazy,eager", "cpsat:sized=lazy,eager", "dlx"]
    result = compare("xcc", [str(puzzle)], settings, output=str(out), mode="count", quiet=True)
    assert not result.disagreements
    records = lines(out)
    assert {r["status"] for r in records} == {"counted"} and {r["count"] for r in records} == {4}
    modes = {(r["backend"], r["stats"].get("sized_mode")) for r in records}
    assert modes == {
        ("sat", "lazy"),
        ("sat", "eager"),
        ("cpsat", "lazy"),
        ("cpsat", "eager"),
        ("dlx", None),
    }
    assert {(b, "sized", m) for b in ("sat", "cpsat") for m in ("lazy", "eager")} <= {
        (s.backend, k, v) for s in preset("rules") for k, v in s.options.items()
    }
    kept, notes = for_family(parse_spec("sat:sized=eager"), "xcc", ["connected"])
    assert kept == [] and notes == [
        "skipping sat:sized=eager: xcc has no sized rule, so sized=eager means nothing"
    ]


# ----------------------------------------------------------------------------- jobs


def test_a_job_past_its_limit_is_killed_and_recorded_as_timeout(slow, tmp_path):
    out = tmp_path / "r.jsonl"
    t0 = time.monotonic()
    result = compare(
        "sudoku", SUDOKU[:1], ["slow:sleep=60", "sat"], output=str(out), timeout=0.3, quiet=True
    )
    assert time.monotonic() - t0 < 40  # (the job sleeps 60 s unless killed; loaded box: margin)
    assert result.timed_out
    by_setting = {r["setting"]: r for r in lines(out)}
    assert by_setting["slow:sleep=60"]["status"] == "timeout"
    assert by_setting["slow:sleep=60"]["size"] == [4, 4]  # known without the worker
    assert by_setting["slow:sleep=60"]["limits"] == {"timeout": 0.3, "memory_mb": None}
    assert by_setting["sat"]["status"] == "unique" and result.statuses["timeout"] == 1
    # a larger limit runs the timed-out job again, not the finished one
    again = compare("sudoku", SUDOKU[:1], ["sat"], output=str(out), timeout=5, quiet=True)
    assert again.ran == 0 and again.skipped == 1


def test_memory_limit_gives_memout(slow, tmp_path):
    out = tmp_path / "r.jsonl"
    vm = int(Path("/proc/self/status").read_text().split("VmData:")[1].split()[0]) // 1024
    limit = vm + 300  # the worker starts as a copy of this process
    compare(
        "sudoku",
        SUDOKU[:1],
        ["slow:hog=100", "slow:hog=1000"],
        output=str(out),
        memory_mb=limit,
        quiet=True,
    )
    by_setting = {r["setting"]: r for r in lines(out)}
    assert by_setting["slow:hog=100"]["status"] == "unique"
    assert by_setting["slow:hog=1000"]["status"] == "memout"
    assert by_setting["slow:hog=1000"]["limits"]["memory_mb"] == limit


def test_record_has_every_store_field(tmp_path):
    out = tmp_path / "r.jsonl"
    compare("slitherlink", SLITHER[:1], ["dlx", "sat:loop=eager"], output=str(out), quiet=True)
    fields = (
        "job puzzle puzzle_sha256 family size setting backend options mode status count "
        "answer_sha256 error wall_seconds stats peak_rss_mb start_rss_mb worker_job limits "
        "dlxsat_version solver_version machine python finished"
    ).split()
    a, b = lines(out)
    for r in (a, b):
        assert all(f in r for f in fields), set(fields) - set(r)
        assert r["size"] == [5, 5] and r["status"] == "unique" and r["count"] == 1
        assert r["peak_rss_mb"] > 0 and r["wall_seconds"] > 0 and r["finished"].endswith("+00:00")
        assert r["job"] == store.job_id(r["family"], r["puzzle_sha256"], r["setting"], "unique")
    assert a["answer_sha256"] == b["answer_sha256"] and len(a["answer_sha256"]) == 64
    assert {a["setting"], b["setting"]} == {"dlx", "sat:loop=eager"}
    assert any(r["options"] == {"loop": "eager"} and "clauses" in r["stats"] for r in (a, b))


def _live_children() -> list[int]:
    """The processes this one forked that are still alive (zombies count: not reaped), leaving
    out multiprocessing's fork server and resource tracker (started by a portfolio race in this
    process, kept until it exits: not workers)."""
    me, found = os.getpid(), []
    for p in os.listdir("/proc"):
        if p.isdigit():
            try:
                fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
                cmdline = Path(f"/proc/{p}/cmdline").read_bytes()
            except OSError:
                continue
            if int(fields[1]) == me and b"forkserver" not in cmdline:
                if b"resource_tracker" not in cmdline:
                    found.append(int(p))
    return found


def test_a_worker_runs_jobs_one_after_another_and_each_peak_is_its_own(slow, tmp_path):
    out = tmp_path / "r.jsonl"
    settings = ["slow:hog=300", "slow:hog=1", "sat", "dlx"]
    compare("sudoku", SUDOKU[:1], settings, output=str(out), jobs=1, quiet=True)
    records = lines(out)
    assert [r["setting"] for r in records] == settings  # one worker: the planned order
    assert [r["worker_job"] for r in records] == [1, 2, 3, 4]
    big, small = records[0]["peak_rss_mb"], records[1]["peak_rss_mb"]
    assert big > 300 and small < big - 250  # the second job's peak does not include the first's
    assert all(0 < r["start_rss_mb"] <= r["peak_rss_mb"] for r in records)
    assert big - records[0]["start_rss_mb"] > 300
    assert not _live_children()  # every worker retired and reaped when the run ends


def test_worker_jobs_1_gives_every_job_a_fresh_process(tmp_path):
    out = tmp_path / "r.jsonl"
    compare("sudoku", SUDOKU, ["sat", "dlx"], output=str(out), jobs=1, worker_jobs=1, quiet=True)
    assert [r["worker_job"] for r in lines(out)] == [1, 1, 1, 1]
    with pytest.raises(InputError, match="--worker-jobs must be at least 1"):
        compare("sudoku", SUDOKU, ["sat"], output=str(out), worker_jobs=0, quiet=True)


@pytest.mark.parametrize(
    "first, limit, status, fresh",
    [
        ("slow:sleep=60", None, "timeout", True),
        ("slow:hog=1000", 300, "memout", True),
        ("slow:fail=true", None, "error", True),
        ("slow:linger=true", None, "unique", True),  # a thread left running
        ("slow:timer=true", None, "unique", False),  # a thread that ends a moment late
        ("slow:leak=100", None, "unique", True),  # memory left behind
        ("slow:leak=10", None, "unique", False),  # a little memory left behind
        ("slow:lie=true", None, "none", False),  # an ordinary job, if a wrong one
    ],
)
def test_a_job_that_fails_or_passes_a_limit_leaves_a_fresh_worker(
    slow, tmp_path, first, limit, status, fresh
):
    out = tmp_path / "r.jsonl"
    memory = None
    if limit is not None:
        vm = int(Path("/proc/self/status").read_text().split("VmData:")[1].split()[0]) // 1024
        memory = vm + limit
    settings = [first, "sat", "dlx"]
    # The limit is the jobs' (sat's and dlx's too): a short one only where the test waits for
    # it (a 0.5 s limit timed out the leak=100 job with both cores busy, load 12).
    compare(
        "sudoku",
        SUDOKU[:1],
        settings,
        output=str(out),
        jobs=1,
        timeout=2.0 if status == "timeout" else 30.0,
        memory_mb=memory,
        quiet=True,
    )
    records = {r["setting"]: r for r in lines(out)}
    assert records[first]["status"] == status
    assert records["sat"]["worker_job"] == (1 if fresh else 2)
    assert records["dlx"]["worker_job"] == records["sat"]["worker_job"] + 1
    assert records["sat"]["status"] == records["dlx"]["status"] == "unique"
    assert not _live_children()


@pytest.mark.parametrize(
    "sig, status",
    [(signal.SIGKILL, "error"), (signal.SIGTERM, "error"), (signal.SIGABRT, "memout")],
)
def test_a_worker_ended_by_a_signal_is_memout_only_for_a_failed_allocations_signals(
    slow, tmp_path, sig, status
):
    out = tmp_path / "r.jsonl"
    settings = [f"slow:die={int(sig)}", "sat"]
    compare("sudoku", SUDOKU[:1], settings, output=str(out), jobs=1, memory_mb=100_000, quiet=True)
    records = {r["setting"]: r for r in lines(out)}
    died = records[settings[0]]
    assert died["status"] == status
    if status == "error":  # (kill -9 or the OOM killer: not known to be the memory limit)
        assert died["error"] == f"the worker died (signal {int(sig)}) without a result"
    assert records["sat"]["status"] == "unique" and records["sat"]["worker_job"] == 1


def _cli_with_guard(marker: str) -> str:
    """A program like ``dlxsat``: its process guard installed, the test solver registered."""
    return (
        f"# {marker}\nimport sys; sys.path.insert(0, {str(TESTS)!r})\n"
        "from dlxsat.runtime import guard; guard.install()\n"
        "from dlxsat import solvers; solvers.SOLVERS['slow'] = 'compare_test_solver'\n"
    )


def test_a_signal_to_one_worker_ends_its_job_not_the_run(tmp_path):
    """A worker shares nothing of the dlxsat process's signal handling (its wake-up pipe
    and watchdog once made a SIGTERM to a worker end the whole run)."""
    out = tmp_path / "r.jsonl"
    code = _cli_with_guard("compare-worker-signal") + (
        "from dlxsat.cli import main; sys.exit(main(sys.argv[1:]))"
    )
    args = ["compare", "sudoku", *SUDOKU, "-o", str(out), "--jobs", "1", "--quiet"]
    args += ["--settings", f"slow:die={int(signal.SIGTERM)}", "--settings", "sat"]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    run = subprocess.run(
        [sys.executable, "-c", code, *args], env=env, capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0, run.stderr
    statuses = sorted((r["setting"], r["status"]) for r in lines(out))
    assert statuses == [("sat", "unique")] * 2 + [("slow:die=15", "error")] * 2


def test_a_stop_a_library_swallowed_during_the_warm_up_still_stops_the_run(tmp_path):
    """Python runs a signal's handler wherever the main thread is; raised inside a ctypes
    callback (numba compiling) or a fork hook, the exception is dropped. The run must stop
    anyway, not go on with workers that inherited the stop and fail every job."""
    out = tmp_path / "r.jsonl"
    code = _cli_with_guard("compare-swallowed-stop") + (
        "import os, signal\n"
        "from dlxsat.compare import jobs\n"
        "real = jobs._warm\n"
        "def swallowing(backend):\n"
        "    try:\n"
        "        os.kill(os.getpid(), signal.SIGTERM)\n"
        "        real(backend)\n"
        "    except BaseException:\n"
        "        pass\n"
        "jobs._warm = swallowing\n"
        "from dlxsat.cli import main; sys.exit(main(sys.argv[1:]))"
    )
    args = ["compare", "sudoku", *SUDOKU, "-o", str(out), "--settings", "sat", "--quiet"]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    run = subprocess.run(
        [sys.executable, "-c", code, *args], env=env, capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 143
    assert run.stderr.startswith("dlxsat: interrupted (SIGTERM) while running the jobs: 0 jobs")
    assert not out.exists()  # the store it made holds nothing: it is gone again


def test_an_interrupted_call_leaves_no_worker_and_no_open_pipe(monkeypatch, tmp_path):
    from dlxsat.compare import runner

    fds = len(os.listdir("/proc/self/fd"))
    calls = []

    def started(self):
        calls.append(1)
        if len(calls) == 3:  # a Ctrl-C with two jobs running and a third handed out
            raise KeyboardInterrupt

    monkeypatch.setattr(runner.Progress, "started", started)
    with pytest.raises(KeyboardInterrupt):
        compare("sudoku", SUDOKU, ["sat", "dlx"], output=str(tmp_path / "r.jsonl"), jobs=3)
    assert not _live_children()
    assert len(os.listdir("/proc/self/fd")) == fds


def test_a_caller_with_a_thousand_files_open(tmp_path):
    """The runner waits on its workers' pipes with selectors: select.select refuses a
    descriptor past 1023, which a caller with many files or sockets open hands it."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    assert hard == resource.RLIM_INFINITY or hard >= 1200, "this test needs 1,200 open files"
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 1200), hard))
    held = [os.open(os.devnull, os.O_RDONLY) for _ in range(1100)]
    try:
        result = compare("sudoku", SUDOKU, ["sat"], output=str(tmp_path / "r.jsonl"), quiet=True)
    finally:
        for fd in held:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    assert result.statuses == {"unique": 2}


def test_a_job_has_the_room_of_a_fresh_worker_under_the_memory_limit(slow, tmp_path):
    """Address space an earlier job left reserved (as CP-SAT's thread arenas are) does not
    count against the next job's limit."""
    out = tmp_path / "r.jsonl"
    vm = int(Path("/proc/self/status").read_text().split("VmData:")[1].split()[0]) // 1024
    settings = ["slow:reserve=200", "slow:hog=200"]
    compare("sudoku", SUDOKU[:1], settings, output=str(out), jobs=1, memory_mb=vm + 300, quiet=True)
    records = {r["setting"]: r for r in lines(out)}
    assert records["slow:reserve=200"]["status"] == "unique"
    # 200 reserved + 200 filled > 300: a memout if the reservation counted
    assert records["slow:hog=200"]["status"] == "unique"
    assert records["slow:hog=200"]["worker_job"] == 2


def test_after_a_large_job_the_worker_hands_memory_back(tmp_path):
    out = tmp_path / "r.jsonl"
    big = str(ROOT / "puzzles/masyu-published/janko-760-58x40.txt")
    small = str(ROOT / "puzzles/masyu/tatham-10x10.txt")
    compare("masyu", [big, small], ["sat"], output=str(out), jobs=1, quiet=True)
    first, second = lines(out)
    # 20-45 MiB, less with busy cores (14.5 once in a fresh clone's CI): past HAND_BACK_MB,
    # so that the worker hands memory back after it.
    grew = first["peak_rss_mb"] - first["start_rss_mb"]
    assert grew > HAND_BACK_MB and second["worker_job"] == 2
    # What the 58 x 40 board left behind: without the hand-back the allocators kept 35 MiB,
    # about all of it; with it, the next job starts with most of that memory given back (some
    # 10 MiB stay, whatever the growth: a floor of 12 for the runs that grew little, which
    # keep all of it without the hand-back, more than 12 again).
    kept = second["start_rss_mb"] - first["start_rss_mb"]
    assert kept < max(0.5 * grew, 12.0), (kept, grew)


def test_two_runs_in_one_process_end_only_their_own_workers(slow, tmp_path):
    import threading

    outcomes = {}

    def run(name: str, setting: str, worker_jobs: int | None) -> None:
        outcomes[name] = compare(
            "sudoku",
            SUDOKU,
            [setting],
            output=str(tmp_path / f"{name}.jsonl"),
            jobs=1,
            timeout=30,
            worker_jobs=worker_jobs,
            quiet=True,
        )

    long = threading.Thread(target=run, args=("long", "slow:sleep=0.5,0.51,0.52", 1))
    long.start()
    time.sleep(0.2)
    run("short", "slow:sleep=0.01", None)  # ends, and ends its workers, while long runs
    t0 = time.monotonic()
    long.join()
    assert time.monotonic() - t0 < 25  # (a worker of long's killed by short: 30 s waits)
    assert dict(outcomes["long"].statuses) == {"unique": 6}
    assert dict(outcomes["short"].statuses) == {"unique": 2}
    assert not _live_children()


def test_holding_signals_puts_every_handler_back_even_when_interrupted(monkeypatch):
    """A signal whose handler raises may land while the handlers are put back; none may stay
    swapped (it would drop that signal for good)."""
    from dlxsat.compare import worker

    before = {s: signal.getsignal(s) for s in worker._BLOCKED}
    real = signal.signal
    calls = []

    def interrupted_once(signum, handler):
        calls.append(signum)
        if len(calls) == len(worker._BLOCKED) + 1:  # the first one put back
            real(signum, handler)
            raise KeyboardInterrupt
        return real(signum, handler)

    monkeypatch.setattr(signal, "signal", interrupted_once)
    with pytest.raises(KeyboardInterrupt):
        with worker._signals_held():
            pass
    monkeypatch.undo()
    assert {s: signal.getsignal(s) for s in worker._BLOCKED} == before


def test_dask_threads_share_the_workers_safely(tmp_path):
    """Threads of one Dask worker fork, reuse and retire workers at once (a reaping race once
    turned finished jobs into errors); every job is right and nothing is left."""
    import threading

    from dlxsat.compare.worker import retire_idle, run_isolated

    todo, _ = plan("sudoku", SUDOKU, ["sat", "dlx"], timeout=10)
    for job in todo:
        jobs_module_warm(job)
    results: list[dict] = []

    def loop(k: int) -> None:
        for i in range(12):
            results.append(run_isolated(todo[(k + i) % len(todo)], worker_jobs=1 + i % 2))

    threads = [threading.Thread(target=loop, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    retire_idle()
    assert len(results) == 48 and {r["status"] for r in results} == {"unique"}
    assert not _live_children()


def jobs_module_warm(job) -> None:
    from dlxsat.compare.jobs import warm

    warm(job)


def test_the_dask_side_reuses_a_worker_until_something_new_is_warmed(monkeypatch):
    from dlxsat.compare import jobs as jobs_module
    from dlxsat.compare.worker import retire_idle, run_isolated

    todo, _ = plan("sudoku", SUDOKU[:1], ["sat", "dlx"], timeout=10)
    for job in todo:  # what the jobs need is loaded before the first worker is forked
        jobs_module.warm(job)
    try:
        first, second = run_isolated(todo[0]), run_isolated(todo[1])
        assert first["status"] == second["status"] == "unique"
        assert second["worker_job"] == first["worker_job"] + 1
        # Something new warmed in this process: the idle worker lacks it, a fresh one is forked.
        monkeypatch.setattr(jobs_module, "_WARMED", set())
        assert run_isolated(todo[0])["worker_job"] == 1
        assert run_isolated(todo[0])["worker_job"] == 2
    finally:
        retire_idle()
    assert not _live_children()


def test_jobs_start_with_the_libraries_and_compiled_kernels_loaded(tmp_path):
    out = tmp_path / "r.jsonl"
    compare(
        "masyu",
        [str(ROOT / "puzzles/masyu/tatham-18x10.txt")],
        ["dlx"],
        output=str(out),
        quiet=True,
    )
    (r,) = lines(out)
    # Loaded in the parent before the fork: the job's search starts compiled, loading nothing
    # (in a worker of its own it would load numba, 0.3 s or more, inside the job's time).
    assert r["status"] == "unique" and r["stats"]["kernel"] == "compiled"
    assert r["stats"]["compile_seconds"] < 0.05


def test_count_mode_hashes_every_answer(tmp_path):
    out = tmp_path / "r.jsonl"
    # an empty 3x3 Sudoku-like board is not at hand: a 4x4 with its clues is unique, so count 1
    result = compare("sudoku", SUDOKU, ["dlx", "sat"], output=str(out), mode="count", quiet=True)
    assert not result.disagreements
    records = lines(out)
    assert {r["status"] for r in records} == {"counted"}
    assert all(r["answer_sha256"] for r in records)


# ----------------------------------------------------------------------------- store


def test_resume_after_the_run_is_killed(tmp_path):
    out = tmp_path / "r.jsonl"
    marker = f"compare-kill-test-{os.getpid()}"
    settings = ["slow:sleep=0.3", "slow:sleep=0.31"]
    code = (
        f"# {marker}\nimport sys; sys.path.insert(0, {str(TESTS)!r})\n"
        "from dlxsat import solvers; solvers.SOLVERS['slow'] = 'compare_test_solver'\n"
        "from dlxsat.cli import main; sys.exit(main(sys.argv[1:]))"
    )
    args = [
        "compare",
        "slitherlink",
        *SLITHER,
        "-o",
        str(out),
        "--jobs",
        "2",
        "--quiet",
        "--timeout",
        "30",
    ]
    for s in settings:
        args += ["--settings", s]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    proc = subprocess.Popen([sys.executable, "-c", code, *args], env=env)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not out.exists() or len(lines(out)) < 2):
        assert proc.poll() is None
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    before = lines(out)
    assert 2 <= len(before) < 6
    time.sleep(0.5)  # the workers die with their parent
    left = [p for p in os.listdir("/proc") if p.isdigit() and _has(p, marker)]
    assert not left
    rc = subprocess.run([sys.executable, "-c", code, *args], env=env).returncode
    assert rc == 0
    after = lines(out)
    ids = [r["job"] for r in after]
    assert len(ids) == len(set(ids)) == 6  # none twice, none missing
    assert after[: len(before)] == before


@pytest.mark.parametrize("sig, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_stops_the_run_with_one_line_and_no_worker_left(tmp_path, sig, status):
    out = tmp_path / "r.jsonl"
    marker = f"compare-signal-test-{os.getpid()}-{sig}"
    code = (
        f"# {marker}\nimport sys; sys.path.insert(0, {str(TESTS)!r})\n"
        "from dlxsat.runtime import guard; guard.install()\n"
        "from dlxsat import solvers; solvers.SOLVERS['slow'] = 'compare_test_solver'\n"
        "from dlxsat.cli import main; sys.exit(main(sys.argv[1:]))"
    )  # (the guard: as the dlxsat program has, which this test's program stands for)
    args = ["compare", "slitherlink", *SLITHER, "-o", str(out), "--jobs", "2", "--quiet"]
    args += ["--settings", "slow:sleep=0.2,0.21,0.22,0.23"]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    proc = subprocess.Popen(
        [sys.executable, "-c", code, *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=as_foreground,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not out.exists() or len(lines(out)) < 2):
        assert proc.poll() is None
        time.sleep(0.02)
    proc.send_signal(sig)
    stdout, stderr = proc.communicate(timeout=30)
    assert proc.returncode == status and stdout == b""
    (line,) = stderr.decode().splitlines()
    assert line.startswith(f"dlxsat: interrupted ({signal.Signals(sig).name}) while running")
    stored = lines(out)  # every line whole
    assert 2 <= len(stored) < 12 and f"{len(stored)} jobs stored so far" in line
    time.sleep(0.3)
    assert not [p for p in os.listdir("/proc") if p.isdigit() and _has(p, marker)]


def _has(pid: str, marker: str) -> bool:
    try:
        return marker.encode() in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


def test_stores_merge_by_concatenation(tmp_path):
    a, b, merged = tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "m.jsonl"
    compare("sudoku", SUDOKU, ["dlx"], output=str(a), quiet=True)
    compare("sudoku", SUDOKU, ["sat"], output=str(b), quiet=True)
    merged.write_text(a.read_text() + b.read_text() + a.read_text().splitlines()[0] + "\n")
    records = store.read(str(merged))
    assert len(records) == 4  # the repeated job counts once, its last record kept
    assert records[-1] == lines(a)[0]
    again = compare("sudoku", SUDOKU, ["dlx", "sat"], output=str(merged), quiet=True)
    assert again.ran == 0 and again.skipped == 4 and not again.disagreements


def test_a_cut_last_line_is_skipped_with_a_warning(tmp_path, capsys):
    out = tmp_path / "r.jsonl"
    compare("sudoku", SUDOKU[:1], ["dlx"], output=str(out), quiet=True)
    with open(out, "a") as f:
        f.write('{"job": "abc", "puz')
    assert len(store.read(str(out))) == 1
    assert "line 2: skipped a last line that does not parse" in capsys.readouterr().err
    merged = tmp_path / "m.jsonl"  # the cut store concatenated with another
    merged.write_text(out.read_text() + out.read_text())
    assert len(store.read(str(merged))) == 1
    assert "line 2: skipped a record cut short and 1 more like it" in capsys.readouterr().err
    out.write_text("a,b,c\n1,2,3\n")
    with pytest.raises(InputError, match="line 1: not a JSON record"):
        store.read(str(out))


# ----------------------------------------------------------------------------- cross-check


def test_a_disagreement_exits_4_naming_puzzle_and_settings(slow, tmp_path, capsys):
    out = tmp_path / "r.jsonl"
    rc = main(
        [
            "compare",
            "sudoku",
            SUDOKU[0],
            "--settings",
            "sat",
            "--settings",
            "slow:lie=true",
            "-o",
            str(out),
            "--quiet",
        ]
    )
    err = capsys.readouterr().err
    assert rc == 4
    assert "DISAGREEMENT" in err and "tatham-4x4-1.txt" in err
    assert "sat and slow:lie=true disagree: unique (1 answer" in err and "against none" in err
    rc = main(
        [
            "compare",
            "sudoku",
            SUDOKU[0],
            "--settings",
            "sat:loop=eager",
            "--settings",
            "sat",
            "-o",
            str(out),
            "--quiet",
        ]
    )
    captured = capsys.readouterr()
    assert rc == 4  # the stored liar still disagrees
    assert "note: skipping sat:loop=eager: sudoku has no loop" in captured.err
    assert "1 jobs: 0 run, 1 already in" in captured.out
    assert len(lines(out)) == 2  # every job still ran


def test_earlier_records_take_part_in_the_cross_check(tmp_path, capsys):
    out = tmp_path / "r.jsonl"
    compare("sudoku", SUDOKU[:1], ["dlx"], output=str(out), quiet=True)
    (r,) = lines(out)
    forged = {**r, "job": "0" * 16, "setting": "cpsat", "answer_sha256": "f" * 64}
    store.append(str(out), forged)
    rc = main(["compare", "sudoku", SUDOKU[0], "--settings", "sat", "-o", str(out), "--quiet"])
    assert rc == 4
    assert "cpsat and dlx disagree" in capsys.readouterr().err


def test_bad_input_is_one_line_and_writes_nothing(tmp_path, capsys):
    out = tmp_path / "r.jsonl"
    rc = main(["compare", "masyu", SLITHER[0], "--settings", "sat:encoding=zigzag", "-o", str(out)])
    captured = capsys.readouterr()
    assert rc == 2 and captured.out == "" and len(captured.err.splitlines()) == 1
    assert not out.exists()
    rc = main(
        ["compare", "masyu", str(tmp_path / "none*.txt"), "--settings", "sat", "-o", str(out)]
    )
    assert rc == 2 and "no file matches" in capsys.readouterr().err
    rc = main(["compare", "sudoku", SUDOKU[0], "--settings", "sat", "--worker-jobs", "0"])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and "--worker-jobs: not a positive whole number" in err
    assert not out.exists()


def test_worker_jobs_on_the_command_line(tmp_path, capsys):
    out = tmp_path / "r.jsonl"
    args = ["compare", "sudoku", *SUDOKU, "--settings", "sat", "-o", str(out), "--quiet"]
    assert main([*args, "--jobs", "1", "--worker-jobs", "1"]) == 0
    assert [r["worker_job"] for r in lines(out)] == [1, 1]
    assert main([*args, "--jobs", "1", "--redo"]) == 0
    assert [r["worker_job"] for r in lines(out)][2:] == [1, 2]


# ----------------------------------------------------------------------------- Dask


def test_dask_runs_the_same_jobs_and_resumes(tmp_path):
    import distributed  # the test extra has it: this check is never skipped

    out = tmp_path / "r.jsonl"
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
    ) as cluster:
        first = compare(
            "sudoku",
            SUDOKU,
            ["sat", "dlx"],
            output=str(out),
            dask=cluster.scheduler_address,
            timeout=10,
            quiet=True,
        )
        assert first.ran == 4 and not first.disagreements
        again = compare(
            "sudoku",
            SUDOKU,
            ["sat", "dlx"],
            output=str(out),
            dask=cluster.scheduler_address,
            timeout=10,
            quiet=True,
        )
    assert again.ran == 0 and again.skipped == 4
    assert sorted(r["status"] for r in lines(out)) == ["unique"] * 4
    assert not _live_children()  # the Dask worker's idle workers were retired after the run


# ----------------------------------------------------------------------------- export, external


def test_corpus_export_and_an_external_solver_agree(tmp_path, capsys):
    for program in ("picosat", "cadical"):  # installed by .ci/run, like test_dimacs needs them
        if shutil.which(program) is None:
            pytest.fail(f"the SAT solver {program!r} is not installed (apt-get install {program})")
    folder = tmp_path / "cnf"
    rc = main(
        [
            "export",
            "dimacs",
            "slitherlink",
            *SLITHER[:2],
            "-o",
            str(folder),
            "--settings",
            "sat:encoding=seqcounter,totalizer",
        ]
    )
    assert rc == 0 and "4 CNF files" in capsys.readouterr().out
    manifest = json.loads((folder / "manifest.json").read_text())
    entries = manifest["entries"]
    assert len(entries) == 4
    assert {p.name for p in folder.iterdir()} == {"manifest.json", *(e["cnf"] for e in entries)}
    model = tmp_path / "model.txt"
    for e in entries:
        text = (folder / e["cnf"]).read_text()
        assert "c var 1-" in text or "c var 1 " in text
        done = subprocess.run(["picosat", str(folder / e["cnf"])], capture_output=True, text=True)
        model.write_text(done.stdout)
        assert main(["decode", "slitherlink", e["puzzle"], str(model), "--json"]) == 0
        answers = json.loads(capsys.readouterr().out)["solutions"]
        assert e["expected_status"] == "unique"
        assert store.answer_hash(answers) == e["answer_sha256"]
    out = tmp_path / "r.jsonl"
    programs = "picosat,cadical"
    result = compare(
        "slitherlink", SLITHER[:2], [f"external:cmd={programs}", "dlx"], output=str(out), quiet=True
    )
    assert not result.disagreements and not result.errors
    ext = [r for r in lines(out) if r["backend"] == "external"]
    assert len(ext) == 2 * len(programs.split(","))
    assert all(r["stats"]["calls"] == 2 for r in ext)  # the second call, blocked: UNSAT
    expected = {e["puzzle_sha256"]: e["answer_sha256"] for e in entries}
    assert all(r["answer_sha256"] == expected[r["puzzle_sha256"]] for r in ext)
    assert {r["solver_version"].split()[0] for r in ext} == set(programs.split(","))


def test_corpus_export_needs_a_folder_and_formula_settings(tmp_path, capsys):
    rc = main(["export", "dimacs", "sudoku", *SUDOKU])
    assert rc == 2 and "-o DIR" in capsys.readouterr().err
    rc = main(
        [
            "export",
            "dimacs",
            "sudoku",
            SUDOKU[0],
            "-o",
            str(tmp_path / "x"),
            "--settings",
            "sat:solver=glucose4",
        ]
    )
    assert rc == 2 and "does not change the CNF" in capsys.readouterr().err


def test_a_file_of_many_puzzles_is_many_jobs(tmp_path):
    many = tmp_path / "many.txt"
    many.write_text("4..3.3....1.1..2\n" + "1" + "." * 15 + "\n")  # one-line 4 x 4 Sudokus
    out = tmp_path / "r.jsonl"
    result = compare("sudoku", [str(many)], ["dlx", "sat"], output=str(out), quiet=True)
    assert result.ran == 4 and not result.disagreements
    by_puzzle = {}
    for r in lines(out):
        by_puzzle.setdefault(r["puzzle"], set()).add(r["status"])
    assert by_puzzle == {f"{many}:1": {"unique"}, f"{many}:2": {"multiple"}}


def test_progress_bar_on_stderr_unless_quiet(tmp_path, capsys):
    compare("sudoku", SUDOKU[:1], ["dlx"], output=str(tmp_path / "r.jsonl"))
    err = capsys.readouterr().err
    assert "1/1" in err and "failed=0" in err
    compare("sudoku", SUDOKU[:1], ["sat"], output=str(tmp_path / "r.jsonl"), quiet=True)
    assert capsys.readouterr().err == ""


def test_dask_missing_is_one_line(monkeypatch, tmp_path, capsys):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    rc = main(
        [
            "compare",
            "sudoku",
            SUDOKU[0],
            "--settings",
            "sat",
            "--dask",
            "tcp://127.0.0.1:1",
            "-o",
            str(tmp_path / "r.jsonl"),
            "--quiet",
        ]
    )
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and "dlxsat[dask]" in err


def test_an_external_program_past_the_limit_is_stopped(tmp_path):
    sleeper = tmp_path / "sleeper.sh"
    sleeper.write_text('#!/bin/sh\n[ "$1" = --version ] && echo 1.0 && exit\nsleep 30\n')
    sleeper.chmod(0o755)
    out = tmp_path / "r.jsonl"
    compare(
        "sudoku", SUDOKU[:1], [f"external:cmd={sleeper}"], output=str(out), timeout=0.3, quiet=True
    )
    (r,) = lines(out)
    assert r["status"] == "timeout" and r["solver_version"] == "sleeper.sh 1.0"
    time.sleep(0.2)
    assert not [p for p in os.listdir("/proc") if p.isdigit() and _has(p, str(sleeper))]


# ----------------------------------------------------------------------------- README's presets


def _readme_command(fragment: str) -> list[str]:
    """The documented example command line (README or the compare page of the docs) that
    contains ``fragment``, as arguments."""
    import shlex

    for page in ("README.md", "docs/commands/compare.md"):
        for line in (ROOT / page).read_text().splitlines():
            if line.strip().startswith("dlxsat compare") and fragment in line:
                return shlex.split(line.split("#")[0])[1:]
    raise AssertionError(f"no documented example with {fragment!r}")


def test_the_readme_loops_preset_plans_every_loop_mode():
    """``--preset loops`` on a loop family: every loop mode of every solver that has one is
    probed on a problem with the loop rule (it was probed without it, and all were refused)."""
    args = _readme_command("--preset loops")
    assert args[:3] == ["compare", "slitherlink", "puzzles/slitherlink"]
    settings, notes = for_family(grid([], ["loops"]), "slitherlink", ["loop"])
    assert notes == []
    assert sorted(s.text for s in settings) == sorted(s.text for s in preset("loops"))


def test_the_readme_loops_preset_runs(tmp_path, monkeypatch, capsys):
    """The documented command, word for word, run from a folder whose ``puzzles/slitherlink``
    holds the bundled 5 x 5 boards: every setting of the preset on every board, each counted
    (the bundled 20 x 15 and 30 x 25 boards reach its 10 s limit, which took the test 14 s)."""
    args = _readme_command("--preset loops")
    corpus = tmp_path / "puzzles" / "slitherlink"
    corpus.mkdir(parents=True)
    boards = sorted((ROOT / "puzzles/slitherlink").glob("tatham-5x5-*.txt"))
    assert len(boards) >= 2
    for board in boards:
        (corpus / board.name).write_bytes(board.read_bytes())
    monkeypatch.chdir(tmp_path)
    store_path = tmp_path / "results.jsonl"
    rc = main([*args, "--quiet", "-o", str(store_path)])
    out, err = capsys.readouterr()
    assert rc == 0, err
    records = lines(store_path)
    assert len(records) == len(boards) * len(preset("loops")) and "skipping" not in err
    assert {r["status"] for r in records} == {"counted"}
    assert {r["setting"] for r in records} == {s.text for s in preset("loops")}
    assert len({r["count"] for r in records if r["puzzle"].endswith(boards[0].name)}) == 1


# ----------------------------------------------------------------------------- smaller promises


def test_the_same_puzzle_twice_is_said_on_stderr(tmp_path, capsys):
    copy = tmp_path / "copy.txt"
    copy.write_bytes(Path(SUDOKU[0]).read_bytes())
    out = tmp_path / "r.jsonl"
    rc = main(
        ["compare", "sudoku", SUDOKU[0], str(copy), "--settings", "dlx", "-o", str(out), "--quiet"]
    )
    err = capsys.readouterr().err
    assert rc == 0 and len(lines(out)) == 1
    assert f"{copy}: the same puzzle as " in err and "taken once" in err
    rc = main(
        [
            "export",
            "dimacs",
            "sudoku",
            SUDOKU[0],
            str(copy),
            "-o",
            str(tmp_path / "cnf"),
            "--settings",
            "sat",
        ]
    )
    err = capsys.readouterr().err
    assert rc == 0 and "the same puzzle as" in err


def test_a_run_whose_jobs_all_fail_exits_1(slow, tmp_path, capsys):
    out = tmp_path / "r.jsonl"
    argv = ["compare", "sudoku", *SUDOKU, "--settings", "slow:fail=true", "-o", str(out), "--quiet"]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert "all 2 jobs of this run failed" in err
    # some failing among others that work: still 0 (the failures are told and stored)
    out.unlink()
    argv[5:6] = ["slow:fail=true", "--settings", "dlx"]
    assert main(argv) == 0


def test_mode_has_help(capsys):
    with pytest.raises(SystemExit):
        from dlxsat.cli_arguments import build_parser

        build_parser().parse_args(["compare", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--mode {unique,count} unique: look for two answers" in text
