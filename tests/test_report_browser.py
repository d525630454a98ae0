"""``dlxsat report --html`` in a real browser: headless Chromium driven by Playwright.

Needs the ``browser`` test extra (``pip install -e '.[browser]'``, Playwright) and Debian's
``chromium`` (``apt-get install chromium``; Playwright's own browser downloads are never used).
Without them these tests are skipped -- unless ``DLXSAT_REQUIRE_BROWSER=1`` (as CI sets), when a
missing browser is a failure. The browser binary is ``$DLXSAT_CHROMIUM`` or /usr/bin/chromium.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from stores import FORTY_SETTINGS, forty_puzzles, write_store

from dlxsat.cli import main

CHROMIUM = os.environ.get("DLXSAT_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
REQUIRED = os.environ.get("DLXSAT_REQUIRE_BROWSER") == "1"
#: A generous bound on the page's load time in a test (a busy 2-core machine): the issue asks
#: for under a second, which benchmarks/htmlreport.py measures.
LOAD_BOUND_MS = 5000


def _missing() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright is not installed (pip install -e '.[browser]')"
    if not os.path.exists(CHROMIUM):
        return f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    return None


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    reason = _missing()
    if reason:
        if REQUIRED:
            pytest.fail(f"DLXSAT_REQUIRE_BROWSER=1 but {reason}")
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture(scope="module")
def page_file(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("html")
    store = write_store(folder / "forty.jsonl", forty_puzzles())
    out = folder / "report.html"
    assert main(["report", str(store), "--html", str(out)]) == 0
    return out


def _opened(browser: Any, page_file: Path) -> Iterator[Any]:
    """The report opened in a new page; console errors, page errors and every request other
    than the page itself are recorded on ``page.problems``."""
    pg = browser.new_page()
    problems: list[str] = []
    pg.on(
        "console",
        lambda m: (
            problems.append(f"console {m.type}: {m.text}")
            if m.type
            in (
                "error",
                "warning",
            )
            else None
        ),
    )
    pg.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    url = page_file.as_uri()
    pg.on("request", lambda r: problems.append(f"request {r.url}") if r.url != url else None)
    pg.goto(url, wait_until="load")
    pg.problems = problems
    yield pg
    pg.close()


@pytest.fixture
def page(browser: Any, page_file: Path) -> Iterator[Any]:
    """The report in a page of its own, for a test that clicks or types."""
    yield from _opened(browser, page_file)


@pytest.fixture(scope="module")
def loaded(browser: Any, page_file: Path) -> Iterator[Any]:
    """The report loaded once, for the tests that only look at it (none clicks or types)."""
    yield from _opened(browser, page_file)


def column(pg: Any, table: str, k: int) -> list[str]:
    """The text of column ``k`` (0-based) of the visible rows of ``table``, top to bottom."""
    return pg.eval_on_selector_all(
        f"#{table} tbody tr",
        f"rows => rows.filter(r => !r.hidden).map(r => r.cells[{k}].textContent.trim())",
    )


def sort_keys(pg: Any, table: str, k: int) -> list[float]:
    return [
        float(v)
        for v in pg.eval_on_selector_all(
            f"#{table} tbody tr", f"rows => rows.map(r => r.cells[{k}].dataset.sort)"
        )
    ]


def test_loads_without_errors_or_requests(loaded: Any) -> None:
    assert loaded.title().startswith("dlxsat report:")
    assert loaded.problems == []
    assert len(column(loaded, "puzzles", 0)) == 40
    assert loaded.inner_text("#shown") == "40 of 40 shown"  # the script ran


def test_loads_quickly(loaded: Any) -> None:
    load_ms = loaded.evaluate("() => performance.getEntriesByType('navigation')[0].loadEventEnd")
    assert 0 < load_ms < LOAD_BOUND_MS


def test_clicking_a_header_sorts_the_rows(page: Any) -> None:
    first = column(page, "puzzles", 0)
    sat = 3 + FORTY_SETTINGS.index("sat")
    page.click(f"#puzzles thead th:nth-child({sat + 1})")
    keys = sort_keys(page, "puzzles", sat)
    assert keys == sorted(keys) and column(page, "puzzles", 0) != first
    assert page.get_attribute(f"#puzzles thead th:nth-child({sat + 1})", "aria-sort") == (
        "ascending"
    )
    page.click(f"#puzzles thead th:nth-child({sat + 1})")
    keys = sort_keys(page, "puzzles", sat)
    assert keys == sorted(keys, reverse=True)
    # Text columns sort as text; the settings table sorts too (by PAR-2 here).
    page.click("#puzzles thead th:nth-child(1)")
    names = column(page, "puzzles", 0)
    assert names == sorted(names)
    page.click("#settings thead th:nth-child(3)")
    par2 = [float(v) for v in column(page, "settings", 2)]
    assert par2 == sorted(par2)
    assert page.problems == []


def test_unsolved_jobs_sort_last(page: Any) -> None:
    lazy = 3 + FORTY_SETTINGS.index("cpsat:loop=lazy")
    page.click(f"#puzzles thead th:nth-child({lazy + 1})")
    cells = column(page, "puzzles", lazy)
    assert [c.split()[0] for c in cells[-3:]] == ["timeout"] * 3
    assert all(c.startswith("unique") for c in cells[:-3])


def test_filter_hides_rows(page: Any) -> None:
    page.fill("#filter", "bench-1")
    shown = column(page, "puzzles", 0)
    assert len(shown) == 10 and all("bench-1" in name for name in shown)
    assert page.inner_text("#shown") == "10 of 40 shown"
    page.fill("#filter", "TIMEOUT")  # any cell's text, in any case
    assert len(column(page, "puzzles", 0)) == 3
    page.fill("#filter", "")
    assert len(column(page, "puzzles", 0)) == 40
    page.check("#only-disagree")
    assert column(page, "puzzles", 0) == ["puzzles/masyu-bench/bench-07.txt"]
    # Sorting keeps the filter: hidden rows stay hidden.
    page.click("#puzzles thead th:nth-child(4)")
    assert column(page, "puzzles", 0) == ["puzzles/masyu-bench/bench-07.txt"]
    assert page.problems == []


def test_plots_are_drawn(loaded: Any) -> None:
    boxes = loaded.eval_on_selector_all(
        "figure.plot svg", "svgs => svgs.map(s => [s.getBBox().width, s.clientWidth])"
    )
    assert len(boxes) == 4
    assert all(w > 100 and client > 100 for w, client in boxes)
    legend = loaded.eval_on_selector("#plot-cactus svg", "s => s.textContent")
    assert all(setting in legend for setting in FORTY_SETTINGS)


def test_disagreements_are_highlighted(loaded: Any) -> None:
    colour = loaded.eval_on_selector(
        "#puzzles tbody tr.disagree td.disagree", "td => getComputedStyle(td).backgroundColor"
    )
    plain = loaded.eval_on_selector(
        "#puzzles tbody tr:not(.disagree) td", "td => getComputedStyle(td).backgroundColor"
    )
    assert colour != plain
