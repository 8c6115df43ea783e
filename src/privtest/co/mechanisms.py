"""The test and scored mechanisms of Definition 36, ThresholdSelect (Algorithm 2, Lemma 34), and the problem
interface they evaluate.

A :class:`COProblem` bundles one data stream X_1, X_2, ... with an objective f and a batch DP algorithm A (an abstract
base class: a problem supplies f and A, the base class derives the rest); solutions are numpy arrays whose first axis
indexes a batch (so B draws of A are one call). The test mechanism
M_t^h(X_t) = sgn(f(X_t, A(X_t, eps_t/2, delta_t)) + Lap(2/eps_t) - h) is (eps_t, delta_t)-DP (Lemma 37(1)).

Simulation shortcut (exact in distribution): each evaluation of M_t^h succeeds with probability
g(Y) = Pr[Lap(2/eps_t) >= h - f(X_t, Y)] given A's output Y, and 0 <= f(X_t, Y) <= U_t for any certified upper bound
U_t >= OPT_t, so l = g(0) <= g(Y) <= u = g(U_t). Drawing U ~ Unif(0,1) per evaluation, U < l is a +1 and U >= u a -1
whatever Y is; only evaluations with l <= U < u need A, and they are +1 w.p. (g(Y) - l)/(u - l). The count of +1s
then has exactly the Binomial(n, E g(Y)) law of n full evaluations, while A runs only about n (u - l) <= n eps_t U_t/4
times. The algorithm never sees U_t; only the simulator does. ``lazy=False`` evaluates A n times (tests compare).
When A exposes the exact law of f(X_t, A(X_t)) (``score_distribution``), the count is one binomial draw.

Every problem's methods check their arguments before the problem's own code runs (:meth:`COProblem.__init_subclass__`:
t an integer in [1, T], eps > 0, delta in [0, 1), size an integer >= 0, rng by the seed rule), as do the mechanisms
and ThresholdSelect (ValueError naming the parameter and its range).
"""

from __future__ import annotations

import functools
import inspect
import math
from abc import ABC, abstractmethod

import numpy as np

from privtest import _validate
from privtest.mechanisms import Mechanism, laplace_threshold_probability_unchecked

__all__ = [
    "COProblem",
    "ScoredMechanism",
    "TestMechanism",
    "laplace_tail",
    "threshold_select",
    "threshold_select_rounds",
]


def _check_time(problem, t) -> int:
    return _validate.integer("t", t, 1, maximum=int(problem.T))


#: The problem interface's arguments, checked for every problem before its own code runs (the values are passed on
#: unchanged, except ``rng``, converted by the seed rule).
_PROBLEM_CHECKS = {
    "t": _check_time,
    "eps": lambda problem, v: _validate.positive("eps", v),
    "delta": lambda problem, v: _validate.delta_range("delta", v),
    "size": lambda problem, v: _validate.integer("size", v, 0, maximum=_validate.INT64_MAX),
}
_PROBLEM_METHODS = ("value", "sample", "scores", "sample_scored", "upper", "score_distribution")
#: What an object needs to be taken for a problem (:meth:`COProblem.__subclasshook__`), besides its ``T``.
_PROBLEM_INTERFACE = ("value", "sample", "upper", "score_distribution")


#: Values the checks of :data:`_PROBLEM_CHECKS` certainly pass, recognised without running them (the common case
#: of the engine's inner loops): a Python int t in [1, T], a float eps in (0, inf), a float delta in [0, 1), a Python
#: int size in [0, 2^63), a numpy Generator. Anything else goes through the full check (or the seed rule).
_FLOATS = (float, np.float64)
_PROBLEM_FAST = {
    "t": lambda problem, v: type(v) is int and type(problem.T) is int and 1 <= v <= min(problem.T, _validate.INT64_MAX),
    "eps": lambda problem, v: type(v) in _FLOATS and 0.0 < v < math.inf,
    "delta": lambda problem, v: type(v) in _FLOATS and 0.0 <= v < 1.0,
    "size": lambda problem, v: type(v) is int and 0 <= v <= _validate.INT64_MAX,
    "rng": lambda problem, v: type(v) is np.random.Generator,
}


