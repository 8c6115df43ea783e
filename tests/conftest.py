"""Shared test helpers, the session's quick build, and the two tiers of ``make test``.

``make test`` runs two pytest sessions at once: the unit and statistical tests with pytest-xdist (``-n auto``) and
the workflow tests (marker ``workflow``, or using the ``quick_build`` fixture) on two workers that share one quick
build and one report of it (``quick_build``, ``quick_report``: a session fixture is set up once per xdist worker, so
the build and the report themselves are made once under a file lock, :func:`_shared_once`; xdist 3.8's ``--dist
loadgroup`` cannot keep a group in one worker under pytest 9.2: it renames ``item._nodeid``, which pytest 9.2 no
longer reads). A new test file needs no mark: it lands in the unit tier unless it runs Snakemake (mark it
``workflow``).
"""

import fcntl
import os
import shutil
from pathlib import Path

# One BLAS/OpenMP thread per test process: with xdist every core already runs a worker (oversubscription otherwise).
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from repo_copies import NO_SLURM_CONTROLLER, QUICK, build_quick, clone_built, run  # noqa: E402
from scipy import stats  # noqa: E402

# No SLURM controller runs during the tests (the SLURM test starts its own, and passes slurm=True to run()): every
# process of the session, not only the Snakemake runs of repo_copies.run, finds the stand-in scontrol first, so that
# importing Snakemake's scheduler (the SLURM plugin asks the controller for MinJobAge) does not wait ~10 s for one.
if str(NO_SLURM_CONTROLLER) not in os.environ.get("PATH", "").split(os.pathsep):
    os.environ["PATH"] = os.pathsep.join([str(NO_SLURM_CONTROLLER), os.environ.get("PATH", os.defpath)])

#: False-failure probability of every statistical test in this suite.
ALPHA = 1e-6


def binom_interval(k: int, n: int, alpha: float = ALPHA) -> tuple[float, float]:
    """Two-sided Clopper-Pearson interval at level 1 - alpha."""
    lo = stats.beta.ppf(alpha / 2, k, n - k + 1) if k > 0 else 0.0
    hi = stats.beta.ppf(1 - alpha / 2, k + 1, n - k) if k < n else 1.0
    return float(lo), float(hi)


def mean_interval(x: np.ndarray, alpha: float = ALPHA) -> tuple[float, float]:
    """Normal-approximation interval for the mean of i.i.d. samples x at level 1 - alpha."""
    z = stats.norm.ppf(1 - alpha / 2)
    half = z * x.std(ddof=1) / np.sqrt(len(x))
    return float(x.mean() - half), float(x.mean() + half)


@pytest.hookimpl(tryfirst=True)  # before the -m selection (pytest's mark plugin)
def pytest_collection_modifyitems(config, items):
    """A test using the ``quick_build`` fixture is a workflow test (marker ``workflow``): it runs in the workflow
    tier of ``make test``, with the other tests sharing that build.

    Outside the workflow tier the long tests run first (marker ``packaging``: a fresh venv and a serial pytest run
    in it, a minute; then ``slow``), each group in collection order: pytest-xdist hands the tests out in this order,
    so the long ones start while the many short ones remain to fill both workers to the end, instead of one long
    test running alone on one core at the end of the session. The workflow tier keeps its order."""
    for item in items:
        if "quick_build" in item.fixturenames and not item.get_closest_marker("workflow"):
            item.add_marker(pytest.mark.workflow)

    def rank(item) -> int:
        if item.get_closest_marker("workflow"):
            return 2
        return 0 if item.get_closest_marker("packaging") else 1 if item.get_closest_marker("slow") else 2

    items.sort(key=rank)  # stable: the order within each group is kept


def _shared_once(tmp_path_factory, name: str, make) -> Path | None:
    """Under pytest-xdist, run ``make(dest)`` once per session for all workers: the first worker to ask runs it
    into ``dest`` (a Path in the session's shared temporary directory, common to its workers) under an exclusive
    ``fcntl`` lock, the others wait on the lock; returns ``dest``. Without xdist: None (the caller builds its own). A
    failure is recorded, so the other workers fail with its message instead of running ``make`` again."""
    if os.environ.get("PYTEST_XDIST_WORKER") is None:
        return None
    shared = tmp_path_factory.getbasetemp().parent / "quick_shared"  # the session's base, common to its workers
    shared.mkdir(exist_ok=True)
    dest, done, failed = shared / name, shared / f"{name}.done", shared / f"{name}.failed.txt"
    with open(shared / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file is closed
        if not done.exists() and not failed.exists():
            try:
                make(dest)
            except BaseException as exc:
                failed.write_text(f"{type(exc).__name__}: {exc}")
                raise
            done.touch()
    if failed.exists():
        pytest.fail(f"the shared {name} failed (on another worker):\n{failed.read_text()[-4000:]}")
    return dest


@pytest.fixture(scope="session")
def quick_build(tmp_path_factory):
    """The whole quick catalogue (config/quick.yaml) built once with ``--cores 2`` in a copy of the repository:
    a Path. Tests read it; a test that edits or rebuilds takes its own copy (``repo_copies.clone_built``).

    Under pytest-xdist (``make test-workflow`` runs the workflow tier on two workers) the catalogue is still built
    once per session (:func:`_shared_once`): the first worker to ask builds it in the session's shared temporary
    directory, the others wait, and each worker then gets its own copy of the build (a test that edits a file of its
    ``quick_build`` in place, then restores it, cannot be seen by another worker's test)."""
    shared = _shared_once(tmp_path_factory, "repo", build_quick)
    if shared is None:
        return build_quick(tmp_path_factory.mktemp("quick") / "repo")
    return clone_built(shared, tmp_path_factory.mktemp("quick") / "repo")


@pytest.fixture(scope="session")
def quick_report(quick_build, tmp_path_factory):
    """``make report`` of the quick build (``snakemake --report figures/report.html`` with config/quick.yaml) in
    the worker's ``quick_build``: the Path of the HTML file. Read by the report tests of tests/test_workflow.py and,
    in headless Chromium, tests/test_report_browser.py.

    Under pytest-xdist the report is made once per session (:func:`_shared_once`: every worker's ``quick_build``
    is a copy of the same build, so their reports are the same file): the first worker to ask writes it in its
    ``quick_build`` and leaves a copy in the shared directory; the other workers copy that file into theirs."""
    report = quick_build / "figures/report.html"

    def make(dest: Path) -> None:
        run(quick_build, "--report", "figures/report.html", *QUICK)
        shutil.copyfile(report, dest)

    shared = _shared_once(tmp_path_factory, "report.html", make)
    if shared is None:
        run(quick_build, "--report", "figures/report.html", *QUICK)
    elif not report.exists():
        shutil.copyfile(shared, report)
    return report


@pytest.fixture(scope="session")
def privtest_wheel(tmp_path_factory) -> Path:
    """The library's wheel (``test_packaging.build_wheel``), built once per session for the packaging tests
    (tests/test_packaging.py, tests/test_oldest_versions.py), which install it and never modify it: the Path of
    the ``.whl``. Under pytest-xdist the first worker to ask builds it (:func:`_shared_once`)."""
    from test_packaging import build_wheel

    shared = _shared_once(tmp_path_factory, "wheel", build_wheel)
    if shared is None:
        return build_wheel(tmp_path_factory.mktemp("wheel"))
    (wheel,) = (shared / "dist").glob("privtest-*.whl")
    return wheel
