"""DLX against SAT and CP-SAT on classic exact-cover families (Junttila and Kaski, CP 2010).

Generates the instances with ``dlxsat instance`` at growing sizes, runs ``dlxsat compare xcc``
over them -- counting every answer (``--mode count``) and finding one (``--mode unique``: two
answers looked for, as ``solve`` does) -- with ``dlx``, ``sat`` with each cardinality encoding
and ``cpsat``, then prints, per instance and setting, the wall time and the search's own
figures: DLX's nodes beside the SAT solver's decisions and conflicts (PySAT's
``accum_stats``). ``dlxsat report --plot scatter`` draws DLX's time against SAT's.

    python3 benchmarks/xcc.py                    # the default sizes, 20 s a job
    python3 benchmarks/xcc.py --encodings all    # every cardinality encoding
    python3 benchmarks/xcc.py -o xcc.jsonl --plot-out docs/xcc-scatter.svg
    python3 benchmarks/xcc.py --dry-run          # the commands only

Timings are of a loaded 2-core machine: read them as ratios within a row.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: The instances, ``FAMILY ARGS``, small to large.
INSTANCES = [
    "queens 8",
    "queens 10",
    "queens 12",
    "langford 8",
    "langford 11",
    "graceful 8",
    "graceful 10",
    "matrices 5 2",
    "matrices 6 2",
    "pentominoes 3 20",
    "pentominoes 4 15",
]
#: Encodings that take every family (the "at most one"-only ones cannot bound matrices' rows).
ENCODINGS = {
    "default": "auto,seqcounter,totalizer",
    "all": "auto,seqcounter,totalizer,sortnetwrk,cardnetwrk,mtotalizer,kmtotalizer",
}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("-o", "--output", help="the results store (kept; a re-run resumes it)")
    p.add_argument("--timeout", type=float, default=20.0, help="seconds per job (default 20)")
    p.add_argument("--encodings", choices=sorted(ENCODINGS), default="default")
    p.add_argument("--modes", default="count,unique", help="count, unique or both")
    p.add_argument("--only", help="instances whose name contains this")
    p.add_argument("--plot-out", help="a scatter plot of dlx against sat (.svg or .png)")
    p.add_argument("--dry-run", action="store_true")
    a = p.parse_args()
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    dlxsat = [sys.executable, "-m", "dlxsat"]
    folder = Path(tempfile.mkdtemp(prefix="dlxsat-xcc-"))
    store = a.output or str(folder / "xcc.jsonl")
    files = []
    for spec in INSTANCES:
        if a.only and a.only not in spec:
            continue
        path = folder / (spec.replace(" ", "-") + ".dlx")
        if not a.dry_run:
            text = subprocess.run(
                [*dlxsat, "instance", *spec.split()],
                env=env,
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            path.write_text(text)
        files.append(str(path))
    settings = ["dlx", f"sat:encoding={ENCODINGS[a.encodings]}", "cpsat"]
    for mode in a.modes.split(","):
        cmd = [*dlxsat, "compare", "xcc", *files, "--mode", mode, "--timeout", str(a.timeout)]
        cmd += [x for s in settings for x in ("--settings", s)] + ["-o", store, "--quiet"]
        print("$", shlex.join(cmd), file=sys.stderr)
        if not a.dry_run:
            subprocess.run(cmd, env=env)
    if a.dry_run:
        return 0
    print(table(store))
    if a.plot_out:
        cmd = [
            *dlxsat,
            "report",
            store,
            "--plot",
            "scatter",
            "--x",
            "dlx (count)",
            "--y",
            "sat (count)",
        ]
        cmd += ["--plot-out", a.plot_out]
        print("$", shlex.join(cmd), file=sys.stderr)
        subprocess.run(cmd, env=env, check=False)
    return 0


def table(store: str) -> str:
    """One row per instance, mode and setting: status, count, wall time, and the search's
    figures (dlx: nodes; sat: decisions, conflicts; cpsat: its own branches, conflicts)."""
    rows = ["| instance | mode | setting | status | count | s | nodes / decisions | conflicts |"]
    rows.append("|:--|:--|:--|:--|--:|--:|--:|--:|")
    records = [json.loads(line) for line in Path(store).read_text().splitlines() if line]
    latest = {(r["puzzle"], r["mode"], r["setting"]): r for r in records}
    for (puzzle, mode, setting), r in sorted(latest.items()):
        st = r.get("stats") or {}
        work = st.get("nodes", st.get("decisions", st.get("branches", "")))
        name = Path(puzzle).stem.replace("-", " ")
        seconds = r.get("wall_seconds")
        shown = "" if seconds is None else f"{seconds:.3f}"
        rows.append(
            f"| {name} | {mode} | {setting} | {r['status']} | {r.get('count')} | {shown} "
            f"| {work} | {st.get('conflicts', '')} |"
        )
    return "\n".join(rows)


if __name__ == "__main__":
    raise SystemExit(main())