def _checked_problem_method(method):
    """``method`` with its interface arguments (t, eps, delta, size, rng) checked first (ValueError naming them)."""
    params = list(inspect.signature(method).parameters)[1:]
    names = [(i, n, _PROBLEM_FAST[n]) for i, n in enumerate(params) if n in _PROBLEM_CHECKS or n == "rng"]

    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        n = len(args)
        for i, name, fast in names:
            if name in kwargs:
                value = kwargs[name]
            elif i < n:
                value = args[i]
            else:
                continue
            if fast(self, value):
                continue
            if name == "rng":
                value = _validate.generator(value)
                if name in kwargs:
                    kwargs[name] = value
                else:
                    args = (*args[:i], value, *args[i + 1 :])
            else:
                _PROBLEM_CHECKS[name](self, value)
        return method(self, *args, **kwargs)

    return wrapper


class COProblem(ABC):
    """A data stream X_1, ..., X_T with an objective f (sensitivity <= 1, data-monotone) and a batch DP algorithm A:
    what the test and scored mechanisms of Definition 36 evaluate and BatchToCO (Algorithm 3) runs on.

    A problem supplies two hooks, :meth:`value` (f) and :meth:`sample` (A), and the reference ``opt``. From them this
    class defines, once for every problem, :meth:`scores` and :meth:`sample_scored` (draws of A and their values, in
    that order of random draws), :meth:`upper` (U_t = ``opt[t - 1]``) and :meth:`score_distribution` (None: A's score
    law not known in closed form). A problem overrides one of these only where it genuinely differs, e.g. an exact
    score law (:class:`privtest.co.maxcut.MaxCut`, :class:`privtest.co.graphs.DensestPair`) or scores computed
    within A's draw (:class:`privtest.co.graphs.DensestSubgraph`).

    Attributes:
        T: number of time steps (t = 1..T).
        name: short label.
        opt: float (T,): OPT_t = max_Y f(X_t, Y), or a certified upper bound U_t >= OPT_t, for t = 1..T (the
            simulator's U_t and the reference of the CO claims; an attribute or a property of the problem).
        opt_kind: "exact" / "upper bound" label of ``opt`` (one string, or an object array (T,) per step).

    Every subclass's :meth:`value`, :meth:`sample`, :meth:`scores`, :meth:`sample_scored`, :meth:`upper` and
    :meth:`score_distribution` check t (an integer in [1, T]), eps (> 0), delta (in [0, 1)), size (an integer >= 0)
    and rng (the seed rule) before the subclass's code runs.

    Example:
        >>> import numpy as np
        >>> class Coin(COProblem):  # f(X_t, Y) = t Y for A drawing Y in {0, 1}
        ...     T, name, opt, opt_kind = 3, "coin", np.array([1.0, 2.0, 3.0]), "exact"
        ...     def value(self, t, Y):
        ...         return t * np.asarray(Y, dtype=float)
        ...     def sample(self, t, eps, delta, size, rng):
        ...         return rng.integers(0, 2, size)
        >>> Coin().scores(2, 1.0, 0.0, 4, rng=0).tolist()
        [2.0, 2.0, 2.0, 0.0]
        >>> Coin().sample(4, 1.0, 0.0, 4, rng=0)
        Traceback (most recent call last):
        ...
        ValueError: t must be an integer in [1, 3]. Found 4.
    """

    T: int
    name: str
    opt: np.ndarray
    opt_kind: str | np.ndarray

    def __init_subclass__(cls, **kwargs):
        """Wrap the interface methods a subclass defines so that t, eps, delta, size and rng are checked first."""
        super().__init_subclass__(**kwargs)
        for name in _PROBLEM_METHODS:
            method = cls.__dict__.get(name)
            if callable(method):  # an abstract re-declaration stays abstract: wraps copies __isabstractmethod__
                setattr(cls, name, _checked_problem_method(method))

    @classmethod
    def __subclasshook__(cls, C):
        """Duck typing for ``isinstance``: a class with value, sample, upper and score_distribution is a problem."""
        if cls is COProblem and all(any(m in B.__dict__ for B in C.__mro__) for m in _PROBLEM_INTERFACE):
            return True
        return NotImplemented

    @abstractmethod
    def value(self, t: int, Y: np.ndarray) -> np.ndarray:
        """f(X_t, Y_b) for a batch of solutions.

        Args:
            t: time step (1..T).
            Y: solutions in the problem's encoding, first axis B (one row per solution).

        Returns:
            float array (B,).
        """

    @abstractmethod
    def sample(self, t: int, eps: float, delta: float, size: int, rng: np.random.Generator) -> np.ndarray:
        """``size`` independent draws of A(X_t, eps, delta).

        Args:
            t: time step (1..T).
            eps: A's privacy, > 0.
            delta: A's delta in [0, 1) (ignored by a pure-DP A).
            size: number of draws.
            rng: numpy Generator (or a seed, :func:`privtest._validate.generator`) supplying all randomness.

        Returns:
            solutions with first axis ``size``.
        """

    def scores(self, t: int, eps: float, delta: float, size: int, rng: np.random.Generator) -> np.ndarray:
        """f(X_t, Y) of ``size`` independent draws Y of A(X_t, eps, delta): ``value(t, sample(t, eps, delta, size,
        rng))``.

        Args:
            t, eps, delta, size, rng: as in :meth:`sample`.

        Returns:
            float array (size,).
        """
        rng = _validate.generator(rng)
        return self.value(t, self.sample(t, eps, delta, size, rng))

    def sample_scored(self, t: int, eps: float, delta: float, size: int, rng: np.random.Generator):
        """(Y, f(X_t, Y)) of ``size`` independent draws Y of A(X_t, eps, delta): the scored mechanism's draw
        (Definition 36(2)) before its Laplace noise.

        Args:
            t, eps, delta, size, rng: as in :meth:`sample`.

        Returns:
            (Y, values): the solutions (first axis ``size``) and their values, float array (size,).
        """
        rng = _validate.generator(rng)
        Y = self.sample(t, eps, delta, size, rng)
        return Y, self.value(t, Y)

    def upper(self, t: int) -> float:
        """The certified upper bound U_t = ``opt[t - 1]`` >= OPT_t of the lazy simulation (module docstring); only the
        simulator uses it, never the algorithm.

        Args:
            t: time step (1..T).

        Returns:
            U_t, a float.
        """
        return float(self.opt[t - 1])

    def score_distribution(self, t: int, eps: float, delta: float):
        """The exact law of f(X_t, A(X_t, eps, delta)), or None (this default) when it is not known in closed form.

        A problem whose A has a finite, computable score law overrides this; :class:`TestMechanism` then counts a
        step's +1s with one binomial draw instead of simulating A.

        Args:
            t: time step (1..T).
            eps: A's privacy, > 0.
            delta: A's delta in [0, 1).

        Returns:
            (values, probs): float arrays of equal length, probs summing to 1; or None.
        """
        return None

    def _score_laws(self, t: int, eps, delta) -> list:
        """:meth:`score_distribution` at step t for several (eps, delta) pairs (sequences of equal length), for the
        engine's inner loops (:mod:`privtest.co.batch_to_co`), whose arguments are checked where they enter: a list of
        the same laws (each (values, probs) or None), possibly as the problem's own cached or shared arrays (not to be
        modified). This default asks :meth:`score_distribution` once per pair; a problem whose laws are cheaper
        together or cached overrides it.
        """
        return [self.score_distribution(t, e, d) for e, d in zip(eps, delta, strict=True)]


