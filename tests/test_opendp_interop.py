"""privtest.opendp, issue 31 ("OpenDP interop done right"): make_gtm leaves the caller's OpenDP features as it found
them; (eps, delta) measurements are purified (Lemma 24, Corollary 25) and zCDP ones refused with what to do; the
batched path (counting factories: one OpenDP call per step) keeps Lemma 17's map; map(0) = 0; every argument of every
public function is refused at construction with a ValueError naming it; every public function is documented with a
doctest.

Statistical tests reject at ALPHA (conftest.py): the GTM's and the channel's coins are seeded, OpenDP's noise is not,
so the tests that draw OpenDP noise have false-failure probability ALPHA by construction.
"""

import doctest
import inspect
import math

import numpy as np
import pytest
from conftest import ALPHA, binom_interval
from scipy import stats

dp = pytest.importorskip("opendp.prelude")
from opendp.mod import GLOBAL_FEATURES  # noqa: E402

from privtest import ExPostCalibration, GlobalCalibration, Purified  # noqa: E402
from privtest import opendp as pod  # noqa: E402
from privtest.mechanisms import purification_phi  # noqa: E402

CAL = GlobalCalibration(eps=1.0, beta=0.1, theta=1.0, gamma=2.0)
RECORDS = [0.5] * 400


@pytest.fixture(autouse=True)
def _features_back():
    """Every test here leaves OpenDP's process-global feature set as it found it (and builds with both on)."""
    saved = set(GLOBAL_FEATURES)
    dp.enable_features("contrib", "honest-but-curious")
    yield
    GLOBAL_FEATURES.clear()
    GLOBAL_FEATURES.update(saved)


def _records():
    return dp.vector_domain(dp.atom_domain(T=float, nan=False)), dp.symmetric_distance()


def _count_above(threshold, scale=20.0):
    """[|X| + DLap(scale) > threshold]: bool, 1/scale-DP under the symmetric distance."""
    return (
        _records()
        >> dp.t.then_count()
        >> dp.m.then_laplace(scale=scale)
        >> dp.new_function(lambda c: c > threshold, TO=bool)
    )


def _count_above_n_times(threshold, scale=20.0, calls=None):
    """The module docstring's counting factory: n copies of the count, fresh noise on each, the number above."""

    def make_count(n):
        if calls is not None:
            calls.append(n)
        copies = dp.t.make_user_transformation(
            dp.atom_domain(T=int),
            dp.absolute_distance(T=int),
            dp.vector_domain(dp.atom_domain(T=int)),
            dp.l1_distance(T=int),
            lambda c: [c] * n,
            lambda d: n * d,
        )
        noisy = _records() >> dp.t.then_count() >> copies >> dp.m.then_laplace(scale=scale)
        return noisy >> dp.new_function(lambda cs: sum(c > threshold for c in cs), TO=int)

    return make_count


def _float_space():
    return dp.atom_domain(T=float, nan=False), dp.absolute_distance(T=float)


def _laplace_tests(scales=(4.0, 5.0, 8.0)):
    return [_float_space() >> dp.m.then_laplace(scale=s) >> dp.new_function(lambda v: v > 0.0, TO=bool) for s in scales]


def _approx_user(eps, delta, release=True, delta_grows=True):
    """A user (eps, delta)-DP bool measurement: map d -> (eps d, delta d) (group privacy) or (eps d, delta)."""
    return dp.m.make_user_measurement(
        *_float_space(),
        dp.approximate(dp.max_divergence()),
        lambda x: release,
        (lambda d: (eps * d, delta * d)) if delta_grows else (lambda d: (eps * d, delta if d > 0 else 0.0)),
        TO=bool,
    )


# 1. OpenDP's features ------------------------------------------------------------------------------------------------


def test_features_are_a_process_global_set_mutated_in_place():
    """Where OpenDP keeps them (the restoring mechanism relies on it): one set, shared by the prelude, that
    enable_features / disable_features mutate and assert_features reads."""
    assert dp.GLOBAL_FEATURES is GLOBAL_FEATURES
    dp.disable_features("honest-but-curious")
    assert "honest-but-curious" not in GLOBAL_FEATURES
    with pytest.raises(dp.OpenDPException, match="honest-but-curious"):
        dp.new_function(lambda v: v, TO=float)


