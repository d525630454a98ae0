"""Cactus plot of a ``benchmarks/loops.py --csv`` run, as a standalone SVG.

A cactus plot compares settings over a set of puzzles: each setting's times on the puzzles it
solved are sorted, and the k-th point is (k, k-th smallest time). A curve further right solved
more puzzles; a lower curve solved them faster. The y axis (seconds) is logarithmic because the
times span several orders of magnitude. The SVG is written by hand, so plotting needs nothing
beyond the standard library (matplotlib is not a dependency).

    python benchmarks/loops.py --set encodings --csv runs.csv
    python benchmarks/plot.py runs.csv -o encodings.svg [--metric solve] [--title TEXT]

A run counts as solved when its ``result`` is an answer count (``unique``, ``2``, ``2+``):
timeouts and errors are left out, and so is a solved run whose time cell is empty (a backend
that does not report that time).
"""

from __future__ import annotations

import argparse
import csv
import math
import os
import re
import sys
import tempfile
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from dlxsat.errors import InputError  # noqa: E402

METRICS = ("total", "solve")
#: Columns every plot needs; the metric's column is checked as well.
REQUIRED = ("puzzle", "setting", "result")
#: Times below this (seconds) are drawn at it: a log scale has no zero.
FLOOR = 1e-4
#: Line colours (Okabe–Ito, readable by colour-blind readers), then dash patterns once the
#: colours run out, so up to 40 settings stay distinguishable.
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442")
DASHES = ("", "6 3", "2 2", "8 3 2 3")

_SOLVED = re.compile(r"unique|\d+\+?")


def read_rows(path: str | Path, metric: str = "total") -> list[dict[str, str]]:
    """The rows of a ``loops.py --csv`` file, checked to have the columns a plot of ``metric``
    needs; raises InputError (one line) if the file is unreadable or lacks a column."""
    try:
        with open(path, newline="", encoding="utf-8") as f:
            reader = csv.DictReader(f)
            header = reader.fieldnames or []
            missing = [c for c in (*REQUIRED, metric) if c not in header]
            if missing:
                raise InputError(f"{path}: missing column(s) {', '.join(missing)}")
            rows = list(reader)
    except (OSError, UnicodeDecodeError, csv.Error) as e:
        raise InputError(f"{path}: cannot read CSV: {e}") from None
    return rows


def is_solved(result: str) -> bool:
    """True for an answer count, false for a timeout or an error.

    >>> [is_solved(r) for r in ("unique", "2+", "timeout", "error: boom", "")]
    [True, True, False, False, False]
    """
    return _SOLVED.fullmatch(result.strip()) is not None


def cactus_series(rows: list[dict[str, str]], metric: str = "total") -> dict[str, list[float]]:
    """For each setting (in order of first appearance), the sorted ``metric`` times of its
    solved runs. Every setting gets an entry, even with no solved run, so the legend can say so.

    >>> rows = [{"setting": "a", "result": "unique", "total": "2"},
    ...         {"setting": "a", "result": "timeout", "total": "5"},
    ...         {"setting": "a", "result": "unique", "total": "1"},
    ...         {"setting": "b", "result": "error: x", "total": ""}]
    >>> cactus_series(rows)
    {'a': [1.0, 2.0], 'b': []}
    """
    series: dict[str, list[float]] = {}
    for line, row in enumerate(rows, start=2):  # line 1 is the header
        times = series.setdefault(row.get("setting") or "", [])
        cell = (row.get(metric) or "").strip()
        if not is_solved(row.get("result") or "") or not cell:
            continue
        try:
            t = float(cell)
        except ValueError:
            raise InputError(f"line {line}: {metric} is not a number: {cell!r}") from None
        if not math.isfinite(t) or t < 0:
            raise InputError(f"line {line}: {metric} is not a time: {cell!r}")
        times.append(t)
    for times in series.values():
        times.sort()
    return series


def _decades(series: dict[str, list[float]]) -> tuple[int, int]:
    """The powers of ten bounding every time (at least one decade apart)."""
    times = [max(t, FLOOR) for ts in series.values() for t in ts] or [FLOOR, 1.0]
    lo = math.floor(math.log10(min(times)))
    hi = math.ceil(math.log10(max(times)))
    return lo, max(hi, lo + 1)


def _nice_step(n: int) -> int:
    """The smallest of 1, 2, 5, 10, 20, 50, ... giving at most 10 ticks over 0..n.

    >>> [_nice_step(n) for n in (3, 10, 11, 40, 99, 250)]
    [1, 1, 2, 5, 10, 50]
    """
    base = 1
    while True:
        for m in (1, 2, 5):
            if n <= 10 * base * m:
                return base * m
        base *= 10


