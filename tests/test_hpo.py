"""fig_hpo's learner (privtest_artifact.hpo): agreement with diffprivlib's GaussianNB, privacy accounting, the mechanism
interface, and the error classification of the experiment.

Statistical tests use a fixed seed and reject at the suite's ALPHA (conftest.py); each also checks its power by
rejecting a deliberately wrong variant at the same level.
"""

import math
import warnings

import numpy as np
import pandas as pd
import pytest
from conftest import ALPHA
from scipy import stats

from privtest import GlobalCalibration
from privtest_artifact import hpo
from privtest_artifact.claims import decide
from privtest_artifact.outputs import fig_hpo


@pytest.fixture(scope="module")
def split():
    return hpo.load_split("breast_cancer", 0.4, 0)


def _diffprivlib_fits(split, h, epsilon, fits, seed):
    """Accuracy, theta[0,0], var[1,0] and class_count[0] of ``fits`` diffprivlib GaussianNB models (centred data)."""
    from diffprivlib.models import GaussianNB

    feats, lower, upper = hpo.public_preprocessing(split, h)
    c = 0.5 * (lower + upper)
    Xtr = np.clip(split.X_train[:, feats], lower, upper) - c
    Xva = split.X_val[:, feats] - c
    rs = np.random.RandomState(seed)
    out = np.empty((fits, 4))
    for i in range(fits):
        m = GaussianNB(epsilon=epsilon, bounds=(lower - c, upper - c), random_state=rs)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the BudgetAccountant's default-budget notices
            m.fit(Xtr, split.y_train)
        out[i] = [np.mean(m.predict(Xva) == split.y_val), m.theta_[0, 0], m.var_[1, 0], m.class_count_[0]]
    return out


def _vectorized_fits(split, h, epsilon, n, seed):
    feats, lower, upper = hpo.public_preprocessing(split, h)
    model = hpo.VectorizedDPGaussianNB(split.X_train[:, feats], split.y_train, lower, upper, epsilon, split.classes)
    rng = np.random.default_rng(seed)
    counts, theta, var = model.sample_params(n, rng)
    acc = np.mean(model.predict(split.X_val[:, feats], counts, theta, var) == split.y_val[None], axis=1)
    return np.column_stack([acc, theta[:, 0, 0], var[:, 1, 0], counts[:, 0]])


@pytest.mark.slow
def test_vectorized_learner_matches_diffprivlib_distribution(split):
    """Two-sample KS tests (fixed seeds) of the accuracy and of one noisy parameter of each mechanism.

    Level: each of the 4 statistics at ALPHA/4 (Bonferroni: false failure <= ALPHA). KS is conservative for the
    discrete accuracy and counts. Power: the same test rejects a vectorized learner run at twice the budget.
    """
    h, epsilon = hpo.Hyper(5, 0.05), 0.6
    ref = _diffprivlib_fits(split, h, epsilon, 600, seed=1)
    ours = _vectorized_fits(split, h, epsilon, 20_000, seed=2)
    wrong = _vectorized_fits(split, h, 2 * epsilon, 20_000, seed=3)
    names = ["accuracy", "theta[0,0]", "var[1,0]", "class_count[0]"]
    for j, name in enumerate(names):
        p = stats.ks_2samp(ref[:, j], ours[:, j]).pvalue
        assert p > ALPHA / 4, f"{name}: KS p-value {p:.2e}"
    assert min(stats.ks_2samp(ref[:, j], wrong[:, j]).pvalue for j in range(4)) < ALPHA / 4


def test_bounded_laplace_scale_matches_diffprivlib():
    from diffprivlib.mechanisms import LaplaceBoundedDomain

    for eps, ratio in [(0.01, 5.0), (0.1, 50.0), (0.1, 200.0), (1.0, 1.0), (2.0, 341.0)]:
        ref = LaplaceBoundedDomain(epsilon=eps, sensitivity=1.0, lower=0.0, upper=ratio)._find_scale()
        assert hpo.bounded_laplace_scale(eps, np.array([ratio]))[0] == pytest.approx(ref, rel=1e-9)
    # Without a bounded domain the scale would be sensitivity/eps; the domain only ever enlarges it.
    assert np.all(hpo.bounded_laplace_scale(0.1, np.array([2.0, 30.0])) > 1 / 0.1)