def test_make_gtm_leaves_honest_but_curious_off_when_the_caller_had_it_off():
    meas = _laplace_tests()
    dp.disable_features("honest-but-curious")
    before = set(GLOBAL_FEATURES)
    gtm = pod.make_gtm(meas, CAL, 0.5, rng=0)
    assert GLOBAL_FEATURES == before and "honest-but-curious" not in GLOBAL_FEATURES
    # the measurement needs no feature to release, map or compose
    assert gtm(0.0) in range(4) and gtm.map(1.0) == 1.0


def test_make_gtm_leaves_every_feature_off_when_the_caller_had_none():
    meas = _laplace_tests()
    GLOBAL_FEATURES.clear()
    gtm = pod.make_gtm(meas, CAL, 0.5, rng=0)
    assert GLOBAL_FEATURES == set()
    assert gtm.map(2.0) >= 2.0


def test_make_gtm_leaves_the_features_on_when_the_caller_had_them_on():
    meas = _laplace_tests()
    dp.enable_features("contrib", "honest-but-curious", "rust-stack-trace")
    before = set(GLOBAL_FEATURES)
    pod.make_gtm(meas, CAL, 0.5, rng=0)
    assert GLOBAL_FEATURES == before


def test_make_gtm_restores_the_features_when_construction_raises(monkeypatch):
    meas = _laplace_tests()
    dp.disable_features("honest-but-curious")
    before = set(GLOBAL_FEATURES)
    seen = []

    def boom(*args, **kwargs):
        seen.append(set(GLOBAL_FEATURES))
        raise RuntimeError("construction failed")

    monkeypatch.setattr(dp.m, "make_user_measurement", boom)
    with pytest.raises(RuntimeError, match="construction failed"):
        pod.make_gtm(meas, CAL, 0.5, rng=0)
    assert seen == [before | {"contrib", "honest-but-curious"}]  # on during the call only
    assert GLOBAL_FEATURES == before


# 2. (eps, delta) measurements: purification (Lemma 24, Corollary 25); zCDP refused -----------------------------------


def test_zcdp_is_refused_with_what_to_do():
    zcdp = _float_space() >> dp.m.then_gaussian(scale=1.0) >> dp.new_function(lambda v: v > 0, TO=bool)
    with pytest.raises(ValueError, match=r"make_fix_delta\(dp\.c\.make_zCDP_to_approxDP\(m\), delta\)") as err:
        pod.make_gtm([zcdp], CAL, 0.5)
    assert "measurements" in str(err.value) and "Purified" not in str(err.value)
    with pytest.raises(ValueError, match=r"make_zCDP_to_approxDP"):
        pod.make_gtm([dp.c.make_approximate(zcdp)], CAL, 0.5)
    smoothed = dp.c.make_zCDP_to_approxDP(zcdp)
    with pytest.raises(ValueError, match=r"make_fix_delta\(m, delta\)"):
        pod.make_gtm([smoothed], CAL, 0.5)
    # what the message says works: the converted measurement is taken (and purified)
    zcdp = _float_space() >> dp.m.then_gaussian(scale=50.0) >> dp.new_function(lambda v: v > 0, TO=bool)
    fixed = dp.c.make_fix_delta(dp.c.make_zCDP_to_approxDP(zcdp), 1e-6)
    gtm = pod.make_gtm([fixed], CAL, 0.5, rng=0)
    assert gtm.map(1.0) == 1.0 and gtm(0.0) in (0, 1)


