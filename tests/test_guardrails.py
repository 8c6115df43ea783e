"""Guardrails (issue 31): configurations with infinite expected evaluations or without a continuation guarantee are
refused when a tester or a certified calibration is built, and steps with E[N_t] = inf when they would run, unless
the caller passes ``allow_vacuous=True``; and the argument contract of privtest.gtm, privtest.calibration,
privtest.testers and privtest.runs (NaN, infinities, bools, fractions for integers, integers beyond the float range
and out-of-range values are refused with a ValueError naming the parameter, before any work).

The conditions (privtest.gtm's module docstring): E[N_t] = rho_t E[e^{s eps_t (mu1 - eta_1 + eta_2,t)}] exists iff
eps_t tau_2,t < 1 on a direct step and eps_t tau1 < 1 on a flipped one; Theorem 21: tau2 = (theta + 2)/eps,
tau1 = (theta + 2)/(theta eps); Theorem 23: eps_t tau_2,t = 2/(C_H ln(4/beta_t)), tau1 = 1/eps_C.
"""

from __future__ import annotations

import math
import re
import time

import numpy as np
import pytest

import privtest.gtm as gtm
from privtest.bounds import RequirementError
from privtest.calibration import (
    ExactTailCalibration,
    certified_calibration,
    choose_calibration,
    count_threshold_exact,
    lambda_left_exact,
    lambda_right_exact,
    whole_run_error,
)
from privtest.gtm import (
    GTM,
    ExPostCalibration,
    GlobalCalibration,
    StepParams,
    check_admissible,
    first_vacuous_step,
    largest_admissible_eps_t,
    log4_over_beta_t,
    step_vacuity,
)
from privtest.gtm import VacuousConfigurationError as Vacuous
from privtest.mechanisms import BernoulliMechanism
from privtest.runs import HaltCounts, halting_counts, halting_probability, run_streams
from privtest.testers import GTMTester, bernoulli_stream, gtm_expost_tester, gtm_tester

CAL = GlobalCalibration(1.0, 0.05, 1.0, 1.5)
NEXT = math.inf


def _largest_from(message: str, name: str) -> float:
    """The largest admissible value a refusal states (printed with repr: the exact float)."""
    m = re.search(rf"The largest admissible {name} for this calibration, p\* and T is ([0-9.e+-]+)\.", message)
    assert m, message
    return float(m.group(1))


# 1. The conditions, derived from the paper, against the code -------------------------------------------------------


@pytest.mark.parametrize("theta", [0.5, 1.0, 2.0, 4.0])
def test_theorem21_direct_steps_need_eps_t_below_eps_over_theta_plus_2(theta):
    # p* = 1/2: gamma Lambda_t (1 - p*) > p* for every eps_t >= 0, so every step is direct (s_t = +1) and E[N_t] is
    # finite iff eps_t tau2 < 1, tau2 = (theta + 2)/eps: the largest admissible eps_t is the float just below
    # eps/(theta + 2) (where eps_t tau2 rounds below 1).
    eps = 2.0
    cal = GlobalCalibration(eps, 0.05, theta, 1.5)
    e = largest_admissible_eps_t(cal, 0.5, 100)
    bound = eps / (theta + 2)
    assert bound * (1 - 1e-15) < e < bound and e * cal.tau2 < 1 <= np.nextafter(e, NEXT) * cal.tau2
    st = cal.step(1, np.nextafter(e, NEXT), 0.5)
    assert st.s == 1 and st.expected_samples == math.inf and "eps/(theta + 2)" in step_vacuity(st, cal)
    assert math.isfinite(cal.step(100, e, 0.5).expected_samples)


def test_theorem21_flipped_steps_need_eps_t_below_theta_eps_over_theta_plus_2():
    # variant "flipped": E[N_t] = rho e^{-eps_t mu1} E[e^{eps_t eta_1}] ... is finite iff eps_t tau1 < 1,
    # tau1 = (theta + 2)/(theta eps): theta = 1/2, eps = 1 -> eps_t < 0.2 (p* near 1 keeps pbar_t > 0 there).
    cal = GlobalCalibration(1.0, 0.05, 0.5, 1.5, "flipped")
    e = largest_admissible_eps_t(cal, 1 - 1e-7, 1)
    assert 0.2 * (1 - 1e-15) < e < 0.2
    t, reason = first_vacuous_step(cal, 0.2, 1 - 1e-7, 1)
    assert t == 1 and "flipped step" in reason and "theta eps/(theta + 2) = 0.2" in reason


