"""Graph streams and the densest-subgraph application (Section 8.2) for BatchToCO.

Streams are insertion-only: at each CO step a batch of edges (CollegeMsg by day: each undirected pair at its first
message) or contacts (primary school by 10-minute window: every contact adds weight 1 to its pair, a weighted
multigraph) is inserted; the per-interaction streams insert exactly one message / contact per step. Neighbouring
streams differ in one inserted edge / contact (edge-DP, as in Section 8.2); the objectives below change by at most 1
under that change and never decrease under insertions.

A stream is stored as its insertions (CSR by step: ``step_ptr``, ``ins_pair``, ``ins_w``), never as a dense
(T, P) weight matrix: the primary school with one contact per step would need 125,773 x 8,317 float64 = 8.4 GB,
its insertions take 2 MB. :class:`StreamState` replays them forward incrementally (O(1) per step for a
per-interaction stream).

Only the loaders of raw data (:func:`collegemsg_stream` and the like, which take a pandas DataFrame) import pandas,
when they are called. Every function checks its arguments first (ValueError naming the parameter and its range).

Example:
    >>> s = edge_stream([0, 1, 2, 0], [1, 2, 3, 2], [0, 0, 1, 1], n=4, name="toy")
    >>> s.T, s.pairs.tolist(), densest_subgraph_exact(s, [1, 2]).round(4).tolist()
    (2, [[0, 1], [1, 2], [0, 2], [2, 3]], [0.6667, 1.0])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from privtest import _validate
from privtest.co.mechanisms import COProblem

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "DensestPair",
    "DensestSubgraph",
    "EdgeStream",
    "StreamState",
    "burst_stream",
    "collegemsg_messages_stream",
    "collegemsg_stream",
    "densest_subgraph_exact",
    "densest_subgraph_lp",
    "densest_subgraph_opt",
    "edge_stream",
    "primary_school_contacts_stream",
    "primary_school_stream",
    "truncate",
    "upper_from_exact",
    "weighted_core",
]

#: (t, eps) keys whose exponential-mechanism law :meth:`DensestPair._law` keeps.
_LAW_KEYS = 8
#: Floats of the (rows, n) blocks :meth:`DensestSubgraph.value` builds at once.
_VALUE_FLOATS = 1 << 16
#: Nodes from which :func:`_ascending` presorts by quantised keys (numpy's quicksort of up to a few hundred floats
#: is faster).
_PRESORT_NODES = 512


@dataclass(frozen=True)
class EdgeStream:
    """An insertion-only weighted graph stream on nodes 0..n-1, stored as its insertions.

    Attributes:
        name: label.
        n: number of nodes (the public node universe).
        pairs: int64 (P, 2), u < v, every pair that ever appears, in order of first insertion (so the pairs present
            after step t are the prefix ``pairs[:active(t)]``).
        step_ptr: int64 (T + 1,), non-decreasing, step_ptr[0] = 0: the insertions of step t (1-based) are rows
            step_ptr[t-1]:step_ptr[t] of ``ins_pair`` / ``ins_w``.
        ins_pair: int64 (M,), the pair index (row of ``pairs``) of each insertion.
        ins_w: float64 (M,), > 0, the weight each insertion adds to its pair.
        labels: length-T list of step labels (e.g. the day).
        n_active: int64 (T + 1,), number of pairs present after step t (derived).

    Raises:
        ValueError: naming the field that is malformed (n not an integer >= 1, pairs not (P, 2) distinct integer
            pairs with 0 <= u < v < n, step_ptr, ins_pair or ins_w inconsistent, labels not of length T).

    Example:
        >>> s = EdgeStream("toy", 3, np.array([[0, 1], [1, 2]]), np.array([0, 1, 3]), np.array([0, 1, 0]),
        ...                np.ones(3), ["a", "b"])
        >>> s.T, s.active(1), s.weights(2).tolist()
        (2, 1, [2.0, 1.0])
    """

    name: str
    n: int
    pairs: np.ndarray
    step_ptr: np.ndarray
    ins_pair: np.ndarray
    ins_w: np.ndarray
    labels: list
    n_active: np.ndarray = field(init=False, repr=False)

    def __post_init__(self):
        n = _validate.integer("n", self.n, 1)
        _check_pairs(n, self.pairs)
        _validate.integer("step_ptr", self.step_ptr, 0, scalar=False)
        _validate.integer("ins_pair", self.ins_pair, 0, scalar=False, maximum=max(len(self.pairs) - 1, 0))
        _validate.positive("ins_w", self.ins_w, scalar=False)
        if np.ndim(self.step_ptr) != 1 or np.ndim(self.ins_pair) != 1 or np.ndim(self.ins_w) != 1:
            raise ValueError("step_ptr, ins_pair and ins_w must be 1-d arrays.")
        if len(self.ins_pair) and len(self.pairs) == 0:
            raise ValueError("ins_pair must index rows of pairs; pairs is empty.")
        if len(self.labels) != len(self.step_ptr) - 1:
            raise ValueError(
                f"labels must have one entry per step (T = {len(self.step_ptr) - 1}). Found {len(self.labels)}."
            )
        ptr = np.asarray(self.step_ptr, dtype=np.int64)
        if ptr.ndim != 1 or ptr.size < 1 or ptr[0] != 0 or np.any(np.diff(ptr) < 0) or ptr[-1] != len(self.ins_pair):
            raise ValueError("step_ptr must be non-decreasing from 0 to the number of insertions.")
        if len(self.ins_w) != len(self.ins_pair) or np.any(np.asarray(self.ins_w) <= 0):
            raise ValueError("ins_w must hold one weight > 0 per insertion.")
        seen = np.maximum.accumulate(np.concatenate([[-1], np.asarray(self.ins_pair, dtype=np.int64)])) + 1
        if len(self.ins_pair) and np.any(np.asarray(self.ins_pair) > seen[:-1]):
            raise ValueError("pairs must be ordered by first insertion (ins_pair introduces pair p only after p-1).")
        object.__setattr__(self, "n_active", seen[ptr])

    @property
    def T(self) -> int:
        """Number of steps."""
        return self.step_ptr.size - 1

    @classmethod
    def from_weights(cls, name: str, n: int, pairs: np.ndarray, W: np.ndarray, labels=None) -> EdgeStream:
        """A stream from a dense cumulative weight matrix W (T, P) (row t-1 = weights after step t, non-decreasing):
        a convenience for small tests. Pairs are reordered by first insertion.

        Raises:
            ValueError: if W is not finite and >= 0, decreases somewhere or its shape does not match ``pairs``, or n
                or pairs are out of range (naming it).

        Example:
            >>> s = EdgeStream.from_weights("toy", 3, np.array([[0, 1], [1, 2]]), [[0.0, 1.0], [2.0, 1.0]])
            >>> s.pairs.tolist(), s.weights(2).tolist()
            ([[1, 2], [0, 1]], [1.0, 2.0])
        """
        n = _validate.integer("n", n, 1)
        _check_pairs(n, pairs)
        _validate.nonnegative("W", W, scalar=False)
        W = np.asarray(W, dtype=float)
        pairs = np.asarray(pairs, dtype=np.int64)
        if W.ndim != 2 or W.shape[1] != len(pairs):
            raise ValueError(f"W must have shape (T, {len(pairs)}). Found {W.shape}.")
        inc = np.diff(np.vstack([np.zeros((1, W.shape[1])), W]), axis=0)
        if np.any(inc < 0):
            raise ValueError("W must be non-decreasing in t (insertion-only stream).")
        step, pid = np.nonzero(inc)
        return _from_insertions(name, n, pairs, step, pid, inc[step, pid], W.shape[0], labels)

    def active(self, t: int) -> int:
        """Number of pairs present after step t (an integer in [0, T]): ``pairs[:active(t)]``."""
        t = _validate.integer("t", t, 0, maximum=self.T)
        return int(self.n_active[t])

    def weights(self, t: int) -> np.ndarray:
        """Float64 (P,) weight of every pair after step t (an integer in [0, T]); O(insertions up to t)."""
        t = _validate.integer("t", t, 0, maximum=self.T)
        end = self.step_ptr[t]
        return np.bincount(self.ins_pair[:end], self.ins_w[:end], len(self.pairs))


def _check_pairs(n: int, pairs) -> None:
    _validate.node_pairs("pairs", pairs, n)
    rows = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
    if np.unique(rows[:, 0] * n + rows[:, 1]).size != rows.shape[0]:  # a pair is one row; its weight sums insertions
        raise ValueError("pairs must list each node pair once (a repeated pair is one row, inserted again).")


def _check_stream(stream) -> None:
    if not isinstance(stream, EdgeStream):
        raise TypeError(f"stream must be a privtest.co.graphs.EdgeStream. Found {type(stream).__name__}.")


def _from_insertions(name, n, pairs, step, pid, w, T, labels) -> EdgeStream:
    """EdgeStream from insertions (0-based step, pair index into ``pairs``, weight), any order; pairs are renumbered
    by first insertion (ties by original index) and pairs never inserted are dropped."""
    order = np.lexsort((pid, step))
    step, pid, w = np.asarray(step)[order], np.asarray(pid)[order], np.asarray(w, dtype=float)[order]
    _, first = np.unique(pid, return_index=True)
    by_first = pid[np.sort(first)]  # original pair ids in order of first insertion
    new_id = np.full(len(pairs), -1, dtype=np.int64)
    new_id[by_first] = np.arange(by_first.size)
    ptr = np.concatenate([[0], np.cumsum(np.bincount(step, minlength=T))]).astype(np.int64)
    labels = list(range(T)) if labels is None else list(labels)
    return EdgeStream(name, int(n), np.asarray(pairs)[by_first], ptr, new_id[pid], w, labels)


def edge_stream(u, v, step, n: int, name: str, labels=None, multigraph: bool = False) -> EdgeStream:
    """Build an :class:`EdgeStream` from time-ordered interactions.

    Args:
        u, v: int arrays of node ids in [0, n) (self-loops are dropped).
        step: int array (same length), the CO step (0-based, non-decreasing) of each interaction.
        n: node count.
        name: label.
        labels: optional step labels (length max(step)+1).
        multigraph: True: every interaction adds weight 1 to its pair; False: a pair is inserted once (weight 1) at
            its first interaction.

    Returns:
        :class:`EdgeStream`.

    Raises:
        ValueError: naming u, v, step, n, labels or multigraph when out of range (step must be non-decreasing
            integers >= 0, below len(labels) when labels are given).

    Example:
        >>> s = edge_stream([0, 1, 0], [1, 2, 1], [0, 1, 1], n=3, name="toy", multigraph=True)
        >>> s.T, s.weights(2).tolist()
        (2, [2.0, 1.0])
    """
    n = _validate.integer("n", n, 1)
    _validate.integer("u", u, 0, scalar=False, maximum=n - 1)
    _validate.integer("v", v, 0, scalar=False, maximum=n - 1)
    _validate.integer("step", step, 0, scalar=False)
    _validate.boolean("multigraph", multigraph)
    if not (np.ndim(u) == np.ndim(v) == np.ndim(step) == 1 and len(u) == len(v) == len(step) > 0):
        raise ValueError("u, v and step must be non-empty 1-d arrays of one length (one entry per interaction).")
    if np.any(np.diff(np.asarray(step)) < 0):
        raise ValueError("step must be non-decreasing (interactions in time order).")
    if labels is not None and int(np.max(step)) >= len(labels):
        raise ValueError(f"labels must have an entry for every step (max(step) + 1 = {int(np.max(step)) + 1}).")
    u, v, step = np.asarray(u, np.int64), np.asarray(v, np.int64), np.asarray(step, np.int64)
    keep = u != v
    a, b, step = np.minimum(u, v)[keep], np.maximum(u, v)[keep], step[keep]
    key = a * n + b
    if not multigraph:
        key, first = np.unique(key, return_index=True)
        step = step[first]
    uniq, pid = np.unique(key, return_inverse=True)
    T = int(step.max()) + 1 if labels is None else len(labels)
    pairs = np.stack([uniq // n, uniq % n], axis=1)
    return _from_insertions(name, n, pairs, step, pid, np.ones(pid.size), T, labels)


class StreamState:
    """Weights and weighted degrees of a stream after step t, replayed forward incrementally.

    ``at(t)`` applies the insertions of steps (current, t]; a short step back removes those of (t, current] (exact for
    the integer-valued weights of every stream here), a long one replays from step 0. Attributes
    after ``at(t)``: ``t``, ``w`` (float64 (P,), zero for pairs not yet present), ``deg`` (float64 (n,)),
    ``active`` (number of pairs present: ``w[:active]`` > 0, ``stream.pairs[:active]``).

    Args:
        stream: the :class:`EdgeStream`.

    Raises:
        TypeError: if ``stream`` is not an :class:`EdgeStream`; (``at``) ValueError naming t unless it is an integer
            in [0, T].

    Example:
        >>> state = StreamState(edge_stream([0, 1, 0], [1, 2, 1], [0, 1, 1], n=3, name="toy", multigraph=True))
        >>> state.at(2).deg.tolist(), state.at(1).w.tolist()
        ([2.0, 3.0, 1.0], [1.0, 0.0])
    """

    def __init__(self, stream: EdgeStream):
        _check_stream(stream)
        self.stream = stream
        self.t, self.active = 0, 0
        self.w = np.zeros(len(stream.pairs))
        self.deg = np.zeros(stream.n)

    def at(self, t: int) -> StreamState:
        """The state after step t (an integer in [0, T]); returns ``self``."""
        return self._at(_validate.integer("t", t, 0, maximum=self.stream.T))

    def _at(self, t: int) -> StreamState:
        """:meth:`at` without the check (t a Python int in [0, T]: the problems' methods, whose t is checked on
        entry)."""
        s = self.stream
        if t == self.t:
            return self
        lo, hi = s.step_ptr[min(t, self.t)], s.step_ptr[max(t, self.t)]
        if t < self.t and 2 * (hi - lo) > hi:  # far back: replay from step 0
            self.t, self.w[:], self.deg[:] = 0, 0.0, 0.0
            lo, hi = 0, s.step_ptr[t]
        if hi > lo:
            sign = -1.0 if t < self.t else 1.0  # a short step back removes the insertions (exact: integer weights)
            pid, w = s.ins_pair[lo:hi], sign * s.ins_w[lo:hi]
            if hi - lo == 1:
                p, x = int(pid[0]), float(w[0])
                self.w[p] += x
                self.deg[s.pairs[p, 0]] += x
                self.deg[s.pairs[p, 1]] += x
            else:
                np.add.at(self.w, pid, w)
                np.add.at(self.deg, s.pairs[pid, 0], w)
                np.add.at(self.deg, s.pairs[pid, 1], w)
        self.t, self.active = t, int(s.n_active[t])
        return self


def _check_frame(df, columns) -> None:
    import pandas as pd

    if not isinstance(df, pd.DataFrame) or any(c not in df.columns for c in columns):
        raise ValueError(f"df must be a pandas DataFrame with the columns {list(columns)}.")
    if len(df) == 0:
        raise ValueError("df must hold at least one row.")


def collegemsg_stream(df: pd.DataFrame, freq: str = "1D") -> EdgeStream:
    """CollegeMsg as an unweighted edge stream: each undirected pair inserted at its first message, one step per
    ``freq`` (calendar days by default) from the first to the last message.

    Args:
        df: DataFrame with columns ``src``, ``dst`` (user ids) and ``time`` (datetimes), as
            :func:`privtest_artifact.data.collegemsg` loads it. freq: a pandas frequency string (e.g. "1D").

    Returns:
        :class:`EdgeStream`.

    Raises:
        ValueError: naming df or freq when malformed.

    Example:
        >>> import pandas as pd
        >>> df = pd.DataFrame({"src": [1, 2], "dst": [2, 3], "time": pd.to_datetime(["2004-04-15", "2004-04-17"])})
        >>> s = collegemsg_stream(df)
        >>> s.T, s.labels
        (3, ['2004-04-15', '2004-04-16', '2004-04-17'])
    """
    import pandas as pd

    _check_frame(df, ("src", "dst", "time"))
    if not isinstance(freq, str):
        raise ValueError(f"freq must be a pandas frequency string such as '1D'. Found {freq!r}.")
    day = df["time"].dt.floor(freq)
    days = pd.date_range(day.min(), day.max(), freq=freq)
    step = ((day - day.min()) // pd.Timedelta(freq)).to_numpy()
    ids = np.unique(np.concatenate([df["src"], df["dst"]]))
    u, v = np.searchsorted(ids, df["src"]), np.searchsorted(ids, df["dst"])
    return edge_stream(u, v, step, ids.size, "CollegeMsg", [d.strftime("%Y-%m-%d") for d in days])


def collegemsg_messages_stream(df: pd.DataFrame) -> EdgeStream:
    """CollegeMsg with one CO step per message (59,835 steps, time order as shipped, ties in file order): a weighted
    multigraph, every message adds weight 1 to its undirected pair (a self-message is a step that inserts nothing).

    Args:
        df: DataFrame with columns ``src`` and ``dst`` (:func:`privtest_artifact.data.collegemsg`).

    Returns:
        :class:`EdgeStream`.

    Raises:
        ValueError: naming df when malformed.

    Example:
        >>> import pandas as pd
        >>> collegemsg_messages_stream(pd.DataFrame({"src": [1, 2, 1], "dst": [2, 3, 2]})).weights(3).tolist()
        [2.0, 1.0]
    """
    _check_frame(df, ("src", "dst"))
    ids = np.unique(np.concatenate([df["src"], df["dst"]]))
    u, v = np.searchsorted(ids, df["src"]), np.searchsorted(ids, df["dst"])
    return edge_stream(u, v, np.arange(len(df)), ids.size, "CollegeMsg (one message per step)", multigraph=True)


def primary_school_stream(df: pd.DataFrame, seconds: int = 600) -> EdgeStream:
    """Primary-school contacts as a weighted multigraph stream: every contact adds 1 to its pair; one step per
    ``seconds``-long window that contains at least one contact (nights and empty windows are not steps).

    Args:
        df: DataFrame with columns ``t`` (seconds), ``i`` and ``j`` (person ids)
            (:func:`privtest_artifact.data.primary_school`). seconds: window length, an integer >= 1.

    Returns:
        :class:`EdgeStream`.

    Raises:
        ValueError: naming df or seconds when malformed.

    Example:
        >>> import pandas as pd
        >>> df = pd.DataFrame({"t": [0, 20, 900], "i": [1, 1, 2], "j": [2, 3, 3]})
        >>> primary_school_stream(df).labels
        [0, 1]
    """
    _check_frame(df, ("t", "i", "j"))
    seconds = _validate.integer("seconds", seconds, 1)
    window = (df["t"].to_numpy() - df["t"].min()) // seconds
    wins, step = np.unique(window, return_inverse=True)
    ids = np.unique(np.concatenate([df["i"], df["j"]]))
    u, v = np.searchsorted(ids, df["i"]), np.searchsorted(ids, df["j"])
    return edge_stream(u, v, step, ids.size, "primary school", [int(w) for w in wins], multigraph=True)


def primary_school_contacts_stream(df: pd.DataFrame) -> EdgeStream:
    """Primary-school contacts with one CO step per contact (125,773 steps, time order, ties in file order): a
    weighted multigraph, every contact adds weight 1 to its pair.

    Args:
        df: DataFrame with columns ``i`` and ``j`` (person ids) (:func:`privtest_artifact.data.primary_school`).

    Returns:
        :class:`EdgeStream`.

    Raises:
        ValueError: naming df when malformed.

    Example:
        >>> import pandas as pd
        >>> primary_school_contacts_stream(pd.DataFrame({"i": [1, 1], "j": [2, 2]})).weights(2).tolist()
        [2.0]
    """
    _check_frame(df, ("i", "j"))
    ids = np.unique(np.concatenate([df["i"], df["j"]]))
    u, v = np.searchsorted(ids, df["i"]), np.searchsorted(ids, df["j"])
    return edge_stream(u, v, np.arange(len(df)), ids.size, "primary school (one contact per step)", multigraph=True)


def burst_stream(n: int, base_edges: int, T: int, t_burst: int, burst: int, clique: int, seed: int) -> EdgeStream:
    """A *synthetic* bursty contact stream (not data), a weighted multigraph.

    A public random base graph G0 on n nodes with ``base_edges`` distinct pairs (uniform, seeded by ``seed``) receives
    one contact on a uniformly chosen pair of G0 at every step, so OPT_t grows slowly (about t/base_edges times G0's
    density). At the single step ``t_burst`` (1-based, unannounced to the algorithms) ``burst`` contacts arrive at
    once, spread evenly over the pairs of a fixed ``clique`` of nodes (clique = 2: one pair), so OPT jumps from the
    background level to about burst/clique: by a large factor. Neighbouring streams still differ in one contact
    (the privacy unit); only the step carries many.

    Args:
        n, base_edges, T, t_burst, burst, clique: integers (ranges below). seed: anything
            :func:`numpy.random.default_rng` accepts.

    Returns:
        :class:`EdgeStream`.

    Raises:
        ValueError: on sizes out of range (2 <= clique <= n, 1 <= base_edges <= n(n-1)/2, 1 <= t_burst <= T,
            burst >= 0), naming the parameter.

    Example:
        >>> s = burst_stream(n=6, base_edges=5, T=10, t_burst=4, burst=12, clique=2, seed=0)
        >>> s.T, float(s.weights(4).max()) >= 12
        (10, True)
    """
    n = _validate.integer("n", n, 2)
    base_edges = _validate.integer("base_edges", base_edges, 1)
    T = _validate.integer("T", T, 1)
    t_burst = _validate.integer("t_burst", t_burst, 1)
    burst = _validate.integer("burst", burst, 0)
    clique = _validate.integer("clique", clique, 2)
    _validate.generator(seed, "seed")
    if not (2 <= clique <= n and 1 <= base_edges <= n * (n - 1) // 2):
        raise ValueError(f"need 2 <= clique <= n, 1 <= base_edges <= n(n-1)/2. Found {n=}, {base_edges=}, {clique=}.")
    if not (1 <= t_burst <= T and burst >= 0):
        raise ValueError(f"need 1 <= t_burst <= T = {T} and burst >= 0. Found t_burst={t_burst}, burst={burst}.")
    rng = np.random.default_rng(seed)
    iu, ju = np.triu_indices(n, 1)
    base = rng.choice(iu.size, size=base_edges, replace=False)
    pick = base[rng.integers(0, base_edges, T)]
    cl = np.sort(rng.choice(n, size=clique, replace=False))
    ci, cj = np.triu_indices(clique, 1)
    extra = np.arange(burst) % ci.size
    u = np.concatenate([iu[pick], cl[ci[extra]]])
    v = np.concatenate([ju[pick], cl[cj[extra]]])
    step = np.concatenate([np.arange(T), np.full(burst, t_burst - 1)])
    order = np.argsort(step, kind="stable")
    return edge_stream(u[order], v[order], step[order], n, "synthetic burst", multigraph=True)


def densest_subgraph_lp(n: int, pairs: np.ndarray, w: np.ndarray) -> float:
    r"""Exact maximum density max_S w(E(S))/#S (#S: the size of S) by Charikar's LP (optimal value = OPT exactly;
    Section 8.2's OPT_t): max sum_e w_e y_e s.t. y_e <= x_u, y_e <= x_v, sum_v x_v = 1, x, y >= 0 (HiGHS).

    Args:
        n: nodes, an integer >= 1. pairs: integer (P, 2), pairs u < v in [0, n). w: weights >= 0, (P,).

    Returns:
        float: the maximum density.

    Raises:
        ValueError: naming n, pairs or w when malformed. RuntimeError: if the LP solver fails.

    Example:
        >>> densest_subgraph_lp(3, np.array([[0, 1], [0, 2], [1, 2]]), np.ones(3))
        1.0
    """
    from scipy import optimize, sparse  # on use: scipy.optimize and scipy.sparse are slow to import

    _validate.weighted_pairs(n, pairs, w)
    w = np.asarray(w, dtype=float)
    keep = w > 0
    pairs, w = pairs[keep], w[keep]
    P = len(w)
    if P == 0:
        return 0.0
    rows = np.repeat(np.arange(2 * P), 2)
    cols = np.empty(4 * P, dtype=np.int64)
    vals = np.empty(4 * P)
    cols[0::4], cols[1::4] = n + np.arange(P), pairs[:, 0]
    cols[2::4], cols[3::4] = n + np.arange(P), pairs[:, 1]
    vals[0::2], vals[1::2] = 1.0, -1.0
    A = sparse.csr_matrix((vals, (rows, cols)), shape=(2 * P, n + P))
    c = np.concatenate([np.zeros(n), -w])
    A_eq = sparse.csr_matrix(np.concatenate([np.ones(n), np.zeros(P)])[None, :])
    res = optimize.linprog(c, A_ub=A, b_ub=np.zeros(2 * P), A_eq=A_eq, b_eq=[1.0], bounds=(0, None), method="highs")
    if res.status != 0:
        raise RuntimeError(f"densest-subgraph LP failed: {res.message}")
    return float(-res.fun)


def weighted_core(n: int, pairs: np.ndarray, w: np.ndarray, level: float) -> np.ndarray:
    """Nodes of the weighted ``level``-core: repeatedly drop nodes of weighted degree < level. Boolean (n,).

    Args:
        n, pairs, w: as in :func:`densest_subgraph_lp`. level: a finite real.

    Raises:
        ValueError: naming the parameter when malformed.

    Example:
        >>> weighted_core(4, np.array([[0, 1], [0, 2], [1, 2], [2, 3]]), np.ones(4), 2.0).tolist()
        [True, True, True, False]
    """
    _validate.weighted_pairs(n, pairs, w)
    _validate.finite("level", level)
    w = np.asarray(w, dtype=float)
    alive = np.ones(n, dtype=bool)
    for _ in range(n + 1):  # every pass but the last drops a node
        on = alive[pairs[:, 0]] & alive[pairs[:, 1]]
        deg = np.bincount(pairs[on, 0], w[on], n) + np.bincount(pairs[on, 1], w[on], n)
        drop = alive & (deg < level)
        if not drop.any():
            return alive
        alive &= ~drop
    return alive


def densest_subgraph_exact(stream: EdgeStream, steps) -> np.ndarray:
    """Exact OPT_t = max_S w_t(E(S))/#S at the increasing steps ``steps`` (1-based): Charikar's LP on the weighted
    core of level lb = max(previous exact OPT, w(E)/n).

    Restricting the LP to that core is exact: every node of a densest subgraph S* has weighted degree >= OPT >= lb
    inside S* (removing it would not lower the density), so S* survives the peeling.

    Args:
        stream: the :class:`EdgeStream`. steps: increasing integers in [1, T].

    Returns:
        float array (len(steps),).

    Raises:
        TypeError: if ``stream`` is not an :class:`EdgeStream`.
        ValueError: if ``steps`` is not increasing integers within [1, T].

    Example:
        >>> s = edge_stream([0, 0, 1, 2], [1, 2, 2, 3], [0, 0, 1, 2], n=4, name="toy")
        >>> densest_subgraph_exact(s, [1, 2, 3]).round(4).tolist()
        [0.6667, 1.0, 1.0]
    """
    _check_stream(stream)
    _validate.integer("steps", steps, 1, scalar=False, maximum=stream.T)
    steps = np.asarray(steps, dtype=np.int64)
    if steps.ndim != 1:
        raise ValueError(f"steps must be increasing in [1, T={stream.T}].")
    if steps.size and (steps[0] < 1 or steps[-1] > stream.T or np.any(np.diff(steps) <= 0)):
        raise ValueError(f"steps must be increasing in [1, T={stream.T}].")
    state = StreamState(stream)
    out = np.zeros(steps.size)
    lb = 0.0
    for k, t in enumerate(steps):
        st = state.at(int(t))
        pairs, w = stream.pairs[: st.active], st.w[: st.active]
        lb = max(lb, w.sum() / stream.n)
        core = weighted_core(stream.n, pairs, w, lb)
        inside = core[pairs[:, 0]] & core[pairs[:, 1]]
        ids = np.flatnonzero(core)
        sub = np.searchsorted(ids, pairs[inside])
        lb = max(lb, densest_subgraph_lp(ids.size, sub, w[inside])) if ids.size else lb
        out[k] = lb
    return out


def upper_from_exact(T: int, steps, exact) -> tuple[np.ndarray, np.ndarray]:
    """OPT_t references for t = 1..T from exact values at increasing ``steps`` (which must include T): exact there,
    and in between the next exact value, an upper bound because OPT_t is non-decreasing (data monotonicity).

    Args:
        T: stream length, an integer >= 1. steps: increasing integers in [1, T] ending at T. exact: OPT at those
            steps, finite reals (one per step).

    Returns:
        (opt, kind): float (T,) and object (T,) array of "exact" / "upper bound".

    Raises:
        ValueError: naming T, steps or exact when malformed.

    Example:
        >>> opt, kind = upper_from_exact(4, [2, 4], [1.0, 3.0])
        >>> opt.tolist(), kind.tolist()
        ([1.0, 1.0, 3.0, 3.0], ['upper bound', 'exact', 'upper bound', 'exact'])
    """
    T = _validate.integer("T", T, 1)
    _validate.integer("steps", steps, 1, scalar=False, maximum=T)
    _validate.finite("exact", exact, scalar=False)
    steps = np.asarray(steps, dtype=np.int64)
    if np.shape(exact) != steps.shape or steps.ndim != 1 or np.any(np.diff(steps) <= 0):
        raise ValueError("steps must be increasing and exact must hold one value per step.")
    if steps.size == 0 or steps[-1] != T:
        raise ValueError(f"steps must end at T = {T}.")
    nxt = np.searchsorted(steps, np.arange(1, T + 1))
    kind = np.full(T, "upper bound", dtype=object)
    kind[steps - 1] = "exact"
    return np.asarray(exact, dtype=float)[nxt], kind


def densest_subgraph_opt(stream: EdgeStream, stride: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """OPT_t references for t = 1..T: exact (:func:`densest_subgraph_exact`) at t = stride, 2 stride, ... and T; in
    between, the next exact value (an upper bound, :func:`upper_from_exact`).

    Args:
        stream: the :class:`EdgeStream`. stride: an integer >= 1.

    Returns:
        (opt, kind): float (T,) and str (T,) array of "exact" / "upper bound".

    Raises:
        TypeError: if ``stream`` is not an :class:`EdgeStream`. ValueError: naming stride when out of range.

    Example:
        >>> s = edge_stream([0, 0, 1, 2], [1, 2, 2, 3], [0, 0, 1, 2], n=4, name="toy")
        >>> opt, kind = densest_subgraph_opt(s, stride=2)
        >>> opt.round(4).tolist(), kind.tolist()
        ([1.0, 1.0, 1.0], ['upper bound', 'exact', 'exact'])
    """
    _check_stream(stream)
    stride = _validate.step_index(stride, "stride")
    steps = np.array(sorted(set(range(stride, stream.T + 1, stride)) | {stream.T}))
    return upper_from_exact(stream.T, steps, densest_subgraph_exact(stream, steps))


def _check_opt(T: int, opt, opt_kind) -> None:
    """opt: finite reals >= 0, shape (T,); opt_kind: None or (T,) labels "exact" / "upper bound"."""
    _validate.per_step("opt", opt, T)
    if opt_kind is not None:
        kinds = np.asarray(opt_kind, dtype=object)
        if kinds.shape != (T,) or not all(k in ("exact", "upper bound") for k in kinds):
            raise ValueError(f'opt_kind must hold one label "exact" or "upper bound" per step (T = {T}).')


def _softmax_draw(logits: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Row-wise draw from softmax(logits) (exponential mechanism) by inversion: one uniform per row, the first index
    whose cumulative weight exceeds it times the row's total (never a zero weight: if rounding makes the uniform
    times the total reach it, the last positive weight). ``logits`` (B, m), finite or -inf, is overwritten."""
    c = np.subtract(logits, logits.max(axis=1, keepdims=True), out=logits)
    np.exp(c, out=c)
    np.cumsum(c, axis=1, out=c)
    u = rng.random(c.shape[0])
    u *= c[:, -1]
    pick = np.count_nonzero(c <= u[:, None], axis=1)
    over = pick >= c.shape[1]
    if over.any():
        pick[over] = np.count_nonzero(c[over] < c[over, -1:], axis=1)
    return pick