def test_purification_shift_is_lemma24s_phi_rounded_up():
    mpmath = pytest.importorskip("mpmath")
    mpmath.mp.dps = 50
    for eps, delta in [(0.5, 1e-3), (0.05, 1e-9), (2.0, 0.3), (1e-4, 1e-6), (30.0, 1e-12)]:
        [phi] = pod.purification_shifts([_approx_user(eps, delta)], d_in=1.0)
        exact = mpmath.mpf(delta) / (mpmath.expm1(mpmath.mpf(eps)) + 2 * mpmath.mpf(delta))
        assert exact <= phi <= exact * (1 + 1e-13) and phi < delta / eps  # Corollary 25: phi_t < delta_t/eps_t
    assert pod.purification_shifts(_laplace_tests(), d_in=1.0) == [0.0, 0.0, 0.0]


def _worst_purified_loss(e, delta, phi, grid=20001):
    """max over (p, p') allowed by (e, delta)-DP (both events, both directions) of the purified loss, on a grid of
    p' with the largest p each allows (the ratio increases in p); by symmetry this covers the -1 event too."""
    q = np.linspace(0.0, 1.0, grid)
    p = np.minimum.reduce(
        [np.ones_like(q), math.exp(e) * q + delta, 1.0 - np.maximum(1.0 - q - delta, 0) / math.exp(e)]
    )
    return float(np.max(np.log(((1 - 2 * phi) * p + phi) / ((1 - 2 * phi) * q + phi))))


@pytest.mark.parametrize("delta_grows", [True, False])
def test_purified_map_bounds_the_true_loss_at_every_distance(delta_grows):
    """Test the guarantee, not the formula: at distance d the map's kappa(d) * L covers the worst loss of one purified
    evaluation over every (p, p') that the measurement's (e, delta) = map(d) allows, scaled as in Lemma 17."""
    eps, delta = 0.25, 1e-2
    m = _approx_user(eps, delta, delta_grows=delta_grows)
    [phi] = pod.purification_shifts([m], d_in=1.0)
    gtm = pod.make_gtm([m], CAL, 0.5, rng=0)
    assert gtm.map(1.0) == 1.0  # Lemma 24(3): pure eps_t at d_in, kappa = 1 exactly
    worst_at_d_in = _worst_purified_loss(eps, delta, phi)
    assert worst_at_d_in <= eps * (1 + 1e-12) and worst_at_d_in == pytest.approx(eps, rel=1e-6)  # tight at p' = 0
    for d in (0.25, 0.5, 2.0, 3.0, 10.0, 100.0):
        e_d, delta_d = m.map(d)
        worst = _worst_purified_loss(e_d, delta_d, phi)
        assert gtm.map(d) >= worst / eps * 1.0  # kappa(d) >= worst / eps_t, L = 1
        assert gtm.map(d) <= math.log((1 - phi) / phi) / eps * (1 + 1e-12)  # the channel's cap


def test_make_gtm_purifies_each_evaluation_with_the_stated_channel(monkeypatch):
    """The GTM is handed Purified(M_t, phi_t) (pure, eps_t); its counts follow Binomial(n, p + phi (1 - 2p))."""
    m = _approx_user(0.1, 0.3)  # phi = 0.3/(e^0.1 - 1 + 0.6) = 0.4256: far from 0, easy to see
    [phi] = pod.purification_shifts([m], d_in=1.0)
    assert phi == pytest.approx(purification_phi(0.1, 0.3), rel=1e-13)
    handed = []

    class Recording(pod.GTM):
        def step(self, mechanism, pstar=None, **kw):
            handed.append(mechanism)
            return super().step(mechanism, pstar, **kw)

    monkeypatch.setattr(pod, "GTM", Recording)
    pod.make_gtm([m], CAL, 0.5, rng=0)(0.0)
    [mech] = handed
    assert isinstance(mech, Purified) and mech.phi == phi and (mech.eps, mech.delta) == (0.1, 0.0)
    n = 2000  # the user measurement always releases True: p = 1, so p~ = 1 - phi
    k = int(mech.count_plus(n, np.random.default_rng(5)))
    lo, hi = binom_interval(k, n)
    assert lo <= 1 - phi <= hi and not lo <= 1.0 <= hi


def test_approx_measurement_with_eps_zero_or_delta_one_is_refused():
    for eps, delta in [(0.0, 1e-3), (0.5, 1.0)]:
        with pytest.raises(ValueError, match="measurements: item 1"):
            pod.make_gtm([_approx_user(eps, delta)], CAL, 0.5)


