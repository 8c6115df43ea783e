"""The Generalized Thresholding Mechanism (Algorithm 1) and its calibrations (Theorems 21 and 23).

Variable names follow the paper: a shared eta_1 ~ Exp(tau1) drawn at Init, a fresh eta_2,t ~ Exp(tau2_t) per step,
Z_t = s_t (mu1 - eta_1 + eta_2,t), lambda_t = rho_t exp(eps_t Z_t), N_t ~ Po(lambda_t), K_t the number of +1s
among the N_t evaluations (of -M_t when s_t = -1, the flipped variant), halt iff s_t (K_t - c_t - 1/2) > 0.

Privacy (Lemma 17) holds for any c_t, rho_t, s_t: the mechanism is (1/tau1 + 2/tau2_t)-DP at halting and
1/tau1-DP on continuation. A calibration only chooses those per-step values so that the accuracy of
Theorem 21 (global) or Theorem 23 (ex-post) holds.

Guardrails. A step is *vacuous* (:func:`step_vacuity`) when its expected evaluations are infinite or it has no
continuation guarantee. E[N_t] = rho_t e^{s eps_t mu1} E[e^{-s eps_t eta_1}] E[e^{s eps_t eta_2,t}] exists iff
eps_t tau_2,t < 1 on a direct step (the Pareto factor w_t = e^{eps_t eta_2,t} of Theorem 21(3) has index
sigma_t = 1/(eps_t tau_2,t)) and iff eps_t tau1 < 1 on a flipped one (e^{eps_t eta_1}). Hence E[N_t] = inf exactly when

* Theorem 21 (and the exact-tail and certified calibrations, whose noise is Theorem 21's): eps_t >= eps/(theta + 2)
  on a direct step, eps_t >= theta eps/(theta + 2) on a flipped one;
* Theorem 23: C_H ln(4/beta_t) <= 2 on a direct step (eps_t tau_2,t = 2/(C_H ln(4/beta_t)) whatever eps_t; worst at
  t = 1), eps_t >= eps_C on a flipped one;

and, in floating point, when e^{eps_t mu1} overflows (eps_t mu1 >= 709). The continuation guarantee of Theorems 21
and 23 is p_t <= pbar_t: none when pbar_t <= 0 (the flipped branch 1 - gamma Lambda_t (1 - p*) once
gamma Lambda_t (1 - p*) >= 1; the direct branch only when p*/(gamma Lambda_t) underflows).
:class:`privtest.testers.GTMTester` and :func:`privtest.calibration.certified_calibration` refuse a configuration with a
vacuous step t <= T when they are built (:func:`check_admissible`, whose message gives
:func:`largest_admissible_eps_t`); :meth:`GTM.step` and the runners of :mod:`privtest.runs` refuse to run a step with
E[N_t] = inf. Each accepts ``allow_vacuous=True`` (for analyses that study such configurations).

Defaults. :data:`DEFAULT_THETA` = 1 and :data:`DEFAULT_GAMMA` = 1.5, with the measurement that chose them in their
comments; :func:`privtest.calibration.choose_calibration` picks among calibrations for a given run.
"""

from __future__ import annotations

import functools
import math
import struct
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from scipy import special

from privtest import _validate
from privtest.mechanisms import (
    Mechanism,
    binomial_success,
    purify,
)
from privtest.poisson import count_threshold, lambda_left, lambda_right
from privtest.schedule import beta_t as _beta_t
from privtest.schedule import log_inv_omega

__all__ = [
    "BUDGET_SHARE",
    "DEFAULT_GAMMA",
    "DEFAULT_THETA",
    "GTM",
    "MAX_POISSON_MEAN",
    "VARIANTS",
    "ExPostCalibration",
    "GlobalCalibration",
    "StepParams",
    "VacuousConfigurationError",
    "check_admissible",
    "check_step",
    "checked_exp",
    "continue_bound",
    "first_vacuous_step",
    "flip_direction",
    "halt_miss_bound",
    "largest_admissible_eps_t",
    "sample_bound",
    "sample_budget",
    "log4_over_beta_t",
    "log_lambda",
    "promised_eps",
    "reachable_budget",
    "rejection_threshold",
    "run_step",
    "step_budget",
    "step_vacuity",
]

#: Default split parameter theta of Theorem 21 (1/tau1 = theta eps/(theta + 2), 2/tau2 = 2 eps/(theta + 2)).
#: Why 1: it maximizes min(1, theta)/(theta + 2), so E[N_t] is finite for every eps_t < eps/3 in both directions
#: (direct needs eps_t < eps/(theta + 2), flipped eps_t < theta eps/(theta + 2); module docstring). Measured
#: (``benchmarks/default_theta_gamma.py``: Theorem 21, sum of E[N_t] over t <= T and min pbar_t, geometric means over
#: 54 settings eps = 1, beta in {0.01, 0.05, 0.1}, eps_t/eps in {0.02, 0.05, 0.1}, p* in {0.2, 0.5, 0.9},
#: T in {50, 1000}, gamma = 1.5), relative to theta = 1: theta = 0.5 / 0.75 / 1.5 / 2 / 3 need 1.45 / 1.12 / 0.906 /
#: 0.88 / 0.872 times the evaluations for 0.905 / 1.04 / 0.772 / 0.54 / 0.238 times the rejection threshold: theta = 1
#: is within 4% of the best pbar and 15% of the fewest evaluations.
DEFAULT_THETA = 1.0

#: Default target ratio gamma of Lemma 20 (pbar_t = p*/(gamma Lambda_t) on a direct step; c_t grows like
#: 1/(gamma - 1)^2). Why 1.5: gamma trades the rejection threshold for evaluations, and 1.5 is where the trade turns.
#: Measured as for :data:`DEFAULT_THETA` (theta = 1), relative to gamma = 1.5: gamma = 1.1 / 1.25 / 1.75 / 2 need
#: 14.5 / 2.91 / 0.581 / 0.412 times the evaluations for 1.36 / 1.2 / 0.852 / 0.733 times the rejection threshold;
#: below 1.5 each 1% of pbar gained costs about 6% more evaluations (1.25 -> 1.5), above it each 1% of pbar given up
#: saves only 3.4% (1.5 -> 1.75) and 2.3% (1.75 -> 2). :func:`privtest.calibration.choose_calibration` searches around
#: it.
DEFAULT_GAMMA = 1.5


def _flag(name: str, value) -> bool:
    """A keyword flag: True or False only (a ValueError naming ``name`` for 0, 1, None, a string)."""
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False. Found {value!r}.")
    return bool(value)


_PLAIN_FLOATS = (float, np.float64)


def _plain_step_fields(st) -> bool:
    """Whether every field of the StepParams ``st`` is a plain Python/numpy scalar inside its range (what a calibration
    builds): then each check of :meth:`StepParams._check_fields` passes, and this one test replaces them. False
    means "not shown here", not "invalid": the field-by-field checks decide then."""
    f = _PLAIN_FLOATS
    return (
        type(st.t) is int
        and 1 <= st.t < 2**62
        and type(st.c) is int
        and 0 <= st.c < 2**62
        and type(st.s) is int
        and (st.s == 1 or st.s == -1)
        and type(st.eps_t) in f
        and 0.0 <= st.eps_t < math.inf
        and type(st.pstar) in f
        and 0.0 < st.pstar < 1.0
        and type(st.tau1) in f
        and 0.0 < st.tau1 < math.inf
        and type(st.mu1) in f
        and 0.0 < st.mu1 < math.inf
        and type(st.tau2) in f
        and 0.0 < st.tau2 < math.inf
        and type(st.rho) in f
        and 0.0 < st.rho < math.inf
        and type(st.log_Lambda) in f
        and 0.0 <= st.log_Lambda < math.inf
        and type(st.pbar) in f
        and -math.inf < st.pbar <= st.pstar
        and type(st.beta_I) in f
        and 0.0 < st.beta_I < 1.0
        and type(st.beta_II) in f
        and 0.0 < st.beta_II < 1.0
    )


