"""BatchToCO's batch privacy along the trajectory OPT_t = t (Section 1.3, Table 3's substitution): the checkpoint
count and eps_batch(t) that Theorem 42 applies to a batch algorithm when the optimum grows like the stream."""

from __future__ import annotations

import math

from privtest._validate import positive
from privtest.co.params import BatchToCOParams


def trajectory_eps_batch(params: BatchToCOParams, t: float) -> tuple[float, int]:
    """(eps_batch(t), ell(t)) with ell(t) = max(1, floor(ln t / ln(1 + kappa))) (OPT_t = t) and eps_batch(t) =
    eps(ell + 1, t)/2 (:meth:`BatchToCOParams.batch_eps`, Algorithm 3).

    Raises:
        ValueError: if ``t`` is not a positive number.
    """
    positive("t", t)
    ell = max(1, int(math.floor(math.log(t) / math.log1p(params.kappa))))
    return float(params.batch_eps(ell + 1, t)), ell