# 4. The batched path -------------------------------------------------------------------------------------------------


def test_batched_path_is_one_opendp_call_per_step_with_the_same_release_and_map():
    calls_single, calls_batched = [], []

    def counted(m):
        def release(x):
            calls_single.append(1)
            return m(x)

        return dp.m.make_user_measurement(*_records(), dp.max_divergence(), release, m.map, TO=bool)

    single = pod.make_gtm([counted(_count_above(1000)), counted(_count_above(-200))], CAL, 0.5, rng=3)
    factories = [_count_above_n_times(th, calls=calls_batched) for th in (1000, -200)]
    batched = pod.make_gtm(factories, CAL, 0.5, rng=3)
    calls_batched.clear()  # make_count(1) at construction, for the map
    # Pr[True] = e^{-30}/2 then 1 - e^{-30}/2: both halt at step 2, after the same N_1, N_2 (same seed)
    assert single(RECORDS) == 2 == batched(RECORDS)
    assert len(calls_batched) == 2 and sum(calls_batched) == len(calls_single) > 100
    for d in (0, 1, 2, 5):
        assert batched.map(d) == single.map(d)
    assert batched.map(1) == 1.0 and batched.map(0) == 0.0


def test_docstring_counting_factory_releases_binomial_counts():
    """The factory of the module docstring keeps its promise (2): make_count(n) ~ Binomial(n, p) with p = Pr[one
    evaluation is True] = a/(1 + a), a = e^{-1/20} (discrete Laplace at threshold |X| = 400). The variance statistic
    rejects a factory reusing one noise draw for all n copies (its variance is n times larger)."""
    a = math.exp(-1 / 20)
    p = a / (1 + a)
    make_count = _count_above_n_times(400)
    n, reps = 200, 300
    k = np.array([make_count(n)(RECORDS) for _ in range(reps)])
    lo, hi = binom_interval(int(k.sum()), n * reps, ALPHA / 2)
    assert lo <= p <= hi
    stat = float(np.sum((k - n * p) ** 2) / (n * p * (1 - p)))  # ~ chi2(reps) for binomial counts
    assert stats.chi2.ppf(ALPHA / 4, reps) <= stat <= stats.chi2.ppf(1 - ALPHA / 4, reps)


def test_counting_factory_contract_is_checked():
    def not_a_factory(n):
        return n > 0

    with pytest.raises(ValueError, match="counting factory"):
        pod.make_gtm([not_a_factory], CAL, 0.5)

    def too_many(n):  # releases n + 1: breaks [0, n]
        return dp.m.make_user_measurement(*_records(), dp.max_divergence(), lambda x: n + 1, lambda d: 0.05 * d, TO=int)

    gtm = pod.make_gtm([too_many], CAL, 0.5, rng=0)
    with pytest.raises(dp.OpenDPException, match=r"must release an int in \[0, "):
        gtm(RECORDS)

    def other_domain(n):  # make_count(1) on the records, make_count(n > 1) on floats
        space = _records() if n == 1 else _float_space()
        return dp.m.make_user_measurement(*space, dp.max_divergence(), lambda x: 0, lambda d: 0.05 * d, TO=int)

    with pytest.raises(dp.OpenDPException, match="input domain and metric"):
        pod.make_gtm([other_domain], CAL, 0.5, rng=0)(RECORDS)


# 5. The cases: map at distance 0; d_in ----------------------------------------------------------------------------


def test_map_at_distance_zero_is_zero():
    """Case f_opendp_make_gtm_map_at_zero: OpenDP's maps send d = 0 to 0; make_gtm's rounded kappa = 0 up to 5e-324."""
    gtm = pod.make_gtm(_laplace_tests(), GlobalCalibration(1.0, 0.05, 1.0, 1.5), 0.5, rng=0)
    lap = dp.m.make_laplace(*_float_space(), scale=4.0) >> dp.new_function(lambda v: v > 0.0, TO=bool)
    assert gtm.map(0.0) == 0.0 and gtm.check(0.0, 0.0)
    comp = dp.c.make_composition([gtm, lap])
    assert comp.map(0.0) == 0.0 and comp.check(0.0, 0.0)
    assert gtm.map(1.0) == 1.0 and gtm.map(1e-300) > 0  # still rounded up off 0 and d_in