@dataclass(frozen=True)
class StepParams:
    """Per-step parameters of Algorithm 1 chosen by a calibration, with the guarantees they imply.

    Built by a calibration's ``step(t, eps_t, pstar)``; every field is checked on construction.

    Attributes:
        t: step index >= 1.
        eps_t: input privacy of M_t, finite and >= 0.
        pstar: acceptance threshold p*_t in (0, 1).
        tau1, mu1: shared-noise scale and offset (same at every step), finite and > 0.
        tau2: per-step noise scale tau_{2,t}, finite and > 0.
        s: direction s_t (+1 direct, -1 flipped: the GTM then tests -M_t against 1 - p*_t).
        c: integer count threshold c_t >= 0 (Lemma 11).
        rho: base rate rho_t, finite and > 0 (Lemma 20).
        log_Lambda: ln of the noise penalty Lambda_t >= 1 (kept in log space; Lambda_t may overflow a float).
        pbar: rejection threshold (finite, <= p*): the GTM continues w.h.p. whenever p_t <= pbar (none if pbar <= 0).
        beta_I, beta_II: per-step Type I / Type II budgets in (0, 1) conditioned on the good-noise event (Lemma 19).
        halt_loss: privacy loss of a transcript halting at t: 1/tau1 + 2/tau2 (Lemma 17, eq. 7).
        continue_loss: privacy loss of an all-continuation transcript: 1/tau1 (eq. 6).

    Raises:
        ValueError: naming the first field outside its range.

    Example:
        >>> st = GlobalCalibration(1.0, 0.05, 1.0, 1.5).step(1, 0.1, 0.5)
        >>> st.s, st.c, round(st.pbar, 5), round(st.halt_loss, 12)
        (1, 282, 0.02075, 1.0)
    """

    t: int
    eps_t: float
    pstar: float
    tau1: float
    mu1: float
    tau2: float
    s: int
    c: int
    rho: float
    log_Lambda: float
    pbar: float
    beta_I: float
    beta_II: float
    halt_loss: float = field(init=False)
    continue_loss: float = field(init=False)

    def __post_init__(self):
        if not _plain_step_fields(self):  # the checks below, field by field (and their messages)
            self._check_fields()
        object.__setattr__(self, "continue_loss", 1.0 / self.tau1)
        object.__setattr__(self, "halt_loss", 1.0 / self.tau1 + 2.0 / self.tau2)

    def _check_fields(self):
        _validate.step_index(self.t)
        _validate.nonnegative("eps_t", self.eps_t)
        _validate.open_unit("pstar", self.pstar)
        for name, value in (("tau1", self.tau1), ("mu1", self.mu1), ("tau2", self.tau2), ("rho", self.rho)):
            _validate.positive(name, value)
        _validate.sign("s", self.s)
        _validate.integer("c", self.c, 0)
        _validate.nonnegative("log_Lambda", self.log_Lambda)
        _validate.finite("pbar", self.pbar)
        if not self.pbar <= self.pstar:
            raise ValueError(f"pbar must be <= pstar = {self.pstar!r}. Found {self.pbar!r}.")
        _validate.open_unit("beta_I", self.beta_I)
        _validate.open_unit("beta_II", self.beta_II)

    @property
    def Lambda(self) -> float:
        """Noise penalty Lambda_t = exp(log_Lambda) (inf if it overflows a float)."""
        return math.exp(self.log_Lambda) if self.log_Lambda < 709 else math.inf

    @property
    def lambda_max(self) -> float:
        """Bound on lambda_t on the good-noise event (proof of Lemma 22(1)): rho_t Lambda_t for a direct step
        (eta_1 >= 0, eta_2,t <= tau2 ln(4/beta_t)), rho_t for a flipped one (eta_1 <= mu1, eta_2,t >= 0)."""
        return self.rho * (self.Lambda if self.s == 1 else 1.0)

    @property
    def expected_samples(self) -> float:
        """E[N_t] = E[lambda_t] = rho_t E[exp(s_t eps_t (mu1 - eta_1 + eta_2,t))] in closed form (moment generating
        functions of eta_1 ~ Exp(tau1) and eta_2,t ~ Exp(tau2)): rho e^{eps mu1}/((1 + eps tau1)(1 - eps tau2)) for
        s = +1 and rho e^{-eps mu1}/((1 - eps tau1)(1 + eps tau2)) for s = -1, eps = eps_t. Not in the paper; the
        simulations are checked against it. inf when the moment does not exist (eps tau2 >= 1 for s = +1,
        eps tau1 >= 1 for s = -1) or when e^{eps mu1} overflows a float (:func:`step_vacuity` says which)."""
        a, b = self.eps_t * self.tau1, self.eps_t * self.tau2
        if self.s == 1:
            x = self.eps_t * self.mu1
            if b >= 1 or x >= 709:
                return math.inf
            return self.rho * math.exp(x) / ((1 + a) * (1 - b))
        if a >= 1:
            return math.inf
        return self.rho * math.exp(-self.eps_t * self.mu1) / ((1 - a) * (1 + b))


# ---------------------------------------------------------------------------------------------------------------
# Guardrails: why a step is vacuous (module docstring)


def _direct_hint(cal, t) -> str:
    if isinstance(cal, GlobalCalibration):
        return (
            " (Theorem 21: tau_2 = (theta + 2)/eps, so eps_t must be < eps/(theta + 2) = "
            f"{cal.eps / (cal.theta + 2)!r}; the Pareto index sigma_t = eps/(eps_t (theta + 2)) of Theorem 21(3) "
            "must exceed 1)"
        )
    if isinstance(cal, ExPostCalibration) and t is not None:
        need = 2.0 / float(log4_over_beta_t(t, cal.beta))
        return (
            f" (Theorem 23: eps_t tau_2,t = 2/(C_H ln(4/beta_t)) whatever eps_t; C_H = {cal.C_H!r} must exceed "
            f"2/ln(4/beta_t) = {need!r} at t = {t})"
        )
    return ""


def _flipped_hint(cal) -> str:
    if isinstance(cal, GlobalCalibration):
        return (
            " (Theorem 21: tau_1 = (theta + 2)/(theta eps), so eps_t must be < theta eps/(theta + 2) = "
            f"{cal.theta * cal.eps / (cal.theta + 2)!r})"
        )
    if isinstance(cal, ExPostCalibration):
        return f" (Theorem 23: tau_1 = 1/eps_C, so eps_t must be < eps_C = {cal.eps_C!r})"
    return ""


def _moment_reason(s, eps_t, tau1, tau2, mu1, cal=None, t=None) -> str | None:
    """Why E[N_t] is infinite for these step parameters (the conditions of :attr:`StepParams.expected_samples`), or
    None when it is finite."""
    a, b = eps_t * tau1, eps_t * tau2
    if s == 1:
        if b >= 1:
            return (
                "E[N_t] = inf: a direct step (s_t = +1) multiplies the Poisson mean by the Pareto factor "
                f"e^(eps_t eta_2,t), whose mean exists only if eps_t tau_2,t < 1; here eps_t tau_2,t = {b:.6g}"
                + _direct_hint(cal, t)
            )
        if eps_t * mu1 >= 709:
            return (
                "E[N_t] = inf in floating point: the factor e^(eps_t mu1) of a direct step overflows "
                f"(eps_t mu1 = {eps_t * mu1:.6g} >= 709)"
            )
        return None
    if a >= 1:
        return (
            "E[N_t] = inf: a flipped step (s_t = -1) multiplies the Poisson mean by e^(eps_t eta_1), whose mean "
            f"exists only if eps_t tau_1 < 1; here eps_t tau_1 = {a:.6g}" + _flipped_hint(cal)
        )
    return None


def _pbar_reason(pbar) -> str | None:
    if pbar > 0:
        return None
    return (
        f"pbar_t = {pbar:.6g} <= 0: no continuation guarantee (Theorems 21 and 23 promise continuation only at "
        "p_t <= pbar_t = max(p*/(gamma Lambda_t), 1 - gamma Lambda_t (1 - p*)); the flipped branch alone is <= 0 once "
        "gamma Lambda_t (1 - p*) >= 1, the direct one only when it underflows)"
    )


def step_vacuity(st: StepParams, cal=None) -> str | None:
    """Why running step ``st`` would be vacuous, or None: its expected evaluations E[N_t] are infinite (module
    docstring: eps_t tau_2,t >= 1 on a direct step, eps_t tau1 >= 1 on a flipped one, or e^{eps_t mu1} overflows), or
    it has no continuation guarantee (pbar_t <= 0, Theorems 21 and 23).

    Args:
        st: the step's parameters (:class:`StepParams`).
        cal: the calibration that made them (optional): the reason then says which of its parameters to change.

    Returns:
        str or None: the reason, with the numbers, or None if the step is not vacuous.

    Raises:
        ValueError: if ``st`` is not a :class:`StepParams`.

    Example:
        >>> cal = GlobalCalibration(1.0, 0.05, 1.0, 1.5)
        >>> step_vacuity(cal.step(1, 0.1, 0.5)) is None
        True
        >>> step_vacuity(cal.step(1, 0.5, 0.5), cal)[:60]
        'E[N_t] = inf: a direct step (s_t = +1) multiplies the Poisso'
    """
    if not isinstance(st, StepParams):
        raise ValueError(f"st must be a StepParams. Found {type(st).__name__}.")
    return _moment_reason(st.s, st.eps_t, st.tau1, st.tau2, st.mu1, cal, st.t) or _pbar_reason(st.pbar)


def _guarantee(cal, t: int, eps_t: float, pstar: float):
    """(s_t, pbar_t, tau1, tau2_t, mu1) of ``cal.step(t, eps_t, pstar)``: computed without c_t and rho_t for this
    module's calibrations (and their subclasses, the exact-tail ones: same noise, direction and pbar), by ``step``
    otherwise."""
    if isinstance(cal, (GlobalCalibration, ExPostCalibration)):
        return cal._guarantee(int(t), float(eps_t), float(pstar))
    st = cal.step(t, eps_t, pstar)
    return st.s, st.pbar, st.tau1, st.tau2, st.mu1


def _reason_at(cal, t: int, eps_t: float, pstar: float, moment_only: bool = False) -> str | None:
    s, pbar, tau1, tau2, mu1 = _guarantee(cal, t, eps_t, pstar)
    return _moment_reason(s, eps_t, tau1, tau2, mu1, cal, t) or (None if moment_only else _pbar_reason(pbar))


def _schedule(pstar, T: int) -> tuple | float:
    """p* as a float, or a schedule (tuple of T floats in (0, 1)); ValueError naming pstar otherwise."""
    if np.ndim(pstar) == 0:
        _validate.open_unit("pstar", pstar)
        return float(pstar)
    _validate.open_unit("pstar", pstar, scalar=False)
    sched = tuple(float(x) for x in np.asarray(pstar, dtype=float).ravel())
    if len(sched) != T:
        raise ValueError(f"pstar must be a number or a schedule of length T = {T}. Found {len(sched)}.")
    return sched


def _groups(cal, pstar, T: int) -> list[tuple[float, Sequence[int]]]:
    """The steps 1..T grouped by their p*_t: [(p*, increasing steps with that p*)]; one group per step for a
    calibration not of this module (no structure is assumed)."""
    known = isinstance(cal, (GlobalCalibration, ExPostCalibration))
    if isinstance(pstar, float):
        return [(pstar, range(1, T + 1))] if known else [(pstar, (t,)) for t in range(1, T + 1)]
    if not known:
        return [(p, (t,)) for t, p in enumerate(pstar, start=1)]
    groups: dict[float, list[int]] = {}
    for t, p in enumerate(pstar, start=1):
        groups.setdefault(p, []).append(t)
    return list(groups.items())


def _steps_to_check(groups) -> list[tuple[int, float]]:
    """The steps (t, p*_t) that decide whether a group's steps are all admissible: its first and its last. At fixed
    p*_t, Lambda_t is non-decreasing in t (this module's calibrations), so s_t switches at most once (from -1 to +1)
    and pbar_t is non-increasing; the moment conditions do not depend on t except Theorem 23's direct one, which gets
    easier as t grows. So if the first step is admissible, the vacuous steps are those from some t on."""
    return sorted({(ts[i], p) for p, ts in groups for i in (0, -1)})


