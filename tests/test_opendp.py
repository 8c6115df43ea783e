"""privtest.opendp: the GTM as an OpenDP measurement (exact privacy map, composition, releases) and a cross-check of
ThresholdSelect (Algorithm 2, privtest.co) against OpenDP's make_select_private_candidate.

Statistical tests reject at ALPHA (conftest.py). Our side is seeded; OpenDP's samplers draw from the operating system
and cannot be seeded, so the cross-check's false-failure probability is ALPHA by construction, not 0.
"""

import math

import numpy as np
import pytest
from conftest import ALPHA
from scipy import stats

dp = pytest.importorskip("opendp.prelude")

from privtest import ExPostCalibration, GlobalCalibration  # noqa: E402
from privtest import opendp as pod  # noqa: E402
from privtest.co.mechanisms import threshold_select, threshold_select_rounds  # noqa: E402
from privtest.schedule import beta_t  # noqa: E402


def _space():
    dp.enable_features("contrib", "honest-but-curious")
    return dp.atom_domain(T=float, nan=False), dp.absolute_distance(T=float)


def _threshold_measurements(scales, threshold=0.0):
    """M_t(x) = [x + Lap(scale_t) > threshold]: (1/scale_t)-DP at |x - x'| <= 1, bool release."""
    space = _space()
    return [space >> dp.m.then_laplace(scale=s) >> dp.new_function(lambda v: v > threshold, TO=bool) for s in scales]


SCALES = (4.0, 5.0, 8.0)  # eps_t = 0.25, 0.2, 0.125 at d_in = 1


def test_gtm_map_is_lemma17_exactly_global():
    cal = GlobalCalibration(eps=2.0, beta=0.1, theta=1.0, gamma=1.5)
    meas = _threshold_measurements(SCALES)
    assert [m.map(1.0) for m in meas] == [0.25, 0.2, 0.125]
    gtm = pod.make_gtm(meas, cal, pstar=0.5, rng=0)
    assert gtm.map(1.0) == 2.0  # Theorem 21: eps, exactly
    assert gtm.check(1.0, 2.0)
    assert not gtm.check(1.0, math.nextafter(2.0, 0.0))
    # At distance 2 every M_t is 2 eps_t-DP: the shift argument gives 2 eps (rounded up, never down).
    assert 4.0 <= gtm.map(2.0) <= math.nextafter(math.nextafter(4.0, 5.0), 5.0)
    assert gtm.check(2.0, 4.0 * (1 + 1e-15)) and not gtm.check(2.0, 4.0)
    # It composes with OpenDP's accounting like any pure-DP measurement.
    both = dp.c.make_composition([gtm, gtm])
    assert both.map(1.0) == 4.0


def test_gtm_map_is_worst_expost_loss_theorem23():
    cal = ExPostCalibration(eps_C=1.0, beta=0.1, C_H=1.0, gamma=1.5)
    meas = _threshold_measurements(SCALES)
    gtm = pod.make_gtm(meas, cal, pstar=0.5, rng=0)
    eps_t = [0.25, 0.2, 0.125]
    claimed = max(cal.max_loss(t, e) for t, e in enumerate(eps_t, start=1))
    by_hand = max(1.0 + 1.0 * e * math.log(4.0 / float(beta_t(t, 0.1))) for t, e in enumerate(eps_t, start=1))
    assert gtm.map(1.0) == claimed
    assert claimed == pytest.approx(by_hand, rel=1e-13)
    assert gtm.check(1.0, claimed) and not gtm.check(1.0, math.nextafter(claimed, 0.0))
    # The ex-post value of a release is outside OpenDP's map: eps_C without a halt, the halting step's loss otherwise.
    assert pod.ex_post_loss(cal, eps_t, 0) == 1.0
    assert pod.ex_post_loss(cal, eps_t, 2) == cal.max_loss(2, 0.2) < gtm.map(1.0) + 1e-12
    with pytest.raises(ValueError, match="halt_step"):
        pod.ex_post_loss(cal, eps_t, 4)