@pytest.mark.parametrize("d_in", [0.0, -1.0, math.nan, math.inf, True, "1", None])
def test_bad_d_in_is_a_value_error_naming_d_in_at_construction(d_in):
    """Case f_opendp_make_gtm_d_in: before, 0.0 built a GTM whose map raised later; -1, nan, inf raised OpenDP's
    exception naming neither d_in (for -1) nor its range."""
    for call in (pod.make_gtm, lambda m, *a, **k: pod.purification_shifts(m, d_in=k["d_in"])):
        with pytest.raises(ValueError, match=r"\bd_in\b"):
            call(_laplace_tests(), CAL, 0.5, d_in=d_in)


def test_d_in_types_follow_opendp():
    """1 and 1.0 are accepted for a float metric; numpy.int64(1) is refused as OpenDP's own maps refuse it (and the
    GTM's map, an OpenDP map, does too); an integer metric takes 1, not 1.0."""
    meas = _laplace_tests()
    for d_in in (1, 1.0, np.float64(1.0)):
        assert pod.make_gtm(meas, CAL, 0.5, d_in=d_in, rng=0).map(1.0) == 1.0
    with pytest.raises(TypeError, match="i64"):
        meas[0].map(np.int64(1))
    with pytest.raises(ValueError, match=r"d_in must be a distance OpenDP accepts.*numpy integers"):
        pod.make_gtm(meas, CAL, 0.5, d_in=np.int64(1))
    gtm = pod.make_gtm(meas, CAL, 0.5, d_in=1, rng=0)
    with pytest.raises(TypeError, match="i64"):
        gtm.map(np.int64(1))
    counts = [_count_above(300)]
    assert pod.make_gtm(counts, CAL, 0.5, d_in=1, rng=0).map(1) == 1.0
    with pytest.raises(ValueError, match=r"\bd_in\b"):
        pod.make_gtm(counts, CAL, 0.5, d_in=1.0)
    # d_in = 2 (e.g. a replacement of one record): eps_t = map(2) and map(2) = L
    assert pod.make_gtm(counts, CAL, 0.5, d_in=2, rng=0).map(2) == 1.0


def test_a_step_the_gtm_would_refuse_is_refused_at_construction():
    """privtest.gtm's guardrail (E[N_t] = inf once eps_t >= eps/(theta + 2) on a direct step) is checked when the
    measurement is built, not inside OpenDP's call at release; allow_vacuous=True builds it (the map still holds)."""
    meas = _laplace_tests((4.0, 2.0))  # eps_t = 0.25, then 0.5 >= 1/3
    with pytest.raises(ValueError, match=r"measurements: item 2 .*vacuous.*largest admissible eps_t") as err:
        pod.make_gtm(meas, CAL, 0.5)
    assert "allow_vacuous=True" in str(err.value)
    assert pod.make_gtm(meas, CAL, 0.5, allow_vacuous=True).map(1.0) == 1.0


def _measurements():
    return _laplace_tests()


