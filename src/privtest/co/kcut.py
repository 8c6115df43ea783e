"""Decomposable NON-monotone submodular maximisation under continual observation (Section 8.1, Table 2 rows 3-4:
Chaturvedi, Nguyen, Zakynthinou 2021, (eps, delta)-DP, k-cardinality and a matroid): the cut objective under a
cardinality or partition-matroid constraint on a real edge stream.

Stream: the CollegeMsg subgraph of its ``n`` most active users (:func:`privtest.co.maxcut.top_users_stream`), one
undirected pair inserted per CO step; neighbouring streams differ in one inserted edge (edge-DP).

Objective: f(X, S) = number of edges of X with exactly one endpoint in S, for S a set of at most k nodes (or
independent in a partition matroid: nodes in ``groups`` classes by id, at most ``cap`` per class). Why it fits
Theorem 42:

* decomposable, values in [0, 1] per record: f(X, S) = sum_{e in X} f_e(S) with f_e(S) = 1[#(e cap S) = 1] in {0, 1},
  so one inserted edge changes f(., S) by at most 1 (sensitivity 1) and never decreases it (data-monotone);
* submodular: each f_e is the cut function of one edge, f_e(S + v) - f_e(S) = 1[v in e, other end not in S] -
  1[v in e, other end in S] is non-increasing as S grows, and sums of submodular functions are submodular;
* non-monotone (in S): adding both endpoints of an edge removes it from the cut (f(V) = 0).

Batch algorithm A(X, eps, delta) (a stand-in, not CNZ21's algorithm): private random greedy. k rounds; in each, the
exponential mechanism over the feasible unused nodes and k dummy elements of marginal gain 0 (Buchbinder et al.
2014's device for non-monotone f: picking a dummy adds nothing), Pr[v] ~ exp(eps_r gain(v)/2). gain(v) =
f(X, S + v) - f(X, S) = sum_e (f_e(S + v) - f_e(S)) has per-record terms in [-1, 1], so sensitivity 1 and each
round is eps_r-DP; eps_r = :func:`privtest.co.composition.per_round_eps` (eps, delta, k) (basic or advanced
composition, whichever allows more): (eps, delta)-DP overall. Per round, w.p. >= 1 - beta_r the chosen gain is at
least the best feasible gain - (2/eps_r) ln(m_r/beta_r), m_r the round's candidates (exponential mechanism utility;
tests check it); we claim no 1/e-type approximation for it. The CO claims use its measured V_A, not a batch bound.

OPT_t: exact, by enumerating every feasible set (at most sum_{j <= k} C(n, j) of them), ``opt_kind = "exact"``.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

from privtest import _validate
from privtest.co.composition import per_round_eps
from privtest.co.mechanisms import COProblem

__all__ = ["CardinalityCut"]


class CardinalityCut(COProblem):
    """Cut objective under a cardinality (or partition-matroid) constraint with private random greedy, a
    :class:`privtest.co.mechanisms.COProblem` with exact ``opt`` (A's score law is not known in closed form).

    Solutions: int arrays (B, k) of picked elements, node ids 0..n-1 or dummies n..n+k-1 (which add nothing).

    Args:
        n: nodes (2..24; feasible sets are enumerated for OPT_t).
        edges: int (T, 2), edges in insertion order; step t holds the first t edges.
        k: cardinality (number of greedy rounds), 1 <= k <= n.
        groups: None (cardinality) or the number of node classes (node v in class v mod groups) of a partition
            matroid with ``cap`` nodes at most per class (its rank sum_g min(cap, #(class g)) must be >= k).
        cap: per-class cap of the matroid (>= 1).
        name: label.

    Raises:
        ValueError: naming n, edges, k, groups or cap when out of range.

    Example:
        >>> problem = CardinalityCut(5, np.array([[0, 1], [1, 2], [2, 3], [3, 4]]), k=2)
        >>> problem.opt.tolist(), problem.sample(4, 5.0, 0.0, 2, rng=0).tolist()
        ([1.0, 2.0, 3.0, 4.0], [[3, 1], [4, 0]])
    """

    opt_kind = "exact"

    def __init__(
        self, n: int, edges: np.ndarray, k: int = 5, groups: int | None = None, cap: int = 1, name: str = "cut"
    ):
        n = _validate.integer("n", n, 2)
        if n > 24:
            raise ValueError(f"n must be in [2, 24]. Found {n!r}.")
        k = _validate.integer("k", k, 1)
        if k > n:
            raise ValueError(f"k must be in [1, n={n}]. Found {k!r}.")
        _validate.node_pairs("edges", edges, n, ordered=False, nonempty=True)
        self.n, self.k, self.name = int(n), int(k), name
        self.edges = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
        self.T = len(self.edges)
        cap = _validate.integer("cap", cap, 1)
        if groups is None:
            self.group, self.cap = None, None
        else:
            groups = _validate.integer("groups", groups, 2)
            self.group, self.cap = np.arange(n) % groups, int(cap)
            rank = int(np.minimum(np.bincount(self.group, minlength=groups), cap).sum())
            if rank < k:
                raise ValueError(f"k = {k} exceeds the partition matroid's rank {rank}; lower k or raise cap.")
        # adjacency after t insertions, A[t] (T + 1, n, n), A[0] = 0 (undirected, 0/1: pairs are inserted once)
        A = np.zeros((self.T + 1, n, n))
        for t, (u, v) in enumerate(self.edges, start=1):
            A[t] = A[t - 1]
            A[t, u, v] += 1.0
            A[t, v, u] += 1.0
        self._A = A
        self._opt = self._exact_opt()

    # --- objective ------------------------------------------------------------------------------------------------
    def members(self, Y) -> np.ndarray:
        """Membership (B, n) bool of the node sets of solutions Y (B, k) (dummies dropped).

        Raises:
            ValueError: naming Y unless its entries are integers in [0, n + k).
        """
        _validate.integer("Y", Y, 0, scalar=False, maximum=self.n + self.k - 1)
        Y = np.atleast_2d(np.asarray(Y, dtype=np.int64))
        M = np.zeros((Y.shape[0], self.n + self.k), dtype=bool)
        np.put_along_axis(M, Y, True, axis=1)
        return M[:, : self.n]

    def value(self, t: int, Y) -> np.ndarray:
        """f(X_t, S) of each solution: float (B,)."""
        M = self.members(Y)
        a, b = self.edges[:t, 0], self.edges[:t, 1]
        return (M[:, a] != M[:, b]).sum(axis=1).astype(float)

    def _feasible_sets(self) -> np.ndarray:
        """Membership (S, n) of every feasible set (#S <= k and within the matroid's caps)."""
        rows = []
        for j in range(self.k + 1):
            for c in combinations(range(self.n), j):
                c = np.asarray(c, dtype=np.int64)
                if self.group is not None and j and np.bincount(self.group[c]).max() > self.cap:
                    continue
                m = np.zeros(self.n, dtype=bool)
                m[c] = True
                rows.append(m)
        return np.asarray(rows)

    def _exact_opt(self) -> np.ndarray:
        S = self._feasible_sets()
        cut = np.cumsum(S[:, self.edges[:, 0]] != S[:, self.edges[:, 1]], axis=1)  # (sets, T)
        return cut.max(axis=0).astype(float)

    @property
    def opt(self) -> np.ndarray:
        """Exact OPT_t, t = 1..T (float (T,))."""
        return self._opt

    # --- batch algorithm ------------------------------------------------------------------------------------------
    def round_eps(self, eps: float, delta: float) -> float:
        """eps_r, the privacy of each greedy round (:func:`privtest.co.composition.per_round_eps`)."""
        return per_round_eps(eps, delta, self.k)[0]

    def greedy(self, t: int, eps: float, delta: float, size: int, rng: np.random.Generator):
        """``size`` draws of the private random greedy A(X_t, eps, delta) with the per-round gains.

        Returns:
            (Y, chosen, best): Y int (size, k) picked elements; chosen and best float (size, k): the gain of the
            pick and the largest gain among that round's candidates (dummies included, so best >= 0).

        Raises:
            ValueError: naming t (not an integer in [1, T]), eps (not > 0), delta (outside [0, 1)), size (not an
                integer >= 0) or rng.
        """
        _validate.integer("t", t, 1, maximum=self.T)
        _validate.positive("eps", eps)
        _validate.delta_range("delta", delta)
        _validate.integer("size", size, 0)
        rng = _validate.generator(rng)
        eps_r = self.round_eps(eps, delta)
        A = self._A[t]
        deg = A.sum(axis=1)
        size = int(size)
        rows = np.arange(size)
        M = np.zeros((size, self.n))
        used_dummy = np.zeros((size, self.k), dtype=bool)
        Y = np.zeros((size, self.k), dtype=np.int64)
        chosen, best = np.zeros((size, self.k)), np.zeros((size, self.k))
        for r in range(self.k):
            gain = np.concatenate([deg[None, :] - 2.0 * (M @ A), np.zeros((size, self.k))], axis=1)
            blocked = np.concatenate([M > 0, used_dummy], axis=1)
            if self.group is not None:
                full = np.stack(
                    [(M[:, self.group == g].sum(axis=1) >= self.cap) for g in range(self.group.max() + 1)], 1
                )
                blocked[:, : self.n] |= full[:, self.group]
            logits = np.where(blocked, -np.inf, 0.5 * eps_r * gain)
            pick = np.argmax(logits + rng.gumbel(size=logits.shape), axis=1)
            Y[:, r] = pick
            chosen[:, r] = gain[rows, pick]
            best[:, r] = np.where(blocked, -np.inf, gain).max(axis=1)
            real = pick < self.n
            M[rows[real], pick[real]] = 1.0
            used_dummy[rows[~real], pick[~real] - self.n] = True
        return Y, chosen, best

    def sample(self, t: int, eps: float, delta: float, size: int, rng: np.random.Generator) -> np.ndarray:
        """``size`` independent draws of A(X_t, eps, delta): int (size, k)."""
        return self.greedy(t, eps, delta, size, rng)[0]
