"""What one run of dlxsat needs from its process: a deadline, signals, memory, child processes.

Each topic is one module: :mod:`~dlxsat.runtime.deadline` (the time limit as a value passed
down, never a module global), :mod:`~dlxsat.runtime.guard` (signals, the alarm armed from a
deadline, the watchdog, exit statuses, the stop line and its figures),
:mod:`~dlxsat.runtime.cleanup` (temporary files and child processes left by a stopped run),
:mod:`~dlxsat.runtime.memory` (the one reader of ``/proc/self/status``, the one meaning of
``--memory``, the estimates), :mod:`~dlxsat.runtime.processes` (how a worker is forked: the
layer under ``compare``'s workers and the portfolio's members) and
:mod:`~dlxsat.runtime.host` (the cores the process may use, the threads it has).
"""
