"""What a full disk, a short write, a cluster that is not there and a killed run do to the
outputs (issue 35): every write checked whole, and nothing left behind that looks whole.

A full disk is stood for by writers that take part of what they are given and then report
``ENOSPC`` (or take nothing at all): a stdout like Python's unbuffered one (``-u``,
``PYTHONUNBUFFERED``: a text layer right on the descriptor, which drops what a short write
left), the raw file layer of :mod:`dlxsat.outputs`, and the results store's writes. Where this
process may mount one (root), a real 64 KB tmpfs is filled too, and the program run on it.
"""

from __future__ import annotations

import errno
import io
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT
from stores import record, write_store

from dlxsat import outputs
from dlxsat.instances import generate

MASYU = ROOT / "puzzles" / "masyu" / "tatham-10x10.txt"
BIG_MASYU = ROOT / "puzzles" / "masyu-bench" / "bench-36x20-01.txt"  # encoded: 165,535 bytes
SUDOKU = ROOT / "puzzles" / "sudoku" / "tatham-4x4-1.txt"
SUDOKU6 = ROOT / "puzzles" / "sudoku" / "tatham-6x6-1.txt"
SUDOKU_LINE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
ENV = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
NO_SPACE = "No space left on device"


# --------------------------------------------------------------------------- the fake disks


class ShortRaw(io.RawIOBase):
    """A descriptor on a disk with ``room`` bytes left: a write takes what still fits (a short
    write), the next one fails with ENOSPC -- or, ``zero``, takes nothing and says so."""

    def __init__(self, room: int, zero: bool = False) -> None:
        self.room = room
        self.zero = zero
        self.data = bytearray()

    def writable(self) -> bool:
        return True

    def write(self, b: Any) -> int:
        if self.room == 0:
            if self.zero:
                return 0
            raise OSError(errno.ENOSPC, NO_SPACE)
        n = min(len(b), self.room)
        self.data += bytes(b[:n])
        self.room -= n
        return n


def short_stdout(monkeypatch, room: int, zero: bool = False) -> ShortRaw:
    """stdout as the program has it (the guard of :func:`dlxsat.outputs.guard_std_streams`)
    over an unbuffered text layer (``python -u``) on a nearly full disk."""
    raw = ShortRaw(room, zero)
    text = io.TextIOWrapper(raw, encoding="utf-8", write_through=True)  # what -u makes
    monkeypatch.setattr(sys, "stdout", outputs._GuardedStdout(text))
    return raw


def short_files(monkeypatch, room: int) -> None:
    """Every file dlxsat writes is on a disk with ``room`` bytes left (over all of them)."""
    left = [room]

    def write_some(self: Any, b: Any) -> int:
        if left[0] == 0:
            raise OSError(errno.ENOSPC, NO_SPACE)
        n = os.write(self.fileno(), bytes(b[: left[0]]))
        left[0] -= n
        return n

    monkeypatch.setattr(outputs._CheckedFileIO, "_write_some", write_some)


def main(args: list[str], capfd) -> tuple[int, str]:
    """The command line in this process: (exit status, stderr)."""
    from dlxsat import cli

    capfd.readouterr()
    rc = cli.main([str(a) for a in args])
    return rc, capfd.readouterr().err


def one_error(err: str, *fragments: str) -> str:
    lines = err.rstrip("\n").split("\n")
    assert len(lines) == 1 and lines[0].startswith("dlxsat: error: "), err
    for f in fragments:
        assert f in lines[0], (f, lines[0])
    return lines[0]


def temp_files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.rglob(".dlxsat-*"))


@pytest.fixture(scope="module")
def queens(tmp_path_factory) -> dict[int, Path]:
    folder = tmp_path_factory.mktemp("queens")
    out = {}
    for n in (10, 16):
        out[n] = folder / f"queens{n}.dlx"
        out[n].write_text(generate("queens", [str(n)]))
    return out


