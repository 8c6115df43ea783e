"""Wall time of a (partial) reproduction, measured in a scratch copy so existing results are not reused.

Runs ``snakemake <targets> --cores N [--configfile ...]`` in a temporary copy of the repository and prints the
total wall time and the per-job times Snakemake's ``benchmark:`` directive recorded (results/benchmarks/).

Usage:
    python benchmarks/reproduction_time.py                       # the whole catalogue, default config, 2 cores
    python benchmarks/reproduction_time.py figures/fig_hpo.pdf   # one output
    python benchmarks/reproduction_time.py --quick               # quick config
    python benchmarks/reproduction_time.py --make-test           # `make test` in a fresh clone (.venv included)

``--make-test`` clones the current commit (``git clone``: uncommitted changes are not measured), runs ``make test``
there and prints its wall time, then the quick workflow's in the same clone (its .venv now installed) and the
ratio of the two, with the load average before and after each (the machine may be shared).
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
IGNORE = shutil.ignore_patterns(".venv", ".git", "results", ".snakemake", "__pycache__", "*.egg-info", "figures")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("targets", nargs="*", help="Snakemake targets (default: the whole catalogue)")
    ap.add_argument("--cores", default="2")
    ap.add_argument("--quick", action="store_true", help="use config/quick.yaml")
    ap.add_argument(
        "--make-test", action="store_true", help="time `make test`, then the quick workflow, in a fresh clone"
    )
    args = ap.parse_args()
    if args.make_test:
        make_test()
        return
    with tempfile.TemporaryDirectory(prefix="privtest-bench-") as tmp:
        repo = Path(tmp) / "repo"
        shutil.copytree(ROOT, repo, ignore=IGNORE)
        (repo / "figures").mkdir(exist_ok=True)  # resources/ (fetched data wheels) is copied with the rest
        cmd = [sys.executable, "-m", "snakemake", *args.targets, "--cores", args.cores]
        if args.quick:
            cmd += ["--configfile", "config/quick.yaml"]
        start = time.perf_counter()
        subprocess.run(cmd, cwd=repo, check=True, capture_output=True)
        wall = time.perf_counter() - start
        rows = []
        for tsv in sorted((repo / "results/benchmarks").rglob("*.tsv")):
            s = pd.read_csv(tsv, sep="\t")
            job = str(tsv.relative_to(repo / "results/benchmarks").with_suffix(""))
            rows.append({"job": job, "s": s["s"].iloc[-1]})
        print(f"wall time: {wall:.1f} s with --cores {args.cores}{' (quick config)' if args.quick else ''}")
        if rows:
            print(pd.DataFrame(rows).sort_values("s", ascending=False).to_string(index=False))


def _timed(cmd: list[str], cwd: Path) -> float:
    """Wall time in seconds of ``cmd`` in ``cwd`` (raises CalledProcessError if it fails)."""
    load = os.getloadavg()
    start = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, check=True, capture_output=True)
    wall = time.perf_counter() - start
    print(f"{' '.join(cmd)}: {wall:.0f} s (load average before {load[0]:.1f}, after {os.getloadavg()[0]:.1f})")
    return wall


def make_test() -> None:
    """``make test`` from a fresh clone, then the quick workflow in that clone; prints both and their ratio."""
    with tempfile.TemporaryDirectory(prefix="privtest-bench-") as tmp:
        repo = Path(tmp) / "repo"
        subprocess.run(["git", "clone", "--quiet", str(ROOT), str(repo)], check=True)
        test = _timed(["make", "test"], repo)
        quick = _timed([".venv/bin/snakemake", "--cores", "all", "--configfile", "config/quick.yaml"], repo)
        print(f"make test / quick workflow: {test / quick:.1f}")


if __name__ == "__main__":
    main()
