"""Continual observation (Sections 7-8): BatchToCO (Algorithm 3) over the GTM, ThresholdSelect (Algorithm 2), the
test and scored mechanisms (Definition 36), batch DP algorithms (pure and (eps, delta)-DP: Table 2's rows,
:mod:`privtest_artifact.outputs.table2`), real data streams and exact references."""

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
