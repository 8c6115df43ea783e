"""The black-box input mechanisms of Definition 1: eps_t-DP maps from a dataset to {-1, +1}.

A mechanism here is an object with ``eps`` and ``delta`` (its promised privacy) and
``count_plus(n, rng)``, which evaluates it ``n`` times and returns the number of +1 outcomes. Counting in one
call is what makes Monte Carlo fast: a Bernoulli mechanism does it with one binomial draw. Also here: the
Laplace threshold mechanism of Corollary 30's reduction, negation (the flipped variant of Section 4) and
purification by a binary symmetric channel (Lemma 24, Corollary 25).

Every :class:`Mechanism`, a user's subclass included, refuses a promise outside its range when it is made
(``eps`` finite and >= 0, ``delta`` in [0, 1)) and checks ``count_plus``'s ``n`` (integers >= 0) and ``rng`` before
its own code runs.
"""

from __future__ import annotations

import functools
import math
from abc import ABC, abstractmethod
from collections.abc import Callable

import numpy as np

from privtest import _validate

__all__ = [
    "BernoulliMechanism",
    "CountingMechanism",
    "LaplaceThresholdMechanism",
    "Mechanism",
    "Negated",
    "Purified",
    "SampledMechanism",
    "laplace_threshold_probability",
    "purification_phi",
    "purify",
]


class _Promise:
    """A mechanism's promised privacy parameter (``eps`` or ``delta``), checked whenever it is set.

    A data descriptor on :class:`Mechanism`: ``self.eps = value`` in any subclass's constructor runs the check, so a
    mechanism cannot promise eps = NaN, eps < 0 or delta outside [0, 1) (the testers' privacy statements assume it).
    """

    def __init__(self, check: Callable, doc: str):
        self.check, self.__doc__ = check, doc

    def __set_name__(self, owner, name: str) -> None:
        self.name = name

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        try:
            return obj.__dict__[self.name]
        except KeyError:
            raise AttributeError(
                f"{type(obj).__name__!r} object has no attribute {self.name!r} (a Mechanism sets eps and delta when "
                "it is constructed)"
            ) from None

    def __set__(self, obj, value) -> None:
        self.check(self.name, value)
        obj.__dict__[self.name] = value


def _checked_count_plus(method):
    """``count_plus`` with its arguments checked first: n integers >= 0 (fitting int64), rng by the seed rule."""

    @functools.wraps(method)
    def count_plus(self, n, rng):
        # fast path: an int64 array of counts >= 0 (always within int64) and a Generator pass as _validate would
        if not (type(n) is np.ndarray and n.dtype == np.int64 and (n.size == 0 or n.min() >= 0)):
            _validate.sizes("n", n)
        return method(self, n, rng if type(rng) is np.random.Generator else _validate.generator(rng))

    return count_plus


