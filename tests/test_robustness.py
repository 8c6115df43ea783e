"""Bad input refused up front, failures explained (workflow side).

The Snakemake scripts are run here as Snakemake runs them (a fresh interpreter whose global ``snakemake`` holds the
job's input, output, params, wildcards and log; ``__file__`` is the script's real path), without a Snakemake run, so
a failing job can be provoked with inputs the config validation would refuse. Tests that need Snakemake itself are
marked ``workflow``.
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import yaml
from privtest_workflow import catalogue, configuration
from repo_copies import QUICK, clone_built, planned_jobs, run
from snakemake.utils import update_config

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = ROOT / "workflow" / "scripts"
CONFIG = yaml.safe_load((ROOT / "config/config.yaml").read_text())
QUICK_CFG = yaml.safe_load((ROOT / "config/quick.yaml").read_text())


class Job(dict):
    """A dict with attribute access: stands in for Snakemake's named lists (``sm.input.raw``, ``sm.input.items()``)."""

    __getattr__ = dict.__getitem__


def run_script(script: str, tmp_path: Path, *, log: str, env: dict | None = None, **job) -> subprocess.CompletedProcess:
    """Run ``workflow/scripts/<script>`` in a fresh interpreter with ``snakemake`` = the job (like Snakemake does);
    ``env``: extra environment variables."""
    sm = Job(log=[log], **{k: Job(v) for k, v in job.items()})
    blob = tmp_path / "job.pickle"
    blob.write_bytes(pickle.dumps(sm))
    path = SCRIPTS / script
    runner = textwrap.dedent(
        f"""
        import pickle, sys
        sys.path[:0] = [{str(ROOT / "tests")!r}, {str(ROOT / "workflow/lib")!r}]
        from test_robustness import Job  # noqa: F401  (unpickling)
        snakemake = pickle.loads(open({str(blob)!r}, "rb").read())
        __file__ = {str(path)!r}
        exec(compile(open(__file__).read(), __file__, "exec"))
        """
    )
    environ = {**os.environ, **(env or {})}
    return subprocess.run([sys.executable, "-c", runner], cwd=tmp_path, capture_output=True, text=True, env=environ)


def section(name: str, **override) -> dict:
    """The output's cfg as the workflow passes it for config.yaml + quick.yaml, then ``override`` (unchecked: the
    config validation would refuse some of the values these tests need)."""
    config: dict = {}
    for doc in (CONFIG, QUICK_CFG):
        update_config(config, doc)
    cat = catalogue.load(ROOT)
    return {**cat[name].cfg(configuration.load(config, cat, ROOT)), **override}


# Item 1: a failing simulation, check or notebook keeps its traceback in the rule's log.


def test_failing_simulation_keeps_its_traceback(tmp_path):
    # fig_noise_penalty: {eps_ratio: .nan} dies inside the library: the log says where and why
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
            "module": "privtest_artifact.outputs.fig_noise_penalty",
            "seed": CONFIG["seed"],
        },
        wildcards={"id": "fig_noise_penalty"},
    )
    assert proc.returncode != 0
    text = log.read_text()
    assert "Traceback (most recent call last)" in text, f"log: {text!r}\nstderr: {proc.stderr[-2000:]}"
    assert "ValueError: eps1 must be > 0 and finite. Found nan." in text, text
    assert "lost sys.stderr" not in proc.stderr, proc.stderr[-2000:]
    assert str(log) in proc.stderr, "the terminal must say where the traceback is: " + proc.stderr[-2000:]