def _store(folder: Path) -> Path:
    return write_store(
        folder / "store.jsonl",
        [record(f"p{k}.txt", s, "unique", 0.1 * k + 0.1) for k in range(40) for s in "ab"],
    )


# --------------------------------------------------------------------------- stdout

#: Commands that print more than the room left, with {q10} (a file of 724 answers to list).
PRINTERS = {
    "encode": ["encode", "masyu", BIG_MASYU],
    "solve xcc --all": ["solve", "xcc", "{q10}", "--all", "--backend", "dlx"],
    "dlx --all": ["dlx", "{q10}", "--all"],
    "instance": ["instance", "queens", "12"],
    "solve --json": ["solve", "masyu", MASYU, "--json"],
    "report": ["report", "{store}"],
    "export": ["export", "dimacs", "sudoku", SUDOKU6],
    "solve, many puzzles": ["solve", "sudoku", "{many}", "--backend", "dlx"],
    "crosscheck": ["crosscheck", "sudoku", SUDOKU, SUDOKU6, "--backends", "dlx,sat"],
    "convert": ["convert", "sudoku", SUDOKU6, "--to", "grid"],
    "generate": ["generate", "masyu", "10x12", "--seed", "1"],  # (130 bytes)
}


@pytest.mark.parametrize("how", ["short write, then ENOSPC", "a write that takes nothing"])
@pytest.mark.parametrize("name", PRINTERS)
def test_a_short_stdout_is_exit_2_and_one_line(
    monkeypatch, capfd, tmp_path, queens, name: str, how: str
) -> None:
    """Once the output was cut short and the run said 0 (issue 35: 45,056 of 165,535 bytes)."""
    raw = short_stdout(monkeypatch, 100, zero=how.startswith("a write"))
    many = tmp_path / "many.txt"
    many.write_text(f"{SUDOKU_LINE}\n" * 8)
    args = [
        str(a).format(q10=queens[10], store=_store(tmp_path), many=many) for a in PRINTERS[name]
    ]
    rc, err = main(args, capfd)
    assert rc == 2, err
    line = one_error(err, "cannot write to stdout: ", NO_SPACE)
    if how.startswith("a write"):  # how far it got (in the write that failed)
        assert re.search(r"\(\d+ of \d+ bytes written\)$", line), line
    assert len(raw.data) == 100


@pytest.mark.parametrize(
    "args",
    [
        ["dlx", "{q16}", "--count", "--timeout", "0.5"],
        ["solve", "xcc", "{q16}", "--count", "--backend", "dlx", "--timeout", "0.5"],
    ],
    ids=["dlx", "solve"],
)
def test_a_short_stdout_after_the_time_limit_says_both(monkeypatch, capfd, queens, args) -> None:
    """The figures of a run stopped by its limit cannot be printed: exit 2, and the line says
    that the time limit was reached too (it was exit 3 and not a word of the write). Counting,
    so that the few answers checked before the figures fit in the alarm's grace on a busy
    machine: with ``--all`` every answer of the half second is checked first (14,281 at load
    5.5 took past the grace, and the run ended at its limit before writing)."""
    short_stdout(monkeypatch, 0)
    rc, err = main([a.format(q16=queens[16]) for a in args], capfd)
    assert rc == 2, err
    line = one_error(err, "cannot write to stdout: ", NO_SPACE)
    assert re.search(
        r"; also, the time limit of 0\.5 s was reached \(\d+ solutions so far\)$", line
    )


