"""Poisson mean thresholds of eqs. (3)-(4), Lemma 10 and the count threshold of Lemma 11.

``lambda_left``/``lambda_right`` are the Chernoff-derived sufficient conditions the paper's calibration uses;
exact Poisson tails come from ``scipy.stats.poisson`` (see :func:`cdf`, :func:`sf`). Every function checks its
arguments first (ValueError naming the parameter and its range).
"""

from __future__ import annotations

import math

import numpy as np

from privtest import _validate

__all__ = ["cdf", "count_threshold", "lambda_left", "lambda_right", "logcdf", "logsf", "sf"]


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
        ValueError: if an element of ``x`` is negative or not finite, or of ``alpha`` outside (0, 1) (naming it).

    Example:
        >>> round(lambda_left(10, 0.05), 4)
        21.2957
        >>> lambda_left([0, 10], 0.05).round(4).tolist()
        [5.9915, 21.2957]
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
        alpha: tail probability in (0, 1) (scalar or array, broadcast with ``x``).

    Returns:
        float or ndarray (broadcast shape), a Poisson mean (possibly negative: vacuous).

    Raises:
        ValueError: if an element of ``x`` is negative or not finite, or of ``alpha`` outside (0, 1) (naming it).

    Example:
        >>> round(lambda_right(10, 0.05), 4)
        2.8817
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
        ValueError: if ``alpha`` or ``beta`` is outside (0, 1) or ``gamma`` outside (1, 2] (naming it).

    Example:
        >>> count_threshold(0.05, 0.05, 1.5)
        173
    """
    _validate.open_unit("alpha", alpha)
    _validate.open_unit("beta", beta)
    _validate.gamma_range(gamma)
    A = -math.log(alpha)
    B = -math.log(beta)
    a = math.sqrt(2 * A) + gamma * math.sqrt(2 * B)
    r = (a + math.sqrt(a * a + 8 * (gamma - 1) * A)) / (2 * (gamma - 1))
    return int(max(math.floor(2 * max(A, B)), math.ceil(r * r)))


def _tail_args(c, mean) -> None:
    _validate.integer("c", c, 0, scalar=False)
    _validate.nonnegative("mean", mean, scalar=False)


def cdf(c, mean):
    """Exact Poisson CDF Pr[Po(mean) <= c] (``scipy.stats.poisson.cdf``; Lemma 10's left tail, exactly).

    Args:
        c: count level, an integer >= 0 (scalar or integer array).
        mean: Poisson mean >= 0, finite (scalar or array, broadcast with ``c``).

    Returns:
        float ndarray (0-d for scalars) of probabilities.

    Raises:
        ValueError: naming c or mean when an element is outside its range.

    Example:
        >>> round(float(cdf(3, 2.0)), 6)
        0.857123
    """
    from scipy import stats  # on use: scipy.stats is slow to import

    _tail_args(c, mean)
    return stats.poisson.cdf(c, mean)


def sf(c, mean):
    """Exact Poisson survival Pr[Po(mean) >= c + 1] (``scipy.stats.poisson.sf``; Lemma 10's right tail, exactly).

    Args:
        c: count level, an integer >= 0 (scalar or integer array).
        mean: Poisson mean >= 0, finite (broadcast with ``c``).

    Returns:
        float ndarray (0-d for scalars) of probabilities.

    Raises:
        ValueError: naming c or mean when an element is outside its range.

    Example:
        >>> round(float(sf(3, 2.0)), 6)
        0.142877
    """
    from scipy import stats  # on use: scipy.stats is slow to import

    _tail_args(c, mean)
    return stats.poisson.sf(c, mean)


def logcdf(c, mean):
    """log Pr[Po(mean) <= c], accurate far into the tail (``scipy.stats.poisson.logcdf``).

    Args:
        c: count level, an integer >= 0 (scalar or integer array).
        mean: Poisson mean >= 0, finite (broadcast with ``c``).

    Returns:
        float ndarray (0-d for scalars) of natural logarithms of probabilities.

    Raises:
        ValueError: naming c or mean when an element is outside its range.

    Example:
        >>> round(float(logcdf(0, 50.0)), 6)
        -50.0
    """
    from scipy import stats  # on use: scipy.stats is slow to import

    _tail_args(c, mean)
    return stats.poisson.logcdf(c, mean)


def logsf(c, mean):
    """log Pr[Po(mean) >= c + 1], accurate far into the tail (``scipy.stats.poisson.logsf``).

    Args:
        c: count level, an integer >= 0 (scalar or integer array).
        mean: Poisson mean >= 0, finite (broadcast with ``c``).

    Returns:
        float ndarray (0-d for scalars) of natural logarithms of probabilities.

    Raises:
        ValueError: naming c or mean when an element is outside its range.

    Example:
        >>> round(float(logsf(0, 1e-9)), 6)
        -20.723266
    """
    from scipy import stats  # on use: scipy.stats is slow to import

    _tail_args(c, mean)
    return stats.poisson.logsf(c, mean)
