"""BatchToCO's batch privacy along the trajectory OPT_t = t (Section 1.3, Table 3's substitution): the checkpoint
count and eps_batch(t) that Theorem 42 applies to a batch algorithm when the optimum grows like the stream."""

from __future__ import annotations

import math

from privtest._validate import positive, step_index
from privtest.co.params import BatchToCOParams

__all__ = ["trajectory_eps_batch"]


def trajectory_eps_batch(params: BatchToCOParams, t: float) -> tuple[float, int]:
    """(eps_batch(t), ell(t)) with ell(t) = max(1, floor(ln t / ln(1 + kappa))) (OPT_t = t) and eps_batch(t) =
    eps(ell + 1, t)/2 (:meth:`BatchToCOParams.batch_eps`, Algorithm 3).

    Args:
        params: Algorithm 3's parameters (a :class:`~privtest.co.params.BatchToCOParams`).
        t: the time, an integer >= 1 (the trajectory OPT_t = t).

    Returns:
        (eps_batch(t), ell(t)): a float > 0 and an int >= 1.

    Raises:
        TypeError: if ``params`` is not a BatchToCOParams.
        ValueError: if ``t`` is not an integer >= 1.

    Example:
        >>> params = BatchToCOParams(eps=30.0, beta=0.05, pstar=0.45, kappa=0.5, gamma=2.0)
        >>> eps_b, ell = trajectory_eps_batch(params, 100)
        >>> round(eps_b, 6), ell
        (0.000391, 11)
    """
    if not isinstance(params, BatchToCOParams):
        raise TypeError(f"params must be a BatchToCOParams. Found {type(params).__name__}.")
    positive("t", t)
    step_index(t, "t")
    ell = max(1, int(math.floor(math.log(t) / math.log1p(params.kappa))))
    return float(params.batch_eps(ell + 1, t)), ell
