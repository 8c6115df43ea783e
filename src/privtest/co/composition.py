"""Composition arithmetic for the (eps, delta)-DP batch algorithms of Table 2 and the baselines.

* :func:`advanced_composition_eps`: the largest per-call eps_0 whose T-fold advanced composition (Dwork, Rothblum,
  Vadhan 2010) is (eps, delta)-DP.
* :func:`per_round_eps`: the per-round privacy of a k-round algorithm (private greedy) with an (eps, delta) budget:
  the larger of basic composition's eps/k (pure, delta unused) and advanced composition's eps_0 (with the whole
  delta). Both are valid; advanced composition wins only when k > about 2 ln(1/delta) (Mitrovic et al. 2017 use it
  for their k^{3/2} error term).
"""

from __future__ import annotations

import numpy as np

from privtest import _validate

__all__ = ["advanced_composition_eps", "per_round_eps"]


def advanced_composition_eps(eps: float, delta: float, T: int) -> float:
    r"""Largest per-step eps_0 with T-fold advanced composition (Dwork, Rothblum, Vadhan 2010) at most eps:
    :math:`\varepsilon_0\sqrt{2T\ln(1/\delta)} + T\varepsilon_0(e^{\varepsilon_0}-1) \le \varepsilon`
    (overall (eps, delta)-DP; bisection, rounded down).

    Args:
        eps: total eps > 0. delta: the composition's delta in (0, 1). T: number of calls, an integer >= 1.

    Returns:
        float: eps_0 in [0, eps].

    Raises:
        ValueError: naming eps (not > 0), delta (not in (0, 1)) or T (not an integer >= 1).

    Example:
        >>> round(advanced_composition_eps(1.0, 1e-6, 100), 6)
        0.018376
    """
    _validate.positive("eps", eps)
    _validate.open_unit("delta", delta)
    T = _validate.step_index(T, "T")
    lo, hi = 0.0, eps
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if mid * np.sqrt(2 * T * np.log(1 / delta)) + T * mid * np.expm1(mid) <= eps:
            lo = mid
        else:
            hi = mid
    return lo


def per_round_eps(eps: float, delta: float, k: int) -> tuple[float, str]:
    """Per-round privacy eps_r of a k-round composition with total budget (eps, delta), and the rule used.

    Basic composition: eps_r = eps/k, pure eps-DP overall. Advanced composition (delta > 0): eps_r =
    :func:`advanced_composition_eps` (eps, delta, k), (eps, delta)-DP overall. Returns the larger (both satisfy the
    budget) with ``"basic"`` or ``"advanced"``.

    Args:
        eps: total eps > 0. delta: total delta in [0, 1) (0: basic composition only). k: rounds >= 1.

    Returns:
        (eps_r, rule).

    Raises:
        ValueError: naming eps, delta or k when out of range.

    Example:
        >>> per_round_eps(1.0, 0.0, 5)
        (0.2, 'basic')
        >>> rate, rule = per_round_eps(1.0, 1e-6, 1000)
        >>> rule, rate > 1.0 / 1000
        ('advanced', True)
    """
    _validate.positive("eps", eps)
    _validate.delta_range("delta", delta)
    k = _validate.step_index(k, "k")
    basic = eps / k
    if delta == 0:
        return basic, "basic"
    adv = advanced_composition_eps(eps, delta, k)
    return (adv, "advanced") if adv > basic else (basic, "basic")
