"""Table 2's approximate-DP rows through BatchToCO: the delta ledger of Lemma 38 (exact), the purified test
mechanism's +1 law (Lemma 24 / Corollary 25) against its closed form and in the engine's exact lazy decision, the
composition arithmetic of the new batch algorithms, and the cut objective's private random greedy (exact law on a tiny
graph: privacy and the exponential mechanism's per-round utility). Statistical checks fix a seed and use alpha = 1e-6
intervals (conftest)."""

import itertools
import math

import numpy as np
import pytest
from conftest import ALPHA, binom_interval
from scipy import stats

from privtest.co.batch_to_co import _halts, batch_to_co
from privtest.co.composition import advanced_composition_eps, per_round_eps
from privtest.co.kcut import CardinalityCut
from privtest.co.maxcut import MaxCut
from privtest.co.mechanisms import TestMechanism
from privtest.co.params import BatchToCOParams, delta_ledger, purification_phi_array
from privtest.mechanisms import Purified, purification_phi
from privtest_artifact.outputs.table2 import ROWS, rafiey_yoshida_error


def params(**kw):
    base = dict(eps=2.0, beta=0.05, pstar=0.45, kappa=0.5, gamma=2.0, C_1=2.0, C_H=2.0, delta=1e-6)
    base.update(kw)
    return BatchToCOParams(**base)


def small_cut(k=2, groups=None, cap=1):
    edges = np.array([(0, 1), (1, 2), (2, 3), (0, 3), (0, 2), (3, 4), (1, 4), (2, 4)])
    return CardinalityCut(5, edges, k=k, groups=groups, cap=cap)


class NoLaw(MaxCut):
    """MaxCut whose score law is hidden: the engine takes the exact lazy path (draws of A)."""

    def score_distribution(self, t, eps, delta):
        return None


def maxcut():
    n = 6
    edges = np.array([(i, j) for i in range(n) for j in range(i + 1, n) if (i + 2 * j) % 3 != 1])
    return n, edges


def test_delta_schedule_and_purification_constants():
    P = params()
    i, t = np.array([1, 2, 5]), np.array([1, 3, 50])
    cap = P.pbar * P.weight(i) ** 2 * P.beta * P.delta / P.C_delta
    assert np.allclose(P.delta_it(i, t), np.minimum(cap, 0.5 * P.pbar * P.eps_it(i, t)), rtol=1e-15)
    # Lemma 24(3): phi = delta/(e^eps - 1 + 2 delta), matching the scalar library function
    phi = P.phi_it(i, t)
    for a, b in zip(
        phi,
        [purification_phi(float(e), float(d)) for e, d in zip(P.eps_it(i, t), P.delta_it(i, t), strict=True)],
        strict=True,
    ):
        assert a == pytest.approx(b, rel=1e-12)
    hi, lo = P.purified_thresholds(i, t)
    assert np.all(lo >= P.pbar / 2) and np.all(hi <= P.pstar + P.pbar / 2)  # delta_t/eps_t <= pbar/2 (Lemma 39)
    assert params(delta=0.0).phi_it(2, 3) == 0.0
    with pytest.raises(ValueError, match="eps_t"):
        purification_phi_array(0.0, 1e-3)
    with pytest.raises(ValueError, match="delta_t"):
        purification_phi_array(1.0, 1.0)