class Mechanism(ABC):
    """A {-1, +1}-valued (eps, delta)-DP mechanism already bound to its dataset X_t (Definition 1).

    Subclasses set ``eps`` (the promised input privacy eps_t, finite and >= 0, in nats; Definition 1) and ``delta``
    (the promised delta_t in [0, 1); 0 for pure DP) in their constructor and implement :meth:`count_plus`. Both
    promises are checked when they are set, and every subclass's ``count_plus`` checks ``n`` and ``rng`` before it
    runs (so a user's black box obeys the same argument contract as the library's mechanisms).

    Raises:
        ValueError: naming eps or delta when a constructor sets one out of range.

    Example:
        >>> import numpy as np
        >>> class Coin(Mechanism):
        ...     def __init__(self, eps):
        ...         self.eps, self.delta = eps, 0.0
        ...     def count_plus(self, n, rng):
        ...         return rng.binomial(np.asarray(n, dtype=np.int64), 0.5)
        >>> int(Coin(0.5).count_plus(100, rng=0))
        51
        >>> Coin(float("nan"))
        Traceback (most recent call last):
        ...
        ValueError: eps must be >= 0 and finite. Found nan.
    """

    eps = _Promise(_validate.nonnegative, "Promised input privacy eps_t, finite and >= 0 (nats).")
    delta = _Promise(_validate.delta_range, "Promised delta_t in [0, 1) (0: pure DP).")

    def __init_subclass__(cls, **kwargs):
        """Wrap the ``count_plus`` a subclass defines so that ``n`` and ``rng`` are checked before it runs."""
        super().__init_subclass__(**kwargs)
        method = cls.__dict__.get("count_plus")
        if callable(method):  # an abstract re-declaration stays abstract: wraps copies __isabstractmethod__
            cls.count_plus = _checked_count_plus(method)

    @abstractmethod
    def count_plus(self, n, rng: np.random.Generator):
        """Evaluate the mechanism n times (independently) and count the +1 outcomes.

        Args:
            n: number of evaluations, an integer >= 0 or an integer ndarray (one count per entry, e.g. per run); bools,
                fractions, NaN and infinities are refused.
            rng: anything :func:`numpy.random.default_rng` accepts (the library's seed rule); all randomness.

        Returns:
            int64 ndarray with the shape of ``n`` (0-d for scalar ``n``): the counts K, 0 <= K <= n. Every tester
            checks this contract in one place (:func:`privtest._validate.counts`: integers, no bools, 0 <= K <= n, the
            shape of n) and refuses a count that breaks it with a ValueError naming the step.

        Raises:
            ValueError: naming n or rng when out of range.
        """

    @property
    def p(self) -> float:
        """Success probability Pr[M(X) = +1], where the simulation knows it (NotImplementedError otherwise)."""
        raise NotImplementedError(f"{type(self).__name__} does not expose its success probability")


def _check_privacy(eps, delta) -> None:
    _validate.nonnegative("eps", eps)
    _validate.delta_range("delta", delta)


class BernoulliMechanism(Mechanism):
    """Simulation black box with Pr[+1] = p; n evaluations are one ``rng.binomial(n, p)`` draw (Definition 1).

    Args:
        p: success probability Pr[M(X) = +1] in [0, 1].
        eps: the input privacy eps_t >= 0 (finite, nats) the analyst promises for this mechanism.
        delta: the promised delta_t in [0, 1).

    Raises:
        ValueError: naming p, eps or delta when outside its range (NaN, infinities and bools included).

    Example:
        >>> m = BernoulliMechanism(p=0.3, eps=0.5)
        >>> m
        BernoulliMechanism(p=0.3, eps=0.5, delta=0.0)
        >>> m.count_plus([10, 1000], rng=0).tolist()
        [3, 310]
    """

    def __init__(self, p: float, eps: float, delta: float = 0.0):
        _validate.interval("p", p, 0.0, 1.0, lo_open=False, hi_open=False)
        _check_privacy(eps, delta)
        self._p, self.eps, self.delta = float(p), float(eps), float(delta)

    @property
    def p(self) -> float:
        """Pr[M(X) = +1] = p."""
        return self._p

    def count_plus(self, n, rng):
        """Number of +1s among ``n`` evaluations: one binomial draw per entry of ``n`` (int64, the shape of ``n``)."""
        return rng.binomial(np.asarray(n, dtype=np.int64), self._p)

    def __repr__(self) -> str:
        return f"BernoulliMechanism(p={self._p!r}, eps={self.eps!r}, delta={self.delta!r})"


def laplace_threshold_probability_unchecked(value, threshold, eps):
    """:func:`laplace_threshold_probability` without the checks (callers have checked the arguments)."""
    d = np.subtract(value, threshold, dtype=float)
    half = 0.5 * np.exp(-eps * np.abs(d))
    out = np.where(d >= 0, 1.0 - half, half)
    return float(out) if out.ndim == 0 else out


