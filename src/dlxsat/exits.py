"""The exit statuses of the ``dlxsat`` program: one enumeration, used by every command.

The command line (:mod:`dlxsat.cli`), the process guard that stops a run
(:mod:`dlxsat.runtime.guard`) and ``compare``'s summary all return these, so a status means the
same thing whoever sets it (docs/conventions.md §5). An :class:`Exit` is an ``int``: it is
returned from ``main`` and passed to ``os._exit`` as it is.

>>> int(Exit.LIMIT), Exit.WRONG is Exit.BUG, Exit.of_signal(15).name
(3, True, 'TERMINATED')
"""

from __future__ import annotations

import enum
import signal


class Exit(enum.IntEnum):
    """An exit status of ``dlxsat``."""

    #: Done (also: a time limit reached by a piece of the run with a limit of its own is not
    #: an error of the run).
    OK = 0
    #: An internal error -- a bug, such as an answer that fails its rule check -- or, for
    #: ``compare``, every job of the run ended in error.
    BUG = 1
    #: ``check``: the answer breaks a rule (or, with ``--unique``, the puzzle has another
    #: answer). The same number as :attr:`BUG`, by the convention of checkers.
    WRONG = 1
    #: Bad input or usage.
    INPUT = 2
    #: A time or memory limit was reached (the figures so far are still printed).
    LIMIT = 3
    #: Two solvers disagree (``crosscheck``, the portfolio's members, ``compare``).
    DISAGREE = 4
    #: Stopped by SIGINT (Ctrl-C): the shell's 128 + the signal's number.
    INTERRUPTED = 128 + signal.SIGINT
    #: Stopped by SIGTERM: 128 + the signal's number.
    TERMINATED = 128 + signal.SIGTERM

    @classmethod
    def of_signal(cls, signum: int) -> Exit:
        """The status of a run stopped by signal ``signum`` (SIGINT or SIGTERM)."""
        return cls(128 + int(signum))


#: The signals that stop a run with a status of their own, and those statuses.
SIGNAL_EXITS = {signal.SIGINT: Exit.INTERRUPTED, signal.SIGTERM: Exit.TERMINATED}
