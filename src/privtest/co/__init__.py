"""Continual observation (Sections 7-8): BatchToCO (Algorithm 3) over the GTM, ThresholdSelect (Algorithm 2), the
test and scored mechanisms (Definition 36), batch DP algorithms (pure and (eps, delta)-DP: Table 2's rows,
:mod:`privtest_artifact.outputs.table2`), real data streams and exact references.

Importing it needs only numpy and scipy (pandas is imported by the few functions that read a DataFrame of raw data).

Example:
    >>> import numpy as np
    >>> from privtest.co import BatchToCOParams, batch_to_co
    >>> from privtest.co.maxcut import MaxCut
    >>> problem = MaxCut(5, np.array([[0, 1], [1, 2], [2, 3], [3, 4], [4, 0], [0, 2]] * 5))
    >>> run = batch_to_co(problem, BatchToCOParams(eps=30.0, beta=0.05, pstar=0.45, kappa=0.5, gamma=2.0), 2, rng=0)
    >>> run.value.shape
    (2, 30)
"""

from privtest.co.batch_to_co import CORun, baselines, batch_to_co
from privtest.co.composition import advanced_composition_eps
from privtest.co.mechanisms import ScoredMechanism, TestMechanism, threshold_select, threshold_select_rounds
from privtest.co.params import BatchToCOParams, c_omega, weight_sum_bound

__all__ = [
    "BatchToCOParams",
    "CORun",
    "ScoredMechanism",
    "TestMechanism",
    "advanced_composition_eps",
    "baselines",
    "batch_to_co",
    "c_omega",
    "threshold_select",
    "threshold_select_rounds",
    "weight_sum_bound",
]
