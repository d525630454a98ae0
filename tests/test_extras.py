"""A missing optional dependency is one line naming the ``pip install`` to run, the same line
for every feature: pictures (``solve --png``/``--svg``), plots (``report --plot``), ``compare
--dask`` and progress bars. Each library is made missing with ``sys.modules[name] = None``,
which makes ``import name`` fail as if it were not installed."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from dlxsat import extras
from dlxsat.cli import main
from dlxsat.errors import InputError

ROOT = Path(__file__).resolve().parents[1]
PUZZLE = str(ROOT / "puzzles/masyu/tatham-10x10.txt")
#: The uniform line, for any feature, library and extra.
LINE = re.compile(
    r"^dlxsat: (error|note): \S.*: (\w+) is not installed; run: pip install 'dlxsat\[(\w+)\]'$"
)


def hide(monkeypatch: pytest.MonkeyPatch, module: str) -> None:
    """Make ``module`` and every submodule of it impossible to import for this test."""
    for name in [m for m in sys.modules if m == module or m.startswith(module + ".")]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setitem(sys.modules, module, None)


def one_line(err: str, library: str, extra: str) -> str:
    assert err.count("\n") == 1, err
    match = LINE.match(err.rstrip("\n"))
    assert match, err
    assert match.group(2, 3) == (library, extra)
    return match.group(1)


def test_every_extra_named_is_declared_in_pyproject() -> None:
    text = (ROOT / "pyproject.toml").read_text()
    section = text.split("[project.optional-dependencies]")[1].split("\n[")[0]
    declared = {
        m.group(1): m.group(2) for m in re.finditer(r"^([\w-]+) = \[(.*?)\]", section, re.M | re.S)
    }
    for module, extra in extras.EXTRAS.items():
        assert extra in declared, extra
        assert f'"{module}' in declared[extra], (module, declared[extra])


def test_need_and_wanted(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    hide(monkeypatch, "tqdm")
    with pytest.raises(InputError) as caught:
        extras.need("tqdm", "progress bars")
    assert str(caught.value) == (
        "progress bars: tqdm is not installed; run: pip install 'dlxsat[progress]'"
    )
    monkeypatch.setattr(extras, "_noted", set())
    assert extras.wanted("tqdm", "progress bars") is None
    assert extras.wanted("tqdm", "progress bars") is None  # the note is given once
    assert one_line(capsys.readouterr().err, "tqdm", "progress") == "note"
    monkeypatch.undo()
    assert extras.wanted("tqdm", "progress bars") is not None  # installed: no note
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("flag", ["--png", "--svg"])
def test_solve_picture_without_matplotlib(flag, monkeypatch, tmp_path, capsys) -> None:
    hide(monkeypatch, "matplotlib")
    out_file = tmp_path / ("m." + flag[2:])
    code = main(["solve", "masyu", PUZZLE, flag, str(out_file)])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert one_line(err, "matplotlib", "plot") == "error"
    assert err.startswith(f"dlxsat: error: {flag}: ")
    assert not out_file.exists() and list(tmp_path.iterdir()) == []


def test_report_plot_without_matplotlib(monkeypatch, tmp_path, capsys) -> None:
    store = tmp_path / "r.jsonl"
    assert (
        main(
            [
                "compare",
                "sudoku",
                str(ROOT / "puzzles/sudoku/tatham-9x9-1.txt"),
                "--settings",
                "dlx",
                "-o",
                str(store),
                "--quiet",
                "--jobs",
                "1",
            ]
        )
        == 0
    )
    capsys.readouterr()
    hide(monkeypatch, "matplotlib")
    code = main(["report", str(store), "--plot", "cactus", "--plot-out", str(tmp_path / "c.svg")])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert one_line(err, "matplotlib", "plot") == "error"
    assert not (tmp_path / "c.svg").exists()


def test_compare_dask_without_distributed(monkeypatch, tmp_path, capsys) -> None:
    hide(monkeypatch, "distributed")
    code = main(
        [
            "compare",
            "sudoku",
            str(ROOT / "puzzles/sudoku/tatham-9x9-1.txt"),
            "--settings",
            "dlx",
            "--dask",
            "tcp://127.0.0.1:1",
            "-o",
            str(tmp_path / "r.jsonl"),
            "--quiet",
        ]
    )
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert one_line(err, "distributed", "dask") == "error"
    assert err.startswith("dlxsat: error: --dask: ")


def test_compare_progress_bar_without_tqdm(monkeypatch, capsys) -> None:
    from dlxsat.compare.runner import Progress

    hide(monkeypatch, "tqdm")
    monkeypatch.setattr(extras, "_noted", set())
    assert Progress(3, quiet=False).bar is None  # the run goes on without a bar
    assert one_line(capsys.readouterr().err, "tqdm", "progress") == "note"
    assert Progress(3, quiet=True).bar is None
    assert capsys.readouterr().err == ""  # --quiet: no bar, so nothing to say


def test_no_other_optional_import_bypasses_extras() -> None:
    """Every import of an optional library in src/ that is guarded goes through dlxsat.extras,
    so its message cannot drift from the others."""
    for path in (ROOT / "src/dlxsat").rglob("*.py"):
        if path.name == "extras.py":
            continue
        text = path.read_text()
        for module in extras.EXTRAS:
            guarded = re.search(
                rf"try:\n\s+(import|from) {module}\b[^\n]*\n(\s+[^\n]*\n)*?\s+except ImportError",
                text,
            )
            assert guarded is None, f"{path}: guards the import of {module} itself"


def test_solve_many_progress_bar_without_tqdm(monkeypatch, tmp_path, capsys) -> None:
    many = tmp_path / "many.txt"
    many.write_text("4..3.3....1.1..2\n" * 20)  # 20 puzzles: enough for a bar on a terminal
    hide(monkeypatch, "tqdm")
    monkeypatch.setattr(extras, "_noted", set())
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    assert main(["solve", "sudoku", str(many), "--backend", "dlx"]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines()[0].startswith("1 unique ") and len(out.splitlines()) == 20
    assert one_line(err, "tqdm", "progress") == "note"