def test_bounded_laplace_sampler_matches_diffprivlib():
    """Inverse-CDF sampling of Laplace(value, b) on [lower, upper] vs diffprivlib's rejection sampler (KS at
    ALPHA; power: a sampler with scale 1.5 b is rejected)."""
    from diffprivlib.mechanisms import LaplaceBoundedDomain

    mech = LaplaceBoundedDomain(epsilon=0.5, sensitivity=4.0, lower=0.0, upper=40.0, random_state=5)
    ref = np.array([mech.randomise(3.0) for _ in range(5000)])
    b = mech._scale
    rng = np.random.default_rng(6)
    ours = hpo._sample_laplace_in(np.full(50_000, 3.0), b, 0.0, 40.0, rng)
    wide = hpo._sample_laplace_in(np.full(50_000, 3.0), 1.5 * b, 0.0, 40.0, rng)
    assert ours.min() >= 0.0 and ours.max() <= 40.0
    assert stats.ks_2samp(ref, ours).pvalue > ALPHA
    assert stats.ks_2samp(ref, wide).pvalue < ALPHA


def test_count_correction_equals_diffprivlib_loop(monkeypatch):
    """_round_robin_fix reproduces diffprivlib's while loop exactly, with the geometric noise replaced by fixed
    values (including rows far above/below n, and counts pinned at the floor 1)."""
    import diffprivlib.models.naive_bayes as nb

    values = []

    class FixedNoise:
        def __init__(self, **kwargs):
            self.lower, self.upper = kwargs["lower"], kwargs["upper"]

        def randomise(self, value):
            return int(np.clip(values.pop(0), self.lower, self.upper))

    monkeypatch.setattr(nb, "GeometricTruncated", FixedNoise)
    rng = np.random.default_rng(7)
    for K, n in [(2, 10), (3, 12), (4, 9)]:
        y = np.arange(n) % K
        model = nb.GaussianNB(epsilon=1.0)
        for _ in range(300):
            noisy = rng.integers(-15, 30, size=K)
            values[:] = noisy.tolist()
            ref = model._noisy_class_counts(y, random_state=None)
            ours = hpo._round_robin_fix(np.clip(noisy, 1, n)[None], n)[0]
            assert ours.tolist() == list(ref), (noisy, ours, ref)
            assert ours.sum() == n and ours.min() >= 1


def test_privacy_accounting_factor_and_component_budgets():
    # eps/3 each for counts, means, variances (diffprivlib); label-changing replacement costs 2/3 + 1/3 + 2/3 = 5/3.
    assert sum(hpo.BUDGET_SHARES) == pytest.approx(1.0)
    assert hpo.PRIVACY_FACTOR == pytest.approx(2 / 3 + 1 / 3 + 2 / 3)
    split = hpo.load_split()
    m = hpo.DPNaiveBayesMechanism(split, hpo.Hyper(3, 0.1), eps_t=1.0, target=0.9)
    assert m.eps == 1.0 and m.delta == 0.0
    assert m.model.epsilon == pytest.approx(0.6)  # diffprivlib epsilon = eps_t / (5/3)
    assert m.model.eps_t == pytest.approx(1.0)