def _tick_label(exponent: int) -> str:
    """``10**exponent`` written plainly: 0.001, 1, 100."""
    return f"{10.0**exponent:.{max(0, -exponent)}f}"


def render_svg(series: dict[str, list[float]], title: str, metric: str = "total") -> str:
    """A standalone SVG cactus plot of ``series`` (from :func:`cactus_series`): one polyline
    (and point markers) per setting with at least one solved run, and a legend naming every
    setting with its number solved."""
    left, top, bottom = 70, 50, 60
    # Taller when the legend (18 px a setting, e.g. ``--set all``) would not fit beside the plot.
    width, height = 900, max(520, top + 20 + 18 * len(series) + bottom)
    label_w = max((len(s) for s in series), default=0) + 12  # "name (N solved)"
    right = min(20 + 25 + 7 * label_w, 420)
    pw, ph = width - left - right, height - top - bottom
    n_max = max((len(ts) for ts in series.values()), default=0)
    x_max = max(n_max, 1)
    lo, hi = _decades(series)

    def x(k: float) -> float:
        return left + pw * k / x_max

    def y(t: float) -> float:
        return top + ph * (hi - math.log10(max(t, FLOOR))) / (hi - lo)

    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{width / 2:.1f}" y="28" text-anchor="middle" font-size="16">'
        f"{escape(title)}</text>",
    ]
    # Grid and tick labels: every decade on y, round steps on x.
    for e in range(lo, hi + 1):
        yy = y(10.0**e)
        out.append(
            f'<line x1="{left}" y1="{yy:.1f}" x2="{left + pw}" y2="{yy:.1f}" stroke="#ddd"/>'
        )
        out.append(
            f'<text x="{left - 6}" y="{yy + 4:.1f}" text-anchor="end">{_tick_label(e)}</text>'
        )
    step = _nice_step(x_max)
    for k in range(0, x_max + 1, step):
        xx = x(k)
        out.append(f'<line x1="{xx:.1f}" y1="{top}" x2="{xx:.1f}" y2="{top + ph}" stroke="#eee"/>')
        out.append(f'<text x="{xx:.1f}" y="{top + ph + 18}" text-anchor="middle">{k}</text>')
    out.append(
        f'<rect x="{left}" y="{top}" width="{pw}" height="{ph}" fill="none" stroke="black"/>'
    )
    out.append(
        f'<text x="{left + pw / 2:.1f}" y="{height - 15}" text-anchor="middle">'
        "number of puzzles solved</text>"
    )
    out.append(
        f'<text x="18" y="{top + ph / 2:.1f}" text-anchor="middle" '
        f'transform="rotate(-90 18 {top + ph / 2:.1f})">{escape(metric)} time (s, log scale)</text>'
    )
    # Curves, then the legend beside the plot.
    lx, ly = left + pw + 20, top + 10
    for i, (setting, times) in enumerate(series.items()):
        colour = COLOURS[i % len(COLOURS)]
        dash = DASHES[(i // len(COLOURS)) % len(DASHES)]
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        if times:
            points = " ".join(f"{x(k):.1f},{y(t):.1f}" for k, t in enumerate(times, start=1))
            out.append(
                f'<polyline data-setting={quoteattr(setting)} points="{points}" fill="none" '
                f'stroke="{colour}" stroke-width="1.8"{dash_attr}/>'
            )
            out.extend(
                f'<circle cx="{x(k):.1f}" cy="{y(t):.1f}" r="2.2" fill="{colour}"/>'
                for k, t in enumerate(times, start=1)
            )
        yy = ly + 18 * i
        out.append(
            f'<line x1="{lx}" y1="{yy}" x2="{lx + 20}" y2="{yy}" stroke="{colour}" '
            f'stroke-width="2"{dash_attr}/>'
        )
        out.append(
            f'<text class="legend" x="{lx + 25}" y="{yy + 4}">'
            f"{escape(setting)} ({len(times)} solved)</text>"
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def write_whole(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file and a rename (never half-written)."""
    target = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=target.name + ".", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("csv", help="a CSV written by benchmarks/loops.py --csv")
    ap.add_argument("-o", "--output", required=True, help="the SVG file to write")
    ap.add_argument("--metric", choices=METRICS, default="total", help="which time to plot")
    ap.add_argument("--title", help="plot title (default: names the metric and the CSV)")
    a = ap.parse_args(argv)
    try:
        series = cactus_series(read_rows(a.csv, a.metric), a.metric)
        if not series:
            raise InputError(f"{a.csv}: no runs")
        title = a.title or f"Cactus plot: {a.metric} seconds per solved puzzle ({Path(a.csv).name})"
        write_whole(a.output, render_svg(series, title, a.metric))
    except InputError as e:
        print(f"plot.py: error: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"plot.py: error: {a.output}: {e.strerror or e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