def test_failing_library_import_keeps_its_traceback(tmp_path):
    # an error raised while importing the artifact package reaches the log too (it is opened before the import).
    # The workflow puts this checkout's src first on sys.path (privtest_workflow), so the failure is injected by an
    # import hook that a sitecustomize module on PYTHONPATH installs at start-up: importing
    # privtest_artifact.provenance (done by simulate.py only) raises.
    inject = tmp_path / "inject"
    inject.mkdir()
    (inject / "sitecustomize.py").write_text(
        "import sys\n\n\n"
        "class _Broken:\n"
        "    @staticmethod\n"
        "    def find_spec(name, path=None, target=None):\n"
        "        if name == 'privtest_artifact.provenance':\n"
        "            raise ImportError('injected: privtest_artifact cannot be imported')\n\n\n"
        "sys.meta_path.insert(0, _Broken)\n"
    )
    log = tmp_path / "results/logs/simulate/fig_oc.log"
    log.parent.mkdir(parents=True)
    proc = run_script(
        "simulate.py",
        tmp_path,
        log=str(log),
        env={"PYTHONPATH": str(inject)},
        input={},
        output={"raw": str(tmp_path / "results/raw/fig_oc.csv")},
        params={"cfg": {}, "module": "privtest_artifact.outputs.fig_oc", "seed": CONFIG["seed"]},
        wildcards={"id": "fig_oc"},
    )
    assert proc.returncode != 0
    text = log.read_text() if log.is_file() else ""
    assert "ImportError: injected: privtest_artifact cannot be imported" in text, (
        f"log: {text!r}\nstderr: {proc.stderr[-2000:]}"
    )


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
        params={
            "cfg": section("fig_oc"),
            "module": "privtest_artifact.outputs.fig_oc",
            "n_outputs": len(catalogue.load(ROOT)),
        },
        wildcards={"id": "fig_oc"},
    )
    assert proc.returncode != 0
    text = log.read_text()
    assert "Traceback (most recent call last)" in text and "KeyError" in text, f"log: {text!r}\n{proc.stderr[-2000:]}"