def test_privacy_loss_of_every_neighbour_is_at_most_eps_t():
    """Replace-one neighbours (random and adversarial, with and without label change): the loss implied by the
    component mechanisms never exceeds eps_t = 5/3 epsilon, and the worst case attains it."""
    rng = np.random.default_rng(8)
    n, d, epsilon = 40, 3, 0.9
    lower, upper = np.array([0.0, 1.0, -5.0]), np.array([2.0, 10.0, 5.0])
    X = rng.uniform(lower - 1, upper + 1, size=(n, d))  # some records outside the bounds: clipped
    y = np.arange(n) % 2
    model = hpo.VectorizedDPGaussianNB(X, y, lower, upper, epsilon, np.array([0, 1]))
    eps_t = hpo.PRIVACY_FACTOR * epsilon
    worst = 0.0
    for trial in range(400):
        i = rng.integers(n)
        X2, y2 = X.copy(), y.copy()
        extreme = trial % 2 == 0
        X2[i] = np.where(rng.random(d) < 0.5, lower, upper) if extreme else rng.uniform(lower - 1, upper + 1)
        if trial % 4 < 2:
            y2[i] = 1 - y2[i]
        theta = rng.uniform(model.lower, model.upper, size=(2, d))  # any noisy means (centred coordinates)
        loss = hpo.neighbour_loss_bound(model, X2, y2, theta)
        assert loss <= eps_t * (1 + 1e-12), (trial, loss)
        worst = max(worst, loss)
    # Adversarial: record at the upper corner in class 0 replaced by the lower corner in class 1:
    # counts 2 x eps/3, sums r_j in both classes = 2 x eps/(6d) per feature = eps/3, both variances 2 x eps/3.
    i = int(np.flatnonzero(y == 0)[0])
    X[i], X2 = upper, X.copy()
    X2[i] = lower
    model = hpo.VectorizedDPGaussianNB(X, y, lower, upper, epsilon, np.array([0, 1]))
    y2 = y.copy()
    y2[i] = 1
    theta = np.zeros((2, d))
    assert hpo.neighbour_loss_bound(model, X2, y2, theta) == pytest.approx(eps_t)
    assert worst <= eps_t


def test_mechanism_counts_are_real_trainings_per_entry(split):
    m = hpo.DPNaiveBayesMechanism(split, hpo.Hyper(2, 0.05), eps_t=1.0, target=0.9)
    rng = np.random.default_rng(9)
    n = np.array([0, 5, 3000])
    k = m.count_plus(n, rng)
    assert k.shape == (3,) and k.dtype == np.int64 and k[0] == 0 and 0 <= k[1] <= 5
    assert m.trainings == 3005
    assert int(m.count_plus(0, rng)) == 0 and m.trainings == 3005
    # Success probability of this h is far from 0 and 1 (fig_hpo's stream spans both sides of p*).
    assert 0.3 < k[2] / 3000 < 0.95
    s = m.sample(10, rng)
    assert s.shape == (10,) and set(np.unique(s)) <= {-1, 1}


def test_input_validation(split):
    with pytest.raises(ValueError, match="features"):
        hpo.Hyper(0, 0.1)
    with pytest.raises(ValueError, match="quantile"):
        hpo.Hyper(3, 0.5)
    with pytest.raises(ValueError, match="dataset"):
        hpo.load_split("mnist")
    with pytest.raises(ValueError, match="features"):
        hpo.public_preprocessing(split, hpo.Hyper(31, 0.0))
    with pytest.raises(ValueError, match="upper"):
        hpo.VectorizedDPGaussianNB(np.zeros((4, 1)), np.array([0, 1, 0, 1]), [1.0], [1.0], 1.0, [0, 1])
    with pytest.raises(ValueError, match="epsilon"):
        hpo.VectorizedDPGaussianNB(np.zeros((4, 1)), np.array([0, 1, 0, 1]), [0.0], [1.0], 0.0, [0, 1])
    with pytest.raises(ValueError, match="target"):
        hpo.DPNaiveBayesMechanism(split, hpo.Hyper(2, 0.0), 1.0, 1.5)
    with pytest.raises(ValueError, match="eps_t"):
        hpo.DPNaiveBayesMechanism(split, hpo.Hyper(2, 0.0), 0.0, 0.9)


