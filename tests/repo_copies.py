"""Copies of the repository for the tests that run Snakemake (tests/test_workflow.py, tests/test_robustness.py).

``copy_repo`` copies the sources (no results); ``clone_built`` copies a built repository with its results and
Snakemake's metadata, so Snakemake plans nothing in the copy until the test edits something; ``run`` runs Snakemake
in a copy. The session's quick build (``quick_build`` in tests/conftest.py) is built once with :func:`build_quick`.
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SNAKEMAKE = [sys.executable, "-m", "snakemake"]
IGNORE = shutil.ignore_patterns(
    ".venv", ".git", "results", ".snakemake", "__pycache__", "*.egg-info", ".pytest_cache", "figures"
)
QUICK = ("--configfile", "config/quick.yaml")
#: A directory whose ``scontrol`` answers at once that no SLURM controller is reachable. When Snakemake starts, the
#: SLURM executor plugin (2.8, ``job_status_query.get_min_job_age``) asks the controller for MinJobAge with
#: ``scontrol show config``; where SLURM's client tools are installed but no controller runs (this machine and CI
#: before the SLURM test starts its cluster) that call waits about 10 s, in every Snakemake run. The workflow tests
#: run no cluster: :func:`run` puts this directory first on PATH (the plugin then keeps its default status command,
#: which only the SLURM test uses; it passes ``slurm=True``).
NO_SLURM_CONTROLLER = Path(__file__).resolve().parent / "no_slurm_controller"


def copy_repo(dest: Path) -> Path:
    """Copy the repository's sources to ``dest`` (no results, no Snakemake metadata); returns ``dest``."""
    shutil.copytree(ROOT, dest, ignore=IGNORE)
    (dest / "figures").mkdir(exist_ok=True)
    for cached in ("resources",):  # downloaded data (checksum-verified) may be reused between copies
        if (ROOT / cached).exists() and not (dest / cached).exists():
            shutil.copytree(ROOT / cached, dest / cached)
    return dest


def clone_built(built: Path, dest: Path) -> Path:
    """Copy a built repository ``built`` (results, figures and .snakemake metadata; modification times kept, so
    nothing is stale in the copy) to ``dest``; returns ``dest``."""
    shutil.copytree(built, dest, ignore=shutil.ignore_patterns("locks", "__pycache__"), symlinks=True)
    return dest


def run(
    cwd: Path, *args: str, check: bool = True, env: dict | None = None, slurm: bool = False
) -> subprocess.CompletedProcess:
    """``snakemake *args`` in ``cwd`` (environment ``env``, default ``os.environ``); raises AssertionError with the
    output's tail if it fails and ``check``. Without ``slurm``, ``scontrol`` is :data:`NO_SLURM_CONTROLLER`'s; with
    it, the real one (the stand-in is taken off PATH, where tests/conftest.py puts it for the whole session)."""
    env = os.environ if env is None else env
    # The copy's own library first on the path: a module added in the copy (test_new_output_...) is importable.
    env = {**env, "PYTHONPATH": os.pathsep.join([str(cwd / "src"), env.get("PYTHONPATH", "")])}
    stand_in = os.path.realpath(NO_SLURM_CONTROLLER)
    path = [p for p in env.get("PATH", os.defpath).split(os.pathsep) if os.path.realpath(p) != stand_in]
    env["PATH"] = os.pathsep.join(path if slurm else [str(NO_SLURM_CONTROLLER), *path])
    proc = subprocess.run([*SNAKEMAKE, *args], cwd=cwd, capture_output=True, text=True, env=env)
    if check and proc.returncode != 0:
        raise AssertionError(f"snakemake {' '.join(args)} failed:\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}")
    return proc


def build_quick(dest: Path, *targets: str, cores: int = 2) -> Path:
    """Copy the repository to ``dest`` and build ``targets`` (default: the whole catalogue) with the quick config."""
    copy_repo(dest)
    run(dest, *targets, "--cores", str(cores), *QUICK)  # targets first: --configfile takes every value after it
    return dest


#: A job's line in Snakemake's output: its rule's ``message:`` (workflow/rules/), which names the rule, then the output
#: id or data stream the job is for, if any: "Job 12: simulate fig_oc -> results/raw/fig_oc.csv".
JOB = re.compile(r"^Job \d+: (\w+)(?: (\w+))?", re.M)


def planned_jobs(proc: subprocess.CompletedProcess) -> dict[str, set[str]]:
    """rule -> output ids (or data streams; "" for a job without one) of the jobs a dry run (``snakemake -n``)
    plans, from its output."""
    jobs: dict[str, set[str]] = {}
    for rule, wildcard in JOB.findall(proc.stdout + proc.stderr):
        jobs.setdefault(rule, set()).add(wildcard)
    return jobs
