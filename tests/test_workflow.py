"""End-to-end: the quick workflow in temporary copies of the repository.

Checks that every catalogue output is produced, that figures/claims.csv has no FAIL, that notebooks run in
parallel without kernel collisions, that numbers are identical with --cores 1 and --cores 2, that a bad config
stops Snakemake before any job, and that re-plotting does not rerun simulations.
"""

import ast
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]
SNAKEMAKE = [sys.executable, "-m", "snakemake"]
IGNORE = shutil.ignore_patterns(
    ".venv", ".git", "results", ".snakemake", "__pycache__", "*.egg-info", ".pytest_cache", "figures"
)

pytestmark = pytest.mark.workflow


def catalogue() -> tuple[list[str], list[str]]:
    """FIGURES and TABLES as declared in workflow/rules/common.smk."""
    text = (ROOT / "workflow/rules/common.smk").read_text()
    lists = {}
    for name in ("FIGURES", "TABLES"):
        m = re.search(rf"^{name} = (\[.*?\])", text, re.S | re.M)
        lists[name] = ast.literal_eval(m.group(1))
    return lists["FIGURES"], lists["TABLES"]


def expected_outputs() -> list[str]:
    figures, tables = catalogue()
    out = [f"figures/{f}.{ext}" for f in figures for ext in ("pdf", "png")]
    out += [f"figures/data/{f}.csv" for f in figures]
    out += [f"figures/{t}.{ext}" for t in tables for ext in ("tex", "md", "csv")]
    out += [f"figures/{x}.provenance.json" for x in figures + tables]
    return out + ["figures/claims.csv", "figures/claims.md", "figures/benchmarks.md"]


def copy_repo(dest: Path) -> Path:
    shutil.copytree(ROOT, dest, ignore=IGNORE)
    (dest / "figures").mkdir(exist_ok=True)
    for cached in ("resources",):  # downloaded data (checksum-verified) may be reused between copies
        if (ROOT / cached).exists() and not (dest / cached).exists():
            shutil.copytree(ROOT / cached, dest / cached)
    return dest


def run(cwd: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    proc = subprocess.run([*SNAKEMAKE, *args], cwd=cwd, capture_output=True, text=True)
    if check and proc.returncode != 0:
        raise AssertionError(f"snakemake {' '.join(args)} failed:\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}")
    return proc


@pytest.fixture(scope="module")
def quick_runs(tmp_path_factory):
    """The quick workflow twice: with 2 cores (parallel notebooks) and with 1 core."""
    a = copy_repo(tmp_path_factory.mktemp("wf") / "a")
    b = copy_repo(tmp_path_factory.mktemp("wf") / "b")
    run(a, "--cores", "2", "--configfile", "config/quick.yaml")
    run(b, "--cores", "1", "--configfile", "config/quick.yaml")
    return a, b


def test_every_catalogue_output_exists(quick_runs):
    a, _ = quick_runs
    missing = [p for p in expected_outputs() if not (a / p).is_file() or (a / p).stat().st_size == 0]
    assert not missing, f"missing outputs: {missing}"


def test_claims_have_the_contract_columns_and_no_fail(quick_runs):
    a, _ = quick_runs
    claims = pd.read_csv(a / "figures/claims.csv", dtype=str, keep_default_na=False)
    assert list(claims.columns) == [
        "claim_id",
        "source",
        "statement",
        "experiment",
        "measured",
        "bound",
        "verdict",
        "note",
    ]
    assert set(claims["verdict"]) <= {"PASS", "FAIL", "INCONCLUSIVE"}
    figures, tables = catalogue()
    assert set(claims["experiment"]) >= set(figures + tables), "every output must check at least one claim"
    assert claims["claim_id"].is_unique
    failed = claims[claims["verdict"] == "FAIL"]
    assert failed.empty, failed.to_string()


def test_numbers_identical_with_one_and_two_cores(quick_runs):
    a, b = quick_runs
    files = sorted(p.relative_to(a) for p in (a / "figures/data").glob("*.csv"))
    files += [Path("figures/claims.csv")] + sorted(p.relative_to(a) for p in (a / "results/raw").glob("*.csv"))
    assert files
    differ = [str(f) for f in files if (a / f).read_bytes() != (b / f).read_bytes()]
    assert not differ, f"outputs differ between --cores 2 and --cores 1: {differ}"
    pngs = [p.relative_to(a) for p in (a / "figures").glob("*.png")]
    assert [str(p) for p in pngs if (a / p).read_bytes() != (b / p).read_bytes()] == []


def test_notebooks_in_parallel_do_not_collide(quick_runs):
    # Rerun every notebook job at once (more jobs than cores): kernels must not fight over ZMQ ports.
    a, _ = quick_runs
    figures, tables = catalogue()
    run(a, "--cores", "8", "--configfile", "config/quick.yaml", "--forcerun", "figure", "table")
    for f in figures:
        assert (a / f"results/notebooks/{f}.ipynb").is_file()


def test_replot_does_not_rerun_simulation(quick_runs):
    a, _ = quick_runs
    nb = a / "notebooks/fig_oc.ipynb"
    # a real edit (Snakemake >= 9.18 compares checksums, so a bare touch is not a change)
    nb.write_text(nb.read_text().replace("# fig_oc:", "# fig_oc (edited):", 1))
    raw = a / "results/raw/fig_oc.csv"
    before = raw.stat().st_mtime_ns
    dry = run(a, "figures/fig_oc.pdf", "-n", "--configfile", "config/quick.yaml")
    assert "rule figure" in dry.stdout + dry.stderr and "rule simulate" not in dry.stdout + dry.stderr
    run(a, "figures/fig_oc.pdf", "--cores", "1", "--configfile", "config/quick.yaml")
    assert raw.stat().st_mtime_ns == before


def test_bad_config_stops_before_any_job(tmp_path):
    repo = copy_repo(tmp_path / "bad")
    (repo / "bad.yaml").write_text("fig_oc:\n  beta: 1.5\n")
    proc = run(repo, "--cores", "1", "--configfile", "config/quick.yaml", "bad.yaml", check=False)
    assert proc.returncode != 0
    message = proc.stdout + proc.stderr
    assert "fig_oc" in message and "beta" in message, message[-2000:]
    assert not (repo / "results").exists()


def test_slurm_profile_dry_run_without_slurm(tmp_path):
    # The cluster profile must at least plan the whole DAG on a machine without SLURM.
    repo = copy_repo(tmp_path / "slurm")
    proc = run(repo, "-n", "--workflow-profile", "workflow/profiles/slurm", "--configfile", "config/quick.yaml")
    assert "Job stats" in proc.stdout + proc.stderr
