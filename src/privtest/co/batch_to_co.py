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
(g(Y) - l)/(u - l)). As N_t ~ Po(lambda_t), the counts of the three kinds are independent Poisson variables (Poisson
splitting): k_hi = #{V < u} ~ Po(lambda_t u) is drawn first, and since K_t <= k_hi only runs with k_hi >= c + 1 can
halt. Of their k_hi evaluations, k_lo ~ Bin(k_hi, l/u) are certain +1s and m = k_hi - k_lo are open: if k_lo >= c + 1
the step halts, and only otherwise are the m open evaluations resolved, by m fresh draws of A(X_t, eps_t/2) (the
simulator, not the algorithm, knows U_t), or by one binomial draw Bin(m, (p - l)/(u - l)) when A's score law is known
exactly (``score_distribution``, p = E g(Y)). The rest of N_t, #{V >= u} ~ Po(lambda_t (1 - u)), is independent of
the decision: it is drawn only for the steps kept (individually at the recorded steps, as one Poisson sum per run
for ``calls_total`` elsewhere). The decision and N_t have exactly the joint law of Algorithm 1's; A is drawn for a
small fraction of N. A halting run calls ThresholdSelect(Q_t, h_ell, xi_ell, min(eps_t, 1)), keeps its old solution
if that returns -1, and opens GTM_{ell+1}; runs halting at one step with the same instance and eps share Q_t's
draws (independent runs of Algorithm 2 on one batch).

Lazy decisions (``calls=False``: the evaluations N_t are not counted, only recorded steps draw theirs). A step
that is not recorded needs only whether it is a candidate, k_hi >= n = c_s + 1, and then k_hi. With
c = u~ rho_s e^{eps_t (mu1 - eta1)} and alpha = 1/w_s, k_hi ~ Po(c e^{E/alpha}) with E ~ Exp(1) (eps_t eta2 = w_s E),
and k_hi >= n iff G <= c e^{E/alpha} for G ~ Gamma(n, 1), the n-th arrival of the Poisson process k_hi counts; so
Pr[candidate | G] = min(1, (c/G)^alpha) and Pr[candidate] <= qbar = c^alpha E[G^-alpha] = c^alpha Gamma(n - alpha)/
Gamma(n) (n > alpha). A step is proposed w.p. qbar (one uniform); a proposal draws G from the law of G tilted by
G^-alpha, Gamma(n - alpha), and is kept w.p. min(1, (G/c)^alpha), so that a kept proposal has exactly the law of
(candidate, G) (rejection sampling); then E = max(0, alpha ln(G/c)) + Exp(1) (E given G and the candidate event)
and k_hi = n + Po(c e^{E/alpha} - G) (the arrivals after the n-th). Steps with qbar > 1/10 or n <= alpha + 1 are
drawn directly. The decisions have the same joint law, at the cost of a uniform per step instead of an exponential
and a Poisson draw with mean lambda_t u~ (hundreds on the long streams).

The per-step constants of GTM_i's step s (Theorem 23, direct variant, budgets beta_s/6 with beta_s = omega_s beta_i:
c_s = count_threshold(beta_s/6, beta_s/6, gamma) and rho_s = lambda^l(c_s, beta_s/6)/p*, eq. (3), Lemma 20(1)) are
tabulated per instance (:class:`_InstanceSteps`, with ln(4/beta_s) for tau_{2,s}) and read per block as one slice per
run (:class:`_Instances`); ``tests/test_co_long.py`` and ``tests/test_co_engine.py`` check them against
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
    ((4, 30), [21, 21, 21, 20])
"""

from __future__ import annotations

import dataclasses
import functools
import math
from dataclasses import dataclass

import numpy as np
from numpy.lib.stride_tricks import as_strided
from scipy.special import gammaln

from privtest import _validate
from privtest.co.composition import advanced_composition_eps
from privtest.co.mechanisms import (
    COProblem,
    ScoredMechanism,
    laplace_tail_unchecked,
    threshold_select_rounds,
    threshold_select_runs,
)
from privtest.co.params import BatchToCOParams, phi_array_unchecked
from privtest.gtm import MAX_POISSON_MEAN, checked_exp, log4_over_beta_t
from privtest.poisson import count_threshold, lambda_left
from privtest.schedule import log_inv_omega, omega

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
        calls_total: int (R,), sum of N_t over all steps 2..T (-1 when not counted: ``calls=False``).
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
    beta_s = omega_s beta_i): what :meth:`ExPostCalibration.step` computes, for many s at once
    (``tests/test_co_long.py`` and ``tests/test_co_engine.py`` check equality); also ``log_rho`` = ln rho_s and
    ``log4`` = ln(4/beta_s), so that tau_{2,s} = 2/(C_H eps_t ln(4/beta_s)) = ``cal.tau2_at(s, eps_t)`` for any
    eps_t, and for the lazy decisions (module docstring) ``alpha`` = C_H ln(4/beta_s)/2 = 1/(eps_t tau_{2,s}) and
    ``lazy`` = alpha ln rho_s + ln(Gamma(c_s + 1 - alpha)/Gamma(c_s + 1)) (+inf where c_s <= alpha). Independent of
    eps; ``cal`` (eps = 1) gives mu1 = ``cal.mu1``/eps."""

    def __init__(self, params: BatchToCOParams, i: int):
        self.cal = params.calibration(i)
        self.gamma, self.pstar = params.gamma, params.pstar
        self.C_H = params.C_H
        self.c = np.zeros(0, dtype=np.int64)
        self.rho = np.zeros(0)
        self.log_rho = np.zeros(0)
        self.log4 = np.zeros(0)
        self.alpha = np.zeros(0)
        self.lazy = np.zeros(0)

    def ensure(self, s_max: int) -> None:
        n = self.c.size
        if s_max <= n:
            return
        s = np.arange(n + 1, max(s_max, 2 * n, 256) + 1)
        err = self.cal.step_budget(s)
        c = _monotone_fill(lambda k: count_threshold(err[k], err[k], self.gamma), err.size)
        rho = lambda_left(c, err) / self.pstar
        self.c = np.concatenate([self.c, c])
        self.rho = np.concatenate([self.rho, rho])
        self.log_rho = np.concatenate([self.log_rho, np.log(rho)])
        log4 = log4_over_beta_t(s, self.cal.beta)
        self.log4 = np.concatenate([self.log4, log4])
        alpha = 0.5 * self.C_H * log4  # 1/w_s
        self.alpha = np.concatenate([self.alpha, alpha])
        self.lazy = np.concatenate([self.lazy, alpha * np.log(rho) + _log_gamma_ratio(c + 1, alpha)])


