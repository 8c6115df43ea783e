"""OpenDP interoperability (optional dependency group ``opendp``: ``pip install privtest[opendp]``).

:func:`make_gtm` wraps the GTM (Algorithm 1) over a sequence of OpenDP measurements M_1..M_T (each eps_t-DP, binary
output, one input domain and metric) as **one** OpenDP measurement, so that it composes with OpenDP's accounting
(``dp.c.make_composition``, chaining, ``check``). Its release is the halting step (0 = no halt within T).

Privacy map (Lemma 17, generalised to any input distance). Let eps_t = M_t.map(d_in) at the calibration distance
``d_in`` (the GTM is run with these eps_t) and L = max_{t <= T} ``calibration.max_loss(t, eps_t)``: Lemma 17's
worst transcript loss, 1/tau1 + 2/tau2 = eps for Theorem 21 (and the exact-tail and certified calibrations, which keep
its noise), max_t (eps_C + C_H eps_t ln(4/beta_t)) for Theorem 23. For inputs at distance d, every M_t is
M_t.map(d)-DP, i.e. p_t <= e^{kappa eps_t} p'_t with kappa(d) = max_t M_t.map(d) / eps_t. In the proof of Lemma 17,
Lemma 15's unit shift of z becomes a shift by kappa (lambda_t(z + kappa) = e^{kappa eps_t} lambda_t(z)) and the
density shifts become f_1(u - kappa) = e^{kappa/tau1} f_1(u), f_2,t(v - 2 kappa) = e^{2 kappa/tau2_t} f_2,t(v), so

    map(d) = kappa(d) * L,   map(d_in) = L exactly (kappa = 1).

For d != d_in the product is rounded up (``math.nextafter``), as OpenDP's own maps round in the safe direction.

Where OpenDP cannot express Theorem 23. An OpenDP measurement's privacy map is a function of the input distance only
(d_in -> d_out), so it cannot state Theorem 23's *ex-post* guarantee, whose loss eps_C + C_H eps_t ln(4/beta_t)
depends on the released halting step t (continuation costs eps_C). OpenDP's odometers account for queries whose maps
the analyst submits before they run, not for a loss read off the mechanism's random output, so they do not express it
either. With an :class:`~privtest.gtm.ExPostCalibration` the map is therefore the worst case over transcripts of at
most T steps (the ex-post loss of halting at the step with the largest loss); the realised ex-post loss of a release
is :func:`ex_post_loss` (a value outside OpenDP's accounting).

Inputs with (eps, delta) guarantees are refused: purify them first (:class:`privtest.Purified`, Lemma 24), which
OpenDP 0.16 does not offer as a combinator for binary outputs.

Randomness: the GTM's noise comes from a numpy Generator (``rng``); OpenDP's own samplers draw from the operating
system and cannot be seeded.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from privtest import _validate
from privtest.gtm import GTM, ExPostCalibration
from privtest.mechanisms import Mechanism

__all__ = [
    "OPENDP_SELECTION_FACTOR",
    "ex_post_loss",
    "gtm_privacy_loss",
    "make_gtm",
    "opendp_effective_stop_probability",
]

#: OpenDP's ``make_select_private_candidate`` maps d_in to 2 * (the candidate measurement's map): Liu and Talwar's
#: Theorem 3.1 with a known threshold and no cap on the number of candidates (Lemma 34(1) with eps_0 -> 0).
#: ``tests/test_opendp.py`` checks this value against OpenDP itself.
OPENDP_SELECTION_FACTOR = 2.0


def _opendp():
    """opendp.prelude with the features :func:`make_gtm` needs (imported lazily: the rest of this module is plain
    math). make_user_measurement is "honest-but-curious": valid only if the map is a true bound (Lemma 17 above)."""
    try:
        import opendp.prelude as dp
    except ImportError as exc:  # pragma: no cover - exercised only without the optional group
        raise ImportError("privtest.opendp.make_gtm needs OpenDP: pip install 'privtest[opendp]'") from exc
    dp.enable_features("contrib", "honest-but-curious")
    return dp


def opendp_effective_stop_probability(stop_probability: float) -> float:
    """The stop probability per failed candidate that OpenDP 0.16.0's ``make_select_private_candidate`` actually uses
    when asked for ``stop_probability`` = g: 1 - exp(1 / ln(1 - g)).

    OpenDP documents "each time a score is below threshold the algorithm may terminate with probability
    stop_probability" (Liu and Talwar's Algorithm 1 = the paper's Algorithm 2 without a cap). Its code draws the number
    of tolerated failures as ``sample_geometric_exp_fast(-1 / ln(1 - g))``, and that sampler returns a
    Geometric(1 - exp(-x)) variate for *rate* x: the continuation probability per failure is exp(1/ln(1 - g)), not
    1 - g (the scale is passed where the rate is expected). Measured in ``tests/test_opendp.py``: the law of
    (release, draws) of OpenDP's combinator matches Algorithm 2 at this stop probability and rejects it at g. For
    g = 0.2 this is 0.989; for g <= 0.05 it exceeds 1 - 1e-8: the combinator stops after the first failed candidate.
    Privacy is unaffected (Liu and Talwar's 2 eps holds for every stop probability); utility is (failure rate ~ 1 - p1).
    The map is an involution, so asking for ``opendp_effective_stop_probability(g)`` yields g, where that is < 1 in
    floating point (g > ~0.03).

    Raises:
        ValueError: if stop_probability is outside (0, 1).
    """
    _validate.open_unit("stop_probability", stop_probability)
    return -math.expm1(1.0 / math.log1p(-stop_probability))


def _plus_one(value) -> bool:
    """An OpenDP release read as a GTM evaluation: True/+1 -> +1, False/-1/0 -> -1; anything else is refused."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if value in (1, -1, 0):
        return value == 1
    raise ValueError(f"a measurement of make_gtm must release a bool or +1/-1. Found {value!r}.")


class _BoundMeasurement(Mechanism):
    """M_t bound to the data x: each evaluation is one call of the OpenDP measurement (one release)."""

    def __init__(self, measurement, x, eps_t: float):
        self.measurement, self.x, self.eps, self.delta = measurement, x, float(eps_t), 0.0
        self.evaluations = 0

    def count_plus(self, n, rng):
        rng = _validate.generator(rng)
        n_arr = np.asarray(n, dtype=np.int64)
        out = np.empty(n_arr.shape, dtype=np.int64)
        for idx, ni in np.ndenumerate(n_arr):
            out[idx] = sum(_plus_one(self.measurement(self.x)) for _ in range(int(ni)))
            self.evaluations += int(ni)
        return out


def _eps_list(measurements, d_in) -> list[float]:
    eps = [float(m.map(d_in)) for m in measurements]
    for t, e in enumerate(eps, start=1):
        if not (math.isfinite(e) and e >= 0):
            raise ValueError(f"measurement {t} must have a finite eps_t = map(d_in) >= 0. Found {e!r}.")
    return eps


def gtm_privacy_loss(calibration, eps_t: Sequence[float]) -> float:
    """L = max_t calibration.max_loss(t, eps_t[t-1]): Lemma 17's worst transcript loss over the T = len(eps_t) steps.

    Raises:
        ValueError: on an empty sequence, or (from the calibration) an eps_t outside its range.
    """
    if len(eps_t) == 0:
        raise ValueError("eps_t must hold at least one step.")
    return max(float(calibration.max_loss(t, e)) for t, e in enumerate(eps_t, start=1))


def ex_post_loss(calibration: ExPostCalibration, eps_t: Sequence[float], halt_step: int) -> float:
    """Theorem 23's ex-post loss of a release: eps_C + C_H eps_t ln(4/beta_t) if the GTM halted at step t = halt_step
    (1 <= t <= len(eps_t)), eps_C if it did not halt (halt_step = 0). Not an OpenDP quantity (module docstring).

    Raises:
        ValueError: if halt_step is outside 0..len(eps_t).
    """
    T = len(eps_t)
    if int(halt_step) != halt_step or not (0 <= halt_step <= T):
        raise ValueError(f"halt_step must be an integer in [0, {T}]. Found {halt_step!r}.")
    if halt_step == 0:
        return float(calibration.eps_C)
    t = int(halt_step)
    return float(calibration.max_loss(t, eps_t[t - 1]))


def make_gtm(measurements: Sequence, calibration, pstar, *, d_in=1, rng=None):
    """The GTM over OpenDP measurements, as one OpenDP measurement (module docstring).

    Args:
        measurements: T >= 1 OpenDP measurements with output measure ``max_divergence`` (pure DP), one input
            domain and input metric, each releasing a bool or +1/-1 (True / +1 = "M_t(X) = +1").
        calibration: :class:`~privtest.gtm.GlobalCalibration`, :class:`~privtest.gtm.ExPostCalibration`,
            :class:`~privtest.calibration.ExactTailCalibration` or the certified calibration's result.
        pstar: acceptance threshold p* in (0, 1), or a sequence p*_t of length T.
        d_in: the input distance at which eps_t = M_t.map(d_in) are read (the neighbouring relation; default 1).
        rng: the GTM's noise: anything :func:`numpy.random.default_rng` accepts (None: fresh entropy; an int seed, a
            SeedSequence or a Generator).

    Returns:
        opendp Measurement: input domain and metric of the M_t, output measure max_divergence, release an int (the
        halting step, 0 if no step halted), privacy map ``kappa(d) * L`` (module docstring).

    Raises:
        ValueError: on an empty sequence, mismatched domains / metrics, a measure other than max_divergence, an
            eps_t = 0 paired with a positive map at some distance, p* outside (0, 1), or a p* schedule whose length is
            not T (naming T).
    """
    dp = _opendp()
    ms = list(measurements)
    if not ms:
        raise ValueError("measurements must hold at least one OpenDP measurement.")
    first = ms[0]
    for t, m in enumerate(ms, start=1):
        if m.input_domain != first.input_domain or m.input_metric != first.input_metric:
            raise ValueError(f"measurement {t} must share the input domain and metric of measurement 1.")
        if m.output_measure != dp.max_divergence():
            raise ValueError(
                f"measurement {t} must be pure DP (max_divergence); found {m.output_measure}. Purify (eps, delta) "
                "inputs first (privtest.Purified, Lemma 24)."
            )
    T = len(ms)
    _validate.real("pstar", pstar, scalar=False)
    if np.ndim(pstar) > 1 or (np.ndim(pstar) == 1 and len(pstar) != T):
        raise ValueError(
            f"pstar must be a number or a schedule of T = {T} thresholds (one per measurement); a schedule of other "
            f"length would run steps the privacy map does not cover. Found shape {np.shape(pstar)}."
        )
    pstars = [float(x) for x in np.broadcast_to(np.asarray(pstar, dtype=float), (T,))]
    for x in pstars:
        _validate.open_unit("pstar", x)
    eps_t = _eps_list(ms, d_in)
    L = gtm_privacy_loss(calibration, eps_t)
    gen = _validate.generator(rng)

    def function(x):
        gtm = GTM(calibration, gen)
        for t, (m, e) in enumerate(zip(ms, eps_t, strict=True), start=1):
            if gtm.step(_BoundMeasurement(m, x, e), pstars[t - 1]):
                return t
        return 0

    def privacy_map(d):
        kappa = 0.0
        for m, e in zip(ms, eps_t, strict=True):
            md = float(m.map(d))
            if e == 0:
                if md > 0:
                    raise ValueError("a measurement with eps_t = 0 at d_in has a positive map at this distance.")
                continue
            k = md / e
            kappa = max(kappa, k if md == e else math.nextafter(k, math.inf))
        if kappa == 1.0:
            return L
        return math.nextafter(kappa * L, math.inf) if kappa > 0 else 0.0

    return dp.m.make_user_measurement(
        first.input_domain, first.input_metric, dp.max_divergence(), function, privacy_map, TO=int
    )
