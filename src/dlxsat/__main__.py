"""``python -m dlxsat``: the same as the ``dlxsat`` command."""

from .cli import run

run()
