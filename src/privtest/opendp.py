"""OpenDP interoperability: the GTM (Algorithm 1) over OpenDP measurements, as one OpenDP measurement (optional
dependency group ``opendp``: ``pip install "privtest[opendp]"``).

:func:`make_gtm` wraps the GTM over a sequence of OpenDP measurements M_1..M_T (each releasing a bool, one input
domain and metric) as **one** pure-DP OpenDP measurement, so that it composes with OpenDP's accounting
(``dp.c.make_composition``, chaining, ``check``). Its release is the halting step (0 = no halt within T).

Example: two thresholded Laplace counts on 400 records (OpenDP's Laplace on an integer count is the discrete Laplace,
DLap), the GTM over them, one release.

>>> import opendp.prelude as dp
>>> from privtest import GlobalCalibration
>>> from privtest.opendp import make_gtm
>>> dp.enable_features("contrib", "honest-but-curious")  # new_function below is user code (OpenDP's rule)
>>> records = dp.vector_domain(dp.atom_domain(T=float, nan=False)), dp.symmetric_distance()
>>> def count_above(threshold):  # M(X) = [|X| + DLap(20) > threshold]: a bool, 1/20-DP per added/removed record
...     noisy_count = records >> dp.t.then_count() >> dp.m.then_laplace(scale=20.0)
...     return noisy_count >> dp.new_function(lambda c: c > threshold, TO=bool)
>>> tests = [count_above(1000), count_above(-200)]  # on 400 records Pr[True] ~ e^(-30)/2, then ~ 1 - e^(-30)/2
>>> [m.map(1) for m in tests]  # eps_t at d_in = 1 (one record added or removed)
[0.05, 0.05]
>>> cal = GlobalCalibration(eps=1.0, beta=0.1, theta=1.0, gamma=2.0)
>>> gtm = make_gtm(tests, cal, pstar=0.5, rng=0)
>>> gtm.map(1)  # Theorem 21: eps = 1/tau1 + 2/tau2, whatever the eps_t
1.0
>>> gtm([0.5] * 400)  # the halting step (deterministic up to probability ~1e-10: OpenDP's noise is not seeded)
2
>>> dp.c.make_composition([gtm, gtm]).map(1)  # it composes like any pure-DP measurement
2.0

**What make_gtm takes** (each item of ``measurements``, mixed freely):

* a pure-DP measurement (output measure ``max_divergence``) releasing a bool (or +1/-1): one OpenDP call per
  evaluation, N_t calls at step t;
* an (eps, delta)-DP measurement (``approximate(max_divergence)``) releasing a bool: make_gtm purifies it (Lemma 24,
  Corollary 25): each evaluation passes a binary symmetric channel with crossover phi_t = delta_t/(e^eps_t - 1 +
  2 delta_t) (rounded up), which makes it pure eps_t-DP; :func:`purification_shifts` gives the phi_t;
* a *counting factory* ``make_count``: a callable n -> OpenDP measurement whose release is the number of True among
  n independent evaluations of ``make_count(1)`` (an int in [0, n]); the GTM's N_t evaluations at step t are then
  **one** OpenDP call (the batched path, below). Its measurements may be pure or (eps, delta) as above.

A zCDP measurement (``zero_concentrated_divergence``, or its ``approximate``) is refused: convert it first with
``dp.c.make_fix_delta(dp.c.make_zCDP_to_approxDP(m), delta)``, an (eps, delta)-DP measurement that make_gtm purifies
(for a counting factory, wrap each ``make_count(n)`` the same way). ``smoothed_max_divergence`` measurements (a
privacy profile) are refused likewise, with ``dp.c.make_fix_delta(m, delta)`` as the conversion.

**Privacy map** (Lemma 17, generalised to any input distance). Let eps_t be the pure guarantee of one evaluation at
the calibration distance ``d_in`` (M_t.map(d_in) for a pure M_t; eps of (eps_t, delta_t) = M_t.map(d_in) for a purified
one, by Lemma 24(3)) and L = max_{t <= T} ``calibration.max_loss(t, eps_t)``: Lemma 17's worst transcript loss,
1/tau1 + 2/tau2 = eps for Theorem 21 (and the exact-tail and certified calibrations, which keep its noise),
max_t (eps_C + C_H eps_t ln(4/beta_t)) for Theorem 23. For inputs at distance d, one evaluation of M_t is
e_t(d)-DP, i.e. p_t <= e^{kappa eps_t} p'_t with kappa(d) = max_t e_t(d) / eps_t. In the proof of Lemma 17,
Lemma 15's unit shift of z becomes a shift by kappa (lambda_t(z + kappa) = e^{kappa eps_t} lambda_t(z)) and the
density shifts become f_1(u - kappa) = e^{kappa/tau1} f_1(u), f_2,t(v - 2 kappa) = e^{2 kappa/tau2_t} f_2,t(v), so

    map(d) = kappa(d) * L,   map(d_in) = L exactly (kappa = 1),   map(d) = 0 where every e_t(d) = 0.

Otherwise the product is rounded up (``math.nextafter``), as OpenDP's own maps round in the safe direction. For a pure
M_t, e_t(d) = M_t.map(d). For a purified M_t with (e, delta) = M_t.map(d), Lemma 24(2)'s computation at crossover
phi_t gives e_t(d) = max(e, ln(1 + delta (1 - 2 phi_t)/phi_t)) (= eps_t at d_in), capped by ln((1 - phi_t)/phi_t)
(the channel's output probabilities lie in [phi_t, 1 - phi_t]); rounded up. An OpenDP map that reports delta > 0 at
distance 0 (``make_fix_delta`` does) therefore gives map(0) > 0; one that reports delta_t = 0 at d_in (no channel,
phi_t = 0) and delta > 0 at d gives map(d) = inf.

**The batched path and what a counting factory promises.** Lemma 17 (through Lemma 15) uses exactly two facts about
step t: one evaluation of M_t is eps_t-DP (p_t <= e^{eps_t} p'_t and the reverse), and K_t counts the +1s among N_t
*independent* evaluations, so that K_t ~ Po(lambda_t p_t) by Poisson thinning (Lemma 10). The N_t evaluations are
not composed (their n eps_t is not paid): the Poisson randomisation of N_t pays for them. A counting factory therefore
promises: (1) ``make_count(1)`` is one evaluation of M_t; its map is eps_t (the map make_gtm reads; the maps of
``make_count(n)``, n > 1, which for an honest composition are n eps_t, are not used); (2) ``make_count(n)(x)`` has the
law of the number of True among n independent releases of ``make_count(1)(x)`` (Binomial(n, p_t)); (3) every
``make_count(n)`` has the input domain and metric of the other measurements (checked at each call). (2) is what
OpenDP cannot check (as for ``make_user_measurement``'s map, it is the author's promise): a chain that draws fresh
noise per coordinate of n copies of one query, as in the example below, keeps it. The release then costs one OpenDP
call per step with N_t > 0 (plus the construction of ``make_count(N_t)``) instead of N_t calls.

>>> def count_above_n_times(threshold):  # a counting factory for count_above(threshold)
...     def make_count(n):  # n copies of the count (stability n), fresh noise on each, the number above threshold
...         copies = dp.t.make_user_transformation(
...             dp.atom_domain(T=int), dp.absolute_distance(T=int),
...             dp.vector_domain(dp.atom_domain(T=int)), dp.l1_distance(T=int),
...             lambda c: [c] * n, lambda d: n * d)
...         noisy = records >> dp.t.then_count() >> copies >> dp.m.then_laplace(scale=20.0)
...         return noisy >> dp.new_function(lambda cs: sum(c > threshold for c in cs), TO=int)
...     return make_count
>>> batched = make_gtm([count_above_n_times(1000), count_above_n_times(-200)], cal, pstar=0.5, rng=0)
>>> batched.map(1), batched([0.5] * 400)  # same map, same release, two OpenDP calls
(1.0, 2)

**Where OpenDP cannot express Theorem 23.** An OpenDP measurement's privacy map is a function of the input distance
only (d_in -> d_out), so it cannot state Theorem 23's *ex-post* guarantee, whose loss eps_C + C_H eps_t ln(4/beta_t)
depends on the released halting step t (continuation costs eps_C). OpenDP's odometers account for queries whose maps
the analyst submits before they run, not for a loss read off the mechanism's random output, so they do not express it
either. With an :class:`~privtest.gtm.ExPostCalibration` the map is therefore the worst case over transcripts of at
most T steps (the ex-post loss of halting at the step with the largest loss); the realised ex-post loss of a release
is :func:`ex_post_loss` (a value outside OpenDP's accounting).

**OpenDP's features.** OpenDP keeps the enabled features in one process-global Python set,
``opendp.mod.GLOBAL_FEATURES`` (``dp.enable_features`` adds to it, ``dp.disable_features`` removes from it, and each
constructor's ``assert_features`` reads it). make_gtm needs "contrib" and "honest-but-curious" only while it calls
``make_user_measurement``: it enables them for that call only and then restores the set, in place, to exactly what it
found (it removes what was added and re-adds what was removed since), also when the call raises. The returned
measurement needs no feature to release, map or compose; a counting factory runs at release time under the caller's
features. The set is shared by all threads: another thread constructing OpenDP objects during make_gtm's call may see
the two features on.

**d_in's type.** ``d_in`` is handed to the measurements' maps as given, so it must be a distance OpenDP accepts for
their input metric: a Python int or float for a float metric, a Python int for an integer metric (symmetric
distance). A numpy integer is refused, as OpenDP's own maps (and the map of the measurement make_gtm returns) refuse
it ("inferred type is i64"); make_gtm says so at construction with a ValueError naming d_in. Convert with ``int()``.

Randomness: the GTM's noise (and the purification channel's coins) come from a numpy Generator (``rng``); OpenDP's
own samplers draw from the operating system and cannot be seeded.
"""