def laplace_threshold_probability(value, threshold, eps):
    r"""Pr[value + Lap(1/eps) > threshold]: :math:`1-\tfrac12 e^{-\varepsilon d}` for d = value - threshold >= 0,
    :math:`\tfrac12 e^{\varepsilon d}` otherwise (the Laplace CDF; Definition 9 and Corollary 30's reduction).

    Args:
        value: query value(s) f(X), finite reals (scalar or array).
        threshold: threshold(s), finite reals (broadcast with ``value``).
        eps: Laplace privacy parameter(s) > 0 and finite (noise scale 1/eps; broadcast).

    Returns:
        float, or a float ndarray of the broadcast shape: probabilities in [0, 1].

    Raises:
        ValueError: naming value, threshold or eps when an element is outside its range.

    Example:
        >>> round(laplace_threshold_probability(1.0, 0.0, 1.0), 6)
        0.81606
        >>> laplace_threshold_probability([0.0, -1.0], 0.0, 2.0).round(6).tolist()
        [0.5, 0.067668]
    """
    _validate.finite("value", value, scalar=False)
    _validate.finite("threshold", threshold, scalar=False)
    _validate.positive("eps", eps, scalar=False)
    return laplace_threshold_probability_unchecked(
        value, threshold, np.asarray(eps) if isinstance(eps, list | tuple) else eps
    )


class LaplaceThresholdMechanism(Mechanism):
    """sgn(value + Lap(1/eps) - threshold) for a sensitivity-1 ``value``: eps-DP (Laplace mechanism, Definition 9).

    This is the input mechanism of the reduction from Above Threshold in Section 6 (Corollary 30).
    Its evaluations are i.i.d. Bernoulli(p) with p = :func:`laplace_threshold_probability`, so a count of n
    evaluations is drawn as one binomial with that p: the same distribution as n Laplace draws.

    Args:
        value: the query value f(X) (a finite real; sensitivity 1 assumed).
        threshold: the public threshold (a finite real).
        eps: Laplace privacy parameter > 0 and finite.

    Raises:
        ValueError: on non-finite value/threshold or eps <= 0 (naming the parameter).

    Example:
        >>> m = LaplaceThresholdMechanism(value=1.0, threshold=0.0, eps=1.0)
        >>> round(m.p, 4), int(m.count_plus(1000, rng=0))
        (0.8161, 837)
    """

    def __init__(self, value: float, threshold: float, eps: float):
        _validate.finite("value", value)
        _validate.finite("threshold", threshold)
        _validate.positive("eps", eps)
        self.value, self.threshold, self.eps, self.delta = float(value), float(threshold), float(eps), 0.0
        self._p = laplace_threshold_probability_unchecked(self.value, self.threshold, self.eps)

    @property
    def p(self) -> float:
        """Pr[value + Lap(1/eps) > threshold]."""
        return self._p

    def count_plus(self, n, rng):
        """Number of +1s among ``n`` evaluations: one binomial draw per entry of ``n`` (int64, the shape of ``n``)."""
        return rng.binomial(np.asarray(n, dtype=np.int64), self._p)


