"""Compiled kernel of :class:`privtest.co.submodular.FacilityLocation`'s sampler: the private greedy drawn by rejection.

numba compiles it on first use and caches the machine code (``cache=True``: beside this file, or in the user's cache
directory or ``NUMBA_CACHE_DIR`` when the installation is read-only), so a process pays the compilation once per
installation, and numba's import only when a facility-location stream is sampled; with no writable place at all, each
process compiles it once. It exists because numpy cannot get there: the same rejection sampler vectorized across
draws costs as much per draw as the tabulated inversion it replaces (numpy's per-call overhead on arrays of a few
dozen entries dominates), while this loop computes only the gains of the proposals, one at a time.

Importing this module needs no numba (a doctest collection of the library without the ``co`` extra imports it):
:func:`compiled` imports numba and compiles the kernel on its first call.
"""

import functools

import numpy as np


def _greedy_by_rejection(picks, f, a, top, near_cell, near_sim, w_near, simT, group, cap, rng):  # pragma: no cover
    """Fill ``picks`` (int64 (B, k)) with B independent draws of the private greedy and ``f`` (float (B,)) with f(S)
    of each, the sum of its picks' marginal gains.

    Each round proposes a candidate c uniformly among the m, rejects it if the draw holds it or (``cap`` > 0) its
    strip ``group[c]`` already holds ``cap`` picks, and otherwise accepts it with probability exp(a (gain(c) - top)),
    where gain(c) = sum_q w_near[c, q] max(0, near_sim[c, q] - cur) over the cells near_cell[c, q] within the radius
    of c (padded at the end with the dummy cell ``simT.shape[1] - 1``), cur = max over the held picks i of
    simT[i, cell]. ``top`` must bound every gain (the largest gain of the empty set does, by submodularity), so the
    accepted pick has probability proportional to exp(a gain(c)) over the feasible candidates: the exponential
    mechanism. The proposals and uniforms come from ``rng`` (a numpy Generator, whose state advances as in Python).
    """
    size, k = picks.shape
    m, width = near_cell.shape
    pad = simT.shape[1] - 1
    for b in range(size):
        total = 0.0
        for r in range(k):
            while True:
                c = rng.integers(0, m)
                held = False
                same = 0
                for j in range(r):
                    if picks[b, j] == c:
                        held = True
                    elif cap > 0 and group[picks[b, j]] == group[c]:
                        same += 1
                if held or (cap > 0 and same >= cap):
                    continue
                gain = 0.0
                for q in range(width):
                    x = near_cell[c, q]
                    if x == pad:
                        break
                    cur = 0.0
                    for j in range(r):
                        v = simT[picks[b, j], x]
                        if v > cur:
                            cur = v
                    d = near_sim[c, q] - cur
                    if d > 0.0:
                        gain += w_near[c, q] * d
                if rng.random() < np.exp(a * (gain - top)):
                    break
            picks[b, r] = c
            total += gain
        f[b] = total


@functools.cache
def compiled():
    """:func:`_greedy_by_rejection` compiled by numba (its machine code cached; compiled once per process where no
    cache directory is writable: numba then raises "cannot cache function ...: no locator available")."""
    import numba

    try:
        return numba.njit(cache=True)(_greedy_by_rejection)
    except RuntimeError:
        return numba.njit(_greedy_by_rejection)
