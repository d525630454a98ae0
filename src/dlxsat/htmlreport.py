"""``dlxsat report --html FILE``: a results store as one self-contained web page (issue 22).

BenchExec's table-generator showed what researchers share: one HTML file that opens in any
browser with no network and no server, tables that sort and filter, the plots beside them. This
page has

- the per-setting table of :func:`dlxsat.report.summarize` (solved, PAR-2, times, model sizes,
  disagreements; a setting with a disagreement is marked);
- a per-puzzle table: one row per puzzle (and mode), one column per setting with the job's
  status and wall time, the fastest setting and whether the settings agree; rows whose jobs
  disagree are marked, and every cell of a disagreeing job;
- the cactus plot and a scatter plot of the first setting against each other one (up to
  :data:`MAX_SCATTERS`), drawn by :mod:`dlxsat.plots` and embedded as inline SVG.

Clicking a column header sorts the rows by it (again: the other way); the text box hides the
rows that do not contain its text, and a check box keeps only disagreeing puzzles. CSS and
JavaScript are inline and a Content-Security-Policy forbids every request, so the page works
offline and sends nothing anywhere. Without matplotlib the page is written without plots and
says which ``pip install`` adds them.
"""

from __future__ import annotations

import html
import io
import re
from collections.abc import Callable
from typing import Any

from . import __version__
from .errors import InputError
from .extras import installed, missing_message
from .report import (
    _HEADERS,
    Row,
    Store,
    _cell,
    _columns,
    by_setting,
    disagreeing_jobs,
    group_key,
    is_solved,
    puzzle_of,
    time_limit,
)

#: Scatter plots drawn: the first setting against each of the next ones, at most this many
#: (a store of many settings would otherwise give a page of mostly plots).
MAX_SCATTERS = 3
#: What the page says where plots would be when matplotlib is not installed.
NO_PLOTS = missing_message("plots", "matplotlib")

#: Nothing is fetched: no network, no other file; only the inline style and script run.
CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"

CSS = """
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 1.6em; }
table { border-collapse: collapse; margin: 0.5em 0; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; }
th { background: #f0f0f0; cursor: pointer; user-select: none; white-space: nowrap; }
th[aria-sort="ascending"]::after { content: " \\25B2"; }
th[aria-sort="descending"]::after { content: " \\25BC"; }
td { white-space: nowrap; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.disagree td { background: #fde2e2; }
td.disagree { background: #f7a8a8 !important; font-weight: bold; }
td.unsolved { color: #a05000; }
td.best { font-weight: bold; }
.warning { color: #a00000; }
.note { color: #555; }
.controls { margin: 0.5em 0; }
.plots { display: flex; flex-wrap: wrap; gap: 1em; }
figure { margin: 0; flex: 1 1 480px; max-width: 800px; }
figure svg { width: 100%; height: auto; }
figcaption { text-align: center; color: #555; }
"""

# Sorting: numbers by their data-sort value (cells without one sort last), text by locale.
# A click on the sorted column reverses it. Filtering: a row stays when its text contains the
# box's text (case-insensitive) and, with the check box, when its puzzle's jobs disagree.
SCRIPT = """
"use strict";
function sortTable(table, col, th) {
  const body = table.tBodies[0];
  const numeric = th.dataset.type === "number";
  const dir = th.getAttribute("aria-sort") === "ascending" ? -1 : 1;
  for (const h of table.tHead.rows[0].cells) h.removeAttribute("aria-sort");
  th.setAttribute("aria-sort", dir === 1 ? "ascending" : "descending");
  const key = (row) => {
    const cell = row.cells[col];
    if (!numeric) return cell.textContent.trim();
    const v = parseFloat(cell.dataset.sort);
    return Number.isNaN(v) ? null : v;
  };
  const rows = Array.from(body.rows).map((row, i) => [key(row), i, row]);
  rows.sort((a, b) => {
    if (a[0] === b[0]) return a[1] - b[1];
    if (a[0] === null) return 1;
    if (b[0] === null) return -1;
    const c = numeric ? a[0] - b[0] : a[0].localeCompare(b[0], undefined, {numeric: true});
    return c === 0 ? a[1] - b[1] : dir * c;
  });
  for (const r of rows) body.appendChild(r[2]);
}
function filterPuzzles() {
  const text = document.getElementById("filter").value.trim().toLowerCase();
  const only = document.getElementById("only-disagree").checked;
  const body = document.getElementById("puzzles").tBodies[0];
  let shown = 0;
  for (const row of body.rows) {
    const keep = (!text || row.textContent.toLowerCase().includes(text)) &&
      (!only || row.classList.contains("disagree"));
    row.hidden = !keep;
    if (keep) shown += 1;
  }
  document.getElementById("shown").textContent = shown + " of " + body.rows.length + " shown";
}
document.addEventListener("DOMContentLoaded", () => {
  for (const table of document.querySelectorAll("table.sortable")) {
    Array.from(table.tHead.rows[0].cells).forEach((th, col) => {
      th.addEventListener("click", () => sortTable(table, col, th));
    });
  }
  document.getElementById("filter").addEventListener("input", filterPuzzles);
  document.getElementById("only-disagree").addEventListener("change", filterPuzzles);
  filterPuzzles();
});
"""


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _td(text: str, sort: float | None = None, classes: list[str] | None = None) -> str:
    attrs = ""
    if classes:
        attrs += f' class="{_e(" ".join(classes))}"'
    if sort is not None:
        attrs += f' data-sort="{sort!r}"'
    return f"<td{attrs}>{_e(text)}</td>"