def test_theorem21_flipped_pbar_is_positive_only_while_gamma_lambda_times_one_minus_pstar_is_below_1():
    # variant "flipped": pbar_t = 1 - gamma Lambda_t (1 - p*) decreases in t: step T decides, and the largest
    # admissible eps_t puts gamma Lambda_T (1 - p*) just below 1.
    cal = GlobalCalibration(1.0, 0.05, 1.0, 1.5, "flipped")
    e = largest_admissible_eps_t(cal, 0.95, 100)
    assert cal.step(100, e, 0.95).pbar > 0 >= cal.step(100, np.nextafter(e, NEXT), 0.95).pbar
    assert 1.5 * math.exp(cal.log_Lambda(100, e)) * 0.05 == pytest.approx(1.0, rel=1e-12)
    t, reason = first_vacuous_step(cal, 0.06, 0.95, 100)  # the first step with gamma Lambda_t (1 - p*) >= 1
    assert reason.startswith("pbar_t = ") and cal.step(t - 1, 0.06, 0.95).pbar > 0 >= cal.step(t, 0.06, 0.95).pbar
    assert 1 < t < 100


def test_theorem23_direct_steps_need_c_h_above_2_over_ln_4_over_beta_1_whatever_eps_t():
    # eps_t tau_2,t = 2/(C_H ln(4/beta_t)): a direct step's E[N_t] is finite iff C_H ln(4/beta_t) > 2, hardest at t = 1.
    need = 2 / log4_over_beta_t(1, 0.05)  # 0.41037
    below, above = ExPostCalibration(1.0, 0.05, 0.999 * need, 1.5), ExPostCalibration(1.0, 0.05, 1.001 * need, 1.5)
    for eps_t in (1e-3, 0.1, 1.0):
        assert first_vacuous_step(below, eps_t, 0.5, 10)[0] == 1
        assert first_vacuous_step(above, eps_t, 0.5, 10) is None
    assert largest_admissible_eps_t(below, 0.5, 10) == 0.0
    with pytest.raises(Vacuous, match=r"C_H = .* must exceed 2/ln\(4/beta_t\).* No eps1 > 0 is admissible"):
        gtm_expost_tester(dict(eps=1.0, beta=0.05, C_H=0.999 * need, gamma=1.5), 0.5, 0.1, 10)


def test_theorem23_flipped_steps_need_eps_t_below_eps_c():
    cal = ExPostCalibration(1.0, 0.05, 2.0, 1.5, "flipped")
    e = largest_admissible_eps_t(cal, 1 - 1e-9, 3)
    assert e == np.nextafter(1.0, 0) and first_vacuous_step(cal, 1.0, 1 - 1e-9, 3)[1].startswith("E[N_t] = inf")


def test_the_interval_from_zero_ends_where_a_flipped_step_loses_its_moment():
    # theta < 1, p* near 1: small eps_t are flipped (needing eps_t < theta eps/(theta + 2) = 1/9), large ones direct
    # (needing eps_t < eps/(theta + 2) = 4/9). eps_t in [1/9, switch] is vacuous: the largest admissible eps_t is
    # the end of the interval from 0 (a tester admits mechanisms promising any eps below its eps_1).
    cal = GlobalCalibration(1.0, 0.05, 0.25, 1.5)
    e = largest_admissible_eps_t(cal, 0.999, 10)
    assert e == np.nextafter(1 / 9, 0) or (e < 1 / 9 and np.nextafter(e, NEXT) * cal.tau1 >= 1)
    assert first_vacuous_step(cal, 0.12, 0.999, 10) is not None and first_vacuous_step(cal, 0.3, 0.999, 10) is None
    # a tester at eps_1 = 0.3 is admissible, but a mechanism promising 0.12 makes its first step flipped with
    # E[N_t] = inf: the run refuses it (before any draw)
    tester = GTMTester(cal, 0.999, 0.3, 10)
    with pytest.raises(Vacuous, match=r"^eps_t = 0.12: step t = 1 .*flipped step"):
        tester.run(bernoulli_stream(np.full(10, 0.5), 0.12), 3, 0)