def test_error_classification_hand_cases():
    """Three steps: p_1 surely below pbar, p_2 in between, p_3 surely above p*; plus a straddling variant."""
    p = pd.DataFrame(dict(t=[1, 2, 3], p_low=[0.01, 0.2, 0.7], p_high=[0.02, 0.3, 0.8], p_hat=[0.015, 0.25, 0.75]))
    steps = pd.DataFrame(dict(method="m", t=[1, 2, 3], pstar=0.6, pbar=0.05, halts=0, trainings=0))
    searches = pd.DataFrame(dict(halt_step=[1, 2, 3, 0]))
    # halt at 1: Type I; halt at 2: fine (free zone); halt at 3: fine; never halting: passed step 3 (Type II).
    assert fig_hpo.errors(p, steps, searches) == (2, 2)
    assert list(fig_hpo.classify(p, steps).category) == ["reject", "free", "accept"]
    # Now step 2's interval reaches pbar: halting there is a possible (not definite) error; passing it is fine.
    p2 = p.assign(p_low=[0.01, 0.04, 0.7])
    assert fig_hpo.errors(p2, steps, pd.DataFrame(dict(halt_step=[2, 3]))) == (0, 1)
    assert list(fig_hpo.classify(p2, steps).category) == ["reject", "unresolved", "accept"]


def test_schedules_and_stream_order():
    cfg = dict(features=[30, 2], quantiles=[0.0, 0.1], pstar=0.5, adaptive=dict(start=0.9, end=0.3))
    hs = fig_hpo.stream_hypers(cfg)
    assert [(h.features, h.quantile) for h in hs] == [(30, 0.0), (2, 0.0), (30, 0.1), (2, 0.1)]
    sch = fig_hpo.schedules(cfg, 4)
    assert np.allclose(sch["constant"], 0.5)
    assert np.allclose(sch["adaptive"], [0.9, 0.7, 0.5, 0.3])  # linear: 0.9 - 0.2 (t - 1)


def test_simulate_small_end_to_end():
    cfg = dict(
        eps=20.0,
        beta=0.05,
        theta=1.0,
        gamma=1.5,
        dataset="breast_cancer",
        val_fraction=0.4,
        split_seed=0,
        eps_t=1.0,
        target=0.9,
        features=[30, 2],
        quantiles=[0.05],
        pstar=0.5,
        adaptive=dict(start=0.9, end=0.5),
        methods=["GTM", "Cohen"],
        searches=5,
        p_evals=500,
        practitioner=dict(eps=2.0, Lambda_max=12.0, tasks=[dict(target=0.8, pstar=0.3)]),
        peer=dict(stop_probability=0.05, eps0=1e-9, searches=30),
    )
    raw = fig_hpo.simulate(cfg, np.random.default_rng(10), {})
    table = fig_hpo.plot_table(raw)
    main, practitioner = "eps=20, target 0.9, p*=0.5", "eps=2, target 0.8, p*=0.3"
    assert set(table[table.scenario == main].method) == {"GTM (constant p*)", "GTM (adaptive p*)", "Cohen"}
    assert set(table[table.scenario == practitioner].method) == {"GTM (constant p*)", "Cohen"}
    meths = fig_hpo.methods(raw)
    # eps_t chosen by the calibration: Lambda_T = 12 exactly at T = 2.
    cal = GlobalCalibration(2.0, 0.05, 1.0, 1.5)
    eps_t = meths[(meths.scenario == practitioner)].eps_train.iloc[0]
    assert cal.step(2, eps_t, 0.3).Lambda == pytest.approx(12.0, rel=1e-12)
    # Equal total privacy within each scenario; the peer trains at (eps - eps0)/2.
    for _, g in meths.groupby("scenario"):
        assert np.allclose(g.total_eps, g.total_eps.iloc[0], rtol=1e-12)
    peer = meths[meths.method == hpo.PEER]
    assert np.allclose(peer.eps_train, [(20 - 1e-9) / 2, (2 - 1e-9) / 2])
    released = meths[meths.method == hpo.PEER_RELEASED].stop_probability
    assert np.allclose(released, 1 - np.exp(1 / np.log(0.95)))
    search = raw[raw.kind == "search"]
    assert len(search) == 5 * 3 + 5 * 2 + 30 * 4 and search.trainings.min() > 0
    # Trainings of each tester equal the sum over steps.
    for (sc, method), g in table.groupby(["scenario", "method"]):
        sel = (search.scenario == sc) & (search.method == method)
        assert g.trainings.sum() == search[sel].trainings.sum()
    claims = decide(fig_hpo.claims(fig_hpo.analyse(raw, cfg), cfg), 0.05 / 22)
    ids = [c.claim_id for c in claims]
    assert {c.verdict for c in claims} <= {"PASS", "FAIL", "INCONCLUSIVE"} and len(claims) == 8 + 6
    assert all(c.verdict == "PASS" for c in claims if c.claim_id.startswith("hpo.pbar_gtm_vs"))
    assert sum(i.startswith("hpo.no_error") and "pooled" in i for i in ids) == 1  # only where two schedules ran
    assert sum(i.startswith("hpo.selection_failure") for i in ids) == 2
    assert sum(i.startswith("hpo.opendp_stop_probability") for i in ids) == 2
    assert sum(i.startswith("hpo.peer_vs_gtm") for i in ids) == 2
    # The reference tester and the adaptive runs come from the config (adaptive.methods), not from method names.
    assert fig_hpo.reference_method(cfg) == "GTM (constant p*)"
    assert [
        r[2] for r in fig_hpo.tester_runs(cfg | {"adaptive": dict(start=0.9, end=0.5, methods=["Cohen"])}, True)
    ] == [
        "GTM",
        "Cohen (constant p*)",
        "Cohen (adaptive p*)",
    ]
    assert math.isclose(fig_hpo.p_table(raw).p_hat.max(), table[table.scenario == main].p_hat.max())
    summary = fig_hpo.summarize(raw)
    assert len(summary) == len(meths) and summary.failure.between(0, 1).all()


