"""Decomposable monotone submodular maximisation under continual observation (Section 8.1): facility location on
the 2017 Minneapolis police stops (the analogue of Mitrovic et al.'s Uber pickups).

Data: each stop (time, lat, long) is one inserted element; one CO step per ``step_days`` calendar days (US/Central)
of a public calendar fixed before the data is seen (``start``..``end``, default the calendar year 2017 the dataset
documents). The step schedule, the horizon T and the step labels depend on that calendar only, never on the stops'
dates: were they derived from the first/last stop (as in an earlier version), one inserted stop outside that range
would shift every step, so neighbouring streams would not be aligned step by step as Definition 7 requires. Stops
outside the calendar are dropped, a per-record rule that keeps neighbours within one insertion.
Neighbouring streams differ in one inserted stop. Points are snapped to a public 0.01-degree grid (about 1.1 km x
0.8 km); a cell with c stops contributes c times its centre's utility.

Objective: candidates are a public 7 x 7 grid over the city's bounding box [44.89, 45.06] x [-93.33, -93.19];
sim(x, c) = max(0, 1 - d(x, c)/r) in [0, 1] with d the equirectangular distance in km and r = ``radius_km``;
f(X, S) = sum_{x in X} max_{c in S} sim(x, c). Each stop contributes [0, 1], so f has sensitivity 1 and is
data-monotone, monotone and submodular in S.

Batch algorithm A(X, eps) (Gupta et al. 2010; Mitrovic et al. 2017, Algorithm 1): k greedy rounds, each picking a
candidate by the exponential mechanism with score the marginal gain (sensitivity 1 for a decomposable f with
per-element values in [0, 1]) and privacy eps/k: Pr[c] ~ exp((eps/k) gain(c)/2). Basic composition: pure eps-DP.
Utility (Mitrovic et al. 2017, Thm 2 with basic composition): w.p. >= 1 - beta,
f(S) >= (1 - 1/e) OPT - (2k^2/eps) ln(m k/beta) (each round loses at most (2k/eps) ln(m k/beta)). With ``groups``
(a partition of the candidates) and ``cap`` per group it is the partition-matroid variant: each round's mechanism
ranges over the candidates whose group is not full (greedy under a matroid: 1/2 OPT - the same additive term).

Approximate DP (Table 2, row 1: Mitrovic et al. 2017, monotone, (eps, delta)-DP, k-card.): with
``composition="advanced"`` A(X, eps, delta) spends eps_r = :func:`privtest.co.composition.per_round_eps` (eps, delta,
k) per round, the larger of basic composition's eps/k and advanced composition's eps_0 (Dwork, Rothblum, Vadhan 2010:
(eps, delta)-DP over the k rounds). This is Mitrovic et al.'s private greedy with their advanced-composition
accounting, on our facility-location objective (a stand-in for their experiments, not their data); advanced
composition beats eps/k only when k > about 2 ln(1/delta), which the table's k = 5 and BatchToCO's delta_t (around
1e-12) never reach, so the rounds run at eps/k and the guarantee is the pure one above.

Reference OPT_t: the upper bound min_i [f(S_i) + sum of the k largest gains w.r.t. S_i] over the non-private greedy
prefixes S_i (valid for monotone submodular f under a cardinality constraint, and a fortiori for the matroid
variant whose feasible sets are a subset), labelled "upper bound".

Sampling A (:meth:`FacilityLocation.sample`), two exact paths chosen by the spread a max_c gain(c) of the first round (a
= eps_r/2). At a spread of at most ``_REJECTION_SPREAD`` (1; almost every draw of the CO runs, where eps_r is tiny), a
compiled kernel (:mod:`privtest.co._fl_kernel`, numba) draws each round by rejection: a uniform proposal among the
candidates, rejected if infeasible and otherwise accepted with probability exp(a (gain - top)), top the largest gain of
the empty set, which bounds every later gain by submodularity; only the proposals' gains are computed. Above it, each
round's exponential mechanism is drawn by inversion of its CDF, one uniform per draw and round. Gains and CDFs that
every draw at (t, eps) shares are tabulated and cached: the gains of the empty set and after every first pick per step t
(and, for calls of at least ``_DEEP_DRAWS`` draws, after every ordered pair of picks), their CDFs per (t, eps_r), eps_r
a round's privacy. The later rounds update each draw's own gains incrementally: picking c lowers the gain of c' only
through the cells x both cover, by w_x max(0, min(sim(x, c'), sim(x, c)) - cur_x) with cur_x the coverage by the earlier
picks. f(X_t, S) of a draw is the sum of its picks' marginal gains (:meth:`FacilityLocation.scores`,
:meth:`FacilityLocation.sample_scored`), equal to ``value`` up to rounding (another order of summation).

Only :class:`FacilityLocation`'s constructor (which reads a DataFrame of stops) imports pandas, and only its sampler
numba (both the ``co`` extra: ``pip install "privtest[co]"``), when they are called.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from privtest import _validate
from privtest.co.composition import per_round_eps
from privtest.co.mechanisms import COProblem

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["BOX", "CELL_DEG", "TZ", "FacilityLocation"]

#: Public bounding box of Minneapolis (degrees) and grid resolution for snapping stops.
BOX = (44.89, 45.06, -93.33, -93.19)
CELL_DEG = 0.01
#: Time zone of the public calendar of CO steps.
TZ = "America/Chicago"


def _km(lat1, lon1, lat2, lon2):
    """Equirectangular distance in km (accurate to < 0.1% over a city)."""
    k = 111.2
    return k * np.hypot(lat1 - lat2, (lon1 - lon2) * np.cos(np.deg2rad(0.5 * (lat1 + lat2))))


#: Floats of the temporaries :meth:`FacilityLocation.value` builds at once (kept within a core's L2 cache).
_CACHE_FLOATS = 1 << 16
#: Keys of each kind (t; (t, eps_r)) kept by :meth:`FacilityLocation._tables`.
_CACHE_KEYS = 4
#: Draws from which a call of :meth:`FacilityLocation.sample` tabulates the third round too (its m^3 gains cost about
#: as much as that many draws' third rounds), when m^3 <= _DEEP_ENTRIES.
_DEEP_DRAWS = 4096
_DEEP_ENTRIES = 1 << 21
#: Largest m^2 P for which the constructor tabulates the coverage of every candidate's pair cells by every candidate.
_PAIR_OLD_ENTRIES = 1 << 22
#: Largest spread a max_c gain(c) (a = eps_r/2; the gains of the empty set) at which :meth:`FacilityLocation.sample`
#: draws by rejection (compiled, :mod:`privtest.co._fl_kernel`): a feasible proposal is then accepted with probability
#: at least exp(-spread). Above it, the rounds are drawn by inversion from tabulated CDFs and incrementally updated
#: gains.
_REJECTION_SPREAD = 1.0


def _exp_mech_rows(G, a, u):
    """Row-wise draw from softmax(a G) (G (B, m), -inf where blocked; a > 0) by inversion with the uniforms u (B,):
    the first index whose cumulative weight exceeds u times the row's total (never a zero weight: if rounding makes
    u times the total reach it, the last positive weight)."""
    c = np.subtract(G, G.max(axis=1, keepdims=True))
    c *= a
    np.exp(c, out=c)
    np.cumsum(c, axis=1, out=c)
    pick = np.count_nonzero(c <= (u * c[:, -1])[:, None], axis=1)
    over = pick >= G.shape[1]
    if over.any():
        pick[over] = np.count_nonzero(c[over] < c[over, -1:], axis=1)
    return pick


class FacilityLocation(COProblem):
    """Facility-location stream (see module docstring), a :class:`privtest.co.mechanisms.COProblem` whose ``opt`` is
    the greedy upper bound (:meth:`_upper_bound`; A's score law is not known in closed form). Solutions are index
    arrays of shape (k,) (batch (B, k)).

    Args:
        stops: DataFrame with ``time`` (tz-aware), ``lat``, ``long`` (from :func:`privtest_artifact.data.mpls_stops`).
        k: cardinality (number of chosen candidates).
        grid: candidates per side (grid x grid public candidates).
        radius_km: r of sim.
        groups: number of vertical strips for the partition matroid (None: cardinality constraint).
        cap: candidates allowed per strip (matroid variant).
        T_max: keep the first T_max steps.
        step_days: days per CO step (1: one step per day).
        start, end: first and last calendar day (ISO dates, US/Central, inclusive) of the public calendar; step t
            covers days start + (t-1) step_days .. start + t step_days - 1; T = ceil(days / step_days) (or T_max).
        chunk: draws of A processed at once by :meth:`sample`, :meth:`scores` and :meth:`sample_scored` on the
            inversion path (memory control; changes which draws a seed gives there, not their law).
        composition: "basic" (eps/k per round, pure eps-DP; delta is ignored) or "advanced" (per round
            :func:`privtest.co.composition.per_round_eps` (eps, delta, k): (eps, delta)-DP, Table 2 row 1).

    Needs pandas (the constructor) and numba (the sampler): the ``co`` extra, ``pip install "privtest[co]"``.

    Raises:
        ValueError: k, step_days, grid, cap, chunk < 1 (or not integers); radius_km not > 0; groups not None or an
            integer >= 1; T_max not None or an integer >= 1; stops not a DataFrame with time, lat, long; end before
            start; k > grid^2; k above the partition matroid's rank; composition not "basic" or "advanced".
        ImportError: pandas or numba is not installed (the ``co`` extra), before any work.

    Example:
        >>> import pandas as pd
        >>> stops = pd.DataFrame({"time": pd.date_range("2017-03-01", periods=40, freq="6h", tz="UTC"),
        ...                       "lat": 44.93 + 0.001 * np.arange(40), "long": -93.30 + 0.001 * np.arange(40)})
        >>> fl = FacilityLocation(stops, k=2, grid=3, start="2017-03-01", end="2017-03-10")
        >>> fl.T, round(float(fl.opt[-1]), 3), fl.sample(fl.T, 5.0, 0.0, 2, rng=0).shape
        (10, 7.676, (2, 2))
    """

    def __init__(
        self,
        stops: pd.DataFrame,
        k: int = 5,
        grid: int = 7,
        radius_km: float = 3.0,
        groups: int | None = None,
        cap: int = 1,
        T_max: int | None = None,
        chunk: int = 1024,
        step_days: int = 1,
        start: str = "2017-01-01",
        end: str = "2017-12-31",
        composition: str = "basic",
    ):
        import importlib.util

        missing = [name for name in ("pandas", "numba") if importlib.util.find_spec(name) is None]
        if missing:  # the stops' DataFrame and the sampler's kernel: said before any work, not at a draw
            raise ImportError(f'FacilityLocation needs {" and ".join(missing)}: pip install "privtest[co]".')
        import pandas as pd

        if composition not in ("basic", "advanced"):
            raise ValueError(f"composition must be 'basic' or 'advanced'. Found {composition!r}.")
        if not isinstance(stops, pd.DataFrame) or any(c not in stops.columns for c in ("time", "lat", "long")):
            raise ValueError("stops must be a pandas DataFrame with the columns ['time', 'lat', 'long'].")
        _validate.integer("grid", grid, 1)
        _validate.positive("radius_km", radius_km)
        if groups is not None:
            _validate.integer("groups", groups, 1)
        _validate.integer("cap", cap, 1)
        if T_max is not None:
            _validate.integer("T_max", T_max, 1)
        _validate.integer("chunk", chunk, 1)
        self.composition = composition
        k = _validate.step_index(k, "k")
        step_days = _validate.step_index(step_days, "step_days")
        first, last = pd.Timestamp(start, tz=TZ), pd.Timestamp(end, tz=TZ)
        if last < first:
            raise ValueError(f"end = {end} must not precede start = {start}.")
        # Public schedule: from the calendar only (module docstring), never from the stops' dates.
        days = pd.date_range(first, last, freq=f"{int(step_days)}D")
        T = len(days) if T_max is None else min(int(T_max), len(days))
        day = stops["time"].dt.tz_convert(TZ).dt.floor("D")
        step = ((day - first) // pd.Timedelta(f"{int(step_days)}D")).to_numpy()
        keep = (day >= first).to_numpy() & (day <= last).to_numpy() & (step < T)
        cell = np.stack(
            [np.floor(stops["lat"].to_numpy()[keep] / CELL_DEG), np.floor(stops["long"].to_numpy()[keep] / CELL_DEG)],
            axis=1,
        ).astype(np.int64)
        uniq, cid = np.unique(cell, axis=0, return_inverse=True)
        counts = np.zeros((T, len(uniq)))
        np.add.at(counts, (step[keep], cid.ravel()), 1.0)
        self.C = np.cumsum(counts, axis=0)  # (T, cells): stops per cell after day t
        centre = (uniq + 0.5) * CELL_DEG
        glat = np.linspace(BOX[0], BOX[1], grid)
        glon = np.linspace(BOX[2], BOX[3], grid)
        cand = np.array([(a, b) for a in glat for b in glon])
        self.sim = np.maximum(
            0.0, 1.0 - _km(centre[:, None, 0], centre[:, None, 1], cand[None, :, 0], cand[None, :, 1]) / radius_km
        )  # (cells, m)
        self.m, self.k, self.T, self.chunk = len(cand), int(k), T, int(chunk)
        if self.k > self.m:
            raise ValueError(f"k = {k} exceeds the number of candidates grid^2 = {self.m}.")
        # sim is sparse (about 10% of (cell, candidate) pairs lie within the radius). Picking c raises the coverage only
        # of the cells x within the radius of c, so only the gains of the candidates c' != c also covering such an x
        # change: the (x, c') pairs of c, padded to P per candidate with a dummy cell ``cells`` (zero weight) and a
        # dummy candidate ``m`` (a column that is dropped). Per pair: _pair_cand = c', _pair_cell = x,
        # _pair_min = min(sim(x, c'), sim(x, c)) (the loss of c' at x is w_x max(0, _pair_min - cur_x)), and, when it
        # is small enough, _pair_old[c m + i] = sim(x, i) for every candidate i (the coverage an earlier pick i gives
        # the cells of c's pairs; :meth:`_cover`).
        nc, m = self.sim.shape
        within = self.sim > 0
        pc, px, pc2 = np.nonzero(within.T[:, :, None] & within[None, :, :] & ~np.eye(m, dtype=bool)[:, None, :])
        count = np.bincount(pc, minlength=m)
        P = max(int(count.max()), 1)
        slot = np.arange(pc.size) - np.repeat(np.cumsum(count) - count, count)
        sim_pad = np.zeros((nc + 1, m + 1))
        sim_pad[:nc, :m] = self.sim
        self._pair_cell = np.full((m, P), nc, dtype=np.intp)
        self._pair_cell[pc, slot] = px
        self._pair_cand = np.full((m, P), m, dtype=np.intp)
        self._pair_cand[pc, slot] = pc2
        self._pair_min = np.minimum(
            sim_pad[self._pair_cell, self._pair_cand], sim_pad[self._pair_cell, np.arange(m)[:, None]]
        )
        self._simT_pad = np.ascontiguousarray(sim_pad[:, :m].T)  # (m, cells + 1); value() gathers its rows
        # Rejection sampling (_fl_kernel): the cells within the radius of each candidate c, padded at the end to the
        # widest with the dummy cell, and sim(x, c) at them (0 on padding).
        near_c, near_x = np.nonzero(within.T)
        near_count = np.bincount(near_c, minlength=m)
        near_slot = np.arange(near_c.size) - np.repeat(np.cumsum(near_count) - near_count, near_count)
        self._near_cell = np.full((m, max(int(near_count.max()), 1)), nc, dtype=np.int64)
        self._near_cell[near_c, near_slot] = near_x
        self._near_sim = sim_pad[self._near_cell, np.arange(m)[:, None]]
        self._pair_old = None
        if m * m * P <= _PAIR_OLD_ENTRIES:  # gathered by rows, faster than from _simT_pad
            self._pair_old = np.ascontiguousarray(self._simT_pad[:, self._pair_cell].transpose(1, 0, 2)).reshape(
                m * m, P
            )
        self._cache: dict = {}  # per-t tables and per-(t, eps_r) CDFs of sample() (a few recent keys)
        self.labels = [d.strftime("%Y-%m-%d") for d in days[:T]]
        if groups is None:
            self.group, self.cap = None, None
            self.name = f"Mpls stops, k={k}"
        else:
            self.group = np.minimum((np.arange(self.m) % grid) * groups // grid, groups - 1)
            self.cap = int(cap)
            rank = int(np.minimum(np.bincount(self.group, minlength=groups), self.cap).sum())
            if rank < self.k:
                raise ValueError(f"k = {k} exceeds the partition matroid's rank sum_g min(cap, |strip g|) = {rank}.")
            self.name = f"Mpls stops, partition matroid ({groups} strips x {cap})"
            # Row g: -inf on strip g's candidates (added to a draw's gains once its strip g is full), 0 elsewhere.
            self._strip_block = np.where(np.arange(groups)[:, None] == self.group[None, :], -np.inf, 0.0)
        self.opt_kind = "upper bound"
        self.opt = np.array([self._upper_bound(t) for t in range(1, T + 1)])

    def value(self, t: int, Y) -> np.ndarray:
        """f(X_t, S) = sum_x max_{c in S} sim(x, c) of each candidate set S (int (B, k) or (k,)): float (B,).

        Raises:
            ValueError: naming t (not an integer in [1, T]) or Y (not candidate indices in [0, m)).
        """
        Y = _validate.integer("Y", Y, 0, scalar=False, maximum=self.m - 1)
        Y = np.atleast_2d(np.asarray(Y, dtype=np.intp))
        out = np.empty(Y.shape[0])
        w = np.append(self.C[t - 1], 0.0)  # the padding cell weighs nothing
        step = max(1, _CACHE_FLOATS // w.size)
        for a in range(0, Y.shape[0], step):
            y = Y[a : a + step]
            cover = self._simT_pad[y[:, 0]] if y.shape[1] else np.zeros((y.shape[0], w.size))
            for j in range(1, y.shape[1]):
                np.maximum(cover, self._simT_pad[y[:, j]], out=cover)
            out[a : a + step] = cover @ w
        return out

    def _gains(self, w, cur):
        """Marginal gains (B, m) of every candidate given current coverage cur (B, cells), cell weights w (cells,):
        g(c) = sum over cells x of w_x max(0, sim(x, c) - cur_x)."""
        return np.maximum(self.sim[None, :, :] - cur[:, :, None], 0.0).transpose(0, 2, 1) @ w

    def _cover(self, c: np.ndarray, i: np.ndarray) -> np.ndarray:
        """sim(x, i_b) of the cells x of candidate c_b's pairs (0 on padding): float (B, P), a new array."""
        if self._pair_old is not None:
            return self._pair_old.take(c * self.m + i, axis=0)
        return self._simT_pad.ravel().take(self._pair_cell.take(c, axis=0) + (i * self._simT_pad.shape[1])[:, None])

    def _advance(self, G: np.ndarray, picks: list, W: np.ndarray) -> None:
        """Gains after one more pick, in place: G (B, m), the gains after the picks ``picks[:-1]`` (-inf where
        blocked), becomes the gains after all r = len(picks) picks (each int (B,)): the last one and, for the matroid,
        a strip it fills blocked; W (m, P): the weights of each candidate's pair cells (:meth:`_tables`)."""
        B, m, r = G.shape[0], self.m, len(picks)
        c = picks[-1]
        rows = np.arange(B)
        G.ravel()[rows * m + c] = -np.inf
        if self.group is not None:
            g = self.group.take(c)
            count = np.zeros(B, dtype=np.intp)
            for p in picks:
                count += self.group.take(p) == g
            full = count >= self.cap
            if full.any():
                G[full] += self._strip_block[g[full]]
        if r > 1:  # coverage of c's pair cells by the earlier picks
            loss = self._cover(c, picks[0])
            for p in picks[1:-1]:
                np.maximum(loss, self._cover(c, p), out=loss)
            np.subtract(self._pair_min.take(c, axis=0), loss, out=loss)
            np.maximum(loss, 0.0, out=loss)
            loss *= W.take(c, axis=0)
        else:
            loss = self._pair_min.take(c, axis=0) * W.take(c, axis=0)
        idx = self._pair_cand.take(c, axis=0)
        idx += (rows * (m + 1))[:, None]
        G -= np.bincount(idx.ravel(), loss.ravel(), minlength=B * (m + 1)).reshape(B, m + 1)[:, :m]

    def _tables(self, t: int, a: float, depth: int):
        """The gains and exponential-mechanism CDFs every draw at (t, a = eps_r/2) shares, for its first ``depth``
        rounds (1 <= depth <= 3), cached for the last few keys of each kind (the data never change).

        Per t: ``W`` (m, P), the weights of each candidate's pair cells, and ``G[d]`` (m^d, m), the gains after the
        picks c_1..c_d (row c_1 m^(d-1) + ... + c_d), -inf where blocked. Per (t, a): ``cdf[d]`` (m^d, m), the
        unnormalised CDFs of exp(a G[d]) along rows, and ``last[d]`` (m^d,), the index of each row's last positive
        weight. Rows of impossible prefixes (a candidate twice, or one its strip blocks) are computed but never used.
        """
        m = self.m
        per_t = self._cache.get(t)
        if per_t is None:
            w = np.append(self.C[t - 1], 0.0)  # the dummy cell weighs nothing
            per_t = self._remember(t, (w[self._pair_cell], [(self._simT_pad @ w)[None, :]]))
        W, G = per_t
        while len(G) < depth:  # gains after one more pick, for every prefix and pick
            d = len(G)
            rows = np.repeat(G[-1], m, axis=0)
            self._advance(rows, list(np.indices((m,) * d).reshape(d, -1)), W)
            G.append(rows)
        key = (t, a)
        per_ta = self._cache.get(key)
        if per_ta is None:
            per_ta = self._remember(key, ([], []))
        cdf, last = per_ta
        while len(cdf) < depth:
            g = G[len(cdf)]
            top = g.max(axis=1, keepdims=True)
            top[~np.isfinite(top)] = 0.0  # an impossible prefix blocking every candidate: all weights 0
            c = np.cumsum(np.exp(a * (g - top)), axis=1)
            cdf.append(c)
            last.append(np.count_nonzero(c < c[:, -1:], axis=1))
        return W, G, cdf, last

    def _remember(self, key, value):
        """Store ``value`` under ``key`` in the small cache of :meth:`_tables` (oldest keys of its kind evicted)."""
        same = [k for k in self._cache if isinstance(k, tuple) == isinstance(key, tuple)]
        for k in same[: max(0, len(same) - _CACHE_KEYS + 1)]:
            del self._cache[k]
        self._cache[key] = value
        return value

    def _draw(self, t: int, eps: float, delta: float, size: int, rng: np.random.Generator):
        """``size`` draws of the private greedy (index array (size, k)) and f(X_t, S) of each (float (size,)), the
        sum of the marginal gains of its picks (see :meth:`sample`)."""
        _validate.positive("eps", eps)
        eps_r = eps / self.k if self.composition == "basic" else per_round_eps(eps, delta, self.k)[0]
        a, k, m = 0.5 * float(eps_r), self.k, self.m
        w_near = np.append(self.C[t - 1], 0.0).take(self._near_cell)  # (m, Q): the weights of each candidate's cells
        # No gain exceeds the largest of the empty set (submodularity); 1e-9 covers the rounding of another order
        # of summation, so that every acceptance probability is at most 1.
        top = float((w_near * self._near_sim).sum(axis=1).max()) * (1.0 + 1e-9)
        if a * top <= _REJECTION_SPREAD:
            from privtest.co._fl_kernel import compiled  # numba: imported and compiled on first use

            out = np.empty((size, k), dtype=np.int64)
            f = np.empty(size)
            group = np.zeros(m, dtype=np.int64) if self.group is None else self.group.astype(np.int64)
            compiled()(
                out, f, a, top, self._near_cell, self._near_sim, w_near, self._simT_pad, group, self.cap or 0, rng
            )
            return out, f
        # Rounds drawn from per-(t, eps_r) tables: 2, or 3 for a large call (the third table has m^3 entries).
        depth = min(k, 3 if size >= _DEEP_DRAWS and m**3 <= _DEEP_ENTRIES else 2)
        W, G, cdf, last = self._tables(t, a, depth)
        out = np.empty((size, k), dtype=np.int64)
        f = np.empty(size)
        for s in range(0, size, self.chunk):
            B = min(self.chunk, size - s)
            u = rng.random((k, B))
            # Round 1: one law for every draw.
            pick = np.minimum(np.searchsorted(cdf[0][0], u[0] * cdf[0][0, -1], side="right"), last[0][0])
            picks = [pick]
            fs = G[0][0].take(pick)
            code = pick
            # Rounds 2..depth: the law of the row of the draw's earlier picks in the tables.
            for r in range(1, depth):
                rows = cdf[r].take(code, axis=0)
                pick = np.count_nonzero(rows <= (u[r] * rows[:, -1])[:, None], axis=1)
                pick = np.minimum(pick, last[r].take(code))
                picks.append(pick)
                code = code * m + pick
                fs += G[r].ravel().take(code)
            # Later rounds: each draw's own gains, from its row of the last table updated after every later pick.
            if depth < k:
                gains = G[depth - 1].take(code // m, axis=0)
                at = np.arange(B) * m
                for r in range(depth, k):
                    self._advance(gains, picks, W)
                    pick = _exp_mech_rows(gains, a, u[r])
                    picks.append(pick)
                    fs += gains.ravel().take(at + pick)
            out[s : s + B] = np.stack(picks, axis=1)
            f[s : s + B] = fs
        return out, f

    def sample(self, t: int, eps: float, delta: float, size: int, rng: np.random.Generator) -> np.ndarray:
        """``size`` independent draws of the private greedy A(X_t, eps): index array (size, k), int64.

        At a small spread (module docstring) the compiled rejection sampler draws every round; its draws depend on the
        Generator's state only. Otherwise each round's exponential mechanism is drawn by inversion with one uniform per
        draw (the first index whose cumulative weight exceeds the uniform times the total): the first pick from the one
        CDF of the empty set's gains, the second (and, in a call of at least ``_DEEP_DRAWS`` draws, the third) from the
        row of the earlier picks in cached per-(t, eps) tables of CDFs, the later ones from each draw's own gains (exp,
        cumsum, count of CDF values <= the uniform). Those gains are updated incrementally: picking c changes the
        coverage only of the cells within the radius of c, so only the candidates covering those cells change gain (74
        (cell, candidate) pairs per candidate on average in the default configuration, padded to 142), by w_x max(0,
        min(sim(x, c'), sim(x, c)) - cur_x) each. Which draws a seed gives depends on ``chunk``, not on the tables.

        Raises:
            ValueError: eps <= 0.
        """
        rng = _validate.generator(rng)
        return self._draw(t, eps, delta, size, rng)[0]

    def scores(self, t: int, eps: float, delta: float, size: int, rng: np.random.Generator) -> np.ndarray:
        """Overrides the base: f(X_t, S) of ``size`` draws S of A(X_t, eps), read off the draw as the sum of the
        marginal gains of S's picks (equal to ``value(t, S)`` up to rounding: another order of summation): float
        (size,).

        Raises:
            ValueError: eps <= 0.
        """
        rng = _validate.generator(rng)
        return self._draw(t, eps, delta, size, rng)[1]

    def sample_scored(self, t: int, eps: float, delta: float, size: int, rng: np.random.Generator):
        """Overrides the base: (S, f) with f as in :meth:`scores` (the sum of the picks' marginal gains, equal to
        ``value(t, S)`` up to rounding), not recomputed by :meth:`value`.

        Raises:
            ValueError: eps <= 0.
        """
        rng = _validate.generator(rng)
        return self._draw(t, eps, delta, size, rng)

    def _upper_bound(self, t: int) -> float:
        """min over greedy prefixes S_i of f(S_i) + sum of the k largest marginal gains (monotone submodular): the
        reference ``opt[t - 1]`` (so the base class's ``upper``), computed once in ``__init__``."""
        w = self.C[t - 1]
        cur = np.zeros((1, self.sim.shape[0]))
        best = np.inf
        for _ in range(self.k + 1):
            g = self._gains(w, cur)[0]
            best = min(best, float(w @ cur[0]) + float(np.sort(g)[-self.k :].sum()))
            c = int(np.argmax(g))
            cur = np.maximum(cur, self.sim[:, c][None, :])
        return best
