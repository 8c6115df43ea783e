"""fig_audit_suites and privtest.benchmark_suites: the suites' mechanisms follow their published definitions (exact
edge cases, and statistical checks at alpha ~ 1e-6 with binomial tolerances), bad arguments are refused naming them,
the budget is kept, and a small run of the whole output judges the plainly broken mechanisms flagged and refutes no
private one."""

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from privtest import benchmark_suites as BS
from privtest.audit import bound
from privtest.svt_variants import SVTVariant
from privtest_artifact.claims import to_frame
from privtest_artifact.outputs import fig_audit_suites as F

#: Level of each statistical check below (a false failure of the file is then ~1e-5).
ALPHA = 1e-6


def _binom_ok(k: int, n: int, p: float) -> bool:
    """k successes of n are compatible with probability p at two-sided level ALPHA."""
    return stats.binomtest(k, n, p).pvalue > ALPHA


def test_every_suite_is_there_with_its_sources_and_claims():
    mechs = BS.suite_mechanisms()
    assert [m.suite for m in mechs] == sorted((m.suite for m in mechs), key=list(BS.SOURCES).index)
    counts = {s: sum(m.suite == s for m in mechs) for s in BS.SOURCES}
    assert counts == {"StatDP": 11, "DP-Sniper": 20, "DP-Auditorium": 7, "Delta-Siege": 4}
    for m in mechs:
        assert m.claimed_eps > 0 and m.source and m.pairs_source and m.coding_note and 0 <= m.delta < 1
        if m.delta > 0:  # an (eps, delta) claim (Delta-Siege's Gaussians): private, no closed form for the float64 code
            assert m.private and math.isnan(m.true_eps) and m.true_kind == "" and m.label_note, m.name
            continue
        assert m.true_kind in ("exact", "exact (the pair)", "upper bound")
        # a mechanism marked private has a closed-form eps at most its claim, a non-private one above it
        assert (m.true_eps <= m.claimed_eps + 1e-12) == m.private, m.name
    gauss = [m.name for m in mechs if m.delta > 0]
    assert gauss == ["gauss_boxmuller (eps = 1, delta = 0.001)", "gauss_polar (eps = 1, delta = 0.001)"]
    statdp_broken = {m.name for m in mechs if m.suite == "StatDP" and not m.private}
    assert statdp_broken == {"noisy_max_v1b", "noisy_max_v2b", "histogram_eps", "iSVT1", "iSVT2", "iSVT3", "iSVT4"}


def test_statdp_patterns_are_neighbours():
    for one in (False, True):
        for a, b in BS.statdp_patterns(7, one_differ=one).values():
            assert np.max(np.abs(a - b)) <= 1.0 and len(a) == len(b) == 7
            assert one is False or np.count_nonzero(a != b) == 1


def test_sparse_vector_edge_cases_match_svt_variants():
    # no noise at all (tiny scales): tops exactly where q_i >= T, abort after the cutoff, released values = q_i
    a, v = BS.sparse_vector([0.0, 2.0, 3.0, 5.0], 2, 0, threshold=1.0, rho_scale=1e-12, nu_scale=1e-12, cutoff=2,
                            release=True)  # fmt: skip
    assert a.tolist() == [[0, 1, 1, -1]] * 2
    assert np.allclose(v[:, 1:3], [[2.0, 3.0]] * 2) and np.isnan(v[:, [0, 3]]).all()
    a, _ = BS.sparse_vector([0.0, 2.0, 3.0, 5.0], 1, 0, threshold=1.0, rho_scale=1e-12, nu_scale=0.0, cutoff=None)
    assert a.tolist() == [[0, 1, 1, 1]]
    # Lyu's Alg. 1 (SVTVariant) and the same parameterization: the same law of the first top (binomial tolerance)
    q, n = np.r_[np.zeros(4), np.ones(4)], 40_000
    mine, _ = BS.sparse_vector(q, n, 1, threshold=0.5, rho_scale=2.0, nu_scale=4.0, cutoff=1)
    ref, _ = SVTVariant("alg1", 1.0, threshold=0.5).run(q, n, 2)
    for j in range(len(q)):
        k1, k2 = int(np.count_nonzero(mine[:, j] == 1)), int(np.count_nonzero(ref[:, j] == 1))
        assert stats.fisher_exact([[k1, n - k1], [k2, n - k2]]).pvalue > ALPHA