@pytest.mark.slow  # seconds: run by make test, not test-fast
def test_failing_notebook_keeps_traceback_and_executed_copy(tmp_path):
    raw = tmp_path / "missing.csv"  # the notebook's inputs are missing: reading them fails
    log = tmp_path / "results/logs/figures/fig_noise_penalty.log"
    log.parent.mkdir(parents=True)
    out = {k: str(tmp_path / v.format("fig_noise_penalty")) for k, v in FILES.items()}
    proc = run_script(
        "run_notebook.py",
        tmp_path,
        log=str(log),
        input={
            "notebook": str(ROOT / "notebooks/fig_noise_penalty.ipynb"),
            "raw": str(raw),
            "analysis": str(tmp_path / "missing"),
            "simulation": str(tmp_path / "none.json"),
        },
        output=out,
        params={"cfg": section("fig_noise_penalty"), "caption": "", "seed": 1},
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


# Workflow-level tests: Snakemake runs in copies of the session's quick build (tests/repo_copies.py).


@pytest.mark.workflow
def test_failing_jobs_in_a_snakemake_run_keep_their_tracebacks_and_the_previous_raw_file(quick_build, tmp_path):
    repo = clone_built(quick_build, tmp_path / "fail")
    raw = repo / "results/raw/fig_noise_penalty.csv"
    before = raw.read_bytes()
    module = repo / "src/privtest_artifact/outputs/fig_noise_penalty.py"
    original = module.read_text()
    module.write_text(original + '\n\ndef simulate(cfg, rng, inputs):\n    raise ValueError("injected failure")\n')
    proc = run(repo, "figures/fig_noise_penalty.pdf", "--cores", "1", *QUICK, check=False)
    assert proc.returncode != 0
    assert "rule simulate:" in proc.stdout + proc.stderr, (proc.stdout + proc.stderr)[-3000:]
    log = (repo / "results/logs/simulate/fig_noise_penalty.log").read_text()
    assert "Traceback (most recent call last)" in log and "ValueError: injected failure" in log, log
    assert "lost sys.stderr" not in proc.stdout + proc.stderr
    assert raw.is_file() and raw.read_bytes() == before, "the failing job deleted the previous good raw file"

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


# Items 2-5 and 7: the config, refused or applied before any job. One copy of the repository with three cheap raw
# tables built from config.yaml + quick.yaml + ORDER_A (fig_oc's cases written key by key in one order).
ORDER_A = "fig_oc:\n  cases:\n    - {pstar: 0.2, variant: direct}\n    - {pstar: 0.95, variant: flipped}\n"
ORDER_B = "fig_oc:\n  cases:\n    - {variant: direct, pstar: 0.2}\n    - {variant: flipped, pstar: 0.95}\n"
BUILT = ("results/raw/fig_noise_penalty.csv", "results/raw/fig_oc.csv", "results/raw/table3.csv")


@pytest.fixture(scope="module")
def built(quick_build, tmp_path_factory):
    repo = clone_built(quick_build, tmp_path_factory.mktemp("cfg") / "repo")
    (repo / "a.yaml").write_text(ORDER_A)
    (repo / "b.yaml").write_text(ORDER_B)
    run(repo, *BUILT, "--cores", "1", *QUICK, "a.yaml")
    return repo


def snakemake_with(repo: Path, override: str, *args: str, name: str = "override.yaml") -> subprocess.CompletedProcess:
    """Snakemake on ``repo`` with config.yaml, quick.yaml, a.yaml and the YAML text ``override``."""
    (repo / name).write_text(override)
    return run(repo, *args, *QUICK, "a.yaml", name, check=False)


def refused(repo: Path, override: str, target: str) -> str:
    """Plan ``target`` with ``override``: Snakemake must stop at config load (no job planned); returns its output."""
    proc = snakemake_with(repo, override, "-n", target)
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0, out[-3000:]
    assert "Job stats" not in out and not planned_jobs(proc), "a job was planned:\n" + out[-3000:]
    return out


@pytest.mark.workflow
@pytest.mark.parametrize(
    "override, key",
    [
        ("fig_noise_penalty: {eps_ratio: .nan}", "fig_noise_penalty.eps_ratio"),  # a NaN is refused
        ("fig_noise_penalty: {eps_ratio: .inf}", "fig_noise_penalty.eps_ratio"),
        ("fig_oc: {runs: 2000.0}", "fig_oc.runs"),  # an integer key given a float
    ],
)
def test_nan_inf_and_integral_floats_are_refused_before_any_job(built, override, key):
    out = refused(built, override, "results/raw/" + key.split(".")[0] + ".csv")
    assert key in out, out[-3000:]


@pytest.mark.workflow
def test_unknown_tester_is_refused_with_the_allowed_names(built):
    out = refused(built, "fig_error_rates: {methods: [GTM, Cohn]}", "results/raw/fig_error_rates.csv")  # item 3
    assert "fig_error_rates.methods" in out and "Cohn" in out and "LiuTalwar" in out, out[-3000:]


@pytest.mark.workflow
def test_value_a_tester_cannot_accept_is_refused_at_config_load(built):
    out = refused(built, "fig_error_rates: {eps_ratio: 0.6, methods: [Cohen]}", "results/raw/fig_error_rates.csv")
    assert "fig_error_rates.eps_ratio" in out and "Cohen" in out, out[-3000:]


@pytest.mark.workflow
@pytest.mark.parametrize(
    "override, reruns",
    [("gtm: {eps: 2.0}", {"fig_noise_penalty", "fig_oc"}), ("co: {beta: 0.1}", {"table3"})],  # inherited keys
)
def test_shared_section_override_reaches_every_inheriting_section(built, override, reruns):
    jobs = planned_jobs(snakemake_with(built, override, "-n", *BUILT))
    assert jobs.get("simulate") == reruns, jobs


@pytest.mark.workflow
def test_misspelled_section_gives_a_short_message(built):
    out = refused(built, "fig_ocx: {runs: 3}", "results/raw/fig_oc.csv")  # a misspelled section
    lines = [line for line in out.splitlines() if line.strip()]
    assert len(lines) <= 6, f"{len(lines)} lines:\n" + "\n".join(lines[:40])
    assert "fig_ocx" in out and "fig_oc," in out, out


@pytest.mark.workflow
def test_same_override_in_another_key_order_reruns_nothing(built):
    jobs = planned_jobs(run(built, "-n", *BUILT, *QUICK, "b.yaml"))  # an equivalent config plans nothing
    assert jobs == {}, jobs


# Item 8: touching a script without changing it plans nothing; a real edit still reruns its jobs.


@pytest.mark.workflow
def test_touched_scripts_plan_nothing_but_edited_ones_rerun(quick_build, tmp_path):
    repo = clone_built(quick_build, tmp_path / "touch")
    targets = ("figures/fig_noise_penalty.pdf", "results/claims/fig_noise_penalty.csv")
    for script in ("simulate.py", "check.py", "run_notebook.py"):
        (repo / "workflow/scripts" / script).touch()  # `touch workflow/scripts/simulate.py`: a new mtime, same code
    proc = run(repo, "-n", *targets, *QUICK)
    assert "workflow specific profile profiles/default" in proc.stdout + proc.stderr  # the profile is read
    assert planned_jobs(proc) == {}
    with open(repo / "workflow/scripts/simulate.py", "a") as f:
        f.write("# a real edit\n")
    jobs = planned_jobs(run(repo, "-n", *targets, *QUICK))
    assert jobs.get("simulate") == {"fig_noise_penalty"}, jobs


# Item 6: a long TMPDIR (the kernel's IPC socket path would exceed the 107-character limit of AF_UNIX).


@pytest.mark.workflow
def test_notebooks_build_with_a_long_tmpdir(quick_build, tmp_path):
    repo = clone_built(quick_build, tmp_path / "longtmp")
    before = (repo / "results/notebooks/fig_noise_penalty.ipynb").stat().st_mtime_ns
    tmpdir = tmp_path / ("t" * max(1, 90 - len(str(tmp_path))))
    tmpdir.mkdir()
    assert len(str(tmpdir)) > 76  # a temporary directory longer than 76 characters
    env = {**os.environ, "TMPDIR": str(tmpdir)}
    proc = run(repo, "figures/fig_noise_penalty.pdf", "--force", "--cores", "1", *QUICK, check=False, env=env)
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-3000:]
    assert (repo / "results/notebooks/fig_noise_penalty.ipynb").stat().st_mtime_ns > before  # the notebook ran
    assert not list(Path("/tmp").glob("privtest-ipc-*")) or all(
        p.stat().st_uid == os.getuid() for p in Path("/tmp").glob("privtest-ipc-*")
    )


