"""Seed robustness of the claims: rerun the default configuration with other seeds and count verdicts per kind.

The error policy (``privtest_artifact.claims``: Holm within each output at 0.05/#outputs) bounds the probability of any
false
FAIL in ``figures/claims.csv`` by 5% for one run; this script shows it on three independent runs. Each seed runs in its
own temporary copy of the repository (``snakemake figures/claims.csv --config seed=<s>``: every simulation and check,
no notebook), so existing results are neither reused nor touched. A FAIL is listed with its note, to be investigated
(a genuine problem is fixed or recorded, never tuned away).

Usage:
    python benchmarks/seed_robustness.py                          # seeds 1, 2, 3, default config, 2 cores
    python benchmarks/seed_robustness.py --seeds 7 8 --quick      # quick config
    python benchmarks/seed_robustness.py --keep results/seeds     # also keep each run's claims.csv there

Prints one Markdown row per seed (claims, counts per verdict kind, wall time) and the FAIL rows, if any.
"""

from __future__ import annotations

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
sys.path.insert(0, str(ROOT / "src"))
from privtest_artifact.claims import VERDICTS  # noqa: E402

IGNORE = shutil.ignore_patterns(".venv", ".git", "results", ".snakemake", "__pycache__", "*.egg-info", "figures")


def run_seed(seed: int, cores: str, quick: bool, keep: Path | None) -> tuple[pd.DataFrame, float]:
    """Claims of one run of the catalogue with ``seed`` in a scratch copy; (claims, wall seconds).

    Raises:
        subprocess.CalledProcessError: if Snakemake fails (its output is printed).
    """
    with tempfile.TemporaryDirectory(prefix=f"privtest-seed{seed}-") as tmp:
        repo = Path(tmp) / "repo"
        shutil.copytree(ROOT, repo, ignore=IGNORE)  # resources/ (checksum-verified data wheels) is copied too
        (repo / "figures").mkdir(exist_ok=True)
        cmd = [sys.executable, "-m", "snakemake", "figures/claims.csv", "--cores", cores, "--config", f"seed={seed}"]
        if quick:
            cmd += ["--configfile", "config/quick.yaml"]
        start = time.perf_counter()
        # the copy's own library first on the path (the venv's editable install points at this checkout's src/)
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(repo / "src"), os.environ.get("PYTHONPATH", "")])}
        proc = subprocess.run(cmd, cwd=repo, capture_output=True, text=True, env=env)
        wall = time.perf_counter() - start
        if proc.returncode != 0:
            print(proc.stdout[-3000:], proc.stderr[-3000:], file=sys.stderr)
            proc.check_returncode()
        claims = pd.read_csv(repo / "figures/claims.csv", dtype=str, keep_default_na=False)
        if keep is not None:
            keep.mkdir(parents=True, exist_ok=True)
            shutil.copy(repo / "figures/claims.csv", keep / f"claims_seed{seed}.csv")
    return claims, wall


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3], help="seeds other than config.yaml's")
    ap.add_argument("--cores", default="2")
    ap.add_argument("--quick", action="store_true", help="use config/quick.yaml")
    ap.add_argument("--keep", type=Path, default=None, help="directory for each run's claims.csv")
    args = ap.parse_args()
    print("| seed | claims | " + " | ".join(VERDICTS) + " | wall time |")
    print("|---|---|" + "---|" * len(VERDICTS) + "---|")
    fails = []
    for seed in args.seeds:
        claims, wall = run_seed(seed, args.cores, args.quick, args.keep)
        counts = claims["verdict"].value_counts()
        row = " | ".join(str(int(counts.get(v, 0))) for v in VERDICTS)
        print(f"| {seed} | {len(claims)} | {row} | {wall / 60:.1f} min |", flush=True)
        failed = claims[claims.verdict == "FAIL"]
        fails += [(seed, r.claim_id, r.measured, r.bound, r.note) for r in failed.itertuples()]
    for seed, cid, measured, bound, note in fails:
        print(f"FAIL (seed {seed}) {cid}: measured {measured}, bound {bound}; {note}")


if __name__ == "__main__":
    main()
