"""BatchToCO (Algorithm 3) run on R independent copies of one stream at once, and the CO baselines.

Each run r holds its active instance index ell_r (GTM_ell, starting at 2), that instance's shared noise eta_1
(drawn at GTM_ell.Init with tau1 = 1/eps(ell)), the instance's own step counter s_r, and its current solution.
At time t every run with active instance ell feeds the same test mechanism M_t^{h_ell} (Definition 36) with
eps_t = eps(ell, t) and delta_t = delta(ell, t); the GTM step itself (:func:`privtest.gtm.run_step`) is vectorized
over the runs that share (ell, s). A halting run calls ThresholdSelect(Q_t, h_ell, xi_ell, min(eps_t, 1)), keeps its
old solution if that returns -1, and opens GTM_{ell+1}.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from privtest.co.mechanisms import COProblem, ScoredMechanism, TestMechanism, threshold_select
from privtest.co.params import BatchToCOParams
from privtest.gtm import run_step


@dataclass(frozen=True)
class CORun:
    """Outcome of R runs over T steps (arrays indexed [run, t-1]).

    Attributes:
        value: f(X_t, Y_t) (float, (R, T)).
        ell: index of the most recent checkpoint ell(t) (1 before any checkpoint) (int, (R, T)).
        t_ell: time t(ell(t)) of that checkpoint (1 for the initial solution) (int, (R, T)).
        eps_t: eps(i, t) of the instance i that stepped at t (0 at t = 1) (float, (R, T)).
        gtm_ell, gtm_s: that instance's index i and its own step counter s (0 at t = 1) (int, (R, T)).
        gtm_calls: N_t, evaluations of A by the GTM at t (int, (R, T)).
        ts_calls: draws of Q_t by ThresholdSelect at t (0 unless t is a checkpoint) (int, (R, T)).
        ts_failed: ThresholdSelect returned -1 at t (bool, (R, T)).
        simulated: draws of A actually simulated by the lazy test mechanism at t, summed over runs (int, (T,)).
        halt_loss: realised ex-post privacy of each run: eps(1,1) + sum over opened instances of their transcript
            loss (Theorem 23) + ThresholdSelect's 2 eps_t + eps_0 at each checkpoint (float, (R,)).
    """

    value: np.ndarray
    ell: np.ndarray
    t_ell: np.ndarray
    eps_t: np.ndarray
    gtm_ell: np.ndarray
    gtm_s: np.ndarray
    gtm_calls: np.ndarray
    ts_calls: np.ndarray
    ts_failed: np.ndarray
    simulated: np.ndarray
    halt_loss: np.ndarray


def batch_to_co(
    problem: COProblem, params: BatchToCOParams, runs: int, rng: np.random.Generator, lazy: bool = True
) -> CORun:
    """Run Algorithm 3 ``runs`` times on ``problem``'s stream (t = 1..problem.T).

    Args:
        problem: the stream, objective and batch algorithm.
        params: Algorithm 3's inputs and constants.
        runs: R >= 1 independent runs.
        rng: numpy Generator.
        lazy: exact lazy simulation of the test mechanism (see :mod:`privtest.co.mechanisms`).

    Returns:
        :class:`CORun`.
    """
    R, T = int(runs), int(problem.T)
    value = np.zeros((R, T))
    ell_hist = np.ones((R, T), dtype=np.int64)
    t_ell_hist = np.ones((R, T), dtype=np.int64)
    eps_hist = np.zeros((R, T))
    gtm_ell = np.zeros((R, T), dtype=np.int64)
    gtm_s = np.zeros((R, T), dtype=np.int64)
    gtm_calls = np.zeros((R, T), dtype=np.int64)
    ts_calls = np.zeros((R, T), dtype=np.int64)
    ts_failed = np.zeros((R, T), dtype=bool)
    simulated = np.zeros(T, dtype=np.int64)

    # t = 1: Y_cur <- A(X_1, eps(1,1), delta(1,1)).
    Y = problem.sample(1, params.eps_it(1, 1), params.delta_it(1, 1), R, rng)
    value[:, 0] = problem.value(1, Y)
    loss = np.full(R, params.eps_it(1, 1))
    ell = np.full(R, 2, dtype=np.int64)  # active GTM instance
    s = np.zeros(R, dtype=np.int64)  # steps taken by the active instance
    t_last = np.ones(R, dtype=np.int64)
    eta1 = rng.exponential(1.0 / params.eps_i(2), size=R)
    cals = {}

    for t in range(2, T + 1):
        s += 1
        ell_now, s_now = ell.copy(), s.copy()  # instances opened at t take their first step at t + 1
        gtm_ell[:, t - 1], gtm_s[:, t - 1] = ell_now, s_now
        for i in np.unique(ell_now):
            i = int(i)
            cal = cals.setdefault(i, params.calibration(i))
            eps_t, delta_t = params.eps_it(i, t), params.delta_it(i, t)
            mech = TestMechanism(problem, t, eps_t, delta_t, float(params.h(i)), lazy=lazy)
            in_i = np.flatnonzero(ell_now == i)
            eps_hist[in_i, t - 1] = eps_t
            for si in np.unique(s_now[in_i]):
                idx = in_i[s_now[in_i] == si]
                st = cal.step(int(si), eps_t, params.pstar)
                halted, N, _ = run_step(eta1[idx], st.mu1, st.eps_t, st.tau2, st.c, st.rho, st.s, mech, rng)
                gtm_calls[idx, t - 1] = N
                for r in idx[halted]:
                    loss[r] += st.halt_loss
                    eps0 = min(eps_t, 1.0)
                    Yh, _, draws = threshold_select(
                        ScoredMechanism(problem, t, eps_t, delta_t), float(params.h(i)), float(params.xi(i)), eps0, rng
                    )
                    loss[r] += 2.0 * eps_t + eps0
                    ts_calls[r, t - 1] = draws
                    if Yh is None:
                        ts_failed[r, t - 1] = True
                    else:
                        Y[r] = Yh
                    ell[r] = i + 1
                    s[r] = 0
                    t_last[r] = t
                    eta1[r] = rng.exponential(1.0 / params.eps_i(i + 1))
            simulated[t - 1] += mech.evaluated
        ell_hist[:, t - 1] = ell - 1
        t_ell_hist[:, t - 1] = t_last
        value[:, t - 1] = problem.value(t, Y)
    # Instances still open at T never halted: their transcript costs eps(ell) (Theorem 23, continuation).
    loss += params.eps_i(ell)
    return CORun(value, ell_hist, t_ell_hist, eps_hist, gtm_ell, gtm_s, gtm_calls, ts_calls, ts_failed, simulated, loss)


def advanced_composition_eps(eps: float, delta: float, T: int) -> float:
    r"""Largest per-step eps_0 with T-fold advanced composition (Dwork, Rothblum, Vadhan 2010) at most eps:
    :math:`\varepsilon_0\sqrt{2T\ln(1/\delta)} + T\varepsilon_0(e^{\varepsilon_0}-1) \le \varepsilon`
    (overall (eps, delta)-DP; bisection, rounded down)."""
    lo, hi = 0.0, eps
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if mid * np.sqrt(2 * T * np.log(1 / delta)) + T * mid * np.expm1(mid) <= eps:
            lo = mid
        else:
            hi = mid
    return lo


def baselines(problem: COProblem, eps: float, runs: int, rng: np.random.Generator, delta_adv: float = 1e-6) -> dict:
    """CO baselines on the same stream, each (eps, .)-DP over the whole known horizon T:

    * ``recompute (basic)``: Y_t = A(X_t, eps/T) at every t (basic composition, pure eps-DP);
    * ``recompute (advanced)``: Y_t = A(X_t, eps_0) with eps_0 from :func:`advanced_composition_eps`
      ((eps, delta_adv)-DP: approximate DP);
    * ``never update``: Y_t = Y_1 = A(X_1, eps) forever (eps-DP).

    Returns:
        dict method -> float array (runs, T) of f(X_t, Y_t).
    """
    T = problem.T
    eps_adv = advanced_composition_eps(eps, delta_adv, T)
    out = {m: np.zeros((runs, T)) for m in ("recompute (basic)", "recompute (advanced)", "never update")}
    Y1 = problem.sample(1, eps, 0.0, runs, rng)
    for t in range(1, T + 1):
        out["recompute (basic)"][:, t - 1] = problem.value(t, problem.sample(t, eps / T, 0.0, runs, rng))
        out["recompute (advanced)"][:, t - 1] = problem.value(t, problem.sample(t, eps_adv, 0.0, runs, rng))
        out["never update"][:, t - 1] = problem.value(t, Y1)
    return out
