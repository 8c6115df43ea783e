"""Densest-k-subgraph (Section 8.3) for BatchToCO: objective, a stand-in eps-edge-DP batch algorithm, and
certified bounds on OPT_t.

Objective f(X_t, S) = w_t(E(S)), the (weighted) number of edges inside S, #S = k (density d(S) = f/C(k, 2)). One
inserted edge / contact changes it by at most 1 (sensitivity 1) and never decreases it (data-monotone), so
Theorem 42 applies (Section 8.3, lines 2562-2570). No worst-case multiplicative factor is known for DkS, so only
Theorem 42's data-dependent V_A(X_t) applies.

Batch algorithm (*stand-in*, not Khayatian, Vullikanti and Konar's algorithm that Section 8.3 cites): noisy-degree
top-k. d~(v) = d_t(v) + Lap(2/eps) independently, S = the k nodes of largest d~. One inserted edge / contact adds 1
to the weighted degree of its two endpoints, so the degree vector has L1 sensitivity 2 and the Laplace mechanism
with scale 2/eps is eps-edge-DP (pure); choosing the top k is post-processing. ``delta`` is ignored. Every function
checks its arguments first (ValueError naming the parameter and its range).

Example:
    >>> from privtest.co.graphs import edge_stream
    >>> s = edge_stream([0, 0, 1, 2, 3], [1, 2, 2, 3, 4], [0, 0, 1, 1, 2], n=5, name="toy")
    >>> up, lo, kind = dks_opt_bounds(s, 3)
    >>> problem = DensestKSubgraph(s, 3, up, kind)
    >>> problem.sample(3, 5.0, 0.0, 2, rng=0).tolist()
    [[0, 1, 2], [0, 1, 2]]
"""

from __future__ import annotations

import math

import numpy as np

from privtest import _validate
from privtest.co.graphs import EdgeStream, StreamState, laplace_by_inversion
from privtest.co.mechanisms import COProblem

__all__ = [
    "DensestKSubgraph",
    "capped_degree_bound",
    "dks_opt_bounds",
    "dks_value",
    "greedy_peel",
    "noisy_degree_topk",
]


def _check_stream(stream) -> None:
    if not isinstance(stream, EdgeStream):
        raise TypeError(f"stream must be a privtest.co.graphs.EdgeStream. Found {type(stream).__name__}.")


def _check_k(k, n: int, minimum: int = 1) -> int:
    k = _validate.integer("k", k, minimum)
    if not k <= n:
        raise ValueError(f"k must be in [{minimum}, n={n}]. Found {k!r}.")
    return k


def dks_value(n: int, pairs: np.ndarray, w: np.ndarray, S: np.ndarray) -> np.ndarray:
    """w(E(S_b)) for a batch of k-sets S (int (B, k), distinct node ids in [0, n)): float (B,) (Section 8.3's f).

    Args:
        n: nodes, an integer >= 1. pairs: integer (P, 2), u < v in [0, n). w: weights >= 0, (P,). S: integer (B, k).

    Raises:
        ValueError: naming n, pairs, w or S when malformed.

    Example:
        >>> dks_value(4, np.array([[0, 1], [1, 2], [2, 3]]), np.ones(3), np.array([[0, 1, 2], [0, 1, 3]])).tolist()
        [2.0, 1.0]
    """
    n = _validate.weighted_pairs(n, pairs, w)
    _validate.integer("S", S, 0, scalar=False, maximum=n - 1)
    if np.ndim(S) != 2:
        raise ValueError(f"S must be an integer array (B, k) of node sets. Found shape {np.shape(S)}.")
    A = np.zeros((n, n))
    A[pairs[:, 0], pairs[:, 1]] = w
    A += A.T
    S = np.asarray(S, dtype=np.int64)
    return A[S[:, :, None], S[:, None, :]].sum(axis=(1, 2)) / 2.0


def noisy_degree_topk(deg: np.ndarray, k: int, eps: float, size: int, rng: np.random.Generator) -> np.ndarray:
    """``size`` independent draws of the noisy-degree top-k algorithm (module docstring): int (size, k), sorted.

    Args:
        deg: float (n,), weighted degrees d_t(v).
        k: subset size, 1 <= k <= n.
        eps: privacy eps > 0 (pure eps-edge-DP; Laplace scale 2/eps for L1 sensitivity 2).
        size: number of independent draws, an integer >= 0 (one (size, n) array of Laplace noise, each by inversion of
            one uniform: vectorized).
        rng: anything :func:`numpy.random.default_rng` accepts.

    Returns:
        int (size, k), each row sorted.

    Raises:
        ValueError: deg not a non-empty 1-d finite array, eps <= 0, k outside [1, n] or size < 0 (naming it).

    Example:
        >>> noisy_degree_topk(np.array([5.0, 0.0, 9.0, 1.0]), 2, 10.0, 3, rng=0).tolist()
        [[0, 2], [0, 2], [0, 2]]
    """
    rng = _validate.generator(rng)
    _validate.finite("deg", deg, scalar=False)
    if np.ndim(deg) != 1 or np.size(deg) == 0:
        raise ValueError(f"deg must be a non-empty 1-d array (one degree per node). Found shape {np.shape(deg)}.")
    _validate.positive("eps", eps)
    _validate.integer("size", size, 0)
    deg = np.asarray(deg)
    k = _check_k(k, deg.size)
    return _noisy_degree_topk(deg, k, eps, int(size), rng)


