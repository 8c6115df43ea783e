"""Poisson mean thresholds of eqs. (3)-(4), Lemma 10 and the count threshold of Lemma 11.

``lambda_left``/``lambda_right`` are the Chernoff-derived sufficient conditions the paper's calibration uses;
exact Poisson tails come from ``scipy.stats.poisson`` (see :func:`cdf`, :func:`sf`).
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats

from privtest import _validate


def _level_and_log(x, alpha):
    """The validated count level x (float array) and L = ln(1/alpha) of eqs. (3)-(4)."""
    _validate.nonnegative("x", x, scalar=False)
    _validate.open_unit("alpha", alpha, scalar=False)
    return np.asarray(x, dtype=float), -np.log(np.asarray(alpha, dtype=float))


def lambda_left(x, alpha):
    r"""Left mean threshold, eq. (3): :math:`\lambda^\ell(x,\alpha) = x + L + \sqrt{2xL + L^2}`, L = ln(1/alpha).

    If M ~ Po(lambda) and lambda >= lambda_left(c, alpha) then Pr[M <= c] <= alpha (Lemma 10(3a)).

    Args:
        x: count level, real >= 0 (scalar or array).
        alpha: tail probability in (0, 1) (scalar or array, broadcast with ``x``).

    Returns:
        float or ndarray (broadcast shape), a Poisson mean.

    Raises:
        ValueError: if ``x`` < 0 or ``alpha`` outside (0, 1).
    """
    x, L = _level_and_log(x, alpha)
    out = x + L + np.sqrt(2.0 * x * L + L * L)
    return float(out) if out.ndim == 0 else out


def lambda_right(x, alpha):
    r"""Right mean threshold, eq. (4): :math:`\lambda^r(x,\alpha) = x + 1 - \sqrt{2(x+1)L}`, L = ln(1/alpha).

    If x + 1 >= 2L and lambda <= lambda_right(c, alpha) then Pr[M >= c+1] <= alpha (Lemma 10(3b)).
    The value can be negative when x + 1 < 2L (the bound is then vacuous).

    Args:
        x: count level, real >= 0 (scalar or array).
        alpha: tail probability in (0, 1).

    Raises:
        ValueError: if ``x`` < 0 or ``alpha`` outside (0, 1).
    """
    x, L = _level_and_log(x, alpha)
    out = x + 1.0 - np.sqrt(2.0 * (x + 1.0) * L)
    return float(out) if out.ndim == 0 else out


def count_threshold(alpha: float, beta: float, gamma: float) -> int:
    r"""Integer count threshold c of Lemma 11 (Poisson overhead control).

    With A = ln(1/alpha), B = ln(1/beta) and
    :math:`r = \frac{\sqrt{2A}+\gamma\sqrt{2B}+\sqrt{(\sqrt{2A}+\gamma\sqrt{2B})^2+8(\gamma-1)A}}{2(\gamma-1)}`,
    returns :math:`c = \max(\lfloor 2\max(A,B)\rfloor, \lceil r^2\rceil)`, which satisfies
    lambda_left(c, alpha) <= gamma * lambda_right(c, beta) and c + 1 > 2 max(A, B).

    Args:
        alpha: left-tail error in (0, 1) (the Type II budget for the direct variant).
        beta: right-tail error in (0, 1).
        gamma: target ratio in (1, 2].

    Returns:
        int: c >= 0.

    Raises:
        ValueError: if ``alpha`` or ``beta`` is outside (0, 1) or ``gamma`` outside (1, 2].
    """
    _validate.open_unit("alpha", alpha)
    _validate.open_unit("beta", beta)
    _validate.gamma_range(gamma)
    A = -math.log(alpha)
    B = -math.log(beta)
    a = math.sqrt(2 * A) + gamma * math.sqrt(2 * B)
    r = (a + math.sqrt(a * a + 8 * (gamma - 1) * A)) / (2 * (gamma - 1))
    return int(max(math.floor(2 * max(A, B)), math.ceil(r * r)))


def cdf(c, mean):
    """Exact Poisson CDF Pr[Po(mean) <= c] (``scipy.stats.poisson.cdf``), broadcast over arrays."""
    return stats.poisson.cdf(c, mean)


def sf(c, mean):
    """Exact Poisson survival Pr[Po(mean) >= c + 1] (``scipy.stats.poisson.sf``), broadcast over arrays."""
    return stats.poisson.sf(c, mean)


def logcdf(c, mean):
    """log Pr[Po(mean) <= c], accurate far into the tail (``scipy.stats.poisson.logcdf``)."""
    return stats.poisson.logcdf(c, mean)


def logsf(c, mean):
    """log Pr[Po(mean) >= c + 1], accurate far into the tail (``scipy.stats.poisson.logsf``)."""
    return stats.poisson.logsf(c, mean)