def test_delta_ledger_exact_and_within_delta():
    """Lemma 38: the engine's per-run delta ledger equals delta(1,1) + sum over checkpoints of 3 e^{2 eps_t + eps_0}
    delta_t/xi_ell (recomputed from the checkpoints), and is <= the worst case privacy_budget() <= delta."""
    n, edges = maxcut()
    prob = MaxCut(n, edges)
    rng = np.random.default_rng(3)
    plist = [params(eps=e) for e in (2.0, 8.0)]
    res = batch_to_co(prob, plist, 5, rng)
    for r in range(10):
        P = plist[r // 5]
        cps = res.checkpoints[r][res.checkpoints[r] > 0]
        ells = np.arange(2, cps.size + 2)
        expect = delta_ledger(P, P.eps_it(ells, cps), ells)
        assert res.delta_loss[r] == pytest.approx(expect, rel=1e-12)
        assert res.delta_loss[r] <= P.privacy_budget()["delta_total"] <= P.delta
    assert (res.checkpoints > 0).any()  # some checkpoint was charged
    # delta_t recorded = delta(ell, t) of the stepping instance
    k = np.flatnonzero(res.steps >= 2)
    P = plist[0]
    assert np.allclose(res.delta_t[0, k], P.delta_it(res.gtm_ell[0, k], res.steps[k]), rtol=1e-12)
    # delta = 0: the ledger is exactly 0
    res0 = batch_to_co(prob, params(delta=0.0), 3, rng)
    assert np.all(res0.delta_loss == 0.0)


def test_purified_test_mechanism_plus_law():
    """Lemma 24(1): the purified M_t^h succeeds w.p. p + phi (1 - 2 p), p from A's exact score law (MaxCut's
    exponential mechanism), with the lazy and the full simulation (alpha = 1e-6 binomial intervals)."""
    n, edges = maxcut()
    t, eps_t, delta_t, h = len(edges), 0.8, 0.05, 6.0
    rng = np.random.default_rng(11)
    phi = purification_phi(eps_t, delta_t)
    exact = TestMechanism(MaxCut(n, edges), t, eps_t, delta_t, h).success_probability()
    closed = exact + phi * (1.0 - 2.0 * exact)
    for lazy in (True, False):
        M = Purified(TestMechanism(NoLaw(n, edges), t, eps_t, delta_t, h, lazy=lazy))
        assert M.phi == pytest.approx(phi)
        N = 200_000
        k = int(M.count_plus(np.array([N]), rng)[0])
        lo, hi = binom_interval(k, N)
        assert lo <= closed <= hi


def test_engine_lazy_halting_law_with_delta():
    """The engine's exact lazy decision with delta > 0 (purified g~) has the law of N full purified evaluations:
    Pr[halt] = Pr[Bin(N, p~) >= need] with p~ = p + phi (1 - 2p), p from the exact score law; and the
    score-distribution path agrees."""
    n, edges = maxcut()
    t, eps_t, delta_t, h, N, need = len(edges), 0.8, 0.05, 7.0, 40, 14
    phi = purification_phi(eps_t, delta_t)
    p = TestMechanism(MaxCut(n, edges), t, eps_t, delta_t, h).success_probability()
    q = stats.binom.sf(need - 1, N, p + phi * (1 - 2 * p))
    R = 4000
    args = dict(
        tt=np.array([t]),
        eps_t=np.full((R, 1), eps_t),
        h=np.full(R, h),
        N=np.full((R, 1), N),
        need=np.full((R, 1), need),
        which=np.arange(R),  # every run its own key: independent draws of A
        ell=np.full(R, 2),
        delta_t=np.full((R, 1), delta_t),
        phi=np.full((R, 1), phi),
    )
    for cls in (NoLaw, MaxCut):
        prob = cls(n, edges)
        rng = np.random.default_rng(5)
        halted, _ = _halts(prob, upper=np.array([prob.upper(t)]), rng=rng, **args)
        lo, hi = binom_interval(int(halted.sum()), R)
        assert lo <= q <= hi, cls.__name__


def test_per_round_eps_composition_arithmetic():
    eps, delta = 1.0, 1e-6
    for k in (1, 5, 50, 500):
        e_r, rule = per_round_eps(eps, delta, k)
        assert e_r >= eps / k and rule in ("basic", "advanced")
        if rule == "advanced":  # k-fold advanced composition stays within (eps, delta)
            assert e_r * math.sqrt(2 * k * math.log(1 / delta)) + k * e_r * math.expm1(e_r) <= eps
            assert e_r == advanced_composition_eps(eps, delta, k)
        else:
            assert e_r == eps / k
    assert per_round_eps(eps, delta, 5)[1] == "basic"  # k = 5 < 2 ln(1/delta): basic composition wins
    assert per_round_eps(eps, delta, 500)[1] == "advanced"
    assert per_round_eps(eps, 0.0, 500) == (eps / 500, "basic")
    with pytest.raises(ValueError, match="k"):
        per_round_eps(eps, delta, 0)


def test_cut_objective_properties_and_exact_opt():
    """f is the cut value, data-monotone, sensitivity 1, submodular and non-monotone; OPT_t is the brute-force
    maximum over feasible sets (cardinality and partition matroid)."""
    for kw in ({}, {"groups": 2, "cap": 1}):
        prob = small_cut(k=2, **kw)
        sets = [
            np.array(c + (5,) * (2 - len(c)))
            for j in range(3)
            for c in itertools.combinations(range(5), j)
            if "groups" not in kw or len(c) < 2 or c[0] % 2 != c[1] % 2
        ]
        Y = np.stack(sets)
        vals = np.stack([prob.value(t, Y) for t in range(1, prob.T + 1)])
        assert np.all(np.diff(vals, axis=0) >= 0) and np.all(np.diff(vals, axis=0) <= 1)
        assert np.allclose(prob.opt, vals.max(axis=1))
    full = CardinalityCut(5, small_cut().edges, k=5)
    all5 = np.arange(5)[None, :]
    assert full.value(full.T, all5)[0] == 0.0  # non-monotone: f(V) = 0
    # submodularity on every S subset T, v not in T (brute force)
    M = CardinalityCut(5, small_cut().edges, k=5)
    f = {}
    for mask in range(32):
        nodes = [v for v in range(5) if mask >> v & 1]
        f[mask] = M.value(M.T, np.array([nodes + list(range(5, 5 + 5 - len(nodes)))]))[0]
    for S, Tm in itertools.product(range(32), repeat=2):
        if S & Tm == S:
            for v in range(5):
                if not Tm >> v & 1:
                    assert f[S | 1 << v] - f[S] >= f[Tm | 1 << v] - f[Tm]
    with pytest.raises(ValueError, match="k"):
        CardinalityCut(5, small_cut().edges, k=6)
    with pytest.raises(ValueError, match="rank"):
        CardinalityCut(5, small_cut().edges, k=3, groups=2, cap=1)


def _sequence_law(prob, t, eps_r):
    """Exact law of the private random greedy's pick sequences (independent re-implementation: gains by brute-force
    evaluation of f)."""
    n, k = prob.n, prob.k
    out = {}

    def rec(seq, p):
        if len(seq) == k:
            out[tuple(seq)] = out.get(tuple(seq), 0.0) + p
            return
        nodes = [v for v in seq if v < n]
        base = prob.value(t, np.array([seq + list(range(n + len(seq), n + k))]))[0] if seq else 0.0
        cand, gain = [], []
        for v in range(n + k):
            if v in seq:
                continue
            if v < n and prob.group is not None:
                cls = [prob.group[u] for u in nodes + [v]]
                if max(np.bincount(cls)) > prob.cap:
                    continue
            trial = seq + [v]
            pad = [u for u in range(n, n + k) if u not in trial][: k - len(trial)]
            gain.append(prob.value(t, np.array([trial + pad]))[0] - base if v < n else 0.0)
            cand.append(v)
        w = np.exp(0.5 * eps_r * np.array(gain))
        for v, pv in zip(cand, w / w.sum(), strict=True):
            rec(seq + [v], p * pv)

    rec([], 1.0)
    return out


@pytest.mark.parametrize("kw", [{}, {"groups": 2, "cap": 1}])
def test_private_random_greedy_exact_law_privacy_and_utility(kw):
    """On a 5-node graph with k = 2: (1) the sampler matches the exact law of its node sets (chi-square, alpha
    1e-6); (2) privacy, exactly: removing any one edge changes no set's probability by more than e^{k eps_r}
    (basic composition; the output is the ordered picks, post-processed to the set); (3) the per-round exponential
    mechanism utility: chosen gain >= best - (2/eps_r) ln(m/beta_r) in all rounds except w.p. <= k beta_r."""
    prob = small_cut(k=2, **kw)
    t, eps, delta = prob.T, 3.0, 1e-6
    eps_r = prob.round_eps(eps, delta)
    assert eps_r == eps / 2  # k = 2: basic composition
    law = _sequence_law(prob, t, eps_r)
    sets = {}
    for seq, p in law.items():
        key = frozenset(v for v in seq if v < prob.n)
        sets[key] = sets.get(key, 0.0) + p
    assert sum(sets.values()) == pytest.approx(1.0)
    rng = np.random.default_rng(8)
    B = 50_000
    Y, chosen, best = prob.greedy(t, eps, delta, B, rng)
    keys = list(sets)
    index = {kk: j for j, kk in enumerate(keys)}
    counts = np.bincount([index[frozenset(v for v in y if v < prob.n)] for y in Y], minlength=len(keys))
    expected = B * np.array([sets[kk] for kk in keys])
    assert stats.chisquare(counts, expected).pvalue > ALPHA
    # exact privacy over the neighbouring graphs (one edge removed)
    for drop in range(len(prob.edges)):
        nb = CardinalityCut(prob.n, np.delete(prob.edges, drop, axis=0), k=prob.k, **kw)
        law_nb = _sequence_law(nb, nb.T, eps_r)
        for seq, p in law.items():
            assert abs(math.log(p / law_nb[seq])) <= prob.k * eps_r + 1e-12
    # per-round utility of the exponential mechanism (m = n + k candidates at most)
    beta_r = 0.05
    bad = np.any(chosen < best - (2 / eps_r) * math.log((prob.n + prob.k) / beta_r), axis=1)
    _, hi = binom_interval(int(bad.sum()), B)
    assert hi <= prob.k * beta_r


def test_table2_registry_and_rafiey_yoshida():
    assert sorted(ROWS) == [1, 2, 3, 4, 5, 6]
    assert ROWS[5].privacy == "eps" and ROWS[1].privacy == "eps,delta" and ROWS[2].status == "evaluated"
    assert rafiey_yoshida_error(k=5, m=49, eps=1.0) == pytest.approx(5**7 * 49 * math.log(49))
    with pytest.raises(ValueError, match="eps"):
        rafiey_yoshida_error(k=5, m=49, eps=0.0)


def test_facility_location_advanced_composition_row1():
    """Row 1's private greedy: with composition="advanced" each round runs at per_round_eps(eps, delta, k); where
    basic composition wins (k = 2, delta = 1e-6) the draws equal the basic ones for one seed, and where advanced
    composition wins (delta = 0.9, k = 2 > 2 ln(1/0.9)) its rounds are less noisy than eps/k (higher mean value)."""
    import pandas as pd

    from privtest.co.submodular import FacilityLocation

    rng = np.random.default_rng(4)
    n = 300
    lat = np.concatenate([rng.normal(44.93, 0.01, n // 2), rng.normal(45.02, 0.01, n // 2)])
    lon = np.concatenate([rng.normal(-93.30, 0.01, n // 2), rng.normal(-93.22, 0.01, n // 2)])
    stops = pd.DataFrame(
        {"time": pd.date_range("2017-03-01", periods=n, freq="37min", tz="UTC"), "lat": lat, "long": lon}
    )
    cal = {"start": "2017-03-01", "end": "2017-03-08"}
    basic = FacilityLocation(stops, k=2, grid=4, **cal)
    adv = FacilityLocation(stops, k=2, grid=4, composition="advanced", **cal)
    T = basic.T
    a = basic.sample(T, 0.05, 1e-6, 500, np.random.default_rng(1))
    b = adv.sample(T, 0.05, 1e-6, 500, np.random.default_rng(1))
    assert np.array_equal(a, b)
    assert per_round_eps(0.05, 0.9, 2)[1] == "advanced"
    fa = adv.value(T, adv.sample(T, 0.05, 0.9, 4000, np.random.default_rng(2)))
    fb = basic.value(T, basic.sample(T, 0.05, 0.9, 4000, np.random.default_rng(3)))
    z = stats.norm.ppf(1 - ALPHA / 2)
    assert fa.mean() - fb.mean() > z * math.sqrt(fa.var(ddof=1) / fa.size + fb.var(ddof=1) / fb.size)
    with pytest.raises(ValueError, match="composition"):
        FacilityLocation(stops, k=2, grid=4, composition="fancy", **cal)
