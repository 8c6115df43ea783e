"""privtest: the Generalized Thresholding Mechanism and its analysis (Chaturvedi, Henzinger, Upadhyay).

The public names below are the paper's objects; see each module for the equation or lemma it implements.
They are loaded on first access (PEP 562): importing one submodule (``privtest.exact``, say) does not execute the
rest of the library, so the workflow's derived dependencies (``workflow/lib/privtest_workflow/deps.py``, which
reads :data:`_EXPORTS`) stay precise.
"""

from __future__ import annotations

import importlib

#: Public name -> the module that defines it.
_EXPORTS = {
    "GTM": "privtest.gtm",
    "ExPostCalibration": "privtest.gtm",
    "GlobalCalibration": "privtest.gtm",
    "StepParams": "privtest.gtm",
    "rejection_threshold": "privtest.gtm",
    "BernoulliMechanism": "privtest.mechanisms",
    "LaplaceThresholdMechanism": "privtest.mechanisms",
    "Mechanism": "privtest.mechanisms",
    "Negated": "privtest.mechanisms",
    "Purified": "privtest.mechanisms",
    "SampledMechanism": "privtest.mechanisms",
    "purification_phi": "privtest.mechanisms",
    "purify": "privtest.mechanisms",
    "count_threshold": "privtest.poisson",
    "lambda_left": "privtest.poisson",
    "lambda_right": "privtest.poisson",
    "beta_t": "privtest.schedule",
    "omega": "privtest.schedule",
    "zeta": "privtest.schedule",
}

__all__ = sorted(_EXPORTS)
__version__ = "0.1.0"


def __getattr__(name: str):
    if name not in _EXPORTS:
        raise AttributeError(f"module 'privtest' has no attribute {name!r}")
    value = getattr(importlib.import_module(_EXPORTS[name]), name)
    globals()[name] = value  # later accesses skip this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
