"""Provenance sidecars: what produced a figure or table (code version, configuration, seed, packages, time)."""

from __future__ import annotations

import hashlib
import json
import platform
import subprocess
from importlib import metadata
from pathlib import Path

import pandas as pd

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


def record(output_id: str, cfg: dict, seed: int, notebook_seconds: float, benchmark: str | Path | None) -> dict:
    """Provenance of one catalogue output; ``benchmark`` is the simulation's Snakemake benchmark file, if any."""
    simulation_seconds = None
    if benchmark is not None and Path(benchmark).is_file():
        simulation_seconds = float(pd.read_csv(benchmark, sep="\t")["s"].iloc[-1])
    return {
        "output": output_id,
        "git_commit": git_commit(),
        "config_sha256": config_sha256(cfg),
        "seed": seed,
        "packages": versions(),
        "wall_time_s": {"simulation": simulation_seconds, "notebook": round(notebook_seconds, 3)},
    }