#: Largest number of nodes for which :class:`DensestKSubgraph` keeps a dense (n, n) table of the weights after the
#: step last asked (:meth:`DensestKSubgraph.value` then reads each set's pairs from it: no search).
_DENSE_NODES = 1024

#: Largest k for which :func:`_noisy_degree_topk` picks the top k by k row-wise argmax passes (each a fast SIMD
#: scan) rather than one argpartition.
_ARGMAX_K = 16


def _noisy_degree_topk(deg: np.ndarray, k: int, eps: float, size: int, rng: np.random.Generator) -> np.ndarray:
    """:func:`noisy_degree_topk` without the checks (deg a finite float (n,) array, 1 <= k <= n, eps > 0, size >= 0,
    rng a Generator): the same draws. The k largest noisy degrees of a row are found by k argmax passes (each
    masking the maximum found) for small k, else by argpartition: the same set (the noisy degrees are continuous,
    ties have probability 0)."""
    n = deg.size
    noisy = laplace_by_inversion(rng, 2.0 / eps, (size, n))  # = rng.laplace(0, 2/eps) bit for bit
    noisy += deg
    if k == n:
        return np.tile(np.arange(n), (size, 1))
    if k > _ARGMAX_K:
        return np.sort(np.argpartition(-noisy, k - 1, axis=1)[:, :k], axis=1)
    top = np.empty((size, k), dtype=np.intp)
    rows = np.arange(size)
    for j in range(k):
        i = noisy.argmax(axis=1)
        top[:, j] = i
        noisy[rows, i] = -np.inf
    top.sort(axis=1)
    return top


def capped_degree_bound(n: int, pairs: np.ndarray, w: np.ndarray, k: int) -> float:
    """Certified upper bound on max_{#S=k} w(E(S)): with c(v) = the sum of the k-1 largest weights of edges at v,
    w(E(S)) = (1/2) sum_{v in S} w(edges of v inside S) <= (1/2) sum_{v in S} c(v) <= (1/2) (sum of the k largest
    c(v)); also <= w(E). Float.

    Args:
        n, pairs, w: as in :func:`dks_value`. k: an integer in [1, n].

    Raises:
        ValueError: naming the parameter when malformed.

    Example:
        >>> capped_degree_bound(4, np.array([[0, 1], [1, 2], [2, 3], [0, 2]]), np.ones(4), 3)
        3.0
    """
    n = _validate.weighted_pairs(n, pairs, w)
    _check_k(k, n)
    w = np.asarray(w, dtype=float)
    keep = w > 0
    pairs, w = pairs[keep], w[keep]
    if w.size == 0:
        return 0.0
    ends = np.concatenate([pairs[:, 0], pairs[:, 1]])
    ww = np.concatenate([w, w])
    order = np.lexsort((-ww, ends))  # by node, then weight descending
    ends, ww = ends[order], ww[order]
    first = np.searchsorted(ends, ends, side="left")
    rank = np.arange(ends.size) - first  # rank of the edge among its node's edges (0 = heaviest)
    c = np.bincount(ends[rank < k - 1], ww[rank < k - 1], n)
    return float(min(0.5 * np.sort(c)[-k:].sum(), w.sum()))


