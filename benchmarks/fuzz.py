"""The fuzz tests (tests/test_fuzz.py) with the ``long`` hypothesis profile, and how many
inputs each test tried.

    python3 benchmarks/fuzz.py                 # profile long: DLXSAT_FUZZ_EXAMPLES per test (500)
    DLXSAT_FUZZ=ci python3 benchmarks/fuzz.py  # the CI profile, to count what CI tries
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    if {"-h", "--help"} & set(sys.argv[1:]):
        print(__doc__.strip())
        print("\nOther arguments are passed to pytest (e.g. -k dlx, -x).")
        return 0
    os.environ.setdefault("DLXSAT_FUZZ", "long")
    os.chdir(ROOT)
    start = time.perf_counter()
    status = pytest.main(["-q", "-p", "no:cacheprovider", "tests/test_fuzz.py", *sys.argv[1:]])
    tried = sys.modules["test_fuzz"].TRIED
    print(
        f"profile {os.environ['DLXSAT_FUZZ']}: {sum(tried.values())} inputs tried "
        f"in {time.perf_counter() - start:.0f} s"
    )
    for name, n in sorted(tried.items()):
        print(f"  {name:<28}{n:>7}")
    return int(status)


if __name__ == "__main__":
    sys.exit(main())