from __future__ import annotations

import contextlib
import math
import numbers
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from privtest import _validate
from privtest.gtm import GTM, ExPostCalibration, GlobalCalibration, StepParams, largest_admissible_eps_t, step_vacuity
from privtest.mechanisms import Mechanism, Purified, purification_phi

__all__ = [
    "OPENDP_SELECTION_FACTOR",
    "ex_post_loss",
    "gtm_privacy_loss",
    "make_gtm",
    "opendp_effective_stop_probability",
    "purification_shifts",
]

#: OpenDP's ``make_select_private_candidate`` maps d_in to 2 * (the candidate measurement's map): Liu and Talwar's
#: Theorem 3.1 with a known threshold and no cap on the number of candidates (Lemma 34(1) with eps_0 -> 0).
#: ``tests/test_opendp.py`` checks this value against OpenDP itself.
OPENDP_SELECTION_FACTOR = 2.0

#: The OpenDP features make_gtm's constructor needs while it calls ``make_user_measurement`` (and only then).
_FEATURES = ("contrib", "honest-but-curious")

#: Relative margin by which a float computed from a few correctly rounded operations (expm1, log1p, +, /: < 3 ulp) is
#: raised so that it bounds the exact real value from the safe side.
_SAFE = 1.0 + 2.0**-49


