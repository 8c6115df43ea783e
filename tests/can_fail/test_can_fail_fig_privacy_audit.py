"""fig_privacy_audit's check can fail: a private mechanism whose witnesses plainly exceed its claimed (and exact) eps is
FAIL. ``audit.flags_broken`` cannot be FAIL by design (the auditor's power, not the paper, is tested): its claims
say so (privtest_artifact.claims.CANNOT_FAIL)."""

import math

import pandas as pd

from privtest_artifact.claims import CANNOT_FAIL
from privtest_artifact.outputs.fig_privacy_audit import raw_row


def _row(mechanism, expected, k_a, k_b, eps_exact=math.nan, n=200_000, claimed=1.0) -> dict:
    """One audited mechanism in fig_privacy_audit's raw schema (delta = 0, one carried witness of n runs per input);
    privtest_artifact.outputs.fig_privacy_audit judges it (eps_lower, flagged) at the config's confidence."""
    witness = dict(witness="", coding="output", event="E1", direction="a/b", k_a=k_a, k_b=k_b, n_a=n, n_b=n)
    actual = math.inf if expected == "broken" else claimed
    return raw_row(mechanism, claimed, 0.0, actual, [witness], n, 10, "([0], [1])", eps_exact)


def test_fail_private_mechanism_flagged_far_above_its_claim(output_cfg, run_check, verdicts):
    # Pr_a[E] / Pr_b[E] = 20 000 / 200 > e^1: every sample refutes eps = 1 (and the exact loss 1)
    raw = pd.DataFrame([_row("GTM (a-priori)", "private", 20_000, 200, eps_exact=1.0)])
    v = verdicts(run_check("fig_privacy_audit", raw, output_cfg("fig_privacy_audit")), "audit.")
    assert v == {"audit.not_flagged[GTM (a-priori)]": "FAIL", "audit.below_exact[GTM (a-priori)]": "FAIL"}


def test_safe_private_mechanism_within_its_claim(output_cfg, run_check, verdicts):
    raw = pd.DataFrame([_row("GTM (a-priori)", "private", 10_000, 9_000, eps_exact=1.0)])
    v = verdicts(run_check("fig_privacy_audit", raw, output_cfg("fig_privacy_audit")), "audit.")
    assert v == {"audit.not_flagged[GTM (a-priori)]": "PASS", "audit.below_exact[GTM (a-priori)]": "PASS"}


def test_safe_flags_broken_is_pass_or_inconclusive_and_says_it_cannot_fail(output_cfg, run_check):
    raw = pd.DataFrame(
        [
            _row("SVT alg3", "broken", 20_000, 200),  # plainly flagged: PASS
            _row("SVT alg4", "broken", 1_000, 999),  # the auditor misses it: INCONCLUSIVE, not FAIL
        ]
    )
    frame = run_check("fig_privacy_audit", raw, output_cfg("fig_privacy_audit")).set_index("claim_id")
    assert frame.loc["audit.flags_broken[SVT alg3]", "verdict"] == "PASS"
    assert frame.loc["audit.flags_broken[SVT alg4]", "verdict"] == "INCONCLUSIVE"
    assert all(CANNOT_FAIL in note for note in frame.note)