def _vacuous(cal, eps_t: float, steps, moment_only: bool = False) -> tuple[int, str] | None:
    for t, p in steps:
        reason = _reason_at(cal, t, eps_t, p, moment_only)
        if reason is not None:
            return t, reason
    return None


def _first_vacuous(cal, eps_t: float, groups, moment_only: bool = False) -> tuple[int, str] | None:
    """The first vacuous step over all groups: the first step of a group, or (first admissible, last vacuous) the
    first vacuous step by bisection (:func:`_steps_to_check`: the vacuous steps are then those from some t on)."""
    found = None
    for p, ts in groups:
        reason = _reason_at(cal, ts[0], eps_t, p, moment_only)
        if reason is not None:
            hit = (ts[0], reason)
        elif _reason_at(cal, ts[-1], eps_t, p, moment_only) is None:
            continue
        else:
            lo, hi = 0, len(ts) - 1  # ts[lo] admissible, ts[hi] vacuous; bounded: hi - lo halves every pass
            while hi - lo > 1:
                mid = (lo + hi) // 2
                if _reason_at(cal, ts[mid], eps_t, p, moment_only) is None:
                    lo = mid
                else:
                    hi = mid
            hit = (ts[hi], _reason_at(cal, ts[hi], eps_t, p, moment_only))
        if found is None or hit[0] < found[0]:
            found = hit
    return found


def first_vacuous_step(cal, eps_t: float, pstar, T: int) -> tuple[int, str] | None:
    """The first vacuous step t <= T (:func:`step_vacuity`) of the calibration ``cal`` at input privacy ``eps_t``.

    Args:
        cal: a calibration (:class:`GlobalCalibration`, :class:`ExPostCalibration`, the exact-tail ones of
            :mod:`privtest.calibration`, or anything with ``step(t, eps_t, pstar)``).
        eps_t: input privacy of every step, finite and >= 0.
        pstar: acceptance threshold in (0, 1), or a schedule of T of them.
        T: number of steps, integer >= 1.

    Returns:
        (t, reason) or None. For this module's calibrations the first and last step of each value of p* decide, and a
        bisection finds the first vacuous step between them (:func:`_steps_to_check`), so any T is fast.

    Raises:
        ValueError: naming an argument outside its range.

    Example:
        >>> cal = GlobalCalibration(1.0, 0.05, 1.0, 1.5)
        >>> first_vacuous_step(cal, 0.1, 0.5, 1000) is None
        True
        >>> first_vacuous_step(cal, 0.5, 0.5, 1000)[0]
        1
    """
    T = _validate.step_index(T, "T")
    _validate.nonnegative("eps_t", eps_t)
    pstar = _schedule(pstar, T)
    return _first_vacuous(cal, float(eps_t), _groups(cal, pstar, T))


def _bits(x: float) -> int:
    return struct.unpack("<q", struct.pack("<d", x))[0]


def _float(i: int) -> float:
    return struct.unpack("<d", struct.pack("<q", i))[0]


def _largest_true(ok, lo: float, scale: float) -> float:
    """The largest float x >= lo with ok(x), given ok(lo): doubling from ``scale`` to a failing hi, then bisection on
    the bit patterns of the non-negative floats until lo and hi are adjacent (so ok(lo) and not ok(next float)); inf
    if ok holds up to the largest float. Bounded: at most ~2100 doublings and 64 bisections."""
    hi = max(scale, lo)
    for _ in range(2100):
        if not ok(hi):
            break
        lo, hi = hi, hi * 2.0
        if hi == math.inf:
            return math.inf if ok(_float(_bits(math.inf) - 1)) else _largest_true_between(ok, lo, math.inf)
    return _largest_true_between(ok, lo, hi)


def _largest_true_between(ok, lo: float, hi: float) -> float:
    a, b = _bits(lo), _bits(hi)
    while b - a > 1:
        mid = (a + b) // 2
        if ok(_float(mid)):
            a = mid
        else:
            b = mid
    return _float(a)


def _safe(pred):
    def ok(e):
        try:
            return bool(pred(e))
        except (ValueError, ZeroDivisionError, OverflowError):  # e.g. eps_t = 0 for Theorem 23 (tau_2,t = inf)
            return False

    return ok


def _last_true(pred, lo: float, scale: float) -> float | None:
    """The last float of the down-set {e >= lo: pred(e)} (None if pred(lo) fails)."""
    return _largest_true(pred, lo, scale) if pred(lo) else None


def _component_end(cal, t: int, p: float, lo: float, scale: float, moment_only: bool) -> float | None:
    """The last float e such that step (t, p*_t = p) of one of this module's calibrations is admissible at every
    eps_t in [lo, e] (None if not at lo). At fixed step, Lambda_t grows with eps_t, so s_t switches at most once, from
    -1 to +1, at F (the last float with s_t = -1); for a fixed direction d, the admissible eps_t form a down-set (the
    moment conditions eps_t tau1 < 1, eps_t tau_2,t < 1, eps_t mu1 < 709 and pbar_t > 0 only get harder as eps_t
    grows). So the interval from lo ends at the flipped down-set's end if that comes before F, else at the direct
    down-set's end if that lies beyond F, else at F."""

    def admissible_as(d):
        def ok(e):
            _, pbar, tau1, tau2, mu1 = _guarantee(cal, t, e, p)
            return _moment_reason(d, e, tau1, tau2, mu1) is None and (moment_only or pbar > 0)

        return _safe(ok)

    F = _last_true(_safe(lambda e: _guarantee(cal, t, e, p)[0] == -1), lo, scale)
    if F is None:  # direct from the start
        return _last_true(admissible_as(1), lo, scale)
    flipped_end = _last_true(admissible_as(-1), lo, scale)
    if flipped_end is None or flipped_end < F:
        return flipped_end
    direct_end = _last_true(admissible_as(1), lo, scale)
    return direct_end if direct_end is not None and direct_end > F else F


def _largest_admissible(cal, steps, moment_only: bool = False) -> float:
    """The last float e such that every eps_t in [0, e] (in (0, e] for Theorem 23, whose eps_t must be > 0) leaves
    every step of ``steps`` admissible; 0.0 if there is none. For a calibration of unknown structure, the end of an
    admissible interval found by doubling and bisection."""
    if isinstance(cal, GlobalCalibration):
        scale = float(cal.eps)
    elif isinstance(cal, ExPostCalibration):
        scale = float(cal.eps_C)
    else:
        scale = 1.0
    lo = scale * 2.0**-40 if isinstance(cal, ExPostCalibration) else 0.0
    if isinstance(cal, (GlobalCalibration, ExPostCalibration)):
        ends = [_component_end(cal, t, p, lo, scale, moment_only) for t, p in steps]
        return 0.0 if any(e is None for e in ends) else min(ends)
    ok = _safe(lambda e: _vacuous(cal, e, steps, moment_only) is None)
    if not ok(lo):
        lo = scale * 2.0**-40
        if not ok(lo):
            return 0.0
    return _largest_true(ok, lo, scale)


def largest_admissible_eps_t(cal, pstar, T: int) -> float:
    """The largest input privacy eps_t such that no step t <= T of ``cal`` is vacuous (:func:`first_vacuous_step`) at
    eps_t or at any smaller input privacy (a tester admits mechanisms promising less than its eps_1).

    Found by doubling and bisection on the floats with the library's own arithmetic: the result is admissible and the
    next float above it is not (E[N_t] < inf needs a strict inequality, so the result is the float just below the
    bound of the module docstring when that bound decides). Where the flipping rule switches a step from s_t = -1 to
    +1 as eps_t grows, a larger eps_t can be admissible again (e.g. theta < 1 and p* near 1: flipped steps need
    eps_t < theta eps/(theta + 2), direct ones only eps_t < eps/(theta + 2)); the result is the end of the interval
    that starts at 0.

    Args:
        cal, pstar, T: as in :func:`first_vacuous_step`.

    Returns:
        float: the largest admissible eps_t (0.0 if none, e.g. Theorem 23 with C_H ln(4/beta_1) <= 2 at direct steps).

    Raises:
        ValueError: naming an argument outside its range.

    Example:
        >>> largest_admissible_eps_t(GlobalCalibration(1.0, 0.05, 1.0, 1.5), 0.5, 50)  # just below eps/(theta + 2)
        0.33333333333333326
    """
    T = _validate.step_index(T, "T")
    pstar = _schedule(pstar, T)
    return _largest_admissible(cal, _steps_to_check(_groups(cal, pstar, T)))


class VacuousConfigurationError(ValueError):
    """A refused vacuous configuration or step (:func:`step_vacuity`): infinite expected evaluations or no
    continuation guarantee. A ValueError whose message names the parameter, says why with the numbers and gives the
    largest admissible eps_t; :class:`privtest.testers.GTMTester` raises it as a
    :class:`privtest.bounds.RequirementError` too (the tester does not apply at these parameters).

    Example:
        >>> try:
        ...     check_admissible(GlobalCalibration(1.0, 0.05, 1.0, 1.5), 0.5, 0.5, 10)
        ... except VacuousConfigurationError as e:
        ...     print(str(e)[:45])
        eps_t = 0.5: step t = 1 of T = 10 of GlobalCa
    """


def _refusal(name: str, value, t: int, T: int | None, reason: str, best: float | None, cal) -> str:
    where = f"step t = {t} of T = {T}" if T is not None else f"step t = {t}"
    if best is None:
        advice = ""
    elif best > 0:
        advice = f" The largest admissible {name} for this calibration, p* and T is {best!r}."
    else:
        advice = f" No {name} > 0 is admissible for this calibration, p* and T."
    return (
        f"{name} = {value!r}: {where} of {cal!r} is vacuous: {reason}.{advice} Pass allow_vacuous=True only for an "
        "analysis that studies such configurations."
    )


