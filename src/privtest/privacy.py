"""Exact privacy verification of the GTM (Lemma 17, Theorem 23, Corollary 25): worst-case privacy loss over
transcripts and over neighbouring input sequences, computed with :mod:`privtest.exact` (no sampling).

Reduction used. Only continuation prefixes are reachable before a halt, so an adaptive analyst's choices along a
run are one fixed sequence; the transcripts are "continue through t" and "halt at t". Pr[continue at step i] is
non-increasing in p_i for both directions s_i (the flipped variant counts the +1s of -M_i), so for a fixed
p-sequence the neighbour p' maximizing ln(Pr[a | p] / Pr[a | p']) is, coordinate by coordinate, the largest admissible
p'_i at every continuation step and the smallest admissible p'_t at the halting step. The search then runs over p
only: a grid of constant and two-level sequences (one value on the continuation prefix, one at the halting step), then
Nelder-Mead from the best grid points (continuous two-level search, and a full T-dimensional search for short
streams). Every public function checks its arguments first (ValueError naming the parameter and its range).

Example:
    Theorem 21's GTM keeps every transcript within Lemma 17's bounds (the slack is >= 0 up to quadrature error):

    >>> from privtest.exact import Stream
    >>> from privtest.gtm import GlobalCalibration
    >>> base = Stream.from_calibration(GlobalCalibration(1.0, 0.05, 1.0, 1.5), [0.5, 0.5], 0.1, 0.5)
    >>> worst = search_worst_case(base, *transcript_loss_bounds(base), grid=[0.0, 0.5, 1.0], full_dim_T=1, nm_iters=2)
    >>> all(w.slack > -1e-9 for w in worst.values())
    True
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import special

from privtest import _validate
from privtest.exact import (
    Stream,
    counted_success,
    log_step_factors,
    logsumexp,
    panel_width,
    transcript_log_probs,
    x_nodes,
)
from privtest.gtm import log4_over_beta_t

__all__ = [
    "Losses",
    "WorstCase",
    "expost_claims",
    "grid_losses",
    "neighbour_interval",
    "search_worst_case",
    "transcript_loss_bounds",
    "worst_neighbour_losses",
]


def neighbour_interval(p, eps, delta=0.0, pc=None):
    """Admissible success probabilities p' of a neighbouring dataset for an (eps, delta)-DP mechanism with Pr[+1] = p.

    Pure DP (delta = 0): p/p' and (1-p)/(1-p') in [e^-eps, e^eps]. Approximate DP: p <= e^eps p' + delta,
    p' <= e^eps p + delta and the same for 1 - p.

    Args:
        p: success probabilities in [0, 1] (array). eps: >= 0, delta: in [0, 1) (each an array or a scalar).
        pc: 1 - p exactly (default 1 - p).

    Returns:
        (lo, hi, lo_c, hi_c): arrays with the shape of ``p``; lo_c = 1 - lo and hi_c = 1 - hi, each computed
        directly (no cancellation), so the flipped variant sees admissible pairs after rounding.

    Raises:
        ValueError: naming p, eps, delta or pc when an element is outside its range.

    Example:
        >>> lo, hi, _, _ = neighbour_interval(0.5, 1.0)
        >>> round(float(lo), 6), round(float(hi), 6)
        (0.18394, 0.81606)
    """
    _validate.interval("p", p, 0.0, 1.0, lo_open=False, hi_open=False, scalar=False)
    if pc is not None:
        _validate.interval("pc", pc, 0.0, 1.0, lo_open=False, hi_open=False, scalar=False)
    _validate.nonnegative("eps", eps, scalar=False)
    _validate.delta_range("delta", delta, scalar=False)
    return _neighbour_interval(p, eps, delta, pc)


def _neighbour_interval(p, eps, delta=0.0, pc=None):
    p = np.asarray(p, dtype=float)
    pc = 1.0 - p if pc is None else np.asarray(pc, dtype=float)
    e = np.exp(np.asarray(eps, dtype=float))
    hi = np.minimum(e * p + delta, 1.0 - (pc - delta) / e)
    hi_c = np.maximum(pc - (e - 1.0) * p - delta, (pc - delta) / e)
    lo = np.maximum((p - delta) / e, 1.0 - e * pc - delta)
    lo_c = np.minimum((e - 1.0 + pc + delta) / e, e * pc + delta)
    clip = lambda v: np.clip(v, 0.0, 1.0)  # noqa: E731
    return clip(lo), clip(hi), clip(lo_c), clip(hi_c)


@dataclass(frozen=True)
class Losses:
    """Worst-neighbour privacy losses of every transcript for one input sequence p.

    Attributes:
        p: (T,) inputs.
        loss_continue, loss_halt: (T,) ln(Pr[a|p]/Pr[a|p']) for a = continue through t / halt at t, each with its own
            worst neighbour (NaN where either probability is below the resolved range, see ``min_log_prob``).
        p_prime_continue: (T,) the neighbour used for continuation steps (largest admissible p').
        p_prime_halt: (T,) the neighbour used at a halting step (smallest admissible p').

    A result record (what :func:`worst_neighbour_losses` returns); its fields are outputs, not checked arguments.

    Example:
        >>> from privtest.exact import Stream
        >>> from privtest.gtm import GlobalCalibration
        >>> L = worst_neighbour_losses(Stream.from_calibration(GlobalCalibration(1.0, 0.05, 1.0, 1.5), [0.5], 0.1, 0.5))
        >>> L.p.tolist(), bool(L.p_prime_halt[0] < 0.5 < L.p_prime_continue[0])
        ([0.5], True)
    """

    p: np.ndarray
    loss_continue: np.ndarray
    loss_halt: np.ndarray
    p_prime_continue: np.ndarray
    p_prime_halt: np.ndarray


def worst_neighbour_losses(
    stream: Stream, *, min_log_prob: float | None = None, log_floor: float = -100.0, shared_eta1: bool = True
) -> Losses:
    """Exact losses of every transcript of ``stream`` against its worst neighbouring input sequence.

    Args:
        stream: the run (its ``p``, ``eps`` and ``delta`` define the neighbour sets).
        min_log_prob: transcripts whose probability under either input is below e^{min_log_prob} are reported as NaN
            (default: 35 nats above the truncation bound, so the truncation changes no reported loss by > e^-35);
            a finite real or None.
        log_floor, shared_eta1: passed to :func:`~privtest.exact.transcript_log_probs`.

    Returns:
        :class:`Losses`.

    Raises:
        TypeError: if ``stream`` is not a :class:`~privtest.exact.Stream`.
        ValueError: naming min_log_prob, log_floor or shared_eta1 when out of range.

    Example:
        >>> from privtest.exact import Stream
        >>> from privtest.gtm import GlobalCalibration
        >>> stream = Stream.from_calibration(GlobalCalibration(1.0, 0.05, 1.0, 1.5), [0.5, 0.5], 0.1, 0.5)
        >>> L = worst_neighbour_losses(stream)
        >>> bool(np.all(L.loss_halt <= 1.0 + 1e-9))
        True
    """
    _check_stream("stream", stream)
    if min_log_prob is not None:
        _validate.finite("min_log_prob", min_log_prob)
    _validate.negative("log_floor", log_floor)
    _validate.boolean("shared_eta1", shared_eta1)
    lo, hi, lo_c, hi_c = _neighbour_interval(stream.p, stream.eps, stream.delta, stream.pc)
    kw = dict(log_floor=log_floor, shared_eta1=shared_eta1)
    A = transcript_log_probs(stream, **kw)
    B = transcript_log_probs(stream.with_p(hi, hi_c), p_halt=lo, pc_halt=lo_c, **kw)
    floor = A.log_tail_bound + 35.0 if min_log_prob is None else min_log_prob
    with np.errstate(invalid="ignore"):
        lc = np.where((A.log_continue > floor) & (B.log_continue > floor), A.log_continue - B.log_continue, np.nan)
        lh = np.where((A.log_halt > floor) & (B.log_halt > floor), A.log_halt - B.log_halt, np.nan)
    return Losses(stream.p.copy(), lc, lh, hi, lo)


@dataclass(frozen=True)
class WorstCase:
    """Result of a worst-case search for one transcript kind.

    Attributes:
        kind: "continue" or "halt".
        max_slack_loss: the loss of the worst transcript found (largest loss - claim).
        claimed: the claimed bound for that transcript.
        t: its step index (1-based).
        p, p_prime: the input sequences (first t steps) attaining it.
        evaluations: number of exact evaluations used.
        method: which search stage found it ("grid", "grid2", "nelder-mead", "nelder-mead-full").

    A result record (what :func:`search_worst_case` returns); its fields are outputs, not checked arguments.

    Example:
        >>> w = WorstCase("halt", 0.9, 1.0, 2, np.array([0.5, 0.5]), np.array([0.6, 0.4]), 10, "grid")
        >>> round(w.slack, 12)
        0.1
    """

    kind: str
    loss: float
    claimed: float
    t: int
    p: np.ndarray
    p_prime: np.ndarray
    evaluations: int
    method: str

    @property
    def slack(self) -> float:
        return self.claimed - self.loss


def _logit(p):
    return special.logit(np.clip(p, 1e-15, 1 - 1e-15))


def _lse_pairs(A, B):
    """log sum_j exp(A[u, j] + B[v, j]) for all (u, v): a scaled matrix product (A, B of shape (P, J))."""
    mA = np.max(A, axis=1, keepdims=True)
    mB = np.max(B, axis=1, keepdims=True)
    mA = np.where(np.isfinite(mA), mA, 0.0)
    mB = np.where(np.isfinite(mB), mB, 0.0)
    with np.errstate(divide="ignore"):
        return mA + mB.T + np.log(np.exp(A - mA) @ np.exp(B - mB).T)


def grid_losses(base: Stream, grid, *, shared_eta1: bool = True, log_floor: float = -100.0):
    """Worst-neighbour losses of all constant and two-level input sequences built from ``grid``, in one pass.

    Two-level sequence (u, v) for a halt-at-t transcript: p_i = grid[u] for i < t and p_t = grid[v]; the constant
    sequences are the diagonal. Factor tables are evaluated once per (grid value, step) and combined by scaled matrix
    products, so the cost is that of 4 len(grid) exact runs instead of len(grid)^2.

    Args:
        base: the run (its ``p`` is ignored). grid: values of p in [0, 1] (1-d, at least one).
        shared_eta1, log_floor: as in :func:`~privtest.exact.transcript_log_probs`.

    Returns:
        (loss_continue, loss_halt): arrays (P, T) and (P, P, T) (NaN below the resolved range).

    Raises:
        TypeError: if ``base`` is not a :class:`~privtest.exact.Stream`.
        ValueError: naming grid, shared_eta1 or log_floor when out of range.

    Example:
        >>> from privtest.exact import Stream
        >>> from privtest.gtm import GlobalCalibration
        >>> base = Stream.from_calibration(GlobalCalibration(1.0, 0.05, 1.0, 1.5), [0.5, 0.5], 0.1, 0.5)
        >>> lc, lh = grid_losses(base, [0.1, 0.5, 0.9])
        >>> lc.shape, lh.shape
        ((3, 2), (3, 3, 2))
    """
    _check_stream("base", base)
    _check_grid(grid)
    _validate.boolean("shared_eta1", shared_eta1)
    _validate.negative("log_floor", log_floor)
    grid = np.asarray(grid, dtype=float)
    P, T = len(grid), base.T
    h = panel_width(base.tau1, base.tau2, base.eps, base.c)
    x, log_w, X = x_nodes(base.tau1, base.mu1, h, log_floor)
    log_f1 = (-x / base.tau1 - math.log(base.tau1) + log_w)[None, :]
    a = base.mu1 - x
    floor = -X / base.tau1 + 35.0
    gc = special.expit(-special.logit(grid))  # 1 - grid, exact near 1 for logit-spaced grids
    lo, hi, lo_c, hi_c = _neighbour_interval(grid[:, None], base.eps[None, :], base.delta[None, :], gc[:, None])
    pA, pcA = np.broadcast_to(grid[:, None], (P, T)), np.broadcast_to(gc[:, None], (P, T))
    qA, qhi, qlo = (
        counted_success(v, base.s[None, :], base.delta[None, :], base.eps[None, :], vc)
        for v, vc in ((pA, pcA), (hi, hi_c), (lo, lo_c))
    )
    cumA = np.broadcast_to(log_f1, (P, len(x))).copy() if shared_eta1 else np.zeros((P, 1))
    cumB = cumA.copy()
    loss_c, loss_h = np.full((P, T), np.nan), np.full((P, P, T), np.nan)
    for i in range(T):
        args = (base.eps[i], base.tau2[i], base.c[i], base.rho[i], base.s[i])
        GA, HA = log_step_factors(a[None, :], qA[:, i : i + 1], *args)
        GB, _ = log_step_factors(a[None, :], qhi[:, i : i + 1], *args)
        _, HB = log_step_factors(a[None, :], qlo[:, i : i + 1], *args)
        if shared_eta1:
            hA, hB = _lse_pairs(cumA, HA), _lse_pairs(cumB, HB)
            cumA, cumB = cumA + GA, cumB + GB
            cA, cB = logsumexp(cumA), logsumexp(cumB)
        else:  # eta_1 redrawn at every step: the steps are independent
            mG = lambda L: logsumexp(log_f1 + L)[:, None]  # noqa: E731
            hA, hB = cumA + mG(HA).T, cumB + mG(HB).T
            cumA, cumB = cumA + mG(GA), cumB + mG(GB)
            cA, cB = cumA[:, 0], cumB[:, 0]
        with np.errstate(invalid="ignore"):
            loss_h[:, :, i] = np.where((hA > floor) & (hB > floor), hA - hB, np.nan)
            loss_c[:, i] = np.where((cA > floor) & (cB > floor), cA - cB, np.nan)
    return loss_c, loss_h


def search_worst_case(
    base: Stream,
    claims_continue,
    claims_halt,
    *,
    grid=None,
    full_dim_T: int = 3,
    nm_iters: int = 40,
    shared_eta1: bool = True,
    log_floor: float = -100.0,
) -> dict[str, WorstCase]:
    """Worst-case privacy loss of the run ``base`` (its parameters; its ``p`` is ignored) over input sequences.

    Stages: (1) every constant and two-level sequence on ``grid`` (:func:`grid_losses`); (2) Nelder-Mead over the
    continuous two-level family from the worst grid point of each transcript kind; (3) Nelder-Mead over all
    min(T, full_dim_T) coordinates of a short prefix (every step its own p), started at p = 1/2 and at the worst
    point found so far.

    Args:
        base: the run's parameters for T steps.
        claims_continue, claims_halt: (T,) claimed bounds on the loss of "continue through t" / "halt at t" (finite
            reals, nats; or one number for every t).
        grid: values of p in [0, 1] for stage 1 (default: 0, 1 and 31 logit-spaced values in [1e-6, 1 - 1e-6]).
        full_dim_T: steps of the full-dimensional stage 3, an integer >= 1. nm_iters: Nelder-Mead iterations per
            dimension, an integer >= 1.
        shared_eta1, log_floor: passed to the exact computation.

    Returns:
        {"continue": WorstCase, "halt": WorstCase}: the transcript with the smallest slack (claim - loss) of each kind.

    Raises:
        TypeError: if ``base`` is not a :class:`~privtest.exact.Stream`.
        ValueError: naming the parameter when one is out of range (claims not of length T among them).

    Example:
        >>> from privtest.exact import Stream
        >>> from privtest.gtm import GlobalCalibration
        >>> base = Stream.from_calibration(GlobalCalibration(1.0, 0.05, 1.0, 1.5), [0.5, 0.5], 0.1, 0.5)
        >>> worst = search_worst_case(base, 0.5, 1.0, grid=[0.0, 0.5, 1.0], full_dim_T=1, nm_iters=2)
        >>> sorted(worst), worst["halt"].claimed
        (['continue', 'halt'], 1.0)
    """
    from scipy import optimize  # on use: scipy.optimize is slow to import

    _check_stream("base", base)
    for name, v in (("claims_continue", claims_continue), ("claims_halt", claims_halt)):
        _validate.finite(name, v, scalar=False)
        if np.ndim(v) and np.shape(v) != (base.T,):
            raise ValueError(f"{name} must be a number or have shape ({base.T},). Found {np.shape(v)}.")
    if grid is not None:
        _check_grid(grid)
    _validate.integer("full_dim_T", full_dim_T, 1)
    _validate.integer("nm_iters", nm_iters, 1)
    _validate.boolean("shared_eta1", shared_eta1)
    _validate.negative("log_floor", log_floor)
    T = base.T
    cc = np.broadcast_to(np.asarray(claims_continue, dtype=float), (T,))
    ch = np.broadcast_to(np.asarray(claims_halt, dtype=float), (T,))
    if grid is None:
        grid = np.concatenate([[0.0], special.expit(np.linspace(-14, 14, 31)), [1.0]])
    grid = np.asarray(grid, dtype=float)
    n_eval = 0
    best: dict[str, WorstCase] = {}

    def consider(kind, loss, claim, t, p, p_prime, method):
        if not np.isfinite(loss):
            return
        cur = best.get(kind)
        if cur is None or claim - loss < cur.slack:
            best[kind] = WorstCase(
                kind,
                float(loss),
                float(claim),
                int(t),
                np.asarray(p, dtype=float).copy(),
                np.asarray(p_prime, dtype=float).copy(),
                0,
                method,
            )

    lo, hi, _, _ = _neighbour_interval(grid[:, None], base.eps[None, :], base.delta[None, :])
    loss_c, loss_h = grid_losses(base, grid, shared_eta1=shared_eta1, log_floor=log_floor)
    n_eval += 4 * len(grid)
    with np.errstate(invalid="ignore"):
        sc = np.where(np.isfinite(loss_c), cc[None, :] - loss_c, np.inf)
        sh = np.where(np.isfinite(loss_h), ch[None, None, :] - loss_h, np.inf)
    if np.isfinite(sc).any():
        u, i = np.unravel_index(np.argmin(sc), sc.shape)
        consider("continue", loss_c[u, i], cc[i], i + 1, np.full(i + 1, grid[u]), hi[u, : i + 1], "grid")
    if np.isfinite(sh).any():
        u, v, i = np.unravel_index(np.argmin(sh), sh.shape)
        p = np.full(i + 1, grid[u])
        p[-1] = grid[v]
        pp = hi[u, : i + 1].copy()
        pp[-1] = lo[v, i]
        consider("halt", loss_h[u, v, i], ch[i], i + 1, p, pp, "grid" if u == v else "grid2")

    def evaluate(z, method):
        nonlocal n_eval
        n_eval += 2
        t = len(z)
        p = special.expit(z)
        L = worst_neighbour_losses(base.with_p(p, special.expit(-z)), shared_eta1=shared_eta1, log_floor=log_floor)
        for kind, loss, claim in (("continue", L.loss_continue, cc[:t]), ("halt", L.loss_halt, ch[:t])):
            slack = np.where(np.isfinite(loss), claim - loss, np.inf)
            j = int(np.argmin(slack))
            pp = L.p_prime_continue[: j + 1].copy()
            if kind == "halt":
                pp[-1] = L.p_prime_halt[j]
            consider(kind, loss[j], claim[j], j + 1, p[: j + 1], pp, method)
        return L

    for kind in ("continue", "halt"):  # stage 2
        wc = best.get(kind)
        if wc is None:
            continue

        def two_level(z, t=wc.t, kind=kind):
            zz = np.full(t, z[0])
            zz[-1] = z[1]
            L = evaluate(zz, "nelder-mead")
            loss = (L.loss_continue if kind == "continue" else L.loss_halt)[-1]
            claim = (cc if kind == "continue" else ch)[t - 1]
            return claim - loss if np.isfinite(loss) else 10.0

        z0 = _logit(np.array([wc.p[0], wc.p[-1]]))
        optimize.minimize(two_level, z0, method="Nelder-Mead", options=dict(maxiter=nm_iters, xatol=1e-3, fatol=1e-10))
    Tf = min(T, full_dim_T)
    for kind in ("continue", "halt"):  # stage 3
        wc = best.get(kind)
        starts = [np.full(Tf, 0.5)]
        if wc is not None:
            starts.append(np.resize(wc.p, Tf) if wc.t >= Tf else np.concatenate([wc.p, np.full(Tf - wc.t, wc.p[-1])]))
        for p0 in starts:

            def full(z, kind=kind):
                L = evaluate(z, "nelder-mead-full")
                loss = L.loss_continue if kind == "continue" else L.loss_halt
                claim = (cc if kind == "continue" else ch)[:Tf]
                return float(np.min(np.where(np.isfinite(loss), claim - loss, 10.0)))

            optimize.minimize(
                full, _logit(p0), method="Nelder-Mead", options=dict(maxiter=nm_iters * Tf, xatol=1e-3, fatol=1e-10)
            )
    return {k: WorstCase(v.kind, v.loss, v.claimed, v.t, v.p, v.p_prime, n_eval, v.method) for k, v in best.items()}


def _check_stream(name: str, stream) -> None:
    if not isinstance(stream, Stream):
        raise TypeError(f"{name} must be a privtest.exact.Stream. Found {type(stream).__name__}.")


def _check_grid(grid) -> None:
    _validate.interval("grid", grid, 0.0, 1.0, lo_open=False, hi_open=False, scalar=False)
    if np.ndim(grid) != 1 or len(grid) == 0:
        raise ValueError(f"grid must be a non-empty 1-d array of p values. Found shape {np.shape(grid)}.")


def transcript_loss_bounds(stream: Stream):
    """Lemma 17's bounds on the privacy loss of each transcript: 1/tau1 for continuing through t, 1/tau1 + 2/tau2_t
    for halting at t (nats).

    Args:
        stream: the run (:class:`~privtest.exact.Stream`).

    Returns:
        (continue, halt): float arrays (T,).

    Raises:
        TypeError: if ``stream`` is not a :class:`~privtest.exact.Stream`.

    Example:
        >>> from privtest.exact import Stream
        >>> from privtest.gtm import GlobalCalibration
        >>> stream = Stream.from_calibration(GlobalCalibration(1.0, 0.05, 1.0, 1.5), [0.5, 0.5], 0.1, 0.5)
        >>> [np.round(b, 6).tolist() for b in transcript_loss_bounds(stream)]
        [[0.333333, 0.333333], [1.0, 1.0]]
    """
    _check_stream("stream", stream)
    cont = np.full(stream.T, 1.0 / stream.tau1)
    return cont, cont + 2.0 / stream.tau2


def expost_claims(cal, T: int, eps_t):
    """Theorem 23's ex-post loss function: eps_C on continuation, eps_C + C_H eps_t ln(4/beta_t) on halting at t.

    Args:
        cal: an :class:`~privtest.gtm.ExPostCalibration` (anything with eps_C, C_H and beta).
        T: number of steps, an integer >= 1.
        eps_t: input privacy eps_t >= 0, finite (a number, or shape (T,)).

    Returns:
        (continue, halt): float arrays (T,), nats.

    Raises:
        ValueError: naming cal, T or eps_t when invalid.

    Example:
        >>> from privtest.gtm import ExPostCalibration
        >>> cont, halt = expost_claims(ExPostCalibration(2.0, 0.05, 2.0, 1.5), 2, 0.1)
        >>> cont.tolist(), np.round(halt, 4).tolist()
        ([2.0, 2.0], [2.9747, 3.2529])
    """
    try:
        eps_C, C_H, beta = cal.eps_C, cal.C_H, cal.beta
    except AttributeError:
        raise ValueError(
            f"cal must be an ExPostCalibration (with eps_C, C_H and beta). Found {type(cal).__name__}."
        ) from None
    T = _validate.integer("T", T, 1)
    _validate.nonnegative("eps_t", eps_t, scalar=False)
    if np.ndim(eps_t) and np.shape(eps_t) != (T,):
        raise ValueError(f"eps_t must be a number or have shape ({T},). Found {np.shape(eps_t)}.")
    eps_t = np.broadcast_to(np.asarray(eps_t, dtype=float), (T,))
    halt = np.array([eps_C + C_H * eps_t[t - 1] * log4_over_beta_t(t, beta) for t in range(1, T + 1)])
    return np.full(T, eps_C), halt