@pytest.mark.parametrize(
    ("stop", "code", "line"),
    [
        (
            "TimeUp",
            2,
            r"^dlxsat: error: cannot write to stdout: No space left on device; "
            r"also, time limit of 5 s reached while converting: 0 solutions so far, [\d.]+ s$",
        ),
        (
            "Interrupted",
            130,
            r"^dlxsat: interrupted \(SIGINT\) while converting: 0 solutions "
            r"so far, [\d.]+ s; also, cannot write to stdout: No space left on device$",
        ),
    ],
)
def test_what_a_stopped_run_printed_is_flushed_and_checked(
    monkeypatch, capfd, stop: str, code: int, line: str
) -> None:
    """A run stopped after it printed (buffered stdout, not ``-u``): the flush came after the
    stop line, at exit, and its failure was not told."""
    from dlxsat import cli
    from dlxsat.runtime import guard

    raw = ShortRaw(100)
    text = io.TextIOWrapper(io.BufferedWriter(raw, 8192), encoding="utf-8")
    monkeypatch.setattr(sys, "stdout", outputs._GuardedStdout(text))

    def printed_then_stopped(a: Any) -> int:
        a.progress.set_phase("converting")
        print("x" * 1000)  # (in the buffer: nothing written yet)
        raise getattr(guard, stop)()

    monkeypatch.setattr(cli, "cmd_convert", printed_then_stopped)
    rc, err = main(["convert", "sudoku", SUDOKU, "--to", "grid", "--timeout", "5"], capfd)
    assert rc == code, err
    assert err.count("\n") == 1 and re.match(line, err.rstrip("\n")), err
    assert len(raw.data) == 100


def test_a_whole_stdout_is_written_through_short_writes(monkeypatch, capfd) -> None:
    """A descriptor that takes a little at a time (a pipe, a slow disk) gets all of it."""

    class Trickle(ShortRaw):
        def write(self, b: Any) -> int:
            self.data += bytes(b[:7])
            return min(len(b), 7)

    raw = Trickle(0)
    monkeypatch.setattr(
        sys, "stdout", outputs._GuardedStdout(io.TextIOWrapper(raw, write_through=True))
    )
    rc, err = main(["encode", "masyu", MASYU], capfd)
    assert rc == 0, err
    from dlxsat import encode

    assert raw.data.decode() == encode("masyu", MASYU.read_text())


# --------------------------------------------------------------------------- files

#: Commands that write a file, with {out} for its path.
FILE_WRITERS = {
    "convert -o": ["convert", "sudoku", SUDOKU, "--to", "oneline", "-o", "{out}"],
    "export -o": ["export", "dimacs", "masyu", MASYU, "-o", "{out}"],
    "solve --svg": ["solve", "masyu", MASYU, "--quiet", "--svg", "{out}.svg"],
    "report -o": ["report", "{store}", "-o", "{out}"],
    "report --html": ["report", "{store}", "--html", "{out}.html"],
}


@pytest.mark.parametrize("old", [None, "the old file\n"])
@pytest.mark.parametrize("name", FILE_WRITERS)
def test_a_file_on_a_full_disk_is_not_written_at_all(
    monkeypatch, capfd, tmp_path, name: str, old: str | None
) -> None:
    args = [str(a).format(out=tmp_path / "out", store=_store(tmp_path)) for a in FILE_WRITERS[name]]
    out = Path(next(a for a in args if a.startswith(str(tmp_path / "out"))))
    if old is not None:
        out.write_text(old)
    short_files(monkeypatch, 10)
    rc, err = main(args, capfd)
    assert rc == 2, err
    one_error(err, f"{out}: cannot write: {NO_SPACE}")
    assert (out.read_text() if old is not None else out.exists()) == (old or False)
    assert temp_files(tmp_path) == []


def test_every_byte_of_a_file_gets_through_short_writes(monkeypatch, capfd, tmp_path) -> None:
    def trickle(self: Any, b: Any) -> int:
        return os.write(self.fileno(), bytes(b[:5]))

    monkeypatch.setattr(outputs._CheckedFileIO, "_write_some", trickle)
    rc, err = main(["export", "dimacs", "masyu", MASYU, "-o", tmp_path / "x.cnf"], capfd)
    assert rc == 0, err
    from dlxsat.roundtrip import export_cnf

    want = io.StringIO()
    export_cnf("masyu", MASYU.read_text()).write(want, source=f"masyu {MASYU}")
    assert (tmp_path / "x.cnf").read_text() == want.getvalue()