def check_admissible(
    cal, eps_t: float, pstar, T: int, *, allow_vacuous: bool = False, name: str = "eps_t", moment_only: bool = False
) -> None:
    """Refuse a configuration with a vacuous step t <= T (:func:`first_vacuous_step`) unless ``allow_vacuous``.

    Args:
        cal, eps_t, pstar, T: as in :func:`first_vacuous_step`.
        allow_vacuous: True to skip the check (for analyses that study vacuous configurations).
        name: the caller's name of ``eps_t`` in the message (e.g. "eps1" for a tester).
        moment_only: True to refuse only E[N_t] = inf (a simulation beyond the horizon a guarantee is stated for).

    Raises:
        VacuousConfigurationError: (a ValueError) naming ``name``: which step is vacuous and why (with the numbers), and
            the largest admissible value (:func:`largest_admissible_eps_t`).
        ValueError: naming an argument outside its range.

    Example:
        >>> cal = GlobalCalibration(1.0, 0.05, 1.0, 1.5)
        >>> check_admissible(cal, 0.1, 0.5, 50)
        >>> check_admissible(cal, 0.5, 0.5, 50)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        privtest.gtm.VacuousConfigurationError: eps_t = 0.5: step t = 1 of T = 50 of GlobalCalibration(...) is ...
    """
    if _flag("allow_vacuous", allow_vacuous):
        return
    T = _validate.step_index(T, "T")
    _validate.nonnegative(name, eps_t)
    pstar = _schedule(pstar, T)
    moment_only = _flag("moment_only", moment_only)
    groups = _groups(cal, pstar, T)
    found = _first_vacuous(cal, float(eps_t), groups, moment_only)
    if found is not None:
        best = _largest_admissible(cal, _steps_to_check(groups), moment_only)
        raise VacuousConfigurationError(_refusal(name, eps_t, found[0], T, found[1], best, cal))


# ---------------------------------------------------------------------------------------------------------------
# Rejection threshold, flipping rule and the shared calibration step (Theorems 21 and 23, Lemma 20)


def _rejection_threshold(pstar, x):
    direct = pstar * np.exp(-x)
    flipped = 1.0 - np.exp(np.minimum(x, 700.0)) * (1.0 - pstar)
    return np.maximum(direct, flipped)


def rejection_threshold(pstar, log_gamma_Lambda):
    r"""Rejection threshold :math:`\max(p^*/(\gamma\Lambda), 1-\gamma\Lambda(1-p^*))` of Theorems 21 and 23.

    Args:
        pstar: acceptance threshold in (0, 1) (scalar or array).
        log_gamma_Lambda: ln(gamma * Lambda_t), finite and >= 0 (scalar or array), in log space so Lambda may be huge
            (gamma > 1 and Lambda_t >= 1 make it > 0).

    Returns:
        float or ndarray (broadcast shape), <= p*; it is <= 0 (no continuation guarantee) when both branches are.

    Raises:
        ValueError: naming pstar or log_gamma_Lambda (an element outside its range, NaN, an infinity, a bool or a
            non-numeric value).

    Example:
        >>> round(rejection_threshold(0.5, math.log(1.5 * 16.0)), 6)  # p*/(gamma Lambda) = 0.5/24
        0.020833
        >>> round(rejection_threshold(0.99, math.log(1.5)), 6)  # the flipped branch 1 - 1.5 * 0.01
        0.985
    """
    _validate.open_unit("pstar", pstar, scalar=False)
    _validate.interval("log_gamma_Lambda", log_gamma_Lambda, 0.0, math.inf, lo_open=False, hi_open=True, scalar=False)
    out = _rejection_threshold(np.asarray(pstar, dtype=float), np.asarray(log_gamma_Lambda, dtype=float))
    return float(out) if out.ndim == 0 else out


def _flip(pstar: float, log_gamma_Lambda: float) -> int:
    return 1 if log_gamma_Lambda + math.log1p(-pstar) > math.log(pstar) else -1


def flip_direction(pstar: float, log_gamma_Lambda: float) -> int:
    """Flipping rule (proofs of Theorems 21 and 23): s_t = +1 iff gamma Lambda_t (1 - p*_t) > p*_t.

    Args:
        pstar: acceptance threshold p*_t in (0, 1).
        log_gamma_Lambda: ln(gamma Lambda_t), finite and >= 0.

    Returns:
        int: +1 (direct) or -1 (flipped: the GTM tests -M_t against 1 - p*_t).

    Raises:
        ValueError: naming an argument outside its range.

    Example:
        >>> flip_direction(0.5, math.log(1.5)), flip_direction(0.99, math.log(1.5))
        (1, -1)
    """
    _validate.open_unit("pstar", pstar)
    _validate.interval("log_gamma_Lambda", log_gamma_Lambda, 0.0, math.inf, lo_open=False, hi_open=True)
    return _flip(float(pstar), float(log_gamma_Lambda))


#: Section 4's two ways to solve the above-threshold problem, and the flipping rule that picks the better one.
VARIANTS = {"auto": None, "direct": 1, "flipped": -1}


def _check_variant(variant: str) -> None:
    if not isinstance(variant, str) or variant not in VARIANTS:
        raise ValueError(f"variant must be one of {sorted(VARIANTS)}. Found {variant!r}.")


def _direction_and_pbar(pstar: float, log_gl: float, variant: str) -> tuple[int, float]:
    """s_t (flipping rule unless the variant fixes it) and pbar_t: the max of Theorems 21/23 for "auto", a fixed
    variant's own branch (the flipped one can be negative: then no continuation guarantee exists at that step)."""
    s = _flip(pstar, log_gl) if VARIANTS[variant] is None else VARIANTS[variant]
    if variant == "auto":
        pbar = float(_rejection_threshold(np.asarray(pstar, dtype=float), np.asarray(log_gl, dtype=float)))
    elif s == 1:
        pbar = pstar * math.exp(-log_gl)
    else:
        pbar = 1.0 - math.exp(min(log_gl, 700.0)) * (1.0 - pstar)
    return s, pbar


def _calibrate(t, eps_t, pstar, gamma, tau1, mu1, tau2, log_Lambda, err, variant) -> StepParams:
    """Shared step of Theorems 21/23: direction and pbar (:func:`_direction_and_pbar`), then Lemma 20 with budgets
    (err, err) for that direction."""
    log_gl = math.log(gamma) + log_Lambda
    s, pbar = _direction_and_pbar(pstar, log_gl, variant)
    c = count_threshold(err, err, gamma)
    if s == 1:  # Lemma 20(1): rho = lambda^l(c, beta_II) / p*
        rho = lambda_left(c, err) / pstar
    else:  # Lemma 20(2) on -M_t with target 1 - p*: rho = lambda^r(c, beta_II) / (1 - p*)
        rho = lambda_right(c, err) / (1.0 - pstar)
    return StepParams(t, eps_t, pstar, tau1, mu1, tau2, s, c, rho, log_Lambda, pbar, err, err)


def _reachable_budget(err: float, t, beta) -> float:
    if not err > 0:
        raise ValueError(
            f"beta = {beta!r} at t = {t}: the step's error budget (beta_t/4 or beta_t/6) underflows to 0, out of "
            "numerical reach; raise beta or lower t."
        )
    return err


def reachable_budget(err: float, t: int, beta: float) -> float:
    """The step's error budget ``err`` if it is a positive float (Lemma 20 needs beta^I, beta^II > 0).

    Args:
        err: the budget, a probability in [0, 1) (0 when beta_t = omega_t beta underflowed).
        t: step index >= 1; beta: global failure probability in (0, 1) (named in the message).

    Returns:
        float: ``err``.

    Raises:
        ValueError: naming beta and t where the budget underflows to 0 (beta_t < ~1e-308: out of numerical reach, no
            Poisson threshold exists in floats), or naming an argument outside its range.

    Example:
        >>> reachable_budget(0.01, 1, 0.05)
        0.01
    """
    _validate.interval("err", err, 0.0, 1.0, lo_open=False, hi_open=True)
    t = _validate.step_index(t)
    _validate.open_unit("beta", beta)
    return _reachable_budget(err, t, beta)


def _check_step(t, eps_t, pstar) -> None:
    t = _validate.step_index(t)
    _validate.nonnegative("eps_t", eps_t)
    _validate.open_unit("pstar", pstar)


def log4_over_beta_t(t, beta):
    """ln(4/beta_t) = ln 4 - ln beta + ln(1/omega_t) (Definition 7, Lemma 19 with c_G = 1/4), exact for huge t.

    Args:
        t: step index >= 1 (integer or integer array).
        beta: global failure probability in (0, 1) (number or array, broadcast against ``t``).

    Returns:
        float or ndarray (the scalar path is plain ``math``).

    Raises:
        ValueError: naming t or beta outside its range.

    Example:
        >>> round(log4_over_beta_t(1, 0.05), 6)
        4.873695
    """
    _validate.open_unit("beta", beta, scalar=False)
    if np.ndim(beta) == 0:
        return math.log(4.0) - math.log(beta) + log_inv_omega(t)
    return math.log(4.0) - np.log(beta) + log_inv_omega(t)


#: Share of beta_t given to each of a step's Type I and Type II budgets beta^I_t = beta^II_t = beta_t/share, per
#: theorem: Theorem 21 (global accuracy) beta_t/4, Theorem 23 (ex-post privacy) beta_t/6.
BUDGET_SHARE = {21: 4.0, 23: 6.0}


def _share(theorem: int) -> float:
    if isinstance(theorem, (bool, np.bool_)) or theorem not in BUDGET_SHARE:
        raise ValueError(f"theorem must be one of {sorted(BUDGET_SHARE)} (21: global, 23: ex post), got {theorem!r}.")
    return BUDGET_SHARE[theorem]


def step_budget(t, beta, theorem: int = 21):
    """The Poisson-tail budget beta^I_t = beta^II_t of step t that Lemma 20 calibrates c_t and rho_t to: beta_t/4 in
    the proof of Theorem 21, beta_t/6 in the proof of Theorem 23 (beta_t = omega_t beta, :func:`privtest.schedule.
    beta_t`).

    Args:
        t: step index >= 1, an integer or an integer array.
        beta: global failure probability in (0, 1).
        theorem: 21 (:class:`GlobalCalibration`) or 23 (:class:`ExPostCalibration`).

    Returns:
        A float (array of floats shaped like ``t``): a probability.

    Raises:
        ValueError: if ``theorem`` is neither 21 nor 23, or t or beta is out of range.

    Example:
        >>> round(step_budget(1, 0.05), 8), round(step_budget(1, 0.05, 23), 8)
        (0.00764506, 0.00509671)
    """
    return _beta_t(t, beta) / _share(theorem)