def test_selection_failure_is_algorithm2_law():
    """Algorithm 2's exact failure probability (check module) against a direct evaluation of the series, and its
    relation to Lemma 34(2)'s bound (eps0 = 0)."""
    for p1, xi in [(0.3, 0.2), (0.7, 0.01), (0.05, 1.0)]:
        r = (1 - p1) * (1 - xi)
        series = sum(r ** (k - 1) * (1 - p1) * xi for k in range(1, 5000))
        assert fig_hpo.selection_failure(p1, xi) == pytest.approx(series, rel=1e-12)
        assert fig_hpo.selection_failure(p1, xi) <= (1 - p1) * xi / p1


def test_neighbours_at_the_class_edge_both_train():
    """Ten records, public classes [0, 1]; D holds one class-1 record, its neighbour D' relabels it
    to 0, so class 1 is empty in D'. A crash on D' and an output on D would be a distinguishing event: both must
    train on the public label set (the noisy counts are clamped to [1, n]), with finite parameters and accuracies."""
    rng = np.random.default_rng(10)
    X = rng.uniform(0.0, 1.0, size=(10, 2))
    y = np.zeros(10, dtype=np.int64)
    y[3] = 1
    y2 = y.copy()
    y2[3] = 0
    classes = np.array([0, 1])
    for labels in (y, y2):
        model = hpo.VectorizedDPGaussianNB(X, labels, [0.0, 0.0], [1.0, 1.0], 1.0, classes)
        counts, theta, var = model.sample_params(50, rng)
        assert counts.shape == (50, 2) and np.all(counts >= 1) and np.all(counts.sum(1) == 10)
        assert np.all(np.isfinite(theta)) and np.all(var > 0)
        acc = model.accuracies(50, X, labels, rng)
        assert acc.shape == (50,) and np.all((0 <= acc) & (acc <= 1))
    # The accounting covers the empty-class neighbour like any other (label change: at most 5/3 epsilon).
    model = hpo.VectorizedDPGaussianNB(X, y, [0.0, 0.0], [1.0, 1.0], 1.0, classes)
    assert hpo.neighbour_loss_bound(model, X, y2, np.zeros((2, 2))) <= hpo.PRIVACY_FACTOR * 1.0 + 1e-12


