"""``python -m dlxsat``: the same as the ``dlxsat`` command.

The process guard (signal handlers, watchdog) is installed by ``dlxsat/__init__.py`` before
anything else is imported, so that Ctrl-C during start-up ends the run cleanly too.
"""


def run() -> None:
    """The ``dlxsat`` program (the console script's entry point)."""
    from .runtime.guard import install as install_process_guard

    install_process_guard()  # (already in place when ``import dlxsat`` saw the program start)
    from .cli import run as cli_run

    cli_run()


if __name__ == "__main__":
    run()