def halt_miss_bound(t, beta, theorem: int = 21, *, given_eta1: bool = False):
    """Bound on the probability that step t misses a halt at p_t = p*_t (Type II), from the proofs of Theorems 21
    and 23: on {eta_1 <= mu1} the Poisson mean is on the halting side of rho_t (Lemma 19(3)) and Lemma 20(a) leaves
    the step's budget :func:`step_budget`; unconditionally add Pr[eta_1 > mu1] = e^{-mu1/tau1} = beta/4 (Lemma
    19(1); mu1 = tau1 ln(4/beta) in both calibrations): beta/4 + beta_t/4 for Theorem 21.

    Args:
        t, beta, theorem: as in :func:`step_budget`.
        given_eta1: True for the bound conditioned on eta_1 <= mu1 (the step budget alone).

    Returns:
        A float (array shaped like ``t``): a probability.

    Raises:
        ValueError: as :func:`step_budget`, or naming given_eta1 if it is not a bool.

    Example:
        >>> round(halt_miss_bound(1, 0.05), 8), round(halt_miss_bound(1, 0.05, given_eta1=True), 8)
        (0.02014506, 0.00764506)
    """
    budget = step_budget(t, beta, theorem)
    return budget if _flag("given_eta1", given_eta1) else beta / 4 + budget


def continue_bound(t, beta, theorem: int = 21):
    """Bound on the probability that step t halts at p_t <= pbar_t (Type I), from the proofs of Theorems 21 and 23:
    the Poisson mean stays below rho_t Lambda_t unless eta_2,t > tau2_t ln(4/beta_t), of probability beta_t/4 (Lemma
    19(1) with c_G = 1/4; eta_1 >= 0 only lowers it), and Lemma 20(b) leaves the step's budget :func:`step_budget`:
    beta_t/4 + beta_t/4 = beta_t/2 for Theorem 21, beta_t/4 + beta_t/6 for Theorem 23.

    Args:
        t, beta, theorem: as in :func:`step_budget`.

    Returns:
        A float (array shaped like ``t``): a probability.

    Raises:
        ValueError: as :func:`step_budget`.

    Example:
        >>> round(continue_bound(1, 0.05), 8)  # beta_1/2
        0.01529012
    """
    return _beta_t(t, beta) / 4 + step_budget(t, beta, theorem)


# ---------------------------------------------------------------------------------------------------------------
# Calibrations


@dataclass(frozen=True)
class GlobalCalibration:
    r"""Parameters of the proof of Theorem 21 (global accuracy under pure eps-DP).

    1/tau1 = theta eps/(theta+2), 2/tau2 = 2 eps/(theta+2), mu1 = tau1 ln(4/beta); per step
    :math:`\Lambda_t = (4/\beta)^{r(1+2/\theta)}(4/\beta_t)^{r(2+\theta)}` with r = eps_t/eps,
    Type I and II budgets beta_t/4 each, c_t from Lemma 11 and rho_t from Lemma 20, and the flipping rule.
    E[N_t] is finite iff eps_t < eps/(theta + 2) on a direct step, eps_t < theta eps/(theta + 2) on a flipped one
    (module docstring); ``step`` computes any step, :class:`GTM` refuses to run a vacuous one.

    Args:
        eps: output privacy eps, finite and > 0.
        beta: global failure probability in (0, 1).
        theta: split parameter theta, finite and > 0 (:data:`DEFAULT_THETA` = 1 and why).
        gamma: target ratio in (1, 2] (:data:`DEFAULT_GAMMA` = 1.5 and why).
        variant: "auto" (flipping rule, the theorem's setting), "direct" (s_t = +1) or "flipped" (s_t = -1).

    Raises:
        ValueError: naming the first parameter outside its range.

    Example:
        >>> cal = GlobalCalibration(eps=1.0, beta=0.05, theta=DEFAULT_THETA, gamma=DEFAULT_GAMMA)
        >>> cal.tau1, cal.tau2, round(cal.mu1, 6)
        (3.0, 3.0, 13.14608)
        >>> round(cal.step(1, 0.1, 0.5).pbar, 6)
        0.020748
    """

    eps: float
    beta: float
    theta: float
    gamma: float
    variant: str = "auto"

    def __post_init__(self):
        _check_variant(self.variant)
        _validate.positive("eps", self.eps)
        _validate.open_unit("beta", self.beta)
        _validate.positive("theta", self.theta)
        _validate.gamma_range(self.gamma)

    @property
    def tau1(self) -> float:
        """tau1 = (theta + 2)/(theta eps) (proof of Theorem 21)."""
        return (self.theta + 2.0) / (self.theta * self.eps)

    @property
    def tau2(self) -> float:
        """tau2 = (theta + 2)/eps, the same at every step (proof of Theorem 21)."""
        return (self.theta + 2.0) / self.eps

    @property
    def mu1(self) -> float:
        """mu1 = tau1 ln(4/beta), so Pr[eta_1 > mu1] = beta/4 (Lemma 19(1))."""
        return self.tau1 * math.log(4.0 / self.beta)

    def log_Lambda(self, t: int, eps_t: float) -> float:
        """ln Lambda_t = eps_t (mu1 + tau2 ln(4/beta_t)) (Theorem 21; Lemma 19 with c_G = 1/4).

        Args:
            t: step index >= 1 (integer or integer array); eps_t: input privacy, finite and >= 0.

        Raises:
            ValueError: naming t or eps_t outside its range.
        """
        _validate.nonnegative("eps_t", eps_t, scalar=False)
        return eps_t * (self.mu1 + self.tau2 * log4_over_beta_t(t, self.beta))

    def max_loss(self, T: int, eps_t: float) -> float:
        """Worst privacy loss of a transcript of at most T steps: eps (Theorem 21: 1/tau1 + 2/tau2 = eps at halting,
        1/tau1 on continuation), whatever T and eps_t.

        Args:
            T: number of steps, integer >= 1; eps_t: input privacy, finite and >= 0.

        Raises:
            ValueError: naming T or eps_t outside its range.
        """
        T = _validate.step_index(T, "T")
        _validate.nonnegative("eps_t", eps_t)
        return self.eps

    def step_budget(self, t):
        """Type I and Type II budget of step t: beta_t/4 each (Theorem 21, :func:`step_budget`); ``t`` may be an
        integer array."""
        return step_budget(t, self.beta, 21)

    def amortized_bound(self, T: int, eps1: float, pstar: float) -> tuple[float, float]:
        """Lemma 22(2) with explicit constants: (leading term 2 sigma/(sigma-1) A_max, full bound 2M/T) on N_{<=T}/T.

        Setting of the lemma: eps_t = eps_1 and p*_t = p* constant, sigma = eps/(eps_1 (theta+2)) > 1. With
        A~_t = rho_t e^{eps_1 mu1} (direct) or rho_t (flipped) in place of C_A ln(t/beta) max(Lambda_0/p*, 1/(1-p*))
        /(gamma-1)^2, the proof's bound is N_{<=T}/T <= 2M/T with M = sigma/(sigma-1) B + u, B = sum_{t<=T} A~_t,
        u = 4 sqrt(Var(w~) A_max B / beta), A_max = max_t A~_t, w~ = min(w, W), W = (16T/beta)^{1/sigma} and
        Var(w~) <= E[w~^2] (Lemma 12(3b)); it fails with probability < beta/2. The proof only uses
        lambda_t <= A~_t w_t on eta_1 <= mu1, so the bound holds for any c_t, rho_t with Theorem 21's noise (e.g. the
        exact-tail calibrations).

        Args:
            T: number of steps, integer >= 1.
            eps1: input privacy eps_1 > 0 of every step.
            pstar: acceptance threshold in (0, 1), the same at every step.

        Returns:
            (leading, bound): floats; (nan, nan) where the lemma's hypotheses fail: sigma <= 1, beta > 1/e or
            T < 2 ln(16/beta).

        Raises:
            ValueError: if T < 1, eps1 <= 0 or pstar is outside (0, 1).
        """
        T = _validate.step_index(T, "T")
        _validate.positive("eps1", eps1)
        _validate.open_unit("pstar", pstar)
        sigma = self.eps / (eps1 * (self.theta + 2))
        if not (sigma > 1 and self.beta <= 1 / math.e and T >= 2 * math.log(16 / self.beta)):
            return math.nan, math.nan
        A = np.array([_explicit_A(self.step(t, eps1, pstar), eps1) for t in range(1, T + 1)])
        A_max, B = float(A.max()), float(A.sum())
        W = (16 * T / self.beta) ** (1 / sigma)
        second_moment = 2 * math.log(W) + 1 if sigma == 2 else (2 * W ** (2 - sigma) - sigma) / (2 - sigma)
        u = 4 * math.sqrt(second_moment * A_max * B / self.beta)
        M = sigma / (sigma - 1) * B + u
        return 2 * sigma / (sigma - 1) * A_max, 2 * M / T

    def step(self, t: int, eps_t: float, pstar: float) -> StepParams:
        """Parameters for step t with input privacy eps_t and acceptance threshold pstar (Theorem 21, Lemma 20).

        Args:
            t: step index, integer >= 1; eps_t: input privacy, finite and >= 0; pstar: p*_t in (0, 1).

        Returns:
            :class:`StepParams` (also for a vacuous step: :func:`step_vacuity` says whether it is one).

        Raises:
            ValueError: naming t, eps_t or pstar outside its range, or beta where the step budget underflows.
        """
        _check_step(t, eps_t, pstar)
        return self._step(int(t), float(eps_t), float(pstar))

    @functools.lru_cache(maxsize=65536)  # noqa: B019  (frozen, hashable; steps are pure and reused across runs)
    def _step(self, t: int, eps_t: float, pstar: float) -> StepParams:
        err = _reachable_budget(float(self.step_budget(t)), t, self.beta)
        return _calibrate(
            int(t),
            float(eps_t),
            float(pstar),
            self.gamma,
            self.tau1,
            self.mu1,
            self.tau2,
            self.log_Lambda(t, eps_t),
            err,
            self.variant,
        )

    def _guarantee(self, t: int, eps_t: float, pstar: float):
        """(s_t, pbar_t, tau1, tau2, mu1) of :meth:`step` without c_t and rho_t (the same arithmetic)."""
        s, pbar = _direction_and_pbar(pstar, math.log(self.gamma) + self.log_Lambda(t, eps_t), self.variant)
        return s, pbar, self.tau1, self.tau2, self.mu1


