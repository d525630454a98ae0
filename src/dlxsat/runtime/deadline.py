"""A run's time limit as a value: made once from ``--timeout`` and passed down unchanged.

Why a value and not a global: the time limit used to change form on its way from the command
line to a backend (seconds, an absolute ``time.monotonic()`` instant, seconds left again), and
each layer converted it. A :class:`Deadline` is one instant on the ``time.monotonic`` clock;
every layer asks it the one question it has -- how long is left, has it passed, which of two
limits comes first -- and none converts it.

>>> Deadline.never().remaining() is None
True
>>> d = Deadline.after(60)
>>> 59 < d.remaining() <= 60, d.expired()
(True, False)
>>> d.sooner(Deadline.after(1)).remaining() <= 1
True
>>> Deadline.after(0).expired()
True
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from ..errors import InputError

#: The longest time limit taken, in seconds (a year). ``--timeout inf`` means no limit; a
#: finite limit beyond this one overflows the interval timer and the solvers' own limits.
MAX_SECONDS = 365 * 24 * 3600.0


def seconds_of(text: str | float | None) -> float | None:
    """A time limit given by a user, checked: ``None`` or ``inf`` is no limit.

    >>> seconds_of("2.5"), seconds_of("inf"), seconds_of(None)
    (2.5, None, None)
    >>> seconds_of("0")
    Traceback (most recent call last):
    ...
    dlxsat.errors.InputError: time limit must be positive: 0
    """
    if text is None:
        return None
    try:
        value = float(text)
    except (TypeError, ValueError):
        raise InputError(f"time limit must be a number of seconds: {text!r}") from None
    if math.isnan(value) or value <= 0:
        raise InputError(f"time limit must be positive: {text}")
    if math.isinf(value):
        return None
    if value > MAX_SECONDS:
        raise InputError(f"time limit must be at most {MAX_SECONDS:g} seconds (or inf): {text}")
    return value


def _nothing() -> None:
    return None


#: Called first by every check of a deadline (:meth:`Deadline.expired`,
#: :meth:`Deadline.remaining`): the process guard's
#: :func:`~dlxsat.runtime.guard.raise_dropped`, which raises again a stop Python dropped, so
#: that a run still stops at its deadline (this module knows nothing of the guard).
_before_check: Callable[[], None] = _nothing


def on_check(hook: Callable[[], None]) -> None:
    """Make ``hook`` the first thing every check of a deadline does (it may raise)."""
    global _before_check
    _before_check = hook


@dataclass(frozen=True)
class Deadline:
    """An instant on the ``time.monotonic`` clock, or none (``at is None``: no limit)."""

    at: float | None = None

    @classmethod
    def never(cls) -> Deadline:
        """No time limit."""
        return cls(None)

    @classmethod
    def after(cls, seconds: float | None) -> Deadline:
        """``seconds`` from now (``None``: no limit)."""
        return cls(None if seconds is None else time.monotonic() + seconds)

    def remaining(self) -> float | None:
        """Seconds left (at least 0), or ``None`` when there is no limit."""
        _before_check()
        return None if self.at is None else max(self.at - time.monotonic(), 0.0)

    def expired(self) -> bool:
        """Whether the instant has passed."""
        _before_check()
        return self.at is not None and time.monotonic() >= self.at

    def sooner(self, other: Deadline | None) -> Deadline:
        """The earlier of the two limits."""
        if other is None or other.at is None:
            return self
        if self.at is None:
            return other
        return self if self.at <= other.at else other

    def reserve(self, share: float, most: float) -> Deadline:
        """An earlier deadline that leaves ``share`` of the time left (at most ``most`` seconds)
        for work after it, such as checking the answers a search found."""
        if self.at is None:
            return self
        left = max(self.at - time.monotonic(), 0.0)
        return Deadline(self.at - min(share * left, most))