def greedy_peel(n: int, pairs: np.ndarray, w: np.ndarray, k: int, candidates: int = 200) -> np.ndarray:
    """Non-private lower-bound solution: restrict to the ``candidates`` nodes of largest weighted degree, then
    repeatedly remove the node of smallest weighted degree in the remaining subgraph until k remain (Asahiro et al.'s
    greedy peeling). Int (k,) sorted node ids (a feasible k-set; its value is a lower bound on OPT_t).

    Args:
        n, pairs, w: as in :func:`dks_value`. k: an integer in [1, n]. candidates: an integer >= 1.

    Raises:
        ValueError: naming the parameter when malformed.

    Example:
        >>> greedy_peel(5, np.array([[0, 1], [1, 2], [0, 2], [3, 4]]), np.ones(4), 3).tolist()
        [0, 1, 2]
    """
    from scipy import sparse  # on use: scipy.sparse is slow to import

    n = _validate.weighted_pairs(n, pairs, w)
    _check_k(k, n)
    _validate.integer("candidates", candidates, 1)
    deg = np.bincount(pairs[:, 0], w, n) + np.bincount(pairs[:, 1], w, n)
    keep = np.sort(np.argsort(-deg, kind="stable")[: max(k, min(candidates, n))])
    M = sparse.coo_matrix((w, (pairs[:, 0], pairs[:, 1])), shape=(n, n)).tocsr()
    M = M + M.T
    A = M[keep][:, keep].toarray()  # symmetric: row v is column v
    alive = np.ones(keep.size, dtype=bool)
    d = A.sum(axis=1)
    for _ in range(keep.size - k):
        v = int(np.argmin(d))  # removed nodes have d = inf (and stay at inf)
        alive[v] = False
        d[v] = np.inf
        d -= A[v]
    return keep[alive]


def _set_value(pairs: np.ndarray, w: np.ndarray, S: np.ndarray) -> float:
    """w(E(S)) of one node set S (int array)."""
    inside = np.isin(pairs[:, 0], S) & np.isin(pairs[:, 1], S)
    return float(w[inside].sum())


