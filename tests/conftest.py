"""Shared test set-up: tests/ on sys.path (for ``problems``), golden data locations."""

from __future__ import annotations

import json
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
GOLDEN = TESTS / "data" / "golden"
sys.path.insert(0, str(TESTS))


def golden_cases(family: str | None = None, ok_only: bool = False) -> list[dict]:
    """Entries of the golden manifest (SPEC.md §6), optionally of one family / accepted only."""
    cases = json.loads((GOLDEN / "manifest.json").read_text())
    return [
        e
        for e in cases
        if (family is None or e["family"] == family) and (not ok_only or e["exit_status"] == 0)
    ]