def test_first_and_last_step_of_each_pstar_decide():
    # The reduction of privtest.gtm._steps_to_check (and the bisection for the first vacuous step) against a brute
    # force over every step.
    rng = np.random.default_rng(3)
    cals = [
        GlobalCalibration(1.0, 0.05, 1.0, 1.5),
        GlobalCalibration(1.0, 0.05, 0.25, 1.5),
        GlobalCalibration(1.0, 0.05, 1.0, 1.5, "flipped"),
        GlobalCalibration(1.0, 0.05, 2.0, 2.0, "direct"),
        ExPostCalibration(1.0, 0.05, 0.45, 1.5),
        ExPostCalibration(1.0, 0.05, 2.0, 1.5, "flipped"),
    ]
    T = 60
    for cal in cals:
        for pstar in (0.5, 0.95, 0.999, tuple(rng.choice([0.3, 0.9, 0.99], T))):
            for eps_t in (0.01, 0.05, 0.1, 0.2, 0.3, 0.5, 1.2):
                fast = first_vacuous_step(cal, eps_t, pstar, T)
                ps = pstar if isinstance(pstar, tuple) else (pstar,) * T
                brute = [t for t in range(1, T + 1) if step_vacuity(cal.step(t, eps_t, ps[t - 1]), cal) is not None]
                assert (fast[0] if fast else None) == (brute[0] if brute else None), (cal, pstar, eps_t)


@pytest.mark.parametrize(
    "cal,pstar",
    [
        (GlobalCalibration(1.0, 0.05, 1.0, 1.5), 0.2),
        (GlobalCalibration(1.0, 0.05, 1.0, 1.5), 0.999),
        (GlobalCalibration(3.0, 0.01, 0.5, 2.0, "flipped"), 0.9),
        (ExactTailCalibration(1.0, 0.05, 1.0, 1.5), 0.5),
        (ExPostCalibration(1.0, 0.05, 2.0, 1.5), 0.99),
    ],
)
def test_largest_admissible_is_admissible_and_the_next_float_is_not(cal, pstar):
    e = largest_admissible_eps_t(cal, pstar, 50)
    assert first_vacuous_step(cal, e, pstar, 50) is None
    assert first_vacuous_step(cal, np.nextafter(e, NEXT), pstar, 50) is not None
    for x in np.linspace(0, e, 40)[1:]:  # the whole interval from 0 is admissible
        assert first_vacuous_step(cal, x, pstar, 50) is None


# 2. What is refused, where, and the opt-in -------------------------------------------------------------------------


def test_the_issue_configuration_is_refused_by_the_tester_with_the_largest_admissible_eps1():
    # eps = 1, eps_t = 0.5 (theta = 1): E[N_t] = inf (0.5 >= eps/3); before, the tester ran it.
    with pytest.raises(Vacuous) as info:
        GTMTester(CAL, 0.5, 0.5, 50)
    msg = str(info.value)
    assert msg.startswith("eps1 = 0.5: step t = 1 of T = 50 of GlobalCalibration(")
    assert "E[N_t] = inf" in msg and "eps/(theta + 2) = 0.3333333333333333" in msg and "allow_vacuous=True" in msg
    best = _largest_from(msg, "eps1")
    assert best == 0.33333333333333326
    assert GTMTester(CAL, 0.5, best, 50).expected_samples(50) < math.inf  # admissible
    for above in (np.nextafter(best, NEXT), best * (1 + 1e-12), 0.34):
        with pytest.raises(Vacuous):
            GTMTester(CAL, 0.5, float(above), 50)
    # the tester does not apply here: a RequirementError (as Cohen et al. at eps <= 2 eps_1), a ValueError
    assert isinstance(info.value, RequirementError) and isinstance(info.value, ValueError)


def test_a_tester_without_continuation_guarantee_is_refused_at_the_largest_t():
    cal = GlobalCalibration(1.0, 0.05, 1.0, 1.5, "flipped")
    assert cal.step(1, 0.04, 0.95).pbar > 0 > cal.step(1000, 0.04, 0.95).pbar
    with pytest.raises(Vacuous, match=r"^eps1 = 0.04: step t = 937 of T = 1000 .*pbar_t = .* <= 0"):
        GTMTester(cal, 0.95, 0.04, 1000)
    assert cal.step(936, 0.04, 0.95).pbar > 0 >= cal.step(937, 0.04, 0.95).pbar  # 937 is the first such step
    GTMTester(cal, 0.95, 0.04, 10)  # the same eps_1 is fine for a shorter stream
    best = largest_admissible_eps_t(cal, 0.95, 1000)
    GTMTester(cal, 0.95, best, 1000)
    with pytest.raises(Vacuous):
        GTMTester(cal, 0.95, float(np.nextafter(best, NEXT)), 1000)