def _opendp():
    """opendp.prelude, imported lazily (the rest of this module is plain math); no feature is touched here."""
    try:
        import opendp.prelude as dp
    except ImportError as exc:  # pragma: no cover - exercised only without the optional group
        raise ModuleNotFoundError(
            'privtest.opendp needs opendp, an optional dependency: pip install "privtest[opendp]"', name="opendp"
        ) from exc
    return dp


@contextlib.contextmanager
def _features_enabled(dp, features):
    """Enable ``features`` in OpenDP's process-global set for the block, then restore the set exactly as it was."""
    from opendp.mod import GLOBAL_FEATURES  # the set dp.enable_features / disable_features mutate in place

    before = frozenset(GLOBAL_FEATURES)
    dp.enable_features(*features)
    try:
        yield
    finally:
        added, removed = set(GLOBAL_FEATURES) - before, before - set(GLOBAL_FEATURES)
        if added:
            dp.disable_features(*sorted(added))
        if removed:
            dp.enable_features(*sorted(removed))


def opendp_effective_stop_probability(stop_probability: float) -> float:
    """The stop probability per failed candidate that OpenDP 0.16.0's ``make_select_private_candidate`` actually uses
    when asked for ``stop_probability`` = g: 1 - exp(1 / ln(1 - g)).

    OpenDP documents "each time a score is below threshold the algorithm may terminate with probability
    stop_probability" (Liu and Talwar's Algorithm 1 = the paper's Algorithm 2, ThresholdSelect, without a cap; its
    guarantee is Lemma 34). Its code draws the number of tolerated failures as
    ``sample_geometric_exp_fast(-1 / ln(1 - g))``, and that sampler returns a Geometric(1 - exp(-x)) variate for
    *rate* x: the continuation probability per failure is exp(1/ln(1 - g)), not 1 - g (the scale is passed where the
    rate is expected). Measured in ``tests/test_opendp.py``: the law of (release, draws) of OpenDP's combinator matches
    Algorithm 2 at this stop probability and rejects it at g. For g = 0.2 this is 0.989; for g <= 0.05 it exceeds
    1 - 1e-8: the combinator stops after the first failed candidate. Privacy is unaffected (Liu and Talwar's 2 eps
    holds for every stop probability); utility is (failure rate ~ 1 - p1). The map is an involution, so asking for
    ``opendp_effective_stop_probability(g)`` yields g, where that is < 1 in floating point (g > ~0.03).

    Args:
        stop_probability: the stop probability g passed to ``make_select_private_candidate``, in (0, 1).

    Returns:
        float in (0, 1]: the stop probability the combinator uses.

    Raises:
        ValueError: if stop_probability is not a number in (0, 1) (NaN, inf, a bool included), naming it.

    Example:
        >>> from privtest.opendp import opendp_effective_stop_probability
        >>> round(opendp_effective_stop_probability(0.2), 4)
        0.9887
        >>> round(opendp_effective_stop_probability(opendp_effective_stop_probability(0.2)), 6)  # an involution
        0.2
    """
    _validate.open_unit("stop_probability", stop_probability)
    return -math.expm1(1.0 / math.log1p(-stop_probability))