def test_noisy_max_and_histograms_follow_their_laws():
    n = 50_000
    idx = BS.noisy_max([0.0, 0.0], n, 0, scale=1.0)
    assert _binom_ok(int(np.count_nonzero(idx == 0)), n, 0.5)  # symmetric: each index half the time
    val = BS.noisy_max([0.0], n, 1, scale=2.0, noise="exponential", report="value")
    assert val.min() >= 0.0 and _binom_ok(int(np.count_nonzero(val > 2.0)), n, math.exp(-1.0))
    hist = next(m for m in BS.suite_mechanisms(["StatDP"]) if m.name == "histogram_eps")
    y = hist.sample(np.array([1.0, 1.0]), n, np.random.default_rng(3))
    assert _binom_ok(int(np.count_nonzero(y - 1.0 > 0.7)), n, 0.5 * math.exp(-1.0))  # Lap(eps = 0.7): scale 0.7


def test_truncated_geometric_law_and_its_exact_eps():
    n, c = 60_000, 2
    z = BS.truncated_geometric(c, n, 0)
    f = BS._geo_cdf(c, 3, 5)
    pmf = np.diff(np.r_[0, f].astype(object)).astype(float) / float(f[-1])
    for v in range(6):
        assert _binom_ok(int(np.count_nonzero(z == v)), n, pmf[v])
    # Balcer and Vadhan, Thm 4.7 (the claim in dpsniper/mechanisms/geometric.py): ln(1 + 2^-k) with k = 3, exactly
    assert BS._geo_eps(0.1, 5) == pytest.approx(math.log(1.125), abs=1e-12)


def test_rappor_bits_and_hash():
    # mmh3.hash vectors (MurmurHash3 x86_32): "", seeds 0 and 1; "hello"
    assert (BS.murmur3_32(""), BS.murmur3_32("", 1)) == (0, 0x514E28B7)
    assert BS.murmur3_32("hello") & 0xFFFFFFFF == 0x248BFA47
    clean = BS.rappor(5, 3, 0, f=0.0, p=0.0, q=1.0)
    assert (clean == clean[0]).all() and 1 <= clean[0].sum() <= 4
    n = 40_000
    y = BS.rappor(5, n, 1, f=0.5, instantaneous=False)
    off = ~clean[0].astype(bool)
    assert _binom_ok(int(y[:, off].sum()), n * int(off.sum()), 0.25)  # a 0 bit is set to 1 w.p. f/2


def test_inversion_laplace_lattices_are_disjoint():
    y0 = BS.inversion_laplace(0.0, 50_000, 0, eps=1.0)
    y1 = BS.inversion_laplace(1.0, 50_000, 1, eps=1.0)
    assert BS._on_lattice(y0, 0.0, 1.0, 1.0).all() and BS._on_lattice(y1, 1.0, 1.0, 1.0).all()
    assert np.mean(BS._on_lattice(y1, 0.0, 1.0, 1.0)) < 1e-3
    assert _binom_ok(int(np.count_nonzero(y0 > 1.0)), len(y0), 0.5 * math.exp(-1.0))  # Laplace(1) tail


def test_classic_gauss_std_is_dwork_roth():
    # gauss_mechanism.py:87: sqrt(2 ln(1.25 / delta)) * sensitivity / eps
    assert BS.classic_gauss_std(0.5, 0.1, 2.0) == pytest.approx(math.sqrt(2 * math.log(12.5)) * 4.0, rel=1e-12)