def _th(text: str, numeric: bool) -> str:
    kind = "number" if numeric else "text"
    return f'<th data-type="{kind}" title="sort by {_e(text)}">{_e(text)}</th>'


def settings_table(rows: list[Row]) -> str:
    """The per-setting table, the columns of ``dlxsat report``'s Markdown table."""
    cols = _columns(rows)
    head = "".join(_th(_HEADERS[c], c != "setting") for c in cols)
    body = []
    for row in rows:
        cells = []
        for c in cols:
            value = getattr(row, c)
            text = _cell(c, row)
            if c == "setting":
                cells.append(_td(text))
            elif c == "solved":
                cells.append(_td(text, float(row.solved), ["num"]))
            elif c == "disagreements":
                cells.append(_td(text, float(value), ["num"] + (["disagree"] if value else [])))
            else:
                cells.append(_td(text, None if value is None else float(value), ["num"]))
        marked = ' class="disagree"' if row.disagreements else ""
        body.append(f"<tr{marked}>{''.join(cells)}</tr>")
    return (
        '<table id="settings" class="sortable"><thead><tr>'
        + head
        + "</tr></thead><tbody>"
        + "".join(body)
        + "</tbody></table>"
    )


def puzzles_table(store: Store, timeout: float | None = None) -> tuple[str, int, int]:
    """The per-puzzle table, with the number of puzzles and of puzzles whose jobs disagree.

    A job's cell sorts by its wall time when solved, and after every solved one otherwise (by
    twice its time limit, the PAR-2 penalty, so a time out sorts after a fast failure).
    """
    groups = by_setting(store.records)
    settings = list(groups)
    modes = len({r.get("mode") for r in store.records})
    bad = disagreeing_jobs(store.records)
    puzzles: dict[tuple[Any, ...], dict[str, dict[str, Any]]] = {}
    for r in store.records:
        key = (*puzzle_of(r), r.get("mode"))
        puzzles.setdefault(key, {})[group_key(r, modes)] = r
    head = [_th("puzzle", False), _th("family", False), _th("size", True)]
    head += [_th(s, True) for s in settings]
    head += [_th("fastest", False), _th("agree", False)]
    body = []
    disagreeing = 0
    for jobs in puzzles.values():
        first: dict[str, Any] = next(iter(jobs.values()))
        size = first.get("size")
        if isinstance(size, list) and len(size) == 2 and all(isinstance(v, int) for v in size):
            size_cell = _td(f"{size[0]}×{size[1]}", float(size[0] * size[1]), ["num"])
        else:
            size_cell = _td("")
        solved = {s: float(r["wall_seconds"]) for s, r in jobs.items() if is_solved(r)}
        fastest = min(solved, key=lambda s: solved[s]) if solved else None
        cells = [_td(first["puzzle"]), _td(first.get("family", "")), size_cell]
        for s in settings:
            if s not in jobs:
                cells.append(_td("—", None, ["num"]))
                continue
            r = jobs[s]
            seconds = float(r["wall_seconds"])
            classes = ["num"]
            if is_solved(r):
                sort: float = seconds
                if s == fastest and len(solved) > 1:
                    classes.append("best")
            else:
                limit = time_limit(r, timeout)
                sort = 1e12 + (2 * limit if limit is not None else seconds)
                classes.append("unsolved")
            if str(r["job"]) in bad:
                classes.append("disagree")
            cells.append(_td(f"{r['status']} {seconds:.3f} s", sort, classes))
        disagree = any(str(r["job"]) in bad for r in jobs.values())
        disagreeing += disagree
        cells.append(_td(fastest or ""))
        cells.append(_td("no" if disagree else "yes"))
        marked = ' class="disagree"' if disagree else ""
        body.append(f"<tr{marked}>{''.join(cells)}</tr>")
    table = (
        '<table id="puzzles" class="sortable"><thead><tr>'
        + "".join(head)
        + "</tr></thead><tbody>"
        + "".join(body)
        + "</tbody></table>"
    )
    return table, len(puzzles), disagreeing


_XML_HEAD = re.compile(r"\A\s*(<\?xml[^>]*\?>\s*)?(<!DOCTYPE[^>]*>\s*)?", re.S)
_METADATA = re.compile(r"<metadata>.*?</metadata>\s*", re.S)
_ID = re.compile(r'\bid="([^"]+)"')