def laplace_tail(h, value, eps_t):
    """Pr[value + Lap(2/eps_t) >= h] (Laplace scale 2/eps_t, i.e. privacy eps_t/2 for sensitivity 1): the success
    probability of the test mechanism given A's output (Definition 36(1)).

    Args:
        h: threshold(s), finite reals. value: f(X_t, Y), finite reals. eps_t: > 0 (all broadcast).

    Returns:
        float or float ndarray of the broadcast shape: probabilities.

    Raises:
        ValueError: naming h, value or eps_t when an element is out of range.

    Example:
        >>> round(laplace_tail(2.0, 2.0, 1.0), 6), round(laplace_tail(2.0, 0.0, 1.0), 6)
        (0.5, 0.18394)
    """
    _validate.finite("h", h, scalar=False)
    _validate.finite("value", value, scalar=False)
    _validate.positive("eps_t", eps_t, scalar=False)
    return laplace_tail_unchecked(h, value, np.asarray(eps_t) if isinstance(eps_t, list) else eps_t)


def laplace_tail_unchecked(h, value, eps_t):
    """:func:`laplace_tail` without the checks: for the engine's inner loops, whose arguments are checked where they
    enter (h finite, value finite, eps_t > 0; numbers or numeric arrays, broadcast)."""
    return laplace_threshold_probability_unchecked(value, h, 0.5 * eps_t)