def _log_gamma_ratio(n: np.ndarray, alpha: np.ndarray) -> np.ndarray:
    """ln(Gamma(n - alpha)/Gamma(n)) = ln E[G^-alpha] for G ~ Gamma(n, 1), where n > alpha + 1; +inf elsewhere (the
    lazy decision of :func:`_decide_lazy` is not used there)."""
    ok = n > alpha + 1.0
    out = np.full(n.shape, np.inf)
    out[ok] = gammaln(n[ok] - alpha[ok]) - gammaln(n[ok].astype(float))
    return out


#: The per-step tables of the instances that ran, kept across calls of :func:`batch_to_co` (they depend on the
#: constants and i only: the runs of every eps, the checkpoint-only runs and every stream share them).
_STEP_TABLES: dict = {}
_STEP_TABLES_MAX = 4096


def _instance_steps(base: BatchToCOParams, i: int) -> _InstanceSteps:
    """The :class:`_InstanceSteps` of GTM_i under the constants ``base`` (eps = 1), from :data:`_STEP_TABLES` (the
    same tables as a fresh one: extending it on demand computes the same entries)."""
    key = (base, int(i))
    tab = _STEP_TABLES.get(key)
    if tab is None:
        if len(_STEP_TABLES) >= _STEP_TABLES_MAX:
            _STEP_TABLES.clear()
        tab = _STEP_TABLES[key] = _InstanceSteps(base, i)
    return tab


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


class _Instances:
    """The constants of GTM_i, i = 1, 2, ..., as arrays indexed by i (computed once, grown on demand), at eps = 1:
    ``eps_i`` = eps(i) and ``mu1`` = ln(4/beta_i)/eps(i) (a run with budget eps has eps eps(i) and mu1/eps), ``xi`` =
    xi_i, ``delta_cap`` (:meth:`BatchToCOParams.delta_cap`) and ``offset`` = ln(4/b_i), so that
    ln(4/(omega_t b_i)) = offset[i] + ln(1/omega_t) (:meth:`BatchToCOParams.log4_over`). The per-step tables of the
    instances that ran (:class:`_InstanceSteps`) are kept concatenated (flat arrays, instance i from ``start[i]``):
    :meth:`steps` reads each run's block of steps as one contiguous slice."""

    def __init__(self, base: BatchToCOParams):
        self.base, self.n, self.tabs = base, 0, {}
        self.start = np.zeros(1, dtype=np.int64)
        self.size = np.zeros(1, dtype=np.int64)
        self.need, self.log_rho, self.w = np.zeros(0, dtype=np.int64), np.zeros(0), np.zeros(0)
        self.alpha, self.lazy = np.zeros(0), np.zeros(0)
        self.reserve(64)

    def reserve(self, top: int) -> None:
        """Constants for i = 1..top at least."""
        if top <= self.n:
            return
        n = max(top, 2 * self.n)
        i = np.arange(1, n + 1)
        b = self.base

        def pad(x):  # index 0 unused
            return np.concatenate([[np.nan], np.broadcast_to(np.asarray(x, dtype=float), i.shape)])

        self.eps_i, self.xi, self.delta_cap = pad(b.eps_i(i)), pad(b.xi(i)), pad(b.delta_cap(i))
        self.mu1 = pad(np.log(4.0 / b.beta_i(i)) / b.eps_i(i))  # ExPostCalibration.mu1 of GTM_i at eps = 1
        self.offset = pad(math.log(4.0) - np.log(b._log4_beta(i)))
        self.start = np.concatenate([self.start, np.zeros(n - self.n, dtype=np.int64)])
        self.size = np.concatenate([self.size, np.zeros(n - self.n, dtype=np.int64)])
        self.n = n

    def steps(self, ell: np.ndarray, s: np.ndarray, nb: int, lazy: bool = False):
        """Steps s + 1, ..., s + nb of each run's instance (``ell``, ``s``: int (R,)): three (R, nb) arrays, c_s + 1
        (the halting count), ln rho_s and w_s = 2/(C_H ln(4/beta_s)) = eps_t tau_{2,s} (Theorem 23; any eps_t). With
        ``lazy``, two arrays instead (:func:`_decide_lazy`): alpha_s = 1/w_s and alpha_s ln rho_s +
        ln(Gamma(n - alpha_s)/Gamma(n)), n = c_s + 1 (+inf where n <= alpha_s + 1); :meth:`at` reads the three
        tables at single (run, step) pairs."""
        short = s + nb > self.size[ell]
        if short.any():
            for i in np.unique(ell[short]).tolist():
                tab = self.tabs.get(i)
                if tab is None:
                    tab = self.tabs[i] = _instance_steps(self.base, i)
                tab.ensure(int(s[ell == i].max()) + nb)
            keys = sorted(self.tabs)
            sizes = np.array([self.tabs[i].c.size for i in keys], dtype=np.int64)
            self.start[keys] = np.cumsum(sizes) - sizes
            self.size[keys] = sizes
            self.need = np.concatenate([self.tabs[i].c for i in keys]) + 1
            self.log_rho = np.concatenate([self.tabs[i].log_rho for i in keys])
            self.w = 2.0 / (self.base.C_H * np.concatenate([self.tabs[i].log4 for i in keys]))
            self.alpha = np.concatenate([self.tabs[i].alpha for i in keys])
            self.lazy = np.concatenate([self.tabs[i].lazy for i in keys])
        at = self.start[ell] + s  # each run's step s + 1
        tables = (self.alpha, self.lazy) if lazy else (self.need, self.log_rho, self.w)
        return tuple(_windows(x, nb)[at] for x in tables)

    def at(self, ell: np.ndarray, s: np.ndarray, r: np.ndarray, b: np.ndarray):
        """c_s + 1, ln rho_s and w_s (as :meth:`steps`) of run r's step s[r] + 1 + b, for the pairs (r, b) (int (m,)
        each; within the block :meth:`steps` last read)."""
        at = self.start[ell[r]] + s[r] + b
        return self.need[at], self.log_rho[at], self.w[at]


