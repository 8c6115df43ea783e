"""privtest: private testing with the Generalized Thresholding Mechanism (GTM) of "Near-Optimal Generalized Private
Testing" (Chaturvedi, Henzinger, Upadhyay): testers, their calibrations, the mechanisms they test and a black-box
privacy auditor.

Every name below is imported from here, in one line (``from privtest import GTMTester, GlobalCalibration``). The
names are loaded on first use (PEP 562): ``import privtest`` is cheap, and importing one submodule does not execute
the rest of the library. Deeper tools live in their modules, which are attributes of ``privtest`` loaded on first use
as well (``privtest.audit.audit(...)`` after ``import privtest``): :mod:`privtest.audit` (the black-box auditor),
:mod:`privtest.baselines` (the prior-work testers of Section 9), :mod:`privtest.co` (continual observation),
:mod:`privtest.bounds` (Table 1's closed forms), :mod:`privtest.exact` and :mod:`privtest.privacy` (exact transcript
probabilities, privacy verification), :mod:`privtest.measure` (measured rejection thresholds) and
:mod:`privtest.svt_variants` (the sparse-vector variants the auditor is shown on).

Units and the argument contract (docs/library.md): eps, eps_t, eps_C are privacy parameters in nats; beta, delta, p
and ``p*`` are probabilities; t and T count steps (t >= 1); N_t counts evaluations of M_t. Every constructor and
function raises ``ValueError`` naming the parameter and its range on bad input. Every ``rng`` takes what
``numpy.random.default_rng`` takes; integers may be integral floats, never bools or fractions; a tester runs at most
its T steps, on mechanisms promising eps at most the eps_t it was calibrated for, whose counts are 0 <= K <= n.

Example:
    >>> from privtest import BernoulliMechanism, GlobalCalibration, GTMTester
    >>> cal = GlobalCalibration(eps=10.0, beta=0.05, theta=1.0, gamma=1.5)  # Theorem 21
    >>> tester = GTMTester(cal, pstar=0.5, eps1=0.5, T=3)
    >>> stream = [BernoulliMechanism(p, eps=0.5) for p in (0.1, 0.2, 0.9)]  # Pr[M_t = +1] = p
    >>> (halt,), evaluations = tester.run(stream, 1, rng=1)  # one run; halt = 0: no halt within T
    >>> print(halt, tester.privacy)
    3 pure 10-DP

Mechanisms (Definition 1: M_t maps the data to {-1, +1}; ``count_plus(n, rng)`` returns an int64 array shaped like
n):

``Mechanism``
    Abstract base: attributes eps (>= 0) and delta (in [0, 1)); ``count_plus(n, rng)`` counts the +1s among n
    independent evaluations, n an int >= 0 or an int array (one count per entry).
``SampledMechanism(sample, eps, delta=0)``
    A user's black box: ``sample(n, rng)`` returns n outputs in {-1, +1}.
``CountingMechanism(count, eps, delta=0)``
    A user's vectorized black box: ``count(n, rng)`` returns the number of +1s, in [0, n].
``BernoulliMechanism(p, eps, delta=0)``
    A simulated mechanism with Pr[+1] = p in [0, 1] (one binomial draw per count).
``LaplaceThresholdMechanism(value, threshold, eps)``
    sgn(value + Lap(1/eps) - threshold), sensitivity 1 (Corollary 30's reduction).
``Negated(base)``
    -M, the flipped variant of Section 4 (p becomes 1 - p).
``Purified(base, phi=None)``
    Lemma 24's binary symmetric channel: pure eps_t-DP at phi = ``purification_phi(eps, delta)``.
``purify(mechanism)``
    Corollary 25: ``Purified(mechanism)`` if its delta > 0, else the mechanism itself.
``purification_phi(eps, delta)``
    phi = delta / (e^eps - 1 + 2 delta) (Lemma 24(3)), in [0, 1/2].

The GTM (Algorithm 1) and its calibrations (frozen dataclasses with ``step(t, eps_t, pstar)``, the step's
:class:`StepParams`, and ``max_loss(T, eps_t)``, the worst privacy loss of a transcript of at most T steps):

``GlobalCalibration(eps, beta, theta, gamma, variant="auto")``
    Theorem 21: pure eps-DP; eps > 0, beta in (0, 1), theta > 0, gamma in (1, 2], variant "auto" (the flipping
    rule), "direct" or "flipped".
``ExPostCalibration(eps_C, beta, C_H, gamma, variant="auto")``
    Theorem 23: ex-post privacy loss eps_C on continuation, eps_C + C_H eps_t ln(4/beta_t) when halting at step t.
``ExactTailCalibration(eps, beta, theta, gamma, variant="auto", budget_scale=1)``
    Theorem 21's noise and guarantee with exact Poisson tails: fewer evaluations.
``certified_calibration(eps, beta, theta, gamma, T, eps_t, pstar, variant="auto", tol=0.02)``
    The pair (:class:`ExactTailCalibration`, its error): the error over the whole run of T steps is at most beta,
    computed exactly (a finite-horizon guarantee).
``choose_calibration(eps, eps_t, beta, pstar, T)``, ``CalibrationChoice``
    The calibration with the fewest expected evaluations among those that meet the guarantee asked for, with the
    candidates that decided it.
``DEFAULT_THETA``, ``DEFAULT_GAMMA``
    The default split theta and ratio gamma of Theorem 21's calibrations (why these values: :mod:`privtest.gtm`).
``GTM(calibration, rng)``
    One instance: ``step(mechanism, pstar)`` returns whether it halted; attributes t, halted, samples (N_t per
    step), counts (K_t) and params (:class:`StepParams` per step). A step after a halt is a ``RuntimeError``.
``StepParams``
    One step's tau1, mu1, tau2, s, c, rho, log_Lambda, pbar, halt_loss, continue_loss and expected_samples (E[N_t]).
``rejection_threshold(pstar, log_gamma_Lambda)``
    pbar = max(``p*``/(gamma Lambda), 1 - gamma Lambda (1 - ``p*``)), a float or an array.

Testers (Definition 2: each carries its guarantees as values):

``Tester``
    The interface every tester implements: privacy, error bounds, ``pbar(t)``, ``halt_p(t)``, sample bounds,
    ``run`` and ``critical_p``.
``GTMTester(cal, pstar, eps1, T)``
    The GTM as a tester: ``run(mechanisms, runs, rng)`` returns (halt_step, samples), int64 arrays shaped (runs,)
    (0 = no halt within T) and (runs, T); ``privacy`` is a :class:`Privacy`.
``Privacy(eps, delta)``
    An (eps, delta) guarantee, printed as "pure 10-DP" when delta = 0.

Auditing (a Monte Carlo lower confidence bound on the eps of any mechanism; the witness search with a verdict on a
claimed eps is :func:`privtest.audit.audit`, ``audit(sample, pairs, codings, n, rng, claimed_eps=...)``):

``estimate_epsilon(run_a, run_b, n, rng, confidence=0.95)``
    The bound from samples of a mechanism on one pair of neighbouring inputs.
``AuditResult``
    What an audit returns: eps_lower, eps_hat, the chosen event, the counts behind them.
``Coding(name, features, code)``
    How the outputs of a mechanism become integer features for ``privtest.audit.audit``, which searches witness
    input pairs and events.

Poisson thresholds and Definition 7's schedule:

``lambda_left(x, alpha)``, ``lambda_right(x, alpha)``
    Eqs. (3)-(4): Poisson means with Pr[Po <= x] <= alpha above lambda_left and Pr[Po >= x + 1] <= alpha below
    lambda_right (x >= 0, alpha in (0, 1); a float or an array).
``count_threshold(alpha, beta, gamma)``
    Lemma 11: an int c with lambda_left(c, alpha) <= gamma lambda_right(c, beta).
``omega(t)``, ``beta_t(t, beta)``, ``zeta()``
    Definition 7: omega_t (summing to 1 over t >= 1), beta_t = omega_t beta (a float, or an array for an array t)
    and the normalising constant zeta.

OpenDP (the optional extra ``pip install "privtest[opendp]"``):

``make_gtm(measurements, calibration, pstar, d_in=1, rng=None)``
    The GTM over OpenDP measurements as one OpenDP measurement (Lemma 17's privacy map).
"""

