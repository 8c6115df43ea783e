"""Issue 12: bad input refused up front, failures explained (workflow side).

The Snakemake scripts are run here as Snakemake runs them (a fresh interpreter whose global ``snakemake`` holds the
job's input, output, params, wildcards and log; ``__file__`` is the script's real path), without a Snakemake run, so
a failing job can be provoked with inputs the config validation would refuse. Tests that need Snakemake itself are
marked ``workflow``.
"""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import yaml
from snakemake.utils import update_config
from test_workflow import QUICK, copy_repo, run

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = ROOT / "workflow" / "scripts"
CONFIG = yaml.safe_load((ROOT / "config/config.yaml").read_text())
QUICK_CFG = yaml.safe_load((ROOT / "config/quick.yaml").read_text())


class Job(dict):
    """A dict with attribute access: stands in for Snakemake's named lists (``sm.input.raw``, ``sm.input.items()``)."""

    __getattr__ = dict.__getitem__


def run_script(script: str, tmp_path: Path, *, log: str, **job) -> subprocess.CompletedProcess:
    """Run ``workflow/scripts/<script>`` in a fresh interpreter with ``snakemake`` = the job (like Snakemake does)."""
    sm = Job(log=[log], **{k: Job(v) for k, v in job.items()})
    blob = tmp_path / "job.pickle"
    blob.write_bytes(pickle.dumps(sm))
    path = SCRIPTS / script
    runner = textwrap.dedent(
        f"""
        import pickle, sys
        sys.path.insert(0, {str(ROOT / "tests")!r})
        from test_robustness import Job  # noqa: F401  (unpickling)
        snakemake = pickle.loads(open({str(blob)!r}, "rb").read())
        __file__ = {str(path)!r}
        exec(compile(open(__file__).read(), __file__, "exec"))
        """
    )
    return subprocess.run([sys.executable, "-c", runner], cwd=tmp_path, capture_output=True, text=True)


def section(name: str, **override) -> dict:
    """The section as config.yaml + quick.yaml give it, with ``override``."""
    config: dict = {}
    for doc in (CONFIG, QUICK_CFG, {name: override}):
        update_config(config, doc)
    return dict(config[name])


# Item 1: a failing simulation, check or notebook keeps its traceback in the rule's log.


def test_failing_simulation_keeps_its_traceback(tmp_path):
    # issue 12 item 1: fig_noise_penalty: {eps_ratio: .nan} dies inside the library
    log = tmp_path / "results/logs/simulate/fig_noise_penalty.log"
    log.parent.mkdir(parents=True)
    proc = run_script(
        "simulate.py",
        tmp_path,
        log=str(log),
        input={},
        output={"raw": str(tmp_path / "results/raw/fig_noise_penalty.csv")},
        params={
            "cfg": section("fig_noise_penalty", eps_ratio=float("nan")),
            "module": "privtest.experiments.fig_noise_penalty",
            "seed": CONFIG["seed"],
        },
        wildcards={"id": "fig_noise_penalty"},
    )
    assert proc.returncode != 0
    text = log.read_text()
    assert "Traceback (most recent call last)" in text, f"log: {text!r}\nstderr: {proc.stderr[-2000:]}"
    assert "ValueError: eps_t must be >= 0 and finite. Found nan." in text, text
    assert "lost sys.stderr" not in proc.stderr, proc.stderr[-2000:]
    assert str(log) in proc.stderr, "the terminal must say where the traceback is: " + proc.stderr[-2000:]


def test_failing_check_keeps_its_traceback(tmp_path):
    raw = tmp_path / "raw.csv"
    raw.write_text("x\n1\n")  # not fig_oc's columns
    log = tmp_path / "check.log"
    proc = run_script(
        "check.py",
        tmp_path,
        log=str(log),
        input={"raw": str(raw)},
        output={"claims": str(tmp_path / "claims.csv")},
        params={"cfg": section("fig_oc"), "module": "privtest.checks.fig_oc"},
        wildcards={"id": "fig_oc"},
    )
    assert proc.returncode != 0
    text = log.read_text()
    assert "Traceback (most recent call last)" in text and "KeyError" in text, f"log: {text!r}\n{proc.stderr[-2000:]}"


