"""The continual-observation batch algorithms' samplers against brute-force references on tiny instances: the law of
every draw (private greedy of FacilityLocation with both table depths, the noisy-degree prefix algorithm of
DensestSubgraph, the pair mechanism of DensestPair, MaxCut's cut mechanism after its cache), the scores read off a
draw against ``value``, and the caches (results independent of what was cached before). Statistical tests use alpha
= 1e-6 (conftest.ALPHA)."""

import itertools
import math

import numpy as np
import pandas as pd
import pytest
from conftest import ALPHA
from scipy import integrate, stats

from privtest.co import graphs, maxcut, submodular
from privtest.co.maxcut import MaxCut
from privtest.co.submodular import FacilityLocation


def chi2_pvalue(obs: np.ndarray, expected: np.ndarray) -> float:
    """Chi-square goodness of fit, the cells with expected count < 5 pooled into one."""
    small = expected < 5
    obs = np.append(obs[~small], obs[small].sum())
    expected = np.append(expected[~small], expected[small].sum())
    keep = expected > 0
    assert obs[~keep].sum() == 0  # nothing drawn where the law puts no mass
    return float(stats.chisquare(obs[keep], expected[keep] * obs.sum() / expected[keep].sum()).pvalue)


def contingency_pvalue(a: list, b: list) -> float:
    """Two-sample chi-square (same law?) of two lists of hashable outcomes, rare outcomes pooled."""
    keys = sorted(set(a) | set(b))
    index = {k: i for i, k in enumerate(keys)}
    ca = np.bincount([index[k] for k in a], minlength=len(keys))
    cb = np.bincount([index[k] for k in b], minlength=len(keys))
    rare = ca + cb < 10
    table = np.array([np.append(ca[~rare], ca[rare].sum()), np.append(cb[~rare], cb[rare].sum())])
    return float(stats.chi2_contingency(table[:, table.sum(axis=0) > 0])[1])


# --- FacilityLocation: the private greedy -----------------------------------------------------------------------------


