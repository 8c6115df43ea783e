"""Wall time of a (partial) reproduction, measured in a scratch copy so existing results are not reused.

Runs ``snakemake <targets> --cores N [--configfile ...]`` in a temporary copy of the repository and prints the
total wall time and the per-job times Snakemake's ``benchmark:`` directive recorded (results/benchmarks/).

Usage:
    python benchmarks/reproduction_time.py                       # the whole catalogue, default config, 2 cores
    python benchmarks/reproduction_time.py figures/fig_hpo.pdf   # one output
    python benchmarks/reproduction_time.py --quick               # quick config
"""

import argparse
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
    args = ap.parse_args()
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


if __name__ == "__main__":
    main()
