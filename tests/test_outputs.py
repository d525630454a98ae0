"""The output side, as tests/test_fuzz.py covers the input side: every command that writes a
file (``-o``, ``--svg``, ``--png``, ``--plot-out``, ``report -o``) against every kind of thing
the path can name, and stdout closed or full for the commands that print.

Promises: a regular file (or a new path) is replaced whole (temporary file + rename, nothing
left beside it); a symbolic link keeps being a link and its target is written; a device, a FIFO
is written in place and stays what it was; a failure (a full disk, a directory, a folder that
cannot be written or does not exist, a closed or full stdout) is one line on stderr and exit 2,
no traceback, no temporary file; with stderr closed nothing goes to stdout.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from conftest import ROOT
from stores import record, write_store

from dlxsat import outputs
from dlxsat.errors import InputError
from dlxsat.outputs import atomic_output

MASYU = ROOT / "puzzles" / "masyu" / "tatham-10x10.txt"
SUDOKU = ROOT / "puzzles" / "sudoku" / "tatham-4x4-1.txt"
ENV = dict(os.environ, PYTHONPATH=str(ROOT / "src"))

# --------------------------------------------------------------------------- the targets


def _device(folder: Path, name: str, minor: int) -> Path:
    """A character device like /dev/null (minor 3) or /dev/full (minor 7) inside ``folder``:
    made with mknod where allowed (root), else the system's own (which only root could replace,
    so a test of the old behaviour cannot damage it)."""
    path = folder / name
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, minor))
    except (PermissionError, OSError):
        return Path("/dev/null" if minor == 3 else "/dev/full")
    return path


def _unwritable_folder(tmp_path: Path) -> Path:
    """A folder this process cannot create files in (root ignores modes: /sys refuses it)."""
    if os.geteuid() == 0:
        return Path("/sys")
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o500)
    return folder


def _kind(path: Path) -> str:
    mode = os.lstat(path).st_mode
    for test, name in (
        (stat.S_ISLNK, "link"),
        (stat.S_ISCHR, "chr"),
        (stat.S_ISFIFO, "fifo"),
        (stat.S_ISREG, "file"),
    ):
        if test(mode):
            return name
    return "other"


def _temp_files(folder: Path) -> list[str]:
    return [p.name for p in folder.iterdir() if p.name.startswith(".dlxsat-")]


# --------------------------------------------------------------------------- atomic_output


def test_a_regular_file_is_replaced_whole(tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    out.write_text("old\n")
    with atomic_output(str(out)) as f:
        f.write("new\n")
        assert out.read_text() == "old\n"  # not touched until the block ends
    assert out.read_text() == "new\n" and _temp_files(tmp_path) == []


def test_a_symlink_stays_a_link_and_its_target_is_written(tmp_path: Path) -> None:
    target = tmp_path / "sub" / "target.txt"
    target.parent.mkdir()
    target.write_text("old\n")
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    with atomic_output(str(link)) as f:
        f.write("new\n")
    assert _kind(link) == "link" and target.read_text() == "new\n"
    assert _temp_files(tmp_path) == [] and _temp_files(target.parent) == []


def test_a_dangling_symlink_creates_its_target(tmp_path: Path) -> None:
    link = tmp_path / "link.txt"
    link.symlink_to(tmp_path / "missing.txt")
    with atomic_output(str(link)) as f:
        f.write("x\n")
    assert _kind(link) == "link" and (tmp_path / "missing.txt").read_text() == "x\n"


def test_a_device_is_written_in_place(tmp_path: Path) -> None:
    null = _device(tmp_path, "null", 3)
    with atomic_output(str(null)) as f:
        f.write("discarded\n")
    assert _kind(null) == "chr"
    assert outputs.resolve_output(str(null)) == (str(null), True)


def test_a_fifo_is_written_in_place(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    with atomic_output(str(fifo)) as f:
        f.write("through the pipe\n")
    reader.join(10)
    assert got == [b"through the pipe\n"] and _kind(fifo) == "fifo"
    assert _temp_files(tmp_path) == []


def test_a_full_device_is_one_error_and_stays_a_device(tmp_path: Path) -> None:
    full = _device(tmp_path, "full", 7)
    with pytest.raises(InputError, match="No space left on device"):
        with atomic_output(str(full)) as f:
            f.write("x" * 100_000)
    assert _kind(full) == "chr" and _temp_files(tmp_path) == []


@pytest.mark.parametrize("where", ["directory", "missing folder", "unwritable folder"])
def test_a_path_that_cannot_be_written_is_one_error(tmp_path: Path, where: str) -> None:
    path = {
        "directory": tmp_path,
        "missing folder": tmp_path / "no" / "out.txt",
        "unwritable folder": _unwritable_folder(tmp_path) / "out.txt",
    }[where]
    with pytest.raises(InputError) as e:
        with atomic_output(str(path)) as f:
            f.write("x")
    assert str(e.value).startswith(str(path)) and "\n" not in str(e.value)
    assert _temp_files(tmp_path) == []


# --------------------------------------------------------------------------- every command


def _store(tmp_path: Path) -> Path:
    records = [record(f"p{k}.txt", s, "unique", 0.1 * k + 0.1) for k in range(3) for s in "ab"]
    return write_store(tmp_path / "store.jsonl", records)


#: Every command that writes a file, with {out} where the path goes.
WRITERS = {
    "export -o": ["export", "dimacs", "masyu", str(MASYU), "-o", "{out}"],
    "convert -o": ["convert", "sudoku", str(SUDOKU), "--to", "oneline", "-o", "{out}"],
    "solve --svg": ["solve", "masyu", str(MASYU), "--quiet", "--svg", "{out}"],
    "solve --png": ["solve", "sudoku", str(SUDOKU), "--quiet", "--png", "{out}"],
    "report -o": ["report", "{store}", "-o", "{out}"],
    "report --plot-out": ["report", "{store}", "--plot", "cactus", "--plot-out", "{out}"],
}
SUFFIX = {"solve --svg": ".svg", "solve --png": ".png", "report --plot-out": ".svg"}


def _args(name: str, out: Path, store: Path) -> list[str]:
    return [w.format(out=out, store=store) for w in WRITERS[name]]


@pytest.mark.parametrize("name", WRITERS)
@pytest.mark.parametrize("target", ["new", "regular", "symlink", "device", "fifo"])
def test_every_writer_keeps_what_the_path_names(
    cli_run, tmp_path: Path, name: str, target: str
) -> None:
    suffix = SUFFIX.get(name, ".txt")
    real = tmp_path / "real" / f"out{suffix}"
    real.parent.mkdir()
    out = real
    if target == "regular":
        real.write_text("old")
    elif target == "symlink":
        out = tmp_path / f"link{suffix}"
        out.symlink_to(real)
    elif target == "device":
        out = _device(tmp_path, f"null{suffix}", 3)
    got: list[bytes] = []
    if target == "fifo":
        os.mkfifo(real)
        reader = threading.Thread(target=lambda: got.append(real.read_bytes()), daemon=True)
        reader.start()
    rc, _, err = cli_run(_args(name, out, _store(tmp_path)))
    assert rc == 0, err
    if target == "fifo":
        reader.join(30)
        assert got and len(got[0]) > 10 and _kind(real) == "fifo"
    elif target == "device":
        assert _kind(out) == "chr"
    else:
        assert _kind(real) == "file" and real.stat().st_size > 10
        assert real.read_bytes() != b"old"
    if target == "symlink":
        assert _kind(out) == "link" and os.readlink(out) == str(real)
    assert _temp_files(tmp_path) == [] and _temp_files(real.parent) == []


@pytest.mark.parametrize("name", WRITERS)
@pytest.mark.parametrize("target", ["full device", "directory", "unwritable folder"])
def test_every_writer_fails_in_one_line(cli_run, tmp_path: Path, name: str, target: str) -> None:
    suffix = SUFFIX.get(name, ".txt")
    out = {
        "full device": lambda: _device(tmp_path, f"full{suffix}", 7),
        "directory": lambda: Path(str(tmp_path / "dir") + suffix),
        "unwritable folder": lambda: _unwritable_folder(tmp_path) / f"out{suffix}",
    }[target]()
    if target == "directory":
        out.mkdir()
    rc, stdout, err = cli_run(_args(name, out, _store(tmp_path)))
    assert rc == 2, err
    lines = err.rstrip("\n").split("\n")
    assert lines[-1].startswith("dlxsat: error: ") and str(out) in lines[-1], err
    assert all(line.startswith("dlxsat: ") for line in lines) and "Traceback" not in err
    assert _temp_files(tmp_path) == []
    if target == "full device":
        assert _kind(out) == "chr" and "No space left" in lines[-1]


# --------------------------------------------------------------------------- standard streams

SUDOKU_LINE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
BATCH = (SUDOKU_LINE + "\n") * 3

#: Commands that print on stdout, with the input they read on stdin.
PRINTERS = {
    "solve": (["solve", "masyu", str(MASYU)], ""),
    "solve --json": (["solve", "masyu", str(MASYU), "--json"], ""),
    "solve batch": (["solve", "sudoku", "-"], BATCH),
    "solve batch --json": (["solve", "sudoku", "-", "--json"], BATCH),
    "compare": (
        ["compare", "sudoku", str(SUDOKU), "--settings", "dlx", "--quiet", "-o", "{store}"],
        "",
    ),
}


def _program(args: list[str], stdin: str, **streams) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "dlxsat", *args],
        input=stdin.encode(),
        env=ENV,
        timeout=120,
        **streams,
    )


@pytest.mark.slow
@pytest.mark.parametrize("stdout", ["closed", "full"])
@pytest.mark.parametrize("name", PRINTERS)
def test_a_closed_or_full_stdout_is_one_line(tmp_path: Path, name: str, stdout: str) -> None:
    args, stdin = PRINTERS[name]
    args = [w.format(store=tmp_path / "store.jsonl") for w in args]
    full = _device(tmp_path, "full", 7)
    with open(full, "w") as sink:
        if stdout == "closed":  # the child starts without descriptor 1, as after `>&-`
            streams = dict(stdout=None, pass_fds=(), preexec_fn=lambda: os.close(1))
        else:
            streams = dict(stdout=sink)
        r = _program(args, stdin, stderr=subprocess.PIPE, **streams)
    err = r.stderr.decode()
    assert r.returncode == 2, err
    assert err.count("\n") == 1 and err.startswith("dlxsat: error: "), err
    want = "stdout is closed" if stdout == "closed" else "cannot write to stdout: No space left"
    assert want in err
    if name == "compare":  # the jobs ran and were stored before the summary failed
        assert (tmp_path / "store.jsonl").read_text().count("\n") == 1
    assert _kind(full) == "chr"


@pytest.mark.slow
def test_a_closed_stderr_sends_nothing_to_stdout(tmp_path: Path) -> None:
    r = _program(
        ["solve", "masyu", str(tmp_path / "missing.txt")],
        "",
        stdout=subprocess.PIPE,
        preexec_fn=lambda: os.close(2),
    )
    assert r.returncode == 2 and r.stdout == b""
