"""privtest: the Generalized Thresholding Mechanism and its analysis (Chaturvedi, Henzinger, Upadhyay).

The public names below are the paper's objects; see each module for the equation or lemma it implements.
"""

from privtest.gtm import GTM, ExPostCalibration, GlobalCalibration, StepParams, rejection_threshold
from privtest.mechanisms import (
    BernoulliMechanism,
    LaplaceThresholdMechanism,
    Mechanism,
    Negated,
    Purified,
    SampledMechanism,
    purification_phi,
    purify,
)
from privtest.poisson import count_threshold, lambda_left, lambda_right
from privtest.schedule import beta_t, omega, zeta

__all__ = [
    "GTM",
    "BernoulliMechanism",
    "ExPostCalibration",
    "GlobalCalibration",
    "LaplaceThresholdMechanism",
    "Mechanism",
    "Negated",
    "Purified",
    "SampledMechanism",
    "StepParams",
    "beta_t",
    "count_threshold",
    "lambda_left",
    "lambda_right",
    "omega",
    "purification_phi",
    "purify",
    "rejection_threshold",
    "zeta",
]
__version__ = "0.1.0"