class SampledMechanism(Mechanism):
    """A mechanism given by a sampler ``sample(n, rng) -> array of n outputs in {-1, +1}`` (a real black box).

    Used where each evaluation is a genuine computation (e.g. training a DP model in ``fig_hpo``).

    Args:
        sample: callable (n: int >= 0, rng: numpy Generator) returning a length-n array of -1/+1 values.
        eps: promised eps_t >= 0 (finite).
        delta: promised delta_t in [0, 1).

    Raises:
        TypeError: if ``sample`` is not callable.
        ValueError: on bad eps/delta, or (from ``count_plus``) if the sampler returns a value outside {-1, +1}
            or the wrong number of outputs.

    Example:
        >>> m = SampledMechanism(lambda n, rng: np.where(rng.random(n) < 0.5, 1, -1), eps=0.1)
        >>> m.count_plus([3, 5], rng=1).tolist()
        [1, 3]
    """

    def __init__(self, sample: Callable[[int, np.random.Generator], np.ndarray], eps: float, delta: float = 0.0):
        _validate.function("sample", sample)
        _check_privacy(eps, delta)
        self.sample, self.eps, self.delta = sample, float(eps), float(delta)

    def count_plus(self, n, rng):
        """Calls ``sample(n_i, rng)`` once per entry n_i of ``n`` and counts its +1s (int64, the shape of ``n``)."""
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
        eps: promised eps_t >= 0 (finite).
        delta: promised delta_t in [0, 1).

    Raises:
        TypeError: if ``count`` is not callable.
        ValueError: on bad eps/delta, or (from ``count_plus``) if ``count`` returns a non-integer or a value outside
            [0, n].

    Example:
        >>> m = CountingMechanism(lambda n, rng: rng.binomial(n, 0.9), eps=0.2)
        >>> int(m.count_plus(100, rng=0))
        89
    """

    def __init__(self, count: Callable[[int, np.random.Generator], int], eps: float, delta: float = 0.0):
        _validate.function("count", count)
        _check_privacy(eps, delta)
        self.count, self.eps, self.delta = count, float(eps), float(delta)

    def count_plus(self, n, rng):
        """Calls ``count(n_i, rng)`` once per entry n_i of ``n`` and checks each result (int64, the shape of ``n``)."""
        n_arr = np.asarray(n, dtype=np.int64)
        out = np.empty(n_arr.shape, dtype=np.int64)
        for idx, ni in np.ndenumerate(n_arr):
            k = self.count(int(ni), rng)
            if isinstance(k, (bool, np.bool_)) or not _validate.is_finite_real(k) or int(k) != k or not (0 <= k <= ni):
                raise ValueError(f"count must return an integer in [0, {int(ni)}]. Found {k!r}.")
            out[idx] = int(k)
        return out


class Negated(Mechanism):
    """-M: the flipped input of Section 4 (fed to the GTM when s_t = -1); success probability 1 - p, same privacy.

    Args:
        base: the mechanism M (a :class:`Mechanism`).

    Raises:
        TypeError: if ``base`` is not a :class:`Mechanism`.

    Example:
        >>> m = Negated(BernoulliMechanism(0.3, 0.5))
        >>> round(m.p, 2), int(m.count_plus(1000, rng=0))
        (0.7, 680)
    """

    def __init__(self, base: Mechanism):
        _check_mechanism("base", base)
        self.base, self.eps, self.delta = base, base.eps, base.delta

    @property
    def p(self) -> float:
        """1 - p of the base mechanism."""
        return 1.0 - self.base.p

    def count_plus(self, n, rng):
        """n minus the base's count of +1s (int64, the shape of ``n``)."""
        n_arr = np.asarray(n, dtype=np.int64)
        return n_arr - _validate.counts(self.base.count_plus(n_arr, rng), n_arr)


def _check_mechanism(name: str, m) -> None:
    if not isinstance(m, Mechanism):
        raise TypeError(f"{name} must be a privtest.mechanisms.Mechanism. Found {type(m).__name__}.")


