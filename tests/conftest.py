"""Shared test helpers, the session's quick build, and the test layout under pytest-xdist.

``make test`` runs ``pytest -n auto --dist loadgroup``: the unit and statistical tests are spread over the workers;
every test marked ``workflow`` or using the ``quick_build`` fixture is put in one xdist group, so those tests run in
one worker and the quick catalogue is built once per session (a session fixture is set up once per worker that
uses it). A new test file needs no mark: it lands in the unit tier unless it runs Snakemake (mark it ``workflow``).
"""

import os

# One BLAS/OpenMP thread per test process: with xdist every core already runs a worker (oversubscription otherwise).
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from repo_copies import build_quick  # noqa: E402
from scipy import stats  # noqa: E402

#: False-failure probability of every statistical test in this suite.
ALPHA = 1e-6

#: The xdist group of the tests that run Snakemake or read the session's quick build.
WORKFLOW_GROUP = "workflow"


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


def pytest_collection_modifyitems(config, items):
    """Workflow tests (marker ``workflow`` or fixture ``quick_build``) in one xdist group, run first in it: the
    longest chain of the suite starts at once while the other workers take the unit tests."""
    group = pytest.mark.xdist_group(WORKFLOW_GROUP)
    workflow = [i for i in items if i.get_closest_marker("workflow") or "quick_build" in i.fixturenames]
    for item in workflow:
        item.add_marker(group)
    chosen = set(map(id, workflow))
    items[:] = workflow + [i for i in items if id(i) not in chosen]


@pytest.fixture(scope="session")
def quick_build(tmp_path_factory):
    """The whole quick catalogue (config/quick.yaml) built once with ``--cores 2`` in a copy of the repository:
    a Path. Tests read it; a test that edits or rebuilds takes its own copy (``repo_copies.clone_built``)."""
    return build_quick(tmp_path_factory.mktemp("quick") / "repo")
