"""privtest: the Generalized Thresholding Mechanism and its analysis (Chaturvedi, Henzinger, Upadhyay).

Public API (the one list; ``tests/test_api.py`` checks it against ``__all__`` and that every name below exists).
Units: eps, eps_t, eps_C are privacy parameters in nats; beta, delta, p, p* are probabilities; t, T count steps
(t >= 1); N_t counts evaluations of M_t. Every constructor and function raises ``ValueError`` naming the parameter
and its range on bad input. The argument contract, once for the whole library (docs/library.md): every ``rng`` takes
what ``numpy.random.default_rng`` takes; integers may be integral floats, never bools or fractions; a tester runs at
most its T steps, on mechanisms promising eps <= the eps_t it was calibrated for, whose counts are 0 <= K <= n.
Names marked ``module.name`` are imported from that module. The top-level names are
loaded on first access (PEP 562): importing one submodule (``privtest.exact``, say) does not execute the rest of the
library, so the workflow's derived dependencies (``workflow/lib/privtest_workflow/deps.py``, which reads
:data:`_EXPORTS`) stay precise.

Mechanisms (Definition 1: M_t maps the data to {-1, +1}; ``count_plus(n, rng)`` -> int64 array shaped like n):
    Mechanism                   ABC: attributes eps (>= 0), delta (in [0, 1)); count_plus(n, rng) counts the +1s
                                among n independent evaluations, n an int >= 0 or an int array (one count per entry).
    SampledMechanism(sample, eps, delta=0)
                                a user's black box: sample(n, rng) -> n outputs in {-1, +1} (a plain callable per
                                evaluation fits as ``lambda n, rng: [f(rng) for _ in range(n)]``).
    CountingMechanism(count, eps, delta=0)
                                a user's vectorized black box: count(n, rng) -> the number of +1s in [0, n].
    BernoulliMechanism(p, eps, delta=0)
                                simulation box with Pr[+1] = p in [0, 1] (one binomial draw per count).
    LaplaceThresholdMechanism(value, threshold, eps)
                                sgn(value + Lap(1/eps) - threshold), sensitivity 1 (Corollary 30's reduction).
    Negated(base)               -M: the flipped variant of Section 4 (p -> 1 - p).
    Purified(base, phi=None)    Lemma 24's binary symmetric channel; pure eps_t-DP at phi = purification_phi.
    purify(m)                   Corollary 25: Purified(m) if m.delta > 0, else m.
    purification_phi(eps, delta)
                                phi = delta / (e^eps - 1 + 2 delta) (Lemma 24(3)), float in [0, 1/2].

The GTM (Algorithm 1) and its calibrations (Theorems 21, 23; all frozen dataclasses with ``step(t, eps_t, p*)`` ->
StepParams and ``max_loss(T, eps_t)`` -> the worst transcript loss of at most T steps, eps):
    GlobalCalibration(eps, beta, theta, gamma, variant="auto")
                                Theorem 21: pure eps-DP; eps > 0, beta in (0, 1), theta > 0, gamma in (1, 2],
                                variant "auto" (flipping rule) | "direct" | "flipped".
    ExPostCalibration(eps_C, beta, C_H, gamma, variant="auto")
                                Theorem 23: ex-post loss eps_C on continuation, eps_C + C_H eps_t ln(4/beta_t) when
                                halting at t (``max_loss(t, eps_t)``; ``StepParams.halt_loss``).
    calibration.ExactTailCalibration(eps, beta, theta, gamma, variant="auto", budget_scale=1)
                                Theorem 21's noise and guarantee, exact Poisson tails: fewer evaluations.
    calibration.certified_calibration(eps, beta, theta, gamma, T, eps_t, pstar, variant="auto", tol=0.02)
                                -> (ExactTailCalibration, certified error): whole-run error over T steps <= beta,
                                computed exactly (a finite-horizon guarantee).
    GTM(calibration, rng)       one instance; ``step(mechanism, pstar)`` -> bool (halted); attributes t, halted,
                                samples (N_t per step), counts (K_t), params (StepParams per step). RuntimeError
                                after a halt.
    StepParams                  per-step tau1, mu1, tau2, s, c, rho, log_Lambda, pbar, halt_loss, continue_loss,
                                expected_samples (E[N_t]).
    rejection_threshold(pstar, log_gamma_Lambda)
                                pbar = max(p*/(gamma Lambda), 1 - gamma Lambda (1 - p*)), float or array.
    testers.Tester              the complete tester interface (privacy, error bounds, pbar(t), halt_p(t), sample
                                bounds, ``run``, ``critical_p``, ...).
    testers.GTMTester(cal, pstar, eps1, T)
                                the GTM as a tester: ``run(mechanisms, runs, rng)`` -> (halt_step int64 (runs,),
                                0 = no halt; samples int64 (runs, T)), ``privacy`` -> bounds.Privacy(eps, delta).

Poisson thresholds and Definition 7's schedule:
    lambda_left(x, alpha), lambda_right(x, alpha)
                                eqs. (3)-(4): Poisson means with Pr[Po <= x] <= alpha above lambda_left and
                                Pr[Po >= x + 1] <= alpha below lambda_right (x >= 0, alpha in (0, 1); float or array).
    count_threshold(alpha, beta, gamma)
                                Lemma 11: an int c with lambda_left(c, alpha) <= gamma lambda_right(c, beta).
    omega(t), beta_t(t, beta), zeta()
                                Definition 7: omega_t (summing to 1 over t >= 1), beta_t = omega_t beta (float or
                                array for array t), zeta() the normalising constant.

OpenDP (optional group ``opendp``):
    opendp.make_gtm(measurements, calibration, pstar, d_in=1, rng=None)
                                the GTM over OpenDP measurements as one OpenDP measurement (Lemma 17's map).
"""

from __future__ import annotations

import importlib
from importlib.metadata import PackageNotFoundError, version

#: Public name -> the module that defines it.
_EXPORTS = {
    "GTM": "privtest.gtm",
    "ExPostCalibration": "privtest.gtm",
    "GlobalCalibration": "privtest.gtm",
    "StepParams": "privtest.gtm",
    "rejection_threshold": "privtest.gtm",
    "BernoulliMechanism": "privtest.mechanisms",
    "CountingMechanism": "privtest.mechanisms",
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
try:  # one source of truth: the version in pyproject.toml, read from the installed package's metadata
    __version__ = version("privtest")
except PackageNotFoundError:  # pragma: no cover - running from a source tree that was never installed
    __version__ = "0+unknown"


def __getattr__(name: str):
    if name not in _EXPORTS:
        raise AttributeError(f"module 'privtest' has no attribute {name!r}")
    value = getattr(importlib.import_module(_EXPORTS[name]), name)
    globals()[name] = value  # later accesses skip this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