def _check_calibration(calibration) -> None:

    if not isinstance(calibration, (GlobalCalibration, ExPostCalibration)):
        raise ValueError(
            "calibration must be a GTM calibration (GlobalCalibration, ExPostCalibration, ExactTailCalibration or "
            f"certified_calibration's result); got {calibration!r}."
        )


def _eps_sequence(eps_t) -> list[float]:
    if isinstance(eps_t, (str, bytes)) or not isinstance(eps_t, (Sequence, np.ndarray)) or np.ndim(eps_t) != 1:
        raise ValueError(f"eps_t must be a sequence of numbers (one per step). Found {eps_t!r}.")
    if len(eps_t) == 0:
        raise ValueError("eps_t must hold at least one step. Found an empty sequence.")
    for e in eps_t:
        _validate.nonnegative("eps_t", e)
    return [float(e) for e in eps_t]


def gtm_privacy_loss(calibration, eps_t: Sequence[float]) -> float:
    """Lemma 17's worst transcript loss over T = len(eps_t) steps: L = max_t calibration.max_loss(t, eps_t[t-1]).

    This is :func:`make_gtm`'s map at its calibration distance d_in: eps for Theorem 21 (1/tau1 + 2/tau2 at halting,
    1/tau1 on continuation), max_t (eps_C + C_H eps_t ln(4/beta_t)) for Theorem 23.

    Args:
        calibration: a GTM calibration (:class:`~privtest.gtm.GlobalCalibration`,
            :class:`~privtest.gtm.ExPostCalibration`, :class:`~privtest.calibration.ExactTailCalibration`).
        eps_t: the input privacy eps_t >= 0 (finite) of each step, a non-empty sequence.

    Returns:
        float: the loss L (nats).

    Raises:
        ValueError: naming calibration if it is not a calibration; naming eps_t on an empty sequence, a scalar, or an
            element that is negative, NaN, infinite or a bool; from the calibration, an eps_t outside its range
            (ExPostCalibration needs eps_t > 0).

    Example:
        >>> from privtest import ExPostCalibration, GlobalCalibration
        >>> from privtest.opendp import gtm_privacy_loss
        >>> gtm_privacy_loss(GlobalCalibration(eps=2.0, beta=0.1, theta=1.0, gamma=1.5), [0.25, 0.2])
        2.0
        >>> round(gtm_privacy_loss(ExPostCalibration(eps_C=1.0, beta=0.1, C_H=1.0, gamma=1.5), [0.25, 0.2]), 4)
        2.1143
    """
    _check_calibration(calibration)
    eps = _eps_sequence(eps_t)
    return max(float(calibration.max_loss(t, e)) for t, e in enumerate(eps, start=1))


def ex_post_loss(calibration: ExPostCalibration, eps_t: Sequence[float], halt_step: int) -> float:
    """Theorem 23's ex-post loss of a release: eps_C + C_H eps_t ln(4/beta_t) if the GTM halted at step t = halt_step
    (1 <= t <= len(eps_t)), eps_C if it did not halt (halt_step = 0). Not an OpenDP quantity (module docstring).

    Args:
        calibration: the :class:`~privtest.gtm.ExPostCalibration` the GTM ran with.
        eps_t: the input privacy eps_t >= 0 of each step (as read by :func:`make_gtm`), a non-empty sequence.
        halt_step: the release of :func:`make_gtm`'s measurement: an integer in [0, len(eps_t)] (not a bool).

    Returns:
        float: the realised loss (nats).

    Raises:
        ValueError: naming calibration if it is not an ExPostCalibration; naming eps_t as
            :func:`gtm_privacy_loss`; naming halt_step if it is not an integer in [0, len(eps_t)] (a bool, NaN or a
            fraction included).

    Example:
        >>> from privtest import ExPostCalibration
        >>> from privtest.opendp import ex_post_loss
        >>> cal = ExPostCalibration(eps_C=1.0, beta=0.1, C_H=1.0, gamma=1.5)
        >>> ex_post_loss(cal, [0.25, 0.2], 0)  # no halt: eps_C
        1.0
        >>> round(ex_post_loss(cal, [0.25, 0.2], 2), 4)
        2.1143
    """
    if not isinstance(calibration, ExPostCalibration):
        raise ValueError(f"calibration must be an ExPostCalibration (Theorem 23). Found {calibration!r}.")
    eps = _eps_sequence(eps_t)
    T = len(eps)
    t = _validate.integer("halt_step", halt_step, 0)
    if t > T:
        raise ValueError(f"halt_step must be an integer in [0, {T}]. Found {halt_step!r}.")
    if t == 0:
        return float(calibration.eps_C)
    return float(calibration.max_loss(t, eps[t - 1]))