def test_a_pstar_schedule_is_checked_at_every_value():
    cal = GlobalCalibration(1.0, 0.05, 0.25, 1.5)
    # eps_1 = 0.12: p* = 1/2 steps are direct (fine); at p* = 0.999 steps 1 and 2 are flipped with E[N_t] = inf,
    # steps 3.. direct (Lambda_t grows with t)
    GTMTester(cal, np.r_[np.full(5, 0.5), np.full(5, 0.999)], 0.12, 10)
    with pytest.raises(Vacuous, match=r"step t = 2 of T = 10 .*flipped step"):
        GTMTester(cal, np.r_[0.5, np.full(9, 0.999)], 0.12, 10)


def test_allow_vacuous_opts_in_everywhere():
    t = GTMTester(CAL, 0.5, 0.5, 5, allow_vacuous=True)
    assert t.expected_samples(1) == math.inf and t.allow_vacuous
    flipped = gtm_tester(
        dict(eps=1.0, beta=0.05, theta=1.0, gamma=1.5, variant="flipped", allow_vacuous=True), 0.9, 0.1, 3
    )
    assert flipped.pbar(1) < 0
    halt, _ = flipped.run(bernoulli_stream(np.full(3, 0.6), 0.1), 5, 0)  # runs (E[N_t] is finite)
    assert halt.shape == (5,)
    with pytest.raises(ValueError, match="allow_vacuous must be True or False"):
        GTMTester(CAL, 0.5, 0.1, 5, allow_vacuous=1)


def test_certified_calibration_refuses_before_any_work():
    for eps_t in (0.5, 2.0):  # eps_t = 2 > eps: the issue's example
        start = time.perf_counter()
        with pytest.raises(Vacuous, match=rf"^eps_t = {eps_t}: step t = 1 of T = 50 .*E\[N_t\] = inf"):
            certified_calibration(1.0, 0.05, 1.0, 1.5, 50, eps_t, 0.5)
        assert time.perf_counter() - start < 0.5  # refused before any exact whole-run error is computed
    with pytest.raises(Vacuous, match=r"pbar_t = .* <= 0"):
        certified_calibration(1.0, 0.05, 1.0, 1.5, 2, 0.1, 0.9, variant="flipped")
    cal, err = certified_calibration(1.0, 0.05, 1.0, 1.5, 2, 0.1, 0.9, variant="flipped", tol=0.5, allow_vacuous=True)
    assert err <= 0.05 and cal.variant == "flipped"


def test_gtm_step_refuses_infinite_expected_evaluations():
    g = GTM(CAL, rng=0)
    with pytest.raises(Vacuous) as info:
        g.step(BernoulliMechanism(0.5, 0.5), 0.5)
    assert str(info.value).startswith("eps_t = 0.5: step t = 1 of GlobalCalibration(") and g.t == 0
    best = _largest_from(str(info.value), "eps_t")
    assert best == 0.33333333333333326
    assert not GTM(CAL, rng=0).step(BernoulliMechanism(0.0, best), 0.5)  # admissible: runs (and continues at p = 0)
    # explicit parameters: the moment condition of the given s, tau1, tau2, mu1
    with pytest.raises(Vacuous, match=r"largest admissible eps_t for these parameters is 0.49999999999999994"):
        GTM(tau1=1.0, mu1=1.0, rng=0).step(BernoulliMechanism(0.5, 0.5), tau2=2.0, c=3, rho=1.0, s=1)
    with pytest.raises(Vacuous, match="flipped step"):
        GTM(tau1=2.0, mu1=1.0, rng=0).step(BernoulliMechanism(0.5, 0.5), tau2=1.0, c=3, rho=1.0, s=-1)
    # opted in, the step runs (tiny rho keeps N_t small)
    assert not GTM(tau1=1.0, mu1=1.0, rng=0, allow_vacuous=True).step(
        BernoulliMechanism(0.5, 0.5), tau2=2.0, c=3, rho=1e-9, s=1
    )
    # a step without continuation guarantee runs: the GTM has no horizon (the tester checks it)
    flipped = GlobalCalibration(1.0, 0.05, 1.0, 1.5, "flipped")
    assert flipped.step(1, 0.1, 0.9).pbar < 0
    GTM(flipped, rng=0).step(BernoulliMechanism(0.6, 0.1), 0.9)