def _ascending(key: np.ndarray, center: float = 0.0, scale: float = 1.0) -> np.ndarray:
    """Row-wise argsort of ``key`` (B, n) floats (finite or -inf): int (B, n). From ``_PRESORT_NODES`` columns on,
    the rows are first ordered by a 16-bit quantisation of x/(1 + |x|), x = (key - center)/scale (a radix sort, fine
    within a few ``scale`` of ``center``), then by the keys themselves (a stable merge sort, fast on nearly sorted
    rows): the exact stable order whatever ``center`` and ``scale`` (> 0) are, which only set the speed."""
    B, n = key.shape
    if n < _PRESORT_NODES:
        return np.argsort(key, axis=1)
    off = (np.arange(B) * n)[:, None]
    x = key - center
    x /= scale
    with np.errstate(invalid="ignore"):  # a -inf key: any quantisation, the sort below is exact
        x /= np.abs(x) + 1.0
        x += 1.0
        x *= 32767.5
        coarse = np.argsort(x.astype(np.uint16), axis=1, kind="stable")
    fine = np.argsort(key.ravel().take(coarse + off), axis=1, kind="stable")
    return coarse.ravel().take(fine + off)


def laplace_by_inversion(rng: np.random.Generator, scale: float, shape) -> np.ndarray:
    """Laplace(0, scale) draws (float array of ``shape``) by inversion of one uniform U each: scale sgn(V)
    (-ln(1 - 2|V|)) with V = U - 1/2 (V and 1 - 2|V| are computed exactly; U = 0, of probability 2^-53, gives -inf):
    the same floats as ``rng.laplace(0, scale, shape)`` (which takes ln(2U) or -ln(2 - 2U) of the same U), in about a
    third of its time. Unchecked (the engine's samplers pass a positive scale)."""
    v = rng.random(shape)
    v -= 0.5
    x = np.abs(v)
    x *= -2.0
    x += 1.0
    with np.errstate(divide="ignore"):
        np.log(x, out=x)
    np.copysign(x, v, out=x)
    x *= scale
    return x