def test_gtm_releases_the_halting_step():
    cal = GlobalCalibration(eps=2.0, beta=0.1, theta=1.0, gamma=1.5)
    high = pod.make_gtm(_threshold_measurements(SCALES, threshold=-100.0), cal, 0.5, rng=1)
    low = pod.make_gtm(_threshold_measurements(SCALES, threshold=100.0), cal, 0.5, rng=2)
    # p_t = 1 - e^{-25}/2 (halts at step 1 w.h.p.) vs p_t = e^{-12.5}/2 (continues: no halt within T = 3).
    assert high(0.0) == 1
    assert low(0.0) == 0


def test_make_gtm_refuses_bad_inputs():
    cal = GlobalCalibration(eps=2.0, beta=0.1, theta=1.0, gamma=1.5)
    meas = _threshold_measurements(SCALES)
    with pytest.raises(ValueError, match="at least one"):
        pod.make_gtm([], cal, 0.5)
    with pytest.raises(ValueError, match="pstar"):
        pod.make_gtm(meas, cal, 1.0)
    int_space = dp.atom_domain(T=int), dp.absolute_distance(T=int)
    m_int = int_space >> dp.m.then_laplace(scale=1.0) >> dp.new_function(lambda v: v > 0, TO=bool)
    with pytest.raises(ValueError, match="input domain"):
        pod.make_gtm([meas[0], m_int], cal, 0.5)
    zcdp = _space() >> dp.m.then_gaussian(scale=1.0) >> dp.new_function(lambda v: v > 0, TO=bool)
    with pytest.raises(ValueError, match="pure DP"):
        pod.make_gtm([zcdp], cal, 0.5)
    bad = _space() >> dp.m.then_laplace(scale=4.0)  # releases a float, not a bit
    with pytest.raises(dp.OpenDPException, match="bool"):  # our ValueError, raised inside OpenDP's call
        pod.make_gtm([bad], cal, 0.5, rng=0)(0.0)


def test_selection_factor_is_opendps_map():
    space = _space()
    m = dp.m.make_user_measurement(
        *space, dp.max_divergence(), lambda x: (x, 0), lambda d: 0.7 * d, TO="(f64, ExtrinsicObject)"
    )
    sel = dp.c.make_select_private_candidate(m, stop_probability=0.1, threshold=0.5)
    assert sel.map(1.0) == pod.OPENDP_SELECTION_FACTOR * m.map(1.0)


# Cross-check: a toy scored mechanism Q releasing (score, candidate) with candidate c in {0, 1, 2, 3} w.p. Q_PROBS and
# score = c; threshold 2 (success probability 0.3). The law of (released candidate or None, number of draws of Q).
Q_PROBS = np.array([0.4, 0.3, 0.2, 0.1])
TAU, XI, KMAX = 2.0, 0.2, 8  # draws >= KMAX pooled


def _categories(cand, draws):
    """Cell index: (candidate 2, 3 or None) x (draws 1..KMAX-1, >= KMAX)."""
    row = np.where(cand < 0, 0, cand - 1)  # None -> 0, 2 -> 1, 3 -> 2
    return row * KMAX + np.minimum(draws, KMAX) - 1


def _exact_law(probs=Q_PROBS, xi=XI):
    p1 = probs[2:].sum()
    r = (1 - p1) * (1 - xi)
    k = np.arange(1, KMAX + 1)
    pk = r ** (k - 1)
    pk[-1] = r ** (KMAX - 1) / (1 - r)  # sum over k >= KMAX
    rows = [(1 - p1) * xi * pk, probs[2] * pk, probs[3] * pk]
    return np.concatenate(rows)


def _inverse_cdf(probs):
    """The table numpy's ``Generator.choice(len(probs), p=probs)`` draws from: ``cdf.searchsorted(rng.random(size),
    side="right")`` makes its draws, the same values from the same generator state, without checking p at each call."""
    cdf = np.cumsum(probs)
    cdf /= cdf[-1]
    return cdf


class _ToyQ:
    def __init__(self, probs):
        self.cdf = _inverse_cdf(probs)

    def draw(self, size, rng):
        c = self.cdf.searchsorted(rng.random(size), side="right")
        return c, c.astype(float)


def _ours(n, seed, probs=Q_PROBS, xi=XI):
    rng = np.random.default_rng(seed)
    eps0 = 1e-12  # cap T = ceil(max(ln(2/eps0)/xi, 1 + 1/(e xi))): out of reach
    T = threshold_select_rounds(xi, eps0)
    assert ((1 - probs[2:].sum()) * (1 - xi)) ** (T - 1) < 1e-12
    out = np.empty((n, 2), dtype=np.int64)
    Q = _ToyQ(probs)
    for i in range(n):
        Y, _, draws = threshold_select(Q, TAU, xi, eps0, rng, batch=4)
        out[i] = (-1 if Y is None else int(Y), draws)
    return out


