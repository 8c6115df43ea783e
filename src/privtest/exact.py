"""Exact (quadrature, no Monte Carlo) transcript probabilities of the GTM (Algorithm 1), in log space.

Structure used (proof of Lemma 17, eqs. (9)-(12)): conditioned on eta_1 = x the steps are independent, so

    Pr[continue through t] = int_0^inf f_1(x) prod_{i<=t} G_i(x) dx,
    Pr[halt at t]          = int_0^inf f_1(x) prod_{i<t}  G_i(x) H_t(x) dx,

with f_1 the Exp(tau1) density, G_i(x) = E_{eta_2}[g_i(s_i(mu1 - x + eta_2))] the continuation probability of step i
given eta_1 = x (Lemma 15(1)), and H_i = 1 - G_i.

The inner expectation has a closed form. Write a = mu1 - x, b = rho q e^{s eps a} (q = Pr[+1] of the counted
mechanism: p, purified p if delta > 0 (Lemma 24), and 1 - p for s = -1, where the GTM counts +1s of -M),
k = c + 1 and sigma = 1/(eps tau2). Then lambda_t q = b V with V = e^{s eps eta_2}; for s = +1, V ~ Pareto(sigma) and
the Poisson-Gamma duality Pr[Po(m) <= c] = Pr[Gamma(k) > m] give

    s = +1:  H = P(k, b) + b^sigma Gamma(k - sigma, b) / Gamma(k),
             G = Q(k, b) - b^sigma Gamma(k - sigma, b) / Gamma(k),
    s = -1:  H = Q(k, b) + b^-sigma Gamma(k + sigma) P(k + sigma, b) / Gamma(k),
             G = P(k, b) - b^-sigma Gamma(k + sigma) P(k + sigma, b) / Gamma(k),

with P, Q the regularized lower/upper incomplete gamma functions and Gamma(s, b) the (unregularized) upper one.
The halting forms are sums of positive terms; the continuation forms are evaluated as log1p(-H) when H < 1/2 and
by the difference (or, deep in the tail, a Gauss-Laguerre integral without cancellation) otherwise. All of it is
evaluated in log space with fall-backs (series / continued fractions) where scipy's regularized functions underflow,
so transcripts with probability far below 1e-300 keep their logarithm.

The outer integral over x uses composite Gauss-Legendre panels on [0, X], X = tau1 (-log_floor) + mu1; the mass
beyond X is at most e^{-X/tau1} for every transcript and is reported as ``log_tail_bound``. Every factor
is log-concave in x (Poisson CDF and survival in log lambda, convolved with the log-concave Exp density), so every
integrand is unimodal, and its width near the mode is bounded below by the panel width chosen here (see
:func:`panel_width`); tests compare with mpmath at 50 digits and with Monte Carlo.

Every public function checks its arguments first (ValueError naming the parameter and its range); the module's own
calls between its functions use unchecked forms (private here, the numerical kernels in ``privtest._numerics``;
their arguments come from a checked :class:`Stream` or step).

Example:
    The halting probability of one step of Theorem 21's GTM at p = p* (its Type II error at step 1 is below beta_1):

    >>> from privtest.gtm import GlobalCalibration
    >>> st = GlobalCalibration(1.0, 0.05, 1.0, 1.5).step(1, 0.1, 0.5)
    >>> float(np.exp(step_log_halt(st, [0.5])[0])) > 1 - 0.05
    True
"""

from __future__ import annotations

import math
from collections import OrderedDict
from dataclasses import dataclass, field

import numpy as np
from scipy import special

from privtest import _numerics, _validate
from privtest._numerics import (
    GL_W,
    GL_X,
    log1mexp,
    log_gammainc_unchecked,
    log_gammaincc_unchecked,
    log_upper_gamma_unchecked,
    logsumexp_unchecked,
    panel_width_unchecked,
    x_nodes_unchecked,
)
from privtest.mechanisms import purification_phi

__all__ = [
    "GL_NODES",
    "Stream",
    "TranscriptLogProbs",
    "counted_success",
    "log_gammainc",
    "log_gammaincc",
    "log_step_factors",
    "log_upper_gamma",
    "logsumexp",
    "panel_width",
    "step_log_halt",
    "step_log_probs",
    "transcript_log_probs",
    "x_nodes",
]

#: Gauss-Legendre nodes per panel of the outer (eta_1) integral (the quadrature rules and the unchecked kernels this
#: module's functions call are in privtest._numerics).
GL_NODES = _numerics.GL_NODES


# ----------------------------------------------------------------------------------------------------------------
# Incomplete gamma functions in log space
# ----------------------------------------------------------------------------------------------------------------
def _check_shape_arg(a, x) -> None:
    _validate.positive("a", a, scalar=False)
    _validate.nonnegative("x", x, scalar=False)


def log_gammainc(a, x):
    """log P(a, x), the regularized lower incomplete gamma function, accurate where P underflows (x << a); the
    halting factor of the proof of Lemma 17 (module docstring).

    Args:
        a: shape > 0, finite (scalar or array). x: argument >= 0, finite (scalar or array, broadcast with ``a``).

    Returns:
        ndarray of the broadcast shape: log P(a, x) (-inf where x = 0).

    Raises:
        ValueError: naming a or x when an element is outside its range.

    Example:
        >>> round(float(log_gammainc(700.0, 50.0)), 4)
        -1201.4607
    """
    _check_shape_arg(a, x)
    return log_gammainc_unchecked(a, x)


def log_gammaincc(a, x):
    """log Q(a, x), the regularized upper incomplete gamma function, accurate where Q underflows (x >> a).

    Args:
        a: shape > 0, finite (scalar or array). x: argument >= 0, finite (scalar or array, broadcast with ``a``).

    Returns:
        ndarray of the broadcast shape: log Q(a, x) (0 where x = 0).

    Raises:
        ValueError: naming a or x when an element is outside its range.

    Example:
        >>> round(float(log_gammaincc(21.0, 2000.0)), 4)
        -1890.3075
    """
    _check_shape_arg(a, x)
    return log_gammaincc_unchecked(a, x)