import importlib as _importlib

#: Public name -> the module that defines it, in the order of the docstring (``__all__``, ``help`` and the API
#: reference follow it). A literal dict: the workflow's dependency derivation (workflow/lib/privtest_workflow/deps.py)
#: reads it to know which module ``from privtest import name`` executes.
_EXPORTS = {
    "Mechanism": "privtest.mechanisms",
    "SampledMechanism": "privtest.mechanisms",
    "CountingMechanism": "privtest.mechanisms",
    "BernoulliMechanism": "privtest.mechanisms",
    "LaplaceThresholdMechanism": "privtest.mechanisms",
    "Negated": "privtest.mechanisms",
    "Purified": "privtest.mechanisms",
    "purify": "privtest.mechanisms",
    "purification_phi": "privtest.mechanisms",
    "GlobalCalibration": "privtest.gtm",
    "ExPostCalibration": "privtest.gtm",
    "ExactTailCalibration": "privtest.calibration",
    "certified_calibration": "privtest.calibration",
    "choose_calibration": "privtest.calibration",
    "CalibrationChoice": "privtest.calibration",
    "DEFAULT_THETA": "privtest.gtm",
    "DEFAULT_GAMMA": "privtest.gtm",
    "GTM": "privtest.gtm",
    "StepParams": "privtest.gtm",
    "rejection_threshold": "privtest.gtm",
    "Tester": "privtest.testers",
    "GTMTester": "privtest.testers",
    "Privacy": "privtest.bounds",
    "estimate_epsilon": "privtest.audit",
    "AuditResult": "privtest.audit",
    "Coding": "privtest.audit",
    "lambda_left": "privtest.poisson",
    "lambda_right": "privtest.poisson",
    "count_threshold": "privtest.poisson",
    "omega": "privtest.schedule",
    "beta_t": "privtest.schedule",
    "zeta": "privtest.schedule",
    "make_gtm": "privtest.opendp",
}

