"""Unchecked numerical kernels of the exact transcript probabilities (:mod:`privtest.exact`) and of the exact-tail
calibrations' transcript pass (:mod:`privtest.calibration`): incomplete gamma functions in log space (regularized
P and Q, the unregularized upper Gamma(s, x) for any real s, by scipy with series / continued-fraction / recurrence
fall-backs where scipy underflows), log(1 - e^x), a stable log-sum-exp, and the Gauss-Legendre / Gauss-Laguerre
quadrature rules and nodes of the eta_1 integral.

None of these functions validates its arguments: they assume arrays already checked by their caller (a checked
:class:`privtest.exact.Stream` or step) and return nan or garbage otherwise. The checked versions, with the argument
ranges, error messages and examples, are the public functions of :mod:`privtest.exact` (``log_gammainc``,
``log_gammaincc``, ``log_upper_gamma``, ``logsumexp``, ``panel_width``, ``x_nodes``), which call these kernels.
"""

from __future__ import annotations

import functools
import math

import numpy as np
from scipy import special

__all__ = [
    "GL_NODES",
    "GL_W",
    "GL_X",
    "MAX_RECURRENCE",
    "NEAR_INTEGER",
    "TINY",
    "laguerre_rule",
    "log1mexp",
    "log_gammainc_unchecked",
    "log_gammaincc_unchecked",
    "log_p_series",
    "log_upper_cf",
    "log_upper_gamma_small_x",
    "log_upper_gamma_unchecked",
    "logsumexp_unchecked",
    "panel_width_unchecked",
    "x_nodes_unchecked",
]

#: Values of scipy's regularized incomplete gamma functions below this are recomputed in log space.
TINY = 1e-280
#: Gauss-Legendre nodes per panel of the outer (eta_1) integral.
GL_NODES = 16
#: Gauss-Legendre nodes and weights on [-1, 1] (GL_NODES of each).
GL_X, GL_W = np.polynomial.legendre.leggauss(GL_NODES)


@functools.cache
def laguerre_rule() -> tuple[np.ndarray, np.ndarray]:
    """Nodes and weights of the 64-point Gauss-Laguerre rule for the deep-tail continuation integral of the direct
    variant. Computed on first use, not at import: scipy's ``roots_laguerre`` imports scipy.linalg."""
    return special.roots_laguerre(64)


# ----------------------------------------------------------------------------------------------------------------
# Incomplete gamma functions in log space
# ----------------------------------------------------------------------------------------------------------------
def log_p_series(a, x):
    """log P(a, x) by the series x^a e^-x / Gamma(a+1) * sum_n x^n / ((a+1)...(a+n)); any finite x > 0, fast for x < a.
    An element whose sum is not finite (a NaN argument) does not hold back the stopping rule of the others."""
    a = np.asarray(a, dtype=float)
    x = np.asarray(x, dtype=float)
    term = np.ones(np.broadcast(a, x).shape)
    total = term.copy()
    n = 0
    while True:
        n += 1
        term = term * x / (a + n)
        total = total + term
        if ((term <= 1e-16 * total) | ~np.isfinite(total)).all() or n > 100000:
            break
    return a * np.log(x) - x - special.gammaln(a + 1.0) + np.log(total)


def log_upper_cf(s, x):
    """log Gamma(s, x) (unregularized) by the modified-Lentz continued fraction; valid for x > 0, fast for x > s + 1.

    At x = inf (an argument that overflowed upstream) it is -inf (Gamma(s, inf) = 0), and NaN where s or x is NaN or s
    is infinite: such elements take no part in the iteration, whose stopping rule they would never meet."""
    s = np.asarray(s, dtype=float)
    x = np.asarray(x, dtype=float)
    s, x = np.broadcast_arrays(s, x)
    finite = np.isfinite(s) & np.isfinite(x)
    if not finite.all():
        out = np.where(np.isfinite(s) & (x == np.inf), -np.inf, np.nan)
        out[finite] = log_upper_cf(s[finite], x[finite])
        return out
    tiny = 1e-300
    bb = x + 1.0 - s
    c = np.full(bb.shape, 1.0 / tiny)
    d = 1.0 / np.where(np.abs(bb) < tiny, tiny, bb)
    h = d.copy()
    for i in range(1, 100000):
        an = -i * (i - s)
        bb = bb + 2.0
        d = an * d + bb
        d = np.where(np.abs(d) < tiny, tiny, d)
        c = bb + an / c
        c = np.where(np.abs(c) < tiny, tiny, c)
        d = 1.0 / d
        delta = d * c
        h = h * delta
        if (np.abs(delta - 1.0) < 1e-15).all():
            break
    return -x + s * np.log(x) + np.log(h)


