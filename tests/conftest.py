"""Shared test helpers, the session's quick build, and the two tiers of ``make test``.

``make test`` runs two pytest sessions at once: the unit and statistical tests with pytest-xdist (``-n auto``) and
the workflow tests (marker ``workflow``, or using the ``quick_build`` fixture) in one process, so the quick
catalogue is built once (a session fixture is set up once per xdist worker that uses it; xdist 3.8's
``--dist loadgroup`` cannot keep a group in one worker under pytest 9.2: it renames ``item._nodeid``, which pytest
9.2 no longer reads). A new test file needs no mark: it lands in the unit tier unless it runs Snakemake (mark it
``workflow``).
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
    tier of ``make test``, with the other tests sharing that build."""
    for item in items:
        if "quick_build" in item.fixturenames and not item.get_closest_marker("workflow"):
            item.add_marker(pytest.mark.workflow)


@pytest.fixture(scope="session")
def quick_build(tmp_path_factory):
    """The whole quick catalogue (config/quick.yaml) built once with ``--cores 2`` in a copy of the repository:
    a Path. Tests read it; a test that edits or rebuilds takes its own copy (``repo_copies.clone_built``)."""
    return build_quick(tmp_path_factory.mktemp("quick") / "repo")
