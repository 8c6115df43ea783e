"""Vectorized GTM runs: many independent instances of Algorithm 1 advanced together, one numpy call per step.

Each instance draws its own eta_1 at Init, exactly as Algorithm 1; all instances at step t share the step's
parameters (they see the same p_t, eps_t, p*_t), so a step costs a handful of numpy draws of length R. The runners
record the halting step and N_t, not K_t, so they call :func:`privtest.gtm.run_step` with ``counts=False``: for the
library's Bernoulli-type mechanisms the halting decision is then drawn given N_t from its exact conditional law without
the binomial draw of K_t (same law as Algorithm 1, a different random stream from ``counts=True``). Like
:meth:`privtest.gtm.GTM.step`, every function here refuses to run a step whose expected evaluations E[N_t] are infinite
(:func:`privtest.gtm.step_vacuity`) unless the caller passes ``allow_vacuous=True``; a step with pbar_t <= 0 runs (the
continuation guarantee is checked where a horizon T is known: :class:`privtest.testers.GTMTester`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from privtest import _validate
from privtest.gtm import StepParams, check_step, promised_eps, run_step
from privtest.mechanisms import BernoulliMechanism, Mechanism

__all__ = ["HaltCounts", "StreamResult", "halting_counts", "halting_probability", "run_streams"]


@dataclass(frozen=True)
class StreamResult:
    """Outcome of R independent GTM runs over a stream of length T (:func:`run_streams`).

    Attributes:
        halt_step: int64 array (R,): the step at which each run halted, 0 if it never halted within T.
        samples: int64 array (R, T): N_t of each run at each step (0 after the run halted).
        params: the T :class:`~privtest.gtm.StepParams` used.

    Raises:
        ValueError: naming halt_step or samples if their shapes disagree.

    Example:
        >>> StreamResult(np.zeros(2, dtype=np.int64), np.zeros((2, 3), dtype=np.int64), []).samples.shape
        (2, 3)
    """

    halt_step: np.ndarray
    samples: np.ndarray
    params: list[StepParams]

    def __post_init__(self):
        h, n = np.asarray(self.halt_step), np.asarray(self.samples)
        if h.ndim != 1 or n.ndim != 2 or n.shape[0] != h.shape[0]:
            raise ValueError(f"halt_step (R,) and samples (R, T) must agree. Found shapes {h.shape} and {n.shape}.")


def run_streams(
    calibration,
    mechanisms: Callable[[int], Mechanism] | list[Mechanism],
    pstar,
    T: int,
    runs: int,
    rng: np.random.Generator,
    *,
    allow_vacuous: bool = False,
) -> StreamResult:
    """Run ``runs`` independent GTM instances (each with its own eta_1) on the same stream of T mechanisms.

    Args:
        calibration: a calibration object (``tau1``, ``mu1``, ``step(t, eps_t, pstar)``).
        mechanisms: a list of T mechanisms, or a function t -> M_t (t = 1..T, called once per step, in order). Each
            M_t's ``eps`` (finite, >= 0) is eps_t.
        pstar: acceptance threshold p*_t in (0, 1): a number, or a sequence of length T.
        T: stream length, integer >= 1.
        runs: number of independent runs R, integer >= 1.
        rng: anything :func:`numpy.random.default_rng` accepts.
        allow_vacuous: True to run steps with E[N_t] = inf; refused by default: for a list, every step is checked
            before any draw; for a function, each step before its draws.

    Returns:
        :class:`StreamResult`.

    Raises:
        ValueError: naming T, runs, pstar, mechanisms (a list whose length is not T) or eps_t (a mechanism's eps out
            of range, or a step with E[N_t] = inf) outside its range.

    Example:
        >>> from privtest.gtm import GlobalCalibration
        >>> cal = GlobalCalibration(1.0, 0.05, 1.0, 1.5)
        >>> res = run_streams(cal, [BernoulliMechanism(p, 0.1) for p in (0.0, 0.9)], 0.5, 2, runs=3, rng=0)
        >>> res.halt_step.tolist()
        [2, 2, 2]
    """
    T = _validate.step_index(T, "T")
    runs = _validate.step_index(runs, "runs")
    allow_vacuous = _validate.boolean("allow_vacuous", allow_vacuous)
    if np.ndim(pstar) == 0:
        _validate.open_unit("pstar", pstar)
    else:
        _validate.open_unit("pstar", pstar, scalar=False)
        if np.shape(pstar) != (T,):
            raise ValueError(f"pstar must be a number or a sequence of length T = {T}. Found shape {np.shape(pstar)}.")
    rng = _validate.generator(rng)
    pstars = np.broadcast_to(np.asarray(pstar, dtype=float), (T,))
    if isinstance(mechanisms, list):
        if len(mechanisms) != T:
            raise ValueError(f"mechanisms must be a list of T = {T} mechanisms. Found {len(mechanisms)}.")
        ahead = [calibration.step(t, promised_eps(m, t), float(pstars[t - 1])) for t, m in enumerate(mechanisms, 1)]
        for st in ahead:
            check_step(st, calibration, allow_vacuous=allow_vacuous)
        get = mechanisms.__getitem__
    elif callable(mechanisms):
        ahead, get = None, None
    else:
        raise ValueError(f"mechanisms must be a list of mechanisms or a function t -> M_t. Found {mechanisms!r}.")
    eta1 = rng.exponential(calibration.tau1, size=runs)
    halt_step = np.zeros(runs, dtype=np.int64)
    samples = np.zeros((runs, T), dtype=np.int64)
    params = []
    for t in range(1, T + 1):
        m = get(t - 1) if get else mechanisms(t)
        if ahead is not None:
            st = ahead[t - 1]
        else:
            st = calibration.step(t, promised_eps(m, t), float(pstars[t - 1]))
            check_step(st, calibration, allow_vacuous=allow_vacuous)
        params.append(st)
        active = np.flatnonzero(halt_step == 0)
        if active.size == 0:
            continue
        halted, N, _ = run_step(
            eta1[active], st.mu1, st.eps_t, st.tau2, st.c, st.rho, st.s, m, rng, step=t, counts=False
        )
        samples[active, t - 1] = N
        halt_step[active[halted]] = t
    return StreamResult(halt_step, samples, params)


@dataclass(frozen=True)
class HaltCounts:
    """Monte Carlo counts for one GTM step at each p of a grid (arrays of shape (P,)), from :func:`halting_counts`.

    Attributes:
        halts: replications that halted (out of ``runs``).
        samples: total evaluations N_t.
        good_runs: replications with eta_1 <= mu1 (the part of Lemma 19's good event that Lemma 20's halting
            guarantee needs), and ``good_halts`` the halts among them.
        runs: replications per p, integer >= 1.

    Raises:
        ValueError: naming runs outside its range.

    Example:
        >>> z = np.zeros(1, dtype=np.int64)
        >>> HaltCounts(z, z, z, z, runs=10).runs
        10
    """

    halts: np.ndarray
    samples: np.ndarray
    good_runs: np.ndarray
    good_halts: np.ndarray
    runs: int

    def __post_init__(self):
        _validate.step_index(self.runs, "runs")


def halting_counts(
    st: StepParams, p, runs: int, rng: np.random.Generator, delta: float = 0.0, *, allow_vacuous: bool = False
) -> HaltCounts:
    """Halting counts of one GTM step (fresh eta_1 per replication), also split by the event eta_1 <= mu1.

    Args:
        st: the step's parameters (a :class:`~privtest.gtm.StepParams` from a calibration).
        p: success probabilities p_t in [0, 1], a number or a float array of shape (P,).
        runs: replications per p, integer >= 1.
        rng: anything :func:`numpy.random.default_rng` accepts.
        delta: delta_t in [0, 1) of the Bernoulli inputs (purified inside the step when > 0).
        allow_vacuous: True to run a step with E[N_t] = inf (:func:`privtest.gtm.step_vacuity`). A step with
            pbar_t <= 0 runs either way: one step in isolation studies the operating characteristic, also where
            Theorem 21 guarantees no continuation.

    Returns:
        :class:`HaltCounts`.

    Raises:
        ValueError: naming st, p, runs, rng or delta outside its range, or eps_t for a step with E[N_t] = inf.

    Example:
        >>> from privtest.gtm import GlobalCalibration
        >>> st = GlobalCalibration(1.0, 0.05, 1.0, 1.5).step(1, 0.1, 0.5)
        >>> hc = halting_counts(st, [0.0, 0.9], runs=20, rng=0)
        >>> hc.halts.tolist(), hc.runs
        ([0, 20], 20)
    """
    if not isinstance(st, StepParams):
        raise ValueError(f"st must be a StepParams. Found {type(st).__name__}.")
    _validate.interval("p", p, 0.0, 1.0, lo_open=False, hi_open=False, scalar=False)
    runs = _validate.step_index(runs, "runs")
    _validate.delta_range("delta", delta)
    check_step(st, allow_vacuous=_validate.boolean("allow_vacuous", allow_vacuous))
    rng = _validate.generator(rng)
    p = np.atleast_1d(np.asarray(p, dtype=float))
    out = {k: np.zeros(p.shape, dtype=np.int64) for k in ("halts", "samples", "good_runs", "good_halts")}
    for i, pi in enumerate(p):
        eta1 = rng.exponential(st.tau1, size=runs)
        m = BernoulliMechanism(pi, st.eps_t, delta)
        halted, N, _ = run_step(eta1, st.mu1, st.eps_t, st.tau2, st.c, st.rho, st.s, m, rng, counts=False)
        good = eta1 <= st.mu1
        out["halts"][i], out["samples"][i] = np.count_nonzero(halted), N.sum()
        out["good_runs"][i], out["good_halts"][i] = np.count_nonzero(good), np.count_nonzero(halted & good)
    return HaltCounts(runs=runs, **out)


def halting_probability(
    st: StepParams, p, runs: int, rng: np.random.Generator, delta: float = 0.0, *, allow_vacuous: bool = False
):
    """Monte Carlo estimate of the halting probability of one GTM step (fresh eta_1 per replication): the halts and
    evaluations of :func:`halting_counts` (same draws).

    Args:
        st, p, runs, rng, delta, allow_vacuous: as :func:`halting_counts`.

    Returns:
        (halts, samples): int64 arrays of shape (P,): number of halting replications, and total evaluations.

    Raises:
        ValueError: as :func:`halting_counts`.

    Example:
        >>> from privtest.gtm import GlobalCalibration
        >>> st = GlobalCalibration(1.0, 0.05, 1.0, 1.5).step(1, 0.1, 0.5)
        >>> halting_probability(st, [0.0, 0.9], runs=20, rng=0)[0].tolist()
        [0, 20]
    """
    hc = halting_counts(st, p, runs, rng, delta, allow_vacuous=allow_vacuous)
    return hc.halts, hc.samples