def log_upper_gamma(s, x):
    """log Gamma(s, x) = log int_x^inf u^{s-1} e^{-u} du (unregularized) for any real s and x > 0.

    s > 0 uses scipy (continued fraction where it underflows); s <= 0 uses the continued fraction for x > 1 and the
    downward recurrence of ``privtest._numerics.log_upper_gamma_small_x``, with mpmath only where that recurrence is not
    accurate (s within 1e-3 below an integer; rare: it needs c_t + 1 <= 1/(eps_t tau2_t)). Agrees with mpmath to
    ~1e-13 in the logarithm (tests/test_exact.py). The Pareto term of the halting factor (module docstring).

    Args:
        s: shape, a finite real (scalar or array). x: argument > 0, finite (scalar or array, broadcast with ``s``).

    Returns:
        ndarray of the broadcast shape: log Gamma(s, x).

    Raises:
        ValueError: naming s or x when an element is outside its range.

    Example:
        >>> round(float(log_upper_gamma(-0.5, 0.5)), 6)
        -0.526462
    """
    _validate.finite("s", s, scalar=False)
    _validate.positive("x", x, scalar=False)
    return log_upper_gamma_unchecked(s, x)


# ----------------------------------------------------------------------------------------------------------------
# One step given eta_1
# ----------------------------------------------------------------------------------------------------------------
def _check_signs(name: str, s) -> None:
    _validate.real(name, s, scalar=False)
    arr = np.asarray(s)
    if not ((arr == -1) | (arr == 1)).all():
        raise ValueError(f"{name} must be -1 or +1 (every element). Found {_validate.fmt(s)}.")


def counted_success(p, s, delta=0.0, eps=0.0, pc=None):
    """Success probability q of the mechanism whose +1s the GTM counts: purified (Lemma 24, Cor. 25) if delta > 0,
    then negated (1 - q) when s = -1 (flipped variant, as in :func:`privtest.gtm.run_step`).

    ``pc`` is 1 - p given exactly (default: computed). Near p = 1 the flipped variant's count has mean ~ (1 - p) and a
    transcript's probability is sensitive to its relative error, which ``1.0 - p`` rounds at ulp(1)/(1 - p).

    Args:
        p: success probabilities Pr[M_t = +1] in [0, 1] (scalar or array).
        s: directions, -1 or +1 (broadcast with ``p``).
        delta: delta_t in [0, 1) (broadcast). eps: eps_t >= 0, finite (broadcast; > 0 where delta > 0).
        pc: 1 - p exactly, in [0, 1], or None.

    Returns:
        float ndarray of the broadcast shape: q in [0, 1].

    Raises:
        ValueError: naming the parameter when an element is outside its range.

    Example:
        >>> counted_success([0.2, 0.2], [1, -1]).tolist()
        [0.2, 0.8]
    """
    _validate.interval("p", p, 0.0, 1.0, lo_open=False, hi_open=False, scalar=False)
    _check_signs("s", s)
    _validate.delta_range("delta", delta, scalar=False)
    _validate.nonnegative("eps", eps, scalar=False)
    if pc is not None:
        _validate.interval("pc", pc, 0.0, 1.0, lo_open=False, hi_open=False, scalar=False)
    return _counted_success(p, s, delta, eps, pc)


def _counted_success(p, s, delta=0.0, eps=0.0, pc=None):
    p = np.asarray(p, dtype=float)
    pc = 1.0 - p if pc is None else np.asarray(pc, dtype=float)
    if np.any(np.asarray(delta) > 0):
        phi = np.vectorize(purification_phi)(np.broadcast_to(eps, p.shape), np.broadcast_to(delta, p.shape))
        p, pc = p + phi * (pc - p), pc + phi * (p - pc)  # p~ = p + phi (1 - 2p), and the same map on 1 - p
    return np.where(np.asarray(s) == -1, pc, p)


def log_step_factors(a, q, eps, tau2, c, rho, s):
    """Log continuation / halting probabilities of one GTM step given eta_1, with eta_2 integrated out exactly.

    Args:
        a: mu1 - eta_1, finite reals (array).
        q: success probability of the counted mechanism in [0, 1] (see :func:`counted_success`); scalar or an array
            broadcast with ``a`` (e.g. shape (P, 1) against a of shape (J,) evaluates P inputs at once).
        eps: eps_t >= 0. tau2: tau_{2,t} > 0. c: integer threshold c_t >= 0. rho: base rate > 0. s: +1 or -1
            (numbers, finite).

    Returns:
        (log_G, log_H): arrays of the broadcast shape: log Pr[a_t = -s_t | eta_1] and log Pr[a_t = s_t | eta_1]. Where
        b = rho q e^{s eps a} leaves the float range (subnormal, 0 or inf), from log b: the limits, to float precision.

    Raises:
        ValueError: naming the parameter when one (an element of a or q) is outside its range.

    Example:
        >>> lG, lH = log_step_factors(np.array([0.0, 3.0]), 0.3, 0.3, 3.0, 6, 10.0, 1)
        >>> np.round(np.exp(lG) + np.exp(lH), 12).tolist()
        [1.0, 1.0]
    """
    _validate.finite("a", a, scalar=False)
    _validate.interval("q", q, 0.0, 1.0, lo_open=False, hi_open=False, scalar=False)
    _validate.nonnegative("eps", eps)
    _validate.positive("tau2", tau2)
    _validate.integer("c", c, 0)
    _validate.positive("rho", rho)
    _validate.sign("s", s)
    return _log_step_factors(a, q, eps, tau2, c, rho, s)


def _log_step_factors(a, q, eps, tau2, c, rho, s):
    a, q = np.broadcast_arrays(np.asarray(a, dtype=float), np.asarray(q, dtype=float))
    pos = q > 0
    if pos.size and pos.all():  # every input can succeed (the usual call): the factors as computed, reshaped
        lG, lH = _log_step_factors_pos(a.ravel(), q.ravel(), float(eps), float(tau2), int(c), float(rho), int(s))
        return lG.reshape(a.shape), lH.reshape(a.shape)
    log_G, log_H = np.zeros(a.shape), np.full(a.shape, -np.inf)
    if s == -1:  # q = 0: K = 0 surely, so the direct variant continues and the flipped one halts
        log_G, log_H = log_H, log_G
    if pos.any():
        lG, lH = _log_step_factors_pos(a[pos], q[pos], float(eps), float(tau2), int(c), float(rho), int(s))
        log_G[pos], log_H[pos] = lG, lH
    return log_G, log_H


#: Nats by which an upper bound on log P(k, b) (log Q(k, b)) must lie below the Pareto term for :func:`_log_main` to
#: leave the term out of their log-sum (:func:`_log_main`).
_DOMINATED = 110.0
_LOG2 = math.log(2.0)