class TestMechanism(Mechanism):
    """Definition 36(1): M_t^h(X_t) = sgn(f(X_t, Y) + Lap(2/eps_t) - h), Y <- A(X_t, eps_t/2, delta_t).

    Args:
        problem: the :class:`COProblem`.
        t: time step (1..T).
        eps_t: > 0, the mechanism's privacy (A gets eps_t/2, the Laplace score the other eps_t/2).
        delta_t: in [0, 1) (A's delta; the mechanism is (eps_t, delta_t)-DP, purified by the GTM).
        h: threshold.
        lazy: use the exact lazy simulation of the module docstring (default) or evaluate A n times.

    Attributes:
        evaluated: number of draws of A actually simulated so far (<= the number of evaluations counted).

    Raises:
        TypeError: if ``problem`` has not the :class:`COProblem` interface.
        ValueError: naming t (not an integer in [1, T]), eps_t, delta_t, h (not finite) or lazy (not a bool).

    Example:
        >>> import numpy as np
        >>> from privtest.co.maxcut import MaxCut
        >>> problem = MaxCut(4, np.array([[0, 1], [1, 2], [2, 3]]))
        >>> m = TestMechanism(problem, t=3, eps_t=1.0, delta_t=0.0, h=1.5)
        >>> round(m.success_probability(), 4), int(m.count_plus(100, rng=0))
        (0.5349, 53)
    """

    __test__ = False  # not a pytest class

    def __init__(self, problem: COProblem, t: int, eps_t: float, delta_t: float, h: float, lazy: bool = True):
        _check_problem(problem)
        _check_time(problem, t)
        _validate.positive("eps_t", eps_t)
        _validate.delta_range("delta_t", delta_t)
        _validate.finite("h", h)
        _validate.boolean("lazy", lazy)
        self.problem, self.t, self.eps, self.delta, self.h, self.lazy = (
            problem,
            int(t),
            float(eps_t),
            float(delta_t),
            float(h),
            lazy,
        )
        self.evaluated = 0

    def _g(self, values):
        return laplace_tail(self.h, values, self.eps)

    def success_probability(self):
        """Exact p_t if A's score law is known (a float in [0, 1]), else None."""
        dist = self.problem.score_distribution(self.t, 0.5 * self.eps, self.delta)
        if dist is None:
            return None
        values, probs = dist
        return float(np.clip(np.sum(probs * self._g(values)), 0.0, 1.0))

    def count_plus(self, n, rng):
        """+1 count of n evaluations (module docstring: exact in law; lazy draws of A unless ``lazy=False``)."""
        n_arr = np.asarray(n, dtype=np.int64)
        p = self.success_probability()
        if p is not None:
            return rng.binomial(n_arr, p)
        if not self.lazy:
            total = int(n_arr.sum())
            Y = self.problem.sample(self.t, 0.5 * self.eps, self.delta, total, rng)
            self.evaluated += total
            plus = self._g(self.problem.value(self.t, Y)) > rng.random(total)
            owner = np.repeat(np.arange(n_arr.size), n_arr.ravel())
            return np.bincount(owner, weights=plus, minlength=n_arr.size).astype(np.int64).reshape(n_arr.shape)
        lo = float(self._g(0.0))
        hi = float(self._g(self.problem.upper(self.t)))
        k_lo = rng.binomial(n_arr, lo)
        band = 0.0 if hi <= lo else (hi - lo) / (1.0 - lo)
        m = rng.binomial(n_arr - k_lo, min(band, 1.0))
        total = int(m.sum())
        if total == 0:
            return k_lo
        Y = self.problem.sample(self.t, 0.5 * self.eps, self.delta, total, rng)
        self.evaluated += total
        accept = (self._g(self.problem.value(self.t, Y)) - lo) / (hi - lo) > rng.random(total)
        owner = np.repeat(np.arange(m.size), m.ravel())
        extra = np.bincount(owner, weights=accept, minlength=m.size).astype(np.int64).reshape(m.shape)
        return k_lo + extra