@dataclass(frozen=True)
class ExPostCalibration:
    r"""Parameters of the proof of Theorem 23 (ex-post privacy).

    1/tau1 = eps_C, mu1 = ln(4/beta)/eps_C, tau2_t = 2/(C_H eps_t ln(4/beta_t)), so that
    :math:`\Lambda_t = (4/\beta)^{\varepsilon_t/\varepsilon_C} e^{2/C_H}` and a transcript halting at t has privacy
    loss eps_C + C_H eps_t ln(4/beta_t) (``StepParams.halt_loss``); Type I and II budgets beta_t/6 each. E[N_t] is
    finite iff C_H ln(4/beta_t) > 2 on a direct step (whatever eps_t), eps_t < eps_C on a flipped one.

    Args:
        eps_C: continuation privacy eps_C, finite and > 0.
        beta: global failure probability in (0, 1).
        C_H: halting-loss constant, finite and > 0.
        gamma: target ratio in (1, 2].
        variant: "auto" (flipping rule), "direct" (s_t = +1) or "flipped" (s_t = -1).

    Raises:
        ValueError: naming the first parameter outside its range.

    Example:
        >>> cal = ExPostCalibration(eps_C=1.0, beta=0.05, C_H=2.0, gamma=1.5)
        >>> round(cal.step(1, 0.1, 0.5).halt_loss, 6), round(cal.max_loss(10, 0.1), 6)
        (1.974739, 2.924968)
    """

    eps_C: float
    beta: float
    C_H: float
    gamma: float
    variant: str = "auto"

    def __post_init__(self):
        _check_variant(self.variant)
        _validate.positive("eps_C", self.eps_C)
        _validate.open_unit("beta", self.beta)
        _validate.positive("C_H", self.C_H)
        _validate.gamma_range(self.gamma)

    @property
    def tau1(self) -> float:
        """tau1 = 1/eps_C (proof of Theorem 23)."""
        return 1.0 / self.eps_C

    @property
    def mu1(self) -> float:
        """mu1 = ln(4/beta)/eps_C, so Pr[eta_1 > mu1] = beta/4."""
        return math.log(4.0 / self.beta) / self.eps_C

    def log_Lambda(self, eps_t: float) -> float:
        """ln Lambda_t = (eps_t/eps_C) ln(4/beta) + 2/C_H (Theorem 23; the same at every t).

        Raises:
            ValueError: naming eps_t if it is not finite and >= 0.
        """
        _validate.nonnegative("eps_t", eps_t, scalar=False)
        return (eps_t / self.eps_C) * math.log(4.0 / self.beta) + 2.0 / self.C_H

    def step_budget(self, t):
        """Type I and Type II budget of step t: beta_t/6 each (Theorem 23), beta_t = omega_t beta; ``t`` may be an
        integer array (:func:`step_budget`)."""
        return step_budget(t, self.beta, 23)

    def tau2_at(self, t: int, eps_t: float) -> float:
        """tau_{2,t} = 2/(C_H eps_t ln(4/beta_t)) (``t``, ``eps_t`` may be arrays).

        Raises:
            ValueError: naming t or eps_t (which must be finite and > 0) outside its range.
        """
        _validate.positive("eps_t", eps_t, scalar=False)
        return 2.0 / (self.C_H * eps_t * log4_over_beta_t(t, self.beta))

    def max_loss(self, T: int, eps_t: float) -> float:
        """Worst privacy loss of a transcript of at most T steps with input privacy eps_t > 0: the halting loss at T,
        1/tau1 + 2/tau2_T = eps_C + C_H eps_t ln(4/beta_T) (it grows with t; continuation costs eps_C).

        Raises:
            ValueError: if T < 1 or eps_t <= 0.
        """
        T = _validate.step_index(T, "T")
        _validate.positive("eps_t", eps_t)
        return 1.0 / self.tau1 + 2.0 / self.tau2_at(T, eps_t)

    def amortized_bound(self, T: int, eps1: float, pstar: float) -> tuple[float, float]:
        """No amortized bound: Lemma 22(2) is proved for Theorem 21's constant tau2 (w_t ~ Pareto(sigma) with one
        sigma); Theorem 23's tau2_t shrinks with t and the paper states no amortized bound for it.

        Returns:
            (nan, nan).

        Raises:
            ValueError: naming T, eps1 or pstar outside its range.
        """
        _validate.step_index(T, "T")
        _validate.positive("eps1", eps1)
        _validate.open_unit("pstar", pstar)
        return math.nan, math.nan

    def step(self, t: int, eps_t: float, pstar: float) -> StepParams:
        """Parameters for step t with input privacy eps_t > 0 and acceptance threshold pstar (Theorem 23).

        Returns:
            :class:`StepParams` (also for a vacuous step: :func:`step_vacuity`).

        Raises:
            ValueError: if t < 1, eps_t <= 0 (tau2_t would be infinite) or pstar outside (0, 1), or one is not a
                number.
        """
        _check_step(t, eps_t, pstar)
        _validate.positive("eps_t", eps_t)
        return self._step(int(t), float(eps_t), float(pstar))

    @functools.lru_cache(maxsize=65536)  # noqa: B019  (frozen, hashable; steps are pure and reused across runs)
    def _step(self, t: int, eps_t: float, pstar: float) -> StepParams:
        tau2 = self.tau2_at(t, eps_t)
        log_Lambda = self.log_Lambda(eps_t)
        err = _reachable_budget(float(self.step_budget(t)), t, self.beta)
        return _calibrate(
            int(t), float(eps_t), float(pstar), self.gamma, self.tau1, self.mu1, tau2, log_Lambda, err, self.variant
        )

    def _guarantee(self, t: int, eps_t: float, pstar: float):
        """(s_t, pbar_t, tau1, tau2_t, mu1) of :meth:`step` without c_t and rho_t (the same arithmetic)."""
        tau2 = self.tau2_at(t, eps_t)
        s, pbar = _direction_and_pbar(pstar, math.log(self.gamma) + self.log_Lambda(eps_t), self.variant)
        return s, pbar, self.tau1, tau2, self.mu1


def _explicit_A(st: StepParams, eps1: float) -> float:
    """A~_t of the proof of Lemma 22(2) with explicit constants: rho_t e^{eps_1 mu1} (direct) or rho_t (flipped)."""
    return st.rho * (math.exp(eps1 * st.mu1) if st.s == 1 else 1.0)


def sample_bound(st: StepParams, beta: float) -> float:
    """Lemma 22(1) with the algorithm's explicit quantities: N_t <= e max(lambda_max_t, ln(4/beta_t)) (Lemma 55's
    Poisson tail at lambda_t <= lambda_max_t, :attr:`StepParams.lambda_max`), except with the probability
    :func:`sample_budget`. This replaces the unspecified constant C_A by the exact calibration
    (C_A ln(t/beta) max(...)/(gamma-1)^2 is an upper bound of lambda_max_t).

    Args:
        st: the step's parameters (any calibration with Lemma 19's good-noise event: Theorems 21 and 23).
        beta: the calibration's global failure probability in (0, 1) (beta_t = omega_t beta).

    Returns:
        float: the bound on N_t.

    Raises:
        ValueError: if ``st`` is not a StepParams or beta is outside (0, 1).

    Example:
        >>> st = GlobalCalibration(1.0, 0.05, 1.0, 1.5).step(1, 0.1, 0.5)
        >>> round(sample_bound(st, 0.05))
        29656
    """
    if not isinstance(st, StepParams):
        raise ValueError(f"st must be a StepParams. Found {type(st).__name__}.")
    _validate.open_unit("beta", beta)
    return math.e * max(st.lambda_max, math.log(4.0 / _beta_t(st.t, beta)))


def sample_budget(steps, beta: float) -> float:
    """Probability that N_t exceeds :func:`sample_bound` at some step of ``steps``, from the proof of Lemma
    22(1): direct steps need eta_2,t <= tau2 ln(4/beta_t) (probability beta_t/4 each; eta_1 >= 0 only lowers
    lambda_t), flipped steps need eta_1 <= mu1 (probability beta/4, once), and the Poisson tail costs beta_t/4 per
    step.

    Args:
        steps: the StepParams of steps 1..T (any iterable).
        beta: global failure probability in (0, 1).

    Returns:
        float: beta/2, plus beta/4 if the flipping rule selects s_t = -1 at some step.

    Raises:
        ValueError: if beta is outside (0, 1) or an item is not a StepParams.

    Example:
        >>> cal = GlobalCalibration(1.0, 0.05, 1.0, 1.5)
        >>> sample_budget([cal.step(t, 0.1, 0.5) for t in (1, 2)], 0.05)
        0.025
    """
    _validate.open_unit("beta", beta)
    steps = list(steps)
    for st in steps:
        if not isinstance(st, StepParams):
            raise ValueError(f"steps must hold StepParams. Found {type(st).__name__}.")
    flipped = any(st.s == -1 for st in steps)
    return beta / 2 + (beta / 4 if flipped else 0.0)


# ---------------------------------------------------------------------------------------------------------------
# Algorithm 1


def promised_eps(mechanism, t: int) -> float:
    """The input privacy eps_t a mechanism promises at step t (Definition 1), as a float.

    Args:
        mechanism: M_t, anything with an ``eps`` attribute (a :class:`~privtest.mechanisms.Mechanism`).
        t: the step index (integer >= 1), named in the error.

    Returns:
        float: eps_t, finite and >= 0.

    Raises:
        ValueError: naming mechanism (no ``eps``) or eps_t (not a finite number >= 0).

    Example:
        >>> from privtest.mechanisms import BernoulliMechanism
        >>> promised_eps(BernoulliMechanism(0.5, 0.1), 1)
        0.1
    """
    try:
        e = mechanism.eps
    except AttributeError:
        raise ValueError(f"mechanism: the mechanism of step {t} has no eps. Found {mechanism!r}.") from None
    if not (_validate.is_finite_real(e) and e >= 0):
        raise ValueError(f"eps_t: the mechanism of step {t} promises eps = {e!r}; it must be finite and >= 0.")
    return float(e)


