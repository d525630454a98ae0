"""How fast the page of ``dlxsat report --html`` opens: a 40-puzzle, 4-setting store (issue 22
asks for under a second), in headless Chromium.

The store is the tests' (``tests/stores.py``: ``forty_puzzles``). Each round loads, in turn, an
empty page and the report in a fresh browser tab and reads the navigation's ``loadEventEnd``
(from the start of navigation to the end of the load event, scripts run); the figures are the
medians over the rounds, and the report's time is also given as a ratio to the empty page's,
measured interleaved in the same run. Also measured: writing the page (reading the store,
both tables, four plots) against writing the Markdown table alone, in this process.

Needs Playwright (``pip install -e '.[browser]'``) and Debian's ``chromium`` (or
``--chromium PATH``).

    python3 benchmarks/htmlreport.py            # 7 rounds
    python3 benchmarks/htmlreport.py --rounds 15
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tests"))

from stores import forty_puzzles, write_store  # noqa: E402

from dlxsat.htmlreport import write_html  # noqa: E402
from dlxsat.report import coverage_warnings, format_markdown, read_store, summarize  # noqa: E402


def writing_times(store_path: Path, out: Path, rounds: int) -> tuple[float, float]:
    """Median seconds to write the page, and to make the Markdown table, from the store."""
    page, table = [], []
    for _ in range(rounds):
        start = time.perf_counter()
        store = read_store([store_path])
        format_markdown(summarize(store))
        table.append(time.perf_counter() - start)
        start = time.perf_counter()
        store = read_store([store_path])
        write_html(str(out), summarize(store), store, store.warnings + coverage_warnings(store))
        page.append(time.perf_counter() - start)
    return statistics.median(page), statistics.median(table)


def load_times(page: Path, empty: Path, chromium: str, rounds: int) -> tuple[float, float]:
    """Median load time (ms) of the report and of an empty page, loaded in turn."""
    from playwright.sync_api import sync_playwright

    got: dict[Path, list[float]] = {page: [], empty: []}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        for _ in range(rounds):
            for path in (empty, page):
                tab = browser.new_page()
                tab.goto(path.as_uri(), wait_until="load")
                got[path].append(
                    tab.evaluate("() => performance.getEntriesByType('navigation')[0].loadEventEnd")
                )
                tab.close()
        browser.close()
    return statistics.median(got[page]), statistics.median(got[empty])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    a = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        store = write_store(tmp / "forty.jsonl", forty_puzzles())
        page, empty = tmp / "report.html", tmp / "empty.html"
        empty.write_text("<!DOCTYPE html><html><head><title>empty</title></head></html>\n")
        write_s, table_s = writing_times(store, page, max(3, a.rounds // 2))
        size = page.stat().st_size
        load_ms, empty_ms = load_times(page, empty, a.chromium, a.rounds)
    print(f"page: 40 puzzles x 4 settings, {size / 1024:.0f} KiB, 4 inline SVG plots")
    print(f"writing it: {write_s:.2f} s ({write_s / table_s:.0f}x the Markdown table's time)")
    print(
        f"opening it in Chromium: {load_ms:.0f} ms (median of {a.rounds}; an empty page "
        f"{empty_ms:.0f} ms, ratio {load_ms / max(empty_ms, 1e-3):.1f}); "
        f"{'under' if load_ms < 1000 else 'NOT under'} a second"
    )
    return 0 if load_ms < 1000 else 1


if __name__ == "__main__":
    sys.exit(main())