def _log_main(k: float, b: np.ndarray, log_b: np.ndarray, log_other: np.ndarray, upper: bool) -> np.ndarray:
    """log P(k, b) (``upper``: log Q(k, b)) for ``np.logaddexp(result, log_other)`` only: what
    ``log_gammainc_unchecked(k, b)`` (``log_gammaincc_unchecked``) returns, except -inf where the term cannot change
    that sum. There (b finite) an upper bound on it (2 b^k e^-b / Gamma(k + 1) for b <= (k + 1)/2; 2 b^(k-1) e^-b /
    Gamma(k) for b >= 2 (k - 1)) lies more than :data:`_DOMINATED` nats below log_other with |log_other| > 1e-20, so
    numpy's logaddexp, log_other + log1p(exp(term - log_other)), adds less than e^-100 < 4e-44, below half an ulp of
    log_other: the sum is log_other to the last bit with the term and with -inf (log1p(0) = 0). Where scipy
    underflows (the series / continued-fraction entries) outside that set, the kernel runs on every entry as before,
    so its series groups are unchanged."""
    with np.errstate(divide="ignore", invalid="ignore"):
        if upper:
            bound = (k - 1.0) * log_b - b - special.gammaln(k) + _LOG2
            dominated = (b >= 2.0 * max(k - 1.0, 0.0)) & (bound < log_other - _DOMINATED)
        else:
            bound = k * log_b - b - special.gammaln(k + 1.0) + _LOG2
            dominated = (b <= (k + 1.0) / 2.0) & (bound < log_other - _DOMINATED)
        dominated &= (np.abs(log_other) > 1e-20) & (b < np.inf)  # b = inf (overflow): the kernel's limit (-inf, 0)
    kernel = log_gammaincc_unchecked if upper else log_gammainc_unchecked
    if not dominated.any():
        return kernel(k, b)
    rest = ~dominated
    br = b[rest]
    with np.errstate(divide="ignore"):
        v = special.gammaincc(k, br) if upper else special.gammainc(k, br)
        underflow = (v < _numerics.TINY) if upper else (v < _numerics.TINY) & (br > 0)
        if underflow.any():  # the kernel's series / continued fraction over all its underflowing entries
            return kernel(k, b)
        out = np.full(b.shape, -np.inf)
        out[rest] = np.log(v)
    return out


#: P(s, b) below this makes scipy's Q(s, b) = 1 - P(s, b) exactly 1.0 (it is below half an ulp of 1, 2^-54).
_LOG_P_ONE = math.log(1e-17)


def _log_upper_gamma(s: float, b: np.ndarray, log_b: np.ndarray) -> np.ndarray:
    """``log_upper_gamma_unchecked(s, b)`` (b = e^log_b >= 0) without scipy where its value is known: for s >= 2 and
    b <= (s + 1)/2 with P(s, b) <= 2 b^s e^-b / Gamma(s + 1) < 1e-17, scipy's Q(s, b) is 1 - P(s, b) by its series
    (cephes igamc for b < s / 1.1), which rounds to exactly 1.0, so log Q + gammaln(s) = gammaln(s) to the last bit
    (checked on 4e7 such pairs, tests/test_exact.py). Elsewhere the kernel, whose continued-fraction group (the
    entries where Q underflows) has none of these entries."""
    if not s >= 2.0:
        return log_upper_gamma_unchecked(s, b)
    with np.errstate(divide="ignore", invalid="ignore"):
        one = (b <= (s + 1.0) / 2.0) & (s * log_b - b - special.gammaln(s + 1.0) + _LOG2 < _LOG_P_ONE)
    if not one.any():
        return log_upper_gamma_unchecked(s, b)
    out = np.empty(b.shape)
    out[one] = 0.0 + special.gammaln(s)  # log(1.0) + gammaln(s)
    rest = ~one
    out[rest] = log_upper_gamma_unchecked(s, b[rest])
    return out


#: Below it, b = e^log_b has lost bits (subnormal) or is 0: :func:`_log_step_factors_pos` then works from log_b alone.
_TINY_B = float(np.finfo(float).tiny)


def _log_step_factors_pos(a, q, eps, tau2, c, rho, s):
    """:func:`log_step_factors` for 1-d arrays a, q with q > 0."""
    k = float(c) + 1.0
    log_b = math.log(rho) + np.log(q) + s * eps * a
    with np.errstate(over="ignore"):
        b = np.exp(log_b)
    sigma = math.inf if eps * tau2 == 0.0 else 1.0 / (eps * tau2)
    # b beyond the float range (an overflowed or underflowed e^log_b): the limits, from log_b
    # (_log_step_factors_edge); the other entries as computed, in the same groups.
    edge = (b < _TINY_B) | ((b == np.inf) & ((s == 1) | (log_b == np.inf)))
    if edge.any():
        log_G, log_H = np.empty(a.shape), np.empty(a.shape)
        inner = ~edge
        if inner.any():
            log_G[inner], log_H[inner] = _log_step_factors_pos(a[inner], q[inner], eps, tau2, c, rho, s)
        log_G[edge], log_H[edge] = _log_step_factors_edge(log_b[edge], k, sigma, s)
        return log_G, log_H
    if not math.isfinite(sigma):  # no perturbation (eps = 0, or eps tau2 < 1/1.8e308): K ~ Po(b) for every eta
        lP, lQ = log_gammainc_unchecked(k, b), log_gammaincc_unchecked(k, b)
        return (lQ, lP) if s == 1 else (lP, lQ)
    if s == 1:
        log_pareto = sigma * log_b + _log_upper_gamma(k - sigma, b, log_b) - special.gammaln(k)
        log_main = _log_main(k, b, log_b, log_pareto, upper=False)  # P(k, b): halting with no help from eta_2
    else:
        log_pareto = (
            -sigma * log_b + special.gammaln(k + sigma) - special.gammaln(k) + log_gammainc_unchecked(k + sigma, b)
        )
        log_main = _log_main(k, b, log_b, log_pareto, upper=True)  # Q(k, b)
    log_H = np.minimum(np.logaddexp(log_main, log_pareto), 0.0)
    log_G = log1mexp(log_H)
    big = log_H > math.log(0.5)
    if np.any(big):
        bb, lp = b[big], log_pareto[big]
        if s == 1:
            lq = log_gammaincc_unchecked(k, bb)
            vals = lq + log1mexp(np.minimum(lp - lq, 0.0))
            deep = bb > 20.0 * (k + sigma)
            if np.any(deep):  # Q - pareto cancels: integrate E[(1 - (b/Gamma)^sigma); Gamma > b] directly
                bd = bb[deep][:, None]
                lag_x, lag_w = _numerics.laguerre_rule()
                log1p_r = np.log1p(lag_x[None, :] / bd)  # once: numpy's log1p is the costly part
                integrand = -np.expm1(-sigma * log1p_r) * np.exp((k - 1.0) * log1p_r)
                vals[deep] = -bd[:, 0] + (k - 1.0) * np.log(bd[:, 0]) - special.gammaln(k) + np.log(integrand @ lag_w)
        else:
            lpk = log_gammainc_unchecked(k, bb)
            vals = lpk + log1mexp(np.minimum(lp - lpk, 0.0))
        log_G[big] = vals
    return log_G, log_H