def dks_opt_bounds(stream: EdgeStream, k: int, density_opt=None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """OPT_t references of DkS for t = 1..T.

    Upper bound U_t = min(capped-degree bound, C(k,2) w_max, k * rho_t) with rho_t >= max_S w(E(S))/#S (the densest
    subgraph optimum or an upper bound of it, ``density_opt``, optional), also forced non-increasing backwards
    (OPT_t <= OPT_{t+1} <= U_{t+1}); lower bound L_t = max(value of the top-k true-degree set, greedy peeling),
    forced non-decreasing. ``kind`` is "exact" where L_t = U_t (certified), else "upper bound".

    Args:
        stream: the :class:`~privtest.co.graphs.EdgeStream`. k: an integer in [1, n]. density_opt: None or (T,)
            finite reals >= 0.

    Returns:
        (upper, lower, kind): float (T,), float (T,), object (T,).

    Raises:
        TypeError: if ``stream`` is not an EdgeStream. ValueError: naming k or density_opt when malformed.

    Example:
        >>> from privtest.co.graphs import edge_stream
        >>> s = edge_stream([0, 0, 1, 2], [1, 2, 2, 3], [0, 0, 1, 2], n=4, name="toy")
        >>> up, lo, kind = dks_opt_bounds(s, 3)
        >>> up.tolist(), lo.tolist(), kind.tolist()
        ([2.0, 3.0, 3.0], [2.0, 3.0, 3.0], ['exact', 'exact', 'exact'])
    """
    _check_stream(stream)
    k = _check_k(k, stream.n)
    if density_opt is not None:
        _validate.nonnegative("density_opt", density_opt, scalar=False)
        if np.shape(density_opt) != (stream.T,):
            raise ValueError(f"density_opt must hold one value per step, shape ({stream.T},).")
    T, n = stream.T, stream.n
    up, lo = np.zeros(T), np.zeros(T)
    state = StreamState(stream)
    for t in range(T):
        w = state.at(t + 1).w
        on = w > 0
        p, ww = stream.pairs[on], w[on]
        if ww.size == 0:
            continue
        u = min(capped_degree_bound(n, p, ww, k), math.comb(k, 2) * float(ww.max()))
        if density_opt is not None:
            u = min(u, k * float(density_opt[t]))
        up[t] = u
        deg = np.bincount(p[:, 0], ww, n) + np.bincount(p[:, 1], ww, n)
        top = np.argsort(-deg, kind="stable")[:k]
        lo[t] = max(_set_value(p, ww, top), _set_value(p, ww, greedy_peel(n, p, ww, k)))
    up = np.minimum.accumulate(up[::-1])[::-1]
    lo = np.maximum.accumulate(lo)
    kind = np.where(np.isclose(lo, up, rtol=0, atol=1e-9), "exact", "upper bound").astype(object)
    return up, lo, kind


class DensestKSubgraph(COProblem):
    """Densest-k-subgraph on an :class:`EdgeStream` with the noisy-degree top-k stand-in (module docstring), as a
    :class:`privtest.co.mechanisms.COProblem` (its ``upper`` reads ``opt``; A's score law is not known in closed form).
    Solutions: int (B, k) sorted node ids.

    Args:
        stream: the graph stream.
        k: subset size (>= 2).
        opt: (T,) OPT_t or a certified upper bound of it (the simulator's U_t and the reference).
        opt_kind: (T,) "exact" / "upper bound" labels.

    Raises:
        TypeError: if ``stream`` is not an EdgeStream. ValueError: naming k, opt or opt_kind when malformed.

    Example:
        >>> from privtest.co.graphs import edge_stream
        >>> s = edge_stream([0, 0, 1, 2], [1, 2, 2, 3], [0, 0, 1, 2], n=4, name="toy")
        >>> up, lo, kind = dks_opt_bounds(s, 3)
        >>> DensestKSubgraph(s, 3, up, kind).value(2, [[0, 1, 2]]).tolist()
        [3.0]
    """

    def __init__(self, stream: EdgeStream, k: int, opt, opt_kind):
        _check_stream(stream)
        k = _check_k(k, stream.n, 2)
        _validate.per_step("opt", opt, stream.T)
        kinds = np.asarray(opt_kind, dtype=object)
        if kinds.shape != (stream.T,) or not all(k in ("exact", "upper bound") for k in kinds):
            raise ValueError(f'opt_kind must hold one label "exact" or "upper bound" per step (T = {stream.T}).')
        self.stream, self.k = stream, int(k)
        self.opt, self.opt_kind = np.asarray(opt, dtype=float), np.asarray(opt_kind, dtype=object)
        self.T, self.name, self.n = stream.T, stream.name, stream.n
        keys = stream.pairs[:, 0] * stream.n + stream.pairs[:, 1]
        self._order = np.argsort(keys, kind="stable")
        self._keys = keys[self._order]
        iu, ju = np.triu_indices(self.k, 1)
        self._iu, self._ju = iu, ju
        self._state = StreamState(stream)
        # Small graphs: the weights after step t as a dense (n, n) table (pairs u < v; every other entry stays 0).
        self._dense = (-1, np.zeros((self.n, self.n)) if self.n <= _DENSE_NODES else None)

    def _graph(self, t: int):
        st = self._state._at(int(t))  # t checked on entry (COProblem)
        return st.w[self._order], st.deg

    def value(self, t: int, Y: np.ndarray) -> np.ndarray:
        """f(X_t, S) = w_t(E(S)) of each k-set S (int (B, k)): float (B,).

        Raises:
            ValueError: naming t (not an integer in [1, T]) or Y (not a (B, k) array of node ids in [0, n)).
        """
        _validate.integer("Y", Y, 0, scalar=False, maximum=self.n - 1)
        if np.ndim(Y) != 2 or np.shape(Y)[1] != self.k:
            raise ValueError(f"Y must be a (B, k={self.k}) array of node ids. Found shape {np.shape(Y)}.")
        return self._value(t, Y)

    def _value(self, t: int, Y) -> np.ndarray:
        """:meth:`value` without the checks (t an integer in [1, T], Y a (B, k) array of node ids): the weight of
        each of a set's C(k, 2) pairs u < v (0 for a pair never inserted), summed per set in the pairs' order; read
        from the dense table of the weights after step t on small graphs, else found among the sorted pair keys."""
        Y = np.sort(np.asarray(Y, dtype=np.int64), axis=1)
        t, dense = int(t), self._dense[1]
        if dense is not None:
            if self._dense[0] != t:
                dense[self.stream.pairs[:, 0], self.stream.pairs[:, 1]] = self._state._at(t).w
                self._dense = (t, dense)
            return dense[Y[:, self._iu], Y[:, self._ju]].sum(axis=1)
        w_sorted, _ = self._graph(t)
        q = Y[:, self._iu] * self.n + Y[:, self._ju]  # all C(k,2) pairs u < v of each set
        idx = np.minimum(np.searchsorted(self._keys, q), self._keys.size - 1)
        return np.where(self._keys[idx] == q, w_sorted[idx], 0.0).sum(axis=1)

    def scores(self, t: int, eps: float, delta: float, size: int, rng: np.random.Generator) -> np.ndarray:
        """Overrides the base: ``value(t, sample(...))`` without re-checking the drawn sets (the same values)."""
        rng = _validate.generator(rng)
        return self._value(t, self._sample(t, eps, size, rng))

    def sample(self, t: int, eps: float, delta: float, size: int, rng: np.random.Generator) -> np.ndarray:
        """``size`` draws of the noisy-degree top-k A(X_t, eps) (``delta`` ignored): int (size, k), sorted."""
        return self._sample(t, eps, size, _validate.generator(rng))

    def _sample(self, t: int, eps: float, size: int, rng: np.random.Generator) -> np.ndarray:
        """:meth:`sample` without the checks (arguments checked on entry)."""
        deg = self._state._at(int(t)).deg
        out = np.empty((size, self.k), dtype=np.int64)
        for a in range(0, size, 512):  # memory control: (512, n) noise at a time
            b = min(size, a + 512)
            out[a:b] = _noisy_degree_topk(deg, self.k, float(eps), b - a, rng)  # arguments checked on entry
        return out