@dataclass(frozen=True)
class _Step:
    """One M_t as the GTM runs it: the measurement of one evaluation (a factory's ``make_count(1)``), the factory
    (None: one OpenDP call per evaluation), eps_t and delta_t at d_in, and the purification crossover phi (0: pure)."""

    t: int
    single: object
    factory: Callable | None
    pure: bool
    eps: float
    delta: float
    phi: float

    def eps_at(self, d) -> float:
        """e_t(d): the pure guarantee of one (purified) evaluation at input distance d (module docstring)."""
        value = self.single.map(d)
        if self.pure:
            e = float(value)
            if math.isnan(e) or e < 0:
                raise ValueError(f"measurement {self.t}: map({d!r}) must be >= 0. Found {value!r}.")
            return e
        e, delta = _eps_delta(value, self.t, d)
        if (e, delta) == (self.eps, self.delta):
            return self.eps  # Lemma 24(3): phi >= delta_t/(e^eps_t - 1 + 2 delta_t)
        if delta == 0:
            g = 0.0
        elif self.phi == 0:
            return math.inf  # pure at d_in without a channel: no pure bound where delta > 0
        else:  # Lemma 24(2): delta <= phi (e^g - 1 + 2 delta) iff g >= ln(1 + delta (1 - 2 phi)/phi)
            g = math.nextafter(math.log1p(delta * (1.0 - 2.0 * self.phi) / self.phi * _SAFE), math.inf)
            if delta <= self.delta:  # g is then <= eps_t exactly (the same inequality at d_in)
                g = min(g, self.eps)
        bound = max(e, g)
        if self.phi > 0:  # the channel's outputs have probabilities in [phi, 1 - phi]
            bound = min(bound, math.nextafter(math.log((1.0 - self.phi) / self.phi) * _SAFE, math.inf))
        return bound


def _eps_delta(value, t, d) -> tuple[float, float]:
    try:
        e, delta = (float(v) for v in value)
    except (TypeError, ValueError):
        raise ValueError(f"measurement {t}: map({d!r}) must be a pair (eps, delta). Found {value!r}.") from None
    if not (math.isfinite(e) and e >= 0 and 0 <= delta <= 1):
        raise ValueError(
            f"measurement {t}: map({d!r}) must be (eps, delta), eps >= 0 finite, delta in [0, 1]. Found {value!r}."
        )
    return e, delta


def _refuse_measure(dp, measure, t: int, factory: bool) -> None:
    """A ValueError naming measurements that says what to do with a measure make_gtm does not take."""
    wrap = " (for a counting factory, wrap each make_count(n) so)" if factory else ""
    base = (
        f"measurements: item {t} has output measure {measure}; make_gtm takes pure DP (max_divergence) and "
        "(eps, delta)-DP (approximate(max_divergence)) measurements, which it purifies (Lemma 24, Corollary 25)."
    )
    if measure in (dp.zero_concentrated_divergence(), dp.approximate(dp.zero_concentrated_divergence())):
        raise ValueError(
            base + " Convert a zCDP measurement m to (eps, delta)-DP first: "
            f"dp.c.make_fix_delta(dp.c.make_zCDP_to_approxDP(m), delta){wrap}, then pass that."
        )
    if measure in (dp.smoothed_max_divergence(), dp.approximate(dp.smoothed_max_divergence())):
        raise ValueError(base + f" Fix a delta first: dp.c.make_fix_delta(m, delta){wrap}, then pass that.")
    raise ValueError(base)