def test_socket_base_falls_back_to_a_short_private_directory(tmp_path):
    from privtest_workflow.kernel import SUFFIX, socket_base

    assert socket_base("/t", 107) == ("/t/ipc", None)
    long_tmp = tmp_path / ("x" * 90)
    ipc, short = socket_base(long_tmp, 107, bases=(str(tmp_path),) if len(str(tmp_path)) < 60 else ("/tmp",))
    try:
        assert short is not None and ipc == str(Path(short, "ipc")) and len(ipc) + SUFFIX <= 107
        assert Path(short).stat().st_mode & 0o777 == 0o700  # private: no other user reaches the sockets
    finally:
        os.rmdir(short)
    assert socket_base(long_tmp, 20) == (None, None)  # no directory short enough: TCP


# The figure's provenance names the code that produced its raw numbers, not only the notebook's.


@pytest.mark.workflow
def test_figure_provenance_records_the_simulation_code(quick_build, tmp_path):
    repo = clone_built(quick_build, tmp_path / "prov")
    sidecar = repo / "figures/fig_noise_penalty.provenance.json"
    first = json.loads(sidecar.read_text())
    code = first["simulation"]["code_sha256"]
    module = "src/privtest_artifact/outputs/fig_noise_penalty.py"
    assert code[module] == hashlib.sha256((repo / module).read_bytes()).hexdigest()
    assert "workflow/scripts/simulate.py" in code and "src/privtest/gtm.py" in code
    assert first["simulation"] == json.loads((repo / "results/raw/fig_noise_penalty.provenance.json").read_text())
    nb = repo / "notebooks/fig_noise_penalty.ipynb"
    nb.write_text(nb.read_text().replace("# fig_noise_penalty:", "# fig_noise_penalty (edited):", 1))
    jobs = planned_jobs(run(repo, "-n", "figures/fig_noise_penalty.pdf", *QUICK))
    assert jobs == {"figure": {"fig_noise_penalty"}}, jobs  # re-plot only
    run(repo, "figures/fig_noise_penalty.pdf", "--cores", "1", *QUICK)
    assert json.loads(sidecar.read_text())["simulation"] == first["simulation"]  # still the simulation's record
