"""Graph streams and the densest-subgraph application (Section 8.2) for BatchToCO.

Streams are insertion-only: at each CO step a batch of edges (CollegeMsg: each undirected pair at its first
message) or contacts (primary school: every contact adds weight 1 to its pair, a weighted multigraph) is inserted.
Neighbouring streams differ in one inserted edge / contact (edge-DP, as in Section 8.2); the objectives below
change by at most 1 under that change and never decrease under insertions.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import optimize, sparse

from privtest import _validate, data


@dataclass(frozen=True)
class EdgeStream:
    """An insertion-only weighted graph stream on nodes 0..n-1.

    Attributes:
        name: label.
        n: number of nodes (the public node universe).
        pairs: int64 (P, 2), u < v, every pair that ever appears.
        W: float64 (T, P): weight of each pair after step t (row t-1), non-decreasing in t.
        labels: length-T list of step labels (e.g. the day).
    """

    name: str
    n: int
    pairs: np.ndarray
    W: np.ndarray
    labels: list

    @property
    def T(self) -> int:
        return self.W.shape[0]


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
    """
    u, v, step = np.asarray(u, np.int64), np.asarray(v, np.int64), np.asarray(step, np.int64)
    keep = u != v
    a, b, step = np.minimum(u, v)[keep], np.maximum(u, v)[keep], step[keep]
    key = a * n + b
    if not multigraph:
        key, first = np.unique(key, return_index=True)
        step = step[first]
    uniq, pid = np.unique(key, return_inverse=True)
    T = int(step.max()) + 1 if labels is None else len(labels)
    inc = np.zeros((T, uniq.size))
    np.add.at(inc, (step, pid), 1.0)
    pairs = np.stack([uniq // n, uniq % n], axis=1)
    return EdgeStream(name, n, pairs, np.cumsum(inc, axis=0), list(range(T)) if labels is None else list(labels))


def collegemsg_stream(df: pd.DataFrame, freq: str = "1D") -> EdgeStream:
    """CollegeMsg as an unweighted edge stream: each undirected pair inserted at its first message, one step per
    ``freq`` (calendar days by default) from the first to the last message."""
    day = df["time"].dt.floor(freq)
    days = pd.date_range(day.min(), day.max(), freq=freq)
    step = ((day - day.min()) // pd.Timedelta(freq)).to_numpy()
    ids = np.unique(np.concatenate([df["src"], df["dst"]]))
    u, v = np.searchsorted(ids, df["src"]), np.searchsorted(ids, df["dst"])
    return edge_stream(u, v, step, ids.size, "CollegeMsg", [d.strftime("%Y-%m-%d") for d in days])


def primary_school_stream(df: pd.DataFrame, seconds: int = 600) -> EdgeStream:
    """Primary-school contacts as a weighted multigraph stream: every contact adds 1 to its pair; one step per
    ``seconds``-long window that contains at least one contact (nights and empty windows are not steps)."""
    window = (df["t"].to_numpy() - df["t"].min()) // seconds
    wins, step = np.unique(window, return_inverse=True)
    ids = np.unique(np.concatenate([df["i"], df["j"]]))
    u, v = np.searchsorted(ids, df["i"]), np.searchsorted(ids, df["j"])
    return edge_stream(u, v, step, ids.size, "primary school", [int(w) for w in wins], multigraph=True)


def densest_subgraph_lp(n: int, pairs: np.ndarray, w: np.ndarray) -> float:
    r"""Exact maximum density max_S w(E(S))/|S| by Charikar's LP (optimal value = OPT exactly):
    max sum_e w_e y_e s.t. y_e <= x_u, y_e <= x_v, sum_v x_v = 1, x, y >= 0 (HiGHS)."""
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
    """Nodes of the weighted ``level``-core: repeatedly drop nodes of weighted degree < level. Boolean (n,)."""
    alive = np.ones(n, dtype=bool)
    while True:
        on = alive[pairs[:, 0]] & alive[pairs[:, 1]]
        deg = np.bincount(pairs[on, 0], w[on], n) + np.bincount(pairs[on, 1], w[on], n)
        drop = alive & (deg < level)
        if not drop.any():
            return alive
        alive &= ~drop


def densest_subgraph_opt(stream: EdgeStream, stride: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """OPT_t references for t = 1..T: exact at t = stride, 2 stride, ... and T (Charikar's LP on the weighted core
    of level lb = max(previous exact OPT, w(E)/n)); in between, the next exact value, an upper bound because OPT_t is
    non-decreasing (data monotonicity).

    Restricting the LP to that core is exact: every node of a densest subgraph S* has weighted degree >= OPT >= lb
    inside S* (removing it would not lower the density), so S* survives the peeling.

    Returns:
        (opt, kind): float (T,) and str (T,) array of "exact" / "upper bound".
    """
    _validate.step_index(stride, "stride")
    T = stream.T
    exact_at = sorted(set(range(stride - 1, T, stride)) | {T - 1})
    opt = np.zeros(T)
    lb = 0.0
    for t in exact_at:
        w = stream.W[t]
        lb = max(lb, w.sum() / stream.n)
        core = weighted_core(stream.n, stream.pairs, w, lb)
        inside = core[stream.pairs[:, 0]] & core[stream.pairs[:, 1]] & (w > 0)
        ids = np.flatnonzero(core)
        sub = np.searchsorted(ids, stream.pairs[inside])
        lb = max(lb, densest_subgraph_lp(ids.size, sub, w[inside])) if ids.size else lb
        opt[t] = lb
    kind = np.full(T, "upper bound", dtype=object)
    kind[exact_at] = "exact"
    nxt = np.searchsorted(exact_at, np.arange(T))
    return opt[np.asarray(exact_at)[nxt]], kind


def _gumbel_argmax(logits: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Row-wise draw from softmax(logits) (exponential mechanism) by the Gumbel-max trick."""
    return np.argmax(logits + rng.gumbel(size=logits.shape), axis=1)


class DensestSubgraph:
    r"""Densest subgraph on an :class:`EdgeStream` with the noisy-degree prefix algorithm (a stand-in).

    Objective f(X_t, S) = w_t(E(S))/|S| (0 for S empty): sensitivity 1 under one edge / contact, data-monotone.

    Batch algorithm A(X, eps) (pure eps-edge-DP; *stand-in*, not the algorithms Section 8.2 cites):
      1. noisy degrees d~(v) = d(v) + Lap(4/eps) (the degree vector has L1 sensitivity 2: Laplace mechanism,
         eps/2-DP);
      2. S_k = the k nodes of largest d~, k = 1..n (post-processing);
      3. output S_k drawn by the exponential mechanism with score w(E(S_k))/k (sensitivity 1) and privacy eps/2:
         Pr[k] ~ exp(eps w(E(S_k))/(4k)).
    Basic composition: eps-DP. Utility: w.p. >= 1 - beta, f(S_out) >= max_k f(S_k) - (4/eps) ln(n/beta)
    (exponential mechanism), with no worst-case multiplicative factor against OPT (degree order is a heuristic),
    so only Theorem 42's data-dependent V_A applies. ``delta`` is ignored (pure DP).

    Args:
        stream: the graph stream.
        opt: OPT_t or an upper bound of it (T,) (from :func:`densest_subgraph_opt`), used as the simulator's upper
            bound and the reference.
        opt_kind: (T,) "exact" / "upper bound" labels of ``opt`` (default all exact).
        chunk: batch rows processed at once (memory control).
    """

    def __init__(self, stream: EdgeStream, opt: np.ndarray, opt_kind=None, chunk: int = 256):
        self.stream, self.opt, self.chunk = stream, np.asarray(opt, dtype=float), int(chunk)
        self.opt_kind = np.full(stream.T, "exact", dtype=object) if opt_kind is None else np.asarray(opt_kind)
        self.T, self.name, self.n = stream.T, stream.name, stream.n
        self._active = {}

    def _graph(self, t: int):
        if t not in self._active:
            w = self.stream.W[t - 1]
            on = np.flatnonzero(w > 0)
            p = self.stream.pairs[on]
            deg = np.bincount(p[:, 0], w[on], self.n) + np.bincount(p[:, 1], w[on], self.n)
            self._active = {t: (p, w[on], deg)}
        return self._active[t]

    def value(self, t: int, Y: np.ndarray) -> np.ndarray:
        p, w, _ = self._graph(t)
        Y = np.asarray(Y, dtype=bool)
        out = np.empty(Y.shape[0])
        for a in range(0, Y.shape[0], self.chunk):
            y = Y[a : a + self.chunk]
            inside = y[:, p[:, 0]] & y[:, p[:, 1]]
            size = y.sum(axis=1)
            out[a : a + self.chunk] = np.where(size > 0, (inside @ w) / np.maximum(size, 1), 0.0)
        return out

    def sample(self, t: int, eps: float, delta: float, size: int, rng: np.random.Generator) -> np.ndarray:
        _validate.positive("eps", eps)
        p, w, deg = self._graph(t)
        n = self.n
        out = np.zeros((size, n), dtype=bool)
        k = np.arange(1, n + 1, dtype=float)
        for a in range(0, size, self.chunk):
            B = min(self.chunk, size - a)
            noisy = deg[None, :] + rng.laplace(0.0, 4.0 / eps, (B, n))
            order = np.argsort(-noisy, axis=1)
            rank = np.empty_like(order)
            np.put_along_axis(rank, order, np.arange(n)[None, :], axis=1)
            pos = np.maximum(rank[:, p[:, 0]], rank[:, p[:, 1]])  # edge enters the prefix of size pos+1
            flat = (pos + (np.arange(B) * n)[:, None]).ravel()
            E = np.cumsum(np.bincount(flat, np.broadcast_to(w, pos.shape).ravel(), B * n).reshape(B, n), axis=1)
            kk = _gumbel_argmax(0.25 * eps * E / k[None, :], rng)
            out[a : a + B] = rank <= kk[:, None]
        return out

    def upper(self, t: int) -> float:
        return float(self.opt[t - 1])

    def score_distribution(self, t, eps, delta):
        return None


def truncate(stream: EdgeStream, T_max: int | None) -> EdgeStream:
    """The first ``T_max`` steps of ``stream`` (all of it if None)."""
    if T_max is None or T_max >= stream.T:
        return stream
    return EdgeStream(stream.name, stream.n, stream.pairs, stream.W[:T_max], stream.labels[:T_max])


def load_stream(name: str, wheel=None, T_max: int | None = None) -> EdgeStream:
    """``"collegemsg"`` or ``"primary_school"`` from its wheel (see :mod:`privtest.data`), truncated to T_max."""
    if name == "collegemsg":
        return truncate(collegemsg_stream(data.collegemsg(wheel)), T_max)
    if name == "primary_school":
        return truncate(primary_school_stream(data.primary_school(wheel)), T_max)
    raise ValueError(f"stream must be 'collegemsg' or 'primary_school'. Found {name!r}.")