def _read_steps(dp, measurements, d_in) -> list[_Step]:
    """Validate the stream and d_in and read eps_t, delta_t (and phi_t) at d_in: every refusal is a ValueError naming
    measurements or d_in, raised here, at construction."""
    if isinstance(measurements, (str, bytes, dp.Measurement)) or not isinstance(measurements, Sequence):
        raise ValueError(
            "measurements must be a sequence (list or tuple) of OpenDP measurements or counting factories. "
            f"Found {measurements!r}."
        )
    items = list(measurements)
    if not items:
        raise ValueError("measurements must hold at least one OpenDP measurement. Found an empty sequence.")
    _validate.positive("d_in", d_in)
    pure_measure, approx_measure = dp.max_divergence(), dp.approximate(dp.max_divergence())
    steps, first = [], None
    for t, item in enumerate(items, start=1):
        factory = None
        if isinstance(item, dp.Measurement):
            single = item
        elif callable(item):
            factory, single = item, item(1)
            if not isinstance(single, dp.Measurement):
                raise ValueError(
                    f"measurements: item {t} is a callable but not a counting factory: make_count(1) must return an "
                    f"OpenDP measurement. Found {single!r}."
                )
        else:
            raise ValueError(
                f"measurements: item {t} must be an OpenDP measurement or a counting factory n -> measurement. "
                f"Found {item!r}."
            )
        if first is None:
            first = single
        elif single.input_domain != first.input_domain or single.input_metric != first.input_metric:
            raise ValueError(f"measurements: item {t} must share the input domain and metric of measurement 1.")
        measure = single.output_measure
        if measure not in (pure_measure, approx_measure):
            _refuse_measure(dp, measure, t, factory is not None)
        try:
            value = single.map(d_in)
        except TypeError as exc:  # OpenDP's conversion of d_in to the metric's distance type, before any map runs
            raise ValueError(
                f"d_in must be a distance OpenDP accepts for the input metric {single.input_metric} (a Python int, or "
                f"a float for a float metric; numpy integers are refused as OpenDP refuses them). Found {d_in!r} "
                f"({type(d_in).__name__}): {str(exc).splitlines()[0]}"
            ) from None
        except dp.OpenDPException as exc:
            raise ValueError(f"measurements: item {t}'s map refused d_in = {d_in!r}: {exc}") from None
        if measure == pure_measure:
            eps, delta = float(value), 0.0
            if not (math.isfinite(eps) and eps >= 0):
                raise ValueError(f"measurements: item {t} must have a finite eps_t = map(d_in) >= 0. Found {value!r}.")
            phi = 0.0
        else:
            eps, delta = _eps_delta(value, t, d_in)
            if delta >= 1 or (delta > 0 and eps == 0):
                raise ValueError(
                    f"measurements: item {t} is ({eps!r}, {delta!r})-DP at d_in; Lemma 24 purifies only eps > 0 and "
                    "delta < 1 (at eps = 0 the channel would release a fair coin)."
                )
            # phi rounded up: a larger crossover keeps Lemma 24(2)'s inequality (pure eps_t-DP) and stays <= 1/2
            phi = min(0.5, math.nextafter(purification_phi(eps, delta) * _SAFE, 1.0)) if delta > 0 else 0.0
        steps.append(_Step(t, single, factory, measure == pure_measure, eps, delta, phi))
    return steps


def purification_shifts(measurements: Sequence, d_in=1) -> list[float]:
    """The crossover phi_t with which :func:`make_gtm` purifies each measurement (Lemma 24(3), Corollary 25):
    delta_t/(e^eps_t - 1 + 2 delta_t) rounded up, for (eps_t, delta_t) = M_t.map(d_in); 0 for a pure M_t.

    The GTM then tests the purified success probability p~_t = p_t + phi_t (1 - 2 p_t), within phi_t < delta_t/eps_t of
    p_t, so Corollary 25 shifts its accuracy guarantees by phi_t: it halts at every step where p_t >= p*_t + phi_t and
    continues past every step where p_t <= pbar_t - phi_t (privacy and the number of evaluations are unchanged). To
    halt whenever p_t >= q, pass p*_t = q - phi_t.

    Args:
        measurements: as :func:`make_gtm`'s (OpenDP measurements or counting factories).
        d_in: the input distance at which (eps_t, delta_t) are read, a number > 0 of the type the measurements' maps
            accept (module docstring).

    Returns:
        list of T floats in [0, 1/2].

    Raises:
        ValueError: as :func:`make_gtm` for measurements and d_in.

    Example:
        >>> import opendp.prelude as dp
        >>> from privtest.opendp import purification_shifts
        >>> dp.enable_features("contrib", "honest-but-curious")
        >>> space = dp.atom_domain(T=float, nan=False), dp.absolute_distance(T=float)
        >>> gauss = space >> dp.m.then_gaussian(scale=2.0) >> dp.new_function(lambda v: v > 0.0, TO=bool)  # zCDP
        >>> approx = dp.c.make_fix_delta(dp.c.make_zCDP_to_approxDP(gauss), 1e-7)  # (eps, delta)-DP
        >>> eps, delta = approx.map(1.0)
        >>> [phi] = purification_shifts([approx], d_in=1.0)
        >>> 0 < phi < delta / eps
        True
    """
    dp = _opendp()
    return [s.phi for s in _read_steps(dp, measurements, d_in)]