def _log_upper_gamma_tiny_b(z: float, log_b: np.ndarray) -> np.ndarray:
    """log Gamma(z, b) for b = e^log_b below the normal floats (log_b <= -708), any real z, to float precision:
    Gamma(z, b) = Gamma(z) - b^z / z + O(b^(z+1)) (the O(b) terms are below an ulp). For z > 0,
    log Gamma(z) + log1p(-b^z / Gamma(z + 1)); for z < 0, the b^z / (-z) term dominates:
    z log_b - log(-z) + log1p(-Gamma(z + 1) b^-z) (at a negative integer z the Gamma(z) term is replaced by one of
    order b^-z log b, below an ulp); near z = 0 (|z log_b| <= 1), (expm1(log Gamma(1 + z)) - expm1(z log_b)) / z,
    whose two terms do not cancel (|log_b| >> Euler's gamma), and -log_b - Euler's gamma at z = 0 (E_1(b))."""
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        zl = z * log_b
        if z > 0.0:
            out = special.gammaln(z) + np.log1p(-np.exp(zl - special.gammaln(z + 1.0)))
        elif z < 0.0:
            g1 = 0.0 if z == math.floor(z) else special.gamma(z + 1.0)  # a pole: its term is replaced (docstring)
            out = zl - math.log(-z) + np.log1p(-g1 * np.exp(-zl))
        else:
            out = np.log(-log_b - np.euler_gamma)
        near = np.abs(zl) <= 1.0
        if z != 0.0 and np.any(near):  # |z| <= 1/708: log Gamma(1 + z) by its Taylor series (scipy's has ~1e-16
            # absolute error near 1, which the difference would amplify by 1/|z log_b|); terms beyond z^11 < 1e-31
            n = np.arange(2.0, 12.0)
            log_gamma_1p = -np.euler_gamma * z + float(np.sum((-z) ** n * special.zeta(n) / n))
            num = np.expm1(log_gamma_1p) - np.expm1(zl[near])
            out[near] = np.log(num / z)
    return out


def _log_step_factors_edge(log_b: np.ndarray, k: float, sigma: float, s: int):
    """(log_G, log_H) of :func:`_log_step_factors_pos` where b = e^log_b is not a normal float: 0 < b < 2.2e-308 or
    b = 0 (log_b < -708, -inf included), or b = inf.

    b = inf: the direct variant (s = 1) halts surely (log_G = -inf, log_H = 0) and the flipped one continues
    (0, -inf); b = 0: the reverse. b tiny: every term is a power of b to float precision (each neglected factor is
    1 + O(b)): log P(k, b) = k log_b - log Gamma(k + 1), Q(k, b) = 1 - P(k, b). The Pareto term is, for s = 1,
    b^sigma Gamma(k - sigma, b) / Gamma(k) (:func:`_log_upper_gamma_tiny_b`), and for s = -1,
    b^-sigma Gamma(k + sigma) P(k + sigma, b) / Gamma(k) = b^k / (Gamma(k) (k + sigma)), so that continuing has
    probability P(k, b) - pareto = P(k, b) sigma / (k + sigma). Without perturbation (sigma = 1/(eps tau2) beyond
    the float range) the Pareto term is 0."""
    log_p = k * log_b - special.gammaln(k + 1.0)  # log P(k, b)
    with np.errstate(invalid="ignore"):  # b = 0 and inf give NaN here: set below
        if s == 1:  # halting: K >= k, or the Pareto term
            if math.isfinite(sigma):
                log_pareto = sigma * log_b + _log_upper_gamma_tiny_b(k - sigma, log_b) - special.gammaln(k)
                log_H = np.minimum(np.logaddexp(log_p, log_pareto), 0.0)
            else:
                log_H = log_p
            log_G = log1mexp(log_H)
        else:  # continuing: K < k, less the Pareto term
            log_G = log_p - math.log1p(k / sigma)
            log_H = log1mexp(log_G)
    zero, inf = log_b == -np.inf, log_b > 0.0  # b = 0; b = inf (an edge entry with log_b > 0 overflowed)
    log_G[zero], log_H[zero] = (0.0, -np.inf) if s == 1 else (-np.inf, 0.0)
    log_G[inf], log_H[inf] = (-np.inf, 0.0) if s == 1 else (0.0, -np.inf)
    return log_G, log_H


# ----------------------------------------------------------------------------------------------------------------
# Streams and the outer integral over eta_1
# ----------------------------------------------------------------------------------------------------------------


def _per_step(name: str, val, T: int, dtype) -> np.ndarray:
    """A copy of ``val`` as a (T,) array of ``dtype`` (a scalar repeated); else a ValueError naming ``name``."""
    try:
        return np.broadcast_to(np.asarray(val, dtype=dtype), (T,)).copy()
    except ValueError:
        raise ValueError(
            f"{name} must be a number or have one entry per step (T = {T}). Found shape {np.shape(val)}."
        ) from None