@pytest.mark.parametrize("fn", [BS.box_muller_gauss, BS.polar_gauss])
def test_gaussians_follow_their_laws(fn):
    n, std = 200_000, BS.classic_gauss_std(1.0, 1e-3)
    y = fn(1.0, n, 0, eps=1.0, delta=1e-3)
    assert y.shape == (n,) and np.isfinite(y).all()  # an infinite Box-Muller output has probability 2^-32
    for t in (0.0, 1.0, 2.0):  # Normal(1, std) tails (binomial tolerance)
        assert _binom_ok(int(np.count_nonzero(y - 1.0 > t * std)), n, stats.norm.sf(t)), t
    # 2^32 words: |noise| <= std sqrt(2 ln 2^32) except for the word 0 (Box-Muller) resp. |v| -> 0 (polar)
    assert np.abs(y - 1.0).max() <= std * math.sqrt(-2 * math.log(2.0**-32)) * (1 + 1e-9) or fn is BS.polar_gauss
    # the same words give the same outputs (seeded through rng only), and 0 runs give none
    assert np.array_equal(fn(0.0, 10, 5, eps=1.0, delta=1e-3), fn(0.0, 10, 5, eps=1.0, delta=1e-3))
    assert fn(0.0, 0, 5, eps=1.0, delta=1e-3).shape == (0,)


def test_box_muller_is_its_formula_on_the_words():
    rng = np.random.default_rng(7)
    u1, u2 = rng.integers(0, 2**32, 5) / 2**32, rng.integers(0, 2**32, 5) / 2**32
    std = BS.classic_gauss_std(1.0, 1e-3)
    expect = 0.5 + std * np.sqrt(-2 * np.log(u1)) * np.cos(2 * np.pi * u2)
    assert np.array_equal(BS.box_muller_gauss(0.5, 5, np.random.default_rng(7), eps=1.0, delta=1e-3), expect)


