"""Provenance sidecars: what produced a figure or table (code version, configuration, seed, packages, time).

Two records, because a notebook reruns without its simulation: the simulate job writes
``results/raw/<id>.provenance.json`` (:func:`simulation_record`: the commit and the SHA-256 of every file the job
executed, which produced the raw numbers), and the notebook job copies it into ``figures/<id>.provenance.json``
(:func:`record`) next to its own commit and time.
"""

from __future__ import annotations

import hashlib
import json
import platform
import subprocess
from importlib import metadata
from pathlib import Path

#: Packages whose versions are recorded next to every output.
PACKAGES = (
    "privtest",
    "numpy",
    "scipy",
    "pandas",
    "matplotlib",
    "snakemake",
    "papermill",
    "scikit-learn",
    "diffprivlib",
    "networkx",
)


def git_commit(cwd: str | Path = ".") -> str:
    """HEAD commit of the repository at ``cwd`` (suffix ``-dirty`` with uncommitted changes), or "unknown"."""
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=cwd, capture_output=True, text=True, check=True)
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=cwd,
            capture_output=True,
            text=True,
            check=True,
        )
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head.stdout.strip() + ("-dirty" if dirty.stdout.strip() else "")


def config_sha256(cfg: dict) -> str:
    """SHA-256 of the canonical JSON of a config section (key order does not matter)."""
    return hashlib.sha256(json.dumps(cfg, sort_keys=True, default=str).encode()).hexdigest()


def versions() -> dict[str, str]:
    """Installed versions of :data:`PACKAGES` (and Python)."""
    out = {"python": platform.python_version()}
    for name in PACKAGES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = "not installed"
    return out


def file_sha256(paths) -> dict[str, str]:
    """Path -> SHA-256 of each file's bytes, sorted by path."""
    return {str(p): hashlib.sha256(Path(p).read_bytes()).hexdigest() for p in sorted(map(str, paths))}


def simulation_record(
    output_id: str, cfg: dict, seed: int, code: list, seconds: float, stage_code: str | None = None
) -> dict:
    """Provenance of one output's raw results, written by its simulate job.

    Args:
        output_id: the catalogue id.
        cfg: the configuration the simulation ran with.
        seed: the config's root seed.
        code: the files the job executed (its script and the library files derived from its imports).
        seconds: the simulation's wall time.
        stage_code: SHA-256 of the code of the output module's ``simulate`` and the artifact definitions it uses
            (the workflow's ``code`` param, ``privtest_workflow.deps.StageCode``).
    """
    return {
        "output": output_id,
        "git_commit": git_commit(),
        "code_sha256": file_sha256(code),
        "stage_code_sha256": stage_code,
        "config_sha256": config_sha256(cfg),
        "seed": seed,
        "packages": versions(),
        "wall_time_s": round(seconds, 3),
    }


def record(output_id: str, cfg: dict, seed: int, notebook_seconds: float, simulation: str | Path | None) -> dict:
    """Provenance of one catalogue output: the simulation's record (``results/raw/<id>.provenance.json``, written by
    :func:`simulation_record`; None if there is none) and the notebook run's commit and time."""
    sim = None
    if simulation is not None and Path(simulation).is_file():
        sim = json.loads(Path(simulation).read_text())
    return {
        "output": output_id,
        "config_sha256": config_sha256(cfg),
        "seed": seed,
        "packages": versions(),
        "simulation": sim,
        "notebook": {"git_commit": git_commit(), "wall_time_s": round(notebook_seconds, 3)},
    }