@dataclass(frozen=True)
class Stream:
    """The sequences of a GTM run on a fixed input stream (the analyst's choices along the continuation path).

    Attributes:
        tau1, mu1: shared-noise scale and offset.
        p: success probabilities Pr[M_t(X_t) = +1], shape (T,), in [0, 1].
        eps, tau2, c, rho, s: per-step parameters of Algorithm 1, shape (T,).
        delta: delta_t of each input (purified when > 0, Cor. 25), shape (T,).
        pc: 1 - p, exactly (default: computed as 1 - p); see :func:`counted_success`.

    Every argument is checked first (tau1 > 0, mu1 >= 0, p and pc in [0, 1], eps >= 0, tau2 and rho > 0, c integers
    >= 0, s in {-1, +1}, delta in [0, 1); each a number or one entry per step).

    Raises:
        ValueError: naming the parameter when one (or an element) is outside its range.

    Example:
        >>> from privtest.gtm import GlobalCalibration
        >>> stream = Stream.from_calibration(GlobalCalibration(1.0, 0.05, 1.0, 1.5), [0.1, 0.2], 0.1, 0.5)
        >>> stream.T, stream.c.tolist()
        (2, [282, 362])
    """

    tau1: float
    mu1: float
    p: np.ndarray
    eps: np.ndarray
    tau2: np.ndarray
    c: np.ndarray
    rho: np.ndarray
    s: np.ndarray
    delta: np.ndarray = field(default=None)
    pc: np.ndarray = field(default=None)

    def __post_init__(self):
        _validate.positive("tau1", self.tau1)
        _validate.nonnegative("mu1", self.mu1)
        _validate.interval("p", self.p, 0.0, 1.0, lo_open=False, hi_open=False, scalar=False)
        _validate.nonnegative("eps", self.eps, scalar=False)
        _validate.positive("tau2", self.tau2, scalar=False)
        _validate.integer("c", self.c, 0, scalar=False)
        _validate.positive("rho", self.rho, scalar=False)
        _check_signs("s", self.s)
        if self.delta is not None:
            _validate.delta_range("delta", self.delta, scalar=False)
        if self.pc is not None:
            _validate.interval("pc", self.pc, 0.0, 1.0, lo_open=False, hi_open=False, scalar=False)
        if np.ndim(self.p) > 1:
            raise ValueError(f"p must be a number or a 1-d array (one entry per step). Found shape {np.shape(self.p)}.")
        T = len(np.atleast_1d(self.p))
        if self.pc is None:
            object.__setattr__(self, "pc", 1.0 - np.asarray(self.p, dtype=float))
        conv = {
            "p": float,
            "eps": float,
            "tau2": float,
            "c": np.int64,
            "rho": float,
            "s": np.int64,
            "delta": float,
            "pc": float,
        }
        for name, dtype in conv.items():
            val = getattr(self, name)
            arr = _per_step(name, np.zeros(T) if val is None else val, T, dtype)
            arr.setflags(write=False)
            object.__setattr__(self, name, arr)

    @property
    def T(self) -> int:
        """Number of steps."""
        return len(self.p)

    @classmethod
    def from_params(cls, params, p, delta=0.0, *, tau1=None, mu1=None) -> Stream:
        """Stream from a list of :class:`~privtest.gtm.StepParams` (one per step) and inputs ``p`` (shape (T,)).

        Args:
            params: a non-empty sequence of StepParams (anything with eps_t, tau2, c, rho, s, tau1, mu1).
            p: success probabilities in [0, 1], shape (T,). delta: delta_t in [0, 1) (scalar or (T,)).
            tau1, mu1: override the first step's tau1 (> 0) and mu1 (>= 0).

        Raises:
            ValueError: naming the parameter when one is out of range (or params is empty).
        """
        if not len(params):
            raise ValueError("params must hold one StepParams per step (at least one).")
        _validate.interval("p", p, 0.0, 1.0, lo_open=False, hi_open=False, scalar=False)
        _validate.delta_range("delta", delta, scalar=False)
        tau1 = params[0].tau1 if tau1 is None else tau1
        mu1 = params[0].mu1 if mu1 is None else mu1
        eps, tau2, c, rho, s = np.array([(st.eps_t, st.tau2, st.c, st.rho, st.s) for st in params], dtype=float).T
        return cls(tau1, mu1, np.asarray(p, dtype=float), eps, tau2, c, rho, s, delta)

    @classmethod
    def from_calibration(cls, cal, p, eps_t, pstar, delta=0.0) -> Stream:
        """Stream of len(p) steps of calibration ``cal`` (``step(t, eps_t, pstar)``); eps_t, pstar scalar or (T,).

        Args:
            cal: a calibration (``tau1``, ``mu1``, ``step(t, eps_t, pstar)``).
            p: success probabilities in [0, 1], shape (T,). eps_t: > 0 (scalar or (T,)). pstar: in (0, 1) (scalar or
                (T,)). delta: delta_t in [0, 1) (scalar or (T,)).

        Raises:
            ValueError: naming the parameter when one is out of range.
        """
        _validate.interval("p", p, 0.0, 1.0, lo_open=False, hi_open=False, scalar=False)
        _validate.positive("eps_t", eps_t, scalar=False)
        _validate.open_unit("pstar", pstar, scalar=False)
        _validate.delta_range("delta", delta, scalar=False)
        p = np.atleast_1d(np.asarray(p, dtype=float))
        T = len(p)
        eps_t = np.broadcast_to(np.asarray(eps_t, dtype=float), (T,))
        pstar = np.broadcast_to(np.asarray(pstar, dtype=float), (T,))
        params = [cal.step(t, float(eps_t[t - 1]), float(pstar[t - 1])) for t in range(1, T + 1)]
        return cls.from_params(params, p, delta, tau1=cal.tau1, mu1=cal.mu1)

    def with_p(self, p, pc=None) -> Stream:
        """The same run (all parameters) on other inputs ``p`` (e.g. a neighbouring stream); ``pc`` = 1 - p exactly.

        Args:
            p: success probabilities in [0, 1], shape (T',) with T' <= T. pc: 1 - p in [0, 1], or None.

        Raises:
            ValueError: naming p or pc when out of range.
        """
        _validate.interval("p", p, 0.0, 1.0, lo_open=False, hi_open=False, scalar=False)
        if np.ndim(p) != 1 or len(p) > self.T:
            raise ValueError(f"p must be a 1-d array of at most T = {self.T} entries. Found shape {np.shape(p)}.")
        # The other fields are this stream's, already checked: only p and pc are new (what __post_init__ would
        # check and convert for them, with its messages), the rest are the first T' entries of this stream's arrays.
        n = len(p)
        p = np.array(p, dtype=float)
        if pc is None:
            pc = 1.0 - p
        else:
            _validate.interval("pc", pc, 0.0, 1.0, lo_open=False, hi_open=False, scalar=False)
            pc = _per_step("pc", pc, n, float)
        p.setflags(write=False)
        pc.setflags(write=False)
        out = object.__new__(Stream)
        for name, value in (
            ("tau1", self.tau1),
            ("mu1", self.mu1),
            ("p", p),
            ("eps", self.eps[:n]),
            ("tau2", self.tau2[:n]),
            ("c", self.c[:n]),
            ("rho", self.rho[:n]),
            ("s", self.s[:n]),
            ("delta", self.delta[:n]),
            ("pc", pc),
        ):
            object.__setattr__(out, name, value)
        return out

    def head(self, T: int) -> Stream:
        """The first T steps (T an integer in [1, self.T]).

        Raises:
            ValueError: naming T when out of range.
        """
        T = _validate.integer("T", T, 1, maximum=self.T)
        return Stream(
            self.tau1,
            self.mu1,
            self.p[:T],
            self.eps[:T],
            self.tau2[:T],
            self.c[:T],
            self.rho[:T],
            self.s[:T],
            self.delta[:T],
            self.pc[:T],
        )

    def q(self) -> np.ndarray:
        """Success probability of the counted mechanism at every step (purified, negated when s = -1)."""
        return _counted_success(self.p, self.s, self.delta, self.eps, self.pc)