def test_runners_refuse_infinite_expected_evaluations_only():
    st = CAL.step(1, 0.5, 0.5)
    for run in (halting_counts, halting_probability):
        with pytest.raises(Vacuous, match=r"^eps_t = 0.5: step t = 1 .*E\[N_t\] = inf"):
            run(st, [0.5], 10, 0)
    assert halting_counts(CAL.step(1, 0.5, 0.5), [0.0], 3, 0, allow_vacuous=True).runs == 3
    flipped = GlobalCalibration(1.0, 0.05, 1.0, 1.5, "flipped").step(1, 0.1, 0.9)
    assert halting_counts(flipped, [0.6], 10, 0).runs == 10  # pbar_t <= 0: one step in isolation runs
    ms = bernoulli_stream([0.0, 0.0], 0.5)
    with pytest.raises(Vacuous, match="largest admissible eps_t"):
        run_streams(CAL, ms, 0.5, 2, 3, 0)
    calls = []
    with pytest.raises(Vacuous):
        run_streams(CAL, lambda t: calls.append(t) or ms[t - 1], 0.5, 2, 3, 0)
    assert calls == [1]  # a function: refused at its first vacuous step, before its draws


def test_critical_p_beyond_t_and_choose_calibration_refuse_too():
    t = GTMTester(CAL, 0.5, 0.1, 5)
    assert t.critical_p(8, 10, 0).runs == 10  # beyond T: E[N_t] stays finite
    with pytest.raises(Vacuous, match=r"^eps_t = 0.5.*largest admissible eps_t .* is 0.33333333333333326"):
        choose_calibration(1.0, 0.5, 0.05, 0.5, 10, certify=False)


def test_a_million_step_tester_is_checked_in_milliseconds():
    # only the first and last step of each value of p* decide (module docstring of privtest.gtm)
    start = time.perf_counter()
    GTMTester(CAL, 0.5, 0.1, 10**6)
    with pytest.raises(Vacuous):
        GTMTester(CAL, 0.5, 0.4, 10**6)
    assert time.perf_counter() - start < 1.0


def test_check_admissible_names_the_callers_parameter():
    with pytest.raises(Vacuous, match=r"^eps_ratio = 0.5:"):
        check_admissible(CAL, 0.5, 0.5, 3, name="eps_ratio")
    check_admissible(CAL, 0.5, 0.5, 3, allow_vacuous=True)
    check_admissible(CAL, 0.5, 0.5, 3, moment_only=False, allow_vacuous=True)


# 3. The argument contract of these modules -------------------------------------------------------------------------

#: Kinds of numeric parameter: the bad values each must refuse (all of them: NaN, both infinities, a bool).
_COMMON = [math.nan, math.inf, -math.inf, True]
_INT = [*_COMMON, 4.5, 2**1100]  # a fraction for an integer, an integer beyond the float range

ST = CAL.step(1, 0.1, 0.5)
ST_ARGS = dict(
    t=1, eps_t=0.1, pstar=0.5, tau1=3.0, mu1=13.1, tau2=3.0, s=1, c=282, rho=679.0, log_Lambda=2.77, pbar=0.02,
    beta_I=0.0076, beta_II=0.0076,
)  # fmt: skip
POST = ExPostCalibration(1.0, 0.05, 2.0, 1.5)
TESTER = GTMTester(CAL, 0.5, 0.1, 4)
GCFG = dict(eps=1.0, beta=0.05, theta=1.0, gamma=1.5)
M = BernoulliMechanism(0.5, 0.1)


def _row(fn, defaults, params):
    return fn, defaults, params