class _Evaluations(Mechanism):
    """M_t bound to the data x (Definition 1, counted): n evaluations are n OpenDP calls, or one call of the counting
    factory's ``make_count(n)``."""

    def __init__(self, step: _Step, x):
        self.step, self.x, self.eps, self.delta = step, x, step.eps, step.delta

    def count_plus(self, n, rng):
        n_arr = np.asarray(n, dtype=np.int64)
        out = np.empty(n_arr.shape, dtype=np.int64)
        for idx, ni in np.ndenumerate(n_arr):
            out[idx] = self._count(int(ni)) if ni > 0 else 0
        return out

    def _count(self, n: int) -> int:
        step = self.step
        if step.factory is None:
            return sum(_plus_one(step.single(self.x)) for _ in range(n))
        m = step.factory(n)
        if (
            not isinstance(m, type(step.single))
            or m.input_domain != step.single.input_domain
            or m.input_metric != step.single.input_metric
        ):
            raise ValueError(
                f"measurement {step.t}: make_count({n}) must return a measurement on the input domain and metric of "
                f"make_count(1). Found {m!r}."
            )
        k = m(self.x)
        if isinstance(k, (bool, np.bool_)) or not isinstance(k, numbers.Integral) or not 0 <= k <= n:
            raise ValueError(f"measurement {step.t}: make_count({n}) must release an int in [0, {n}]. Found {k!r}.")
        return int(k)


