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

Only :class:`FacilityLocation`'s constructor (which reads a DataFrame of stops) imports pandas, when it is called.
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
        chunk: draws of A processed at once by :meth:`sample` (memory control; changes which draws a seed gives,
            not their law).
        composition: "basic" (eps/k per round, pure eps-DP; delta is ignored) or "advanced" (per round
            :func:`privtest.co.composition.per_round_eps` (eps, delta, k): (eps, delta)-DP, Table 2 row 1).

    Raises:
        ValueError: k, step_days, grid, cap, chunk < 1 (or not integers); radius_km not > 0; groups not None or an
            integer >= 1; T_max not None or an integer >= 1; stops not a DataFrame with time, lat, long; end before
            start; k > grid^2; k above the partition matroid's rank; composition not "basic" or "advanced".

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
        # sim is sparse (about 10% of (cell, candidate) pairs lie within the radius). Padded incidence lists for the
        # incremental gains of sample(): the cells each candidate covers, and the candidates covering each cell (pad:
        # a dummy cell ``cells`` with zero weight and a dummy candidate ``m``).
        nc = self.sim.shape[0]
        cells_of = [np.flatnonzero(self.sim[:, c]) for c in range(self.m)]
        cands_of = [np.flatnonzero(self.sim[x]) for x in range(nc)]
        self._cells_of = np.full((self.m, max(map(len, cells_of))), nc)
        for c, xs in enumerate(cells_of):
            self._cells_of[c, : len(xs)] = xs
        self._cands_of = np.full((nc + 1, max(map(len, cands_of))), self.m)
        for x, cs in enumerate(cands_of):
            self._cands_of[x, : len(cs)] = cs
        self._sim_pad = np.zeros((nc + 1, self.m + 1))
        self._sim_pad[:nc, : self.m] = self.sim
        self._sim_of = np.take_along_axis(self._sim_pad, self._cands_of, axis=1)  # (cells + 1, K)
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
        self.opt_kind = "upper bound"
        self.opt = np.array([self._upper_bound(t) for t in range(1, T + 1)])

    def value(self, t: int, Y) -> np.ndarray:
        """f(X_t, S) = sum_x max_{c in S} sim(x, c) of each candidate set S (int (B, k) or (k,)): float (B,).

        Raises:
            ValueError: naming t (not an integer in [1, T]) or Y (not candidate indices in [0, m)).
        """
        _validate.integer("Y", Y, 0, scalar=False, maximum=self.m - 1)
        Y = np.atleast_2d(np.asarray(Y, dtype=np.int64))
        cover = self.sim[:, Y].max(axis=2)  # (cells, B)
        return self.C[t - 1] @ cover

    def _gains(self, w, cur):
        """Marginal gains (B, m) of every candidate given current coverage cur (B, cells), cell weights w (cells,):
        g(c) = sum over cells x of w_x max(0, sim(x, c) - cur_x)."""
        return np.maximum(self.sim[None, :, :] - cur[:, :, None], 0.0).transpose(0, 2, 1) @ w

    def sample(self, t: int, eps: float, delta: float, size: int, rng: np.random.Generator) -> np.ndarray:
        """``size`` independent draws of the private greedy A(X_t, eps): index array (size, k), int64.

        Gains are updated incrementally: picking c changes the coverage only of the cells within the radius of c, so
        only the candidates covering those cells change gain (93 of the 9,408 (cell, candidate) pairs on average in
        the default configuration, padded to 36 x 6).

        Raises:
            ValueError: eps <= 0.
        """
        rng = _validate.generator(rng)
        _validate.positive("eps", eps)
        eps_r = eps / self.k if self.composition == "basic" else per_round_eps(eps, delta, self.k)[0]
        w = np.append(self.C[t - 1], 0.0)  # (cells + 1,): the dummy cell weighs nothing
        g0 = self._gains(w[:-1], np.zeros((1, self.sim.shape[0])))[0]
        out = np.zeros((size, self.k), dtype=np.int64)
        for a in range(0, size, self.chunk):
            B = min(self.chunk, size - a)
            rows = np.arange(B)
            cur = np.zeros((B, self.sim.shape[0] + 1))
            gains = np.zeros((B, self.m + 1))
            gains[:, : self.m] = g0
            used = np.zeros((B, self.m), dtype=bool)
            for r in range(self.k):
                blocked = used.copy()
                if self.group is not None:
                    full = np.stack(
                        [np.sum(used & (self.group == g), axis=1) >= self.cap for g in range(self.group.max() + 1)],
                        axis=1,
                    )
                    blocked |= full[:, self.group]
                logits = np.where(blocked, -np.inf, 0.5 * eps_r * gains[:, : self.m])
                pick = np.argmax(logits + rng.gumbel(size=(B, self.m)), axis=1)
                out[a : a + B, r] = pick
                used[rows, pick] = True
                if r == self.k - 1:
                    break
                X = self._cells_of[pick]  # (B, L) cells whose coverage may rise
                old = np.take_along_axis(cur, X, axis=1)
                new = np.maximum(old, self._sim_pad[X, pick[:, None]])
                np.put_along_axis(cur, X, new, axis=1)
                s = self._sim_of[X]  # (B, L, K) sim of the candidates covering each such cell
                loss = w[X][:, :, None] * (np.maximum(s - old[:, :, None], 0.0) - np.maximum(s - new[:, :, None], 0.0))
                idx = rows[:, None, None] * (self.m + 1) + self._cands_of[X]
                gains -= np.bincount(idx.ravel(), loss.ravel(), minlength=B * (self.m + 1)).reshape(B, self.m + 1)
        return out

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
