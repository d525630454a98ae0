"""OR-tools' CP-SAT imported without pandas (``dlxsat.backends.ortools_loader``).

The backend's contract (test_search_contract.py, test_cpsat.py) runs on the module this loader
returns; here, in fresh processes (pytest may have pandas loaded), that pandas stays unloaded
through a whole CP-SAT solve, that a later ``import pandas`` is the real pandas, and that
CP-SAT's pandas methods still work, importing it then.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap


def run(code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_a_cpsat_solve_does_not_import_pandas():
    out = run(
        """
        import sys
        from dlxsat.solvers import solve_problem
        from dlxsat.xcc import parse
        r = solve_problem(parse("a b c\\na b\\nc\\na\\nb c\\n"), "cpsat", keep=None)
        print(r.count, sorted(r.solutions), "pandas" in sys.modules)
        """
    )
    assert out == "2 [[0, 1], [2, 3]] False"


def test_pandas_imported_later_is_the_real_one_and_series_work():
    out = run(
        """
        from dlxsat.backends import ortools_loader
        cp_model = ortools_loader.cp_model()
        import pandas as pd
        assert isinstance(pd.DataFrame(), pd.DataFrame)
        assert cp_model.pd.Series is pd.Series  # the proxy hands out the real classes
        m = cp_model.CpModel()
        xs = m.new_bool_var_series("x", pd.Index(range(3)))
        m.add(xs.sum() == 2)
        s = cp_model.CpSolver()
        assert s.solve(m) == cp_model.OPTIMAL
        print(type(xs).__name__, int(s.boolean_values(xs).sum()))
        """
    )
    assert out == "Series 2"


def test_with_pandas_loaded_first_nothing_changes():
    out = run(
        """
        import pandas as pd
        from dlxsat.backends import ortools_loader
        cp_model = ortools_loader.cp_model()
        print(cp_model.pd is pd)
        """
    )
    assert out == "True"