#: Two outputs of one command, and how the second fails: then neither is left.
PAIRS = {
    "--svg, then --png to a full disk": ("{dir}/a.svg", "{full}/b.png", False),
    "--svg, then --png to a missing folder": ("{dir}/a.svg", "{dir}/no/b.png", False),
    "--svg, then stdout full": ("{dir}/a.svg", None, True),
    "--png, then stdout full": (None, "{dir}/b.png", True),
}


@pytest.mark.parametrize("name", PAIRS)
def test_no_output_of_a_pair_is_left_when_another_fails(
    monkeypatch, capfd, tmp_path, name: str
) -> None:
    svg, png, stdout_full = PAIRS[name]
    full = tmp_path / "full"
    full.mkdir()
    args = ["solve", "masyu", MASYU]
    paths = []
    for flag, path in (("--svg", svg), ("--png", png)):
        if path:
            paths.append(Path(path.format(dir=tmp_path, full=full)))
            args += [flag, paths[-1]]
    if "full disk" in name:
        real = outputs._CheckedFileIO._write_some

        def write_some(self: Any, b: Any) -> int:
            if self.name.startswith(str(full)):
                raise OSError(errno.ENOSPC, NO_SPACE)
            return real(self, b)

        monkeypatch.setattr(outputs._CheckedFileIO, "_write_some", write_some)
    if stdout_full:
        short_stdout(monkeypatch, 0)
    rc, err = main(args, capfd)
    assert rc == 2, err
    one_error(err)
    assert [p for p in paths if p.exists()] == []
    assert temp_files(tmp_path) == []


# --------------------------------------------------------------------------- stdout by name