class DensestSubgraph(COProblem):
    r"""Densest subgraph on an :class:`EdgeStream` with the noisy-degree prefix algorithm (a stand-in), a
    :class:`privtest.co.mechanisms.COProblem` (its ``upper`` reads ``opt``; A's score law is not known in closed form).

    Objective f(X_t, S) = w_t(E(S))/#S (#S the size of S; 0 for S empty): sensitivity 1 under one edge / contact,
    data-monotone.

    Batch algorithm A(X, eps) (pure eps-edge-DP; *stand-in*, not the algorithms Section 8.2 cites):

    1. noisy degrees d~(v) = d(v) + Lap(4/eps) (the degree vector has L1 sensitivity 2: Laplace mechanism,
       eps/2-DP);
    2. S_k = the k nodes of largest d~, k = 1..n (post-processing);
    3. output S_k drawn by the exponential mechanism with score w(E(S_k))/k (sensitivity 1) and privacy eps/2:
       Pr[k] ~ exp(eps w(E(S_k))/(4k)).

    Basic composition: eps-DP. Utility: w.p. >= 1 - beta, f(S_out) >= max_k f(S_k) - (4/eps) ln(n/beta)
    (exponential mechanism), with no worst-case multiplicative factor against OPT (degree order is a heuristic),
    so only Theorem 42's data-dependent V_A applies. ``delta`` is ignored (pure DP).

    The graph after step t is replayed incrementally (:class:`StreamState`): calls with non-decreasing t are O(1)
    per step of a per-interaction stream. A draw costs one sort of n noisy degrees (each Laplace noise by inversion of
    one uniform; :func:`_ascending`), O(P) for the prefix each of the P pairs present enters (the later rank of its
    two ends, then a bincount and a cumsum of the weights) and one uniform for the prefix size
    (:func:`_softmax_draw`); ``scores`` and ``sample_scored`` read f off the draw, w(E(S_k))/k of the prefix drawn.

    Args:
        stream: the graph stream.
        opt: OPT_t or an upper bound of it (T,) (from :func:`densest_subgraph_opt`), used as the simulator's upper
            bound and the reference.
        opt_kind: (T,) "exact" / "upper bound" labels of ``opt`` (default all exact).
        chunk: draws processed at once (memory control: a few (chunk, n) arrays), an integer >= 1; changes which
            draws a seed gives, not their law.

    Raises:
        TypeError: if ``stream`` is not an :class:`EdgeStream`.
        ValueError: naming opt (not finite and >= 0 of shape (T,)), opt_kind or chunk.

    Example:
        >>> s = edge_stream([0, 0, 1, 2], [1, 2, 2, 3], [0, 0, 1, 2], n=4, name="toy")
        >>> problem = DensestSubgraph(s, *densest_subgraph_opt(s))
        >>> problem.scores(3, 10.0, 0.0, 4, rng=0).round(3).tolist()
        [1.0, 1.0, 0.667, 1.0]
    """

    def __init__(self, stream: EdgeStream, opt: np.ndarray, opt_kind=None, chunk: int = 64):
        _check_stream(stream)
        _check_opt(stream.T, opt, opt_kind)
        chunk = _validate.integer("chunk", chunk, 1)
        self.stream, self.opt, self.chunk = stream, np.asarray(opt, dtype=float), int(chunk)
        self.opt_kind = np.full(stream.T, "exact", dtype=object) if opt_kind is None else np.asarray(opt_kind)
        self.T, self.name, self.n = stream.T, stream.name, stream.n
        self._state = StreamState(stream)
        # Endpoints of every pair as contiguous index arrays (the pairs present after step t are a prefix).
        self._u = np.ascontiguousarray(stream.pairs[:, 0], dtype=np.intp)
        self._v = np.ascontiguousarray(stream.pairs[:, 1], dtype=np.intp)
        self._adj = (None, None)  # (t, sparse weighted adjacency after step t) of value()'s last dense graph

    def _graph(self, t: int):
        st = self._state._at(int(t))  # t checked on entry (COProblem)
        return self.stream.pairs[: st.active], st.w[: st.active], st.deg

    def value(self, t: int, Y: np.ndarray) -> np.ndarray:
        """f(X_t, S) = w_t(E(S))/#S (0 for S empty) of each node set S (bool (B, n)): float (B,).

        Raises:
            ValueError: naming t (not an integer in [1, T]) or Y (not a (B, n) array of bools or 0/1).
        """
        y = np.asarray(Y)
        if y.ndim != 2 or y.shape[1] != self.n or not (y.dtype == bool or np.isin(y, (0, 1)).all()):
            raise ValueError(
                f"Y must be a (B, n={self.n}) array of node-set memberships (bools). Found shape {y.shape}."
            )
        n = self.n
        Y = np.asarray(Y, dtype=bool)
        out = np.empty(Y.shape[0])
        _, w, _ = self._graph(t)
        P = w.size
        if P <= 2 * n:  # few pairs: gather both ends of each pair
            u, v = self._u[:P], self._v[:P]
            step = max(1, _VALUE_FLOATS // max(P, 1))
            for a in range(0, Y.shape[0], step):
                y = Y[a : a + step]
                size = np.count_nonzero(y, axis=1)
                inside = (y[:, u] & y[:, v]) @ w  # sum of w_uv y_u y_v
                out[a : a + step] = np.where(size > 0, inside / np.maximum(size, 1), 0.0)
            return out
        if self._adj[0] != t:
            from scipy import sparse  # on use: scipy.sparse is slow to import

            self._adj = (t, sparse.csr_matrix((w, (self._u[:P], self._v[:P])), shape=(n, n)))  # u < v: pairs once
        adj = self._adj[1]
        step = max(1, _VALUE_FLOATS // n)
        for a in range(0, Y.shape[0], step):
            y = Y[a : a + step].astype(float)
            size = y.sum(axis=1)
            inside = np.einsum("bu,ub->b", y, adj @ y.T)  # sum of w_uv y_u y_v
            out[a : a + step] = np.where(size > 0, inside / np.maximum(size, 1.0), 0.0)
        return out

    def _draw(self, t: int, eps: float, size: int, rng: np.random.Generator, sets: bool):
        """``size`` draws of A(X_t, eps): their node sets (bool (size, n), or None unless ``sets``) and f of each
        (float (size,), w(E(S_k))/k of the prefix drawn, as A computes it).

        Per chunk of draws: the noisy degrees' order (:func:`_ascending`), then per draw the prefix each pair enters
        (the later rank of its two ends), the pairs' weights summed per prefix (bincount, cumsum), and the prefix
        size by inversion of the exponential mechanism's CDF (:func:`_softmax_draw`, one uniform per draw)."""
        _validate.positive("eps", eps)
        _, w, deg = self._graph(t)
        n, P = self.n, w.size
        u, v = self._u[:P], self._v[:P]
        weights = None if np.all(w == 1.0) else w  # unit weights (an edge stream): plain counts, exact as floats
        out = np.zeros((size, n), dtype=bool) if sets else None
        score = np.empty(size)
        scale = 0.25 * eps / np.arange(1, n + 1, dtype=float)
        middle = float(np.median(deg)) if n >= _PRESORT_NODES else 0.0  # keys gather near -middle (_ascending)
        ranks = np.arange(n, dtype=np.intp)
        r = np.empty(n, dtype=np.intp)
        for a in range(0, size, self.chunk):
            B = min(self.chunk, size - a)
            # Ascending keys L - deg, L ~ Lap(4/eps): the order of the noisy degrees deg + L', from the largest
            # (Laplace noise is symmetric, so -L has the law of L').
            key = laplace_by_inversion(rng, 4.0 / eps, (B, n))
            key -= deg
            order = _ascending(key, -middle, 4.0 / eps + 1.0)
            E = np.empty((B, n))
            for i in range(B):
                r[order[i]] = ranks  # rank of every node in draw i
                E[i] = np.bincount(np.maximum(r[u], r[v]), weights, minlength=n)  # pairs entering each prefix
            np.cumsum(E, axis=1, out=E)  # E[:, k-1] = w(E(S_k))
            kk = _softmax_draw(E * scale, rng)
            score[a : a + B] = E[np.arange(B), kk] / (kk + 1.0)
            if sets:
                out[a + np.arange(B)[:, None], order] = ranks[None, :] <= kk[:, None]
        return out, score

    def sample(self, t: int, eps: float, delta: float, size: int, rng: np.random.Generator) -> np.ndarray:
        """``size`` draws of A(X_t, eps): bool (size, n) node sets."""
        rng = _validate.generator(rng)
        return self._draw(t, eps, size, rng, sets=True)[0]

    def scores(self, t: int, eps: float, delta: float, size: int, rng: np.random.Generator) -> np.ndarray:
        """Overrides the base: f read off A's own draw (w(E(S_k))/k of its prefix), no sets built: float (size,)."""
        rng = _validate.generator(rng)
        return self._draw(t, eps, size, rng, sets=False)[1]

    def sample_scored(self, t: int, eps: float, delta: float, size: int, rng: np.random.Generator):
        """Overrides the base: (Y, f) with f as A's draw computes it (as in :meth:`scores`), not ``value(t, Y)``."""
        rng = _validate.generator(rng)
        return self._draw(t, eps, size, rng, sets=True)


class DensestPair(DensestSubgraph):
    r"""Densest subgraph with the exponential mechanism over node pairs as batch algorithm (a stand-in whose score
    law is exact, for the synthetic burst stream).

    Objective as :class:`DensestSubgraph`: f(X_t, S) = w_t(E(S))/#S. Batch algorithm A(X, eps): the exponential
    mechanism over all C(n, 2) node pairs {u, v} (a public candidate family) with score f(X, {u, v}) = w_uv/2, whose
    sensitivity is 1/2 (one contact adds 1 to one pair): Pr[{u, v}] ~ exp(eps w_uv/2), pure eps-edge-DP. W.p.
    >= 1 - beta its pair has f >= max_uv w_uv/2 - (1/eps) ln(C(n, 2)/beta); no factor against OPT (a pair can be far
    from the densest subgraph) except where a single heavy pair is densest, as after the burst. The law of
    f(X_t, A(X_t)) is a finite histogram (``score_distribution``), so a GTM step's count is one binomial draw.

    A draw is one uniform, inverted through the CDF of the present pairs' weights followed by the absent pairs'
    total weight (cached with the score law for the last few (t, eps)); when the node set is asked for, an absent
    draw then takes the j-th absent pair in lexicographic order for one uniform integer j (no rejection).

    Example:
        >>> s = burst_stream(n=6, base_edges=5, T=10, t_burst=4, burst=12, clique=2, seed=0)
        >>> values, probs = DensestPair(s, np.full(s.T, 10.0)).score_distribution(5, 1.0, 0.0)
        >>> round(float(probs.sum()), 12)
        1.0
    """

    def __init__(self, stream: EdgeStream, opt: np.ndarray, opt_kind=None, chunk: int = 64):
        super().__init__(stream, opt, opt_kind, chunk)
        self._laws: dict = {}  # (t, eps) -> the exponential mechanism's law (:meth:`_law`)
        self._gaps = (-1, None)  # (P, gaps of the absent pairs' indices when P pairs are present) (:meth:`_absent`)
        n = self.n
        a = np.arange(n, dtype=np.int64)
        self._row_start = a * n - a * (a + 1) // 2  # index of pair (a, a + 1) among the pairs in lexicographic order

    def _weights(self, t: int, eps: np.ndarray) -> np.ndarray:
        """The exponential mechanism's weights at step t for each eps of ``eps`` (float (K,)): float (K, P + 1), row
        k the weights exp(eps_k w_uv/2 - top_k) of the P present pairs then the total weight of the absent pairs
        (top_k = max(0, max_uv eps_k w_uv/2): the largest weight is 1)."""
        _, w, _ = self._graph(t)
        P = w.size
        x = (0.5 * eps)[:, None] * w[None, :]
        top = np.maximum(x.max(axis=1), 0.0) if P else np.zeros(eps.size)
        weight = np.empty((eps.size, P + 1))
        np.exp(np.subtract(x, top[:, None], out=x), out=weight[:, :P])
        weight[:, P] = (self.n * (self.n - 1) // 2 - P) * np.exp(-top)
        return weight

    def _values(self, t: int) -> np.ndarray:
        """The score law's values at step t: the present pairs' scores w_uv/2, then 0 (the absent pairs)."""
        _, w, _ = self._graph(t)
        values = np.empty(w.size + 1)
        np.multiply(0.5, w, out=values[:-1])
        values[-1] = 0.0
        return values

    def _law(self, t: int, eps: float) -> dict:
        """The exponential mechanism at (t, eps), cached for the last :data:`_LAW_KEYS` keys (the GTM and
        ThresholdSelect ask many times at one (t, eps)): ``cdf``, the unnormalised CDF of the weights of the present
        pairs then of all absent pairs together (:meth:`_weights`); ``last``, the index of its last positive weight;
        ``half``, the present pairs' scores w_uv/2."""
        key = (int(t), float(eps))
        law = self._laws.pop(key, None)
        if law is None:
            cdf = np.cumsum(self._weights(t, np.array([float(eps)]))[0])
            law = {"cdf": cdf, "last": int(np.count_nonzero(cdf < cdf[-1])), "half": self._values(t)[:-1]}
            while len(self._laws) >= _LAW_KEYS:
                self._laws.pop(next(iter(self._laws)))  # the least recently used
        self._laws[key] = law
        return law

    def score_distribution(self, t, eps, delta):
        """Overrides the base's None: A is an exponential mechanism over C(n, 2) pairs, so its score law is finite:
        (scores w_uv/2 of the present pairs then 0 for the absent ones, their probabilities), float arrays."""
        _validate.positive("eps", eps)
        return self._score_laws(t, [eps], [delta])[0]

    def _score_laws(self, t, eps, delta) -> list:
        """:meth:`COProblem._score_laws`: the laws of all eps from one (K, P + 1) array of weights (:meth:`_weights`,
        the same floats as one eps at a time), sharing one array of values."""
        weight = self._weights(t, np.asarray(eps, dtype=float))
        probs = weight / (weight[:, :-1].sum(axis=1) + weight[:, -1])[:, None]
        values = self._values(t)
        return [(values, p) for p in probs]

    def _absent(self, P: int, j: np.ndarray) -> np.ndarray:
        """The pairs (int (len(j), 2), u < v) of ranks j (integers in [0, C(n, 2) - P)) among the pairs absent when the
        first P pairs of the stream are present, in lexicographic order: a uniform j gives a uniform absent pair."""
        if self._gaps[0] != P:
            pairs = self.stream.pairs[:P]
            present = np.sort(self._row_start[pairs[:, 0]] + (pairs[:, 1] - pairs[:, 0] - 1))
            self._gaps = (P, present - np.arange(P))  # absent pairs below present[i]: present[i] - i
        idx = j + np.searchsorted(self._gaps[1], j, side="right")  # lexicographic index of the j-th absent pair
        a = np.searchsorted(self._row_start[:-1], idx, side="right") - 1
        return np.stack([a, idx - self._row_start[a] + a + 1], axis=1)

    def _draw(self, t: int, eps: float, size: int, rng: np.random.Generator, sets: bool):
        """``size`` draws: the pairs as node sets (bool (size, n), or None unless ``sets``) and their scores w_uv/2
        (float (size,)). One uniform per draw picks a present pair or the absent ones by inversion of the cached CDF
        (:meth:`_law`); with ``sets``, an absent draw takes a uniform absent pair (:meth:`_absent`, one integer)."""
        _validate.positive("eps", eps)
        law = self._law(t, eps)
        cdf, half = law["cdf"], law["half"]
        P = half.size
        idx = np.minimum(np.searchsorted(cdf, rng.random(size) * cdf[-1], side="right"), law["last"])
        present = idx < P
        score = np.zeros(size)
        score[present] = half[idx[present]]
        out = None
        if sets:
            uv = np.empty((size, 2), dtype=np.int64)
            uv[present] = self.stream.pairs[idx[present]]
            gone = ~present
            if gone.any():
                uv[gone] = self._absent(P, rng.integers(0, self.n * (self.n - 1) // 2 - P, int(gone.sum())))
            out = np.zeros((size, self.n), dtype=bool)
            out[np.arange(size), uv[:, 0]] = True
            out[np.arange(size), uv[:, 1]] = True
        return out, score


def truncate(stream: EdgeStream, T_max: int | None) -> EdgeStream:
    """The first ``T_max`` steps of ``stream`` (all of it if None).

    Args:
        stream: the :class:`EdgeStream`. T_max: None or an integer >= 1.

    Returns:
        :class:`EdgeStream`.

    Raises:
        TypeError: if ``stream`` is not an :class:`EdgeStream`. ValueError: naming T_max when out of range.

    Example:
        >>> s = edge_stream([0, 0, 1, 2], [1, 2, 2, 3], [0, 0, 1, 2], n=4, name="toy")
        >>> truncate(s, 2).T
        2
    """
    _check_stream(stream)
    if T_max is not None:
        T_max = _validate.integer("T_max", T_max, 1)
    if T_max is None or T_max >= stream.T:
        return stream
    end, P = stream.step_ptr[T_max], stream.active(T_max)
    return EdgeStream(
        stream.name,
        stream.n,
        stream.pairs[:P],
        stream.step_ptr[: T_max + 1],
        stream.ins_pair[:end],
        stream.ins_w[:end],
        stream.labels[:T_max],
    )
