"""The exact-cover model every backend reads, and Knuth's DLX text format."""

from .dlxformat import parse, write
from .model import Item, Problem

__all__ = ["Item", "Problem", "parse", "write"]