def test_single_record_and_constant_feature_edges():
    """A one-record training set with two public classes cannot satisfy the clamped counts (each >= 1, sum = n): n is
    public, so it is refused by a ValueError for every dataset of that size (diffprivlib's correction loop would never
    end). A feature that is constant in the private data (or in the public bounds' data) trains normally."""
    classes = np.array([0, 1])
    for labels in (np.array([0]), np.array([1])):
        with pytest.raises(ValueError, match="n must be >= the number of classes"):
            hpo.VectorizedDPGaussianNB(np.zeros((1, 1)), labels, [0.0], [1.0], 1.0, classes)
    # Two records, two classes: both neighbours (one per class, or both in one class) train.
    rng = np.random.default_rng(11)
    for labels in (np.array([0, 1]), np.array([0, 0]), np.array([1, 1])):
        model = hpo.VectorizedDPGaussianNB(np.zeros((2, 1)), labels, [0.0], [1.0], 1.0, classes)
        counts, theta, var = model.sample_params(20, rng)
        assert np.all(counts == 1) and np.all(np.isfinite(theta)) and np.all(var > 0)
    X = np.column_stack([np.full(12, 0.5), np.linspace(0, 1, 12)])  # first feature constant
    model = hpo.VectorizedDPGaussianNB(X, np.arange(12) % 2, [0.0, 0.0], [1.0, 1.0], 1.0, classes)
    acc = model.accuracies(30, X, np.arange(12) % 2, rng)
    assert np.all(np.isfinite(acc))
    # A label outside the public set is not a record of the data domain: refused, naming y.
    with pytest.raises(ValueError, match="y"):
        hpo.VectorizedDPGaussianNB(np.zeros((3, 1)), np.array([0, 1, 2]), [0.0], [1.0], 1.0, classes)


def test_count_correction_closed_form_equals_loop():
    """The closed form of _round_robin_fix equals diffprivlib's loop (_round_robin_loop on every row) on rows above
    and below n, with ties (K = 2 with odd gaps: the order of a tie decides) and counts pinned at the floor 1."""
    rng = np.random.default_rng(12)
    trials = []
    for trial in range(3000):
        K = int(rng.integers(1, 6))
        n = int(rng.integers(K, 40))
        counts = np.clip(rng.integers(-30, 60, size=(int(rng.integers(1, 30)), K)), 1, n)
        if trial % 3 == 0:
            counts[:, -1] = counts[:, 0]  # ties
        trials.append((counts, n))
    # The loop on every row: it keeps one state per row (rows are independent), so it runs once on all the trials'
    # rows with the same (K, n) instead of once per trial (its Python passes were most of this test's time).
    groups = {}
    for i, (counts, n) in enumerate(trials):
        groups.setdefault((counts.shape[1], n), []).append(i)
    refs = [None] * len(trials)
    for (_, n), members in groups.items():
        ref = np.concatenate([trials[i][0] for i in members])
        hpo._round_robin_loop(ref, np.flatnonzero(ref.sum(1) != n), n)
        split = np.cumsum([len(trials[i][0]) for i in members])[:-1]
        for i, part in zip(members, np.split(ref, split), strict=True):
            refs[i] = part
    for (counts, n), ref in zip(trials, refs, strict=True):
        ours = hpo._round_robin_fix(counts, n)
        assert np.array_equal(ours, ref), (counts, n)
        assert np.all(ours.sum(1) == n) and ours.min() >= 1
    # The floor binds: [1, 9] at n = 4 needs passes that skip the class at 1.
    assert hpo._round_robin_fix(np.array([[1, 9], [9, 1], [5, 5], [2, 2]]), 4).tolist() == [
        [1, 3],
        [3, 1],
        [2, 2],
        [2, 2],
    ]


