"""Figures from a results store of ``dlxsat compare``, drawn with matplotlib (issue 13, item 5).

Three kinds, as in SAT-competition reports:

``cactus``
    for each setting, its solved jobs' times sorted: the k-th point is (k, k-th smallest time).
    A curve further right solved more puzzles; a lower one solved them faster.
``scatter``
    one point per puzzle both settings ran: the time of ``--x`` against the time of ``--y``,
    log-log, with the diagonal; a job that did not finish is drawn on the border, at the time
    limit. Points below the diagonal are puzzles ``--y`` solved faster.
``size``
    time against board size (rows × columns of the record): for each setting its jobs as
    points and a line through the median time at each size (an unsolved job counted at the
    time limit, so the line never hides a failure).

matplotlib is optional (``pip install 'dlxsat[plot]'``) and imported only here, when a figure
is drawn; figures use the Agg canvas and never pyplot, so nothing global changes. The file's
extension (``.png`` or ``.svg``) chooses the format; SVG keeps its text as text, so a figure
can be searched and its legend read back.
"""

from __future__ import annotations

import statistics
from pathlib import Path
from typing import Any

from .errors import InputError
from .extras import need
from .report import Store, by_setting, is_solved, puzzle_of, time_limit

KINDS = ("cactus", "scatter", "size")
EXTENSIONS = (".png", ".svg")
#: Times below this (seconds) are drawn at it: a log axis has no zero.
FLOOR = 1e-3
#: Figure size in inches and resolution: a PNG is 800 × 500 pixels.
FIGSIZE, DPI = (8.0, 5.0), 100
#: After the ten colours of matplotlib's cycle, the dash pattern changes, so up to 40 settings
#: stay apart.
LINESTYLES = ("-", "--", "-.", ":")


def _figure() -> Any:
    """A new matplotlib Figure on the Agg canvas, or a one-line error if matplotlib is absent."""
    FigureCanvasAgg = need("matplotlib.backends.backend_agg", "plots").FigureCanvasAgg
    Figure = need("matplotlib.figure", "plots").Figure
    fig = Figure(figsize=FIGSIZE, dpi=DPI)
    FigureCanvasAgg(fig)
    return fig


