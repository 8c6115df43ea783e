"""The external failing cases of /work/shared/cases/library/ that concern the library's mechanisms, bounds and auditor,
each as a test that failed before the fix and passes after; the auditor's verdict against a claim; and the module
hygiene the library promises (lazy pandas, an explicit ``__all__`` everywhere, quantity names instead of theorem
numbers, docstrings with an example). The argument table over every public callable is tests/test_inputs_contract.py.
"""

from __future__ import annotations

import importlib
import inspect
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from privtest import audit as audit_module
from privtest.audit import AuditResult, Coding, audit, bound, estimate_epsilon, runs_to_flag, verdict
from privtest.mechanisms import BernoulliMechanism, Mechanism

ROOT = Path(__file__).resolve().parents[1]
NAN, INF = math.nan, math.inf

#: The modules this suite covers (the library's mechanisms, bounds, exact analysis, auditor, baselines and CO code).
MODULES = [
    "privtest._validate",
    "privtest.mechanisms",
    "privtest.poisson",
    "privtest.schedule",
    "privtest.bounds",
    "privtest.exact",
    "privtest.privacy",
    "privtest.svt_variants",
    "privtest.measure",
    "privtest.audit",
    "privtest.baselines",
    "privtest.baselines.above_threshold",
    "privtest.baselines.cohen",
    "privtest.baselines.ghazi",
    "privtest.baselines.liu_talwar",
    "privtest.co",
    "privtest.co.params",
    "privtest.co.composition",
    "privtest.co.trajectory",
    "privtest.co.tables",
    "privtest.co.mechanisms",
    "privtest.co.batch_to_co",
    "privtest.co.graphs",
    "privtest.co.dks",
    "privtest.co.kcut",
    "privtest.co.maxcut",
    "privtest.co.submodular",
]


def _coin(n, rng):
    return rng.integers(0, 2, n)


# --- f_audit_poisson_zero_size.py: a Poisson main sample size of 0 ----------------------------------------------------


@pytest.mark.parametrize("seed", range(20))
def test_estimate_epsilon_with_n_1_returns_a_result_whatever_the_poisson_sizes(seed):
    """n = 1: each Poisson(1) size is 0 w.p. 0.37 (seeds 0 and 6 drew one). Before: ZeroDivisionError in _eps_hat.
    After: a result whose bound is valid (the conditional test needs no size) and whose eps_hat is NaN exactly when
    a size is 0."""
    res = estimate_epsilon(_coin, _coin, 1, seed, pilot=1)
    assert isinstance(res, AuditResult)
    assert res.eps_lower == -INF or math.isfinite(res.eps_lower)
    if res.n_a == 0 or res.n_b == 0:
        assert math.isnan(res.eps_hat)
    else:
        assert not math.isnan(res.eps_hat)


@pytest.mark.parametrize("seed", [0, 16, 23, 29, 30])
def test_audit_with_n_2_survives_a_zero_size(seed):
    res = audit(lambda x, k, rng: rng.integers(0, 2, k), {"p": (0, 1)}, [Coding("c", ("o",), lambda x: x)], 2, seed)
    assert isinstance(res, AuditResult) and (res.n_a == 0 or res.n_b == 0) and math.isnan(res.eps_hat)


def test_a_zero_size_keeps_the_bound_of_the_conditional_test():
    """The bound conditions on k_a + k_b only: the same counts give the same bound whatever the sizes."""
    sized = verdict([dict(rank=0, k_a=9, k_b=0, n_a=10, n_b=12)], 0.95)
    empty = verdict([dict(rank=0, k_a=9, k_b=0, n_a=10, n_b=0)], 0.95)
    assert empty.eps_lower == sized.eps_lower > 0
    assert sized.eps_hat == INF and math.isnan(empty.eps_hat)


# --- f_audit_bound_unvalidated.py -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: bound(8, 3, 10, NAN), "alpha"),
        (lambda: bound(8, 3, 10, 1.5), "alpha"),
        (lambda: bound(8, 3, 10, 0.0), "alpha"),
        (lambda: bound(8, 3, 10, 0.05, delta=NAN), "delta"),
        (lambda: bound(8, 3, 10, 0.05, delta=-1.0), "delta"),
        (lambda: bound(8, 3, 10, 0.05, delta=-0.5), "delta"),
        (lambda: bound(8, 3, NAN, 0.05, delta=0.01), "n"),
        (lambda: bound(11, 3, 10, 0.05), "k_a"),
        (lambda: bound(8, 3, 10, 0.05, n_b=2), "k_b"),
        (lambda: runs_to_flag(80, 30, 100, 0.1, 1.5), "alpha"),
        (lambda: runs_to_flag(80, 30, 100, 0.1, NAN), "alpha"),
        (lambda: runs_to_flag(80, 30, 100, NAN, 0.05), "claimed"),
        (lambda: runs_to_flag(0, 0, 0, 0.1, 0.05), "n"),
        (lambda: runs_to_flag(80, 30, 100, 0.1, 0.05, delta=-1.0), "delta"),
    ],
)
def test_bound_and_runs_to_flag_refuse_what_verdict_refuses(call, name):
    """Before: bound(8, 3, 10, 0.05, delta=-1) returned 0.79 > the delta = 0 bound (a negative delta inflated the lower
    bound), alpha = nan / 1.5 gave -inf or inf silently, runs_to_flag(0, 0, 0, ...) divided by zero."""
    with pytest.raises(ValueError, match=rf"\b{name}\b"):
        call()


