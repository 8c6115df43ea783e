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

``--record`` also writes the measurement into ``benchmarks/reproduction_time.json`` (the committed file the README's
and ARTIFACT-APPENDIX.md's run-time tables are rendered from, ``privtest.docs.runtime_table``): one entry per run key
(``workflow`` or ``quick``; ``test`` and ``quick`` for ``--make-test``), replaced when measured again, with the
commit and the load average; keys sorted and no timestamps, so only the measured values change between runs.
For the whole catalogue on the default config (no targets, no ``--quick``) it also rewrites the per-job record
``benchmarks/job_times.csv`` (``privtest.docs.JOB_TIMES``, the run times of the result pages docs/results/<id>.md)
from the scratch run's ``results/benchmarks/<rule>/<id>.tsv``, each row saying where it was measured (commit,
cores, idle or shared machine). This is the only writer of both records: ``make reproduce`` reads them, never
rewrites them, so its generated documents are the same bytes on every machine.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
RECORD = ROOT / "benchmarks" / "reproduction_time.json"
#: Below this load average (per the start of a measurement) the machine counts as idle.
IDLE_LOAD = 0.5
IGNORE = shutil.ignore_patterns(".venv", ".git", "results", ".snakemake", "__pycache__", "*.egg-info", "figures")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("targets", nargs="*", help="Snakemake targets (default: the whole catalogue)")
    ap.add_argument("--cores", default="2")
    ap.add_argument("--quick", action="store_true", help="use config/quick.yaml")
    ap.add_argument(
        "--make-test", action="store_true", help="time `make test`, then the quick workflow, in a fresh clone"
    )
    ap.add_argument("--record", action="store_true", help=f"write the measurement into {RECORD.relative_to(ROOT)}")
    args = ap.parse_args()
    if args.make_test:
        make_test(args.record)
        return
    with tempfile.TemporaryDirectory(prefix="privtest-bench-") as tmp:
        repo = Path(tmp) / "repo"
        shutil.copytree(ROOT, repo, ignore=IGNORE)
        (repo / "figures").mkdir(exist_ok=True)  # resources/ (fetched data wheels) is copied with the rest
        cmd = [sys.executable, "-m", "snakemake", *args.targets, "--cores", args.cores]
        if args.quick:
            cmd += ["--configfile", "config/quick.yaml"]
        load = os.getloadavg()[0]
        start = time.perf_counter()
        subprocess.run(cmd, cwd=repo, check=True, capture_output=True)
        wall = time.perf_counter() - start
        if args.record:
            key = "quick" if args.quick else "workflow"
            shown = ["snakemake", *args.targets, "--cores", args.cores] + (
                ["--configfile", "config/quick.yaml"] * args.quick
            )
            what = "quick workflow" if args.quick else "default configuration"
            record(key, f"{what} in a scratch copy (no .venv)", " ".join(shown), wall, "scratch copy", load)
            if not args.targets and not args.quick:
                record_jobs(repo, f"scratch copy of {_commit()}, default configuration, --cores {args.cores}", load)
        rows = []
        for tsv in sorted((repo / "results/benchmarks").rglob("*.tsv")):
            s = pd.read_csv(tsv, sep="\t")
            job = str(tsv.relative_to(repo / "results/benchmarks").with_suffix(""))
            rows.append({"job": job, "s": s["s"].iloc[-1]})
        print(f"wall time: {wall:.1f} s with --cores {args.cores}{' (quick config)' if args.quick else ''}")
        if rows:
            print(pd.DataFrame(rows).sort_values("s", ascending=False).to_string(index=False))


def _commit() -> str:
    """The short sha of the measured commit (``an unknown commit`` outside git)."""
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    return commit.stdout.strip() or "an unknown commit"


def machine_state(load: float, cores: int | None = None) -> str:
    """Words for the machine a measurement ran on: ``"idle 2-core machine"`` when the load average at the start
    was below :data:`IDLE_LOAD`, else ``"shared 2-core machine (load average 3.1 at the start)"``."""
    n = cores or os.cpu_count() or 1
    if load < IDLE_LOAD:
        return f"idle {n}-core machine"
    return f"shared {n}-core machine (load average {load:.1f} at the start)"


def record_jobs(repo: Path, how: str, load: float) -> None:
    """Rewrite ``benchmarks/job_times.csv`` from the per-job benchmark files of the scratch run in ``repo``
    (outputs in catalogue order, jobs in ``privtest.docs.TIMED_RULES`` order, seconds to 0.1 s)."""
    sys.path.insert(0, str(ROOT / "workflow" / "lib"))
    from privtest_workflow import catalogue

    from privtest import docs

    runtimes = docs.read_runtimes(repo / "results" / "benchmarks", list(catalogue.load(ROOT)))
    target = ROOT / docs.JOB_TIMES
    target.write_text(docs.job_times_csv(runtimes, f"{how}, {machine_state(load)}"))
    print(f"recorded {len(runtimes)} job times in {docs.JOB_TIMES}")


def record(key: str, run: str, command: str, wall: float, how: str, load: float) -> None:
    """Replace (or add) the entry ``key`` of :data:`RECORD` by this measurement (wall seconds rounded to 1 s)."""
    doc = json.loads(RECORD.read_text()) if RECORD.exists() else {"runs": []}
    entry = {
        "command": command,
        "key": key,
        "notes": f"load average {load:.1f} at the start (2 cores)",
        "run": run,
        "wall_s": round(wall),
        "where": f"{how} of {_commit()}, {machine_state(load)}",
    }
    doc["runs"] = [r for r in doc.get("runs", []) if r.get("key") != key] + [entry]
    RECORD.write_text(json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n")
    print(f"recorded {key}: {entry['wall_s']} s in {RECORD.relative_to(ROOT)}")


def _timed(cmd: list[str], cwd: Path) -> tuple[float, float]:
    """Wall time in seconds of ``cmd`` in ``cwd`` and the load average before it (raises CalledProcessError if it
    fails, after printing the tail of its output: the scratch copy is deleted)."""
    load = os.getloadavg()
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if proc.returncode != 0:
        print(f"{' '.join(cmd)} failed:\n{proc.stdout[-20000:]}\n{proc.stderr[-5000:]}", file=sys.stderr)
        raise subprocess.CalledProcessError(proc.returncode, cmd)
    wall = time.perf_counter() - start
    print(f"{' '.join(cmd)}: {wall:.0f} s (load average before {load[0]:.1f}, after {os.getloadavg()[0]:.1f})")
    return wall, load[0]


def make_test(save: bool = False) -> None:
    """``make test`` from a fresh clone, then the quick workflow in that clone; prints both and their ratio (and
    records both with ``save``)."""
    with tempfile.TemporaryDirectory(prefix="privtest-bench-") as tmp:
        repo = Path(tmp) / "repo"
        subprocess.run(["git", "clone", "--quiet", str(ROOT), str(repo)], check=True)
        test, load_test = _timed(["make", "test"], repo)
        quick_cmd = [".venv/bin/snakemake", "--cores", "all", "--configfile", "config/quick.yaml"]
        quick, load_quick = _timed(quick_cmd, repo)
        print(f"make test / quick workflow: {test / quick:.1f}")
        if save:
            record("test", "make test (fresh clone, .venv included)", "make test", test, "fresh clone", load_test)
            record(
                "quick",
                "quick workflow (same clone, after make test)",
                " ".join(quick_cmd),
                quick,
                "fresh clone",
                load_quick,
            )


if __name__ == "__main__":
    main()