def _style(i: int) -> dict[str, Any]:
    """Colour and dash pattern of the ``i``-th setting."""
    return {"color": f"C{i % 10}", "linestyle": LINESTYLES[(i // 10) % len(LINESTYLES)]}


def _seconds(record: dict[str, Any]) -> float:
    return max(float(record["wall_seconds"]), FLOOR)


def _penalty_time(record: dict[str, Any], timeout: float | None) -> float:
    """Where an unsolved job is drawn: at its time limit (``timeout`` when its record has
    none); without any limit there is no border to draw it on."""
    limit = time_limit(record, timeout)
    if limit is None:
        raise InputError(
            f"job on {record['puzzle']} ended '{record['status']}' and its record has no time "
            "limit; give --timeout S to place it on the plot"
        )
    return limit


def _setting(groups: dict[str, list[dict[str, Any]]], name: str | None, flag: str) -> str:
    if name is None:
        raise InputError(f"--plot scatter needs {flag} SETTING (one of: {', '.join(groups)})")
    if name not in groups:
        raise InputError(
            f"unknown setting {name!r} for {flag} (the store has: {', '.join(groups)})"
        )
    return name


def cactus(store: Store, title: str | None = None) -> Any:
    """The cactus plot of ``store``: one line per setting (a setting that solved nothing is
    still in the legend, with 0 solved)."""
    groups = by_setting(store.records)
    fig = _figure()
    ax = fig.add_subplot()
    most = 1
    for i, (setting, records) in enumerate(groups.items()):
        times = sorted(_seconds(r) for r in records if is_solved(r))
        most = max(most, len(times))
        ax.plot(
            range(1, len(times) + 1),
            times,
            marker="o",
            markersize=3,
            label=f"{setting} ({len(times)}/{len(records)} solved)",
            gid=f"setting-{i}",
            **_style(i),
        )
    from matplotlib.ticker import MaxNLocator

    ax.set_yscale("log")
    ax.set_xlim(0, most + 1)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # a count of puzzles
    ax.set_xlabel("puzzles solved")
    ax.set_ylabel("wall time per puzzle (s, log scale)")
    puzzles = len({puzzle_of(r) for r in store.records})
    ax.set_title(title or f"Cactus plot: {len(groups)} settings on {puzzles} puzzles")
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(loc="upper left", fontsize="small")
    fig.tight_layout()
    return fig


def scatter(
    store: Store,
    x: str | None,
    y: str | None,
    timeout: float | None = None,
    title: str | None = None,
) -> Any:
    """Settings ``x`` and ``y`` puzzle by puzzle, log-log, unsolved jobs on the border."""
    groups = by_setting(store.records)
    x = _setting(groups, x, "--x")
    y = _setting(groups, y, "--y")
    if x == y:
        raise InputError(f"--x and --y name the same setting {x!r}")

    def key(r: dict[str, Any]) -> tuple[Any, Any]:
        return (puzzle_of(r), r.get("mode"))

    ys = {key(r): r for r in groups[y]}
    pairs = [(r, ys[key(r)]) for r in groups[x] if key(r) in ys]
    if not pairs:
        raise InputError(f"settings {x!r} and {y!r} have no puzzle in common")
    border = 0.0
    for rx, ry in pairs:
        for r in (rx, ry):
            if not is_solved(r):
                border = max(border, _penalty_time(r, timeout))
    finished: list[tuple[float, ...]] = []
    unfinished: list[tuple[float, ...]] = []
    for rx, ry in pairs:
        point = tuple(_seconds(r) if is_solved(r) else border for r in (rx, ry))
        (finished if is_solved(rx) and is_solved(ry) else unfinished).append(point)
    every = [t for p in finished + unfinished for t in p]
    lo, hi = min(every) / 2, max(every) * 2
    fig = _figure()
    ax = fig.add_subplot()
    ax.plot([lo, hi], [lo, hi], color="0.5", linestyle="--", linewidth=1, gid="diagonal")
    if border:
        # The border: where a job that did not finish in time is drawn.
        ax.axvline(border, color="0.7", linewidth=1, gid="limit-x")
        ax.axhline(border, color="0.7", linewidth=1, gid="limit-y")
    if finished:
        ax.scatter(
            *zip(*finished, strict=True), s=16, color="C0", label="both solved", gid="solved"
        )
    if unfinished:
        ax.scatter(
            *zip(*unfinished, strict=True),
            s=30,
            marker="x",
            color="C3",
            label="not solved (drawn at the time limit)",
            gid="unsolved",
        )
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(lo, hi)
    ax.set_ylim(lo, hi)
    ax.set_aspect("equal", adjustable="box")
    ax.set_xlabel(f"{x}: wall time (s)")
    ax.set_ylabel(f"{y}: wall time (s)")
    x_faster, y_faster = sum(a < b for a, b in finished), sum(b < a for a, b in finished)
    ax.set_title(
        title or f"{len(pairs)} puzzles: {x} faster on {x_faster}, {y} faster on {y_faster}"
    )
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(loc="upper left", fontsize="small")
    fig.tight_layout()
    return fig


def size_plot(store: Store, timeout: float | None = None, title: str | None = None) -> Any:
    """Wall time against board size (rows × columns), one median line per setting."""
    groups = by_setting(store.records)
    fig = _figure()
    ax = fig.add_subplot()
    drawn = 0
    for i, (setting, records) in enumerate(groups.items()):
        points: list[tuple[int, float]] = []
        for r in records:
            size = r.get("size")
            if not (
                isinstance(size, list) and len(size) == 2 and all(isinstance(v, int) for v in size)
            ):
                continue
            t = _seconds(r) if is_solved(r) else _penalty_time(r, timeout)
            points.append((size[0] * size[1], t))
        if not points:
            continue
        drawn += 1
        by_size: dict[int, list[float]] = {}
        for cells, t in points:
            by_size.setdefault(cells, []).append(t)
        sizes = sorted(by_size)
        style = _style(i)
        ax.scatter(*zip(*points, strict=True), s=10, alpha=0.5, color=style["color"])
        ax.plot(
            sizes,
            [statistics.median(by_size[s]) for s in sizes],
            marker="o",
            markersize=3,
            label=setting,
            gid=f"setting-{i}",
            **style,
        )
    if not drawn:
        raise InputError("no record has a board size (the store's 'size' field)")
    ax.set_xscale("log")
    sizes = sorted({c for line in ax.lines for c in line.get_xdata()})
    if len(sizes) <= 12:
        # The sizes measured, written plainly, rather than powers of ten between them.
        from matplotlib.ticker import NullFormatter

        ax.set_xticks(sizes, [str(c) for c in sizes])
        ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_yscale("log")
    ax.set_xlabel("board size (rows × columns, log scale)")
    ax.set_ylabel("wall time (s, log scale)")
    ax.set_title(title or "Median wall time by board size (unsolved jobs at the time limit)")
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(loc="upper left", fontsize="small")
    fig.tight_layout()
    return fig


def check_output(path: str | Path) -> str:
    """The format of output file ``path`` (``png`` or ``svg``), from its extension."""
    ext = Path(path).suffix.lower()
    if ext not in EXTENSIONS:
        raise InputError(f"{path}: a plot is written as .png or .svg, not {ext or 'no extension'}")
    return ext[1:]


def save(fig: Any, path: str | Path) -> None:
    """Write ``fig`` to ``path`` whole or not at all (a temporary file beside it, renamed)."""
    fmt = check_output(path)
    import matplotlib

    from .outputs import atomic_output

    # SVG text stays text (readable, searchable); no date, so the same figure gives the same
    # bytes; a fixed hash salt keeps the SVG's ids the same from run to run.
    rc: dict[str, Any] = {"svg.fonttype": "none", "svg.hashsalt": "dlxsat"}
    metadata = {"Date": None} if fmt == "svg" else {"Software": None}
    with atomic_output(str(path), binary=True) as f, matplotlib.rc_context(rc):  # type: ignore[arg-type]
        fig.savefig(f, format=fmt, metadata=metadata)


def draw(
    kind: str,
    store: Store,
    out: str | Path,
    *,
    x: str | None = None,
    y: str | None = None,
    timeout: float | None = None,
    title: str | None = None,
) -> None:
    """Draw the plot ``kind`` (one of :data:`KINDS`) of ``store`` into ``out`` (.png/.svg)."""
    check_output(out)  # before the drawing: a wrong name is told at once
    if kind == "cactus":
        fig = cactus(store, title)
    elif kind == "scatter":
        fig = scatter(store, x, y, timeout, title)
    elif kind == "size":
        fig = size_plot(store, timeout, title)
    else:
        raise InputError(f"unknown plot {kind!r} (choose from {', '.join(KINDS)})")
    save(fig, out)