#: (id, callable, valid keyword arguments, {parameter: (out-of-range value, is an integer)}).
ROWS = [
    ("StepParams", StepParams, ST_ARGS, {
        "t": (0, True), "eps_t": (-0.1, False), "pstar": (1.0, False), "tau1": (0.0, False), "mu1": (-1.0, False),
        "tau2": (0.0, False), "s": (2, True), "c": (-1, True), "rho": (0.0, False), "log_Lambda": (-1.0, False),
        "pbar": (0.9, False), "beta_I": (0.0, False), "beta_II": (1.0, False)}),
    ("GlobalCalibration", GlobalCalibration, GCFG, {
        "eps": (0.0, False), "beta": (1.0, False), "theta": (-1.0, False), "gamma": (2.5, False)}),
    ("GlobalCalibration.step", CAL.step, dict(t=1, eps_t=0.1, pstar=0.5), {
        "t": (0, True), "eps_t": (-0.1, False), "pstar": (0.0, False)}),
    ("GlobalCalibration.log_Lambda", CAL.log_Lambda, dict(t=1, eps_t=0.1), {"t": (0, True), "eps_t": (-1.0, False)}),
    ("GlobalCalibration.max_loss", CAL.max_loss, dict(T=3, eps_t=0.1), {"T": (0, True), "eps_t": (-1.0, False)}),
    ("GlobalCalibration.step_budget", CAL.step_budget, dict(t=3), {"t": (0, True)}),
    ("GlobalCalibration.amortized_bound", CAL.amortized_bound, dict(T=20, eps1=0.1, pstar=0.5), {
        "T": (0, True), "eps1": (0.0, False), "pstar": (1.5, False)}),
    ("ExPostCalibration", ExPostCalibration, dict(eps_C=1.0, beta=0.05, C_H=2.0, gamma=1.5), {
        "eps_C": (0.0, False), "beta": (0.0, False), "C_H": (-2.0, False), "gamma": (1.0, False)}),
    ("ExPostCalibration.step", POST.step, dict(t=1, eps_t=0.1, pstar=0.5), {
        "t": (0, True), "eps_t": (0.0, False), "pstar": (1.0, False)}),
    ("ExPostCalibration.log_Lambda", POST.log_Lambda, dict(eps_t=0.1), {"eps_t": (-0.1, False)}),
    ("ExPostCalibration.tau2_at", POST.tau2_at, dict(t=2, eps_t=0.1), {"t": (0, True), "eps_t": (0.0, False)}),
    ("ExPostCalibration.max_loss", POST.max_loss, dict(T=3, eps_t=0.1), {"T": (0, True), "eps_t": (0.0, False)}),
    ("ExPostCalibration.amortized_bound", POST.amortized_bound, dict(T=3, eps1=0.1, pstar=0.5), {
        "T": (0, True), "eps1": (0.0, False), "pstar": (0.0, False)}),
    ("rejection_threshold", gtm.rejection_threshold, dict(pstar=0.5, log_gamma_Lambda=0.3), {
        "pstar": (1.0, False), "log_gamma_Lambda": (-1.0, False)}),
    ("flip_direction", gtm.flip_direction, dict(pstar=0.5, log_gamma_Lambda=0.3), {
        "pstar": (0.0, False), "log_gamma_Lambda": (-1.0, False)}),
    ("reachable_budget", gtm.reachable_budget, dict(err=0.01, t=1, beta=0.05), {
        "err": (1.0, False), "t": (0, True), "beta": (1.0, False)}),
    ("log4_over_beta_t", gtm.log4_over_beta_t, dict(t=1, beta=0.05), {"t": (0, True), "beta": (0.0, False)}),
    ("step_budget", gtm.step_budget, dict(t=1, beta=0.05), {"t": (0, True), "beta": (1.0, False)}),
    ("halt_miss_bound", gtm.halt_miss_bound, dict(t=1, beta=0.05), {"t": (0, True), "beta": (1.0, False)}),
    ("continue_bound", gtm.continue_bound, dict(t=1, beta=0.05), {"t": (0, True), "beta": (1.0, False)}),
    ("sample_bound", gtm.sample_bound, dict(st=ST, beta=0.05), {"beta": (1.0, False)}),
    ("sample_budget", gtm.sample_budget, dict(steps=[ST], beta=0.05), {"beta": (0.0, False)}),
    ("first_vacuous_step", first_vacuous_step, dict(cal=CAL, eps_t=0.1, pstar=0.5, T=3), {
        "eps_t": (-0.1, False), "pstar": (1.0, False), "T": (0, True)}),
    ("largest_admissible_eps_t", largest_admissible_eps_t, dict(cal=CAL, pstar=0.5, T=3), {
        "pstar": (1.0, False), "T": (0, True)}),
    ("check_admissible", check_admissible, dict(cal=CAL, eps_t=0.1, pstar=0.5, T=3), {
        "eps_t": (-0.1, False), "pstar": (1.0, False), "T": (0, True)}),
    ("GTM", GTM, dict(calibration=None, rng=0, tau1=1.0, mu1=1.0), {"tau1": (0.0, False), "mu1": (-1.0, False)}),
    ("GTM.step(explicit)", lambda **k: GTM(None, 0, tau1=1.0, mu1=1.0).step(M, **k),
        dict(tau2=1.0, c=3, rho=10.0, s=1), {
        "tau2": (0.0, False), "c": (-1, True), "rho": (0.0, False), "s": (0, True)}),
    ("GTM.step(pstar)", lambda **k: GTM(CAL, 0).step(M, **k), dict(pstar=0.5), {"pstar": (1.0, False)}),
    ("run_step", lambda **k: gtm.run_step(mechanism=M, rng=0, **k),
        dict(eta1=[0.5], mu1=1.0, eps_t=0.1, tau2=3.0, c=5, rho=40.0, s=1, step=1), {
        "eta1": (-1.0, False), "mu1": (0.0, False), "eps_t": (-0.1, False), "tau2": (0.0, False), "c": (-1, True),
        "rho": (0.0, False), "s": (2, True), "step": (0, True)}),
    ("log_lambda", gtm.log_lambda, dict(log_rho=0.0, eps_t=0.5, s=1, mu1=2.0, eta1=1.0, eta2=0.5), {
        "eps_t": (-0.5, False), "s": (0, True), "mu1": (0.0, False), "eta1": (-1.0, False), "eta2": (-1.0, False)}),
    ("lambda_left_exact", lambda_left_exact, dict(c=5, alpha=1e-3), {"c": (-1, True), "alpha": (0.0, False)}),
    ("lambda_right_exact", lambda_right_exact, dict(c=5, alpha=1e-3), {"c": (-1, True), "alpha": (1.0, False)}),
    ("count_threshold_exact", count_threshold_exact, dict(alpha=1e-3, beta=1e-3, gamma=1.5), {
        "alpha": (0.0, False), "beta": (1.0, False), "gamma": (1.0, False)}),
    ("ExactTailCalibration", ExactTailCalibration, dict(GCFG, budget_scale=2.0), {
        "eps": (0.0, False), "beta": (1.0, False), "theta": (0.0, False), "gamma": (3.0, False),
        "budget_scale": (0.0, False)}),
    ("whole_run_error", whole_run_error, dict(cal=ExactTailCalibration(**GCFG), T=2, eps_t=0.1, pstar=0.5), {
        "T": (0, True), "eps_t": (-0.1, False), "pstar": (1.0, False)}),
    ("certified_calibration", certified_calibration, dict(GCFG, T=2, eps_t=0.1, pstar=0.5, tol=0.5), {
        "eps": (0.0, False), "beta": (1.0, False), "theta": (0.0, False), "gamma": (1.0, False), "T": (0, True),
        "eps_t": (-0.1, False), "pstar": (0.0, False), "tol": (0.0, False)}),
    ("choose_calibration", choose_calibration, dict(eps=1.0, eps_t=0.1, beta=0.05, pstar=0.5, T=3, certify=False), {
        "eps": (0.0, False), "eps_t": (0.0, False), "beta": (1.0, False), "pstar": (1.0, False), "T": (3000, True),
        "pbar": (0.5, False)}),
    ("GTMTester", GTMTester, dict(cal=CAL, pstar=0.5, eps1=0.1, T=4), {
        "pstar": (1.0, False), "eps1": (0.0, False), "T": (0, True)}),
    ("GTMTester.step", TESTER.step, dict(t=1), {"t": (0, True)}),
    ("GTMTester.pbar", TESTER.pbar, dict(t=1), {"t": (0, True)}),
    ("GTMTester.sample_budget", TESTER.sample_budget, dict(T=3), {"T": (0, True)}),
    ("GTMTester.amortized_sample_bound", TESTER.amortized_sample_bound, dict(T=20), {"T": (0, True)}),
    ("GTMTester.run", lambda **k: TESTER.run(bernoulli_stream([0.1], 0.1), rng=0, **k), dict(runs=2), {
        "runs": (0, True)}),
    ("GTMTester.critical_p", lambda **k: TESTER.critical_p(rng=0, **k), dict(T=2, runs=2), {
        "T": (0, True), "runs": (0, True)}),
    ("GTMTester.halts_at_step", lambda **k: TESTER.halts_at_step(rng=0, **k), dict(t=1, p=[0.1], runs=2), {
        "t": (0, True), "p": (1.5, False), "runs": (0, True)}),
    ("GTMTester.exact_error", lambda **k: TESTER.exact_error(halt_at_T=True, **k), dict(p=[0.1, 0.5]), {
        "p": (-0.5, False)}),
    ("bernoulli_stream", bernoulli_stream, dict(p=[0.1, 0.5], eps1=0.1), {"p": (1.5, False), "eps1": (-0.1, False)}),
    ("gtm_tester", lambda **k: gtm_tester(GCFG, **k), dict(pstar=0.5, eps_ratio=0.1, T=3), {
        "pstar": (1.0, False), "eps_ratio": (0.0, False), "T": (0, True)}),
    ("run_streams", lambda **k: run_streams(CAL, bernoulli_stream([0.1, 0.2], 0.1), rng=0, **k),
        dict(pstar=0.5, T=2, runs=2), {"pstar": (1.0, False), "T": (0, True), "runs": (0, True)}),
    ("halting_counts", lambda **k: halting_counts(ST, rng=0, **k), dict(p=[0.1], runs=2, delta=0.0), {
        "p": (1.5, False), "runs": (0, True), "delta": (1.0, False)}),
    ("halting_probability", lambda **k: halting_probability(ST, rng=0, **k), dict(p=[0.1], runs=2, delta=0.0), {
        "p": (-0.5, False), "runs": (0, True), "delta": (-0.1, False)}),
    ("HaltCounts", HaltCounts, dict(halts=[0], samples=[0], good_runs=[0], good_halts=[0], runs=3), {
        "runs": (0, True)}),
]  # fmt: skip