class ScoredMechanism:
    """Definition 36(2): Q_t(X_t) = (Y, f(X_t, Y) + Lap(2/eps_t)), Y <- A(X_t, eps_t/2, delta_t); (eps_t, delta_t)-DP.

    ``draw(size, rng)`` returns (Y, v): a batch of solutions and their noisy scores (float array (size,)).

    Args:
        problem: the :class:`COProblem`. t: time step, an integer in [1, T]. eps_t: > 0. delta_t: in [0, 1).

    Raises:
        TypeError: if ``problem`` has not the :class:`COProblem` interface.
        ValueError: naming t, eps_t or delta_t when out of range.

    Example:
        >>> import numpy as np
        >>> from privtest.co.maxcut import MaxCut
        >>> Q = ScoredMechanism(MaxCut(4, np.array([[0, 1], [1, 2], [2, 3]])), t=3, eps_t=1.0, delta_t=0.0)
        >>> Y, v = Q.draw(3, rng=0)
        >>> Y.shape, v.shape
        ((3,), (3,))
    """

    def __init__(self, problem: COProblem, t: int, eps_t: float, delta_t: float):
        _check_problem(problem)
        _check_time(problem, t)
        _validate.positive("eps_t", eps_t)
        _validate.delta_range("delta_t", delta_t)
        self.problem, self.t, self.eps, self.delta = problem, int(t), float(eps_t), float(delta_t)

    def draw(self, size: int, rng: np.random.Generator):
        """``size`` (an integer >= 0) draws (Y, f(X_t, Y) + Lap(2/eps_t)); rng by the seed rule."""
        _validate.integer("size", size, 0, maximum=_validate.INT64_MAX)
        rng = _validate.generator(rng)
        Y, f = self.problem.sample_scored(self.t, 0.5 * self.eps, self.delta, size, rng)
        return Y, f + rng.laplace(0.0, 2.0 / self.eps, size)


# The base class's own interface methods are checked too (a subclass inherits them checked).
for _name in ("scores", "sample_scored", "upper", "score_distribution"):
    setattr(COProblem, _name, _checked_problem_method(COProblem.__dict__[_name]))
del _name


def _check_problem(problem) -> None:
    """A :class:`COProblem` (a subclass, or an object with its interface: T, value, sample, upper,
    score_distribution)."""
    if not isinstance(problem, COProblem):
        raise TypeError(
            "problem must be a privtest.co.mechanisms.COProblem (or have its T, value, sample, upper and "
            f"score_distribution). Found {type(problem).__name__}."
        )
    _validate.integer("problem.T", problem.T, 1)


def threshold_select_rounds(xi: float, eps0: float) -> int:
    """T = ceil(max((1/xi) ln(2/eps0), 1 + 1/(e xi))) of Algorithm 2 (the number of draws ThresholdSelect may make).

    Args:
        xi: stopping probability in (0, 1]. eps0: in (0, 1].

    Returns:
        int: T >= 2.

    Raises:
        ValueError: naming xi or eps0 when out of range.

    Example:
        >>> threshold_select_rounds(0.1, 0.5)
        14
    """
    _validate.interval("xi", xi, 0.0, 1.0, lo_open=True, hi_open=False)
    _validate.interval("eps0", eps0, 0.0, 1.0, lo_open=True, hi_open=False)
    return math.ceil(max(math.log(2.0 / eps0) / xi, 1.0 + 1.0 / (math.e * xi)))