def tiny_stops(n: int = 120, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    lat = np.concatenate([rng.normal(44.93, 0.02, n // 2), rng.normal(45.02, 0.02, n - n // 2)])
    lon = np.concatenate([rng.normal(-93.30, 0.02, n // 2), rng.normal(-93.22, 0.02, n - n // 2)])
    times = pd.date_range("2017-03-01", periods=n, freq="97min", tz="UTC")
    return pd.DataFrame({"time": times, "lat": lat, "long": lon})


def greedy_law(prob: FacilityLocation, t: int, eps: float) -> dict:
    """Exact law of the ordered picks of the private greedy, gains recomputed from scratch at every round."""
    a = 0.5 * eps / prob.k
    w = prob.C[t - 1]
    law = {}

    def rec(seq, p, cur):
        if len(seq) == prob.k:
            law[tuple(seq)] = p
            return
        gains = np.maximum(prob.sim - cur[:, None], 0.0).T @ w
        blocked = np.zeros(prob.m, dtype=bool)
        blocked[seq] = True
        if prob.group is not None:
            for g in range(prob.group.max() + 1):
                if sum(prob.group[c] == g for c in seq) >= prob.cap:
                    blocked |= prob.group == g
        logits = np.where(blocked, -np.inf, a * gains)
        q = np.exp(logits - logits.max())
        q /= q.sum()
        for c in np.flatnonzero(q > 0):
            rec([*seq, int(c)], p * q[c], np.maximum(cur, prob.sim[:, c]))

    rec([], 1.0, np.zeros(prob.sim.shape[0]))
    return law


@pytest.mark.parametrize("path", ["tables", "deep tables", "rejection"])
@pytest.mark.parametrize(
    ("constraint", "k"),
    [({}, 3), ({}, 4), ({"groups": 3, "cap": 1}, 3), ({"groups": 2, "cap": 2}, 4)],
)
def test_facility_location_law_matches_brute_force(monkeypatch, constraint, k, path):
    """The ordered picks of :meth:`FacilityLocation.sample` follow the exact law of the private greedy (k rounds of
    the exponential mechanism, gains recomputed from scratch, matroid strips blocked once full) on both of its paths:
    inversion with the first two rounds drawn from tables or the first three (``deep tables``), across chunks of 7
    draws, and the compiled rejection sampler (forced here at a spread of 3, where the default uses the tables); the
    scores read off the draws equal ``value`` to rounding, and every draw is feasible."""
    monkeypatch.setattr(submodular, "_DEEP_DRAWS", 1 if path == "deep tables" else 10**9)
    monkeypatch.setattr(submodular, "_REJECTION_SPREAD", np.inf if path == "rejection" else -1.0)
    prob = FacilityLocation(
        tiny_stops(), k=k, grid=3, radius_km=6.0, start="2017-03-01", end="2017-03-09", chunk=7, **constraint
    )
    t, n = 5, 60_000
    eps = 6.0 * k / float((prob.sim.T @ prob.C[t - 1]).max())  # first-round logits spread over about 3
    law = greedy_law(prob, t, eps)
    assert sum(law.values()) == pytest.approx(1.0)
    Y, f = prob.sample_scored(t, eps, 0.0, n, np.random.default_rng(1))
    assert Y.shape == (n, k) and Y.dtype == np.int64
    np.testing.assert_allclose(f, prob.value(t, Y), rtol=1e-12)
    seqs = list(law)
    index = {s: i for i, s in enumerate(seqs)}
    codes = np.array([index.get(tuple(y), -1) for y in Y.tolist()])
    assert np.all(codes >= 0)  # distinct picks within the constraint
    counts = np.bincount(codes, minlength=len(seqs))
    assert chi2_pvalue(counts, n * np.array([law[s] for s in seqs])) > ALPHA


def test_facility_location_depth_and_cache_do_not_change_the_draws(monkeypatch):
    """Tabulating the third round (large calls) gives the same draws as drawing it from each draw's gains (same
    uniforms, equal CDFs), as does gathering the earlier picks' coverage from sim instead of a table, and a problem
    whose caches went through other steps and eps (more keys than they keep) gives the same draws as a fresh one: the
    caches change the cost, not the output."""
    stops = tiny_stops(300, seed=3)
    kw = {"k": 4, "grid": 4, "radius_km": 4.0, "start": "2017-03-01", "end": "2017-03-21", "chunk": 64}
    monkeypatch.setattr(submodular, "_REJECTION_SPREAD", -1.0)  # the tables' path at every spread
    monkeypatch.setattr(submodular, "_DEEP_DRAWS", 10**9)
    shallow = FacilityLocation(stops, **kw).sample_scored(7, 0.2, 0.0, 500, np.random.default_rng(2))
    monkeypatch.setattr(submodular, "_DEEP_DRAWS", 1)
    deep = FacilityLocation(stops, **kw).sample_scored(7, 0.2, 0.0, 500, np.random.default_rng(2))
    np.testing.assert_array_equal(deep[0], shallow[0])
    np.testing.assert_allclose(deep[1], shallow[1], rtol=1e-13)
    monkeypatch.setattr(submodular, "_PAIR_OLD_ENTRIES", 0)  # earlier picks' coverage gathered from sim instead
    untabled = FacilityLocation(stops, **kw)
    assert untabled._pair_old is None
    np.testing.assert_array_equal(untabled.sample(7, 0.2, 0.0, 500, np.random.default_rng(2)), deep[0])
    used = FacilityLocation(stops, **kw)
    for t in range(1, 10):
        used.scores(t, 0.05 * t, 0.0, 3, np.random.default_rng(t))
    assert len(used._cache) <= 2 * submodular._CACHE_KEYS
    for t, eps in ((7, 0.2), (2, 0.05), (7, 0.2)):
        fresh = FacilityLocation(stops, **kw)
        np.testing.assert_array_equal(
            used.sample(t, eps, 0.0, 300, np.random.default_rng(5)),
            fresh.sample(t, eps, 0.0, 300, np.random.default_rng(5)),
        )


@pytest.mark.parametrize("groups", [None, 2])
def test_facility_location_rejection_is_chosen_by_the_spread_and_draws_from_the_generator(monkeypatch, groups):
    """At a spread a max gain <= _REJECTION_SPREAD the compiled rejection sampler draws (and only then), its draws
    are a function of the Generator's state alone (not of ``chunk`` or the caches), and it advances that state as a
    Python-level draw would: the next uniform after a call is the same whether the call ran twice or once; its law at
    a small spread (the default path of the CO runs) is the exact one."""
    stops = tiny_stops(200, seed=4)
    kw = {"k": 3, "grid": 3, "radius_km": 6.0, "start": "2017-03-01", "end": "2017-03-09", "groups": groups, "cap": 2}
    prob = FacilityLocation(stops, **kw, chunk=5)
    t = 5
    top = float((prob.sim.T @ prob.C[t - 1]).max())
    eps = 2 * prob.k * 0.5 / top  # spread 0.5
    calls = []
    from privtest.co import _fl_kernel

    kernel = _fl_kernel.compiled()
    monkeypatch.setattr(_fl_kernel, "compiled", lambda: lambda *args: (calls.append(1), kernel(*args))[1])
    rng_a, rng_b = np.random.default_rng(9), np.random.default_rng(9)
    Y = prob.sample(t, eps, 0.0, 40_000, rng_a)
    assert len(calls) == 1
    other = FacilityLocation(stops, **kw, chunk=4096)
    other.sample(t, 8 * eps, 0.0, 50, np.random.default_rng(0))  # another spread first (the tables' path)
    assert len(calls) == 1
    np.testing.assert_array_equal(other.sample(t, eps, 0.0, 40_000, rng_b), Y)
    assert rng_a.random() == rng_b.random()
    state = rng_a.bit_generator.state
    again = prob.sample(t, eps, 0.0, 50, rng_a)  # the kernel draws from the Generator itself, not from a copy
    assert rng_a.bit_generator.state != state
    assert not np.array_equal(again, prob.sample(t, eps, 0.0, 50, rng_a))
    law = greedy_law(prob, t, eps)
    seqs = list(law)
    index = {s: i for i, s in enumerate(seqs)}
    codes = np.array([index.get(tuple(y), -1) for y in Y.tolist()])
    assert np.all(codes >= 0)
    counts = np.bincount(codes, minlength=len(seqs))
    assert chi2_pvalue(counts, len(Y) * np.array([law[s] for s in seqs])) > ALPHA


@pytest.mark.parametrize("absent", [("numba",), ("pandas",), ("pandas", "numba")])
def test_facility_location_without_its_extra_says_which_before_any_work(monkeypatch, absent):
    import importlib.util

    stops, real = tiny_stops(), importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name in absent else real(name, *a))
    with pytest.raises(ImportError, match=rf"needs {' and '.join(absent)}: pip install \"privtest\[co\]\""):
        FacilityLocation(stops, k=2, grid=3, start="2017-03-01", end="2017-03-09")


def test_facility_location_value_and_scores_on_real_stops(wheel):
    """On the real stop stream (default configuration, k = 5 of 49 candidates): f read off the draws equals
    ``value`` to 1e-9 (relative), scores and sample_scored consume the same random stream, and ``value`` of a flat
    (k,) set is that of its (1, k) batch."""
    from privtest_artifact import data

    prob = FacilityLocation(data.mpls_stops(wheel("mpls_stops")), k=5, grid=7, radius_km=3.0, step_days=7, T_max=30)
    for t, eps, size in ((3, 0.001, 700), (30, 0.05, submodular._DEEP_DRAWS + 5)):
        Y, f = prob.sample_scored(t, eps, 0.0, size, np.random.default_rng(t))
        np.testing.assert_allclose(f, prob.value(t, Y), rtol=1e-9)
        np.testing.assert_array_equal(prob.scores(t, eps, 0.0, size, np.random.default_rng(t)), f)
        assert np.all(np.sort(Y, axis=1)[:, 1:] > np.sort(Y, axis=1)[:, :-1])  # k distinct candidates
    assert prob.value(30, Y[0]).tolist() == prob.value(30, Y[:1]).tolist()


@pytest.fixture(scope="module")
def wheel():
    """Path of the mpls_stops data wheel (the one the data rule fetched), or skip."""
    from pathlib import Path

    def path(name: str) -> Path:
        p = Path(__file__).resolve().parents[1] / "resources" / "wheels" / f"{name}.whl"
        if not p.exists():
            pytest.skip(f"data wheel {p.name} not fetched")
        return p

    return path


# --- MaxCut: the exponential mechanism over all cuts, cached per (t, eps) ---------------------------------------------


@pytest.mark.parametrize("full", [False, True])
def test_maxcut_two_level_inversion_law(monkeypatch, full):
    """MaxCut.sample's law over the cut ids is the exponential mechanism's, whether it inverts the CDF over all cut
    ids (``full``) or a block of 16 ids by the blocks' weights and then an id within it (16 blocks), for steps and eps
    asked in any order, in one call or in many small ones."""
    monkeypatch.setattr(maxcut, "_BLOCK", 16)
    monkeypatch.setattr(maxcut, "_FULL_CDF", 10**9 if full else 0)
    monkeypatch.setattr(maxcut, "_FULL_CDF_CALLS", 0 if full else 10**9)
    rng = np.random.default_rng(5)
    edges = np.array(sorted({tuple(sorted(e)) for e in rng.integers(0, 9, (30, 2)).tolist() if e[0] != e[1]}))
    prob = MaxCut(9, edges)
    for t, eps in ((len(edges), 0.3), (5, 1.0), (len(edges), 0.05)):
        x = 0.5 * eps * prob.value(t, np.arange(256))
        p = np.exp(x - x.max())
        draws = np.concatenate(
            [prob.sample(t, eps, 0.0, 7, rng) for _ in range(1000)] + [prob.sample(t, eps, 0.0, 20_000, rng)]
        )
        assert chi2_pvalue(np.bincount(draws, minlength=256), draws.size * p / p.sum()) > ALPHA


def test_maxcut_cached_law_is_the_exponential_mechanism():
    """The cached CDF gives the exponential mechanism's law at every (t, eps) whatever was asked before (more keys
    than the cache keeps, t going back), the same draws as a fresh problem, and score_distribution hands out copies."""
    edges = np.array([[0, 1], [1, 2], [2, 3], [3, 0], [0, 2], [1, 4], [2, 4]])
    prob = MaxCut(5, edges)
    for t in (7, 2, 5, 7, 3, 6, 1):
        for eps in (0.4, 1.3):
            prob.sample(t, eps, 0.0, 5, np.random.default_rng(0))
            prob.score_distribution(t, eps, 0.0)
    assert len(prob._laws) <= maxcut._LAW_KEYS
    for t, eps in ((4, 0.9), (6, 0.4), (4, 0.9)):
        x = 0.5 * eps * prob.value(t, np.arange(16))
        p = np.exp(x - x.max())
        p /= p.sum()
        draws = prob.sample(t, eps, 0.0, 40_000, np.random.default_rng(t))
        assert chi2_pvalue(np.bincount(draws, minlength=16), 40_000 * p) > ALPHA
        np.testing.assert_array_equal(draws, MaxCut(5, edges).sample(t, eps, 0.0, 40_000, np.random.default_rng(t)))
        values, probs = prob.score_distribution(t, eps, 0.0)
        expected = np.bincount(prob.value(t, np.arange(16)).astype(int), weights=p, minlength=values.size)
        np.testing.assert_allclose(probs, expected, rtol=1e-12)
        probs[:] = 0.0  # a copy: the cache keeps the law
        assert prob.score_distribution(t, eps, 0.0)[1].sum() == pytest.approx(1.0)


# --- DensestSubgraph: the noisy-degree prefix algorithm ---------------------------------------------------------------


def test_laplace_draws_follow_the_laplace_law():
    """graphs.laplace_by_inversion (one uniform each, by inversion) against the Laplace CDF (Kolmogorov-Smirnov)."""
    x = graphs.laplace_by_inversion(np.random.default_rng(9), 2.5, (200_000,))
    assert np.all(np.isfinite(x))
    assert stats.kstest(x, stats.laplace(scale=2.5).cdf).pvalue > ALPHA


def test_ascending_is_the_stable_argsort():
    """graphs._ascending (radix presort by quantised keys, then an exact stable sort) returns exactly
    np.argsort(kind="stable") of rows above and below its size threshold, with ties, a -inf key and a constant row."""
    rng = np.random.default_rng(3)
    for n in (5, graphs._PRESORT_NODES, 1899):
        key = np.round(rng.laplace(0.0, 20.0, (6, n)), 1) - rng.integers(0, 50, n)  # rounded: many exact ties
        key[1, 3] = -np.inf
        key[2] = 7.0
        got = graphs._ascending(key.copy())
        if n >= graphs._PRESORT_NODES:
            np.testing.assert_array_equal(got, np.argsort(key, axis=1, kind="stable"))
        else:  # numpy's quicksort: any order of equal keys
            np.testing.assert_array_equal(np.take_along_axis(key, got, axis=1), np.sort(key, axis=1))


def test_softmax_draw_law_and_blocked_entries():
    """graphs._softmax_draw: the law softmax(logits) per row (-inf never drawn), and the last positive weight when
    the uniform times the total reaches the total."""
    logits = np.array([[0.0, -np.inf, 1.0, 2.5, -np.inf], [-np.inf, 3.0, 3.0, -1.0, -np.inf]])
    rows = np.repeat(logits, 50_000, axis=0)
    picks = graphs._softmax_draw(rows.copy(), np.random.default_rng(4)).reshape(2, -1)
    for row, drawn in zip(logits, picks, strict=True):
        p = np.exp(row - row.max())
        assert chi2_pvalue(np.bincount(drawn, minlength=5), drawn.size * p / p.sum()) > ALPHA

    class Top:  # a "uniform" of 1: u times the total is the total
        def random(self, size):
            return np.ones(size)

    assert graphs._softmax_draw(logits.copy(), Top()).tolist() == [3, 3]


def prefix_law_three_nodes(w01: float, w12: float, eps: float) -> dict:
    """Exact law of the node set drawn by the noisy-degree prefix algorithm on the path 0 - 1 - 2 (weights w01, w12):
    Pr[order a > b > c of the noisy degrees] = int f_b(x) Pr[X_a > x] Pr[X_c < x] dx, then the exponential mechanism
    over the prefixes."""
    deg = np.array([w01, w01 + w12, w12])
    w = {(0, 1): w01, (1, 2): w12, (0, 2): 0.0}
    lap = [stats.laplace(loc=d, scale=4.0 / eps) for d in deg]
    law: dict = {}
    for a, b, c in itertools.permutations(range(3)):
        p, _ = integrate.quad(lambda x, a=a, b=b, c=c: lap[b].pdf(x) * lap[a].sf(x) * lap[c].cdf(x), -np.inf, np.inf)
        E = np.array([0.0, w[tuple(sorted((a, b)))], w01 + w12])
        q = np.exp(eps * E / (4 * np.arange(1, 4)))
        q /= q.sum()
        for k in range(3):
            key = frozenset((a, b, c)[: k + 1])
            law[key] = law.get(key, 0.0) + p * q[k]
    return law


def test_densest_subgraph_law_matches_quadrature():
    """The node sets drawn by DensestSubgraph (noisy degrees by inversion, one argsort per draw, prefix weights per
    draw) follow the exact law on a weighted path of three nodes; scores equal ``value`` of the sets."""
    s = graphs.edge_stream([0] * 3 + [1], [1] * 3 + [2], [0] * 4, n=3, name="path", multigraph=True)
    prob = graphs.DensestSubgraph(s, np.array([1.5]), chunk=37)
    eps, n = 1.2, 100_000
    law = prefix_law_three_nodes(3.0, 1.0, eps)
    assert sum(law.values()) == pytest.approx(1.0, abs=1e-7)
    Y, f = prob.sample_scored(1, eps, 0.0, n, np.random.default_rng(6))
    np.testing.assert_allclose(f, prob.value(1, Y), rtol=0, atol=1e-12)
    keys = list(law)
    index = {k: i for i, k in enumerate(keys)}
    counts = np.bincount([index[frozenset(np.flatnonzero(y).tolist())] for y in Y], minlength=len(keys))
    assert chi2_pvalue(counts, n * np.array([law[k] for k in keys])) > ALPHA


def test_densest_subgraph_matches_reference_sampler():
    """Two-sample test: DensestSubgraph's sets against a reference (numpy's Laplace, ranks of the noisy degrees, the
    weight inside each prefix by set membership, the exponential mechanism's probabilities) on a six-node
    multigraph; ``scores`` consumes the stream of ``sample_scored`` and returns its f."""
    s = graphs.edge_stream(
        [0, 0, 1, 2, 3, 0, 1, 4, 4], [1, 2, 2, 3, 4, 3, 3, 5, 5], [0, 0, 0, 0, 0, 1, 1, 1, 1], 6, "m", multigraph=True
    )
    prob = graphs.DensestSubgraph(s, *graphs.densest_subgraph_opt(s), chunk=16)
    t, eps, n = 2, 1.5, 60_000
    Y, f = prob.sample_scored(t, eps, 0.0, n, np.random.default_rng(7))
    np.testing.assert_array_equal(prob.scores(t, eps, 0.0, n, np.random.default_rng(7)), f)
    pairs, w = s.pairs[: s.active(t)], s.weights(t)[: s.active(t)]
    deg = np.bincount(pairs.ravel(), np.repeat(w, 2), minlength=6)
    rng = np.random.default_rng(8)
    rank = np.argsort(np.argsort(-(deg + rng.laplace(0.0, 4.0 / eps, (n, 6))), axis=1), axis=1)
    E = np.stack([((rank[:, pairs[:, 0]] < k) & (rank[:, pairs[:, 1]] < k)) @ w for k in range(1, 7)], axis=1)
    logits = eps * E / (4 * np.arange(1, 7))
    q = np.exp(logits - logits.max(axis=1, keepdims=True))
    q /= q.sum(axis=1, keepdims=True)
    size = 1 + (rng.random((n, 1)) > np.cumsum(q, axis=1)).sum(axis=1)
    ref = [frozenset(np.flatnonzero(r < k).tolist()) for r, k in zip(rank, size, strict=True)]
    assert contingency_pvalue([frozenset(np.flatnonzero(y).tolist()) for y in Y], ref) > ALPHA


def test_densest_subgraph_scores_on_a_large_sparse_graph():
    """Above graphs._PRESORT_NODES nodes (the presorted order) and with unit weights (plain counts): the sets drawn are
    node sets whose ``value`` is the score read off the draw, and a planted clique is found at large eps."""
    rng = np.random.default_rng(1)
    n = graphs._PRESORT_NODES + 100
    u, v = rng.integers(0, n, 3000), rng.integers(0, n, 3000)
    clique = np.array(list(itertools.combinations(range(12), 2)))
    u, v = np.concatenate([u[u != v], clique[:, 0]]), np.concatenate([v[u != v], clique[:, 1]])
    s = graphs.edge_stream(u, v, np.zeros(u.size, dtype=int), n, "sparse")
    prob = graphs.DensestSubgraph(s, np.array([6.0]))
    Y, f = prob.sample_scored(1, 0.5, 0.0, 200, np.random.default_rng(2))
    np.testing.assert_allclose(f, prob.value(1, Y), rtol=0, atol=1e-12)
    assert Y.shape == (200, n) and np.all(Y.sum(axis=1) >= 1)
    f_large = prob.scores(1, 400.0, 0.0, 50, np.random.default_rng(3))
    assert np.median(f_large) >= 5.0  # the 12-clique has density 11/2


# --- DensestPair: the exponential mechanism over node pairs ----------------------------------------------------------


def test_densest_pair_absent_pairs_are_enumerated_exactly():
    """DensestPair._absent maps 0..C(n, 2) - P - 1 onto the absent pairs in lexicographic order, for every number P
    of present pairs of random streams."""
    rng = np.random.default_rng(0)
    for n in (2, 3, 5, 8):
        every = list(itertools.combinations(range(n), 2))
        order = rng.permutation(len(every))
        u = [every[i][0] for i in order]
        v = [every[i][1] for i in order]
        s = graphs.edge_stream(u, v, list(range(len(every))), n, "all")
        prob = graphs.DensestPair(s, np.full(s.T, 1.0))
        for P in range(len(every)):
            present = set(map(tuple, s.pairs[:P].tolist()))
            absent = [p for p in every if p not in present]
            got = prob._absent(P, np.arange(len(absent)))
            assert [tuple(x) for x in got.tolist()] == absent


def test_densest_pair_law_per_pair():
    """Every pair's probability: exp(eps w_uv/2) normalised, the absent pairs sharing their mass uniformly; scores
    equal ``value`` and are those of ``scores`` for the same seed; on a complete graph no absent pair is drawn."""
    s = graphs.burst_stream(n=7, base_edges=6, T=10, t_burst=4, burst=12, clique=2, seed=0)
    prob = graphs.DensestPair(s, np.full(s.T, 10.0))
    every = list(itertools.combinations(range(7), 2))
    for t, eps in ((2, 0.3), (5, 0.2), (10, 0.05)):
        Y, f = prob.sample_scored(t, eps, 0.0, 100_000, np.random.default_rng(t))
        np.testing.assert_allclose(prob.value(t, Y), f, atol=1e-12)
        np.testing.assert_array_equal(prob.scores(t, eps, 0.0, 100_000, np.random.default_rng(t)), f)
        w = dict(zip(map(tuple, s.pairs[: s.active(t)].tolist()), s.weights(t)[: s.active(t)], strict=True))
        p = np.array([math.exp(0.5 * eps * w.get(pair, 0.0)) for pair in every])
        index = {pair: i for i, pair in enumerate(every)}
        counts = np.bincount([index[tuple(np.flatnonzero(y).tolist())] for y in Y], minlength=len(every))
        assert chi2_pvalue(counts, Y.shape[0] * p / p.sum()) > ALPHA
    full = graphs.edge_stream([0, 0, 1], [1, 2, 2], [0, 0, 0], 3, "K3")
    Y, f = graphs.DensestPair(full, np.array([1.0])).sample_scored(1, 0.5, 0.0, 1000, np.random.default_rng(0))
    assert np.all(f == 0.5) and np.all(Y.sum(axis=1) == 2)