def test_bounded_sampler_fast_path_is_bit_identical():
    """_sample_laplace_0_to (sample_params' sampler on [0, upper]) returns the numbers of the generic inverse-CDF
    sampler bit for bit and leaves the generator in the same state, including value = 0 and value = upper."""
    rng = np.random.default_rng(13)
    upper = rng.uniform(0.1, 50.0, size=(400, 2, 7))
    value = rng.uniform(0.0, 1.0, size=upper.shape) * upper
    value.flat[::5], value.flat[1::5] = 0.0, upper.flat[1::5]
    scale = rng.uniform(0.01, 100.0, size=upper.shape)
    r1, r2 = np.random.default_rng(14), np.random.default_rng(14)
    ref = hpo._sample_laplace_in(value, scale, 0.0, upper, r1)
    ours = hpo._sample_laplace_0_to(value, scale, upper, r2)
    assert ours.tobytes() == ref.tobytes()
    assert r1.random() == r2.random()


def _reference_sample_params(model, n_models, rng):
    """sample_params written plainly (numpy's laplace with the array scale, uniform via _sample_laplace_in,
    diffprivlib's count loop, the bisection per count)."""
    K, d, n_total = len(model.classes), model.d, model.n_total
    e_cnt, e_mu, e_var = (s * model.epsilon for s in hpo.BUDGET_SHARES)
    q = math.exp(-e_cnt)
    counts = np.clip(
        model.n + rng.geometric(1 - q, size=(n_models, K)) - rng.geometric(1 - q, size=(n_models, K)), 1, n_total
    )
    hpo._round_robin_loop(counts, np.flatnonzero(counts.sum(1) != n_total), n_total)
    nc = counts[:, :, None].astype(float)
    lo, hi = model.lower, model.upper
    theta_sum = model.S1 + rng.laplace(0.0, (hi - lo) / (e_mu / d), size=(n_models, K, d))
    theta = np.clip(theta_sum, lo * nc, hi * nc) / nc
    sens = np.maximum(theta - lo, hi - theta) ** 2
    ssd = model.S2 - 2.0 * theta * model.S1 + model.n[:, None] * theta**2
    b = sens * hpo.bounded_laplace_scale(e_var / d, counts.astype(float))[:, :, None]
    dom = sens * nc
    var = hpo._sample_laplace_in(np.clip(ssd, 0.0, dom), b, 0.0, dom, rng) / nc
    return counts, theta, var + model.var_smoothing


@pytest.mark.parametrize("d, epsilon", [(30, 0.6), (5, 0.0633), (1, 6.0), (8, 0.01)])
def test_sample_params_and_accuracies_are_bit_identical_to_plain_formulas(split, d, epsilon):
    """sample_params equals the plain formulas bit for bit (same draws in the same order), and accuracies equal
    the mean of predict == y_val (the certified sign of jll_1 - jll_0 never disagrees with _predict_index)."""
    feats, lower, upper = hpo.public_preprocessing(split, hpo.Hyper(d, 0.05))
    model = hpo.VectorizedDPGaussianNB(split.X_train[:, feats], split.y_train, lower, upper, epsilon, split.classes)
    X_val = split.X_val[:, feats]
    for n in (0, 1, 7, 700):
        r1, r2 = np.random.default_rng(n), np.random.default_rng(n)
        ref = _reference_sample_params(model, n, r1)
        ours = model.sample_params(n, r2)
        for a, b in zip(ref, ours, strict=True):
            assert a.dtype == b.dtype and a.tobytes() == b.tobytes()
        assert r1.random() == r2.random()
        acc_ref = np.mean(model.predict(X_val, *ours) == split.y_val[None], axis=1)
        acc = model.accuracies(n, X_val, split.y_val, np.random.default_rng(n))
        assert acc.tobytes() == acc_ref.tobytes()


