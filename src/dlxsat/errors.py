"""The one exception type that means "the user's input is wrong".

Everything that reads user input raises :class:`InputError` with a message fit to print on one
line; the CLI turns it into ``dlxsat: error: MESSAGE`` on stderr and exit status 2.
"""

from __future__ import annotations


class InputError(ValueError):
    """Bad input: a puzzle, DLX file, model or option the user gave us.

    >>> str(InputError("line 3, column 4: illegal clue 'x'"))
    "line 3, column 4: illegal clue 'x'"
    """


class RuleViolation(RuntimeError):
    """A backend returned an answer that the puzzle's own rule checker rejects: a bug, not input."""


class Disagreement(RuntimeError):
    """Two solvers that both finished the same problem found different answers: one is wrong.

    Raised by the portfolio backend when members' complete results disagree (a different number
    of solutions, or a solution one of them proved does not exist). The CLI reports it with exit
    status 4, like a ``crosscheck`` disagreement.
    """


class SolverFailure(RuntimeError):
    """A solver stopped without an answer for a reason that is neither the input nor the time
    limit (it raised or its process died): a bug, reported with exit status 1."""
