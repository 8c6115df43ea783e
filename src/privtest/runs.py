"""Vectorized GTM runs: many independent instances of Algorithm 1 advanced together, one numpy call per step.

Each instance draws its own eta_1 at Init, exactly as Algorithm 1; all instances at step t share the step's
parameters (they see the same p_t, eps_t, p*_t), so a step costs a handful of numpy draws of length R.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from privtest import _validate
from privtest.gtm import StepParams, run_step
from privtest.mechanisms import BernoulliMechanism, Mechanism


@dataclass(frozen=True)
class StreamResult:
    """Outcome of R independent GTM runs over a stream of length T.

    Attributes:
        halt_step: int64 array (R,): the step at which each run halted, 0 if it never halted within T.
        samples: int64 array (R, T): N_t of each run at each step (0 after the run halted).
        params: the T :class:`StepParams` used.
    """

    halt_step: np.ndarray
    samples: np.ndarray
    params: list[StepParams]


def run_streams(
    calibration,
    mechanisms: Callable[[int], Mechanism] | list[Mechanism],
    pstar,
    T: int,
    runs: int,
    rng: np.random.Generator,
) -> StreamResult:
    """Run ``runs`` independent GTM instances (each with its own eta_1) on the same stream of T mechanisms.

    Args:
        calibration: a calibration object (``tau1``, ``mu1``, ``step(t, eps_t, pstar)``).
        mechanisms: list of T mechanisms, or a function t -> M_t (t = 1..T). Each M_t's ``eps`` is eps_t.
        pstar: acceptance threshold p*_t in (0, 1): a float, or a sequence of length T.
        T: stream length >= 1.
        runs: number of independent runs R >= 1.
        rng: numpy Generator.

    Returns:
        StreamResult.

    Raises:
        ValueError: on T or runs < 1, or an invalid p*.
    """
    rng = _validate.generator(rng)
    T = _validate.step_index(T, "T")
    runs = _validate.step_index(runs, "runs")
    pstars = np.broadcast_to(np.asarray(pstar, dtype=float), (T,))
    get = mechanisms.__getitem__ if isinstance(mechanisms, list) else None
    eta1 = rng.exponential(calibration.tau1, size=runs)
    halt_step = np.zeros(runs, dtype=np.int64)
    samples = np.zeros((runs, T), dtype=np.int64)
    params = []
    for t in range(1, T + 1):
        m = get(t - 1) if get else mechanisms(t)
        st = calibration.step(t, m.eps, float(pstars[t - 1]))
        params.append(st)
        active = np.flatnonzero(halt_step == 0)
        if active.size == 0:
            continue
        halted, N, _ = run_step(eta1[active], st.mu1, st.eps_t, st.tau2, st.c, st.rho, st.s, m, rng, step=t)
        samples[active, t - 1] = N
        halt_step[active[halted]] = t
    return StreamResult(halt_step, samples, params)


@dataclass(frozen=True)
class HaltCounts:
    """Monte Carlo counts for one GTM step at each p of a grid (arrays of shape (P,)).

    Attributes:
        halts: replications that halted (out of ``runs``).
        samples: total evaluations N_t.
        good_runs: replications with eta_1 <= mu1 (the part of Lemma 19's good event that Lemma 20's halting
            guarantee needs), and ``good_halts`` the halts among them.
    """

    halts: np.ndarray
    samples: np.ndarray
    good_runs: np.ndarray
    good_halts: np.ndarray
    runs: int


def halting_counts(st: StepParams, p, runs: int, rng: np.random.Generator, delta: float = 0.0) -> HaltCounts:
    """Halting counts of one GTM step (fresh eta_1 per replication), also split by the event eta_1 <= mu1.

    Args:
        st: the step's parameters (from a calibration).
        p: success probabilities p_t, float array of shape (P,).
        runs: replications per p.
        rng: numpy Generator.
        delta: delta_t of the Bernoulli inputs (purified inside the step when > 0).
    """
    rng = _validate.generator(rng)
    p = np.atleast_1d(np.asarray(p, dtype=float))
    out = {k: np.zeros(p.shape, dtype=np.int64) for k in ("halts", "samples", "good_runs", "good_halts")}
    for i, pi in enumerate(p):
        eta1 = rng.exponential(st.tau1, size=runs)
        m = BernoulliMechanism(pi, st.eps_t, delta)
        halted, N, _ = run_step(eta1, st.mu1, st.eps_t, st.tau2, st.c, st.rho, st.s, m, rng)
        good = eta1 <= st.mu1
        out["halts"][i], out["samples"][i] = np.count_nonzero(halted), N.sum()
        out["good_runs"][i], out["good_halts"][i] = np.count_nonzero(good), np.count_nonzero(halted & good)
    return HaltCounts(runs=runs, **out)


def halting_probability(st: StepParams, p, runs: int, rng: np.random.Generator, delta: float = 0.0):
    """Monte Carlo estimate of the halting probability of one GTM step (fresh eta_1 per replication): the halts and
    evaluations of :func:`halting_counts` (same draws).

    Args:
        st: the step's parameters (from a calibration).
        p: success probabilities p_t to test, float array of shape (P,).
        runs: replications per p.
        rng: numpy Generator.
        delta: delta_t of the Bernoulli inputs (purified inside the step when > 0).

    Returns:
        (halts, samples): int64 arrays of shape (P,): number of halting replications, and total evaluations.
    """
    hc = halting_counts(st, p, runs, rng, delta)
    return hc.halts, hc.samples