@pytest.mark.parametrize("name", ["-", "/dev/stdout"])
@pytest.mark.parametrize(
    "command",
    [
        ["convert", "sudoku", str(SUDOKU), "--to", "oneline", "-o", "{o}"],
        ["export", "dimacs", "sudoku", str(SUDOKU), "-o", "{o}"],
        ["solve", "sudoku", str(SUDOKU), "--quiet", "--svg", "{o}"],
    ],
    ids=["convert", "export", "solve --svg"],
)
def test_minus_o_stdout_writes_to_a_pipe(command: list[str], name: str, tmp_path: Path) -> None:
    """``-o /dev/stdout`` failed when stdout was a pipe (a temporary file in /proc/self/fd)."""
    args = [a.format(o=name) for a in command]
    r = subprocess.run(
        [sys.executable, "-m", "dlxsat", *args],
        capture_output=True,
        env=ENV,
        cwd=tmp_path,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    head = {"convert": b"4..3", "export": b"c dlxsat", "solve": b"<?xml"}[command[0]]
    assert r.stdout.startswith(head), r.stdout[:200]
    if command[0] == "solve":  # the picture, then the text
        assert b"</svg>\nunique: 1 solution" in r.stdout
    assert list(tmp_path.iterdir()) == []  # no file named "-"


# --------------------------------------------------------------------------- a killed run

KILLED = """
import os, signal, sys
from dlxsat.outputs import atomic_output
with atomic_output(sys.argv[1]) as f:
    f.write("half")
    f.flush()
    os.kill(os.getpid(), signal.SIGKILL)
"""


def test_the_temporary_file_of_a_killed_run_is_removed_by_the_next(capfd, tmp_path) -> None:
    out = tmp_path / "out.txt"
    r = subprocess.run([sys.executable, "-c", KILLED, str(out)], env=ENV, timeout=60)
    assert r.returncode == -signal.SIGKILL
    left = temp_files(tmp_path)
    assert len(left) == 1 and not out.exists()
    mine = tmp_path / f"{outputs._temp_prefix()}busy"  # a running process's: kept
    mine.write_text("")
    old = tmp_path / ".dlxsat-abcd1234"  # an older dlxsat's, or another machine's
    old.write_text("")
    young = tmp_path / ".dlxsat-efgh5678"
    young.write_text("")
    os.utime(old, (time.time() - 2 * outputs.STALE_AFTER,) * 2)
    outputs._swept.discard(str(tmp_path))
    rc, err = main(["convert", "sudoku", SUDOKU, "--to", "oneline", "-o", out], capfd)
    assert rc == 0, err
    assert temp_files(tmp_path) == sorted([mine.name, young.name])


# --------------------------------------------------------------------------- compare


def test_a_compare_that_cannot_reach_its_cluster_leaves_no_store(monkeypatch, capfd, tmp_path):
    distributed = pytest.importorskip("distributed")

    def unreachable(address: str, timeout: str) -> None:
        raise OSError(f"Timed out trying to connect to {address} after {timeout}")

    monkeypatch.setattr(distributed, "Client", unreachable)
    store = tmp_path / "s.jsonl"
    args = ["compare", "sudoku", SUDOKU, "--settings", "dlx", "--quiet", "-o", store]
    rc, err = main([*args, "--dask", "tcp://127.0.0.1:9"], capfd)
    assert rc == 2
    one_error(err, "cannot reach the cluster")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("fails", ["the claim", "the record"])
@pytest.mark.parametrize("before", [False, True])
def test_a_compare_on_a_full_disk_leaves_the_store_as_it_was(
    monkeypatch, capfd, tmp_path, fails: str, before: bool
) -> None:
    from dlxsat.compare import store as store_module

    store = tmp_path / "s.jsonl"
    args = ["compare", "sudoku", SUDOKU, "--quiet", "-o", store]
    if before:
        assert main([*args, "--settings", "dlx"], capfd)[0] == 0
    was = store.read_bytes() if before else None
    real = store_module.write_some
    target = ".claims" if fails == "the claim" else ".jsonl"

    def write_some(fd: int, data: Any) -> int:
        if os.readlink(f"/proc/self/fd/{fd}").endswith(target):
            real(fd, bytes(data[:10]))  # a part, then the disk is full
            raise OSError(errno.ENOSPC, NO_SPACE)
        return real(fd, data)

    monkeypatch.setattr(store_module, "write_some", write_some)
    rc, err = main([*args, "--settings", "sat"], capfd)
    assert rc == 2, err
    one_error(err, f"{store}{target if target == '.claims' else ''}: cannot write", NO_SPACE)
    assert (store.read_bytes() if before else store.exists()) == (was if before else False)
    assert sorted(p.name for p in tmp_path.iterdir()) == (["s.jsonl"] if before else [])


# --------------------------------------------------------------------------- a corpus export

CORPUS = [
    "export",
    "dimacs",
    "sudoku",
    SUDOKU,
    SUDOKU6,
    "--settings",
    "sat:encoding=seqcounter,totalizer",
]


@pytest.mark.parametrize("there", [False, True], ids=["new folder", "folder there"])
@pytest.mark.parametrize("fails", ["manifest.json", "tatham-6x6-1--sat-encoding=totalizer.cnf"])
def test_a_corpus_export_on_a_full_disk_leaves_nothing(
    monkeypatch, capfd, tmp_path, fails: str, there: bool
) -> None:
    """A full disk left the CNF files and no manifest.json: now none of them, nor the folder."""
    folder = tmp_path / "cnf"
    if there:
        folder.mkdir()
        (folder / "mine.txt").write_text("a file of the user's\n")
    real = outputs._CheckedFileIO._write_some

    def write_some(self: Any, b: Any) -> int:
        if self.name.endswith(fails):
            real(self, b[:10])  # a part, then the disk is full
            raise OSError(errno.ENOSPC, NO_SPACE)
        return real(self, b)

    monkeypatch.setattr(outputs._CheckedFileIO, "_write_some", write_some)
    rc, err = main([*CORPUS, "-o", folder], capfd)
    assert rc == 2, err
    one_error(err, f"{folder / fails}: cannot write: {NO_SPACE}")
    left = sorted(p.name for p in tmp_path.rglob("*"))
    assert left == (["cnf", "mine.txt"] if there else [])


def test_a_corpus_export_writes_its_files_all_at_once(monkeypatch, capfd, tmp_path) -> None:
    """(The case above, undone: with room enough, every file and the manifest are there.)"""
    rc, err = main([*CORPUS, "-o", tmp_path / "cnf"], capfd)
    assert rc == 0, err
    names = sorted(p.name for p in (tmp_path / "cnf").iterdir())
    assert len(names) == 5 and "manifest.json" in names


@pytest.mark.parametrize("name", ["x.cnf", "out/X.CNF", "-", "/dev/stdout"])
def test_a_corpus_export_is_a_folder_never_a_cnf_file(
    monkeypatch, capfd, tmp_path, name: str
) -> None:
    """``export --settings ... -o x.cnf`` made a folder named x.cnf."""
    monkeypatch.chdir(tmp_path)
    rc, err = main([*CORPUS, "-o", name], capfd)
    assert rc == 2, err
    one_error(err, f"{name}: a corpus export makes a folder, not ", "give -o the name of a folder")
    assert list(tmp_path.iterdir()) == []


# --------------------------------------------------------------------------- a real full disk


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 64 KB tmpfs (where this process may mount one: root), umounted after the test."""
    disk = tmp_path / "disk"
    disk.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root (the fake writers above stand in)")
    r = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(disk)], capture_output=True
    )
    if r.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {r.stderr.decode().strip()}")
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], capture_output=True)


def fill(disk: Path, leave: int = 0) -> None:
    """Fill ``disk`` up to ``leave`` bytes."""
    st = os.statvfs(disk)
    with open(disk / "filler", "wb") as f:
        f.write(b"\0" * max(0, st.f_bavail * st.f_frsize - leave))


def program(
    args: list[Any], stdout: Any = subprocess.PIPE, **env: str
) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "dlxsat", *map(str, args)],
        stdout=stdout,
        stderr=subprocess.PIPE,
        env={**ENV, **env},
        timeout=120,
        text=True,
    )


@pytest.mark.slow
@pytest.mark.parametrize("unbuffered", ["1", ""])
@pytest.mark.parametrize(
    ("args", "room"),
    [
        (["encode", "masyu", BIG_MASYU], 4096),
        (["solve", "xcc", "{q10}", "--all", "--backend", "dlx"], 4096),
        # (4 s: under a load of 12 on 2 cores, Python's start-up, which the limit counts, took
        # a second, and a run stopped before its search has nothing to write)
        (["dlx", "{q16}", "--all", "--timeout", "4"], 0),
    ],
    ids=["encode", "solve --all", "dlx --timeout"],
)
def test_stdout_to_a_full_tmpfs(small_disk, queens, args, room: int, unbuffered: str) -> None:
    """The commands of the issue, as a user ran them: ``> full/out.txt`` on a disk with
    ``room`` bytes left."""
    args = [str(a).format(q10=queens[10], q16=queens[16]) for a in args]
    fill(small_disk, room)
    with open(small_disk / "out.txt", "w") as sink:
        r = program(args, stdout=sink, PYTHONUNBUFFERED=unbuffered)
    assert r.returncode == 2, r.stderr
    line = one_error(r.stderr, "cannot write to stdout: " + NO_SPACE)
    if "--timeout" in args:
        assert "the time limit of 4 s was reached" in line


@pytest.mark.slow
@pytest.mark.parametrize(
    "args",
    [
        [*CORPUS, "-o", "{disk}/cnf"],
        ["compare", "sudoku", SUDOKU, "--settings", "dlx", "--quiet", "-o", "{disk}/s.jsonl"],
    ],
    ids=["export a corpus", "compare"],
)
def test_files_to_a_full_tmpfs(small_disk, args) -> None:
    """A corpus export and a compare store on a full disk: one line naming what could not be
    written, exit 2, and nothing left on the disk but what filled it."""
    fill(small_disk, 0)
    r = program([str(a).format(disk=small_disk) for a in args])
    assert r.returncode == 2, r.stderr
    one_error(r.stderr, f"{small_disk}/", NO_SPACE)
    assert sorted(p.name for p in small_disk.iterdir()) == ["filler"]