def _windows(x: np.ndarray, n: int) -> np.ndarray:
    """The read-only view (len(x) - n + 1, n) whose row j is x[j : j + n] (``sliding_window_view`` without its
    checks; x contiguous, 1-d, len(x) >= n)."""
    return as_strided(x, (x.size - n + 1, n), (x.strides[0], x.strides[0]), writeable=False)


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
    calls: bool = True,
) -> CORun:
    """Run Algorithm 3 ``runs`` times per parameter set on ``problem``'s stream (t = 1..problem.T).

    Steps are simulated in blocks: every run's GTM steps t0..t1 are drawn at once with its current instance; the
    earliest step t* at which some run halts ends the block (the later steps of the block are discarded, unseen, and
    drawn afresh in the next block, so the law is that of step-by-step simulation); checkpoints at t* are processed,
    and the next block starts at t* + 1. The block length adapts between 8 and ``block`` (and to at most about
    32,768 / (number of runs) steps, so that a block's arrays stay in cache).

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
        calls: count the GTM's evaluations N_t at every step into ``calls_total`` (default). With False,
            ``calls_total`` is -1 and only the recorded steps' N_t are drawn (``gtm_calls``): the other steps draw
            their halting decisions lazily (module docstring), the same law at a fraction of the cost.

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
        ValueError: on runs < 1, record steps that are not increasing integers in [1, T], block < 8, select or calls
            not a bool, or parameter sets differing in more than eps (naming the parameter).
    """
    rng = _validate.generator(rng)
    _check_problem(problem)
    plist = list(params) if isinstance(params, (list, tuple)) else [params]
    base = _same_constants(plist)
    runs = _validate.step_index(runs, "runs")
    block = _validate.integer("block", block, 8)
    _validate.boolean("select", select)
    _validate.boolean("calls", calls)
    T = int(problem.T)
    steps = _record_steps(record, T)
    R = len(plist) * int(runs)
    eps = np.repeat([float(p.eps) for p in plist], runs)
    which = np.repeat(np.arange(len(plist)), runs)
    K = steps.size
    rec = {k: np.zeros((R, K), dtype=dt) for k, dt in _REC.items()}
    rec["ell"][:], rec["t_ell"][:] = 1, 1
    if not select:
        rec["value"][:] = np.nan
    slot = np.full(T + 2, -1, dtype=np.int64)
    slot[steps] = np.arange(K)
    inst = _Instances(base)
    log_inv_om = log_inv_omega(np.arange(1, T + 1))  # ln(1/omega_t), t = 1..T (Definition 7)
    kappa1 = 1.0 + base.kappa
    events: list[tuple[np.ndarray, int]] = []  # (runs, t) of each checkpoint time
    ts_seen = np.zeros(_TS_BATCH + 2, dtype=np.int64)  # ThresholdSelect runs by draws made (the last: more)
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
    eta1 = rng.exponential(1.0 / (eps * inst.eps_i[ell]))
    calls_total = np.zeros(R, dtype=np.int64)
    if slot[1] >= 0 and select:
        rec["value"][:, 0] = problem.value(1, Y)
    upper = _upper_bounds(problem, T)

    cap = min(block, max(8, _BLOCK_ELEMENTS // R))  # blocks of at most about _BLOCK_ELEMENTS draws (cache)
    t0, B = 2, 8
    while t0 <= T:
        tt = np.arange(t0, min(T, t0 + B - 1) + 1)
        nb = tt.size
        if calls:
            need, log_rho, w = inst.steps(ell, s, nb)
        else:
            alpha, lazy = inst.steps(ell, s, nb, lazy=True)
        # eps(i, t) = eps(i)/(C_1 ln(4/(omega_t b_i))) (Algorithm 3), eps(i) proportional to eps
        log4_t = inst.offset[ell][:, None] + log_inv_om[tt - 1]  # ln(4/(omega_t b_ell)), :meth:`log4_over`
        eps_t = np.divide((eps * inst.eps_i[ell] / base.C_1)[:, None], log4_t, out=log4_t)
        # delta(i, t) = min(cap_i, (pbar/2) eps(i, t)); cap_i does not depend on eps (Algorithm 3)
        delta_t = np.minimum(inst.delta_cap[ell][:, None], 0.5 * base.pbar * eps_t) if base.delta > 0 else None
        phi = phi_array_unchecked(eps_t, delta_t) if base.delta > 0 else None
        # Algorithm 1 (s_t = +1): ln lambda_t = ln rho_s + eps_t (mu1 - eta1 + eta2) with mu1 = ln(4/beta_ell)/eps(ell)
        # and eta2 ~ Exp(tau_{2,s}), i.e. eps_t eta2 = w_s E with E ~ Exp(1) (tau_{2,s} = w_s/eps_t)
        rise = (inst.mu1[ell] / eps - eta1)[:, None]
        h = kappa1 ** ell.astype(float)
        key = which * (int(ell.max()) + 1) + ell  # runs with equal key share M_t^{h}
        if calls:
            lam = _poisson_mean(log_rho, eps_t, rise, w, rng.standard_exponential((R, nb)))
            halted, k_hi, hip, drawn = _decide(problem, tt, eps_t, h, lam, need, key, upper[tt - 1], rng, delta_t, phi)
        else:  # the recorded steps drawn directly (their N_t is recorded), the others lazily
            tables = (alpha, lazy, rise, functools.partial(inst.at, ell, s))  # this block's ell, s
            halted, k_hi, hip, lam, drawn = _decide_lazy(
                problem, tt, eps_t, h, tables, slot[tt] >= 0, key, upper[tt - 1], rng, delta_t, phi
            )
        simulated += drawn
        hit = halted.any(axis=0)
        b_star = int(np.argmax(hit)) if hit.any() else nb - 1  # last accepted index
        halt_now = bool(hit[b_star])
        # N_t = k_hi + (evaluations with V >= u~ ~ Po(lam (1 - u~)), independent): individually at the recorded
        # steps, summed (one Poisson draw per run) over the others; never for the discarded steps.
        nacc = b_star + 1
        cols = np.flatnonzero(slot[tt[:nacc]] >= 0)
        if calls:
            miss = lam[:, :nacc] * np.maximum(1.0 - hip[:, :nacc], 0.0)
            N_rec = k_hi[:, cols] + rng.poisson(miss[:, cols])
            miss[:, cols] = 0.0
            calls_total += k_hi[:, :nacc].sum(axis=1) + (N_rec - k_hi[:, cols]).sum(axis=1) + _poisson_sum(miss, rng)
        else:
            N_rec = k_hi[:, cols] + rng.poisson(lam[:, cols] * np.maximum(1.0 - hip[:, cols], 0.0))
        if cols.size:
            ks = slot[tt[cols]]
            rec["gtm_ell"][:, ks], rec["gtm_s"][:, ks] = ell[:, None], s[:, None] + (cols + 1)
            rec["gtm_calls"][:, ks], rec["eps_t"][:, ks] = N_rec, eps_t[:, cols]
            if delta_t is not None:
                rec["delta_t"][:, ks] = delta_t[:, cols]
            rec["ell"][:, ks], rec["t_ell"][:, ks] = (ell - 1)[:, None], t_last[:, None]
            if select:
                for b, k in zip(cols.tolist(), ks.tolist(), strict=True):
                    if b < b_star or not halt_now:
                        rec["value"][:, k] = problem.value(int(tt[b]), Y)
        s += nacc
        t = int(tt[b_star])
        if halt_now:
            k = slot[t]
            hr = np.flatnonzero(halted[:, b_star])
            e_t = eps_t[hr, b_star]
            d_t = np.zeros(hr.size) if delta_t is None else delta_t[hr, b_star]
            eps0 = np.minimum(e_t, 1.0)
            xi = inst.xi[ell[hr]]
            # Theorem 23: halting costs 1/tau1 + 2/tau2 = eps(ell) + 2 eps_t/w_s
            w_t = w[hr, b_star] if calls else inst.at(ell, s - nacc, hr, np.full(hr.size, b_star))[2]
            loss[hr] += eps[hr] * inst.eps_i[ell[hr]] + 2.0 * e_t / w_t
            loss[hr] += 2.0 * e_t + eps0
            # Lemma 34(1): ThresholdSelect's delta 3 e^{2 eps_t + eps_0} delta_t / xi_ell (Lemma 38's ledger)
            delta_loss[hr] += 3.0 * np.exp(2.0 * e_t + eps0) * d_t / xi
            if select:
                _select(problem, t, hr, key, e_t, d_t, eps0, h, xi, Y, rng, rec, k, ts_seen)
            events.append((hr, t))
            ell[hr] += 1
            inst.reserve(int(ell.max()))
            s[hr] = 0
            t_last[hr] = t
            eta1[hr] = rng.exponential(1.0 / (eps[hr] * inst.eps_i[ell[hr]]))
            if k >= 0:
                rec["ell"][:, k], rec["t_ell"][:, k] = ell - 1, t_last
                if select:
                    rec["value"][:, k] = problem.value(t, Y)
        t0 = t + 1
        B = min(cap, max(8, 2 * nacc)) if halt_now else min(cap, 2 * B)
    # Instances still open at T never halted: their transcript costs eps(ell) (Theorem 23, continuation).
    loss += eps * inst.eps_i[ell]
    return CORun(
        steps=steps,
        checkpoints=_checkpoint_table(events, R),
        calls_total=calls_total if calls else np.full(R, -1, dtype=np.int64),
        simulated=simulated,
        halt_loss=loss,
        delta_loss=delta_loss,
        **rec,
    )


#: Largest number of (run, step) pairs a block draws (beyond 8 steps): its arrays then stay in cache.
_BLOCK_ELEMENTS = 32768

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

#: ln of the largest Poisson mean the engine draws (:data:`privtest.gtm.MAX_POISSON_MEAN`).
_LOG_MAX_MEAN = math.log(MAX_POISSON_MEAN)


def _upper_bounds(problem, T: int) -> np.ndarray:
    """U_t = ``problem.upper(t)`` for t = 1..T (float (T,)): read off ``opt`` when the problem keeps
    :meth:`COProblem.upper`'s default (``float(opt[t - 1])``), else one call per step."""
    if type(problem).upper is COProblem.upper:  # a COProblem (checked by the caller)
        opt = np.asarray(problem.opt, dtype=float)
        if opt.ndim == 1 and opt.size >= T:
            return opt[:T].copy()
    return np.array([problem.upper(t) for t in range(1, T + 1)], dtype=float)


def _poisson_mean(log_rho, eps_t, rise, w, E) -> np.ndarray:
    """lambda_t = exp(ln rho_s + eps_t rise + w_s E) (Algorithm 1, ``rise`` = mu1 - eta1; all broadcast to E's
    shape, E overwritten), refused (by :func:`privtest.gtm.checked_exp`, its ValueError) when NaN or beyond
    :data:`privtest.gtm.MAX_POISSON_MEAN`."""
    E *= w
    E += log_rho
    E += eps_t * rise
    top = E.max() if E.size else 0.0
    if not top <= _LOG_MAX_MEAN:  # NaN or too large
        checked_exp(E)
    return np.exp(E, out=E)


def _tail(h: np.ndarray, value: np.ndarray, eps_t: np.ndarray) -> np.ndarray:
    """g = Pr[value + Lap(2/eps_t) >= h] (:func:`privtest.co.mechanisms.laplace_tail`) for thresholds ``h`` (R,),
    values (nb,) and eps_t (R, nb): float (R, nb), computed in place."""
    d = value[None, :] - h[:, None]
    half = np.abs(d)
    half *= eps_t
    half *= -0.5
    np.exp(half, out=half)
    half *= 0.5  # Pr[Lap >= |d|]
    return np.subtract(1.0, half, out=half, where=d >= 0)


def _tail_at(h: np.ndarray, value: np.ndarray, eps_t: np.ndarray, r: np.ndarray, b: np.ndarray) -> np.ndarray:
    """:func:`_tail` at the (run, step) pairs (r, b) only (int (m,) each): float (m,), the same floats."""
    d = value[b] - h[r]
    half = np.abs(d)
    half *= eps_t[r, b]
    half *= -0.5
    np.exp(half, out=half)
    half *= 0.5
    return np.subtract(1.0, half, out=half, where=d >= 0)


def _log_tail(h: np.ndarray, value: np.ndarray, eps_t: np.ndarray) -> np.ndarray:
    """ln :func:`_tail`: ln g = ln(1/2) - eps_t |d|/2 for d = value - h < 0, ln(1 - e^{-eps_t d/2}/2) for d >= 0
    (float (R, nb), computed in place; no exp where d < 0)."""
    d = value[None, :] - h[:, None]
    up = np.flatnonzero(d >= 0)
    out = np.abs(d)
    out *= eps_t
    out *= -0.5
    at_up = out.ravel()[up]
    out += _LOG_HALF
    out.ravel()[up] = np.log1p(-0.5 * np.exp(at_up))
    return out


_LOG_HALF = math.log(0.5)


def _poisson_sum(means: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Per row, the sum of independent Poisson draws with the row's ``means`` (float (R, n)): one draw of Po(row sum)
    (the same law), or the draws themselves summed when a row sum exceeds what can be sampled."""
    total = means.sum(axis=1)
    if total.size and total.max() > MAX_POISSON_MEAN:
        return rng.poisson(means).sum(axis=1)
    return rng.poisson(total)


def _checkpoint_table(events: list[tuple[np.ndarray, int]], R: int) -> np.ndarray:
    """:attr:`CORun.checkpoints` (int (R, L), 0-padded) from the (runs, t) of each checkpoint time, in time order."""
    if not events:
        return np.zeros((R, 0), dtype=np.int64)
    r = np.concatenate([e[0] for e in events])
    t = np.concatenate([np.full(e[0].size, e[1], dtype=np.int64) for e in events])
    order = np.argsort(r, kind="stable")  # per run, in time order
    r, t = r[order], t[order]
    count = np.bincount(r, minlength=R)
    out = np.zeros((R, int(count.max())), dtype=np.int64)
    out[r, np.arange(r.size) - np.repeat(np.cumsum(count) - count, count)] = t
    return out


#: Largest first batch of ThresholdSelect's draws in the engine (that of :func:`threshold_select`).
_TS_BATCH = 16


def _select(problem, t, hr, key, e_t, d_t, eps0, h, xi, Y, rng, rec, k, seen) -> None:
    """ThresholdSelect(Q_t, h_ell, xi_ell, eps_0) for each run ``hr`` halting at t (Algorithm 3): independent runs of
    Algorithm 2, those sharing Q_t (the same key) drawing from one batch (:func:`threshold_select_runs`); a run's
    solution ``Y`` is replaced unless it returns -1. Records ts_calls, ts_failed at column ``k`` (if >= 0).

    The first batch per run is the 90% quantile of the draws earlier runs made (``seen``: counts by draws, updated
    here; at most :data:`_TS_BATCH`): the batch sizes only decide how many draws are made ahead, not the law."""
    groups = key[hr]
    total = int(seen.sum())
    batch = _TS_BATCH if total < 8 else int(np.searchsorted(np.cumsum(seen), 0.9 * total)) or 1
    for kk in np.unique(groups).tolist():
        j = np.flatnonzero(groups == kk)
        j0 = int(j[0])
        Q = ScoredMechanism(problem, t, float(e_t[j0]), float(d_t[j0]))
        _validate.finite("tau", float(h[hr[j0]]))
        rounds = threshold_select_rounds(float(xi[j0]), float(eps0[j0]))
        picked, _, draws = threshold_select_runs(
            Q.draw, float(h[hr[j0]]), float(xi[j0]), rounds, rng, j.size, min(batch, _TS_BATCH)
        )
        seen += np.bincount(np.minimum(draws, seen.size - 1), minlength=seen.size)
        for r, Yh, n in zip(hr[j].tolist(), picked, draws.tolist(), strict=True):
            if k >= 0:
                rec["ts_calls"][r, k], rec["ts_failed"][r, k] = n, Yh is None
            if Yh is not None:
                Y[r] = Yh


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


def _decide(problem, tt, eps_t, h, lam, need, key, upper, rng, delta_t=None, phi=None):
    """The GTM steps of a block given the Poisson means lambda_t (float (R, nb)): halting decisions K_t >= need,
    exact up to and including the first step at which some run halts (:func:`_resolve`), with k_hi ~ Po(lambda_t u~)
    the count of evaluations with V < u~ (module docstring; the rest of N_t, Po(lambda_t (1 - u~)), is independent
    and drawn by the caller where needed).

    Args: tt, eps_t, h, need, delta_t, phi: as :func:`_halts`; lam (float (R, nb)): lambda_t; key (int (R,)): runs
    with equal key share M_t^h; upper (float (nb,)): U_t >= f(X_t, Y) for every Y.

    Returns:
        (halted bool (R, nb), k_hi int (R, nb), u~ float (R, nb), draws of A made).
    """
    hi = _tail(h, upper, eps_t)  # u = g(U_t) >= g(Y) for every Y
    hip = hi if phi is None else (1.0 - 2.0 * phi) * hi + phi  # purified u~ (Lemma 24(1))
    k_hi = rng.poisson(lam * hip)
    halted, drawn = _resolve(problem, tt, eps_t, h, k_hi, need, key, hi, hip, rng, delta_t, phi)
    return halted, k_hi, hip, drawn


def _decide_lazy(problem, tt, eps_t, h, tables, direct_cols, key, upper, rng, delta_t=None, phi=None):
    """:func:`_decide` without N_t where it is not needed (module docstring, "Lazy decisions"): the steps of
    ``direct_cols`` (bool (nb,)), and those whose bound qbar on Pr[k_hi >= need] exceeds :data:`_LAZY_QMAX` or whose
    count need is <= 1/w_s + 1, draw E and k_hi ~ Po(lambda_t u~) as :func:`_decide` does; the others draw one
    uniform each, a proposal w.p. qbar, and only a kept proposal (:func:`_lazy_candidates`) is a candidate, with its
    k_hi. Then :func:`_resolve_candidates`.

    Args: as :func:`_decide`, with ``tables`` = (alpha_s, alpha_s ln rho_s + ln(Gamma(n - alpha_s)/Gamma(n))
    (:meth:`_Instances.steps` with ``lazy``), mu1 - eta1 (R, 1), and a function (r, b) -> (need, ln rho_s, w_s) at
    those (run, step) pairs) in place of lambda_t and need.

    Returns:
        (halted, k_hi, u~, lambda_t, draws of A made): k_hi and lambda_t (float (R, nb)) where they were drawn (0 and
        NaN elsewhere; at least at ``direct_cols``).
    """
    alpha, lazy, rise, at = tables
    R, nb = eps_t.shape
    if phi is None:  # ln u = ln g(U_t), from U_t - h without the tail itself (u is needed only where drawn)
        log_qbar = _log_tail(h, upper, eps_t)
        hi = hip = np.empty((R, nb))
    else:
        hi = _tail(h, upper, eps_t)
        hip = (1.0 - 2.0 * phi) * hi + phi
        with np.errstate(divide="ignore"):
            log_qbar = np.log(hip)  # ln u~ (-inf where u~ underflows: never a candidate)
    with np.errstate(invalid="ignore"):
        log_qbar += eps_t * rise  # ln c - ln rho_s, c = u~ rho_s e^{eps_t (mu1 - eta1)}: lambda_t u~ = c e^{w_s E}
        log_qbar *= alpha
        log_qbar += lazy  # ln qbar = alpha ln c + ln(Gamma(n - alpha)/Gamma(n)) (NaN / inf: drawn directly)
        d = np.flatnonzero(~(log_qbar <= _LOG_LAZY_QMAX) | direct_cols)
    k_hi = np.zeros((R, nb), dtype=np.int64)
    lam = np.full((R, nb), np.nan)
    need = np.zeros(0, dtype=np.int64)
    if d.size:
        r, b = np.divmod(d, nb)
        if phi is None:
            hi.ravel()[d] = _tail_at(h, upper, eps_t, r, b)
        need, log_rho, w = at(r, b)
        E = rng.standard_exponential(d.size)
        lam.ravel()[d] = _poisson_mean(log_rho, eps_t.ravel()[d], rise[r, 0], w, E)
        k_hi.ravel()[d] = rng.poisson(lam.ravel()[d] * hip.ravel()[d])
        log_qbar.ravel()[d] = -np.inf
    u = rng.random((R, nb))
    prop = np.flatnonzero(u < np.exp(np.minimum(log_qbar, 0.0, out=log_qbar), out=log_qbar))
    cand = d[k_hi.ravel()[d] >= need]
    n_cand = need[k_hi.ravel()[d] >= need]
    if prop.size:
        r, b = np.divmod(prop, nb)
        if phi is None:
            hi.ravel()[prop] = _tail_at(h, upper, eps_t, r, b)
        n_p, log_rho, w = at(r, b)
        a_p = alpha.ravel()[prop]
        log_c = np.log(hip.ravel()[prop]) + log_rho + eps_t.ravel()[prop] * rise[r, 0]
        k, log_mu = _lazy_candidates(log_c, a_p, w, n_p, rng)
        kept = k > 0
        k_hi.ravel()[prop[kept]] = k[kept]
        lam.ravel()[prop[kept]] = np.exp(log_mu[kept]) / hip.ravel()[prop[kept]]
        cand = np.concatenate([cand, prop[kept]])
        n_cand = np.concatenate([n_cand, n_p[kept]])
    r, b = np.divmod(cand, nb)
    order = np.lexsort((r, b))  # step order, then run order (as :func:`_resolve`)
    r, b, n_cand = r[order], b[order], n_cand[order]
    halted, drawn = _resolve_candidates(
        problem, tt, eps_t, h, r, b, k_hi[r, b], n_cand, key, hi, hip, rng, delta_t, phi
    )
    return halted, k_hi, hip, lam, drawn


def _lazy_candidates(log_c, alpha, w, n, rng) -> tuple[np.ndarray, np.ndarray]:
    """The proposed steps of :func:`_decide_lazy` (float (m,) each: ln c, alpha = 1/w_s, w_s; int (m,) n = need):
    G ~ Gamma(n - alpha) (the law of the n-th arrival G_n ~ Gamma(n) tilted by G^-alpha), kept w.p.
    min(1, (G/c)^alpha); a kept one is a candidate with E = max(0, alpha ln(G/c)) + Exp(1) and
    k_hi = n + Po(c e^{w_s E} - G) (module docstring). Returns k_hi (0 where not kept) and ln(lambda_t u~) =
    ln c + w_s E (NaN where not kept)."""
    G = rng.standard_gamma(n - alpha)
    log_w = alpha * (log_c - np.log(G))  # ln (c/G)^alpha
    keep = rng.random(G.size) < np.exp(np.minimum(-log_w, 0.0))
    E = np.maximum(-log_w[keep], 0.0) + rng.standard_exponential(int(keep.sum()))
    log_mu = log_c[keep] + w[keep] * E
    if log_mu.size and not log_mu.max() <= _LOG_MAX_MEAN:  # NaN or too large
        checked_exp(log_mu)
    k = np.zeros(G.size, dtype=np.int64)
    k[keep] = n[keep] + rng.poisson(np.maximum(np.exp(log_mu) - G[keep], 0.0))
    out = np.full(G.size, np.nan)
    out[keep] = log_mu
    return k, out


#: Largest bound qbar on a step's candidate probability for which :func:`_decide_lazy` draws the step lazily.
_LAZY_QMAX = 0.1
_LOG_LAZY_QMAX = math.log(_LAZY_QMAX)


def _halts(problem, tt, eps_t, h, N, need, which, ell, upper, rng, delta_t=None, phi=None) -> tuple[np.ndarray, int]:
    """Halting decisions K_t >= need of every run at the block's steps ``tt`` given its N_t evaluations (module
    docstring), exact at least up to and including the first step at which some run halts (later steps are
    discarded by the caller), and the number of draws of A made. The engine draws the count of evaluations below u~
    from lambda_t (:func:`_decide`, Poisson splitting); this is the same decision given N_t: k_hi ~ Bin(N_t, u~),
    then :func:`_resolve`.

    Args: tt (int (nb,)): the steps; eps_t, N, need (R, nb): each run's eps_t, evaluations and count threshold;
    h (float (R,)): thresholds; which, ell (int (R,)): parameter set and instance (runs sharing both share M_t^h);
    upper (float (nb,)): U_t >= OPT_t; delta_t, phi (R, nb) or None: A's delta and the purification crossover
    (Lemma 24): the +1 probability of one evaluation is g~ = (1 - 2 phi) g + phi with g = Pr[f + Lap >= h].
    """
    hi = laplace_tail_unchecked(h[:, None], np.asarray(upper, dtype=float)[None, :], eps_t)
    hip = hi if phi is None else (1.0 - 2.0 * phi) * hi + phi
    k_hi = rng.binomial(N, hip)
    key = which * (int(ell.max()) + 1) + ell
    return _resolve(problem, tt, eps_t, h, k_hi, need, key, hi, hip, rng, delta_t, phi)


def _resolve(problem, tt, eps_t, h, k_hi, need, key, hi, hip, rng, delta_t, phi) -> tuple[np.ndarray, int]:
    """Halting decisions K_t >= need from k_hi, each run's count of evaluations with V < u~ (module docstring), exact
    up to and including the first step at which some run halts, and the number of draws of A made.

    Only candidates (k_hi >= need) can halt. Their k_hi evaluations split into certain +1s, k_lo ~ Bin(k_hi,
    l~/u~), and m = k_hi - k_lo open ones, each +1 w.p. (g(Y) - l)/(u - l) for a fresh Y <- A: a candidate with
    k_lo >= need halts; the others are resolved step by step up to the first halt, by one binomial draw
    Bin(m, (p - l)/(u - l)) where A's score law is known (``score_distribution``, p = E g(Y)) and else by draws of A,
    in order and only until each run's outcome is known (:func:`_open_halts`; the open evaluations of the runs
    sharing M_t^h are drawn together).

    Args: tt, eps_t, h, need, delta_t, phi: as :func:`_halts`; k_hi (int (R, nb)); key (int (R,)): runs with equal
    key share M_t^h; hi, hip (float (R, nb)): u = g(U_t) and the purified u~ (``hi`` when phi is None).
    """
    bb, rr = np.nonzero((k_hi >= need).T)  # candidates, in step order
    k, n = k_hi[rr, bb], need[rr, bb]
    return _resolve_candidates(problem, tt, eps_t, h, rr, bb, k, n, key, hi, hip, rng, delta_t, phi)


def _resolve_candidates(problem, tt, eps_t, h, rr, bb, k, need, key, hi, hip, rng, delta_t, phi):
    """:func:`_resolve` given its candidates: runs ``rr`` at block steps ``bb`` (int (c,), in step order, then run
    order), their k_hi ``k`` >= ``need`` (int (c,))."""
    R, nb = eps_t.shape
    halted = np.zeros((R, nb), dtype=bool)
    if bb.size == 0:
        return halted, 0
    e = eps_t[rr, bb]
    lo = laplace_tail_unchecked(h[rr], 0.0, e)  # l = g(0)
    lop = lo if phi is None else (1.0 - 2.0 * phi[rr, bb]) * lo + phi[rr, bb]
    k_lo = rng.binomial(k, np.clip(lop / hip[rr, bb], 0.0, 1.0))
    rest = need - k_lo  # +1s still needed from the open evaluations
    certain = rest <= 0
    halted[rr[certain], bb[certain]] = True
    first = int(bb[certain][0]) if certain.any() else nb - 1
    open_ = ~certain & (bb <= first)
    if not open_.any():
        return halted, 0
    rr, bb, e, lo, rest, m = rr[open_], bb[open_], e[open_], lo[open_], rest[open_], (k - k_lo)[open_]
    steps, at = np.unique(bb, return_index=True)
    drawn = 0
    for b, i0, i1 in zip(steps.tolist(), at.tolist(), [*at[1:].tolist(), bb.size], strict=True):
        if b > first:  # step by step up to the first halt
            break
        r = rr[i0:i1]
        d = None if delta_t is None else delta_t[r, b]
        hit, n = _open_halts(
            problem, int(tt[b]), e[i0:i1], d, h[r], lo[i0:i1], hi[r, b], m[i0:i1], rest[i0:i1], key[r], rng
        )
        drawn += n
        if hit.any():
            halted[r[hit], b] = True
            first = b
    return halted, drawn


def _open_halts(problem, t, e, d, h, lo, hi, m, rest, key, rng) -> tuple[np.ndarray, int]:
    """Whether at least ``rest`` of each run's ``m`` open evaluations at step t are +1s (each +1 w.p.
    (g(Y) - l)/(u - l) for a fresh Y <- A(X_t, eps_t/2, delta_t)), and the draws of A made. Per-run arrays (n,):
    eps_t ``e``, delta_t ``d`` (None: 0), threshold ``h``, l = ``lo``, u = ``hi`` (l < u wherever m > 0), ``m``,
    ``rest`` (1 <= rest <= m) and ``key`` (equal keys: equal e, d, h).

    Per key, in increasing key order: where A's score law is known, one binomial per run (p = E g(Y) =
    sum_v Pr[f = v] g(v)); else the open evaluations are drawn in order, for all the key's undecided runs at once,
    until each run is decided (``rest`` +1s reached, or too few evaluations left): at least the draws that cannot
    decide it, a first round of :data:`_OPEN_CHUNK` and doubling rounds after. The evaluations are i.i.d., so stopping
    once the outcome is known leaves its law unchanged. When every key's law is known, the binomials of all keys are
    drawn in one call, in that same order (the same draws)."""
    hit = np.zeros(e.size, dtype=bool)
    drawn = 0
    if key.size > 1:
        uniq, first, inv = np.unique(key, return_index=True, return_inverse=True)
        firsts = first.tolist()
    else:
        firsts, inv = [0], np.zeros(key.size, dtype=np.int64)
    a_eps = [0.5 * float(e[j]) for j in firsts]
    a_delta = [0.0 if d is None else float(d[j]) for j in firsts]
    if COProblem in type(problem).__mro__:  # a COProblem subclass (not an object with its interface only)
        laws = problem._score_laws(t, a_eps, a_delta)
    else:
        laws = [problem.score_distribution(t, x, y) for x, y in zip(a_eps, a_delta, strict=True)]
    if all(law is not None for law in laws):
        q = _open_probabilities(laws, h[firsts], e[firsts], lo[firsts], hi[firsts])
        order = np.argsort(inv, kind="stable") if len(firsts) > 1 else np.arange(key.size)
        hit[order] = rng.binomial(m[order], q[inv[order]]) >= rest[order]
        return hit, 0
    for g, j in enumerate(firsts):
        idx = np.flatnonzero(inv == g) if len(firsts) > 1 else np.arange(key.size)
        e_j, d_j, l_j = float(e[j]), 0.0 if d is None else float(d[j]), float(lo[j])
        if laws[g] is not None:
            q = _open_probability(*laws[g], float(h[j]), e_j, l_j, float(hi[j]))
            hit[idx] = rng.binomial(m[idx], q) >= rest[idx]
            continue
        band = float(hi[j]) - l_j if hi[j] > lo[j] else 1.0
        plus, left, todo = np.zeros(idx.size, dtype=np.int64), m[idx].copy(), rest[idx].copy()
        live, chunk = np.arange(idx.size), _OPEN_CHUNK
        while live.size:
            short = todo[live] - plus[live]  # +1s still needed; the run continues after left - short + 1 -1s
            take = np.minimum(left[live], np.maximum(np.minimum(short, left[live] - short + 1), chunk))
            total = int(take.sum())
            f = problem.scores(t, 0.5 * e_j, d_j, total, rng)
            drawn += total
            accept = (laplace_tail_unchecked(h[j], f, e_j) - l_j) / band > rng.random(total)
            owner = np.repeat(np.arange(live.size), take)
            plus[live] += np.bincount(owner, weights=accept, minlength=live.size).astype(np.int64)
            left[live] -= take
            live = live[(plus[live] < todo[live]) & (plus[live] + left[live] >= todo[live])]
            chunk *= 2
        hit[idx] = plus >= todo
    return hit, drawn


def _open_probability(values, probs, h: float, e: float, lo: float, hi: float) -> float:
    """(p - l)/(u - l) clipped to [0, 1], p = E g(Y) = sum_v Pr[f = v] g(v) from A's score law (``values``,
    ``probs``): the +1 probability of one open evaluation (u - l taken as 1 when u <= l)."""
    return _clipped_open(float(np.dot(probs, laplace_tail_unchecked(h, np.asarray(values, dtype=float), e))), lo, hi)


def _clipped_open(p: float, lo: float, hi: float) -> float:
    p = min(max(p, 0.0), 1.0)
    band = hi - lo if hi > lo else 1.0
    return min(max((p - lo) / band, 0.0), 1.0)


def _open_probabilities(laws: list, h, e, lo, hi) -> np.ndarray:
    """:func:`_open_probability` of each key's law (``laws``: (values, probs) per key; h, e, lo, hi: float (K,)):
    float (K,). Laws sharing one array of values (as :meth:`privtest.co.graphs.DensestPair._score_laws` returns
    them) have their tails g(v) computed as one (K, V) array: the same floats, and the same dot product per key."""
    values = laws[0][0]
    if len(laws) > 1 and all(law[0] is values for law in laws):
        v = np.asarray(values, dtype=float)
        tails = laplace_tail_unchecked(h[:, None], v[None, :], e[:, None])
        return np.array(
            [
                _clipped_open(float(np.dot(law[1], g)), x, y)
                for law, g, x, y in zip(laws, tails, lo.tolist(), hi.tolist(), strict=True)
            ]
        )
    return np.array(
        [
            _open_probability(law[0], law[1], float(a), float(b), float(x), float(y))
            for law, a, b, x, y in zip(laws, h, e, lo, hi, strict=True)
        ]
    )


#: First round of draws of A per undecided run in :func:`_open_halts` (then doubling).
_OPEN_CHUNK = 16


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