def panel_width(tau1: float, tau2, eps, c) -> float:
    r"""Width of the Gauss-Legendre panels of the eta_1 integral.

    A step's factor varies on the scale tau2 on its smooth side and on the scale 1/(eps sqrt(c+1)) (the width of the
    Poisson CDF's transition in log lambda) on its steep side; the panel is a fraction of the smallest scale.

    Args:
        tau1: > 0. tau2: > 0 (scalar or per step). eps: eps_t >= 0 (scalar or per step). c: integers >= 0.

    Returns:
        float: the panel width (> 0).

    Raises:
        ValueError: naming the parameter when one (or an element) is outside its range.

    Example:
        >>> round(panel_width(3.0, [2.0, 4.0], [0.1, 0.1], [30, 40]), 6)
        2.0
    """
    _validate.positive("tau1", tau1)
    _validate.positive("tau2", tau2, scalar=False)
    _validate.nonnegative("eps", eps, scalar=False)
    _validate.integer("c", c, 0, scalar=False)
    return panel_width_unchecked(tau1, tau2, eps, c)


def x_nodes(tau1: float, mu1: float, h: float, log_floor: float = -100.0):
    """Composite Gauss-Legendre nodes and log weights on [0, X], X = mu1 + tau1 (-log_floor) (>= 1 panel).

    Args:
        tau1: > 0. mu1: >= 0. h: panel width > 0. log_floor: < 0, finite (the truncation keeps e^{log_floor}).

    Returns:
        (x, log_w, X): nodes (J,), log weights (J,), and the truncation point.

    Raises:
        ValueError: naming the parameter when one is out of range (or more than 10^8 nodes would be needed).

    Example:
        >>> x, log_w, X = x_nodes(1.0, 2.0, 51.0)
        >>> x.shape, X
        ((32,), 102.0)
    """
    _validate.positive("tau1", tau1)
    _validate.nonnegative("mu1", mu1)
    _validate.positive("h", h)
    _validate.negative("log_floor", log_floor)
    if (mu1 + tau1 * (-log_floor)) / h > 1e8 / GL_NODES:
        raise ValueError(f"h must be at least (mu1 + tau1 (-log_floor)) / 10^8 per node. Found h = {h!r}.")
    return x_nodes_unchecked(tau1, mu1, h, log_floor)


@dataclass(frozen=True)
class TranscriptLogProbs:
    """Log-probabilities of every reachable transcript of a T-step run.

    Attributes:
        log_continue: (T,) log Pr[a_[t] = (-s_1, ..., -s_t)] (continue through t).
        log_halt: (T,) log Pr[a_[t] = (-s_1, ..., -s_{t-1}, s_t)] (halt at t).
        log_halt_within: (T,) log Pr[halt at some step <= t].
        log_tail_bound: the quadrature omits eta_1 > X; every probability above is exact up to an additive
            e^{log_tail_bound} (and quadrature error, relative ~1e-10).
        log_continue_alt: (T,) log Pr[continue through t] when step t uses ``p_halt`` (the continuations before it use
            p); None unless ``p_halt`` is given. Used for "continue at a step with p_t = p*" (Type II) errors.
        log_halt_p: (T,) log Pr[halt at t] with ``stream.p`` at every step (``log_halt`` of the same call without
            ``p_halt``, computed on the way); None unless ``p_halt`` is given.

    A result record (what :func:`transcript_log_probs` returns); its fields are outputs, not checked arguments.

    Example:
        >>> from privtest.gtm import GlobalCalibration
        >>> stream = Stream.from_calibration(GlobalCalibration(1.0, 0.05, 1.0, 1.5), [0.9], 0.1, 0.5)
        >>> probs = transcript_log_probs(stream)
        >>> bool(np.isclose(np.exp(probs.log_continue[0]) + np.exp(probs.log_halt[0]), 1.0))
        True
    """

    log_continue: np.ndarray
    log_halt: np.ndarray
    log_halt_within: np.ndarray
    log_tail_bound: float
    log_continue_alt: np.ndarray | None = None
    log_halt_p: np.ndarray | None = None


def logsumexp(v, axis=-1):
    """log sum exp(v) along ``axis``, stable when every term is tiny (all -inf gives -inf).

    Args:
        v: real array (entries may be -inf or +inf, never NaN). axis: an integer axis of ``v``.

    Returns:
        ndarray (``v``'s shape without ``axis``; a 0-d array for 1-d ``v``).

    Raises:
        ValueError: naming v or axis when invalid.

    Example:
        >>> round(float(logsumexp(np.array([-1000.0, -1000.0]))), 6)
        -999.306853
    """
    arr = _validate.real("v", v, scalar=False)
    if np.isnan(np.asarray(arr, dtype=float)).any():
        raise ValueError(f"v must not contain NaN. Found {_validate.fmt(v)}.")
    axis = _validate.integer("axis", axis, -np.ndim(arr), maximum=max(np.ndim(arr) - 1, 0))
    return logsumexp_unchecked(np.asarray(arr, dtype=float), axis)


_NODES: OrderedDict = OrderedDict()


