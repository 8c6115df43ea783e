"""Max-Cut under continual observation (Section 8.4) on a small real edge stream.

Stream: the subgraph of CollegeMsg induced by its ``k`` most active users (messages sent or received), each
undirected pair inserted at its first message, one CO step per inserted edge. Neighbouring streams differ in one
inserted edge; the cut value changes by at most 1 and never decreases under insertions.

Batch algorithm A(X, eps): the exponential mechanism over all 2^(n-1) cuts (node 0 fixed on one side) with score the
cut value (sensitivity 1): Pr[S] ~ exp(eps cut(S)/2), pure eps-edge-DP. W.p. >= 1 - beta its cut is at least
OPT - (2/eps)(ln 2^(n-1) + ln(1/beta)) = OPT - O((n + ln(1/beta))/eps): the error form of Chandra et al. (2024)
quoted in Section 8.4 (their algorithm is a different one; this is a stand-in), and likewise exponential time.
Because the law of cut(A(X)) is known exactly (a histogram of cut values), the test mechanism's count is one
binomial draw. Only :func:`top_users_stream` (which reads a DataFrame) imports pandas, when it is called.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from privtest import _validate
from privtest.co.mechanisms import COProblem

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["MaxCut", "top_users_stream"]


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

    def _logits(self, t: int, eps: float) -> np.ndarray:
        x = 0.5 * eps * self._cuts(t)
        return x - x.max()

    def sample(self, t: int, eps: float, delta: float, size: int, rng: np.random.Generator) -> np.ndarray:
        """``size`` draws of the exponential mechanism over all cuts (``delta`` ignored): cut ids, int (size,)."""
        rng = _validate.generator(rng)
        _validate.positive("eps", eps)
        w = np.exp(self._logits(t, eps))
        c = np.cumsum(w)
        return np.minimum(np.searchsorted(c, rng.random(size) * c[-1], side="right"), c.size - 1)

    def score_distribution(self, t: int, eps: float, delta: float):
        """Overrides the base's None: A is the exponential mechanism over all cuts, so its score law is a histogram."""
        cut = self._cuts(t)
        values = np.arange(cut.max() + 1)
        w = np.bincount(cut, weights=np.exp(self._logits(t, eps)), minlength=values.size)
        return values.astype(float), w / w.sum()

    @property
    def opt(self) -> np.ndarray:
        """Exact OPT_t (enumeration), t = 1..T."""
        return self._opt
