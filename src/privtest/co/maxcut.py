"""Max-Cut under continual observation (Section 8.4) on a small real edge stream.

Stream: the subgraph of CollegeMsg induced by its ``k`` most active users (messages sent or received), each
undirected pair inserted at its first message, one CO step per inserted edge. Neighbouring streams differ in one
inserted edge; the cut value changes by at most 1 and never decreases under insertions.

Batch algorithm A(X, eps): the exponential mechanism over all 2^(n-1) cuts (node 0 fixed on one side) with score the
cut value (sensitivity 1): Pr[S] ~ exp(eps cut(S)/2), pure eps-edge-DP. W.p. >= 1 - beta its cut is at least
OPT - (2/eps)(ln 2^(n-1) + ln(1/beta)) = OPT - O((n + ln(1/beta))/eps): the error form of Chandra et al. (2024)
quoted in Section 8.4 (their algorithm is a different one; this is a stand-in), and likewise exponential time.
Because the law of cut(A(X)) is known exactly (a histogram of cut values), the test mechanism's count is one
binomial draw. A is drawn by inversion of its CDF over the cut ids (one uniform per draw), in two levels (a block of
cut ids, then a cut id within it) from the counts of cut values per block, cached per step t: a new eps at a known t
costs O(blocks x cut values), not O(2^(n-1)), and so does its score law; the laws of the last few (t, eps) are cached
too. Only :func:`top_users_stream` (which reads a DataFrame) imports pandas, when it is called.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from privtest import _validate
from privtest.co.mechanisms import COProblem

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["MaxCut", "top_users_stream"]

#: (t, eps) keys whose exponential-mechanism law :meth:`MaxCut._law` keeps (with a CDF of 2^(n-1) floats after a
#: large call), and steps t whose cut values :meth:`MaxCut._step` keeps.
_LAW_KEYS = 4
_STEP_KEYS = 4
#: Consecutive cut ids per block of :meth:`MaxCut.sample`'s two-level inversion; a call of ``size`` draws inverts the
#: CDF over all 2^(n-1) cut ids instead when size x _BLOCK x _FULL_CDF >= 2^(n-1) or its (t, eps) was asked more than
#: _FULL_CDF_CALLS times (cheaper for many draws, cached).
_BLOCK = 512
_FULL_CDF = 4
_FULL_CDF_CALLS = 2


def top_users_stream(df: pd.DataFrame, k: int):
    """(n, edges (T, 2) int): the first-message edges among the k most active CollegeMsg users, in time order
    (ties in activity broken by user id).

    Args:
        df: DataFrame with columns ``src`` and ``dst`` (:func:`privtest_artifact.data.collegemsg`). k: users, an
            integer >= 2.

    Raises:
        ValueError: naming df or k when malformed.

    Example:
        >>> import pandas as pd
        >>> n, edges = top_users_stream(pd.DataFrame({"src": [1, 2, 3, 1], "dst": [2, 3, 1, 4]}), 3)
        >>> n, edges.tolist()
        (3, [[0, 1], [1, 2], [0, 2]])
    """
    import pandas as pd

    if not isinstance(df, pd.DataFrame) or "src" not in df.columns or "dst" not in df.columns:
        raise ValueError("df must be a pandas DataFrame with the columns ['src', 'dst'].")
    _validate.integer("k", k, 2)
    act = pd.concat([df["src"], df["dst"]]).value_counts()
    act = act.sort_index().sort_values(ascending=False, kind="stable")
    top = np.sort(act.index[:k].to_numpy())
    sub = df[df["src"].isin(top) & df["dst"].isin(top) & (df["src"] != df["dst"])]
    u, v = np.searchsorted(top, sub["src"]), np.searchsorted(top, sub["dst"])
    a, b = np.minimum(u, v), np.maximum(u, v)
    _, first = np.unique(a * k + b, return_index=True)
    first = np.sort(first)
    return k, np.stack([a[first], b[first]], axis=1)


class MaxCut(COProblem):
    """Max-Cut stream with the exponential mechanism over all cuts, a :class:`privtest.co.mechanisms.COProblem` with
    exact ``opt`` and an exact score law. Solutions are cut ids (int, bit j = side of node j + 1; node 0 on side 0).

    Args:
        n: nodes (<= 22: 2^(n-1) cuts are enumerated).
        edges: (T, 2) edges in insertion order (integers, u != v in [0, n)); step t has the first t edges.
        name: label.

    Raises:
        ValueError: naming n or edges when malformed.

    Example:
        >>> problem = MaxCut(4, np.array([[0, 1], [1, 2], [2, 3]]))
        >>> problem.opt.tolist(), problem.value(3, [0, 5]).tolist()
        ([1.0, 2.0, 3.0], [0.0, 3.0])
    """

    opt_kind = "exact"

    def __init__(self, n: int, edges: np.ndarray, name: str = "CollegeMsg top users"):
        n = _validate.integer("n", n, 2)
        if not n <= 22:
            raise ValueError(f"n must be in [2, 22]. Found {n!r}.")
        _validate.node_pairs("edges", edges, n, ordered=False, nonempty=True)
        self.n, self.edges, self.name, self.T = int(n), np.asarray(edges, dtype=np.int64), name, len(edges)
        ids = np.arange(2 ** (n - 1), dtype=np.int64)
        self._side = np.zeros((n, ids.size), dtype=bool)
        for j in range(1, n):
            self._side[j] = (ids >> (j - 1)) & 1
        self._t, self._cut = 0, np.zeros(ids.size, dtype=np.int32)
        self._laws: dict = {}  # (t, eps) -> cached law (:meth:`_law`)
        self._steps: dict = {}  # t -> cached cut values and their counts per block (:meth:`_step`)
        self._block_of = np.arange(ids.size, dtype=np.int64) // min(_BLOCK, ids.size)  # block of each cut id
        self._opt = np.array([self._cuts(t).max() for t in range(1, self.T + 1)], dtype=float)

    def _cuts(self, t: int) -> np.ndarray:
        """Cut values of all cuts after t insertions (cached, advanced incrementally)."""
        if t < self._t:
            self._t, self._cut = 0, np.zeros_like(self._cut)
        for u, v in self.edges[self._t : t]:
            self._cut += self._side[u] != self._side[v]
        self._t = t
        return self._cut

    def value(self, t: int, Y) -> np.ndarray:
        """Cut value of each cut id in Y (int (B,)): float (B,).

        Raises:
            ValueError: naming t (not an integer in [1, T]) or Y (not cut ids in [0, 2^(n-1))).
        """
        _validate.integer("Y", Y, 0, scalar=False, maximum=2 ** (self.n - 1) - 1)
        return self._cuts(t)[np.asarray(Y, dtype=np.int64)].astype(float)

    @staticmethod
    def _lru(cache: dict, key, make, keep: int):
        """``cache[key]``, made by ``make()`` if absent; the cache keeps its ``keep`` most recently used keys."""
        value = cache.pop(key, None)
        if value is None:
            value = make()
            while len(cache) >= keep:
                cache.pop(next(iter(cache)))  # the least recently used
        cache[key] = value
        return value

    def _step(self, t: int) -> dict:
        """What every eps shares at step t, cached for the last :data:`_STEP_KEYS` steps: ``cut``, the cut values of
        all cut ids (a copy); ``hist`` (blocks, max cut + 1), the number of cuts of each value in each block of
        ``block`` consecutive cut ids; ``count``, the cuts of each value."""

        def make():
            cut = self._cuts(t).copy()
            V = int(cut.max()) + 1
            block = min(_BLOCK, cut.size)
            hist = np.bincount(self._block_of * V + cut, minlength=(cut.size // block) * V)
            hist = hist.reshape(-1, V).astype(float)
            return {"cut": cut, "hist": hist, "count": hist.sum(axis=0), "block": block}

        return self._lru(self._steps, int(t), make, _STEP_KEYS)

    def _law(self, t: int, eps: float) -> dict:
        """The exponential mechanism at (t, eps), cached for the last :data:`_LAW_KEYS` keys: ``weight``, the weight
        exp(eps (v - max cut)/2) of each cut value v (float (max cut + 1,)), and ``block_cdf``, the CDF of the blocks'
        total weights; filled in when first needed, ``calls`` (calls of :meth:`sample`), ``cdf`` (the CDF over all cut
        ids, for a large or repeated call of :meth:`sample`) and ``hist`` (the score law,
        :meth:`score_distribution`)."""

        def make():
            step = self._step(t)
            x = 0.5 * eps * np.arange(step["count"].size)
            weight = np.exp(x - x[-1])
            return {"weight": weight, "block_cdf": np.cumsum(step["hist"] @ weight)}

        return self._lru(self._laws, (int(t), float(eps)), make, _LAW_KEYS)

    def sample(self, t: int, eps: float, delta: float, size: int, rng: np.random.Generator) -> np.ndarray:
        """``size`` draws of the exponential mechanism over all cuts (``delta`` ignored): cut ids, int (size,).

        By inversion with one uniform per draw, in two levels: a block of ``_BLOCK`` consecutive cut ids by the
        CDF of the blocks' weights (from the per-step counts of cut values per block: O(blocks x cut values) per
        new eps), then a cut id within it by the CDF of its weights (O(``_BLOCK``) per draw). A call of many draws,
        or at a (t, eps) asked more than ``_FULL_CDF_CALLS`` times, inverts the CDF over all cut ids instead
        (O(2^(n-1)) once per (t, eps), cached; then O(n) per draw): the same law.

        Raises:
            ValueError: eps <= 0.
        """
        rng = _validate.generator(rng)
        _validate.positive("eps", eps)
        step, law = self._step(t), self._law(t, eps)
        cut, block, weight = step["cut"], step["block"], law["weight"]
        law["calls"] = law.get("calls", 0) + 1
        if "cdf" in law or size * block * _FULL_CDF >= cut.size or law["calls"] > _FULL_CDF_CALLS:
            if "cdf" not in law:
                law["cdf"] = np.cumsum(weight[cut])
            cdf = law["cdf"]
            return np.minimum(np.searchsorted(cdf, rng.random(size) * cdf[-1], side="right"), cut.size - 1)
        block_cdf = law["block_cdf"]
        u = rng.random(size) * block_cdf[-1]
        b = np.minimum(np.searchsorted(block_cdf, u, side="right"), block_cdf.size - 1)
        u -= np.where(b > 0, block_cdf[np.maximum(b - 1, 0)], 0.0)  # the uniform's rest within block b
        drawn, row = np.unique(b, return_inverse=True)
        cdf = np.cumsum(weight[cut[(drawn * block)[:, None] + np.arange(block)]], axis=1)[row]
        j = np.count_nonzero(cdf <= u[:, None], axis=1)
        over = j >= block  # rounding put the rest at the block's total: its last positive weight
        if over.any():
            j[over] = np.count_nonzero(cdf[over] < cdf[over, -1:], axis=1)
        return b * block + j

    def score_distribution(self, t: int, eps: float, delta: float):
        """Overrides the base's None: A is the exponential mechanism over all cuts, so its score law is a histogram:
        (values 0..max cut, probabilities), float arrays, cached per (t, eps) (:meth:`_law`; copies are returned).

        Raises:
            ValueError: eps <= 0.
        """
        _validate.positive("eps", eps)
        values, probs = self._hist(t, eps)
        return values.copy(), probs.copy()

    def _hist(self, t: int, eps: float):
        """The score law of :meth:`score_distribution` as the cached arrays (arguments checked by the caller)."""
        law = self._law(t, eps)
        if "hist" not in law:
            w = self._step(t)["count"] * law["weight"]  # cuts per value times their weight
            law["hist"] = (np.arange(w.size, dtype=float), w / w.sum())
        return law["hist"]

    def _score_laws(self, t: int, eps, delta) -> list:
        """:meth:`COProblem._score_laws`: the cached laws, not copies."""
        return [self._hist(t, e) for e in eps]

    @property
    def opt(self) -> np.ndarray:
        """Exact OPT_t (enumeration), t = 1..T."""
        return self._opt