def purification_phi(eps: float, delta: float) -> float:
    r"""Crossover probability :math:`\phi = \delta/(e^{\varepsilon}-1+2\delta)` of Lemma 24(3).

    Args:
        eps: eps_t >= 0, finite (> 0 when delta > 0).
        delta: delta_t in [0, 1).

    Returns:
        float in [0, 1/2): the crossover probability; 0 when delta = 0.

    Raises:
        ValueError: naming eps or delta when outside its range, or eps = 0 with delta > 0 (phi would be 1/2: no
            signal).

    Example:
        >>> round(purification_phi(1.0, 0.01), 6)
        0.005753
        >>> purification_phi(1.0, 0.0)
        0.0
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
        base: an (eps_t, delta_t)-DP :class:`Mechanism`.
        phi: crossover probability in [0, 1/2]; default (None): Lemma 24(3)'s value for (base.eps, base.delta).

    Raises:
        TypeError: if ``base`` is not a :class:`Mechanism`.
        ValueError: if phi is outside [0, 1/2] (or not a number), or (default phi) base.eps = 0 with base.delta > 0.

    Example:
        >>> m = Purified(BernoulliMechanism(0.3, eps=1.0, delta=0.01))
        >>> round(m.phi, 6), round(m.p, 6), m.delta
        (0.005753, 0.302301, 0.0)
    """

    def __init__(self, base: Mechanism, phi: float | None = None):
        _check_mechanism("base", base)
        self.base = base
        if phi is not None:
            _validate.interval("phi", phi, 0.0, 0.5, lo_open=False, hi_open=False)
        self.phi = purification_phi(base.eps, base.delta) if phi is None else float(phi)
        # pure eps_t-DP only when phi reaches Lemma 24(3)'s value; a smaller phi keeps the base's delta
        pure = self.phi >= purification_phi(base.eps, base.delta) if base.eps > 0 or base.delta == 0 else False
        self.eps, self.delta = base.eps, 0.0 if pure else base.delta

    @property
    def p(self) -> float:
        """p~ = p + phi (1 - 2p) of the base's p."""
        p = self.base.p
        return p + self.phi * (1.0 - 2.0 * p)

    def count_plus(self, n, rng):
        """The base's count passed through the channel: two binomial draws (int64, the shape of ``n``)."""
        n_arr = np.asarray(n, dtype=np.int64)
        k = _validate.counts(self.base.count_plus(n_arr, rng), n_arr)
        # Each +1 survives w.p. 1 - phi, each -1 becomes +1 w.p. phi: two binomials instead of n coin flips.
        return k - rng.binomial(k, self.phi) + rng.binomial(n_arr - k, self.phi)


def binomial_success(m: Mechanism) -> float | None:
    """The q with ``m.count_plus(n) ~ Binomial(n, q)`` exactly, for the library's mechanisms whose ``count_plus`` is
    a binomial draw (Bernoulli, Laplace threshold) and their negations and purifications (Lemma 24: each evaluation
    passes a binary symmetric channel, so the count stays binomial with p + phi (1 - 2p)); None for any other
    mechanism (a user's ``count_plus``, a subclass that overrides it, a sampled black box). Used by the GTM's fast
    Monte Carlo step (:func:`privtest.gtm.run_step` with ``counts=False``); not part of the public API."""
    method = type(m).count_plus
    if method is BernoulliMechanism.count_plus or method is LaplaceThresholdMechanism.count_plus:
        return float(m._p)
    if method is Negated.count_plus or method is Purified.count_plus:
        base = binomial_success(m.base)
        if base is None:
            return None
        return 1.0 - base if method is Negated.count_plus else base + m.phi * (1.0 - 2.0 * base)
    return None


def purify(mechanism: Mechanism) -> Mechanism:
    """Corollary 25: the pure eps_t-DP smoothing of an (eps_t, delta_t)-DP mechanism (identity if delta_t = 0).

    Args:
        mechanism: a :class:`Mechanism`.

    Returns:
        ``mechanism`` itself if its delta is 0, else ``Purified(mechanism)`` (Lemma 24(3)'s phi).

    Raises:
        TypeError: if ``mechanism`` is not a :class:`Mechanism`.

    Example:
        >>> m = BernoulliMechanism(0.3, eps=1.0)
        >>> purify(m) is m
        True
        >>> type(purify(BernoulliMechanism(0.3, eps=1.0, delta=0.01))).__name__
        'Purified'
    """
    _check_mechanism("mechanism", mechanism)
    return mechanism if mechanism.delta == 0 else Purified(mechanism)
