"""The black-box input mechanisms of Definition 1: eps_t-DP maps from a dataset to {-1, +1}.

A mechanism here is an object with ``eps`` and ``delta`` (its promised privacy) and
``count_plus(n, rng)``, which evaluates it ``n`` times and returns the number of +1 outcomes. Counting in one
call is what makes Monte Carlo fast: a Bernoulli mechanism does it with one binomial draw. Also here: the
Laplace threshold mechanism of Corollary 30's reduction, negation (the flipped variant of Section 4) and
purification by a binary symmetric channel (Lemma 24, Corollary 25).
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Callable

import numpy as np

from privtest import _validate


class Mechanism(ABC):
    """A {-1, +1}-valued (eps, delta)-DP mechanism already bound to its dataset X_t.

    Attributes:
        eps: promised input privacy eps_t >= 0 (Definition 1).
        delta: promised delta_t in [0, 1); 0 for pure DP.
    """

    eps: float
    delta: float

    @abstractmethod
    def count_plus(self, n, rng: np.random.Generator):
        """Evaluate the mechanism n times (independently) and count the +1 outcomes.

        Args:
            n: number of evaluations, int >= 0 or an integer ndarray (one count per entry, e.g. per run).
            rng: numpy Generator supplying all randomness.

        Returns:
            int64 ndarray with the shape of ``n`` (0-d for scalar ``n``): the counts K, 0 <= K <= n. Every tester
            checks this contract in one place (:func:`privtest._validate.counts`: integers, no bools, 0 <= K <= n, the
            shape of n) and refuses a count that breaks it with a ValueError naming the step. ``rng`` is anything
            :func:`numpy.random.default_rng` accepts (the library's seed rule).
        """

    @property
    def p(self) -> float:
        """Success probability Pr[M(X) = +1], where the simulation knows it (NotImplementedError otherwise)."""
        raise NotImplementedError(f"{type(self).__name__} does not expose its success probability")


def _check_privacy(eps, delta) -> None:
    _validate.nonnegative("eps", eps)
    _validate.delta_range("delta", delta)


class BernoulliMechanism(Mechanism):
    """Simulation black box with Pr[+1] = p; n evaluations are one ``rng.binomial(n, p)`` draw.

    Args:
        p: success probability in [0, 1].
        eps: the input privacy eps_t >= 0 the analyst promises for this mechanism.
        delta: the promised delta_t in [0, 1).

    Raises:
        ValueError: on p outside [0, 1], eps < 0, or delta outside [0, 1).
    """

    def __init__(self, p: float, eps: float, delta: float = 0.0):
        _validate.interval("p", p, 0.0, 1.0, lo_open=False, hi_open=False)
        _check_privacy(eps, delta)
        self._p, self.eps, self.delta = float(p), float(eps), float(delta)

    @property
    def p(self) -> float:
        return self._p

    def count_plus(self, n, rng):
        rng = _validate.generator(rng)
        return rng.binomial(np.asarray(n, dtype=np.int64), self._p)

    def __repr__(self) -> str:
        return f"BernoulliMechanism(p={self._p!r}, eps={self.eps!r}, delta={self.delta!r})"


def laplace_threshold_probability(value, threshold, eps):
    r"""Pr[value + Lap(1/eps) > threshold]: :math:`1-\tfrac12 e^{-\varepsilon d}` for d = value - threshold >= 0,
    :math:`\tfrac12 e^{\varepsilon d}` otherwise. Broadcasts over arrays."""
    d = np.asarray(value, dtype=float) - np.asarray(threshold, dtype=float)
    out = np.where(d >= 0, 1.0 - 0.5 * np.exp(-eps * np.abs(d)), 0.5 * np.exp(-eps * np.abs(d)))
    return float(out) if out.ndim == 0 else out


class LaplaceThresholdMechanism(Mechanism):
    """sgn(value + Lap(1/eps) - threshold) for a sensitivity-1 ``value``: eps-DP (Laplace mechanism, Definition 9).

    This is the input mechanism of the reduction from Above Threshold in Section 6 (Corollary 30).
    Its evaluations are i.i.d. Bernoulli(p) with p = :func:`laplace_threshold_probability`, so a count of n
    evaluations is drawn as one binomial with that p: the same distribution as n Laplace draws.

    Args:
        value: the query value f(X) (real; sensitivity 1 assumed).
        threshold: the public threshold (real).
        eps: Laplace privacy parameter > 0.

    Raises:
        ValueError: on non-finite value/threshold or eps <= 0.
    """

    def __init__(self, value: float, threshold: float, eps: float):
        _validate.finite("value", value)
        _validate.finite("threshold", threshold)
        _validate.positive("eps", eps)
        self.value, self.threshold, self.eps, self.delta = float(value), float(threshold), float(eps), 0.0
        self._p = laplace_threshold_probability(self.value, self.threshold, self.eps)

    @property
    def p(self) -> float:
        return self._p

    def count_plus(self, n, rng):
        rng = _validate.generator(rng)
        return rng.binomial(np.asarray(n, dtype=np.int64), self._p)


class SampledMechanism(Mechanism):
    """A mechanism given by a sampler ``sample(n, rng) -> array of n outputs in {-1, +1}`` (a real black box).

    Used where each evaluation is a genuine computation (e.g. training a DP model in ``fig_hpo``).

    Args:
        sample: callable returning a length-n array of -1/+1 values.
        eps: promised eps_t >= 0.
        delta: promised delta_t in [0, 1).

    Raises:
        ValueError: on bad eps/delta, or (from ``count_plus``) if the sampler returns a value outside {-1, +1}
            or the wrong number of outputs.
    """

    def __init__(self, sample: Callable[[int, np.random.Generator], np.ndarray], eps: float, delta: float = 0.0):
        _check_privacy(eps, delta)
        self.sample, self.eps, self.delta = sample, float(eps), float(delta)

    def count_plus(self, n, rng):
        rng = _validate.generator(rng)
        n_arr = np.asarray(n, dtype=np.int64)
        out = np.empty(n_arr.shape, dtype=np.int64)
        for idx, ni in np.ndenumerate(n_arr):
            y = np.asarray(self.sample(int(ni), rng))
            if y.shape != (int(ni),):
                raise ValueError(f"mechanism returned {y.shape} outputs; expected ({int(ni)},).")
            if not np.all((y == 1) | (y == -1)):
                bad = y[(y != 1) & (y != -1)][:3].tolist()
                raise ValueError(f"mechanism output must be in {{-1, +1}}. Found {bad}.")
            out[idx] = int(np.count_nonzero(y == 1))
        return out


class CountingMechanism(Mechanism):
    """A mechanism given by a vectorized counter ``count(n, rng) -> number of +1s among n fresh evaluations``.

    The fast form of a user's black box (one call per GTM step instead of one per evaluation); :class:`SampledMechanism`
    is the form returning the n outputs themselves. The caller promises that one evaluation is (eps, delta)-DP and that
    the n evaluations are independent.

    Args:
        count: callable (n: int >= 0, rng: numpy Generator) -> int in [0, n].
        eps: promised eps_t >= 0.
        delta: promised delta_t in [0, 1).

    Raises:
        ValueError: on bad eps/delta, or (from ``count_plus``) if ``count`` returns a non-integer or a value outside
            [0, n].
    """

    def __init__(self, count: Callable[[int, np.random.Generator], int], eps: float, delta: float = 0.0):
        _check_privacy(eps, delta)
        self.count, self.eps, self.delta = count, float(eps), float(delta)

    def count_plus(self, n, rng):
        rng = _validate.generator(rng)
        n_arr = np.asarray(n, dtype=np.int64)
        out = np.empty(n_arr.shape, dtype=np.int64)
        for idx, ni in np.ndenumerate(n_arr):
            k = self.count(int(ni), rng)
            if isinstance(k, (bool, np.bool_)) or not _validate.is_finite_real(k) or int(k) != k or not (0 <= k <= ni):
                raise ValueError(f"count must return an integer in [0, {int(ni)}]. Found {k!r}.")
            out[idx] = int(k)
        return out


class Negated(Mechanism):
    """-M: the flipped input of Section 4 (fed to the GTM when s_t = -1); success probability 1 - p."""

    def __init__(self, base: Mechanism):
        self.base, self.eps, self.delta = base, base.eps, base.delta

    @property
    def p(self) -> float:
        return 1.0 - self.base.p

    def count_plus(self, n, rng):
        rng = _validate.generator(rng)
        n_arr = np.asarray(n, dtype=np.int64)
        return n_arr - _validate.counts(self.base.count_plus(n_arr, rng), n_arr)


def purification_phi(eps: float, delta: float) -> float:
    r"""Crossover probability :math:`\phi = \delta/(e^{\varepsilon}-1+2\delta)` of Lemma 24(3).

    Args:
        eps: eps_t > 0 (with delta > 0; eps = 0 and delta = 0 give phi = 0).
        delta: delta_t in [0, 1).

    Returns:
        float in [0, 1/2]; 0 when delta = 0.

    Raises:
        ValueError: if eps < 0 or delta outside [0, 1), or eps = 0 with delta > 0 (phi would be 1/2: no signal).
    """
    _check_privacy(eps, delta)
    if delta == 0:
        return 0.0
    if eps == 0:
        raise ValueError("eps must be > 0 when delta > 0 (purification would output a fair coin).")
    return delta / (math.expm1(min(eps, 700.0)) + 2.0 * delta)  # e^700 already makes phi ~ 0


class Purified(Mechanism):
    """phi-smoothed mechanism of Lemma 24: each evaluation of ``base`` passes a binary symmetric channel.

    With phi = :func:`purification_phi` (Corollary 25) the result is pure eps_t-DP and its success probability is
    p~ = p + phi (1 - 2p), within delta_t/eps_t of p.

    Args:
        base: an (eps_t, delta_t)-DP mechanism.
        phi: crossover probability in [0, 1/2]; default: Lemma 24(3)'s value for (base.eps, base.delta).

    Raises:
        ValueError: if phi is outside [0, 1/2].
    """

    def __init__(self, base: Mechanism, phi: float | None = None):
        self.base = base
        if phi is not None:
            _validate.interval("phi", phi, 0.0, 0.5, lo_open=False, hi_open=False)
        self.phi = purification_phi(base.eps, base.delta) if phi is None else float(phi)
        # pure eps_t-DP only when phi reaches Lemma 24(3)'s value; a smaller phi keeps the base's delta
        pure = self.phi >= purification_phi(base.eps, base.delta) if base.eps > 0 or base.delta == 0 else False
        self.eps, self.delta = base.eps, 0.0 if pure else base.delta

    @property
    def p(self) -> float:
        p = self.base.p
        return p + self.phi * (1.0 - 2.0 * p)

    def count_plus(self, n, rng):
        rng = _validate.generator(rng)
        n_arr = np.asarray(n, dtype=np.int64)
        k = _validate.counts(self.base.count_plus(n_arr, rng), n_arr)
        # Each +1 survives w.p. 1 - phi, each -1 becomes +1 w.p. phi: two binomials instead of n coin flips.
        return k - rng.binomial(k, self.phi) + rng.binomial(n_arr - k, self.phi)


def purify(mechanism: Mechanism) -> Mechanism:
    """Corollary 25: the pure eps_t-DP smoothing of an (eps_t, delta_t)-DP mechanism (identity if delta_t = 0)."""
    return mechanism if mechanism.delta == 0 else Purified(mechanism)