#: (function, call with one argument replaced, argument name, bad values): every argument of every public function.
BAD = [
    ("make_gtm", lambda v: pod.make_gtm(v, CAL, 0.5), "measurements", ["x", 3, None, [], [3], [lambda n: 1]]),
    ("make_gtm", lambda v: pod.make_gtm(_measurements(), v, 0.5), "calibration", [None, "cal", 1.0]),
    (
        "make_gtm",
        lambda v: pod.make_gtm(_measurements(), CAL, v),
        "pstar",
        [math.nan, math.inf, True, 0.0, 1.0, -0.5, "0.5", None, [0.5, 0.5], [0.5, True, 0.5], [[0.5] * 3]],
    ),
    (
        "make_gtm",
        lambda v: pod.make_gtm(_measurements(), CAL, 0.5, d_in=v),
        "d_in",
        [0, 0.0, -1, math.nan, math.inf, True, False, "1", None, np.int64(1)],
    ),
    ("make_gtm", lambda v: pod.make_gtm(_measurements(), CAL, 0.5, rng=v), "rng", [True, "seed", -1, 1.5]),
    (
        "make_gtm",
        lambda v: pod.make_gtm(_measurements(), CAL, 0.5, allow_vacuous=v),
        "allow_vacuous",
        [0, 1, None, "y"],
    ),
    ("purification_shifts", lambda v: pod.purification_shifts(v), "measurements", ["x", None, [], [1.0]]),
    (
        "purification_shifts",
        lambda v: pod.purification_shifts(_measurements(), d_in=v),
        "d_in",
        [0.0, math.nan, math.inf, True, np.int64(1)],
    ),
    ("gtm_privacy_loss", lambda v: pod.gtm_privacy_loss(v, [0.5]), "calibration", [None, "cal"]),
    (
        "gtm_privacy_loss",
        lambda v: pod.gtm_privacy_loss(CAL, v),
        "eps_t",
        [[], 0.5, "0.5", None, [math.nan], [math.inf], [True], [-0.1], [[0.5]]],
    ),
    ("ex_post_loss", lambda v: pod.ex_post_loss(v, [0.5], 1), "calibration", [CAL, None]),
    (
        "ex_post_loss",
        lambda v: pod.ex_post_loss(ExPostCalibration(1.0, 0.1, 1.0, 1.5), v, 1),
        "eps_t",
        [[], [math.nan], [True], 0.5],
    ),
    (
        "ex_post_loss",
        lambda v: pod.ex_post_loss(ExPostCalibration(1.0, 0.1, 1.0, 1.5), [0.5, 0.5], v),
        "halt_step",
        [True, False, 1.5, math.nan, math.inf, -1, 3, "1", None],
    ),
    (
        "opendp_effective_stop_probability",
        pod.opendp_effective_stop_probability,
        "stop_probability",
        [0.0, 1.0, math.nan, math.inf, -math.inf, True, "0.5", None],
    ),
]


@pytest.mark.parametrize(
    ("call", "name", "bad"),
    [
        pytest.param(call, name, bad, id=f"{fn}-{name}-{i}")  # ids by position: a repr may hold a memory address
        for fn, call, name, values in BAD
        for i, bad in enumerate(values)
    ],
)
def test_every_argument_is_refused_naming_it(call, name, bad):
    with pytest.raises(ValueError, match=rf"\b{name}\b"):
        call(bad)


def test_bad_table_covers_every_argument_of_every_public_function():
    covered = {(fn, name) for fn, _, name, _ in BAD}
    for fn in pod.__all__:
        obj = getattr(pod, fn)
        if not callable(obj):
            continue
        for arg in inspect.signature(obj).parameters:
            assert (fn, arg) in covered, (fn, arg)


# 6. Documentation -------------------------------------------------------------------------------------------------


def test_every_public_name_is_documented_with_a_doctest_and_its_source():
    assert sorted(pod.__all__) == pod.__all__ and all(hasattr(pod, n) for n in pod.__all__)
    finder = doctest.DocTestFinder()
    for name in pod.__all__:
        obj = getattr(pod, name)
        if not callable(obj):
            continue
        doc = inspect.getdoc(obj)
        for section in ("Args:", "Returns:", "Raises:", "Example:"):
            assert section in doc, (name, section)
        assert any(src in doc for src in ("Lemma", "Theorem", "Corollary", "Algorithm")), name
        assert finder.find(obj, name)[0].examples, name


def test_module_doctests_pass():
    """The examples of the module and of every public function (a bool-releasing OpenDP measurement wrapped by
    make_gtm and released; the batched path; purification), as ``pytest --doctest-modules`` runs them."""
    failures, tried = doctest.testmod(pod, optionflags=doctest.ELLIPSIS, raise_on_error=False)
    assert tried > 30 and failures == 0