def _nodes(tau1: float, mu1: float, h: float, log_floor: float):
    """(log_f1, a, X) of :func:`transcript_log_probs`: log(Exp(tau1) density x weight) and a = mu1 - x at the eta_1
    nodes x of :func:`x_nodes_unchecked`, and the truncation point X; the arrays of the last few (tau1, mu1, h,
    log_floor), kept read-only (the same computation every time)."""
    key = np.array([tau1, mu1, h, log_floor], dtype=float).tobytes()
    hit = _NODES.get(key)
    if hit is not None:
        _NODES.move_to_end(key)
        return hit
    x, log_w, X = x_nodes_unchecked(tau1, mu1, h, log_floor)
    log_f1 = -x / tau1 - math.log(tau1) + log_w
    a = mu1 - x
    log_f1.flags.writeable = a.flags.writeable = False
    _NODES[key] = (log_f1, a, X)
    if len(_NODES) > 16:
        _NODES.popitem(last=False)
    return log_f1, a, X


class _FactorCache:
    """The step factors (:func:`_log_step_factors`) of recent (nodes, q, step) arguments, least recently used dropped
    first beyond ``max_elements`` cached floats. A search over input sequences (:mod:`privtest.privacy`) evaluates the
    same step at the same input again and again (a Nelder-Mead move changes a few coordinates); a hit returns the
    very arrays computed before (read-only), so results are bit-identical to recomputing them."""

    def __init__(self, max_elements: int = 1 << 22):
        self.max_elements = max_elements
        self.entries: OrderedDict = OrderedDict()
        self.elements = 0

    def get(self, nodes: tuple, a: np.ndarray, q, args: tuple):
        """``_log_step_factors(a, q, *args)`` for the nodes a computed from ``nodes`` (tau1, mu1, h, log_floor)."""
        key = (
            np.array([*nodes, *args], dtype=float).tobytes() + np.asarray(q, dtype=float).tobytes() + bytes(np.ndim(q))
        )
        hit = self.entries.get(key)
        if hit is not None:
            self.entries.move_to_end(key)
            return hit
        lG, lH = _log_step_factors(a, q, *args)
        lG.flags.writeable = lH.flags.writeable = False
        self.entries[key] = (lG, lH)
        self.elements += lG.size + lH.size
        while self.elements > self.max_elements and len(self.entries) > 1:
            _, (g, hh) = self.entries.popitem(last=False)
            self.elements -= g.size + hh.size
        return lG, lH


_STEP_FACTORS = _FactorCache()


def transcript_log_probs(
    stream: Stream,
    *,
    p_halt=None,
    pc_halt=None,
    log_floor: float = -100.0,
    refine: float = 1.0,
    shared_eta1: bool = True,
) -> TranscriptLogProbs:
    """Exact log-probabilities of all 2T transcripts of ``stream`` (continue through t, halt at t, halt within t).

    Args:
        stream: the run's sequences (:class:`Stream`).
        p_halt: optional (T,) inputs used at the halting step of each halt-at-t transcript instead of ``stream.p``
            (log_halt[t] then uses p_1..p_{t-1} for the continuations and p_halt[t] at step t). The privacy search
            uses it to evaluate, in one pass, the worst neighbour of every halting transcript. ``pc_halt`` = 1 - p_halt.
        log_floor: eta_1 is integrated up to X = mu1 + tau1 (-log_floor): probabilities far above e^{log_floor}
            are unaffected by the truncation (its effect is at most e^{-X/tau1} <= e^{log_floor}).
        refine: divide the panel width by this factor (accuracy checks).
        shared_eta1: True for Algorithm 1. False redraws eta_1 at every step (a deliberately broken variant used to
            test that the privacy check detects it); then steps are independent and probabilities multiply.

    Returns:
        :class:`TranscriptLogProbs`.

    Raises:
        TypeError: if ``stream`` is not a :class:`Stream`.
        ValueError: naming p_halt, pc_halt (outside [0, 1] or not of length T), log_floor (not a finite negative
            number), refine (not > 0 and finite) or shared_eta1 (not a bool).

    Example:
        >>> from privtest.gtm import GlobalCalibration
        >>> stream = Stream.from_calibration(GlobalCalibration(1.0, 0.05, 1.0, 1.5), [0.01, 0.01, 0.9], 0.1, 0.5)
        >>> probs = transcript_log_probs(stream)
        >>> np.exp(probs.log_halt_within).round(4).tolist()
        [0.0002, 0.0003, 0.9995]
    """
    _check_stream("stream", stream)
    for name, v in (("p_halt", p_halt), ("pc_halt", pc_halt)):
        if v is not None:
            _validate.interval(name, v, 0.0, 1.0, lo_open=False, hi_open=False, scalar=False)
            if np.shape(v) != (stream.T,):
                raise ValueError(f"{name} must have one entry per step, shape ({stream.T},). Found {np.shape(v)}.")
    _validate.negative("log_floor", log_floor)
    _validate.positive("refine", refine)
    _validate.boolean("shared_eta1", shared_eta1)
    h = panel_width_unchecked(stream.tau1, stream.tau2, stream.eps, stream.c) / float(refine)
    log_f1, a, X = _nodes(stream.tau1, stream.mu1, h, log_floor)
    q = stream.q()
    q_halt = q if p_halt is None else _counted_success(p_halt, stream.s, stream.delta, stream.eps, pc_halt)
    T = stream.T
    log_cont, log_halt, log_alt, log_halt_p = np.empty(T), np.empty(T), np.empty(T), np.empty(T)
    cum = log_f1.copy() if shared_eta1 else 0.0
    nodes = (stream.tau1, stream.mu1, h, log_floor)  # a is a function of these
    for i in range(T):
        args = (stream.eps[i], stream.tau2[i], stream.c[i], stream.rho[i], stream.s[i])
        if q_halt is not q and q_halt[i] != q[i]:  # both inputs in one call (rows: p, p_halt)
            lGs, lHs = _STEP_FACTORS.get(nodes, a, np.array([[q[i]], [q_halt[i]]]), args)
            lG, lH_p, lG_alt, lH = lGs[0], lHs[0], lGs[1], lHs[1]
        else:
            lG, lH = _STEP_FACTORS.get(nodes, a, q[i], args)
            lG_alt, lH_p = lG, lH
        if shared_eta1:
            log_halt[i] = logsumexp_unchecked(cum + lH)
            log_halt_p[i] = log_halt[i] if lH_p is lH else logsumexp_unchecked(cum + lH_p)
            log_alt[i] = logsumexp_unchecked(cum + lG_alt)
            cum = cum + lG
            log_cont[i] = logsumexp_unchecked(cum)
        else:
            lg, lh = logsumexp_unchecked(log_f1 + lG), logsumexp_unchecked(log_f1 + lH)
            log_halt[i] = cum + lh
            log_halt_p[i] = log_halt[i] if lH_p is lH else cum + logsumexp_unchecked(log_f1 + lH_p)
            log_alt[i] = cum + logsumexp_unchecked(log_f1 + lG_alt)
            cum = cum + lg
            log_cont[i] = cum
    log_within = np.logaddexp.accumulate(log_halt)
    alt = p_halt is not None
    return TranscriptLogProbs(
        log_cont, log_halt, log_within, -X / stream.tau1, log_alt if alt else None, log_halt_p if alt else None
    )