def check_step(st: StepParams, cal=None, *, allow_vacuous: bool = False) -> None:
    """Refuse to run the step ``st`` if its expected evaluations E[N_t] are infinite (:func:`step_vacuity`; a step
    with pbar_t <= 0 runs: the continuation guarantee is checked where a horizon T is known, :func:`check_admissible`).

    Args:
        st: the step's parameters (:class:`StepParams`).
        cal: the calibration that made them (optional): the message then gives the largest eps_t with E[N_t] < inf at
            this step and which of its parameters decides.
        allow_vacuous: True to skip the check.

    Raises:
        VacuousConfigurationError: (a ValueError) naming eps_t, with the reason and the numbers.
        ValueError: if ``st`` is not a StepParams or allow_vacuous not a bool.

    Example:
        >>> cal = GlobalCalibration(1.0, 0.05, 1.0, 1.5)
        >>> check_step(cal.step(1, 0.1, 0.5), cal)
        >>> check_step(cal.step(1, 0.5, 0.5), cal)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        privtest.gtm.VacuousConfigurationError: eps_t = 0.5: step t = 1 of GlobalCalibration(...) is vacuous: ...
    """
    if _flag("allow_vacuous", allow_vacuous):
        return
    if not isinstance(st, StepParams):
        raise ValueError(f"st must be a StepParams. Found {type(st).__name__}.")
    reason = _moment_reason(st.s, st.eps_t, st.tau1, st.tau2, st.mu1, cal, st.t)
    if reason is not None:
        best = None if cal is None else _largest_admissible(cal, [(st.t, st.pstar)], moment_only=True)
        raise VacuousConfigurationError(_refusal("eps_t", st.eps_t, st.t, None, reason, best, cal or st))


class GTM:
    """Algorithm 1, one instance (one stream). ``GTM(cal, rng)`` runs Init: it draws eta_1 ~ Exp(tau1) once.

    Args:
        calibration: a :class:`GlobalCalibration` / :class:`ExPostCalibration` (anything with ``tau1``, ``mu1``
            and ``step(t, eps_t, pstar)``), or None to supply tau1, mu1 and every step's parameters explicitly.
        rng: anything :func:`numpy.random.default_rng` accepts (None, an int seed, a SeedSequence, a Generator).
        tau1, mu1: explicit shared-noise scale and offset (finite, > 0), only when ``calibration`` is None.
        allow_vacuous: True to run steps with E[N_t] = inf (:func:`step_vacuity`); by default :meth:`step` refuses
            them. (A step with pbar_t <= 0 runs: the continuation guarantee is checked where a horizon T is known,
            by :class:`privtest.testers.GTMTester` and :func:`check_admissible`.)

    Attributes:
        t: number of steps taken so far.
        halted: whether the last step halted (no further step is allowed).
        samples: list of N_t for every step so far (evaluations of M_t).
        counts: list of K_t.
        params: list of the :class:`StepParams` (or explicit tuples) used at every step.

    Raises:
        ValueError: if tau1/mu1 are missing or out of range, or allow_vacuous is not a bool.

    Example:
        >>> from privtest.mechanisms import BernoulliMechanism
        >>> gtm = GTM(GlobalCalibration(1.0, 0.05, 1.0, 1.5), rng=1)
        >>> gtm.step(BernoulliMechanism(0.9, 0.1), pstar=0.5), gtm.t
        (True, 1)
    """

    def __init__(
        self,
        calibration=None,
        rng=None,
        *,
        tau1: float | None = None,
        mu1: float | None = None,
        allow_vacuous: bool = False,
    ):
        self.allow_vacuous = _flag("allow_vacuous", allow_vacuous)
        if calibration is not None:
            tau1, mu1 = calibration.tau1, calibration.mu1
        for name, value in (("tau1", tau1), ("mu1", mu1)):
            if value is None:
                raise ValueError(f"{name} is required when no calibration is given.")
        _validate.positive("tau1", tau1)
        _validate.positive("mu1", mu1)
        self.calibration, self.tau1, self.mu1 = calibration, float(tau1), float(mu1)
        self.rng = _validate.generator(rng)
        self.eta1 = self.rng.exponential(self.tau1)
        self.t, self.halted = 0, False
        self.samples: list[int] = []
        self.counts: list[int] = []
        self.params: list = []

    def step(self, mechanism: Mechanism, pstar: float | None = None, *, tau2=None, c=None, rho=None, s=None) -> bool:
        """GTM.Step on mechanism M_t (its ``eps`` is eps_t; delta_t > 0 inputs are purified first, Cor. 25).

        Either give ``pstar`` (the calibration chooses tau2, c, rho, s) or all of ``tau2`` (> 0), ``c`` (int >= 0),
        ``rho`` (> 0) and ``s`` (+1/-1) explicitly (Lemma 17 holds for any such choice).

        Args:
            mechanism: M_t, a :class:`~privtest.mechanisms.Mechanism` promising a finite eps >= 0.
            pstar: acceptance threshold p*_t in (0, 1) (with a calibration).
            tau2, c, rho, s: explicit step parameters (without a calibration's choice).

        Returns:
            bool: True iff the step halts (a_t = s_t).

        Raises:
            ValueError: on out-of-range parameters (eps_t names the mechanism's eps), or a step with E[N_t] = inf
                (the message gives the largest admissible eps_t at this step) unless ``allow_vacuous``.
                RuntimeError: if the GTM has already halted.
        """
        if self.halted:
            raise RuntimeError("the GTM has halted; start a new instance for a new stream")
        t = self.t + 1
        eps_t = promised_eps(mechanism, t)
        explicit = (tau2, c, rho, s)
        if all(v is None for v in explicit):
            if self.calibration is None or pstar is None:
                raise ValueError("pstar (with a calibration) or explicit tau2, c, rho, s are required.")
            st = self.calibration.step(t, eps_t, pstar)
            if isinstance(st, StepParams):
                check_step(st, self.calibration, allow_vacuous=self.allow_vacuous)
            tau2, c, rho, s = st.tau2, st.c, st.rho, st.s
            self.params.append(st)
        elif any(v is None for v in explicit):
            raise ValueError("give all of tau2, c, rho, s explicitly, or none of them.")
        else:
            _validate.positive("tau2", tau2)
            _validate.positive("rho", rho)
            _validate.sign("s", s)
            c = _validate.integer("c", c, 0)
            reason = _moment_reason(int(s), eps_t, self.tau1, float(tau2), self.mu1)
            if reason is not None and not self.allow_vacuous:
                mu1, tau1 = self.mu1, self.tau1

                def ok(e):
                    return _moment_reason(int(s), e, tau1, float(tau2), mu1) is None

                best = _largest_true(ok, 0.0, 1.0)
                raise VacuousConfigurationError(
                    f"eps_t = {eps_t!r}: step t = {t} with tau1 = {tau1!r}, mu1 = {mu1!r}, tau2 = {tau2!r}, s = {s!r} "
                    f"is vacuous: {reason}. The largest admissible eps_t for these parameters is {best!r}. Pass "
                    "allow_vacuous=True to GTM only for an analysis that studies such configurations."
                )
            self.params.append((t, eps_t, float(tau2), int(c), float(rho), int(s)))
        halted, N, K = run_step(self.eta1, self.mu1, eps_t, tau2, c, rho, s, mechanism, self.rng, step=t)
        halted, N, K = bool(halted), int(N), int(K)
        self.t, self.halted = t, halted
        self.samples.append(N)
        self.counts.append(K)
        return self.halted


def run_step(
    eta1, mu1, eps_t, tau2, c, rho, s, mechanism: Mechanism, rng: np.random.Generator, step=None, *, counts=True
):
    """GTM.Step of Algorithm 1, vectorized over independent instances sharing the step's parameters.

    With ``counts=True`` (the default) every instance draws eta_2,t ~ Exp(tau2), N_t ~ Po(lambda_t) and
    K_t = ``mechanism.count_plus(N_t)`` (one binomial draw for a Bernoulli mechanism), as Algorithm 1 reads.
    With ``counts=False`` only what a Monte Carlo run records is drawn: the halting decision and N_t, with the same
    joint law. For the library's mechanisms whose count is binomial with a known success probability (Bernoulli,
    Laplace threshold, their negations and purifications), N_t ~ Po(lambda_t) and then the decision given N_t from its
    exact conditional law, mostly without a binomial draw (about twice as fast, six times for a purified mechanism:
    ``benchmarks/bench_gtm.py``); any other mechanism is evaluated through ``count_plus`` as with ``counts=True``, with
    the same draws.

    Args:
        eta1: the shared noise of each instance, a float >= 0 or an array of shape (R,) of them.
        mu1: shared offset, finite and > 0; eps_t: input privacy, finite and >= 0; tau2: per-step noise scale, finite
            and > 0; c: count threshold, integer >= 0; rho: base rate, finite and > 0; s: direction +1/-1 (scalars,
            as in Algorithm 1).
        mechanism: M_t; purified first if its delta > 0 (Corollary 25), negated when s = -1.
        rng: anything :func:`numpy.random.default_rng` accepts.
        step: the step index t (integer >= 1), named in the error when the mechanism breaks its contract.
        counts: True to draw and return K_t; False to return None in its place (the halting flags and N_t have the
            same law; the random stream differs).

    Returns:
        (halted, N, K): arrays with the shape of ``eta1``: halting flags (bool), evaluations N_t (int64) and +1 counts
        K_t (int64; None when ``counts`` is False).

    Raises:
        ValueError: naming an argument outside its range, or the step if the mechanism's counts are not integers
            0 <= K <= N_t (:func:`privtest._validate.counts`).

    Example:
        >>> from privtest.mechanisms import BernoulliMechanism
        >>> halted, N, K = run_step([0.5, 2.0], 1.0, 0.1, 3.0, 5, 40.0, 1, BernoulliMechanism(0.9, 0.1), rng=0)
        >>> halted.tolist(), bool(np.all(K <= N))
        ([True, True], True)
        >>> m = BernoulliMechanism(0.9, 0.1)
        >>> halted, N, K = run_step([0.5, 2.0], 1.0, 0.1, 3.0, 5, 40.0, 1, m, rng=0, counts=False)
        >>> halted.tolist(), K is None
        ([True, True], True)
    """
    _validate.interval("eta1", eta1, 0.0, math.inf, lo_open=False, hi_open=True, scalar=False)
    _validate.positive("mu1", mu1)
    _validate.nonnegative("eps_t", eps_t)
    _validate.positive("tau2", tau2)
    c = _validate.integer("c", c, 0)
    _validate.positive("rho", rho)
    _validate.sign("s", s)
    if step is not None:
        step = _validate.step_index(step, "step")
    counts = _flag("counts", counts)
    rng = _validate.generator(rng)
    eta1 = np.asarray(eta1, dtype=float)
    m = purify(mechanism)
    q = None if counts else binomial_success(m)
    if q is not None:  # the +1s of -M when s = -1 (Negated): a Bernoulli(1 - q) count
        lam = _lambda_fast(eta1, mu1, eps_t, tau2, rho, s, rng)
        return (*_halt_and_samples(lam, q if s == 1 else 1.0 - q, c, s, rng), None)
    eta2 = rng.exponential(tau2, size=eta1.shape)
    lam = checked_exp(log_lambda(math.log(rho), eps_t, s, mu1, eta1, eta2))
    N = rng.poisson(lam)
    K = _validate.counts(m.count_plus(N, rng), N, step)
    if s == -1:  # the flipped variant counts the +1s of -M_t (Negated, the same draws)
        K = np.asarray(N, dtype=np.int64) - K
    return s * (K - c - 0.5) > 0, N, (K if counts else None)