def log_gammainc_unchecked(a, x):
    """log P(a, x): :func:`privtest.exact.log_gammainc` without its checks (a > 0, x >= 0, broadcast)."""
    a, x = np.asarray(a, dtype=float), np.asarray(x, dtype=float)
    if a.ndim == 0:  # one shape for every x (the usual call): no array of copies of it
        shape, x = x.shape, x.ravel()
        a_bad = a
    else:
        a, x = np.broadcast_arrays(a, x)
        shape, a, x = a.shape, a.ravel(), x.ravel()
        a_bad = None
    with np.errstate(divide="ignore"):
        v = special.gammainc(a, x)
        out = np.log(v)
    bad = (v < TINY) & (x > 0)
    if np.any(bad):
        out[bad] = log_p_series(a[bad] if a_bad is None else a_bad, x[bad])
    return out.reshape(shape)


def log_gammaincc_unchecked(a, x):
    """log Q(a, x): :func:`privtest.exact.log_gammaincc` without its checks (a > 0, x >= 0, broadcast)."""
    a, x = np.asarray(a, dtype=float), np.asarray(x, dtype=float)
    if a.ndim == 0:  # one shape for every x (the usual call): no array of copies of it
        shape, x = x.shape, x.ravel()
    else:
        a, x = np.broadcast_arrays(a, x)
        shape, a, x = a.shape, a.ravel(), x.ravel()
    with np.errstate(divide="ignore"):
        v = special.gammaincc(a, x)
        out = np.log(v)
    bad = v < TINY
    if np.any(bad):
        a_bad = a if a.ndim == 0 else a[bad]
        out[bad] = log_upper_cf(a_bad, x[bad]) - special.gammaln(a_bad)
    return out.reshape(shape)


#: Near-integer shapes below which the downward recurrence of :func:`log_upper_gamma_small_x` loses digits (it
#: divides by s + n - 1 = -(1 - a0)): a0 = s + ceil(-s) within this of 1 goes to mpmath; so do recurrences longer than
#: MAX_RECURRENCE steps.
NEAR_INTEGER = 1e-3
MAX_RECURRENCE = 1000


def log_upper_gamma_small_x(s, x):
    """log Gamma(s, x) for s <= 0 and 0 < x <= 1 (1-d arrays) by the downward recurrence
    Gamma(a - 1, x) = (Gamma(a, x) - x^(a-1) e^-x) / (a - 1) from a0 = s + ceil(-s) in [0, 1) (scipy: Q(a0, x)
    Gamma(a0), or E_1(x) at a0 = 0), on the scaled r_a = Gamma(a, x) x^-a e^x, r_(a-1) = (x r_a - 1) / (a - 1)
    (no overflow). For x <= 1 and a <= 0 each step shrinks the relative error (|x r_a / (a - 1)| / r_(a-1) <= 1/2);
    only the first step, dividing by a0 - 1, amplifies it, by 1/(1 - a0).

    Returns:
        (log Gamma(s, x), ok): ok is False where this is not accurate to ~1e-13 (a0 within :data:`NEAR_INTEGER` of 1,
        Q(a0, x) below scipy's underflow, or more than :data:`MAX_RECURRENCE` steps); those entries are nan.
    """
    n = np.ceil(-s)
    a0 = s + n
    ok = (1.0 - a0 >= NEAR_INTEGER) & (n <= MAX_RECURRENCE)
    log_r = np.full(s.shape, np.nan)
    zero = ok & (a0 == 0)
    log_r[zero] = np.log(special.exp1(x[zero])) + x[zero]  # Gamma(0, x) = E_1(x)
    frac = ok & (a0 > 0)
    q = special.gammaincc(a0[frac], x[frac])
    log_r[frac] = np.log(q) + special.gammaln(a0[frac]) + x[frac] - a0[frac] * np.log(x[frac])
    ok[frac] = q >= TINY
    ok &= np.isfinite(log_r)
    r, a, n, x = np.exp(log_r[ok]), a0[ok], n[ok], x[ok]
    for i in range(int(n.max()) if n.size else 0):
        step = i < n
        r = np.where(step, (x * r - 1.0) / np.where(step, a - 1.0, -1.0), r)
        a = np.where(step, a - 1.0, a)
    out = np.full(s.shape, np.nan)
    out[ok] = np.log(r) + s[ok] * np.log(x) - x
    return out, ok