def _opendps(n, seed):
    """OpenDP's combinator on the toy Q. The candidate must be typed ExtrinsicObject, as OpenDP's docstring says: with
    TO="(f64, i32)" OpenDP 0.16.0 compiles but the combinator returns None at every call (seen while writing this)."""
    space = _space()
    rng = np.random.default_rng(seed)
    cdf = _inverse_cdf(Q_PROBS)
    calls = [0]

    def q(_x):
        calls[0] += 1
        c = int(cdf.searchsorted(rng.random(), side="right"))
        return float(c), c

    m = dp.m.make_user_measurement(*space, dp.max_divergence(), q, lambda d: d, TO="(f64, ExtrinsicObject)")
    sel = dp.c.make_select_private_candidate(m, stop_probability=XI, threshold=TAU)
    out = np.empty((n, 2), dtype=np.int64)
    for i in range(n):
        calls[0] = 0
        r = sel(0.0)
        out[i] = (-1 if r is None else int(r[1]), calls[0])
    return out


def _gof_p(sample, law):
    """Chi-square goodness of fit; cells with expected count < 5 are pooled into one (standard validity rule)."""
    counts = np.bincount(_categories(sample[:, 0], sample[:, 1]), minlength=law.size)
    expected = law * counts.sum()
    small = expected < 5
    if small.any():
        counts = np.r_[counts[~small], counts[small].sum()]
        expected = np.r_[expected[~small], expected[small].sum()]
    return stats.chisquare(counts, expected).pvalue


def test_opendp_effective_stop_probability():
    g = 0.2
    e = pod.opendp_effective_stop_probability(g)
    assert e == pytest.approx(1 - math.exp(1 / math.log(0.8)), rel=1e-14) and 0.988 < e < 0.99
    assert pod.opendp_effective_stop_probability(e) == pytest.approx(g, rel=1e-9)  # an involution
    assert pod.opendp_effective_stop_probability(0.05) > 1 - 1e-8
    with pytest.raises(ValueError, match="stop_probability"):
        pod.opendp_effective_stop_probability(1.0)


@pytest.mark.slow
def test_threshold_select_against_opendps_make_select_private_candidate():
    """Our Algorithm 2 (cap out of reach) against the exact law of (release, draws) at stop probability XI, and OpenDP
    0.16.0's make_select_private_candidate(stop_probability=XI) against the same law. Finding: OpenDP's combinator
    does not have Algorithm 2's law at XI; it has it at opendp_effective_stop_probability(XI) = 0.989 (OpenDP passes
    the geometric sampler a scale where it expects a rate; privtest.opendp). Five chi-square tests at ALPHA/5 each:
    ours ~ law(XI); OpenDP ~ law(XI') and ours at XI' ~ OpenDP (two-sample); and, as power checks at the same level,
    OpenDP rejects law(XI) and ours at a stop probability perturbed from 0.2 to 0.17 rejects law(XI)."""
    n = 20000
    xi_eff = pod.opendp_effective_stop_probability(XI)
    law, law_eff = _exact_law(), _exact_law(xi=xi_eff)
    assert law.sum() == pytest.approx(1.0) and law_eff.sum() == pytest.approx(1.0)
    ours, theirs = _ours(n, 21), _opendps(n, 22)
    level = ALPHA / 5
    assert _gof_p(ours, law) > level
    assert _gof_p(theirs, law_eff) > level
    ours_eff = _ours(n, 24, xi=xi_eff)
    table = np.stack([np.bincount(_categories(s[:, 0], s[:, 1]), minlength=law.size) for s in (ours_eff, theirs)])
    keep = table.sum(0) > 0  # cells neither sample reaches (many draws at stop probability 0.989) carry no information
    assert stats.chi2_contingency(table[:, keep]).pvalue > level
    # Power: the goodness-of-fit test detects OpenDP's deviation and a small change of our stop probability.
    assert _gof_p(theirs, law) < level
    assert _gof_p(_ours(n, 23, xi=0.17), law) < level
