"""BatchToCO (Algorithm 3) run on many independent copies of one stream at once, and the CO baselines.

Engine (:func:`batch_to_co`). Each run r holds its active instance index ell_r (GTM_ell, starting at 2), that
instance's shared noise eta_1 (drawn at GTM_ell.Init with tau1 = 1/eps(ell)), the instance's own step counter s_r and
its current solution. Runs may differ in eps (one :class:`BatchToCOParams` per run, all other constants equal): the
whole sweep over eps is one vectorized loop over t. A GTM step of every run is drawn at once: eta_2 ~ Exp(tau_{2}),
N_t ~ Po(rho_s e^{eps_t (mu1 - eta1 + eta2)}) (Algorithm 1 with Corollary 35's parameters,
:class:`privtest.gtm.ExPostCalibration`), and the step halts iff K_t >= c_s + 1, K_t the +1 count of N_t evaluations
of the test mechanism M_t^{h_ell} (Definition 36).

Only the halting decision is needed, and it is drawn exactly without evaluating A N_t times. With
g(Y) = Pr[f(X_t, Y) + Lap(2/eps_t) >= h] and any certified U_t >= OPT_t, g(0) = l <= g(Y) <= u = g(U_t); each
evaluation draws a uniform V: V < l is a +1 and V >= u a -1 whatever Y is, and only l <= V < u needs A (then +1 w.p.
(g(Y) - l)/(u - l)). So k_lo ~ Bin(N, l) +1s are certain and m ~ Bin(N - k_lo, (u - l)/(1 - l)) are open. If
k_lo >= c + 1 the step halts, if k_lo + m < c + 1 it continues, and only otherwise are the m open evaluations drawn
(f of m fresh draws of A(X_t, eps_t/2)). The decision has exactly the law of Algorithm 1's, the draws of A are a
small fraction of N (the simulator, not the algorithm, knows U_t). When A's score law is known exactly
(``score_distribution``), K_t is one binomial draw. A halting run calls ThresholdSelect(Q_t, h_ell, xi_ell,
min(eps_t, 1)), keeps its old solution if that returns -1, and opens GTM_{ell+1}.

The per-step constants of GTM_i's step s (Theorem 23, direct variant, budgets beta_s/6 with beta_s = omega_s beta_i:
c_s = count_threshold(beta_s/6, beta_s/6, gamma) and rho_s = lambda^l(c_s, beta_s/6)/p*, eq. (3), Lemma 20(1)) are
tabulated per instance (:class:`_InstanceSteps`); ``tests/test_co.py`` checks them against
:meth:`privtest.gtm.ExPostCalibration.step`.

Baselines (:func:`baselines`): recomputation schemes a user would pick instead, in the CO model (no horizon known) or
with an oracle horizon (known T, references only). Every public function checks its arguments first (ValueError
naming the parameter and its range).

Example:
    >>> import numpy as np
    >>> from privtest.co.maxcut import MaxCut
    >>> problem = MaxCut(5, np.array([[0, 1], [1, 2], [2, 3], [3, 4], [4, 0], [0, 2]] * 5))
    >>> params = BatchToCOParams(eps=30.0, beta=0.05, pstar=0.45, kappa=0.5, gamma=2.0)
    >>> run = batch_to_co(problem, params, runs=4, rng=0)
    >>> run.value.shape, run.ell[:, -1].tolist()
    ((4, 30), [21, 20, 21, 21])
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

import numpy as np

from privtest import _validate
from privtest.co.composition import advanced_composition_eps
from privtest.co.mechanisms import COProblem, ScoredMechanism, laplace_tail, threshold_select
from privtest.co.params import BatchToCOParams, purification_phi_array
from privtest.gtm import checked_exp, log_lambda
from privtest.poisson import count_threshold, lambda_left
from privtest.schedule import omega

__all__ = ["BASELINES", "CORun", "baselines", "batch_to_co", "geometric_steps"]


@dataclass(frozen=True)
class CORun:
    """Outcome of R runs, recorded at K steps (arrays indexed [run, k] refer to step ``steps[k]``).

    Attributes:
        steps: int (K,), the recorded steps (increasing, 1-based).
        value: f(X_t, Y_t) (float, (R, K)).
        ell: index of the most recent checkpoint ell(t) (1 before any checkpoint) (int, (R, K)).
        t_ell: time t(ell(t)) of that checkpoint (1 for the initial solution) (int, (R, K)).
        eps_t: eps(i, t) of the instance i that stepped at t (0 at t = 1) (float, (R, K)).
        gtm_ell, gtm_s: that instance's index i and its own step counter s (0 at t = 1) (int, (R, K)).
        gtm_calls: N_t, evaluations of A by the GTM at t (int, (R, K)).
        ts_calls: draws of Q_t by ThresholdSelect at t (0 unless t is a checkpoint) (int, (R, K)).
        ts_failed: ThresholdSelect returned -1 at t (bool, (R, K)).
        checkpoints: int (R, L): t(2), t(3), ... of each run (padded with 0): every checkpoint, recorded or not.
        calls_total: int (R,), sum of N_t over all steps 2..T.
        simulated: int, draws of A the exact lazy decision actually simulated (all runs, all steps).
        halt_loss: realised ex-post privacy of each run: eps(1,1) + sum over opened instances of their transcript
            loss (Theorem 23) + ThresholdSelect's 2 eps_t + eps_0 at each checkpoint (float, (R,)).
        delta_t: delta(i, t) of the instance that stepped at t (delta(1, 1) at t = 1; 0 with delta = 0) (float, (R, K)).
        delta_loss: Lemma 38's delta ledger of each run, summed exactly: delta(1, 1) + ThresholdSelect's
            3 e^{2 eps_t + eps_0} delta_t/xi_ell at each checkpoint (the purified GTM transcripts add none)
            (float, (R,)); :func:`privtest.co.params.delta_ledger` recomputes it from the checkpoints.

    A result record (what :func:`batch_to_co` returns); its fields are outputs, not checked arguments.

    Example:
        >>> from privtest.co.maxcut import MaxCut
        >>> problem = MaxCut(4, np.array([[0, 1], [1, 2], [2, 3], [3, 0]] * 3))
        >>> run = batch_to_co(problem, BatchToCOParams(eps=30.0, beta=0.05, pstar=0.45, kappa=0.5, gamma=2.0), 2, rng=0)
        >>> run.steps.tolist()[:4], run.value.shape, run.calls_total.shape
        ([1, 2, 3, 4], (2, 12), (2,))
    """

    steps: np.ndarray
    value: np.ndarray
    ell: np.ndarray
    t_ell: np.ndarray
    eps_t: np.ndarray
    gtm_ell: np.ndarray
    gtm_s: np.ndarray
    gtm_calls: np.ndarray
    ts_calls: np.ndarray
    ts_failed: np.ndarray
    checkpoints: np.ndarray
    calls_total: np.ndarray
    simulated: int
    halt_loss: np.ndarray
    delta_t: np.ndarray
    delta_loss: np.ndarray


class _InstanceSteps:
    """Per-step constants of GTM_i (Corollary 35: Theorem 23 with eps_C = eps(i), beta = beta_i, direct variant),
    tabulated for s = 1, 2, ... and extended on demand: c_s = count_threshold(b_s, b_s, gamma) (Lemma 11) and
    rho_s = lambda^l(c_s, b_s)/p* (Lemma 20(1)) with b_s = :meth:`ExPostCalibration.step_budget` (beta_s/6,
    beta_s = omega_s beta_i): what :meth:`ExPostCalibration.step` computes, for many s at once (``tests/test_co.py``
    checks equality). Independent of eps; ``cal`` (eps = 1) also gives tau_{2,s} = ``cal.tau2_at(s, eps_t)`` for
    any eps_t and mu1 = ``cal.mu1``/eps."""

    def __init__(self, params: BatchToCOParams, i: int):
        self.cal = params.calibration(i)
        self.gamma, self.pstar = params.gamma, params.pstar
        self.c = np.zeros(0, dtype=np.int64)
        self.rho = np.zeros(0)

    def ensure(self, s_max: int) -> None:
        n = self.c.size
        if s_max <= n:
            return
        s = np.arange(n + 1, max(s_max, 2 * n, 256) + 1)
        err = self.cal.step_budget(s)
        c = _monotone_fill(lambda k: count_threshold(err[k], err[k], self.gamma), err.size)
        self.c = np.concatenate([self.c, c])
        self.rho = np.concatenate([self.rho, lambda_left(c, err) / self.pstar])


def _monotone_fill(f, n: int) -> np.ndarray:
    """[f(0), ..., f(n-1)] for an integer-valued f that is non-decreasing in k, evaluating f only where it changes
    (bisection: if f(lo) == f(hi), f is constant on [lo, hi]). Here f(k) = c_{s_0+k}: c_s grows with s because
    beta_s = omega_s beta_i decreases (count_threshold grows with ln(1/err))."""
    out = np.empty(n, dtype=np.int64)
    if n == 0:
        return out
    out[0], out[-1] = f(0), f(n - 1)
    stack = [(0, n - 1)]
    while stack:
        lo, hi = stack.pop()
        if out[lo] == out[hi]:
            out[lo : hi + 1] = out[lo]
        elif hi - lo > 1:
            mid = (lo + hi) // 2
            out[mid] = f(mid)
            stack += [(lo, mid), (mid, hi)]
    return out


def _same_constants(params: list[BatchToCOParams]) -> BatchToCOParams:
    """The common constants of per-run parameters that may differ only in eps (returned with eps = 1)."""
    if not params or not all(isinstance(p, BatchToCOParams) for p in params):
        raise TypeError("params must be a BatchToCOParams or a non-empty list of them.")
    base = dataclasses.replace(params[0], eps=1.0)
    for p in params:
        if dataclasses.replace(p, eps=1.0) != base:
            raise ValueError("all runs must share BatchToCO's constants except eps.")
    return base


def batch_to_co(
    problem: COProblem,
    params: BatchToCOParams | list[BatchToCOParams],
    runs: int,
    rng: np.random.Generator,
    record=None,
    block: int = 512,
    select: bool = True,
) -> CORun:
    """Run Algorithm 3 ``runs`` times per parameter set on ``problem``'s stream (t = 1..problem.T).

    Steps are simulated in blocks: every run's GTM steps t0..t1 are drawn at once with its current instance; the
    earliest step t* at which some run halts ends the block (the later steps of the block are discarded, unseen, and
    drawn afresh in the next block, so the law is that of step-by-step simulation); checkpoints at t* are processed,
    and the next block starts at t* + 1. The block length adapts between 8 and ``block``.

    Args:
        problem: the stream, objective and batch algorithm (A(X, eps, delta) is (eps, delta)-DP).
        params: Algorithm 3's inputs and constants, or a list of them that differ only in eps (``runs`` runs each,
            run r uses ``params[r // runs]``). With delta > 0 (an (eps, delta)-DP A): A gets delta_t = delta(i, t)
            (Algorithm 3), and GTM_i counts the +1s of the purified test mechanism (Lemma 24 with phi_t =
            ``params.phi_it``, Corollary 25/35: each evaluation passes a binary symmetric channel), so its success
            probability is p_t + phi_t (1 - 2 p_t); the exact lazy decision applies to the purified g~(Y) =
            (1 - 2 phi_t) g(Y) + phi_t (increasing in g: the same certain / open split with l~, u~).
        runs: R >= 1 independent runs per parameter set.
        rng: numpy Generator.
        record: increasing steps (1-based) at which per-run state is recorded (default: every step).
        block: largest block length (>= 8).
        select: run ThresholdSelect at the checkpoints (default). With False the released solutions stay at Y_1
            (``value`` is NaN) but the checkpoint process is the same in law: GTM_ell's inputs M_t^{h_ell}(X_t)
            depend on the data, eps_t and h_ell only, never on the released solutions. Cheap runs for Lemma 40's
            checkpoint count (``checkpoints``, ``ell``); ThresholdSelect's privacy cost is still accounted.

    Returns:
        :class:`CORun` (runs ordered by parameter set, then run).

    Example:
        >>> from privtest.co.maxcut import MaxCut
        >>> problem = MaxCut(4, np.array([[0, 1], [1, 2], [2, 3], [3, 0]] * 3))
        >>> params = [BatchToCOParams(eps=e, beta=0.05, pstar=0.45, kappa=0.5, gamma=2.0) for e in (20.0, 30.0)]
        >>> run = batch_to_co(problem, params, runs=3, rng=0, record=[1, 6, 12])
        >>> run.value.shape, bool(run.value[:, -1].max() <= problem.opt[-1])
        ((6, 3), True)

    Raises:
        TypeError: if ``problem`` is not a COProblem or ``params`` not BatchToCOParams.
        ValueError: on runs < 1, record steps that are not increasing integers in [1, T], block < 8, select not a
            bool, or parameter sets differing in more than eps (naming the parameter).
    """
    rng = _validate.generator(rng)
    _check_problem(problem)
    plist = list(params) if isinstance(params, (list, tuple)) else [params]
    base = _same_constants(plist)
    runs = _validate.step_index(runs, "runs")
    block = _validate.integer("block", block, 8)
    _validate.boolean("select", select)
    T = int(problem.T)
    steps = _record_steps(record, T)
    R = len(plist) * int(runs)
    eps = np.repeat([p.eps for p in plist], runs)
    which = np.repeat(np.arange(len(plist)), runs)
    K = steps.size
    rec = {k: np.zeros((R, K), dtype=dt) for k, dt in _REC.items()}
    rec["ell"][:], rec["t_ell"][:] = 1, 1
    slot = np.full(T + 2, -1, dtype=np.int64)
    slot[steps] = np.arange(K)
    checkpoints: list[list[int]] = [[] for _ in range(R)]
    tables: dict[int, _InstanceSteps] = {}
    kappa1 = 1.0 + base.kappa
    simulated = 0

    # t = 1: Y_cur <- A(X_1, eps(1,1), delta(1,1)) (one call per eps).
    eps11 = eps * base.eps_it(1, 1)
    delta11 = np.minimum(base.delta_cap(1), 0.5 * base.pbar * eps11)
    Y = np.concatenate(
        [problem.sample(1, float(eps11[j * runs]), float(delta11[j * runs]), runs, rng) for j in range(len(plist))]
    )
    loss = eps11.copy()
    delta_loss = delta11.copy()
    if slot[1] >= 0:
        rec["delta_t"][:, slot[1]] = delta11
    ell = np.full(R, 2, dtype=np.int64)  # active GTM instance
    s = np.zeros(R, dtype=np.int64)  # steps taken by the active instance
    t_last = np.ones(R, dtype=np.int64)
    eta1 = rng.exponential(1.0 / (eps * base.eps_i(2)))
    calls_total = np.zeros(R, dtype=np.int64)
    if slot[1] >= 0:
        rec["value"][:, 0] = problem.value(1, Y) if select else np.nan
    upper = np.array([problem.upper(t) for t in range(1, T + 1)])

    t0, B = 2, 8
    while t0 <= T:
        tt = np.arange(t0, min(T, t0 + B - 1) + 1)
        nb = tt.size
        ss = s[:, None] + np.arange(1, nb + 1)[None, :]  # each run's step counter if it does not halt
        eps_t = eps[:, None] * base.eps_it(ell[:, None], tt[None, :])
        # delta(i, t) = min(cap_i, (pbar/2) eps(i, t)); cap_i does not depend on eps (Algorithm 3)
        delta_t = np.minimum(base.delta_cap(ell)[:, None], 0.5 * base.pbar * eps_t) if base.delta > 0 else None
        phi = purification_phi_array(eps_t, delta_t) if base.delta > 0 else None
        c, rho, tau2, mu1 = (np.empty((R, nb), dtype=np.int64), np.empty((R, nb)), np.empty((R, nb)), np.empty(R))
        for i in np.unique(ell):
            tab = tables.get(int(i))
            if tab is None:
                tab = tables[int(i)] = _InstanceSteps(base, int(i))
            on = ell == i
            sv = ss[on]
            tab.ensure(int(sv.max()))
            c[on], rho[on] = tab.c[sv - 1], tab.rho[sv - 1]
            tau2[on] = tab.cal.tau2_at(sv, eps_t[on])
            mu1[on] = tab.cal.mu1 / eps[on]  # mu1 = ln(4/beta_i)/eps(i), eps(i) proportional to eps
        eps_i = eps * base.eps_i(ell)
        eta2 = rng.exponential(tau2)
        N = rng.poisson(checked_exp(log_lambda(np.log(rho), eps_t, 1, mu1[:, None], eta1[:, None], eta2)))
        h = kappa1 ** ell.astype(float)
        halted, drawn = _halts(problem, tt, eps_t, h, N, c + 1, which, ell, upper[tt - 1], rng, delta_t, phi)
        simulated += drawn
        hit = halted.any(axis=0)
        b_star = int(np.argmax(hit)) if hit.any() else nb - 1  # last accepted index
        acc = tt[: b_star + 1]
        calls_total += N[:, : b_star + 1].sum(axis=1)
        s += b_star + 1
        for b in np.flatnonzero(slot[acc] >= 0):
            k = slot[acc[b]]
            rec["gtm_ell"][:, k], rec["gtm_s"][:, k] = ell, ss[:, b]
            rec["gtm_calls"][:, k], rec["eps_t"][:, k] = N[:, b], eps_t[:, b]
            if delta_t is not None:
                rec["delta_t"][:, k] = delta_t[:, b]
            rec["ell"][:, k], rec["t_ell"][:, k] = ell - 1, t_last
            if b < b_star or not hit.any():
                rec["value"][:, k] = problem.value(int(acc[b]), Y) if select else np.nan
        t = int(tt[b_star])
        k = slot[t]
        for r in np.flatnonzero(halted[:, b_star]) if hit.any() else ():
            e_t = float(eps_t[r, b_star])
            d_t = 0.0 if delta_t is None else float(delta_t[r, b_star])
            loss[r] += eps_i[r] + 2.0 / tau2[r, b_star]  # Theorem 23: halting at t costs 1/tau1 + 2/tau2
            eps0 = min(e_t, 1.0)
            Yh, draws = None, 0
            if select:
                Yh, _, draws = threshold_select(
                    ScoredMechanism(problem, t, e_t, d_t), float(h[r]), float(base.xi(int(ell[r]))), eps0, rng
                )
            loss[r] += 2.0 * e_t + eps0
            # Lemma 34(1): ThresholdSelect's delta 3 e^{2 eps_t + eps_0} delta_t / xi_ell (Lemma 38's ledger)
            delta_loss[r] += 3.0 * math.exp(2.0 * e_t + eps0) * d_t / float(base.xi(int(ell[r])))
            if k >= 0:
                rec["ts_calls"][r, k], rec["ts_failed"][r, k] = draws, select and Yh is None
            if Yh is not None:
                Y[r] = Yh
            checkpoints[r].append(t)
            ell[r] += 1
            s[r] = 0
            t_last[r] = t
            eta1[r] = rng.exponential(1.0 / (eps[r] * base.eps_i(int(ell[r]))))
        if hit.any() and k >= 0:
            rec["ell"][:, k], rec["t_ell"][:, k] = ell - 1, t_last
            rec["value"][:, k] = problem.value(t, Y) if select else np.nan
        t0 = t + 1
        B = min(block, max(8, 2 * (b_star + 1))) if hit.any() else min(block, 2 * B)
    # Instances still open at T never halted: their transcript costs eps(ell) (Theorem 23, continuation).
    loss += eps * base.eps_i(ell)
    L = max((len(c) for c in checkpoints), default=0)
    cps = np.zeros((R, L), dtype=np.int64)
    for r, cp in enumerate(checkpoints):
        cps[r, : len(cp)] = cp
    return CORun(
        steps=steps,
        checkpoints=cps,
        calls_total=calls_total,
        simulated=simulated,
        halt_loss=loss,
        delta_loss=delta_loss,
        **rec,
    )


_REC = {
    "value": float,
    "ell": np.int64,
    "t_ell": np.int64,
    "eps_t": float,
    "gtm_ell": np.int64,
    "gtm_s": np.int64,
    "gtm_calls": np.int64,
    "ts_calls": np.int64,
    "ts_failed": bool,
    "delta_t": float,
}


def _check_problem(problem) -> None:
    if not isinstance(problem, COProblem):
        raise TypeError(f"problem must be a privtest.co.mechanisms.COProblem. Found {type(problem).__name__}.")


def _record_steps(record, T: int) -> np.ndarray:
    """The recorded steps: every step (None) or increasing integers in [1, T] (ValueError naming record)."""
    if record is None:
        return np.arange(1, T + 1)
    _validate.integer("record", record, 1, scalar=False, maximum=T)
    steps = np.asarray(record, dtype=np.int64)
    if steps.ndim != 1 or steps.size == 0 or np.any(np.diff(steps) <= 0):
        raise ValueError(f"record must hold increasing steps in [1, T={T}].")
    return steps


def _halts(problem, tt, eps_t, h, N, need, which, ell, upper, rng, delta_t=None, phi=None) -> tuple[np.ndarray, int]:
    """Halting decisions K_t >= need of every run at the block's steps ``tt`` (module docstring), exact at least up to
    and including the first step at which some run halts (later steps are discarded by the caller), and the number
    of draws of A made.

    Args: tt (int (nb,)): the steps; eps_t, N, need (R, nb): each run's eps_t, evaluations and count threshold;
    h (float (R,)): thresholds; which, ell (int (R,)): parameter set and instance (runs sharing both share M_t^h);
    upper (float (nb,)): U_t >= OPT_t; delta_t, phi (R, nb) or None: A's delta and the purification crossover
    (Lemma 24): the +1 probability of one evaluation is g~ = (1 - 2 phi) g + phi with g = Pr[f + Lap >= h].
    """
    dl = np.zeros_like(eps_t) if delta_t is None else delta_t
    ph = np.zeros_like(eps_t) if phi is None else phi

    def purified(g, r, b):  # Lemma 24(1): affine, increasing in g (phi <= 1/2)
        return g if phi is None else (1.0 - 2.0 * ph[r, b]) * g + ph[r, b]

    R, nb = N.shape
    key = which * (int(ell.max()) + 1) + ell  # runs with equal key share M_t^{h}
    H = h[:, None]
    if problem.score_distribution(int(tt[0]), 0.5 * float(eps_t[0, 0]), float(dl[0, 0])) is not None:
        halted = np.zeros((R, nb), dtype=bool)
        ukeys, r0s, inv = np.unique(key, return_index=True, return_inverse=True)
        for b, t in enumerate(tt):  # step by step up to the first halt
            p = np.empty(ukeys.size)
            for u, r0 in enumerate(r0s):
                values, probs = problem.score_distribution(int(t), 0.5 * float(eps_t[r0, b]), float(dl[r0, b]))
                g = np.clip(np.sum(probs * laplace_tail(h[r0], values, eps_t[r0, b])), 0.0, 1.0)
                p[u] = purified(g, r0, b)
            halted[:, b] = rng.binomial(N[:, b], p[inv]) >= need[:, b]
            if halted[:, b].any():
                break
        return halted, 0
    lo = laplace_tail(H, 0.0, eps_t)
    hi = laplace_tail(H, upper[None, :], eps_t)
    if phi is not None:  # purified bounds l~ = g~(0), u~ = g~(U_t); (g~(Y) - l~)/(u~ - l~) = (g(Y) - l)/(u - l)
        lo, hi, glo, ghi = (1.0 - 2.0 * ph) * lo + ph, (1.0 - 2.0 * ph) * hi + ph, lo, hi
    else:
        glo, ghi = lo, hi
    k_lo = rng.binomial(N, lo)
    band = np.clip(np.where(hi > lo, (hi - lo) / (1.0 - lo), 0.0), 0.0, 1.0)
    m = rng.binomial(N - k_lo, band)
    rest = need - k_lo
    halted = rest <= 0
    open_ = (rest > 0) & (rest <= m)
    drawn = 0
    first = int(np.argmax(halted.any(axis=0))) if halted.any() else nb - 1
    for b in np.flatnonzero(open_[:, : first + 1].any(axis=0)):
        if b > first:
            break
        t = int(tt[b])
        rows = np.flatnonzero(open_[:, b])
        for kk in np.unique(key[rows]):
            idx = rows[key[rows] == kk]
            r0 = idx[0]
            total = int(m[idx, b].sum())
            f = problem.scores(t, 0.5 * float(eps_t[r0, b]), float(dl[r0, b]), total, rng)
            drawn += total
            g = laplace_tail(h[r0], f, eps_t[r0, b])
            accept = (g - glo[r0, b]) / (ghi[r0, b] - glo[r0, b]) > rng.random(total)
            extra = np.bincount(np.repeat(np.arange(idx.size), m[idx, b]), weights=accept, minlength=idx.size)
            halted[idx, b] = extra >= rest[idx, b]
        if halted[:, b].any():
            first = min(first, int(b))
    return halted, drawn


#: The baselines: CSV method name -> (model, what it does and its privacy proof in one line).
BASELINES = {
    "recompute every step": (
        "CO",
        "Y_t = A(X_t, eps omega_t) at every t: sum_t eps omega_t = eps (Definition 7), basic composition: eps-DP "
        "for every stream length, no horizon needed.",
    ),
    "recompute geometric": (
        "CO",
        "Y_t = A(X_{t_j}, eps omega_j) from the latest t_j = ceil((1+kappa)^k) <= t (j-th distinct such step): "
        "sum_j eps omega_j <= eps (Definition 7), basic composition: eps-DP, no horizon needed.",
    ),
    "never update": ("CO", "Y_t = A(X_1, eps) for all t: one eps-DP call, post-processing after it."),
    "oracle-horizon recompute (basic)": (
        "oracle horizon",
        "Y_t = A(X_t, eps/T) at every t <= T: T eps/T = eps, basic composition; needs the stream length T in "
        "advance, which the CO model does not give (a reference, not a CO algorithm).",
    ),
    "oracle-horizon recompute (advanced)": (
        "oracle horizon",
        "Y_t = A(X_t, eps_0) with eps_0 = advanced_composition_eps(eps, delta_adv, T): (eps, delta_adv)-DP over "
        "T calls (Dwork-Rothblum-Vadhan); needs T in advance and is only approximate DP (a reference).",
    ),
}


def geometric_steps(kappa: float, T: int) -> np.ndarray:
    """The distinct steps ceil((1+kappa)^k) <= T, k = 0, 1, ... (increasing): the geometric baseline's
    recomputations (the j-th, 1-based, gets eps omega_j).

    Args:
        kappa: spacing > 0. T: stream length, an integer >= 1.

    Returns:
        int64 array of steps in [1, T].

    Raises:
        ValueError: naming kappa or T when out of range.

    Example:
        >>> geometric_steps(1.0, 20).tolist()
        [1, 2, 4, 8, 16]
    """
    _validate.positive("kappa", kappa)
    T = _validate.step_index(T, "T")
    kmax = int(math.floor(math.log(T) / math.log1p(kappa))) + 1
    out = np.unique(np.ceil((1.0 + kappa) ** np.arange(kmax + 1) - 1e-9).astype(np.int64))
    return out[out <= T]


def baselines(
    problem: COProblem,
    eps: float,
    runs: int,
    rng: np.random.Generator,
    kappa: float,
    delta_adv: float = 1e-6,
    record=None,
    delta: float = 0.0,
) -> dict:
    """The baselines of :data:`BASELINES` on ``problem``'s stream, ``runs`` runs each, recorded at ``record``.

    A scheme that recomputes at every step needs A only at the recorded steps (its outputs at different steps are
    independent draws); the geometric scheme draws at its own recomputation steps (:func:`geometric_steps` with
    ``kappa``) and is evaluated at the recorded ones.

    Args:
        problem: stream, objective and batch algorithm. eps: privacy budget > 0. runs: >= 1. rng: Generator.
        kappa: spacing of the geometric recomputations (> 0). delta_adv: delta of the advanced-composition
            reference. record: increasing steps in [1, T] (default: every step).
        delta: the global delta of an (eps, delta)-DP A (0: pure DP), split like eps so that every scheme has the
            same (eps, delta) budget as BatchToCO (like for like, basic composition of the deltas): every step
            A(X_t, eps omega_t, delta omega_t); geometric A(., eps omega_j, delta omega_j); never update A(X_1, eps,
            delta); oracle basic A(X_t, eps/T, delta/T); oracle advanced A(X_t, eps_0, delta/T), (eps, delta_adv +
            delta)-DP.

    Returns:
        dict method -> float array (runs, K) of f(X_t, Y_t) at the recorded steps.

    Raises:
        TypeError: if ``problem`` is not a COProblem.
        ValueError: naming eps, runs, rng, kappa, delta_adv, record or delta when out of range.

    Example:
        >>> import numpy as np
        >>> from privtest.co.maxcut import MaxCut
        >>> problem = MaxCut(4, np.array([[0, 1], [1, 2], [2, 3], [3, 0]]))
        >>> out = baselines(problem, eps=4.0, runs=3, rng=0, kappa=0.5)
        >>> sorted(out) == sorted(BASELINES), out["never update"].shape
        (True, (3, 4))
    """
    rng = _validate.generator(rng)
    _check_problem(problem)
    _validate.positive("eps", eps)
    runs = _validate.step_index(runs, "runs")
    _validate.positive("kappa", kappa)
    _validate.open_unit("delta_adv", delta_adv)
    _validate.delta_range("delta", delta)
    T = int(problem.T)
    steps = _record_steps(record, T)
    eps_adv = advanced_composition_eps(eps, delta_adv, T)
    out = {m: np.zeros((runs, steps.size)) for m in BASELINES}
    Y1 = problem.sample(1, eps, delta, runs, rng)
    for k, t in enumerate(steps):
        t = int(t)
        out["recompute every step"][:, k] = problem.scores(t, eps * omega(t), delta * omega(t), runs, rng)
        out["oracle-horizon recompute (basic)"][:, k] = problem.scores(t, eps / T, delta / T, runs, rng)
        out["oracle-horizon recompute (advanced)"][:, k] = problem.scores(t, eps_adv, delta / T, runs, rng)
        out["never update"][:, k] = problem.value(t, Y1)
    geo = geometric_steps(kappa, T)
    Y = None
    events = sorted([(int(g), 0, j + 1) for j, g in enumerate(geo)] + [(int(t), 1, k) for k, t in enumerate(steps)])
    for t, kind, j in events:  # at equal t: recompute first, then record
        if kind == 0:
            Y = problem.sample(t, eps * omega(j), delta * omega(j), runs, rng)
        else:
            out["recompute geometric"][:, j] = problem.value(t, Y)
    return out
