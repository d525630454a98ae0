"""Declared options of the solvers: one list each, read by the API, the CLI and ``compare``.

Every solver module (``dlxsat.backends.cnf``, ``dlxsat.backends.cpsat``, ``dlxsat.backends.dlx``,
``dlxsat.reasoning``) states the settings it takes as a tuple ``OPTIONS`` of :class:`Option`.
Nothing else lists them: the command line builds its flags and help from these declarations,
:func:`dlxsat.solvers.check_options` validates what a caller passes, and ``dlxsat compare``
parses its ``--settings`` grid with :meth:`Option.parse`. Adding an encoding to a solver means
adding it to that solver's ``choices`` and nowhere else.

>>> o = Option("colors", str, "binary", "how colors of secondary items become variables",
...            choices=("onehot", "binary"))
>>> o.flag, o.parse("onehot")
('--colors', 'onehot')
>>> o.parse("hex")
Traceback (most recent call last):
...
dlxsat.errors.InputError: unknown colors 'hex' (choose from onehot, binary)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .errors import InputError


@dataclass(frozen=True)
class Option:
    """One setting of a solver.

    ``name`` is the keyword the solver's ``solve`` takes; ``key`` the word users type (the CLI
    flag ``--key`` and the ``key=value`` of ``compare --settings``; it defaults to ``name``).
    ``kind`` is ``str``, ``int``, ``float`` or ``bool`` (a bool is a flag without a value).
    ``default`` is what the solver uses when the option is not given (documented, not passed).
    ``choices`` are the allowed values of a ``str`` option, when they are a closed list.
    ``low`` is the least allowed value of a number.
    """

    name: str
    kind: type
    default: Any
    help: str
    choices: tuple[str, ...] = ()
    key: str = ""
    low: float | None = None
    metavar: str | None = None

    def __post_init__(self) -> None:
        if not self.key:
            object.__setattr__(self, "key", self.name.replace("_", "-"))

    @property
    def flag(self) -> str:
        """The command-line flag, ``--key``."""
        return "--" + self.key

    def parse(self, text: str) -> Any:
        """Turn a user's text into a checked value (an :class:`InputError` when it is not one)."""
        if self.kind is bool:
            low = text.strip().lower()
            if low in ("1", "true", "yes", "on"):
                return True
            if low in ("0", "false", "no", "off"):
                return False
            raise InputError(f"{self.key} takes true or false, not {text!r}")
        if self.kind in (int, float):
            try:
                value = self.kind(text)
            except ValueError:
                what = "a whole number" if self.kind is int else "a number"
                raise InputError(f"{self.key} takes {what}, not {text!r}") from None
            return self.check(value)
        return self.check(text)

    def check(self, value: Any) -> Any:
        """``value`` if it is allowed for this option, else an :class:`InputError`."""
        if self.kind is bool:
            if not isinstance(value, bool):
                raise InputError(f"{self.key} takes true or false, not {value!r}")
            return value
        if self.kind in (int, float):
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise InputError(f"{self.key} takes a number, not {value!r}")
            if self.kind is int and not float(value).is_integer():
                raise InputError(f"{self.key} takes a whole number, not {value!r}")
            if self.low is not None and value < self.low:
                raise InputError(f"{self.key} must be at least {self.low:g}, not {value!r}")
            return self.kind(value)
        if not isinstance(value, str):
            raise InputError(f"{self.key} takes a name, not {value!r}")
        if self.choices and value not in self.choices:
            raise InputError(
                f"unknown {self.key} {value!r} (choose from {', '.join(self.choices)})"
            )
        return value

    def describe(self) -> str:
        """The help text with the choices and the default, as ``--help`` shows it."""
        parts = [self.help]
        if self.choices:
            parts.append(f"choices: {', '.join(self.choices)}")
        if self.kind is not bool:
            parts.append(f"default: {self.default}")
        return "; ".join(parts)


def by_key(options: Sequence[Option]) -> dict[str, Option]:
    """The options indexed by the word users type."""
    return {o.key: o for o in options}