#: Public names that need an optional extra: name -> (the module it imports, the extra that installs it).
_OPTIONAL = {"make_gtm": ("opendp", "opendp")}

#: The modules of the deeper tools (the module docstring): attributes of ``privtest``, imported on first access and
#: listed by ``dir``. None of them is also a name of ``__all__`` (tests/test_api.py).
_SUBMODULES = ("audit", "baselines", "bounds", "co", "exact", "measure", "privacy", "svt_variants")

__all__ = list(_EXPORTS)


def __getattr__(name: str):
    if name == "__version__":  # read on demand: importlib.metadata alone costs tens of milliseconds to import
        from importlib.metadata import PackageNotFoundError, version

        try:  # one source of truth: the version in pyproject.toml, from the installed package's metadata
            value = version("privtest")
        except PackageNotFoundError:  # pragma: no cover - a source tree that was never installed
            value = "0+unknown"
    elif name in _EXPORTS:
        if name in _OPTIONAL:
            from importlib.util import find_spec

            module, extra = _OPTIONAL[name]
            if find_spec(module) is None:
                raise ModuleNotFoundError(
                    f'privtest.{name} needs {module}, an optional dependency: pip install "privtest[{extra}]"',
                    name=module,
                )
        value = getattr(_importlib.import_module(_EXPORTS[name]), name)
    elif name in _SUBMODULES:
        value = _importlib.import_module(f"privtest.{name}")
    else:
        raise AttributeError(f"module 'privtest' has no attribute {name!r}")
    globals()[name] = value  # later accesses skip this function
    return value


def __dir__() -> list[str]:
    """The public API, the modules of the deeper tools and the module's dunder attributes, not its helpers or other
    loaded submodules; a name whose optional extra is not installed is left out (``help(privtest)`` reads every listed
    name)."""
    from importlib.util import find_spec

    dunder = {n for n in globals() if n.startswith("__") and n.endswith("__")} - {"__getattr__", "__dir__"}
    dunder.add("__version__")
    missing = {n for n, (module, _) in _OPTIONAL.items() if find_spec(module) is None}
    return sorted(dunder) + [n for n in __all__ if n not in missing] + list(_SUBMODULES)
