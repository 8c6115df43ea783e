"""table1's check can fail: a tester halting in every run at its own pbar_T, never halting at its guaranteed threshold,
making half Theorem 31's evaluations, or claiming a pbar_T above Corollary 30's is FAIL. The GTM-vs-Cohen ratio
claims rest on brackets and cannot be FAIL by design (their note says why: privtest_artifact.claims.CANNOT_FAIL)."""

import pandas as pd
import pytest

from privtest import bounds
from privtest_artifact.claims import CANNOT_FAIL
from privtest_artifact.registry import make_tester

T, PSTAR, RATIO = 100, 0.2, 0.1


@pytest.fixture(scope="module")
def cfg(output_cfg):
    return output_cfg("table1")


def _raw(cfg, *, contradict: bool, samples_sd=5.0) -> pd.DataFrame:
    """table1's raw rows at T = 100, p* = 0.2, eps_1/eps = 0.1 for the GTM and Cohen et al., plus a LowerBound row."""
    runs = 1000
    lb = bounds.lower_bound_sample_complexity(PSTAR, cfg["eps"], RATIO * cfg["eps"], cfg["beta"])
    rows = []
    for method in ("GTM", "Cohen"):
        tester = make_tester(method, cfg, PSTAR, RATIO, T)
        pbar = tester.pbar(T)
        rows.append(
            dict(method=method, T=T, pstar=PSTAR, eps_ratio=RATIO, eps=cfg["eps"], eps1=RATIO * cfg["eps"])
            | dict(eps0=float("nan"), delta=tester.privacy.delta, source=tester.source, runs=runs, type2_runs=runs)
            | dict(halt_p=tester.halt_p(T), halts_at_pstar=0 if contradict else runs)
            | dict(halts_at_pbar_theory=runs if contradict else 0, halts_at_halt_p=0 if contradict else runs)
            | dict(samples_measured=lb / 2 if contradict else 2 * lb, samples_sd=samples_sd)
            | dict(samples_measured_kind="Monte Carlo", pbar_theory=PSTAR if contradict else pbar)
            | dict(pbar_measured=pbar, pbar_measured_upper=pbar * 1.1)
            | dict(type1_bound=tester.type1_bound, type2_bound=tester.type2_bound)  # recorded by the simulation
            | dict(privacy_delta=tester.privacy.delta)
        )
    rows.append(dict(method="LowerBound", T=T, pstar=PSTAR, eps_ratio=RATIO, runs=float("nan")))
    return pd.DataFrame(rows)


def test_fail_every_guarantee_violated(cfg, run_check, verdicts):
    frame = run_check("table1", _raw(cfg, contradict=True), cfg)
    for prefix in ("continue_at_pbar", "halt_at_guarantee", "samples_vs_thm31", "upper_vs_lower"):
        v = verdicts(frame, f"table1.{prefix}[")
        assert set(v.values()) == {"FAIL"} and len(v) == 2, v


def test_safe_every_guarantee_met(cfg, run_check, verdicts):
    frame = run_check("table1", _raw(cfg, contradict=False), cfg)
    v = verdicts(frame, "table1.")
    assert "FAIL" not in v.values(), v
    for prefix in ("continue_at_pbar", "halt_at_guarantee", "samples_vs_thm31", "upper_vs_lower"):
        assert set(verdicts(frame, f"table1.{prefix}[").values()) == {"PASS"}


def test_safe_identical_counts_and_bracket_claims_state_why_they_cannot_fail(cfg, run_check, verdicts):
    # identical evaluation counts in 1000 runs twice the bound: the bounded-range test ((lb / 2 lb)^1000) establishes
    frame = run_check("table1", _raw(cfg, contradict=False, samples_sd=0.0), cfg)
    assert set(verdicts(frame, "table1.samples_vs_thm31[").values()) == {"PASS"}
    brackets = frame[frame.claim_id.str.startswith(("table1.gtm_above_cohen", "table1.gtm_over_cohen_factor"))]
    assert len(brackets) == 2 and all(CANNOT_FAIL in n for n in brackets.note), brackets.note.tolist()