def test_certified_prediction_falls_back_at_ties(split):
    """Exact ties (identical class parameters: jll_1 = jll_0, the first class wins) and near-ties are not
    certified: the batch is predicted by _predict_index itself and the counts still equal it. Other batches are not."""
    feats, lower, upper = hpo.public_preprocessing(split, hpo.Hyper(4, 0.05))
    model = hpo.VectorizedDPGaussianNB(split.X_train[:, feats], split.y_train, lower, upper, 0.6, split.classes)
    val = model._validation(split.X_val[:, feats], split.y_val)
    counts, theta, var = model.sample_params(50, np.random.default_rng(15))

    def reference(c, t, v):
        return np.count_nonzero(model._predict_index(val.X, c, t, v) == val.y_idx[:, None], axis=0)

    before = model.fallbacks
    assert np.array_equal(model._correct(val, counts, theta, var), reference(counts, theta, var))
    assert model.fallbacks == before
    for k, rel in [(3, 0.0), (7, 1e-15)]:  # model 3: an exact tie on every row; model 7: ties to ~1e-15
        tied = (counts.copy(), theta.copy(), var.copy())
        tied[0][k] = 170
        tied[1][k, 1] = tied[1][k, 0]
        tied[2][k, 1] = tied[2][k, 0] * (1.0 + rel)
        right = model._correct(val, *tied)
        assert model.fallbacks == before + 1
        before = model.fallbacks
        assert np.array_equal(right, reference(*tied))
        if rel == 0.0:  # an exact tie: the first maximum (class 0) wins on every row
            assert right[k] == np.count_nonzero(val.y_idx == 0)


def test_validation_cache_follows_the_data(split):
    feats, lower, upper = hpo.public_preprocessing(split, hpo.Hyper(3, 0.1))
    model = hpo.VectorizedDPGaussianNB(split.X_train[:, feats], split.y_train, lower, upper, 0.6, split.classes)
    X = split.X_val[:, feats].copy()
    v1 = model._validation(X, split.y_val)
    assert model._validation(X.copy(), split.y_val.copy()) is v1
    X[0, 0] += 1.0  # changed in place: rebuilt
    v2 = model._validation(X, split.y_val)
    assert v2 is not v1 and v2.X[0, 0] == X[0, 0]
    with pytest.raises(ValueError, match="X_val"):
        model.accuracies(3, X[:, :2], split.y_val, 0)
    with pytest.raises(ValueError, match="y_val"):
        model.accuracies(3, X, split.y_val[:-1], 0)


def test_three_classes_and_scale_table():
    """K = 3 (wine) is predicted by _predict_index directly; the scale table holds the bisection's value per count."""
    split = hpo.load_split("wine", 0.4, 0)
    feats, lower, upper = hpo.public_preprocessing(split, hpo.Hyper(5, 0.05))
    model = hpo.VectorizedDPGaussianNB(split.X_train[:, feats], split.y_train, lower, upper, 1.0, split.classes)
    X_val = split.X_val[:, feats]
    acc = model.accuracies(40, X_val, split.y_val, np.random.default_rng(16))
    params = model.sample_params(40, np.random.default_rng(16))
    assert acc.tobytes() == np.mean(model.predict(X_val, *params) == split.y_val[None], axis=1).tobytes()
    table = hpo._var_scale_table(0.2 / 5, model.n_total)
    for c in range(1, model.n_total + 1):
        assert table[c] == hpo.bounded_laplace_scale(0.2 / 5, np.array([float(c)]))[0]


@pytest.mark.parametrize("h", [1e-200, 1e160])
def test_degenerate_bounds_are_refused_before_any_draw(h):
    """Bounds whose squared span underflows or overflows would give the variances' noise a zero or infinite scale
    (NaN variances and a constant prediction): the constructor refuses them, naming the span."""
    X = np.array([[0.0], [h / 2], [-h / 2], [0.0]])
    with pytest.raises(ValueError, match="upper - lower"):
        hpo.VectorizedDPGaussianNB(X, np.array([0, 0, 1, 1]), np.array([-h]), np.array([h]), 1.0, np.array([0, 1]))