def _plus_one(value) -> bool:
    """An OpenDP release read as a GTM evaluation: True/+1 -> +1, False/-1/0 -> -1; anything else is refused."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if value in (1, -1, 0):
        return value == 1
    raise ValueError(f"a measurement of make_gtm must release a bool or +1/-1. Found {value!r}.")


def _check_admissible(calibration, steps, pstars) -> None:
    """Refuse, at construction, a step the GTM would refuse at release (privtest.gtm's guardrails: E[N_t] = inf or
    pbar_t <= 0), naming the measurement and the largest admissible eps_t at that step."""
    for step, p in zip(steps, pstars, strict=True):
        st = calibration.step(step.t, step.eps, p)
        reason = step_vacuity(st, calibration) if isinstance(st, StepParams) else None
        if reason is not None:
            best = largest_admissible_eps_t(calibration, pstars[: step.t], step.t)
            raise ValueError(
                f"measurements: item {step.t} has eps_t = {step.eps!r} at d_in, which makes step t = {step.t} of the "
                f"GTM vacuous with p*_t = {p!r}: {reason}. The largest admissible eps_t at this step is {best!r}. "
                "Pass allow_vacuous=True only for an analysis that studies such configurations."
            )


def make_gtm(measurements: Sequence, calibration, pstar, *, d_in=1, rng=None, allow_vacuous=False):
    """The GTM (Algorithm 1) over OpenDP measurements, as one pure-DP OpenDP measurement with Lemma 17's map.

    Release on data x: the GTM runs step t = 1, 2, ..., T with M_t(x) (N_t ~ Po(lambda_t) evaluations, K_t of them
    True) and releases the step at which it halts, 0 if none. (eps, delta)-DP measurements are purified by Lemma 24's
    binary symmetric channel (Corollary 25; :func:`purification_shifts`); counting factories make a step's N_t
    evaluations one OpenDP call (the batched path). The module docstring gives the map, the counting factory's
    promise, and how OpenDP's features are left as found.

    Args:
        measurements: T >= 1 items sharing one input domain and input metric, each (a) an OpenDP measurement with
            output measure ``max_divergence`` (pure DP) or ``approximate(max_divergence)`` ((eps, delta)-DP, eps > 0,
            delta < 1 at d_in), releasing a bool or +1/-1 (True / +1 = "M_t(X) = +1"), or (b) a counting factory
            ``make_count``: n -> such a measurement releasing the number of True among n independent evaluations of
            ``make_count(1)`` (module docstring). zCDP measurements are refused (convert them first).
        calibration: :class:`~privtest.gtm.GlobalCalibration`, :class:`~privtest.gtm.ExPostCalibration`,
            :class:`~privtest.calibration.ExactTailCalibration` or the certified calibration's result.
        pstar: acceptance threshold p* in (0, 1), or a sequence p*_t of length T (of the purified M_t, Corollary 25).
        d_in: the input distance at which eps_t = M_t.map(d_in) are read (the neighbouring relation): a number > 0,
            finite, of the type the measurements' maps accept (1 and 1.0 for a float metric; 1 for an integer
            metric; a numpy integer is refused as OpenDP refuses it; default 1).
        rng: the GTM's noise: anything :func:`numpy.random.default_rng` accepts (None: fresh entropy; an int seed, a
            SeedSequence or a Generator); successive releases continue its stream.
        allow_vacuous: False (default) to refuse, at construction, a step that :class:`~privtest.gtm.GTM` would
            refuse at release (E[N_t] = inf or pbar_t <= 0: :func:`privtest.gtm.step_vacuity`); True to run it
            (Lemma 17's map holds for any step; only for analyses that study such configurations).

    Returns:
        opendp Measurement: input domain and metric of the M_t, output measure max_divergence, release an int (the
        halting step, 0 if no step halted), privacy map ``kappa(d) * L`` (module docstring; L at d_in, 0 at d = 0
        for pure M_t).

    Raises:
        ValueError: at construction, naming the argument: measurements (not a sequence, empty, an item that is neither
            a measurement nor a counting factory, mismatched domains / metrics, an unsupported measure, with what to
            do for zCDP, or an (eps, delta) with eps = 0 < delta or delta = 1); calibration (not a calibration);
            pstar (outside (0, 1), NaN, a bool, or a schedule whose length is not T, naming T); d_in (<= 0, NaN, inf,
            a bool, or a type OpenDP's maps refuse); rng (what default_rng refuses); allow_vacuous (not a bool); and
            measurements again for a step the GTM would refuse as vacuous (with the largest admissible eps_t). At
            release, a measurement that breaks its contract raises inside OpenDP's call (an OpenDPException wrapping
            the ValueError).

    Example:
        >>> import opendp.prelude as dp
        >>> from privtest import GlobalCalibration
        >>> from privtest.opendp import make_gtm
        >>> dp.enable_features("contrib", "honest-but-curious")
        >>> records = dp.vector_domain(dp.atom_domain(T=float, nan=False)), dp.symmetric_distance()
        >>> noisy_count = records >> dp.t.then_count() >> dp.m.then_laplace(scale=20.0)  # 1/20-DP
        >>> above = [noisy_count >> dp.new_function(lambda c, th=th: c > th, TO=bool) for th in (1000, -200)]
        >>> gtm = make_gtm(above, GlobalCalibration(1.0, 0.1, 1.0, 2.0), pstar=0.5, rng=0)
        >>> gtm([0.5] * 400), gtm.map(1), gtm.map(0)  # halts at step 2 (Pr[True] = 1 - e^(-30)/2 there)
        (2, 1.0, 0.0)
        >>> gauss = records >> dp.t.then_count() >> dp.m.then_gaussian(scale=100.0)  # zCDP: convert, then purify
        >>> gauss_above = gauss >> dp.new_function(lambda c: c > -300, TO=bool)  # Pr[True] = 1 - Phi(-7)
        >>> approx = dp.c.make_fix_delta(dp.c.make_zCDP_to_approxDP(gauss_above), 1e-9)  # (0.052, 1e-9)-DP
        >>> purified = make_gtm([approx], GlobalCalibration(1.0, 0.1, 1.0, 2.0), pstar=0.5, rng=0)
        >>> purified([0.5] * 400), purified.map(1)
        (1, 1.0)
    """
    dp = _opendp()
    steps = _read_steps(dp, measurements, d_in)
    T = len(steps)
    _check_calibration(calibration)
    _validate.real("pstar", pstar, scalar=False)
    if np.ndim(pstar) > 1 or (np.ndim(pstar) == 1 and len(pstar) != T):
        raise ValueError(
            f"pstar must be a number or a schedule of T = {T} thresholds (one per measurement); a schedule of other "
            f"length would run steps the privacy map does not cover. Found shape {np.shape(pstar)}."
        )
    for x in np.atleast_1d(np.asarray(pstar, dtype=object)):
        _validate.open_unit("pstar", x)
    pstars = [float(x) for x in np.broadcast_to(np.asarray(pstar, dtype=float), (T,))]
    L = gtm_privacy_loss(calibration, [s.eps for s in steps])
    gen = _validate.generator(rng)
    if not isinstance(allow_vacuous, (bool, np.bool_)):
        raise ValueError(f"allow_vacuous must be True or False. Found {allow_vacuous!r}.")
    allow_vacuous = bool(allow_vacuous)
    if not allow_vacuous:
        _check_admissible(calibration, steps, pstars)

    def function(x):
        gtm = GTM(calibration, gen, allow_vacuous=allow_vacuous)
        for step, p in zip(steps, pstars, strict=True):
            m = _Evaluations(step, x)
            if step.phi > 0:  # Lemma 24: the channel's coins from the GTM's generator (binomials per count)
                m = Purified(m, phi=step.phi)
            if gtm.step(m, p):
                return step.t
        return 0

    def privacy_map(d):
        kappa = 0.0
        for step in steps:
            e = step.eps_at(d)
            if e == 0:
                continue
            if step.eps == 0:
                raise ValueError(f"measurement {step.t} has eps_t = 0 at d_in but a positive map at distance {d!r}.")
            kappa = max(kappa, 1.0 if e == step.eps else math.nextafter(e / step.eps, math.inf))
        if kappa == 0:
            return 0.0
        return L if kappa == 1.0 else math.nextafter(kappa * L, math.inf)

    first = steps[0].single
    with _features_enabled(dp, _FEATURES):
        return dp.m.make_user_measurement(
            first.input_domain, first.input_metric, dp.max_divergence(), function, privacy_map, TO=int
        )