def test_bound_and_runs_to_flag_keep_their_values():
    assert bound(8, 3, 10, 0.05) == pytest.approx(-0.25893384108537065, rel=1e-12)
    assert runs_to_flag(40, 10, 1000, 1.0, 0.025) == pytest.approx(3327, rel=0.01)


# --- f_nan_inf_public_api.py: the mechanism side ----------------------------------------------------------------------


class _Promise(Mechanism):
    """A user's Mechanism subclass whose promised eps is whatever it is given (the case's subclass)."""

    def __init__(self, eps, delta=0.0):
        self.eps, self.delta = eps, delta

    def count_plus(self, n, rng):
        return np.zeros_like(np.asarray(n))


@pytest.mark.parametrize("eps", [NAN, INF, -INF, -0.1, True, 2**1100, "0.1", None])
def test_a_mechanism_subclass_cannot_promise_an_eps_out_of_range(eps):
    """Before: Promise(nan) was built and GTM.step failed with numpy's "lam < 0 or lam is NaN" (eps = -inf was
    accepted). After: the promise is refused when it is made, naming eps."""
    with pytest.raises(ValueError, match=r"\beps\b"):
        _Promise(eps)


@pytest.mark.parametrize("delta", [NAN, 1.0, -0.1, INF, True])
def test_a_mechanism_subclass_cannot_promise_a_delta_out_of_range(delta):
    with pytest.raises(ValueError, match=r"\bdelta\b"):
        _Promise(0.1, delta)


@pytest.mark.parametrize("n", [INF, -INF, NAN, 4.5, True, -1, 2**1100, 2**63, [3, 4.5], [3, -1], "3", None])
def test_count_plus_refuses_a_bad_n_naming_it(n):
    """Before: n = inf raised OverflowError, n = 4.5 silently made 4 evaluations, n = True was accepted."""
    with pytest.raises(ValueError, match=r"\bn\b"):
        BernoulliMechanism(0.3, 0.1).count_plus(n, 0)


@pytest.mark.parametrize("n", [INF, 4.5, True, -1])
def test_a_user_subclass_count_plus_checks_n_too(n):
    with pytest.raises(ValueError, match=r"\bn\b"):
        _Promise(0.1).count_plus(n, 0)


def test_count_plus_keeps_its_numbers_and_seed_rule():
    m = BernoulliMechanism(0.3, 0.1)
    assert int(m.count_plus(4.0, 7)) == int(m.count_plus(np.int64(4), np.random.default_rng(7)))
    assert m.count_plus([10, 1000], 0).tolist() == np.random.default_rng(0).binomial([10, 1000], 0.3).tolist()


# --- The auditor's verdict against a claim ----------------------------------------------------------------------------


def _rr(x, k, rng):
    """Randomized response with eps = 1 on the bit x."""
    return np.where(rng.random(k) < np.e / (1 + np.e), x, 1 - x)


def _rr_audit(claimed_eps=None, seed=0):
    return audit(_rr, {"0 vs 1": (0, 1)}, [Coding("bit", ("bit",), lambda y: y)], 20_000, seed, claimed_eps=claimed_eps)


def test_a_claim_below_the_truth_is_refuted_and_the_truth_is_not():
    low, true, none = _rr_audit(0.5), _rr_audit(1.0), _rr_audit()
    assert (low.claimed_eps, low.refuted) == (0.5, True)
    assert (true.claimed_eps, true.refuted) == (1.0, False)
    assert (none.claimed_eps, none.refuted) == (None, None)
    # the claim changes no draw and no bound
    assert low.eps_lower == true.eps_lower == none.eps_lower and low.cells == none.cells
    assert low.refuted == (low.eps_lower > 0.5)


def test_refutation_is_eps_lower_above_the_claim_at_the_family_wise_level():
    """refuted <=> eps_lower > claimed_eps, where eps_lower already carries the union bound over the carried
    witnesses (alpha = (1 - confidence) / candidates)."""
    res = estimate_epsilon(
        lambda n, rng: rng.random(n) < np.e / (1 + np.e),
        lambda n, rng: rng.random(n) >= np.e / (1 + np.e),
        4000,
        3,
        claimed_eps=0.8,
        candidates=4,
    )
    assert res.alpha == pytest.approx((1 - 0.95) / res.candidates)
    assert res.refuted == (res.eps_lower > 0.8)