def threshold_select(Q, tau: float, xi: float, eps0: float, rng: np.random.Generator, batch: int = 16):
    """ThresholdSelect (Algorithm 2; Liu & Talwar's thresholding with a known threshold, Lemma 34).

    Draws (Y_j, v_j) from ``Q`` for j = 1..T: returns the first draw with v_j >= tau; after each failed draw stops
    with -1 w.p. xi. Draws are made ``batch`` at a time (geometric growth) and scanned in order, which gives the
    same law as drawing one at a time.

    Args:
        Q: object with ``draw(size, rng) -> (Y, v)``; (eps_1, delta_1)-DP.
        tau: threshold. xi: stopping probability in (0, 1]. eps0: in (0, 1].
        rng: numpy Generator. batch: first batch size.

    Returns:
        (Y, v, draws): the selected solution (one element of Q's batch) and score, or (None, None, draws) for -1;
        ``draws`` is the number of draws of Q the algorithm made (<= T).

    Raises:
        TypeError: if ``Q`` has no ``draw`` method.
        ValueError: naming tau (not finite), xi, eps0, batch (not an integer >= 1) or rng.

    Example:
        >>> import numpy as np
        >>> class Q:  # scores uniform on [0, 1]
        ...     def draw(self, size, rng):
        ...         v = rng.random(size)
        ...         return v, v
        >>> Y, v, draws = threshold_select(Q(), tau=0.9, xi=0.01, eps0=0.5, rng=0)
        >>> v >= 0.9, draws
        (True, 6)
    """
    try:
        draw = Q.draw
    except AttributeError:
        draw = None
    if not callable(draw):
        raise TypeError(f"Q must have a method draw(size, rng) -> (Y, v). Found {type(Q).__name__}.")
    _validate.finite("tau", tau)
    batch = _validate.integer("batch", batch, 1)
    rng = _validate.generator(rng)
    T = threshold_select_rounds(xi, eps0)
    (Y,), score, draws = threshold_select_runs(Q.draw, tau, xi, T, rng, 1, batch)
    return (None, None, int(draws[0])) if Y is None else (Y, float(score[0]), int(draws[0]))


def threshold_select_runs(draw, tau: float, xi: float, T: int, rng: np.random.Generator, count: int, batch: int = 16):
    """``count`` independent runs of ThresholdSelect (Algorithm 2) on one mechanism ``draw`` (arguments checked by the
    caller; T = :func:`threshold_select_rounds`). The runs still going advance together: each round draws ``size``
    fresh draws per run in one call (``size`` = ``batch``, doubling every round) and run k scans its own slice in
    order, so every run has the law of :func:`threshold_select` and the runs are independent (disjoint draws). With
    count = 1 the random draws are exactly :func:`threshold_select`'s.

    Returns:
        (Y, v, draws): a list of ``count`` selected solutions (None for -1), float (count,) their scores (NaN for
        -1) and int (count,) the draws of Q each run made (<= T).
    """
    picked: list = [None] * count
    score = np.full(count, np.nan)
    draws = np.full(count, T, dtype=np.int64)
    pending = np.arange(count)
    done = 0
    while done < T and pending.size:
        size = min(batch, T - done)
        Y, v = draw(size * pending.size, rng)
        stop = ((v >= tau) | (rng.random(size * pending.size) < xi)).reshape(pending.size, size)
        stopped = stop.any(axis=1)
        first = np.argmax(stop, axis=1)
        for k in np.flatnonzero(stopped):
            j = k * size + int(first[k])
            r = pending[k]
            draws[r] = done + int(first[k]) + 1
            if v[j] >= tau:
                picked[r], score[r] = Y[j], float(v[j])
        pending = pending[~stopped]
        done += size
        batch *= 2
    return picked, score, draws
