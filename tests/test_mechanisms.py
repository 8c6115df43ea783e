"""Input mechanisms: counting, negation, Laplace threshold mechanism, purification (Lemma 24)."""

import math

import numpy as np
import pytest
from conftest import binom_interval

import privtest as pt


def test_bernoulli_counts_are_one_binomial_per_entry():
    m = pt.BernoulliMechanism(0.3, 0.1)
    n = np.array([0, 10, 100_000])
    k = m.count_plus(n, np.random.default_rng(0))
    assert k.shape == (3,) and k[0] == 0 and 0 <= k[1] <= 10
    lo, hi = binom_interval(int(k[2]), 100_000)
    assert lo <= 0.3 <= hi


def test_negation_and_laplace_threshold_mechanism():
    m = pt.LaplaceThresholdMechanism(value=3.0, threshold=1.0, eps=0.5)
    # Pr[3 + Lap(2) > 1] = 1 - e^{-0.5*2}/2 = 1 - 0.18394 = 0.81606
    assert m.p == pytest.approx(1 - math.exp(-1) / 2)
    assert pt.LaplaceThresholdMechanism(0.0, 2.0, 1.0).p == pytest.approx(math.exp(-2) / 2)
    neg = pt.Negated(m)
    assert neg.p == pytest.approx(math.exp(-1) / 2)
    rng = np.random.default_rng(1)
    k = int(neg.count_plus(200_000, rng))
    lo, hi = binom_interval(k, 200_000)
    assert lo <= neg.p <= hi


def test_purification_phi_and_smoothed_probability():
    # Lemma 24(3): phi = delta/(e^eps - 1 + 2 delta); eps = ln 2, delta = 0.1: 0.1/(1 + 0.2) = 0.083333
    assert pt.purification_phi(math.log(2), 0.1) == pytest.approx(0.1 / 1.2)
    assert pt.purification_phi(0.5, 0.0) == 0.0
    m = pt.purify(pt.BernoulliMechanism(0.2, math.log(2), 0.1))
    assert isinstance(m, pt.Purified) and m.delta == 0.0 and m.eps == math.log(2)
    assert m.p == pytest.approx(0.2 + (0.1 / 1.2) * (1 - 0.4))  # Lemma 24(1)
    k = int(m.count_plus(400_000, np.random.default_rng(2)))
    lo, hi = binom_interval(k, 400_000)
    assert lo <= m.p <= hi
    assert pt.purify(pt.BernoulliMechanism(0.2, 1.0)).__class__ is pt.BernoulliMechanism
    with pytest.raises(ValueError, match="eps must be > 0 when delta > 0"):
        pt.purification_phi(0.0, 0.1)


def test_purified_pairs_are_pure_dp():
    # Lemma 24(3) exactly: neighbouring (p, p') with p = e^eps p' + delta give p~ <= e^eps p~'.
    eps, delta = 0.3, 0.02
    phi = pt.purification_phi(eps, delta)
    q = np.linspace(0, 0.5, 1001)
    p = np.exp(eps) * q + delta
    assert np.all(p + phi * (1 - 2 * p) <= np.exp(eps) * (q + phi * (1 - 2 * q)) + 1e-15)


def test_sampled_mechanism_validates_outputs():
    good = pt.SampledMechanism(lambda n, rng: np.where(rng.random(n) < 0.5, 1, -1), eps=0.1)
    assert good.count_plus(np.array([3, 4]), np.random.default_rng(3)).shape == (2,)
    with pytest.raises(ValueError, match="outputs; expected"):
        pt.SampledMechanism(lambda n, rng: np.ones(n + 1), eps=0.1).count_plus(2, np.random.default_rng(4))