def test_failing_notebook_keeps_traceback_and_executed_copy(tmp_path):
    raw = tmp_path / "missing.csv"  # the notebook's pd.read_csv fails
    log = tmp_path / "results/logs/figures/fig_noise_penalty.log"
    log.parent.mkdir(parents=True)
    out = {k: str(tmp_path / v.format("fig_noise_penalty")) for k, v in FILES.items()}
    proc = run_script(
        "run_notebook.py",
        tmp_path,
        log=str(log),
        input={"notebook": str(ROOT / "notebooks/fig_noise_penalty.ipynb"), "raw": str(raw)},
        output=out,
        params={"cfg": section("fig_noise_penalty"), "caption": "", "seed": 1, "benchmark": "none.tsv"},
        wildcards={"id": "fig_noise_penalty"},
    )
    assert proc.returncode != 0
    text = log.read_text()
    assert "Traceback (most recent call last)" in text and "FileNotFoundError" in text, (
        f"log: {text[-3000:]!r}\n{proc.stderr[-2000:]}"
    )
    failed = tmp_path / "results/logs/notebooks/fig_noise_penalty.failed.ipynb"
    assert failed.is_file(), sorted(str(p) for p in tmp_path.rglob("*.ipynb"))
    assert str(failed.relative_to(tmp_path)) in text, "the log must say where the failed notebook is"
    cells = json.loads(failed.read_text())["cells"]
    assert any("FileNotFoundError" in json.dumps(c.get("outputs", [])) for c in cells)
    assert not Path(out["executed"]).exists() or Path(out["executed"]) != failed


FILES = {
    "pdf": "figures/{}.pdf",
    "png": "figures/{}.png",
    "data": "figures/data/{}.csv",
    "executed": "results/notebooks/{}.ipynb",
    "provenance": "figures/{}.provenance.json",
}


# Workflow-level tests: Snakemake runs in a temporary copy of the repository (tests/test_workflow.py's helpers).


@pytest.mark.workflow
def test_failing_jobs_in_a_snakemake_run_keep_their_tracebacks(tmp_path):
    repo = copy_repo(tmp_path / "fail")
    module = repo / "src/privtest/experiments/fig_noise_penalty.py"
    original = module.read_text()
    module.write_text(original + '\n\ndef simulate(cfg, rng, inputs):\n    raise ValueError("injected failure")\n')
    proc = run(repo, "figures/fig_noise_penalty.pdf", "--cores", "1", *QUICK, check=False)
    assert proc.returncode != 0
    log = (repo / "results/logs/simulate/fig_noise_penalty.log").read_text()
    assert "Traceback (most recent call last)" in log and "ValueError: injected failure" in log, log
    assert "lost sys.stderr" not in proc.stdout + proc.stderr

    module.write_text(original)
    nb = repo / "notebooks/fig_noise_penalty.ipynb"
    doc = json.loads(nb.read_text())
    doc["cells"].append(
        {"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [], "source": "1 / 0"}
    )
    nb.write_text(json.dumps(doc))
    proc = run(repo, "figures/fig_noise_penalty.pdf", "--cores", "1", *QUICK, check=False)
    assert proc.returncode != 0
    assert (repo / "results/raw/fig_noise_penalty.csv").is_file()
    log = (repo / "results/logs/figures/fig_noise_penalty.log").read_text()
    assert "ZeroDivisionError" in log and "results/logs/notebooks/fig_noise_penalty.failed.ipynb" in log, log
    failed = repo / "results/logs/notebooks/fig_noise_penalty.failed.ipynb"
    assert "ZeroDivisionError" in failed.read_text()
    assert not (repo / "results/notebooks/fig_noise_penalty.ipynb").exists()  # the declared output is deleted