def log_upper_gamma_unchecked(s, x):
    """log Gamma(s, x) for real s and x > 0: :func:`privtest.exact.log_upper_gamma` without its checks."""
    s, x = np.asarray(s, dtype=float), np.asarray(x, dtype=float)
    if s.ndim == 0 and s > 0:  # one positive shape for every x (the usual call): scipy throughout
        return np.asarray(log_gammaincc_unchecked(s, x) + special.gammaln(s))
    s, x = np.broadcast_arrays(s, x)
    out = np.empty(s.shape)
    pos = s > 0
    if np.any(pos):
        out[pos] = log_gammaincc_unchecked(s[pos], x[pos]) + special.gammaln(s[pos])
    neg = ~pos
    if np.any(neg):
        cf = neg & (x > 1.0)
        if np.any(cf):
            out[cf] = log_upper_cf(s[cf], x[cf])
        small = neg & ~(x > 1.0)
        if np.any(small):
            vals, ok = log_upper_gamma_small_x(s[small], x[small])
            out[small] = vals
            slow = np.zeros(s.shape, dtype=bool)
            slow[small] = ~ok
            if np.any(slow):
                import mpmath

                for idx in zip(*np.nonzero(slow), strict=True):
                    out[idx] = float(mpmath.log(mpmath.gammainc(s[idx], x[idx])))
    return out


# ----------------------------------------------------------------------------------------------------------------
# log(1 - e^x) and log-sum-exp
# ----------------------------------------------------------------------------------------------------------------
def log1mexp(x):
    """log(1 - e^x) for x <= 0, accurate at both ends."""
    x = np.asarray(x, dtype=float)
    near = x > -0.6931
    out = np.empty(x.shape)
    with np.errstate(divide="ignore", invalid="ignore"):
        out[near] = np.log(-np.expm1(x[near]))
        far = ~near
        out[far] = np.log1p(-np.exp(x[far]))  # numpy's log1p is slow: only where it is needed
    return out


def logsumexp_unchecked(v, axis=-1):
    """log sum exp(v) along ``axis`` (all -inf gives -inf): :func:`privtest.exact.logsumexp` without its checks."""
    if v.ndim == 1 and axis in (0, -1) and v.size:  # one sum (the usual call): the same operations on scalars
        m = v.max()
        if not np.isfinite(m):
            m = np.float64(0.0)
        with np.errstate(divide="ignore"):
            return m + np.log(np.sum(np.exp(v - m)))
    m = np.max(v, axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    with np.errstate(divide="ignore"):
        return np.squeeze(m, axis=axis) + np.log(np.sum(np.exp(v - m), axis=axis))


# ----------------------------------------------------------------------------------------------------------------
# Quadrature of the outer (eta_1) integral
# ----------------------------------------------------------------------------------------------------------------
def panel_width_unchecked(tau1, tau2, eps, c) -> float:
    """The eta_1 panel width: :func:`privtest.exact.panel_width` without its checks."""
    tau2, eps, c = (np.asarray(v, dtype=float) for v in (tau2, eps, c))
    steep = np.where(eps > 0, 3.0 / np.maximum(eps * np.sqrt(c + 1.0), 1e-300), np.inf)
    return float(min(tau1, float(np.min(tau2)), float(np.min(steep))))


def x_nodes_unchecked(tau1, mu1, h, log_floor=-100.0):
    """(x, log_w, X), the eta_1 nodes: :func:`privtest.exact.x_nodes` without its checks."""
    X = mu1 + tau1 * (-log_floor)
    n_panels = max(1, math.ceil(X / h))
    edges = np.linspace(0.0, X, n_panels + 1)
    half = np.diff(edges) / 2.0
    mid = (edges[:-1] + edges[1:]) / 2.0
    x = (mid[:, None] + half[:, None] * GL_X[None, :]).ravel()
    w = (half[:, None] * GL_W[None, :]).ravel()
    return x, np.log(w), X
