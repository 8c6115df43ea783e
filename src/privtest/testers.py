"""The interface every generalized private tester implements (:class:`Tester`), and the GTM as a tester with any of
its calibrations (:class:`GTMTester`: Theorem 21, Theorem 23, and the exact-tail and certified calibrations of
:mod:`privtest.calibration`).

A tester is configured for a fixed stream length T, acceptance threshold p* and input privacy eps_1. It carries its
guarantees as values, each with the theorem it comes from (privacy, Type I / Type II / whole-run error bounds, the
rejection threshold pbar(t), the threshold halt_p(t) at which halting is guaranteed, per-step and amortized sample
bounds), runs many independent copies at once (``run``), and simulates Bernoulli inputs exactly, coupled across p
(``critical_p``, used by :mod:`privtest.measure`). Every member exists for every tester: where one has no meaning
for a tester it returns the documented value (NaN, inf) and its docstring says why, so callers never probe.

Testers by name (for the experiments' ``methods``): :data:`privtest_artifact.registry.FACTORIES`. The baselines of
Section 9
and AboveThreshold implement this interface in :mod:`privtest.baselines`.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import math
from abc import ABC, abstractmethod
from dataclasses import dataclass, field

import numpy as np

from privtest import _validate
from privtest.bounds import Privacy, RequirementError
from privtest.calibration import ExactTailCalibration, certified_calibration
from privtest.exact import Stream, transcript_log_probs
from privtest.gtm import (
    ExPostCalibration,
    GlobalCalibration,
    StepParams,
    VacuousConfigurationError,
    check_admissible,
    checked_exp,
    sample_bound,
    sample_budget,
)
from privtest.measure import CriticalP, blocks
from privtest.mechanisms import BernoulliMechanism, Mechanism
from privtest.runs import halting_probability, run_streams

__all__ = [
    "GTMTester",
    "StationaryTester",
    "Tester",
    "VacuousTesterError",
    "bernoulli_stream",
    "gtm_certified_tester",
    "gtm_exact_tail_tester",
    "gtm_expost_tester",
    "gtm_tester",
]

#: The interface's arguments, checked (and converted: integral floats to int, seeds to Generators) for every tester
#: before its own code runs (:meth:`Tester.__init_subclass__`).
_ARGUMENT_CHECKS = {
    "t": lambda v: _validate.step_index(v, "t"),
    "T": lambda v: _validate.step_index(v, "T"),
    "runs": lambda v: _validate.step_index(v, "runs"),
    "p": lambda v: (_validate.interval("p", v, 0.0, 1.0, lo_open=False, hi_open=False, scalar=False), v)[1],
    "rng": _validate.generator,
}
_CHECKED_METHODS = (
    "pbar",
    "halt_p",
    "sample_bound",
    "sample_budget",
    "expected_samples",
    "amortized_sample_bound",
    "run",
    "critical_p",
    "halts_at_step",
)


def _checked(method):
    """``method`` with its interface arguments (t, T, runs, p, rng) validated and converted first (ValueError naming
    the argument), and for ``run`` the stream admitted by :meth:`Tester.admit`."""
    params = list(inspect.signature(method).parameters)[1:]
    names = [n for n in params if n in _ARGUMENT_CHECKS or (method.__name__ == "run" and n == "mechanisms")]

    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        args = list(args)
        for name in names:
            i = params.index(name)
            check = self.admit if name == "mechanisms" else _ARGUMENT_CHECKS[name]
            if name in kwargs:
                kwargs[name] = check(kwargs[name])
            elif i < len(args):
                args[i] = check(args[i])
        return method(self, *args, **kwargs)

    return wrapper


class Tester(ABC):
    """A generalized private tester (Definition 2) for a stream of T mechanisms: every member below is owed.

    Conventions: t is a step index (1 <= t; the guarantees are stated for t <= T), T a stream length >= 1, p a
    success probability Pr[M_t = +1]. A "Type I error" is halting at a step with p_t <= pbar(t), a "Type II error"
    not halting at the first step with p_t >= halt_p(t) (Definition 13). Implementations are frozen dataclasses
    whose ``name`` and ``source`` fields have defaults.

    Every implementation's interface methods check their arguments the same way, before their own code runs: t
    and T integers >= 1 (integral floats converted once), runs an integer >= 1, p in [0, 1], rng anything
    :func:`numpy.random.default_rng` accepts (ValueError naming the argument; see :meth:`__init_subclass__`), and
    ``run`` admits only streams its privacy statement covers (:meth:`admit`).

    Example:
        >>> tester = GTMTester(GlobalCalibration(1.0, 0.05, 1.0, 1.5), pstar=0.5, eps1=0.1, T=10)
        >>> isinstance(tester, Tester), tester.halt_p(3), tester.error_bound
        (True, 0.5, 0.05)
    """

    #: Stream length the tester's guarantees are stated for (None: any length; the testers below all have one).
    T: int | None = None

    @property
    def eps_t_limit(self) -> float | None:
        """The largest eps a stream's mechanism may promise: the input privacy eps_1 the tester was calibrated for.
        None here (not checked: AboveThreshold's inputs are query values); every tester with an eps_1 returns it."""
        return None

    def admit(self, mechanisms) -> list:
        """The stream ``mechanisms`` as a list if the tester's privacy statement covers it: at most T mechanisms, each
        promising eps <= :attr:`eps_t_limit` (:func:`privtest._validate.admit_stream`).

        Raises:
            ValueError: naming T (a longer stream) or eps_t (a mechanism above the calibrated eps_t).
        """
        return _validate.admit_stream(mechanisms, self.T, self.eps_t_limit, what=f"{self.name} tester")

    def __init_subclass__(cls, **kwargs):
        """Wrap the interface methods a subclass defines so that t, T, runs and p are validated first."""
        super().__init_subclass__(**kwargs)
        for name in _CHECKED_METHODS:
            method = cls.__dict__.get(name)  # defined by this class itself (never an inherited, wrapped one)
            if callable(method):
                setattr(cls, name, _checked(method))

    @property
    @abstractmethod
    def name(self) -> str:
        """Display name (the key of :data:`privtest_artifact.registry.FACTORIES` for registered testers)."""

    @property
    @abstractmethod
    def source(self) -> str:
        """The paper's result the tester's guarantees come from (e.g. "Thm 21")."""

    @property
    @abstractmethod
    def privacy(self) -> Privacy:
        """The output privacy of a run of at most T steps (worst case over transcripts)."""

    @property
    @abstractmethod
    def parameters(self) -> dict:
        """The tester's free parameters besides (eps, beta, p*, eps_1, T), by name (e.g. theta, gamma)."""

    @property
    @abstractmethod
    def type1_bound(self) -> float:
        """Probability of some Type I error (a halt at a step with p_t <= pbar(t)) in a run of T steps."""

    @property
    @abstractmethod
    def type2_bound(self) -> float:
        """Probability of some Type II error (no halt at a step with p_t >= halt_p(t)) in a run of T steps."""

    @property
    @abstractmethod
    def error_bound(self) -> float:
        """Probability of any Type I or Type II error in a run of T steps (global accuracy)."""

    @abstractmethod
    def pbar(self, t: int) -> float:
        """Rejection threshold at step t: the tester continues (w.h.p., see :attr:`type1_bound`) when p_t <= pbar(t)."""

    @abstractmethod
    def halt_p(self, t: int) -> float:
        """Smallest p_t at which the tester's theorem guarantees halting at step t (inf: at no p in [0, 1])."""

    @abstractmethod
    def sample_bound(self, t: int) -> float:
        """Bound on the evaluations N_t of M_t at step t, holding except with probability :meth:`sample_budget`."""

    @abstractmethod
    def sample_budget(self, T: int) -> float:
        """Probability that N_t exceeds :meth:`sample_bound` at some step t <= T (0 for a deterministic bound)."""

    @abstractmethod
    def expected_samples(self, t: int) -> float:
        """Expected evaluations of M_t at step t, unconditionally over the tester's shared noise: the mean of N_t if
        step t is executed whatever happened before (a run that actually reaches t has continued at steps < t,
        which conditions the shared noise: for the GTM, eta_1 then tends to be larger and N_t smaller for s_t = +1).
        Each implementation says whether its value is exact or an upper bound."""

    @abstractmethod
    def amortized_sample_bound(self, T: int) -> float:
        """Bound on the amortized evaluations N_{<=T}/T of a run of T steps (NaN where no bound is proved)."""

    @abstractmethod
    def run(self, mechanisms, runs: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """Run ``runs`` independent copies on the stream ``mechanisms`` (length T').

        Returns:
            (halt_step, samples): int64 arrays (runs,) (the halting step, 0 = never halted) and (runs, T') (the
            evaluations of M_t per step).
        """

    @abstractmethod
    def critical_p(self, T: int, runs: int, rng: np.random.Generator) -> CriticalP:
        """Exact T-step simulation on Bernoulli(p) inputs with the same p at every step, coupled across all p: each
        run's smallest p at which it halts within T (:class:`privtest.measure.CriticalP`)."""

    @abstractmethod
    def halts_at_step(self, t: int, p, runs: int, rng: np.random.Generator) -> np.ndarray:
        """Monte Carlo: among ``runs`` fresh runs, the number that halt at step t when p_t = p (for each p of the
        array), step t taken in isolation (Init, then step t as if every earlier step had continued).

        Returns:
            int64 array with the shape of ``p`` (counts at different p may share draws).
        """

    @abstractmethod
    def exact_error(self, p, halt_at_T: bool) -> float:
        """Exact probability that a run on the stream ``p`` (shape (T,)) errs: it halts at a step t < T, or at step T it
        halts although ``halt_at_T`` is False (p_T is a continuation step) or does not although ``halt_at_T`` is True
        (p_T is a halting step). NaN where no exact analysis exists."""


class StationaryTester(Tester):
    """A tester whose steps do not depend on the step index (Cohen et al., Liu-Talwar, Ghazi et al., AboveThreshold):
    step t in isolation is a fresh one-step run, which its coupled simulation gives for all p at once.

    Example:
        >>> from privtest.baselines.cohen import CohenTester
        >>> issubclass(CohenTester, StationaryTester)
        True
    """

    def halts_at_step(self, t: int, p, runs: int, rng: np.random.Generator) -> np.ndarray:
        """A fresh run of one step (:meth:`critical_p` with T = 1), coupled across p; the same for every t (validated
        only)."""
        t = _validate.step_index(t)
        return self.critical_p(1, runs, rng).halts(p)


def bernoulli_stream(p, eps1: float) -> list[Mechanism]:
    """Bernoulli input mechanisms with success probabilities ``p`` and privacy eps_1 (simulated inputs, Definition 1).

    Args:
        p: success probabilities in [0, 1], a number or a 1-d array (T,).
        eps1: the privacy each mechanism promises, finite and >= 0.

    Returns:
        list of T :class:`~privtest.mechanisms.BernoulliMechanism`.

    Raises:
        ValueError: naming p or eps1 outside its range.

    Example:
        >>> [m.p for m in bernoulli_stream([0.1, 0.6], 0.1)]
        [0.1, 0.6]
    """
    _validate.interval("p", p, 0.0, 1.0, lo_open=False, hi_open=False, scalar=False)
    _validate.nonnegative("eps1", eps1)
    return [BernoulliMechanism(float(pi), eps1) for pi in np.atleast_1d(np.asarray(p, dtype=float))]


class VacuousTesterError(RequirementError, VacuousConfigurationError):
    """A :class:`GTMTester` configuration with a vacuous step t <= T (:func:`privtest.gtm.step_vacuity`): both a
    :class:`privtest.bounds.RequirementError` (the tester does not apply at these parameters: a comparison reports it
    as not applicable, as Cohen et al. at eps <= 2 eps_1) and a :class:`privtest.gtm.VacuousConfigurationError`.

    Example:
        >>> try:
        ...     GTMTester(GlobalCalibration(1.0, 0.05, 1.0, 1.5), 0.5, 0.5, 10)
        ... except RequirementError as e:
        ...     print(type(e).__name__, str(e).split(":")[0])
        VacuousTesterError eps1 = 0.5
    """


@dataclass(frozen=True)
class GTMTester(Tester):
    """Algorithm 1 with a calibration, as a tester for T eps_1-DP inputs.

    A configuration with a vacuous step t <= T (E[N_t] = inf or pbar_t <= 0, :func:`privtest.gtm.step_vacuity`) is
    refused here, when the tester is built, with the reason and the largest admissible eps_1
    (:func:`privtest.gtm.check_admissible`), unless ``allow_vacuous=True``.

    Args:
        cal: a calibration (:class:`~privtest.gtm.GlobalCalibration`, :class:`~privtest.gtm.ExPostCalibration`,
            :class:`~privtest.calibration.ExactTailCalibration`, or anything with ``tau1``, ``mu1`` and
            ``step(t, eps_t, pstar)``).
        pstar: acceptance threshold p* in (0, 1), or a schedule p*_t of length T (Section 1.5).
        eps1: input privacy eps_1 of every M_t (the calibration's eps_t), finite and > 0.
        T: stream length, integer >= 1.
        name, source: display name and the theorem the guarantees come from (strings).
        allow_vacuous: keyword only; True to build a vacuous configuration anyway (for analyses that study one, e.g.
            a privacy audit, which needs no accuracy guarantee).

    Raises:
        ValueError: naming a parameter outside its range.
        VacuousTesterError: (a RequirementError and a ValueError) naming eps1, for a vacuous configuration.

    Example:
        >>> tester = GTMTester(GlobalCalibration(1.0, 0.05, 1.0, 1.5), pstar=0.5, eps1=0.1, T=10)
        >>> round(tester.pbar(1), 6), tester.privacy.eps
        (0.020748, 1.0)
        >>> GTMTester(GlobalCalibration(1.0, 0.05, 1.0, 1.5), 0.5, 0.5, 10)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        privtest.testers.VacuousTesterError: eps1 = 0.5: step t = 1 of T = 10 of GlobalCalibration(...) is ...
    """

    cal: GlobalCalibration | ExPostCalibration
    pstar: float | tuple[float, ...]
    eps1: float
    T: int
    name: str = "GTM"
    source: str = "Thm 21"
    allow_vacuous: bool = field(default=False, kw_only=True)

    def __post_init__(self):
        object.__setattr__(self, "T", _validate.step_index(self.T, "T"))
        _validate.positive("eps1", self.eps1)
        for attr, value in (("name", self.name), ("source", self.source)):
            if not isinstance(value, str):
                raise ValueError(f"{attr} must be a string. Found {value!r}.")
        object.__setattr__(self, "allow_vacuous", _validate.boolean("allow_vacuous", self.allow_vacuous))
        if np.ndim(self.pstar) == 0:
            _validate.open_unit("pstar", self.pstar)
        else:
            _validate.open_unit("pstar", self.pstar, scalar=False)
            schedule = tuple(float(x) for x in np.asarray(self.pstar, dtype=float))
            if len(schedule) != self.T:
                raise ValueError(f"pstar must be a number or a schedule of length T = {self.T}. Found {len(schedule)}.")
            for x in schedule:
                _validate.open_unit("pstar", x)
            object.__setattr__(self, "pstar", schedule)
        try:
            check_admissible(self.cal, self.eps1, self.pstar, self.T, allow_vacuous=self.allow_vacuous, name="eps1")
        except VacuousConfigurationError as err:
            raise VacuousTesterError(str(err)) from None

    @property
    def eps_t_limit(self) -> float:
        """eps_1: the calibration's steps are computed for eps_t = eps_1; a mechanism promising more is refused."""
        return self.eps1

    def _pstar(self, t: int) -> float:
        """p*_t; a schedule is defined for t <= T only (ValueError beyond)."""
        t = _validate.step_index(t)
        if np.ndim(self.pstar) == 0:
            return self.pstar
        if t > self.T:
            raise ValueError(f"t must be <= T = {self.T} with a p* schedule. Found {t!r}.")
        return self.pstar[t - 1]

    def step(self, t: int) -> StepParams:
        """The calibration's parameters of step t (eps_t = eps_1, p*_t).

        Args:
            t: step index, integer >= 1 (<= T with a p* schedule).

        Returns:
            :class:`~privtest.gtm.StepParams`.

        Raises:
            ValueError: naming t outside its range.
        """
        return self.cal.step(t, self.eps1, self._pstar(t))

    @property
    def privacy(self) -> Privacy:
        """Pure DP with the calibration's worst transcript loss over T steps (Lemma 17): eps for Theorem 21 (and the
        exact-tail calibrations, whose noise is Theorem 21's), eps_C + C_H eps_1 ln(4/beta_T) for Theorem 23."""
        return Privacy(float(self.cal.max_loss(self.T, self.eps1)), 0.0)

    @property
    def parameters(self) -> dict:
        """The calibration's fields other than eps and beta (theta, gamma, variant; C_H for Theorem 23; the budget
        scale of the exact-tail calibrations)."""
        return {k: v for k, v in dataclasses.asdict(self.cal).items() if k not in ("eps", "beta")}

    @property
    def type1_bound(self) -> float:
        """beta: Theorems 21 and 23 bound the probability of any error of either type by beta (global accuracy); the
        certified calibration's exact whole-run error over T steps is <= beta."""
        return self.cal.beta

    @property
    def type2_bound(self) -> float:
        """beta (see :attr:`type1_bound`)."""
        return self.cal.beta

    @property
    def error_bound(self) -> float:
        """beta: the theorems bound both error types together (not the sum of the two)."""
        return self.cal.beta

    def pbar(self, t: int) -> float:
        """Rejection threshold max(p*/(gamma Lambda_t), 1 - gamma Lambda_t (1-p*)) of Theorems 21/23 (one branch for
        a fixed variant; <= 0 means no continuation guarantee at step t)."""
        return self.step(t).pbar

    def halt_p(self, t: int) -> float:
        """p*_t: the GTM halts at every step with p_t >= p*_t (Theorems 21 and 23)."""
        return self._pstar(t)

    def sample_bound(self, t: int) -> float:
        """Lemma 22(1) with the calibration's explicit quantities (:func:`privtest.gtm.sample_bound`)."""
        return sample_bound(self.step(t), self.cal.beta)

    def sample_budget(self, T: int) -> float:
        """Failure probability of :meth:`sample_bound` over steps 1..T (:func:`privtest.gtm.sample_budget`):
        beta/2, plus beta/4 if the flipping rule selects s_t = -1 at some t <= T."""
        return sample_budget((self.step(t) for t in range(1, T + 1)), self.cal.beta)

    def expected_samples(self, t: int) -> float:
        """Exact unconditional E[N_t] = E[lambda_t] over eta_1 and eta_2,t
        (:attr:`privtest.gtm.StepParams.expected_samples`)."""
        return self.step(t).expected_samples

    def amortized_sample_bound(self, T: int) -> float:
        """Lemma 22(2)'s explicit bound 2M/T on N_{<=T}/T (``cal.amortized_bound``; failure probability < beta/2).
        NaN for Theorem 23 (no amortized bound is proved), for a p* schedule (the lemma fixes p*) and when
        sigma = eps/(eps_1 (theta+2)) <= 1."""
        if np.ndim(self.pstar) != 0:
            return math.nan
        return self.cal.amortized_bound(T, self.eps1, self.pstar)[1]

    def run(self, mechanisms, runs, rng):
        """Algorithm 1 on the stream ``mechanisms`` for ``runs`` independent instances, each with its own eta_1
        (:func:`privtest.runs.run_streams` on the stream as a list).

        Args:
            mechanisms: a finite sequence (list, tuple, or any iterable) of T' <= T mechanisms
                (:class:`~privtest.mechanisms.Mechanism`), M_t the t-th; each promises eps <= eps_1 (its ``eps`` is
                step t's eps_t). A function t -> M_t is not accepted here (the stream must be admitted first:
                :meth:`Tester.admit`). With a p* schedule, T' = T.
            runs: number of independent runs, integer >= 1.
            rng: anything :func:`numpy.random.default_rng` accepts.

        Returns:
            (halt_step, samples): int64 arrays (runs,) (the halting step, 0 = never halted within T') and
            (runs, T') (the evaluations N_t of M_t per step, 0 after a halt).

        Raises:
            ValueError: naming T (more than T mechanisms), eps_t (a mechanism promising more than eps_1, or a step
                with E[N_t] = inf at a smaller eps: :func:`privtest.runs.run_streams`), runs or rng.
            TypeError: if ``mechanisms`` is not iterable (e.g. a function t -> M_t).

        Example:
            >>> tester = GTMTester(GlobalCalibration(1.0, 0.05, 1.0, 1.5), 0.5, 0.1, T=3)
            >>> halt, samples = tester.run(bernoulli_stream([0.0, 0.9, 0.9], 0.1), runs=4, rng=0)
            >>> halt.tolist(), samples.shape
            ([2, 2, 2, 2], (4, 3))
        """
        res = run_streams(
            self.cal, list(mechanisms), self.pstar, len(mechanisms), runs, rng, allow_vacuous=self.allow_vacuous
        )
        return res.halt_step, res.samples

    def critical_p(self, T: int, runs: int, rng: np.random.Generator) -> CriticalP:
        """Coupled T-step simulation of Algorithm 1 with this calibration.

        Per run eta_1 ~ Exp(tau1); per step eta_2,t ~ Exp(tau2_t), N_t ~ Po(lambda_t) as in ``gtm.run_step``. Direct
        step (s = +1): halt iff K >= c+1, critical p ~ Beta(c+1, N-c) (inf if N <= c). Flipped step (s = -1, halt iff
        N - K <= c): critical p ~ Beta(N-c, c+1) (0 if N <= c). Steps are drawn in blocks of (steps x runs).
        """
        T = _validate.step_index(T, "T")
        runs = _validate.step_index(runs, "runs")
        if T > self.T:  # steps 1..self.T were admitted when the tester was built; beyond, no guarantee is claimed
            check_admissible(
                self.cal, self.eps1, self.pstar, T, allow_vacuous=self.allow_vacuous, name="eps1", moment_only=True
            )
        cal, eps1 = self.cal, self.eps1
        steps = [self.step(t) for t in range(1, T + 1)]
        log_rho = np.log([st.rho for st in steps])
        c = np.array([st.c for st in steps], dtype=float)
        s = np.array([st.s for st in steps], dtype=float)
        tau2 = np.array([st.tau2 for st in steps])
        eta1 = rng.exponential(cal.tau1, runs)
        p_crit = np.full(runs, np.inf)
        n_sum = np.zeros(runs)
        for t0, t1 in blocks(T, runs):
            i = slice(t0 - 1, t1 - 1)
            ci, si, direct = c[i, None], s[i, None], s[i, None] == 1
            eta2 = rng.exponential(1.0, (t1 - t0, runs)) * tau2[i, None]
            # log_lambda's arithmetic; its argument checks hold here (eta_1, eta_2 >= 0 drawn above, s = +-1)
            N = rng.poisson(checked_exp(log_rho[i, None] + eps1 * (si * (cal.mu1 - eta1[None, :] + eta2))))
            n_sum += N.sum(axis=0)
            valid = N > ci  # N >= c + 1 (direct) and N > c (flipped) are the same test for integers
            rest = N - ci
            a = np.where(direct, ci + 1, rest)
            b = np.where(direct, rest, ci + 1)
            draw = rng.beta(np.where(valid, a, 1.0), np.where(valid, b, 1.0))
            p_t = np.where(valid, draw, np.where(direct, np.inf, 0.0))
            np.minimum(p_crit, p_t.min(axis=0), out=p_crit)
        return CriticalP(p_crit, n_sum / T)

    def halts_at_step(self, t: int, p, runs: int, rng: np.random.Generator) -> np.ndarray:
        """Step t's parameters with a fresh eta_1 per run, independent replications per p
        (:func:`privtest.runs.halting_probability`; a step with E[N_t] = inf is refused unless ``allow_vacuous``)."""
        return halting_probability(self.step(t), p, runs, rng, allow_vacuous=self.allow_vacuous)[0]

    def exact_error(self, p, halt_at_T: bool) -> float:
        """By quadrature (:func:`privtest.exact.transcript_log_probs`): Pr[halt before T] + Pr[no halt by T] when
        ``halt_at_T``, else Pr[any halt within T].

        Raises:
            ValueError: naming p (not a 1-d array of probabilities in [0, 1], at most T of them) or halt_at_T (not a
                bool).
        """
        _validate.interval("p", p, 0.0, 1.0, lo_open=False, hi_open=False, scalar=False)
        _validate.boolean("halt_at_T", halt_at_T)
        p = np.asarray(p, dtype=float)
        if p.ndim != 1 or not 1 <= len(p) <= self.T:
            raise ValueError(f"p must be a 1-d array of 1 to T = {self.T} probabilities. Found shape {p.shape}.")
        R = transcript_log_probs(Stream.from_calibration(self.cal, p, self.eps1, self.pstar))
        if halt_at_T:
            before = np.exp(R.log_halt_within[-2]) if len(p) > 1 else 0.0
            return float(before + np.exp(R.log_continue[-1]))
        return float(np.exp(R.log_halt_within[-1]))


# Factories for :data:`privtest_artifact.registry.FACTORIES`: factory(cfg, pstar, eps_ratio, T) -> Tester, eps_1 = ratio
# * eps. A cfg key ``allow_vacuous: true`` passes the opt-in of :class:`GTMTester` (and of the certified calibration).


def _eps1(cfg: dict, eps_ratio: float) -> float:
    _validate.positive("eps_ratio", eps_ratio)
    return eps_ratio * cfg["eps"]


def _allow_vacuous(cfg: dict) -> bool:
    return _validate.boolean("allow_vacuous", cfg.get("allow_vacuous", False))


def gtm_tester(cfg: dict, pstar, eps_ratio: float, T: int) -> GTMTester:
    """Theorem 21's calibration from cfg keys eps, beta, theta, gamma (optional variant, default "auto", and
    allow_vacuous, default False), as a tester for T steps at eps_1 = eps_ratio * eps.

    Args:
        cfg: the configuration (keys above); pstar: p* in (0, 1) or a schedule of T; eps_ratio: eps_1/eps, finite and
            > 0; T: stream length, integer >= 1.

    Returns:
        :class:`GTMTester`.

    Raises:
        ValueError: naming a parameter outside its range (a missing cfg key is a KeyError).

    Example:
        >>> gtm_tester(dict(eps=1.0, beta=0.05, theta=1.0, gamma=1.5), 0.5, 0.1, 10).cal.tau1
        3.0
    """
    eps1 = _eps1(cfg, eps_ratio)
    cal = GlobalCalibration(cfg["eps"], cfg["beta"], cfg["theta"], cfg["gamma"], cfg.get("variant", "auto"))
    return GTMTester(cal, pstar, eps1, T, allow_vacuous=_allow_vacuous(cfg))


def gtm_expost_tester(cfg: dict, pstar, eps_ratio: float, T: int) -> GTMTester:
    """Theorem 23's calibration from cfg keys eps (its eps_C), beta, C_H, gamma (optional variant, allow_vacuous).

    Args:
        cfg, pstar, eps_ratio, T: as :func:`gtm_tester`.

    Returns:
        :class:`GTMTester` named "GTM ex-post".

    Raises:
        ValueError: naming a parameter outside its range.

    Example:
        >>> t = gtm_expost_tester(dict(eps=1.0, beta=0.05, C_H=2.0, gamma=1.5), 0.5, 0.1, 10)
        >>> t.name, round(t.privacy.eps, 6)
        ('GTM ex-post', 2.924968)
    """
    eps1 = _eps1(cfg, eps_ratio)
    cal = ExPostCalibration(cfg["eps"], cfg["beta"], cfg["C_H"], cfg["gamma"], cfg.get("variant", "auto"))
    return GTMTester(cal, pstar, eps1, T, name="GTM ex-post", source="Thm 23", allow_vacuous=_allow_vacuous(cfg))


def gtm_exact_tail_tester(cfg: dict, pstar, eps_ratio: float, T: int) -> GTMTester:
    """Theorem 21's noise and budgets with exact Poisson tails (:class:`privtest.calibration.ExactTailCalibration`);
    cfg keys as :func:`gtm_tester`.

    Args:
        cfg, pstar, eps_ratio, T: as :func:`gtm_tester`.

    Returns:
        :class:`GTMTester` named "GTM exact tails".

    Raises:
        ValueError: naming a parameter outside its range.

    Example:
        >>> gtm_exact_tail_tester(dict(eps=1.0, beta=0.05, theta=1.0, gamma=1.5), 0.5, 0.1, 10).step(1).c
        143
    """
    eps1 = _eps1(cfg, eps_ratio)
    cal = ExactTailCalibration(cfg["eps"], cfg["beta"], cfg["theta"], cfg["gamma"], cfg.get("variant", "auto"))
    return GTMTester(
        cal, pstar, eps1, T, name="GTM exact tails", source="Thm 21, Lemma 20", allow_vacuous=_allow_vacuous(cfg)
    )


def gtm_certified_tester(cfg: dict, pstar: float, eps_ratio: float, T: int) -> GTMTester:
    """The certified calibration (:func:`privtest.calibration.certified_calibration`): exact tails with per-step
    budgets scaled up while the exact whole-run error within T steps stays <= beta; cfg keys as :func:`gtm_tester`,
    and ``certify_tol`` (default 0.02).

    Args:
        cfg, eps_ratio, T: as :func:`gtm_tester`; pstar: p* in (0, 1) (a number).

    Returns:
        :class:`GTMTester` named "GTM certified".

    Raises:
        ValueError: naming a parameter outside its range; :class:`VacuousTesterError` for a vacuous configuration.

    Example:
        >>> cfg = dict(eps=1.0, beta=0.05, theta=1.0, gamma=1.5, certify_tol=0.5)
        >>> gtm_certified_tester(cfg, 0.5, 0.1, 3).cal.budget_scale > 1
        True
    """
    eps1 = _eps1(cfg, eps_ratio)
    allow = _allow_vacuous(cfg)
    args = (cfg["eps"], cfg["beta"], cfg["theta"], cfg["gamma"], T, eps1, pstar, cfg.get("variant", "auto"))
    try:
        cal, _ = certified_calibration(*args, tol=cfg.get("certify_tol", 0.02), allow_vacuous=allow)
    except VacuousConfigurationError as err:  # named eps_t there: the configuration is this tester's
        raise VacuousTesterError(str(err)) from None
    return GTMTester(
        cal, pstar, eps1, T, name="GTM certified", source="Thm 21 (exact whole-run error)", allow_vacuous=allow
    )
