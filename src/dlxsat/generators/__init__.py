"""Puzzle generators: a new puzzle with exactly one answer (``dlxsat generate FAMILY``).

One module per family that has one, named in its spec (``generator``); a generator may read
the family's puzzles and build its problems, as the families' own code does, and solves them
through the pipeline like any caller.
"""
