"""Failure-probability schedule of Definition 7: the weights omega(t) and beta_t = omega(t) * beta.

Every function checks its arguments first (ValueError naming the parameter and its range).
"""

from __future__ import annotations

import numpy as np

from privtest import _validate

__all__ = ["beta_t", "log_inv_omega", "omega", "zeta"]

#: Number of terms summed explicitly before the Euler-Maclaurin (midpoint) tail integral in :func:`zeta`.
_ZETA_TERMS = 1_000_000


#: zeta of Definition 7(1) as a double: what :func:`_zeta_by_quadrature` computes (tests/test_formulas.py checks it to
#: the last bit), written out so that no process pays for that sum and scipy.integrate's import (about 0.3 CPU-s), and
#: every platform uses the same double.
_ZETA = 1.2330926408131828


def zeta() -> float:
    r"""The normalising constant :math:`\zeta = \sum_{j\ge1} 1/(j \ln^3(j+2))` of Definition 7(1).

    The double computed by :func:`_zeta_by_quadrature`: the explicit sum of the first 10^6 terms plus the tail
    :math:`\sum_{j>N} f(j) \approx \int_{N+1/2}^\infty f(x)\,dx` (midpoint rule, error O(f''(N)) ~ 1e-19). The result,
    1.2330926408..., agrees with the value from N = 10^4 and 10^5 terms to 1e-12, so it has well over the 6
    significant digits the issue asks for.

    Returns:
        float: zeta, which lies in (1, 5/4) as Definition 7 states.

    Example:
        >>> round(zeta(), 10)
        1.2330926408
    """
    return _ZETA


def _zeta_by_quadrature() -> float:
    """:func:`zeta` computed: the first :data:`_ZETA_TERMS` terms summed, the tail integral taken by
    ``scipy.integrate.quad`` after the substitution x = e^u."""
    from scipy import integrate  # on use: scipy.integrate is slow to import

    j = np.arange(1, _ZETA_TERMS + 1, dtype=float)
    head = float(np.sum(1.0 / (j * np.log(j + 2.0) ** 3)))

    def integrand(u: float) -> float:  # f(e^u) e^u with f(x) = 1/(x ln^3(x+2))
        return 1.0 / (u + np.log1p(2.0 * np.exp(-u))) ** 3

    tail, _ = integrate.quad(integrand, np.log(_ZETA_TERMS + 0.5), np.inf, epsabs=1e-15, epsrel=1e-13)
    return head + tail


def omega(t):
    r"""Weight :math:`\omega_t = 1/(\zeta\, t \ln^3(t+2))` of Definition 7(1); :math:`\sum_{t\ge1}\omega_t = 1`.

    Args:
        t: step index, integer >= 1 (scalar or integer array of any shape).

    Returns:
        float or ndarray of float64 with the shape of ``t``.

    Raises:
        ValueError: if an element of ``t`` is not an integer >= 1 (a bool, a fraction, NaN, an infinity or an integer
            beyond the float range included).

    Example:
        >>> round(omega(1), 6)
        0.611605
        >>> omega([1, 10]).round(6).tolist()
        [0.611605, 0.005285]
    """
    _validate.step_index(t, scalar=False)
    tt = np.asarray(t, dtype=float)
    out = 1.0 / (zeta() * tt * np.log(tt + 2.0) ** 3)
    return float(out) if out.ndim == 0 else out


def log_inv_omega(t):
    r""":math:`\ln(1/\omega_t) = \ln\zeta + \ln t + 3\ln\ln(t+2)` (Definition 7(1)), exact for any t (no
    under/overflow).

    Args:
        t: step index, integer >= 1 (scalar or integer array of any shape).

    Returns:
        float or ndarray of float64 with the shape of ``t``.

    Raises:
        ValueError: if an element of ``t`` is not an integer >= 1.

    Example:
        >>> round(log_inv_omega(10**12), 4)
        37.7974
    """
    _validate.step_index(t, scalar=False)
    tt = np.asarray(t, dtype=float)
    out = np.log(zeta()) + np.log(tt) + 3.0 * np.log(np.log(tt + 2.0))
    return float(out) if out.ndim == 0 else out


def beta_t(t, beta: float):
    r"""Per-step failure probability :math:`\beta_t = \omega_t \beta` of Definition 7(2); sums to beta over t >= 1.

    Args:
        t: step index, integer >= 1 (scalar or array).
        beta: global failure probability in (0, 1).

    Returns:
        float or ndarray of float64 with the shape of ``t``: probabilities.

    Raises:
        ValueError: if an element of ``t`` is not an integer >= 1 or ``beta`` is outside (0, 1) (naming it).

    Example:
        >>> round(beta_t(1, 0.05), 6)
        0.03058
    """
    _validate.open_unit("beta", beta)
    return omega(t) * beta