CASES = [
    pytest.param(call, defaults, name, bad, id=f"{rid}-{name}-{bad!r:.12}")
    for rid, call, defaults, params in ROWS
    for name, (out_of_range, is_int) in params.items()
    for bad in [*(_INT if is_int else _COMMON), out_of_range]
]


def _named(message: str, name: str) -> bool:
    return re.search(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])", message) is not None


@pytest.mark.parametrize(("rid", "call", "defaults"), [(r, c, d) for r, c, d, _ in ROWS], ids=[r for r, *_ in ROWS])
def test_the_valid_call_of_each_row_works(rid, call, defaults):
    call(**defaults)


@pytest.mark.parametrize(("call", "defaults", "name", "bad"), CASES)
def test_bad_numbers_are_refused_naming_the_parameter(call, defaults, name, bad):
    with pytest.raises(ValueError) as info:
        call(**{**defaults, name: bad})
    assert _named(str(info.value), name), f"{name}={bad!r}: {info.value}"


def test_the_external_case_values():
    # /work/shared/cases/library/f_nan_inf_public_api.py, this library's part
    with pytest.raises(ValueError, match="^eps_t"):
        CAL.max_loss(3, math.nan)
    for bad in (-1.0, math.nan, math.inf, -math.inf):
        with pytest.raises(ValueError, match="log_gamma_Lambda"):
            gtm.rejection_threshold(0.5, bad)
        with pytest.raises(ValueError, match="log_gamma_Lambda"):
            gtm.rejection_threshold(0.5, [0.3, bad])

    class Promise:
        """A duck-typed mechanism (Mechanism itself now refuses such an eps when it is set)."""

        def __init__(self, eps):
            self.eps, self.delta = eps, 0.0

        def count_plus(self, n, rng):
            return np.zeros_like(np.asarray(n))

    for eps in (math.nan, -math.inf, math.inf, -0.1):
        for g in (GTM(None, 0, tau1=1.0, mu1=1.0), GTM(CAL, 0)):
            with pytest.raises(ValueError, match=r"^eps_t: the mechanism of step 1 promises eps"):
                g.step(Promise(eps), 0.5) if g.calibration else g.step(Promise(eps), tau2=1.0, c=3, rho=10.0, s=1)