def inline_svg(svg: str, prefix: str) -> str:
    """An SVG file's text made fit to sit inside an HTML page: no XML declaration or doctype,
    no metadata (it names the RDF vocabularies by address), and every id prefixed (with the
    references to it), so that two plots' ids never clash.

    >>> inline_svg('<?xml version="1.0"?><svg><clipPath id="a"/><g clip-path="url(#a)"/></svg>',
    ...            "p1-")
    '<svg><clipPath id="p1-a"/><g clip-path="url(#p1-a)"/></svg>'
    """
    svg = _METADATA.sub("", _XML_HEAD.sub("", svg, count=1), count=1)
    ids = set(_ID.findall(svg))
    if not ids:
        return svg

    def rename(m: re.Match[str]) -> str:
        name = m[2]
        return f"{m[1]}{prefix}{name}" if name in ids else m[0]

    svg = re.sub(r'(\bid=")([^"]+)(?=")', rename, svg)
    return re.sub(r"(#)([^\s\"')]+)(?=[\"')])", rename, svg)


def _figure_svg(fig: Any) -> str:
    import matplotlib

    out = io.StringIO()
    # As plots.save writes them: text as text, no date, ids the same from run to run.
    rc: dict[str, Any] = {"svg.fonttype": "none", "svg.hashsalt": "dlxsat"}
    with matplotlib.rc_context(rc):  # type: ignore[arg-type]
        fig.savefig(out, format="svg", metadata={"Date": None})
    return out.getvalue()


def plot_section(store: Store, timeout: float | None = None) -> str:
    """The figures: the cactus plot and the scatter plots, or a note saying why there are none.

    A plot that cannot be drawn (say, unsolved jobs with no time limit to place them at) is
    replaced by its one-line reason; the other plots are still drawn.
    """
    if installed("matplotlib") is None:
        return f'<p class="note" id="no-plots">{_e(NO_PLOTS)}</p>'
    from . import plots

    settings = list(by_setting(store.records))
    makers: list[tuple[str, str, Callable[[], Any]]] = [
        ("cactus", "Cactus plot", lambda: plots.cactus(store))
    ]
    for other in settings[1 : 1 + MAX_SCATTERS]:

        def scatter(other: str = other) -> Any:
            return plots.scatter(store, settings[0], other, timeout)

        makers.append((f"scatter-{len(makers)}", f"{settings[0]} against {other}", scatter))
    parts = []
    for name, caption, make in makers:
        try:
            svg = inline_svg(_figure_svg(make()), f"{name}-")
        except InputError as e:
            parts.append(f'<p class="note">{_e(caption)}: not drawn: {_e(e)}</p>')
            continue
        parts.append(
            f'<figure id="plot-{_e(name)}" class="plot">{svg}'
            f"<figcaption>{_e(caption)}</figcaption></figure>"
        )
    return f'<div class="plots">{"".join(parts)}</div>'


def render_html(
    rows: list[Row],
    store: Store,
    warnings: list[str],
    timeout: float | None = None,
    title: str | None = None,
) -> str:
    """The whole page: a self-contained HTML5 document."""
    title = title or "dlxsat report: " + ", ".join(store.paths)
    puzzles, n_puzzles, n_disagree = puzzles_table(store, timeout)
    notes = "".join(f'<li class="warning">{_e(w)}</li>' for w in warnings)
    disagree_note = (
        f'<p class="warning" id="disagreement-note">{n_disagree} puzzle'
        f"{'s' if n_disagree != 1 else ''} with jobs that disagree (marked in red).</p>"
        if n_disagree
        else '<p class="note">Every finished job agrees with the others on its puzzle.</p>'
    )
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta name="generator" content="dlxsat {_e(__version__)}">'
        f"<title>{_e(title)}</title><style>{CSS}</style><script>{SCRIPT}</script></head>"
        f"<body><h1>{_e(title)}</h1>"
        f'<p class="note">{len(store.records)} jobs, {len(rows)} settings, {n_puzzles} '
        f"puzzles, from {_e(', '.join(store.paths))}. PAR-2 counts an unsolved job as twice "
        "its time limit; times are wall seconds of the solved jobs. Click a column header to "
        "sort.</p>"
        + (f"<ul>{notes}</ul>" if notes else "")
        + disagree_note
        + "<h2>Settings</h2>"
        + settings_table(rows)
        + "<h2>Plots</h2>"
        + plot_section(store, timeout)
        + "<h2>Puzzles</h2>"
        + '<div class="controls"><label>Filter: <input type="search" id="filter" '
        'placeholder="text in the row" autocomplete="off"></label> '
        '<label><input type="checkbox" id="only-disagree"> only disagreements</label> '
        '<span id="shown" class="note"></span></div>' + puzzles + "</body></html>\n"
    )


def write_html(
    path: str,
    rows: list[Row],
    store: Store,
    warnings: list[str],
    timeout: float | None = None,
    title: str | None = None,
) -> None:
    """Write the page to ``path`` whole or not at all (see :mod:`dlxsat.outputs`)."""
    from .outputs import atomic_output

    page = render_html(rows, store, warnings, timeout, title)
    # Bytes, not the locale's encoding: the page says it is UTF-8.
    with atomic_output(path, binary=True) as f:
        f.write(page.encode("utf-8"))