def test_prefix_sum_increments_are_laplace_and_its_eps_is_m_eps_on_its_pairs():
    n = 100_000
    y = BS.prefix_sum(np.ones(3), n, 0, eps=0.1)
    d = np.diff(y, axis=1, prepend=0.0) - 1.0
    assert _binom_ok(int(np.count_nonzero(d[:, 2] > 10.0)), n, 0.5 * math.exp(-1.0))  # Lap(1/eps) tail
    m = next(x for x in BS.suite_mechanisms(["DP-Sniper"]) if x.name == "PrefixSum")
    # its pairs are DP-Sniper's component-wise patterns: the all below pair differs in every query, by 1 (m eps)
    a, b = m.pairs["all below"]
    assert np.abs(a - b).sum() * m.claimed_eps == pytest.approx(m.true_eps) and not m.private


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: BS.statdp_patterns(1), "m"),
        (lambda: BS.grid([1.0], 0.0, -1, 1), "width"),
        (lambda: BS.grid([1.0], 1.0, 1, -1), "lo"),
        (lambda: BS.sparse_vector([0.0], 1, 0, threshold=0.0, rho_scale=1.0, nu_scale=-1.0), "nu_scale"),
        (lambda: BS.sparse_vector([0.0], 1, 0, threshold=0.0, rho_scale=1.0, nu_scale=1.0, cutoff=0), "cutoff"),
        (lambda: BS.noisy_max([0.0], 1, 0, scale=1.0, noise="cauchy"), "noise"),
        (lambda: BS.noisy_max([0.0], 1, 0, scale=1.0, report="both"), "report"),
        (lambda: BS.truncated_geometric(6, 1, 0), "c"),
        (lambda: BS.truncated_geometric(1, 1, 0, eps=3.0), "eps"),
        (lambda: BS.rappor(1, 1, 0, f=1.5), "f"),
        (lambda: BS.murmur3_32(b"x"), "key"),
        (lambda: BS.inversion_laplace(0.0, 1, 0, eps=0.0), "eps"),
        (lambda: BS.suite_mechanisms(["PrivBench"]), "suites"),
        (lambda: BS.classic_gauss_std(1.5, 1e-3), "eps"),
        (lambda: BS.classic_gauss_std(1.0, 0.0), "delta"),
        (lambda: BS.box_muller_gauss(0.0, -1, 0, eps=1.0, delta=1e-3), "n"),
        (lambda: BS.polar_gauss(math.nan, 1, 0, eps=1.0, delta=1e-3), "x"),
        (lambda: BS.prefix_sum([0.0], 1, 0, eps=0.0), "eps"),
        (lambda: F.main_size(1000, 1000, 8, 4), "budget"),
    ],
)
def test_bad_arguments_are_refused_naming_them(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_runs_at_observed_rates_brackets_the_flag():
    alpha = 1e-3
    below = F.runs_at_observed_rates(3000, 1000, 100_000, 0.5, alpha)  # plainly flagged at n: fewer runs suffice
    assert below < 100_000 and bound(round(3000 * below / 1e5), round(1000 * below / 1e5), round(below), alpha) > 0.5
    above = F.runs_at_observed_rates(120, 100, 100_000, 0.1, alpha)  # ratio 1.2 > e^0.1, not flagged at n
    assert above > 100_000
    assert math.isinf(F.runs_at_observed_rates(100, 100, 100_000, 0.1, alpha))
    # the delta path (Clopper-Pearson limits): the same counts need more runs when delta absorbs part of the gap
    with_delta = F.runs_at_observed_rates(3000, 1000, 100_000, 0.5, alpha, 1e-3)
    assert below < with_delta < 100_000


def test_a_small_run_flags_the_plainly_broken_and_refutes_nothing():
    """The whole output at a small budget (2e5 runs per mechanism): within budget, no FAIL, and the mechanisms whose
    violations are plain at any budget (an event impossible on one input and frequent on the other, or a noise 10x
    too small) are flagged."""
    cfg = dict(budget=200_000, pilot=4_000, candidates=4, confidence=0.95)
    raw = F.simulate(cfg, np.random.default_rng(20261206), {})
    assert (raw.samples <= cfg["budget"]).all()
    tables = F.analyse(pd.read_csv(pd.io.common.StringIO(raw.to_csv(index=False))), cfg)
    frame = to_frame(F.claims(tables, cfg), "fig_audit_suites", alpha=0.05 / 30)
    assert "FAIL" not in set(frame.verdict)
    s = tables["summary"]
    plain = ["noisy_max_v2b", "iSVT1", "NoisyHist2", "SparseVectorTechnique5", "SVT5", "laplace_inversion (eps = 1)"]
    assert s.set_index("mechanism").loc[plain, "flagged"].all(), s[["mechanism", "eps_lower"]]
    closed = s[(s.expected == "private") & s.true_eps.notna()]
    assert (closed.eps_lower <= closed.true_eps + 0.2).all()
    gauss = s[s.delta > 0]  # the delta path: Delta-Siege's Gaussians, main samples of exactly n runs per input
    assert len(gauss) == 2 and not gauss.flagged.any() and (gauss.n_a == gauss.n).all()
    assert s.set_index("mechanism").loc["PrefixSum", "flagged"]


def test_the_long_run_page_is_rendered_from_its_record():
    """docs/audit_suites_long.md is benchmarks/audit_suites_long.py's rendering of the committed record (no typed
    number), and the record is a run of config/long.yaml's budget."""
    import importlib.util
    import json

    import yaml

    root = F.__file__.rsplit("/src/", 1)[0]
    spec = importlib.util.spec_from_file_location("audit_suites_long", f"{root}/benchmarks/audit_suites_long.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    rec = json.loads(mod.RECORD.read_text())
    assert mod.PAGE.read_text() == mod.render(rec), "docs/audit_suites_long.md is stale: --render"
    long_cfg = yaml.safe_load((mod.ROOT / "config/long.yaml").read_text())["fig_audit_suites"]
    assert rec["config"] == long_cfg
    assert max(m["samples"] for m in rec["mechanisms"]) <= long_cfg["budget"]
    assert len(rec["mechanisms"]) == len(BS.suite_mechanisms())