def _check_stream(name: str, stream) -> None:
    if not isinstance(stream, Stream):
        raise TypeError(f"{name} must be a privtest.exact.Stream. Found {type(stream).__name__}.")


def _check_step_params(st) -> None:
    """A step's parameters (StepParams or the like): ValueError naming st.<attribute> when missing or out of range."""
    try:
        tau1, mu1, eps_t, tau2, c, rho, s = st.tau1, st.mu1, st.eps_t, st.tau2, st.c, st.rho, st.s
    except AttributeError as e:
        raise ValueError(f"st must have tau1, mu1, eps_t, tau2, c, rho and s (a StepParams). {e}") from None
    _validate.positive("st.tau1", tau1)
    _validate.nonnegative("st.mu1", mu1)
    _validate.nonnegative("st.eps_t", eps_t)
    _validate.positive("st.tau2", tau2)
    _validate.integer("st.c", c, 0)
    _validate.positive("st.rho", rho)
    _validate.sign("st.s", s)


def step_log_halt(st, p, delta: float = 0.0, *, log_floor: float = -100.0, refine: float = 1.0) -> np.ndarray:
    """log Pr[one GTM step with parameters ``st`` halts] for each input success probability in ``p``.

    eta_1 ~ Exp(tau1) is integrated out (fresh Init, as in :func:`privtest.runs.halting_probability`).

    Args:
        st: :class:`~privtest.gtm.StepParams` (or anything with tau1, mu1, eps_t, tau2, c, rho, s).
        p: array of success probabilities in [0, 1].
        delta: delta_t of the inputs (purified when > 0), in [0, 1).
        log_floor, refine: as in :func:`transcript_log_probs`.

    Returns:
        ndarray with the shape of ``p``: natural logarithms of probabilities.

    Raises:
        ValueError: naming the parameter when one is out of range (st: a step attribute out of range or missing).

    Example:
        >>> from privtest.gtm import GlobalCalibration
        >>> st = GlobalCalibration(1.0, 0.05, 1.0, 1.5).step(1, 0.1, 0.5)
        >>> np.exp(step_log_halt(st, [0.001, 0.5])).round(4).tolist()
        [0.0, 0.9965]
    """
    return step_log_probs(st, p, delta, log_floor=log_floor, refine=refine)[0]


def step_log_probs(
    st, p, delta: float = 0.0, *, eta1_max: float | None = None, log_floor: float = -100.0, refine: float = 1.0
) -> tuple[np.ndarray, np.ndarray]:
    """(log Pr[halt], log Pr[continue]) of one GTM step for each input success probability in ``p``, eta_1 ~ Exp(tau1)
    integrated out; with ``eta1_max``, conditioned on eta_1 <= eta1_max (e.g. mu1: the part of Lemma 19's good event
    that Lemma 20's halting guarantee needs, Theorems 21 and 23).

    Both are computed from the step's own factors (no 1 - x cancellation), so a continuation probability of 1e-13 keeps
    its digits.

    Args:
        st: :class:`~privtest.gtm.StepParams` (or anything with tau1, mu1, eps_t, tau2, c, rho, s).
        p: array of success probabilities in [0, 1].
        delta: delta_t of the inputs (purified when > 0).
        eta1_max: None (unconditional) or > 0.

    Returns:
        (log_halt, log_continue), ndarrays with the shape of ``p``.

    Raises:
        ValueError: if p is outside [0, 1], delta outside [0, 1), eta1_max not > 0, log_floor not a finite negative
            number, refine not > 0 or a step attribute of st out of range (naming the parameter).

    Example:
        >>> from privtest.gtm import GlobalCalibration
        >>> st = GlobalCalibration(1.0, 0.05, 1.0, 1.5).step(1, 0.1, 0.5)
        >>> halt, cont = step_log_probs(st, [0.5], eta1_max=st.mu1)
        >>> float(np.exp(cont[0])) < 0.05
        True
    """
    _check_step_params(st)
    _validate.interval("p", p, 0.0, 1.0, lo_open=False, hi_open=False, scalar=False)
    _validate.delta_range("delta", delta)
    if eta1_max is not None:
        _validate.positive("eta1_max", eta1_max)
    _validate.negative("log_floor", log_floor)
    _validate.positive("refine", refine)
    p = np.atleast_1d(np.asarray(p, dtype=float))
    h = panel_width_unchecked(st.tau1, st.tau2, st.eps_t, st.c) / float(refine)
    x, log_w, X = x_nodes_unchecked(st.tau1, st.mu1, h, log_floor)
    log_norm = 0.0
    if eta1_max is not None:
        upper = min(float(eta1_max), X)
        n_panels = max(1, math.ceil(upper / h))
        edges = np.linspace(0.0, upper, n_panels + 1)
        half, mid = np.diff(edges) / 2.0, (edges[:-1] + edges[1:]) / 2.0
        x = (mid[:, None] + half[:, None] * GL_X[None, :]).ravel()
        log_w = np.log((half[:, None] * GL_W[None, :]).ravel())
        log_norm = float(log1mexp(-upper / st.tau1))  # log Pr[eta_1 <= upper]
    log_f1 = -x / st.tau1 - math.log(st.tau1) + log_w - log_norm
    q = _counted_success(p, st.s, delta, st.eps_t)
    log_halt, log_cont = np.empty(p.shape), np.empty(p.shape)
    for i, qi in enumerate(q):
        lG, lH = _log_step_factors(st.mu1 - x, float(qi), st.eps_t, st.tau2, st.c, st.rho, st.s)
        log_halt[i], log_cont[i] = logsumexp_unchecked(log_f1 + lH), logsumexp_unchecked(log_f1 + lG)
    return log_halt, log_cont
