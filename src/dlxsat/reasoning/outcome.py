"""What a logic solver reports: answers, a status, statistics and, on request, its reasoning."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class LogicOutcome:
    """The result of a logic (human-style) solver.

    ``status`` is ``unique`` (the deductions completed the answer, which proves it is the only
    one), ``multiple``, ``none``, ``counted`` (after a fallback search in count/all mode),
    ``stalled`` (the strategies ran out; ``count`` is None) or ``timeout``. ``steps`` holds one
    line per deduction when an explanation was asked for.
    """

    answers: list[dict] = field(default_factory=list)
    status: str = "stalled"
    count: int | None = None
    stats: dict[str, Any] = field(default_factory=dict)
    steps: list[str] = field(default_factory=list)
