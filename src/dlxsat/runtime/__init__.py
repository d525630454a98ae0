"""What one run of dlxsat needs from its process: a deadline, signals, memory, child processes.

Each topic is one module: :mod:`~dlxsat.runtime.deadline` (the time limit as a value passed
down, never a module global).
"""