@pytest.mark.parametrize("claimed", [NAN, INF, -0.5, True, "1"])
def test_a_bad_claim_is_refused_naming_claimed_eps(claimed):
    with pytest.raises(ValueError, match="claimed_eps"):
        _rr_audit(claimed)


def test_an_audit_result_prints_in_a_few_lines():
    res = _rr_audit(0.5)
    text = str(res)
    lines = text.splitlines()
    assert 3 <= len(lines) <= 6 and all(len(line) <= 120 for line in lines), text
    for piece in ("claim eps = 0.5", "REFUTED", f"{res.eps_lower:.4g}", f"{res.eps_hat:.4g}", "'0 vs 1'", res.event):
        assert piece in text, (piece, text)
    assert "not refuted" in str(_rr_audit(1.0))
    assert "no claim" in str(_rr_audit())
    short = repr(res)
    assert "\n" not in short and "refuted=True" in short and "cells" not in short and len(short) < 300


def test_the_module_docstring_shows_the_verdict():
    assert "claimed_eps" in audit_module.__doc__ and ">>> print(res)" in audit_module.__doc__


# --- Module hygiene ---------------------------------------------------------------------------------------------------


def test_importing_the_library_does_not_import_pandas():
    """co.graphs, co.submodular and co.maxcut imported pandas at module level; now only the functions that read a
    DataFrame do, when called."""
    code = "import importlib, sys\n" + "".join(f"importlib.import_module({m!r})\n" for m in MODULES)
    code += "import privtest\nassert 'pandas' not in sys.modules, [m for m in sys.modules if 'pandas' in m][:3]\n"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize("name", MODULES)
def test_every_module_has_an_explicit_all_of_its_public_names(name):
    mod = importlib.import_module(name)
    assert isinstance(getattr(mod, "__all__", None), list), f"{name} has no __all__"
    assert len(set(mod.__all__)) == len(mod.__all__)
    for public in mod.__all__:
        obj = getattr(mod, public)
        assert not inspect.ismodule(obj), f"{name}.__all__ exports the module {public}"
    # nothing like np, math, dataclass leaks through a star import
    namespace: dict = {}
    exec(f"from {name} import *", namespace)
    leaked = {k for k, v in namespace.items() if k != "__builtins__" and inspect.ismodule(v)}
    assert not leaked, leaked


#: Renamed (old theorem-numbered name -> quantity name); the library keeps no alias.
RENAMES = {
    "privtest.bounds": {
        "thm29_alpha_sum": "alpha_sum_lower_bound",
        "cor30_case": "threshold_ratio_case",
        "cor30_ratio": "threshold_ratio",
        "cor30_odds_ratio": "threshold_odds_ratio",
        "lemma50_halt_lower": "halt_probability_lower",
        "cor51_pbar_max": "cohen_pbar_max",
        "cor53_pbar_max": "ghazi_pbar_max",
        "cor53_bad_selection_lower": "ghazi_bad_selection_lower",
    },
    "privtest.privacy": {"lemma17_claims": "transcript_loss_bounds"},
    "privtest.co.params": {
        "theorem42_guarantee": "utility_guarantee",
        "lemma39_margin": "checkpoint_margin",
        "lemma40_max_checkpoints": "max_checkpoints",
    },
}


@pytest.mark.parametrize("name", sorted(RENAMES))
def test_names_say_the_quantity_and_the_docstring_says_the_theorem(name):
    mod = importlib.import_module(name)
    for old, new in RENAMES[name].items():
        assert not hasattr(mod, old), f"{name}.{old} is still there"
        assert new in mod.__all__
        number = "".join(ch for ch in old.split("_")[0] if ch.isdigit())
        assert number in getattr(mod, new).__doc__, (new, number)
    theorem_named = [
        n for n in mod.__all__ if n.split("_")[0].rstrip("0123456789") in ("lemma", "thm", "theorem", "cor")
    ]
    assert not theorem_named, theorem_named


def _public_callables():
    for name in MODULES:
        if name in ("privtest._validate", "privtest.baselines", "privtest.co"):
            continue
        mod = importlib.import_module(name)
        for public in mod.__all__:
            obj = getattr(mod, public)
            if (inspect.isfunction(obj) or inspect.isclass(obj)) and obj.__module__ == name:
                yield pytest.param(obj, id=f"{name}.{public}")


@pytest.mark.parametrize("obj", list(_public_callables()))
def test_every_public_function_and_class_has_a_docstring_with_an_example(obj):
    doc = inspect.getdoc(obj) or ""
    assert "Example:" in doc and ">>> " in doc, f"{obj.__qualname__} has no Example"
    if inspect.isfunction(obj) and len(inspect.signature(obj).parameters) > 0:
        assert "Args:" in doc or "arguments as" in doc or "Args" in doc, f"{obj.__qualname__} documents no Args"