#: Bernstein exponent below which :func:`_count_at_most` draws K_t itself (its bound e^-E on the rarer side's
#: probability would send more than 1% of the uniforms to the exact binomial tail; a binomial draw is cheaper then).
_NEAR_EXPONENT = math.log(100.0)


def _lambda_fast(eta1: np.ndarray, mu1, eps_t, tau2, rho, s, rng: np.random.Generator) -> np.ndarray:
    """lambda_t = rho_t exp(eps_t s_t (mu1 - eta_1 + eta_2,t)) with a fresh eta_2,t ~ Exp(tau2) per instance, in one
    buffer (:func:`log_lambda` and :func:`checked_exp` allocate a temporary per operation; at 10^5 instances and more
    the page faults of fresh temporaries cost as much as a Poisson draw). Refuses means beyond
    :data:`MAX_POISSON_MEAN` like :func:`checked_exp`."""
    x = rng.exponential(tau2, size=eta1.shape)  # eta_2,t
    x -= eta1
    x += mu1
    x *= s * eps_t
    x += math.log(rho)
    if x.size and not float(x.max()) <= math.log(MAX_POISSON_MEAN):  # NaN or too large: checked_exp says which
        checked_exp(x)
    return np.exp(x, out=x)


def _halt_and_samples(lam: np.ndarray, q: float, c: int, s: int, rng: np.random.Generator):
    """The halting decision and N_t of GTM steps with Poisson means ``lam`` on a mechanism whose count of +1s among n
    evaluations is Binomial(n, q) (Algorithm 1: halt iff s (K_t - c - 1/2) > 0), without drawing K_t for most
    instances: N_t ~ Po(lambda_t), then :func:`_count_at_most` decides K_t <= c given N_t, with its exact law.

    ``lam``: float array of finite means >= 0; ``q``: success probability of the counted mechanism in [0, 1] (1 - p
    for the flipped variant); ``c``: integer >= 0; ``s``: +1 or -1 (checked by :func:`run_step`). Returns
    (halted, N): bool and int64 arrays with the shape of ``lam``.
    """
    shape, lam = lam.shape, lam.reshape(-1)
    N = rng.poisson(lam)
    if q == 0.0 or q == 1.0:  # K_t = 0 or K_t = N_t surely
        low = np.ones(lam.shape, dtype=bool) if q == 0.0 else N <= c
    else:
        low = _count_at_most(N, q, c, rng)
    halted = ~low if s == 1 else low
    return halted.reshape(shape), N.reshape(shape)


def _count_at_most(N: np.ndarray, q: float, c: int, rng: np.random.Generator) -> np.ndarray:
    """Whether K <= c, for K ~ Bin(N, q) given N (a 1-d int64 array; 0 < q < 1), with the exact binomial law.

    The rarer side is {K <= c} when N q > c + 1/2, else {K >= c + 1}; it has probability r <= e^-E by Bernstein's
    inequality, E = t^2 / (2 (N q (1 - q) + t/3)) with t = |N q - c - 1/2| + 1/2 its distance from the mean (the
    evaluations are independent and within 1 of their mean). It happens iff W > -ln r for W ~ Exp(1) (that is, a
    uniform e^-W below r): W <= E (1 - 1e-9) settles "no" at once (the factor covers rounding), and only W above it
    (probability at most e^-E) needs r itself (the regularized incomplete beta function, scipy ``betainc``, valid at
    every N). Where E < ln 100 (N q within a few standard deviations of c) K is drawn instead (``rng.binomial``). Both
    rules are exact given N, and which one applies depends on N only, so the law of (N, K <= c) is that of
    Algorithm 1.
    """
    t = N * q  # the mean, then t, then E: one buffer for the chain
    upper = t <= c + 0.5  # the rare side is K >= c + 1 (else K <= c)
    t -= c + 0.5
    np.abs(t, out=t)
    t += 0.5
    v = N * (3.0 * q * (1.0 - q))
    v += t  # 3 N q (1 - q) + t
    t *= t
    t *= 1.5
    t /= v  # E = 3 t^2 / (2 (3 N q (1 - q) + t))
    t *= 1.0 - 1e-9
    w = rng.standard_exponential(N.shape)
    rare = w > t
    near = np.flatnonzero(t < _NEAR_EXPONENT)
    rare[near] = False
    check = np.flatnonzero(rare)
    if check.size:
        n, up = N[check], upper[check]
        # the binomial tails as regularized incomplete beta functions (scipy's bdtr/bdtrc cast n to a 32-bit int and
        # return NaN from n = 2^31 on): Pr[K >= c+1] = I_q(c+1, n-c), Pr[K <= c] = I_{1-q}(n-c, c+1); n > c on the
        # lower side (its mean exceeds c + 1/2), and K >= c + 1 is impossible at n <= c
        m = np.maximum(n - c, 1).astype(float)
        with np.errstate(divide="ignore", invalid="ignore"):
            r = np.where(up, np.where(n > c, special.betainc(c + 1.0, m, q), 0.0), special.betainc(m, c + 1.0, 1.0 - q))
            log_r = np.log(r)
        rare[check] = w[check] > -log_r
    low = np.logical_xor(upper, rare, out=upper)
    if near.size:
        low[near] = rng.binomial(N[near], q) <= c
    return low


def log_lambda(log_rho, eps_t, s, mu1, eta1, eta2):
    """ln lambda_t = ln rho_t + eps_t Z_t with Z_t = s_t (mu1 - eta_1 + eta_2,t) (Algorithm 1, GTM.Step).

    Args:
        log_rho: ln rho_t, finite; eps_t: input privacy, finite and >= 0; s: direction, +1/-1 (or an array of them);
            mu1: shared offset, finite and > 0 (scalars or arrays broadcasting against the noise).
        eta1, eta2: the shared and the per-step noise, finite and >= 0 (float arrays of one broadcast shape).

    Returns:
        float array of the broadcast shape (ln of the Poisson mean of N_t; exponentiate with :func:`checked_exp`).

    Raises:
        ValueError: naming an argument outside its range (an array: any element).

    Example:
        >>> float(log_lambda(0.0, 0.5, 1, 2.0, 1.0, 0.5))  # 0.5 * (2 - 1 + 0.5)
        0.75
    """
    _validate.finite("log_rho", log_rho, scalar=False)
    _validate.nonnegative("eps_t", eps_t, scalar=False)
    if not np.all(np.isin(_validate.real("s", s, scalar=False), (-1, 1))):
        raise ValueError(f"s must be -1 or +1 (element-wise). Found {s!r}.")
    _validate.positive("mu1", mu1, scalar=False)
    _validate.interval("eta1", eta1, 0.0, math.inf, lo_open=False, hi_open=True, scalar=False)
    _validate.interval("eta2", eta2, 0.0, math.inf, lo_open=False, hi_open=True, scalar=False)
    return log_rho + eps_t * (s * (mu1 - eta1 + eta2))


#: Largest Poisson mean numpy can sample (about 2^63 less a safety margin).
MAX_POISSON_MEAN = 1e18


def checked_exp(log_lam):
    """exp(log lambda_t), refusing means beyond what can be sampled (they mean an infeasible number of evaluations).

    Args:
        log_lam: ln lambda_t, a number or array; not NaN, at most ln :data:`MAX_POISSON_MEAN` (-inf gives 0).

    Returns:
        float ndarray: lambda_t.

    Raises:
        ValueError: naming lambda_t when it exceeds :data:`MAX_POISSON_MEAN`, or log_lam when it is NaN.

    Example:
        >>> float(checked_exp(0.0))
        1.0
    """
    log_lam = np.asarray(_validate.real("log_lam", log_lam, scalar=False), dtype=float)
    if np.any(np.isnan(log_lam)):
        raise ValueError("log_lam must not be NaN (ln lambda_t of a step). Found NaN.")
    if np.any(log_lam > math.log(MAX_POISSON_MEAN)):
        raise ValueError(
            f"lambda_t = exp({float(np.max(log_lam)):.1f}) exceeds {MAX_POISSON_MEAN:.0e} evaluations; "
            "lower eps_t/eps or raise beta."
        )
    return np.exp(log_lam)
